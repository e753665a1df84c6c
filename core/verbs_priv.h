/* SPDX-License-Identifier: GPL-2.0-only */
/* What the kernel verbs files share with each other, with uverbs and with the tests. */
#ifndef RDMAOOT_CORE_VERBS_PRIV_H
#define RDMAOOT_CORE_VERBS_PRIV_H

#include <rdma/ib_verbs.h>

/* ---- Queue pairs (core/qp.c) --------------------------------------------- */

/*
 * Create a QP for uverbs (or, with @udata NULL, the kernel) without taking
 * references on its PD, CQs and SRQ; an XRC target QP comes back as a
 * handle opened on it (see core/xrcd.c). Exported, as in 6.1, for uverbs.
 */
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller);

/* Take or drop the usecnt references a QP holds on what it was created on. */
void ib_qp_usecnt_inc(struct ib_qp *qp);
void ib_qp_usecnt_dec(struct ib_qp *qp);

/* ---- XRC target QPs shared through an XRC domain (core/xrcd.c) ----------- */

/*
 * Publish the freshly created XRC target QP @real_qp in its XRC domain and
 * return the first handle opened on it, or an ERR_PTR() after which
 * @real_qp is still the caller's to destroy.
 */
struct ib_qp *ib_xrcd_share_qp(struct ib_qp *real_qp,
			       struct ib_qp_init_attr *attr);

/*
 * ib_destroy_qp_user() of a handle: close it and destroy the real QP with
 * the last handle. Always 0, as in 6.1.
 */
int ib_xrcd_destroy_shared_qp(struct ib_qp *qp);

#endif /* RDMAOOT_CORE_VERBS_PRIV_H */
