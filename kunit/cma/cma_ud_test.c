// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites rdma_cm_ud, rdma_cm_mcast: UD ids' Q_Keys, SIDR REQ limits and
 * the SIDR REP as the owner hears it; RoCE multicast joins, their events, IPv4
 * memberships and leaving.
 */

#include <kunit/test.h>
#include <linux/igmp.h>
#include <linux/in.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm_ib.h>

#include "core/device/device.h"
#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The expectations are 6.1's (cma.c): a UD id's Q_Key is set once, the
 * UDP and IB port spaces default to 0x01234567; a SIDR REP with status 0
 * is ESTABLISHED with the peer's QP number and Q_Key and an address
 * vector along the route, a non-zero status is UNREACHABLE with that
 * status, another Q_Key than the id's is ADDR_ERROR -EINVAL, no answer
 * is UNREACHABLE -ETIMEDOUT, and the owner always sees the SIDR REP's
 * 136 bytes of private data. RoCE groups: the GID is the group's address
 * (IPv4 as ::ffff:a.b.c.d, ff0e:: in front for RoCE v1), the event comes
 * from the workqueue with QP number 0xffffff, the id's Q_Key and the
 * join's context; RoCE v2 joins the net device to the IPv4 group (not
 * for a send-only join) and leaving, or destroying the id, drops it.
 *
 * Ids live on the mock RoCE port, bound to 127.0.0.1 on "lo", which has
 * the GID entry ::ffff:127.0.0.1 there.
 */

#define LO_IP		htonl(0x7f000001)	/* 127.0.0.1 */
#define GROUP_IP	htonl(0xe0010203)	/* 224.1.2.3 */

/* A UD id of @o bound to 127.0.0.1 on "lo" and the RoCE port, in @state. */
static struct cma_id_priv *lo_ud_id(struct kunit *test, struct cma_owner *o,
				    struct mock_ibdev *mdev,
				    enum rdma_cm_state state)
{
	struct cma_id_priv *priv = cma_fix_id(test, o, RDMA_PS_UDP, IB_QPT_UD);
	struct sockaddr_in *sin = (struct sockaddr_in *)cma_src_addr(priv);

	*sin = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr = LO_IP };
	priv->id.route.addr.dev_addr.bound_dev_if =
		init_net.loopback_dev->ifindex;
	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, state);
	return priv;
}

/* ---- rdma_cm_ud ----------------------------------------------------------- */

struct qkey_case {
	enum rdma_ucm_port_space ps;
	u32 have;	/* the id's Q_Key before */
	u32 qkey;	/* asked for (0: the default) */
	int ret;
	u32 after;
};

static const struct qkey_case qkey_cases[] = {
	{ RDMA_PS_UDP, 0, 0, 0, RDMA_UDP_QKEY },
	{ RDMA_PS_IB, 0, 0, 0, RDMA_UDP_QKEY },
	{ RDMA_PS_IPOIB, 0, 0, -EOPNOTSUPP, 0 },
	{ RDMA_PS_UDP, 0, 0x1111, 0, 0x1111 },
	{ RDMA_PS_UDP, 0x1111, 0x1111, 0, 0x1111 },
	{ RDMA_PS_UDP, 0x1111, 0x2222, -EINVAL, 0x1111 },
	{ RDMA_PS_UDP, 0x1111, 0, 0, 0x1111 },
	{ RDMA_PS_IPOIB, 0x3333, 0, 0, 0x3333 },
};

static void qkey_desc(const struct qkey_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "ps %#x have %#x ask %#x",
		 c->ps, c->have, c->qkey);
}

KUNIT_ARRAY_PARAM(qkey, qkey_cases, qkey_desc);

static void cma_ud_qkey_test(struct kunit *test)
{
	const struct qkey_case *c = test->param_value;
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, c->ps, IB_QPT_UD);
	int ret;

	priv->qkey = c->have;
	mutex_lock(&priv->qp_mutex);
	ret = cma_ud_qkey_set(priv, c->qkey);
	mutex_unlock(&priv->qp_mutex);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, priv->qkey, c->after);
	cma_fix_end(priv);
}

/* rdma_connect() of a UD id: 180 bytes fit after the header, 181 do not. */
static void cma_ud_connect_limit_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = lo_ud_id(test, &o, mdev,
					    RDMA_CM_ROUTE_RESOLVED);
	static u8 data[IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE];
	struct rdma_conn_param conn = {
		.private_data = data,
		.private_data_len = IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE -
				    CMA_HDR_SIZE + 1,
	};

	cma_dst_addr(priv)->sa_family = AF_INET;
	KUNIT_EXPECT_EQ(test, rdma_connect(&priv->id, &conn), -EINVAL);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_NULL(test, priv->ib);
	KUNIT_EXPECT_EQ(test, o.count, 0);
	cma_fix_end(priv);
}

/* What the IB CM delivers: an event, and an id carrying our context. */
static int sidr_event(struct cma_id_priv *priv, enum ib_cm_event_type type,
		      struct ib_cm_event *ev)
{
	struct ib_cm_id ib = { .context = priv };

	ev->event = type;
	return cma_conn_event(&ib, ev);
}

/*
 * The route of an active UD id to 127.0.0.2 (RoCE v1, its MAC known),
 * and the GID entry the id sends from.
 */
static const struct ib_gid_attr *ud_route(struct kunit *test,
					  struct cma_id_priv *priv,
					  struct sa_path_rec *path)
{
	const struct ib_gid_attr *attr;
	union ib_gid gid = cma_fix_v4_gid(LO_IP);

	attr = rdma_find_gid_by_port(priv->id.device, &gid, IB_GID_TYPE_ROCE,
				     CMA_FIX_ROCE_PORT, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	*path = (struct sa_path_rec){
		.rec_type = SA_PATH_REC_TYPE_ROCE_V1,
		.sgid = gid, .dgid = cma_fix_v4_gid(htonl(0x7f000002)),
		.pkey = cpu_to_be16(0xffff), .hop_limit = 1,
		.mtu = IB_MTU_1024, .sl = 0,
	};
	path->roce.route_resolved = true;
	path->roce.dmac[0] = 0x02;
	path->roce.dmac[5] = 0x42;
	priv->id.route.path_rec = path;
	priv->id.route.num_pri_alt_paths = 1;
	return attr;
}

static void cma_ud_sidr_rep_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct rdma_cm_event seen;
	struct cma_owner o = { .copy = &seen };
	struct cma_id_priv *priv;
	static u8 data[IB_CM_SIDR_REP_PRIVATE_DATA_SIZE] = { 0x5a };
	struct ib_cm_event ev = { .private_data = data };
	const struct ib_gid_attr *attr;
	struct sa_path_rec path;

	cma_fix_lo_gid_add(test, mdev, LO_IP, IB_GID_TYPE_ROCE);
	priv = lo_ud_id(test, &o, mdev, RDMA_CM_CONNECT);
	attr = ud_route(test, priv, &path);

	/* Refused: UNREACHABLE with the status, the data shown. */
	ev.param.sidr_rep_rcvd.status = IB_SIDR_UNSUPPORTED;
	KUNIT_EXPECT_EQ(test, sidr_event(priv, IB_CM_SIDR_REP_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_UNREACHABLE);
	KUNIT_EXPECT_EQ(test, o.status, (int)IB_SIDR_UNSUPPORTED);
	KUNIT_EXPECT_PTR_EQ(test, seen.param.ud.private_data, (const void *)data);
	KUNIT_EXPECT_EQ(test, seen.param.ud.private_data_len, 136);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_CONNECT);

	/* No answer at all. */
	KUNIT_EXPECT_EQ(test, sidr_event(priv, IB_CM_SIDR_REQ_ERROR, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_UNREACHABLE);
	KUNIT_EXPECT_EQ(test, o.status, -ETIMEDOUT);

	/* Answered: the peer's QP, its Q_Key, an address vector to it. */
	ev.param.sidr_rep_rcvd = (struct ib_cm_sidr_rep_event_param){
		.status = IB_SIDR_SUCCESS, .qpn = 0x1234,
		.qkey = RDMA_UDP_QKEY, .sgid_attr = attr,
	};
	KUNIT_EXPECT_EQ(test, sidr_event(priv, IB_CM_SIDR_REP_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, o.status, 0);
	KUNIT_EXPECT_EQ(test, seen.param.ud.qp_num, 0x1234U);
	KUNIT_EXPECT_EQ(test, seen.param.ud.qkey, (u32)RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, seen.param.ud.private_data_len, 136);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&seen.param.ud.ah_attr),
			(u32)CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, memcmp(seen.param.ud.ah_attr.grh.dgid.raw,
				     path.dgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, seen.param.ud.ah_attr.roce.dmac[5], 0x42);
	KUNIT_EXPECT_EQ(test, priv->qkey, (u32)RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_CONNECT);

	/* Another Q_Key than the id's now has: ADDR_ERROR. */
	ev.param.sidr_rep_rcvd.qkey = 0x7777;
	KUNIT_EXPECT_EQ(test, sidr_event(priv, IB_CM_SIDR_REP_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ADDR_ERROR);
	KUNIT_EXPECT_EQ(test, o.status, -EINVAL);
	KUNIT_EXPECT_EQ(test, o.count, 4);

	rdma_put_gid_attr(attr);
	priv->id.route.path_rec = NULL;
	cma_fix_end(priv);
}

/* The owner asks for its id's destruction from the answer: it goes. */
static void cma_ud_sidr_destroy_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = { .ret = 1 };
	struct cma_id_priv *priv = lo_ud_id(test, &o, mdev, RDMA_CM_CONNECT);
	static u8 data[IB_CM_SIDR_REP_PRIVATE_DATA_SIZE];
	struct ib_cm_event ev = { .private_data = data };

	ev.param.sidr_rep_rcvd.status = IB_SIDR_REJECT;
	KUNIT_EXPECT_EQ(test, sidr_event(priv, IB_CM_SIDR_REP_RECEIVED, &ev),
			-ECONNABORTED);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.status, (int)IB_SIDR_REJECT);
}

static struct kunit_case cma_ud_cases[] = {
	KUNIT_CASE_PARAM(cma_ud_qkey_test, qkey_gen_params),
	KUNIT_CASE(cma_ud_connect_limit_test),
	KUNIT_CASE(cma_ud_sidr_rep_test),
	KUNIT_CASE(cma_ud_sidr_destroy_test),
	{}
};

static struct kunit_suite cma_ud_suite = {
	.name = "rdma_cm_ud",
	.test_cases = cma_ud_cases,
};

/* ---- rdma_cm_mcast ---------------------------------------------------------- */

/* Is "lo" a member of the IPv4 group @group? */
static bool lo_member(__be32 group)
{
	struct in_device *in_dev;
	struct ip_mc_list *im;
	bool found = false;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(init_net.loopback_dev);
	for (im = in_dev ? rcu_dereference(in_dev->mc_list) : NULL; im;
	     im = rcu_dereference(im->next_rcu))
		if (im->multiaddr == group)
			found = true;
	rcu_read_unlock();
	return found;
}

static int join(struct cma_id_priv *priv, __be32 group, u8 join_state,
		void *ctx)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = group };

	return rdma_join_multicast(&priv->id, (struct sockaddr *)&sin,
				   join_state, ctx);
}

static void leave(struct cma_id_priv *priv, __be32 group)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = group };

	rdma_leave_multicast(&priv->id, (struct sockaddr *)&sin);
}

/* The calls 6.1 refuses, and the IB port we do not join on. */
static void cma_mcast_errnos_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device_v2(test);
	struct sockaddr_in6 six = { .sin6_family = AF_INET6 };
	struct cma_owner o = {}, rc = {};
	struct cma_id_priv *priv, *conn;
	struct ib_qp qp = {};

	cma_fix_lo_gid_add(test, mdev, LO_IP, IB_GID_TYPE_ROCE_UDP_ENCAP);
	priv = lo_ud_id(test, &o, mdev, RDMA_CM_IDLE);
	KUNIT_EXPECT_EQ(test, join(priv, GROUP_IP, 1, NULL), -EINVAL);
	cma_fix_force(priv, RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, join(priv, GROUP_IP, 1, NULL), -EINVAL);
	cma_fix_force(priv, RDMA_CM_ADDR_BOUND);
	KUNIT_EXPECT_EQ(test, join(priv, 0, 1, NULL), -EINVAL);
	six.sin6_addr.s6_addr[0] = 0xff;
	six.sin6_addr.s6_addr[15] = 1;
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(&priv->id,
						  (struct sockaddr *)&six, 1, NULL), -ENOTSUPP);
	priv->id.qp = &qp;
	KUNIT_EXPECT_EQ(test, join(priv, GROUP_IP, 1, NULL), -EINVAL);
	priv->id.qp = NULL;
	priv->id.port_num = CMA_FIX_IB_PORT;
	KUNIT_EXPECT_EQ(test, join(priv, GROUP_IP, 1, NULL), -EOPNOTSUPP);
	priv->id.port_num = CMA_FIX_ROCE_PORT;
	KUNIT_EXPECT_TRUE(test, list_empty(&priv->mcasts));
	KUNIT_EXPECT_FALSE(test, lo_member(GROUP_IP));

	conn = lo_ud_id(test, &rc, mdev, RDMA_CM_ADDR_BOUND);
	conn->id.qp_type = IB_QPT_RC;
	KUNIT_EXPECT_EQ(test, join(conn, GROUP_IP, 1, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, o.count + rc.count, 0);
	cma_fix_end(conn);
	cma_fix_end(priv);
}

/*
 * A full member on RoCE v2: the event, the IPv4 membership, and leaving;
 * a send-only member does not join the IPv4 group.
 */
static void cma_mcast_v2_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device_v2(test);
	struct rdma_cm_event seen;
	struct cma_owner o = { .copy = &seen };
	struct cma_id_priv *priv;
	union ib_gid mgid = cma_fix_v4_gid(GROUP_IP);
	int ctx;

	cma_fix_lo_gid_add(test, mdev, LO_IP, IB_GID_TYPE_ROCE_UDP_ENCAP);
	priv = lo_ud_id(test, &o, mdev, RDMA_CM_ADDR_RESOLVED);
	KUNIT_ASSERT_EQ(test, join(priv, GROUP_IP, BIT(FULLMEMBER_JOIN), &ctx),
			0);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_EQ(test, o.status, 0);
	KUNIT_EXPECT_EQ(test, o.state_seen, RDMA_CM_ADDR_RESOLVED);
	KUNIT_EXPECT_PTR_EQ(test, seen.param.ud.private_data, (const void *)&ctx);
	KUNIT_EXPECT_EQ(test, seen.param.ud.qp_num, 0xffffffU);
	KUNIT_EXPECT_EQ(test, seen.param.ud.qkey, (u32)RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, memcmp(seen.param.ud.ah_attr.grh.dgid.raw,
				     mgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, seen.param.ud.ah_attr.grh.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, seen.param.ud.ah_attr.grh.sgid_attr->gid_type,
			IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, priv->qkey, (u32)RDMA_UDP_QKEY);
	KUNIT_EXPECT_TRUE(test, lo_member(GROUP_IP));

	/* A second group, send-only: no membership; leave both. */
	KUNIT_ASSERT_EQ(test, join(priv, htonl(0xe0010204),
				   BIT(SENDONLY_FULLMEMBER_JOIN), NULL), 0);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_FALSE(test, lo_member(htonl(0xe0010204)));
	leave(priv, GROUP_IP);
	KUNIT_EXPECT_FALSE(test, lo_member(GROUP_IP));
	leave(priv, htonl(0xe0010204));
	leave(priv, htonl(0xe0010205));		/* never joined: nothing */
	KUNIT_EXPECT_TRUE(test, list_empty(&priv->mcasts));
	KUNIT_EXPECT_EQ(test, o.count, 2);
	cma_fix_end(priv);
}

/* RoCE v1: the ff0e:: group GID, hop limit 1, no IPv4 membership. */
static void cma_mcast_v1_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct rdma_cm_event seen;
	struct cma_owner o = { .copy = &seen };
	struct cma_id_priv *priv;
	u8 want[16] = { 0xff, 0x0e, [10] = 0xff, [11] = 0xff,
			[12] = 224, 1, 2, 3 };

	cma_fix_lo_gid_add(test, mdev, LO_IP, IB_GID_TYPE_ROCE);
	priv = lo_ud_id(test, &o, mdev, RDMA_CM_ADDR_BOUND);
	KUNIT_ASSERT_EQ(test, join(priv, GROUP_IP, BIT(FULLMEMBER_JOIN), NULL),
			0);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_EQ(test, memcmp(seen.param.ud.ah_attr.grh.dgid.raw, want,
				     16), 0);
	KUNIT_EXPECT_EQ(test, seen.param.ud.ah_attr.grh.hop_limit, 1);
	KUNIT_EXPECT_FALSE(test, lo_member(GROUP_IP));
	cma_fix_end(priv);
}

/* Destroying an id leaves its groups; an undelivered event is dropped. */
static void cma_mcast_destroy_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device_v2(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv;

	cma_fix_lo_gid_add(test, mdev, LO_IP, IB_GID_TYPE_ROCE_UDP_ENCAP);
	priv = lo_ud_id(test, &o, mdev, RDMA_CM_ADDR_BOUND);
	/* The owner's handler lock held: the event cannot be delivered yet. */
	mutex_lock(&priv->handler_mutex);
	KUNIT_ASSERT_EQ(test, join(priv, GROUP_IP, BIT(FULLMEMBER_JOIN), NULL),
			0);
	KUNIT_EXPECT_TRUE(test, lo_member(GROUP_IP));
	cma_id_destroy_unlock(priv);
	KUNIT_EXPECT_FALSE(test, lo_member(GROUP_IP));
	KUNIT_EXPECT_EQ(test, o.count, 0);
}

static struct kunit_case cma_mcast_cases[] = {
	KUNIT_CASE(cma_mcast_errnos_test),
	KUNIT_CASE(cma_mcast_v2_test),
	KUNIT_CASE(cma_mcast_v1_test),
	KUNIT_CASE(cma_mcast_destroy_test),
	{}
};

static struct kunit_suite cma_mcast_suite = {
	.name = "rdma_cm_mcast",
	.test_cases = cma_mcast_cases,
};

kunit_test_suites(&cma_ud_suite, &cma_mcast_suite);

MODULE_DESCRIPTION("KUnit: rdma_cm UD ids and multicast");
MODULE_LICENSE("GPL");
