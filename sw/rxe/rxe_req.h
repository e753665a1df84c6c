/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_req.h - the requester's interface inside the transport (rxe_qp.c,
 * rxe_post.c, rxe_comp.c) and the pure decisions KUnit tests.
 */
#ifndef RXE_REQ_H
#define RXE_REQ_H

#include "rxe_qp.h"

/* Where a packet sits in its message: bit 0 = first, bit 1 = last. */
enum rxe_req_pos {
	RXE_POS_MIDDLE	= 0,
	RXE_POS_FIRST	= 1,
	RXE_POS_LAST	= 2,
	RXE_POS_ONLY	= 3,
};

/* RC packets in flight before the requester waits for acknowledgements. */
#define RXE_REQ_WINDOW		128
/*
 * Inside a long RC message the responder only ACKs when asked: ask every
 * this many PSNs, so ACKs arrive while the window still has room.
 */
#define RXE_REQ_ACK_EVERY	(RXE_REQ_WINDOW / 4)

int rxe_req_opcode(enum ib_qp_type type, enum ib_wr_opcode op,
		   enum rxe_req_pos pos);
bool rxe_req_wr_allowed(enum ib_qp_type type, enum ib_wr_opcode op);
bool rxe_req_wr_is_local(enum ib_wr_opcode op);
bool rxe_req_wr_is_rd_atomic(enum ib_wr_opcode op);
enum ib_wc_opcode rxe_req_wc_opcode(enum ib_wr_opcode op);
u32 rxe_req_num_pkts(u32 len, u32 mtu);

void rxe_req_init(struct rxe_qp *qp);
void rxe_req_reset(struct rxe_qp *qp);
void rxe_req_cleanup(struct rxe_qp *qp);
int rxe_req_run(struct rxe_qp *qp);

/*
 * Point @dma at byte @offset of @wqe's SGE list (the requester's transmit
 * cursor, or the completer's READ response cursor).
 */
static inline void rxe_wqe_dma_seek(struct rxe_dma *dma,
				    const struct rxe_send_wqe *wqe, u32 offset)
{
	u32 i;

	dma->length = wqe->length;
	dma->resid = wqe->length - min(offset, wqe->length);
	dma->num_sge = wqe->num_sge;
	for (i = 0; i < wqe->num_sge && offset >= wqe->sge[i].length; i++)
		offset -= wqe->sge[i].length;
	dma->cur_sge = i;
	dma->sge_offset = i < wqe->num_sge ? offset : 0;
}

#endif /* RXE_REQ_H */
