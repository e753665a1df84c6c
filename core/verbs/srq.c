// SPDX-License-Identifier: GPL-2.0-only
/* Shared receive queues: creation, modification, query and destruction. */
/*
 * An SRQ counts in the usecnt of its PD and, depending on its type, of its
 * CQ and XRC domain; QPs using it count in its own usecnt. SRQs are
 * tracked (restrack) as their PD's owner's.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "restrack/restrack.h"

/* Take (@delta 1) or drop (-1) the references @srq holds. */
static void srq_usecnt_add(struct ib_srq *srq, int delta)
{
	atomic_add(delta, &srq->pd->usecnt);
	if (srq->srq_type == IB_SRQT_XRC && srq->ext.xrc.xrcd)
		atomic_add(delta, &srq->ext.xrc.xrcd->usecnt);
	if (ib_srq_has_cq(srq->srq_type))
		atomic_add(delta, &srq->ext.cq->usecnt);
}

/* The ib_srq fields that come straight from the creation attributes. */
static void srq_init_fields(struct ib_srq *srq, struct ib_pd *pd,
			    const struct ib_srq_init_attr *attr,
			    struct ib_usrq_object *uobject)
{
	srq->device = pd->device;
	srq->pd = pd;
	srq->uobject = uobject;
	srq->event_handler = attr->event_handler;
	srq->srq_context = attr->srq_context;
	srq->srq_type = attr->srq_type;
	atomic_set(&srq->usecnt, 0);
	if (ib_srq_has_cq(srq->srq_type))
		srq->ext.cq = attr->ext.cq;
	if (srq->srq_type == IB_SRQT_XRC)
		srq->ext.xrc.xrcd = attr->ext.xrc.xrcd;
}

/**
 * ib_create_srq_user() - create a shared receive queue
 * @pd: the PD
 * @srq_init_attr: type, size (attr.max_wr, attr.max_sge), event handler
 *	and, for XRC and tag-matching SRQs, the CQ (and XRC domain); on
 *	success attr holds what the driver granted, at least what was asked
 * @uobject: the uverbs object of a user SRQ, else NULL
 * @udata: the user's data, NULL for a kernel SRQ
 *
 * Kernel users call ib_create_srq(), which also reports a device without
 * SRQs as -EOPNOTSUPP.
 *
 * Context: process context, may sleep.
 * Return: the SRQ, or ERR_PTR() of -EOPNOTSUPP when the device has no
 * SRQs, -ENOMEM, or the driver's error.
 */
struct ib_srq *ib_create_srq_user(struct ib_pd *pd,
				  struct ib_srq_init_attr *srq_init_attr,
				  struct ib_usrq_object *uobject,
				  struct ib_udata *udata)
{
	struct ib_device *dev = pd->device;
	struct ib_srq *srq;
	int err;

	if (!dev->ops.create_srq || !dev->ops.destroy_srq)
		return ERR_PTR(-EOPNOTSUPP);
	srq = rdma_zalloc_drv_obj(dev, ib_srq);
	if (!srq)
		return ERR_PTR(-ENOMEM);
	srq_init_fields(srq, pd, srq_init_attr, uobject);
	/* held while the driver runs, as it may look at the CQ or domain */
	srq_usecnt_add(srq, 1);
	rdma_restrack_new(&srq->res, RDMA_RESTRACK_SRQ);
	rdma_restrack_parent_name(&srq->res, &pd->res);

	err = dev->ops.create_srq(srq, srq_init_attr, udata);
	if (err) {
		rdma_restrack_put(&srq->res);
		srq_usecnt_add(srq, -1);
		kfree(srq);
		return ERR_PTR(err);
	}
	rdma_restrack_add(&srq->res);
	return srq;
}
EXPORT_SYMBOL(ib_create_srq_user);

/**
 * ib_modify_srq() - resize an SRQ or arm its limit event
 * @srq: the SRQ
 * @srq_attr: the new max_wr and/or srq_limit
 * @srq_attr_mask: IB_SRQ_MAX_WR and/or IB_SRQ_LIMIT
 *
 * Context: process context, may sleep.
 * Return: 0, -EOPNOTSUPP when the driver cannot modify SRQs, or the
 * driver's error.
 */
int ib_modify_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
		  enum ib_srq_attr_mask srq_attr_mask)
{
	if (!srq->device->ops.modify_srq)
		return -EOPNOTSUPP;
	return srq->device->ops.modify_srq(srq, srq_attr, srq_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_srq);

/**
 * ib_query_srq() - read an SRQ's current size and limit
 * @srq: the SRQ
 * @srq_attr: filled in by the driver
 *
 * Context: process context, may sleep.
 * Return: 0, -EOPNOTSUPP when the driver cannot query SRQs, or the
 * driver's error.
 */
int ib_query_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr)
{
	if (!srq->device->ops.query_srq)
		return -EOPNOTSUPP;
	return srq->device->ops.query_srq(srq, srq_attr);
}
EXPORT_SYMBOL(ib_query_srq);

/**
 * ib_destroy_srq_user() - destroy an SRQ
 * @srq: the SRQ
 * @udata: the user's data for a user SRQ, NULL for a kernel one
 *
 * Context: process context, may sleep.
 * Return: 0 when gone; -EBUSY while a QP still uses the SRQ; or the
 * driver's error, in which case the SRQ still exists.
 */
int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata)
{
	int err;

	/* a QP still takes its receive WRs from it */
	if (atomic_read(&srq->usecnt))
		return -EBUSY;

	rdma_restrack_begin_del(&srq->res);
	err = srq->device->ops.destroy_srq(srq, udata);
	if (!err) {
		/* gone: release what it held, then the memory */
		srq_usecnt_add(srq, -1);
		rdma_restrack_commit_del(&srq->res);
		kfree(srq);
	} else {
		rdma_restrack_abort_del(&srq->res);
	}
	return err;
}
EXPORT_SYMBOL(ib_destroy_srq_user);
