// SPDX-License-Identifier: GPL-2.0-only
/* Work queues (receive WQs for RSS): ib_create_wq() and their destruction. */
/*
 * A WQ counts in the usecnt of its PD and its CQ until destroyed; an RSS
 * indirection table that uses the WQ counts in the WQ's own usecnt.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <rdma/ib_verbs.h>

/* The core's part of a kernel WQ the driver just created on @pd. */
static void wq_init_kernel(struct ib_wq *wq, struct ib_pd *pd,
			   const struct ib_wq_init_attr *attr)
{
	wq->device = pd->device;
	wq->pd = pd;
	wq->cq = attr->cq;
	wq->uobject = NULL;
	wq->wq_type = attr->wq_type;
	wq->event_handler = attr->event_handler;
	wq->wq_context = attr->wq_context;
	atomic_set(&wq->usecnt, 0);
	atomic_inc(&pd->usecnt);
	atomic_inc(&attr->cq->usecnt);
}

/**
 * ib_create_wq() - create a work queue on a protection domain
 * @pd: the PD
 * @init_attr: type, size and CQ of the WQ; on success max_wr and max_sge
 *	hold what the driver granted, at least what was asked
 *
 * Context: process context, may sleep.
 * Return: the WQ, or ERR_PTR() of -EOPNOTSUPP when the device has no WQ
 * verbs, or the driver's error.
 */
struct ib_wq *ib_create_wq(struct ib_pd *pd, struct ib_wq_init_attr *init_attr)
{
	struct ib_device *dev = pd->device;
	struct ib_wq *wq;

	if (!dev->ops.create_wq || !dev->ops.destroy_wq)
		return ERR_PTR(-EOPNOTSUPP);
	wq = dev->ops.create_wq(pd, init_attr, NULL);
	if (IS_ERR(wq)) {
		ibdev_dbg(dev, "create_wq: %ld\n", PTR_ERR(wq));
		return wq;
	}
	wq_init_kernel(wq, pd, init_attr);
	return wq;
}
EXPORT_SYMBOL(ib_create_wq);

/**
 * ib_destroy_wq_user() - destroy a work queue
 * @wq: the WQ; the driver frees it
 * @udata: the user's data for a user WQ, NULL for a kernel one
 *
 * Context: process context, may sleep.
 * Return: 0 when gone; -EBUSY while an indirection table uses the WQ; or
 * the driver's error, in which case the WQ still exists.
 */
int ib_destroy_wq_user(struct ib_wq *wq, struct ib_udata *udata)
{
	struct ib_pd *pd = wq->pd;
	struct ib_cq *cq = wq->cq;
	int err;

	if (atomic_read(&wq->usecnt)) {
		ibdev_dbg(wq->device, "WQ %u is still in use\n", wq->wq_num);
		return -EBUSY;
	}
	err = wq->device->ops.destroy_wq(wq, udata);
	if (err)
		return err;
	atomic_dec(&cq->usecnt);
	atomic_dec(&pd->usecnt);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_wq_user);
