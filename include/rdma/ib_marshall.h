/* SPDX-License-Identifier: GPL-2.0-only */
/* Conversions between kernel verbs/SA structures and their uverbs/ucma ABI forms. */
#ifndef RDMAOOT_RDMA_IB_MARSHALL_H
#define RDMAOOT_RDMA_IB_MARSHALL_H

#include <rdma/ib_verbs.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_sa.h>

void ib_copy_qp_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_qp_attr *dst,
			     struct ib_qp_attr *src);
void ib_copy_ah_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_ah_attr *dst,
			     struct rdma_ah_attr *src);

/* OPA paths are converted to IB form on the way out. */
void ib_copy_path_rec_to_user(struct ib_user_path_rec *dst,
			      struct sa_path_rec *src);
void ib_copy_path_rec_from_user(struct sa_path_rec *dst,
				struct ib_user_path_rec *src);

#endif /* RDMAOOT_RDMA_IB_MARSHALL_H */
