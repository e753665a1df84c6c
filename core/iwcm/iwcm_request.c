// SPDX-License-Identifier: GPL-2.0-only
/* A listener's connect request becomes a new id in CONN_RECV, handed to the listener's handler. */

#include "iwcm/iwcm.h"

/*
 * The new id inherits the listener's handler and context (the owner may
 * change both from the handler, as rdma_cm does) and reserves the event
 * entries its connection needs. A failure before the owner has seen the
 * request is the request's alone, never the listener's: without an id
 * the request is left to the driver (6.1 does the same); without entries
 * it is rejected. So is a request the owner's handler returns non-zero
 * for.
 */

static void iwcm_request_refuse(struct iwcm_id_priv *child)
{
	iw_cm_reject(&child->id, NULL, 0);
	iwcm_id_destroy(child);
}

/**
 * iwcm_request_spawn() - Give a request a new id and its owner the event
 * @listener: the id in LISTEN the request came to
 * @event: the CONNECT_REQUEST, in an entry of @listener's pool
 *
 * Context: iw_cm's workqueue, from the listener's event handling.
 */
void iwcm_request_spawn(struct iwcm_id_priv *listener,
			struct iw_cm_event *event)
{
	struct iwcm_in in = { .input = IWCM_IN_ADOPT, .event = event };
	struct iwcm_id_priv *child;
	LIST_HEAD(pool);
	int err;

	child = iwcm_id_alloc(listener->id.device, listener->id.cm_handler,
			      listener->id.context);
	if (IS_ERR(child)) {
		pr_debug("id %p: request dropped, no memory\n", listener);
		return;
	}
	err = iwcm_pool_alloc(&pool, IWCM_ENTRIES_PASSIVE);
	if (!err)
		in.pool = &pool;
	iwcm_table_feed(child, &in);
	if (err) {
		iwcm_request_refuse(child);
		return;
	}
	if (child->id.cm_handler(&child->id, event))
		iwcm_request_refuse(child);
}
