/* SPDX-License-Identifier: GPL-2.0-only */
/* The GID/P_Key cache (core/cache.c) and RoCE GID management (core/roce_gid_mgmt.c), as the rest of ib_core sees them. */
#ifndef RDMAOOT_CORE_CACHE_PRIV_H
#define RDMAOOT_CORE_CACHE_PRIV_H

#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

/* ---- The cache itself (core/cache.c) ------------------------------------- */

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

/* ---- RoCE GIDs from net device addresses (core/roce_gid_mgmt.c) ---------- */

/* Module init/exit: the netdevice, inetaddr and inet6addr notifiers. */
int roce_gid_mgmt_init(void);
void roce_gid_mgmt_cleanup(void);
/* Bit (1 << IB_GID_TYPE_*) for each GID type the port supports. */
unsigned long roce_gid_type_mask_support(struct ib_device *ib_dev, u32 port);
/* rdma_roce_rescan_device() is exported (ib_verbs.h); this is one port. */
void rdma_roce_rescan_port(struct ib_device *ib_dev, u32 port);

#endif /* RDMAOOT_CORE_CACHE_PRIV_H */
