/* SPDX-License-Identifier: GPL-2.0-only */
/* sysfs attributes of an ib_device port (/sys/class/infiniband/<dev>/ports/<n>/...). */
#ifndef RDMAOOT_RDMA_IB_SYSFS_H
#define RDMAOOT_RDMA_IB_SYSFS_H

#include <linux/sysfs.h>

struct ib_device;

/* A port attribute: show/store get the device and port instead of a kobject. */
struct ib_port_attribute {
	struct attribute attr;
	ssize_t (*show)(struct ib_device *ibdev, u32 port_num,
			struct ib_port_attribute *attr, char *buf);
	ssize_t (*store)(struct ib_device *ibdev, u32 port_num,
			 struct ib_port_attribute *attr, const char *buf,
			 size_t count);
};

/*
 * Declare ib_port_attr_<name> wired to <name>_show()/<name>_store(), with
 * the usual sysfs modes (ADMIN_RW: root only, 0600).
 */
#define IB_PORT_ATTR_RW(_name)						\
	struct ib_port_attribute ib_port_attr_##_name = __ATTR_RW(_name)

#define IB_PORT_ATTR_ADMIN_RW(_name)					\
	struct ib_port_attribute ib_port_attr_##_name =			\
		__ATTR_RW_MODE(_name, 0600)

#define IB_PORT_ATTR_RO(_name)						\
	struct ib_port_attribute ib_port_attr_##_name = __ATTR_RO(_name)

#define IB_PORT_ATTR_WO(_name)						\
	struct ib_port_attribute ib_port_attr_##_name = __ATTR_WO(_name)

/*
 * Device and port number behind a port's kobject, for drivers that hang
 * their own attributes off a port with plain kobject callbacks.
 */
struct ib_device *ib_port_sysfs_get_ibdev_kobj(struct kobject *kobj,
					       u32 *port_num);

#endif /* RDMAOOT_RDMA_IB_SYSFS_H */
