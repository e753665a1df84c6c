// SPDX-License-Identifier: GPL-2.0-only
/* Memory windows from user space: ALLOC_MW, DEALLOC_MW and the MW's kind in the handle table. */
/*
 * A window is bound later, by a work request on a user QP; here it is
 * only made on a PD (counted in its use count) and freed.
 */

#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

/* Free @mw once the driver let it go; the PD is free to go after it. */
static int uverbs_mw_free(struct ib_mw *mw)
{
	struct ib_pd *pd = mw->pd;
	int ret = mw->device->ops.dealloc_mw(mw);

	if (ret)
		return ret;
	atomic_dec(&pd->usecnt);
	kfree(mw);
	return 0;
}

static int uverbs_mw_destroy(struct ib_uobject *uobj, struct ib_uverbs_file *file,
			     bool force)
{
	struct ib_mw *mw = uobj->object;
	struct ib_device *ib_dev = mw->device;
	u32 id = uobj->id;
	int ret = uverbs_mw_free(mw);

	if (ret && force)
		pr_warn("%s: user MW %u not freed: %d\n", dev_name(&ib_dev->dev),
			id, ret);
	return ret;
}

static const struct uverbs_obj_type uverbs_mw_type = {
	.name = "mw",
	.destroy = uverbs_mw_destroy,
};

const struct uverbs_api_object uverbs_obj_mw = { .type = &uverbs_mw_type };

/* A window of @type on the PD of @pd_handle, made by the driver. */
static struct ib_mw *uverbs_mw_create(struct uverbs_cmd_ctx *ctx,
				      struct ib_uobject *uobj, u32 pd_handle,
				      u8 type)
{
	struct ib_uobject *pd_uobj;
	struct ib_mw *mw;
	struct ib_pd *pd;
	int ret;

	pd_uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_pd, pd_handle);
	if (IS_ERR(pd_uobj))
		return ERR_CAST(pd_uobj);
	pd = pd_uobj->object;
	mw = rdma_zalloc_drv_obj(ctx->ib_dev, ib_mw);
	if (!mw) {
		ret = -ENOMEM;
		goto out;
	}
	mw->device = ctx->ib_dev;
	mw->pd = pd;
	mw->uobject = uobj;
	mw->type = type;
	ret = ctx->ib_dev->ops.alloc_mw(mw, &ctx->driver_udata);
	if (ret)
		kfree(mw);
	else
		atomic_inc(&pd->usecnt);
out:
	uverbs_uobj_put_read(pd_uobj);
	return ret ? ERR_PTR(ret) : mw;
}

/**
 * uverbs_cmd_alloc_mw() - IB_USER_VERBS_CMD_ALLOC_MW
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the handle and rkey in the response; -EINVAL for a
 * handle that is not a PD of this file or a type other than 1 and 2,
 * -EBUSY while the PD is being destroyed, -ENOMEM, -EFAULT, or the
 * driver's error.
 */
int uverbs_cmd_alloc_mw(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct ib_uverbs_alloc_mw cmd;
	struct ib_uobject *uobj;
	struct ib_mw *mw;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	if (cmd.mw_type != IB_MW_TYPE_1 && cmd.mw_type != IB_MW_TYPE_2)
		return -EINVAL;
	uobj = uverbs_uobj_alloc(ctx->file, &uverbs_obj_mw);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	mw = uverbs_mw_create(ctx, uobj, cmd.pd_handle, cmd.mw_type);
	if (IS_ERR(mw)) {
		ret = PTR_ERR(mw);
		goto err_handle;
	}
	uobj->object = mw;
	uobj->context = ctx->ucontext;
	resp.mw_handle = uobj->id;
	resp.rkey = mw->rkey;
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_mw;
	return uverbs_uobj_publish(uobj);

err_mw:
	uverbs_mw_free(mw);
err_handle:
	uverbs_uobj_abort(uobj);
	return ret;
}

/**
 * uverbs_cmd_dealloc_mw() - IB_USER_VERBS_CMD_DEALLOC_MW
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for a handle that is not an MW of this file, -EBUSY
 * while another command uses it, or the driver's error.
 */
int uverbs_cmd_dealloc_mw(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_dealloc_mw cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	return ret ? ret : uverbs_uobj_destroy(ctx->file, &uverbs_obj_mw,
					       cmd.mw_handle);
}
