// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_icrc.c - the RoCEv2 invariant CRC: computed over the packet with its
 * in-flight-variable fields masked.
 */
/*
 * The ICRC is a CRC-32 (the Ethernet/zlib polynomial, reflected) over, in
 * this order: eight bytes of 0xff standing in for the InfiniBand LRH, the
 * IP header, the UDP header, the BTH and everything that follows the BTH up
 * to the ICRC itself. Fields that routers may rewrite are read as all ones:
 * IPv4 TOS, TTL and header checksum; IPv6 traffic class, flow label and hop
 * limit; the UDP checksum; and BTH byte 4 (FECN, BECN and reserved bits).
 * The complement of the CRC is sent little endian.
 *
 * Only the masked headers are copied (to the stack); the payload is fed to
 * the CRC in place. The packet from the BTH through the ICRC must be
 * linear, as it is for every packet the driver builds or accepts.
 */

#include <kunit/visibility.h>
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/module.h>

#include "rxe_dev.h"
#include "rxe_hdr.h"

/* A checksum field read as all ones. */
#define RXE_ICRC_SUM_ONES	((__force __sum16)0xffff)

static const u8 rxe_icrc_lrh_ones[8] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* The IPv4 header with TOS, TTL and checksum masked, then any options. */
static u32 rxe_icrc_ipv4(u32 crc, const u8 *nh)
{
	struct iphdr ip;
	unsigned int hlen;

	memcpy(&ip, nh, sizeof(ip));
	hlen = ip.ihl * 4;
	ip.tos = 0xff;
	ip.ttl = 0xff;
	ip.check = RXE_ICRC_SUM_ONES;
	crc = crc32_le(crc, (const u8 *)&ip, sizeof(ip));
	if (hlen > sizeof(ip))
		crc = crc32_le(crc, nh + sizeof(ip), hlen - sizeof(ip));
	return crc;
}

/* The IPv6 fixed header with traffic class, flow label, hop limit masked. */
static u32 rxe_icrc_ipv6(u32 crc, const u8 *nh)
{
	struct ipv6hdr ip6;

	memcpy(&ip6, nh, sizeof(ip6));
	ip6.priority = 0xf;
	memset(ip6.flow_lbl, 0xff, sizeof(ip6.flow_lbl));
	ip6.hop_limit = 0xff;
	return crc32_le(crc, (const u8 *)&ip6, sizeof(ip6));
}

/* UDP header (checksum masked) and BTH (byte 4 masked). */
static u32 rxe_icrc_udp_bth(u32 crc, const struct rxe_pkt *pkt)
{
	struct udphdr udp;
	struct rxe_bth bth;

	memcpy(&udp, pkt->hdr - sizeof(udp), sizeof(udp));
	udp.check = RXE_ICRC_SUM_ONES;
	crc = crc32_le(crc, (const u8 *)&udp, sizeof(udp));

	memcpy(&bth, pkt->hdr, sizeof(bth));
	bth.qpn |= cpu_to_be32(0xff000000);
	return crc32_le(crc, (const u8 *)&bth, sizeof(bth));
}

/**
 * rxe_icrc_compute() - the invariant CRC a packet should carry
 * @skb: the packet; its network header must be set
 * @pkt: @hdr points at the BTH (the UDP header is just before it) and
 *       @paylen counts the bytes from the BTH through the ICRC
 *
 * Works on IPv4 and IPv6 packets alike; does not modify the packet. Any
 * context.
 *
 * Return: the ICRC in CPU order (it travels little endian).
 */
u32 rxe_icrc_compute(struct sk_buff *skb, const struct rxe_pkt *pkt)
{
	const u8 *nh = skb_network_header(skb);
	u32 crc;

	crc = crc32_le(~0U, rxe_icrc_lrh_ones, sizeof(rxe_icrc_lrh_ones));
	if ((nh[0] >> 4) == 6)
		crc = rxe_icrc_ipv6(crc, nh);
	else
		crc = rxe_icrc_ipv4(crc, nh);
	crc = rxe_icrc_udp_bth(crc, pkt);
	crc = crc32_le(crc, pkt->hdr + sizeof(struct rxe_bth),
		       pkt->paylen - sizeof(struct rxe_bth) - RXE_ICRC_SIZE);
	return ~crc;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_icrc_compute);

static __le32 *rxe_icrc_field(const struct rxe_pkt *pkt)
{
	return (__le32 *)(pkt->hdr + pkt->paylen - RXE_ICRC_SIZE);
}

/**
 * rxe_icrc_check() - verify the ICRC of a received packet
 * @skb: the packet; its network header must be set
 * @pkt: packet that passed rxe_hdr_check() (so @paylen covers a BTH and
 *       the ICRC)
 *
 * Any context.
 *
 * Return: 0 when the ICRC matches, -EINVAL when it does not.
 */
int rxe_icrc_check(struct sk_buff *skb, const struct rxe_pkt *pkt)
{
	u32 want = rxe_icrc_compute(skb, pkt);
	u32 got = get_unaligned_le32(rxe_icrc_field(pkt));

	if (likely(got == want))
		return 0;
	if (pkt->rxe)
		rxe_dbg_dev(pkt->rxe, "ICRC 0x%08x, expected 0x%08x\n",
			    got, want);
	else
		pr_debug("%s: ICRC 0x%08x, expected 0x%08x\n", __func__,
			 got, want);
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_icrc_check);

/**
 * rxe_icrc_set() - write the ICRC into the last four bytes of a packet
 * @skb: the packet, complete but for its ICRC; its network header set
 * @pkt: @hdr points at the BTH, @paylen counts through the ICRC
 *
 * Call after every header (IP and UDP included) has its final value:
 * anything changed later except the masked fields breaks the ICRC. Any
 * context.
 */
void rxe_icrc_set(struct sk_buff *skb, const struct rxe_pkt *pkt)
{
	put_unaligned_le32(rxe_icrc_compute(skb, pkt), rxe_icrc_field(pkt));
}
EXPORT_SYMBOL_IF_KUNIT(rxe_icrc_set);
