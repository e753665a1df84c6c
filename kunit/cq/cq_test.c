// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_cq: core/cq/cq.c and core/cq/cq_pool.c on a fake driver. */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "core/cq/cq.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define FAKE_RING	512	/* completions one fake CQ can hold */
#define FAKE_VECTORS	2
#define FAKE_MAX_CQE	8192
#define WAIT_MS		5000

/* What 6.1 promises about the pollers (see core/cq/cq.c). */
#define BATCH		16	/* poll_cq size of the softirq/work pollers */
#define BATCH_DIRECT	8	/* poll_cq size of ib_process_cq_direct() */
#define POOL_MIN_CQE	4096	/* smallest CQ the pool creates */
#define REARM		(IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS)

/* ---- The fake driver ----------------------------------------------------- */

/**
 * struct fake_dev - a device whose CQs are arrays in memory
 * @ibdev: the core's part, first as ib_alloc_device() wants
 * @creates_left: create_cq calls that succeed before @create_err is
 *	returned; negative for no limit
 * @create_err: what create_cq fails with
 * @destroy_err: what destroy_cq returns; non-zero keeps the CQ
 * @live_cqs: CQs created and not yet destroyed
 * @resize_cqe: size last passed to resize_cq
 * @mod_count: count last passed to modify_cq
 * @mod_period: period last passed to modify_cq
 *
 * The test thread sets the knobs while no CQ operation runs.
 */
struct fake_dev {
	struct ib_device ibdev;
	int creates_left;
	int create_err;
	int destroy_err;
	atomic_t live_cqs;
	int resize_cqe;
	u16 mod_count;
	u16 mod_period;
};

/**
 * struct fake_cq_stats - what the core asked of a fake CQ
 * @arms: req_notify_cq calls so far
 * @arm_flags: flags of the last req_notify_cq call
 * @max_poll: largest num_entries poll_cq was called with
 */
struct fake_cq_stats {
	unsigned int arms;
	int arm_flags;
	int max_poll;
};

/**
 * struct fake_cq - a CQ of the fake driver
 * @ibcq: the core's part, first as INIT_RDMA_OBJ_SIZE wants
 * @lock: protects all members below; taken from the test thread, the
 *	core's pollers and done() callbacks, so with interrupts off
 * @ring: pending completions, @count of them starting at @head
 * @head: ring index of the oldest pending completion
 * @count: pending completions
 * @armed: the next fake_cq_event() calls cq->comp_handler
 * @stats: for the test to check
 */
struct fake_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* protects the members below */
	struct ib_wc ring[FAKE_RING];
	unsigned int head;
	unsigned int count;
	bool armed;
	struct fake_cq_stats stats;
};

static struct fake_dev *to_fdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct fake_dev, ibdev);
}

static struct fake_cq *to_fcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct fake_cq, ibcq);
}

static int fake_create_cq(struct ib_cq *ibcq,
			  const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata)
{
	struct fake_dev *fdev = to_fdev(ibcq->device);
	struct fake_cq *fcq = to_fcq(ibcq);

	if (!fdev->creates_left)
		return fdev->create_err;
	if (fdev->creates_left > 0)
		fdev->creates_left--;
	spin_lock_init(&fcq->lock);
	ibcq->cqe = attr->cqe;
	atomic_inc(&fdev->live_cqs);
	return 0;
}

static int fake_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct fake_dev *fdev = to_fdev(ibcq->device);

	if (fdev->destroy_err)
		return fdev->destroy_err;
	atomic_dec(&fdev->live_cqs);
	return 0;
}

static int fake_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct fake_cq *fcq = to_fcq(ibcq);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&fcq->lock, flags);
	fcq->stats.max_poll = max(fcq->stats.max_poll, num);
	for (n = 0; n < num && fcq->count; n++) {
		wc[n] = fcq->ring[fcq->head];
		fcq->head = (fcq->head + 1) % FAKE_RING;
		fcq->count--;
	}
	spin_unlock_irqrestore(&fcq->lock, flags);
	return n;
}

/* Like hardware: report a miss when completions are already waiting. */
static int fake_req_notify_cq(struct ib_cq *ibcq,
			      enum ib_cq_notify_flags flags)
{
	struct fake_cq *fcq = to_fcq(ibcq);
	unsigned long irqflags;
	int missed;

	spin_lock_irqsave(&fcq->lock, irqflags);
	fcq->armed = true;
	fcq->stats.arms++;
	fcq->stats.arm_flags = flags;
	missed = (flags & IB_CQ_REPORT_MISSED_EVENTS) && fcq->count;
	spin_unlock_irqrestore(&fcq->lock, irqflags);
	return missed;
}

static int fake_modify_cq(struct ib_cq *ibcq, u16 count, u16 period)
{
	struct fake_dev *fdev = to_fdev(ibcq->device);

	fdev->mod_count = count;
	fdev->mod_period = period;
	return 0;
}

static int fake_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	to_fdev(ibcq->device)->resize_cqe = cqe;
	return 0;
}

/* The verbs every CQ needs. */
static const struct ib_device_ops fake_cq_ops = {
	.create_cq = fake_create_cq,
	.destroy_cq = fake_destroy_cq,
	.poll_cq = fake_poll_cq,
	.req_notify_cq = fake_req_notify_cq,
	INIT_RDMA_OBJ_SIZE(ib_cq, fake_cq, ibcq),
};

/* The optional ones. */
static const struct ib_device_ops fake_extra_ops = {
	.modify_cq = fake_modify_cq,
	.resize_cq = fake_resize_cq,
};

/* Queue @n good completions for @cqe, numbered @seq on in byte_len. */
static void fake_cq_push(struct ib_cq *ibcq, struct ib_cqe *cqe,
			 unsigned int n, u32 seq)
{
	struct fake_cq *fcq = to_fcq(ibcq);
	unsigned long flags;
	unsigned int slot;

	spin_lock_irqsave(&fcq->lock, flags);
	for (; n && fcq->count < FAKE_RING; n--, seq++) {
		slot = (fcq->head + fcq->count) % FAKE_RING;
		fcq->ring[slot] = (struct ib_wc) {
			.wr_cqe = cqe,
			.status = IB_WC_SUCCESS,
			.byte_len = seq,
		};
		fcq->count++;
	}
	spin_unlock_irqrestore(&fcq->lock, flags);
}

/*
 * Signal a completion event as an interrupt handler would, once per
 * arming. With @bh the handler runs as in a hard interrupt and softirq
 * work runs on return; without, the softirq is left to ksoftirqd.
 */
static void fake_cq_event(struct ib_cq *ibcq, bool bh)
{
	struct fake_cq *fcq = to_fcq(ibcq);
	unsigned long flags;
	bool fire;

	spin_lock_irqsave(&fcq->lock, flags);
	fire = fcq->armed;
	fcq->armed = false;
	spin_unlock_irqrestore(&fcq->lock, flags);
	if (!fire)
		return;
	if (bh)
		local_bh_disable();
	ibcq->comp_handler(ibcq, ibcq->cq_context);
	if (bh)
		local_bh_enable();
}

/* A consistent copy of @ibcq's statistics. */
static struct fake_cq_stats fake_cq_stats(struct ib_cq *ibcq)
{
	struct fake_cq *fcq = to_fcq(ibcq);
	struct fake_cq_stats stats;
	unsigned long flags;

	spin_lock_irqsave(&fcq->lock, flags);
	stats = fcq->stats;
	spin_unlock_irqrestore(&fcq->lock, flags);
	return stats;
}

/*
 * Wait for the @nr-th req_notify_cq call on @ibcq: the poller's last
 * re-arm, after which it leaves the CQ alone.
 */
static bool fake_cq_wait_arms(struct ib_cq *ibcq, unsigned int nr)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	while (fake_cq_stats(ibcq).arms < nr) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

/* A fake device with the CQ verbs, plus the optional ones if @extra. */
static struct fake_dev *fake_dev_new(bool cq_verbs, bool extra)
{
	struct fake_dev *fdev = ib_alloc_device(fake_dev, ibdev);

	if (!fdev)
		return NULL;
	if (cq_verbs)
		ib_set_device_ops(&fdev->ibdev, &fake_cq_ops);
	if (extra)
		ib_set_device_ops(&fdev->ibdev, &fake_extra_ops);
	fdev->ibdev.num_comp_vectors = FAKE_VECTORS;
	fdev->ibdev.attrs.max_cqe = FAKE_MAX_CQE;
	fdev->creates_left = -1;
	atomic_set(&fdev->live_cqs, 0);
	return fdev;
}

static void fake_dev_free(struct fake_dev *fdev)
{
	if (!fdev)
		return;
	ib_cq_pool_cleanup(&fdev->ibdev);
	ib_dealloc_device(&fdev->ibdev);
}

/* ---- Fixture ------------------------------------------------------------- */

/**
 * struct cq_test - per-case state
 * @fdev: a device with all CQ verbs
 * @other: a second device a case may set up, freed with @fdev
 */
struct cq_test {
	struct fake_dev *fdev;
	struct fake_dev *other;
};

static int cq_test_init(struct kunit *test)
{
	struct cq_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->fdev = fake_dev_new(true, true);
	KUNIT_ASSERT_NOT_NULL(test, t->fdev);
	test->priv = t;
	return 0;
}

static void cq_test_exit(struct kunit *test)
{
	struct cq_test *t = test->priv;

	fake_dev_free(t->other);
	fake_dev_free(t->fdev);
}

static struct fake_dev *test_fdev(struct kunit *test)
{
	return ((struct cq_test *)test->priv)->fdev;
}

/* Set up the case's second device. */
static struct fake_dev *test_other(struct kunit *test, bool cq_verbs,
				   bool extra)
{
	struct cq_test *t = test->priv;

	t->other = fake_dev_new(cq_verbs, extra);
	KUNIT_ASSERT_NOT_NULL(test, t->other);
	return t->other;
}

/**
 * struct sink - the ULP side: receives completions through done()
 * @cqe: what the fake's completions point to
 * @cq: the CQ every completion must come from
 * @want: completions after which @all_seen completes
 * @seen: completions received
 * @faults: completions from another CQ, out of order or not successful
 * @all_seen: completed when @want were received
 * @chain: completions the first done() call queues itself, numbered from
 *	@chain_seq, as if a new one had arrived while polling
 * @chain_seq: first byte_len of the chained completions
 */
struct sink {
	struct ib_cqe cqe;
	struct ib_cq *cq;
	int want;
	atomic_t seen;
	atomic_t faults;
	struct completion all_seen;
	unsigned int chain;
	u32 chain_seq;
};

static void sink_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct sink *s = container_of(wc->wr_cqe, struct sink, cqe);
	int nr = atomic_read(&s->seen);

	if (cq != s->cq || wc->byte_len != nr || wc->status != IB_WC_SUCCESS)
		atomic_inc(&s->faults);
	if (!nr && s->chain)
		fake_cq_push(cq, &s->cqe, s->chain, s->chain_seq);
	if (atomic_inc_return(&s->seen) == s->want)
		complete(&s->all_seen);
}

static void sink_init(struct sink *s, struct ib_cq *cq, int want)
{
	*s = (struct sink) { .cqe.done = sink_done, .cq = cq, .want = want };
	atomic_set(&s->seen, 0);
	atomic_set(&s->faults, 0);
	init_completion(&s->all_seen);
}

static bool sink_wait(struct sink *s)
{
	return wait_for_completion_timeout(&s->all_seen,
					   msecs_to_jiffies(WAIT_MS));
}

/* ---- Poll contexts as case parameters ------------------------------------ */

static const enum ib_poll_context pollers[] = {
	IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE, IB_POLL_UNBOUND_WORKQUEUE,
};

static const char *const poller_names[] = {
	[IB_POLL_SOFTIRQ] = "softirq",
	[IB_POLL_WORKQUEUE] = "workqueue",
	[IB_POLL_UNBOUND_WORKQUEUE] = "unbound_workqueue",
};

static void poller_desc(const enum ib_poll_context *ctx, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", poller_names[*ctx]);
}

KUNIT_ARRAY_PARAM(poller, pollers, poller_desc);

static enum ib_poll_context test_poller(struct kunit *test)
{
	return *(const enum ib_poll_context *)test->param_value;
}

/* An ib_alloc_cq() CQ on vector 0 that must exist for the case to go on. */
static struct ib_cq *alloc_cq(struct kunit *test, struct fake_dev *fdev,
			      enum ib_poll_context ctx)
{
	struct ib_cq *cq = ib_alloc_cq(&fdev->ibdev, NULL, 64, 0, ctx);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	return cq;
}

/* ---- Direct CQs ---------------------------------------------------------- */

static void direct_delivers_test(struct kunit *test)
{
	struct ib_cq *cq = alloc_cq(test, test_fdev(test), IB_POLL_DIRECT);
	struct sink s;

	sink_init(&s, cq, 3);
	/* nobody polls a direct CQ for us, so it is never armed */
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arms, 0);
	KUNIT_EXPECT_EQ(test, cq->poll_ctx, IB_POLL_DIRECT);

	fake_cq_push(cq, &s.cqe, 3, 0);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(cq, 16), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.seen), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.faults), 0);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(cq, 16), 0);
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arms, 0);
	ib_free_cq(cq);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_fdev(test)->live_cqs), 0);
}

static void direct_budget_test(struct kunit *test)
{
	struct ib_cq *cq = alloc_cq(test, test_fdev(test), IB_POLL_DIRECT);
	struct sink s;

	sink_init(&s, cq, 20);
	fake_cq_push(cq, &s.cqe, 20, 0);

	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(cq, 5), 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.seen), 5);
	/* the driver is never asked for more than the budget left */
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).max_poll, 5);

	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(cq, 8), 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.seen), 13);

	/* -1: everything, in batches of BATCH_DIRECT */
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(cq, -1), 7);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.seen), 20);
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).max_poll, BATCH_DIRECT);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.faults), 0);
	ib_free_cq(cq);
}

/* ---- Softirq and workqueue CQs ------------------------------------------- */

static void poller_delivers_test(struct kunit *test)
{
	struct ib_cq *cq = alloc_cq(test, test_fdev(test), test_poller(test));
	struct sink s;

	/* armed once for the first completion, before any was polled */
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arms, 1);
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arm_flags, IB_CQ_NEXT_COMP);

	sink_init(&s, cq, 5);
	fake_cq_push(cq, &s.cqe, 5, 0);
	fake_cq_event(cq, true);
	KUNIT_ASSERT_TRUE(test, sink_wait(&s));
	KUNIT_ASSERT_TRUE(test, fake_cq_wait_arms(cq, 2));
	KUNIT_EXPECT_EQ(test, atomic_read(&s.seen), 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.faults), 0);
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arms, 2);
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arm_flags, REARM);
	ib_free_cq(cq);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_fdev(test)->live_cqs), 0);
}

/* Bound and unbound CQs each go to one workqueue of the core's. */
static void workqueues_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *bound = alloc_cq(test, fdev, IB_POLL_WORKQUEUE);
	struct ib_cq *unbound = alloc_cq(test, fdev, IB_POLL_UNBOUND_WORKQUEUE);
	struct ib_cq *bound2 = alloc_cq(test, fdev, IB_POLL_WORKQUEUE);

	KUNIT_EXPECT_NOT_NULL(test, bound->comp_wq);
	KUNIT_EXPECT_NOT_NULL(test, unbound->comp_wq);
	KUNIT_EXPECT_PTR_NE(test, bound->comp_wq, unbound->comp_wq);
	KUNIT_EXPECT_PTR_EQ(test, bound->comp_wq, bound2->comp_wq);
	ib_free_cq(bound2);
	ib_free_cq(unbound);
	ib_free_cq(bound);
}

/*
 * More completions than the softirq budget: the poller keeps going
 * without a new event and re-arms only once the CQ is empty.
 */
static void poller_over_budget_test(struct kunit *test)
{
	struct ib_cq *cq = alloc_cq(test, test_fdev(test), test_poller(test));
	struct sink s;

	sink_init(&s, cq, 300);
	fake_cq_push(cq, &s.cqe, 300, 0);
	fake_cq_event(cq, true);
	KUNIT_ASSERT_TRUE(test, sink_wait(&s));
	KUNIT_ASSERT_TRUE(test, fake_cq_wait_arms(cq, 2));
	KUNIT_EXPECT_EQ(test, atomic_read(&s.faults), 0);
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arms, 2);
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).max_poll, BATCH);
	ib_free_cq(cq);
}

/*
 * A completion arriving after the last poll but before re-arming raises no
 * event; the re-arm reports it missed and the poller must run again.
 */
static void poller_missed_event_test(struct kunit *test)
{
	struct ib_cq *cq = alloc_cq(test, test_fdev(test), test_poller(test));
	struct sink s;

	sink_init(&s, cq, 4);
	s.chain = 1;
	s.chain_seq = 3;
	fake_cq_push(cq, &s.cqe, 3, 0);
	fake_cq_event(cq, true);
	KUNIT_ASSERT_TRUE(test, sink_wait(&s));
	KUNIT_ASSERT_TRUE(test, fake_cq_wait_arms(cq, 3));
	KUNIT_EXPECT_EQ(test, atomic_read(&s.faults), 0);
	/* initial arm, the re-arm that reported the miss, the final one */
	KUNIT_EXPECT_EQ(test, fake_cq_stats(cq).arms, 3);
	ib_free_cq(cq);
}

/* ib_free_cq() right after an event: the pending poll is cancelled or waited for. */
static void free_while_pending_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq = alloc_cq(test, fdev, test_poller(test));
	struct sink s;
	int seen;

	sink_init(&s, cq, 200);
	fake_cq_push(cq, &s.cqe, 200, 0);
	fake_cq_event(cq, false);
	ib_free_cq(cq);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);

	seen = atomic_read(&s.seen);
	KUNIT_EXPECT_LE(test, seen, 200);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.faults), 0);
	/* nothing may run after ib_free_cq() returned */
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.seen), seen);
}

/* ---- Allocation errors and vectors --------------------------------------- */

static void alloc_driver_error_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq_init_attr attr = { .cqe = 8 };
	struct ib_cq *cq;

	fdev->creates_left = 0;
	fdev->create_err = -ENOSPC;
	cq = ib_alloc_cq(&fdev->ibdev, NULL, 8, 0, IB_POLL_WORKQUEUE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -ENOSPC);
	cq = ib_create_cq(&fdev->ibdev, NULL, NULL, NULL, &attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
}

static void alloc_bad_poll_ctx_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq;

	cq = ib_alloc_cq(&fdev->ibdev, NULL, 8, 0, IB_POLL_DIRECT + 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
}

/* A device without CQ verbs, or without the optional ones. */
static void missing_ops_test(struct kunit *test)
{
	struct ib_cq_init_attr attr = { .cqe = 8 };
	struct fake_dev *bare = test_other(test, false, false);
	struct ib_cq *cq;

	cq = ib_alloc_cq(&bare->ibdev, NULL, 8, 0, IB_POLL_DIRECT);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EOPNOTSUPP);
	cq = ib_create_cq(&bare->ibdev, NULL, NULL, NULL, &attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EOPNOTSUPP);
	fake_dev_free(bare);
	((struct cq_test *)test->priv)->other = NULL;

	bare = test_other(test, true, false);
	cq = ib_create_cq(&bare->ibdev, NULL, NULL, NULL, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 16), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(cq, 1, 1), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&bare->live_cqs), 0);
}

static void alloc_any_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	unsigned int nr = min_t(unsigned int, 4, num_online_cpus());
	struct ib_cq *cqs[8];
	bool spread = false;
	unsigned int i;

	fdev->ibdev.num_comp_vectors = 4;
	for (i = 0; i < ARRAY_SIZE(cqs); i++) {
		cqs[i] = ib_alloc_cq_any(&fdev->ibdev, NULL, 8, IB_POLL_DIRECT);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cqs[i]);
		KUNIT_EXPECT_LT(test, cqs[i]->comp_vector, nr);
		spread |= cqs[i]->comp_vector != cqs[0]->comp_vector;
	}
	KUNIT_EXPECT_EQ(test, spread, nr > 1);
	for (i = 0; i < ARRAY_SIZE(cqs); i++)
		ib_free_cq(cqs[i]);

	/* one vector: always that one */
	fdev->ibdev.num_comp_vectors = 1;
	cqs[0] = ib_alloc_cq_any(&fdev->ibdev, NULL, 8, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cqs[0]);
	KUNIT_EXPECT_EQ(test, cqs[0]->comp_vector, 0);
	ib_free_cq(cqs[0]);
}

static void dim_test(struct kunit *test)
{
	struct fake_dev *plain = test_other(test, true, false);
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq;

	fdev->ibdev.use_cq_dim = 1;
	cq = alloc_cq(test, fdev, IB_POLL_WORKQUEUE);
	KUNIT_EXPECT_NOT_NULL(test, cq->dim);
	ib_free_cq(cq);
	cq = alloc_cq(test, fdev, IB_POLL_DIRECT);
	KUNIT_EXPECT_NULL(test, cq->dim);
	ib_free_cq(cq);

	/* no modify_cq, no moderation */
	plain->ibdev.use_cq_dim = 1;
	cq = alloc_cq(test, plain, IB_POLL_SOFTIRQ);
	KUNIT_EXPECT_NULL(test, cq->dim);
	ib_free_cq(cq);
}

/* ---- Raw CQs ------------------------------------------------------------- */

static void raw_comp_handler(struct ib_cq *cq, void *context)
{
	complete(context);
}

static void raw_cq_test(struct kunit *test)
{
	struct ib_cq_init_attr attr = { .cqe = 32, .comp_vector = 1 };
	struct fake_dev *fdev = test_fdev(test);
	struct completion event;
	struct ib_cq *cq;

	init_completion(&event);
	cq = ib_create_cq(&fdev->ibdev, raw_comp_handler, NULL, &event, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_EQ(test, cq->cqe, 32);
	KUNIT_EXPECT_FALSE(test, cq->shared);

	/* the user arms; the event goes straight to its handler */
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	fake_cq_event(cq, true);
	KUNIT_EXPECT_TRUE(test, completion_done(&event));

	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 77), 0);
	KUNIT_EXPECT_EQ(test, fdev->resize_cqe, 77);
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(cq, 3, 9), 0);
	KUNIT_EXPECT_EQ(test, fdev->mod_count, 3);
	KUNIT_EXPECT_EQ(test, fdev->mod_period, 9);

	atomic_inc(&cq->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), -EBUSY);
	atomic_dec(&cq->usecnt);
	fdev->destroy_err = -EIO;
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 1);
	fdev->destroy_err = 0;
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
}

/* ---- The shared pool ----------------------------------------------------- */

static unsigned int pool_vectors(void)
{
	return min_t(unsigned int, FAKE_VECTORS, num_online_cpus());
}

static bool pools_empty(struct fake_dev *fdev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fdev->ibdev.cq_pools); i++)
		if (!list_empty(&fdev->ibdev.cq_pools[i]))
			return false;
	return true;
}

static void pool_get_put_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq, *again;

	KUNIT_ASSERT_TRUE(test, pools_empty(fdev));
	cq = ib_cq_pool_get(&fdev->ibdev, 100, 0, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_TRUE(test, cq->shared);
	KUNIT_EXPECT_EQ(test, cq->poll_ctx, IB_POLL_WORKQUEUE);
	KUNIT_EXPECT_EQ(test, cq->comp_vector, 0);
	KUNIT_EXPECT_EQ(test, cq->cqe, POOL_MIN_CQE);
	KUNIT_EXPECT_EQ(test, cq->cqe_used, 100);
	/* one CQ per usable vector */
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), pool_vectors());

	again = ib_cq_pool_get(&fdev->ibdev, 100, 0, IB_POLL_WORKQUEUE);
	KUNIT_EXPECT_PTR_EQ(test, again, cq);
	KUNIT_EXPECT_EQ(test, cq->cqe_used, 200);

	/* a shared CQ is not its users' to change */
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 8), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(cq, 1, 1), -EOPNOTSUPP);

	ib_cq_pool_put(cq, 100);
	ib_cq_pool_put(cq, 100);
	KUNIT_EXPECT_EQ(test, cq->cqe_used, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), pool_vectors());

	ib_cq_pool_cleanup(&fdev->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
	KUNIT_EXPECT_TRUE(test, pools_empty(fdev));
}

static void pool_grow_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *full, *next;

	full = ib_cq_pool_get(&fdev->ibdev, 4000, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, full);
	next = ib_cq_pool_get(&fdev->ibdev, 200, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, next);
	KUNIT_EXPECT_PTR_NE(test, next, full);
	KUNIT_EXPECT_EQ(test, next->comp_vector, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs),
			2 * pool_vectors());
	ib_cq_pool_put(full, 4000);
	ib_cq_pool_put(next, 200);
}

static void pool_sizes_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq;
	int live;

	/* bigger than the minimum: exactly what was asked */
	cq = ib_cq_pool_get(&fdev->ibdev, 6000, 0, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_EQ(test, cq->cqe, 6000);
	ib_cq_pool_put(cq, 6000);
	live = atomic_read(&fdev->live_cqs);

	/* more than the device's CQs hold: an error, not an endless loop */
	cq = ib_cq_pool_get(&fdev->ibdev, FAKE_MAX_CQE + 1, 0,
			    IB_POLL_WORKQUEUE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), live);

	/* a device limit below the minimum caps the pool's CQs */
	fdev->ibdev.attrs.max_cqe = 1000;
	cq = ib_cq_pool_get(&fdev->ibdev, 10, 0, IB_POLL_UNBOUND_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_EQ(test, cq->cqe, 1000);
	ib_cq_pool_put(cq, 10);
}

static void pool_vector_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	unsigned int nr = pool_vectors();
	struct ib_cq *a, *b;

	/* hints beyond the vectors wrap around */
	a = ib_cq_pool_get(&fdev->ibdev, 1, nr + 1, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->comp_vector, (nr + 1) % nr);
	ib_cq_pool_put(a, 1);

	/* no hint: successive calls go round the vectors */
	a = ib_cq_pool_get(&fdev->ibdev, 1, -1, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = ib_cq_pool_get(&fdev->ibdev, 1, -1, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_LT(test, a->comp_vector, nr);
	KUNIT_EXPECT_LT(test, b->comp_vector, nr);
	KUNIT_EXPECT_EQ(test, b->comp_vector, (a->comp_vector + 1) % nr);
	ib_cq_pool_put(a, 1);
	ib_cq_pool_put(b, 1);
}

static void pool_no_vectors_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq;

	fdev->ibdev.num_comp_vectors = 0;
	cq = ib_cq_pool_get(&fdev->ibdev, 16, -1, IB_POLL_SOFTIRQ);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
	KUNIT_EXPECT_TRUE(test, pools_empty(fdev));
}

/* A failed CQ creation while growing frees the CQs already made. */
static void pool_grow_error_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq;

	fdev->creates_left = 0;
	fdev->create_err = -ENOSPC;
	cq = ib_cq_pool_get(&fdev->ibdev, 16, 0, IB_POLL_WORKQUEUE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
	KUNIT_EXPECT_TRUE(test, pools_empty(fdev));

	if (pool_vectors() < 2)
		kunit_skip(test, "needs two online CPUs for a partial failure");
	fdev->creates_left = 1;
	cq = ib_cq_pool_get(&fdev->ibdev, 16, 0, IB_POLL_WORKQUEUE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
	KUNIT_EXPECT_TRUE(test, pools_empty(fdev));
}

/* Pool CQs are ordinary polled CQs underneath. */
static void pool_delivers_test(struct kunit *test)
{
	enum ib_poll_context ctx = test_poller(test);
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq;
	struct sink s;

	cq = ib_cq_pool_get(&fdev->ibdev, 8, 0, ctx);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_EQ(test, cq->poll_ctx, ctx);
	sink_init(&s, cq, 10);
	fake_cq_push(cq, &s.cqe, 10, 0);
	fake_cq_event(cq, true);
	KUNIT_EXPECT_TRUE(test, sink_wait(&s));
	KUNIT_EXPECT_EQ(test, atomic_read(&s.faults), 0);
	ib_cq_pool_put(cq, 8);
}

static void pool_cleanup_test(struct kunit *test)
{
	struct fake_dev *fdev = test_fdev(test);
	struct ib_cq *cq;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pollers); i++) {
		cq = ib_cq_pool_get(&fdev->ibdev, 32, i, pollers[i]);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
		ib_cq_pool_put(cq, 32);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs),
			ARRAY_SIZE(pollers) * pool_vectors());
	ib_cq_pool_cleanup(&fdev->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&fdev->live_cqs), 0);
	KUNIT_EXPECT_TRUE(test, pools_empty(fdev));
}

static struct kunit_case ib_core_cq_cases[] = {
	KUNIT_CASE(direct_delivers_test),
	KUNIT_CASE(direct_budget_test),
	KUNIT_CASE_PARAM(poller_delivers_test, poller_gen_params),
	KUNIT_CASE(workqueues_test),
	KUNIT_CASE_PARAM(poller_over_budget_test, poller_gen_params),
	KUNIT_CASE_PARAM(poller_missed_event_test, poller_gen_params),
	KUNIT_CASE_PARAM(free_while_pending_test, poller_gen_params),
	KUNIT_CASE(alloc_driver_error_test),
	KUNIT_CASE(alloc_bad_poll_ctx_test),
	KUNIT_CASE(missing_ops_test),
	KUNIT_CASE(alloc_any_test),
	KUNIT_CASE(dim_test),
	KUNIT_CASE(raw_cq_test),
	KUNIT_CASE(pool_get_put_test),
	KUNIT_CASE(pool_grow_test),
	KUNIT_CASE(pool_sizes_test),
	KUNIT_CASE(pool_vector_test),
	KUNIT_CASE(pool_no_vectors_test),
	KUNIT_CASE(pool_grow_error_test),
	KUNIT_CASE_PARAM(pool_delivers_test, poller_gen_params),
	KUNIT_CASE(pool_cleanup_test),
	{}
};

static struct kunit_suite ib_core_cq_suite = {
	.name = "ib_core_cq",
	.init = cq_test_init,
	.exit = cq_test_exit,
	.test_cases = ib_core_cq_cases,
};

kunit_test_suite(ib_core_cq_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core completion queues and CQ pool");
MODULE_LICENSE("GPL");
