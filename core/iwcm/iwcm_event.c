// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver upcalls: queued on their id without allocating, handled one at a time,
 * in order, on iw_cm's workqueue.
 */

#include "iwcm/iwcm.h"

/*
 * The work item of an id runs only while its queue has entries: an
 * upcall queues it when it finds @work_queued clear, and the work clears
 * that flag under the lock when it takes the queue's last entry away.
 * Each queued entry holds a reference on the id, so the work never
 * touches an id after dropping the reference of its last entry.
 */

/* Copy @event into @entry, its private data into the entry's room. */
static void iwcm_event_copy(struct iwcm_event_entry *entry,
			    const struct iw_cm_event *event)
{
	u8 len = event->private_data ? event->private_data_len : 0;

	entry->event = *event;
	entry->event.private_data_len = len;
	entry->event.private_data = len ? entry->data : NULL;
	if (len)
		memcpy(entry->data, event->private_data, len);
}

/**
 * iwcm_event_upcall() - iw_cm_id.event_handler: an event from the driver
 * @cm_id: the id; the driver holds a reference on it (add_ref)
 * @event: the event; private data is copied, @event may go on return
 *
 * Context: any, including interrupt context; does not allocate.
 * Return: 0, or -ENOMEM when the id has no free event entry (a listener
 * with its backlog of requests waiting to be handled): the driver then
 * rejects the connection itself.
 */
int iwcm_event_upcall(struct iw_cm_id *cm_id, struct iw_cm_event *event)
{
	struct iwcm_id_priv *priv = to_iwcm_id_priv(cm_id);
	struct iwcm_event_entry *entry;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	entry = list_first_entry_or_null(&priv->free, struct iwcm_event_entry,
					 node);
	if (!entry) {
		spin_unlock_irqrestore(&priv->lock, flags);
		pr_debug("id %p: no room for event %d\n", priv, event->event);
		return -ENOMEM;
	}
	iwcm_event_copy(entry, event);
	list_move_tail(&entry->node, &priv->queue);
	iwcm_id_get(priv);
	if (!priv->work_queued) {
		priv->work_queued = true;
		queue_work(iwcm.wq, &priv->work);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return 0;
}

/* The table input of an event (IWCM_INPUTS for one we do not know). */
static enum iwcm_input iwcm_event_input(const struct iw_cm_event *event)
{
	switch (event->event) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		return IWCM_IN_EV_CONNECT_REQUEST;
	case IW_CM_EVENT_CONNECT_REPLY:
		return event->status ? IWCM_IN_EV_CONNECT_REPLY_ERR :
				       IWCM_IN_EV_CONNECT_REPLY;
	case IW_CM_EVENT_ESTABLISHED:
		return IWCM_IN_EV_ESTABLISHED;
	case IW_CM_EVENT_DISCONNECT:
		return IWCM_IN_EV_DISCONNECT;
	case IW_CM_EVENT_CLOSE:
		return IWCM_IN_EV_CLOSE;
	}
	return IWCM_INPUTS;
}

/* Feed one event to the table; hand it to the owner if the cell says so. */
static void iwcm_event_handle(struct iwcm_id_priv *priv,
			      struct iwcm_event_entry *entry)
{
	struct iwcm_in in = { .event = &entry->event };
	int ret;

	in.input = iwcm_event_input(&entry->event);
	ret = iwcm_table_feed(priv, &in);
	if (ret || !in.fx.notify)
		return;
	if (in.input == IWCM_IN_EV_CONNECT_REQUEST)
		iwcm_request_spawn(priv, &entry->event);
	else if (priv->id.cm_handler(&priv->id, &entry->event))
		iwcm_id_destroy(priv);
}

/*
 * Put @entry back into the pool and take the next one, or note that the
 * work is done.
 */
static struct iwcm_event_entry *iwcm_event_next(struct iwcm_id_priv *priv,
						struct iwcm_event_entry *done)
{
	struct iwcm_event_entry *entry;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (done)
		list_add(&done->node, &priv->free);
	entry = list_first_entry_or_null(&priv->queue, struct iwcm_event_entry,
					 node);
	if (entry)
		list_del_init(&entry->node);
	else
		priv->work_queued = false;
	spin_unlock_irqrestore(&priv->lock, flags);
	return entry;
}

/* The work item of an id: handle its queued events, oldest first. */
void iwcm_event_work_fn(struct work_struct *work)
{
	struct iwcm_id_priv *priv = container_of(work, struct iwcm_id_priv,
						 work);
	struct iwcm_event_entry *entry, *next;

	entry = iwcm_event_next(priv, NULL);
	while (entry) {
		iwcm_event_handle(priv, entry);
		next = iwcm_event_next(priv, entry);
		/* The handled entry's reference; @next holds one of its own. */
		iwcm_id_put(priv);
		entry = next;
	}
}

/* True on iw_cm's workqueue, i.e. inside some id's event handling. */
bool iwcm_event_on_wq(void)
{
	struct work_struct *work = current_work();

	return work && work->func == iwcm_event_work_fn;
}
