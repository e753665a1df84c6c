/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_net.h - the network underneath: UDP sockets per namespace, building
 * and transmitting packets (rxe_net.c), and local delivery to an rxe
 * device of this host (rxe_loop.c).
 */
#ifndef RXE_NET_H
#define RXE_NET_H

#include <linux/types.h>

struct net;
struct net_device;
struct sk_buff;
struct rxe_av;
struct rxe_dev;
struct rxe_net_sock;
struct rxe_pkt;

/* --- rxe_net.c ---------------------------------------------------------- */

struct sk_buff *rxe_net_skb_alloc(struct rxe_dev *rxe, const struct rxe_av *av,
				  u32 paylen, struct rxe_pkt *pkt);
int rxe_net_xmit(struct rxe_dev *rxe, const struct rxe_av *av, u16 sport,
		 struct sk_buff *skb, struct rxe_pkt *pkt);
int rxe_net_init(void);
void rxe_net_exit(void);
void rxe_net_loop_rcv(struct net_device *to, struct sk_buff *skb);
struct rxe_net_sock *rxe_net_sock_get(struct net *net);
void rxe_net_sock_put(struct rxe_net_sock *sock);

/* --- rxe_loop.c --------------------------------------------------------- */

void rxe_loop_queue(struct net_device *to, struct sk_buff *skb);
int rxe_loop_init(void);
void rxe_loop_exit(void);

#endif /* RXE_NET_H */
