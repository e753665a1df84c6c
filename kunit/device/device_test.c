// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_device: allocation, naming, registration, lookups, ports
 * of core/device/device.c.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

/* A driver id no mock device has, for lookups that must not match. */
#define OTHER_DRIVER_ID	RDMA_DRIVER_MLX4

/* Allocate a mock device, or fail the test. */
static struct mock_ibdev *mock_new(struct kunit *test,
				   const struct mock_ibdev_cfg *cfg)
{
	struct mock_ibdev *mdev = mock_ibdev_alloc(cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	return mdev;
}

/* Allocate and register, or fail the test. */
static struct mock_ibdev *mock_up(struct kunit *test,
				  const struct mock_ibdev_cfg *cfg,
				  const char *name)
{
	struct mock_ibdev *mdev = mock_new(test, cfg);

	KUNIT_ASSERT_EQ(test, mock_ibdev_register(mdev, name), 0);
	return mdev;
}

/* Unregister and free a device of the classic (no dealloc_driver) flow. */
static void mock_down(struct mock_ibdev *mdev)
{
	ib_unregister_device(&mdev->ibdev);
	mock_ibdev_free(mdev);
}

/* Whether ib_device_get_by_name() finds @name, as @want; drops the hold. */
static void expect_found(struct kunit *test, const char *name,
			 struct ib_device *want)
{
	struct ib_device *got = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);

	KUNIT_EXPECT_PTR_EQ_MSG(test, got, want, "lookup of %s", name);
	if (got)
		ib_device_put(got);
}

/* ---- Registration -------------------------------------------------------- */

static void register_one_port_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mock_ibdev *mdev;
	struct ib_device *ibdev, *got;

	expect_found(test, "kmdev_one", NULL);
	mdev = mock_up(test, &cfg, "kmdev_one");
	ibdev = &mdev->ibdev;

	KUNIT_EXPECT_STREQ(test, dev_name(&ibdev->dev), "kmdev_one");
	KUNIT_EXPECT_STREQ(test, ibdev->name, "kmdev_one");
	KUNIT_EXPECT_EQ(test, rdma_start_port(ibdev), 1U);
	KUNIT_EXPECT_EQ(test, rdma_end_port(ibdev), 1U);
	KUNIT_EXPECT_TRUE(test, ibdev->kverbs_provider);
	KUNIT_EXPECT_EQ(test, ibdev->attrs.max_qp, 64);
	KUNIT_EXPECT_EQ(test, ibdev->attrs.vendor_id, 0x5a5aU);
	KUNIT_EXPECT_EQ(test, refcount_read(&ibdev->refcount), 1U);
	expect_found(test, "kmdev_one", ibdev);

	got = ib_device_get_by_name("kmdev_one", MOCK_IBDEV_DRIVER_ID);
	KUNIT_EXPECT_PTR_EQ(test, got, ibdev);
	if (got)
		ib_device_put(got);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kmdev_one",
						      OTHER_DRIVER_ID));

	ib_unregister_device(ibdev);
	KUNIT_EXPECT_EQ(test, refcount_read(&ibdev->refcount), 0U);
	expect_found(test, "kmdev_one", NULL);
	/* a second unregistration is a no-op */
	ib_unregister_device(ibdev);
	mock_ibdev_free(mdev);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

static void register_two_ports_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 2 };
	const struct ib_port_immutable *imm;
	struct mock_ibdev *mdev;
	u32 port;

	mdev = mock_up(test, &cfg, "kmdev_two");
	KUNIT_EXPECT_EQ(test, rdma_end_port(&mdev->ibdev), 2U);
	KUNIT_ASSERT_NOT_NULL(test, mdev->ibdev.port_data);

	rdma_for_each_port(&mdev->ibdev, port) {
		imm = ib_port_immutable_read(&mdev->ibdev, port);
		KUNIT_EXPECT_EQ(test, imm->pkey_tbl_len,
				MOCK_IBDEV_PKEY_TBL_LEN(port));
		KUNIT_EXPECT_EQ(test, imm->gid_tbl_len,
				MOCK_IBDEV_GID_TBL_LEN(port));
		/* An IB port, less the MAD bits a mock without cfg.mad drops. */
		KUNIT_EXPECT_EQ(test, imm->core_cap_flags,
				(u32)(RDMA_CORE_PORT_IBA_IB &
				      ~(RDMA_CORE_CAP_IB_MAD |
					RDMA_CORE_CAP_IB_SMI)));
		KUNIT_EXPECT_PTR_EQ(test, mdev->ibdev.port_data[port].ib_dev,
				    &mdev->ibdev);
		KUNIT_EXPECT_TRUE(test, rdma_protocol_ib(&mdev->ibdev, port));
	}
	mock_down(mdev);
}

/* Lookups from inside registration, before the device is enabled. */
struct early_lookup {
	struct ib_device *found;
	int calls;
};

static void lookup_during_setup(struct mock_ibdev *mdev, u32 port)
{
	struct early_lookup *el = mdev->cfg.priv;

	el->calls++;
	el->found = ib_device_get_by_name(dev_name(&mdev->ibdev.dev),
					  RDMA_DRIVER_UNKNOWN);
	if (el->found)
		ib_device_put(el->found);
}

static void invisible_until_enabled_test(struct kunit *test)
{
	struct early_lookup el = {};
	struct mock_ibdev_cfg cfg = {
		.nports = 1,
		.on_port_immutable = lookup_during_setup,
		.priv = &el,
	};
	struct mock_ibdev *mdev;

	mdev = mock_new(test, &cfg);
	expect_found(test, "kmdev_early", NULL);
	KUNIT_ASSERT_EQ(test, mock_ibdev_register(mdev, "kmdev_early"), 0);
	KUNIT_EXPECT_EQ(test, el.calls, 1);
	KUNIT_EXPECT_NULL(test, el.found);
	expect_found(test, "kmdev_early", &mdev->ibdev);
	mock_down(mdev);
}

static void name_template_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mock_ibdev *a, *b, *c, *d, *e;

	a = mock_up(test, &cfg, "kmtpl%d");
	KUNIT_EXPECT_STREQ(test, dev_name(&a->ibdev.dev), "kmtpl0");
	b = mock_up(test, &cfg, "kmtpl%d");
	KUNIT_EXPECT_STREQ(test, dev_name(&b->ibdev.dev), "kmtpl1");
	c = mock_up(test, &cfg, "kmtpl2");
	KUNIT_EXPECT_STREQ(test, c->ibdev.name, "kmtpl2");

	/* the lowest free number is reused once its device is freed */
	mock_down(a);
	d = mock_up(test, &cfg, "kmtpl%d");
	KUNIT_EXPECT_STREQ(test, dev_name(&d->ibdev.dev), "kmtpl0");
	e = mock_up(test, &cfg, "kmtpl%d");
	KUNIT_EXPECT_STREQ(test, dev_name(&e->ibdev.dev), "kmtpl3");
	KUNIT_EXPECT_STREQ(test, e->ibdev.name, "kmtpl3");

	/* text after the number is kept */
	mock_down(b);
	b = mock_up(test, &cfg, "kmtpl%d_x");
	KUNIT_EXPECT_STREQ(test, dev_name(&b->ibdev.dev), "kmtpl0_x");
	expect_found(test, "kmtpl0_x", &b->ibdev);

	mock_down(b);
	mock_down(c);
	mock_down(d);
	mock_down(e);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

static void duplicate_name_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mock_ibdev *first, *second;

	first = mock_up(test, &cfg, "kmdev_dup");
	second = mock_new(test, &cfg);
	KUNIT_EXPECT_EQ(test, mock_ibdev_register(second, "kmdev_dup"),
			-ENFILE);
	KUNIT_EXPECT_EQ(test, refcount_read(&second->ibdev.refcount), 0U);
	expect_found(test, "kmdev_dup", &first->ibdev);
	mock_ibdev_free(second);

	/* the failed attempt did not disturb the first device */
	expect_found(test, "kmdev_dup", &first->ibdev);
	mock_down(first);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

static const char *const bad_names[] = {
	"",
	"a/b",
	"has space",
	"tab\tname",
	"new\nline",
	".",
	"..",
	"kmbad%s",
	"kmbad%d%d",
	"kmbad%",
	"%x",
	"kmbad%%",
	"kmbad\x01ctl",
	/* 64 characters: one too many for IB_DEVICE_NAME_MAX */
	"kmbad_0123456789012345678901234567890123456789012345678901234567",
};

static void bad_name_desc(const char *const *name, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", *name);
}

KUNIT_ARRAY_PARAM(bad_names, bad_names, bad_name_desc);

static void bad_name_test(struct kunit *test)
{
	const char *name = *(const char *const *)test->param_value;
	struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mock_ibdev *mdev;

	mdev = mock_new(test, &cfg);
	KUNIT_EXPECT_EQ(test, mock_ibdev_register(mdev, name), -EINVAL);
	KUNIT_EXPECT_EQ(test, refcount_read(&mdev->ibdev.refcount), 0U);
	if (*name)
		expect_found(test, name, NULL);
	mock_ibdev_free(mdev);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

static void port_immutable_fails_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 2, .fail_immutable_port = 2 };
	struct mock_ibdev_cfg good = { .nports = 2 };
	struct mock_ibdev *mdev;

	mdev = mock_new(test, &cfg);
	KUNIT_EXPECT_EQ(test, mock_ibdev_register(mdev, "kmdev_imm"), -EIO);
	KUNIT_EXPECT_EQ(test, refcount_read(&mdev->ibdev.refcount), 0U);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&mdev->ibdev.dev));
	expect_found(test, "kmdev_imm", NULL);
	mock_ibdev_free(mdev);

	/* everything is undone: the name is free again */
	mdev = mock_up(test, &good, "kmdev_imm");
	expect_found(test, "kmdev_imm", &mdev->ibdev);
	mock_down(mdev);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

/* ---- Unregistration and references --------------------------------------- */

/**
 * struct late_put - drops a device reference from a work item, later
 * @work: runs on the system work queue after a delay
 * @ref: the reference to drop
 * @name: looked up just before the put
 * @seen: what that lookup found
 * @put_done: set right before the put
 */
struct late_put {
	struct delayed_work work;
	struct ib_device *ref;
	const char *name;
	struct ib_device *seen;
	bool put_done;
};

static void late_put_run(struct work_struct *work)
{
	struct late_put *lp = container_of(to_delayed_work(work),
					   struct late_put, work);

	lp->seen = ib_device_get_by_name(lp->name, RDMA_DRIVER_UNKNOWN);
	if (lp->seen)
		ib_device_put(lp->seen);
	WRITE_ONCE(lp->put_done, true);
	ib_device_put(lp->ref);
}

static void unregister_waits_for_put_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct late_put lp = { .name = "kmdev_wait" };
	struct mock_ibdev *mdev;

	mdev = mock_up(test, &cfg, "kmdev_wait");
	lp.ref = ib_device_get_by_name("kmdev_wait", RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_PTR_EQ(test, lp.ref, &mdev->ibdev);
	KUNIT_EXPECT_EQ(test, refcount_read(&mdev->ibdev.refcount), 2U);

	INIT_DELAYED_WORK(&lp.work, late_put_run);
	schedule_delayed_work(&lp.work, msecs_to_jiffies(200));
	ib_unregister_device(&mdev->ibdev);

	/* unregistration returned only after the put */
	KUNIT_EXPECT_TRUE(test, READ_ONCE(lp.put_done));
	/* and the device was hidden while it waited */
	KUNIT_EXPECT_NULL(test, lp.seen);
	flush_delayed_work(&lp.work);
	mock_ibdev_free(mdev);
}

static void unregister_driver_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 1, .dealloc_driver = true };
	struct mock_ibdev_cfg plain = { .nports = 1 };
	struct mock_ibdev *other, *never;

	mock_up(test, &cfg, "kmdrv%d");
	mock_up(test, &cfg, "kmdrv%d");
	mock_up(test, &cfg, "kmdrv%d");
	/* never registered: not in the device table, left alone */
	never = mock_new(test, &cfg);
	/* another driver's device stays */
	other = mock_up(test, &plain, "kmdrv_other");
	other->ibdev.ops.driver_id = OTHER_DRIVER_ID;
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 5);

	ib_unregister_driver(MOCK_IBDEV_DRIVER_ID);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 2);
	expect_found(test, "kmdrv0", NULL);
	expect_found(test, "kmdrv1", NULL);
	expect_found(test, "kmdrv2", NULL);
	expect_found(test, "kmdrv_other", &other->ibdev);

	mock_ibdev_free(never);
	mock_down(other);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
}

static void unregister_queued_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 2, .dealloc_driver = true };
	struct mock_ibdev *mdev;

	mdev = mock_up(test, &cfg, "kmdev_queued");
	ib_unregister_device_queued(&mdev->ibdev);
	/* the fence a driver's module exit relies on */
	ib_unregister_driver(MOCK_IBDEV_DRIVER_ID);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
	expect_found(test, "kmdev_queued", NULL);
}

static void unregister_and_put_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 1, .dealloc_driver = true };
	struct ib_device *ref;

	mock_up(test, &cfg, "kmdev_andput");
	ref = ib_device_get_by_name("kmdev_andput", MOCK_IBDEV_DRIVER_ID);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	ib_unregister_device_and_put(ref);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live(), 0);
	expect_found(test, "kmdev_andput", NULL);
}

/* ---- Ops and attributes -------------------------------------------------- */

static int first_query_port(struct ib_device *d, u32 p, struct ib_port_attr *a)
{
	return 1;
}

static int second_query_port(struct ib_device *d, u32 p, struct ib_port_attr *a)
{
	return 2;
}

static int second_query_pkey(struct ib_device *d, u32 p, u16 i, u16 *k)
{
	return 3;
}

static const struct attribute_group first_group = { .name = "first" };
static const struct attribute_group second_group = { .name = "second" };

static const struct ib_device_ops first_ops = {
	.driver_id	= MOCK_IBDEV_DRIVER_ID,
	.uverbs_abi_ver	= 1,
	.device_group	= &first_group,
	.query_port	= first_query_port,
	.size_ib_pd	= 100,
	.size_ib_xrcd	= 400,
};

static const struct ib_device_ops second_ops = {
	.uverbs_abi_ver	= 2,
	.uverbs_no_driver_id_binding = 1,
	.device_group	= &second_group,
	.query_port	= second_query_port,
	.query_pkey	= second_query_pkey,
	.size_ib_pd	= 200,
	.size_ib_cq	= 300,
	.size_ib_xrcd	= 500,
};

static void set_device_ops_test(struct kunit *test)
{
	struct ib_device *dev = _ib_alloc_device(sizeof(*dev));

	KUNIT_ASSERT_NOT_NULL(test, dev);
	ib_set_device_ops(dev, &first_ops);
	ib_set_device_ops(dev, &second_ops);

	/* the first table wins where both set a member */
	KUNIT_EXPECT_TRUE(test, dev->ops.query_port == first_query_port);
	KUNIT_EXPECT_PTR_EQ(test, dev->ops.device_group, &first_group);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, (size_t)100);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_xrcd, (size_t)400);
	/* the second fills what the first left out */
	KUNIT_EXPECT_TRUE(test, dev->ops.query_pkey == second_query_pkey);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_cq, (size_t)300);
	/* what neither sets stays unset */
	KUNIT_EXPECT_TRUE(test, !dev->ops.modify_port);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_qp, (size_t)0);
	/* scalar members follow their own rules */
	KUNIT_EXPECT_EQ(test, dev->ops.driver_id, MOCK_IBDEV_DRIVER_ID);
	KUNIT_EXPECT_EQ(test, dev->ops.uverbs_abi_ver, 2U);
	KUNIT_EXPECT_TRUE(test, dev->ops.uverbs_no_driver_id_binding);

	ib_dealloc_device(dev);
}

static void alloc_defaults_test(struct kunit *test)
{
	struct ib_device *dev = _ib_alloc_device(sizeof(*dev));
	char fw[IB_FW_VERSION_NAME_MAX] = "junk";
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 0U);
	KUNIT_EXPECT_FALSE(test, ib_device_try_get(dev));
	KUNIT_EXPECT_TRUE(test, xa_empty(&dev->client_data));
	for (i = 0; i < ARRAY_SIZE(dev->cq_pools); i++)
		KUNIT_EXPECT_TRUE(test, list_empty(&dev->cq_pools[i]));
	KUNIT_EXPECT_TRUE(test, dev->uverbs_cmd_mask &
			  BIT_ULL(IB_USER_VERBS_CMD_QUERY_DEVICE));
	KUNIT_EXPECT_FALSE(test, dev->uverbs_cmd_mask &
			   BIT_ULL(IB_USER_VERBS_CMD_POLL_CQ));
	/* no get_dev_fw_str: empty string */
	ib_get_device_fw_str(dev, fw);
	KUNIT_EXPECT_STREQ(test, fw, "");
	ib_dealloc_device(dev);

	/* too small for a struct ib_device would warn: not tried here */
}

static void fw_str_and_kverbs_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 1, .no_kverbs = true };
	char fw[IB_FW_VERSION_NAME_MAX] = "";
	struct mock_ibdev *mdev;

	mdev = mock_up(test, &cfg, "kmdev_nokv");
	ib_get_device_fw_str(&mdev->ibdev, fw);
	KUNIT_EXPECT_STREQ(test, fw, MOCK_IBDEV_FW);
	KUNIT_EXPECT_FALSE(test, mdev->ibdev.kverbs_provider);
	mock_down(mdev);
}

/* ---- Port queries -------------------------------------------------------- */

static void query_port_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 2 };
	struct ib_port_attr attr;
	struct mock_ibdev *mdev;
	u32 port;

	mdev = mock_up(test, &cfg, "kmdev_qport");
	rdma_for_each_port(&mdev->ibdev, port) {
		memset(&attr, 0xa5, sizeof(attr));
		KUNIT_EXPECT_EQ(test, ib_query_port(&mdev->ibdev, port, &attr), 0);
		KUNIT_EXPECT_EQ(test, attr.lid, (u32)MOCK_IBDEV_LID(port));
		KUNIT_EXPECT_EQ(test, attr.state, IB_PORT_ACTIVE);
		KUNIT_EXPECT_EQ(test, attr.active_mtu, IB_MTU_2048);
		/* the core clears what the driver does not fill */
		KUNIT_EXPECT_EQ(test, attr.sm_lid, 0U);
		KUNIT_EXPECT_EQ(test, attr.port_cap_flags, 0U);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&mdev->query_port_calls), 2);

	KUNIT_EXPECT_EQ(test, ib_query_port(&mdev->ibdev, 0, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&mdev->ibdev, 3, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&mdev->ibdev, U32_MAX, &attr),
			-EINVAL);
	/* refused before reaching the driver */
	KUNIT_EXPECT_EQ(test, atomic_read(&mdev->query_port_calls), 2);
	mock_down(mdev);
}

static void port_ops_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 2 };
	struct ib_port_modify pm = {};
	struct ib_device_modify dm = {};
	struct mock_ibdev *mdev;
	struct ib_device *dev;
	u16 pkey = 0;

	mdev = mock_up(test, &cfg, "kmdev_pops");
	dev = &mdev->ibdev;

	KUNIT_EXPECT_EQ(test, ib_query_pkey(dev, 2, 5, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, (u16)MOCK_IBDEV_PKEY(2, 5));
	KUNIT_EXPECT_EQ(test, ib_query_pkey(dev, 0, 0, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(dev, 3, 0, &pkey), -EINVAL);

	KUNIT_EXPECT_EQ(test, ib_modify_port(dev, 1, 0, &pm), 0);
	KUNIT_EXPECT_EQ(test, ib_modify_port(dev, 3, 0, &pm), -EINVAL);
	/* the mock has no modify_device */
	KUNIT_EXPECT_EQ(test, ib_modify_device(dev, 0, &dm), -EOPNOTSUPP);

	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(dev, 1),
			IB_LINK_LAYER_INFINIBAND);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_IB_CA),
			RDMA_TRANSPORT_IB);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_RNIC),
			RDMA_TRANSPORT_IWARP);
	KUNIT_EXPECT_EQ(test, rdma_node_get_transport(RDMA_NODE_UNSPECIFIED),
			RDMA_TRANSPORT_UNSPECIFIED);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(&zgid, 0, sizeof(zgid)));
	mock_down(mdev);
}

static void netdev_lookup_test(struct kunit *test)
{
	struct mock_ibdev_cfg cfg = { .nports = 2 };
	struct ib_device *got;
	struct mock_ibdev *mdev;
	struct net_device *ndev;

	ndev = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	mdev = mock_ibdev_alloc(&cfg);
	if (!mdev) {
		free_netdev(ndev);
		KUNIT_FAIL(test, "no mock device");
		return;
	}

	/* drivers tie net devices before registering */
	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&mdev->ibdev, ndev, 2), 0);
	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&mdev->ibdev, ndev, 3),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev,
							RDMA_DRIVER_UNKNOWN));

	KUNIT_EXPECT_EQ(test, mock_ibdev_register(mdev, "kmdev_ndev"), 0);
	got = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, got, &mdev->ibdev);
	if (got)
		ib_device_put(got);
	got = ib_device_get_by_netdev(ndev, MOCK_IBDEV_DRIVER_ID);
	KUNIT_EXPECT_PTR_EQ(test, got, &mdev->ibdev);
	if (got)
		ib_device_put(got);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev, OTHER_DRIVER_ID));
	/* a net device that is not registered with the stack is not handed out */
	KUNIT_EXPECT_NULL(test, ib_device_netdev(&mdev->ibdev, 2));
	KUNIT_EXPECT_NULL(test, ib_device_netdev(&mdev->ibdev, 1));

	/* untie, then tie again to the other port */
	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&mdev->ibdev, NULL, 2), 0);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev,
							RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_EQ(test, ib_device_set_netdev(&mdev->ibdev, ndev, 1), 0);
	got = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, got, &mdev->ibdev);
	if (got)
		ib_device_put(got);

	/* unregistering unties every port */
	ib_unregister_device(&mdev->ibdev);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev,
							RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(mdev->ibdev.port_data[1].netdev));
	mock_ibdev_free(mdev);
	free_netdev(ndev);
}

static void device_test_exit(struct kunit *test)
{
	mock_ibdev_cleanup_all();
}

static struct kunit_case ib_core_device_cases[] = {
	KUNIT_CASE(register_one_port_test),
	KUNIT_CASE(register_two_ports_test),
	KUNIT_CASE(invisible_until_enabled_test),
	KUNIT_CASE(name_template_test),
	KUNIT_CASE(duplicate_name_test),
	KUNIT_CASE_PARAM(bad_name_test, bad_names_gen_params),
	KUNIT_CASE(port_immutable_fails_test),
	KUNIT_CASE(unregister_waits_for_put_test),
	KUNIT_CASE(unregister_driver_test),
	KUNIT_CASE(unregister_queued_test),
	KUNIT_CASE(unregister_and_put_test),
	KUNIT_CASE(set_device_ops_test),
	KUNIT_CASE(alloc_defaults_test),
	KUNIT_CASE(fw_str_and_kverbs_test),
	KUNIT_CASE(query_port_test),
	KUNIT_CASE(port_ops_test),
	KUNIT_CASE(netdev_lookup_test),
	{}
};

static struct kunit_suite ib_core_device_suite = {
	.name = "ib_core_device",
	.exit = device_test_exit,
	.test_cases = ib_core_device_cases,
};

kunit_test_suite(ib_core_device_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core device model");
MODULE_LICENSE("GPL");
