// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iw_cm state machine as data: (state, input) -> handler and next state;
 * the one place that changes state.
 */

#include <kunit/visibility.h>
#include <linux/lockdep.h>

#include "iwcm/iwcm.h"

/*
 * Reading the table: a row per state, a cell per input the state takes.
 * A cell names its handler and the state the id is in once the handler
 * returned 0 (IWCM_SAME: where it was). An input missing from a row is
 * not taken there: a call gets -EINVAL, an upcall is dropped. Where 6.1
 * quietly ignores an input (a disconnect on an id that is not connected,
 * the peer's DISCONNECT outside ESTABLISHED, any upcall once destroying
 * started) the row has an "ignore" cell; where 6.1 would BUG() the input
 * is missing, so it is refused. One cell is ours alone: destroying an id
 * in CONN_SENT (6.1 cannot get there, as destroy waits for the reply;
 * ours does not wait when called from iw_cm's own workqueue, where the
 * reply could never come) aborts the connect by moving the QP to ERR.
 */

#define CELL(fn, next)	{ iwcm_h_##fn, IWCM_##next }
#define STAY(fn)	{ iwcm_h_##fn, IWCM_SAME }

static const struct iwcm_cell iwcm_table[IWCM_STATES][IWCM_INPUTS] = {
	[IWCM_IDLE] = {
		[IWCM_IN_LISTEN]		= CELL(listen, LISTEN),
		[IWCM_IN_CONNECT]		= CELL(connect, CONN_SENT),
		[IWCM_IN_ADOPT]			= CELL(adopt, CONN_RECV),
		[IWCM_IN_DISCONNECT]		= STAY(ignore),
		[IWCM_IN_QP_ATTR]		= STAY(qp_attr),
		[IWCM_IN_DESTROY]		= CELL(destroy, DESTROYING),
		[IWCM_IN_EV_DISCONNECT]		= STAY(ignore),
	},
	[IWCM_LISTEN] = {
		[IWCM_IN_LISTEN_FAILED]		= CELL(undo, IDLE),
		[IWCM_IN_DESTROY]		= CELL(destroy_listen, DESTROYING),
		[IWCM_IN_EV_CONNECT_REQUEST]	= STAY(request),
		[IWCM_IN_EV_DISCONNECT]		= STAY(ignore),
	},
	[IWCM_CONN_RECV] = {
		[IWCM_IN_ACCEPT]		= STAY(accept),
		[IWCM_IN_ACCEPT_FAILED]		= CELL(undo, IDLE),
		[IWCM_IN_REJECT]		= CELL(reject, IDLE),
		[IWCM_IN_DISCONNECT]		= STAY(ignore),
		[IWCM_IN_QP_ATTR]		= STAY(qp_attr),
		[IWCM_IN_DESTROY]		= CELL(destroy_request, DESTROYING),
		[IWCM_IN_EV_ESTABLISHED]	= CELL(established, ESTABLISHED),
		[IWCM_IN_EV_DISCONNECT]		= STAY(ignore),
	},
	[IWCM_CONN_SENT] = {
		[IWCM_IN_CONNECT_FAILED]	= CELL(undo, IDLE),
		[IWCM_IN_QP_ATTR]		= STAY(qp_attr),
		[IWCM_IN_DESTROY]		= CELL(destroy_abort, DESTROYING),
		[IWCM_IN_EV_CONNECT_REPLY]	= CELL(reply, ESTABLISHED),
		[IWCM_IN_EV_CONNECT_REPLY_ERR]	= CELL(reply_err, IDLE),
		[IWCM_IN_EV_DISCONNECT]		= STAY(ignore),
	},
	[IWCM_ESTABLISHED] = {
		[IWCM_IN_DISCONNECT]		= CELL(disconnect, CLOSING),
		[IWCM_IN_QP_ATTR]		= STAY(qp_attr),
		[IWCM_IN_DESTROY]		= CELL(destroy_abort, DESTROYING),
		[IWCM_IN_EV_DISCONNECT]		= CELL(ignore, CLOSING),
		[IWCM_IN_EV_CLOSE]		= CELL(close, IDLE),
	},
	[IWCM_CLOSING] = {
		[IWCM_IN_DISCONNECT]		= STAY(ignore),
		[IWCM_IN_DESTROY]		= CELL(destroy, DESTROYING),
		[IWCM_IN_EV_DISCONNECT]		= STAY(ignore),
		[IWCM_IN_EV_CLOSE]		= CELL(close, IDLE),
	},
	[IWCM_DESTROYING] = {
		[IWCM_IN_EV_CONNECT_REQUEST]	= STAY(ignore),
		[IWCM_IN_EV_CONNECT_REPLY]	= STAY(ignore),
		[IWCM_IN_EV_CONNECT_REPLY_ERR]	= STAY(ignore),
		[IWCM_IN_EV_ESTABLISHED]	= STAY(ignore),
		[IWCM_IN_EV_DISCONNECT]		= STAY(ignore),
		[IWCM_IN_EV_CLOSE]		= STAY(ignore),
	},
};

static const char *const iwcm_input_names[IWCM_INPUTS] = {
	[IWCM_IN_LISTEN] = "listen", [IWCM_IN_CONNECT] = "connect",
	[IWCM_IN_ACCEPT] = "accept", [IWCM_IN_REJECT] = "reject",
	[IWCM_IN_DISCONNECT] = "disconnect", [IWCM_IN_QP_ATTR] = "qp_attr",
	[IWCM_IN_DESTROY] = "destroy", [IWCM_IN_ADOPT] = "adopt",
	[IWCM_IN_LISTEN_FAILED] = "listen failed",
	[IWCM_IN_CONNECT_FAILED] = "connect failed",
	[IWCM_IN_ACCEPT_FAILED] = "accept failed",
	[IWCM_IN_EV_CONNECT_REQUEST] = "CONNECT_REQUEST",
	[IWCM_IN_EV_CONNECT_REPLY] = "CONNECT_REPLY",
	[IWCM_IN_EV_CONNECT_REPLY_ERR] = "CONNECT_REPLY(error)",
	[IWCM_IN_EV_ESTABLISHED] = "ESTABLISHED",
	[IWCM_IN_EV_DISCONNECT] = "DISCONNECT", [IWCM_IN_EV_CLOSE] = "CLOSE",
};

static const char *const iwcm_state_names[IWCM_STATES] = {
	[IWCM_IDLE] = "IDLE", [IWCM_LISTEN] = "LISTEN",
	[IWCM_CONN_RECV] = "CONN_RECV", [IWCM_CONN_SENT] = "CONN_SENT",
	[IWCM_ESTABLISHED] = "ESTABLISHED", [IWCM_CLOSING] = "CLOSING",
	[IWCM_DESTROYING] = "DESTROYING",
};

const char *iwcm_input_name(enum iwcm_input input)
{
	return input < IWCM_INPUTS ? iwcm_input_names[input] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_input_name);

const char *iwcm_state_name(enum iwcm_state state)
{
	return state < IWCM_STATES ? iwcm_state_names[state] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_state_name);

const struct iwcm_cell *iwcm_table_cell(enum iwcm_state state,
					enum iwcm_input input)
{
	static const struct iwcm_cell none;

	if (state >= IWCM_STATES || input >= IWCM_INPUTS)
		return &none;
	return &iwcm_table[state][input];
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_table_cell);

/**
 * iwcm_table_run() - Feed one input to an id
 * @priv: the id; its lock is held
 * @in: the input; its effects (@in->fx) are filled, not carried out
 *
 * Runs the handler of the cell (@priv's state, @in's input) and, when it
 * succeeds, moves @priv to the cell's next state: the only place where an
 * id changes state.
 *
 * Return: the handler's result, or -EINVAL for an input the state does
 * not take.
 */
int iwcm_table_run(struct iwcm_id_priv *priv, struct iwcm_in *in)
	__must_hold(&priv->lock)
{
	const struct iwcm_cell *cell;
	int ret;

	lockdep_assert_held(&priv->lock);
	cell = iwcm_table_cell(priv->state, in->input);
	if (!cell->fn) {
		pr_debug("id %p: %s not taken in %s\n", priv,
			 iwcm_input_name(in->input),
			 iwcm_state_name(priv->state));
		return -EINVAL;
	}
	ret = cell->fn(priv, in);
	if (!ret && cell->next != IWCM_SAME)
		priv->state = cell->next;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_table_run);

/* Modify @qp to @state, as iWARP QPs close: SQD gracefully, ERR at once. */
static void iwcm_qp_move(struct ib_qp *qp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };

	/* Both ends may be closing: the QP can be in SQD or ERR already. */
	ib_modify_qp(qp, &attr, IB_QP_STATE);
}

/**
 * iwcm_effects_apply() - Carry out what a cell wrote down
 * @priv: the id; its lock is not held
 * @fx: the effects
 *
 * Context: process context for a driver call or a QP move (they may
 * sleep); dropping a QP reference and waking waiters are atomic-safe.
 */
void iwcm_effects_apply(struct iwcm_id_priv *priv, struct iwcm_effects *fx)
{
	const struct ib_device_ops *ops = &priv->id.device->ops;

	switch (fx->call) {
	case IWCM_CALL_DESTROY_LISTEN:
		ops->iw_destroy_listen(&priv->id);
		break;
	case IWCM_CALL_REJECT:
		ops->iw_reject(&priv->id, NULL, 0);
		break;
	case IWCM_CALL_QP_SQD:
		if (fx->qp)
			iwcm_qp_move(fx->qp, IB_QPS_SQD);
		break;
	case IWCM_CALL_QP_ERR:
		if (fx->qp)
			iwcm_qp_move(fx->qp, IB_QPS_ERR);
		break;
	case IWCM_CALL_NONE:
		break;
	}
	if (fx->qp)
		ops->iw_rem_ref(fx->qp);
	if (fx->wake)
		wake_up_all(&priv->wait);
}

/**
 * iwcm_table_feed() - Feed one input to an id and carry out its effects
 * @priv: the id; its lock is not held
 * @in: the input
 *
 * Context: process context unless the cell can only have atomic-safe
 * effects.
 * Return: as iwcm_table_run().
 */
int iwcm_table_feed(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	ret = iwcm_table_run(priv, in);
	spin_unlock_irqrestore(&priv->lock, flags);
	iwcm_effects_apply(priv, &in->fx);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_table_feed);
