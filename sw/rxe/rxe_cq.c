// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_cq.c - completion queues: a ring of struct ib_wc (or of struct
 * ib_uverbs_wc shared with user space), notification, overflow.
 */

#include <linux/interrupt.h>
#include <rdma/uverbs_ioctl.h>
#include "rxe_ops.h"
#include "rxe_verbs.h"

/*
 * Tell the CQ's user that completions arrived. ib_core's softirq poller
 * raises IRQ_POLL_SOFTIRQ from its handler: with bottom halves off around
 * the call it runs as soon as they come back on, instead of waiting for
 * ksoftirqd. With interrupts off they cannot be turned back on here, and
 * the softirq runs at the next interrupt exit.
 */
static void rxe_cq_notify(struct rxe_cq *cq)
{
	struct ib_cq *ibcq = &cq->ibcq;

	if (irqs_disabled()) {
		ibcq->comp_handler(ibcq, ibcq->cq_context);
		return;
	}
	local_bh_disable();
	ibcq->comp_handler(ibcq, ibcq->cq_context);
	local_bh_enable();
}

/* Report a lost completion to the CQ's user (once per CQ). */
static void rxe_cq_overflow(struct rxe_cq *cq)
{
	struct ib_cq *ibcq = &cq->ibcq;
	struct ib_event ev = {
		.device = ibcq->device,
		.element.cq = ibcq,
		.event = IB_EVENT_CQ_ERR,
	};

	ibdev_warn_ratelimited(ibcq->device, "CQ %p overflowed\n", ibcq);
	if (ibcq->event_handler)
		ibcq->event_handler(&ev, ibcq->cq_context);
}

/* Does @wc end the armed wait? Caller holds cq->lock; disarms if so. */
static bool rxe_cq_fire(struct rxe_cq *cq, const struct ib_wc *wc,
			bool solicited)
{
	lockdep_assert_held(&cq->lock);
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED &&
	     (solicited || wc->status != IB_WC_SUCCESS))) {
		cq->notify = 0;
		return true;
	}
	return false;
}

/* Room for one more completion? Caller holds cq->lock. */
static bool rxe_cq_has_room(struct rxe_cq *cq)
{
	lockdep_assert_held(&cq->lock);
	if (cq->is_user)
		return !rxe_uring_full(&cq->uring);
	return !rxe_queue_full(&cq->queue);
}

/* Append @wc; there is room. Caller holds cq->lock. */
static void rxe_cq_append(struct rxe_cq *cq, const struct ib_wc *wc)
{
	lockdep_assert_held(&cq->lock);
	if (cq->is_user) {
		ib_wc_to_uverbs(rxe_uring_tail(&cq->uring), wc);
		rxe_uring_produce(&cq->uring);
		return;
	}
	memcpy(rxe_queue_tail(&cq->queue), wc, sizeof(*wc));
	rxe_queue_produce(&cq->queue);
}

/**
 * rxe_cq_post() - add a completion to a CQ
 * @cq: the CQ
 * @wc: the completion, copied (as struct ib_uverbs_wc into a user CQ)
 * @solicited: the completion is for a message with the solicited event bit
 *
 * Calls the CQ's completion handler when the CQ was armed for it: for the
 * next completion, or for a solicited (or failed) one. A full CQ loses
 * @wc; the first loss is reported with IB_EVENT_CQ_ERR.
 *
 * Context: process or softirq context; cq->lock not held.
 * Return: 0, or -EBUSY when the CQ is full.
 */
int rxe_cq_post(struct rxe_cq *cq, const struct ib_wc *wc, bool solicited)
{
	unsigned long flags;
	bool first_loss;
	bool fire;

	spin_lock_irqsave(&cq->lock, flags);
	if (unlikely(!rxe_cq_has_room(cq))) {
		first_loss = !cq->overflow;
		cq->overflow = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (first_loss)
			rxe_cq_overflow(cq);
		return -EBUSY;
	}
	rxe_cq_append(cq, wc);
	fire = rxe_cq_fire(cq, wc, solicited);
	spin_unlock_irqrestore(&cq->lock, flags);

	if (fire && cq->ibcq.comp_handler)
		rxe_cq_notify(cq);
	return 0;
}

static bool rxe_cq_size_ok(int cqe)
{
	return cqe >= 1 && cqe <= RXE_MAX_CQE;
}

/* A user CQ's slots hold struct ib_uverbs_wc; sized as 6.1's for equal mmap sizes. */
#define RXE_CQ_UELEM_SIZE	max(sizeof(struct ib_wc), sizeof(struct ib_uverbs_wc))

/* Make a user CQ's ring and tell user space where to map it. */
static int rxe_cq_create_user(struct rxe_cq *cq, int cqe,
			      struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(cq->ibcq.device);
	struct rxe_create_cq_resp resp = {};
	struct rxe_ucontext *uc;
	int err;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	uc = rdma_udata_to_drv_context(udata, struct rxe_ucontext, ibuc);
	err = rxe_uring_init(&cq->uring, rxe, uc, cqe, rxe->attr.max_cqe,
			     RXE_CQ_UELEM_SIZE);
	if (err)
		return err;
	rxe_mmap_offer(cq->uring.mm, &resp.mi);
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err) {
		rxe_uring_cleanup(&cq->uring);
		return err;
	}
	cq->is_user = true;
	cq->ibcq.cqe = cq->uring.mask;
	return 0;
}

static int rxe_cq_create_kernel(struct rxe_cq *cq, int cqe)
{
	int err = rxe_queue_init(&cq->queue, cqe, sizeof(struct ib_wc));

	if (!err)
		cq->ibcq.cqe = rxe_queue_slots(&cq->queue);
	return err;
}

/**
 * rxe_cq_create() - the create_cq verb
 * @ibcq: the CQ, allocated by the core
 * @attr: size (1..RXE_MAX_CQE), no flags
 * @udata: NULL for a kernel CQ; for a user CQ its response gets the
 *	struct rxe_create_cq_resp that says where to map the ring
 *
 * ibcq->cqe becomes the usable size: @attr->cqe rounded up to a power of
 * two for a kernel CQ, one less than the next power of two above it for
 * a user CQ (the ring keeps one slot free).
 *
 * Context: process context.
 * Return: 0, -EOPNOTSUPP for flags, -EINVAL for a bad size or a user
 * response too short for the mmap info, -ENOMEM (also beyond attr.max_cq),
 * -EFAULT.
 */
int rxe_cq_create(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (!rxe_cq_size_ok(attr->cqe)) {
		rxe_dbg_dev(rxe, "bad CQ size %d\n", attr->cqe);
		return -EINVAL;
	}
	if (!rxe_count_inc(&rxe->num_cq, rxe->attr.max_cq))
		return -ENOMEM;
	spin_lock_init(&cq->lock);
	cq->notify = 0;
	cq->overflow = false;
	cq->is_user = false;
	err = udata ? rxe_cq_create_user(cq, attr->cqe, udata) :
		      rxe_cq_create_kernel(cq, attr->cqe);
	if (err)
		atomic_dec(&rxe->num_cq);
	return err;
}

/**
 * rxe_cq_destroy() - the destroy_cq verb
 * @ibcq: the CQ; no QP uses it and the core stopped polling it
 * @udata: user data (unused)
 *
 * A user CQ's ring stays while the process maps it.
 *
 * Context: process context.
 * Return: 0.
 */
int rxe_cq_destroy(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rxe_cq *cq = to_rcq(ibcq);

	if (cq->is_user)
		rxe_uring_cleanup(&cq->uring);
	else
		rxe_queue_cleanup(&cq->queue);
	atomic_dec(&to_rdev(ibcq->device)->num_cq);
	return 0;
}

/*
 * A user CQ gets a new ring, the unpolled completions moved over, at a new
 * offset the response names; user space maps it and unmaps the old one.
 */
static int rxe_cq_resize_user(struct rxe_cq *cq, int cqe,
			      struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(cq->ibcq.device);
	struct rxe_resize_cq_resp resp = {};
	struct rxe_uring to;
	unsigned long flags;
	int err;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	err = rxe_uring_init(&to, rxe, cq->uring.mm->uc, cqe,
			     rxe->attr.max_cqe, RXE_CQ_UELEM_SIZE);
	if (err)
		return err;
	rxe_mmap_offer(to.mm, &resp.mi);
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (!err) {
		spin_lock_irqsave(&cq->lock, flags);
		err = rxe_uring_move(&cq->uring, &to, false);
		spin_unlock_irqrestore(&cq->lock, flags);
	}
	/* the old ring after a move, the unused new one after a failure */
	rxe_uring_cleanup(&to);
	if (!err)
		cq->ibcq.cqe = cq->uring.mask;
	return err;
}

/**
 * rxe_cq_resize() - the resize_cq verb
 * @ibcq: the CQ
 * @cqe: the new size (1..RXE_MAX_CQE), rounded as at create
 * @udata: NULL for a kernel CQ; a user CQ's response gets the new ring's
 *	struct rxe_resize_cq_resp
 *
 * Completions waiting in the CQ stay, in order.
 *
 * Context: process context.
 * Return: 0, -EINVAL for a bad size or one below the completions waiting,
 * -ENOMEM, -EFAULT.
 */
int rxe_cq_resize(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	int err;

	if (!rxe_cq_size_ok(cqe))
		return -EINVAL;
	if (cq->is_user)
		return udata ? rxe_cq_resize_user(cq, cqe, udata) : -EINVAL;
	if (udata)
		return -EOPNOTSUPP;
	err = rxe_queue_resize(&cq->queue, cqe, &cq->lock);
	if (err)
		return err;
	ibcq->cqe = rxe_queue_slots(&cq->queue);
	return 0;
}

/**
 * rxe_cq_poll() - the poll_cq verb
 * @ibcq: the CQ
 * @num: room in @wc
 * @wc: filled with the oldest completions
 *
 * A user CQ's completions are user space's to poll from its ring: the
 * kernel never moves the index the process owns, so it finds none.
 *
 * Context: any context.
 * Return: the number of completions returned.
 */
int rxe_cq_poll(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	unsigned long flags;
	void *slot;
	int n;

	if (cq->is_user)
		return 0;
	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num; n++) {
		slot = rxe_queue_head(&cq->queue);
		if (!slot)
			break;
		memcpy(&wc[n], slot, sizeof(*wc));
		rxe_queue_consume(&cq->queue);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/**
 * rxe_cq_peek() - the peek_cq verb
 * @ibcq: the CQ
 * @wc_cnt: the most to count
 *
 * Context: any context.
 * Return: the completions waiting, at most @wc_cnt.
 */
int rxe_cq_peek(struct ib_cq *ibcq, int wc_cnt)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	u32 count = cq->is_user ? rxe_uring_count(&cq->uring) :
				  rxe_queue_count(&cq->queue);

	return wc_cnt < 0 ? 0 : min_t(u32, count, wc_cnt);
}

/**
 * rxe_cq_req_notify() - the req_notify_cq verb
 * @ibcq: the CQ
 * @flags: IB_CQ_NEXT_COMP or IB_CQ_SOLICITED, maybe with
 *	IB_CQ_REPORT_MISSED_EVENTS
 *
 * An arm for the next completion is not narrowed by a later solicited arm.
 *
 * Context: any context.
 * Return: 0, or 1 with IB_CQ_REPORT_MISSED_EVENTS when completions are
 * already waiting (the caller polls again instead of waiting).
 */
int rxe_cq_req_notify(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	u8 arm = flags & IB_CQ_SOLICITED_MASK;
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = arm;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    (cq->is_user ? rxe_uring_count(&cq->uring) :
			   !rxe_queue_empty(&cq->queue)))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}
