// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_net.c - RoCEv2 on the wire: UDP/4791 sockets per network namespace,
 * receive, route and transmit.
 */

#include <linux/if_ether.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/dst.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/net_namespace.h>
#include <net/route.h>
#include <net/udp_tunnel.h>
#include "rxe_hdr.h"
#include "rxe_dev.h"
#include "rxe_verbs.h"
#include "rxe_net.h"
#include "rxe_recv.h"

/* Any non-zero encapsulation type turns on encap_rcv; the value is ours. */
#define RXE_UDP_ENCAP_TYPE	1
/* IPv4 TTL when the address vector leaves the hop limit to us. */
#define RXE_DEFAULT_TTL		64

/**
 * struct rxe_net_sock - the UDP/4791 sockets of one network namespace
 * @list:  on rxe_net_socks
 * @net:   the namespace; NULL once it is being dismantled (the sockets are
 *         closed then, and the entry only waits for its last user)
 * @users: rxe devices made in @net
 * @sk4:   the IPv4 socket
 * @sk6:   the IPv6 socket, NULL when the namespace has no IPv6
 *
 * Everything here is protected by rxe_net_lock. The sockets are made for
 * the first device of a namespace and closed with its last, or when the
 * namespace goes (kernel sockets do not keep their namespace alive).
 */
struct rxe_net_sock {
	struct list_head list;
	struct net *net;
	unsigned int users;
	struct socket *sk4;
	struct socket *sk6;
};

static LIST_HEAD(rxe_net_socks);
static DEFINE_MUTEX(rxe_net_lock);

/* ---- Receive ---------------------------------------------------------------- */

/*
 * One RoCEv2 packet for @rxe: skb->data at the UDP header, network and
 * transport headers set. Checks it and hands it to the transport. @local:
 * it never left this host (rxe_loop.c), so it carries no ICRC to check.
 */
static void rxe_net_rcv(struct rxe_dev *rxe, struct sk_buff *skb, bool local)
{
	struct rxe_pkt *pkt = RXE_SKB_PKT(skb);
	unsigned int udp_len;

	if (unlikely(skb_linearize(skb))) {
		rxe_counter_inc(rxe, RXE_CNT_DROP_NOMEM);
		goto drop;
	}
	udp_len = ntohs(udp_hdr(skb)->len);
	__skb_pull(skb, sizeof(struct udphdr));

	memset(pkt, 0, sizeof(*pkt));
	pkt->rxe = rxe;
	pkt->port = 1;
	pkt->hdr = skb->data;
	pkt->paylen = udp_len - sizeof(struct udphdr);
	rxe_counter_inc(rxe, RXE_CNT_RCVD_PKTS);

	if (unlikely(udp_len < sizeof(struct udphdr) + sizeof(struct rxe_bth) +
			       RXE_ICRC_SIZE || pkt->paylen > skb->len ||
		     rxe_hdr_check(pkt))) {
		rxe_counter_inc(rxe, RXE_CNT_DROP_HDR);
		goto drop;
	}
	if (unlikely(!local && rxe_icrc_check(skb, pkt))) {
		rxe_counter_inc(rxe, RXE_CNT_DROP_ICRC);
		goto drop;
	}
	rxe_recv(rxe, skb);
	return;

drop:
	kfree_skb(skb);
}

/* encap_rcv of both sockets: softirq, skb->data at the UDP header. */
static int rxe_net_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct rxe_dev *rxe;

	rcu_read_lock();
	rxe = rxe_dev_from_ndev_rcu(skb->dev);
	if (rxe)
		rxe_net_rcv(rxe, skb, false);
	else
		kfree_skb(skb);
	rcu_read_unlock();
	return 0;
}

/**
 * rxe_net_loop_rcv() - receive a packet sent to an address of this host
 * @to:  the net device owning the destination address
 * @skb: the packet, skb->data at the IP header; consumed
 *
 * Hands @skb to the rxe device of @to as if it had arrived there; dropped
 * when @to has none (any more).
 * Context: softirq (the local delivery queue, rxe_loop.c), under
 * rcu_read_lock().
 */
void rxe_net_loop_rcv(struct net_device *to, struct sk_buff *skb)
{
	struct rxe_dev *rxe = rxe_dev_from_ndev_rcu(to);

	if (!rxe) {
		kfree_skb(skb);
		return;
	}
	skb->pkt_type = PACKET_HOST;
	__skb_pull(skb, skb_transport_offset(skb));
	rxe_net_rcv(rxe, skb, true);
}

/*
 * Local destinations go through the per-CPU delivery queue; with bottom
 * halves off here, its tasklet runs as soon as they are back on.
 */
static void rxe_net_loop4(struct net *net, struct sk_buff *skb, __be32 daddr)
{
	local_bh_disable();
	rcu_read_lock();
	rxe_loop_queue(__ip_dev_find(net, daddr, false), skb);
	rcu_read_unlock();
	local_bh_enable();
}

static void rxe_net_loop6(struct net *net, struct sk_buff *skb,
			  const struct in6_addr *daddr)
{
	local_bh_disable();
	rcu_read_lock();
	rxe_loop_queue(ipv6_stub->ipv6_dev_find(net, daddr, NULL), skb);
	rcu_read_unlock();
	local_bh_enable();
}

/* ---- Sockets ----------------------------------------------------------------- */

static struct socket *rxe_net_sock_open(struct net *net, bool ipv6)
{
	struct udp_port_cfg cfg = {
		.local_udp_port = htons(RXE_UDP_PORT),
		/* IPv6 peers that send no UDP checksum are accepted */
		.use_udp6_rx_checksums = 0,
	};
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type = RXE_UDP_ENCAP_TYPE,
		.encap_rcv = rxe_net_encap_rcv,
	};
	struct socket *sock;
	int ret;

	if (ipv6) {
		cfg.family = AF_INET6;
		cfg.ipv6_v6only = 1;
	} else {
		cfg.family = AF_INET;
	}
	ret = udp_sock_create(net, &cfg, &sock);
	if (ret)
		return ERR_PTR(ret);
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

static void rxe_net_sock_close(struct rxe_net_sock *s)
{
	if (s->sk6)
		udp_tunnel_sock_release(s->sk6);
	if (s->sk4)
		udp_tunnel_sock_release(s->sk4);
	s->sk6 = NULL;
	s->sk4 = NULL;
}

/* Both sockets of a new entry; a namespace without IPv6 has only one. */
static int rxe_net_sock_create(struct rxe_net_sock *s, struct net *net)
{
	struct socket *sock;

	sock = rxe_net_sock_open(net, false);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	s->sk4 = sock;

	sock = rxe_net_sock_open(net, true);
	if (IS_ERR(sock)) {
		if (PTR_ERR(sock) == -EAFNOSUPPORT ||
		    PTR_ERR(sock) == -EPFNOSUPPORT)
			return 0;
		rxe_net_sock_close(s);
		return PTR_ERR(sock);
	}
	s->sk6 = sock;
	return 0;
}

static struct rxe_net_sock *rxe_net_sock_find(struct net *net)
{
	struct rxe_net_sock *s;

	lockdep_assert_held(&rxe_net_lock);
	list_for_each_entry(s, &rxe_net_socks, list)
		if (s->net == net)
			return s;
	return NULL;
}

/**
 * rxe_net_sock_get() - Hold the UDP/4791 sockets of a namespace
 * @net: the namespace of the net device a new rxe device sits on
 *
 * Opens the IPv4 and IPv6 sockets for the first user in @net (IPv6 only if
 * the namespace has it).
 *
 * Context: Process context, may sleep. Not under RTNL.
 * Return: a handle for rxe_net_sock_put(), or an ERR_PTR(): -ENOMEM, or
 * the socket's error (-EADDRINUSE when someone else has port 4791).
 */
struct rxe_net_sock *rxe_net_sock_get(struct net *net)
{
	struct rxe_net_sock *s;
	int ret;

	mutex_lock(&rxe_net_lock);
	s = rxe_net_sock_find(net);
	if (s) {
		s->users++;
		goto out;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		s = ERR_PTR(-ENOMEM);
		goto out;
	}
	ret = rxe_net_sock_create(s, net);
	if (ret) {
		kfree(s);
		s = ERR_PTR(ret);
		goto out;
	}
	s->net = net;
	s->users = 1;
	list_add(&s->list, &rxe_net_socks);
out:
	mutex_unlock(&rxe_net_lock);
	return s;
}

/**
 * rxe_net_sock_put() - Drop a hold from rxe_net_sock_get()
 * @s: the handle
 *
 * The last user closes the sockets.
 *
 * Context: Process context, may sleep.
 */
void rxe_net_sock_put(struct rxe_net_sock *s)
{
	mutex_lock(&rxe_net_lock);
	if (!--s->users) {
		list_del(&s->list);
		rxe_net_sock_close(s);
		kfree(s);
	}
	mutex_unlock(&rxe_net_lock);
}

/*
 * A namespace is dismantled: its net devices, and so the notifier's queued
 * unregistrations of their rxe devices, may outlive it; its sockets may
 * not. Close them; the entry stays until its last device lets go.
 */
static void __net_exit rxe_net_ns_exit(struct net *net)
{
	struct rxe_net_sock *s;

	mutex_lock(&rxe_net_lock);
	s = rxe_net_sock_find(net);
	if (s) {
		rxe_net_sock_close(s);
		s->net = NULL;
	}
	mutex_unlock(&rxe_net_lock);
}

static struct pernet_operations rxe_net_ops = {
	.exit = rxe_net_ns_exit,
};

/**
 * rxe_net_init() - Follow network namespaces going away
 *
 * Context: Process context (module init).
 * Return: 0 or the error of register_pernet_subsys().
 */
int rxe_net_init(void)
{
	return register_pernet_subsys(&rxe_net_ops);
}

/**
 * rxe_net_exit() - Stop following namespaces; every device is gone
 *
 * Context: Process context (module exit).
 */
void rxe_net_exit(void)
{
	unregister_pernet_subsys(&rxe_net_ops);
	WARN_ON(!list_empty(&rxe_net_socks));
	/* encap_rcv calls that found a socket before it closed are done */
	synchronize_net();
}

/* ---- Transmit ------------------------------------------------------------- */

static bool rxe_av_is_ipv6(const struct rxe_av *av)
{
	return av->network_type == RDMA_NETWORK_IPV6;
}

/**
 * rxe_net_skb_alloc() - A packet buffer for @paylen bytes of RoCEv2
 * @rxe:    the sending device
 * @av:     where it goes (decides the IP version)
 * @paylen: bytes from the BTH to the end of the ICRC
 * @pkt:    gets @hdr (the BTH, start of @paylen zeroed-tail bytes), @paylen,
 *          @rxe and @port; the caller fills in the rest
 *
 * The buffer has headroom for the link, IP and UDP headers that
 * rxe_net_xmit() adds. The pad and ICRC bytes at the end are zeroed.
 *
 * Context: Any context (GFP_ATOMIC).
 * Return: the skb, or NULL when out of memory.
 */
struct sk_buff *rxe_net_skb_alloc(struct rxe_dev *rxe, const struct rxe_av *av,
				  u32 paylen, struct rxe_pkt *pkt)
{
	struct net_device *ndev = rxe->ndev;
	unsigned int hdrs = sizeof(struct udphdr) +
			    (rxe_av_is_ipv6(av) ? sizeof(struct ipv6hdr) :
						  sizeof(struct iphdr));
	unsigned int headroom = LL_RESERVED_SPACE(ndev) + hdrs;
	unsigned int tail = min_t(u32, paylen, RXE_MAX_PAD + RXE_ICRC_SIZE);
	struct sk_buff *skb;

	skb = alloc_skb(headroom + paylen + ndev->needed_tailroom, GFP_ATOMIC);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, headroom);
	pkt->hdr = skb_put(skb, paylen);
	memset(pkt->hdr + paylen - tail, 0, tail);
	pkt->paylen = paylen;
	pkt->rxe = rxe;
	pkt->port = 1;
	skb->protocol = htons(rxe_av_is_ipv6(av) ? ETH_P_IPV6 : ETH_P_IP);
	return skb;
}

static void rxe_net_push_udp(struct sk_buff *skb, u16 sport)
{
	struct udphdr *uh;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = htons(sport);
	uh->dest = htons(RXE_UDP_PORT);
	uh->len = htons(skb->len);
	uh->check = 0;	/* IPv4: none; IPv6: set after the ICRC */
}

static void rxe_net_push_ip4(struct net *net, struct sk_buff *skb,
			     const struct rxe_av *av, const struct flowi4 *fl)
{
	struct iphdr *iph;

	__skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = av->traffic_class;
	iph->tot_len = htons(skb->len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = av->hop_limit ?: RXE_DEFAULT_TTL;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = fl->saddr;
	iph->daddr = fl->daddr;
	ip_select_ident(net, skb, NULL);
	ip_send_check(iph);
}

static void rxe_net_push_ip6(struct sk_buff *skb, const struct rxe_av *av,
			     const struct flowi6 *fl6, struct dst_entry *dst)
{
	struct ipv6hdr *ip6h;
	unsigned int len = skb->len;

	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, av->traffic_class,
		     htonl(av->flow_label) & IPV6_FLOWLABEL_MASK);
	ip6h->payload_len = htons(len);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = av->hop_limit ?: ip6_dst_hoplimit(dst);
	ip6h->saddr = fl6->saddr;
	ip6h->daddr = fl6->daddr;
}

/* The stack's verdict as 0 or -errno (a dropped packet is -ENOBUFS). */
static int rxe_net_out_result(int ret)
{
	ret = net_xmit_eval(ret);
	return ret > 0 ? -ENOBUFS : ret;
}

static int rxe_net_xmit4(struct rxe_dev *rxe, const struct rxe_av *av,
			 u16 sport, struct sk_buff *skb, struct rxe_pkt *pkt)
{
	struct net *net = dev_net(rxe->ndev);
	struct flowi4 fl = {
		.flowi4_oif = rxe->ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_tos = RT_TOS(av->traffic_class),
	};
	struct rtable *rt;

	memcpy(&fl.saddr, &av->sgid.raw[12], sizeof(fl.saddr));
	memcpy(&fl.daddr, &av->dgid.raw[12], sizeof(fl.daddr));
	rt = ip_route_output_key(net, &fl);
	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return PTR_ERR(rt);
	}
	skb_dst_set(skb, &rt->dst);
	rxe_net_push_udp(skb, sport);
	rxe_net_push_ip4(net, skb, av, &fl);

	if (rt->rt_type == RTN_LOCAL) {
		rxe_net_loop4(net, skb, fl.daddr);
		return 0;
	}
	rxe_icrc_set(skb, pkt);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
	skb->dev = rt->dst.dev;
	return rxe_net_out_result(ip_local_out(net, NULL, skb));
}

static int rxe_net_xmit6(struct rxe_dev *rxe, const struct rxe_av *av,
			 u16 sport, struct sk_buff *skb, struct rxe_pkt *pkt)
{
	struct net *net = dev_net(rxe->ndev);
	struct flowi6 fl6 = {
		.flowi6_oif = rxe->ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.flowlabel = ip6_make_flowinfo(av->traffic_class,
					       htonl(av->flow_label)),
	};
	struct dst_entry *dst;

	memcpy(&fl6.saddr, av->sgid.raw, sizeof(fl6.saddr));
	memcpy(&fl6.daddr, av->dgid.raw, sizeof(fl6.daddr));
	dst = ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl6, NULL);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}
	skb_dst_set(skb, dst);
	rxe_net_push_udp(skb, sport);
	rxe_net_push_ip6(skb, av, &fl6, dst);

	if (dst->dev->flags & IFF_LOOPBACK) {
		rxe_net_loop6(net, skb, &fl6.daddr);
		return 0;
	}
	rxe_icrc_set(skb, pkt);
	udp6_set_csum(false, skb, &fl6.saddr, &fl6.daddr,
		      skb->len - sizeof(struct ipv6hdr));
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	skb->dev = dst->dev;
	return rxe_net_out_result(ip6_local_out(net, NULL, skb));
}

/**
 * rxe_net_xmit() - Send one RoCEv2 packet
 * @rxe:   the sending device
 * @av:    destination and source addresses, traffic class, hop limit
 * @sport: UDP source port (per QP, for ECMP entropy)
 * @skb:   from rxe_net_skb_alloc(), BTH to ICRC filled in except the ICRC
 * @pkt:   the packet's description (may live in @skb->cb)
 *
 * Routes in the namespace of rxe->ndev, out of rxe->ndev, adds the UDP and
 * IP headers. A packet for an address of this host goes to the rxe device
 * owning that address (dropped when there is none) through the per-CPU
 * local delivery queue (rxe_loop.c), without an ICRC: it never meets a
 * wire, and the receiver skips the check for it. Others get their ICRC
 * and go to the IP stack. Counts sent_pkts or send_err.
 *
 * Context: Process context or softirq; does not sleep.
 * Return: 0, or -errno (no route, device gone, dropped). @skb is consumed
 * either way.
 */
int rxe_net_xmit(struct rxe_dev *rxe, const struct rxe_av *av, u16 sport,
		 struct sk_buff *skb, struct rxe_pkt *pkt)
{
	int ret;

	if (unlikely(READ_ONCE(rxe->ndev->reg_state) != NETREG_REGISTERED)) {
		kfree_skb(skb);
		ret = -ENETDOWN;
	} else if (rxe_av_is_ipv6(av)) {
		ret = rxe_net_xmit6(rxe, av, sport, skb, pkt);
	} else {
		ret = rxe_net_xmit4(rxe, av, sport, skb, pkt);
	}

	if (unlikely(ret)) {
		rxe_counter_inc(rxe, RXE_CNT_SEND_ERR);
		rxe_dbg_dev(rxe, "packet not sent: %d\n", ret);
	} else {
		rxe_counter_inc(rxe, RXE_CNT_SENT_PKTS);
	}
	return ret;
}
