// SPDX-License-Identifier: GPL-2.0-only
/* The sysfs attributes of an RDMA device itself, and the registration steps that add its tree. */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

#include "sysfs/sysfs.h"

/*
 * /sys/class/infiniband/<dev>/
 *	node_type node_guid sys_image_guid fw_ver node_desc
 *	+ the driver's ops.device_group, hw_counters/, ports/ (sysfs_port.c)
 *
 * The attributes read fields the driver set before registration, except
 * node_desc, which a store changes through the driver's modify_device.
 */

static const char *const node_type_names[] = {
	[RDMA_NODE_IB_CA]	= "CA",
	[RDMA_NODE_IB_SWITCH]	= "switch",
	[RDMA_NODE_IB_ROUTER]	= "router",
	[RDMA_NODE_RNIC]	= "RNIC",
	[RDMA_NODE_USNIC]	= "usNIC",
	[RDMA_NODE_USNIC_UDP]	= "usNIC UDP",
	[RDMA_NODE_UNSPECIFIED]	= "unspecified",
};

static ssize_t node_type_show(struct device *kdev,
			      struct device_attribute *attr, char *buf)
{
	struct ib_device *dev = rdma_device_to_ibdev(kdev);
	const char *name = NULL;

	if (dev->node_type < ARRAY_SIZE(node_type_names))
		name = node_type_names[dev->node_type];
	return sysfs_emit(buf, "%u: %s\n", dev->node_type,
			  name ?: "<unknown>");
}
static DEVICE_ATTR_RO(node_type);

/* A GUID as four big-endian 16-bit groups: "0002:c903:0011:2233". */
static ssize_t guid_emit(__be64 guid, char *buf)
{
	u64 v = be64_to_cpu(guid);

	return sysfs_emit(buf, "%04x:%04x:%04x:%04x\n",
			  (u16)(v >> 48), (u16)(v >> 32), (u16)(v >> 16),
			  (u16)v);
}

static ssize_t node_guid_show(struct device *kdev,
			      struct device_attribute *attr, char *buf)
{
	return guid_emit(rdma_device_to_ibdev(kdev)->node_guid, buf);
}
static DEVICE_ATTR_RO(node_guid);

static ssize_t sys_image_guid_show(struct device *kdev,
				   struct device_attribute *attr, char *buf)
{
	return guid_emit(rdma_device_to_ibdev(kdev)->attrs.sys_image_guid, buf);
}
static DEVICE_ATTR_RO(sys_image_guid);

static ssize_t fw_ver_show(struct device *kdev, struct device_attribute *attr,
			   char *buf)
{
	char fw[IB_FW_VERSION_NAME_MAX] = {};

	ib_get_device_fw_str(rdma_device_to_ibdev(kdev), fw);
	return sysfs_emit(buf, "%s\n", fw);
}
static DEVICE_ATTR_RO(fw_ver);

static ssize_t node_desc_show(struct device *kdev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%.*s\n", IB_DEVICE_NODE_DESC_MAX,
			  rdma_device_to_ibdev(kdev)->node_desc);
}

/*
 * The driver gets the written bytes as they are, at most 64 of them.
 * ib_modify_device() answers -EOPNOTSUPP for a driver that cannot change
 * the description.
 */
static ssize_t node_desc_store(struct device *kdev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct ib_device_modify modify = {};
	int ret;

	memcpy(modify.node_desc, buf, min(count, sizeof(modify.node_desc)));
	ret = ib_modify_device(rdma_device_to_ibdev(kdev),
			       IB_DEVICE_MODIFY_NODE_DESC, &modify);
	return ret ?: count;
}
static DEVICE_ATTR_RW(node_desc);

static struct attribute *ib_dev_attrs[] = {
	&dev_attr_node_type.attr,
	&dev_attr_node_guid.attr,
	&dev_attr_sys_image_guid.attr,
	&dev_attr_fw_ver.attr,
	&dev_attr_node_desc.attr,
	NULL
};

const struct attribute_group ib_dev_attr_group = {
	.attrs = ib_dev_attrs,
};

/* ---- Registration steps -------------------------------------------------- */

int ib_sysfs_device_setup(struct ib_device *dev)
{
	int ret;

	dev->groups[0] = &ib_dev_attr_group;
	dev->groups[1] = dev->ops.device_group;
	ret = ib_hw_counters_device_setup(dev);
	if (ret) {
		dev->groups[1] = NULL;
		dev->groups[0] = NULL;
	}
	return ret;
}

void ib_sysfs_device_teardown(struct ib_device *dev)
{
	ib_hw_counters_device_teardown(dev);
	dev->groups[1] = NULL;
	dev->groups[0] = NULL;
}

int ib_sysfs_ports_setup(struct ib_device *dev)
{
	return ib_setup_port_attrs(&dev->coredev);
}

void ib_sysfs_ports_teardown(struct ib_device *dev)
{
	ib_free_port_attrs(&dev->coredev);
}
