/* SPDX-License-Identifier: GPL-2.0-only */
/* Generic RDMA READ/WRITE contexts: map a scatterlist to the work requests that move it. */
#ifndef RDMAOOT_RDMA_RW_H
#define RDMAOOT_RDMA_RW_H

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/mr_pool.h>

/*
 * State for one logical RDMA READ or WRITE of a scatterlist to/from a
 * remote buffer. @nr_ops counts the READ/WRITE work requests (MR
 * registration and invalidation WRs not included). @type, private to
 * rdma_rw, says which member of the union is in use:
 *   single - one SGE, one WR;
 *   map    - arrays of SGEs and WRs, local DMA lkey;
 *   reg    - one entry per MR taken from the QP's pool, each with its
 *            registration, RDMA and optional invalidate WR.
 */
struct rdma_rw_ctx {
	u32			nr_ops;
	u8			type;

	union {
		struct {
			struct ib_sge		sge;
			struct ib_rdma_wr	wr;
		} single;

		struct {
			struct ib_sge		*sges;
			struct ib_rdma_wr	*wrs;
		} map;

		struct rdma_rw_reg_ctx {
			struct ib_sge		sge;
			struct ib_rdma_wr	wr;
			struct ib_reg_wr	reg_wr;
			struct ib_send_wr	inv_wr;
			struct ib_mr		*mr;
		} *reg;
	};
};

/* ---- Contexts --------------------------------------------------------------- */

/*
 * DMA-map @sg (from @sg_offset bytes in) and build the WRs that move it
 * to or from @remote_addr/@rkey; @dir DMA_TO_DEVICE means RDMA WRITE.
 * Returns the number of WRs needed (>0) or a negative errno.
 */
int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir);
/* Undo rdma_rw_ctx_init() once its WRs have completed. */
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir);

/* The same with T10-PI: data in @sg, protection info in @prot_sg. */
int rdma_rw_ctx_signature_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			       struct scatterlist *prot_sg, u32 prot_sg_cnt,
			       struct ib_sig_attrs *sig_attrs, u64 remote_addr,
			       u32 rkey, enum dma_data_direction dir);
void rdma_rw_ctx_destroy_signature(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct scatterlist *sg,
				   u32 sg_cnt, struct scatterlist *prot_sg,
				   u32 prot_sg_cnt,
				   enum dma_data_direction dir);

/* ---- Posting ---------------------------------------------------------------- */

/*
 * Chain of WRs for @ctx, ending in @chain_wr if given; otherwise the last
 * WR is signaled and completes through @cqe. Post it as part of a larger
 * chain, or use rdma_rw_ctx_post() to post it directly.
 */
struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr);
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr);

/* ---- Sizing a QP ------------------------------------------------------------- */

/* MRs (or, where MRs are not used, WRs) one context needs for @maxpages pages. */
unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages);
/* Send queue depth for @max_rdma_ctxs contexts on a QP with @create_flags. */
unsigned int rdma_rw_max_send_wr(struct ib_device *dev, u32 port_num,
				 unsigned int max_rdma_ctxs, u32 create_flags);

/*
 * QP creation hooks used by ib_core: grow the send queue for
 * attr->cap.max_rdma_ctxs, then fill and drain the QP's MR pools.
 */
void rdma_rw_init_qp(struct ib_device *dev, struct ib_qp_init_attr *attr);
int rdma_rw_init_mrs(struct ib_qp *qp, struct ib_qp_init_attr *attr);
void rdma_rw_cleanup_mrs(struct ib_qp *qp);

#endif /* RDMAOOT_RDMA_RW_H */
