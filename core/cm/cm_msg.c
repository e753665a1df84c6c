// SPDX-License-Identifier: GPL-2.0-only
/*
 * IB CM messages: a table per kind from decoded members to the Byte[Bit] fields
 * of <rdma/ibta_vol1_c12.h>.
 */

#include <kunit/visibility.h>
#include <linux/stddef.h>
#include <rdma/ibta_vol1_c12.h>

#include "cm/cm_msg.h"

/*
 * One row ties a member of a decoded structure to a field of the message.
 * Numbers (width up to 64 bits) go through the IBA bit engine; byte arrays
 * (GIDs, private data, ARI) are copied whole. The rows are made from the
 * field names of <rdma/ibta_vol1_c12.h>, so a position is written down in
 * one place only.
 */
struct cm_row {
	u16	member;		/* offset in the decoded structure */
	u8	size;		/* of a numeric member: 1, 2, 4 or 8; 0: bytes */
	u16	byte;		/* of the field in the MAD (header included) */
	u8	bit;
	u16	width;		/* in bits */
};

#define __CM_NUM(dtype, member, stype, byte, bit, width)		\
	{ offsetof(dtype, member), sizeof_field(dtype, member),		\
	  byte, bit, width }
#define __CM_BYTES(dtype, member, stype, byte, width, ctype)		\
	{ offsetof(dtype, member), 0, byte, 0, width }
/* NUM(member, CM_FIELD) and BYTES(member, CM_FIELD), inside a table of T. */
#define NUM(member, field)	__CM_NUM(T, member, field)
#define BYTES(member, field)	__CM_BYTES(T, member, field)

#define T struct cm_msg_req
static const struct cm_row cm_req_rows[] = {
	NUM(local_comm_id, CM_REQ_LOCAL_COMM_ID),
	NUM(vendor_id, CM_REQ_VENDOR_ID),
	NUM(service_id, CM_REQ_SERVICE_ID),
	NUM(local_ca_guid, CM_REQ_LOCAL_CA_GUID),
	NUM(local_qkey, CM_REQ_LOCAL_Q_KEY),
	NUM(local_qpn, CM_REQ_LOCAL_QPN),
	NUM(responder_resources, CM_REQ_RESPONDER_RESOURCES),
	NUM(local_eecn, CM_REQ_LOCAL_EECN),
	NUM(initiator_depth, CM_REQ_INITIATOR_DEPTH),
	NUM(remote_eecn, CM_REQ_REMOTE_EECN),
	NUM(remote_cm_response_timeout, CM_REQ_REMOTE_CM_RESPONSE_TIMEOUT),
	NUM(transport_type, CM_REQ_TRANSPORT_SERVICE_TYPE),
	NUM(flow_control, CM_REQ_END_TO_END_FLOW_CONTROL),
	NUM(starting_psn, CM_REQ_STARTING_PSN),
	NUM(local_cm_response_timeout, CM_REQ_LOCAL_CM_RESPONSE_TIMEOUT),
	NUM(retry_count, CM_REQ_RETRY_COUNT),
	NUM(pkey, CM_REQ_PARTITION_KEY),
	NUM(path_mtu, CM_REQ_PATH_PACKET_PAYLOAD_MTU),
	NUM(rdc_exists, CM_REQ_RDC_EXISTS),
	NUM(rnr_retry_count, CM_REQ_RNR_RETRY_COUNT),
	NUM(max_cm_retries, CM_REQ_MAX_CM_RETRIES),
	NUM(srq, CM_REQ_SRQ),
	NUM(extended_transport_type, CM_REQ_EXTENDED_TRANSPORT_TYPE),
	NUM(primary.local_lid, CM_REQ_PRIMARY_LOCAL_PORT_LID),
	NUM(primary.remote_lid, CM_REQ_PRIMARY_REMOTE_PORT_LID),
	BYTES(primary.local_gid, CM_REQ_PRIMARY_LOCAL_PORT_GID),
	BYTES(primary.remote_gid, CM_REQ_PRIMARY_REMOTE_PORT_GID),
	NUM(primary.flow_label, CM_REQ_PRIMARY_FLOW_LABEL),
	NUM(primary.rate, CM_REQ_PRIMARY_PACKET_RATE),
	NUM(primary.traffic_class, CM_REQ_PRIMARY_TRAFFIC_CLASS),
	NUM(primary.hop_limit, CM_REQ_PRIMARY_HOP_LIMIT),
	NUM(primary.sl, CM_REQ_PRIMARY_SL),
	NUM(primary.subnet_local, CM_REQ_PRIMARY_SUBNET_LOCAL),
	NUM(primary.local_ack_timeout, CM_REQ_PRIMARY_LOCAL_ACK_TIMEOUT),
	NUM(alternate.local_lid, CM_REQ_ALTERNATE_LOCAL_PORT_LID),
	NUM(alternate.remote_lid, CM_REQ_ALTERNATE_REMOTE_PORT_LID),
	BYTES(alternate.local_gid, CM_REQ_ALTERNATE_LOCAL_PORT_GID),
	BYTES(alternate.remote_gid, CM_REQ_ALTERNATE_REMOTE_PORT_GID),
	NUM(alternate.flow_label, CM_REQ_ALTERNATE_FLOW_LABEL),
	NUM(alternate.rate, CM_REQ_ALTERNATE_PACKET_RATE),
	NUM(alternate.traffic_class, CM_REQ_ALTERNATE_TRAFFIC_CLASS),
	NUM(alternate.hop_limit, CM_REQ_ALTERNATE_HOP_LIMIT),
	NUM(alternate.sl, CM_REQ_ALTERNATE_SL),
	NUM(alternate.subnet_local, CM_REQ_ALTERNATE_SUBNET_LOCAL),
	NUM(alternate.local_ack_timeout, CM_REQ_ALTERNATE_LOCAL_ACK_TIMEOUT),
	NUM(sap_supported, CM_REQ_SAP_SUPPORTED),
	BYTES(private_data, CM_REQ_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_mra
static const struct cm_row cm_mra_rows[] = {
	NUM(local_comm_id, CM_MRA_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_MRA_REMOTE_COMM_ID),
	NUM(message_mraed, CM_MRA_MESSAGE_MRAED),
	NUM(service_timeout, CM_MRA_SERVICE_TIMEOUT),
	BYTES(private_data, CM_MRA_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_rej
static const struct cm_row cm_rej_rows[] = {
	NUM(local_comm_id, CM_REJ_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_REJ_REMOTE_COMM_ID),
	NUM(message_rejected, CM_REJ_MESSAGE_REJECTED),
	NUM(ari_length, CM_REJ_REJECTED_INFO_LENGTH),
	NUM(reason, CM_REJ_REASON),
	BYTES(ari, CM_REJ_ARI),
	BYTES(private_data, CM_REJ_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_rep
static const struct cm_row cm_rep_rows[] = {
	NUM(local_comm_id, CM_REP_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_REP_REMOTE_COMM_ID),
	NUM(local_qkey, CM_REP_LOCAL_Q_KEY),
	NUM(local_qpn, CM_REP_LOCAL_QPN),
	NUM(vendor_id_h, CM_REP_VENDOR_ID_H),
	NUM(local_eecn, CM_REP_LOCAL_EE_CONTEXT_NUMBER),
	NUM(vendor_id_m, CM_REP_VENDOR_ID_M),
	NUM(starting_psn, CM_REP_STARTING_PSN),
	NUM(vendor_id_l, CM_REP_VENDOR_ID_L),
	NUM(responder_resources, CM_REP_RESPONDER_RESOURCES),
	NUM(initiator_depth, CM_REP_INITIATOR_DEPTH),
	NUM(target_ack_delay, CM_REP_TARGET_ACK_DELAY),
	NUM(failover_accepted, CM_REP_FAILOVER_ACCEPTED),
	NUM(flow_control, CM_REP_END_TO_END_FLOW_CONTROL),
	NUM(rnr_retry_count, CM_REP_RNR_RETRY_COUNT),
	NUM(srq, CM_REP_SRQ),
	NUM(local_ca_guid, CM_REP_LOCAL_CA_GUID),
	BYTES(private_data, CM_REP_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_rtu
static const struct cm_row cm_rtu_rows[] = {
	NUM(local_comm_id, CM_RTU_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_RTU_REMOTE_COMM_ID),
	BYTES(private_data, CM_RTU_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_dreq
static const struct cm_row cm_dreq_rows[] = {
	NUM(local_comm_id, CM_DREQ_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_DREQ_REMOTE_COMM_ID),
	NUM(remote_qpn, CM_DREQ_REMOTE_QPN_EECN),
	BYTES(private_data, CM_DREQ_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_drep
static const struct cm_row cm_drep_rows[] = {
	NUM(local_comm_id, CM_DREP_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_DREP_REMOTE_COMM_ID),
	BYTES(private_data, CM_DREP_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_sidr_req
static const struct cm_row cm_sidr_req_rows[] = {
	NUM(request_id, CM_SIDR_REQ_REQUESTID),
	NUM(pkey, CM_SIDR_REQ_PARTITION_KEY),
	NUM(service_id, CM_SIDR_REQ_SERVICEID),
	BYTES(private_data, CM_SIDR_REQ_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_sidr_rep
static const struct cm_row cm_sidr_rep_rows[] = {
	NUM(request_id, CM_SIDR_REP_REQUESTID),
	NUM(status, CM_SIDR_REP_STATUS),
	NUM(info_length, CM_SIDR_REP_ADDITIONAL_INFORMATION_LENGTH),
	NUM(vendor_id_h, CM_SIDR_REP_VENDOR_ID_H),
	NUM(qpn, CM_SIDR_REP_QPN),
	NUM(vendor_id_l, CM_SIDR_REP_VENDOR_ID_L),
	NUM(service_id, CM_SIDR_REP_SERVICEID),
	NUM(qkey, CM_SIDR_REP_Q_KEY),
	BYTES(info, CM_SIDR_REP_ADDITIONAL_INFORMATION),
	BYTES(private_data, CM_SIDR_REP_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_lap
static const struct cm_row cm_lap_rows[] = {
	NUM(local_comm_id, CM_LAP_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_LAP_REMOTE_COMM_ID),
	NUM(remote_qpn, CM_LAP_REMOTE_QPN_EECN),
	NUM(remote_cm_response_timeout, CM_LAP_REMOTE_CM_RESPONSE_TIMEOUT),
	NUM(alternate.local_lid, CM_LAP_ALTERNATE_LOCAL_PORT_LID),
	NUM(alternate.remote_lid, CM_LAP_ALTERNATE_REMOTE_PORT_LID),
	BYTES(alternate.local_gid, CM_LAP_ALTERNATE_LOCAL_PORT_GID),
	BYTES(alternate.remote_gid, CM_LAP_ALTERNATE_REMOTE_PORT_GID),
	NUM(alternate.flow_label, CM_LAP_ALTERNATE_FLOW_LABEL),
	NUM(alternate.traffic_class, CM_LAP_ALTERNATE_TRAFFIC_CLASS),
	NUM(alternate.hop_limit, CM_LAP_ALTERNATE_HOP_LIMIT),
	NUM(alternate.rate, CM_LAP_ALTERNATE_PACKET_RATE),
	NUM(alternate.sl, CM_LAP_ALTERNATE_SL),
	NUM(alternate.subnet_local, CM_LAP_ALTERNATE_SUBNET_LOCAL),
	NUM(alternate.local_ack_timeout, CM_LAP_ALTERNATE_LOCAL_ACK_TIMEOUT),
	BYTES(private_data, CM_LAP_PRIVATE_DATA),
};

#undef T

#define T struct cm_msg_apr
static const struct cm_row cm_apr_rows[] = {
	NUM(local_comm_id, CM_APR_LOCAL_COMM_ID),
	NUM(remote_comm_id, CM_APR_REMOTE_COMM_ID),
	NUM(info_length, CM_APR_ADDITIONAL_INFORMATION_LENGTH),
	NUM(status, CM_APR_AR_STATUS),
	BYTES(info, CM_APR_ADDITIONAL_INFORMATION),
	BYTES(private_data, CM_APR_PRIVATE_DATA),
};

#undef T

#undef NUM
#undef BYTES

/* Each kind: its attribute ID and its table. */
static const struct {
	u16 attr_id;
	const struct cm_row *rows;
	unsigned int nrows;
} cm_kinds[CM_MSG_KINDS] = {
#define KIND(k, id, rows)						\
	[k] = { id, rows, ARRAY_SIZE(rows) }
	KIND(CM_MSG_REQ,	0x10, cm_req_rows),
	KIND(CM_MSG_MRA,	0x11, cm_mra_rows),
	KIND(CM_MSG_REJ,	0x12, cm_rej_rows),
	KIND(CM_MSG_REP,	0x13, cm_rep_rows),
	KIND(CM_MSG_RTU,	0x14, cm_rtu_rows),
	KIND(CM_MSG_DREQ,	0x15, cm_dreq_rows),
	KIND(CM_MSG_DREP,	0x16, cm_drep_rows),
	KIND(CM_MSG_SIDR_REQ,	0x17, cm_sidr_req_rows),
	KIND(CM_MSG_SIDR_REP,	0x18, cm_sidr_rep_rows),
	KIND(CM_MSG_LAP,	0x19, cm_lap_rows),
	KIND(CM_MSG_APR,	0x1a, cm_apr_rows),
#undef KIND
};

__be16 cm_msg_attr_id(enum cm_msg_kind kind)
{
	return cpu_to_be16(cm_kinds[kind].attr_id);
}
EXPORT_SYMBOL_IF_KUNIT(cm_msg_attr_id);

int cm_msg_kind_of(__be16 attr_id)
{
	u16 id = be16_to_cpu(attr_id);

	if (id < cm_kinds[0].attr_id || id > cm_kinds[CM_MSG_KINDS - 1].attr_id)
		return -1;
	return id - cm_kinds[0].attr_id;
}
EXPORT_SYMBOL_IF_KUNIT(cm_msg_kind_of);

void cm_msg_hdr_init(struct ib_mad_hdr *hdr, enum cm_msg_kind kind,
		     __be64 tid)
{
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = IB_MGMT_CLASS_CM;
	hdr->class_version = CM_MSG_CLASS_VERSION;
	hdr->method = IB_MGMT_METHOD_SEND;
	hdr->status = 0;
	hdr->class_specific = 0;
	hdr->tid = tid;
	hdr->attr_id = cm_msg_attr_id(kind);
	hdr->resv = 0;
	hdr->attr_mod = 0;
}
EXPORT_SYMBOL_IF_KUNIT(cm_msg_hdr_init);

static u64 cm_row_load(const void *s, const struct cm_row *r)
{
	const void *p = s + r->member;

	switch (r->size) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return *(const u16 *)p;
	case 4:
		return *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

static void cm_row_store(void *s, const struct cm_row *r, u64 v)
{
	void *p = s + r->member;

	switch (r->size) {
	case 1:
		*(u8 *)p = v;
		break;
	case 2:
		*(u16 *)p = v;
		break;
	case 4:
		*(u32 *)p = v;
		break;
	default:
		*(u64 *)p = v;
		break;
	}
}

void cm_msg_decode(enum cm_msg_kind kind, const struct ib_mad *mad, void *out)
{
	const struct cm_row *r = cm_kinds[kind].rows;
	const struct cm_row *end = r + cm_kinds[kind].nrows;

	for (; r < end; r++) {
		if (!r->size)
			memcpy(out + r->member, (const u8 *)mad + r->byte,
			       r->width / 8);
		else
			cm_row_store(out, r, __iba_read(mad, r->byte, r->bit,
							r->width));
	}
}
EXPORT_SYMBOL_IF_KUNIT(cm_msg_decode);

void cm_msg_encode(enum cm_msg_kind kind, const void *in, struct ib_mad *mad)
{
	const struct cm_row *r = cm_kinds[kind].rows;
	const struct cm_row *end = r + cm_kinds[kind].nrows;

	for (; r < end; r++) {
		if (!r->size)
			memcpy((u8 *)mad + r->byte, in + r->member,
			       r->width / 8);
		else
			__iba_write(mad, r->byte, r->bit, r->width,
				    cm_row_load(in, r));
	}
}
EXPORT_SYMBOL_IF_KUNIT(cm_msg_encode);
