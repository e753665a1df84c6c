// SPDX-License-Identifier: GPL-2.0-only
/*
 * iw_cm ids: creation, references the owner and the driver hold, waiting for
 * connect/accept, destruction.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "iwcm/iwcm.h"

/* The driver pins an id with these (iw_cm_id.add_ref and .rem_ref). */
static void iwcm_id_add_ref(struct iw_cm_id *cm_id)
{
	iwcm_id_get(to_iwcm_id_priv(cm_id));
}

static void iwcm_id_rem_ref(struct iw_cm_id *cm_id)
{
	iwcm_id_put(to_iwcm_id_priv(cm_id));
}

static void iwcm_id_init(struct iwcm_id_priv *priv, struct ib_device *device,
			 iw_cm_handler handler, void *context)
{
	priv->id.device = device;
	priv->id.cm_handler = handler;
	priv->id.context = context;
	priv->id.event_handler = iwcm_event_upcall;
	priv->id.add_ref = iwcm_id_add_ref;
	priv->id.rem_ref = iwcm_id_rem_ref;
	spin_lock_init(&priv->lock);
	priv->state = IWCM_IDLE;
	INIT_LIST_HEAD(&priv->free);
	INIT_LIST_HEAD(&priv->queue);
	init_waitqueue_head(&priv->wait);
	INIT_WORK(&priv->work, iwcm_event_work_fn);
	refcount_set(&priv->refs, 1);
}

/**
 * iwcm_id_alloc() - A new id in IDLE, holding its owner's reference
 * @device: its device
 * @handler: the owner's event handler
 * @context: the owner's context
 *
 * Context: process; sleeps.
 * Return: the id, or ERR_PTR(-ENOMEM).
 */
struct iwcm_id_priv *iwcm_id_alloc(struct ib_device *device,
				   iw_cm_handler handler, void *context)
{
	struct iwcm_id_priv *priv;

	priv = iwcm_fault_alloc() ? NULL : kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	iwcm_id_init(priv, device, handler, context);
	atomic_inc(&iwcm.live);
	return priv;
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_id_alloc);

void iwcm_id_get(struct iwcm_id_priv *priv)
{
	refcount_inc(&priv->refs);
}

/* The last reference frees: every event entry is back on @free by then. */
static void iwcm_id_free(struct iwcm_id_priv *priv)
{
	WARN_ON(!list_empty(&priv->queue) || priv->qp);
	iwcm_pool_free(&priv->free);
	kfree(priv);
	if (atomic_dec_and_test(&iwcm.live))
		wake_up_var(&iwcm.live);
}

/* Context: any (the driver's rem_ref may come from interrupt context). */
void iwcm_id_put(struct iwcm_id_priv *priv)
{
	if (refcount_dec_and_test(&priv->refs))
		iwcm_id_free(priv);
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_id_put);

static bool iwcm_id_pending(struct iwcm_id_priv *priv)
{
	unsigned long flags;
	bool pending;

	spin_lock_irqsave(&priv->lock, flags);
	pending = priv->pending;
	spin_unlock_irqrestore(&priv->lock, flags);
	return pending;
}

/*
 * Wait until connect or accept is answered, or a reject is done, as 6.1
 * does before a disconnect or destroy. Not on iw_cm's workqueue: the
 * answer is an event that workqueue has yet to handle.
 */
void iwcm_id_pending_wait(struct iwcm_id_priv *priv)
{
	if (!iwcm_event_on_wq())
		wait_event(priv->wait, !iwcm_id_pending(priv));
}

/* The driver's reject returned: let waiters go. */
void iwcm_id_pending_end(struct iwcm_id_priv *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	priv->pending = false;
	spin_unlock_irqrestore(&priv->lock, flags);
	wake_up_all(&priv->wait);
}

/**
 * iwcm_id_destroy() - Take an id down and drop its owner's reference
 * @priv: the id
 *
 * Feeds IWCM_IN_DESTROY to the table (the driver stops listening,
 * rejects, or has the QP moved to ERR, as the state requires), waits for
 * a handler of the id in progress elsewhere, then drops the owner's
 * reference. Events queued or coming later are dropped.
 *
 * Context: process; sleeps. Also from the id's own handler (through a
 * non-zero return).
 * Return: 0, or -EINVAL when the id was already being destroyed (the
 * owner's reference was dropped then and is not dropped again).
 */
int iwcm_id_destroy(struct iwcm_id_priv *priv)
{
	struct iwcm_in in = { .input = IWCM_IN_DESTROY };
	int ret;

	iwcm_id_pending_wait(priv);
	ret = iwcm_table_feed(priv, &in);
	if (ret)
		return ret;
	/* On the (ordered) workqueue no other handler can be running. */
	if (!iwcm_event_on_wq())
		flush_work(&priv->work);
	iwcm_id_put(priv);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_id_destroy);

/**
 * iw_create_cm_id() - Create an iWARP CM identifier
 * @device: the iWARP device the listener or connection is for
 * @cm_handler: gets the id's events, from iw_cm's workqueue, one at a
 *		time; a non-zero return destroys the id (do not call
 *		iw_destroy_cm_id() on it then)
 * @context: the owner's, stored in the id's context
 *
 * The id starts idle; iw_cm_listen() or iw_cm_connect() put it to use.
 * Ids for incoming connections are created by iw_cm and handed to the
 * listener's handler with IW_CM_EVENT_CONNECT_REQUEST.
 *
 * Context: process; sleeps. Locks: none.
 * Return: the id, or ERR_PTR(-ENOMEM).
 */
struct iw_cm_id *iw_create_cm_id(struct ib_device *device,
				 iw_cm_handler cm_handler, void *context)
{
	struct iwcm_id_priv *priv;

	priv = iwcm_id_alloc(device, cm_handler, context);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	return &priv->id;
}
EXPORT_SYMBOL(iw_create_cm_id);

/**
 * iw_destroy_cm_id() - Destroy an iWARP CM identifier
 * @cm_id: the id
 *
 * First waits until a connect or accept in progress is answered by the
 * driver. Then a listener stops listening, a connection request not
 * accepted is rejected, and an established connection is reset (its QP
 * moved to ERR); the id lets go of its QP. Waits for a handler call of
 * the id running on another CPU to return: no event is delivered for
 * @cm_id once this returns. The memory goes when the driver dropped its
 * last reference.
 *
 * Context: process; sleeps. Not for an id whose handler returned
 * non-zero (iw_cm destroyed it already).
 * Locks: the caller must not hold a lock the id's handler takes: this
 * waits for the handler to return. The id's own lock is taken for the
 * state change only; the driver is called without it.
 */
void iw_destroy_cm_id(struct iw_cm_id *cm_id)
{
	WARN_ON(iwcm_id_destroy(to_iwcm_id_priv(cm_id)));
}
EXPORT_SYMBOL(iw_destroy_cm_id);
