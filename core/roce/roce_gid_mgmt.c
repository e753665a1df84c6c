// SPDX-License-Identifier: GPL-2.0-only
/* RoCE GIDs derived from net devices: their MACs and IPv4/IPv6 addresses. */

#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/bonding.h>
#include <net/if_inet6.h>
#include <net/net_namespace.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"
#include "roce/roce.h"

/*
 * How it works: a RoCE port is tied to one net device (the "port netdev",
 * ib_device_get_netdev()). Its GID table holds the default (link-local, from
 * the MAC) GIDs of that netdev or of the bond it is enslaved to, and one GID
 * per IP address of the netdev and of its upper devices (VLANs, the bond),
 * each once per GID type the port supports.
 *
 * The notifiers below run under RTNL or in atomic context, so they only
 * describe what to do and queue it on roce_wq, an ordered workqueue: GID
 * changes happen in the order the events came. Each queued item holds a
 * reference on the net devices it names until it has run.
 *
 * The work visits the RoCE ports of registered devices under
 * ib_devices_rwsem (read), so unregistration (which takes it for writing
 * before the GID cache is torn down) waits for a running item and later
 * items no longer see the device. It never takes RTNL: net device
 * unregistration waits under RTNL for the references the items hold.
 */
static struct workqueue_struct *roce_wq;

/* ---- GID types ----------------------------------------------------------- */

/* Which GID type a port gets for which RoCE capability. */
static const struct {
	bool (*port_has)(const struct ib_device *dev, u32 port);
	enum ib_gid_type type;
} roce_gid_types[] = {
	{ rdma_protocol_roce_eth_encap, IB_GID_TYPE_ROCE },
	{ rdma_protocol_roce_udp_encap, IB_GID_TYPE_ROCE_UDP_ENCAP },
};

/**
 * roce_gid_type_mask_support() - The GID types a port's table holds
 * @ib_dev: the device
 * @port: the port number
 *
 * Exported, as in 6.1, for the RDMA CM (core/cma/), which picks the GID
 * type of a RoCE route with it; declared in core/roce/roce.h.
 *
 * Context: Any context.
 * Return: a bit (1UL << IB_GID_TYPE_*) per GID type: RoCE v1 and/or v2 for
 * a RoCE port, IB for any other port.
 */
unsigned long roce_gid_type_mask_support(struct ib_device *ib_dev, u32 port)
{
	unsigned long mask = 0;
	unsigned int i;

	if (!rdma_protocol_roce(ib_dev, port))
		return BIT(IB_GID_TYPE_IB);
	for (i = 0; i < ARRAY_SIZE(roce_gid_types); i++)
		if (roce_gid_types[i].port_has(ib_dev, port))
			mask |= BIT(roce_gid_types[i].type);
	return mask;
}
EXPORT_SYMBOL(roce_gid_type_mask_support);

/* Add or delete @gid of @ndev on @port, once per supported GID type. */
static void roce_gid_update(struct ib_device *ib_dev, u32 port,
			    union ib_gid *gid, struct net_device *ndev,
			    bool add)
{
	unsigned long mask = roce_gid_type_mask_support(ib_dev, port);
	struct ib_gid_attr attr = {};
	unsigned int type;

	RCU_INIT_POINTER(attr.ndev, ndev);
	for_each_set_bit(type, &mask, IB_GID_TYPE_SIZE) {
		attr.gid_type = type;
		if (add)
			ib_cache_gid_add(ib_dev, port, gid, &attr);
		else
			ib_cache_gid_del(ib_dev, port, gid, &attr);
	}
}

static void roce_default_gids_set(struct ib_device *ib_dev, u32 port,
				  struct net_device *ndev,
				  enum ib_cache_gid_default_mode mode)
{
	ib_cache_gid_set_default_gid(ib_dev, port, ndev,
				     roce_gid_type_mask_support(ib_dev, port),
				     mode);
}

/* ---- The IP addresses of a net device ------------------------------------ */

/*
 * Addresses are read under RCU or the inet6_dev lock, where the cache (which
 * may sleep) cannot be called: they are copied to a list of GIDs first.
 */
struct roce_gid_node {
	struct list_head	node;
	union ib_gid		gid;
};

/* Allocation may fail in atomic context; that address is then skipped. */
static union ib_gid *roce_gid_list_push(struct list_head *list)
{
	struct roce_gid_node *n = kzalloc(sizeof(*n), GFP_ATOMIC);

	if (!n)
		return NULL;
	list_add_tail(&n->node, list);
	return &n->gid;
}

static void roce_gid_list_collect_v4(struct net_device *ndev,
				     struct list_head *list)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	union ib_gid *gid;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev) {
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			gid = roce_gid_list_push(list);
			if (gid)
				ipv6_addr_set_v4mapped(ifa->ifa_address,
						       (struct in6_addr *)gid->raw);
		}
	}
	rcu_read_unlock();
}

static void roce_gid_list_collect_v6(struct net_device *ndev,
				     struct list_head *list)
{
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;
	union ib_gid *gid;

	idev = in6_dev_get(ndev);
	if (!idev)
		return;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifp, &idev->addr_list, if_list) {
		gid = roce_gid_list_push(list);
		if (gid)
			memcpy(gid->raw, &ifp->addr, sizeof(gid->raw));
	}
	read_unlock_bh(&idev->lock);
	in6_dev_put(idev);
}

/* Add a GID for every IPv4 and IPv6 address of @ndev to @port. */
static void roce_ips_add(struct ib_device *ib_dev, u32 port,
			 struct net_device *ndev)
{
	struct roce_gid_node *n, *tmp;
	LIST_HEAD(gids);

	if (ndev->reg_state >= NETREG_UNREGISTERING)
		return;
	roce_gid_list_collect_v4(ndev, &gids);
	if (IS_ENABLED(CONFIG_IPV6))
		roce_gid_list_collect_v6(ndev, &gids);

	list_for_each_entry_safe(n, tmp, &gids, node) {
		roce_gid_update(ib_dev, port, &n->gid, ndev, true);
		list_del(&n->node);
		kfree(n);
	}
}

/* ---- How a net device relates to a port's net device --------------------- */

/* Where a net device stands in the bond an upper device may be. */
enum roce_bond_role {
	ROCE_BOND_ACTIVE,	/* the bond's active slave */
	ROCE_BOND_INACTIVE,	/* a slave, but not the active one */
	ROCE_BOND_NONE,		/* no bond, or a bond without active slave */
};

static enum roce_bond_role roce_bond_role_rcu(struct net_device *slave,
					      struct net_device *master)
{
	struct net_device *active;

	if (!master || !netif_is_bond_master(master))
		return ROCE_BOND_NONE;
	active = bond_option_active_slave_get_rcu(netdev_priv(master));
	if (!active)
		return ROCE_BOND_NONE;
	return active == slave ? ROCE_BOND_ACTIVE : ROCE_BOND_INACTIVE;
}

/*
 * The tests below decide whether an event about @ndev concerns a port whose
 * net device is @port_ndev (NULL when the port has none).
 */
typedef bool (*roce_match_fn)(struct net_device *port_ndev,
			      struct net_device *ndev);

/* @ndev's addresses belong in the table: @port_ndev itself, or an upper
 * device of it (unless @port_ndev is an inactive bond slave).
 */
static bool roce_match_ip_owner(struct net_device *port_ndev,
				struct net_device *ndev)
{
	struct net_device *real;
	bool match;

	if (!port_ndev)
		return false;
	rcu_read_lock();
	real = rdma_vlan_dev_real_dev(ndev) ?: ndev;
	match = real == port_ndev ||
		(netdev_has_upper_dev_all_rcu(port_ndev, ndev) &&
		 roce_bond_role_rcu(port_ndev, real) != ROCE_BOND_INACTIVE);
	rcu_read_unlock();
	return match;
}

/* @port_ndev is an inactive slave of its bond (@ndev is not looked at). */
static bool roce_match_inactive_slave(struct net_device *port_ndev,
				      struct net_device *ndev)
{
	bool match;

	if (!port_ndev)
		return false;
	rcu_read_lock();
	match = roce_bond_role_rcu(port_ndev,
				   netdev_master_upper_dev_get_rcu(port_ndev)) ==
		ROCE_BOND_INACTIVE;
	rcu_read_unlock();
	return match;
}

/* @ndev is a bond that @port_ndev is (or is becoming) a lower device of. */
static bool roce_match_bond_upper(struct net_device *port_ndev,
				  struct net_device *ndev)
{
	bool match;

	if (!port_ndev)
		return false;
	rcu_read_lock();
	match = netif_is_bond_master(ndev) &&
		netdev_has_upper_dev_all_rcu(port_ndev, ndev);
	rcu_read_unlock();
	return match;
}

/*
 * @ndev gives the port its default GIDs: the port's own net device unless
 * that is a bond slave, in which case the bond does.
 */
static bool roce_match_default_owner(struct net_device *port_ndev,
				     struct net_device *ndev)
{
	if (!port_ndev)
		return false;
	if (ndev == port_ndev)
		return !netif_is_bond_slave(port_ndev);
	return roce_match_bond_upper(port_ndev, ndev);
}

/* @ndev is @port_ndev or one of its upper devices. */
static bool roce_match_self_or_upper(struct net_device *port_ndev,
				     struct net_device *ndev)
{
	bool match = port_ndev == ndev;

	if (!port_ndev)
		return false;
	if (!match) {
		rcu_read_lock();
		match = netdev_has_upper_dev_all_rcu(port_ndev, ndev);
		rcu_read_unlock();
	}
	return match;
}

/* Every RoCE port, with or without a net device. */
static bool roce_match_any(struct net_device *port_ndev,
			   struct net_device *ndev)
{
	return true;
}

/* ---- Visiting RoCE ports ------------------------------------------------- */

/* What to do to a port that matched; @arg is the visitor's. */
typedef void (*roce_apply_fn)(struct ib_device *ib_dev, u32 port,
			      struct net_device *port_ndev, void *arg);

static void roce_device_visit(struct ib_device *ib_dev, roce_match_fn match,
			      struct net_device *match_ndev,
			      roce_apply_fn apply, void *arg)
{
	struct net_device *port_ndev;
	u32 port;

	rdma_for_each_port(ib_dev, port) {
		if (!rdma_protocol_roce(ib_dev, port))
			continue;
		port_ndev = ib_device_get_netdev(ib_dev, port);
		if (match(port_ndev, match_ndev))
			apply(ib_dev, port, port_ndev, arg);
		dev_put(port_ndev);
	}
}

/* Apply @apply to every matching RoCE port of every registered device. */
static void roce_all_devices_visit(roce_match_fn match,
				   struct net_device *match_ndev,
				   roce_apply_fn apply, void *arg)
{
	struct ib_device *ib_dev;
	unsigned long index;

	down_read(&ib_devices_rwsem);
	xa_for_each_marked(&ib_devices, index, ib_dev, IB_DEVICE_REGISTERED)
		roce_device_visit(ib_dev, match, match_ndev, apply, arg);
	up_read(&ib_devices_rwsem);
}

/* ---- What a net device event does to a matching port --------------------- */

/*
 * @port_ndev is under a bond: its own default GIDs go (the bond's stand for
 * the port), unless a fresh look finds it an inactive slave.
 */
static void roce_slave_defaults_del(struct ib_device *ib_dev, u32 port,
				    struct net_device *port_ndev)
{
	struct net_device *master, *real;
	bool drop;

	rcu_read_lock();
	master = netdev_master_upper_dev_get_rcu(port_ndev);
	drop = master && netdev_has_upper_dev_all_rcu(port_ndev, master);
	if (drop) {
		real = rdma_vlan_dev_real_dev(master) ?: master;
		drop = roce_bond_role_rcu(port_ndev, real) !=
		       ROCE_BOND_INACTIVE;
	}
	rcu_read_unlock();

	if (drop)
		roce_default_gids_set(ib_dev, port, port_ndev,
				      IB_CACHE_GID_DEFAULT_MODE_DELETE);
}

/* The GID changes a step can make on a port, about a net device. */
enum roce_action {
	ROCE_ADD_IPS,		/* a GID per address of the net device */
	ROCE_DEL_IPS,		/* every GID of the net device */
	ROCE_ADD_DEFAULTS,	/* the net device's default GIDs */
	ROCE_DEL_DEFAULTS,
	ROCE_DEL_SLAVE_DEFAULTS, /* the port's own, when it joined a bond */
};

static void roce_act(struct ib_device *ib_dev, u32 port,
		     struct net_device *port_ndev, struct net_device *ndev,
		     enum roce_action action)
{
	switch (action) {
	case ROCE_ADD_IPS:
		roce_ips_add(ib_dev, port, ndev);
		break;
	case ROCE_DEL_IPS:
		ib_cache_gid_del_all_netdev_gids(ib_dev, port, ndev);
		break;
	case ROCE_ADD_DEFAULTS:
	case ROCE_DEL_DEFAULTS:
		roce_default_gids_set(ib_dev, port, ndev,
				      action == ROCE_ADD_DEFAULTS ?
				      IB_CACHE_GID_DEFAULT_MODE_SET :
				      IB_CACHE_GID_DEFAULT_MODE_DELETE);
		break;
	case ROCE_DEL_SLAVE_DEFAULTS:
		roce_slave_defaults_del(ib_dev, port, port_ndev);
		break;
	}
}

/* An upper device of @ndev, held, on a list built under RCU. */
struct roce_upper {
	struct list_head	node;
	struct net_device	*ndev;
};

static int roce_upper_collect(struct net_device *upper,
			      struct netdev_nested_priv *priv)
{
	struct roce_upper *u = kmalloc(sizeof(*u), GFP_ATOMIC);

	if (u) {
		dev_hold(upper);
		u->ndev = upper;
		list_add_tail(&u->node, priv->data);
	}
	return 0;
}

/*
 * @action for @ndev, then for each of its upper devices. The uppers are
 * collected (and held) under RCU first: the cache may sleep.
 */
static void roce_act_with_uppers(struct ib_device *ib_dev, u32 port,
				 struct net_device *ndev,
				 enum roce_action action)
{
	struct roce_upper *u, *tmp;
	LIST_HEAD(uppers);
	struct netdev_nested_priv priv = { .data = &uppers };

	rcu_read_lock();
	netdev_walk_all_upper_dev_rcu(ndev, roce_upper_collect, &priv);
	rcu_read_unlock();

	roce_act(ib_dev, port, NULL, ndev, action);
	list_for_each_entry_safe(u, tmp, &uppers, node) {
		roce_act(ib_dev, port, NULL, u->ndev, action);
		dev_put(u->ndev);
		list_del(&u->node);
		kfree(u);
	}
}

/* ---- Rescanning ---------------------------------------------------------- */

/**
 * rdma_roce_rescan_port() - Fill a RoCE port's GIDs from every net device
 * @ib_dev: the device
 * @port: the port number; nothing happens unless it is a RoCE port with a
 *	  net device
 *
 * Adds the default GIDs of the net device that provides them and a GID for
 * each address of the port's net device and its upper devices, looking at
 * the net devices of every namespace.
 *
 * Context: Process context, may sleep; takes RTNL, so the caller must not
 * hold it.
 */
void rdma_roce_rescan_port(struct ib_device *ib_dev, u32 port)
{
	struct net_device *port_ndev, *ndev;
	struct net *net;

	if (!rdma_protocol_roce(ib_dev, port))
		return;
	port_ndev = ib_device_get_netdev(ib_dev, port);
	if (!port_ndev)
		return;

	/* RTNL keeps the net devices and their uppers in place */
	rtnl_lock();
	down_read(&net_rwsem);
	for_each_net(net) {
		for_each_netdev(net, ndev) {
			if (roce_match_default_owner(port_ndev, ndev))
				roce_default_gids_set(ib_dev, port, ndev,
						      IB_CACHE_GID_DEFAULT_MODE_SET);
			if (roce_match_ip_owner(port_ndev, ndev))
				roce_ips_add(ib_dev, port, ndev);
		}
	}
	up_read(&net_rwsem);
	rtnl_unlock();
	dev_put(port_ndev);
}
EXPORT_SYMBOL_IF_KUNIT(rdma_roce_rescan_port);

/**
 * rdma_roce_rescan_device() - Fill a device's RoCE GIDs from the net devices
 * @ib_dev: the device
 *
 * For each RoCE port, adds the GIDs its net device and that net device's
 * upper devices call for (rdma_roce_rescan_port()). The core does this when
 * a device registers; a driver calls it when it learns later which net
 * device a port uses. Existing GIDs are kept.
 *
 * Context: Process context, may sleep; takes RTNL.
 */
void rdma_roce_rescan_device(struct ib_device *ib_dev)
{
	u32 port;

	rdma_for_each_port(ib_dev, port)
		rdma_roce_rescan_port(ib_dev, port);
}
EXPORT_SYMBOL(rdma_roce_rescan_device);

/* ---- Net device events --------------------------------------------------- */

/*
 * What one step of an event does: which ports (@match against the step's
 * match_ndev), what to them (@action about the step's ndev), and whether
 * for the upper devices of ndev as well.
 */
struct roce_step_kind {
	roce_match_fn		match;
	enum roce_action	action;
	bool			uppers;
};

static const struct roce_step_kind roce_leave_defaults_on_join = {
	roce_match_inactive_slave, ROCE_DEL_SLAVE_DEFAULTS };
static const struct roce_step_kind roce_add_defaults = {
	roce_match_default_owner, ROCE_ADD_DEFAULTS };
static const struct roce_step_kind roce_add_ips = {
	roce_match_ip_owner, ROCE_ADD_IPS };
static const struct roce_step_kind roce_del_ips_all_ports = {
	roce_match_any, ROCE_DEL_IPS };
static const struct roce_step_kind roce_del_ips = {
	roce_match_ip_owner, ROCE_DEL_IPS };
static const struct roce_step_kind roce_bond_add_defaults = {
	roce_match_bond_upper, ROCE_ADD_DEFAULTS };
static const struct roce_step_kind roce_bond_del_defaults = {
	roce_match_bond_upper, ROCE_DEL_DEFAULTS };
static const struct roce_step_kind roce_add_ips_uppers = {
	roce_match_ip_owner, ROCE_ADD_IPS, true };
static const struct roce_step_kind roce_del_ips_uppers = {
	roce_match_self_or_upper, ROCE_DEL_IPS, true };

#define ROCE_MAX_STEPS	3

/**
 * struct roce_step - one thing an event does to the GID tables
 * @kind: which ports (matched against @match_ndev) and what to do
 * @ndev: the net device the action is about, held while queued
 * @match_ndev: the net device ports are matched against, held while queued
 */
struct roce_step {
	const struct roce_step_kind	*kind;
	struct net_device		*ndev;
	struct net_device		*match_ndev;
};

/**
 * struct roce_ndev_work - the steps of one net device event, run in order
 * @work: on roce_wq
 * @steps: the steps; those after the last one used have no @kind
 */
struct roce_ndev_work {
	struct work_struct	work;
	struct roce_step	steps[ROCE_MAX_STEPS];
};

/* roce_apply_fn for the ports a step matched; @arg is the step. */
static void roce_step_apply(struct ib_device *ib_dev, u32 port,
			    struct net_device *port_ndev, void *arg)
{
	const struct roce_step *s = arg;

	if (s->kind->uppers)
		roce_act_with_uppers(ib_dev, port, s->ndev, s->kind->action);
	else
		roce_act(ib_dev, port, port_ndev, s->ndev, s->kind->action);
}

static void roce_ndev_work_run(struct work_struct *work)
{
	struct roce_ndev_work *w = container_of(work, struct roce_ndev_work,
						work);
	struct roce_step *s;

	for (s = w->steps; s < w->steps + ROCE_MAX_STEPS && s->kind; s++) {
		roce_all_devices_visit(s->kind->match, s->match_ndev,
				       roce_step_apply, s);
		dev_put(s->ndev);
		dev_put(s->match_ndev);
	}
	kfree(w);
}

/* Queue @steps; a step without net devices is about @ndev. */
static void roce_ndev_work_queue(const struct roce_step *steps,
				 struct net_device *ndev)
{
	struct roce_ndev_work *w = kmalloc(sizeof(*w), GFP_KERNEL);
	struct roce_step *s;

	if (!w) {
		netdev_warn(ndev, "RoCE GIDs not updated: out of memory\n");
		return;
	}
	memcpy(w->steps, steps, sizeof(w->steps));
	for (s = w->steps; s < w->steps + ROCE_MAX_STEPS && s->kind; s++) {
		s->ndev = s->ndev ?: ndev;
		s->match_ndev = s->match_ndev ?: ndev;
		dev_hold(s->ndev);
		dev_hold(s->match_ndev);
	}
	INIT_WORK(&w->work, roce_ndev_work_run);
	queue_work(roce_wq, &w->work);
}

/*
 * Builders: fill the steps for one event about @ndev; @info is the
 * notifier's argument. Return false when the event needs nothing.
 */
static bool roce_on_up(struct net_device *ndev, void *info,
		       struct roce_step *steps)
{
	steps[0].kind = &roce_leave_defaults_on_join;
	steps[1].kind = &roce_add_defaults;
	steps[2].kind = &roce_add_ips;
	return true;
}

static bool roce_on_unregister(struct net_device *ndev, void *info,
			       struct roce_step *steps)
{
	if (ndev->reg_state >= NETREG_UNREGISTERED)
		return false;
	steps[0].kind = &roce_del_ips_all_ports;
	return true;
}

/* A new MAC: the old GIDs go, the defaults and addresses come back. */
static bool roce_on_changeaddr(struct net_device *ndev, void *info,
			       struct roce_step *steps)
{
	steps[0].kind = &roce_del_ips;
	if (ndev->reg_state == NETREG_REGISTERED) {
		steps[1].kind = &roce_add_defaults;
		steps[2].kind = &roce_add_ips;
	}
	return true;
}

/*
 * @ndev got or lost an upper device. Linking to a bond moves the default
 * GIDs from the slave to the bond and adds the bond's addresses; unlinking
 * drops the addresses of the former upper device and its uppers and re-adds
 * @ndev's own.
 */
static bool roce_on_changeupper(struct net_device *ndev, void *info,
				struct roce_step *steps)
{
	struct netdev_notifier_changeupper_info *cu =
		container_of((struct netdev_notifier_info *)info,
			     struct netdev_notifier_changeupper_info, info);

	if (!cu->linking) {
		steps[0] = (struct roce_step){ &roce_del_ips_uppers,
					       cu->upper_dev, NULL };
		steps[1].kind = &roce_add_ips;
		return true;
	}
	steps[0] = (struct roce_step){ &roce_bond_del_defaults, ndev,
				       cu->upper_dev };
	steps[1] = (struct roce_step){ &roce_bond_add_defaults, cu->upper_dev,
				       cu->upper_dev };
	steps[2] = (struct roce_step){ &roce_add_ips_uppers, cu->upper_dev,
				       cu->upper_dev };
	return true;
}

/* The bond @ndev changed its active slave. */
static bool roce_on_bond_failover(struct net_device *ndev, void *info,
				  struct roce_step *steps)
{
	steps[0].kind = &roce_del_ips_uppers;
	steps[1].kind = &roce_bond_add_defaults;
	steps[2].kind = &roce_add_ips_uppers;
	return true;
}

static const struct {
	unsigned long event;
	bool (*build)(struct net_device *ndev, void *info,
		      struct roce_step *steps);
} roce_ndev_events[] = {
	{ NETDEV_REGISTER,		roce_on_up },
	{ NETDEV_UP,			roce_on_up },
	{ NETDEV_UNREGISTER,		roce_on_unregister },
	{ NETDEV_CHANGEADDR,		roce_on_changeaddr },
	{ NETDEV_CHANGEUPPER,		roce_on_changeupper },
	{ NETDEV_BONDING_FAILOVER,	roce_on_bond_failover },
};

/* Netdevice notifier: RTNL held, process context. */
static int roce_netdevice_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct roce_step steps[ROCE_MAX_STEPS] = {};
	unsigned int i;

	if (ndev->type != ARPHRD_ETHER)
		return NOTIFY_DONE;
	for (i = 0; i < ARRAY_SIZE(roce_ndev_events); i++) {
		if (roce_ndev_events[i].event != event)
			continue;
		if (roce_ndev_events[i].build(ndev, ptr, steps))
			roce_ndev_work_queue(steps, ndev);
		break;
	}
	return NOTIFY_DONE;
}

/* ---- Address events ------------------------------------------------------ */

/**
 * struct roce_addr_work - an IP address that came or went
 * @work: on roce_wq
 * @gid: the address as a GID
 * @ndev: the net device it is on, held while queued
 * @add: came (true) or went
 */
struct roce_addr_work {
	struct work_struct	work;
	union ib_gid		gid;
	struct net_device	*ndev;
	bool			add;
};

static void roce_apply_addr(struct ib_device *ib_dev, u32 port,
			    struct net_device *port_ndev, void *arg)
{
	struct roce_addr_work *w = arg;

	roce_gid_update(ib_dev, port, &w->gid, w->ndev, w->add);
}

static void roce_addr_work_run(struct work_struct *work)
{
	struct roce_addr_work *w = container_of(work, struct roce_addr_work,
						work);

	roce_all_devices_visit(roce_match_ip_owner, w->ndev, roce_apply_addr, w);
	dev_put(w->ndev);
	kfree(w);
}

/* Queue the GID change for an address; may be called in atomic context. */
static int roce_addr_event(unsigned long event, struct net_device *ndev,
			   const struct in6_addr *addr)
{
	struct roce_addr_work *w;

	if (ndev->type != ARPHRD_ETHER ||
	    (event != NETDEV_UP && event != NETDEV_DOWN))
		return NOTIFY_DONE;

	/* no allocation splat: the warning below says what was lost */
	w = kmalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (!w) {
		netdev_warn(ndev, "RoCE GID of %pI6 not updated: out of memory\n",
			    addr);
		return NOTIFY_DONE;
	}
	INIT_WORK(&w->work, roce_addr_work_run);
	memcpy(w->gid.raw, addr, sizeof(w->gid.raw));
	w->add = event == NETDEV_UP;
	dev_hold(ndev);
	w->ndev = ndev;
	queue_work(roce_wq, &w->work);
	return NOTIFY_DONE;
}

static int roce_inetaddr_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	const struct in_ifaddr *ifa = ptr;
	struct in6_addr mapped;

	ipv6_addr_set_v4mapped(ifa->ifa_address, &mapped);
	return roce_addr_event(event, ifa->ifa_dev->dev, &mapped);
}

static int roce_inet6addr_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	const struct inet6_ifaddr *ifa = ptr;

	return roce_addr_event(event, ifa->idev->dev, &ifa->addr);
}

/* ---- Module init and exit ------------------------------------------------ */

static struct notifier_block roce_netdevice_nb = {
	.notifier_call = roce_netdevice_event,
};

static struct notifier_block roce_inetaddr_nb = {
	.notifier_call = roce_inetaddr_event,
};

static struct notifier_block roce_inet6addr_nb __maybe_unused = {
	.notifier_call = roce_inet6addr_event,
};

/*
 * The notifiers, registered in this order and unregistered in reverse.
 * The netdevice notifier goes last: registering it replays NETDEV_REGISTER
 * and NETDEV_UP for every existing net device, and no address change may
 * fall between the replay and the address notifiers.
 */
static const struct {
	int (*reg)(struct notifier_block *nb);
	int (*unreg)(struct notifier_block *nb);
	struct notifier_block *nb;
} roce_notifiers[] = {
	{ register_inetaddr_notifier, unregister_inetaddr_notifier,
	  &roce_inetaddr_nb },
#if IS_ENABLED(CONFIG_IPV6)
	{ register_inet6addr_notifier, unregister_inet6addr_notifier,
	  &roce_inet6addr_nb },
#endif
	{ register_netdevice_notifier, unregister_netdevice_notifier,
	  &roce_netdevice_nb },
};

/* Unregister the first @count notifiers, last first. */
static void roce_notifiers_unregister(unsigned int count)
{
	while (count--)
		roce_notifiers[count].unreg(roce_notifiers[count].nb);
}

/**
 * roce_gid_mgmt_init() - Start following net devices and their addresses
 *
 * Context: Module init, may sleep.
 * Return: 0, -ENOMEM, or a notifier registration error.
 */
int roce_gid_mgmt_init(void)
{
	unsigned int i;
	int ret;

	roce_wq = alloc_ordered_workqueue("gid-cache-wq", 0);
	if (!roce_wq)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(roce_notifiers); i++) {
		ret = roce_notifiers[i].reg(roce_notifiers[i].nb);
		if (ret)
			goto err_notifiers;
	}
	return 0;

err_notifiers:
	roce_notifiers_unregister(i);
	destroy_workqueue(roce_wq);
	return ret;
}

/**
 * roce_gid_mgmt_cleanup() - Stop following net devices, finish queued work
 *
 * Unregisters the notifiers in the reverse order of roce_gid_mgmt_init(),
 * then runs what is still queued (dropping its net device references) and
 * destroys the workqueue.
 *
 * Context: Module exit, may sleep; must not hold RTNL.
 */
void roce_gid_mgmt_cleanup(void)
{
	roce_notifiers_unregister(ARRAY_SIZE(roce_notifiers));
	destroy_workqueue(roce_wq);
}
