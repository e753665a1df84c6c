// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_resp_send.c - the responder's SEND and RDMA WRITE: receive WQEs, data
 * placement, ACKs and receive completions.
 */

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <kunit/visibility.h>

#include "rxe_resp_priv.h"

/* Requests whose ACK may wait for the next ones before it is sent. */
#define RXE_RESP_ACK_BATCH	8
/*
 * How far (in PSNs) the newest request may run ahead of the oldest one
 * whose ACK is held. A requester (ours or the inbox one) stops at 128
 * unacknowledged packets and asks for an ACK every 32 or so: an ACK held
 * for longer than a quarter of that window leaves it idle, waiting for
 * the responder to drain its whole queue.
 */
#define RXE_RESP_ACK_SPAN	32

/* --- receive WQEs ------------------------------------------------------- */

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

	if (qp->is_user) {
		bool got;

		spin_lock_irqsave(&qp->resp.lock, flags);
		got = rxe_uring_take_recv(&qp->urq, qp->rq_max_sge, dst,
					  RXE_MAX_SGE);
		spin_unlock_irqrestore(&qp->resp.lock, flags);
		return got;
	}
	spin_lock_irqsave(&qp->resp.lock, flags);
	src = rxe_queue_head(&qp->rq);
	if (src) {
		num_sge = min3(READ_ONCE(src->num_sge), qp->rq_max_sge,
			       (u32)RXE_MAX_SGE);
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

/**
 * rxe_resp_wqe_fail() - complete the held receive WQE with an error
 * @qp:     the responder's QP
 * @status: completion status
 *
 * Nothing happens when no WQE is held. Responder task only.
 */
void rxe_resp_wqe_fail(struct rxe_qp *qp, enum ib_wc_status status)
{
	struct ib_wc wc;

	if (!qp->resp.wqe_valid)
		return;
	rxe_resp_wc_init(qp, &wc, status);
	qp->resp.wqe_valid = false;
	if (rxe_cq_post(qp->rcq, &wc, true))
		rxe_dbg_qp(qp, "receive completion lost\n");
}

/*
 * The oldest WQE of the QP's RQ for a flush: a kernel RQ's head (consumed
 * by the caller), or a user RQ ring's, taken into @scratch (its wr_id).
 */
static struct rxe_recv_wqe *rxe_resp_rq_pop(struct rxe_qp *qp,
					    struct rxe_recv_wqe *scratch)
{
	if (!qp->is_user)
		return rxe_queue_head(&qp->rq);
	return rxe_uring_take_recv(&qp->urq, qp->rq_max_sge, scratch, 0) ?
	       scratch : NULL;
}

/**
 * rxe_resp_flush_rq() - complete every WQE left on the QP's RQ as flushed
 * @qp: a QP in error
 *
 * Nothing for an SRQ QP (the SRQ is shared). Takes qp->resp.lock against
 * the responder taking WQEs. Any context.
 */
void rxe_resp_flush_rq(struct rxe_qp *qp)
{
	struct rxe_recv_wqe *wqe, uwqe;
	unsigned long flags;
	struct ib_wc wc;

	if (qp->srq || !qp->rcq)
		return;
	spin_lock_irqsave(&qp->resp.lock, flags);
	while ((wqe = rxe_resp_rq_pop(qp, &uwqe))) {
		memset(&wc, 0, sizeof(wc));
		wc.wr_id = wqe->wr_id;
		wc.status = IB_WC_WR_FLUSH_ERR;
		wc.opcode = IB_WC_RECV;
		wc.qp = &qp->ibqp;
		if (!qp->is_user)
			rxe_queue_consume(&qp->rq);
		rxe_cq_post(qp->rcq, &wc, true);
	}
	spin_unlock_irqrestore(&qp->resp.lock, flags);
}

/**
 * rxe_resp_abandon() - give the open message up
 * @qp: the responder's QP (UC after a loss or a bad packet)
 *
 * The held receive WQE is kept, rewound, for the next message; a WRITE
 * forgets its MR. The next request must start a message. Responder task
 * only.
 */
void rxe_resp_abandon(struct rxe_qp *qp)
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

/* --- SEND ---------------------------------------------------------------- */

/* Packets that consume a receive WQE need one (RNR NAK on RC if none). */
static enum rxe_resp_out rxe_resp_send_res(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;

	if (!(pkt->flags & RXE_OPF_RWR) || rxe_resp_wqe_get(qp))
		return RXE_OUT_OK;
	rxe_dbg_qp(qp, "%s psn %#x: no receive WQE\n",
		   rxe_opcode_name(pkt->opcode), pkt->psn);
	if (!rxe_qp_is_rc(qp))
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

	if (rxe_qp_is_ud(qp))
		need += sizeof(union rdma_network_hdr);
	if (need > resp->dma.resid)
		return rxe_resp_fail(qp, RXE_AETH_NAK_INVALID, IB_WC_LOC_LEN_ERR);
	if (rxe_qp_is_ud(qp) && rxe_resp_grh_copy(qp))
		goto err_copy;
	if (len && rxe_sgl_copy(rxe_resp_wqe_pd(qp), &resp->dma,
				rxe_resp_wqe(qp)->sge, rxe_pkt_payload(pkt),
				len, RXE_TO_MEM))
		goto err_copy;
	return RXE_OUT_OK;

err_copy:
	return rxe_resp_fail(qp, RXE_AETH_NAK_OPERATIONAL, IB_WC_LOC_PROT_ERR);
}

/**
 * rxe_resp_ack_hold() - whether the ACK a request asks for may wait
 * @owed: ACK-requesting requests whose ACK is already held
 * @from: PSN of the oldest of them (meaningless while @owed is 0)
 * @psn:  PSN of this request
 * @more: more requests of the QP are queued behind this one
 *
 * Holding is worth it only when a later request will be handled right
 * away (one ACK then covers both), and only within RXE_RESP_ACK_BATCH
 * requests and RXE_RESP_ACK_SPAN PSNs of the oldest one held.
 *
 * Return: true to hold the ACK, false to send it now.
 */
bool rxe_resp_ack_hold(u32 owed, u32 from, u32 psn, bool more)
{
	if (!more || owed + 1 >= RXE_RESP_ACK_BATCH)
		return false;
	return !owed || rxe_psn_diff(psn, from) < RXE_RESP_ACK_SPAN;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_resp_ack_hold);

/* SEND and WRITE: ACK when asked, coalescing while more requests wait. */
static enum rxe_resp_out rxe_resp_ack_reply(struct rxe_qp *qp)
{
	struct rxe_pkt *pkt = rxe_resp_pkt(qp);
	struct rxe_resp_state *resp = &qp->resp;

	if (!rxe_qp_is_rc(qp))
		return RXE_OUT_OK;
	if (!rxe_bth_ackreq(pkt)) {
		if (pkt->flags & RXE_OPF_LAST)
			rxe_counter_inc(qp->rxe, RXE_CNT_ACK_DEFERRED);
		return RXE_OUT_OK;
	}
	if (rxe_resp_ack_hold(resp->ack_owed, resp->ack_from, pkt->psn,
			      !skb_queue_empty(&qp->req_pkts))) {
		if (!resp->ack_owed)
			resp->ack_from = pkt->psn;
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

/* --- RDMA WRITE ---------------------------------------------------------- */

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

/* --- receive completions ------------------------------------------------- */

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

/**
 * rxe_resp_complete() - the current request ends a message: complete its
 * receive WQE
 * @qp: the responder's QP
 *
 * Posts the receive completion (solicited when the BTH says so), after
 * invalidating the R_Key of a SEND with invalidate. Responder task only.
 *
 * Return: RXE_OUT_OK, or the outcome of rxe_resp_fail().
 */
enum rxe_resp_out rxe_resp_complete(struct rxe_qp *qp)
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
	if (rxe_qp_is_ud(qp))
		rxe_resp_wc_ud(qp, &wc);
	resp->wqe_valid = false;
	if (rxe_cq_post(qp->rcq, &wc, rxe_bth_se(pkt)))
		rxe_dbg_qp(qp, "receive completion lost\n");
	return RXE_OUT_OK;
}

const struct rxe_resp_ops rxe_resp_send_ops = {
	.res = rxe_resp_send_res,
	.exec = rxe_resp_send_exec,
	.reply = rxe_resp_ack_reply,
	.dup = rxe_resp_ack_dup,
};

const struct rxe_resp_ops rxe_resp_write_ops = {
	.res = rxe_resp_write_res,
	.exec = rxe_resp_write_exec,
	.reply = rxe_resp_ack_reply,
	.dup = rxe_resp_ack_dup,
};
