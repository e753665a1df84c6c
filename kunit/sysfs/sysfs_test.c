// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_sysfs: the files of core/sysfs/sysfs.c and
 * core/sysfs/sysfs_port.c, read as userspace does.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_sysfs.h>
#include <rdma/ib_verbs.h>

#include "core/sysfs/sysfs.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TEST_NODE_GUID	0x0002c90300112233ULL

/* ---- Test driver additions ----------------------------------------------- */

static int test_modify_device(struct ib_device *dev, int mask,
			      struct ib_device_modify *modify)
{
	if (mask & ~IB_DEVICE_MODIFY_NODE_DESC)
		return -EOPNOTSUPP;
	memcpy(dev->node_desc, modify->node_desc, IB_DEVICE_NODE_DESC_MAX);
	return 0;
}

/* A driver port file showing its port number, and a driver device file. */
static ssize_t drv_port_show(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "port %u\n", port_num);
}
static IB_PORT_ATTR_RO(drv_port);

static struct attribute *drv_port_attrs[] = {
	&ib_port_attr_drv_port.attr,
	NULL
};

static const struct attribute_group drv_port_group = {
	.attrs = drv_port_attrs,
};

static const struct attribute_group *drv_port_groups[] = {
	&drv_port_group,
	NULL
};

static ssize_t drv_dev_show(struct device *kdev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_name(kdev));
}
static DEVICE_ATTR_RO(drv_dev);

static struct attribute *drv_dev_attrs[] = {
	&dev_attr_drv_dev.attr,
	NULL
};

static const struct attribute_group drv_dev_group = {
	.attrs = drv_dev_attrs,
};

static const struct ib_device_ops test_ops = {
	.modify_device	= test_modify_device,
	.device_group	= &drv_dev_group,
	.port_groups	= drv_port_groups,
};

/* A client's legacy port file, for ib_port_register_client_groups(). */
static ssize_t client_file_show(struct ib_device *ibdev, u32 port_num,
				struct ib_port_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "client\n");
}
static IB_PORT_ATTR_RO(client_file);

static struct attribute *client_attrs[] = {
	&ib_port_attr_client_file.attr,
	NULL
};

static const struct attribute_group client_group = {
	.name = "client_dir",
	.attrs = client_attrs,
};

static const struct attribute_group *client_groups[] = {
	&client_group,
	NULL
};

/* ---- Fixture ------------------------------------------------------------- */

/**
 * struct sysfs_test - per case
 * @mdev: a registered two-port mock device with test_ops
 * @plain: a registered one-port mock device with nothing added
 * @buf: a page for reads
 * @path: the path of the file being read or written
 */
struct sysfs_test {
	struct mock_ibdev *mdev;
	struct mock_ibdev *plain;
	char *buf;
	char path[128];
};

static struct mock_ibdev *sysfs_dev_create(struct kunit *test, u32 nports,
					   const struct ib_device_ops *ops)
{
	const struct mock_ibdev_cfg cfg = { .nports = nports };
	struct mock_ibdev *mdev = mock_ibdev_alloc(&cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	if (ops)
		ib_set_device_ops(&mdev->ibdev, ops);
	mdev->ibdev.node_guid = cpu_to_be64(TEST_NODE_GUID);
	if (mock_ibdev_register(mdev, "sysfst%d")) {
		mock_ibdev_free(mdev);
		KUNIT_ASSERT_FAILURE(test, "registration failed");
	}
	return mdev;
}

static int sysfs_test_init(struct kunit *test)
{
	struct sysfs_test *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct file *f;

	KUNIT_ASSERT_NOT_NULL(test, st);
	st->buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st->buf);
	test->priv = st;

	f = filp_open("/sys/class", O_RDONLY | O_DIRECTORY, 0);
	if (IS_ERR(f))
		kunit_skip(test, "no /sys in this context: %ld", PTR_ERR(f));
	filp_close(f, NULL);

	st->mdev = sysfs_dev_create(test, 2, &test_ops);
	st->plain = sysfs_dev_create(test, 1, NULL);
	return 0;
}

static void sysfs_test_exit(struct kunit *test)
{
	struct sysfs_test *st = test->priv;

	if (!st)
		return;
	if (st->plain)
		mock_ibdev_destroy(st->plain);
	if (st->mdev)
		mock_ibdev_destroy(st->mdev);
}

static struct sysfs_test *st_of(struct kunit *test)
{
	return test->priv;
}

/* The path of @rel below @mdev's directory, in st->path. */
static const char *dev_path(struct kunit *test, struct mock_ibdev *mdev,
			    const char *rel)
{
	char *path = st_of(test)->path;
	int n;

	n = snprintf(path, sizeof(st_of(test)->path),
		     "/sys/class/infiniband/%s/%s", dev_name(&mdev->ibdev.dev),
		     rel);
	KUNIT_ASSERT_LT(test, n, (int)sizeof(st_of(test)->path));
	return path;
}

/* Read a file of @mdev into st->buf; the length or a negative errno. */
static ssize_t rd(struct kunit *test, struct mock_ibdev *mdev, const char *rel)
{
	char *buf = st_of(test)->buf;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	buf[0] = '\0';
	f = filp_open(dev_path(test, mdev, rel), O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, PAGE_SIZE - 1, &pos);
	filp_close(f, NULL);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static ssize_t wr(struct kunit *test, struct mock_ibdev *mdev, const char *rel,
		  const char *val, size_t len)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	f = filp_open(dev_path(test, mdev, rel), O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, val, len, &pos);
	filp_close(f, NULL);
	return n;
}

/* @rel of @mdev reads exactly @want. */
#define EXPECT_FILE(test, mdev, rel, want)				\
	do {								\
		struct kunit *t_ = (test);				\
		const char *w_ = (want);				\
									\
		KUNIT_EXPECT_EQ(t_, rd(t_, mdev, rel),			\
				(ssize_t)strlen(w_));			\
		KUNIT_EXPECT_STREQ(t_, st_of(t_)->buf, w_);		\
	} while (0)

/* ---- Device files -------------------------------------------------------- */

static void device_files_test(struct kunit *test)
{
	struct mock_ibdev *mdev = st_of(test)->mdev;

	EXPECT_FILE(test, mdev, "node_type", "1: CA\n");
	EXPECT_FILE(test, mdev, "node_guid", "0002:c903:0011:2233\n");
	/* query_device of the mock leaves it zero */
	EXPECT_FILE(test, mdev, "sys_image_guid", "0000:0000:0000:0000\n");
	EXPECT_FILE(test, mdev, "fw_ver", MOCK_IBDEV_FW "\n");
	EXPECT_FILE(test, mdev, "node_desc", "\n");
	/* the driver's device_group */
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "drv_dev"),
			(ssize_t)strlen(dev_name(&mdev->ibdev.dev)) + 1);
	KUNIT_EXPECT_EQ(test, strncmp(st_of(test)->buf,
				      dev_name(&mdev->ibdev.dev),
				      strlen(dev_name(&mdev->ibdev.dev))), 0);
	KUNIT_EXPECT_EQ(test, rd(test, st_of(test)->plain, "drv_dev"),
			(ssize_t)-ENOENT);
}

static void node_type_names_test(struct kunit *test)
{
	static const struct {
		u8 type;
		const char *want;
	} rows[] = {
		{ RDMA_NODE_IB_SWITCH,	"2: switch\n" },
		{ RDMA_NODE_IB_ROUTER,	"3: router\n" },
		{ RDMA_NODE_RNIC,	"4: RNIC\n" },
		{ RDMA_NODE_USNIC,	"5: usNIC\n" },
		{ RDMA_NODE_USNIC_UDP,	"6: usNIC UDP\n" },
		{ RDMA_NODE_UNSPECIFIED, "7: unspecified\n" },
		{ 0,			"0: <unknown>\n" },
		{ 200,			"200: <unknown>\n" },
	};
	struct mock_ibdev *mdev = st_of(test)->plain;
	u8 saved = mdev->ibdev.node_type;
	unsigned int i;

	/* the file shows the field as it is now */
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		mdev->ibdev.node_type = rows[i].type;
		EXPECT_FILE(test, mdev, "node_type", rows[i].want);
	}
	mdev->ibdev.node_type = saved;
}

static void node_desc_write_test(struct kunit *test)
{
	struct mock_ibdev *mdev = st_of(test)->mdev;
	char long_desc[80];

	KUNIT_EXPECT_EQ(test, wr(test, mdev, "node_desc", "hello node", 10),
			(ssize_t)10);
	EXPECT_FILE(test, mdev, "node_desc", "hello node\n");
	KUNIT_EXPECT_STREQ(test, mdev->ibdev.node_desc, "hello node");

	/* only the first 64 bytes reach the driver */
	memset(long_desc, 'x', sizeof(long_desc));
	KUNIT_EXPECT_EQ(test, wr(test, mdev, "node_desc", long_desc,
				 sizeof(long_desc)), (ssize_t)sizeof(long_desc));
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "node_desc"),
			(ssize_t)IB_DEVICE_NODE_DESC_MAX + 1);

	/* without modify_device the file cannot be written */
	KUNIT_EXPECT_EQ(test, wr(test, st_of(test)->plain, "node_desc", "x", 1),
			(ssize_t)-EOPNOTSUPP);
}

/* ---- Port files ---------------------------------------------------------- */

static void port_files_test(struct kunit *test)
{
	struct mock_ibdev *mdev = st_of(test)->mdev;

	EXPECT_FILE(test, mdev, "ports/1/state", "4: ACTIVE\n");
	EXPECT_FILE(test, mdev, "ports/1/phys_state", "5: LinkUp\n");
	EXPECT_FILE(test, mdev, "ports/1/lid", "0x101\n");
	EXPECT_FILE(test, mdev, "ports/2/lid", "0x102\n");
	EXPECT_FILE(test, mdev, "ports/1/sm_lid", "0x0\n");
	EXPECT_FILE(test, mdev, "ports/1/lid_mask_count", "0\n");
	EXPECT_FILE(test, mdev, "ports/1/sm_sl", "0\n");
	EXPECT_FILE(test, mdev, "ports/1/cap_mask", "0x00000000\n");
	EXPECT_FILE(test, mdev, "ports/1/link_layer", "InfiniBand\n");
	/* the mock reports no active width: 6.1 refuses to show a rate */
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/rate"), (ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/3/state"), (ssize_t)-ENOENT);
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/0/state"), (ssize_t)-ENOENT);
	/* the driver's port_groups, on every port of its device only */
	EXPECT_FILE(test, mdev, "ports/2/drv_port", "port 2\n");
	KUNIT_EXPECT_EQ(test, rd(test, st_of(test)->plain, "ports/1/drv_port"),
			(ssize_t)-ENOENT);
	/* no alloc_hw_port_stats, no hw_counters/ */
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/hw_counters/lifespan"),
			(ssize_t)-ENOENT);
}

static void pkeys_test(struct kunit *test)
{
	struct mock_ibdev *mdev = st_of(test)->mdev;

	EXPECT_FILE(test, mdev, "ports/1/pkeys/0", "0x8100\n");
	EXPECT_FILE(test, mdev, "ports/1/pkeys/15", "0x810f\n");
	EXPECT_FILE(test, mdev, "ports/2/pkeys/31", "0x821f\n");
	/* one file per table entry, MOCK_IBDEV_PKEY_TBL_LEN(port) */
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/pkeys/16"),
			(ssize_t)-ENOENT);
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/2/pkeys/32"),
			(ssize_t)-ENOENT);
}

/* The driver's P_Key error is the reader's. */
static void pkey_error_test(struct kunit *test)
{
	struct mock_ibdev *mdev = st_of(test)->plain;
	int (*saved)(struct ib_device *dev, u32 port, u16 index, u16 *pkey);

	saved = mdev->ibdev.ops.query_pkey;
	mdev->ibdev.ops.query_pkey = NULL;
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/pkeys/0"),
			(ssize_t)-EOPNOTSUPP);
	mdev->ibdev.ops.query_pkey = saved;
}

/* gids/<i> always read as a GID; gid_attrs exist for every entry. */
static void gids_test(struct kunit *test)
{
	struct mock_ibdev *mdev = st_of(test)->mdev;
	const char *buf = st_of(test)->buf;
	int i;

	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/gids/7"), (ssize_t)40);
	for (i = 4; i < 39; i += 5)
		KUNIT_EXPECT_EQ(test, buf[i], ':');
	KUNIT_EXPECT_EQ(test, buf[39], '\n');
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/gids/8"),
			(ssize_t)-ENOENT);
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/2/gids/15"), (ssize_t)40);
	/* an IB port's GIDs have no net device */
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/gid_attrs/ndevs/0"),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/gid_attrs/ndevs/8"),
			(ssize_t)-ENOENT);
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/2/gid_attrs/types/16"),
			(ssize_t)-ENOENT);
}

static void rate_format_test(struct kunit *test)
{
	static const struct {
		u16 speed;
		u8 width;
		const char *want;
	} rows[] = {
		{ IB_SPEED_SDR,   IB_WIDTH_1X,  "2.5 Gb/sec (1X SDR)\n" },
		{ IB_SPEED_SDR,   IB_WIDTH_12X, "30 Gb/sec (12X SDR)\n" },
		{ IB_SPEED_DDR,   IB_WIDTH_4X,  "20 Gb/sec (4X DDR)\n" },
		{ IB_SPEED_DDR,   IB_WIDTH_1X,  "5 Gb/sec (1X DDR)\n" },
		{ IB_SPEED_QDR,   IB_WIDTH_4X,  "40 Gb/sec (4X QDR)\n" },
		{ IB_SPEED_FDR10, IB_WIDTH_4X,  "40 Gb/sec (4X FDR10)\n" },
		{ IB_SPEED_FDR,   IB_WIDTH_4X,  "56 Gb/sec (4X FDR)\n" },
		{ IB_SPEED_FDR,   IB_WIDTH_1X,  "14 Gb/sec (1X FDR)\n" },
		{ IB_SPEED_EDR,   IB_WIDTH_4X,  "100 Gb/sec (4X EDR)\n" },
		{ IB_SPEED_EDR,   IB_WIDTH_8X,  "200 Gb/sec (8X EDR)\n" },
		{ IB_SPEED_HDR,   IB_WIDTH_2X,  "100 Gb/sec (2X HDR)\n" },
		{ IB_SPEED_HDR,   IB_WIDTH_4X,  "200 Gb/sec (4X HDR)\n" },
		{ IB_SPEED_NDR,   IB_WIDTH_4X,  "400 Gb/sec (4X NDR)\n" },
		/* an unknown speed counts as SDR */
		{ 0,		  IB_WIDTH_4X,  "10 Gb/sec (4X SDR)\n" },
		{ 3,		  IB_WIDTH_1X,  "2.5 Gb/sec (1X SDR)\n" },
	};
	char *buf = st_of(test)->buf;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		KUNIT_EXPECT_EQ(test, ib_sysfs_rate_format(rows[i].speed,
							   rows[i].width, buf),
				(ssize_t)strlen(rows[i].want));
		KUNIT_EXPECT_STREQ(test, buf, rows[i].want);
	}
	KUNIT_EXPECT_EQ(test, ib_sysfs_rate_format(IB_SPEED_EDR, 0, buf),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sysfs_rate_format(IB_SPEED_EDR, 3, buf),
			(ssize_t)-EINVAL);
}

/* ---- Client groups and removal ------------------------------------------- */

static void client_groups_test(struct kunit *test)
{
	struct mock_ibdev *mdev = st_of(test)->mdev;
	struct ib_device *dev = &mdev->ibdev;

	KUNIT_ASSERT_EQ(test, ib_port_register_client_groups(dev, 2,
							     client_groups), 0);
	EXPECT_FILE(test, mdev, "ports/2/client_dir/client_file", "client\n");
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/1/client_dir/client_file"),
			(ssize_t)-ENOENT);
	ib_port_unregister_client_groups(dev, 2, client_groups);
	KUNIT_EXPECT_EQ(test, rd(test, mdev, "ports/2/client_dir/client_file"),
			(ssize_t)-ENOENT);

	KUNIT_EXPECT_EQ(test, ib_port_register_client_groups(dev, 0,
							     client_groups),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_port_register_client_groups(dev, 3,
							     client_groups),
			-EINVAL);
	/* nothing registered there: a no-op */
	ib_port_unregister_client_groups(dev, 3, client_groups);
}

/* Unregistration takes the whole directory away. */
static void removal_test(struct kunit *test)
{
	struct sysfs_test *st = st_of(test);
	char path[sizeof(st->path)];
	struct file *f;

	KUNIT_EXPECT_GT(test, rd(test, st->plain, "ports/1/state"), 0);
	strscpy(path, st->path, sizeof(path));
	mock_ibdev_destroy(st->plain);
	st->plain = NULL;
	f = filp_open(path, O_RDONLY, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f), -ENOENT);
	if (!IS_ERR(f))
		filp_close(f, NULL);
}

static struct kunit_case sysfs_test_cases[] = {
	KUNIT_CASE(device_files_test),
	KUNIT_CASE(node_type_names_test),
	KUNIT_CASE(node_desc_write_test),
	KUNIT_CASE(port_files_test),
	KUNIT_CASE(pkeys_test),
	KUNIT_CASE(pkey_error_test),
	KUNIT_CASE(gids_test),
	KUNIT_CASE(rate_format_test),
	KUNIT_CASE(client_groups_test),
	KUNIT_CASE(removal_test),
	{}
};

static struct kunit_suite sysfs_test_suite = {
	.name = "ib_core_sysfs",
	.init = sysfs_test_init,
	.exit = sysfs_test_exit,
	.test_cases = sysfs_test_cases,
};

kunit_test_suite(sysfs_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core sysfs files");
MODULE_LICENSE("GPL");
