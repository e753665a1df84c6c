// SPDX-License-Identifier: GPL-2.0-only
/* Printable names of asynchronous event types and completion statuses. */

#include <linux/export.h>
#include <linux/kernel.h>
#include <rdma/ib_verbs.h>

/* Event types without a name (IB_EVENT_WQ_FATAL among them) fall back. */
static const char *const event_names[IB_EVENT_WQ_FATAL + 1] = {
	[IB_EVENT_CQ_ERR]		= "CQ error",
	[IB_EVENT_QP_FATAL]		= "QP fatal error",
	[IB_EVENT_QP_REQ_ERR]		= "QP request error",
	[IB_EVENT_QP_ACCESS_ERR]	= "QP access error",
	[IB_EVENT_COMM_EST]		= "communication established",
	[IB_EVENT_SQ_DRAINED]		= "send queue drained",
	[IB_EVENT_PATH_MIG]		= "path migration successful",
	[IB_EVENT_PATH_MIG_ERR]		= "path migration error",
	[IB_EVENT_DEVICE_FATAL]		= "device fatal error",
	[IB_EVENT_PORT_ACTIVE]		= "port active",
	[IB_EVENT_PORT_ERR]		= "port error",
	[IB_EVENT_LID_CHANGE]		= "LID change",
	[IB_EVENT_PKEY_CHANGE]		= "P_key change",
	[IB_EVENT_SM_CHANGE]		= "SM change",
	[IB_EVENT_SRQ_ERR]		= "SRQ error",
	[IB_EVENT_SRQ_LIMIT_REACHED]	= "SRQ limit reached",
	[IB_EVENT_QP_LAST_WQE_REACHED]	= "last WQE reached",
	[IB_EVENT_CLIENT_REREGISTER]	= "client reregister",
	[IB_EVENT_GID_CHANGE]		= "GID changed",
};

static const char *const wc_status_names[IB_WC_GENERAL_ERR + 1] = {
	[IB_WC_SUCCESS]			= "success",
	[IB_WC_LOC_LEN_ERR]		= "local length error",
	[IB_WC_LOC_QP_OP_ERR]		= "local QP operation error",
	[IB_WC_LOC_EEC_OP_ERR]		= "local EE context operation error",
	[IB_WC_LOC_PROT_ERR]		= "local protection error",
	[IB_WC_WR_FLUSH_ERR]		= "WR flushed",
	[IB_WC_MW_BIND_ERR]		= "memory bind operation error",
	[IB_WC_BAD_RESP_ERR]		= "bad response error",
	[IB_WC_LOC_ACCESS_ERR]		= "local access error",
	[IB_WC_REM_INV_REQ_ERR]		= "remote invalid request error",
	[IB_WC_REM_ACCESS_ERR]		= "remote access error",
	[IB_WC_REM_OP_ERR]		= "remote operation error",
	[IB_WC_RETRY_EXC_ERR]		= "transport retry counter exceeded",
	[IB_WC_RNR_RETRY_EXC_ERR]	= "RNR retry counter exceeded",
	[IB_WC_LOC_RDD_VIOL_ERR]	= "local RDD violation error",
	[IB_WC_REM_INV_RD_REQ_ERR]	= "remote invalid RD request",
	[IB_WC_REM_ABORT_ERR]		= "operation aborted",
	[IB_WC_INV_EECN_ERR]		= "invalid EE context number",
	[IB_WC_INV_EEC_STATE_ERR]	= "invalid EE context state",
	[IB_WC_FATAL_ERR]		= "fatal error",
	[IB_WC_RESP_TIMEOUT_ERR]	= "response timeout error",
	[IB_WC_GENERAL_ERR]		= "general error",
};

/*
 * Entry @code of a name table of @count entries, or @unknown when @code is
 * past the end or has no entry. Negative codes arrive as huge unsigned ones.
 */
static const char *name_lookup(const char *const *names, size_t count,
			       unsigned int code, const char *unknown)
{
	if (code >= count || !names[code])
		return unknown;
	return names[code];
}

/**
 * ib_event_msg() - Name an asynchronous event type for a log message
 * @event: the event type, usually ib_event.event
 *
 * Context: Any context.
 * Return: a static lower-case description such as "port active", or
 * "unrecognized event" for a value that has none. Never NULL.
 */
const char *__attribute_const__ ib_event_msg(enum ib_event_type event)
{
	return name_lookup(event_names, ARRAY_SIZE(event_names), event,
			   "unrecognized event");
}
EXPORT_SYMBOL(ib_event_msg);

/**
 * ib_wc_status_msg() - Name a work completion status for a log message
 * @status: the completion status, usually ib_wc.status
 *
 * Context: Any context.
 * Return: a static lower-case description such as "WR flushed", or
 * "unrecognized status" for a value that has none. Never NULL.
 */
const char *__attribute_const__ ib_wc_status_msg(enum ib_wc_status status)
{
	return name_lookup(wc_status_names, ARRAY_SIZE(wc_status_names), status,
			   "unrecognized status");
}
EXPORT_SYMBOL(ib_wc_status_msg);
