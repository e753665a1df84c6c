// SPDX-License-Identifier: GPL-2.0-only
/*
 * RMPP receiving: segments of one message put in order, ACKed window by window,
 * delivered as one.
 */

#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

/*
 * The receiver's side of IBA 13.6
 *
 * A message is known by its TID, class, class version, method and where
 * it comes from (source QP and LID). Its first segment (number 1, flag
 * FIRST) opens a struct mad_rmpp_rx on the agent; the segments that
 * follow are kept in the first one's rmpp_list sorted by number, whatever
 * order they arrive in. @last counts the segments that arrived without a
 * gap; @window is the last segment we take, and each time @last reaches
 * it the window moves on by an eighth of the receive queue (6.1's
 * choice) and we ACK. A segment beyond the window is
 * dropped, one at or below what we ACKed already is ACKed again (the
 * sender lost our ACK). When the segment with LAST joins the run the
 * message is complete: ACKed, and handed to the agent as one
 * ib_mad_recv_wc whose rmpp_list holds every segment in order.
 *
 * Two times, one delayed work: a message not complete
 * ib_mad_rmpp_recv_timeout_ms after its first segment is dropped and the
 * sender told so (ABORT, "total time too long"); a complete one is
 * remembered ib_mad_rmpp_linger_ms more, to ACK the sender's repeats and
 * to keep the window a requester asks for its response (a DS ACK).
 *
 * Locking: the list of an agent and every field of its entries are under
 * the agent's lock; nothing here sleeps under it. Every entry holds a
 * reference on its agent; unregistration cancels them all.
 */

unsigned int ib_mad_rmpp_recv_timeout_ms = 40000;
EXPORT_SYMBOL_IF_KUNIT(ib_mad_rmpp_recv_timeout_ms);
unsigned int ib_mad_rmpp_linger_ms = 10000;
EXPORT_SYMBOL_IF_KUNIT(ib_mad_rmpp_linger_ms);

enum mad_rmpp_rx_state {
	MAD_RMPP_RX_ACTIVE,	/* segments arriving */
	MAD_RMPP_RX_DONE,	/* delivered; remembered for repeats */
};

/*
 * What tells one message from another: the exchange (class, version,
 * method, TID) and the sender (source QP and LID).
 */
struct mad_rmpp_key {
	u8	mgmt_class;
	u8	class_version;
	u8	method;
	u32	src_qp;
	u32	slid;
	__be64	tid;
};

/**
 * struct mad_rmpp_rx - one RMPP message being (or just) received
 * @key: which message
 * @state: see enum mad_rmpp_rx_state
 * @last: number of @tail
 * @acked: last segment number ACKed
 * @window: last segment number we take
 * @repwin: window the requester asked for our response (DS ACK)
 * @head: the first segment, whose rmpp_list holds all (ACTIVE only)
 * @tail: the last segment of the run without gaps
 * @agent: the agent, referenced
 * @node: in the agent's @rmpp_rxs
 * @timer: the receive timeout while ACTIVE, the end of lingering when DONE
 * @expires: when @timer's time is up (jiffies)
 * @cancelled: taken off by unregistration: the timer does nothing
 */
struct mad_rmpp_rx {
	struct mad_rmpp_key	key;
	enum mad_rmpp_rx_state	state;
	int			last;
	int			acked;
	int			window;
	int			repwin;
	struct ib_mad_recv_wc	*head;
	struct ib_mad_recv_buf	*tail;
	struct ib_mad_agent_priv *agent;
	struct list_head	node;
	struct delayed_work	timer;
	unsigned long		expires;
	bool			cancelled;
};

/**
 * struct mad_rmpp_rx_verdict - what a segment did, to act on unlocked
 * @kept: the segment is now part of a message (else it is freed)
 * @ack: send an ACK of @ack_seg with NewWindowLast @ack_win
 * @ack_seg: see @ack
 * @ack_win: see @ack
 * @done: the message it completed, to deliver
 */
struct mad_rmpp_rx_verdict {
	bool			kept;
	bool			ack;
	u32			ack_seg;
	u32			ack_win;
	struct ib_mad_recv_wc	*done;
};

static struct ib_rmpp_hdr *seg_hdr(const struct ib_mad_recv_buf *buf)
{
	return &((struct ib_rmpp_mad *)buf->mad)->rmpp_hdr;
}

static int seg_num(const struct ib_mad_recv_buf *buf)
{
	return be32_to_cpu(seg_hdr(buf)->seg_num);
}

static bool seg_is_last(const struct ib_mad_recv_buf *buf)
{
	return ib_get_rmpp_flags(seg_hdr(buf)) & IB_MGMT_RMPP_FLAG_LAST;
}

/* How far each ACK moves the window: an eighth of the receive queue. */
static int rmpp_rx_window_step(void)
{
	return max(ib_mad_recvq_size >> 3, 1);
}

static struct mad_rmpp_key rmpp_key_of(const struct ib_mad_recv_wc *rwc)
{
	const struct ib_mad_hdr *hdr = &rwc->recv_buf.mad->mad_hdr;

	return (struct mad_rmpp_key) {
		.mgmt_class = hdr->mgmt_class,
		.class_version = hdr->class_version,
		.method = hdr->method,
		.src_qp = rwc->wc->src_qp,
		.slid = rwc->wc->slid,
		.tid = hdr->tid,
	};
}

static bool rmpp_key_eq(const struct mad_rmpp_key *a,
			const struct mad_rmpp_key *b)
{
	return a->tid == b->tid && a->src_qp == b->src_qp &&
	       a->slid == b->slid && a->mgmt_class == b->mgmt_class &&
	       a->class_version == b->class_version && a->method == b->method;
}

static struct mad_rmpp_rx *rmpp_rx_find(struct ib_mad_agent_priv *priv,
					const struct ib_mad_recv_wc *rwc)
{
	struct mad_rmpp_key key = rmpp_key_of(rwc);
	struct mad_rmpp_rx *rx;

	lockdep_assert_held(&priv->lock);
	list_for_each_entry(rx, &priv->rmpp_rxs, node)
		if (rmpp_key_eq(&rx->key, &key))
			return rx;
	return NULL;
}

/* ACK what arrived so far; the ACK says the window as it stands now. */
static void rmpp_rx_ack(struct mad_rmpp_rx *rx, struct mad_rmpp_rx_verdict *v)
{
	rx->acked = rx->last;
	v->ack = true;
	v->ack_seg = rx->last;
	v->ack_win = rx->window;
}

/*
 * Length of the whole message: every segment but the last full, the
 * last one as long as its PayloadLength says (a length beyond one
 * segment's RMPP payload is taken as a full segment).
 */
static int rmpp_rx_length(const struct mad_rmpp_rx *rx)
{
	int hdr_len = ib_get_mad_data_offset(rx->key.mgmt_class);
	u32 paylen = be32_to_cpu(seg_hdr(rx->tail)->paylen_newwin);
	int short_by = 0;

	if (paylen <= IB_MGMT_RMPP_DATA)
		short_by = IB_MGMT_RMPP_DATA - paylen;
	return hdr_len + rx->last * (IB_MGMT_MAD_SIZE - hdr_len) - short_by;
}

/* The message is whole: hand it over, remember the exchange a while. */
static void rmpp_rx_complete(struct mad_rmpp_rx *rx,
			     struct mad_rmpp_rx_verdict *v)
{
	lockdep_assert_held(&rx->agent->lock);
	rx->state = MAD_RMPP_RX_DONE;
	rx->head->mad_len = rmpp_rx_length(rx);
	v->done = rx->head;
	rx->head = NULL;
	rx->tail = NULL;
	rmpp_rx_ack(rx, v);
	rx->expires = jiffies + msecs_to_jiffies(ib_mad_rmpp_linger_ms);
	mod_delayed_work(rx->agent->port->wq, &rx->timer,
			 msecs_to_jiffies(ib_mad_rmpp_linger_ms));
}

/* Extend the run without gaps as far as the kept segments allow. */
static void rmpp_rx_advance(struct mad_rmpp_rx *rx,
			    struct mad_rmpp_rx_verdict *v)
{
	struct list_head *segs = &rx->head->rmpp_list;
	struct ib_mad_recv_buf *next;

	while (!list_is_last(&rx->tail->list, segs)) {
		next = list_next_entry(rx->tail, list);
		if (seg_num(next) != rx->last + 1)
			break;
		rx->tail = next;
		rx->last++;
	}
	if (seg_is_last(rx->tail)) {
		rmpp_rx_complete(rx, v);
	} else if (rx->last == rx->window) {
		rx->window += rmpp_rx_window_step();
		rmpp_rx_ack(rx, v);
	}
}

/*
 * Put segment @rwc in its place among the kept ones: after the last one
 * with a lower number. False for a segment we hold already.
 */
static bool rmpp_rx_insert(struct mad_rmpp_rx *rx, struct ib_mad_recv_wc *rwc)
{
	struct ib_mad_recv_buf *pos;
	int num = seg_num(&rwc->recv_buf);

	list_for_each_entry_reverse(pos, &rx->head->rmpp_list, list) {
		if (seg_num(pos) == num)
			return false;
		if (seg_num(pos) < num) {
			list_del_init(&rwc->recv_buf.list);
			list_add(&rwc->recv_buf.list, &pos->list);
			return true;
		}
	}
	return false;
}

/* A segment of a message we know, with the agent's lock held. */
static void rmpp_rx_segment(struct mad_rmpp_rx *rx, struct ib_mad_recv_wc *rwc,
			    struct mad_rmpp_rx_verdict *v)
{
	int num = seg_num(&rwc->recv_buf);

	lockdep_assert_held(&rx->agent->lock);
	if (num > rx->window)
		return;
	if (num <= rx->acked || rx->state == MAD_RMPP_RX_DONE) {
		rmpp_rx_ack(rx, v);
		return;
	}
	if (!rmpp_rx_insert(rx, rwc))
		return;
	v->kept = true;
	rmpp_rx_advance(rx, v);
}

/* The first segment of a new message opens @rx, with the agent's lock held. */
static void rmpp_rx_begin(struct mad_rmpp_rx *rx, struct ib_mad_recv_wc *rwc,
			  struct mad_rmpp_rx_verdict *v)
{
	struct ib_mad_agent_priv *priv = rx->agent;

	lockdep_assert_held(&priv->lock);
	rx->key = rmpp_key_of(rwc);
	rx->head = rwc;
	rx->tail = &rwc->recv_buf;
	rx->last = 1;
	rx->window = 1;
	rx->repwin = 1;
	rx->state = MAD_RMPP_RX_ACTIVE;
	refcount_inc(&priv->refs);
	list_add_tail(&rx->node, &priv->rmpp_rxs);
	v->kept = true;
	if (seg_is_last(rx->tail)) {
		rmpp_rx_complete(rx, v);
		return;
	}
	rx->window += rmpp_rx_window_step();
	rmpp_rx_ack(rx, v);
	rx->expires = jiffies + msecs_to_jiffies(ib_mad_rmpp_recv_timeout_ms);
	queue_delayed_work(priv->port->wq, &rx->timer,
			   msecs_to_jiffies(ib_mad_rmpp_recv_timeout_ms));
}

static void rmpp_rx_free(struct mad_rmpp_rx *rx)
{
	struct ib_mad_agent_priv *priv = rx->agent;

	if (rx->head)
		ib_free_recv_mad(rx->head);
	kfree(rx);
	ib_mad_agent_put(priv);
}

/*
 * The delayed work of a message: time is up for an incomplete one (the
 * sender is told with an ABORT) or for remembering a complete one.
 */
static void rmpp_rx_timer_fn(struct work_struct *work)
{
	struct mad_rmpp_rx *rx = container_of(to_delayed_work(work),
					      struct mad_rmpp_rx, timer);
	struct ib_mad_agent_priv *priv = rx->agent;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (rx->cancelled || time_before(jiffies, rx->expires)) {
		spin_unlock_irqrestore(&priv->lock, flags);
		return;
	}
	list_del_init(&rx->node);
	spin_unlock_irqrestore(&priv->lock, flags);

	if (rx->head) {
		dev_dbg_ratelimited(&priv->port->device->dev,
				    "RMPP message (class 0x%x TID 0x%llx) from QP%u incomplete after %u ms: %d segments\n",
				    rx->key.mgmt_class, be64_to_cpu(rx->key.tid),
				    rx->key.src_qp, ib_mad_rmpp_recv_timeout_ms,
				    rx->last);
		ib_mad_rmpp_reply(priv, rx->head, IB_MGMT_RMPP_TYPE_ABORT,
				  IB_MGMT_RMPP_STATUS_T2L, 0, 0);
	}
	rmpp_rx_free(rx);
}

/* A DATA segment's own faults: 0, or the RMPP status to ABORT with. */
static u8 rmpp_rx_check(const struct ib_mad_recv_wc *rwc)
{
	const struct ib_rmpp_hdr *rh = seg_hdr(&rwc->recv_buf);
	bool first = ib_get_rmpp_flags((struct ib_rmpp_hdr *)rh) &
		     IB_MGMT_RMPP_FLAG_FIRST;
	bool seg1 = rh->seg_num == cpu_to_be32(1);

	if (rh->rmpp_status)
		return IB_MGMT_RMPP_STATUS_BAD_STATUS;
	/* Segment 1 and only it carries FIRST. */
	if (first != seg1)
		return IB_MGMT_RMPP_STATUS_BAD_SEG;
	return 0;
}

/**
 * ib_mad_rmpp_rx_data() - A DATA segment for a kernel-RMPP agent
 * @priv: the agent
 * @rwc: the segment, active RMPP of version 1
 *
 * Context: process context (the CQ's work), may sleep.
 * Return: the whole message when @rwc completed one, else NULL (@rwc kept
 * in its message, or freed).
 */
struct ib_mad_recv_wc *ib_mad_rmpp_rx_data(struct ib_mad_agent_priv *priv,
					   struct ib_mad_recv_wc *rwc)
{
	struct mad_rmpp_rx *rx, *fresh = NULL;
	struct mad_rmpp_rx_verdict v = {};
	struct ib_mad_rmpp_answer *ack;
	unsigned long flags;
	u8 status;

	status = rmpp_rx_check(rwc);
	if (status) {
		ib_mad_rmpp_reply(priv, rwc, IB_MGMT_RMPP_TYPE_ABORT, status,
				  0, 0);
		goto drop;
	}
	/* A response goes with a request: none waiting, nobody wants it. */
	if (ib_response_mad(&rwc->recv_buf.mad->mad_hdr) &&
	    !ib_mad_send_expects(priv, &rwc->recv_buf.mad->mad_hdr))
		goto drop;
	if (seg_num(&rwc->recv_buf) == 1) {
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
		if (!fresh)
			goto drop;
		fresh->agent = priv;
		INIT_LIST_HEAD(&fresh->node);
		INIT_DELAYED_WORK(&fresh->timer, rmpp_rx_timer_fn);
	}
	/*
	 * The ACK is made now: once @rwc is kept in a message, the receive
	 * timeout may free it as soon as the lock is dropped. Without
	 * memory no ACK goes; the sender resends.
	 */
	ack = ib_mad_rmpp_answer_new(rwc, IB_MGMT_RMPP_TYPE_ACK, 0);

	spin_lock_irqsave(&priv->lock, flags);
	rx = rmpp_rx_find(priv, rwc);
	if (rx) {
		/* A repeated first segment is a segment like any other. */
		rmpp_rx_segment(rx, rwc, &v);
	} else if (fresh && !priv->rmpp_closing) {
		rmpp_rx_begin(fresh, rwc, &v);
		fresh = NULL;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	kfree(fresh);

	if (v.ack)
		ib_mad_rmpp_answer_send(priv, ack, v.ack_seg, v.ack_win);
	else
		kfree(ack);
	if (v.done)
		return v.done;
	if (v.kept)
		return NULL;
drop:
	ib_free_recv_mad(rwc);
	return NULL;
}

/**
 * ib_mad_rmpp_rx_ds_ack() - A requester's ACK of our ACKs (seg_num 0)
 * @priv: the agent
 * @rwc: the ACK; it names the request we received
 * @newwin: the window it gives our response
 *
 * Context: the agent's lock held.
 */
void ib_mad_rmpp_rx_ds_ack(struct ib_mad_agent_priv *priv,
			   const struct ib_mad_recv_wc *rwc, u32 newwin)
{
	struct mad_rmpp_rx *rx = rmpp_rx_find(priv, rwc);

	if (rx && rx->state == MAD_RMPP_RX_DONE)
		rx->repwin = newwin;
}

/**
 * ib_mad_rmpp_rx_repwin() - The window an RMPP send starts with
 * @priv: the agent
 * @send: the send being posted
 *
 * A response to an RMPP request whose sender gave us a window with a DS
 * ACK starts with that window; everything else with one segment. (6.1
 * also compares the request's source LID with the response's address
 * handle; we compare TID, class and version, which our TIDs make unique.)
 *
 * Context: the agent's lock held.
 * Return: the window, at least 1.
 */
int ib_mad_rmpp_rx_repwin(struct ib_mad_agent_priv *priv,
			  const struct ib_mad_send *send)
{
	const struct ib_mad_hdr *hdr = send->buf.mad;
	struct mad_rmpp_rx *rx;

	lockdep_assert_held(&priv->lock);
	if (!ib_response_mad(hdr))
		return 1;
	list_for_each_entry(rx, &priv->rmpp_rxs, node) {
		const struct mad_rmpp_key *k = &rx->key;

		if (k->tid == hdr->tid && k->mgmt_class == hdr->mgmt_class &&
		    k->class_version == hdr->class_version &&
		    !(k->method & IB_MGMT_METHOD_RESP))
			return max(rx->repwin, 1);
	}
	return 1;
}

/**
 * ib_mad_rmpp_rx_cancel_all() - Unregistration: forget every message
 * @priv: the agent being unregistered
 *
 * Incomplete messages are freed, no new one starts afterwards.
 *
 * Context: process context, may sleep.
 */
void ib_mad_rmpp_rx_cancel_all(struct ib_mad_agent_priv *priv)
{
	struct mad_rmpp_rx *rx, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&priv->lock, flags);
	priv->rmpp_closing = true;
	list_splice_init(&priv->rmpp_rxs, &gone);
	list_for_each_entry(rx, &gone, node)
		rx->cancelled = true;
	spin_unlock_irqrestore(&priv->lock, flags);

	list_for_each_entry_safe(rx, tmp, &gone, node) {
		list_del(&rx->node);
		cancel_delayed_work_sync(&rx->timer);
		rmpp_rx_free(rx);
	}
}
