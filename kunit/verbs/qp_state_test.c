// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_qp_state: ib_modify_qp_is_ok() checked cell by cell. */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

/*
 * The expectation below is kept apart from core/verbs/qp_state.c on purpose and
 * is written another way: which moves are legal follows from two rules and
 * a short list, and the attributes are told per QP type, as the life of one
 * QP of that type (Linux 6.1 behaviour, cross-checked with ibv_modify_qp(3)).
 */

#define NR_STATES	(IB_QPS_ERR + 1)
#define NR_TYPES	IB_QPT_MAX
#define KNOWN_ATTRS	GENMASK(25, 0)	/* IB_QP_STATE .. IB_QP_RATE_LIMIT */

#define S(x)	IB_QPS_##x
#define A(x)	IB_QP_##x

struct move {
	enum ib_qp_state from;
	enum ib_qp_state to;
};

/* Legal moves that go neither to RESET nor to ERR. */
static const struct move forward_moves[] = {
	{ S(RESET), S(INIT) },
	{ S(INIT), S(INIT) }, { S(INIT), S(RTR) },
	{ S(RTR), S(RTS) },
	{ S(RTS), S(RTS) }, { S(RTS), S(SQD) },
	{ S(SQD), S(SQD) }, { S(SQD), S(RTS) },
	{ S(SQE), S(RTS) },
};

static bool spec_is_forward(enum ib_qp_state from, enum ib_qp_state to)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(forward_moves); i++)
		if (forward_moves[i].from == from && forward_moves[i].to == to)
			return true;
	return false;
}

/* Any state may be reset, any but RESET may fail into ERR, plus the list. */
static bool spec_is_legal(enum ib_qp_state from, enum ib_qp_state to)
{
	if (to == S(RESET))
		return true;
	if (to == S(ERR))
		return from != S(RESET);
	return spec_is_forward(from, to);
}

/* Where a caller may assert the current state with IB_QP_CUR_STATE. */
static bool spec_cur_state_allowed(enum ib_qp_state from)
{
	return from == S(RTR) || from == S(RTS) || from == S(SQD) || from == S(SQE);
}

/* A forward move and the attributes it takes for one QP type. */
struct step {
	enum ib_qp_state from;
	enum ib_qp_state to;
	u32 req;
	u32 opt;
};

static const struct step ud_steps[] = {
	{ S(RESET), S(INIT), A(PKEY_INDEX) | A(PORT) | A(QKEY), 0 },
	{ S(INIT), S(INIT), 0, A(PKEY_INDEX) | A(PORT) | A(QKEY) },
	{ S(INIT), S(RTR), 0, A(PKEY_INDEX) | A(QKEY) },
	{ S(RTR), S(RTS), A(SQ_PSN), A(CUR_STATE) | A(QKEY) },
	{ S(RTS), S(RTS), 0, A(CUR_STATE) | A(QKEY) },
	{ S(RTS), S(SQD), 0, A(EN_SQD_ASYNC_NOTIFY) },
	{ S(SQD), S(SQD), 0, A(PKEY_INDEX) | A(QKEY) },
	{ S(SQD), S(RTS), 0, A(CUR_STATE) | A(QKEY) },
	{ S(SQE), S(RTS), 0, A(CUR_STATE) | A(QKEY) },
};

/* SMI and GSI: like UD, but the port is fixed when the QP is created. */
static const struct step mad_steps[] = {
	{ S(RESET), S(INIT), A(PKEY_INDEX) | A(QKEY), 0 },
	{ S(INIT), S(INIT), 0, A(PKEY_INDEX) | A(QKEY) },
	{ S(INIT), S(RTR), 0, A(PKEY_INDEX) | A(QKEY) },
	{ S(RTR), S(RTS), A(SQ_PSN), A(CUR_STATE) | A(QKEY) },
	{ S(RTS), S(RTS), 0, A(CUR_STATE) | A(QKEY) },
	{ S(RTS), S(SQD), 0, A(EN_SQD_ASYNC_NOTIFY) },
	{ S(SQD), S(SQD), 0, A(PKEY_INDEX) | A(QKEY) },
	{ S(SQD), S(RTS), 0, A(CUR_STATE) | A(QKEY) },
	{ S(SQE), S(RTS), 0, A(CUR_STATE) | A(QKEY) },
};

static const struct step uc_steps[] = {
	{ S(RESET), S(INIT), A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), 0 },
	{ S(INIT), S(INIT), 0, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
	{ S(INIT), S(RTR),
	  A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN),
	  A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) },
	{ S(RTR), S(RTS), A(SQ_PSN),
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) },
	{ S(RTS), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) },
	{ S(RTS), S(SQD), 0, A(EN_SQD_ASYNC_NOTIFY) },
	{ S(SQD), S(SQD), 0,
	  A(AV) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(PATH_MIG_STATE) },
	{ S(SQD), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) },
	{ S(SQE), S(RTS), 0, A(CUR_STATE) | A(ACCESS_FLAGS) },
};

static const struct step rc_steps[] = {
	{ S(RESET), S(INIT), A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), 0 },
	{ S(INIT), S(INIT), 0, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
	{ S(INIT), S(RTR),
	  A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) |
	  A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER),
	  A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) },
	{ S(RTR), S(RTS),
	  A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) |
	  A(MAX_QP_RD_ATOMIC),
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) |
	  A(MIN_RNR_TIMER) },
	{ S(RTS), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) |
	  A(MIN_RNR_TIMER) },
	{ S(RTS), S(SQD), 0, A(EN_SQD_ASYNC_NOTIFY) },
	{ S(SQD), S(SQD), 0,
	  A(PORT) | A(AV) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) |
	  A(PATH_MIG_STATE) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) |
	  A(MAX_QP_RD_ATOMIC) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER) },
	{ S(SQD), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) |
	  A(MIN_RNR_TIMER) },
	/* SQE -> RTS is legal but takes nothing: RC never enters SQE. */
};

/* XRC initiator: the sending half of RC. */
static const struct step xrc_ini_steps[] = {
	{ S(RESET), S(INIT), A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), 0 },
	{ S(INIT), S(INIT), 0, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
	{ S(INIT), S(RTR),
	  A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN),
	  A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) },
	{ S(RTR), S(RTS),
	  A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) |
	  A(MAX_QP_RD_ATOMIC),
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) },
	{ S(RTS), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) },
	{ S(RTS), S(SQD), 0, A(EN_SQD_ASYNC_NOTIFY) },
	{ S(SQD), S(SQD), 0,
	  A(PORT) | A(AV) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) |
	  A(PATH_MIG_STATE) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) |
	  A(MAX_QP_RD_ATOMIC) },
	{ S(SQD), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) },
};

/* XRC target: the receiving half of RC, plus an ack timeout and SQ PSN. */
static const struct step xrc_tgt_steps[] = {
	{ S(RESET), S(INIT), A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), 0 },
	{ S(INIT), S(INIT), 0, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
	{ S(INIT), S(RTR),
	  A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) |
	  A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER),
	  A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) },
	{ S(RTR), S(RTS), A(SQ_PSN) | A(TIMEOUT),
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) |
	  A(MIN_RNR_TIMER) },
	{ S(RTS), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) |
	  A(MIN_RNR_TIMER) },
	{ S(RTS), S(SQD), 0, A(EN_SQD_ASYNC_NOTIFY) },
	{ S(SQD), S(SQD), 0,
	  A(PORT) | A(AV) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) |
	  A(PATH_MIG_STATE) | A(TIMEOUT) | A(MAX_DEST_RD_ATOMIC) |
	  A(MIN_RNR_TIMER) },
	{ S(SQD), S(RTS), 0,
	  A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE) |
	  A(MIN_RNR_TIMER) },
};

/* Raw Ethernet: a port, and a pacing rate once it sends; nothing else. */
static const struct step raw_packet_steps[] = {
	{ S(RESET), S(INIT), A(PORT), 0 },
	{ S(RTR), S(RTS), 0, A(RATE_LIMIT) },
	{ S(RTS), S(RTS), 0, A(RATE_LIMIT) },
};

struct type_spec {
	const char *name;
	const struct step *steps;
	unsigned int nr_steps;
};

#define STEPS(list)	.steps = list, .nr_steps = ARRAY_SIZE(list)

/* Every value below IB_QPT_MAX; the ones with no steps take no attributes. */
static const struct type_spec type_specs[NR_TYPES] = {
	[IB_QPT_SMI]		= { "SMI", STEPS(mad_steps) },
	[IB_QPT_GSI]		= { "GSI", STEPS(mad_steps) },
	[IB_QPT_RC]		= { "RC", STEPS(rc_steps) },
	[IB_QPT_UC]		= { "UC", STEPS(uc_steps) },
	[IB_QPT_UD]		= { "UD", STEPS(ud_steps) },
	[IB_QPT_RAW_IPV6]	= { "RAW_IPV6" },
	[IB_QPT_RAW_ETHERTYPE]	= { "RAW_ETHERTYPE" },
	[7]			= { "type_7" },	/* unnamed, but below MAX */
	[IB_QPT_RAW_PACKET]	= { "RAW_PACKET", STEPS(raw_packet_steps) },
	[IB_QPT_XRC_INI]	= { "XRC_INI", STEPS(xrc_ini_steps) },
	[IB_QPT_XRC_TGT]	= { "XRC_TGT", STEPS(xrc_tgt_steps) },
};

static const char *const state_names[NR_STATES] = {
	[S(RESET)] = "RESET", [S(INIT)] = "INIT", [S(RTR)] = "RTR",
	[S(RTS)] = "RTS", [S(SQD)] = "SQD", [S(SQE)] = "SQE", [S(ERR)] = "ERR",
};

static const struct step *spec_step(enum ib_qp_type type,
				    enum ib_qp_state from, enum ib_qp_state to)
{
	const struct type_spec *spec = &type_specs[type];
	unsigned int i;

	for (i = 0; i < spec->nr_steps; i++)
		if (spec->steps[i].from == from && spec->steps[i].to == to)
			return &spec->steps[i];
	return NULL;
}

/* ---- one parameter per (QP type, current state, next state) -------------- */

struct cell {
	enum ib_qp_state from;
	enum ib_qp_state to;
	enum ib_qp_type type;
};

static struct cell cells[NR_TYPES * NR_STATES * NR_STATES];

static void cells_fill(void)
{
	unsigned int i = 0;
	int type, from, to;

	for (type = 0; type < NR_TYPES; type++)
		for (from = 0; from < NR_STATES; from++)
			for (to = 0; to < NR_STATES; to++)
				cells[i++] = (struct cell){ from, to, type };
}

static const void *cell_gen_params(const void *prev, char *desc)
{
	const struct cell *c;

	if (!prev)
		cells_fill();
	c = prev ? (const struct cell *)prev + 1 : cells;
	if (c == cells + ARRAY_SIZE(cells))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s->%s",
		 type_specs[c->type].name, state_names[c->from], state_names[c->to]);
	return c;
}

static bool cell_accepts(const struct cell *c, u32 mask)
{
	return ib_modify_qp_is_ok(c->from, c->to, c->type,
				  (enum ib_qp_attr_mask)mask);
}

/* (a) An illegal move is refused whatever comes with it. */
static void expect_refused_always(struct kunit *test, const struct cell *c)
{
	unsigned int b;

	KUNIT_EXPECT_FALSE(test, cell_accepts(c, 0));
	KUNIT_EXPECT_FALSE(test, cell_accepts(c, A(STATE)));
	KUNIT_EXPECT_FALSE(test, cell_accepts(c, KNOWN_ATTRS));
	KUNIT_EXPECT_FALSE(test, cell_accepts(c, ~0u));
	for (b = 0; b < 32; b++)
		KUNIT_EXPECT_FALSE_MSG(test, cell_accepts(c, A(STATE) | BIT(b)),
				       "bit %u", b);
}

/* (b) A legal move takes exactly its required plus any optional attributes. */
static void expect_attr_rules(struct kunit *test, const struct cell *c,
			      u32 req, u32 opt)
{
	u32 base = A(STATE) | req;
	unsigned int b;
	u32 bit;

	KUNIT_EXPECT_TRUE(test, cell_accepts(c, base));
	KUNIT_EXPECT_TRUE(test, cell_accepts(c, req));	/* STATE not demanded */
	KUNIT_EXPECT_TRUE(test, cell_accepts(c, base | opt));
	for (b = 0; b < 32; b++) {
		bit = BIT(b);
		if (bit == A(STATE))
			continue;
		if (req & bit) {
			KUNIT_EXPECT_FALSE_MSG(test, cell_accepts(c, base & ~bit),
					       "required bit %u left out", b);
			KUNIT_EXPECT_FALSE_MSG(test, cell_accepts(c, (base | opt) & ~bit),
					       "required bit %u left out", b);
		} else if (opt & bit) {
			KUNIT_EXPECT_TRUE_MSG(test, cell_accepts(c, base | bit),
					      "optional bit %u", b);
		} else {
			KUNIT_EXPECT_FALSE_MSG(test, cell_accepts(c, base | bit),
					       "foreign bit %u", b);
		}
	}
}

static void qp_cell_test(struct kunit *test)
{
	const struct cell *c = test->param_value;
	const struct step *s = spec_step(c->type, c->from, c->to);

	if (!spec_is_legal(c->from, c->to)) {
		expect_refused_always(test, c);
		return;
	}
	expect_attr_rules(test, c, s ? s->req : 0, s ? s->opt : 0);
	/* (c) CUR_STATE is refused when leaving RESET, INIT or ERR. */
	if (!spec_cur_state_allowed(c->from))
		KUNIT_EXPECT_FALSE(test, cell_accepts(c, A(STATE) | A(CUR_STATE) |
						      (s ? s->req | s->opt : 0)));
}

/* ---- (c) IB_QP_CUR_STATE, one parameter per current state ---------------- */

static const enum ib_qp_state all_states[] = {
	S(RESET), S(INIT), S(RTR), S(RTS), S(SQD), S(SQE), S(ERR),
};

static void state_desc(const enum ib_qp_state *state, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "from %s", state_names[*state]);
}

KUNIT_ARRAY_PARAM(all_states, all_states, state_desc);

/* From RTR, RTS, SQD and SQE it works where optional; never from the rest. */
static void cur_state_rule_test(struct kunit *test)
{
	struct cell c = { .from = *(const enum ib_qp_state *)test->param_value };
	const struct step *s;
	int to, type;
	bool expect;

	for (type = 0; type < NR_TYPES; type++) {
		for (to = 0; to < NR_STATES; to++) {
			c.to = to;
			c.type = type;
			if (!spec_is_legal(c.from, c.to))
				continue;
			s = spec_step(c.type, c.from, c.to);
			expect = spec_cur_state_allowed(c.from) && s &&
				 (s->opt & A(CUR_STATE));
			KUNIT_EXPECT_EQ_MSG(test, cell_accepts(&c, A(STATE) | A(CUR_STATE) |
							       (s ? s->req : 0)),
					    expect, "%s ->%s", type_specs[type].name,
					    state_names[to]);
		}
	}
}

/* ---- (d) values outside the enums ---------------------------------------- */

static const int bad_states[] = { NR_STATES, NR_STATES + 1, 64, INT_MAX, -1, INT_MIN };

static const int bad_types[] = {
	IB_QPT_MAX, IB_QPT_MAX + 1, 0x7f, IB_QPT_DRIVER,
	IB_QPT_RESERVED1, IB_QPT_RESERVED2, IB_QPT_RESERVED3, IB_QPT_RESERVED4,
	IB_QPT_RESERVED5, IB_QPT_RESERVED6, IB_QPT_RESERVED7, IB_QPT_RESERVED8,
	IB_QPT_RESERVED9, IB_QPT_RESERVED10, INT_MAX, -1,
};

static void int_desc(const int *value, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%d (%#x)", *value, *value);
}

KUNIT_ARRAY_PARAM(bad_states, bad_states, int_desc);
KUNIT_ARRAY_PARAM(bad_types, bad_types, int_desc);

/* Masks that some valid state and type would accept, so false means range. */
static const u32 probe_masks[] = { 0, A(STATE), A(STATE) | A(PORT) };

static void bad_state_test(struct kunit *test)
{
	enum ib_qp_state bad = (enum ib_qp_state)*(const int *)test->param_value;
	enum ib_qp_type type;
	unsigned int m;
	int s;

	for (type = 0; type < NR_TYPES; type++) {
		for (m = 0; m < ARRAY_SIZE(probe_masks); m++) {
			for (s = 0; s < NR_STATES; s++) {
				KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(bad, s, type,
									    probe_masks[m]));
				KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(s, bad, type,
									    probe_masks[m]));
			}
			KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(bad, bad, type,
								    probe_masks[m]));
		}
	}
}

static void bad_type_test(struct kunit *test)
{
	enum ib_qp_type bad = (enum ib_qp_type)*(const int *)test->param_value;
	unsigned int m;
	int from, to;

	for (from = 0; from < NR_STATES; from++)
		for (to = 0; to < NR_STATES; to++)
			for (m = 0; m < ARRAY_SIZE(probe_masks); m++)
				KUNIT_EXPECT_FALSE_MSG(test,
						       ib_modify_qp_is_ok(from, to, bad,
									  probe_masks[m]),
						       "%s->%s", state_names[from],
						       state_names[to]);
}

/* ---- the required attribute lists of ibv_modify_qp(3), verbatim ---------- */

/* IBV_QP_* and IB_QP_* are the same bits; the man page names IBV_QP_*. */
struct manpage_row {
	const char *what;
	enum ib_qp_type type;
	enum ib_qp_state from;
	enum ib_qp_state to;
	u32 attrs;
};

static const struct manpage_row manpage_rows[] = {
	{ "UD Reset->Init", IB_QPT_UD, S(RESET), S(INIT),
	  A(STATE) | A(PKEY_INDEX) | A(PORT) | A(QKEY) },
	{ "UD Init->RTR", IB_QPT_UD, S(INIT), S(RTR), A(STATE) },
	{ "UD RTR->RTS", IB_QPT_UD, S(RTR), S(RTS), A(STATE) | A(SQ_PSN) },

	{ "UC Reset->Init", IB_QPT_UC, S(RESET), S(INIT),
	  A(STATE) | A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
	{ "UC Init->RTR", IB_QPT_UC, S(INIT), S(RTR),
	  A(STATE) | A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) },
	{ "UC RTR->RTS", IB_QPT_UC, S(RTR), S(RTS), A(STATE) | A(SQ_PSN) },

	{ "RC Reset->Init", IB_QPT_RC, S(RESET), S(INIT),
	  A(STATE) | A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
	{ "RC Init->RTR", IB_QPT_RC, S(INIT), S(RTR),
	  A(STATE) | A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) |
	  A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER) },
	{ "RC RTR->RTS", IB_QPT_RC, S(RTR), S(RTS),
	  A(STATE) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC) | A(RETRY_CNT) |
	  A(RNR_RETRY) | A(TIMEOUT) },

	{ "RAW_PACKET Reset->Init", IB_QPT_RAW_PACKET, S(RESET), S(INIT),
	  A(STATE) | A(PORT) },
	{ "RAW_PACKET Init->RTR", IB_QPT_RAW_PACKET, S(INIT), S(RTR), A(STATE) },
	{ "RAW_PACKET RTR->RTS", IB_QPT_RAW_PACKET, S(RTR), S(RTS), A(STATE) },
};

static void manpage_desc(const struct manpage_row *row, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", row->what);
}

KUNIT_ARRAY_PARAM(manpage, manpage_rows, manpage_desc);

/* The listed set is accepted; without any one of its attributes it is not. */
static void manpage_required_test(struct kunit *test)
{
	const struct manpage_row *row = test->param_value;
	const struct cell c = { row->from, row->to, row->type };
	unsigned int b;

	KUNIT_EXPECT_TRUE(test, cell_accepts(&c, row->attrs));
	for (b = 0; b < 32; b++) {
		if (BIT(b) == A(STATE) || !(row->attrs & BIT(b)))
			continue;
		KUNIT_EXPECT_FALSE_MSG(test, cell_accepts(&c, row->attrs & ~BIT(b)),
				       "without bit %u", b);
	}
}

/* ---- the expectation tables themselves ----------------------------------- */

static void spec_consistency_test(struct kunit *test)
{
	const struct step *s;
	unsigned int i;
	int type;

	for (type = 0; type < NR_TYPES; type++) {
		KUNIT_ASSERT_NOT_NULL(test, type_specs[type].name);
		for (i = 0; i < type_specs[type].nr_steps; i++) {
			s = &type_specs[type].steps[i];
			KUNIT_EXPECT_TRUE(test, spec_is_forward(s->from, s->to));
			KUNIT_EXPECT_PTR_EQ(test, spec_step(type, s->from, s->to), s);
			KUNIT_EXPECT_EQ(test, s->req & s->opt, 0);
			KUNIT_EXPECT_EQ(test, (s->req | s->opt) & ~KNOWN_ATTRS, 0);
			KUNIT_EXPECT_EQ(test, (s->req | s->opt) & A(STATE), 0);
		}
	}
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(cells), 539);
}

static struct kunit_case ib_core_qp_state_cases[] = {
	KUNIT_CASE_PARAM(qp_cell_test, cell_gen_params),
	KUNIT_CASE_PARAM(cur_state_rule_test, all_states_gen_params),
	KUNIT_CASE_PARAM(bad_state_test, bad_states_gen_params),
	KUNIT_CASE_PARAM(bad_type_test, bad_types_gen_params),
	KUNIT_CASE_PARAM(manpage_required_test, manpage_gen_params),
	KUNIT_CASE(spec_consistency_test),
	{}
};

static struct kunit_suite ib_core_qp_state_suite = {
	.name = "ib_core_qp_state",
	.test_cases = ib_core_qp_state_cases,
};

kunit_test_suite(ib_core_qp_state_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core QP state transition check");
MODULE_LICENSE("GPL");
