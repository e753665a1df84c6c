/* SPDX-License-Identifier: GPL-2.0-only */
/* The GID table as the cache's own files (cache*.c) share it. */
#ifndef RDMAOOT_CORE_DEVICE_CACHE_GID_H
#define RDMAOOT_CORE_DEVICE_CACHE_GID_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

/**
 * struct gid_ndev_ref - the net device reference a GID entry holds
 * @rcu: the reference is dropped a grace period after the entry lets go
 *	 of it, as readers may still be using the pointer under RCU
 * @ndev: the held device
 */
struct gid_ndev_ref {
	struct rcu_head		rcu;
	struct net_device	*ndev;
};

/**
 * struct gid_entry - one GID, handed out as &attr
 * @ref: one reference for being in the table (until deleted), one per
 *	 holder; the last put frees the entry and its slot
 * @attr: what rdma_get_gid_attr() and friends hand out; constant while
 *	  the entry exists, except attr.ndev which deletion clears
 * @context: the driver's, from its add_gid op
 * @ndev_ref: the reference behind attr.ndev; NULL once deleted or if none
 * @table: the table the entry is in
 * @valid: in the table and findable; false once deleted (table rwlock)
 * @hw_added: the driver's add_gid succeeded, so del_gid is owed
 */
struct gid_entry {
	struct kref		ref;
	struct ib_gid_attr	attr;
	void			*context;
	struct gid_ndev_ref	*ndev_ref;
	struct ib_gid_table	*table;
	bool			valid;
	bool			hw_added;
};

/**
 * struct ib_gid_table - the GID table of one port
 * @lock: serialises writers: RoCE add/delete, refreshes of the port from
 *	  the driver (P_Keys and port state included) and cleanup; they may
 *	  sleep under it. Taken before @rwlock.
 * @rwlock: protects @slots and every entry's valid flag. Writers change
 *	    them holding both locks; lookups take only @rwlock (irqsave),
 *	    so they work from any context; the last put of a deleted entry
 *	    clears its slot holding only @rwlock.
 * @live: false once cleanup began; no entry is added after that (@lock)
 * @core_managed: a RoCE port: the core fills the table and a deleted
 *		  entry keeps its slot until the last put. Otherwise the
 *		  table mirrors the driver's and a slot is reusable at once.
 * @default_slots: bit i set: slot i is reserved for a default GID
 * @size: number of slots
 * @slots: the entries, NULL for a free slot
 */
struct ib_gid_table {
	struct mutex		lock;	/* serialises writers; before @rwlock */
	rwlock_t		rwlock;
	bool			live;
	bool			core_managed;
	unsigned long		default_slots;
	int			size;
	struct gid_entry	*slots[];
};

/* The fields of struct gid_match that ib_gid_table_find() compares. */
enum gid_match_what {
	GID_MATCH_GID		= BIT(0),
	GID_MATCH_TYPE		= BIT(1),
	GID_MATCH_NDEV		= BIT(2),
	GID_MATCH_DEFAULT	= BIT(3),
};

/**
 * struct gid_match - the entry a lookup wants
 * @what: which of the fields below count (GID_MATCH_*); 0: any valid entry
 * @gid: the GID
 * @gid_type: the GID type
 * @ndev: the net device (NULL matches entries without one)
 * @is_default: whether the slot must be a default one or must not be
 */
struct gid_match {
	unsigned int		what;
	const union ib_gid	*gid;
	enum ib_gid_type	gid_type;
	struct net_device	*ndev;
	bool			is_default;
};

static inline struct gid_entry *to_gid_entry(const struct ib_gid_attr *attr)
{
	return container_of(attr, struct gid_entry, attr);
}

/* cache_gid_entry.c */
struct ib_gid_table *ib_gid_table_of(struct ib_device *dev, u32 port);
void ib_gid_entry_put(struct gid_entry *entry);
bool ib_gid_entry_matches(const struct ib_gid_table *table, int ix,
			  const struct gid_match *m);
int ib_gid_table_find_locked(struct ib_gid_table *table,
			     const struct gid_match *m);
bool ib_gid_table_slot_is_default(const struct ib_gid_table *table, int ix);
int ib_gid_table_find(struct ib_gid_table *table,
		      const struct gid_match *match);
int ib_gid_table_free_slot(struct ib_gid_table *table, bool is_default);
int ib_gid_table_install(struct ib_gid_table *table,
			 const struct ib_gid_attr *attr);
void ib_gid_table_remove(struct ib_gid_table *table, int ix);

/* cache.c */
int ib_gid_table_create(struct ib_device *dev, u32 port);
void ib_gid_table_close(struct ib_gid_table *table);
void ib_gid_table_destroy(struct ib_device *dev, u32 port);

#endif /* RDMAOOT_CORE_DEVICE_CACHE_GID_H */
