// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_sa_path: PathRecord packing and address vectors from
 * paths (core/mad/sa_path.c).
 */
/*
 * The wire images below are written out byte by byte from the PathRecord
 * layout of IBA vol 1 15.2.5.16, not from the field table they test.
 * Address vectors are built on a mock device with an IB port (LMC 2)
 * and a RoCE port whose one GID entry, ::ffff:127.0.0.1, sits on "lo":
 * the test guest routes that address and nothing else.
 */

#include <kunit/test.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>

#include "core/device/cache_gid.h"
#include "core/device/device.h"
#include "kunit/mock/mock_ibdev.h"
#include "kunit/mad/expect_bytes.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define IB_PORT		1
#define ROCE_PORT	2
#define IB_LMC		2
#define PR_BYTES	64

/* ---- Packing ------------------------------------------------------------- */

/* Every field set, each to a value whose bits show where they land. */
static void full_path(struct sa_path_rec *rec)
{
	int i;

	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	rec->service_id = cpu_to_be64(0x0123456789abcdefULL);
	for (i = 0; i < 16; i++) {
		rec->dgid.raw[i] = 0x10 + i;
		rec->sgid.raw[i] = 0x20 + i;
	}
	rec->ib.dlid = cpu_to_be16(0x1234);
	rec->ib.slid = cpu_to_be16(0x5678);
	rec->ib.raw_traffic = 1;
	rec->flow_label = cpu_to_be32(0xabcde);
	rec->hop_limit = 0x40;
	rec->traffic_class = 0xb8;
	rec->reversible = 1;
	rec->numb_path = 0x55;
	rec->pkey = cpu_to_be16(0x8001);
	rec->qos_class = cpu_to_be16(0xabc);
	rec->sl = 0xd;
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = IB_MTU_4096;
	rec->rate_selector = IB_SA_LT;
	rec->rate = 0x2a;
	rec->packet_life_time_selector = IB_SA_BEST;
	rec->packet_life_time = 0x12;
	rec->preference = 0x77;
}

static const u8 full_wire[PR_BYTES] = {
	/* 0: ServiceID */
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	/* 8: DGID */
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	/* 24: SGID */
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	/* 40: DLID, SLID */
	0x12, 0x34, 0x56, 0x78,
	/* 44: RawTraffic 1, reserved 000, FlowLabel 0xabcde, HopLimit */
	0x8a, 0xbc, 0xde, 0x40,
	/* 48: TClass, Reversible 1 + NumbPath 0x55, P_Key */
	0xb8, 0xd5, 0x80, 0x01,
	/*
	 * 52: QosClass 0xabc + SL 0xd, MTUSelector 2 + MTU 5,
	 * RateSelector 1 + Rate 0x2a
	 */
	0xab, 0xcd, 0x85, 0x6a,
	/* 56: PacketLifeTimeSelector 3 + PacketLifeTime 0x12, Preference */
	0xd2, 0x77,
	/* 58: reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Every bit of the attribute is written: the 0xa5 under it is gone. */
static void pack_full_test(struct kunit *test)
{
	struct sa_path_rec rec;
	u8 wire[PR_BYTES];

	full_path(&rec);
	memset(wire, 0xa5, sizeof(wire));
	ib_sa_pack_path(&rec, wire);
	EXPECT_BYTES(test, wire, full_wire, PR_BYTES);
}

static void unpack_full_test(struct kunit *test)
{
	struct sa_path_rec want, rec;
	u8 wire[PR_BYTES];

	full_path(&want);
	memcpy(wire, full_wire, sizeof(wire));
	memset(&rec, 0, sizeof(rec));
	ib_sa_unpack_path(wire, &rec);
	EXPECT_BYTES(test, &rec, &want, sizeof(rec));
	/* the attribute is only read */
	EXPECT_BYTES(test, wire, full_wire, PR_BYTES);
}

/* Unpacking makes an IB path and leaves what the wire does not carry. */
static void unpack_sets_ib_test(struct kunit *test)
{
	struct sa_path_rec rec;
	u8 wire[PR_BYTES];

	memcpy(wire, full_wire, sizeof(wire));
	memset(&rec, 0, sizeof(rec));
	rec.rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	rec.flags = 0x5a;
	ib_sa_unpack_path(wire, &rec);
	KUNIT_EXPECT_EQ(test, rec.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rec.flags, 0x5aU);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&rec)), 0x1234U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&rec)), 0x5678U);
	KUNIT_EXPECT_EQ(test, sa_path_get_raw_traffic(&rec), 1);
}

/* Each field at its largest value; the reserved bits stay zero. */
static void all_ones_path(struct sa_path_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	rec->service_id = cpu_to_be64(~0ULL);
	memset(rec->dgid.raw, 0xff, 16);
	memset(rec->sgid.raw, 0xff, 16);
	rec->ib.dlid = cpu_to_be16(0xffff);
	rec->ib.slid = cpu_to_be16(0xffff);
	rec->ib.raw_traffic = 1;
	rec->flow_label = cpu_to_be32(0xfffff);
	rec->hop_limit = 0xff;
	rec->traffic_class = 0xff;
	rec->reversible = 1;
	rec->numb_path = 0x7f;
	rec->pkey = cpu_to_be16(0xffff);
	rec->qos_class = cpu_to_be16(0xfff);
	rec->sl = 0xf;
	rec->mtu_selector = 3;
	rec->mtu = 0x3f;
	rec->rate_selector = 3;
	rec->rate = 0x3f;
	rec->packet_life_time_selector = 3;
	rec->packet_life_time = 0x3f;
	rec->preference = 0xff;
}

static void boundary_values_test(struct kunit *test)
{
	struct sa_path_rec rec, back;
	u8 wire[PR_BYTES], want[PR_BYTES];

	/* all ones but bits 1-3 of byte 44 and bytes 58-63 */
	memset(want, 0xff, sizeof(want));
	want[44] = 0x8f;
	memset(want + 58, 0, 6);

	all_ones_path(&rec);
	memset(wire, 0xff, sizeof(wire));
	ib_sa_pack_path(&rec, wire);
	EXPECT_BYTES(test, wire, want, PR_BYTES);

	memset(&back, 0, sizeof(back));
	ib_sa_unpack_path(wire, &back);
	EXPECT_BYTES(test, &back, &rec, sizeof(rec));

	/* set reserved bits on the wire are not read */
	memset(wire, 0xff, sizeof(wire));
	memset(&back, 0, sizeof(back));
	ib_sa_unpack_path(wire, &back);
	EXPECT_BYTES(test, &back, &rec, sizeof(rec));
}

/* Values wider than their field lose their high bits, not a neighbour. */
static void narrow_fields_test(struct kunit *test)
{
	struct sa_path_rec rec;
	u8 wire[PR_BYTES];

	memset(&rec, 0, sizeof(rec));
	rec.flow_label = cpu_to_be32(0xfff12345);	/* 20 bits: 0x12345 */
	rec.numb_path = 0xff;				/* 7 bits */
	rec.qos_class = cpu_to_be16(0xf000);		/* 12 bits: 0 */
	rec.sl = 0x1f;					/* 4 bits */
	rec.mtu = 0xc1;					/* 6 bits */
	rec.rate = 0x7f;				/* 6 bits */
	rec.packet_life_time = 0x40;			/* 6 bits: 0 */
	memset(wire, 0xa5, sizeof(wire));
	ib_sa_pack_path(&rec, wire);

	KUNIT_EXPECT_EQ(test, wire[44], 0x01);	/* RawTraffic 0, reserved 0 */
	KUNIT_EXPECT_EQ(test, wire[45], 0x23);
	KUNIT_EXPECT_EQ(test, wire[46], 0x45);
	KUNIT_EXPECT_EQ(test, wire[49], 0x7f);	/* Reversible 0 */
	KUNIT_EXPECT_EQ(test, wire[52], 0x00);
	KUNIT_EXPECT_EQ(test, wire[53], 0x0f);	/* QosClass low nibble 0 */
	KUNIT_EXPECT_EQ(test, wire[54], 0x01);	/* MTUSelector 0 */
	KUNIT_EXPECT_EQ(test, wire[55], 0x3f);	/* RateSelector 0 */
	KUNIT_EXPECT_EQ(test, wire[56], 0x00);
}

/* Paths of other link layers go out in their IB form. */
static void pack_other_types_test(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct sa_path_rec rec;
	u8 wire[PR_BYTES], want[PR_BYTES];

	/* RoCE: no LIDs and no RawTraffic, whatever the MAC is */
	full_path(&rec);
	rec.rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	rec.roce.route_resolved = true;
	memcpy(rec.roce.dmac, mac, ETH_ALEN);
	memcpy(want, full_wire, sizeof(want));
	memset(want + 40, 0, 4);
	want[44] &= 0x0f;
	memset(wire, 0xa5, sizeof(wire));
	ib_sa_pack_path(&rec, wire);
	EXPECT_BYTES(test, wire, want, PR_BYTES);

	/* OPA with LIDs that fit 16 bits: narrowed */
	full_path(&rec);
	rec.rec_type = SA_PATH_REC_TYPE_OPA;
	rec.opa.dlid = cpu_to_be32(0x1234);
	rec.opa.slid = cpu_to_be32(0x5678);
	rec.opa.raw_traffic = 1;
	memset(wire, 0xa5, sizeof(wire));
	ib_sa_pack_path(&rec, wire);
	EXPECT_BYTES(test, wire, full_wire, PR_BYTES);
	/* the caller's record is not converted */
	KUNIT_EXPECT_EQ(test, rec.rec_type, SA_PATH_REC_TYPE_OPA);
}

/* ---- Address vectors: fixture -------------------------------------------- */

/**
 * struct path_fix - what every address vector case gets
 * @mdev: a registered mock device: IB_PORT with LMC 2, ROCE_PORT RoCE
 * @lo_gid: the RoCE port's entry ::ffff:127.0.0.1 (v2) on "lo"; the
 *	    fixture holds a reference
 */
struct path_fix {
	struct mock_ibdev *mdev;
	const struct ib_gid_attr *lo_gid;
};

static struct path_fix *fix_of(struct kunit *test)
{
	return test->priv;
}

static struct ib_device *dev_of(struct kunit *test)
{
	return &fix_of(test)->mdev->ibdev;
}

/*
 * References on a GID entry: the table's own one plus every holder's. The
 * only look behind the GID cache's interface, so that the references
 * the function takes and leaves can be counted exactly.
 */
static unsigned int gid_refs(const struct ib_gid_attr *attr)
{
	return kref_read(&to_gid_entry(attr)->ref);
}

static union ib_gid lo_gid(void)
{
	union ib_gid gid = {};

	ipv6_addr_set_v4mapped(htonl(INADDR_LOOPBACK),
			       (struct in6_addr *)gid.raw);
	return gid;
}

static int sa_path_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = {
		.nports = 2, .roce_port = ROCE_PORT,
	};
	struct path_fix *fix = kunit_kzalloc(test, sizeof(*fix), GFP_KERNEL);
	struct ib_gid_attr attr = { .gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP };
	union ib_gid gid = lo_gid();

	KUNIT_ASSERT_NOT_NULL(test, fix);
	test->priv = fix;
	fix->mdev = mock_ibdev_alloc(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, fix->mdev);
	mock_ibdev_set_port(fix->mdev, IB_PORT, MOCK_IBDEV_LID(IB_PORT), IB_LMC,
			    IB_PORT_ACTIVE);
	KUNIT_ASSERT_EQ(test, mock_ibdev_register(fix->mdev, "kmsapath%d"), 0);

	RCU_INIT_POINTER(attr.ndev, init_net.loopback_dev);
	KUNIT_ASSERT_EQ(test, ib_cache_gid_add(dev_of(test), ROCE_PORT, &gid,
					       &attr), 0);
	fix->lo_gid = rdma_find_gid_by_port(dev_of(test), &gid,
					    IB_GID_TYPE_ROCE_UDP_ENCAP,
					    ROCE_PORT, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fix->lo_gid);
	return 0;
}

static void sa_path_test_exit(struct kunit *test)
{
	struct path_fix *fix = fix_of(test);

	if (!fix)
		return;
	if (!IS_ERR_OR_NULL(fix->lo_gid))
		rdma_put_gid_attr(fix->lo_gid);
	mock_ibdev_cleanup_all();
	/* the GID entry's reference on "lo" goes after a grace period */
	rcu_barrier();
}

/* An IB path from the IB port's GID entry @index. */
static void ib_path(struct sa_path_rec *rec, u8 hop_limit, int index)
{
	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	rec->sgid = mock_ibdev_gid(IB_PORT, index);
	rec->dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	rec->dgid.global.interface_id = cpu_to_be64(0x1122334455667788ULL);
	rec->ib.dlid = cpu_to_be16(0x4321);
	rec->ib.slid = cpu_to_be16(0x0107);	/* path bits 3 with LMC 2 */
	rec->sl = 9;
	rec->rate = IB_RATE_56_GBPS;
	rec->hop_limit = hop_limit;
	rec->flow_label = cpu_to_be32(0xabcde);
	rec->traffic_class = 0x28;
}

/* A RoCE v2 path to @dgid from ::ffff:127.0.0.1, route not yet checked. */
static void roce_path(struct sa_path_rec *rec, const union ib_gid *dgid)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };

	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	rec->sgid = lo_gid();
	rec->dgid = *dgid;
	rec->sl = 3;
	rec->rate = IB_RATE_25_GBPS;
	rec->hop_limit = 64;
	rec->flow_label = cpu_to_be32(0x54321);
	rec->traffic_class = 0x60;
	memcpy(rec->roce.dmac, mac, ETH_ALEN);
}

/* A failed call leaves no reference in the attr. */
static void expect_nothing_held(struct kunit *test,
				const struct rdma_ah_attr *ah)
{
	KUNIT_EXPECT_NULL(test, ah->grh.sgid_attr);
}

/* ---- Address vectors: InfiniBand ----------------------------------------- */

/* Hop limit 0: a local route, LIDs only. */
static void ib_local_test(struct kunit *test)
{
	struct sa_path_rec rec;
	struct rdma_ah_attr ah;

	ib_path(&rec, 0, 2);
	memset(&ah, 0xa5, sizeof(ah));
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), IB_PORT,
							&rec, &ah, NULL), 0);
	KUNIT_EXPECT_EQ(test, ah.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&ah), IB_PORT);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ah), 0x4321U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&ah), 9);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&ah), IB_RATE_56_GBPS);
	/* the slid's low LMC bits */
	KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&ah), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&ah), 0);
	expect_nothing_held(test, &ah);
	KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, 0);
}

/* A non-zero hop limit (even 1, as in 6.1) makes the vector global. */
static void ib_grh_test(struct kunit *test)
{
	static const u8 hops[] = { 1, 64, 255 };
	struct sa_path_rec rec;
	struct rdma_ah_attr ah;
	const struct ib_gid_attr *sgid;
	unsigned int refs, i;

	for (i = 0; i < ARRAY_SIZE(hops); i++) {
		ib_path(&rec, hops[i], 5);
		KUNIT_ASSERT_EQ(test,
				ib_init_ah_attr_from_path(dev_of(test), IB_PORT,
							  &rec, &ah, NULL), 0);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&ah), IB_AH_GRH);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ah), 0x4321U);
		KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, hops[i]);
		KUNIT_EXPECT_EQ(test, ah.grh.flow_label, 0xabcdeU);
		KUNIT_EXPECT_EQ(test, ah.grh.traffic_class, 0x28);
		KUNIT_EXPECT_EQ(test, ah.grh.sgid_index, 5);
		KUNIT_EXPECT_EQ(test, memcmp(ah.grh.dgid.raw, rec.dgid.raw, 16),
				0);
		sgid = ah.grh.sgid_attr;
		KUNIT_ASSERT_NOT_NULL(test, sgid);
		KUNIT_EXPECT_EQ(test, sgid->index, 5);
		KUNIT_EXPECT_EQ(test, sgid->port_num, IB_PORT);
		/* the table's reference and the attr's */
		refs = gid_refs(sgid);
		KUNIT_EXPECT_EQ(test, refs, 2U);
		rdma_destroy_ah_attr(&ah);
		KUNIT_EXPECT_EQ(test, gid_refs(sgid), refs - 1);
	}
}

/* The caller's GID entry is used, with a reference of the attr's own. */
static void ib_given_sgid_test(struct kunit *test)
{
	const struct ib_gid_attr *given;
	struct sa_path_rec rec;
	struct rdma_ah_attr ah;
	unsigned int refs;

	given = rdma_get_gid_attr(dev_of(test), IB_PORT, 6);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, given);
	refs = gid_refs(given);
	/* the path's sgid (entry 1) is not looked at */
	ib_path(&rec, 2, 1);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), IB_PORT,
							&rec, &ah, given), 0);
	KUNIT_EXPECT_PTR_EQ(test, ah.grh.sgid_attr, given);
	KUNIT_EXPECT_EQ(test, ah.grh.sgid_index, 6);
	KUNIT_EXPECT_EQ(test, gid_refs(given), refs + 1);
	rdma_destroy_ah_attr(&ah);
	KUNIT_EXPECT_EQ(test, gid_refs(given), refs);

	/* a local path takes no reference on it */
	ib_path(&rec, 0, 1);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), IB_PORT,
							&rec, &ah, given), 0);
	expect_nothing_held(test, &ah);
	KUNIT_EXPECT_EQ(test, gid_refs(given), refs);
	rdma_put_gid_attr(given);
}

/* An sgid the port does not have: -ENOENT and no reference. */
static void ib_unknown_sgid_test(struct kunit *test)
{
	struct sa_path_rec rec;
	struct rdma_ah_attr ah;

	ib_path(&rec, 64, 1);
	rec.sgid.global.interface_id = cpu_to_be64(0xdeadbeef);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), IB_PORT,
							&rec, &ah, NULL),
			-ENOENT);
	expect_nothing_held(test, &ah);

	/* port 2's GIDs are not port 1's */
	ib_path(&rec, 64, 1);
	rec.sgid = lo_gid();
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), IB_PORT,
							&rec, &ah, NULL),
			-ENOENT);
	expect_nothing_held(test, &ah);
}

/* ---- Address vectors: RoCE ----------------------------------------------- */

/* Route already known: the entry is found by sgid and type, MAC copied. */
static void roce_resolved_test(struct kunit *test)
{
	const struct ib_gid_attr *lo = fix_of(test)->lo_gid;
	union ib_gid dgid = lo_gid();
	unsigned int refs = gid_refs(lo);
	struct sa_path_rec rec;
	struct rdma_ah_attr ah;

	roce_path(&rec, &dgid);
	rec.roce.route_resolved = true;
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, NULL), 0);
	KUNIT_EXPECT_EQ(test, ah.type, RDMA_AH_ATTR_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&ah), ROCE_PORT);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&ah), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&ah), IB_RATE_25_GBPS);
	KUNIT_EXPECT_EQ(test,
			memcmp(ah.roce.dmac, rec.roce.dmac, ETH_ALEN), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&ah), IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, ah.grh.flow_label, 0x54321U);
	KUNIT_EXPECT_EQ(test, ah.grh.traffic_class, 0x60);
	KUNIT_EXPECT_PTR_EQ(test, ah.grh.sgid_attr, lo);
	KUNIT_EXPECT_EQ(test, ah.grh.sgid_index, lo->index);
	KUNIT_EXPECT_EQ(test, gid_refs(lo), refs + 1);
	rdma_destroy_ah_attr(&ah);
	KUNIT_EXPECT_EQ(test, gid_refs(lo), refs);

	/* hop limit 0 still gets a GRH on RoCE */
	rec.hop_limit = 0;
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&ah), IB_AH_GRH);
	rdma_destroy_ah_attr(&ah);

	/* the GID type comes from the path: there is no RoCE v1 entry */
	rec.rec_type = SA_PATH_REC_TYPE_ROCE_V1;
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, NULL),
			-ENOENT);
	expect_nothing_held(test, &ah);
	KUNIT_EXPECT_EQ(test, gid_refs(lo), refs);
}

/* Route not yet checked: through "lo", from the given entry's netdev. */
static void roce_route_test(struct kunit *test)
{
	const struct ib_gid_attr *lo = fix_of(test)->lo_gid;
	union ib_gid dgid = lo_gid();
	unsigned int refs = gid_refs(lo);
	struct sa_path_rec rec;
	struct rdma_ah_attr ah;

	roce_path(&rec, &dgid);
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, lo), 0);
	KUNIT_EXPECT_TRUE(test, rec.roce.route_resolved);
	KUNIT_EXPECT_PTR_EQ(test, ah.grh.sgid_attr, lo);
	KUNIT_EXPECT_EQ(test,
			memcmp(ah.roce.dmac, rec.roce.dmac, ETH_ALEN), 0);
	KUNIT_EXPECT_EQ(test, gid_refs(lo), refs + 1);
	rdma_destroy_ah_attr(&ah);
	KUNIT_EXPECT_EQ(test, gid_refs(lo), refs);

	/* a route without a router is fine for RoCE v1 too */
	roce_path(&rec, &dgid);
	rec.rec_type = SA_PATH_REC_TYPE_ROCE_V1;
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, lo), 0);
	KUNIT_EXPECT_TRUE(test, rec.roce.route_resolved);
	rdma_destroy_ah_attr(&ah);
	KUNIT_EXPECT_EQ(test, gid_refs(lo), refs);
}

/* What keeps a RoCE route from being checked: -EINVAL or the lookup's error. */
static void roce_route_errors_test(struct kunit *test)
{
	const struct ib_gid_attr *lo = fix_of(test)->lo_gid;
	const struct ib_gid_attr *ib_entry;
	union ib_gid dgid = lo_gid();
	unsigned int refs = gid_refs(lo);
	struct sa_path_rec rec;
	struct rdma_ah_attr ah;

	/* no GID entry to route from */
	roce_path(&rec, &dgid);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, NULL),
			-EINVAL);
	expect_nothing_held(test, &ah);

	/* a GID entry without a netdev (an IB port's) */
	ib_entry = rdma_get_gid_attr(dev_of(test), IB_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ib_entry);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, ib_entry),
			-EINVAL);
	expect_nothing_held(test, &ah);
	rdma_put_gid_attr(ib_entry);

	/* an IPv4 source and an IPv6 destination */
	dgid = (union ib_gid){ .raw = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 } };
	roce_path(&rec, &dgid);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, lo),
			-EINVAL);
	expect_nothing_held(test, &ah);

	/* an address nobody on "lo" owns */
	ipv6_addr_set_v4mapped(htonl(0x0a000001), (struct in6_addr *)dgid.raw);
	roce_path(&rec, &dgid);
	KUNIT_EXPECT_LT(test, ib_init_ah_attr_from_path(dev_of(test), ROCE_PORT,
							&rec, &ah, lo), 0);
	expect_nothing_held(test, &ah);

	KUNIT_EXPECT_FALSE(test, rec.roce.route_resolved);
	KUNIT_EXPECT_EQ(test, gid_refs(lo), refs);
}

static struct kunit_case sa_path_cases[] = {
	KUNIT_CASE(pack_full_test),
	KUNIT_CASE(unpack_full_test),
	KUNIT_CASE(unpack_sets_ib_test),
	KUNIT_CASE(boundary_values_test),
	KUNIT_CASE(narrow_fields_test),
	KUNIT_CASE(pack_other_types_test),
	KUNIT_CASE(ib_local_test),
	KUNIT_CASE(ib_grh_test),
	KUNIT_CASE(ib_given_sgid_test),
	KUNIT_CASE(ib_unknown_sgid_test),
	KUNIT_CASE(roce_resolved_test),
	KUNIT_CASE(roce_route_test),
	KUNIT_CASE(roce_route_errors_test),
	{}
};

static struct kunit_suite sa_path_suite = {
	.name = "ib_core_sa_path",
	.init = sa_path_test_init,
	.exit = sa_path_test_exit,
	.test_cases = sa_path_cases,
};

kunit_test_suite(sa_path_suite);

MODULE_DESCRIPTION("KUnit tests of the SA PathRecord helpers");
MODULE_LICENSE("GPL");
