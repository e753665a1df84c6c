// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_qp: QP creation, modify, query and destruction of core/verbs/qp.c. */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

/* The mock device of every case: port 1 InfiniBand, port 2 RoCE. */
#define IB_PORT		1
#define ROCE_PORT	2
#define MAX_SGE_RD	2

/**
 * struct qp_test - per-case state
 * @mdev: the device
 * @pd: a PD on it
 * @scq: a send CQ
 * @rcq: a receive CQ
 * @event_ctx: what the QPs' event handler is registered with
 */
struct qp_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *scq;
	struct ib_cq *rcq;
	int event_ctx;
};

static void qp_event(struct ib_event *event, void *context)
{
}

static int qp_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 2, .roce_port = ROCE_PORT };
	struct qp_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->mdev->ibdev.attrs.max_sge_rd = MAX_SGE_RD;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->scq = ib_alloc_cq(&t->mdev->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->scq);
	t->rcq = ib_alloc_cq(&t->mdev->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->rcq);
	return 0;
}

static void qp_test_exit(struct kunit *test)
{
	struct qp_test *t = test->priv;

	if (!t)
		return;
	/* a failed case may have left a QP on it: leak rather than warn */
	if (!IS_ERR_OR_NULL(t->rcq) && !atomic_read(&t->rcq->usecnt))
		ib_free_cq(t->rcq);
	if (!IS_ERR_OR_NULL(t->scq) && !atomic_read(&t->scq->usecnt))
		ib_free_cq(t->scq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

static struct qp_test *tst(struct kunit *test)
{
	return test->priv;
}

/* Creation attributes of an RC QP on the case's CQs. */
static struct ib_qp_init_attr rc_attr(struct qp_test *t)
{
	return (struct ib_qp_init_attr) {
		.event_handler = qp_event,
		.qp_context = &t->event_ctx,
		.send_cq = t->scq,
		.recv_cq = t->rcq,
		.cap = {
			.max_send_wr = 8, .max_recv_wr = 8,
			.max_send_sge = 4, .max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
		.port_num = IB_PORT,
	};
}

static struct ib_qp *new_rc_qp(struct kunit *test)
{
	struct ib_qp_init_attr attr = rc_attr(tst(test));
	struct ib_qp *qp = ib_create_qp(tst(test)->pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	return qp;
}

/* No QP left: not at the driver, not in any usecnt. */
static void expect_no_qp(struct kunit *test)
{
	struct qp_test *t = tst(test);

	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_QP), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->scq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->rcq->usecnt), 0);
}

/* ---- Creation ------------------------------------------------------------ */

static void create_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);

	KUNIT_EXPECT_PTR_EQ(test, qp->device, &t->mdev->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, qp->pd, t->pd);
	KUNIT_EXPECT_PTR_EQ(test, qp->send_cq, t->scq);
	KUNIT_EXPECT_PTR_EQ(test, qp->recv_cq, t->rcq);
	KUNIT_EXPECT_NULL(test, qp->srq);
	KUNIT_EXPECT_PTR_EQ(test, qp->real_qp, qp);
	KUNIT_EXPECT_EQ(test, qp->qp_type, IB_QPT_RC);
	KUNIT_EXPECT_PTR_EQ(test, qp->qp_context, (void *)&t->event_ctx);
	KUNIT_EXPECT_TRUE(test, qp->event_handler == qp_event);
	KUNIT_EXPECT_EQ(test, qp->port, IB_PORT);
	KUNIT_EXPECT_NULL(test, qp->uobject);
	KUNIT_EXPECT_GE(test, qp->qp_num, 2U);
	KUNIT_EXPECT_EQ(test, qp->max_write_sge, 4U);
	KUNIT_EXPECT_EQ(test, qp->max_read_sge, MAX_SGE_RD);
	KUNIT_EXPECT_FALSE(test, qp->integrity_en);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp->usecnt), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&qp->rdma_mrs));
	KUNIT_EXPECT_TRUE(test, list_empty(&qp->sig_mrs));

	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->scq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->rcq->usecnt), 1);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	expect_no_qp(test);
}

/* One CQ for both queues counts twice; read SGEs stay within the limit. */
static void create_shared_cq_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp_init_attr attr = rc_attr(t);
	struct ib_qp *qp;

	attr.recv_cq = t->scq;
	attr.cap.max_send_sge = 1;
	attr.create_flags = IB_QP_CREATE_INTEGRITY_EN;
	qp = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->scq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, qp->max_read_sge, 1U);
	KUNIT_EXPECT_TRUE(test, qp->integrity_en);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	expect_no_qp(test);
}

static void create_with_srq_test(struct kunit *test)
{
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct qp_test *t = tst(test);
	struct ib_qp_init_attr attr = rc_attr(t);
	struct ib_srq *srq;
	struct ib_qp *qp;

	srq = ib_create_srq(t->pd, &sattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	attr.srq = srq;
	qp = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_PTR_EQ(test, qp->srq, srq);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), -EBUSY);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	expect_no_qp(test);
}

static void create_driver_error_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp_init_attr attr = rc_attr(t);
	struct ib_qp *qp;

	mock_ibdev_fail(t->mdev, MOCK_CREATE_QP, -ENOSPC);
	qp = ib_create_qp(t->pd, &attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(qp), -ENOSPC);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DESTROY_QP), 0);
	expect_no_qp(test);
}

/* rdma_rw contexts grow the send queue before the driver sees it. */
static void create_rdma_ctxs_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp_init_attr attr = rc_attr(t);
	u32 plain = attr.cap.max_send_wr;
	struct ib_qp *qp;

	/* the mock reports no max_qp_wr; rdma_rw caps the queue at it */
	t->mdev->ibdev.attrs.max_qp_wr = 1024;
	attr.cap.max_rdma_ctxs = 4;
	qp = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	/* an IB port needs no MRs for rdma_rw: one WR per context */
	KUNIT_EXPECT_GE(test, attr.cap.max_send_wr, plain + 4);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_MR), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	expect_no_qp(test);
}

static void create_unsupported_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp_init_attr attr = rc_attr(t);
	struct ib_qp *qp;

	t->mdev->ibdev.ops.create_qp = NULL;
	qp = ib_create_qp(t->pd, &attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(qp), -EOPNOTSUPP);
	expect_no_qp(test);
}

/* ---- Destruction --------------------------------------------------------- */

static void destroy_errors_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);

	atomic_inc(&qp->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), -EBUSY);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DESTROY_QP), 0);
	atomic_dec(&qp->usecnt);

	mock_ibdev_fail(t->mdev, MOCK_DESTROY_QP, -EIO);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), -EIO);
	/* still there, still holding its references */
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_QP), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);

	mock_ibdev_fail(t->mdev, MOCK_DESTROY_QP, 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	expect_no_qp(test);
}

/* ---- Modify -------------------------------------------------------------- */

static void modify_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = IB_PORT,
		.qp_access_flags = IB_ACCESS_REMOTE_READ,
	};
	int mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
		   IB_QP_ACCESS_FLAGS;

	attr.xmit_slave = (struct net_device *)&attr;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, mask), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(qp), IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, t->mdev->last.qp_attr_mask, mask);
	KUNIT_EXPECT_NULL(test, attr.xmit_slave);
	KUNIT_EXPECT_EQ(test, qp->port, IB_PORT);

	/* uverbs' entry point behaves the same */
	attr.qp_state = IB_QPS_ERR;
	KUNIT_EXPECT_EQ(test,
			ib_modify_qp_with_udata(qp, &attr, IB_QP_STATE, NULL),
			0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(qp), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

/* A port the device does not have never reaches the driver. */
static void modify_bad_port_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	u32 bad[] = { 0, 3, 255 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		attr.port_num = bad[i];
		KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
						   IB_QP_STATE | IB_QP_PORT),
				-EINVAL);
	}
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_MODIFY_QP), 0);
	KUNIT_EXPECT_EQ(test, qp->port, IB_PORT);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

/* PSNs are cut to 24 bits before the driver sees them. */
static void modify_psn_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = { .rq_psn = 0x1abcdef, .sq_psn = 0xff000001 };

	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
					   IB_QP_RQ_PSN | IB_QP_SQ_PSN), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.qp_attr.rq_psn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, t->mdev->last.qp_attr.sq_psn, 1U);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, 0xabcdefU);

	/* PSNs that fit are left alone */
	attr.rq_psn = 0xffffff;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_RQ_PSN), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.qp_attr.rq_psn, 0xffffffU);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

static struct rdma_ah_attr ib_av(u32 port)
{
	struct rdma_ah_attr av = {
		.type = RDMA_AH_ATTR_TYPE_IB,
		.port_num = port,
		.sl = 3,
	};

	av.ib.dlid = 0x21;
	return av;
}

/* An InfiniBand address vector is passed through to the driver. */
static void modify_av_ib_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };

	attr.ah_attr = ib_av(IB_PORT);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
					   IB_QP_STATE | IB_QP_AV), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.qp_attr.ah_attr.ib.dlid, 0x21);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(qp), IB_QPS_RTR);

	/* and so is an alternate path where both paths are InfiniBand */
	attr.alt_ah_attr = ib_av(IB_PORT);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_ALT_PATH), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

/* A RoCE address vector on a GID entry the port does not have (empty). */
static void modify_av_roce_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = {};

	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	attr.ah_attr.port_num = ROCE_PORT;
	attr.ah_attr.ah_flags = IB_AH_GRH;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_AV), -ENODATA);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_MODIFY_QP), 0);
	KUNIT_EXPECT_NULL(test, qp->av_sgid_attr);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

/* Address vectors the device cannot have. */
static void modify_av_invalid_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = {};

	attr.ah_attr = ib_av(0);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_AV), -EINVAL);
	attr.ah_attr = ib_av(3);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_AV), -EINVAL);
	/* RoCE needs a GRH */
	attr.ah_attr = ib_av(ROCE_PORT);
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_AV), -EINVAL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_MODIFY_QP), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

/* Alternate paths are for InfiniBand only, on both ends of the change. */
static void modify_alt_path_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = {};

	attr.alt_ah_attr = ib_av(ROCE_PORT);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_ALT_PATH),
			-EINVAL);
	/* the QP itself moving to the RoCE port */
	attr.alt_ah_attr = ib_av(IB_PORT);
	attr.port_num = ROCE_PORT;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
					   IB_QP_ALT_PATH | IB_QP_PORT),
			-EINVAL);
	attr.alt_ah_attr = ib_av(0);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_ALT_PATH),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_MODIFY_QP), 0);
	KUNIT_EXPECT_EQ(test, qp->port, IB_PORT);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

/* A failed modify changes nothing the core keeps. */
static void modify_driver_error_test(struct kunit *test)
{
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT,
				   .port_num = ROCE_PORT };

	mock_ibdev_fail(t->mdev, MOCK_MODIFY_QP, -EIO);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
					   IB_QP_STATE | IB_QP_PORT), -EIO);
	KUNIT_EXPECT_EQ(test, qp->port, IB_PORT);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(qp), IB_QPS_RESET);

	mock_ibdev_fail(t->mdev, MOCK_MODIFY_QP, 0);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
					   IB_QP_STATE | IB_QP_PORT), 0);
	KUNIT_EXPECT_EQ(test, qp->port, ROCE_PORT);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

/* ---- Query --------------------------------------------------------------- */

static void query_test(struct kunit *test)
{
	const struct ib_gid_attr *stale = (const struct ib_gid_attr *)test;
	struct qp_test *t = tst(test);
	struct ib_qp *qp = new_rc_qp(test);
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	memset(&attr, 0, sizeof(attr));
	attr.ah_attr.grh.sgid_attr = stale;
	attr.alt_ah_attr.grh.sgid_attr = stale;
	KUNIT_EXPECT_EQ(test, ib_query_qp(qp, &attr, IB_QP_STATE, &init), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, attr.port_num, IB_PORT);
	KUNIT_EXPECT_EQ(test, init.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, init.cap.max_send_wr, 8U);
	/* no GID references are handed out */
	KUNIT_EXPECT_NULL(test, attr.ah_attr.grh.sgid_attr);
	KUNIT_EXPECT_NULL(test, attr.alt_ah_attr.grh.sgid_attr);

	mock_ibdev_fail(t->mdev, MOCK_QUERY_QP, -EIO);
	KUNIT_EXPECT_EQ(test, ib_query_qp(qp, &attr, IB_QP_STATE, &init),
			-EIO);

	attr.ah_attr.grh.sgid_attr = stale;
	t->mdev->ibdev.ops.query_qp = NULL;
	KUNIT_EXPECT_EQ(test, ib_query_qp(qp, &attr, IB_QP_STATE, &init),
			-EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, attr.ah_attr.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
}

static struct kunit_case ib_core_qp_cases[] = {
	KUNIT_CASE(create_test),
	KUNIT_CASE(create_shared_cq_test),
	KUNIT_CASE(create_with_srq_test),
	KUNIT_CASE(create_driver_error_test),
	KUNIT_CASE(create_rdma_ctxs_test),
	KUNIT_CASE(create_unsupported_test),
	KUNIT_CASE(destroy_errors_test),
	KUNIT_CASE(modify_test),
	KUNIT_CASE(modify_bad_port_test),
	KUNIT_CASE(modify_psn_test),
	KUNIT_CASE(modify_av_ib_test),
	KUNIT_CASE(modify_av_roce_test),
	KUNIT_CASE(modify_av_invalid_test),
	KUNIT_CASE(modify_alt_path_test),
	KUNIT_CASE(modify_driver_error_test),
	KUNIT_CASE(query_test),
	{}
};

static struct kunit_suite ib_core_qp_suite = {
	.name = "ib_core_qp",
	.init = qp_test_init,
	.exit = qp_test_exit,
	.test_cases = ib_core_qp_cases,
};

kunit_test_suite(ib_core_qp_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core queue pairs");
MODULE_LICENSE("GPL");
