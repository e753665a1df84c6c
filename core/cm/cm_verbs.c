// SPDX-License-Identifier: GPL-2.0-only
/*
 * The owner's verbs of 6.1's ib_cm: parameters checked, sleeping work done,
 * then one input to the table.
 */

#include <linux/slab.h>

#include "cm/cm.h"

static int cm_verb(struct ib_cm_id *cm_id, struct cm_in *in)
{
	return cm_table_feed(to_cm_id_priv(cm_id), in);
}

static int cm_verb_data(struct ib_cm_id *cm_id, enum cm_input input,
			const void *data, u8 len, u8 max)
{
	struct cm_in in = {
		.input = input,
		.data = data,
		.data_len = data ? len : 0,
	};

	if (data && len > max)
		return -EINVAL;
	return cm_verb(cm_id, &in);
}

/**
 * ib_cm_listen() - Listen for connection and SIDR requests
 * @cm_id: an id in IB_CM_IDLE
 * @service_id: the service ID to take requests for, on @cm_id's device;
 *		IB_CM_ASSIGN_SERVICE_ID lets the CM choose one (read it
 *		back from @cm_id->service_id)
 *
 * Each REQ or SIDR REQ for the service then makes a new cm_id, reported
 * to @cm_id's handler with event.param.*.listen_id set to @cm_id.
 *
 * Context: process.
 * Return: 0, -EINVAL (bad service ID or state), -EBUSY (someone listens
 * on it already).
 */
int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id)
{
	struct cm_in in = { .input = CM_IN_LISTEN, .msg = &service_id };

	if ((service_id & IB_SERVICE_ID_AGN_MASK) == IB_CM_ASSIGN_SERVICE_ID &&
	    service_id != IB_CM_ASSIGN_SERVICE_ID)
		return -EINVAL;
	return cm_verb(cm_id, &in);
}
EXPORT_SYMBOL(ib_cm_listen);

static struct cm_id_priv *cm_listen_share(struct ib_device *device,
					  ib_cm_handler handler,
					  __be64 service_id)
{
	struct cm_id_priv *priv = cm_listen_find(device, service_id);

	if (!priv)
		return NULL;
	spin_lock_irq(&cm.lock);
	if (priv->id.cm_handler != handler || priv->id.context ||
	    !priv->listen_share) {
		spin_unlock_irq(&cm.lock);
		cm_id_put(priv);
		return ERR_PTR(-EINVAL);
	}
	priv->listen_share++;
	spin_unlock_irq(&cm.lock);
	return priv;
}

/**
 * ib_cm_insert_listen() - Listen on a service ID, sharing an existing listener
 * @device: the device
 * @cm_handler: handler of the listener
 * @service_id: the service ID
 *
 * If a listener made by this function with @cm_handler exists for
 * @service_id on @device, it is returned with one more user; otherwise a
 * new one is made. Each user calls ib_destroy_cm_id() once; the listener
 * goes with the last.
 *
 * Context: process.
 * Return: the listener, or ERR_PTR(-EINVAL) when someone else listens on
 * @service_id, or another error.
 */
struct ib_cm_id *ib_cm_insert_listen(struct ib_device *device,
				     ib_cm_handler cm_handler,
				     __be64 service_id)
{
	struct cm_id_priv *priv;
	struct ib_cm_id *cm_id;
	int ret;

	priv = cm_listen_share(device, cm_handler, service_id);
	if (priv)
		return IS_ERR(priv) ? ERR_CAST(priv) : &priv->id;
	cm_id = ib_create_cm_id(device, cm_handler, NULL);
	if (IS_ERR(cm_id))
		return cm_id;
	ret = ib_cm_listen(cm_id, service_id);
	if (ret) {
		ib_destroy_cm_id(cm_id);
		return ERR_PTR(ret == -EBUSY ? -EINVAL : ret);
	}
	return cm_id;
}
EXPORT_SYMBOL(ib_cm_insert_listen);

/* Both paths of a connection share its partition and MTU. */
static bool cm_req_paths_agree(const struct sa_path_rec *a,
			       const struct sa_path_rec *b)
{
	return !b || (a->pkey == b->pkey && a->mtu == b->mtu);
}

static bool cm_req_param_ok(const struct ib_cm_req_param *param)
{
	bool type_ok = param->qp_type == IB_QPT_RC ||
		       param->qp_type == IB_QPT_UC ||
		       param->qp_type == IB_QPT_XRC_INI;
	bool data_ok = !param->private_data ||
		       param->private_data_len <= IB_CM_REQ_PRIVATE_DATA_SIZE;

	return param->primary_path && type_ok && data_ok &&
	       cm_req_paths_agree(param->primary_path, param->alternate_path);
}

/**
 * ib_send_cm_req() - Ask the peer on a path to connect
 * @cm_id: an id in IB_CM_IDLE
 * @param: the connection: paths, service ID, QP, timeouts, retries,
 *	   private data
 *
 * The REQ is retried every 2 * packet lifetime + remote CM response
 * timeout, @param->max_cm_retries times; the answer arrives as
 * IB_CM_REP_RECEIVED, IB_CM_REJ_RECEIVED or IB_CM_REQ_ERROR.
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL (parameters, state, no CM on the path's port),
 * -ENOMEM, or the error of the send.
 */
int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param)
{
	struct cm_id_priv *priv = to_cm_id_priv(cm_id);
	struct cm_in in = { .input = CM_IN_SEND_REQ };
	struct cm_req_prep *prep;
	int ret;

	if (!cm_req_param_ok(param))
		return -EINVAL;
	prep = kzalloc(sizeof(*prep), GFP_KERNEL);
	if (!prep)
		return -ENOMEM;
	prep->param = param;
	ret = cm_wire->av_from_path(&prep->av, cm_id->device,
				    param->primary_path,
				    param->ppath_sgid_attr);
	if (ret)
		goto out;
	prep->tw = cm_timewait_alloc(priv, GFP_KERNEL);
	if (!prep->tw) {
		ret = -ENOMEM;
		goto out;
	}
	in.msg = prep;
	ret = cm_verb(cm_id, &in);
out:
	kfree(prep->tw);
	cm_av_destroy(&prep->av);
	kfree(prep);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_req);

/**
 * ib_send_cm_rep() - Accept a connection request
 * @cm_id: an id in IB_CM_REQ_RCVD or IB_CM_MRA_REQ_SENT
 * @param: our QP, PSN, resources and private data
 *
 * The REP is retried until the RTU (IB_CM_RTU_RECEIVED), a REJ or the
 * timeout (IB_CM_REP_ERROR).
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL (state, parameters), or the error of the send.
 */
int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param)
{
	struct cm_in in = { .input = CM_IN_SEND_REP, .msg = param };

	if (param->private_data &&
	    param->private_data_len > IB_CM_REP_PRIVATE_DATA_SIZE)
		return -EINVAL;
	return cm_verb(cm_id, &in);
}
EXPORT_SYMBOL(ib_send_cm_rep);

/**
 * ib_send_cm_rtu() - Confirm a connection the peer accepted
 * @cm_id: an id in IB_CM_REP_RCVD or IB_CM_MRA_REP_SENT
 * @private_data: to send, up to IB_CM_RTU_PRIVATE_DATA_SIZE bytes
 * @private_data_len: its length
 *
 * Context: any; does not sleep.
 * Return: 0 (the id is IB_CM_ESTABLISHED), -EINVAL, or the send's error.
 */
int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len)
{
	return cm_verb_data(cm_id, CM_IN_SEND_RTU, private_data,
			    private_data_len, IB_CM_RTU_PRIVATE_DATA_SIZE);
}
EXPORT_SYMBOL(ib_send_cm_rtu);

/**
 * ib_send_cm_dreq() - Disconnect
 * @cm_id: an id in IB_CM_ESTABLISHED
 * @private_data: to send, up to IB_CM_DREQ_PRIVATE_DATA_SIZE bytes
 * @private_data_len: its length
 *
 * The DREQ is retried until the DREP (IB_CM_DREP_RECEIVED) or the timeout
 * (IB_CM_DREQ_ERROR); the id then waits in IB_CM_TIMEWAIT.
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL, or the send's error.
 */
int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	return cm_verb_data(cm_id, CM_IN_SEND_DREQ, private_data,
			    private_data_len, IB_CM_DREQ_PRIVATE_DATA_SIZE);
}
EXPORT_SYMBOL(ib_send_cm_dreq);

/**
 * ib_send_cm_drep() - Answer the peer's DREQ
 * @cm_id: an id in IB_CM_DREQ_RCVD
 * @private_data: to send, up to IB_CM_DREP_PRIVATE_DATA_SIZE bytes
 * @private_data_len: its length
 *
 * The id enters IB_CM_TIMEWAIT even when the DREP cannot be sent.
 *
 * Context: any; does not sleep.
 * Return: 0, or -EINVAL (state, private data too long).
 */
int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	return cm_verb_data(cm_id, CM_IN_SEND_DREP, private_data,
			    private_data_len, IB_CM_DREP_PRIVATE_DATA_SIZE);
}
EXPORT_SYMBOL(ib_send_cm_drep);

/**
 * ib_send_cm_rej() - Reject a connection request or reply
 * @cm_id: an id connecting (REQ or REP sent or received, MRA states)
 * @reason: an IB_CM_REJ_* reason
 * @ari: additional rejection information, up to IB_CM_REJ_ARI_LENGTH
 * @ari_length: its length
 * @private_data: up to IB_CM_REJ_PRIVATE_DATA_SIZE bytes
 * @private_data_len: its length
 *
 * After a REP of ours the id goes through timewait, else back to IDLE.
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL, or the send's error.
 */
int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len)
{
	struct cm_in in = {
		.input = CM_IN_SEND_REJ,
		.arg = reason,
		.ari = ari,
		.ari_len = ari ? ari_length : 0,
		.data = private_data,
		.data_len = private_data ? private_data_len : 0,
	};

	if (in.data_len > IB_CM_REJ_PRIVATE_DATA_SIZE ||
	    in.ari_len > IB_CM_REJ_ARI_LENGTH)
		return -EINVAL;
	return cm_verb(cm_id, &in);
}
EXPORT_SYMBOL(ib_send_cm_rej);

/**
 * ib_send_cm_mra() - Ask the peer to wait longer for our answer
 * @cm_id: an id in IB_CM_REQ_RCVD or IB_CM_REP_RCVD
 * @service_timeout: how long we need (IBA time units); with
 *		     IB_CM_MRA_FLAG_DELAY the MRA is sent only if the peer
 *		     repeats its message
 * @private_data: up to IB_CM_MRA_PRIVATE_DATA_SIZE bytes
 * @private_data_len: its length
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL, or the send's error.
 */
int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len)
{
	struct cm_in in = {
		.input = CM_IN_SEND_MRA,
		.arg = service_timeout,
		.data = private_data,
		.data_len = private_data ? private_data_len : 0,
	};

	if (in.data_len > IB_CM_MRA_PRIVATE_DATA_SIZE)
		return -EINVAL;
	return cm_verb(cm_id, &in);
}
EXPORT_SYMBOL(ib_send_cm_mra);

/**
 * ib_send_cm_sidr_req() - Resolve a service ID to a UD QP
 * @cm_id: an id in IB_CM_IDLE
 * @param: path, service ID, timeout, retries and private data
 *
 * The answer arrives as IB_CM_SIDR_REP_RECEIVED or IB_CM_SIDR_REQ_ERROR.
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL, -ENOMEM, or the send's error.
 */
int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param)
{
	struct cm_in in = { .input = CM_IN_SEND_SIDR_REQ };
	struct cm_req_prep *prep;
	int ret;

	if (!param->path ||
	    (param->private_data &&
	     param->private_data_len > IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE))
		return -EINVAL;
	prep = kzalloc(sizeof(*prep), GFP_KERNEL);
	if (!prep)
		return -ENOMEM;
	prep->param = param;
	ret = cm_wire->av_from_path(&prep->av, cm_id->device, param->path,
				    param->sgid_attr);
	if (!ret) {
		in.msg = prep;
		ret = cm_verb(cm_id, &in);
	}
	cm_av_destroy(&prep->av);
	kfree(prep);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_req);

/**
 * ib_send_cm_sidr_rep() - Answer a SIDR request
 * @cm_id: an id in IB_CM_SIDR_REQ_RCVD
 * @param: status, our QP and Q_Key, additional info and private data
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL, or the send's error.
 */
int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param)
{
	struct cm_in in = { .input = CM_IN_SEND_SIDR_REP, .msg = param };

	if ((param->info && param->info_length > IB_CM_SIDR_REP_INFO_LENGTH) ||
	    (param->private_data &&
	     param->private_data_len > IB_CM_SIDR_REP_PRIVATE_DATA_SIZE))
		return -EINVAL;
	return cm_verb(cm_id, &in);
}
EXPORT_SYMBOL(ib_send_cm_sidr_rep);
