// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_wq: work queues (core/verbs/wq.c) and ib_get_eth_speed()
 * (core/device/eth_speed.c).
 */
/*
 * ib_get_eth_speed() lives in its own file but is tested here, next to
 * the other verbs a driver of an Ethernet port uses.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

#define IB_PORT		1
#define ROCE_PORT	2

/**
 * struct wq_test - per-case state
 * @mdev: the device: port 1 InfiniBand, port 2 RoCE
 * @pd: a PD on it
 * @cq: a CQ on it
 * @ndev: a net device of the case's, or NULL
 */
struct wq_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct net_device *ndev;
};

static int wq_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 2, .roce_port = ROCE_PORT };
	struct wq_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cq = ib_alloc_cq(&t->mdev->ibdev, NULL, 16, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cq);
	return 0;
}

static void wq_test_exit(struct kunit *test)
{
	struct wq_test *t = test->priv;

	if (!t)
		return;
	if (t->ndev) {
		ib_device_set_netdev(&t->mdev->ibdev, NULL, ROCE_PORT);
		unregister_netdev(t->ndev);
		free_netdev(t->ndev);
	}
	/* a failed case may have left a WQ on them: leak rather than warn */
	if (!IS_ERR_OR_NULL(t->cq) && !atomic_read(&t->cq->usecnt))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd) && !atomic_read(&t->pd->usecnt))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

static struct wq_test *tst(struct kunit *test)
{
	return test->priv;
}

static void wq_event(struct ib_event *event, void *context)
{
}

static struct ib_wq_init_attr rq_attr(struct wq_test *t, void *ctx)
{
	return (struct ib_wq_init_attr) {
		.wq_context = ctx,
		.wq_type = IB_WQT_RQ,
		.max_wr = 4,
		.max_sge = 1,
		.cq = t->cq,
		.event_handler = wq_event,
	};
}

/* ---- Work queues --------------------------------------------------------- */

static void create_destroy_test(struct kunit *test)
{
	struct wq_test *t = tst(test);
	struct ib_wq_init_attr attr = rq_attr(t, t);
	struct ib_wq *wq;

	wq = ib_create_wq(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, wq);
	KUNIT_EXPECT_PTR_EQ(test, wq->device, &t->mdev->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, wq->pd, t->pd);
	KUNIT_EXPECT_PTR_EQ(test, wq->cq, t->cq);
	KUNIT_EXPECT_PTR_EQ(test, wq->wq_context, (void *)t);
	KUNIT_EXPECT_TRUE(test, wq->event_handler == wq_event);
	KUNIT_EXPECT_EQ(test, wq->wq_type, IB_WQT_RQ);
	KUNIT_EXPECT_NULL(test, wq->uobject);
	KUNIT_EXPECT_EQ(test, atomic_read(&wq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 1);
	/* what the driver granted comes back in the attributes */
	KUNIT_EXPECT_EQ(test, attr.max_wr, (u32)MOCK_IBDEV_WQ_DEPTH);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_WQ), 1);

	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DESTROY_WQ), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_WQ), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 0);
}

static void create_errors_test(struct kunit *test)
{
	struct wq_test *t = tst(test);
	struct ib_wq_init_attr attr = rq_attr(t, NULL);
	struct ib_device *ibdev = &t->mdev->ibdev;
	struct ib_wq *wq;

	mock_ibdev_fail(t->mdev, MOCK_CREATE_WQ, -ENOSPC);
	wq = ib_create_wq(t->pd, &attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(wq), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 0);

	mock_ibdev_fail(t->mdev, MOCK_CREATE_WQ, 0);
	ibdev->ops.destroy_wq = NULL;
	wq = ib_create_wq(t->pd, &attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(wq), -EOPNOTSUPP);
	ibdev->ops.create_wq = NULL;
	wq = ib_create_wq(t->pd, &attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(wq), -EOPNOTSUPP);
	/* the driver was asked only the first time */
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_CREATE_WQ), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_WQ), 0);
}

static void destroy_errors_test(struct kunit *test)
{
	struct wq_test *t = tst(test);
	struct ib_wq_init_attr attr = rq_attr(t, NULL);
	struct ib_wq *wq;

	wq = ib_create_wq(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, wq);

	/* used by an indirection table: -EBUSY, the driver is not asked */
	atomic_inc(&wq->usecnt);
	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DESTROY_WQ), 0);
	atomic_dec(&wq->usecnt);

	/* the driver refuses: the WQ and its references stay */
	mock_ibdev_fail(t->mdev, MOCK_DESTROY_WQ, -EIO);
	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_WQ), 1);

	mock_ibdev_fail(t->mdev, MOCK_DESTROY_WQ, 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(wq, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 0);
}

/* Two WQs on one PD and CQ each hold a reference. */
static void usecnt_test(struct kunit *test)
{
	struct wq_test *t = tst(test);
	struct ib_wq_init_attr attr = rq_attr(t, NULL);
	struct ib_wq *a, *b;

	a = ib_create_wq(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = ib_create_wq(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_NE(test, a->wq_num, b->wq_num);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(a, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_wq_user(b, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->cq->usecnt), 0);
}

/* ---- ib_get_eth_speed() -------------------------------------------------- */

static void eth_speed_not_ethernet_test(struct kunit *test)
{
	struct wq_test *t = tst(test);
	u16 speed = 0xdead;
	u8 width = 0xee;

	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&t->mdev->ibdev, IB_PORT,
					       &speed, &width), -EINVAL);
	/* nothing is written on failure */
	KUNIT_EXPECT_EQ(test, speed, 0xdead);
	KUNIT_EXPECT_EQ(test, width, 0xee);
}

static void eth_speed_no_netdev_test(struct kunit *test)
{
	struct wq_test *t = tst(test);
	u16 speed;
	u8 width;

	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&t->mdev->ibdev, ROCE_PORT,
					       &speed, &width), -ENODEV);
}

/* The link speed the test net device reports, and whether it fails. */
static u32 link_mbps;
static int link_err;

static int test_get_link_ksettings(struct net_device *ndev,
				   struct ethtool_link_ksettings *ks)
{
	if (link_err)
		return link_err;
	memset(ks, 0, sizeof(*ks));
	ks->base.speed = link_mbps;
	return 0;
}

static const struct ethtool_ops test_ethtool_ops = {
	.get_link_ksettings = test_get_link_ksettings,
};

/* Register a net device reporting @mbps and tie it to the RoCE port. */
static const struct net_device_ops test_netdev_ops;

static void eth_speed_netdev_setup(struct kunit *test, struct wq_test *t)
{
	struct net_device *ndev = alloc_etherdev(0);

	KUNIT_ASSERT_NOT_NULL(test, ndev);
	/* register_netdev() calls through netdev_ops: an empty set will do */
	ndev->netdev_ops = &test_netdev_ops;
	ndev->ethtool_ops = &test_ethtool_ops;
	eth_hw_addr_random(ndev);
	if (register_netdev(ndev)) {
		free_netdev(ndev);
		KUNIT_ASSERT_FAILURE(test, "register_netdev failed");
	}
	t->ndev = ndev;
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&t->mdev->ibdev, ndev,
						   ROCE_PORT), 0);
}

/**
 * struct eth_speed_case - a link speed and the IB rate it maps to
 * @mbps: what ethtool reports
 * @err: what ethtool returns instead, if not 0
 * @speed: the IB_SPEED_* expected
 * @width: the IB_WIDTH_* expected
 */
struct eth_speed_case {
	u32 mbps;
	int err;
	u16 speed;
	u8 width;
};

static const struct eth_speed_case eth_speed_cases[] = {
	{ SPEED_100,		0, IB_SPEED_SDR,	IB_WIDTH_1X },
	{ SPEED_1000,		0, IB_SPEED_SDR,	IB_WIDTH_1X },
	{ SPEED_2500,		0, IB_SPEED_FDR10,	IB_WIDTH_1X },
	{ SPEED_10000,		0, IB_SPEED_FDR10,	IB_WIDTH_1X },
	{ SPEED_20000,		0, IB_SPEED_DDR,	IB_WIDTH_4X },
	{ SPEED_25000,		0, IB_SPEED_EDR,	IB_WIDTH_1X },
	{ SPEED_40000,		0, IB_SPEED_FDR10,	IB_WIDTH_4X },
	{ SPEED_50000,		0, IB_SPEED_EDR,	IB_WIDTH_4X },
	{ SPEED_100000,		0, IB_SPEED_EDR,	IB_WIDTH_4X },
	{ SPEED_400000,		0, IB_SPEED_EDR,	IB_WIDTH_4X },
	/* unknown speed, or ethtool failing: taken as 1 Gb/s */
	{ (u32)SPEED_UNKNOWN,	0, IB_SPEED_SDR,	IB_WIDTH_1X },
	{ SPEED_100000,	   -EOPNOTSUPP, IB_SPEED_SDR,	IB_WIDTH_1X },
};

static void eth_speed_case_desc(const struct eth_speed_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u Mb/s, err %d", c->mbps,
		 c->err);
}

KUNIT_ARRAY_PARAM(eth_speed, eth_speed_cases, eth_speed_case_desc);

static void eth_speed_table_test(struct kunit *test)
{
	const struct eth_speed_case *c = test->param_value;
	struct wq_test *t = tst(test);
	u16 speed = 0;
	u8 width = 0;

	link_mbps = c->mbps;
	link_err = c->err;
	eth_speed_netdev_setup(test, t);
	KUNIT_EXPECT_EQ(test, ib_get_eth_speed(&t->mdev->ibdev, ROCE_PORT,
					       &speed, &width), 0);
	KUNIT_EXPECT_EQ(test, speed, c->speed);
	KUNIT_EXPECT_EQ(test, width, c->width);
}

static struct kunit_case ib_core_wq_cases[] = {
	KUNIT_CASE(create_destroy_test),
	KUNIT_CASE(create_errors_test),
	KUNIT_CASE(destroy_errors_test),
	KUNIT_CASE(usecnt_test),
	KUNIT_CASE(eth_speed_not_ethernet_test),
	KUNIT_CASE(eth_speed_no_netdev_test),
	KUNIT_CASE_PARAM(eth_speed_table_test, eth_speed_gen_params),
	{}
};

static struct kunit_suite ib_core_wq_suite = {
	.name = "ib_core_wq",
	.init = wq_test_init,
	.exit = wq_test_exit,
	.test_cases = ib_core_wq_cases,
};

kunit_test_suite(ib_core_wq_suite);

MODULE_DESCRIPTION("KUnit tests of the ib_core work queues and Ethernet link speed");
MODULE_LICENSE("GPL");
