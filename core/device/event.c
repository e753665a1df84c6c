// SPDX-License-Identifier: GPL-2.0-only
/* Asynchronous device and port events: handler registration and dispatch. */

#include <linux/device.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"

/*
 * Drivers report events from any context, often interrupts; handlers run
 * later from ib_wq, in process context. ib_wq may run several events at
 * once, so their order is not guaranteed; the handlers of one event are
 * called in registration order. Each device's event_handler_rwsem
 * protects its event_handler_list.
 */

/**
 * struct event_work - one event on its way to the handlers
 * @work: queued on ib_wq
 * @event: a copy of the driver's event; the work holds a reference on
 *	   event.device so the handler list outlives the driver's free
 */
struct event_work {
	struct work_struct	work;
	struct ib_event		event;
};

/**
 * ib_register_event_handler() - Start receiving a device's events
 * @event_handler: set up with INIT_IB_EVENT_HANDLER()
 *
 * The handler is called from a work queue for every event dispatched on
 * the device after this returns, until ib_unregister_event_handler().
 *
 * Context: Process context, may sleep. Not from inside a handler.
 */
void ib_register_event_handler(struct ib_event_handler *event_handler)
{
	struct ib_device *dev = event_handler->device;

	down_write(&dev->event_handler_rwsem);
	list_add_tail(&event_handler->list, &dev->event_handler_list);
	up_write(&dev->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_register_event_handler);

/**
 * ib_unregister_event_handler() - Stop receiving a device's events
 * @event_handler: a registered handler
 *
 * Waits for a call of the handler that is running, so the handler may be
 * freed on return.
 *
 * Context: Process context, may sleep. Not from inside a handler.
 */
void ib_unregister_event_handler(struct ib_event_handler *event_handler)
{
	struct ib_device *dev = event_handler->device;

	down_write(&dev->event_handler_rwsem);
	list_del(&event_handler->list);
	up_write(&dev->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_unregister_event_handler);

/**
 * ib_dispatch_event_clients() - Call every handler of the event's device
 * @event: the event
 *
 * Context: Process context, may sleep. Takes event_handler_rwsem for
 * reading.
 */
void ib_dispatch_event_clients(struct ib_event *event)
{
	struct ib_device *dev = event->device;
	struct ib_event_handler *handler;

	down_read(&dev->event_handler_rwsem);
	list_for_each_entry(handler, &dev->event_handler_list, list)
		handler->handler(handler, event);
	up_read(&dev->event_handler_rwsem);
}

/*
 * The GID/P_Key cache refreshes itself first for port, LID, P_Key, GID and
 * client-reregister events, so handlers read the new cached values.
 */
static void event_work_run(struct work_struct *work)
{
	struct event_work *ew = container_of(work, struct event_work, work);
	struct ib_device *dev = ew->event.device;

	ib_cache_event_update(&ew->event);
	ib_dispatch_event_clients(&ew->event);
	put_device(&dev->dev);
	kfree(ew);
}

/**
 * ib_dispatch_event() - Report an asynchronous event to the device's handlers
 * @event: the event; copied, so it may live on the caller's stack
 *
 * The handlers run later, from a work queue. An event that cannot be
 * queued for lack of memory is dropped.
 *
 * Context: Any context.
 */
void ib_dispatch_event(const struct ib_event *event)
{
	struct event_work *ew;

	ew = kmalloc(sizeof(*ew), GFP_ATOMIC);
	if (!ew)
		return;

	INIT_WORK(&ew->work, event_work_run);
	ew->event = *event;
	get_device(&event->device->dev);
	queue_work(ib_wq, &ew->work);
}
EXPORT_SYMBOL(ib_dispatch_event);
