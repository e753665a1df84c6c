/* SPDX-License-Identifier: GPL-2.0-only */
/* What the kernel verbs files share with each other, with uverbs and with the tests. */
#ifndef RDMAOOT_CORE_VERBS_VERBS_H
#define RDMAOOT_CORE_VERBS_VERBS_H

#include <rdma/ib_verbs.h>

/* ---- Queue pairs (core/verbs/qp.c) --------------------------------------- */

/*
 * Create a QP for uverbs (or, with @udata NULL, the kernel) without taking
 * references on its PD, CQs and SRQ; an XRC target QP comes back as a
 * handle opened on it (see core/verbs/xrcd.c). Exported, as in 6.1, for uverbs.
 */
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller);

/* Take or drop the usecnt references a QP holds on what it was created on. */
void ib_qp_usecnt_inc(struct ib_qp *qp);
void ib_qp_usecnt_dec(struct ib_qp *qp);

/* ---- XRC target QPs shared through an XRC domain (core/verbs/xrcd.c) ----- */

/*
 * Publish the freshly created XRC target QP @real_qp in its XRC domain and
 * return the first handle opened on it (for @uobj), or an ERR_PTR() after
 * which @real_qp is still the caller's to destroy.
 */
struct ib_qp *ib_xrcd_share_qp(struct ib_qp *real_qp,
			       struct ib_qp_init_attr *attr,
			       struct ib_uqp_object *uobj);

/*
 * ib_destroy_qp_user() of a handle: close it and destroy the real QP with
 * the last handle. Always 0, as in 6.1.
 */
int ib_xrcd_destroy_shared_qp(struct ib_qp *qp);

/* ---- Address vectors (core/verbs/ah.c) ----------------------------------- */

/*
 * Check @attr for @dev and, for a global attr without one, take a
 * reference on its source GID entry into grh.sgid_attr; @old remembers
 * the caller's pointer. Every success is paired with
 * ib_ah_attr_unfill_sgid(), which leaves the attr owning what it owned.
 */
int ib_ah_attr_fill_sgid(struct ib_device *dev, struct rdma_ah_attr *attr,
			 const struct ib_gid_attr **old);
void ib_ah_attr_unfill_sgid(struct rdma_ah_attr *attr,
			    const struct ib_gid_attr *old);
/* Drop an object's reference @old and take one on filled @attr's entry. */
const struct ib_gid_attr *ib_ah_attr_swap_sgid(const struct rdma_ah_attr *attr,
					       const struct ib_gid_attr *old);
/* RoCE destination MAC of a filled attr; may sleep. */
int ib_resolve_eth_dmac(struct ib_device *device, struct rdma_ah_attr *ah_attr);
/* The MAC when the GID alone says it (multicast, RoCE v1 link-local). */
bool ib_ah_roce_dmac_from_gid(const union ib_gid *dgid,
			      enum ib_gid_type sgid_type, u8 *dmac);

#endif /* RDMAOOT_CORE_VERBS_VERBS_H */
