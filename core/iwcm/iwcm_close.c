// SPDX-License-Identifier: GPL-2.0-only
/* Cells of teardown: disconnect, the peer closing, destroying an id, and inputs to ignore. */

#include "iwcm/iwcm.h"

/*
 * As in iwcm_conn.c, every handler runs under the id's lock and leaves
 * driver calls and QP moves to in->fx. A QP the id lets go of is handed
 * over in fx.qp with the reference it had, and dropped after the call.
 */

/* Nothing to do: 6.1 takes these quietly (see iwcm_table.c). */
int iwcm_h_ignore(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	return 0;
}

/*
 * ESTABLISHED -> CLOSING on the owner's word: the QP goes to SQD (the
 * driver then closes the stream) or, @abrupt, to ERR (it resets it).
 * The connection keeps its QP until CLOSE; the move holds one more
 * reference meanwhile.
 */
int iwcm_h_disconnect(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	/* Only a connection made without a QP has none: never in-kernel. */
	if (!priv->qp)
		return -EINVAL;
	priv->id.device->ops.iw_add_ref(priv->qp);
	in->fx.qp = priv->qp;
	in->fx.call = in->abrupt ? IWCM_CALL_QP_ERR : IWCM_CALL_QP_SQD;
	return 0;
}

/* ESTABLISHED or CLOSING -> IDLE: the driver is done with the QP. */
int iwcm_h_close(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_qp_release(priv, in);
	in->fx.notify = true;
	return 0;
}

/* IDLE or CLOSING -> DESTROYING: nothing left to tell the driver. */
int iwcm_h_destroy(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_qp_release(priv, in);
	return 0;
}

/* LISTEN -> DESTROYING: the driver stops listening. */
int iwcm_h_destroy_listen(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	in->fx.call = IWCM_CALL_DESTROY_LISTEN;
	return 0;
}

/* CONN_RECV -> DESTROYING: a request nobody accepted is rejected. */
int iwcm_h_destroy_request(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_qp_release(priv, in);
	in->fx.call = IWCM_CALL_REJECT;
	return 0;
}

/* ESTABLISHED or CONN_SENT -> DESTROYING: the QP goes to ERR at once. */
int iwcm_h_destroy_abort(struct iwcm_id_priv *priv, struct iwcm_in *in)
{
	iwcm_qp_release(priv, in);
	in->fx.call = IWCM_CALL_QP_ERR;
	return 0;
}
