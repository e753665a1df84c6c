// SPDX-License-Identifier: GPL-2.0-only
/*
 * The async event file GET_CONTEXT hands out: a queue of
 * ib_uverbs_async_event_desc that read() and poll() consume.
 */
/*
 * Events queued: the device's own (port state, GID and the like, whose
 * element is the port number) through an ib_event_handler registered for
 * the life of the ucontext; the events of user objects (a CQ's CQ_ERR,
 * element the object's user handle), counted when read so that a destroy
 * can report how many the process got; IB_EVENT_DEVICE_FATAL when the
 * device is removed under an open context. Once that is queued the queue
 * is closed and, drained, read() answers -EIO.
 */

#include <linux/fs.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"
#include "uverbs/uverbs_evq.h"

/*
 * @evq: the queued events. References: the anon file holds one, the
 * uverbs file whose ucontext made it holds another.
 */
struct uverbs_async_file {
	struct kref ref;
	struct uverbs_evq evq;
	struct ib_event_handler handler;	/* .device set while watching */
};

static void uverbs_async_free(struct kref *ref)
{
	struct uverbs_async_file *async =
		container_of(ref, struct uverbs_async_file, ref);

	uverbs_evq_close(&async->evq, true);
	kfree(async);
}

/**
 * uverbs_async_get() - The async event queue of a file, for an object
 * @file: the uverbs file
 *
 * For the objects a command creates: their events go to the queue the
 * file had when they were made, which they hold until uverbs_async_put().
 *
 * Context: Process context; takes file->ucontext_lock.
 * Return: the queue with a reference, or NULL when the file has none.
 */
struct uverbs_async_file *uverbs_async_get(struct ib_uverbs_file *file)
{
	struct uverbs_async_file *async;

	mutex_lock(&file->ucontext_lock);
	async = file->async;
	if (async)
		kref_get(&async->ref);
	mutex_unlock(&file->ucontext_lock);
	return async;
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
	union uverbs_evq_desc desc = {
		.async = { .element = element, .event_type = event_type },
	};

	uverbs_evq_add(&async->evq, &desc, obj_list, counter);
	if (event_type == IB_EVENT_DEVICE_FATAL)
		uverbs_evq_close(&async->evq, false);
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
	uverbs_evq_forget(&async->evq, obj_list);
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

static int uverbs_async_release(struct inode *inode, struct file *filp)
{
	struct uverbs_evq *q = filp->private_data;

	uverbs_async_put(container_of(q, struct uverbs_async_file, evq));
	return 0;
}

/* Read-only events, one per read(); no seeking. */
static const struct file_operations uverbs_async_fops = {
	.owner = THIS_MODULE, .llseek = no_llseek,
	.read = uverbs_evq_read, .poll = uverbs_evq_poll,
	.fasync = uverbs_evq_fasync, .release = uverbs_async_release,
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
	uverbs_evq_init(&async->evq, sizeof(struct ib_uverbs_async_event_desc));
	*filp = uverbs_evq_file(&async->evq, &uverbs_async_fops);
	if (IS_ERR(*filp)) {
		kfree(async);
		return ERR_CAST(*filp);
	}
	kref_get(&async->ref);
	return async;
}
