// SPDX-License-Identifier: GPL-2.0-only
/* The ports/<n>/ sysfs tree of an RDMA device: port state, GID and P_Key tables, counters. */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sysfs.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"
#include "sysfs/sysfs.h"

/*
 * /sys/class/infiniband/<dev>/ports/<n>/
 *	state phys_state rate link_layer lid sm_lid lid_mask_count sm_sl
 *	cap_mask			from ib_query_port() on every read
 *	gids/<i> pkeys/<i>		one file per table entry
 *	gid_attrs/{ndevs,types}/<i>	the GID entry's net device and type
 *	hw_counters/			when the driver has alloc_hw_port_stats
 *	+ the driver's ops.port_groups and the clients' groups
 *
 * A struct ib_port is the kobject of one port directory; its memory goes
 * with the last kobject_put(). Ports are built and removed by the device
 * model's registration steps, so ib_device.port_data[].sysfs changes only
 * while nobody else can look at the device (before it is enabled, after it
 * is disabled).
 */

/* One file of a table directory: its name is the table index. */
struct port_table_attr {
	struct ib_port_attribute attr;
	char name[8];
	u32 index;
};

/* gid_attrs/ of a port: the ndevs/ and types/ tables. */
struct gid_attrs_dir {
	struct kobject kobj;
	struct ib_port *port;
	struct attribute_group tables[2];
	const struct attribute_group *groups[3];
	struct port_table_attr attrs[];
};

/**
 * struct ib_port - one ports/<n>/ directory
 * @kobj: the directory
 * @ibdev: the device
 * @port_num: the port
 * @node: in ib_core_device.port_list
 * @gid_attrs: gid_attrs/, NULL until added
 * @hw_counters: hw_counters/, NULL without
 * @tables: gids/ and pkeys/
 * @groups: NULL-terminated: the tables that exist, then hw_counters/
 * @attrs: the table files, GIDs first, then P_Keys
 */
struct ib_port {
	struct kobject kobj;
	struct ib_device *ibdev;
	u32 port_num;
	struct list_head node;
	struct gid_attrs_dir *gid_attrs;
	struct ib_hw_counters *hw_counters;
	struct attribute_group tables[2];
	const struct attribute_group *groups[4];
	struct port_table_attr attrs[];
};

static struct ib_port_attribute *to_port_attr(struct attribute *attr)
{
	return container_of(attr, struct ib_port_attribute, attr);
}

static u32 table_index(struct ib_port_attribute *attr)
{
	return container_of(attr, struct port_table_attr, attr)->index;
}

/* ---- Port attributes from ib_query_port() -------------------------------- */

static const char *const port_state_names[] = {
	[IB_PORT_NOP]		= "NOP",
	[IB_PORT_DOWN]		= "DOWN",
	[IB_PORT_INIT]		= "INIT",
	[IB_PORT_ARMED]		= "ARMED",
	[IB_PORT_ACTIVE]	= "ACTIVE",
	[IB_PORT_ACTIVE_DEFER]	= "ACTIVE_DEFER",
};

static const char *const phys_state_names[] = {
	[0]						= "<unknown>",
	[IB_PORT_PHYS_STATE_SLEEP]			= "Sleep",
	[IB_PORT_PHYS_STATE_POLLING]			= "Polling",
	[IB_PORT_PHYS_STATE_DISABLED]			= "Disabled",
	[IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING] =
						"PortConfigurationTraining",
	[IB_PORT_PHYS_STATE_LINK_UP]			= "LinkUp",
	[IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY]	= "LinkErrorRecovery",
	[IB_PORT_PHYS_STATE_PHY_TEST]			= "Phy Test",
};

/* Per-lane speed: its name and its rate in units of 0.1 Gb/s. */
static const struct {
	u16 speed;
	const char *name;
	int deci_gbps;
} lane_speeds[] = {
	{ IB_SPEED_SDR,		"SDR",		 25 },
	{ IB_SPEED_DDR,		"DDR",		 50 },
	{ IB_SPEED_QDR,		"QDR",		100 },
	{ IB_SPEED_FDR10,	"FDR10",	100 },
	{ IB_SPEED_FDR,		"FDR",		140 },
	{ IB_SPEED_EDR,		"EDR",		250 },
	{ IB_SPEED_HDR,		"HDR",		500 },
	{ IB_SPEED_NDR,		"NDR",		1000 },
};

/**
 * ib_sysfs_rate_format() - Format a port's rate as sysfs "rate" shows it
 * @speed: ib_port_attr.active_speed; an unknown value counts as SDR
 * @width: ib_port_attr.active_width
 * @buf: the sysfs page
 *
 * E.g. "100 Gb/sec (4X EDR)", "2.5 Gb/sec (1X SDR)".
 *
 * Context: Any context.
 * Return: the length written, or -EINVAL for a width that is no IB width.
 */
ssize_t ib_sysfs_rate_format(u16 speed, u8 width, char *buf)
{
	int lanes = ib_width_enum_to_int(width);
	unsigned int i, row = 0;
	int rate;

	if (lanes < 0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(lane_speeds); i++)
		if (lane_speeds[i].speed == speed)
			row = i;
	rate = lane_speeds[row].deci_gbps * lanes;
	return sysfs_emit(buf, "%d%s Gb/sec (%dX %s)\n", rate / 10,
			  rate % 10 ? ".5" : "", lanes, lane_speeds[row].name);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sysfs_rate_format);

static ssize_t state_emit(const struct ib_port_attr *pa, char *buf)
{
	const char *name = "UNKNOWN";

	if (pa->state < ARRAY_SIZE(port_state_names))
		name = port_state_names[pa->state];
	return sysfs_emit(buf, "%d: %s\n", pa->state, name);
}

static ssize_t phys_state_emit(const struct ib_port_attr *pa, char *buf)
{
	const char *name = phys_state_names[0];

	if (pa->phys_state < ARRAY_SIZE(phys_state_names))
		name = phys_state_names[pa->phys_state];
	return sysfs_emit(buf, "%u: %s\n", pa->phys_state, name);
}

static ssize_t rate_emit(const struct ib_port_attr *pa, char *buf)
{
	return ib_sysfs_rate_format(pa->active_speed, pa->active_width, buf);
}

static ssize_t lid_emit(const struct ib_port_attr *pa, char *buf)
{
	return sysfs_emit(buf, "0x%x\n", pa->lid);
}

static ssize_t sm_lid_emit(const struct ib_port_attr *pa, char *buf)
{
	return sysfs_emit(buf, "0x%x\n", pa->sm_lid);
}

static ssize_t lid_mask_count_emit(const struct ib_port_attr *pa, char *buf)
{
	return sysfs_emit(buf, "%u\n", pa->lmc);
}

static ssize_t sm_sl_emit(const struct ib_port_attr *pa, char *buf)
{
	return sysfs_emit(buf, "%u\n", pa->sm_sl);
}

static ssize_t cap_mask_emit(const struct ib_port_attr *pa, char *buf)
{
	return sysfs_emit(buf, "0x%08x\n", pa->port_cap_flags);
}

/* Query the port, then let @emit format the field its file shows. */
static ssize_t port_query_show(struct ib_device *ibdev, u32 port_num,
			       char *buf,
			       ssize_t (*emit)(const struct ib_port_attr *pa,
					       char *buf))
{
	struct ib_port_attr pa;
	int ret;

	ret = ib_query_port(ibdev, port_num, &pa);
	if (ret)
		return ret;
	return emit(&pa, buf);
}

/* <name>_show() for a read-only file that shows <name>_emit() of a query. */
#define PORT_QUERY_ATTR(_name)						\
static ssize_t _name##_show(struct ib_device *ibdev, u32 port_num,	\
			    struct ib_port_attribute *attr, char *buf)	\
{									\
	return port_query_show(ibdev, port_num, buf, _name##_emit);	\
}									\
static IB_PORT_ATTR_RO(_name)

PORT_QUERY_ATTR(state);
PORT_QUERY_ATTR(phys_state);
PORT_QUERY_ATTR(rate);
PORT_QUERY_ATTR(lid);
PORT_QUERY_ATTR(sm_lid);
PORT_QUERY_ATTR(lid_mask_count);
PORT_QUERY_ATTR(sm_sl);
PORT_QUERY_ATTR(cap_mask);

static const char *const link_layer_names[] = {
	[IB_LINK_LAYER_UNSPECIFIED]	= "Unknown",
	[IB_LINK_LAYER_INFINIBAND]	= "InfiniBand",
	[IB_LINK_LAYER_ETHERNET]	= "Ethernet",
};

static ssize_t link_layer_show(struct ib_device *ibdev, u32 port_num,
			       struct ib_port_attribute *attr, char *buf)
{
	enum rdma_link_layer ll = rdma_port_get_link_layer(ibdev, port_num);

	/* a value the table does not know reads as unspecified */
	if (ll >= ARRAY_SIZE(link_layer_names))
		ll = IB_LINK_LAYER_UNSPECIFIED;
	return sysfs_emit(buf, "%s\n", link_layer_names[ll]);
}
static IB_PORT_ATTR_RO(link_layer);

static struct attribute *port_default_attrs[] = {
	&ib_port_attr_state.attr,
	&ib_port_attr_lid.attr,
	&ib_port_attr_lid_mask_count.attr,
	&ib_port_attr_sm_lid.attr,
	&ib_port_attr_sm_sl.attr,
	&ib_port_attr_cap_mask.attr,
	&ib_port_attr_rate.attr,
	&ib_port_attr_phys_state.attr,
	&ib_port_attr_link_layer.attr,
	NULL
};
ATTRIBUTE_GROUPS(port_default);

/* ---- Table files: gids/, pkeys/, gid_attrs/ ------------------------------ */

/* An unreadable GID entry (empty, reserved) shows as the zero GID. */
static ssize_t gid_show(struct ib_device *ibdev, u32 port_num,
			struct ib_port_attribute *attr, char *buf)
{
	static const union ib_gid zero_gid;
	const struct ib_gid_attr *ga;
	ssize_t ret;

	ga = rdma_get_gid_attr(ibdev, port_num, table_index(attr));
	if (IS_ERR(ga))
		return sysfs_emit(buf, "%pI6\n", zero_gid.raw);
	ret = sysfs_emit(buf, "%pI6\n", ga->gid.raw);
	rdma_put_gid_attr(ga);
	return ret;
}

static ssize_t gid_ndev_emit(const struct ib_gid_attr *ga, char *buf)
{
	struct net_device *ndev;
	ssize_t ret = -EINVAL;

	rcu_read_lock();
	ndev = rcu_dereference(ga->ndev);
	if (ndev)
		ret = sysfs_emit(buf, "%s\n", ndev->name);
	rcu_read_unlock();
	return ret;
}

static ssize_t gid_type_emit(const struct ib_gid_attr *ga, char *buf)
{
	return sysfs_emit(buf, "%s\n", ib_cache_gid_type_str(ga->gid_type));
}

/* gid_attrs files: -EINVAL for an entry that cannot be read, as 6.1. */
static ssize_t gid_attr_show(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attribute *attr, char *buf,
			     ssize_t (*emit)(const struct ib_gid_attr *ga,
					     char *buf))
{
	const struct ib_gid_attr *ga;
	ssize_t ret;

	ga = rdma_get_gid_attr(ibdev, port_num, table_index(attr));
	if (IS_ERR(ga))
		return -EINVAL;
	ret = emit(ga, buf);
	rdma_put_gid_attr(ga);
	return ret;
}

static ssize_t gid_ndev_show(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attribute *attr, char *buf)
{
	return gid_attr_show(ibdev, port_num, attr, buf, gid_ndev_emit);
}

static ssize_t gid_type_show(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attribute *attr, char *buf)
{
	return gid_attr_show(ibdev, port_num, attr, buf, gid_type_emit);
}

static ssize_t pkey_show(struct ib_device *ibdev, u32 port_num,
			 struct ib_port_attribute *attr, char *buf)
{
	u16 pkey;
	int ret;

	ret = ib_query_pkey(ibdev, port_num, table_index(attr), &pkey);
	if (ret)
		return ret;
	return sysfs_emit(buf, "0x%04x\n", pkey);
}

typedef ssize_t (*port_show_fn)(struct ib_device *ibdev, u32 port_num,
				struct ib_port_attribute *attr, char *buf);

/*
 * Make @ta the read-only file for table entry @index. -EINVAL for an index
 * too long for the name buffer (a table of ten million entries or more).
 */
static int table_attr_init(struct port_table_attr *ta, u32 index,
			   port_show_fn show)
{
	int len = snprintf(ta->name, sizeof(ta->name), "%u", index);

	if (len >= sizeof(ta->name))
		return -EINVAL;
	ta->index = index;
	ta->attr = (struct ib_port_attribute) {
		.attr = { .name = ta->name, .mode = 0444 },
		.show = show,
	};
	/* after the assignment above, which would clear its lockdep key */
	sysfs_attr_init(&ta->attr.attr);
	return 0;
}

/* Make @group the directory @name with files "0" .. "@n - 1" in @attrs. */
static int table_group_init(struct attribute_group *group, const char *name,
			    struct port_table_attr *attrs, u32 n,
			    port_show_fn show)
{
	/* NULL-terminated, as sysfs wants it */
	struct attribute **list = kcalloc(size_add(n, 1), sizeof(*list),
					  GFP_KERNEL);
	int ret = list ? 0 : -ENOMEM;
	u32 i;

	for (i = 0; !ret && i < n; i++) {
		ret = table_attr_init(&attrs[i], i, show);
		list[i] = &attrs[i].attr.attr;
	}
	if (ret) {
		kfree(list);
		return ret;
	}
	group->name = name;
	group->attrs = list;
	return 0;
}

/* ---- kobject glue -------------------------------------------------------- */

static ssize_t port_attr_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	struct ib_port_attribute *pattr = to_port_attr(attr);
	struct ib_port *p = container_of(kobj, struct ib_port, kobj);

	if (!pattr->show)
		return -EIO;
	return pattr->show(p->ibdev, p->port_num, pattr, buf);
}

static ssize_t port_attr_store(struct kobject *kobj, struct attribute *attr,
			       const char *buf, size_t count)
{
	struct ib_port_attribute *pattr = to_port_attr(attr);
	struct ib_port *p = container_of(kobj, struct ib_port, kobj);

	if (!pattr->store)
		return -EIO;
	return pattr->store(p->ibdev, p->port_num, pattr, buf, count);
}

static const struct sysfs_ops port_sysfs_ops = {
	.show	= port_attr_show,
	.store	= port_attr_store,
};

static void port_release(struct kobject *kobj)
{
	struct ib_port *p = container_of(kobj, struct ib_port, kobj);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p->tables); i++)
		kfree(p->tables[i].attrs);
	ib_hw_counters_destroy(p->hw_counters);
	kvfree(p);
}

static const struct kobj_type port_ktype = {
	.release	= port_release,
	.sysfs_ops	= &port_sysfs_ops,
	.default_groups	= port_default_groups,
};

static ssize_t gid_attrs_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	struct ib_port_attribute *pattr = to_port_attr(attr);
	struct ib_port *p = container_of(kobj, struct gid_attrs_dir, kobj)->port;

	return pattr->show(p->ibdev, p->port_num, pattr, buf);
}

static const struct sysfs_ops gid_attrs_sysfs_ops = {
	.show	= gid_attrs_show,
};

static void gid_attrs_release(struct kobject *kobj)
{
	struct gid_attrs_dir *ga = container_of(kobj, struct gid_attrs_dir, kobj);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ga->tables); i++)
		kfree(ga->tables[i].attrs);
	kfree(ga);
}

static const struct kobj_type gid_attrs_ktype = {
	.release	= gid_attrs_release,
	.sysfs_ops	= &gid_attrs_sysfs_ops,
};

/* ---- Building and removing a port ---------------------------------------- */

static u32 port_gid_tbl_len(const struct ib_port *p)
{
	return p->ibdev->port_data[p->port_num].immutable.gid_tbl_len;
}

static u32 port_pkey_tbl_len(const struct ib_port *p)
{
	return p->ibdev->port_data[p->port_num].immutable.pkey_tbl_len;
}

/*
 * A port directory and its gid_attrs/ go into sysfs the same way: the
 * kobject under @parent, then its groups; and come out in reverse.
 */
static int kobj_publish(struct kobject *kobj, struct kobject *parent,
			const char *name, const struct attribute_group **groups)
{
	int ret = kobject_add(kobj, parent, "%s", name);

	if (ret)
		return ret;
	ret = sysfs_create_groups(kobj, groups);
	if (ret)
		kobject_del(kobj);
	return ret;
}

static void kobj_unpublish(struct kobject *kobj,
			   const struct attribute_group **groups)
{
	sysfs_remove_groups(kobj, groups);
	kobject_del(kobj);
}

/* gid_attrs/ndevs/<i> and gid_attrs/types/<i> below the added port. */
static int gid_attrs_add(struct ib_port *p)
{
	u32 n = port_gid_tbl_len(p);
	struct gid_attrs_dir *ga;
	int ret;

	ga = kzalloc(struct_size(ga, attrs, size_mul(n, 2)), GFP_KERNEL);
	if (!ga)
		return -ENOMEM;
	ga->port = p;
	kobject_init(&ga->kobj, &gid_attrs_ktype);

	ga->groups[0] = &ga->tables[0];
	ga->groups[1] = &ga->tables[1];
	ret = table_group_init(&ga->tables[0], "ndevs", ga->attrs, n,
			       gid_ndev_show);
	if (!ret)
		ret = table_group_init(&ga->tables[1], "types", ga->attrs + n,
				       n, gid_type_show);
	if (!ret)
		ret = kobj_publish(&ga->kobj, &p->kobj, "gid_attrs",
				   ga->groups);
	if (!ret) {
		p->gid_attrs = ga;
		return 0;
	}
	/* the release frees whichever tables were built */
	kobject_put(&ga->kobj);
	return ret;
}

static void gid_attrs_remove(struct ib_port *p)
{
	struct gid_attrs_dir *ga = p->gid_attrs;

	p->gid_attrs = NULL;
	if (ga) {
		kobj_unpublish(&ga->kobj, ga->groups);
		kobject_put(&ga->kobj);
	}
}

/* Fill p->groups: gids/, pkeys/ (if the port has P_Keys), hw_counters/. */
static int port_groups_init(struct ib_port *p, bool full_dev)
{
	const struct attribute_group **next = p->groups;
	u32 ngids = port_gid_tbl_len(p), npkeys = port_pkey_tbl_len(p);
	int ret;

	ret = table_group_init(&p->tables[0], "gids", p->attrs, ngids,
			       gid_show);
	if (ret)
		return ret;
	*next++ = &p->tables[0];

	if (npkeys) {
		ret = table_group_init(&p->tables[1], "pkeys", p->attrs + ngids,
				       npkeys, pkey_show);
		if (ret)
			return ret;
		*next++ = &p->tables[1];
	}

	/* counters of a port belong to the device's own directory only */
	if (!full_dev)
		return 0;
	p->hw_counters = ib_hw_counters_port_create(p->ibdev, p->port_num);
	if (IS_ERR(p->hw_counters)) {
		ret = PTR_ERR(p->hw_counters);
		p->hw_counters = NULL;
		return ret == -EOPNOTSUPP ? 0 : ret;
	}
	*next++ = ib_hw_counters_group(p->hw_counters);
	return 0;
}

static struct ib_port *port_alloc(struct ib_device *ibdev, u32 port_num)
{
	const struct ib_port_immutable *im = &ibdev->port_data[port_num].immutable;
	struct ib_port *p;

	p = kvzalloc(struct_size(p, attrs, size_add(im->gid_tbl_len,
						    im->pkey_tbl_len)),
		     GFP_KERNEL);
	if (!p)
		return NULL;
	p->ibdev = ibdev;
	p->port_num = port_num;
	INIT_LIST_HEAD(&p->node);
	kobject_init(&p->kobj, &port_ktype);
	return p;
}

/*
 * A port directory goes into sysfs in steps, and comes out by undoing them
 * in reverse; port_add() unwinds a failed step the same way. Only the
 * device's own directory (not a namespace copy) carries the driver's
 * ops.port_groups.
 */
static bool port_of_full_dev(struct ib_core_device *coredev,
			     const struct ib_port *p)
{
	return coredev == &p->ibdev->coredev;
}

static int port_dir_add(struct ib_core_device *coredev, struct ib_port *p)
{
	char name[11];	/* any u32 */

	snprintf(name, sizeof(name), "%u", p->port_num);
	return kobj_publish(&p->kobj, coredev->ports_kobj, name, p->groups);
}

static void port_dir_remove(struct ib_core_device *coredev, struct ib_port *p)
{
	kobj_unpublish(&p->kobj, p->groups);
}

static int port_driver_groups_add(struct ib_core_device *coredev,
				  struct ib_port *p)
{
	if (!port_of_full_dev(coredev, p))
		return 0;
	return sysfs_create_groups(&p->kobj, p->ibdev->ops.port_groups);
}

static void port_driver_groups_remove(struct ib_core_device *coredev,
				      struct ib_port *p)
{
	if (port_of_full_dev(coredev, p))
		sysfs_remove_groups(&p->kobj, p->ibdev->ops.port_groups);
}

static int port_gid_attrs_add(struct ib_core_device *coredev,
			      struct ib_port *p)
{
	return gid_attrs_add(p);
}

static void port_gid_attrs_remove(struct ib_core_device *coredev,
				  struct ib_port *p)
{
	gid_attrs_remove(p);
}

static const struct {
	int (*add)(struct ib_core_device *coredev, struct ib_port *p);
	void (*remove)(struct ib_core_device *coredev, struct ib_port *p);
} port_steps[] = {
	{ port_dir_add,			port_dir_remove },
	{ port_driver_groups_add,	port_driver_groups_remove },
	{ port_gid_attrs_add,		port_gid_attrs_remove },
};

/* Undo the first @count steps of @p, last first. */
static void port_steps_undo(struct ib_core_device *coredev, struct ib_port *p,
			    unsigned int count)
{
	while (count--)
		port_steps[count].remove(coredev, p);
}

/* Build ports/<port_num>/ of @coredev and add it to coredev->port_list. */
static int port_add(struct ib_core_device *coredev, u32 port_num)
{
	struct ib_device *ibdev = rdma_device_to_ibdev(&coredev->dev);
	bool full_dev = coredev == &ibdev->coredev;
	unsigned int done;
	struct ib_port *p;
	int ret;

	p = port_alloc(ibdev, port_num);
	if (!p)
		return -ENOMEM;
	ret = port_groups_init(p, full_dev);
	for (done = 0; !ret && done < ARRAY_SIZE(port_steps); done++) {
		ret = port_steps[done].add(coredev, p);
		if (ret)
			port_steps_undo(coredev, p, done);
	}
	if (ret) {
		kobject_put(&p->kobj);
		return ret;
	}

	/* complete: only now may others find it */
	list_add_tail(&p->node, &coredev->port_list);
	if (full_dev)
		ibdev->port_data[port_num].sysfs = p;
	return 0;
}

/* Unpublish @p first, then take it down; its memory goes with the put. */
static void port_remove(struct ib_core_device *coredev, struct ib_port *p)
{
	if (port_of_full_dev(coredev, p))
		p->ibdev->port_data[p->port_num].sysfs = NULL;
	list_del(&p->node);
	port_steps_undo(coredev, p, ARRAY_SIZE(port_steps));
	kobject_put(&p->kobj);
}

/**
 * ib_free_port_attrs() - Remove the ports/ directory of a device
 * @coredev: the device's own core device or a namespace copy
 *
 * Ports go in the reverse of the order they were added.
 *
 * Context: Process context, may sleep. The device is not enabled.
 */
void ib_free_port_attrs(struct ib_core_device *coredev)
{
	while (!list_empty(&coredev->port_list))
		port_remove(coredev, list_last_entry(&coredev->port_list,
						     struct ib_port, node));
	kobject_put(coredev->ports_kobj);
	coredev->ports_kobj = NULL;
}

/**
 * ib_setup_port_attrs() - Add the ports/ directory below a device
 * @coredev: the device's own core device or a namespace copy, added to the
 *	     driver model
 *
 * Only the device's own directory gets hardware counters and the driver's
 * ops.port_groups.
 *
 * Context: Process context, may sleep. The device is not enabled yet.
 * Return: 0, or a negative errno with nothing left behind.
 */
int ib_setup_port_attrs(struct ib_core_device *coredev)
{
	struct ib_device *ibdev = rdma_device_to_ibdev(&coredev->dev);
	struct kobject *ports;
	u32 port;
	int ret;

	ports = kobject_create_and_add("ports", &coredev->dev.kobj);
	if (!ports)
		return -ENOMEM;
	/* port_add() finds the parent of the port directories here */
	coredev->ports_kobj = ports;
	rdma_for_each_port(ibdev, port) {
		ret = port_add(coredev, port);
		if (ret)
			goto err_ports;
	}
	return 0;

err_ports:
	ibdev_warn(ibdev, "sysfs: port %u: %d\n", port, ret);
	/* removes the ports added so far and ports/ itself */
	ib_free_port_attrs(coredev);
	return ret;
}

/**
 * ib_get_hw_stats_port() - The hardware counter set of a port
 * @ibdev: the device, registered
 * @port_num: the port
 *
 * Context: Any context; the caller keeps the device registered.
 * Return: the set behind ports/<port_num>/hw_counters/, or NULL.
 */
struct rdma_hw_stats *ib_get_hw_stats_port(struct ib_device *ibdev,
					   u32 port_num)
{
	struct ib_port *p;

	if (!ibdev->port_data || !rdma_is_port_valid(ibdev, port_num))
		return NULL;
	p = ibdev->port_data[port_num].sysfs;
	if (!p || !p->hw_counters)
		return NULL;
	return ib_hw_counters_stats(p->hw_counters);
}
EXPORT_SYMBOL_IF_KUNIT(ib_get_hw_stats_port);

/* ---- Exported to drivers and clients ------------------------------------- */

/**
 * ib_port_sysfs_get_ibdev_kobj() - Device and port behind a port directory
 * @kobj: the kobject of a ports/<n>/ directory, as a port attribute's
 *	  callbacks receive it
 * @port_num: where the port number goes
 *
 * Context: Any context, from a callback of the directory's attributes.
 * Return: the device.
 */
struct ib_device *ib_port_sysfs_get_ibdev_kobj(struct kobject *kobj,
					       u32 *port_num)
{
	struct ib_port *p = container_of(kobj, struct ib_port, kobj);

	*port_num = p->port_num;
	return p->ibdev;
}
EXPORT_SYMBOL(ib_port_sysfs_get_ibdev_kobj);

static struct ib_port *port_sysfs_get(struct ib_device *ibdev, u32 port_num)
{
	if (!rdma_is_port_valid(ibdev, port_num) ||
	    !ibdev->port_data[port_num].sysfs) {
		ibdev_warn(ibdev, "sysfs: no directory for port %u\n",
			   port_num);
		return NULL;
	}
	return ibdev->port_data[port_num].sysfs;
}

/**
 * ib_port_register_client_groups() - Add a client's files to a port
 * @ibdev: the device, registered
 * @port_num: the port
 * @groups: NULL-terminated attribute groups of ib_port_attribute files
 *
 * For clients that must keep old sysfs files (ib_cm's cm_rx_msgs/...);
 * new code should use netlink instead.
 *
 * Context: Process context, may sleep; typically from a client's add().
 * Return: 0, -EINVAL for a port without a directory, or sysfs's error.
 */
int ib_port_register_client_groups(struct ib_device *ibdev, u32 port_num,
				   const struct attribute_group **groups)
{
	struct ib_port *p = port_sysfs_get(ibdev, port_num);

	if (!p)
		return -EINVAL;
	return sysfs_create_groups(&p->kobj, groups);
}
EXPORT_SYMBOL(ib_port_register_client_groups);

/**
 * ib_port_unregister_client_groups() - Undo ib_port_register_client_groups()
 * @ibdev: the device
 * @port_num: the port
 * @groups: the groups given to ib_port_register_client_groups()
 *
 * Context: Process context, may sleep; typically from a client's remove().
 */
void ib_port_unregister_client_groups(struct ib_device *ibdev, u32 port_num,
				      const struct attribute_group **groups)
{
	struct ib_port *p = port_sysfs_get(ibdev, port_num);

	if (p)
		sysfs_remove_groups(&p->kobj, groups);
}
EXPORT_SYMBOL(ib_port_unregister_client_groups);
