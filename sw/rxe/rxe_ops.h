/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_ops.h - the verbs entry points, gathered into ib_device_ops by
 * rxe_dev.c; each is defined in its object's file.
 */
#ifndef RXE_OPS_H
#define RXE_OPS_H

#include <rdma/ib_verbs.h>

int rxe_ucontext_alloc(struct ib_ucontext *ibuc, struct ib_udata *udata);
void rxe_ucontext_dealloc(struct ib_ucontext *ibuc);
int rxe_pd_alloc(struct ib_pd *ibpd, struct ib_udata *udata);
int rxe_pd_dealloc(struct ib_pd *ibpd, struct ib_udata *udata);

int rxe_ah_create(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int rxe_ah_modify(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int rxe_ah_query(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int rxe_ah_destroy(struct ib_ah *ibah, u32 flags);

int rxe_cq_create(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int rxe_cq_destroy(struct ib_cq *ibcq, struct ib_udata *udata);
int rxe_cq_resize(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int rxe_cq_poll(struct ib_cq *ibcq, int num, struct ib_wc *wc);
int rxe_cq_peek(struct ib_cq *ibcq, int wc_cnt);
int rxe_cq_req_notify(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

int rxe_srq_create(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int rxe_srq_modify(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int rxe_srq_query(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int rxe_srq_destroy(struct ib_srq *ibsrq, struct ib_udata *udata);
int rxe_srq_post_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);

struct ib_mr *rxe_mr_get_dma(struct ib_pd *ibpd, int access);
struct ib_mr *rxe_mr_alloc(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg);
int rxe_mr_map_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
struct ib_mr *rxe_mr_reg_user(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *rxe_mr_rereg_user(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *ibpd, struct ib_udata *udata);
int rxe_mr_dereg(struct ib_mr *ibmr, struct ib_udata *udata);

int rxe_mw_alloc(struct ib_mw *ibmw, struct ib_udata *udata);
int rxe_mw_dealloc(struct ib_mw *ibmw);

int rxe_mcast_attach(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid);
int rxe_mcast_detach(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid);

int rxe_qp_create(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int rxe_qp_modify(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int rxe_qp_query(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int rxe_qp_destroy(struct ib_qp *ibqp, struct ib_udata *udata);
int rxe_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int rxe_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);

#endif /* RXE_OPS_H */
