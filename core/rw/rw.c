// SPDX-License-Identifier: GPL-2.0-only
/* rdma_rw: turn a scatterlist into the RDMA READ/WRITE (and MR registration) WRs that move it. */
/*
 * A context moves one scatterlist to or from one remote buffer, in one of
 * three shapes, chosen per I/O:
 *
 *  - one RDMA WR with one SGE, when the mapped list has a single entry;
 *  - several RDMA WRs, each with up to the QP's SGE limit for the
 *    direction (max_write_sge / max_read_sge), all with the PD's lkey;
 *  - per MR borrowed from qp->rdma_mrs: an optional LOCAL_INV of its old
 *    key, a REG_MR, and one RDMA WR through the MR. iWARP needs this for
 *    RDMA READ (its READ sink must be a registered, remotely writable
 *    region); devices that set attrs.max_sgl_rd use it for READs with more
 *    entries than that; force_mr makes every I/O use it.
 *
 * Signature (T10-PI) contexts always use one integrity MR from
 * qp->sig_mrs and an IB_WR_REG_MR_INTEGRITY.
 *
 * A context has no lock: its owner uses it from one thread at a time.
 * The MR pools are the QP's, under qp->mr_lock (core/rw/mr_pool.c).
 */

#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/math.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>
#include <rdma/signature.h>

#include "rw/rw.h"

/* rdma_rw_ctx.type: which member of the context's union is in use. */
enum rw_ctx_kind {
	RW_CTX_SINGLE,
	RW_CTX_MAP,
	RW_CTX_MR,
	RW_CTX_SIG_MR,
};

/* Pages one MR maps at most, whatever the device could do. */
#define RW_MR_PAGES_MAX		256U

static bool rdma_rw_force_mr;
module_param_named(force_mr, rdma_rw_force_mr, bool, 0);
MODULE_PARM_DESC(force_mr, "Use memory registration for every RDMA READ and WRITE");

/* ---- Policy: when MRs are used ------------------------------------------- */

/* The device registers memory for some I/O on @port, so QPs need MR pools. */
static bool rw_uses_mrs(struct ib_device *dev, u32 port)
{
	return rdma_protocol_iwarp(dev, port) || dev->attrs.max_sgl_rd ||
	       READ_ONCE(rdma_rw_force_mr);
}

/* Registration is required, not merely preferred: no fallback to SGEs. */
static bool rw_mr_required(struct ib_device *dev, u32 port)
{
	return rdma_protocol_iwarp(dev, port) || READ_ONCE(rdma_rw_force_mr);
}

/* Whether this I/O of @nents mapped entries goes through MRs. */
static bool rw_io_needs_mr(struct ib_device *dev, u32 port,
			   enum dma_data_direction dir, u32 nents)
{
	u32 max_sgl_rd = dev->attrs.max_sgl_rd;

	if (READ_ONCE(rdma_rw_force_mr))
		return true;
	if (dir != DMA_FROM_DEVICE)
		return false;
	return rdma_protocol_iwarp(dev, port) ||
	       (max_sgl_rd && nents > max_sgl_rd);
}

/* Pages per MR of a pool: the device's fast-registration limit, capped. */
static u32 rw_pages_per_mr(struct ib_device *dev, bool integrity)
{
	u32 limit = integrity ? dev->attrs.max_pi_fast_reg_page_list_len :
				dev->attrs.max_fast_reg_page_list_len;

	return min(limit, RW_MR_PAGES_MAX);
}

/* Send queue entries one context takes: the RDMA WR, plus REG and INV. */
static unsigned int rw_wrs_per_ctx(struct ib_device *dev, u32 port,
				   u32 create_flags)
{
	if (create_flags & IB_QP_CREATE_INTEGRITY_EN || rw_uses_mrs(dev, port))
		return 3;
	return 1;
}

/* ---- Building blocks ----------------------------------------------------- */

/* Point @wr at @nsge SGEs and the remote buffer; READ or WRITE by @dir. */
static void rw_set_rdma(struct ib_rdma_wr *wr, struct ib_sge *sges, u32 nsge,
			u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	wr->wr.opcode = dir == DMA_TO_DEVICE ? IB_WR_RDMA_WRITE :
					       IB_WR_RDMA_READ;
	wr->wr.sg_list = sges;
	wr->wr.num_sge = nsge;
	wr->remote_addr = remote_addr;
	wr->rkey = rkey;
}

/* @sg moved @n entries on. */
static struct scatterlist *rw_sg_advance(struct scatterlist *sg, u32 n)
{
	while (n--)
		sg = sg_next(sg);
	return sg;
}

/*
 * Describe @n mapped entries from *@sgp as SGEs with @lkey, the first
 * @offset bytes of the first one left out. *@sgp moves past them.
 * Return: the bytes they cover.
 */
static u64 rw_fill_sges(struct ib_sge *sge, struct scatterlist **sgp, u32 n,
			u32 offset, u32 lkey)
{
	struct scatterlist *sg = *sgp;
	u64 bytes = 0;

	for (; n; n--, sge++, sg = sg_next(sg), offset = 0) {
		sge->addr = sg_dma_address(sg) + offset;
		sge->length = sg_dma_len(sg) - offset;
		sge->lkey = lkey;
		bytes += sge->length;
	}
	*sgp = sg;
	return bytes;
}

/* ---- Shape 1: one WR, one SGE -------------------------------------------- */

static int rw_build_single(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			   struct scatterlist *sg, u32 offset,
			   u64 remote_addr, u32 rkey,
			   enum dma_data_direction dir)
{
	memset(&ctx->single, 0, sizeof(ctx->single));
	rw_fill_sges(&ctx->single.sge, &sg, 1, offset, qp->pd->local_dma_lkey);
	rw_set_rdma(&ctx->single.wr, &ctx->single.sge, 1, remote_addr, rkey,
		    dir);
	ctx->nr_ops = 1;
	ctx->type = RW_CTX_SINGLE;
	return 1;
}

/* ---- Shape 2: several WRs, each with up to the QP's SGE limit ------------ */

static int rw_build_map(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			struct scatterlist *sg, u32 sg_cnt, u32 offset,
			u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	u32 max_sge = dir == DMA_TO_DEVICE ? qp->max_write_sge :
					     qp->max_read_sge;
	u32 lkey = qp->pd->local_dma_lkey;
	u32 i, n, left = sg_cnt;
	struct ib_sge *sges;

	if (!max_sge) {
		ibdev_dbg(qp->device, "QP %u has no SGEs for RDMA %s\n",
			  qp->qp_num, dir == DMA_TO_DEVICE ? "WRITE" : "READ");
		return -EINVAL;
	}
	ctx->nr_ops = DIV_ROUND_UP(sg_cnt, max_sge);
	ctx->map.sges = kcalloc(sg_cnt, sizeof(*ctx->map.sges), GFP_KERNEL);
	if (!ctx->map.sges)
		goto err_sges;
	ctx->map.wrs = kcalloc(ctx->nr_ops, sizeof(*ctx->map.wrs), GFP_KERNEL);
	if (!ctx->map.wrs)
		goto err_wrs;

	sges = ctx->map.sges;
	for (i = 0; i < ctx->nr_ops; i++, sges += n, left -= n) {
		n = min(left, max_sge);
		rw_set_rdma(&ctx->map.wrs[i], sges, n, remote_addr, rkey, dir);
		remote_addr += rw_fill_sges(sges, &sg, n, offset, lkey);
		offset = 0;
		if (i)
			ctx->map.wrs[i - 1].wr.next = &ctx->map.wrs[i].wr;
	}
	ctx->type = RW_CTX_MAP;
	return ctx->nr_ops;

err_wrs:
	kfree(ctx->map.sges);
err_sges:
	return -ENOMEM;
}

/* ---- Shape 3: fast registration, one MR per chunk of pages --------------- */

/*
 * Queue a LOCAL_INV of the MR's current key ahead of its registration if
 * its last use left it valid. Return: WRs added, 0 or 1.
 */
static int rw_reg_prepare_inv(struct rdma_rw_reg_ctx *reg)
{
	if (!reg->mr->need_inval) {
		reg->inv_wr.next = NULL;
		return 0;
	}
	reg->inv_wr.opcode = IB_WR_LOCAL_INV;
	reg->inv_wr.ex.invalidate_rkey = reg->mr->lkey;
	reg->inv_wr.next = &reg->reg_wr.wr;
	return 1;
}

/* The first WR of @reg's part of the chain. */
static struct ib_send_wr *rw_reg_first_wr(struct rdma_rw_reg_ctx *reg)
{
	return reg->inv_wr.next ? &reg->inv_wr : &reg->reg_wr.wr;
}

/* Registration rights: local write, and remote write for an iWARP READ sink. */
static int rw_reg_access(struct ib_qp *qp, u32 port)
{
	if (rdma_protocol_iwarp(qp->device, port))
		return IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	return IB_ACCESS_LOCAL_WRITE;
}

/*
 * Borrow an MR for @nents entries from @sg (@offset bytes into the first)
 * and build its INV, REG and RDMA WRs, chained in that order.
 * Return: WRs built, or -EAGAIN with the pool empty, -EINVAL when the MR
 * cannot map all the entries (the MR is back in the pool then).
 */
static int rw_reg_build_one(struct ib_qp *qp, u32 port,
			    struct rdma_rw_reg_ctx *reg, struct scatterlist *sg,
			    u32 nents, u32 offset, u64 remote_addr, u32 rkey,
			    enum dma_data_direction dir)
{
	unsigned int off = offset;
	int inv, mapped;

	reg->mr = ib_mr_pool_get(qp, &qp->rdma_mrs);
	if (!reg->mr)
		return -EAGAIN;
	inv = rw_reg_prepare_inv(reg);
	mapped = ib_map_mr_sg(reg->mr, sg, nents, &off, PAGE_SIZE);
	if (mapped < 0 || (u32)mapped < nents) {
		ibdev_dbg(qp->device, "MR mapped %d of %u entries\n", mapped,
			  nents);
		ib_mr_pool_put(qp, &qp->rdma_mrs, reg->mr);
		return -EINVAL;
	}

	reg->reg_wr.wr.opcode = IB_WR_REG_MR;
	reg->reg_wr.wr.next = &reg->wr.wr;
	reg->reg_wr.mr = reg->mr;
	reg->reg_wr.access = rw_reg_access(qp, port);
	reg->sge.addr = reg->mr->iova;
	reg->sge.length = reg->mr->length;
	rw_set_rdma(&reg->wr, &reg->sge, 1, remote_addr, rkey, dir);
	/* where reads can invalidate, the MR is released by the READ itself */
	if (dir == DMA_FROM_DEVICE && rdma_cap_read_inv(qp->device, port)) {
		reg->wr.wr.opcode = IB_WR_RDMA_READ_WITH_INV;
		reg->wr.wr.ex.invalidate_rkey = reg->mr->lkey;
	}
	return inv + 2;
}

static int rw_build_mr(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port,
		       struct scatterlist *sg, u32 sg_cnt, u32 offset,
		       u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	u32 per_mr = rw_pages_per_mr(qp->device, qp->integrity_en);
	struct rdma_rw_reg_ctx *reg;
	int count = 0, ret;
	u32 i, nents;

	if (!per_mr) {
		ibdev_dbg(qp->device, "no fast registration pages\n");
		return -EINVAL;
	}
	ctx->nr_ops = DIV_ROUND_UP(sg_cnt, per_mr);
	ctx->reg = kcalloc(ctx->nr_ops, sizeof(*ctx->reg), GFP_KERNEL);
	if (!ctx->reg)
		return -ENOMEM;

	for (i = 0; i < ctx->nr_ops; i++, sg_cnt -= nents, offset = 0) {
		reg = &ctx->reg[i];
		nents = min(sg_cnt, per_mr);
		ret = rw_reg_build_one(qp, port, reg, sg, nents, offset,
				       remote_addr, rkey, dir);
		if (ret < 0)
			goto err_put;
		count += ret;
		if (i)
			ctx->reg[i - 1].wr.wr.next = rw_reg_first_wr(reg);
		remote_addr += reg->sge.length;
		sg = rw_sg_advance(sg, nents);
	}
	ctx->type = RW_CTX_MR;
	return count;

err_put:
	while (i--)
		ib_mr_pool_put(qp, &qp->rdma_mrs, ctx->reg[i].mr);
	kfree(ctx->reg);
	return ret;
}

/* ---- Contexts ------------------------------------------------------------ */

/*
 * Build @ctx for the mapped list @sg of @sg_cnt entries, from @offset
 * bytes in: skip the entries the offset passes over, then pick the shape.
 */
static int rw_build(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port,
		    struct scatterlist *sg, u32 sg_cnt, u32 offset,
		    u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	int ret;

	for (; sg_cnt && offset >= sg_dma_len(sg); sg_cnt--) {
		offset -= sg_dma_len(sg);
		sg = sg_next(sg);
	}
	if (!sg_cnt) {
		ibdev_warn(qp->device, "rdma_rw: offset beyond the scatterlist\n");
		return -EIO;
	}

	if (rw_io_needs_mr(qp->device, port, dir, sg_cnt)) {
		ret = rw_build_mr(ctx, qp, port, sg, sg_cnt, offset,
				  remote_addr, rkey, dir);
		/* only an optional MR whose pool ran dry falls back to SGEs */
		if (ret != -EAGAIN || rw_mr_required(qp->device, port))
			return ret;
	}
	if (sg_cnt > 1)
		return rw_build_map(ctx, qp, sg, sg_cnt, offset, remote_addr,
				    rkey, dir);
	return rw_build_single(ctx, qp, sg, offset, remote_addr, rkey, dir);
}

/**
 * rdma_rw_ctx_init() - map a scatterlist and build the WRs of one RDMA I/O
 * @ctx: the context to fill in
 * @qp: the QP the WRs will be posted on
 * @port_num: the port the QP's connection uses
 * @sg: the local scatterlist, not yet DMA mapped
 * @sg_cnt: its number of entries
 * @sg_offset: bytes of @sg to skip
 * @remote_addr: the remote buffer's address, as seen through @rkey
 * @rkey: the remote key
 * @dir: DMA_TO_DEVICE for an RDMA WRITE, DMA_FROM_DEVICE for an RDMA READ
 *
 * Maps @sg for @qp's device (a device without DMA gets kernel virtual
 * addresses) and describes it with a single WR, several WRs within the
 * QP's SGE limit, or per-MR registrations, depending on the device, the
 * direction and the force_mr module parameter. Post the result with
 * rdma_rw_ctx_post() or rdma_rw_ctx_wrs(); release it with
 * rdma_rw_ctx_destroy() after the WRs completed (or were never posted).
 *
 * Context: process context, may sleep (allocates with GFP_KERNEL).
 * Return: the send queue entries the WRs take (> 0), or a negative errno:
 * -EIO when nothing is left to map (@sg_cnt 0, or @sg_offset beyond the
 * list) or mapping fails, -ENOMEM, -EAGAIN when registration is required
 * and the QP's MR pool is empty, -EINVAL when an MR cannot map the pages
 * or the QP has no SGEs for the direction. On error nothing stays mapped.
 */
int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	struct ib_device *dev = qp->pd->device;
	struct sg_table sgt = { .sgl = sg, .orig_nents = sg_cnt };
	int ret;

	if (!sg_cnt) {
		ibdev_dbg(dev, "rdma_rw: empty scatterlist\n");
		return -EIO;
	}
	ret = ib_dma_map_sgtable_attrs(dev, &sgt, dir, 0);
	if (ret)
		return ret;

	ret = rw_build(ctx, qp, port_num, sg, sgt.nents, sg_offset,
		       remote_addr, rkey, dir);
	if (ret < 0)
		ib_dma_unmap_sgtable_attrs(dev, &sgt, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_init);

/* ---- Signature contexts -------------------------------------------------- */

/* DMA map the data list and, if there is one, the protection list. */
static int rw_sig_map(struct ib_device *dev, struct sg_table *data,
		      struct sg_table *prot, enum dma_data_direction dir)
{
	int ret = ib_dma_map_sgtable_attrs(dev, data, dir, 0);

	if (ret || !prot->orig_nents)
		return ret;
	ret = ib_dma_map_sgtable_attrs(dev, prot, dir, 0);
	if (ret)
		ib_dma_unmap_sgtable_attrs(dev, data, dir, 0);
	return ret;
}

static void rw_sig_unmap(struct ib_device *dev, struct sg_table *data,
			 struct sg_table *prot, enum dma_data_direction dir)
{
	if (prot->orig_nents)
		ib_dma_unmap_sgtable_attrs(dev, prot, dir, 0);
	ib_dma_unmap_sgtable_attrs(dev, data, dir, 0);
}

/*
 * Borrow an integrity MR, load both lists into it and build the
 * REG_MR_INTEGRITY and RDMA WRs. Return: WRs built, or a negative errno
 * with the MR back in the pool.
 */
static int rw_sig_build(struct rdma_rw_reg_ctx *reg, struct ib_qp *qp,
			u32 port, struct sg_table *data, struct sg_table *prot,
			struct ib_sig_attrs *sig_attrs, u64 remote_addr,
			u32 rkey, enum dma_data_direction dir)
{
	int inv, ret;

	reg->mr = ib_mr_pool_get(qp, &qp->sig_mrs);
	if (!reg->mr)
		return -EAGAIN;
	inv = rw_reg_prepare_inv(reg);
	*reg->mr->sig_attrs = *sig_attrs;
	ret = ib_map_mr_sg_pi(reg->mr, data->sgl, data->nents, NULL,
			      prot->sgl, prot->nents, NULL, SZ_4K);
	if (ret) {
		ibdev_warn(qp->device, "rdma_rw: cannot map %u+%u PI entries: %d\n",
			   data->nents, prot->nents, ret);
		ib_mr_pool_put(qp, &qp->sig_mrs, reg->mr);
		return ret < 0 ? ret : -EINVAL;
	}

	reg->reg_wr.wr.opcode = IB_WR_REG_MR_INTEGRITY;
	reg->reg_wr.wr.next = &reg->wr.wr;
	reg->reg_wr.mr = reg->mr;
	reg->reg_wr.key = reg->mr->lkey;
	reg->reg_wr.access = rw_reg_access(qp, port);
	reg->sge.addr = reg->mr->iova;
	reg->sge.length = reg->mr->length;
	/* without PI on the wire, the metadata stays local */
	if (sig_attrs->wire.sig_type == IB_SIG_TYPE_NONE)
		reg->sge.length -= reg->mr->sig_attrs->meta_length;
	rw_set_rdma(&reg->wr, &reg->sge, 1, remote_addr, rkey, dir);
	return inv + 2;
}

/**
 * rdma_rw_ctx_signature_init() - build an RDMA I/O with T10-PI offload
 * @ctx: the context to fill in
 * @qp: the QP, created with IB_QP_CREATE_INTEGRITY_EN
 * @port_num: the port the QP's connection uses
 * @sg: the data scatterlist, not yet DMA mapped
 * @sg_cnt: its number of entries
 * @prot_sg: the protection information scatterlist, or NULL
 * @prot_sg_cnt: its number of entries, 0 for none
 * @sig_attrs: what the device checks and inserts in memory and on the wire
 * @remote_addr: the remote buffer's address, as seen through @rkey
 * @rkey: the remote key
 * @dir: DMA_TO_DEVICE for an RDMA WRITE, DMA_FROM_DEVICE for an RDMA READ
 *
 * Uses one integrity MR of the QP's signature pool, registered with an
 * IB_WR_REG_MR_INTEGRITY, and one RDMA WR through it. Release the context
 * with rdma_rw_ctx_destroy_signature().
 *
 * Context: process context, may sleep.
 * Return: the send queue entries the WRs take (> 0), or a negative errno:
 * -EINVAL when a list has more entries than one MR maps, -EAGAIN with the
 * signature pool empty, -ENOMEM, or the mapping's error.
 */
int rdma_rw_ctx_signature_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			       struct scatterlist *prot_sg, u32 prot_sg_cnt,
			       struct ib_sig_attrs *sig_attrs, u64 remote_addr,
			       u32 rkey, enum dma_data_direction dir)
{
	struct ib_device *dev = qp->pd->device;
	u32 per_mr = rw_pages_per_mr(dev, qp->integrity_en);
	struct sg_table data = { .sgl = sg, .orig_nents = sg_cnt };
	struct sg_table prot = { .sgl = prot_sg, .orig_nents = prot_sg_cnt };
	int ret;

	if (sg_cnt > per_mr || prot_sg_cnt > per_mr) {
		ibdev_warn(dev, "rdma_rw: %u data and %u PI entries, an MR maps %u\n",
			   sg_cnt, prot_sg_cnt, per_mr);
		return -EINVAL;
	}
	ret = rw_sig_map(dev, &data, &prot, dir);
	if (ret)
		return ret;
	ctx->reg = kzalloc(sizeof(*ctx->reg), GFP_KERNEL);
	if (!ctx->reg) {
		ret = -ENOMEM;
		goto err_unmap;
	}
	ret = rw_sig_build(ctx->reg, qp, port_num, &data, &prot, sig_attrs,
			   remote_addr, rkey, dir);
	if (ret < 0)
		goto err_free;
	ctx->type = RW_CTX_SIG_MR;
	ctx->nr_ops = 1;
	return ret;

err_free:
	kfree(ctx->reg);
err_unmap:
	rw_sig_unmap(dev, &data, &prot, dir);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_signature_init);

/* ---- Posting ------------------------------------------------------------- */

/*
 * Give the MR a fresh key for this registration. Done at post time, not
 * init, so a context that is built but never posted leaves the MR's key
 * and invalidation state as they were.
 */
static void rw_reg_rekey(struct rdma_rw_reg_ctx *reg)
{
	struct ib_mr *mr = reg->mr;
	bool read_inv = reg->wr.wr.opcode == IB_WR_RDMA_READ_WITH_INV;

	/* a READ_WITH_INV leaves the MR invalid; anything else leaves it valid */
	mr->need_inval = !read_inv;
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->lkey));
	reg->reg_wr.key = mr->lkey;
	reg->sge.lkey = mr->lkey;
	if (read_inv)
		reg->wr.wr.ex.invalidate_rkey = mr->lkey;
}

/* The first and the last WR of @ctx's chain; false for a bad context. */
static bool rw_chain_ends(struct rdma_rw_ctx *ctx, struct ib_send_wr **first,
			  struct ib_send_wr **last)
{
	u32 i;

	switch (ctx->type) {
	case RW_CTX_SINGLE:
		*first = *last = &ctx->single.wr.wr;
		return true;
	case RW_CTX_MAP:
		*first = &ctx->map.wrs[0].wr;
		*last = &ctx->map.wrs[ctx->nr_ops - 1].wr;
		return true;
	case RW_CTX_MR:
	case RW_CTX_SIG_MR:
		for (i = 0; i < ctx->nr_ops; i++)
			rw_reg_rekey(&ctx->reg[i]);
		*first = rw_reg_first_wr(&ctx->reg[0]);
		*last = &ctx->reg[ctx->nr_ops - 1].wr.wr;
		return true;
	}
	return false;
}

/**
 * rdma_rw_ctx_wrs() - the chain of WRs of a context, ready to post
 * @ctx: a context from rdma_rw_ctx_init() or rdma_rw_ctx_signature_init()
 * @qp: its QP
 * @port_num: the port the QP's connection uses
 * @cqe: completion of the last WR, used when @chain_wr is NULL
 * @chain_wr: a WR (chain) to post after the context's WRs, or NULL
 *
 * Registration and invalidation WRs come first where the context uses
 * MRs, and the MRs get fresh keys now. With @chain_wr, the context's last
 * WR continues into it and completions are up to @chain_wr; without, the
 * last WR is signaled and completes through @cqe. Meant for callers that
 * post the chain together with their own WRs.
 *
 * Context: any context.
 * Return: the first WR, or NULL (with a warning) for a context that was
 * never built.
 */
struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first, *last;

	if (WARN_ON_ONCE(!rw_chain_ends(ctx, &first, &last)))
		return NULL;
	if (chain_wr) {
		/* the caller's WRs follow and decide on completions */
		last->next = chain_wr;
		return first;
	}
	/* nothing follows: the last WR completes the context through @cqe */
	last->wr_cqe = cqe;
	last->send_flags |= IB_SEND_SIGNALED;
	return first;
}
EXPORT_SYMBOL(rdma_rw_ctx_wrs);

/**
 * rdma_rw_ctx_post() - post the WRs of a context
 * @ctx: a context from rdma_rw_ctx_init() or rdma_rw_ctx_signature_init()
 * @qp: its QP
 * @port_num: the port the QP's connection uses
 * @cqe: completion of the last WR, used when @chain_wr is NULL
 * @chain_wr: a WR (chain) to post after the context's WRs, or NULL
 *
 * Posts what rdma_rw_ctx_wrs() returns.
 *
 * Context: any context the QP's post_send allows.
 * Return: 0, -EINVAL for a context that was never built, or the error of
 * ib_post_send().
 */
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first = rdma_rw_ctx_wrs(ctx, qp, port_num, cqe,
						   chain_wr);

	if (!first)
		return -EINVAL;
	return ib_post_send(qp, first, NULL);
}
EXPORT_SYMBOL(rdma_rw_ctx_post);

/* ---- Release ------------------------------------------------------------- */

/**
 * rdma_rw_ctx_destroy() - release a context of rdma_rw_ctx_init()
 * @ctx: the context; its WRs must have completed or never been posted
 * @qp: its QP
 * @port_num: the port the QP's connection uses
 * @sg: the scatterlist given to rdma_rw_ctx_init()
 * @sg_cnt: the entry count given to rdma_rw_ctx_init()
 * @dir: the direction given to rdma_rw_ctx_init()
 *
 * Returns the MRs to the QP's pool, frees the WR arrays and unmaps @sg.
 *
 * Context: any context (does not sleep).
 */
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir)
{
	u32 i;

	switch (ctx->type) {
	case RW_CTX_SINGLE:
		break;
	case RW_CTX_MAP:
		kfree(ctx->map.wrs);
		kfree(ctx->map.sges);
		break;
	case RW_CTX_MR:
		for (i = 0; i < ctx->nr_ops; i++)
			ib_mr_pool_put(qp, &qp->rdma_mrs, ctx->reg[i].mr);
		kfree(ctx->reg);
		break;
	default:
		/* a signature context, or none: leave it alone */
		WARN_ONCE(1, "rdma_rw: context of type %u\n", ctx->type);
		return;
	}
	ib_dma_unmap_sg(qp->pd->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy);

/**
 * rdma_rw_ctx_destroy_signature() - release a context of rdma_rw_ctx_signature_init()
 * @ctx: the context; its WRs must have completed or never been posted
 * @qp: its QP
 * @port_num: the port the QP's connection uses
 * @sg: the data scatterlist given at init
 * @sg_cnt: its entry count given at init
 * @prot_sg: the protection information scatterlist given at init
 * @prot_sg_cnt: its entry count given at init
 * @dir: the direction given at init
 *
 * Returns the integrity MR to the QP's signature pool and unmaps both
 * lists. A context that is not a signature one is left alone, with a
 * warning.
 *
 * Context: any context (does not sleep).
 */
void rdma_rw_ctx_destroy_signature(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct scatterlist *sg,
				   u32 sg_cnt, struct scatterlist *prot_sg,
				   u32 prot_sg_cnt,
				   enum dma_data_direction dir)
{
	struct ib_device *dev = qp->pd->device;

	if (WARN_ON_ONCE(ctx->type != RW_CTX_SIG_MR))
		return;
	ib_mr_pool_put(qp, &qp->sig_mrs, ctx->reg->mr);
	kfree(ctx->reg);
	if (prot_sg_cnt)
		ib_dma_unmap_sg(dev, prot_sg, prot_sg_cnt, dir);
	ib_dma_unmap_sg(dev, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy_signature);

/* ---- Sizing QPs ---------------------------------------------------------- */

/**
 * rdma_rw_mr_factor() - contexts' worth of MRs (or WRs) a transfer needs
 * @device: the device
 * @port_num: the port
 * @maxpages: the largest transfer, in pages, one context will move
 *
 * For sizing a transport: how many registrations (where the device uses
 * MRs) or RDMA READ WRs of max_sge_rd SGEs (where it does not) one
 * context of @maxpages pages takes.
 *
 * Context: any context.
 * Return: that number; 0 for a device that reports no per-MR pages and no
 * max_sge_rd.
 */
unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages)
{
	/* pages one registration maps, or SGEs one RDMA READ carries */
	unsigned int per_op = rw_uses_mrs(device, port_num) ?
			      rw_pages_per_mr(device, false) :
			      device->attrs.max_sge_rd;

	if (!per_op) {
		ibdev_dbg(device, "rdma_rw: no pages per MR or SGEs per READ\n");
		return 0;
	}
	return DIV_ROUND_UP(maxpages, per_op);
}
EXPORT_SYMBOL(rdma_rw_mr_factor);

/**
 * rdma_rw_max_send_wr() - send queue entries a number of contexts needs
 * @dev: the device
 * @port_num: the port
 * @max_rdma_ctxs: how many contexts may be in flight at once
 * @create_flags: the QP's creation flags (IB_QP_CREATE_INTEGRITY_EN counts)
 *
 * One entry per context, plus a registration and an invalidation where
 * the device uses MRs or the QP does integrity offload.
 *
 * Context: any context.
 * Return: the number of entries, UINT_MAX if it does not fit.
 */
unsigned int rdma_rw_max_send_wr(struct ib_device *dev, u32 port_num,
				 unsigned int max_rdma_ctxs, u32 create_flags)
{
	unsigned int wrs;

	if (check_mul_overflow(rw_wrs_per_ctx(dev, port_num, create_flags),
			       max_rdma_ctxs, &wrs))
		return UINT_MAX;
	return wrs;
}
EXPORT_SYMBOL(rdma_rw_max_send_wr);

/**
 * rdma_rw_init_qp() - grow a QP's send queue for its rdma_rw contexts
 * @dev: the device the QP will be created on
 * @attr: the creation attributes; cap.max_send_wr grows by what
 *	cap.max_rdma_ctxs contexts take, capped at the device's max_qp_wr
 *
 * Called by ib_core before creating a kernel QP that asks for contexts.
 *
 * Context: any context.
 */
void rdma_rw_init_qp(struct ib_device *dev, struct ib_qp_init_attr *attr)
{
	unsigned int per_ctx;
	u32 want;

	WARN_ON_ONCE(attr->port_num == 0);
	per_ctx = rw_wrs_per_ctx(dev, attr->port_num, attr->create_flags);
	if (check_add_overflow(attr->cap.max_send_wr,
			       per_ctx * attr->cap.max_rdma_ctxs, &want))
		want = U32_MAX;
	/* the device may give less; the ULP lives with that */
	attr->cap.max_send_wr = min_t(u32, want, dev->attrs.max_qp_wr);
}
EXPORT_SYMBOL_IF_KUNIT(rdma_rw_init_qp);

/**
 * rdma_rw_init_mrs() - fill a new QP's MR pools for its rdma_rw contexts
 * @qp: the QP, just created
 * @attr: its creation attributes (cap.max_rdma_ctxs, create_flags,
 *	port_num)
 *
 * An integrity QP gets cap.max_rdma_ctxs MRs in both qp->rdma_mrs and
 * qp->sig_mrs, sized for PI fast registration; a QP on a device that uses
 * MRs gets that many in qp->rdma_mrs; any other QP none.
 *
 * Context: process context, may sleep.
 * Return: 0, or the allocation's errno with both pools empty again.
 */
int rdma_rw_init_mrs(struct ib_qp *qp, struct ib_qp_init_attr *attr)
{
	struct ib_device *dev = qp->pd->device;
	u32 nr = attr->cap.max_rdma_ctxs;
	bool integrity = attr->create_flags & IB_QP_CREATE_INTEGRITY_EN;
	u32 pages = rw_pages_per_mr(dev, integrity);
	int ret;

	if (!nr || (!integrity && !rw_uses_mrs(dev, attr->port_num)))
		return 0;
	ret = ib_mr_pool_init(qp, &qp->rdma_mrs, nr, IB_MR_TYPE_MEM_REG,
			      pages, 0);
	if (ret)
		goto err_rdma;
	if (!integrity)
		return 0;
	ret = ib_mr_pool_init(qp, &qp->sig_mrs, nr, IB_MR_TYPE_INTEGRITY,
			      pages, pages);
	if (ret)
		goto err_sig;
	return 0;

err_sig:
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
err_rdma:
	ibdev_warn(dev, "rdma_rw: cannot allocate %u MRs for QP %u: %d\n",
		   nr, qp->qp_num, ret);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(rdma_rw_init_mrs);

/**
 * rdma_rw_cleanup_mrs() - free a QP's rdma_rw MR pools
 * @qp: the QP, about to be destroyed; every context must be destroyed
 *
 * Context: process context, may sleep.
 */
void rdma_rw_cleanup_mrs(struct ib_qp *qp)
{
	ib_mr_pool_destroy(qp, &qp->sig_mrs);
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
}
EXPORT_SYMBOL_IF_KUNIT(rdma_rw_cleanup_mrs);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * rdma_rw_force_mr_set() - set the force_mr module parameter, for tests
 * @on: the new value
 *
 * Context: any context; nothing else may change it meanwhile.
 * Return: the old value.
 */
bool rdma_rw_force_mr_set(bool on)
{
	bool old = READ_ONCE(rdma_rw_force_mr);

	WRITE_ONCE(rdma_rw_force_mr, on);
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(rdma_rw_force_mr_set);
#endif
