/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_opcode.h - work request opcodes (rxe_opcode.c): which QP types may
 * post each, the wire opcode of each packet of its message, how it
 * completes. The requester, the completer and post_send read them here,
 * none from another. The wire opcodes themselves are in rxe_hdr.h.
 */
#ifndef RXE_OPCODE_H
#define RXE_OPCODE_H

#include <rdma/ib_verbs.h>

/* Where a packet sits in its message: bit 0 = first, bit 1 = last. */
enum rxe_wr_pos {
	RXE_POS_MIDDLE	= 0,
	RXE_POS_FIRST	= 1,
	RXE_POS_LAST	= 2,
	RXE_POS_ONLY	= 3,
};

int rxe_wr_opcode(enum ib_qp_type type, enum ib_wr_opcode op,
		  enum rxe_wr_pos pos);
bool rxe_wr_allowed(enum ib_qp_type type, enum ib_wr_opcode op);
bool rxe_wr_is_local(enum ib_wr_opcode op);
bool rxe_wr_is_rd_atomic(enum ib_wr_opcode op);
enum ib_wc_opcode rxe_wr_wc_opcode(enum ib_wr_opcode op);

#endif /* RXE_OPCODE_H */
