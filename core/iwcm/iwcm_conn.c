// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cells of connection setup: listen, connect, accept, reject, a request's new
 * id, the driver's answers.
 */

#include "iwcm/iwcm.h"

/*
 * Every handler here runs under the id's lock (iwcm_table_run()) and
 * must not sleep: what needs the driver or may sleep goes into in->fx.
 * Taking a QP reference (iw_add_ref) is atomic-safe in every driver, as
 * 6.1 takes it under its id lock too.
 */

/* Take the event entries @in brought into the id's pool. */
static void iwcm_pool_take(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	if (in->pool)
		list_splice_tail_init(in->pool, &priv->free);
}

/* Hold @qp for the connection being set up. */
static void iwcm_qp_attach(struct iwcm_id_priv *priv, struct ib_qp *qp)
{
	priv->id.device->ops.iw_add_ref(qp);
	priv->qp = qp;
}

/* connect, accept or reject is answered: disconnect and destroy may go. */
static void iwcm_pending_clear(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	priv->pending = false;
	in->fx.wake = true;
}

/* IDLE -> LISTEN: the driver is asked to listen once we return. */
int iwcm_h_listen(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_pool_take(priv, in);
	iwcm_addr_map(&priv->id);
	return 0;
}

/* IDLE -> CONN_SENT: the driver is asked to connect once we return. */
int iwcm_h_connect(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	if (!in->qp)
		return -EINVAL;
	iwcm_pool_take(priv, in);
	iwcm_qp_attach(priv, in->qp);
	priv->pending = true;
	iwcm_addr_map(&priv->id);
	return 0;
}

/* CONN_RECV stays: the driver is asked to accept once we return. */
int iwcm_h_accept(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	/* Accepting twice would take a second QP reference. */
	if (!in->qp || priv->pending)
		return -EINVAL;
	iwcm_qp_attach(priv, in->qp);
	priv->pending = true;
	return 0;
}

/* CONN_RECV -> IDLE: pending until the driver's reject returns. */
int iwcm_h_reject(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	priv->pending = true;
	return 0;
}

/* The driver refused listen, connect or accept: back to IDLE. */
int iwcm_h_undo(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_qp_release(priv, in);
	iwcm_pending_clear(priv, in);
	return 0;
}

/* A new id (IDLE) takes the request of in->event: -> CONN_RECV. */
int iwcm_h_adopt(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_pool_take(priv, in);
	priv->id.provider_data = in->event->provider_data;
	iwcm_addr_adopt(&priv->id, in->event);
	return 0;
}

/* A listener's CONNECT_REQUEST: the caller gives it to a new id. */
int iwcm_h_request(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	in->fx.notify = true;
	return 0;
}

/* CONN_SENT -> ESTABLISHED: the peer accepted. */
int iwcm_h_reply(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_addr_reply(&priv->id, in->event);
	iwcm_pending_clear(priv, in);
	in->fx.notify = true;
	return 0;
}

/* CONN_SENT -> IDLE: refused, reset or timed out (event status). */
int iwcm_h_reply_err(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_qp_release(priv, in);
	iwcm_pending_clear(priv, in);
	in->fx.notify = true;
	return 0;
}

/* CONN_RECV -> ESTABLISHED: our accept went through. */
int iwcm_h_established(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_pending_clear(priv, in);
	in->fx.notify = true;
	return 0;
}

/*
 * iw_cm_init_qp_attr(): iWARP QPs need only remote access rights on the
 * way to RTR, and nothing for RTS; no other target state is ours to set.
 */
int iwcm_h_qp_attr(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	switch (in->qp_attr->qp_state) {
	case IB_QPS_INIT:
	case IB_QPS_RTR:
		*in->qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
		in->qp_attr->qp_access_flags = IB_ACCESS_REMOTE_WRITE |
					       IB_ACCESS_REMOTE_READ;
		return 0;
	case IB_QPS_RTS:
		*in->qp_attr_mask = 0;
		return 0;
	default:
		return -EINVAL;
	}
}
