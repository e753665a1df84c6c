// SPDX-License-Identifier: GPL-2.0-only
/* The core-managed GID tables of RoCE ports: adding and deleting entries for net devices. */

#include <kunit/visibility.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>

#include "device/cache_gid.h"
#include "device/device.h"

/*
 * core/roce/roce_gid_mgmt.c calls these as net devices and their addresses come
 * and go. Every change takes the port table's mutex, may call the driver's
 * add_gid/del_gid under it, and is announced to the event handlers with
 * IB_EVENT_GID_CHANGE after the mutex is released.
 */

static void roce_gid_change_announce(struct ib_device *dev, u32 port)
{
	struct ib_event event = {
		.device = dev,
		.element.port_num = port,
		.event = IB_EVENT_GID_CHANGE,
	};

	ib_dispatch_event_clients(&event);
}

/* The core-managed table of @port, or NULL after a log line. */
static struct ib_gid_table *roce_gid_table(struct ib_device *dev, u32 port)
{
	struct ib_gid_table *table;

	if (!rdma_is_port_valid(dev, port)) {
		ibdev_dbg(dev, "RoCE GID change on invalid port %u\n", port);
		return NULL;
	}
	table = ib_gid_table_of(dev, port);
	if (!table || !table->core_managed) {
		ibdev_dbg(dev, "port %u has no core-managed GID table\n", port);
		return NULL;
	}
	return table;
}

/*
 * Add @gid unless an entry matching @m exists; the slot is one of the
 * default ones or not, as @m->is_default says. Caller holds the mutex.
 */
static int roce_gid_add_locked(struct ib_gid_table *table, u32 port,
			       const union ib_gid *gid,
			       struct ib_gid_attr *attr,
			       const struct gid_match *m)
{
	int ix;

	lockdep_assert_held(&table->lock);
	if (!table->live)
		return -ENODEV;
	if (ib_gid_table_find(table, m) >= 0)
		return 0;
	ix = ib_gid_table_free_slot(table, m->is_default);
	if (ix < 0)
		return ix;

	attr->port_num = port;
	attr->index = ix;
	attr->gid = *gid;
	return ib_gid_table_install(table, attr) ?: 1;
}

/* Add: 0 if it already existed, 1 if added, or a negative errno. */
static int roce_gid_add(struct ib_device *dev, u32 port,
			const union ib_gid *gid, struct ib_gid_attr *attr,
			const struct gid_match *m)
{
	struct ib_gid_table *table = roce_gid_table(dev, port);
	int ret;

	if (!table)
		return -EINVAL;
	if (rdma_is_zero_gid(gid) || !rcu_access_pointer(attr->ndev)) {
		ibdev_dbg(dev, "refusing a zero GID or one without netdev\n");
		return -EINVAL;
	}
	attr->device = dev;

	mutex_lock(&table->lock);
	ret = roce_gid_add_locked(table, port, gid, attr, m);
	mutex_unlock(&table->lock);

	if (ret > 0)
		roce_gid_change_announce(dev, port);
	else if (ret < 0)
		ibdev_warn_ratelimited(dev, "cannot add GID %pI6 on port %u: %d\n",
				       gid->raw, port, ret);
	return ret;
}

/* Delete the first entry matching @m; -EINVAL if there is none. */
static int roce_gid_del(struct ib_device *dev, u32 port,
			const struct gid_match *m)
{
	struct ib_gid_table *table = roce_gid_table(dev, port);
	int ix;

	if (!table)
		return -EINVAL;

	mutex_lock(&table->lock);
	ix = ib_gid_table_find(table, m);
	if (ix >= 0)
		ib_gid_table_remove(table, ix);
	mutex_unlock(&table->lock);

	if (ix < 0) {
		ibdev_dbg(dev, "no such GID to delete on port %u\n", port);
		return -EINVAL;
	}
	roce_gid_change_announce(dev, port);
	return 0;
}

/**
 * ib_cache_gid_add() - Add a GID of a net device to a RoCE port's table
 * @ib_dev: the device
 * @port: a RoCE port
 * @gid: the GID, not zero
 * @attr: gid_type and ndev (required) of the entry; device, port_num, index
 *	  and gid are filled in
 *
 * Nothing happens if an entry with the same GID, type and net device
 * exists. The entry takes the first free slot not reserved for default
 * GIDs; the driver's add_gid op, if any, is called first.
 *
 * Context: Process context, may sleep. Calls the event handlers.
 * Return: 0; -EINVAL for a bad port, a port without a core-managed table,
 * a zero GID or no ndev; -ENOSPC if the table is full; -ENODEV after
 * unregistration; -ENOMEM; or the driver's error.
 */
int ib_cache_gid_add(struct ib_device *ib_dev, u32 port,
		     union ib_gid *gid, struct ib_gid_attr *attr)
{
	struct gid_match m = {
		.what = GID_MATCH_GID | GID_MATCH_TYPE | GID_MATCH_NDEV,
		.gid = gid,
		.gid_type = attr->gid_type,
		.ndev = rcu_access_pointer(attr->ndev),
	};
	int ret = roce_gid_add(ib_dev, port, gid, attr, &m);

	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_cache_gid_add);

/**
 * ib_cache_gid_del() - Delete a non-default GID of a RoCE port
 * @ib_dev: the device
 * @port: a RoCE port
 * @gid: the GID
 * @attr: gid_type and ndev of the entry
 *
 * Context: Process context, may sleep. Calls the event handlers.
 * Return: 0, or -EINVAL for a bad port or if there is no such entry.
 */
int ib_cache_gid_del(struct ib_device *ib_dev, u32 port,
		     union ib_gid *gid, struct ib_gid_attr *attr)
{
	struct gid_match m = {
		.what = GID_MATCH_GID | GID_MATCH_TYPE | GID_MATCH_NDEV |
			GID_MATCH_DEFAULT,
		.gid = gid,
		.gid_type = attr->gid_type,
		.ndev = rcu_access_pointer(attr->ndev),
		.is_default = false,
	};

	return roce_gid_del(ib_dev, port, &m);
}
EXPORT_SYMBOL_IF_KUNIT(ib_cache_gid_del);

/**
 * ib_cache_gid_del_all_netdev_gids() - Delete every GID of a net device
 * @ib_dev: the device
 * @port: a RoCE port
 * @ndev: the net device; its default GIDs go too
 *
 * Context: Process context, may sleep. Calls the event handlers once if
 * anything was deleted.
 * Return: 0, or -EINVAL for a bad port.
 */
int ib_cache_gid_del_all_netdev_gids(struct ib_device *ib_dev, u32 port,
				     struct net_device *ndev)
{
	struct ib_gid_table *table = roce_gid_table(ib_dev, port);
	struct gid_match m = { .what = GID_MATCH_NDEV, .ndev = ndev };
	bool deleted = false;
	int ix;

	if (!table)
		return -EINVAL;

	mutex_lock(&table->lock);
	while ((ix = ib_gid_table_find(table, &m)) >= 0) {
		ib_gid_table_remove(table, ix);
		deleted = true;
	}
	mutex_unlock(&table->lock);

	if (deleted)
		roce_gid_change_announce(ib_dev, port);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_cache_gid_del_all_netdev_gids);

/* The link-local GID made from @ndev's MAC (EUI-48 to EUI-64). */
static void roce_default_gid(struct net_device *ndev, union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	addrconf_ifid_eui48(&gid->raw[8], ndev);
}

/**
 * ib_cache_gid_set_default_gid() - Install or remove a net device's default GIDs
 * @ib_dev: the device
 * @port: a RoCE port
 * @ndev: the net device
 * @gid_type_mask: bit (1 << IB_GID_TYPE_*) for each GID type to act on
 * @mode: install (one per type, in the reserved default slots, unless
 *	  the net device already has a default GID of that type) or remove
 *
 * Failures are logged, not returned.
 *
 * Context: Process context, may sleep. Calls the event handlers.
 */
void ib_cache_gid_set_default_gid(struct ib_device *ib_dev, u32 port,
				  struct net_device *ndev,
				  unsigned long gid_type_mask,
				  enum ib_cache_gid_default_mode mode)
{
	struct gid_match m = {
		.what = GID_MATCH_TYPE | GID_MATCH_NDEV | GID_MATCH_DEFAULT,
		.ndev = ndev,
		.is_default = true,
	};
	struct ib_gid_attr attr;
	union ib_gid gid;
	unsigned int type;

	roce_default_gid(ndev, &gid);
	for (type = 0; type < IB_GID_TYPE_SIZE; type++) {
		if (!(gid_type_mask & BIT(type)))
			continue;
		m.gid_type = type;
		if (mode == IB_CACHE_GID_DEFAULT_MODE_DELETE) {
			roce_gid_del(ib_dev, port, &m);
			continue;
		}
		memset(&attr, 0, sizeof(attr));
		attr.gid_type = type;
		RCU_INIT_POINTER(attr.ndev, ndev);
		roce_gid_add(ib_dev, port, &gid, &attr, &m);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ib_cache_gid_set_default_gid);
