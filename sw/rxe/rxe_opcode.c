// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_opcode.c - the tables of RoCEv2 opcodes we speak and of work request
 * opcodes, and the first check of a received transport header.
 */

#include <kunit/visibility.h>
#include <linux/module.h>

#include "rxe_dev.h"
#include "rxe_hdr.h"
#include "rxe_opcode.h"

/*
 * Wire size of each header that can follow the BTH. The table below is
 * built at compile time from these, so an entry's length and offsets are
 * always those its header flags imply.
 */
#define RXE_SZ_BTH	12
#define RXE_SZ_RETH	16
#define RXE_SZ_AETH	4
#define RXE_SZ_ATMETH	28
#define RXE_SZ_ATMACK	8
#define RXE_SZ_DETH	8
#define RXE_SZ_IMMDT	4
#define RXE_SZ_IETH	4

#define RXE_HAS(f, h)	(((f) & RXE_OPF_##h) ? RXE_SZ_##h : 0)

/* Bytes of the extension headers present in the flag set @f. */
#define RXE_EXT_SIZE(f)							\
	(RXE_HAS(f, RETH) + RXE_HAS(f, AETH) + RXE_HAS(f, ATMETH) +	\
	 RXE_HAS(f, ATMACK) + RXE_HAS(f, DETH) + RXE_HAS(f, IMMDT) +	\
	 RXE_HAS(f, IETH))

/*
 * Header bit N is BIT(N) of enum rxe_hdr_type, so the headers that precede
 * header @t on the wire are exactly the flag bits below BIT(t).
 */
#define RXE_START(f, t)	(RXE_SZ_BTH + RXE_EXT_SIZE((f) & (BIT(t) - 1)))
#define RXE_OFF(f, t)	(((f) & BIT(t)) ? RXE_START(f, t) : 0)

#define RXE_ENTRY(str, f) {						\
	.name = str,							\
	.flags = (f) | RXE_OPF_VALID,					\
	.length = RXE_START(f, RXE_HDR_PAYLOAD),			\
	.offset = {							\
		[RXE_HDR_BTH] = 0,					\
		[RXE_HDR_RETH] = RXE_OFF(f, RXE_HDR_RETH),		\
		[RXE_HDR_AETH] = RXE_OFF(f, RXE_HDR_AETH),		\
		[RXE_HDR_ATMETH] = RXE_OFF(f, RXE_HDR_ATMETH),		\
		[RXE_HDR_ATMACK] = RXE_OFF(f, RXE_HDR_ATMACK),		\
		[RXE_HDR_DETH] = RXE_OFF(f, RXE_HDR_DETH),		\
		[RXE_HDR_IMMDT] = RXE_OFF(f, RXE_HDR_IMMDT),		\
		[RXE_HDR_IETH] = RXE_OFF(f, RXE_HDR_IETH),		\
		[RXE_HDR_PAYLOAD] = RXE_START(f, RXE_HDR_PAYLOAD),	\
	},								\
}

/* One opcode of transport @tr (RC, UC, UD) with the shape @shape. */
#define RXE_OP(tr, op, shape) \
	[IB_OPCODE_##tr##_##op] = RXE_ENTRY(#tr "_" #op, RXE_OPF_##tr | (shape))

/* The shapes: what each kind of packet carries and means. */
#define SEND_PKT	(RXE_OPF_REQ | RXE_OPF_SEND | RXE_OPF_RWR | RXE_OPF_PAYLOAD)
#define SEND_END	(SEND_PKT | RXE_OPF_COMP)
#define S_FIRST		(SEND_PKT | RXE_OPF_FIRST)
#define S_MIDDLE	(SEND_PKT | RXE_OPF_MIDDLE)
#define S_LAST		(SEND_END | RXE_OPF_LAST)
#define S_LAST_IMM	(S_LAST | RXE_OPF_IMMDT)
#define S_LAST_INV	(S_LAST | RXE_OPF_IETH)
#define S_ONLY		(SEND_END | RXE_OPF_ONLY)
#define S_ONLY_IMM	(S_ONLY | RXE_OPF_IMMDT)
#define S_ONLY_INV	(S_ONLY | RXE_OPF_IETH)

#define WRITE_PKT	(RXE_OPF_REQ | RXE_OPF_WRITE | RXE_OPF_PAYLOAD)
#define WRITE_IMM	(RXE_OPF_IMMDT | RXE_OPF_RWR | RXE_OPF_COMP)
#define W_FIRST		(WRITE_PKT | RXE_OPF_RETH | RXE_OPF_FIRST)
#define W_MIDDLE	(WRITE_PKT | RXE_OPF_MIDDLE)
#define W_LAST		(WRITE_PKT | RXE_OPF_LAST)
#define W_LAST_IMM	(W_LAST | WRITE_IMM)
#define W_ONLY		(WRITE_PKT | RXE_OPF_RETH | RXE_OPF_ONLY)
#define W_ONLY_IMM	(W_ONLY | WRITE_IMM)

#define R_REQ		(RXE_OPF_REQ | RXE_OPF_READ | RXE_OPF_RETH | RXE_OPF_ONLY)
#define RESP_PKT	(RXE_OPF_ACK | RXE_OPF_READ | RXE_OPF_PAYLOAD)
#define R_FIRST		(RESP_PKT | RXE_OPF_AETH | RXE_OPF_FIRST)
#define R_MIDDLE	(RESP_PKT | RXE_OPF_MIDDLE)
#define R_LAST		(RESP_PKT | RXE_OPF_AETH | RXE_OPF_LAST)
#define R_ONLY		(RESP_PKT | RXE_OPF_AETH | RXE_OPF_ONLY)

#define ACK_ONLY	(RXE_OPF_ACK | RXE_OPF_AETH | RXE_OPF_ONLY)
#define A_ACK		(ACK_ONLY | RXE_OPF_ATOMIC | RXE_OPF_ATMACK)
#define A_REQ		(RXE_OPF_REQ | RXE_OPF_ATOMIC | RXE_OPF_ATMETH | RXE_OPF_ONLY)

#define UD_ONLY		(S_ONLY | RXE_OPF_DETH)
#define UD_ONLY_IMM	(S_ONLY_IMM | RXE_OPF_DETH)

/* Indexed by BTH opcode; entries without RXE_OPF_VALID are not spoken. */
const struct rxe_opcode_info rxe_opcode[256] = {
	RXE_OP(RC, SEND_FIRST, S_FIRST),
	RXE_OP(RC, SEND_MIDDLE, S_MIDDLE),
	RXE_OP(RC, SEND_LAST, S_LAST),
	RXE_OP(RC, SEND_LAST_WITH_IMMEDIATE, S_LAST_IMM),
	RXE_OP(RC, SEND_ONLY, S_ONLY),
	RXE_OP(RC, SEND_ONLY_WITH_IMMEDIATE, S_ONLY_IMM),
	RXE_OP(RC, RDMA_WRITE_FIRST, W_FIRST),
	RXE_OP(RC, RDMA_WRITE_MIDDLE, W_MIDDLE),
	RXE_OP(RC, RDMA_WRITE_LAST, W_LAST),
	RXE_OP(RC, RDMA_WRITE_LAST_WITH_IMMEDIATE, W_LAST_IMM),
	RXE_OP(RC, RDMA_WRITE_ONLY, W_ONLY),
	RXE_OP(RC, RDMA_WRITE_ONLY_WITH_IMMEDIATE, W_ONLY_IMM),
	RXE_OP(RC, RDMA_READ_REQUEST, R_REQ),
	RXE_OP(RC, RDMA_READ_RESPONSE_FIRST, R_FIRST),
	RXE_OP(RC, RDMA_READ_RESPONSE_MIDDLE, R_MIDDLE),
	RXE_OP(RC, RDMA_READ_RESPONSE_LAST, R_LAST),
	RXE_OP(RC, RDMA_READ_RESPONSE_ONLY, R_ONLY),
	RXE_OP(RC, ACKNOWLEDGE, ACK_ONLY),
	RXE_OP(RC, ATOMIC_ACKNOWLEDGE, A_ACK),
	RXE_OP(RC, COMPARE_SWAP, A_REQ),
	RXE_OP(RC, FETCH_ADD, A_REQ),
	RXE_OP(RC, SEND_LAST_WITH_INVALIDATE, S_LAST_INV),
	RXE_OP(RC, SEND_ONLY_WITH_INVALIDATE, S_ONLY_INV),

	RXE_OP(UC, SEND_FIRST, S_FIRST),
	RXE_OP(UC, SEND_MIDDLE, S_MIDDLE),
	RXE_OP(UC, SEND_LAST, S_LAST),
	RXE_OP(UC, SEND_LAST_WITH_IMMEDIATE, S_LAST_IMM),
	RXE_OP(UC, SEND_ONLY, S_ONLY),
	RXE_OP(UC, SEND_ONLY_WITH_IMMEDIATE, S_ONLY_IMM),
	RXE_OP(UC, RDMA_WRITE_FIRST, W_FIRST),
	RXE_OP(UC, RDMA_WRITE_MIDDLE, W_MIDDLE),
	RXE_OP(UC, RDMA_WRITE_LAST, W_LAST),
	RXE_OP(UC, RDMA_WRITE_LAST_WITH_IMMEDIATE, W_LAST_IMM),
	RXE_OP(UC, RDMA_WRITE_ONLY, W_ONLY),
	RXE_OP(UC, RDMA_WRITE_ONLY_WITH_IMMEDIATE, W_ONLY_IMM),

	RXE_OP(UD, SEND_ONLY, UD_ONLY),
	RXE_OP(UD, SEND_ONLY_WITH_IMMEDIATE, UD_ONLY_IMM),
};
EXPORT_SYMBOL_IF_KUNIT(rxe_opcode);

/**
 * rxe_opcode_name() - printable name of a BTH opcode
 * @opcode: BTH opcode
 *
 * Return: "RC_SEND_FIRST" and the like, or "UNKNOWN" for an opcode we do
 * not speak. Any context.
 */
const char *rxe_opcode_name(u8 opcode)
{
	return rxe_opcode[opcode].name ?: "UNKNOWN";
}
EXPORT_SYMBOL_IF_KUNIT(rxe_opcode_name);

/* Per-packet rejections are debug-level: the wire is not trusted. */
#define rxe_hdr_dbg(pkt, fmt, ...)					\
	do {								\
		if ((pkt)->rxe)						\
			rxe_dbg_dev((pkt)->rxe, fmt, ##__VA_ARGS__);	\
		else							\
			pr_debug("%s: " fmt, __func__, ##__VA_ARGS__);	\
	} while (0)

/**
 * rxe_hdr_check() - validate the BTH of a received packet and parse it
 * @pkt: packet whose @hdr points at the BTH and whose @paylen counts the
 *       bytes from the BTH through the ICRC
 *
 * Checks that the packet holds a BTH, that its opcode is one we speak,
 * that its transport version is 0 and that it is long enough for the
 * opcode's headers, its pad and the ICRC. On success fills @pkt->opcode,
 * @pkt->flags and @pkt->psn. Any context; does not look at the QP.
 *
 * Return: 0, or -EINVAL when the packet is to be dropped.
 */
int rxe_hdr_check(struct rxe_pkt *pkt)
{
	const struct rxe_opcode_info *info;
	u32 need;

	if (unlikely(pkt->paylen < RXE_SZ_BTH)) {
		rxe_hdr_dbg(pkt, "%u bytes, no room for a BTH\n", pkt->paylen);
		return -EINVAL;
	}
	pkt->opcode = RXE_BTH(pkt)->opcode;
	info = &rxe_opcode[pkt->opcode];
	if (unlikely(!(info->flags & RXE_OPF_VALID))) {
		rxe_hdr_dbg(pkt, "opcode 0x%02x not supported\n", pkt->opcode);
		return -EINVAL;
	}
	if (unlikely(rxe_bth_tver(pkt))) {
		rxe_hdr_dbg(pkt, "transport version %u\n", rxe_bth_tver(pkt));
		return -EINVAL;
	}
	need = info->length + rxe_bth_pad(pkt) + RXE_ICRC_SIZE;
	if (unlikely(pkt->paylen < need)) {
		rxe_hdr_dbg(pkt, "%s: %u bytes, headers need %u\n",
			    info->name, pkt->paylen, need);
		return -EINVAL;
	}
	pkt->flags = info->flags;
	pkt->psn = rxe_bth_psn(pkt);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_hdr_check);

/* --- work request opcodes ------------------------------------------------ */

/* QP types as bits of struct rxe_wr_op.types. */
#define RXE_T_RC	BIT(0)
#define RXE_T_UC	BIT(1)
#define RXE_T_UD	BIT(2)		/* UD and GSI */
#define RXE_T_ALL	(RXE_T_RC | RXE_T_UC | RXE_T_UD)

#define RXE_OP_NONE	0xff		/* no packet at this position */

/* struct rxe_wr_op.flags */
#define RXE_OPK_LOCAL		BIT(0)	/* executed here, no packet */
#define RXE_OPK_RD_ATOMIC	BIT(1)	/* counts against max_rd_atomic */

/**
 * struct rxe_wr_op - what one WR opcode becomes on the wire
 * @code:  wire opcode without the transport bits, by enum rxe_wr_pos
 * @types: QP types that may post it (RXE_T_*); 0 = unsupported opcode
 * @wc:    enum ib_wc_opcode of its completion
 * @flags: RXE_OPK_*
 */
struct rxe_wr_op {
	u8 code[4];
	u8 types;
	u8 wc;
	u8 flags;
};

#define RXE_CODES(mid, first, last, only) \
	{ IB_OPCODE_##mid, IB_OPCODE_##first, IB_OPCODE_##last, \
	  IB_OPCODE_##only }
#define RXE_ONE_CODE(only) \
	{ RXE_OP_NONE, RXE_OP_NONE, RXE_OP_NONE, IB_OPCODE_##only }
#define RXE_NO_CODE \
	{ RXE_OP_NONE, RXE_OP_NONE, RXE_OP_NONE, RXE_OP_NONE }

static const struct rxe_wr_op rxe_wr_ops[IB_WR_REG_MR + 1] = {
	[IB_WR_SEND] = {
		RXE_CODES(SEND_MIDDLE, SEND_FIRST, SEND_LAST, SEND_ONLY),
		RXE_T_ALL, IB_WC_SEND, 0 },
	[IB_WR_SEND_WITH_IMM] = {
		RXE_CODES(SEND_MIDDLE, SEND_FIRST, SEND_LAST_WITH_IMMEDIATE,
			  SEND_ONLY_WITH_IMMEDIATE),
		RXE_T_ALL, IB_WC_SEND, 0 },
	[IB_WR_SEND_WITH_INV] = {
		RXE_CODES(SEND_MIDDLE, SEND_FIRST, SEND_LAST_WITH_INVALIDATE,
			  SEND_ONLY_WITH_INVALIDATE),
		RXE_T_RC, IB_WC_SEND, 0 },
	[IB_WR_RDMA_WRITE] = {
		RXE_CODES(RDMA_WRITE_MIDDLE, RDMA_WRITE_FIRST, RDMA_WRITE_LAST,
			  RDMA_WRITE_ONLY),
		RXE_T_RC | RXE_T_UC, IB_WC_RDMA_WRITE, 0 },
	[IB_WR_RDMA_WRITE_WITH_IMM] = {
		RXE_CODES(RDMA_WRITE_MIDDLE, RDMA_WRITE_FIRST,
			  RDMA_WRITE_LAST_WITH_IMMEDIATE,
			  RDMA_WRITE_ONLY_WITH_IMMEDIATE),
		RXE_T_RC | RXE_T_UC, IB_WC_RDMA_WRITE, 0 },
	[IB_WR_RDMA_READ] = {
		RXE_ONE_CODE(RDMA_READ_REQUEST),
		RXE_T_RC, IB_WC_RDMA_READ, RXE_OPK_RD_ATOMIC },
	[IB_WR_ATOMIC_CMP_AND_SWP] = {
		RXE_ONE_CODE(COMPARE_SWAP),
		RXE_T_RC, IB_WC_COMP_SWAP, RXE_OPK_RD_ATOMIC },
	[IB_WR_ATOMIC_FETCH_AND_ADD] = {
		RXE_ONE_CODE(FETCH_ADD),
		RXE_T_RC, IB_WC_FETCH_ADD, RXE_OPK_RD_ATOMIC },
	[IB_WR_LOCAL_INV] = {
		RXE_NO_CODE, RXE_T_ALL, IB_WC_LOCAL_INV, RXE_OPK_LOCAL },
	/* from user SQ rings only: a kernel WR has no bind form in 6.1 */
	[IB_WR_BIND_MW] = {
		RXE_NO_CODE, RXE_T_RC | RXE_T_UC, IB_WC_BIND_MW, RXE_OPK_LOCAL },
	[IB_WR_REG_MR] = {
		RXE_NO_CODE, RXE_T_ALL, IB_WC_REG_MR, RXE_OPK_LOCAL },
};

static const struct rxe_wr_op *rxe_wr_op(enum ib_wr_opcode op)
{
	if ((unsigned int)op >= ARRAY_SIZE(rxe_wr_ops) ||
	    !rxe_wr_ops[op].types)
		return NULL;
	return &rxe_wr_ops[op];
}

static u8 rxe_wr_type_bit(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_RC:
		return RXE_T_RC;
	case IB_QPT_UC:
		return RXE_T_UC;
	case IB_QPT_UD:
	case IB_QPT_GSI:
		return RXE_T_UD;
	default:
		return 0;
	}
}

/**
 * rxe_wr_allowed() - whether a QP of @type may post WR opcode @op
 * @type: QP type
 * @op:   WR opcode
 *
 * Return: true when post_send accepts @op on such a QP.
 */
bool rxe_wr_allowed(enum ib_qp_type type, enum ib_wr_opcode op)
{
	const struct rxe_wr_op *info = rxe_wr_op(op);

	return info && (info->types & rxe_wr_type_bit(type));
}
EXPORT_SYMBOL_IF_KUNIT(rxe_wr_allowed);

/**
 * rxe_wr_opcode() - the wire opcode of one packet of a message
 * @type: QP type
 * @op:   WR opcode of the message
 * @pos:  where the packet sits in the message
 *
 * Return: the BTH opcode, or -EINVAL when the QP type cannot post @op or
 * @op has no packet at @pos (READ, atomics and all UD sends are one
 * packet; local operations have none).
 */
int rxe_wr_opcode(enum ib_qp_type type, enum ib_wr_opcode op,
		  enum rxe_wr_pos pos)
{
	static const u8 transport[] = {
		[0] = IB_OPCODE_RC, [1] = IB_OPCODE_UC, [2] = IB_OPCODE_UD,
	};
	u8 bit = rxe_wr_type_bit(type);
	u8 code;

	if (!rxe_wr_allowed(type, op) || (unsigned int)pos > RXE_POS_ONLY)
		return -EINVAL;
	if (bit == RXE_T_UD && pos != RXE_POS_ONLY)
		return -EINVAL;
	code = rxe_wr_ops[op].code[pos];
	if (code == RXE_OP_NONE)
		return -EINVAL;
	return transport[ilog2(bit)] | code;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_wr_opcode);

/**
 * rxe_wr_is_local() - whether @op is executed locally (no packet)
 * @op: WR opcode
 *
 * Return: true for IB_WR_REG_MR, IB_WR_LOCAL_INV and IB_WR_BIND_MW.
 */
bool rxe_wr_is_local(enum ib_wr_opcode op)
{
	const struct rxe_wr_op *info = rxe_wr_op(op);

	return info && (info->flags & RXE_OPK_LOCAL);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_wr_is_local);

/**
 * rxe_wr_is_rd_atomic() - whether @op is a READ or an atomic
 * @op: WR opcode
 *
 * Return: true when @op counts against max_rd_atomic.
 */
bool rxe_wr_is_rd_atomic(enum ib_wr_opcode op)
{
	const struct rxe_wr_op *info = rxe_wr_op(op);

	return info && (info->flags & RXE_OPK_RD_ATOMIC);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_wr_is_rd_atomic);

/**
 * rxe_wr_wc_opcode() - the completion opcode of WR opcode @op
 * @op: WR opcode (one rxe_wr_allowed() accepts)
 *
 * Return: the enum ib_wc_opcode its completion carries.
 */
enum ib_wc_opcode rxe_wr_wc_opcode(enum ib_wr_opcode op)
{
	const struct rxe_wr_op *info = rxe_wr_op(op);

	return info ? info->wc : IB_WC_SEND;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_wr_wc_opcode);
