/* SPDX-License-Identifier: GPL-2.0-only */
/* IP address resolution (core/addr.c) as the rest of ib_core sees it. */
#ifndef RDMAOOT_CORE_ADDR_PRIV_H
#define RDMAOOT_CORE_ADDR_PRIV_H

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

/* Exported (as in 6.1) but declared here: see core/addr.c. */
void rdma_copy_src_l2_addr(struct rdma_dev_addr *dev_addr,
			   const struct net_device *dev);

#endif /* RDMAOOT_CORE_ADDR_PRIV_H */
