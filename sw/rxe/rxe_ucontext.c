// SPDX-License-Identifier: GPL-2.0-only
/* rxe_ucontext.c - user contexts: what an open of /dev/infiniband/uverbsN makes in the driver. */
/*
 * A context holds the buffers its process may still map (rxe_mmap.c): the
 * rings of its user CQs until each is mapped. It must exist for ib_uverbs
 * to offer the device to user space at all.
 */

#include "rxe_ops.h"
#include "rxe_verbs.h"

/**
 * rxe_ucontext_alloc() - the alloc_ucontext verb
 * @ibuc: the context, allocated by the core at our size
 * @udata: the provider's request (rdma-core's rxe sends none)
 *
 * Context: process context.
 * Return: 0.
 */
int rxe_ucontext_alloc(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct rxe_ucontext *uc = to_ruc(ibuc);

	spin_lock_init(&uc->mmap_lock);
	INIT_LIST_HEAD(&uc->mmap_pending);
	rxe_dbg_dev(to_rdev(ibuc->device), "user context for pid %d\n",
		    task_tgid_nr(current));
	return 0;
}

/**
 * rxe_ucontext_dealloc() - the dealloc_ucontext verb
 * @ibuc: the context; the core destroyed its objects first, which
 *	withdrew every buffer not mapped yet
 *
 * Context: process context.
 */
void rxe_ucontext_dealloc(struct ib_ucontext *ibuc)
{
	WARN_ON(!list_empty(&to_ruc(ibuc)->mmap_pending));
}
