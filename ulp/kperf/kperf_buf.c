// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: data buffers, their DMA mapping and their keys (DMA lkey or FRWR). */

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "kperf.h"

/* One physically contiguous block when the allocator has one. */
static int kperf_buf_pages_contig(struct kperf_buf *b)
{
	unsigned int i;

	if (get_order(b->len) >= MAX_ORDER)
		return -ENOMEM;
	b->va = alloc_pages_exact(b->len, GFP_KERNEL | __GFP_ZERO |
				  __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
	if (!b->va)
		return -ENOMEM;
	for (i = 0; i < b->npages; i++)
		b->pages[i] = virt_to_page(b->va + i * PAGE_SIZE);
	b->contig = true;
	return 0;
}

static void kperf_buf_pages_free(struct kperf_buf *b)
{
	unsigned int i;

	if (b->contig) {
		free_pages_exact(b->va, b->len);
		return;
	}
	if (b->va)
		vunmap(b->va);
	for (i = 0; i < b->npages && b->pages[i]; i++)
		__free_page(b->pages[i]);
}

/* Single pages mapped together, when no contiguous block is free. */
static int kperf_buf_pages_vmap(struct kperf_buf *b)
{
	unsigned int i;

	for (i = 0; i < b->npages; i++) {
		b->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!b->pages[i])
			return -ENOMEM;
	}
	b->va = vmap(b->pages, b->npages, VM_MAP, PAGE_KERNEL);
	return b->va ? 0 : -ENOMEM;
}

static int kperf_buf_map(struct kperf_run *run, struct kperf_side *s,
			 struct kperf_buf *b)
{
	int ret;

	ret = sg_alloc_table_from_pages(&b->sgt, b->pages, b->npages, 0,
					b->len, GFP_KERNEL);
	if (ret)
		return kperf_run_fail(run, ret, "no memory for a scatterlist");
	b->nents = ib_dma_map_sg(s->ibdev, b->sgt.sgl, b->sgt.orig_nents,
				 DMA_BIDIRECTIONAL);
	if (!b->nents)
		return kperf_run_fail(run, -ENOMEM, "DMA mapping of %zu bytes failed",
				      b->len);
	return 0;
}

/* The keys: the PD's DMA keys, or an FRWR MR registered per use. */
static int kperf_buf_keys(struct kperf_run *run, struct kperf_side *s,
			  struct kperf_buf *b, enum kperf_mr_mode mr)
{
	u32 max_pages = s->ibdev->attrs.max_fast_reg_page_list_len;

	if (mr == KPERF_MR_DMA) {
		if (b->nents != 1)
			return kperf_run_fail(run, -EINVAL,
					      "mr=dma: no DMA-contiguous %zu bytes; try mr=frwr",
					      b->len);
		b->lkey = s->pd->local_dma_lkey;
		b->rkey = s->pd->unsafe_global_rkey;
		b->addr = sg_dma_address(b->sgt.sgl);
		return 0;
	}
	if (b->npages > max_pages)
		return kperf_run_fail(run, -EINVAL,
				      "mr=frwr: %u pages exceed %s's max_fast_reg_page_list_len %u",
				      b->npages, dev_name(&s->ibdev->dev),
				      max_pages);
	b->mr = ib_alloc_mr(s->pd, IB_MR_TYPE_MEM_REG, b->npages);
	if (IS_ERR(b->mr)) {
		int ret = PTR_ERR(b->mr);

		b->mr = NULL;
		return kperf_run_fail(run, ret, "ib_alloc_mr(%u pages) failed",
				      b->npages);
	}
	return 0;
}

/**
 * kperf_buf_alloc_mr() - allocate, map and key a buffer the given way
 * @run: the command (failure reasons)
 * @s: the side the buffer is used on
 * @b: the buffer, zeroed
 * @len: bytes needed (at least 8 are allocated, rounded up to pages)
 * @mr: KPERF_MR_DMA: the PD's local_dma_lkey (and its global rkey, if it
 *	has one), for one DMA-contiguous mapping; KPERF_MR_FRWR: an MR to
 *	register with kperf_buf_reg() before use
 *
 * On failure @b holds what was made; kperf_buf_free() frees it.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_buf_alloc_mr(struct kperf_run *run, struct kperf_side *s,
		       struct kperf_buf *b, size_t len, enum kperf_mr_mode mr)
{
	int ret;

	b->len = PAGE_ALIGN(max_t(size_t, len, 8));
	b->npages = b->len >> PAGE_SHIFT;
	b->pages = kvcalloc(b->npages, sizeof(*b->pages), GFP_KERNEL);
	if (!b->pages)
		return kperf_run_fail(run, -ENOMEM, "no memory for %u page pointers",
				      b->npages);
	if (kperf_buf_pages_contig(b)) {
		ret = kperf_buf_pages_vmap(b);
		if (ret)
			return kperf_run_fail(run, ret, "no memory for %zu bytes", b->len);
	}
	ret = kperf_buf_map(run, s, b);
	if (ret)
		return ret;
	return kperf_buf_keys(run, s, b, mr);
}

/**
 * kperf_buf_alloc() - allocate, map and key a data buffer as mr= says
 * @run: the command (mr= mode, failure reasons)
 * @s: the side the buffer is used on
 * @b: the buffer, zeroed
 * @len: bytes needed
 *
 * As kperf_buf_alloc_mr() with the command's mr=.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_buf_alloc(struct kperf_run *run, struct kperf_side *s,
		    struct kperf_buf *b, size_t len)
{
	return kperf_buf_alloc_mr(run, s, b, len, run->p.mr);
}

/**
 * kperf_buf_free() - undo kperf_buf_alloc(), whatever part of it was done
 * @s: the side the buffer was used on
 * @b: the buffer; no QP may use it any more
 */
void kperf_buf_free(struct kperf_side *s, struct kperf_buf *b)
{
	if (b->mr)
		ib_dereg_mr(b->mr);
	if (b->nents)
		ib_dma_unmap_sg(s->ibdev, b->sgt.sgl, b->sgt.orig_nents,
				DMA_BIDIRECTIONAL);
	if (b->sgt.sgl)
		sg_free_table(&b->sgt);
	if (b->pages)
		kperf_buf_pages_free(b);
	kvfree(b->pages);
	memset(b, 0, sizeof(*b));
}

/* Access the peer gets to a registered buffer. */
static int kperf_buf_access(struct kperf_run *run)
{
	int access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		     IB_ACCESS_REMOTE_READ;

	return run->op->atomic ? access | IB_ACCESS_REMOTE_ATOMIC : access;
}

/**
 * kperf_buf_reg() - register an end's buffer through its QP (IB_WR_REG_MR)
 * @run: the command
 * @s: the side of @e
 * @e: the end; its buffer has an FRWR MR
 *
 * Maps the buffer into the MR under a new key byte, posts the
 * registration and waits for its completion.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_buf_reg(struct kperf_run *run, struct kperf_side *s,
		  struct kperf_end *e)
{
	struct kperf_buf *b = &e->buf;
	struct ib_reg_wr wr = {};
	struct ib_wc wc;
	int n, ret;

	n = ib_map_mr_sg(b->mr, b->sgt.sgl, b->nents, NULL, PAGE_SIZE);
	if (n != b->nents)
		return kperf_run_fail(run, n < 0 ? n : -EINVAL,
				      "ib_map_mr_sg mapped %d of %d entries",
				      n, b->nents);
	ib_update_fast_reg_key(b->mr, ++b->key);
	wr.wr.opcode = IB_WR_REG_MR;
	wr.wr.wr_id = kperf_wr_id(KPERF_WR_REG, 0, 0);
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.mr = b->mr;
	wr.key = b->mr->rkey;
	wr.access = kperf_buf_access(run);
	ret = ib_post_send(e->qp, &wr.wr, NULL);
	if (ret)
		return kperf_run_fail(run, ret, "posting IB_WR_REG_MR failed");
	ret = kperf_cq_expect(run, s, KPERF_WR_REG, &wc);
	if (ret)
		return ret;
	b->lkey = b->mr->lkey;
	b->rkey = b->mr->rkey;
	b->addr = b->mr->iova;
	return 0;
}

/**
 * kperf_buf_inv() - invalidate an end's FRWR MR (IB_WR_LOCAL_INV)
 * @run: the command
 * @s: the side of @e
 * @e: the end; its buffer's MR is registered
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_buf_inv(struct kperf_run *run, struct kperf_side *s,
		  struct kperf_end *e)
{
	struct ib_send_wr wr = {};
	struct ib_wc wc;
	int ret;

	wr.opcode = IB_WR_LOCAL_INV;
	wr.wr_id = kperf_wr_id(KPERF_WR_INV, 0, 0);
	wr.send_flags = IB_SEND_SIGNALED;
	wr.ex.invalidate_rkey = e->buf.mr->rkey;
	ret = ib_post_send(e->qp, &wr, NULL);
	if (ret)
		return kperf_run_fail(run, ret, "posting IB_WR_LOCAL_INV failed");
	return kperf_cq_expect(run, s, KPERF_WR_INV, &wc);
}
