// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_resp_read.c - the responder's RDMA READ and ATOMIC: the responses they
 * return, and the ring that replays them for duplicates.
 */

#include <linux/slab.h>

#include "rxe_resp_priv.h"

/*
 * One READ response per step, as every other engine step sends or takes
 * one packet. The requester's completer, which takes one response per
 * step, often shares the CPU's workqueue with this responder (one device
 * to itself, or the peer's softirq on the same CPU): with equal steps
 * neither runs ahead, while a burst of several responses per step let the
 * responder outrun the completer, whose queue then grew until its
 * retransmit timer fired on answers it already had.
 */

/* --- READ/ATOMIC requests kept for replay --------------------------------- */

/* PSNs (responses) a READ of @len bytes takes: at least one. */
static u32 rxe_resp_read_npkts(const struct rxe_qp *qp, u32 len)
{
	return max_t(u32, DIV_ROUND_UP(len, rxe_resp_mtu(qp)), 1);
}

/* The replay ring, allocated with the first READ or ATOMIC. */
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

/* --- RDMA READ ------------------------------------------------------------ */

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
		.psn = pkt->psn, .first = pkt->psn, .start = pkt->psn,
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

/*
 * A requester that timed out asks again for the READ being answered, from
 * its first missing PSN. Rather than finishing this stream and then
 * replaying the rest a second time (which on a slow path draws more
 * timeouts, more duplicates and runs out of retries), take that request
 * off the queue and carry on from its PSN. Only back to where this
 * stream's R_Key check began; a request for anything else waits its turn.
 */
static void rxe_resp_read_restart(struct rxe_qp *qp)
{
	struct rxe_resp_xfer *rd = &qp->resp.rd;
	struct sk_buff_head *q = &qp->req_pkts;
	struct sk_buff *skb;
	unsigned long flags;
	u32 psn = 0;
	s32 off = -1;
	u64 skip;

	spin_lock_irqsave(&q->lock, flags);
	skb = skb_peek(q);
	if (skb) {
		psn = RXE_SKB_PKT(skb)->psn;
		off = rxe_psn_diff(psn, rd->first);
		if (RXE_SKB_PKT(skb)->opcode != IB_OPCODE_RC_RDMA_READ_REQUEST ||
		    rxe_psn_diff(psn, rd->start) < 0 || off >= rd->npkts)
			skb = NULL;
		else
			__skb_unlink(skb, q);
	}
	spin_unlock_irqrestore(&q->lock, flags);
	if (!skb)
		return;
	rxe_counter_inc(qp->rxe, RXE_CNT_DUP_REQ);
	if (rxe_psn_diff(psn, rd->psn) < 0) {
		skip = (u64)off * rxe_resp_mtu(qp);
		rd->va -= rd->len - rd->resid;
		rd->va += skip;
		rd->resid = rd->len - min_t(u64, skip, rd->len);
		rd->psn = psn;
	}
	rxe_qp_pkt_free(skb);
}

/*
 * Send the next READ response (one per step, see above); a long READ goes
 * out over several steps, the task yielding in between.
 */
static enum rxe_resp_out rxe_resp_read_send(struct rxe_qp *qp)
{
	struct rxe_resp_xfer *rd = &qp->resp.rd;
	enum rxe_resp_out out;
	int err;

	if (rxe_resp_ack_flush(qp))
		return rxe_resp_wait_mem(qp);
	rxe_resp_read_restart(qp);
	if (rd->psn == rxe_psn_add(rd->first, rd->npkts)) {
		rxe_resp_xfer_put(rd);
		return RXE_OUT_OK;
	}
	err = rxe_resp_read_one(qp);
	if (err == -ENOMEM)
		return rxe_resp_wait_mem(qp);
	if (err) {
		rxe_resp_xfer_put(rd);
		out = rxe_resp_fail(qp, RXE_AETH_NAK_ACCESS, IB_WC_SUCCESS);
		qp->resp.nak_psn = rd->psn;
		return out;
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
		.start = pkt->psn,
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

/* --- ATOMIC --------------------------------------------------------------- */

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

/**
 * rxe_resp_rd_free() - free the replay ring
 * @qp: the QP, reset or being destroyed; its responder task is stopped
 */
void rxe_resp_rd_free(struct rxe_qp *qp)
{
	struct rxe_resp_state *resp = &qp->resp;

	kfree(resp->rd_ring);
	resp->rd_ring = NULL;
	resp->rd_slots = 0;
	resp->rd_next = 0;
}

const struct rxe_resp_ops rxe_resp_read_ops = {
	.res = rxe_resp_read_res,
	.exec = rxe_resp_read_exec,
	.reply = rxe_resp_read_send,
	.dup = rxe_resp_read_dup,
};

const struct rxe_resp_ops rxe_resp_atomic_ops = {
	.res = rxe_resp_atomic_res,
	.exec = rxe_resp_atomic_exec,
	.reply = rxe_resp_atomic_reply,
	.dup = rxe_resp_atomic_dup,
};
