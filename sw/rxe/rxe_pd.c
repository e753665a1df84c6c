// SPDX-License-Identifier: GPL-2.0-only
/* rxe_pd.c - protection domains: nothing but a count against the device limit. */

#include "rxe_ops.h"
#include "rxe_verbs.h"

/**
 * rxe_pd_alloc() - the alloc_pd verb
 * @ibpd: the PD, allocated by the core
 * @udata: user data of a user PD (rdma-core's rxe sends none), or NULL
 *
 * Context: process context.
 * Return: 0, -ENOMEM beyond attr.max_pd.
 */
int rxe_pd_alloc(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibpd->device);

	if (!rxe_count_inc(&rxe->num_pd, rxe->attr.max_pd)) {
		rxe_dbg_dev(rxe, "too many PDs\n");
		return -ENOMEM;
	}
	return 0;
}

/**
 * rxe_pd_dealloc() - the dealloc_pd verb
 * @ibpd: the PD; the core checked that nothing uses it
 * @udata: user data (unused)
 *
 * Context: process context.
 * Return: 0.
 */
int rxe_pd_dealloc(struct ib_pd *ibpd, struct ib_udata *udata)
{
	atomic_dec(&to_rdev(ibpd->device)->num_pd);
	return 0;
}
