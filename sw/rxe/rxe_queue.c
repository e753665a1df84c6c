// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_queue.c - the ring of fixed-size slots behind every SQ, RQ, SRQ and
 * CQ: allocation and resizing.
 */

#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include "rxe_verbs.h"

/* Rings larger than this are refused whatever the caller's limits say. */
#define RXE_QUEUE_MAX_SLOTS	BIT(24)

/**
 * rxe_queue_init() - allocate an empty ring
 * @q: the ring to set up
 * @min_slots: slots wanted; the ring gets the next power of two (at least 1)
 * @elem_size: bytes per slot
 *
 * Every slot is usable: a ring of 2^n slots holds 2^n entries.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL for an absurd size, -ENOMEM.
 */
int rxe_queue_init(struct rxe_queue *q, u32 min_slots, u32 elem_size)
{
	u32 slots;

	if (!elem_size || min_slots > RXE_QUEUE_MAX_SLOTS)
		return -EINVAL;
	slots = roundup_pow_of_two(max(min_slots, 1u));
	q->buf = kvcalloc(slots, elem_size, GFP_KERNEL);
	if (!q->buf)
		return -ENOMEM;
	q->elem_size = elem_size;
	q->mask = slots - 1;
	q->prod = 0;
	q->cons = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_queue_init);

/**
 * rxe_queue_cleanup() - free a ring's slots (entries still in it are lost)
 * @q: a ring set up by rxe_queue_init(), or zeroed
 *
 * Context: process context.
 */
void rxe_queue_cleanup(struct rxe_queue *q)
{
	kvfree(q->buf);
	q->buf = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_queue_cleanup);

/**
 * rxe_queue_move() - move the live entries of a ring into another one
 * @q: the ring in use
 * @to: an empty ring from rxe_queue_init(), of the same slot size
 *
 * On success @q owns @to's slots, holding its entries in the same order
 * from index 0 on, and @to owns @q's old slots (for rxe_queue_cleanup()).
 * The caller excludes producers and consumers of @q.
 *
 * Context: any context; does not sleep.
 * Return: 0, or -EINVAL when the live entries do not fit in @to (then
 * nothing changed).
 */
int rxe_queue_move(struct rxe_queue *q, struct rxe_queue *to)
{
	u32 count = q->prod - q->cons;
	u32 i;

	if (count > rxe_queue_slots(to) || to->elem_size != q->elem_size)
		return -EINVAL;
	for (i = 0; i < count; i++)
		memcpy(rxe_queue_at(to, i), rxe_queue_at(q, q->cons + i),
		       q->elem_size);
	to->prod = count;
	to->cons = 0;
	swap(*q, *to);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_queue_move);

/**
 * rxe_queue_resize() - give a ring a new number of slots, keeping its entries
 * @q: the ring
 * @min_slots: slots wanted (rounded up to a power of two)
 * @lock: the lock that, held, excludes both ends of @q; taken here with
 *	interrupts off while the entries move
 *
 * Context: process context, may sleep; @lock not held.
 * Return: 0, -EINVAL when the live entries do not fit, -ENOMEM.
 */
int rxe_queue_resize(struct rxe_queue *q, u32 min_slots, spinlock_t *lock)
{
	struct rxe_queue to;
	unsigned long flags;
	int err;

	err = rxe_queue_init(&to, min_slots, q->elem_size);
	if (err)
		return err;
	spin_lock_irqsave(lock, flags);
	err = rxe_queue_move(q, &to);
	spin_unlock_irqrestore(lock, flags);
	/* the old slots after a move, the unused new ones after a failure */
	rxe_queue_cleanup(&to);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_queue_resize);

/**
 * rxe_queue_post_recv() - queue one receive work request on an RQ or SRQ
 * @q:       the ring of struct rxe_recv_wqe slots
 * @wr:      the work request
 * @max_sge: SGEs the queue was created for
 *
 * Context: the caller serialises the producer side (its queue's lock).
 * Return: 0, -EINVAL for too many SGEs or a message longer than
 * RXE_MAX_MSG_SIZE, -ENOMEM when the queue is full.
 */
int rxe_queue_post_recv(struct rxe_queue *q, const struct ib_recv_wr *wr,
			u32 max_sge)
{
	struct rxe_recv_wqe *wqe;
	u64 len = 0;
	int i;

	if (wr->num_sge < 0 || wr->num_sge > max_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (len > RXE_MAX_MSG_SIZE)
		return -EINVAL;
	if (rxe_queue_full(q))
		return -ENOMEM;
	wqe = rxe_queue_tail(q);
	wqe->wr_id = wr->wr_id;
	wqe->num_sge = wr->num_sge;
	wqe->length = len;
	memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	rxe_queue_produce(q);
	return 0;
}
