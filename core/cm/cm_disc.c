// SPDX-License-Identifier: GPL-2.0-only
/* Disconnection: the cells of DREQ and DREP, sent and received, and the end of timewait. */

#include "cm/cm.h"

static void cm_drep_format(struct cm_id_priv *priv, struct cm_out *out)
{
	struct cm_msg_drep *drep = &out->msg.drep;

	out->kind = CM_MSG_DREP;
	out->tid = priv->tid;
	drep->local_comm_id = be32_to_cpu(priv->id.local_id);
	drep->remote_comm_id = be32_to_cpu(priv->id.remote_id);
	memcpy(drep->private_data, priv->private_data,
	       priv->private_data_len);
}

/* A DREQ from @priv; @retry: wait for the DREP (not when tearing down). */
int cm_dreq_send(struct cm_id_priv *priv, const void *data, u8 len,
		 bool retry)
{
	struct cm_out out = {
		.kind = CM_MSG_DREQ,
		.retry = retry,
	};
	struct cm_msg_dreq *dreq = &out.msg.dreq;

	priv->tid = cm_id_tid(priv);
	out.tid = priv->tid;
	dreq->local_comm_id = be32_to_cpu(priv->id.local_id);
	dreq->remote_comm_id = be32_to_cpu(priv->id.remote_id);
	dreq->remote_qpn = priv->remote_qpn;
	if (data && len)
		memcpy(dreq->private_data, data, len);
	return cm_send(priv, &out);
}

int cm_h_send_dreq(struct cm_id_priv *priv, const struct cm_in *in)
{
	return cm_dreq_send(priv, in->data, in->data_len, true);
}

/* The peer disconnects: whatever we were waiting for is moot. */
int cm_h_dreq(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_dreq *dreq = in->msg;
	int ret;

	if (dreq->remote_qpn != priv->local_qpn)
		return -EINVAL;
	ret = cm_queue_simple(priv, IB_CM_DREQ_RECEIVED, dreq->private_data,
			      IB_CM_DREQ_PRIVATE_DATA_SIZE);
	if (ret)
		return ret;
	cm_cancel(priv);
	priv->tid = in->tid;
	return 0;
}

/* Our DREP got lost: the peer repeats its DREQ while we wait. */
int cm_h_dreq_dup_drep(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};

	cm_count_dup(in);
	cm_drep_format(priv, &out);
	out.tid = in->tid;
	cm_reply(in, &out);
	return 0;
}

/*
 * As in 6.1 the id enters timewait whether the DREP goes out or not: the
 * peer retries its DREQ and gets the DREP from the timewait cell.
 */
int cm_h_send_drep(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};

	cm_id_set_private_data(priv, in->data, in->data_len);
	cm_drep_format(priv, &out);
	if (cm_send(priv, &out))
		pr_debug("cm_id %08x: DREP not sent\n",
			 be32_to_cpu(priv->id.local_id));
	return 0;
}

int cm_h_drep(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_drep *drep = in->msg;
	int ret;

	ret = cm_queue_simple(priv, IB_CM_DREP_RECEIVED, drep->private_data,
			      IB_CM_DREP_PRIVATE_DATA_SIZE);
	if (!ret)
		cm_cancel(priv);
	return ret;
}

int cm_h_timewait_exit(struct cm_id_priv *priv, const struct cm_in *in)
{
	return cm_queue_simple(priv, IB_CM_TIMEWAIT_EXIT, NULL, 0);
}
