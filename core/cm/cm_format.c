// SPDX-License-Identifier: GPL-2.0-only
/*
 * A connection's messages from its cm_id and the owner's parameters, and events
 * from received messages.
 */

#include <rdma/ib_cache.h>

#include "cm/cm.h"

/* REQ transport service types (IBA 12.6.5). */
#define CM_TRANSPORT_RC		0
#define CM_TRANSPORT_UC		1
#define CM_TRANSPORT_EXTENDED	3
#define CM_EXT_TRANSPORT_XRC	1

/* ---- REQ ----------------------------------------------------------------- */

static void cm_req_set_transport(struct cm_msg_req *req, enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_UC:
		req->transport_type = CM_TRANSPORT_UC;
		break;
	case IB_QPT_XRC_INI:
		req->transport_type = CM_TRANSPORT_EXTENDED;
		req->extended_transport_type = CM_EXT_TRANSPORT_XRC;
		break;
	default:
		req->transport_type = CM_TRANSPORT_RC;
		break;
	}
}

/* The QP type the passive side of @req uses; IB_QPT_MAX: none. */
enum ib_qp_type cm_req_qp_type(const struct cm_msg_req *req)
{
	switch (req->transport_type) {
	case CM_TRANSPORT_RC:
		return IB_QPT_RC;
	case CM_TRANSPORT_UC:
		return IB_QPT_UC;
	case CM_TRANSPORT_EXTENDED:
		if (req->extended_transport_type == CM_EXT_TRANSPORT_XRC)
			return IB_QPT_XRC_TGT;
		fallthrough;
	default:
		return IB_QPT_MAX;
	}
}

/*
 * A path in a REQ. Beyond the subnet the remote LID is not known: both
 * LIDs are then sent permissive, which is also what RoCE paths carry.
 */
static void cm_req_path_format(struct cm_msg_path *mp,
			       struct sa_path_rec *path, u8 ack_delay)
{
	bool local = path->hop_limit <= 1 && !sa_path_is_roce(path);

	mp->local_lid = local ? be32_to_cpu(sa_path_get_slid(path)) :
				be16_to_cpu(IB_LID_PERMISSIVE);
	mp->remote_lid = local ? be32_to_cpu(sa_path_get_dlid(path)) :
				 be16_to_cpu(IB_LID_PERMISSIVE);
	mp->local_gid = path->sgid;
	mp->remote_gid = path->dgid;
	mp->flow_label = be32_to_cpu(path->flow_label);
	mp->rate = path->rate;
	mp->traffic_class = path->traffic_class;
	mp->hop_limit = path->hop_limit;
	mp->sl = path->sl;
	mp->subnet_local = path->hop_limit <= 1;
	mp->local_ack_timeout = cm_ack_timeout(ack_delay,
					       path->packet_life_time);
}

void cm_req_format(struct cm_id_priv *priv,
		   const struct ib_cm_req_param *param, struct cm_out *out)
{
	struct cm_msg_req *req = &out->msg.req;
	u8 ack_delay = priv->av.port ? priv->av.port->dev->ack_delay : 0;

	out->kind = CM_MSG_REQ;
	out->tid = priv->tid;
	out->retry = true;
	req->local_comm_id = be32_to_cpu(priv->id.local_id);
	req->vendor_id = param->ece.vendor_id;
	req->service_id = be64_to_cpu(param->service_id);
	req->local_ca_guid = be64_to_cpu(priv->id.device->node_guid);
	req->local_qpn = param->qp_num;
	req->initiator_depth = param->initiator_depth;
	req->remote_cm_response_timeout = param->remote_cm_response_timeout;
	cm_req_set_transport(req, param->qp_type);
	req->flow_control = param->flow_control;
	req->starting_psn = param->starting_psn;
	req->local_cm_response_timeout = param->local_cm_response_timeout;
	req->pkey = be16_to_cpu(param->primary_path->pkey);
	req->path_mtu = param->primary_path->mtu;
	req->max_cm_retries = param->max_cm_retries;
	if (param->qp_type != IB_QPT_XRC_INI) {
		req->responder_resources = param->responder_resources;
		req->retry_count = param->retry_count;
		req->rnr_retry_count = param->rnr_retry_count;
		req->srq = param->srq;
	}
	cm_req_path_format(&req->primary, param->primary_path, ack_delay);
	if (param->alternate_path)
		cm_req_path_format(&req->alternate, param->alternate_path,
				   ack_delay);
	if (param->private_data_len)
		memcpy(req->private_data, param->private_data,
		       param->private_data_len);
}

/* The packet lifetime of @req's path, from its local ACK timeout. */
u8 cm_req_packet_life_time(const struct cm_msg_req *req)
{
	u8 t = req->primary.local_ack_timeout;

	return t ? t - 1 : 0;
}

static bool cm_req_has_alternate(const struct cm_msg_req *req)
{
	return req->alternate.local_lid ||
	       memchr_inv(&req->alternate.local_gid, 0,
			  sizeof(req->alternate.local_gid));
}

/* A path as the passive side sees it: source and destination swapped. */
static void cm_req_path_parse(const struct cm_msg_req *req,
			      const struct cm_msg_path *mp,
			      struct sa_path_rec *path, bool roce)
{
	path->dgid = mp->local_gid;
	path->sgid = mp->remote_gid;
	path->flow_label = cpu_to_be32(mp->flow_label);
	path->hop_limit = mp->hop_limit;
	path->traffic_class = mp->traffic_class;
	path->reversible = 1;
	path->pkey = cpu_to_be16(req->pkey);
	path->sl = mp->sl;
	path->mtu_selector = IB_SA_EQ;
	path->mtu = req->path_mtu;
	path->rate_selector = IB_SA_EQ;
	path->rate = mp->rate;
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = mp->local_ack_timeout ?
				 mp->local_ack_timeout - 1 : 0;
	path->service_id = cpu_to_be64(req->service_id);
	path->rec_type = roce ? SA_PATH_REC_TYPE_ROCE_V2 :
				SA_PATH_REC_TYPE_IB;
	if (!roce) {
		sa_path_set_dlid(path, mp->local_lid);
		sa_path_set_slid(path, mp->remote_lid);
	}
}

static u16 cm_req_bth_pkey(const struct cm_in *in,
			   const struct cm_msg_req *req)
{
	u16 pkey;

	if (!in->wc || !in->wc->wc || !in->port ||
	    ib_get_cached_pkey(in->port->dev->device, in->port->port_num,
			       in->wc->wc->pkey_index, &pkey))
		return req->pkey;
	return pkey;
}

/*
 * The event speaks for the receiver, as in 6.1: the requester's
 * initiator depth is the RDMA Reads we must take (our responder
 * resources), its responder resources bound the Reads we may issue.
 */
static void cm_req_event_fill_qp(struct ib_cm_req_event_param *p,
				 const struct cm_msg_req *req)
{
	p->responder_resources = req->initiator_depth;
	p->initiator_depth = req->responder_resources;
	p->flow_control = req->flow_control;
	p->retry_count = req->retry_count;
	p->rnr_retry_count = req->rnr_retry_count;
	p->srq = req->srq;
}

void cm_req_event_fill(struct cm_id_priv *priv, const struct cm_in *in,
		       struct cm_event_item *item)
{
	struct ib_cm_req_event_param *p = &cm_event_of(item)->param.req_rcvd;
	const struct cm_msg_req *req = in->msg;
	struct sa_path_rec *paths = cm_event_room(item);
	bool roce = priv->av.valid &&
		    priv->av.ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE;

	p->listen_id = in->listener ? &in->listener->id : NULL;
	p->bth_pkey = cm_req_bth_pkey(in, req);
	p->port = in->port ? in->port->port_num : 0;
	cm_req_path_parse(req, &req->primary, &paths[0], roce);
	p->primary_path = &paths[0];
	if (cm_req_has_alternate(req)) {
		cm_req_path_parse(req, &req->alternate, &paths[1], roce);
		p->alternate_path = &paths[1];
	}
	/*
	 * On RoCE the GID entry the REQ came in on: rdma_cm finds the net
	 * device and the listener's address by it. It lives with the id's
	 * address vector (made from the REQ's work completion).
	 */
	p->ppath_sgid_attr = roce ? priv->av.ah_attr.grh.sgid_attr : NULL;
	p->remote_ca_guid = cpu_to_be64(req->local_ca_guid);
	p->remote_qkey = req->local_qkey;
	p->remote_qpn = req->local_qpn;
	p->qp_type = priv->qp_type;
	p->starting_psn = req->starting_psn;
	/* Timeouts swap sides: the sender's local one is our remote one. */
	p->local_cm_response_timeout = req->remote_cm_response_timeout;
	p->remote_cm_response_timeout = req->local_cm_response_timeout;
	cm_req_event_fill_qp(p, req);
	p->ece.vendor_id = req->vendor_id;
}

/* ---- REP ----------------------------------------------------------------- */

void cm_rep_format(struct cm_id_priv *priv,
		   const struct ib_cm_rep_param *param, struct cm_out *out)
{
	struct cm_msg_rep *rep = &out->msg.rep;
	u32 vendor = param->ece.vendor_id;

	out->kind = CM_MSG_REP;
	out->tid = priv->tid;
	out->retry = true;
	rep->local_comm_id = be32_to_cpu(priv->id.local_id);
	rep->remote_comm_id = be32_to_cpu(priv->id.remote_id);
	rep->local_qpn = param->qp_num;
	rep->starting_psn = param->starting_psn;
	rep->responder_resources = param->responder_resources;
	rep->initiator_depth = param->initiator_depth;
	rep->target_ack_delay = priv->av.port ?
				priv->av.port->dev->ack_delay : 0;
	rep->failover_accepted = param->failover_accepted;
	rep->flow_control = param->flow_control;
	rep->rnr_retry_count = param->rnr_retry_count;
	rep->srq = param->srq;
	rep->local_ca_guid = be64_to_cpu(priv->id.device->node_guid);
	rep->vendor_id_h = vendor >> 16;
	rep->vendor_id_m = vendor >> 8;
	rep->vendor_id_l = vendor;
	if (param->private_data_len)
		memcpy(rep->private_data, param->private_data,
		       param->private_data_len);
}

void cm_rep_event_fill(const struct cm_msg_rep *rep,
		       struct cm_event_item *item)
{
	cm_event_of(item)->param.rep_rcvd = (struct ib_cm_rep_event_param){
		.remote_ca_guid = cpu_to_be64(rep->local_ca_guid),
		.remote_qkey = rep->local_qkey, .remote_qpn = rep->local_qpn,
		.starting_psn = rep->starting_psn,
		/* swapped to the receiver's side, as for the REQ */
		.responder_resources = rep->initiator_depth,
		.initiator_depth = rep->responder_resources,
		.target_ack_delay = rep->target_ack_delay,
		.failover_accepted = rep->failover_accepted,
		.flow_control = rep->flow_control,
		.rnr_retry_count = rep->rnr_retry_count, .srq = rep->srq,
		.ece.vendor_id = rep->vendor_id_h << 16 |
				 rep->vendor_id_m << 8 | rep->vendor_id_l,
	};
}

/* ---- REJ ----------------------------------------------------------------- */

/* MessageRejected of a REJ sent from each state: REQ 0, REP 1, other 2. */
static u8 cm_rej_answers(enum ib_cm_state state)
{
	switch (state) {
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
		return 0;
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		return 1;
	default:
		return 2;
	}
}

/*
 * A REJ from @priv in its current state. Rejecting a REQ we never
 * answered, the REJ carries no local comm ID: the peer knows none yet.
 */
void cm_rej_format(struct cm_id_priv *priv, struct cm_out *out, u16 reason,
		   const void *ari, u8 ari_len, const void *data, u8 len)
{
	struct cm_msg_rej *rej = &out->msg.rej;

	out->kind = CM_MSG_REJ;
	out->tid = priv->tid;
	if (priv->id.state != IB_CM_REQ_RCVD)
		rej->local_comm_id = be32_to_cpu(priv->id.local_id);
	rej->remote_comm_id = be32_to_cpu(priv->id.remote_id);
	rej->message_rejected = cm_rej_answers(priv->id.state);
	rej->reason = reason;
	if (ari && ari_len) {
		rej->ari_length = ari_len;
		memcpy(rej->ari, ari, ari_len);
	}
	if (data && len)
		memcpy(rej->private_data, data, len);
}
