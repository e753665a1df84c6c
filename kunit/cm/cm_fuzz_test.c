// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_cm_fuzz: malformed, cut, misaddressed, repeated and mutated CM
 * MADs through ib_cm's receive path.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <rdma/ib_mad.h>

#include "core/cm/cm.h"
#include "kunit/cm/cm_fixture.h"
#include "kunit/cm/cm_vectors.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * Every MAD here goes into cm_recv_mad(), the function ib_cm's MAD agent
 * hands each receive to, dressed as the MAD layer dresses a receive: a
 * whole 256-byte MAD, zero beyond what arrived, and a completion whose
 * byte count (40 bytes of GRH room included) says how much did. What
 * ib_cm sends goes to the fixture's fake wire.
 *
 * The rule the cases hold ib_cm to: a message it does not take moves
 * exactly one of its drop counters (cm_drops, by reason) and no other,
 * reaches no consumer, and is answered only where 6.1 answers it (a REQ
 * or SIDR REQ nobody listens for, a repeated REQ, REP or DREQ). For each
 * message kind the same message whole is taken first (or refused for its
 * state, LAP and APR, which ib_cm does not implement), so the case shows
 * that what was broken, and only that, made the difference.
 */

#define NONE		(-1)
/* Index of a MAD whose attribute is no CM message. */
#define FUZZ_UNKNOWN	CM_MSG_KINDS
#define FUZZ_KINDS	(CM_MSG_KINDS + 1)
#define FUZZ_GUID	0x00a0c9fffe0f0001ULL
/* The TID every message here carries. */
#define FUZZ_TID_VAL	0x0000000412345678ULL
#define FUZZ_TID	cpu_to_be64(FUZZ_TID_VAL)

/**
 * struct fuzz_target - who takes one message, and the message
 * @ev: the owner's events (the listener's, for REQ and SIDR REQ)
 * @listen: the listener of a REQ or SIDR REQ
 * @priv: the id any other message is for
 * @kind: the message's kind (FUZZ_UNKNOWN: an attribute of no kind)
 * @msg: the message, decoded
 * @mad: the message, encoded with FUZZ_TID
 */
struct fuzz_target {
	struct events		ev;
	struct ib_cm_id		*listen;
	struct cm_id_priv	*priv;
	int			kind;
	union cm_msg_any		*msg;
	struct ib_mad		*mad;
};

/* Comm IDs, QPNs and service IDs no other case uses. */
static u32 fuzz_next = 0x7000;

static u32 fuzz_unique(void)
{
	return fuzz_next++;
}

static u32 local_of(struct cm_id_priv *priv)
{
	return be32_to_cpu(priv->id.local_id);
}

/* ---- Targets: one per message kind, each taking its message whole ------- */

static void target_listen(struct kunit *test, struct fuzz_target *t, u64 sid)
{
	t->listen = ib_create_cm_id(&fake_dev, record_event, &t->ev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->listen));
	KUNIT_ASSERT_EQ(test, ib_cm_listen(t->listen, cpu_to_be64(sid)), 0);
}

/* @t->priv in @s, talking to the peer's comm ID @remote (0: none yet). */
static void target_id(struct kunit *test, struct fuzz_target *t,
		      enum ib_cm_state s, u32 remote)
{
	t->priv = id_in_state(test, s, &t->ev);
	t->priv->id.remote_id = cpu_to_be32(remote);
	cm_id_publish(t->priv);
}

static void fill_req(struct kunit *test, struct fuzz_target *t)
{
	u64 sid = 0x0106000000000000ULL | fuzz_unique();

	target_listen(test, t, sid);
	t->msg->req.local_comm_id = fuzz_unique();
	t->msg->req.service_id = sid;
	t->msg->req.local_qpn = fuzz_unique();
	t->msg->req.local_ca_guid = FUZZ_GUID;
	t->msg->req.starting_psn = 0x1234;
	t->msg->req.pkey = 0xffff;
	t->msg->req.path_mtu = IB_MTU_1024;
	t->msg->req.max_cm_retries = 15;
	t->msg->req.primary.local_ack_timeout = 19;
}

static void fill_mra(struct kunit *test, struct fuzz_target *t)
{
	target_id(test, t, IB_CM_REQ_SENT, 0);
	t->msg->mra.remote_comm_id = local_of(t->priv);
	t->msg->mra.message_mraed = 0;		/* the REQ */
	t->msg->mra.service_timeout = 20;
}

static void fill_rej(struct kunit *test, struct fuzz_target *t)
{
	target_id(test, t, IB_CM_REQ_SENT, 0);
	t->msg->rej.remote_comm_id = local_of(t->priv);
	t->msg->rej.message_rejected = 0;	/* the REQ */
	t->msg->rej.reason = IB_CM_REJ_CONSUMER_DEFINED;
}

static void fill_rep(struct kunit *test, struct fuzz_target *t)
{
	target_id(test, t, IB_CM_REQ_SENT, 0);
	t->msg->rep.remote_comm_id = local_of(t->priv);
	t->msg->rep.local_comm_id = fuzz_unique();
	t->msg->rep.local_qpn = fuzz_unique();
	t->msg->rep.local_ca_guid = FUZZ_GUID;
}

static void fill_rtu(struct kunit *test, struct fuzz_target *t)
{
	u32 remote = fuzz_unique();

	target_id(test, t, IB_CM_REP_SENT, remote);
	t->msg->rtu.local_comm_id = remote;
	t->msg->rtu.remote_comm_id = local_of(t->priv);
}

static void fill_dreq(struct kunit *test, struct fuzz_target *t)
{
	u32 remote = fuzz_unique();

	target_id(test, t, IB_CM_ESTABLISHED, remote);
	t->priv->local_qpn = fuzz_unique();
	t->msg->dreq.local_comm_id = remote;
	t->msg->dreq.remote_comm_id = local_of(t->priv);
	t->msg->dreq.remote_qpn = t->priv->local_qpn;
}

static void fill_drep(struct kunit *test, struct fuzz_target *t)
{
	u32 remote = fuzz_unique();

	target_id(test, t, IB_CM_DREQ_SENT, remote);
	t->msg->drep.local_comm_id = remote;
	t->msg->drep.remote_comm_id = local_of(t->priv);
}

static void fill_sidr_req(struct kunit *test, struct fuzz_target *t)
{
	u64 sid = 0x0111000000000000ULL | fuzz_unique();

	target_listen(test, t, sid);
	t->msg->sidr_req.request_id = fuzz_unique();
	t->msg->sidr_req.pkey = 0xffff;
	t->msg->sidr_req.service_id = sid;
}

static void fill_sidr_rep(struct kunit *test, struct fuzz_target *t)
{
	target_id(test, t, IB_CM_SIDR_REQ_SENT, 0);
	t->msg->sidr_rep.request_id = local_of(t->priv);
	t->msg->sidr_rep.qpn = fuzz_unique();
	t->msg->sidr_rep.qkey = 0x11111111;
}

/* LAP and APR: addressed right, to an established connection. */
static void fill_lap(struct kunit *test, struct fuzz_target *t)
{
	u32 remote = fuzz_unique();

	target_id(test, t, IB_CM_ESTABLISHED, remote);
	t->msg->lap.local_comm_id = remote;
	t->msg->lap.remote_comm_id = local_of(t->priv);
}

static void fill_apr(struct kunit *test, struct fuzz_target *t)
{
	u32 remote = fuzz_unique();

	target_id(test, t, IB_CM_ESTABLISHED, remote);
	t->msg->apr.local_comm_id = remote;
	t->msg->apr.remote_comm_id = local_of(t->priv);
}

static void fill_unknown(struct kunit *test, struct fuzz_target *t)
{
}

/*
 * Each kind: its attribute ID, the target's making, the event the whole
 * message makes (NONE: refused, for the state of a connection that has
 * no use for it), and where its fixed fields end, in bytes from the start
 * of the CM body (IBA 12.6; the private data ends every kind at 232).
 */
static const struct fuzz_kind {
	const char *name;
	u16 attr;
	void (*fill)(struct kunit *test, struct fuzz_target *t);
	s8 event;
	u8 ends[34];
} fuzz_kinds[FUZZ_KINDS] = {
	[CM_MSG_REQ] = { "REQ", 0x10, fill_req, IB_CM_REQ_RECEIVED,
		{ 4, 8, 16, 24, 32, 35, 36, 39, 40, 44, 47, 48, 50, 51, 52,
		  54, 56, 72, 88, 91, 92, 93, 94, 95, 96, 98, 100, 116, 132,
		  135, 136, 137, 138, 140 } },
	[CM_MSG_MRA] = { "MRA", 0x11, fill_mra, IB_CM_MRA_RECEIVED,
		{ 4, 8, 9, 10 } },
	[CM_MSG_REJ] = { "REJ", 0x12, fill_rej, IB_CM_REJ_RECEIVED,
		{ 4, 8, 9, 10, 12, 84 } },
	[CM_MSG_REP] = { "REP", 0x13, fill_rep, IB_CM_REP_RECEIVED,
		{ 4, 8, 12, 15, 16, 19, 20, 23, 24, 25, 26, 27, 28, 36 } },
	[CM_MSG_RTU] = { "RTU", 0x14, fill_rtu, IB_CM_RTU_RECEIVED,
		{ 4, 8 } },
	[CM_MSG_DREQ] = { "DREQ", 0x15, fill_dreq, IB_CM_DREQ_RECEIVED,
		{ 4, 8, 11, 12 } },
	[CM_MSG_DREP] = { "DREP", 0x16, fill_drep, IB_CM_DREP_RECEIVED,
		{ 4, 8 } },
	[CM_MSG_SIDR_REQ] = { "SIDR_REQ", 0x17, fill_sidr_req,
		IB_CM_SIDR_REQ_RECEIVED, { 4, 6, 8, 16 } },
	[CM_MSG_SIDR_REP] = { "SIDR_REP", 0x18, fill_sidr_rep,
		IB_CM_SIDR_REP_RECEIVED, { 4, 5, 6, 8, 11, 12, 20, 24, 96 } },
	[CM_MSG_LAP] = { "LAP", 0x19, fill_lap, NONE,
		{ 4, 8, 15, 16, 20, 22, 24, 40, 56, 59, 60, 61, 62, 63, 64 } },
	[CM_MSG_APR] = { "APR", 0x1a, fill_apr, NONE,
		{ 4, 8, 9, 10, 12, 84 } },
	[FUZZ_UNKNOWN] = { "attr 0x1b", 0x1b, fill_unknown, NONE, {} },
};

/* Encode @t->msg into @t->mad again (after a test changed a field). */
static void target_encode(struct fuzz_target *t)
{
	struct ib_mad_hdr *hdr = &t->mad->mad_hdr;

	memset(t->mad, 0, sizeof(*t->mad));
	cm_msg_hdr_init(hdr, CM_MSG_REQ, FUZZ_TID);
	hdr->attr_id = cpu_to_be16(fuzz_kinds[t->kind].attr);
	if (t->kind < CM_MSG_KINDS)
		cm_msg_encode(t->kind, t->msg, t->mad);
}

static struct fuzz_target *target_make(struct kunit *test, int kind)
{
	struct fuzz_target *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->msg = kunit_kzalloc(test, sizeof(*t->msg), GFP_KERNEL);
	t->mad = kunit_kzalloc(test, sizeof(*t->mad), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->msg);
	KUNIT_ASSERT_NOT_NULL(test, t->mad);
	t->kind = kind;
	t->ev.last = NONE;
	fuzz_kinds[kind].fill(test, t);
	target_encode(t);
	return t;
}

/* Deliver what is queued, then take down the ids the case made. */
static void target_destroy(struct fuzz_target *t)
{
	flush_workqueue(cm.wq);
	if (t->ev.new_id && !t->ev.ret)
		ib_destroy_cm_id(t->ev.new_id);
	if (t->priv)
		cm_id_destroy(t->priv, 0);
	if (t->listen)
		ib_destroy_cm_id(t->listen);
	/* Timewaits here last a millisecond (no path: timeout 0). */
	usleep_range(5000, 10000);
	flush_workqueue(cm.wq);
}

/* ---- Receiving, as the MAD layer hands a MAD over ------------------------- */

struct fuzz_rx {
	struct ib_mad_recv_wc	rwc;
	struct ib_wc		wc;
	struct ib_mad		mad;
};

/* @mad, of which @len bytes arrived, to ib_cm; its return value. */
static int fuzz_feed(struct fuzz_rx *rx, const struct ib_mad *mad, u32 len)
{
	u32 got = min_t(u32, len, sizeof(rx->mad));

	memset(rx, 0, sizeof(*rx));
	memcpy(&rx->mad, mad, got);
	rx->wc.status = IB_WC_SUCCESS;
	rx->wc.opcode = IB_WC_RECV;
	rx->wc.byte_len = sizeof(struct ib_grh) + len;
	rx->wc.src_qp = 1;
	rx->rwc.wc = &rx->wc;
	rx->rwc.mad_len = sizeof(rx->mad);
	rx->rwc.mad_seg_size = sizeof(rx->mad);
	rx->rwc.recv_buf.mad = &rx->mad;
	return cm_recv_mad(&fake_port, &rx->rwc);
}

static struct fuzz_rx *fuzz_rx_alloc(struct kunit *test)
{
	struct fuzz_rx *rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rx);
	return rx;
}

/* ---- Counters: what moved -------------------------------------------------- */

struct fuzz_counts {
	long drops[CM_DROP_REASONS];
	long port[CM_COUNT_GROUPS][CM_MSG_KINDS];
};

static void counts_take(struct fuzz_counts *c)
{
	unsigned int i, k;

	for (i = 0; i < CM_DROP_REASONS; i++)
		c->drops[i] = atomic_long_read(&cm_drops[i]);
	for (i = 0; i < CM_COUNT_GROUPS; i++)
		for (k = 0; k < CM_MSG_KINDS; k++)
			c->port[i][k] = atomic_long_read(&fake_port.counts[i][k]);
}

static const char *const drop_names[CM_DROP_REASONS] = {
	"malformed", "no id", "state", "duplicate", "refused",
};

/*
 * Since @before: the drop counter @reason (NONE: none) moved by one and no
 * other; the port counted @rx received and @dup duplicates of @kind, and
 * nothing else (no sends: they go to the fake wire).
 */
static void expect_moved(struct kunit *test, const struct fuzz_counts *before,
			 int reason, int kind, long rx, long dup)
{
	struct fuzz_counts now;
	unsigned int i, k;

	counts_take(&now);
	for (i = 0; i < CM_DROP_REASONS; i++)
		KUNIT_EXPECT_EQ_MSG(test, now.drops[i] - before->drops[i],
				    (long)((int)i == reason), "drops: %s",
				    drop_names[i]);
	for (i = 0; i < CM_COUNT_GROUPS; i++) {
		for (k = 0; k < CM_MSG_KINDS; k++) {
			long want = 0;

			if ((int)k == kind && i == CM_COUNT_RX)
				want = rx;
			if ((int)k == kind && i == CM_COUNT_RX_DUP)
				want = dup;
			KUNIT_EXPECT_EQ_MSG(test, now.port[i][k] - before->port[i][k],
					    want, "port group %u, %s", i,
					    fuzz_kinds[k].name);
		}
	}
}

/* No event for the owner, no answer on the wire, @t->priv where it was. */
static void expect_untouched(struct kunit *test, struct fuzz_target *t,
			     enum ib_cm_state state)
{
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, t->ev.count, 0);
	KUNIT_EXPECT_EQ(test, wire.sent, 0);
	if (t->priv)
		KUNIT_EXPECT_EQ(test, t->priv->id.state, state);
}

/* The whole message: taken (its event, once), or refused for its state. */
static void expect_whole(struct kunit *test, struct fuzz_target *t,
			 struct fuzz_rx *rx)
{
	const struct fuzz_kind *k = &fuzz_kinds[t->kind];
	struct fuzz_counts before;
	int ret;

	counts_take(&before);
	ret = fuzz_feed(rx, t->mad, sizeof(*t->mad));
	flush_workqueue(cm.wq);
	if (t->kind == FUZZ_UNKNOWN) {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		expect_moved(test, &before, CM_DROP_MALFORMED, NONE, 0, 0);
	} else if (k->event == NONE) {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		expect_moved(test, &before, CM_DROP_STATE, t->kind, 1, 0);
	} else {
		KUNIT_EXPECT_EQ(test, ret, 0);
		expect_moved(test, &before, NONE, t->kind, 1, 0);
		KUNIT_EXPECT_EQ(test, t->ev.count, 1);
		KUNIT_EXPECT_EQ(test, t->ev.last, (int)k->event);
	}
}

/* ---- Cut short ------------------------------------------------------------ */

/* Lengths below a whole MAD worth trying for @kind; returns how many. */
static unsigned int cut_lengths(int kind, u16 *lens)
{
	const u8 *ends = fuzz_kinds[kind].ends;
	unsigned int n = 0, i;

	lens[n++] = 0;
	lens[n++] = 1;
	lens[n++] = sizeof(struct ib_mad_hdr) - 1;
	lens[n++] = sizeof(struct ib_mad_hdr);		/* the header alone */
	for (i = 0; i < ARRAY_SIZE(fuzz_kinds[kind].ends) && ends[i]; i++)
		lens[n++] = sizeof(struct ib_mad_hdr) + ends[i] - 1;
	lens[n++] = sizeof(struct ib_mad) - 1;		/* private data short */
	return n;
}

struct cut_param {
	u8 kind;
	u16 len;
};

static struct cut_param cut_params[FUZZ_KINDS * 40];

static const void *cut_gen(const void *prev, char *desc)
{
	static unsigned int nparams;
	const struct cut_param *p = prev;
	unsigned int n, k;
	u16 lens[40];

	if (!prev) {
		nparams = 0;
		for (k = 0; k < FUZZ_KINDS; k++) {
			unsigned int i, cnt = cut_lengths(k, lens);

			for (i = 0; i < cnt; i++) {
				cut_params[nparams].kind = k;
				cut_params[nparams++].len = lens[i];
			}
		}
		p = cut_params;
	} else {
		p++;
	}
	n = p - cut_params;
	if (n >= nparams)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s cut to %u bytes",
		 fuzz_kinds[p->kind].name, p->len);
	return p;
}

/*
 * A message cut short, also where the MAD says it is whole (mad_len) and
 * only the completion knows better: dropped as malformed, not counted as
 * received, nobody told. The same message whole is then taken.
 */
static void cm_fuzz_cut_test(struct kunit *test)
{
	const struct cut_param *p = test->param_value;
	struct fuzz_target *t = target_make(test, p->kind);
	enum ib_cm_state state = t->priv ? t->priv->id.state : IB_CM_IDLE;
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	struct fuzz_counts before;

	counts_take(&before);
	KUNIT_EXPECT_EQ(test, fuzz_feed(rx, t->mad, p->len), -EINVAL);
	expect_moved(test, &before, CM_DROP_MALFORMED, NONE, 0, 0);
	/* The same length told by mad_len, without a completion. */
	counts_take(&before);
	rx->rwc.wc = NULL;
	rx->rwc.mad_len = p->len;
	KUNIT_EXPECT_EQ(test, cm_recv_mad(&fake_port, &rx->rwc), -EINVAL);
	expect_moved(test, &before, CM_DROP_MALFORMED, NONE, 0, 0);
	expect_untouched(test, t, state);
	expect_whole(test, t, rx);
	target_destroy(t);
}

/* ---- Bad headers ---------------------------------------------------------- */

/* What is wrong with the MAD header: the byte at @offset becomes @value. */
static const struct hdr_fault {
	const char *name;
	u8 offset;
	u8 value;
} hdr_faults[] = {
	{ "base version 0", 0, 0 },
	{ "base version 2 (OPA)", 0, 2 },
	{ "class SA", 1, IB_MGMT_CLASS_SUBN_ADM },
	{ "class 0x27", 1, 0x27 },
	{ "class version 1", 2, 1 },
	{ "class version 3", 2, 3 },
	{ "method GET", 3, IB_MGMT_METHOD_GET },
	{ "method SET", 3, IB_MGMT_METHOD_SET },
	{ "method GET_RESP", 3, IB_MGMT_METHOD_GET_RESP },
	{ "method SEND response", 3, IB_MGMT_METHOD_SEND | 0x80 },
	/* The attribute ID is big-endian: byte 16 is its high byte. */
	{ "attribute 0x01__", 16, 0x01 },
	{ "attribute 0xff__", 16, 0xff },
	{ "attribute 0x0000", 17, 0x00 },
	{ "attribute 0x000f", 17, 0x0f },
	{ "attribute 0x001b", 17, 0x1b },
	{ "attribute 0x00ff", 17, 0xff },
};

static const void *hdr_gen(const void *prev, char *desc)
{
	static unsigned int params[FUZZ_KINDS * ARRAY_SIZE(hdr_faults)];
	unsigned int n = prev ? *(const unsigned int *)prev + 1 : 0;

	if (n >= ARRAY_SIZE(params))
		return NULL;
	params[n] = n;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, %s",
		 fuzz_kinds[n / ARRAY_SIZE(hdr_faults)].name,
		 hdr_faults[n % ARRAY_SIZE(hdr_faults)].name);
	return &params[n];
}

/* A whole message under a header that is no CM message's: malformed. */
static void cm_fuzz_header_test(struct kunit *test)
{
	unsigned int n = *(const unsigned int *)test->param_value;
	const struct hdr_fault *f = &hdr_faults[n % ARRAY_SIZE(hdr_faults)];
	struct fuzz_target *t = target_make(test, n / ARRAY_SIZE(hdr_faults));
	enum ib_cm_state state = t->priv ? t->priv->id.state : IB_CM_IDLE;
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	struct fuzz_counts before;
	u8 *bytes = (u8 *)t->mad;
	u8 saved = bytes[f->offset];

	counts_take(&before);
	bytes[f->offset] = f->value;
	KUNIT_EXPECT_EQ(test, fuzz_feed(rx, t->mad, sizeof(*t->mad)), -EINVAL);
	expect_moved(test, &before, CM_DROP_MALFORMED, NONE, 0, 0);
	expect_untouched(test, t, state);
	bytes[f->offset] = saved;
	expect_whole(test, t, rx);
	target_destroy(t);
}

/* ---- Length fields -------------------------------------------------------- */

/*
 * A length field and a value for it: REJ's ARI length (7 bits), SIDR
 * REP's and APR's additional information length (8 bits), each over 72
 * bytes of room. 72 is what the room holds.
 */
static const struct len_case {
	const char *name;
	u8 kind;
	u8 value;
	s8 drop;	/* the drop reason, NONE: taken */
} len_cases[] = {
	{ "REJ ARI length 73", CM_MSG_REJ, 73, CM_DROP_MALFORMED },
	{ "REJ ARI length 127", CM_MSG_REJ, 127, CM_DROP_MALFORMED },
	{ "REJ ARI length 72", CM_MSG_REJ, 72, NONE },
	{ "SIDR REP info length 73", CM_MSG_SIDR_REP, 73, CM_DROP_MALFORMED },
	{ "SIDR REP info length 255", CM_MSG_SIDR_REP, 255, CM_DROP_MALFORMED },
	{ "SIDR REP info length 72", CM_MSG_SIDR_REP, 72, NONE },
	{ "APR info length 73", CM_MSG_APR, 73, CM_DROP_MALFORMED },
	{ "APR info length 255", CM_MSG_APR, 255, CM_DROP_MALFORMED },
	/* Well formed, and refused: ib_cm has no alternate paths. */
	{ "APR info length 72", CM_MSG_APR, 72, CM_DROP_STATE },
};

static void len_desc(const struct len_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(len, len_cases, len_desc);

/* The field made @value, the room it measures filled. */
static void len_set(struct fuzz_target *t, u8 value)
{
	union cm_msg_any *m = t->msg;

	if (t->kind == CM_MSG_REJ) {
		m->rej.ari_length = value;
		memset(m->rej.ari, 0xa5, sizeof(m->rej.ari));
	} else if (t->kind == CM_MSG_SIDR_REP) {
		m->sidr_rep.info_length = value;
		memset(m->sidr_rep.info, 0xa5, sizeof(m->sidr_rep.info));
	} else {
		m->apr.info_length = value;
		memset(m->apr.info, 0xa5, sizeof(m->apr.info));
	}
}

static void cm_fuzz_length_test(struct kunit *test)
{
	const struct len_case *c = test->param_value;
	struct fuzz_target *t = target_make(test, c->kind);
	enum ib_cm_state state = t->priv->id.state;
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	struct fuzz_counts before;
	int ret;

	len_set(t, c->value);
	target_encode(t);
	counts_take(&before);
	ret = fuzz_feed(rx, t->mad, sizeof(*t->mad));
	flush_workqueue(cm.wq);
	expect_moved(test, &before, c->drop, c->kind, 1, 0);
	if (c->drop != NONE) {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		expect_untouched(test, t, state);
	} else {
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, t->ev.count, 1);
		KUNIT_EXPECT_EQ(test, t->ev.last, (int)fuzz_kinds[c->kind].event);
	}
	target_destroy(t);
}

/* ---- Nobody listens ------------------------------------------------------- */

/*
 * Feed @t, a request whose service nobody offers: it is dropped as for
 * no id, nobody hears it, and one @answer goes back with the request's
 * TID.
 */
static void expect_answered(struct kunit *test, struct fuzz_target *t,
			    enum cm_msg_kind answer)
{
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	struct fuzz_counts before;

	target_encode(t);
	counts_take(&before);
	KUNIT_EXPECT_EQ(test, fuzz_feed(rx, t->mad, sizeof(*t->mad)), -ENOENT);
	flush_workqueue(cm.wq);
	expect_moved(test, &before, CM_DROP_NO_ID, t->kind, 1, 0);
	KUNIT_EXPECT_EQ(test, t->ev.count, 0);
	KUNIT_ASSERT_EQ(test, wire.sent, 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)answer);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), FUZZ_TID_VAL);
}

/*
 * A REQ for a service nobody offers: REJ reason 8 (invalid service ID)
 * back, as 6.1 answers it: the REQ's TID, its comm ID as the remote one,
 * "REQ rejected", no ARI.
 */
static void cm_fuzz_req_no_listener_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_REQ);

	t->msg->req.service_id ^= 0x8000;
	expect_answered(test, t, CM_MSG_REJ);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.reason,
			(u16)IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.remote_comm_id,
			t->msg->req.local_comm_id);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.message_rejected, 0);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.ari_length, 0);
	target_destroy(t);
}

/*
 * A SIDR REQ for a service nobody offers: SIDR REP status 1
 * (IB_SIDR_UNSUPPORTED) back, as 6.1 answers it: the REQ's TID, request
 * ID and service ID, no QPN, no Q_Key.
 */
static void cm_fuzz_sidr_no_listener_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_SIDR_REQ);

	t->msg->sidr_req.service_id ^= 0x8000;
	expect_answered(test, t, CM_MSG_SIDR_REP);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.status,
			(u8)IB_SIDR_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.request_id,
			t->msg->sidr_req.request_id);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.service_id,
			t->msg->sidr_req.service_id);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.qpn, 0U);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.qkey, 0U);
	KUNIT_EXPECT_EQ(test, wire.last.msg.sidr_rep.info_length, 0);
	target_destroy(t);
}

/* ---- Comm IDs nobody has, states that do not take the message ------------ */

/* The message's comm IDs (for a SIDR REP: the request ID) made @local, @remote. */
static void ids_set(struct fuzz_target *t, u32 local, u32 remote)
{
	union cm_msg_any *m = t->msg;

	switch (t->kind) {
	case CM_MSG_SIDR_REP:
		m->sidr_rep.request_id = remote;
		break;
	case CM_MSG_MRA:
		m->mra.local_comm_id = local;
		m->mra.remote_comm_id = remote;
		break;
	case CM_MSG_REJ:
		m->rej.local_comm_id = local;
		m->rej.remote_comm_id = remote;
		break;
	case CM_MSG_REP:
		m->rep.local_comm_id = local;
		m->rep.remote_comm_id = remote;
		break;
	default:
		/* RTU, DREQ, DREP, LAP, APR: the same two words first. */
		m->rtu.local_comm_id = local;
		m->rtu.remote_comm_id = remote;
		break;
	}
}

static const u8 addressed_kinds[] = {
	CM_MSG_MRA, CM_MSG_REJ, CM_MSG_REP, CM_MSG_RTU, CM_MSG_DREQ,
	CM_MSG_DREP, CM_MSG_SIDR_REP, CM_MSG_LAP, CM_MSG_APR,
};

static void kind_desc(const u8 *kind, char *desc)
{
	strscpy(desc, fuzz_kinds[*kind].name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(addressed, addressed_kinds, kind_desc);

/*
 * A message whose comm IDs lead nowhere: an ID nobody has, and, where
 * the target knows its peer's comm ID, our ID with another remote one.
 * Dropped for want of an id; a DREQ is answered with a DREP all the same
 * (the peer missed ours: 6.1 counts it as a duplicate too).
 */
static void cm_fuzz_unknown_id_test(struct kunit *test)
{
	const u8 *kind = test->param_value;
	struct fuzz_target *t = target_make(test, *kind);
	enum ib_cm_state state = t->priv->id.state;
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	bool dreq = *kind == CM_MSG_DREQ;
	struct fuzz_counts before;
	u32 ours = local_of(t->priv);
	u32 nobody = ours ^ 0x00800000;
	unsigned int round;

	for (round = 0; round < 2; round++) {
		if (round == 0)
			ids_set(t, fuzz_unique(), nobody);
		else
			ids_set(t, fuzz_unique(), ours);
		target_encode(t);
		wire.sent = 0;
		counts_take(&before);
		KUNIT_EXPECT_EQ(test, fuzz_feed(rx, t->mad, sizeof(*t->mad)),
				-ENOENT);
		flush_workqueue(cm.wq);
		expect_moved(test, &before, CM_DROP_NO_ID, *kind, 1, dreq);
		KUNIT_EXPECT_EQ(test, t->ev.count, 0);
		KUNIT_EXPECT_EQ(test, t->priv->id.state, state);
		KUNIT_EXPECT_EQ(test, wire.sent, dreq ? 1 : 0);
		/* An id that knows no peer yet is found by our ID alone. */
		if (!t->priv->id.remote_id)
			break;
	}
	if (dreq) {
		KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_DREP);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), FUZZ_TID_VAL);
		KUNIT_EXPECT_EQ(test, wire.last.msg.drep.local_comm_id, ours);
		KUNIT_EXPECT_EQ(test, wire.last.msg.drep.remote_comm_id,
				t->msg->dreq.local_comm_id);
	}
	target_destroy(t);
}

/*
 * A message for an id that has no use for it in its state (an id that
 * has not started anything, IDLE): dropped for the state, nothing sent.
 */
static void cm_fuzz_wrong_state_test(struct kunit *test)
{
	const u8 *kind = test->param_value;
	struct fuzz_target *t = target_make(test, *kind);
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	struct fuzz_counts before;

	spin_lock_irq(&t->priv->lock);
	t->priv->id.state = IB_CM_IDLE;
	t->priv->id.remote_id = 0;
	cm_timewait_forget(t->priv);
	spin_unlock_irq(&t->priv->lock);
	/* Our ID, and no remote one: what an id in IDLE answers to. */
	ids_set(t, 0, local_of(t->priv));
	if (*kind == CM_MSG_MRA)
		t->msg->mra.message_mraed = 0;
	if (*kind == CM_MSG_REJ)
		t->msg->rej.message_rejected = 0;
	target_encode(t);
	counts_take(&before);
	KUNIT_EXPECT_EQ(test, fuzz_feed(rx, t->mad, sizeof(*t->mad)), -EINVAL);
	expect_moved(test, &before, CM_DROP_STATE, *kind, 1, 0);
	expect_untouched(test, t, IB_CM_IDLE);
	target_destroy(t);
}

/* ---- Repeats ------------------------------------------------------------- */

/*
 * @t's message again (it was taken once), with @tid: a duplicate, one
 * drop, counted in the port's cm_rx_duplicates, the owner not told
 * again. Returns how many answers went out for it (left on the wire).
 */
static int feed_repeat(struct kunit *test, struct fuzz_target *t,
		       struct fuzz_rx *rx, u64 tid)
{
	struct fuzz_counts before;

	t->mad->mad_hdr.tid = cpu_to_be64(tid);
	wire.sent = 0;
	counts_take(&before);
	KUNIT_EXPECT_EQ(test, fuzz_feed(rx, t->mad, sizeof(*t->mad)), 0);
	expect_moved(test, &before, CM_DROP_DUPLICATE, t->kind, 1, 1);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, t->ev.count, 1);
	return wire.sent;
}

/*
 * A REQ again, with its TID and then with a new one (a resend): no
 * answer (our REP or REJ is not out yet), the new id still in REQ_RCVD.
 */
static void cm_fuzz_dup_req_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_REQ);
	struct fuzz_rx *rx = fuzz_rx_alloc(test);

	expect_whole(test, t, rx);
	KUNIT_EXPECT_EQ(test, feed_repeat(test, t, rx, FUZZ_TID_VAL), 0);
	KUNIT_EXPECT_EQ(test, feed_repeat(test, t, rx, 0x99), 0);
	KUNIT_ASSERT_NOT_NULL(test, t->ev.new_id);
	KUNIT_EXPECT_EQ(test, t->ev.new_id->state, IB_CM_REQ_RCVD);
	target_destroy(t);
}

/*
 * A REQ from the QP of a live connection under a new comm ID (the peer
 * lost its side of it): refused as stale, answered with a REJ of reason
 * 10 to the new comm ID, as 6.1 does; the listener is not told again.
 */
static void cm_fuzz_stale_req_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_REQ);
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	struct fuzz_counts before;
	u32 fresh = fuzz_unique();

	expect_whole(test, t, rx);
	t->msg->req.local_comm_id = fresh;
	target_encode(t);
	counts_take(&before);
	KUNIT_EXPECT_NE(test, fuzz_feed(rx, t->mad, sizeof(*t->mad)), 0);
	expect_moved(test, &before, CM_DROP_REFUSED, CM_MSG_REQ, 1, 0);
	KUNIT_ASSERT_EQ(test, wire.sent, 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_REJ);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), FUZZ_TID_VAL);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.reason,
			(u16)IB_CM_REJ_STALE_CONN);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.remote_comm_id, fresh);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rej.message_rejected, 0);
	flush_workqueue(cm.wq);
	KUNIT_EXPECT_EQ(test, t->ev.count, 1);
	target_destroy(t);
}

/*
 * A REQ again after our MRA: the MRA again, as 6.1 repeats it: our comm
 * ID and the peer's, "REQ MRAed", our service timeout, the repeat's TID.
 */
static void cm_fuzz_dup_req_mra_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_REQ);
	struct fuzz_rx *rx = fuzz_rx_alloc(test);

	expect_whole(test, t, rx);
	KUNIT_ASSERT_NOT_NULL(test, t->ev.new_id);
	KUNIT_ASSERT_EQ(test, ib_send_cm_mra(t->ev.new_id, 17, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, feed_repeat(test, t, rx, 0x98), 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_MRA);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), 0x98ULL);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.message_mraed, 0);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.service_timeout, 17);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.local_comm_id,
			be32_to_cpu(t->ev.new_id->local_id));
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.remote_comm_id,
			t->msg->req.local_comm_id);
	target_destroy(t);
}

/* A REP again once we are established (our RTU was lost): the RTU again. */
static void cm_fuzz_dup_rep_rtu_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_REP);
	struct fuzz_rx *rx = fuzz_rx_alloc(test);

	expect_whole(test, t, rx);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(&t->priv->id, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, t->priv->id.state, IB_CM_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, feed_repeat(test, t, rx, 0x97), 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_RTU);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), 0x97ULL);
	KUNIT_EXPECT_EQ(test, wire.last.msg.rtu.local_comm_id,
			local_of(t->priv));
	KUNIT_EXPECT_EQ(test, wire.last.msg.rtu.remote_comm_id,
			t->msg->rep.local_comm_id);
	target_destroy(t);
}

/* A REP again once we sent an MRA for it: the MRA again, "REP MRAed". */
static void cm_fuzz_dup_rep_mra_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_REP);
	struct fuzz_rx *rx = fuzz_rx_alloc(test);

	expect_whole(test, t, rx);
	KUNIT_ASSERT_EQ(test, ib_send_cm_mra(&t->priv->id, 21, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, t->priv->id.state, IB_CM_MRA_REP_SENT);
	KUNIT_ASSERT_EQ(test, feed_repeat(test, t, rx, FUZZ_TID_VAL), 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_MRA);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), FUZZ_TID_VAL);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.message_mraed, 1);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.service_timeout, 21);
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.local_comm_id,
			local_of(t->priv));
	KUNIT_EXPECT_EQ(test, wire.last.msg.mra.remote_comm_id,
			t->msg->rep.local_comm_id);
	target_destroy(t);
}

/* A DREQ again once our DREP went (timewait): the DREP again. */
static void cm_fuzz_dup_dreq_test(struct kunit *test)
{
	struct fuzz_target *t = target_make(test, CM_MSG_DREQ);
	struct fuzz_rx *rx = fuzz_rx_alloc(test);

	expect_whole(test, t, rx);
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(&t->priv->id, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, t->priv->id.state, IB_CM_TIMEWAIT);
	KUNIT_ASSERT_EQ(test, feed_repeat(test, t, rx, FUZZ_TID_VAL), 1);
	KUNIT_EXPECT_EQ(test, wire.last_kind, (int)CM_MSG_DREP);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(wire.last.tid), FUZZ_TID_VAL);
	KUNIT_EXPECT_EQ(test, wire.last.msg.drep.local_comm_id,
			local_of(t->priv));
	KUNIT_EXPECT_EQ(test, wire.last.msg.drep.remote_comm_id,
			t->msg->dreq.local_comm_id);
	target_destroy(t);
}

/*
 * An RTU again once established, a SIDR REQ again while its answer is
 * owed: duplicates, nothing said.
 */
static void cm_fuzz_dup_quiet_test(struct kunit *test)
{
	static const u8 kinds[] = { CM_MSG_RTU, CM_MSG_SIDR_REQ };
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct fuzz_target *t = target_make(test, kinds[i]);

		expect_whole(test, t, rx);
		KUNIT_EXPECT_EQ_MSG(test, feed_repeat(test, t, rx, 0x96), 0,
				    "%s", fuzz_kinds[kinds[i]].name);
		target_destroy(t);
	}
}

/* ---- Mutated recordings -------------------------------------------------- */

/* Fixed, so a failure replays: the same mutations on every run. */
#define FUZZ_SEED	0x1b0c3f5aULL
/* Mutations of each byte of each recorded MAD. */
#define FUZZ_ROUNDS	4

/*
 * A recorded MAD of the inbox stack readdressed to a target of this
 * module: its comm IDs (or service ID) made the target's, so that the
 * MAD as recorded would be taken and mutations start from a message that
 * reaches deep. A listener's owner has ib_cm destroy the ids a REQ or
 * SIDR REQ makes (a non-zero return), so none pile up.
 */
static struct fuzz_target *vec_target(struct kunit *test,
				      const struct cm_vec *v)
{
	const struct ib_mad *rec = (const struct ib_mad *)v->mad;
	int kind = cm_msg_kind_of(rec->mad_hdr.attr_id);
	struct fuzz_target *t;
	union cm_msg_any *m;

	if (kind < 0 || rec->mad_hdr.mgmt_class != IB_MGMT_CLASS_CM)
		return NULL;
	t = target_make(test, kind);
	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	cm_msg_decode(kind, rec, m);
	/* Keep the recording, take the addressing of the target. */
	switch (kind) {
	case CM_MSG_REQ:
		m->req.service_id = t->msg->req.service_id;
		break;
	case CM_MSG_SIDR_REQ:
		m->sidr_req.service_id = t->msg->sidr_req.service_id;
		break;
	case CM_MSG_DREQ:
		m->dreq.remote_qpn = t->msg->dreq.remote_qpn;
		fallthrough;
	default:
		memcpy(m, t->msg, 2 * sizeof(u32));
		break;
	}
	memcpy(t->mad, rec, sizeof(*t->mad));
	cm_msg_encode(kind, m, t->mad);
	if (t->listen)
		t->ev.ret = -ECONNREFUSED;
	return t;
}

/*
 * What one MAD may move: at most one drop counter by one, at most one
 * received message (none when it was malformed before it could count),
 * and nothing dropped when it was taken unless as a duplicate. Returns a
 * description of what broke the rule, or NULL.
 */
static const char *feed_consistent(const struct fuzz_counts *b,
				   const struct fuzz_counts *a, int ret)
{
	long drops = 0, rx = 0, dup = 0;
	unsigned int i, k;

	for (i = 0; i < CM_DROP_REASONS; i++) {
		if (a->drops[i] < b->drops[i])
			return "a drop counter went back";
		drops += a->drops[i] - b->drops[i];
	}
	for (k = 0; k < CM_MSG_KINDS; k++) {
		rx += a->port[CM_COUNT_RX][k] - b->port[CM_COUNT_RX][k];
		dup += a->port[CM_COUNT_RX_DUP][k] - b->port[CM_COUNT_RX_DUP][k];
	}
	if (drops > 1)
		return "more than one drop for one MAD";
	if (rx > 1 || dup > rx)
		return "received counted more than once";
	if (!rx && a->drops[CM_DROP_MALFORMED] == b->drops[CM_DROP_MALFORMED])
		return "neither received nor malformed";
	if (ret && ret != -ENOMEM && !drops)
		return "refused without a drop";
	if (!ret && drops &&
	    a->drops[CM_DROP_DUPLICATE] == b->drops[CM_DROP_DUPLICATE])
		return "taken and dropped";
	return NULL;
}

/* The pass's tally, and the counters around one MAD (off the stack). */
struct fuzz_stats {
	unsigned int feeds, bad;
	struct fuzz_counts before, after;
};

static void feed_check(struct kunit *test, struct fuzz_stats *st,
		       struct fuzz_rx *rx, const struct ib_mad *mad, u32 len,
		       unsigned int pos, u8 value)
{
	const char *why;
	int ret;

	counts_take(&st->before);
	ret = fuzz_feed(rx, mad, len);
	counts_take(&st->after);
	st->feeds++;
	why = feed_consistent(&st->before, &st->after, ret);
	if (!why && len < sizeof(*mad) &&
	    st->after.drops[CM_DROP_MALFORMED] !=
	    st->before.drops[CM_DROP_MALFORMED] + 1)
		why = "a cut MAD not dropped as malformed";
	if (why && st->bad++ < 8)
		KUNIT_FAIL(test, "byte %u = 0x%02x, %u bytes: %s (ret %d)", pos,
			   value, len, why, ret);
}

/*
 * Every byte of every recorded MAD, FUZZ_ROUNDS times, set to a random
 * other value (prandom from a fixed seed), each mutant whole and cut to a
 * random length: no crash (KASAN watches every read), every MAD counted
 * by the rule above. Events and answers go where they go.
 */
static void cm_fuzz_mutate_test(struct kunit *test)
{
	struct fuzz_rx *rx = fuzz_rx_alloc(test);
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);
	struct fuzz_stats *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct rnd_state rnd;
	unsigned int v, pos, round;

	KUNIT_ASSERT_NOT_NULL(test, mad);
	KUNIT_ASSERT_NOT_NULL(test, st);
	prandom_seed_state(&rnd, FUZZ_SEED);
	for (v = 0; v < ARRAY_SIZE(cm_vecs); v++) {
		struct fuzz_target *t = vec_target(test, &cm_vecs[v]);

		if (!t)
			continue;
		for (pos = 0; pos < sizeof(*mad); pos++) {
			for (round = 0; round < FUZZ_ROUNDS; round++) {
				u32 r = prandom_u32_state(&rnd);
				u8 value;

				memcpy(mad, t->mad, sizeof(*mad));
				value = ((u8 *)mad)[pos] ^ (1 + r % 255);
				((u8 *)mad)[pos] = value;
				feed_check(test, st, rx, mad, sizeof(*mad),
					   pos, value);
				feed_check(test, st, rx, mad,
					   (r >> 8) % sizeof(*mad), pos, value);
			}
		}
		target_destroy(t);
	}
	kunit_info(test, "%u mutated MADs fed, %u broke the rule\n",
		   st->feeds, st->bad);
	KUNIT_EXPECT_EQ(test, st->bad, 0U);
	KUNIT_EXPECT_GE(test, st->feeds, 2U * FUZZ_ROUNDS * sizeof(*mad));
}

static struct kunit_case cm_fuzz_cases[] = {
	KUNIT_CASE_PARAM(cm_fuzz_cut_test, cut_gen),
	KUNIT_CASE_PARAM(cm_fuzz_header_test, hdr_gen),
	KUNIT_CASE_PARAM(cm_fuzz_length_test, len_gen_params),
	KUNIT_CASE(cm_fuzz_req_no_listener_test),
	KUNIT_CASE(cm_fuzz_sidr_no_listener_test),
	KUNIT_CASE_PARAM(cm_fuzz_unknown_id_test, addressed_gen_params),
	KUNIT_CASE_PARAM(cm_fuzz_wrong_state_test, addressed_gen_params),
	KUNIT_CASE(cm_fuzz_dup_req_test),
	KUNIT_CASE(cm_fuzz_stale_req_test),
	KUNIT_CASE(cm_fuzz_dup_req_mra_test),
	KUNIT_CASE(cm_fuzz_dup_rep_rtu_test),
	KUNIT_CASE(cm_fuzz_dup_rep_mra_test),
	KUNIT_CASE(cm_fuzz_dup_dreq_test),
	KUNIT_CASE(cm_fuzz_dup_quiet_test),
	KUNIT_CASE(cm_fuzz_mutate_test),
	{}
};

static struct kunit_suite cm_fuzz_suite = {
	.name = "ib_cm_fuzz",
	.init = cm_test_init,
	.exit = cm_test_exit,
	.test_cases = cm_fuzz_cases,
};

kunit_test_suites(&cm_fuzz_suite);

MODULE_DESCRIPTION("KUnit fuzz tests of ib_cm's receive path");
MODULE_LICENSE("GPL");
