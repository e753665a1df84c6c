// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sending MADs: send buffers, posting on the special QP, waiting for answers,
 * retries and cancellation.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

/*
 * The life of a send
 *
 * ib_post_send_mad() puts the send on its agent's @sends list and on the
 * QP (or the QP's backlog while the send queue is full). A send owes its
 * agent up to two things before it can be reported: the send completion
 * (@on_wire) and, when it was posted with a timeout, an answer
 * (@awaits_answer). The send completion either reports it or, if an answer
 * is still owed, moves it to the agent's @waiting list with a deadline. The
 * answer (mad_recv.c), a cancel (timeout 0 through ib_modify_mad()) or the
 * agent's timer settle the wait; the timer resends while retries are left.
 * Once neither is owed the send leaves the lists and the agent's send
 * handler gets it, exactly once, with the status the first failure (or
 * the timeout, or the cancel) left, or success.
 *
 * An RMPP send (mad_rmpp_send.c) is the same life with more on the wire:
 * it owes ACKs as its answer until the last segment is ACKed, then the
 * response if it was posted with a timeout. Its send completions post the
 * next segment while the window allows, its deadline is the ACK's, and
 * the timer resends from the last segment ACKed.
 *
 * Lock order: the agent's lock, then its QP's lock. Both are taken with
 * interrupts saved: ULPs post and cancel under their own irq-safe locks.
 */

static void mad_send_done(struct ib_cq *cq, struct ib_wc *wc);

/* ---- Buffers -------------------------------------------------------------- */

/*
 * Bytes of padding after @data_len so that the message fills whole
 * segments of (@mad_size - @hdr_len); a message without data is one
 * segment of padding.
 */
static int mad_send_pad(int hdr_len, int data_len, int mad_size)
{
	int seg = mad_size - hdr_len;
	int tail;

	if (seg <= 0)
		return 0;
	if (!data_len)
		return seg;
	tail = data_len % seg;
	return tail ? seg - tail : 0;
}

/**
 * ib_create_send_mad() - Allocate a MAD to send
 * @mad_agent: the agent that will send it
 * @remote_qpn: destination QP (1 for GSI, 0 for SMI)
 * @pkey_index: P_Key index to send with
 * @rmpp_active: the message spans several MADs (RMPP)
 * @hdr_len: bytes of headers (common, RMPP, class) the caller fills
 * @data_len: bytes of class data
 * @gfp_mask: allocation flags
 * @base_version: IB_MGMT_BASE_VERSION (OPA MADs are not supported)
 *
 * The buffer (send_buf->mad) is zeroed and as long as a MAD of the port;
 * the caller fills it and sets send_buf->ah, ->timeout_ms and ->retries
 * before ib_post_send_mad(). The buffer holds a reference on the agent
 * until ib_free_send_mad().
 *
 * With @rmpp_active (only on an agent for which ib_mad_kernel_rmpp_agent()
 * is true) send_buf->mad holds just the @hdr_len bytes of headers, its
 * RMPP header already set to an active DATA header of the agent's RMPP
 * version, and the data goes into send_buf->seg_count segments of
 * send_buf->seg_size bytes each, from ib_get_rmpp_segment(); the last is
 * padded with zeros.
 *
 * Context: any, as @gfp_mask allows.
 * Return: the buffer, or ERR_PTR(-EINVAL) for a message that does not fit
 * one MAD without @rmpp_active, @rmpp_active on an agent that does no RMPP
 * in the kernel or with headers shorter than the RMPP header or filling
 * the whole MAD, a base version other than IB_MGMT_BASE_VERSION; or
 * -ENOMEM.
 */
struct ib_mad_send_buf *ib_create_send_mad(struct ib_mad_agent *mad_agent,
					   u32 remote_qpn, u16 pkey_index,
					   int rmpp_active, int hdr_len,
					   int data_len, gfp_t gfp_mask,
					   u8 base_version)
{
	struct ib_mad_agent_priv *priv = ib_mad_agent_priv(mad_agent);
	int mad_size = IB_MGMT_MAD_SIZE;
	struct ib_mad_send *send;
	int pad, total;

	if (hdr_len < 0 || data_len < 0 || hdr_len > mad_size ||
	    base_version != IB_MGMT_BASE_VERSION)
		return ERR_PTR(-EINVAL);
	pad = mad_send_pad(hdr_len, data_len, mad_size);
	total = hdr_len + data_len + pad;
	if (rmpp_active && (!ib_mad_kernel_rmpp_agent(mad_agent) ||
			    hdr_len < IB_MGMT_RMPP_HDR || hdr_len >= mad_size))
		return ERR_PTR(-EINVAL);
	if (!rmpp_active && total > mad_size)
		return ERR_PTR(-EINVAL);

	send = kzalloc(sizeof(*send) + (rmpp_active ? hdr_len : mad_size),
		       gfp_mask);
	if (!send)
		return ERR_PTR(-ENOMEM);
	send->agent = priv;
	send->mad_size = mad_size;
	INIT_LIST_HEAD(&send->node);
	INIT_LIST_HEAD(&send->qnode);
	send->buf.mad = send + 1;
	send->wire = send->buf.mad;
	send->buf.mad_agent = mad_agent;
	send->buf.hdr_len = hdr_len;
	send->buf.data_len = data_len;
	if (rmpp_active && ib_mad_rmpp_tx_alloc(send, pad, gfp_mask)) {
		kfree(send);
		return ERR_PTR(-ENOMEM);
	}

	send->cqe.done = mad_send_done;
	send->sge.length = mad_size;
	send->sge.lkey = mad_agent->qp->pd->local_dma_lkey;
	send->wr.wr.wr_cqe = &send->cqe;
	send->wr.wr.sg_list = &send->sge;
	send->wr.wr.num_sge = 1;
	send->wr.wr.opcode = IB_WR_SEND;
	send->wr.wr.send_flags = IB_SEND_SIGNALED;
	send->wr.remote_qpn = remote_qpn;
	/* The QP's own Q_Key: QP1's is the well-known 0x80010000. */
	send->wr.remote_qkey = IB_QP_SET_QKEY;
	send->wr.pkey_index = pkey_index;

	refcount_inc(&priv->refs);
	return &send->buf;
}
EXPORT_SYMBOL(ib_create_send_mad);

/**
 * ib_free_send_mad() - Free a MAD buffer from ib_create_send_mad()
 * @send_buf: the buffer; not posted, or reported to the send handler
 *
 * Context: any.
 */
void ib_free_send_mad(struct ib_mad_send_buf *send_buf)
{
	struct ib_mad_send *send = ib_mad_send(send_buf);
	struct ib_mad_agent_priv *priv = send->agent;

	ib_mad_rmpp_tx_free(send);
	kfree(send);
	ib_mad_agent_put(priv);
}
EXPORT_SYMBOL(ib_free_send_mad);

/**
 * ib_get_rmpp_segment() - The data of one segment of an RMPP send
 * @send_buf: a buffer created with rmpp_active
 * @seg_num: segment number, from 1 to send_buf->seg_count
 *
 * The caller writes the message's data there, send_buf->seg_size bytes a
 * segment, before posting the buffer.
 *
 * Context: any.
 * Return: the segment's data, or NULL for a buffer without segments or a
 * segment number out of range.
 */
void *ib_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num)
{
	return ib_mad_rmpp_tx_segment(ib_mad_send(send_buf), seg_num);
}
EXPORT_SYMBOL(ib_get_rmpp_segment);

/* ---- Posting -------------------------------------------------------------- */

/* Put @send on the QP, or in its backlog while the send queue is full. */
int ib_mad_send_to_qp(struct ib_mad_send *send)
{
	struct ib_mad_qp *mqp = send->agent->mqp;
	struct ib_device *dev = mqp->port->device;
	unsigned long flags;
	int ret = 0;

	send->sge.addr = ib_dma_map_single(dev, send->wire, send->mad_size,
					   DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, send->sge.addr))
		return -ENOMEM;
	send->wr.ah = send->buf.ah;

	/*
	 * @posted counts what is on the QP only: a send parked in the backlog
	 * is counted when mad_send_backlog_kick() posts it. (Counting it here
	 * too once kept @posted at the queue's size for good after a burst
	 * longer than the queue, and the backlog was never posted.) Behind a
	 * backlog a send waits its turn.
	 */
	spin_lock_irqsave(&mqp->lock, flags);
	if (mqp->posted < ib_mad_sendq_size && list_empty(&mqp->backlog)) {
		ret = ib_post_send(mqp->qp, &send->wr.wr, NULL);
		if (!ret)
			mqp->posted++;
	} else {
		list_add_tail(&send->qnode, &mqp->backlog);
	}
	spin_unlock_irqrestore(&mqp->lock, flags);

	if (ret)
		ib_dma_unmap_single(dev, send->sge.addr, send->mad_size,
				    DMA_TO_DEVICE);
	return ret;
}

static void mad_send_wire_done(struct ib_mad_send *send,
			       enum ib_wc_status wc_status);

/* The oldest send of the backlog if the send queue has room for it. */
static struct ib_mad_send *mad_send_backlog_take(struct ib_mad_qp *mqp)
{
	struct ib_mad_send *next;

	lockdep_assert_held(&mqp->lock);
	if (mqp->posted >= ib_mad_sendq_size)
		return NULL;
	next = list_first_entry_or_null(&mqp->backlog, struct ib_mad_send,
					qnode);
	if (next)
		list_del_init(&next->qnode);
	return next;
}

/*
 * One send left the send queue: post the backlog in its place, oldest
 * first, while there is room. A send whose post fails completes with an
 * error at once and the next one is tried, so a failure never strands the
 * backlog with nothing left on the send queue to kick it (6.1 does the
 * same).
 */
static void mad_send_backlog_kick(struct ib_mad_qp *mqp)
{
	struct ib_mad_send *next;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&mqp->lock, flags);
	mqp->posted--;
	while ((next = mad_send_backlog_take(mqp))) {
		ret = ib_post_send(mqp->qp, &next->wr.wr, NULL);
		if (!ret) {
			mqp->posted++;
			continue;
		}
		spin_unlock_irqrestore(&mqp->lock, flags);
		dev_err_ratelimited(&mqp->port->device->dev,
				    "QP%u of port %u: a queued MAD failed to post: %d\n",
				    mqp->qp->qp_num, mqp->port->port_num, ret);
		ib_dma_unmap_single(mqp->port->device, next->sge.addr,
				    next->mad_size, DMA_TO_DEVICE);
		mad_send_wire_done(next, IB_WC_LOC_QP_OP_ERR);
		spin_lock_irqsave(&mqp->lock, flags);
	}
	spin_unlock_irqrestore(&mqp->lock, flags);
}

/**
 * ib_post_send_mad() - Post MADs on their agent's QP
 * @send_buf: the first of a chain of buffers linked through ->next
 * @bad_send_buf: where to store the first buffer not posted, may be NULL
 *
 * A buffer with a non-zero timeout_ms waits after sending for an answer
 * (a response carrying its TID, or the caller's cancel on a SEND-method
 * exchange such as the CM's), resending up to ->retries times; ->retries
 * then counts the resends made. Each posted buffer is reported once to
 * the agent's send handler.
 *
 * A buffer created with rmpp_active is sent as an RMPP message: its
 * segments go out in the window the receiver's ACKs give (one segment
 * at first), each resent window counting against ->retries, which start
 * afresh with every ACK that moves on. It is done when its last segment
 * is ACKed, or, with a timeout_ms, when the response has come as well.
 * A STOP or ABORT from the receiver ends it with IB_WC_REM_ABORT_ERR
 * and the RMPP status in the work completion's vendor_err.
 *
 * Context: any; does not sleep.
 * Return: 0, or -EINVAL (no send handler, a timeout without a receive
 * handler, a non-RMPP class on an RMPP agent, no address handle), or the
 * error of the post.
 */
int ib_post_send_mad(struct ib_mad_send_buf *send_buf,
		     struct ib_mad_send_buf **bad_send_buf)
{
	struct ib_mad_send_buf *next;
	int ret = 0;

	for (; send_buf; send_buf = next) {
		struct ib_mad_send *send = ib_mad_send(send_buf);
		struct ib_mad_agent_priv *priv = send->agent;
		const struct ib_mad_hdr *hdr = send_buf->mad;
		unsigned long flags;

		/* The handler may free it as soon as it is posted. */
		next = send_buf->next;
		ret = -EINVAL;
		if (!priv->agent.send_handler || !send_buf->ah)
			break;
		if (send_buf->timeout_ms && !priv->agent.recv_handler)
			break;
		if (priv->agent.rmpp_version &&
		    !ib_is_mad_class_rmpp(hdr->mgmt_class))
			break;

		send->tid = hdr->tid;
		send->max_retries = send_buf->retries;
		send->retries_left = send_buf->retries;
		send_buf->retries = 0;
		send->status = IB_WC_SUCCESS;
		send->vendor_err = 0;
		send->on_wire = true;
		send->awaits_answer = send_buf->timeout_ms > 0 || send->rmpp;
		send->answering = false;

		refcount_inc(&priv->refs);
		spin_lock_irqsave(&priv->lock, flags);
		list_add_tail(&send->node, &priv->sends);
		if (send->rmpp)
			ib_mad_rmpp_tx_start(send);
		ret = ib_mad_send_to_qp(send);
		if (ret)
			list_del_init(&send->node);
		spin_unlock_irqrestore(&priv->lock, flags);
		if (ret) {
			ib_mad_agent_put(priv);
			break;
		}
	}
	if (ret && bad_send_buf)
		*bad_send_buf = send_buf;
	return ret;
}
EXPORT_SYMBOL(ib_post_send_mad);

/* ---- Settling ------------------------------------------------------------- */

/* Report a send that owes nothing any more and drop its posting reference. */
static void mad_send_report(struct ib_mad_send *send, enum ib_wc_status status)
{
	struct ib_mad_agent_priv *priv = send->agent;
	struct ib_mad_send_wc wc = {
		.send_buf = &send->buf,
		.status = status,
		.vendor_err = status == IB_WC_REM_ABORT_ERR ? send->vendor_err : 0,
	};

	priv->agent.send_handler(&priv->agent, &wc);
	ib_mad_agent_put(priv);
}

/* (Re)arm the agent's timer for the earliest deadline of @waiting. */
static void mad_send_timer_arm(struct ib_mad_agent_priv *priv)
{
	struct ib_mad_send *first;
	long delay;

	lockdep_assert_held(&priv->lock);
	first = list_first_entry_or_null(&priv->waiting, struct ib_mad_send,
					 node);
	if (!first)
		return;
	delay = (long)(first->deadline - jiffies);
	mod_delayed_work(priv->port->wq, &priv->timer, max(delay, 0L));
}

/* Move @send to @waiting, due in @timeout_ms, keeping deadline order. */
void ib_mad_send_wait(struct ib_mad_send *send, u32 timeout_ms)
{
	struct ib_mad_agent_priv *priv = send->agent;
	struct ib_mad_send *pos;

	lockdep_assert_held(&priv->lock);
	send->deadline = jiffies + msecs_to_jiffies(timeout_ms);
	list_del(&send->node);
	list_for_each_entry_reverse(pos, &priv->waiting, node) {
		if (!time_after(pos->deadline, send->deadline)) {
			list_add(&send->node, &pos->node);
			goto arm;
		}
	}
	list_add(&send->node, &priv->waiting);
arm:
	mad_send_timer_arm(priv);
}

/* A send left the wire with @wc_status: report it, or wait for its answer. */
static void mad_send_wire_done(struct ib_mad_send *send,
			       enum ib_wc_status wc_status)
{
	struct ib_mad_agent_priv *priv = send->agent;
	enum ib_wc_status status;
	unsigned long flags;
	bool report;

	spin_lock_irqsave(&priv->lock, flags);
	send->on_wire = false;
	if (wc_status != IB_WC_SUCCESS && send->status == IB_WC_SUCCESS) {
		send->status = wc_status;
		send->awaits_answer = false;
	}
	if (send->rmpp && ib_mad_rmpp_tx_continue(send)) {
		spin_unlock_irqrestore(&priv->lock, flags);
		return;
	}
	report = !send->awaits_answer && !send->answering;
	if (report)
		list_del_init(&send->node);
	else if (!send->answering)
		ib_mad_send_wait(send, send->rmpp ?
				 ib_mad_rmpp_tx_wait_ms(send) :
				 send->buf.timeout_ms);
	status = send->status;
	spin_unlock_irqrestore(&priv->lock, flags);

	if (report)
		mad_send_report(send, status);
}

/* The CQ's completion of a send WR (ib_cqe.done). */
static void mad_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ib_mad_send *send = container_of(wc->wr_cqe, struct ib_mad_send,
					       cqe);
	struct ib_mad_qp *mqp = send->agent->mqp;

	ib_dma_unmap_single(mqp->port->device, send->sge.addr, send->mad_size,
			    DMA_TO_DEVICE);
	mad_send_backlog_kick(mqp);
	mad_send_wire_done(send, wc->status);
}

/*
 * Send @send once more, from the last segment ACKed for RMPP: false when
 * it failed, was cancelled, has no retries left, or is an RMPP send that
 * waits for its response (that is not resent).
 */
static bool mad_send_retry(struct ib_mad_send *send)
{
	struct ib_mad_agent_priv *priv = send->agent;

	lockdep_assert_held(&priv->lock);
	if (send->status != IB_WC_SUCCESS || !send->retries_left)
		return false;
	if (send->rmpp && !ib_mad_rmpp_tx_rewind(send))
		return false;
	send->retries_left--;
	send->buf.retries++;
	send->on_wire = true;
	list_move_tail(&send->node, &priv->sends);
	if (!ib_mad_send_to_qp(send))
		return true;
	send->on_wire = false;
	send->status = IB_WC_LOC_QP_OP_ERR;
	return false;
}

/*
 * The timer of an agent: every waiting send past its deadline is resent
 * while retries are left, or reported (timed out, or cancelled).
 */
void ib_mad_send_timer_fn(struct work_struct *work)
{
	struct ib_mad_agent_priv *priv =
		container_of(to_delayed_work(work), struct ib_mad_agent_priv,
			     timer);
	struct ib_mad_send *send, *tmp;
	unsigned long flags;
	LIST_HEAD(expired);

	spin_lock_irqsave(&priv->lock, flags);
	list_for_each_entry_safe(send, tmp, &priv->waiting, node) {
		if (time_after(send->deadline, jiffies))
			break;
		if (!mad_send_retry(send))
			list_move_tail(&send->node, &expired);
	}
	mad_send_timer_arm(priv);
	spin_unlock_irqrestore(&priv->lock, flags);

	list_for_each_entry_safe(send, tmp, &expired, node) {
		list_del_init(&send->node);
		mad_send_report(send, send->status == IB_WC_SUCCESS ?
				IB_WC_RESP_TIMEOUT_ERR : send->status);
	}
}

/* The send of @priv whose buffer is @buf, if it is still outstanding. */
static struct ib_mad_send *mad_send_find(struct ib_mad_agent_priv *priv,
					 struct ib_mad_send_buf *buf)
{
	struct ib_mad_send *send;

	lockdep_assert_held(&priv->lock);
	list_for_each_entry(send, &priv->waiting, node)
		if (&send->buf == buf)
			return send;
	list_for_each_entry(send, &priv->sends, node)
		if (&send->buf == buf)
			return send;
	return NULL;
}

/**
 * ib_modify_mad() - Change how long a posted MAD waits for its answer
 * @send_buf: a posted buffer
 * @timeout_ms: new timeout from now; 0 cancels the MAD
 *
 * A MAD already waiting gets a new deadline @timeout_ms from now (the CM
 * does this when an MRA asks for more time); one still on the wire waits
 * @timeout_ms after its send completion. A cancelled MAD is reported to
 * the send handler with IB_WC_WR_FLUSH_ERR.
 *
 * Context: any; does not sleep.
 * Return: 0, or -EINVAL when @send_buf is not outstanding any more (or was
 * cancelled or failed already).
 */
int ib_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms)
{
	struct ib_mad_agent_priv *priv;
	struct ib_mad_send *send;
	unsigned long flags;
	bool waiting;

	if (!send_buf)
		return -EINVAL;
	priv = ib_mad_send(send_buf)->agent;
	spin_lock_irqsave(&priv->lock, flags);
	send = mad_send_find(priv, send_buf);
	if (!send || send->status != IB_WC_SUCCESS) {
		spin_unlock_irqrestore(&priv->lock, flags);
		return -EINVAL;
	}
	waiting = !send->on_wire;
	send_buf->timeout_ms = timeout_ms;
	if (!timeout_ms) {
		send->status = IB_WC_WR_FLUSH_ERR;
		send->awaits_answer = false;
	}
	/* Waiting: a new deadline (now, for a cancel: the timer reports it). */
	if (waiting)
		ib_mad_send_wait(send, timeout_ms);
	spin_unlock_irqrestore(&priv->lock, flags);
	return 0;
}
EXPORT_SYMBOL(ib_modify_mad);

/*
 * Unregistration: every outstanding send is cancelled. Those waiting are
 * reported now, those on the wire when their send completion arrives.
 */
void ib_mad_send_cancel_all(struct ib_mad_agent_priv *priv)
{
	struct ib_mad_send *send, *tmp;
	unsigned long flags;
	LIST_HEAD(cancelled);

	spin_lock_irqsave(&priv->lock, flags);
	list_for_each_entry(send, &priv->sends, node) {
		if (send->status == IB_WC_SUCCESS)
			send->status = IB_WC_WR_FLUSH_ERR;
		send->awaits_answer = false;
	}
	list_splice_init(&priv->waiting, &cancelled);
	spin_unlock_irqrestore(&priv->lock, flags);
	cancel_delayed_work_sync(&priv->timer);

	list_for_each_entry_safe(send, tmp, &cancelled, node) {
		list_del_init(&send->node);
		mad_send_report(send, IB_WC_WR_FLUSH_ERR);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_send_cancel_all);

/* ---- Answers -------------------------------------------------------------- */

/*
 * A response arrived for @priv: the outstanding request with the same TID
 * and class, which no longer waits for an answer, or NULL. The request
 * stays outstanding until ib_mad_send_answered() settles it, after the
 * response has been delivered; meanwhile nothing else reports it (an
 * unregistration cancelling everything at that moment once freed it under
 * the response's handler).
 */
struct ib_mad_send_buf *ib_mad_send_claim(struct ib_mad_agent_priv *priv,
					  const struct ib_mad_hdr *hdr)
{
	struct ib_mad_send *send, *found = NULL;
	struct list_head *lists[] = { &priv->waiting, &priv->sends };
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&priv->lock, flags);
	for (i = 0; i < ARRAY_SIZE(lists) && !found; i++) {
		list_for_each_entry(send, lists[i], node) {
			const struct ib_mad_hdr *req = send->buf.mad;

			if (send->tid != hdr->tid || !send->awaits_answer ||
			    req->mgmt_class != hdr->mgmt_class ||
			    !send->buf.timeout_ms)
				continue;
			send->awaits_answer = false;
			send->answering = true;
			/* Waiting: off the list, beyond the timer and cancels. */
			if (!send->on_wire)
				list_del_init(&send->node);
			found = send;
			break;
		}
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return found ? &found->buf : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_send_claim);

/* Report a claimed request unless its send completion is still owed. */
void ib_mad_send_answered(struct ib_mad_send_buf *buf)
{
	struct ib_mad_send *send = ib_mad_send(buf);
	struct ib_mad_agent_priv *priv = send->agent;
	enum ib_wc_status status;
	unsigned long flags;
	bool report;

	spin_lock_irqsave(&priv->lock, flags);
	send->answering = false;
	report = !send->on_wire;
	if (report)
		list_del_init(&send->node);
	status = send->status;
	spin_unlock_irqrestore(&priv->lock, flags);
	if (report)
		mad_send_report(send, status);
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_send_answered);

/* The outstanding send of @priv whose answer @hdr would be, or NULL. */
static struct ib_mad_send *mad_send_match(struct ib_mad_agent_priv *priv,
					  const struct ib_mad_hdr *hdr,
					  bool rmpp)
{
	struct list_head *lists[] = { &priv->waiting, &priv->sends };
	struct ib_mad_send *send;
	unsigned int i;

	lockdep_assert_held(&priv->lock);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry(send, lists[i], node) {
			const struct ib_mad_hdr *req = send->buf.mad;

			if (send->tid == hdr->tid &&
			    req->mgmt_class == hdr->mgmt_class &&
			    (!rmpp || send->rmpp))
				return send;
		}
	}
	return NULL;
}

bool ib_mad_send_expects(struct ib_mad_agent_priv *priv,
			 const struct ib_mad_hdr *hdr)
{
	struct ib_mad_send *send;
	unsigned long flags;
	bool expects;

	spin_lock_irqsave(&priv->lock, flags);
	send = mad_send_match(priv, hdr, false);
	expects = send && send->awaits_answer && send->buf.timeout_ms &&
		  send->status == IB_WC_SUCCESS;
	spin_unlock_irqrestore(&priv->lock, flags);
	return expects;
}

struct ib_mad_send *ib_mad_send_find_rmpp(struct ib_mad_agent_priv *priv,
					  const struct ib_mad_hdr *hdr)
{
	return mad_send_match(priv, hdr, true);
}

void ib_mad_send_report(struct ib_mad_send *send)
{
	mad_send_report(send, send->status);
}
