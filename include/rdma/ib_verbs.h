/* SPDX-License-Identifier: GPL-2.0-only */
/* In-kernel RDMA verbs API: the types and helpers drivers and ULPs share. */
#ifndef RDMAOOT_RDMA_IB_VERBS_H
#define RDMAOOT_RDMA_IB_VERBS_H

/*
 * This header is source compatible with the in-kernel <rdma/ib_verbs.h> of
 * Linux 6.1: every name, value and prototype below matches it. It grows one
 * section at a time; each section covers one kind of object.
 */

#include <linux/bits.h>
#include <linux/types.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>

/* ---- Path MTU ------------------------------------------------------------ */

/* IBTA MTU codes: code n stands for 128 << n bytes. */
enum ib_mtu {
	IB_MTU_256  = 1,
	IB_MTU_512  = 2,
	IB_MTU_1024 = 3,
	IB_MTU_2048 = 4,
	IB_MTU_4096 = 5
};

/* Bytes for an MTU code, or -1 if @mtu is not one of the IB_MTU_* codes. */
static inline int ib_mtu_enum_to_int(enum ib_mtu mtu)
{
	if (mtu < IB_MTU_256 || mtu > IB_MTU_4096)
		return -1;
	return 256 << (mtu - IB_MTU_256);
}

/*
 * Largest MTU code whose size does not exceed @mtu bytes; anything below
 * 512 (including zero and negative values) gives IB_MTU_256.
 */
static inline enum ib_mtu ib_mtu_int_to_enum(int mtu)
{
	int code = IB_MTU_4096;

	while (code > IB_MTU_256 && mtu < (128 << code))
		code--;
	return (enum ib_mtu)code;
}

/* ---- Asynchronous events ------------------------------------------------- */

enum ib_event_type {
	IB_EVENT_CQ_ERR			= 0,
	IB_EVENT_QP_FATAL		= 1,
	IB_EVENT_QP_REQ_ERR		= 2,
	IB_EVENT_QP_ACCESS_ERR		= 3,
	IB_EVENT_COMM_EST		= 4,
	IB_EVENT_SQ_DRAINED		= 5,
	IB_EVENT_PATH_MIG		= 6,
	IB_EVENT_PATH_MIG_ERR		= 7,
	IB_EVENT_DEVICE_FATAL		= 8,
	IB_EVENT_PORT_ACTIVE		= 9,
	IB_EVENT_PORT_ERR		= 10,
	IB_EVENT_LID_CHANGE		= 11,
	IB_EVENT_PKEY_CHANGE		= 12,
	IB_EVENT_SM_CHANGE		= 13,
	IB_EVENT_SRQ_ERR		= 14,
	IB_EVENT_SRQ_LIMIT_REACHED	= 15,
	IB_EVENT_QP_LAST_WQE_REACHED	= 16,
	IB_EVENT_CLIENT_REREGISTER	= 17,
	IB_EVENT_GID_CHANGE		= 18,
	IB_EVENT_WQ_FATAL		= 19,
};

/* Human-readable name of an event, for log messages (core/strings.c). */
const char *__attribute_const__ ib_event_msg(enum ib_event_type event);

/* ---- Static rates (address vectors, path records) ------------------------ */

/*
 * IBTA static rate codes, listed in code order. The codes are not sorted by
 * speed: later IBTA revisions appended faster and odd-lane rates at the end.
 */
enum ib_rate {
	IB_RATE_PORT_CURRENT	= 0,
	IB_RATE_2_5_GBPS	= 2,
	IB_RATE_10_GBPS		= 3,
	IB_RATE_30_GBPS		= 4,
	IB_RATE_5_GBPS		= 5,
	IB_RATE_20_GBPS		= 6,
	IB_RATE_40_GBPS		= 7,
	IB_RATE_60_GBPS		= 8,
	IB_RATE_80_GBPS		= 9,
	IB_RATE_120_GBPS	= 10,
	IB_RATE_14_GBPS		= 11,
	IB_RATE_56_GBPS		= 12,
	IB_RATE_112_GBPS	= 13,
	IB_RATE_168_GBPS	= 14,
	IB_RATE_25_GBPS		= 15,
	IB_RATE_100_GBPS	= 16,
	IB_RATE_200_GBPS	= 17,
	IB_RATE_300_GBPS	= 18,
	IB_RATE_28_GBPS		= 19,
	IB_RATE_50_GBPS		= 20,
	IB_RATE_400_GBPS	= 21,
	IB_RATE_600_GBPS	= 22,
};

/* Conversions between rate codes, 2.5 Gb/s multiples and Mb/s (core/rate.c). */
__attribute_const__ int ib_rate_to_mult(enum ib_rate rate);
__attribute_const__ int ib_rate_to_mbps(enum ib_rate rate);
__attribute_const__ enum ib_rate mult_to_ib_rate(int mult);

/* ---- Work completions ---------------------------------------------------- */

/* Completion status codes; the values are shared with the uverbs ABI. */
enum ib_wc_status {
	IB_WC_SUCCESS			= 0,
	IB_WC_LOC_LEN_ERR		= 1,
	IB_WC_LOC_QP_OP_ERR		= 2,
	IB_WC_LOC_EEC_OP_ERR		= 3,
	IB_WC_LOC_PROT_ERR		= 4,
	IB_WC_WR_FLUSH_ERR		= 5,
	IB_WC_MW_BIND_ERR		= 6,
	IB_WC_BAD_RESP_ERR		= 7,
	IB_WC_LOC_ACCESS_ERR		= 8,
	IB_WC_REM_INV_REQ_ERR		= 9,
	IB_WC_REM_ACCESS_ERR		= 10,
	IB_WC_REM_OP_ERR		= 11,
	IB_WC_RETRY_EXC_ERR		= 12,
	IB_WC_RNR_RETRY_EXC_ERR		= 13,
	IB_WC_LOC_RDD_VIOL_ERR		= 14,
	IB_WC_REM_INV_RD_REQ_ERR	= 15,
	IB_WC_REM_ABORT_ERR		= 16,
	IB_WC_INV_EECN_ERR		= 17,
	IB_WC_INV_EEC_STATE_ERR		= 18,
	IB_WC_FATAL_ERR			= 19,
	IB_WC_RESP_TIMEOUT_ERR		= 20,
	IB_WC_GENERAL_ERR		= 21
};

/* Human-readable name of a completion status (core/strings.c). */
const char *__attribute_const__ ib_wc_status_msg(enum ib_wc_status status);

/* ---- Queue pairs: types, states and modify attributes -------------------- */

/*
 * QP types. SMI and GSI must stay 0 and 1: the MAD layer indexes per-port
 * arrays with them. The user-visible types take their uverbs ABI values.
 * Types from IB_QPT_RESERVED1 on are private to low-level drivers and never
 * reach the core; IB_QPT_MAX bounds only the types the core knows.
 */
enum ib_qp_type {
	IB_QPT_SMI		= 0,
	IB_QPT_GSI		= 1,
	IB_QPT_RC		= IB_UVERBS_QPT_RC,
	IB_QPT_UC		= IB_UVERBS_QPT_UC,
	IB_QPT_UD		= IB_UVERBS_QPT_UD,
	IB_QPT_RAW_IPV6		= 5,
	IB_QPT_RAW_ETHERTYPE	= 6,
	IB_QPT_RAW_PACKET	= IB_UVERBS_QPT_RAW_PACKET,
	IB_QPT_XRC_INI		= IB_UVERBS_QPT_XRC_INI,
	IB_QPT_XRC_TGT		= IB_UVERBS_QPT_XRC_TGT,
	IB_QPT_MAX		= IB_UVERBS_QPT_XRC_TGT + 1,
	IB_QPT_DRIVER		= IB_UVERBS_QPT_DRIVER,
	IB_QPT_RESERVED1	= 0x1000,
	IB_QPT_RESERVED2	= 0x1001,
	IB_QPT_RESERVED3	= 0x1002,
	IB_QPT_RESERVED4	= 0x1003,
	IB_QPT_RESERVED5	= 0x1004,
	IB_QPT_RESERVED6	= 0x1005,
	IB_QPT_RESERVED7	= 0x1006,
	IB_QPT_RESERVED8	= 0x1007,
	IB_QPT_RESERVED9	= 0x1008,
	IB_QPT_RESERVED10	= 0x1009,
};

/* Which members of struct ib_qp_attr a modify or query call carries. */
enum ib_qp_attr_mask {
	IB_QP_STATE			= BIT(0),
	IB_QP_CUR_STATE			= BIT(1),
	IB_QP_EN_SQD_ASYNC_NOTIFY	= BIT(2),
	IB_QP_ACCESS_FLAGS		= BIT(3),
	IB_QP_PKEY_INDEX		= BIT(4),
	IB_QP_PORT			= BIT(5),
	IB_QP_QKEY			= BIT(6),
	IB_QP_AV			= BIT(7),
	IB_QP_PATH_MTU			= BIT(8),
	IB_QP_TIMEOUT			= BIT(9),
	IB_QP_RETRY_CNT			= BIT(10),
	IB_QP_RNR_RETRY			= BIT(11),
	IB_QP_RQ_PSN			= BIT(12),
	IB_QP_MAX_QP_RD_ATOMIC		= BIT(13),
	IB_QP_ALT_PATH			= BIT(14),
	IB_QP_MIN_RNR_TIMER		= BIT(15),
	IB_QP_SQ_PSN			= BIT(16),
	IB_QP_MAX_DEST_RD_ATOMIC	= BIT(17),
	IB_QP_PATH_MIG_STATE		= BIT(18),
	IB_QP_CAP			= BIT(19),
	IB_QP_DEST_QPN			= BIT(20),
	IB_QP_RESERVED1			= BIT(21),
	IB_QP_RESERVED2			= BIT(22),
	IB_QP_RESERVED3			= BIT(23),
	IB_QP_RESERVED4			= BIT(24),
	IB_QP_RATE_LIMIT		= BIT(25),

	/* The attributes defined by the IBTA, as opposed to extensions. */
	IB_QP_ATTR_STANDARD_BITS	= GENMASK(20, 0),
};

/* QP states of the IBTA state machine, in the order of a normal bring-up. */
enum ib_qp_state {
	IB_QPS_RESET	= 0,
	IB_QPS_INIT	= 1,
	IB_QPS_RTR	= 2,
	IB_QPS_RTS	= 3,
	IB_QPS_SQD	= 4,
	IB_QPS_SQE	= 5,
	IB_QPS_ERR	= 6
};

/* Automatic path migration state of a connected QP. */
enum ib_mig_state {
	IB_MIG_MIGRATED	= 0,
	IB_MIG_REARM	= 1,
	IB_MIG_ARMED	= 2
};

/* Check a modify_qp transition and attribute mask (core/qp_state.c). */
bool ib_modify_qp_is_ok(enum ib_qp_state cur_state, enum ib_qp_state next_state,
			enum ib_qp_type type, enum ib_qp_attr_mask mask);

#endif /* RDMAOOT_RDMA_IB_VERBS_H */
