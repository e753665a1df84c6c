// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_cache: the GID and P_Key cache of core/cache*.c on the mock driver. */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_verbs.h>

#include "core/device/device.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Port 1 is IB (GIDs from the driver), port 2 RoCE (GIDs from the core). */
#define IB_PORT		1
#define ROCE_PORT	2
#define ROCE_TBL_LEN	MOCK_IBDEV_GID_TBL_LEN(ROCE_PORT)
#define EVENT_TIMEOUT	msecs_to_jiffies(5000)

static const u8 test_mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const u8 test_mac2[ETH_ALEN] = { 0x02, 0x66, 0x77, 0x88, 0x99, 0xaa };

/**
 * struct cache_fix - what every case gets
 * @mdev: a registered mock device, ports IB_PORT and ROCE_PORT
 * @ndev: a net device (not registered) for RoCE GIDs
 * @ndev2: another one
 */
struct cache_fix {
	struct mock_ibdev *mdev;
	struct net_device *ndev;
	struct net_device *ndev2;
};

static struct net_device *test_netdev(struct kunit *test, const u8 *mac)
{
	struct net_device *ndev = alloc_etherdev(0);

	KUNIT_ASSERT_NOT_NULL(test, ndev);
	eth_hw_addr_set(ndev, mac);
	return ndev;
}

static int cache_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 2, .roce_port = ROCE_PORT };
	struct cache_fix *fix = kunit_kzalloc(test, sizeof(*fix), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fix);
	test->priv = fix;
	fix->mdev = mock_ibdev_alloc(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, fix->mdev);
	KUNIT_ASSERT_EQ(test, mock_ibdev_register(fix->mdev, "kmcache%d"), 0);
	fix->ndev = test_netdev(test, test_mac);
	fix->ndev2 = test_netdev(test, test_mac2);
	return 0;
}

static void cache_test_exit(struct kunit *test)
{
	struct cache_fix *fix = test->priv;

	flush_workqueue(ib_wq);
	mock_ibdev_cleanup_all();
	/* the GID entries' netdev references go after a grace period */
	rcu_barrier();
	if (fix->ndev)
		free_netdev(fix->ndev);
	if (fix->ndev2)
		free_netdev(fix->ndev2);
}

static struct cache_fix *fix_of(struct kunit *test)
{
	return test->priv;
}

static struct ib_device *dev_of(struct kunit *test)
{
	return &fix_of(test)->mdev->ibdev;
}

/* Slots a RoCE port reserves for default GIDs: one per RoCE version it has. */
static int default_slots(struct ib_device *dev, u32 port)
{
	u32 caps = dev->port_data[port].immutable.core_cap_flags;

	return !!(caps & RDMA_CORE_CAP_PROT_ROCE) +
	       !!(caps & RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP);
}

/* A distinct non-zero GID for RoCE cases. */
static union ib_gid roce_gid(u8 n)
{
	union ib_gid gid = { .raw = { 0x20, 0x01, 0x0d, 0xb8 } };

	gid.raw[15] = n;
	return gid;
}

static int add_gid(struct kunit *test, struct net_device *ndev, u8 n,
		   enum ib_gid_type type)
{
	struct ib_gid_attr attr = { .gid_type = type };
	union ib_gid gid = roce_gid(n);

	RCU_INIT_POINTER(attr.ndev, ndev);
	return ib_cache_gid_add(dev_of(test), ROCE_PORT, &gid, &attr);
}

static int del_gid(struct kunit *test, struct net_device *ndev, u8 n,
		   enum ib_gid_type type)
{
	struct ib_gid_attr attr = { .gid_type = type };
	union ib_gid gid = roce_gid(n);

	RCU_INIT_POINTER(attr.ndev, ndev);
	return ib_cache_gid_del(dev_of(test), ROCE_PORT, &gid, &attr);
}

/* Index of RoCE GID @n (type v2, any netdev), or the lookup's errno. */
static int roce_index(struct kunit *test, u8 n, enum ib_gid_type type)
{
	union ib_gid gid = roce_gid(n);
	const struct ib_gid_attr *attr;
	int ix;

	attr = rdma_find_gid_by_port(dev_of(test), &gid, type, ROCE_PORT, NULL);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	ix = attr->index;
	rdma_put_gid_attr(attr);
	return ix;
}

static bool test_gid_eq(const union ib_gid *a, const union ib_gid *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* ---- Events: a handler that reads the cache ------------------------------ */

/**
 * struct cache_reader - an event handler recording what the cache said
 * @eh: the handler
 * @done: completed by each call
 * @event: the event type seen
 * @state: cached state of port 1 when the handler ran
 * @lmc: cached LMC of port 1
 * @pkey0: cached P_Key 0 of port 1
 * @gid1: cached GID 1 of port 1
 */
struct cache_reader {
	struct ib_event_handler eh;
	struct completion done;
	enum ib_event_type event;
	enum ib_port_state state;
	u8 lmc;
	u16 pkey0;
	union ib_gid gid1;
};

static void cache_reader_handle(struct ib_event_handler *eh,
				struct ib_event *event)
{
	struct cache_reader *r = container_of(eh, struct cache_reader, eh);

	if (event->element.port_num != IB_PORT)
		return;
	r->event = event->event;
	ib_get_cached_port_state(event->device, IB_PORT, &r->state);
	ib_get_cached_lmc(event->device, IB_PORT, &r->lmc);
	ib_get_cached_pkey(event->device, IB_PORT, 0, &r->pkey0);
	rdma_query_gid(event->device, IB_PORT, 1, &r->gid1);
	complete(&r->done);
}

static void reader_start(struct cache_reader *r, struct ib_device *dev)
{
	init_completion(&r->done);
	INIT_IB_EVENT_HANDLER(&r->eh, dev, cache_reader_handle);
	ib_register_event_handler(&r->eh);
}

/* Dispatch @type on port 1 and wait for the reader to see it. */
static void reader_event(struct kunit *test, struct cache_reader *r,
			 enum ib_event_type type)
{
	reinit_completion(&r->done);
	mock_ibdev_port_event(fix_of(test)->mdev, IB_PORT, type);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&r->done,
							  EVENT_TIMEOUT), 0UL);
	KUNIT_EXPECT_EQ(test, r->event, type);
}

/* ---- IB ports: the cache mirrors the driver ------------------------------ */

static void ib_port_values_test(struct kunit *test)
{
	struct ib_device *dev = dev_of(test);
	const struct ib_gid_attr *attr;
	struct ib_port_attr pattr;
	enum ib_port_state state;
	union ib_gid gid, want;
	u64 prefix;
	u16 pkey;
	u8 lmc;
	int i;

	for (i = 0; i < MOCK_IBDEV_GID_TBL_LEN(IB_PORT); i++) {
		want = mock_ibdev_gid(IB_PORT, i);
		KUNIT_ASSERT_EQ(test, rdma_query_gid(dev, IB_PORT, i, &gid), 0);
		KUNIT_EXPECT_TRUE(test, test_gid_eq(&gid, &want));
	}
	for (i = 0; i < MOCK_IBDEV_PKEY_TBL_LEN(IB_PORT); i++) {
		KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(dev, IB_PORT, i, &pkey), 0);
		KUNIT_EXPECT_EQ(test, pkey, (u16)MOCK_IBDEV_PKEY(IB_PORT, i));
	}
	KUNIT_EXPECT_EQ(test, ib_get_cached_lmc(dev, IB_PORT, &lmc), 0);
	KUNIT_EXPECT_EQ(test, lmc, 0);
	KUNIT_EXPECT_EQ(test, ib_get_cached_port_state(dev, IB_PORT, &state), 0);
	KUNIT_EXPECT_EQ(test, state, IB_PORT_ACTIVE);

	/* the subnet prefix comes from GID 0; ib_query_port fills it in */
	ib_get_cached_subnet_prefix(dev, IB_PORT, &prefix);
	KUNIT_EXPECT_EQ(test, prefix, MOCK_IBDEV_GID_PREFIX(IB_PORT));
	KUNIT_ASSERT_EQ(test, ib_query_port(dev, IB_PORT, &pattr), 0);
	KUNIT_EXPECT_EQ(test, pattr.subnet_prefix, MOCK_IBDEV_GID_PREFIX(IB_PORT));
	/* not for an Ethernet link layer port */
	KUNIT_ASSERT_EQ(test, ib_query_port(dev, ROCE_PORT, &pattr), 0);
	KUNIT_EXPECT_EQ(test, pattr.subnet_prefix, 0ULL);

	attr = rdma_get_gid_attr(dev, IB_PORT, 3);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	want = mock_ibdev_gid(IB_PORT, 3);
	KUNIT_EXPECT_TRUE(test, test_gid_eq(&attr->gid, &want));
	KUNIT_EXPECT_PTR_EQ(test, attr->device, dev);
	KUNIT_EXPECT_EQ(test, attr->port_num, (u32)IB_PORT);
	KUNIT_EXPECT_EQ(test, attr->index, 3);
	KUNIT_EXPECT_EQ(test, attr->gid_type, IB_GID_TYPE_IB);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(attr->ndev));
	KUNIT_EXPECT_NULL(test, rdma_read_gid_hw_context(attr));
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_read_gid_attr_ndev_rcu(attr)),
			-ENODEV);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, NULL, NULL), -ENODEV);
	rdma_put_gid_attr(attr);

	/* the RoCE port has P_Keys too, but no GIDs until the core adds them */
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, ROCE_PORT, 1, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, (u16)MOCK_IBDEV_PKEY(ROCE_PORT, 1));
	KUNIT_EXPECT_EQ(test, rdma_query_gid(dev, ROCE_PORT, 0, &gid), -ENOENT);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix_of(test)->mdev, MOCK_ADD_GID), 0);
}

/* ---- Errors of the index-based lookups (parameterised) ------------------- */

/**
 * struct index_case - one call of rdma_query_gid/rdma_get_gid_attr/ib_get_cached_pkey
 * @name: for the log
 * @port: the port
 * @index: the index
 * @query_err: what rdma_query_gid() returns
 * @attr_err: what rdma_get_gid_attr() returns (as PTR_ERR), 0 for success
 * @pkey_err: what ib_get_cached_pkey() returns
 */
struct index_case {
	const char *name;
	u32 port;
	int index;
	int query_err;
	int attr_err;
	int pkey_err;
};

static const struct index_case index_cases[] = {
	{ "port 0", 0, 0, -EINVAL, -EINVAL, -EINVAL },
	{ "port past the last", 3, 0, -EINVAL, -EINVAL, -EINVAL },
	{ "port U32_MAX", U32_MAX, 0, -EINVAL, -EINVAL, -EINVAL },
	{ "negative index", IB_PORT, -1, -EINVAL, -EINVAL, -EINVAL },
	{ "index at GID table end", IB_PORT, MOCK_IBDEV_GID_TBL_LEN(IB_PORT),
	  -EINVAL, -EINVAL, 0 },
	{ "index at P_Key table end", IB_PORT, MOCK_IBDEV_PKEY_TBL_LEN(IB_PORT),
	  -EINVAL, -EINVAL, -EINVAL },
	{ "empty RoCE slot", ROCE_PORT, 5, -ENOENT, -ENODATA, 0 },
	{ "last IB entry", IB_PORT, MOCK_IBDEV_GID_TBL_LEN(IB_PORT) - 1, 0, 0, 0 },
};

static void index_case_desc(const struct index_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(index, index_cases, index_case_desc);

static void index_errors_test(struct kunit *test)
{
	const struct index_case *c = test->param_value;
	struct ib_device *dev = dev_of(test);
	const struct ib_gid_attr *attr;
	union ib_gid gid;
	u16 pkey;

	KUNIT_EXPECT_EQ(test, rdma_query_gid(dev, c->port, c->index, &gid),
			c->query_err);
	attr = rdma_get_gid_attr(dev, c->port, c->index);
	if (c->attr_err) {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(attr), (long)c->attr_err);
	} else {
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
		KUNIT_EXPECT_EQ(test, attr->index, (u16)c->index);
		rdma_put_gid_attr(attr);
	}
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(dev, c->port, c->index, &pkey),
			c->pkey_err);
}

/* Every other refusal of bad arguments. */
static void arg_errors_test(struct kunit *test)
{
	struct ib_device *dev = dev_of(test);
	union ib_gid gid = mock_ibdev_gid(IB_PORT, 0);
	struct ib_uverbs_gid_entry entries[2];
	enum ib_port_state state;
	u16 index;
	u64 prefix;
	u8 lmc;

	KUNIT_EXPECT_EQ(test, rdma_query_gid(dev, IB_PORT, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_lmc(dev, 0, &lmc), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_lmc(dev, 3, &lmc), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_port_state(dev, 3, &state), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(dev, 3, 0xffff, &index), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_find_exact_cached_pkey(dev, 0, 0xffff, &index),
			-EINVAL);
	prefix = 1;
	ib_get_cached_subnet_prefix(dev, 3, &prefix);
	KUNIT_EXPECT_EQ(test, prefix, 0ULL);

	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(dev, &gid,
							    IB_GID_TYPE_IB, 3, NULL)), -ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(dev, NULL,
							    IB_GID_TYPE_IB,
							    IB_PORT, NULL)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(dev, NULL, IB_GID_TYPE_IB,
						    NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_filter(dev, &gid, 0,
							      NULL, NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_filter(dev, &gid,
							      IB_PORT, NULL, NULL)), -EINVAL);
	/* eight IB GIDs do not fit in two entries */
	KUNIT_EXPECT_EQ(test, rdma_query_gid_table(dev, entries, 2), -EINVAL);
}

/* Lookups on a device that was never registered have no cache to read. */
static void unregistered_device_test(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mock_ibdev *mdev = mock_ibdev_alloc(&cfg);
	union ib_gid gid = mock_ibdev_gid(1, 0);
	u16 pkey;

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&mdev->ibdev, 1, 0, &gid), -ENODEV);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(&mdev->ibdev, 1, 0)),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(&mdev->ibdev, &gid,
						    IB_GID_TYPE_IB, NULL)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(&mdev->ibdev, 1, 0, &pkey),
			-EINVAL);
	mock_ibdev_free(mdev);
}

/* ---- P_Key searches (parameterised) -------------------------------------- */

/* Installed at these indexes of port 1 before the searches. */
#define PK_LIMITED_IX	5	/* 0x1234: limited member */
#define PK_FULL_IX	9	/* 0x9234: full member of the same partition */
#define PK_ONLY_LIM_IX	7	/* 0x0555: limited, no full member anywhere */

/**
 * struct pkey_case - one search of the cached P_Keys of port 1
 * @name: for the log
 * @pkey: what to look for
 * @exact: ib_find_exact_cached_pkey() rather than ib_find_cached_pkey()
 * @ret: the expected return
 * @index: the expected index when @ret is 0
 */
struct pkey_case {
	const char *name;
	u16 pkey;
	bool exact;
	int ret;
	u16 index;
};

static const struct pkey_case pkey_cases[] = {
	{ "full member preferred", 0x1234, false, 0, PK_FULL_IX },
	{ "membership bit ignored", 0x9234, false, 0, PK_FULL_IX },
	{ "exact limited", 0x1234, true, 0, PK_LIMITED_IX },
	{ "exact full", 0x9234, true, 0, PK_FULL_IX },
	{ "limited member when no full one", 0x8555, false, 0, PK_ONLY_LIM_IX },
	{ "exact: no full member", 0x8555, true, -ENOENT, 0 },
	{ "absent", 0x4321, false, -ENOENT, 0 },
	{ "exact absent", 0x4321, true, -ENOENT, 0 },
	{ "untouched driver entry", MOCK_IBDEV_PKEY(IB_PORT, 3), true, 0, 3 },
};

static void pkey_case_desc(const struct pkey_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pkey, pkey_cases, pkey_case_desc);

static void pkey_find_test(struct kunit *test)
{
	const struct pkey_case *c = test->param_value;
	struct mock_ibdev *mdev = fix_of(test)->mdev;
	struct cache_reader r = {};
	u16 index = 0xdead;
	int ret;

	mock_ibdev_set_pkey(mdev, IB_PORT, PK_LIMITED_IX, 0x1234);
	mock_ibdev_set_pkey(mdev, IB_PORT, PK_FULL_IX, 0x9234);
	mock_ibdev_set_pkey(mdev, IB_PORT, PK_ONLY_LIM_IX, 0x0555);
	reader_start(&r, &mdev->ibdev);
	reader_event(test, &r, IB_EVENT_PKEY_CHANGE);
	ib_unregister_event_handler(&r.eh);

	if (c->exact)
		ret = ib_find_exact_cached_pkey(&mdev->ibdev, IB_PORT, c->pkey,
						&index);
	else
		ret = ib_find_cached_pkey(&mdev->ibdev, IB_PORT, c->pkey,
					  &index);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!c->ret)
		KUNIT_EXPECT_EQ(test, index, c->index);
}

/* ---- Events refresh the cache before handlers run ------------------------ */

/**
 * struct event_case - what an event refreshes
 * @name: for the log
 * @event: the event
 * @port_attrs: LMC and state are re-read
 * @pkeys: the P_Key table is re-read
 * @gids: the GID table is re-read
 */
struct event_case {
	const char *name;
	enum ib_event_type event;
	bool port_attrs;
	bool pkeys;
	bool gids;
};

static const struct event_case event_cases[] = {
	{ "PORT_ERR", IB_EVENT_PORT_ERR, true, false, false },
	{ "PORT_ACTIVE", IB_EVENT_PORT_ACTIVE, true, false, false },
	{ "LID_CHANGE", IB_EVENT_LID_CHANGE, true, false, false },
	{ "PKEY_CHANGE", IB_EVENT_PKEY_CHANGE, true, true, false },
	{ "GID_CHANGE", IB_EVENT_GID_CHANGE, true, false, true },
	{ "CLIENT_REREGISTER", IB_EVENT_CLIENT_REREGISTER, true, false, true },
	{ "SM_CHANGE (no refresh)", IB_EVENT_SM_CHANGE, false, false, false },
};

static void event_case_desc(const struct event_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(event, event_cases, event_case_desc);

static void event_refresh_test(struct kunit *test)
{
	const struct event_case *c = test->param_value;
	struct mock_ibdev *mdev = fix_of(test)->mdev;
	union ib_gid new_gid = mock_ibdev_gid(IB_PORT, 0x77);
	union ib_gid old_gid = mock_ibdev_gid(IB_PORT, 1);
	struct cache_reader r = {};

	mock_ibdev_set_port(mdev, IB_PORT, 0x42, 2, IB_PORT_DOWN);
	mock_ibdev_set_pkey(mdev, IB_PORT, 0, 0x7fff);
	mock_ibdev_set_gid(mdev, IB_PORT, 1, &new_gid);
	reader_start(&r, &mdev->ibdev);
	reader_event(test, &r, c->event);
	ib_unregister_event_handler(&r.eh);

	/* the handler read the cache: it saw the new values, or the old */
	KUNIT_EXPECT_EQ(test, r.state, c->port_attrs ? IB_PORT_DOWN : IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, r.lmc, c->port_attrs ? 2 : 0);
	KUNIT_EXPECT_EQ(test, r.pkey0,
			c->pkeys ? 0x7fff : (u16)MOCK_IBDEV_PKEY(IB_PORT, 0));
	KUNIT_EXPECT_TRUE(test, test_gid_eq(&r.gid1, c->gids ? &new_gid : &old_gid));
}

/* A refresh that fails at the driver leaves the old values. */
static void event_driver_error_test(struct kunit *test)
{
	struct mock_ibdev *mdev = fix_of(test)->mdev;
	union ib_gid new_gid = mock_ibdev_gid(IB_PORT, 0x77);
	union ib_gid old_gid = mock_ibdev_gid(IB_PORT, 1);
	struct cache_reader r = {};

	mock_ibdev_set_port(mdev, IB_PORT, 0x42, 2, IB_PORT_DOWN);
	mock_ibdev_set_gid(mdev, IB_PORT, 1, &new_gid);
	mock_ibdev_fail(mdev, MOCK_QUERY_GID, -EIO);
	reader_start(&r, &mdev->ibdev);
	reader_event(test, &r, IB_EVENT_GID_CHANGE);
	ib_unregister_event_handler(&r.eh);
	mock_ibdev_fail(mdev, MOCK_QUERY_GID, 0);

	KUNIT_EXPECT_EQ(test, r.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_TRUE(test, test_gid_eq(&r.gid1, &old_gid));
}

/* ---- IB entries: held across changes ------------------------------------- */

static void ib_held_entry_test(struct kunit *test)
{
	struct mock_ibdev *mdev = fix_of(test)->mdev;
	struct ib_device *dev = &mdev->ibdev;
	union ib_gid new_gid = mock_ibdev_gid(IB_PORT, 0x55);
	union ib_gid old_gid = mock_ibdev_gid(IB_PORT, 2);
	const struct ib_gid_attr *held, *same, *fresh;
	struct cache_reader r = {};
	union ib_gid gid;

	held = rdma_get_gid_attr(dev, IB_PORT, 2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, held);
	same = rdma_get_gid_attr(dev, IB_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, same);

	mock_ibdev_set_gid(mdev, IB_PORT, 2, &new_gid);
	mock_ibdev_set_gid(mdev, IB_PORT, 3, &zgid);
	reader_start(&r, dev);
	reader_event(test, &r, IB_EVENT_GID_CHANGE);
	ib_unregister_event_handler(&r.eh);

	/* the held entry is deleted but still readable */
	KUNIT_EXPECT_TRUE(test, test_gid_eq(&held->gid, &old_gid));
	KUNIT_EXPECT_EQ(test, held->index, 2);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_read_gid_attr_ndev_rcu(held)), -EINVAL);
	rcu_read_unlock();
	/* an IB slot follows the driver at once */
	KUNIT_ASSERT_EQ(test, rdma_query_gid(dev, IB_PORT, 2, &gid), 0);
	KUNIT_EXPECT_TRUE(test, test_gid_eq(&gid, &new_gid));
	fresh = rdma_get_gid_attr(dev, IB_PORT, 2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fresh);
	KUNIT_EXPECT_PTR_NE(test, fresh, held);
	rdma_put_gid_attr(fresh);
	/* the old GID is no longer found */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(dev, &old_gid,
						    IB_GID_TYPE_IB, NULL)),
			-ENOENT);
	/* a zero GID from the driver is an empty slot */
	KUNIT_EXPECT_EQ(test, rdma_query_gid(dev, IB_PORT, 3, &gid), -ENOENT);
	/* an unchanged GID keeps its entry */
	fresh = rdma_get_gid_attr(dev, IB_PORT, 0);
	KUNIT_EXPECT_PTR_EQ(test, fresh, same);
	if (!IS_ERR(fresh))
		rdma_put_gid_attr(fresh);

	rdma_put_gid_attr(same);
	rdma_put_gid_attr(held);
}

/* ---- RoCE: entries the core adds ----------------------------------------- */

static void roce_add_del_test(struct kunit *test)
{
	struct cache_fix *fix = fix_of(test);
	struct ib_device *dev = dev_of(test);
	int first = default_slots(dev, ROCE_PORT);
	const struct ib_gid_attr *attr;
	union ib_gid gid = roce_gid(1);
	struct mock_gid_ctx *ctx;
	u8 smac[ETH_ALEN];
	u16 vlan = 0;

	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE_UDP_ENCAP), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_ADD_GID), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(fix->mdev, MOCK_OBJ_GID), 1);

	attr = rdma_find_gid_by_port(dev, &gid, IB_GID_TYPE_ROCE_UDP_ENCAP,
				     ROCE_PORT, fix->ndev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	/* the first slot not reserved for default GIDs */
	KUNIT_EXPECT_EQ(test, attr->index, (u16)first);
	KUNIT_EXPECT_EQ(test, attr->port_num, (u32)ROCE_PORT);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(attr->ndev), fix->ndev);
	ctx = rdma_read_gid_hw_context(attr);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_EXPECT_EQ(test, ctx->index, (u32)first);
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, &vlan, smac), 0);
	KUNIT_EXPECT_EQ(test, vlan, 0xffff);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(smac, test_mac));
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, rdma_read_gid_attr_ndev_rcu(attr), fix->ndev);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);

	/* the same GID, type and netdev again: nothing new */
	KUNIT_EXPECT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE_UDP_ENCAP), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_ADD_GID), 1);
	/* another type is another entry */
	KUNIT_EXPECT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_EQ(test, roce_index(test, 1, IB_GID_TYPE_ROCE), first + 1);

	KUNIT_EXPECT_EQ(test, del_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE_UDP_ENCAP), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_DEL_GID), 1);
	KUNIT_EXPECT_EQ(test, roce_index(test, 1, IB_GID_TYPE_ROCE_UDP_ENCAP), -ENOENT);
	/* deleting what is not there */
	KUNIT_EXPECT_EQ(test, del_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE_UDP_ENCAP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, del_gid(test, fix->ndev2, 1, IB_GID_TYPE_ROCE), -EINVAL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_DEL_GID), 1);
	KUNIT_EXPECT_EQ(test, roce_index(test, 1, IB_GID_TYPE_ROCE), first + 1);
}

/* What ib_cache_gid_add/del refuse. */
static void roce_add_errors_test(struct kunit *test)
{
	struct cache_fix *fix = fix_of(test);
	struct ib_device *dev = dev_of(test);
	struct ib_gid_attr attr = { .gid_type = IB_GID_TYPE_ROCE };
	union ib_gid gid = roce_gid(1), zero = {};

	RCU_INIT_POINTER(attr.ndev, fix->ndev);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_add(dev, ROCE_PORT, &zero, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_add(dev, IB_PORT, &gid, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_add(dev, 3, &gid, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_del(dev, 0, &gid, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_del_all_netdev_gids(dev, 3, fix->ndev),
			-EINVAL);
	RCU_INIT_POINTER(attr.ndev, NULL);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_add(dev, ROCE_PORT, &gid, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_ADD_GID), 0);

	/* the driver refuses: nothing is added */
	mock_ibdev_fail(fix->mdev, MOCK_ADD_GID, -EIO);
	KUNIT_EXPECT_EQ(test, add_gid(test, fix->ndev, 2, IB_GID_TYPE_ROCE), -EIO);
	mock_ibdev_fail(fix->mdev, MOCK_ADD_GID, 0);
	KUNIT_EXPECT_EQ(test, roce_index(test, 2, IB_GID_TYPE_ROCE), -ENOENT);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(fix->mdev, MOCK_OBJ_GID), 0);
	/* and its slot is still free */
	KUNIT_EXPECT_EQ(test, add_gid(test, fix->ndev, 2, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_EQ(test, roce_index(test, 2, IB_GID_TYPE_ROCE),
			default_slots(dev, ROCE_PORT));
}

static void roce_table_full_test(struct kunit *test)
{
	struct cache_fix *fix = fix_of(test);
	int room = ROCE_TBL_LEN - default_slots(dev_of(test), ROCE_PORT);
	int i;

	for (i = 0; i < room; i++)
		KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, i + 1, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_EQ(test, add_gid(test, fix->ndev, 0xf0, IB_GID_TYPE_ROCE), -ENOSPC);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_ADD_GID), room);
	/* a GID already there is not a new entry, even when full */
	KUNIT_EXPECT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE), 0);

	KUNIT_EXPECT_EQ(test, del_gid(test, fix->ndev, 3, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_EQ(test, add_gid(test, fix->ndev, 0xf0, IB_GID_TYPE_ROCE), 0);
}

/* A held RoCE entry outlives its deletion; its slot waits for the last put. */
static void roce_held_entry_test(struct kunit *test)
{
	struct cache_fix *fix = fix_of(test);
	struct ib_device *dev = dev_of(test);
	union ib_gid gid = roce_gid(1);
	const struct ib_gid_attr *attr;
	int refs, ix;

	refs = netdev_refcnt_read(fix->ndev);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(fix->ndev), refs + 1);
	attr = rdma_find_gid(dev, &gid, IB_GID_TYPE_ROCE, fix->ndev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	ix = attr->index;
	rdma_hold_gid_attr(attr);

	KUNIT_ASSERT_EQ(test, del_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(fix->mdev, MOCK_OBJ_GID), 0);
	/* still readable, no longer findable, its net device let go */
	KUNIT_EXPECT_TRUE(test, test_gid_eq(&attr->gid, &gid));
	KUNIT_EXPECT_EQ(test, attr->index, (u16)ix);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(attr->ndev));
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, NULL, NULL), -ENODEV);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_read_gid_attr_ndev_rcu(attr)), -EINVAL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(dev, ROCE_PORT, ix)),
			-ENODATA);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(fix->ndev), refs);

	/* the slot is not reused while held */
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 2, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_NE(test, roce_index(test, 2, IB_GID_TYPE_ROCE), ix);
	rdma_put_gid_attr(attr);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 3, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_NE(test, roce_index(test, 3, IB_GID_TYPE_ROCE), ix);
	/* after the last put it is */
	rdma_put_gid_attr(attr);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 4, IB_GID_TYPE_ROCE), 0);
	KUNIT_EXPECT_EQ(test, roce_index(test, 4, IB_GID_TYPE_ROCE), ix);
}

/* The link-local GID of test_mac: fe80::0011:22ff:fe33:4455 (U/L bit flipped). */
static union ib_gid default_gid_of_test_mac(void)
{
	union ib_gid gid = { .raw = { 0xfe, 0x80 } };
	static const u8 ifid[8] = { 0x00, 0x11, 0x22, 0xff,
				    0xfe, 0x33, 0x44, 0x55 };

	memcpy(&gid.raw[8], ifid, sizeof(ifid));
	return gid;
}

static void roce_default_gid_test(struct kunit *test)
{
	struct cache_fix *fix = fix_of(test);
	struct ib_device *dev = dev_of(test);
	union ib_gid want = default_gid_of_test_mac();
	const struct ib_gid_attr *attr;
	struct ib_gid_attr del = { .gid_type = IB_GID_TYPE_ROCE };

	KUNIT_ASSERT_GE(test, default_slots(dev, ROCE_PORT), 1);
	ib_cache_gid_set_default_gid(dev, ROCE_PORT, fix->ndev,
				     BIT(IB_GID_TYPE_ROCE),
				     IB_CACHE_GID_DEFAULT_MODE_SET);
	attr = rdma_get_gid_attr(dev, ROCE_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_TRUE(test, test_gid_eq(&attr->gid, &want));
	KUNIT_EXPECT_EQ(test, attr->gid_type, IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(attr->ndev), fix->ndev);
	rdma_put_gid_attr(attr);

	/* set again: still one */
	ib_cache_gid_set_default_gid(dev, ROCE_PORT, fix->ndev,
				     BIT(IB_GID_TYPE_ROCE),
				     IB_CACHE_GID_DEFAULT_MODE_SET);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_ADD_GID), 1);
	/* a default GID is not deleted as an ordinary one */
	RCU_INIT_POINTER(del.ndev, fix->ndev);
	KUNIT_EXPECT_EQ(test, ib_cache_gid_del(dev, ROCE_PORT, &want, &del), -EINVAL);
	/* an ordinary add of the same GID finds the default entry */
	KUNIT_EXPECT_EQ(test, ib_cache_gid_add(dev, ROCE_PORT, &want, &del), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_ADD_GID), 1);

	ib_cache_gid_set_default_gid(dev, ROCE_PORT, fix->ndev,
				     BIT(IB_GID_TYPE_ROCE),
				     IB_CACHE_GID_DEFAULT_MODE_DELETE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(dev, ROCE_PORT, 0)),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_DEL_GID), 1);
}

static void roce_del_all_netdev_test(struct kunit *test)
{
	struct cache_fix *fix = fix_of(test);
	struct ib_device *dev = dev_of(test);

	ib_cache_gid_set_default_gid(dev, ROCE_PORT, fix->ndev,
				     BIT(IB_GID_TYPE_ROCE),
				     IB_CACHE_GID_DEFAULT_MODE_SET);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE), 0);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 2, IB_GID_TYPE_ROCE_UDP_ENCAP), 0);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev2, 3, IB_GID_TYPE_ROCE), 0);
	KUNIT_ASSERT_EQ(test, mock_ibdev_live_objs(fix->mdev, MOCK_OBJ_GID), 4);

	KUNIT_EXPECT_EQ(test, ib_cache_gid_del_all_netdev_gids(dev, ROCE_PORT,
							       fix->ndev), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_DEL_GID), 3);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(fix->mdev, MOCK_OBJ_GID), 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_get_gid_attr(dev, ROCE_PORT, 0)),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, roce_index(test, 1, IB_GID_TYPE_ROCE), -ENOENT);
	KUNIT_EXPECT_GE(test, roce_index(test, 3, IB_GID_TYPE_ROCE), 0);
	/* nothing left of it: a no-op */
	KUNIT_EXPECT_EQ(test, ib_cache_gid_del_all_netdev_gids(dev, ROCE_PORT,
							       fix->ndev), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(fix->mdev, MOCK_DEL_GID), 3);
}

/* ---- Finding entries ----------------------------------------------------- */

/**
 * struct filter_ctx - what the test filter accepts
 * @ndev: entries of this net device only
 * @calls: how often it ran
 */
struct filter_ctx {
	struct net_device *ndev;
	int calls;
};

static bool ndev_filter(const union ib_gid *gid, const struct ib_gid_attr *attr,
			void *context)
{
	struct filter_ctx *ctx = context;

	ctx->calls++;
	return rcu_access_pointer(attr->ndev) == ctx->ndev;
}

static void find_test(struct kunit *test)
{
	struct cache_fix *fix = fix_of(test);
	struct ib_device *dev = dev_of(test);
	struct filter_ctx fctx = { .ndev = fix->ndev2 };
	union ib_gid gid = roce_gid(1);
	union ib_gid ib_gid = mock_ibdev_gid(IB_PORT, 4);
	const struct ib_gid_attr *attr;

	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE), 0);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev2, 1, IB_GID_TYPE_ROCE_UDP_ENCAP), 0);

	/* gid_type and ndev must match; NULL ndev matches any */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(dev, &gid,
							    IB_GID_TYPE_ROCE, ROCE_PORT,
							    fix->ndev2)),
			-ENOENT);
	attr = rdma_find_gid_by_port(dev, &gid, IB_GID_TYPE_ROCE_UDP_ENCAP,
				     ROCE_PORT, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(attr->ndev), fix->ndev2);
	rdma_put_gid_attr(attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_port(dev, &gid,
							    IB_GID_TYPE_ROCE, IB_PORT,
							    NULL)),
			-ENOENT);

	/* rdma_find_gid searches every port */
	attr = rdma_find_gid(dev, &ib_gid, IB_GID_TYPE_IB, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, attr->port_num, (u32)IB_PORT);
	KUNIT_EXPECT_EQ(test, attr->index, 4);
	rdma_put_gid_attr(attr);
	attr = rdma_find_gid(dev, &gid, IB_GID_TYPE_ROCE, fix->ndev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, attr->port_num, (u32)ROCE_PORT);
	rdma_put_gid_attr(attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid(dev, &ib_gid,
						    IB_GID_TYPE_ROCE, NULL)), -ENOENT);

	/* the filter sees both entries of the GID and picks the second */
	attr = rdma_find_gid_by_filter(dev, &gid, ROCE_PORT, ndev_filter, &fctx);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, attr->gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, fctx.calls, 2);
	rdma_put_gid_attr(attr);
	fctx.ndev = NULL;
	fctx.calls = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_filter(dev, &gid,
							      ROCE_PORT, ndev_filter,
							      &fctx)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, fctx.calls, 2);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_find_gid_by_filter(dev, &gid, 3,
							      ndev_filter, &fctx)), -EINVAL);
}

static void query_gid_table_test(struct kunit *test)
{
	const int nib = MOCK_IBDEV_GID_TBL_LEN(IB_PORT);
	struct cache_fix *fix = fix_of(test);
	struct ib_uverbs_gid_entry *e;
	union ib_gid gid = roce_gid(1);

	e = kunit_kcalloc(test, nib + 4, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, add_gid(test, fix->ndev, 1, IB_GID_TYPE_ROCE_UDP_ENCAP), 0);

	KUNIT_ASSERT_EQ(test, rdma_query_gid_table(dev_of(test), e, nib + 4),
			(ssize_t)nib + 1);
	KUNIT_EXPECT_EQ(test, e[1].port_num, (u32)IB_PORT);
	KUNIT_EXPECT_EQ(test, e[1].gid_index, 1U);
	KUNIT_EXPECT_EQ(test, e[1].gid_type, (u32)IB_GID_TYPE_IB);
	KUNIT_EXPECT_EQ(test, e[nib].port_num, (u32)ROCE_PORT);
	KUNIT_EXPECT_EQ(test, e[nib].gid_type, (u32)IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, e[nib].netdev_ifindex, (u32)fix->ndev->ifindex);
	KUNIT_EXPECT_EQ(test, memcmp(e[nib].gid, gid.raw, sizeof(gid.raw)), 0);
	/* exactly full fits, one short does not */
	KUNIT_EXPECT_EQ(test, rdma_query_gid_table(dev_of(test), e, nib + 1),
			(ssize_t)nib + 1);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_table(dev_of(test), e, nib),
			(ssize_t)-EINVAL);
}

/* ---- GID type names (parameterised) -------------------------------------- */

/**
 * struct type_case - a GID type name and its parse
 * @str: the string
 * @parsed: ib_cache_gid_parse_type_str(@str)
 */
struct type_case {
	const char *str;
	int parsed;
};

static const struct type_case type_cases[] = {
	{ "IB/RoCE v1", IB_GID_TYPE_IB },
	{ "IB/RoCE v1\n", IB_GID_TYPE_IB },
	{ "RoCE v2", IB_GID_TYPE_ROCE_UDP_ENCAP },
	{ "RoCE v2\n", IB_GID_TYPE_ROCE_UDP_ENCAP },
	{ "RoCE v2\n\n", -EINVAL },
	{ "RoCE", -EINVAL },
	{ "RoCE v22", -EINVAL },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
};

static void type_case_desc(const struct type_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"", (int)strlen(c->str),
		 c->str);
}

KUNIT_ARRAY_PARAM(type, type_cases, type_case_desc);

static void type_parse_test(struct kunit *test)
{
	const struct type_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ib_cache_gid_parse_type_str(c->str), c->parsed);
}

static void type_str_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str(IB_GID_TYPE_IB), "IB/RoCE v1");
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str(IB_GID_TYPE_ROCE), "IB/RoCE v1");
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str(IB_GID_TYPE_ROCE_UDP_ENCAP),
			   "RoCE v2");
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str(IB_GID_TYPE_SIZE),
			   "Invalid GID type");
	KUNIT_EXPECT_STREQ(test, ib_cache_gid_type_str((enum ib_gid_type)-1),
			   "Invalid GID type");
}

static struct kunit_case ib_core_cache_cases[] = {
	KUNIT_CASE(ib_port_values_test),
	KUNIT_CASE_PARAM(index_errors_test, index_gen_params),
	KUNIT_CASE(arg_errors_test),
	KUNIT_CASE(unregistered_device_test),
	KUNIT_CASE_PARAM(pkey_find_test, pkey_gen_params),
	KUNIT_CASE_PARAM(event_refresh_test, event_gen_params),
	KUNIT_CASE(event_driver_error_test),
	KUNIT_CASE(ib_held_entry_test),
	KUNIT_CASE(roce_add_del_test),
	KUNIT_CASE(roce_add_errors_test),
	KUNIT_CASE(roce_table_full_test),
	KUNIT_CASE(roce_held_entry_test),
	KUNIT_CASE(roce_default_gid_test),
	KUNIT_CASE(roce_del_all_netdev_test),
	KUNIT_CASE(find_test),
	KUNIT_CASE(query_gid_table_test),
	KUNIT_CASE_PARAM(type_parse_test, type_gen_params),
	KUNIT_CASE(type_str_test),
	{}
};

static struct kunit_suite ib_core_cache_suite = {
	.name = "ib_core_cache",
	.init = cache_test_init,
	.exit = cache_test_exit,
	.test_cases = ib_core_cache_cases,
};

kunit_test_suite(ib_core_cache_suite);

MODULE_DESCRIPTION("KUnit tests of the ib_core GID and P_Key cache");
MODULE_LICENSE("GPL");
