// SPDX-License-Identifier: GPL-2.0-only
/* Received CM MADs: checked, decoded, routed to their cm_id (or a new one) and fed to the table. */

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "cm/cm.h"

/* MessageMRAed / MessageRejected value for a REQ. */
#define CM_MSG_ANSWERS_REQ	0

/*
 * Count a message dropped and say why, rate limited: every drop is the
 * peer's doing, one line per packet would let it flood the log. A message
 * that breaks the protocol is worth a warning; one that finds nobody (a
 * connection gone, a service nobody offers) is routine.
 */
static void cm_recv_drop(enum cm_drop_reason reason, const struct cm_in *in,
			 const char *why)
{
	atomic_long_inc(&cm_drops[reason]);
	if (reason == CM_DROP_MALFORMED)
		pr_warn_ratelimited("port %u: malformed %s dropped: %s\n",
				    in->port->port_num,
				    cm_input_name(in->input), why);
	else
		pr_debug_ratelimited("port %u: %s dropped: %s\n",
				     in->port->port_num,
				     cm_input_name(in->input), why);
}

/*
 * Feed @in to @priv, whose reference this takes. An answer a handler made
 * (a repeated RTU, MRA or DREP, a REJ) goes once the id's lock is
 * released: its address handle may sleep to resolve the sender's MAC.
 */
static int cm_recv_feed(struct cm_id_priv *priv, struct cm_in *in)
{
	struct cm_reply reply = {};
	int ret;

	in->reply = &reply;
	ret = cm_table_feed(priv, in);
	in->reply = NULL;
	cm_id_put(priv);
	if (reply.pending)
		cm_wire->reply(in, &reply.out);
	return ret;
}

/*
 * The bytes of the MAD that arrived. The MAD layer hands every receive
 * over as a whole MAD (mad_len 256), the buffer zeroed beyond what came
 * in; only the completion says how much did: its byte count, which on a
 * UD QP includes the 40 bytes kept for the GRH. Every CM message fills
 * the whole MAD, so a shorter one was cut on the way (or sent so).
 */
static size_t cm_recv_len(const struct ib_mad_recv_wc *rwc)
{
	u32 got;

	if (!rwc->wc)
		return rwc->mad_len;
	got = rwc->wc->byte_len;
	got = got > sizeof(struct ib_grh) ? got - sizeof(struct ib_grh) : 0;
	return min_t(size_t, rwc->mad_len, got);
}

/**
 * cm_recv_check() - Whether a received MAD is a CM message we can decode
 * @rwc: the receive
 *
 * Return: its enum cm_msg_kind, or -EINVAL (shorter than a whole MAD, not
 * CM class version 2, not a SEND, an attribute that is no CM message).
 */
int cm_recv_check(const struct ib_mad_recv_wc *rwc)
{
	const struct ib_mad_hdr *hdr;

	if (!rwc || !rwc->recv_buf.mad ||
	    cm_recv_len(rwc) < sizeof(struct ib_mad))
		return -EINVAL;
	hdr = &rwc->recv_buf.mad->mad_hdr;
	if (hdr->base_version != IB_MGMT_BASE_VERSION ||
	    hdr->mgmt_class != IB_MGMT_CLASS_CM ||
	    hdr->class_version != CM_MSG_CLASS_VERSION ||
	    hdr->method != IB_MGMT_METHOD_SEND)
		return -EINVAL;
	return cm_msg_kind_of(hdr->attr_id);
}
EXPORT_SYMBOL_IF_KUNIT(cm_recv_check);

/*
 * A length field that claims more than its field holds. IBA gives the
 * REJ's ARI, the SIDR REP's and the APR's additional information 72
 * bytes each, and 6.1 refuses to send more; a peer that says otherwise
 * sent garbage, which no consumer should be handed (6.1 hands it on).
 */
static const char *cm_recv_bad_length(int kind, const union cm_msg_any *m)
{
	switch (kind) {
	case CM_MSG_REJ:
		return m->rej.ari_length > CM_REJ_ARI_SIZE ? "ARI length" : NULL;
	case CM_MSG_SIDR_REP:
		return m->sidr_rep.info_length > CM_SIDR_REP_INFO_SIZE ?
		       "additional information length" : NULL;
	case CM_MSG_APR:
		return m->apr.info_length > CM_APR_INFO_SIZE ?
		       "additional information length" : NULL;
	default:
		return NULL;
	}
}

/* ---- Messages to an existing id ----------------------------------------- */

static struct cm_id_priv *cm_recv_by_ids(u32 local, u32 remote)
{
	return cm_id_acquire(cpu_to_be32(local), cpu_to_be32(remote));
}

static struct cm_id_priv *cm_recv_mra_target(const struct cm_msg_mra *mra)
{
	return cm_recv_by_ids(mra->remote_comm_id,
			      mra->message_mraed == CM_MSG_ANSWERS_REQ ?
			      0 : mra->local_comm_id);
}

/* A REJ for our REQ that timed out names us by our CA GUID in its ARI. */
static struct cm_id_priv *cm_recv_rej_target(const struct cm_msg_rej *rej)
{
	struct cm_timewait *tw;
	__be32 local_id = 0;
	__be64 guid;

	if (rej->reason != IB_CM_REJ_TIMEOUT) {
		return cm_recv_by_ids(rej->remote_comm_id,
				      rej->message_rejected ==
				      CM_MSG_ANSWERS_REQ ?
				      0 : rej->local_comm_id);
	}
	memcpy(&guid, rej->ari, sizeof(guid));
	spin_lock_irq(&cm.lock);
	tw = cm_remote_id_find(cpu_to_be32(rej->local_comm_id), guid);
	if (tw)
		local_id = tw->local_id;
	spin_unlock_irq(&cm.lock);
	return local_id ? cm_id_acquire(local_id,
					cpu_to_be32(rej->local_comm_id)) :
			  NULL;
}

/* The id a message other than REQ and SIDR REQ is for, with a reference. */
static struct cm_id_priv *cm_recv_target(const struct cm_in *in)
{
	const union cm_msg_any *m = in->msg;
	struct cm_id_priv *priv;

	switch (in->input) {
	case CM_IN_MRA:
		return cm_recv_mra_target(&m->mra);
	case CM_IN_REJ:
	case CM_IN_REJ_STALE:
		return cm_recv_rej_target(&m->rej);
	case CM_IN_REP:
		/* The first REP finds an id that knows no remote ID yet. */
		priv = cm_recv_by_ids(m->rep.remote_comm_id, 0);
		return priv ?: cm_recv_by_ids(m->rep.remote_comm_id,
					      m->rep.local_comm_id);
	case CM_IN_SIDR_REP:
		return cm_recv_by_ids(m->sidr_rep.request_id, 0);
	default:
		/* RTU, DREQ, DREP, LAP, APR: both IDs lead the same way. */
		return cm_recv_by_ids(m->rtu.remote_comm_id,
				      m->rtu.local_comm_id);
	}
}

/* A DREQ for a connection we no longer know: say it is gone. */
static void cm_recv_dreq_unknown(const struct cm_in *in)
{
	const struct cm_msg_dreq *dreq = in->msg;
	struct cm_out out = { .kind = CM_MSG_DREP, .tid = in->tid };

	/* 6.1 counts it as a duplicate: the peer missed our DREP. */
	atomic_long_inc(&in->port->counts[CM_COUNT_RX_DUP][CM_MSG_DREQ]);
	out.msg.drep.local_comm_id = dreq->remote_comm_id;
	out.msg.drep.remote_comm_id = dreq->local_comm_id;
	cm_reply(in, &out);
}

static int cm_recv_existing(struct cm_in *in)
{
	struct cm_id_priv *priv = cm_recv_target(in);

	if (priv)
		return cm_recv_feed(priv, in);
	cm_recv_drop(CM_DROP_NO_ID, in, "no cm_id");
	if (in->input == CM_IN_DREQ)
		cm_recv_dreq_unknown(in);
	return -ENOENT;
}

/* ---- Messages that make a new id ---------------------------------------- */

/* A REJ to a REQ we have no id for (no listener, stale connection). */
static void cm_recv_req_reject(const struct cm_in *in, u16 reason)
{
	const struct cm_msg_req *req = in->msg;
	struct cm_out out = { .kind = CM_MSG_REJ, .tid = in->tid };

	out.msg.rej.remote_comm_id = req->local_comm_id;
	out.msg.rej.message_rejected = CM_MSG_ANSWERS_REQ;
	out.msg.rej.reason = reason;
	cm_reply(in, &out);
}

/* The id that has this REQ's connection, with a reference, or NULL. */
static struct cm_id_priv *cm_recv_req_known(const struct cm_msg_req *req)
{
	struct cm_timewait *tw;
	__be32 local_id = 0;

	spin_lock_irq(&cm.lock);
	tw = cm_remote_id_find(cpu_to_be32(req->local_comm_id),
			       cpu_to_be64(req->local_ca_guid));
	if (tw)
		local_id = tw->local_id;
	spin_unlock_irq(&cm.lock);
	return local_id ? cm_id_acquire(local_id,
					cpu_to_be32(req->local_comm_id)) :
			  NULL;
}

/*
 * Claim the connection of @in's REQ for the new id @priv: enter it in the
 * remote lookups. -EALREADY: another id has it (a duplicate that raced
 * us); -ESTALE: its QP still has a live connection here.
 */
static int cm_recv_req_claim(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_req *req = in->msg;
	struct cm_timewait *tw;
	int ret = 0;

	tw = cm_timewait_alloc(priv, GFP_KERNEL);
	if (!tw)
		return -ENOMEM;
	tw->remote_id = cpu_to_be32(req->local_comm_id);
	tw->remote_ca_guid = cpu_to_be64(req->local_ca_guid);
	tw->remote_qpn = req->local_qpn;
	spin_lock_irq(&cm.lock);
	if (cm_remote_id_insert(tw)) {
		ret = -EALREADY;
	} else if (cm_remote_qpn_insert(tw)) {
		cm_remote_erase(tw);
		ret = -ESTALE;
	}
	spin_unlock_irq(&cm.lock);
	if (ret) {
		kfree(tw);
		return ret;
	}
	priv->tw = tw;
	return 0;
}

static struct cm_id_priv *cm_recv_new_id(struct cm_in *in,
					 struct cm_id_priv *listener)
{
	struct cm_id_priv *priv;

	priv = cm_id_alloc(listener->id.device, listener->id.cm_handler,
			   listener->id.context);
	if (IS_ERR(priv))
		return priv;
	if (cm_wire->av_from_wc(&priv->av, in)) {
		cm_id_destroy(priv, -ENOMEM);
		return ERR_PTR(-EINVAL);
	}
	return priv;
}

/* Give @in to the new @priv; it goes if the table does not take it. */
static int cm_recv_new_feed(struct cm_id_priv *priv, struct cm_in *in)
{
	int ret;

	priv->id.remote_id = priv->tw ? priv->tw->remote_id : 0;
	cm_id_publish(priv);
	ret = cm_table_feed(priv, in);
	if (ret)
		cm_id_destroy(priv, -ENOMEM);
	return ret;
}

static int cm_recv_req(struct cm_in *in)
{
	const struct cm_msg_req *req = in->msg;
	struct cm_id_priv *priv, *listener;
	int ret;

	if (cm_req_qp_type(req) == IB_QPT_MAX) {
		cm_recv_drop(CM_DROP_MALFORMED, in, "transport type");
		return -EINVAL;
	}
	priv = cm_recv_req_known(req);
	if (priv)
		return cm_recv_feed(priv, in);
	listener = cm_listen_find(in->port->dev->device,
				  cpu_to_be64(req->service_id));
	if (!listener) {
		cm_recv_drop(CM_DROP_NO_ID, in, "no listener");
		cm_recv_req_reject(in, IB_CM_REJ_INVALID_SERVICE_ID);
		return -ENOENT;
	}
	in->listener = listener;
	priv = cm_recv_new_id(in, listener);
	ret = PTR_ERR_OR_ZERO(priv);
	if (ret)
		goto out;
	ret = cm_recv_req_claim(priv, in);
	if (ret) {
		cm_id_destroy(priv, -ENOMEM);
		if (ret == -ESTALE)
			cm_recv_req_reject(in, IB_CM_REJ_STALE_CONN);
		cm_recv_drop(CM_DROP_REFUSED, in, "duplicate or stale");
		goto out;
	}
	ret = cm_recv_new_feed(priv, in);
out:
	cm_id_put(listener);
	return ret;
}

/*
 * A SIDR REQ for a service nobody listens on: the SIDR REP says so with
 * status 1 (IB_SIDR_UNSUPPORTED), as 6.1 does, and names the request and
 * the service; the asker hears UNREACHABLE at once instead of retrying.
 */
static void cm_recv_sidr_unsupported(const struct cm_in *in)
{
	const struct cm_msg_sidr_req *req = in->msg;
	struct cm_out out = { .kind = CM_MSG_SIDR_REP, .tid = in->tid };

	out.msg.sidr_rep.request_id = req->request_id;
	out.msg.sidr_rep.status = IB_SIDR_UNSUPPORTED;
	out.msg.sidr_rep.service_id = req->service_id;
	cm_reply(in, &out);
}

static int cm_recv_sidr_req(struct cm_in *in)
{
	const struct cm_msg_sidr_req *req = in->msg;
	struct cm_id_priv *priv, *listener, *known;
	int ret;

	listener = cm_listen_find(in->port->dev->device,
				  cpu_to_be64(req->service_id));
	if (!listener) {
		cm_recv_drop(CM_DROP_NO_ID, in, "no listener");
		cm_recv_sidr_unsupported(in);
		return -ENOENT;
	}
	in->listener = listener;
	priv = cm_recv_new_id(in, listener);
	ret = PTR_ERR_OR_ZERO(priv);
	if (ret)
		goto out;
	priv->sidr_remote_id = req->request_id;
	if (in->wc && in->wc->wc && in->wc->recv_buf.grh &&
	    (in->wc->wc->wc_flags & IB_WC_GRH))
		priv->sidr_gid = in->wc->recv_buf.grh->sgid;
	known = cm_sidr_insert(priv);
	if (known) {
		cm_id_destroy(priv, -ENOMEM);
		ret = cm_recv_feed(known, in);
		goto out;
	}
	ret = cm_recv_new_feed(priv, in);
out:
	cm_id_put(listener);
	return ret;
}

/**
 * cm_recv_mad() - Handle one received CM MAD
 * @port: the port it arrived on
 * @rwc: the receive; the caller frees it
 *
 * Context: process (the MAD layer's completion work); may sleep.
 * Return: 0 when a cm_id took it, else why it was dropped (counted).
 */
int cm_recv_mad(struct cm_port *port, const struct ib_mad_recv_wc *rwc)
{
	union cm_msg_any *msg;
	struct cm_in in = { .port = port, .wc = rwc };
	int kind = cm_recv_check(rwc);
	const char *why;
	int ret;

	if (kind < 0) {
		atomic_long_inc(&cm_drops[CM_DROP_MALFORMED]);
		pr_warn_ratelimited("port %u: malformed CM MAD dropped (short, header, attribute)\n",
				    port->port_num);
		return -EINVAL;
	}
	atomic_long_inc(&port->counts[CM_COUNT_RX][kind]);
	msg = kmalloc(sizeof(*msg), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	cm_msg_decode(kind, rwc->recv_buf.mad, msg);
	in.input = kind;
	in.msg = msg;
	in.tid = rwc->recv_buf.mad->mad_hdr.tid;
	why = cm_recv_bad_length(kind, msg);
	if (why) {
		cm_recv_drop(CM_DROP_MALFORMED, &in, why);
		kfree(msg);
		return -EINVAL;
	}
	if (kind == CM_MSG_REJ && msg->rej.reason == IB_CM_REJ_STALE_CONN)
		in.input = CM_IN_REJ_STALE;
	if (kind == CM_MSG_REQ)
		ret = cm_recv_req(&in);
	else if (kind == CM_MSG_SIDR_REQ)
		ret = cm_recv_sidr_req(&in);
	else
		ret = cm_recv_existing(&in);
	kfree(msg);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cm_recv_mad);

/* The CM agent's receive handler. */
void cm_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *rwc)
{
	cm_recv_mad(agent->context, rwc);
	ib_free_recv_mad(rwc);
}
