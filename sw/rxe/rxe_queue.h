/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_queue.h - the ring behind SQ, RQ, SRQ and CQ (rxe_queue.c).
 */
#ifndef RXE_QUEUE_H
#define RXE_QUEUE_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

/**
 * struct rxe_queue - a single-producer, single-consumer ring of fixed-size
 * slots
 * @buf:       the slots
 * @elem_size: bytes per slot
 * @mask:      slots - 1; slots is a power of two
 * @prod:      slots ever produced (free running, masked on use)
 * @cons:      slots ever consumed (free running, masked on use)
 *
 * Each side is serialised by its owner's lock (or by being one task); the
 * other side's index is read with acquire and written with release.
 */
struct rxe_queue {
	void *buf;
	u32 elem_size;
	u32 mask;
	u32 prod;
	u32 cons;
};

int rxe_queue_init(struct rxe_queue *q, u32 min_slots, u32 elem_size);
void rxe_queue_cleanup(struct rxe_queue *q);
int rxe_queue_resize(struct rxe_queue *q, u32 min_slots, spinlock_t *lock);
int rxe_queue_move(struct rxe_queue *q, struct rxe_queue *to);

static inline u32 rxe_queue_slots(const struct rxe_queue *q)
{
	return q->mask + 1;
}

static inline void *rxe_queue_at(const struct rxe_queue *q, u32 index)
{
	return q->buf + (size_t)(index & q->mask) * q->elem_size;
}

/* Slots in use, as seen by either side. */
static inline u32 rxe_queue_count(const struct rxe_queue *q)
{
	/* Pair with the releases in rxe_queue_produce() and rxe_queue_consume(). */
	return smp_load_acquire(&q->prod) - smp_load_acquire(&q->cons);
}

static inline bool rxe_queue_empty(const struct rxe_queue *q)
{
	return rxe_queue_count(q) == 0;
}

static inline bool rxe_queue_full(const struct rxe_queue *q)
{
	return rxe_queue_count(q) > q->mask;
}

/* Producer: the free slot to fill, then publish it. */
static inline void *rxe_queue_tail(const struct rxe_queue *q)
{
	return rxe_queue_at(q, q->prod);
}

static inline void rxe_queue_produce(struct rxe_queue *q)
{
	/*
	 * The slot's contents before @prod: pairs with the consumer's acquire
	 * of @prod in rxe_queue_head() and rxe_queue_count().
	 */
	smp_store_release(&q->prod, q->prod + 1);
}

/* Consumer: the oldest filled slot (NULL when empty), then release it. */
static inline void *rxe_queue_head(const struct rxe_queue *q)
{
	u32 cons = q->cons;

	/* Pairs with rxe_queue_produce(): the slot is read after it is filled. */
	if (smp_load_acquire(&q->prod) == cons)
		return NULL;
	return rxe_queue_at(q, cons);
}

static inline void rxe_queue_consume(struct rxe_queue *q)
{
	/*
	 * Done with the slot before it is handed back: pairs with the
	 * producer's acquire of @cons in rxe_queue_count()/rxe_queue_full().
	 */
	smp_store_release(&q->cons, q->cons + 1);
}

#endif /* RXE_QUEUE_H */
