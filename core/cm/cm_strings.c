// SPDX-License-Identifier: GPL-2.0-only
/* Printable names of the IB CM's REJ reasons. */

#include <linux/export.h>
#include <linux/kernel.h>

#include "cm/cm.h"

#define REJ(reason, text)						\
	[IB_CM_REJ_##reason] = text

static const char *const cm_rej_reasons[] = {
	REJ(NO_QP, "no QP"),
	REJ(NO_EEC, "no EEC"),
	REJ(NO_RESOURCES, "no resources"),
	REJ(TIMEOUT, "timeout"),
	REJ(UNSUPPORTED, "unsupported"),
	REJ(INVALID_COMM_ID, "invalid comm id"),
	REJ(INVALID_COMM_INSTANCE, "invalid comm instance"),
	REJ(INVALID_SERVICE_ID, "invalid service ID"),
	REJ(INVALID_TRANSPORT_TYPE, "invalid transport type"),
	REJ(STALE_CONN, "stale conn"),
	REJ(RDC_NOT_EXIST, "RDC not exist"),
	REJ(INVALID_GID, "invalid GID"),
	REJ(INVALID_LID, "invalid LID"),
	REJ(INVALID_SL, "invalid SL"),
	REJ(INVALID_TRAFFIC_CLASS, "invalid traffic class"),
	REJ(INVALID_HOP_LIMIT, "invalid hop limit"),
	REJ(INVALID_PACKET_RATE, "invalid packet rate"),
	REJ(INVALID_ALT_GID, "invalid alt GID"),
	REJ(INVALID_ALT_LID, "invalid alt LID"),
	REJ(INVALID_ALT_SL, "invalid alt SL"),
	REJ(INVALID_ALT_TRAFFIC_CLASS, "invalid alt traffic class"),
	REJ(INVALID_ALT_HOP_LIMIT, "invalid alt hop limit"),
	REJ(INVALID_ALT_PACKET_RATE, "invalid alt packet rate"),
	REJ(PORT_CM_REDIRECT, "port CM redirect"),
	REJ(PORT_REDIRECT, "port redirect"),
	REJ(INVALID_MTU, "invalid MTU"),
	REJ(INSUFFICIENT_RESP_RESOURCES, "insufficient resp resources"),
	REJ(CONSUMER_DEFINED, "consumer defined"),
	REJ(INVALID_RNR_RETRY, "invalid RNR retry"),
	REJ(DUPLICATE_LOCAL_COMM_ID, "duplicate local comm id"),
	REJ(INVALID_CLASS_VERSION, "invalid class version"),
	REJ(INVALID_FLOW_LABEL, "invalid flow label"),
	REJ(INVALID_ALT_FLOW_LABEL, "invalid alt flow label"),
	REJ(VENDOR_OPTION_NOT_SUPPORTED, "vendor option is not supported"),
};

/**
 * ibcm_reject_msg() - Name of an IB CM REJ reason
 * @reason: an IB_CM_REJ_* value
 *
 * Context: any.
 * Return: a static string; "unrecognized reason" for values IBA does not
 * assign.
 */
const char *__attribute_const__ ibcm_reject_msg(int reason)
{
	if (reason >= 0 && reason < ARRAY_SIZE(cm_rej_reasons) &&
	    cm_rej_reasons[reason])
		return cm_rej_reasons[reason];
	return "unrecognized reason";
}
EXPORT_SYMBOL(ibcm_reject_msg);
