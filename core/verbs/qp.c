// SPDX-License-Identifier: GPL-2.0-only
/* Queue pairs: creation, modification, query and destruction of kernel and user QPs. */
/*
 * Not done yet, each waiting for its own piece of the core: RoCE LAG (no
 * transmit slave is chosen for a path), P_Key security and statistics
 * counters.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/rw.h>

#include "restrack/restrack.h"
#include "verbs/verbs.h"

/* ---- Creation ------------------------------------------------------------ */

/*
 * Give the freshly allocated (zeroed) @qp its core part: what the caller
 * asked for in @attr, and empty MR pools. The literal zeroes the rest,
 * usecnt included. A QP starts out as its own real QP; only the handles
 * of core/verbs/xrcd.c point elsewhere.
 */
static void qp_init_fields(struct ib_qp *qp, struct ib_device *dev,
			   struct ib_pd *pd, struct ib_qp_init_attr *attr,
			   struct ib_uqp_object *uobj)
{
	*qp = (struct ib_qp) {
		.device = dev, .pd = pd, .uobject = uobj, .real_qp = qp,
		.qp_type = attr->qp_type, .port = attr->port_num,
		.send_cq = attr->send_cq, .recv_cq = attr->recv_cq,
		.srq = attr->srq, .rwq_ind_tbl = attr->rwq_ind_tbl,
		.event_handler = attr->event_handler,
		.qp_context = attr->qp_context,
		.rdma_mrs = LIST_HEAD_INIT(qp->rdma_mrs),
		.sig_mrs = LIST_HEAD_INIT(qp->sig_mrs),
		.open_list = LIST_HEAD_INIT(qp->open_list),
	};
	spin_lock_init(&qp->mr_lock);
}

/*
 * Allocate the QP at the driver's size and have the driver create it. It
 * is tracked as @caller's, or with @udata as current's.
 */
static struct ib_qp *qp_create(struct ib_device *dev, struct ib_pd *pd,
			       struct ib_qp_init_attr *attr,
			       struct ib_udata *udata,
			       struct ib_uqp_object *uobj, const char *caller)
{
	struct ib_qp *qp;
	int err;

	if (!dev->ops.create_qp || !dev->ops.destroy_qp)
		return ERR_PTR(-EOPNOTSUPP);

	qp = rdma_zalloc_drv_obj_numa(dev, ib_qp);
	if (!qp)
		return ERR_PTR(-ENOMEM);
	qp_init_fields(qp, dev, pd, attr, uobj);
	rdma_restrack_new(&qp->res, RDMA_RESTRACK_QP);
	rdma_restrack_set_name(&qp->res, udata ? NULL : caller);

	err = dev->ops.create_qp(qp, attr, udata);
	if (err) {
		rdma_restrack_put(&qp->res);
		kfree(qp);
		return ERR_PTR(err);
	}
	/* some drivers replace the CQ pointers: the caller's ones count */
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	rdma_restrack_add(&qp->res);
	return qp;
}

/**
 * ib_create_qp_user() - create a QP without taking usecnt references
 * @dev: the device
 * @pd: the PD; NULL for an XRC target QP
 * @attr: the creation attributes; on return the capabilities granted
 * @udata: the user's data, NULL for a kernel QP
 * @uobj: the uverbs object of a user QP, else NULL
 * @caller: the owning module's name of a kernel QP
 *
 * The uverbs half of QP creation: the caller takes the references with
 * ib_qp_usecnt_inc() itself. An XRC target QP is created as a kernel
 * object, published in @attr->xrcd, and what is returned is the first
 * handle opened on it.
 *
 * Context: process context, may sleep.
 * Return: the QP or handle, or ERR_PTR() of -EOPNOTSUPP without QP verbs,
 * -ENOMEM, or the driver's error.
 */
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller)
{
	bool shared = attr->qp_type == IB_QPT_XRC_TGT;
	struct ib_qp *qp, *handle;

	/*
	 * A shared QP outlives the process that made it, so it is the
	 * kernel's (tracked as @caller's); the user only holds a handle.
	 */
	qp = qp_create(dev, pd, attr, shared ? NULL : udata,
		       shared ? NULL : uobj, caller);
	if (!shared || IS_ERR(qp))
		return qp;

	handle = ib_xrcd_share_qp(qp, attr, uobj);
	if (IS_ERR(handle))
		ib_destroy_qp(qp);
	return handle;
}
EXPORT_SYMBOL(ib_create_qp_user);

/*
 * The objects a QP was created on count it in their usecnt, so none of
 * them can be destroyed under it. QP_USES lists them in the order the
 * references are taken; they are dropped in the opposite order.
 */
enum { QP_USES = 5 };

static void qp_uses(struct ib_qp *qp, atomic_t *cnt[QP_USES])
{
	cnt[0] = qp->pd ? &qp->pd->usecnt : NULL;
	cnt[1] = qp->send_cq ? &qp->send_cq->usecnt : NULL;
	cnt[2] = qp->recv_cq ? &qp->recv_cq->usecnt : NULL;
	cnt[3] = qp->srq ? &qp->srq->usecnt : NULL;
	cnt[4] = qp->rwq_ind_tbl ? &qp->rwq_ind_tbl->usecnt : NULL;
}

/**
 * ib_qp_usecnt_inc() - count @qp in the usecnt of what it was created on
 * @qp: a QP created with ib_create_qp_user()
 *
 * Its PD, send and receive CQ (twice when they are one CQ), SRQ and RSS
 * indirection table, those of them it has.
 *
 * Context: any context.
 */
void ib_qp_usecnt_inc(struct ib_qp *qp)
{
	atomic_t *cnt[QP_USES];
	int i;

	qp_uses(qp, cnt);
	for (i = 0; i < QP_USES; i++)
		if (cnt[i])
			atomic_inc(cnt[i]);
}
EXPORT_SYMBOL(ib_qp_usecnt_inc);

/**
 * ib_qp_usecnt_dec() - undo ib_qp_usecnt_inc()
 * @qp: the QP
 *
 * Context: any context.
 */
void ib_qp_usecnt_dec(struct ib_qp *qp)
{
	atomic_t *cnt[QP_USES];
	int i;

	qp_uses(qp, cnt);
	for (i = QP_USES - 1; i >= 0; i--)
		if (cnt[i])
			atomic_dec(cnt[i]);
}
EXPORT_SYMBOL(ib_qp_usecnt_dec);

/**
 * ib_create_qp_kernel() - create a QP for a kernel user
 * @pd: the PD
 * @qp_init_attr: the creation attributes; on return @cap holds what the
 *	driver granted, which may exceed what was asked
 * @caller: the owning module's name (see ib_create_qp())
 *
 * The QP counts in the usecnt of @pd, its CQs and its SRQ until
 * destroyed. It also records how many SGEs an RDMA WRITE (all of
 * max_send_sge) and an RDMA READ (no more than the device's max_sge_rd)
 * may use.
 *
 * With cap.max_rdma_ctxs the send queue is grown for that many rdma_rw
 * contexts and the QP gets the MR pools they draw on (core/rw/rw.c).
 *
 * Context: process context, may sleep.
 * Return: the QP, or ERR_PTR() of -EOPNOTSUPP without QP verbs, -ENOMEM,
 * or the driver's error.
 */
struct ib_qp *ib_create_qp_kernel(struct ib_pd *pd,
				  struct ib_qp_init_attr *qp_init_attr,
				  const char *caller)
{
	const struct ib_qp_cap *cap = &qp_init_attr->cap;
	struct ib_qp *qp;
	int err = 0;

	/* the send queue must hold the WR chains of every rdma_rw context */
	if (cap->max_rdma_ctxs)
		rdma_rw_init_qp(pd->device, qp_init_attr);
	qp = qp_create(pd->device, pd, qp_init_attr, NULL, NULL, caller);
	if (IS_ERR(qp))
		return qp;
	ib_qp_usecnt_inc(qp);

	/* @cap now holds what the driver granted */
	if (cap->max_rdma_ctxs)
		err = rdma_rw_init_mrs(qp, qp_init_attr);
	if (err) {
		ib_destroy_qp(qp);
		return ERR_PTR(err);
	}

	/*
	 * Every driver keeps max_send_sge within what a WRITE may carry, but
	 * not all of them within the device's READ limit.
	 */
	qp->max_read_sge = min_t(u32, cap->max_send_sge,
				 pd->device->attrs.max_sge_rd);
	qp->max_write_sge = cap->max_send_sge;
	qp->integrity_en = qp_init_attr->create_flags &
			   IB_QP_CREATE_INTEGRITY_EN;
	return qp;
}
EXPORT_SYMBOL(ib_create_qp_kernel);

/* ---- Modify and query ---------------------------------------------------- */

/*
 * Validate an address vector before the driver sees it: a real port, a
 * GRH where the port or RoCE needs one, and a GID attribute (if the caller
 * passed one) that matches the port and index.
 */
static int qp_check_av(struct ib_device *dev, const struct rdma_ah_attr *av)
{
	const struct ib_gid_attr *sgid_attr = av->grh.sgid_attr;

	if (!rdma_is_port_valid(dev, av->port_num))
		return -EINVAL;
	if ((rdma_is_grh_required(dev, av->port_num) ||
	     av->type == RDMA_AH_ATTR_TYPE_ROCE) &&
	    !(av->ah_flags & IB_AH_GRH))
		return -EINVAL;
	if (sgid_attr && (sgid_attr->index != av->grh.sgid_index ||
			  sgid_attr->port_num != av->port_num))
		return -EINVAL;
	return 0;
}

/*
 * The primary path. Only a user's connected RoCE QP gets its destination
 * MAC resolved here: kernel users pass resolved address vectors.
 */
static int qp_prepare_primary_path(struct ib_qp *qp, struct ib_qp_attr *attr,
				   struct ib_udata *udata)
{
	bool connected = qp->qp_type == IB_QPT_RC || qp->qp_type == IB_QPT_UC ||
			 qp->qp_type == IB_QPT_XRC_INI ||
			 qp->qp_type == IB_QPT_XRC_TGT;

	if (attr->ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE && connected && udata)
		return ib_resolve_eth_dmac(qp->device, &attr->ah_attr);
	return 0;
}

/* Alternate paths (APM) exist only where both paths are InfiniBand. */
static int qp_check_alt_path(struct ib_qp *qp, struct ib_qp_attr *attr,
			     u32 port)
{
	int err = qp_check_av(qp->device, &attr->alt_ah_attr);

	if (err)
		return err;
	if (!rdma_protocol_ib(qp->device, attr->alt_ah_attr.port_num) ||
	    !rdma_protocol_ib(qp->device, port))
		return -EINVAL;
	return 0;
}

/* PSNs are 24 bits on IB and RoCE: cut off what does not fit, loudly. */
static void qp_mask_psns(struct ib_qp *qp, struct ib_qp_attr *attr,
			 int attr_mask)
{
	if (attr_mask & IB_QP_RQ_PSN && attr->rq_psn & ~0xffffff) {
		dev_warn(&qp->device->dev, "QP %u: rq_psn %#x cut to 24 bits\n",
			 qp->qp_num, attr->rq_psn);
		attr->rq_psn &= 0xffffff;
	}
	if (attr_mask & IB_QP_SQ_PSN && attr->sq_psn & ~0xffffff) {
		dev_warn(&qp->device->dev, "QP %u: sq_psn %#x cut to 24 bits\n",
			 qp->qp_num, attr->sq_psn);
		attr->sq_psn &= 0xffffff;
	}
}

/*
 * The core's checks of a modify, before the driver's own. @port is the
 * port the QP will be on: the new one if the modify sets it.
 */
static int qp_modify_check(struct ib_qp *qp, struct ib_qp_attr *attr,
			   int attr_mask, u32 port)
{
	struct ib_device *dev = qp->device;
	int err;

	if (attr_mask & IB_QP_PORT && !rdma_is_port_valid(dev, port))
		return -EINVAL;
	if (attr_mask & IB_QP_AV) {
		err = qp_check_av(dev, &attr->ah_attr);
		if (err)
			return err;
	}
	if (attr_mask & IB_QP_ALT_PATH) {
		err = qp_check_alt_path(qp, attr, port);
		if (err)
			return err;
	}
	if (rdma_is_port_valid(dev, port) && rdma_ib_or_roce(dev, port))
		qp_mask_psns(qp, attr, attr_mask);
	return 0;
}

/* The caller's GID pointers of the paths a modify sets, before the fill. */
struct qp_path_sgids {
	const struct ib_gid_attr *av;
	const struct ib_gid_attr *alt;
};

/*
 * Look up the source GID entries of the paths @attr_mask sets (see
 * ib_ah_attr_fill_sgid()) and resolve the primary path's MAC where due.
 * On success, qp_paths_unfill() must follow.
 */
static int qp_paths_fill(struct ib_qp *qp, struct ib_qp_attr *attr,
			 int attr_mask, struct ib_udata *udata,
			 struct qp_path_sgids *old)
{
	int err;

	if (attr_mask & IB_QP_AV) {
		err = ib_ah_attr_fill_sgid(qp->device, &attr->ah_attr, &old->av);
		if (err)
			return err;
		err = qp_prepare_primary_path(qp, attr, udata);
		if (err)
			goto err_av;
	}
	if (attr_mask & IB_QP_ALT_PATH) {
		err = ib_ah_attr_fill_sgid(qp->device, &attr->alt_ah_attr,
					   &old->alt);
		if (err)
			goto err_av;
	}
	return 0;

err_av:
	if (attr_mask & IB_QP_AV)
		ib_ah_attr_unfill_sgid(&attr->ah_attr, old->av);
	return err;
}

static void qp_paths_unfill(struct ib_qp_attr *attr, int attr_mask,
			    const struct qp_path_sgids *old)
{
	if (attr_mask & IB_QP_ALT_PATH)
		ib_ah_attr_unfill_sgid(&attr->alt_ah_attr, old->alt);
	if (attr_mask & IB_QP_AV)
		ib_ah_attr_unfill_sgid(&attr->ah_attr, old->av);
}

/* The modify took: the QP now references the GID entries of its paths. */
static void qp_paths_commit(struct ib_qp *qp, struct ib_qp_attr *attr,
			    int attr_mask)
{
	if (attr_mask & IB_QP_AV)
		qp->av_sgid_attr = ib_ah_attr_swap_sgid(&attr->ah_attr,
							qp->av_sgid_attr);
	if (attr_mask & IB_QP_ALT_PATH)
		qp->alt_path_sgid_attr =
			ib_ah_attr_swap_sgid(&attr->alt_ah_attr,
					     qp->alt_path_sgid_attr);
}

/* Modify the real QP @qp (never a handle opened on a shared one). */
static int qp_modify(struct ib_qp *qp, struct ib_qp_attr *attr, int attr_mask,
		     struct ib_udata *udata)
{
	u32 port = attr_mask & IB_QP_PORT ? attr->port_num : qp->port;
	struct qp_path_sgids old;
	int err;

	attr->xmit_slave = NULL;
	err = qp_modify_check(qp, attr, attr_mask, port);
	if (err)
		return err;
	err = qp_paths_fill(qp, attr, attr_mask, udata, &old);
	if (err)
		return err;

	err = qp->device->ops.modify_qp(qp, attr, attr_mask, udata);
	if (!err) {
		if (attr_mask & IB_QP_PORT)
			qp->port = attr->port_num;
		qp_paths_commit(qp, attr, attr_mask);
	}
	qp_paths_unfill(attr, attr_mask, &old);
	return err;
}

/**
 * ib_modify_qp_with_udata() - change a QP's attributes for uverbs
 * @ib_qp: the QP, or a handle opened on a shared one
 * @attr: the new values; the core may adjust some (PSNs beyond 24 bits)
 * @attr_mask: IB_QP_* bits naming the members of @attr to apply
 * @udata: the user's data, NULL for a kernel caller
 *
 * Context: process context, may sleep.
 * A path's source GID entry is referenced by the QP from a successful
 * modify until the path is replaced or the QP destroyed. A user's
 * connected RoCE QP gets its destination MAC resolved here.
 *
 * Return: 0; -EINVAL for a port or address vector the device cannot
 * have, or an alternate path not on InfiniBand; the GID cache's error
 * for a bad sgid_index; the MAC resolution's error; or the driver's.
 */
int ib_modify_qp_with_udata(struct ib_qp *ib_qp, struct ib_qp_attr *attr,
			    int attr_mask, struct ib_udata *udata)
{
	return qp_modify(ib_qp->real_qp, attr, attr_mask, udata);
}
EXPORT_SYMBOL(ib_modify_qp_with_udata);

/**
 * ib_modify_qp() - change a kernel QP's attributes
 * @qp: the QP, or a handle opened on a shared one
 * @qp_attr: the new values
 * @qp_attr_mask: IB_QP_* bits naming the members of @qp_attr to apply
 *
 * Context: process context, may sleep.
 * Return: as ib_modify_qp_with_udata().
 */
int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		 int qp_attr_mask)
{
	return qp_modify(qp->real_qp, qp_attr, qp_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_qp);

/**
 * ib_query_qp() - read a QP's current attributes
 * @qp: the QP, or a handle opened on a shared one
 * @qp_attr: filled with the attributes; its GID attribute pointers are
 *	cleared first, as no references are handed out
 * @qp_attr_mask: IB_QP_* bits the caller is interested in (a hint: the
 *	driver may fill in more)
 * @qp_init_attr: filled with the creation attributes
 *
 * Context: process context, may sleep.
 * Return: 0, -EOPNOTSUPP when the driver cannot query QPs, or the
 * driver's error.
 */
int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		int qp_attr_mask, struct ib_qp_init_attr *qp_init_attr)
{
	qp_attr->ah_attr.grh.sgid_attr = NULL;
	qp_attr->alt_ah_attr.grh.sgid_attr = NULL;

	if (!qp->device->ops.query_qp)
		return -EOPNOTSUPP;
	return qp->device->ops.query_qp(qp->real_qp, qp_attr, qp_attr_mask,
					qp_init_attr);
}
EXPORT_SYMBOL(ib_query_qp);

/* ---- Destruction --------------------------------------------------------- */

/**
 * ib_destroy_qp_user() - destroy a QP, or close a handle on a shared one
 * @qp: the QP; no multicast group or open handle may still use it, and a
 *	kernel user must have returned its rdma_rw MRs
 * @udata: the user's data for a user QP, NULL for a kernel one
 *
 * Closing the last handle of an XRC target QP destroys the QP itself.
 *
 * Context: process context, may sleep.
 * Return: 0 when gone; -EBUSY while @qp->usecnt is not zero; or the
 * driver's error, in which case the QP still exists.
 */
int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata)
{
	int err;

	WARN_ON_ONCE(qp->mrs_used > 0);
	if (atomic_read(&qp->usecnt))
		return -EBUSY;
	if (qp->real_qp != qp)
		return ib_xrcd_destroy_shared_qp(qp);

	/* a kernel QP's rdma_rw pools; the MRs must go before their QP */
	if (!qp->uobject)
		rdma_rw_cleanup_mrs(qp);
	rdma_restrack_begin_del(&qp->res);
	err = qp->device->ops.destroy_qp(qp, udata);
	if (err) {
		rdma_restrack_abort_del(&qp->res);
		return err;
	}
	if (qp->alt_path_sgid_attr)
		rdma_put_gid_attr(qp->alt_path_sgid_attr);
	if (qp->av_sgid_attr)
		rdma_put_gid_attr(qp->av_sgid_attr);
	ib_qp_usecnt_dec(qp);
	rdma_restrack_commit_del(&qp->res);
	kfree(qp);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_qp_user);
