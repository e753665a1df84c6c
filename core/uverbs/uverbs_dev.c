// SPDX-License-Identifier: GPL-2.0-only
/*
 * The uverbs character devices: one /dev/infiniband/uverbsN per device whose
 * driver makes user contexts, its sysfs files, GET_CHARDEV.
 */

#include <kunit/visibility.h>
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "device/device.h"
#include "uverbs/uverbs.h"

/*
 * Minors: the first UVERBS_FIXED_MINORS devices get the historical fixed
 * numbers (major 231, minors 192 and up); later ones come from a region
 * allocated at load. @uverbs_ida hands out the device numbers N.
 */
static DEFINE_IDA(uverbs_ida);
static dev_t uverbs_dynamic_base;

static dev_t uverbs_devt(int devnum)
{
	if (devnum < UVERBS_FIXED_MINORS)
		return MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR + devnum);
	return uverbs_dynamic_base + devnum - UVERBS_FIXED_MINORS;
}

/* ---- The class and its files --------------------------------------------- */

static char *uverbs_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

static ssize_t abi_version_show(struct class *class,
				struct class_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", UVERBS_CLASS_ABI);
}
static CLASS_ATTR_RO(abi_version);

static struct class *uverbs_class;

/*
 * ibdev and abi_version of one uverbsN: read through the SRCU pointer, so
 * they answer -ENODEV once the device is going.
 */
static ssize_t uverbs_dev_show(struct device *device, char *buf, bool abi)
{
	struct uverbs_dev *udev = container_of(device, struct uverbs_dev, dev);
	struct ib_device *ib_dev;
	int key, ret = -ENODEV;

	key = srcu_read_lock(&udev->srcu);
	ib_dev = srcu_dereference(udev->ib_dev, &udev->srcu);
	if (ib_dev)
		ret = abi ? sysfs_emit(buf, "%u\n", ib_dev->ops.uverbs_abi_ver) :
			    sysfs_emit(buf, "%s\n", dev_name(&ib_dev->dev));
	srcu_read_unlock(&udev->srcu, key);
	return ret;
}

static ssize_t ibdev_show(struct device *device, struct device_attribute *attr,
			  char *buf)
{
	return uverbs_dev_show(device, buf, false);
}

static DEVICE_ATTR_RO(ibdev);

static ssize_t dev_abi_version_show(struct device *device,
				    struct device_attribute *attr, char *buf)
{
	return uverbs_dev_show(device, buf, true);
}

static struct device_attribute dev_attr_abi_version =
	__ATTR(abi_version, 0444, dev_abi_version_show, NULL);

static struct attribute *uverbs_dev_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_dev);

/**
 * uverbs_dev_get_ibdev() - The device behind a uverbs device, for a reader
 * @udev: the uverbs device
 *
 * Context: Any context, inside srcu_read_lock(&udev->srcu), which the
 * caller holds as long as it uses the result.
 * Return: the ib_device, or NULL once removal has started.
 */
struct ib_device *uverbs_dev_get_ibdev(struct uverbs_dev *udev)
{
	return srcu_dereference(udev->ib_dev, &udev->srcu);
}

/* ---- One device's lifetime ----------------------------------------------- */

/* The last reference (the client's or an open file's) is gone. */
static void uverbs_dev_release(struct device *device)
{
	struct uverbs_dev *udev = container_of(device, struct uverbs_dev, dev);

	WARN_ON(!list_empty(&udev->files));
	cleanup_srcu_struct(&udev->srcu);
	mutex_destroy(&udev->lists_mutex);
	ida_free(&uverbs_ida, udev->devnum);
	kfree(udev);
}

static struct uverbs_dev *uverbs_dev_alloc(struct ib_device *ib_dev)
{
	struct uverbs_dev *udev;
	int devnum;

	devnum = ida_alloc_max(&uverbs_ida, UVERBS_MAX_DEVICES - 1, GFP_KERNEL);
	if (devnum < 0)
		return ERR_PTR(devnum);
	udev = kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev || init_srcu_struct(&udev->srcu)) {
		kfree(udev);
		ida_free(&uverbs_ida, devnum);
		return ERR_PTR(-ENOMEM);
	}
	udev->devnum = devnum;
	mutex_init(&udev->lists_mutex);
	INIT_LIST_HEAD(&udev->files);
	RCU_INIT_POINTER(udev->ib_dev, ib_dev);

	/* from here the struct device owns udev: put_device() frees it */
	device_initialize(&udev->dev);
	udev->dev.class = uverbs_class;
	udev->dev.parent = ib_dev->dev.parent;
	udev->dev.groups = uverbs_dev_groups;
	udev->dev.devt = uverbs_devt(devnum);
	udev->dev.release = uverbs_dev_release;
	cdev_init(&udev->cdev, &uverbs_fops);
	udev->cdev.owner = THIS_MODULE;
	return udev;
}

static int uverbs_client_add(struct ib_device *ib_dev)
{
	struct uverbs_dev *udev;
	int ret;

	/* a driver with no user contexts has nothing for user space */
	if (!ib_dev->ops.alloc_ucontext)
		return -EOPNOTSUPP;
	/* nor one that forgot INIT_RDMA_OBJ_SIZE(ib_ucontext, ...) */
	if (ib_dev->ops.size_ib_ucontext < sizeof(struct ib_ucontext)) {
		dev_warn(&ib_dev->dev, "driver gives no ucontext size: no uverbs\n");
		return -EINVAL;
	}
	udev = uverbs_dev_alloc(ib_dev);
	if (IS_ERR(udev))
		return PTR_ERR(udev);
	ret = dev_set_name(&udev->dev, "uverbs%d", udev->devnum);
	if (ret)
		goto err_put;
	/* publish last: the file and its sysfs entries appear here */
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err_put;
	ib_set_client_data(ib_dev, &uverbs_client, udev);
	return 0;

err_put:
	put_device(&udev->dev);
	return ret;
}

/*
 * Take every open file off the device and destroy what it holds there.
 * Readers of udev->ib_dev are gone, so no command runs on the device; a
 * close() running now either finished its own teardown before leaving
 * the list, or waits here on the file's ucontext_lock.
 */
static void uverbs_dev_disassociate(struct uverbs_dev *udev)
{
	struct ib_uverbs_file *file;

	mutex_lock(&udev->lists_mutex);
	while ((file = list_first_entry_or_null(&udev->files,
						struct ib_uverbs_file, list))) {
		list_del_init(&file->list);
		kref_get(&file->ref);
		mutex_unlock(&udev->lists_mutex);

		uverbs_file_destroy_hw(file, true);
		uverbs_file_put(file);
		mutex_lock(&udev->lists_mutex);
	}
	mutex_unlock(&udev->lists_mutex);
}

static void uverbs_client_remove(struct ib_device *ib_dev, void *client_data)
{
	struct uverbs_dev *udev = client_data;

	if (!udev)
		return;
	/* unpublish first: no new open finds the device */
	cdev_device_del(&udev->cdev, &udev->dev);
	rcu_assign_pointer(udev->ib_dev, NULL);
	synchronize_srcu(&udev->srcu);
	uverbs_dev_disassociate(udev);
	put_device(&udev->dev);
}

/* GET_CHARDEV "uverbs": our uverbsN, its ABI and the driver's id. */
static int uverbs_client_get_nl_info(struct ib_device *ib_dev,
				     void *client_data,
				     struct ib_client_nl_info *res)
{
	struct uverbs_dev *udev = client_data;

	if (res->port != (u32)-1)
		return -EINVAL;
	res->abi = ib_dev->ops.uverbs_abi_ver;
	res->cdev = &udev->dev;
	/* a driver that needs no binding to its provider says so with 0 */
	if (!ib_dev->ops.uverbs_no_driver_id_binding &&
	    nla_put_u32(res->nl_msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,
			ib_dev->ops.driver_id))
		return -EMSGSIZE;
	return 0;
}

struct ib_client uverbs_client = {
	.name = "uverbs",
	/* user space needs no kernel verbs of the driver */
	.no_kverbs_req = true,
	.add = uverbs_client_add,
	.remove = uverbs_client_remove,
	.get_nl_info = uverbs_client_get_nl_info,
};
EXPORT_SYMBOL_IF_KUNIT(uverbs_client);

/* ---- Module load --------------------------------------------------------- */

/**
 * uverbs_dev_init() - Reserve the device numbers and create the class
 *
 * Context: Module init.
 * Return: 0 or a negative errno, with nothing left reserved.
 */
int uverbs_dev_init(void)
{
	int ret;

	ret = register_chrdev_region(MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR),
				     UVERBS_FIXED_MINORS, "infiniband_verbs");
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&uverbs_dynamic_base, 0,
				  UVERBS_MAX_DEVICES - UVERBS_FIXED_MINORS,
				  "infiniband_verbs");
	if (ret)
		goto err_fixed;
	uverbs_class = class_create(THIS_MODULE, "infiniband_verbs");
	if (IS_ERR(uverbs_class)) {
		ret = PTR_ERR(uverbs_class);
		goto err_dynamic;
	}
	uverbs_class->devnode = uverbs_devnode;
	ret = class_create_file(uverbs_class, &class_attr_abi_version);
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_destroy(uverbs_class);
err_dynamic:
	unregister_chrdev_region(uverbs_dynamic_base,
				 UVERBS_MAX_DEVICES - UVERBS_FIXED_MINORS);
err_fixed:
	unregister_chrdev_region(MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR),
				 UVERBS_FIXED_MINORS);
	return ret;
}

/**
 * uverbs_dev_exit() - Undo uverbs_dev_init()
 *
 * Context: Module exit, after the client is unregistered.
 */
void uverbs_dev_exit(void)
{
	class_remove_file(uverbs_class, &class_attr_abi_version);
	class_destroy(uverbs_class);
	unregister_chrdev_region(uverbs_dynamic_base,
				 UVERBS_MAX_DEVICES - UVERBS_FIXED_MINORS);
	unregister_chrdev_region(MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR),
				 UVERBS_FIXED_MINORS);
	ida_destroy(&uverbs_ida);
}
