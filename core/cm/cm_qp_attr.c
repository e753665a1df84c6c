// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a connection tells its QP: the attributes for INIT, RTR and RTS, and the
 * QP's events back to the CM.
 */

#include "cm/cm.h"

/* A connection exists (REQ sent or received, not yet disconnecting). */
static bool cm_qp_attr_connecting(enum ib_cm_state state)
{
	return state >= IB_CM_REQ_SENT && state <= IB_CM_ESTABLISHED;
}

/* The peer's parameters are known (it is past REQ_SENT on our side). */
static bool cm_qp_attr_peer_known(enum ib_cm_state state)
{
	return cm_qp_attr_connecting(state) && state != IB_CM_REQ_SENT &&
	       state != IB_CM_MRA_REQ_RCVD;
}

static int cm_qp_attr_init(struct cm_id_priv *priv, struct ib_qp_attr *attr,
			   int *mask)
{
	if (!cm_qp_attr_connecting(priv->id.state))
		return -EINVAL;
	*mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX |
		IB_QP_PORT;
	attr->qp_access_flags = IB_ACCESS_REMOTE_WRITE;
	if (priv->responder_resources)
		attr->qp_access_flags |= IB_ACCESS_REMOTE_READ |
					 IB_ACCESS_REMOTE_ATOMIC;
	attr->pkey_index = priv->av.pkey_index;
	if (priv->av.port)
		attr->port_num = priv->av.port->port_num;
	return 0;
}

static int cm_qp_attr_rtr(struct cm_id_priv *priv, struct ib_qp_attr *attr,
			  int *mask)
{
	if (!cm_qp_attr_peer_known(priv->id.state))
		return -EINVAL;
	*mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
		IB_QP_RQ_PSN;
	attr->ah_attr = priv->av.ah_attr;
	attr->path_mtu = priv->path_mtu;
	attr->dest_qp_num = priv->remote_qpn;
	attr->rq_psn = priv->rq_psn;
	if (priv->qp_type == IB_QPT_RC || priv->qp_type == IB_QPT_XRC_TGT) {
		*mask |= IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
		attr->max_dest_rd_atomic = priv->responder_resources;
		attr->min_rnr_timer = 0;
	}
	return 0;
}

static int cm_qp_attr_rts(struct cm_id_priv *priv, struct ib_qp_attr *attr,
			  int *mask)
{
	if (!cm_qp_attr_peer_known(priv->id.state))
		return -EINVAL;
	*mask = IB_QP_STATE | IB_QP_SQ_PSN;
	attr->sq_psn = priv->sq_psn;
	if (priv->qp_type == IB_QPT_RC || priv->qp_type == IB_QPT_XRC_INI) {
		*mask |= IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			 IB_QP_MAX_QP_RD_ATOMIC;
		attr->retry_cnt = priv->retry_count;
		attr->rnr_retry = priv->rnr_retry_count;
		attr->max_rd_atomic = priv->initiator_depth;
	}
	if (priv->qp_type == IB_QPT_RC || priv->qp_type == IB_QPT_XRC_INI ||
	    priv->qp_type == IB_QPT_XRC_TGT) {
		*mask |= IB_QP_TIMEOUT;
		attr->timeout = priv->av.timeout;
	}
	return 0;
}

typedef int (*cm_qp_attr_fn)(struct cm_id_priv *priv, struct ib_qp_attr *attr,
			     int *mask);

/* The transitions the CM has attributes for, by target state. */
static const cm_qp_attr_fn cm_qp_attr_fns[] = {
	[IB_QPS_INIT]	= cm_qp_attr_init,
	[IB_QPS_RTR]	= cm_qp_attr_rtr,
	[IB_QPS_RTS]	= cm_qp_attr_rts,
};

/**
 * ib_cm_init_qp_attr() - The QP attributes a connection needs
 * @cm_id: the connection
 * @qp_attr: qp_attr->qp_state says which transition (IB_QPS_INIT,
 *	     IB_QPS_RTR or IB_QPS_RTS); the attributes are filled in
 * @qp_attr_mask: set to the attributes filled in, for ib_modify_qp()
 *
 * INIT: access flags, P_Key index, port. RTR: the address vector of the
 * path, path MTU, the peer's QP and PSN, responder resources and RNR
 * timer. RTS: our PSN, retry and RNR retry counts, initiator depth, the
 * local ACK timeout of the path.
 *
 * Context: any; does not sleep.
 * Return: 0, or -EINVAL for a state the id has no such attributes in.
 */
int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	struct cm_id_priv *priv = to_cm_id_priv(cm_id);
	unsigned long flags;
	cm_qp_attr_fn fn;
	int ret;

	if (qp_attr->qp_state >= ARRAY_SIZE(cm_qp_attr_fns) ||
	    !cm_qp_attr_fns[qp_attr->qp_state])
		return -EINVAL;
	fn = cm_qp_attr_fns[qp_attr->qp_state];
	spin_lock_irqsave(&priv->lock, flags);
	ret = fn(priv, qp_attr, qp_attr_mask);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_cm_init_qp_attr);

/**
 * ib_cm_notify() - Tell the CM about an event of the connection's QP
 * @cm_id: the connection
 * @event: IB_EVENT_COMM_EST (the QP received before the RTU: the
 *	   connection is established, IB_CM_USER_ESTABLISHED follows) or
 *	   IB_EVENT_PATH_MIG (not supported yet)
 *
 * Context: any; does not sleep.
 * Return: 0, -EISCONN (already established), -EINVAL.
 */
int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event)
{
	struct cm_in in = { .input = CM_IN_ESTABLISH };

	if (event != IB_EVENT_COMM_EST)
		return -EINVAL;
	return cm_table_feed(to_cm_id_priv(cm_id), &in);
}
EXPORT_SYMBOL(ib_cm_notify);
