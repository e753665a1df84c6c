// SPDX-License-Identifier: GPL-2.0-only
/* rxe_cq.c - completion queues: a ring of struct ib_wc, notification, overflow. */

#include <linux/interrupt.h>
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

/**
 * rxe_cq_post() - add a completion to a CQ
 * @cq: the CQ
 * @wc: the completion, copied
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
	if (unlikely(rxe_queue_full(&cq->queue))) {
		first_loss = !cq->overflow;
		cq->overflow = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (first_loss)
			rxe_cq_overflow(cq);
		return -EBUSY;
	}
	memcpy(rxe_queue_tail(&cq->queue), wc, sizeof(*wc));
	rxe_queue_produce(&cq->queue);
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

/**
 * rxe_cq_create() - the create_cq verb
 * @ibcq: the CQ, allocated by the core
 * @attr: size (1..RXE_MAX_CQE), no flags
 * @udata: user data; user CQs are not supported yet
 *
 * ibcq->cqe becomes the usable size, @attr->cqe rounded up to a power of two.
 *
 * Context: process context.
 * Return: 0, -EOPNOTSUPP for a user CQ or flags, -EINVAL for a bad size,
 * -ENOMEM (also beyond attr.max_cq).
 */
int rxe_cq_create(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);
	int err;

	if (udata || attr->flags)
		return -EOPNOTSUPP;
	if (!rxe_cq_size_ok(attr->cqe)) {
		rxe_dbg_dev(rxe, "bad CQ size %d\n", attr->cqe);
		return -EINVAL;
	}
	if (!rxe_count_inc(&rxe->num_cq, rxe->attr.max_cq))
		return -ENOMEM;
	err = rxe_queue_init(&cq->queue, attr->cqe, sizeof(struct ib_wc));
	if (err) {
		atomic_dec(&rxe->num_cq);
		return err;
	}
	spin_lock_init(&cq->lock);
	cq->notify = 0;
	cq->overflow = false;
	ibcq->cqe = rxe_queue_slots(&cq->queue);
	return 0;
}

/**
 * rxe_cq_destroy() - the destroy_cq verb
 * @ibcq: the CQ; no QP uses it and the core stopped polling it
 * @udata: user data (unused)
 *
 * Context: process context.
 * Return: 0.
 */
int rxe_cq_destroy(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rxe_cq *cq = to_rcq(ibcq);

	rxe_queue_cleanup(&cq->queue);
	atomic_dec(&to_rdev(ibcq->device)->num_cq);
	return 0;
}

/**
 * rxe_cq_resize() - the resize_cq verb
 * @ibcq: the CQ
 * @cqe: the new size (1..RXE_MAX_CQE), rounded up to a power of two
 * @udata: user data; must be NULL
 *
 * Completions waiting in the CQ stay, in order.
 *
 * Context: process context.
 * Return: 0, -EINVAL for a bad size or one below the completions waiting,
 * -EOPNOTSUPP, -ENOMEM.
 */
int rxe_cq_resize(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	int err;

	if (udata)
		return -EOPNOTSUPP;
	if (!rxe_cq_size_ok(cqe))
		return -EINVAL;
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
 * Context: any context.
 * Return: the number of completions returned.
 */
int rxe_cq_poll(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	unsigned long flags;
	void *slot;
	int n;

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
	u32 count = rxe_queue_count(&to_rcq(ibcq)->queue);

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
	    !rxe_queue_empty(&cq->queue))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}
