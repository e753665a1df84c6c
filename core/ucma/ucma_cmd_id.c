// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: the commands that make, destroy and move ids: CREATE_ID,
 * DESTROY_ID and MIGRATE_ID.
 */

#include <linux/file.h>
#include <linux/uaccess.h>

#include "ucma/ucma.h"

/* The QP type each port space implies; RDMA_PS_IB lets the user choose. */
static int ucma_ps_qp_type(const struct rdma_ucm_create_id *cmd,
			   enum ib_qp_type *type)
{
	static const struct {
		u16 ps;
		enum ib_qp_type type;
	} fixed[] = {
		{ RDMA_PS_TCP, IB_QPT_RC },
		{ RDMA_PS_UDP, IB_QPT_UD },
		{ RDMA_PS_IPOIB, IB_QPT_UD },
	};
	unsigned int i;

	if (cmd->ps == RDMA_PS_IB) {
		*type = cmd->qp_type;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(fixed); i++) {
		if (fixed[i].ps == cmd->ps) {
			*type = fixed[i].type;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * ucma_cmd_create_id() - CREATE_ID: a new id in the caller's namespace
 * @req: the command (struct rdma_ucm_create_id)
 *
 * The id is published only once its number reached the user.
 *
 * Return: 0; -EINVAL for an unknown port space, -ENOMEM, -EFAULT.
 */
int ucma_cmd_create_id(struct ucma_req *req)
{
	struct rdma_ucm_create_id *cmd = req->cmd;
	struct rdma_ucm_create_id_resp resp = {};
	struct rdma_cm_id *cm_id;
	enum ib_qp_type type;
	struct ucma_ctx *ctx;
	int ret;

	ret = ucma_ps_qp_type(cmd, &type);
	if (ret)
		return ret;
	ctx = ucma_ctx_alloc(req->file);
	if (!ctx)
		return -ENOMEM;
	ctx->uid = cmd->uid;
	cm_id = rdma_create_user_id(ucma_event_handler, ctx, cmd->ps, type);
	if (IS_ERR(cm_id)) {
		ret = PTR_ERR(cm_id);
		goto err_ctx;
	}
	ucma_ctx_set_id(ctx, cm_id);
	resp.id = ctx->id;
	ret = ucma_respond(req, cmd->response, &resp, sizeof(resp));
	if (ret)
		goto err_ctx;
	mutex_lock(&req->file->lock);
	ucma_ctx_publish(ctx);
	mutex_unlock(&req->file->lock);
	return 0;

err_ctx:
	ucma_ctx_destroy(ctx);
	return ret;
}

/**
 * ucma_cmd_destroy_id() - DESTROY_ID: destroy an id and its unread events
 * @req: the command (struct rdma_ucm_destroy_id)
 *
 * Waits for the id's event handler and for other commands on it.
 *
 * Return: 0 with the events the id reported written back; -ENOENT,
 * -EINVAL (another file's id), -EFAULT.
 */
int ucma_cmd_destroy_id(struct ucma_req *req)
{
	struct rdma_ucm_destroy_id *cmd = req->cmd;
	struct rdma_ucm_destroy_id_resp resp = {};
	struct ucma_ctx *ctx;

	ctx = ucma_ctx_unpublish(req->file, cmd->id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	resp.events_reported = ucma_ctx_destroy(ctx);
	return ucma_respond(req, cmd->response, &resp, sizeof(resp));
}

/*
 * Move @ctx and its queued events from @from to @to. The handler lock
 * keeps events from being queued meanwhile; the number of events it
 * reported so far is returned.
 */
static int ucma_migrate_move(struct ucma_ctx *ctx, struct ucma_file *from,
			     struct ucma_file *to)
{
	struct ucma_event *uev, *next;
	LIST_HEAD(moving);
	int reported;

	mutex_lock(&from->lock);
	list_del(&ctx->file_node);
	list_for_each_entry_safe(uev, next, &from->events, node)
		if (uev->ctx == ctx)
			list_move_tail(&uev->node, &moving);
	reported = ctx->events_reported;
	mutex_unlock(&from->lock);

	mutex_lock(&to->lock);
	list_add_tail(&ctx->file_node, &to->ctxs);
	list_splice_tail(&moving, &to->events);
	if (!list_empty(&to->events))
		wake_up_interruptible(&to->wait);
	mutex_unlock(&to->lock);
	return reported;
}

/* Hand @from's id @id to @to; @from stays open (the caller holds it). */
static int ucma_migrate(struct ucma_req *req, struct ucma_file *from)
{
	struct rdma_ucm_migrate_id *cmd = req->cmd;
	struct rdma_ucm_migrate_resp resp = {};
	struct ucma_ctx *ctx;
	int ret = 0;

	ctx = ucma_ctx_get(from, cmd->id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	rdma_lock_handler(ctx->cm_id);
	/* a destroy may have unpublished it since */
	xa_lock(&ucma_ctxs);
	if (xa_load(&ucma_ctxs, cmd->id) != ctx) {
		xa_unlock(&ucma_ctxs);
		ret = -ENOENT;
		goto out;
	}
	ctx->file = req->file;
	xa_unlock(&ucma_ctxs);
	resp.events_reported = ucma_migrate_move(ctx, from, req->file);
	ret = ucma_respond(req, cmd->response, &resp, sizeof(resp));
out:
	rdma_unlock_handler(ctx->cm_id);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_migrate_id() - MIGRATE_ID: move an id of another rdma_cm file
 * @req: the command (struct rdma_ucm_migrate_id), on the new owner
 *
 * Return: 0 with the events the id reported so far; -ENOENT (no such
 * file descriptor or id), -EINVAL (not an rdma_cm file, or the id is not
 * that file's), -EFAULT.
 */
int ucma_cmd_migrate_id(struct ucma_req *req)
{
	struct rdma_ucm_migrate_id *cmd = req->cmd;
	struct fd f = fdget(cmd->fd);
	int ret;

	if (!f.file)
		return -ENOENT;
	if (f.file->f_op != &ucma_fops)
		ret = -EINVAL;
	else
		ret = ucma_migrate(req, f.file->private_data);
	fdput(f);
	return ret;
}
