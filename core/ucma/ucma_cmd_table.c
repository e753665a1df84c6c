// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: the write() command table and the one path every command
 * takes through it: header checks, room for the response, the command
 * copied in, its own checks, the id it names looked up and locked.
 */

#include <kunit/visibility.h>
#include <linux/nospec.h>
#include <linux/uaccess.h>

#include "ucma/ucma.h"

union ucma_cmd_buf {
	struct rdma_ucm_create_id	create_id;
	struct rdma_ucm_destroy_id	destroy_id;
	struct rdma_ucm_bind_ip		bind_ip;
	struct rdma_ucm_bind		bind;
	struct rdma_ucm_resolve_ip	resolve_ip;
	struct rdma_ucm_resolve_addr	resolve_addr;
	struct rdma_ucm_resolve_route	resolve_route;
	struct rdma_ucm_query		query;
	struct rdma_ucm_connect		connect;
	struct rdma_ucm_listen		listen;
	struct rdma_ucm_accept		accept;
	struct rdma_ucm_reject		reject;
	struct rdma_ucm_disconnect	disconnect;
	struct rdma_ucm_init_qp_attr	init_qp_attr;
	struct rdma_ucm_notify		notify;
	struct rdma_ucm_join_ip_mcast	join_ip;
	struct rdma_ucm_join_mcast	join;
	struct rdma_ucm_get_event	get_event;
	struct rdma_ucm_set_option	set_option;
	struct rdma_ucm_migrate_id	migrate;
};

#define CMD(name, type, fn, chk, inmin, outmin, how)			\
	[RDMA_USER_CM_CMD_##name] = {					\
		.run = fn, .check = chk, .size = sizeof(type),		\
		.in_min = inmin, .out_min = outmin, .find = how,	\
		.id_off = offsetof(type, id),				\
	}
/* Commands without an id field of their own. */
#define CMD_NOID(name, type, fn, outmin)				\
	[RDMA_USER_CM_CMD_##name] = {					\
		.run = fn, .size = sizeof(type), .out_min = outmin,	\
		.find = UCMA_FIND_NONE,					\
	}

/* Old 32-bit libraries leave out the padding and the ECE of an event. */
#define UCMA_EVENT_MIN (sizeof(struct rdma_ucm_event_resp) - sizeof(__u32) - \
			sizeof(struct rdma_ucm_ece))
#define UCMA_ROUTE_MIN offsetof(struct rdma_ucm_query_route_resp, ibdev_index)
#define UCMA_GROWN_MIN(type) offsetofend(type, reserved)

static const struct ucma_cmd_desc ucma_cmds[] = {
	CMD_NOID(CREATE_ID, struct rdma_ucm_create_id, ucma_cmd_create_id,
		 sizeof(struct rdma_ucm_create_id_resp)),
	CMD(DESTROY_ID, struct rdma_ucm_destroy_id, ucma_cmd_destroy_id, NULL,
	    0, sizeof(struct rdma_ucm_destroy_id_resp), UCMA_FIND_NONE),
	CMD(BIND_IP, struct rdma_ucm_bind_ip, ucma_cmd_bind_ip,
	    ucma_check_bind_ip, 0, 0, UCMA_FIND_ID),
	CMD(RESOLVE_IP, struct rdma_ucm_resolve_ip, ucma_cmd_resolve_ip,
	    ucma_check_resolve_ip, 0, 0, UCMA_FIND_ID),
	CMD(RESOLVE_ROUTE, struct rdma_ucm_resolve_route,
	    ucma_cmd_resolve_route, NULL, 0, 0, UCMA_FIND_BOUND),
	CMD(QUERY_ROUTE, struct rdma_ucm_query, ucma_cmd_query_route, NULL,
	    0, UCMA_ROUTE_MIN, UCMA_FIND_ID),
	CMD(CONNECT, struct rdma_ucm_connect, ucma_cmd_connect,
	    ucma_check_connect, UCMA_GROWN_MIN(struct rdma_ucm_connect), 0,
	    UCMA_FIND_BOUND),
	CMD(LISTEN, struct rdma_ucm_listen, ucma_cmd_listen, NULL, 0, 0,
	    UCMA_FIND_ID),
	CMD(ACCEPT, struct rdma_ucm_accept, ucma_cmd_accept, NULL,
	    UCMA_GROWN_MIN(struct rdma_ucm_accept), 0, UCMA_FIND_BOUND),
	CMD(REJECT, struct rdma_ucm_reject, ucma_cmd_reject, ucma_check_reject,
	    0, 0, UCMA_FIND_BOUND),
	CMD(DISCONNECT, struct rdma_ucm_disconnect, ucma_cmd_disconnect, NULL,
	    0, 0, UCMA_FIND_BOUND),
	CMD(INIT_QP_ATTR, struct rdma_ucm_init_qp_attr, ucma_cmd_init_qp_attr,
	    ucma_check_init_qp_attr, 0, sizeof(struct ib_uverbs_qp_attr),
	    UCMA_FIND_BOUND),
	CMD_NOID(GET_EVENT, struct rdma_ucm_get_event, ucma_cmd_get_event,
		 UCMA_EVENT_MIN),
	/* GET_OPTION: never implemented by 6.1 either (-ENOSYS) */
	CMD(SET_OPTION, struct rdma_ucm_set_option, ucma_cmd_set_option,
	    ucma_check_set_option, 0, 0, UCMA_FIND_ID),
	CMD(NOTIFY, struct rdma_ucm_notify, ucma_cmd_notify, NULL, 0, 0,
	    UCMA_FIND_ID),
	CMD(JOIN_IP_MCAST, struct rdma_ucm_join_ip_mcast,
	    ucma_cmd_join_ip_mcast, NULL, 0, 0, UCMA_FIND_NONE),
	CMD(LEAVE_MCAST, struct rdma_ucm_destroy_id, ucma_cmd_leave_mcast,
	    NULL, 0, sizeof(struct rdma_ucm_destroy_id_resp), UCMA_FIND_NONE),
	CMD(MIGRATE_ID, struct rdma_ucm_migrate_id, ucma_cmd_migrate_id, NULL,
	    0, 0, UCMA_FIND_NONE),
	CMD(QUERY, struct rdma_ucm_query, ucma_cmd_query, NULL, 0, 0,
	    UCMA_FIND_ID),
	CMD(BIND, struct rdma_ucm_bind, ucma_cmd_bind, ucma_check_bind, 0, 0,
	    UCMA_FIND_ID),
	CMD(RESOLVE_ADDR, struct rdma_ucm_resolve_addr, ucma_cmd_resolve_addr,
	    ucma_check_resolve_addr, 0, 0, UCMA_FIND_ID),
	CMD(JOIN_MCAST, struct rdma_ucm_join_mcast, ucma_cmd_join_mcast, NULL,
	    0, 0, UCMA_FIND_NONE),
};

/**
 * ucma_cmd_lookup() - The table row of an rdma_ucm command number
 * @cmd: the command number of a struct rdma_ucm_cmd_hdr
 *
 * A row whose @run is NULL is a number the ABI defines but no kernel
 * implements (GET_OPTION): the dispatcher answers it with -ENOSYS.
 *
 * Context: any context.
 * Return: the row, or ERR_PTR(-EINVAL) for a number past the table.
 */
const struct ucma_cmd_desc *ucma_cmd_lookup(u32 cmd)
{
	if (cmd >= ARRAY_SIZE(ucma_cmds))
		return ERR_PTR(-EINVAL);
	return &ucma_cmds[array_index_nospec(cmd, ARRAY_SIZE(ucma_cmds))];
}
EXPORT_SYMBOL_IF_KUNIT(ucma_cmd_lookup);

/**
 * ucma_cmd_copy_len() - How much of a command to copy in, if any
 * @desc: the command's row, from ucma_cmd_lookup()
 * @in_len: the header's @in: bytes offered after the header
 * @out_len: the header's @out: room for the response
 *
 * Pure: reads nothing but its arguments. The response room is checked
 * first; a command that grew (@in_min set) must offer at least @in_min
 * and gets no more than it offered, zeroes for the rest; any other
 * command is read whole whatever @in_len says.
 *
 * Context: any context.
 * Return: the bytes to copy from user space, -ENOSPC when @out_len is
 * below the response's minimum, -EINVAL when @in_len is below @in_min.
 */
int ucma_cmd_copy_len(const struct ucma_cmd_desc *desc, u32 in_len,
		      u32 out_len)
{
	if (out_len < desc->out_min)
		return -ENOSPC;
	if (!desc->in_min)
		return desc->size;
	if (in_len < desc->in_min)
		return -EINVAL;
	return min_t(u32, in_len, desc->size);
}
EXPORT_SYMBOL_IF_KUNIT(ucma_cmd_copy_len);

/* The named id, found, held and locked, then the command on it. */
static int ucma_cmd_on_ctx(const struct ucma_cmd_desc *desc,
			   struct ucma_req *req)
{
	u32 id = *(u32 *)((u8 *)req->cmd + desc->id_off);
	struct ucma_ctx *ctx;
	int ret;

	ctx = ucma_ctx_get(req->file, id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->lock);
	if (desc->find == UCMA_FIND_BOUND && !ctx->cm_id->device) {
		ret = -EINVAL;
	} else {
		req->ctx = ctx;
		ret = desc->run(req);
	}
	mutex_unlock(&ctx->lock);
	ucma_ctx_put(ctx);
	return ret;
}

static int ucma_cmd_run(struct ucma_file *file,
			const struct ucma_cmd_desc *desc,
			const char __user *ubuf, u32 in_len, u32 out_len)
{
	union ucma_cmd_buf cmd = {};
	struct ucma_req req = {
		.file = file, .cmd = &cmd, .in_len = in_len, .out_len = out_len,
	};
	int ret, n;

	n = ucma_cmd_copy_len(desc, in_len, out_len);
	if (n < 0)
		return n;
	if (copy_from_user(&cmd, ubuf, n))
		return -EFAULT;
	if (desc->check) {
		ret = desc->check(&req);
		if (ret)
			return ret;
	}
	if (desc->find == UCMA_FIND_NONE)
		return desc->run(&req);
	return ucma_cmd_on_ctx(desc, &req);
}

/**
 * ucma_cmd_dispatch() - Run the command written to an rdma_cm file
 * @file: the file written to
 * @buf: what was written: a struct rdma_ucm_cmd_hdr, then the command
 * @len: bytes written
 *
 * Context: process context, may sleep (GET_EVENT waits for an event unless
 * the file is non-blocking).
 * Return: @len when the command succeeded, else its negative errno:
 * -EINVAL for a short write, an unknown command number or a header that
 * claims more than was written, -ENOSYS for GET_OPTION.
 */
ssize_t ucma_cmd_dispatch(struct ucma_file *file, const char __user *buf,
			  size_t len)
{
	struct rdma_ucm_cmd_hdr hdr;
	const struct ucma_cmd_desc *desc;
	int ret;

	if (len < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	desc = ucma_cmd_lookup(hdr.cmd);
	if (IS_ERR(desc))
		return PTR_ERR(desc);
	if (len - sizeof(hdr) < hdr.in)
		return -EINVAL;
	if (!desc->run)
		return -ENOSYS;
	ret = ucma_cmd_run(file, desc, buf + sizeof(hdr), hdr.in, hdr.out);
	return ret ? ret : len;
}
