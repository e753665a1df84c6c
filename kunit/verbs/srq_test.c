// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_srq: shared receive queues of core/verbs/srq.c on the mock driver. */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

/**
 * struct srq_test - per-case state
 * @mdev: the device
 * @pd: a PD on it
 * @cq: a CQ for the SRQ types that need one
 * @xrcd: an XRC domain for XRC SRQs
 */
struct srq_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_xrcd *xrcd;
};

static int srq_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct srq_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cq = ib_alloc_cq(&t->mdev->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cq);
	t->xrcd = ib_alloc_xrcd_user(&t->mdev->ibdev, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->xrcd);
	return 0;
}

static void srq_test_exit(struct kunit *test)
{
	struct srq_test *t = test->priv;

	if (!t)
		return;
	if (!IS_ERR_OR_NULL(t->xrcd))
		ib_dealloc_xrcd_user(t->xrcd, NULL);
	/* a failed case may have left a QP on it: leak rather than warn */
	if (!IS_ERR_OR_NULL(t->cq) && !atomic_read(&t->cq->usecnt))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

static struct srq_test *tst(struct kunit *test)
{
	return test->priv;
}

static void srq_event(struct ib_event *event, void *context)
{
}

static struct ib_srq_init_attr srq_attr(struct srq_test *t,
					enum ib_srq_type type)
{
	struct ib_srq_init_attr attr = {
		.event_handler = srq_event,
		.srq_context = t,
		.attr = { .max_wr = 32, .max_sge = 2, .srq_limit = 4 },
		.srq_type = type,
	};

	attr.ext.cq = t->cq;
	if (type == IB_SRQT_XRC)
		attr.ext.xrc.xrcd = t->xrcd;
	return attr;
}

/* No SRQ left, and nothing holding the fixture's objects. */
static void expect_no_srq(struct kunit *test)
{
	struct srq_test *t = tst(test);

	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_SRQ), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 0);
}

/* ---- Cases --------------------------------------------------------------- */

static void basic_test(struct kunit *test)
{
	struct srq_test *t = tst(test);
	struct ib_srq_init_attr init = srq_attr(t, IB_SRQT_BASIC);
	struct ib_srq_attr attr = {};
	struct ib_srq *srq;

	srq = ib_create_srq(t->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_EXPECT_PTR_EQ(test, srq->device, &t->mdev->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, srq->pd, t->pd);
	KUNIT_EXPECT_EQ(test, srq->srq_type, IB_SRQT_BASIC);
	KUNIT_EXPECT_PTR_EQ(test, srq->srq_context, (void *)t);
	KUNIT_EXPECT_TRUE(test, srq->event_handler == srq_event);
	KUNIT_EXPECT_NULL(test, srq->uobject);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 0);
	/* a basic SRQ has no CQ: the one in the attributes is not taken */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);

	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.max_wr, 32U);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 4U);

	attr.max_wr = 64;
	attr.srq_limit = 9;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &attr, IB_SRQ_LIMIT), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.srq_attr_mask, IB_SRQ_LIMIT);
	memset(&attr, 0, sizeof(attr));
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.max_wr, 32U);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 9U);

	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	expect_no_srq(test);
}

/* XRC SRQs hold their CQ and XRC domain; tag matching ones their CQ. */
static void xrc_and_tm_test(struct kunit *test)
{
	struct srq_test *t = tst(test);
	struct ib_srq_init_attr init = srq_attr(t, IB_SRQT_XRC);
	struct ib_srq *xrc, *tm;

	xrc = ib_create_srq(t->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, xrc);
	KUNIT_EXPECT_PTR_EQ(test, xrc->ext.cq, t->cq);
	KUNIT_EXPECT_PTR_EQ(test, xrc->ext.xrc.xrcd, t->xrcd);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(t->xrcd, NULL), -EBUSY);

	init = srq_attr(t, IB_SRQT_TM);
	init.ext.tag_matching.max_num_tags = 8;
	tm = ib_create_srq(t->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tm);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 2);

	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(tm, NULL), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(xrc, NULL), 0);
	expect_no_srq(test);
}

/* A failed creation takes back every reference, whatever the type. */
static void create_driver_error_test(struct kunit *test)
{
	static const enum ib_srq_type types[] = {
		IB_SRQT_BASIC, IB_SRQT_XRC, IB_SRQT_TM,
	};
	struct srq_test *t = tst(test);
	struct ib_srq_init_attr init;
	struct ib_srq *srq;
	unsigned int i;

	mock_ibdev_fail(t->mdev, MOCK_CREATE_SRQ, -ENOSPC);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		init = srq_attr(t, types[i]);
		srq = ib_create_srq(t->pd, &init);
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(srq), -ENOSPC);
		expect_no_srq(test);
	}
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_CREATE_SRQ), 3);
}

static void missing_ops_test(struct kunit *test)
{
	struct srq_test *t = tst(test);
	struct ib_srq_init_attr init = srq_attr(t, IB_SRQT_BASIC);
	struct ib_device *ibdev = &t->mdev->ibdev;
	struct ib_srq_attr attr = { .max_wr = 8 };
	struct ib_srq *srq;

	srq = ib_create_srq(t->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	ibdev->ops.modify_srq = NULL;
	ibdev->ops.query_srq = NULL;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &attr, IB_SRQ_MAX_WR),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &attr), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);

	ibdev->ops.create_srq = NULL;
	srq = ib_create_srq(t->pd, &init);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(srq), -EOPNOTSUPP);
	srq = ib_create_srq_user(t->pd, &init, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(srq), -EOPNOTSUPP);
	expect_no_srq(test);
}

static void driver_errors_test(struct kunit *test)
{
	struct srq_test *t = tst(test);
	struct ib_srq_init_attr init = srq_attr(t, IB_SRQT_XRC);
	struct ib_srq_attr attr = { .max_wr = 8 };
	struct ib_srq *srq;

	srq = ib_create_srq(t->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	mock_ibdev_fail(t->mdev, MOCK_MODIFY_SRQ, -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &attr, IB_SRQ_MAX_WR),
			-EINVAL);
	mock_ibdev_fail(t->mdev, MOCK_QUERY_SRQ, -EIO);
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &attr), -EIO);

	/* in use by a QP */
	atomic_inc(&srq->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), -EBUSY);
	atomic_dec(&srq->usecnt);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DESTROY_SRQ), 0);

	/* the driver refuses: everything stays as it was */
	mock_ibdev_fail(t->mdev, MOCK_DESTROY_SRQ, -EIO);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 1);

	mock_ibdev_fail(t->mdev, MOCK_DESTROY_SRQ, 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	expect_no_srq(test);
}

static struct kunit_case ib_core_srq_cases[] = {
	KUNIT_CASE(basic_test),
	KUNIT_CASE(xrc_and_tm_test),
	KUNIT_CASE(create_driver_error_test),
	KUNIT_CASE(missing_ops_test),
	KUNIT_CASE(driver_errors_test),
	{}
};

static struct kunit_suite ib_core_srq_suite = {
	.name = "ib_core_srq",
	.init = srq_test_init,
	.exit = srq_test_exit,
	.test_cases = ib_core_srq_cases,
};

kunit_test_suite(ib_core_srq_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core shared receive queues");
MODULE_LICENSE("GPL");
