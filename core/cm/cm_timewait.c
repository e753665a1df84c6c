// SPDX-License-Identifier: GPL-2.0-only
/*
 * Timewait: a closed connection's identity kept for a while, so late and
 * duplicate messages find it.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>

#include "cm/cm.h"

/*
 * A connection's struct cm_timewait is made when it starts (REQ sent or
 * received) and holds its entries in the remote lookups. Leaving the
 * connection for IDLE frees it; entering TIMEWAIT hands it to a timer
 * instead, for the time a packet of the old connection may still be in
 * flight: the path's local ACK timeout (cm_id_priv.av.timeout), as 6.1
 * does. During that time it stays in the remote comm ID tree (a
 * duplicate REQ is answered "stale") and leaves the QPN tree (a new
 * connection from the same QP is allowed). When the timer fires, the
 * cm_id, if it still exists and waits, goes to IDLE and its owner gets
 * IB_CM_TIMEWAIT_EXIT.
 */

static void cm_timewait_work_fn(struct work_struct *work);

struct cm_timewait *cm_timewait_alloc(struct cm_id_priv *priv, gfp_t gfp)
{
	struct cm_timewait *tw;

	tw = kzalloc(sizeof(*tw), gfp);
	if (!tw)
		return NULL;
	INIT_DELAYED_WORK(&tw->work, cm_timewait_work_fn);
	INIT_LIST_HEAD(&tw->node);
	tw->local_id = priv->id.local_id;
	return tw;
}
EXPORT_SYMBOL_IF_KUNIT(cm_timewait_alloc);

static bool cm_timewait_going_down(struct cm_id_priv *priv)
{
	lockdep_assert_held(&cm.lock);
	return priv->av.port && priv->av.port->dev->going_down;
}

/**
 * cm_timewait_enter() - Start @priv's timewait
 * @priv: the id, its lock held; the table moves it to TIMEWAIT next
 *
 * A no-op when @priv has no connection identity (any more).
 */
void cm_timewait_enter(struct cm_id_priv *priv)
{
	struct cm_timewait *tw = priv->tw;
	unsigned long delay;

	lockdep_assert_held(&priv->lock);
	if (!tw)
		return;
	priv->tw = NULL;
	delay = msecs_to_jiffies(cm_convert_to_ms(priv->av.timeout));
	spin_lock(&cm.lock);
	if (tw->in_qpn_tree)
		rb_erase(&tw->remote_qpn_node, &cm.remote_qpn_tree);
	tw->in_qpn_tree = false;
	list_add_tail(&tw->node, &cm.timewait_list);
	/* A device going away has its timers flushed: fire at once. */
	if (cm_timewait_going_down(priv))
		delay = 0;
	queue_delayed_work(cm.wq, &tw->work, delay);
	spin_unlock(&cm.lock);
}
EXPORT_SYMBOL_IF_KUNIT(cm_timewait_enter);

/* @priv leaves its connection without timewait: forget its identity. */
void cm_timewait_forget(struct cm_id_priv *priv)
{
	struct cm_timewait *tw = priv->tw;

	lockdep_assert_held(&priv->lock);
	if (!tw)
		return;
	priv->tw = NULL;
	spin_lock(&cm.lock);
	cm_remote_erase(tw);
	spin_unlock(&cm.lock);
	kfree(tw);
}
EXPORT_SYMBOL_IF_KUNIT(cm_timewait_forget);

static void cm_timewait_work_fn(struct work_struct *work)
{
	struct cm_timewait *tw = container_of(to_delayed_work(work),
					      struct cm_timewait, work);
	struct cm_in in = { .input = CM_IN_TIMEWAIT_EXIT };
	struct cm_id_priv *priv;
	unsigned long flags;

	spin_lock_irqsave(&cm.lock, flags);
	cm_remote_erase(tw);
	list_del(&tw->node);
	spin_unlock_irqrestore(&cm.lock, flags);

	priv = cm_id_acquire(tw->local_id, tw->remote_id);
	if (priv) {
		cm_table_feed(priv, &in);
		cm_id_put(priv);
	}
	kfree(tw);
}

/* Module or device exit: end every timewait now and wait for them. */
void cm_timewait_flush(void)
{
	struct cm_timewait *tw;

	spin_lock_irq(&cm.lock);
	list_for_each_entry(tw, &cm.timewait_list, node)
		mod_delayed_work(cm.wq, &tw->work, 0);
	spin_unlock_irq(&cm.lock);
	flush_workqueue(cm.wq);
}
