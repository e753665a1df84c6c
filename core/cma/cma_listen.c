// SPDX-License-Identifier: GPL-2.0-only
/* rdma_listen(): a listener's IB CM listeners, one per device it serves, kept as devices come and go. */

#include <kunit/visibility.h>
#include <linux/in.h>
#include <linux/slab.h>

#include "cma/cma.h"

/*
 * REQs reach a listener through IB CM listeners made with
 * ib_cm_insert_listen() for the service ID of its port: one on its own
 * device if it is bound to one, else one on every device with a port that
 * speaks the IB CM, devices added later included. ib_cm shares one such
 * listener per (device, service ID) between all of rdma_cm's listeners of
 * that port, whatever their namespace; cma_req.c tells them apart by the
 * namespace and the CMA header of each REQ.
 *
 * The IB CM listeners are entries (struct cma_listen) on the listener's
 * list. ib_cm must not be asked to create or destroy an IB CM id under
 * cma.lock (cma.h says why), so an entry is made in two steps: planned
 * under cma.lock (linked to its listener, no IB CM id yet, on the
 * planner's to-do list), then given its IB CM id by the planner without
 * the lock. Taking an entry off its listener (the listener stops, the
 * device goes) is done under cma.lock; whoever does it owns the entry if
 * it has its IB CM id already, and leaves it to its planner otherwise,
 * who finds it unlinked and throws its work away.
 */

/**
 * struct cma_listen - one IB CM listener of an rdma_cm listener
 * @node: in the listener's listens (cma.lock); empty once taken off
 * @todo: on the to-do list of whoever works on the entry without the lock
 * @dev: the device, referenced: its removal waits for the entry to go
 * @ib: the IB CM listener; NULL until the planner made it (cma.lock)
 * @service_id: the service ID it listens for
 * @row: for a listener on no device, its row in resource tracking on
 *	 @dev, listed once @ib is in place (row.priv is NULL otherwise)
 */
struct cma_listen {
	struct list_head	node;
	struct list_head	todo;
	struct cma_device	*dev;
	struct ib_cm_id		*ib;
	__be64			service_id;
	struct cma_row		row;
};

/* Can @dev take an IB CM listener: does one of its ports speak the IB CM? */
static bool cma_listen_device_ok(struct cma_device *dev)
{
	u32 p;

	rdma_for_each_port(dev->device, p)
		if (rdma_cap_ib_cm(dev->device, p))
			return true;
	return false;
}

/* Plan @priv's entry on @dev: linked, the device referenced, on @todo. */
static int cma_listen_plan(struct cma_id_priv *priv, struct cma_device *dev,
			   struct list_head *todo)
{
	struct cma_listen *l;

	lockdep_assert_held(&cma.lock);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	cma_device_get(dev);
	l->dev = dev;
	l->service_id = rdma_get_service_id(&priv->id, cma_src_addr(priv));
	if (!priv->dev)
		cma_res_init_row(&l->row, priv, true, &priv->row, NULL);
	list_add_tail(&l->node, &priv->listens);
	list_add_tail(&l->todo, todo);
	return 0;
}

/* An entry off its listener: its row, IB CM listener (if any) and itself go. */
static void cma_listen_free(struct cma_listen *l)
{
	if (l->row.priv)
		cma_res_del(&l->row);
	if (l->ib)
		ib_destroy_cm_id(l->ib);
	cma_device_put(l->dev);
	kfree(l);
}

/*
 * The planner's second step: @ib (or the error making it) for @l. An
 * entry taken off meanwhile, or one that failed, goes. Return: the error.
 */
static int cma_listen_settle(struct cma_listen *l, struct ib_cm_id *ib)
{
	bool linked;

	mutex_lock(&cma.lock);
	linked = !list_empty(&l->node);
	if (linked && !IS_ERR(ib)) {
		l->ib = ib;
		if (l->row.priv)
			cma_res_add(&l->row, l->dev->device);
		mutex_unlock(&cma.lock);
		return 0;
	}
	if (linked)
		list_del_init(&l->node);
	mutex_unlock(&cma.lock);
	if (!IS_ERR(ib))
		l->ib = ib;
	cma_listen_free(l);
	return PTR_ERR_OR_ZERO(ib);
}

/**
 * cma_listen_run() - Make the IB CM listeners of planned entries
 * @todo: the entries, planned under cma.lock by the caller; emptied
 *
 * Context: process context, sleeps; the caller holds no rdma_cm lock.
 * Return: 0, or the first error of ib_cm_insert_listen() (-EINVAL: some
 * other ib_cm user listens on the service ID); an entry that failed is
 * gone, the others are in place.
 */
int cma_listen_run(struct list_head *todo)
{
	struct cma_listen *l;
	struct ib_cm_id *ib;
	int ret = 0, err;

	while ((l = list_first_entry_or_null(todo, struct cma_listen, todo))) {
		list_del_init(&l->todo);
		ib = ib_cm_insert_listen(l->dev->device, cma_req_handler,
					 l->service_id);
		err = cma_listen_settle(l, ib);
		if (!ret)
			ret = err;
	}
	return ret;
}

/* Take @l off its listener; one with its IB CM id is now on @gone. */
static void cma_listen_unlink(struct cma_listen *l, struct list_head *gone)
{
	lockdep_assert_held(&cma.lock);
	list_del_init(&l->node);
	if (l->ib)
		list_add_tail(&l->todo, gone);
}

/**
 * cma_listen_free_all() - Destroy entries taken off their listeners
 * @gone: the entries
 *
 * Context: process context, sleeps; the caller holds no rdma_cm lock.
 */
void cma_listen_free_all(struct list_head *gone)
{
	struct cma_listen *l, *next;

	list_for_each_entry_safe(l, next, gone, todo)
		cma_listen_free(l);
}

/**
 * cma_listen_release() - Stop an id's IB CM listeners
 * @priv: the id, a listener or not
 *
 * Takes the id off the listeners devices are added to and destroys its
 * IB CM listeners (a shared one goes with its last user).
 *
 * Context: process context, sleeps; the caller holds no rdma_cm lock.
 */
void cma_listen_release(struct cma_id_priv *priv)
{
	struct cma_listen *l, *next;
	LIST_HEAD(gone);

	mutex_lock(&cma.lock);
	list_del_init(&priv->listen_node);
	list_for_each_entry_safe(l, next, &priv->listens, node)
		cma_listen_unlink(l, &gone);
	mutex_unlock(&cma.lock);
	cma_listen_free_all(&gone);
}

/**
 * cma_listen_plan_device() - A device added: plan its IB CM listeners
 * @dev: the device, just put on cma.devices
 * @todo: receives an entry per listener on no device; the caller runs
 *	  them with cma_listen_run() once it dropped cma.lock
 *
 * Called in the same hold of cma.lock that adds @dev to cma.devices, so a
 * listener starting at the same time either sees @dev there or is found
 * here, never both nor neither.
 *
 * Context: cma.lock held.
 */
void cma_listen_plan_device(struct cma_device *dev, struct list_head *todo)
{
	struct cma_id_priv *priv;

	lockdep_assert_held(&cma.lock);
	if (!cma_listen_device_ok(dev))
		return;
	list_for_each_entry(priv, &cma.listeners, listen_node) {
		if (cma_id_state(priv) != RDMA_CM_LISTEN)
			continue;
		if (cma_listen_plan(priv, dev, todo))
			ibdev_warn(dev->device,
				   "no memory to listen on port %u\n",
				   ntohs(cma_addr_port(cma_src_addr(priv))));
	}
}

/**
 * cma_listen_drop_device() - A device goes: take its IB CM listeners off
 * @dev: the device, just taken off cma.devices
 * @gone: receives the entries to destroy with cma_listen_free_all()
 *
 * Only listeners on no device have entries on devices not their own; a
 * listener bound to @dev loses its entry when it is told of the removal
 * (cma_id_remove()).
 *
 * Context: cma.lock held.
 */
void cma_listen_drop_device(struct cma_device *dev, struct list_head *gone)
{
	struct cma_listen *l, *next;
	struct cma_id_priv *priv;

	lockdep_assert_held(&cma.lock);
	list_for_each_entry(priv, &cma.listeners, listen_node)
		list_for_each_entry_safe(l, next, &priv->listens, node)
			if (l->dev == dev)
				cma_listen_unlink(l, gone);
}

/*
 * Make @priv's IB CM listeners: on its device, or on every device that
 * takes one (and from now on on each device added). Failing, none is
 * left. An id that left LISTEN meanwhile (its device went) gets none.
 */
static int cma_listen_start(struct cma_id_priv *priv)
{
	struct cma_device *dev;
	LIST_HEAD(todo);
	int ret = 0, err;

	mutex_lock(&cma.lock);
	if (cma_id_state(priv) != RDMA_CM_LISTEN) {
		mutex_unlock(&cma.lock);
		return 0;
	}
	if (priv->dev) {
		ret = cma_listen_plan(priv, priv->dev, &todo);
	} else {
		list_add_tail(&priv->listen_node, &cma.listeners);
		list_for_each_entry(dev, &cma.devices, node) {
			if (!cma_listen_device_ok(dev))
				continue;
			ret = cma_listen_plan(priv, dev, &todo);
			if (ret)
				break;
		}
	}
	mutex_unlock(&cma.lock);
	err = cma_listen_run(&todo);
	if (!ret)
		ret = err;
	if (ret)
		cma_listen_release(priv);
	return ret;
}

/**
 * cma_h_listen() - Cell ADDR_BOUND x listen
 * @priv: the id, bound
 * @in: @in->backlog
 *
 * The port becomes the listener's alone (cma_bind_listen()), then its IB
 * CM listeners are made. From the moment the id is in LISTEN, REQs may
 * reach it.
 *
 * Return: 0; the errnos of cma_bind_listen() and cma_listen_run();
 * -ENOMEM; -EOPNOTSUPP on a device without IB CM (iWARP: not built).
 * Failing, the id goes back to ADDR_BOUND with no IB CM listener.
 */
int cma_h_listen(struct cma_id_priv *priv, struct cma_in *in)
{
	int ret;

	ret = cma_bind_listen(priv);
	if (ret)
		return ret;
	if (priv->dev && !rdma_cap_ib_cm(priv->id.device, priv->id.port_num))
		return -EOPNOTSUPP;
	priv->backlog = in->backlog;
	ret = cma_listen_start(priv);
	if (ret)
		priv->backlog = 0;
	return ret;
}

/**
 * rdma_listen() - Take connection requests on an id's address
 * @id: a bound id, or an IDLE one (it is bound to the IPv4 wildcard and
 *	an ephemeral port first, and stays bound if listening fails)
 * @backlog: kept for the owner; requests are not counted against it on
 *	     IB and RoCE (as in 6.1)
 *
 * An id bound to a device listens there; one bound to a wildcard address
 * listens on every device that speaks the IB CM, now and later. Each
 * request the listener takes is a new id in CONNECT whose handler and
 * context are the listener's: its owner hears CONNECT_REQUEST on the new
 * id and calls rdma_accept() or rdma_reject() on it, or returns non-zero
 * to refuse it. The listener itself hears nothing, but DEVICE_REMOVAL
 * when bound to a device that goes. A listener has its port to itself:
 * an id bound with rdma_set_reuseaddr() loses that option here.
 *
 * Context: process context, sleeps.
 * Return: 0; -EINVAL in a state other than IDLE and ADDR_BOUND; the
 * errnos of rdma_bind_addr() for the implicit bind; -EADDRNOTAVAIL or
 * -EADDRINUSE when another id on the port overlaps ours; -EOPNOTSUPP on
 * iWARP; -ENOMEM; -EINVAL when another ib_cm user listens on the
 * service ID.
 */
int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct cma_id_priv *priv = to_cma_id(id);
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct cma_in bind = {
		.input = CMA_IN_BIND, .addr = (struct sockaddr *)&any,
	};
	struct cma_in in = { .input = CMA_IN_LISTEN, .backlog = backlog };
	int ret;

	if (cma_id_state(priv) == RDMA_CM_IDLE) {
		ret = cma_table_run(priv, &bind);
		if (ret)
			return ret;
	}
	return cma_table_run(priv, &in);
}
EXPORT_SYMBOL(rdma_listen);

/* For KUnit: how many IB CM listeners @priv has. */
int cma_listen_count(struct cma_id_priv *priv)
{
	struct cma_listen *l;
	int n = 0;

	mutex_lock(&cma.lock);
	list_for_each_entry(l, &priv->listens, node)
		n += !!l->ib;
	mutex_unlock(&cma.lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(cma_listen_count);

/* For KUnit: @priv's IB CM listener on @device, or NULL. */
struct ib_cm_id *cma_listen_ib(struct cma_id_priv *priv,
			       struct ib_device *device)
{
	struct ib_cm_id *ib = NULL;
	struct cma_listen *l;

	mutex_lock(&cma.lock);
	list_for_each_entry(l, &priv->listens, node)
		if (l->dev->device == device)
			ib = l->ib;
	mutex_unlock(&cma.lock);
	return ib;
}
EXPORT_SYMBOL_IF_KUNIT(cma_listen_ib);
