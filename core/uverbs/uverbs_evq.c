// SPDX-License-Identifier: GPL-2.0-only
/*
 * One event queue for read(), poll() and SIGIO, shared by completion channels
 * and the async event file.
 */
/*
 * An event may belong to a user object (a CQ): then it also sits on that
 * object's list of unread events, so that destroying the object takes its
 * events back (uverbs_evq_forget()), and read() bumps the object's count of
 * events delivered, which the object's DESTROY command reports. Events of
 * no object (the device's own) have an empty @obj_list and no counter.
 * Whoever ends the queue's source of events closes it (uverbs_evq_close()),
 * which wakes every reader at once.
 *
 * The queue's file (uverbs_evq_file()) has the queue as its private_data,
 * so read(), poll() and fasync() are the same for every kind of event file;
 * only release, which drops the owner's reference, is the owner's own.
 */

#include <linux/anon_inodes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uverbs/uverbs_evq.h"

struct uverbs_evq_event {
	struct list_head list;
	struct list_head obj_list;
	u32 *counter;
	union uverbs_evq_desc desc;
};

/* Off both lists; caller holds q->lock. */
static void uverbs_evq_unlink(struct uverbs_evq *q, struct uverbs_evq_event *ev)
{
	lockdep_assert_held(&q->lock);
	list_del(&ev->list);
	list_del(&ev->obj_list);
}

/* Tell readers, pollers and SIGIO subscribers that something changed. */
static void uverbs_evq_wake(struct uverbs_evq *q)
{
	wake_up_interruptible(&q->wait);
	kill_fasync(&q->fasync, SIGIO, POLL_IN);
}

/**
 * uverbs_evq_init() - Set up an empty, open event queue
 * @q: the queue
 * @desc_size: bytes one read() returns, at most sizeof(union uverbs_evq_desc)
 *
 * Context: Any context.
 */
void uverbs_evq_init(struct uverbs_evq *q, size_t desc_size)
{
	spin_lock_init(&q->lock);
	init_waitqueue_head(&q->wait);
	INIT_LIST_HEAD(&q->events);
	q->fasync = NULL;
	q->desc_size = desc_size;
	q->closed = false;
}

/**
 * uverbs_evq_add() - Queue an event for user space
 * @q: the queue
 * @desc: the descriptor read() will copy out (@q->desc_size bytes of it)
 * @obj_list: the object's list of unread events, or NULL for no object
 * @counter: the object's count of events read, or NULL
 *
 * A closed queue takes nothing; an event that finds no memory is dropped
 * (the allocator has warned).
 *
 * Context: Any context.
 */
void uverbs_evq_add(struct uverbs_evq *q, const union uverbs_evq_desc *desc,
		    struct list_head *obj_list, u32 *counter)
{
	struct uverbs_evq_event *ev;
	unsigned long flags;

	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;
	ev->desc = *desc;
	ev->counter = counter;
	INIT_LIST_HEAD(&ev->obj_list);
	spin_lock_irqsave(&q->lock, flags);
	if (!q->closed) {
		list_add_tail(&ev->list, &q->events);
		if (obj_list)
			list_add_tail(&ev->obj_list, obj_list);
		ev = NULL;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	kfree(ev);
	uverbs_evq_wake(q);
}

/**
 * uverbs_evq_forget() - Take back the unread events of a destroyed object
 * @q: the queue they are on
 * @obj_list: the object's list of unread events
 *
 * They never reach user space, nor bump the object's counter.
 *
 * Context: Any context.
 */
void uverbs_evq_forget(struct uverbs_evq *q, struct list_head *obj_list)
{
	struct uverbs_evq_event *ev, *next;
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	list_for_each_entry_safe(ev, next, obj_list, obj_list) {
		uverbs_evq_unlink(q, ev);
		kfree(ev);
	}
	spin_unlock_irqrestore(&q->lock, flags);
}

/**
 * uverbs_evq_close() - No more events will come
 * @q: the queue
 * @flush: drop the unread events too (the queue's file is gone); without
 *	   it, read() hands out what is queued before answering -EIO
 *
 * Wakes every reader and poller. Closing twice is harmless.
 *
 * Context: Any context.
 */
void uverbs_evq_close(struct uverbs_evq *q, bool flush)
{
	struct uverbs_evq_event *ev, *next;
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	q->closed = true;
	if (flush) {
		list_for_each_entry_safe(ev, next, &q->events, list) {
			uverbs_evq_unlink(q, ev);
			kfree(ev);
		}
	}
	spin_unlock_irqrestore(&q->lock, flags);
	uverbs_evq_wake(q);
}

static bool uverbs_evq_ready(struct uverbs_evq *q)
{
	bool ready;

	spin_lock_irq(&q->lock);
	ready = !list_empty(&q->events) || q->closed;
	spin_unlock_irq(&q->lock);
	return ready;
}

/* The oldest event, off both lists and counted; -EIO when closed. */
static struct uverbs_evq_event *uverbs_evq_take(struct uverbs_evq *q,
						bool nonblock)
{
	struct uverbs_evq_event *ev;

	for (;;) {
		spin_lock_irq(&q->lock);
		ev = list_first_entry_or_null(&q->events,
					      struct uverbs_evq_event, list);
		if (ev || q->closed)
			break;
		spin_unlock_irq(&q->lock);
		if (nonblock)
			return ERR_PTR(-EAGAIN);
		if (wait_event_interruptible(q->wait, uverbs_evq_ready(q)))
			return ERR_PTR(-ERESTARTSYS);
	}
	if (ev) {
		uverbs_evq_unlink(q, ev);
		if (ev->counter)
			(*ev->counter)++;
	}
	spin_unlock_irq(&q->lock);
	return ev ? ev : ERR_PTR(-EIO);
}

/**
 * uverbs_evq_read() - read() of an event file: one descriptor
 * @filp: the file, whose private_data is its queue (O_NONBLOCK)
 * @buf: the user buffer
 * @count: its size
 * @pos: unused, the file does not seek
 *
 * Context: Process context, may sleep.
 * Return: the descriptor's size; -EINVAL for a buffer too small, -EAGAIN
 * (non-blocking, nothing queued), -ERESTARTSYS, -EIO once closed and
 * drained, -EFAULT.
 */
ssize_t uverbs_evq_read(struct file *filp, char __user *buf, size_t count,
			loff_t *pos)
{
	struct uverbs_evq *q = filp->private_data;
	struct uverbs_evq_event *ev;
	ssize_t ret = q->desc_size;

	if (count < q->desc_size)
		return -EINVAL;
	ev = uverbs_evq_take(q, filp->f_flags & O_NONBLOCK);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	if (copy_to_user(buf, &ev->desc, q->desc_size))
		ret = -EFAULT;
	kfree(ev);
	return ret;
}

/**
 * uverbs_evq_poll() - poll() of an event file
 * @filp: the file, whose private_data is its queue
 * @wait: the poll table
 *
 * Context: Process context.
 * Return: readable when an event is queued or the queue is closed.
 */
__poll_t uverbs_evq_poll(struct file *filp, poll_table *wait)
{
	struct uverbs_evq *q = filp->private_data;

	poll_wait(filp, &q->wait, wait);
	return uverbs_evq_ready(q) ? EPOLLIN | EPOLLRDNORM : 0;
}

/**
 * uverbs_evq_fasync() - fasync() of an event file: SIGIO on new events
 * @fd: the descriptor
 * @filp: the file, whose private_data is its queue
 * @on: subscribe or unsubscribe
 *
 * Context: Process context.
 * Return: as fasync_helper().
 */
int uverbs_evq_fasync(int fd, struct file *filp, int on)
{
	struct uverbs_evq *q = filp->private_data;

	return fasync_helper(fd, filp, on, &q->fasync);
}

/**
 * uverbs_evq_file() - The anonymous file that reads a queue
 * @q: the queue, the file's private_data
 * @fops: the owner's operations: uverbs_evq_read(), uverbs_evq_poll() and
 *	  uverbs_evq_fasync(), with a release of its own
 *
 * The file is not installed in a descriptor; the caller does that, or
 * fput()s it, which runs @fops' release.
 *
 * Context: Process context, may sleep.
 * Return: the file, read-only, or an ERR_PTR.
 */
struct file *uverbs_evq_file(struct uverbs_evq *q,
			     const struct file_operations *fops)
{
	return anon_inode_getfile("[infinibandevent]", fops, q, O_RDONLY);
}
