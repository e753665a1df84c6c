// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_uverbs_dev: which devices get a uverbsN, its numbers, and
 * GET_CHARDEV's answer, of core/uverbs/uverbs_dev.c.
 */

#include <kunit/test.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "core/device/device.h"
#include "core/uverbs/uverbs.h"
#include "kunit/mock/mock_ibdev.h"

static const struct mock_ibdev_cfg with_uverbs = { .nports = 1, .uverbs = true };
static const struct mock_ibdev_cfg without = { .nports = 1 };

static struct mock_ibdev *mock_up(struct kunit *test,
				  const struct mock_ibdev_cfg *cfg)
{
	struct mock_ibdev *mdev = mock_ibdev_alloc(cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	KUNIT_ASSERT_EQ(test, mock_ibdev_register(mdev, "kmuv%d"), 0);
	return mdev;
}

static void mock_down(struct mock_ibdev *mdev)
{
	ib_unregister_device(&mdev->ibdev);
	mock_ibdev_free(mdev);
}

static struct uverbs_dev *udev_of(struct mock_ibdev *mdev)
{
	return ib_get_client_data(&mdev->ibdev, &uverbs_client);
}

/* The first 32 devices have fixed numbers: 231, 192 + N. */
static void expect_numbers(struct kunit *test, struct uverbs_dev *udev)
{
	char name[16];

	snprintf(name, sizeof(name), "uverbs%d", udev->devnum);
	KUNIT_EXPECT_STREQ(test, dev_name(&udev->dev), name);
	KUNIT_EXPECT_STREQ(test, udev->dev.class->name, "infiniband_verbs");
	if (udev->devnum < 32) {
		KUNIT_EXPECT_EQ(test, MAJOR(udev->dev.devt), 231);
		KUNIT_EXPECT_EQ(test, MINOR(udev->dev.devt), 192 + udev->devnum);
	} else {
		KUNIT_EXPECT_NE(test, MAJOR(udev->dev.devt), 231);
	}
}

/* Only a driver that makes user contexts gets a character device. */
static void uverbs_dev_add_test(struct kunit *test)
{
	struct mock_ibdev *a = mock_up(test, &with_uverbs);
	struct mock_ibdev *b = mock_up(test, &without);
	struct mock_ibdev *c = mock_up(test, &with_uverbs);
	struct uverbs_dev *ua = udev_of(a), *uc = udev_of(c);
	int freed;

	KUNIT_ASSERT_NOT_NULL(test, ua);
	KUNIT_ASSERT_NOT_NULL(test, uc);
	KUNIT_EXPECT_NULL(test, udev_of(b));
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(ua->ib_dev), &a->ibdev);
	expect_numbers(test, ua);
	expect_numbers(test, uc);
	KUNIT_EXPECT_NE(test, ua->devnum, uc->devnum);
	KUNIT_EXPECT_NE(test, ua->dev.devt, uc->dev.devt);

	/* a removed device's number goes to the next one */
	freed = ua->devnum;
	mock_down(a);
	a = mock_up(test, &with_uverbs);
	KUNIT_ASSERT_NOT_NULL(test, udev_of(a));
	KUNIT_EXPECT_EQ(test, udev_of(a)->devnum, freed);
	mock_down(a);
	mock_down(b);
	mock_down(c);
}

/* GET_CHARDEV "uverbs": the device, the driver's ABI and its driver id. */
static void uverbs_dev_nl_info_test(struct kunit *test)
{
	struct mock_ibdev *a = mock_up(test, &with_uverbs);
	struct mock_ibdev *b = mock_up(test, &without);
	struct ib_client_nl_info res = { .port = -1 };
	struct nlmsghdr *nlh;
	struct sk_buff *msg;
	struct nlattr *attr;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	nlh = nlmsg_put(msg, 0, 0, 0, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, nlh);
	res.nl_msg = msg;
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&a->ibdev, "uverbs", &res),
			0);
	nlmsg_end(msg, nlh);
	KUNIT_EXPECT_PTR_EQ(test, res.cdev, &udev_of(a)->dev);
	KUNIT_EXPECT_EQ(test, res.abi, MOCK_IBDEV_UVERBS_ABI);
	attr = nlmsg_find_attr(nlh, 0, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID);
	KUNIT_EXPECT_NOT_NULL(test, attr);
	if (attr)
		KUNIT_EXPECT_EQ(test, nla_get_u32(attr), MOCK_IBDEV_DRIVER_ID);
	if (res.cdev)
		put_device(res.cdev);
	nlmsg_free(msg);

	/* the files are per device: a port is refused */
	res = (struct ib_client_nl_info){ .port = 1 };
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&a->ibdev, "uverbs", &res),
			-EINVAL);
	/* a device without user contexts has no uverbs file */
	res = (struct ib_client_nl_info){ .port = -1 };
	KUNIT_EXPECT_EQ(test, ib_get_client_nl_info(&b->ibdev, "uverbs", &res),
			-EOPNOTSUPP);
	mock_down(b);
	mock_down(a);
}

static void uverbs_dev_test_exit(struct kunit *test)
{
	mock_ibdev_cleanup_all();
}

static struct kunit_case uverbs_dev_cases[] = {
	KUNIT_CASE(uverbs_dev_add_test),
	KUNIT_CASE(uverbs_dev_nl_info_test),
	{}
};

static struct kunit_suite uverbs_dev_suite = {
	.name = "ib_uverbs_dev",
	.exit = uverbs_dev_test_exit,
	.test_cases = uverbs_dev_cases,
};

kunit_test_suite(uverbs_dev_suite);

MODULE_DESCRIPTION("KUnit: ib_uverbs character devices and GET_CHARDEV");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
