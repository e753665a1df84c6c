/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_comp.h - the completer's interface inside the transport (rxe_qp.c,
 * rxe_req.c) and the pure decisions KUnit tests.
 */
#ifndef RXE_COMP_H
#define RXE_COMP_H

#include "rxe_qp.h"

/* What an AETH syndrome asks the completer to do. */
enum rxe_aeth_action {
	RXE_AETH_DO_ACK,	/* acknowledged up to the PSN */
	RXE_AETH_DO_RNR,	/* wait the RNR time, resend from the PSN */
	RXE_AETH_DO_RETRY,	/* sequence error: go back to the PSN */
	RXE_AETH_DO_FAIL,	/* the request failed: error completion */
	RXE_AETH_DO_DROP,	/* reserved encoding: ignore the packet */
};

enum rxe_aeth_action rxe_comp_aeth_action(u8 syndrome,
					  enum ib_wc_status *status);
u32 rxe_comp_rnr_usecs(u8 code);
u64 rxe_comp_timeout_ns(u8 code);
u32 rxe_comp_window(u32 window, bool timeout);

void rxe_comp_init(struct rxe_qp *qp);
void rxe_comp_reset(struct rxe_qp *qp);
void rxe_comp_cleanup(struct rxe_qp *qp);
int rxe_comp_run(struct rxe_qp *qp);
void rxe_comp_arm_timer(struct rxe_qp *qp);
void rxe_comp_drain_start(struct rxe_qp *qp);
void rxe_comp_drain_stop(struct rxe_qp *qp);

#endif /* RXE_COMP_H */
