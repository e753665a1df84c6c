// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_client: client add/remove order, client data, client
 * queries (GET_CHARDEV's too) of core/device/client.c.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "core/device/device.h"
#include "kunit/mock/mock_ibdev.h"

/* ---- Recording what the clients see -------------------------------------- */

#define LOG_MAX 32

/**
 * struct call - one add() or remove() a test client saw
 * @tag: which client ('A', 'B', ...)
 * @op: '+' for add(), '-' for remove()
 * @dev: the device
 * @data: remove()'s client_data argument
 */
struct call {
	char tag;
	char op;
	struct ib_device *dev;
	void *data;
};

/*
 * Callbacks may run in other threads (an unregistration somewhere else),
 * so log_lock protects calls[] and ncalls.
 */
static DEFINE_SPINLOCK(log_lock);
static struct call calls[LOG_MAX];
static int ncalls;

static void log_call(char tag, char op, struct ib_device *dev, void *data)
{
	unsigned long flags;

	spin_lock_irqsave(&log_lock, flags);
	if (ncalls < LOG_MAX)
		calls[ncalls] = (struct call){ tag, op, dev, data };
	ncalls++;
	spin_unlock_irqrestore(&log_lock, flags);
}

/* Check the log against @want, then empty it. */
static void expect_calls(struct kunit *test, const struct call *want, int n)
{
	int i;

	KUNIT_EXPECT_EQ(test, ncalls, n);
	for (i = 0; i < min3(n, ncalls, LOG_MAX); i++) {
		KUNIT_EXPECT_EQ_MSG(test, calls[i].tag, want[i].tag, "call %d", i);
		KUNIT_EXPECT_EQ_MSG(test, calls[i].op, want[i].op, "call %d", i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, calls[i].dev, want[i].dev,
					"call %d", i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, calls[i].data, want[i].data,
					"call %d", i);
	}
	ncalls = 0;
}

/* ---- Test clients -------------------------------------------------------- */

#define NCLIENTS 4

/**
 * struct test_client - an ib_client with knobs
 * @client: registered with the core
 * @tag: its letter in the log
 * @add_ret: what add() returns
 * @set_data: add() stores &cookies[i] as client data
 * @registered: for the suite's exit
 * @data_mismatch: remove() saw ib_get_client_data() disagree with its
 *		   argument
 * @ndev: what get_net_dev_by_params answers
 * @cdev: what get_nl_info and get_global_nl_info answer as res->cdev
 * @nl_ret: what they return
 * @nl_port: the res->port get_nl_info saw
 */
struct test_client {
	struct ib_client client;
	char tag;
	int add_ret;
	bool set_data;
	bool registered;
	bool data_mismatch;
	struct net_device *ndev;
	struct device *cdev;
	int nl_ret;
	u32 nl_port;
};

static struct test_client tcs[NCLIENTS];
static int cookies[NCLIENTS];

static int tc_add(int i, struct ib_device *dev)
{
	struct test_client *tc = &tcs[i];

	log_call(tc->tag, '+', dev, NULL);
	if (tc->add_ret)
		return tc->add_ret;
	if (tc->set_data)
		ib_set_client_data(dev, &tc->client, &cookies[i]);
	return 0;
}

static void tc_remove(int i, struct ib_device *dev, void *data)
{
	struct test_client *tc = &tcs[i];

	/* the data stays readable until remove() returns */
	if (ib_get_client_data(dev, &tc->client) != data)
		tc->data_mismatch = true;
	log_call(tc->tag, '-', dev, data);
}

static struct net_device *tc_net_dev(int i, struct ib_device *dev, u32 port,
				     u16 pkey, const union ib_gid *gid,
				     const struct sockaddr *addr, void *data)
{
	return tcs[i].ndev;
}

/* GET_CHARDEV's answers: the ABI says which client answered. */
static int tc_nl_info(int i, struct ib_device *dev,
		      struct ib_client_nl_info *res)
{
	if (dev)
		tcs[i].nl_port = res->port;
	res->cdev = tcs[i].cdev;
	res->abi = 100 + i + (dev ? 0 : 50);
	return tcs[i].nl_ret;
}

/*
 * add()/remove() carry no client pointer: one set of wrappers per slot,
 * each passing its slot number tc<i>_slot on.
 */
#define TEST_CLIENT_OPS(i)						\
enum { tc##i##_slot = (i) };						\
static int tc##i##_add(struct ib_device *dev)				\
{									\
	return tc_add(tc##i##_slot, dev);				\
}									\
static void tc##i##_remove(struct ib_device *dev, void *data)		\
{									\
	tc_remove(tc##i##_slot, dev, data);				\
}									\
static struct net_device *tc##i##_net_dev(struct ib_device *dev,	\
		u32 port, u16 pkey, const union ib_gid *gid,		\
		const struct sockaddr *addr, void *data)		\
{									\
	return tc_net_dev(tc##i##_slot, dev, port, pkey, gid, addr, data); \
}									\
static int __maybe_unused tc##i##_nl_info(struct ib_device *dev,	\
		void *data, struct ib_client_nl_info *res)		\
{									\
	return tc_nl_info(tc##i##_slot, dev, res);			\
}									\
static int __maybe_unused						\
tc##i##_global_nl_info(struct ib_client_nl_info *res)			\
{									\
	return tc_nl_info(tc##i##_slot, NULL, res);			\
}

TEST_CLIENT_OPS(0)
TEST_CLIENT_OPS(1)
TEST_CLIENT_OPS(2)
TEST_CLIENT_OPS(3)

static const struct ib_client client_templates[NCLIENTS] = {
	{ .name = "kunit_a", .add = tc0_add, .remove = tc0_remove,
	  .get_net_dev_by_params = tc0_net_dev, .get_nl_info = tc0_nl_info,
	  .get_global_nl_info = tc0_global_nl_info },
	{ .name = "kunit_b", .add = tc1_add, .remove = tc1_remove,
	  .get_net_dev_by_params = tc1_net_dev },
	{ .name = "kunit_c", .add = tc2_add, .remove = tc2_remove,
	  .get_net_dev_by_params = tc2_net_dev, .get_nl_info = tc2_nl_info,
	  .get_global_nl_info = tc2_global_nl_info },
	{ .name = "kunit_d", .add = tc3_add, .remove = tc3_remove,
	  .get_net_dev_by_params = tc3_net_dev },
};

static struct ib_client *tc_client(int i)
{
	return &tcs[i].client;
}

static void tc_register(struct kunit *test, int i)
{
	KUNIT_ASSERT_EQ(test, ib_register_client(&tcs[i].client), 0);
	tcs[i].registered = true;
}

static void tc_unregister(int i)
{
	ib_unregister_client(&tcs[i].client);
	tcs[i].registered = false;
}

static int client_test_init(struct kunit *test)
{
	int i;

	for (i = 0; i < NCLIENTS; i++) {
		tcs[i] = (struct test_client){
			.client = client_templates[i],
			.tag = 'A' + i,
		};
	}
	ncalls = 0;
	return 0;
}

static void client_test_exit(struct kunit *test)
{
	int i;

	for (i = NCLIENTS - 1; i >= 0; i--)
		if (tcs[i].registered)
			tc_unregister(i);
	mock_ibdev_cleanup_all();
}

/* ---- Devices ------------------------------------------------------------- */

static struct mock_ibdev *mock_up(struct kunit *test,
				  const struct mock_ibdev_cfg *cfg)
{
	struct mock_ibdev *mdev = mock_ibdev_alloc(cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	KUNIT_ASSERT_EQ(test, mock_ibdev_register(mdev, "kmcl%d"), 0);
	return mdev;
}

static void mock_down(struct mock_ibdev *mdev)
{
	ib_unregister_device(&mdev->ibdev);
	mock_ibdev_free(mdev);
}

static const struct mock_ibdev_cfg one_port = { .nports = 1 };

/* ---- Cases --------------------------------------------------------------- */

static void client_order_test(struct kunit *test)
{
	struct mock_ibdev *m1, *m2;
	struct ib_device *d1, *d2;

	m1 = mock_up(test, &one_port);
	d1 = &m1->ibdev;
	tc_register(test, 0);
	tc_register(test, 1);
	KUNIT_EXPECT_LT(test, tc_client(0)->client_id, tc_client(1)->client_id);
	m2 = mock_up(test, &one_port);
	d2 = &m2->ibdev;
	{
		const struct call want[] = {
			{ 'A', '+', d1 }, { 'B', '+', d1 },
			{ 'A', '+', d2 }, { 'B', '+', d2 },
		};

		expect_calls(test, want, ARRAY_SIZE(want));
	}

	/* a device going away: clients removed last-registered first */
	mock_down(m1);
	/* a client going away while a device remains */
	tc_unregister(0);
	mock_down(m2);
	tc_unregister(1);
	{
		const struct call want[] = {
			{ 'B', '-', d1 }, { 'A', '-', d1 },
			{ 'A', '-', d2 },
			{ 'B', '-', d2 },
		};

		expect_calls(test, want, ARRAY_SIZE(want));
	}
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

static void client_data_test(struct kunit *test)
{
	struct mock_ibdev *m;
	struct ib_device *d;

	tcs[0].set_data = true;
	tcs[1].add_ret = -ENOMEM;	/* B refuses the device */
	m = mock_up(test, &one_port);
	d = &m->ibdev;
	tc_register(test, 0);
	tc_register(test, 1);
	tc_register(test, 2);

	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(d, tc_client(0)),
			    (void *)&cookies[0]);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(d, tc_client(1)));
	KUNIT_EXPECT_NULL(test, ib_get_client_data(d, tc_client(2)));

	/* data can be replaced while attached */
	ib_set_client_data(d, tc_client(2), &cookies[3]);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(d, tc_client(2)),
			    (void *)&cookies[3]);

	mock_down(m);
	{
		const struct call want[] = {
			{ 'A', '+', d }, { 'B', '+', d }, { 'C', '+', d },
			/* B's add() failed: it gets no remove() */
			{ 'C', '-', d, &cookies[3] },
			{ 'A', '-', d, &cookies[0] },
		};

		expect_calls(test, want, ARRAY_SIZE(want));
	}
	KUNIT_EXPECT_FALSE(test, tcs[0].data_mismatch);
	KUNIT_EXPECT_FALSE(test, tcs[2].data_mismatch);
}

static void client_unregister_with_devices_test(struct kunit *test)
{
	struct mock_ibdev *m1, *m2;
	struct ib_device *d1, *d2, *found;

	tcs[0].set_data = true;
	m1 = mock_up(test, &one_port);
	m2 = mock_up(test, &one_port);
	d1 = &m1->ibdev;
	d2 = &m2->ibdev;
	tc_register(test, 0);
	tc_unregister(0);
	{
		const struct call want[] = {
			{ 'A', '+', d1 }, { 'A', '+', d2 },
			{ 'A', '-', d1, &cookies[0] }, { 'A', '-', d2, &cookies[0] },
		};

		expect_calls(test, want, ARRAY_SIZE(want));
	}
	KUNIT_EXPECT_TRUE(test, xa_empty(&d1->client_data));
	KUNIT_EXPECT_TRUE(test, xa_empty(&d2->client_data));

	/* the devices are untouched and a new client still gets them */
	found = ib_device_get_by_name(d1->name, RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, d1);
	if (found)
		ib_device_put(found);
	tc_register(test, 1);
	{
		const struct call want[] = {
			{ 'B', '+', d1 }, { 'B', '+', d2 },
		};

		expect_calls(test, want, ARRAY_SIZE(want));
	}
	tc_unregister(1);
	ncalls = 0;
	mock_down(m1);
	mock_down(m2);
	KUNIT_EXPECT_EQ(test, ncalls, 0);
}

/* A client that unregistered leaves a gap; later clients still come last. */
static void client_id_order_test(struct kunit *test)
{
	struct mock_ibdev *m;
	struct ib_device *d;

	tc_register(test, 0);
	tc_register(test, 1);
	tc_register(test, 2);
	tc_unregister(1);
	tc_register(test, 3);
	KUNIT_EXPECT_GT(test, tc_client(3)->client_id, tc_client(2)->client_id);

	m = mock_up(test, &one_port);
	d = &m->ibdev;
	mock_down(m);
	{
		const struct call want[] = {
			{ 'A', '+', d }, { 'C', '+', d }, { 'D', '+', d },
			{ 'D', '-', d }, { 'C', '-', d }, { 'A', '-', d },
		};

		expect_calls(test, want, ARRAY_SIZE(want));
	}
}

static void client_kverbs_test(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1, .no_kverbs = true };
	struct mock_ibdev *m;
	struct ib_device *d;

	tcs[1].client.no_kverbs_req = 1;
	tc_register(test, 0);
	tc_register(test, 1);
	m = mock_up(test, &cfg);
	d = &m->ibdev;
	KUNIT_EXPECT_FALSE(test, d->kverbs_provider);
	mock_down(m);
	{
		/* only B takes devices without the kernel verbs */
		const struct call want[] = {
			{ 'B', '+', d }, { 'B', '-', d },
		};

		expect_calls(test, want, ARRAY_SIZE(want));
	}
}

static void net_dev_by_params_test(struct kunit *test)
{
	struct net_device *ndev;
	struct mock_ibdev *m;

	ndev = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	tcs[1].ndev = ndev;
	tcs[2].ndev = (struct net_device *)&cookies[2];	/* never reached */
	tcs[0].add_ret = -EINVAL;	/* not attached: must not be asked */
	tcs[0].ndev = (struct net_device *)&cookies[0];

	m = mock_ibdev_alloc(&one_port);
	if (!m || mock_ibdev_register(m, "kmcl%d")) {
		free_netdev(ndev);
		KUNIT_FAIL(test, "mock device setup failed");
		return;
	}
	KUNIT_EXPECT_NULL(test, ib_get_net_dev_by_params(&m->ibdev, 1, 0xffff,
							 &zgid, NULL));
	tc_register(test, 0);
	tc_register(test, 1);
	tc_register(test, 2);
	/* the first attached client with an answer wins */
	KUNIT_EXPECT_PTR_EQ(test, ib_get_net_dev_by_params(&m->ibdev, 1,
							   0xffff, &zgid, NULL),
			    ndev);
	tc_unregister(2);
	tc_unregister(1);
	tc_unregister(0);
	mock_down(m);
	free_netdev(ndev);
}

/* GET_CHARDEV's query: by name, attached clients only, the cdev held. */
static void client_nl_info_test(struct kunit *test)
{
	struct ib_client_nl_info res = {};
	struct mock_ibdev *m = mock_up(test, &one_port);
	struct device *cdev = &m->ibdev.dev;
	unsigned int refs;

	tcs[0].cdev = cdev;
	tcs[2].cdev = cdev;
	/* nobody called so (the module load it tries finds nothing) */
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&m->ibdev, "kunit_a", &res),
			-EOPNOTSUPP);
	tc_register(test, 0);
	tc_register(test, 1);
	tcs[2].add_ret = -EINVAL;
	tc_register(test, 2);

	refs = kref_read(&cdev->kobj.kref);
	res.port = 1;
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&m->ibdev, "kunit_a", &res),
			0);
	KUNIT_EXPECT_PTR_EQ(test, res.cdev, cdev);
	KUNIT_EXPECT_EQ(test, res.abi, 100);
	KUNIT_EXPECT_EQ(test, tcs[0].nl_port, 1);
	/* the caller holds the answer's device */
	KUNIT_EXPECT_EQ(test, kref_read(&cdev->kobj.kref), refs + 1);
	put_device(res.cdev);

	/* no device named: the global query */
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(NULL, "kunit_a", &res), 0);
	KUNIT_EXPECT_EQ(test, res.abi, 150);
	put_device(res.cdev);
	KUNIT_EXPECT_EQ(test, kref_read(&cdev->kobj.kref), refs);

	/* a client without a character device */
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&m->ibdev, "kunit_b", &res),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(NULL, "kunit_b", &res),
			-EOPNOTSUPP);
	/* a client that did not take this device has nothing for it */
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&m->ibdev, "kunit_c", &res),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(NULL, "kunit_c", &res), 0);
	put_device(res.cdev);
	/* the client's own error goes back as it is, nothing held */
	tcs[0].nl_ret = -EINVAL;
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&m->ibdev, "kunit_a", &res),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kref_read(&cdev->kobj.kref), refs);

	tc_unregister(2);
	tc_unregister(1);
	tc_unregister(0);
	mock_down(m);
}

static struct kunit_case ib_core_client_cases[] = {
	KUNIT_CASE(client_order_test),
	KUNIT_CASE(client_data_test),
	KUNIT_CASE(client_unregister_with_devices_test),
	KUNIT_CASE(client_id_order_test),
	KUNIT_CASE(client_kverbs_test),
	KUNIT_CASE(net_dev_by_params_test),
	KUNIT_CASE(client_nl_info_test),
	{}
};

static struct kunit_suite ib_core_client_suite = {
	.name = "ib_core_client",
	.init = client_test_init,
	.exit = client_test_exit,
	.test_cases = ib_core_client_cases,
};

kunit_test_suite(ib_core_client_suite);

MODULE_DESCRIPTION("KUnit tests for ib_core clients");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
