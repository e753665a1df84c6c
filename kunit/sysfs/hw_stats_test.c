// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_hw_stats: counter sets of core/sysfs/hw_stats.c and their
 * hw_counters/ files.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "core/sysfs/sysfs.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The counters the test driver offers; "opt" is optional (no file). */
static const struct rdma_stat_desc test_descs[] = {
	{ .name = "rx_pkts" },
	{ .name = "tx_pkts" },
	{ .name = "opt", .flags = IB_STAT_FLAG_OPTIONAL },
};

#define TEST_NCOUNTERS	ARRAY_SIZE(test_descs)
#define TEST_OPT	2

/**
 * struct hw_test - what the test driver's ops do, per case
 * @calls: get_hw_stats calls, by port (0: device-wide)
 * @fail: get_hw_stats returns this when non-zero
 * @partial: get_hw_stats reads only the counter asked for
 * @short_read: get_hw_stats claims to have read counter 0 only, always
 * @no_alloc: the alloc ops return NULL
 * @gen: the value every counter gets on the next read
 */
struct hw_test {
	atomic_t calls[2];
	int fail;
	bool partial;
	bool short_read;
	bool no_alloc;
	u64 gen;
};

static struct hw_test *hw_test_of(struct ib_device *dev)
{
	return to_mock_ibdev(dev)->cfg.priv;
}

static struct rdma_hw_stats *test_alloc_port_stats(struct ib_device *dev,
						   u32 port)
{
	if (hw_test_of(dev)->no_alloc)
		return NULL;
	return rdma_alloc_hw_stats_struct(test_descs, TEST_NCOUNTERS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static struct rdma_hw_stats *test_alloc_device_stats(struct ib_device *dev)
{
	return test_alloc_port_stats(dev, 0);
}

/* Every read gives every counter a new value, as live hardware would. */
static int test_get_hw_stats(struct ib_device *dev, struct rdma_hw_stats *stats,
			     u32 port, int index)
{
	struct hw_test *ht = hw_test_of(dev);
	int i;

	atomic_inc(&ht->calls[port ? 1 : 0]);
	if (ht->fail)
		return ht->fail;
	if (ht->short_read)
		return 0;
	ht->gen++;
	if (ht->partial && index < stats->num_counters) {
		stats->value[index] = ht->gen;
		return index;
	}
	for (i = 0; i < stats->num_counters; i++)
		stats->value[i] = ht->gen;
	return stats->num_counters;
}

static const struct ib_device_ops test_port_ops = {
	.alloc_hw_port_stats	= test_alloc_port_stats,
	.get_hw_stats		= test_get_hw_stats,
};

static const struct ib_device_ops test_device_ops = {
	.alloc_hw_device_stats	= test_alloc_device_stats,
	.get_hw_stats		= test_get_hw_stats,
};

/* A registered one-port mock device with @ops; NULL on failure. */
static struct mock_ibdev *hw_dev_create(struct kunit *test,
					struct hw_test *ht,
					const struct ib_device_ops *ops,
					int *err)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1, .priv = ht };
	struct mock_ibdev *mdev = mock_ibdev_alloc(&cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	ib_set_device_ops(&mdev->ibdev, ops);
	*err = mock_ibdev_register(mdev, "hwst%d");
	if (*err) {
		mock_ibdev_free(mdev);
		return NULL;
	}
	return mdev;
}

static struct mock_ibdev *hw_dev_create_ok(struct kunit *test,
					   struct hw_test *ht,
					   const struct ib_device_ops *ops)
{
	struct mock_ibdev *mdev;
	int err;

	mdev = hw_dev_create(test, ht, ops, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	return mdev;
}

/* Open a file below /sys/class/infiniband/<dev>/. */
static struct file *dev_file_open(struct kunit *test, struct ib_device *dev,
				  const char *rel, int flags)
{
	char path[128];
	int n;

	n = snprintf(path, sizeof(path), "/sys/class/infiniband/%s/%s",
		     dev_name(&dev->dev), rel);
	KUNIT_ASSERT_LT(test, n, (int)sizeof(path));
	return filp_open(path, flags, 0);
}

/* Read a file of @dev into @buf; the length or a negative errno. */
static ssize_t dev_file_read(struct kunit *test, struct ib_device *dev,
			     const char *rel, char *buf, size_t len)
{
	struct file *f = dev_file_open(test, dev, rel, O_RDONLY);
	loff_t pos = 0;
	ssize_t n;

	buf[0] = '\0';
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* Write @val to a file of @dev; the length or a negative errno. */
static ssize_t dev_file_write(struct kunit *test, struct ib_device *dev,
			      const char *rel, const char *val)
{
	struct file *f = dev_file_open(test, dev, rel, O_WRONLY);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, val, strlen(val), &pos);
	filp_close(f, NULL);
	return n;
}

static void skip_without_sysfs(struct kunit *test)
{
	struct file *f = filp_open("/sys/class", O_RDONLY | O_DIRECTORY, 0);

	if (IS_ERR(f))
		kunit_skip(test, "no /sys in this context: %ld", PTR_ERR(f));
	filp_close(f, NULL);
}

/* Make the set's values older than its lifespan. */
static void make_stale(struct rdma_hw_stats *stats)
{
	mutex_lock(&stats->lock);
	stats->timestamp = jiffies - stats->lifespan - 1;
	mutex_unlock(&stats->lock);
}

static void set_lifespan_jiffies(struct rdma_hw_stats *stats,
				 unsigned long lifespan)
{
	mutex_lock(&stats->lock);
	stats->lifespan = lifespan;
	mutex_unlock(&stats->lock);
}

/* ---- Allocation ---------------------------------------------------------- */

static void alloc_bad_args_test(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, rdma_alloc_hw_stats_struct(NULL, 2, 10));
	KUNIT_EXPECT_NULL(test, rdma_alloc_hw_stats_struct(test_descs, 0, 10));
	KUNIT_EXPECT_NULL(test, rdma_alloc_hw_stats_struct(test_descs, -1, 10));
	/* freeing nothing is fine */
	rdma_free_hw_stats_struct(NULL);
}

static void alloc_fields_test(struct kunit *test)
{
	struct rdma_hw_stats *stats;
	int i;

	stats = rdma_alloc_hw_stats_struct(test_descs, TEST_NCOUNTERS, 40);
	KUNIT_ASSERT_NOT_NULL(test, stats);
	KUNIT_EXPECT_PTR_EQ(test, stats->descs, &test_descs[0]);
	KUNIT_EXPECT_EQ(test, stats->num_counters, (int)TEST_NCOUNTERS);
	KUNIT_EXPECT_EQ(test, stats->lifespan, msecs_to_jiffies(40));
	for (i = 0; i < stats->num_counters; i++)
		KUNIT_EXPECT_EQ(test, stats->value[i], 0ULL);
	KUNIT_ASSERT_NOT_NULL(test, stats->is_disabled);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(stats->is_disabled,
					     TEST_NCOUNTERS));
	/* one bit per counter: the last one is there to set (KASAN) */
	set_bit(TEST_NCOUNTERS - 1, stats->is_disabled);
	KUNIT_EXPECT_EQ(test, find_first_bit(stats->is_disabled,
					     TEST_NCOUNTERS),
			(unsigned long)TEST_NCOUNTERS - 1);
	rdma_free_hw_stats_struct(stats);
}

/* A lifespan of -1 asks for the default. */
static void alloc_default_lifespan_test(struct kunit *test)
{
	struct rdma_hw_stats *stats;

	stats = rdma_alloc_hw_stats_struct(test_descs, 1, (unsigned long)-1);
	KUNIT_ASSERT_NOT_NULL(test, stats);
	KUNIT_EXPECT_EQ(test, stats->lifespan,
			msecs_to_jiffies(RDMA_HW_STATS_DEFAULT_LIFESPAN));
	rdma_free_hw_stats_struct(stats);
}

/* ---- Refresh and lifespan ------------------------------------------------ */

/* Registration reads the port's set once, in full. */
static void register_reads_once_test(struct kunit *test)
{
	struct hw_test ht = {};
	struct mock_ibdev *mdev = hw_dev_create_ok(test, &ht, &test_port_ops);
	struct rdma_hw_stats *stats = ib_get_hw_stats_port(&mdev->ibdev, 1);

	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[1]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[0]), 0);
	KUNIT_ASSERT_NOT_NULL(test, stats);
	KUNIT_EXPECT_EQ(test, stats->value[0], 1ULL);
	KUNIT_EXPECT_NULL(test, ib_get_hw_stats_port(&mdev->ibdev, 2));
	mock_ibdev_destroy(mdev);
}

static void read_within_lifespan_test(struct kunit *test)
{
	struct hw_test ht = {};
	struct mock_ibdev *mdev = hw_dev_create_ok(test, &ht, &test_port_ops);
	struct rdma_hw_stats *stats = ib_get_hw_stats_port(&mdev->ibdev, 1);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	int calls;

	KUNIT_ASSERT_NOT_NULL(test, stats);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	set_lifespan_jiffies(stats, msecs_to_jiffies(10000));
	make_stale(stats);
	calls = atomic_read(&ht.calls[1]);

	KUNIT_EXPECT_GT(test, ib_hw_stats_value_show(&mdev->ibdev, stats, 1,
						     0, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[1]), calls + 1);

	/* the second read, and one of another counter, come from the cache */
	KUNIT_EXPECT_GT(test, ib_hw_stats_value_show(&mdev->ibdev, stats, 1,
						     0, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
	KUNIT_EXPECT_GT(test, ib_hw_stats_value_show(&mdev->ibdev, stats, 1,
						     1, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[1]), calls + 1);
	mock_ibdev_destroy(mdev);
}

static void read_after_lifespan_test(struct kunit *test)
{
	struct hw_test ht = {};
	struct mock_ibdev *mdev = hw_dev_create_ok(test, &ht, &test_port_ops);
	struct rdma_hw_stats *stats = ib_get_hw_stats_port(&mdev->ibdev, 1);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	int calls;

	KUNIT_ASSERT_NOT_NULL(test, stats);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	calls = atomic_read(&ht.calls[1]);
	make_stale(stats);
	KUNIT_EXPECT_GT(test, ib_hw_stats_value_show(&mdev->ibdev, stats, 1,
						     1, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
	make_stale(stats);
	KUNIT_EXPECT_GT(test, ib_hw_stats_value_show(&mdev->ibdev, stats, 1,
						     1, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "3\n");
	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[1]), calls + 2);
	mock_ibdev_destroy(mdev);
}

/* A driver that read one counter only is asked again on the next read. */
static void partial_read_not_cached_test(struct kunit *test)
{
	struct hw_test ht = {};
	struct mock_ibdev *mdev = hw_dev_create_ok(test, &ht, &test_port_ops);
	struct rdma_hw_stats *stats = ib_get_hw_stats_port(&mdev->ibdev, 1);
	int calls;

	KUNIT_ASSERT_NOT_NULL(test, stats);
	set_lifespan_jiffies(stats, msecs_to_jiffies(10000));
	make_stale(stats);
	ht.partial = true;
	calls = atomic_read(&ht.calls[1]);

	mutex_lock(&stats->lock);
	KUNIT_EXPECT_EQ(test, ib_hw_stats_update(&mdev->ibdev, stats, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ib_hw_stats_update(&mdev->ibdev, stats, 1, 0), 0);
	/* a full read restarts the lifespan */
	KUNIT_EXPECT_EQ(test, ib_hw_stats_update(&mdev->ibdev, stats, 1,
						 stats->num_counters), 0);
	KUNIT_EXPECT_EQ(test, ib_hw_stats_update(&mdev->ibdev, stats, 1, 0), 0);
	mutex_unlock(&stats->lock);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[1]), calls + 3);
	KUNIT_EXPECT_EQ(test, stats->value[0], 4ULL);
	KUNIT_EXPECT_EQ(test, stats->value[1], 4ULL);
	mock_ibdev_destroy(mdev);
}

static void driver_error_test(struct kunit *test)
{
	struct hw_test ht = {};
	struct mock_ibdev *mdev = hw_dev_create_ok(test, &ht, &test_port_ops);
	struct rdma_hw_stats *stats = ib_get_hw_stats_port(&mdev->ibdev, 1);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, stats);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	make_stale(stats);
	ht.fail = -EIO;
	KUNIT_EXPECT_EQ(test, ib_hw_stats_value_show(&mdev->ibdev, stats, 1,
						     0, buf), (ssize_t)-EIO);
	/* still stale: the next read asks again and succeeds */
	ht.fail = 0;
	KUNIT_EXPECT_GT(test, ib_hw_stats_value_show(&mdev->ibdev, stats, 1,
						     0, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
	mock_ibdev_destroy(mdev);
}

static void lifespan_store_show_test(struct kunit *test)
{
	struct rdma_hw_stats *stats;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	char want[16];

	KUNIT_ASSERT_NOT_NULL(test, buf);
	stats = rdma_alloc_hw_stats_struct(test_descs, 1,
					   RDMA_HW_STATS_DEFAULT_LIFESPAN);
	KUNIT_ASSERT_NOT_NULL(test, stats);

	/* shown in ms, as whole jiffies make it */
	snprintf(want, sizeof(want), "%u\n",
		 jiffies_to_msecs(msecs_to_jiffies(RDMA_HW_STATS_DEFAULT_LIFESPAN)));
	KUNIT_EXPECT_GT(test, ib_hw_stats_lifespan_show(stats, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, want);

	KUNIT_EXPECT_EQ(test, ib_hw_stats_lifespan_store(stats, "1000\n", 5),
			(ssize_t)5);
	KUNIT_EXPECT_EQ(test, stats->lifespan, msecs_to_jiffies(1000));
	KUNIT_EXPECT_GT(test, ib_hw_stats_lifespan_show(stats, buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "1000\n");
	KUNIT_EXPECT_EQ(test, ib_hw_stats_lifespan_store(stats, "0", 1),
			(ssize_t)1);
	KUNIT_EXPECT_EQ(test, stats->lifespan, 0UL);
	KUNIT_EXPECT_EQ(test, ib_hw_stats_lifespan_store(stats, "10000", 5),
			(ssize_t)5);

	KUNIT_EXPECT_EQ(test, ib_hw_stats_lifespan_store(stats, "10001", 5),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_hw_stats_lifespan_store(stats, "-1", 2),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_hw_stats_lifespan_store(stats, "ten", 3),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, stats->lifespan, msecs_to_jiffies(10000));
	rdma_free_hw_stats_struct(stats);
}

/* ---- Registration errors ------------------------------------------------- */

static void register_driver_error_test(struct kunit *test)
{
	struct hw_test ht = { .fail = -ENXIO };
	int err;

	KUNIT_EXPECT_NULL(test, hw_dev_create(test, &ht, &test_port_ops, &err));
	KUNIT_EXPECT_EQ(test, err, -ENXIO);
	KUNIT_EXPECT_NULL(test, hw_dev_create(test, &ht, &test_device_ops,
					      &err));
	KUNIT_EXPECT_EQ(test, err, -ENXIO);
}

/* get_hw_stats returning neither an error nor num_counters is a bug. */
static void register_short_read_test(struct kunit *test)
{
	struct hw_test ht = { .short_read = true };
	int err;

	KUNIT_EXPECT_NULL(test, hw_dev_create(test, &ht, &test_port_ops, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
}

static void register_alloc_fails_test(struct kunit *test)
{
	struct hw_test ht = { .no_alloc = true };
	int err;

	KUNIT_EXPECT_NULL(test, hw_dev_create(test, &ht, &test_port_ops, &err));
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	KUNIT_EXPECT_NULL(test, hw_dev_create(test, &ht, &test_device_ops,
					      &err));
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[0]) +
			atomic_read(&ht.calls[1]), 0);
}

/* ---- The files ----------------------------------------------------------- */

/* Optional counters get no file; disabled ones still show their value. */
static void port_files_test(struct kunit *test)
{
	struct hw_test ht = {};
	struct mock_ibdev *mdev;
	struct rdma_hw_stats *stats;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	skip_without_sysfs(test);
	mdev = hw_dev_create_ok(test, &ht, &test_port_ops);
	stats = ib_get_hw_stats_port(&mdev->ibdev, 1);
	KUNIT_ASSERT_NOT_NULL(test, stats);
	/* the values read at registration stay valid while we look */
	set_lifespan_jiffies(stats, msecs_to_jiffies(10000));

	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev,
					    "ports/1/hw_counters/rx_pkts",
					    buf, PAGE_SIZE), (ssize_t)2);
	KUNIT_EXPECT_STREQ(test, buf, "1\n");
	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev,
					    "ports/1/hw_counters/opt",
					    buf, PAGE_SIZE), (ssize_t)-ENOENT);
	KUNIT_EXPECT_GT(test, dev_file_read(test, &mdev->ibdev,
					    "ports/1/hw_counters/lifespan",
					    buf, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev, "hw_counters",
					    buf, PAGE_SIZE), (ssize_t)-ENOENT);

	/* the core leaves is_disabled to the driver and the counter code */
	KUNIT_EXPECT_TRUE(test, bitmap_empty(stats->is_disabled,
					     TEST_NCOUNTERS));
	set_bit(1, stats->is_disabled);
	make_stale(stats);
	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev,
					    "ports/1/hw_counters/tx_pkts",
					    buf, PAGE_SIZE), (ssize_t)2);
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
	mock_ibdev_destroy(mdev);
}

static void device_files_test(struct kunit *test)
{
	struct hw_test ht = {};
	struct mock_ibdev *mdev;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	skip_without_sysfs(test);
	mdev = hw_dev_create_ok(test, &ht, &test_device_ops);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht.calls[0]), 1);
	KUNIT_EXPECT_NULL(test, ib_get_hw_stats_port(&mdev->ibdev, 1));

	/* the values read at registration stay valid while we look */
	KUNIT_EXPECT_EQ(test, dev_file_write(test, &mdev->ibdev,
					     "hw_counters/lifespan", "10000"),
			(ssize_t)5);
	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev,
					    "hw_counters/lifespan",
					    buf, PAGE_SIZE), (ssize_t)6);
	KUNIT_EXPECT_STREQ(test, buf, "10000\n");
	KUNIT_EXPECT_EQ(test, dev_file_write(test, &mdev->ibdev,
					     "hw_counters/lifespan", "10001"),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev,
					    "hw_counters/tx_pkts",
					    buf, PAGE_SIZE), (ssize_t)2);
	KUNIT_EXPECT_STREQ(test, buf, "1\n");
	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev,
					    "hw_counters/opt",
					    buf, PAGE_SIZE), (ssize_t)-ENOENT);
	/* the device's set is not per port */
	KUNIT_EXPECT_EQ(test, dev_file_read(test, &mdev->ibdev,
					    "ports/1/hw_counters/tx_pkts",
					    buf, PAGE_SIZE), (ssize_t)-ENOENT);
	mock_ibdev_destroy(mdev);
}

static struct kunit_case hw_stats_test_cases[] = {
	KUNIT_CASE(alloc_bad_args_test),
	KUNIT_CASE(alloc_fields_test),
	KUNIT_CASE(alloc_default_lifespan_test),
	KUNIT_CASE(register_reads_once_test),
	KUNIT_CASE(read_within_lifespan_test),
	KUNIT_CASE(read_after_lifespan_test),
	KUNIT_CASE(partial_read_not_cached_test),
	KUNIT_CASE(driver_error_test),
	KUNIT_CASE(lifespan_store_show_test),
	KUNIT_CASE(register_driver_error_test),
	KUNIT_CASE(register_short_read_test),
	KUNIT_CASE(register_alloc_fails_test),
	KUNIT_CASE(port_files_test),
	KUNIT_CASE(device_files_test),
	{}
};

static struct kunit_suite hw_stats_test_suite = {
	.name = "ib_core_hw_stats",
	.test_cases = hw_stats_test_cases,
};

kunit_test_suite(hw_stats_test_suite);

MODULE_DESCRIPTION("KUnit tests for ib_core hardware counter sets");
MODULE_LICENSE("GPL");
