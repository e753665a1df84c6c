// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ioctl methods: the device's (INVOKE_WRITE, GET_CONTEXT, port, context and
 * GID queries, handles), ASYNC_EVENT_ALLOC, PD_DESTROY.
 */
/*
 * The engine has checked every attribute against the method's row before
 * a handler here runs: mandatory ones are present, CONST_IN and FLAGS_IN
 * values are in range, PTR_OUT room is at least the spec's minimum.
 */

#include <linux/file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_ioctl_cmds.h>

#include "restrack/restrack.h"
#include "uverbs/uverbs_ioctl.h"

/* What 6.1's core tells every user context it supports. */
#define UVERBS_CORE_SUPPORT	IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS

static u64 uverbs_ioctl_u64(struct uverbs_ioctl_ctx *ctx, u16 attr_id)
{
	return uverbs_ioctl_val(ctx, attr_id)->data;
}

/* An optional output: written when sent, fine when not. */
static int uverbs_ioctl_copy_opt(struct uverbs_ioctl_ctx *ctx, u16 attr_id,
				 const void *from, size_t len)
{
	int ret = uverbs_ioctl_copy_to(ctx, attr_id, from, len, false);

	return ret == -ENOENT ? 0 : ret;
}

/**
 * uverbs_ioctl_invoke_write() - UVERBS_METHOD_INVOKE_WRITE
 * @ctx: the ioctl
 *
 * Runs a row of the write() command table with CORE_IN and CORE_OUT as
 * the core request and response and UHW_IN/UHW_OUT as the driver's data.
 * A request or response room shorter than the command's structs is
 * -ENOSPC before anything else about the file is looked at: libibverbs
 * probes for this method with a bare QUERY_DEVICE and reads -ENOSPC as
 * "present".
 *
 * Context: Process context, may sleep.
 * Return: 0 or the command's errno; -EINVAL/-EOPNOTSUPP for command
 * numbers as write() answers them.
 */
int uverbs_ioctl_invoke_write(struct uverbs_ioctl_ctx *ctx)
{
	const struct uverbs_cmd *cmd;
	int ret;

	cmd = uverbs_cmd_lookup(uverbs_ioctl_u64(ctx, UVERBS_ATTR_WRITE_CMD));
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	if (!uverbs_cmd_supported(cmd, ctx->cmd.ib_dev))
		return -EOPNOTSUPP;
	uverbs_ioctl_udata(ctx, &ctx->cmd.ucore, UVERBS_ATTR_CORE_IN,
			   UVERBS_ATTR_CORE_OUT);
	if (ctx->cmd.ucore.inlen < cmd->req_size ||
	    ctx->cmd.ucore.outlen < cmd->resp_size)
		return -ENOSPC;
	if (!cmd->no_ucontext && !ctx->cmd.ucontext)
		return -EINVAL;
	ret = cmd->handler(&ctx->cmd);
	if (!ret && uverbs_ioctl_val(ctx, UVERBS_ATTR_CORE_OUT))
		ret = uverbs_ioctl_mark_written(ctx, UVERBS_ATTR_CORE_OUT);
	return ret;
}

/* Up to @max handles of kind @kind into @list, in chunks taken under the table's lock. */
static int uverbs_ioctl_handles_copy(struct ib_uverbs_file *file,
				     const struct uverbs_api_object *kind,
				     u32 __user *list, u32 max, u32 *total)
{
	struct ib_uobject *uobj;
	unsigned long next = 0, id;
	u32 chunk[32], n;

	*total = 0;
	do {
		n = 0;
		xa_lock(&file->uobjs);
		xa_for_each_start(&file->uobjs, id, uobj, next) {
			next = id + 1;
			if (uobj->uapi_object != kind)
				continue;
			chunk[n++] = id;
			if (n == ARRAY_SIZE(chunk) || *total + n == max)
				break;
		}
		xa_unlock(&file->uobjs);
		if (copy_to_user(list + *total, chunk, n * sizeof(u32)))
			return -EFAULT;
		*total += n;
	} while (n == ARRAY_SIZE(chunk) && *total < max);
	return 0;
}

/**
 * uverbs_ioctl_info_handles() - UVERBS_METHOD_INFO_HANDLES
 * @ctx: the ioctl
 *
 * Lists the file's handles of one object kind in HANDLES_LIST (as many
 * as fit) and their number in TOTAL_HANDLES.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL without list room or with room not a multiple of 4,
 * -ENOENT for an object id we do not have (or TOTAL_HANDLES not sent, as
 * 6.1), -EFAULT.
 */
int uverbs_ioctl_info_handles(struct uverbs_ioctl_ctx *ctx)
{
	const struct uverbs_ia_val *list;
	const struct uverbs_ioctl_object *obj;
	u32 total = 0;
	u64 obj_id;
	int ret;

	list = uverbs_ioctl_val(ctx, UVERBS_ATTR_INFO_HANDLES_LIST);
	if (!list || list->len % sizeof(u32))
		return -EINVAL;
	obj_id = uverbs_ioctl_u64(ctx, UVERBS_ATTR_INFO_OBJECT_ID);
	obj = uverbs_ioctl_object_find(obj_id);
	if (!obj)
		return -ENOENT;
	if (obj->handles) {
		ret = uverbs_ioctl_handles_copy(ctx->cmd.file, obj->handles,
						u64_to_user_ptr(list->data),
						list->len / sizeof(u32), &total);
		if (ret)
			return ret;
	}
	ret = uverbs_ioctl_mark_written(ctx, UVERBS_ATTR_INFO_HANDLES_LIST);
	if (ret)
		return ret;
	return uverbs_ioctl_copy_to(ctx, UVERBS_ATTR_INFO_TOTAL_HANDLES,
				    &total, sizeof(total), false);
}

/**
 * uverbs_ioctl_query_port() - UVERBS_METHOD_QUERY_PORT
 * @ctx: the ioctl
 *
 * Answers struct ib_uverbs_query_port_resp_ex: the legacy answer plus
 * port_cap_flags2; room beyond it is zeroed.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EOPNOTSUPP without the driver's query_port; -EINVAL for a
 * port the device does not have; -EFAULT.
 */
int uverbs_ioctl_query_port(struct uverbs_ioctl_ctx *ctx)
{
	struct ib_device *ib_dev = ctx->cmd.ib_dev;
	struct ib_uverbs_query_port_resp_ex resp = {};
	struct ib_port_attr attr = {};
	u32 port = uverbs_ioctl_u64(ctx, UVERBS_ATTR_QUERY_PORT_PORT_NUM);
	int ret;

	if (!ib_dev->ops.query_port)
		return -EOPNOTSUPP;
	ret = ib_query_port(ib_dev, port, &attr);
	if (ret)
		return ret;
	uverbs_port_attr_copy(&resp.legacy_resp, ib_dev, port, &attr);
	resp.port_cap_flags2 = attr.port_cap_flags2;
	return uverbs_ioctl_copy_to(ctx, UVERBS_ATTR_QUERY_PORT_RESP, &resp,
				    sizeof(resp), true);
}

/* Make and publish the file's ucontext (no async event file: ASYNC_EVENT_ALLOC makes that). */
static int uverbs_ioctl_ucontext_make(struct uverbs_ioctl_ctx *ctx)
{
	struct ib_ucontext *ucontext = uverbs_ucontext_alloc(&ctx->cmd);
	int ret;

	lockdep_assert_held(&ctx->cmd.file->ucontext_lock);
	if (!ucontext)
		return -ENOMEM;
	ret = ctx->cmd.ib_dev->ops.alloc_ucontext(ucontext,
						  &ctx->cmd.driver_udata);
	if (ret) {
		rdma_restrack_del(&ucontext->res);
		kfree(ucontext);
		return ret;
	}
	rdma_restrack_add(&ucontext->res);
	/*
	 * Publish only a complete ucontext: pairs with smp_load_acquire() in
	 * uverbs_file_ucontext(), so a command (write(), ioctl()) or mmap()
	 * that finds it also finds the driver's setup above.
	 */
	smp_store_release(&ctx->cmd.file->ucontext, ucontext);
	return 0;
}

/**
 * uverbs_ioctl_get_context() - UVERBS_METHOD_GET_CONTEXT
 * @ctx: the ioctl
 *
 * The file's one ucontext, made with the driver data of UHW_IN/UHW_OUT;
 * NUM_COMP_VECTORS and CORE_SUPPORT answered when sent. Unlike the write()
 * command it makes no async event file: libibverbs asks for one with
 * ASYNC_EVENT_ALLOC.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL when the file has a ucontext already; -ENOMEM,
 * -EFAULT or the driver's error.
 */
int uverbs_ioctl_get_context(struct uverbs_ioctl_ctx *ctx)
{
	struct ib_uverbs_file *file = ctx->cmd.file;
	u32 ncomp = ctx->cmd.ib_dev->num_comp_vectors;
	u64 core = UVERBS_CORE_SUPPORT;
	int ret;

	ret = uverbs_ioctl_copy_opt(ctx, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
				    &ncomp, sizeof(ncomp));
	if (!ret)
		ret = uverbs_ioctl_copy_opt(ctx,
					    UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
					    &core, sizeof(core));
	if (ret)
		return ret;
	if (!ctx->cmd.ib_dev->ops.alloc_ucontext)
		return -EOPNOTSUPP;
	mutex_lock(&file->ucontext_lock);
	ret = file->ucontext ? -EINVAL : uverbs_ioctl_ucontext_make(ctx);
	mutex_unlock(&file->ucontext_lock);
	return ret;
}

/**
 * uverbs_ioctl_query_context() - UVERBS_METHOD_QUERY_CONTEXT
 * @ctx: the ioctl
 *
 * As 6.1, only for drivers with query_ucontext (rdma_rxe has none). The
 * driver's own attributes are not passed on: no driver of ours has them.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EOPNOTSUPP without the driver op, -EFAULT.
 */
int uverbs_ioctl_query_context(struct uverbs_ioctl_ctx *ctx)
{
	u32 ncomp = ctx->cmd.ib_dev->num_comp_vectors;
	u64 core = UVERBS_CORE_SUPPORT;
	int ret;

	if (!ctx->cmd.ib_dev->ops.query_ucontext)
		return -EOPNOTSUPP;
	ret = uverbs_ioctl_copy_opt(ctx,
				    UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
				    &ncomp, sizeof(ncomp));
	if (ret)
		return ret;
	return uverbs_ioctl_copy_opt(ctx, UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
				     &core, sizeof(core));
}

/* Entries of @esize bytes each: ours, cut or zero-padded to that size. */
static int uverbs_ioctl_gid_entries_copy(struct uverbs_ioctl_ctx *ctx,
					 const struct ib_uverbs_gid_entry *e,
					 size_t num, size_t esize)
{
	const struct uverbs_ia_val *v =
		uverbs_ioctl_val(ctx, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	void __user *to = u64_to_user_ptr(v->data);
	size_t i, part = min(esize, sizeof(*e));

	for (i = 0; i < num; i++, to += esize) {
		if (copy_to_user(to, &e[i], part))
			return -EFAULT;
		if (esize > part && clear_user(to + part, esize - part))
			return -EFAULT;
	}
	return uverbs_ioctl_mark_written(ctx,
					 UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
}

/* How many GID entries the device can have at most: bounds our allocation. */
static size_t uverbs_ioctl_gid_capacity(struct ib_device *ib_dev)
{
	size_t total = 0;
	u32 port;

	rdma_for_each_port(ib_dev, port)
		total += ib_dev->port_data[port].immutable.gid_tbl_len;
	return total;
}

/**
 * uverbs_ioctl_query_gid_table() - UVERBS_METHOD_QUERY_GID_TABLE
 * @ctx: the ioctl
 *
 * The valid entries of every port's GID table as struct
 * ib_uverbs_gid_entry, each ENTRY_SIZE bytes (ours cut short or
 * zero-padded), and their number. The kernel buffer is bounded by the
 * device's table sizes, whatever room user space offers.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for an entry size of 0, room not a multiple of it
 * or for no entry, or more valid entries than fit; -ENOMEM, -EFAULT.
 */
int uverbs_ioctl_query_gid_table(struct uverbs_ioctl_ctx *ctx)
{
	const struct uverbs_ia_val *room =
		uverbs_ioctl_val(ctx, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	u64 esize = uverbs_ioctl_u64(ctx, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE);
	struct ib_uverbs_gid_entry *entries;
	size_t max;
	ssize_t num;
	u64 n;
	int ret;

	if (!esize || room->len % esize || !(room->len / esize))
		return -EINVAL;
	max = min_t(size_t, room->len / esize,
		    uverbs_ioctl_gid_capacity(ctx->cmd.ib_dev));
	entries = kcalloc(max ?: 1, sizeof(*entries), GFP_KERNEL);
	if (!entries)
		return -ENOMEM;
	num = rdma_query_gid_table(ctx->cmd.ib_dev, entries, max);
	ret = num < 0 ? -EINVAL :
		uverbs_ioctl_gid_entries_copy(ctx, entries, num, esize);
	kfree(entries);
	if (ret)
		return ret;
	n = num;
	return uverbs_ioctl_copy_to(ctx,
				    UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
				    &n, sizeof(n), false);
}

/* The ifindex of a GID entry's net device, left alone when it has none. */
static int uverbs_ioctl_gid_ifindex(const struct ib_gid_attr *attr,
				    u32 *ifindex)
{
	struct net_device *ndev;
	int ret = 0;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (!IS_ERR(ndev))
		*ifindex = ndev->ifindex;
	else if (PTR_ERR(ndev) != -ENODEV)
		ret = PTR_ERR(ndev);
	rcu_read_unlock();
	return ret;
}

/**
 * uverbs_ioctl_query_gid_entry() - UVERBS_METHOD_QUERY_GID_ENTRY
 * @ctx: the ioctl
 *
 * One entry of the GID cache as struct ib_uverbs_gid_entry, with the
 * ifindex of its net device (0 when it has none).
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for a port the device does not have; the cache's
 * errno for an index out of range or an empty entry; -EFAULT.
 */
int uverbs_ioctl_query_gid_entry(struct uverbs_ioctl_ctx *ctx)
{
	u32 port = uverbs_ioctl_u64(ctx, UVERBS_ATTR_QUERY_GID_ENTRY_PORT);
	u32 index = uverbs_ioctl_u64(ctx, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX);
	struct ib_uverbs_gid_entry entry;
	const struct ib_gid_attr *attr;
	int ret;

	if (!rdma_is_port_valid(ctx->cmd.ib_dev, port))
		return -EINVAL;
	attr = rdma_get_gid_attr(ctx->cmd.ib_dev, port, index);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	entry = (struct ib_uverbs_gid_entry) {
		.gid_type = attr->gid_type, .gid_index = attr->index,
		.port_num = attr->port_num,
	};
	memcpy(entry.gid, attr->gid.raw, sizeof(entry.gid));
	ret = uverbs_ioctl_gid_ifindex(attr, &entry.netdev_ifindex);
	if (!ret)
		ret = uverbs_ioctl_copy_to(ctx,
					   UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
					   &entry, sizeof(entry), true);
	rdma_put_gid_attr(attr);
	return ret;
}

/**
 * uverbs_ioctl_async_event_alloc() - UVERBS_METHOD_ASYNC_EVENT_ALLOC
 * @ctx: the ioctl
 *
 * An async event file in the descriptor the engine reserved (installed
 * once the method succeeded). The file's first one becomes the queue that
 * hears the device's fatal event; today that is the only event queued.
 *
 * Context: Process context, may sleep.
 * Return: 0 or -ENOMEM and the anon file's errors.
 */
int uverbs_ioctl_async_event_alloc(struct uverbs_ioctl_ctx *ctx)
{
	struct uverbs_ia_val *v =
		uverbs_ioctl_val(ctx, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
	struct ib_uverbs_file *file = ctx->cmd.file;
	struct uverbs_async_file *async;
	struct file *filp;

	async = uverbs_async_create(&filp);
	if (IS_ERR(async))
		return PTR_ERR(async);
	mutex_lock(&file->ucontext_lock);
	if (!file->async) {
		file->async = async;
		async = NULL;
	}
	mutex_unlock(&file->ucontext_lock);
	if (async)
		uverbs_async_put(async);
	v->filp = filp;
	return 0;
}

/**
 * uverbs_ioctl_destroy_done() - The handler of the plain DESTROY methods
 * @ctx: the ioctl
 *
 * The engine destroyed the object before calling it; nothing is left to
 * answer.
 *
 * Context: Process context.
 * Return: 0.
 */
int uverbs_ioctl_destroy_done(struct uverbs_ioctl_ctx *ctx)
{
	return 0;
}
