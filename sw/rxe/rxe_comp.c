// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_comp.c - the completer: matches ACKs, NAKs, READ responses and
 * atomic ACKs against the oldest outstanding send WQEs, completes them in
 * order, and asks the requester to resend after a loss, a sequence error,
 * an RNR NAK or a timeout.
 *
 * One engine step handles one received packet (or one timeout, or one WQE
 * that completes without a packet: local operations, UD and UC sends, and
 * WQEs flushed in the error state). Each step below does one check and
 * returns an outcome; comp_next[step][outcome] picks the step that runs
 * next, the same idiom as the responder (rxe_resp.c).
 *
 * Ownership: the completer is the only consumer of the SQ (sq.cons) and
 * the only writer of qp->comp; it reads what the requester publishes
 * (req.hw_index and req.sent_index with acquire, req.next_psn).
 */
#include <kunit/visibility.h>
#include <linux/interrupt.h>
#include "rxe_qp.h"
#include "rxe_opcode.h"
#include "rxe_comp.h"
#include "rxe_req.h"

/* --- decisions --------------------------------------------------------- */

/*
 * The RNR NAK timer codes of the IBTA specification (5-bit field of the
 * AETH), as microseconds. Code 0 is the longest wait, then the waits grow
 * from 10 us by alternating factors of about 1.5 and 1.33.
 */
static const u32 rxe_rnr_usecs[32] = {
	655360,     10,     20,     30,     40,     60,     80,    120,
	   160,    240,    320,    480,    640,    960,   1280,   1920,
	  2560,   3840,   5120,   7680,  10240,  15360,  20480,  30720,
	 40960,  61440,  81920, 122880, 163840, 245760, 327680, 491520,
};

/**
 * rxe_comp_rnr_usecs() - how long to wait after an RNR NAK
 * @code: the RNR timer code (low five bits of the syndrome)
 *
 * Return: the wait in microseconds.
 */
u32 rxe_comp_rnr_usecs(u8 code)
{
	return rxe_rnr_usecs[code & 0x1f];
}
EXPORT_SYMBOL_IF_KUNIT(rxe_comp_rnr_usecs);

/**
 * rxe_comp_timeout_ns() - the local ACK timeout of timeout code @code
 * @code: 0-31 (the QP's timeout attribute)
 *
 * Return: 4.096 us * 2^@code in nanoseconds; 0 for code 0 (no timeout).
 */
u64 rxe_comp_timeout_ns(u8 code)
{
	return code ? 4096ULL << (code & 0x1f) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_comp_timeout_ns);

/**
 * rxe_comp_window() - the requester's next window (RC packets in flight)
 * @window:  the window now
 * @timeout: the retransmit timer fired (else: the peer acknowledged)
 *
 * A timeout drops it to RXE_REQ_WINDOW_MIN; each acknowledgment of
 * progress doubles it, up to RXE_REQ_WINDOW.
 *
 * Return: the new window.
 */
u32 rxe_comp_window(u32 window, bool timeout)
{
	if (timeout)
		return RXE_REQ_WINDOW_MIN;
	return min_t(u32, window * 2, RXE_REQ_WINDOW);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_comp_window);

/* Completion status of each NAK code that fails the request. */
static const enum ib_wc_status rxe_nak_status[] = {
	[RXE_AETH_NAK_INVALID]		= IB_WC_REM_INV_REQ_ERR,
	[RXE_AETH_NAK_ACCESS]		= IB_WC_REM_ACCESS_ERR,
	[RXE_AETH_NAK_OPERATIONAL]	= IB_WC_REM_OP_ERR,
	[RXE_AETH_NAK_INV_RD]		= IB_WC_REM_INV_RD_REQ_ERR,
};

/**
 * rxe_comp_aeth_action() - what an AETH syndrome means for the requester
 * @syndrome: the AETH syndrome byte
 * @status:   set to the completion status for RXE_AETH_DO_FAIL, else to
 *            IB_WC_SUCCESS
 *
 * Return: the action (ACK, RNR wait, go back N, fail, or drop when the
 * encoding is reserved).
 */
enum rxe_aeth_action rxe_comp_aeth_action(u8 syndrome,
					  enum ib_wc_status *status)
{
	u8 code = syndrome & ~RXE_AETH_TYPE_MASK;

	*status = IB_WC_SUCCESS;
	switch (syndrome & RXE_AETH_TYPE_MASK) {
	case RXE_AETH_ACK:
		return RXE_AETH_DO_ACK;
	case RXE_AETH_RNR_NAK:
		return RXE_AETH_DO_RNR;
	case RXE_AETH_NAK:
		break;
	default:
		return RXE_AETH_DO_DROP;
	}
	if (code == RXE_AETH_NAK_PSN_SEQ)
		return RXE_AETH_DO_RETRY;
	if (code >= ARRAY_SIZE(rxe_nak_status))
		return RXE_AETH_DO_DROP;
	*status = rxe_nak_status[code];
	return RXE_AETH_DO_FAIL;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_comp_aeth_action);

/* --- helpers ----------------------------------------------------------- */

static struct rxe_send_wqe *comp_wqe(struct rxe_qp *qp, u32 index)
{
	return rxe_queue_at(&qp->sq, index);
}

/*
 * Both timers are hrtimers in the soft modes: their callbacks run in
 * softirq context, as timer_list callbacks did, and the waits are what
 * the QP's attributes and the RNR NAKs say, not rounded up to a jiffy.
 */
#define RXE_COMP_HRTIMER_MODE	HRTIMER_MODE_REL_SOFT

static void comp_retry_timer_start(struct rxe_qp *qp)
{
	hrtimer_start(&qp->comp.timer,
		      ns_to_ktime(rxe_comp_timeout_ns(qp->attr.timeout)),
		      RXE_COMP_HRTIMER_MODE);
}

/* Restart the retransmit timer while anything is outstanding. */
static void comp_timer_update(struct rxe_qp *qp)
{
	if (!qp->attr.timeout)
		return;
	if (rxe_req_in_flight(qp)) {
		comp_retry_timer_start(qp);
		return;
	}
	/* Does not wait for a running callback, like del_timer(). */
	hrtimer_try_to_cancel(&qp->comp.timer);
	/* Pairs with rxe_comp_arm_timer(): a packet sent meanwhile. */
	smp_mb();
	if (rxe_req_in_flight(qp))
		rxe_comp_arm_timer(qp);
}

/*
 * The oldest WQE moved on: new retry budgets, new timeout. A timeout that
 * fired while the packets showing this progress waited in the queue is
 * void: the peer is answering.
 */
static void comp_progress(struct rxe_qp *qp)
{
	/* Read locklessly by the requester (req_next_wqe(), req_ackreq()). */
	WRITE_ONCE(qp->req.window, rxe_comp_window(qp->req.window, false));
	clear_bit(RXE_COMP_TIMEOUT, &qp->comp.flags);
	qp->comp.retry_left = qp->attr.retry_cnt;
	qp->comp.rnr_left = qp->attr.rnr_retry;
	qp->comp.retry_sent = false;
	comp_timer_update(qp);
}

/*
 * Retire the oldest WQE: free its slot, then post its completion (always
 * on error, on success when it was signaled); @started: the requester gave
 * it PSNs. The slot goes first: whoever polls the completion may post
 * again at once and must find room, which for a user QP means the consumer
 * index it reads has moved. The completion is taken from the WQE before
 * its slot can be reused.
 */
static void comp_retire(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			bool started, enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = rxe_wr_wc_opcode(wqe->opcode),
		.qp = &qp->ibqp,
	};
	bool post = status != IB_WC_SUCCESS || qp->sig_all ||
		    (wqe->send_flags & IB_SEND_SIGNALED);
	u32 next = rxe_psn_add(wqe->last_psn, 1);

	if (status == IB_WC_SUCCESS && rxe_wr_is_rd_atomic(wqe->opcode))
		wc.byte_len = wqe->length;
	if (started && rxe_wr_is_rd_atomic(wqe->opcode))
		atomic_dec(&qp->req.rd_atomic);
	/* Pairs with READ_ONCE() of comp.psn in req_next_wqe() (the window). */
	if (started && rxe_qp_is_rc(qp) &&
	    rxe_psn_diff(next, qp->comp.psn) > 0)
		WRITE_ONCE(qp->comp.psn, next);
	qp->comp.dma_valid = false;
	rxe_queue_consume(&qp->sq);
	if (qp->is_user)
		rxe_uqp_sq_retired(qp);
	if (post && rxe_cq_post(qp->scq, &wc, false))
		rxe_dbg_qp(qp, "send CQ full: completion of %llu lost\n",
			   wc.wr_id);
}

/* Ask the requester to go back to @psn. */
static void comp_request_retry(struct rxe_qp *qp, u32 psn)
{
	WRITE_ONCE(qp->req.retry_psn, psn);
	/*
	 * retry_psn before the flag: the barrier pairs with the fully ordered
	 * test_and_clear_bit() in req_check(), which then reads retry_psn.
	 */
	smp_mb__before_atomic();
	set_bit(RXE_REQ_RETRY, &qp->req.flags);
	qp->comp.retry_sent = true;
	rxe_task_run(&qp->req_task);
}

static void comp_check_drained(struct rxe_qp *qp)
{
	u32 cons = qp->sq.cons;
	u32 sent, started;

	if (!test_bit(RXE_COMP_DRAINING, &qp->comp.flags) ||
	    rxe_qp_state(qp) != IB_QPS_SQD)
		return;
	/* Pairs with the release in req_wqe_done(). */
	sent = smp_load_acquire(&qp->req.sent_index);
	/* Pairs with the release in req_wqe_start(). */
	started = smp_load_acquire(&qp->req.hw_index);
	if ((s32)(cons - sent) < 0 || (s32)(cons - started) < 0)
		return;
	if (test_and_clear_bit(RXE_COMP_DRAINING, &qp->comp.flags))
		rxe_qp_event(qp, IB_EVENT_SQ_DRAINED);
}

/* --- the engine -------------------------------------------------------- */

/*
 * How one engine step moves through the completer:
 *
 *   START -> GET_WQE -> CHECK_PSN -> CHECK_ACK -> READ/ATOMIC/ACKED
 *         -> COMPLETE (-> GET_WQE while the packet covers more WQEs)
 *
 * with side exits for go-back-N (RETRY), RNR NAKs (RNR), failures (ERROR),
 * the retransmit timer (TIMEOUT), the error state (FLUSH) and packets that
 * are used up or ignored (CONSUME).
 */
enum comp_step {
	COMP_STEP_NONE,		/* no transition: a bug */
	COMP_STEP_START,	/* error state? timeout? next packet */
	COMP_STEP_GET_WQE,	/* the oldest transmitted WQE */
	COMP_STEP_CHECK_PSN,	/* is the packet about that WQE? */
	COMP_STEP_CHECK_ACK,	/* which kind of answer is it? */
	COMP_STEP_READ,		/* READ response data */
	COMP_STEP_ATOMIC,	/* atomic ACK: the original value */
	COMP_STEP_ACKED,	/* ACK inside a SEND/WRITE */
	COMP_STEP_COMPLETE,	/* the WQE is done */
	COMP_STEP_RETRY,	/* go back N */
	COMP_STEP_RNR,		/* RNR NAK */
	COMP_STEP_ERROR,	/* complete the WQE in error, QP to ERR */
	COMP_STEP_TIMEOUT,	/* the retransmit timer fired */
	COMP_STEP_FLUSH,	/* error state: flush one WQE */
	COMP_STEP_CONSUME,	/* free the packet, end of step */
	COMP_NUM_STEPS
};

/* What a step tells the table to do next. */
enum comp_out {
	COMP_OUT_OK,		/* go on */
	COMP_OUT_TIMEOUT,	/* START: the retransmit timer fired */
	COMP_OUT_FLUSH,		/* START: the QP is in the error state */
	COMP_OUT_DONE,		/* the WQE is done: complete it */
	COMP_OUT_ERROR,		/* the WQE fails with comp_ctx.status */
	COMP_OUT_RETRY,		/* go back to comp_ctx.retry_psn */
	COMP_OUT_RNR,		/* RNR wait, then resend from retry_psn */
	COMP_OUT_READ,		/* CHECK_ACK: READ response data */
	COMP_OUT_ATOMIC,	/* CHECK_ACK: atomic ACK */
	COMP_OUT_ACK,		/* CHECK_ACK: ACK inside a SEND/WRITE */
	COMP_OUT_CONSUME,	/* the packet is used up or ignored */
	COMP_NUM_OUTS,
	/* handled by the runner: end of the engine step */
	COMP_OUT_PROGRESS,	/* call again */
	COMP_OUT_IDLE,		/* nothing to do now */
};

static const u8 comp_next[COMP_NUM_STEPS][COMP_NUM_OUTS] = {
	[COMP_STEP_START] = {
		[COMP_OUT_OK] = COMP_STEP_GET_WQE,
		[COMP_OUT_TIMEOUT] = COMP_STEP_TIMEOUT,
		[COMP_OUT_FLUSH] = COMP_STEP_FLUSH,
	},
	[COMP_STEP_GET_WQE] = {
		[COMP_OUT_OK] = COMP_STEP_CHECK_PSN,
		[COMP_OUT_DONE] = COMP_STEP_COMPLETE,
		[COMP_OUT_ERROR] = COMP_STEP_ERROR,
		[COMP_OUT_CONSUME] = COMP_STEP_CONSUME,
	},
	[COMP_STEP_CHECK_PSN] = {
		[COMP_OUT_OK] = COMP_STEP_CHECK_ACK,
		[COMP_OUT_DONE] = COMP_STEP_COMPLETE,
		[COMP_OUT_RETRY] = COMP_STEP_RETRY,
		[COMP_OUT_RNR] = COMP_STEP_RNR,
		[COMP_OUT_CONSUME] = COMP_STEP_CONSUME,
	},
	[COMP_STEP_CHECK_ACK] = {
		[COMP_OUT_READ] = COMP_STEP_READ,
		[COMP_OUT_ATOMIC] = COMP_STEP_ATOMIC,
		[COMP_OUT_ACK] = COMP_STEP_ACKED,
		[COMP_OUT_RETRY] = COMP_STEP_RETRY,
		[COMP_OUT_RNR] = COMP_STEP_RNR,
		[COMP_OUT_ERROR] = COMP_STEP_ERROR,
		[COMP_OUT_CONSUME] = COMP_STEP_CONSUME,
	},
	[COMP_STEP_READ] = {
		[COMP_OUT_DONE] = COMP_STEP_COMPLETE,
		[COMP_OUT_ERROR] = COMP_STEP_ERROR,
		[COMP_OUT_CONSUME] = COMP_STEP_CONSUME,
	},
	[COMP_STEP_ATOMIC] = {
		[COMP_OUT_DONE] = COMP_STEP_COMPLETE,
		[COMP_OUT_ERROR] = COMP_STEP_ERROR,
	},
	[COMP_STEP_ACKED] = {
		[COMP_OUT_DONE] = COMP_STEP_COMPLETE,
		[COMP_OUT_CONSUME] = COMP_STEP_CONSUME,
	},
	/* The same ACK may cover the next WQEs too. */
	[COMP_STEP_COMPLETE] = { [COMP_OUT_OK] = COMP_STEP_GET_WQE },
	[COMP_STEP_RETRY] = { [COMP_OUT_CONSUME] = COMP_STEP_CONSUME },
	[COMP_STEP_RNR] = {
		[COMP_OUT_ERROR] = COMP_STEP_ERROR,
		[COMP_OUT_CONSUME] = COMP_STEP_CONSUME,
	},
	[COMP_STEP_ERROR] = { [COMP_OUT_CONSUME] = COMP_STEP_CONSUME },
	[COMP_STEP_TIMEOUT] = { [COMP_OUT_ERROR] = COMP_STEP_ERROR },
};

struct comp_ctx {
	struct sk_buff *skb;
	struct rxe_pkt *pkt;
	struct rxe_send_wqe *wqe;
	u32 retry_psn;
	enum ib_wc_status status;
};

/*
 * Packets already received come before a timeout: when the completer lags
 * behind a busy peer (a slow CPU, a long READ), the timer can fire while
 * the answers it waits for sit in the queue, and a retry then would only
 * make the peer send everything again.
 */
static enum comp_out comp_start(struct rxe_qp *qp, struct comp_ctx *c)
{
	if (rxe_qp_state(qp) == IB_QPS_ERR)
		return COMP_OUT_FLUSH;
	c->skb = skb_dequeue(&qp->resp_pkts);
	if (c->skb) {
		c->pkt = RXE_SKB_PKT(c->skb);
		return COMP_OUT_OK;
	}
	if (test_and_clear_bit(RXE_COMP_TIMEOUT, &qp->comp.flags))
		return COMP_OUT_TIMEOUT;
	return COMP_OUT_OK;
}

/*
 * A local operation at the head is not executed yet: keep the packet for
 * later (the requester kicks us when the operation is done).
 */
static enum comp_out comp_wait_local(struct rxe_qp *qp, struct comp_ctx *c)
{
	if (c->skb)
		skb_queue_head(&qp->resp_pkts, c->skb);
	c->skb = NULL;
	return COMP_OUT_IDLE;
}

/*
 * RC answers may arrive before the requester has even recorded that it
 * sent the packet (loopback delivers synchronously), so RC packets are
 * matched against every WQE that has its PSNs (req.hw_index); what
 * completes without an answer waits until it is sent (req.sent_index).
 */
static enum comp_out comp_get_wqe(struct rxe_qp *qp, struct comp_ctx *c)
{
	u32 cons = qp->sq.cons;
	/*
	 * Acquires pair with the requester's releases of sent_index
	 * (req_wqe_done()) and hw_index (req_wqe_start()): the WQE's PSNs
	 * and status are read after them.
	 */
	u32 sent = smp_load_acquire(&qp->req.sent_index);
	/* (the second of the acquires above) */
	u32 started = smp_load_acquire(&qp->req.hw_index);
	bool is_sent = (s32)(cons - sent) < 0;

	if (!rxe_qp_is_rc(qp))
		started = sent;

	if ((s32)(cons - started) >= 0) {
		comp_check_drained(qp);
		return c->skb ? COMP_OUT_CONSUME : COMP_OUT_IDLE;
	}
	c->wqe = comp_wqe(qp, cons);
	if (rxe_wr_is_local(c->wqe->opcode) && !is_sent)
		return comp_wait_local(qp, c);
	if (is_sent && c->wqe->status != IB_WC_SUCCESS) {
		c->status = c->wqe->status;
		return COMP_OUT_ERROR;
	}
	if (!rxe_qp_is_rc(qp) || rxe_wr_is_local(c->wqe->opcode))
		return COMP_OUT_DONE;
	return c->skb ? COMP_OUT_OK : COMP_OUT_IDLE;
}

/* A response is missing: resend from the oldest unacknowledged PSN. */
static enum comp_out comp_implied_nak(struct rxe_qp *qp, struct comp_ctx *c)
{
	if (qp->comp.retry_sent)
		return COMP_OUT_CONSUME;
	c->retry_psn = qp->comp.psn;
	return COMP_OUT_RETRY;
}

static bool comp_is_rnr_nak(const struct rxe_pkt *pkt)
{
	return (pkt->flags & RXE_OPF_AETH) && !(pkt->flags & RXE_OPF_READ) &&
	       (rxe_aeth_syndrome(pkt) & RXE_AETH_TYPE_MASK) ==
	       RXE_AETH_RNR_NAK;
}

static enum comp_out comp_check_psn(struct rxe_qp *qp, struct comp_ctx *c)
{
	struct rxe_send_wqe *wqe = c->wqe;
	u32 psn = c->pkt->psn;

	if (rxe_psn_diff(psn, qp->comp.psn) < 0) {
		/*
		 * A responder whose READ response could not leave answers
		 * with an RNR NAK for the READ's first PSN although it had
		 * sent part of it: wait, then ask for the rest.
		 */
		if (comp_is_rnr_nak(c->pkt) && wqe->opcode == IB_WR_RDMA_READ &&
		    rxe_psn_diff(psn, wqe->first_psn) >= 0) {
			c->retry_psn = qp->comp.psn;
			return COMP_OUT_RNR;
		}
		return COMP_OUT_CONSUME;	/* duplicate or stale */
	}
	if (rxe_psn_diff(psn, wqe->last_psn) > 0) {
		/* Later PSN: acknowledges a SEND/WRITE, not READ/atomic. */
		if (rxe_wr_is_rd_atomic(wqe->opcode))
			return comp_implied_nak(qp, c);
		return COMP_OUT_DONE;
	}
	if ((c->pkt->flags & RXE_OPF_READ) && psn != qp->comp.psn)
		return comp_implied_nak(qp, c);
	return COMP_OUT_OK;
}

static enum comp_out comp_check_ack(struct rxe_qp *qp, struct comp_ctx *c)
{
	struct rxe_pkt *pkt = c->pkt;
	bool rd_atomic = rxe_wr_is_rd_atomic(c->wqe->opcode);

	if (pkt->flags & RXE_OPF_READ)
		return c->wqe->opcode == IB_WR_RDMA_READ ? COMP_OUT_READ :
							   COMP_OUT_CONSUME;
	if (pkt->flags & RXE_OPF_ATMACK)
		return rd_atomic && c->wqe->opcode != IB_WR_RDMA_READ ?
		       COMP_OUT_ATOMIC : COMP_OUT_CONSUME;
	if (!(pkt->flags & RXE_OPF_AETH))
		return COMP_OUT_CONSUME;

	switch (rxe_comp_aeth_action(rxe_aeth_syndrome(pkt), &c->status)) {
	case RXE_AETH_DO_ACK:
		return rd_atomic ? COMP_OUT_CONSUME : COMP_OUT_ACK;
	case RXE_AETH_DO_RNR:
		c->retry_psn = pkt->psn;
		return COMP_OUT_RNR;
	case RXE_AETH_DO_RETRY:
		rxe_counter_inc(qp->rxe, RXE_CNT_RCV_SEQ_ERR);
		c->retry_psn = pkt->psn;
		return COMP_OUT_RETRY;
	case RXE_AETH_DO_FAIL:
		rxe_dbg_qp(qp, "NAK %#x for psn %#x\n",
			   rxe_aeth_syndrome(pkt), pkt->psn);
		return COMP_OUT_ERROR;
	default:
		return COMP_OUT_CONSUME;
	}
}

/* Point comp.dma at where the response with PSN comp.psn belongs. */
static void comp_dma_prepare(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	u32 pkts;

	if (qp->comp.dma_valid && qp->comp.dma_index == qp->sq.cons)
		return;
	pkts = max(rxe_psn_diff(qp->comp.psn, wqe->first_psn), 0);
	rxe_wqe_dma_seek(&qp->comp.dma, wqe, pkts * rxe_qp_mtu(qp));
	qp->comp.dma_index = qp->sq.cons;
	qp->comp.dma_valid = true;
}

static enum comp_out comp_read(struct rxe_qp *qp, struct comp_ctx *c)
{
	struct rxe_pkt *pkt = c->pkt;
	u32 len = rxe_pkt_payload_len(pkt);
	int err = 0;

	comp_dma_prepare(qp, c->wqe);
	if (len > qp->comp.dma.resid) {
		c->status = IB_WC_LOC_LEN_ERR;
		return COMP_OUT_ERROR;
	}
	if (len)
		err = rxe_sgl_copy(rxe_qp_pd(qp), &qp->comp.dma, c->wqe->sge,
				   rxe_pkt_payload(pkt), len, RXE_TO_MEM);
	if (err) {
		c->status = IB_WC_LOC_PROT_ERR;
		return COMP_OUT_ERROR;
	}
	/* comp.psn is read locklessly by the requester (req_next_wqe()). */
	WRITE_ONCE(qp->comp.psn, rxe_psn_add(pkt->psn, 1));
	comp_progress(qp);
	return pkt->flags & RXE_OPF_LAST ? COMP_OUT_DONE : COMP_OUT_CONSUME;
}

static enum comp_out comp_atomic(struct rxe_qp *qp, struct comp_ctx *c)
{
	u64 orig = rxe_atmack_orig(c->pkt);
	struct rxe_dma dma;

	rxe_wqe_dma_seek(&dma, c->wqe, 0);
	if (rxe_sgl_copy(rxe_qp_pd(qp), &dma, c->wqe->sge, &orig,
			 sizeof(orig), RXE_TO_MEM)) {
		c->status = IB_WC_LOC_PROT_ERR;
		return COMP_OUT_ERROR;
	}
	return COMP_OUT_DONE;
}

/* ACK for a PSN inside the oldest SEND/WRITE. */
static enum comp_out comp_acked(struct rxe_qp *qp, struct comp_ctx *c)
{
	if (c->pkt->psn == c->wqe->last_psn)
		return COMP_OUT_DONE;
	/* comp.psn is read locklessly by the requester (req_next_wqe()). */
	WRITE_ONCE(qp->comp.psn, rxe_psn_add(c->pkt->psn, 1));
	comp_progress(qp);
	rxe_task_run(&qp->req_task);	/* the window opened */
	return COMP_OUT_CONSUME;
}

static enum comp_out comp_complete(struct rxe_qp *qp, struct comp_ctx *c)
{
	comp_retire(qp, c->wqe, true, IB_WC_SUCCESS);
	comp_progress(qp);
	if (rxe_qp_is_rc(qp))	/* window, fence or READ budget opened */
		rxe_task_run(&qp->req_task);
	comp_check_drained(qp);
	/* The same ACK may cover the next WQEs too. */
	return c->skb ? COMP_OUT_OK : COMP_OUT_PROGRESS;
}

static enum comp_out comp_retry(struct rxe_qp *qp, struct comp_ctx *c)
{
	/*
	 * A NAK acknowledges everything before its PSN. comp.psn is read
	 * locklessly by the requester (req_next_wqe()).
	 */
	if (rxe_psn_diff(c->retry_psn, qp->comp.psn) > 0)
		WRITE_ONCE(qp->comp.psn, c->retry_psn);
	comp_request_retry(qp, c->retry_psn);
	comp_timer_update(qp);
	return COMP_OUT_CONSUME;
}

static enum comp_out comp_rnr(struct rxe_qp *qp, struct comp_ctx *c)
{
	u8 code = rxe_aeth_syndrome(c->pkt) & ~RXE_AETH_TYPE_MASK;
	ktime_t wait = ns_to_ktime((u64)rxe_comp_rnr_usecs(code) * NSEC_PER_USEC);

	rxe_counter_inc(qp->rxe, RXE_CNT_RCV_RNR);
	if (qp->attr.rnr_retry != 7) {	/* 7: retry forever */
		if (!qp->comp.rnr_left) {
			rxe_counter_inc(qp->rxe, RXE_CNT_RNR_RETRY_EXCEEDED);
			c->status = IB_WC_RNR_RETRY_EXC_ERR;
			return COMP_OUT_ERROR;
		}
		qp->comp.rnr_left--;
	}
	/* comp.psn is read locklessly by the requester (req_next_wqe()). */
	if (rxe_psn_diff(c->retry_psn, qp->comp.psn) > 0)
		WRITE_ONCE(qp->comp.psn, c->retry_psn);
	/* Paused first: the requester must not resend before the wait. */
	set_bit(RXE_REQ_PAUSED, &qp->req.flags);
	hrtimer_try_to_cancel(&qp->comp.timer);
	comp_request_retry(qp, c->retry_psn);
	hrtimer_start(&qp->comp.rnr_timer, wait, RXE_COMP_HRTIMER_MODE);
	return COMP_OUT_CONSUME;
}

static enum comp_out comp_error(struct rxe_qp *qp, struct comp_ctx *c)
{
	rxe_dbg_qp(qp, "wqe %u completes with status %d\n", qp->sq.cons,
		   c->status);
	comp_retire(qp, c->wqe, true, c->status);
	rxe_qp_to_error(qp, RXE_QP_NO_EVENT);
	return COMP_OUT_CONSUME;
}

static enum comp_out comp_timeout(struct rxe_qp *qp, struct comp_ctx *c)
{
	if (!rxe_req_in_flight(qp) ||
	    test_bit(RXE_REQ_PAUSED, &qp->req.flags))
		return COMP_OUT_PROGRESS;
	rxe_counter_inc(qp->rxe, RXE_CNT_COMP_RETRY);
	if (!qp->comp.retry_left) {
		rxe_counter_inc(qp->rxe, RXE_CNT_RETRY_EXCEEDED);
		c->wqe = comp_wqe(qp, qp->sq.cons);
		c->status = IB_WC_RETRY_EXC_ERR;
		return COMP_OUT_ERROR;
	}
	qp->comp.retry_left--;
	WRITE_ONCE(qp->req.window, rxe_comp_window(qp->req.window, true));
	comp_request_retry(qp, qp->comp.psn);
	comp_timer_update(qp);
	return COMP_OUT_PROGRESS;
}

/* Error state: complete the oldest WQE, in error, whatever it was. */
static enum comp_out comp_flush(struct rxe_qp *qp, struct comp_ctx *c)
{
	u32 cons = qp->sq.cons;
	enum ib_wc_status status = IB_WC_WR_FLUSH_ERR;
	struct rxe_send_wqe *wqe;
	struct sk_buff *skb;
	bool started;

	while ((skb = skb_dequeue(&qp->resp_pkts)))
		rxe_qp_pkt_free(skb);
	/* Pairs with rxe_queue_produce() in post_send: the WQE is filled. */
	if (cons == smp_load_acquire(&qp->sq.prod))
		return COMP_OUT_IDLE;
	wqe = comp_wqe(qp, cons);
	/* Pair with the releases in req_wqe_start() and req_wqe_done(). */
	started = (s32)(cons - smp_load_acquire(&qp->req.hw_index)) < 0;
	/* A failure the requester met keeps its own status. */
	if ((s32)(cons - smp_load_acquire(&qp->req.sent_index)) < 0 &&
	    wqe->status != IB_WC_SUCCESS)
		status = wqe->status;
	comp_retire(qp, wqe, started, status);
	return COMP_OUT_PROGRESS;
}

static enum comp_out comp_consume(struct rxe_qp *qp, struct comp_ctx *c)
{
	if (c->skb)
		rxe_qp_pkt_free(c->skb);
	c->skb = NULL;
	return COMP_OUT_PROGRESS;
}

typedef enum comp_out (*comp_step_fn)(struct rxe_qp *qp, struct comp_ctx *c);

static const comp_step_fn comp_steps[COMP_NUM_STEPS] = {
	[COMP_STEP_START]	= comp_start,
	[COMP_STEP_GET_WQE]	= comp_get_wqe,
	[COMP_STEP_CHECK_PSN]	= comp_check_psn,
	[COMP_STEP_CHECK_ACK]	= comp_check_ack,
	[COMP_STEP_READ]	= comp_read,
	[COMP_STEP_ATOMIC]	= comp_atomic,
	[COMP_STEP_ACKED]	= comp_acked,
	[COMP_STEP_COMPLETE]	= comp_complete,
	[COMP_STEP_RETRY]	= comp_retry,
	[COMP_STEP_RNR]		= comp_rnr,
	[COMP_STEP_ERROR]	= comp_error,
	[COMP_STEP_TIMEOUT]	= comp_timeout,
	[COMP_STEP_FLUSH]	= comp_flush,
	[COMP_STEP_CONSUME]	= comp_consume,
};

/**
 * rxe_comp_run() - one step of the completer (the comp_task function)
 * @qp: the QP
 *
 * Handles one received packet, one timeout, or one WQE that completes
 * without a packet. Context: the QP's completer task, never twice at once;
 * or, with the engines stopped, the destroy path (to flush).
 * Return: 0 after progress, -EAGAIN when there is nothing to do now.
 */
int rxe_comp_run(struct rxe_qp *qp)
{
	struct comp_ctx c = {};
	u8 step = COMP_STEP_START;
	enum comp_out out;

	for (;;) {
		out = comp_steps[step](qp, &c);
		if (out == COMP_OUT_PROGRESS)
			return 0;
		if (out == COMP_OUT_IDLE)
			return -EAGAIN;
		step = comp_next[step][out];
		if (WARN_ON_ONCE(step == COMP_STEP_NONE))
			step = COMP_STEP_CONSUME;
	}
}

/**
 * rxe_comp_queue_pkt() - hand an ACK or response to the completer
 * @qp:  the QP the packet is for (RC requester side)
 * @skb: the checked packet; RXE_SKB_PKT(skb)->qp holds a QP reference
 *
 * Consumes @skb and the reference its pkt->qp holds (dropped when the
 * packet is freed). The completer runs at once when it is idle and the
 * caller is the network's softirq, otherwise soon on the workqueue.
 * Context: softirq (receive path) or any.
 */
void rxe_comp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb)
{
	if (rxe_task_stopped(&qp->comp_task)) {
		rxe_qp_pkt_free(skb);
		return;
	}
	skb_queue_tail(&qp->resp_pkts, skb);
	/*
	 * Inline from the receive softirq (a net device's, or the local
	 * delivery queue's); from anywhere else queued, so completion
	 * handlers never run in some caller's context under its locks.
	 */
	if (in_serving_softirq())
		rxe_task_run(&qp->comp_task);
	else
		rxe_task_sched(&qp->comp_task);
}

/**
 * rxe_comp_arm_timer() - start the retransmit timer unless it runs
 * @qp: an RC QP that just transmitted a packet
 *
 * Context: the requester task.
 */
void rxe_comp_arm_timer(struct rxe_qp *qp)
{
	if (!qp->attr.timeout)
		return;
	/* Pairs with comp_timer_update(): next_psn is written before. */
	smp_mb();
	if (!hrtimer_is_queued(&qp->comp.timer))
		comp_retry_timer_start(qp);
}

/**
 * rxe_comp_drain_start() - report IB_EVENT_SQ_DRAINED once the SQ is idle
 * @qp: a QP just moved to SQD
 */
void rxe_comp_drain_start(struct rxe_qp *qp)
{
	set_bit(RXE_COMP_DRAINING, &qp->comp.flags);
	rxe_task_sched(&qp->comp_task);
}

/**
 * rxe_comp_drain_stop() - forget a pending SQ drained report (SQD -> RTS)
 * @qp: the QP
 */
void rxe_comp_drain_stop(struct rxe_qp *qp)
{
	clear_bit(RXE_COMP_DRAINING, &qp->comp.flags);
}

/* Softirq context (RXE_COMP_HRTIMER_MODE): only schedules the completer. */
static enum hrtimer_restart comp_retry_timer(struct hrtimer *t)
{
	struct rxe_qp *qp = container_of(t, struct rxe_qp, comp.timer);

	set_bit(RXE_COMP_TIMEOUT, &qp->comp.flags);
	rxe_task_sched(&qp->comp_task);
	return HRTIMER_NORESTART;
}

/* Softirq context: the RNR wait is over, the requester may resend. */
static enum hrtimer_restart comp_rnr_timer(struct hrtimer *t)
{
	struct rxe_qp *qp = container_of(t, struct rxe_qp, comp.rnr_timer);

	clear_bit(RXE_REQ_PAUSED, &qp->req.flags);
	rxe_task_sched(&qp->req_task);
	return HRTIMER_NORESTART;
}

/**
 * rxe_comp_init() - set up the completer of a new QP
 * @qp: the QP
 */
void rxe_comp_init(struct rxe_qp *qp)
{
	hrtimer_init(&qp->comp.timer, CLOCK_MONOTONIC, RXE_COMP_HRTIMER_MODE);
	qp->comp.timer.function = comp_retry_timer;
	hrtimer_init(&qp->comp.rnr_timer, CLOCK_MONOTONIC,
		     RXE_COMP_HRTIMER_MODE);
	qp->comp.rnr_timer.function = comp_rnr_timer;
	rxe_comp_reset(qp);
}

/**
 * rxe_comp_reset() - forget all completer progress (QP to RESET)
 * @qp: the QP, its engines stopped and timers idle (rxe_comp_cleanup())
 */
void rxe_comp_reset(struct rxe_qp *qp)
{
	qp->comp.psn = qp->attr.sq_psn;
	qp->comp.dma_valid = false;
	qp->comp.dma_index = 0;
	qp->comp.retry_left = qp->attr.retry_cnt;
	qp->comp.rnr_left = qp->attr.rnr_retry;
	qp->comp.retry_sent = false;
	qp->comp.flags = 0;
}

/**
 * rxe_comp_cleanup() - stop the completer's timers
 * @qp: the QP, its engines stopped
 *
 * Context: process; waits for running timer callbacks (hrtimer_cancel()).
 */
void rxe_comp_cleanup(struct rxe_qp *qp)
{
	hrtimer_cancel(&qp->comp.timer);
	hrtimer_cancel(&qp->comp.rnr_timer);
}
