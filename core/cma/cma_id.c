// SPDX-License-Identifier: GPL-2.0-only
/* rdma_cm ids: creation, references, the handler lock, losing the device and destruction. */

#include <kunit/visibility.h>
#include <linux/nsproxy.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>

#include "cma/cma.h"

/**
 * cma_id_alloc() - A new id in state IDLE
 * @net: its network namespace (a reference is taken)
 * @handler: the owner's event handler
 * @context: the owner's context, in id.context
 * @ps: its port space
 * @qp_type: the type of QP it connects
 * @owner: the row whose owner the id's restrack row takes (a REQ's
 *	   listener), or NULL
 * @caller: else the owning module's name; NULL: the current task owns it
 *
 * The id is not on any list yet: nothing can find it before its owner
 * calls a verb on it.
 *
 * Context: process context, may sleep.
 * Return: the id, or ERR_PTR(-ENOMEM).
 */
struct cma_id_priv *cma_id_alloc(struct net *net,
				 rdma_cm_event_handler handler, void *context,
				 enum rdma_ucm_port_space ps,
				 enum ib_qp_type qp_type,
				 const struct cma_row *owner, const char *caller)
{
	struct cma_id_priv *priv;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->id.event_handler = handler;
	priv->id.context = context;
	priv->id.ps = ps;
	priv->id.qp_type = qp_type;
	priv->state = RDMA_CM_IDLE;
	priv->gid_type = IB_GID_TYPE_IB;
	/* The starting PSN: 24 random bits, as IBA's PSNs are. */
	priv->seq_num = get_random_u32() & 0xffffff;
	spin_lock_init(&priv->lock);
	mutex_init(&priv->handler_mutex);
	mutex_init(&priv->qp_mutex);
	refcount_set(&priv->refs, 1);
	init_completion(&priv->released);
	INIT_LIST_HEAD(&priv->dev_node);
	INIT_WORK(&priv->work, cma_work_fn);
	priv->id.route.addr.dev_addr.net = get_net(net);
	/* Empty until the id listens. */
	INIT_LIST_HEAD(&priv->listens);
	INIT_LIST_HEAD(&priv->listen_node);
	INIT_LIST_HEAD(&priv->mcasts);
	cma_neigh_init_id(priv);
	cma_res_init_row(&priv->row, priv, false, owner, caller);
	return priv;
}
EXPORT_SYMBOL_IF_KUNIT(cma_id_alloc);

/* What the owner gets of a new id: the rdma_cm_id, or the error. */
static struct rdma_cm_id *cma_id_create(struct net *net,
					rdma_cm_event_handler handler,
					void *context,
					enum rdma_ucm_port_space ps,
					enum ib_qp_type qp_type,
					const char *caller)
{
	struct cma_id_priv *priv = cma_id_alloc(net, handler, context, ps,
						qp_type, NULL, caller);

	return IS_ERR(priv) ? ERR_CAST(priv) : &priv->id;
}

/**
 * __rdma_create_kernel_id() - Create an rdma_cm id for a kernel user
 * @net: the network namespace its addresses live in; held until the id is
 *	 destroyed
 * @event_handler: called with the id's events, one at a time
 * @context: the owner's, found in id->context
 * @ps: the port space (RDMA_PS_TCP for RC, RDMA_PS_UDP or RDMA_PS_IPOIB
 *	for UD, RDMA_PS_IB)
 * @qp_type: the QP type the id connects (IB_QPT_RC or IB_QPT_UD)
 * @caller: the module creating it (KBUILD_MODNAME through rdma_create_id());
 *	the id's row in resource tracking names it as its owner, so it
 *	must outlive the id
 *
 * This is what the rdma_create_id() macro calls. The id starts IDLE, on
 * no device; it gets one when bound or resolved.
 *
 * Context: process context, may sleep.
 * Return: the id or ERR_PTR(-ENOMEM).
 */
struct rdma_cm_id *
__rdma_create_kernel_id(struct net *net, rdma_cm_event_handler event_handler,
			void *context, enum rdma_ucm_port_space ps,
			enum ib_qp_type qp_type, const char *caller)
{
	return cma_id_create(net, event_handler, context, ps, qp_type, caller);
}
EXPORT_SYMBOL(__rdma_create_kernel_id);

/**
 * rdma_create_user_id() - Create an rdma_cm id for a user-space owner
 * @event_handler: called with the id's events, one at a time
 * @context: the owner's, found in id->context
 * @ps: the port space
 * @qp_type: the QP type the id connects
 *
 * As __rdma_create_kernel_id(), in the network namespace of the calling
 * task (rdma_ucm creates its ids here), which resource tracking shows as
 * the id's owner.
 *
 * Context: process context, may sleep.
 * Return: the id or ERR_PTR(-ENOMEM).
 */
struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type)
{
	return cma_id_create(current->nsproxy->net_ns, event_handler, context,
			     ps, qp_type, NULL);
}
EXPORT_SYMBOL(rdma_create_user_id);

void cma_id_get(struct cma_id_priv *priv)
{
	refcount_inc(&priv->refs);
}
EXPORT_SYMBOL_IF_KUNIT(cma_id_get);

void cma_id_put(struct cma_id_priv *priv)
{
	if (refcount_dec_and_test(&priv->refs))
		complete(&priv->released);
}

/* The id's state now; it may change as soon as this returns. */
enum rdma_cm_state cma_id_state(struct cma_id_priv *priv)
{
	return READ_ONCE(priv->state);
}
EXPORT_SYMBOL_IF_KUNIT(cma_id_state);

struct net *cma_id_net(struct cma_id_priv *priv)
{
	return priv->id.route.addr.dev_addr.net;
}

/**
 * cma_id_attach() - Bind an id to a device
 * @priv: the id, on no device yet, its port_num set
 * @dev: the device, found on cma.devices; the id takes a reference
 *
 * Under cma.lock, so that a device being removed (off cma.devices first)
 * cannot get an id after it told its ids. The id's row in resource
 * tracking is listed on the device from now on.
 *
 * Context: process context; the caller holds cma.lock.
 */
void cma_id_attach(struct cma_id_priv *priv, struct cma_device *dev)
{
	lockdep_assert_held(&cma.lock);
	cma_device_get(dev);
	priv->dev = dev;
	priv->id.device = dev->device;
	priv->gid_type = cma_device_gid_type(dev, priv->id.port_num);
	list_add_tail(&priv->dev_node, &dev->ids);
	cma_res_add(&priv->row, dev->device);
}
EXPORT_SYMBOL_IF_KUNIT(cma_id_attach);

/*
 * Unbind @priv from its device, if it has one, and let go of its source
 * GID entry; its row leaves resource tracking first. Takes cma.lock.
 */
void cma_id_detach(struct cma_id_priv *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct cma_device *dev;

	cma_res_del(&priv->row);

	mutex_lock(&cma.lock);
	dev = priv->dev;
	list_del_init(&priv->dev_node);
	priv->dev = NULL;
	mutex_unlock(&cma.lock);
	if (dev_addr->sgid_attr) {
		rdma_put_gid_attr(dev_addr->sgid_attr);
		dev_addr->sgid_attr = NULL;
	}
	if (dev)
		cma_device_put(dev);
}

/*
 * Stop what the id had started in state @from: a work item or query that
 * may still run finds the id in a state that refuses its result.
 */
static void cma_id_cancel(struct cma_id_priv *priv, enum rdma_cm_state from)
{
	if (from == RDMA_CM_ADDR_QUERY)
		rdma_addr_cancel(&priv->id.route.addr.dev_addr);
}

int cma_h_destroy(struct cma_id_priv *priv, struct cma_in *in)
{
	return 0;
}

int cma_h_device_removal(struct cma_id_priv *priv, struct cma_in *in)
{
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_DEVICE_REMOVAL };

	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/*
 * What the id owns, in reverse of how it got it; then wait for the work
 * in flight and free it. A listener's IB CM listeners go whatever state
 * it was in (a listener that lost its device was in DEVICE_REMOVAL).
 */
static void cma_id_free(struct cma_id_priv *priv, enum rdma_cm_state from)
{
	cma_neigh_unwatch(priv);
	cma_id_cancel(priv, from);
	cma_mcast_leave_all(priv);
	if (priv->ib)
		ib_destroy_cm_id(priv->ib);
	if (priv->iw)
		iw_destroy_cm_id(priv->iw);
	cma_listen_release(priv);
	cma_id_detach(priv);
	cma_bind_release(priv);
	cma_id_put(priv);
	wait_for_completion(&priv->released);
	kfree(priv->id.route.path_rec);
	kfree(priv->id.route.path_rec_inbound);
	kfree(priv->id.route.path_rec_outbound);
	put_net(cma_id_net(priv));
	kfree(priv);
}

/**
 * cma_id_destroy_unlock() - Destroy an id from under its handler lock
 * @priv: the id; the caller holds its handler_mutex, which this releases
 *
 * Moving to DESTROYING under the handler_mutex is the fence: no handler
 * runs for the id after it. The rest happens unlocked, and waits for the
 * work in flight to let go of the id.
 *
 * Context: process context, sleeps; not from the id's own handler.
 */
void cma_id_destroy_unlock(struct cma_id_priv *priv)
{
	struct cma_in in = { .input = CMA_IN_DESTROY };
	int ret;

	ret = cma_table_run(priv, &in);
	mutex_unlock(&priv->handler_mutex);
	if (WARN_ON(ret))
		return;
	cma_id_free(priv, in.from);
}
EXPORT_SYMBOL_IF_KUNIT(cma_id_destroy_unlock);

/**
 * rdma_destroy_id() - Destroy an rdma_cm id
 * @id: the id
 *
 * Cancels what the id has in flight (an address query, a route work item,
 * its IB CM connection), releases its port and device and frees it. Once
 * the handler lock is taken no further event reaches the owner; an event
 * handler running for the id is waited for. The owner destroys its QP
 * first (rdma_destroy_qp()). Must not be called from the id's own event
 * handler (return non-zero there instead) nor twice.
 *
 * Context: process context, sleeps.
 */
void rdma_destroy_id(struct rdma_cm_id *id)
{
	struct cma_id_priv *priv = to_cma_id(id);

	mutex_lock(&priv->handler_mutex);
	cma_id_destroy_unlock(priv);
}
EXPORT_SYMBOL(rdma_destroy_id);

/**
 * cma_id_remove() - Tell an id its device is going away
 * @priv: the id, already off its device's list; the caller's reference
 *	  is consumed
 *
 * The owner's handler gets DEVICE_REMOVAL; if it returns non-zero the id
 * is destroyed here, otherwise the owner destroys it later, and what it
 * had in flight is cancelled now: a listener's IB CM listener goes
 * before the device does (once the handler lock is dropped: see cma.h).
 *
 * Context: process context, sleeps.
 */
void cma_id_remove(struct cma_id_priv *priv)
{
	struct cma_in in = { .input = CMA_IN_DEVICE_REMOVAL };
	int ret;

	mutex_lock(&priv->handler_mutex);
	ret = cma_table_run(priv, &in);
	if (ret == CMA_DESTROY) {
		/* The address resolver's callback never takes this mutex. */
		cma_id_cancel(priv, in.from);
		cma_id_put(priv);
		cma_id_destroy_unlock(priv);
		return;
	}
	mutex_unlock(&priv->handler_mutex);
	if (!ret) {
		cma_id_cancel(priv, in.from);
		if (in.from == RDMA_CM_LISTEN)
			cma_listen_release(priv);
	}
	cma_id_put(priv);
}
EXPORT_SYMBOL_IF_KUNIT(cma_id_remove);

/**
 * rdma_lock_handler() - Hold off an id's event handler
 * @id: the id
 *
 * While held, no event of @id is delivered, and calls that must run as
 * if from the handler (rdma_accept() outside CONNECT_REQUEST) may be made.
 *
 * Context: process context, sleeps; not from @id's own handler.
 */
void rdma_lock_handler(struct rdma_cm_id *id)
{
	mutex_lock(&to_cma_id(id)->handler_mutex);
}
EXPORT_SYMBOL(rdma_lock_handler);

/**
 * rdma_unlock_handler() - Let an id's event handler run again
 * @id: the id, locked by rdma_lock_handler()
 *
 * Context: process context.
 */
void rdma_unlock_handler(struct rdma_cm_id *id)
{
	mutex_unlock(&to_cma_id(id)->handler_mutex);
}
EXPORT_SYMBOL(rdma_unlock_handler);
