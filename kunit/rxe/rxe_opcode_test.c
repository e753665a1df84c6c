// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rxe_opcode: the opcode table, header accessors, PSN arithmetic
 * and rxe_hdr_check() of sw/rxe.
 */
/*
 * The table is checked against facts written here independently (which
 * opcodes exist, each header's wire size) rather than against itself;
 * every opcode is then built with the setters and parsed back.
 */

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/module.h>

#include "sw/rxe/rxe_hdr.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Wire size of each header type, indexed by enum rxe_hdr_type. */
static const u8 hdr_size[RXE_NUM_HDR_TYPES] = {
	[RXE_HDR_BTH] = 12,
	[RXE_HDR_RETH] = 16,
	[RXE_HDR_AETH] = 4,
	[RXE_HDR_ATMETH] = 28,
	[RXE_HDR_ATMACK] = 8,
	[RXE_HDR_DETH] = 8,
	[RXE_HDR_IMMDT] = 4,
	[RXE_HDR_IETH] = 4,
	[RXE_HDR_PAYLOAD] = 0,
};

/* RoCEv2 opcodes the driver must speak: RC, UC and UD, no RD or CNP. */
static bool op_expected(unsigned int op)
{
	unsigned int low = op & 0x1f;

	switch (op >> 5) {
	case 0:		/* RC */
		return low <= 0x14 || low == 0x16 || low == 0x17;
	case 1:		/* UC: sends and writes */
		return low <= 0x0b;
	case 3:		/* UD: SEND_ONLY, SEND_ONLY_WITH_IMMEDIATE */
		return low == 0x04 || low == 0x05;
	default:
		return false;
	}
}

static bool has_hdr(u32 flags, enum rxe_hdr_type t)
{
	return t == RXE_HDR_BTH || t == RXE_HDR_PAYLOAD || (flags & BIT(t));
}

static void rxe_opcode_valid_set(struct kunit *test)
{
	unsigned int op;

	for (op = 0; op < 256; op++) {
		const struct rxe_opcode_info *info = &rxe_opcode[op];
		bool valid = info->flags & RXE_OPF_VALID;

		KUNIT_EXPECT_EQ_MSG(test, valid, op_expected(op), "op 0x%02x", op);
		if (!valid) {
			KUNIT_EXPECT_EQ_MSG(test, info->flags, 0, "op 0x%02x", op);
			KUNIT_EXPECT_STREQ(test, rxe_opcode_name(op), "UNKNOWN");
		}
	}
	KUNIT_EXPECT_STREQ(test, rxe_opcode_name(0x04), "RC_SEND_ONLY");
	KUNIT_EXPECT_STREQ(test, rxe_opcode_name(0x65),
			   "UD_SEND_ONLY_WITH_IMMEDIATE");
	KUNIT_EXPECT_STREQ(test, rxe_opcode_name(0x29),
			   "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE");
}

static void rxe_opcode_lengths(struct kunit *test)
{
	unsigned int op, t;

	for (op = 0; op < 256; op++) {
		const struct rxe_opcode_info *info = &rxe_opcode[op];
		unsigned int pos = 0;

		if (!(info->flags & RXE_OPF_VALID))
			continue;
		for (t = 0; t < RXE_NUM_HDR_TYPES; t++) {
			if (!has_hdr(info->flags, t))
				continue;
			/* Present headers sit back to back in enum order. */
			KUNIT_EXPECT_EQ_MSG(test, info->offset[t], pos,
					    "%s header %u", info->name, t);
			pos += hdr_size[t];
		}
		KUNIT_EXPECT_EQ_MSG(test, info->length, pos, "%s", info->name);
		KUNIT_EXPECT_EQ(test, info->offset[RXE_HDR_PAYLOAD],
				info->length);
	}
}

static unsigned int count_bits(u32 flags, u32 mask)
{
	return hweight32(flags & mask);
}

static void rxe_opcode_flags_one(struct kunit *test, unsigned int op)
{
	static const char * const prefix[] = { "RC_", "UC_", "RD_", "UD_" };
	static const u32 transport[] = {
		RXE_OPF_RC, RXE_OPF_UC, 0, RXE_OPF_UD
	};
	const struct rxe_opcode_info *info = &rxe_opcode[op];
	u32 f = info->flags, pos = f & (RXE_OPF_ONLY | RXE_OPF_MIDDLE);
	u32 kind = RXE_OPF_SEND | RXE_OPF_WRITE | RXE_OPF_READ |
		   RXE_OPF_ATOMIC;

	KUNIT_EXPECT_EQ_MSG(test, count_bits(f, RXE_OPF_RC | RXE_OPF_UC |
					     RXE_OPF_UD), 1, "%s", info->name);
	KUNIT_EXPECT_TRUE_MSG(test, f & transport[op >> 5], "%s", info->name);
	KUNIT_EXPECT_EQ(test, strncmp(info->name, prefix[op >> 5], 3), 0);
	KUNIT_EXPECT_EQ_MSG(test, count_bits(f, RXE_OPF_REQ | RXE_OPF_ACK), 1,
			    "%s", info->name);
	KUNIT_EXPECT_TRUE_MSG(test, pos == RXE_OPF_FIRST ||
			      pos == RXE_OPF_MIDDLE || pos == RXE_OPF_LAST ||
			      pos == RXE_OPF_ONLY, "%s", info->name);
	/* Every request is one kind; a plain ACK is the only kindless one. */
	KUNIT_EXPECT_EQ_MSG(test, count_bits(f, kind),
			    (op & 0x1f) == 0x11 ? 0 : 1, "%s", info->name);
	if (f & RXE_OPF_COMP)
		KUNIT_EXPECT_TRUE_MSG(test, f & RXE_OPF_RWR, "%s", info->name);
	if (f & RXE_OPF_RWR)
		KUNIT_EXPECT_TRUE_MSG(test, (f & RXE_OPF_SEND) ||
				      ((f & RXE_OPF_WRITE) &&
				       (f & RXE_OPF_IMMDT)),
				      "%s", info->name);
	if (f & (RXE_OPF_SEND | RXE_OPF_WRITE))
		KUNIT_EXPECT_TRUE_MSG(test, f & RXE_OPF_REQ, "%s", info->name);
	KUNIT_EXPECT_EQ_MSG(test, !!(f & RXE_OPF_DETH), !!(f & RXE_OPF_UD),
			    "%s", info->name);
}

static void rxe_opcode_flags(struct kunit *test)
{
	unsigned int op;

	KUNIT_EXPECT_EQ(test, RXE_OPF_ONLY, RXE_OPF_FIRST | RXE_OPF_LAST);
	for (op = 0; op < 256; op++)
		if (rxe_opcode[op].flags & RXE_OPF_VALID)
			rxe_opcode_flags_one(test, op);

	/* A few facts spelled out, beyond the structural rules above. */
	KUNIT_EXPECT_TRUE(test, rxe_opcode[0x02].flags & RXE_OPF_COMP);
	KUNIT_EXPECT_FALSE(test, rxe_opcode[0x00].flags & RXE_OPF_COMP);
	KUNIT_EXPECT_TRUE(test, rxe_opcode[0x00].flags & RXE_OPF_RWR);
	KUNIT_EXPECT_FALSE(test, rxe_opcode[0x08].flags & RXE_OPF_RWR);
	KUNIT_EXPECT_TRUE(test, rxe_opcode[0x09].flags & RXE_OPF_COMP);
	KUNIT_EXPECT_TRUE(test, rxe_opcode[0x2b].flags & RXE_OPF_COMP);
	KUNIT_EXPECT_TRUE(test, rxe_opcode[0x0e].flags & RXE_OPF_ACK);
	KUNIT_EXPECT_FALSE(test, rxe_opcode[0x0e].flags & RXE_OPF_AETH);
	KUNIT_EXPECT_TRUE(test, rxe_opcode[0x0c].flags & RXE_OPF_REQ);
	KUNIT_EXPECT_FALSE(test, rxe_opcode[0x0c].flags & RXE_OPF_PAYLOAD);
	KUNIT_EXPECT_EQ(test, rxe_opcode[0x65].length, 24);
	KUNIT_EXPECT_EQ(test, rxe_opcode[0x12].length, 24);
	KUNIT_EXPECT_EQ(test, rxe_opcode[0x0b].length, 32);
	KUNIT_EXPECT_EQ(test, rxe_opcode[0x13].length, 40);
}

/* Values every round trip writes and expects back. */
#define RT_VA		0x0123456789abcdefULL
#define RT_RKEY		0xa1b2c3d4
#define RT_LEN		0x00012345
#define RT_SYNDROME	0x61
#define RT_MSN		0x00fedcba
#define RT_SWAP		0x1122334455667788ULL
#define RT_COMP		0x99aabbccddeeff00ULL
#define RT_ORIG		0x0f1e2d3c4b5a6978ULL
#define RT_QKEY		0x80010000
#define RT_SQP		0x00abcdef
#define RT_IMM		0xdeadbeef
#define RT_IETH		0x5566aa77
#define RT_QPN		0x00123456
#define RT_PSN		0x00fffffe
#define RT_PKEY		0xffff
#define RT_PAYLOAD	5

/* Writes every header @op has; returns the packet's paylen. */
static u32 rt_build(u8 *buf, u8 op)
{
	const struct rxe_opcode_info *info = &rxe_opcode[op];
	struct rxe_pkt pkt = { .hdr = buf, .opcode = op };
	u32 f = info->flags, len = (f & RXE_OPF_PAYLOAD) ? RT_PAYLOAD : 0;
	u8 pad = (4 - len) & 3;

	rxe_bth_init(&pkt, op & 1, pad, RT_PKEY, RT_QPN, !(op & 2), RT_PSN);
	if (f & RXE_OPF_RETH)
		rxe_reth_set(&pkt, RT_VA, RT_RKEY, RT_LEN);
	if (f & RXE_OPF_AETH)
		rxe_aeth_set(&pkt, RT_SYNDROME, RT_MSN);
	if (f & RXE_OPF_ATMETH)
		rxe_atmeth_set(&pkt, RT_VA, RT_RKEY, RT_SWAP, RT_COMP);
	if (f & RXE_OPF_ATMACK)
		rxe_atmack_set(&pkt, RT_ORIG);
	if (f & RXE_OPF_DETH)
		rxe_deth_set(&pkt, RT_QKEY, RT_SQP);
	if (f & RXE_OPF_IMMDT)
		rxe_immdt_set(&pkt, cpu_to_be32(RT_IMM));
	if (f & RXE_OPF_IETH)
		rxe_ieth_set(&pkt, RT_IETH);
	memset(buf + info->length, 0x5a, len);
	return info->length + len + pad + RXE_ICRC_SIZE;
}

static void rt_check_ext(struct kunit *test, const struct rxe_pkt *pkt)
{
	u32 f = pkt->flags;

	if (f & RXE_OPF_RETH) {
		KUNIT_EXPECT_EQ(test, rxe_reth_va(pkt), RT_VA);
		KUNIT_EXPECT_EQ(test, rxe_reth_rkey(pkt), RT_RKEY);
		KUNIT_EXPECT_EQ(test, rxe_reth_len(pkt), RT_LEN);
	}
	if (f & RXE_OPF_AETH) {
		KUNIT_EXPECT_EQ(test, rxe_aeth_syndrome(pkt), RT_SYNDROME);
		KUNIT_EXPECT_EQ(test, rxe_aeth_msn(pkt), RT_MSN);
	}
	if (f & RXE_OPF_ATMETH) {
		KUNIT_EXPECT_EQ(test, rxe_atmeth_va(pkt), RT_VA);
		KUNIT_EXPECT_EQ(test, rxe_atmeth_rkey(pkt), RT_RKEY);
		KUNIT_EXPECT_EQ(test, rxe_atmeth_swap_add(pkt), RT_SWAP);
		KUNIT_EXPECT_EQ(test, rxe_atmeth_comp(pkt), RT_COMP);
	}
	if (f & RXE_OPF_ATMACK)
		KUNIT_EXPECT_EQ(test, rxe_atmack_orig(pkt), RT_ORIG);
	if (f & RXE_OPF_DETH) {
		KUNIT_EXPECT_EQ(test, rxe_deth_qkey(pkt), RT_QKEY);
		KUNIT_EXPECT_EQ(test, rxe_deth_sqp(pkt), RT_SQP);
	}
	if (f & RXE_OPF_IMMDT)
		KUNIT_EXPECT_EQ(test, be32_to_cpu(rxe_immdt_imm(pkt)), RT_IMM);
	if (f & RXE_OPF_IETH)
		KUNIT_EXPECT_EQ(test, rxe_ieth_rkey(pkt), RT_IETH);
}

static void rxe_opcode_round_trip(struct kunit *test)
{
	unsigned int op;
	u8 *buf = kunit_kzalloc(test, 128, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (op = 0; op < 256; op++) {
		struct rxe_pkt pkt = { .hdr = buf };

		if (!(rxe_opcode[op].flags & RXE_OPF_VALID))
			continue;
		memset(buf, 0xee, 128);
		pkt.paylen = rt_build(buf, op);
		KUNIT_ASSERT_EQ_MSG(test, rxe_hdr_check(&pkt), 0, "op 0x%02x", op);
		KUNIT_EXPECT_EQ(test, pkt.opcode, op);
		KUNIT_EXPECT_EQ(test, pkt.flags, rxe_opcode[op].flags);
		KUNIT_EXPECT_EQ(test, pkt.psn, RT_PSN);
		KUNIT_EXPECT_EQ(test, rxe_bth_qpn(&pkt), RT_QPN);
		KUNIT_EXPECT_EQ(test, rxe_bth_pkey(&pkt), RT_PKEY);
		KUNIT_EXPECT_EQ(test, rxe_bth_se(&pkt), !!(op & 1));
		KUNIT_EXPECT_EQ(test, rxe_bth_ackreq(&pkt), !(op & 2));
		KUNIT_EXPECT_EQ(test, rxe_bth_tver(&pkt), 0);
		KUNIT_EXPECT_EQ(test, rxe_pkt_payload_len(&pkt),
				(pkt.flags & RXE_OPF_PAYLOAD) ? RT_PAYLOAD : 0);
		KUNIT_EXPECT_PTR_EQ(test, rxe_pkt_payload(&pkt),
				    (void *)(buf + rxe_opcode[op].length));
		rt_check_ext(test, &pkt);
	}
}

static void rxe_opcode_psn(struct kunit *test)
{
	const s32 half = (1 << 23) - 1;

	KUNIT_EXPECT_EQ(test, rxe_psn_add(0xffffff, 1), 0);
	KUNIT_EXPECT_EQ(test, rxe_psn_add(0xfffffe, 3), 1);
	KUNIT_EXPECT_EQ(test, rxe_psn_add(0x123456, 0x1000000), 0x123456);
	KUNIT_EXPECT_EQ(test, rxe_psn_add(0, 0), 0);

	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0, 0xffffff), 1);
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0xffffff, 0), -1);
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0x000002, 0xfffffe), 4);
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0x345678, 0x345678), 0);

	/* The largest distances either way, across and away from the wrap. */
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(rxe_psn_add(0xfffff0, half),
					   0xfffff0), half);
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0xfffff0,
					   rxe_psn_add(0xfffff0, half)), -half);
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(half, 0), half);
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0, half), -half);
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0x10, rxe_psn_add(0x10, 0x800001)),
			half);
	/* Exactly half way round reads as "before". */
	KUNIT_EXPECT_LT(test, rxe_psn_diff(0x800000, 0), 0);
	/* Bits above the PSN do not matter. */
	KUNIT_EXPECT_EQ(test, rxe_psn_diff(0xff000005, 0x00000003), 2);
}

/* A valid packet of @op with @pad, exactly long enough; returns paylen. */
static u32 bad_build(u8 *buf, u8 op, u8 pad)
{
	struct rxe_pkt pkt = { .hdr = buf, .opcode = op };

	memset(buf, 0, 64);
	rxe_bth_init(&pkt, false, pad, RT_PKEY, RT_QPN, true, RT_PSN);
	return rxe_opcode[op].length + pad + RXE_ICRC_SIZE;
}

static int bad_check(u8 *buf, u32 paylen)
{
	struct rxe_pkt pkt = { .hdr = buf, .paylen = paylen };

	return rxe_hdr_check(&pkt);
}

static void rxe_opcode_hdr_check_rejects(struct kunit *test)
{
	static const u8 unknown[] = {
		0x15, 0x18, 0x1f, 0x2c, 0x3f, 0x60, 0x66, 0x80, 0x81, 0xc0,
		0xff,
	};
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	unsigned int i;
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		bad_build(buf, unknown[i], 0);
		KUNIT_EXPECT_EQ_MSG(test, bad_check(buf, 40), -EINVAL,
				    "op 0x%02x", unknown[i]);
	}
	/* Every opcode of the RD transport, even with room to spare. */
	for (i = 0x40; i <= 0x55; i++) {
		bad_build(buf, i, 0);
		KUNIT_EXPECT_EQ_MSG(test, bad_check(buf, 60), -EINVAL,
				    "RD op 0x%02x", i);
	}

	/* Transport version 1. */
	len = bad_build(buf, 0x04, 0);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len), 0);
	buf[1] |= 1;
	KUNIT_EXPECT_EQ(test, bad_check(buf, len), -EINVAL);

	/* Shorter than a BTH (and than BTH plus ICRC). */
	len = bad_build(buf, 0x11, 0);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len), 0);
	KUNIT_EXPECT_EQ(test, bad_check(buf, 11), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad_check(buf, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad_check(buf, 12), -EINVAL);

	/* Shorter than its extension headers plus the ICRC. */
	len = bad_build(buf, 0x0a, 0);
	KUNIT_EXPECT_EQ(test, len, 12 + 16 + 4);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len), 0);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad_check(buf, 12 + 16), -EINVAL);
	len = bad_build(buf, 0x13, 0);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len - 1), -EINVAL);
	len = bad_build(buf, 0x65, 0);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len - 1), -EINVAL);

	/* A pad count claiming more bytes than there are. */
	len = bad_build(buf, 0x04, 3);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len), 0);
	KUNIT_EXPECT_EQ(test, bad_check(buf, len - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad_check(buf, 12 + 4), -EINVAL);
}

static struct kunit_case rxe_opcode_cases[] = {
	KUNIT_CASE(rxe_opcode_valid_set),
	KUNIT_CASE(rxe_opcode_lengths),
	KUNIT_CASE(rxe_opcode_flags),
	KUNIT_CASE(rxe_opcode_round_trip),
	KUNIT_CASE(rxe_opcode_psn),
	KUNIT_CASE(rxe_opcode_hdr_check_rejects),
	{}
};

static struct kunit_suite rxe_opcode_suite = {
	.name = "rxe_opcode",
	.test_cases = rxe_opcode_cases,
};

kunit_test_suite(rxe_opcode_suite);

MODULE_DESCRIPTION("KUnit tests of the rdma_rxe opcode table and header parsing");
MODULE_LICENSE("GPL");
