// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion channels: the anonymous files CREATE_COMP_CHANNEL makes, queues of
 * ib_uverbs_comp_event_desc for read() and poll().
 */
/*
 * A channel counts its holders: its file, and every CQ that reports to it
 * (so closing the descriptor while CQs use it is safe: the queue lives on,
 * closed, until the last CQ goes). It also holds the uverbs file that made
 * it, which is how CREATE_CQ refuses a channel of another file. An event
 * sits on the channel's list and on its CQ's list of unread events; read()
 * counts it for the CQ (DESTROY_CQ reports the count, which libibverbs
 * waits for in ibv_destroy_cq), and destroying the CQ takes back what the
 * process did not read. The uverbs file lists its channels; when its
 * ucontext is torn down (the file closed or the device removed) it closes
 * them: read() drains what is queued, then answers -EIO, as 6.1's does.
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>

#include "uverbs/uverbs.h"
#include "uverbs/uverbs_evq.h"

/*
 * @evq: the channel's events; @owner: the uverbs file that made it;
 * @link: on the owner's comp_channels, under its ucontext_lock, so the
 * file's teardown can close the channel.
 */
struct uverbs_comp_channel {
	struct kref ref;
	struct uverbs_evq evq;
	struct ib_uverbs_file *owner;
	struct list_head link;
};

static void uverbs_comp_free(struct kref *ref)
{
	struct uverbs_comp_channel *ch =
		container_of(ref, struct uverbs_comp_channel, ref);

	uverbs_evq_close(&ch->evq, true);
	uverbs_file_put(ch->owner);
	kfree(ch);
}

/**
 * uverbs_comp_put() - Drop a reference on a completion channel
 * @ch: the channel
 *
 * Context: Process context.
 */
void uverbs_comp_put(struct uverbs_comp_channel *ch)
{
	kref_put(&ch->ref, uverbs_comp_free);
}

/**
 * uverbs_comp_queue() - Queue a completion event of a CQ
 * @ch: the channel the CQ reports to
 * @cq_handle: the CQ's user handle, what read() gives back
 * @obj_list: the CQ's list of unread events
 * @counter: the CQ's count of events read
 *
 * A closed channel takes no events; one that finds no memory is dropped
 * with a message.
 *
 * Context: Any context.
 */
void uverbs_comp_queue(struct uverbs_comp_channel *ch, u64 cq_handle,
		       struct list_head *obj_list, u32 *counter)
{
	union uverbs_evq_desc desc = { .comp.cq_handle = cq_handle };

	uverbs_evq_add(&ch->evq, &desc, obj_list, counter);
}

/**
 * uverbs_comp_forget() - Take back the unread events of a destroyed CQ
 * @ch: the channel
 * @obj_list: the CQ's list of unread events
 *
 * Context: Any context.
 */
void uverbs_comp_forget(struct uverbs_comp_channel *ch,
			struct list_head *obj_list)
{
	uverbs_evq_forget(&ch->evq, obj_list);
}

/**
 * uverbs_comp_close_all() - End the completion channels of a file
 * @file: the file whose ucontext is being torn down
 *
 * Their readers wake: read() drains what is queued, then answers -EIO.
 *
 * Context: Process context. Caller holds the file's ucontext_lock.
 */
void uverbs_comp_close_all(struct ib_uverbs_file *file)
{
	struct uverbs_comp_channel *ch;

	lockdep_assert_held(&file->ucontext_lock);
	list_for_each_entry(ch, &file->comp_channels, link)
		uverbs_evq_close(&ch->evq, false);
}

/* The channel of one of its files (uverbs_comp_fops). */
static struct uverbs_comp_channel *uverbs_comp_of(struct file *filp)
{
	struct uverbs_evq *q = filp->private_data;

	return container_of(q, struct uverbs_comp_channel, evq);
}

/* The descriptor's last close: CQs may hold the channel on, closed. */
static int uverbs_comp_release(struct inode *inode, struct file *filp)
{
	struct uverbs_comp_channel *ch = uverbs_comp_of(filp);

	mutex_lock(&ch->owner->ucontext_lock);
	list_del(&ch->link);
	mutex_unlock(&ch->owner->ucontext_lock);
	uverbs_evq_close(&ch->evq, true);
	uverbs_comp_put(ch);
	return 0;
}

/* Read-only events, one per read(); no seeking. */
static const struct file_operations uverbs_comp_fops = {
	.owner = THIS_MODULE, .llseek = no_llseek,
	.read = uverbs_evq_read, .poll = uverbs_evq_poll,
	.fasync = uverbs_evq_fasync, .release = uverbs_comp_release,
};

/*
 * Put @ch on its owner's list; a file whose ucontext is already gone (a
 * device removal racing the command) gets a closed channel.
 */
static void uverbs_comp_link(struct uverbs_comp_channel *ch)
{
	struct ib_uverbs_file *file = ch->owner;

	mutex_lock(&file->ucontext_lock);
	list_add_tail(&ch->link, &file->comp_channels);
	if (!file->ucontext)
		uverbs_evq_close(&ch->evq, false);
	mutex_unlock(&file->ucontext_lock);
}

/**
 * uverbs_comp_get() - The channel behind a descriptor, for a new CQ
 * @fd: the descriptor user space named
 * @file: the uverbs file the CQ is made on
 *
 * Context: Process context.
 * Return: the channel with a reference for the caller; -EBADF when @fd is
 * not a completion channel of @file.
 */
struct uverbs_comp_channel *uverbs_comp_get(int fd, struct ib_uverbs_file *file)
{
	struct uverbs_comp_channel *ch = NULL;
	struct file *filp = fget(fd);

	if (!filp)
		return ERR_PTR(-EBADF);
	if (filp->f_op == &uverbs_comp_fops)
		ch = uverbs_comp_of(filp);
	if (ch && ch->owner == file)
		kref_get(&ch->ref);
	else
		ch = ERR_PTR(-EBADF);
	fput(filp);
	return ch;
}

/**
 * uverbs_cmd_create_comp_channel() - IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL
 * @ctx: the command
 *
 * Context: Process context, may sleep.
 * Return: 0 with the channel's descriptor in the response; -EMFILE,
 * -ENOMEM, -EFAULT.
 */
int uverbs_cmd_create_comp_channel(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct ib_uverbs_create_comp_channel cmd;
	struct uverbs_comp_channel *ch;
	struct file *filp;
	int ret = uverbs_cmd_request(ctx, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	if (!ch)
		return -ENOMEM;
	kref_init(&ch->ref);
	uverbs_evq_init(&ch->evq, sizeof(struct ib_uverbs_comp_event_desc));
	INIT_LIST_HEAD(&ch->link);
	kref_get(&ctx->file->ref);
	ch->owner = ctx->file;
	resp.fd = get_unused_fd_flags(O_CLOEXEC);
	if (resp.fd < 0) {
		ret = resp.fd;
		goto err_ch;
	}
	filp = uverbs_evq_file(&ch->evq, &uverbs_comp_fops);
	if (IS_ERR(filp)) {
		ret = PTR_ERR(filp);
		goto err_fd;
	}
	ret = uverbs_cmd_response(ctx, &resp, sizeof(resp));
	if (ret) {
		fput(filp);	/* its release drops the channel */
		put_unused_fd(resp.fd);
		return ret;
	}
	uverbs_comp_link(ch);
	fd_install(resp.fd, filp);
	return 0;

err_fd:
	put_unused_fd(resp.fd);
err_ch:
	uverbs_comp_put(ch);
	return ret;
}
