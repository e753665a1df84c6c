// SPDX-License-Identifier: GPL-2.0-only
/*
 * UD ids over the IB CM: the SIDR REQ of rdma_connect(), the SIDR REP of
 * rdma_accept() and rdma_reject(), and the answer the active side hears.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm_ib.h>

#include "cma/cma.h"

/*
 * A UD id has no connection: rdma_connect() asks the peer's listener for
 * the QP number and Q_Key behind a service ID (a SIDR REQ carrying the
 * CMA header and the owner's private data), and the answer is the whole
 * exchange. The active id stays in CONNECT and hears ESTABLISHED with an
 * address vector to the peer, the peer's QP number and Q_Key, or
 * UNREACHABLE (status: the SIDR REP's non-zero status, or -ETIMEDOUT when
 * no answer came). The passive side is the listener's REQ handler
 * (cma_req.c), which makes a UD id of a SIDR REQ; its owner answers with
 * rdma_accept() or rdma_reject(), both a SIDR REP.
 *
 * Q_Keys: an id's Q_Key is set once. The owner may choose it (the accept's
 * conn_param->qkey, or the peer's SIDR REP); otherwise the UDP and IB port
 * spaces use the well-known RDMA_UDP_QKEY. IPoIB's comes from the
 * broadcast group's member record, which needs an SA: not built here.
 */

/**
 * cma_ud_qkey_set() - Give a UD id its Q_Key
 * @priv: the id; the caller holds its qp_mutex
 * @qkey: the Q_Key, or 0 for the port space's default
 *
 * Return: 0; -EINVAL when the id has another Q_Key already or the peer
 * sent 0; -EOPNOTSUPP for a default in the IPoIB port space.
 */
int cma_ud_qkey_set(struct cma_id_priv *priv, u32 qkey)
{
	lockdep_assert_held(&priv->qp_mutex);
	if (!qkey) {
		if (priv->qkey)
			return 0;
		if (priv->id.ps != RDMA_PS_UDP && priv->id.ps != RDMA_PS_IB)
			return -EOPNOTSUPP;
		qkey = RDMA_UDP_QKEY;
	} else if (priv->qkey && priv->qkey != qkey) {
		return -EINVAL;
	}
	priv->qkey = qkey;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_ud_qkey_set);

/* As cma_ud_qkey_set(), taking the qp_mutex. */
static int cma_ud_qkey(struct cma_id_priv *priv, u32 qkey)
{
	int ret;

	mutex_lock(&priv->qp_mutex);
	ret = cma_ud_qkey_set(priv, qkey);
	mutex_unlock(&priv->qp_mutex);
	return ret;
}

/**
 * cma_ud_connect() - rdma_connect() of a UD id: the SIDR REQ
 * @priv: the id, its route resolved; its handler_mutex is held
 * @conn: the owner's parameters; up to 180 bytes of private data (the
 *	  CMA header takes 36 of the SIDR REQ's 216)
 *
 * The answer comes to the connection handler as SIDR_REP_RECEIVED or
 * SIDR_REQ_ERROR (after 4096 ms and 15 resends, as the inbox rdma_cm).
 *
 * Return: 0; -EINVAL for too much private data; the errnos of
 * ib_create_cm_id() and ib_send_cm_sidr_req().
 */
int cma_ud_connect(struct cma_id_priv *priv, const struct rdma_conn_param *conn)
{
	struct ib_cm_sidr_req_param req = {
		.path = priv->id.route.path_rec,
		.sgid_attr = priv->id.route.addr.dev_addr.sgid_attr,
		.service_id = rdma_get_service_id(&priv->id, cma_dst_addr(priv)),
		.timeout_ms = 1 << (CMA_CM_RESPONSE_TIMEOUT - 8),
		.max_cm_retries = CMA_MAX_CM_RETRIES,
	};
	struct ib_cm_id *ib;
	void *data;
	int ret;

	data = cma_conn_hdr_data(priv, conn, IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE,
				 &req.private_data_len);
	if (IS_ERR(data))
		return PTR_ERR(data);
	req.private_data = data;
	ib = ib_create_cm_id(priv->id.device, cma_conn_handler, priv);
	if (IS_ERR(ib)) {
		ret = PTR_ERR(ib);
		goto out;
	}
	priv->ib = ib;
	ret = ib_send_cm_sidr_req(ib, &req);
	if (ret) {
		priv->ib = NULL;
		ib_destroy_cm_id(ib);
	}
out:
	kfree(data);
	return ret;
}

/**
 * cma_ud_answer() - The passive UD id's SIDR REP
 * @priv: a UD id made of a SIDR REQ; its handler_mutex is held
 * @status: IB_SIDR_SUCCESS (rdma_accept()) or IB_SIDR_REJECT
 *	    (rdma_reject())
 * @qkey: the Q_Key the owner chose, or 0 for the id's (or the default)
 * @data: private data for the SIDR REP (up to 136 bytes)
 * @len: its length
 *
 * A success names the id's QP (rdma_create_qp()'s, or the accept's
 * qp_num) and Q_Key, and the ECE options the owner set.
 *
 * Return: 0; the errnos of cma_ud_qkey_set() and ib_send_cm_sidr_rep().
 */
int cma_ud_answer(struct cma_id_priv *priv, enum ib_cm_sidr_status status,
		  u32 qkey, const void *data, u8 len)
{
	struct ib_cm_sidr_rep_param rep = {
		.status = status,
		.private_data = data,
		.private_data_len = len,
	};
	int ret;

	if (status == IB_SIDR_SUCCESS) {
		ret = cma_ud_qkey(priv, qkey);
		if (ret)
			return ret;
		rep.qp_num = priv->qp_num;
		rep.qkey = priv->qkey;
		rep.ece = priv->ece;
	}
	return ib_send_cm_sidr_rep(priv->ib, &rep);
}

/**
 * cma_h_cm_sidr_rep() - Cell CONNECT x CM SIDR REP: a UD id's answer
 * @priv: the active UD id; its handler_mutex is held
 * @in: @in->cm_event, the SIDR_REP_RECEIVED event
 *
 * ESTABLISHED with the address vector to the peer (the route's path from
 * the GID entry the id sends from), its QP number and Q_Key; UNREACHABLE
 * with the SIDR REP's status when it refused; ADDR_ERROR (-EINVAL) when
 * its Q_Key is not the one the id has. Either way the owner sees the SIDR
 * REP's private data (136 bytes). The id stays in CONNECT.
 *
 * Return: 0 or CMA_DESTROY.
 */
int cma_h_cm_sidr_rep(struct cma_id_priv *priv, struct cma_in *in)
{
	const struct ib_cm_sidr_rep_event_param *rep =
		&in->cm_event->param.sidr_rep_rcvd;
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_ESTABLISHED,
		.param.ud = {
			.private_data = in->cm_event->private_data,
			.private_data_len = IB_CM_SIDR_REP_PRIVATE_DATA_SIZE,
		},
	};
	int ret;

	if (rep->status != IB_SIDR_SUCCESS) {
		pr_debug("id %p: SIDR REP status %d\n", priv, rep->status);
		event.event = RDMA_CM_EVENT_UNREACHABLE;
		event.status = rep->status;
	} else if (cma_ud_qkey(priv, rep->qkey)) {
		event.event = RDMA_CM_EVENT_ADDR_ERROR;
		event.status = -EINVAL;
	} else {
		ret = ib_init_ah_attr_from_path(priv->id.device,
						priv->id.port_num,
						priv->id.route.path_rec,
						&event.param.ud.ah_attr,
						rep->sgid_attr);
		if (ret) {
			event.event = RDMA_CM_EVENT_UNREACHABLE;
			event.status = ret;
		} else {
			event.param.ud.qp_num = rep->qpn;
			event.param.ud.qkey = rep->qkey;
		}
	}
	ret = cma_event_deliver(priv, &event);
	rdma_destroy_ah_attr(&event.param.ud.ah_attr);
	return ret ? CMA_DESTROY : 0;
}
