// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rxe_icrc: sw/rxe's header parse and invariant CRC against packets
 * recorded from the upstream driver.
 */
/*
 * rxe_vectors.h holds every RoCEv2 packet of the upstream captures with
 * the fields an independent decode (scripts/gen-rxe-vectors.py) found in
 * it. Each packet is parsed and its ICRC recomputed; then single bytes are
 * changed to show which parts of the packet the ICRC covers and which it
 * masks. IPv6 has no captures, so its packets are built here.
 */

#include <kunit/test.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ipv6.h>

#include "sw/rxe/rxe_hdr.h"
#include "kunit/rxe/rxe_vectors.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Offsets from the start of an option-less IPv4 header. */
#define V4_TOS		1
#define V4_TTL		8
#define V4_CSUM		10
#define V4_SADDR	12
#define V4_UDP		20

/*
 * A packet as the receive path would hand it over: network header set,
 * pkt in skb->cb with @hdr at the BTH and @paylen from the UDP length.
 */
static struct sk_buff *vec_skb(struct kunit *test, const u8 *frame, u32 len)
{
	unsigned int iphlen = (frame[0] >> 4) == 6 ? sizeof(struct ipv6hdr) :
			      (frame[0] & 0xf) * 4;
	const struct udphdr *udp = (const void *)(frame + iphlen);
	struct sk_buff *skb = alloc_skb(len, GFP_KERNEL);
	struct rxe_pkt *pkt;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, frame, len);
	skb_reset_network_header(skb);
	pkt = RXE_SKB_PKT(skb);
	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr = skb->data + iphlen + sizeof(*udp);
	pkt->paylen = be16_to_cpu(udp->len) - sizeof(*udp);
	return skb;
}

#define VEC_EQ(test, v, got, want) do {					\
	typeof(v) v_ = (v);						\
									\
	KUNIT_EXPECT_EQ_MSG(test, (u64)(got), (u64)(want), "%s #%u",	\
			    v_->file, v_->index);			\
} while (0)

/* Which RXE_VEC_* bit stands for which table flag. */
static const struct {
	u32 vec;
	u32 opf;
} vec_hdr_map[] = {
	{ RXE_VEC_RETH, RXE_OPF_RETH },
	{ RXE_VEC_AETH, RXE_OPF_AETH },
	{ RXE_VEC_ATMETH, RXE_OPF_ATMETH },
	{ RXE_VEC_ATMACK, RXE_OPF_ATMACK },
	{ RXE_VEC_DETH, RXE_OPF_DETH },
	{ RXE_VEC_IMMDT, RXE_OPF_IMMDT },
	{ RXE_VEC_IETH, RXE_OPF_IETH },
};

static void vec_check_ext(struct kunit *test, const struct rxe_vec *v,
			  const struct rxe_pkt *pkt)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vec_hdr_map); i++)
		VEC_EQ(test, v, !!(pkt->flags & vec_hdr_map[i].opf),
		       !!(v->hdrs & vec_hdr_map[i].vec));
	if (v->hdrs & RXE_VEC_RETH) {
		VEC_EQ(test, v, rxe_reth_va(pkt), v->reth_va);
		VEC_EQ(test, v, rxe_reth_rkey(pkt), v->reth_rkey);
		VEC_EQ(test, v, rxe_reth_len(pkt), v->reth_len);
	}
	if (v->hdrs & RXE_VEC_AETH) {
		VEC_EQ(test, v, rxe_aeth_syndrome(pkt), v->aeth_syn);
		VEC_EQ(test, v, rxe_aeth_msn(pkt), v->aeth_msn);
	}
	if (v->hdrs & RXE_VEC_ATMETH) {
		VEC_EQ(test, v, rxe_atmeth_va(pkt), v->atm_va);
		VEC_EQ(test, v, rxe_atmeth_rkey(pkt), v->atm_rkey);
		VEC_EQ(test, v, rxe_atmeth_swap_add(pkt), v->atm_swap_add);
		VEC_EQ(test, v, rxe_atmeth_comp(pkt), v->atm_comp);
	}
	if (v->hdrs & RXE_VEC_ATMACK)
		VEC_EQ(test, v, rxe_atmack_orig(pkt), v->atmack_orig);
	if (v->hdrs & RXE_VEC_DETH) {
		VEC_EQ(test, v, rxe_deth_qkey(pkt), v->deth_qkey);
		VEC_EQ(test, v, rxe_deth_sqp(pkt), v->deth_sqp);
	}
	if (v->hdrs & RXE_VEC_IMMDT)
		VEC_EQ(test, v, be32_to_cpu(rxe_immdt_imm(pkt)), v->imm);
	if (v->hdrs & RXE_VEC_IETH)
		VEC_EQ(test, v, rxe_ieth_rkey(pkt), v->ieth_rkey);
}

static void rxe_icrc_vec_parse(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rxe_vectors); i++) {
		const struct rxe_vec *v = &rxe_vectors[i];
		struct sk_buff *skb = vec_skb(test, v->frame, v->len);
		struct rxe_pkt *pkt = RXE_SKB_PKT(skb);

		VEC_EQ(test, v, pkt->paylen, v->bth_len);
		VEC_EQ(test, v, rxe_hdr_check(pkt), 0);
		VEC_EQ(test, v, pkt->opcode, v->opcode);
		VEC_EQ(test, v, pkt->psn, v->psn);
		VEC_EQ(test, v, pkt->flags, rxe_opcode[v->opcode].flags);
		VEC_EQ(test, v, rxe_bth_qpn(pkt), v->qpn);
		VEC_EQ(test, v, rxe_bth_ackreq(pkt), v->ackreq);
		VEC_EQ(test, v, rxe_bth_pad(pkt), v->pad);
		VEC_EQ(test, v, rxe_pkt_payload_len(pkt), v->payload_len);
		vec_check_ext(test, v, pkt);
		kfree_skb(skb);
	}
}

static void rxe_icrc_vec_crc(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rxe_vectors); i++) {
		const struct rxe_vec *v = &rxe_vectors[i];
		struct sk_buff *skb = vec_skb(test, v->frame, v->len);
		struct rxe_pkt *pkt = RXE_SKB_PKT(skb);
		u8 *icrc = skb->data + v->len - RXE_ICRC_SIZE;

		VEC_EQ(test, v, rxe_icrc_compute(skb, pkt), v->icrc);
		VEC_EQ(test, v, rxe_icrc_check(skb, pkt), 0);
		/* Setting it again over a wiped ICRC writes the same bytes. */
		memset(icrc, 0, RXE_ICRC_SIZE);
		VEC_EQ(test, v, rxe_icrc_check(skb, pkt), -EINVAL);
		rxe_icrc_set(skb, pkt);
		VEC_EQ(test, v, memcmp(icrc, v->frame + v->len - RXE_ICRC_SIZE,
				       RXE_ICRC_SIZE), 0);
		kfree_skb(skb);
	}
}

/* rxe_icrc_check() of vector @v with frame byte @off XORed with @x. */
static int vec_check_changed(struct kunit *test, const struct rxe_vec *v,
			     unsigned int off, u8 x)
{
	struct sk_buff *skb = vec_skb(test, v->frame, v->len);
	int ret;

	skb->data[off] ^= x;
	ret = rxe_icrc_check(skb, RXE_SKB_PKT(skb));
	kfree_skb(skb);
	return ret;
}

static bool vec_is_ipv4(const struct rxe_vec *v)
{
	return v->frame[0] == 0x45;
}

static void rxe_icrc_vec_covered(struct kunit *test)
{
	unsigned int i, bth = V4_UDP + sizeof(struct udphdr);

	for (i = 0; i < ARRAY_SIZE(rxe_vectors); i++) {
		const struct rxe_vec *v = &rxe_vectors[i];
		unsigned int end = v->len - RXE_ICRC_SIZE;

		if (!vec_is_ipv4(v))
			continue;
		VEC_EQ(test, v, vec_check_changed(test, v, V4_SADDR, 0x01), -EINVAL);
		VEC_EQ(test, v, vec_check_changed(test, v, V4_UDP, 0x80), -EINVAL);
		VEC_EQ(test, v, vec_check_changed(test, v, bth, 0x01), -EINVAL);
		VEC_EQ(test, v, vec_check_changed(test, v, bth + 7, 0x10), -EINVAL);
		VEC_EQ(test, v, vec_check_changed(test, v, bth + 11, 0x01), -EINVAL);
		/* The last byte before the ICRC: payload, pad or header. */
		VEC_EQ(test, v, vec_check_changed(test, v, end - 1, 0x04), -EINVAL);
		VEC_EQ(test, v, vec_check_changed(test, v, end, 0x04), -EINVAL);
		if (v->payload_len)
			VEC_EQ(test, v, vec_check_changed(test, v, end - v->pad -
							  v->payload_len, 0xff),
			       -EINVAL);
	}
}

static void rxe_icrc_vec_masked(struct kunit *test)
{
	unsigned int i, bth = V4_UDP + sizeof(struct udphdr);

	for (i = 0; i < ARRAY_SIZE(rxe_vectors); i++) {
		const struct rxe_vec *v = &rxe_vectors[i];

		if (!vec_is_ipv4(v))
			continue;
		VEC_EQ(test, v, vec_check_changed(test, v, V4_TOS, 0xb8), 0);
		VEC_EQ(test, v, vec_check_changed(test, v, V4_TTL, 0x3f), 0);
		VEC_EQ(test, v, vec_check_changed(test, v, V4_CSUM, 0x5a), 0);
		VEC_EQ(test, v, vec_check_changed(test, v, V4_UDP + 6, 0x12), 0);
		VEC_EQ(test, v, vec_check_changed(test, v, V4_UDP + 7, 0xff), 0);
		/* BTH byte 4: FECN, BECN, reserved. */
		VEC_EQ(test, v, vec_check_changed(test, v, bth + 4, 0xc0), 0);
	}
}

/* --- IPv6, built here ------------------------------------------------- */

#define V6_PAYLOAD	61
#define V6_PAD		3

/* An RC SEND_ONLY over IPv6 to fd00::2 with an ICRC set by rxe_icrc_set(). */
static struct sk_buff *v6_build(struct kunit *test)
{
	u32 paylen = rxe_opcode[IB_OPCODE_RC_SEND_ONLY].length + V6_PAYLOAD +
		     V6_PAD + RXE_ICRC_SIZE;
	u32 len = sizeof(struct ipv6hdr) + sizeof(struct udphdr) + paylen;
	struct sk_buff *skb = alloc_skb(len, GFP_KERNEL);
	struct rxe_pkt *pkt;
	struct ipv6hdr *ip6;
	struct udphdr *udp;
	unsigned int i;
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reset_network_header(skb);
	ip6 = skb_put_zero(skb, sizeof(*ip6));
	ip6_flow_hdr(ip6, 0x28, cpu_to_be32(0x12345));
	ip6->payload_len = cpu_to_be16(sizeof(*udp) + paylen);
	ip6->nexthdr = IPPROTO_UDP;
	ip6->hop_limit = 64;
	ip6->saddr.s6_addr[0] = 0xfd;
	ip6->saddr.s6_addr[15] = 1;
	ip6->daddr.s6_addr[0] = 0xfd;
	ip6->daddr.s6_addr[15] = 2;
	skb_set_transport_header(skb, skb->len);
	udp = skb_put_zero(skb, sizeof(*udp));
	udp->source = cpu_to_be16(RXE_UDP_SPORT_BASE + 7);
	udp->dest = cpu_to_be16(RXE_UDP_PORT);
	udp->len = cpu_to_be16(sizeof(*udp) + paylen);

	pkt = RXE_SKB_PKT(skb);
	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr = skb_put_zero(skb, paylen);
	pkt->paylen = paylen;
	pkt->opcode = IB_OPCODE_RC_SEND_ONLY;
	rxe_bth_init(pkt, false, V6_PAD, RXE_DEFAULT_PKEY, 0x11, true, 0x42);
	p = rxe_pkt_payload(pkt);
	for (i = 0; i < V6_PAYLOAD; i++)
		p[i] = 3 * i + 1;
	rxe_icrc_set(skb, pkt);
	KUNIT_EXPECT_EQ(test, rxe_hdr_check(pkt), 0);
	return skb;
}

static void rxe_icrc_ipv6(struct kunit *test)
{
	struct sk_buff *skb = v6_build(test);
	struct rxe_pkt *pkt = RXE_SKB_PKT(skb);
	struct ipv6hdr *ip6 = ipv6_hdr(skb);
	u8 *payload = rxe_pkt_payload(pkt);
	u32 crc = rxe_icrc_compute(skb, pkt);

	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), 0);

	/* Traffic class, flow label and hop limit are masked. */
	ip6->hop_limit = 1;
	ip6_flow_hdr(ip6, 0xfc, cpu_to_be32(0xfedcb));
	KUNIT_EXPECT_EQ(test, rxe_icrc_compute(skb, pkt), crc);
	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), 0);
	ip6_flow_hdr(ip6, 0, 0);
	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), 0);
	udp_hdr(skb)->check = (__force __sum16)cpu_to_be16(0xbeef);
	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), 0);

	/* The payload, the addresses and the BTH are covered. */
	payload[V6_PAYLOAD / 2] ^= 0x20;
	KUNIT_EXPECT_NE(test, rxe_icrc_compute(skb, pkt), crc);
	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), -EINVAL);
	payload[V6_PAYLOAD / 2] ^= 0x20;
	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), 0);
	ip6->daddr.s6_addr[15] ^= 3;
	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), -EINVAL);
	ip6->daddr.s6_addr[15] ^= 3;
	pkt->hdr[11] ^= 1;
	KUNIT_EXPECT_EQ(test, rxe_icrc_check(skb, pkt), -EINVAL);
	pkt->hdr[11] ^= 1;
	KUNIT_EXPECT_EQ(test, rxe_icrc_compute(skb, pkt), crc);
	kfree_skb(skb);
}

static struct kunit_case rxe_icrc_cases[] = {
	KUNIT_CASE(rxe_icrc_vec_parse),
	KUNIT_CASE(rxe_icrc_vec_crc),
	KUNIT_CASE(rxe_icrc_vec_covered),
	KUNIT_CASE(rxe_icrc_vec_masked),
	KUNIT_CASE(rxe_icrc_ipv6),
	{}
};

static struct kunit_suite rxe_icrc_suite = {
	.name = "rxe_icrc",
	.test_cases = rxe_icrc_cases,
};

kunit_test_suite(rxe_icrc_suite);

MODULE_DESCRIPTION("KUnit tests of the rdma_rxe invariant CRC against recorded packets");
MODULE_LICENSE("GPL");
