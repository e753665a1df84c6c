// SPDX-License-Identifier: GPL-2.0-only
/*
 * Connections over the IB CM: connect, accept, reject, disconnect, notify, and
 * the IB CM's events fed to the table.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "cma/cma.h"

/* The longest retry counts the REQ and REP fields hold. */
#define CMA_MAX_RETRY		7

/* ---- The active side's REQ --------------------------------------------- */

/**
 * cma_conn_hdr_data() - The private data of a REQ or SIDR REQ
 * @priv: the id, its addresses known
 * @conn: the owner's parameters
 * @room: the message's private data size
 * @len: out: the length of what is returned
 *
 * The CMA header, then the consumer's bytes.
 *
 * Return: the data (kfree() it), or ERR_PTR(-EINVAL) when the
 * consumer's bytes do not fit after the header, -ENOMEM, or the error
 * of cma_hdr_format().
 */
void *cma_conn_hdr_data(struct cma_id_priv *priv,
			const struct rdma_conn_param *conn, size_t room,
			u8 *len)
{
	u8 *data;
	int ret;

	if (conn->private_data_len > room - CMA_HDR_SIZE)
		return ERR_PTR(-EINVAL);
	*len = CMA_HDR_SIZE + conn->private_data_len;
	data = kzalloc(*len, GFP_KERNEL);
	if (!data)
		return ERR_PTR(-ENOMEM);
	if (conn->private_data && conn->private_data_len)
		memcpy(data + CMA_HDR_SIZE, conn->private_data,
		       conn->private_data_len);
	ret = cma_hdr_format(priv, data);
	if (ret) {
		kfree(data);
		return ERR_PTR(ret);
	}
	return data;
}

/**
 * cma_conn_req_param() - The IB CM REQ of an id's rdma_connect()
 * @priv: the id, its route resolved
 * @conn: the owner's parameters
 * @req: filled in, but for the private data
 *
 * Context: any.
 */
void cma_conn_req_param(struct cma_id_priv *priv,
			const struct rdma_conn_param *conn,
			struct ib_cm_req_param *req)
{
	struct rdma_route *route = &priv->id.route;

	req->primary_path = &route->path_rec[0];
	req->primary_path_inbound = route->path_rec_inbound;
	req->primary_path_outbound = route->path_rec_outbound;
	if (route->num_pri_alt_paths == 2)
		req->alternate_path = &route->path_rec[1];
	req->ppath_sgid_attr = route->addr.dev_addr.sgid_attr;
	req->service_id = rdma_get_service_id(&priv->id, cma_dst_addr(priv));
	req->qp_num = priv->qp_num;
	req->qp_type = priv->id.qp_type;
	req->starting_psn = priv->seq_num;
	req->responder_resources = conn->responder_resources;
	req->initiator_depth = conn->initiator_depth;
	req->flow_control = conn->flow_control;
	req->retry_count = min_t(u8, CMA_MAX_RETRY, conn->retry_count);
	req->rnr_retry_count = min_t(u8, CMA_MAX_RETRY, conn->rnr_retry_count);
	req->remote_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req->local_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req->max_cm_retries = CMA_MAX_CM_RETRIES;
	req->srq = priv->srq ? 1 : 0;
	req->ece = priv->ece;
}
EXPORT_SYMBOL_IF_KUNIT(cma_conn_req_param);

/**
 * cma_h_connect() - Cell ROUTE_RESOLVED x connect: send the REQ
 * @priv: the id; its handler_mutex is held
 * @in: @in->conn, the owner's parameters
 *
 * A UD id sends a SIDR REQ instead (cma_ud_connect()); an iWARP id
 * connects through iw_cm (cma_iw_connect()).
 *
 * Return: 0 (the answer comes as an IB CM or iw_cm event); -EINVAL for
 * private data over 56 bytes (UD: 180); -EOPNOTSUPP on a port with
 * neither CM; the errnos of ib_create_cm_id() and ib_send_cm_req(), or
 * of cma_iw_connect(). Failing, the id goes back to ROUTE_RESOLVED
 * without an IB CM id.
 */
int cma_h_connect(struct cma_id_priv *priv, struct cma_in *in)
{
	struct ib_cm_req_param req = {};
	struct ib_cm_id *ib;
	void *data;
	int ret;

	if (!priv->id.qp) {
		priv->qp_num = in->conn->qp_num;
		priv->srq = in->conn->srq;
	}
	if (cma_iw_is(priv))
		return cma_iw_connect(priv, in->conn);
	if (!rdma_cap_ib_cm(priv->id.device, priv->id.port_num))
		return -EOPNOTSUPP;
	if (priv->id.qp_type == IB_QPT_UD)
		return cma_ud_connect(priv, in->conn);
	data = cma_conn_hdr_data(priv, in->conn, IB_CM_REQ_PRIVATE_DATA_SIZE,
				 &req.private_data_len);
	if (IS_ERR(data))
		return PTR_ERR(data);
	ib = ib_create_cm_id(priv->id.device, cma_conn_handler, priv);
	if (IS_ERR(ib)) {
		ret = PTR_ERR(ib);
		goto err_data;
	}
	cma_conn_req_param(priv, in->conn, &req);
	req.private_data = data;
	priv->ib = ib;
	ret = ib_send_cm_req(ib, &req);
	if (ret)
		goto err_ib;
	kfree(data);
	return 0;

err_ib:
	priv->ib = NULL;
	ib_destroy_cm_id(ib);
err_data:
	kfree(data);
	return ret;
}

/**
 * rdma_connect_locked() - Connect, from the id's handler
 * @id: an id in ROUTE_RESOLVED, whose handler lock is held
 * @conn_param: the connection's parameters; up to 56 bytes of private
 *		data (the CMA header takes 36 of the REQ's 92); qp_num and
 *		srq when the owner manages the QP
 *
 * Sends the REQ. The answer comes as an event: ESTABLISHED (an id with a
 * QP of rdma_create_qp(): rdma_cm moved it to RTS and sent the RTU),
 * CONNECT_RESPONSE (the owner's QP: it calls rdma_accept() to finish),
 * REJECTED, UNREACHABLE or CONNECT_ERROR.
 *
 * Context: process context, from @id's ROUTE_RESOLVED handler or under
 * rdma_lock_handler().
 * Return: 0; -EINVAL outside ROUTE_RESOLVED; see cma_h_connect().
 */
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param)
{
	struct cma_in in = { .input = CMA_IN_CONNECT, .conn = conn_param };

	lockdep_assert_held(&to_cma_id(id)->handler_mutex);
	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_connect_locked);

/**
 * rdma_connect() - Connect
 * @id: an id in ROUTE_RESOLVED
 * @conn_param: as rdma_connect_locked()
 *
 * rdma_connect_locked() under the id's handler lock.
 *
 * Context: process context, sleeps; not from @id's handler.
 * Return: as rdma_connect_locked().
 */
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	int ret;

	rdma_lock_handler(id);
	ret = rdma_connect_locked(id, conn_param);
	rdma_unlock_handler(id);
	return ret;
}
EXPORT_SYMBOL(rdma_connect);

/**
 * rdma_connect_ece() - rdma_connect() offering ECE options
 * @id: an id in ROUTE_RESOLVED
 * @conn_param: as rdma_connect_locked()
 * @ece: the vendor ID and options the REQ offers
 *
 * Context: process context, sleeps.
 * Return: as rdma_connect().
 */
int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece)
{
	to_cma_id(id)->ece = *ece;
	return rdma_connect(id, conn_param);
}
EXPORT_SYMBOL(rdma_connect_ece);

/* ---- Finishing: the QP along, the RTU or the REP ------------------------ */

/*
 * The active side's end of the exchange: the QP to RTS, the RTU out. On
 * failure the QP goes to ERR and the peer gets a REJ.
 */
static int cma_conn_finish(struct cma_id_priv *priv)
{
	int ret;

	ret = cma_qp_ready(priv, NULL);
	if (!ret)
		ret = ib_send_cm_rtu(priv->ib, NULL, 0);
	if (!ret)
		return 0;
	cma_qp_error(priv);
	ib_send_cm_rej(priv->ib, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
	return ret;
}

/* The passive side's: the QP to RTS, the REP out. */
static int cma_conn_accept(struct cma_id_priv *priv,
			   const struct rdma_conn_param *conn)
{
	struct ib_cm_rep_param rep = {
		.private_data = conn->private_data,
		.private_data_len = conn->private_data_len,
		.responder_resources = conn->responder_resources,
		.initiator_depth = conn->initiator_depth,
		.flow_control = conn->flow_control,
		.rnr_retry_count = min_t(u8, CMA_MAX_RETRY,
					 conn->rnr_retry_count),
	};
	int ret;

	if (!priv->id.qp) {
		priv->qp_num = conn->qp_num;
		priv->srq = conn->srq;
	}
	ret = cma_qp_ready(priv, conn);
	if (ret)
		return ret;
	rep.qp_num = priv->qp_num;
	rep.starting_psn = priv->seq_num;
	rep.srq = priv->srq ? 1 : 0;
	rep.ece = priv->ece;
	return ib_send_cm_rep(priv->ib, &rep);
}

/**
 * cma_h_accept() - Cell CONNECT x accept
 * @priv: the id; its handler_mutex is held
 * @in: @in->conn: our parameters (the passive side's REP), or NULL (the
 *	active side's RTU after CONNECT_RESPONSE)
 *
 * A UD id answers its SIDR REQ with a SIDR REP naming its QP and Q_Key
 * (cma_ud_answer()); one that fails refuses it. An iWARP id accepts
 * through iw_cm (cma_iw_accept()).
 *
 * Return: 0; -EINVAL before any IB CM exchange; the errnos of the QP and
 * the IB CM. A failed accept rejects the connection.
 */
int cma_h_accept(struct cma_id_priv *priv, struct cma_in *in)
{
	const struct rdma_conn_param *conn = in->conn;
	int ret;

	if (priv->iw)
		return cma_iw_accept(priv, conn);
	if (!priv->ib)
		return -EINVAL;
	if (priv->id.qp_type == IB_QPT_UD) {
		if (conn && !priv->id.qp)
			priv->qp_num = conn->qp_num;
		ret = cma_ud_answer(priv, IB_SIDR_SUCCESS, conn ? conn->qkey : 0,
				    conn ? conn->private_data : NULL,
				    conn ? conn->private_data_len : 0);
		if (ret)
			cma_ud_answer(priv, IB_SIDR_REJECT, 0, NULL, 0);
		return ret;
	}
	if (!conn)
		return cma_conn_finish(priv);
	ret = cma_conn_accept(priv, conn);
	if (ret) {
		cma_qp_error(priv);
		ib_send_cm_rej(priv->ib, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
	}
	return ret;
}

/**
 * rdma_accept() - Accept a connection request, or finish a connection
 * @id: the new id of a CONNECT_REQUEST, or an active id after
 *	CONNECT_RESPONSE; its handler lock is held
 * @conn_param: our parameters and private data (the REP); NULL on the
 *		active side
 *
 * With a QP of rdma_create_qp(), rdma_cm moves it to RTR and RTS first.
 *
 * Context: process context, from @id's handler or under
 * rdma_lock_handler().
 * Return: 0; -EINVAL outside CONNECT; see cma_h_accept().
 */
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct cma_in in = { .input = CMA_IN_ACCEPT, .conn = conn_param };

	lockdep_assert_held(&to_cma_id(id)->handler_mutex);
	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_accept);

/**
 * rdma_accept_ece() - rdma_accept() answering ECE options
 * @id: as rdma_accept()
 * @conn_param: as rdma_accept()
 * @ece: the options accepted, for the REP
 *
 * Context: as rdma_accept().
 * Return: as rdma_accept().
 */
int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece)
{
	to_cma_id(id)->ece = *ece;
	return rdma_accept(id, conn_param);
}
EXPORT_SYMBOL(rdma_accept_ece);

/* ---- Refusing, ending, notifying ------------------------------------------ */

/*
 * Cell CONNECT x reject: a REJ with the owner's reason and data (a UD id:
 * a SIDR REP refusing, with the data; an iWARP id: iw_cm's reject, with
 * the data and no reason).
 */
int cma_h_reject(struct cma_id_priv *priv, struct cma_in *in)
{
	if (priv->iw)
		return iw_cm_reject(priv->iw, in->data, in->data_len);
	if (!priv->ib)
		return -EINVAL;
	if (priv->id.qp_type == IB_QPT_UD)
		return cma_ud_answer(priv, IB_SIDR_REJECT, 0, in->data,
				     in->data_len);
	return ib_send_cm_rej(priv->ib, in->arg, NULL, 0, in->data,
			      in->data_len);
}

/**
 * rdma_reject() - Refuse a connection request or reply
 * @id: an id in CONNECT (a CONNECT_REQUEST's, or after CONNECT_RESPONSE)
 * @private_data: for the REJ (up to 148 bytes)
 * @private_data_len: its length
 * @reason: the REJ reason; ULPs use IB_CM_REJ_CONSUMER_DEFINED (28)
 *
 * Context: process context, may sleep.
 * A UD id's refusal is a SIDR REP with status IB_SIDR_REJECT (@reason is
 * not sent).
 *
 * Return: 0; -EINVAL without an IB CM exchange; the errnos of
 * ib_send_cm_rej() and ib_send_cm_sidr_rep().
 */
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason)
{
	struct cma_in in = {
		.input = CMA_IN_REJECT, .data = private_data,
		.data_len = private_data_len, .arg = reason,
	};

	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_reject);

/*
 * Cell x disconnect: the QP to ERR (its work completes in error), then a
 * DREQ, or the DREP if the peer's DREQ came first. An iWARP id asks
 * iw_cm for a graceful close (iw_cm moves the QP).
 */
int cma_h_disconnect(struct cma_id_priv *priv, struct cma_in *in)
{
	int ret;

	if (priv->iw)
		return iw_cm_disconnect(priv->iw, 0);
	if (!priv->ib)
		return -EINVAL;
	ret = cma_qp_error(priv);
	if (ret)
		return ret;
	if (ib_send_cm_dreq(priv->ib, NULL, 0))
		ib_send_cm_drep(priv->ib, NULL, 0);
	return 0;
}

/**
 * rdma_disconnect() - Tear a connection down
 * @id: a connected id (or one that heard DISCONNECTED)
 *
 * Moves the QP to ERR and starts or answers the disconnect exchange; the
 * owner hears DISCONNECTED when it is over, then TIMEWAIT_EXIT.
 *
 * Context: process context, may sleep; need not hold the handler lock.
 * Return: 0; -EINVAL for an id without a connection; the QP's errno.
 */
int rdma_disconnect(struct rdma_cm_id *id)
{
	struct cma_in in = { .input = CMA_IN_DISCONNECT };

	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_disconnect);

/* Cell x notify: IB and RoCE tell the IB CM; other transports need not. */
int cma_h_notify(struct cma_id_priv *priv, struct cma_in *in)
{
	if (priv->iw)
		return 0;
	if (!priv->ib)
		return -EINVAL;
	if (priv->id.device->node_type != RDMA_NODE_IB_CA)
		return 0;
	return ib_cm_notify(priv->ib, in->arg);
}

/**
 * rdma_notify() - Pass on a QP event the CM needs to see
 * @id: a connecting or connected id
 * @event: the event; IB_EVENT_COMM_EST (data arrived before the RTU)
 *	   establishes the connection
 *
 * Context: any process context.
 * Return: 0; -EINVAL for an id without a connection; ib_cm_notify()'s.
 */
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event)
{
	struct cma_in in = { .input = CMA_IN_NOTIFY, .arg = event };

	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_notify);

/* ---- The IB CM's events ---------------------------------------------------- */

/* What an IB CM event is to rdma_cm; CMA_INPUTS: nothing. */
static enum cma_input cma_conn_input(enum ib_cm_event_type type)
{
	switch (type) {
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
	case IB_CM_SIDR_REQ_ERROR:
		return CMA_IN_CM_UNREACHABLE;
	case IB_CM_SIDR_REP_RECEIVED:
		return CMA_IN_CM_SIDR_REP;
	case IB_CM_REP_RECEIVED:
		return CMA_IN_CM_REP;
	case IB_CM_RTU_RECEIVED:
	case IB_CM_USER_ESTABLISHED:
		return CMA_IN_CM_ESTABLISHED;
	case IB_CM_DREQ_ERROR:
	case IB_CM_DREQ_RECEIVED:
	case IB_CM_DREP_RECEIVED:
		return CMA_IN_CM_DISCONNECT;
	case IB_CM_TIMEWAIT_EXIT:
		return CMA_IN_CM_TIMEWAIT_EXIT;
	case IB_CM_REJ_RECEIVED:
		return CMA_IN_CM_REJ;
	default:	/* MRA, LAP, APR: the IB CM deals with them */
		return CMA_INPUTS;
	}
}

/**
 * cma_conn_handler() - The IB CM handler of a connection's IB CM id
 * @ib: the IB CM id (of a connection, or of a UD id's SIDR REQ)
 * @ev: its event
 *
 * An event the id's state does not take is dropped (6.1 does the same).
 * If the owner asks for its id's destruction, the IB CM id goes with it:
 * it is ib_cm's to destroy when this returns non-zero.
 *
 * Context: ib_cm's event work of @ib; sleeps.
 * Return: 0, or -ECONNABORTED when the id was destroyed.
 */
int cma_conn_handler(struct ib_cm_id *ib, const struct ib_cm_event *ev)
{
	struct cma_id_priv *priv = ib->context;
	struct cma_in in = { .input = cma_conn_input(ev->event), .cm_event = ev };

	if (in.input == CMA_INPUTS)
		return 0;
	mutex_lock(&priv->handler_mutex);
	if (cma_table_run(priv, &in) == CMA_DESTROY) {
		priv->ib = NULL;
		cma_id_destroy_unlock(priv);
		return -ECONNABORTED;
	}
	mutex_unlock(&priv->handler_mutex);
	return 0;
}

/**
 * cma_conn_adopt() - Give a new id the IB CM id of the REQ it was made for
 * @priv: the new id; its handler_mutex is held
 * @ib: the IB CM id ib_cm made for the REQ, whose events went to the
 *	listeners' REQ handler so far
 *
 * From now on @ib's events are @priv's: ib_cm reads the handler and
 * context of an IB CM id each time it delivers one of its events, and
 * delivers them one at a time, so the switch made from inside the REQ
 * handler takes effect with the next event.
 *
 * Context: the REQ handler, inside @ib's REQ_RECEIVED delivery.
 */
void cma_conn_adopt(struct cma_id_priv *priv, struct ib_cm_id *ib)
{
	lockdep_assert_held(&priv->handler_mutex);
	priv->ib = ib;
	ib->context = priv;
	ib->cm_handler = cma_conn_handler;
}

/* For KUnit: feed an IB CM event as the IB CM would. */
int cma_conn_event(struct ib_cm_id *ib, const struct ib_cm_event *ev)
{
	return cma_conn_handler(ib, ev);
}
EXPORT_SYMBOL_IF_KUNIT(cma_conn_event);

/**
 * cma_h_cm_rep() - Cell CONNECT x REP: the passive side answered
 * @priv: the id; its handler_mutex is held
 * @in: @in->cm_event, the REP_RECEIVED event
 *
 * An id with a QP finishes at once (RTR, RTS, RTU) and hears ESTABLISHED
 * or CONNECT_ERROR; one without hears CONNECT_RESPONSE and finishes with
 * rdma_accept(). Until then an MRA is armed for a repeated REP.
 *
 * Return: 0 or CMA_DESTROY.
 */
int cma_h_cm_rep(struct cma_id_priv *priv, struct cma_in *in)
{
	const struct ib_cm_rep_event_param *rep = &in->cm_event->param.rep_rcvd;
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_CONNECT_RESPONSE,
		.param.conn = {
			.private_data = in->cm_event->private_data,
			.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE,
			.responder_resources = rep->responder_resources,
			.initiator_depth = rep->initiator_depth,
			.flow_control = rep->flow_control,
			.rnr_retry_count = rep->rnr_retry_count,
			.srq = rep->srq,
			.qp_num = rep->remote_qpn,
		},
		.ece = rep->ece,
	};

	if (priv->ib && priv->id.qp_type != IB_QPT_UD)
		ib_send_cm_mra(priv->ib, CMA_CM_MRA_SETTING, NULL, 0);
	if (priv->id.qp) {
		event.status = cma_conn_finish(priv);
		event.event = event.status ? RDMA_CM_EVENT_CONNECT_ERROR :
					     RDMA_CM_EVENT_ESTABLISHED;
	}
	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/* Cell CONNECT x RTU or COMM_EST: ESTABLISHED. */
int cma_h_cm_established(struct cma_id_priv *priv, struct cma_in *in)
{
	return cma_event_simple(priv, RDMA_CM_EVENT_ESTABLISHED, 0);
}

/* Cell CONNECT x REJ: the QP to ERR; REJECTED with the reason and data. */
int cma_h_cm_rej(struct cma_id_priv *priv, struct cma_in *in)
{
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_REJECTED,
		.status = in->cm_event->param.rej_rcvd.reason,
		.param.conn = {
			.private_data = in->cm_event->private_data,
			.private_data_len = IB_CM_REJ_PRIVATE_DATA_SIZE,
		},
	};

	pr_debug("id %p: rejected: %s\n", priv,
		 ibcm_reject_msg(event.status));
	cma_qp_error(priv);
	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/* Cell CONNECT x REQ or REP timed out: UNREACHABLE. */
int cma_h_cm_unreachable(struct cma_id_priv *priv, struct cma_in *in)
{
	return cma_event_simple(priv, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT);
}

/* Cell CONNECT x DREQ, DREP or DREQ timed out: DISCONNECTED. */
int cma_h_cm_disconnect(struct cma_id_priv *priv, struct cma_in *in)
{
	int status = in->cm_event->event == IB_CM_DREQ_ERROR ? -ETIMEDOUT : 0;

	return cma_event_simple(priv, RDMA_CM_EVENT_DISCONNECTED, status);
}

/* Cell DISCONNECT x timewait over: TIMEWAIT_EXIT (the QP may be reused). */
int cma_h_cm_timewait_exit(struct cma_id_priv *priv, struct cma_in *in)
{
	return cma_event_simple(priv, RDMA_CM_EVENT_TIMEWAIT_EXIT, 0);
}
