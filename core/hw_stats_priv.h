/* SPDX-License-Identifier: GPL-2.0-only */
/* Hardware counter sets and their hw_counters/ sysfs directories, inside ib_core. */
#ifndef RDMAOOT_CORE_HW_STATS_PRIV_H
#define RDMAOOT_CORE_HW_STATS_PRIV_H

#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

/* ---- Cached refresh and sysfs formatting (core/hw_stats.c) --------------- */

/*
 * The functions taking a struct rdma_hw_stats are exported to KUnit
 * (EXPORTED_FOR_KUNIT_TESTING) when CONFIG_KUNIT is set.
 */
int ib_hw_stats_update(struct ib_device *dev, struct rdma_hw_stats *stats,
		       u32 port, int index);
ssize_t ib_hw_stats_value_show(struct ib_device *dev,
			       struct rdma_hw_stats *stats, u32 port,
			       int index, char *buf);
ssize_t ib_hw_stats_lifespan_show(struct rdma_hw_stats *stats, char *buf);
ssize_t ib_hw_stats_lifespan_store(struct rdma_hw_stats *stats,
				   const char *buf, size_t count);

/* ---- hw_counters/ directories (core/hw_counters.c) ----------------------- */

/* One hw_counters/ directory: a counter set and its attribute group. */
struct ib_hw_counters;

/*
 * A port's directory, from the driver's alloc_hw_port_stats op: the set is
 * read once in full. ERR_PTR(-EOPNOTSUPP) when the driver has no such op.
 */
struct ib_hw_counters *ib_hw_counters_port_create(struct ib_device *dev,
						  u32 port);
void ib_hw_counters_destroy(struct ib_hw_counters *hc);
const struct attribute_group *
ib_hw_counters_group(const struct ib_hw_counters *hc);
struct rdma_hw_stats *ib_hw_counters_stats(const struct ib_hw_counters *hc);

/*
 * The device-wide directory: set up from alloc_hw_device_stats into a free
 * slot of ib_device.groups before device_add(), torn down after
 * device_del().
 */
int ib_hw_counters_device_setup(struct ib_device *dev);
void ib_hw_counters_device_teardown(struct ib_device *dev);

#endif /* RDMAOOT_CORE_HW_STATS_PRIV_H */
