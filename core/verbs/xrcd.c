// SPDX-License-Identifier: GPL-2.0-only
/* XRC domains and the XRC target QPs shared through them (ib_open_qp, ib_close_qp). */
/*
 * An XRC target QP has no send queue, PD or CQs of its own: it lives in
 * an XRC domain, and processes share it by opening handles on it. The
 * real QP is published in xrcd->tgt_qps under its QP number; every handle
 * is a plain struct ib_qp on the real QP's open_list, counted in the real
 * QP's usecnt. The real QP counts once in the domain's usecnt.
 *
 * Locking: xrcd->tgt_qps_rwsem serialises looking a QP up and opening a
 * handle on it against removing it; the device's qp_open_list_lock (a
 * spinlock taken with interrupts off, as events may arrive in interrupt
 * context) protects every open_list of the device.
 *
 * P_Key security of shared QPs is not done yet.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "verbs/verbs.h"

/* ---- XRC domains --------------------------------------------------------- */

/**
 * ib_alloc_xrcd_user() - allocate an XRC domain
 * @device: the device
 * @inode: the file user space tied the domain to, or NULL
 * @udata: the user's data, NULL for a kernel caller
 *
 * Context: process context, may sleep.
 * Return: the domain, or ERR_PTR() of -EOPNOTSUPP when the device has no
 * XRC, -ENOMEM, or the driver's error.
 */
struct ib_xrcd *ib_alloc_xrcd_user(struct ib_device *device,
				   struct inode *inode, struct ib_udata *udata)
{
	struct ib_xrcd *xrcd;
	int err;

	if (!device->ops.alloc_xrcd || !device->ops.dealloc_xrcd)
		return ERR_PTR(-EOPNOTSUPP);

	xrcd = rdma_zalloc_drv_obj(device, ib_xrcd);
	if (!xrcd)
		return ERR_PTR(-ENOMEM);
	/* no SRQ or QP uses it yet: usecnt and the QP table start empty */
	*xrcd = (struct ib_xrcd) { .device = device, .inode = inode };
	init_rwsem(&xrcd->tgt_qps_rwsem);
	xa_init(&xrcd->tgt_qps);

	err = device->ops.alloc_xrcd(xrcd, udata);
	if (err) {
		kfree(xrcd);
		xrcd = ERR_PTR(err);
	}
	return xrcd;
}
EXPORT_SYMBOL(ib_alloc_xrcd_user);

/**
 * ib_dealloc_xrcd_user() - free an XRC domain
 * @xrcd: the domain
 * @udata: the user's data, NULL for a kernel caller
 *
 * Context: process context, may sleep.
 * Return: 0 when freed; -EBUSY while an SRQ or target QP still uses the
 * domain; or the driver's error, in which case the domain still exists.
 */
int ib_dealloc_xrcd_user(struct ib_xrcd *xrcd, struct ib_udata *udata)
{
	int err;

	if (atomic_read(&xrcd->usecnt))
		return -EBUSY;
	/* every published QP holds a usecnt, so this is a core bug */
	WARN_ON(!xa_empty(&xrcd->tgt_qps));

	/* the driver may refuse; then the domain stays as it was */
	err = xrcd->device->ops.dealloc_xrcd(xrcd, udata);
	if (!err)
		kfree(xrcd);
	return err;
}
EXPORT_SYMBOL(ib_dealloc_xrcd_user);

/* ---- Handles on shared QPs ----------------------------------------------- */

/*
 * The real QP's event handler: pass each event on to every handle, with
 * element.qp naming the handle it is delivered to.
 */
static void xrcd_qp_event(struct ib_event *event, void *context)
{
	struct ib_qp *real_qp = context;
	struct ib_qp *handle;
	unsigned long flags;

	spin_lock_irqsave(&real_qp->device->qp_open_list_lock, flags);
	list_for_each_entry(handle, &real_qp->open_list, open_list) {
		if (!handle->event_handler)
			continue;
		event->element.qp = handle;
		handle->event_handler(event, handle->qp_context);
	}
	spin_unlock_irqrestore(&real_qp->device->qp_open_list_lock, flags);
}

/*
 * Link @handle into its real QP's open_list (@open) or unlink it. The
 * real QP's usecnt counts the handles linked, so it cannot be destroyed
 * while one is open.
 */
static void xrcd_handle_link(struct ib_qp *handle, bool open)
{
	struct ib_qp *real_qp = handle->real_qp;
	spinlock_t *lock = &real_qp->device->qp_open_list_lock;
	unsigned long flags;

	if (open)
		atomic_inc(&real_qp->usecnt);
	spin_lock_irqsave(lock, flags);
	if (open)
		list_add(&handle->open_list, &real_qp->open_list);
	else
		list_del(&handle->open_list);
	spin_unlock_irqrestore(lock, flags);
	if (!open)
		atomic_dec(&real_qp->usecnt);
}

/*
 * Open a new handle on @real_qp: a plain ib_qp that names the real QP and
 * carries the opener's own event handler. Nothing else of it is used.
 */
static struct ib_qp *xrcd_qp_open(struct ib_qp *real_qp,
				  void (*event_handler)(struct ib_event *,
							void *),
				  void *qp_context)
{
	struct ib_qp *handle = kmalloc(sizeof(*handle), GFP_KERNEL);

	if (!handle)
		return ERR_PTR(-ENOMEM);
	*handle = (struct ib_qp) {
		.device = real_qp->device,
		.real_qp = real_qp,
		.qp_num = real_qp->qp_num,
		.qp_type = real_qp->qp_type,
		.event_handler = event_handler,
		.qp_context = qp_context,
	};
	xrcd_handle_link(handle, true);
	return handle;
}

/**
 * ib_open_qp() - open a handle on a shared XRC target QP
 * @xrcd: the XRC domain the QP was created in
 * @qp_open_attr: the QP number and type (IB_QPT_XRC_TGT), and the
 *	handle's own event handler and context
 *
 * Events of the QP reach every handle. Drop the handle with ib_close_qp().
 *
 * Context: process context, may sleep.
 * Return: the handle, or ERR_PTR() of -EINVAL for another QP type or no
 * such QP in @xrcd, or -ENOMEM.
 */
struct ib_qp *ib_open_qp(struct ib_xrcd *xrcd,
			 struct ib_qp_open_attr *qp_open_attr)
{
	struct ib_qp *handle = ERR_PTR(-EINVAL);
	struct ib_qp *real_qp;

	if (qp_open_attr->qp_type != IB_QPT_XRC_TGT)
		return handle;

	/* held until the handle counts in usecnt, so the QP cannot go */
	down_read(&xrcd->tgt_qps_rwsem);
	real_qp = xa_load(&xrcd->tgt_qps, qp_open_attr->qp_num);
	if (real_qp)
		handle = xrcd_qp_open(real_qp, qp_open_attr->event_handler,
				      qp_open_attr->qp_context);
	up_read(&xrcd->tgt_qps_rwsem);
	return handle;
}
EXPORT_SYMBOL(ib_open_qp);

/**
 * ib_close_qp() - drop a handle from ib_open_qp()
 * @qp: the handle
 *
 * Only the handle goes: the shared QP stays until ib_destroy_qp() of its
 * last handle.
 *
 * Context: process context.
 * Return: 0, or -EINVAL if @qp is a real QP rather than a handle.
 */
int ib_close_qp(struct ib_qp *qp)
{
	if (qp->real_qp == qp)
		return -EINVAL;
	xrcd_handle_link(qp, false);
	kfree(qp);
	return 0;
}
EXPORT_SYMBOL(ib_close_qp);

/* ---- Creating and destroying shared QPs (for core/verbs/qp.c) ------------ */

/**
 * ib_xrcd_share_qp() - publish a new XRC target QP and open its first handle
 * @real_qp: the QP the driver just created, not yet visible to anyone
 * @attr: its creation attributes: the domain, the handle's event handler
 *	and context
 * @uobj: the uverbs object the handle is for, or NULL
 *
 * Context: process context, may sleep.
 * Return: the handle, or ERR_PTR() of -ENOMEM or the xarray's error; then
 * nothing was published and @real_qp is the caller's to destroy.
 */
struct ib_qp *ib_xrcd_share_qp(struct ib_qp *real_qp,
			       struct ib_qp_init_attr *attr,
			       struct ib_uqp_object *uobj)
{
	struct ib_xrcd *xrcd = attr->xrcd;
	struct ib_qp *handle;
	int err;

	/* the real QP is reached through its handles only */
	real_qp->event_handler = xrcd_qp_event;
	real_qp->qp_context = real_qp;
	real_qp->pd = NULL;
	real_qp->send_cq = NULL;
	real_qp->recv_cq = NULL;
	real_qp->srq = NULL;
	real_qp->xrcd = xrcd;

	handle = xrcd_qp_open(real_qp, attr->event_handler, attr->qp_context);
	if (IS_ERR(handle))
		return handle;

	down_write(&xrcd->tgt_qps_rwsem);
	err = xa_err(xa_store(&xrcd->tgt_qps, real_qp->qp_num, real_qp,
			      GFP_KERNEL));
	if (!err)
		atomic_inc(&xrcd->usecnt);
	up_write(&xrcd->tgt_qps_rwsem);
	if (err) {
		ib_close_qp(handle);
		return ERR_PTR(err);
	}
	handle->uobject = uobj;
	return handle;
}

/**
 * ib_xrcd_destroy_shared_qp() - close a handle, and with the last one the QP
 * @qp: a handle on an XRC target QP, itself unused (usecnt zero)
 *
 * The QP leaves its domain's table once its last handle is closed, so no
 * new handle can be opened while it is being destroyed.
 *
 * Context: process context, may sleep.
 * Return: 0; a driver failing to destroy the QP is not reported, as in
 * 6.1 (the QP is then no longer reachable through the domain).
 */
int ib_xrcd_destroy_shared_qp(struct ib_qp *qp)
{
	struct ib_qp *real_qp = qp->real_qp;
	struct ib_xrcd *xrcd = real_qp->xrcd;
	bool last;

	down_write(&xrcd->tgt_qps_rwsem);
	ib_close_qp(qp);
	last = !atomic_read(&real_qp->usecnt);
	if (last)
		xa_erase(&xrcd->tgt_qps, real_qp->qp_num);
	up_write(&xrcd->tgt_qps_rwsem);

	if (last && !ib_destroy_qp(real_qp))
		atomic_dec(&xrcd->usecnt);
	return 0;
}
