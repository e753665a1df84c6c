// SPDX-License-Identifier: GPL-2.0-only
/* rdma_cm exports of 6.1 whose work is not built yet: multicast, refused with -EOPNOTSUPP. */

#include "cma/cma.h"

/*
 * What is missing: multicast, UD ids (SIDR), iWARP ids, AF_IB. The calls
 * here exist so that the module exports 6.1's list and a ULP loads
 * against it.
 */

/**
 * rdma_join_multicast() - Join a multicast group
 * @id: a UD id with a resolved address
 * @addr: the group
 * @join_state: the JoinState bits
 * @context: returned with the MULTICAST_JOIN or MULTICAST_ERROR event
 *
 * Multicast is not built in this step.
 *
 * Context: process context.
 * Return: -EOPNOTSUPP.
 */
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(rdma_join_multicast);

/**
 * rdma_leave_multicast() - Leave a multicast group
 * @id: the id that joined
 * @addr: the group
 *
 * Multicast is not built in this step: there is nothing to leave.
 *
 * Context: process context.
 */
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
}
EXPORT_SYMBOL(rdma_leave_multicast);
