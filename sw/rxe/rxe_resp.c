// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_resp.c - the responder's state table: one step at a time from a
 * received request to its answer; ACKs and NAKs; the task and the QP's life.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "rxe_resp_priv.h"

/*
 * How a request moves through the responder. Each step is one handler;
 * the handler's outcome and rxe_resp_next[] pick the following step.
 *
 *   GET -> PSN -> SEQ -> RES -> EXEC -> COMPLETE -> REPLY -> DONE -> GET
 *
 * with side exits for duplicates (DUP, REPLAY), requests ahead of the
 * expected PSN (AHEAD), NAKs that keep the QP (NAK), errors that end it
 * (FATAL), discarded packets (DROP) and a QP in the error state (FLUSH).
 * The step a packet is at survives across runs of the task: a step that
 * lacks memory, or a long READ, resumes where it stopped.
 */
enum rxe_resp_step {
	RXE_STEP_NONE,		/* no transition: a bug */
	RXE_STEP_GET,		/* take the next request off the queue */
	RXE_STEP_PSN,		/* expected, duplicate or ahead? */
	RXE_STEP_SEQ,		/* opcode may follow the previous one */
	RXE_STEP_RES,		/* receive WQE, R_Key */
	RXE_STEP_EXEC,		/* place the data, do the atomic, note the READ */
	RXE_STEP_COMPLETE,	/* receive completion, MSN */
	RXE_STEP_REPLY,		/* ACK, READ responses, ATOMIC ACK */
	RXE_STEP_DONE,		/* advance the PSN, release the packet */
	RXE_STEP_DUP,		/* answer a duplicate */
	RXE_STEP_REPLAY,	/* resend READ responses for a duplicate */
	RXE_STEP_AHEAD,		/* PSN sequence NAK */
	RXE_STEP_NAK,		/* NAK, the QP goes on (RNR) */
	RXE_STEP_FATAL,		/* NAK, error completion, QP to error */
	RXE_STEP_DROP,		/* release the packet unanswered */
	RXE_STEP_FLUSH,		/* QP in error: release everything */
	RXE_NUM_STEPS
};

static const u8 rxe_resp_next[RXE_NUM_STEPS][RXE_NUM_OUTS] = {
	[RXE_STEP_GET] = {
		[RXE_OUT_OK] = RXE_STEP_PSN,
	},
	[RXE_STEP_PSN] = {
		[RXE_OUT_OK] = RXE_STEP_SEQ,
		[RXE_OUT_DUP] = RXE_STEP_DUP,
		[RXE_OUT_AHEAD] = RXE_STEP_AHEAD,
		[RXE_OUT_DROP] = RXE_STEP_DROP,
	},
	[RXE_STEP_SEQ] = {
		[RXE_OUT_OK] = RXE_STEP_RES,
		[RXE_OUT_FATAL] = RXE_STEP_FATAL,
		[RXE_OUT_DROP] = RXE_STEP_DROP,
	},
	[RXE_STEP_RES] = {
		[RXE_OUT_OK] = RXE_STEP_EXEC,
		[RXE_OUT_NAK] = RXE_STEP_NAK,
		[RXE_OUT_FATAL] = RXE_STEP_FATAL,
		[RXE_OUT_DROP] = RXE_STEP_DROP,
	},
	[RXE_STEP_EXEC] = {
		[RXE_OUT_OK] = RXE_STEP_COMPLETE,
		[RXE_OUT_FATAL] = RXE_STEP_FATAL,
		[RXE_OUT_DROP] = RXE_STEP_DROP,
	},
	[RXE_STEP_COMPLETE] = {
		[RXE_OUT_OK] = RXE_STEP_REPLY,
		[RXE_OUT_FATAL] = RXE_STEP_FATAL,
		[RXE_OUT_DROP] = RXE_STEP_DROP,
	},
	[RXE_STEP_REPLY] = {
		[RXE_OUT_OK] = RXE_STEP_DONE,
		[RXE_OUT_FATAL] = RXE_STEP_FATAL,
	},
	[RXE_STEP_DONE] = { [RXE_OUT_OK] = RXE_STEP_GET },
	[RXE_STEP_DUP] = {
		[RXE_OUT_OK] = RXE_STEP_DROP,
		[RXE_OUT_READ] = RXE_STEP_REPLAY,
		[RXE_OUT_DROP] = RXE_STEP_DROP,
	},
	[RXE_STEP_REPLAY] = {
		[RXE_OUT_OK] = RXE_STEP_DROP,
		[RXE_OUT_FATAL] = RXE_STEP_FATAL,
	},
	[RXE_STEP_AHEAD] = { [RXE_OUT_OK] = RXE_STEP_DROP },
	[RXE_STEP_NAK] = { [RXE_OUT_OK] = RXE_STEP_DROP },
	[RXE_STEP_FATAL] = { [RXE_OUT_OK] = RXE_STEP_DROP },
	[RXE_STEP_DROP] = { [RXE_OUT_OK] = RXE_STEP_GET },
};

enum rxe_resp_kind {
	RXE_KIND_SEND,
	RXE_KIND_WRITE,
	RXE_KIND_READ,
	RXE_KIND_ATOMIC,
	RXE_NUM_KINDS
};

static enum rxe_resp_kind rxe_resp_kind(const struct rxe_pkt *pkt)
{
	if (pkt->flags & RXE_OPF_SEND)
		return RXE_KIND_SEND;
	if (pkt->flags & RXE_OPF_WRITE)
		return RXE_KIND_WRITE;
	if (pkt->flags & RXE_OPF_READ)
		return RXE_KIND_READ;
	return RXE_KIND_ATOMIC;
}

/* --- pure decisions ------------------------------------------------------ */

/**
 * rxe_resp_psn_classify() - where a request's PSN lies
 * @expected: the PSN the responder waits for
 * @psn:      PSN of the request
 *
 * Distances are taken on the 24-bit circle: up to 2^23 - 1 behind is a
 * duplicate, up to 2^23 - 1 ahead is ahead.
 *
 * Return: RXE_PSN_EXPECTED, RXE_PSN_DUPLICATE or RXE_PSN_AHEAD.
 */
enum rxe_resp_psn_class rxe_resp_psn_classify(u32 expected, u32 psn)
{
	s32 d = rxe_psn_diff(psn, expected);

	if (!d)
		return RXE_PSN_EXPECTED;
	return d < 0 ? RXE_PSN_DUPLICATE : RXE_PSN_AHEAD;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_resp_psn_classify);

/* The packet goes on a message: MIDDLE, or LAST without FIRST. */
static bool rxe_resp_continues(u32 flags)
{
	return (flags & RXE_OPF_MIDDLE) ||
	       ((flags & RXE_OPF_LAST) && !(flags & RXE_OPF_FIRST));
}

/**
 * rxe_resp_seq_valid() - may request @next follow request @prev?
 * @prev: opcode of the last request accepted (RXE_RESP_NO_MSG at start)
 * @next: opcode of the new request
 *
 * A message opened by a FIRST or MIDDLE packet must go on with a MIDDLE
 * or LAST of the same kind (SEND or RDMA WRITE) and transport; without an
 * open message only a FIRST or a single-packet request may come.
 *
 * Return: true when the sequence is valid.
 */
bool rxe_resp_seq_valid(u8 prev, u8 next)
{
	const u32 kind = RXE_OPF_SEND | RXE_OPF_WRITE | RXE_OPF_RC |
			 RXE_OPF_UC | RXE_OPF_UD;
	u32 p = rxe_opcode[prev].flags;
	u32 n = rxe_opcode[next].flags;
	bool open = (p & RXE_OPF_REQ) && (p & (RXE_OPF_FIRST | RXE_OPF_MIDDLE)) &&
		    !(p & RXE_OPF_LAST);

	if (!(n & RXE_OPF_REQ))
		return false;
	if (!open)
		return !rxe_resp_continues(n);
	return rxe_resp_continues(n) && !((p ^ n) & kind);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_resp_seq_valid);

/* --- replies ------------------------------------------------------------- */

/**
 * rxe_resp_hdr_fill() - write the BTH and AETH of a reply
 * @qp:       the responder's QP (destination QPN, P_Key, MSN)
 * @reply:    reply whose @opcode is set and whose @hdr has room for the
 *            opcode's headers
 * @syndrome: AETH syndrome (ignored by opcodes without an AETH)
 * @psn:      PSN of the reply
 * @pad:      pad count of the payload
 *
 * Any context.
 */
void rxe_resp_hdr_fill(struct rxe_qp *qp, struct rxe_pkt *reply, u8 syndrome,
		       u32 psn, u8 pad)
{
	reply->psn = psn & RXE_PSN_MASK;
	rxe_bth_init(reply, false, pad, qp->attr.pkey ?: RXE_DEFAULT_PKEY,
		     qp->attr.dest_qpn, false, psn);
	if (rxe_opcode[reply->opcode].flags & RXE_OPF_AETH)
		rxe_aeth_set(reply, syndrome, qp->resp.msn);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_resp_hdr_fill);

static void rxe_resp_reply_init(struct rxe_qp *qp, struct rxe_pkt *reply,
				u8 opcode, u32 paylen)
{
	reply->rxe = qp->rxe;
	reply->qp = qp;
	reply->opcode = opcode;
	reply->flags = rxe_opcode[opcode].flags;
	reply->paylen = paylen;
	reply->port = 1;
}

/**
 * rxe_resp_reply_new() - allocate a reply and write its headers
 * @qp:       the responder's QP
 * @reply:    filled in for the reply (@hdr points at its BTH)
 * @opcode:   reply opcode
 * @len:      payload bytes the caller will write at rxe_pkt_payload()
 * @syndrome: AETH syndrome, for opcodes with an AETH
 * @psn:      PSN of the reply
 *
 * The pad after the payload is zeroed. Counts RXE_CNT_DROP_NOMEM when no
 * buffer is available. Any context.
 *
 * Return: the reply, to be sent with rxe_resp_xmit(), or NULL.
 */
struct sk_buff *rxe_resp_reply_new(struct rxe_qp *qp, struct rxe_pkt *reply,
				   u8 opcode, u32 len, u8 syndrome, u32 psn)
{
	u8 pad = (0u - len) & RXE_MAX_PAD;
	u32 paylen = rxe_opcode[opcode].length + len + pad + RXE_ICRC_SIZE;
	struct sk_buff *skb;

	memset(reply, 0, sizeof(*reply));
	/* rxe_net_skb_alloc() only adds @hdr (and the same paylen, rxe, port). */
	rxe_resp_reply_init(qp, reply, opcode, paylen);
	skb = rxe_net_skb_alloc(qp->rxe, &qp->av, paylen, reply);
	if (IS_ERR_OR_NULL(skb)) {
		rxe_counter_inc(qp->rxe, RXE_CNT_DROP_NOMEM);
		return NULL;
	}
	rxe_resp_hdr_fill(qp, reply, syndrome, psn, pad);
	memset(rxe_pkt_payload(reply) + len, 0, pad);
	return skb;
}

/**
 * rxe_resp_xmit() - send a reply built by rxe_resp_reply_new()
 * @qp:    the responder's QP
 * @skb:   the reply; consumed
 * @reply: its packet description
 *
 * A reply that cannot leave is lost like one the wire lost: the
 * requester's retry recovers it. Any context.
 */
void rxe_resp_xmit(struct rxe_qp *qp, struct sk_buff *skb,
		   struct rxe_pkt *reply)
{
	int err = rxe_net_xmit(qp->rxe, &qp->av, qp->sport, skb, reply);

	if (unlikely(err))
		rxe_dbg_qp(qp, "%s psn %#x not sent: %d\n",
			   rxe_opcode_name(reply->opcode), reply->psn, err);
}

/**
 * rxe_resp_send_aeth() - send an ACK or a NAK (RC_ACKNOWLEDGE)
 * @qp:       the responder's QP
 * @syndrome: AETH syndrome (rxe_resp_syndrome_*())
 * @psn:      PSN the ACK or NAK is about
 *
 * Any context. Return: 0, or -ENOMEM when no buffer is available.
 */
int rxe_resp_send_aeth(struct rxe_qp *qp, u8 syndrome, u32 psn)
{
	struct rxe_pkt reply;
	struct sk_buff *skb;

	skb = rxe_resp_reply_new(qp, &reply, IB_OPCODE_RC_ACKNOWLEDGE, 0,
				 syndrome, psn);
	if (!skb)
		return -ENOMEM;
	rxe_resp_xmit(qp, skb, &reply);
	return 0;
}

/**
 * rxe_resp_ack_flush() - send the ACK coalesced requests wait for
 * @qp: the responder's QP
 *
 * One ACK with the newest PSN received covers every request that asked
 * for one since the last ACK. Called before anything else goes back to the
 * requester, and when no more requests wait. Responder task only.
 *
 * Return: 0, or -ENOMEM (the ACK stays owed).
 */
int rxe_resp_ack_flush(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	if (!resp->ack_owed)
		return 0;
	if (rxe_resp_send_aeth(qp, rxe_resp_syndrome_ack(),
			       rxe_psn_add(resp->psn, RXE_PSN_MASK)))
		return -ENOMEM;
	resp->ack_owed = 0;
	return 0;
}

/**
 * rxe_resp_wait_mem() - out of memory: retry the current step shortly
 * @qp: the responder's QP
 *
 * The packet stays at its step; a timer schedules the task again.
 *
 * Return: RXE_OUT_WAIT, for the step to return.
 */
enum rxe_resp_out rxe_resp_wait_mem(struct rxe_qp *qp)
{
	mod_timer(&qp->resp.retry, jiffies + 1);
	return RXE_OUT_WAIT;
}

static void rxe_resp_retry_fn(struct timer_list *t)
{
	struct rxe_qp *qp = from_timer(qp, t, resp.retry);

	rxe_task_sched(&qp->resp_task);
}

/* --- packets the responder holds, failing requests ------------------------ */

static void rxe_resp_pkt_free(struct sk_buff *skb)
{
	struct rxe_qp *qp = RXE_SKB_PKT(skb)->qp;

	kfree_skb(skb);
	rxe_qp_put(qp);
}

static void rxe_resp_skb_free(struct rxe_qp *qp)
{
	if (qp->resp.skb) {
		rxe_resp_pkt_free(qp->resp.skb);
		qp->resp.skb = NULL;
	}
}

static void rxe_resp_purge(struct rxe_qp *qp)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&qp->req_pkts)))
		rxe_resp_pkt_free(skb);
}

/**
 * rxe_resp_fail() - the current request fails
 * @qp:     the responder's QP
 * @code:   RXE_AETH_NAK_* code an RC requester gets back
 * @status: status the held receive WQE completes with, or IB_WC_SUCCESS
 *          when no WQE is concerned
 *
 * RC answers with the NAK and goes to error. UC and UD give the message
 * up, unless a receive WQE has to complete with @status (UC then goes to
 * error as well, UD does not). Responder task only.
 *
 * Return: the outcome for the failing step to return.
 */
enum rxe_resp_out rxe_resp_fail(struct rxe_qp *qp, u8 code,
				enum ib_wc_status status)
{
	struct rxe_resp_state *resp = &qp->resp;

	resp->nak_syndrome = rxe_resp_syndrome_nak(code);
	resp->nak_psn = rxe_resp_pkt(qp)->psn;
	resp->wc_status = status;
	switch (code) {
	case RXE_AETH_NAK_ACCESS:
		resp->err_event = IB_EVENT_QP_ACCESS_ERR;
		break;
	case RXE_AETH_NAK_OPERATIONAL:
		resp->err_event = IB_EVENT_QP_FATAL;
		break;
	default:
		resp->err_event = IB_EVENT_QP_REQ_ERR;
	}
	rxe_dbg_qp(qp, "%s psn %#x fails: NAK %#x, wc %d\n",
		   rxe_opcode_name(rxe_resp_pkt(qp)->opcode), resp->nak_psn,
		   code, status);
	if (rxe_qp_is_rc(qp) || status != IB_WC_SUCCESS)
		return RXE_OUT_FATAL;
	rxe_resp_abandon(qp);
	return RXE_OUT_DROP;
}

/* --- the steps ----------------------------------------------------------- */

/* What each kind of request does at the steps that depend on it. */
static const struct rxe_resp_ops *const rxe_resp_ops[RXE_NUM_KINDS] = {
	[RXE_KIND_SEND] = &rxe_resp_send_ops,
	[RXE_KIND_WRITE] = &rxe_resp_write_ops,
	[RXE_KIND_READ] = &rxe_resp_read_ops,
	[RXE_KIND_ATOMIC] = &rxe_resp_atomic_ops,
};

static const struct rxe_resp_ops *rxe_resp_ops_of(struct rxe_qp *qp)
{
	return rxe_resp_ops[rxe_resp_kind(rxe_resp_pkt(qp))];
}

static enum rxe_resp_out rxe_resp_step_get(struct rxe_qp *qp)
{
	struct sk_buff *skb = skb_dequeue(&qp->req_pkts);

	if (!skb) {
		if (rxe_resp_ack_flush(qp))
			return rxe_resp_wait_mem(qp);
		return RXE_OUT_WAIT;
	}
	qp->resp.skb = skb;
	return RXE_OUT_OK;
}

/* UC has no duplicates: a new message resynchronises, others drop. */
static enum rxe_resp_out rxe_resp_uc_psn(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);

	if (pkt->psn == qp->resp.psn)
		return RXE_OUT_OK;
	rxe_dbg_qp(qp, "%s psn %#x, expected %#x\n",
		   rxe_opcode_name(pkt->opcode), pkt->psn, qp->resp.psn);
	rxe_resp_abandon(qp);
	if (rxe_resp_continues(pkt->flags))
		return RXE_OUT_DROP;
	qp->resp.psn = pkt->psn;
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_psn(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;

	if (rxe_qp_is_ud(qp))
		return RXE_OUT_OK;
	if (!resp->psn_valid) {
		resp->psn = qp->attr.rq_psn & RXE_PSN_MASK;
		resp->psn_valid = true;
	}
	if (!rxe_qp_is_rc(qp))
		return rxe_resp_uc_psn(qp);
	switch (rxe_resp_psn_classify(resp->psn, pkt->psn)) {
	case RXE_PSN_EXPECTED:
		resp->nak_sent = false;
		return RXE_OUT_OK;
	case RXE_PSN_DUPLICATE:
		rxe_counter_inc(qp->rxe, RXE_CNT_DUP_REQ);
		return RXE_OUT_DUP;
	default:
		rxe_counter_inc(qp->rxe, RXE_CNT_OUT_OF_SEQ_REQ);
		return RXE_OUT_AHEAD;
	}
}

static enum rxe_resp_out rxe_resp_step_seq(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;

	if (rxe_qp_is_ud(qp))
		return RXE_OUT_OK;
	if (!rxe_resp_seq_valid(resp->last_opcode, pkt->opcode))
		return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID, IB_WC_SUCCESS);
	if (unlikely(!resp->comm_est) && rxe_qp_state(qp) == IB_QPS_RTR) {
		resp->comm_est = true;
		rxe_qp_event(qp, IB_EVENT_COMM_EST);
	}
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_res(struct rxe_qp *qp)
{
	return rxe_resp_ops_of(qp)->res(qp);
}

static enum rxe_resp_out rxe_resp_step_exec(struct rxe_qp *qp)
{
	return rxe_resp_ops_of(qp)->exec(qp);
}

static enum rxe_resp_out rxe_resp_step_complete(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	enum rxe_resp_out out;

	if (pkt->flags & RXE_OPF_COMP) {
		out = rxe_resp_complete(qp);
		if (out != RXE_OUT_OK)
			return out;
	}
	if (pkt->flags & RXE_OPF_LAST)
		qp->resp.msn = rxe_psn_add(qp->resp.msn, 1);
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_reply(struct rxe_qp *qp)
{
	return rxe_resp_ops_of(qp)->reply(qp);
}

static enum rxe_resp_out rxe_resp_step_done(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;
	u32 span = 1;

	if (!rxe_qp_is_ud(qp)) {
		if (rxe_resp_kind(pkt) == RXE_KIND_READ)
			span = resp->rd.npkts;
		resp->psn = rxe_psn_add(pkt->psn, span);
		resp->last_opcode = pkt->opcode;
	}
	rxe_counter_inc(qp->rxe, RXE_CNT_RDMA_RECV);
	rxe_resp_skb_free(qp);
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_dup(struct rxe_qp *qp)
{
	return rxe_resp_ops_of(qp)->dup(qp);
}

/* A duplicate READ: its responses go out again like a new READ's. */
static enum rxe_resp_out rxe_resp_step_replay(struct rxe_qp *qp)
{
	return rxe_resp_read_ops.reply(qp);
}

/* RC: one sequence NAK (PSN = the expected one) until that PSN arrives. */
static enum rxe_resp_out rxe_resp_step_ahead(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	rxe_dbg_qp(qp, "psn %#x ahead of %#x\n", rxe_resp_pkt(qp)->psn,
		   resp->psn);
	if (resp->nak_sent)
		return RXE_OUT_OK;
	if (rxe_resp_ack_flush(qp) ||
	    rxe_resp_send_aeth(qp, rxe_resp_syndrome_nak(RXE_AETH_NAK_PSN_SEQ),
			       resp->psn))
		return rxe_resp_wait_mem(qp);
	resp->nak_sent = true;
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_nak(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	if (rxe_resp_ack_flush(qp) ||
	    rxe_resp_send_aeth(qp, resp->nak_syndrome, resp->nak_psn))
		return rxe_resp_wait_mem(qp);
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_fatal(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	if (resp->wc_status != IB_WC_SUCCESS)
		rxe_resp_wqe_fail(qp, resp->wc_status);
	if (rxe_qp_is_ud(qp))
		return RXE_OUT_OK;
	if (rxe_qp_is_rc(qp) &&
	    (rxe_resp_ack_flush(qp) ||
	     rxe_resp_send_aeth(qp, resp->nak_syndrome, resp->nak_psn)))
		return rxe_resp_wait_mem(qp);
	rxe_qp_to_error(qp, resp->err_event);
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_drop(struct rxe_qp *qp)
{
	rxe_resp_skb_free(qp);
	return RXE_OUT_OK;
}

/* In error: the held WQE and everything queued go; stays here until reset. */
static enum rxe_resp_out rxe_resp_step_flush(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	rxe_resp_skb_free(qp);
	rxe_resp_purge(qp);
	rxe_resp_wqe_fail(qp, IB_WC_WR_FLUSH_ERR);
	rxe_resp_flush_rq(qp);
	rxe_resp_xfer_put(&resp->wr);
	rxe_resp_xfer_put(&resp->rd);
	resp->ack_owed = 0;
	return RXE_OUT_WAIT;
}

static const rxe_resp_fn rxe_resp_steps[RXE_NUM_STEPS] = {
	[RXE_STEP_GET] = rxe_resp_step_get,
	[RXE_STEP_PSN] = rxe_resp_step_psn,
	[RXE_STEP_SEQ] = rxe_resp_step_seq,
	[RXE_STEP_RES] = rxe_resp_step_res,
	[RXE_STEP_EXEC] = rxe_resp_step_exec,
	[RXE_STEP_COMPLETE] = rxe_resp_step_complete,
	[RXE_STEP_REPLY] = rxe_resp_step_reply,
	[RXE_STEP_DONE] = rxe_resp_step_done,
	[RXE_STEP_DUP] = rxe_resp_step_dup,
	[RXE_STEP_REPLAY] = rxe_resp_step_replay,
	[RXE_STEP_AHEAD] = rxe_resp_step_ahead,
	[RXE_STEP_NAK] = rxe_resp_step_nak,
	[RXE_STEP_FATAL] = rxe_resp_step_fatal,
	[RXE_STEP_DROP] = rxe_resp_step_drop,
	[RXE_STEP_FLUSH] = rxe_resp_step_flush,
};

/* --- the task and the QP's life ------------------------------------------ */

/**
 * rxe_resp_run() - one run of the responder task
 * @qp: the QP
 *
 * Takes the request at the head of qp->req_pkts through the steps of the
 * state table until it is finished, or until a step has to wait (no
 * memory: a timer restarts the task) or yields (a long READ). Runs in the
 * QP's responder task only, never twice at once; does not sleep.
 *
 * Return: 0 when a request was finished or progressed (call again),
 * -EAGAIN when there is nothing to do until new packets arrive.
 */
int rxe_resp_run(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;
	enum rxe_resp_out out;
	u8 next;

	if (unlikely(rxe_qp_state(qp) == IB_QPS_ERR))
		resp->step = RXE_STEP_FLUSH;
	for (;;) {
		out = rxe_resp_steps[resp->step](qp);
		if (out == RXE_OUT_WAIT)
			return -EAGAIN;
		if (out == RXE_OUT_YIELD)
			return 0;
		next = rxe_resp_next[resp->step][out];
		if (WARN_ON_ONCE(next == RXE_STEP_NONE))
			next = RXE_STEP_DROP;
		resp->step = next;
		if (next == RXE_STEP_GET)
			return 0;
	}
}

/**
 * rxe_resp_queue_pkt() - hand a request packet to the responder
 * @qp:  destination QP
 * @skb: request that passed rxe_recv()'s checks; RXE_SKB_PKT(@skb)->qp
 *       holds a QP reference that goes with the packet
 *
 * Queues the packet and runs the responder task (inline from the
 * receive softirq, else on the workqueue). Consumes @skb. Any context.
 */
void rxe_resp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb)
{
	skb_queue_tail(&qp->req_pkts, skb);
	/*
	 * Inline only from the network's softirq: a loopback delivery made
	 * inside a consumer's post_send is queued, so receive completions
	 * never run under the consumer's own locks.
	 */
	if (in_serving_softirq())
		rxe_task_run(&qp->resp_task);
	else
		rxe_task_sched(&qp->resp_task);
}

static void rxe_resp_clear(struct rxe_resp_state *resp)
{
	resp->step = RXE_STEP_GET;
	resp->psn = 0;
	resp->msn = 0;
	resp->psn_valid = false;
	resp->last_opcode = RXE_RESP_NO_MSG;
	resp->nak_sent = false;
	resp->comm_est = false;
	resp->ack_owed = 0;
	resp->wqe_valid = false;
}

/* Give back everything the responder holds, without completions. */
static void rxe_resp_release(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	rxe_resp_skb_free(qp);
	rxe_resp_purge(qp);
	rxe_resp_xfer_put(&resp->wr);
	rxe_resp_xfer_put(&resp->rd);
	rxe_resp_rd_free(qp);
}

/**
 * rxe_resp_init() - set up the responder of a new QP
 * @qp: the QP being created; its responder task does not run yet
 *
 * Allocates nothing: memory for READ/ATOMIC replay is taken on first use.
 */
void rxe_resp_init(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	memset(resp, 0, sizeof(*resp));
	spin_lock_init(&resp->lock);
	timer_setup(&resp->retry, rxe_resp_retry_fn, 0);
	skb_queue_head_init(&qp->req_pkts);
	rxe_resp_clear(resp);
}

/**
 * rxe_resp_reset() - forget all responder state (the QP goes to RESET)
 * @qp: the QP; its responder task is stopped
 *
 * Queued packets are dropped, a held receive WQE is forgotten without a
 * completion (RESET empties the queues), replay memory is freed. The
 * expected PSN is loaded from qp->attr.rq_psn with the next packet.
 */
void rxe_resp_reset(struct rxe_qp *qp)
{
	del_timer(&qp->resp.retry);
	rxe_resp_release(qp);
	rxe_resp_clear(&qp->resp);
}

/**
 * rxe_resp_flush() - the QP went to error: flush the receive side
 * @qp: the QP
 *
 * Receive WQEs on the QP's RQ complete with IB_WC_WR_FLUSH_ERR, queued
 * packets are dropped (with their QP references); an SRQ QP gets
 * IB_EVENT_QP_LAST_WQE_REACHED. The responder task is scheduled so that
 * it completes the WQE of a message in progress. Any context, also from
 * within the responder task (rxe_qp_to_error()).
 */
void rxe_resp_flush(struct rxe_qp *qp)
{
	rxe_resp_purge(qp);
	if (qp->srq)
		rxe_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
	else
		rxe_resp_flush_rq(qp);
	rxe_task_sched(&qp->resp_task);
}

/**
 * rxe_resp_cleanup() - release the responder of a QP being destroyed
 * @qp: the QP; its responder task is stopped for good
 *
 * Drops queued packets with their QP references (destroy must call this,
 * or rxe_resp_flush(), before it waits for the references to go), the MR
 * references of transfers in progress and the replay memory. May sleep.
 */
void rxe_resp_cleanup(struct rxe_qp *qp)
{
	del_timer_sync(&qp->resp.retry);
	rxe_resp_release(qp);
	qp->resp.wqe_valid = false;
}
