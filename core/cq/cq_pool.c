// SPDX-License-Identifier: GPL-2.0-only
/* The device's pool of shared CQs: ib_cq_pool_get() and ib_cq_pool_put(). */

#include <kunit/visibility.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "cq/cq.h"

/*
 * Smallest CQ the pool creates (unless the device's limit is lower): big
 * enough that many users share one CQ rather than each adding a CQ.
 */
#define CQ_POOL_MIN_CQE		4096U

/*
 * The pool keeps one list per poll context in dev->cq_pools[], guarded by
 * dev->cq_pools_lock together with every pooled CQ's cqe_used. A pooled
 * CQ has cq->shared set; it stays in the pool until ib_cq_pool_cleanup().
 */

/* Vectors the pool spreads over: one per vector, at most one per CPU. */
static unsigned int cq_pool_nr_vectors(const struct ib_device *dev)
{
	if (dev->num_comp_vectors <= 0)
		return 0;
	return min_t(unsigned int, dev->num_comp_vectors, num_online_cpus());
}

/* The vector for @hint; a negative hint goes round the vectors. */
static unsigned int cq_pool_vector(int hint, unsigned int nr_vectors)
{
	static unsigned int last;

	if (hint < 0) {
		hint = (READ_ONCE(last) + 1) % nr_vectors;
		WRITE_ONCE(last, hint);
	}
	return hint % nr_vectors;
}

/* The first CQ of @pool on @vector with room for @nr_cqe more entries. */
static struct ib_cq *cq_pool_find(struct ib_device *dev,
				  struct list_head *pool, unsigned int vector,
				  unsigned int nr_cqe)
	__must_hold(&dev->cq_pools_lock)
{
	struct ib_cq *cq;

	lockdep_assert_held(&dev->cq_pools_lock);
	list_for_each_entry(cq, pool, pool_entry) {
		/* cqe_used never exceeds cqe, so this cannot wrap */
		if (cq->comp_vector == vector &&
		    nr_cqe <= cq->cqe - cq->cqe_used)
			return cq;
	}
	return NULL;
}

/* Take @nr_cqe entries of a fitting pooled CQ, or return NULL. */
static struct ib_cq *cq_pool_claim(struct ib_device *dev,
				   enum ib_poll_context poll_ctx,
				   unsigned int vector, unsigned int nr_cqe)
{
	struct ib_cq *cq;

	spin_lock_irq(&dev->cq_pools_lock);
	cq = cq_pool_find(dev, &dev->cq_pools[poll_ctx], vector, nr_cqe);
	if (cq)
		cq->cqe_used += nr_cqe;
	spin_unlock_irq(&dev->cq_pools_lock);
	return cq;
}

/* Free CQs that were never or are no longer in a pool. */
static void cq_pool_free_list(struct list_head *cqs)
{
	struct ib_cq *cq, *next;

	list_for_each_entry_safe(cq, next, cqs, pool_entry) {
		list_del(&cq->pool_entry);
		cq->shared = false;
		ib_free_cq(cq);
	}
}

/*
 * Add one CQ per vector to the @poll_ctx pool, each with room for at least
 * @nr_cqe entries. -EINVAL if the device cannot give that much, instead
 * of growing the pool for ever.
 */
static int cq_pool_grow(struct ib_device *dev, unsigned int nr_cqe,
			enum ib_poll_context poll_ctx, unsigned int nr_vectors)
{
	unsigned int size, i;
	struct ib_cq *cq;
	LIST_HEAD(cqs);
	int err;

	size = min_t(unsigned int, dev->attrs.max_cqe,
		     max(nr_cqe, CQ_POOL_MIN_CQE));
	for (i = 0; i < nr_vectors; i++) {
		cq = ib_alloc_cq(dev, NULL, size, i, poll_ctx);
		if (IS_ERR(cq)) {
			err = PTR_ERR(cq);
			goto err_alloc;
		}
		list_add_tail(&cq->pool_entry, &cqs);
		cq->shared = true;
		err = -EINVAL;
		if (cq->cqe < 0 || nr_cqe > cq->cqe)
			goto err_alloc;
	}

	spin_lock_irq(&dev->cq_pools_lock);
	list_splice(&cqs, &dev->cq_pools[poll_ctx]);
	spin_unlock_irq(&dev->cq_pools_lock);
	return 0;

err_alloc:
	cq_pool_free_list(&cqs);
	return err;
}

/**
 * ib_cq_pool_get() - take entries of a shared CQ
 * @dev: the device
 * @nr_cqe: how many entries the caller needs (its queues' total depth)
 * @comp_vector_hint: the completion vector wanted (taken modulo the
 *	number of usable vectors), or negative to let the core go round them
 * @poll_ctx: IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE or IB_POLL_UNBOUND_WORKQUEUE
 *
 * Returns the first pooled CQ of @poll_ctx on the chosen vector with
 * @nr_cqe free entries and claims them. If there is none, the pool grows
 * by one CQ per usable vector (at least 4096 entries each, capped by the
 * device's max_cqe) and the search is repeated. Give the entries back with
 * ib_cq_pool_put(); the CQ itself lives until the device goes away.
 *
 * Context: process context, may sleep; takes dev->cq_pools_lock.
 * Return: the CQ, or ERR_PTR() of -EINVAL for a bad @poll_ctx (with a
 * warning), a device without completion vectors or a request larger than
 * the device's CQs, or the error of creating a CQ.
 */
struct ib_cq *ib_cq_pool_get(struct ib_device *dev, unsigned int nr_cqe,
			     int comp_vector_hint,
			     enum ib_poll_context poll_ctx)
{
	unsigned int nr_vectors, vector;
	struct ib_cq *cq;
	int err;

	if (WARN_ON_ONCE((unsigned int)poll_ctx > IB_POLL_LAST_POOL_TYPE))
		return ERR_PTR(-EINVAL);
	nr_vectors = cq_pool_nr_vectors(dev);
	if (!nr_vectors)
		return ERR_PTR(-EINVAL);
	vector = cq_pool_vector(comp_vector_hint, nr_vectors);

	/* another caller may take the new room before us: search again */
	while (!(cq = cq_pool_claim(dev, poll_ctx, vector, nr_cqe))) {
		err = cq_pool_grow(dev, nr_cqe, poll_ctx, nr_vectors);
		if (err)
			return ERR_PTR(err);
	}
	return cq;
}
EXPORT_SYMBOL(ib_cq_pool_get);

/**
 * ib_cq_pool_put() - give back entries taken with ib_cq_pool_get()
 * @cq: the CQ ib_cq_pool_get() returned
 * @nr_cqe: the @nr_cqe passed to ib_cq_pool_get()
 *
 * Giving back more than is taken triggers a warning and changes nothing.
 *
 * Context: process context; takes cq->device->cq_pools_lock.
 */
void ib_cq_pool_put(struct ib_cq *cq, unsigned int nr_cqe)
{
	struct ib_device *dev = cq->device;

	spin_lock_irq(&dev->cq_pools_lock);
	if (!WARN_ON_ONCE(nr_cqe > cq->cqe_used))
		cq->cqe_used -= nr_cqe;
	spin_unlock_irq(&dev->cq_pools_lock);
}
EXPORT_SYMBOL(ib_cq_pool_put);

/**
 * ib_cq_pool_cleanup() - free every CQ of a device's pool
 * @dev: the device, which must have no users of the pool left
 *
 * Used by the device model while unregistering @dev; exported only to the
 * KUnit tests. A CQ whose entries were not all given back triggers a
 * warning and is leaked rather than freed under its user.
 *
 * Context: process context, may sleep; takes dev->cq_pools_lock.
 */
void ib_cq_pool_cleanup(struct ib_device *dev)
{
	unsigned int i;
	LIST_HEAD(cqs);

	spin_lock_irq(&dev->cq_pools_lock);
	for (i = 0; i < ARRAY_SIZE(dev->cq_pools); i++)
		list_splice_init(&dev->cq_pools[i], &cqs);
	spin_unlock_irq(&dev->cq_pools_lock);

	cq_pool_free_list(&cqs);
}
EXPORT_SYMBOL_IF_KUNIT(ib_cq_pool_cleanup);
