/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_mem.h - access to registered memory for the transport: SGE list
 * cursors, copies through lkeys and rkeys, atomics, local operations on
 * keys (rxe_mr.c, rxe_mw.c). The insides of MRs and MWs are in rxe_mr.h.
 */
#ifndef RXE_MEM_H
#define RXE_MEM_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct rxe_pd;
struct rxe_qp;
struct rxe_mr;

enum rxe_copy_dir {
	RXE_TO_MEM,	/* buffer -> registered memory */
	RXE_FROM_MEM,	/* registered memory -> buffer */
};

/* Progress through an SGE list (send WQE or receive WQE). */
struct rxe_dma {
	u32 length;		/* total bytes described */
	u32 resid;		/* bytes not yet transferred */
	u32 cur_sge;
	u32 sge_offset;
	u32 num_sge;
};

int rxe_sgl_copy(struct rxe_pd *pd, struct rxe_dma *dma,
		 const struct ib_sge *sge, void *buf, u32 len,
		 enum rxe_copy_dir dir);
struct rxe_mr *rxe_rkey_get(struct rxe_qp *qp, u32 rkey, u64 va, u32 len,
			    int access);
int rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u32 len,
		enum rxe_copy_dir dir);
int rxe_mr_atomic(struct rxe_mr *mr, u64 iova, bool cmp_swap, u64 swap_add,
		  u64 comp, u64 *orig);
void rxe_mr_put(struct rxe_mr *mr);
int rxe_mr_fast_reg(struct rxe_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access);
int rxe_key_invalidate(struct rxe_qp *qp, u32 key, bool remote);
int rxe_mw_bind_keys(struct rxe_qp *qp, u32 mw_rkey, u32 mr_lkey, u32 rkey,
		     u64 addr, u64 length, int access);
int rxe_mw_bind(struct rxe_qp *qp, struct ib_mw *ibmw, struct ib_mr *ibmr,
		u32 rkey, u64 addr, u64 length, int access);

#endif /* RXE_MEM_H */
