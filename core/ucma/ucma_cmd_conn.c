// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: connections. CONNECT, LISTEN, ACCEPT, REJECT, DISCONNECT,
 * the QP attributes a user QP needs for its next state (INIT_QP_ATTR)
 * and NOTIFY of QP events rdma_cm cannot see.
 */

#include <linux/uaccess.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_marshall.h>

#include "ucma/ucma.h"

/* The user's connection parameters as rdma_cm's; @u must outlive @k. */
static void ucma_conn_param_in(struct rdma_cm_id *cm_id,
			       struct rdma_conn_param *k,
			       struct rdma_ucm_conn_param *u)
{
	*k = (struct rdma_conn_param) {
		.private_data = u->private_data,
		.private_data_len = u->private_data_len,
		.responder_resources = u->responder_resources,
		.initiator_depth = u->initiator_depth,
		.flow_control = u->flow_control,
		.retry_count = u->retry_count,
		.rnr_retry_count = u->rnr_retry_count,
		.srq = u->srq,
		.qp_num = u->qp_num & 0xffffff,
		/* only AF_IB ids choose their QKey */
		.qkey = cm_id->route.addr.src_addr.ss_family == AF_IB ?
			u->qkey : 0,
	};
}

/* ECE options: present only when the command is long enough to hold them. */
static struct rdma_ucm_ece ucma_ece_in(struct ucma_req *req, size_t end,
				       const struct rdma_ucm_ece *ece)
{
	struct rdma_ucm_ece none = {};

	return req->in_len >= end ? *ece : none;
}

int ucma_check_connect(struct ucma_req *req)
{
	struct rdma_ucm_connect *cmd = req->cmd;

	return cmd->conn_param.valid ? 0 : -EINVAL;
}

/**
 * ucma_cmd_connect() - CONNECT: send the request on a resolved route
 * @req: the command (struct rdma_ucm_connect), on a bound id
 *
 * Return: 0 or rdma_connect_ece()'s errno.
 */
int ucma_cmd_connect(struct ucma_req *req)
{
	struct rdma_ucm_connect *cmd = req->cmd;
	struct rdma_cm_id *cm_id = req->ctx->cm_id;
	struct rdma_conn_param param;
	struct rdma_ucm_ece ece;

	ece = ucma_ece_in(req, offsetofend(struct rdma_ucm_connect, ece),
			  &cmd->ece);
	ucma_conn_param_in(cm_id, &param, &cmd->conn_param);
	return rdma_connect_ece(cm_id, &param, &ece);
}

/**
 * ucma_cmd_listen() - LISTEN: accept requests, up to a backlog
 * @req: the command (struct rdma_ucm_listen)
 *
 * A backlog of 0 or above the max_backlog sysctl is that maximum.
 *
 * Return: 0 or rdma_listen()'s errno.
 */
int ucma_cmd_listen(struct ucma_req *req)
{
	struct rdma_ucm_listen *cmd = req->cmd;
	unsigned int max = READ_ONCE(ucma_max_backlog);
	int backlog = cmd->backlog;

	if (backlog <= 0 || backlog > max)
		backlog = max;
	atomic_set(&req->ctx->backlog, backlog);
	return rdma_listen(req->ctx->cm_id, backlog);
}

/**
 * ucma_cmd_accept() - ACCEPT: answer a request, or finish our connect
 * @req: the command (struct rdma_ucm_accept), on a bound id
 *
 * With parameters it accepts a new connection; the id starts reporting
 * events under the uid given, set while the handler is held off so no
 * event is lost in between. Without, an active id whose user QP is
 * ready sends the RTU.
 *
 * Return: 0 or rdma_accept_ece()'s errno.
 */
int ucma_cmd_accept(struct ucma_req *req)
{
	struct rdma_ucm_accept *cmd = req->cmd;
	struct rdma_cm_id *cm_id = req->ctx->cm_id;
	struct rdma_conn_param param, *p = NULL;
	struct rdma_ucm_ece ece;
	int ret;

	ece = ucma_ece_in(req, offsetofend(struct rdma_ucm_accept, ece),
			  &cmd->ece);
	if (cmd->conn_param.valid) {
		ucma_conn_param_in(cm_id, &param, &cmd->conn_param);
		p = &param;
	}
	rdma_lock_handler(cm_id);
	ret = rdma_accept_ece(cm_id, p, &ece);
	if (!ret && p)
		req->ctx->uid = cmd->uid;
	rdma_unlock_handler(cm_id);
	return ret;
}

int ucma_check_reject(struct ucma_req *req)
{
	struct rdma_ucm_reject *cmd = req->cmd;

	/* users may give only these two reasons; none means consumer's */
	if (!cmd->reason)
		cmd->reason = IB_CM_REJ_CONSUMER_DEFINED;
	if (cmd->reason != IB_CM_REJ_CONSUMER_DEFINED &&
	    cmd->reason != IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED)
		return -EINVAL;
	return 0;
}

/**
 * ucma_cmd_reject() - REJECT: refuse a request (or a reply)
 * @req: the command (struct rdma_ucm_reject), on a bound id
 *
 * Return: 0 or rdma_reject()'s errno.
 */
int ucma_cmd_reject(struct ucma_req *req)
{
	struct rdma_ucm_reject *cmd = req->cmd;

	return rdma_reject(req->ctx->cm_id, cmd->private_data,
			   cmd->private_data_len, cmd->reason);
}

int ucma_cmd_disconnect(struct ucma_req *req)
{
	return rdma_disconnect(req->ctx->cm_id);
}

int ucma_check_init_qp_attr(struct ucma_req *req)
{
	struct rdma_ucm_init_qp_attr *cmd = req->cmd;

	return cmd->qp_state > IB_QPS_ERR ? -EINVAL : 0;
}

/**
 * ucma_cmd_init_qp_attr() - INIT_QP_ATTR: attributes for a user QP
 * @req: the command (struct rdma_ucm_init_qp_attr), on a bound id
 *
 * Return: 0 with the attributes and their mask for the state asked;
 * rdma_init_qp_attr()'s errno; -EFAULT.
 */
int ucma_cmd_init_qp_attr(struct ucma_req *req)
{
	struct rdma_ucm_init_qp_attr *cmd = req->cmd;
	struct rdma_cm_id *cm_id = req->ctx->cm_id;
	struct ib_uverbs_qp_attr resp = {};
	struct ib_qp_attr attr = { .qp_state = cmd->qp_state };
	int mask = 0, ret;

	ret = rdma_init_qp_attr(cm_id, &attr, &mask);
	if (ret)
		return ret;
	ib_copy_qp_attr_to_user(cm_id->device, &resp, &attr);
	resp.qp_attr_mask = mask;
	return ucma_respond(req, cmd->response, &resp, sizeof(resp));
}

/**
 * ucma_cmd_notify() - NOTIFY: pass a QP event (COMM_EST) to rdma_cm
 * @req: the command (struct rdma_ucm_notify)
 *
 * Return: 0; -EINVAL on an id not on a device; rdma_notify()'s errno.
 */
int ucma_cmd_notify(struct ucma_req *req)
{
	struct rdma_ucm_notify *cmd = req->cmd;
	struct rdma_cm_id *cm_id = req->ctx->cm_id;

	if (!cm_id->device)
		return -EINVAL;
	return rdma_notify(cm_id, (enum ib_event_type)cmd->event);
}
