// SPDX-License-Identifier: GPL-2.0-only
/*
 * QPs from user space: CREATE_QP, EX_CREATE_QP, MODIFY_QP, EX_MODIFY_QP,
 * QUERY_QP, DESTROY_QP and the POST_SEND doorbell.
 */
/*
 * RC, UC and UD QPs (and raw packet QPs for CAP_NET_RAW, where a driver
 * has them) on a PD, CQs and an optional SRQ of the same file. XRC QPs
 * need XRC domain handles and indirection tables need WQs, neither of
 * which this file hands out yet: such requests answer -EINVAL, as 6.1
 * does for a handle that names nothing. The QP holds its PD, CQs and SRQ
 * through their usecnt, so those refuse to go first; its async events go
 * to the file's async event file (struct uverbs_uevent).
 */

#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "netlink/nldev.h"
#include "verbs/verbs.h"
#include "uverbs/uverbs.h"

static int uverbs_qp_destroy(struct ib_uobject *uobj,
			     struct ib_uverbs_file *file, bool force)
{
	struct ib_udata udata = {};
	struct ib_qp *qp = uobj->object;
	struct ib_uqp_object *uqp = qp->uobject;
	int ret;

	/* DESTROY_QP refused to go while attached; a closing file detaches */
	uverbs_mcast_detach_all(qp);
	ret = ib_destroy_qp_user(qp, &udata);
	if (ret && !force)
		return ret;
	if (ret)
		pr_warn("%s: user QP %u not freed: %d\n",
			dev_name(&qp->device->dev), uobj->id, ret);
	uverbs_uevent_release(&uqp->uevent);
	return ret;
}

static const struct uverbs_obj_type uverbs_qp_type = {
	.name = "qp",
	.destroy = uverbs_qp_destroy,
};

const struct uverbs_api_object uverbs_obj_qp = { .type = &uverbs_qp_type };

/* --- CREATE_QP, EX_CREATE_QP --------------------------------------------- */

/*
 * The handles a CREATE names, held for reading while the QP is made: the
 * PD, the send CQ, the receive CQ (not held twice when it is the send CQ)
 * and the SRQ. Unused slots stay NULL.
 */
struct uverbs_qp_uses {
	struct ib_uobject *pd, *scq, *rcq, *srq;
};

static void uverbs_qp_uses_put(struct uverbs_qp_uses *u)
{
	if (u->srq)
		uverbs_uobj_put_read(u->srq);
	if (u->rcq)
		uverbs_uobj_put_read(u->rcq);
	if (u->scq)
		uverbs_uobj_put_read(u->scq);
	if (u->pd)
		uverbs_uobj_put_read(u->pd);
}

/* Look up what @cmd names into @u and @attr; put @u whatever happens. */
static int uverbs_qp_uses_get(struct ib_uverbs_file *file,
			      const struct ib_uverbs_ex_create_qp *cmd,
			      struct uverbs_qp_uses *u,
			      struct ib_qp_init_attr *attr)
{
	struct ib_uobject *o;

	o = uverbs_uobj_get_read(file, &uverbs_obj_pd, cmd->pd_handle);
	if (IS_ERR(o))
		return PTR_ERR(o);
	u->pd = o;
	o = uverbs_uobj_get_read(file, &uverbs_obj_cq, cmd->send_cq_handle);
	if (IS_ERR(o))
		return PTR_ERR(o);
	u->scq = o;
	attr->send_cq = o->object;
	attr->recv_cq = o->object;
	if (cmd->recv_cq_handle != cmd->send_cq_handle) {
		o = uverbs_uobj_get_read(file, &uverbs_obj_cq,
					 cmd->recv_cq_handle);
		if (IS_ERR(o))
			return PTR_ERR(o);
		u->rcq = o;
		attr->recv_cq = o->object;
	}
	if (cmd->is_srq) {
		attr->srq = uverbs_srq_get(file, cmd->srq_handle, &o);
		if (IS_ERR(attr->srq))
			return PTR_ERR(attr->srq);
		u->srq = o;
	}
	return 0;
}

/* What a CREATE may ask for before any object is looked up. */
static int uverbs_qp_create_check(const struct ib_uverbs_ex_create_qp *cmd)
{
	/* XRC and driver QPs need objects this file has no handles for */
	if (cmd->qp_type != IB_QPT_RC && cmd->qp_type != IB_QPT_UC &&
	    cmd->qp_type != IB_QPT_UD && cmd->qp_type != IB_QPT_RAW_PACKET)
		return -EINVAL;
	if (cmd->qp_type == IB_QPT_RAW_PACKET && !capable(CAP_NET_RAW))
		return -EPERM;
	if (cmd->comp_mask)
		return -EINVAL;
	if (cmd->create_flags & ~(IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |
				  IB_QP_CREATE_SCATTER_FCS |
				  IB_QP_CREATE_CVLAN_STRIPPING |
				  IB_QP_CREATE_PCI_WRITE_END_PADDING |
				  IB_QP_CREATE_SOURCE_QPN))
		return -EINVAL;
	if ((cmd->create_flags & IB_QP_CREATE_SOURCE_QPN) &&
	    !capable(CAP_NET_RAW))
		return -EPERM;
	return 0;
}

/*
 * The legacy request past its response address is the extended one up to
 * its reserved byte, field for field.
 */
#define UVERBS_QP_CREATE_COMMON \
	offsetofend(struct ib_uverbs_ex_create_qp, reserved)
static_assert(sizeof(struct ib_uverbs_create_qp) -
	      offsetof(struct ib_uverbs_create_qp, user_handle) ==
	      UVERBS_QP_CREATE_COMMON);
static_assert(offsetof(struct ib_uverbs_create_qp, is_srq) -
	      offsetof(struct ib_uverbs_create_qp, user_handle) ==
	      offsetof(struct ib_uverbs_ex_create_qp, is_srq));

/* CREATE_QP and EX_CREATE_QP, the former widened to the latter. */
static int uverbs_qp_create(struct uverbs_cmd_ctx *ctx,
			    const struct ib_uverbs_ex_create_qp *cmd)
{
	struct ib_uverbs_ex_create_qp_resp resp = {};
	struct uverbs_qp_uses uses = {};
	struct ib_qp_init_attr attr = {
		.event_handler = uverbs_uevent_handler,
		.sq_sig_type = cmd->sq_sig_all ? IB_SIGNAL_ALL_WR :
						 IB_SIGNAL_REQ_WR,
		.qp_type = cmd->qp_type,
		.create_flags = cmd->create_flags,
		.source_qpn = cmd->source_qpn,
		.cap = {
			.max_send_wr = cmd->max_send_wr,
			.max_recv_wr = cmd->max_recv_wr,
			.max_send_sge = cmd->max_send_sge,
			.max_recv_sge = cmd->max_recv_sge,
			.max_inline_data = cmd->max_inline_data,
		},
	};
	struct ib_uqp_object *uqp;
	struct uverbs_uevent *ue;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_qp_create_check(cmd);
	if (ret)
		return ret;
	uobj = uverbs_uobj_alloc(ctx->file, &uverbs_obj_qp);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ue = uverbs_uevent_alloc(ctx, cmd->user_handle, sizeof(*uqp));
	if (!ue) {
		ret = -ENOMEM;
		goto err_handle;
	}
	uqp = container_of(ue, struct ib_uqp_object, uevent);
	mutex_init(&uqp->mcast_lock);
	INIT_LIST_HEAD(&uqp->mcast_list);
	attr.qp_context = ue;
	ret = uverbs_qp_uses_get(ctx->file, cmd, &uses, &attr);
	if (ret)
		goto err_uses;
	qp = ib_create_qp_user(ctx->ib_dev, uses.pd->object, &attr,
			       &ctx->driver_udata, uqp, NULL);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto err_uses;
	}
	ib_qp_usecnt_inc(qp);
	uverbs_qp_uses_put(&uses);
	uobj->object = qp;
	uobj->context = ctx->ucontext;
	uobj->user_handle = cmd->user_handle;
	resp.base.qp_handle = uobj->id;
	resp.base.qpn = qp->qp_num;
	resp.base.max_send_wr = attr.cap.max_send_wr;
	resp.base.max_recv_wr = attr.cap.max_recv_wr;
	resp.base.max_send_sge = attr.cap.max_send_sge;
	resp.base.max_recv_sge = attr.cap.max_recv_sge;
	resp.base.max_inline_data = attr.cap.max_inline_data;
	resp.response_length = min_t(size_t, ctx->ucore.outlen, sizeof(resp));
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_qp;
	return uverbs_uobj_publish(uobj);

err_qp:
	ib_destroy_qp_user(qp, &(struct ib_udata){});
	goto err_ue;
err_uses:
	uverbs_qp_uses_put(&uses);
err_ue:
	uverbs_uevent_release(ue);
err_handle:
	uverbs_uobj_abort(uobj);
	return ret;
}

/**
 * uverbs_cmd_create_qp() - IB_USER_VERBS_CMD_CREATE_QP
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the handle, the QPN and the sizes granted; -EINVAL for
 * a QP type this file cannot make or a handle that names no PD, CQ or SRQ
 * of the file, -EPERM for a raw packet QP without CAP_NET_RAW, -EBUSY,
 * -ENOMEM, -EFAULT, or the driver's error.
 */
int uverbs_cmd_create_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_create_qp xcmd = {};
	struct ib_uverbs_create_qp cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	memcpy(&xcmd, (const u8 *)&cmd +
	       offsetof(struct ib_uverbs_create_qp, user_handle),
	       UVERBS_QP_CREATE_COMMON);
	return uverbs_qp_create(ctx, &xcmd);
}

/**
 * uverbs_cmd_ex_create_qp() - IB_USER_VERBS_EX_CMD_CREATE_QP
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: as uverbs_cmd_create_qp(); -EINVAL for a comp_mask (no
 * indirection tables) or create flags 6.1 does not know, -EPERM for
 * IB_QP_CREATE_SOURCE_QPN without CAP_NET_RAW.
 */
int uverbs_cmd_ex_create_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_create_qp cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	return ret ? ret : uverbs_qp_create(ctx, &cmd);
}

/* --- MODIFY_QP, EX_MODIFY_QP, QUERY_QP ----------------------------------- */

/*
 * The attributes that MODIFY_QP takes and QUERY_QP reports under the same
 * name in the ABI and in struct ib_qp_attr, paths aside.
 */
#define UVERBS_QP_SCALARS(X)						\
	X(qp_state) X(cur_qp_state) X(path_mtu) X(path_mig_state)	\
	X(qkey) X(rq_psn) X(sq_psn) X(dest_qp_num) X(qp_access_flags)	\
	X(pkey_index) X(alt_pkey_index) X(max_rd_atomic)		\
	X(max_dest_rd_atomic) X(min_rnr_timer) X(port_num) X(timeout)	\
	X(retry_cnt) X(rnr_retry) X(alt_port_num) X(alt_timeout)

/* A path of a MODIFY_QP as the verbs layer takes it. */
static void uverbs_qp_dest_in(struct ib_device *dev, struct rdma_ah_attr *ah,
			      const struct ib_uverbs_qp_dest *d)
{
	ah->type = rdma_ah_find_type(dev, d->port_num);
	if (d->is_global) {
		rdma_ah_set_grh(ah, NULL, d->flow_label, d->sgid_index,
				d->hop_limit, d->traffic_class);
		memcpy(rdma_ah_retrieve_grh(ah)->dgid.raw, d->dgid,
		       sizeof(d->dgid));
	} else {
		rdma_ah_set_ah_flags(ah, 0);
	}
	rdma_ah_set_dlid(ah, d->dlid);
	rdma_ah_set_sl(ah, d->sl);
	rdma_ah_set_path_bits(ah, d->src_path_bits);
	rdma_ah_set_static_rate(ah, d->static_rate);
	rdma_ah_set_port_num(ah, d->port_num);
}

/* A path of the verbs layer as QUERY_QP answers it. */
static void uverbs_qp_dest_out(struct ib_uverbs_qp_dest *d,
			       const struct rdma_ah_attr *ah)
{
	memset(d, 0, sizeof(*d));
	d->dlid = rdma_ah_get_dlid(ah);
	d->sl = rdma_ah_get_sl(ah);
	d->src_path_bits = rdma_ah_get_path_bits(ah);
	d->static_rate = rdma_ah_get_static_rate(ah);
	d->port_num = rdma_ah_get_port_num(ah);
	d->is_global = !!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH);
	if (d->is_global) {
		const struct ib_global_route *grh = rdma_ah_read_grh(ah);

		memcpy(d->dgid, grh->dgid.raw, sizeof(d->dgid));
		d->flow_label = grh->flow_label;
		d->sgid_index = grh->sgid_index;
		d->hop_limit = grh->hop_limit;
		d->traffic_class = grh->traffic_class;
	}
}

/*
 * Ports a MODIFY names must exist; an AV outside INIT->RTR moves the
 * primary port with it (6.1's rule: a driver does not follow path
 * migration in SQD, so the port comes with the AV). May add IB_QP_PORT.
 */
static int uverbs_qp_modify_ports(struct ib_qp *qp,
				  struct ib_uverbs_modify_qp *c)
{
	u32 m = c->attr_mask;

	if ((m & IB_QP_PORT) && !rdma_is_port_valid(qp->device, c->port_num))
		return -EINVAL;
	if (m & IB_QP_AV) {
		if (!rdma_is_port_valid(qp->device, c->dest.port_num))
			return -EINVAL;
		if ((m & IB_QP_STATE) && c->qp_state == IB_QPS_RTR) {
			if (c->dest.port_num != qp->real_qp->port)
				return -EINVAL;
		} else if (m & IB_QP_PORT) {
			if (c->port_num != c->dest.port_num)
				return -EINVAL;
		} else {
			c->attr_mask |= IB_QP_PORT;
			c->port_num = c->dest.port_num;
		}
	}
	if ((m & IB_QP_ALT_PATH) &&
	    (!rdma_is_port_valid(qp->device, c->alt_port_num) ||
	     c->alt_port_num != c->alt_dest.port_num))
		return -EINVAL;
	if (((m & IB_QP_CUR_STATE) && c->cur_qp_state > IB_QPS_ERR) ||
	    ((m & IB_QP_STATE) && c->qp_state > IB_QPS_ERR))
		return -EINVAL;
	if ((m & IB_QP_QKEY) && (c->qkey & IB_QP_SET_QKEY) &&
	    !rdma_nl_get_privileged_qkey())
		return -EPERM;
	return 0;
}

/*
 * The attributes of a MODIFY. All fields are copied: the verbs layer and
 * the driver only read those attr_mask names.
 */
static void uverbs_qp_modify_attr(struct ib_qp *qp, struct ib_qp_attr *a,
				  const struct ib_uverbs_ex_modify_qp *x)
{
	const struct ib_uverbs_modify_qp *c = &x->base;

#define UVERBS_QP_FROM_CMD(f) a->f = c->f;
	UVERBS_QP_SCALARS(UVERBS_QP_FROM_CMD)
#undef UVERBS_QP_FROM_CMD
	a->en_sqd_async_notify = c->en_sqd_async_notify;
	a->rate_limit = x->rate_limit;
	if (c->attr_mask & IB_QP_AV)
		uverbs_qp_dest_in(qp->device, &a->ah_attr, &c->dest);
	if (c->attr_mask & IB_QP_ALT_PATH)
		uverbs_qp_dest_in(qp->device, &a->alt_ah_attr, &c->alt_dest);
}

/* MODIFY_QP and EX_MODIFY_QP, the former widened to the latter. */
static int uverbs_qp_modify(struct uverbs_cmd_ctx *ctx,
			    struct ib_uverbs_ex_modify_qp *cmd)
{
	struct ib_uobject *uobj;
	struct ib_qp_attr *attr;
	struct ib_qp *qp;
	int ret;

	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	if (!attr)
		return -ENOMEM;
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_qp,
				    cmd->base.qp_handle);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto out;
	}
	qp = uobj->object;
	ret = uverbs_qp_modify_ports(qp, &cmd->base);
	if (!ret) {
		uverbs_qp_modify_attr(qp, attr, cmd);
		ret = ib_modify_qp_with_udata(qp, attr, cmd->base.attr_mask,
					      &ctx->driver_udata);
	}
	uverbs_uobj_put_read(uobj);
out:
	kfree(attr);
	return ret;
}

/**
 * uverbs_cmd_modify_qp() - IB_USER_VERBS_CMD_MODIFY_QP
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0; -EOPNOTSUPP for attr_mask bits beyond the standard ones,
 * -EINVAL for no such QP, a port the device lacks or a transition the
 * verbs layer refuses, -EPERM for a privileged Q_Key, -EBUSY, -ENOMEM,
 * or the driver's error.
 */
int uverbs_cmd_modify_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_modify_qp cmd = {};
	int ret = uverbs_cmd_request(ctx, &cmd.base, sizeof(cmd.base));

	if (ret)
		return ret;
	if (cmd.base.attr_mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	return uverbs_qp_modify(ctx, &cmd);
}

/**
 * uverbs_cmd_ex_modify_qp() - IB_USER_VERBS_EX_CMD_MODIFY_QP
 * @ctx: the command
 *
 * Also takes IB_QP_RATE_LIMIT.
 *
 * Context: Process context, may sleep.
 * Return: as uverbs_cmd_modify_qp(), the response its length.
 */
int uverbs_cmd_ex_modify_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_modify_qp_resp resp = {};
	struct ib_uverbs_ex_modify_qp cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	if (cmd.base.attr_mask &
	    ~(IB_QP_ATTR_STANDARD_BITS | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	ret = uverbs_qp_modify(ctx, &cmd);
	if (ret)
		return ret;
	resp.response_length = min_t(size_t, ctx->ucore.outlen, sizeof(resp));
	return uverbs_cmd_response(ctx, &resp, sizeof(resp));
}

/* QUERY_QP's answer from what the verbs layer reports. */
static void uverbs_qp_query_resp(struct ib_uverbs_query_qp_resp *r,
				 const struct ib_qp_attr *a,
				 const struct ib_qp_init_attr *init)
{
	uverbs_qp_dest_out(&r->dest, &a->ah_attr);
	uverbs_qp_dest_out(&r->alt_dest, &a->alt_ah_attr);
	r->max_send_wr = init->cap.max_send_wr;
	r->max_recv_wr = init->cap.max_recv_wr;
	r->max_send_sge = init->cap.max_send_sge;
	r->max_recv_sge = init->cap.max_recv_sge;
	r->max_inline_data = init->cap.max_inline_data;
#define UVERBS_QP_TO_RESP(f) r->f = a->f;
	UVERBS_QP_SCALARS(UVERBS_QP_TO_RESP)
#undef UVERBS_QP_TO_RESP
	r->sq_draining = a->sq_draining;
	r->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
}

/**
 * uverbs_cmd_query_qp() - IB_USER_VERBS_CMD_QUERY_QP
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the QP's attributes; -EINVAL for no such QP, -EBUSY,
 * -ENOMEM, -EFAULT, or the driver's error.
 */
int uverbs_cmd_query_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_query_qp_resp resp = {};
	struct ib_qp_init_attr *init;
	struct ib_uverbs_query_qp cmd;
	struct ib_uobject *uobj;
	struct ib_qp_attr *attr;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	init = kzalloc(sizeof(*init), GFP_KERNEL);
	if (!attr || !init) {
		ret = -ENOMEM;
		goto out;
	}
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_qp, cmd.qp_handle);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto out;
	}
	ret = ib_query_qp(uobj->object, attr, cmd.attr_mask, init);
	uverbs_uobj_put_read(uobj);
	if (ret)
		goto out;
	uverbs_qp_query_resp(&resp, attr, init);
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
out:
	kfree(init);
	kfree(attr);
	return ret;
}

/* --- DESTROY_QP, POST_SEND ----------------------------------------------- */

/**
 * uverbs_cmd_destroy_qp() - IB_USER_VERBS_CMD_DESTROY_QP
 * @ctx: the command
 *
 * The response reports the async events the process read for the QP.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such QP (also a second destroy), -EBUSY
 * while it is in use or attached to a multicast group, the driver's
 * error, -EFAULT.
 */
int uverbs_cmd_destroy_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_destroy_qp_resp resp = {};
	struct ib_uverbs_destroy_qp cmd;
	struct ib_uqp_object *uqp;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	bool attached;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_qp, cmd.qp_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	qp = uobj->object;
	/* the process detaches first (a closing file is detached for it) */
	uqp = qp->uobject;
	mutex_lock(&uqp->mcast_lock);
	attached = !list_empty(&uqp->mcast_list);
	mutex_unlock(&uqp->mcast_lock);
	if (attached) {
		uverbs_uobj_put_read(uobj);
		return -EBUSY;
	}
	ret = uverbs_uevent_destroy(ctx->file, &uverbs_obj_qp, uobj,
				    &qp->uobject->uevent,
				    &resp.events_reported);
	return ret ? ret : uverbs_cmd_response(ctx, &resp, sizeof(resp));
}

/**
 * uverbs_cmd_post_send() - IB_USER_VERBS_CMD_POST_SEND
 * @ctx: the command
 *
 * Only the doorbell form: no work requests, the driver takes them from
 * the send queue the process shares with it (rdma_rxe). Work requests
 * marshalled in the command are for drivers without such a queue, which
 * this stack has none of: they are refused.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such QP or work requests in the command,
 * -EBUSY, or the driver's error (-EINVAL for a QP not ready to send).
 */
int uverbs_cmd_post_send(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_post_send_resp resp = {};
	const struct ib_send_wr *bad_wr = NULL;
	struct ib_uverbs_post_send cmd;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	if (cmd.wr_count || cmd.sge_count)
		return -EINVAL;
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_qp, cmd.qp_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	qp = uobj->object;
	ret = qp->device->ops.post_send(qp->real_qp, NULL, &bad_wr);
	uverbs_uobj_put_read(uobj);
	if (ret)
		return ret;
	return uverbs_cmd_response(ctx, &resp, sizeof(resp));
}
