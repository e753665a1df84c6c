// SPDX-License-Identifier: GPL-2.0-only
/*
 * The port cache: set up per device, refreshed on events; P_Key, LMC, state and
 * subnet prefix lookups.
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_cache.h>

#include "device/cache_gid.h"
#include "device/device.h"
#include "roce/roce.h"

/*
 * What the cache keeps per port: the GID table (cache_gid.c), and in
 * struct ib_port_cache the P_Key table, LMC, port state and subnet prefix.
 * The latter are protected by the device's cache_lock: lookups read them
 * under it (irqsave, any context), a refresh swaps them in under it for
 * writing. Refreshes of one port (registration, events) are serialised by
 * the port's GID table mutex and stop once the device is unregistered.
 */

/**
 * struct ib_pkey_cache - a copy of a port's P_Key table
 * @table_len: number of entries
 * @table: the P_Keys, by index
 */
struct ib_pkey_cache {
	int	table_len;
	u16	table[];
};

/* ---- GID type names (sysfs gid_attrs/types) ------------------------------ */

/* Both IB and RoCE v1 show as "IB/RoCE v1", as userspace expects. */
static const char *const cache_gid_type_names[] = {
	[IB_GID_TYPE_IB]		= "IB/RoCE v1",
	[IB_GID_TYPE_ROCE]		= "IB/RoCE v1",
	[IB_GID_TYPE_ROCE_UDP_ENCAP]	= "RoCE v2",
};

/**
 * ib_cache_gid_type_str() - The name of a GID type
 * @gid_type: the type
 *
 * Context: Any context.
 * Return: "IB/RoCE v1", "RoCE v2", or "Invalid GID type".
 */
const char *ib_cache_gid_type_str(enum ib_gid_type gid_type)
{
	if ((unsigned int)gid_type < ARRAY_SIZE(cache_gid_type_names) &&
	    cache_gid_type_names[gid_type])
		return cache_gid_type_names[gid_type];
	return "Invalid GID type";
}
EXPORT_SYMBOL(ib_cache_gid_type_str);

/**
 * ib_cache_gid_parse_type_str() - The GID type a name stands for
 * @buf: the name, as written to sysfs; one trailing newline is ignored
 *
 * "IB/RoCE v1" parses as IB_GID_TYPE_IB.
 *
 * Context: Any context.
 * Return: the enum ib_gid_type value, or -EINVAL for anything else.
 */
int ib_cache_gid_parse_type_str(const char *buf)
{
	size_t len = strlen(buf);
	unsigned int i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(cache_gid_type_names); i++) {
		const char *name = cache_gid_type_names[i];

		if (name && strlen(name) == len && !strncmp(buf, name, len))
			return i;
	}
	return -EINVAL;
}
EXPORT_SYMBOL(ib_cache_gid_parse_type_str);

/* ---- GID tables: create, close, destroy ---------------------------------- */

/* Reserve the first slots of a RoCE table, one per GID type of the port. */
static void cache_reserve_default_slots(struct ib_device *dev, u32 port,
					struct ib_gid_table *table)
{
	int n = hweight_long(roce_gid_type_mask_support(dev, port));
	int i;

	for (i = 0; i < n && i < table->size && i < BITS_PER_LONG; i++)
		table->default_slots |= BIT(i);
}

/**
 * ib_gid_table_create() - Give a port an empty, live GID table
 * @dev: a device being registered
 * @port: the port; its gid_tbl_len says the size
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL for a negative size, or -ENOMEM.
 */
int ib_gid_table_create(struct ib_device *dev, u32 port)
{
	int size = dev->port_data[port].immutable.gid_tbl_len;
	struct ib_gid_table *table;

	if (size < 0)
		return -EINVAL;
	/* left over from an earlier registration that was undone */
	ib_gid_table_destroy(dev, port);

	table = kzalloc(struct_size(table, slots, size), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	mutex_init(&table->lock);
	rwlock_init(&table->rwlock);
	table->size = size;
	table->live = true;
	table->core_managed = rdma_protocol_roce(dev, port);
	if (table->core_managed)
		cache_reserve_default_slots(dev, port, table);
	WRITE_ONCE(dev->port_data[port].cache.gid, table);
	return 0;
}

/**
 * ib_gid_table_close() - Delete every entry and refuse new ones
 * @table: the table, or NULL
 *
 * Context: Process context, may sleep.
 */
void ib_gid_table_close(struct ib_gid_table *table)
{
	const struct gid_match any = { .what = 0 };
	int ix;

	if (!table)
		return;
	mutex_lock(&table->lock);
	table->live = false;
	while ((ix = ib_gid_table_find(table, &any)) >= 0)
		ib_gid_table_remove(table, ix);
	mutex_unlock(&table->lock);
}

/**
 * ib_gid_table_destroy() - Free a port's closed GID table
 * @dev: the device
 * @port: the port
 *
 * An entry somebody still holds is a reference leak: the table is then
 * leaked too, with a warning, as the holder's put would touch it.
 *
 * Context: Process context.
 */
void ib_gid_table_destroy(struct ib_device *dev, u32 port)
{
	struct ib_gid_table *table = ib_gid_table_of(dev, port);
	int ix;

	if (!table)
		return;
	WRITE_ONCE(dev->port_data[port].cache.gid, NULL);
	for (ix = 0; ix < table->size; ix++) {
		if (table->slots[ix]) {
			WARN(1, "%s: GID entry port %u index %d still held\n",
			     dev_name(&dev->dev), port, ix);
			return;
		}
	}
	mutex_destroy(&table->lock);
	kfree(table);
}

/* ---- Refreshing a port from the driver ----------------------------------- */

/* Make slot @ix of an IB port's table hold @gid, or nothing if zero. */
static int cache_gid_slot_sync(struct ib_gid_table *table,
			       struct ib_device *dev, u32 port, int ix,
			       const union ib_gid *gid)
{
	struct ib_gid_attr attr = {
		.device = dev,
		.port_num = port,
		.index = ix,
		.gid = *gid,
		.gid_type = IB_GID_TYPE_IB,
	};
	bool busy, same;

	/* on IB tables a slot holds a valid entry or nothing */
	read_lock_irq(&table->rwlock);
	busy = table->slots[ix];
	same = busy && !memcmp(&table->slots[ix]->attr.gid, gid, sizeof(*gid));
	read_unlock_irq(&table->rwlock);

	if (same)
		return 0;
	if (busy)
		ib_gid_table_remove(table, ix);
	if (rdma_is_zero_gid(gid))
		return 0;
	return ib_gid_table_install(table, &attr);
}

/* Re-read an IB port's GIDs; GID 0 gives the subnet prefix. */
static int cache_gids_read(struct ib_device *dev, u32 port,
			   struct ib_gid_table *table, int len, u64 *prefix)
{
	union ib_gid gid;
	int ix, ret;

	lockdep_assert_held(&table->lock);
	if (!dev->ops.query_gid)
		return 0;
	for (ix = 0; ix < min(len, table->size); ix++) {
		ret = dev->ops.query_gid(dev, port, ix, &gid);
		if (ret) {
			ibdev_warn(dev, "query_gid port %u index %d failed: %d\n",
				   port, ix, ret);
			return ret;
		}
		if (!ix && !rdma_is_zero_gid(&gid))
			*prefix = be64_to_cpu(gid.global.subnet_prefix);
		ret = cache_gid_slot_sync(table, dev, port, ix, &gid);
		if (ret)
			return ret;
	}
	return 0;
}

/* A new copy of a port's P_Key table. */
static struct ib_pkey_cache *cache_pkeys_read(struct ib_device *dev, u32 port,
					      int len)
{
	struct ib_pkey_cache *pkeys;
	int i, ret;

	pkeys = kmalloc(struct_size(pkeys, table, len), GFP_KERNEL);
	if (!pkeys)
		return ERR_PTR(-ENOMEM);
	pkeys->table_len = len;
	for (i = 0; i < len; i++) {
		ret = ib_query_pkey(dev, port, i, &pkeys->table[i]);
		if (ret) {
			ibdev_warn(dev, "query_pkey port %u index %d failed: %d\n",
				   port, i, ret);
			kfree(pkeys);
			return ERR_PTR(ret);
		}
	}
	return pkeys;
}

/* Swap in the new values; @pkeys NULL keeps the old P_Key table. */
static void cache_port_publish(struct ib_device *dev, u32 port,
			       const struct ib_port_attr *pattr,
			       struct ib_pkey_cache *pkeys)
{
	struct ib_port_cache *pc = &dev->port_data[port].cache;
	struct ib_pkey_cache *old = NULL;

	write_lock_irq(&dev->cache_lock);
	if (pkeys) {
		old = pc->pkey;
		pc->pkey = pkeys;
	}
	pc->lmc = pattr->lmc;
	pc->port_state = pattr->state;
	pc->subnet_prefix = pattr->subnet_prefix;
	write_unlock_irq(&dev->cache_lock);
	kfree(old);
}

static int cache_port_refresh_locked(struct ib_device *dev, u32 port,
				     struct ib_gid_table *table,
				     struct ib_port_attr *pattr,
				     bool gids, bool pkeys)
{
	struct ib_pkey_cache *pkey_cache = NULL;
	int ret;

	lockdep_assert_held(&table->lock);
	if (gids && !table->core_managed) {
		ret = cache_gids_read(dev, port, table, pattr->gid_tbl_len,
				      &pattr->subnet_prefix);
		if (ret)
			return ret;
	}
	if (pkeys && pattr->pkey_tbl_len) {
		pkey_cache = cache_pkeys_read(dev, port, pattr->pkey_tbl_len);
		if (IS_ERR(pkey_cache))
			return PTR_ERR(pkey_cache);
	}
	cache_port_publish(dev, port, pattr, pkey_cache);
	return 0;
}

/*
 * Re-read what the cache keeps of @port from the driver: port attributes
 * always, GIDs (IB ports) and P_Keys when asked. -ENODEV once the device
 * is being unregistered. The port is queried before the table lock is
 * taken: a driver's query_port may take RTNL (ib_get_eth_speed()), and
 * RoCE GID updates take the table lock under RTNL.
 */
static int cache_port_refresh(struct ib_device *dev, u32 port, bool gids,
			      bool pkeys)
{
	struct ib_gid_table *table = ib_gid_table_of(dev, port);
	struct ib_port_attr *pattr;
	int ret = -ENODEV;

	if (!table)
		return ret;
	pattr = kmalloc(sizeof(*pattr), GFP_KERNEL);
	if (!pattr)
		return -ENOMEM;
	ret = ib_query_port(dev, port, pattr);
	if (ret)
		goto out;
	ret = -ENODEV;
	mutex_lock(&table->lock);
	if (table->live)
		ret = cache_port_refresh_locked(dev, port, table, pattr, gids,
						pkeys);
	mutex_unlock(&table->lock);
out:
	kfree(pattr);
	return ret;
}

/* ---- Events -------------------------------------------------------------- */

/* The events after which the cached state of their port is stale. */
static const enum ib_event_type cache_update_events[] = {
	IB_EVENT_PORT_ERR,
	IB_EVENT_PORT_ACTIVE,
	IB_EVENT_LID_CHANGE,
	IB_EVENT_PKEY_CHANGE,
	IB_EVENT_CLIENT_REREGISTER,
	IB_EVENT_GID_CHANGE,
};

bool ib_cache_is_update_event(const struct ib_event *event)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cache_update_events); i++)
		if (event->event == cache_update_events[i])
			return true;
	return false;
}

void ib_cache_event_update(const struct ib_event *event)
{
	struct ib_device *dev = event->device;
	u32 port = event->element.port_num;
	bool gids, pkeys;
	int ret;

	if (!ib_cache_is_update_event(event))
		return;
	if (!rdma_is_port_valid(dev, port)) {
		ibdev_dbg(dev, "event %d on invalid port %u\n", event->event,
			  port);
		return;
	}
	gids = event->event == IB_EVENT_GID_CHANGE ||
	       event->event == IB_EVENT_CLIENT_REREGISTER;
	pkeys = event->event == IB_EVENT_PKEY_CHANGE;
	ret = cache_port_refresh(dev, port, gids, pkeys);
	if (ret && ret != -ENODEV)
		ibdev_warn(dev, "port %u cache refresh after event %d failed: %d\n",
			   port, event->event, ret);
}

/* ---- Device setup and teardown ------------------------------------------- */

static void cache_tables_close(struct ib_device *dev)
{
	u32 port;

	rdma_for_each_port(dev, port)
		ib_gid_table_close(ib_gid_table_of(dev, port));
}

int ib_cache_setup_one(struct ib_device *device)
{
	u32 port;
	int ret;

	rdma_for_each_port(device, port) {
		ret = ib_gid_table_create(device, port);
		if (ret)
			goto err_release;
	}
	rdma_for_each_port(device, port) {
		ret = cache_port_refresh(device, port, true, true);
		if (ret)
			goto err_close;
	}
	rdma_roce_rescan_device(device);
	return 0;

err_close:
	cache_tables_close(device);
err_release:
	ib_cache_release_one(device);
	return ret;
}

void ib_cache_cleanup_one(struct ib_device *device)
{
	cache_tables_close(device);
}

void ib_cache_release_one(struct ib_device *device)
{
	u32 port;

	if (!device->port_data)
		return;
	rdma_for_each_port(device, port) {
		kfree(device->port_data[port].cache.pkey);
		device->port_data[port].cache.pkey = NULL;
		ib_gid_table_destroy(device, port);
	}
}

/* ---- Lookups of the port values ------------------------------------------ */

/* 0 if @port has a cache to read, else -EINVAL. */
static int cache_port_check(struct ib_device *dev, u32 port)
{
	if (!rdma_is_port_valid(dev, port) || !dev->port_data) {
		ibdev_dbg(dev, "cache lookup on invalid port %u\n", port);
		return -EINVAL;
	}
	return 0;
}

/**
 * ib_get_cached_pkey() - A P_Key from the cached table
 * @device_handle: the device
 * @port_num: the port
 * @index: the index
 * @pkey: where the P_Key goes
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a bad port or index or a port without P_Keys.
 */
int ib_get_cached_pkey(struct ib_device *device_handle, u32 port_num,
		       int index, u16 *pkey)
{
	const struct ib_pkey_cache *cache;
	unsigned long flags;
	int ret;

	ret = cache_port_check(device_handle, port_num);
	if (ret)
		return ret;
	read_lock_irqsave(&device_handle->cache_lock, flags);
	cache = device_handle->port_data[port_num].cache.pkey;
	if (cache && index >= 0 && index < cache->table_len)
		*pkey = cache->table[index];
	else
		ret = -EINVAL;
	read_unlock_irqrestore(&device_handle->cache_lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_get_cached_pkey);

/* Index of @pkey in @cache; with @exact all 16 bits count, else a full member wins. */
static int cache_pkey_search(const struct ib_pkey_cache *cache, u16 pkey,
			     bool exact)
{
	int i, limited = -ENOENT;

	for (i = 0; i < cache->table_len; i++) {
		u16 entry = cache->table[i];

		if (exact) {
			if (entry == pkey)
				return i;
			continue;
		}
		if ((entry & 0x7fff) != (pkey & 0x7fff))
			continue;
		if (entry & 0x8000)
			return i;
		if (limited < 0)
			limited = i;
	}
	return limited;
}

static int cache_pkey_find(struct ib_device *dev, u32 port, u16 pkey,
			   u16 *index, bool exact)
{
	const struct ib_pkey_cache *cache;
	unsigned long flags;
	int ret;

	ret = cache_port_check(dev, port);
	if (ret)
		return ret;
	read_lock_irqsave(&dev->cache_lock, flags);
	cache = dev->port_data[port].cache.pkey;
	ret = cache ? cache_pkey_search(cache, pkey, exact) : -EINVAL;
	read_unlock_irqrestore(&dev->cache_lock, flags);
	if (ret < 0)
		return ret;
	*index = ret;
	return 0;
}

/**
 * ib_find_cached_pkey() - Index of a P_Key in the cached table
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key; the membership bit is ignored
 * @index: where the index goes
 *
 * A full member entry is preferred; otherwise the first limited one.
 *
 * Context: Any context.
 * Return: 0; -EINVAL for a bad port or one without P_Keys; -ENOENT if
 * absent.
 */
int ib_find_cached_pkey(struct ib_device *device, u32 port_num, u16 pkey,
			u16 *index)
{
	return cache_pkey_find(device, port_num, pkey, index, false);
}
EXPORT_SYMBOL(ib_find_cached_pkey);

/**
 * ib_find_exact_cached_pkey() - Index of an exact P_Key in the cached table
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key, membership bit included
 * @index: where the index goes
 *
 * Context: Any context.
 * Return: 0; -EINVAL for a bad port or one without P_Keys; -ENOENT if
 * absent.
 */
int ib_find_exact_cached_pkey(struct ib_device *device, u32 port_num,
			      u16 pkey, u16 *index)
{
	return cache_pkey_find(device, port_num, pkey, index, true);
}
EXPORT_SYMBOL(ib_find_exact_cached_pkey);

/**
 * ib_get_cached_lmc() - The cached LMC of a port
 * @device: the device
 * @port_num: the port
 * @lmc: where the LMC goes
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a bad port.
 */
int ib_get_cached_lmc(struct ib_device *device, u32 port_num, u8 *lmc)
{
	unsigned long flags;
	int ret;

	ret = cache_port_check(device, port_num);
	if (ret)
		return ret;
	read_lock_irqsave(&device->cache_lock, flags);
	*lmc = device->port_data[port_num].cache.lmc;
	read_unlock_irqrestore(&device->cache_lock, flags);
	return 0;
}
EXPORT_SYMBOL(ib_get_cached_lmc);

/**
 * ib_get_cached_port_state() - The cached state of a port
 * @device: the device
 * @port_num: the port
 * @port_active: where the state goes
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a bad port.
 */
int ib_get_cached_port_state(struct ib_device *device, u32 port_num,
			     enum ib_port_state *port_active)
{
	unsigned long flags;
	int ret;

	ret = cache_port_check(device, port_num);
	if (ret)
		return ret;
	read_lock_irqsave(&device->cache_lock, flags);
	*port_active = device->port_data[port_num].cache.port_state;
	read_unlock_irqrestore(&device->cache_lock, flags);
	return 0;
}
EXPORT_SYMBOL(ib_get_cached_port_state);

/**
 * ib_get_cached_subnet_prefix() - The cached subnet prefix of a port
 * @device: the device
 * @port_num: the port
 * @sn_pfx: where the prefix goes; 0 for a bad port
 *
 * Context: Any context.
 */
void ib_get_cached_subnet_prefix(struct ib_device *device, u32 port_num,
				 u64 *sn_pfx)
{
	unsigned long flags;

	*sn_pfx = 0;
	if (cache_port_check(device, port_num))
		return;
	read_lock_irqsave(&device->cache_lock, flags);
	*sn_pfx = device->port_data[port_num].cache.subnet_prefix;
	read_unlock_irqrestore(&device->cache_lock, flags);
}
EXPORT_SYMBOL(ib_get_cached_subnet_prefix);
