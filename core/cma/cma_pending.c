// SPDX-License-Identifier: GPL-2.0-only
/* rdma_cm exports of 6.1 whose work is not built yet: they check the id's state and refuse with -EOPNOTSUPP. */


#include "cma/cma.h"

/*
 * What is missing, and where it will go: listening, connecting, accepting,
 * rejecting, disconnecting and notifying over the IB CM (the next step);
 * multicast, UD ids (SIDR), iWARP ids, AF_IB (later). The calls exist so
 * that the module exports 6.1's list and a ULP loads against it; each
 * still goes through the state table, so a call in the wrong state gets
 * 6.1's -EINVAL before the -EOPNOTSUPP of the missing work.
 */

/* The handler of the cells whose work is not built yet. */
int cma_h_not_yet(struct cma_id_priv *priv, struct cma_in *in)
{
	return -EOPNOTSUPP;
}

static int cma_pending_feed(struct rdma_cm_id *id, enum cma_input input)
{
	struct cma_in in = { .input = input };

	return cma_table_run(to_cma_id(id), &in);
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
	return cma_pending_feed(id, CMA_IN_LISTEN);
}
EXPORT_SYMBOL(rdma_listen);

/**
 * rdma_connect_locked() - Send a connection request, from the id's handler
 * @id: an id in ROUTE_RESOLVED; its handler lock is held
 * @conn_param: the connection's parameters and private data
 *
 * Not built yet.
 *
 * Context: process context, from @id's ROUTE_RESOLVED handler or under
 * rdma_lock_handler().
 * Return: -EINVAL outside ROUTE_RESOLVED, else -EOPNOTSUPP.
 */
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param)
{
	lockdep_assert_held(&to_cma_id(id)->handler_mutex);
	return cma_pending_feed(id, CMA_IN_CONNECT);
}
EXPORT_SYMBOL(rdma_connect_locked);

/**
 * rdma_connect() - Send a connection request
 * @id: an id in ROUTE_RESOLVED
 * @conn_param: the connection's parameters and private data
 *
 * rdma_connect_locked() under the id's handler lock. Not built yet.
 *
 * Context: process context, sleeps; not from @id's handler.
 * Return: as rdma_connect_locked().
 */
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	int ret;

	rdma_lock_handler(id);
	ret = rdma_connect_locked(id, conn_param);
	rdma_unlock_handler(id);
	return ret;
}
EXPORT_SYMBOL(rdma_connect);

/**
 * rdma_connect_ece() - rdma_connect() offering ECE options
 * @id: an id in ROUTE_RESOLVED
 * @conn_param: the connection's parameters and private data
 * @ece: the vendor ID and options to offer in the REQ
 *
 * Not built yet.
 *
 * Context: process context, sleeps.
 * Return: as rdma_connect().
 */
int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece)
{
	return rdma_connect(id, conn_param);
}
EXPORT_SYMBOL(rdma_connect_ece);

/**
 * rdma_accept() - Accept a connection request (or finish a connection)
 * @id: the id of a CONNECT_REQUEST event, in CONNECT; its handler lock is
 *	held
 * @conn_param: our side's parameters and private data
 *
 * Not built yet.
 *
 * Context: process context, from @id's handler or under
 * rdma_lock_handler().
 * Return: -EINVAL outside CONNECT, else -EOPNOTSUPP.
 */
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	lockdep_assert_held(&to_cma_id(id)->handler_mutex);
	return cma_pending_feed(id, CMA_IN_ACCEPT);
}
EXPORT_SYMBOL(rdma_accept);

/**
 * rdma_accept_ece() - rdma_accept() answering ECE options
 * @id: as rdma_accept()
 * @conn_param: as rdma_accept()
 * @ece: the options accepted, for the REP
 *
 * Not built yet.
 *
 * Context: as rdma_accept().
 * Return: as rdma_accept().
 */
int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece)
{
	return rdma_accept(id, conn_param);
}
EXPORT_SYMBOL(rdma_accept_ece);

/**
 * rdma_reject() - Refuse a connection request or reply
 * @id: an id in CONNECT
 * @private_data: sent in the REJ
 * @private_data_len: its length
 * @reason: the REJ reason (IB and RoCE)
 *
 * Not built yet.
 *
 * Context: process context, may sleep.
 * Return: -EINVAL outside CONNECT, else -EOPNOTSUPP.
 */
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason)
{
	return cma_pending_feed(id, CMA_IN_REJECT);
}
EXPORT_SYMBOL(rdma_reject);

/**
 * rdma_disconnect() - Tear a connection down
 * @id: a connected id
 *
 * Not built yet.
 *
 * Context: process context, may sleep.
 * Return: -EINVAL for an id that is not connected, else -EOPNOTSUPP.
 */
int rdma_disconnect(struct rdma_cm_id *id)
{
	return cma_pending_feed(id, CMA_IN_DISCONNECT);
}
EXPORT_SYMBOL(rdma_disconnect);

/**
 * rdma_notify() - Pass a QP event the CM needs to see
 * @id: a connected id
 * @event: the event (IB_EVENT_COMM_EST is the one that matters)
 *
 * Not built yet.
 *
 * Context: any process context.
 * Return: -EINVAL for an id that is not connecting, else -EOPNOTSUPP.
 */
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event)
{
	return cma_pending_feed(id, CMA_IN_NOTIFY);
}
EXPORT_SYMBOL(rdma_notify);

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
