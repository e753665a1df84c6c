// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protection domains from user space: ALLOC_PD, DEALLOC_PD and the PD's kind in
 * the handle table.
 */

#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#include "restrack/restrack.h"
#include "uverbs/uverbs.h"

/*
 * A user PD goes only when nothing is created on it any more; at close and
 * device removal the table's passes take its objects first.
 */
static int uverbs_pd_destroy(struct ib_uobject *uobj, struct ib_uverbs_file *file,
			     bool force)
{
	struct ib_udata udata = {};
	struct ib_pd *pd = uobj->object;
	int ret;

	if (!force && atomic_read(&pd->usecnt))
		return -EBUSY;
	ret = ib_dealloc_pd_user(pd, &udata);
	/* forced, a PD the driver keeps is lost: say so */
	if (ret && force)
		pr_warn("%s: user PD %u not freed: %d\n",
			dev_name(&pd->device->dev), uobj->id, ret);
	return ret;
}

static const struct uverbs_obj_type uverbs_pd_type = {
	.name = "pd",
	.destroy = uverbs_pd_destroy,
};

const struct uverbs_api_object uverbs_obj_pd = { .type = &uverbs_pd_type };

/* A PD of the driver's size, owned by current, made by the driver. */
static struct ib_pd *uverbs_pd_create(struct uverbs_cmd_ctx *ctx,
				      struct ib_uobject *uobj)
{
	struct ib_device *ib_dev = ctx->ib_dev;
	struct ib_pd *pd;
	int ret;

	pd = rdma_zalloc_drv_obj(ib_dev, ib_pd);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	pd->device = ib_dev;
	pd->uobject = uobj;
	atomic_set(&pd->usecnt, 0);
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, NULL);
	ret = ib_dev->ops.alloc_pd(pd, &ctx->driver_udata);
	if (ret) {
		rdma_restrack_put(&pd->res);
		kfree(pd);
		return ERR_PTR(ret);
	}
	rdma_restrack_add(&pd->res);
	return pd;
}

/**
 * uverbs_cmd_alloc_pd() - IB_USER_VERBS_CMD_ALLOC_PD
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the new handle in the response; -EINVAL without a
 * ucontext, -ENOMEM, -EFAULT, or the driver's error.
 */
int uverbs_cmd_alloc_pd(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ib_uverbs_alloc_pd cmd;
	struct ib_udata none = {};
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	uobj = uverbs_uobj_alloc(ctx->file, &uverbs_obj_pd);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd = uverbs_pd_create(ctx, uobj);
	if (IS_ERR(pd)) {
		ret = PTR_ERR(pd);
		goto err_handle;
	}
	uobj->object = pd;
	uobj->context = ctx->ucontext;
	resp.pd_handle = uobj->id;
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_pd;
	return uverbs_uobj_publish(uobj);

err_pd:
	ib_dealloc_pd_user(pd, &none);
err_handle:
	uverbs_uobj_abort(uobj);
	return ret;
}

/**
 * uverbs_cmd_dealloc_pd() - IB_USER_VERBS_CMD_DEALLOC_PD
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for a handle that is not a PD of this file, -EBUSY
 * while objects or another command use the PD, or the driver's error.
 */
int uverbs_cmd_dealloc_pd(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_dealloc_pd cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	return ret ? ret : uverbs_uobj_destroy(ctx->file, &uverbs_obj_pd,
					       cmd.pd_handle);
}
