/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/roce/: RoCE GIDs from net device addresses and IP address resolution, as
 * the rest of ib_core sees them.
 */
#ifndef RDMAOOT_CORE_ROCE_ROCE_H
#define RDMAOOT_CORE_ROCE_ROCE_H

#include <linux/netdevice.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>

/* Module init/exit: the resolver's workqueue and its netevent notifier. */
int addr_init(void);
void addr_cleanup(void);

/*
 * RoCE: resolve the destination MAC (and the hop limit of the route) of
 * @dgid as seen from @sgid on the netdev of @sgid_attr. Sleeps until the
 * neighbour is known or a second has passed. 0 or a negative errno.
 */
int rdma_addr_find_l2_eth_by_grh(const union ib_gid *sgid,
				 const union ib_gid *dgid,
				 u8 *dmac, const struct ib_gid_attr *sgid_attr,
				 int *hoplimit);

struct sa_path_rec;

/*
 * RoCE: check that the path @rec can be routed from its sgid on the netdev
 * of @attr, and mark it so (rec->roce.route_resolved). Sleeps. 0 or a
 * negative errno.
 */
int roce_resolve_route_from_path(struct sa_path_rec *rec,
				 const struct ib_gid_attr *attr);

/* Exported (as in 6.1) but declared here: see core/roce/addr.c. */
void rdma_copy_src_l2_addr(struct rdma_dev_addr *dev_addr,
			   const struct net_device *dev);

/* ---- RoCE GIDs from net device addresses (core/roce/roce_gid_mgmt.c) ----- */

/* Module init/exit: the netdevice, inetaddr and inet6addr notifiers. */
int roce_gid_mgmt_init(void);
void roce_gid_mgmt_cleanup(void);
/* Bit (1 << IB_GID_TYPE_*) for each GID type the port supports. */
unsigned long roce_gid_type_mask_support(struct ib_device *ib_dev, u32 port);
/* rdma_roce_rescan_device() is exported (ib_verbs.h); this is one port. */
void rdma_roce_rescan_port(struct ib_device *ib_dev, u32 port);

#endif /* RDMAOOT_CORE_ROCE_ROCE_H */
