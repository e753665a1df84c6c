// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_nldev: request checks and replies of the nldev netlink client. */

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "core/netlink/nldev.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NL_TEST_GUID	0x0011223344556677ULL
#define NL_TEST_NCOUNTERS 3

/* ---- A mock device with three port counters ------------------------------ */

static const struct rdma_stat_desc nl_test_descs[NL_TEST_NCOUNTERS] = {
	{ .name = "kunit_a" }, { .name = "kunit_b" }, { .name = "kunit_c" },
};

/* When set, get_hw_stats disables the second counter. */
static bool nl_test_disable_b;

static struct rdma_hw_stats *nl_test_alloc_stats(struct ib_device *dev,
						 u32 port)
{
	return rdma_alloc_hw_stats_struct(nl_test_descs, NL_TEST_NCOUNTERS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int nl_test_get_stats(struct ib_device *dev, struct rdma_hw_stats *st,
			     u32 port, int index)
{
	int i;

	for (i = 0; i < st->num_counters; i++)
		st->value[i] = (i + 1) * 10 + port;
	if (nl_test_disable_b)
		set_bit(1, st->is_disabled);
	return st->num_counters;
}

static const struct ib_device_ops nl_test_ops = {
	.alloc_hw_port_stats	= nl_test_alloc_stats,
	.get_hw_stats		= nl_test_get_stats,
};

/* ---- Fixture ------------------------------------------------------------- */

/**
 * struct nl_ctx - one case's state, freed by the exit whatever happened
 * @mdev: the registered mock device
 * @req: the request being built
 * @nlh: its header
 * @reply: the answer built from it
 * @r: the parsed request
 * @extack: what the code under test said
 * @rtb: the reply's attributes
 * @etb: the attributes of one nested entry of the reply
 */
struct nl_ctx {
	struct mock_ibdev *mdev;
	struct sk_buff *req;
	struct nlmsghdr *nlh;
	struct sk_buff *reply;
	struct nldev_req r;
	struct netlink_ext_ack extack;
	struct nlattr *rtb[RDMA_NLDEV_ATTR_MAX];
	struct nlattr *etb[RDMA_NLDEV_ATTR_MAX];
};

static int nl_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct nl_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	test->priv = c;
	c->mdev = mock_ibdev_alloc(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, c->mdev);
	c->mdev->ibdev.node_guid = cpu_to_be64(NL_TEST_GUID);
	ib_set_device_ops(&c->mdev->ibdev, &nl_test_ops);
	if (mock_ibdev_register(c->mdev, "nltest%d")) {
		mock_ibdev_free(c->mdev);
		c->mdev = NULL;
		KUNIT_FAIL(test, "mock device did not register");
	}
	nl_test_disable_b = false;
	return 0;
}

/* Forget the previous request and answer of this case. */
static void nl_reset(struct nl_ctx *c)
{
	nldev_req_release(&c->r);
	kfree_skb(c->req);
	c->req = NULL;
	kfree_skb(c->reply);
	c->reply = NULL;
	memset(&c->extack, 0, sizeof(c->extack));
}

static void nl_test_exit(struct kunit *test)
{
	struct nl_ctx *c = test->priv;

	if (!c)
		return;
	nl_reset(c);
	if (c->mdev)
		mock_ibdev_destroy(c->mdev);
}

static struct ib_device *nl_dev(struct kunit *test)
{
	struct nl_ctx *c = test->priv;

	KUNIT_ASSERT_NOT_NULL(test, c->mdev);
	return &c->mdev->ibdev;
}

/* Start a request of @cmd; attributes are added with nla_put*(c->req). */
static struct nl_ctx *nl_req(struct kunit *test, u8 cmd)
{
	struct nl_ctx *c = test->priv;

	nl_reset(c);
	c->req = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->req);
	c->nlh = nlmsg_put(c->req, 0, 1, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd),
			   0, NLM_F_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, c->nlh);
	return c;
}

/* A request of @cmd naming the mock device. */
static struct nl_ctx *nl_dev_req(struct kunit *test, u8 cmd)
{
	struct nl_ctx *c = nl_req(test, cmd);

	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_DEV_INDEX,
					  nl_dev(test)->index), 0);
	return c;
}

static int nl_parse(struct nl_ctx *c, unsigned int needs)
{
	nlmsg_end(c->req, c->nlh);
	c->r.net = &init_net;
	c->r.extack = &c->extack;
	c->r.admin = true;
	return nldev_req_parse(&c->r, c->nlh, needs);
}

/* Build the answer to the parsed request and split it into c->rtb. */
static void nl_reply(struct kunit *test, struct nl_ctx *c, u8 cmd,
		     nldev_fill_fn fill)
{
	struct nlmsghdr *nlh;

	kfree_skb(c->reply);
	c->reply = nldev_reply_build(&c->r, 0, 42, cmd, fill);
	if (IS_ERR(c->reply)) {
		KUNIT_FAIL(test, "no reply: %ld", PTR_ERR(c->reply));
		c->reply = NULL;
		return;
	}
	nlh = nlmsg_hdr(c->reply);
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd));
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, 42U);
	KUNIT_ASSERT_EQ(test, nlmsg_parse_deprecated(nlh, 0, c->rtb,
						     RDMA_NLDEV_ATTR_MAX - 1,
						     NULL, NULL), 0);
}

static void expect_msg(struct kunit *test, struct nl_ctx *c, const char *msg)
{
	KUNIT_ASSERT_NOT_NULL(test, c->extack._msg);
	KUNIT_EXPECT_STREQ(test, c->extack._msg, msg);
}

/* ---- Request checks ------------------------------------------------------ */

/* A u32 attribute sent as one byte fails the policy. */
static void parse_bad_type_test(struct kunit *test)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_GET);

	KUNIT_ASSERT_EQ(test, nla_put_u8(c->req, RDMA_NLDEV_ATTR_DEV_INDEX, 0), 0);
	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, c->extack._msg);
	KUNIT_EXPECT_NULL(test, c->r.dev);
}

/* A device name with no NUL within the policy's length fails. */
static void parse_long_string_test(struct kunit *test)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_SET);
	char name[IB_DEVICE_NAME_MAX + 16];

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	KUNIT_ASSERT_EQ(test, nla_put_string(c->req, RDMA_NLDEV_ATTR_DEV_NAME,
					     name), 0);
	KUNIT_EXPECT_EQ(test, nl_parse(c, 0), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, c->extack._msg);
}

/* A u8 setting with no payload fails too. */
static void parse_bad_u8_test(struct kunit *test)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_SYS_SET);

	KUNIT_ASSERT_EQ(test, nla_put(c->req, RDMA_NLDEV_SYS_ATTR_NETNS_MODE,
				      0, NULL), 0);
	KUNIT_EXPECT_EQ(test, nl_parse(c, 0), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, c->extack._msg);
}

static void parse_missing_dev_test(struct kunit *test)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_GET);

	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), -EINVAL);
	expect_msg(test, c, "device index is missing");
}

static void parse_unknown_dev_test(struct kunit *test)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_GET);

	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_DEV_INDEX,
					  0x7ffffff0), 0);
	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), -EINVAL);
	expect_msg(test, c, "no such device");
	KUNIT_EXPECT_NULL(test, c->r.dev);
}

static void parse_port_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_PORT_GET);

	/* required but absent */
	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_NEED_DEV | NLDEV_NEED_PORT),
			-EINVAL);
	expect_msg(test, c, "port index is missing");
	KUNIT_EXPECT_NULL(test, c->r.dev);
	/* optional and absent */
	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_NEED_DEV | NLDEV_MAY_PORT), 0);
	KUNIT_EXPECT_EQ(test, c->r.port, 0U);
	KUNIT_EXPECT_PTR_EQ(test, c->r.dev, nl_dev(test));
	nldev_req_release(&c->r);
	KUNIT_EXPECT_NULL(test, c->r.dev);
}

static void parse_port_range_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_PORT_GET);

	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_PORT_INDEX, 2),
			0);
	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_NEED_DEV | NLDEV_MAY_PORT),
			-EINVAL);
	expect_msg(test, c, "no such port");
	/* the device reference was given back on the error */
	KUNIT_EXPECT_NULL(test, c->r.dev);
}

/* NLDEV_MAY_DEV: the device when named, none otherwise; no port alone. */
static void parse_may_dev_test(struct kunit *test)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_GET_CHARDEV);

	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_MAY_DEV | NLDEV_MAY_PORT), 0);
	KUNIT_EXPECT_NULL(test, c->r.dev);
	KUNIT_EXPECT_EQ(test, c->r.port, 0U);

	c = nl_req(test, RDMA_NLDEV_CMD_GET_CHARDEV);
	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_MAY_DEV | NLDEV_MAY_PORT),
			-EINVAL);
	expect_msg(test, c, "a port needs a device index");
	KUNIT_EXPECT_NULL(test, c->r.dev);

	c = nl_dev_req(test, RDMA_NLDEV_CMD_GET_CHARDEV);
	KUNIT_EXPECT_EQ(test, nl_parse(c, NLDEV_MAY_DEV | NLDEV_MAY_PORT), 0);
	KUNIT_EXPECT_PTR_EQ(test, c->r.dev, nl_dev(test));
	nldev_req_release(&c->r);
}

/* ---- GET, PORT_GET ------------------------------------------------------- */

static void get_fill_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_GET);
	struct ib_device *dev = nl_dev(test);
	struct nlattr **tb = c->rtb;

	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), 0);
	nl_reply(test, c, RDMA_NLDEV_CMD_GET, nldev_dev_fill);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]),
			dev->index);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   dev_name(&dev->dev));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_NODE_GUID]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]),
			NL_TEST_GUID);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 1U);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]),
			(u8)RDMA_NODE_IB_CA);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_FW_VERSION]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[RDMA_NLDEV_ATTR_FW_VERSION]),
			   MOCK_IBDEV_FW);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]);
	KUNIT_EXPECT_STREQ(test,
			   (char *)nla_data(tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]),
			   "ib");
}

static void port_fill_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_PORT_GET);
	struct nlattr **tb = c->rtb;

	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV | NLDEV_NEED_PORT), 0);
	nl_reply(test, c, RDMA_NLDEV_CMD_PORT_GET, nldev_port_fill);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 1U);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_LID]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[RDMA_NLDEV_ATTR_LID]),
			(u32)MOCK_IBDEV_LID(1));
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_STATE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_PORT_STATE]),
			(u8)IB_PORT_ACTIVE);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]),
			(u8)IB_PORT_PHYS_STATE_LINK_UP);
	/* the mock's port has no net device */
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_NDEV_NAME]);
}

/* ---- SET ----------------------------------------------------------------- */

static int nl_set_name(struct kunit *test, const char *name)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_SET);

	KUNIT_ASSERT_EQ(test, nla_put_string(c->req, RDMA_NLDEV_ATTR_DEV_NAME,
					     name), 0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), 0);
	return nldev_dev_set(&c->r);
}

static void rename_test(struct kunit *test)
{
	struct ib_device *dev = nl_dev(test);
	char old[IB_DEVICE_NAME_MAX];

	strscpy(old, dev_name(&dev->dev), sizeof(old));
	KUNIT_ASSERT_EQ(test, nl_set_name(test, "nlrenamed"), 0);
	KUNIT_EXPECT_STREQ(test, dev_name(&dev->dev), "nlrenamed");
	KUNIT_EXPECT_STREQ(test, dev->name, "nlrenamed");
	KUNIT_EXPECT_EQ(test, nl_set_name(test, old), 0);
	KUNIT_EXPECT_STREQ(test, dev_name(&dev->dev), old);
}

static void rename_bad_test(struct kunit *test)
{
	struct nl_ctx *c = test->priv;
	struct ib_device *dev = nl_dev(test);
	char name[IB_DEVICE_NAME_MAX + 1];
	char old[IB_DEVICE_NAME_MAX];

	strscpy(old, dev_name(&dev->dev), sizeof(old));
	/* fits the policy (NUL at IB_DEVICE_NAME_MAX) but not a name */
	memset(name, 'b', IB_DEVICE_NAME_MAX);
	name[IB_DEVICE_NAME_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, nl_set_name(test, name), -EINVAL);
	expect_msg(test, c, "device name is empty or too long");
	KUNIT_EXPECT_EQ(test, nl_set_name(test, ""), -EINVAL);
	expect_msg(test, c, "device name is empty or too long");
	KUNIT_EXPECT_EQ(test, nl_set_name(test, "bad/name"), -EINVAL);
	expect_msg(test, c, "invalid device name");
	KUNIT_EXPECT_STREQ(test, dev_name(&dev->dev), old);
}

static int nl_set_dim(struct kunit *test, u8 on)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_SET);

	KUNIT_ASSERT_EQ(test, nla_put_u8(c->req, RDMA_NLDEV_ATTR_DEV_DIM, on), 0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), 0);
	return nldev_dev_set(&c->r);
}

static void set_dim_test(struct kunit *test)
{
	struct ib_device *dev = nl_dev(test);

	KUNIT_EXPECT_EQ(test, nl_set_dim(test, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, (int)dev->use_cq_dim, 0);
	KUNIT_EXPECT_EQ(test, nl_set_dim(test, 1), 0);
	KUNIT_EXPECT_EQ(test, (int)dev->use_cq_dim, 1);
	KUNIT_EXPECT_EQ(test, nl_set_dim(test, 0), 0);
	KUNIT_EXPECT_EQ(test, (int)dev->use_cq_dim, 0);
}

static void set_netns_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_SET);

	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_NET_NS_FD, 3), 0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), 0);
	KUNIT_EXPECT_EQ(test, nldev_dev_set(&c->r), -EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL(test, c->extack._msg);
}

/* ---- SYS_GET, SYS_SET ---------------------------------------------------- */

static int nl_sys_set(struct kunit *test, int type, u8 val)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_SYS_SET);

	if (type)
		KUNIT_ASSERT_EQ(test, nla_put_u8(c->req, type, val), 0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, 0), 0);
	return nldev_sys_set(&c->r);
}

static void sys_set_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nl_sys_set(test, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1),
			0);
	KUNIT_EXPECT_EQ(test, nl_sys_set(test, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, nl_sys_set(test, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nl_sys_set(test,
					 RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nl_sys_set(test, 0, 0), -EINVAL);
	expect_msg(test, test->priv, "no system setting given");
}

static u8 nl_sys_get_u8(struct kunit *test, int type)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_SYS_GET);

	KUNIT_ASSERT_EQ(test, nl_parse(c, 0), 0);
	nl_reply(test, c, RDMA_NLDEV_CMD_SYS_GET, nldev_sys_fill);
	KUNIT_ASSERT_NOT_NULL(test, c->rtb[type]);
	return nla_get_u8(c->rtb[type]);
}

static void sys_get_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nl_sys_get_u8(test, RDMA_NLDEV_SYS_ATTR_NETNS_MODE),
			1);
	KUNIT_EXPECT_EQ(test, nl_sys_get_u8(test,
					    RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK), 1);
	KUNIT_ASSERT_EQ(test, nl_sys_set(test,
					 RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE, 1), 0);
	KUNIT_EXPECT_EQ(test, nl_sys_get_u8(test,
					    RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE), 1);
	KUNIT_EXPECT_TRUE(test, rdma_nl_get_privileged_qkey());
	KUNIT_ASSERT_EQ(test, nl_sys_set(test,
					 RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE, 0), 0);
	KUNIT_EXPECT_EQ(test, nl_sys_get_u8(test,
					    RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE), 0);
}

/* ---- Link types, NEWLINK, DELLINK ---------------------------------------- */

static char nl_test_link_name[IB_DEVICE_NAME_MAX];
static struct net_device *nl_test_link_ndev;

static int nl_test_newlink(const char *ibdev_name, struct net_device *ndev)
{
	strscpy(nl_test_link_name, ibdev_name, sizeof(nl_test_link_name));
	nl_test_link_ndev = ndev;
	return 0;
}

static struct rdma_link_ops nl_test_link_a = {
	.type = "kunit-nl", .newlink = nl_test_newlink,
};

static struct rdma_link_ops nl_test_link_b = {
	.type = "kunit-nl", .newlink = nl_test_newlink,
};

static void link_register_dup_test(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, nldev_link_lookup("kunit-nl"));
	rdma_link_register(&nl_test_link_a);
	KUNIT_EXPECT_PTR_EQ(test, nldev_link_lookup("kunit-nl"),
			    (const struct rdma_link_ops *)&nl_test_link_a);
	/* the second of a name is refused; the first one stays */
	rdma_link_register(&nl_test_link_b);
	KUNIT_EXPECT_PTR_EQ(test, nldev_link_lookup("kunit-nl"),
			    (const struct rdma_link_ops *)&nl_test_link_a);
	rdma_link_unregister(&nl_test_link_b);
	KUNIT_EXPECT_PTR_EQ(test, nldev_link_lookup("kunit-nl"),
			    (const struct rdma_link_ops *)&nl_test_link_a);
	rdma_link_unregister(&nl_test_link_a);
	KUNIT_EXPECT_NULL(test, nldev_link_lookup("kunit-nl"));
}

static int nl_newlink(struct kunit *test, const char *name, const char *type,
		      const char *ndev)
{
	struct nl_ctx *c = nl_req(test, RDMA_NLDEV_CMD_NEWLINK);

	if (name)
		KUNIT_ASSERT_EQ(test, nla_put_string(c->req,
						     RDMA_NLDEV_ATTR_DEV_NAME, name), 0);
	if (type)
		KUNIT_ASSERT_EQ(test, nla_put_string(c->req,
						     RDMA_NLDEV_ATTR_LINK_TYPE, type), 0);
	if (ndev)
		KUNIT_ASSERT_EQ(test, nla_put_string(c->req,
						     RDMA_NLDEV_ATTR_NDEV_NAME, ndev), 0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, 0), 0);
	return nldev_link_add(&c->r);
}

static void newlink_errors_test(struct kunit *test)
{
	struct nl_ctx *c = test->priv;

	/* no module provides "rdma-link-kunit-nosuch" */
	KUNIT_EXPECT_EQ(test, nl_newlink(test, "x0", "kunit-nosuch", "lo"),
			-EINVAL);
	expect_msg(test, c, "unknown link type");
	KUNIT_EXPECT_EQ(test, nl_newlink(test, "x0", "kunit-nl", NULL), -EINVAL);
	expect_msg(test, c, "device name, link type and net device are required");
	KUNIT_EXPECT_EQ(test, nl_newlink(test, NULL, "kunit-nl", "lo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, nl_newlink(test, "x%d", "kunit-nl", "lo"),
			-EINVAL);
	expect_msg(test, c, "device name may not be a template");
	KUNIT_EXPECT_EQ(test, nl_newlink(test, "", "kunit-nl", "lo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, nl_newlink(test, "x0", "kunit-nl",
					 "kunit-noif0"), -ENODEV);
	expect_msg(test, c, "no such net device");
}

static void newlink_test(struct kunit *test)
{
	nl_test_link_ndev = NULL;
	rdma_link_register(&nl_test_link_a);
	KUNIT_EXPECT_EQ(test, nl_newlink(test, "kunitlink0", "kunit-nl", "lo"),
			0);
	rdma_link_unregister(&nl_test_link_a);
	KUNIT_EXPECT_STREQ(test, nl_test_link_name, "kunitlink0");
	KUNIT_EXPECT_PTR_EQ(test, nl_test_link_ndev, init_net.loopback_dev);
}

/* A device not created by a link type cannot be deleted. */
static void dellink_refused_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_DELLINK);
	struct ib_device *dev = nl_dev(test), *again;

	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), 0);
	KUNIT_EXPECT_EQ(test, nldev_link_del(&c->r), -EINVAL);
	expect_msg(test, c, "device was not created by rdma link add");
	KUNIT_EXPECT_NULL(test, c->r.dev);
	/* still registered, and our reference was given back */
	again = ib_device_get_by_name(dev_name(&dev->dev), RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, again, dev);
	if (again)
		ib_device_put(again);
}

/* ---- RES_GET, STAT_GET --------------------------------------------------- */

static void res_summary_test(struct kunit *test)
{
	static const char *const names[] = {
		"pd", "cq", "qp", "cm_id", "mr", "ctx", "srq",
	};
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_RES_GET);
	struct nlattr *entry, **etb = c->etb;
	unsigned int n = 0;
	int rem;

	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV), 0);
	nl_reply(test, c, RDMA_NLDEV_CMD_RES_GET, nldev_res_summary_fill);
	KUNIT_ASSERT_NOT_NULL(test, c->rtb[RDMA_NLDEV_ATTR_RES_SUMMARY]);
	nla_for_each_nested(entry, c->rtb[RDMA_NLDEV_ATTR_RES_SUMMARY], rem) {
		KUNIT_ASSERT_LT(test, n, ARRAY_SIZE(names));
		KUNIT_ASSERT_EQ(test,
				nla_parse_nested_deprecated(etb, RDMA_NLDEV_ATTR_MAX - 1,
							    entry, NULL, NULL),
				0);
		KUNIT_ASSERT_NOT_NULL(test,
				      etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME]);
		KUNIT_EXPECT_STREQ(test,
				   (char *)nla_data(etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME]),
				   names[n]);
		KUNIT_EXPECT_NOT_NULL(test,
				      etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, ARRAY_SIZE(names));
}

/* Names and values of the counters in c->rtb, in order. */
static unsigned int nl_counters(struct kunit *test, struct nl_ctx *c,
				const char **names, u64 *values)
{
	struct nlattr *entry, **etb = c->etb;
	unsigned int n = 0;
	int rem;

	KUNIT_ASSERT_NOT_NULL(test, c->rtb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]);
	nla_for_each_nested(entry, c->rtb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem) {
		KUNIT_ASSERT_LT(test, n, (unsigned int)NL_TEST_NCOUNTERS);
		KUNIT_ASSERT_EQ(test,
				nla_parse_nested_deprecated(etb, RDMA_NLDEV_ATTR_MAX - 1,
							    entry, NULL, NULL),
				0);
		KUNIT_ASSERT_NOT_NULL(test,
				      etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME]);
		KUNIT_ASSERT_NOT_NULL(test,
				      etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]);
		names[n] = nla_data(etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME]);
		values[n] =
			nla_get_u64(etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]);
		n++;
	}
	return n;
}

static void stat_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_STAT_GET);
	const char *names[NL_TEST_NCOUNTERS];
	u64 values[NL_TEST_NCOUNTERS];

	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV | NLDEV_NEED_PORT), 0);
	nl_reply(test, c, RDMA_NLDEV_CMD_STAT_GET, nldev_stat_port_fill);
	KUNIT_ASSERT_NOT_NULL(test, c->rtb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(c->rtb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			1U);
	KUNIT_ASSERT_EQ(test, nl_counters(test, c, names, values), 3U);
	KUNIT_EXPECT_STREQ(test, names[0], "kunit_a");
	KUNIT_EXPECT_EQ(test, values[0], 11ULL);
	KUNIT_EXPECT_STREQ(test, names[2], "kunit_c");
	KUNIT_EXPECT_EQ(test, values[2], 31ULL);

	/* a disabled counter is left out */
	nl_test_disable_b = true;
	nl_reply(test, c, RDMA_NLDEV_CMD_STAT_GET, nldev_stat_port_fill);
	KUNIT_ASSERT_EQ(test, nl_counters(test, c, names, values), 2U);
	KUNIT_EXPECT_STREQ(test, names[0], "kunit_a");
	KUNIT_EXPECT_STREQ(test, names[1], "kunit_c");
}

/* Counter objects (stat qp / stat mr) are not supported. */
static void stat_res_test(struct kunit *test)
{
	struct nl_ctx *c = nl_dev_req(test, RDMA_NLDEV_CMD_STAT_GET);
	struct sk_buff *msg;

	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_PORT_INDEX, 1),
			0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(c->req, RDMA_NLDEV_ATTR_STAT_RES,
					  RDMA_NLDEV_ATTR_RES_QP), 0);
	KUNIT_ASSERT_EQ(test, nl_parse(c, NLDEV_NEED_DEV | NLDEV_NEED_PORT), 0);
	msg = nldev_reply_build(&c->r, 0, 1, RDMA_NLDEV_CMD_STAT_GET,
				nldev_stat_port_fill);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(msg), -EOPNOTSUPP);
	if (!IS_ERR(msg))
		kfree_skb(msg);
	expect_msg(test, c, "counter objects are not supported");
}

static struct kunit_case nldev_test_cases[] = {
	KUNIT_CASE(parse_bad_type_test),
	KUNIT_CASE(parse_long_string_test),
	KUNIT_CASE(parse_bad_u8_test),
	KUNIT_CASE(parse_missing_dev_test),
	KUNIT_CASE(parse_unknown_dev_test),
	KUNIT_CASE(parse_port_test),
	KUNIT_CASE(parse_port_range_test),
	KUNIT_CASE(parse_may_dev_test),
	KUNIT_CASE(get_fill_test),
	KUNIT_CASE(port_fill_test),
	KUNIT_CASE(rename_test),
	KUNIT_CASE(rename_bad_test),
	KUNIT_CASE(set_dim_test),
	KUNIT_CASE(set_netns_test),
	KUNIT_CASE(sys_set_test),
	KUNIT_CASE(sys_get_test),
	KUNIT_CASE(link_register_dup_test),
	KUNIT_CASE(newlink_errors_test),
	KUNIT_CASE(newlink_test),
	KUNIT_CASE(dellink_refused_test),
	KUNIT_CASE(res_summary_test),
	KUNIT_CASE(stat_test),
	KUNIT_CASE(stat_res_test),
	{}
};

static struct kunit_suite nldev_test_suite = {
	.name = "ib_core_nldev",
	.init = nl_test_init,
	.exit = nl_test_exit,
	.test_cases = nldev_test_cases,
};

kunit_test_suite(nldev_test_suite);

MODULE_DESCRIPTION("KUnit tests of the nldev netlink client");
MODULE_LICENSE("GPL");
