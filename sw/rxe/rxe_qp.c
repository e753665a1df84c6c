// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_qp.c - queue pairs: create, modify, query and destroy; lookup by
 * QPN for the receive path; moving a QP to the error state.
 *
 * A QP is built completely (queues, engines, QPN reserved) before it is
 * published in rxe->qp_xa, and unpublished before it is torn down. The
 * table holds one reference; every lookup takes another (rxe_qp_get());
 * destroy drops the table's and waits for the rest.
 *
 * The engines start stopped. RTR starts the responder and completer, RTS
 * the requester, ERR all of them (to flush); RESET stops them again and
 * forgets every queued WQE and all transport progress.
 */
#include <linux/hash.h>
#include "rxe_ops.h"
#include "rxe_qp.h"
#include "rxe_req.h"
#include "rxe_comp.h"

#define RXE_GSI_QPN		1

/* --- lookups ----------------------------------------------------------- */

/**
 * rxe_qp_get() - look a QP up by number and take a reference
 * @rxe: device
 * @qpn: QP number
 *
 * Context: any (RCU inside).
 *
 * Return: the QP or NULL; release it with rxe_qp_put().
 */
struct rxe_qp *rxe_qp_get(struct rxe_dev *rxe, u32 qpn)
{
	struct rxe_qp *qp;

	rcu_read_lock();
	qp = xa_load(&rxe->qp_xa, qpn);
	if (qp && !refcount_inc_not_zero(&qp->ref))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

/**
 * rxe_qp_put() - drop a reference taken by rxe_qp_get()
 * @qp: the QP
 *
 * Context: any.
 */
void rxe_qp_put(struct rxe_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->done);
}

/**
 * rxe_qp_pkt_free() - free a received packet and its QP reference
 * @skb: a packet whose RXE_SKB_PKT(skb)->qp holds a reference (or is NULL)
 *
 * Context: any.
 */
void rxe_qp_pkt_free(struct sk_buff *skb)
{
	struct rxe_qp *qp = RXE_SKB_PKT(skb)->qp;

	kfree_skb(skb);
	if (qp)
		rxe_qp_put(qp);
}

/**
 * rxe_qp_state() - the QP's current state, for the engines
 * @qp: the QP
 *
 * Return: the state (read without the lock).
 */
enum ib_qp_state rxe_qp_state(struct rxe_qp *qp)
{
	/*
	 * Pairs with the WRITE_ONCE()s under state_lock (qp_set_state(),
	 * rxe_qp_to_error()); a stale state is rechecked at the next step.
	 */
	return READ_ONCE(qp->state);
}

/**
 * rxe_qp_mtu() - the largest payload of one packet of this QP
 * @qp: the QP
 *
 * Return: the path MTU for RC and UC, the port's active MTU for UD and
 * GSI, in bytes.
 */
u32 rxe_qp_mtu(struct rxe_qp *qp)
{
	/* port_mtu: pairs with WRITE_ONCE() in rxe_dev_port_update(). */
	if (rxe_qp_is_ud(qp))
		return ib_mtu_enum_to_int(READ_ONCE(qp->rxe->port_mtu));
	return qp->attr.mtu;
}

/* --- events and the error state ---------------------------------------- */

/**
 * rxe_qp_event() - report an asynchronous event of the QP to its owner
 * @qp:    the QP
 * @event: IB_EVENT_QP_FATAL, IB_EVENT_SQ_DRAINED, ...
 *
 * Context: any; the owner's handler must not sleep.
 */
void rxe_qp_event(struct rxe_qp *qp, enum ib_event_type event)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = event,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

static void qp_set_state(struct rxe_qp *qp, enum ib_qp_state state)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->state_lock, flags);
	/* Read locklessly by the engines (rxe_qp_state()). */
	WRITE_ONCE(qp->state, state);
	spin_unlock_irqrestore(&qp->state_lock, flags);
}

/**
 * rxe_qp_to_error() - move a QP to the error state and flush it
 * @qp:    the QP
 * @event: asynchronous event to report (IB_EVENT_QP_FATAL,
 *         IB_EVENT_QP_REQ_ERR, IB_EVENT_QP_ACCESS_ERR, ...), or
 *         RXE_QP_NO_EVENT
 *
 * The completer then completes every send WQE still queued, in order, with
 * IB_WC_WR_FLUSH_ERR (a WQE that had failed keeps its own status), and the
 * responder flushes the receive side. Context: any, including the engines.
 */
void rxe_qp_to_error(struct rxe_qp *qp, enum ib_event_type event)
{
	unsigned long flags;
	bool was_err;

	spin_lock_irqsave(&qp->state_lock, flags);
	was_err = qp->state == IB_QPS_ERR;
	/* Read locklessly by the engines (rxe_qp_state()). */
	WRITE_ONCE(qp->state, IB_QPS_ERR);
	spin_unlock_irqrestore(&qp->state_lock, flags);

	if (!was_err && event != RXE_QP_NO_EVENT)
		rxe_qp_event(qp, event);
	rxe_task_sched(&qp->comp_task);
	rxe_resp_flush(qp);
	rxe_task_sched(&qp->resp_task);
}

/* --- create ------------------------------------------------------------ */

static int qp_check_caps(const struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (cap->max_send_wr > RXE_MAX_QP_WR ||
	    cap->max_send_sge > RXE_MAX_SGE ||
	    cap->max_inline_data > RXE_MAX_INLINE_DATA)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > RXE_MAX_QP_WR ||
			   cap->max_recv_sge > RXE_MAX_SGE))
		return -EINVAL;
	return 0;
}

static int qp_check_init(struct rxe_dev *rxe,
			 const struct ib_qp_init_attr *init,
			 struct ib_udata *udata)
{
	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	case IB_QPT_GSI:
		if (init->port_num != 1)
			return -EINVAL;
		break;
	default:
		rxe_dbg_dev(rxe, "QP type %d not supported\n", init->qp_type);
		return -EOPNOTSUPP;
	}
	if (init->create_flags) {
		rxe_dbg_dev(rxe, "create flags %#x unsupported\n",
			    init->create_flags);
		return -EOPNOTSUPP;
	}
	if (udata && init->qp_type == IB_QPT_GSI)
		return -EINVAL;
	if (!init->send_cq || (!init->srq && !init->recv_cq))
		return -EINVAL;
	return qp_check_caps(init);
}

static void qp_init_fields(struct rxe_qp *qp, struct rxe_dev *rxe,
			   const struct ib_qp_init_attr *init)
{
	qp->rxe = rxe;
	refcount_set(&qp->ref, 1);
	init_completion(&qp->done);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->scq = to_rcq(init->send_cq);
	qp->rcq = init->recv_cq ? to_rcq(init->recv_cq) : NULL;
	qp->srq = init->srq ? to_rsrq(init->srq) : NULL;
	skb_queue_head_init(&qp->req_pkts);
	skb_queue_head_init(&qp->resp_pkts);

	qp->attr.path_mtu = IB_MTU_256;
	qp->attr.mtu = ib_mtu_enum_to_int(IB_MTU_256);
	qp->attr.pkey = RXE_DEFAULT_PKEY;
	if (init->qp_type == IB_QPT_GSI)
		qp->attr.qkey = RXE_GSI_QKEY;
}

static int qp_alloc_queues(struct rxe_qp *qp, const struct ib_qp_init_attr *init,
			   struct ib_udata *udata)
{
	const struct ib_qp_cap *cap = &init->cap;
	u32 room = max_t(u32, cap->max_send_sge * sizeof(struct ib_sge),
			 cap->max_inline_data);
	u32 send_wr = cap->max_send_wr;
	int err;

	/* A user QP's kernel SQ has a slot for each of its ring's (rxe_uqp.c). */
	if (udata) {
		err = rxe_uqp_create(qp, init, udata);
		if (err)
			return err;
		send_wr = qp->usq.mask + 1;
	}

	room = ALIGN(room, sizeof(struct ib_sge));
	qp->sq_wqe_size = sizeof(struct rxe_send_wqe) + room;
	qp->sq_max_sge = min_t(u32, room / sizeof(struct ib_sge), RXE_MAX_SGE);
	qp->sq_max_inline = min_t(u32, room, RXE_MAX_INLINE_DATA);
	err = rxe_queue_init(&qp->sq, max(send_wr, 1u), qp->sq_wqe_size);
	if (err)
		rxe_uqp_destroy(qp);
	if (err || qp->srq)
		return err;
	qp->rq_max_sge = max(cap->max_recv_sge, 1u);
	if (qp->is_user)
		return 0;
	err = rxe_queue_init(&qp->rq, max(cap->max_recv_wr, 1u),
			     rxe_recv_wqe_size(qp->rq_max_sge));
	if (err)
		rxe_queue_cleanup(&qp->sq);
	return err;
}

static void qp_free_queues(struct rxe_qp *qp)
{
	if (!qp->srq && !qp->is_user)
		rxe_queue_cleanup(&qp->rq);
	rxe_queue_cleanup(&qp->sq);
	rxe_uqp_destroy(qp);
}

/* The real capacities, as create_qp and query_qp report them. */
static void qp_get_caps(struct rxe_qp *qp, struct ib_qp_cap *cap)
{
	cap->max_send_wr = rxe_queue_slots(&qp->sq);
	cap->max_send_sge = qp->sq_max_sge;
	cap->max_inline_data = qp->sq_max_inline;
	cap->max_recv_wr = qp->srq ? 0 : rxe_queue_slots(&qp->rq);
	cap->max_recv_sge = qp->srq ? 0 : qp->rq_max_sge;
	/* a user QP's rings keep one slot free */
	if (qp->is_user) {
		cap->max_send_wr = qp->usq.mask;
		cap->max_recv_wr = qp->srq ? 0 : qp->urq.mask;
	}
}

/* Reserve the QPN (published with the QP later). */
static int qp_alloc_qpn(struct rxe_qp *qp, struct rxe_dev *rxe,
			enum ib_qp_type type)
{
	u32 qpn = RXE_GSI_QPN;
	int err;

	if (type == IB_QPT_GSI)
		err = xa_insert(&rxe->qp_xa, qpn, NULL, GFP_KERNEL);
	else
		err = xa_alloc_cyclic(&rxe->qp_xa, &qpn, NULL,
				      XA_LIMIT(RXE_QPN_MIN, RXE_QPN_MASK),
				      &rxe->qpn_next, GFP_KERNEL);
	if (err < 0)
		return err;
	qp->ibqp.qp_num = qpn;
	qp->sport = RXE_UDP_SPORT_BASE | (hash_32(qpn, 14) & 0x3fff);
	return 0;
}

static void qp_init_engines(struct rxe_qp *qp)
{
	rxe_task_init(&qp->req_task, qp, rxe_req_run);
	rxe_task_init(&qp->comp_task, qp, rxe_comp_run);
	rxe_task_init(&qp->resp_task, qp, rxe_resp_run);
	rxe_req_init(qp);
	rxe_comp_init(qp);
	rxe_resp_init(qp);
}

/**
 * rxe_qp_create() - the create_qp verb
 * @ibqp: core-allocated QP
 * @init: requested attributes; @init->cap is updated to the real sizes
 * @udata: NULL for a kernel QP; a user QP's response gets the mmap
 *         offsets of its rings (rxe_uqp.c)
 *
 * Context: process.
 *
 * Return: 0, -EINVAL (caps beyond the limits, bad GSI port), -EOPNOTSUPP
 * (QP type, create flags), -EBUSY (GSI exists), -ENOMEM.
 */
int rxe_qp_create(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	int err;

	err = qp_check_init(rxe, init, udata);
	if (err)
		return err;
	if (atomic_inc_return(&rxe->num_qp) > RXE_MAX_QP) {
		err = -ENOMEM;
		goto err_count;
	}
	qp_init_fields(qp, rxe, init);
	err = qp_alloc_queues(qp, init, udata);
	if (err)
		goto err_count;
	err = qp_alloc_qpn(qp, rxe, init->qp_type);
	if (err)
		goto err_queues;
	qp_init_engines(qp);
	qp_get_caps(qp, &init->cap);

	/* Publish last: the slot is reserved, storing cannot fail. */
	xa_store(&rxe->qp_xa, qp->ibqp.qp_num, qp, GFP_KERNEL);
	rxe_dbg_qp(qp, "created, type %d\n", init->qp_type);
	return 0;

err_queues:
	qp_free_queues(qp);
err_count:
	atomic_dec(&rxe->num_qp);
	return err;
}

/* --- state changes ----------------------------------------------------- */

static void qp_stop_engines(struct rxe_qp *qp)
{
	rxe_task_stop(&qp->req_task);
	rxe_task_stop(&qp->comp_task);
	rxe_task_stop(&qp->resp_task);
	rxe_req_cleanup(qp);
	rxe_comp_cleanup(qp);
}

static void qp_purge_pkts(struct rxe_qp *qp)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&qp->req_pkts)))
		rxe_qp_pkt_free(skb);
	while ((skb = skb_dequeue(&qp->resp_pkts)))
		rxe_qp_pkt_free(skb);
}

/* Drop every queued WQE without a completion (engines stopped). */
static void qp_clear_queues(struct rxe_qp *qp)
{
	spin_lock_irq(&qp->sq_lock);
	/* Like rxe_queue_consume(): pairs with post_send's acquire of sq.cons. */
	smp_store_release(&qp->sq.cons, qp->sq.prod);
	if (qp->is_user)
		rxe_uqp_sq_retired(qp);
	spin_unlock_irq(&qp->sq_lock);
	if (qp->srq || qp->is_user)
		return;
	spin_lock_irq(&qp->rq_lock);
	/* Like rxe_queue_consume(): pairs with post_recv's acquire of rq.cons. */
	smp_store_release(&qp->rq.cons, qp->rq.prod);
	spin_unlock_irq(&qp->rq_lock);
}

static void qp_enter_reset(struct rxe_qp *qp)
{
	qp_stop_engines(qp);
	qp_set_state(qp, IB_QPS_RESET);
	qp_purge_pkts(qp);
	qp_clear_queues(qp);
	rxe_req_reset(qp);
	rxe_comp_reset(qp);
	rxe_resp_reset(qp);
}

static void qp_enter_init(struct rxe_qp *qp)
{
	qp_set_state(qp, IB_QPS_INIT);
}

static void qp_enter_rtr(struct rxe_qp *qp)
{
	qp_set_state(qp, IB_QPS_RTR);
	rxe_task_start(&qp->resp_task);
	rxe_task_start(&qp->comp_task);
}

static void qp_enter_rts(struct rxe_qp *qp)
{
	rxe_comp_drain_stop(qp);
	qp_set_state(qp, IB_QPS_RTS);
	rxe_task_start(&qp->resp_task);
	rxe_task_start(&qp->comp_task);
	rxe_task_start(&qp->req_task);
}

/* SQD: finish the message in progress, start no new one. */
static void qp_enter_sqd(struct rxe_qp *qp)
{
	/* With the requester stopped it sees SQD at its next step. */
	rxe_task_stop(&qp->req_task);
	qp_set_state(qp, IB_QPS_SQD);
	rxe_task_start(&qp->req_task);
	rxe_comp_drain_start(qp);
}

static void qp_enter_sqe(struct rxe_qp *qp)
{
	qp_set_state(qp, IB_QPS_SQE);
}

static void qp_enter_err(struct rxe_qp *qp)
{
	rxe_task_start(&qp->resp_task);
	rxe_task_start(&qp->comp_task);
	rxe_task_start(&qp->req_task);
	rxe_qp_to_error(qp, RXE_QP_NO_EVENT);
}

/* What entering each state does (modify_qp). */
static void (*const qp_enter[])(struct rxe_qp *qp) = {
	[IB_QPS_RESET]	= qp_enter_reset,
	[IB_QPS_INIT]	= qp_enter_init,
	[IB_QPS_RTR]	= qp_enter_rtr,
	[IB_QPS_RTS]	= qp_enter_rts,
	[IB_QPS_SQD]	= qp_enter_sqd,
	[IB_QPS_SQE]	= qp_enter_sqe,
	[IB_QPS_ERR]	= qp_enter_err,
};

/* --- modify ------------------------------------------------------------ */

static int qp_check_modify(struct rxe_qp *qp, const struct ib_qp_attr *attr,
			   int mask)
{
	if ((mask & IB_QP_STATE) &&
	    ((unsigned int)attr->qp_state >= ARRAY_SIZE(qp_enter) ||
	     !qp_enter[attr->qp_state]))
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > RXE_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > RXE_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= RXE_MAX_PKEYS)
		return -EINVAL;
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) && ib_mtu_enum_to_int(attr->path_mtu) < 0)
		return -EINVAL;
	if (((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7) ||
	    ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7) ||
	    ((mask & IB_QP_TIMEOUT) && attr->timeout > 31) ||
	    ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31))
		return -EINVAL;
	return 0;
}

/* Path MTU, capped by the port's active MTU. */
static void qp_set_mtu(struct rxe_qp *qp, enum ib_mtu mtu)
{
	/* Pairs with WRITE_ONCE() in rxe_dev_port_update(). */
	enum ib_mtu port = READ_ONCE(qp->rxe->port_mtu);

	if (mtu > port) {
		rxe_dbg_qp(qp, "path MTU %d capped to the port's %d\n",
			   ib_mtu_enum_to_int(mtu), ib_mtu_enum_to_int(port));
		mtu = port;
	}
	qp->attr.path_mtu = mtu;
	qp->attr.mtu = ib_mtu_enum_to_int(mtu);
}

static void qp_set_sq_psn(struct rxe_qp *qp, u32 psn)
{
	psn &= RXE_PSN_MASK;
	qp->attr.sq_psn = psn;
	qp->req.psn = psn;
	qp->req.next_psn = psn;
	qp->comp.psn = psn;
}

/* Where packets go and who they are for. */
static void qp_apply_path(struct rxe_qp *qp, const struct ib_qp_attr *attr,
			  int mask, const struct rxe_av *av)
	__must_hold(&qp->state_lock)
{
	lockdep_assert_held(&qp->state_lock);
	if (mask & IB_QP_PATH_MTU)
		qp_set_mtu(qp, attr->path_mtu);
	if (mask & IB_QP_AV)
		qp->av = *av;
	if (mask & IB_QP_DEST_QPN)
		qp->attr.dest_qpn = attr->dest_qp_num & RXE_QPN_MASK;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_PKEY_INDEX) {
		qp->attr.pkey_index = attr->pkey_index;
		qp->attr.pkey = RXE_DEFAULT_PKEY;
	}
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.access = attr->qp_access_flags;
}

/* Sequence numbers, timers and the READ/ATOMIC budgets. */
static void qp_apply_transport(struct rxe_qp *qp,
			       const struct ib_qp_attr *attr, int mask)
	__must_hold(&qp->state_lock)
{
	lockdep_assert_held(&qp->state_lock);
	if (mask & IB_QP_SQ_PSN)
		qp_set_sq_psn(qp, attr->sq_psn);
	if (mask & IB_QP_RQ_PSN) {
		qp->attr.rq_psn = attr->rq_psn & RXE_PSN_MASK;
		qp->resp.psn = qp->attr.rq_psn;
	}
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT) {
		qp->attr.retry_cnt = attr->retry_cnt;
		qp->comp.retry_left = attr->retry_cnt;
	}
	if (mask & IB_QP_RNR_RETRY) {
		qp->attr.rnr_retry = attr->rnr_retry;
		qp->comp.rnr_left = attr->rnr_retry;
	}
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
}

/**
 * rxe_qp_modify() - the modify_qp verb
 * @ibqp:  the QP
 * @attr:  new attributes
 * @mask:  IB_QP_* bits saying which @attr fields apply
 * @udata: unused
 *
 * The core has checked the transition and the mask against the state
 * table; this checks the values against the device's limits, applies them,
 * then enters the new state. Context: process (may sleep: stopping the
 * engines waits for them).
 *
 * Return: 0 or -EINVAL (nothing changed then).
 */
int rxe_qp_modify(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_av av = {};
	int err;

	err = qp_check_modify(qp, attr, mask);
	if (!err && (mask & IB_QP_AV))
		err = rxe_av_from_attr(qp->rxe, &av, &attr->ah_attr);
	if (err) {
		rxe_dbg_qp(qp, "modify (mask %#x) rejected: %d\n", mask, err);
		return err;
	}

	spin_lock_irq(&qp->state_lock);
	qp_apply_path(qp, attr, mask, &av);
	qp_apply_transport(qp, attr, mask);
	spin_unlock_irq(&qp->state_lock);

	if (mask & IB_QP_STATE)
		qp_enter[attr->qp_state](qp);
	return 0;
}

/* --- query ------------------------------------------------------------- */

/**
 * rxe_qp_query() - the query_qp verb
 * @ibqp: the QP
 * @attr: filled with the current attributes
 * @mask: ignored: everything is reported
 * @init: filled with the creation attributes and real capacities
 *
 * Context: process.
 *
 * Return: 0.
 */
int rxe_qp_query(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	const struct rxe_qp_attr *a = &qp->attr;
	struct rxe_av av;

	memset(attr, 0, sizeof(*attr));
	spin_lock_irq(&qp->state_lock);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->path_mtu = a->path_mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qkey = a->qkey;
	attr->rq_psn = a->rq_psn;
	attr->sq_psn = a->sq_psn;
	attr->dest_qp_num = a->dest_qpn;
	attr->qp_access_flags = a->access;
	attr->pkey_index = a->pkey_index;
	attr->sq_draining = qp->state == IB_QPS_SQD &&
			    test_bit(RXE_COMP_DRAINING, &qp->comp.flags);
	attr->max_rd_atomic = a->max_rd_atomic;
	attr->max_dest_rd_atomic = a->max_dest_rd_atomic;
	attr->min_rnr_timer = a->min_rnr_timer;
	attr->port_num = 1;
	attr->timeout = a->timeout;
	attr->retry_cnt = a->retry_cnt;
	attr->rnr_retry = a->rnr_retry;
	av = qp->av;
	spin_unlock_irq(&qp->state_lock);
	if (!rxe_qp_is_ud(qp))
		rxe_av_to_attr(&av, &attr->ah_attr);
	qp_get_caps(qp, &attr->cap);

	memset(init, 0, sizeof(*init));
	init->qp_type = rxe_qp_type(qp);
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init->port_num = 1;
	init->cap = attr->cap;
	return 0;
}

/* --- destroy ----------------------------------------------------------- */

/* Drop the table's reference; wait for every lookup to drop its own. */
static void qp_wait_unused(struct rxe_qp *qp)
{
	rxe_qp_put(qp);
	/* Packets queued meanwhile hold references: keep purging them. */
	do {
		qp_purge_pkts(qp);
	} while (!wait_for_completion_timeout(&qp->done,
					      msecs_to_jiffies(10)));
}

/**
 * rxe_qp_destroy() - the destroy_qp verb
 * @ibqp:  the QP
 * @udata: unused
 *
 * Moves the QP to the error state, stops its engines, unpublishes it,
 * waits for every lookup to end, completes what is left with
 * IB_WC_WR_FLUSH_ERR and frees its queues. Context: process.
 *
 * Return: 0.
 */
int rxe_qp_destroy(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_dev *rxe = qp->rxe;

	rxe_qp_to_error(qp, RXE_QP_NO_EVENT);
	qp_stop_engines(qp);
	rxe_mcast_qp_remove(qp);
	xa_erase(&rxe->qp_xa, qp->ibqp.qp_num);
	/*
	 * The responder's packet in progress (a READ being answered, a
	 * request waiting for memory) holds a QP reference too: release it
	 * before waiting for the references to go.
	 */
	rxe_resp_cleanup(qp);
	qp_wait_unused(qp);

	/* The engines are stopped: run the flush here, to the end. */
	while (rxe_comp_run(qp) == 0)
		;
	rxe_resp_flush(qp);
	qp_free_queues(qp);
	atomic_dec(&rxe->num_qp);
	return 0;
}
