// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rxe_req: the decisions of the soft-RoCE requester and completer
 * (sw/rxe/rxe_req.c, rxe_comp.c).
 */
/*
 * Everything here is a pure function of its arguments: which wire opcode a
 * packet gets, how many packets (and PSNs) a message takes, what an AETH
 * syndrome means, how long an RNR wait or an ACK timeout lasts, and where
 * a byte offset falls in an SGE list. The expected values are written out
 * independently of the driver's own tables.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include "sw/rxe/rxe_opcode.h"
#include "sw/rxe/rxe_req.h"
#include "sw/rxe/rxe_comp.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NONE	(-EINVAL)

/*
 * The RC opcode of each position (middle, first, last, only) and the QP
 * types allowed (r = RC, u = UC, d = UD/GSI) for every WR opcode.
 */
struct op_case {
	enum ib_wr_opcode op;
	const char *types;
	int rc[4];
	enum ib_wc_opcode wc;
};

static const struct op_case op_cases[] = {
	{ IB_WR_SEND,			"rud", { 0x01, 0x00, 0x02, 0x04 },
	  IB_WC_SEND },
	{ IB_WR_SEND_WITH_IMM,		"rud", { 0x01, 0x00, 0x03, 0x05 },
	  IB_WC_SEND },
	{ IB_WR_SEND_WITH_INV,		"r",   { 0x01, 0x00, 0x16, 0x17 },
	  IB_WC_SEND },
	{ IB_WR_RDMA_WRITE,		"ru",  { 0x07, 0x06, 0x08, 0x0a },
	  IB_WC_RDMA_WRITE },
	{ IB_WR_RDMA_WRITE_WITH_IMM,	"ru",  { 0x07, 0x06, 0x09, 0x0b },
	  IB_WC_RDMA_WRITE },
	{ IB_WR_RDMA_READ,		"r",   { NONE, NONE, NONE, 0x0c },
	  IB_WC_RDMA_READ },
	{ IB_WR_ATOMIC_CMP_AND_SWP,	"r",   { NONE, NONE, NONE, 0x13 },
	  IB_WC_COMP_SWAP },
	{ IB_WR_ATOMIC_FETCH_AND_ADD,	"r",   { NONE, NONE, NONE, 0x14 },
	  IB_WC_FETCH_ADD },
	{ IB_WR_LOCAL_INV,		"rud", { NONE, NONE, NONE, NONE },
	  IB_WC_LOCAL_INV },
	{ IB_WR_REG_MR,			"rud", { NONE, NONE, NONE, NONE },
	  IB_WC_REG_MR },
	{ IB_WR_BIND_MW,		"ru",  { NONE, NONE, NONE, NONE },
	  IB_WC_BIND_MW },
	{ IB_WR_LSO,			"",    { NONE, NONE, NONE, NONE } },
	{ IB_WR_RDMA_READ_WITH_INV,	"",    { NONE, NONE, NONE, NONE } },
	{ IB_WR_MASKED_ATOMIC_CMP_AND_SWP, "", { NONE, NONE, NONE, NONE } },
	{ IB_WR_REG_MR_INTEGRITY,	"",    { NONE, NONE, NONE, NONE } },
};

/* QP types, their letter in op_case.types and their transport bits. */
static const struct {
	enum ib_qp_type type;
	char letter;
	u8 transport;
	bool datagram;
} qp_kinds[] = {
	{ IB_QPT_RC,  'r', 0x00, false },
	{ IB_QPT_UC,  'u', 0x20, false },
	{ IB_QPT_UD,  'd', 0x60, true },
	{ IB_QPT_GSI, 'd', 0x60, true },
};

static int expected_opcode(const struct op_case *c, int kind, int pos)
{
	if (!strchr(c->types, qp_kinds[kind].letter) || c->rc[pos] < 0)
		return NONE;
	if (qp_kinds[kind].datagram && pos != RXE_POS_ONLY)
		return NONE;	/* a datagram is one packet */
	return qp_kinds[kind].transport | c->rc[pos];
}

static void rxe_req_test_opcode_table(struct kunit *test)
{
	int i, kind, pos;

	for (i = 0; i < ARRAY_SIZE(op_cases); i++)
		for (kind = 0; kind < ARRAY_SIZE(qp_kinds); kind++)
			for (pos = RXE_POS_MIDDLE; pos <= RXE_POS_ONLY; pos++)
				KUNIT_EXPECT_EQ_MSG(test,
						    rxe_wr_opcode(qp_kinds[kind].type,
								  op_cases[i].op, pos),
						    expected_opcode(&op_cases[i], kind, pos),
						    "wr opcode %d, qp type %d, position %d",
						    op_cases[i].op, qp_kinds[kind].type,
						    pos);
}

static void rxe_req_test_allowed(struct kunit *test)
{
	int i, kind;

	for (i = 0; i < ARRAY_SIZE(op_cases); i++) {
		for (kind = 0; kind < ARRAY_SIZE(qp_kinds); kind++)
			KUNIT_EXPECT_EQ(test,
					rxe_wr_allowed(qp_kinds[kind].type,
						       op_cases[i].op),
					!!strchr(op_cases[i].types,
						 qp_kinds[kind].letter));
		/* Transports we do not speak allow nothing. */
		KUNIT_EXPECT_FALSE(test, rxe_wr_allowed(IB_QPT_XRC_INI,
							op_cases[i].op));
		KUNIT_EXPECT_FALSE(test, rxe_wr_allowed(IB_QPT_SMI,
							op_cases[i].op));
		KUNIT_EXPECT_EQ(test, rxe_wr_opcode(IB_QPT_RAW_PACKET,
						    op_cases[i].op,
						    RXE_POS_ONLY), NONE);
	}
	KUNIT_EXPECT_FALSE(test, rxe_wr_allowed(IB_QPT_RC, 0x7f));
}

static void rxe_req_test_op_kinds(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(op_cases); i++) {
		const struct op_case *c = &op_cases[i];
		bool rd_atomic = c->op == IB_WR_RDMA_READ ||
				 c->op == IB_WR_ATOMIC_CMP_AND_SWP ||
				 c->op == IB_WR_ATOMIC_FETCH_AND_ADD;
		bool local = c->op == IB_WR_LOCAL_INV ||
			     c->op == IB_WR_REG_MR || c->op == IB_WR_BIND_MW;

		KUNIT_EXPECT_EQ(test, rxe_wr_is_rd_atomic(c->op), rd_atomic);
		KUNIT_EXPECT_EQ(test, rxe_wr_is_local(c->op), local);
		if (c->types[0])
			KUNIT_EXPECT_EQ(test, rxe_wr_wc_opcode(c->op), c->wc);
	}
}

/* Sizes around multiples of the MTU, and the packets each one takes. */
static void rxe_req_test_num_pkts(struct kunit *test)
{
	static const struct {
		int mtu_mult, delta;
		u32 pkts;
	} sizes[] = {
		{ 0, 0, 1 }, { 0, 1, 1 }, { 1, -1, 1 }, { 1, 0, 1 },
		{ 1, 1, 2 }, { 2, 0, 2 }, { 3, -1, 3 }, { 3, 0, 3 },
		{ 3, 1, 4 },
	};
	enum ib_mtu m;
	int i;

	for (m = IB_MTU_256; m <= IB_MTU_4096; m++) {
		u32 mtu = ib_mtu_enum_to_int(m);

		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			u32 len = sizes[i].mtu_mult * mtu + sizes[i].delta;

			KUNIT_EXPECT_EQ_MSG(test, rxe_req_num_pkts(len, mtu),
					    sizes[i].pkts, "len %u mtu %u",
					    len, mtu);
		}
	}
	/* The largest message. */
	KUNIT_EXPECT_EQ(test, rxe_req_num_pkts(RXE_MAX_MSG_SIZE, 256),
			RXE_MAX_MSG_SIZE / 256);
}

/*
 * A READ request takes one PSN per expected response packet; a READ that
 * is asked again after a lost response takes what is still missing (the
 * det-rc-read-resploss-3000 vector: 3000 bytes at MTU 1024 use PSNs
 * 0x100-0x102; resent from 0x101 for 1976 bytes, two PSNs).
 */
static void rxe_req_test_read_psns(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rxe_req_num_pkts(0, 1024), 1);
	KUNIT_EXPECT_EQ(test, rxe_req_num_pkts(64, 1024), 1);
	KUNIT_EXPECT_EQ(test, rxe_req_num_pkts(3000, 1024), 3);
	KUNIT_EXPECT_EQ(test, rxe_req_num_pkts(3000 - 1024, 1024), 2);
	KUNIT_EXPECT_EQ(test, rxe_req_num_pkts(9000, 4096), 3);
	KUNIT_EXPECT_EQ(test, rxe_req_num_pkts(4096, 1024), 4);
}

/* Every syndrome byte, by class. */
static void rxe_req_test_aeth(struct kunit *test)
{
	static const struct {
		u8 first, last;
		enum rxe_aeth_action action;
		enum ib_wc_status status;
	} classes[] = {
		{ 0x00, 0x1f, RXE_AETH_DO_ACK,   IB_WC_SUCCESS },
		{ 0x20, 0x3f, RXE_AETH_DO_RNR,   IB_WC_SUCCESS },
		{ 0x40, 0x5f, RXE_AETH_DO_DROP,  IB_WC_SUCCESS },
		{ 0x60, 0x60, RXE_AETH_DO_RETRY, IB_WC_SUCCESS },
		{ 0x61, 0x61, RXE_AETH_DO_FAIL,  IB_WC_REM_INV_REQ_ERR },
		{ 0x62, 0x62, RXE_AETH_DO_FAIL,  IB_WC_REM_ACCESS_ERR },
		{ 0x63, 0x63, RXE_AETH_DO_FAIL,  IB_WC_REM_OP_ERR },
		{ 0x64, 0x64, RXE_AETH_DO_FAIL,  IB_WC_REM_INV_RD_REQ_ERR },
		{ 0x65, 0x7f, RXE_AETH_DO_DROP,  IB_WC_SUCCESS },
		{ 0x80, 0xff, RXE_AETH_DO_DROP,  IB_WC_SUCCESS },
	};
	int i, s, seen = 0;

	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		for (s = classes[i].first; s <= classes[i].last; s++, seen++) {
			enum ib_wc_status status = IB_WC_GENERAL_ERR;

			KUNIT_EXPECT_EQ_MSG(test, rxe_comp_aeth_action(s, &status),
					    classes[i].action,
					    "syndrome %#x", s);
			KUNIT_EXPECT_EQ_MSG(test, status, classes[i].status,
					    "syndrome %#x", s);
		}
	}
	KUNIT_EXPECT_EQ(test, seen, 256);
}

/*
 * RNR NAK timer codes. In units of 10 us, code 1 is 1, and from there the
 * waits go 1, 2, 3, 4, 6, 8, 12, 16, ...: even codes are powers of two,
 * odd codes one and a half times the power below. Code 0 is the longest,
 * 2^16 units (655.36 ms).
 */
static u32 rnr_expected_usecs(u8 code)
{
	u32 units;

	if (code == 0)
		units = 1 << 16;
	else if (code == 1)
		units = 1;
	else if (code % 2 == 0)
		units = 1 << (code / 2);
	else
		units = 3 << (code / 2 - 1);
	return units * 10;
}

static void rxe_req_test_rnr_timer(struct kunit *test)
{
	u8 code;

	for (code = 0; code < 32; code++)
		KUNIT_EXPECT_EQ_MSG(test, rxe_comp_rnr_usecs(code),
				    rnr_expected_usecs(code), "code %u", code);
	/* Spot checks from the table itself and the vectors (AETH 0x34). */
	KUNIT_EXPECT_EQ(test, rxe_comp_rnr_usecs(20), 10240);
	KUNIT_EXPECT_EQ(test, rxe_comp_rnr_usecs(31), 491520);
	KUNIT_EXPECT_EQ(test, rxe_comp_rnr_usecs(0), 655360);
	KUNIT_EXPECT_EQ(test, rxe_comp_rnr_usecs(0x34 & 0x1f), 10240);
}

static void rxe_req_test_ack_timeout(struct kunit *test)
{
	u8 code;

	KUNIT_EXPECT_EQ(test, rxe_comp_timeout_ns(0), 0);	/* none */
	for (code = 1; code < 32; code++)
		KUNIT_EXPECT_EQ_MSG(test, rxe_comp_timeout_ns(code),
				    4096ULL * (1ULL << code), "code %u", code);
	/* timeout=14: about 67 ms, as in det-rc-send-ackloss-64. */
	KUNIT_EXPECT_EQ(test, rxe_comp_timeout_ns(14), 67108864ULL);
}

/* Byte offsets in an SGE list of 100, 0, 50 and 200 bytes. */
static void rxe_req_test_dma_seek(struct kunit *test)
{
	static const struct {
		u32 offset, cur_sge, sge_offset, resid;
	} cases[] = {
		{ 0, 0, 0, 350 }, { 99, 0, 99, 251 }, { 100, 2, 0, 250 },
		{ 149, 2, 49, 201 }, { 150, 3, 0, 200 }, { 349, 3, 199, 1 },
		{ 350, 4, 0, 0 },
	};
	struct rxe_send_wqe *wqe;
	struct rxe_dma dma;
	int i;

	wqe = kunit_kzalloc(test, struct_size(wqe, sge, 4), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wqe);
	wqe->num_sge = 4;
	wqe->sge[0].length = 100;
	wqe->sge[1].length = 0;
	wqe->sge[2].length = 50;
	wqe->sge[3].length = 200;
	wqe->length = 350;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rxe_wqe_dma_seek(&dma, wqe, cases[i].offset);
		KUNIT_EXPECT_EQ(test, dma.cur_sge, cases[i].cur_sge);
		KUNIT_EXPECT_EQ(test, dma.sge_offset, cases[i].sge_offset);
		KUNIT_EXPECT_EQ(test, dma.resid, cases[i].resid);
		KUNIT_EXPECT_EQ(test, dma.length, 350);
		KUNIT_EXPECT_EQ(test, dma.num_sge, 4);
	}
}

/* The window: down to 8 after a timeout, doubling on progress up to 128. */
static void rxe_req_test_window(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rxe_comp_window(128, true), 8);
	KUNIT_EXPECT_EQ(test, rxe_comp_window(8, true), 8);
	KUNIT_EXPECT_EQ(test, rxe_comp_window(32, true), 8);
	KUNIT_EXPECT_EQ(test, rxe_comp_window(8, false), 16);
	KUNIT_EXPECT_EQ(test, rxe_comp_window(16, false), 32);
	KUNIT_EXPECT_EQ(test, rxe_comp_window(64, false), 128);
	KUNIT_EXPECT_EQ(test, rxe_comp_window(100, false), 128);
	KUNIT_EXPECT_EQ(test, rxe_comp_window(128, false), 128);
}

static struct kunit_case rxe_req_cases[] = {
	KUNIT_CASE(rxe_req_test_opcode_table),
	KUNIT_CASE(rxe_req_test_allowed),
	KUNIT_CASE(rxe_req_test_op_kinds),
	KUNIT_CASE(rxe_req_test_num_pkts),
	KUNIT_CASE(rxe_req_test_read_psns),
	KUNIT_CASE(rxe_req_test_aeth),
	KUNIT_CASE(rxe_req_test_rnr_timer),
	KUNIT_CASE(rxe_req_test_ack_timeout),
	KUNIT_CASE(rxe_req_test_dma_seek),
	KUNIT_CASE(rxe_req_test_window),
	{}
};

static struct kunit_suite rxe_req_suite = {
	.name = "rxe_req",
	.test_cases = rxe_req_cases,
};

kunit_test_suite(rxe_req_suite);

MODULE_DESCRIPTION("KUnit tests for the soft-RoCE requester and completer decisions");
MODULE_LICENSE("GPL");
