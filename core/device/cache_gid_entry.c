// SPDX-License-Identifier: GPL-2.0-only
/* GID table entries: their lifetime, and how writers add, find and delete them. */

#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "device/cache_gid.h"
#include "device/device.h"

/*
 * Lifetime of an entry. The table holds one reference on each entry it
 * lists as valid; every attr handed out holds another. Deleting an entry
 * (ib_gid_table_remove(), writers only) marks it invalid, so lookups skip
 * it, lets go of its net device (attr.ndev reads NULL from then on, the
 * reference itself is dropped after an RCU grace period so that readers
 * inside rdma_read_gid_attr_ndev_rcu() are safe), asks the driver to
 * forget it, and drops the table's reference. The rest of the attr stays
 * readable until the holders' last rdma_put_gid_attr(), which frees the
 * entry and, on a RoCE port, only then its slot. On an IB port the slot
 * mirrors the driver's table index and is free at once.
 *
 * Locks: see struct ib_gid_table. Only a valid entry is ever handed out,
 * and a valid entry holds the table's reference, so taking a reference
 * under the rwlock never races with the final put.
 */

/**
 * ib_gid_table_of() - The GID table of a port
 * @dev: the device
 * @port: a valid port number
 *
 * Context: Any context.
 * Return: the table, or NULL before the cache step of registration.
 */
struct ib_gid_table *ib_gid_table_of(struct ib_device *dev, u32 port)
{
	if (!dev->port_data)
		return NULL;
	return READ_ONCE(dev->port_data[port].cache.gid);
}

/* ---- Entries ------------------------------------------------------------- */

static void gid_ndev_ref_free(struct rcu_head *head)
{
	struct gid_ndev_ref *ref = container_of(head, struct gid_ndev_ref, rcu);

	dev_put(ref->ndev);
	kfree(ref);
}

/* Clear attr.ndev and drop its reference once RCU readers are done. */
static void gid_entry_drop_ndev(struct gid_entry *entry)
{
	struct gid_ndev_ref *ref = entry->ndev_ref;

	if (!ref)
		return;
	entry->ndev_ref = NULL;
	rcu_assign_pointer(entry->attr.ndev, NULL);
	call_rcu(&ref->rcu, gid_ndev_ref_free);
}

/* Last put: free the slot if the entry still has it, then the entry. */
static void gid_entry_release(struct kref *kref)
{
	struct gid_entry *entry = container_of(kref, struct gid_entry, ref);
	struct ib_gid_table *table = entry->table;
	unsigned long flags;

	write_lock_irqsave(&table->rwlock, flags);
	if (table->slots[entry->attr.index] == entry)
		table->slots[entry->attr.index] = NULL;
	write_unlock_irqrestore(&table->rwlock, flags);

	gid_entry_drop_ndev(entry);
	kfree(entry);
}

/**
 * ib_gid_entry_put() - Drop a reference on an entry
 * @entry: the entry
 *
 * Context: Any context; not with the entry's table rwlock held.
 */
void ib_gid_entry_put(struct gid_entry *entry)
{
	kref_put(&entry->ref, gid_entry_release);
}

/* A new, unlisted entry for @attr holding a reference on its net device. */
static struct gid_entry *gid_entry_alloc(struct ib_gid_table *table,
					 const struct ib_gid_attr *attr)
{
	struct net_device *ndev = rcu_dereference_protected(attr->ndev, 1);
	struct gid_entry *entry;

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return NULL;
	if (ndev) {
		entry->ndev_ref = kzalloc(sizeof(*entry->ndev_ref), GFP_KERNEL);
		if (!entry->ndev_ref) {
			kfree(entry);
			return NULL;
		}
		dev_hold(ndev);
		entry->ndev_ref->ndev = ndev;
	}
	kref_init(&entry->ref);
	entry->attr = *attr;
	entry->table = table;
	return entry;
}

/* Let the driver of a RoCE port program the entry. */
static int gid_entry_hw_add(struct gid_entry *entry)
{
	struct ib_device *dev = entry->attr.device;
	int ret;

	if (!rdma_cap_roce_gid_table(dev, entry->attr.port_num))
		return 0;
	ret = dev->ops.add_gid(&entry->attr, &entry->context);
	if (ret) {
		ibdev_warn(dev, "driver refused GID %pI6 at port %u index %u: %d\n",
			   entry->attr.gid.raw, entry->attr.port_num,
			   entry->attr.index, ret);
		return ret;
	}
	entry->hw_added = true;
	return 0;
}

/* ---- Table operations for writers ---------------------------------------- */

/**
 * ib_gid_table_slot_is_default() - Whether a slot is reserved for default GIDs
 * @table: the table
 * @ix: the slot
 *
 * Return: true for a reserved slot.
 */
bool ib_gid_table_slot_is_default(const struct ib_gid_table *table, int ix)
{
	return ix < BITS_PER_LONG && (table->default_slots & BIT(ix));
}

/* Whether slot @ix holds a valid entry matching @m; caller holds the rwlock. */
bool ib_gid_entry_matches(const struct ib_gid_table *table, int ix,
			  const struct gid_match *m)
{
	const struct gid_entry *entry = table->slots[ix];

	if (!entry || !entry->valid)
		return false;
	if ((m->what & GID_MATCH_GID) &&
	    memcmp(m->gid, &entry->attr.gid, sizeof(*m->gid)))
		return false;
	if ((m->what & GID_MATCH_TYPE) && entry->attr.gid_type != m->gid_type)
		return false;
	if ((m->what & GID_MATCH_NDEV) &&
	    rcu_access_pointer(entry->attr.ndev) != m->ndev)
		return false;
	if ((m->what & GID_MATCH_DEFAULT) &&
	    ib_gid_table_slot_is_default(table, ix) != m->is_default)
		return false;
	return true;
}

/* The first valid slot matching @m, or -ENOENT; caller holds the rwlock. */
int ib_gid_table_find_locked(struct ib_gid_table *table,
			     const struct gid_match *m)
{
	int ix;

	lockdep_assert_held(&table->rwlock);
	for (ix = 0; ix < table->size; ix++)
		if (ib_gid_entry_matches(table, ix, m))
			return ix;
	return -ENOENT;
}

/**
 * ib_gid_table_find() - Index of the first valid entry that matches
 * @table: the table
 * @match: what to compare
 *
 * Context: Any context; takes the table's rwlock.
 * Return: the index, or -ENOENT.
 */
int ib_gid_table_find(struct ib_gid_table *table, const struct gid_match *match)
{
	unsigned long flags;
	int ix;

	read_lock_irqsave(&table->rwlock, flags);
	ix = ib_gid_table_find_locked(table, match);
	read_unlock_irqrestore(&table->rwlock, flags);
	return ix;
}

/**
 * ib_gid_table_free_slot() - A free slot of the wanted kind
 * @table: the table; the caller holds its mutex, so the slot stays free
 * @is_default: look among the slots reserved for default GIDs, or the others
 *
 * Context: Process context; takes the table's rwlock.
 * Return: the index, or -ENOSPC.
 */
int ib_gid_table_free_slot(struct ib_gid_table *table, bool is_default)
{
	int ix, found = -ENOSPC;

	lockdep_assert_held(&table->lock);
	read_lock_irq(&table->rwlock);
	for (ix = 0; ix < table->size; ix++) {
		if (!table->slots[ix] &&
		    ib_gid_table_slot_is_default(table, ix) == is_default) {
			found = ix;
			break;
		}
	}
	read_unlock_irq(&table->rwlock);
	return found;
}

/**
 * ib_gid_table_install() - Put a new entry into a free slot
 * @table: the table; the caller holds its mutex
 * @attr: the entry: device, port_num, index (a free slot), gid, gid_type,
 *	  ndev (a reference is taken)
 *
 * On a RoCE port the driver's add_gid op programs the entry first.
 *
 * Context: Process context, may sleep.
 * Return: 0, -ENOMEM, or the driver's error (nothing is added).
 */
int ib_gid_table_install(struct ib_gid_table *table,
			 const struct ib_gid_attr *attr)
{
	struct gid_entry *entry;
	int ret;

	lockdep_assert_held(&table->lock);
	entry = gid_entry_alloc(table, attr);
	if (!entry)
		return -ENOMEM;
	if (table->core_managed) {
		ret = gid_entry_hw_add(entry);
		if (ret) {
			ib_gid_entry_put(entry);
			return ret;
		}
	}

	write_lock_irq(&table->rwlock);
	WARN_ON(table->slots[attr->index]);
	entry->valid = true;
	table->slots[attr->index] = entry;
	write_unlock_irq(&table->rwlock);
	return 0;
}

/**
 * ib_gid_table_remove() - Delete the valid entry in a slot
 * @table: the table; the caller holds its mutex
 * @ix: the slot, holding a valid entry
 *
 * Holders keep a readable attr (without its net device) until they put it.
 *
 * Context: Process context, may sleep (the driver's del_gid).
 */
void ib_gid_table_remove(struct ib_gid_table *table, int ix)
{
	struct gid_entry *entry = table->slots[ix];
	struct ib_device *dev = entry->attr.device;

	lockdep_assert_held(&table->lock);
	write_lock_irq(&table->rwlock);
	entry->valid = false;
	if (!table->core_managed)
		table->slots[ix] = NULL;
	write_unlock_irq(&table->rwlock);

	gid_entry_drop_ndev(entry);
	if (entry->hw_added)
		dev->ops.del_gid(&entry->attr, &entry->context);
	ib_gid_entry_put(entry);
}
