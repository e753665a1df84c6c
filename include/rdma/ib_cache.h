/* SPDX-License-Identifier: GPL-2.0-only */
/* Lookups in ib_core's per-port software cache of GID, P_Key, LMC and port state. */
#ifndef RDMAOOT_RDMA_IB_CACHE_H
#define RDMAOOT_RDMA_IB_CACHE_H

#include <rdma/ib_verbs.h>

/* ---- GID table ----------------------------------------------------------- */

/*
 * GID entries are handed out as reference-counted struct ib_gid_attr
 * pointers: every successful rdma_get_gid_attr()/rdma_find_gid*() must be
 * balanced by rdma_put_gid_attr(). Lookups return ERR_PTR() on failure.
 */

int rdma_query_gid(struct ib_device *device, u32 port_num, int index,
		   union ib_gid *gid);
ssize_t rdma_query_gid_table(struct ib_device *device,
			     struct ib_uverbs_gid_entry *entries,
			     size_t max_entries);
bool rdma_is_zero_gid(const union ib_gid *gid);

const struct ib_gid_attr *rdma_get_gid_attr(struct ib_device *device,
					    u32 port_num, int index);
void rdma_hold_gid_attr(const struct ib_gid_attr *attr);
void rdma_put_gid_attr(const struct ib_gid_attr *attr);

/* Any port; @ndev narrows RoCE matches to one netdev when not NULL. */
const struct ib_gid_attr *rdma_find_gid(struct ib_device *device,
					const union ib_gid *gid,
					enum ib_gid_type gid_type,
					struct net_device *ndev);
const struct ib_gid_attr *rdma_find_gid_by_port(struct ib_device *ib_dev,
						const union ib_gid *gid,
						enum ib_gid_type gid_type,
						u32 port,
						struct net_device *ndev);
/* The first entry equal to @gid on @port_num that @filter accepts. */
const struct ib_gid_attr *rdma_find_gid_by_filter(
	struct ib_device *device, const union ib_gid *gid, u32 port_num,
	bool (*filter)(const union ib_gid *gid, const struct ib_gid_attr *,
		       void *),
	void *context);

/* Driver context stored with a GID entry by the add_gid op. */
void *rdma_read_gid_hw_context(const struct ib_gid_attr *attr);
/* VLAN id (0xffff if none) and source MAC of a RoCE GID's netdev. */
int rdma_read_gid_l2_fields(const struct ib_gid_attr *attr,
			    u16 *vlan_id, u8 *smac);
/* The GID's netdev; valid only inside the caller's RCU read section. */
struct net_device *rdma_read_gid_attr_ndev_rcu(const struct ib_gid_attr *attr);

/* ---- P_Key table, LMC and port state ------------------------------------- */

/* All return 0 or a negative errno; the value goes through the last argument. */

int ib_get_cached_pkey(struct ib_device *device_handle, u32 port_num,
		       int index, u16 *pkey);
/* Index of @pkey, ignoring the membership bit (full member preferred). */
int ib_find_cached_pkey(struct ib_device *device, u32 port_num, u16 pkey,
			u16 *index);
/* Index of @pkey, comparing all 16 bits. */
int ib_find_exact_cached_pkey(struct ib_device *device, u32 port_num,
			      u16 pkey, u16 *index);
int ib_get_cached_lmc(struct ib_device *device, u32 port_num, u8 *lmc);
int ib_get_cached_port_state(struct ib_device *device, u32 port_num,
			     enum ib_port_state *port_active);

#endif /* RDMAOOT_RDMA_IB_CACHE_H */
