// SPDX-License-Identifier: GPL-2.0-only
/* Rejection: the cells of REJ, sent by the owner and received from the peer. */

#include <linux/slab.h>

#include "cm/cm.h"

/* Send a REJ with @reason and no private data (teardown, errors). */
int cm_send_rej_reason(struct cm_id_priv *priv, u16 reason,
		       const void *ari, u8 ari_len)
{
	struct cm_out out = {};

	cm_rej_format(priv, &out, reason, ari, ari_len, NULL, 0);
	return cm_send(priv, &out);
}

/*
 * The owner rejects. Our own message, if any, is not retried any more;
 * the REJ itself goes out once (a lost one is answered to the peer's
 * retry by the stale or unknown-ID paths).
 */
int cm_h_send_rej(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};
	int ret;

	cm_rej_format(priv, &out, in->arg, in->ari, in->ari_len, in->data,
		      in->data_len);
	ret = cm_send(priv, &out);
	if (!ret)
		cm_cancel(priv);
	return ret;
}

int cm_h_rej(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_rej *rej = in->msg;
	struct ib_cm_rej_event_param *p;
	struct cm_event_item *item;

	item = cm_event_alloc(IB_CM_REJ_RECEIVED, rej->private_data,
			      IB_CM_REJ_PRIVATE_DATA_SIZE);
	if (!item)
		return -ENOMEM;
	p = &cm_event_of(item)->param.rej_rcvd;
	p->reason = rej->reason;
	p->ari_length = min_t(u8, rej->ari_length, IB_CM_REJ_ARI_LENGTH);
	p->ari = cm_event_info(item);
	memcpy(p->ari, rej->ari, p->ari_length);
	cm_cancel(priv);
	cm_event_queue(priv, item);
	return 0;
}
