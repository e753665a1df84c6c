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
 * The window right after a retransmit timeout. The timer fires on a slow
 * machine too, when the responder is still working through what it was
 * sent; resending a whole window each time piles duplicates in front of
 * it and makes the next timeout likelier. Resending a few packets (the
 * last of them asking for an ACK) and growing back on progress does not.
 */
#define RXE_REQ_WINDOW_MIN	8
/*
 * Inside a long RC message the responder only ACKs when asked: ask every
 * this many PSNs, so ACKs arrive while the window still has room.
 */
#define RXE_REQ_ACK_EVERY	(RXE_REQ_WINDOW / 4)

u32 rxe_req_num_pkts(u32 len, u32 mtu);

/*
 * rxe_req_in_flight() - RC packets of @qp were sent and are not yet
 * acknowledged. Lockless, from any context: the requester publishes
 * next_psn and the completer comp.psn, each with WRITE_ONCE().
 */
static inline bool rxe_req_in_flight(struct rxe_qp *qp)
{
	return rxe_qp_is_rc(qp) &&
	       rxe_psn_diff(READ_ONCE(qp->req.next_psn),
			    READ_ONCE(qp->comp.psn)) > 0;
}

void rxe_req_init(struct rxe_qp *qp);
void rxe_req_reset(struct rxe_qp *qp);
void rxe_req_cleanup(struct rxe_qp *qp);
int rxe_req_run(struct rxe_qp *qp);

#endif /* RXE_REQ_H */
