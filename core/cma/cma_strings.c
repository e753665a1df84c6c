// SPDX-License-Identifier: GPL-2.0-only
/* rdma_cm's printable names: events, and the reasons a connection was rejected. */

#include "cma/cma.h"

/*
 * The names 6.1 prints, so that logs read the same on either stack
 * (including the blank after "route resolved").
 */
#define EV(event, name)							\
	[RDMA_CM_EVENT_##event] = name

static const char *const cma_event_names[] = {
	EV(ADDR_RESOLVED, "address resolved"),
	EV(ADDR_ERROR, "address error"),
	EV(ROUTE_RESOLVED, "route resolved "),
	EV(ROUTE_ERROR, "route error"),
	EV(CONNECT_REQUEST, "connect request"),
	EV(CONNECT_RESPONSE, "connect response"),
	EV(CONNECT_ERROR, "connect error"),
	EV(UNREACHABLE, "unreachable"),
	EV(REJECTED, "rejected"),
	EV(ESTABLISHED, "established"),
	EV(DISCONNECTED, "disconnected"),
	EV(DEVICE_REMOVAL, "device removal"),
	EV(MULTICAST_JOIN, "multicast join"),
	EV(MULTICAST_ERROR, "multicast error"),
	EV(ADDR_CHANGE, "address change"),
	EV(TIMEWAIT_EXIT, "timewait exit"),
};

#undef EV

/**
 * rdma_event_msg() - The name of an rdma_cm event
 * @event: the event type
 *
 * Context: any.
 * Return: a constant string; "unrecognized event" for a value that is no
 * event.
 */
const char *__attribute_const__ rdma_event_msg(enum rdma_cm_event_type event)
{
	size_t i = event;

	if (i < ARRAY_SIZE(cma_event_names) && cma_event_names[i])
		return cma_event_names[i];
	return "unrecognized event";
}
EXPORT_SYMBOL(rdma_event_msg);

/* Whose reasons an id's REJECTED events carry. */
enum cma_rej_kind { CMA_REJ_NONE, CMA_REJ_IB_CM, CMA_REJ_IW_CM };

static enum cma_rej_kind cma_rej_kind(struct rdma_cm_id *id)
{
	if (!id->device)
		return CMA_REJ_NONE;
	if (rdma_ib_or_roce(id->device, id->port_num))
		return CMA_REJ_IB_CM;
	if (rdma_protocol_iwarp(id->device, id->port_num))
		return CMA_REJ_IW_CM;
	return CMA_REJ_NONE;
}

/**
 * rdma_reject_msg() - The name of the reason in a REJECTED event
 * @id: the id that got the event (its transport decides the meaning)
 * @reason: the event's status
 *
 * On IB and RoCE @reason is the IB CM's REJ reason, on iWARP an errno
 * (iw_cm's CONNECT_REPLY status) named by iw_cm.
 *
 * Context: any.
 * Return: a constant string.
 */
const char *__attribute_const__ rdma_reject_msg(struct rdma_cm_id *id,
						int reason)
{
	switch (cma_rej_kind(id)) {
	case CMA_REJ_IB_CM:
		return ibcm_reject_msg(reason);
	case CMA_REJ_IW_CM:
		return iwcm_reject_msg(reason);
	default:
		return "unrecognized transport";
	}
}
EXPORT_SYMBOL(rdma_reject_msg);

/* The peer's consumer rejected us (rather than its CM or the network). */
static bool cma_reject_is_consumer(struct rdma_cm_id *id, int reason)
{
	switch (cma_rej_kind(id)) {
	case CMA_REJ_IB_CM:
		return reason == IB_CM_REJ_CONSUMER_DEFINED;
	case CMA_REJ_IW_CM:
		return reason == -ECONNREFUSED;
	default:
		return false;
	}
}

/**
 * rdma_consumer_reject_data() - The private data of a consumer's reject
 * @id: the id that got the REJECTED event
 * @ev: the event
 * @data_len: set to the length of the data (0 when there is none)
 *
 * Context: any; typically the id's REJECTED handler.
 * Return: the data the rejecting consumer sent, or NULL when the reject
 * came from the peer's CM rather than its consumer.
 */
const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len)
{
	if (!cma_reject_is_consumer(id, ev->status)) {
		*data_len = 0;
		return NULL;
	}
	*data_len = ev->param.conn.private_data_len;
	return ev->param.conn.private_data;
}
EXPORT_SYMBOL(rdma_consumer_reject_data);
