// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_rw: the RDMA READ/WRITE contexts of core/rw/rw.c on the mock driver. */
/*
 * The mock device has no DMA device, so "DMA addresses" are kernel
 * virtual addresses and every SGE can be checked against the page it
 * describes. The mock QP keeps a copy of what was posted to it.
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>
#include <rdma/signature.h>

#include "core/rw/rw.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define PORT		1
#define NPAGES		8	/* pages each case has for its lists */
#define SEND_SGE	2	/* max_send_sge of the QP: SGEs per WRITE */
#define SGE_RD		2	/* the device's max_sge_rd: SGEs per READ */
#define FR_PAGES	4	/* pages per fast-registration MR */
#define PI_PAGES	3	/* pages per integrity MR */
#define REMOTE		0x7000000000ULL
#define RKEY		0x1234U

/**
 * struct rw_test - per-case state
 * @mdev: the device
 * @pd: a PD on it
 * @cq: the QP's CQ
 * @qp: an RC QP on port PORT
 * @attr: the QP's creation attributes, for rdma_rw_init_mrs()
 * @pages: pages for the scatterlists
 * @sgl: the data list of the case
 * @prot: a protection information list
 * @cqe: what the last WR must complete through
 * @sent: what the QP was given to post, as mock_ibdev_qp_sent() copies it
 * @force_mr: the force_mr parameter before the case, restored after
 */
struct rw_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_qp_init_attr attr;
	struct page *pages[NPAGES];
	struct scatterlist sgl[NPAGES];
	struct scatterlist prot[NPAGES];
	struct ib_cqe cqe;
	struct mock_sent_wr sent[MOCK_IBDEV_SENT_MAX];
	bool force_mr;
};

/* An iWARP port instead of the mock's InfiniBand one. */
static int iwarp_port_immutable(struct ib_device *ibdev, u32 port,
				struct ib_port_immutable *immutable)
{
	immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
	return 0;
}

static void rw_device_setup(struct kunit *test, struct rw_test *t, bool iwarp)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct ib_device_attr *attrs;

	t->mdev = mock_ibdev_alloc(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	if (iwarp) {
		t->mdev->ibdev.ops.get_port_immutable = iwarp_port_immutable;
		t->mdev->ibdev.node_type = RDMA_NODE_RNIC;
		/* an iWARP port's attributes come from its net device */
		KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&t->mdev->ibdev,
							   init_net.loopback_dev,
							   1), 0);
	}
	if (mock_ibdev_register(t->mdev, "kmv%d")) {
		mock_ibdev_free(t->mdev);
		t->mdev = NULL;
		KUNIT_ASSERT_FAILURE(test, "cannot register the mock device");
	}
	attrs = &t->mdev->ibdev.attrs;
	attrs->kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	attrs->max_sge_rd = SGE_RD;
	attrs->max_fast_reg_page_list_len = FR_PAGES;
	attrs->max_pi_fast_reg_page_list_len = PI_PAGES;
	attrs->max_qp_wr = 1024;
}

/* The device (InfiniBand, or iWARP), PD, CQ, QP and pages of a case. */
static void rw_setup(struct kunit *test, bool iwarp)
{
	struct rw_test *t = test->priv;
	int i;

	rw_device_setup(test, t, iwarp);
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cq = ib_alloc_cq(&t->mdev->ibdev, NULL, 64, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cq);
	t->attr = (struct ib_qp_init_attr) {
		.qp_type = IB_QPT_RC,
		.port_num = PORT,
		.send_cq = t->cq,
		.recv_cq = t->cq,
		.cap = { .max_send_wr = 16, .max_recv_wr = 1,
			 .max_send_sge = SEND_SGE, .max_recv_sge = 1 },
	};
	t->qp = ib_create_qp(t->pd, &t->attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->qp);
	for (i = 0; i < NPAGES; i++) {
		t->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, t->pages[i]);
	}
}

static int rw_test_init(struct kunit *test)
{
	struct rw_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->force_mr = rdma_rw_force_mr_set(false);
	test->priv = t;
	return 0;
}

static void rw_test_exit(struct kunit *test)
{
	struct rw_test *t = test->priv;
	int i;

	if (!t)
		return;
	rdma_rw_force_mr_set(t->force_mr);
	for (i = 0; i < NPAGES; i++)
		if (t->pages[i])
			__free_page(t->pages[i]);
	if (!IS_ERR_OR_NULL(t->qp)) {
		rdma_rw_cleanup_mrs(t->qp);
		ib_destroy_qp(t->qp);
	}
	if (!IS_ERR_OR_NULL(t->cq))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

/* The case's state, with an InfiniBand device set up. */
static struct rw_test *ib_setup(struct kunit *test)
{
	rw_setup(test, false);
	return test->priv;
}

static struct rw_test *iwarp_setup(struct kunit *test)
{
	rw_setup(test, true);
	return test->priv;
}

/* ---- Helpers ------------------------------------------------------------- */

/* The "DMA address" of byte @off of page @i: its kernel address. */
static u64 va(struct rw_test *t, int i, u32 off)
{
	return (u64)(uintptr_t)page_address(t->pages[i]) + off;
}

/* The data list: @n entries, entry i at page i, @len bytes each. */
static struct scatterlist *sg_make(struct rw_test *t, int n, u32 len)
{
	int i;

	sg_init_table(t->sgl, n);
	for (i = 0; i < n; i++)
		sg_set_page(&t->sgl[i], t->pages[i], len, 0);
	return t->sgl;
}

/* Give the QP's pools MRs for @nr contexts, with @create_flags. */
static void pools_fill(struct kunit *test, struct rw_test *t, u32 nr,
		       u32 create_flags)
{
	struct ib_qp_init_attr attr = t->attr;

	attr.cap.max_rdma_ctxs = nr;
	attr.create_flags = create_flags;
	KUNIT_ASSERT_EQ(test, rdma_rw_init_mrs(t->qp, &attr), 0);
}

static int pool_len(struct list_head *pool)
{
	struct ib_mr *mr;
	int n = 0;

	list_for_each_entry(mr, pool, qp_entry)
		n++;
	return n;
}

/* Post @ctx with the case's cqe; return the WRs the QP got, from @first on. */
static int post_and_fetch(struct kunit *test, struct rw_test *t,
			  struct rdma_rw_ctx *ctx, struct mock_sent_wr *sent,
			  int first)
{
	int n;

	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_post(ctx, t->qp, PORT, &t->cqe,
					       NULL), 0);
	n = mock_ibdev_qp_sent(t->qp, sent, MOCK_IBDEV_SENT_MAX);
	return n - first;
}

/* Only the last WR of a posted chain is signaled, and with the cqe. */
static void expect_signaled_last(struct kunit *test, struct rw_test *t,
				 const struct mock_sent_wr *wr, int n)
{
	int i;

	for (i = 0; i < n - 1; i++)
		KUNIT_EXPECT_FALSE_MSG(test, wr[i].send_flags & IB_SEND_SIGNALED,
				       "WR %d", i);
	KUNIT_EXPECT_TRUE(test, wr[n - 1].send_flags & IB_SEND_SIGNALED);
	KUNIT_EXPECT_PTR_EQ(test, wr[n - 1].wr_cqe, &t->cqe);
}

static void expect_sge(struct kunit *test, const struct ib_sge *sge, u64 addr,
		       u32 length, u32 lkey)
{
	KUNIT_EXPECT_EQ(test, sge->addr, addr);
	KUNIT_EXPECT_EQ(test, sge->length, length);
	KUNIT_EXPECT_EQ(test, sge->lkey, lkey);
}

/* ---- One WR, one SGE ----------------------------------------------------- */

static void single_write_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;

	sg_make(t, 1, 1000);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 1,
					       100, REMOTE, RKEY,
					       DMA_TO_DEVICE), 1);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 1U);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 1);
	KUNIT_EXPECT_EQ(test, sent[0].opcode, IB_WR_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, sent[0].num_sge, 1);
	expect_sge(test, &sent[0].sge[0], va(t, 0, 100), 900,
		   t->pd->local_dma_lkey);
	KUNIT_EXPECT_EQ(test, sent[0].remote_addr, REMOTE);
	KUNIT_EXPECT_EQ(test, sent[0].rkey, RKEY);
	expect_signaled_last(test, t, sent, 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 1);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 1, DMA_TO_DEVICE);
	/* no MR is involved */
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 0);
}

static void single_read_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;

	sg_make(t, 1, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 1, 0,
					       REMOTE + 8, RKEY,
					       DMA_FROM_DEVICE), 1);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 1);
	KUNIT_EXPECT_EQ(test, sent[0].opcode, IB_WR_RDMA_READ);
	expect_sge(test, &sent[0].sge[0], va(t, 0, 0), PAGE_SIZE,
		   t->pd->local_dma_lkey);
	KUNIT_EXPECT_EQ(test, sent[0].remote_addr, REMOTE + 8);
	KUNIT_EXPECT_EQ(test, sent[0].rkey, RKEY);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 1, DMA_FROM_DEVICE);
}

/* ---- Several WRs within the QP's SGE limit ------------------------------- */

/* Five entries, two SGEs per WRITE: three WRs, chained, remote moving on. */
static void multi_sge_write_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct mock_sent_wr *sent = t->sent;
	static const int nsge[] = { 2, 2, 1 };
	struct rdma_rw_ctx ctx;
	int i, j, page = 0;

	sg_make(t, 5, 512);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 5, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 3);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 3U);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 3);
	/* one post for the whole chain */
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 1);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, sent[i].opcode, IB_WR_RDMA_WRITE);
		KUNIT_EXPECT_EQ(test, sent[i].num_sge, nsge[i]);
		KUNIT_EXPECT_EQ(test, sent[i].remote_addr, REMOTE + 1024 * i);
		KUNIT_EXPECT_EQ(test, sent[i].rkey, RKEY);
		for (j = 0; j < nsge[i]; j++, page++)
			expect_sge(test, &sent[i].sge[j], va(t, page, 0), 512,
				   t->pd->local_dma_lkey);
	}
	expect_signaled_last(test, t, sent, 3);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 5, DMA_TO_DEVICE);
}

/* READs use max_read_sge, which may be lower than the WRITE limit. */
static void multi_sge_read_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;
	int i;

	KUNIT_EXPECT_EQ(test, t->qp->max_read_sge, (u32)SGE_RD);
	t->qp->max_read_sge = 1;
	sg_make(t, 3, 256);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3, 0,
					       REMOTE, RKEY,
					       DMA_FROM_DEVICE), 3);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, sent[i].opcode, IB_WR_RDMA_READ);
		KUNIT_EXPECT_EQ(test, sent[i].num_sge, 1);
		KUNIT_EXPECT_EQ(test, sent[i].remote_addr, REMOTE + 256 * i);
		expect_sge(test, &sent[i].sge[0], va(t, i, 0), 256,
			   t->pd->local_dma_lkey);
	}
	expect_signaled_last(test, t, sent, 3);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_FROM_DEVICE);
}

/* The offset skips whole entries first, then cuts into the next one. */
static void offset_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;

	sg_make(t, 3, 512);
	/* into the second entry: two entries left, one WR of two SGEs */
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3,
					       600, REMOTE, RKEY,
					       DMA_TO_DEVICE), 1);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 1);
	KUNIT_EXPECT_EQ(test, sent[0].num_sge, 2);
	expect_sge(test, &sent[0].sge[0], va(t, 1, 88), 424,
		   t->pd->local_dma_lkey);
	expect_sge(test, &sent[0].sge[1], va(t, 2, 0), 512,
		   t->pd->local_dma_lkey);
	KUNIT_EXPECT_EQ(test, sent[0].remote_addr, REMOTE);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_TO_DEVICE);

	/* into the last entry: a single WR */
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3,
					       1100, REMOTE, RKEY,
					       DMA_TO_DEVICE), 1);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 1), 1);
	KUNIT_EXPECT_EQ(test, sent[1].num_sge, 1);
	expect_sge(test, &sent[1].sge[0], va(t, 2, 76), 436,
		   t->pd->local_dma_lkey);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_TO_DEVICE);
}

/* ---- Chaining and posting ------------------------------------------------ */

/* With a WR to chain, the context's last WR leads to it and is not signaled. */
static void chain_wr_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct ib_send_wr chain = { .opcode = IB_WR_SEND };
	struct ib_send_wr *first;
	struct rdma_rw_ctx ctx;

	sg_make(t, 1, 64);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 1, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 1);
	first = rdma_rw_ctx_wrs(&ctx, t->qp, PORT, &t->cqe, &chain);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_EXPECT_EQ(test, first->opcode, IB_WR_RDMA_WRITE);
	KUNIT_EXPECT_PTR_EQ(test, first->next, &chain);
	KUNIT_EXPECT_FALSE(test, first->send_flags & IB_SEND_SIGNALED);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 1, DMA_TO_DEVICE);

	sg_make(t, 3, 64);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 2);
	first = rdma_rw_ctx_wrs(&ctx, t->qp, PORT, NULL, &chain);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_NOT_NULL(test, first->next);
	KUNIT_EXPECT_PTR_EQ(test, first->next->next, &chain);
	KUNIT_EXPECT_FALSE(test, first->next->send_flags & IB_SEND_SIGNALED);
	/* nothing was posted */
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 0);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_TO_DEVICE);
}

static void post_error_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct rdma_rw_ctx ctx;

	sg_make(t, 1, 64);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 1, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 1);
	mock_ibdev_fail(t->mdev, MOCK_POST_SEND, -EIO);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_post(&ctx, t->qp, PORT, &t->cqe,
					       NULL), -EIO);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 1, DMA_TO_DEVICE);
}

/* ---- Fast registration --------------------------------------------------- */

/* The REG and WRITE pair of one MR, as posted. */
static void expect_reg_write(struct kunit *test, const struct mock_sent_wr *wr,
			     u64 first_va, u32 len, u64 remote)
{
	struct ib_mr *mr = wr[0].reg_mr;

	KUNIT_EXPECT_EQ(test, wr[0].opcode, IB_WR_REG_MR);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, wr[0].reg_key, mr->lkey);
	KUNIT_EXPECT_EQ(test, wr[0].reg_access, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, wr[1].opcode, IB_WR_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, wr[1].num_sge, 1);
	expect_sge(test, &wr[1].sge[0], first_va, len, mr->lkey);
	KUNIT_EXPECT_EQ(test, wr[1].remote_addr, remote);
	KUNIT_EXPECT_EQ(test, wr[1].rkey, RKEY);
}

/*
 * force_mr: six pages over MRs of four pages: two REG+WRITE pairs. Used
 * again, each MR is first invalidated under the key it was given.
 */
static void mr_forced_write_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;
	u32 old_key;
	int i;

	rdma_rw_force_mr_set(true);
	pools_fill(test, t, 2, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->rdma_mrs), 2);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_sg, (u32)FR_PAGES);

	sg_make(t, 6, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 6, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 4);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 2U);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 2);
	old_key = ctx.reg[0].mr->lkey;
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 4);
	/* each post gives the MR the next key */
	KUNIT_EXPECT_EQ(test, sent[0].reg_key, ib_inc_rkey(old_key));
	expect_reg_write(test, &sent[0], va(t, 0, 0), 4 * PAGE_SIZE, REMOTE);
	expect_reg_write(test, &sent[2], va(t, 4, 0), 2 * PAGE_SIZE,
			 REMOTE + 4 * PAGE_SIZE);
	expect_signaled_last(test, t, sent, 4);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_TRUE(test, ctx.reg[i].mr->need_inval);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 6, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->rdma_mrs), 2);

	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 6, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 6);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 4), 6);
	for (i = 4; i < 10; i += 3) {
		KUNIT_EXPECT_EQ(test, sent[i].opcode, IB_WR_LOCAL_INV);
		/* the key of the last registration, then the next one */
		KUNIT_EXPECT_EQ(test, sent[i + 1].reg_key,
				ib_inc_rkey(sent[i].invalidate_rkey));
		KUNIT_EXPECT_EQ(test, sent[i + 1].opcode, IB_WR_REG_MR);
		KUNIT_EXPECT_EQ(test, sent[i + 2].opcode, IB_WR_RDMA_WRITE);
	}
	KUNIT_EXPECT_EQ(test, sent[9].remote_addr, REMOTE + 4 * PAGE_SIZE);
	expect_signaled_last(test, t, &sent[4], 6);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 6, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
}

/* force_mr with too few MRs: -EAGAIN, nothing kept, no fallback to SGEs. */
static void mr_forced_pool_empty_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct rdma_rw_ctx ctx;

	rdma_rw_force_mr_set(true);
	pools_fill(test, t, 1, 0);
	sg_make(t, 6, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 6, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->rdma_mrs), 1);
}

/* An MR that cannot map its entries (a gap) fails the whole context. */
static void mr_map_gap_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct rdma_rw_ctx ctx;

	rdma_rw_force_mr_set(true);
	pools_fill(test, t, 2, 0);
	sg_make(t, 6, PAGE_SIZE);
	/* the second MR's second entry starts inside its page */
	sg_set_page(&t->sgl[5], t->pages[5], 100, 100);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 6, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE),
			-EINVAL);
	/* the first MR, mapped fine, went back too */
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->rdma_mrs), 2);
}

/* iWARP: READs need MRs and invalidate them; WRITEs use plain SGEs. */
static void iwarp_test(struct kunit *test)
{
	struct rw_test *t = iwarp_setup(test);
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;
	struct ib_mr *mr;

	KUNIT_ASSERT_TRUE(test, rdma_protocol_iwarp(&t->mdev->ibdev, PORT));
	pools_fill(test, t, 1, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->rdma_mrs), 1);

	sg_make(t, 2, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 2, 0,
					       REMOTE, RKEY,
					       DMA_FROM_DEVICE), 2);
	mr = ctx.reg[0].mr;
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 2);
	KUNIT_EXPECT_EQ(test, sent[0].opcode, IB_WR_REG_MR);
	KUNIT_EXPECT_EQ(test, sent[0].reg_access,
			IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	KUNIT_EXPECT_EQ(test, sent[1].opcode, IB_WR_RDMA_READ_WITH_INV);
	KUNIT_EXPECT_EQ(test, sent[1].invalidate_rkey, mr->lkey);
	expect_sge(test, &sent[1].sge[0], va(t, 0, 0), 2 * PAGE_SIZE,
		   mr->lkey);
	/* the READ invalidated it: no LOCAL_INV needed next time */
	KUNIT_EXPECT_FALSE(test, mr->need_inval);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 2, DMA_FROM_DEVICE);

	/* a WRITE of several entries is split by SGEs, no MR */
	sg_make(t, 3, 128);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 2);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_TO_DEVICE);

	/* a READ without an MR to use fails, even of one entry */
	mr = ib_mr_pool_get(t->qp, &t->qp->rdma_mrs);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 1, 0,
					       REMOTE, RKEY, DMA_FROM_DEVICE),
			-EAGAIN);
	ib_mr_pool_put(t->qp, &t->qp->rdma_mrs, mr);

	/* MRs of FR_PAGES pages, not READs of SGE_RD SGEs, size an iWARP I/O */
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(&t->mdev->ibdev, PORT, 9),
			DIV_ROUND_UP(9U, FR_PAGES));
}

/*
 * A device with max_sgl_rd prefers an MR for READs of more entries, but
 * falls back to SGEs when the pool is empty.
 */
static void max_sgl_rd_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;
	struct ib_mr *mr;

	t->mdev->ibdev.attrs.max_sgl_rd = 2;
	pools_fill(test, t, 1, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->rdma_mrs), 1);
	sg_make(t, 3, PAGE_SIZE);

	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3, 0,
					       REMOTE, RKEY,
					       DMA_FROM_DEVICE), 2);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 2);
	KUNIT_EXPECT_EQ(test, sent[0].opcode, IB_WR_REG_MR);
	/* InfiniBand cannot invalidate with a READ */
	KUNIT_EXPECT_EQ(test, sent[1].opcode, IB_WR_RDMA_READ);
	KUNIT_EXPECT_EQ(test, sent[0].reg_access, IB_ACCESS_LOCAL_WRITE);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_FROM_DEVICE);

	/* no more entries than max_sgl_rd: SGEs */
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 2, 0,
					       REMOTE, RKEY,
					       DMA_FROM_DEVICE), 1);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 2, DMA_FROM_DEVICE);

	/* pool empty: SGEs, two READs of SGE_RD */
	mr = ib_mr_pool_get(t->qp, &t->qp->rdma_mrs);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3, 0,
					       REMOTE, RKEY, DMA_FROM_DEVICE),
			2);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 1);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_FROM_DEVICE);
	ib_mr_pool_put(t->qp, &t->qp->rdma_mrs, mr);

	/* WRITEs never use the MR */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 3, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE), 2);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	rdma_rw_ctx_destroy(&ctx, t->qp, PORT, t->sgl, 3, DMA_TO_DEVICE);
}

/* ---- Bad input ----------------------------------------------------------- */

static void errors_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct rdma_rw_ctx ctx;

	sg_make(t, 2, 256);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 0, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE),
			-EIO);
	/* an offset at or past the end leaves nothing to move */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 2,
					       512, REMOTE, RKEY,
					       DMA_TO_DEVICE), -EIO);
	/* a QP without send SGEs cannot describe several entries */
	t->qp->max_write_sge = 0;
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, t->qp, PORT, t->sgl, 2, 0,
					       REMOTE, RKEY, DMA_TO_DEVICE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_POST_SEND), 0);
}

/* ---- Signature (T10-PI) contexts ----------------------------------------- */

static struct ib_sig_attrs sig_none_on_wire(void)
{
	return (struct ib_sig_attrs) {
		.check_mask = 0xff,
		.mem.sig_type = IB_SIG_TYPE_T10_DIF,
		.wire.sig_type = IB_SIG_TYPE_NONE,
		.meta_length = 8,
	};
}

/* An integrity QP with one signature MR, data on two pages, PI of 16 bytes. */
static struct rw_test *sig_setup(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);

	t->qp->integrity_en = true;
	pools_fill(test, t, 1, IB_QP_CREATE_INTEGRITY_EN);
	sg_make(t, 2, PAGE_SIZE);
	sg_init_table(t->prot, 1);
	sg_set_page(&t->prot[0], t->pages[NPAGES - 1], 16, 0);
	return t;
}

static void sig_write_test(struct kunit *test)
{
	struct rw_test *t = sig_setup(test);
	struct ib_sig_attrs sig = sig_none_on_wire();
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;
	struct ib_mr *mr;

	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_signature_init(&ctx, t->qp, PORT,
							 t->sgl, 2, t->prot, 1,
							 &sig, REMOTE, RKEY,
							 DMA_TO_DEVICE), 2);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 1U);
	mr = ctx.reg->mr;
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_INTEGRITY);
	/* the attributes are copied into the MR */
	KUNIT_EXPECT_PTR_NE(test, mr->sig_attrs, &sig);
	KUNIT_EXPECT_EQ(test, mr->sig_attrs->meta_length, 8);
	KUNIT_EXPECT_EQ(test, mr->sig_attrs->check_mask, 0xff);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_MAP_MR_SG_PI), 1);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 1);

	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 2);
	KUNIT_EXPECT_EQ(test, sent[0].opcode, IB_WR_REG_MR_INTEGRITY);
	KUNIT_EXPECT_PTR_EQ(test, sent[0].reg_mr, mr);
	KUNIT_EXPECT_EQ(test, sent[0].reg_key, mr->lkey);
	KUNIT_EXPECT_EQ(test, sent[0].reg_access, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, sent[1].opcode, IB_WR_RDMA_WRITE);
	/* no PI on the wire: the metadata is not sent */
	expect_sge(test, &sent[1].sge[0], va(t, 0, 0), 2 * PAGE_SIZE + 16 - 8,
		   mr->lkey);
	KUNIT_EXPECT_EQ(test, sent[1].remote_addr, REMOTE);
	KUNIT_EXPECT_EQ(test, sent[1].rkey, RKEY);
	expect_signaled_last(test, t, sent, 2);

	rdma_rw_ctx_destroy_signature(&ctx, t->qp, PORT, t->sgl, 2, t->prot, 1,
				      DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->sig_mrs), 1);

	/* used again: invalidated first */
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_signature_init(&ctx, t->qp, PORT,
							 t->sgl, 2, t->prot, 1,
							 &sig, REMOTE, RKEY,
							 DMA_TO_DEVICE), 3);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 2), 3);
	KUNIT_EXPECT_EQ(test, sent[2].opcode, IB_WR_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, sent[2].invalidate_rkey, sent[0].reg_key);
	KUNIT_EXPECT_EQ(test, sent[3].opcode, IB_WR_REG_MR_INTEGRITY);
	rdma_rw_ctx_destroy_signature(&ctx, t->qp, PORT, t->sgl, 2, t->prot, 1,
				      DMA_TO_DEVICE);
}

/* PI on the wire, a READ, and no separate PI list. */
static void sig_read_wire_test(struct kunit *test)
{
	struct rw_test *t = sig_setup(test);
	struct ib_sig_attrs sig = sig_none_on_wire();
	struct mock_sent_wr *sent = t->sent;
	struct rdma_rw_ctx ctx;

	sig.wire.sig_type = IB_SIG_TYPE_T10_DIF;
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_signature_init(&ctx, t->qp, PORT,
							 t->sgl, 2, NULL, 0,
							 &sig, REMOTE, RKEY,
							 DMA_FROM_DEVICE), 2);
	KUNIT_ASSERT_EQ(test, post_and_fetch(test, t, &ctx, sent, 0), 2);
	KUNIT_EXPECT_EQ(test, sent[1].opcode, IB_WR_RDMA_READ);
	KUNIT_EXPECT_EQ(test, sent[1].sge[0].length, 2 * PAGE_SIZE);
	rdma_rw_ctx_destroy_signature(&ctx, t->qp, PORT, t->sgl, 2, NULL, 0,
				      DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
}

static void sig_errors_test(struct kunit *test)
{
	struct rw_test *t = sig_setup(test);
	struct ib_sig_attrs sig = sig_none_on_wire();
	struct rdma_rw_ctx ctx;
	struct ib_mr *mr;

	/* more entries than an integrity MR maps */
	sg_make(t, PI_PAGES + 1, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, t->qp, PORT,
							 t->sgl, PI_PAGES + 1,
							 NULL, 0, &sig, REMOTE,
							 RKEY, DMA_TO_DEVICE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, t->qp, PORT,
							 t->sgl, 1, t->sgl,
							 PI_PAGES + 1, &sig,
							 REMOTE, RKEY,
							 DMA_TO_DEVICE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_MAP_MR_SG_PI), 0);

	/* the driver cannot map: its error, the MR back in the pool */
	sg_make(t, 2, PAGE_SIZE);
	mock_ibdev_fail(t->mdev, MOCK_MAP_MR_SG_PI, -ENOSPC);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, t->qp, PORT,
							 t->sgl, 2, t->prot, 1,
							 &sig, REMOTE, RKEY,
							 DMA_TO_DEVICE),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, t->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->sig_mrs), 1);

	/* no signature MR left */
	mock_ibdev_fail(t->mdev, MOCK_MAP_MR_SG_PI, 0);
	mr = ib_mr_pool_get(t->qp, &t->qp->sig_mrs);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, t->qp, PORT,
							 t->sgl, 2, t->prot, 1,
							 &sig, REMOTE, RKEY,
							 DMA_TO_DEVICE),
			-EAGAIN);
	ib_mr_pool_put(t->qp, &t->qp->sig_mrs, mr);
}

/* ---- Sizing -------------------------------------------------------------- */

/**
 * struct mr_factor_case - device limits and the factor they give
 * @name: for the log
 * @fr_pages: max_fast_reg_page_list_len
 * @sge_rd: max_sge_rd
 * @sgl_rd: max_sgl_rd
 * @force: the force_mr parameter
 * @maxpages: pages of the largest I/O
 * @want: the expected rdma_rw_mr_factor()
 */
struct mr_factor_case {
	const char *name;
	u32 fr_pages;
	int sge_rd;
	u32 sgl_rd;
	bool force;
	unsigned int maxpages;
	unsigned int want;
};

static const struct mr_factor_case mr_factor_cases[] = {
	{ "READs of max_sge_rd",	4,    2, 0, false, 7,   4 },
	{ "READs, exact",		4,    8, 0, false, 16,  2 },
	{ "no pages",			4,    2, 0, false, 0,   0 },
	{ "forced MRs",			4,    2, 0, true,  7,   2 },
	{ "forced MRs, one page",	4,    2, 0, true,  1,   1 },
	{ "MRs for max_sgl_rd",		16,   2, 4, false, 33,  3 },
	{ "MR pages capped at 256",	1000, 2, 0, true,  512, 2 },
	{ "MR pages at the cap",	256,  2, 0, true,  256, 1 },
	{ "device without MR pages",	0,    2, 0, true,  8,   0 },
	{ "device without max_sge_rd",	4,    0, 0, false, 8,   0 },
};

static void mr_factor_desc(const struct mr_factor_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mr_factor, mr_factor_cases, mr_factor_desc);

static void mr_factor_test(struct kunit *test)
{
	const struct mr_factor_case *c = test->param_value;
	struct rw_test *t = ib_setup(test);
	struct ib_device_attr *attrs = &t->mdev->ibdev.attrs;

	attrs->max_fast_reg_page_list_len = c->fr_pages;
	attrs->max_sge_rd = c->sge_rd;
	attrs->max_sgl_rd = c->sgl_rd;
	rdma_rw_force_mr_set(c->force);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(&t->mdev->ibdev, PORT,
						c->maxpages), c->want);
}

static void init_qp_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct ib_device *dev = &t->mdev->ibdev;
	struct ib_qp_init_attr attr = {
		.port_num = PORT,
		.cap = { .max_send_wr = 10, .max_rdma_ctxs = 4 },
	};

	/* plain SGEs: one WR per context */
	rdma_rw_init_qp(dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, 14U);

	/* integrity: a REG and an INV on top */
	attr.cap.max_send_wr = 10;
	attr.create_flags = IB_QP_CREATE_INTEGRITY_EN;
	rdma_rw_init_qp(dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, 22U);

	/* MRs: the same */
	attr.cap.max_send_wr = 10;
	attr.create_flags = 0;
	rdma_rw_force_mr_set(true);
	rdma_rw_init_qp(dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, 22U);

	/* never beyond what the device has */
	attr.cap.max_send_wr = 10;
	dev->attrs.max_qp_wr = 20;
	rdma_rw_init_qp(dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, 20U);
}

static void max_send_wr_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct ib_device *dev = &t->mdev->ibdev;
	u32 integrity = IB_QP_CREATE_INTEGRITY_EN;

	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, PORT, 4, 0), 4U);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, PORT, 4, integrity),
			12U);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, PORT, 0, integrity),
			0U);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, PORT, UINT_MAX, 0),
			UINT_MAX);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, PORT, UINT_MAX / 2,
						  integrity), UINT_MAX);
	rdma_rw_force_mr_set(true);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(dev, PORT, 4, 0), 12U);
}

/* ---- The QP's pools ------------------------------------------------------ */

static void init_mrs_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);

	/* a device that does not register: no MRs */
	pools_fill(test, t, 4, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->qp->rdma_mrs));
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 0);

	/* integrity: both pools, sized for PI registration */
	pools_fill(test, t, 2, IB_QP_CREATE_INTEGRITY_EN);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->rdma_mrs), 2);
	KUNIT_EXPECT_EQ(test, pool_len(&t->qp->sig_mrs), 2);
	KUNIT_EXPECT_EQ(test, t->mdev->last.mr_type, IB_MR_TYPE_MEM_REG);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_sg, (u32)PI_PAGES);
	KUNIT_EXPECT_EQ(test, t->mdev->last.max_num_meta_sg, (u32)PI_PAGES);
	rdma_rw_cleanup_mrs(t->qp);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->qp->rdma_mrs));
	KUNIT_EXPECT_TRUE(test, list_empty(&t->qp->sig_mrs));
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_MR), 0);

	/* no contexts asked for: nothing, even where MRs are used */
	rdma_rw_force_mr_set(true);
	pools_fill(test, t, 0, IB_QP_CREATE_INTEGRITY_EN);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_MR), 0);
}

static void init_mrs_errors_test(struct kunit *test)
{
	struct rw_test *t = ib_setup(test);
	struct ib_qp_init_attr attr = t->attr;

	attr.cap.max_rdma_ctxs = 2;
	attr.create_flags = IB_QP_CREATE_INTEGRITY_EN;

	/* the signature pool fails: the other one is emptied again */
	mock_ibdev_fail(t->mdev, MOCK_ALLOC_MR_INTEGRITY, -ENOMEM);
	KUNIT_EXPECT_EQ(test, rdma_rw_init_mrs(t->qp, &attr), -ENOMEM);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR), 2);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->qp->rdma_mrs));
	KUNIT_EXPECT_TRUE(test, list_empty(&t->qp->sig_mrs));
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_MR), 0);

	/* the first pool fails: the second is not tried */
	mock_ibdev_fail(t->mdev, MOCK_ALLOC_MR, -ENOSPC);
	KUNIT_EXPECT_EQ(test, rdma_rw_init_mrs(t->qp, &attr), -ENOSPC);
	KUNIT_EXPECT_EQ(test,
			mock_ibdev_calls(t->mdev, MOCK_ALLOC_MR_INTEGRITY), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_MR), 0);
}

static struct kunit_case ib_core_rw_cases[] = {
	KUNIT_CASE(single_write_test),
	KUNIT_CASE(single_read_test),
	KUNIT_CASE(multi_sge_write_test),
	KUNIT_CASE(multi_sge_read_test),
	KUNIT_CASE(offset_test),
	KUNIT_CASE(chain_wr_test),
	KUNIT_CASE(post_error_test),
	KUNIT_CASE(mr_forced_write_test),
	KUNIT_CASE(mr_forced_pool_empty_test),
	KUNIT_CASE(mr_map_gap_test),
	KUNIT_CASE(iwarp_test),
	KUNIT_CASE(max_sgl_rd_test),
	KUNIT_CASE(errors_test),
	KUNIT_CASE(sig_write_test),
	KUNIT_CASE(sig_read_wire_test),
	KUNIT_CASE(sig_errors_test),
	KUNIT_CASE_PARAM(mr_factor_test, mr_factor_gen_params),
	KUNIT_CASE(init_qp_test),
	KUNIT_CASE(max_send_wr_test),
	KUNIT_CASE(init_mrs_test),
	KUNIT_CASE(init_mrs_errors_test),
	{}
};

static struct kunit_suite ib_core_rw_suite = {
	.name = "ib_core_rw",
	.init = rw_test_init,
	.exit = rw_test_exit,
	.test_cases = ib_core_rw_cases,
};

kunit_test_suite(ib_core_rw_suite);

MODULE_DESCRIPTION("KUnit tests of the ib_core RDMA READ/WRITE API");
MODULE_LICENSE("GPL");
