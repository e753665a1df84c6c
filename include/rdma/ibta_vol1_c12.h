/* SPDX-License-Identifier: GPL-2.0-only */
/* Wire layout of the IBTA communication management messages (vol. 1, chapter 12). */
#ifndef RDMAOOT_RDMA_IBTA_VOL1_C12_H
#define RDMAOOT_RDMA_IBTA_VOL1_C12_H

#include <rdma/iba.h>
#include <rdma/ib_mad.h>

/*
 * Every CM message is one 256-byte MAD: the common MAD header, then a
 * 232-byte body whose fields the chapter 12 tables locate by Byte[Bit]
 * relative to the start of the body. The macros below name each field
 * for IBA_GET()/IBA_SET() and friends (see <rdma/iba.h>); positions are
 * written as in the tables and shifted past the MAD header here.
 *
 *   __CM_BITS(msg, byte, bit, width)   numeric field of struct cm_<msg>_msg
 *   __CM_MEM(msg, byte, width, type)   byte-array field (GIDs, data)
 */
#define __CM_BITS(msg, byte, bit, width)				\
	IBA_FIELD(struct cm_##msg##_msg, (byte) + IB_MGMT_MAD_HDR, bit, width)
#define __CM_MEM(msg, byte, width, type)				\
	IBA_MEM_FIELD(struct cm_##msg##_msg, (byte) + IB_MGMT_MAD_HDR, width, type)

/* The message structures are opaque beyond the header: use the accessors. */
#define __CM_MSG(msg)							\
	struct cm_##msg##_msg {						\
		struct ib_mad_hdr hdr;					\
		u32 _data[IB_MGMT_MAD_DATA / sizeof(u32)];		\
	}

__CM_MSG(req);
__CM_MSG(mra);
__CM_MSG(rej);
__CM_MSG(rep);
__CM_MSG(rtu);
__CM_MSG(dreq);
__CM_MSG(drep);
__CM_MSG(lap);
__CM_MSG(apr);
__CM_MSG(sidr_req);
__CM_MSG(sidr_rep);

/* ---- Fields ----------------------------------------------------------------- */

/* REQ (table 106) */
#define CM_REQ_LOCAL_COMM_ID			__CM_BITS(req, 0, 0, 32)
#define CM_REQ_VENDOR_ID			__CM_BITS(req, 5, 0, 24)
#define CM_REQ_SERVICE_ID			__CM_BITS(req, 8, 0, 64)
#define CM_REQ_LOCAL_CA_GUID			__CM_BITS(req, 16, 0, 64)
#define CM_REQ_LOCAL_Q_KEY			__CM_BITS(req, 28, 0, 32)
#define CM_REQ_LOCAL_QPN			__CM_BITS(req, 32, 0, 24)
#define CM_REQ_RESPONDER_RESOURCES		__CM_BITS(req, 35, 0, 8)
#define CM_REQ_LOCAL_EECN			__CM_BITS(req, 36, 0, 24)
#define CM_REQ_INITIATOR_DEPTH			__CM_BITS(req, 39, 0, 8)
#define CM_REQ_REMOTE_EECN			__CM_BITS(req, 40, 0, 24)
#define CM_REQ_REMOTE_CM_RESPONSE_TIMEOUT	__CM_BITS(req, 43, 0, 5)
#define CM_REQ_TRANSPORT_SERVICE_TYPE		__CM_BITS(req, 43, 5, 2)
#define CM_REQ_END_TO_END_FLOW_CONTROL		__CM_BITS(req, 43, 7, 1)
#define CM_REQ_STARTING_PSN			__CM_BITS(req, 44, 0, 24)
#define CM_REQ_LOCAL_CM_RESPONSE_TIMEOUT	__CM_BITS(req, 47, 0, 5)
#define CM_REQ_RETRY_COUNT			__CM_BITS(req, 47, 5, 3)
#define CM_REQ_PARTITION_KEY			__CM_BITS(req, 48, 0, 16)
#define CM_REQ_PATH_PACKET_PAYLOAD_MTU		__CM_BITS(req, 50, 0, 4)
#define CM_REQ_RDC_EXISTS			__CM_BITS(req, 50, 4, 1)
#define CM_REQ_RNR_RETRY_COUNT			__CM_BITS(req, 50, 5, 3)
#define CM_REQ_MAX_CM_RETRIES			__CM_BITS(req, 51, 0, 4)
#define CM_REQ_SRQ				__CM_BITS(req, 51, 4, 1)
#define CM_REQ_EXTENDED_TRANSPORT_TYPE		__CM_BITS(req, 51, 5, 3)
#define CM_REQ_PRIMARY_LOCAL_PORT_LID		__CM_BITS(req, 52, 0, 16)
#define CM_REQ_PRIMARY_REMOTE_PORT_LID		__CM_BITS(req, 54, 0, 16)
#define CM_REQ_PRIMARY_LOCAL_PORT_GID		__CM_MEM(req, 56, 128, union ib_gid)
#define CM_REQ_PRIMARY_REMOTE_PORT_GID		__CM_MEM(req, 72, 128, union ib_gid)
#define CM_REQ_PRIMARY_FLOW_LABEL		__CM_BITS(req, 88, 0, 20)
#define CM_REQ_PRIMARY_PACKET_RATE		__CM_BITS(req, 91, 2, 6)
#define CM_REQ_PRIMARY_TRAFFIC_CLASS		__CM_BITS(req, 92, 0, 8)
#define CM_REQ_PRIMARY_HOP_LIMIT		__CM_BITS(req, 93, 0, 8)
#define CM_REQ_PRIMARY_SL			__CM_BITS(req, 94, 0, 4)
#define CM_REQ_PRIMARY_SUBNET_LOCAL		__CM_BITS(req, 94, 4, 1)
#define CM_REQ_PRIMARY_LOCAL_ACK_TIMEOUT	__CM_BITS(req, 95, 0, 5)
#define CM_REQ_ALTERNATE_LOCAL_PORT_LID		__CM_BITS(req, 96, 0, 16)
#define CM_REQ_ALTERNATE_REMOTE_PORT_LID	__CM_BITS(req, 98, 0, 16)
#define CM_REQ_ALTERNATE_LOCAL_PORT_GID		__CM_MEM(req, 100, 128, union ib_gid)
#define CM_REQ_ALTERNATE_REMOTE_PORT_GID	__CM_MEM(req, 116, 128, union ib_gid)
#define CM_REQ_ALTERNATE_FLOW_LABEL		__CM_BITS(req, 132, 0, 20)
#define CM_REQ_ALTERNATE_PACKET_RATE		__CM_BITS(req, 135, 2, 6)
#define CM_REQ_ALTERNATE_TRAFFIC_CLASS		__CM_BITS(req, 136, 0, 8)
#define CM_REQ_ALTERNATE_HOP_LIMIT		__CM_BITS(req, 137, 0, 8)
#define CM_REQ_ALTERNATE_SL			__CM_BITS(req, 138, 0, 4)
#define CM_REQ_ALTERNATE_SUBNET_LOCAL		__CM_BITS(req, 138, 4, 1)
#define CM_REQ_ALTERNATE_LOCAL_ACK_TIMEOUT	__CM_BITS(req, 139, 0, 5)
#define CM_REQ_SAP_SUPPORTED			__CM_BITS(req, 139, 5, 1)
#define CM_REQ_PRIVATE_DATA			__CM_MEM(req, 140, 736, void)

/* MRA (table 107) */
#define CM_MRA_LOCAL_COMM_ID			__CM_BITS(mra, 0, 0, 32)
#define CM_MRA_REMOTE_COMM_ID			__CM_BITS(mra, 4, 0, 32)
#define CM_MRA_MESSAGE_MRAED			__CM_BITS(mra, 8, 0, 2)
#define CM_MRA_SERVICE_TIMEOUT			__CM_BITS(mra, 9, 0, 5)
#define CM_MRA_PRIVATE_DATA			__CM_MEM(mra, 10, 1776, void)

/* REJ (table 108) */
#define CM_REJ_LOCAL_COMM_ID			__CM_BITS(rej, 0, 0, 32)
#define CM_REJ_REMOTE_COMM_ID			__CM_BITS(rej, 4, 0, 32)
#define CM_REJ_MESSAGE_REJECTED			__CM_BITS(rej, 8, 0, 2)
#define CM_REJ_REJECTED_INFO_LENGTH		__CM_BITS(rej, 9, 0, 7)
#define CM_REJ_REASON				__CM_BITS(rej, 10, 0, 16)
#define CM_REJ_ARI				__CM_MEM(rej, 12, 576, void)
#define CM_REJ_PRIVATE_DATA			__CM_MEM(rej, 84, 1184, void)

/* REP (table 110) */
#define CM_REP_LOCAL_COMM_ID			__CM_BITS(rep, 0, 0, 32)
#define CM_REP_REMOTE_COMM_ID			__CM_BITS(rep, 4, 0, 32)
#define CM_REP_LOCAL_Q_KEY			__CM_BITS(rep, 8, 0, 32)
#define CM_REP_LOCAL_QPN			__CM_BITS(rep, 12, 0, 24)
#define CM_REP_VENDOR_ID_H			__CM_BITS(rep, 15, 0, 8)
#define CM_REP_LOCAL_EE_CONTEXT_NUMBER		__CM_BITS(rep, 16, 0, 24)
#define CM_REP_VENDOR_ID_M			__CM_BITS(rep, 19, 0, 8)
#define CM_REP_STARTING_PSN			__CM_BITS(rep, 20, 0, 24)
#define CM_REP_VENDOR_ID_L			__CM_BITS(rep, 23, 0, 8)
#define CM_REP_RESPONDER_RESOURCES		__CM_BITS(rep, 24, 0, 8)
#define CM_REP_INITIATOR_DEPTH			__CM_BITS(rep, 25, 0, 8)
#define CM_REP_TARGET_ACK_DELAY			__CM_BITS(rep, 26, 0, 5)
#define CM_REP_FAILOVER_ACCEPTED		__CM_BITS(rep, 26, 5, 2)
#define CM_REP_END_TO_END_FLOW_CONTROL		__CM_BITS(rep, 26, 7, 1)
#define CM_REP_RNR_RETRY_COUNT			__CM_BITS(rep, 27, 0, 3)
#define CM_REP_SRQ				__CM_BITS(rep, 27, 3, 1)
#define CM_REP_LOCAL_CA_GUID			__CM_BITS(rep, 28, 0, 64)
#define CM_REP_PRIVATE_DATA			__CM_MEM(rep, 36, 1568, void)

/* RTU (table 111) */
#define CM_RTU_LOCAL_COMM_ID			__CM_BITS(rtu, 0, 0, 32)
#define CM_RTU_REMOTE_COMM_ID			__CM_BITS(rtu, 4, 0, 32)
#define CM_RTU_PRIVATE_DATA			__CM_MEM(rtu, 8, 1792, void)

/* DREQ (table 112) */
#define CM_DREQ_LOCAL_COMM_ID			__CM_BITS(dreq, 0, 0, 32)
#define CM_DREQ_REMOTE_COMM_ID			__CM_BITS(dreq, 4, 0, 32)
#define CM_DREQ_REMOTE_QPN_EECN			__CM_BITS(dreq, 8, 0, 24)
#define CM_DREQ_PRIVATE_DATA			__CM_MEM(dreq, 12, 1760, void)

/* DREP (table 113) */
#define CM_DREP_LOCAL_COMM_ID			__CM_BITS(drep, 0, 0, 32)
#define CM_DREP_REMOTE_COMM_ID			__CM_BITS(drep, 4, 0, 32)
#define CM_DREP_PRIVATE_DATA			__CM_MEM(drep, 8, 1792, void)

/* LAP (table 115) */
#define CM_LAP_LOCAL_COMM_ID			__CM_BITS(lap, 0, 0, 32)
#define CM_LAP_REMOTE_COMM_ID			__CM_BITS(lap, 4, 0, 32)
#define CM_LAP_REMOTE_QPN_EECN			__CM_BITS(lap, 12, 0, 24)
#define CM_LAP_REMOTE_CM_RESPONSE_TIMEOUT	__CM_BITS(lap, 15, 0, 5)
#define CM_LAP_ALTERNATE_LOCAL_PORT_LID		__CM_BITS(lap, 20, 0, 16)
#define CM_LAP_ALTERNATE_REMOTE_PORT_LID	__CM_BITS(lap, 22, 0, 16)
#define CM_LAP_ALTERNATE_LOCAL_PORT_GID		__CM_MEM(lap, 24, 128, union ib_gid)
#define CM_LAP_ALTERNATE_REMOTE_PORT_GID	__CM_MEM(lap, 40, 128, union ib_gid)
#define CM_LAP_ALTERNATE_FLOW_LABEL		__CM_BITS(lap, 56, 0, 20)
#define CM_LAP_ALTERNATE_TRAFFIC_CLASS		__CM_BITS(lap, 59, 0, 8)
#define CM_LAP_ALTERNATE_HOP_LIMIT		__CM_BITS(lap, 60, 0, 8)
#define CM_LAP_ALTERNATE_PACKET_RATE		__CM_BITS(lap, 61, 2, 6)
#define CM_LAP_ALTERNATE_SL			__CM_BITS(lap, 62, 0, 4)
#define CM_LAP_ALTERNATE_SUBNET_LOCAL		__CM_BITS(lap, 62, 4, 1)
#define CM_LAP_ALTERNATE_LOCAL_ACK_TIMEOUT	__CM_BITS(lap, 63, 0, 5)
#define CM_LAP_PRIVATE_DATA			__CM_MEM(lap, 64, 1344, void)

/* APR (table 116) */
#define CM_APR_LOCAL_COMM_ID			__CM_BITS(apr, 0, 0, 32)
#define CM_APR_REMOTE_COMM_ID			__CM_BITS(apr, 4, 0, 32)
#define CM_APR_ADDITIONAL_INFORMATION_LENGTH	__CM_BITS(apr, 8, 0, 8)
#define CM_APR_AR_STATUS			__CM_BITS(apr, 9, 0, 8)
#define CM_APR_ADDITIONAL_INFORMATION		__CM_MEM(apr, 12, 576, void)
#define CM_APR_PRIVATE_DATA			__CM_MEM(apr, 84, 1184, void)

/* SIDR_REQ (table 119) */
#define CM_SIDR_REQ_REQUESTID			__CM_BITS(sidr_req, 0, 0, 32)
#define CM_SIDR_REQ_PARTITION_KEY		__CM_BITS(sidr_req, 4, 0, 16)
#define CM_SIDR_REQ_SERVICEID			__CM_BITS(sidr_req, 8, 0, 64)
#define CM_SIDR_REQ_PRIVATE_DATA		__CM_MEM(sidr_req, 16, 1728, void)

/* SIDR_REP (table 120) */
#define CM_SIDR_REP_REQUESTID			__CM_BITS(sidr_rep, 0, 0, 32)
#define CM_SIDR_REP_STATUS			__CM_BITS(sidr_rep, 4, 0, 8)
#define CM_SIDR_REP_ADDITIONAL_INFORMATION_LENGTH \
	__CM_BITS(sidr_rep, 5, 0, 8)
#define CM_SIDR_REP_VENDOR_ID_H			__CM_BITS(sidr_rep, 6, 0, 16)
#define CM_SIDR_REP_QPN				__CM_BITS(sidr_rep, 8, 0, 24)
#define CM_SIDR_REP_VENDOR_ID_L			__CM_BITS(sidr_rep, 11, 0, 8)
#define CM_SIDR_REP_SERVICEID			__CM_BITS(sidr_rep, 12, 0, 64)
#define CM_SIDR_REP_Q_KEY			__CM_BITS(sidr_rep, 20, 0, 32)
#define CM_SIDR_REP_ADDITIONAL_INFORMATION	__CM_MEM(sidr_rep, 24, 576, void)
#define CM_SIDR_REP_PRIVATE_DATA		__CM_MEM(sidr_rep, 96, 1088, void)

/*
 * Each message's private data runs to the end of the MAD; checking that
 * catches a mistyped offset or width in the tables above.
 */
#define __CM_ENDS_AT_MAD_END(stype, byte, width, type)			\
	static_assert((byte) + (width) / 8 == sizeof(stype))
#define __CM_CHECK_TAIL(field) __CM_ENDS_AT_MAD_END(field)

__CM_CHECK_TAIL(CM_REQ_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_MRA_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_REJ_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_REP_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_RTU_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_DREQ_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_DREP_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_LAP_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_APR_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_SIDR_REQ_PRIVATE_DATA);
__CM_CHECK_TAIL(CM_SIDR_REP_PRIVATE_DATA);

/* ---- 6.1-era spellings -------------------------------------------------------- */

/*
 * Field-location helpers as 6.1 named them, for code that builds its own
 * CM field names. Offsets are body-relative, as in the tables.
 */
#define CM_FIELD_BLOC(stype, byte, bit, width)				\
	IBA_FIELD(stype, (byte) + IB_MGMT_MAD_HDR, bit, width)
#define CM_FIELD8_LOC(stype, byte, width)	CM_FIELD_BLOC(stype, byte, 0, width)
#define CM_FIELD16_LOC(stype, byte, width)	CM_FIELD_BLOC(stype, byte, 0, width)
#define CM_FIELD32_LOC(stype, byte, width)	CM_FIELD_BLOC(stype, byte, 0, width)
#define CM_FIELD64_LOC(stype, byte)		CM_FIELD_BLOC(stype, byte, 0, 64)
#define CM_FIELD_MLOC(stype, byte, width, type)				\
	IBA_MEM_FIELD(stype, (byte) + IB_MGMT_MAD_HDR, width, type)
/* Declares a message structure whose body is @body_bits long. */
#define CM_STRUCT(stype, body_bits)					\
	stype {								\
		struct ib_mad_hdr hdr;					\
		u32 _data[(body_bits) / 32 +				\
			  BUILD_BUG_ON_ZERO((body_bits) % 32 != 0)];	\
	}

#endif /* RDMAOOT_RDMA_IBTA_VOL1_C12_H */
