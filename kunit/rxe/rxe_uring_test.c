// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rxe_uring: the user-shared ring of sw/rxe/rxe_uring.c (layout,
 * sizes, hostile indices, resize) and the mmap offsets of rxe_mmap.c.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <asm/shmparam.h>

#include "sw/rxe/rxe_mmap.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The header rdma-core's provider reads, at the offsets it reads. */
static void rxe_uring_test_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, log2_elem_size), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, index_mask), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, producer_index), 128);
	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, consumer_index), 256);
	KUNIT_EXPECT_EQ(test, offsetof(struct rxe_queue_buf, data), 384);
	KUNIT_EXPECT_EQ(test, sizeof(struct mminfo), 16);
	KUNIT_EXPECT_EQ(test, sizeof(struct rxe_create_cq_resp), 16);
	KUNIT_EXPECT_EQ(test, rxe_uring_bytes(8, 7), 384 + 8 * 128);
	KUNIT_EXPECT_EQ(test, rxe_uring_bytes(1u << 16, 7), 384 + (128u << 16));
}

static void rxe_uring_test_elem(struct kunit *test)
{
	/* slots are a power of two and at least a cache line */
	KUNIT_EXPECT_EQ(test, 1u << rxe_uring_elem_log2(1), L1_CACHE_BYTES);
	KUNIT_EXPECT_EQ(test, 1u << rxe_uring_elem_log2(48),
			max(64, L1_CACHE_BYTES));
	KUNIT_EXPECT_EQ(test, 1u << rxe_uring_elem_log2(65),
			max(128, L1_CACHE_BYTES));
	KUNIT_EXPECT_EQ(test, 1u << rxe_uring_elem_log2(128),
			max(128, L1_CACHE_BYTES));
	KUNIT_EXPECT_EQ(test, 1u << rxe_uring_elem_log2(129),
			max(256, L1_CACHE_BYTES));
}

static void rxe_uring_test_slots(struct kunit *test)
{
	static const u32 want[][2] = {
		{ 1, 2 }, { 2, 4 }, { 3, 4 }, { 4, 8 }, { 7, 8 }, { 100, 128 },
		{ 4095, 4096 }, { 4096, 8192 }, { 0x8000, 0x10000 },
	};
	u32 slots = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_EXPECT_EQ(test, rxe_uring_slots(want[i][0], 0x8000, &slots), 0);
		KUNIT_EXPECT_EQ(test, slots, want[i][1]);
	}
	KUNIT_EXPECT_EQ(test, rxe_uring_slots(0, 0x8000, &slots), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_uring_slots(0x8001, 0x8000, &slots), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_uring_slots(U32_MAX, U32_MAX, &slots), -EINVAL);
}

static void rxe_uring_test_offsets(struct kunit *test)
{
	atomic64_t next = ATOMIC64_INIT(0);
	u64 first = ALIGN(PAGE_SIZE, SHMLBA);

	KUNIT_EXPECT_EQ(test, rxe_mmap_offset_next(&next, PAGE_SIZE), first);
	KUNIT_EXPECT_EQ(test, rxe_mmap_offset_next(&next, 3 * PAGE_SIZE),
			first + ALIGN(PAGE_SIZE, SHMLBA));
	KUNIT_EXPECT_EQ(test, rxe_mmap_offset_next(&next, PAGE_SIZE),
			first + ALIGN(PAGE_SIZE, SHMLBA) +
			ALIGN(3 * PAGE_SIZE, SHMLBA));
	KUNIT_EXPECT_EQ(test, rxe_mmap_offset_next(&next, 1) % PAGE_SIZE, 0);
}

/* A ring in plain kernel memory, as rxe_uring_init() lays it out. */
static void ring_make(struct kunit *test, struct rxe_uring *r, u32 slots)
{
	r->mm = NULL;
	r->log2_elem = 6;
	r->mask = slots - 1;
	r->kidx = 0;
	r->buf = kunit_kzalloc(test, rxe_uring_bytes(slots, 6), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->buf);
	r->buf->log2_elem_size = 6;
	r->buf->index_mask = r->mask;
}

static void push(struct kunit *test, struct rxe_uring *r, u32 v)
{
	KUNIT_ASSERT_FALSE(test, rxe_uring_full(r));
	*(u32 *)rxe_uring_tail(r) = v;
	rxe_uring_produce(r);
}

static void rxe_uring_test_produce(struct kunit *test)
{
	struct rxe_uring r;
	u32 i;

	ring_make(test, &r, 8);
	for (i = 0; i < 7; i++) {
		KUNIT_EXPECT_EQ(test, rxe_uring_count(&r), i);
		push(test, &r, i);
		KUNIT_EXPECT_EQ(test, r.buf->producer_index, i + 1);
	}
	/* one slot stays free: 7 entries in 8 slots is full */
	KUNIT_EXPECT_TRUE(test, rxe_uring_full(&r));
	/* user space consumes three; indices wrap masked */
	WRITE_ONCE(r.buf->consumer_index, 3);
	KUNIT_EXPECT_EQ(test, rxe_uring_count(&r), 4u);
	for (i = 0; i < 3; i++)
		push(test, &r, 10 + i);
	KUNIT_EXPECT_EQ(test, r.buf->producer_index, 2u);
	KUNIT_EXPECT_EQ(test, *(u32 *)rxe_uring_slot(&r, 7), 10u);
	KUNIT_EXPECT_EQ(test, *(u32 *)rxe_uring_slot(&r, 0), 11u);
	KUNIT_EXPECT_EQ(test, *(u32 *)rxe_uring_slot(&r, 1), 12u);
	KUNIT_EXPECT_TRUE(test, rxe_uring_full(&r));
}

/* Whatever user space writes in the header cannot move the kernel's end. */
static void rxe_uring_test_hostile(struct kunit *test)
{
	static const u32 evil[] = { 0xffffffff, 0x80000000, 8, 9, 12345 };
	struct rxe_uring r;
	int i;

	ring_make(test, &r, 8);
	push(test, &r, 1);
	for (i = 0; i < ARRAY_SIZE(evil); i++) {
		WRITE_ONCE(r.buf->consumer_index, evil[i]);
		KUNIT_EXPECT_LE(test, rxe_uring_user_index(&r), r.mask);
		KUNIT_EXPECT_LE(test, rxe_uring_count(&r), r.mask);
	}
	/* a scribbled producer index is overwritten, never read */
	WRITE_ONCE(r.buf->consumer_index, 0);
	WRITE_ONCE(r.buf->producer_index, 0xdead);
	push(test, &r, 2);
	KUNIT_EXPECT_EQ(test, r.kidx, 2u);
	KUNIT_EXPECT_EQ(test, r.buf->producer_index, 2u);
	KUNIT_EXPECT_EQ(test, *(u32 *)rxe_uring_slot(&r, 1), 2u);
	/* the slot address stays inside the ring for any index */
	KUNIT_EXPECT_PTR_EQ(test, rxe_uring_slot(&r, 0xffffffff),
			    (void *)r.buf->data + 7 * 64);
}

static void rxe_uring_test_move(struct kunit *test)
{
	struct rxe_uring r, big, small;
	u32 i;

	ring_make(test, &r, 8);
	ring_make(test, &big, 16);
	ring_make(test, &small, 4);
	for (i = 0; i < 6; i++)
		push(test, &r, 100 + i);
	WRITE_ONCE(r.buf->consumer_index, 2);
	/* four unconsumed entries do not fit in a ring of three */
	KUNIT_EXPECT_EQ(test, rxe_uring_move(&r, &small, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, r.mask, 7u);
	KUNIT_EXPECT_EQ(test, rxe_uring_move(&r, &big, false), 0);
	KUNIT_EXPECT_EQ(test, r.mask, 15u);
	KUNIT_EXPECT_EQ(test, r.kidx, 4u);
	KUNIT_EXPECT_EQ(test, r.buf->producer_index, 4u);
	KUNIT_EXPECT_EQ(test, r.buf->consumer_index, 0u);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, *(u32 *)rxe_uring_slot(&r, i), 102 + i);
	KUNIT_EXPECT_EQ(test, big.mask, 7u);	/* the old ring, to let go */
}

static struct kunit_case rxe_uring_test_cases[] = {
	KUNIT_CASE(rxe_uring_test_layout),
	KUNIT_CASE(rxe_uring_test_elem),
	KUNIT_CASE(rxe_uring_test_slots),
	KUNIT_CASE(rxe_uring_test_offsets),
	KUNIT_CASE(rxe_uring_test_produce),
	KUNIT_CASE(rxe_uring_test_hostile),
	KUNIT_CASE(rxe_uring_test_move),
	{}
};

static struct kunit_suite rxe_uring_test_suite = {
	.name = "rxe_uring",
	.test_cases = rxe_uring_test_cases,
};

kunit_test_suite(rxe_uring_test_suite);

MODULE_DESCRIPTION("KUnit tests of the soft-RoCE ring shared with user space");
MODULE_LICENSE("GPL");
