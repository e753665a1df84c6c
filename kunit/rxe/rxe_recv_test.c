// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rxe_recv: the receive-side decisions of sw/rxe/rxe_recv.c,
 * rxe_resp.c and rxe_resp_send.c, as tables.
 */
/*
 * Each case states the expected answers in its own table, written from
 * the InfiniBand rules (not derived from the driver's opcode table), and
 * runs the driver's functions on them: which request opcode may follow
 * which, where a PSN lies around the 24-bit wrap, how long an ACK may be
 * held, which crafted packet a hand-built QP refuses and with which drop
 * counter, and the bytes of the ACK/NAK headers the responder writes.
 */

#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/udp.h>

#include "sw/rxe/rxe_qp.h"
#include "sw/rxe/rxe_recv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* --- opcode sequences ---------------------------------------------------- */

enum seq_pos { POS_FIRST, POS_MIDDLE, POS_LAST, POS_ONLY };

/**
 * struct seq_op - a request opcode as the sequence rule sees it
 * @op:   BTH opcode
 * @kind: 'S'end, 'W'rite, 'R'ead or 'A'tomic
 * @pos:  place of the packet in its message
 */
struct seq_op {
	u8 op;
	char kind;
	enum seq_pos pos;
};

#define SEQ(tr, name, kind, pos) { IB_OPCODE_##tr##_##name, kind, pos }

static const struct seq_op rc_ops[] = {
	SEQ(RC, SEND_FIRST, 'S', POS_FIRST),
	SEQ(RC, SEND_MIDDLE, 'S', POS_MIDDLE),
	SEQ(RC, SEND_LAST, 'S', POS_LAST),
	SEQ(RC, SEND_LAST_WITH_IMMEDIATE, 'S', POS_LAST),
	SEQ(RC, SEND_LAST_WITH_INVALIDATE, 'S', POS_LAST),
	SEQ(RC, SEND_ONLY, 'S', POS_ONLY),
	SEQ(RC, SEND_ONLY_WITH_IMMEDIATE, 'S', POS_ONLY),
	SEQ(RC, SEND_ONLY_WITH_INVALIDATE, 'S', POS_ONLY),
	SEQ(RC, RDMA_WRITE_FIRST, 'W', POS_FIRST),
	SEQ(RC, RDMA_WRITE_MIDDLE, 'W', POS_MIDDLE),
	SEQ(RC, RDMA_WRITE_LAST, 'W', POS_LAST),
	SEQ(RC, RDMA_WRITE_LAST_WITH_IMMEDIATE, 'W', POS_LAST),
	SEQ(RC, RDMA_WRITE_ONLY, 'W', POS_ONLY),
	SEQ(RC, RDMA_WRITE_ONLY_WITH_IMMEDIATE, 'W', POS_ONLY),
	SEQ(RC, RDMA_READ_REQUEST, 'R', POS_ONLY),
	SEQ(RC, COMPARE_SWAP, 'A', POS_ONLY),
	SEQ(RC, FETCH_ADD, 'A', POS_ONLY),
};

static const struct seq_op uc_ops[] = {
	SEQ(UC, SEND_FIRST, 'S', POS_FIRST),
	SEQ(UC, SEND_MIDDLE, 'S', POS_MIDDLE),
	SEQ(UC, SEND_LAST, 'S', POS_LAST),
	SEQ(UC, SEND_LAST_WITH_IMMEDIATE, 'S', POS_LAST),
	SEQ(UC, SEND_ONLY, 'S', POS_ONLY),
	SEQ(UC, SEND_ONLY_WITH_IMMEDIATE, 'S', POS_ONLY),
	SEQ(UC, RDMA_WRITE_FIRST, 'W', POS_FIRST),
	SEQ(UC, RDMA_WRITE_MIDDLE, 'W', POS_MIDDLE),
	SEQ(UC, RDMA_WRITE_LAST, 'W', POS_LAST),
	SEQ(UC, RDMA_WRITE_LAST_WITH_IMMEDIATE, 'W', POS_LAST),
	SEQ(UC, RDMA_WRITE_ONLY, 'W', POS_ONLY),
	SEQ(UC, RDMA_WRITE_ONLY_WITH_IMMEDIATE, 'W', POS_ONLY),
};

/* The rule: an open message goes on with its own kind, else a new one. */
static bool seq_expected(const struct seq_op *prev, const struct seq_op *next)
{
	bool open = prev->pos == POS_FIRST || prev->pos == POS_MIDDLE;
	bool goes_on = next->pos == POS_MIDDLE || next->pos == POS_LAST;

	if (open)
		return goes_on && next->kind == prev->kind;
	return !goes_on;
}

static void seq_check_all(struct kunit *test, const struct seq_op *ops,
			  size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    rxe_resp_seq_valid(ops[i].op, ops[j].op),
					    seq_expected(&ops[i], &ops[j]),
					    "%s then %s",
					    rxe_opcode_name(ops[i].op),
					    rxe_opcode_name(ops[j].op));
}

static void seq_rc_test(struct kunit *test)
{
	seq_check_all(test, rc_ops, ARRAY_SIZE(rc_ops));
}

static void seq_uc_test(struct kunit *test)
{
	seq_check_all(test, uc_ops, ARRAY_SIZE(uc_ops));
}

/* A few pairs spelled out, and opcodes that are no requests. */
static void seq_examples_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, rxe_resp_seq_valid(IB_OPCODE_RC_SEND_FIRST,
						   IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE));
	KUNIT_EXPECT_FALSE(test, rxe_resp_seq_valid(IB_OPCODE_RC_SEND_FIRST,
						    IB_OPCODE_RC_RDMA_WRITE_LAST));
	KUNIT_EXPECT_FALSE(test, rxe_resp_seq_valid(IB_OPCODE_RC_RDMA_WRITE_MIDDLE,
						    IB_OPCODE_RC_RDMA_READ_REQUEST));
	KUNIT_EXPECT_TRUE(test, rxe_resp_seq_valid(IB_OPCODE_RC_RDMA_READ_REQUEST,
						   IB_OPCODE_RC_COMPARE_SWAP));
	KUNIT_EXPECT_FALSE(test, rxe_resp_seq_valid(IB_OPCODE_RC_SEND_ONLY,
						    IB_OPCODE_RC_SEND_MIDDLE));
	/* responses never enter the responder's sequence */
	KUNIT_EXPECT_FALSE(test, rxe_resp_seq_valid(IB_OPCODE_RC_SEND_ONLY,
						    IB_OPCODE_RC_ACKNOWLEDGE));
	KUNIT_EXPECT_FALSE(test, rxe_resp_seq_valid(IB_OPCODE_RC_SEND_ONLY,
						    IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST));
}

/* --- PSN classification ---------------------------------------------------- */

struct psn_case {
	u32 expected;
	u32 psn;
	enum rxe_resp_psn_class class;
};

static const struct psn_case psn_cases[] = {
	{ 0x000000, 0x000000, RXE_PSN_EXPECTED },
	{ 0x000100, 0x000100, RXE_PSN_EXPECTED },
	{ 0xffffff, 0xffffff, RXE_PSN_EXPECTED },
	{ 0x000100, 0x0000ff, RXE_PSN_DUPLICATE },
	{ 0x000100, 0x000101, RXE_PSN_AHEAD },
	/* across the wrap */
	{ 0x000000, 0xffffff, RXE_PSN_DUPLICATE },
	{ 0x000001, 0xfffffe, RXE_PSN_DUPLICATE },
	{ 0xffffff, 0x000000, RXE_PSN_AHEAD },
	{ 0xfffffe, 0x000001, RXE_PSN_AHEAD },
	/* the edges of the half circles */
	{ 0x000000, 0x7fffff, RXE_PSN_AHEAD },
	{ 0x000000, 0x800001, RXE_PSN_DUPLICATE },
	{ 0x800000, 0x000001, RXE_PSN_DUPLICATE },
	{ 0x7fffff, 0xfffffe, RXE_PSN_AHEAD },
	{ 0xfffffe, 0x7fffff, RXE_PSN_DUPLICATE },
};

static void psn_case_desc(const struct psn_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "expected %#08x psn %#08x",
		 c->expected, c->psn);
}

KUNIT_ARRAY_PARAM(psn, psn_cases, psn_case_desc);

static void psn_classify_test(struct kunit *test)
{
	const struct psn_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rxe_resp_psn_classify(c->expected, c->psn),
			c->class);
}

/* --- holding ACKs --------------------------------------------------------- */

struct ack_case {
	u32 owed;
	u32 from;
	u32 psn;
	bool more;
	bool hold;
};

static const struct ack_case ack_cases[] = {
	/* nothing queued behind: always answer now */
	{ 0, 0x000000, 0x000005, false, false },
	{ 3, 0x000000, 0x000005, false, false },
	/* the first request asking for an ACK may wait for the next one */
	{ 0, 0x123456, 0x000005, true, true },
	/* up to eight held, the eighth is answered */
	{ 6, 0x000000, 0x000006, true, true },
	{ 7, 0x000000, 0x000007, true, false },
	{ 100, 0x000000, 0x000007, true, false },
	/* within 32 PSNs of the oldest held; 32 or more: answer */
	{ 1, 0x000100, 0x00011f, true, true },
	{ 1, 0x000100, 0x000120, true, false },
	{ 2, 0x000100, 0x000180, true, false },
	/* the same across the 24-bit wrap */
	{ 1, 0xfffff0, 0x00000f, true, true },
	{ 1, 0xfffff0, 0x000010, true, false },
	/*
	 * A requester asking every 32 PSNs (ours) gets an ACK at least
	 * every second request, 64 PSNs: half its 128-packet window.
	 */
	{ 1, 0x00001f, 0x00003f, true, false },
};

static void ack_case_desc(const struct ack_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "owed %u from %#08x psn %#08x%s",
		 c->owed, c->from, c->psn, c->more ? " more" : "");
}

KUNIT_ARRAY_PARAM(ack, ack_cases, ack_case_desc);

static void ack_hold_test(struct kunit *test)
{
	const struct ack_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rxe_resp_ack_hold(c->owed, c->from, c->psn,
						c->more), c->hold);
}

/* --- receive checks on a hand-built QP ------------------------------------- */

#define PEER_IP4	0x0a630002	/* 10.99.0.2 */
#define OTHER_IP4	0x0a630003
#define QP_QKEY		0x11111111

static const struct in6_addr peer_ip6 = {
	.s6_addr = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 },
};

/* No check fails: the counter field is not looked at. */
#define RECV_OK		RXE_NUM_COUNTERS

/**
 * struct recv_case - one crafted packet for one QP
 * @name:     description
 * @qp_type:  type of the QP
 * @state:    state of the QP
 * @opcode:   BTH opcode of the packet
 * @pkey:     BTH P_Key
 * @qkey:     DETH Q_Key (UD opcodes)
 * @saddr:    IPv4 source address (0: IPv6 from @v6_src)
 * @v6_other: IPv6 source differs from the QP's peer
 * @drop:     expected drop counter, or RECV_OK
 */
struct recv_case {
	const char *name;
	enum ib_qp_type qp_type;
	enum ib_qp_state state;
	u8 opcode;
	u16 pkey;
	u32 qkey;
	u32 saddr;
	bool v6_other;
	enum rxe_counter drop;
};

/* An RC case's packet, @qp_type to @qkey; the row goes on with @saddr. */
#define RC_PKT(st, op)	.qp_type = IB_QPT_RC, IB_QPS_##st, IB_OPCODE_RC_##op, 0xffff, 0

static const struct recv_case recv_cases[] = {
	{ "rc send", RC_PKT(RTS, SEND_ONLY), PEER_IP4, false, RECV_OK },
	{ "rc send in RTR", RC_PKT(RTR, SEND_ONLY), PEER_IP4, false, RECV_OK },
	{ "rc send in SQD", RC_PKT(SQD, SEND_ONLY), PEER_IP4, false, RECV_OK },
	{ "rc ack in RTS", RC_PKT(RTS, ACKNOWLEDGE), PEER_IP4, false, RECV_OK },
	{ "rc send in RESET", RC_PKT(RESET, SEND_ONLY), PEER_IP4, false,
	  RXE_CNT_DROP_QP_STATE },
	{ "rc send in INIT", RC_PKT(INIT, SEND_ONLY), PEER_IP4, false,
	  RXE_CNT_DROP_QP_STATE },
	{ "rc send in ERR", RC_PKT(ERR, SEND_ONLY), PEER_IP4, false,
	  RXE_CNT_DROP_QP_STATE },
	{ "rc ack in RTR", RC_PKT(RTR, ACKNOWLEDGE), PEER_IP4, false,
	  RXE_CNT_DROP_QP_STATE },
	{ "rc read response in ERR", RC_PKT(ERR, RDMA_READ_RESPONSE_ONLY),
	  PEER_IP4, false, RXE_CNT_DROP_QP_STATE },
	{ "uc opcode on rc", IB_QPT_RC, IB_QPS_RTS, IB_OPCODE_UC_SEND_ONLY,
	  0xffff, 0, PEER_IP4, false, RXE_CNT_DROP_QP_TYPE },
	{ "ud opcode on rc", IB_QPT_RC, IB_QPS_RTS, IB_OPCODE_UD_SEND_ONLY,
	  0xffff, QP_QKEY, PEER_IP4, false, RXE_CNT_DROP_QP_TYPE },
	{ "rc opcode on uc", IB_QPT_UC, IB_QPS_RTS, IB_OPCODE_RC_SEND_ONLY,
	  0xffff, 0, PEER_IP4, false, RXE_CNT_DROP_QP_TYPE },
	{ "rc opcode on ud", IB_QPT_UD, IB_QPS_RTS, IB_OPCODE_RC_SEND_ONLY,
	  0xffff, 0, PEER_IP4, false, RXE_CNT_DROP_QP_TYPE },
	{ "uc opcode on gsi", IB_QPT_GSI, IB_QPS_RTS, IB_OPCODE_UC_SEND_ONLY,
	  0xffff, 0, PEER_IP4, false, RXE_CNT_DROP_QP_TYPE },
	{ "rc bad pkey", IB_QPT_RC, IB_QPS_RTS, IB_OPCODE_RC_SEND_ONLY, 0x1234,
	  0, PEER_IP4, false, RXE_CNT_DROP_PKEY },
	{ "rc limited pkey", IB_QPT_RC, IB_QPS_RTS, IB_OPCODE_RC_SEND_ONLY,
	  0x7fff, 0, PEER_IP4, false, RECV_OK },
	{ "rc pkey of another partition", IB_QPT_RC, IB_QPS_RTS,
	  IB_OPCODE_RC_SEND_ONLY, 0x8001, 0, PEER_IP4, false,
	  RXE_CNT_DROP_PKEY },
	{ "uc write", IB_QPT_UC, IB_QPS_RTS, IB_OPCODE_UC_RDMA_WRITE_ONLY,
	  0xffff, 0, PEER_IP4, false, RECV_OK },
	{ "rc from another address", RC_PKT(RTS, SEND_ONLY), OTHER_IP4, false,
	  RXE_CNT_DROP_ADDR },
	{ "rc over ipv6", RC_PKT(RTS, SEND_ONLY), 0, false, RECV_OK },
	{ "rc over ipv6 from another address", RC_PKT(RTS, SEND_ONLY), 0, true,
	  RXE_CNT_DROP_ADDR },
	{ "ud send", IB_QPT_UD, IB_QPS_RTS, IB_OPCODE_UD_SEND_ONLY, 0xffff,
	  QP_QKEY, OTHER_IP4, false, RECV_OK },
	{ "ud bad qkey", IB_QPT_UD, IB_QPS_RTS, IB_OPCODE_UD_SEND_ONLY, 0xffff,
	  QP_QKEY + 1, OTHER_IP4, false, RXE_CNT_DROP_QKEY },
	{ "ud bad pkey", IB_QPT_UD, IB_QPS_RTS, IB_OPCODE_UD_SEND_ONLY, 0x0001,
	  QP_QKEY, OTHER_IP4, false, RXE_CNT_DROP_PKEY },
	{ "ud in INIT", IB_QPT_UD, IB_QPS_INIT, IB_OPCODE_UD_SEND_ONLY, 0xffff,
	  QP_QKEY, OTHER_IP4, false, RXE_CNT_DROP_QP_STATE },
	{ "gsi mad", IB_QPT_GSI, IB_QPS_RTS, IB_OPCODE_UD_SEND_ONLY, 0xffff,
	  RXE_GSI_QKEY, OTHER_IP4, false, RECV_OK },
	{ "gsi with the qp's own qkey", IB_QPT_GSI, IB_QPS_RTS,
	  IB_OPCODE_UD_SEND_ONLY, 0xffff, QP_QKEY, OTHER_IP4, false,
	  RXE_CNT_DROP_QKEY },
};

static void recv_case_desc(const struct recv_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(recv, recv_cases, recv_case_desc);

static struct rxe_qp *recv_test_qp(struct kunit *test,
				   const struct recv_case *c)
{
	struct rxe_dev *rxe = kunit_kzalloc(test, sizeof(*rxe), GFP_KERNEL);
	struct rxe_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rxe);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->rxe = rxe;
	qp->ibqp.device = &rxe->ib_dev;
	qp->ibqp.qp_type = c->qp_type;
	qp->ibqp.qp_num = c->qp_type == IB_QPT_GSI ? 1 : 17;
	spin_lock_init(&qp->state_lock);
	qp->state = c->state;
	qp->attr.pkey = 0xffff;
	qp->attr.qkey = QP_QKEY;
	if (c->saddr) {
		qp->av.network_type = RDMA_NETWORK_IPV4;
		ipv6_addr_set_v4mapped(htonl(PEER_IP4),
				       (struct in6_addr *)qp->av.dgid.raw);
	} else {
		qp->av.network_type = RDMA_NETWORK_IPV6;
		memcpy(qp->av.dgid.raw, &peer_ip6, sizeof(peer_ip6));
	}
	return qp;
}

/* IP | UDP | BTH [| DETH] | ICRC, as the receive path leaves it. */
static struct sk_buff *recv_test_skb(struct kunit *test,
				     const struct recv_case *c)
{
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);
	struct rxe_pkt *pkt;
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	skb_reset_network_header(skb);
	if (c->saddr) {
		struct iphdr *ip = skb_put_zero(skb, sizeof(*ip));

		ip->version = 4;
		ip->ihl = 5;
		ip->protocol = IPPROTO_UDP;
		ip->saddr = htonl(c->saddr);
		ip->daddr = htonl(0x0a630001);
	} else {
		struct ipv6hdr *ip6 = skb_put_zero(skb, sizeof(*ip6));

		ip6->version = 6;
		ip6->nexthdr = IPPROTO_UDP;
		ip6->saddr = peer_ip6;
		if (c->v6_other)
			ip6->saddr.s6_addr[15] = 3;
	}
	skb_set_transport_header(skb, skb->len);
	skb_put_zero(skb, sizeof(struct udphdr));

	pkt = RXE_SKB_PKT(skb);
	memset(pkt, 0, sizeof(*pkt));
	len = rxe_opcode[c->opcode].length + RXE_ICRC_SIZE;
	pkt->hdr = skb_put_zero(skb, len);
	pkt->opcode = c->opcode;
	pkt->flags = rxe_opcode[c->opcode].flags;
	pkt->paylen = len;
	pkt->psn = 0x100;
	pkt->port = 1;
	rxe_bth_init(pkt, false, 0, c->pkey, 17, true, pkt->psn);
	if (pkt->flags & RXE_OPF_DETH)
		rxe_deth_set(pkt, c->qkey, 0x2e);
	return skb;
}

static void recv_check_test(struct kunit *test)
{
	const struct recv_case *c = test->param_value;
	struct rxe_qp *qp = recv_test_qp(test, c);
	struct sk_buff *skb = recv_test_skb(test, c);
	enum rxe_counter drop = RECV_OK;
	int err;

	err = rxe_recv_check(qp, skb, &drop);
	if (c->drop == RECV_OK) {
		KUNIT_EXPECT_EQ(test, err, 0);
	} else {
		KUNIT_EXPECT_EQ(test, err, -EINVAL);
		KUNIT_EXPECT_EQ(test, drop, c->drop);
	}
	kfree_skb(skb);
}

/* --- ACK and NAK headers ----------------------------------------------------- */

/* Syndromes by the book: type in the top three bits, value in the rest. */
static void aeth_syndrome_test(struct kunit *test)
{
	u8 t;

	KUNIT_EXPECT_EQ(test, rxe_resp_syndrome_ack(), 0x1f);
	for (t = 0; t < 32; t++)
		KUNIT_EXPECT_EQ(test, rxe_resp_syndrome_rnr(t), 0x20 + t);
	KUNIT_EXPECT_EQ(test, rxe_resp_syndrome_nak(RXE_AETH_NAK_PSN_SEQ), 0x60);
	KUNIT_EXPECT_EQ(test, rxe_resp_syndrome_nak(RXE_AETH_NAK_INVALID), 0x61);
	KUNIT_EXPECT_EQ(test, rxe_resp_syndrome_nak(RXE_AETH_NAK_ACCESS), 0x62);
	KUNIT_EXPECT_EQ(test,
			rxe_resp_syndrome_nak(RXE_AETH_NAK_OPERATIONAL), 0x63);
	KUNIT_EXPECT_EQ(test, rxe_resp_syndrome_nak(RXE_AETH_NAK_INV_RD), 0x64);
}

/**
 * struct hdr_case - one reply header the responder writes
 * @name:     description
 * @opcode:   reply opcode
 * @syndrome: AETH syndrome passed in
 * @psn:      PSN passed in
 * @pad:      pad count passed in
 * @wire:     the 16 bytes expected from the BTH on (an AETH, or 0xaa
 *            filler left alone when the opcode has none)
 */
struct hdr_case {
	const char *name;
	u8 opcode;
	u8 syndrome;
	u32 psn;
	u8 pad;
	u8 wire[16];
};

/*
 * QP of these cases: destination QPN 0x123456, MSN 0x000042. The BTH from
 * byte 0; the row goes on with byte 12.
 */
#define BTH_TO_QP(op, flags, psn2, psn1, psn0) \
	[0] = op, flags, 0xff, 0xff, 0x00, 0x12, 0x34, 0x56, 0x00, psn2, psn1, psn0

static const struct hdr_case hdr_cases[] = {
	{ "ack", IB_OPCODE_RC_ACKNOWLEDGE, 0x1f, 0x000100, 0,
	  { BTH_TO_QP(0x11, 0x00, 0x00, 0x01, 0x00), 0x1f, 0x00, 0x00, 0x42 } },
	{ "rnr nak timer 20", IB_OPCODE_RC_ACKNOWLEDGE, 0x34, 0xabcdef, 0,
	  { BTH_TO_QP(0x11, 0x00, 0xab, 0xcd, 0xef), 0x34, 0x00, 0x00, 0x42 } },
	{ "psn sequence nak", IB_OPCODE_RC_ACKNOWLEDGE, 0x60, 0xffffff, 0,
	  { BTH_TO_QP(0x11, 0x00, 0xff, 0xff, 0xff), 0x60, 0x00, 0x00, 0x42 } },
	{ "invalid request nak", IB_OPCODE_RC_ACKNOWLEDGE, 0x61, 0x000000, 0,
	  { BTH_TO_QP(0x11, 0x00, 0x00, 0x00, 0x00), 0x61, 0x00, 0x00, 0x42 } },
	{ "remote access nak", IB_OPCODE_RC_ACKNOWLEDGE, 0x62, 0x000001, 0,
	  { BTH_TO_QP(0x11, 0x00, 0x00, 0x00, 0x01), 0x62, 0x00, 0x00, 0x42 } },
	{ "operational nak", IB_OPCODE_RC_ACKNOWLEDGE, 0x63, 0x000002, 0,
	  { BTH_TO_QP(0x11, 0x00, 0x00, 0x00, 0x02), 0x63, 0x00, 0x00, 0x42 } },
	{ "atomic ack", IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0x1f, 0x5958b0, 0,
	  { BTH_TO_QP(0x12, 0x00, 0x59, 0x58, 0xb0), 0x1f, 0x00, 0x00, 0x42 } },
	{ "read response first", IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST, 0x1f,
	  0x000100, 0,
	  { BTH_TO_QP(0x0d, 0x00, 0x00, 0x01, 0x00), 0x1f, 0x00, 0x00, 0x42 } },
	{ "read response middle: no aeth",
	  IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE, 0x1f, 0x000101, 0,
	  { BTH_TO_QP(0x0e, 0x00, 0x00, 0x01, 0x01), 0xaa, 0xaa, 0xaa, 0xaa } },
	{ "read response last, pad 3", IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST,
	  0x1f, 0x000102, 3,
	  { BTH_TO_QP(0x0f, 0x30, 0x00, 0x01, 0x02), 0x1f, 0x00, 0x00, 0x42 } },
};

static void hdr_case_desc(const struct hdr_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(hdr, hdr_cases, hdr_case_desc);

static void hdr_fill_test(struct kunit *test)
{
	const struct hdr_case *c = test->param_value;
	struct rxe_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	struct rxe_pkt reply = { .opcode = c->opcode };
	u8 buf[16];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->attr.dest_qpn = 0x123456;
	qp->attr.pkey = 0xffff;
	qp->resp.msn = 0x42;
	memset(buf, 0xaa, sizeof(buf));
	reply.hdr = buf;
	reply.flags = rxe_opcode[c->opcode].flags;

	rxe_resp_hdr_fill(qp, &reply, c->syndrome, c->psn, c->pad);
	for (i = 0; i < sizeof(buf); i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], c->wire[i], "byte %d", i);
	KUNIT_EXPECT_EQ(test, reply.psn, c->psn);
}

static struct kunit_case rxe_recv_test_cases[] = {
	KUNIT_CASE(seq_rc_test),
	KUNIT_CASE(seq_uc_test),
	KUNIT_CASE(seq_examples_test),
	KUNIT_CASE_PARAM(psn_classify_test, psn_gen_params),
	KUNIT_CASE_PARAM(ack_hold_test, ack_gen_params),
	KUNIT_CASE_PARAM(recv_check_test, recv_gen_params),
	KUNIT_CASE(aeth_syndrome_test),
	KUNIT_CASE_PARAM(hdr_fill_test, hdr_gen_params),
	{}
};

static struct kunit_suite rxe_recv_test_suite = {
	.name = "rxe_recv",
	.test_cases = rxe_recv_test_cases,
};

kunit_test_suite(rxe_recv_test_suite);

MODULE_DESCRIPTION("KUnit tests of the soft-RoCE receive side");
MODULE_LICENSE("GPL");
