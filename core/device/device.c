// SPDX-License-Identifier: GPL-2.0-only
/* The RDMA device model: allocation, ops, naming, registration, references. */

#include <linux/device.h>
#include <linux/export.h>
#include <linux/inetdevice.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <uapi/rdma/rdma_netlink.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"
#include "cq/cq.h"
#include "restrack/restrack.h"
#include "sysfs/sysfs.h"

/*
 * Life of a device:
 *
 *   _ib_alloc_device()      memory, locks, struct device initialised
 *   ib_register_device()    name and index taken (the device enters
 *                           ib_devices), the setup steps run, then the
 *                           device is enabled: marked IB_DEVICE_REGISTERED,
 *                           refcount made non-zero, clients added
 *   ib_unregister_device()  disabled (unmarked, clients removed, wait for
 *                           every ib_device_put()), setup steps undone
 *   ib_dealloc_device()     leaves ib_devices, last put_device() frees it
 *
 * refcount is zero outside the enabled window, so ib_device_try_get()
 * fails on a device that is not (or no longer) registered.
 */

DEFINE_XARRAY_FLAGS(ib_devices, XA_FLAGS_ALLOC);
DECLARE_RWSEM(ib_devices_rwsem);

/* ---- Class and release --------------------------------------------------- */

/* The last put_device(): free everything the device still owns. */
static void device_release(struct device *kdev)
{
	struct ib_device *dev = container_of(kdev, struct ib_device, dev);

	ib_port_netdevs_release(dev);
	WARN_ON(refcount_read(&dev->refcount));
	ib_cache_release_one(dev);
	/* lookups under RCU may still be reading the ports or the device */
	ib_port_data_free(dev);
	mutex_destroy(&dev->unregistration_lock);
	mutex_destroy(&dev->compat_devs_mutex);
	xa_destroy(&dev->compat_devs);
	xa_destroy(&dev->client_data);
	kfree_rcu(dev, rcu_head);
}

static int device_uevent(struct device *kdev, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "NAME=%s", dev_name(kdev));
}

/* Network namespaces (ns_type) come with the netns work. */
static struct class ib_class = {
	.name		= "infiniband",
	.dev_release	= device_release,
	.dev_uevent	= device_uevent,
};

/**
 * ib_device_class_register() - Register the "infiniband" device class
 *
 * Context: Module init, may sleep.
 * Return: 0 or a negative errno from class_register().
 */
int ib_device_class_register(void)
{
	return class_register(&ib_class);
}

/**
 * ib_device_class_unregister() - Undo ib_device_class_register()
 *
 * Context: Module exit, may sleep; no device may be left.
 */
void ib_device_class_unregister(void)
{
	class_unregister(&ib_class);
}

/* ---- Logging ------------------------------------------------------------- */

/*
 * The one place that formats a device message; every ibdev_*() helper
 * hands it its va_list. A device with a parent logs through the parent's
 * struct device, so the line carries the bus driver and address too.
 */
static void ibdev_vlog(const char *level, const struct ib_device *ibdev,
		       const char *format, va_list *args)
{
	struct va_format vaf = { .fmt = format, .va = args };
	const struct device *parent;

	if (!ibdev) {
		printk("%s(NULL ib_device): %pV", level, &vaf);
		return;
	}
	parent = ibdev->dev.parent;
	if (!parent) {
		printk("%s%s: %pV", level, dev_name(&ibdev->dev), &vaf);
		return;
	}
	dev_printk_emit(printk_get_level(level) - '0', parent, "%s %s %s: %pV",
			dev_driver_string(parent), dev_name(parent),
			dev_name(&ibdev->dev), &vaf);
}

/**
 * ibdev_printk() - Log a message about an RDMA device
 * @level: KERN_* level
 * @ibdev: the device, may be NULL
 * @format: printf format
 *
 * Prefixes the message with the parent's driver and device names (when the
 * device has a parent) and the RDMA device name.
 *
 * Context: Any context.
 */
void ibdev_printk(const char *level, const struct ib_device *ibdev,
		  const char *format, ...)
{
	va_list args;

	va_start(args, format);
	ibdev_vlog(level, ibdev, format, &args);
	va_end(args);
}
EXPORT_SYMBOL(ibdev_printk);

/*
 * ibdev_emerg() .. ibdev_info(): ibdev_printk() at a fixed level. Any
 * context.
 */
#define IBDEV_PRINTK_LEVEL(fn, level)					\
void fn(const struct ib_device *ibdev, const char *format, ...)	\
{									\
	va_list args;							\
									\
	va_start(args, format);						\
	ibdev_vlog(level, ibdev, format, &args);			\
	va_end(args);							\
}									\
EXPORT_SYMBOL(fn)

IBDEV_PRINTK_LEVEL(ibdev_emerg, KERN_EMERG);
IBDEV_PRINTK_LEVEL(ibdev_alert, KERN_ALERT);
IBDEV_PRINTK_LEVEL(ibdev_crit, KERN_CRIT);
IBDEV_PRINTK_LEVEL(ibdev_err, KERN_ERR);
IBDEV_PRINTK_LEVEL(ibdev_warn, KERN_WARNING);
IBDEV_PRINTK_LEVEL(ibdev_notice, KERN_NOTICE);
IBDEV_PRINTK_LEVEL(ibdev_info, KERN_INFO);

/* ---- Allocation ---------------------------------------------------------- */

/* The uverbs write() commands every device offers unless its driver says no. */
static const u8 default_uverbs_cmds[] = {
	IB_USER_VERBS_CMD_GET_CONTEXT,
	IB_USER_VERBS_CMD_QUERY_DEVICE,
	IB_USER_VERBS_CMD_QUERY_PORT,
	IB_USER_VERBS_CMD_ALLOC_PD,
	IB_USER_VERBS_CMD_DEALLOC_PD,
	IB_USER_VERBS_CMD_CREATE_AH,
	IB_USER_VERBS_CMD_DESTROY_AH,
	IB_USER_VERBS_CMD_REG_MR,
	IB_USER_VERBS_CMD_REREG_MR,
	IB_USER_VERBS_CMD_DEREG_MR,
	IB_USER_VERBS_CMD_ALLOC_MW,
	IB_USER_VERBS_CMD_DEALLOC_MW,
	IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL,
	IB_USER_VERBS_CMD_CREATE_CQ,
	IB_USER_VERBS_CMD_RESIZE_CQ,
	IB_USER_VERBS_CMD_DESTROY_CQ,
	IB_USER_VERBS_CMD_CREATE_QP,
	IB_USER_VERBS_CMD_QUERY_QP,
	IB_USER_VERBS_CMD_MODIFY_QP,
	IB_USER_VERBS_CMD_DESTROY_QP,
	IB_USER_VERBS_CMD_ATTACH_MCAST,
	IB_USER_VERBS_CMD_DETACH_MCAST,
	IB_USER_VERBS_CMD_CREATE_SRQ,
	IB_USER_VERBS_CMD_MODIFY_SRQ,
	IB_USER_VERBS_CMD_QUERY_SRQ,
	IB_USER_VERBS_CMD_DESTROY_SRQ,
	IB_USER_VERBS_CMD_OPEN_XRCD,
	IB_USER_VERBS_CMD_CLOSE_XRCD,
	IB_USER_VERBS_CMD_CREATE_XSRQ,
	IB_USER_VERBS_CMD_OPEN_QP,
};

static void device_unregister_work(struct work_struct *work);

/* The struct device inside: lifetime only, it is added at registration. */
static void device_kobj_init(struct ib_device *dev)
{
	/* ib_device overlays dev and coredev.dev; both must be the same */
	BUILD_BUG_ON(offsetof(struct ib_device, coredev.dev) !=
		     offsetof(struct ib_device, dev));

	dev->coredev.dev.class = &ib_class;
	dev->coredev.dev.groups = dev->groups;
	device_initialize(&dev->coredev.dev);
	dev->coredev.owner = dev;
	INIT_LIST_HEAD(&dev->coredev.port_list);
	write_pnet(&dev->coredev.rdma_net, &init_net);
}

static void device_locks_init(struct ib_device *dev)
{
	unsigned int i;

	INIT_LIST_HEAD(&dev->event_handler_list);
	init_rwsem(&dev->event_handler_rwsem);
	spin_lock_init(&dev->qp_open_list_lock);
	/* an allocating xarray keeps an entry (and its mark) holding NULL */
	xa_init_flags(&dev->client_data, XA_FLAGS_ALLOC);
	init_rwsem(&dev->client_data_rwsem);
	mutex_init(&dev->unregistration_lock);
	rwlock_init(&dev->cache_lock);
	init_completion(&dev->unreg_completion);
	INIT_WORK(&dev->unregistration_work, device_unregister_work);
	xa_init_flags(&dev->compat_devs, XA_FLAGS_ALLOC);
	mutex_init(&dev->compat_devs_mutex);
	spin_lock_init(&dev->cq_pools_lock);
	for (i = 0; i < ARRAY_SIZE(dev->cq_pools); i++)
		INIT_LIST_HEAD(&dev->cq_pools[i]);
}

/**
 * _ib_alloc_device() - Allocate a zeroed RDMA device
 * @size: bytes to allocate, at least sizeof(struct ib_device); the driver's
 *	  own struct with the ib_device as its first member
 *
 * Drivers call it through ib_alloc_device(). The result is not registered;
 * free it with ib_dealloc_device(), never with kfree().
 *
 * Context: Process context, may sleep.
 * Return: the device, or NULL if @size is too small or memory ran out.
 */
struct ib_device *_ib_alloc_device(size_t size)
{
	struct ib_device *dev;
	unsigned int i;

	/* a driver struct that does not start with an ib_device is a bug */
	dev = WARN_ON(size < sizeof(*dev)) ? NULL : kzalloc(size, GFP_KERNEL);
	if (!dev)
		return NULL;
	if (rdma_restrack_init(dev))
		goto err_free;

	device_locks_init(dev);
	device_kobj_init(dev);
	for (i = 0; i < ARRAY_SIZE(default_uverbs_cmds); i++)
		dev->uverbs_cmd_mask |= BIT_ULL(default_uverbs_cmds[i]);
	return dev;

err_free:
	/* nothing refers to the memory yet: no put_device() */
	kfree(dev);
	return NULL;
}
EXPORT_SYMBOL(_ib_alloc_device);

/*
 * Give up @dev's slot in ib_devices. A device that never got a name has no
 * slot: its index is 0, which may belong to another device.
 */
static void device_unlist(struct ib_device *dev)
{
	struct ib_device *listed;

	down_write(&ib_devices_rwsem);
	listed = xa_load(&ib_devices, dev->index);
	if (listed == dev)
		xa_erase(&ib_devices, dev->index);
	up_write(&ib_devices_rwsem);
}

/**
 * ib_dealloc_device() - Free a device from ib_alloc_device()
 * @device: the device; unregistered, or never registered
 *
 * Calls the driver's dealloc_driver op first, then drops the device's name
 * and the core's references. The memory goes with the last put_device().
 * Drivers that set dealloc_driver only call this when ib_register_device()
 * failed; their unregistration frees the device itself.
 *
 * Context: Process context, may sleep. Takes ib_devices_rwsem.
 */
void ib_dealloc_device(struct ib_device *device)
{
	if (device->ops.dealloc_driver)
		device->ops.dealloc_driver(device);

	/*
	 * Only now, with the driver done, may the device leave ib_devices:
	 * ib_unregister_driver() finds (and waits for) devices there, and
	 * that is what keeps the driver's module around while its ops can
	 * still be called.
	 */
	device_unlist(device);
	ib_port_netdevs_release(device);
	WARN_ON(!xa_empty(&device->client_data));
	WARN_ON(refcount_read(&device->refcount));
	/* reports objects their owners never destroyed */
	rdma_restrack_clean(device);
	/* pairs with device_initialize() in _ib_alloc_device() */
	put_device(&device->dev);
}
EXPORT_SYMBOL(ib_dealloc_device);

/* ---- Ops and device attributes ------------------------------------------- */

/*
 * From device_group to the last object size, struct ib_device_ops is a run
 * of pointer-sized slots (function pointers, attribute group pointers,
 * size_t object sizes) in which zero means "not set". Merging works on that
 * run slot by slot, so members added later need no list to be kept here.
 */
#define OPS_SLOTS_BEGIN	offsetof(struct ib_device_ops, device_group)
#define OPS_SLOTS_END	sizeof(struct ib_device_ops)

static void ops_slots_merge(struct ib_device_ops *dst,
			    const struct ib_device_ops *src)
{
	size_t off;

	BUILD_BUG_ON(sizeof(size_t) != sizeof(unsigned long));
	BUILD_BUG_ON(sizeof(dst->post_send) != sizeof(unsigned long));
	BUILD_BUG_ON(OPS_SLOTS_BEGIN % sizeof(unsigned long));
	BUILD_BUG_ON(offsetof(struct ib_device_ops, size_ib_xrcd) +
		     sizeof(size_t) != OPS_SLOTS_END);

	for (off = OPS_SLOTS_BEGIN; off < OPS_SLOTS_END;
	     off += sizeof(unsigned long)) {
		unsigned long *to = (void *)dst + off;
		const unsigned long *from = (const void *)src + off;

		if (*from && !*to)
			*to = *from;
	}
}

/**
 * ib_set_device_ops() - Merge a driver's operations into a device
 * @dev: the device, not yet registered
 * @ops: the operations
 *
 * Every op and object size @ops sets is copied unless @dev already has one,
 * so a driver can apply a specific table before a generic one. driver_id
 * and owner are taken when set (a conflicting second value warns);
 * uverbs_abi_ver when non-zero; uverbs_no_driver_id_binding is or-ed in.
 *
 * Context: Any context; the caller serialises changes to @dev.
 */
void ib_set_device_ops(struct ib_device *dev, const struct ib_device_ops *ops)
{
	struct ib_device_ops *cur = &dev->ops;
	bool has_id = ops->driver_id != RDMA_DRIVER_UNKNOWN;

	/*
	 * Who the driver is must not change between its tables: a second,
	 * different driver_id or owner is a driver bug. The last one set is
	 * kept all the same.
	 */
	WARN_ON(has_id && cur->driver_id != RDMA_DRIVER_UNKNOWN &&
		cur->driver_id != ops->driver_id);
	WARN_ON(ops->owner && cur->owner && cur->owner != ops->owner);

	cur->driver_id = has_id ? ops->driver_id : cur->driver_id;
	cur->owner = ops->owner ?: cur->owner;
	cur->uverbs_abi_ver = ops->uverbs_abi_ver ?: cur->uverbs_abi_ver;
	cur->uverbs_no_driver_id_binding |= ops->uverbs_no_driver_id_binding;
	ops_slots_merge(cur, ops);
}
EXPORT_SYMBOL(ib_set_device_ops);

/**
 * ib_get_device_fw_str() - Read a device's firmware version string
 * @dev: the device
 * @str: buffer of IB_FW_VERSION_NAME_MAX bytes
 *
 * Context: As the driver's get_dev_fw_str op; usually process context.
 * An empty string when the driver has no such op.
 */
void ib_get_device_fw_str(struct ib_device *dev, char *str)
{
	if (dev->ops.get_dev_fw_str)
		dev->ops.get_dev_fw_str(dev, str);
	else
		str[0] = '\0';
}
EXPORT_SYMBOL(ib_get_device_fw_str);

/**
 * ib_modify_device() - Change device attributes
 * @device: the device
 * @device_modify_mask: IB_DEVICE_MODIFY_* bits saying what to change
 * @device_modify: the new values
 *
 * Context: Process context, may sleep.
 * Return: 0, -EOPNOTSUPP if the driver has no modify_device, or its error.
 */
int ib_modify_device(struct ib_device *device, int device_modify_mask,
		     struct ib_device_modify *device_modify)
{
	if (!device->ops.modify_device)
		return -EOPNOTSUPP;
	return device->ops.modify_device(device, device_modify_mask,
					 device_modify);
}
EXPORT_SYMBOL(ib_modify_device);

/* ---- Registration steps -------------------------------------------------- */

/* Ops a device must have for the kernel verbs (ib_device.kverbs_provider). */
static const size_t kverbs_ops[] = {
	offsetof(struct ib_device_ops, query_device),
	offsetof(struct ib_device_ops, query_port),
	offsetof(struct ib_device_ops, get_port_immutable),
	offsetof(struct ib_device_ops, alloc_pd),
	offsetof(struct ib_device_ops, dealloc_pd),
	offsetof(struct ib_device_ops, create_cq),
	offsetof(struct ib_device_ops, destroy_cq),
	offsetof(struct ib_device_ops, poll_cq),
	offsetof(struct ib_device_ops, req_notify_cq),
	offsetof(struct ib_device_ops, create_qp),
	offsetof(struct ib_device_ops, modify_qp),
	offsetof(struct ib_device_ops, destroy_qp),
	offsetof(struct ib_device_ops, post_send),
	offsetof(struct ib_device_ops, post_recv),
	offsetof(struct ib_device_ops, get_dma_mr),
	offsetof(struct ib_device_ops, reg_user_mr),
	offsetof(struct ib_device_ops, dereg_mr),
};

/* Registration calls query_device and get_port_immutable unconditionally. */
static int device_ops_check(struct ib_device *dev)
{
	unsigned int i;

	if (!dev->ops.query_device || !dev->ops.get_port_immutable)
		return -EINVAL;

	dev->kverbs_provider = true;
	for (i = 0; i < ARRAY_SIZE(kverbs_ops); i++) {
		unsigned long op;

		memcpy(&op, (const void *)&dev->ops + kverbs_ops[i], sizeof(op));
		if (!op)
			dev->kverbs_provider = false;
	}
	return 0;
}

static int device_attrs_query(struct ib_device *dev)
{
	struct ib_udata uhw = {};

	memset(&dev->attrs, 0, sizeof(dev->attrs));
	return dev->ops.query_device(dev, &dev->attrs, &uhw);
}

/* The add uevent waits until the device is enabled (ib_register_device()). */
static int device_kobj_add(struct ib_device *dev)
{
	int ret;

	dev_set_uevent_suppress(&dev->dev, true);
	ret = device_add(&dev->dev);
	if (ret)
		dev_set_uevent_suppress(&dev->dev, false);
	return ret;
}

static void device_kobj_del(struct ib_device *dev)
{
	device_del(&dev->dev);
	dev_set_uevent_suppress(&dev->dev, false);
}

/**
 * struct device_step - one step of setting a device up for registration
 * @what: for the log when it fails
 * @setup: do it; 0 or a negative errno
 * @teardown: undo it, on unregistration or when a later step fails; NULL
 *	      when the result lives until the device is freed
 */
struct device_step {
	const char *what;
	int (*setup)(struct ib_device *dev);
	void (*teardown)(struct ib_device *dev);
};

/*
 * Run in order by ib_register_device() before the device is enabled, and
 * undone in reverse after it is disabled. The GID/P_Key cache, sysfs
 * attributes, the RDMA cgroup and counters slot in before "driver model".
 */
static const struct device_step device_steps[] = {
	{ "driver ops",		device_ops_check,	NULL },
	{ "per-port data",	ib_port_data_setup,	NULL },
	{ "device attributes",	device_attrs_query,	NULL },
	{ "GID cache",		ib_cache_setup_one,	ib_cache_cleanup_one },
	{ "sysfs attributes",	ib_sysfs_device_setup,	ib_sysfs_device_teardown },
	{ "driver model",	device_kobj_add,	device_kobj_del },
	{ "sysfs ports",	ib_sysfs_ports_setup,	ib_sysfs_ports_teardown },
};

/* Undo the first @count steps, last first. */
static void device_steps_undo(struct ib_device *dev, unsigned int count)
{
	while (count--)
		if (device_steps[count].teardown)
			device_steps[count].teardown(dev);
}

static int device_steps_run(struct ib_device *dev)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(device_steps); i++) {
		ret = device_steps[i].setup(dev);
		if (ret) {
			ibdev_warn(dev, "registration failed at %s: %d\n",
				   device_steps[i].what, ret);
			device_steps_undo(dev, i);
			return ret;
		}
	}
	return 0;
}

/* ---- Enable, disable, register, unregister ------------------------------- */

/*
 * Make @dev visible: mark it, let the driver finish, add the clients.
 * Returns holding an extra reference for the caller, even on failure, so a
 * parallel unregistration cannot complete under it.
 */
static int device_enable(struct ib_device *dev)
{
	int ret = 0;

	reinit_completion(&dev->unreg_completion);
	/* one reference for being registered, one for the caller */
	refcount_set(&dev->refcount, 2);

	down_write(&ib_devices_rwsem);
	xa_set_mark(&ib_devices, dev->index, IB_DEVICE_REGISTERED);
	/* readers only from here: nobody can unmark it until clients are in */
	downgrade_write(&ib_devices_rwsem);

	if (dev->ops.enable_driver)
		ret = dev->ops.enable_driver(dev);
	if (!ret)
		ret = ib_client_add_all(dev);
	up_read(&ib_devices_rwsem);
	return ret;
}

/* Hide @dev, remove its clients, wait until nobody holds it. */
static void device_disable(struct ib_device *dev)
{
	WARN_ON(!refcount_read(&dev->refcount));

	down_write(&ib_devices_rwsem);
	xa_clear_mark(&ib_devices, dev->index, IB_DEVICE_REGISTERED);
	up_write(&ib_devices_rwsem);

	ib_client_remove_all(dev);
	ib_cq_pool_cleanup(dev);

	/* the reference device_enable() took for being registered */
	ib_device_put(dev);
	wait_for_completion(&dev->unreg_completion);
}

/*
 * Installed as dealloc_driver while ib_register_device() unwinds a failed
 * enable: any unregistration then leaves freeing the device to the driver,
 * which calls ib_dealloc_device() after the failure.
 */
static void device_dealloc_by_caller(struct ib_device *dev)
{
}

/*
 * Unregister @dev if it is registered. All callers hold a get_device(), so
 * the memory outlives a dealloc_driver free. Once any caller returns, the
 * device is fully unregistered, however many raced.
 */
static void device_unregister_once(struct ib_device *dev)
{
	/* device_disable() takes ib_devices_rwsem for writing */
	lockdep_assert_not_held(&ib_devices_rwsem);

	mutex_lock(&dev->unregistration_lock);
	if (!refcount_read(&dev->refcount))
		goto out;

	device_disable(dev);
	ib_port_netdevs_release(dev);
	device_steps_undo(dev, ARRAY_SIZE(device_steps));

	if (dev->ops.dealloc_driver &&
	    dev->ops.dealloc_driver != device_dealloc_by_caller)
		ib_dealloc_device(dev);
out:
	mutex_unlock(&dev->unregistration_lock);
}

static void device_register_abort(struct ib_device *dev)
{
	void (*dealloc)(struct ib_device *dev) = dev->ops.dealloc_driver;

	dev->ops.dealloc_driver = device_dealloc_by_caller;
	ib_device_put(dev);
	device_unregister_once(dev);
	dev->ops.dealloc_driver = dealloc;
}

/**
 * ib_register_device() - Make a device available to the RDMA stack
 * @device: from ib_alloc_device(), with ops, phys_port_cnt and node_type
 *	    set
 * @name: the name, or a template with one "%d" that becomes the lowest
 *	  number giving a free name (e.g. "rxe%d")
 * @dma_device: the device that does DMA, or NULL for a software device
 *		whose addresses are kernel virtual addresses
 *
 * Takes the name, asks the driver for each port's immutable attributes
 * (get_port_immutable, ports rdma_start_port() to rdma_end_port()) and the
 * device attributes (query_device), adds the struct device, then enables
 * the device: from here ib_device_get_by_name() finds it, and every
 * registered client's add() runs, in client registration order.
 *
 * On failure the device is left unregistered and the caller frees it with
 * ib_dealloc_device(). A driver with dealloc_driver that may unregister
 * asynchronously must not touch @device after a successful return.
 *
 * Context: Process context, may sleep. Must not hold locks a client's add()
 * might take.
 * Return: 0; -EINVAL for a bad name or missing ops; -ENFILE if the name is
 * taken; an error of the driver's ops or of memory allocation.
 */
int ib_register_device(struct ib_device *device, const char *name,
		       struct device *dma_device)
{
	int ret;

	/*
	 * Without a DMA device the core puts kernel virtual addresses in
	 * SGEs; with one, it must be able to say how it maps (dma_parms).
	 */
	WARN_ON(dma_device && !dma_device->dma_parms);
	device->dma_device = dma_device;

	ret = ib_device_name_assign(device, name);
	if (!ret)
		ret = device_steps_run(device);
	if (ret)
		return ret;

	/* either way, device_enable() leaves us a reference to drop */
	ret = device_enable(device);
	if (ret) {
		device_register_abort(device);
	} else {
		dev_set_uevent_suppress(&device->dev, false);
		kobject_uevent(&device->dev.kobj, KOBJ_ADD);
		ib_device_put(device);
	}
	return ret;
}
EXPORT_SYMBOL(ib_register_device);

/*
 * Every way into unregistration ends here. The caller pinned the memory
 * with get_device() (a dealloc_driver may free the device on the way) and
 * hands that pin over: after return @dev may be gone.
 */
static void device_unregister_unpin(struct ib_device *dev)
{
	device_unregister_once(dev);
	put_device(&dev->dev);
}

/**
 * ib_unregister_device() - Take a device out of the RDMA stack
 * @ib_dev: a device ib_register_device() succeeded on
 *
 * Hides the device from lookups, calls every client's remove() in reverse
 * registration order, waits until every ib_device_put() has happened, then
 * undoes the registration. If the driver has dealloc_driver, the device is
 * freed before this returns. Calling it for an unregistered device does
 * nothing; concurrent callers all return after the device is unregistered.
 *
 * Context: Process context, may sleep (for as long as references are held).
 * Must not hold ib_devices_rwsem or locks a client's remove() might take.
 */
void ib_unregister_device(struct ib_device *ib_dev)
{
	get_device(&ib_dev->dev);
	device_unregister_unpin(ib_dev);
}
EXPORT_SYMBOL(ib_unregister_device);

/**
 * ib_unregister_device_and_put() - Unregister a device one holds
 * @ib_dev: the device, held with ib_device_try_get() or a lookup
 *
 * ib_unregister_device() that drops the caller's reference first, so it
 * does not wait for itself. Only for drivers with dealloc_driver; the
 * device is freed on return.
 *
 * Context: Process context, may sleep.
 */
void ib_unregister_device_and_put(struct ib_device *ib_dev)
{
	WARN_ON(!ib_dev->ops.dealloc_driver);
	/* the pin first: our reference may be what keeps the device alive */
	get_device(&ib_dev->dev);
	ib_device_put(ib_dev);
	device_unregister_unpin(ib_dev);
}
EXPORT_SYMBOL(ib_unregister_device_and_put);

/*
 * The first device of @driver_id at index *@from or above, pinned with
 * get_device(), its index stored in *@from; NULL when there is none.
 * Devices stay in ib_devices until ib_dealloc_device(), so a device whose
 * unregistration runs elsewhere is still found, and waited for.
 */
static struct ib_device *device_next_of_driver(enum rdma_driver_id driver_id,
					       unsigned long *from)
{
	struct ib_device *dev;

	down_read(&ib_devices_rwsem);
	xa_for_each_start(&ib_devices, *from, dev, *from)
		if (dev->ops.driver_id == driver_id) {
			get_device(&dev->dev);
			break;
		}
	up_read(&ib_devices_rwsem);
	return dev;
}

/**
 * ib_unregister_driver() - Unregister every device of a driver
 * @driver_id: the driver's ops.driver_id
 *
 * Returns only when every device of the driver is unregistered and freed,
 * including unregistrations queued or running elsewhere: a driver calls it
 * before its module goes away. It does not stop new registrations.
 *
 * Context: Process context, may sleep. Must not hold ib_devices_rwsem.
 */
void ib_unregister_driver(enum rdma_driver_id driver_id)
{
	struct ib_device *dev;
	unsigned long index = 0;

	/* no ib_devices_rwsem across an unregistration: it takes the lock */
	while ((dev = device_next_of_driver(driver_id, &index))) {
		WARN_ON(!dev->ops.dealloc_driver);
		device_unregister_unpin(dev);
		index++;
	}
}
EXPORT_SYMBOL(ib_unregister_driver);

/* Queued by ib_unregister_device_queued(); owns the pin taken there. */
static void device_unregister_work(struct work_struct *work)
{
	device_unregister_unpin(container_of(work, struct ib_device,
					     unregistration_work));
}

/**
 * ib_unregister_device_queued() - Unregister a device from a work queue
 * @ib_dev: a registered device whose driver has dealloc_driver
 *
 * For callers that hold locks unregistration must not run under (RTNL, for
 * instance). The driver must call ib_unregister_driver() before its module
 * unloads, which waits for the queued work. Queuing a device whose work is
 * already pending does nothing more.
 *
 * Context: Any context that may queue work.
 */
void ib_unregister_device_queued(struct ib_device *ib_dev)
{
	WARN_ON(!refcount_read(&ib_dev->refcount));
	WARN_ON(!ib_dev->ops.dealloc_driver);

	/* the work item owns a pin for as long as it is queued */
	get_device(&ib_dev->dev);
	if (queue_work(ib_unreg_wq, &ib_dev->unregistration_work))
		return;
	/* already pending: that work's pin covers this request too */
	put_device(&ib_dev->dev);
}
EXPORT_SYMBOL(ib_unregister_device_queued);

/* ---- References and lookups ---------------------------------------------- */

/**
 * ib_device_put() - Drop a reference from ib_device_try_get() or a lookup
 * @device: the device
 *
 * The last put lets a waiting ib_unregister_device() go on.
 *
 * Context: Any context.
 */
void ib_device_put(struct ib_device *device)
{
	if (refcount_dec_and_test(&device->refcount))
		complete(&device->unreg_completion);
}
EXPORT_SYMBOL(ib_device_put);

/**
 * ib_device_get_registered() - Hold a device if it is registered
 * @dev: the device, or NULL
 *
 * The caller keeps ib_devices stable (ib_devices_rwsem) or, for
 * ib_device_get_by_netdev(), is under RCU: there the registered mark may
 * be cleared right after the test, which the refcount then catches or
 * ib_unregister_device() waits out.
 *
 * Context: Any context.
 * Return: @dev with a reference (ib_device_put() it), or NULL.
 */
struct ib_device *ib_device_get_registered(struct ib_device *dev)
{
	if (!dev || !xa_get_mark(&ib_devices, dev->index, IB_DEVICE_REGISTERED))
		return NULL;
	return ib_device_try_get(dev) ? dev : NULL;
}

/**
 * ib_device_get_by_index() - Find a registered device by index, held
 * @net: the caller's network namespace; every device is shared with every
 *	 namespace until the netns work lands, so it is not looked at yet
 * @index: ib_device.index
 *
 * Context: Process context, may sleep. Takes ib_devices_rwsem.
 * Return: the device (ib_device_put() it), or NULL.
 */
struct ib_device *ib_device_get_by_index(const struct net *net, u32 index)
{
	struct ib_device *dev;

	down_read(&ib_devices_rwsem);
	dev = ib_device_get_registered(xa_load(&ib_devices, index));
	up_read(&ib_devices_rwsem);
	return dev;
}

/**
 * ib_device_get_by_name() - Find a registered device by name, held
 * @name: the device name
 * @driver_id: the driver it must belong to, RDMA_DRIVER_UNKNOWN for any
 *
 * A device is found from the moment ib_register_device() enables it until
 * ib_unregister_device() starts.
 *
 * Context: Process context, may sleep. Takes ib_devices_rwsem.
 * Return: the device (ib_device_put() it), or NULL.
 */
struct ib_device *ib_device_get_by_name(const char *name,
					enum rdma_driver_id driver_id)
{
	bool any_driver = driver_id == RDMA_DRIVER_UNKNOWN;
	struct ib_device *found, *held = NULL;

	down_read(&ib_devices_rwsem);
	found = ib_device_find_by_name(name);
	/* the name is unique, so a device of another driver means none */
	if (found && (any_driver || found->ops.driver_id == driver_id))
		held = ib_device_get_registered(found);
	up_read(&ib_devices_rwsem);
	return held;
}
EXPORT_SYMBOL(ib_device_get_by_name);

