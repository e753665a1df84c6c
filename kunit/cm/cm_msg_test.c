// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_cm_msg: CM messages decoded from and encoded back into MADs the inbox stack sent. */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_mad.h>

#include "core/cm/cm_msg.h"
#include "kunit/cm/cm_vectors.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The vectors are one rping connection of the inbox stack (rping-3.pcap:
 * client 10.99.0.2, server 10.99.0.1, port 7174): REQ, REP, RTU, then
 * DREQ and DREP. The expected values below were read off the bytes by
 * hand from the IBA tables, not through core/cm/.
 */

static const struct cm_vec *vec_of(struct kunit *test, u16 attr_id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cm_vecs); i++) {
		const struct ib_mad_hdr *hdr = (const void *)cm_vecs[i].mad;

		if (be16_to_cpu(hdr->attr_id) == attr_id)
			return &cm_vecs[i];
	}
	KUNIT_FAIL(test, "no recorded MAD with attribute 0x%x", attr_id);
	return NULL;
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

/* Encoding what was decoded gives back the recorded body, every byte. */
static void expect_reencodes(struct kunit *test, enum cm_msg_kind kind,
			     const struct cm_vec *v, const void *decoded)
{
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, mad);
	memcpy(&mad->mad_hdr, v->mad, sizeof(mad->mad_hdr));
	cm_msg_encode(kind, decoded, mad);
	for (i = 0; i < sizeof(*mad); i++)
		if (((u8 *)mad)[i] != v->mad[i])
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, sizeof(*mad), "re-encoded byte %u differs", i);
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

/* REJ has no recording yet: its fields at the IBA table's bytes. */
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

static struct kunit_case cm_msg_cases[] = {
	KUNIT_CASE(cm_msg_hdr_test),
	KUNIT_CASE(cm_msg_kinds_test),
	KUNIT_CASE(cm_msg_req_test),
	KUNIT_CASE(cm_msg_rep_test),
	KUNIT_CASE(cm_msg_rtu_dreq_drep_test),
	KUNIT_CASE(cm_msg_rej_layout_test),
	KUNIT_CASE(cm_msg_roundtrip_test),
	{}
};

static struct kunit_suite cm_msg_test_suite = {
	.name = "ib_cm_msg",
	.test_cases = cm_msg_cases,
};

kunit_test_suite(cm_msg_test_suite);

MODULE_DESCRIPTION("KUnit tests of the IB CM message layouts");
MODULE_LICENSE("GPL");
