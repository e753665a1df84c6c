/* SPDX-License-Identifier: GPL-2.0-only */
/* What the files of ib_core share with each other and with nobody else. */
#ifndef RDMAOOT_CORE_CORE_PRIV_H
#define RDMAOOT_CORE_CORE_PRIV_H

#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

/* ---- The device table (core/device.c) ------------------------------------ */

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
 * Lock order: ib_devices_rwsem, then the clients' rwsem (core/client.c),
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

/* ---- Device names (core/device_name.c) ----------------------------------- */

int ib_device_name_assign(struct ib_device *dev, const char *name);
struct ib_device *ib_device_find_by_name(const char *name);
int ib_device_rename(struct ib_device *ibdev, const char *name);

/* ---- Ports (core/port.c) ------------------------------------------------- */

/* The "per-port data" registration step; port_data lives until the release. */
int ib_port_data_setup(struct ib_device *dev);
void ib_port_data_free(struct ib_device *dev);
void ib_port_netdevs_release(struct ib_device *dev);
struct net_device *ib_device_get_netdev(struct ib_device *ib_dev, u32 port);

/* ---- Clients (core/client.c) --------------------------------------------- */

int ib_client_add_all(struct ib_device *dev);
void ib_client_remove_all(struct ib_device *dev);
void ib_client_rename_all(struct ib_device *dev);

/* ---- Asynchronous events (core/event.c) ---------------------------------- */

void ib_dispatch_event_clients(struct ib_event *event);

#endif /* RDMAOOT_CORE_CORE_PRIV_H */
