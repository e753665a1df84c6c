// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite iw_cm_table: every (state, input) cell of iw_cm, and the details of some cells. */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/module.h>
#include <rdma/iw_cm.h>

#include "core/iwcm/iwcm.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * Each case puts an id in a state, feeds one input under the id's lock
 * and looks at what the cell did: the next state, the result, and the
 * effects it wrote down for after the lock (which are not carried out
 * here: no driver behind this device). The expectations are written from
 * 6.1's iwcm.c behaviour, not from core/iwcm/iwcm_table.c:
 *
 * - listen, connect and a request's new id leave IDLE; connect and
 *   accept take a QP reference and make disconnect/destroy wait;
 * - the driver's refusal of listen/connect/accept goes back to IDLE;
 * - reject goes to IDLE at once (no event);
 * - CONNECT_REPLY: status 0 is ESTABLISHED, else IDLE without the QP;
 *   both reach the owner; so do ESTABLISHED (passive), CLOSE and a
 *   listener's CONNECT_REQUEST (by way of a new id);
 * - the peer's DISCONNECT moves ESTABLISHED to CLOSING, tells nobody and
 *   is ignored elsewhere;
 * - disconnect moves ESTABLISHED to CLOSING with the QP to SQD, is
 *   ignored when idle, closing or before accept, refused on a listener;
 * - destroy: a listener stops listening, a request is rejected, an
 *   established connection's QP goes to ERR; the QP is let go;
 * - QP attributes are given in IDLE, CONN_SENT, CONN_RECV, ESTABLISHED;
 * - once destroying, every upcall is dropped.
 *
 * One cell is ours, not 6.1's: CONN_SENT x destroy (see iwcm_table.c).
 * An id "with a connection" (CONN_SENT, ESTABLISHED, CLOSING) holds a
 * QP; CONN_SENT also waits for the reply (pending).
 */

#define NO	IWCM_CALL_NONE
#define TO_SQD	IWCM_CALL_QP_SQD
#define TO_ERR	IWCM_CALL_QP_ERR

struct iwcm_expect {
	u8	state;
	u8	input;
	u8	next;
	int	ret;
	u8	call;		/* enum iwcm_call */
	bool	qp_out;		/* fx.qp: the id's QP, handed over */
	bool	notify;		/* the owner gets the event */
	bool	wake;		/* waiters for pending are woken */
	bool	pending;	/* pending afterwards */
	bool	has_qp;		/* the id holds a QP afterwards */
	int	add_refs;	/* iw_add_ref calls */
};

#define X(s, i, n, ...) \
	{ IWCM_##s, IWCM_IN_##i, IWCM_##n, __VA_ARGS__ }

/* Fields after next: ret, call, qp_out, notify, wake, pending, has_qp, add_refs */
static const struct iwcm_expect iwcm_expects[] = {
	X(IDLE, LISTEN, LISTEN, 0, NO),
	X(IDLE, CONNECT, CONN_SENT, 0, NO, false, false, false, true, true, 1),
	X(IDLE, ADOPT, CONN_RECV, 0, NO),
	X(IDLE, DISCONNECT, IDLE, 0, NO),
	X(IDLE, QP_ATTR, IDLE, 0, NO),
	X(IDLE, DESTROY, DESTROYING, 0, NO),
	X(IDLE, EV_DISCONNECT, IDLE, 0, NO),

	X(LISTEN, LISTEN_FAILED, IDLE, 0, NO, false, false, true),
	X(LISTEN, DESTROY, DESTROYING, 0, IWCM_CALL_DESTROY_LISTEN),
	X(LISTEN, EV_CONNECT_REQUEST, LISTEN, 0, NO, false, true),
	X(LISTEN, EV_DISCONNECT, LISTEN, 0, NO),

	X(CONN_RECV, ACCEPT, CONN_RECV, 0, NO, false, false, false, true, true, 1),
	X(CONN_RECV, ACCEPT_FAILED, IDLE, 0, NO, false, false, true),
	X(CONN_RECV, REJECT, IDLE, 0, NO, false, false, false, true),
	X(CONN_RECV, DISCONNECT, CONN_RECV, 0, NO),
	X(CONN_RECV, QP_ATTR, CONN_RECV, 0, NO),
	X(CONN_RECV, DESTROY, DESTROYING, 0, IWCM_CALL_REJECT),
	X(CONN_RECV, EV_ESTABLISHED, ESTABLISHED, 0, NO, false, true, true),
	X(CONN_RECV, EV_DISCONNECT, CONN_RECV, 0, NO),

	X(CONN_SENT, CONNECT_FAILED, IDLE, 0, NO, true, false, true),
	X(CONN_SENT, QP_ATTR, CONN_SENT, 0, NO, false, false, false, true, true),
	X(CONN_SENT, DESTROY, DESTROYING, 0, TO_ERR, true, false, false, true),
	X(CONN_SENT, EV_CONNECT_REPLY, ESTABLISHED, 0, NO, false, true, true, false, true),
	X(CONN_SENT, EV_CONNECT_REPLY_ERR, IDLE, 0, NO, true, true, true),
	X(CONN_SENT, EV_DISCONNECT, CONN_SENT, 0, NO, false, false, false, true, true),

	X(ESTABLISHED, DISCONNECT, CLOSING, 0, TO_SQD, true, false, false, false, true, 1),
	X(ESTABLISHED, QP_ATTR, ESTABLISHED, 0, NO, false, false, false, false, true),
	X(ESTABLISHED, DESTROY, DESTROYING, 0, TO_ERR, true),
	X(ESTABLISHED, EV_DISCONNECT, CLOSING, 0, NO, false, false, false, false, true),
	X(ESTABLISHED, EV_CLOSE, IDLE, 0, NO, true, true),

	X(CLOSING, DISCONNECT, CLOSING, 0, NO, false, false, false, false, true),
	X(CLOSING, DESTROY, DESTROYING, 0, NO, true),
	X(CLOSING, EV_DISCONNECT, CLOSING, 0, NO, false, false, false, false, true),
	X(CLOSING, EV_CLOSE, IDLE, 0, NO, true, true),

	X(DESTROYING, EV_CONNECT_REQUEST, DESTROYING, 0, NO),
	X(DESTROYING, EV_CONNECT_REPLY, DESTROYING, 0, NO),
	X(DESTROYING, EV_CONNECT_REPLY_ERR, DESTROYING, 0, NO),
	X(DESTROYING, EV_ESTABLISHED, DESTROYING, 0, NO),
	X(DESTROYING, EV_DISCONNECT, DESTROYING, 0, NO),
	X(DESTROYING, EV_CLOSE, DESTROYING, 0, NO),
};

static const char *const state_names[IWCM_STATES] = {
	"IDLE", "LISTEN", "CONN_RECV", "CONN_SENT", "ESTABLISHED", "CLOSING",
	"DESTROYING",
};

/* ---- A device that only counts QP references ----------------------------- */

static atomic_t qp_refs;

static void fake_add_ref(struct ib_qp *qp)
{
	atomic_inc(&qp_refs);
}

static void fake_rem_ref(struct ib_qp *qp)
{
	atomic_dec(&qp_refs);
}

static struct ib_device fake_dev = {
	.ops = { .iw_add_ref = fake_add_ref, .iw_rem_ref = fake_rem_ref },
};

/* The QP an id has; the QP a connect or accept brings. */
static struct ib_qp conn_qp, new_qp;

static int no_handler(struct iw_cm_id *cm_id, struct iw_cm_event *ev)
{
	return 0;
}

static bool state_has_qp(enum iwcm_state s)
{
	return s == IWCM_CONN_SENT || s == IWCM_ESTABLISHED ||
	       s == IWCM_CLOSING;
}

static struct iwcm_id_priv *id_in_state(struct kunit *test, enum iwcm_state s)
{
	struct iwcm_id_priv *priv = iwcm_id_alloc(&fake_dev, no_handler, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(priv));
	priv->state = s;
	priv->qp = state_has_qp(s) ? &conn_qp : NULL;
	priv->pending = s == IWCM_CONN_SENT;
	return priv;
}

/* Let go of @priv whatever the case left in it (no effects were run). */
static void id_drop(struct iwcm_id_priv *priv)
{
	priv->qp = NULL;
	priv->state = IWCM_IDLE;
	iwcm_id_put(priv);
}

/* Everything an input may need. */
struct input_room {
	struct iw_cm_event event;
	struct ib_qp_attr qp_attr;
	int qp_attr_mask;
	struct list_head pool;
};

static void input_make(struct iwcm_in *in, enum iwcm_input i,
		       struct input_room *r)
{
	INIT_LIST_HEAD(&r->pool);
	r->qp_attr.qp_state = IB_QPS_INIT;
	*in = (struct iwcm_in){
		.input = i, .event = &r->event, .qp = &new_qp,
		.pool = &r->pool, .qp_attr = &r->qp_attr,
		.qp_attr_mask = &r->qp_attr_mask,
	};
}

static int run(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	ret = iwcm_table_run(priv, in);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}

static const struct iwcm_expect *expect_of(enum iwcm_state s,
					   enum iwcm_input i)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(iwcm_expects); k++)
		if (iwcm_expects[k].state == s && iwcm_expects[k].input == i)
			return &iwcm_expects[k];
	return NULL;
}

/* ---- The table, cell by cell --------------------------------------------- */

static const void *cell_gen(const void *prev, char *desc)
{
	static unsigned int cells[IWCM_STATES * IWCM_INPUTS];
	unsigned int n = prev ? *(const unsigned int *)prev + 1 : 0;

	if (n >= ARRAY_SIZE(cells))
		return NULL;
	cells[n] = n;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s x %s",
		 state_names[n / IWCM_INPUTS], iwcm_input_name(n % IWCM_INPUTS));
	return &cells[n];
}

static void expect_cell(struct kunit *test, const struct iwcm_expect *x,
			struct iwcm_id_priv *priv, struct iwcm_in *in, int ret)
{
	KUNIT_EXPECT_EQ(test, ret, x->ret);
	KUNIT_EXPECT_STREQ(test, state_names[priv->state], state_names[x->next]);
	KUNIT_EXPECT_EQ(test, (int)in->fx.call, (int)x->call);
	KUNIT_EXPECT_PTR_EQ(test, in->fx.qp, x->qp_out ? &conn_qp : NULL);
	KUNIT_EXPECT_EQ(test, in->fx.notify, x->notify);
	KUNIT_EXPECT_EQ(test, in->fx.wake, x->wake);
	KUNIT_EXPECT_EQ(test, priv->pending, x->pending);
	KUNIT_EXPECT_EQ(test, !!priv->qp, x->has_qp);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp_refs), x->add_refs);
}

static void iwcm_table_cell_test(struct kunit *test)
{
	unsigned int n = *(const unsigned int *)test->param_value;
	enum iwcm_state s = n / IWCM_INPUTS;
	enum iwcm_input i = n % IWCM_INPUTS;
	const struct iwcm_expect *x = expect_of(s, i);
	struct iwcm_id_priv *priv = id_in_state(test, s);
	bool had_qp = !!priv->qp;
	struct input_room r = {};
	struct iwcm_in in;
	int ret;

	atomic_set(&qp_refs, 0);
	input_make(&in, i, &r);
	ret = run(priv, &in);
	if (x) {
		expect_cell(test, x, priv, &in, ret);
	} else {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		KUNIT_EXPECT_EQ(test, priv->state, s);
		KUNIT_EXPECT_EQ(test, !!priv->qp, had_qp);
		KUNIT_EXPECT_EQ(test, atomic_read(&qp_refs), 0);
		KUNIT_EXPECT_TRUE(test, !in.fx.call && !in.fx.qp &&
				  !in.fx.notify && !in.fx.wake);
	}
	id_drop(priv);
}

/* Every cell the table fills is one the expectations list, and back. */
static void iwcm_table_shape_test(struct kunit *test)
{
	unsigned int s, i, filled = 0;

	for (s = 0; s < IWCM_STATES; s++)
		for (i = 0; i < IWCM_INPUTS; i++) {
			bool has = iwcm_table_cell(s, i)->fn;

			KUNIT_EXPECT_EQ_MSG(test, has, !!expect_of(s, i),
					    "%s x %s", state_names[s],
					    iwcm_input_name(i));
			filled += has;
		}
	KUNIT_EXPECT_EQ(test, filled, (unsigned int)ARRAY_SIZE(iwcm_expects));
	KUNIT_EXPECT_FALSE(test, iwcm_table_cell(IWCM_STATES, 0)->fn);
	KUNIT_EXPECT_FALSE(test, iwcm_table_cell(0, IWCM_INPUTS)->fn);
}

/* ---- Details of some cells ----------------------------------------------- */

/* Connect and accept without a QP the device knows are refused. */
static void iwcm_table_no_qp_test(struct kunit *test)
{
	struct iwcm_id_priv *idle = id_in_state(test, IWCM_IDLE);
	struct iwcm_id_priv *recv = id_in_state(test, IWCM_CONN_RECV);
	struct input_room r = {};
	struct iwcm_in in;

	atomic_set(&qp_refs, 0);
	input_make(&in, IWCM_IN_CONNECT, &r);
	in.qp = NULL;
	KUNIT_EXPECT_EQ(test, run(idle, &in), -EINVAL);
	KUNIT_EXPECT_EQ(test, idle->state, IWCM_IDLE);
	input_make(&in, IWCM_IN_ACCEPT, &r);
	in.qp = NULL;
	KUNIT_EXPECT_EQ(test, run(recv, &in), -EINVAL);
	KUNIT_EXPECT_EQ(test, recv->state, IWCM_CONN_RECV);
	KUNIT_EXPECT_FALSE(test, recv->pending);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp_refs), 0);
	id_drop(idle);
	id_drop(recv);
}

/* A second accept of one request would take a second QP reference. */
static void iwcm_table_accept_twice_test(struct kunit *test)
{
	struct iwcm_id_priv *priv = id_in_state(test, IWCM_CONN_RECV);
	struct input_room r = {};
	struct iwcm_in in;

	atomic_set(&qp_refs, 0);
	input_make(&in, IWCM_IN_ACCEPT, &r);
	KUNIT_EXPECT_EQ(test, run(priv, &in), 0);
	input_make(&in, IWCM_IN_ACCEPT, &r);
	KUNIT_EXPECT_EQ(test, run(priv, &in), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp_refs), 1);
	id_drop(priv);
}

/* An abrupt disconnect resets: the QP goes to ERR, not SQD. */
static void iwcm_table_abrupt_test(struct kunit *test)
{
	struct iwcm_id_priv *priv = id_in_state(test, IWCM_ESTABLISHED);
	struct input_room r = {};
	struct iwcm_in in;

	input_make(&in, IWCM_IN_DISCONNECT, &r);
	in.abrupt = true;
	KUNIT_EXPECT_EQ(test, run(priv, &in), 0);
	KUNIT_EXPECT_EQ(test, (int)in.fx.call, (int)IWCM_CALL_QP_ERR);
	KUNIT_EXPECT_EQ(test, priv->state, IWCM_CLOSING);
	id_drop(priv);
}

/* The attributes of 6.1: access rights for INIT and RTR, none for RTS. */
static void iwcm_table_qp_attr_test(struct kunit *test)
{
	static const struct {
		enum ib_qp_state to;
		int ret, mask, access;
	} cases[] = {
		{ IB_QPS_INIT, 0, IB_QP_STATE | IB_QP_ACCESS_FLAGS,
		  IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ },
		{ IB_QPS_RTR, 0, IB_QP_STATE | IB_QP_ACCESS_FLAGS,
		  IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ },
		{ IB_QPS_RTS, 0, 0, 0 },
		{ IB_QPS_RESET, -EINVAL, -1, 0 },
		{ IB_QPS_SQD, -EINVAL, -1, 0 },
		{ IB_QPS_ERR, -EINVAL, -1, 0 },
	};
	struct iwcm_id_priv *priv = id_in_state(test, IWCM_ESTABLISHED);
	struct input_room r;
	struct iwcm_in in;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(cases); k++) {
		memset(&r, 0, sizeof(r));
		input_make(&in, IWCM_IN_QP_ATTR, &r);
		r.qp_attr.qp_state = cases[k].to;
		r.qp_attr_mask = -1;
		KUNIT_EXPECT_EQ(test, run(priv, &in), cases[k].ret);
		KUNIT_EXPECT_EQ(test, r.qp_attr_mask, cases[k].mask);
		KUNIT_EXPECT_EQ(test, r.qp_attr.qp_access_flags, cases[k].access);
	}
	id_drop(priv);
}

static void addr4(struct sockaddr_storage *ss, u32 ip, u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(ip);
	sin->sin_port = htons(port);
}

static u16 port_of(const struct sockaddr_storage *ss)
{
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

/*
 * A reply: the driver's addresses become the mapped ones, the owner sees
 * the ones it asked for (identical here, with no port mapper, but the
 * direction matters to a driver that maps).
 */
static void iwcm_table_reply_addr_test(struct kunit *test)
{
	struct iwcm_id_priv *priv = id_in_state(test, IWCM_CONN_SENT);
	struct input_room r = {};
	struct iwcm_in in;

	addr4(&priv->id.local_addr, 0x0a000001, 4000);
	addr4(&priv->id.remote_addr, 0x0a000002, 5000);
	addr4(&r.event.local_addr, 0x0a000001, 4001);
	addr4(&r.event.remote_addr, 0x0a000002, 5001);
	input_make(&in, IWCM_IN_EV_CONNECT_REPLY, &r);
	KUNIT_EXPECT_EQ(test, run(priv, &in), 0);
	KUNIT_EXPECT_EQ(test, port_of(&priv->id.m_local_addr), 4001);
	KUNIT_EXPECT_EQ(test, port_of(&priv->id.m_remote_addr), 5001);
	KUNIT_EXPECT_EQ(test, port_of(&r.event.local_addr), 4000);
	KUNIT_EXPECT_EQ(test, port_of(&r.event.remote_addr), 5000);
	id_drop(priv);
}

/* Listen and connect map an id's addresses to themselves (no iwpm). */
static void iwcm_table_map_test(struct kunit *test)
{
	struct iwcm_id_priv *priv = id_in_state(test, IWCM_IDLE);
	struct input_room r = {};
	struct iwcm_in in;

	atomic_set(&qp_refs, 0);
	addr4(&priv->id.local_addr, 0x0a000001, 4000);
	addr4(&priv->id.remote_addr, 0x0a000002, 5000);
	input_make(&in, IWCM_IN_CONNECT, &r);
	KUNIT_EXPECT_EQ(test, run(priv, &in), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&priv->id.m_local_addr,
				     &priv->id.local_addr,
				     sizeof(priv->id.local_addr)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&priv->id.m_remote_addr,
				     &priv->id.remote_addr,
				     sizeof(priv->id.remote_addr)), 0);
	KUNIT_EXPECT_FALSE(test, priv->id.mapped);
	id_drop(priv);
}

/* 6.1's texts for the statuses iWARP drivers report. */
static void iwcm_reject_msg_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ECONNRESET),
			   "reset by remote host");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ECONNREFUSED),
			   "refused by remote application");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ETIMEDOUT), "setup timeout");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(0), "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-EIO), "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(ECONNRESET),
			   "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(INT_MIN),
			   "unrecognized reason");
}

static struct kunit_case iwcm_table_cases[] = {
	KUNIT_CASE(iwcm_table_shape_test),
	KUNIT_CASE_PARAM(iwcm_table_cell_test, cell_gen),
	KUNIT_CASE(iwcm_table_no_qp_test),
	KUNIT_CASE(iwcm_table_accept_twice_test),
	KUNIT_CASE(iwcm_table_abrupt_test),
	KUNIT_CASE(iwcm_table_qp_attr_test),
	KUNIT_CASE(iwcm_table_reply_addr_test),
	KUNIT_CASE(iwcm_table_map_test),
	KUNIT_CASE(iwcm_reject_msg_test),
	{}
};

static struct kunit_suite iwcm_table_suite = {
	.name = "iw_cm_table",
	.test_cases = iwcm_table_cases,
};

kunit_test_suites(&iwcm_table_suite);

MODULE_DESCRIPTION("KUnit tests of the iWARP CM state table");
MODULE_LICENSE("GPL");
