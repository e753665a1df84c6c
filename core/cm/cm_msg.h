/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The IB CM's messages as plain C: what every CM MAD carries, decoded and to be
 * encoded (core/cm/cm_msg.c).
 */
#ifndef RDMAOOT_CORE_CM_CM_MSG_H
#define RDMAOOT_CORE_CM_CM_MSG_H

#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

/*
 * A CM message is one MAD of class 0x07, version 2, method SEND, the
 * message kind in the attribute ID, its fields at fixed Byte[Bit]
 * positions of the 232-byte body (<rdma/ibta_vol1_c12.h>). The CM engine
 * works on the decoded structures below, numbers in host order, never on
 * wire bytes; one table per kind (cm_msg.c) says where each member lives
 * on the wire, so decoding and encoding are the same walk in two
 * directions, and a field the table names is all that ever moves.
 */

#define CM_MSG_CLASS_VERSION	2

/* The message kinds, in attribute ID order (0x10 .. 0x1a). */
enum cm_msg_kind {
	CM_MSG_REQ,
	CM_MSG_MRA,
	CM_MSG_REJ,
	CM_MSG_REP,
	CM_MSG_RTU,
	CM_MSG_DREQ,
	CM_MSG_DREP,
	CM_MSG_SIDR_REQ,
	CM_MSG_SIDR_REP,
	CM_MSG_LAP,
	CM_MSG_APR,
	CM_MSG_KINDS,
};

/* Private data room of each kind, in bytes (IBA 12.6). */
#define CM_REQ_PRIVATE_DATA_SIZE	92
#define CM_MRA_PRIVATE_DATA_SIZE	222
#define CM_REJ_PRIVATE_DATA_SIZE	148
#define CM_REP_PRIVATE_DATA_SIZE	196
#define CM_RTU_PRIVATE_DATA_SIZE	224
#define CM_DREQ_PRIVATE_DATA_SIZE	220
#define CM_DREP_PRIVATE_DATA_SIZE	224
#define CM_SIDR_REQ_PRIVATE_DATA_SIZE	216
#define CM_SIDR_REP_PRIVATE_DATA_SIZE	136
#define CM_LAP_PRIVATE_DATA_SIZE	168
#define CM_APR_PRIVATE_DATA_SIZE	148
#define CM_REJ_ARI_SIZE			72
#define CM_APR_INFO_SIZE		72
#define CM_SIDR_REP_INFO_SIZE		72

/* One path of a REQ (primary or alternate) or of a LAP (alternate). */
struct cm_msg_path {
	u16		local_lid;
	u16		remote_lid;
	union ib_gid	local_gid;
	union ib_gid	remote_gid;
	u32		flow_label;
	u8		rate;
	u8		traffic_class;
	u8		hop_limit;
	u8		sl;
	u8		subnet_local;
	u8		local_ack_timeout;
};

struct cm_msg_req {
	u32	local_comm_id;
	u32	vendor_id;
	u64	service_id;
	u64	local_ca_guid;
	u32	local_qkey;
	u32	local_qpn;
	u8	responder_resources;
	u32	local_eecn;
	u8	initiator_depth;
	u32	remote_eecn;
	u8	remote_cm_response_timeout;
	u8	transport_type;		/* 0 RC, 1 UC, 3 extended (XRC) */
	u8	flow_control;
	u32	starting_psn;
	u8	local_cm_response_timeout;
	u8	retry_count;
	u16	pkey;
	u8	path_mtu;		/* enum ib_mtu */
	u8	rdc_exists;
	u8	rnr_retry_count;
	u8	max_cm_retries;
	u8	srq;
	u8	extended_transport_type;
	struct cm_msg_path primary;
	struct cm_msg_path alternate;
	u8	sap_supported;
	u8	private_data[CM_REQ_PRIVATE_DATA_SIZE];
};

struct cm_msg_mra {
	u32	local_comm_id;
	u32	remote_comm_id;
	u8	message_mraed;		/* 0 REQ, 1 REP, 2 LAP */
	u8	service_timeout;
	u8	private_data[CM_MRA_PRIVATE_DATA_SIZE];
};

struct cm_msg_rej {
	u32	local_comm_id;
	u32	remote_comm_id;
	u8	message_rejected;	/* 0 REQ, 1 REP, 2 other */
	u8	ari_length;
	u16	reason;
	u8	ari[CM_REJ_ARI_SIZE];
	u8	private_data[CM_REJ_PRIVATE_DATA_SIZE];
};

struct cm_msg_rep {
	u32	local_comm_id;
	u32	remote_comm_id;
	u32	local_qkey;
	u32	local_qpn;
	u8	vendor_id_h;
	u32	local_eecn;
	u8	vendor_id_m;
	u32	starting_psn;
	u8	vendor_id_l;
	u8	responder_resources;
	u8	initiator_depth;
	u8	target_ack_delay;
	u8	failover_accepted;
	u8	flow_control;
	u8	rnr_retry_count;
	u8	srq;
	u64	local_ca_guid;
	u8	private_data[CM_REP_PRIVATE_DATA_SIZE];
};

struct cm_msg_rtu {
	u32	local_comm_id;
	u32	remote_comm_id;
	u8	private_data[CM_RTU_PRIVATE_DATA_SIZE];
};

struct cm_msg_dreq {
	u32	local_comm_id;
	u32	remote_comm_id;
	u32	remote_qpn;
	u8	private_data[CM_DREQ_PRIVATE_DATA_SIZE];
};

struct cm_msg_drep {
	u32	local_comm_id;
	u32	remote_comm_id;
	u8	private_data[CM_DREP_PRIVATE_DATA_SIZE];
};

struct cm_msg_sidr_req {
	u32	request_id;
	u16	pkey;
	u64	service_id;
	u8	private_data[CM_SIDR_REQ_PRIVATE_DATA_SIZE];
};

struct cm_msg_sidr_rep {
	u32	request_id;
	u8	status;
	u8	info_length;
	u16	vendor_id_h;
	u32	qpn;
	u8	vendor_id_l;
	u64	service_id;
	u32	qkey;
	u8	info[CM_SIDR_REP_INFO_SIZE];
	u8	private_data[CM_SIDR_REP_PRIVATE_DATA_SIZE];
};

struct cm_msg_lap {
	u32	local_comm_id;
	u32	remote_comm_id;
	u32	remote_qpn;
	u8	remote_cm_response_timeout;
	struct cm_msg_path alternate;
	u8	private_data[CM_LAP_PRIVATE_DATA_SIZE];
};

struct cm_msg_apr {
	u32	local_comm_id;
	u32	remote_comm_id;
	u8	info_length;
	u8	status;
	u8	info[CM_APR_INFO_SIZE];
	u8	private_data[CM_APR_PRIVATE_DATA_SIZE];
};

/* Any one message, decoded: what cm_msg_decode() fills in for a kind. */
union cm_msg_any {
	struct cm_msg_req	req;
	struct cm_msg_mra	mra;
	struct cm_msg_rej	rej;
	struct cm_msg_rep	rep;
	struct cm_msg_rtu	rtu;
	struct cm_msg_dreq	dreq;
	struct cm_msg_drep	drep;
	struct cm_msg_sidr_req	sidr_req;
	struct cm_msg_sidr_rep	sidr_rep;
	struct cm_msg_lap	lap;
	struct cm_msg_apr	apr;
};

/* The attribute ID of @kind, and the kind of an attribute ID (-1: none). */
__be16 cm_msg_attr_id(enum cm_msg_kind kind);
int cm_msg_kind_of(__be16 attr_id);

/* The MAD header every CM message starts with. */
void cm_msg_hdr_init(struct ib_mad_hdr *hdr, enum cm_msg_kind kind,
		     __be64 tid);

/*
 * Decode the body of @mad (a whole 256-byte MAD of @kind) into @out, the
 * struct cm_msg_<kind>; encode @in into the body of @mad, leaving the
 * header and every bit no field names as they are (zero in a MAD fresh
 * from ib_create_send_mad()).
 */
void cm_msg_decode(enum cm_msg_kind kind, const struct ib_mad *mad,
		   void *out);
void cm_msg_encode(enum cm_msg_kind kind, const void *in,
		   struct ib_mad *mad);

#endif /* RDMAOOT_CORE_CM_CM_MSG_H */
