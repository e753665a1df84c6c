// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's wire: messages to MADs on QP1, retries and their end, address
 * vectors from paths and completions.
 */

#include <kunit/visibility.h>
#include <rdma/ib_cache.h>

#include "cm/cm.h"

/* ---- Address vectors ----------------------------------------------------- */

void cm_av_move(struct cm_av *to, struct cm_av *from)
{
	cm_av_destroy(to);
	*to = *from;
	from->valid = false;
}

void cm_av_destroy(struct cm_av *av)
{
	if (av->valid)
		rdma_destroy_ah_attr(&av->ah_attr);
	av->valid = false;
}
EXPORT_SYMBOL_IF_KUNIT(cm_av_destroy);

static struct cm_port *cm_wire_path_port(struct ib_device *device,
					 struct sa_path_rec *path,
					 const struct ib_gid_attr *sgid_attr)
{
	const struct ib_gid_attr *attr;
	u32 port_num;

	if (sgid_attr)
		return cm_port_get(device, sgid_attr->port_num);
	attr = rdma_find_gid(device, &path->sgid,
			     sa_conv_pathrec_to_gid_type(path), NULL);
	if (IS_ERR(attr))
		return NULL;
	port_num = attr->port_num;
	rdma_put_gid_attr(attr);
	return cm_port_get(device, port_num);
}

static int cm_wire_av_from_path(struct cm_av *av, struct ib_device *device,
				struct sa_path_rec *path,
				const struct ib_gid_attr *sgid_attr)
{
	struct cm_port *port = cm_wire_path_port(device, path, sgid_attr);
	u16 index = 0;
	int ret;

	if (!port)
		return -EINVAL;
	if (ib_find_cached_pkey(device, port->port_num,
				be16_to_cpu(path->pkey), &index) &&
	    !sa_path_is_roce(path))
		return -EINVAL;
	ret = ib_init_ah_attr_from_path(device, port->port_num, path,
					&av->ah_attr, sgid_attr);
	if (ret)
		return ret;
	av->valid = true;
	av->port = port;
	av->pkey_index = index;
	av->timeout = cm_ack_timeout(port->dev->ack_delay,
				     path->packet_life_time);
	return 0;
}

static int cm_wire_av_from_wc(struct cm_av *av, const struct cm_in *in)
{
	const struct ib_mad_recv_wc *rwc = in->wc;
	int ret;

	ret = ib_init_ah_attr_from_wc(in->port->dev->device,
				      in->port->port_num, rwc->wc,
				      rwc->recv_buf.grh, &av->ah_attr);
	if (ret)
		return ret;
	av->valid = true;
	av->port = in->port;
	av->pkey_index = rwc->wc->pkey_index;
	return 0;
}

/* ---- MADs ---------------------------------------------------------------- */

static struct ib_mad_send_buf *cm_wire_alloc(struct cm_port *port,
					     u32 remote_qpn, u16 pkey_index,
					     const struct cm_out *out)
{
	struct ib_mad_send_buf *buf;

	buf = ib_create_send_mad(port->agent, remote_qpn, pkey_index, 0,
				 IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA,
				 GFP_ATOMIC, IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf))
		return buf;
	cm_msg_hdr_init(buf->mad, out->kind, out->tid);
	cm_msg_encode(out->kind, &out->msg, buf->mad);
	return buf;
}

static void cm_wire_free(struct ib_mad_send_buf *buf)
{
	if (buf->ah)
		rdma_destroy_ah(buf->ah, 0);
	ib_free_send_mad(buf);
}

static int cm_wire_post(struct ib_mad_send_buf *buf)
{
	int ret = ib_post_send_mad(buf, NULL);

	if (ret)
		cm_wire_free(buf);
	return ret;
}

static int cm_wire_send(struct cm_id_priv *priv, struct cm_out *out)
{
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;

	lockdep_assert_held(&priv->lock);
	if (!priv->av.valid || !priv->av.port)
		return -EINVAL;
	buf = cm_wire_alloc(priv->av.port, priv->id.remote_cm_qpn,
			    priv->av.pkey_index, out);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ah = rdma_create_ah(priv->av.port->agent->qp->pd, &priv->av.ah_attr, 0);
	if (IS_ERR(ah)) {
		ib_free_send_mad(buf);
		return PTR_ERR(ah);
	}
	buf->ah = ah;
	buf->context[0] = priv;
	if (out->retry) {
		buf->timeout_ms = priv->timeout_ms;
		buf->retries = priv->max_cm_retries;
	}
	cm_id_get(priv);
	if (cm_wire_post(buf)) {
		cm_id_put(priv);
		return -EIO;
	}
	if (out->retry)
		priv->msg = buf;
	return 0;
}

static int cm_wire_reply(const struct cm_in *in, struct cm_out *out)
{
	const struct ib_mad_recv_wc *rwc = in->wc;
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;

	if (!rwc || !in->port)
		return -EINVAL;
	buf = cm_wire_alloc(in->port, rwc->wc->src_qp, rwc->wc->pkey_index,
			    out);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ah = ib_create_ah_from_wc(in->port->agent->qp->pd, rwc->wc,
				  rwc->recv_buf.grh, in->port->port_num);
	if (IS_ERR(ah)) {
		ib_free_send_mad(buf);
		return PTR_ERR(ah);
	}
	buf->ah = ah;
	return cm_wire_post(buf);
}

static void cm_wire_cancel(struct cm_id_priv *priv)
{
	ib_cancel_mad(priv->msg);
}

static int cm_wire_extend(struct cm_id_priv *priv, unsigned int timeout_ms)
{
	return ib_modify_mad(priv->msg, timeout_ms);
}

/*
 * The CM agent's send handler: a message is done, and counted on the
 * agent's port. One that ran out of retries while still the message its
 * id waits on is the id's timeout.
 */
void cm_wire_send_handler(struct ib_mad_agent *agent,
			  struct ib_mad_send_wc *wc)
{
	struct ib_mad_send_buf *buf = wc->send_buf;
	struct cm_id_priv *priv = buf->context[0];
	struct cm_in in = { .input = CM_IN_TIMEOUT, .send_buf = buf };
	unsigned long flags;

	cm_counters_add_send(agent->context, buf);
	if (priv) {
		spin_lock_irqsave(&priv->lock, flags);
		if (priv->msg == buf) {
			priv->msg = NULL;
			if (wc->status != IB_WC_SUCCESS &&
			    wc->status != IB_WC_WR_FLUSH_ERR)
				cm_table_run(priv, &in);
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		cm_id_put(priv);
	}
	cm_wire_free(buf);
}

static const struct cm_wire_ops cm_wire_mad = {
	.send		= cm_wire_send,
	.reply		= cm_wire_reply,
	.cancel		= cm_wire_cancel,
	.extend		= cm_wire_extend,
	.av_from_path	= cm_wire_av_from_path,
	.av_from_wc	= cm_wire_av_from_wc,
};

const struct cm_wire_ops *cm_wire = &cm_wire_mad;

/* KUnit: watch the engine through @ops; NULL puts the MAD wire back. */
void cm_wire_set(const struct cm_wire_ops *ops)
{
	cm_wire = ops ? ops : &cm_wire_mad;
}
EXPORT_SYMBOL_IF_KUNIT(cm_wire_set);

/* ---- What the handlers call ---------------------------------------------- */

int cm_send(struct cm_id_priv *priv, struct cm_out *out)
{
	lockdep_assert_held(&priv->lock);
	return cm_wire->send(priv, out);
}

int cm_reply(const struct cm_in *in, struct cm_out *out)
{
	if (!in->reply)
		return cm_wire->reply(in, out);
	if (in->reply->pending)
		return -EBUSY;
	in->reply->out = *out;
	in->reply->pending = true;
	return 0;
}

void cm_cancel(struct cm_id_priv *priv)
{
	lockdep_assert_held(&priv->lock);
	if (!priv->msg)
		return;
	cm_wire->cancel(priv);
	priv->msg = NULL;
}
