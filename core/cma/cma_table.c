// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rdma_cm id state machine as data: (state, input) -> handler and next
 * state, and the one place that changes state.
 */

#include <kunit/visibility.h>
#include <linux/lockdep.h>

#include "cma/cma.h"

/*
 * Reading the table: a row per state of enum rdma_cm_state, a cell per
 * input the state takes. A cell names its handler and the state the id
 * is in while the handler runs and after it succeeded (CMA_SAME: where it
 * was). An input missing from a row is refused: a call returns -EINVAL,
 * a result or an IB CM event is dropped.
 *
 * Calls that 6.1 starts with an implicit bind (rdma_resolve_addr() and
 * rdma_listen() on an IDLE id) feed BIND first and then their own input
 * from ADDR_BOUND: if the second step fails the id stays bound, as in
 * 6.1, which one cell could not express.
 *
 * The passive side: ADDR_BOUND x listen makes the listener's IB CM
 * listeners; a REQ one of them takes is a new id, made by the REQ handler
 * (cma_req.c) and fed CM REQ in IDLE, which puts it in CONNECT with its
 * owner told. A listener leaves LISTEN by the common cells (destruction,
 * and the removal of the device it is bound to): from then on its REQs
 * are refused, and the feeder destroys its IB CM listeners once it has
 * dropped the handler lock (cma_id_free(), cma_id_remove()), since ib_cm
 * may not be asked to destroy an IB CM id under it.
 *
 * iWARP ids take the same rows with inputs of their own (cma_iw.c): a
 * connect request an iWARP listener took is a new id fed IW REQ in IDLE;
 * iw_cm's answers and its CLOSE reach an id in CONNECT only, and leave it
 * there, as 6.1 does: an iWARP id never enters DISCONNECT (there is no
 * timewait), it hears DISCONNECTED in CONNECT and is destroyed from there.
 */

#define CELL(fn, next)	{ cma_h_##fn, RDMA_CM_##next }
#define STAY(fn)	{ cma_h_##fn, CMA_SAME }

/* Every live state can lose its device and be destroyed. */
#define CMA_ENDS \
	[CMA_IN_DEVICE_REMOVAL]	= CELL(device_removal, DEVICE_REMOVAL), \
	[CMA_IN_DESTROY]	= CELL(destroy, DESTROYING)

static const struct cma_cell cma_table[CMA_STATES][CMA_INPUTS] = {
	[RDMA_CM_IDLE] = {
		[CMA_IN_BIND]		= CELL(bind, ADDR_BOUND),
		[CMA_IN_CM_REQ]		= CELL(cm_req, CONNECT),
		[CMA_IN_IW_REQ]		= CELL(iw_req, CONNECT),
		CMA_ENDS,
	},
	[RDMA_CM_ADDR_BOUND] = {
		[CMA_IN_RESOLVE_ADDR]	= CELL(resolve_addr, ADDR_QUERY),
		[CMA_IN_LISTEN]		= CELL(listen, LISTEN),
		[CMA_IN_JOIN]		= STAY(join),
		CMA_ENDS,
	},
	[RDMA_CM_ADDR_QUERY] = {
		[CMA_IN_ADDR_OK]	= CELL(addr_ok, ADDR_RESOLVED),
		[CMA_IN_ADDR_ERR]	= CELL(addr_err, ADDR_BOUND),
		CMA_ENDS,
	},
	[RDMA_CM_ADDR_RESOLVED] = {
		[CMA_IN_RESOLVE_ROUTE]	= CELL(resolve_route, ROUTE_QUERY),
		[CMA_IN_SET_IB_PATH]	= CELL(set_ib_path, ROUTE_RESOLVED),
		[CMA_IN_JOIN]		= STAY(join),
		CMA_ENDS,
	},
	[RDMA_CM_ROUTE_QUERY] = {
		[CMA_IN_ROUTE_OK]	= CELL(route_ok, ROUTE_RESOLVED),
		[CMA_IN_ROUTE_ERR]	= CELL(route_err, ADDR_RESOLVED),
		CMA_ENDS,
	},
	[RDMA_CM_ROUTE_RESOLVED] = {
		[CMA_IN_CONNECT]	= CELL(connect, CONNECT),
		CMA_ENDS,
	},
	[RDMA_CM_CONNECT] = {
		[CMA_IN_ACCEPT]		= STAY(accept),
		[CMA_IN_REJECT]		= STAY(reject),
		[CMA_IN_DISCONNECT]	= STAY(disconnect),
		[CMA_IN_NOTIFY]		= STAY(notify),
		[CMA_IN_CM_REP]		= STAY(cm_rep),
		[CMA_IN_CM_ESTABLISHED]	= STAY(cm_established),
		[CMA_IN_CM_REJ]		= STAY(cm_rej),
		[CMA_IN_CM_UNREACHABLE]	= STAY(cm_unreachable),
		[CMA_IN_CM_DISCONNECT]	= CELL(cm_disconnect, DISCONNECT),
		[CMA_IN_CM_SIDR_REP]	= STAY(cm_sidr_rep),
		[CMA_IN_IW_REPLY]	= STAY(iw_reply),
		[CMA_IN_IW_ESTABLISHED]	= STAY(iw_established),
		[CMA_IN_IW_CLOSE]	= STAY(iw_close),
		CMA_ENDS,
	},
	[RDMA_CM_DISCONNECT] = {
		[CMA_IN_DISCONNECT]	= STAY(disconnect),
		[CMA_IN_NOTIFY]		= STAY(notify),
		[CMA_IN_CM_TIMEWAIT_EXIT] = STAY(cm_timewait_exit),
		CMA_ENDS,
	},
	[RDMA_CM_LISTEN] = {
		/* Either ends the listening; the feeder stops the listeners. */
		CMA_ENDS,
	},
	[RDMA_CM_DEVICE_REMOVAL] = {
		/* ULPs tear down from their DEVICE_REMOVAL handler. */
		[CMA_IN_DISCONNECT]	= STAY(disconnect),
		[CMA_IN_DESTROY]	= CELL(destroy, DESTROYING),
	},
	[RDMA_CM_DESTROYING] = {
	},
};

static const char *const cma_input_names[CMA_INPUTS] = {
	[CMA_IN_BIND] = "bind", [CMA_IN_RESOLVE_ADDR] = "resolve_addr",
	[CMA_IN_RESOLVE_ROUTE] = "resolve_route",
	[CMA_IN_SET_IB_PATH] = "set_ib_path", [CMA_IN_LISTEN] = "listen",
	[CMA_IN_CONNECT] = "connect", [CMA_IN_ACCEPT] = "accept",
	[CMA_IN_REJECT] = "reject", [CMA_IN_DISCONNECT] = "disconnect",
	[CMA_IN_NOTIFY] = "notify", [CMA_IN_JOIN] = "join multicast",
	[CMA_IN_ADDR_OK] = "address resolved",
	[CMA_IN_ADDR_ERR] = "address error",
	[CMA_IN_ROUTE_OK] = "route resolved",
	[CMA_IN_ROUTE_ERR] = "route error", [CMA_IN_CM_REQ] = "CM REQ",
	[CMA_IN_CM_REP] = "CM REP", [CMA_IN_CM_ESTABLISHED] = "CM established",
	[CMA_IN_CM_REJ] = "CM REJ", [CMA_IN_CM_UNREACHABLE] = "CM unreachable",
	[CMA_IN_CM_DISCONNECT] = "CM disconnect",
	[CMA_IN_CM_TIMEWAIT_EXIT] = "CM timewait exit",
	[CMA_IN_CM_SIDR_REP] = "CM SIDR REP",
	[CMA_IN_IW_REQ] = "IW connect request",
	[CMA_IN_IW_REPLY] = "IW connect reply",
	[CMA_IN_IW_ESTABLISHED] = "IW established",
	[CMA_IN_IW_CLOSE] = "IW close",
	[CMA_IN_DEVICE_REMOVAL] = "device removal", [CMA_IN_DESTROY] = "destroy",
};

static const char *const cma_state_names[CMA_STATES] = {
	[RDMA_CM_IDLE] = "IDLE", [RDMA_CM_ADDR_QUERY] = "ADDR_QUERY",
	[RDMA_CM_ADDR_RESOLVED] = "ADDR_RESOLVED",
	[RDMA_CM_ROUTE_QUERY] = "ROUTE_QUERY",
	[RDMA_CM_ROUTE_RESOLVED] = "ROUTE_RESOLVED",
	[RDMA_CM_CONNECT] = "CONNECT", [RDMA_CM_DISCONNECT] = "DISCONNECT",
	[RDMA_CM_ADDR_BOUND] = "ADDR_BOUND", [RDMA_CM_LISTEN] = "LISTEN",
	[RDMA_CM_DEVICE_REMOVAL] = "DEVICE_REMOVAL",
	[RDMA_CM_DESTROYING] = "DESTROYING",
};

const char *cma_input_name(enum cma_input input)
{
	return input < CMA_INPUTS ? cma_input_names[input] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(cma_input_name);

const char *cma_state_name(enum rdma_cm_state state)
{
	return state < CMA_STATES ? cma_state_names[state] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(cma_state_name);

const struct cma_cell *cma_table_cell(enum rdma_cm_state state,
				      enum cma_input input)
{
	static const struct cma_cell none;

	if (state >= CMA_STATES || input >= CMA_INPUTS)
		return &none;
	return &cma_table[state][input];
}
EXPORT_SYMBOL_IF_KUNIT(cma_table_cell);

/*
 * Inputs that run the owner's handler or end the id: whoever feeds them
 * holds the handler_mutex, so they never overlap an event delivery.
 */
static bool cma_input_is_locked(enum cma_input input)
{
	return input >= CMA_IN_ADDR_OK;
}

/*
 * The claim: move the id to the cell's next state before the handler
 * runs. Returns the cell, NULL when the state does not take the input.
 */
static const struct cma_cell *cma_table_claim(struct cma_id_priv *priv,
					      struct cma_in *in)
{
	const struct cma_cell *cell;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	in->from = priv->state;
	cell = cma_table_cell(in->from, in->input);
	if (cell->fn && cell->next != CMA_SAME)
		priv->state = cell->next;
	spin_unlock_irqrestore(&priv->lock, flags);
	return cell->fn ? cell : NULL;
}

/* A failed handler: back to where the claim found the id, if still ours. */
static void cma_table_undo(struct cma_id_priv *priv, struct cma_in *in,
			   const struct cma_cell *cell)
{
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->state == cell->next)
		priv->state = in->from;
	spin_unlock_irqrestore(&priv->lock, flags);
}

/**
 * cma_table_run() - Feed one input to an id
 * @priv: the id
 * @in: the input; the engine sets @in->from
 *
 * Claims the transition of the cell (@priv's state, @in's input), runs
 * its handler and undoes the claim if the handler fails: the only code
 * that changes an id's state. Results, IB CM events, device removal and
 * destruction are fed with @priv's handler_mutex held, and so is every
 * move into or out of CONNECT (the owner's handler may be looking at it);
 * calls that leave CONNECT alone (rdma_disconnect()) need not hold it.
 *
 * Context: process context; the handlers may sleep.
 * Return: the handler's result (CMA_DESTROY included), or -EINVAL when
 * the state does not take the input.
 */
int cma_table_run(struct cma_id_priv *priv, struct cma_in *in)
{
	const struct cma_cell *cell;
	int ret;

	if (cma_input_is_locked(in->input))
		lockdep_assert_held(&priv->handler_mutex);
	cell = cma_table_claim(priv, in);
	if (!cell) {
		pr_debug("id %p: %s not taken in state %s\n", priv,
			 cma_input_name(in->input), cma_state_name(in->from));
		return -EINVAL;
	}
	if (cell->next != CMA_SAME && (cell->next == RDMA_CM_CONNECT ||
				       in->from == RDMA_CM_CONNECT))
		lockdep_assert_held(&priv->handler_mutex);
	ret = cell->fn(priv, in);
	if (ret < 0 && cell->next != CMA_SAME)
		cma_table_undo(priv, in, cell);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cma_table_run);
