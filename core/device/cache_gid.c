// SPDX-License-Identifier: GPL-2.0-only
/* The GID lookups of ib_cache.h: reference-counted entries handed out from the per-port tables. */

#include <linux/etherdevice.h>
#include <linux/export.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "device/cache_gid.h"
#include "device/device.h"

/* Entry lifetime and the locks: see cache_gid_entry.c and cache_gid_priv.h. */

/* A port's table for a lookup, or NULL after logging why there is none. */
static struct ib_gid_table *gid_table_lookup(struct ib_device *dev, u32 port)
{
	struct ib_gid_table *table;

	if (!rdma_is_port_valid(dev, port)) {
		ibdev_dbg(dev, "GID lookup on invalid port %u\n", port);
		return NULL;
	}
	table = ib_gid_table_of(dev, port);
	if (!table)
		ibdev_dbg(dev, "GID lookup on port %u before registration\n",
			  port);
	return table;
}

/**
 * rdma_is_zero_gid() - Whether a GID is all zeroes
 * @gid: the GID
 *
 * A zero GID marks an unused entry; it is never added to a table.
 *
 * Context: Any context.
 * Return: true for the zero GID.
 */
bool rdma_is_zero_gid(const union ib_gid *gid)
{
	return !memcmp(gid, &zgid, sizeof(*gid));
}
EXPORT_SYMBOL(rdma_is_zero_gid);

/* ---- Lookups ------------------------------------------------------------- */

/* Hand out slot @ix of a locked table with a new reference. */
static const struct ib_gid_attr *gid_table_hold(struct ib_gid_table *table,
						int ix)
{
	lockdep_assert_held(&table->rwlock);
	kref_get(&table->slots[ix]->ref);
	return &table->slots[ix]->attr;
}

/* Check @index against a port's table; 0 with the table, or an errno. */
static int gid_index_check(struct ib_device *dev, u32 port, int index,
			   struct ib_gid_table **table)
{
	*table = gid_table_lookup(dev, port);
	if (!*table)
		return rdma_is_port_valid(dev, port) ? -ENODEV : -EINVAL;
	if (index < 0 || index >= (*table)->size) {
		ibdev_dbg(dev, "GID index %d out of range on port %u\n",
			  index, port);
		return -EINVAL;
	}
	return 0;
}

/**
 * rdma_query_gid() - Copy the GID in one slot of a port's table
 * @device: the device
 * @port_num: the port
 * @index: the slot
 * @gid: where the GID goes
 *
 * No reference is taken: use rdma_get_gid_attr() to keep the entry.
 *
 * Context: Any context.
 * Return: 0; -EINVAL for a bad port or index or NULL @gid; -ENODEV for a
 * device not registered; -ENOENT for an empty slot.
 */
int rdma_query_gid(struct ib_device *device, u32 port_num, int index,
		   union ib_gid *gid)
{
	struct ib_gid_table *table;
	unsigned long flags;
	int ret;

	if (!gid)
		return -EINVAL;
	ret = gid_index_check(device, port_num, index, &table);
	if (ret)
		return ret;

	read_lock_irqsave(&table->rwlock, flags);
	if (table->slots[index] && table->slots[index]->valid)
		*gid = table->slots[index]->attr.gid;
	else
		ret = -ENOENT;
	read_unlock_irqrestore(&table->rwlock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_query_gid);

/**
 * rdma_get_gid_attr() - Take a reference on the GID entry in a slot
 * @device: the device
 * @port_num: the port
 * @index: the slot
 *
 * Context: Any context.
 * Return: the entry's attributes, to be released with rdma_put_gid_attr();
 * ERR_PTR(-EINVAL) for a bad port or index, ERR_PTR(-ENODEV) for a device
 * not registered, ERR_PTR(-ENODATA) for an empty slot.
 */
const struct ib_gid_attr *rdma_get_gid_attr(struct ib_device *device,
					    u32 port_num, int index)
{
	const struct ib_gid_attr *attr = ERR_PTR(-ENODATA);
	struct ib_gid_table *table;
	unsigned long flags;
	int ret;

	ret = gid_index_check(device, port_num, index, &table);
	if (ret)
		return ERR_PTR(ret);

	read_lock_irqsave(&table->rwlock, flags);
	if (table->slots[index] && table->slots[index]->valid)
		attr = gid_table_hold(table, index);
	read_unlock_irqrestore(&table->rwlock, flags);
	return attr;
}
EXPORT_SYMBOL(rdma_get_gid_attr);

/**
 * rdma_hold_gid_attr() - Take one more reference on a GID entry
 * @attr: an attr the caller already holds a reference on
 *
 * Context: Any context.
 */
void rdma_hold_gid_attr(const struct ib_gid_attr *attr)
{
	kref_get(&to_gid_entry(attr)->ref);
}
EXPORT_SYMBOL(rdma_hold_gid_attr);

/**
 * rdma_put_gid_attr() - Release a reference on a GID entry
 * @attr: from rdma_get_gid_attr(), rdma_find_gid*() or rdma_hold_gid_attr()
 *
 * The last put of a deleted entry frees it and its slot.
 *
 * Context: Any context, but not from a rdma_find_gid_by_filter() filter.
 */
void rdma_put_gid_attr(const struct ib_gid_attr *attr)
{
	ib_gid_entry_put(to_gid_entry(attr));
}
EXPORT_SYMBOL(rdma_put_gid_attr);

/* A caller's say on which entry a lookup picks (rdma_find_gid_by_filter()). */
typedef bool (*gid_filter_fn)(const union ib_gid *gid,
			      const struct ib_gid_attr *attr, void *context);

/*
 * Find and hold the first entry of one port's table that matches @m and,
 * when there is a @filter, that @filter accepts. The filter runs under the
 * table's rwlock, so the entry and its net device cannot change under it.
 */
static const struct ib_gid_attr *gid_table_find_hold(struct ib_gid_table *table,
						     const struct gid_match *m,
						     gid_filter_fn filter,
						     void *context)
{
	const struct ib_gid_attr *attr = ERR_PTR(-ENOENT);
	unsigned long flags;
	int ix;

	read_lock_irqsave(&table->rwlock, flags);
	for (ix = 0; ix < table->size; ix++) {
		if (!ib_gid_entry_matches(table, ix, m))
			continue;
		if (filter && !filter(m->gid, &table->slots[ix]->attr, context))
			continue;
		attr = gid_table_hold(table, ix);
		break;
	}
	read_unlock_irqrestore(&table->rwlock, flags);
	return attr;
}

static void gid_match_init(struct gid_match *m, const union ib_gid *gid,
			   enum ib_gid_type gid_type, struct net_device *ndev)
{
	m->what = GID_MATCH_GID | GID_MATCH_TYPE | (ndev ? GID_MATCH_NDEV : 0);
	m->gid = gid;
	m->gid_type = gid_type;
	m->ndev = ndev;
	m->is_default = false;
}

/**
 * rdma_find_gid_by_port() - Find a GID on one port and take a reference
 * @ib_dev: the device
 * @gid: the GID
 * @gid_type: its type
 * @port: the port
 * @ndev: the net device it must belong to, or NULL for any
 *
 * Context: Any context.
 * Return: the entry, to be put with rdma_put_gid_attr(); ERR_PTR(-ENOENT)
 * if there is none or the port is bad, ERR_PTR(-EINVAL) for a NULL @gid.
 */
const struct ib_gid_attr *rdma_find_gid_by_port(struct ib_device *ib_dev,
						const union ib_gid *gid,
						enum ib_gid_type gid_type,
						u32 port,
						struct net_device *ndev)
{
	struct ib_gid_table *table;
	struct gid_match m;

	if (!gid)
		return ERR_PTR(-EINVAL);
	table = gid_table_lookup(ib_dev, port);
	if (!table)
		return ERR_PTR(-ENOENT);
	gid_match_init(&m, gid, gid_type, ndev);
	return gid_table_find_hold(table, &m, NULL, NULL);
}
EXPORT_SYMBOL(rdma_find_gid_by_port);

/**
 * rdma_find_gid() - Find a GID on any port of a device and take a reference
 * @device: the device
 * @gid: the GID
 * @gid_type: its type
 * @ndev: the net device it must belong to, or NULL for any
 *
 * Ports are searched in order; the first match wins.
 *
 * Context: Any context.
 * Return: the entry, to be put with rdma_put_gid_attr(); ERR_PTR(-ENOENT)
 * if there is none, ERR_PTR(-EINVAL) for a NULL @gid.
 */
const struct ib_gid_attr *rdma_find_gid(struct ib_device *device,
					const union ib_gid *gid,
					enum ib_gid_type gid_type,
					struct net_device *ndev)
{
	struct gid_match m;
	u32 port;

	if (!gid)
		return ERR_PTR(-EINVAL);
	gid_match_init(&m, gid, gid_type, ndev);
	rdma_for_each_port(device, port) {
		struct ib_gid_table *table = ib_gid_table_of(device, port);
		const struct ib_gid_attr *attr;

		/* a port without a table (not registered yet) has no GIDs */
		attr = table ? gid_table_find_hold(table, &m, NULL, NULL) :
			       ERR_PTR(-ENOENT);
		if (!IS_ERR(attr))
			return attr;
	}
	return ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_find_gid);

/**
 * rdma_find_gid_by_filter() - Find a GID on a port that a filter accepts
 * @ib_dev: the device
 * @gid: the GID
 * @port: the port
 * @filter: called for each valid entry equal to @gid, in slot order, with
 *	    the table's rwlock held (atomic context; it must not take a GID
 *	    reference or put one); true picks the entry
 * @context: passed to @filter
 *
 * Context: Any context.
 * Return: the entry, to be put with rdma_put_gid_attr(); ERR_PTR(-EINVAL)
 * for a bad port or NULL @gid or @filter, ERR_PTR(-ENOENT) if none passes.
 */
const struct ib_gid_attr *
rdma_find_gid_by_filter(struct ib_device *ib_dev, const union ib_gid *gid,
			u32 port,
			bool (*filter)(const union ib_gid *gid,
				       const struct ib_gid_attr *, void *),
			void *context)
{
	struct ib_gid_table *table = gid_table_lookup(ib_dev, port);
	struct gid_match m;

	if (!table || !gid || !filter)
		return ERR_PTR(-EINVAL);
	/* the GID value alone: type and net device are the filter's business */
	gid_match_init(&m, gid, 0, NULL);
	m.what = GID_MATCH_GID;
	return gid_table_find_hold(table, &m, filter, context);
}
EXPORT_SYMBOL(rdma_find_gid_by_filter);

/* Copy the valid entries of one table; how many, or -EINVAL if no room. */
static ssize_t gid_table_copy(struct ib_gid_table *table,
			      struct ib_uverbs_gid_entry *out, size_t room)
{
	struct net_device *ndev;
	const struct ib_gid_attr *attr;
	unsigned long flags;
	ssize_t n = 0;
	int ix;

	read_lock_irqsave(&table->rwlock, flags);
	for (ix = 0; ix < table->size; ix++) {
		if (!table->slots[ix] || !table->slots[ix]->valid)
			continue;
		if (n == room) {
			n = -EINVAL;
			break;
		}
		attr = &table->slots[ix]->attr;
		ndev = rcu_dereference_protected(attr->ndev,
						 lockdep_is_held(&table->rwlock));
		memcpy(&out[n].gid, &attr->gid, sizeof(attr->gid));
		out[n].gid_index = attr->index;
		out[n].port_num = attr->port_num;
		out[n].gid_type = attr->gid_type;
		out[n].netdev_ifindex = ndev ? ndev->ifindex : 0;
		n++;
	}
	read_unlock_irqrestore(&table->rwlock, flags);
	return n;
}

/**
 * rdma_query_gid_table() - Copy every valid GID entry of a device
 * @device: the device
 * @entries: room for @max_entries entries
 * @max_entries: how many fit
 *
 * Context: Any context.
 * Return: the number of entries copied, or -EINVAL if they do not fit.
 */
ssize_t rdma_query_gid_table(struct ib_device *device,
			     struct ib_uverbs_gid_entry *entries,
			     size_t max_entries)
{
	struct ib_gid_table *table;
	ssize_t total = 0, n;
	u32 port;

	rdma_for_each_port(device, port) {
		table = ib_gid_table_of(device, port);
		if (!table)
			continue;
		n = gid_table_copy(table, entries + total, max_entries - total);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}
EXPORT_SYMBOL(rdma_query_gid_table);

/**
 * rdma_read_gid_hw_context() - The driver's context of a GID entry
 * @attr: an attr the caller holds a reference on
 *
 * Context: Any context.
 * Return: what the driver's add_gid stored (NULL on IB ports).
 */
void *rdma_read_gid_hw_context(const struct ib_gid_attr *attr)
{
	return to_gid_entry(attr)->context;
}
EXPORT_SYMBOL(rdma_read_gid_hw_context);

/**
 * rdma_read_gid_attr_ndev_rcu() - The net device of a GID entry
 * @attr: an attr the caller holds a reference on
 *
 * Context: Inside rcu_read_lock(); the device is valid until the caller's
 * rcu_read_unlock() and must be dev_hold()'d to keep it longer.
 * Return: the net device; ERR_PTR(-EINVAL) for a deleted entry,
 * ERR_PTR(-ENODEV) for an entry without one.
 */
struct net_device *rdma_read_gid_attr_ndev_rcu(const struct ib_gid_attr *attr)
{
	struct gid_entry *entry = to_gid_entry(attr);
	struct net_device *ndev = ERR_PTR(-EINVAL);
	unsigned long flags;

	read_lock_irqsave(&entry->table->rwlock, flags);
	if (entry->valid) {
		ndev = rcu_dereference(attr->ndev);
		if (!ndev)
			ndev = ERR_PTR(-ENODEV);
	}
	read_unlock_irqrestore(&entry->table->rwlock, flags);
	return ndev;
}
EXPORT_SYMBOL(rdma_read_gid_attr_ndev_rcu);

/* netdev_walk_all_lower_dev_rcu(): the VLAN id of the first lower device. */
static int gid_lower_vlan(struct net_device *lower,
			  struct netdev_nested_priv *priv)
{
	u16 *vlan_id = priv->data;

	if (is_vlan_dev(lower))
		*vlan_id = vlan_dev_vlan_id(lower);
	return 1;	/* one level only */
}

/*
 * The VLAN a RoCE GID's net device sits on: its own id if it is a VLAN
 * device, else that of a VLAN device directly below it (a macvlan on a
 * VLAN, say); 0xffff for none. Caller in RCU.
 */
static u16 gid_ndev_vlan_id(struct net_device *ndev)
{
	u16 vid = 0xffff;
	struct netdev_nested_priv priv = { .data = &vid };

	if (is_vlan_dev(ndev))
		return vlan_dev_vlan_id(ndev);
	netdev_walk_all_lower_dev_rcu(ndev, gid_lower_vlan, &priv);
	return vid;
}

/**
 * rdma_read_gid_l2_fields() - VLAN id and source MAC of a RoCE GID entry
 * @attr: an attr the caller holds a reference on
 * @vlan_id: if not NULL, the VLAN id of the net device (or of a VLAN device
 *	     directly below it), 0xffff without one
 * @smac: if not NULL, the net device's MAC address (ETH_ALEN bytes)
 *
 * Context: Any context.
 * Return: 0, or -ENODEV if the entry has (no longer) a net device.
 */
int rdma_read_gid_l2_fields(const struct ib_gid_attr *attr,
			    u16 *vlan_id, u8 *smac)
{
	struct net_device *ndev;
	int ret = 0;

	/* attr->ndev is cleared (RCU) when the entry loses its net device */
	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	if (ndev) {
		if (smac)
			ether_addr_copy(smac, ndev->dev_addr);
		if (vlan_id)
			*vlan_id = gid_ndev_vlan_id(ndev);
	} else {
		ret = -ENODEV;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL(rdma_read_gid_l2_fields);
