// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device commands: GET_CONTEXT (the file's ucontext and async event file),
 * QUERY_DEVICE, EX_QUERY_DEVICE, QUERY_PORT.
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "restrack/restrack.h"
#include "uverbs/uverbs.h"

/**
 * uverbs_ucontext_alloc() - A ucontext of the driver's size
 * @ctx: the command (write() or ioctl) making it
 *
 * Not yet known to the driver; owned by current in resource tracking once
 * added (rdma res, ctxn of its objects). Undo with rdma_restrack_del()
 * and kfree().
 *
 * Context: Process context, may sleep.
 * Return: the ucontext or NULL.
 */
struct ib_ucontext *uverbs_ucontext_alloc(struct uverbs_cmd_ctx *ctx)
{
	struct ib_ucontext *ucontext;

	ucontext = rdma_zalloc_drv_obj(ctx->ib_dev, ib_ucontext);
	if (!ucontext)
		return NULL;
	ucontext->device = ctx->ib_dev;
	ucontext->ufile = ctx->file;
	xa_init_flags(&ucontext->mmap_xa, XA_FLAGS_ALLOC);
	rdma_restrack_new(&ucontext->res, RDMA_RESTRACK_CTX);
	rdma_restrack_set_name(&ucontext->res, NULL);
	return ucontext;
}

/*
 * Have the driver set up @ucontext, answer with the async event file's
 * descriptor @fd, then publish both. Caller holds ucontext_lock.
 */
static int uverbs_ucontext_start(struct uverbs_cmd_ctx *ctx,
				 struct ib_ucontext *ucontext, int fd,
				 struct file *afile)
{
	struct ib_uverbs_get_context_resp resp = {
		.async_fd = fd,
		.num_comp_vectors = ctx->ib_dev->num_comp_vectors,
	};
	int ret;

	lockdep_assert_held(&ctx->file->ucontext_lock);
	ret = ctx->ib_dev->ops.alloc_ucontext(ucontext, &ctx->driver_udata);
	if (ret)
		return ret;
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret) {
		if (ctx->ib_dev->ops.dealloc_ucontext)
			ctx->ib_dev->ops.dealloc_ucontext(ucontext);
		return ret;
	}
	rdma_restrack_add(&ucontext->res);
	fd_install(fd, afile);
	/*
	 * Publish only a complete ucontext: pairs with smp_load_acquire() in
	 * uverbs_file_ucontext(), so a command (write(), ioctl()) or mmap()
	 * that finds it also finds the driver's setup above.
	 */
	smp_store_release(&ctx->file->ucontext, ucontext);
	return 0;
}

/**
 * uverbs_cmd_get_context() - IB_USER_VERBS_CMD_GET_CONTEXT
 * @ctx: the command
 *
 * Makes the file's one ucontext (the driver's alloc_ucontext with the
 * command's driver data) and its async event file, whose descriptor the
 * response carries.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL when the file has a context already, -EMFILE,
 * -ENOMEM, -EFAULT or the driver's error.
 */
int uverbs_cmd_get_context(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_file *file = ctx->file;
	struct ib_uverbs_get_context cmd;
	struct uverbs_async_file *async;
	struct ib_ucontext *ucontext;
	struct file *afile;
	int fd, ret;

	ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	mutex_lock(&file->ucontext_lock);
	if (file->ucontext) {
		ret = -EINVAL;
		goto err_unlock;
	}
	ucontext = uverbs_ucontext_alloc(ctx);
	if (!ucontext) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_free;
	}
	async = uverbs_async_create(&afile);
	if (IS_ERR(async)) {
		ret = PTR_ERR(async);
		goto err_fd;
	}
	ret = uverbs_ucontext_start(ctx, ucontext, fd, afile);
	if (ret)
		goto err_async;
	/* the file keeps the queue for the fatal event of a removal */
	if (file->async)
		uverbs_async_put(file->async);
	file->async = async;
	uverbs_async_watch(async, ctx->ib_dev);
	mutex_unlock(&file->ucontext_lock);
	return 0;

err_async:
	uverbs_async_put(async);
	fput(afile);
err_fd:
	put_unused_fd(fd);
err_free:
	rdma_restrack_del(&ucontext->res);
	kfree(ucontext);
err_unlock:
	mutex_unlock(&file->ucontext_lock);
	return ret;
}

/* The fields QUERY_DEVICE and EX_QUERY_DEVICE share, from @attr. */
static void uverbs_device_attr_copy(struct ib_uverbs_query_device_resp *resp,
				    const struct ib_device *ib_dev,
				    const struct ib_device_attr *attr)
{
	*resp = (struct ib_uverbs_query_device_resp) {
		.fw_ver = attr->fw_ver,
		.node_guid = ib_dev->node_guid,
		.sys_image_guid = attr->sys_image_guid,
		.max_mr_size = attr->max_mr_size,
		.page_size_cap = attr->page_size_cap,
		.vendor_id = attr->vendor_id,
		.vendor_part_id = attr->vendor_part_id,
		.hw_ver = attr->hw_ver,
		.max_qp = attr->max_qp,
		.max_qp_wr = attr->max_qp_wr,
		/* the upper flags only fit the extended answer */
		.device_cap_flags = lower_32_bits(attr->device_cap_flags),
		.max_sge = min(attr->max_send_sge, attr->max_recv_sge),
		.max_sge_rd = attr->max_sge_rd,
		.max_cq = attr->max_cq,
		.max_cqe = attr->max_cqe,
		.max_mr = attr->max_mr,
		.max_pd = attr->max_pd,
		.max_qp_rd_atom = attr->max_qp_rd_atom,
		.max_ee_rd_atom = attr->max_ee_rd_atom,
		.max_res_rd_atom = attr->max_res_rd_atom,
		.max_qp_init_rd_atom = attr->max_qp_init_rd_atom,
		.max_ee_init_rd_atom = attr->max_ee_init_rd_atom,
		.atomic_cap = attr->atomic_cap,
		.max_ee = attr->max_ee,
		.max_rdd = attr->max_rdd,
		.max_mw = attr->max_mw,
		.max_raw_ipv6_qp = attr->max_raw_ipv6_qp,
		.max_raw_ethy_qp = attr->max_raw_ethy_qp,
		.max_mcast_grp = attr->max_mcast_grp,
		.max_mcast_qp_attach = attr->max_mcast_qp_attach,
		.max_total_mcast_qp_attach = attr->max_total_mcast_qp_attach,
		.max_ah = attr->max_ah,
		.max_srq = attr->max_srq,
		.max_srq_wr = attr->max_srq_wr,
		.max_srq_sge = attr->max_srq_sge,
		.max_pkeys = attr->max_pkeys,
		.local_ca_ack_delay = attr->local_ca_ack_delay,
		.phys_port_cnt = min_t(u32, ib_dev->phys_port_cnt, U8_MAX),
	};
}

/**
 * uverbs_cmd_query_device() - IB_USER_VERBS_CMD_QUERY_DEVICE
 * @ctx: the command
 *
 * Answers from the attributes the device reported at registration.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL without a ucontext, -EFAULT, -EOPNOTSUPP.
 */
int uverbs_cmd_query_device(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_query_device_resp resp;
	struct ib_uverbs_query_device cmd;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	/* what the device said at registration, as 6.1 answers */
	uverbs_device_attr_copy(&resp, ctx->ib_dev, &ctx->ib_dev->attrs);
	return uverbs_cmd_response(ctx, &resp, sizeof(resp));
}

/* The extended answer's fields beyond the legacy ones. */
static void uverbs_device_attr_copy_ex(struct ib_uverbs_ex_query_device_resp *resp,
				       const struct ib_device_attr *attr)
{
	const struct ib_odp_caps *odp = &attr->odp_caps;

	resp->odp_caps.general_caps = odp->general_caps;
	resp->odp_caps.per_transport_caps.rc_odp_caps =
		odp->per_transport_caps.rc_odp_caps;
	resp->odp_caps.per_transport_caps.uc_odp_caps =
		odp->per_transport_caps.uc_odp_caps;
	resp->odp_caps.per_transport_caps.ud_odp_caps =
		odp->per_transport_caps.ud_odp_caps;
	resp->xrc_odp_caps = odp->per_transport_caps.xrc_odp_caps;
	resp->timestamp_mask = attr->timestamp_mask;
	resp->hca_core_clock = attr->hca_core_clock;
	resp->device_cap_flags_ex = attr->device_cap_flags;
	resp->rss_caps.supported_qpts = attr->rss_caps.supported_qpts;
	resp->rss_caps.max_rwq_indirection_tables =
		attr->rss_caps.max_rwq_indirection_tables;
	resp->rss_caps.max_rwq_indirection_table_size =
		attr->rss_caps.max_rwq_indirection_table_size;
	resp->max_wq_type_rq = attr->max_wq_type_rq;
	resp->raw_packet_caps = attr->raw_packet_caps;
	resp->tm_caps.max_rndv_hdr_size = attr->tm_caps.max_rndv_hdr_size;
	resp->tm_caps.max_num_tags = attr->tm_caps.max_num_tags;
	resp->tm_caps.max_ops = attr->tm_caps.max_ops;
	resp->tm_caps.max_sge = attr->tm_caps.max_sge;
	resp->tm_caps.flags = attr->tm_caps.flags;
	resp->cq_moderation_caps.max_cq_moderation_count =
		attr->cq_caps.max_cq_moderation_count;
	resp->cq_moderation_caps.max_cq_moderation_period =
		attr->cq_caps.max_cq_moderation_period;
	resp->max_dm_size = attr->max_dm_size;
}

/**
 * uverbs_cmd_ex_query_device() - IB_USER_VERBS_EX_CMD_QUERY_DEVICE
 * @ctx: the command
 *
 * Asks the driver again (query_device with the driver data), and says in
 * response_length how much of the answer user space got.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL without a ucontext or with comp_mask or reserved
 * set, -EFAULT, or the driver's error.
 */
int uverbs_cmd_ex_query_device(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_query_device_resp resp = {};
	struct ib_uverbs_ex_query_device cmd;
	struct ib_device_attr attr = {};
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (!ret && (cmd.comp_mask || cmd.reserved))
		ret = -EINVAL;
	if (ret)
		return ret;
	ret = ctx->ib_dev->ops.query_device(ctx->ib_dev, &attr,
					    &ctx->driver_udata);
	if (ret)
		return ret;
	uverbs_device_attr_copy(&resp.base, ctx->ib_dev, &attr);
	uverbs_device_attr_copy_ex(&resp, &attr);
	resp.response_length = min_t(size_t, ctx->ucore.outlen, sizeof(resp));
	return uverbs_cmd_response(ctx, &resp, sizeof(resp));
}

/* PortInfo's capability mask, with bit 26 saying "GIDs from IP addresses". */
static u32 uverbs_port_cap_flags(const struct ib_port_attr *attr)
{
	u32 flags = attr->port_cap_flags & ~(u32)IB_UVERBS_PCF_IP_BASED_GIDS;

	return attr->ip_gids ? flags | IB_UVERBS_PCF_IP_BASED_GIDS : flags;
}

/**
 * uverbs_port_attr_copy() - A port's attributes as QUERY_PORT answers them
 * @resp: filled in
 * @ib_dev: the device
 * @port: the port
 * @attr: what ib_query_port() said
 *
 * Shared by the write() command and the ioctl method.
 *
 * Context: Any context.
 */
void uverbs_port_attr_copy(struct ib_uverbs_query_port_resp *resp,
			   struct ib_device *ib_dev, u32 port,
			   const struct ib_port_attr *attr)
{
	*resp = (struct ib_uverbs_query_port_resp) {
		.port_cap_flags = uverbs_port_cap_flags(attr),
		.max_msg_sz = attr->max_msg_sz,
		.bad_pkey_cntr = attr->bad_pkey_cntr,
		.qkey_viol_cntr = attr->qkey_viol_cntr,
		.gid_tbl_len = attr->gid_tbl_len,
		.pkey_tbl_len = attr->pkey_tbl_len,
		.lid = ib_lid_cpu16(attr->lid),
		.sm_lid = ib_lid_cpu16(attr->sm_lid),
		.state = attr->state,
		.max_mtu = attr->max_mtu,
		.active_mtu = attr->active_mtu,
		.lmc = attr->lmc,
		.max_vl_num = attr->max_vl_num,
		.sm_sl = attr->sm_sl,
		.subnet_timeout = attr->subnet_timeout,
		.init_type_reply = attr->init_type_reply,
		.active_width = attr->active_width,
		/* the field is a u8: faster speeds say NDR */
		.active_speed = min_t(u16, attr->active_speed, IB_SPEED_NDR),
		.phys_state = attr->phys_state,
		.link_layer = rdma_port_get_link_layer(ib_dev, port),
	};
	if (rdma_is_grh_required(ib_dev, port))
		resp->flags |= IB_UVERBS_QPF_GRH_REQUIRED;
}

/**
 * uverbs_cmd_query_port() - IB_USER_VERBS_CMD_QUERY_PORT
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL without a ucontext or for a port the device does not
 * have, -EFAULT, or the driver's error.
 */
int uverbs_cmd_query_port(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_query_port_resp resp;
	struct ib_uverbs_query_port cmd;
	struct ib_port_attr attr;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (!ret)
		ret = ib_query_port(ctx->ib_dev, cmd.port_num, &attr);
	if (ret)
		return ret;
	uverbs_port_attr_copy(&resp, ctx->ib_dev, cmd.port_num, &attr);
	return uverbs_cmd_response(ctx, &resp, sizeof(resp));
}
