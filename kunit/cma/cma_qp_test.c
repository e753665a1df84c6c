// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_qp: rdma_init_qp_attr() before the connection,
 * rdma_create_qp() and rdma_destroy_qp() on the mock.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/rdma_cm_ib.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * From 6.1: before the IB CM is involved, INIT is the id's port, the
 * index of its P_Key (0xffff on RoCE) and no remote access; a UD id of
 * the UDP port space adds RDMA_UDP_QKEY. A connected QP waits in INIT, a
 * UD one goes to RTS at once.
 */

struct qp_fix {
	struct mock_ibdev	*mdev;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
};

static int qp_fix_init(struct kunit *test)
{
	struct qp_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	test->priv = f;
	f->mdev = cma_fix_device(test);
	/* RoCE QPs use P_Key 0xffff: put it at index 1 of the RoCE port. */
	mock_ibdev_set_pkey(f->mdev, CMA_FIX_ROCE_PORT, 1, 0xffff);
	KUNIT_ASSERT_EQ(test, mock_ibdev_cache_sync(f->mdev, CMA_FIX_ROCE_PORT), 0);
	f->pd = ib_alloc_pd(&f->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->pd);
	f->cq = ib_alloc_cq(&f->mdev->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->cq);
	return 0;
}

static void qp_fix_exit(struct kunit *test)
{
	struct qp_fix *f = test->priv;

	if (!IS_ERR_OR_NULL(f->cq) && !atomic_read(&f->cq->usecnt))
		ib_free_cq(f->cq);
	if (!IS_ERR_OR_NULL(f->pd))
		ib_dealloc_pd(f->pd);
	/* The device is the fixture's resource: it goes after this. */
}

static struct cma_id_priv *qp_fix_id(struct kunit *test, struct cma_owner *o,
				     enum rdma_ucm_port_space ps,
				     enum ib_qp_type type)
{
	struct qp_fix *f = test->priv;
	struct cma_id_priv *priv = cma_fix_id(test, o, ps, type);

	cma_fix_attach(priv, f->mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, RDMA_CM_ADDR_RESOLVED);
	return priv;
}

static void cma_qp_init_attr_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *bare = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *rc = qp_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *ud = qp_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	struct cma_id_priv *ipoib = qp_fix_id(test, &o, RDMA_PS_IPOIB, IB_QPT_UD);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	int mask = 0;

	KUNIT_EXPECT_EQ(test, rdma_init_qp_attr(&bare->id, &attr, &mask), -EINVAL);

	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(&rc->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
				    IB_QP_ACCESS_FLAGS);
	KUNIT_EXPECT_EQ(test, attr.pkey_index, 1);
	KUNIT_EXPECT_EQ(test, attr.port_num, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags, 0);

	/* RTR before any connection: INIT's attributes and our PSN. */
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(&rc->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, rc->seq_num);

	attr.qp_state = IB_QPS_INIT;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(&ud->id, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_QKEY);
	KUNIT_EXPECT_EQ(test, attr.qkey, (u32)RDMA_UDP_QKEY);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_ACCESS_FLAGS);
	/* IPoIB's Q_Key comes from its broadcast group: not built. */
	KUNIT_EXPECT_EQ(test, rdma_init_qp_attr(&ipoib->id, &attr, &mask),
			-EOPNOTSUPP);

	rdma_destroy_id(&bare->id);
	cma_fix_end(rc);
	cma_fix_end(ud);
	cma_fix_end(ipoib);
}

static void cma_qp_create_test(struct kunit *test)
{
	struct qp_fix *f = test->priv;
	struct cma_owner o = {};
	struct cma_id_priv *rc = qp_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *ud = qp_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	struct cma_id_priv *bare = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct ib_qp_init_attr init = {
		.send_cq = f->cq, .recv_cq = f->cq, .qp_type = IB_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	/* A PD of another device (the bare id has none). */
	KUNIT_EXPECT_EQ(test, rdma_create_qp(&bare->id, f->pd, &init), -EINVAL);

	KUNIT_ASSERT_EQ(test, rdma_create_qp(&rc->id, f->pd, &init), 0);
	KUNIT_ASSERT_NOT_NULL(test, rc->id.qp);
	KUNIT_EXPECT_EQ(test, init.port_num, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(rc->id.qp), IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, rc->qp_num, rc->id.qp->qp_num);

	init.qp_type = IB_QPT_UD;
	KUNIT_ASSERT_EQ(test, rdma_create_qp(&ud->id, f->pd, &init), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(ud->id.qp), IB_QPS_RTS);

	rdma_destroy_qp(&rc->id);
	KUNIT_EXPECT_PTR_EQ(test, rc->id.qp, NULL);
	rdma_destroy_qp(&ud->id);
	rdma_destroy_id(&bare->id);
	cma_fix_end(rc);
	cma_fix_end(ud);
}

static struct kunit_case cma_qp_cases[] = {
	KUNIT_CASE(cma_qp_init_attr_test),
	KUNIT_CASE(cma_qp_create_test),
	{}
};

static struct kunit_suite cma_qp_suite = {
	.name = "rdma_cm_qp",
	.init = qp_fix_init,
	.exit = qp_fix_exit,
	.test_cases = cma_qp_cases,
};

kunit_test_suites(&cma_qp_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's QPs");
MODULE_LICENSE("GPL");
