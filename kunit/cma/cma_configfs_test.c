// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_configfs: rdma_cm's configfs directories, their two
 * files, and the defaults they set at work in routes.
 */

#include <kunit/test.h>
#include <linux/configfs.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/ib_sa.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The directories are driven as configfs drives them: make_group() and
 * drop_item() of the subsystem's type for mkdir and rmdir, the show()
 * and store() of the attributes its item types list for reads and
 * writes. The expected texts are 6.1's: the GID type names of the sysfs
 * GID attributes ("IB/RoCE v1", "RoCE v2") and the TOS in decimal, each
 * with a newline.
 */

static struct config_group *cfs_root(void)
{
	return &cma_configfs_subsys.su_group;
}

static struct config_group *cfs_mkdir(const char *name)
{
	return cfs_root()->cg_item.ci_type->ct_group_ops->make_group(cfs_root(),
								     name);
}

static void cfs_rmdir(struct config_group *group)
{
	cfs_root()->cg_item.ci_type->ct_group_ops->drop_item(cfs_root(),
							     &group->cg_item);
}

/* The default group of @parent called @name, or NULL. */
static struct config_group *cfs_child(struct config_group *parent,
				      const char *name)
{
	struct config_group *g;

	list_for_each_entry(g, &parent->default_groups, group_entry)
		if (!strcmp(config_item_name(&g->cg_item), name))
			return g;
	return NULL;
}

static struct configfs_attribute *cfs_attr(struct config_group *g,
					   const char *name)
{
	struct configfs_attribute **a;

	for (a = g->cg_item.ci_type->ct_attrs; a && *a; a++)
		if (!strcmp((*a)->ca_name, name))
			return *a;
	return NULL;
}

/* ports/<port> of a device directory; the test fails without it. */
static struct config_group *cfs_port(struct kunit *test,
				     struct config_group *dev, const char *port)
{
	struct config_group *ports = cfs_child(dev, "ports");
	struct config_group *p;

	KUNIT_ASSERT_NOT_NULL(test, ports);
	p = cfs_child(ports, port);
	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

/* Read @file of @port into @buf; the result of show(). */
static ssize_t cfs_read(struct kunit *test, struct config_group *port,
			const char *file, char *buf)
{
	struct configfs_attribute *a = cfs_attr(port, file);

	KUNIT_ASSERT_NOT_NULL(test, a);
	memset(buf, 0, PAGE_SIZE);
	return a->show(&port->cg_item, buf);
}

/* Write @text to @file of @port; the result of store(). */
static ssize_t cfs_write(struct kunit *test, struct config_group *port,
			 const char *file, const char *text)
{
	struct configfs_attribute *a = cfs_attr(port, file);

	KUNIT_ASSERT_NOT_NULL(test, a);
	return a->store(&port->cg_item, text, strlen(text));
}

static char *cfs_buf(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* mkdir takes the devices rdma_cm runs on only; ports/ has one per port. */
static void cma_configfs_mkdir_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	const char *name = dev_name(&mdev->ibdev.dev);
	struct config_group *dev, *ports, *g;
	int n = 0;

	KUNIT_EXPECT_EQ(test, PTR_ERR(cfs_mkdir("no_such_dev")), -ENODEV);
	dev = cfs_mkdir(name);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	KUNIT_EXPECT_STREQ(test, config_item_name(&dev->cg_item), name);
	ports = cfs_child(dev, "ports");
	KUNIT_ASSERT_NOT_NULL(test, ports);
	list_for_each_entry(g, &ports->default_groups, group_entry)
		n++;
	KUNIT_EXPECT_EQ(test, n, 2);
	g = cfs_port(test, dev, "1");
	KUNIT_EXPECT_NOT_NULL(test, cfs_attr(g, "default_roce_mode"));
	KUNIT_EXPECT_NOT_NULL(test, cfs_attr(g, "default_roce_tos"));
	KUNIT_EXPECT_NOT_NULL(test, cfs_port(test, dev, "2"));
	KUNIT_EXPECT_NULL(test, cfs_child(ports, "3"));
	cfs_rmdir(dev);
}

static void cma_configfs_mode_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device_v2(test);
	struct cma_device *cdev = cma_device_of(&mdev->ibdev);
	struct config_group *dev, *ib, *roce;
	char *buf = cfs_buf(test);

	dev = cfs_mkdir(dev_name(&mdev->ibdev.dev));
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	ib = cfs_port(test, dev, "1");
	roce = cfs_port(test, dev, "2");

	/* What rdma_cm chose: IB's type on IB, v2 where the port has it. */
	KUNIT_EXPECT_EQ(test, cfs_read(test, ib, "default_roce_mode", buf), 11);
	KUNIT_EXPECT_STREQ(test, buf, "IB/RoCE v1\n");
	KUNIT_EXPECT_EQ(test, cfs_read(test, roce, "default_roce_mode", buf), 8);
	KUNIT_EXPECT_STREQ(test, buf, "RoCE v2\n");

	/* echo's newline or none; the whole write is taken. */
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"IB/RoCE v1\n"), 11);
	cfs_read(test, roce, "default_roce_mode", buf);
	KUNIT_EXPECT_STREQ(test, buf, "IB/RoCE v1\n");
	KUNIT_EXPECT_EQ(test, cma_device_gid_type(cdev, CMA_FIX_ROCE_PORT),
			IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"RoCE v2"), 7);
	KUNIT_EXPECT_EQ(test, cma_device_gid_type(cdev, CMA_FIX_ROCE_PORT),
			IB_GID_TYPE_ROCE_UDP_ENCAP);

	/* Names that are no GID type, or a prefix of one, or two newlines. */
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"RoCE v3\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"RoCE"), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"RoCE v2\n\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode", ""),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"roce v2"), -EINVAL);
	/* A type the port has no GIDs of. */
	KUNIT_EXPECT_EQ(test, cfs_write(test, ib, "default_roce_mode",
					"RoCE v2\n"), -EINVAL);
	cfs_read(test, ib, "default_roce_mode", buf);
	KUNIT_EXPECT_STREQ(test, buf, "IB/RoCE v1\n");
	cfs_read(test, roce, "default_roce_mode", buf);
	KUNIT_EXPECT_STREQ(test, buf, "RoCE v2\n");
	cfs_rmdir(dev);
}

/* A v1-only RoCE port takes v1 and refuses v2. */
static void cma_configfs_mode_v1_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct config_group *dev, *roce;
	char *buf = cfs_buf(test);

	dev = cfs_mkdir(dev_name(&mdev->ibdev.dev));
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	roce = cfs_port(test, dev, "2");
	cfs_read(test, roce, "default_roce_mode", buf);
	KUNIT_EXPECT_STREQ(test, buf, "IB/RoCE v1\n");
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"RoCE v2\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"IB/RoCE v1\n"), 11);
	cfs_rmdir(dev);
}

static void cma_configfs_tos_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_device *cdev = cma_device_of(&mdev->ibdev);
	struct config_group *dev, *p1, *p2;
	char *buf = cfs_buf(test);

	dev = cfs_mkdir(dev_name(&mdev->ibdev.dev));
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	p1 = cfs_port(test, dev, "1");
	p2 = cfs_port(test, dev, "2");

	KUNIT_EXPECT_EQ(test, cfs_read(test, p2, "default_roce_tos", buf), 2);
	KUNIT_EXPECT_STREQ(test, buf, "0\n");
	KUNIT_EXPECT_EQ(test, cfs_write(test, p2, "default_roce_tos", "32\n"), 3);
	cfs_read(test, p2, "default_roce_tos", buf);
	KUNIT_EXPECT_STREQ(test, buf, "32\n");
	KUNIT_EXPECT_EQ(test, cma_device_roce_tos(cdev, CMA_FIX_ROCE_PORT), 32);
	/* Per port: port 1 kept its own. */
	cfs_read(test, p1, "default_roce_tos", buf);
	KUNIT_EXPECT_STREQ(test, buf, "0\n");
	/* Any base kstrtou8() reads. */
	KUNIT_EXPECT_EQ(test, cfs_write(test, p2, "default_roce_tos", "0xb8"), 4);
	cfs_read(test, p2, "default_roce_tos", buf);
	KUNIT_EXPECT_STREQ(test, buf, "184\n");
	KUNIT_EXPECT_EQ(test, cfs_write(test, p2, "default_roce_tos", "255"), 3);
	/* Out of a u8, not a number: refused, the value stays. */
	KUNIT_EXPECT_EQ(test, cfs_write(test, p2, "default_roce_tos", "256"),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, cfs_write(test, p2, "default_roce_tos", "-1"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cfs_write(test, p2, "default_roce_tos", "tos"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cfs_write(test, p2, "default_roce_tos", ""),
			-EINVAL);
	cfs_read(test, p2, "default_roce_tos", buf);
	KUNIT_EXPECT_STREQ(test, buf, "255\n");
	cfs_rmdir(dev);
}

/* A directory outlives its device; its files then answer -ENODEV. */
static void cma_configfs_device_gone_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct config_group *dev, *p;
	char *buf = cfs_buf(test);

	dev = cfs_mkdir(dev_name(&mdev->ibdev.dev));
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	p = cfs_port(test, dev, "2");
	/* The directory holds no reference: the removal does not wait. */
	cma_fix_device_destroy(test, mdev);
	KUNIT_EXPECT_EQ(test, cfs_read(test, p, "default_roce_mode", buf),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, cfs_read(test, p, "default_roce_tos", buf),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, cfs_write(test, p, "default_roce_tos", "1"),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, cfs_write(test, p, "default_roce_mode",
					"RoCE v2"), -ENODEV);
	cfs_rmdir(dev);
}

static const u8 peer_mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x43 };

/*
 * An id put on the RoCE port as address resolution leaves it (over
 * init_net's loopback, an address on the local subnet: the network type
 * says nothing, so the port's default GID type decides), then routed.
 */
static struct sa_path_rec *route_on_port(struct kunit *test,
					 struct cma_owner *o,
					 struct mock_ibdev *mdev,
					 struct cma_id_priv *priv)
{
	struct sockaddr_in *src = (struct sockaddr_in *)cma_src_addr(priv);
	struct sockaddr_in *dst = (struct sockaddr_in *)cma_dst_addr(priv);
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;

	*src = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr = htonl(0x0a000001),
				     .sin_port = htons(40001) };
	*dst = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr = htonl(0x0a000002),
				     .sin_port = htons(7174) };
	dev_addr->hoplimit = 64;
	dev_addr->bound_dev_if = init_net.loopback_dev->ifindex;
	memcpy(dev_addr->dst_dev_addr, peer_mac, ETH_ALEN);
	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, RDMA_CM_ADDR_RESOLVED);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(&priv->id, 1000), 0);
	KUNIT_EXPECT_TRUE(test, cma_owner_wait(o));
	KUNIT_EXPECT_EQ(test, o->last, (int)RDMA_CM_EVENT_ROUTE_RESOLVED);
	return priv->id.route.path_rec;
}

/* What configfs says is what the next ids' routes carry. */
static void cma_configfs_route_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device_v2(test);
	struct config_group *dev, *roce;
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	struct sa_path_rec *rec;

	dev = cfs_mkdir(dev_name(&mdev->ibdev.dev));
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	roce = cfs_port(test, dev, "2");

	/* The defaults: RoCE v2 (with its flow label), TOS 0. */
	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	rec = route_on_port(test, &o, mdev, priv);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, priv->gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, rec->rec_type, SA_PATH_REC_TYPE_ROCE_V2);
	KUNIT_EXPECT_EQ(test, rec->traffic_class, 0);
	KUNIT_EXPECT_NE(test, be32_to_cpu(rec->flow_label), 0U);
	rdma_destroy_id(&priv->id);

	/* v1 and TOS 0x48 by configfs. */
	KUNIT_ASSERT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"IB/RoCE v1\n"), 11);
	KUNIT_ASSERT_EQ(test, cfs_write(test, roce, "default_roce_tos",
					"72\n"), 3);
	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	rec = route_on_port(test, &o, mdev, priv);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, priv->gid_type, IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, rec->rec_type, SA_PATH_REC_TYPE_ROCE_V1);
	KUNIT_EXPECT_EQ(test, rec->traffic_class, 0x48);
	rdma_destroy_id(&priv->id);

	/* An id's own TOS wins over the port's, even 0. */
	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	rdma_set_service_type(&priv->id, 0);
	rec = route_on_port(test, &o, mdev, priv);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, rec->traffic_class, 0);
	rdma_destroy_id(&priv->id);

	/* Back to v2: the id attached after the change gets it. */
	KUNIT_ASSERT_EQ(test, cfs_write(test, roce, "default_roce_mode",
					"RoCE v2\n"), 8);
	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	rec = route_on_port(test, &o, mdev, priv);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, rec->rec_type, SA_PATH_REC_TYPE_ROCE_V2);
	KUNIT_EXPECT_EQ(test, rec->traffic_class, 0x48);
	rdma_destroy_id(&priv->id);
	cfs_rmdir(dev);
}

static struct kunit_case cma_configfs_cases[] = {
	KUNIT_CASE(cma_configfs_mkdir_test),
	KUNIT_CASE(cma_configfs_mode_test),
	KUNIT_CASE(cma_configfs_mode_v1_test),
	KUNIT_CASE(cma_configfs_tos_test),
	KUNIT_CASE(cma_configfs_device_gone_test),
	KUNIT_CASE(cma_configfs_route_test),
	{}
};

static struct kunit_suite cma_configfs_suite = {
	.name = "rdma_cm_configfs",
	.test_cases = cma_configfs_cases,
};

kunit_test_suites(&cma_configfs_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's configfs directories");
MODULE_LICENSE("GPL");
