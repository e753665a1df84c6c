// SPDX-License-Identifier: GPL-2.0-only
/*
 * Events of a cm_id: queued under its lock, delivered to its owner one at a
 * time from the CM workqueue.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "cm/cm.h"

/*
 * An event carries copies of what it points to (private data, ARI, paths),
 * so it does not depend on the MAD it came from. Each queued event holds a
 * reference on its id; the id's work item delivers them in order, so the
 * owner's handler never runs twice at once for one id.
 */
struct cm_event_item {
	struct list_head	node;
	struct ib_cm_event	event;
	struct sa_path_rec	paths[2];
	u8			info[IB_CM_REJ_ARI_LENGTH];
	u8			room[IB_MGMT_MAD_DATA];
};

struct cm_event_item *cm_event_alloc(enum ib_cm_event_type type,
				     const void *private_data, u8 len)
{
	struct cm_event_item *item;

	item = kzalloc(sizeof(*item), GFP_ATOMIC);
	if (!item)
		return NULL;
	item->event.event = type;
	if (private_data && len) {
		memcpy(item->room, private_data, min_t(size_t, len,
						       sizeof(item->room)));
		item->event.private_data = item->room;
	}
	return item;
}

struct ib_cm_event *cm_event_of(struct cm_event_item *item)
{
	return &item->event;
}

/* Room for the primary and alternate paths of a REQ event. */
void *cm_event_room(struct cm_event_item *item)
{
	return item->paths;
}

/* Room for a REJ's ARI or a SIDR REP's additional information. */
void *cm_event_info(struct cm_event_item *item)
{
	return item->info;
}

/**
 * cm_event_queue() - Queue an event for @priv's owner
 * @priv: the id; its lock is held
 * @item: the event, consumed (freed when @priv is being destroyed)
 */
void cm_event_queue(struct cm_id_priv *priv, struct cm_event_item *item)
{
	lockdep_assert_held(&priv->lock);
	if (priv->destroying) {
		kfree(item);
		return;
	}
	cm_id_get(priv);
	list_add_tail(&item->node, &priv->events);
	queue_work(cm.wq, &priv->event_work);
}

static struct cm_event_item *cm_event_next(struct cm_id_priv *priv)
{
	struct cm_event_item *item = NULL;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (!priv->destroying)
		item = list_first_entry_or_null(&priv->events,
						struct cm_event_item, node);
	if (item)
		list_del(&item->node);
	spin_unlock_irqrestore(&priv->lock, flags);
	return item;
}

/* The work item of a cm_id: hand its events to the owner. */
void cm_event_work_fn(struct work_struct *work)
{
	struct cm_id_priv *priv = container_of(work, struct cm_id_priv,
					       event_work);
	struct cm_event_item *item;
	int ret;

	while ((item = cm_event_next(priv))) {
		ret = priv->id.cm_handler(&priv->id, &item->event);
		kfree(item);
		cm_id_put(priv);
		if (ret) {
			/* The owner's reference keeps @priv until here. */
			cm_id_destroy(priv, ret);
			return;
		}
	}
}

/* Drop what was not delivered; @priv is being destroyed. */
void cm_event_drain(struct cm_id_priv *priv)
{
	struct cm_event_item *item, *next;
	LIST_HEAD(list);

	spin_lock_irq(&priv->lock);
	list_splice_init(&priv->events, &list);
	spin_unlock_irq(&priv->lock);
	list_for_each_entry_safe(item, next, &list, node) {
		kfree(item);
		cm_id_put(priv);
	}
}
EXPORT_SYMBOL_IF_KUNIT(cm_event_drain);
