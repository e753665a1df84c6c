// SPDX-License-Identifier: GPL-2.0-only
/* Completion channels: the anonymous files CREATE_COMP_CHANNEL makes, queues of ib_uverbs_comp_event_desc for read() and poll(). */
/*
 * A channel counts its holders: its file, and every CQ that reports to it
 * (so closing the descriptor while CQs use it is safe: the queue lives on,
 * closed, until the last CQ goes). It also holds the uverbs file that made
 * it, which is how CREATE_CQ refuses a channel of another file. An event
 * sits on the channel's list and on its CQ's list of unread events; read()
 * counts it for the CQ (DESTROY_CQ reports the count, which libibverbs
 * waits for in ibv_destroy_cq), and destroying the CQ takes back what the
 * process did not read. Once the uverbs file's ucontext is torn down (the
 * file closed or the device removed) the channel is dead: read() drains
 * what is queued, then answers -EIO, as 6.1's does.
 */

#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uverbs/uverbs.h"

/* @lock protects @events and @closed. */
struct uverbs_comp_channel {
	struct kref ref;
	spinlock_t lock;
	wait_queue_head_t wait;
	struct list_head events;
	bool closed;
	struct ib_uverbs_file *owner;
};

struct uverbs_comp_event {
	struct list_head list;
	struct list_head obj_list;
	u32 *counter;
	struct ib_uverbs_comp_event_desc desc;
};

/* Drop the unread events of the channel. Caller holds ch->lock. */
static void uverbs_comp_flush(struct uverbs_comp_channel *ch)
{
	struct uverbs_comp_event *ev, *next;

	lockdep_assert_held(&ch->lock);
	list_for_each_entry_safe(ev, next, &ch->events, list) {
		list_del(&ev->obj_list);
		list_del(&ev->list);
		kfree(ev);
	}
}

static void uverbs_comp_free(struct kref *ref)
{
	struct uverbs_comp_channel *ch =
		container_of(ref, struct uverbs_comp_channel, ref);

	spin_lock_irq(&ch->lock);
	uverbs_comp_flush(ch);
	spin_unlock_irq(&ch->lock);
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
 * A closed channel (its file released) takes no events; one that finds no
 * memory is dropped with a message.
 *
 * Context: Any context.
 */
void uverbs_comp_queue(struct uverbs_comp_channel *ch, u64 cq_handle,
		       struct list_head *obj_list, u32 *counter)
{
	struct uverbs_comp_event *ev;
	unsigned long flags;

	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev) {
		pr_warn_ratelimited("completion event dropped: no memory\n");
		return;
	}
	ev->desc.cq_handle = cq_handle;
	ev->counter = counter;
	spin_lock_irqsave(&ch->lock, flags);
	if (!ch->closed) {
		list_add_tail(&ev->list, &ch->events);
		list_add_tail(&ev->obj_list, obj_list);
		ev = NULL;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	kfree(ev);
	wake_up_interruptible(&ch->wait);
}

/**
 * uverbs_comp_forget() - Take back the unread events of a destroyed CQ
 * @ch: the channel
 * @obj_list: the CQ's list of unread events
 *
 * Also wakes the channel's readers: a CQ going may be the file's teardown,
 * after which read() answers -EIO.
 *
 * Context: Any context.
 */
void uverbs_comp_forget(struct uverbs_comp_channel *ch,
			struct list_head *obj_list)
{
	struct uverbs_comp_event *ev, *next;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	list_for_each_entry_safe(ev, next, obj_list, obj_list) {
		list_del(&ev->list);
		list_del(&ev->obj_list);
		kfree(ev);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_interruptible(&ch->wait);
}

/* No more events will come: the file released, or its ucontext gone. */
static bool uverbs_comp_dead(struct uverbs_comp_channel *ch)
{
	return ch->closed || !uverbs_file_ucontext(ch->owner);
}

static bool uverbs_comp_ready(struct uverbs_comp_channel *ch)
{
	bool ready;

	spin_lock_irq(&ch->lock);
	ready = !list_empty(&ch->events) || uverbs_comp_dead(ch);
	spin_unlock_irq(&ch->lock);
	return ready;
}

/* The oldest event, off both lists and counted; NULL when closed. */
static struct uverbs_comp_event *uverbs_comp_take(struct file *filp)
{
	struct uverbs_comp_channel *ch = filp->private_data;
	struct uverbs_comp_event *ev;

	for (;;) {
		spin_lock_irq(&ch->lock);
		ev = list_first_entry_or_null(&ch->events,
					      struct uverbs_comp_event, list);
		if (ev || uverbs_comp_dead(ch))
			break;
		spin_unlock_irq(&ch->lock);
		if (filp->f_flags & O_NONBLOCK)
			return ERR_PTR(-EAGAIN);
		/*
		 * The file's teardown clears its ucontext after the CQs went
		 * (and woke us): look again every second rather than miss it.
		 */
		if (wait_event_interruptible_timeout(ch->wait,
						     uverbs_comp_ready(ch),
						     HZ) < 0)
			return ERR_PTR(-ERESTARTSYS);
	}
	if (ev) {
		list_del(&ev->list);
		list_del(&ev->obj_list);
		(*ev->counter)++;
	}
	spin_unlock_irq(&ch->lock);
	return ev ? ev : ERR_PTR(-EIO);
}

static ssize_t uverbs_comp_read(struct file *filp, char __user *buf,
				size_t count, loff_t *pos)
{
	struct uverbs_comp_event *ev;
	ssize_t ret = sizeof(ev->desc);

	if (count < sizeof(ev->desc))
		return -EINVAL;
	ev = uverbs_comp_take(filp);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	if (copy_to_user(buf, &ev->desc, sizeof(ev->desc)))
		ret = -EFAULT;
	kfree(ev);
	return ret;
}

static __poll_t uverbs_comp_poll(struct file *filp, poll_table *wait)
{
	struct uverbs_comp_channel *ch = filp->private_data;

	poll_wait(filp, &ch->wait, wait);
	return uverbs_comp_ready(ch) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* The descriptor's last close: CQs may hold the channel on, closed. */
static int uverbs_comp_release(struct inode *inode, struct file *filp)
{
	struct uverbs_comp_channel *ch = filp->private_data;

	spin_lock_irq(&ch->lock);
	ch->closed = true;
	uverbs_comp_flush(ch);
	spin_unlock_irq(&ch->lock);
	uverbs_comp_put(ch);
	return 0;
}

/* Read-only events, one per read(); no seeking. */
static const struct file_operations uverbs_comp_fops = {
	.owner = THIS_MODULE, .llseek = no_llseek,
	.read = uverbs_comp_read, .poll = uverbs_comp_poll,
	.release = uverbs_comp_release,
};

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
	struct uverbs_comp_channel *ch = ERR_PTR(-EBADF);
	struct file *filp = fget(fd);

	if (!filp)
		return ch;
	if (filp->f_op == &uverbs_comp_fops &&
	    ((struct uverbs_comp_channel *)filp->private_data)->owner == file) {
		ch = filp->private_data;
		kref_get(&ch->ref);
	}
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
	spin_lock_init(&ch->lock);
	init_waitqueue_head(&ch->wait);
	INIT_LIST_HEAD(&ch->events);
	kref_get(&ctx->file->ref);
	ch->owner = ctx->file;
	resp.fd = get_unused_fd_flags(O_CLOEXEC);
	if (resp.fd < 0) {
		ret = resp.fd;
		goto err_ch;
	}
	filp = anon_inode_getfile("[infinibandevent]", &uverbs_comp_fops, ch,
				  O_RDONLY);
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
	fd_install(resp.fd, filp);
	return 0;

err_fd:
	put_unused_fd(resp.fd);
err_ch:
	uverbs_comp_put(ch);
	return ret;
}
