// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_req.c - the requester: walks the send queue in order, executes local
 * operations (fast registration, local invalidation) and turns the other
 * work requests into packets, one packet per engine step.
 *
 * The engine is a small state machine like the responder's (rxe_resp.c):
 * each step does one thing and returns an outcome, and
 * req_next[step][outcome] picks the step that runs next. An engine step
 * ends in REQ_OUT_PROGRESS (call again) or REQ_OUT_IDLE (nothing to do
 * now: the queue is empty, the RC window or the READ/ATOMIC budget is
 * full, a fence waits, an RNR wait is on, or a transmit must be retried
 * later).
 *
 * Retransmission is go-back-N: the completer asks for it through
 * RXE_REQ_RETRY and req.retry_psn; the requester moves its cursor (WQE,
 * byte offset, PSN) back to that PSN and transmits from there again. A WQE
 * keeps the PSNs it got the first time, so resent packets carry the same
 * PSNs; a resent READ asks only for the part not yet received.
 */
#include <kunit/visibility.h>
#include "rxe_net.h"
#include "rxe_qp.h"
#include "rxe_opcode.h"
#include "rxe_req.h"
#include "rxe_comp.h"

/* --- decisions --------------------------------------------------------- */

/**
 * rxe_req_num_pkts() - packets (or PSNs) a message of @len bytes takes
 * @len: message length
 * @mtu: path MTU in bytes
 *
 * An empty message still takes one packet; a READ request takes as many
 * PSNs as response packets it expects, which is the same number.
 *
 * Return: the number of packets (at least 1).
 */
u32 rxe_req_num_pkts(u32 len, u32 mtu)
{
	return len ? DIV_ROUND_UP(len, mtu) : 1;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_req_num_pkts);

/* --- the cursor -------------------------------------------------------- */

static struct rxe_send_wqe *req_wqe(struct rxe_qp *qp, u32 index)
{
	return rxe_queue_at(&qp->sq, index);
}

/* Move the cursor to byte @offset (PSN @psn) of WQE @index. */
static void req_seek(struct rxe_qp *qp, u32 index, u32 offset, u32 psn)
{
	struct rxe_send_wqe *wqe = req_wqe(qp, index);

	qp->req.index = index;
	qp->req.offset = offset;
	qp->req.psn = psn;
	rxe_wqe_dma_seek(&qp->req.dma, wqe, offset);
}

/* Go back to the packet with PSN @psn (or the oldest WQE after it). */
static void req_rewind(struct rxe_qp *qp, u32 psn)
{
	/*
	 * Pairs with rxe_queue_consume() in comp_retire(): retired slots are
	 * not looked at.
	 */
	u32 index = smp_load_acquire(&qp->sq.cons);
	struct rxe_send_wqe *wqe;
	s32 pkts;

	for (; index != qp->req.hw_index; index++) {
		wqe = req_wqe(qp, index);
		if (rxe_wr_is_local(wqe->opcode))
			continue;
		if (rxe_psn_diff(psn, wqe->last_psn) <= 0)
			break;
	}
	if (index == qp->req.hw_index) {
		rxe_dbg_qp(qp, "retry psn %#x: nothing to resend\n", psn);
		return;
	}
	pkts = max(rxe_psn_diff(psn, wqe->first_psn), 0);
	req_seek(qp, index, min_t(u32, pkts * rxe_qp_mtu(qp), wqe->length),
		 rxe_psn_add(wqe->first_psn, pkts));
}

/* The WQE at the cursor is transmitted: move on, tell the completer. */
static void req_wqe_done(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	bool first_time;

	qp->req.index++;
	qp->req.offset = 0;
	first_time = (s32)(qp->req.index - qp->req.sent_index) > 0;
	if (!first_time) {
		/* Resending: the next WQE has its PSNs, rewind its cursor. */
		if ((s32)(qp->req.index - qp->req.hw_index) < 0)
			rxe_wqe_dma_seek(&qp->req.dma,
					 req_wqe(qp, qp->req.index), 0);
		return;
	}
	/*
	 * The WQE's status before the index: pairs with the completer's acquire
	 * in comp_get_wqe(), comp_flush() and comp_check_drained().
	 */
	smp_store_release(&qp->req.sent_index, qp->req.index);
	/*
	 * Queued, not run here: the requester may be running inside a
	 * consumer's post_send, under the consumer's locks, where its
	 * completion handler must not be called.
	 */
	if (rxe_wr_is_local(wqe->opcode) || wqe->status != IB_WC_SUCCESS ||
	    !rxe_qp_is_rc(qp))
		rxe_task_sched(&qp->comp_task);
}

/* First visit of a WQE: give it its PSNs. */
static void req_wqe_start(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	u32 pkts = 0;

	if (!rxe_wr_is_local(wqe->opcode))
		pkts = rxe_req_num_pkts(wqe->length, rxe_qp_mtu(qp));
	wqe->status = IB_WC_SUCCESS;
	wqe->first_psn = qp->req.psn;
	wqe->last_psn = rxe_psn_add(qp->req.psn, pkts + RXE_PSN_MASK);
	if (rxe_wr_is_rd_atomic(wqe->opcode))
		atomic_inc(&qp->req.rd_atomic);
	rxe_wqe_dma_seek(&qp->req.dma, wqe, 0);
	/*
	 * The completer may match answers against it from now on: the WQE's
	 * PSNs and status before the index, pairs with the completer's
	 * acquire in comp_get_wqe(), comp_flush() and comp_check_drained().
	 */
	smp_store_release(&qp->req.hw_index, qp->req.hw_index + 1);
}

/* --- the engine -------------------------------------------------------- */

/*
 * How one engine step moves through the requester:
 *
 *   CHECK -> NEXT -> PACKET   (or NEXT -> LOCAL for a local operation)
 */
enum req_step {
	REQ_STEP_NONE,		/* no transition: a bug */
	REQ_STEP_CHECK,		/* QP state, RNR wait, retry requests */
	REQ_STEP_NEXT,		/* the WQE at the cursor: may it go now? */
	REQ_STEP_LOCAL,		/* execute a local operation */
	REQ_STEP_PACKET,	/* build and transmit one packet */
	REQ_NUM_STEPS
};

/* What a step tells the table to do next. */
enum req_out {
	REQ_OUT_OK,		/* go on */
	REQ_OUT_LOCAL,		/* NEXT: the WQE is a local operation */
	REQ_NUM_OUTS,
	/* handled by the runner: end of the engine step */
	REQ_OUT_PROGRESS,	/* call again */
	REQ_OUT_IDLE,		/* nothing to do now */
};

static const u8 req_next[REQ_NUM_STEPS][REQ_NUM_OUTS] = {
	[REQ_STEP_CHECK] = { [REQ_OUT_OK] = REQ_STEP_NEXT },
	[REQ_STEP_NEXT] = {
		[REQ_OUT_OK] = REQ_STEP_PACKET,
		[REQ_OUT_LOCAL] = REQ_STEP_LOCAL,
	},
};

struct req_ctx {
	struct rxe_send_wqe *wqe;
};

static enum req_out req_check(struct rxe_qp *qp, struct req_ctx *c)
{
	enum ib_qp_state state = rxe_qp_state(qp);

	if (state != IB_QPS_RTS && state != IB_QPS_SQD)
		return REQ_OUT_IDLE;	/* in ERR the completer flushes */
	if (test_bit(RXE_REQ_PAUSED, &qp->req.flags))
		return REQ_OUT_IDLE;
	/*
	 * test_and_clear_bit() is fully ordered: with the barrier in
	 * comp_request_retry() it makes retry_psn visible here.
	 */
	if (test_and_clear_bit(RXE_REQ_RETRY, &qp->req.flags))
		req_rewind(qp, READ_ONCE(qp->req.retry_psn));
	return REQ_OUT_OK;
}

/* May the WQE at the cursor, never started before, start now? */
static bool req_may_start(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	int in_flight = atomic_read(&qp->req.rd_atomic);

	if (rxe_qp_state(qp) == IB_QPS_SQD)
		return false;	/* draining: nothing new */
	if ((wqe->send_flags & IB_SEND_FENCE) && in_flight)
		return false;	/* the completer kicks us when they end */
	if (rxe_wr_is_rd_atomic(wqe->opcode) &&
	    in_flight >= max_t(int, qp->attr.max_rd_atomic, 1))
		return false;
	return true;
}

static enum req_out req_next_wqe(struct rxe_qp *qp, struct req_ctx *c)
{
	/* Pairs with rxe_queue_consume() in comp_retire(). */
	u32 cons = smp_load_acquire(&qp->sq.cons);
	struct rxe_send_wqe *wqe;

	/* The completer retired WQEs a rewind went back to. */
	if ((s32)(qp->req.index - cons) < 0)
		req_seek(qp, cons, 0, cons == qp->req.hw_index ?
			 qp->req.next_psn : req_wqe(qp, cons)->first_psn);
	/* Pairs with rxe_queue_produce() in post_send: the WQE is filled. */
	if (qp->req.index == smp_load_acquire(&qp->sq.prod))
		return REQ_OUT_IDLE;

	wqe = req_wqe(qp, qp->req.index);
	c->wqe = wqe;
	if (qp->req.index == qp->req.hw_index) {
		if (!req_may_start(qp, wqe))
			return REQ_OUT_IDLE;
		if (rxe_wr_is_local(wqe->opcode))
			return REQ_OUT_LOCAL;
		req_wqe_start(qp, wqe);
	} else if (rxe_wr_is_local(wqe->opcode)) {
		/* A resend passes a local operation done before. */
		req_wqe_done(qp, wqe);
		return REQ_OUT_PROGRESS;
	}
	/* Signed: after a rewind req.psn may lie behind comp.psn. */
	if (rxe_qp_is_rc(qp) &&
	    rxe_psn_diff(qp->req.psn, READ_ONCE(qp->comp.psn)) >=
	    (s32)READ_ONCE(qp->req.window))
		return REQ_OUT_IDLE;	/* the completer kicks us on progress */
	return REQ_OUT_OK;
}

static enum ib_wc_status req_do_local(struct rxe_qp *qp,
				      struct rxe_send_wqe *wqe)
{
	int err;

	if (wqe->opcode == IB_WR_REG_MR)
		err = rxe_mr_fast_reg(qp, wqe->wr.reg.mr, wqe->wr.reg.key,
				      wqe->wr.reg.access);
	else if (wqe->opcode == IB_WR_BIND_MW)
		err = rxe_mw_bind_keys(qp, wqe->wr.mw.mw_rkey,
				       wqe->wr.mw.mr_lkey, wqe->wr.mw.rkey,
				       wqe->wr.mw.addr, wqe->wr.mw.length,
				       wqe->wr.mw.access);
	else
		err = rxe_key_invalidate(qp, wqe->ex.invalidate_rkey, false);
	if (!err)
		return IB_WC_SUCCESS;
	rxe_dbg_qp(qp, "local operation %u failed: %d\n", wqe->opcode, err);
	return wqe->opcode == IB_WR_BIND_MW ? IB_WC_MW_BIND_ERR :
					      IB_WC_LOC_PROT_ERR;
}

static enum req_out req_local(struct rxe_qp *qp, struct req_ctx *c)
{
	struct rxe_send_wqe *wqe = c->wqe;

	req_wqe_start(qp, wqe);
	wqe->status = req_do_local(qp, wqe);
	req_wqe_done(qp, wqe);
	return REQ_OUT_PROGRESS;
}

/* What one packet of the WQE at the cursor looks like. */
struct req_pkt_plan {
	u32 pay;		/* payload bytes */
	u32 psns;		/* PSNs it consumes */
	enum rxe_wr_pos pos;
	int opcode;
};

static void req_plan(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		     struct req_pkt_plan *p)
{
	u32 mtu = rxe_qp_mtu(qp);
	u32 left = wqe->length - qp->req.offset;

	if (rxe_wr_is_rd_atomic(wqe->opcode)) {
		/* One request; a READ asks for everything still missing. */
		p->pay = 0;
		p->psns = wqe->opcode == IB_WR_RDMA_READ ?
			  rxe_req_num_pkts(left, mtu) : 1;
		p->pos = RXE_POS_ONLY;
	} else {
		p->pay = min(left, mtu);
		p->psns = 1;
		p->pos = (qp->req.offset ? 0 : RXE_POS_FIRST) |
			 (left <= mtu ? RXE_POS_LAST : 0);
	}
	p->opcode = rxe_wr_opcode(rxe_qp_type(qp), wqe->opcode, p->pos);
}

static u32 req_qkey(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	/* A Q_Key with the high bit set means "use the QP's own". */
	if (wqe->wr.ud.remote_qkey & 0x80000000u)
		return qp->attr.qkey;
	return wqe->wr.ud.remote_qkey;
}

static void req_fill_ext(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			 struct rxe_pkt *pkt)
{
	u32 flags = rxe_opcode[pkt->opcode].flags;
	u32 off = qp->req.offset;

	if (flags & RXE_OPF_RETH)	/* WRITE FIRST/ONLY, READ request */
		rxe_reth_set(pkt, wqe->wr.rdma.remote_addr + off,
			     wqe->wr.rdma.rkey, wqe->length - off);
	if (flags & RXE_OPF_ATMETH) {
		bool cas = wqe->opcode == IB_WR_ATOMIC_CMP_AND_SWP;

		rxe_atmeth_set(pkt, wqe->wr.atomic.remote_addr,
			       wqe->wr.atomic.rkey,
			       cas ? wqe->wr.atomic.swap :
				     wqe->wr.atomic.compare_add,
			       cas ? wqe->wr.atomic.compare_add : 0);
	}
	if (flags & RXE_OPF_DETH)
		rxe_deth_set(pkt, req_qkey(qp, wqe), qp->ibqp.qp_num);
	if (flags & RXE_OPF_IMMDT)
		rxe_immdt_set(pkt, wqe->ex.imm_data);
	if (flags & RXE_OPF_IETH)
		rxe_ieth_set(pkt, wqe->ex.invalidate_rkey);
}

/*
 * Whether the packet with @psn asks for an ACK: RC at the end of each
 * message, every RXE_REQ_ACK_EVERY PSNs, and when it fills the window (the
 * responder only answers when asked, and the window reopens only then).
 */
static bool req_ackreq(struct rxe_qp *qp, u32 psn, bool last)
{
	if (!rxe_qp_is_rc(qp))
		/* GSI asks too, as the inbox driver does on the wire. */
		return last && rxe_qp_type(qp) == IB_QPT_GSI;
	return last || psn % RXE_REQ_ACK_EVERY == RXE_REQ_ACK_EVERY - 1 ||
	       rxe_psn_diff(psn, READ_ONCE(qp->comp.psn)) + 1 >=
	       (s32)READ_ONCE(qp->req.window);
}

static void req_fill_bth(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			 struct rxe_pkt *pkt, const struct req_pkt_plan *p)
{
	bool last = p->pos & RXE_POS_LAST;
	bool se = last && (wqe->send_flags & IB_SEND_SOLICITED);
	bool ackreq = req_ackreq(qp, pkt->psn, last);
	u32 dqpn = rxe_qp_is_ud(qp) ? wqe->wr.ud.remote_qpn :
				      qp->attr.dest_qpn;

	rxe_bth_init(pkt, se, (-p->pay) & 3, qp->attr.pkey, dqpn, ackreq,
		     pkt->psn);
}

/* Copy the payload (once) from the SGEs or the inline data. */
static int req_fill_payload(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			    struct rxe_pkt *pkt, u32 pay, struct rxe_dma *dma)
{
	u8 *buf = rxe_pkt_payload(pkt);

	memset(buf + pay, 0, (-pay) & 3);
	if (!pay)
		return 0;
	if (wqe->send_flags & IB_SEND_INLINE) {
		memcpy(buf, rxe_wqe_inline(wqe) + qp->req.offset, pay);
		return 0;
	}
	return rxe_sgl_copy(rxe_qp_pd(qp), dma, wqe->sge, buf, pay,
			    RXE_FROM_MEM);
}

static const struct rxe_av *req_av(struct rxe_qp *qp,
				   struct rxe_send_wqe *wqe)
{
	return rxe_qp_is_ud(qp) ? &wqe->wr.ud.av : &qp->av;
}

/* Build one packet; the new cursor position goes to @dma. */
static struct sk_buff *req_build(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
				 const struct req_pkt_plan *p,
				 struct rxe_pkt *pkt, struct rxe_dma *dma,
				 int *err)
{
	struct sk_buff *skb;

	pkt->rxe = qp->rxe;
	pkt->qp = qp;
	pkt->opcode = p->opcode;
	pkt->flags = rxe_opcode[p->opcode].flags;
	pkt->psn = qp->req.psn;
	pkt->port = 1;
	pkt->paylen = rxe_opcode[p->opcode].length + p->pay +
		      ((-p->pay) & 3) + RXE_ICRC_SIZE;
	skb = rxe_net_skb_alloc(qp->rxe, req_av(qp, wqe), pkt->paylen, pkt);
	if (!skb) {
		*err = -ENOMEM;
		return NULL;
	}
	req_fill_bth(qp, wqe, pkt, p);
	req_fill_ext(qp, wqe, pkt);
	*dma = qp->req.dma;
	*err = req_fill_payload(qp, wqe, pkt, p->pay, dma);
	if (*err) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/* Errors of the local stack that a later attempt may not meet. */
static bool req_err_transient(int err)
{
	return err == -ENOMEM || err == -ENOBUFS || err == -EAGAIN ||
	       err == -EBUSY;
}

/* The packet left: advance the cursor past it. */
static void req_sent(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		     const struct req_pkt_plan *p, const struct rxe_dma *dma)
{
	qp->req.dma = *dma;
	qp->req.offset += p->pay;
	qp->req.psn = rxe_psn_add(qp->req.psn, p->psns);
	/*
	 * Pairs with READ_ONCE() in rxe_req_in_flight(); rxe_comp_arm_timer()
	 * then orders it against the timer check (smp_mb() there).
	 */
	if (rxe_psn_diff(qp->req.psn, qp->req.next_psn) > 0)
		WRITE_ONCE(qp->req.next_psn, qp->req.psn);
	if (rxe_qp_is_rc(qp))
		rxe_comp_arm_timer(qp);
	if (p->pos & RXE_POS_LAST) {
		if ((s32)(qp->req.index + 1 - qp->req.sent_index) > 0)
			rxe_counter_inc(qp->rxe, RXE_CNT_RDMA_SEND);
		req_wqe_done(qp, wqe);
	}
}

/* The WQE cannot be sent at all: complete it with @status. */
static enum req_out req_fail(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			     enum ib_wc_status status, int err)
{
	rxe_dbg_qp(qp, "wqe %u: cannot transmit (%d)\n", qp->req.index, err);
	rxe_counter_inc(qp->rxe, RXE_CNT_SEND_ERR);
	wqe->status = status;
	req_wqe_done(qp, wqe);
	return REQ_OUT_IDLE;
}

static enum req_out req_packet(struct rxe_qp *qp, struct req_ctx *c)
{
	struct rxe_send_wqe *wqe = c->wqe;
	struct req_pkt_plan plan;
	struct rxe_pkt pkt = {};
	struct sk_buff *skb;
	struct rxe_dma dma;
	int err;

	req_plan(qp, wqe, &plan);
	if (plan.opcode < 0)	/* post_send checked it: cannot happen */
		return req_fail(qp, wqe, IB_WC_LOC_QP_OP_ERR, plan.opcode);
	skb = req_build(qp, wqe, &plan, &pkt, &dma, &err);
	if (skb)
		err = rxe_net_xmit(qp->rxe, req_av(qp, wqe), qp->sport, skb,
				   &pkt);
	if (!err) {
		req_sent(qp, wqe, &plan, &dma);
		return REQ_OUT_PROGRESS;
	}
	if (req_err_transient(err)) {
		/* Nothing was lost: the same packet is built again later. */
		mod_timer(&qp->req.xmit_timer, jiffies + 1);
		return REQ_OUT_IDLE;
	}
	if (!skb)	/* the SGEs could not be read */
		return req_fail(qp, wqe, IB_WC_LOC_PROT_ERR, err);
	return req_fail(qp, wqe, IB_WC_LOC_QP_OP_ERR, err);
}

typedef enum req_out (*req_step_fn)(struct rxe_qp *qp, struct req_ctx *c);

static const req_step_fn req_steps[REQ_NUM_STEPS] = {
	[REQ_STEP_CHECK]	= req_check,
	[REQ_STEP_NEXT]		= req_next_wqe,
	[REQ_STEP_LOCAL]	= req_local,
	[REQ_STEP_PACKET]	= req_packet,
};

/**
 * rxe_req_run() - one step of the requester (the req_task function)
 * @qp: the QP
 *
 * Transmits at most one packet or executes one local operation.
 * Context: the QP's requester task (softirq or process, never twice).
 * Return: 0 after progress, -EAGAIN when there is nothing to do now.
 */
int rxe_req_run(struct rxe_qp *qp)
{
	struct req_ctx c = {};
	u8 step = REQ_STEP_CHECK;
	enum req_out out;

	for (;;) {
		out = req_steps[step](qp, &c);
		if (out == REQ_OUT_PROGRESS)
			return 0;
		if (out == REQ_OUT_IDLE)
			return -EAGAIN;
		step = req_next[step][out];
		if (WARN_ON_ONCE(step == REQ_STEP_NONE))
			return -EAGAIN;
	}
}

static void req_xmit_timer(struct timer_list *t)
{
	struct rxe_qp *qp = from_timer(qp, t, req.xmit_timer);

	rxe_task_sched(&qp->req_task);
}

/**
 * rxe_req_init() - set up the requester of a new QP
 * @qp: the QP
 */
void rxe_req_init(struct rxe_qp *qp)
{
	timer_setup(&qp->req.xmit_timer, req_xmit_timer, 0);
	rxe_req_reset(qp);
}

/**
 * rxe_req_reset() - forget all requester progress (QP to RESET)
 * @qp: the QP, its engines stopped and its SQ empty
 *
 * The next packet uses attr.sq_psn, which modify_qp sets later.
 */
void rxe_req_reset(struct rxe_qp *qp)
{
	qp->req.index = qp->sq.cons;
	qp->req.hw_index = qp->sq.cons;
	qp->req.sent_index = qp->sq.cons;
	qp->req.offset = 0;
	qp->req.psn = qp->attr.sq_psn;
	qp->req.next_psn = qp->attr.sq_psn;
	memset(&qp->req.dma, 0, sizeof(qp->req.dma));
	atomic_set(&qp->req.rd_atomic, 0);
	qp->req.flags = 0;
	qp->req.retry_psn = 0;
	qp->req.window = RXE_REQ_WINDOW;
}

/**
 * rxe_req_cleanup() - stop the requester's timer
 * @qp: the QP, its engines stopped
 *
 * Context: process; waits for a running timer callback.
 */
void rxe_req_cleanup(struct rxe_qp *qp)
{
	del_timer_sync(&qp->req.xmit_timer);
}
