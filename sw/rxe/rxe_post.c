// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_post.c - post_send and post_recv: check work requests, copy them
 * into the send or receive queue, and kick the engine that consumes them.
 */
#include "rxe_qp.h"
#include "rxe_opcode.h"
#include "rxe_ops.h"

/* --- send -------------------------------------------------------------- */

static u64 post_sge_total(const struct ib_sge *sge, int num_sge)
{
	u64 len = 0;
	int i;

	for (i = 0; i < num_sge; i++)
		len += sge[i].length;
	return len;
}

static bool post_is_atomic(enum ib_wr_opcode op)
{
	return op == IB_WR_ATOMIC_CMP_AND_SWP || op == IB_WR_ATOMIC_FETCH_AND_ADD;
}

/* Only SEND and WRITE carry data the requester may take inline. */
static bool post_is_inline(const struct ib_send_wr *wr)
{
	return (wr->send_flags & IB_SEND_INLINE) &&
	       !rxe_wr_is_rd_atomic(wr->opcode) &&
	       !rxe_wr_is_local(wr->opcode);
}

static int post_check_ud(struct rxe_qp *qp, const struct ib_send_wr *wr,
			 u64 len)
{
	const struct ib_ud_wr *ud = ud_wr(wr);

	if (!ud->ah || !ud->remote_qpn || ud->remote_qpn > RXE_QPN_MASK)
		return -EINVAL;
	if (len > rxe_qp_mtu(qp))
		return -EINVAL;
	return 0;
}

static int post_check_send(struct rxe_qp *qp, const struct ib_send_wr *wr,
			   u64 len)
{
	if (!rxe_wr_allowed(rxe_qp_type(qp), wr->opcode) ||
	    wr->opcode == IB_WR_BIND_MW)
		return -EINVAL;
	if (rxe_wr_is_local(wr->opcode))
		return wr->opcode == IB_WR_REG_MR && !reg_wr(wr)->mr ?
		       -EINVAL : 0;
	if (wr->num_sge < 0)
		return -EINVAL;
	if (post_is_inline(wr) ? len > qp->sq_max_inline :
				 wr->num_sge > qp->sq_max_sge)
		return -EINVAL;
	if (len > RXE_MAX_MSG_SIZE)
		return -EINVAL;
	if (post_is_atomic(wr->opcode) &&
	    ((atomic_wr(wr)->remote_addr & 7) || len < sizeof(u64)))
		return -EINVAL;
	if (rxe_qp_is_ud(qp))
		return post_check_ud(qp, wr, len);
	return 0;
}

/* The opcode-specific part of the WR. */
static void post_copy_wr(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			 const struct ib_send_wr *wr)
{
	if (wr->opcode == IB_WR_REG_MR) {
		wqe->wr.reg.mr = reg_wr(wr)->mr;
		wqe->wr.reg.key = reg_wr(wr)->key;
		wqe->wr.reg.access = reg_wr(wr)->access;
	} else if (post_is_atomic(wr->opcode)) {
		wqe->wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.atomic.rkey = atomic_wr(wr)->rkey;
	} else if (rxe_wr_is_local(wr->opcode)) {
		/* LOCAL_INV: only ex.invalidate_rkey */
	} else if (rxe_qp_is_ud(qp)) {
		wqe->wr.ud.av = to_rah(ud_wr(wr)->ah)->av;
		wqe->wr.ud.remote_qpn = ud_wr(wr)->remote_qpn;
		wqe->wr.ud.remote_qkey = ud_wr(wr)->remote_qkey;
	} else if (wr->opcode != IB_WR_SEND &&
		   wr->opcode != IB_WR_SEND_WITH_IMM &&
		   wr->opcode != IB_WR_SEND_WITH_INV) {
		wqe->wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.rdma.rkey = rdma_wr(wr)->rkey;
	}
}

/* Inline data is copied now: the caller may reuse its buffer at once. */
static void post_copy_data(struct rxe_send_wqe *wqe,
			   const struct ib_send_wr *wr)
{
	u8 *dst = rxe_wqe_inline(wqe);
	int i;

	if (!(wqe->send_flags & IB_SEND_INLINE)) {
		wqe->num_sge = wr->num_sge;
		memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
		return;
	}
	wqe->num_sge = 0;
	for (i = 0; i < wr->num_sge; i++) {
		const struct ib_sge *sge = &wr->sg_list[i];

		memcpy(dst, (void *)(uintptr_t)sge->addr, sge->length);
		dst += sge->length;
	}
}

static int post_send_one(struct rxe_qp *qp, const struct ib_send_wr *wr)
	__must_hold(&qp->sq_lock)
{
	u64 len = wr->num_sge > 0 ? post_sge_total(wr->sg_list, wr->num_sge) : 0;
	struct rxe_send_wqe *wqe;
	int err;

	lockdep_assert_held(&qp->sq_lock);
	err = post_check_send(qp, wr, len);
	if (err) {
		rxe_dbg_qp(qp, "bad send WR: opcode %u, %d SGEs, %llu bytes\n",
			   wr->opcode, wr->num_sge, len);
		return err;
	}
	if (rxe_queue_full(&qp->sq))
		return -ENOMEM;

	wqe = rxe_queue_tail(&qp->sq);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;
	wqe->send_flags = wr->send_flags & ~IB_SEND_INLINE;
	if (post_is_inline(wr))
		wqe->send_flags |= IB_SEND_INLINE;
	wqe->ex.imm_data = wr->ex.imm_data;
	wqe->length = post_is_atomic(wr->opcode) ? sizeof(u64) : len;
	if (rxe_wr_is_local(wr->opcode))
		wqe->length = 0;
	post_copy_wr(qp, wqe, wr);
	if (!rxe_wr_is_local(wr->opcode))
		post_copy_data(wqe, wr);
	rxe_queue_produce(&qp->sq);
	return 0;
}

/**
 * rxe_post_send_user() - queue one work request built from a user SQ slot
 * @qp: a user QP
 * @wr: the request; its SGE list (or inline data) is kernel memory
 *
 * Context: any context; the caller holds qp->sq_lock.
 * Return: as one request of rxe_post_send().
 */
int rxe_post_send_user(struct rxe_qp *qp, const struct ib_send_wr *wr)
	__must_hold(&qp->sq_lock)
{
	return post_send_one(qp, wr);
}

/* No WR opcode: the requester cannot build a packet for it. */
#define RXE_WR_REFUSED		0xff

/**
 * rxe_post_send_bad() - queue a WQE that completes with IB_WC_LOC_QP_OP_ERR
 * @qp: a user QP whose SQ is not full
 * @wr_id: the refused WQE's cookie, for its completion
 *
 * The requester fails it in order (its opcode has no packet) and the
 * completer then moves the QP to the error state, as 6.1 does for a user
 * WQE it cannot send.
 *
 * Context: any context; the caller holds qp->sq_lock.
 */
void rxe_post_send_bad(struct rxe_qp *qp, u64 wr_id)
	__must_hold(&qp->sq_lock)
{
	struct rxe_send_wqe *wqe = rxe_queue_tail(&qp->sq);

	lockdep_assert_held(&qp->sq_lock);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr_id;
	wqe->opcode = RXE_WR_REFUSED;
	wqe->send_flags = IB_SEND_SIGNALED;
	rxe_queue_produce(&qp->sq);
}

/**
 * rxe_post_send_bind() - queue a memory window bind from a user SQ slot
 * @qp: a user RC or UC QP whose SQ is not full
 * @uw: the work request, copied out of the ring
 *
 * The keys are only looked up when the requester reaches the WQE, in
 * order (rxe_mw_bind_keys()).
 *
 * Context: any context; the caller holds qp->sq_lock.
 */
void rxe_post_send_bind(struct rxe_qp *qp, const struct rxe_send_wr *uw)
	__must_hold(&qp->sq_lock)
{
	struct rxe_send_wqe *wqe = rxe_queue_tail(&qp->sq);

	lockdep_assert_held(&qp->sq_lock);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = uw->wr_id;
	wqe->opcode = IB_WR_BIND_MW;
	wqe->send_flags = uw->send_flags & (IB_SEND_SIGNALED | IB_SEND_FENCE);
	wqe->wr.mw.addr = uw->wr.mw.addr;
	wqe->wr.mw.length = uw->wr.mw.length;
	wqe->wr.mw.mr_lkey = uw->wr.mw.mr_lkey;
	wqe->wr.mw.mw_rkey = uw->wr.mw.mw_rkey;
	wqe->wr.mw.rkey = uw->wr.mw.rkey;
	wqe->wr.mw.access = uw->wr.mw.access;
	rxe_queue_produce(&qp->sq);
}

/* Queue a kernel caller's chain of requests. */
static int post_send_chain(struct rxe_qp *qp, const struct ib_send_wr *wr,
			   const struct ib_send_wr **bad_wr)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&qp->sq_lock, flags);
	for (; wr; wr = wr->next) {
		err = post_send_one(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	return err;
}

/**
 * rxe_post_send() - the post_send verb
 * @ibqp:   the QP
 * @wr:     chain of work requests
 * @bad_wr: set to the first request not queued
 *
 * Queues the requests in order and runs the requester (in the caller's
 * context when it is idle and interrupts are enabled; completions are
 * always posted from the completer's own context). In the error state the
 * requests complete with IB_WC_WR_FLUSH_ERR.
 * Context: any.
 *
 * For a user QP (@wr NULL) this is the doorbell: the WQEs the process
 * wrote into its SQ ring are queued (rxe_uqp_sq_pull()).
 *
 * Return: 0; -EINVAL for a QP not yet in RTS or a bad request; -ENOMEM
 * when the send queue is full; -EOPNOTSUPP for requests on a user QP.
 */
int rxe_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state state = rxe_qp_state(qp);
	int err = 0;

	if (state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	/* A user QP's requests are in its SQ ring: this is the doorbell. */
	if (qp->is_user && wr) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	if (qp->is_user)
		rxe_uqp_sq_pull(qp);
	else
		err = post_send_chain(qp, wr, bad_wr);

	/* Flushing calls the completion handler: not in the caller's context. */
	if (rxe_qp_state(qp) == IB_QPS_ERR)
		rxe_task_sched(&qp->comp_task);
	else
		rxe_task_run(&qp->req_task);
	return err;
}

/* --- receive ----------------------------------------------------------- */

static int post_recv_one(struct rxe_qp *qp, const struct ib_recv_wr *wr)
	__must_hold(&qp->rq_lock)
{
	lockdep_assert_held(&qp->rq_lock);
	return rxe_queue_post_recv(&qp->rq, wr, qp->rq_max_sge);
}

/**
 * rxe_post_recv() - the post_recv verb (QPs without an SRQ)
 * @ibqp:   the QP
 * @wr:     chain of work requests
 * @bad_wr: set to the first request not queued
 *
 * Allowed from INIT on. In the error state the requests complete with
 * IB_WC_WR_FLUSH_ERR at once; otherwise the responder is kicked, in case
 * it waits for a receive WQE.
 * Context: any.
 *
 * Return: 0; -EINVAL in RESET, with an SRQ, or for a bad request; -ENOMEM
 * when the receive queue is full.
 */
int rxe_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	unsigned long flags;
	int err = 0;

	if (qp->srq || rxe_qp_state(qp) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_lock, flags);
	for (; wr; wr = wr->next) {
		err = post_recv_one(qp, wr);
		if (err) {
			rxe_dbg_qp(qp, "receive WR not queued: %d\n", err);
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&qp->rq_lock, flags);

	if (rxe_qp_state(qp) == IB_QPS_ERR)
		rxe_resp_flush(qp);
	else
		rxe_task_run(&qp->resp_task);
	return err;
}
