// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_uring.c - rings shared with user space in the rdma_user_rxe.h layout:
 * sizes, allocation, resize.
 */
/*
 * Kernel rings (rxe_queue.c) and user rings are different types on
 * purpose. A kernel ring trusts both of its indices and uses every slot;
 * it stays as fast as it is. A user ring lives in memory the process
 * writes at will: its header (struct rxe_queue_buf) carries the element
 * size, the index mask and both indices as masked slot numbers, exactly as
 * rdma-core's rxe provider expects. The kernel keeps the index it owns in
 * struct rxe_uring and only stores it to the header; the one user space
 * owns it loads with acquire and masks, so whatever the process writes
 * there can only make its own ring look fuller or emptier. One slot stays
 * free so that equal indices mean empty.
 */

#include <linux/cache.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include "rxe_mmap.h"
#include "rxe_verbs.h"

/**
 * rxe_uring_elem_log2() - the slot size of a user ring, as a power of two
 * @elem_size: bytes an element needs
 *
 * Slots are at least a cache line and a power of two, so an element never
 * straddles two lines shared with its neighbour.
 *
 * Context: any context.
 * Return: log2 of the slot size.
 */
u32 rxe_uring_elem_log2(size_t elem_size)
{
	return order_base_2(max_t(size_t, elem_size, L1_CACHE_BYTES));
}
EXPORT_SYMBOL_IF_KUNIT(rxe_uring_elem_log2);

/**
 * rxe_uring_slots() - the slots a user ring needs for some entries
 * @entries: entries asked for, 1 to @max_entries
 * @max_entries: the object's limit
 * @slots: set to the next power of two above @entries (one slot stays
 *	free); the ring then holds *@slots - 1 entries
 *
 * Context: any context.
 * Return: 0, or -EINVAL for 0 or more than @max_entries.
 */
int rxe_uring_slots(u32 entries, u32 max_entries, u32 *slots)
{
	if (!entries || entries > max_entries || entries >= 1u << 30)
		return -EINVAL;
	*slots = roundup_pow_of_two(entries + 1);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_uring_slots);

/**
 * rxe_uring_bytes() - the bytes of a user ring: header and slots
 * @slots: a power of two
 * @log2_elem: log2 of the slot size
 *
 * Context: any context.
 * Return: the size; the buffer mapped is this rounded up to pages.
 */
size_t rxe_uring_bytes(u32 slots, u32 log2_elem)
{
	return sizeof(struct rxe_queue_buf) + ((size_t)slots << log2_elem);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_uring_bytes);

/**
 * rxe_uring_init() - allocate an empty user ring
 * @r: the ring to set up
 * @rxe: the device (mmap offsets)
 * @uc: the context that will map it
 * @entries: entries wanted (see rxe_uring_slots())
 * @max_entries: the object's limit
 * @elem_size: bytes per element
 *
 * The buffer is not offered for mmap() yet (rxe_mmap_offer()).
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL for a bad size, -ENOMEM.
 */
int rxe_uring_init(struct rxe_uring *r, struct rxe_dev *rxe,
		   struct rxe_ucontext *uc, u32 entries, u32 max_entries,
		   size_t elem_size)
{
	u32 log2_elem = rxe_uring_elem_log2(elem_size);
	u32 slots;
	int err;

	err = rxe_uring_slots(entries, max_entries, &slots);
	if (err)
		return err;
	r->mm = rxe_mmap_alloc(rxe, uc, rxe_uring_bytes(slots, log2_elem));
	if (IS_ERR(r->mm))
		return PTR_ERR(r->mm);
	r->buf = r->mm->buf;
	r->log2_elem = log2_elem;
	r->mask = slots - 1;
	r->kidx = 0;
	r->buf->log2_elem_size = log2_elem;
	r->buf->index_mask = r->mask;
	return 0;
}

/**
 * rxe_uring_cleanup() - let go of a user ring
 * @r: a ring from rxe_uring_init()
 *
 * The memory stays while the process maps it.
 *
 * Context: process context.
 */
void rxe_uring_cleanup(struct rxe_uring *r)
{
	if (!r->mm)
		return;
	rxe_mmap_put(r->mm);
	r->mm = NULL;
	r->buf = NULL;
}

/**
 * rxe_uring_move() - move the entries in flight of a ring into another
 * @r: the ring in use
 * @to: an empty ring of the same slot size
 * @user_produces: user space produces into @r (an SRQ), else the kernel
 *	does (a CQ)
 *
 * The entries between the consumer's and the producer's index go to
 * slots 0 on of @to, whose header says so; the kernel's own index follows
 * its side. On success @r is the new ring and @to holds the old one for
 * rxe_uring_cleanup(). The caller excludes the kernel's side; user space
 * keeps using the old ring until it maps the new one.
 *
 * Context: any context.
 * Return: 0, or -EINVAL when the entries do not fit (nothing changed).
 */
int rxe_uring_move(struct rxe_uring *r, struct rxe_uring *to,
		   bool user_produces)
{
	u32 cons = user_produces ? r->kidx : rxe_uring_user_index(r);
	u32 prod = user_produces ? rxe_uring_user_prod(r) : r->kidx;
	u32 count = (prod - cons) & r->mask;
	u32 i;

	if (count > to->mask || to->log2_elem != r->log2_elem)
		return -EINVAL;
	for (i = 0; i < count; i++)
		memcpy(rxe_uring_slot(to, i), rxe_uring_slot(r, cons + i),
		       1u << r->log2_elem);
	to->kidx = user_produces ? 0 : count;
	WRITE_ONCE(to->buf->consumer_index, 0);
	/* The slots before the index: pairs with the reader's acquire. */
	smp_store_release(&to->buf->producer_index, count);
	swap(*r, *to);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_uring_move);

/**
 * rxe_uring_take_recv() - take the oldest receive WQE of a ring user space
 * fills (a user QP's RQ, a user SRQ)
 * @r: the ring
 * @max_sge: SGEs a WQE of the object may have
 * @dst: where the WQE goes
 * @room: SGEs @dst has room for (0 when only the wr_id matters: flush)
 *
 * The slot is read once: wr_id and SGE count first, the count checked
 * against @max_sge and @room, then the SGEs copied; the length is summed
 * from the copy. A WQE with too many SGEs, or SGEs adding up beyond
 * RXE_MAX_MSG_SIZE, is taken with none, so that the message it receives
 * fails with a length error and its completion still carries its wr_id.
 * The slot is handed back to user space at once.
 *
 * Context: any context; the caller serialises the ring's consumers.
 * Return: true when a WQE was taken.
 */
bool rxe_uring_take_recv(struct rxe_uring *r, u32 max_sge,
			 struct rxe_recv_wqe *dst, u32 room)
{
	const struct rxe_user_recv_wqe *u;
	u64 len = 0;
	u32 num_sge, i;

	if (!r->mm || r->kidx == rxe_uring_user_prod(r))
		return false;
	u = rxe_uring_slot(r, r->kidx);
	dst->wr_id = READ_ONCE(u->wr_id);
	num_sge = READ_ONCE(u->dma.num_sge);
	if (num_sge > min(max_sge, room))
		num_sge = 0;
	memcpy(dst->sge, u->dma.sge, num_sge * sizeof(struct ib_sge));
	for (i = 0; i < num_sge; i++)
		len += dst->sge[i].length;
	if (len > RXE_MAX_MSG_SIZE) {
		num_sge = 0;
		len = 0;
	}
	dst->num_sge = num_sge;
	dst->length = len;
	r->kidx = (r->kidx + 1) & r->mask;
	/* The slot was read before: pairs with the provider's acquire. */
	smp_store_release(&r->buf->consumer_index, r->kidx);
	return true;
}
