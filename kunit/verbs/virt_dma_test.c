// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_virt_dma: ib_dma_virt_map_sg() of core/verbs/virt_dma.c. */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

/* Every entry's DMA address is its kernel address, its DMA length its length. */
static void expect_virt_mapped(struct kunit *test, struct scatterlist *sgl,
			       int nents)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		KUNIT_EXPECT_EQ_MSG(test, sg_dma_address(sg),
				    (dma_addr_t)(uintptr_t)sg_virt(sg),
				    "entry %d", i);
		KUNIT_EXPECT_EQ_MSG(test, sg_dma_len(sg), sg->length,
				    "entry %d", i);
	}
}

/* Buffers of different sizes and offsets, kmalloc'd and page based. */
static void map_buffers_test(struct kunit *test)
{
	struct scatterlist sgl[3];
	struct page *page;
	char *buf;

	buf = kunit_kzalloc(test, 300, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);

	sg_init_table(sgl, 3);
	sg_set_buf(&sgl[0], buf, 100);
	sg_set_buf(&sgl[1], buf + 150, 150);
	sg_set_page(&sgl[2], page, 512, 1000);
	KUNIT_EXPECT_EQ(test, ib_dma_virt_map_sg(NULL, sgl, 3), 3);
	expect_virt_mapped(test, sgl, 3);
	KUNIT_EXPECT_EQ(test, sg_dma_address(&sgl[1]),
			(dma_addr_t)(uintptr_t)(buf + 150));
	KUNIT_EXPECT_EQ(test, sg_dma_address(&sgl[2]),
			(dma_addr_t)(uintptr_t)page_address(page) + 1000);
	__free_page(page);
}

/* Only the first @nents entries are touched. */
static void map_prefix_test(struct kunit *test)
{
	struct scatterlist sgl[2];
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	sg_init_table(sgl, 2);
	sg_set_buf(&sgl[0], buf, 32);
	sg_set_buf(&sgl[1], buf + 32, 32);
	sg_dma_address(&sgl[1]) = 0x1234;
	KUNIT_EXPECT_EQ(test, ib_dma_virt_map_sg(NULL, sgl, 1), 1);
	expect_virt_mapped(test, sgl, 1);
	KUNIT_EXPECT_EQ(test, sg_dma_address(&sgl[1]), (dma_addr_t)0x1234);
}

/* A table too long for one chunk is chained; the walk follows the chain. */
static void map_chained_test(struct kunit *test)
{
	const unsigned int nents = SG_MAX_SINGLE_ALLOC + 10;
	struct scatterlist *sg;
	struct sg_table sgt;
	char *buf;
	int i;

	buf = kunit_kzalloc(test, nents * 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&sgt, nents, GFP_KERNEL), 0);
	for_each_sgtable_sg(&sgt, sg, i)
		sg_set_buf(sg, buf + i * 8, 8);
	KUNIT_EXPECT_EQ(test, ib_dma_virt_map_sg(NULL, sgt.sgl, nents),
			(int)nents);
	expect_virt_mapped(test, sgt.sgl, nents);
	sg_free_table(&sgt);
}

static struct kunit_case ib_core_virt_dma_cases[] = {
	KUNIT_CASE(map_buffers_test),
	KUNIT_CASE(map_prefix_test),
	KUNIT_CASE(map_chained_test),
	{}
};

static struct kunit_suite ib_core_virt_dma_suite = {
	.name = "ib_core_virt_dma",
	.test_cases = ib_core_virt_dma_cases,
};

kunit_test_suite(ib_core_virt_dma_suite);

MODULE_DESCRIPTION("KUnit tests for ib_core's DMA mapping of software devices");
MODULE_LICENSE("GPL");
