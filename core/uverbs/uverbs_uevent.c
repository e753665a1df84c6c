// SPDX-License-Identifier: GPL-2.0-only
/*
 * The user side of objects whose only events are async ones (QPs, SRQs): their
 * handle, events and the count DESTROY reports.
 */

#include <linux/slab.h>

#include "uverbs/uverbs.h"

static void uverbs_uevent_free(struct kref *ref)
{
	kfree(container_of(ref, struct uverbs_uevent, ref));
}

/**
 * uverbs_uevent_alloc() - the user side of a QP or SRQ about to be created
 * @ctx: the creating command; its file's async event file, if any, gets
 *	 the object's events
 * @user_handle: what user space calls the object in its events
 * @size: the size of the object that starts with the struct uverbs_uevent
 *	  (struct ib_uqp_object, struct ib_usrq_object)
 *
 * Context: Process context, may sleep.
 * Return: the object, zeroed past the struct uverbs_uevent, or NULL
 * without memory.
 */
struct uverbs_uevent *uverbs_uevent_alloc(struct uverbs_cmd_ctx *ctx,
					  u64 user_handle, size_t size)
{
	struct uverbs_uevent *ue;

	ue = kzalloc(max(size, sizeof(*ue)), GFP_KERNEL);
	if (!ue)
		return NULL;
	kref_init(&ue->ref);
	INIT_LIST_HEAD(&ue->async_list);
	ue->user_handle = user_handle;
	ue->async = uverbs_async_get(ctx->file);
	return ue;
}

/**
 * uverbs_uevent_handler() - the event handler of a user QP or SRQ
 * @event: the event
 * @context: the object's struct uverbs_uevent (qp_context, srq_context)
 *
 * Context: any context.
 */
void uverbs_uevent_handler(struct ib_event *event, void *context)
{
	struct uverbs_uevent *ue = context;

	if (ue->async)
		uverbs_async_queue_obj(ue->async, ue->user_handle, event->event,
				       &ue->async_list, &ue->events_reported);
}

/**
 * uverbs_uevent_release() - the object is gone: drop its unread events
 * @ue: the user side
 *
 * Drops the object's reference; @ue lives on while a DESTROY command
 * still holds one to read the count.
 *
 * Context: Process context.
 */
void uverbs_uevent_release(struct uverbs_uevent *ue)
{
	if (ue->async) {
		uverbs_async_forget(ue->async, &ue->async_list);
		uverbs_async_put(ue->async);
	}
	ue->destroyed = true;
	kref_put(&ue->ref, uverbs_uevent_free);
}

/**
 * uverbs_uevent_destroy() - the DESTROY command of a QP or SRQ
 * @file: the file
 * @type: the handle's kind
 * @uobj: the handle's uobject, held for reading; put here
 * @ue: the object's user side
 * @events_reported: set to the events user space read for the object
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL when another command destroyed it first, -EBUSY while
 * other objects use it, or the driver's error.
 */
int uverbs_uevent_destroy(struct ib_uverbs_file *file,
			  const struct uverbs_api_object *type,
			  struct ib_uobject *uobj, struct uverbs_uevent *ue,
			  u32 *events_reported)
{
	u32 handle = uobj->id;
	int ret;

	kref_get(&ue->ref);
	uverbs_uobj_put_read(uobj);
	ret = uverbs_uobj_destroy(file, type, handle);
	if (!ret && !ue->destroyed)
		ret = -EINVAL;
	*events_reported = ue->events_reported;
	kref_put(&ue->ref, uverbs_uevent_free);
	return ret;
}
