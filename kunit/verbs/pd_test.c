// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_pd: protection domains of core/verbs/pd.c on the mock driver. */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

/* ---- Fixture: one registered mock device per case ------------------------ */

static int pd_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mock_ibdev *mdev = mock_ibdev_create(&cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	test->priv = mdev;
	return 0;
}

static void pd_test_exit(struct kunit *test)
{
	mock_ibdev_destroy(test->priv);
}

static struct mock_ibdev *test_mdev(struct kunit *test)
{
	return test->priv;
}

/* Whether the device offers its reserved lkey for kernel PDs. */
static void set_local_dma_lkey(struct mock_ibdev *mdev, bool on)
{
	if (on)
		mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	else
		mdev->ibdev.attrs.kernel_cap_flags &= ~IBK_LOCAL_DMA_LKEY;
}

/* Nothing left at the driver. */
static void expect_all_freed(struct kunit *test, struct mock_ibdev *mdev)
{
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(mdev, MOCK_OBJ_PD), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(mdev, MOCK_OBJ_MR), 0);
}

/* ---- Allocation ---------------------------------------------------------- */

/* With a reserved lkey no MR is needed. */
static void alloc_reserved_lkey_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_pd *pd;

	set_local_dma_lkey(mdev, true);
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_EXPECT_PTR_EQ(test, pd->device, &mdev->ibdev);
	KUNIT_EXPECT_EQ(test, pd->flags, 0U);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, MOCK_IBDEV_LOCAL_DMA_LKEY);
	KUNIT_EXPECT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, pd->unsafe_global_rkey, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_GET_DMA_MR), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(mdev, MOCK_OBJ_PD), 1);

	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_DEALLOC_PD), 1);
	expect_all_freed(test, mdev);
}

/* Without one, the lkey comes from an internal MR with local write. */
static void alloc_internal_mr_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_pd *pd;
	struct ib_mr *mr;

	set_local_dma_lkey(mdev, false);
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	mr = pd->__internal_mr;
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, mdev->last.access, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_PTR_EQ(test, mr->pd, pd);
	KUNIT_EXPECT_PTR_EQ(test, mr->device, &mdev->ibdev);
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_DMA);
	KUNIT_EXPECT_FALSE(test, mr->need_inval);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, mr->lkey);
	KUNIT_EXPECT_EQ(test, pd->unsafe_global_rkey, 0U);
	/* the PD's own MR is not a user of it */
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(mdev, MOCK_OBJ_MR), 1);

	ib_dealloc_pd(pd);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_DEREG_MR), 1);
	expect_all_freed(test, mdev);
}

/* The global rkey: remote rights, and the rkey published in the PD. */
static void unsafe_global_rkey_test(struct kunit *test)
{
	const int remote = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE;
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_pd *pd;

	set_local_dma_lkey(mdev, true);
	pd = ib_alloc_pd(&mdev->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_ASSERT_NOT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, pd->flags, (u32)IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_EXPECT_EQ(test, mdev->last.access, remote);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, MOCK_IBDEV_LOCAL_DMA_LKEY);
	KUNIT_EXPECT_EQ(test, pd->unsafe_global_rkey, pd->__internal_mr->rkey);
	ib_dealloc_pd(pd);

	/* both needs at once: one MR serves both keys */
	set_local_dma_lkey(mdev, false);
	pd = ib_alloc_pd(&mdev->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_ASSERT_NOT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, mdev->last.access,
			remote | IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, pd->__internal_mr->lkey);
	KUNIT_EXPECT_EQ(test, pd->unsafe_global_rkey, pd->__internal_mr->rkey);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_GET_DMA_MR), 2);
	ib_dealloc_pd(pd);
	expect_all_freed(test, mdev);
}

/* ---- Allocation errors --------------------------------------------------- */

static void alloc_driver_error_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_pd *pd;

	set_local_dma_lkey(mdev, false);
	mock_ibdev_fail(mdev, MOCK_ALLOC_PD, -ENOSPC);
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(pd), -ENOSPC);
	/* no MR was attempted for a PD that does not exist */
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_GET_DMA_MR), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_DEALLOC_PD), 0);
	expect_all_freed(test, mdev);
}

/* The internal MR failing takes the PD down again. */
static void internal_mr_error_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_pd *pd;

	set_local_dma_lkey(mdev, false);
	mock_ibdev_fail(mdev, MOCK_GET_DMA_MR, -EIO);
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(pd), -EIO);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_DEALLOC_PD), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_DEREG_MR), 0);
	expect_all_freed(test, mdev);

	/* the same for the global rkey on a device with a reserved lkey */
	set_local_dma_lkey(mdev, true);
	pd = ib_alloc_pd(&mdev->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(pd), -EIO);
	expect_all_freed(test, mdev);
}

/* Missing ops are refused rather than called. */
static void missing_ops_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_pd *pd;

	mdev->ibdev.ops.alloc_pd = NULL;
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(pd), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_ALLOC_PD), 0);

	/* a PD that needs an MR on a device that cannot give one */
	mdev = mock_ibdev_create(&(struct mock_ibdev_cfg){ .nports = 1 });
	KUNIT_ASSERT_NOT_NULL(test, mdev);
	set_local_dma_lkey(mdev, false);
	mdev->ibdev.ops.get_dma_mr = NULL;
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(pd), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_DEALLOC_PD), 1);
	expect_all_freed(test, mdev);

	/* but one with a reserved lkey does fine without */
	set_local_dma_lkey(mdev, true);
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, pd);
	if (!IS_ERR(pd))
		ib_dealloc_pd(pd);
	expect_all_freed(test, mdev);
	mock_ibdev_destroy(mdev);
}

/* ---- Release ------------------------------------------------------------- */

/*
 * A driver refusing to free the PD: the error is returned and the PD
 * stays, but (as in 6.1) its internal MR is already gone.
 */
static void dealloc_driver_error_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_pd *pd;

	set_local_dma_lkey(mdev, false);
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);

	mock_ibdev_fail(mdev, MOCK_DEALLOC_PD, -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(mdev, MOCK_OBJ_PD), 1);
	KUNIT_EXPECT_NULL(test, pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(mdev, MOCK_OBJ_MR), 0);

	mock_ibdev_fail(mdev, MOCK_DEALLOC_PD, 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(mdev, MOCK_DEREG_MR), 1);
	expect_all_freed(test, mdev);
}

/* Objects on the PD count in its usecnt, and stop counting when gone. */
static void usecnt_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test_mdev(test);
	struct ib_mr *mr1, *mr2;
	struct ib_pd *pd;

	set_local_dma_lkey(mdev, true);
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	mr1 = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr1);
	mr2 = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 2);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr2), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	ib_dealloc_pd(pd);
	expect_all_freed(test, mdev);
}

static struct kunit_case ib_core_pd_cases[] = {
	KUNIT_CASE(alloc_reserved_lkey_test),
	KUNIT_CASE(alloc_internal_mr_test),
	KUNIT_CASE(unsafe_global_rkey_test),
	KUNIT_CASE(alloc_driver_error_test),
	KUNIT_CASE(internal_mr_error_test),
	KUNIT_CASE(missing_ops_test),
	KUNIT_CASE(dealloc_driver_error_test),
	KUNIT_CASE(usecnt_test),
	{}
};

static struct kunit_suite ib_core_pd_suite = {
	.name = "ib_core_pd",
	.init = pd_test_init,
	.exit = pd_test_exit,
	.test_cases = ib_core_pd_cases,
};

kunit_test_suite(ib_core_pd_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core protection domains");
MODULE_LICENSE("GPL");
