// SPDX-License-Identifier: GPL-2.0-only
/*
 * RMPP sending: a message cut into segments, sent in the receiver's window,
 * moved on by its ACKs.
 */

#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

/*
 * The sender's side of IBA 13.6
 *
 * A message of seg_count segments goes out one segment at a time, each
 * in a frame of its own (@frame: the caller's headers, then the segment's
 * data). Three numbers say where it stands: @sent, the last segment put
 * on the wire; @acked, the last one the receiver ACKed (every one before
 * it arrived); @window, the last one the receiver said it will take. A
 * send completion posts segment @sent + 1 while it is inside the window;
 * at the window's edge the send waits for an ACK, at most
 * IB_MAD_RMPP_ACK_MS (less when the caller's timeout_ms is shorter). A
 * deadline passing sends again from @acked + 1, within the caller's
 * retries, which start afresh with every ACK that moves @acked on. When
 * @acked reaches the last segment the message is through: a send without
 * timeout_ms is done, one with it waits that long for the response, and
 * is not resent any more.
 *
 * Everything here is under the agent's lock (struct ib_mad_send says so);
 * the functions named _locked or documented so in mad.h assert it.
 */

/**
 * struct ib_mad_rmpp_tx - the RMPP state of one send
 * @segs: the seg_count segment buffers, seg_size bytes each
 * @pad: bytes of zeros that fill up the last segment
 * @sent: last segment posted (0: none yet)
 * @acked: last segment ACKed
 * @window: last segment the receiver takes now
 * @frame: the segment on the wire, as one MAD
 */
struct ib_mad_rmpp_tx {
	void	**segs;
	int	pad;
	int	sent;
	int	acked;
	int	window;
	u8	frame[IB_MGMT_MAD_SIZE];
};

/* ---- Buffers -------------------------------------------------------------- */

/**
 * ib_mad_rmpp_tx_alloc() - Give a new send buffer its segments
 * @send: created with rmpp_active; buf.hdr_len and buf.data_len are set
 * @pad: zeros after the data that fill the last segment
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM (nothing left allocated).
 */
int ib_mad_rmpp_tx_alloc(struct ib_mad_send *send, int pad, gfp_t gfp)
{
	struct ib_mad_send_buf *buf = &send->buf;
	struct ib_rmpp_mad *hdr = buf->mad;
	struct ib_mad_rmpp_tx *tx;
	int i, count;

	buf->seg_size = send->mad_size - buf->hdr_len;
	buf->seg_rmpp_size = send->mad_size - IB_MGMT_RMPP_HDR;
	count = (buf->data_len + pad) / buf->seg_size;

	tx = kzalloc(sizeof(*tx), gfp);
	if (!tx)
		goto err_tx;
	tx->segs = kcalloc(count, sizeof(*tx->segs), gfp);
	if (!tx->segs)
		goto err_segs;
	for (i = 0; i < count; i++) {
		tx->segs[i] = kzalloc(buf->seg_size, gfp);
		if (!tx->segs[i])
			goto err_seg;
	}
	tx->pad = pad;
	buf->seg_count = count;
	send->rmpp = tx;
	send->wire = tx->frame;

	hdr->rmpp_hdr.rmpp_version = send->agent->agent.rmpp_version;
	hdr->rmpp_hdr.rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
	ib_set_rmpp_flags(&hdr->rmpp_hdr, IB_MGMT_RMPP_FLAG_ACTIVE);
	return 0;

err_seg:
	while (i--)
		kfree(tx->segs[i]);
	kfree(tx->segs);
err_segs:
	kfree(tx);
err_tx:
	return -ENOMEM;
}

/* ib_mad_rmpp_tx_free() - Free what ib_mad_rmpp_tx_alloc() gave @send. */
void ib_mad_rmpp_tx_free(struct ib_mad_send *send)
{
	struct ib_mad_rmpp_tx *tx = send->rmpp;
	int i;

	if (!tx)
		return;
	for (i = 0; i < send->buf.seg_count; i++)
		kfree(tx->segs[i]);
	kfree(tx->segs);
	kfree(tx);
	send->rmpp = NULL;
}

/* The data of segment @seg_num (from 1), or NULL. */
void *ib_mad_rmpp_tx_segment(struct ib_mad_send *send, int seg_num)
{
	if (!send->rmpp || seg_num < 1 || seg_num > send->buf.seg_count)
		return NULL;
	return send->rmpp->segs[seg_num - 1];
}

/* ---- Segments on the wire ------------------------------------------------- */

/*
 * Lay segment @tx->sent + 1 out in the frame: the caller's headers, the
 * RMPP header of this segment, the data. PayloadLength is the whole
 * message's on the first segment and what the last one carries on the
 * last, counted from after the RMPP header as IBA does; zero between.
 */
static void rmpp_tx_frame(struct ib_mad_send *send)
{
	struct ib_mad_send_buf *buf = &send->buf;
	struct ib_mad_rmpp_tx *tx = send->rmpp;
	struct ib_rmpp_mad *frame = (struct ib_rmpp_mad *)tx->frame;
	int num = ++tx->sent;
	u8 flags = IB_MGMT_RMPP_FLAG_ACTIVE;
	u32 paylen = 0;

	lockdep_assert_held(&send->agent->lock);
	memcpy(tx->frame, buf->mad, buf->hdr_len);
	memcpy(tx->frame + buf->hdr_len, tx->segs[num - 1], buf->seg_size);
	if (num == 1) {
		flags |= IB_MGMT_RMPP_FLAG_FIRST;
		paylen = buf->seg_count * buf->seg_rmpp_size - tx->pad;
	}
	if (num == buf->seg_count) {
		flags |= IB_MGMT_RMPP_FLAG_LAST;
		paylen = buf->seg_rmpp_size - tx->pad;
	}
	ib_set_rmpp_flags(&frame->rmpp_hdr, flags);
	frame->rmpp_hdr.seg_num = cpu_to_be32(num);
	frame->rmpp_hdr.paylen_newwin = cpu_to_be32(paylen);
}

/* Post the next segment; false (the send failed) when the QP refused. */
static bool rmpp_tx_post_next(struct ib_mad_send *send)
{
	rmpp_tx_frame(send);
	send->on_wire = true;
	if (!ib_mad_send_to_qp(send))
		return true;
	send->on_wire = false;
	send->status = IB_WC_GENERAL_ERR;
	send->awaits_answer = false;
	return false;
}

static bool rmpp_tx_through(const struct ib_mad_send *send)
{
	return send->rmpp->acked == send->buf.seg_count;
}

/* Whether the next segment may go: the send is live and the window open. */
static bool rmpp_tx_may_send(const struct ib_mad_send *send)
{
	const struct ib_mad_rmpp_tx *tx = send->rmpp;

	return send->status == IB_WC_SUCCESS && send->awaits_answer &&
	       !rmpp_tx_through(send) && tx->sent < tx->window &&
	       tx->sent < send->buf.seg_count;
}

/* The window a response starts with: what the requester's DS ACK said. */
void ib_mad_rmpp_tx_start(struct ib_mad_send *send)
{
	struct ib_mad_rmpp_tx *tx = send->rmpp;

	lockdep_assert_held(&send->agent->lock);
	tx->sent = 0;
	tx->acked = 0;
	tx->window = ib_mad_rmpp_rx_repwin(send->agent, send);
	rmpp_tx_frame(send);
}

/*
 * ib_mad_rmpp_tx_continue() - A segment's send completion arrived
 *
 * True when the next segment is on its way (the send stays on the wire);
 * false when the send now waits for an ACK or the response, or is to be
 * reported.
 */
bool ib_mad_rmpp_tx_continue(struct ib_mad_send *send)
{
	lockdep_assert_held(&send->agent->lock);
	if (!rmpp_tx_may_send(send))
		return false;
	return rmpp_tx_post_next(send);
}

/*
 * ib_mad_rmpp_tx_rewind() - A deadline passed: start again after the last
 * segment ACKed. False when the message is through (waiting for the
 * response, which is not resent).
 */
bool ib_mad_rmpp_tx_rewind(struct ib_mad_send *send)
{
	struct ib_mad_rmpp_tx *tx = send->rmpp;

	lockdep_assert_held(&send->agent->lock);
	if (rmpp_tx_through(send))
		return false;
	tx->sent = tx->acked;
	rmpp_tx_frame(send);
	return true;
}

/* How long a send waits now that it is off the wire. */
u32 ib_mad_rmpp_tx_wait_ms(const struct ib_mad_send *send)
{
	u32 ms = send->buf.timeout_ms;

	if (rmpp_tx_through(send))
		return ms;
	return ms && ms < IB_MAD_RMPP_ACK_MS ? ms : IB_MAD_RMPP_ACK_MS;
}

/* ---- What the receiver says ------------------------------------------------ */

static struct ib_rmpp_hdr *rmpp_hdr_of(const struct ib_mad_recv_wc *rwc)
{
	return &((struct ib_rmpp_mad *)rwc->recv_buf.mad)->rmpp_hdr;
}

/*
 * End the RMPP send @rwc refers to, unless it is through or over already:
 * the peer gave up on it with @status.
 */
void ib_mad_rmpp_tx_end(struct ib_mad_agent_priv *priv,
			struct ib_mad_recv_wc *rwc, u8 status)
{
	struct ib_mad_send *send;
	unsigned long flags;
	bool report = false;

	spin_lock_irqsave(&priv->lock, flags);
	send = ib_mad_send_find_rmpp(priv, &rwc->recv_buf.mad->mad_hdr);
	if (!send || rmpp_tx_through(send) || !send->awaits_answer ||
	    send->status != IB_WC_SUCCESS)
		goto out;
	send->status = IB_WC_REM_ABORT_ERR;
	send->vendor_err = status;
	send->awaits_answer = false;
	report = !send->on_wire;
	if (report)
		list_del_init(&send->node);
out:
	spin_unlock_irqrestore(&priv->lock, flags);
	if (report)
		ib_mad_send_report(send);
}

/* What an ACK makes of a send: the verdicts of rmpp_tx_ack_locked(). */
enum rmpp_ack_verdict {
	RMPP_ACK_IGNORE,	/* old, for nobody, or for a send that is over */
	RMPP_ACK_TOO_FAR,	/* ACKs a segment not sent or out of the window */
	RMPP_ACK_THROUGH,	/* the last segment is ACKed: DS ACK the peer */
	RMPP_ACK_DONE,		/* through and nothing more owed: report */
};

/*
 * Apply an ACK of segment @seg opening the window up to @newwin. Holds
 * the agent's lock; *@done is the send to report on RMPP_ACK_DONE.
 */
static enum rmpp_ack_verdict
rmpp_tx_ack_locked(struct ib_mad_agent_priv *priv,
		   const struct ib_mad_recv_wc *rwc, int seg, int newwin,
		   struct ib_mad_send **done)
{
	struct ib_mad_send *send;
	struct ib_mad_rmpp_tx *tx;

	lockdep_assert_held(&priv->lock);
	send = ib_mad_send_find_rmpp(priv, &rwc->recv_buf.mad->mad_hdr);
	if (!send) {
		/* A requester's DS ACK: the window for our response. */
		if (!seg)
			ib_mad_rmpp_rx_ds_ack(priv, rwc, newwin);
		return RMPP_ACK_IGNORE;
	}
	tx = send->rmpp;
	if (send->status != IB_WC_SUCCESS || !send->awaits_answer)
		return RMPP_ACK_IGNORE;
	/* A repeat of the last ACK while we wait for the response. */
	if (rmpp_tx_through(send))
		return RMPP_ACK_THROUGH;
	if (seg > send->buf.seg_count || seg > tx->window)
		return RMPP_ACK_TOO_FAR;
	if (newwin < tx->window || seg < tx->acked)
		return RMPP_ACK_IGNORE;

	if (seg > tx->acked) {
		tx->acked = seg;
		send->retries_left = send->max_retries;
	}
	tx->window = newwin;
	if (rmpp_tx_through(send)) {
		if (!send->buf.timeout_ms) {
			send->awaits_answer = false;
			if (send->on_wire)
				return RMPP_ACK_IGNORE;
			list_del_init(&send->node);
			*done = send;
			return RMPP_ACK_DONE;
		}
		if (!send->on_wire)
			ib_mad_send_wait(send, send->buf.timeout_ms);
		return RMPP_ACK_THROUGH;
	}
	/* Off the wire, waiting for this ACK: the window moved, go on. */
	if (!send->on_wire && rmpp_tx_may_send(send)) {
		list_move_tail(&send->node, &priv->sends);
		if (!rmpp_tx_post_next(send)) {
			list_del_init(&send->node);
			*done = send;
			return RMPP_ACK_DONE;
		}
	}
	return RMPP_ACK_IGNORE;
}

/**
 * ib_mad_rmpp_tx_ack() - The receiver ACKed segments of one of our sends
 * @priv: the agent the ACK was routed to
 * @rwc: the ACK
 *
 * Context: process context (the CQ's work).
 */
void ib_mad_rmpp_tx_ack(struct ib_mad_agent_priv *priv,
			struct ib_mad_recv_wc *rwc)
{
	struct ib_rmpp_hdr *rh = rmpp_hdr_of(rwc);
	int seg = be32_to_cpu(rh->seg_num);
	int newwin = be32_to_cpu(rh->paylen_newwin);
	struct ib_mad_send *done = NULL;
	enum rmpp_ack_verdict verdict;
	unsigned long flags;

	if (rh->rmpp_status) {
		ib_mad_rmpp_refuse(priv, rwc, IB_MGMT_RMPP_STATUS_BAD_STATUS);
		return;
	}
	if (newwin < seg || seg < 0) {
		ib_mad_rmpp_refuse(priv, rwc, IB_MGMT_RMPP_STATUS_W2S);
		return;
	}
	spin_lock_irqsave(&priv->lock, flags);
	verdict = rmpp_tx_ack_locked(priv, rwc, seg, newwin, &done);
	spin_unlock_irqrestore(&priv->lock, flags);

	switch (verdict) {
	case RMPP_ACK_TOO_FAR:
		ib_mad_rmpp_refuse(priv, rwc, IB_MGMT_RMPP_STATUS_S2B);
		break;
	case RMPP_ACK_THROUGH:
		/* Tell the responder the window it may use for its answer. */
		ib_mad_rmpp_reply(priv, rwc, IB_MGMT_RMPP_TYPE_ACK, 0, 0, 1);
		break;
	case RMPP_ACK_DONE:
		ib_mad_send_report(done);
		break;
	case RMPP_ACK_IGNORE:
		break;
	}
}

/**
 * ib_mad_rmpp_tx_stop() - The receiver asked us to stop sending
 * @priv: the agent
 * @rwc: the STOP; its status must be "resources exhausted"
 *
 * Context: process context (the CQ's work).
 */
void ib_mad_rmpp_tx_stop(struct ib_mad_agent_priv *priv,
			 struct ib_mad_recv_wc *rwc)
{
	u8 status = rmpp_hdr_of(rwc)->rmpp_status;

	if (status != IB_MGMT_RMPP_STATUS_RESX)
		ib_mad_rmpp_refuse(priv, rwc, IB_MGMT_RMPP_STATUS_BAD_STATUS);
	else
		ib_mad_rmpp_tx_end(priv, rwc, status);
}

/**
 * ib_mad_rmpp_tx_abort() - The receiver aborted one of our sends
 * @priv: the agent
 * @rwc: the ABORT; its status must be one of the abort codes
 *
 * Context: process context (the CQ's work).
 */
void ib_mad_rmpp_tx_abort(struct ib_mad_agent_priv *priv,
			  struct ib_mad_recv_wc *rwc)
{
	u8 status = rmpp_hdr_of(rwc)->rmpp_status;

	if (status < IB_MGMT_RMPP_STATUS_ABORT_MIN ||
	    status > IB_MGMT_RMPP_STATUS_ABORT_MAX)
		ib_mad_rmpp_refuse(priv, rwc, IB_MGMT_RMPP_STATUS_BAD_STATUS);
	else
		ib_mad_rmpp_tx_end(priv, rwc, status);
}
