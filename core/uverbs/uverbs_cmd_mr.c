// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions from user space: REG_MR, REREG_MR, DEREG_MR and the MR's kind
 * in the handle table.
 */
/*
 * The driver pins the memory (ib_umem_get() in its reg_user_mr) and
 * releases it in dereg_mr; the core's part is the MR's fields, the PD's
 * use count and resource tracking under the calling process.
 */

#include <linux/mm.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#include "restrack/restrack.h"
#include "uverbs/uverbs.h"

/* An MR holds its PD (usecnt) until it goes; close takes MRs before PDs. */
static int uverbs_mr_destroy(struct ib_uobject *uobj, struct ib_uverbs_file *file,
			     bool force)
{
	struct ib_udata udata = {};
	struct ib_mr *mr = uobj->object;
	int ret;

	ret = ib_dereg_mr_user(mr, &udata);
	/* forced, an MR the driver keeps (windows bound) is lost: say so */
	if (ret && force)
		pr_warn("%s: user MR %u not freed: %d\n",
			dev_name(&mr->device->dev), uobj->id, ret);
	return ret;
}

static const struct uverbs_obj_type uverbs_mr_type = {
	.name = "mr",
	.destroy = uverbs_mr_destroy,
};

const struct uverbs_api_object uverbs_obj_mr = { .type = &uverbs_mr_type };

/* The core's fields of an MR the driver just registered on @pd. */
static void uverbs_mr_attach(struct ib_mr *mr, struct ib_pd *pd,
			     struct ib_uobject *uobj, u64 iova, u64 length)
{
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_USER;
	mr->dm = NULL;
	mr->sig_attrs = NULL;
	mr->uobject = uobj;
	mr->iova = iova;
	mr->length = length;
	atomic_inc(&pd->usecnt);
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_set_name(&mr->res, NULL);
	rdma_restrack_add(&mr->res);
}

/* Register the memory @cmd names on the PD of its handle. */
static struct ib_mr *uverbs_mr_register(struct uverbs_cmd_ctx *ctx,
					struct ib_uobject *uobj,
					const struct ib_uverbs_reg_mr *cmd)
{
	struct ib_uobject *pd_uobj;
	struct ib_mr *mr;
	struct ib_pd *pd;

	pd_uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_pd,
				       cmd->pd_handle);
	if (IS_ERR(pd_uobj))
		return ERR_CAST(pd_uobj);
	pd = pd_uobj->object;
	mr = pd->device->ops.reg_user_mr(pd, cmd->start, cmd->length,
					 cmd->hca_va, cmd->access_flags,
					 &ctx->driver_udata);
	if (!IS_ERR(mr))
		uverbs_mr_attach(mr, pd, uobj, cmd->hca_va, cmd->length);
	uverbs_uobj_put_read(pd_uobj);
	return mr;
}

/**
 * uverbs_cmd_reg_mr() - IB_USER_VERBS_CMD_REG_MR
 * @ctx: the command
 *
 * The memory is @start..@start + @length of the calling process; the MR
 * presents it at @hca_va, which must have the same offset in its page.
 *
 * Context: Process context, may sleep.
 * Return: 0 with the handle, lkey and rkey in the response; -EINVAL for
 * an offset mismatch, bad access flags, a handle that is not a PD of this
 * file, or (from ib_umem_get()) an empty or overflowing range; -EBUSY
 * while the PD is being destroyed; -ENOMEM beyond RLIMIT_MEMLOCK;
 * -EFAULT for memory not mapped; -EFAULT for the response; or the
 * driver's error.
 */
int uverbs_cmd_reg_mr(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ib_uverbs_reg_mr cmd;
	struct ib_udata none = {};
	struct ib_uobject *uobj;
	struct ib_mr *mr;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	if ((cmd.start & ~PAGE_MASK) != (cmd.hca_va & ~PAGE_MASK))
		return -EINVAL;
	ret = ib_check_mr_access(ctx->ib_dev, cmd.access_flags);
	if (ret)
		return ret;
	uobj = uverbs_uobj_alloc(ctx->file, &uverbs_obj_mr);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	mr = uverbs_mr_register(ctx, uobj, &cmd);
	if (IS_ERR(mr)) {
		ret = PTR_ERR(mr);
		goto err_handle;
	}
	uobj->object = mr;
	uobj->context = ctx->ucontext;
	resp.mr_handle = uobj->id;
	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_mr;
	return uverbs_uobj_publish(uobj);

err_mr:
	ib_dereg_mr_user(mr, &none);
err_handle:
	uverbs_uobj_abort(uobj);
	return ret;
}

/**
 * uverbs_cmd_dereg_mr() - IB_USER_VERBS_CMD_DEREG_MR
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 once the MR is gone and its pages unpinned; -EINVAL for a
 * handle that is not an MR of this file (a second DEREG_MR too), -EBUSY
 * while another command uses it, or the driver's error.
 */
int uverbs_cmd_dereg_mr(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_dereg_mr cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	return ret ? ret : uverbs_uobj_destroy(ctx->file, &uverbs_obj_mr,
					       cmd.mr_handle);
}

/* REREG_MR's checks of the request alone, in 6.1's order. */
static int uverbs_rereg_check(const struct ib_uverbs_rereg_mr *cmd)
{
	if (!cmd->flags)
		return -EINVAL;
	if (cmd->flags & ~IB_MR_REREG_SUPPORTED)
		return -EOPNOTSUPP;
	if ((cmd->flags & IB_MR_REREG_TRANS) &&
	    (cmd->start & ~PAGE_MASK) != (cmd->hca_va & ~PAGE_MASK))
		return -EINVAL;
	return 0;
}

/*
 * The driver changed @mr in place: move it to @pd (whose use count it
 * takes over from the old PD) and take the new translation. Restrack
 * readers do not lock against the PD change, so it waits them out.
 */
static void uverbs_mr_update(struct ib_mr *mr, struct ib_pd *pd,
			     const struct ib_uverbs_rereg_mr *cmd)
{
	struct ib_pd *old_pd = mr->pd;

	if (pd != old_pd) {
		atomic_inc(&pd->usecnt);
		WRITE_ONCE(mr->pd, pd);
		rdma_restrack_sync(&mr->res);
		atomic_dec(&old_pd->usecnt);
	}
	if (cmd->flags & IB_MR_REREG_TRANS) {
		mr->iova = cmd->hca_va;
		mr->length = cmd->length;
	}
}

/*
 * The driver answered with @new_mr: it takes the handle @uobj (held for
 * writing), then the old MR goes. The driver made sure it can (no memory
 * windows on it); should it still refuse, the old MR is lost to user
 * space, as a forced destroy would lose it.
 */
static void uverbs_mr_swap(struct ib_uobject *uobj, struct ib_mr *new_mr,
			   struct ib_pd *pd, const struct ib_uverbs_rereg_mr *cmd)
{
	struct ib_mr *old = uobj->object;
	struct ib_udata none = {};
	bool trans = cmd->flags & IB_MR_REREG_TRANS;
	int ret;

	uverbs_mr_attach(new_mr, pd, uobj, trans ? cmd->hca_va : old->iova,
			 trans ? cmd->length : old->length);
	uverbs_uobj_replace(uobj, new_mr);
	ret = ib_dereg_mr_user(old, &none);
	if (ret)
		pr_warn("%s: MR replaced by rereg not freed: %d\n",
			dev_name(&old->device->dev), ret);
}

/* The PD REREG_MR moves @mr to (NULL in *@pd_uobj: it stays where it is). */
static struct ib_pd *uverbs_rereg_pd(struct uverbs_cmd_ctx *ctx,
				     struct ib_mr *mr,
				     struct ib_uverbs_rereg_mr *cmd,
				     struct ib_uobject **pd_uobj)
{
	*pd_uobj = NULL;
	if (!(cmd->flags & IB_MR_REREG_PD))
		return mr->pd;
	*pd_uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_pd,
					cmd->pd_handle);
	if (IS_ERR(*pd_uobj))
		return ERR_CAST(*pd_uobj);
	if ((*pd_uobj)->object != mr->pd)
		return (*pd_uobj)->object;
	/* the same PD: no PD change, as 6.1 tells the driver */
	uverbs_uobj_put_read(*pd_uobj);
	*pd_uobj = NULL;
	cmd->flags &= ~IB_MR_REREG_PD;
	return mr->pd;
}

/* Run the driver's rereg on the MR of @uobj; the MR behind it after, or an ERR_PTR. */
static struct ib_mr *uverbs_mr_rereg(struct uverbs_cmd_ctx *ctx,
				     struct ib_uobject *uobj,
				     struct ib_uverbs_rereg_mr *cmd)
{
	struct ib_mr *mr = uobj->object, *new_mr;
	struct ib_uobject *pd_uobj;
	struct ib_pd *pd;
	int ret;

	if (mr->dm)
		return ERR_PTR(-EINVAL);
	if (cmd->flags & IB_MR_REREG_ACCESS) {
		ret = ib_check_mr_access(mr->device, cmd->access_flags);
		if (ret)
			return ERR_PTR(ret);
	}
	pd = uverbs_rereg_pd(ctx, mr, cmd, &pd_uobj);
	if (IS_ERR(pd))
		return ERR_CAST(pd);
	new_mr = mr->device->ops.rereg_user_mr(mr, cmd->flags, cmd->start,
					       cmd->length, cmd->hca_va,
					       cmd->access_flags, pd,
					       &ctx->driver_udata);
	if (IS_ERR(new_mr))
		goto out;
	if (new_mr)
		uverbs_mr_swap(uobj, new_mr, pd, cmd);
	else
		uverbs_mr_update(mr, pd, cmd);
	new_mr = uobj->object;
out:
	if (pd_uobj)
		uverbs_uobj_put_read(pd_uobj);
	return new_mr;
}

/**
 * uverbs_cmd_rereg_mr() - IB_USER_VERBS_CMD_REREG_MR
 * @ctx: the command
 *
 * Changes an MR's translation (IB_MR_REREG_TRANS: @start, @length and
 * @hca_va as REG_MR takes them), PD (IB_MR_REREG_PD: @pd_handle) and/or
 * access (IB_MR_REREG_ACCESS: @access_flags). The driver changes the MR
 * in place or registers a new one, which then takes the handle while the
 * old one is deregistered; either way the response has the keys to use
 * from now on. The handle is held alone meanwhile: other commands naming
 * it answer -EBUSY.
 *
 * Context: Process context, may sleep.
 * Return: 0 with the lkey and rkey in the response; -EINVAL for no flags,
 * an offset mismatch with IB_MR_REREG_TRANS, an MR on device memory, bad
 * access flags, or a handle that is not an MR (or a PD) of this file;
 * -EOPNOTSUPP for unknown flags; -EBUSY while another command uses the
 * MR or the PD; -EFAULT for the response; or the driver's error (the MR
 * is then as it was).
 */
int uverbs_cmd_rereg_mr(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ib_uverbs_rereg_mr cmd;
	struct ib_uobject *uobj;
	struct ib_mr *mr;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	ret = uverbs_rereg_check(&cmd);
	if (ret)
		return ret;
	uobj = uverbs_uobj_get_write(ctx->file, &uverbs_obj_mr, cmd.mr_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	mr = uverbs_mr_rereg(ctx, uobj, &cmd);
	if (IS_ERR(mr)) {
		ret = PTR_ERR(mr);
		goto out;
	}
	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
out:
	uverbs_uobj_put_write(uobj);
	return ret;
}
