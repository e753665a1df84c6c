// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ids on a bond whose active port changed: ADDR_CHANGE, when the bond's
 * hardware address moved with it.
 */

#include <kunit/visibility.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "cma/cma.h"

/*
 * An id keeps the hardware address of the net device its address
 * resolved to (dev_addr.src_dev_addr). A bond may change its own address
 * when another port becomes active (fail_over_mac=active): the id's
 * connection then sends from an address the bond no longer owns. 6.1
 * tells the owner with ADDR_CHANGE, status 0, in whatever state the id
 * is, and leaves the state alone: what to do (reconnect, carry on) is
 * the owner's choice. Only a bonding failover triggers the check; a bond
 * whose address did not move tells nobody.
 *
 * The scan walks every device's ids under cma.lock and queues one work
 * item per id told, holding a reference on the id until it ran.
 */

struct cma_addr_change {
	struct work_struct	work;
	struct cma_id_priv	*priv;
};

static void cma_netdev_work(struct work_struct *work)
{
	struct cma_addr_change *change =
		container_of(work, struct cma_addr_change, work);
	struct cma_id_priv *priv = change->priv;
	enum rdma_cm_state state;

	kfree(change);
	mutex_lock(&priv->handler_mutex);
	state = cma_id_state(priv);
	if (state != RDMA_CM_DESTROYING && state != RDMA_CM_DEVICE_REMOVAL &&
	    cma_event_simple(priv, RDMA_CM_EVENT_ADDR_CHANGE, 0)) {
		cma_id_put(priv);
		cma_id_destroy_unlock(priv);
		return;
	}
	mutex_unlock(&priv->handler_mutex);
	cma_id_put(priv);
}

/* Does @priv sit on @ndev with a hardware address @ndev no longer has? */
static bool cma_netdev_moved(const struct cma_id_priv *priv,
			     const struct net_device *ndev)
{
	const struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;

	return dev_addr->bound_dev_if == ndev->ifindex &&
	       net_eq(dev_addr->net, dev_net(ndev)) &&
	       memcmp(dev_addr->src_dev_addr, ndev->dev_addr, ndev->addr_len);
}

/**
 * cma_netdev_failover() - A bond's active port changed
 * @ndev: the bond
 *
 * Queues ADDR_CHANGE for every id bound to @ndev (in its namespace) whose
 * source hardware address is not @ndev's any more.
 *
 * Context: process context; takes cma.lock.
 * Return: how many ids will be told, or -ENOMEM (the ids counted so far
 * are told; the rest are not).
 */
int cma_netdev_failover(struct net_device *ndev)
{
	struct cma_addr_change *change;
	struct cma_id_priv *priv;
	struct cma_device *dev;
	int told = 0;

	mutex_lock(&cma.lock);
	list_for_each_entry(dev, &cma.devices, node) {
		list_for_each_entry(priv, &dev->ids, dev_node) {
			if (!cma_netdev_moved(priv, ndev))
				continue;
			change = kmalloc(sizeof(*change), GFP_KERNEL);
			if (!change) {
				told = -ENOMEM;
				goto out;
			}
			pr_info("%s changed its address under id %p\n",
				netdev_name(ndev), &priv->id);
			cma_id_get(priv);
			change->priv = priv;
			INIT_WORK(&change->work, cma_netdev_work);
			queue_work(cma_wq, &change->work);
			told++;
		}
	}
out:
	mutex_unlock(&cma.lock);
	return told;
}
EXPORT_SYMBOL_IF_KUNIT(cma_netdev_failover);

static int cma_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ctx)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ctx);

	if (event != NETDEV_BONDING_FAILOVER || !netif_is_bond_master(ndev))
		return NOTIFY_DONE;
	return notifier_from_errno(min(cma_netdev_failover(ndev), 0));
}

static struct notifier_block cma_netdev_nb = {
	.notifier_call = cma_netdev_event,
};

/*
 * The notifier takes cma.lock under rtnl, so nothing may take rtnl under
 * cma.lock. Bonds are rare in tests: show lockdep that order once at
 * load, so that a path taking them the other way is reported even where
 * no bond ever fails over.
 */
int cma_netdev_init(void)
{
	if (IS_ENABLED(CONFIG_LOCKDEP)) {
		rtnl_lock();
		mutex_lock(&cma.lock);
		mutex_unlock(&cma.lock);
		rtnl_unlock();
	}
	return register_netdevice_notifier(&cma_netdev_nb);
}

void cma_netdev_exit(void)
{
	unregister_netdevice_notifier(&cma_netdev_nb);
}
