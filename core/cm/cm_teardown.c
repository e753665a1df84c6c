// SPDX-License-Identifier: GPL-2.0-only
/* The cells of destroying a cm_id: what each state owes the peer before the id goes. */

#include "cm/cm.h"

/*
 * Every destroy cell leads to IDLE. A connection that was up, or whose
 * REP we sent, goes through timewait first: its identity stays in the
 * remote lookups for the timewait, without the id.
 */

int cm_h_destroy_idle(struct cm_id_priv *priv, const struct cm_in *in)
{
	return 0;
}

int cm_h_destroy_listen(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_listen_erase(priv);
	return 0;
}

/* Our REQ is unanswered: tell the peer we gave up (ARI: our CA GUID). */
int cm_h_destroy_req_sent(struct cm_id_priv *priv, const struct cm_in *in)
{
	__be64 guid = priv->id.device->node_guid;

	cm_cancel(priv);
	cm_send_rej_reason(priv, IB_CM_REJ_TIMEOUT, &guid, sizeof(guid));
	return 0;
}

/*
 * A REQ the owner could not take for lack of memory is dropped quietly,
 * so the peer's retry may find us in better shape.
 */
int cm_h_destroy_req_rcvd(struct cm_id_priv *priv, const struct cm_in *in)
{
	if (in->err != -ENOMEM)
		cm_send_rej_reason(priv, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0);
	return 0;
}

int cm_h_destroy_rej(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_send_rej_reason(priv, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0);
	return 0;
}

int cm_h_destroy_rep_sent(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_cancel(priv);
	cm_send_rej_reason(priv, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0);
	cm_timewait_enter(priv);
	return 0;
}

/* A DREQ goes out once; nobody is left to wait for the DREP. */
int cm_h_destroy_established(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_dreq_send(priv, NULL, 0, false);
	cm_timewait_enter(priv);
	return 0;
}

int cm_h_destroy_dreq_sent(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_cancel(priv);
	cm_timewait_enter(priv);
	return 0;
}

int cm_h_destroy_dreq_rcvd(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_in drep = { .input = CM_IN_SEND_DREP };

	cm_h_send_drep(priv, &drep);
	cm_timewait_enter(priv);
	return 0;
}

int cm_h_destroy_sidr_sent(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_cancel(priv);
	return 0;
}

int cm_h_destroy_sidr_rcvd(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct ib_cm_sidr_rep_param param = { .status = IB_SIDR_REJECT };

	cm_sidr_rep_send(priv, &param);
	cm_sidr_erase(priv);
	return 0;
}
