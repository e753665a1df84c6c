// SPDX-License-Identifier: GPL-2.0-only
/* Event entries: the pools ids fill before the driver may call them, so upcalls never allocate. */

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "iwcm/iwcm.h"

/*
 * An allocation the KUnit suites make fail: while positive, each
 * allocation of an id or an event entry counts it down, and the one that
 * brings it to zero fails (1: the next one). Zero outside the suites.
 */
atomic_t iwcm_fault_allocs = ATOMIC_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(iwcm_fault_allocs);

/* True when this allocation is to fail (KUnit only). */
bool iwcm_fault_alloc(void)
{
	return IS_ENABLED(CONFIG_KUNIT) &&
	       atomic_dec_if_positive(&iwcm_fault_allocs) == 0;
}

/**
 * iwcm_pool_alloc() - Allocate event entries onto a list
 * @pool: an empty list; gets @count entries, or none on failure
 * @count: how many; at least 1
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a @count below 1, or -ENOMEM.
 */
int iwcm_pool_alloc(struct list_head *pool, int count)
{
	struct iwcm_event_entry *entry;

	if (count < 1)
		return -EINVAL;
	while (count--) {
		entry = iwcm_fault_alloc() ? NULL :
			kmem_cache_alloc(iwcm.entries, GFP_KERNEL);
		if (!entry) {
			iwcm_pool_free(pool);
			return -ENOMEM;
		}
		list_add_tail(&entry->node, pool);
	}
	return 0;
}

/* Free every entry on @pool (nobody else may see the list). */
void iwcm_pool_free(struct list_head *pool)
{
	struct iwcm_event_entry *entry, *next;

	list_for_each_entry_safe(entry, next, pool, node) {
		list_del(&entry->node);
		kmem_cache_free(iwcm.entries, entry);
	}
}
