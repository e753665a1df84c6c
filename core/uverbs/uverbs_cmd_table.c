// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write() command table: per command number, its handler, the sizes it
 * needs and the driver op it depends on.
 */
/*
 * Every command number the ABI defines has a row; the ones without a
 * handler yet answer -EOPNOTSUPP once their header passed the generic
 * checks (as 6.1 does for commands a device does not support). Numbers
 * past the table, or bits set between the flag and the command number,
 * are refused before that.
 */

#include <kunit/visibility.h>
#include <linux/stddef.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

#define UVERBS_NEEDS(op)	offsetof(struct ib_device_ops, op)

/* A command with a response (and the response's address first in it). */
#define UVERBS_CMD_IO(fn, req, resp, op)				\
	{ .handler = fn, .req_size = sizeof(req),			\
	  .resp_size = sizeof(resp), .has_resp = 1, .needs = op }
/* The same, with driver data after the core structs. */
#define UVERBS_CMD_UDATA_IO(fn, req, resp, op)				\
	{ .handler = fn, .req_size = sizeof(req),			\
	  .resp_size = sizeof(resp), .has_resp = 1, .has_udata = 1,	\
	  .needs = op }
/* A command without a response. */
#define UVERBS_CMD_I(fn, req, op)					\
	{ .handler = fn, .req_size = sizeof(req), .needs = op }
/* An extended one: the sizes are those of the members every caller sends. */
#define UVERBS_CMD_EX(fn, req, req_last, resp, resp_last, op)		\
	{ .handler = fn, .req_size = offsetofend(req, req_last),	\
	  .resp_size = offsetofend(resp, resp_last), .has_resp = 1,	\
	  .has_udata = 1, .is_ex = 1, .needs = op }

static const struct uverbs_cmd uverbs_cmds[] = {
	[IB_USER_VERBS_CMD_GET_CONTEXT] = {
		.handler = uverbs_cmd_get_context,
		.req_size = sizeof(struct ib_uverbs_get_context),
		.resp_size = sizeof(struct ib_uverbs_get_context_resp),
		.has_resp = 1, .has_udata = 1, .no_ucontext = 1,
	},
	[IB_USER_VERBS_CMD_QUERY_DEVICE] =
		UVERBS_CMD_IO(uverbs_cmd_query_device,
			      struct ib_uverbs_query_device,
			      struct ib_uverbs_query_device_resp, 0),
	[IB_USER_VERBS_CMD_QUERY_PORT] =
		UVERBS_CMD_IO(uverbs_cmd_query_port,
			      struct ib_uverbs_query_port,
			      struct ib_uverbs_query_port_resp,
			      UVERBS_NEEDS(query_port)),
	[IB_USER_VERBS_CMD_ALLOC_PD] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_alloc_pd,
				    struct ib_uverbs_alloc_pd,
				    struct ib_uverbs_alloc_pd_resp,
				    UVERBS_NEEDS(alloc_pd)),
	[IB_USER_VERBS_CMD_DEALLOC_PD] =
		UVERBS_CMD_I(uverbs_cmd_dealloc_pd, struct ib_uverbs_dealloc_pd,
			     UVERBS_NEEDS(dealloc_pd)),
	[IB_USER_VERBS_CMD_REG_MR] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_reg_mr, struct ib_uverbs_reg_mr,
				    struct ib_uverbs_reg_mr_resp,
				    UVERBS_NEEDS(reg_user_mr)),
	[IB_USER_VERBS_CMD_REREG_MR] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_rereg_mr,
				    struct ib_uverbs_rereg_mr,
				    struct ib_uverbs_rereg_mr_resp,
				    UVERBS_NEEDS(rereg_user_mr)),
	[IB_USER_VERBS_CMD_DEREG_MR] =
		UVERBS_CMD_I(uverbs_cmd_dereg_mr, struct ib_uverbs_dereg_mr,
			     UVERBS_NEEDS(dereg_mr)),
	[IB_USER_VERBS_CMD_ALLOC_MW] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_alloc_mw, struct ib_uverbs_alloc_mw,
				    struct ib_uverbs_alloc_mw_resp,
				    UVERBS_NEEDS(alloc_mw)),
	[IB_USER_VERBS_CMD_DEALLOC_MW] =
		UVERBS_CMD_I(uverbs_cmd_dealloc_mw, struct ib_uverbs_dealloc_mw,
			     UVERBS_NEEDS(dealloc_mw)),
	[IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL] =
		UVERBS_CMD_IO(uverbs_cmd_create_comp_channel,
			      struct ib_uverbs_create_comp_channel,
			      struct ib_uverbs_create_comp_channel_resp, 0),
	[IB_USER_VERBS_CMD_CREATE_CQ] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_create_cq,
				    struct ib_uverbs_create_cq,
				    struct ib_uverbs_create_cq_resp,
				    UVERBS_NEEDS(create_cq)),
	[IB_USER_VERBS_CMD_RESIZE_CQ] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_resize_cq,
				    struct ib_uverbs_resize_cq,
				    struct ib_uverbs_resize_cq_resp,
				    UVERBS_NEEDS(resize_cq)),
	[IB_USER_VERBS_CMD_POLL_CQ] =
		UVERBS_CMD_IO(uverbs_cmd_poll_cq, struct ib_uverbs_poll_cq,
			      struct ib_uverbs_poll_cq_resp,
			      UVERBS_NEEDS(poll_cq)),
	[IB_USER_VERBS_CMD_REQ_NOTIFY_CQ] =
		UVERBS_CMD_I(uverbs_cmd_req_notify_cq,
			     struct ib_uverbs_req_notify_cq,
			     UVERBS_NEEDS(req_notify_cq)),
	[IB_USER_VERBS_CMD_DESTROY_CQ] =
		UVERBS_CMD_IO(uverbs_cmd_destroy_cq, struct ib_uverbs_destroy_cq,
			      struct ib_uverbs_destroy_cq_resp,
			      UVERBS_NEEDS(destroy_cq)),
	/* QPs (uverbs_cmd_qp.c) */
	[IB_USER_VERBS_CMD_CREATE_QP] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_create_qp,
				    struct ib_uverbs_create_qp,
				    struct ib_uverbs_create_qp_resp,
				    UVERBS_NEEDS(create_qp)),
	[IB_USER_VERBS_CMD_QUERY_QP] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_query_qp,
				    struct ib_uverbs_query_qp,
				    struct ib_uverbs_query_qp_resp,
				    UVERBS_NEEDS(query_qp)),
	[IB_USER_VERBS_CMD_MODIFY_QP] = {
		.handler = uverbs_cmd_modify_qp,
		.req_size = sizeof(struct ib_uverbs_modify_qp),
		.has_udata = 1, .needs = UVERBS_NEEDS(modify_qp),
	},
	[IB_USER_VERBS_CMD_DESTROY_QP] =
		UVERBS_CMD_IO(uverbs_cmd_destroy_qp, struct ib_uverbs_destroy_qp,
			      struct ib_uverbs_destroy_qp_resp,
			      UVERBS_NEEDS(destroy_qp)),
	[IB_USER_VERBS_CMD_POST_SEND] =
		UVERBS_CMD_IO(uverbs_cmd_post_send, struct ib_uverbs_post_send,
			      struct ib_uverbs_post_send_resp,
			      UVERBS_NEEDS(post_send)),
	/* the rest of the legacy numbers, handlers to come */
	/* AHs (uverbs_cmd_ah.c) */
	[IB_USER_VERBS_CMD_CREATE_AH] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_create_ah,
				    struct ib_uverbs_create_ah,
				    struct ib_uverbs_create_ah_resp,
				    UVERBS_NEEDS(create_user_ah)),
	[IB_USER_VERBS_CMD_DESTROY_AH] =
		UVERBS_CMD_I(uverbs_cmd_destroy_ah, struct ib_uverbs_destroy_ah,
			     UVERBS_NEEDS(destroy_ah)),
	/* multicast groups (uverbs_cmd_mcast.c) */
	[IB_USER_VERBS_CMD_ATTACH_MCAST] = {
		.handler = uverbs_cmd_attach_mcast,
		.req_size = sizeof(struct ib_uverbs_attach_mcast),
		.has_udata = 1, .needs = UVERBS_NEEDS(attach_mcast),
	},
	[IB_USER_VERBS_CMD_DETACH_MCAST] = {
		.handler = uverbs_cmd_detach_mcast,
		.req_size = sizeof(struct ib_uverbs_detach_mcast),
		.has_udata = 1, .needs = UVERBS_NEEDS(detach_mcast),
	},
	[IB_USER_VERBS_CMD_OPEN_QP] = {},
	/* SRQs (uverbs_cmd_srq.c) */
	[IB_USER_VERBS_CMD_CREATE_SRQ] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_create_srq,
				    struct ib_uverbs_create_srq,
				    struct ib_uverbs_create_srq_resp,
				    UVERBS_NEEDS(create_srq)),
	[IB_USER_VERBS_CMD_CREATE_XSRQ] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_create_xsrq,
				    struct ib_uverbs_create_xsrq,
				    struct ib_uverbs_create_srq_resp,
				    UVERBS_NEEDS(create_srq)),
	[IB_USER_VERBS_CMD_MODIFY_SRQ] = {
		.handler = uverbs_cmd_modify_srq,
		.req_size = sizeof(struct ib_uverbs_modify_srq),
		.has_udata = 1, .needs = UVERBS_NEEDS(modify_srq),
	},
	[IB_USER_VERBS_CMD_QUERY_SRQ] =
		UVERBS_CMD_UDATA_IO(uverbs_cmd_query_srq,
				    struct ib_uverbs_query_srq,
				    struct ib_uverbs_query_srq_resp,
				    UVERBS_NEEDS(query_srq)),
	[IB_USER_VERBS_CMD_DESTROY_SRQ] =
		UVERBS_CMD_IO(uverbs_cmd_destroy_srq,
			      struct ib_uverbs_destroy_srq,
			      struct ib_uverbs_destroy_srq_resp,
			      UVERBS_NEEDS(destroy_srq)),
};

static const struct uverbs_cmd uverbs_ex_cmds[] = {
	[IB_USER_VERBS_EX_CMD_QUERY_DEVICE] =
		UVERBS_CMD_EX(uverbs_cmd_ex_query_device,
			      struct ib_uverbs_ex_query_device, reserved,
			      struct ib_uverbs_ex_query_device_resp,
			      response_length, UVERBS_NEEDS(query_device)),
	[IB_USER_VERBS_EX_CMD_CREATE_CQ] =
		UVERBS_CMD_EX(uverbs_cmd_ex_create_cq,
			      struct ib_uverbs_ex_create_cq, reserved,
			      struct ib_uverbs_ex_create_cq_resp,
			      response_length, UVERBS_NEEDS(create_cq)),
	[IB_USER_VERBS_EX_CMD_CREATE_QP] =
		UVERBS_CMD_EX(uverbs_cmd_ex_create_qp,
			      struct ib_uverbs_ex_create_qp, comp_mask,
			      struct ib_uverbs_ex_create_qp_resp,
			      response_length, UVERBS_NEEDS(create_qp)),
	[IB_USER_VERBS_EX_CMD_MODIFY_QP] =
		UVERBS_CMD_EX(uverbs_cmd_ex_modify_qp,
			      struct ib_uverbs_ex_modify_qp, base,
			      struct ib_uverbs_ex_modify_qp_resp,
			      response_length, UVERBS_NEEDS(modify_qp)),
	/* the rest of the extended numbers, handlers to come */
	[IB_USER_VERBS_EX_CMD_MODIFY_CQ] = { .is_ex = 1 },
};

/* Extended rows without a handler still parse as extended commands. */
static const struct uverbs_cmd uverbs_ex_notsupp = { .is_ex = 1 };

/**
 * uverbs_cmd_lookup() - The table row of a command word
 * @command: ib_uverbs_cmd_hdr.command as user space wrote it
 *
 * Context: Any context.
 * Return: the row (its handler NULL when the command is not implemented),
 * ERR_PTR(-EINVAL) when bits other than the command number and the
 * extended flag are set, ERR_PTR(-EOPNOTSUPP) for a number past the table.
 */
const struct uverbs_cmd *uverbs_cmd_lookup(u32 command)
{
	u32 num = command & IB_USER_VERBS_CMD_COMMAND_MASK;

	if (command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			IB_USER_VERBS_CMD_COMMAND_MASK))
		return ERR_PTR(-EINVAL);
	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		if (num >= ARRAY_SIZE(uverbs_ex_cmds))
			return ERR_PTR(-EOPNOTSUPP);
		return uverbs_ex_cmds[num].handler ? &uverbs_ex_cmds[num] :
						     &uverbs_ex_notsupp;
	}
	if (num >= ARRAY_SIZE(uverbs_cmds))
		return ERR_PTR(-EOPNOTSUPP);
	return &uverbs_cmds[num];
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_cmd_lookup);

/**
 * uverbs_cmd_supported() - Whether a device can run a command
 * @cmd: the command's row
 * @ib_dev: the device
 *
 * Context: Any context.
 * Return: false when the command has no handler or the driver lacks the
 * op it needs.
 */
bool uverbs_cmd_supported(const struct uverbs_cmd *cmd,
			  const struct ib_device *ib_dev)
{
	const void *const *op;

	if (!cmd->handler)
		return false;
	if (!cmd->needs)
		return true;
	op = (const void *const *)((const char *)&ib_dev->ops + cmd->needs);
	return *op;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_cmd_supported);
