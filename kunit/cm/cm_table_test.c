// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_cm_table: every (state, input) cell of the IB CM, its timers'
 * arithmetic and malformed MADs.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_mad.h>

#include "core/cm/cm.h"
#include "kunit/cm/cm_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The engine runs against a fake wire (no device, no MADs): it records
 * what would have been sent. The expectations below are written from
 * IBA chapter 12 and 6.1's behaviour (Documentation: CM-UVERBS 2d), not
 * from core/cm/cm_table.c: a cell listed here must do what it says, any
 * cell not listed must refuse its input and leave the id alone.
 */

#define NONE	(-1)

struct cm_expect {
	u8	state;
	u8	input;
	u8	next;
	s8	sent;		/* enum cm_msg_kind sent or answered, or NONE */
	s8	event;		/* enum ib_cm_event_type queued, or NONE */
	bool	dup;		/* counted as a duplicate */
	int	ret;
};

#define X(s, i, n, snd, ev)	{ IB_CM_##s, CM_IN_##i, IB_CM_##n, snd, ev }
#define DUP(s, i, snd)		{ IB_CM_##s, CM_IN_##i, IB_CM_##s, snd, NONE, true }
#define M(k)			CM_MSG_##k
#define E(e)			IB_CM_##e

static const struct cm_expect cm_expects[] = {
	X(IDLE, LISTEN, LISTEN, NONE, NONE),
	X(IDLE, SEND_REQ, REQ_SENT, M(REQ), NONE),
	X(IDLE, REQ, REQ_RCVD, NONE, E(REQ_RECEIVED)),
	X(IDLE, SEND_SIDR_REQ, SIDR_REQ_SENT, M(SIDR_REQ), NONE),
	X(IDLE, SIDR_REQ, SIDR_REQ_RCVD, NONE, E(SIDR_REQ_RECEIVED)),
	X(IDLE, DESTROY, IDLE, NONE, NONE),

	X(LISTEN, DESTROY, IDLE, NONE, NONE),

	X(REQ_SENT, REP, REP_RCVD, NONE, E(REP_RECEIVED)),
	X(REQ_SENT, MRA, MRA_REQ_RCVD, NONE, E(MRA_RECEIVED)),
	X(REQ_SENT, REJ, IDLE, NONE, E(REJ_RECEIVED)),
	X(REQ_SENT, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(REQ_SENT, SEND_REJ, IDLE, M(REJ), NONE),
	X(REQ_SENT, TIMEOUT, IDLE, NONE, E(REQ_ERROR)),
	X(REQ_SENT, DESTROY, IDLE, M(REJ), NONE),

	X(MRA_REQ_RCVD, REP, REP_RCVD, NONE, E(REP_RECEIVED)),
	DUP(MRA_REQ_RCVD, MRA, NONE),
	X(MRA_REQ_RCVD, REJ, IDLE, NONE, E(REJ_RECEIVED)),
	X(MRA_REQ_RCVD, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(MRA_REQ_RCVD, SEND_REJ, IDLE, M(REJ), NONE),
	X(MRA_REQ_RCVD, TIMEOUT, IDLE, NONE, E(REQ_ERROR)),
	X(MRA_REQ_RCVD, DESTROY, IDLE, M(REJ), NONE),

	DUP(REQ_RCVD, REQ, NONE),
	X(REQ_RCVD, SEND_REP, REP_SENT, M(REP), NONE),
	X(REQ_RCVD, SEND_MRA, MRA_REQ_SENT, M(MRA), NONE),
	X(REQ_RCVD, SEND_REJ, IDLE, M(REJ), NONE),
	X(REQ_RCVD, REJ, IDLE, NONE, E(REJ_RECEIVED)),
	X(REQ_RCVD, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(REQ_RCVD, DESTROY, IDLE, M(REJ), NONE),

	DUP(MRA_REQ_SENT, REQ, M(MRA)),
	X(MRA_REQ_SENT, SEND_REP, REP_SENT, M(REP), NONE),
	X(MRA_REQ_SENT, SEND_REJ, IDLE, M(REJ), NONE),
	X(MRA_REQ_SENT, REJ, IDLE, NONE, E(REJ_RECEIVED)),
	X(MRA_REQ_SENT, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(MRA_REQ_SENT, DESTROY, IDLE, M(REJ), NONE),

	DUP(REP_SENT, REQ, NONE),
	X(REP_SENT, RTU, ESTABLISHED, NONE, E(RTU_RECEIVED)),
	X(REP_SENT, MRA, MRA_REP_RCVD, NONE, E(MRA_RECEIVED)),
	X(REP_SENT, REJ, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(REP_SENT, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(REP_SENT, DREQ, DREQ_RCVD, NONE, E(DREQ_RECEIVED)),
	X(REP_SENT, ESTABLISH, ESTABLISHED, NONE, E(USER_ESTABLISHED)),
	X(REP_SENT, SEND_REJ, TIMEWAIT, M(REJ), NONE),
	X(REP_SENT, TIMEOUT, IDLE, NONE, E(REP_ERROR)),
	X(REP_SENT, DESTROY, IDLE, M(REJ), NONE),

	DUP(MRA_REP_RCVD, REQ, NONE),
	X(MRA_REP_RCVD, RTU, ESTABLISHED, NONE, E(RTU_RECEIVED)),
	DUP(MRA_REP_RCVD, MRA, NONE),
	X(MRA_REP_RCVD, REJ, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(MRA_REP_RCVD, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(MRA_REP_RCVD, DREQ, DREQ_RCVD, NONE, E(DREQ_RECEIVED)),
	X(MRA_REP_RCVD, ESTABLISH, ESTABLISHED, NONE, E(USER_ESTABLISHED)),
	X(MRA_REP_RCVD, SEND_REJ, TIMEWAIT, M(REJ), NONE),
	X(MRA_REP_RCVD, TIMEOUT, IDLE, NONE, E(REP_ERROR)),
	X(MRA_REP_RCVD, DESTROY, IDLE, M(REJ), NONE),

	DUP(REP_RCVD, REQ, NONE),
	DUP(REP_RCVD, REP, NONE),
	X(REP_RCVD, SEND_RTU, ESTABLISHED, M(RTU), NONE),
	X(REP_RCVD, SEND_MRA, MRA_REP_SENT, M(MRA), NONE),
	X(REP_RCVD, SEND_REJ, IDLE, M(REJ), NONE),
	X(REP_RCVD, REJ, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(REP_RCVD, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(REP_RCVD, DESTROY, IDLE, M(REJ), NONE),

	DUP(MRA_REP_SENT, REQ, NONE),
	DUP(MRA_REP_SENT, REP, M(MRA)),
	X(MRA_REP_SENT, SEND_RTU, ESTABLISHED, M(RTU), NONE),
	X(MRA_REP_SENT, SEND_REJ, IDLE, M(REJ), NONE),
	X(MRA_REP_SENT, REJ, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(MRA_REP_SENT, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(MRA_REP_SENT, DESTROY, IDLE, M(REJ), NONE),

	DUP(ESTABLISHED, REQ, NONE),
	DUP(ESTABLISHED, REP, M(RTU)),
	DUP(ESTABLISHED, RTU, NONE),
	X(ESTABLISHED, DREQ, DREQ_RCVD, NONE, E(DREQ_RECEIVED)),
	X(ESTABLISHED, REJ, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(ESTABLISHED, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(ESTABLISHED, SEND_DREQ, DREQ_SENT, M(DREQ), NONE),
	{ IB_CM_ESTABLISHED, CM_IN_ESTABLISH, IB_CM_ESTABLISHED, NONE, NONE,
	  false, -EISCONN },
	X(ESTABLISHED, DESTROY, IDLE, M(DREQ), NONE),

	DUP(DREQ_SENT, REQ, NONE),
	DUP(DREQ_SENT, REP, NONE),
	DUP(DREQ_SENT, RTU, NONE),
	X(DREQ_SENT, DREP, TIMEWAIT, NONE, E(DREP_RECEIVED)),
	X(DREQ_SENT, DREQ, DREQ_RCVD, NONE, E(DREQ_RECEIVED)),
	X(DREQ_SENT, REJ, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(DREQ_SENT, REJ_STALE, TIMEWAIT, NONE, E(REJ_RECEIVED)),
	X(DREQ_SENT, TIMEOUT, TIMEWAIT, NONE, E(DREQ_ERROR)),
	X(DREQ_SENT, DESTROY, IDLE, NONE, NONE),

	DUP(DREQ_RCVD, REQ, NONE),
	DUP(DREQ_RCVD, REP, NONE),
	DUP(DREQ_RCVD, RTU, NONE),
	DUP(DREQ_RCVD, DREQ, NONE),
	X(DREQ_RCVD, DREP, TIMEWAIT, NONE, E(DREP_RECEIVED)),
	X(DREQ_RCVD, SEND_DREP, TIMEWAIT, M(DREP), NONE),
	X(DREQ_RCVD, DESTROY, IDLE, M(DREP), NONE),

	DUP(TIMEWAIT, REQ, M(REJ)),
	DUP(TIMEWAIT, REP, NONE),
	DUP(TIMEWAIT, RTU, NONE),
	DUP(TIMEWAIT, DREQ, M(DREP)),
	X(TIMEWAIT, TIMEWAIT_EXIT, IDLE, NONE, E(TIMEWAIT_EXIT)),
	X(TIMEWAIT, DESTROY, IDLE, NONE, NONE),

	X(SIDR_REQ_SENT, SIDR_REP, IDLE, NONE, E(SIDR_REP_RECEIVED)),
	X(SIDR_REQ_SENT, TIMEOUT, IDLE, NONE, E(SIDR_REQ_ERROR)),
	X(SIDR_REQ_SENT, DESTROY, IDLE, NONE, NONE),

	DUP(SIDR_REQ_RCVD, SIDR_REQ, NONE),
	X(SIDR_REQ_RCVD, SEND_SIDR_REP, IDLE, M(SIDR_REP), NONE),
	X(SIDR_REQ_RCVD, DESTROY, IDLE, M(SIDR_REP), NONE),
};

static const char *const state_names[CM_STATES] = {
	"IDLE", "LISTEN", "REQ_SENT", "REQ_RCVD", "MRA_REQ_SENT",
	"MRA_REQ_RCVD", "REP_SENT", "REP_RCVD", "MRA_REP_SENT",
	"MRA_REP_RCVD", "ESTABLISHED", "DREQ_SENT", "DREQ_RCVD", "TIMEWAIT",
	"SIDR_REQ_SENT", "SIDR_REQ_RCVD",
};

/* Unique comm IDs so connection lookups of one case never meet another's. */
static u32 next_remote_id = 0x5000;

/* The message or parameters that make @input acceptable to @state. */
struct input_room {
	union {
		struct cm_msg_req req;
		struct cm_msg_mra mra;
		struct cm_msg_rej rej;
		struct cm_msg_rep rep;
		struct cm_msg_dreq dreq;
		struct cm_msg_sidr_req sidr_req;
		struct cm_msg_sidr_rep sidr_rep;
		struct ib_cm_rep_param rep_param;
		struct ib_cm_sidr_rep_param sidr_rep_param;
		__be64 service_id;
	} u;
	struct cm_req_prep prep;
	struct ib_cm_req_param req_param;
	struct ib_cm_sidr_req_param sidr_req_param;
	struct sa_path_rec path;
};

static void input_make(struct cm_id_priv *priv, struct cm_in *in,
		       struct input_room *r)
{
	enum ib_cm_state s = priv->id.state;

	in->msg = &r->u;
	switch (in->input) {
	case CM_IN_MRA:
		r->u.mra.message_mraed = (s == IB_CM_REQ_SENT ||
					  s == IB_CM_MRA_REQ_RCVD) ? 0 : 1;
		break;
	case CM_IN_REJ_STALE:
		r->u.rej.reason = IB_CM_REJ_STALE_CONN;
		break;
	case CM_IN_REJ:
		r->u.rej.reason = IB_CM_REJ_CONSUMER_DEFINED;
		break;
	case CM_IN_REP:
		r->u.rep.local_comm_id = next_remote_id++;
		r->u.rep.local_qpn = next_remote_id;
		r->u.rep.local_ca_guid = 0xabcdef;
		break;
	case CM_IN_LISTEN:
		r->u.service_id = IB_CM_ASSIGN_SERVICE_ID;
		break;
	case CM_IN_SEND_REQ:
		r->req_param.primary_path = &r->path;
		r->req_param.qp_type = IB_QPT_RC;
		r->prep.param = &r->req_param;
		r->prep.tw = cm_timewait_alloc(priv, GFP_KERNEL);
		in->msg = &r->prep;
		break;
	case CM_IN_SEND_SIDR_REQ:
		r->sidr_req_param.path = &r->path;
		r->prep.param = &r->sidr_req_param;
		in->msg = &r->prep;
		break;
	default:
		break;
	}
}

static const struct cm_expect *expect_of(enum ib_cm_state s,
					 enum cm_input i)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(cm_expects); k++)
		if (cm_expects[k].state == s && cm_expects[k].input == i)
			return &cm_expects[k];
	return NULL;
}

/* ---- The table, cell by cell --------------------------------------------- */

static const void *cell_gen(const void *prev, char *desc)
{
	static unsigned int cells[CM_STATES * CM_INPUTS];
	unsigned int n = prev ? *(const unsigned int *)prev + 1 : 0;

	if (n >= ARRAY_SIZE(cells))
		return NULL;
	cells[n] = n;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s x %s",
		 state_names[n / CM_INPUTS], cm_input_name(n % CM_INPUTS));
	return &cells[n];
}

static void cm_table_cell_test(struct kunit *test)
{
	unsigned int n = *(const unsigned int *)test->param_value;
	enum ib_cm_state s = n / CM_INPUTS;
	enum cm_input i = n % CM_INPUTS;
	const struct cm_expect *x = expect_of(s, i);
	long dups = atomic_long_read(&cm_drops[CM_DROP_DUPLICATE]);
	long drops = atomic_long_read(&cm_drops[CM_DROP_STATE]);
	struct events ev = { .last = NONE };
	/* A message comes in on a port; a verb or a timer has none. */
	struct cm_in in = { .input = i,
			    .port = i <= CM_IN_REJ_STALE ? &fake_port : NULL };
	struct input_room *r;
	struct cm_id_priv *priv;
	int ret;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	priv = id_in_state(test, s, &ev);
	input_make(priv, &in, r);
	ret = cm_table_feed(priv, &in);
	flush_work(&priv->event_work);

	if (x) {
		KUNIT_EXPECT_EQ(test, ret, x->ret);
		KUNIT_EXPECT_EQ(test, priv->id.state, (enum ib_cm_state)x->next);
		KUNIT_EXPECT_EQ(test, wire.sent, x->sent == NONE ? 0 : 1);
		if (x->sent != NONE)
			KUNIT_EXPECT_EQ(test, wire.last_kind, (int)x->sent);
		KUNIT_EXPECT_EQ(test, ev.count, x->event == NONE ? 0 : 1);
		KUNIT_EXPECT_EQ(test, ev.last, (int)x->event);
		KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_DUPLICATE]) - dups,
				x->dup ? 1L : 0L);
		/* cm_rx_duplicates of the port, under the message's kind. */
		KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX_DUP), x->dup ? 1L : 0L);
		if (x->dup)
			expect_count(test, CM_COUNT_RX_DUP, (enum cm_msg_kind)i, 1);
	} else {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		KUNIT_EXPECT_EQ(test, priv->id.state, s);
		KUNIT_EXPECT_EQ(test, wire.sent, 0);
		KUNIT_EXPECT_EQ(test, ev.count, 0);
		KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_STATE]) - drops,
				i <= CM_IN_REJ_STALE ? 1L : 0L);
		KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX_DUP), 0L);
	}
	kfree(r->prep.tw);
	cm_av_destroy(&r->prep.av);
	cm_id_destroy(priv, 0);
}

/* Every cell the table fills is one the expectations list, and back. */
static void cm_table_shape_test(struct kunit *test)
{
	unsigned int s, i, filled = 0;

	for (s = 0; s < CM_STATES; s++)
		for (i = 0; i < CM_INPUTS; i++) {
			bool has = cm_table_cell(s, i)->fn;

			KUNIT_EXPECT_EQ_MSG(test, has, !!expect_of(s, i),
					    "%s x %s", state_names[s],
					    cm_input_name(i));
			filled += has;
		}
	KUNIT_EXPECT_EQ(test, filled, (unsigned int)ARRAY_SIZE(cm_expects));
}

/* A handler's failure to send leaves the state alone. */
static void cm_table_send_fails_test(struct kunit *test)
{
	struct events ev = { .last = NONE };
	struct cm_id_priv *priv = id_in_state(test, IB_CM_REP_RCVD, &ev);
	struct cm_in in = { .input = CM_IN_SEND_RTU };

	wire.ret = -ENOMEM;
	KUNIT_EXPECT_EQ(test, cm_table_feed(priv, &in), -ENOMEM);
	KUNIT_EXPECT_EQ(test, priv->id.state, IB_CM_REP_RCVD);
	wire.ret = 0;
	cm_id_destroy(priv, 0);
}

/* An MRA sent with IB_CM_MRA_FLAG_DELAY goes out only for a duplicate REQ. */
static void cm_table_mra_delay_test(struct kunit *test)
{
	struct events ev = { .last = NONE };
	struct cm_id_priv *priv = id_in_state(test, IB_CM_REQ_RCVD, &ev);
	struct cm_in mra = { .input = CM_IN_SEND_MRA,
			     .arg = 24 | IB_CM_MRA_FLAG_DELAY };
	struct cm_msg_req req = {};
	struct cm_in dup = { .input = CM_IN_REQ, .msg = &req };

	KUNIT_EXPECT_EQ(test, cm_table_feed(priv, &mra), 0);
	KUNIT_EXPECT_EQ(test, priv->id.state, IB_CM_MRA_REQ_SENT);
	KUNIT_EXPECT_EQ(test, wire.sent, 0);
	KUNIT_EXPECT_EQ(test, cm_table_feed(priv, &dup), 0);
	KUNIT_EXPECT_EQ(test, wire.sent, 1);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.service_timeout, 24);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.message_mraed, 0);
	cm_id_destroy(priv, 0);
}

/* Destroying a REQ_RCVD id for lack of memory sends no REJ. */
static void cm_table_destroy_enomem_test(struct kunit *test)
{
	struct cm_id_priv *priv = id_in_state(test, IB_CM_REQ_RCVD, NULL);

	cm_id_destroy(priv, -ENOMEM);
	KUNIT_EXPECT_EQ(test, wire.sent, 0);
}

/*
 * An id being destroyed takes no message, not even the REQ its IDLE
 * state would take as a new id's first: a receive that found the id
 * just before it was unpublished is dropped (for the state), not fed.
 */
static void cm_table_destroying_test(struct kunit *test)
{
	long drops = atomic_long_read(&cm_drops[CM_DROP_STATE]);
	struct events ev = { .last = NONE };
	struct cm_id_priv *priv = id_in_state(test, IB_CM_IDLE, &ev);
	struct cm_msg_req req = { .local_comm_id = 0x1234 };
	struct cm_in in = { .input = CM_IN_REQ, .port = &fake_port,
			    .msg = &req };

	priv->destroying = true;
	KUNIT_EXPECT_EQ(test, cm_table_feed(priv, &in), -EINVAL);
	KUNIT_EXPECT_EQ(test, priv->id.state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(priv->id.remote_id), 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_STATE]) - drops,
			1L);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ev.count, 0);
	priv->destroying = false;
	cm_id_destroy(priv, 0);
}

/* ---- Timer arithmetic ---------------------------------------------------- */

/* 4.096 us * 2^x as a power-of-two number of ms, at least 1. */
static void cm_convert_to_ms_test(struct kunit *test)
{
	unsigned int x;

	for (x = 0; x < 32; x++) {
		u64 ns = 4096ULL << x;
		unsigned int want = ns < 2000000 ? 1 : 1U << (x - 8);

		KUNIT_EXPECT_EQ_MSG(test, cm_convert_to_ms(x), want, "x=%u", x);
	}
	KUNIT_EXPECT_EQ(test, cm_convert_to_ms(20), 4096U);
	KUNIT_EXPECT_EQ(test, cm_convert_to_ms(18), 1024U);
	/* The inbox REQ retry: 2 * 2^(18-8) + 2^(20-8) ms. */
	KUNIT_EXPECT_EQ(test, 2 * cm_convert_to_ms(18) + cm_convert_to_ms(20),
			6144U);
}

static void cm_ack_timeout_test(struct kunit *test)
{
	unsigned int plt;

	/* rxe: CA ACK delay 15, RoCE packet lifetime 18 -> QP timeout 19. */
	KUNIT_EXPECT_EQ(test, cm_ack_timeout(15, 18), 19);
	KUNIT_EXPECT_EQ(test, cm_ack_timeout(0, 0), 2);
	KUNIT_EXPECT_EQ(test, cm_ack_timeout(20, 0), 20);
	/* 2^20 + 2 * 2^18: the round trip (19) is one below the delay: 21 */
	KUNIT_EXPECT_EQ(test, cm_ack_timeout(20, 18), 21);
	KUNIT_EXPECT_EQ(test, cm_ack_timeout(20, 17), 20);
	KUNIT_EXPECT_EQ(test, cm_ack_timeout(20, 19), 21);
	KUNIT_EXPECT_EQ(test, cm_ack_timeout(31, 31), 31);
	/* Never below either term, never above 31, for every lifetime. */
	for (plt = 0; plt < 32; plt++) {
		u8 t = cm_ack_timeout(15, plt);

		KUNIT_EXPECT_GE(test, t, (u8)min(plt + 1, 31U));
		KUNIT_EXPECT_GE(test, t, 15);
		KUNIT_EXPECT_LE(test, t, 31);
		KUNIT_EXPECT_LE(test, t, (u8)max(plt + 2, 16U));
	}
}

/* ---- Malformed and unroutable MADs --------------------------------------- */

static void cm_recv_check_test(struct kunit *test)
{
	struct ib_mad_recv_wc *rwc;

	KUNIT_EXPECT_LT(test, cm_recv_check(NULL), 0);
	rwc = rwc_make(test, IB_MGMT_CLASS_CM, 2, IB_MGMT_METHOD_SEND, 0x10);
	KUNIT_EXPECT_EQ(test, cm_recv_check(rwc), (int)CM_MSG_REQ);
	rwc->mad_len = 100;
	KUNIT_EXPECT_LT(test, cm_recv_check(rwc), 0);
	rwc = rwc_make(test, IB_MGMT_CLASS_SUBN_ADM, 2, IB_MGMT_METHOD_SEND, 0x10);
	KUNIT_EXPECT_LT(test, cm_recv_check(rwc), 0);
	rwc = rwc_make(test, IB_MGMT_CLASS_CM, 1, IB_MGMT_METHOD_SEND, 0x10);
	KUNIT_EXPECT_LT(test, cm_recv_check(rwc), 0);
	rwc = rwc_make(test, IB_MGMT_CLASS_CM, 2, IB_MGMT_METHOD_GET, 0x10);
	KUNIT_EXPECT_LT(test, cm_recv_check(rwc), 0);
	rwc = rwc_make(test, IB_MGMT_CLASS_CM, 2, IB_MGMT_METHOD_SEND, 0x0f);
	KUNIT_EXPECT_LT(test, cm_recv_check(rwc), 0);
	rwc = rwc_make(test, IB_MGMT_CLASS_CM, 2, IB_MGMT_METHOD_SEND, 0x1b);
	KUNIT_EXPECT_LT(test, cm_recv_check(rwc), 0);
	rwc = rwc_make(test, IB_MGMT_CLASS_CM, 2, IB_MGMT_METHOD_SEND, 0x1a);
	KUNIT_EXPECT_EQ(test, cm_recv_check(rwc), (int)CM_MSG_APR);
}

static void cm_recv_malformed_test(struct kunit *test)
{
	long before = atomic_long_read(&cm_drops[CM_DROP_MALFORMED]);
	struct ib_mad_recv_wc *rwc;
	struct cm_msg_req req = { .transport_type = 2 };

	rwc = rwc_make(test, IB_MGMT_CLASS_CM, 2, IB_MGMT_METHOD_SEND, 0x30);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, rwc), -EINVAL);
	rwc->mad_len = 10;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, rwc), -EINVAL);
	/* A REQ of a transport type IBA does not define. */
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_MALFORMED]) - before,
			3L);
	KUNIT_EXPECT_EQ(test, wire.sent, 0);
}

/*
 * The MAD layer hands a short datagram over as a whole MAD, zero beyond
 * what came in; the completion's byte count (GRH room included) tells.
 * A REQ one byte short is dropped as malformed before it reaches the
 * listener; the same REQ whole is taken.
 */
static void cm_recv_truncated_test(struct kunit *test)
{
	long before = atomic_long_read(&cm_drops[CM_DROP_MALFORMED]);
	struct cm_msg_req req = { .local_comm_id = 0x377, .service_id = 0x4545,
				  .local_qpn = 0x399, .local_ca_guid = 0x355 };
	struct events ev = { .last = NONE };
	struct ib_mad_recv_wc *rwc;
	struct ib_cm_id *listen;
	struct ib_wc *wc;

	wc = kunit_kzalloc(test, sizeof(*wc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wc);
	listen = ib_create_cm_id(&fake_dev, record_event, &ev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(listen));
	KUNIT_ASSERT_EQ(test, ib_cm_listen(listen, cpu_to_be64(0x4545)), 0);

	rwc = cm_mad(test, CM_MSG_REQ, &req);
	rwc->wc = wc;
	wc->byte_len = sizeof(struct ib_grh) + sizeof(struct ib_mad) - 1;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, rwc), -EINVAL);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ev.count, 0);
	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX), 0L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_MALFORMED]) - before,
			1L);
	/* Not even the header: the GRH room alone, or less. */
	wc->byte_len = sizeof(struct ib_grh);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, rwc), -EINVAL);
	wc->byte_len = 3;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, rwc), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_MALFORMED]) - before,
			3L);

	wc->byte_len = sizeof(struct ib_grh) + sizeof(struct ib_mad);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, rwc), 0);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ev.count, 1);
	KUNIT_ASSERT_NOT_NULL(test, ev.new_id);
	ib_destroy_cm_id(ev.new_id);
	ib_destroy_cm_id(listen);
}

/*
 * A REJ's ARI and a SIDR REP's or APR's additional information hold 72
 * bytes: a length beyond is garbage, dropped as malformed before any id
 * sees it (but counted as received). 72 itself is taken.
 */
static void cm_recv_bad_length_test(struct kunit *test)
{
	long before = atomic_long_read(&cm_drops[CM_DROP_MALFORMED]);
	struct cm_msg_rej *rej = kunit_kzalloc(test, sizeof(*rej), GFP_KERNEL);
	struct cm_msg_sidr_rep *srep = kunit_kzalloc(test, sizeof(*srep),
						     GFP_KERNEL);
	struct cm_msg_apr *apr = kunit_kzalloc(test, sizeof(*apr), GFP_KERNEL);
	struct events ev = { .last = NONE }, sev = { .last = NONE };
	struct cm_id_priv *priv, *sidr;

	KUNIT_ASSERT_NOT_NULL(test, rej);
	KUNIT_ASSERT_NOT_NULL(test, srep);
	KUNIT_ASSERT_NOT_NULL(test, apr);
	priv = id_in_state(test, IB_CM_REQ_SENT, &ev);
	cm_id_publish(priv);
	sidr = id_in_state(test, IB_CM_SIDR_REQ_SENT, &sev);
	cm_id_publish(sidr);
	rej->remote_comm_id = be32_to_cpu(priv->id.local_id);
	rej->reason = IB_CM_REJ_CONSUMER_DEFINED;
	rej->ari_length = CM_REJ_ARI_SIZE + 1;
	srep->request_id = be32_to_cpu(sidr->id.local_id);
	srep->info_length = CM_SIDR_REP_INFO_SIZE + 1;
	apr->remote_comm_id = rej->remote_comm_id;
	apr->info_length = 0xff;

	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REJ, rej)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port,
					  cm_mad(test, CM_MSG_SIDR_REP, srep)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_APR, apr)),
			-EINVAL);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ev.count + sev.count, 0);
	KUNIT_EXPECT_EQ(test, priv->id.state, IB_CM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, sidr->id.state, IB_CM_SIDR_REQ_SENT);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_MALFORMED]) - before,
			3L);
	expect_count(test, CM_COUNT_RX, CM_MSG_REJ, 1);

	rej->ari_length = CM_REJ_ARI_SIZE;
	srep->info_length = CM_SIDR_REP_INFO_SIZE;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REJ, rej)),
			0);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port,
					  cm_mad(test, CM_MSG_SIDR_REP, srep)), 0);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ev.last, (int)IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, sev.last, (int)IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_MALFORMED]) - before,
			3L);
	cm_id_destroy(priv, 0);
	cm_id_destroy(sidr, 0);
}

/*
 * A REP naming a remote comm ID and CA GUID another connection has is
 * refused: one drop (refused), no duplicate (it repeats nothing this id
 * got; 6.1 counts none), no event, the id still waits for its REP.
 */
static void cm_recv_rep_taken_test(struct kunit *test)
{
	long refused = atomic_long_read(&cm_drops[CM_DROP_REFUSED]);
	long dups = atomic_long_read(&cm_drops[CM_DROP_DUPLICATE]);
	struct cm_msg_rep *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);
	struct events ea = { .last = NONE }, eb = { .last = NONE };
	struct cm_id_priv *a, *b;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	a = id_in_state(test, IB_CM_REQ_SENT, &ea);
	b = id_in_state(test, IB_CM_REQ_SENT, &eb);
	cm_id_publish(a);
	cm_id_publish(b);
	rep->local_comm_id = 0x6543;
	rep->local_ca_guid = 0x6789;
	rep->local_qpn = 0x66;
	rep->remote_comm_id = be32_to_cpu(a->id.local_id);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REP, rep)),
			0);
	rep->remote_comm_id = be32_to_cpu(b->id.local_id);
	rep->local_qpn = 0x67;
	KUNIT_EXPECT_NE(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REP, rep)),
			0);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ea.count, 1);
	KUNIT_EXPECT_EQ(test, eb.count, 0);
	KUNIT_EXPECT_EQ(test, b->id.state, IB_CM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_REFUSED]) - refused,
			1L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_DUPLICATE]) - dups,
			0L);
	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX_DUP), 0L);
	cm_id_destroy(b, 0);
	cm_id_destroy(a, 0);
}

/* Messages for comm IDs nobody has: dropped; a DREQ still gets its DREP. */
static void cm_recv_unknown_id_test(struct kunit *test)
{
	long before = atomic_long_read(&cm_drops[CM_DROP_NO_ID]);
	struct cm_msg_rtu rtu = { .local_comm_id = 1, .remote_comm_id = 0xdead };
	struct cm_msg_dreq dreq = { .local_comm_id = 2, .remote_comm_id = 0xbeef };
	struct cm_msg_rep rep = { .local_comm_id = 3, .remote_comm_id = 0xfeed };

	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_RTU, &rtu)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REP, &rep)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, wire.sent, 0);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_DREQ, &dreq)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, wire.sent, 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_DREP);
	KUNIT_EXPECT_EQ(test, wire.last.msg.drep.local_comm_id, 0xbeefU);
	KUNIT_EXPECT_EQ(test, wire.last.msg.drep.remote_comm_id, 2U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_NO_ID]) - before,
			3L);
}

/* A REQ nobody listens for is rejected "invalid service ID". */
static void cm_recv_no_listener_test(struct kunit *test)
{
	struct cm_msg_req req = { .local_comm_id = 9, .service_id = 0x1234 };

	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_REJ);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.reason,
			(u16)IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.remote_comm_id, 9U);
}

/*
 * A SIDR REQ nobody listens for is answered with a SIDR REP of status 1
 * (IB_SIDR_UNSUPPORTED): its request ID, service ID and TID, no QP.
 */
static void cm_recv_sidr_no_listener_test(struct kunit *test)
{
	long before = atomic_long_read(&cm_drops[CM_DROP_NO_ID]);
	struct cm_msg_sidr_req *req = kunit_kzalloc(test, sizeof(*req),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, req);
	req->request_id = 0x1357;
	req->pkey = 0xffff;
	req->service_id = 0x0106000000004321ULL;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port,
					  cm_mad(test, CM_MSG_SIDR_REQ, req)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, wire.sent, 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_SIDR_REP);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), 7ULL);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.request_id, 0x1357U);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.status,
			(u8)IB_SIDR_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.service_id,
			0x0106000000004321ULL);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.qpn, 0U);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.qkey, 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cm_drops[CM_DROP_NO_ID]) - before,
			1L);
}

/*
 * A listener, a REQ: a new id in REQ_RCVD reported to the listener's
 * handler. The same REQ again is a duplicate; a REQ from the same remote
 * QP under another comm ID is stale.
 */
static void cm_recv_listen_req_test(struct kunit *test)
{
	struct events ev = { .last = NONE };
	struct cm_msg_req req = { .local_comm_id = 0x77, .service_id = 0x4242,
				  .local_qpn = 0x99, .local_ca_guid = 0x55,
				  .starting_psn = 0x123456 };
	struct ib_cm_id *listen;

	listen = ib_create_cm_id(&fake_dev, record_event, &ev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(listen));
	KUNIT_ASSERT_EQ(test, ib_cm_listen(listen, cpu_to_be64(0x4242)), 0);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(listen, cpu_to_be64(0x4242)), -EINVAL);

	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ev.count, 1);
	KUNIT_EXPECT_EQ(test, ev.last, (int)IB_CM_REQ_RECEIVED);
	KUNIT_ASSERT_NOT_NULL(test, ev.new_id);
	KUNIT_EXPECT_EQ(test, ev.new_id->state, IB_CM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(ev.new_id->remote_id), 0x77U);
	/* An IB address vector: no GID entry to report. */
	KUNIT_EXPECT_PTR_EQ(test, ev.sgid_attr, NULL);
	/*
	 * The REQ's PSN is the one its sender receives from: the one we send
	 * from (6.1's reading, so an inbox peer's QP and ours agree).
	 */
	KUNIT_EXPECT_EQ(test, to_cm_id_priv(ev.new_id)->sq_psn, 0x123456U);

	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	expect_count(test, CM_COUNT_RX_DUP, CM_MSG_REQ, 1);

	req.local_comm_id = 0x78;
	KUNIT_EXPECT_NE(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_REJ);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.reason, (u16)IB_CM_REJ_STALE_CONN);

	wire.sent = 0;
	ib_destroy_cm_id(ev.new_id);
	KUNIT_EXPECT_EQ(test, wire.sent, 1);	/* REJ, consumer defined */
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.reason,
			(u16)IB_CM_REJ_CONSUMER_DEFINED);
	ib_destroy_cm_id(listen);
}

/* The GID entry of the fake RoCE address vector below. */
static struct ib_gid_attr roce_sgid_attr = { .port_num = 1 };

/* A REQ's address vector as RoCE makes it: with the GID it came in on. */
static int roce_av_from_wc(struct cm_av *av, const struct cm_in *in)
{
	av->port = in->port;
	av->valid = true;
	av->ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	av->ah_attr.grh.sgid_attr = &roce_sgid_attr;
	return 0;
}

/*
 * On RoCE the REQ_RECEIVED event names that GID entry (ppath_sgid_attr),
 * as 6.1's does: rdma_cm finds the net device and the listener by it.
 */
static void cm_recv_roce_sgid_attr_test(struct kunit *test)
{
	struct cm_wire_ops roce_wire = fake_wire;
	struct events ev = { .last = NONE };
	struct cm_msg_req req = { .local_comm_id = 0x277, .service_id = 0x4444,
				  .local_qpn = 0x299, .local_ca_guid = 0x255 };
	struct ib_cm_id *listen;
	struct cm_id_priv *priv;

	roce_wire.av_from_wc = roce_av_from_wc;
	cm_wire_set(&roce_wire);
	listen = ib_create_cm_id(&fake_dev, record_event, &ev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(listen));
	KUNIT_ASSERT_EQ(test, ib_cm_listen(listen, cpu_to_be64(0x4444)), 0);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	flush_workqueue(cm.wq);
	KUNIT_ASSERT_NOT_NULL(test, ev.new_id);
	KUNIT_EXPECT_PTR_EQ(test, ev.sgid_attr, &roce_sgid_attr);

	/* The attr is not a real GID entry: no reference to drop. */
	priv = to_cm_id_priv(ev.new_id);
	priv->av.ah_attr.grh.sgid_attr = NULL;
	priv->av.valid = false;
	ib_destroy_cm_id(ev.new_id);
	ib_destroy_cm_id(listen);
	cm_wire_set(&fake_wire);
}

/*
 * The port's cm_rx_msgs counts every CM message that gets past the header
 * checks, taken or dropped later; cm_rx_duplicates the ones seen before
 * (a repeated REQ, a DREQ for a connection gone: 6.1 counts both). What
 * goes out here goes to the fake wire: the cm_tx groups, counted when the
 * MAD layer is done with a send, stay at zero.
 */
static void cm_recv_counters_test(struct kunit *test)
{
	struct events ev = { .last = NONE };
	struct cm_msg_req req = { .local_comm_id = 0x177, .service_id = 0x4343,
				  .local_qpn = 0x199, .local_ca_guid = 0x155 };
	/* Off the stack: each message is a few hundred bytes. */
	struct cm_msg_rtu *rtu = kunit_kzalloc(test, sizeof(*rtu), GFP_KERNEL);
	struct cm_msg_dreq *dreq = kunit_kzalloc(test, sizeof(*dreq), GFP_KERNEL);
	struct ib_cm_id *listen;

	KUNIT_ASSERT_NOT_NULL(test, rtu);
	KUNIT_ASSERT_NOT_NULL(test, dreq);
	rtu->local_comm_id = 4;
	rtu->remote_comm_id = 0xd00d;
	dreq->local_comm_id = 5;
	dreq->remote_comm_id = 0xf00d;
	/* No CM attribute: not a message of any kind. */
	cm_recv_mad(&fake_port, rwc_make(test, IB_MGMT_CLASS_CM, 2,
					 IB_MGMT_METHOD_SEND, 0x30));
	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX), 0L);

	listen = ib_create_cm_id(&fake_dev, record_event, &ev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(listen));
	KUNIT_ASSERT_EQ(test, ib_cm_listen(listen, cpu_to_be64(0x4343)), 0);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	flush_workqueue(cm.wq);
	KUNIT_ASSERT_NOT_NULL(test, ev.new_id);
	expect_count(test, CM_COUNT_RX, CM_MSG_REQ, 1);
	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX_DUP), 0L);

	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	expect_count(test, CM_COUNT_RX, CM_MSG_REQ, 2);
	expect_count(test, CM_COUNT_RX_DUP, CM_MSG_REQ, 1);

	/* Dropped for want of an id, but received all the same. */
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_RTU, rtu)),
			-ENOENT);
	expect_count(test, CM_COUNT_RX, CM_MSG_RTU, 1);
	expect_count(test, CM_COUNT_RX_DUP, CM_MSG_RTU, 0);

	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_DREQ, dreq)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_DREP);
	expect_count(test, CM_COUNT_RX, CM_MSG_DREQ, 1);
	expect_count(test, CM_COUNT_RX_DUP, CM_MSG_DREQ, 1);

	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX), 4L);
	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_RX_DUP), 2L);
	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_TX), 0L);
	KUNIT_EXPECT_EQ(test, port_sum(CM_COUNT_TX_RETRIES), 0L);

	ib_destroy_cm_id(ev.new_id);
	ib_destroy_cm_id(listen);
}

/*
 * An answer to a received message goes once the id's lock is released:
 * on RoCE its address handle resolves the sender's MAC, which sleeps (a
 * repeated RTU under the lock was "scheduling while atomic" in tests/083).
 * Here the MRA a delayed MRA owes a repeated REQ.
 */
static void cm_recv_reply_unlocked_test(struct kunit *test)
{
	struct events ev = { .last = NONE };
	struct cm_msg_req req = { .local_comm_id = 0x277, .service_id = 0x4444,
				  .local_qpn = 0x299, .local_ca_guid = 0x255 };
	struct ib_cm_id *listen;

	listen = ib_create_cm_id(&fake_dev, record_event, &ev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(listen));
	KUNIT_ASSERT_EQ(test, ib_cm_listen(listen, cpu_to_be64(0x4444)), 0);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	flush_workqueue(cm.wq);
	KUNIT_ASSERT_NOT_NULL(test, ev.new_id);
	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(ev.new_id, 24 | IB_CM_MRA_FLAG_DELAY,
					     NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, wire.sent, 0);

	wire.reply_irqs_off = true;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	KUNIT_EXPECT_EQ(test, wire.sent, 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_MRA);
	KUNIT_EXPECT_FALSE(test, wire.reply_irqs_off);
	expect_count(test, CM_COUNT_RX_DUP, CM_MSG_REQ, 1);

	ib_destroy_cm_id(ev.new_id);
	ib_destroy_cm_id(listen);
}

/*
 * Read depths in both directions, with the one-sided depths of an NVMe
 * host (it answers reads, issues none) and its target: the REQ_RECEIVED
 * and REP_RECEIVED events give them from the receiver's side, as 6.1
 * does, so a passive side that copies them into its REP lets the active
 * side answer reads; and each side's QP gets remote read access exactly
 * when it answers reads.
 */
static void cm_recv_rd_atomic_view_test(struct kunit *test)
{
	struct events ev = { .last = NONE }, ea = { .last = NONE };
	struct cm_msg_req req = { .local_comm_id = 0x377, .service_id = 0x4545,
				  .local_qpn = 0x399, .local_ca_guid = 0x355,
				  .responder_resources = 16,
				  .initiator_depth = 0 };
	struct cm_msg_rep *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_cm_id *listen;
	struct cm_id_priv *a;
	int mask;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	listen = ib_create_cm_id(&fake_dev, record_event, &ev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(listen));
	KUNIT_ASSERT_EQ(test, ib_cm_listen(listen, cpu_to_be64(0x4545)), 0);
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REQ, &req)), 0);
	flush_workqueue(cm.wq);
	KUNIT_ASSERT_NOT_NULL(test, ev.new_id);
	/* the sender reads nothing from us, we may read 16 at once from it */
	KUNIT_EXPECT_EQ(test, ev.responder_resources, 0);
	KUNIT_EXPECT_EQ(test, ev.initiator_depth, 16);
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(ev.new_id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags, IB_ACCESS_REMOTE_WRITE);

	/* The active side: its REP offers 16 reads at once, answers none. */
	a = id_in_state(test, IB_CM_REQ_SENT, &ea);
	cm_id_publish(a);
	rep->local_comm_id = 0x6544;
	rep->local_ca_guid = 0x678a;
	rep->local_qpn = 0x68;
	rep->remote_comm_id = be32_to_cpu(a->id.local_id);
	rep->initiator_depth = 16;
	rep->responder_resources = 0;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, cm_mad(test, CM_MSG_REP, rep)),
			0);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, ea.last, (int)IB_CM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ea.responder_resources, 16);
	KUNIT_EXPECT_EQ(test, ea.initiator_depth, 0);
	attr.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(&a->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags,
			IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			IB_ACCESS_REMOTE_ATOMIC);
	cm_id_destroy(a, 0);
	ib_destroy_cm_id(ev.new_id);
	ib_destroy_cm_id(listen);
}

static struct kunit_case cm_table_cases[] = {
	KUNIT_CASE(cm_table_shape_test),
	KUNIT_CASE_PARAM(cm_table_cell_test, cell_gen),
	KUNIT_CASE(cm_table_send_fails_test),
	KUNIT_CASE(cm_table_mra_delay_test),
	KUNIT_CASE(cm_table_destroy_enomem_test),
	KUNIT_CASE(cm_table_destroying_test),
	KUNIT_CASE(cm_convert_to_ms_test),
	KUNIT_CASE(cm_ack_timeout_test),
	{}
};

static struct kunit_suite cm_table_suite = {
	.name = "ib_cm_table",
	.init = cm_test_init,
	.exit = cm_test_exit,
	.test_cases = cm_table_cases,
};

static struct kunit_case cm_recv_cases[] = {
	KUNIT_CASE(cm_recv_check_test),
	KUNIT_CASE(cm_recv_malformed_test),
	KUNIT_CASE(cm_recv_truncated_test),
	KUNIT_CASE(cm_recv_bad_length_test),
	KUNIT_CASE(cm_recv_rep_taken_test),
	KUNIT_CASE(cm_recv_unknown_id_test),
	KUNIT_CASE(cm_recv_no_listener_test),
	KUNIT_CASE(cm_recv_sidr_no_listener_test),
	KUNIT_CASE(cm_recv_listen_req_test),
	KUNIT_CASE(cm_recv_roce_sgid_attr_test),
	KUNIT_CASE(cm_recv_counters_test),
	KUNIT_CASE(cm_recv_reply_unlocked_test),
	KUNIT_CASE(cm_recv_rd_atomic_view_test),
	{}
};

static struct kunit_suite cm_recv_suite = {
	.name = "ib_cm_recv",
	.init = cm_test_init,
	.exit = cm_test_exit,
	.test_cases = cm_recv_cases,
};

kunit_test_suites(&cm_table_suite, &cm_recv_suite);

MODULE_DESCRIPTION("KUnit tests of the IB CM state table");
MODULE_LICENSE("GPL");
