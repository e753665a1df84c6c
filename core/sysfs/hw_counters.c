// SPDX-License-Identifier: GPL-2.0-only
/* The hw_counters/ sysfs directories of a device and of its ports. */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <rdma/ib_sysfs.h>
#include <rdma/ib_verbs.h>

#include "sysfs/sysfs.h"

/*
 * A directory holds one read-only file per counter the driver describes
 * (optional counters, IB_STAT_FLAG_OPTIONAL, get none) and a writable
 * "lifespan". The device's directory hangs off the struct device, so its
 * files are device attributes; a port's hangs off the port kobject, so its
 * files are port attributes. Each file knows its directory and counter.
 */

/* hw_counter_attr.index of the lifespan file. */
#define HW_COUNTER_LIFESPAN	(-1)

struct hw_counter_attr {
	union {
		struct device_attribute dev;
		struct ib_port_attribute port;
	};
	struct ib_hw_counters *hc;
	int index;
};

/**
 * struct ib_hw_counters - one hw_counters/ directory
 * @dev: the device
 * @port: the port, 0 for the device-wide directory
 * @stats: the counter set, owned by the directory
 * @group: "hw_counters", listing @attrs[] through @list
 * @list: NULL-terminated pointers into @attrs
 * @attrs: the files, counters first, then lifespan
 */
struct ib_hw_counters {
	struct ib_device *dev;
	u32 port;
	struct rdma_hw_stats *stats;
	struct attribute_group group;
	struct attribute **list;
	struct hw_counter_attr attrs[];
};

/* ib_device.hw_stats_data: the device-wide directory. */
struct hw_stats_device_data {
	struct ib_hw_counters *hc;
};

/* ---- File callbacks ------------------------------------------------------ */

static ssize_t hw_counter_show(struct hw_counter_attr *ha, char *buf)
{
	struct ib_hw_counters *hc = ha->hc;

	if (ha->index == HW_COUNTER_LIFESPAN)
		return ib_hw_stats_lifespan_show(hc->stats, buf);
	return ib_hw_stats_value_show(hc->dev, hc->stats, hc->port, ha->index,
				      buf);
}

static ssize_t hw_counter_dev_show(struct device *kdev,
				   struct device_attribute *attr, char *buf)
{
	return hw_counter_show(container_of(attr, struct hw_counter_attr, dev),
			       buf);
}

static ssize_t hw_counter_dev_store(struct device *kdev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct hw_counter_attr *ha =
		container_of(attr, struct hw_counter_attr, dev);

	return ib_hw_stats_lifespan_store(ha->hc->stats, buf, count);
}

static ssize_t hw_counter_port_show(struct ib_device *ibdev, u32 port_num,
				    struct ib_port_attribute *attr, char *buf)
{
	return hw_counter_show(container_of(attr, struct hw_counter_attr, port),
			       buf);
}

static ssize_t hw_counter_port_store(struct ib_device *ibdev, u32 port_num,
				     struct ib_port_attribute *attr,
				     const char *buf, size_t count)
{
	struct hw_counter_attr *ha =
		container_of(attr, struct hw_counter_attr, port);

	return ib_hw_stats_lifespan_store(ha->hc->stats, buf, count);
}

/* ---- Building a directory ------------------------------------------------ */

/* Point @ha's callbacks at the device or the port flavour. */
static void hw_counter_attr_init(struct hw_counter_attr *ha,
				 struct ib_hw_counters *hc, int index,
				 const char *name)
{
	bool writable = index == HW_COUNTER_LIFESPAN;
	struct attribute *attr = &ha->dev.attr;

	/* both union members start with the same struct attribute */
	BUILD_BUG_ON(offsetof(struct device_attribute, attr) !=
		     offsetof(struct ib_port_attribute, attr));
	sysfs_attr_init(attr);
	attr->name = name;
	attr->mode = writable ? 0644 : 0444;
	ha->hc = hc;
	ha->index = index;
	if (hc->port) {
		ha->port.show = hw_counter_port_show;
		ha->port.store = writable ? hw_counter_port_store : NULL;
	} else {
		ha->dev.show = hw_counter_dev_show;
		ha->dev.store = writable ? hw_counter_dev_store : NULL;
	}
}

static void hw_counters_fill(struct ib_hw_counters *hc)
{
	const struct rdma_hw_stats *stats = hc->stats;
	unsigned int n = 0;
	int i;

	for (i = 0; i < stats->num_counters; i++) {
		if (stats->descs[i].flags & IB_STAT_FLAG_OPTIONAL)
			continue;
		hw_counter_attr_init(&hc->attrs[n], hc, i, stats->descs[i].name);
		hc->list[n] = &hc->attrs[n].dev.attr;
		n++;
	}
	hw_counter_attr_init(&hc->attrs[n], hc, HW_COUNTER_LIFESPAN,
			     "lifespan");
	hc->list[n] = &hc->attrs[n].dev.attr;
	hc->group.name = "hw_counters";
	hc->group.attrs = hc->list;
}

/* The set must describe its counters and read in full once. */
static int hw_counters_check(struct ib_device *dev, struct rdma_hw_stats *stats,
			     u32 port)
{
	int ret;

	if (!stats->descs || stats->num_counters <= 0 ||
	    !dev->ops.get_hw_stats) {
		ibdev_warn(dev, "port %u: unusable hardware counter set\n",
			   port);
		return -EINVAL;
	}
	ret = dev->ops.get_hw_stats(dev, stats, port, stats->num_counters);
	if (ret == stats->num_counters) {
		stats->timestamp = jiffies;
		return 0;
	}
	ibdev_warn(dev, "port %u: reading hardware counters gave %d\n",
		   port, ret);
	return ret < 0 ? ret : -EINVAL;
}

/* Take ownership of @stats (freed on failure) and build its directory. */
static struct ib_hw_counters *hw_counters_create(struct ib_device *dev,
						 u32 port,
						 struct rdma_hw_stats *stats)
{
	struct ib_hw_counters *hc;
	int ret;

	if (!stats)
		return ERR_PTR(-ENOMEM);
	ret = hw_counters_check(dev, stats, port);
	if (ret)
		goto err_stats;

	ret = -ENOMEM;
	/* one file per counter plus lifespan; the list is NULL-terminated */
	hc = kzalloc(struct_size(hc, attrs, size_add(stats->num_counters, 1)),
		     GFP_KERNEL);
	if (!hc)
		goto err_stats;
	hc->list = kcalloc(size_add(stats->num_counters, 2),
			   sizeof(*hc->list), GFP_KERNEL);
	if (!hc->list)
		goto err_hc;

	hc->dev = dev;
	hc->port = port;
	hc->stats = stats;
	hw_counters_fill(hc);
	return hc;

err_hc:
	kfree(hc);
err_stats:
	rdma_free_hw_stats_struct(stats);
	return ERR_PTR(ret);
}

struct ib_hw_counters *ib_hw_counters_port_create(struct ib_device *dev,
						  u32 port)
{
	if (!dev->ops.alloc_hw_port_stats)
		return ERR_PTR(-EOPNOTSUPP);
	return hw_counters_create(dev, port,
				  dev->ops.alloc_hw_port_stats(dev, port));
}

void ib_hw_counters_destroy(struct ib_hw_counters *hc)
{
	if (IS_ERR_OR_NULL(hc))
		return;
	rdma_free_hw_stats_struct(hc->stats);
	kfree(hc->list);
	kfree(hc);
}

const struct attribute_group *
ib_hw_counters_group(const struct ib_hw_counters *hc)
{
	return &hc->group;
}

struct rdma_hw_stats *ib_hw_counters_stats(const struct ib_hw_counters *hc)
{
	return hc->stats;
}

/* ---- The device-wide directory ------------------------------------------- */

/* A free slot of the NULL-terminated ib_device.groups, or -ENOSPC. */
static int device_groups_free_slot(struct ib_device *dev)
{
	unsigned int i;

	for (i = 0; i + 1 < ARRAY_SIZE(dev->groups); i++)
		if (!dev->groups[i])
			return i;
	return -ENOSPC;
}

int ib_hw_counters_device_setup(struct ib_device *dev)
{
	struct hw_stats_device_data *data;
	struct ib_hw_counters *hc;
	int slot;

	if (!dev->ops.alloc_hw_device_stats)
		return 0;
	slot = device_groups_free_slot(dev);
	if (WARN_ON(slot < 0))
		return slot;

	data = kzalloc(sizeof(*data), GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	hc = hw_counters_create(dev, 0, dev->ops.alloc_hw_device_stats(dev));
	if (IS_ERR(hc)) {
		kfree(data);
		return PTR_ERR(hc);
	}

	data->hc = hc;
	dev->hw_stats_data = data;
	dev->groups[slot] = &hc->group;
	dev->hw_stats_attr_index = slot;
	return 0;
}

void ib_hw_counters_device_teardown(struct ib_device *dev)
{
	struct hw_stats_device_data *data = dev->hw_stats_data;

	if (!data)
		return;
	dev->groups[dev->hw_stats_attr_index] = NULL;
	dev->hw_stats_attr_index = 0;
	dev->hw_stats_data = NULL;
	ib_hw_counters_destroy(data->hc);
	kfree(data);
}
