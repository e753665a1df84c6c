// SPDX-License-Identifier: GPL-2.0-only
/* rxe_resp.c - the responder: executes the requests a QP receives and answers them, one step of a state table at a time. */

#include <kunit/visibility.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>

#include "rxe.h"
#include "rxe_qp.h"

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

enum rxe_resp_out {
	RXE_OUT_OK,		/* go on */
	RXE_OUT_DUP,		/* PSN before the expected one */
	RXE_OUT_AHEAD,		/* PSN after the expected one */
	RXE_OUT_READ,		/* duplicate READ: resend its responses */
	RXE_OUT_NAK,		/* answer with resp.nak_syndrome */
	RXE_OUT_FATAL,		/* the request fails; see rxe_resp_fail() */
	RXE_OUT_DROP,		/* discard the packet */
	RXE_OUT_FLUSH,		/* the QP is in error */
	RXE_NUM_OUTS,
	/* handled by the runner: the packet stays at its step */
	RXE_OUT_WAIT,		/* nothing to do, or no memory: stop */
	RXE_OUT_YIELD,		/* progress made: let other work run */
};

static const u8 rxe_resp_next[RXE_NUM_STEPS][RXE_NUM_OUTS] = {
	[RXE_STEP_GET] = {
		[RXE_OUT_OK] = RXE_STEP_PSN,
		[RXE_OUT_FLUSH] = RXE_STEP_FLUSH,
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

/* last_opcode while no message is open: any complete, single-packet one. */
#define RXE_RESP_NO_MSG		IB_OPCODE_RC_SEND_ONLY
/* Requests whose ACK may wait for the next ones before it is sent. */
#define RXE_RESP_ACK_BATCH	8
/* READ responses sent per run of the task. */
#define RXE_RESP_READ_BURST	16

enum rxe_resp_kind {
	RXE_KIND_SEND,
	RXE_KIND_WRITE,
	RXE_KIND_READ,
	RXE_KIND_ATOMIC,
	RXE_NUM_KINDS
};

static struct rxe_pkt *rxe_resp_pkt(struct rxe_qp *qp)
{
	return RXE_SKB_PKT(qp->resp.skb);
}

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

static bool rxe_resp_is_rc(const struct rxe_qp *qp)
{
	return rxe_qp_type(qp) == IB_QPT_RC;
}

static bool rxe_resp_is_ud(const struct rxe_qp *qp)
{
	return rxe_qp_type(qp) == IB_QPT_UD || rxe_qp_type(qp) == IB_QPT_GSI;
}

static u32 rxe_resp_mtu(const struct rxe_qp *qp)
{
	return max_t(u32, qp->attr.mtu, 256);
}

/* PSNs (responses) a READ of @len bytes takes: at least one. */
static u32 rxe_resp_read_npkts(const struct rxe_qp *qp, u32 len)
{
	return max_t(u32, DIV_ROUND_UP(len, rxe_resp_mtu(qp)), 1);
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

/* --- replies: ACK, NAK, READ responses, ATOMIC ACK ----------------------- */

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

/* A reply of @opcode with room for @len payload bytes, headers written. */
static struct sk_buff *rxe_resp_reply_new(struct rxe_qp *qp,
					  struct rxe_pkt *reply, u8 opcode,
					  u32 len, u8 syndrome, u32 psn)
{
	u8 pad = (0u - len) & RXE_MAX_PAD;
	u32 paylen = rxe_opcode[opcode].length + len + pad + RXE_ICRC_SIZE;
	struct sk_buff *skb;

	memset(reply, 0, sizeof(*reply));
	rxe_resp_reply_init(qp, reply, opcode, paylen);
	skb = rxe_net_skb_alloc(qp->rxe, &qp->av, paylen, reply);
	if (unlikely(IS_ERR_OR_NULL(skb))) {
		rxe_counter_inc(qp->rxe, RXE_CNT_DROP_NOMEM);
		return NULL;
	}
	rxe_resp_reply_init(qp, reply, opcode, paylen);
	rxe_resp_hdr_fill(qp, reply, syndrome, psn, pad);
	memset(rxe_pkt_payload(reply) + len, 0, pad);
	return skb;
}

/* A reply that does not leave is lost like one the wire lost. */
static void rxe_resp_xmit(struct rxe_qp *qp, struct sk_buff *skb,
			  struct rxe_pkt *reply)
{
	int err = rxe_net_xmit(qp->rxe, &qp->av, qp->sport, skb, reply);

	if (unlikely(err))
		rxe_dbg_qp(qp, "%s psn %#x not sent: %d\n",
			   rxe_opcode_name(reply->opcode), reply->psn, err);
}

/* ACK or NAK (RC_ACKNOWLEDGE). Return: 0 or -ENOMEM. */
static int rxe_resp_send_aeth(struct rxe_qp *qp, u8 syndrome, u32 psn)
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

static int rxe_resp_send_atomic_ack(struct rxe_qp *qp, u32 psn, u64 orig)
{
	struct rxe_pkt reply;
	struct sk_buff *skb;

	skb = rxe_resp_reply_new(qp, &reply, IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE,
				 0, rxe_resp_syndrome_ack(), psn);
	if (!skb)
		return -ENOMEM;
	rxe_atmack_set(&reply, orig);
	rxe_resp_xmit(qp, skb, &reply);
	return 0;
}

/* Send the one ACK that coalesced requests wait for (the newest PSN). */
static int rxe_resp_ack_flush(struct rxe_qp *qp)
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

/* Out of memory: keep the packet at its step and try again shortly. */
static enum rxe_resp_out rxe_resp_wait_mem(struct rxe_qp *qp)
{
	mod_timer(&qp->resp.retry, jiffies + 1);
	return RXE_OUT_WAIT;
}

static void rxe_resp_retry_fn(struct timer_list *t)
{
	struct rxe_qp *qp = from_timer(qp, t, resp.retry);

	rxe_task_sched(&qp->resp_task);
}

/* --- what the responder holds: packets, MRs, the receive WQE ------------- */

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

static void rxe_resp_xfer_put(struct rxe_resp_xfer *x)
{
	if (x->mr) {
		rxe_mr_put(x->mr);
		x->mr = NULL;
	}
}

static struct rxe_recv_wqe *rxe_resp_wqe(struct rxe_qp *qp)
{
	return (struct rxe_recv_wqe *)qp->resp.wqe_buf;
}

static struct rxe_pd *rxe_resp_wqe_pd(struct rxe_qp *qp)
{
	return qp->srq ? to_rpd(qp->srq->ibsrq.pd) : rxe_qp_pd(qp);
}

/* Copy the oldest receive WQE off the QP's own RQ. */
static bool rxe_resp_rq_take(struct rxe_qp *qp, struct rxe_recv_wqe *dst)
{
	struct rxe_recv_wqe *src;
	unsigned long flags;
	u32 num_sge;

	spin_lock_irqsave(&qp->resp.lock, flags);
	src = rxe_queue_head(&qp->rq);
	if (src) {
		num_sge = min_t(u32, READ_ONCE(src->num_sge), RXE_MAX_SGE);
		memcpy(dst, src, rxe_recv_wqe_size(num_sge));
		dst->num_sge = num_sge;
		rxe_queue_consume(&qp->rq);
	}
	spin_unlock_irqrestore(&qp->resp.lock, flags);
	return src;
}

/* Make sure a receive WQE is held for the open message. */
static bool rxe_resp_wqe_get(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;
	struct rxe_recv_wqe *wqe = rxe_resp_wqe(qp);
	bool got;

	if (resp->wqe_valid)
		return true;
	if (qp->srq)
		got = !rxe_srq_take(qp->srq, wqe, RXE_MAX_SGE);
	else
		got = rxe_resp_rq_take(qp, wqe);
	if (!got)
		return false;
	resp->dma = (struct rxe_dma){
		.length = wqe->length,
		.resid = wqe->length,
		.num_sge = wqe->num_sge,
	};
	resp->wqe_valid = true;
	return true;
}

static void rxe_resp_wc_init(struct rxe_qp *qp, struct ib_wc *wc,
			     enum ib_wc_status status)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = rxe_resp_wqe(qp)->wr_id;
	wc->status = status;
	wc->opcode = IB_WC_RECV;
	wc->qp = &qp->ibqp;
	wc->src_qp = qp->attr.dest_qpn;
	wc->pkey_index = qp->attr.pkey_index;
	wc->port_num = 1;
}

/* Complete the held receive WQE with an error, if there is one. */
static void rxe_resp_wqe_fail(struct rxe_qp *qp, enum ib_wc_status status)
{
	struct ib_wc wc;

	if (!qp->resp.wqe_valid)
		return;
	rxe_resp_wc_init(qp, &wc, status);
	qp->resp.wqe_valid = false;
	if (rxe_cq_post(qp->rcq, &wc, true))
		rxe_dbg_qp(qp, "receive completion lost\n");
}

/* Every WQE still on the RQ completes as flushed. */
static void rxe_resp_flush_rq(struct rxe_qp *qp)
{
	struct rxe_recv_wqe *wqe;
	unsigned long flags;
	struct ib_wc wc;

	if (qp->srq || !qp->rcq)
		return;
	spin_lock_irqsave(&qp->resp.lock, flags);
	while ((wqe = rxe_queue_head(&qp->rq))) {
		memset(&wc, 0, sizeof(wc));
		wc.wr_id = wqe->wr_id;
		wc.status = IB_WC_WR_FLUSH_ERR;
		wc.opcode = IB_WC_RECV;
		wc.qp = &qp->ibqp;
		rxe_queue_consume(&qp->rq);
		rxe_cq_post(qp->rcq, &wc, true);
	}
	spin_unlock_irqrestore(&qp->resp.lock, flags);
}

/*
 * The open message is given up (UC after a loss or a bad packet): the
 * receive WQE is kept for the next message, a WRITE forgets its MR.
 */
static void rxe_resp_abandon(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	if (resp->wqe_valid) {
		resp->dma.resid = resp->dma.length;
		resp->dma.cur_sge = 0;
		resp->dma.sge_offset = 0;
	}
	rxe_resp_xfer_put(&resp->wr);
	resp->last_opcode = RXE_RESP_NO_MSG;
}

/*
 * The current request fails with NAK @code. RC answers it and goes to
 * error; UC and UD give the message up, unless a receive WQE has to
 * complete with @status (UC then goes to error too, UD does not).
 */
static enum rxe_resp_out rxe_resp_fail(struct rxe_qp *qp, u8 code,
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
	if (rxe_resp_is_rc(qp) || status != IB_WC_SUCCESS)
		return RXE_OUT_FATAL;
	rxe_resp_abandon(qp);
	return RXE_OUT_DROP;
}

/* --- READ/ATOMIC requests kept for replay -------------------------------- */

static struct rxe_resp_rd *rxe_resp_rd_ring(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;
	u32 slots = max_t(u32, qp->attr.max_dest_rd_atomic, 1);

	if (!resp->rd_ring) {
		resp->rd_ring = kcalloc(slots, sizeof(*resp->rd_ring),
					GFP_ATOMIC);
		if (!resp->rd_ring)
			return NULL;
		resp->rd_slots = slots;
		resp->rd_next = 0;
	}
	return resp->rd_ring;
}

/* The oldest entry makes room; returns the entry now holding @rec. */
static struct rxe_resp_rd *rxe_resp_rd_keep(struct rxe_qp *qp,
					    const struct rxe_resp_rd *rec)
{
	struct rxe_resp_state *resp = &qp->resp;
	struct rxe_resp_rd *slot = &resp->rd_ring[resp->rd_next];

	*slot = *rec;
	resp->rd_next = (resp->rd_next + 1) % resp->rd_slots;
	return slot;
}

/* The kept request whose PSN range holds @psn. */
static struct rxe_resp_rd *rxe_resp_rd_find(struct rxe_qp *qp, u32 psn)
{
	struct rxe_resp_state *resp = &qp->resp;
	struct rxe_resp_rd *e;
	s32 d;

	if (!resp->rd_ring)
		return NULL;
	for (e = resp->rd_ring; e < resp->rd_ring + resp->rd_slots; e++) {
		d = rxe_psn_diff(psn, e->psn);
		if (e->npkts && d >= 0 && d < e->npkts)
			return e;
	}
	return NULL;
}

static struct rxe_resp_rd *rxe_resp_rd_last(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	return &resp->rd_ring[(resp->rd_next + resp->rd_slots - 1) %
			      resp->rd_slots];
}

/* --- SEND ----------------------------------------------------------------- */

/* Packets that consume a receive WQE need one (RNR NAK on RC if none). */
static enum rxe_resp_out rxe_resp_send_res(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;

	if (!(pkt->flags & RXE_OPF_RWR) || rxe_resp_wqe_get(qp))
		return RXE_OUT_OK;
	rxe_dbg_qp(qp, "%s psn %#x: no receive WQE\n",
		   rxe_opcode_name(pkt->opcode), pkt->psn);
	if (!rxe_resp_is_rc(qp))
		return RXE_OUT_DROP;
	rxe_counter_inc(qp->rxe, RXE_CNT_SND_RNR);
	resp->nak_syndrome = rxe_resp_syndrome_rnr(qp->attr.min_rnr_timer);
	resp->nak_psn = pkt->psn;
	return RXE_OUT_NAK;
}

/* UD: the network header goes into the first 40 bytes of the buffer. */
static int rxe_resp_grh_copy(struct rxe_qp *qp)
{
	struct sk_buff *skb = qp->resp.skb;
	union rdma_network_hdr hdr;

	memset(&hdr, 0, sizeof(hdr));
	if (ip_hdr(skb)->version == 4)
		memcpy(&hdr.roce4grh, ip_hdr(skb), sizeof(hdr.roce4grh));
	else
		memcpy(&hdr.ibgrh, ipv6_hdr(skb), sizeof(hdr.ibgrh));
	return rxe_sgl_copy(rxe_resp_wqe_pd(qp), &qp->resp.dma,
			    rxe_resp_wqe(qp)->sge, &hdr, sizeof(hdr),
			    RXE_TO_MEM);
}

static enum rxe_resp_out rxe_resp_send_exec(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;
	u32 len = rxe_pkt_payload_len(pkt);
	u32 need = len;

	if (rxe_resp_is_ud(qp))
		need += sizeof(union rdma_network_hdr);
	if (need > resp->dma.resid)
		return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID, IB_WC_LOC_LEN_ERR);
	if (rxe_resp_is_ud(qp) && rxe_resp_grh_copy(qp))
		goto err_copy;
	if (len && rxe_sgl_copy(rxe_resp_wqe_pd(qp), &resp->dma,
				rxe_resp_wqe(qp)->sge, rxe_pkt_payload(pkt),
				len, RXE_TO_MEM))
		goto err_copy;
	return RXE_OUT_OK;

err_copy:
	return rxe_resp_fail(qp, RXE_AETH_NAK_OPERATIONAL, IB_WC_LOC_PROT_ERR);
}

/* SEND and WRITE: ACK when asked, coalescing while more requests wait. */
static enum rxe_resp_out rxe_resp_ack_reply(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;

	if (!rxe_resp_is_rc(qp))
		return RXE_OUT_OK;
	if (!rxe_bth_ackreq(pkt)) {
		if (pkt->flags & RXE_OPF_LAST)
			rxe_counter_inc(qp->rxe, RXE_CNT_ACK_DEFERRED);
		return RXE_OUT_OK;
	}
	if (resp->ack_owed + 1 < RXE_RESP_ACK_BATCH &&
	    !skb_queue_empty(&qp->req_pkts)) {
		resp->ack_owed++;
		rxe_counter_inc(qp->rxe, RXE_CNT_ACK_DEFERRED);
		return RXE_OUT_OK;
	}
	if (rxe_resp_send_aeth(qp, rxe_resp_syndrome_ack(), pkt->psn))
		return rxe_resp_wait_mem(qp);
	resp->ack_owed = 0;
	return RXE_OUT_OK;
}

/* A duplicate SEND or WRITE asking for an ACK gets it again. */
static enum rxe_resp_out rxe_resp_ack_dup(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);

	if (!rxe_bth_ackreq(pkt))
		return RXE_OUT_OK;
	if (rxe_resp_ack_flush(qp) ||
	    rxe_resp_send_aeth(qp, rxe_resp_syndrome_ack(), pkt->psn))
		return rxe_resp_wait_mem(qp);
	return RXE_OUT_OK;
}

/* --- RDMA WRITE ------------------------------------------------------------ */

static enum rxe_resp_out rxe_resp_write_start(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_xfer *wr = &qp->resp.wr;
	u32 len = rxe_reth_len(pkt);
	struct rxe_mr *mr;

	rxe_resp_xfer_put(wr);
	if (!(qp->attr.access & IB_ACCESS_REMOTE_WRITE))
		return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID, IB_WC_SUCCESS);
	*wr = (struct rxe_resp_xfer){
		.va = rxe_reth_va(pkt), .len = len, .resid = len,
	};
	if (!len)
		return RXE_OUT_OK;
	mr = rxe_rkey_get(qp, rxe_reth_rkey(pkt), wr->va, len,
			  IB_ACCESS_REMOTE_WRITE);
	if (IS_ERR_OR_NULL(mr))
		return rxe_resp_fail(qp, RXE_AETH_NAK_ACCESS, IB_WC_SUCCESS);
	wr->mr = mr;
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_write_res(struct rxe_qp *qp)
{
	enum rxe_resp_out out;

	if (rxe_resp_pkt(qp)->flags & RXE_OPF_RETH) {
		out = rxe_resp_write_start(qp);
		if (out != RXE_OUT_OK)
			return out;
	}
	/* WRITE with immediate consumes a receive WQE on its last packet */
	return rxe_resp_send_res(qp);
}

static enum rxe_resp_out rxe_resp_write_exec(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_xfer *wr = &qp->resp.wr;
	u32 len = rxe_pkt_payload_len(pkt);

	if (len > wr->resid)
		return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID, IB_WC_SUCCESS);
	if (len && rxe_mr_copy(wr->mr, wr->va, rxe_pkt_payload(pkt), len,
			       RXE_TO_MEM))
		return rxe_resp_fail(qp, RXE_AETH_NAK_ACCESS, IB_WC_SUCCESS);
	wr->va += len;
	wr->resid -= len;
	if (pkt->flags & RXE_OPF_LAST)
		rxe_resp_xfer_put(wr);
	return RXE_OUT_OK;
}

/* --- RDMA READ ------------------------------------------------------------- */

static enum rxe_resp_out rxe_resp_read_res(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_xfer *rd = &qp->resp.rd;
	u32 len = rxe_reth_len(pkt);
	struct rxe_mr *mr;

	if (!(qp->attr.access & IB_ACCESS_REMOTE_READ) ||
	    len > RXE_MAX_MSG_SIZE)
		return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID, IB_WC_SUCCESS);
	if (!rxe_resp_rd_ring(qp))
		return rxe_resp_wait_mem(qp);
	rxe_resp_xfer_put(rd);
	*rd = (struct rxe_resp_xfer){
		.va = rxe_reth_va(pkt), .len = len, .resid = len,
		.psn = pkt->psn, .first = pkt->psn,
		.npkts = rxe_resp_read_npkts(qp, len),
	};
	if (!len)
		return RXE_OUT_OK;
	mr = rxe_rkey_get(qp, rxe_reth_rkey(pkt), rd->va, len,
			  IB_ACCESS_REMOTE_READ);
	if (IS_ERR_OR_NULL(mr))
		return rxe_resp_fail(qp, RXE_AETH_NAK_ACCESS, IB_WC_SUCCESS);
	rd->mr = mr;
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_read_exec(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	const struct rxe_resp_xfer *rd = &qp->resp.rd;
	struct rxe_resp_rd rec = {
		.va = rd->va, .psn = pkt->psn, .npkts = rd->npkts,
		.rkey = rxe_reth_rkey(pkt), .len = rd->len,
		.opcode = pkt->opcode,
	};

	rxe_resp_rd_keep(qp, &rec);
	return RXE_OUT_OK;
}

/* Response opcode by position: @index of @npkts responses. */
static u8 rxe_resp_read_opcode(u32 index, u32 npkts)
{
	if (npkts == 1)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY;
	if (index == 0)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST;
	if (index == npkts - 1)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST;
	return IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE;
}

/* One READ response, its payload copied from the MR straight into it. */
static int rxe_resp_read_one(struct rxe_qp *qp)
{
	struct rxe_resp_xfer *rd = &qp->resp.rd;
	u32 index = rxe_psn_diff(rd->psn, rd->first);
	u32 len = min(rd->resid, rxe_resp_mtu(qp));
	struct rxe_pkt reply;
	struct sk_buff *skb;

	skb = rxe_resp_reply_new(qp, &reply,
				 rxe_resp_read_opcode(index, rd->npkts), len,
				 rxe_resp_syndrome_ack(), rd->psn);
	if (!skb)
		return -ENOMEM;
	if (len && rxe_mr_copy(rd->mr, rd->va, rxe_pkt_payload(&reply), len,
			       RXE_FROM_MEM)) {
		kfree_skb(skb);
		return -EFAULT;
	}
	rxe_resp_xmit(qp, skb, &reply);
	rd->va += len;
	rd->resid -= len;
	rd->psn = rxe_psn_add(rd->psn, 1);
	return 0;
}

/* Send READ responses; a long READ goes out over several runs. */
static enum rxe_resp_out rxe_resp_read_send(struct rxe_qp *qp)
{
	struct rxe_resp_xfer *rd = &qp->resp.rd;
	u32 end = rxe_psn_add(rd->first, rd->npkts);
	enum rxe_resp_out out;
	int i, err;

	if (rxe_resp_ack_flush(qp))
		return rxe_resp_wait_mem(qp);
	for (i = 0; i < RXE_RESP_READ_BURST; i++) {
		if (rd->psn == end) {
			rxe_resp_xfer_put(rd);
			return RXE_OUT_OK;
		}
		err = rxe_resp_read_one(qp);
		if (err == -ENOMEM)
			return rxe_resp_wait_mem(qp);
		if (err) {
			rxe_resp_xfer_put(rd);
			out = rxe_resp_fail(qp, RXE_AETH_NAK_ACCESS,
					    IB_WC_SUCCESS);
			qp->resp.nak_psn = rd->psn;
			return out;
		}
	}
	return RXE_OUT_YIELD;
}

/* A duplicate READ: resend from its PSN what the kept request covered. */
static enum rxe_resp_out rxe_resp_read_dup(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_xfer *rd = &qp->resp.rd;
	const struct rxe_resp_rd *e = rxe_resp_rd_find(qp, pkt->psn);
	u64 skip;

	if (!e || !(rxe_opcode[e->opcode].flags & RXE_OPF_READ)) {
		rxe_dbg_qp(qp, "duplicate READ psn %#x unknown\n", pkt->psn);
		return RXE_OUT_DROP;
	}
	skip = (u64)rxe_psn_diff(pkt->psn, e->psn) * rxe_resp_mtu(qp);
	rxe_resp_xfer_put(rd);
	*rd = (struct rxe_resp_xfer){
		.va = e->va + skip, .len = e->len,
		.resid = e->len - min_t(u64, skip, e->len),
		.psn = pkt->psn, .first = e->psn, .npkts = e->npkts,
	};
	if (!rd->resid)
		return RXE_OUT_READ;
	rd->mr = rxe_rkey_get(qp, e->rkey, rd->va, rd->resid,
			      IB_ACCESS_REMOTE_READ);
	if (IS_ERR_OR_NULL(rd->mr)) {
		rd->mr = NULL;
		rxe_dbg_qp(qp, "duplicate READ psn %#x: R_Key gone\n",
			   pkt->psn);
		return RXE_OUT_DROP;
	}
	return RXE_OUT_READ;
}

/* --- ATOMIC ------------------------------------------------------------------ */

static enum rxe_resp_out rxe_resp_atomic_res(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_xfer *rd = &qp->resp.rd;
	u64 va = rxe_atmeth_va(pkt);
	struct rxe_mr *mr;

	if (!(qp->attr.access & IB_ACCESS_REMOTE_ATOMIC) ||
	    !IS_ALIGNED(va, sizeof(u64)))
		return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID, IB_WC_SUCCESS);
	if (!rxe_resp_rd_ring(qp))
		return rxe_resp_wait_mem(qp);
	rxe_resp_xfer_put(rd);
	mr = rxe_rkey_get(qp, rxe_atmeth_rkey(pkt), va, sizeof(u64),
			  IB_ACCESS_REMOTE_ATOMIC);
	if (IS_ERR_OR_NULL(mr))
		return rxe_resp_fail(qp, RXE_AETH_NAK_ACCESS, IB_WC_SUCCESS);
	rd->mr = mr;
	return RXE_OUT_OK;
}

/* Executed exactly once; the result is kept for duplicates. */
static enum rxe_resp_out rxe_resp_atomic_exec(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_rd rec = {
		.va = rxe_atmeth_va(pkt), .psn = pkt->psn, .npkts = 1,
		.rkey = rxe_atmeth_rkey(pkt), .len = sizeof(u64),
		.opcode = pkt->opcode,
	};
	int err;

	err = rxe_mr_atomic(qp->resp.rd.mr, rec.va,
			    pkt->opcode == IB_OPCODE_RC_COMPARE_SWAP,
			    rxe_atmeth_swap_add(pkt), rxe_atmeth_comp(pkt),
			    &rec.orig);
	rxe_resp_xfer_put(&qp->resp.rd);
	if (err)
		return rxe_resp_fail(qp, RXE_AETH_NAK_ACCESS, IB_WC_SUCCESS);
	rxe_resp_rd_keep(qp, &rec);
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_atomic_reply(struct rxe_qp *qp)
{
	const struct rxe_resp_rd *e = rxe_resp_rd_last(qp);

	if (rxe_resp_ack_flush(qp) ||
	    rxe_resp_send_atomic_ack(qp, e->psn, e->orig))
		return rxe_resp_wait_mem(qp);
	return RXE_OUT_OK;
}

/* A duplicate ATOMIC gets the original result again, never a rerun. */
static enum rxe_resp_out rxe_resp_atomic_dup(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	const struct rxe_resp_rd *e = rxe_resp_rd_find(qp, pkt->psn);

	if (!e || !(rxe_opcode[e->opcode].flags & RXE_OPF_ATOMIC)) {
		rxe_dbg_qp(qp, "duplicate ATOMIC psn %#x unknown\n", pkt->psn);
		return RXE_OUT_DROP;
	}
	if (rxe_resp_ack_flush(qp) ||
	    rxe_resp_send_atomic_ack(qp, e->psn, e->orig))
		return rxe_resp_wait_mem(qp);
	return RXE_OUT_OK;
}

/* --- the steps ----------------------------------------------------------------- */

typedef enum rxe_resp_out (*rxe_resp_fn)(struct rxe_qp *qp);

/* What each kind of request does at the steps that depend on it. */
static const struct rxe_resp_ops {
	rxe_resp_fn res;
	rxe_resp_fn exec;
	rxe_resp_fn reply;
	rxe_resp_fn dup;
} rxe_resp_ops[RXE_NUM_KINDS] = {
	[RXE_KIND_SEND] = {
		rxe_resp_send_res, rxe_resp_send_exec,
		rxe_resp_ack_reply, rxe_resp_ack_dup,
	},
	[RXE_KIND_WRITE] = {
		rxe_resp_write_res, rxe_resp_write_exec,
		rxe_resp_ack_reply, rxe_resp_ack_dup,
	},
	[RXE_KIND_READ] = {
		rxe_resp_read_res, rxe_resp_read_exec,
		rxe_resp_read_send, rxe_resp_read_dup,
	},
	[RXE_KIND_ATOMIC] = {
		rxe_resp_atomic_res, rxe_resp_atomic_exec,
		rxe_resp_atomic_reply, rxe_resp_atomic_dup,
	},
};

static const struct rxe_resp_ops *rxe_resp_ops_of(struct rxe_qp *qp)
{
	return &rxe_resp_ops[rxe_resp_kind(rxe_resp_pkt(qp))];
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

	if (rxe_resp_is_ud(qp))
		return RXE_OUT_OK;
	if (!resp->psn_valid) {
		resp->psn = qp->attr.rq_psn & RXE_PSN_MASK;
		resp->psn_valid = true;
	}
	if (!rxe_resp_is_rc(qp))
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

	if (rxe_resp_is_ud(qp))
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

/* UD completions say where the datagram came from. */
static void rxe_resp_wc_ud(struct rxe_qp *qp, struct ib_wc *wc)
{
	struct sk_buff *skb = qp->resp.skb;

	wc->src_qp = rxe_deth_sqp(RXE_SKB_PKT(skb));
	wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc->network_hdr_type = ip_hdr(skb)->version == 4 ?
			       RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6;
	if (skb_mac_header_was_set(skb) && skb_mac_header_len(skb) >= ETH_HLEN) {
		ether_addr_copy(wc->smac, eth_hdr(skb)->h_source);
		wc->wc_flags |= IB_WC_WITH_SMAC;
	}
}

/* The message ends: complete its receive WQE. */
static enum rxe_resp_out rxe_resp_recv_complete(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;
	struct ib_wc wc;
	u32 rkey;

	rxe_resp_wc_init(qp, &wc, IB_WC_SUCCESS);
	wc.byte_len = resp->dma.length - resp->dma.resid;
	if (pkt->flags & RXE_OPF_WRITE) {
		wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
		wc.byte_len = resp->wr.len - resp->wr.resid;
	}
	if (pkt->flags & RXE_OPF_IMMDT) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = rxe_immdt_imm(pkt);
	}
	if (pkt->flags & RXE_OPF_IETH) {
		rkey = rxe_ieth_rkey(pkt);
		if (rxe_key_invalidate(qp, rkey, true))
			return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID,
					     IB_WC_LOC_PROT_ERR);
		wc.wc_flags |= IB_WC_WITH_INVALIDATE;
		wc.ex.invalidate_rkey = rkey;
	}
	if (rxe_resp_is_ud(qp))
		rxe_resp_wc_ud(qp, &wc);
	resp->wqe_valid = false;
	if (rxe_cq_post(qp->rcq, &wc, rxe_bth_se(pkt)))
		rxe_dbg_qp(qp, "receive completion lost\n");
	return RXE_OUT_OK;
}

static enum rxe_resp_out rxe_resp_step_complete(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	enum rxe_resp_out out;

	if (pkt->flags & RXE_OPF_COMP) {
		out = rxe_resp_recv_complete(qp);
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

	if (!rxe_resp_is_ud(qp)) {
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
	if (rxe_resp_is_ud(qp))
		return RXE_OUT_OK;
	if (rxe_resp_is_rc(qp) &&
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
	[RXE_STEP_REPLAY] = rxe_resp_read_send,
	[RXE_STEP_AHEAD] = rxe_resp_step_ahead,
	[RXE_STEP_NAK] = rxe_resp_step_nak,
	[RXE_STEP_FATAL] = rxe_resp_step_fatal,
	[RXE_STEP_DROP] = rxe_resp_step_drop,
	[RXE_STEP_FLUSH] = rxe_resp_step_flush,
};

/* --- the task and the QP's life -------------------------------------------------- */

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
 * Queues the packet and runs the responder task. Consumes @skb. Any
 * context.
 */
void rxe_resp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb)
{
	skb_queue_tail(&qp->req_pkts, skb);
	rxe_task_run(&qp->resp_task);
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
	kfree(resp->rd_ring);
	resp->rd_ring = NULL;
	resp->rd_slots = 0;
	resp->rd_next = 0;
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
