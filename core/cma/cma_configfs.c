// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_cm in configfs: rdma_cm/<device>/ports/<n>/default_roce_mode and
 * default_roce_tos, each port's defaults for the ids on it.
 */

#include <kunit/visibility.h>
#include <linux/configfs.h>
#include <linux/slab.h>

#include "cma/cma.h"
#include "device/device.h"

/*
 * The tree, as 6.1 lays it out:
 *
 *   rdma_cm/			the subsystem; mkdir <device> makes a
 *     rxe0/			struct cma_cfs_dev, with its default group
 *       ports/			"ports" and under that one group per port
 *         1/			(struct cma_cfs_port) holding the two files
 *           default_roce_mode	the GID type's name: "IB/RoCE v1", "RoCE v2"
 *           default_roce_tos	a number, 0 to 255
 *
 * A directory names its device and nothing more: every read or write
 * looks the device up by that name again. So a directory holds no
 * reference that would keep a device's removal waiting, and one whose
 * device went away answers -ENODEV. Only devices rdma_cm runs on can be
 * named at mkdir. configfs has no network namespaces: the tree is the
 * same in all of them.
 *
 * The directories of one device are one allocation, freed when the device
 * directory's last reference goes (its default groups hold one each on
 * their parent while configfs has them linked).
 */

/**
 * struct cma_cfs_port - the directory of one port
 * @group: ports/<n>
 * @port: its port number
 * @dev: the device directory it is part of
 */
struct cma_cfs_port {
	struct config_group	group;
	u32			port;
	struct cma_cfs_dev	*dev;
};

/**
 * struct cma_cfs_dev - the directory of one device
 * @group: rdma_cm/<name>
 * @ports: its ports/ directory
 * @name: the device's name when the directory was made
 * @nports: entries of @port
 * @port: the ports' directories
 */
struct cma_cfs_dev {
	struct config_group	group;
	struct config_group	ports;
	char			name[IB_DEVICE_NAME_MAX];
	u32			nports;
	struct cma_cfs_port	port[];
};

static struct cma_cfs_port *cma_cfs_port_of(struct config_item *item)
{
	return container_of(to_config_group(item), struct cma_cfs_port, group);
}

/* The device of a port's directory, referenced; NULL when it is gone. */
static struct cma_device *cma_cfs_device(struct cma_cfs_port *p)
{
	return cma_device_find_by_name(p->dev->name);
}

static ssize_t cma_cfs_default_roce_mode_show(struct config_item *item,
					      char *buf)
{
	struct cma_cfs_port *p = cma_cfs_port_of(item);
	struct cma_device *dev = cma_cfs_device(p);
	enum ib_gid_type type;

	if (!dev)
		return -ENODEV;
	type = cma_device_gid_type(dev, p->port);
	cma_device_put(dev);
	return sysfs_emit(buf, "%s\n", ib_cache_gid_type_str(type));
}

/* A GID type's name as the sysfs GID attributes print it; one newline may follow. */
static ssize_t cma_cfs_default_roce_mode_store(struct config_item *item,
					       const char *buf, size_t count)
{
	struct cma_cfs_port *p = cma_cfs_port_of(item);
	struct cma_device *dev;
	int type, ret;

	type = ib_cache_gid_parse_type_str(buf);
	if (type < 0)
		return -EINVAL;
	dev = cma_cfs_device(p);
	if (!dev)
		return -ENODEV;
	ret = cma_device_set_gid_type(dev, p->port, type);
	cma_device_put(dev);
	return ret ? ret : count;
}

static ssize_t cma_cfs_default_roce_tos_show(struct config_item *item,
					     char *buf)
{
	struct cma_cfs_port *p = cma_cfs_port_of(item);
	struct cma_device *dev = cma_cfs_device(p);
	u8 tos;

	if (!dev)
		return -ENODEV;
	tos = cma_device_roce_tos(dev, p->port);
	cma_device_put(dev);
	return sysfs_emit(buf, "%u\n", tos);
}

/* Decimal, octal with 0 or hex with 0x, as kstrtou8() reads them. */
static ssize_t cma_cfs_default_roce_tos_store(struct config_item *item,
					      const char *buf, size_t count)
{
	struct cma_cfs_port *p = cma_cfs_port_of(item);
	struct cma_device *dev;
	int ret;
	u8 tos;

	ret = kstrtou8(buf, 0, &tos);
	if (ret)
		return ret;
	dev = cma_cfs_device(p);
	if (!dev)
		return -ENODEV;
	ret = cma_device_set_roce_tos(dev, p->port, tos);
	cma_device_put(dev);
	return ret ? ret : count;
}

CONFIGFS_ATTR(cma_cfs_, default_roce_mode);
CONFIGFS_ATTR(cma_cfs_, default_roce_tos);

static struct configfs_attribute *cma_cfs_port_attrs[] = {
	&cma_cfs_attr_default_roce_mode,
	&cma_cfs_attr_default_roce_tos,
	NULL,
};

static const struct config_item_type cma_cfs_port_type = {
	.ct_attrs	= cma_cfs_port_attrs,
	.ct_owner	= THIS_MODULE,
};

static const struct config_item_type cma_cfs_ports_type = {
	.ct_owner	= THIS_MODULE,
};

static struct cma_cfs_dev *cma_cfs_dev_of(struct config_item *item)
{
	return container_of(to_config_group(item), struct cma_cfs_dev, group);
}

/* The device directory's last reference: its ports go with it. */
static void cma_cfs_dev_release(struct config_item *item)
{
	kfree(cma_cfs_dev_of(item));
}

static struct configfs_item_operations cma_cfs_dev_item_ops = {
	.release	= cma_cfs_dev_release,
};

static const struct config_item_type cma_cfs_dev_type = {
	.ct_item_ops	= &cma_cfs_dev_item_ops,
	.ct_owner	= THIS_MODULE,
};

/* Port @i of @d's directories: port number @port, named after it. */
static void cma_cfs_port_init(struct cma_cfs_dev *d, u32 i, u32 port)
{
	struct cma_cfs_port *p = &d->port[i];
	char name[12];

	p->port = port;
	p->dev = d;
	snprintf(name, sizeof(name), "%u", port);
	config_group_init_type_name(&p->group, name, &cma_cfs_port_type);
	configfs_add_default_group(&p->group, &d->ports);
}

/**
 * cma_cfs_dev_make() - mkdir rdma_cm/<name>
 * @parent: the subsystem's group
 * @name: the directory's name, which must be a device rdma_cm runs on
 *
 * Context: process context, from configfs under its subsystem mutex.
 * Return: the device's group with ports/ and a directory per port, or
 * ERR_PTR(-ENODEV) for a name rdma_cm does not know, ERR_PTR(-ENOMEM).
 */
static struct config_group *cma_cfs_dev_make(struct config_group *parent,
					     const char *name)
{
	struct cma_device *dev = cma_device_find_by_name(name);
	struct cma_cfs_dev *d;
	u32 i, first;

	if (!dev)
		return ERR_PTR(-ENODEV);
	d = kzalloc(struct_size(d, port, dev->nports), GFP_KERNEL);
	if (!d) {
		cma_device_put(dev);
		return ERR_PTR(-ENOMEM);
	}
	strscpy(d->name, name, sizeof(d->name));
	d->nports = dev->nports;
	first = rdma_start_port(dev->device);
	cma_device_put(dev);

	config_group_init_type_name(&d->group, name, &cma_cfs_dev_type);
	config_group_init_type_name(&d->ports, "ports", &cma_cfs_ports_type);
	configfs_add_default_group(&d->ports, &d->group);
	for (i = 0; i < d->nports; i++)
		cma_cfs_port_init(d, i, first + i);
	return &d->group;
}

/*
 * rmdir rdma_cm/<name>: configfs has unlinked the directories; the ports'
 * and ports/ itself let go of their parents, then configfs's reference
 * on the device directory goes, and with the last one its memory.
 */
static void cma_cfs_dev_drop(struct config_group *parent,
			     struct config_item *item)
{
	struct cma_cfs_dev *d = cma_cfs_dev_of(item);

	configfs_remove_default_groups(&d->ports);
	configfs_remove_default_groups(&d->group);
	config_item_put(&d->group.cg_item);
}

/* The subsystem's directory: mkdir and rmdir of device directories. */
static struct configfs_group_operations cma_cfs_root_ops = {
	.drop_item	= cma_cfs_dev_drop,
	.make_group	= cma_cfs_dev_make,
};

static const struct config_item_type cma_cfs_root_type = {
	.ct_owner	= THIS_MODULE,
	.ct_group_ops	= &cma_cfs_root_ops,
};

struct configfs_subsystem cma_configfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "rdma_cm",
			.ci_type	= &cma_cfs_root_type,
		},
	},
	.su_mutex = __MUTEX_INITIALIZER(cma_configfs_subsys.su_mutex),
};
EXPORT_SYMBOL_IF_KUNIT(cma_configfs_subsys);

/* Part of rdma_cm's init: /sys/kernel/config/rdma_cm appears. */
int cma_configfs_init(void)
{
	config_group_init(&cma_configfs_subsys.su_group);
	return configfs_register_subsystem(&cma_configfs_subsys);
}

/* Part of rdma_cm's exit; configfs holds the module while directories exist. */
void cma_configfs_exit(void)
{
	configfs_unregister_subsystem(&cma_configfs_subsys);
}
