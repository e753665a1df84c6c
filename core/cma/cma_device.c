// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_cm's client of the RDMA core: the devices that speak a CM, their ports'
 * defaults, and their removal.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "cma/cma.h"
#include "roce/roce.h"

/* The GID type a RoCE port's ids use unless configured otherwise. */
#define CMA_PREFERRED_ROCE_GID_TYPE	IB_GID_TYPE_ROCE_UDP_ENCAP

static struct ib_client cma_client;

void cma_device_get(struct cma_device *dev)
{
	refcount_inc(&dev->refs);
}

void cma_device_put(struct cma_device *dev)
{
	if (refcount_dec_and_test(&dev->refs))
		complete(&dev->released);
}
EXPORT_SYMBOL_IF_KUNIT(cma_device_put);

/* rdma_cm's device of @device, or NULL where rdma_cm does not run. */
struct cma_device *cma_device_of(struct ib_device *device)
{
	return ib_get_client_data(device, &cma_client);
}
EXPORT_SYMBOL_IF_KUNIT(cma_device_of);

static struct cma_port_defaults *cma_device_port(struct cma_device *dev,
						 u32 port)
{
	u32 i = port - rdma_start_port(dev->device);

	return i < dev->nports ? &dev->ports[i] : NULL;
}

/* The default GID type of ids on @port (IB_GID_TYPE_IB off its range). */
enum ib_gid_type cma_device_gid_type(struct cma_device *dev, u32 port)
{
	struct cma_port_defaults *p = cma_device_port(dev, port);

	return p ? READ_ONCE(p->gid_type) : IB_GID_TYPE_IB;
}
EXPORT_SYMBOL_IF_KUNIT(cma_device_gid_type);

/* The default RoCE type of service of ids on @port. */
u8 cma_device_roce_tos(struct cma_device *dev, u32 port)
{
	struct cma_port_defaults *p = cma_device_port(dev, port);

	return p ? READ_ONCE(p->roce_tos) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_device_roce_tos);

/**
 * cma_device_set_gid_type() - Change the default GID type of a port's ids
 * @dev: the device
 * @port: the port
 * @type: the new default; IB_GID_TYPE_IB stands for RoCE v1 on a port
 *	  of RoCE v1 (the two share a name, "IB/RoCE v1", which parses as IB)
 *
 * Ids that attach to the port from now on look their source GID up with
 * @type and build their RoCE routes with it; ids already there keep theirs.
 *
 * Context: any.
 * Return: 0, or -EINVAL when the device has no such port or the port has
 * no GIDs of @type.
 */
int cma_device_set_gid_type(struct cma_device *dev, u32 port,
			    enum ib_gid_type type)
{
	struct cma_port_defaults *p = cma_device_port(dev, port);

	if (!p || (unsigned int)type >= BITS_PER_LONG)
		return -EINVAL;
	/* "IB/RoCE v1" names both; on a port of RoCE v1 it means that. */
	if (type == IB_GID_TYPE_IB &&
	    rdma_protocol_roce_eth_encap(dev->device, port))
		type = IB_GID_TYPE_ROCE;
	if (!(roce_gid_type_mask_support(dev->device, port) & BIT(type)))
		return -EINVAL;
	WRITE_ONCE(p->gid_type, type);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_device_set_gid_type);

/**
 * cma_device_set_roce_tos() - Change the default type of service of a port
 * @dev: the device
 * @port: the port
 * @tos: what RoCE routes on @port carry when their id has no TOS of its
 *	 own (rdma_set_service_type())
 *
 * Context: any.
 * Return: 0, or -EINVAL when the device has no such port.
 */
int cma_device_set_roce_tos(struct cma_device *dev, u32 port, u8 tos)
{
	struct cma_port_defaults *p = cma_device_port(dev, port);

	if (!p)
		return -EINVAL;
	WRITE_ONCE(p->roce_tos, tos);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_device_set_roce_tos);

/**
 * cma_device_find_by_name() - rdma_cm's device of an RDMA device's name
 * @name: the device's current name (dev_name(), "rxe0")
 *
 * Context: process context; takes cma.lock.
 * Return: the cma_device, referenced (cma_device_put() when done), or
 * NULL when rdma_cm has no device of that name.
 */
struct cma_device *cma_device_find_by_name(const char *name)
{
	struct cma_device *dev, *found = NULL;

	mutex_lock(&cma.lock);
	list_for_each_entry(dev, &cma.devices, node) {
		if (!strcmp(dev_name(&dev->device->dev), name)) {
			cma_device_get(dev);
			found = dev;
			break;
		}
	}
	mutex_unlock(&cma.lock);
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(cma_device_find_by_name);

/* A device rdma_cm can work with: some port speaks the IB CM or iWARP's. */
static bool cma_device_supported(struct ib_device *device)
{
	u32 p;

	rdma_for_each_port(device, p)
		if (rdma_cap_ib_cm(device, p) || rdma_cap_iw_cm(device, p))
			return true;
	return false;
}

/*
 * RoCE v2 where the port has it, else the first type it supports (IB on
 * an IB port: the mask of a non-RoCE port is IB's bit alone).
 */
static enum ib_gid_type cma_device_pick_gid_type(struct ib_device *device,
						 u32 port)
{
	unsigned long mask = roce_gid_type_mask_support(device, port);

	if (WARN_ON(!mask))
		return IB_GID_TYPE_IB;
	if (mask & BIT(CMA_PREFERRED_ROCE_GID_TYPE))
		return CMA_PREFERRED_ROCE_GID_TYPE;
	return find_first_bit(&mask, BITS_PER_LONG);
}

/**
 * cma_device_add() - The ib_client's add: rdma_cm starts on a device
 * @device: the device
 *
 * Builds the device's defaults, then publishes it (client data, then the
 * list that binding searches) and gives every listener on no device an
 * IB CM listener on it. A listener that cannot have one there (another
 * ib_cm user holds its service ID) goes without, with a warning: the
 * device is not refused for it.
 *
 * Context: process context, under the core's client registration.
 * Return: 0, -EOPNOTSUPP for a device without a CM, or -ENOMEM.
 */
static int cma_device_add(struct ib_device *device)
{
	struct cma_device *dev;
	LIST_HEAD(todo);
	u32 p;

	if (!cma_device_supported(device))
		return -EOPNOTSUPP;
	dev = kzalloc(struct_size(dev, ports, device->phys_port_cnt),
		      GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->device = device;
	dev->nports = device->phys_port_cnt;
	INIT_LIST_HEAD(&dev->ids);
	refcount_set(&dev->refs, 1);
	init_completion(&dev->released);
	rdma_for_each_port(device, p)
		cma_device_port(dev, p)->gid_type =
			cma_device_pick_gid_type(device, p);

	ib_set_client_data(device, &cma_client, dev);
	mutex_lock(&cma.lock);
	list_add_tail(&dev->node, &cma.devices);
	cma_listen_plan_device(dev, &todo);
	mutex_unlock(&cma.lock);
	if (cma_listen_run(&todo))
		ibdev_warn(device, "a listener could not listen here\n");
	return 0;
}

/* The first id still on @dev, off the list and referenced; or NULL. */
static struct cma_id_priv *cma_device_take_id(struct cma_device *dev)
{
	struct cma_id_priv *priv;

	mutex_lock(&cma.lock);
	priv = list_first_entry_or_null(&dev->ids, struct cma_id_priv,
					dev_node);
	if (priv) {
		list_del_init(&priv->dev_node);
		cma_id_get(priv);
	}
	mutex_unlock(&cma.lock);
	return priv;
}

/**
 * cma_device_remove() - The ib_client's remove: rdma_cm leaves a device
 * @device: the device
 * @client_data: its cma_device
 *
 * Unpublishes the device and destroys the IB CM listeners that listeners on
 * no device have there, tells every id on it (DEVICE_REMOVAL: a listener
 * bound to it loses its IB CM listener then), then waits until each has
 * been destroyed: its owner must do so.
 *
 * Context: process context, sleeps.
 */
static void cma_device_remove(struct ib_device *device, void *client_data)
{
	struct cma_device *dev = client_data;
	struct cma_id_priv *priv;
	LIST_HEAD(gone);

	mutex_lock(&cma.lock);
	list_del(&dev->node);
	cma_listen_drop_device(dev, &gone);
	mutex_unlock(&cma.lock);
	cma_listen_free_all(&gone);
	while ((priv = cma_device_take_id(dev)))
		cma_id_remove(priv);
	cma_device_put(dev);
	wait_for_completion(&dev->released);
	kfree(dev);
}

static struct ib_client cma_client = {
	.name	= "rdma_cm",
	.add	= cma_device_add,
	.remove	= cma_device_remove,
};

int cma_device_init(void)
{
	return ib_register_client(&cma_client);
}

void cma_device_exit(void)
{
	ib_unregister_client(&cma_client);
}
