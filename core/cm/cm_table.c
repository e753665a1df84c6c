// SPDX-License-Identifier: GPL-2.0-only
/*
 * The IB CM state machine as data: (state, input) -> handler and next state,
 * and the one place that changes state.
 */

#include <kunit/visibility.h>
#include <linux/lockdep.h>

#include "cm/cm.h"

/*
 * Reading the table: a row per state of <rdma/ib_cm.h>, a cell per input
 * that state takes. A cell names its handler and the state the id is in
 * once the handler returned 0 (CM_SAME: where it was). An input missing
 * from a row is not allowed there: a verb gets -EINVAL, a message is
 * dropped and counted as unexpected. Inputs that are answered but change
 * nothing (duplicates) stay in their state.
 */

#define CELL(fn, next)	{ cm_h_##fn, next }
#define STAY(fn)	{ cm_h_##fn, CM_SAME }

#define IDLE		IB_CM_IDLE
#define LISTEN		IB_CM_LISTEN
#define REQ_SENT	IB_CM_REQ_SENT
#define REQ_RCVD	IB_CM_REQ_RCVD
#define MRA_REQ_SENT	IB_CM_MRA_REQ_SENT
#define MRA_REQ_RCVD	IB_CM_MRA_REQ_RCVD
#define REP_SENT	IB_CM_REP_SENT
#define REP_RCVD	IB_CM_REP_RCVD
#define MRA_REP_SENT	IB_CM_MRA_REP_SENT
#define MRA_REP_RCVD	IB_CM_MRA_REP_RCVD
#define ESTABLISHED	IB_CM_ESTABLISHED
#define DREQ_SENT	IB_CM_DREQ_SENT
#define DREQ_RCVD	IB_CM_DREQ_RCVD
#define TIMEWAIT	IB_CM_TIMEWAIT
#define SIDR_REQ_SENT	IB_CM_SIDR_REQ_SENT
#define SIDR_REQ_RCVD	IB_CM_SIDR_REQ_RCVD

static const struct cm_cell cm_table[CM_STATES][CM_INPUTS] = {
	[IDLE] = {
		[CM_IN_LISTEN]		= CELL(listen, LISTEN),
		[CM_IN_SEND_REQ]	= CELL(send_req, REQ_SENT),
		[CM_IN_REQ]		= CELL(req_first, REQ_RCVD),
		[CM_IN_SEND_SIDR_REQ]	= CELL(send_sidr_req, SIDR_REQ_SENT),
		[CM_IN_SIDR_REQ]	= CELL(sidr_req_first, SIDR_REQ_RCVD),
		[CM_IN_DESTROY]		= CELL(destroy_idle, IDLE),
	},
	[LISTEN] = {
		[CM_IN_DESTROY]		= CELL(destroy_listen, IDLE),
	},
	[REQ_SENT] = {
		[CM_IN_REP]		= CELL(rep, REP_RCVD),
		[CM_IN_MRA]		= CELL(mra, MRA_REQ_RCVD),
		[CM_IN_REJ]		= CELL(rej, IDLE),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_SEND_REJ]	= CELL(send_rej, IDLE),
		[CM_IN_TIMEOUT]		= CELL(timeout, IDLE),
		[CM_IN_DESTROY]		= CELL(destroy_req_sent, IDLE),
	},
	[MRA_REQ_RCVD] = {
		[CM_IN_REP]		= CELL(rep, REP_RCVD),
		[CM_IN_MRA]		= STAY(dup),
		[CM_IN_REJ]		= CELL(rej, IDLE),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_SEND_REJ]	= CELL(send_rej, IDLE),
		[CM_IN_TIMEOUT]		= CELL(timeout, IDLE),
		[CM_IN_DESTROY]		= CELL(destroy_req_sent, IDLE),
	},
	[REQ_RCVD] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_SEND_REP]	= CELL(send_rep, REP_SENT),
		[CM_IN_SEND_MRA]	= CELL(send_mra, MRA_REQ_SENT),
		[CM_IN_SEND_REJ]	= CELL(send_rej, IDLE),
		[CM_IN_REJ]		= CELL(rej, IDLE),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_DESTROY]		= CELL(destroy_req_rcvd, IDLE),
	},
	[MRA_REQ_SENT] = {
		[CM_IN_REQ]		= STAY(req_dup_mra),
		[CM_IN_SEND_REP]	= CELL(send_rep, REP_SENT),
		[CM_IN_SEND_REJ]	= CELL(send_rej, IDLE),
		[CM_IN_REJ]		= CELL(rej, IDLE),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_DESTROY]		= CELL(destroy_rej, IDLE),
	},
	[REP_SENT] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_RTU]		= CELL(rtu, ESTABLISHED),
		[CM_IN_MRA]		= CELL(mra, MRA_REP_RCVD),
		[CM_IN_REJ]		= CELL(rej, TIMEWAIT),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_DREQ]		= CELL(dreq, DREQ_RCVD),
		[CM_IN_ESTABLISH]	= CELL(establish, ESTABLISHED),
		[CM_IN_SEND_REJ]	= CELL(send_rej, TIMEWAIT),
		[CM_IN_TIMEOUT]		= CELL(timeout, IDLE),
		[CM_IN_DESTROY]		= CELL(destroy_rep_sent, IDLE),
	},
	[MRA_REP_RCVD] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_RTU]		= CELL(rtu, ESTABLISHED),
		[CM_IN_MRA]		= STAY(dup),
		[CM_IN_REJ]		= CELL(rej, TIMEWAIT),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_DREQ]		= CELL(dreq, DREQ_RCVD),
		[CM_IN_ESTABLISH]	= CELL(establish, ESTABLISHED),
		[CM_IN_SEND_REJ]	= CELL(send_rej, TIMEWAIT),
		[CM_IN_TIMEOUT]		= CELL(timeout, IDLE),
		[CM_IN_DESTROY]		= CELL(destroy_rep_sent, IDLE),
	},
	[REP_RCVD] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_REP]		= STAY(rep_dup),
		[CM_IN_SEND_RTU]	= CELL(send_rtu, ESTABLISHED),
		[CM_IN_SEND_MRA]	= CELL(send_mra, MRA_REP_SENT),
		[CM_IN_SEND_REJ]	= CELL(send_rej, IDLE),
		[CM_IN_REJ]		= CELL(rej, TIMEWAIT),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_DESTROY]		= CELL(destroy_rej, IDLE),
	},
	[MRA_REP_SENT] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_REP]		= STAY(rep_dup_mra),
		[CM_IN_SEND_RTU]	= CELL(send_rtu, ESTABLISHED),
		[CM_IN_SEND_REJ]	= CELL(send_rej, IDLE),
		[CM_IN_REJ]		= CELL(rej, TIMEWAIT),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_DESTROY]		= CELL(destroy_rej, IDLE),
	},
	[ESTABLISHED] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_REP]		= STAY(rep_dup_rtu),
		[CM_IN_RTU]		= STAY(dup),
		[CM_IN_DREQ]		= CELL(dreq, DREQ_RCVD),
		[CM_IN_REJ]		= CELL(rej, TIMEWAIT),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_SEND_DREQ]	= CELL(send_dreq, DREQ_SENT),
		[CM_IN_ESTABLISH]	= STAY(isconn),
		[CM_IN_DESTROY]		= CELL(destroy_established, IDLE),
	},
	[DREQ_SENT] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_REP]		= STAY(rep_dup),
		[CM_IN_RTU]		= STAY(dup),
		[CM_IN_DREP]		= CELL(drep, TIMEWAIT),
		[CM_IN_DREQ]		= CELL(dreq, DREQ_RCVD),
		[CM_IN_REJ]		= CELL(rej, TIMEWAIT),
		[CM_IN_REJ_STALE]	= CELL(rej, TIMEWAIT),
		[CM_IN_TIMEOUT]		= CELL(timeout, TIMEWAIT),
		[CM_IN_DESTROY]		= CELL(destroy_dreq_sent, IDLE),
	},
	[DREQ_RCVD] = {
		[CM_IN_REQ]		= STAY(req_dup),
		[CM_IN_REP]		= STAY(rep_dup),
		[CM_IN_RTU]		= STAY(dup),
		[CM_IN_DREQ]		= STAY(dup),
		[CM_IN_DREP]		= CELL(drep, TIMEWAIT),
		[CM_IN_SEND_DREP]	= CELL(send_drep, TIMEWAIT),
		[CM_IN_DESTROY]		= CELL(destroy_dreq_rcvd, IDLE),
	},
	[TIMEWAIT] = {
		[CM_IN_REQ]		= STAY(req_dup_stale),
		[CM_IN_REP]		= STAY(rep_dup),
		[CM_IN_RTU]		= STAY(dup),
		[CM_IN_DREQ]		= STAY(dreq_dup_drep),
		[CM_IN_TIMEWAIT_EXIT]	= CELL(timewait_exit, IDLE),
		[CM_IN_DESTROY]		= CELL(destroy_idle, IDLE),
	},
	[SIDR_REQ_SENT] = {
		[CM_IN_SIDR_REP]	= CELL(sidr_rep, IDLE),
		[CM_IN_TIMEOUT]		= CELL(timeout, IDLE),
		[CM_IN_DESTROY]		= CELL(destroy_sidr_sent, IDLE),
	},
	[SIDR_REQ_RCVD] = {
		[CM_IN_SIDR_REQ]	= STAY(dup),
		[CM_IN_SEND_SIDR_REP]	= CELL(send_sidr_rep, IDLE),
		[CM_IN_DESTROY]		= CELL(destroy_sidr_rcvd, IDLE),
	},
};

static const char *const cm_input_names[CM_INPUTS] = {
	[CM_IN_REQ] = "REQ", [CM_IN_MRA] = "MRA", [CM_IN_REJ] = "REJ",
	[CM_IN_REP] = "REP", [CM_IN_RTU] = "RTU", [CM_IN_DREQ] = "DREQ",
	[CM_IN_DREP] = "DREP", [CM_IN_SIDR_REQ] = "SIDR_REQ",
	[CM_IN_SIDR_REP] = "SIDR_REP", [CM_IN_LAP] = "LAP",
	[CM_IN_APR] = "APR", [CM_IN_REJ_STALE] = "REJ(stale)",
	[CM_IN_LISTEN] = "listen", [CM_IN_SEND_REQ] = "send_req",
	[CM_IN_SEND_REP] = "send_rep", [CM_IN_SEND_RTU] = "send_rtu",
	[CM_IN_SEND_DREQ] = "send_dreq", [CM_IN_SEND_DREP] = "send_drep",
	[CM_IN_SEND_REJ] = "send_rej", [CM_IN_SEND_MRA] = "send_mra",
	[CM_IN_SEND_SIDR_REQ] = "send_sidr_req",
	[CM_IN_SEND_SIDR_REP] = "send_sidr_rep",
	[CM_IN_ESTABLISH] = "notify(COMM_EST)", [CM_IN_DESTROY] = "destroy",
	[CM_IN_TIMEOUT] = "timeout", [CM_IN_TIMEWAIT_EXIT] = "timewait exit",
};

const char *cm_input_name(enum cm_input input)
{
	return input < CM_INPUTS ? cm_input_names[input] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(cm_input_name);

const struct cm_cell *cm_table_cell(enum ib_cm_state state,
				    enum cm_input input)
{
	static const struct cm_cell none;

	if (state >= CM_STATES || input >= CM_INPUTS)
		return &none;
	return &cm_table[state][input];
}
EXPORT_SYMBOL_IF_KUNIT(cm_table_cell);

static bool cm_input_is_message(enum cm_input input)
{
	return input <= CM_IN_REJ_STALE;
}

/* An input the state does not take: refuse a verb, count a message. */
static int cm_table_refuse(struct cm_id_priv *priv, const struct cm_in *in)
{
	if (cm_input_is_message(in->input))
		atomic_long_inc(&cm_drops[CM_DROP_STATE]);
	/* Rate limited: a message here is the peer's doing. */
	pr_debug_ratelimited("cm_id %08x: %s not taken in state %d\n",
			     be32_to_cpu(priv->id.local_id),
			     cm_input_name(in->input), priv->id.state);
	return -EINVAL;
}

/**
 * cm_table_run() - Feed one input to a cm_id
 * @priv: the id; its lock is held
 * @in: the input
 *
 * Runs the handler of the cell (@priv's state, @in's input) and, when it
 * succeeds, moves @priv to the cell's next state: the only place where a
 * cm_id changes state.
 *
 * A message for an id being destroyed is refused whatever its state: a
 * receive that looked the id up just before cm_id_destroy() unpublished
 * it would otherwise find it in IDLE, whose cells take a REQ or SIDR REQ
 * as the first message of a new id.
 *
 * Return: the handler's result, or -EINVAL for an input the state does
 * not take.
 */
int cm_table_run(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_cell *cell;
	int ret;

	lockdep_assert_held(&priv->lock);
	cell = cm_table_cell(priv->id.state, in->input);
	if (!cell->fn || (priv->destroying && cm_input_is_message(in->input)))
		return cm_table_refuse(priv, in);
	ret = cell->fn(priv, in);
	if (ret && cm_input_is_message(in->input))
		atomic_long_inc(&cm_drops[CM_DROP_REFUSED]);
	if (ret || cell->next == CM_SAME)
		return ret;
	if (cell->next == IB_CM_TIMEWAIT)
		cm_timewait_enter(priv);
	else if (cell->next == IB_CM_IDLE)
		cm_timewait_forget(priv);
	priv->id.state = cell->next;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cm_table_run);

int cm_table_feed(struct cm_id_priv *priv, const struct cm_in *in)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_table_run(priv, in);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cm_table_feed);
