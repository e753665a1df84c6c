/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/device/: the device model (table, names, ports, clients, events) and the
 * GID/P_Key cache, as the rest of ib_core sees them.
 */
#ifndef RDMAOOT_CORE_DEVICE_DEVICE_H
#define RDMAOOT_CORE_DEVICE_DEVICE_H

#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

/* ---- The device table (core/device/device.c) ----------------------------- */

/*
 * Every device that has been given a name, registered or not, indexed by
 * ib_device.index. A device enters in ib_register_device() and leaves in
 * ib_dealloc_device(); IB_DEVICE_REGISTERED marks the ones that are fully
 * set up and visible to clients and lookups.
 *
 * ib_devices_rwsem protects membership, the mark and the uniqueness of
 * names: whoever adds, removes, marks, unmarks or renames a device holds it
 * for writing. Holding it for reading keeps the mark (and so the
 * registration state) of every device stable.
 *
 * Lock order: ib_devices_rwsem, then the clients' rwsem (core/device/client.c),
 * then a device's client_data_rwsem.
 */
extern struct xarray ib_devices;
extern struct rw_semaphore ib_devices_rwsem;
#define IB_DEVICE_REGISTERED	XA_MARK_1

/* The class of every ib_device ("infiniband"), registered by main.c. */
int ib_device_class_register(void);
void ib_device_class_unregister(void);

/* Unregistrations queued by ib_unregister_device_queued(). */
extern struct workqueue_struct *ib_unreg_wq;

struct ib_device *ib_device_get_registered(struct ib_device *dev);
struct ib_device *ib_device_get_by_index(const struct net *net, u32 index);

/* ---- Device names (core/device/device_name.c) ---------------------------- */

int ib_device_name_assign(struct ib_device *dev, const char *name);
struct ib_device *ib_device_find_by_name(const char *name);
int ib_device_rename(struct ib_device *ibdev, const char *name);

/* ---- Ports (core/device/port.c) ------------------------------------------ */

/* The "per-port data" registration step; port_data lives until the release. */
int ib_port_data_setup(struct ib_device *dev);
void ib_port_data_free(struct ib_device *dev);
void ib_port_netdevs_release(struct ib_device *dev);
struct net_device *ib_device_get_netdev(struct ib_device *ib_dev, u32 port);

/* ---- Clients (core/device/client.c) -------------------------------------- */

int ib_client_add_all(struct ib_device *dev);
void ib_client_remove_all(struct ib_device *dev);
void ib_client_rename_all(struct ib_device *dev);

/**
 * struct ib_client_nl_info - what a client answers to GET_CHARDEV
 * @nl_msg: the reply being built; the client may add attributes of its own
 * @cdev: set by the client: the character device user space is to open
 * @port: the port the request named, or -1 when it named none
 * @abi: set by the client: the ABI version of @cdev
 *
 * Filled by the client's get_nl_info() (per device) or
 * get_global_nl_info() (no device named); ib_get_client_nl_info() then
 * holds @cdev for the caller, who drops it with put_device().
 */
struct ib_client_nl_info {
	struct sk_buff *nl_msg;
	struct device *cdev;
	u32 port;
	u64 abi;
};

int ib_get_client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res);

/* ---- Asynchronous events (core/device/event.c) --------------------------- */

void ib_dispatch_event_clients(struct ib_event *event);

/* ==== The GID/P_Key cache (core/device/cache*.c) ========================== */

#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

/* ---- The cache itself (core/device/cache.c) ------------------------------ */

/* Whether ib_cache_gid_set_default_gid() installs or removes the default GIDs. */
enum ib_cache_gid_default_mode {
	IB_CACHE_GID_DEFAULT_MODE_SET,
	IB_CACHE_GID_DEFAULT_MODE_DELETE
};

/*
 * Registration step: build the GID, P_Key and port-state cache of every
 * port (ib_register_device() calls it before the device is enabled), and
 * for RoCE ports fill the GIDs from the bound net devices.
 */
int ib_cache_setup_one(struct ib_device *device);
/* Unregistration: stop updates and drop every GID entry (and its netdev). */
void ib_cache_cleanup_one(struct ib_device *device);
/* Device release: free the tables themselves. */
void ib_cache_release_one(struct ib_device *device);

/*
 * Re-read the cached state of the port an event is about, for the events
 * that change it (port active/error, LID, P_Key, GID, SM, client
 * reregister). Called from the event work before clients see the event.
 */
void ib_cache_event_update(const struct ib_event *event);
bool ib_cache_is_update_event(const struct ib_event *event);

/* Add, remove RoCE GIDs; attr->ndev and attr->gid_type say which entry. */
int ib_cache_gid_add(struct ib_device *ib_dev, u32 port,
		     union ib_gid *gid, struct ib_gid_attr *attr);
int ib_cache_gid_del(struct ib_device *ib_dev, u32 port,
		     union ib_gid *gid, struct ib_gid_attr *attr);
int ib_cache_gid_del_all_netdev_gids(struct ib_device *ib_dev, u32 port,
				     struct net_device *ndev);
void ib_cache_gid_set_default_gid(struct ib_device *ib_dev, u32 port,
				  struct net_device *ndev,
				  unsigned long gid_type_mask,
				  enum ib_cache_gid_default_mode mode);

/* The cached subnet prefix of a port (0 for a bad port); exported as in 6.1. */
void ib_get_cached_subnet_prefix(struct ib_device *device, u32 port_num,
				 u64 *sn_pfx);

/* "IB/RoCE v1" / "RoCE v2", as sysfs gid_attrs/types shows them. */
const char *ib_cache_gid_type_str(enum ib_gid_type gid_type);
int ib_cache_gid_parse_type_str(const char *buf);

#endif /* RDMAOOT_CORE_DEVICE_DEVICE_H */
