// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_sa_record: MCMemberRecord to and from its wire image
 * (core/mad/sa_record.c).
 */
/*
 * The wire image is written out byte by byte from the MCMemberRecord
 * layout of IBA vol 1 15.2.5.17, not from the field table under test.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_sa.h>

#include "core/mad/sa.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void full_mcmember(struct ib_sa_mcmember_rec *rec)
{
	static const u8 mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
				     0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
	static const u8 pgid[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
				     0x00, 0x02, 0xc9, 0x03, 0, 0, 0x01, 0x01 };

	memset(rec, 0, sizeof(*rec));
	memcpy(rec->mgid.raw, mgid, 16);
	memcpy(rec->port_gid.raw, pgid, 16);
	rec->qkey = cpu_to_be32(0x0b1b2b3b);
	rec->mlid = cpu_to_be16(0xc012);
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = IB_MTU_2048;
	rec->traffic_class = 0xa5;
	rec->pkey = cpu_to_be16(0xffff);
	rec->rate_selector = IB_SA_LT;
	rec->rate = 0x10;
	rec->packet_life_time_selector = IB_SA_BEST;
	rec->packet_life_time = 0x12;
	rec->sl = 0x9;
	rec->flow_label = cpu_to_be32(0x12345);
	rec->hop_limit = 0x40;
	rec->scope = 0x2;
	rec->join_state = BIT(FULLMEMBER_JOIN);
	rec->proxy_join = 1;
}

static const u8 full_wire[IB_SA_MCMEMBER_REC_BYTES] = {
	/* 0: MGID */
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	/* 16: PortGID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x01, 0x01,
	/* 32: Q_Key */
	0x0b, 0x1b, 0x2b, 0x3b,
	/* 36: MLID; MTUSelector:2 MTU:6; TClass */
	0xc0, 0x12, 0x84, 0xa5,
	/* 40: P_Key; RateSelector:2 Rate:6; PacketLifeTimeSelector:2 PacketLifeTime:6 */
	0xff, 0xff, 0x50, 0xd2,
	/* 44: SL:4 FlowLabel:20 HopLimit:8 */
	0x91, 0x23, 0x45, 0x40,
	/* 48: Scope:4 JoinState:4; ProxyJoin:1, reserved */
	0x21, 0x80, 0x00, 0x00,
};

static void mcmember_pack_test(struct kunit *test)
{
	struct ib_sa_mcmember_rec rec;
	u8 wire[IB_SA_MCMEMBER_REC_BYTES + 4];
	int i;

	full_mcmember(&rec);
	memset(wire, 0xee, sizeof(wire));
	ib_sa_mcmember_pack(&rec, wire);
	for (i = 0; i < IB_SA_MCMEMBER_REC_BYTES; i++)
		KUNIT_EXPECT_EQ_MSG(test, wire[i], full_wire[i], "byte %d", i);
	/* Nothing after the record is touched. */
	for (; i < sizeof(wire); i++)
		KUNIT_EXPECT_EQ_MSG(test, wire[i], 0xee, "byte %d", i);
}

static void mcmember_unpack_test(struct kunit *test)
{
	struct ib_sa_mcmember_rec want, got;
	u8 wire[IB_SA_MCMEMBER_REC_BYTES];

	full_mcmember(&want);
	memcpy(wire, full_wire, sizeof(wire));
	/* Reserved bits set on the wire are not read. */
	wire[49] |= 0x7f;
	wire[50] = 0xff;
	wire[51] = 0xff;
	memset(&got, 0x5a, sizeof(got));
	ib_sa_mcmember_unpack(wire, &got);

	KUNIT_EXPECT_EQ(test, memcmp(&got.mgid, &want.mgid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&got.port_gid, &want.port_gid, 16), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(got.qkey), 0x0b1b2b3b);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(got.mlid), 0xc012);
	KUNIT_EXPECT_EQ(test, got.mtu_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, got.mtu, IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, got.traffic_class, 0xa5);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(got.pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, got.rate_selector, IB_SA_LT);
	KUNIT_EXPECT_EQ(test, got.rate, 0x10);
	KUNIT_EXPECT_EQ(test, got.packet_life_time_selector, IB_SA_BEST);
	KUNIT_EXPECT_EQ(test, got.packet_life_time, 0x12);
	KUNIT_EXPECT_EQ(test, got.sl, 0x9);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(got.flow_label), 0x12345);
	KUNIT_EXPECT_EQ(test, got.hop_limit, 0x40);
	KUNIT_EXPECT_EQ(test, got.scope, 0x2);
	KUNIT_EXPECT_EQ(test, got.join_state, BIT(FULLMEMBER_JOIN));
	KUNIT_EXPECT_EQ(test, got.proxy_join, 1);
}

/* Each join state is its own bit of the JoinState nibble. */
static void mcmember_join_state_test(struct kunit *test)
{
	struct ib_sa_mcmember_rec rec = {};
	u8 wire[IB_SA_MCMEMBER_REC_BYTES];

	rec.scope = 0xe;
	rec.join_state = BIT(SENDONLY_FULLMEMBER_JOIN);
	ib_sa_mcmember_pack(&rec, wire);
	KUNIT_EXPECT_EQ(test, wire[48], 0xe8);
	rec.join_state = BIT(NONMEMBER_JOIN);
	ib_sa_mcmember_pack(&rec, wire);
	KUNIT_EXPECT_EQ(test, wire[48], 0xe2);
}

static struct kunit_case sa_record_cases[] = {
	KUNIT_CASE(mcmember_pack_test),
	KUNIT_CASE(mcmember_unpack_test),
	KUNIT_CASE(mcmember_join_state_test),
	{}
};

static struct kunit_suite sa_record_suite = {
	.name = "ib_core_sa_record",
	.test_cases = sa_record_cases,
};

kunit_test_suite(sa_record_suite);

MODULE_DESCRIPTION("KUnit tests of the SA record layouts");
MODULE_LICENSE("GPL");
