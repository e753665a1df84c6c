/* SPDX-License-Identifier: GPL-2.0-only */
/* rdma_cm extras that only make sense on InfiniBand: user-supplied paths and the UD Q_Key. */
#ifndef RDMAOOT_RDMA_RDMA_CM_IB_H
#define RDMAOOT_RDMA_RDMA_CM_IB_H

#include <rdma/rdma_cm.h>

/*
 * Active side, IB only: use @path_rec as the route instead of asking the
 * SA, in place of rdma_resolve_route().
 */
int rdma_set_ib_path(struct rdma_cm_id *id, struct sa_path_rec *path_rec);

/* Q_Key shared by rdma_cm UDP-port-space QPs and multicast groups. */
#define RDMA_UDP_QKEY 0x01234567

#endif /* RDMAOOT_RDMA_RDMA_CM_IB_H */
