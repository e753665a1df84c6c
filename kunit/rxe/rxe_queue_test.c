// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rxe_queue: the soft-RoCE ring of sw/rxe/rxe_queue.c and the
 * inline ends of rxe_queue.h.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/spinlock.h>

#include "sw/rxe/rxe_queue.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Append @v; the ring must have room. */
static void push(struct kunit *test, struct rxe_queue *q, u32 v)
{
	KUNIT_ASSERT_FALSE(test, rxe_queue_full(q));
	*(u32 *)rxe_queue_tail(q) = v;
	rxe_queue_produce(q);
}

/* Take the oldest entry and check it is @v. */
static void pop_expect(struct kunit *test, struct rxe_queue *q, u32 v)
{
	u32 *slot = rxe_queue_head(q);

	KUNIT_ASSERT_NOT_NULL(test, slot);
	KUNIT_EXPECT_EQ(test, *slot, v);
	rxe_queue_consume(q);
}

static void rxe_queue_test_sizes(struct kunit *test)
{
	static const u32 want[][2] = {
		{ 0, 1 }, { 1, 1 }, { 2, 2 }, { 5, 8 }, { 16, 16 },
		{ 17, 32 }, { 0x4000, 0x4000 },
	};
	struct rxe_queue q;
	int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_EQ(test, rxe_queue_init(&q, want[i][0], 24), 0);
		KUNIT_EXPECT_EQ(test, rxe_queue_slots(&q), want[i][1]);
		KUNIT_EXPECT_EQ(test, q.elem_size, 24u);
		KUNIT_EXPECT_TRUE(test, rxe_queue_empty(&q));
		KUNIT_EXPECT_NULL(test, rxe_queue_head(&q));
		rxe_queue_cleanup(&q);
		KUNIT_EXPECT_NULL(test, q.buf);
	}
	KUNIT_EXPECT_EQ(test, rxe_queue_init(&q, 4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_queue_init(&q, U32_MAX, 8), -EINVAL);
}

static void rxe_queue_test_full_empty(struct kunit *test)
{
	struct rxe_queue q;
	u32 i;

	KUNIT_ASSERT_EQ(test, rxe_queue_init(&q, 8, sizeof(u32)), 0);
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, rxe_queue_count(&q), i);
		push(test, &q, 100 + i);
	}
	/* every slot holds an entry */
	KUNIT_EXPECT_TRUE(test, rxe_queue_full(&q));
	KUNIT_EXPECT_EQ(test, rxe_queue_count(&q), 8u);
	for (i = 0; i < 8; i++)
		pop_expect(test, &q, 100 + i);
	KUNIT_EXPECT_TRUE(test, rxe_queue_empty(&q));
	KUNIT_EXPECT_FALSE(test, rxe_queue_full(&q));
	KUNIT_EXPECT_NULL(test, rxe_queue_head(&q));
	rxe_queue_cleanup(&q);
}

/* The indexes run freely: nothing changes when they wrap past U32_MAX. */
static void rxe_queue_test_wrap(struct kunit *test)
{
	struct rxe_queue q;
	u32 i;

	KUNIT_ASSERT_EQ(test, rxe_queue_init(&q, 4, sizeof(u32)), 0);
	q.prod = U32_MAX - 5;
	q.cons = U32_MAX - 5;
	for (i = 0; i < 40; i++) {
		push(test, &q, i);
		if (i >= 3) {
			KUNIT_EXPECT_TRUE(test, rxe_queue_full(&q));
			pop_expect(test, &q, i - 3);
		}
		KUNIT_EXPECT_EQ(test, rxe_queue_count(&q), min(i + 1, 3u));
	}
	KUNIT_EXPECT_LT(test, q.prod, 100u);
	for (i = 37; i < 40; i++)
		pop_expect(test, &q, i);
	KUNIT_EXPECT_TRUE(test, rxe_queue_empty(&q));
	rxe_queue_cleanup(&q);
}

static void rxe_queue_test_resize(struct kunit *test)
{
	spinlock_t lock;	/* what a QP passes to serialize the resize */
	struct rxe_queue q;
	u32 i;

	/* initialised at run time: lockdep needs a static key */
	spin_lock_init(&lock);
	KUNIT_ASSERT_EQ(test, rxe_queue_init(&q, 4, sizeof(u32)), 0);
	/* live entries that straddle the end of the slots and of the u32 */
	q.prod = U32_MAX - 1;
	q.cons = U32_MAX - 1;
	for (i = 0; i < 4; i++)
		push(test, &q, i);
	pop_expect(test, &q, 0);
	push(test, &q, 4);

	KUNIT_EXPECT_EQ(test, rxe_queue_resize(&q, 2, &lock), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_queue_slots(&q), 4u);
	KUNIT_EXPECT_EQ(test, rxe_queue_count(&q), 4u);

	KUNIT_ASSERT_EQ(test, rxe_queue_resize(&q, 9, &lock), 0);
	KUNIT_EXPECT_EQ(test, rxe_queue_slots(&q), 16u);
	KUNIT_EXPECT_EQ(test, rxe_queue_count(&q), 4u);
	for (i = 5; i < 17; i++)
		push(test, &q, i);
	KUNIT_EXPECT_TRUE(test, rxe_queue_full(&q));
	for (i = 1; i < 13; i++)
		pop_expect(test, &q, i);

	/* exactly as many slots as live entries is enough */
	KUNIT_ASSERT_EQ(test, rxe_queue_resize(&q, 4, &lock), 0);
	KUNIT_EXPECT_TRUE(test, rxe_queue_full(&q));
	for (i = 13; i < 17; i++)
		pop_expect(test, &q, i);
	KUNIT_EXPECT_TRUE(test, rxe_queue_empty(&q));
	rxe_queue_cleanup(&q);
}

static void rxe_queue_test_move_mismatch(struct kunit *test)
{
	struct rxe_queue q, to;

	KUNIT_ASSERT_EQ(test, rxe_queue_init(&q, 4, 8), 0);
	KUNIT_ASSERT_EQ(test, rxe_queue_init(&to, 4, 16), 0);
	KUNIT_EXPECT_EQ(test, rxe_queue_move(&q, &to), -EINVAL);
	KUNIT_EXPECT_EQ(test, q.elem_size, 8u);
	rxe_queue_cleanup(&q);
	rxe_queue_cleanup(&to);
}

static struct kunit_case rxe_queue_test_cases[] = {
	KUNIT_CASE(rxe_queue_test_sizes),
	KUNIT_CASE(rxe_queue_test_full_empty),
	KUNIT_CASE(rxe_queue_test_wrap),
	KUNIT_CASE(rxe_queue_test_resize),
	KUNIT_CASE(rxe_queue_test_move_mismatch),
	{}
};

static struct kunit_suite rxe_queue_test_suite = {
	.name = "rxe_queue",
	.test_cases = rxe_queue_test_cases,
};

kunit_test_suite(rxe_queue_test_suite);

MODULE_DESCRIPTION("KUnit tests of the soft-RoCE ring");
MODULE_LICENSE("GPL");
