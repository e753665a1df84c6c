// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_umem: ib_umem's argument checks, page-size choice, block
 * walks and copies (core/umem/).
 */
/*
 * Pinning needs a user address space, which a KUnit thread has not; the
 * integration test tests/111 pins. Here the umems are built by hand: a
 * table of kernel pages whose DMA addresses the test sets, which is all
 * ib_umem_find_best_pgsz() and the block walk look at.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#include "core/umem/umem.h"

/* A hand-made umem: @n runs, run i of lens[i] bytes at DMA address dma[i]. */
struct fake_umem {
	struct ib_umem umem;
	struct page *pages[4];
};

static struct ib_umem *fake_umem(struct kunit *test, unsigned long address,
				 size_t length, const u64 *dma,
				 const u32 *lens, unsigned int n)
{
	struct fake_umem *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct sg_table *sgt;
	struct scatterlist *sg;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	sgt = &f->umem.sgt_append.sgt;
	KUNIT_ASSERT_EQ(test, sg_alloc_table(sgt, n, GFP_KERNEL), 0);
	for_each_sgtable_sg(sgt, sg, i) {
		f->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, f->pages[i]);
		/* the CPU side: one page per entry, whatever the DMA length */
		sg_set_page(sg, f->pages[i], PAGE_SIZE, 0);
		sg_dma_address(sg) = dma[i];
		sg_dma_len(sg) = lens[i];
	}
	sgt->nents = n;
	f->umem.address = address;
	f->umem.iova = address;
	f->umem.length = length;
	return &f->umem;
}

static void fake_umem_free(struct ib_umem *umem)
{
	struct fake_umem *f = container_of(umem, struct fake_umem, umem);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(f->pages); i++)
		if (f->pages[i])
			__free_page(f->pages[i]);
	sg_free_table(&umem->sgt_append.sgt);
}

/* ---- Argument checks ---------------------------------------------------- */

static void umem_range_pages_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, umem_range_pages(0x1000, 0), 0UL);
	KUNIT_EXPECT_EQ(test, umem_range_pages(0x1000, 1), 1UL);
	KUNIT_EXPECT_EQ(test, umem_range_pages(0x1000, PAGE_SIZE), 1UL);
	KUNIT_EXPECT_EQ(test, umem_range_pages(0x1fff, 2), 2UL);
	KUNIT_EXPECT_EQ(test, umem_range_pages(0x1010, 3 * PAGE_SIZE), 4UL);
	/* the sum wraps */
	KUNIT_EXPECT_EQ(test, umem_range_pages(ULONG_MAX - 10, 20), 0UL);
	/* the sum fits, its page-aligned end does not */
	KUNIT_EXPECT_EQ(test, umem_range_pages(ULONG_MAX - 10, 5), 0UL);
	/* ending exactly on the last page boundary still fits */
	KUNIT_EXPECT_EQ(test, umem_range_pages(ULONG_MAX - 2 * PAGE_SIZE + 1,
					       PAGE_SIZE), 1UL);
}

struct get_case {
	const char *name;
	unsigned long addr;
	size_t size;
	int access;
	int err;
};

static const struct get_case get_cases[] = {
	{ "addr+size wraps", ULONG_MAX - 4095, 8192, IB_ACCESS_LOCAL_WRITE,
	  -EINVAL },
	{ "page-aligned end wraps", ULONG_MAX - 100, 50, 0, -EINVAL },
	{ "huge size wraps", 0x10000, SIZE_MAX, 0, -EINVAL },
	{ "on-demand paging", 0x10000, 4096, IB_ACCESS_ON_DEMAND, -EOPNOTSUPP },
	{ "zero length", 0x10000, 0, IB_ACCESS_LOCAL_WRITE, -EINVAL },
	/* the checks passed: a kernel thread has no user memory */
	{ "no address space", 0x10000, 4096, IB_ACCESS_LOCAL_WRITE, -EFAULT },
};

static void get_case_desc(const struct get_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(get, get_cases, get_case_desc);

static void umem_get_errors_test(struct kunit *test)
{
	const struct get_case *c = test->param_value;
	struct ib_umem *umem;

	KUNIT_ASSERT_NULL(test, current->mm);
	umem = ib_umem_get(NULL, c->addr, c->size, c->access);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(umem), (long)c->err);
}

static void umem_release_null_test(struct kunit *test)
{
	ib_umem_release(NULL);
	KUNIT_SUCCEED(test);
}

/* ---- Page-size choice --------------------------------------------------- */

#define PG_4K_2M_1G	(SZ_4K | SZ_2M | SZ_1G)

struct pgsz_case {
	const char *name;
	unsigned long address;
	size_t length;
	u64 virt;
	unsigned long bitmap;
	unsigned int n;
	u64 dma[3];
	u32 lens[3];
	unsigned long want;
};

static const struct pgsz_case pgsz_cases[] = {
	{ "4 MiB contiguous, aligned: 2M", 0x7f0000400000, SZ_4M, 0x400000,
	  PG_4K_2M_1G, 1, { 0x80000000 }, { SZ_4M }, SZ_2M },
	{ "iova 4K off the physical alignment: 4K", 0x7f0000400000, SZ_4M,
	  0x401000, PG_4K_2M_1G, 1, { 0x80000000 }, { SZ_4M }, SZ_4K },
	{ "two runs, the second not 2M-aligned in iova: 4K", 0x7f0000400000,
	  SZ_2M + SZ_4K, 0x400000, PG_4K_2M_1G, 2,
	  { 0x80000000, 0x90001000 }, { SZ_2M - SZ_4K, 2 * SZ_4K }, SZ_4K },
	{ "two runs, both 2M-aligned: 2M", 0x7f0000400000, SZ_4M, 0x400000,
	  PG_4K_2M_1G, 2, { 0x80000000, 0x90000000 }, { SZ_2M, SZ_2M }, SZ_2M },
	{ "8K in one 8K block: 8K, not 2M", 0x7f0000200000, SZ_8K, 0x200000,
	  SZ_4K | SZ_8K | SZ_2M, 1, { 0x80200000 }, { SZ_8K }, SZ_8K },
	{ "8K in one block, no 8K size: 2M", 0x7f0000200000, SZ_8K, 0x200000,
	  SZ_4K | SZ_2M, 1, { 0x80200000 }, { SZ_8K }, SZ_2M },
	{ "offset into the first page carried to the iova", 0x7f0000200100,
	  SZ_4K, 0x4100, SZ_4K | SZ_8K, 1, { 0x80004000 }, { SZ_8K }, SZ_8K },
	{ "no supported size fits", 0x7f0000400000, SZ_4M, 0x401000, SZ_2M, 1,
	  { 0x80000000 }, { SZ_4M }, 0 },
	{ "contiguous entries make one run", 0x7f0000400000, SZ_4M, 0x400000,
	  PG_4K_2M_1G, 3, { 0x80000000, 0x80001000, 0x80200000 },
	  { SZ_4K, SZ_2M - SZ_4K, SZ_2M }, SZ_2M },
	{ "iova + length wraps", 0x7f0000400000, SZ_4M, U64_MAX - SZ_4K,
	  PG_4K_2M_1G, 1, { 0x80000000 }, { SZ_4M }, 0 },
};

static void pgsz_case_desc(const struct pgsz_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pgsz, pgsz_cases, pgsz_case_desc);

static void umem_find_best_pgsz_test(struct kunit *test)
{
	const struct pgsz_case *c = test->param_value;
	struct ib_umem *umem = fake_umem(test, c->address, c->length, c->dma,
					 c->lens, c->n);

	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, c->bitmap, c->virt),
			c->want);
	KUNIT_EXPECT_EQ(test, umem->iova, c->virt);
	fake_umem_free(umem);
}

static void umem_num_blocks_test(struct kunit *test)
{
	static const u64 dma[] = { 0x80000000 };
	static const u32 lens[] = { 3 * SZ_4K };
	struct ib_umem *umem = fake_umem(test, 0x7f0000000100, 2 * SZ_4K,
					 dma, lens, 1);

	KUNIT_EXPECT_EQ(test, ib_umem_offset(umem), 0x100);
	/* 0x100 .. 0x2100: three 4K pages, one 16K block, two 8K blocks */
	KUNIT_EXPECT_EQ(test, ib_umem_num_pages(umem), (size_t)3);
	umem->iova = 0x100;
	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, SZ_16K), (size_t)1);
	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, SZ_8K), (size_t)2);
	KUNIT_EXPECT_EQ(test, ib_umem_dma_offset(umem, SZ_4K), 0x100UL);
	fake_umem_free(umem);
}

/* ---- Block walks ---------------------------------------------------------- */

static void block_iter_test(struct kunit *test)
{
	/* run 1: 12K at 0x80001000; run 2: 4K at 0x90000000 */
	static const u64 dma[] = { 0x80001000, 0x90000000 };
	static const u32 lens[] = { 3 * SZ_4K, SZ_4K };
	static const u64 want4k[] = { 0x80001000, 0x80002000, 0x80003000,
				      0x90000000 };
	static const u64 want8k[] = { 0x80000000, 0x80002000, 0x90000000 };
	struct ib_umem *umem = fake_umem(test, 0x7f0000001000, 4 * SZ_4K, dma,
					 lens, 2);
	struct ib_block_iter biter;
	unsigned int n = 0;

	rdma_for_each_block(umem->sgt_append.sgt.sgl, &biter, 2, SZ_4K) {
		KUNIT_ASSERT_LT(test, n, ARRAY_SIZE(want4k));
		KUNIT_EXPECT_EQ(test, rdma_block_iter_dma_address(&biter),
				(dma_addr_t)want4k[n]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, (unsigned int)ARRAY_SIZE(want4k));

	/* 8K blocks: the first starts below the run, aligned down */
	n = 0;
	rdma_for_each_block(umem->sgt_append.sgt.sgl, &biter, 2, SZ_8K) {
		KUNIT_ASSERT_LT(test, n, ARRAY_SIZE(want8k));
		KUNIT_EXPECT_EQ(test, rdma_block_iter_dma_address(&biter),
				(dma_addr_t)want8k[n]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, (unsigned int)ARRAY_SIZE(want8k));
	fake_umem_free(umem);
}

static void umem_block_iter_test(struct kunit *test)
{
	/* 4000 bytes from 0x...0f00 in one run: two pages */
	static const u64 dma[] = { 0x80000000 };
	static const u32 lens[] = { 3 * SZ_4K };
	struct ib_umem *umem = fake_umem(test, 0x7f0000000f00, 4000, dma,
					 lens, 1);
	struct ib_block_iter biter;
	unsigned int n = 0;

	umem->iova = 0x0f00;
	rdma_umem_for_each_dma_block(umem, &biter, SZ_4K) {
		KUNIT_EXPECT_EQ(test, rdma_block_iter_dma_address(&biter),
				(dma_addr_t)(0x80000000 + n * SZ_4K));
		n++;
	}
	/* exactly ib_umem_num_dma_blocks(), though the entry is longer */
	KUNIT_EXPECT_EQ(test, n, 2U);
	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, SZ_4K), (size_t)2);
	fake_umem_free(umem);
}

/* ---- Copies --------------------------------------------------------------- */

static void umem_copy_from_test(struct kunit *test)
{
	static const u64 dma[] = { 0x80000000, 0x90000000 };
	static const u32 lens[] = { SZ_4K, SZ_4K };
	struct ib_umem *umem = fake_umem(test, 0x7f0000000800,
					 2 * PAGE_SIZE - 0x800, dma, lens, 2);
	struct fake_umem *f = container_of(umem, struct fake_umem, umem);
	u8 *out = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 *p0, *p1;

	KUNIT_ASSERT_NOT_NULL(test, out);
	p0 = page_address(f->pages[0]);
	p1 = page_address(f->pages[1]);
	memset(p0, 0xaa, PAGE_SIZE);
	memset(p1, 0xbb, PAGE_SIZE);
	p0[0x800] = 1;	/* the umem's first byte */

	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(out, umem, 0, 4), 0);
	KUNIT_EXPECT_EQ(test, out[0], 1);
	KUNIT_EXPECT_EQ(test, out[1], 0xaa);
	/* across the page boundary: 0x7fe bytes into the umem is the end of page 0 */
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(out, umem, PAGE_SIZE - 0x800 - 2,
						4), 0);
	KUNIT_EXPECT_EQ(test, out[1], 0xaa);
	KUNIT_EXPECT_EQ(test, out[2], 0xbb);
	/* the last byte, then past it */
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(out, umem, umem->length - 1, 1),
			0);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(out, umem, umem->length - 1, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(out, umem, umem->length + 1, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(out, umem, 1, SIZE_MAX),
			-EINVAL);
	fake_umem_free(umem);
}

static struct kunit_case umem_cases[] = {
	KUNIT_CASE(umem_range_pages_test),
	KUNIT_CASE_PARAM(umem_get_errors_test, get_gen_params),
	KUNIT_CASE(umem_release_null_test),
	KUNIT_CASE_PARAM(umem_find_best_pgsz_test, pgsz_gen_params),
	KUNIT_CASE(umem_num_blocks_test),
	KUNIT_CASE(block_iter_test),
	KUNIT_CASE(umem_block_iter_test),
	KUNIT_CASE(umem_copy_from_test),
	{}
};

static struct kunit_suite umem_suite = {
	.name = "ib_core_umem",
	.test_cases = umem_cases,
};

kunit_test_suite(umem_suite);

MODULE_DESCRIPTION("KUnit: ib_umem");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
