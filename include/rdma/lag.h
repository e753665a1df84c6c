/* SPDX-License-Identifier: GPL-2.0-only */
/* RoCE over bonded netdevs: pick the slave that will transmit for an address handle. */
#ifndef RDMAOOT_RDMA_LAG_H
#define RDMAOOT_RDMA_LAG_H

#include <net/lag.h>

struct ib_device;
struct rdma_ah_attr;

enum rdma_lag_flags {
	RDMA_LAG_FLAGS_HASH_ALL_SLAVES = 1 << 0
};

/*
 * For a RoCE v2 @ah_attr with a flow label whose GID sits on a bond, the
 * slave netdev the bond would transmit on (held; release with
 * rdma_lag_put_ah_roce_slave()). NULL when none applies, ERR_PTR() when
 * the GID has no netdev.
 */
struct net_device *rdma_lag_get_ah_roce_slave(struct ib_device *device,
					      struct rdma_ah_attr *ah_attr,
					      gfp_t flags);
void rdma_lag_put_ah_roce_slave(struct net_device *xmit_slave);

#endif /* RDMAOOT_RDMA_LAG_H */
