// SPDX-License-Identifier: GPL-2.0-only
/* ib_cm's counters: drops by reason, and each port's messages by kind. */

#include <kunit/visibility.h>

#include "cm/cm.h"

atomic_long_t cm_drops[CM_DROP_REASONS];
EXPORT_SYMBOL_IF_KUNIT(cm_drops);

/**
 * cm_counters_add_send() - Count a message the MAD layer is done with
 * @port: the port it went out on
 * @buf: the message; ->retries is the number of times the MAD layer
 *	 resent it, ->context[0] its cm_id (NULL for an answer sent
 *	 through cm_reply())
 *
 * Every transmission counts in cm_tx_msgs, the resends also in
 * cm_tx_retries, whether the message was answered, timed out or was
 * cancelled. 6.1 takes any answer without a cm_id other than a REJ (an
 * MRA, RTU or DREP repeated for a duplicate, a DREP to a DREQ for a
 * connection gone) for a message sent once before and resent now: one
 * resend, so two in cm_tx_msgs. The numbers here are the same.
 *
 * Context: the agent's send handler; any context.
 */
void cm_counters_add_send(struct cm_port *port,
			  const struct ib_mad_send_buf *buf)
{
	const struct ib_mad_hdr *hdr = buf->mad;
	int kind = cm_msg_kind_of(hdr->attr_id);
	long resends = buf->retries;

	if (kind < 0)
		return;
	if (!buf->context[0] && kind != CM_MSG_REJ)
		resends = 1;
	atomic_long_add(1 + resends, &port->counts[CM_COUNT_TX][kind]);
	atomic_long_add(resends, &port->counts[CM_COUNT_TX_RETRIES][kind]);
}
EXPORT_SYMBOL_IF_KUNIT(cm_counters_add_send);
