// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_listen(): a listener's IB CM (or iw_cm) listeners, one per device it
 * serves, kept as devices come and go.
 */

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
 *
 * On an iWARP device an entry holds an iw_cm listener instead, the
 * listener's own (cma_iw_listen()), made and destroyed at the same steps
 * and under the same rules. Only TCP port space listeners listen there.
 */

/**
 * struct cma_listen - one IB CM listener of an rdma_cm listener
 * @node: in the listener's listens (cma.lock); empty once taken off
 * @todo: on the to-do list of whoever works on the entry without the lock
 * @dev: the device, referenced: its removal waits for the entry to go
 * @priv: on an iWARP device, the listener, referenced: its iw_cm
 *	  listener's context is the listener itself, which must outlive it
 *	  (NULL elsewhere: ib_cm's REQs find their listener by its port)
 * @ib: the IB CM listener; NULL until the planner made it (cma.lock)
 * @iw: on an iWARP device, the iw_cm listener instead (as @ib)
 * @service_id: the service ID it listens for
 * @row: for a listener on no device, its row in resource tracking on
 *	 @dev, listed once @ib is in place (row.priv is NULL otherwise)
 */
struct cma_listen {
	struct list_head	node;
	struct list_head	todo;
	struct cma_device	*dev;
	struct cma_id_priv	*priv;
	struct ib_cm_id		*ib;
	struct iw_cm_id		*iw;
	__be64			service_id;
	struct cma_row		row;
};

/* Is @dev an iWARP device (its listeners are iw_cm's)? */
static bool cma_listen_iwarp(struct cma_device *dev)
{
	return rdma_cap_iw_cm(dev->device, rdma_start_port(dev->device));
}

/*
 * Can @dev take a listener of @priv: does one of its ports speak the IB
 * CM, or is it iWARP and @priv in the TCP port space?
 */
static bool cma_listen_device_ok(struct cma_device *dev,
				 struct cma_id_priv *priv)
{
	u32 p;

	if (cma_listen_iwarp(dev))
		return priv->id.ps == RDMA_PS_TCP;
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
	if (cma_listen_iwarp(dev)) {
		cma_id_get(priv);
		l->priv = priv;
	}
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
	if (l->iw)
		iw_destroy_cm_id(l->iw);
	if (l->priv)
		cma_id_put(l->priv);
	cma_device_put(l->dev);
	kfree(l);
}

/*
 * The planner's second step: @ib or @iw (NULL on error) for @l. An entry
 * taken off meanwhile, or one that failed, goes. Return: @err.
 */
static int cma_listen_settle(struct cma_listen *l, struct ib_cm_id *ib,
			     struct iw_cm_id *iw, int err)
{
	bool linked;

	mutex_lock(&cma.lock);
	linked = !list_empty(&l->node);
	if (linked && !err) {
		l->ib = ib;
		l->iw = iw;
		if (l->row.priv)
			cma_res_add(&l->row, l->dev->device);
		mutex_unlock(&cma.lock);
		return 0;
	}
	if (linked)
		list_del_init(&l->node);
	mutex_unlock(&cma.lock);
	l->ib = ib;
	l->iw = iw;
	cma_listen_free(l);
	return err;
}

/* Make the IB CM or iw_cm listener of @l into @ib or @iw. Return: errno. */
static int cma_listen_make(struct cma_listen *l, struct ib_cm_id **ib,
			   struct iw_cm_id **iw)
{
	struct ib_cm_id *ib_id;
	struct iw_cm_id *iw_id;

	if (cma_listen_iwarp(l->dev)) {
		iw_id = cma_iw_listen(l->priv, l->dev->device);
		if (IS_ERR(iw_id))
			return PTR_ERR(iw_id);
		*iw = iw_id;
		return 0;
	}
	ib_id = ib_cm_insert_listen(l->dev->device, cma_req_handler,
				    l->service_id);
	if (IS_ERR(ib_id))
		return PTR_ERR(ib_id);
	*ib = ib_id;
	return 0;
}

/**
 * cma_listen_run() - Make the IB CM listeners of planned entries
 * @todo: the entries, planned under cma.lock by the caller; emptied
 *
 * Context: process context, sleeps; the caller holds no rdma_cm lock.
 * Return: 0, or the first error of ib_cm_insert_listen() (-EINVAL: some
 * other ib_cm user listens on the service ID) or cma_iw_listen(); an
 * entry that failed is gone, the others are in place.
 */
int cma_listen_run(struct list_head *todo)
{
	struct cma_listen *l;
	struct ib_cm_id *ib;
	struct iw_cm_id *iw;
	int ret = 0, err;

	while ((l = list_first_entry_or_null(todo, struct cma_listen, todo))) {
		list_del_init(&l->todo);
		ib = NULL;
		iw = NULL;
		err = cma_listen_make(l, &ib, &iw);
		err = cma_listen_settle(l, ib, iw, err);
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
	if (l->ib || l->iw)
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
	list_for_each_entry(priv, &cma.listeners, listen_node) {
		if (cma_id_state(priv) != RDMA_CM_LISTEN ||
		    !cma_listen_device_ok(dev, priv))
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
 * takes one (and, from now on, on each device added). Failing, none is
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
			if (!cma_listen_device_ok(dev, priv))
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
 * -ENOMEM; -EOPNOTSUPP on a device it cannot listen on (neither CM, or
 * iWARP outside the TCP port space). Failing, the id goes back to
 * ADDR_BOUND with no IB CM or iw_cm listener.
 */
int cma_h_listen(struct cma_id_priv *priv, struct cma_in *in)
{
	int ret;

	ret = cma_bind_listen(priv);
	if (ret)
		return ret;
	if (priv->dev && !rdma_cap_ib_cm(priv->id.device, priv->id.port_num) &&
	    !(cma_iw_is(priv) && priv->id.ps == RDMA_PS_TCP))
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
 * @backlog: requests not yet handled on iWARP (iw_cm's; 0 takes its
 *	     default); not counted on IB and RoCE (as in 6.1)
 *
 * An id bound to a device listens there; one bound to a wildcard address
 * listens on every device that speaks the IB CM, now and later, and on
 * every iWARP device if it is in the TCP port space. Each
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
 * a device it cannot listen on; -ENOMEM; -EINVAL when another ib_cm user
 * listens on the service ID, or for a negative backlog on iWARP.
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
		n += l->ib || l->iw;
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
