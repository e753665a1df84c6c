// SPDX-License-Identifier: GPL-2.0-only
/*
 * Connection establishment: the cells of REQ, MRA, REP and RTU, sent and
 * received, and of their timeouts.
 */

#include <rdma/ib_cache.h>

#include "cm/cm.h"

/* Which message an MRA or REJ answers (MessageMRAed, MessageRejected). */
#define CM_MSG_ANSWERS_REQ	0
#define CM_MSG_ANSWERS_REP	1

static int cm_rep_claim(struct cm_id_priv *priv, const struct cm_in *in);

/* What both ends of a connection agree on. */
static void cm_conn_set(struct cm_id_priv *priv, enum ib_qp_type type,
			u8 mtu, u8 responder_resources, u8 initiator_depth)
{
	priv->qp_type = type;
	priv->path_mtu = mtu;
	priv->responder_resources = responder_resources;
	priv->initiator_depth = initiator_depth;
}

static void cm_conn_set_peer(struct cm_id_priv *priv, u32 qpn, u32 psn,
			     u8 retry, u8 rnr_retry)
{
	priv->remote_qpn = qpn;
	priv->sq_psn = psn;
	priv->retry_count = retry;
	priv->rnr_retry_count = rnr_retry;
}

/* ---- Helpers shared by the cells ---------------------------------------- */

/*
 * A message seen before: counted in its port's cm_rx_duplicates and as a
 * duplicate drop. (A KUnit cell test may feed one without a port.)
 */
void cm_count_dup(const struct cm_in *in)
{
	if (in->port && (int)in->input < (int)CM_MSG_KINDS)
		atomic_long_inc(&in->port->counts[CM_COUNT_RX_DUP][in->input]);
	atomic_long_inc(&cm_drops[CM_DROP_DUPLICATE]);
}

/* Queue an event without parameters, with the private data of @in. */
int cm_queue_simple(struct cm_id_priv *priv, enum ib_cm_event_type type,
		    const void *data, u8 len)
{
	struct cm_event_item *item = cm_event_alloc(type, data, len);

	if (!item)
		return -ENOMEM;
	cm_event_queue(priv, item);
	return 0;
}

static void cm_mra_format(struct cm_id_priv *priv, struct cm_out *out,
			  u8 answers)
{
	struct cm_msg_mra *mra = &out->msg.mra;

	out->kind = CM_MSG_MRA;
	out->tid = priv->tid;
	mra->local_comm_id = be32_to_cpu(priv->id.local_id);
	mra->remote_comm_id = be32_to_cpu(priv->id.remote_id);
	mra->message_mraed = answers;
	mra->service_timeout = priv->service_timeout;
	memcpy(mra->private_data, priv->private_data, priv->private_data_len);
}

static void cm_rtu_format(struct cm_id_priv *priv, struct cm_out *out)
{
	struct cm_msg_rtu *rtu = &out->msg.rtu;

	out->kind = CM_MSG_RTU;
	out->tid = priv->tid;
	rtu->local_comm_id = be32_to_cpu(priv->id.local_id);
	rtu->remote_comm_id = be32_to_cpu(priv->id.remote_id);
	memcpy(rtu->private_data, priv->private_data, priv->private_data_len);
}

/* ---- Listening ----------------------------------------------------------- */

/* Service IDs handed out for IB_CM_ASSIGN_SERVICE_ID (under cm.lock). */
static u64 cm_assigned_service_id;

int cm_h_listen(struct cm_id_priv *priv, const struct cm_in *in)
{
	const __be64 *service_id = in->msg;
	int ret;

	spin_lock(&cm.lock);
	if (*service_id == IB_CM_ASSIGN_SERVICE_ID)
		priv->id.service_id =
			cpu_to_be64(be64_to_cpu(IB_CM_ASSIGN_SERVICE_ID) |
				    cm_assigned_service_id++);
	else
		priv->id.service_id = *service_id;
	priv->service_mask = ~cpu_to_be64(0);
	priv->listen_share = 1;
	ret = cm_listen_insert(priv);
	spin_unlock(&cm.lock);
	return ret;
}

/* ---- REQ ----------------------------------------------------------------- */

int cm_h_send_req(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_req_prep *prep = (struct cm_req_prep *)in->msg;
	const struct ib_cm_req_param *param = prep->param;
	struct cm_out *out = &prep->out;
	int ret;

	cm_av_move(&priv->av, &prep->av);
	priv->tw = prep->tw;
	prep->tw = NULL;
	priv->id.service_id = param->service_id;
	priv->qp_type = param->qp_type;
	priv->local_qpn = param->qp_num;
	priv->rq_psn = param->starting_psn;
	priv->path_mtu = param->primary_path->mtu;
	priv->responder_resources = param->responder_resources;
	priv->initiator_depth = param->initiator_depth;
	priv->retry_count = param->retry_count;
	priv->rnr_retry_count = param->rnr_retry_count;
	priv->max_cm_retries = param->max_cm_retries;
	priv->timeout_ms =
		2 * cm_convert_to_ms(param->primary_path->packet_life_time) +
		cm_convert_to_ms(param->remote_cm_response_timeout);
	priv->tid = cm_id_tid(priv);
	cm_req_format(priv, param, out);
	ret = cm_send(priv, out);
	if (ret)
		cm_timewait_forget(priv);
	return ret;
}

/* A new id takes the REQ it was made for (the recv path matched it). */
int cm_h_req_first(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_req *req = in->msg;
	struct cm_event_item *item;

	item = cm_event_alloc(IB_CM_REQ_RECEIVED, req->private_data,
			      IB_CM_REQ_PRIVATE_DATA_SIZE);
	if (!item)
		return -ENOMEM;
	priv->id.remote_id = cpu_to_be32(req->local_comm_id);
	priv->tid = in->tid;
	/* The peer's resources are our depth, and the other way round. */
	cm_conn_set(priv, cm_req_qp_type(req), req->path_mtu,
		    req->initiator_depth, req->responder_resources);
	cm_conn_set_peer(priv, req->local_qpn, req->starting_psn,
			 req->retry_count, req->rnr_retry_count);
	priv->max_cm_retries = req->max_cm_retries;
	priv->timeout_ms = cm_convert_to_ms(req->local_cm_response_timeout);
	priv->av.timeout = cm_ack_timeout(priv->av.port ?
					  priv->av.port->dev->ack_delay : 0,
					  cm_req_packet_life_time(req));
	cm_req_event_fill(priv, in, item);
	cm_event_queue(priv, item);
	return 0;
}

int cm_h_req_dup(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_count_dup(in);
	return 0;
}

/* The peer missed our MRA: send it again. */
int cm_h_req_dup_mra(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};

	cm_count_dup(in);
	cm_mra_format(priv, &out, CM_MSG_ANSWERS_REQ);
	out.tid = in->tid;
	cm_reply(in, &out);
	return 0;
}

/* A REQ of a connection in timewait: the peer is told it is stale. */
int cm_h_req_dup_stale(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};

	cm_count_dup(in);
	cm_rej_format(priv, &out, IB_CM_REJ_STALE_CONN, NULL, 0, NULL, 0);
	out.tid = in->tid;
	cm_reply(in, &out);
	return 0;
}

/* ---- MRA ----------------------------------------------------------------- */

int cm_h_send_mra(struct cm_id_priv *priv, const struct cm_in *in)
{
	u8 answers = priv->id.state == IB_CM_REQ_RCVD ? CM_MSG_ANSWERS_REQ :
							CM_MSG_ANSWERS_REP;
	struct cm_out out = {};
	int ret;

	priv->service_timeout = in->arg & 0x1f;
	cm_id_set_private_data(priv, in->data, in->data_len);
	/* Delayed: sent only when the peer repeats itself (see dup REQ). */
	if (in->arg & IB_CM_MRA_FLAG_DELAY)
		return 0;
	cm_mra_format(priv, &out, answers);
	ret = cm_send(priv, &out);
	return ret;
}

/* The peer needs longer: wait for it as long as it says. */
int cm_h_mra(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_mra *mra = in->msg;
	u8 expected = priv->id.state == IB_CM_REQ_SENT ? CM_MSG_ANSWERS_REQ :
							 CM_MSG_ANSWERS_REP;
	struct cm_event_item *item;
	unsigned int timeout;

	if (mra->message_mraed != expected)
		return -EINVAL;
	timeout = cm_convert_to_ms(mra->service_timeout) +
		  cm_convert_to_ms(priv->av.timeout);
	if (cm_wire->extend(priv, timeout))
		return -EINVAL;
	item = cm_event_alloc(IB_CM_MRA_RECEIVED, mra->private_data,
			      IB_CM_MRA_PRIVATE_DATA_SIZE);
	if (!item)
		return -ENOMEM;
	cm_event_of(item)->param.mra_rcvd.service_timeout =
		mra->service_timeout;
	cm_event_queue(priv, item);
	return 0;
}

/* ---- REP ----------------------------------------------------------------- */

int cm_h_send_rep(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct ib_cm_rep_param *param = in->msg;
	struct cm_out out = {};
	int ret;

	cm_rep_format(priv, param, &out);
	ret = cm_send(priv, &out);
	if (ret)
		return ret;
	priv->local_qpn = param->qp_num;
	priv->rq_psn = param->starting_psn;
	priv->initiator_depth = param->initiator_depth;
	priv->responder_resources = param->responder_resources;
	priv->rnr_retry_count = param->rnr_retry_count;
	return 0;
}

int cm_h_rep(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_rep *rep = in->msg;
	struct cm_event_item *item;
	int ret;

	item = cm_event_alloc(IB_CM_REP_RECEIVED, rep->private_data,
			      IB_CM_REP_PRIVATE_DATA_SIZE);
	if (!item)
		return -ENOMEM;
	ret = cm_rep_claim(priv, in);
	if (ret) {
		kfree(item);
		return ret;
	}
	cm_cancel(priv);
	priv->id.remote_id = cpu_to_be32(rep->local_comm_id);
	priv->remote_qpn = rep->local_qpn;
	priv->sq_psn = rep->starting_psn;
	priv->initiator_depth = rep->responder_resources;
	priv->responder_resources = rep->initiator_depth;
	priv->rnr_retry_count = rep->rnr_retry_count;
	priv->av.timeout = cm_ack_timeout(rep->target_ack_delay,
					  priv->av.timeout ?
					  priv->av.timeout - 1 : 0);
	cm_rep_event_fill(rep, item);
	cm_event_queue(priv, item);
	return 0;
}

/*
 * Enter the REP's sender in the remote lookups. A connection of another
 * id that has this remote comm ID already refuses the REP (counted once,
 * as refused by the table: it repeats no message of this id, and 6.1
 * counts no duplicate for it); one that has its QP alive still makes it
 * stale, and the peer gets a REJ saying so.
 */
static int cm_rep_claim(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_rep *rep = in->msg;
	struct cm_timewait *tw = priv->tw;
	struct cm_out out = {};
	int ret = 0;

	if (!tw)
		return -EINVAL;
	tw->remote_id = cpu_to_be32(rep->local_comm_id);
	tw->remote_ca_guid = cpu_to_be64(rep->local_ca_guid);
	tw->remote_qpn = rep->local_qpn;
	spin_lock(&cm.lock);
	if (cm_remote_id_insert(tw)) {
		ret = -EALREADY;
	} else if (cm_remote_qpn_insert(tw)) {
		cm_remote_erase(tw);
		ret = -ESTALE;
	}
	spin_unlock(&cm.lock);
	if (ret != -ESTALE)
		return ret;
	cm_rej_format(priv, &out, IB_CM_REJ_STALE_CONN, NULL, 0, NULL, 0);
	out.msg.rej.remote_comm_id = rep->local_comm_id;
	out.msg.rej.message_rejected = CM_MSG_ANSWERS_REP;
	out.tid = in->tid;
	cm_reply(in, &out);
	return ret;
}

int cm_h_rep_dup(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_count_dup(in);
	return 0;
}

int cm_h_rep_dup_mra(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};

	cm_count_dup(in);
	cm_mra_format(priv, &out, CM_MSG_ANSWERS_REP);
	out.tid = in->tid;
	cm_reply(in, &out);
	return 0;
}

/* Our RTU got lost: the peer repeats its REP, we repeat the RTU. */
int cm_h_rep_dup_rtu(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};

	cm_count_dup(in);
	cm_rtu_format(priv, &out);
	out.tid = in->tid;
	cm_reply(in, &out);
	return 0;
}

/* ---- RTU and establishment ----------------------------------------------- */

int cm_h_send_rtu(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_out out = {};

	cm_id_set_private_data(priv, in->data, in->data_len);
	cm_rtu_format(priv, &out);
	return cm_send(priv, &out);
}

int cm_h_rtu(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_rtu *rtu = in->msg;
	int ret;

	ret = cm_queue_simple(priv, IB_CM_RTU_RECEIVED, rtu->private_data,
			      IB_CM_RTU_PRIVATE_DATA_SIZE);
	if (!ret)
		cm_cancel(priv);
	return ret;
}

/* The QP saw traffic before the RTU: the connection is up anyway. */
int cm_h_establish(struct cm_id_priv *priv, const struct cm_in *in)
{
	int ret = cm_queue_simple(priv, IB_CM_USER_ESTABLISHED, NULL, 0);

	if (!ret)
		cm_cancel(priv);
	return ret;
}

int cm_h_isconn(struct cm_id_priv *priv, const struct cm_in *in)
{
	return -EISCONN;
}

int cm_h_dup(struct cm_id_priv *priv, const struct cm_in *in)
{
	cm_count_dup(in);
	return 0;
}

/* ---- Timeouts ------------------------------------------------------------ */

/* The event that reports our message's timeout, by the state waiting. */
static const u8 cm_timeout_events[CM_STATES] = {
	[IB_CM_REQ_SENT]	= IB_CM_REQ_ERROR,
	[IB_CM_MRA_REQ_RCVD]	= IB_CM_REQ_ERROR,
	[IB_CM_REP_SENT]	= IB_CM_REP_ERROR,
	[IB_CM_MRA_REP_RCVD]	= IB_CM_REP_ERROR,
	[IB_CM_DREQ_SENT]	= IB_CM_DREQ_ERROR,
	[IB_CM_SIDR_REQ_SENT]	= IB_CM_SIDR_REQ_ERROR,
};

int cm_h_timeout(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_event_item *item;

	item = cm_event_alloc(cm_timeout_events[priv->id.state], NULL, 0);
	if (!item)
		return -ENOMEM;
	cm_event_of(item)->param.send_status = IB_WC_RESP_TIMEOUT_ERR;
	cm_event_queue(priv, item);
	return 0;
}
