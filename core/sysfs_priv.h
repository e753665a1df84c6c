/* SPDX-License-Identifier: GPL-2.0-only */
/* The sysfs tree of an RDMA device (core/sysfs.c, core/sysfs_port.c), inside ib_core. */
#ifndef RDMAOOT_CORE_SYSFS_PRIV_H
#define RDMAOOT_CORE_SYSFS_PRIV_H

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

#endif /* RDMAOOT_CORE_SYSFS_PRIV_H */
