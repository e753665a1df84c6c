// SPDX-License-Identifier: GPL-2.0-only
/* cm_ids: allocation, local comm IDs, references, lookup by comm ID and destruction. */

#include <kunit/visibility.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "cm/cm.h"

/*
 * Local comm IDs are xarray indices, allocated cyclically so a freed ID
 * is not reused soon, and XORed with a random operand chosen at load
 * time, so the IDs on the wire differ from one boot to the next (a peer
 * holding an old connection then sees a new ID, not a recycled one).
 * An entry is NULL between allocation and publication.
 */
static DEFINE_XARRAY_ALLOC(cm_local_ids);
static u32 cm_local_id_next;

/* How long destroy waits for references before it says so, and waits on. */
#define CM_DESTROY_WAIT_MS	10000

static u32 cm_local_index(__be32 local_id)
{
	return (__force u32)(local_id ^ cm.random_id_operand);
}

static void cm_id_init(struct cm_id_priv *priv, struct ib_device *device,
		       ib_cm_handler handler, void *context)
{
	priv->id = (struct ib_cm_id){
		.cm_handler = handler, .context = context, .device = device,
		.remote_cm_qpn = 1,
	};
	spin_lock_init(&priv->lock);
	RB_CLEAR_NODE(&priv->listen_node);
	RB_CLEAR_NODE(&priv->sidr_node);
	INIT_LIST_HEAD(&priv->events);
	INIT_WORK(&priv->event_work, cm_event_work_fn);
	refcount_set(&priv->refs, 1);
	init_completion(&priv->released);
}

/**
 * cm_id_alloc() - A new cm_id in IDLE with a local comm ID, not yet visible
 * @device: its device
 * @handler: the owner's event handler
 * @context: the owner's context
 *
 * Context: process; sleeps.
 * Return: the id, or ERR_PTR(-ENOMEM) (or the xarray's error).
 */
struct cm_id_priv *cm_id_alloc(struct ib_device *device,
			       ib_cm_handler handler, void *context)
{
	struct cm_id_priv *priv;
	u32 index;
	int ret;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	cm_id_init(priv, device, handler, context);
	ret = xa_alloc_cyclic(&cm_local_ids, &index, NULL, xa_limit_32b,
			      &cm_local_id_next, GFP_KERNEL);
	if (ret < 0) {
		kfree(priv);
		return ERR_PTR(ret);
	}
	priv->id.local_id = (__force __be32)index ^ cm.random_id_operand;
	return priv;
}
EXPORT_SYMBOL_IF_KUNIT(cm_id_alloc);

/* Let received messages find @priv by its local comm ID. */
void cm_id_publish(struct cm_id_priv *priv)
{
	xa_store(&cm_local_ids, cm_local_index(priv->id.local_id), priv,
		 GFP_KERNEL);
}
EXPORT_SYMBOL_IF_KUNIT(cm_id_publish);

void cm_id_get(struct cm_id_priv *priv)
{
	refcount_inc(&priv->refs);
}

void cm_id_put(struct cm_id_priv *priv)
{
	if (refcount_dec_and_test(&priv->refs))
		complete(&priv->released);
}
EXPORT_SYMBOL_IF_KUNIT(cm_id_put);

/**
 * cm_id_acquire() - The cm_id of a local comm ID, with a reference
 * @local_id: our comm ID as the peer quotes it
 * @remote_id: the peer's comm ID the id must know, 0 for one that knows
 *	       none yet
 *
 * Context: any.
 * Return: the id, or NULL when there is none or it talks to someone else.
 */
struct cm_id_priv *cm_id_acquire(__be32 local_id, __be32 remote_id)
{
	struct cm_id_priv *priv;

	rcu_read_lock();
	priv = xa_load(&cm_local_ids, cm_local_index(local_id));
	if (!priv || priv->id.local_id != local_id ||
	    priv->id.remote_id != remote_id ||
	    !refcount_inc_not_zero(&priv->refs))
		priv = NULL;
	rcu_read_unlock();
	return priv;
}
EXPORT_SYMBOL_IF_KUNIT(cm_id_acquire);

/* Keep a copy of @data to resend with a repeated MRA, RTU or DREP. */
void cm_id_set_private_data(struct cm_id_priv *priv, const void *data,
			    u8 len)
{
	lockdep_assert_held(&priv->lock);
	len = data ? min_t(u8, len, sizeof(priv->private_data)) : 0;
	if (len)
		memcpy(priv->private_data, data, len);
	priv->private_data_len = len;
}

/* A TID for a message that starts an exchange: our agent's, our ID. */
__be64 cm_id_tid(struct cm_id_priv *priv)
{
	u64 hi = priv->av.port ? priv->av.port->agent->hi_tid : 0;

	return cpu_to_be64(hi << 32 | (__force u32)priv->id.local_id);
}

static void cm_id_wait(struct cm_id_priv *priv)
{
	while (!wait_for_completion_timeout(&priv->released,
					    msecs_to_jiffies(CM_DESTROY_WAIT_MS)))
		pr_err_ratelimited("cm_id %08x: destroy waits for %u references\n",
				   be32_to_cpu(priv->id.local_id),
				   refcount_read(&priv->refs));
}

/*
 * The memory outlives the id by a grace period: cm_id_acquire() may have
 * found it in cm_local_ids just before it was erased, and reads its IDs
 * and its (zero) reference count under RCU. Deferred rather than waited
 * for: a grace period on every destroy made tearing connections down one
 * after the other wait for each (tests/084's cycles).
 */
static void cm_id_free(struct cm_id_priv *priv)
{
	cm_av_destroy(&priv->av);
	kfree_rcu(priv, rcu);
}

/*
 * A listener made by ib_cm_insert_listen() goes when its last user does:
 * drop one use, true when others remain.
 */
static bool cm_id_listen_unshare(struct cm_id_priv *priv)
{
	bool shared = false;

	spin_lock_irq(&priv->lock);
	spin_lock(&cm.lock);
	if (priv->id.state == IB_CM_LISTEN && priv->listen_share > 1) {
		priv->listen_share--;
		shared = true;
	}
	spin_unlock(&cm.lock);
	spin_unlock_irq(&priv->lock);
	return shared;
}

/**
 * cm_id_destroy() - Take a cm_id down
 * @priv: the id
 * @err: why: 0 for the owner's call, the handler's error when its handler
 *	 failed (-ENOMEM in REQ_RCVD then sends no REJ, so the peer retries)
 *
 * Feeds CM_IN_DESTROY to the table, which says goodbye to the peer as the
 * state requires (REJ, DREQ, DREP, a rejecting SIDR REP) and leaves the id
 * in IDLE; then unpublishes the id, drops the events not delivered and
 * waits until nobody holds a reference. A connection in timewait stays
 * in timewait without its id.
 *
 * Context: process; sleeps. May be called from the id's own event handler
 * (through a non-zero return), never under the id's lock.
 */
void cm_id_destroy(struct cm_id_priv *priv, int err)
{
	struct cm_in in = { .input = CM_IN_DESTROY, .err = err };

	if (cm_id_listen_unshare(priv)) {
		cm_id_put(priv);
		return;
	}
	spin_lock_irq(&priv->lock);
	priv->destroying = true;
	cm_table_run(priv, &in);
	WARN_ON(priv->id.state != IB_CM_IDLE);
	spin_unlock_irq(&priv->lock);

	xa_erase(&cm_local_ids, cm_local_index(priv->id.local_id));
	cm_event_drain(priv);
	/* From the id's own handler the work is us: it touches nothing after. */
	if (current_work() != &priv->event_work)
		cancel_work_sync(&priv->event_work);
	cm_id_put(priv);
	cm_id_wait(priv);
	cm_id_free(priv);
}
EXPORT_SYMBOL_IF_KUNIT(cm_id_destroy);

/**
 * ib_create_cm_id() - Allocate a communication identifier
 * @device: the device the connection or listener is for
 * @cm_handler: called with every event of the id, from the CM's
 *		workqueue, one at a time; a non-zero return destroys the id
 *		(do not call ib_destroy_cm_id() on it then)
 * @context: the owner's, stored in cm_id->context
 *
 * The id starts in IB_CM_IDLE; ib_cm_listen(), ib_send_cm_req() or
 * ib_send_cm_sidr_req() put it to use.
 *
 * Context: process; sleeps.
 * Return: the id, or an ERR_PTR().
 */
struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler, void *context)
{
	struct cm_id_priv *priv;

	priv = cm_id_alloc(device, cm_handler, context);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	cm_id_publish(priv);
	return &priv->id;
}
EXPORT_SYMBOL(ib_create_cm_id);

/**
 * ib_destroy_cm_id() - Destroy a communication identifier
 * @cm_id: the id
 *
 * Rejects or disconnects what the id is in the middle of (REJ while
 * connecting, DREQ when established, DREP when asked to disconnect),
 * waits for a running event handler to return and frees the id. No
 * handler call for @cm_id starts after this returns.
 *
 * Context: process; sleeps. Not from @cm_id's own handler (return
 * non-zero from it instead).
 */
void ib_destroy_cm_id(struct ib_cm_id *cm_id)
{
	cm_id_destroy(to_cm_id_priv(cm_id), 0);
}
EXPORT_SYMBOL(ib_destroy_cm_id);
