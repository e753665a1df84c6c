// SPDX-License-Identifier: GPL-2.0-only
/*
 * An rdma_cm id's QP: created on the id's port and brought to INIT (UD: to
 * RTS), and the attributes of its transitions.
 */

#include <rdma/ib_cache.h>
#include <rdma/rdma_cm_ib.h>

#include "cma/cma.h"

/*
 * A connected QP stops at INIT here; the connection moves it on (the
 * active side on the REP, the passive side in rdma_accept()). A UD QP has
 * nobody to wait for and goes to RTS at once.
 */

/* INIT's attributes before the IB CM is involved. */
static int cma_qp_attr_init(struct cma_id_priv *priv,
			    struct ib_qp_attr *attr, int *mask)
{
	struct rdma_cm_id *id = &priv->id;
	u16 pkey;
	int ret;

	pkey = rdma_cap_eth_ah(id->device, id->port_num) ? 0xffff :
	       ib_addr_get_pkey(&id->route.addr.dev_addr);
	ret = ib_find_cached_pkey(id->device, id->port_num, pkey,
				  &attr->pkey_index);
	if (ret)
		return ret;
	attr->port_num = id->port_num;
	*mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
	if (id->qp_type != IB_QPT_UD) {
		attr->qp_access_flags = 0;
		*mask |= IB_QP_ACCESS_FLAGS;
		return 0;
	}
	/* The id's Q_Key, the port space's default if it has none yet. */
	ret = cma_ud_qkey_set(priv, 0);
	if (ret)
		return ret;
	attr->qkey = priv->qkey;
	*mask |= IB_QP_QKEY;
	return 0;
}

/*
 * The owner's timers, set with rdma_set_ack_timeout() and
 * rdma_set_min_rnr_timer(), over what the CM would use.
 */
static void cma_qp_attr_timers(struct cma_id_priv *priv,
			       struct ib_qp_attr *attr, int mask)
{
	lockdep_assert_held(&priv->qp_mutex);
	if ((mask & IB_QP_TIMEOUT) && priv->timeout_set)
		attr->timeout = priv->timeout;
	if ((mask & IB_QP_MIN_RNR_TIMER) && priv->min_rnr_timer_set)
		attr->min_rnr_timer = priv->min_rnr_timer;
}

/* rdma_init_qp_attr() for a caller holding the id's qp_mutex. */
static int cma_qp_attr(struct cma_id_priv *priv, struct ib_qp_attr *attr,
		       int *mask)
{
	struct rdma_cm_id *id = &priv->id;
	int ret;

	lockdep_assert_held(&priv->qp_mutex);
	if (!id->device)
		return -EINVAL;
	if (cma_iw_is(priv))
		return cma_iw_qp_attr(priv, attr, mask);
	if (!rdma_cap_ib_cm(id->device, id->port_num))
		return -EOPNOTSUPP;
	if (!priv->ib || id->qp_type == IB_QPT_UD)
		ret = cma_qp_attr_init(priv, attr, mask);
	else
		ret = ib_cm_init_qp_attr(priv->ib, attr, mask);
	if (ret)
		return ret;
	if (attr->qp_state == IB_QPS_RTR)
		attr->rq_psn = priv->seq_num;
	cma_qp_attr_timers(priv, attr, *mask);
	return 0;
}

/**
 * rdma_init_qp_attr() - The attributes of a QP transition for an id
 * @id: an id on a device
 * @qp_attr: in: qp_state, the state wanted; out: its attributes
 * @qp_attr_mask: out: the mask for ib_modify_qp()
 *
 * For a QP the owner manages itself (rdma_ucm's users). INIT comes from
 * the id's port and P_Key; RTR and RTS from the IB CM once the connection
 * exchange has begun. The ACK and RNR timers the owner set win.
 *
 * Context: process context.
 * Return: 0; -EINVAL for an id on no device, or for RTR/RTS before the
 * connection exchange; the errnos of ib_find_cached_pkey() and
 * ib_cm_init_qp_attr(); -EOPNOTSUPP on a port with neither CM and for UD
 * ids in RDMA_PS_IPOIB without a Q_Key. On iWARP: rdma_cm's INIT (no
 * remote access) before the connection, iw_cm's attributes once it has
 * one (cma_iw_qp_attr()).
 */
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask)
{
	struct cma_id_priv *priv = to_cma_id(id);
	int ret;

	mutex_lock(&priv->qp_mutex);
	ret = cma_qp_attr(priv, qp_attr, qp_attr_mask);
	mutex_unlock(&priv->qp_mutex);
	return ret;
}
EXPORT_SYMBOL(rdma_init_qp_attr);

/*
 * One step of the id's QP along the connection, with @conn's RDMA read
 * depths when we accept. Under the id's qp_mutex.
 */
static int cma_qp_step(struct cma_id_priv *priv, enum ib_qp_state state,
		       const struct rdma_conn_param *conn)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask, ret;

	lockdep_assert_held(&priv->qp_mutex);
	ret = cma_qp_attr(priv, &attr, &mask);
	if (ret)
		return ret;
	if (conn && state == IB_QPS_RTR)
		attr.max_dest_rd_atomic = conn->responder_resources;
	if (conn && state == IB_QPS_RTS)
		attr.max_rd_atomic = conn->initiator_depth;
	return ib_modify_qp(priv->id.qp, &attr, mask);
}

/* INIT, RTR, RTS in turn, up to @last, for a QP of rdma_create_qp(). */
static int cma_qp_walk(struct cma_id_priv *priv,
		       const struct rdma_conn_param *conn,
		       enum ib_qp_state last)
{
	static const enum ib_qp_state steps[] = {
		IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS,
	};
	int i, ret = 0;

	mutex_lock(&priv->qp_mutex);
	for (i = 0; priv->id.qp && !ret && i < ARRAY_SIZE(steps); i++) {
		ret = cma_qp_step(priv, steps[i], conn);
		if (steps[i] == last)
			break;
	}
	mutex_unlock(&priv->qp_mutex);
	return ret;
}

/**
 * cma_qp_ready() - Bring the id's QP to RTS for its connection
 * @priv: the id, its IB CM exchange under way
 * @conn: the passive side's parameters (its read depths), or NULL
 *
 * INIT again (the P_Key index may have changed since creation), RTR and
 * RTS with the attributes the IB CM gives. Nothing to do without a QP
 * of rdma_create_qp().
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: 0 or the errno of the first step that failed.
 */
int cma_qp_ready(struct cma_id_priv *priv, const struct rdma_conn_param *conn)
{
	return cma_qp_walk(priv, conn, IB_QPS_RTS);
}

/**
 * cma_qp_rtr() - Bring the id's QP to RTR (iWARP: the driver does RTS)
 * @priv: the id
 * @conn: our parameters (the responder resources), or NULL
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: 0 or the errno of the first step that failed.
 */
int cma_qp_rtr(struct cma_id_priv *priv, const struct rdma_conn_param *conn)
{
	return cma_qp_walk(priv, conn, IB_QPS_RTR);
}

/**
 * cma_qp_error() - Move the id's QP, if any, to ERR
 * @priv: the id
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: 0 or ib_modify_qp()'s errno.
 */
int cma_qp_error(struct cma_id_priv *priv)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int ret = 0;

	mutex_lock(&priv->qp_mutex);
	if (priv->id.qp)
		ret = ib_modify_qp(priv->id.qp, &attr, IB_QP_STATE);
	mutex_unlock(&priv->qp_mutex);
	return ret;
}

/* Move @qp to @state with the id's attributes (only the state past INIT). */
static int cma_qp_move(struct cma_id_priv *priv, struct ib_qp *qp,
		       enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask = IB_QP_STATE;
	int ret;

	if (state == IB_QPS_INIT) {
		ret = rdma_init_qp_attr(&priv->id, &attr, &mask);
		if (ret)
			return ret;
	}
	if (state == IB_QPS_RTS) {
		attr.sq_psn = 0;
		mask |= IB_QP_SQ_PSN;
	}
	return ib_modify_qp(qp, &attr, mask);
}

/* A new QP to INIT, a UD one on to RTR and RTS. */
static int cma_qp_start(struct cma_id_priv *priv, struct ib_qp *qp)
{
	int ret;

	ret = cma_qp_move(priv, qp, IB_QPS_INIT);
	if (ret || priv->id.qp_type != IB_QPT_UD)
		return ret;
	ret = cma_qp_move(priv, qp, IB_QPS_RTR);
	if (ret)
		return ret;
	return cma_qp_move(priv, qp, IB_QPS_RTS);
}

/**
 * rdma_create_qp() - Create the QP an id connects
 * @id: an id on a device (address resolved, or a new id of a request)
 * @pd: a PD of the id's device
 * @qp_init_attr: the QP's attributes; port_num is set to the id's port
 *
 * The QP is made and brought to INIT (UD: to RTS); from then on rdma_cm
 * moves it as the connection goes. Destroy it with rdma_destroy_qp()
 * before the id.
 *
 * Context: process context, sleeps.
 * Return: 0 (the QP is in id->qp); -EINVAL for a PD of another device;
 * the errnos of ib_create_qp(), ib_modify_qp() and rdma_init_qp_attr().
 */
int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr)
{
	struct cma_id_priv *priv = to_cma_id(id);
	struct ib_qp *qp;
	int ret;

	if (id->device != pd->device)
		return -EINVAL;
	qp_init_attr->port_num = id->port_num;
	qp = ib_create_qp(pd, qp_init_attr);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	ret = cma_qp_start(priv, qp);
	if (ret)
		goto err_qp;

	mutex_lock(&priv->qp_mutex);
	id->qp = qp;
	priv->qp_num = qp->qp_num;
	priv->srq = !!qp->srq;
	mutex_unlock(&priv->qp_mutex);
	return 0;

err_qp:
	ib_destroy_qp(qp);
	return ret;
}
EXPORT_SYMBOL(rdma_create_qp);

/**
 * rdma_destroy_qp() - Destroy the QP of rdma_create_qp()
 * @id: the id
 *
 * Context: process context, sleeps; takes the id's qp_mutex.
 */
void rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct cma_id_priv *priv = to_cma_id(id);

	mutex_lock(&priv->qp_mutex);
	ib_destroy_qp(id->qp);
	id->qp = NULL;
	mutex_unlock(&priv->qp_mutex);
}
EXPORT_SYMBOL(rdma_destroy_qp);
