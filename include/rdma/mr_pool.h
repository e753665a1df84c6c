/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-QP pools of pre-allocated memory regions (used by rdma_rw and ULPs). */
#ifndef RDMAOOT_RDMA_MR_POOL_H
#define RDMAOOT_RDMA_MR_POOL_H 1

#include <rdma/ib_verbs.h>

/*
 * A pool is a list_head owned by the caller (typically in the QP) filled
 * with @nr MRs of @type. get/put are safe from any context: the QP's
 * mr_lock protects the list. Returns NULL when the pool is empty.
 */
int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg);
void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list);

struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list);
void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list, struct ib_mr *mr);

#endif /* RDMAOOT_RDMA_MR_POOL_H */
