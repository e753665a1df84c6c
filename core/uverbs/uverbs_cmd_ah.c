// SPDX-License-Identifier: GPL-2.0-only
/* Address handles from user space: CREATE_AH, DESTROY_AH and the AH's kind. */
/*
 * A user AH names the destination of UD sends. On RoCE its destination
 * MAC is resolved at creation (rdma_create_user_ah()); a driver that
 * shares its send queue with the process (rdma_rxe) hands user space a
 * number for the AH in the driver data, which UD work requests carry.
 */

#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

static int uverbs_ah_destroy(struct ib_uobject *uobj,
			     struct ib_uverbs_file *file, bool force)
{
	struct ib_udata udata = {};
	struct ib_ah *ah = uobj->object;
	int ret;

	ret = rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE, &udata);
	if (ret && force)
		pr_warn("%s: user AH %u not freed: %d\n",
			dev_name(&ah->device->dev), uobj->id, ret);
	return ret;
}

static const struct uverbs_obj_type uverbs_ah_type = {
	.name = "ah",
	.destroy = uverbs_ah_destroy,
};

const struct uverbs_api_object uverbs_obj_ah = { .type = &uverbs_ah_type };

/* The address of a CREATE_AH as the verbs layer takes it. */
static void uverbs_ah_attr_in(struct ib_device *dev, struct rdma_ah_attr *ah,
			      const struct ib_uverbs_ah_attr *u)
{
	memset(ah, 0, sizeof(*ah));
	ah->type = rdma_ah_find_type(dev, u->port_num);
	rdma_ah_set_make_grd(ah, false);
	rdma_ah_set_dlid(ah, u->dlid);
	rdma_ah_set_sl(ah, u->sl);
	rdma_ah_set_path_bits(ah, u->src_path_bits);
	rdma_ah_set_static_rate(ah, u->static_rate);
	rdma_ah_set_port_num(ah, u->port_num);
	if (u->is_global) {
		rdma_ah_set_grh(ah, NULL, u->grh.flow_label, u->grh.sgid_index,
				u->grh.hop_limit, u->grh.traffic_class);
		memcpy(rdma_ah_retrieve_grh(ah)->dgid.raw, u->grh.dgid,
		       sizeof(u->grh.dgid));
	} else {
		rdma_ah_set_ah_flags(ah, 0);
	}
}

/**
 * uverbs_cmd_create_ah() - IB_USER_VERBS_CMD_CREATE_AH
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the handle; -EINVAL for a port the device lacks, a PD
 * handle that is not a PD of the file or an address the driver refuses,
 * -EBUSY, -ENOMEM, -EFAULT, the MAC resolution's error.
 */
int uverbs_cmd_create_ah(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_create_ah_resp resp = {};
	struct ib_uverbs_create_ah cmd;
	struct ib_uobject *uobj, *pd_uobj;
	struct rdma_ah_attr attr;
	struct ib_ah *ah;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	if (!rdma_is_port_valid(ctx->ib_dev, cmd.attr.port_num))
		return -EINVAL;
	uobj = uverbs_uobj_alloc(ctx->file, &uverbs_obj_ah);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd_uobj = uverbs_uobj_get_read(ctx->file, &uverbs_obj_pd,
				       cmd.pd_handle);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_handle;
	}
	uverbs_ah_attr_in(ctx->ib_dev, &attr, &cmd.attr);
	ah = rdma_create_user_ah(pd_uobj->object, &attr, &ctx->driver_udata);
	uverbs_uobj_put_read(pd_uobj);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto err_handle;
	}
	ah->uobject = uobj;
	uobj->object = ah;
	uobj->context = ctx->ucontext;
	uobj->user_handle = cmd.user_handle;
	resp.ah_handle = uobj->id;
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_ah;
	return uverbs_uobj_publish(uobj);

err_ah:
	rdma_destroy_ah_user(ah, RDMA_DESTROY_AH_SLEEPABLE,
			     &(struct ib_udata){});
err_handle:
	uverbs_uobj_abort(uobj);
	return ret;
}

/**
 * uverbs_cmd_destroy_ah() - IB_USER_VERBS_CMD_DESTROY_AH
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for no such AH, -EBUSY while another command uses
 * it, or the driver's error.
 */
int uverbs_cmd_destroy_ah(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_destroy_ah cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	return uverbs_uobj_destroy(ctx->file, &uverbs_obj_ah, cmd.ah_handle);
}
