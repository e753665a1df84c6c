// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_pkey: ib_find_pkey() against a mock P_Key table. */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

static int pkey_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 2 };
	struct mock_ibdev *mdev = mock_ibdev_alloc(&cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	KUNIT_ASSERT_EQ(test, mock_ibdev_register(mdev, "kmpkey%d"), 0);
	test->priv = mdev;
	return 0;
}

static void pkey_test_exit(struct kunit *test)
{
	mock_ibdev_cleanup_all();
}

static struct ib_device *dev_of(struct kunit *test)
{
	return &((struct mock_ibdev *)test->priv)->ibdev;
}

static void pkey_full_member_test(struct kunit *test)
{
	u16 index = 0xffff;

	/* The mock's table is MOCK_IBDEV_PKEY(port, i): all full members. */
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 2, MOCK_IBDEV_PKEY(2, 5),
					   &index), 0);
	KUNIT_EXPECT_EQ(test, index, 5);
	/* The membership bit of the key asked for does not matter. */
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 2,
					   MOCK_IBDEV_PKEY(2, 7) & 0x7fff, &index), 0);
	KUNIT_EXPECT_EQ(test, index, 7);
	/* Port 1's keys are not port 2's. */
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 1, MOCK_IBDEV_PKEY(2, 5),
					   &index), -ENOENT);
}

static void pkey_limited_member_test(struct kunit *test)
{
	struct mock_ibdev *mdev = test->priv;
	u16 index = 0xffff;

	/* Only limited entries of the partition: the first one is taken. */
	mock_ibdev_set_pkey(mdev, 1, 3, 0x1234);
	mock_ibdev_set_pkey(mdev, 1, 9, 0x1234);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 1, 0x9234, &index), 0);
	KUNIT_EXPECT_EQ(test, index, 3);
	/* A full member later in the table wins over them. */
	mock_ibdev_set_pkey(mdev, 1, 12, 0x9234);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 1, 0x1234, &index), 0);
	KUNIT_EXPECT_EQ(test, index, 12);
}

static void pkey_errors_test(struct kunit *test)
{
	u16 index = 0xabcd;

	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 1, 0x7777, &index),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 0, 0xffff, &index),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_find_pkey(dev_of(test), 3, 0xffff, &index),
			-EINVAL);
	/* A failed search leaves the caller's index alone. */
	KUNIT_EXPECT_EQ(test, index, 0xabcd);
}

static struct kunit_case pkey_cases[] = {
	KUNIT_CASE(pkey_full_member_test),
	KUNIT_CASE(pkey_limited_member_test),
	KUNIT_CASE(pkey_errors_test),
	{}
};

static struct kunit_suite pkey_test_suite = {
	.name = "ib_core_pkey",
	.init = pkey_test_init,
	.exit = pkey_test_exit,
	.test_cases = pkey_cases,
};

kunit_test_suite(pkey_test_suite);

MODULE_DESCRIPTION("KUnit tests of ib_find_pkey()");
MODULE_LICENSE("GPL");
