/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_resp.h - the responder's per-QP state (rxe_resp*.c) and the pure
 * decisions of the receive side (rxe_recv.c, rxe_resp.c) that the KUnit
 * suite rxe_recv checks.
 */
#ifndef RXE_RESP_H
#define RXE_RESP_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include "rxe_hdr.h"
#include "rxe_mem.h"
#include "rxe_param.h"
#include "rxe_verbs.h"

/* Bytes of one receive WQE with the most SGEs a QP or SRQ may have. */
#define RXE_RESP_WQE_BYTES \
	(sizeof(struct rxe_recv_wqe) + RXE_MAX_SGE * sizeof(struct ib_sge))

/**
 * struct rxe_resp_rd - one READ or ATOMIC request kept for replay
 * @va:     first byte the request addressed
 * @orig:   ATOMIC: the value the target held before the operation
 * @psn:    PSN of the request
 * @npkts:  PSNs the request consumed (READ: its responses); 0: free slot
 * @rkey:   R_Key of the request
 * @len:    READ length (8 for an ATOMIC)
 * @opcode: BTH opcode of the request
 */
struct rxe_resp_rd {
	u64 va;
	u64 orig;
	u32 psn;
	u32 npkts;
	u32 rkey;
	u32 len;
	u8 opcode;
};

/**
 * struct rxe_resp_xfer - an RDMA transfer in progress (WRITE in, READ out)
 * @mr:    memory region behind the R_Key; one reference while not NULL
 * @va:    address of the next byte
 * @resid: bytes left
 * @len:   length the RETH announced
 * @psn:   READ: PSN of the next response
 * @first: READ: PSN of the request (positions FIRST..LAST)
 * @npkts: READ: responses of the whole request
 * @start: READ: PSN this stream began at (its R_Key check)
 */
struct rxe_resp_xfer {
	struct rxe_mr *mr;
	u64 va;
	u32 resid;
	u32 len;
	u32 psn;
	u32 first;
	u32 npkts;
	u32 start;
};

/**
 * struct rxe_resp_state - what the responder remembers between packets
 *
 * Everything but @lock belongs to the responder task (rxe_resp_run()),
 * which never runs twice at once; rxe_resp_init/reset/cleanup() run while
 * the task is stopped.
 *
 * @step:     step of the state table the current packet is at
 * @skb:      the request being processed (holds a QP reference), or NULL
 * @psn:      next PSN expected (RC, UC)
 * @msn:      messages completed (sent back in every AETH)
 * @psn_valid: @psn was loaded from attr.rq_psn since the last reset
 * @last_opcode: opcode of the last request accepted (sequence check)
 * @nak_sent: RC: a PSN sequence NAK is outstanding
 * @comm_est: IB_EVENT_COMM_EST was raised
 * @ack_owed: RC: requests asking for an ACK that was not yet sent
 * @ack_from: PSN of the oldest of them (valid while @ack_owed)
 * @nak_syndrome: how the current packet fails (see rxe_resp_fail()): the
 *            AETH syndrome of the NAK
 * @nak_psn:  the PSN the NAK names
 * @err_event: the asynchronous event when the QP goes to error
 * @wc_status: the status a held receive WQE completes with
 * @lock:     serialises consumers of qp->rq: the task and rxe_resp_flush()
 * @wqe_valid: @wqe_buf holds a receive WQE taken for the open message
 * @dma:      progress through that WQE's SGEs
 * @wqe_buf:  the receive WQE (a struct rxe_recv_wqe), copied off the RQ
 * @wr:       RDMA WRITE in progress
 * @rd:       READ responses being sent
 * @rd_ring:  READ/ATOMIC requests kept for replay (allocated on first use)
 * @rd_slots: entries in @rd_ring
 * @rd_next:  slot the next request overwrites
 * @retry:    restarts the task after a failed allocation
 */
struct rxe_resp_state {
	u8 step;
	struct sk_buff *skb;
	u32 psn;
	u32 msn;
	bool psn_valid;
	u8 last_opcode;
	bool nak_sent;
	bool comm_est;
	u32 ack_owed;
	u32 ack_from;

	u8 nak_syndrome;
	u32 nak_psn;
	enum ib_event_type err_event;
	enum ib_wc_status wc_status;

	spinlock_t lock;	/* the task vs rxe_resp_flush(), over qp->rq */
	bool wqe_valid;
	struct rxe_dma dma;
	u64 wqe_buf[DIV_ROUND_UP(RXE_RESP_WQE_BYTES, sizeof(u64))];

	struct rxe_resp_xfer wr;
	struct rxe_resp_xfer rd;
	struct rxe_resp_rd *rd_ring;
	u32 rd_slots;
	u32 rd_next;

	struct timer_list retry;
};

/* --- AETH syndromes the responder sends ---------------------------------- */

/* Positive ACK; the credit field says "no credit count" like the inbox. */
static inline u8 rxe_resp_syndrome_ack(void)
{
	return RXE_AETH_ACK | RXE_AETH_NO_CREDIT;
}

/* Receiver not ready: come back after @timer (a 5-bit RNR timer code). */
static inline u8 rxe_resp_syndrome_rnr(u8 timer)
{
	return RXE_AETH_RNR_NAK | (timer & ~RXE_AETH_TYPE_MASK);
}

/* NAK with one of the RXE_AETH_NAK_* codes. */
static inline u8 rxe_resp_syndrome_nak(u8 code)
{
	return RXE_AETH_NAK | (code & ~RXE_AETH_TYPE_MASK);
}

/* --- decisions exported to the KUnit suite ------------------------------- */

struct rxe_qp;

/* Where a request's PSN lies relative to the one expected. */
enum rxe_resp_psn_class {
	RXE_PSN_EXPECTED,
	RXE_PSN_DUPLICATE,
	RXE_PSN_AHEAD,
};

enum rxe_resp_psn_class rxe_resp_psn_classify(u32 expected, u32 psn);
bool rxe_resp_seq_valid(u8 prev, u8 next);
bool rxe_resp_ack_hold(u32 owed, u32 from, u32 psn, bool more);
void rxe_resp_hdr_fill(struct rxe_qp *qp, struct rxe_pkt *reply, u8 syndrome,
		       u32 psn, u8 pad);

#endif /* RXE_RESP_H */
