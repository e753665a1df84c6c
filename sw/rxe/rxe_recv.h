/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_recv.h - the receive path from the UDP socket to a QP: the checks
 * against the QP and the dispatch (rxe_recv.c), and the fan-out of a
 * multicast packet to the attached QPs (rxe_mcast.c).
 */
#ifndef RXE_RECV_H
#define RXE_RECV_H

#include "rxe_dev.h"

struct sk_buff;
struct rxe_qp;

/* A checked packet (header, ICRC) for @rxe; consumes @skb. */
void rxe_recv(struct rxe_dev *rxe, struct sk_buff *skb);
/*
 * A checked packet for one QP (multicast fan-out); the caller holds a
 * reference on @qp for the duration of the call; consumes @skb.
 */
void rxe_recv_deliver(struct rxe_qp *qp, struct sk_buff *skb);
int rxe_recv_check(struct rxe_qp *qp, struct sk_buff *skb,
		   enum rxe_counter *drop);

/* A checked multicast packet for every QP attached to its group. */
void rxe_mcast_deliver(struct rxe_dev *rxe, struct sk_buff *skb);

#endif /* RXE_RECV_H */
