// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_netdev: ADDR_CHANGE for the ids of a bond whose hardware
 * address moved in a failover.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The bond is played by init_net's loopback device: what the scan reads
 * of it is its ifindex, its namespace and its hardware address (all
 * zeros). An id "sits on it" with another source address, as an id whose
 * bond changed address under it would.
 */

static const u8 old_mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };

static struct cma_id_priv *on_bond(struct kunit *test, struct cma_owner *o,
				   struct mock_ibdev *mdev,
				   enum rdma_cm_state state)
{
	struct cma_id_priv *priv = cma_fix_id(test, o, RDMA_PS_TCP, IB_QPT_RC);
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;

	dev_addr->bound_dev_if = init_net.loopback_dev->ifindex;
	memcpy(dev_addr->src_dev_addr, old_mac, ETH_ALEN);
	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, state);
	return priv;
}

/* Ids in a few states hear ADDR_CHANGE with status 0 and stay where they are. */
static void cma_netdev_told_test(struct kunit *test)
{
	static const enum rdma_cm_state states[] = {
		RDMA_CM_ADDR_BOUND, RDMA_CM_ROUTE_RESOLVED, RDMA_CM_CONNECT,
		RDMA_CM_LISTEN,
	};
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct net_device *bond = init_net.loopback_dev;
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	int i;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		o = (struct cma_owner){};
		priv = on_bond(test, &o, mdev, states[i]);
		KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 1);
		KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
		KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ADDR_CHANGE);
		KUNIT_EXPECT_EQ(test, o.status, 0);
		KUNIT_EXPECT_EQ(test, o.count, 1);
		KUNIT_EXPECT_EQ(test, cma_id_state(priv), states[i]);
		cma_fix_end(priv);
	}
}

/*
 * Nobody hears it: an id whose address is the bond's, an id on another
 * interface, an id in another namespace, an id with no device.
 */
static void cma_netdev_untold_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct net_device *bond = init_net.loopback_dev;
	struct cma_owner o = {};
	struct cma_id_priv *priv = on_bond(test, &o, mdev, RDMA_CM_CONNECT);
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct cma_id_priv *loose;

	memcpy(dev_addr->src_dev_addr, bond->dev_addr, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 0);

	memcpy(dev_addr->src_dev_addr, old_mac, ETH_ALEN);
	dev_addr->bound_dev_if++;
	KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 0);
	dev_addr->bound_dev_if--;

	dev_addr->net = NULL;
	KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 0);
	dev_addr->net = &init_net;

	/* Only ids on a device are scanned: the one told is @priv. */
	loose = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	loose->id.route.addr.dev_addr.bound_dev_if = bond->ifindex;
	memcpy(loose->id.route.addr.dev_addr.src_dev_addr, old_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 1);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_EXPECT_EQ(test, o.count, 1);
	rdma_destroy_id(&loose->id);
	cma_fix_end(priv);
}

/*
 * An id losing its device or being destroyed when the work runs hears
 * nothing; an owner returning non-zero has its id destroyed.
 */
static void cma_netdev_ending_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_device *dev = cma_device_of(&mdev->ibdev);
	struct net_device *bond = init_net.loopback_dev;
	struct cma_owner o = {};
	struct cma_id_priv *priv;

	priv = on_bond(test, &o, mdev, RDMA_CM_DEVICE_REMOVAL);
	KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 1);
	flush_workqueue(cma_wq);
	KUNIT_EXPECT_EQ(test, o.count, 0);
	cma_fix_end(priv);

	priv = on_bond(test, &o, mdev, RDMA_CM_ROUTE_RESOLVED);
	o.ret = 1;
	KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 1);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	flush_workqueue(cma_wq);
	mutex_lock(&cma.lock);
	KUNIT_EXPECT_TRUE(test, list_empty(&dev->ids));
	mutex_unlock(&cma.lock);
	KUNIT_EXPECT_EQ(test, cma_netdev_failover(bond), 0);
}

static struct kunit_case cma_netdev_cases[] = {
	KUNIT_CASE(cma_netdev_told_test),
	KUNIT_CASE(cma_netdev_untold_test),
	KUNIT_CASE(cma_netdev_ending_test),
	{}
};

static struct kunit_suite cma_netdev_suite = {
	.name = "rdma_cm_netdev",
	.test_cases = cma_netdev_cases,
};

kunit_test_suites(&cma_netdev_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's ADDR_CHANGE on a bond's failover");
MODULE_LICENSE("GPL");
