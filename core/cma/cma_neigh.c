// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ids whose peer's neighbour entry changes: a RoCE id routed to an IP address
 * hears UNREACHABLE when that address moves to another MAC.
 */

#include <kunit/visibility.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/spinlock.h>
#include <net/neighbour.h>
#include <net/netevent.h>

#include "cma/cma.h"

/*
 * A RoCE route carries the peer's MAC, learnt from the neighbour table
 * when the address was resolved. If the neighbour entry later changes
 * (the peer moved, a failover answered ARP from another port), the
 * connection's packets go to a MAC nobody answers from: 6.1 tells the
 * owner at once with UNREACHABLE (-ETIMEDOUT) rather than letting the QP
 * time out. Ids enter the watch when rdma_resolve_route() builds their
 * RoCE route and leave it when destroyed; the netevent notifier (atomic
 * context) looks them up by the net device and the peer's address and
 * queues the id's net_work for those whose MAC differs from the new one.
 *
 * The watch is a hash of ids by (ifindex, peer address) under
 * cma_neigh_lock, a spinlock (irqsave: the notifier runs in atomic context).
 */

#define CMA_NEIGH_BITS	8

static DEFINE_HASHTABLE(cma_neigh_ids, CMA_NEIGH_BITS);
static DEFINE_SPINLOCK(cma_neigh_lock);

/* The bucket key of an interface and an IPv4 or IPv6 address. */
static u32 cma_neigh_key(int ifindex, const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET6)
		return jhash(&((const struct sockaddr_in6 *)addr)->sin6_addr,
			     sizeof(struct in6_addr), ifindex);
	return jhash_1word((__force u32)((const struct sockaddr_in *)addr)->sin_addr.s_addr,
			   ifindex);
}

/* Is @addr (with no port) the address in @key, a neighbour's? */
static bool cma_neigh_same(const struct sockaddr *addr, int family,
			   const void *key)
{
	if (addr->sa_family != family)
		return false;
	if (family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)addr)->sin6_addr,
			       key, sizeof(struct in6_addr));
	return !memcmp(&((const struct sockaddr_in *)addr)->sin_addr.s_addr,
		       key, sizeof(__be32));
}

/**
 * cma_neigh_watch() - Watch the neighbour entry of an id's peer
 * @priv: an id whose RoCE route was just built (its net device and
 *	  destination are set and stay so from now on)
 *
 * Context: process context.
 */
void cma_neigh_watch(struct cma_id_priv *priv)
{
	const struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	u32 key = cma_neigh_key(dev_addr->bound_dev_if, cma_dst_addr(priv));
	unsigned long flags;

	spin_lock_irqsave(&cma_neigh_lock, flags);
	if (hlist_unhashed(&priv->neigh_node))
		hash_add(cma_neigh_ids, &priv->neigh_node, key);
	spin_unlock_irqrestore(&cma_neigh_lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(cma_neigh_watch);

/**
 * cma_neigh_unwatch() - Stop watching an id's peer
 * @priv: the id, watched or not
 *
 * Context: process context.
 */
void cma_neigh_unwatch(struct cma_id_priv *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&cma_neigh_lock, flags);
	hash_del(&priv->neigh_node);
	spin_unlock_irqrestore(&cma_neigh_lock, flags);
}

/* The id's net_work: UNREACHABLE, unless the id is going. */
static void cma_neigh_work(struct work_struct *work)
{
	struct cma_id_priv *priv = container_of(work, struct cma_id_priv,
						id.net_work);
	enum rdma_cm_state state;

	mutex_lock(&priv->handler_mutex);
	state = cma_id_state(priv);
	if (state != RDMA_CM_DESTROYING && state != RDMA_CM_DEVICE_REMOVAL &&
	    cma_event_simple(priv, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT)) {
		cma_id_put(priv);
		cma_id_destroy_unlock(priv);
		return;
	}
	mutex_unlock(&priv->handler_mutex);
	cma_id_put(priv);
}

/**
 * cma_neigh_init_id() - Prepare a new id for the watch
 * @priv: the id
 */
void cma_neigh_init_id(struct cma_id_priv *priv)
{
	INIT_HLIST_NODE(&priv->neigh_node);
	INIT_WORK(&priv->id.net_work, cma_neigh_work);
}

/**
 * cma_neigh_update() - A neighbour entry changed
 * @neigh: the entry: its table's family, its address, its net device and
 *	   its hardware address
 *
 * Queues the net_work of every watched id routed through the entry's
 * device to its address whose MAC is not the entry's new one.
 *
 * Context: any (the netevent notifier is atomic).
 * Return: how many ids were told.
 */
int cma_neigh_update(const struct neighbour *neigh)
{
	int family = neigh->tbl->family, ifindex = neigh->dev->ifindex;
	struct sockaddr_storage ss = { .ss_family = family };
	struct cma_id_priv *priv;
	unsigned long flags;
	int told = 0;
	u32 key;

	if (family == AF_INET6)
		memcpy(&((struct sockaddr_in6 *)&ss)->sin6_addr,
		       neigh->primary_key, sizeof(struct in6_addr));
	else if (family == AF_INET)
		memcpy(&((struct sockaddr_in *)&ss)->sin_addr.s_addr,
		       neigh->primary_key, sizeof(__be32));
	else
		return 0;
	key = cma_neigh_key(ifindex, (struct sockaddr *)&ss);
	spin_lock_irqsave(&cma_neigh_lock, flags);
	hash_for_each_possible(cma_neigh_ids, priv, neigh_node, key) {
		const struct rdma_dev_addr *dev_addr =
			&priv->id.route.addr.dev_addr;

		if (dev_addr->bound_dev_if != ifindex ||
		    !cma_neigh_same(cma_dst_addr(priv), family,
				    neigh->primary_key) ||
		    !memcmp(dev_addr->dst_dev_addr, neigh->ha,
			    neigh->dev->addr_len))
			continue;
		cma_id_get(priv);
		if (queue_work(cma_wq, &priv->id.net_work))
			told++;
		else
			cma_id_put(priv);
	}
	spin_unlock_irqrestore(&cma_neigh_lock, flags);
	return told;
}
EXPORT_SYMBOL_IF_KUNIT(cma_neigh_update);

static int cma_neigh_event(struct notifier_block *nb, unsigned long event,
			   void *ctx)
{
	if (event == NETEVENT_NEIGH_UPDATE)
		cma_neigh_update(ctx);
	return NOTIFY_DONE;
}

static struct notifier_block cma_neigh_nb = {
	.notifier_call = cma_neigh_event,
};

int cma_neigh_init(void)
{
	return register_netevent_notifier(&cma_neigh_nb);
}

void cma_neigh_exit(void)
{
	unregister_netevent_notifier(&cma_neigh_nb);
}
