// SPDX-License-Identifier: GPL-2.0-only
/*
 * CQs from user space: CREATE_CQ, EX_CREATE_CQ, RESIZE_CQ, POLL_CQ,
 * REQ_NOTIFY_CQ, DESTROY_CQ, the CQ's kind and its events.
 */

#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "cq/cq.h"
#include "uverbs/uverbs.h"

/*
 * The user side of a CQ (cq->uobject). The handle table's uobject goes
 * with the handle; this lives on while DESTROY_CQ still reads the counts
 * (@ref: the CQ's, and that command's). @comp_list and @async_list hold
 * the CQ's unread events on its channel and its async file.
 */
struct ib_ucq_object {
	struct kref ref;
	struct ib_uobject *uobj;
	u64 user_handle;
	struct uverbs_comp_channel *channel;
	struct uverbs_async_file *async;
	struct list_head comp_list;
	struct list_head async_list;
	u32 comp_events_reported;
	u32 async_events_reported;
	bool destroyed;
};

static void uverbs_ucq_free(struct kref *ref)
{
	kfree(container_of(ref, struct ib_ucq_object, ref));
}

/* The CQ's completion handler: one event on its channel, if it has one. */
static void uverbs_cq_comp(struct ib_cq *cq, void *cq_context)
{
	struct ib_ucq_object *ucq = cq_context;

	if (ucq->channel)
		uverbs_comp_queue(ucq->channel, ucq->user_handle,
				  &ucq->comp_list, &ucq->comp_events_reported);
}

/* The CQ's async events (CQ_ERR) go to the file's async event file. */
static void uverbs_cq_event(struct ib_event *event, void *cq_context)
{
	struct ib_ucq_object *ucq = cq_context;

	if (ucq->async)
		uverbs_async_queue_obj(ucq->async, ucq->user_handle,
				       event->event, &ucq->async_list,
				       &ucq->async_events_reported);
}

/* Let go of what the user side holds once the CQ itself is gone. */
static void uverbs_ucq_release(struct ib_ucq_object *ucq)
{
	if (ucq->channel) {
		uverbs_comp_forget(ucq->channel, &ucq->comp_list);
		uverbs_comp_put(ucq->channel);
	}
	if (ucq->async) {
		uverbs_async_forget(ucq->async, &ucq->async_list);
		uverbs_async_put(ucq->async);
	}
	ucq->destroyed = true;
	kref_put(&ucq->ref, uverbs_ucq_free);
}

static int uverbs_cq_destroy(struct ib_uobject *uobj, struct ib_uverbs_file *file,
			     bool force)
{
	struct ib_udata udata = {};
	struct ib_cq *cq = uobj->object;
	struct ib_ucq_object *ucq = cq->uobject;
	int ret;

	ret = ib_destroy_cq_user(cq, &udata);
	if (ret && !force)
		return ret;
	if (ret)
		pr_warn("%s: user CQ %u not freed: %d\n",
			dev_name(&cq->device->dev), uobj->id, ret);
	uverbs_ucq_release(ucq);
	return ret;
}

static const struct uverbs_obj_type uverbs_cq_type = {
	.name = "cq",
	.destroy = uverbs_cq_destroy,
};

const struct uverbs_api_object uverbs_obj_cq = { .type = &uverbs_cq_type };

/* The user side: the channel named (if any) and the file's async queue. */
static struct ib_ucq_object *uverbs_ucq_alloc(struct uverbs_cmd_ctx *ctx,
					      const struct ib_uverbs_ex_create_cq *cmd)
{
	struct ib_ucq_object *ucq;

	ucq = kzalloc(sizeof(*ucq), GFP_KERNEL);
	if (!ucq)
		return ERR_PTR(-ENOMEM);
	kref_init(&ucq->ref);
	INIT_LIST_HEAD(&ucq->comp_list);
	INIT_LIST_HEAD(&ucq->async_list);
	ucq->user_handle = cmd->user_handle;
	if (cmd->comp_channel >= 0) {
		ucq->channel = uverbs_comp_get(cmd->comp_channel, ctx->file);
		if (IS_ERR(ucq->channel)) {
			int ret = PTR_ERR(ucq->channel);

			kfree(ucq);
			return ERR_PTR(ret);
		}
	}
	ucq->async = uverbs_async_get(ctx->file);
	return ucq;
}

/* CREATE_CQ and EX_CREATE_CQ, the legacy request widened to the extended one. */
static int uverbs_cq_create(struct uverbs_cmd_ctx *ctx,
			    const struct ib_uverbs_ex_create_cq *cmd)
{
	struct ib_cq_init_attr attr = {
		.cqe = cmd->cqe,
		.comp_vector = cmd->comp_vector,
		.flags = cmd->flags,
	};
	struct ib_uverbs_ex_create_cq_resp resp = {};
	struct ib_ucq_object *ucq;
	struct ib_uobject *uobj;
	struct ib_cq *cq;
	int ret;

	if (cmd->comp_vector >= ctx->ib_dev->num_comp_vectors)
		return -EINVAL;
	uobj = uverbs_uobj_alloc(ctx->file, &uverbs_obj_cq);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ucq = uverbs_ucq_alloc(ctx, cmd);
	if (IS_ERR(ucq)) {
		ret = PTR_ERR(ucq);
		goto err_handle;
	}
	ucq->uobj = uobj;
	cq = ib_create_cq_udata(ctx->ib_dev, uverbs_cq_comp, uverbs_cq_event,
				ucq, &attr, NULL, &ctx->driver_udata);
	if (IS_ERR(cq)) {
		ret = PTR_ERR(cq);
		goto err_ucq;
	}
	cq->uobject = ucq;
	uobj->object = cq;
	uobj->context = ctx->ucontext;
	uobj->user_handle = cmd->user_handle;
	resp.base.cq_handle = uobj->id;
	resp.base.cqe = cq->cqe;
	resp.response_length = min_t(size_t, ctx->ucore.outlen, sizeof(resp));
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_cq;
	return uverbs_uobj_publish(uobj);

err_cq:
	ib_destroy_cq_user(cq, &(struct ib_udata){});
err_ucq:
	uverbs_ucq_release(ucq);
err_handle:
	uverbs_uobj_abort(uobj);
	return ret;
}

/**
 * uverbs_cmd_create_cq() - IB_USER_VERBS_CMD_CREATE_CQ
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the handle and size in the response; -EINVAL for a
 * comp_vector the device lacks (or the driver's size check), -EBADF for a
 * comp_channel that is not a channel of this file, -ENOMEM, -EFAULT.
 */
int uverbs_cmd_create_cq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_create_cq ex = {};
	struct ib_uverbs_create_cq cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	ex.user_handle = cmd.user_handle;
	ex.cqe = cmd.cqe;
	ex.comp_vector = cmd.comp_vector;
	ex.comp_channel = cmd.comp_channel;
	/* the legacy response is the extended one's base */
	return uverbs_cq_create(ctx, &ex);
}

/**
 * uverbs_cmd_ex_create_cq() - IB_USER_VERBS_EX_CMD_CREATE_CQ
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: as uverbs_cmd_create_cq(), and -EINVAL for a comp_mask or
 * reserved field set.
 */
int uverbs_cmd_ex_create_cq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_create_cq cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;
	return uverbs_cq_create(ctx, &cmd);
}

/**
 * uverbs_cmd_resize_cq() - IB_USER_VERBS_CMD_RESIZE_CQ
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the new size; -EINVAL for no such CQ or the driver's
 * refusal, -EBUSY while the CQ is destroyed, -EOPNOTSUPP.
 */
int uverbs_cmd_resize_cq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_resize_cq_resp resp = {};
	struct ib_uverbs_resize_cq cmd;
	struct ib_uobject *uobj;
	struct ib_cq *cq;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_cq, cmd.cq_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	cq = uobj->object;
	ret = cq->device->ops.resize_cq ?
	      cq->device->ops.resize_cq(cq, cmd.cqe, &ctx->driver_udata) :
	      -EOPNOTSUPP;
	if (!ret) {
		resp.cqe = cq->cqe;
		ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	}
	uverbs_uobj_put_read(uobj);
	return ret;
}

/* Poll up to @ne completions into the response after its header. */
static int uverbs_cq_poll_into(struct uverbs_cmd_ctx *ctx, struct ib_cq *cq,
			       u32 ne, u32 *count)
{
	u8 __user *out = ctx->ucore.outbuf + sizeof(struct ib_uverbs_poll_cq_resp);
	struct ib_uverbs_wc uwc;
	struct ib_wc wc;
	int ret;

	for (*count = 0; *count < ne; ++*count) {
		ret = ib_poll_cq(cq, 1, &wc);
		if (ret <= 0)
			return ret;
		ib_wc_to_uverbs(&uwc, &wc);
		if (copy_to_user(out, &uwc, sizeof(uwc)))
			return -EFAULT;
		out += sizeof(uwc);
	}
	return 0;
}

/**
 * uverbs_cmd_poll_cq() - IB_USER_VERBS_CMD_POLL_CQ
 * @ctx: the command
 *
 * Polls through the driver; an rdma_rxe user CQ is polled by user space
 * in its ring, and this answers with no completions (as 6.1 does for an
 * empty one). The response room is not checked against @ne: a completion
 * that does not fit ends in -EFAULT, as on 6.1.
 *
 * Context: Process context, may sleep.
 * Return: 0 with the count and the completions; -EINVAL for no such CQ,
 * -EBUSY, -EFAULT.
 */
int uverbs_cmd_poll_cq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_poll_cq_resp resp = {};
	struct ib_uverbs_poll_cq cmd;
	struct ib_uobject *uobj;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_cq, cmd.cq_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = uverbs_cq_poll_into(ctx, uobj->object, cmd.ne, &resp.count);
	if (ret >= 0 && copy_to_user(ctx->ucore.outbuf, &resp, sizeof(resp)))
		ret = -EFAULT;
	uverbs_uobj_put_read(uobj);
	return ret < 0 ? ret : 0;
}

/**
 * uverbs_cmd_req_notify_cq() - IB_USER_VERBS_CMD_REQ_NOTIFY_CQ
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such CQ, -EBUSY.
 */
int uverbs_cmd_req_notify_cq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_req_notify_cq cmd;
	struct ib_uobject *uobj;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_cq, cmd.cq_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ib_req_notify_cq(uobj->object, cmd.solicited_only ? IB_CQ_SOLICITED :
							    IB_CQ_NEXT_COMP);
	uverbs_uobj_put_read(uobj);
	return 0;
}

/**
 * uverbs_cmd_destroy_cq() - IB_USER_VERBS_CMD_DESTROY_CQ
 * @ctx: the command
 *
 * The response reports the completion and async events the process read
 * for the CQ (libibverbs waits until it acknowledged that many).
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such CQ, -EBUSY while in use, the driver's
 * error, -EFAULT.
 */
int uverbs_cmd_destroy_cq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_destroy_cq_resp resp = {};
	struct ib_uverbs_destroy_cq cmd;
	struct ib_ucq_object *ucq;
	struct ib_uobject *uobj;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_cq, cmd.cq_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ucq = ((struct ib_cq *)uobj->object)->uobject;
	kref_get(&ucq->ref);
	uverbs_uobj_put_read(uobj);
	ret = uverbs_uobj_destroy(ctx->file, &uverbs_obj_cq, cmd.cq_handle);
	if (!ret && !ucq->destroyed)
		ret = -EINVAL;
	resp.comp_events_reported = ucq->comp_events_reported;
	resp.async_events_reported = ucq->async_events_reported;
	kref_put(&ucq->ref, uverbs_ucq_free);
	return ret ? ret : uverbs_cmd_response(ctx, &resp, sizeof(resp));
}
