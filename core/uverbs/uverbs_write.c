// SPDX-License-Identifier: GPL-2.0-only
/*
 * write() on a uverbs file: the command header checks, the split into core and
 * driver data, the dispatch.
 */
/*
 * A legacy command is struct ib_uverbs_cmd_hdr, then the command's struct,
 * then the driver's data; in_words and out_words count 4-byte words, the
 * header included in in_words. The response address is the command's first
 * u64. An extended command (IB_USER_VERBS_CMD_FLAG_EXTENDED) adds struct
 * ib_uverbs_ex_cmd_hdr with the response address; its words are 8 bytes,
 * in_words/out_words count the core part, provider_* the driver's, and
 * the headers are not counted. The errnos are 6.1's, which libibverbs
 * knows: -EINVAL for a malformed header, -ENOSPC for a core part shorter
 * than the command needs, -EOPNOTSUPP for a command we do not have.
 */

#include <kunit/visibility.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <rdma/ib.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

/**
 * uverbs_cmd_hdr_check() - Check a command's headers against its table row
 * @hdr: the header, as user space wrote it
 * @ex: the extended header (only read for an extended command)
 * @count: the length of the whole write()
 * @cmd: the table row of hdr->command
 *
 * Context: Any context.
 * Return: 0, -EINVAL (lengths that disagree with @count, reserved bits or
 * fields set, a response address without room or room without an
 * address), -ENOSPC (request or response room shorter than the command's
 * structs) or -EFAULT (response room not in user memory).
 */
int uverbs_cmd_hdr_check(const struct ib_uverbs_cmd_hdr *hdr,
			 const struct ib_uverbs_ex_cmd_hdr *ex, size_t count,
			 const struct uverbs_cmd *cmd)
{
	size_t resp_words;

	if (!cmd->is_ex) {
		if ((size_t)hdr->in_words * 4 != count)
			return -EINVAL;
		if (count < cmd->req_size + sizeof(*hdr))
			return -ENOSPC;
		if ((size_t)hdr->out_words * 4 < cmd->resp_size)
			return -ENOSPC;
		return 0;
	}

	if (count < sizeof(*hdr) + sizeof(*ex))
		return -EINVAL;
	count -= sizeof(*hdr) + sizeof(*ex);
	if (((size_t)hdr->in_words + ex->provider_in_words) * 8 != count)
		return -EINVAL;
	if ((size_t)hdr->in_words * 8 < cmd->req_size)
		return -ENOSPC;
	if (ex->cmd_hdr_reserved)
		return -EINVAL;
	resp_words = (size_t)hdr->out_words + ex->provider_out_words;
	if (!ex->response)
		return resp_words ? -EINVAL : 0;
	if (!resp_words)
		return -EINVAL;
	if ((size_t)hdr->out_words * 8 < cmd->resp_size)
		return -ENOSPC;
	if (!access_ok(u64_to_user_ptr(ex->response), resp_words * 8))
		return -EFAULT;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_cmd_hdr_check);

static void uverbs_udata_set(struct ib_udata *udata, const void __user *in,
			     void __user *out, size_t inlen, size_t outlen)
{
	udata->inbuf = inlen ? in : NULL;
	udata->outbuf = outlen ? out : NULL;
	udata->inlen = inlen;
	udata->outlen = outlen;
}

/*
 * Split a legacy command into core and driver parts. @buf points past the
 * header. Reads the response address from the request when it has one.
 */
static int uverbs_ctx_legacy(struct uverbs_cmd_ctx *ctx,
			     const struct ib_uverbs_cmd_hdr *hdr,
			     const char __user *buf,
			     const struct uverbs_cmd *cmd)
{
	size_t in_len = (size_t)hdr->in_words * 4 - sizeof(*hdr);
	size_t out_len = (size_t)hdr->out_words * 4;
	size_t drv_in = 0, drv_out = 0;
	u64 response = 0;

	if (cmd->has_resp && get_user(response, (const u64 __user *)buf))
		return -EFAULT;
	if (!cmd->has_resp)
		out_len = 0;
	if (cmd->has_udata) {
		drv_in = in_len - cmd->req_size;
		in_len = cmd->req_size;
		if (cmd->has_resp) {
			drv_out = out_len - cmd->resp_size;
			out_len = cmd->resp_size;
		}
	}
	uverbs_udata_set(&ctx->ucore, buf, u64_to_user_ptr(response), in_len,
			 out_len);
	uverbs_udata_set(&ctx->driver_udata, buf + in_len,
			 u64_to_user_ptr(response) + out_len, drv_in, drv_out);
	return 0;
}

/* The same for an extended command; @buf points past both headers. */
static void uverbs_ctx_ex(struct uverbs_cmd_ctx *ctx,
			  const struct ib_uverbs_cmd_hdr *hdr,
			  const struct ib_uverbs_ex_cmd_hdr *ex,
			  const char __user *buf)
{
	void __user *resp = u64_to_user_ptr(ex->response);
	size_t in_len = (size_t)hdr->in_words * 8;
	size_t out_len = (size_t)hdr->out_words * 8;

	uverbs_udata_set(&ctx->ucore, buf, resp, in_len, out_len);
	uverbs_udata_set(&ctx->driver_udata, buf + in_len, resp + out_len,
			 (size_t)ex->provider_in_words * 8,
			 (size_t)ex->provider_out_words * 8);
}

/* Read and check both headers; the command's row in *@cmd. */
static int uverbs_write_headers(const char __user *buf, size_t count,
				struct ib_uverbs_cmd_hdr *hdr,
				struct ib_uverbs_ex_cmd_hdr *ex,
				const struct uverbs_cmd **cmd)
{
	if (count < sizeof(*hdr))
		return -EINVAL;
	if (copy_from_user(hdr, buf, sizeof(*hdr)))
		return -EFAULT;
	*cmd = uverbs_cmd_lookup(hdr->command);
	if (IS_ERR(*cmd))
		return PTR_ERR(*cmd);
	if ((*cmd)->is_ex && count >= sizeof(*hdr) + sizeof(*ex) &&
	    copy_from_user(ex, buf + sizeof(*hdr), sizeof(*ex)))
		return -EFAULT;
	return uverbs_cmd_hdr_check(hdr, ex, count, *cmd);
}

/* The handler, given the file's ucontext unless it runs without one. */
static int uverbs_write_call(struct uverbs_cmd_ctx *ctx,
			     const struct uverbs_cmd *cmd)
{
	if (!cmd->no_ucontext) {
		ctx->ucontext = uverbs_file_ucontext(ctx->file);
		if (!ctx->ucontext)
			return -EINVAL;
	}
	return cmd->handler(ctx);
}

/*
 * Run @cmd on the device, inside the SRCU read side: removal waits for
 * us, and a device being removed answers -EIO.
 */
static int uverbs_write_run(struct uverbs_cmd_ctx *ctx,
			    const struct uverbs_cmd *cmd)
{
	struct uverbs_dev *udev = ctx->file->udev;
	int key, ret;

	key = srcu_read_lock(&udev->srcu);
	ctx->ib_dev = uverbs_dev_get_ibdev(udev);
	if (!ctx->ib_dev)
		ret = -EIO;
	else if (!uverbs_cmd_supported(cmd, ctx->ib_dev))
		ret = -EOPNOTSUPP;
	else
		ret = uverbs_write_call(ctx, cmd);
	srcu_read_unlock(&udev->srcu, key);
	return ret;
}

/**
 * uverbs_write() - write() of a uverbs device file: one command
 * @filp: the file
 * @buf: the command, headers first
 * @count: its length, which must be what the header says
 * @pos: unused (the file is a stream)
 *
 * Context: Process context, may sleep.
 * Return: @count when the command succeeded, else a negative errno.
 */
ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos)
{
	struct uverbs_cmd_ctx ctx = { .file = filp->private_data };
	struct ib_uverbs_ex_cmd_hdr ex = {};
	struct ib_uverbs_cmd_hdr hdr;
	const struct uverbs_cmd *cmd;
	int ret;

	if (!ib_safe_file_access(filp)) {
		pr_err_once("process %d (%s) wrote to a uverbs file opened with other credentials\n",
			    task_tgid_vnr(current), current->comm);
		return -EACCES;
	}
	ret = uverbs_write_headers(buf, count, &hdr, &ex, &cmd);
	if (ret)
		return ret;
	if (cmd->is_ex) {
		uverbs_ctx_ex(&ctx, &hdr, &ex, buf + sizeof(hdr) + sizeof(ex));
	} else {
		ret = uverbs_ctx_legacy(&ctx, &hdr, buf + sizeof(hdr), cmd);
		if (ret)
			return ret;
	}
	ret = uverbs_write_run(&ctx, cmd);
	return ret ? ret : count;
}

/* ---- Helpers of the command handlers ------------------------------------- */

/**
 * uverbs_cmd_request() - Read a command's core request
 * @ctx: the command
 * @req: where to put it
 * @len: sizeof the command's struct
 *
 * A shorter request (older user space) is zero-filled; a longer one
 * (newer) is accepted only when the bytes we do not know are zero.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EFAULT, or -EOPNOTSUPP for non-zero unknown bytes.
 */
int uverbs_cmd_request(struct uverbs_cmd_ctx *ctx, void *req, size_t len)
{
	size_t have = ctx->ucore.inlen;

	if (copy_from_user(req, ctx->ucore.inbuf, min(have, len)))
		return -EFAULT;
	if (have < len)
		memset(req + have, 0, len - have);
	else if (have > len &&
		 !ib_is_buffer_cleared(ctx->ucore.inbuf + len, have - len))
		return -EOPNOTSUPP;
	return 0;
}

/**
 * uverbs_cmd_response() - Write a command's core response
 * @ctx: the command
 * @resp: the response
 * @len: its size
 *
 * As much as user space has room for is written (the headers' checks
 * made sure that is at least the part every user space knows); room
 * beyond @len is zeroed.
 *
 * Context: Process context, may sleep.
 * Return: 0 or -EFAULT.
 */
int uverbs_cmd_response(struct uverbs_cmd_ctx *ctx, const void *resp,
			size_t len)
{
	size_t room = ctx->ucore.outlen;

	if (copy_to_user(ctx->ucore.outbuf, resp, min(room, len)))
		return -EFAULT;
	if (room > len && clear_user(ctx->ucore.outbuf + len, room - len))
		return -EFAULT;
	return 0;
}
