// SPDX-License-Identifier: GPL-2.0-only
/* Clients of the RDMA core: add()/remove() per device, client data, client queries. */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/kmod.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"

/*
 * Clients by client_id. An id is the client's place in the add() order:
 * ids are handed out above every id in use, so a later client always has a
 * higher id, and remove() runs from the highest id down. CLIENT_REGISTERED
 * marks the clients that new devices get; it is cleared when a client
 * starts to unregister, the entry goes once its last remove() is over.
 *
 * clients_rwsem protects the entries, the mark and highest_client_id
 * (one past the highest id in use). Nests inside ib_devices_rwsem and
 * outside every device's client_data_rwsem.
 */
static DEFINE_XARRAY_FLAGS(clients, XA_FLAGS_ALLOC);
static DECLARE_RWSEM(clients_rwsem);
static u32 highest_client_id;
#define CLIENT_REGISTERED	XA_MARK_1

/*
 * In a device's client_data: set once the client's add() succeeded and
 * until its remove() starts. client_data_rwsem protects the mark and
 * whether an entry exists; the stored pointer belongs to the client.
 */
#define CLIENT_DATA_REGISTERED	XA_MARK_1

/* A client context (device, client) holds one use of the client. */
static void client_put(struct ib_client *client)
{
	if (refcount_dec_and_test(&client->uses))
		complete(&client->uses_zero);
}

/* Undo the references client_context_add() took. */
static void client_context_put(struct ib_device *dev, struct ib_client *client)
{
	ib_device_put(dev);
	client_put(client);
}

/*
 * Attach @client to @dev and call its add(). Safe against a parallel add or
 * remove of the same pair; returns only when add() is done. A failing
 * add() is not an error: the client just does not get this device.
 */
static int client_context_add(struct ib_device *dev, struct ib_client *client)
{
	u32 id = client->client_id;
	int ret;

	if (!dev->kverbs_provider && !client->no_kverbs_req)
		return 0;

	down_write(&dev->client_data_rwsem);
	/* a client that is unregistering takes no new devices */
	if (!refcount_inc_not_zero(&client->uses))
		goto out_unlock;
	refcount_inc(&dev->refcount);

	if (xa_get_mark(&dev->client_data, id, CLIENT_DATA_REGISTERED))
		goto out_put;
	ret = xa_err(xa_store(&dev->client_data, id, NULL, GFP_KERNEL));
	if (ret) {
		client_context_put(dev, client);
		up_write(&dev->client_data_rwsem);
		return ret;
	}

	/* readers see the entry only once it is marked, after add() */
	downgrade_write(&dev->client_data_rwsem);
	if (client->add && client->add(dev)) {
		xa_erase(&dev->client_data, id);
		up_read(&dev->client_data_rwsem);
		client_context_put(dev, client);
		return 0;
	}
	xa_set_mark(&dev->client_data, id, CLIENT_DATA_REGISTERED);
	up_read(&dev->client_data_rwsem);
	return 0;

out_put:
	client_context_put(dev, client);
out_unlock:
	up_write(&dev->client_data_rwsem);
	return 0;
}

/*
 * Claim the removal of client @id from @dev: clearing the mark hides the
 * client's data from readers and makes sure only one thread removes it.
 * Returns the client, with its data in *@data, or NULL when the client is
 * not attached (never was, or another thread claimed it first).
 */
static struct ib_client *client_context_claim(struct ib_device *dev, u32 id,
					      void **data)
{
	struct ib_client *client = NULL;

	down_write(&dev->client_data_rwsem);
	if (xa_get_mark(&dev->client_data, id, CLIENT_DATA_REGISTERED)) {
		xa_clear_mark(&dev->client_data, id, CLIENT_DATA_REGISTERED);
		*data = xa_load(&dev->client_data, id);
		/* still listed: the context we claimed holds one of its uses */
		client = xa_load(&clients, id);
	}
	up_write(&dev->client_data_rwsem);
	return client;
}

/*
 * Detach client @id from @dev and call its remove(). Returns at once if
 * another thread detaches it; ib_unregister_client() waits for that one.
 */
static void client_context_remove(struct ib_device *dev, u32 id)
{
	struct ib_client *client;
	void *data;

	client = client_context_claim(dev, id, &data);
	if (!client)
		return;

	/* no lock held here: remove() may call back into the core */
	if (client->remove)
		client->remove(dev, data);
	xa_erase(&dev->client_data, id);
	client_context_put(dev, client);
}

/**
 * ib_client_add_all() - Give a device that is being enabled to every client
 * @dev: the device, marked registered
 *
 * Calls add() of every registered client in registration order.
 *
 * Context: May sleep. Caller holds ib_devices_rwsem for reading, so the
 * device stays registered throughout.
 * Return: 0 or -ENOMEM.
 */
int ib_client_add_all(struct ib_device *dev)
{
	struct ib_client *client;
	unsigned long index;
	int ret = 0;

	lockdep_assert_held(&ib_devices_rwsem);
	down_read(&clients_rwsem);
	xa_for_each_marked(&clients, index, client, CLIENT_REGISTERED) {
		ret = client_context_add(dev, client);
		if (ret)
			break;
	}
	up_read(&clients_rwsem);
	return ret;
}

/**
 * ib_client_remove_all() - Detach every client from a device being disabled
 * @dev: the device, no longer marked registered
 *
 * Calls remove() in reverse registration order. No client can attach to
 * @dev any more, so the ids in use now are all that need looking at.
 *
 * Context: May sleep; no core locks held.
 */
void ib_client_remove_all(struct ib_device *dev)
{
	u32 id;

	down_read(&clients_rwsem);
	id = highest_client_id;
	up_read(&clients_rwsem);

	while (id--)
		client_context_remove(dev, id);
}

/**
 * ib_client_rename_all() - Tell the clients of a device its new name
 * @dev: the device, just renamed
 *
 * Context: May sleep. Caller holds ib_devices_rwsem for reading.
 */
void ib_client_rename_all(struct ib_device *dev)
{
	struct ib_client *client;
	unsigned long index;

	lockdep_assert_held(&ib_devices_rwsem);
	down_read(&clients_rwsem);
	down_read(&dev->client_data_rwsem);
	xa_for_each_marked(&clients, index, client, CLIENT_REGISTERED) {
		if (!client->rename ||
		    !xa_get_mark(&dev->client_data, index, CLIENT_DATA_REGISTERED))
			continue;
		client->rename(dev, xa_load(&dev->client_data, index));
	}
	up_read(&dev->client_data_rwsem);
	up_read(&clients_rwsem);
}

/*
 * List @client as registered under the id above every id in use, so that
 * the ids give the add() order. It starts with one use, the registration
 * itself, which ib_unregister_client() drops.
 */
static int client_id_assign(struct ib_client *client)
{
	int ret;

	lockdep_assert_held_write(&clients_rwsem);
	refcount_set(&client->uses, 1);
	init_completion(&client->uses_zero);
	client->client_id = highest_client_id;
	ret = xa_insert(&clients, client->client_id, client, GFP_KERNEL);
	if (!ret) {
		xa_set_mark(&clients, client->client_id, CLIENT_REGISTERED);
		highest_client_id = client->client_id + 1;
	}
	return ret;
}

/*
 * Unlist @client. highest_client_id becomes one past the highest id still
 * in use, so the ids of clients that went last are handed out again.
 */
static void client_id_release(struct ib_client *client)
{
	unsigned long index;
	void *entry;
	u32 top = 0;

	down_write(&clients_rwsem);
	xa_erase(&clients, client->client_id);
	xa_for_each(&clients, index, entry)
		top = index + 1;
	highest_client_id = top;
	up_write(&clients_rwsem);
}

/**
 * ib_register_client() - Register a user of RDMA devices
 * @client: the client; name, add and remove filled in
 *
 * add() is called for every registered device now, and for every device
 * registered later; devices get their clients' add() in the order the
 * clients registered, and remove() in reverse. add() runs with the core's
 * device and client locks held: it must not register or unregister
 * devices or clients, nor look devices up.
 *
 * Context: Process context, may sleep.
 * Return: 0 or -ENOMEM (the client is then not registered).
 */
int ib_register_client(struct ib_client *client)
{
	struct ib_device *dev;
	unsigned long index;
	int ret;

	/*
	 * Both locks for writing: no device is enabled or disabled while we
	 * go through them, so each registered device gets add() exactly once
	 * (a device enabled later finds the client listed).
	 */
	down_write(&ib_devices_rwsem);
	down_write(&clients_rwsem);
	ret = client_id_assign(client);
	if (ret)
		goto err_unlock;
	xa_for_each_marked(&ib_devices, index, dev, IB_DEVICE_REGISTERED) {
		ret = client_context_add(dev, client);
		if (ret)
			goto err_unregister;
	}
	up_write(&clients_rwsem);
	up_write(&ib_devices_rwsem);
	return 0;

err_unregister:
	up_write(&clients_rwsem);
	up_write(&ib_devices_rwsem);
	/* listed, maybe with devices already: take it all back */
	ib_unregister_client(client);
	return ret;

err_unlock:
	up_write(&clients_rwsem);
	up_write(&ib_devices_rwsem);
	return ret;
}
EXPORT_SYMBOL(ib_register_client);

/*
 * The first device at index *@from or above that ib_device_try_get()
 * holds, its index stored in *@from; NULL when there is none. Devices are
 * freed only after an RCU grace period, so RCU is enough to try one.
 */
static struct ib_device *client_next_device(unsigned long *from)
{
	struct ib_device *dev;

	rcu_read_lock();
	xa_for_each_start(&ib_devices, *from, dev, *from)
		if (ib_device_try_get(dev))
			break;
	rcu_read_unlock();
	return dev;
}

/**
 * ib_unregister_client() - Unregister a client
 * @client: a registered client
 *
 * Calls remove() for every device the client still has. When this returns
 * no callback of @client is running or will run, including removals that
 * unregistering devices started in other threads.
 *
 * Context: Process context, may sleep. Must not hold locks remove() takes.
 */
void ib_unregister_client(struct ib_client *client)
{
	struct ib_device *dev;
	unsigned long index;

	/* the registration's use goes, and no new device gets the client */
	down_write(&clients_rwsem);
	client_put(client);
	xa_clear_mark(&clients, client->client_id, CLIENT_REGISTERED);
	up_write(&clients_rwsem);

	/* no lock is held across remove(); the device is held instead */
	for (index = 0; (dev = client_next_device(&index)); index++) {
		client_context_remove(dev, client->client_id);
		ib_device_put(dev);
	}

	/*
	 * client_context_remove() returns early when an unregistering
	 * device's thread claimed the removal: its use of the client is
	 * dropped only once that remove() is over.
	 */
	wait_for_completion(&client->uses_zero);
	client_id_release(client);
}
EXPORT_SYMBOL(ib_unregister_client);

/**
 * ib_set_client_data() - Store a client's pointer for a device
 * @device: the device
 * @client: the client, attached to @device (from its add() on, until its
 *	    remove() returns)
 * @data: the pointer, read back with ib_get_client_data(); an ERR_PTR is
 *	  refused (warning) and stored as NULL
 *
 * Context: Process context, may sleep (allocates).
 */
void ib_set_client_data(struct ib_device *device, struct ib_client *client,
			void *data)
{
	/* an ERR_PTR is a client bug: NULL is stored instead */
	if (WARN_ON(IS_ERR(data)))
		data = NULL;
	/*
	 * The entry exists from client_context_add() on, so the store only
	 * replaces a pointer and should not need memory.
	 */
	WARN_ON(xa_is_err(xa_store(&device->client_data, client->client_id,
				   data, GFP_KERNEL)));
}
EXPORT_SYMBOL(ib_set_client_data);

/**
 * ib_get_net_dev_by_params() - Ask the clients for the net device of an address
 * @dev: the device a request came in on
 * @port: its port
 * @pkey: the request's P_Key
 * @gid: a GID the net device uses
 * @addr: the IP address the request is for
 *
 * Only IB ports have such net devices (IPoIB). Clients attached to @dev are
 * asked in registration order; the first answer wins.
 *
 * Context: Process context, may sleep.
 * Return: the net device with a reference held, or NULL.
 */
struct net_device *ib_get_net_dev_by_params(struct ib_device *dev, u32 port,
					    u16 pkey, const union ib_gid *gid,
					    const struct sockaddr *addr)
{
	struct net_device *ndev = NULL;
	struct ib_client *client;
	unsigned long index;

	if (!rdma_protocol_ib(dev, port))
		return NULL;

	/* attached clients stay attached while we hold client_data_rwsem */
	down_read(&clients_rwsem);
	down_read(&dev->client_data_rwsem);
	xa_for_each_marked(&clients, index, client, CLIENT_REGISTERED) {
		if (!client->get_net_dev_by_params ||
		    !xa_get_mark(&dev->client_data, index, CLIENT_DATA_REGISTERED))
			continue;
		ndev = client->get_net_dev_by_params(dev, port, pkey, gid, addr,
				xa_load(&dev->client_data, index));
		if (ndev)
			break;
	}
	up_read(&dev->client_data_rwsem);
	up_read(&clients_rwsem);
	return ndev;
}
EXPORT_SYMBOL(ib_get_net_dev_by_params);

/*
 * Ask the client called @name for its character device: the one attached
 * to @dev, or, with @dev NULL, the registered one. -ENOENT when there is
 * no such client (it may not be loaded yet).
 */
static int client_nl_info_query(struct ib_device *dev, const char *name,
				struct ib_client_nl_info *res)
{
	struct ib_client *client;
	unsigned long index;
	int ret = -ENOENT;

	down_read(&clients_rwsem);
	if (dev)
		down_read(&dev->client_data_rwsem);
	xa_for_each_marked(&clients, index, client, CLIENT_REGISTERED) {
		if (strcmp(client->name, name))
			continue;
		if (dev && !xa_get_mark(&dev->client_data, index,
					CLIENT_DATA_REGISTERED))
			continue;
		if (dev)
			ret = client->get_nl_info ?
			      client->get_nl_info(dev,
				      xa_load(&dev->client_data, index), res) :
			      -EOPNOTSUPP;
		else
			ret = client->get_global_nl_info ?
			      client->get_global_nl_info(res) : -EOPNOTSUPP;
		/* -ENOENT is ours to say: a client returning it is wrong */
		if (WARN_ON(ret == -ENOENT))
			ret = -EINVAL;
		/* the locks keep the client from removing @cdev until here */
		if (!ret && res->cdev)
			get_device(res->cdev);
		break;
	}
	if (dev)
		up_read(&dev->client_data_rwsem);
	up_read(&clients_rwsem);
	return ret;
}

/**
 * ib_get_client_nl_info() - Find the character device of a client
 * @ibdev: the device the request is about, held by the caller; or NULL
 *	   for a client's device-independent character device
 * @client_name: the client's name ("uverbs", "rdma_cm", ...)
 * @res: .nl_msg and .port set by the caller; the client sets .cdev and
 *	 .abi and may add attributes to .nl_msg
 *
 * This is RDMA netlink's GET_CHARDEV. A client that is not registered is
 * loaded on demand (module alias "rdma-client-<name>") and asked again.
 *
 * Context: Process context, may sleep (module loading).
 * Return: 0 with res->cdev held (put_device() it), -EOPNOTSUPP when no
 * such client exists or it has no character device, or the client's
 * error.
 */
int ib_get_client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res)
{
	int ret;

	res->cdev = NULL;
	ret = client_nl_info_query(ibdev, client_name, res);
	if (IS_ENABLED(CONFIG_MODULES) && ret == -ENOENT) {
		request_module("rdma-client-%s", client_name);
		ret = client_nl_info_query(ibdev, client_name, res);
	}
	if (ret == -ENOENT)
		return -EOPNOTSUPP;
	if (ret)
		return ret;
	if (WARN_ON(!res->cdev))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_get_client_nl_info);
