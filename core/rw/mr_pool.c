// SPDX-License-Identifier: GPL-2.0-only
/* Per-QP pools of fast-registration MRs, allocated up front and lent out per I/O. */
/*
 * A pool is a list_head the caller owns (qp->rdma_mrs and qp->sig_mrs for
 * rdma_rw, or one of a ULP's own), holding idle MRs linked through
 * ib_mr.qp_entry. qp->mr_lock protects every pool list of the QP and
 * qp->mrs_used, the number of MRs lent out from any of them; it is taken
 * with interrupts off, since MRs are returned from completion handlers.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>

/* One MR of the kind the pool holds. */
static struct ib_mr *mr_pool_alloc_one(struct ib_qp *qp, enum ib_mr_type type,
				       u32 max_num_sg, u32 max_num_meta_sg)
{
	if (type == IB_MR_TYPE_INTEGRITY)
		return ib_alloc_mr_integrity(qp->pd, max_num_sg,
					     max_num_meta_sg);
	return ib_alloc_mr(qp->pd, type, max_num_sg);
}

/*
 * Take the first idle MR off @list, or NULL when there is none. @lend
 * counts it in qp->mrs_used, as an MR lent to a caller who will put it
 * back; pool destruction takes MRs for good and does not.
 */
static struct ib_mr *mr_pool_take_locked(struct ib_qp *qp,
					 struct list_head *list, bool lend)
	__must_hold(&qp->mr_lock)
{
	struct ib_mr *mr;

	lockdep_assert_held(&qp->mr_lock);
	mr = list_first_entry_or_null(list, struct ib_mr, qp_entry);
	if (!mr)
		return NULL;
	list_del(&mr->qp_entry);
	if (lend)
		qp->mrs_used++;
	return mr;
}

/**
 * ib_mr_pool_init() - fill a QP's MR pool
 * @qp: the QP whose PD the MRs are allocated on and whose mr_lock guards
 *	@list
 * @list: the pool, an initialised (normally empty) list
 * @nr: how many MRs to add
 * @type: their type; IB_MR_TYPE_INTEGRITY allocates integrity MRs
 * @max_num_sg: pages (data pages for integrity MRs) each MR can map
 * @max_num_meta_sg: metadata pages of an integrity MR, else ignored
 *
 * Either all @nr MRs are added, or, when one allocation fails, every MR
 * now on @list is freed again (so use a fresh list per call).
 *
 * Context: process context, may sleep.
 * Return: 0, or the errno of the failed ib_alloc_mr() or
 * ib_alloc_mr_integrity().
 */
int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg)
{
	unsigned long flags;
	struct ib_mr *mr;
	int i;

	for (i = 0; i < nr; i++) {
		mr = mr_pool_alloc_one(qp, type, max_num_sg, max_num_meta_sg);
		if (IS_ERR(mr)) {
			ibdev_dbg(qp->device, "MR pool: MR %d of %d: %ld\n",
				  i, nr, PTR_ERR(mr));
			ib_mr_pool_destroy(qp, list);
			return PTR_ERR(mr);
		}
		spin_lock_irqsave(&qp->mr_lock, flags);
		list_add_tail(&mr->qp_entry, list);
		spin_unlock_irqrestore(&qp->mr_lock, flags);
	}
	return 0;
}
EXPORT_SYMBOL(ib_mr_pool_init);

/**
 * ib_mr_pool_destroy() - free every idle MR of a pool
 * @qp: the QP the pool belongs to
 * @list: the pool; empty on return
 *
 * MRs still lent out are not on the list and so not freed: return them
 * with ib_mr_pool_put() first.
 *
 * Context: process context, may sleep; takes and drops qp->mr_lock,
 * which is never held across the deregistration.
 */
void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list)
{
	unsigned long flags;
	struct ib_mr *mr;

	for (;;) {
		spin_lock_irqsave(&qp->mr_lock, flags);
		mr = mr_pool_take_locked(qp, list, false);
		spin_unlock_irqrestore(&qp->mr_lock, flags);
		if (!mr)
			return;
		ib_dereg_mr(mr);
	}
}
EXPORT_SYMBOL(ib_mr_pool_destroy);

/**
 * ib_mr_pool_put() - give a borrowed MR back to its pool
 * @qp: the QP the pool belongs to
 * @list: the pool it was taken from
 * @mr: the MR
 *
 * The MR goes to the head of the pool, so the next ib_mr_pool_get() hands
 * out the most recently used one.
 *
 * Context: any context; takes qp->mr_lock with interrupts off.
 */
void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list, struct ib_mr *mr)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->mr_lock, flags);
	/* the loan ends: the MR is idle again */
	qp->mrs_used--;
	list_add(&mr->qp_entry, list);
	spin_unlock_irqrestore(&qp->mr_lock, flags);
}
EXPORT_SYMBOL(ib_mr_pool_put);

/**
 * ib_mr_pool_get() - borrow an idle MR from a pool
 * @qp: the QP the pool belongs to
 * @list: the pool
 *
 * The MR counts in qp->mrs_used until given back with ib_mr_pool_put().
 *
 * Context: any context; takes qp->mr_lock with interrupts off.
 * Return: the MR, or NULL when every MR of the pool is lent out.
 */
struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list)
{
	unsigned long flags;
	struct ib_mr *mr;

	spin_lock_irqsave(&qp->mr_lock, flags);
	mr = mr_pool_take_locked(qp, list, true);
	spin_unlock_irqrestore(&qp->mr_lock, flags);
	return mr;
}
EXPORT_SYMBOL(ib_mr_pool_get);
