// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_mcast: ib_attach_mcast() and ib_detach_mcast() of core/verbs/mcast.c. */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

#define MC_LID		0xc001	/* a multicast LID */
#define UC_LID		0x0042	/* a unicast LID: wrong for a group on IB */
#define IB_PORT		1
#define ROCE_PORT	2

/**
 * struct mcast_test - per-case state
 * @mdev: the device: port 1 InfiniBand, port 2 RoCE if the case asks
 * @pd: a PD on it
 * @cq: the CQ of the QPs
 * @qp: a UD QP
 */
struct mcast_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
};

static int mcast_test_init(struct kunit *test)
{
	struct mcast_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	return 0;
}

static void mcast_test_exit(struct kunit *test)
{
	struct mcast_test *t = test->priv;

	if (!t)
		return;
	if (!IS_ERR_OR_NULL(t->qp))
		ib_destroy_qp(t->qp);
	/* a failed case may have left a QP on it: leak rather than warn */
	if (!IS_ERR_OR_NULL(t->cq) && !atomic_read(&t->cq->usecnt))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

/* A device (with a RoCE port 2 if @roce) and a UD QP on port 1. */
static struct mcast_test *mcast_setup(struct kunit *test, bool roce)
{
	const struct mock_ibdev_cfg cfg = {
		.nports = roce ? 2 : 1,
		.roce_port = roce ? ROCE_PORT : 0,
	};
	struct mcast_test *t = test->priv;
	struct ib_qp_init_attr attr = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IB_QPT_UD,
		.port_num = IB_PORT,
	};

	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cq = ib_alloc_cq(&t->mdev->ibdev, NULL, 8, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cq);
	attr.send_cq = t->cq;
	attr.recv_cq = t->cq;
	t->qp = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->qp);
	return t;
}

/* Move the case's QP to INIT on @port. */
static void qp_to_init(struct kunit *test, struct mcast_test *t, u32 port)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT, .port_num = port };

	KUNIT_ASSERT_EQ(test, ib_modify_qp(t->qp, &attr,
					   IB_QP_STATE | IB_QP_PORT), 0);
}

/* An IPv6 multicast GID (ff12::1) or, with @mc false, a unicast one. */
static union ib_gid gid(bool mc)
{
	union ib_gid g = {};

	g.raw[0] = mc ? 0xff : 0xfe;
	g.raw[1] = mc ? 0x12 : 0x80;
	g.raw[15] = 1;
	return g;
}

/* ---- Cases --------------------------------------------------------------- */

static void attach_detach_test(struct kunit *test)
{
	struct mcast_test *t = mcast_setup(test, false);
	union ib_gid mgid = gid(true);

	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, MC_LID), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.mcast_lid, MC_LID);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 1);
	/* an attached QP cannot be destroyed */
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(t->qp), -EBUSY);

	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, MC_LID), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DETACH_MCAST), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 0);
}

/* Wrong GID, QP type or LID never reach the driver. */
static void bad_args_test(struct kunit *test)
{
	struct mcast_test *t = mcast_setup(test, false);
	union ib_gid mgid = gid(true), ugid = gid(false);
	struct ib_qp_init_attr attr = {
		.send_cq = t->cq, .recv_cq = t->cq,
		.cap = { .max_send_wr = 1, .max_send_sge = 1 },
		.qp_type = IB_QPT_RC,
	};
	struct ib_qp *rc;

	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &ugid, MC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &ugid, MC_LID), -EINVAL);
	/* on an all-InfiniBand device the LID must be a multicast one */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, UC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, 0xffff), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, 0xbfff), -EINVAL);

	rc = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rc);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(rc, &mgid, MC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(rc), 0);

	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ATTACH_MCAST), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DETACH_MCAST), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 0);
}

/* Where RoCE may be involved, the LID is not checked. */
static void roce_lid_test(struct kunit *test)
{
	struct mcast_test *t = mcast_setup(test, true);
	union ib_gid mgid = gid(true);

	/* not on a port yet, and the device has an Ethernet port */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, UC_LID), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, UC_LID), 0);

	/* on the InfiniBand port: checked */
	qp_to_init(test, t, IB_PORT);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, UC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, MC_LID), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, MC_LID), 0);

	/* on the RoCE port: not checked */
	qp_to_init(test, t, ROCE_PORT);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, UC_LID), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, UC_LID), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 0);
}

/* If the QP cannot be queried, every port of the device decides. */
static void query_fails_test(struct kunit *test)
{
	struct mcast_test *t = mcast_setup(test, false);
	union ib_gid mgid = gid(true);

	qp_to_init(test, t, IB_PORT);
	mock_ibdev_fail(t->mdev, MOCK_QUERY_QP, -EIO);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, UC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, MC_LID), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, MC_LID), 0);

	t->mdev->ibdev.ops.query_qp = NULL;
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, UC_LID), -EINVAL);
}

static void driver_errors_test(struct kunit *test)
{
	struct mcast_test *t = mcast_setup(test, false);
	union ib_gid mgid = gid(true);

	mock_ibdev_fail(t->mdev, MOCK_ATTACH_MCAST, -ENOSPC);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, MC_LID), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 0);
	mock_ibdev_fail(t->mdev, MOCK_ATTACH_MCAST, 0);

	KUNIT_ASSERT_EQ(test, ib_attach_mcast(t->qp, &mgid, MC_LID), 0);
	mock_ibdev_fail(t->mdev, MOCK_DETACH_MCAST, -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, MC_LID), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 1);
	mock_ibdev_fail(t->mdev, MOCK_DETACH_MCAST, 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, MC_LID), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 0);
}

static void missing_ops_test(struct kunit *test)
{
	struct mcast_test *t = mcast_setup(test, false);
	union ib_gid mgid = gid(true);

	t->mdev->ibdev.ops.attach_mcast = NULL;
	t->mdev->ibdev.ops.detach_mcast = NULL;
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(t->qp, &mgid, MC_LID),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &mgid, MC_LID),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->qp->usecnt), 0);
}

static struct kunit_case ib_core_mcast_cases[] = {
	KUNIT_CASE(attach_detach_test),
	KUNIT_CASE(bad_args_test),
	KUNIT_CASE(roce_lid_test),
	KUNIT_CASE(query_fails_test),
	KUNIT_CASE(driver_errors_test),
	KUNIT_CASE(missing_ops_test),
	{}
};

static struct kunit_suite ib_core_mcast_suite = {
	.name = "ib_core_mcast",
	.init = mcast_test_init,
	.exit = mcast_test_exit,
	.test_cases = ib_core_mcast_cases,
};

kunit_test_suite(ib_core_mcast_suite);

MODULE_DESCRIPTION("KUnit tests for ib_core multicast attachment");
MODULE_LICENSE("GPL");
