// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_mw.c - memory windows (type 1 and 2B): allocation, binding, and their
 * part in rkey lookups.
 */

#include <kunit/visibility.h>
#include "rxe_ops.h"
#include "rxe_verbs.h"
#include "rxe_qp.h"
#include "rxe_mr.h"

/**
 * rxe_mw_alloc() - the alloc_mw verb
 * @ibmw: the MW, allocated by the core; ibmw->type is 1 or 2
 * @udata: user data (rdma_rxe takes none); a user MW is bound only by
 *	work requests of a user QP of its PD
 *
 * The MW starts unbound, with rkey (index << 8).
 *
 * Context: process context.
 * Return: 0, -EINVAL for an unknown type, -ENOMEM (also beyond
 * attr.max_mw).
 */
int rxe_mw_alloc(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmw->device);
	struct rxe_mw *mw = to_rmw(ibmw);
	int err;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	if (!rxe_count_inc(&rxe->num_mw, rxe->attr.max_mw))
		return -ENOMEM;
	err = rxe_key_add(rxe, &mw->key, RXE_KEY_MW);
	if (err) {
		atomic_dec(&rxe->num_mw);
		return err;
	}
	spin_lock_init(&mw->lock);
	mw->pd = to_rpd(ibmw->pd);
	mw->state = RXE_MEM_FREE;
	mw->mkey = mw->key.index << 8;
	ibmw->rkey = mw->mkey;
	rxe_key_publish(rxe, &mw->key);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mw_alloc);

/* Unbind; caller holds mw->lock. Returns the MR to release after unlock. */
static struct rxe_mr *rxe_mw_unbind_locked(struct rxe_mw *mw)
{
	struct rxe_mr *mr = mw->mr;

	lockdep_assert_held(&mw->lock);
	mw->mr = NULL;
	mw->state = RXE_MEM_FREE;
	return mr;
}

/* Drop the binding's hold on @mr (NULL: nothing was bound). */
static void rxe_mw_release_mr(struct rxe_mr *mr)
{
	if (!mr)
		return;
	atomic_dec(&mr->num_mw);
	rxe_mr_put(mr);
}

static void rxe_mw_unbind(struct rxe_mw *mw)
{
	unsigned long flags;
	struct rxe_mr *mr;

	spin_lock_irqsave(&mw->lock, flags);
	mr = rxe_mw_unbind_locked(mw);
	spin_unlock_irqrestore(&mw->lock, flags);
	rxe_mw_release_mr(mr);
}

/**
 * rxe_mw_dealloc() - the dealloc_mw verb
 * @ibmw: the MW; unbound here if still bound
 *
 * The core frees the MW on return, so lookups that may have found it must
 * be over: this waits for an RCU grace period.
 *
 * Context: process context, sleeps.
 * Return: 0.
 */
int rxe_mw_dealloc(struct ib_mw *ibmw)
{
	struct rxe_dev *rxe = to_rdev(ibmw->device);
	struct rxe_mw *mw = to_rmw(ibmw);

	rxe_key_del(rxe, &mw->key);
	rxe_mw_unbind(mw);
	synchronize_rcu();
	atomic_dec(&rxe->num_mw);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mw_dealloc);

/*
 * Whether @mr may carry a window of @access over [@addr, @addr + @length);
 * caller holds mr->lock.
 */
static int rxe_mw_bind_check(struct rxe_mw *mw, struct rxe_mr *mr, u64 addr,
			     u64 length, int access)
{
	lockdep_assert_held(&mr->lock);
	/* acquire: pairs with rxe_mr_fast_reg() making the MR valid */
	if (smp_load_acquire(&mr->state) != RXE_MEM_VALID ||
	    mr->pd != mw->pd || (access & IB_ZERO_BASED))
		return -EINVAL;
	/*
	 * The MR lends its pages: it must allow binding, and a window that
	 * lets peers write or do atomics needs pages the MR may write
	 * (IBA C10-74). The MR's own remote rights do not matter.
	 */
	if (!(mr->access & IB_ACCESS_MW_BIND) ||
	    ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	     !(mr->access & IB_ACCESS_LOCAL_WRITE)))
		return -EACCES;
	if (!rxe_mr_covers(mr, addr, length))
		return -EINVAL;
	return 0;
}

/* Bind @mw to @mr (whose reference the caller passes); caller holds mw->lock. */
static struct rxe_mr *rxe_mw_bind_locked(struct rxe_mw *mw, struct rxe_qp *qp,
					 struct rxe_mr *mr, u32 rkey, u64 addr,
					 u64 length, int access)
{
	struct rxe_mr *old = rxe_mw_unbind_locked(mw);

	atomic_inc(&mr->num_mw);
	mw->mr = mr;
	mw->mkey = rkey;
	mw->qpn = qp->ibqp.qp_num;
	mw->addr = addr;
	mw->length = length;
	mw->access = access & RXE_ACCESS_REMOTE;
	mw->state = RXE_MEM_VALID;
	return old;
}

/**
 * rxe_mw_bind() - carry out a bind of a memory window
 * @qp: the QP the bind was posted on; a type 2 window is bound to it
 * @ibmw: the MW, of @qp's PD
 * @ibmr: the MR of the window, valid, of the same PD, with IB_ACCESS_MW_BIND
 * @rkey: the window's new rkey; its index must be the MW's
 * @addr: start of the window, in the MR's address space
 * @length: bytes; zero unbinds a type 1 window
 * @access: IB_ACCESS_REMOTE_* granted, within the MR's remote rights
 *
 * A type 1 window may be rebound while bound; a type 2 one must be
 * invalidated first.
 *
 * Context: any context.
 * Return: 0; -EINVAL for a bad key, state, PD or range; -EACCES when the
 * MR does not allow binding or the access.
 */
int rxe_mw_bind(struct rxe_qp *qp, struct ib_mw *ibmw, struct ib_mr *ibmr,
		u32 rkey, u64 addr, u64 length, int access)
{
	struct rxe_mr *mr = ibmr ? to_rmr(ibmr) : NULL;
	struct rxe_mw *mw = to_rmw(ibmw);
	unsigned long flags;
	struct rxe_mr *old = NULL;
	int err;

	if (mw->pd != rxe_qp_pd(qp) || rxe_key_index(rkey) != mw->key.index)
		return -EINVAL;
	if (ibmw->type == IB_MW_TYPE_1 && !length) {
		rxe_mw_unbind(mw);
		return 0;
	}
	if (!mr) {
		err = -EINVAL;
		goto err_log;
	}
	if (!refcount_inc_not_zero(&mr->key.ref))
		return -EINVAL;

	spin_lock_irqsave(&mw->lock, flags);
	/* a rereg changes the MR's PD and access under its lock */
	spin_lock(&mr->lock);
	err = rxe_mw_bind_check(mw, mr, addr, length, access);
	if (!err && ibmw->type == IB_MW_TYPE_2 && mw->state != RXE_MEM_FREE)
		err = -EINVAL;
	if (!err)
		old = rxe_mw_bind_locked(mw, qp, mr, rkey, addr, length,
					 access);
	spin_unlock(&mr->lock);
	if (!err)
		ibmw->rkey = rkey;
	spin_unlock_irqrestore(&mw->lock, flags);
	if (err) {
		rxe_mr_put(mr);
		goto err_log;
	}
	rxe_mw_release_mr(old);
	return 0;

err_log:
	rxe_dbg_qp(qp, "cannot bind MW %#x as %#x: %d\n", mw->mkey, rkey, err);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mw_bind);

/**
 * rxe_mw_bind_keys() - a bind a user SQ ring asked for, by keys
 * @qp: the QP it was posted on
 * @mw_rkey: the window's current rkey, whole
 * @mr_lkey: the MR's lkey, whole; ignored when a type 1 window is unbound
 *	     (@length 0)
 * @rkey: the window's new rkey
 * @addr: start of the window
 * @length: bytes
 * @access: IB_ACCESS_REMOTE_* granted
 *
 * The keys come from user space: each must name an object of its kind
 * under exactly that key.
 *
 * Context: any context (the requester).
 * Return: as rxe_mw_bind(); -EINVAL for keys that name no such window or
 * MR.
 */
int rxe_mw_bind_keys(struct rxe_qp *qp, u32 mw_rkey, u32 mr_lkey, u32 rkey,
		     u64 addr, u64 length, int access)
{
	struct rxe_key *wk, *mk = NULL;
	struct rxe_mw *mw;
	int err = -EINVAL;

	wk = rxe_key_get(qp->rxe, mw_rkey);
	if (!wk)
		return -EINVAL;
	mw = rxe_key_mw(wk);
	if (wk->kind != RXE_KEY_MW || mw->mkey != mw_rkey)
		goto out;
	if (length || mw->ibmw.type != IB_MW_TYPE_1) {
		mk = rxe_key_get(qp->rxe, mr_lkey);
		if (!mk || mk->kind != RXE_KEY_MR ||
		    rxe_key_mr(mk)->mkey != mr_lkey)
			goto out;
	}
	err = rxe_mw_bind(qp, &mw->ibmw, mk ? &rxe_key_mr(mk)->ibmr : NULL,
			  rkey, addr, length, access);
out:
	if (mk)
		rxe_key_put(mk);
	rxe_key_put(wk);
	return err;
}

/* Whether @qp may reach [@va, @va + @len) with @access through @mw. */
static bool rxe_mw_allows(struct rxe_mw *mw, struct rxe_qp *qp, u32 rkey,
			  u64 va, u32 len, int access)
{
	lockdep_assert_held(&mw->lock);
	if (mw->state != RXE_MEM_VALID || mw->mkey != rkey ||
	    mw->pd != rxe_qp_pd(qp))
		return false;
	if (mw->ibmw.type == IB_MW_TYPE_2 && mw->qpn != qp->ibqp.qp_num)
		return false;
	if ((mw->access & access) != access)
		return false;
	if (va < mw->addr || len > mw->length || va - mw->addr > mw->length - len)
		return false;
	/* the MR may have been invalidated since the bind (acquire as above) */
	return smp_load_acquire(&mw->mr->state) == RXE_MEM_VALID;
}

/**
 * rxe_mw_resolve() - the MR behind an rkey that names a memory window
 * @mw: the window (the caller holds a reference on its key)
 * @qp: the responder's QP
 * @rkey: the whole rkey
 * @va: first address
 * @len: bytes
 * @access: IB_ACCESS_REMOTE_* needed
 *
 * Context: any context.
 * Return: the bound MR with a reference, or NULL when the window is not
 * bound under @rkey, belongs to another PD (type 2: another QP), lacks
 * @access or does not cover the range, or its MR was invalidated.
 */
struct rxe_mr *rxe_mw_resolve(struct rxe_mw *mw, struct rxe_qp *qp, u32 rkey,
			      u64 va, u32 len, int access)
{
	struct rxe_mr *mr = NULL;
	unsigned long flags;

	spin_lock_irqsave(&mw->lock, flags);
	if (rxe_mw_allows(mw, qp, rkey, va, len, access)) {
		mr = mw->mr;
		/* the binding holds a reference, so this cannot be the first */
		refcount_inc(&mr->key.ref);
	}
	spin_unlock_irqrestore(&mw->lock, flags);
	return mr;
}

/**
 * rxe_mw_invalidate() - unbind a type 2 window by its rkey
 * @mw: the window (the caller holds a reference on its key)
 * @qp: the QP the invalidation came through; the window must be bound to it
 * @rkey: the whole rkey
 *
 * Context: any context.
 * Return: 0, or -EINVAL (type 1, not bound, other key, PD or QP).
 */
int rxe_mw_invalidate(struct rxe_mw *mw, struct rxe_qp *qp, u32 rkey)
{
	struct rxe_mr *mr = NULL;
	unsigned long flags;
	int err = -EINVAL;

	if (mw->ibmw.type != IB_MW_TYPE_2)
		return -EINVAL;
	spin_lock_irqsave(&mw->lock, flags);
	if (mw->state == RXE_MEM_VALID && mw->mkey == rkey &&
	    mw->pd == rxe_qp_pd(qp) && mw->qpn == qp->ibqp.qp_num) {
		mr = rxe_mw_unbind_locked(mw);
		err = 0;
	}
	spin_unlock_irqrestore(&mw->lock, flags);
	rxe_mw_release_mr(mr);
	return err;
}
