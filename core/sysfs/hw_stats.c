// SPDX-License-Identifier: GPL-2.0-only
/* Hardware counter sets (struct rdma_hw_stats): allocation and cached refresh. */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

#include "sysfs/sysfs.h"

/*
 * A set's values are refreshed from the driver's get_hw_stats op when a
 * reader finds them older than the set's lifespan; readers inside the
 * lifespan see the cached values. stats->lock serialises the refresh with
 * readers and with lifespan changes, and protects value[], timestamp and
 * lifespan.
 */

/* The longest lifespan sysfs accepts, in milliseconds. */
#define HW_STATS_LIFESPAN_MAX_MS	10000

/**
 * rdma_alloc_hw_stats_struct() - Allocate a set of hardware counters
 * @descs: one descriptor per counter; must outlive the set
 * @num_counters: number of counters, at least 1
 * @lifespan: how long, in milliseconds, read values stay valid; -1 (as
 *	      an unsigned long) for RDMA_HW_STATS_DEFAULT_LIFESPAN
 *
 * Drivers call it from their alloc_hw_device_stats/alloc_hw_port_stats
 * ops. All counters start at zero and enabled (is_disabled clear).
 *
 * Context: Process context, may sleep.
 * Return: the set, or NULL for bad arguments or without memory.
 */
struct rdma_hw_stats *
rdma_alloc_hw_stats_struct(const struct rdma_stat_desc *descs,
			   int num_counters, unsigned long lifespan)
{
	struct rdma_hw_stats *stats;

	if (!descs || num_counters <= 0) {
		pr_debug("hw stats: no descriptors or %d counters\n",
			 num_counters);
		return NULL;
	}
	stats = kzalloc(struct_size(stats, value, num_counters), GFP_KERNEL);
	if (!stats)
		return NULL;
	stats->is_disabled = bitmap_zalloc(num_counters, GFP_KERNEL);
	if (!stats->is_disabled) {
		kfree(stats);
		return NULL;
	}

	if (lifespan == (unsigned long)-1)
		lifespan = RDMA_HW_STATS_DEFAULT_LIFESPAN;
	stats->lifespan = msecs_to_jiffies(lifespan);
	stats->descs = descs;
	stats->num_counters = num_counters;
	mutex_init(&stats->lock);
	return stats;
}
EXPORT_SYMBOL(rdma_alloc_hw_stats_struct);

/**
 * rdma_free_hw_stats_struct() - Free a set from rdma_alloc_hw_stats_struct()
 * @stats: the set, or NULL
 *
 * Context: Any context that may free memory; nobody may read the set.
 */
void rdma_free_hw_stats_struct(struct rdma_hw_stats *stats)
{
	if (!stats)
		return;
	mutex_destroy(&stats->lock);
	bitmap_free(stats->is_disabled);
	kfree(stats);
}
EXPORT_SYMBOL(rdma_free_hw_stats_struct);

/* Are the values read at stats->timestamp still within the lifespan? */
static bool hw_stats_fresh(const struct rdma_hw_stats *stats)
{
	return time_is_after_eq_jiffies(stats->timestamp + stats->lifespan);
}

/**
 * ib_hw_stats_update() - Refresh a counter set if its values are stale
 * @dev: the device the set belongs to
 * @stats: the set
 * @port: its port, 0 for the device-wide set
 * @index: the counter the caller wants, or stats->num_counters for all
 *
 * Calls the driver's get_hw_stats op unless the set was read in full less
 * than its lifespan ago. Only a full read (the op returning num_counters)
 * restarts the lifespan, so a driver that reads single counters is asked
 * every time.
 *
 * Context: Process context, may sleep; the caller holds @stats->lock.
 * Return: 0, or the negative errno of the driver's op.
 */
int ib_hw_stats_update(struct ib_device *dev, struct rdma_hw_stats *stats,
		       u32 port, int index)
{
	int ret;

	lockdep_assert_held(&stats->lock);
	if (hw_stats_fresh(stats))
		return 0;
	ret = dev->ops.get_hw_stats(dev, stats, port, index);
	if (ret < 0)
		return ret;
	if (ret == stats->num_counters)
		stats->timestamp = jiffies;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_hw_stats_update);

/**
 * ib_hw_stats_value_show() - Format one counter for sysfs, refreshed
 * @dev: the device
 * @stats: the set
 * @port: its port, 0 for the device-wide set
 * @index: the counter, below stats->num_counters
 * @buf: the sysfs page
 *
 * Context: Process context, may sleep. Takes @stats->lock.
 * Return: the length written, or the driver's negative errno.
 */
ssize_t ib_hw_stats_value_show(struct ib_device *dev,
			       struct rdma_hw_stats *stats, u32 port,
			       int index, char *buf)
{
	ssize_t ret;

	mutex_lock(&stats->lock);
	ret = ib_hw_stats_update(dev, stats, port, index);
	if (!ret)
		ret = sysfs_emit(buf, "%llu\n", stats->value[index]);
	mutex_unlock(&stats->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ib_hw_stats_value_show);

/**
 * ib_hw_stats_lifespan_show() - Format a set's lifespan (ms) for sysfs
 * @stats: the set
 * @buf: the sysfs page
 *
 * Context: Process context, may sleep. Takes @stats->lock.
 * Return: the length written.
 */
ssize_t ib_hw_stats_lifespan_show(struct rdma_hw_stats *stats, char *buf)
{
	unsigned int msecs;

	mutex_lock(&stats->lock);
	msecs = jiffies_to_msecs(stats->lifespan);
	mutex_unlock(&stats->lock);
	return sysfs_emit(buf, "%u\n", msecs);
}
EXPORT_SYMBOL_IF_KUNIT(ib_hw_stats_lifespan_show);

/**
 * ib_hw_stats_lifespan_store() - Set a set's lifespan from sysfs
 * @stats: the set
 * @buf: decimal milliseconds, 0 to 10000
 * @count: length of @buf
 *
 * Context: Process context, may sleep. Takes @stats->lock.
 * Return: @count; -EINVAL for a malformed or out-of-range value, -ERANGE
 * for one that does not fit an int.
 */
ssize_t ib_hw_stats_lifespan_store(struct rdma_hw_stats *stats,
				   const char *buf, size_t count)
{
	int msecs;
	int ret;

	ret = kstrtoint(buf, 10, &msecs);
	if (ret)
		return ret;
	if (msecs < 0 || msecs > HW_STATS_LIFESPAN_MAX_MS)
		return -EINVAL;

	mutex_lock(&stats->lock);
	stats->lifespan = msecs_to_jiffies(msecs);
	mutex_unlock(&stats->lock);
	return count;
}
EXPORT_SYMBOL_IF_KUNIT(ib_hw_stats_lifespan_store);
