// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_event: event handler registration and dispatch of core/device/event.c. */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

#define MAX_SEEN 8

/**
 * struct test_handler - an event handler that records what it gets
 * @h: registered with the core
 * @registered: for the suite's exit
 * @lock: protects the members below; handlers run on ib_wq
 * @seen: the events, copied
 * @nseen: how many arrived
 * @not_in_task: a call came in interrupt context or with interrupts off
 * @order: global call number of each event, across handlers
 * @enough: completed when @want events arrived
 * @want: how many to wait for
 */
struct test_handler {
	struct ib_event_handler h;
	bool registered;
	spinlock_t lock;	/* guards the members below */
	struct ib_event seen[MAX_SEEN];
	int nseen;
	bool not_in_task;
	int order[MAX_SEEN];
	struct completion enough;
	int want;
};

static atomic_t call_counter;
static struct test_handler handlers[2];

static void record_event(struct ib_event_handler *h, struct ib_event *event)
{
	struct test_handler *th = container_of(h, struct test_handler, h);
	bool atomic = !in_task() || irqs_disabled();
	bool done;

	spin_lock(&th->lock);
	th->not_in_task |= atomic;
	if (th->nseen < MAX_SEEN) {
		th->seen[th->nseen] = *event;
		th->order[th->nseen] = atomic_inc_return(&call_counter);
	}
	th->nseen++;
	done = th->nseen == th->want;
	spin_unlock(&th->lock);
	if (done)
		complete(&th->enough);
}

static void th_register(struct test_handler *th, struct ib_device *dev,
			int want)
{
	INIT_IB_EVENT_HANDLER(&th->h, dev, record_event);
	th->want = want;
	ib_register_event_handler(&th->h);
	th->registered = true;
}

static void th_unregister(struct test_handler *th)
{
	ib_unregister_event_handler(&th->h);
	th->registered = false;
}

static bool th_wait(struct test_handler *th)
{
	return wait_for_completion_timeout(&th->enough,
					   msecs_to_jiffies(5000)) != 0;
}

static int event_test_init(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(handlers); i++) {
		memset(&handlers[i], 0, sizeof(handlers[i]));
		spin_lock_init(&handlers[i].lock);
		init_completion(&handlers[i].enough);
	}
	atomic_set(&call_counter, 0);
	return 0;
}

static void event_test_exit(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(handlers); i++)
		if (handlers[i].registered)
			th_unregister(&handlers[i]);
	/* nothing may still be on its way to the handlers above */
	flush_workqueue(ib_wq);
	mock_ibdev_cleanup_all();
}

static struct mock_ibdev *mock_up(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 2 };
	struct mock_ibdev *mdev = mock_ibdev_alloc(&cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	KUNIT_ASSERT_EQ(test, mock_ibdev_register(mdev, "kmev%d"), 0);
	return mdev;
}

static void mock_down(struct mock_ibdev *mdev)
{
	ib_unregister_device(&mdev->ibdev);
	mock_ibdev_free(mdev);
}

static void handler_gets_event_test(struct kunit *test)
{
	struct test_handler *th = &handlers[0];
	struct mock_ibdev *m = mock_up(test);

	th_register(th, &m->ibdev, 1);
	mock_ibdev_port_event(m, 2, IB_EVENT_PORT_ACTIVE);
	KUNIT_ASSERT_TRUE(test, th_wait(th));

	KUNIT_EXPECT_EQ(test, th->nseen, 1);
	KUNIT_EXPECT_PTR_EQ(test, th->seen[0].device, &m->ibdev);
	KUNIT_EXPECT_EQ(test, th->seen[0].element.port_num, 2U);
	KUNIT_EXPECT_EQ(test, th->seen[0].event, IB_EVENT_PORT_ACTIVE);
	/* handlers run in process context */
	KUNIT_EXPECT_FALSE(test, th->not_in_task);

	th_unregister(th);
	mock_down(m);
}

/* How many of the recorded events are @type on @port. */
static int seen_count(struct test_handler *th, enum ib_event_type type,
		      u32 port)
{
	int i, n = 0;

	for (i = 0; i < min(th->nseen, MAX_SEEN); i++)
		if (th->seen[i].event == type &&
		    th->seen[i].element.port_num == port)
			n++;
	return n;
}

/* Drivers report events from interrupt handlers: dispatch must not sleep. */
static void dispatch_from_atomic_test(struct kunit *test)
{
	struct test_handler *th = &handlers[0];
	struct mock_ibdev *m = mock_up(test);
	unsigned long flags;

	th_register(th, &m->ibdev, 3);
	local_irq_save(flags);
	mock_ibdev_port_event(m, 1, IB_EVENT_PORT_ERR);
	mock_ibdev_port_event(m, 1, IB_EVENT_LID_CHANGE);
	mock_ibdev_port_event(m, 2, IB_EVENT_PORT_ACTIVE);
	local_irq_restore(flags);
	KUNIT_ASSERT_TRUE(test, th_wait(th));

	/* each exactly once; ib_wq does not promise their order */
	flush_workqueue(ib_wq);
	KUNIT_EXPECT_EQ(test, th->nseen, 3);
	KUNIT_EXPECT_EQ(test, seen_count(th, IB_EVENT_PORT_ERR, 1), 1);
	KUNIT_EXPECT_EQ(test, seen_count(th, IB_EVENT_LID_CHANGE, 1), 1);
	KUNIT_EXPECT_EQ(test, seen_count(th, IB_EVENT_PORT_ACTIVE, 2), 1);
	KUNIT_EXPECT_FALSE(test, th->not_in_task);

	th_unregister(th);
	mock_down(m);
}

static void two_handlers_test(struct kunit *test)
{
	struct test_handler *first = &handlers[0], *second = &handlers[1];
	struct mock_ibdev *m = mock_up(test);

	th_register(first, &m->ibdev, 1);
	th_register(second, &m->ibdev, 1);
	mock_ibdev_port_event(m, 1, IB_EVENT_SM_CHANGE);
	KUNIT_ASSERT_TRUE(test, th_wait(first));
	KUNIT_ASSERT_TRUE(test, th_wait(second));
	/* called in registration order */
	KUNIT_EXPECT_LT(test, first->order[0], second->order[0]);

	/* an unregistered handler hears nothing more */
	th_unregister(first);
	second->want = 2;
	reinit_completion(&second->enough);
	mock_ibdev_port_event(m, 1, IB_EVENT_CLIENT_REREGISTER);
	KUNIT_ASSERT_TRUE(test, th_wait(second));
	flush_workqueue(ib_wq);
	KUNIT_EXPECT_EQ(test, first->nseen, 1);
	KUNIT_EXPECT_EQ(test, second->nseen, 2);
	KUNIT_EXPECT_EQ(test, second->seen[1].event, IB_EVENT_CLIENT_REREGISTER);

	th_unregister(second);
	mock_down(m);
}

/* Handlers of one device do not hear another device's events. */
static void per_device_test(struct kunit *test)
{
	struct mock_ibdev *m1 = mock_up(test);
	struct mock_ibdev *m2 = mock_up(test);

	th_register(&handlers[0], &m1->ibdev, 1);
	th_register(&handlers[1], &m2->ibdev, 1);
	mock_ibdev_port_event(m2, 1, IB_EVENT_PKEY_CHANGE);
	KUNIT_ASSERT_TRUE(test, th_wait(&handlers[1]));
	flush_workqueue(ib_wq);
	KUNIT_EXPECT_EQ(test, handlers[0].nseen, 0);
	KUNIT_EXPECT_PTR_EQ(test, handlers[1].seen[0].device, &m2->ibdev);

	th_unregister(&handlers[0]);
	th_unregister(&handlers[1]);
	mock_down(m1);
	mock_down(m2);
}

/* An event still queued when its device is freed must not touch freed memory. */
static void event_outlives_device_test(struct kunit *test)
{
	struct mock_ibdev *m = mock_up(test);
	int i;

	for (i = 0; i < 4; i++)
		mock_ibdev_port_event(m, 1, IB_EVENT_GID_CHANGE);
	mock_down(m);
	flush_workqueue(ib_wq);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

static struct kunit_case ib_core_event_cases[] = {
	KUNIT_CASE(handler_gets_event_test),
	KUNIT_CASE(dispatch_from_atomic_test),
	KUNIT_CASE(two_handlers_test),
	KUNIT_CASE(per_device_test),
	KUNIT_CASE(event_outlives_device_test),
	{}
};

static struct kunit_suite ib_core_event_suite = {
	.name = "ib_core_event",
	.init = event_test_init,
	.exit = event_test_exit,
	.test_cases = ib_core_event_cases,
};

kunit_test_suite(ib_core_event_suite);

MODULE_DESCRIPTION("KUnit tests for ib_core asynchronous events");
MODULE_LICENSE("GPL");
