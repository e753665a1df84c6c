/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/sysfs/: the sysfs tree of an RDMA device and its hardware counter sets,
 * as the rest of ib_core sees them.
 */
#ifndef RDMAOOT_CORE_SYSFS_SYSFS_H
#define RDMAOOT_CORE_SYSFS_SYSFS_H

#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

/*
 * Registration steps of the device model. ib_sysfs_device_setup() fills
 * ib_device.groups (node_type, node_guid, ..., the driver's device_group,
 * hw_counters/) before device_add(); ib_sysfs_device_teardown() runs after
 * device_del(). ib_sysfs_ports_setup() adds ports/ after device_add();
 * ib_sysfs_ports_teardown() removes it before device_del().
 */
int ib_sysfs_device_setup(struct ib_device *dev);
void ib_sysfs_device_teardown(struct ib_device *dev);
int ib_sysfs_ports_setup(struct ib_device *dev);
void ib_sysfs_ports_teardown(struct ib_device *dev);

/* The core's own device attributes: node_type, node_guid, ... */
extern const struct attribute_group ib_dev_attr_group;

/* ports/ of a core device, the device's own or a network namespace copy. */
int ib_setup_port_attrs(struct ib_core_device *coredev);
void ib_free_port_attrs(struct ib_core_device *coredev);

/*
 * The set behind ports/<n>/hw_counters/, for netlink and bound counters.
 * Exported to KUnit (EXPORTED_FOR_KUNIT_TESTING).
 */
struct rdma_hw_stats *ib_get_hw_stats_port(struct ib_device *ibdev,
					   u32 port_num);

/* Exported: legacy per-port files of clients (ib_cm). */
int ib_port_register_client_groups(struct ib_device *ibdev, u32 port_num,
				   const struct attribute_group **groups);
void ib_port_unregister_client_groups(struct ib_device *ibdev, u32 port_num,
				      const struct attribute_group **groups);

/*
 * "rate" of a port from its active speed and width; -EINVAL for a width
 * that is no IB width. Exported to KUnit (EXPORTED_FOR_KUNIT_TESTING).
 */
ssize_t ib_sysfs_rate_format(u16 speed, u8 width, char *buf);

/* ==== Hardware counter sets (core/sysfs/hw_stats.c, hw_counters.c) ======== */

#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

/* ---- Cached refresh and sysfs formatting (core/sysfs/hw_stats.c) --------- */

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

/* ---- hw_counters/ directories (core/sysfs/hw_counters.c) ----------------- */

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

#endif /* RDMAOOT_CORE_SYSFS_SYSFS_H */
