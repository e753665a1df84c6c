// SPDX-License-Identifier: GPL-2.0-only
/* The RDMA device model: allocation, naming, registration, references, ports. */

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/inetdevice.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <uapi/rdma/rdma_netlink.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"
#include "cq_priv.h"

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

/* The rcu_head in front of a device's port array, for kfree_rcu(). */
struct port_data_rcu {
	struct rcu_head		rcu;
	struct ib_port_data	ports[];
};

static void device_netdevs_release(struct ib_device *dev);

/* The last put_device(): free everything the device still owns. */
static void device_release(struct device *kdev)
{
	struct ib_device *dev = container_of(kdev, struct ib_device, dev);

	device_netdevs_release(dev);
	WARN_ON(refcount_read(&dev->refcount));
	/* lookups under RCU may still be reading the ports or the device */
	if (dev->port_data)
		kfree_rcu(container_of(dev->port_data, struct port_data_rcu,
				       ports[0]), rcu);
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

static void ibdev_vprintk(const char *level, const struct ib_device *ibdev,
			  struct va_format *vaf)
{
	const struct device *parent = ibdev ? ibdev->dev.parent : NULL;

	if (parent)
		dev_printk_emit(printk_get_level(level) - '0', parent,
				"%s %s %s: %pV", dev_driver_string(parent),
				dev_name(parent), dev_name(&ibdev->dev), vaf);
	else if (ibdev)
		printk("%s%s: %pV", level, dev_name(&ibdev->dev), vaf);
	else
		printk("%s(NULL ib_device): %pV", level, vaf);
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
	struct va_format vaf;
	va_list args;

	va_start(args, format);
	vaf.fmt = format;
	vaf.va = &args;
	ibdev_vprintk(level, ibdev, &vaf);
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
	struct va_format vaf;						\
	va_list args;							\
									\
	va_start(args, format);						\
	vaf.fmt = format;						\
	vaf.va = &args;							\
	ibdev_vprintk(level, ibdev, &vaf);				\
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

	if (WARN_ON(size < sizeof(struct ib_device)))
		return NULL;

	dev = kzalloc(size, GFP_KERNEL);
	if (!dev)
		return NULL;

	device_locks_init(dev);
	device_kobj_init(dev);
	for (i = 0; i < ARRAY_SIZE(default_uverbs_cmds); i++)
		dev->uverbs_cmd_mask |= BIT_ULL(default_uverbs_cmds[i]);
	return dev;
}
EXPORT_SYMBOL(_ib_alloc_device);

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
	 * ib_unregister_driver() finds devices through ib_devices, so a
	 * device stays listed until its driver is done with it.
	 */
	down_write(&ib_devices_rwsem);
	if (xa_load(&ib_devices, device->index) == device)
		xa_erase(&ib_devices, device->index);
	up_write(&ib_devices_rwsem);

	device_netdevs_release(device);
	WARN_ON(!xa_empty(&device->client_data));
	WARN_ON(refcount_read(&device->refcount));
	/* pairs with device_initialize() in _ib_alloc_device() */
	put_device(&device->dev);
}
EXPORT_SYMBOL(ib_dealloc_device);

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
	struct ib_device_ops *dev_ops = &dev->ops;

	if (ops->driver_id != RDMA_DRIVER_UNKNOWN) {
		WARN_ON(dev_ops->driver_id != RDMA_DRIVER_UNKNOWN &&
			dev_ops->driver_id != ops->driver_id);
		dev_ops->driver_id = ops->driver_id;
	}
	if (ops->owner) {
		WARN_ON(dev_ops->owner && dev_ops->owner != ops->owner);
		dev_ops->owner = ops->owner;
	}
	if (ops->uverbs_abi_ver)
		dev_ops->uverbs_abi_ver = ops->uverbs_abi_ver;
	dev_ops->uverbs_no_driver_id_binding |= ops->uverbs_no_driver_id_binding;
	ops_slots_merge(dev_ops, ops);
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

/* ---- Per-port data and net devices --------------------------------------- */

/*
 * Ports with a net device, hashed by the net_device pointer, for
 * ib_device_get_by_netdev(). Readers walk it under RCU; ndev_hash_lock
 * serialises writers. A port's netdev_lock may be held around it, never
 * the other way round.
 */
static DEFINE_SPINLOCK(ndev_hash_lock);
static DEFINE_HASHTABLE(ndev_hash, 5);

/*
 * Allocate port_data, indexed directly by port number (so slot 0 is unused
 * on an HCA). Drivers may need it before registration, through
 * ib_device_set_netdev(); it lives until the device is freed.
 */
static int device_ports_alloc(struct ib_device *dev)
{
	struct port_data_rcu *pdr;
	u32 port;

	if (dev->port_data)
		return 0;
	/* the port range must be known, and U32_MAX would break iteration */
	if (WARN_ON(!dev->phys_port_cnt || dev->phys_port_cnt == U32_MAX))
		return -EINVAL;

	pdr = kzalloc(struct_size(pdr, ports, size_add(rdma_end_port(dev), 1)),
		      GFP_KERNEL);
	if (!pdr)
		return -ENOMEM;

	rdma_for_each_port(dev, port) {
		struct ib_port_data *pdata = &pdr->ports[port];

		pdata->ib_dev = dev;
		spin_lock_init(&pdata->pkey_list_lock);
		INIT_LIST_HEAD(&pdata->pkey_list);
		spin_lock_init(&pdata->netdev_lock);
		INIT_HLIST_NODE(&pdata->ndev_hash_link);
	}
	dev->port_data = pdr->ports;
	return 0;
}

/**
 * ib_port_immutable_read() - The immutable attributes of a port
 * @dev: a device past the port setup of ib_register_device()
 * @port: a valid port number
 *
 * Context: Any context.
 * Return: the attributes get_port_immutable reported.
 */
const struct ib_port_immutable *
ib_port_immutable_read(struct ib_device *dev, unsigned int port)
{
	WARN_ON(!rdma_is_port_valid(dev, port));
	return &dev->port_data[port].immutable;
}
EXPORT_SYMBOL(ib_port_immutable_read);

/* Put @pdata in the hash bucket of its current net device, if it has one. */
static void port_ndev_hash_update(struct ib_port_data *pdata)
{
	unsigned long flags;

	might_sleep();
	spin_lock_irqsave(&ndev_hash_lock, flags);
	if (hash_hashed(&pdata->ndev_hash_link)) {
		hash_del_rcu(&pdata->ndev_hash_link);
		spin_unlock_irqrestore(&ndev_hash_lock, flags);
		/* a reader may still be on the node: wait before reusing it */
		synchronize_rcu();
		spin_lock_irqsave(&ndev_hash_lock, flags);
	}
	if (rcu_access_pointer(pdata->netdev))
		hash_add_rcu(ndev_hash, &pdata->ndev_hash_link,
			     (uintptr_t)rcu_access_pointer(pdata->netdev));
	spin_unlock_irqrestore(&ndev_hash_lock, flags);
}

/**
 * ib_device_set_netdev() - Tie a net device to a port
 * @ib_dev: the device, registered or not
 * @ndev: the net device, or NULL to untie the port
 * @port: the port number
 *
 * The port keeps a reference on @ndev until it is replaced, the device is
 * unregistered or freed. The caller must make sure @ndev is not yet
 * unregistering, and untie it (or unregister @ib_dev) on NETDEV_UNREGISTER.
 * A port has at most one net device.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL for a bad port, -ENOMEM.
 */
int ib_device_set_netdev(struct ib_device *ib_dev, struct net_device *ndev,
			 unsigned int port)
{
	struct ib_port_data *pdata;
	struct net_device *old;
	unsigned long flags;
	int ret;

	if (!rdma_is_port_valid(ib_dev, port))
		return -EINVAL;
	ret = device_ports_alloc(ib_dev);
	if (ret)
		return ret;

	pdata = &ib_dev->port_data[port];
	spin_lock_irqsave(&pdata->netdev_lock, flags);
	old = rcu_dereference_protected(pdata->netdev,
					lockdep_is_held(&pdata->netdev_lock));
	if (old == ndev) {
		spin_unlock_irqrestore(&pdata->netdev_lock, flags);
		return 0;
	}
	if (ndev)
		dev_hold(ndev);
	rcu_assign_pointer(pdata->netdev, ndev);
	spin_unlock_irqrestore(&pdata->netdev_lock, flags);

	port_ndev_hash_update(pdata);
	if (old)
		dev_put(old);
	return 0;
}
EXPORT_SYMBOL(ib_device_set_netdev);

/* Untie every port from its net device; safe to call more than once. */
static void device_netdevs_release(struct ib_device *dev)
{
	unsigned long flags;
	u32 port;

	if (!dev->port_data)
		return;

	rdma_for_each_port(dev, port) {
		struct ib_port_data *pdata = &dev->port_data[port];
		struct net_device *ndev;

		spin_lock_irqsave(&pdata->netdev_lock, flags);
		ndev = rcu_dereference_protected(pdata->netdev,
					lockdep_is_held(&pdata->netdev_lock));
		if (ndev) {
			spin_lock(&ndev_hash_lock);
			hash_del_rcu(&pdata->ndev_hash_link);
			spin_unlock(&ndev_hash_lock);
			RCU_INIT_POINTER(pdata->netdev, NULL);
			/* only the pointer value is compared after this */
			dev_put(ndev);
		}
		spin_unlock_irqrestore(&pdata->netdev_lock, flags);
	}
}

/**
 * ib_device_get_netdev() - The net device of a port, held
 * @ib_dev: the device
 * @port: the port number
 *
 * Asks the driver's get_netdev op if there is one, else uses the net device
 * set with ib_device_set_netdev(). A net device that is unregistering is
 * not handed out.
 *
 * Context: Any context the driver's get_netdev allows.
 * Return: the net device with a reference (dev_put() it), or NULL.
 */
struct net_device *ib_device_get_netdev(struct ib_device *ib_dev, u32 port)
{
	struct ib_port_data *pdata;
	struct net_device *ndev;
	unsigned long flags;

	if (!rdma_is_port_valid(ib_dev, port) || !ib_dev->port_data)
		return NULL;

	if (ib_dev->ops.get_netdev) {
		ndev = ib_dev->ops.get_netdev(ib_dev, port);
	} else {
		pdata = &ib_dev->port_data[port];
		spin_lock_irqsave(&pdata->netdev_lock, flags);
		ndev = rcu_dereference_protected(pdata->netdev,
					lockdep_is_held(&pdata->netdev_lock));
		if (ndev)
			dev_hold(ndev);
		spin_unlock_irqrestore(&pdata->netdev_lock, flags);
	}

	if (ndev && ndev->reg_state != NETREG_REGISTERED) {
		dev_put(ndev);
		return NULL;
	}
	return ndev;
}

/**
 * ib_device_netdev() - The net device of a port, held
 * @dev: the device
 * @port: the port number
 *
 * Same as the core's ib_device_get_netdev(); 6.1 declares this name in
 * <rdma/ib_verbs.h> without defining it.
 *
 * Context: Any context the driver's get_netdev allows.
 * Return: the net device with a reference (dev_put() it), or NULL.
 */
struct net_device *ib_device_netdev(struct ib_device *dev, u32 port)
{
	return ib_device_get_netdev(dev, port);
}
EXPORT_SYMBOL(ib_device_netdev);

/* ---- Names --------------------------------------------------------------- */

/*
 * A device name is printable, 1 to IB_DEVICE_NAME_MAX - 1 characters, has
 * no '/' and no white space and is not "." or "..". A template for
 * ib_register_device() may also contain one "%d" (and no other '%').
 */
static int name_check(const char *name, bool template_ok)
{
	size_t len = strnlen(name, IB_DEVICE_NAME_MAX);
	const char *pct = strchr(name, '%');
	const char *p;

	if (!len || len == IB_DEVICE_NAME_MAX)
		return -EINVAL;
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	for (p = name; *p; p++)
		if (*p == '/' || isspace(*p) || !isprint(*p))
			return -EINVAL;
	if (pct && (!template_ok || pct[1] != 'd' || strchr(pct + 1, '%')))
		return -EINVAL;
	return 0;
}

static struct ib_device *device_find_by_name(const char *name)
{
	struct ib_device *dev;
	unsigned long index;

	lockdep_assert_held(&ib_devices_rwsem);
	xa_for_each(&ib_devices, index, dev)
		if (!strcmp(name, dev_name(&dev->dev)))
			return dev;
	return NULL;
}

/* Expand the "%d" of @tmpl to the lowest number that gives a free name. */
static int name_expand(const char *tmpl, char *buf)
{
	const char *pct = strchr(tmpl, '%');
	int i, len;

	lockdep_assert_held_write(&ib_devices_rwsem);
	for (i = 0; i < INT_MAX; i++) {
		len = snprintf(buf, IB_DEVICE_NAME_MAX, "%.*s%d%s",
			       (int)(pct - tmpl), tmpl, i, pct + 2);
		if (len >= IB_DEVICE_NAME_MAX)
			return -EINVAL;
		if (!device_find_by_name(buf))
			return 0;
	}
	return -ENFILE;
}

/*
 * Give @dev its unique name and index and list it in ib_devices (not
 * marked registered). Undone by ib_dealloc_device().
 */
static int device_name_assign(struct ib_device *dev, const char *name)
{
	static u32 next_index;
	char buf[IB_DEVICE_NAME_MAX];
	int ret;

	ret = name_check(name, true);
	if (ret)
		return ret;

	down_write(&ib_devices_rwsem);
	if (strchr(name, '%')) {
		ret = name_expand(name, buf);
	} else {
		strscpy(buf, name, sizeof(buf));
		ret = device_find_by_name(buf) ? -ENFILE : 0;
	}
	if (ret)
		goto out;
	ret = dev_set_name(&dev->dev, "%s", buf);
	if (ret)
		goto out;
	strscpy(dev->name, buf, IB_DEVICE_NAME_MAX);
	ret = xa_alloc_cyclic(&ib_devices, &dev->index, dev, xa_limit_31b,
			      &next_index, GFP_KERNEL);
	if (ret > 0)	/* the index wrapped: still a success */
		ret = 0;
out:
	up_write(&ib_devices_rwsem);
	return ret;
}

/**
 * ib_device_rename() - Rename a registered device
 * @ibdev: the device, held by the caller
 * @name: the new name (no template)
 *
 * Clients with a rename callback are told afterwards.
 *
 * Context: Process context, may sleep. Takes ib_devices_rwsem.
 * Return: 0 (also if @name is the current name), -EINVAL for a bad name,
 * -EEXIST if another device has it, or an error from device_rename().
 */
int ib_device_rename(struct ib_device *ibdev, const char *name)
{
	int ret;

	ret = name_check(name, false);
	if (ret)
		return ret;

	down_write(&ib_devices_rwsem);
	if (!strcmp(name, dev_name(&ibdev->dev))) {
		ret = 0;
		goto out_unlock;
	}
	if (device_find_by_name(name)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = device_rename(&ibdev->dev, name);
	if (ret)
		goto out_unlock;
	strscpy(ibdev->name, name, IB_DEVICE_NAME_MAX);

	/* the name is settled; keep the device registered while telling */
	downgrade_write(&ib_devices_rwsem);
	ib_client_rename_all(ibdev);
	up_read(&ib_devices_rwsem);
	return 0;

out_unlock:
	up_write(&ib_devices_rwsem);
	return ret;
}

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

/* A port without MADs must not claim a MAD size. */
static int port_immutable_check(struct ib_device *dev, u32 port)
{
	if (WARN_ON(!rdma_cap_ib_mad(dev, port) &&
		    rdma_max_mad_size(dev, port) != 0))
		return -EINVAL;
	return 0;
}

static int device_ports_setup(struct ib_device *dev)
{
	u32 port;
	int ret;

	ret = device_ports_alloc(dev);
	if (ret)
		return ret;

	rdma_for_each_port(dev, port) {
		struct ib_port_data *pdata = &dev->port_data[port];

		ret = dev->ops.get_port_immutable(dev, port, &pdata->immutable);
		if (ret)
			return ret;
		ret = port_immutable_check(dev, port);
		if (ret)
			return ret;
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
	{ "per-port data",	device_ports_setup,	NULL },
	{ "device attributes",	device_attrs_query,	NULL },
	{ "driver model",	device_kobj_add,	device_kobj_del },
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

/* ---- Enable, disable, register, unregister -------------------------------- */

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
	mutex_lock(&dev->unregistration_lock);
	if (!refcount_read(&dev->refcount))
		goto out;

	device_disable(dev);
	device_netdevs_release(dev);
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

	ret = device_name_assign(device, name);
	if (ret)
		return ret;

	WARN_ON(dma_device && !dma_device->dma_parms);
	device->dma_device = dma_device;

	ret = device_steps_run(device);
	if (ret)
		return ret;

	ret = device_enable(device);
	if (ret) {
		device_register_abort(device);
		return ret;
	}

	dev_set_uevent_suppress(&device->dev, false);
	kobject_uevent(&device->dev.kobj, KOBJ_ADD);
	ib_device_put(device);
	return 0;
}
EXPORT_SYMBOL(ib_register_device);

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
 * Must not hold locks a client's remove() might take.
 */
void ib_unregister_device(struct ib_device *ib_dev)
{
	get_device(&ib_dev->dev);
	device_unregister_once(ib_dev);
	put_device(&ib_dev->dev);
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
	get_device(&ib_dev->dev);
	ib_device_put(ib_dev);
	device_unregister_once(ib_dev);
	put_device(&ib_dev->dev);
}
EXPORT_SYMBOL(ib_unregister_device_and_put);

/**
 * ib_unregister_driver() - Unregister every device of a driver
 * @driver_id: the driver's ops.driver_id
 *
 * Returns only when every device of the driver is unregistered and freed,
 * including unregistrations queued or running elsewhere: a driver calls it
 * before its module goes away. It does not stop new registrations.
 *
 * Context: Process context, may sleep.
 */
void ib_unregister_driver(enum rdma_driver_id driver_id)
{
	struct ib_device *dev;
	unsigned long index;

	down_read(&ib_devices_rwsem);
	xa_for_each(&ib_devices, index, dev) {
		if (dev->ops.driver_id != driver_id)
			continue;

		get_device(&dev->dev);
		up_read(&ib_devices_rwsem);

		WARN_ON(!dev->ops.dealloc_driver);
		device_unregister_once(dev);

		put_device(&dev->dev);
		down_read(&ib_devices_rwsem);
	}
	up_read(&ib_devices_rwsem);
}
EXPORT_SYMBOL(ib_unregister_driver);

static void device_unregister_work(struct work_struct *work)
{
	struct ib_device *dev =
		container_of(work, struct ib_device, unregistration_work);

	device_unregister_once(dev);
	put_device(&dev->dev);
}

/**
 * ib_unregister_device_queued() - Unregister a device from a work queue
 * @ib_dev: a registered device whose driver has dealloc_driver
 *
 * For callers that hold locks unregistration must not run under (RTNL, for
 * instance). The driver must call ib_unregister_driver() before its module
 * unloads, which waits for the queued work.
 *
 * Context: Any context that may queue work.
 */
void ib_unregister_device_queued(struct ib_device *ib_dev)
{
	WARN_ON(!refcount_read(&ib_dev->refcount));
	WARN_ON(!ib_dev->ops.dealloc_driver);
	get_device(&ib_dev->dev);
	if (!queue_work(ib_unreg_wq, &ib_dev->unregistration_work))
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

/* Take a reference if @dev is registered; caller keeps ib_devices stable. */
static struct ib_device *device_get_registered(struct ib_device *dev)
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
	dev = device_get_registered(xa_load(&ib_devices, index));
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
	struct ib_device *dev;

	down_read(&ib_devices_rwsem);
	dev = device_find_by_name(name);
	if (dev && driver_id != RDMA_DRIVER_UNKNOWN &&
	    dev->ops.driver_id != driver_id)
		dev = NULL;
	dev = device_get_registered(dev);
	up_read(&ib_devices_rwsem);
	return dev;
}
EXPORT_SYMBOL(ib_device_get_by_name);

/**
 * ib_device_get_by_netdev() - Find the registered device a net device is tied to
 * @ndev: the net device, as given to ib_device_set_netdev()
 * @driver_id: the driver it must belong to, RDMA_DRIVER_UNKNOWN for any
 *
 * Only ports tied with ib_device_set_netdev() are found; a driver's
 * get_netdev op is not asked.
 *
 * Context: Any context.
 * Return: the device (ib_device_put() it), or NULL.
 */
struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  enum rdma_driver_id driver_id)
{
	struct ib_device *found = NULL;
	struct ib_port_data *pdata;

	rcu_read_lock();
	hash_for_each_possible_rcu(ndev_hash, pdata, ndev_hash_link,
				   (uintptr_t)ndev) {
		struct ib_device *dev = pdata->ib_dev;

		if (rcu_access_pointer(pdata->netdev) != ndev)
			continue;
		if (driver_id != RDMA_DRIVER_UNKNOWN &&
		    dev->ops.driver_id != driver_id)
			continue;
		found = device_get_registered(dev);
		if (found)
			break;
	}
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL(ib_device_get_by_netdev);

/* ---- Port queries and device changes ------------------------------------- */

/**
 * rdma_node_get_transport() - The transport of an RDMA node type
 * @node_type: an RDMA_NODE_* value
 *
 * Context: Any context.
 * Return: RDMA_TRANSPORT_IWARP for an RNIC, the usNIC transports for usNIC
 * nodes, RDMA_TRANSPORT_UNSPECIFIED for RDMA_NODE_UNSPECIFIED, and
 * RDMA_TRANSPORT_IB for everything else.
 */
__attribute_const__ enum rdma_transport_type
rdma_node_get_transport(unsigned int node_type)
{
	switch (node_type) {
	case RDMA_NODE_RNIC:
		return RDMA_TRANSPORT_IWARP;
	case RDMA_NODE_USNIC:
		return RDMA_TRANSPORT_USNIC;
	case RDMA_NODE_USNIC_UDP:
		return RDMA_TRANSPORT_USNIC_UDP;
	case RDMA_NODE_UNSPECIFIED:
		return RDMA_TRANSPORT_UNSPECIFIED;
	default:
		return RDMA_TRANSPORT_IB;
	}
}
EXPORT_SYMBOL(rdma_node_get_transport);

/**
 * rdma_port_get_link_layer() - The link layer under a port
 * @device: the device
 * @port_num: the port number (not checked)
 *
 * The driver's get_link_layer op decides if it has one; otherwise IB
 * transport nodes are InfiniBand and all others Ethernet.
 *
 * Context: Any context the driver's op allows.
 * Return: the port's link layer.
 */
enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *device,
					      u32 port_num)
{
	if (device->ops.get_link_layer)
		return device->ops.get_link_layer(device, port_num);
	if (rdma_node_get_transport(device->node_type) == RDMA_TRANSPORT_IB)
		return IB_LINK_LAYER_INFINIBAND;
	return IB_LINK_LAYER_ETHERNET;
}
EXPORT_SYMBOL(rdma_port_get_link_layer);

/*
 * iWARP ports have no subnet manager: the core derives state and MTU from
 * the net device (up with an IPv4 address is active), then lets the driver
 * add its part.
 */
static int port_query_iwarp(struct ib_device *dev, u32 port,
			    struct ib_port_attr *attr)
{
	struct net_device *ndev = ib_device_get_netdev(dev, port);
	const struct in_device *inetdev;

	if (!ndev)
		return -ENODEV;

	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = ib_mtu_int_to_enum(ndev->mtu);
	if (!netif_carrier_ok(ndev)) {
		attr->state = IB_PORT_DOWN;
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	} else {
		rcu_read_lock();
		inetdev = __in_dev_get_rcu(ndev);
		if (inetdev && rcu_access_pointer(inetdev->ifa_list)) {
			attr->state = IB_PORT_ACTIVE;
			attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
		} else {
			attr->state = IB_PORT_INIT;
			attr->phys_state =
				IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING;
		}
		rcu_read_unlock();
	}
	dev_put(ndev);
	return dev->ops.query_port(dev, port, attr);
}

/**
 * ib_query_port() - Read a port's attributes
 * @device: the device
 * @port_num: the port number
 * @port_attr: filled in; zeroed first, so what the driver leaves alone is 0
 *
 * For iWARP ports the core fills state, physical state and MTUs from the
 * port's net device before asking the driver. (Once the GID cache exists,
 * it also supplies the subnet prefix of IB ports whose driver leaves it 0.)
 *
 * Context: Process context; may sleep if the driver's query_port does.
 * Return: 0; -EINVAL for a port the device does not have; -EOPNOTSUPP if
 * the driver has no query_port; -ENODEV for an iWARP port without a net
 * device; or the driver's error.
 */
int ib_query_port(struct ib_device *device, u32 port_num,
		  struct ib_port_attr *port_attr)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (!device->ops.query_port)
		return -EOPNOTSUPP;

	memset(port_attr, 0, sizeof(*port_attr));
	if (rdma_protocol_iwarp(device, port_num))
		return port_query_iwarp(device, port_num, port_attr);
	return device->ops.query_port(device, port_num, port_attr);
}
EXPORT_SYMBOL(ib_query_port);

/**
 * ib_query_pkey() - Read one entry of a port's P_Key table from the driver
 * @device: the device
 * @port_num: the port number
 * @index: the table index
 * @pkey: where the P_Key goes
 *
 * Context: Process context; may sleep if the driver's op does.
 * Return: 0, -EINVAL for a bad port, -EOPNOTSUPP without the op, or the
 * driver's error.
 */
int ib_query_pkey(struct ib_device *device, u32 port_num, u16 index, u16 *pkey)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (!device->ops.query_pkey)
		return -EOPNOTSUPP;
	return device->ops.query_pkey(device, port_num, index, pkey);
}
EXPORT_SYMBOL(ib_query_pkey);

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

/**
 * ib_modify_port() - Change port attributes
 * @device: the device
 * @port_num: the port number
 * @port_modify_mask: IB_PORT_* modify flags
 * @port_modify: capability bits to set and clear, init type
 *
 * A RoCE port whose driver has no modify_port accepts requests that touch
 * no capability other than IB_PORT_CM_SUP on one side, and ignores them.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL for a bad port, -EOPNOTSUPP, or the driver's error.
 */
int ib_modify_port(struct ib_device *device, u32 port_num,
		   int port_modify_mask, struct ib_port_modify *port_modify)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (device->ops.modify_port)
		return device->ops.modify_port(device, port_num,
					       port_modify_mask, port_modify);
	if (rdma_protocol_roce(device, port_num) &&
	    (!(port_modify->set_port_cap_mask & ~IB_PORT_CM_SUP) ||
	     !(port_modify->clr_port_cap_mask & ~IB_PORT_CM_SUP)))
		return 0;
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_modify_port);
