// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_mr_pool: the per-QP MR pools of core/rw/mr_pool.c on the mock driver. */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>

#include "kunit/mock/mock_ibdev.h"

#define POOL_PAGES	16	/* max_num_sg of the pools' MRs */

/**
 * struct pool_test - per-case state
 * @mdev: the device
 * @pd: a PD on it
 * @cq: the QP's send and receive CQ
 * @qp: the QP whose mr_lock and mrs_used the pools use
 * @pool: a pool of the case's own
 */
struct pool_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct list_head pool;
};

/* alloc_mr fails with -ENOSPC once this many calls have succeeded; <0: never. */
static atomic_t alloc_budget = ATOMIC_INIT(-1);

static struct ib_mr *budget_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
				     u32 max_num_sg)
{
	if (atomic_read(&alloc_budget) >= 0 &&
	    atomic_dec_return(&alloc_budget) < 0)
		return ERR_PTR(-ENOSPC);
	return mock_verbs_ops.alloc_mr(pd, type, max_num_sg);
}

static int pool_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct pool_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.port_num = 1,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	INIT_LIST_HEAD(&t->pool);
	atomic_set(&alloc_budget, -1);
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cq = ib_alloc_cq(&t->mdev->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cq);
	attr.send_cq = t->cq;
	attr.recv_cq = t->cq;
	t->qp = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->qp);
	return 0;
}

static void pool_test_exit(struct kunit *test)
{
	struct pool_test *t = test->priv;

	if (!t)
		return;
	if (!IS_ERR_OR_NULL(t->qp)) {
		ib_mr_pool_destroy(t->qp, &t->pool);
		ib_destroy_qp(t->qp);
	}
	if (!IS_ERR_OR_NULL(t->cq))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

static struct pool_test *tst(struct kunit *test)
{
	return test->priv;
}

static int pool_len(struct pool_test *t)
{
	struct ib_mr *mr;
	int n = 0;

	list_for_each_entry(mr, &t->pool, qp_entry)
		n++;
	return n;
}

static int live_mrs(struct pool_test *t)
{
	return mock_ibdev_live_objs(t->mdev, MOCK_OBJ_MR);
}

/* ---- Filling and freeing ------------------------------------------------- */

static void init_mem_reg_test(struct kunit *test)
{
	struct pool_test *t = tst(test);
	int pd_users = atomic_read(&t->pd->usecnt);
	struct ib_mr *mr;

	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 4,
					      IB_MR_TYPE_MEM_REG, POOL_PAGES,
					      0), 0);
	KUNIT_EXPECT_EQ(test, pool_len(t), 4);
	KUNIT_EXPECT_EQ(test, live_mrs(t), 4);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 4);
	KUNIT_EXPECT_EQ(test, t->mdev->last.mr_type, IB_MR_TYPE_MEM_REG);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_sg, (u32)POOL_PAGES);
	list_for_each_entry(mr, &t->pool, qp_entry) {
		KUNIT_EXPECT_PTR_EQ(test, mr->pd, t->pd);
		KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_MEM_REG);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), pd_users + 4);
	/* filling a pool lends nothing out */
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);

	ib_mr_pool_destroy(t->qp, &t->pool);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
	KUNIT_EXPECT_EQ(test, live_mrs(t), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DEREG_MR), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), pd_users);
}

static void init_sg_gaps_test(struct kunit *test)
{
	struct pool_test *t = tst(test);

	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 2,
					      IB_MR_TYPE_SG_GAPS, 8, 0), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.mr_type, IB_MR_TYPE_SG_GAPS);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_sg, 8U);
	KUNIT_EXPECT_EQ(test, pool_len(t), 2);
}

static void init_integrity_test(struct kunit *test)
{
	struct pool_test *t = tst(test);
	struct ib_mr *mr;

	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 3,
					      IB_MR_TYPE_INTEGRITY, 8, 2), 0);
	KUNIT_EXPECT_EQ(test,
			mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR_INTEGRITY), 3);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_sg, 8U);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_meta_sg, 2U);
	list_for_each_entry(mr, &t->pool, qp_entry) {
		KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_INTEGRITY);
		KUNIT_EXPECT_NOT_NULL(test, mr->sig_attrs);
	}
	ib_mr_pool_destroy(t->qp, &t->pool);
	KUNIT_EXPECT_EQ(test, live_mrs(t), 0);
}

static void init_empty_test(struct kunit *test)
{
	struct pool_test *t = tst(test);

	KUNIT_EXPECT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 0,
					      IB_MR_TYPE_MEM_REG, 8, 0), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 0);
	/* destroying an empty pool is fine */
	ib_mr_pool_destroy(t->qp, &t->pool);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
}

/* ---- Failures while filling ---------------------------------------------- */

static void init_first_fails_test(struct kunit *test)
{
	struct pool_test *t = tst(test);

	mock_ibdev_fail(t->mdev, MOCK_ALLOC_MR, -ENOMEM);
	KUNIT_EXPECT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 4,
					      IB_MR_TYPE_MEM_REG, 8, 0),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
	KUNIT_EXPECT_EQ(test, live_mrs(t), 0);
}

/* The third of five allocations fails: the two made are freed again. */
static void init_half_way_fails_test(struct kunit *test)
{
	struct pool_test *t = tst(test);
	int pd_users = atomic_read(&t->pd->usecnt);

	t->mdev->ibdev.ops.alloc_mr = budget_alloc_mr;
	atomic_set(&alloc_budget, 2);
	KUNIT_EXPECT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 5,
					      IB_MR_TYPE_MEM_REG, 8, 0),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DEREG_MR), 2);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
	KUNIT_EXPECT_EQ(test, live_mrs(t), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), pd_users);
}

static void init_integrity_fails_test(struct kunit *test)
{
	struct pool_test *t = tst(test);

	/* no metadata pages: ib_alloc_mr_integrity() refuses */
	KUNIT_EXPECT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 2,
					      IB_MR_TYPE_INTEGRITY, 8, 0),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
	t->mdev->ibdev.ops.alloc_mr = NULL;
	KUNIT_EXPECT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 2,
					      IB_MR_TYPE_MEM_REG, 8, 0),
			-EOPNOTSUPP);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
	KUNIT_EXPECT_EQ(test, live_mrs(t), 0);
}

/* ---- Lending ------------------------------------------------------------- */

static void get_put_test(struct kunit *test)
{
	struct pool_test *t = tst(test);
	struct ib_mr *mr[3];
	int i;

	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 3,
					      IB_MR_TYPE_MEM_REG, 8, 0), 0);
	for (i = 0; i < 3; i++) {
		mr[i] = ib_mr_pool_get(t->qp, &t->pool);
		KUNIT_ASSERT_NOT_NULL(test, mr[i]);
		KUNIT_EXPECT_EQ(test, t->qp->mrs_used, i + 1);
		KUNIT_EXPECT_EQ(test, pool_len(t), 2 - i);
	}
	KUNIT_EXPECT_PTR_NE(test, mr[0], mr[1]);
	KUNIT_EXPECT_PTR_NE(test, mr[1], mr[2]);
	KUNIT_EXPECT_PTR_NE(test, mr[0], mr[2]);

	/* exhausted: NULL, and nothing more is counted */
	KUNIT_EXPECT_NULL(test, ib_mr_pool_get(t->qp, &t->pool));
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 3);

	ib_mr_pool_put(t->qp, &t->pool, mr[1]);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 2);
	/* the MR just given back is the next one lent */
	KUNIT_EXPECT_PTR_EQ(test, ib_mr_pool_get(t->qp, &t->pool), mr[1]);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 3);

	for (i = 0; i < 3; i++)
		ib_mr_pool_put(t->qp, &t->pool, mr[i]);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_len(t), 3);
	/* lending never allocates nor frees */
	KUNIT_EXPECT_EQ(test, live_mrs(t), 3);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 3);
}

/* Two pools of one QP share its mrs_used but not their MRs. */
static void two_pools_test(struct kunit *test)
{
	struct pool_test *t = tst(test);
	struct ib_mr *a, *b;
	LIST_HEAD(other);

	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 1,
					      IB_MR_TYPE_MEM_REG, 8, 0), 0);
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(t->qp, &other, 1,
					      IB_MR_TYPE_MEM_REG, 8, 0), 0);
	a = ib_mr_pool_get(t->qp, &t->pool);
	b = ib_mr_pool_get(t->qp, &other);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 2);
	KUNIT_EXPECT_NULL(test, ib_mr_pool_get(t->qp, &t->pool));
	ib_mr_pool_put(t->qp, &other, b);
	ib_mr_pool_put(t->qp, &t->pool, a);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	ib_mr_pool_destroy(t->qp, &other);
	KUNIT_EXPECT_EQ(test, live_mrs(t), 1);
}

/* Destroy frees what is in the pool, not what is lent out. */
static void destroy_with_lent_mr_test(struct kunit *test)
{
	struct pool_test *t = tst(test);
	struct ib_mr *mr;

	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(t->qp, &t->pool, 3,
					      IB_MR_TYPE_MEM_REG, 8, 0), 0);
	mr = ib_mr_pool_get(t->qp, &t->pool);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	ib_mr_pool_destroy(t->qp, &t->pool);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pool));
	KUNIT_EXPECT_EQ(test, live_mrs(t), 1);

	ib_mr_pool_put(t->qp, &t->pool, mr);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	ib_mr_pool_destroy(t->qp, &t->pool);
	KUNIT_EXPECT_EQ(test, live_mrs(t), 0);
}

static struct kunit_case ib_core_mr_pool_cases[] = {
	KUNIT_CASE(init_mem_reg_test),
	KUNIT_CASE(init_sg_gaps_test),
	KUNIT_CASE(init_integrity_test),
	KUNIT_CASE(init_empty_test),
	KUNIT_CASE(init_first_fails_test),
	KUNIT_CASE(init_half_way_fails_test),
	KUNIT_CASE(init_integrity_fails_test),
	KUNIT_CASE(get_put_test),
	KUNIT_CASE(two_pools_test),
	KUNIT_CASE(destroy_with_lent_mr_test),
	{}
};

static struct kunit_suite ib_core_mr_pool_suite = {
	.name = "ib_core_mr_pool",
	.init = pool_test_init,
	.exit = pool_test_exit,
	.test_cases = ib_core_mr_pool_cases,
};

kunit_test_suite(ib_core_mr_pool_suite);

MODULE_DESCRIPTION("KUnit tests of the ib_core MR pools");
MODULE_LICENSE("GPL");
