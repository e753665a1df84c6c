/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_hdr.h - the RoCEv2 transport headers as they sit on the wire, the
 * per-opcode description table, the parsed-packet record and 24-bit PSN
 * arithmetic.
 *
 * A RoCEv2 packet is IP | UDP (dport 4791) | BTH | extension headers |
 * payload | pad (0-3) | ICRC (4). Every multi-byte field is big endian
 * except the ICRC, which is stored little endian. The header structs below
 * are byte-exact images of the wire; the accessors hide the bit packing.
 */
#ifndef RXE_HDR_H
#define RXE_HDR_H

#include <linux/types.h>
#include <linux/skbuff.h>
#include <linux/build_bug.h>
#include <asm/byteorder.h>
#include <asm/unaligned.h>
#include <rdma/ib_pack.h>

/* IANA port of RoCEv2. */
#define RXE_UDP_PORT		4791
/* UDP source ports are chosen per QP from [0xc000, 0xffff]. */
#define RXE_UDP_SPORT_BASE	0xc000
#define RXE_ICRC_SIZE		4
#define RXE_PSN_MASK		0x00ffffffu
#define RXE_QPN_MASK		0x00ffffffu
#define RXE_MAX_PAD		3
#define RXE_DEFAULT_PKEY	0xffff
#define RXE_GSI_QKEY		0x80010000u

/* --- wire images ------------------------------------------------------ */

/* Base transport header, 12 bytes. */
struct rxe_bth {
	u8 opcode;
	u8 flags;		/* SE:7 MigReq:6 PadCnt:5-4 TVer:3-0 */
	__be16 pkey;
	__be32 qpn;		/* FECN:31 BECN:30 resv:29-24 DestQP:23-0 */
	__be32 apsn;		/* AckReq:31 resv:30-24 PSN:23-0 */
};

#define RXE_BTH_SE		0x80
#define RXE_BTH_MIG		0x40
#define RXE_BTH_PAD_SHIFT	4
#define RXE_BTH_PAD_MASK	0x30
#define RXE_BTH_TVER_MASK	0x0f
#define RXE_BTH_FECN		0x80000000u
#define RXE_BTH_BECN		0x40000000u
#define RXE_BTH_ACKREQ		0x80000000u

/* RDMA extended transport header, 16 bytes. */
struct rxe_reth {
	__be64 va;
	__be32 rkey;
	__be32 len;
} __packed;

/* ACK extended transport header, 4 bytes. */
struct rxe_aeth {
	__be32 smsn;		/* Syndrome:31-24 MSN:23-0 */
};

/* Atomic extended transport header, 28 bytes. */
struct rxe_atmeth {
	__be64 va;
	__be32 rkey;
	__be64 swap_add;
	__be64 comp;
} __packed;

/* Atomic ACK extended transport header, 8 bytes. */
struct rxe_atmack {
	__be64 orig;
} __packed;

/* Datagram extended transport header, 8 bytes. */
struct rxe_deth {
	__be32 qkey;
	__be32 sqp;		/* resv:31-24 SrcQP:23-0 */
};

/* Immediate data, 4 bytes. */
struct rxe_immdt {
	__be32 imm;
};

/* Invalidate extended transport header, 4 bytes. */
struct rxe_ieth {
	__be32 rkey;
};

static_assert(sizeof(struct rxe_bth) == 12);
static_assert(sizeof(struct rxe_reth) == 16);
static_assert(sizeof(struct rxe_aeth) == 4);
static_assert(sizeof(struct rxe_atmeth) == 28);
static_assert(sizeof(struct rxe_atmack) == 8);
static_assert(sizeof(struct rxe_deth) == 8);
static_assert(sizeof(struct rxe_immdt) == 4);
static_assert(sizeof(struct rxe_ieth) == 4);

/* AETH syndromes: the top three bits say what, the low five say how. */
#define RXE_AETH_TYPE_MASK	0xe0
#define RXE_AETH_ACK		0x00	/* low bits: credit count (31: none) */
#define RXE_AETH_RNR_NAK	0x20	/* low bits: RNR timer code */
#define RXE_AETH_NAK		0x60	/* low bits: one of the codes below */
#define RXE_AETH_NAK_PSN_SEQ	0x00
#define RXE_AETH_NAK_INVALID	0x01
#define RXE_AETH_NAK_ACCESS	0x02
#define RXE_AETH_NAK_OPERATIONAL 0x03
#define RXE_AETH_NAK_INV_RD	0x04
#define RXE_AETH_NO_CREDIT	0x1f

/* --- the opcode table (rxe_opcode.c) ----------------------------------- */

/* Headers that can follow the BTH, in the order the wire carries them. */
enum rxe_hdr_type {
	RXE_HDR_BTH,
	RXE_HDR_RETH,
	RXE_HDR_AETH,
	RXE_HDR_ATMETH,
	RXE_HDR_ATMACK,
	RXE_HDR_DETH,
	RXE_HDR_IMMDT,
	RXE_HDR_IETH,
	RXE_HDR_PAYLOAD,
	RXE_NUM_HDR_TYPES
};

/* Per-opcode properties (struct rxe_opcode_info.flags). */
enum rxe_op_flag {
	RXE_OPF_RETH	= BIT(RXE_HDR_RETH),
	RXE_OPF_AETH	= BIT(RXE_HDR_AETH),
	RXE_OPF_ATMETH	= BIT(RXE_HDR_ATMETH),
	RXE_OPF_ATMACK	= BIT(RXE_HDR_ATMACK),
	RXE_OPF_DETH	= BIT(RXE_HDR_DETH),
	RXE_OPF_IMMDT	= BIT(RXE_HDR_IMMDT),
	RXE_OPF_IETH	= BIT(RXE_HDR_IETH),
	RXE_OPF_PAYLOAD	= BIT(RXE_HDR_PAYLOAD),	/* may carry data */

	RXE_OPF_REQ	= BIT(12),	/* requester -> responder */
	RXE_OPF_ACK	= BIT(13),	/* responder -> requester */
	RXE_OPF_SEND	= BIT(14),
	RXE_OPF_WRITE	= BIT(15),
	RXE_OPF_READ	= BIT(16),	/* READ request or READ response */
	RXE_OPF_ATOMIC	= BIT(17),
	RXE_OPF_RWR	= BIT(18),	/* consumes a receive WQE */
	RXE_OPF_COMP	= BIT(19),	/* completes a message at the receiver */
	RXE_OPF_FIRST	= BIT(20),
	RXE_OPF_MIDDLE	= BIT(21),
	RXE_OPF_LAST	= BIT(22),
	RXE_OPF_ONLY	= RXE_OPF_FIRST | RXE_OPF_LAST,
	RXE_OPF_RC	= BIT(24),
	RXE_OPF_UC	= BIT(25),
	RXE_OPF_UD	= BIT(26),
	RXE_OPF_VALID	= BIT(31),	/* an opcode we speak */
};

/**
 * struct rxe_opcode_info - what the wire format says about one opcode
 * @name:   symbolic name, for logs ("RC_SEND_FIRST")
 * @flags:  RXE_OPF_* bits; zero for opcodes we do not implement
 * @length: bytes from the start of the BTH to the start of the payload
 * @offset: byte offset of each present header from the start of the BTH;
 *          offset[RXE_HDR_PAYLOAD] equals @length
 */
struct rxe_opcode_info {
	const char *name;
	u32 flags;
	u8 length;
	u8 offset[RXE_NUM_HDR_TYPES];
};

extern const struct rxe_opcode_info rxe_opcode[256];

/* --- one packet in flight ---------------------------------------------- */

struct rxe_dev;
struct rxe_qp;

/**
 * struct rxe_pkt - a parsed (receive) or being-built (send) packet
 * @rxe:     device the packet arrived on / leaves from
 * @qp:      destination (receive) or source (send) QP; holds a reference
 *           on receive once the QP is looked up
 * @hdr:     first byte of the BTH
 * @flags:   rxe_opcode[@opcode].flags
 * @psn:     BTH PSN
 * @paylen:  bytes from the start of the BTH to the end of the ICRC
 * @opcode:  BTH opcode
 * @port:    port number (always 1)
 *
 * Lives in skb->cb on the receive path (see RXE_SKB_PKT()).
 */
struct rxe_pkt {
	struct rxe_dev *rxe;
	struct rxe_qp *qp;
	u8 *hdr;
	u32 flags;
	u32 psn;
	u32 paylen;
	u8 opcode;
	u8 port;
};

static_assert(sizeof(struct rxe_pkt) <= sizeof_field(struct sk_buff, cb));

#define RXE_SKB_PKT(skb)	((struct rxe_pkt *)(skb)->cb)

/* Pointer to header @type of @pkt (only valid when the opcode has it). */
static inline void *rxe_pkt_hdr(const struct rxe_pkt *pkt,
				enum rxe_hdr_type type)
{
	return pkt->hdr + rxe_opcode[pkt->opcode].offset[type];
}

#define RXE_BTH(pkt)	((struct rxe_bth *)(pkt)->hdr)
#define RXE_RETH(pkt)	((struct rxe_reth *)rxe_pkt_hdr(pkt, RXE_HDR_RETH))
#define RXE_AETH(pkt)	((struct rxe_aeth *)rxe_pkt_hdr(pkt, RXE_HDR_AETH))
#define RXE_ATMETH(pkt)	((struct rxe_atmeth *)rxe_pkt_hdr(pkt, RXE_HDR_ATMETH))
#define RXE_ATMACK(pkt)	((struct rxe_atmack *)rxe_pkt_hdr(pkt, RXE_HDR_ATMACK))
#define RXE_DETH(pkt)	((struct rxe_deth *)rxe_pkt_hdr(pkt, RXE_HDR_DETH))
#define RXE_IMMDT(pkt)	((struct rxe_immdt *)rxe_pkt_hdr(pkt, RXE_HDR_IMMDT))
#define RXE_IETH(pkt)	((struct rxe_ieth *)rxe_pkt_hdr(pkt, RXE_HDR_IETH))

static inline u8 rxe_bth_pad(const struct rxe_pkt *pkt)
{
	return (RXE_BTH(pkt)->flags & RXE_BTH_PAD_MASK) >> RXE_BTH_PAD_SHIFT;
}

static inline bool rxe_bth_se(const struct rxe_pkt *pkt)
{
	return RXE_BTH(pkt)->flags & RXE_BTH_SE;
}

static inline u8 rxe_bth_tver(const struct rxe_pkt *pkt)
{
	return RXE_BTH(pkt)->flags & RXE_BTH_TVER_MASK;
}

static inline u16 rxe_bth_pkey(const struct rxe_pkt *pkt)
{
	return be16_to_cpu(RXE_BTH(pkt)->pkey);
}

static inline u32 rxe_bth_qpn(const struct rxe_pkt *pkt)
{
	return be32_to_cpu(RXE_BTH(pkt)->qpn) & RXE_QPN_MASK;
}

static inline u32 rxe_bth_psn(const struct rxe_pkt *pkt)
{
	return be32_to_cpu(RXE_BTH(pkt)->apsn) & RXE_PSN_MASK;
}

static inline bool rxe_bth_ackreq(const struct rxe_pkt *pkt)
{
	return be32_to_cpu(RXE_BTH(pkt)->apsn) & RXE_BTH_ACKREQ;
}

/**
 * rxe_bth_init() - write a complete BTH
 * @pkt:    packet whose @hdr points at the BTH; @opcode must be set
 * @se:     solicited event
 * @pad:    pad count (0-3)
 * @pkey:   partition key
 * @qpn:    destination QP number
 * @ackreq: ask the responder for an acknowledgment
 * @psn:    packet sequence number
 */
static inline void rxe_bth_init(struct rxe_pkt *pkt, bool se, u8 pad,
				u16 pkey, u32 qpn, bool ackreq, u32 psn)
{
	struct rxe_bth *bth = RXE_BTH(pkt);

	bth->opcode = pkt->opcode;
	bth->flags = (se ? RXE_BTH_SE : 0) | (pad << RXE_BTH_PAD_SHIFT);
	bth->pkey = cpu_to_be16(pkey);
	bth->qpn = cpu_to_be32(qpn & RXE_QPN_MASK);
	bth->apsn = cpu_to_be32((ackreq ? RXE_BTH_ACKREQ : 0) |
				(psn & RXE_PSN_MASK));
}

static inline void rxe_reth_set(struct rxe_pkt *pkt, u64 va, u32 rkey, u32 len)
{
	struct rxe_reth *reth = RXE_RETH(pkt);

	put_unaligned_be64(va, &reth->va);
	put_unaligned_be32(rkey, &reth->rkey);
	put_unaligned_be32(len, &reth->len);
}

static inline u64 rxe_reth_va(const struct rxe_pkt *pkt)
{
	return get_unaligned_be64(&RXE_RETH(pkt)->va);
}

static inline u32 rxe_reth_rkey(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_RETH(pkt)->rkey);
}

static inline u32 rxe_reth_len(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_RETH(pkt)->len);
}

static inline void rxe_aeth_set(struct rxe_pkt *pkt, u8 syndrome, u32 msn)
{
	put_unaligned_be32(((u32)syndrome << 24) | (msn & RXE_PSN_MASK),
			   &RXE_AETH(pkt)->smsn);
}

static inline u8 rxe_aeth_syndrome(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_AETH(pkt)->smsn) >> 24;
}

static inline u32 rxe_aeth_msn(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_AETH(pkt)->smsn) & RXE_PSN_MASK;
}

static inline void rxe_atmeth_set(struct rxe_pkt *pkt, u64 va, u32 rkey,
				  u64 swap_add, u64 comp)
{
	struct rxe_atmeth *a = RXE_ATMETH(pkt);

	put_unaligned_be64(va, &a->va);
	put_unaligned_be32(rkey, &a->rkey);
	put_unaligned_be64(swap_add, &a->swap_add);
	put_unaligned_be64(comp, &a->comp);
}

static inline u64 rxe_atmeth_va(const struct rxe_pkt *pkt)
{
	return get_unaligned_be64(&RXE_ATMETH(pkt)->va);
}

static inline u32 rxe_atmeth_rkey(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_ATMETH(pkt)->rkey);
}

static inline u64 rxe_atmeth_swap_add(const struct rxe_pkt *pkt)
{
	return get_unaligned_be64(&RXE_ATMETH(pkt)->swap_add);
}

static inline u64 rxe_atmeth_comp(const struct rxe_pkt *pkt)
{
	return get_unaligned_be64(&RXE_ATMETH(pkt)->comp);
}

static inline void rxe_atmack_set(struct rxe_pkt *pkt, u64 orig)
{
	put_unaligned_be64(orig, &RXE_ATMACK(pkt)->orig);
}

static inline u64 rxe_atmack_orig(const struct rxe_pkt *pkt)
{
	return get_unaligned_be64(&RXE_ATMACK(pkt)->orig);
}

static inline void rxe_deth_set(struct rxe_pkt *pkt, u32 qkey, u32 sqp)
{
	put_unaligned_be32(qkey, &RXE_DETH(pkt)->qkey);
	put_unaligned_be32(sqp & RXE_QPN_MASK, &RXE_DETH(pkt)->sqp);
}

static inline u32 rxe_deth_qkey(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_DETH(pkt)->qkey);
}

static inline u32 rxe_deth_sqp(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_DETH(pkt)->sqp) & RXE_QPN_MASK;
}

/* Immediate data is opaque: it travels in network order end to end. */
static inline void rxe_immdt_set(struct rxe_pkt *pkt, __be32 imm)
{
	put_unaligned(imm, &RXE_IMMDT(pkt)->imm);
}

static inline __be32 rxe_immdt_imm(const struct rxe_pkt *pkt)
{
	return get_unaligned(&RXE_IMMDT(pkt)->imm);
}

static inline void rxe_ieth_set(struct rxe_pkt *pkt, u32 rkey)
{
	put_unaligned_be32(rkey, &RXE_IETH(pkt)->rkey);
}

static inline u32 rxe_ieth_rkey(const struct rxe_pkt *pkt)
{
	return get_unaligned_be32(&RXE_IETH(pkt)->rkey);
}

/* First payload byte of @pkt. */
static inline void *rxe_pkt_payload(const struct rxe_pkt *pkt)
{
	return pkt->hdr + rxe_opcode[pkt->opcode].length;
}

/* Payload bytes of @pkt, without pad and ICRC. */
static inline u32 rxe_pkt_payload_len(const struct rxe_pkt *pkt)
{
	return pkt->paylen - rxe_opcode[pkt->opcode].length -
	       rxe_bth_pad(pkt) - RXE_ICRC_SIZE;
}

/* --- 24-bit PSN arithmetic --------------------------------------------- */

/*
 * rxe_psn_diff() - signed distance a - b on the 24-bit PSN circle: < 0 when
 * @a is before @b, 0 when equal, > 0 when after (valid for |a - b| < 2^23).
 */
static inline s32 rxe_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

static inline u32 rxe_psn_add(u32 psn, u32 n)
{
	return (psn + n) & RXE_PSN_MASK;
}

/* --- rxe_opcode.c / rxe_icrc.c ----------------------------------------- */

const char *rxe_opcode_name(u8 opcode);
int rxe_hdr_check(struct rxe_pkt *pkt);

u32 rxe_icrc_compute(struct sk_buff *skb, const struct rxe_pkt *pkt);
int rxe_icrc_check(struct sk_buff *skb, const struct rxe_pkt *pkt);
void rxe_icrc_set(struct sk_buff *skb, const struct rxe_pkt *pkt);

#endif /* RXE_HDR_H */
