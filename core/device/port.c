// SPDX-License-Identifier: GPL-2.0-only
/* Ports of an RDMA device: port data, each port's net device, port queries. */

#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"

/* ---- Per-port data ------------------------------------------------------- */

/* The rcu_head in front of a device's port array, for kfree_rcu(). */
struct port_data_rcu {
	struct rcu_head		rcu;
	struct ib_port_data	ports[];
};

/*
 * Allocate port_data, indexed directly by port number (so slot 0 is unused
 * on an HCA). Drivers may need it before registration, through
 * ib_device_set_netdev(); it lives until the device is freed.
 */
static int port_data_alloc(struct ib_device *dev)
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

/* A port without MADs must not claim a MAD size. */
static int port_immutable_check(struct ib_device *dev, u32 port)
{
	if (WARN_ON(!rdma_cap_ib_mad(dev, port) &&
		    rdma_max_mad_size(dev, port) != 0))
		return -EINVAL;
	return 0;
}

/**
 * ib_port_data_setup() - Registration step: set up every port of a device
 * @dev: the device being registered
 *
 * Allocates port_data unless ib_device_set_netdev() already did, then asks
 * the driver's get_port_immutable for each port and sanity-checks the
 * answer. The array stays until the device is freed, also on failure.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL for a bad port count or inconsistent attributes,
 * -ENOMEM, or the driver's error.
 */
int ib_port_data_setup(struct ib_device *dev)
{
	u32 port;
	int ret;

	ret = port_data_alloc(dev);
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

/**
 * ib_port_data_free() - Free a device's port_data
 * @dev: the device, from its release function
 *
 * Lookups under RCU (ib_device_get_by_netdev()) may still be reading the
 * ports, so the memory goes after a grace period.
 *
 * Context: Any context.
 */
void ib_port_data_free(struct ib_device *dev)
{
	if (dev->port_data)
		kfree_rcu(container_of(dev->port_data, struct port_data_rcu,
				       ports[0]), rcu);
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

/* ---- Net devices --------------------------------------------------------- */

/*
 * Ports with a net device, hashed by the net_device pointer, for
 * ib_device_get_by_netdev(). Readers walk it under RCU; ndev_hash_lock
 * serialises writers. A port's netdev_lock may be held around it, never
 * the other way round.
 */
static DEFINE_SPINLOCK(ndev_hash_lock);
static DEFINE_HASHTABLE(ndev_hash, 5);

/* A port's net device, for those holding its netdev_lock. */
static struct net_device *port_netdev_locked(struct ib_port_data *pdata)
{
	return rcu_dereference_protected(pdata->netdev,
					 lockdep_is_held(&pdata->netdev_lock));
}

/*
 * Move @pdata to the bucket of the net device it has now (none: out of the
 * hash). hash_del_rcu() leaves the node's forward link for readers still
 * standing on it; re-adding the node before a grace period has passed could
 * lead them into another bucket, hence the wait, with the lock dropped.
 * Another update may hash the node while we wait, so look again after.
 */
static void port_ndev_hash_update(struct ib_port_data *pdata)
{
	struct net_device *ndev;
	unsigned long flags;

	might_sleep();
	spin_lock_irqsave(&ndev_hash_lock, flags);
	while (hash_hashed(&pdata->ndev_hash_link)) {
		hash_del_rcu(&pdata->ndev_hash_link);
		spin_unlock_irqrestore(&ndev_hash_lock, flags);
		synchronize_rcu();
		spin_lock_irqsave(&ndev_hash_lock, flags);
	}
	ndev = rcu_access_pointer(pdata->netdev);
	if (ndev)
		hash_add_rcu(ndev_hash, &pdata->ndev_hash_link,
			     (uintptr_t)ndev);
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
 * A port has at most one net device. Drivers may call it before
 * ib_register_device(), so the per-port data is allocated here if needed.
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
	bool changed;
	int ret;

	ret = rdma_is_port_valid(ib_dev, port) ? port_data_alloc(ib_dev) :
						 -EINVAL;
	if (ret)
		return ret;

	pdata = &ib_dev->port_data[port];
	spin_lock_irqsave(&pdata->netdev_lock, flags);
	old = port_netdev_locked(pdata);
	changed = old != ndev;
	if (changed) {
		dev_hold(ndev);		/* NULL is fine for both */
		rcu_assign_pointer(pdata->netdev, ndev);
	}
	spin_unlock_irqrestore(&pdata->netdev_lock, flags);

	/* rehash first (it sleeps), and only then let the old one go */
	if (changed) {
		port_ndev_hash_update(pdata);
		dev_put(old);
	}
	return 0;
}
EXPORT_SYMBOL(ib_device_set_netdev);

/*
 * ib_device_set_netdev(NULL) for one port, without sleeping: nobody
 * re-adds the node, so no grace period is needed before it is reused. The
 * net device may be freed after the put; lookups only compare its address.
 */
static void port_netdev_drop(struct ib_port_data *pdata)
{
	struct net_device *ndev;
	unsigned long flags;

	spin_lock_irqsave(&pdata->netdev_lock, flags);
	ndev = port_netdev_locked(pdata);
	if (ndev) {
		spin_lock(&ndev_hash_lock);
		hash_del_rcu(&pdata->ndev_hash_link);
		spin_unlock(&ndev_hash_lock);
		RCU_INIT_POINTER(pdata->netdev, NULL);
		dev_put(ndev);
	}
	spin_unlock_irqrestore(&pdata->netdev_lock, flags);
}

/**
 * ib_port_netdevs_release() - Untie every port of a device from its net device
 * @dev: the device
 *
 * Drops the references ib_device_set_netdev() took and takes the ports out
 * of the ib_device_get_by_netdev() hash. Safe to call more than once, and
 * on a device that never had port_data.
 *
 * Context: Any context; takes each port's netdev_lock and ndev_hash_lock.
 */
void ib_port_netdevs_release(struct ib_device *dev)
{
	u32 port;

	if (dev->port_data)
		rdma_for_each_port(dev, port)
			port_netdev_drop(&dev->port_data[port]);
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
		found = ib_device_get_registered(dev);
		if (found)
			break;
	}
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL(ib_device_get_by_netdev);

/* ---- Port queries and changes -------------------------------------------- */

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
 * the net device, then lets the driver add its part. The state climbs with
 * what the net device has: no carrier, carrier, carrier and an IPv4
 * address.
 */
enum iwarp_link { IWARP_NO_CARRIER, IWARP_NO_ADDRESS, IWARP_ADDRESSED };

static const struct {
	enum ib_port_state state;
	enum ib_port_phys_state phys_state;
} iwarp_port_states[] = {
	[IWARP_NO_CARRIER] = { IB_PORT_DOWN, IB_PORT_PHYS_STATE_DISABLED },
	[IWARP_NO_ADDRESS] = { IB_PORT_INIT,
			       IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING },
	[IWARP_ADDRESSED]  = { IB_PORT_ACTIVE, IB_PORT_PHYS_STATE_LINK_UP },
};

static enum iwarp_link iwarp_link_of(struct net_device *ndev)
{
	const struct in_device *inetdev;
	bool addressed;

	if (!netif_carrier_ok(ndev))
		return IWARP_NO_CARRIER;
	rcu_read_lock();
	inetdev = __in_dev_get_rcu(ndev);
	addressed = inetdev && rcu_access_pointer(inetdev->ifa_list);
	rcu_read_unlock();
	return addressed ? IWARP_ADDRESSED : IWARP_NO_ADDRESS;
}

static int port_query_iwarp(struct ib_device *dev, u32 port,
			    struct ib_port_attr *attr)
{
	struct net_device *ndev = ib_device_get_netdev(dev, port);
	enum iwarp_link link;

	if (!ndev)
		return -ENODEV;

	link = iwarp_link_of(ndev);
	attr->state = iwarp_port_states[link].state;
	attr->phys_state = iwarp_port_states[link].phys_state;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = ib_mtu_int_to_enum(ndev->mtu);
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
 * port's net device before asking the driver. For IB link layer ports
 * whose driver leaves the subnet prefix 0, the cached one is filled in.
 *
 * Context: Process context; may sleep if the driver's query_port does.
 * Return: 0; -EINVAL for a port the device does not have; -EOPNOTSUPP if
 * the driver has no query_port; -ENODEV for an iWARP port without a net
 * device; or the driver's error.
 */
int ib_query_port(struct ib_device *device, u32 port_num,
		  struct ib_port_attr *port_attr)
{
	int ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (!device->ops.query_port)
		return -EOPNOTSUPP;

	memset(port_attr, 0, sizeof(*port_attr));
	if (rdma_protocol_iwarp(device, port_num))
		return port_query_iwarp(device, port_num, port_attr);
	ret = device->ops.query_port(device, port_num, port_attr);
	if (!ret && !port_attr->subnet_prefix &&
	    rdma_port_get_link_layer(device, port_num) == IB_LINK_LAYER_INFINIBAND)
		ib_get_cached_subnet_prefix(device, port_num,
					    &port_attr->subnet_prefix);
	return ret;
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
