/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_req.h - the requester's interface inside the transport (rxe_qp.c,
 * rxe_post.c) and the pure decision KUnit tests.
 */
#ifndef RXE_REQ_H
#define RXE_REQ_H

#include "rxe_qp.h"

/* RC packets in flight before the requester waits for acknowledgements. */
#define RXE_REQ_WINDOW		128
/*
 * Inside a long RC message the responder only ACKs when asked: ask every
 * this many PSNs, so ACKs arrive while the window still has room.
 */
#define RXE_REQ_ACK_EVERY	(RXE_REQ_WINDOW / 4)

u32 rxe_req_num_pkts(u32 len, u32 mtu);

void rxe_req_init(struct rxe_qp *qp);
void rxe_req_reset(struct rxe_qp *qp);
void rxe_req_cleanup(struct rxe_qp *qp);
int rxe_req_run(struct rxe_qp *qp);

#endif /* RXE_REQ_H */
