// SPDX-License-Identifier: GPL-2.0-only
/* QP state machine: legal modify_qp transitions and the attributes each takes. */

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <rdma/ib_verbs.h>

#define QPS(s)	BIT(IB_QPS_##s)
#define QPT(t)	BIT(IB_QPT_##t)

static_assert(IB_QPS_ERR < 8, "state sets are u8");
static_assert(IB_QPT_MAX <= 16, "QP type sets are u16");

/* For each state, the set of states a modify_qp call may move it to. */
static const u8 qp_next_states[IB_QPS_ERR + 1] = {
	[IB_QPS_RESET]	= QPS(RESET) | QPS(INIT),
	[IB_QPS_INIT]	= QPS(RESET) | QPS(INIT) | QPS(RTR) | QPS(ERR),
	[IB_QPS_RTR]	= QPS(RESET) | QPS(RTS) | QPS(ERR),
	[IB_QPS_RTS]	= QPS(RESET) | QPS(RTS) | QPS(SQD) | QPS(ERR),
	[IB_QPS_SQD]	= QPS(RESET) | QPS(RTS) | QPS(SQD) | QPS(ERR),
	[IB_QPS_SQE]	= QPS(RESET) | QPS(RTS) | QPS(ERR),
	[IB_QPS_ERR]	= QPS(RESET) | QPS(ERR),
};

/* States in which a caller may tell us the state it believes the QP is in. */
#define QP_CUR_STATE_FROM	(QPS(RTR) | QPS(RTS) | QPS(SQD) | QPS(SQE))

/*
 * QP types grouped by the transport features their attributes configure.
 * RAW_PACKET, RAW_IPV6 and RAW_ETHERTYPE belong to none of the groups.
 */
#define QPT_DGRAM	(QPT(UD) | QPT(SMI) | QPT(GSI))	/* Q_Key based */
#define QPT_CONN	(QPT(UC) | QPT(RC) | QPT(XRC_INI) | QPT(XRC_TGT))
#define QPT_REL_SEND	(QPT(RC) | QPT(XRC_INI))	/* acks and retries */
#define QPT_REL_RECV	(QPT(RC) | QPT(XRC_TGT))	/* RDMA read/atomic target */

/* Attributes that come in groups. */
#define ATTR_DGRAM_KEYS	(IB_QP_PKEY_INDEX | IB_QP_QKEY)
#define ATTR_CONN_INIT	(IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS)
#define ATTR_REMOTE	(IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN)
#define ATTR_REQUESTER	(IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
			 IB_QP_MAX_QP_RD_ATOMIC)
#define ATTR_RESPONDER	(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)
#define ATTR_APM	(IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE)
/* What a sending datagram or connected QP may change while it stays up. */
#define ATTR_DGRAM_LIVE	(IB_QP_CUR_STATE | IB_QP_QKEY)
#define ATTR_CONN_LIVE	(IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | ATTR_APM)

/**
 * struct qp_attr_rule - attributes of one transition for a set of QP types
 * @from: current state
 * @to: next state
 * @types: the QP types (bit per enum ib_qp_type) the rule applies to
 * @required: attributes the caller must supply
 * @optional: attributes the caller may supply
 *
 * Several rules may match one (from, to, type); their masks add up. A legal
 * transition no rule matches takes no attributes besides IB_QP_STATE.
 */
struct qp_attr_rule {
	u8 from;
	u8 to;
	u16 types;
	u32 required;
	u32 optional;
};

#define RULE(f, t, qpts, req, opt) \
	{ IB_QPS_##f, IB_QPS_##t, qpts, req, opt }

static const struct qp_attr_rule qp_attr_rules[] = {
	/*   from   to    types              required        optional */
	RULE(RESET, INIT, QPT_DGRAM,         ATTR_DGRAM_KEYS, 0),
	RULE(RESET, INIT, QPT(UD) | QPT(RAW_PACKET), IB_QP_PORT, 0),
	RULE(RESET, INIT, QPT_CONN,          ATTR_CONN_INIT, 0),

	RULE(INIT,  INIT, QPT_DGRAM,         0, ATTR_DGRAM_KEYS),
	RULE(INIT,  INIT, QPT(UD),           0, IB_QP_PORT),
	RULE(INIT,  INIT, QPT_CONN,          0, ATTR_CONN_INIT),

	RULE(INIT,  RTR,  QPT_DGRAM,         0, ATTR_DGRAM_KEYS),
	RULE(INIT,  RTR,  QPT_CONN,          ATTR_REMOTE,
	     IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX),
	RULE(INIT,  RTR,  QPT_REL_RECV,      ATTR_RESPONDER, 0),

	RULE(RTR,   RTS,  QPT_DGRAM | QPT(UC), IB_QP_SQ_PSN, 0),
	RULE(RTR,   RTS,  QPT_REL_SEND,      ATTR_REQUESTER | IB_QP_SQ_PSN, 0),
	RULE(RTR,   RTS,  QPT(XRC_TGT),      IB_QP_TIMEOUT | IB_QP_SQ_PSN, 0),
	RULE(RTR,   RTS,  QPT_DGRAM,         0, ATTR_DGRAM_LIVE),
	RULE(RTR,   RTS,  QPT_CONN,          0, ATTR_CONN_LIVE),
	RULE(RTR,   RTS,  QPT_REL_RECV,      0, IB_QP_MIN_RNR_TIMER),
	RULE(RTR,   RTS,  QPT(RAW_PACKET),   0, IB_QP_RATE_LIMIT),

	RULE(RTS,   RTS,  QPT_DGRAM,         0, ATTR_DGRAM_LIVE),
	RULE(RTS,   RTS,  QPT_CONN,          0, ATTR_CONN_LIVE),
	RULE(RTS,   RTS,  QPT_REL_RECV,      0, IB_QP_MIN_RNR_TIMER),
	RULE(RTS,   RTS,  QPT(RAW_PACKET),   0, IB_QP_RATE_LIMIT),

	RULE(RTS,   SQD,  QPT_DGRAM | QPT_CONN, 0, IB_QP_EN_SQD_ASYNC_NOTIFY),

	RULE(SQD,   RTS,  QPT_DGRAM,         0, ATTR_DGRAM_LIVE),
	RULE(SQD,   RTS,  QPT_CONN,          0, ATTR_CONN_LIVE),
	RULE(SQD,   RTS,  QPT_REL_RECV,      0, IB_QP_MIN_RNR_TIMER),

	/* A drained QP may be re-pointed: new path, port and timers. */
	RULE(SQD,   SQD,  QPT_DGRAM,         0, ATTR_DGRAM_KEYS),
	RULE(SQD,   SQD,  QPT_CONN,          0,
	     IB_QP_AV | ATTR_APM | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX),
	RULE(SQD,   SQD,  QPT_CONN & ~QPT(UC), 0, IB_QP_PORT | IB_QP_TIMEOUT),
	RULE(SQD,   SQD,  QPT_REL_SEND,      0, ATTR_REQUESTER),
	RULE(SQD,   SQD,  QPT_REL_RECV,      0, ATTR_RESPONDER),

	/* Only unreliable QPs ever enter SQE, so only they take attributes. */
	RULE(SQE,   RTS,  QPT_DGRAM,         0, ATTR_DGRAM_LIVE),
	RULE(SQE,   RTS,  QPT(UC),           0,
	     IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS),
};

static bool qp_state_in_range(enum ib_qp_state state)
{
	return (unsigned int)state <= IB_QPS_ERR;
}

static bool qp_move_is_legal(enum ib_qp_state from, enum ib_qp_state to)
{
	return qp_next_states[from] & BIT(to);
}

/* Sum up the required and optional attributes of every matching rule. */
static void qp_attr_rules_collect(enum ib_qp_state from, enum ib_qp_state to,
				  enum ib_qp_type type, u32 *required,
				  u32 *optional)
{
	const struct qp_attr_rule *rule;
	unsigned int i;

	*required = 0;
	*optional = 0;
	for (i = 0; i < ARRAY_SIZE(qp_attr_rules); i++) {
		rule = &qp_attr_rules[i];
		if (rule->from != from || rule->to != to || !(rule->types & BIT(type)))
			continue;
		*required |= rule->required;
		*optional |= rule->optional;
	}
}

/**
 * ib_modify_qp_is_ok() - Check a QP state transition and its attribute mask
 * @cur_state: state the QP is in
 * @next_state: state the caller asks for
 * @type: type of the QP
 * @mask: the IB_QP_* attributes the caller supplies
 *
 * Low-level drivers call this from their modify_qp method to validate what
 * the consumer asked for before programming the hardware. The transition
 * must be one the IBTA QP state machine allows. @mask must then hold every
 * attribute that transition requires for @type, and apart from IB_QP_STATE
 * nothing the transition does not allow for @type. IB_QP_CUR_STATE may be
 * passed only when leaving RTR, RTS, SQD or SQE. IB_QP_STATE is accepted
 * but never demanded: the caller decides whether a state change happens.
 *
 * Context: Any context. Reads only constant tables.
 * Return: true if the transition and @mask are acceptable, false otherwise.
 * A state outside IB_QPS_RESET..IB_QPS_ERR or a type at or above IB_QPT_MAX
 * (IB_QPT_DRIVER and the reserved driver types included) gives false.
 */
bool ib_modify_qp_is_ok(enum ib_qp_state cur_state, enum ib_qp_state next_state,
			enum ib_qp_type type, enum ib_qp_attr_mask mask)
{
	u32 required, optional;

	if (!qp_state_in_range(cur_state) || !qp_state_in_range(next_state) ||
	    (unsigned int)type >= IB_QPT_MAX)
		return false;
	if (!qp_move_is_legal(cur_state, next_state))
		return false;
	if ((mask & IB_QP_CUR_STATE) && !(QP_CUR_STATE_FROM & BIT(cur_state)))
		return false;

	qp_attr_rules_collect(cur_state, next_state, type, &required, &optional);
	if ((mask & required) != required)
		return false;
	return !(mask & ~(required | optional | IB_QP_STATE));
}
EXPORT_SYMBOL(ib_modify_qp_is_ok);
