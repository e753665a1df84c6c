// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: the open files of /dev/infiniband/rdma_cm: open, write() of
 * a command, poll() for events, and release, which destroys every id
 * the file still owns.
 */

#include <linux/slab.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <rdma/ib.h>

#include "ucma/ucma.h"

static int ucma_file_open(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!file)
		return -ENOMEM;
	file->filp = filp;
	filp->private_data = file;
	init_waitqueue_head(&file->wait);
	INIT_LIST_HEAD(&file->events);
	INIT_LIST_HEAD(&file->ctxs);
	mutex_init(&file->lock);
	/* no position: written commands are messages, not a stream of bytes */
	return stream_open(inode, filp);
}

/*
 * The file's oldest context, unpublished, or NULL. Oldest first: a
 * listener goes before the connections it made, and destroying it
 * takes the unreported ones with it.
 */
static struct ucma_ctx *ucma_file_take_first(struct ucma_file *file)
{
	struct ucma_ctx *ctx;

	mutex_lock(&file->lock);
	ctx = list_first_entry_or_null(&file->ctxs, struct ucma_ctx,
				       file_node);
	mutex_unlock(&file->lock);
	if (ctx)
		WARN_ON(xa_cmpxchg(&ucma_ctxs, ctx->id, ctx, XA_ZERO_ENTRY,
				   GFP_KERNEL) != ctx);
	return ctx;
}

/*
 * No command can run any more; only a listener's handler can still add
 * contexts, behind the listener on the list, and destroying the
 * listener stops it.
 */
static int ucma_file_release(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = filp->private_data;
	struct ucma_ctx *ctx;

	while ((ctx = ucma_file_take_first(file)))
		ucma_ctx_destroy(ctx);
	mutex_destroy(&file->lock);
	kfree(file);
	return 0;
}

static ssize_t ucma_file_write(struct file *filp, const char __user *buf,
			       size_t len, loff_t *pos)
{
	/* a descriptor handed to a more privileged process is refused */
	if (!ib_safe_file_access(filp)) {
		pr_err_once("process %d (%s) wrote to rdma_cm with other credentials than it opened it with\n",
			    task_tgid_vnr(current), current->comm);
		return -EACCES;
	}
	return ucma_cmd_dispatch(filp->private_data, buf, len);
}

static __poll_t ucma_file_poll(struct file *filp, poll_table *wait)
{
	struct ucma_file *file = filp->private_data;

	poll_wait(filp, &file->wait, wait);
	return list_empty_careful(&file->events) ? 0 : EPOLLIN | EPOLLRDNORM;
}

const struct file_operations ucma_fops = {
	.owner = THIS_MODULE,
	.open = ucma_file_open,
	.release = ucma_file_release,
	.write = ucma_file_write,
	.poll = ucma_file_poll,
	.llseek = no_llseek,
};
