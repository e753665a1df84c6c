// SPDX-License-Identifier: GPL-2.0-only
/* rdma_cm exports of 6.1 whose work is not built yet: listening and multicast, refused with -EOPNOTSUPP. */


#include "cma/cma.h"

/*
 * What is missing, and where it will go: listening and the passive side's
 * new ids (next); multicast, UD ids (SIDR), iWARP ids, AF_IB (later). The
 * calls exist so that the module exports 6.1's list and a ULP loads
 * against it; rdma_listen() still goes through the state table, so a
 * call in the wrong state gets 6.1's -EINVAL before the -EOPNOTSUPP of
 * the missing work.
 */

/* The handler of the cells whose work is not built yet. */
int cma_h_not_yet(struct cma_id_priv *priv, struct cma_in *in)
{
	return -EOPNOTSUPP;
}


/**
 * rdma_listen() - Take connection requests on an id's address
 * @id: the id, bound (or IDLE: it is bound to the IPv4 wildcard first)
 * @backlog: requests that may wait for the owner
 *
 * Not built yet.
 *
 * Context: process context, may sleep.
 * Return: -EINVAL in a state that cannot listen, else -EOPNOTSUPP.
 */
int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct cma_in in = { .input = CMA_IN_LISTEN, .backlog = backlog };

	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_listen);

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
