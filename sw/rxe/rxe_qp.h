/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_qp.h - the queue pair and the transport state its requester,
 * responder and completer keep. Files outside the transport only use
 * qp->ibqp (PD, QP number, type) and the functions declared in rxe.h.
 */
#ifndef RXE_QP_H
#define RXE_QP_H

#include "rxe.h"

struct rxe_qp {
	struct ib_qp ibqp;	/* must stay first (core-allocated) */
	/* the transport's state follows (rxe_qp.c owns this header) */
};

static inline struct rxe_qp *to_rqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct rxe_qp, ibqp);
}

static inline struct rxe_pd *rxe_qp_pd(struct rxe_qp *qp)
{
	return to_rpd(qp->ibqp.pd);
}

#endif /* RXE_QP_H */
