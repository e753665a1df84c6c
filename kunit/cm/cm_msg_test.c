// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_cm_msg: CM messages decoded from and encoded back into MADs
 * the inbox stack sent.
 */

#include <kunit/test.h>
#include <asm/unaligned.h>
#include <linux/module.h>
#include <rdma/ib_mad.h>

#include "core/cm/cm.h"
#include "kunit/cm/cm_fixture.h"
#include "kunit/cm/cm_vectors.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The vectors (kunit/cm/vectors/, README.md there) are CM MADs of the
 * inbox stack of Debian's 6.1 kernel, inbox against inbox:
 *  - rping-3.pcap: one rping connection between two rxe devices of one
 *    guest (client 10.99.0.2, server 10.99.0.1, port 7174): REQ, REP,
 *    RTU, DREQ, DREP;
 *  - recorded by scripts/record-cm-vectors.sh between two guests, active
 *    side 10.88.0.2, passive side 10.88.0.1: rping.pcap (the same five),
 *    rej-nolistener.pcap (REQ, REJ reason 8), rej-consumer.pcap (REQ, REJ
 *    reason 28 with private data), mra.pcap (REQ, the REQ again, MRA, REP,
 *    RTU, DREQ, DREP), sidr.pcap (SIDR REQ, SIDR REP) and
 *    sidr-nolistener.pcap (SIDR REQ, SIDR REP status 1).
 * The expected values below are what tshark 4.0's CM dissector shows for
 * REQ, REP, RTU, REJ, DREQ and DREP; it has no dissector for MRA and SIDR
 * and misplaces the REQ's flow label word, so those were read off the
 * bytes by hand from the IBA tables (12.6), not through core/cm/.
 */

/* Packet @index (from 1) of capture @file, which must be of @attr_id. */
static const struct cm_vec *vec_at(struct kunit *test, const char *file,
				   u16 index, u16 attr_id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cm_vecs); i++) {
		const struct ib_mad_hdr *hdr = (const void *)cm_vecs[i].mad;

		if (strcmp(cm_vecs[i].file, file) || cm_vecs[i].index != index)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(hdr->attr_id), attr_id,
				    "%s #%u", file, index);
		return &cm_vecs[i];
	}
	KUNIT_FAIL(test, "no recorded MAD %s #%u", file, index);
	return NULL;
}

/* The first recorded MAD with @attr_id in rping-3.pcap. */
static const struct cm_vec *vec_of(struct kunit *test, u16 attr_id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cm_vecs); i++) {
		const struct ib_mad_hdr *hdr = (const void *)cm_vecs[i].mad;

		if (!strcmp(cm_vecs[i].file, "rping-3.pcap") &&
		    be16_to_cpu(hdr->attr_id) == attr_id)
			return &cm_vecs[i];
	}
	KUNIT_FAIL(test, "no recorded MAD with attribute 0x%x", attr_id);
	return NULL;
}

static __be64 vec_tid(const struct cm_vec *v)
{
	return ((const struct ib_mad_hdr *)v->mad)->tid;
}

/* A GID holding an IPv4 address the way RoCE maps it: ::ffff:a.b.c.d. */
static union ib_gid v4_gid(const u8 ip[4])
{
	union ib_gid gid = {};

	gid.raw[10] = 0xff;
	gid.raw[11] = 0xff;
	memcpy(&gid.raw[12], ip, 4);
	return gid;
}

/* The first byte where @mad differs from @v's, or 256. */
static unsigned int mad_differs(const struct ib_mad *mad,
				const struct cm_vec *v)
{
	unsigned int i;

	for (i = 0; i < sizeof(*mad); i++)
		if (((const u8 *)mad)[i] != v->mad[i])
			break;
	return i;
}

/*
 * Encoding what was decoded gives back the recorded MAD, every byte: a
 * MAD as ib_create_send_mad() hands it out (all zero), our CM header with
 * the recorded TID, our encoding of @decoded.
 */
static void expect_reencodes(struct kunit *test, enum cm_msg_kind kind,
			     const struct cm_vec *v, const void *decoded)
{
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mad);
	cm_msg_hdr_init(&mad->mad_hdr, kind, vec_tid(v));
	cm_msg_encode(kind, decoded, mad);
	KUNIT_EXPECT_EQ_MSG(test, mad_differs(mad, v), (unsigned int)sizeof(*mad),
			    "%s #%u: re-encoded byte differs", v->file, v->index);
}

static void cm_msg_hdr_test(struct kunit *test)
{
	const struct cm_vec *v = vec_of(test, 0x10);
	struct ib_mad_hdr hdr;

	KUNIT_ASSERT_NOT_NULL(test, v);
	memset(&hdr, 0xee, sizeof(hdr));
	cm_msg_hdr_init(&hdr, CM_MSG_REQ,
			cpu_to_be64(0x00000004e622451eULL));
	KUNIT_EXPECT_EQ(test, memcmp(&hdr, v->mad, sizeof(hdr)), 0);
}

static void cm_msg_kinds_test(struct kunit *test)
{
	unsigned int k;
	u32 id;

	for (k = 0; k < CM_MSG_KINDS; k++)
		KUNIT_EXPECT_EQ(test, be16_to_cpu(cm_msg_attr_id(k)), 0x10 + k);
	for (id = 0; id < 0x10000; id++)
		KUNIT_EXPECT_EQ_MSG(test, cm_msg_kind_of(cpu_to_be16(id)),
				    id >= 0x10 && id <= 0x1a ? (int)id - 0x10 : -1,
				    "attribute 0x%x", id);
}

static void cm_msg_req_test(struct kunit *test)
{
	const struct cm_vec *v = vec_of(test, 0x10);
	struct cm_msg_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	union ib_gid src, dst;
	static const u8 cma_hdr[4] = { 0x00, 0x40, 0xe1, 0x2a };

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, req);
	cm_msg_decode(CM_MSG_REQ, (const struct ib_mad *)v->mad, req);
	src = v4_gid(v->src_ip);
	dst = v4_gid(v->dst_ip);

	KUNIT_EXPECT_EQ(test, req->local_comm_id, 0x1e4522e6);
	KUNIT_EXPECT_EQ(test, req->vendor_id, 0);
	/* RDMA_PS_TCP (0x0106) << 16 | port 7174 */
	KUNIT_EXPECT_EQ(test, req->service_id, 0x0000000001061c06ULL);
	KUNIT_EXPECT_EQ(test, req->local_ca_guid, 0x000000fffe00000bULL);
	KUNIT_EXPECT_EQ(test, req->local_qkey, 0);
	KUNIT_EXPECT_EQ(test, req->local_qpn, 0x1f);
	KUNIT_EXPECT_EQ(test, req->responder_resources, 1);
	KUNIT_EXPECT_EQ(test, req->initiator_depth, 1);
	KUNIT_EXPECT_EQ(test, req->remote_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, req->transport_type, 0);
	KUNIT_EXPECT_EQ(test, req->flow_control, 0);
	KUNIT_EXPECT_EQ(test, req->starting_psn, 0x5cb3f2);
	KUNIT_EXPECT_EQ(test, req->local_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, req->retry_count, 7);
	KUNIT_EXPECT_EQ(test, req->pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, req->path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, req->rnr_retry_count, 7);
	KUNIT_EXPECT_EQ(test, req->max_cm_retries, 15);
	KUNIT_EXPECT_EQ(test, req->srq, 0);
	KUNIT_EXPECT_EQ(test, req->primary.local_lid, 0xffff);
	KUNIT_EXPECT_EQ(test, req->primary.remote_lid, 0xffff);
	KUNIT_EXPECT_EQ(test, memcmp(&req->primary.local_gid, &src, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&req->primary.remote_gid, &dst, 16), 0);
	KUNIT_EXPECT_EQ(test, req->primary.flow_label, 0xb601c);
	KUNIT_EXPECT_EQ(test, req->primary.rate, 0);
	KUNIT_EXPECT_EQ(test, req->primary.traffic_class, 0);
	KUNIT_EXPECT_EQ(test, req->primary.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, req->primary.sl, 0);
	KUNIT_EXPECT_EQ(test, req->primary.subnet_local, 0);
	KUNIT_EXPECT_EQ(test, req->primary.local_ack_timeout, 19);
	KUNIT_EXPECT_EQ(test, req->alternate.local_lid, 0);
	KUNIT_EXPECT_EQ(test, req->alternate.hop_limit, 0);
	/* The CMA header: version 0, IPv4, the client's port, both addresses. */
	KUNIT_EXPECT_EQ(test, memcmp(req->private_data, cma_hdr, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&req->private_data[4 + 12], v->src_ip, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&req->private_data[20 + 12], v->dst_ip, 4), 0);
	expect_reencodes(test, CM_MSG_REQ, v, req);
}

static void cm_msg_rep_test(struct kunit *test)
{
	const struct cm_vec *v = vec_of(test, 0x13);
	struct cm_msg_rep *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	cm_msg_decode(CM_MSG_REP, (const struct ib_mad *)v->mad, rep);
	KUNIT_EXPECT_EQ(test, rep->local_comm_id, 0x1d4522e6);
	KUNIT_EXPECT_EQ(test, rep->remote_comm_id, 0x1e4522e6);
	KUNIT_EXPECT_EQ(test, rep->local_qkey, 0);
	KUNIT_EXPECT_EQ(test, rep->local_qpn, 0x1f);
	KUNIT_EXPECT_EQ(test, rep->starting_psn, 0x6a55e4);
	KUNIT_EXPECT_EQ(test, rep->responder_resources, 1);
	KUNIT_EXPECT_EQ(test, rep->initiator_depth, 1);
	/* rxe's ca_ack_delay */
	KUNIT_EXPECT_EQ(test, rep->target_ack_delay, 15);
	KUNIT_EXPECT_EQ(test, rep->failover_accepted, 0);
	KUNIT_EXPECT_EQ(test, rep->flow_control, 0);
	KUNIT_EXPECT_EQ(test, rep->rnr_retry_count, 7);
	KUNIT_EXPECT_EQ(test, rep->srq, 0);
	KUNIT_EXPECT_EQ(test, rep->local_ca_guid, 0x000000fffe00000aULL);
	KUNIT_EXPECT_EQ(test, rep->vendor_id_h | rep->vendor_id_m | rep->vendor_id_l, 0);
	expect_reencodes(test, CM_MSG_REP, v, rep);
}

static void cm_msg_rtu_dreq_drep_test(struct kunit *test)
{
	const struct cm_vec *v;
	struct cm_msg_rtu rtu;
	struct cm_msg_dreq dreq;
	struct cm_msg_drep drep;

	v = vec_of(test, 0x14);
	KUNIT_ASSERT_NOT_NULL(test, v);
	cm_msg_decode(CM_MSG_RTU, (const struct ib_mad *)v->mad, &rtu);
	KUNIT_EXPECT_EQ(test, rtu.local_comm_id, 0x1e4522e6);
	KUNIT_EXPECT_EQ(test, rtu.remote_comm_id, 0x1d4522e6);
	expect_reencodes(test, CM_MSG_RTU, v, &rtu);

	v = vec_of(test, 0x15);
	KUNIT_ASSERT_NOT_NULL(test, v);
	cm_msg_decode(CM_MSG_DREQ, (const struct ib_mad *)v->mad, &dreq);
	KUNIT_EXPECT_EQ(test, dreq.local_comm_id, 0x1e4522e6);
	KUNIT_EXPECT_EQ(test, dreq.remote_comm_id, 0x1d4522e6);
	KUNIT_EXPECT_EQ(test, dreq.remote_qpn, 0x1f);
	expect_reencodes(test, CM_MSG_DREQ, v, &dreq);

	v = vec_of(test, 0x16);
	KUNIT_ASSERT_NOT_NULL(test, v);
	cm_msg_decode(CM_MSG_DREP, (const struct ib_mad *)v->mad, &drep);
	KUNIT_EXPECT_EQ(test, drep.local_comm_id, 0x1d4522e6);
	KUNIT_EXPECT_EQ(test, drep.remote_comm_id, 0x1e4522e6);
	expect_reencodes(test, CM_MSG_DREP, v, &drep);
}

/* REJ's fields at the IBA table's bytes, ARI and private data to their last byte. */
static void cm_msg_rej_layout_test(struct kunit *test)
{
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);
	struct cm_msg_rej rej = {}, back;
	const u8 *body;

	KUNIT_ASSERT_NOT_NULL(test, mad);
	rej.local_comm_id = 0x11223344;
	rej.remote_comm_id = 0x55667788;
	rej.message_rejected = 2;
	rej.ari_length = 0x7f;
	rej.reason = 28;
	rej.ari[0] = 0xa1;
	rej.ari[71] = 0xa2;
	rej.private_data[0] = 0xb1;
	rej.private_data[147] = 0xb2;
	cm_msg_encode(CM_MSG_REJ, &rej, mad);
	body = mad->data;
	KUNIT_EXPECT_EQ(test, body[0], 0x11);
	KUNIT_EXPECT_EQ(test, body[7], 0x88);
	/* MessageRejected in the top 2 bits of byte 8, RejInfoLen in byte 9 */
	KUNIT_EXPECT_EQ(test, body[8], 0x80);
	KUNIT_EXPECT_EQ(test, body[9], 0xfe);
	KUNIT_EXPECT_EQ(test, body[10], 0x00);
	KUNIT_EXPECT_EQ(test, body[11], 28);
	KUNIT_EXPECT_EQ(test, body[12], 0xa1);
	KUNIT_EXPECT_EQ(test, body[83], 0xa2);
	KUNIT_EXPECT_EQ(test, body[84], 0xb1);
	KUNIT_EXPECT_EQ(test, body[231], 0xb2);
	cm_msg_decode(CM_MSG_REJ, mad, &back);
	KUNIT_EXPECT_EQ(test, memcmp(&back, &rej, sizeof(rej)), 0);
}

/* Every field of every kind survives encode and decode with all bits set. */
static void cm_msg_roundtrip_test(struct kunit *test)
{
	static const size_t sizes[CM_MSG_KINDS] = {
		[CM_MSG_REQ] = sizeof(struct cm_msg_req),
		[CM_MSG_MRA] = sizeof(struct cm_msg_mra),
		[CM_MSG_REJ] = sizeof(struct cm_msg_rej),
		[CM_MSG_REP] = sizeof(struct cm_msg_rep),
		[CM_MSG_RTU] = sizeof(struct cm_msg_rtu),
		[CM_MSG_DREQ] = sizeof(struct cm_msg_dreq),
		[CM_MSG_DREP] = sizeof(struct cm_msg_drep),
		[CM_MSG_SIDR_REQ] = sizeof(struct cm_msg_sidr_req),
		[CM_MSG_SIDR_REP] = sizeof(struct cm_msg_sidr_rep),
		[CM_MSG_LAP] = sizeof(struct cm_msg_lap),
		[CM_MSG_APR] = sizeof(struct cm_msg_apr),
	};
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);
	u8 *a = kunit_kzalloc(test, 512, GFP_KERNEL);
	u8 *b = kunit_kzalloc(test, 512, GFP_KERNEL);
	unsigned int k, i;

	KUNIT_ASSERT_NOT_NULL(test, mad);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (k = 0; k < CM_MSG_KINDS; k++) {
		KUNIT_ASSERT_LE(test, sizes[k], (size_t)512);
		/* A body of all ones decodes to members that encode back to it. */
		memset(mad, 0xff, sizeof(*mad));
		memset(a, 0, 512);	/* padding equal in both */
		cm_msg_decode(k, mad, a);
		memset(mad, 0, sizeof(*mad));
		cm_msg_encode(k, a, mad);
		memset(b, 0, 512);
		cm_msg_decode(k, mad, b);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(a, b, sizes[k]), 0, "kind %u", k);
		/* ...and no field spills into the header. */
		for (i = 0; i < sizeof(mad->mad_hdr); i++)
			if (((u8 *)mad)[i])
				break;
		KUNIT_EXPECT_EQ_MSG(test, i, sizeof(mad->mad_hdr), "kind %u", k);
	}
}

/* ---- Our own recordings, message by message ------------------------------ */

/* ::ffff:10.88.0.x, the guests of scripts/record-cm-vectors.sh */
static const u8 active_ip[4] = { 10, 88, 0, 2 };
static const u8 passive_ip[4] = { 10, 88, 0, 1 };
static const u64 active_guid = 0x505400fffe880002ULL;
static const u64 passive_guid = 0x505400fffe880001ULL;
/* What the inbox consumer of rej-consumer.pcap rejects with. */
static const char inbox_rej_data[] = "rejected by inbox";

static bool all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/*
 * The TID of every message of one connection, the answers included: the
 * active side's MAD agent's high TID (2 here) over its local comm ID as
 * it lies in memory, which is what our cm_id_tid() makes too.
 */
static void expect_conn_tid(struct kunit *test, const struct cm_vec *v,
			    u32 active_comm_id)
{
	u64 tid = be64_to_cpu(vec_tid(v));

	KUNIT_EXPECT_EQ_MSG(test, tid >> 32, 2ULL, "%s #%u", v->file, v->index);
	KUNIT_EXPECT_EQ_MSG(test, (u32)tid,
			    (__force u32)cpu_to_be32(active_comm_id),
			    "%s #%u", v->file, v->index);
}

/*
 * The CMA header of a REQ or SIDR REQ: version 0, IPv4, the active side's
 * port, both addresses (IPv4 in the last 4 bytes of each 16), nothing else.
 */
static void expect_cma_hdr(struct kunit *test, const u8 *pd, size_t len,
			   u16 sport)
{
	static const u8 zero12[12];

	KUNIT_EXPECT_EQ(test, pd[0], 0x00);
	KUNIT_EXPECT_EQ(test, pd[1], 0x40);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&pd[2]), sport);
	KUNIT_EXPECT_EQ(test, memcmp(&pd[4], zero12, 12), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&pd[16], active_ip, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&pd[20], zero12, 12), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&pd[32], passive_ip, 4), 0);
	KUNIT_EXPECT_TRUE(test, all_zero(&pd[36], len - 36));
}

/*
 * A REQ of rdma_cm over the inbox rxe between the two guests: what is the
 * same in every one, and what differs (@comm_id, @port, @qpn, @psn and the
 * flow label rdma_cm hashes from the ports, @flow), then its CMA header.
 */
static void expect_rec_req(struct kunit *test, const struct cm_vec *v,
			   u32 comm_id, u16 port, u32 qpn, u32 psn, u32 flow,
			   u16 sport)
{
	struct cm_msg_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct cm_msg_path *no_path = kunit_kzalloc(test, sizeof(*no_path),
						    GFP_KERNEL);
	union ib_gid src = v4_gid(active_ip), dst = v4_gid(passive_ip);

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, no_path);
	KUNIT_EXPECT_EQ(test, memcmp(v->src_ip, active_ip, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(v->dst_ip, passive_ip, 4), 0);
	cm_msg_decode(CM_MSG_REQ, (const struct ib_mad *)v->mad, req);
	KUNIT_EXPECT_EQ(test, req->local_comm_id, comm_id);
	KUNIT_EXPECT_EQ(test, req->vendor_id, 0);
	/* RDMA_PS_TCP (0x0106) << 16 | port */
	KUNIT_EXPECT_EQ(test, req->service_id, 0x0000000001060000ULL | port);
	KUNIT_EXPECT_EQ(test, req->local_ca_guid, active_guid);
	KUNIT_EXPECT_EQ(test, req->local_qkey, 0);
	KUNIT_EXPECT_EQ(test, req->local_qpn, qpn);
	KUNIT_EXPECT_EQ(test, req->responder_resources, 1);
	KUNIT_EXPECT_EQ(test, req->local_eecn, 0);
	KUNIT_EXPECT_EQ(test, req->initiator_depth, 1);
	KUNIT_EXPECT_EQ(test, req->remote_eecn, 0);
	KUNIT_EXPECT_EQ(test, req->remote_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, req->transport_type, 0);
	KUNIT_EXPECT_EQ(test, req->flow_control, 0);
	KUNIT_EXPECT_EQ(test, req->starting_psn, psn);
	KUNIT_EXPECT_EQ(test, req->local_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, req->retry_count, 7);
	KUNIT_EXPECT_EQ(test, req->pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, req->path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, req->rdc_exists, 0);
	KUNIT_EXPECT_EQ(test, req->rnr_retry_count, 7);
	KUNIT_EXPECT_EQ(test, req->max_cm_retries, 15);
	KUNIT_EXPECT_EQ(test, req->srq, 0);
	KUNIT_EXPECT_EQ(test, req->extended_transport_type, 0);
	/* RoCE: no LIDs (0xffff), IPv4-mapped GIDs */
	KUNIT_EXPECT_EQ(test, req->primary.local_lid, 0xffff);
	KUNIT_EXPECT_EQ(test, req->primary.remote_lid, 0xffff);
	KUNIT_EXPECT_EQ(test, memcmp(&req->primary.local_gid, &src, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&req->primary.remote_gid, &dst, 16), 0);
	KUNIT_EXPECT_EQ(test, req->primary.flow_label, flow);
	KUNIT_EXPECT_EQ(test, req->primary.rate, 0);
	KUNIT_EXPECT_EQ(test, req->primary.traffic_class, 0);
	KUNIT_EXPECT_EQ(test, req->primary.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, req->primary.sl, 0);
	KUNIT_EXPECT_EQ(test, req->primary.subnet_local, 0);
	KUNIT_EXPECT_EQ(test, req->primary.local_ack_timeout, 19);
	KUNIT_EXPECT_EQ(test, memcmp(&req->alternate, no_path, sizeof(*no_path)), 0);
	KUNIT_EXPECT_EQ(test, req->sap_supported, 0);
	expect_cma_hdr(test, req->private_data, sizeof(req->private_data), sport);
	expect_conn_tid(test, v, comm_id);
	expect_reencodes(test, CM_MSG_REQ, v, req);
}

/* The REP of the passive side: @comm_id, @qpn, @psn differ. */
static void expect_rec_rep(struct kunit *test, const struct cm_vec *v,
			   u32 comm_id, u32 remote_id, u32 qpn, u32 psn)
{
	struct cm_msg_rep *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	cm_msg_decode(CM_MSG_REP, (const struct ib_mad *)v->mad, rep);
	KUNIT_EXPECT_EQ(test, rep->local_comm_id, comm_id);
	KUNIT_EXPECT_EQ(test, rep->remote_comm_id, remote_id);
	KUNIT_EXPECT_EQ(test, rep->local_qkey, 0);
	KUNIT_EXPECT_EQ(test, rep->local_qpn, qpn);
	KUNIT_EXPECT_EQ(test, rep->local_eecn, 0);
	KUNIT_EXPECT_EQ(test, rep->starting_psn, psn);
	KUNIT_EXPECT_EQ(test, rep->responder_resources, 1);
	KUNIT_EXPECT_EQ(test, rep->initiator_depth, 1);
	/* rxe's ca_ack_delay */
	KUNIT_EXPECT_EQ(test, rep->target_ack_delay, 15);
	KUNIT_EXPECT_EQ(test, rep->failover_accepted, 0);
	KUNIT_EXPECT_EQ(test, rep->flow_control, 0);
	KUNIT_EXPECT_EQ(test, rep->rnr_retry_count, 7);
	KUNIT_EXPECT_EQ(test, rep->srq, 0);
	KUNIT_EXPECT_EQ(test, rep->local_ca_guid, passive_guid);
	KUNIT_EXPECT_EQ(test, rep->vendor_id_h | rep->vendor_id_m | rep->vendor_id_l, 0);
	KUNIT_EXPECT_TRUE(test, all_zero(rep->private_data, sizeof(rep->private_data)));
	expect_conn_tid(test, v, remote_id);
	expect_reencodes(test, CM_MSG_REP, v, rep);
}

/*
 * RTU, DREQ and DREP of a connection whose REQ and REP were @req and @rep
 * (in @file, from packet @first on): each decodes to the comm IDs and QPN
 * those two gave, carries no private data, and is what we encode from the
 * REQ's and REP's fields, byte for byte.
 */
static void expect_rec_teardown(struct kunit *test, const char *file,
				u16 first, const struct cm_vec *req_v,
				const struct cm_vec *rep_v)
{
	struct cm_msg_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct cm_msg_rep *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);
	struct cm_out *in = kunit_kzalloc(test, sizeof(*in), GFP_KERNEL);
	struct cm_out *built = kunit_kzalloc(test, sizeof(*built), GFP_KERNEL);
	const struct cm_vec *v;

	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, built);
	KUNIT_ASSERT_NOT_NULL(test, req_v);
	KUNIT_ASSERT_NOT_NULL(test, rep_v);
	cm_msg_decode(CM_MSG_REQ, (const struct ib_mad *)req_v->mad, req);
	cm_msg_decode(CM_MSG_REP, (const struct ib_mad *)rep_v->mad, rep);

	v = vec_at(test, file, first, 0x14);
	KUNIT_ASSERT_NOT_NULL(test, v);
	cm_msg_decode(CM_MSG_RTU, (const struct ib_mad *)v->mad, &in->msg.rtu);
	KUNIT_EXPECT_EQ(test, in->msg.rtu.local_comm_id, req->local_comm_id);
	KUNIT_EXPECT_EQ(test, in->msg.rtu.remote_comm_id, rep->local_comm_id);
	KUNIT_EXPECT_TRUE(test, all_zero(in->msg.rtu.private_data,
					 sizeof(in->msg.rtu.private_data)));
	expect_conn_tid(test, v, req->local_comm_id);
	built->msg.rtu.local_comm_id = req->local_comm_id;
	built->msg.rtu.remote_comm_id = rep->local_comm_id;
	expect_reencodes(test, CM_MSG_RTU, v, &built->msg.rtu);

	/* The active side disconnects. */
	memset(built, 0, sizeof(*built));
	v = vec_at(test, file, first + 1, 0x15);
	KUNIT_ASSERT_NOT_NULL(test, v);
	cm_msg_decode(CM_MSG_DREQ, (const struct ib_mad *)v->mad, &in->msg.dreq);
	KUNIT_EXPECT_EQ(test, in->msg.dreq.local_comm_id, req->local_comm_id);
	KUNIT_EXPECT_EQ(test, in->msg.dreq.remote_comm_id, rep->local_comm_id);
	KUNIT_EXPECT_EQ(test, in->msg.dreq.remote_qpn, rep->local_qpn);
	KUNIT_EXPECT_TRUE(test, all_zero(in->msg.dreq.private_data,
					 sizeof(in->msg.dreq.private_data)));
	expect_conn_tid(test, v, req->local_comm_id);
	built->msg.dreq.local_comm_id = req->local_comm_id;
	built->msg.dreq.remote_comm_id = rep->local_comm_id;
	built->msg.dreq.remote_qpn = rep->local_qpn;
	expect_reencodes(test, CM_MSG_DREQ, v, &built->msg.dreq);

	memset(built, 0, sizeof(*built));
	v = vec_at(test, file, first + 2, 0x16);
	KUNIT_ASSERT_NOT_NULL(test, v);
	cm_msg_decode(CM_MSG_DREP, (const struct ib_mad *)v->mad, &in->msg.drep);
	KUNIT_EXPECT_EQ(test, in->msg.drep.local_comm_id, rep->local_comm_id);
	KUNIT_EXPECT_EQ(test, in->msg.drep.remote_comm_id, req->local_comm_id);
	KUNIT_EXPECT_TRUE(test, all_zero(in->msg.drep.private_data,
					 sizeof(in->msg.drep.private_data)));
	expect_conn_tid(test, v, req->local_comm_id);
	built->msg.drep.local_comm_id = rep->local_comm_id;
	built->msg.drep.remote_comm_id = req->local_comm_id;
	expect_reencodes(test, CM_MSG_DREP, v, &built->msg.drep);
}

/* rping.pcap: rping -c against rping -s, 3 pings, the client hangs up. */
static void cm_msg_rec_rping_test(struct kunit *test)
{
	const struct cm_vec *req = vec_at(test, "rping.pcap", 1, 0x10);
	const struct cm_vec *rep = vec_at(test, "rping.pcap", 2, 0x13);

	expect_rec_req(test, req, 0xc86ba646, 7174, 0x11, 0x6c7826, 0xb0dc4,
		       0xde82);
	expect_rec_rep(test, rep, 0xf8b19387, 0xc86ba646, 0x11, 0x90a198);
	expect_rec_teardown(test, "rping.pcap", 3, req, rep);
}

/* rej-nolistener.pcap: a REQ for port 7999, where nobody listens. */
static void cm_msg_rec_rej_nolistener_test(struct kunit *test)
{
	const struct cm_vec *v = vec_at(test, "rej-nolistener.pcap", 1, 0x10);
	struct cm_msg_rej rej_in, rej = {};

	expect_rec_req(test, v, 0xc96ba646, 7999, 0x12, 0xc55406, 0x87528,
		       0xc8f7);
	v = vec_at(test, "rej-nolistener.pcap", 2, 0x12);
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_EXPECT_EQ(test, memcmp(v->src_ip, passive_ip, 4), 0);
	cm_msg_decode(CM_MSG_REJ, (const struct ib_mad *)v->mad, &rej_in);
	/* No local comm ID: no id was made for the REQ. */
	KUNIT_EXPECT_EQ(test, rej_in.local_comm_id, 0);
	KUNIT_EXPECT_EQ(test, rej_in.remote_comm_id, 0xc96ba646);
	KUNIT_EXPECT_EQ(test, rej_in.message_rejected, 0);
	KUNIT_EXPECT_EQ(test, rej_in.ari_length, 0);
	KUNIT_EXPECT_EQ(test, rej_in.reason, IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_TRUE(test, all_zero(rej_in.ari, sizeof(rej_in.ari)));
	KUNIT_EXPECT_TRUE(test, all_zero(rej_in.private_data, sizeof(rej_in.private_data)));
	expect_conn_tid(test, v, 0xc96ba646);
	rej.remote_comm_id = 0xc96ba646;
	rej.reason = IB_CM_REJ_INVALID_SERVICE_ID;
	expect_reencodes(test, CM_MSG_REJ, v, &rej);
}

/* rej-consumer.pcap: a pyverbs listener rejects with private data. */
static void cm_msg_rec_rej_consumer_test(struct kunit *test)
{
	const struct cm_vec *v = vec_at(test, "rej-consumer.pcap", 1, 0x10);
	struct cm_msg_rej rej_in, rej = {};

	expect_rec_req(test, v, 0xca6ba646, 7300, 0x13, 0x799fbd, 0x3bac2,
		       0xa202);
	v = vec_at(test, "rej-consumer.pcap", 2, 0x12);
	KUNIT_ASSERT_NOT_NULL(test, v);
	cm_msg_decode(CM_MSG_REJ, (const struct ib_mad *)v->mad, &rej_in);
	/*
	 * The passive id has a local comm ID: the inbox rdma_cm armed its
	 * delayed MRA, so the id rejects from MRA_REQ_SENT, not REQ_RCVD.
	 */
	KUNIT_EXPECT_EQ(test, rej_in.local_comm_id, 0xfdb19387);
	KUNIT_EXPECT_EQ(test, rej_in.remote_comm_id, 0xca6ba646);
	KUNIT_EXPECT_EQ(test, rej_in.message_rejected, 0);
	KUNIT_EXPECT_EQ(test, rej_in.ari_length, 0);
	KUNIT_EXPECT_EQ(test, rej_in.reason, IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_TRUE(test, all_zero(rej_in.ari, sizeof(rej_in.ari)));
	KUNIT_EXPECT_EQ(test, memcmp(rej_in.private_data, inbox_rej_data,
				     strlen(inbox_rej_data)), 0);
	KUNIT_EXPECT_TRUE(test, all_zero(&rej_in.private_data[strlen(inbox_rej_data)],
					 sizeof(rej_in.private_data) -
					 strlen(inbox_rej_data)));
	expect_conn_tid(test, v, 0xca6ba646);
	rej.local_comm_id = 0xfdb19387;
	rej.remote_comm_id = 0xca6ba646;
	rej.reason = IB_CM_REJ_CONSUMER_DEFINED;
	memcpy(rej.private_data, inbox_rej_data, strlen(inbox_rej_data));
	expect_reencodes(test, CM_MSG_REJ, v, &rej);
}

/*
 * mra.pcap: the listener accepts 9 s late. The REQ is sent again after
 * 6144 ms, the same MAD; the passive CM answers the repeat with the MRA
 * its rdma_cm armed (service timeout 24); REP, RTU, DREQ and DREP follow.
 */
static void cm_msg_rec_mra_test(struct kunit *test)
{
	const struct cm_vec *req = vec_at(test, "mra.pcap", 1, 0x10);
	const struct cm_vec *again = vec_at(test, "mra.pcap", 2, 0x10);
	const struct cm_vec *rep = vec_at(test, "mra.pcap", 4, 0x13);
	const struct cm_vec *v = vec_at(test, "mra.pcap", 3, 0x11);
	struct cm_msg_mra mra_in, mra = {};

	expect_rec_req(test, req, 0xcb6ba646, 7301, 0x14, 0x1e21f2, 0x42b23,
		       0xa5a2);
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_EQ(test, memcmp(again->mad, req->mad, sizeof(req->mad)), 0);

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_EXPECT_EQ(test, memcmp(v->src_ip, passive_ip, 4), 0);
	cm_msg_decode(CM_MSG_MRA, (const struct ib_mad *)v->mad, &mra_in);
	KUNIT_EXPECT_EQ(test, mra_in.local_comm_id, 0xffb19387);
	KUNIT_EXPECT_EQ(test, mra_in.remote_comm_id, 0xcb6ba646);
	KUNIT_EXPECT_EQ(test, mra_in.message_mraed, 0);
	KUNIT_EXPECT_EQ(test, mra_in.service_timeout, 24);
	KUNIT_EXPECT_TRUE(test, all_zero(mra_in.private_data, sizeof(mra_in.private_data)));
	/* Byte 8: MessageMRAed in bits 7-6; byte 9: ServiceTimeout in 7-3. */
	KUNIT_EXPECT_EQ(test, v->mad[24 + 8], 0x00);
	KUNIT_EXPECT_EQ(test, v->mad[24 + 9], 24 << 3);
	expect_conn_tid(test, v, 0xcb6ba646);
	mra.local_comm_id = 0xffb19387;
	mra.remote_comm_id = 0xcb6ba646;
	mra.service_timeout = 24;
	expect_reencodes(test, CM_MSG_MRA, v, &mra);

	expect_rec_rep(test, rep, 0xffb19387, 0xcb6ba646, 0x12, 0xd42e27);
	expect_rec_teardown(test, "mra.pcap", 5, req, rep);
}

/*
 * A SIDR REQ of rdma_cm (RDMA_PS_UDP, udaddy's port 7174): @request_id
 * and the CMA header's source port @sport differ from one to the next.
 */
static void expect_rec_sidr_req(struct kunit *test, const struct cm_vec *v,
				u32 request_id, u16 sport)
{
	struct cm_msg_sidr_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_EXPECT_EQ(test, memcmp(v->src_ip, active_ip, 4), 0);
	cm_msg_decode(CM_MSG_SIDR_REQ, (const struct ib_mad *)v->mad, req);
	KUNIT_EXPECT_EQ(test, req->request_id, request_id);
	KUNIT_EXPECT_EQ(test, req->pkey, 0xffff);
	/* RDMA_PS_UDP (0x0111) << 16 | 7174 */
	KUNIT_EXPECT_EQ(test, req->service_id, 0x0000000001111c06ULL);
	/* Bytes 4-5 the P_Key, 6-7 reserved, 8-15 the service ID. */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&v->mad[24 + 4]), 0xffff);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&v->mad[24 + 6]), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(&v->mad[24 + 8]), 0x01111c06ULL);
	expect_cma_hdr(test, req->private_data, sizeof(req->private_data), sport);
	expect_conn_tid(test, v, request_id);
	expect_reencodes(test, CM_MSG_SIDR_REQ, v, req);
}

/* The SIDR REP answering @request_id: @status, @qpn and @qkey. */
static void expect_rec_sidr_rep(struct kunit *test, const struct cm_vec *v,
				u32 request_id, u8 status, u32 qpn, u32 qkey)
{
	struct cm_msg_sidr_rep *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);
	struct cm_msg_sidr_rep *built = kunit_kzalloc(test, sizeof(*built), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	KUNIT_ASSERT_NOT_NULL(test, built);
	KUNIT_EXPECT_EQ(test, memcmp(v->src_ip, passive_ip, 4), 0);
	cm_msg_decode(CM_MSG_SIDR_REP, (const struct ib_mad *)v->mad, rep);
	KUNIT_EXPECT_EQ(test, rep->request_id, request_id);
	KUNIT_EXPECT_EQ(test, rep->status, status);
	KUNIT_EXPECT_EQ(test, rep->info_length, 0);
	KUNIT_EXPECT_EQ(test, rep->vendor_id_h, 0);
	KUNIT_EXPECT_EQ(test, rep->qpn, qpn);
	KUNIT_EXPECT_EQ(test, rep->vendor_id_l, 0);
	/* The requested service, also when it is refused. */
	KUNIT_EXPECT_EQ(test, rep->service_id, 0x0000000001111c06ULL);
	KUNIT_EXPECT_EQ(test, rep->qkey, qkey);
	KUNIT_EXPECT_TRUE(test, all_zero(rep->info, sizeof(rep->info)));
	KUNIT_EXPECT_TRUE(test, all_zero(rep->private_data, sizeof(rep->private_data)));
	/* By hand: byte 4 the status, 8-10 the QPN, 12-19 the service, 20-23 the Q_Key. */
	KUNIT_EXPECT_EQ(test, v->mad[24 + 4], status);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&v->mad[24 + 8]) >> 8, qpn);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(&v->mad[24 + 12]), 0x01111c06ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&v->mad[24 + 20]), qkey);
	expect_conn_tid(test, v, request_id);
	built->request_id = request_id;
	built->status = status;
	built->qpn = qpn;
	built->service_id = 0x0000000001111c06ULL;
	built->qkey = qkey;
	expect_reencodes(test, CM_MSG_SIDR_REP, v, built);
}

/* sidr.pcap: udaddy -s against udaddy; the REP names its UD QP and Q_Key. */
static void cm_msg_rec_sidr_test(struct kunit *test)
{
	expect_rec_sidr_req(test, vec_at(test, "sidr.pcap", 1, 0x17),
			    0xcc6ba646, 0xe8e2);
	/* rdma_cm's RDMA_UDP_QKEY */
	expect_rec_sidr_rep(test, vec_at(test, "sidr.pcap", 2, 0x18),
			    0xcc6ba646, IB_SIDR_SUCCESS, 0x13, 0x01234567);
}

/* sidr-nolistener.pcap: no UD listener on the port: status 1, no QP. */
static void cm_msg_rec_sidr_nolistener_test(struct kunit *test)
{
	expect_rec_sidr_req(test, vec_at(test, "sidr-nolistener.pcap", 1, 0x17),
			    0xcd6ba646, 0x9baf);
	expect_rec_sidr_rep(test, vec_at(test, "sidr-nolistener.pcap", 2, 0x18),
			    0xcd6ba646, IB_SIDR_UNSUPPORTED, 0, 0);
}

/* Every recorded MAD: our header, and what we encode from its decoding. */
static void cm_msg_rec_all_test(struct kunit *test)
{
	struct cm_out *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	bool seen[CM_MSG_KINDS] = {};
	unsigned int i, k;

	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < ARRAY_SIZE(cm_vecs); i++) {
		const struct cm_vec *v = &cm_vecs[i];
		const struct ib_mad_hdr *hdr = (const void *)v->mad;
		int kind = cm_msg_kind_of(hdr->attr_id);

		KUNIT_ASSERT_GE_MSG(test, kind, 0, "%s #%u", v->file, v->index);
		seen[kind] = true;
		KUNIT_ASSERT_LE(test, kind, (int)CM_MSG_SIDR_REP);
		memset(out, 0, sizeof(*out));
		cm_msg_decode(kind, (const struct ib_mad *)v->mad, &out->msg);
		expect_reencodes(test, kind, v, &out->msg);
	}
	/* Every kind rdma_cm uses is among the recordings (not LAP, APR). */
	for (k = 0; k <= CM_MSG_SIDR_REP; k++)
		KUNIT_EXPECT_TRUE_MSG(test, seen[k], "no recorded %s",
				      cm_input_name((enum cm_input)k));
}

/* ---- Our CM in the inbox's place ------------------------------------------ */

/*
 * Our engine, put in the state the inbox side was in and given the same
 * input, sends the message the inbox sent, byte for byte. The MADs go to
 * the fake wire of cm_fixture.h, which keeps the last one.
 */
static int ignore_event(struct ib_cm_id *cm_id, const struct ib_cm_event *ev)
{
	return 0;
}

/*
 * An id in @state talking to @remote_id, its local comm ID @local_id for
 * the length of the case (the one it was given is put back before it
 * goes, see engine_id_put()), its TID @tid.
 */
static struct cm_id_priv *engine_id(struct kunit *test, enum ib_cm_state state,
				    u32 local_id, u32 remote_id, __be64 tid,
				    __be32 *own_id)
{
	struct cm_id_priv *priv = cm_id_alloc(&fake_dev, ignore_event, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(priv));
	if (state >= IB_CM_REQ_SENT && state <= IB_CM_DREQ_RCVD) {
		priv->tw = cm_timewait_alloc(priv, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, priv->tw);
	}
	*own_id = priv->id.local_id;
	priv->id.state = state;
	priv->id.local_id = cpu_to_be32(local_id);
	priv->id.remote_id = cpu_to_be32(remote_id);
	priv->tid = tid;
	return priv;
}

static void engine_id_put(struct cm_id_priv *priv, __be32 own_id)
{
	priv->id.local_id = own_id;
	cm_id_destroy(priv, 0);
}

/* The last MAD the engine sent is the recorded @v. */
static void expect_sent(struct kunit *test, enum cm_msg_kind kind,
			const struct cm_vec *v)
{
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mad);
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, wire.sent, 1);
	KUNIT_ASSERT_EQ(test, wire.last.kind, kind);
	cm_msg_hdr_init(&mad->mad_hdr, wire.last.kind, wire.last.tid);
	cm_msg_encode(wire.last.kind, &wire.last.msg, mad);
	KUNIT_EXPECT_EQ_MSG(test, mad_differs(mad, v), (unsigned int)sizeof(*mad),
			    "%s #%u: our byte differs", v->file, v->index);
}

static int engine_feed(struct cm_id_priv *priv, struct cm_in *in)
{
	int ret = cm_table_feed(priv, in);

	flush_work(&priv->event_work);
	return ret;
}

/* The repeated REQ in MRA_REQ_SENT (rdma_cm's delayed MRA): the MRA. */
static void cm_msg_engine_mra_test(struct kunit *test)
{
	const struct cm_vec *again = vec_at(test, "mra.pcap", 2, 0x10);
	struct cm_msg_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct cm_in in = { .input = CM_IN_REQ, .port = &fake_port };
	struct cm_id_priv *priv;
	__be32 own;

	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_ASSERT_NOT_NULL(test, req);
	cm_msg_decode(CM_MSG_REQ, (const struct ib_mad *)again->mad, req);
	priv = engine_id(test, IB_CM_MRA_REQ_SENT, 0xffb19387,
			 req->local_comm_id, vec_tid(again), &own);
	spin_lock_irq(&priv->lock);
	/* What ib_send_cm_mra(IB_CM_MRA_FLAG_DELAY | 24) left. */
	priv->service_timeout = 24;
	spin_unlock_irq(&priv->lock);
	in.msg = req;
	in.tid = vec_tid(again);
	KUNIT_EXPECT_EQ(test, engine_feed(priv, &in), 0);
	expect_sent(test, CM_MSG_MRA, vec_at(test, "mra.pcap", 3, 0x11));
	engine_id_put(priv, own);
}

/* The consumer rejects from MRA_REQ_SENT with private data: reason 28. */
static void cm_msg_engine_rej_test(struct kunit *test)
{
	const struct cm_vec *v = vec_at(test, "rej-consumer.pcap", 2, 0x12);
	struct cm_in in = { .input = CM_IN_SEND_REJ,
			    .arg = IB_CM_REJ_CONSUMER_DEFINED,
			    .data = inbox_rej_data,
			    .data_len = sizeof(inbox_rej_data) - 1 };
	struct cm_id_priv *priv;
	__be32 own;

	KUNIT_ASSERT_NOT_NULL(test, v);
	priv = engine_id(test, IB_CM_MRA_REQ_SENT, 0xfdb19387, 0xca6ba646,
			 vec_tid(v), &own);
	KUNIT_EXPECT_EQ(test, engine_feed(priv, &in), 0);
	expect_sent(test, CM_MSG_REJ, v);
	engine_id_put(priv, own);
}

/* RTU from REP_RCVD, DREP from DREQ_RCVD (mra.pcap's connection). */
static void cm_msg_engine_rtu_drep_test(struct kunit *test)
{
	const struct cm_vec *v = vec_at(test, "mra.pcap", 5, 0x14);
	struct cm_in in = { .input = CM_IN_SEND_RTU };
	struct cm_id_priv *priv;
	__be32 own;

	KUNIT_ASSERT_NOT_NULL(test, v);
	priv = engine_id(test, IB_CM_REP_RCVD, 0xcb6ba646, 0xffb19387,
			 vec_tid(v), &own);
	KUNIT_EXPECT_EQ(test, engine_feed(priv, &in), 0);
	expect_sent(test, CM_MSG_RTU, v);
	engine_id_put(priv, own);

	memset(&wire, 0, sizeof(wire));
	v = vec_at(test, "mra.pcap", 7, 0x16);
	KUNIT_ASSERT_NOT_NULL(test, v);
	in.input = CM_IN_SEND_DREP;
	priv = engine_id(test, IB_CM_DREQ_RCVD, 0xffb19387, 0xcb6ba646,
			 vec_tid(v), &own);
	KUNIT_EXPECT_EQ(test, engine_feed(priv, &in), 0);
	expect_sent(test, CM_MSG_DREP, v);
	engine_id_put(priv, own);
}

/* The UD listener answers with its QP and Q_Key (sidr.pcap). */
static void cm_msg_engine_sidr_rep_test(struct kunit *test)
{
	const struct cm_vec *v = vec_at(test, "sidr.pcap", 2, 0x18);
	struct ib_cm_sidr_rep_param param = {
		.status = IB_SIDR_SUCCESS, .qp_num = 0x13, .qkey = 0x01234567,
	};
	struct cm_in in = { .input = CM_IN_SEND_SIDR_REP, .msg = &param };
	struct cm_id_priv *priv;
	__be32 own;

	KUNIT_ASSERT_NOT_NULL(test, v);
	priv = engine_id(test, IB_CM_SIDR_REQ_RCVD, 0, 0, vec_tid(v), &own);
	priv->sidr_remote_id = 0xcc6ba646;
	priv->id.service_id = cpu_to_be64(0x01111c06);
	KUNIT_EXPECT_EQ(test, engine_feed(priv, &in), 0);
	expect_sent(test, CM_MSG_SIDR_REP, v);
	engine_id_put(priv, own);
}

/* A recorded MAD received on the fake port. */
static int engine_recv(struct kunit *test, const struct cm_vec *v)
{
	struct ib_mad_recv_wc *rwc = kunit_kzalloc(test, sizeof(*rwc), GFP_KERNEL);
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rwc);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	memcpy(mad, v->mad, sizeof(*mad));
	rwc->recv_buf.mad = mad;
	rwc->mad_len = sizeof(*mad);
	return cm_recv_mad(&fake_port, rwc);
}

/*
 * Nobody listens: a REQ gets the REJ with reason 8, a SIDR REQ the SIDR
 * REP with status 1, both as the inbox answered ours.
 */
static void cm_msg_engine_no_listener_test(struct kunit *test)
{
	const struct cm_vec *v = vec_at(test, "rej-nolistener.pcap", 1, 0x10);

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_EXPECT_EQ(test, engine_recv(test, v), -ENOENT);
	expect_sent(test, CM_MSG_REJ, vec_at(test, "rej-nolistener.pcap", 2, 0x12));

	memset(&wire, 0, sizeof(wire));
	v = vec_at(test, "sidr-nolistener.pcap", 1, 0x17);
	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_EXPECT_EQ(test, engine_recv(test, v), -ENOENT);
	expect_sent(test, CM_MSG_SIDR_REP,
		    vec_at(test, "sidr-nolistener.pcap", 2, 0x18));
}

static struct kunit_case cm_msg_cases[] = {
	/* rping-3.pcap, and the layouts */
	KUNIT_CASE(cm_msg_hdr_test),
	KUNIT_CASE(cm_msg_kinds_test),
	KUNIT_CASE(cm_msg_req_test),
	KUNIT_CASE(cm_msg_rep_test),
	KUNIT_CASE(cm_msg_rtu_dreq_drep_test),
	KUNIT_CASE(cm_msg_rej_layout_test),
	KUNIT_CASE(cm_msg_roundtrip_test),
	/* scripts/record-cm-vectors.sh's captures, decoded and encoded */
	KUNIT_CASE(cm_msg_rec_rping_test),
	KUNIT_CASE(cm_msg_rec_rej_nolistener_test),
	KUNIT_CASE(cm_msg_rec_rej_consumer_test),
	KUNIT_CASE(cm_msg_rec_mra_test),
	KUNIT_CASE(cm_msg_rec_sidr_test),
	KUNIT_CASE(cm_msg_rec_sidr_nolistener_test),
	KUNIT_CASE(cm_msg_rec_all_test),
	/* our engine sends what the inbox sent */
	KUNIT_CASE(cm_msg_engine_mra_test),
	KUNIT_CASE(cm_msg_engine_rej_test),
	KUNIT_CASE(cm_msg_engine_rtu_drep_test),
	KUNIT_CASE(cm_msg_engine_sidr_rep_test),
	KUNIT_CASE(cm_msg_engine_no_listener_test),
	{}
};

static struct kunit_suite cm_msg_test_suite = {
	.name = "ib_cm_msg",
	.init = cm_test_init,
	.exit = cm_test_exit,
	.test_cases = cm_msg_cases,
};

kunit_test_suite(cm_msg_test_suite);

MODULE_DESCRIPTION("KUnit tests of the IB CM message layouts");
MODULE_LICENSE("GPL");
