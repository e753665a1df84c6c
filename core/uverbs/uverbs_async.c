// SPDX-License-Identifier: GPL-2.0-only
/* The async event file GET_CONTEXT hands out: a queue of ib_uverbs_async_event_desc that read() and poll() consume. */
/*
 * Events queued: the device's own (port state, GID and the like, whose
 * element is the port number) through an ib_event_handler registered for
 * the life of the ucontext; the events of user objects (a CQ's CQ_ERR,
 * element the object's user handle), counted when read so that a destroy
 * can report how many the process got; IB_EVENT_DEVICE_FATAL when the
 * device is removed under an open context. Once that is queued the queue
 * is closed and, drained, read() answers -EIO.
 */

#include <linux/anon_inodes.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

/*
 * @lock protects @events and @closed. References: the anon file holds
 * one, the uverbs file whose ucontext made it holds another.
 */
struct uverbs_async_file {
	struct kref ref;
	spinlock_t lock;
	wait_queue_head_t wait;
	struct list_head events;
	bool closed;
	struct ib_event_handler handler;	/* .device set while watching */
};

/*
 * @obj_list: on the object's list of its unread events (empty for device
 * events), so that destroying the object can take them back; @counter:
 * the object's count of events read, bumped by read().
 */
struct uverbs_async_event {
	struct list_head list;
	struct list_head obj_list;
	u32 *counter;
	struct ib_uverbs_async_event_desc desc;
};

static void uverbs_async_free(struct kref *ref)
{
	struct uverbs_async_file *async =
		container_of(ref, struct uverbs_async_file, ref);
	struct uverbs_async_event *ev, *next;

	list_for_each_entry_safe(ev, next, &async->events, list)
		kfree(ev);
	kfree(async);
}

/**
 * uverbs_async_get() - Take a reference on an async event queue
 * @async: the queue
 *
 * Context: Any context.
 */
void uverbs_async_get(struct uverbs_async_file *async)
{
	kref_get(&async->ref);
}

/**
 * uverbs_async_put() - Drop a reference on an async event queue
 * @async: the queue
 *
 * Context: Any context.
 */
void uverbs_async_put(struct uverbs_async_file *async)
{
	kref_put(&async->ref, uverbs_async_free);
}

/**
 * uverbs_async_queue_obj() - Queue an event of a user object
 * @async: the queue
 * @element: the object's user handle
 * @event_type: enum ib_event_type
 * @obj_list: the object's list of unread events (uverbs_async_forget())
 * @counter: the object's count of events read
 *
 * Context: Any context.
 */
void uverbs_async_queue_obj(struct uverbs_async_file *async, u64 element,
			    u32 event_type, struct list_head *obj_list,
			    u32 *counter)
{
	struct uverbs_async_event *ev;
	unsigned long flags;

	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		pr_warn_ratelimited("async event %u dropped: no memory\n",
				    event_type);
	spin_lock_irqsave(&async->lock, flags);
	if (ev && !async->closed) {
		ev->desc = (struct ib_uverbs_async_event_desc) {
			.element = element, .event_type = event_type };
		ev->counter = counter;
		list_add_tail(&ev->list, &async->events);
		if (obj_list)
			list_add_tail(&ev->obj_list, obj_list);
		else
			INIT_LIST_HEAD(&ev->obj_list);
		ev = NULL;
	}
	if (event_type == IB_EVENT_DEVICE_FATAL)
		async->closed = true;
	spin_unlock_irqrestore(&async->lock, flags);
	kfree(ev);
	wake_up_interruptible(&async->wait);
}

/**
 * uverbs_async_queue() - Queue an event for user space
 * @async: the queue
 * @element: what the event is about (a port number), 0 for the device
 * @event_type: enum ib_event_type
 *
 * IB_EVENT_DEVICE_FATAL is the last event: the queue closes after it.
 * An event that finds no memory is dropped with a message.
 *
 * Context: Any context.
 */
void uverbs_async_queue(struct uverbs_async_file *async, u64 element,
			u32 event_type)
{
	uverbs_async_queue_obj(async, element, event_type, NULL, NULL);
}

/**
 * uverbs_async_forget() - Take back the unread events of an object
 * @async: the queue they are on
 * @obj_list: the object's list of unread events
 *
 * Called when the object is destroyed: its events must not reach user
 * space any more, nor their counter be bumped.
 *
 * Context: Any context.
 */
void uverbs_async_forget(struct uverbs_async_file *async,
			 struct list_head *obj_list)
{
	struct uverbs_async_event *ev, *next;
	unsigned long flags;

	spin_lock_irqsave(&async->lock, flags);
	list_for_each_entry_safe(ev, next, obj_list, obj_list) {
		list_del(&ev->list);
		list_del(&ev->obj_list);
		kfree(ev);
	}
	spin_unlock_irqrestore(&async->lock, flags);
}

static void uverbs_async_device_event(struct ib_event_handler *handler,
				      struct ib_event *event)
{
	struct uverbs_async_file *async =
		container_of(handler, struct uverbs_async_file, handler);

	uverbs_async_queue(async, event->element.port_num, event->event);
}

/**
 * uverbs_async_watch() - Deliver a device's own events to an async queue
 * @async: the queue of a file's ucontext
 * @ib_dev: the device
 *
 * Context: Process context. Caller holds the file's ucontext_lock.
 */
void uverbs_async_watch(struct uverbs_async_file *async,
			struct ib_device *ib_dev)
{
	INIT_IB_EVENT_HANDLER(&async->handler, ib_dev,
			      uverbs_async_device_event);
	ib_register_event_handler(&async->handler);
}

/**
 * uverbs_async_unwatch() - Stop uverbs_async_watch()
 * @async: the queue; nothing happens if it does not watch a device
 *
 * Context: Process context, the device still registered. Caller holds the
 * file's ucontext_lock.
 */
void uverbs_async_unwatch(struct uverbs_async_file *async)
{
	if (!async->handler.device)
		return;
	ib_unregister_event_handler(&async->handler);
	async->handler.device = NULL;
}

static bool uverbs_async_ready(struct uverbs_async_file *async)
{
	bool ready;

	spin_lock_irq(&async->lock);
	ready = !list_empty(&async->events) || async->closed;
	spin_unlock_irq(&async->lock);
	return ready;
}

static ssize_t uverbs_async_read(struct file *filp, char __user *buf,
				 size_t count, loff_t *pos)
{
	struct uverbs_async_file *async = filp->private_data;
	struct uverbs_async_event *ev;

	if (count < sizeof(ev->desc))
		return -EINVAL;
	for (;;) {
		spin_lock_irq(&async->lock);
		ev = list_first_entry_or_null(&async->events,
					      struct uverbs_async_event, list);
		if (ev || async->closed)
			break;
		spin_unlock_irq(&async->lock);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(async->wait,
					     uverbs_async_ready(async)))
			return -ERESTARTSYS;
	}
	if (ev) {
		list_del(&ev->list);
		list_del(&ev->obj_list);
		if (ev->counter)
			(*ev->counter)++;
	}
	spin_unlock_irq(&async->lock);
	if (!ev)
		return -EIO;
	if (copy_to_user(buf, &ev->desc, sizeof(ev->desc))) {
		kfree(ev);
		return -EFAULT;
	}
	kfree(ev);
	return sizeof(ev->desc);
}

static __poll_t uverbs_async_poll(struct file *filp, poll_table *wait)
{
	struct uverbs_async_file *async = filp->private_data;

	poll_wait(filp, &async->wait, wait);
	return uverbs_async_ready(async) ? EPOLLIN | EPOLLRDNORM : 0;
}

static int uverbs_async_release(struct inode *inode, struct file *filp)
{
	uverbs_async_put(filp->private_data);
	return 0;
}

static const struct file_operations uverbs_async_fops = {
	.owner = THIS_MODULE,
	.read = uverbs_async_read,
	.poll = uverbs_async_poll,
	.release = uverbs_async_release,
	.llseek = no_llseek,
};

/**
 * uverbs_async_create() - A new async event queue and its file
 * @filp: set to the anon file, not yet installed in a descriptor; on
 *	  failure of the caller, fput() it
 *
 * Context: Process context, may sleep.
 * Return: the queue with two references, the file's and the caller's,
 * or an ERR_PTR.
 */
struct uverbs_async_file *uverbs_async_create(struct file **filp)
{
	struct uverbs_async_file *async;

	async = kzalloc(sizeof(*async), GFP_KERNEL);
	if (!async)
		return ERR_PTR(-ENOMEM);
	kref_init(&async->ref);
	spin_lock_init(&async->lock);
	init_waitqueue_head(&async->wait);
	INIT_LIST_HEAD(&async->events);
	*filp = anon_inode_getfile("[infinibandevent]", &uverbs_async_fops,
				   async, O_RDONLY);
	if (IS_ERR(*filp)) {
		kfree(async);
		return ERR_CAST(*filp);
	}
	kref_get(&async->ref);
	return async;
}
