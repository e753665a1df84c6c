// SPDX-License-Identifier: GPL-2.0-only
/*
 * The umad devices: class infiniband_mad and its device numbers, a
 * umadN/issmN pair for every port of a device that speaks MADs, their
 * sysfs files, their removal under open files, and GET_CHARDEV.
 */

#include <linux/idr.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "device/device.h"
#include "umad/umad.h"

/*
 * Pair N gets minor N (umadN) and 64 + N (issmN) of major 231 while N is
 * below 64, as every release of Linux has; later pairs come from a region
 * allocated at load, umad numbers in its first half, issm in its second.
 */
static DEFINE_IDA(umad_ida);
static dev_t umad_dynamic_base;

static dev_t umad_devt(int devnum, bool issm)
{
	if (devnum < UMAD_FIXED_MINORS)
		return MKDEV(UMAD_MAJOR, devnum + (issm ? UMAD_ISSM_MINOR_BASE : 0));
	return umad_dynamic_base + devnum - UMAD_FIXED_MINORS +
	       (issm ? UMAD_DYNAMIC_MINORS : 0);
}

/* ---- The class and its files --------------------------------------------- */

/* /dev/infiniband/umadN and issmN, root's alone (mode 0600) */
static char *umad_devnode(struct device *dev, umode_t *mode)
{
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

/* Both files of a pair carry the port in their driver data. */
static struct umad_port *umad_port_of(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/*
 * One per-pair file: the device's name or the port number, and -ENODEV
 * once the device is gone.
 */
static ssize_t umad_port_attr_show(struct device *dev, char *buf,
				   bool want_port)
{
	struct umad_port *port = umad_port_of(dev);
	ssize_t ret = -ENODEV;

	mutex_lock(&port->lock);
	if (port->ib_dev && want_port)
		ret = sysfs_emit(buf, "%u\n", port->port_num);
	else if (port->ib_dev)
		ret = sysfs_emit(buf, "%s\n", dev_name(&port->ib_dev->dev));
	mutex_unlock(&port->lock);
	return ret;
}

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return umad_port_attr_show(dev, buf, false);
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t port_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return umad_port_attr_show(dev, buf, true);
}
static DEVICE_ATTR_RO(port);

static struct attribute *umad_port_attrs[] = {
	&dev_attr_port.attr,
	&dev_attr_ibdev.attr,
	NULL,
};

static const struct attribute_group umad_port_group = {
	.attrs = umad_port_attrs,
};

static const struct attribute_group *umad_port_groups[] = {
	&umad_port_group,
	NULL,
};

static struct class umad_class = {
	.name = "infiniband_mad",
	.dev_groups = umad_port_groups,
	.devnode = umad_devnode,
};

/* /sys/class/infiniband_mad/abi_version: what libibumad checks first */
static ssize_t umad_abi_show(struct class *class, struct class_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n", IB_USER_MAD_ABI_VERSION);
}

static struct class_attribute umad_abi_attr =
	__ATTR(abi_version, 0444, umad_abi_show, NULL);

/**
 * umad_class_init() - Reserve the device numbers and register the class
 *
 * Context: Module init.
 * Return: 0 or a negative errno, with nothing left reserved.
 */
int umad_class_init(void)
{
	int ret;

	ret = register_chrdev_region(MKDEV(UMAD_MAJOR, 0),
				     2 * UMAD_FIXED_MINORS, umad_class.name);
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&umad_dynamic_base, 0,
				  2 * UMAD_DYNAMIC_MINORS, umad_class.name);
	if (ret)
		goto err_fixed;
	ret = class_register(&umad_class);
	if (ret)
		goto err_dynamic;
	ret = class_create_file(&umad_class, &umad_abi_attr);
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_unregister(&umad_class);
err_dynamic:
	unregister_chrdev_region(umad_dynamic_base, 2 * UMAD_DYNAMIC_MINORS);
err_fixed:
	unregister_chrdev_region(MKDEV(UMAD_MAJOR, 0), 2 * UMAD_FIXED_MINORS);
	return ret;
}

/**
 * umad_class_exit() - Undo umad_class_init()
 *
 * Context: Module exit, after both clients are unregistered.
 */
void umad_class_exit(void)
{
	class_remove_file(&umad_class, &umad_abi_attr);
	class_unregister(&umad_class);
	unregister_chrdev_region(umad_dynamic_base, 2 * UMAD_DYNAMIC_MINORS);
	unregister_chrdev_region(MKDEV(UMAD_MAJOR, 0), 2 * UMAD_FIXED_MINORS);
	ida_destroy(&umad_ida);
}

/* ---- One device's lifetime ----------------------------------------------- */

static void umad_dev_free(struct kref *kref)
{
	kfree(container_of(kref, struct umad_dev, kref));
}

/* One of a pair's struct devices is released: it held the umad_dev. */
static void umad_port_dev_release(struct device *dev)
{
	kref_put(&umad_port_of(dev)->udev->kref, umad_dev_free);
}

static void umad_port_dev_init(struct umad_port *port, struct device *dev,
			       struct cdev *cdev, bool issm)
{
	device_initialize(dev);
	kref_get(&port->udev->kref);
	dev->class = &umad_class;
	dev->parent = port->ib_dev->dev.parent;
	dev->devt = umad_devt(port->devnum, issm);
	dev->release = umad_port_dev_release;
	dev_set_drvdata(dev, port);
	cdev_init(cdev, issm ? &umad_issm_fops : &umad_fops);
	cdev->owner = THIS_MODULE;
}

static int umad_port_name(struct umad_port *port)
{
	return dev_set_name(&port->dev, "umad%d", port->devnum) ?:
	       dev_set_name(&port->sm_dev, "issm%d", port->devnum);
}

/* Publish both files of a pair made by umad_port_dev_init(). */
static int umad_port_publish(struct umad_port *port)
{
	int ret;

	ret = umad_port_name(port);
	if (ret)
		return ret;
	ret = cdev_device_add(&port->cdev, &port->dev);
	if (ret)
		return ret;
	ret = cdev_device_add(&port->sm_cdev, &port->sm_dev);
	if (ret)
		cdev_device_del(&port->cdev, &port->dev);
	return ret;
}

/* Make and publish umadN and issmN for @port_num of @ib_dev. */
static int umad_port_add(struct umad_port *port, struct ib_device *ib_dev,
			 u32 port_num)
{
	int ret;

	ret = ida_alloc_max(&umad_ida, UMAD_MAX_PORTS - 1, GFP_KERNEL);
	if (ret < 0)
		return ret;
	port->devnum = ret;
	port->ib_dev = ib_dev;
	port->port_num = port_num;
	sema_init(&port->sm_sem, 1);
	mutex_init(&port->lock);
	INIT_LIST_HEAD(&port->files);
	umad_port_dev_init(port, &port->dev, &port->cdev, false);
	umad_port_dev_init(port, &port->sm_dev, &port->sm_cdev, true);

	/* publish last: the files and their sysfs entries appear here */
	ret = umad_port_publish(port);
	if (ret) {
		ida_free(&umad_ida, port->devnum);
		put_device(&port->sm_dev);
		put_device(&port->dev);
		return ret;
	}
	port->published = true;
	return 0;
}

/*
 * Unpublish @port's files, then cut every open file off the device: their
 * agents are unregistered here (so the MAD layer lets go of the device),
 * their calls fail from now on, and nothing waits for them to close.
 */
static void umad_port_remove(struct umad_port *port)
{
	struct umad_file *file;

	cdev_device_del(&port->sm_cdev, &port->sm_dev);
	cdev_device_del(&port->cdev, &port->dev);

	mutex_lock(&port->lock);
	port->ib_dev = NULL;
	list_for_each_entry(file, &port->files, port_node)
		umad_file_kill(file);
	mutex_unlock(&port->lock);

	ida_free(&umad_ida, port->devnum);
	put_device(&port->sm_dev);
	put_device(&port->dev);
}

/* Remove the pairs of @udev that were published, last first; drop it. */
static void umad_dev_remove(struct umad_dev *udev)
{
	u32 i = udev->nports;

	while (i--)
		if (udev->ports[i].published)
			umad_port_remove(&udev->ports[i]);
	kref_put(&udev->kref, umad_dev_free);
}

static struct umad_port *umad_dev_port(struct umad_dev *udev,
				       struct ib_device *ib_dev, u32 port_num)
{
	return &udev->ports[port_num - rdma_start_port(ib_dev)];
}

/* A pair for every port of @ib_dev that speaks MADs; none is -EOPNOTSUPP. */
static int umad_client_add(struct ib_device *ib_dev)
{
	u32 nports = rdma_end_port(ib_dev) - rdma_start_port(ib_dev) + 1;
	struct umad_dev *udev;
	bool any = false;
	u32 p;
	int ret;

	udev = kzalloc(struct_size(udev, ports, nports), GFP_KERNEL);
	if (!udev)
		return -ENOMEM;
	kref_init(&udev->kref);
	udev->nports = nports;
	rdma_for_each_port(ib_dev, p) {
		struct umad_port *port = umad_dev_port(udev, ib_dev, p);

		if (!rdma_cap_ib_mad(ib_dev, p))
			continue;
		port->udev = udev;
		ret = umad_port_add(port, ib_dev, p);
		if (ret) {
			umad_dev_remove(udev);
			return ret;
		}
		any = true;
	}
	if (!any) {
		umad_dev_remove(udev);
		return -EOPNOTSUPP;
	}
	ib_set_client_data(ib_dev, &umad_client, udev);
	return 0;
}

static void umad_client_remove(struct ib_device *ib_dev, void *client_data)
{
	umad_dev_remove(client_data);
}

/* ---- GET_CHARDEV ---------------------------------------------------------- */

/* The pair of the port a GET_CHARDEV request names, or an ERR_PTR(). */
static struct umad_port *umad_nl_port(struct ib_device *ib_dev,
				      struct umad_dev *udev, u32 port_num)
{
	if (!udev)
		return ERR_PTR(-EOPNOTSUPP);
	if (!rdma_is_port_valid(ib_dev, port_num))
		return ERR_PTR(-EINVAL);
	if (!rdma_cap_ib_mad(ib_dev, port_num))
		return ERR_PTR(-EOPNOTSUPP);
	return umad_dev_port(udev, ib_dev, port_num);
}

static int umad_nl_info(struct ib_device *ib_dev, void *client_data,
			struct ib_client_nl_info *res, bool issm)
{
	struct umad_port *port = umad_nl_port(ib_dev, client_data, res->port);

	if (IS_ERR(port))
		return PTR_ERR(port);
	res->abi = IB_USER_MAD_ABI_VERSION;
	res->cdev = issm ? &port->sm_dev : &port->dev;
	return 0;
}

/* GET_CHARDEV "umad" for a device and port: its umadN. */
static int umad_get_nl_info(struct ib_device *ib_dev, void *client_data,
			    struct ib_client_nl_info *res)
{
	return umad_nl_info(ib_dev, client_data, res, false);
}

struct ib_client umad_client = {
	.name = "umad",
	.add = umad_client_add,
	.remove = umad_client_remove,
	.get_nl_info = umad_get_nl_info,
};

/*
 * The "issm" client: GET_CHARDEV "issm" answers with issmN. The pairs are
 * the "umad" client's (registered first, so its add() has run); this
 * client holds a reference on them so its answer never outlives them.
 */
static int umad_issm_client_add(struct ib_device *ib_dev)
{
	struct umad_dev *udev = ib_get_client_data(ib_dev, &umad_client);

	if (!udev)
		return -EOPNOTSUPP;
	kref_get(&udev->kref);
	ib_set_client_data(ib_dev, &umad_issm_client, udev);
	return 0;
}

static void umad_issm_client_remove(struct ib_device *ib_dev,
				    void *client_data)
{
	struct umad_dev *udev = client_data;

	kref_put(&udev->kref, umad_dev_free);
}

static int umad_issm_get_nl_info(struct ib_device *ib_dev, void *client_data,
				 struct ib_client_nl_info *res)
{
	return umad_nl_info(ib_dev, client_data, res, true);
}

struct ib_client umad_issm_client = {
	.name = "issm",
	.add = umad_issm_client_add,
	.remove = umad_issm_client_remove,
	.get_nl_info = umad_issm_get_nl_info,
};
