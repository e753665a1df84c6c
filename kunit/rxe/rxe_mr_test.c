// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite rxe_mr: memory keys, MRs, MWs, copies and atomics of sw/rxe/rxe_mr.c and rxe_mw.c. */
/*
 * No device is registered: each case gets a struct rxe_dev made by hand
 * (its key table and limits), two PDs, a QP on the first one, and a
 * fast-registration MR over three pages the test allocates, loaded the way
 * ib_map_mr_sg() does it (DMA addresses are kernel addresses on this
 * device) and registered at an iova of the test's choosing.
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "sw/rxe/rxe_ops.h"
#include "sw/rxe/rxe_qp.h"
#include "sw/rxe/rxe_mr.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NPAGES		3
#define FIRST_OFF	100			/* region starts here in page 0 */
#define LAST_LEN	200			/* and uses this much of page 2 */
#define REGION_LEN	(2 * PAGE_SIZE - FIRST_OFF + LAST_LEN)
/*
 * What the "ULP" registers at: any iova works for copies; this one keeps
 * the kernel address's alignment, so aligned atomics are aligned in memory.
 */
#define REGION_IOVA	(0x100000000ull + FIRST_OFF)
#define ALL_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ | \
			 IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)

struct mr_test {
	struct rxe_dev *rxe;
	struct rxe_pd *pd;
	struct rxe_pd *pd2;
	struct rxe_qp *qp;
	struct rxe_qp *qp2;	/* on pd2 */
	struct page *page[NPAGES];
	struct ib_mr *mr;	/* page list over @page, not yet valid */
};

/* Kernel address of byte @i of the test region. */
static u8 *region_byte(struct mr_test *t, u64 i)
{
	u64 off = FIRST_OFF + i;

	return (u8 *)page_address(t->page[off >> PAGE_SHIFT]) +
	       (off & ~PAGE_MASK);
}

static struct rxe_qp *mr_test_qp(struct kunit *test, struct rxe_dev *rxe,
				 struct rxe_pd *pd, u32 qpn)
{
	struct rxe_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->rxe = rxe;
	qp->ibqp.device = &rxe->ib_dev;
	qp->ibqp.pd = &pd->ibpd;
	qp->ibqp.qp_num = qpn;
	qp->ibqp.qp_type = IB_QPT_RC;
	return qp;
}

static struct rxe_pd *mr_test_pd(struct kunit *test, struct rxe_dev *rxe)
{
	struct rxe_pd *pd = kunit_kzalloc(test, sizeof(*pd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pd);
	pd->ibpd.device = &rxe->ib_dev;
	return pd;
}

/* Load the pages into t->mr as ib_map_mr_sg() would. */
static void mr_test_map(struct kunit *test, struct mr_test *t)
{
	static const u32 off[NPAGES] = { FIRST_OFF, 0, 0 };
	static const u32 len[NPAGES] = { PAGE_SIZE - FIRST_OFF, PAGE_SIZE,
					 LAST_LEN };
	struct scatterlist sg[NPAGES];
	int i;

	sg_init_table(sg, NPAGES);
	for (i = 0; i < NPAGES; i++) {
		sg_set_page(&sg[i], t->page[i], len[i], off[i]);
		sg_dma_address(&sg[i]) = (uintptr_t)sg_virt(&sg[i]);
		sg_dma_len(&sg[i]) = len[i];
	}
	t->mr->page_size = PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, rxe_mr_map_sg(t->mr, sg, NPAGES, NULL), NPAGES);
	KUNIT_ASSERT_EQ(test, t->mr->length, (u64)REGION_LEN);
	KUNIT_ASSERT_EQ(test, to_rmr(t->mr)->npages, (u32)NPAGES);
	/* the ULP may choose any iova before registering */
	t->mr->iova = REGION_IOVA;
}

static int mr_test_init(struct kunit *test)
{
	struct mr_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->rxe = kunit_kzalloc(test, sizeof(*t->rxe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->rxe);
	xa_init_flags(&t->rxe->key_xa, XA_FLAGS_ALLOC);
	t->rxe->attr.max_mr = 4;
	t->rxe->attr.max_mw = 2;
	t->pd = mr_test_pd(test, t->rxe);
	t->pd2 = mr_test_pd(test, t->rxe);
	t->qp = mr_test_qp(test, t->rxe, t->pd, 17);
	t->qp2 = mr_test_qp(test, t->rxe, t->pd2, 18);
	for (i = 0; i < NPAGES; i++) {
		t->page[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, t->page[i]);
	}
	t->mr = rxe_mr_alloc(&t->pd->ibpd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->mr));
	t->mr->device = &t->rxe->ib_dev;
	mr_test_map(test, t);
	return 0;
}

static void mr_test_exit(struct kunit *test)
{
	struct mr_test *t = test->priv;
	int i;

	if (t->mr && !IS_ERR(t->mr))
		KUNIT_EXPECT_EQ(test, rxe_mr_dereg(t->mr, NULL), 0);
	for (i = 0; i < NPAGES; i++)
		if (t->page[i])
			__free_page(t->page[i]);
	KUNIT_EXPECT_TRUE(test, xa_empty(&t->rxe->key_xa));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->rxe->num_mr), 0);
	xa_destroy(&t->rxe->key_xa);
}

/* Register t->mr under a new variant byte @variant with @access. */
static u32 mr_test_reg(struct kunit *test, struct mr_test *t, u8 variant,
		       int access)
{
	ib_update_fast_reg_key(t->mr, variant);
	KUNIT_ASSERT_EQ(test, rxe_mr_fast_reg(t->qp, t->mr, t->mr->lkey,
					      access), 0);
	return t->mr->lkey;
}

static void rxe_mr_test_copy_pages(struct kunit *test)
{
	struct mr_test *t = test->priv;
	struct rxe_mr *mr = to_rmr(t->mr);
	u32 len = PAGE_SIZE + 300;
	u8 *in, *out;
	u32 i;

	in = kunit_kmalloc(test, REGION_LEN, GFP_KERNEL);
	out = kunit_kzalloc(test, REGION_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < REGION_LEN; i++)
		in[i] = i * 7 + 3;
	mr_test_reg(test, t, 1, ALL_ACCESS);

	/* from inside page 0 across page 1 into page 2 */
	KUNIT_ASSERT_EQ(test, rxe_mr_copy(mr, REGION_IOVA + 50, in, len,
					  RXE_TO_MEM), 0);
	for (i = 0; i < len; i++)
		KUNIT_ASSERT_EQ_MSG(test, *region_byte(t, 50 + i), in[i],
				    "byte %u", i);
	KUNIT_EXPECT_EQ(test, *region_byte(t, 49), 0);
	KUNIT_EXPECT_EQ(test, *region_byte(t, 50 + len), 0);

	KUNIT_ASSERT_EQ(test, rxe_mr_copy(mr, REGION_IOVA + 50, out, len,
					  RXE_FROM_MEM), 0);
	KUNIT_EXPECT_EQ(test, memcmp(in, out, len), 0);

	/* the whole region, exactly */
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, REGION_IOVA, in, REGION_LEN,
					  RXE_TO_MEM), 0);
	KUNIT_EXPECT_EQ(test, *region_byte(t, REGION_LEN - 1),
			in[REGION_LEN - 1]);
	KUNIT_EXPECT_EQ(test, *region_byte(t, 0), in[0]);
}

static void rxe_mr_test_copy_bounds(struct kunit *test)
{
	struct mr_test *t = test->priv;
	struct rxe_mr *mr = to_rmr(t->mr);
	u8 buf[16] = {};

	mr_test_reg(test, t, 2, ALL_ACCESS);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, REGION_IOVA - 1, buf, 1,
					  RXE_FROM_MEM), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, REGION_IOVA + REGION_LEN - 15,
					  buf, 16, RXE_FROM_MEM), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, REGION_IOVA + REGION_LEN - 16,
					  buf, 16, RXE_FROM_MEM), 0);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, U64_MAX - 3, buf, 8,
					  RXE_FROM_MEM), -EINVAL);
}

static void rxe_mr_test_fast_reg(struct kunit *test)
{
	struct mr_test *t = test->priv;
	u32 key = t->mr->lkey;

	/* the key index is the MR's; the PD must be the QP's */
	KUNIT_EXPECT_EQ(test, rxe_mr_fast_reg(t->qp, t->mr, key + 0x100,
					      ALL_ACCESS), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_mr_fast_reg(t->qp2, t->mr, key, ALL_ACCESS),
			-EINVAL);
	key = mr_test_reg(test, t, 3, ALL_ACCESS);
	KUNIT_EXPECT_EQ(test, key & 0xff, 3u);
	/* valid MRs are not registered again */
	KUNIT_EXPECT_EQ(test, rxe_mr_fast_reg(t->qp, t->mr, key, ALL_ACCESS),
			-EINVAL);
	/* invalidation wants the whole key and the same PD */
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, key ^ 1, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp2, key, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, key, false), 0);
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, 0x7fff00, false),
			-EINVAL);
	/* and then it is free again */
	mr_test_reg(test, t, 4, ALL_ACCESS);
}

/* rxe_rkey_get() must refuse; @what says which check. */
static void expect_refused(struct kunit *test, struct rxe_qp *qp, u32 rkey,
			   u64 va, u32 len, int access, const char *what)
{
	struct rxe_mr *mr = rxe_rkey_get(qp, rkey, va, len, access);

	KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(mr), "%s", what);
	if (IS_ERR(mr))
		KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EACCES);
	else
		rxe_mr_put(mr);
}

static void rxe_mr_test_rkey(struct kunit *test)
{
	struct mr_test *t = test->priv;
	u32 rkey = mr_test_reg(test, t, 0x5a,
			       IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ);
	struct rxe_mr *mr;

	mr = rxe_rkey_get(t->qp, rkey, REGION_IOVA + 8, 64,
			  IB_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_PTR_EQ(test, &mr->ibmr, t->mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->key.ref), 2u);
	rxe_mr_put(mr);

	expect_refused(test, t->qp, rkey ^ 0x01, REGION_IOVA, 8,
		       IB_ACCESS_REMOTE_READ, "variant");
	expect_refused(test, t->qp, rkey + 0x100, REGION_IOVA, 8,
		       IB_ACCESS_REMOTE_READ, "index");
	expect_refused(test, t->qp2, rkey, REGION_IOVA, 8,
		       IB_ACCESS_REMOTE_READ, "PD");
	expect_refused(test, t->qp, rkey, REGION_IOVA, 8,
		       IB_ACCESS_REMOTE_WRITE, "access");
	expect_refused(test, t->qp, rkey, REGION_IOVA - 8, 16,
		       IB_ACCESS_REMOTE_READ, "below");
	expect_refused(test, t->qp, rkey, REGION_IOVA + REGION_LEN - 8, 9,
		       IB_ACCESS_REMOTE_READ, "above");
	expect_refused(test, t->qp, rkey, U64_MAX - 4, 16,
		       IB_ACCESS_REMOTE_READ, "wrap");
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, rkey, true), 0);
	expect_refused(test, t->qp, rkey, REGION_IOVA, 8,
		       IB_ACCESS_REMOTE_READ, "invalidated");
	/* a peer cannot invalidate an MR it was never meant to reach */
	rkey = mr_test_reg(test, t, 0x5b, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, rkey, true), -EINVAL);
}

/* A DMA MR of @pd over kernel memory: its iovas are kernel addresses. */
static struct ib_mr *mr_test_dma(struct kunit *test, struct mr_test *t,
				 struct rxe_pd *pd, int access)
{
	struct ib_mr *mr = rxe_mr_get_dma(&pd->ibpd, access);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	mr->device = &t->rxe->ib_dev;
	KUNIT_EXPECT_EQ(test, mr->lkey, mr->rkey);
	return mr;
}

static void rxe_mr_test_sgl(struct kunit *test)
{
	struct mr_test *t = test->priv;
	u32 lkey = mr_test_reg(test, t, 7, ALL_ACCESS);
	struct ib_mr *dma = mr_test_dma(test, t, t->pd, IB_ACCESS_LOCAL_WRITE);
	struct ib_mr *ro = mr_test_dma(test, t, t->pd, 0);
	u8 *kbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 payload[96], back[96];
	struct ib_sge sge[3] = {
		{ .addr = REGION_IOVA + PAGE_SIZE - FIRST_OFF - 20,
		  .length = 40, .lkey = lkey },		/* crosses a page */
		{ .addr = 0, .length = 0, .lkey = 0 },	/* empty, skipped */
		{ .addr = (uintptr_t)kbuf, .length = 64, .lkey = dma->lkey },
	};
	struct rxe_dma cur = { .length = 104, .resid = 104, .num_sge = 3 };
	int i;

	KUNIT_ASSERT_NOT_NULL(test, kbuf);
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = 0xa0 + i;
	/* two "packets": 30 bytes, then 66 that span both SGEs */
	KUNIT_ASSERT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, payload, 30,
					   RXE_TO_MEM), 0);
	KUNIT_EXPECT_EQ(test, cur.resid, 74u);
	KUNIT_ASSERT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, payload + 30, 66,
					   RXE_TO_MEM), 0);
	KUNIT_EXPECT_EQ(test, cur.cur_sge, 2u);
	KUNIT_EXPECT_EQ(test, cur.sge_offset, 56u);
	KUNIT_EXPECT_EQ(test, cur.resid, 8u);
	for (i = 0; i < 40; i++)
		KUNIT_EXPECT_EQ(test, *region_byte(t, PAGE_SIZE - FIRST_OFF -
						   20 + i), payload[i]);
	KUNIT_EXPECT_EQ(test, memcmp(kbuf, payload + 40, 56), 0);
	/* the list is shorter than what is left to copy */
	KUNIT_EXPECT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, payload, 9,
					   RXE_TO_MEM), -ENOSPC);

	/* and back, from the start */
	cur = (struct rxe_dma){ .length = 104, .resid = 104, .num_sge = 3 };
	KUNIT_ASSERT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, back, 96,
					   RXE_FROM_MEM), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back, payload, 96), 0);

	/* no local write on the MR, a bad key, another PD, outside the MR */
	sge[0] = (struct ib_sge){ (uintptr_t)kbuf, 8, ro->lkey };
	cur = (struct rxe_dma){ .length = 8, .resid = 8, .num_sge = 1 };
	KUNIT_EXPECT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, payload, 8,
					   RXE_TO_MEM), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, back, 8,
					   RXE_FROM_MEM), 0);
	sge[0] = (struct ib_sge){ REGION_IOVA, 8, lkey ^ 0x80 };
	cur = (struct rxe_dma){ .length = 8, .resid = 8, .num_sge = 1 };
	KUNIT_EXPECT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, back, 8,
					   RXE_FROM_MEM), -EINVAL);
	sge[0].lkey = lkey;
	KUNIT_EXPECT_EQ(test, rxe_sgl_copy(t->pd2, &cur, sge, back, 8,
					   RXE_FROM_MEM), -EINVAL);
	sge[0].addr = REGION_IOVA + REGION_LEN - 4;
	KUNIT_EXPECT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, back, 8,
					   RXE_FROM_MEM), -EINVAL);
	/* SGEs shorter than the cursor's total */
	sge[0] = (struct ib_sge){ (uintptr_t)kbuf, 4, dma->lkey };
	cur = (struct rxe_dma){ .length = 8, .resid = 8, .num_sge = 1 };
	KUNIT_EXPECT_EQ(test, rxe_sgl_copy(t->pd, &cur, sge, back, 8,
					   RXE_FROM_MEM), -ENOSPC);

	KUNIT_EXPECT_EQ(test, rxe_mr_dereg(dma, NULL), 0);
	KUNIT_EXPECT_EQ(test, rxe_mr_dereg(ro, NULL), 0);
}

static void rxe_mr_test_atomic(struct kunit *test)
{
	struct mr_test *t = test->priv;
	u64 *word = kunit_kzalloc(test, 2 * sizeof(u64), GFP_KERNEL);
	struct ib_mr *dma = mr_test_dma(test, t, t->pd, ALL_ACCESS);
	u64 iova = REGION_IOVA + PAGE_SIZE - FIRST_OFF - 8;
	u64 *last_of_page0;
	u64 orig = 0;

	KUNIT_ASSERT_NOT_NULL(test, word);
	word[0] = 40;
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(to_rmr(dma), (uintptr_t)word + 4,
					    false, 1, 0, &orig), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(to_rmr(dma), (uintptr_t)word,
					    false, 2, 0, &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, 40ull);
	KUNIT_EXPECT_EQ(test, word[0], 42ull);
	/* compare-and-swap that fails leaves memory alone */
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(to_rmr(dma), (uintptr_t)word,
					    true, 7, 41, &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, 42ull);
	KUNIT_EXPECT_EQ(test, word[0], 42ull);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(to_rmr(dma), (uintptr_t)word,
					    true, 7, 42, &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, 42ull);
	KUNIT_EXPECT_EQ(test, word[0], 7ull);
	KUNIT_EXPECT_EQ(test, rxe_mr_dereg(dma, NULL), 0);

	/* the last word of page 0 through the page list */
	mr_test_reg(test, t, 9, ALL_ACCESS);
	last_of_page0 = (u64 *)region_byte(t, PAGE_SIZE - FIRST_OFF - 8);
	*last_of_page0 = U64_MAX;
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(to_rmr(t->mr), iova, false, 1, 0,
					    &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, U64_MAX);
	KUNIT_EXPECT_EQ(test, *last_of_page0, 0ull);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(to_rmr(t->mr), iova + 4, false, 1,
					    0, &orig), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(to_rmr(t->mr),
					    REGION_IOVA + REGION_LEN, false, 1,
					    0, &orig), -EINVAL);
}

static void rxe_mr_test_alloc_limits(struct kunit *test)
{
	struct mr_test *t = test->priv;
	struct ib_mr *mr[3];
	int i;

	KUNIT_EXPECT_EQ(test, PTR_ERR(rxe_mr_alloc(&t->pd->ibpd,
						   IB_MR_TYPE_MEM_REG,
						   RXE_MAX_FMR_PAGES + 1)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rxe_mr_alloc(&t->pd->ibpd,
						   IB_MR_TYPE_SG_GAPS, 4)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rxe_mr_alloc(&t->pd->ibpd,
						   IB_MR_TYPE_INTEGRITY, 4)),
			-EOPNOTSUPP);
	/* max_mr is 4 and the fixture holds one */
	for (i = 0; i < 3; i++)
		mr[i] = mr_test_dma(test, t, t->pd, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rxe_mr_get_dma(&t->pd->ibpd, 0)),
			-ENOMEM);
	/* every MR has its own index */
	KUNIT_EXPECT_NE(test, mr[0]->lkey >> 8, mr[1]->lkey >> 8);
	KUNIT_EXPECT_NE(test, mr[1]->lkey >> 8, mr[2]->lkey >> 8);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, rxe_mr_dereg(mr[i], NULL), 0);
}

/* A memory window of @type on t->pd, as the core would allocate it. */
static struct ib_mw *mr_test_mw(struct kunit *test, struct mr_test *t,
				enum ib_mw_type type)
{
	struct rxe_mw *mw = kunit_kzalloc(test, sizeof(*mw), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->ibmw.device = &t->rxe->ib_dev;
	mw->ibmw.pd = &t->pd->ibpd;
	mw->ibmw.type = type;
	KUNIT_ASSERT_EQ(test, rxe_mw_alloc(&mw->ibmw, NULL), 0);
	return &mw->ibmw;
}

static void rxe_mr_test_mw(struct kunit *test)
{
	struct mr_test *t = test->priv;
	struct ib_mw *mw2 = mr_test_mw(test, t, IB_MW_TYPE_2);
	struct ib_mw *mw1 = mr_test_mw(test, t, IB_MW_TYPE_1);
	u64 va = REGION_IOVA + 0x100;
	u32 rkey2 = ib_inc_rkey(mw2->rkey);
	u32 rkey1 = ib_inc_rkey(mw1->rkey);
	struct rxe_mr *mr;

	/* the MR must allow binding */
	mr_test_reg(test, t, 1, ALL_ACCESS);
	KUNIT_EXPECT_EQ(test, rxe_mw_bind(t->qp, mw2, t->mr, rkey2, va, 64,
					  IB_ACCESS_REMOTE_READ), -EACCES);
	KUNIT_ASSERT_EQ(test, rxe_key_invalidate(t->qp, t->mr->lkey, false), 0);
	mr_test_reg(test, t, 2, IB_ACCESS_REMOTE_READ | IB_ACCESS_MW_BIND);

	/* writes and atomics need a writable MR (C10-74), inside the MR */
	KUNIT_EXPECT_EQ(test, rxe_mw_bind(t->qp, mw2, t->mr, rkey2, va, 64,
					  IB_ACCESS_REMOTE_WRITE), -EACCES);
	KUNIT_EXPECT_EQ(test, rxe_mw_bind(t->qp, mw2, t->mr, rkey2, va, 64,
					  IB_ACCESS_REMOTE_ATOMIC), -EACCES);
	KUNIT_EXPECT_EQ(test, rxe_mw_bind(t->qp, mw2, t->mr, rkey2,
					  REGION_IOVA + REGION_LEN - 8, 64,
					  IB_ACCESS_REMOTE_READ), -EINVAL);
	KUNIT_ASSERT_EQ(test, rxe_mw_bind(t->qp, mw2, t->mr, rkey2, va, 64,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, mw2->rkey, rkey2);
	/* bound type 2 windows are not bound again */
	KUNIT_EXPECT_EQ(test, rxe_mw_bind(t->qp, mw2, t->mr, rkey2, va, 64,
					  IB_ACCESS_REMOTE_READ), -EINVAL);
	/* the MR stays while the window is bound */
	KUNIT_EXPECT_EQ(test, rxe_mr_dereg(t->mr, NULL), -EBUSY);

	mr = rxe_rkey_get(t->qp, rkey2, va + 8, 56, IB_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_PTR_EQ(test, &mr->ibmr, t->mr);
	rxe_mr_put(mr);
	expect_refused(test, t->qp, rkey2, va + 8, 57, IB_ACCESS_REMOTE_READ,
		       "past the window");
	expect_refused(test, t->qp, rkey2, va, 8, IB_ACCESS_REMOTE_WRITE,
		       "window access");
	expect_refused(test, t->qp, rkey2 ^ 0x10, va, 8,
		       IB_ACCESS_REMOTE_READ, "window variant");
	/* type 2 windows belong to their QP */
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp2, rkey2, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, rkey2, true), 0);
	expect_refused(test, t->qp, rkey2, va, 8, IB_ACCESS_REMOTE_READ,
		       "window invalidated");

	/* type 1: bound to the PD, rebound at will, unbound by length 0 */
	KUNIT_ASSERT_EQ(test, rxe_mw_bind(t->qp, mw1, t->mr, rkey1, va, 64,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_ASSERT_EQ(test, rxe_mw_bind(t->qp, mw1, t->mr, rkey1, va, 128,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_rmr(t->mr)->num_mw), 1);
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, rkey1, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_mw_bind(t->qp, mw1, NULL, rkey1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to_rmr(t->mr)->num_mw), 0);
	expect_refused(test, t->qp, rkey1, va, 8, IB_ACCESS_REMOTE_READ,
		       "type 1 unbound");

	/* invalidating the MR closes the windows on it */
	KUNIT_ASSERT_EQ(test, rxe_mw_bind(t->qp, mw1, t->mr, rkey1, va, 64,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, rxe_key_invalidate(t->qp, t->mr->lkey, false), 0);
	expect_refused(test, t->qp, rkey1, va, 8, IB_ACCESS_REMOTE_READ,
		       "MR invalidated");
	KUNIT_EXPECT_EQ(test, refcount_read(&to_rmr(t->mr)->key.ref), 2u);

	/* a writable MR lends remote writes it does not grant itself */
	mr_test_reg(test, t, 3, IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND);
	KUNIT_ASSERT_EQ(test, rxe_mw_bind(t->qp, mw1, t->mr, rkey1, va, 64,
					  IB_ACCESS_REMOTE_WRITE |
					  IB_ACCESS_REMOTE_ATOMIC), 0);
	mr = rxe_rkey_get(t->qp, rkey1, va, 8, IB_ACCESS_REMOTE_WRITE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	rxe_mr_put(mr);
	KUNIT_EXPECT_EQ(test, rxe_mw_bind(t->qp, mw1, NULL, rkey1, 0, 0, 0), 0);

	KUNIT_EXPECT_EQ(test, rxe_mw_dealloc(mw1), 0);
	KUNIT_EXPECT_EQ(test, rxe_mw_dealloc(mw2), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->rxe->num_mw), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&to_rmr(t->mr)->key.ref), 1u);
}

/* Only user MRs can be reregistered; a refused rereg changes nothing. */
static void rxe_mr_test_rereg_kernel_mr(struct kunit *test)
{
	struct mr_test *t = test->priv;
	u32 rkey = mr_test_reg(test, t, 1, ALL_ACCESS);
	struct ib_mr *ret;

	ret = rxe_mr_rereg_user(t->mr, IB_MR_REREG_PD | IB_MR_REREG_ACCESS, 0,
				0, 0, IB_ACCESS_LOCAL_WRITE, &t->pd2->ibpd,
				NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ret), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, to_rmr(t->mr)->pd, t->pd);
	KUNIT_EXPECT_EQ(test, to_rmr(t->mr)->access, ALL_ACCESS);
	KUNIT_EXPECT_EQ(test, t->mr->rkey, rkey);
}

static struct kunit_case rxe_mr_test_cases[] = {
	KUNIT_CASE(rxe_mr_test_copy_pages),
	KUNIT_CASE(rxe_mr_test_copy_bounds),
	KUNIT_CASE(rxe_mr_test_fast_reg),
	KUNIT_CASE(rxe_mr_test_rkey),
	KUNIT_CASE(rxe_mr_test_sgl),
	KUNIT_CASE(rxe_mr_test_atomic),
	KUNIT_CASE(rxe_mr_test_alloc_limits),
	KUNIT_CASE(rxe_mr_test_mw),
	KUNIT_CASE(rxe_mr_test_rereg_kernel_mr),
	{}
};

static struct kunit_suite rxe_mr_test_suite = {
	.name = "rxe_mr",
	.init = mr_test_init,
	.exit = mr_test_exit,
	.test_cases = rxe_mr_test_cases,
};

kunit_test_suite(rxe_mr_test_suite);

MODULE_DESCRIPTION("KUnit tests of soft-RoCE memory regions and windows");
MODULE_LICENSE("GPL");
