// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_drain: ib_drain_sq/rq/qp() of core/verbs/drain.c with
 * each CQ poll context.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

/**
 * struct drain_test - per-case state
 * @mdev: the device
 * @pd: a PD on it
 * @cq: the CQ of both queues of @qp
 * @srq: an SRQ of @qp, if the case made one
 * @qp: the QP being drained
 */
struct drain_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_srq *srq;
	struct ib_qp *qp;
};

static int drain_test_init(struct kunit *test)
{
	struct drain_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	return 0;
}

static void drain_test_exit(struct kunit *test)
{
	struct drain_test *t = test->priv;

	if (!t)
		return;
	if (!IS_ERR_OR_NULL(t->qp))
		ib_destroy_qp(t->qp);
	if (!IS_ERR_OR_NULL(t->srq))
		ib_destroy_srq_user(t->srq, NULL);
	/* a failed case may have left a QP on it: leak rather than warn */
	if (!IS_ERR_OR_NULL(t->cq) && !atomic_read(&t->cq->usecnt))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

/*
 * Set up a device as @cfg says, a CQ polled in @ctx and an RC QP on it in
 * RTS, with an SRQ if @with_srq.
 */
static struct drain_test *drain_setup(struct kunit *test,
				      const struct mock_ibdev_cfg *cfg,
				      enum ib_poll_context ctx, bool with_srq)
{
	struct ib_srq_init_attr sattr = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ib_qp_attr rts = { .qp_state = IB_QPS_RTS };
	struct ib_qp_init_attr attr = {
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IB_QPT_RC,
		.port_num = 1,
	};
	struct drain_test *t = test->priv;

	t->mdev = mock_ibdev_create(cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cq = ib_alloc_cq(&t->mdev->ibdev, NULL, 32, 0, ctx);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cq);
	if (with_srq) {
		t->srq = ib_create_srq(t->pd, &sattr);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->srq);
	}
	attr.send_cq = t->cq;
	attr.recv_cq = t->cq;
	attr.srq = t->srq;
	t->qp = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->qp);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(t->qp, &rts, IB_QP_STATE), 0);
	return t;
}

/**
 * struct sink - the ULP: counts its completions by outcome
 * @cqe: what its work requests carry
 * @ok: completed successfully
 * @flushed: flushed by the drain
 */
struct sink {
	struct ib_cqe cqe;
	atomic_t ok;
	atomic_t flushed;
};

static void sink_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct sink *s = container_of(wc->wr_cqe, struct sink, cqe);

	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&s->ok);
	else if (wc->status == IB_WC_WR_FLUSH_ERR)
		atomic_inc(&s->flushed);
}

static void sink_init(struct sink *s)
{
	s->cqe.done = sink_done;
	atomic_set(&s->ok, 0);
	atomic_set(&s->flushed, 0);
}

/* Post @n sends (as one chain) and @n receives (one by one) for @s. */
static void post_work(struct kunit *test, struct ib_qp *qp, struct sink *s,
		      int nsend, int nrecv)
{
	struct ib_send_wr swr[4] = {};
	struct ib_recv_wr rwr = { .wr_cqe = &s->cqe };
	int i;

	for (i = 0; i < nsend; i++) {
		swr[i].wr_cqe = &s->cqe;
		swr[i].opcode = IB_WR_SEND;
		swr[i].next = i + 1 < nsend ? &swr[i + 1] : NULL;
	}
	if (nsend)
		KUNIT_ASSERT_EQ(test, ib_post_send(qp, swr, NULL), 0);
	for (i = 0; i < nrecv; i++)
		KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &rwr, NULL), 0);
}

/* ---- Poll contexts as case parameters ------------------------------------ */

static const enum ib_poll_context contexts[] = {
	IB_POLL_DIRECT, IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
};

static const char *const context_names[] = {
	[IB_POLL_DIRECT] = "direct",
	[IB_POLL_SOFTIRQ] = "softirq",
	[IB_POLL_WORKQUEUE] = "workqueue",
	[IB_POLL_UNBOUND_WORKQUEUE] = "unbound_workqueue",
};

static void context_desc(const enum ib_poll_context *ctx, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", context_names[*ctx]);
}

KUNIT_ARRAY_PARAM(context, contexts, context_desc);

static enum ib_poll_context test_context(struct kunit *test)
{
	return *(const enum ib_poll_context *)test->param_value;
}

static const struct mock_ibdev_cfg plain_cfg = { .nports = 1 };

/* ---- The generic drain --------------------------------------------------- */

/*
 * Three sends, one of them completed: when the drain returns, the ULP has
 * seen that one and the two the drain flushed.
 */
static void drain_sq_test(struct kunit *test)
{
	struct drain_test *t = drain_setup(test, &plain_cfg,
					   test_context(test), false);
	struct sink s;

	sink_init(&s);
	post_work(test, t->qp, &s, 3, 0);
	KUNIT_ASSERT_EQ(test, mock_ibdev_qp_complete_send(t->qp, 1), 1);

	ib_drain_sq(t->qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.ok), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.flushed), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_ERR);
	/* ours and the drain's marker */
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_RECV), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_cq_pending(t->cq), 0);
}

static void drain_rq_test(struct kunit *test)
{
	struct drain_test *t = drain_setup(test, &plain_cfg,
					   test_context(test), false);
	struct sink s;

	sink_init(&s);
	post_work(test, t->qp, &s, 0, 2);
	ib_drain_rq(t->qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.flushed), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_RECV), 3);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_cq_pending(t->cq), 0);
}

static void drain_qp_test(struct kunit *test)
{
	struct drain_test *t = drain_setup(test, &plain_cfg,
					   test_context(test), false);
	struct sink s;

	sink_init(&s);
	post_work(test, t->qp, &s, 2, 2);
	ib_drain_qp(t->qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.ok), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.flushed), 4);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_RECV), 3);
	KUNIT_EXPECT_EQ(test, mock_ibdev_cq_pending(t->cq), 0);
}

/* A QP on an SRQ has no receive queue of its own to drain. */
static void drain_qp_srq_test(struct kunit *test)
{
	struct drain_test *t = drain_setup(test, &plain_cfg,
					   IB_POLL_WORKQUEUE, true);
	struct sink s;

	sink_init(&s);
	post_work(test, t->qp, &s, 1, 0);
	ib_drain_qp(t->qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.flushed), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_RECV), 0);
}

/* ---- A driver that drains by itself -------------------------------------- */

static void driver_drain_test(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1, .driver_drain = true };
	struct drain_test *t = drain_setup(test, &cfg, IB_POLL_DIRECT, false);
	int modifies = mock_ibdev_calls(t->mdev, MOCK_MODIFY_QP);

	ib_drain_qp(t->qp);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DRAIN_SQ), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DRAIN_RQ), 1);
	/* the core neither modified the QP nor posted a marker */
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_MODIFY_QP),
			modifies);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_RTS);

	ib_drain_sq(t->qp);
	ib_drain_rq(t->qp);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DRAIN_SQ), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DRAIN_RQ), 2);
}

static struct kunit_case ib_core_drain_cases[] = {
	KUNIT_CASE_PARAM(drain_sq_test, context_gen_params),
	KUNIT_CASE_PARAM(drain_rq_test, context_gen_params),
	KUNIT_CASE_PARAM(drain_qp_test, context_gen_params),
	KUNIT_CASE(drain_qp_srq_test),
	KUNIT_CASE(driver_drain_test),
	{}
};

static struct kunit_suite ib_core_drain_suite = {
	.name = "ib_core_drain",
	.init = drain_test_init,
	.exit = drain_test_exit,
	.test_cases = ib_core_drain_cases,
};

kunit_test_suite(ib_core_drain_suite);

MODULE_DESCRIPTION("KUnit tests for draining ib_core queue pairs");
MODULE_LICENSE("GPL");
