// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exported calls of iw_cm: listen, connect, accept, reject, disconnect and
 * a QP's attributes.
 */

#include "iwcm/iwcm.h"

/*
 * Each call feeds its input to the table under the id's lock, then asks
 * the driver outside it (the driver may sleep). When the driver refuses,
 * a second input (..._FAILED) takes the id back to IDLE: the driver sends
 * no events for a connect or accept it refused.
 */

static void iwcm_verbs_undo(struct iwcm_id_priv *priv, enum iwcm_input input)
{
	struct iwcm_in in = { .input = input };

	iwcm_table_feed(priv, &in);
}

/* Feed @in with @count new event entries for the id's pool. */
static int iwcm_verbs_feed_pool(struct iwcm_id_priv *priv,
				struct iwcm_in *in, int count)
{
	LIST_HEAD(pool);
	int ret;

	ret = iwcm_pool_alloc(&pool, count);
	if (ret)
		return ret;
	in->pool = &pool;
	ret = iwcm_table_feed(priv, in);
	/* What the cell did not take (all of it when it refused). */
	iwcm_pool_free(&pool);
	return ret;
}

/**
 * iw_cm_listen() - Listen for connection requests
 * @cm_id: an idle id whose local_addr is the address and port to listen on
 * @backlog: requests that may wait for their IW_CM_EVENT_CONNECT_REQUEST
 *	     to be handled; 0 for net.iw_cm.default_backlog (256 at first)
 *
 * Reserves an event entry per request of the backlog, then has the
 * driver listen. Each request that arrives is given a new id, handed to
 * @cm_id's handler with IW_CM_EVENT_CONNECT_REQUEST.
 *
 * Context: process; sleeps.
 * Locks: takes the id's lock for the state change only; the driver is
 * called without it.
 * Return: 0; -EINVAL for a negative backlog or an id that is not idle;
 * -ENOMEM; or the driver's error (the id is idle again then).
 */
int iw_cm_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct iwcm_id_priv *priv = to_iwcm_id_priv(cm_id);
	struct iwcm_in in = { .input = IWCM_IN_LISTEN };
	int ret;

	if (!backlog)
		backlog = READ_ONCE(iwcm.default_backlog);
	ret = iwcm_verbs_feed_pool(priv, &in, backlog);
	if (ret)
		return ret;
	ret = cm_id->device->ops.iw_create_listen(cm_id, backlog);
	if (ret)
		iwcm_verbs_undo(priv, IWCM_IN_LISTEN_FAILED);
	return ret;
}
EXPORT_SYMBOL(iw_cm_listen);

/**
 * iw_cm_connect() - Connect to a peer
 * @cm_id: an idle id with local_addr and remote_addr set
 * @iw_param: private data for the peer, ORD/IRD and the QP (by number)
 *
 * Reserves the event entries of the connection, takes a reference on
 * the QP and has the driver connect. The answer comes as
 * IW_CM_EVENT_CONNECT_REPLY, status 0 when the connection is up, else
 * why not (iwcm_reject_msg()); it may come before this returns.
 * Disconnect and destroy wait for it.
 *
 * Context: process; sleeps.
 * Locks: takes the id's lock for the state change only; the driver is
 * called without it.
 * Return: 0; -ENOMEM; -EINVAL for an id that is not idle or a QP number
 * the device does not know; or the driver's error (the id is idle again,
 * no event will come).
 */
int iw_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param)
{
	struct iwcm_id_priv *priv = to_iwcm_id_priv(cm_id);
	const struct ib_device_ops *ops = &cm_id->device->ops;
	struct iwcm_in in = { .input = IWCM_IN_CONNECT };
	int ret;

	in.qp = ops->iw_get_qp(cm_id->device, iw_param->qpn);
	ret = iwcm_verbs_feed_pool(priv, &in, IWCM_ENTRIES_ACTIVE);
	if (ret)
		return ret;
	ret = ops->iw_connect(cm_id, iw_param);
	if (ret)
		iwcm_verbs_undo(priv, IWCM_IN_CONNECT_FAILED);
	return ret;
}
EXPORT_SYMBOL(iw_cm_connect);

/**
 * iw_cm_accept() - Accept a connection request
 * @cm_id: the id IW_CM_EVENT_CONNECT_REQUEST came with
 * @iw_param: private data for the peer, ORD/IRD and the QP (by number)
 *
 * Takes a reference on the QP and has the driver accept.
 * IW_CM_EVENT_ESTABLISHED follows, possibly before this returns;
 * disconnect and destroy wait for it.
 *
 * Context: process; sleeps. May be called from the id's handler.
 * Locks: takes the id's lock for the state change only; the driver is
 * called without it.
 * Return: 0; -EINVAL when @cm_id has no request waiting (or accepted it
 * already) or for a QP number the device does not know; or the driver's
 * error (the id is idle then, no event will come).
 */
int iw_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param)
{
	struct iwcm_id_priv *priv = to_iwcm_id_priv(cm_id);
	const struct ib_device_ops *ops = &cm_id->device->ops;
	struct iwcm_in in = { .input = IWCM_IN_ACCEPT };
	int ret;

	in.qp = ops->iw_get_qp(cm_id->device, iw_param->qpn);
	ret = iwcm_table_feed(priv, &in);
	if (ret)
		return ret;
	ret = ops->iw_accept(cm_id, iw_param);
	if (ret)
		iwcm_verbs_undo(priv, IWCM_IN_ACCEPT_FAILED);
	return ret;
}
EXPORT_SYMBOL(iw_cm_accept);

/**
 * iw_cm_reject() - Reject a connection request
 * @cm_id: the id IW_CM_EVENT_CONNECT_REQUEST came with
 * @private_data: for the peer; may be reused once this returns
 * @private_data_len: its length
 *
 * The id becomes idle and gets no events; destroy it.
 *
 * Context: process; sleeps. May be called from the id's handler.
 * Locks: takes the id's lock for the state change only; the driver is
 * called without it.
 * Return: 0; -EINVAL when @cm_id has no request waiting; or the driver's
 * error.
 */
int iw_cm_reject(struct iw_cm_id *cm_id, const void *private_data,
		 u8 private_data_len)
{
	struct iwcm_id_priv *priv = to_iwcm_id_priv(cm_id);
	struct iwcm_in in = { .input = IWCM_IN_REJECT };
	int ret;

	ret = iwcm_table_feed(priv, &in);
	if (ret)
		return ret;
	ret = cm_id->device->ops.iw_reject(cm_id, private_data,
					   private_data_len);
	iwcm_id_pending_end(priv);
	return ret;
}
EXPORT_SYMBOL(iw_cm_reject);

/**
 * iw_cm_disconnect() - Close a connection
 * @cm_id: the id
 * @abrupt: reset the connection (QP to ERR) rather than close it
 *	    gracefully (QP to SQD)
 *
 * Waits until a connect or accept in progress is answered. An
 * established connection then starts closing; the id stays in use until
 * IW_CM_EVENT_CLOSE. On an id not (or no longer) connected, nothing
 * happens: the peer may be closing at the same time.
 *
 * Context: process; sleeps (waiting for a connect or accept, and while
 * the QP is moved). May be called from the id's handler.
 * Locks: takes the id's lock for the state change only.
 * Return: 0, or -EINVAL for a listener.
 */
int iw_cm_disconnect(struct iw_cm_id *cm_id, int abrupt)
{
	struct iwcm_id_priv *priv = to_iwcm_id_priv(cm_id);
	struct iwcm_in in = { .input = IWCM_IN_DISCONNECT, .abrupt = abrupt };

	iwcm_id_pending_wait(priv);
	return iwcm_table_feed(priv, &in);
}
EXPORT_SYMBOL(iw_cm_disconnect);

/**
 * iw_cm_init_qp_attr() - QP attributes for a connection's QP
 * @cm_id: the id of the connection
 * @qp_attr: qp_state says the state the QP is to go to; the attributes
 *	     for it are filled in
 * @qp_attr_mask: set to the attributes filled in
 *
 * For INIT and RTR: the QP state and remote read and write access; for
 * RTS: nothing more (an iWARP driver moves the QP itself as the
 * connection comes up).
 *
 * Context: any; does not sleep.
 * Locks: takes the id's lock (interrupts off) to read its state.
 * Return: 0, or -EINVAL for another QP state or an id that is listening,
 * closing or being destroyed.
 */
int iw_cm_init_qp_attr(struct iw_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	struct iwcm_in in = {
		.input = IWCM_IN_QP_ATTR, .qp_attr = qp_attr,
		.qp_attr_mask = qp_attr_mask,
	};

	return iwcm_table_feed(to_iwcm_id_priv(cm_id), &in);
}
EXPORT_SYMBOL(iw_cm_init_qp_attr);
