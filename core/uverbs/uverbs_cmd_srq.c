// SPDX-License-Identifier: GPL-2.0-only
/*
 * SRQs from user space: CREATE_SRQ, CREATE_XSRQ, MODIFY_SRQ, QUERY_SRQ,
 * DESTROY_SRQ, the SRQ's kind and its events.
 */
/*
 * Only basic SRQs: XRC and tag-matching SRQs need an XRC domain or a CQ
 * handle this stack does not hand out yet, so CREATE_XSRQ answers them
 * -EINVAL, as 6.1 does for a handle that names no such object. The SRQ
 * counts its PD (ib_create_srq_user()); its async events (SRQ_ERR,
 * SRQ_LIMIT_REACHED) go to the file's async event file with the SRQ's user
 * handle and are counted for DESTROY_SRQ's events_reported.
 */

#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

/* The user side of an SRQ (srq->uobject). */
struct ib_usrq_object {
	struct uverbs_uevent uevent;
};

static_assert(offsetof(struct ib_usrq_object, uevent) == 0);

static int uverbs_srq_destroy(struct ib_uobject *uobj,
			      struct ib_uverbs_file *file, bool force)
{
	struct ib_udata udata = {};
	struct ib_srq *srq = uobj->object;
	struct ib_usrq_object *usrq = srq->uobject;
	int ret;

	ret = ib_destroy_srq_user(srq, &udata);
	if (ret && !force)
		return ret;
	if (ret)
		pr_warn("%s: user SRQ %u not freed: %d\n",
			dev_name(&srq->device->dev), uobj->id, ret);
	uverbs_uevent_release(&usrq->uevent);
	return ret;
}

static const struct uverbs_obj_type uverbs_srq_type = {
	.name = "srq",
	.destroy = uverbs_srq_destroy,
};

const struct uverbs_api_object uverbs_obj_srq = { .type = &uverbs_srq_type };

/**
 * uverbs_srq_get() - An SRQ of a file by handle, held for reading
 * @file: the uverbs file
 * @handle: the SRQ's handle as user space gave it
 * @uobj: set to the handle's uobject; give it back with
 *	  uverbs_uobj_put_read() when done with the SRQ
 *
 * For commands that name an SRQ (CREATE_QP's srq_handle): the SRQ cannot
 * be destroyed while held. A QP that keeps using it counts it in
 * srq->usecnt before the handle is put back.
 *
 * Context: Process context.
 * Return: the SRQ; ERR_PTR(-EINVAL) when @handle is not an SRQ of @file,
 * ERR_PTR(-EBUSY) while it is being destroyed.
 */
struct ib_srq *uverbs_srq_get(struct ib_uverbs_file *file, u32 handle,
			      struct ib_uobject **uobj)
{
	*uobj = uverbs_uobj_get_read(file, &uverbs_obj_srq, handle);
	if (IS_ERR(*uobj))
		return ERR_CAST(*uobj);
	return (*uobj)->object;
}

/*
 * The driver's SRQ on the PD @cmd names, for @usrq; @attr gets the sizes
 * the driver granted.
 */
static struct ib_srq *uverbs_srq_make(struct uverbs_cmd_ctx *ctx,
				      const struct ib_uverbs_create_xsrq *cmd,
				      struct ib_usrq_object *usrq,
				      struct ib_srq_init_attr *attr)
{
	struct ib_uobject *pd_uobj;
	struct ib_srq *srq;

	*attr = (struct ib_srq_init_attr) {
		.event_handler = uverbs_uevent_handler,
		.srq_context = &usrq->uevent,
		.srq_type = IB_SRQT_BASIC,
		.attr = {
			.max_wr = cmd->max_wr,
			.max_sge = cmd->max_sge,
			.srq_limit = cmd->srq_limit,
		},
	};
	pd_uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_pd,
				       cmd->pd_handle);
	if (IS_ERR(pd_uobj))
		return ERR_CAST(pd_uobj);
	srq = ib_create_srq_user(pd_uobj->object, attr, usrq,
				 &ctx->driver_udata);
	uverbs_uobj_put_read(pd_uobj);
	return srq;
}

/* CREATE_SRQ and CREATE_XSRQ, the former widened to the latter. */
static int uverbs_srq_create(struct uverbs_cmd_ctx *ctx,
			     const struct ib_uverbs_create_xsrq *cmd)
{
	struct ib_uverbs_create_srq_resp resp = {};
	struct ib_usrq_object *usrq;
	struct ib_srq_init_attr attr;
	struct uverbs_uevent *ue;
	struct ib_uobject *uobj;
	struct ib_srq *srq;
	int ret;

	/* no XRC domains nor CQs for SRQs yet: their handles name nothing */
	if (cmd->srq_type != IB_SRQT_BASIC)
		return -EINVAL;
	uobj = uverbs_uobj_alloc(ctx->file, &uverbs_obj_srq);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ue = uverbs_uevent_alloc(ctx, cmd->user_handle, sizeof(*usrq));
	if (!ue) {
		ret = -ENOMEM;
		goto err_handle;
	}
	usrq = container_of(ue, struct ib_usrq_object, uevent);
	srq = uverbs_srq_make(ctx, cmd, usrq, &attr);
	if (IS_ERR(srq)) {
		ret = PTR_ERR(srq);
		goto err_usrq;
	}
	uobj->object = srq;
	uobj->context = ctx->ucontext;
	uobj->user_handle = cmd->user_handle;
	resp.srq_handle = uobj->id;
	resp.max_wr = attr.attr.max_wr;
	resp.max_sge = attr.attr.max_sge;
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_srq;
	return uverbs_uobj_publish(uobj);

err_srq:
	ib_destroy_srq_user(srq, &(struct ib_udata){});
err_usrq:
	uverbs_uevent_release(&usrq->uevent);
err_handle:
	uverbs_uobj_abort(uobj);
	return ret;
}

/**
 * uverbs_cmd_create_srq() - IB_USER_VERBS_CMD_CREATE_SRQ
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the handle and the sizes granted; -EINVAL for a PD
 * handle that is not a PD of this file or sizes the driver refuses,
 * -EBUSY, -ENOMEM (also beyond the device's max_srq), -EFAULT.
 */
int uverbs_cmd_create_srq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_create_xsrq xcmd = {};
	struct ib_uverbs_create_srq cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	xcmd.user_handle = cmd.user_handle;
	xcmd.srq_type = IB_SRQT_BASIC;
	xcmd.pd_handle = cmd.pd_handle;
	xcmd.max_wr = cmd.max_wr;
	xcmd.max_sge = cmd.max_sge;
	xcmd.srq_limit = cmd.srq_limit;
	return uverbs_srq_create(ctx, &xcmd);
}

/**
 * uverbs_cmd_create_xsrq() - IB_USER_VERBS_CMD_CREATE_XSRQ
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: as uverbs_cmd_create_srq(); -EINVAL for any type but
 * IB_SRQT_BASIC.
 */
int uverbs_cmd_create_xsrq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_create_xsrq cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	return ret ? ret : uverbs_srq_create(ctx, &cmd);
}

/*
 * MODIFY_SRQ and QUERY_SRQ: the SRQ @handle names, held while the driver
 * changes what @mask says of @attr (with the command's driver data), or,
 * with no @mask, fills @attr.
 */
static int uverbs_srq_attr(struct uverbs_cmd_ctx *ctx, u32 handle,
			   struct ib_srq_attr *attr, const u32 *mask)
{
	struct ib_uobject *uobj;
	struct ib_srq *srq;
	int ret;

	srq = uverbs_srq_get(ctx->file, handle, &uobj);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	if (!mask)
		ret = ib_query_srq(srq, attr);
	else if (srq->device->ops.modify_srq)
		ret = srq->device->ops.modify_srq(srq, attr, *mask,
						  &ctx->driver_udata);
	else
		ret = -EOPNOTSUPP;
	uverbs_uobj_put_read(uobj);
	return ret;
}

/**
 * uverbs_cmd_modify_srq() - IB_USER_VERBS_CMD_MODIFY_SRQ
 * @ctx: the command
 *
 * The driver gets the command's driver data: rdma_rxe's resize names
 * where it writes the new ring's mmap information.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such SRQ or what the driver refuses, -EBUSY,
 * -EOPNOTSUPP, the driver's error.
 */
int uverbs_cmd_modify_srq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_modify_srq cmd;
	struct ib_srq_attr attr = {};
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	attr.max_wr = cmd.max_wr;
	attr.srq_limit = cmd.srq_limit;
	return uverbs_srq_attr(ctx, cmd.srq_handle, &attr, &cmd.attr_mask);
}

/**
 * uverbs_cmd_query_srq() - IB_USER_VERBS_CMD_QUERY_SRQ
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with max_wr, max_sge and srq_limit; -EINVAL for no such SRQ,
 * -EBUSY, -EOPNOTSUPP, -EFAULT.
 */
int uverbs_cmd_query_srq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_query_srq_resp resp = {};
	struct ib_uverbs_query_srq cmd;
	struct ib_srq_attr attr = {};
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	ret = uverbs_srq_attr(ctx, cmd.srq_handle, &attr, NULL);
	if (ret)
		return ret;
	resp.max_wr = attr.max_wr;
	resp.max_sge = attr.max_sge;
	resp.srq_limit = attr.srq_limit;
	return uverbs_cmd_response(ctx, &resp, sizeof(resp));
}

/**
 * uverbs_cmd_destroy_srq() - IB_USER_VERBS_CMD_DESTROY_SRQ
 * @ctx: the command
 *
 * The response reports the async events the process read for the SRQ.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such SRQ (also a second destroy), -EBUSY while
 * a QP uses it, the driver's error, -EFAULT.
 */
int uverbs_cmd_destroy_srq(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_destroy_srq_resp resp = {};
	struct ib_uverbs_destroy_srq cmd;
	struct ib_uobject *uobj;
	struct ib_srq *srq;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	srq = uverbs_srq_get(ctx->file, cmd.srq_handle, &uobj);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	ret = uverbs_uevent_destroy(ctx->file, &uverbs_obj_srq, uobj,
				    &srq->uobject->uevent,
				    &resp.events_reported);
	return ret ? ret : uverbs_cmd_response(ctx, &resp, sizeof(resp));
}
