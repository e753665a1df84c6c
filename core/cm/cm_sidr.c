// SPDX-License-Identifier: GPL-2.0-only
/* Service ID resolution (SIDR) for UD: the cells of SIDR REQ and SIDR REP. */

#include "cm/cm.h"

/*
 * The GID entry of the id's address vector on RoCE (made from the SIDR
 * REQ's work completion on the passive side, from the path on the
 * active side); rdma_cm finds the net device and builds the peer's
 * address vector with it. NULL on IB.
 */
static const struct ib_gid_attr *cm_sidr_gid_attr(const struct cm_id_priv *priv)
{
	if (!priv->av.valid || priv->av.ah_attr.type != RDMA_AH_ATTR_TYPE_ROCE)
		return NULL;
	return priv->av.ah_attr.grh.sgid_attr;
}

int cm_h_send_sidr_req(struct cm_id_priv *priv, const struct cm_in *in)
{
	struct cm_req_prep *prep = (struct cm_req_prep *)in->msg;
	const struct ib_cm_sidr_req_param *param = prep->param;
	struct cm_out *out = &prep->out;
	struct cm_msg_sidr_req *req = &out->msg.sidr_req;

	cm_av_move(&priv->av, &prep->av);
	priv->id.service_id = param->service_id;
	priv->timeout_ms = param->timeout_ms;
	priv->max_cm_retries = param->max_cm_retries;
	priv->tid = cm_id_tid(priv);
	out->kind = CM_MSG_SIDR_REQ;
	out->tid = priv->tid;
	out->retry = true;
	req->request_id = be32_to_cpu(priv->id.local_id);
	req->pkey = be16_to_cpu(param->path->pkey);
	req->service_id = be64_to_cpu(param->service_id);
	if (param->private_data_len)
		memcpy(req->private_data, param->private_data,
		       param->private_data_len);
	return cm_send(priv, out);
}

/* A new id takes the SIDR REQ it was made for. */
int cm_h_sidr_req_first(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_sidr_req *req = in->msg;
	struct ib_cm_sidr_req_event_param *p;
	struct cm_event_item *item;

	item = cm_event_alloc(IB_CM_SIDR_REQ_RECEIVED, req->private_data,
			      IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE);
	if (!item)
		return -ENOMEM;
	priv->tid = in->tid;
	priv->id.service_id = cpu_to_be64(req->service_id);
	p = &cm_event_of(item)->param.sidr_req_rcvd;
	p->listen_id = in->listener ? &in->listener->id : NULL;
	p->service_id = priv->id.service_id;
	p->port = in->port ? in->port->port_num : 0;
	p->pkey = req->pkey;
	p->bth_pkey = req->pkey;
	p->sgid_attr = cm_sidr_gid_attr(priv);
	cm_event_queue(priv, item);
	return 0;
}

/* Answer a SIDR REQ with @param; @priv leaves the SIDR lookup. */
int cm_sidr_rep_send(struct cm_id_priv *priv,
		     const struct ib_cm_sidr_rep_param *param)
{
	struct cm_out out = { .kind = CM_MSG_SIDR_REP, .tid = priv->tid };
	struct cm_msg_sidr_rep *rep = &out.msg.sidr_rep;
	int ret;

	rep->request_id = priv->sidr_remote_id;
	rep->status = param->status;
	rep->qpn = param->qp_num;
	rep->qkey = param->qkey;
	rep->service_id = be64_to_cpu(priv->id.service_id);
	rep->vendor_id_h = param->ece.vendor_id >> 8;
	rep->vendor_id_l = param->ece.vendor_id;
	if (param->info && param->info_length) {
		rep->info_length = param->info_length;
		memcpy(rep->info, param->info, param->info_length);
	}
	if (param->private_data && param->private_data_len)
		memcpy(rep->private_data, param->private_data,
		       param->private_data_len);
	ret = cm_send(priv, &out);
	if (!ret)
		cm_sidr_erase(priv);
	return ret;
}

int cm_h_send_sidr_rep(struct cm_id_priv *priv, const struct cm_in *in)
{
	return cm_sidr_rep_send(priv, in->msg);
}

int cm_h_sidr_rep(struct cm_id_priv *priv, const struct cm_in *in)
{
	const struct cm_msg_sidr_rep *rep = in->msg;
	struct ib_cm_sidr_rep_event_param *p;
	struct cm_event_item *item;

	item = cm_event_alloc(IB_CM_SIDR_REP_RECEIVED, rep->private_data,
			      IB_CM_SIDR_REP_PRIVATE_DATA_SIZE);
	if (!item)
		return -ENOMEM;
	p = &cm_event_of(item)->param.sidr_rep_rcvd;
	p->status = rep->status;
	p->qkey = rep->qkey;
	p->qpn = rep->qpn;
	p->sgid_attr = cm_sidr_gid_attr(priv);
	p->info_len = min_t(u8, rep->info_length, IB_CM_SIDR_REP_INFO_LENGTH);
	p->info = cm_event_info(item);
	memcpy(p->info, rep->info, p->info_len);
	cm_cancel(priv);
	cm_event_queue(priv, item);
	return 0;
}
