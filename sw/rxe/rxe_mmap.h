/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_mmap.h - buffers user space maps through the uverbs file (rxe_mmap.c)
 * and the rings shared with user space in them (rxe_uring.c).
 */
#ifndef RXE_MMAP_H
#define RXE_MMAP_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include "rxe_uapi.h"

struct rxe_dev;
struct rxe_ucontext;
struct rxe_recv_wqe;

/**
 * struct rxe_mmap - one buffer offered to a process for mmap()
 * @ref:    the owning object holds one, every VMA mapping it one more; the
 *          last put frees @buf, so memory a process maps outlives the
 *          object and the device
 * @list:   on the context's pending list until mapped (or withdrawn)
 * @uc:     the context that may map it (only used while pending)
 * @buf:    vmalloc_user() memory, @size bytes
 * @offset: what user space passes to mmap(), from the device's counter
 * @size:   bytes, a whole number of pages
 */
struct rxe_mmap {
	struct kref ref;
	struct list_head list;
	struct rxe_ucontext *uc;
	void *buf;
	u64 offset;
	u32 size;
};

u64 rxe_mmap_offset_next(atomic64_t *next, u32 size);
struct rxe_mmap *rxe_mmap_alloc(struct rxe_dev *rxe, struct rxe_ucontext *uc,
				size_t size);
void rxe_mmap_offer(struct rxe_mmap *mm, struct mminfo *mi);
void rxe_mmap_put(struct rxe_mmap *mm);
int rxe_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma);

/**
 * struct rxe_uring - a ring in struct rxe_queue_buf layout shared with user
 * space (rdma_user_rxe.h)
 * @mm:     the mapped buffer: header, then the slots
 * @buf:    @mm->buf as the header
 * @log2_elem: log2 of the slot size
 * @mask:   slots - 1; a ring holds @mask entries (one slot stays free so
 *          that masked indices tell full from empty)
 * @kidx:   the index the kernel owns (producer of a CQ), kept here and only
 *          copied out to the header: a value user space writes there is
 *          never read back
 *
 * The index user space owns is read from the header with acquire, masked,
 * and trusted for nothing but its own ring's arithmetic.
 */
struct rxe_uring {
	struct rxe_mmap *mm;
	struct rxe_queue_buf *buf;
	u32 log2_elem;
	u32 mask;
	u32 kidx;
};

u32 rxe_uring_elem_log2(size_t elem_size);
int rxe_uring_slots(u32 entries, u32 max_entries, u32 *slots);
size_t rxe_uring_bytes(u32 slots, u32 log2_elem);
int rxe_uring_init(struct rxe_uring *r, struct rxe_dev *rxe,
		   struct rxe_ucontext *uc, u32 entries, u32 max_entries,
		   size_t elem_size);
void rxe_uring_cleanup(struct rxe_uring *r);
int rxe_uring_move(struct rxe_uring *r, struct rxe_uring *to,
		   bool user_produces);
bool rxe_uring_take_recv(struct rxe_uring *r, u32 max_sge,
			 struct rxe_recv_wqe *dst, u32 room);

static inline void *rxe_uring_slot(const struct rxe_uring *r, u32 index)
{
	return r->buf->data + ((size_t)(index & r->mask) << r->log2_elem);
}

/* The user's (consumer's) index of a ring the kernel produces into. */
static inline u32 rxe_uring_user_index(const struct rxe_uring *r)
{
	/* Pairs with the release user space stores the index with. */
	return smp_load_acquire(&r->buf->consumer_index) & r->mask;
}

/* The user's (producer's) index of a ring the kernel consumes from. */
static inline u32 rxe_uring_user_prod(const struct rxe_uring *r)
{
	/* Pairs with the release user space stores the index with. */
	return smp_load_acquire(&r->buf->producer_index) & r->mask;
}

/* Entries the kernel has not consumed yet (user producer). */
static inline u32 rxe_uring_pending(const struct rxe_uring *r)
{
	return (rxe_uring_user_prod(r) - r->kidx) & r->mask;
}

/* Entries the user has not consumed yet (kernel producer). */
static inline u32 rxe_uring_count(const struct rxe_uring *r)
{
	return (r->kidx - rxe_uring_user_index(r)) & r->mask;
}

static inline bool rxe_uring_full(const struct rxe_uring *r)
{
	return rxe_uring_count(r) == r->mask;
}

/* Kernel producer: the free slot to fill, then publish it. */
static inline void *rxe_uring_tail(const struct rxe_uring *r)
{
	return rxe_uring_slot(r, r->kidx);
}

static inline void rxe_uring_produce(struct rxe_uring *r)
{
	r->kidx = (r->kidx + 1) & r->mask;
	/* The slot's contents before the index: user space loads it with acquire. */
	smp_store_release(&r->buf->producer_index, r->kidx);
}

#endif /* RXE_MMAP_H */
