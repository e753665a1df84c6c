// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_mr: memory regions and ib_sg_to_pages() of core/verbs/mr.c. */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <rdma/ib_verbs.h>
#include <rdma/signature.h>

#include "kunit/mock/mock_ibdev.h"

/* ---- Fixture: a mock device and a PD on it ------------------------------- */

/**
 * struct mr_test - per-case state
 * @mdev: the device
 * @pd: a PD on it, with the device's reserved lkey (no internal MR)
 */
struct mr_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
};

static int mr_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mr_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	return 0;
}

static void mr_test_exit(struct kunit *test)
{
	struct mr_test *t = test->priv;

	if (!t)
		return;
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

static struct mr_test *tst(struct kunit *test)
{
	return test->priv;
}

static void expect_no_mr(struct kunit *test)
{
	struct mr_test *t = tst(test);

	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_MR), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
}

/* ---- Allocation and deregistration --------------------------------------- */

static void alloc_mr_test(struct kunit *test)
{
	static const enum ib_mr_type types[] = {
		IB_MR_TYPE_MEM_REG, IB_MR_TYPE_SG_GAPS,
	};
	struct mr_test *t = tst(test);
	struct ib_mr *mr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		mr = ib_alloc_mr(t->pd, types[i], 8);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
		KUNIT_EXPECT_EQ(test, t->mdev->last.mr_type, types[i]);
		KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_sg, 8U);
		KUNIT_EXPECT_PTR_EQ(test, mr->device, &t->mdev->ibdev);
		KUNIT_EXPECT_PTR_EQ(test, mr->pd, t->pd);
		KUNIT_EXPECT_EQ(test, mr->type, types[i]);
		KUNIT_EXPECT_FALSE(test, mr->need_inval);
		KUNIT_EXPECT_NULL(test, mr->dm);
		KUNIT_EXPECT_NULL(test, mr->sig_attrs);
		KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
		KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
		expect_no_mr(test);
	}
}

static void alloc_mr_errors_test(struct kunit *test)
{
	struct mr_test *t = tst(test);
	struct ib_mr *mr;

	mock_ibdev_fail(t->mdev, MOCK_ALLOC_MR, -ENOMEM);
	mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, 8);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -ENOMEM);
	expect_no_mr(test);

	t->mdev->ibdev.ops.alloc_mr = NULL;
	mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, 8);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 1);
	expect_no_mr(test);
}

static void alloc_mr_integrity_test(struct kunit *test)
{
	struct mr_test *t = tst(test);
	struct ib_mr *mr;

	mr = ib_alloc_mr_integrity(t->pd, 8, 2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_INTEGRITY);
	KUNIT_EXPECT_NOT_NULL(test, mr->sig_attrs);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_sg, 8U);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_meta_sg, 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	/* the signature attributes go with the MR (kmemleak checks) */
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	expect_no_mr(test);
}

static void alloc_mr_integrity_errors_test(struct kunit *test)
{
	struct mr_test *t = tst(test);
	struct ib_device *ibdev = &t->mdev->ibdev;
	struct ib_mr *mr;

	mr = ib_alloc_mr_integrity(t->pd, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);
	mock_ibdev_fail(t->mdev, MOCK_ALLOC_MR_INTEGRITY, -ENOSPC);
	mr = ib_alloc_mr_integrity(t->pd, 8, 2);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -ENOSPC);
	KUNIT_EXPECT_EQ(test,
			mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR_INTEGRITY), 1);
	expect_no_mr(test);

	/* both the allocation and the mapping op are needed */
	mock_ibdev_fail(t->mdev, MOCK_ALLOC_MR_INTEGRITY, 0);
	ibdev->ops.map_mr_sg_pi = NULL;
	mr = ib_alloc_mr_integrity(t->pd, 8, 2);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EOPNOTSUPP);
	ibdev->ops.alloc_mr_integrity = NULL;
	mr = ib_alloc_mr_integrity(t->pd, 8, 2);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EOPNOTSUPP);
	expect_no_mr(test);
}

static void dereg_error_test(struct kunit *test)
{
	struct mr_test *t = tst(test);
	struct ib_mr *mr = ib_alloc_mr_integrity(t->pd, 4, 1);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	mock_ibdev_fail(t->mdev, MOCK_DEREG_MR, -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), -EBUSY);
	/* still there, still on the PD, signature attributes kept */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_NOT_NULL(test, mr->sig_attrs);
	mock_ibdev_fail(t->mdev, MOCK_DEREG_MR, 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	expect_no_mr(test);
}

/* ---- User memory and advice ---------------------------------------------- */

static void reg_user_mr_test(struct kunit *test)
{
	const int access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ;
	struct mr_test *t = tst(test);
	struct ib_mr *mr;

	mr = ib_reg_user_mr(t->pd, 0x7000, 0x3000, 0x1000000, access);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, t->mdev->last.user_start, 0x7000ULL);
	KUNIT_EXPECT_EQ(test, t->mdev->last.access, access);
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_USER);
	KUNIT_EXPECT_EQ(test, mr->iova, 0x1000000ULL);
	KUNIT_EXPECT_EQ(test, mr->length, 0x3000ULL);
	KUNIT_EXPECT_PTR_EQ(test, mr->pd, t->pd);
	KUNIT_EXPECT_PTR_EQ(test, mr->device, &t->mdev->ibdev);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	expect_no_mr(test);
}

static void reg_user_mr_errors_test(struct kunit *test)
{
	const int odp = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_ON_DEMAND;
	struct mr_test *t = tst(test);
	struct ib_mr *mr;

	/* on-demand paging on a device without it never reaches the driver */
	mr = ib_reg_user_mr(t->pd, 0x7000, 0x1000, 0x7000, odp);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_REG_USER_MR), 0);

	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_ON_DEMAND_PAGING;
	mr = ib_reg_user_mr(t->pd, 0x7000, 0x1000, 0x7000, odp);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);

	mock_ibdev_fail(t->mdev, MOCK_REG_USER_MR, -EFAULT);
	mr = ib_reg_user_mr(t->pd, 0x7000, 0x1000, 0x7000, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EFAULT);

	t->mdev->ibdev.ops.reg_user_mr = NULL;
	mr = ib_reg_user_mr(t->pd, 0x7000, 0x1000, 0x7000, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EOPNOTSUPP);
	expect_no_mr(test);
}

static void advise_mr_test(struct kunit *test)
{
	struct mr_test *t = tst(test);
	struct ib_sge sge[2] = {};
	enum ib_uverbs_advise_mr_advice advice =
		IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH;

	/* nothing to advise: not even the driver is asked */
	KUNIT_EXPECT_EQ(test, ib_advise_mr(t->pd, advice, 0, sge, 0), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ADVISE_MR), 0);
	KUNIT_EXPECT_EQ(test, ib_advise_mr(t->pd, advice, 0, sge, 2), 0);
	KUNIT_EXPECT_EQ(test, t->mdev->last.advise_num_sge, 2U);
	mock_ibdev_fail(t->mdev, MOCK_ADVISE_MR, -EFAULT);
	KUNIT_EXPECT_EQ(test, ib_advise_mr(t->pd, advice, 0, sge, 1), -EFAULT);

	t->mdev->ibdev.ops.advise_mr = NULL;
	KUNIT_EXPECT_EQ(test, ib_advise_mr(t->pd, advice, 0, sge, 0),
			-EOPNOTSUPP);
}

static void check_mr_status_test(struct kunit *test)
{
	struct mr_test *t = tst(test);
	struct ib_mr_status status = { .fail_status = ~0U };
	struct ib_mr *mr = ib_alloc_mr_integrity(t->pd, 4, 1);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &status), 0);
	KUNIT_EXPECT_EQ(test, status.fail_status, 0U);
	mock_ibdev_fail(t->mdev, MOCK_CHECK_MR_STATUS, -EIO);
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &status), -EIO);
	t->mdev->ibdev.ops.check_mr_status = NULL;
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &status), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* ---- Scatterlists -------------------------------------------------------- */

/* An entry by DMA address and length, as a mapped scatterlist has them. */
struct sg_shape {
	u64 addr;
	unsigned int len;
};

/* Fill @sgl (@n entries, at least one) with DMA-mapped entries of @shape. */
static void sg_build(struct scatterlist *sgl, const struct sg_shape *shape,
		     unsigned int n)
{
	unsigned int i;

	sg_init_table(sgl, n);
	for (i = 0; i < n; i++) {
		sg_dma_address(&sgl[i]) = shape[i].addr;
		sg_dma_len(&sgl[i]) = shape[i].len;
	}
}

/**
 * struct page_list - an MR with a page list, for ib_sg_to_pages()
 * @mr: the MR; only page_size, iova and length are used
 * @pages: pages set so far
 * @n: how many
 * @max: room, at most ARRAY_SIZE(@pages)
 */
struct page_list {
	struct ib_mr mr;
	u64 pages[16];
	int n;
	int max;
};

static int page_list_set(struct ib_mr *mr, u64 addr)
{
	struct page_list *pl = container_of(mr, struct page_list, mr);

	if (pl->n == pl->max)
		return -ENOMEM;
	pl->pages[pl->n++] = addr;
	return 0;
}

static void page_list_init(struct page_list *pl, int max)
{
	memset(pl, 0, sizeof(*pl));
	pl->mr.page_size = SZ_4K;
	pl->max = max;
}

/* Map @shape with @off into a list of @max pages; return what ib_sg_to_pages() does. */
static int sg_map(struct page_list *pl, const struct sg_shape *shape,
		  unsigned int n, unsigned int *off, int max)
{
	struct scatterlist sgl[4];

	sg_build(sgl, shape, n);
	page_list_init(pl, max);
	return ib_sg_to_pages(&pl->mr, sgl, n, off, page_list_set);
}

static void expect_pages(struct kunit *test, const struct page_list *pl,
			 const u64 *want, int n)
{
	int i;

	KUNIT_ASSERT_EQ(test, pl->n, n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, pl->pages[i], want[i], "page %d", i);
}

/* Page-aligned entries map whole even where they are not contiguous. */
static void sg_aligned_test(struct kunit *test)
{
	static const struct sg_shape shape[] = {
		{ 0x10000, 0x2000 }, { 0x40000, 0x1000 }, { 0x20000, 0x2000 },
	};
	static const u64 want[] = {
		0x10000, 0x11000, 0x40000, 0x20000, 0x21000,
	};
	struct page_list pl;
	unsigned int off = 0;

	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 3, &off, 16), 3);
	expect_pages(test, &pl, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, pl.mr.iova, 0x10000ULL);
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0x5000ULL);
	KUNIT_EXPECT_EQ(test, off, 0U);
}

/* The first entry may start and the last end anywhere in a page. */
static void sg_unaligned_ends_test(struct kunit *test)
{
	static const struct sg_shape shape[] = {
		{ 0x10200, 0xe00 }, { 0x30000, 0x1000 }, { 0x50000, 0x234 },
	};
	static const u64 want[] = { 0x10000, 0x30000, 0x50000 };
	struct page_list pl;

	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 3, NULL, 16), 3);
	expect_pages(test, &pl, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, pl.mr.iova, 0x10200ULL);
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0x2034ULL);
}

/* An offset into the first entry moves the start of the mapping. */
static void sg_offset_test(struct kunit *test)
{
	static const struct sg_shape shape[] = { { 0x10000, 0x3000 } };
	static const u64 want[] = { 0x11000, 0x12000 };
	struct page_list pl;
	unsigned int off = 0x1100;

	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 1, &off, 16), 1);
	expect_pages(test, &pl, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, pl.mr.iova, 0x11100ULL);
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0x1f00ULL);
	KUNIT_EXPECT_EQ(test, off, 0U);

	/* an offset right at the end is allowed, past it is not */
	off = 0x3000;
	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 1, &off, 16), 1);
	off = 0x3001;
	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 1, &off, 16), -EINVAL);
}

/* An empty list is refused before anything is touched. */
static void sg_empty_test(struct kunit *test)
{
	static const struct sg_shape shape[] = { { 0x10000, 0x1000 } };
	struct scatterlist sgl[1];
	struct page_list pl;

	sg_build(sgl, shape, 1);
	page_list_init(&pl, 16);
	pl.mr.iova = 0x1234;
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&pl.mr, sgl, 0, NULL,
					     page_list_set), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sg_to_pages(&pl.mr, sgl, -1, NULL,
					     page_list_set), -EINVAL);
	KUNIT_EXPECT_EQ(test, pl.mr.iova, 0x1234ULL);
	KUNIT_EXPECT_EQ(test, pl.n, 0);
}

/* Where an entry boundary is not page aligned, a gap ends the mapping. */
static void sg_gap_test(struct kunit *test)
{
	static const struct sg_shape end_gap[] = {
		{ 0x10000, 0x1800 }, { 0x20000, 0x1000 },
	};
	static const struct sg_shape start_gap[] = {
		{ 0x10000, 0x1000 }, { 0x20100, 0x100 }, { 0x30000, 0x1000 },
	};
	static const u64 want_end[] = { 0x10000, 0x11000 };
	static const u64 want_start[] = { 0x10000 };
	struct page_list pl;
	unsigned int off = 0;

	KUNIT_EXPECT_EQ(test, sg_map(&pl, end_gap, 2, &off, 16), 1);
	expect_pages(test, &pl, want_end, ARRAY_SIZE(want_end));
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0x1800ULL);
	KUNIT_EXPECT_EQ(test, off, 0U);

	KUNIT_EXPECT_EQ(test, sg_map(&pl, start_gap, 3, &off, 16), 1);
	expect_pages(test, &pl, want_start, ARRAY_SIZE(want_start));
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0x1000ULL);
}

/* Unaligned but contiguous entries join: a shared page is set once. */
static void sg_contiguous_test(struct kunit *test)
{
	static const struct sg_shape shape[] = {
		{ 0x10000, 0x1800 }, { 0x11800, 0x1800 },
	};
	static const struct sg_shape small[] = {
		{ 0x10000, 0x800 }, { 0x10800, 0x400 },
	};
	static const u64 want[] = { 0x10000, 0x11000, 0x12000 };
	struct page_list pl;

	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 2, NULL, 16), 2);
	expect_pages(test, &pl, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0x3000ULL);

	/* the second entry within the first's page adds no page at all */
	KUNIT_EXPECT_EQ(test, sg_map(&pl, small, 2, NULL, 16), 2);
	expect_pages(test, &pl, want, 1);
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0xc00ULL);
}

/* A full page list stops the mapping; what is reported then. */
static void sg_full_test(struct kunit *test)
{
	static const struct sg_shape shape[] = {
		{ 0x10000, 0x1000 }, { 0x20000, 0x3000 },
	};
	static const struct sg_shape big[] = { { 0x10000, 0x3000 } };
	struct page_list pl;
	unsigned int off = 0;

	/* stops in entry 1: one entry mapped, resume in entry 1 at 0 */
	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 2, &off, 2), 1);
	KUNIT_EXPECT_EQ(test, pl.n, 2);
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0x1000ULL);
	KUNIT_EXPECT_EQ(test, off, 0U);

	/* no room at all: the driver's error */
	KUNIT_EXPECT_EQ(test, sg_map(&pl, shape, 2, &off, 0), -ENOMEM);
	KUNIT_EXPECT_EQ(test, off, 0U);
	/* the same inside the first entry, as in 6.1 */
	KUNIT_EXPECT_EQ(test, sg_map(&pl, big, 1, &off, 1), -ENOMEM);
	KUNIT_EXPECT_EQ(test, pl.mr.length, 0ULL);

	/* with an offset, nothing mapped is 0 and the offset is kept */
	off = 0x100;
	KUNIT_EXPECT_EQ(test, sg_map(&pl, big, 1, &off, 0), 0);
	KUNIT_EXPECT_EQ(test, off, 0x100U);
}

/* ---- Mapping through the driver ------------------------------------------ */

static void map_mr_sg_test(struct kunit *test)
{
	static const struct sg_shape shape[] = {
		{ 0x10800, 0x800 }, { 0x11000, 0x2000 },
	};
	struct mr_test *t = tst(test);
	struct scatterlist sgl[2];
	struct ib_mr *mr;

	mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, 8);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	sg_build(sgl, shape, 2);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sgl, 2, NULL, SZ_4K), 2);
	KUNIT_EXPECT_EQ(test, mr->page_size, SZ_4K);
	KUNIT_EXPECT_EQ(test, mock_ibdev_mr_npages(mr), 3U);
	KUNIT_EXPECT_EQ(test, mock_ibdev_mr_page(mr, 2), 0x12000ULL);
	KUNIT_EXPECT_EQ(test, mr->iova, 0x10800ULL);
	KUNIT_EXPECT_EQ(test, mr->length, 0x2800ULL);

	/* zero based: same pages, iova 0 */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_zbva(mr, sgl, 2, NULL, SZ_4K), 2);
	KUNIT_EXPECT_EQ(test, mr->iova, 0ULL);

	/* larger pages, fewer of them */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sgl, 2, NULL, SZ_64K), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_mr_npages(mr), 1U);
	KUNIT_EXPECT_EQ(test, mock_ibdev_mr_page(mr, 0), 0x10000ULL);

	t->mdev->ibdev.ops.map_mr_sg = NULL;
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sgl, 2, NULL, SZ_4K),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

static void map_mr_sg_pi_test(struct kunit *test)
{
	static const struct sg_shape shape[] = { { 0x10000, 0x1000 } };
	struct mr_test *t = tst(test);
	struct scatterlist sgl[1];
	struct ib_mr *mr;

	mr = ib_alloc_mr_integrity(t->pd, 4, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	sg_build(sgl, shape, 1);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(mr, sgl, 1, NULL, NULL, 0, NULL,
					      SZ_4K), 0);
	KUNIT_EXPECT_EQ(test, mr->page_size, SZ_4K);
	mock_ibdev_fail(t->mdev, MOCK_MAP_MR_SG_PI, -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(mr, sgl, 1, NULL, NULL, 0, NULL,
					      SZ_4K), -EINVAL);
	t->mdev->ibdev.ops.map_mr_sg_pi = NULL;
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(mr, sgl, 1, NULL, NULL, 0, NULL,
					      SZ_4K), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

static struct kunit_case ib_core_mr_cases[] = {
	KUNIT_CASE(alloc_mr_test),
	KUNIT_CASE(alloc_mr_errors_test),
	KUNIT_CASE(alloc_mr_integrity_test),
	KUNIT_CASE(alloc_mr_integrity_errors_test),
	KUNIT_CASE(dereg_error_test),
	KUNIT_CASE(reg_user_mr_test),
	KUNIT_CASE(reg_user_mr_errors_test),
	KUNIT_CASE(advise_mr_test),
	KUNIT_CASE(check_mr_status_test),
	KUNIT_CASE(sg_aligned_test),
	KUNIT_CASE(sg_unaligned_ends_test),
	KUNIT_CASE(sg_offset_test),
	KUNIT_CASE(sg_empty_test),
	KUNIT_CASE(sg_gap_test),
	KUNIT_CASE(sg_contiguous_test),
	KUNIT_CASE(sg_full_test),
	KUNIT_CASE(map_mr_sg_test),
	KUNIT_CASE(map_mr_sg_pi_test),
	{}
};

static struct kunit_suite ib_core_mr_suite = {
	.name = "ib_core_mr",
	.init = mr_test_init,
	.exit = mr_test_exit,
	.test_cases = ib_core_mr_cases,
};

kunit_test_suite(ib_core_mr_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core memory regions");
MODULE_LICENSE("GPL");
