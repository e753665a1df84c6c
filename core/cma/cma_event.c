// SPDX-License-Identifier: GPL-2.0-only
/*
 * Events of an rdma_cm id: delivered to the owner under the handler lock, and
 * inputs deferred to the rdma_cm workqueue.
 */

#include <kunit/visibility.h>

#include "cma/cma.h"

/* Deferred inputs (address and route results); ordered per id by its mutex. */
struct workqueue_struct *cma_wq;
EXPORT_SYMBOL_IF_KUNIT(cma_wq);

/**
 * cma_event_deliver() - Hand one event to the owner's handler
 * @priv: the id; the caller holds its handler_mutex
 * @event: the event
 *
 * Context: process context; the handler may sleep.
 * Return: the handler's result: non-zero asks for the id's destruction.
 */
int cma_event_deliver(struct cma_id_priv *priv, struct rdma_cm_event *event)
{
	lockdep_assert_held(&priv->handler_mutex);
	return priv->id.event_handler(&priv->id, event);
}

/*
 * An event without parameters. Return: CMA_DESTROY if the owner asked
 * for the id's destruction, else 0 (what a cell handler returns).
 */
int cma_event_simple(struct cma_id_priv *priv, enum rdma_cm_event_type type,
		     int status)
{
	struct rdma_cm_event event = { .event = type, .status = status };

	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/**
 * cma_work_queue() - Feed an input to an id later, from the workqueue
 * @priv: the id; a reference is held until the input has been fed
 * @input: the input
 * @status: its status
 *
 * For results that arrive where the owner's handler must not run (the
 * address resolver's callback) or that a call must not deliver itself
 * (a route found at once). One input at a time per id: the id's state
 * keeps a second one from being started before the first is fed.
 *
 * Context: any.
 */
void cma_work_queue(struct cma_id_priv *priv, enum cma_input input,
		    int status)
{
	cma_id_get(priv);
	priv->work_input = input;
	priv->work_status = status;
	if (WARN_ON_ONCE(!queue_work(cma_wq, &priv->work)))
		cma_id_put(priv);
}

/*
 * A result whose handler could not complete it (an address resolved to
 * no local device) is an error after all.
 */
static enum cma_input cma_work_error_of(enum cma_input input)
{
	switch (input) {
	case CMA_IN_ADDR_OK:	return CMA_IN_ADDR_ERR;
	case CMA_IN_ROUTE_OK:	return CMA_IN_ROUTE_ERR;
	default:		return CMA_INPUTS;
	}
}

/*
 * Feed @in; a success whose handler failed becomes its error input. One
 * the state did not take (the id moved on, or is being destroyed) is
 * dropped.
 */
static int cma_work_feed(struct cma_id_priv *priv, struct cma_in *in)
{
	enum cma_input error = cma_work_error_of(in->input);
	int ret = cma_table_run(priv, in);

	if (ret >= 0 || error == CMA_INPUTS ||
	    !cma_table_cell(in->from, in->input)->fn)
		return ret;
	in->input = error;
	in->status = ret;
	return cma_table_run(priv, in);
}

void cma_work_fn(struct work_struct *work)
{
	struct cma_id_priv *priv = container_of(work, struct cma_id_priv, work);
	struct cma_in in = {
		.input = priv->work_input,
		.status = priv->work_status,
	};

	mutex_lock(&priv->handler_mutex);
	if (cma_work_feed(priv, &in) == CMA_DESTROY) {
		cma_id_put(priv);
		cma_id_destroy_unlock(priv);
		return;
	}
	mutex_unlock(&priv->handler_mutex);
	cma_id_put(priv);
}
