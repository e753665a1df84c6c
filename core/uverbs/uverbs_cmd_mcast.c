// SPDX-License-Identifier: GPL-2.0-only
/* Multicast groups of user QPs: ATTACH_MCAST, DETACH_MCAST and the detaches a closing file owes. */
/*
 * The attachments a process made are not objects with handles: the QP's
 * user side lists them (struct ib_uqp_object.mcast_list, under its
 * mcast_lock), so that attaching twice is harmless, a detach must name
 * an attachment, DESTROY_QP is -EBUSY while some are left, and a file
 * that goes away detaches what its QPs still have.
 */

#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

/* One group a user QP was attached to. */
struct uverbs_mcast {
	struct list_head list;
	union ib_gid gid;
	u16 lid;
};

/* The attachment of @uqp to (@gid, @lid), or NULL. */
static struct uverbs_mcast *uverbs_mcast_find(struct ib_uqp_object *uqp,
					      const u8 *gid, u16 lid)
{
	struct uverbs_mcast *m;

	lockdep_assert_held(&uqp->mcast_lock);
	list_for_each_entry(m, &uqp->mcast_list, list)
		if (m->lid == lid && !memcmp(m->gid.raw, gid, sizeof(m->gid)))
			return m;
	return NULL;
}

/*
 * ATTACH_MCAST and DETACH_MCAST share their request's layout: @attach
 * says which it is.
 */
static int uverbs_mcast_change(struct uverbs_cmd_ctx *ctx,
			       const struct ib_uverbs_attach_mcast *cmd,
			       bool attach)
{
	struct ib_uqp_object *uqp;
	struct uverbs_mcast *m;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret = 0;

	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_qp, cmd->qp_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	qp = uobj->object;
	uqp = qp->uobject;
	mutex_lock(&uqp->mcast_lock);
	m = uverbs_mcast_find(uqp, cmd->gid, cmd->mlid);
	if (attach && !m) {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(m->gid.raw, cmd->gid, sizeof(m->gid));
		m->lid = cmd->mlid;
		ret = ib_attach_mcast(qp, &m->gid, m->lid);
		if (ret)
			kfree(m);
		else
			list_add_tail(&m->list, &uqp->mcast_list);
	} else if (!attach) {
		ret = m ? ib_detach_mcast(qp, &m->gid, m->lid) : -EINVAL;
		if (!ret) {
			list_del(&m->list);
			kfree(m);
		}
	}
out:
	mutex_unlock(&uqp->mcast_lock);
	uverbs_uobj_put_read(uobj);
	return ret;
}

/**
 * uverbs_cmd_attach_mcast() - IB_USER_VERBS_CMD_ATTACH_MCAST
 * @ctx: the command
 *
 * Attaching a QP to a group it is attached to already succeeds and
 * changes nothing.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such QP or a group the device refuses (not
 * multicast, not UD), -EBUSY, -ENOMEM, -EOPNOTSUPP.
 */
int uverbs_cmd_attach_mcast(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_attach_mcast cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	return ret ? ret : uverbs_mcast_change(ctx, &cmd, true);
}

/**
 * uverbs_cmd_detach_mcast() - IB_USER_VERBS_CMD_DETACH_MCAST
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such QP or a group the QP is not attached to
 * by this file, -EBUSY, or the device's error.
 */
int uverbs_cmd_detach_mcast(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_detach_mcast dcmd;
	struct ib_uverbs_attach_mcast cmd = {};
	int ret = uverbs_cmd_request(ctx, &dcmd, sizeof(dcmd));

	if (ret)
		return ret;
	memcpy(cmd.gid, dcmd.gid, sizeof(cmd.gid));
	cmd.qp_handle = dcmd.qp_handle;
	cmd.mlid = dcmd.mlid;
	return uverbs_mcast_change(ctx, &cmd, false);
}

/**
 * uverbs_mcast_detach_all() - detach a user QP from every group it is in
 * @qp: the QP, about to be destroyed as its file goes away
 *
 * Context: Process context, may sleep; no command uses @qp any more.
 */
void uverbs_mcast_detach_all(struct ib_qp *qp)
{
	struct ib_uqp_object *uqp = qp->uobject;
	struct uverbs_mcast *m, *next;

	mutex_lock(&uqp->mcast_lock);
	list_for_each_entry_safe(m, next, &uqp->mcast_list, list) {
		ib_detach_mcast(qp, &m->gid, m->lid);
		list_del(&m->list);
		kfree(m);
	}
	mutex_unlock(&uqp->mcast_lock);
}
