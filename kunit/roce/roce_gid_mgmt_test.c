// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_roce_gid_mgmt: which GID types core/roce/roce_gid_mgmt.c gives a port. */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "core/device/device.h"
#include "kunit/mock/mock_ibdev.h"
#include "core/roce/roce.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Port 1 is InfiniBand, port 2 RoCE; the cases rewrite port 2's caps. */
#define ROCE_TEST_PORT	2

static int roce_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 2,
					    .roce_port = ROCE_TEST_PORT };
	struct mock_ibdev *mdev = mock_ibdev_create(&cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	test->priv = mdev;
	return 0;
}

static void roce_test_exit(struct kunit *test)
{
	mock_ibdev_destroy(test->priv);
}

/* One row: the port's core capabilities and the GID types expected. */
struct roce_mask_case {
	const char *what;
	u32 caps;
	unsigned long mask;
};

static const struct roce_mask_case roce_mask_cases[] = {
	{ "RoCE v1", RDMA_CORE_PORT_IBA_ROCE, BIT(IB_GID_TYPE_ROCE) },
	{ "RoCE v2", RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP,
	  BIT(IB_GID_TYPE_ROCE_UDP_ENCAP) },
	{ "RoCE v1 and v2",
	  RDMA_CORE_PORT_IBA_ROCE | RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP,
	  BIT(IB_GID_TYPE_ROCE) | BIT(IB_GID_TYPE_ROCE_UDP_ENCAP) },
	/* anything but RoCE has IB GIDs */
	{ "InfiniBand", RDMA_CORE_PORT_IBA_IB, BIT(IB_GID_TYPE_IB) },
	{ "iWARP", RDMA_CORE_PORT_IWARP, BIT(IB_GID_TYPE_IB) },
};

static void mask_table_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test->priv;
	struct ib_port_immutable *imm =
		&mdev->ibdev.port_data[ROCE_TEST_PORT].immutable;
	u32 saved = imm->core_cap_flags;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(roce_mask_cases); i++) {
		const struct roce_mask_case *c = &roce_mask_cases[i];

		imm->core_cap_flags = c->caps;
		KUNIT_EXPECT_EQ_MSG(test,
				    roce_gid_type_mask_support(&mdev->ibdev,
							       ROCE_TEST_PORT),
				    c->mask, "%s", c->what);
	}
	imm->core_cap_flags = saved;
}

/* The mock's own ports, as registered: IB on 1, RoCE v1 on 2. */
static void mask_mock_ports_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test->priv;

	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(&mdev->ibdev, 1),
			BIT(IB_GID_TYPE_IB));
	KUNIT_EXPECT_EQ(test,
			roce_gid_type_mask_support(&mdev->ibdev, ROCE_TEST_PORT),
			BIT(IB_GID_TYPE_ROCE));
}

/*
 * A RoCE port without a net device, and an IB port, give the rescan
 * nothing to do: it must return without touching the GID table (which
 * the sanitizers and lockdep watch; RTNL is not taken for them).
 */
static void rescan_without_netdev_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test->priv;

	KUNIT_EXPECT_NULL(test, ib_device_netdev(&mdev->ibdev, ROCE_TEST_PORT));
	rdma_roce_rescan_device(&mdev->ibdev);
	rdma_roce_rescan_port(&mdev->ibdev, 1);
	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(&mdev->ibdev,
							 ROCE_TEST_PORT),
			BIT(IB_GID_TYPE_ROCE));
}

static struct kunit_case ib_core_roce_gid_mgmt_cases[] = {
	KUNIT_CASE(mask_table_test),
	KUNIT_CASE(mask_mock_ports_test),
	KUNIT_CASE(rescan_without_netdev_test),
	{}
};

static struct kunit_suite ib_core_roce_gid_mgmt_suite = {
	.name = "ib_core_roce_gid_mgmt",
	.init = roce_test_init,
	.exit = roce_test_exit,
	.test_cases = ib_core_roce_gid_mgmt_cases,
};

kunit_test_suite(ib_core_roce_gid_mgmt_suite);

MODULE_DESCRIPTION("KUnit tests for the RoCE GID management of ib_core");
MODULE_LICENSE("GPL");
