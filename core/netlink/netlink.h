/* SPDX-License-Identifier: GPL-2.0-only */
/* The NETLINK_RDMA socket and the nldev client as the rest of ib_core sees them. */
#ifndef RDMAOOT_CORE_NETLINK_NETLINK_H
#define RDMAOOT_CORE_NETLINK_NETLINK_H

/* core/netlink/netlink.c: client table and one kernel socket per network namespace. */
int rdma_nl_init(void);
void rdma_nl_exit(void);

/* core/netlink/nldev.c: the RDMA_NL_NLDEV client (the "rdma" tool's commands). */
int nldev_init(void);
void nldev_exit(void);

#endif /* RDMAOOT_CORE_NETLINK_NETLINK_H */
