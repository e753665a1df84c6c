// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_recv.c - a checked packet finds its QP, passes the QP's checks and
 * goes to the responder or the completer.
 */

#include <kunit/visibility.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>

#include "rxe_recv.h"
#include "rxe_qp.h"

/*
 * States in which a QP takes packets. Requests need a receive side (RTR
 * and later). Responses only make sense while the send side can have
 * requests outstanding (RTS, SQD, SQE); in ERR the completer flushes the
 * send queue without looking at the wire, so responses are dropped there.
 */
#define RXE_RECV_REQ_STATES \
	(BIT(IB_QPS_RTR) | BIT(IB_QPS_RTS) | BIT(IB_QPS_SQD) | BIT(IB_QPS_SQE))
#define RXE_RECV_RESP_STATES \
	(BIT(IB_QPS_RTS) | BIT(IB_QPS_SQD) | BIT(IB_QPS_SQE))

/* The opcode belongs to the transport of the QP type. */
static bool rxe_recv_type_ok(struct rxe_qp *qp, struct sk_buff *skb)
{
	u32 flags = RXE_SKB_PKT(skb)->flags;

	switch (rxe_qp_type(qp)) {
	case IB_QPT_RC:
		return flags & RXE_OPF_RC;
	case IB_QPT_UC:
		return flags & RXE_OPF_UC;
	case IB_QPT_UD:
	case IB_QPT_GSI:
		return flags & RXE_OPF_UD;
	default:
		return false;
	}
}

static bool rxe_recv_state_ok(struct rxe_qp *qp, struct sk_buff *skb)
{
	u32 states = (RXE_SKB_PKT(skb)->flags & RXE_OPF_ACK) ?
		     RXE_RECV_RESP_STATES : RXE_RECV_REQ_STATES;

	return states & BIT(rxe_qp_state(qp));
}

/*
 * P_Keys match when their low 15 bits agree and at least one side is a
 * full member. A QP whose P_Key was never set uses the default one.
 */
static bool rxe_recv_pkey_ok(struct rxe_qp *qp, struct sk_buff *skb)
{
	u16 mine = qp->attr.pkey ?: RXE_DEFAULT_PKEY;
	u16 theirs = rxe_bth_pkey(RXE_SKB_PKT(skb));

	return !((mine ^ theirs) & 0x7fff) && ((mine | theirs) & 0x8000);
}

static bool rxe_recv_qkey_ok(struct rxe_qp *qp, struct sk_buff *skb)
{
	u32 qkey;

	if (!rxe_qp_is_ud(qp))
		return true;
	qkey = rxe_qp_type(qp) == IB_QPT_GSI ? RXE_GSI_QKEY : qp->attr.qkey;
	return rxe_deth_qkey(RXE_SKB_PKT(skb)) == qkey;
}

/* Connected QPs take packets from their peer only. */
static bool rxe_recv_addr_ok(struct rxe_qp *qp, struct sk_buff *skb)
{
	const struct in6_addr *peer = (const struct in6_addr *)qp->av.dgid.raw;

	if (rxe_qp_is_ud(qp))
		return true;
	if (ip_hdr(skb)->version == 4)
		return ipv6_addr_v4mapped(peer) &&
		       ip_hdr(skb)->saddr == peer->s6_addr32[3];
	return ipv6_addr_equal(&ipv6_hdr(skb)->saddr, peer);
}

/* The QP's checks, in order; the first that fails names the counter. */
static const struct rxe_recv_rule {
	bool (*ok)(struct rxe_qp *qp, struct sk_buff *skb);
	enum rxe_counter drop;
	const char *what;
} rxe_recv_rules[] = {
	{ rxe_recv_type_ok,  RXE_CNT_DROP_QP_TYPE,  "opcode of another transport" },
	{ rxe_recv_state_ok, RXE_CNT_DROP_QP_STATE, "QP state" },
	{ rxe_recv_pkey_ok,  RXE_CNT_DROP_PKEY,     "P_Key" },
	{ rxe_recv_qkey_ok,  RXE_CNT_DROP_QKEY,     "Q_Key" },
	{ rxe_recv_addr_ok,  RXE_CNT_DROP_ADDR,     "source address" },
};

/**
 * rxe_recv_check() - may @qp take the packet in @skb?
 * @qp:   the destination QP
 * @skb:  a packet whose headers were checked (RXE_SKB_PKT() is filled,
 *        the network header is set)
 * @drop: set to the drop counter of the first check that fails
 *
 * Checks the opcode's transport against the QP type, the QP state, the
 * P_Key, the Q_Key (UD, GSI) and the source address (RC, UC). Any context.
 *
 * Return: 0 when the QP takes the packet, -EINVAL otherwise.
 */
int rxe_recv_check(struct rxe_qp *qp, struct sk_buff *skb,
		   enum rxe_counter *drop)
{
	const struct rxe_recv_rule *rule;

	for (rule = rxe_recv_rules;
	     rule < rxe_recv_rules + ARRAY_SIZE(rxe_recv_rules); rule++) {
		if (likely(rule->ok(qp, skb)))
			continue;
		rxe_dbg_qp(qp, "%s: %s, dropped\n",
			   rxe_opcode_name(RXE_SKB_PKT(skb)->opcode),
			   rule->what);
		*drop = rule->drop;
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_recv_check);

/* Consumes @skb and the QP reference the caller passes in. */
static void rxe_recv_accept(struct rxe_qp *qp, struct sk_buff *skb)
{
	struct rxe_pkt *pkt = RXE_SKB_PKT(skb);
	enum rxe_counter drop;

	if (unlikely(rxe_recv_check(qp, skb, &drop))) {
		rxe_counter_inc(qp->rxe, drop);
		kfree_skb(skb);
		rxe_qp_put(qp);
		return;
	}
	pkt->qp = qp;
	if (pkt->flags & RXE_OPF_ACK)
		rxe_comp_queue_pkt(qp, skb);
	else
		rxe_resp_queue_pkt(qp, skb);
}

/**
 * rxe_recv() - take a received packet to its QP
 * @rxe: device the packet arrived on
 * @skb: packet whose BTH and ICRC were checked (RXE_SKB_PKT() is filled)
 *
 * Multicast packets (destination QPN 0xffffff) go to every attached QP;
 * any other packet to its QP once the QP's checks pass, holding a QP
 * reference in RXE_SKB_PKT(@skb)->qp. A packet failing a check is dropped
 * and counted. Consumes @skb. Any context (softirq on the receive path).
 */
void rxe_recv(struct rxe_dev *rxe, struct sk_buff *skb)
{
	struct rxe_pkt *pkt = RXE_SKB_PKT(skb);
	u32 qpn = rxe_bth_qpn(pkt);
	struct rxe_qp *qp;

	if (qpn == RXE_QPN_MASK) {
		if (unlikely(!(pkt->flags & RXE_OPF_UD))) {
			rxe_dbg_dev(rxe, "%s to the multicast QPN, dropped\n",
				    rxe_opcode_name(pkt->opcode));
			rxe_counter_inc(rxe, RXE_CNT_DROP_QP_TYPE);
			kfree_skb(skb);
			return;
		}
		rxe_mcast_deliver(rxe, skb);
		return;
	}
	qp = rxe_qp_get(rxe, qpn);
	if (unlikely(!qp)) {
		rxe_dbg_dev(rxe, "no QP %#x, dropped\n", qpn);
		rxe_counter_inc(rxe, RXE_CNT_DROP_QPN);
		kfree_skb(skb);
		return;
	}
	rxe_recv_accept(qp, skb);
}

/**
 * rxe_recv_deliver() - take one copy of a multicast packet to one QP
 * @qp:  an attached QP; the caller holds a reference for the call
 * @skb: the copy for @qp (RXE_SKB_PKT() filled as for rxe_recv())
 *
 * Runs the QP's checks and queues the packet like rxe_recv(); the packet
 * takes a QP reference of its own. Consumes @skb. Any context.
 */
void rxe_recv_deliver(struct rxe_qp *qp, struct sk_buff *skb)
{
	refcount_inc(&qp->ref);
	rxe_recv_accept(qp, skb);
}
