// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_route: the RoCE path rdma_resolve_route() builds, its
 * event, rdma_set_ib_path(), and their errnos.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/neighbour.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm_ib.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The path a RoCE route must carry is CM-UVERBS 1d (6.1's local route):
 * the IP addresses as IPv4-mapped GIDs, the route's hop limit, P_Key
 * 0xffff, the TOS as traffic class, the MTU of the net device, packet
 * life time 18 (or the ACK timeout - 1), the record type of the GID type.
 * The id sits on the mock's RoCE port, its net device init_net's
 * loopback (MTU 65536: IB_MTU_4096), as address resolution would leave it.
 */

static const u8 peer_mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x42 };

static void route_ready(struct cma_id_priv *priv, struct mock_ibdev *mdev,
			u32 port)
{
	struct sockaddr_in *src = (struct sockaddr_in *)cma_src_addr(priv);
	struct sockaddr_in *dst = (struct sockaddr_in *)cma_dst_addr(priv);
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;

	*src = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr = htonl(0x0a000001),
				     .sin_port = htons(40000) };
	*dst = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr = htonl(0x0a000002),
				     .sin_port = htons(7174) };
	dev_addr->hoplimit = 64;
	memcpy(dev_addr->dst_dev_addr, peer_mac, ETH_ALEN);
	cma_fix_attach(priv, mdev, port);
	cma_fix_force(priv, RDMA_CM_ADDR_RESOLVED);
}

static void cma_route_errnos_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);

	KUNIT_EXPECT_EQ(test, rdma_resolve_route(&priv->id, 1000), -EINVAL);
	route_ready(priv, mdev, CMA_FIX_IB_PORT);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(&priv->id, 0), -EINVAL);
	/* IB routes come from the SA: not built. */
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(&priv->id, 1000), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_RESOLVED);
	cma_fix_end(priv);

	/* RoCE without a net device to send on. */
	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	route_ready(priv, mdev, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(&priv->id, 1000), -ENODEV);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_RESOLVED);
	KUNIT_EXPECT_PTR_EQ(test, priv->id.route.path_rec, NULL);
	KUNIT_EXPECT_EQ(test, o.count, 0);
	cma_fix_end(priv);
}

static void cma_route_roce_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	union ib_gid sgid = { .raw = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 1 } };
	union ib_gid dgid = { .raw = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 2 } };
	struct sa_path_rec *rec;

	route_ready(priv, mdev, CMA_FIX_ROCE_PORT);
	priv->id.route.addr.dev_addr.bound_dev_if = init_net.loopback_dev->ifindex;
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(&priv->id, 1000), 0);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, o.state_seen, RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, priv->id.route.num_pri_alt_paths, 1);

	rec = priv->id.route.path_rec;
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, memcmp(rec->sgid.raw, sgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(rec->dgid.raw, dgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, rec->hop_limit, 64);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec->pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, rec->mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, rec->packet_life_time, 18);
	KUNIT_EXPECT_EQ(test, rec->traffic_class, 0);
	KUNIT_EXPECT_EQ(test, rec->sl, 0);
	KUNIT_EXPECT_EQ(test, rec->reversible, 1);
	KUNIT_EXPECT_EQ(test, rec->rate, IB_RATE_PORT_CURRENT);
	/* The mock's RoCE port is v1 only; v2 would also get a flow label. */
	KUNIT_EXPECT_EQ(test, rec->rec_type, SA_PATH_REC_TYPE_ROCE_V1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(rec->flow_label), 0U);
	KUNIT_EXPECT_TRUE(test, rec->roce.route_resolved);
	KUNIT_EXPECT_EQ(test, memcmp(rec->roce.dmac, peer_mac, ETH_ALEN), 0);
	rdma_destroy_id(&priv->id);
}

/* The TOS and the ACK timeout set before the route go into it. */
static void cma_route_options_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);

	route_ready(priv, mdev, CMA_FIX_ROCE_PORT);
	priv->id.route.addr.dev_addr.bound_dev_if = init_net.loopback_dev->ifindex;
	rdma_set_service_type(&priv->id, 0x20);
	KUNIT_ASSERT_EQ(test, rdma_set_ack_timeout(&priv->id, 14), 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(&priv->id, 1000), 0);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_ASSERT_NOT_NULL(test, priv->id.route.path_rec);
	KUNIT_EXPECT_EQ(test, priv->id.route.path_rec->traffic_class, 0x20);
	KUNIT_EXPECT_EQ(test, priv->id.route.path_rec->packet_life_time, 13);
	/* Resolved once: a second request finds ROUTE_RESOLVED. */
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(&priv->id, 1000), -EINVAL);
	rdma_destroy_id(&priv->id);
}

/* Destroyed before its ROUTE_RESOLVED ran: the event never comes. */
static void cma_route_destroy_pending_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);

	route_ready(priv, mdev, CMA_FIX_ROCE_PORT);
	priv->id.route.addr.dev_addr.bound_dev_if = init_net.loopback_dev->ifindex;
	mutex_lock(&priv->handler_mutex);	/* hold the work item off */
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(&priv->id, 1000), 0);
	cma_id_destroy_unlock(priv);
	flush_workqueue(cma_wq);
	KUNIT_EXPECT_EQ(test, o.count, 0);
}

static void cma_route_set_ib_path_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sa_path_rec path = { .rec_type = SA_PATH_REC_TYPE_IB,
				    .pkey = cpu_to_be16(0xffff), .sl = 3 };

	KUNIT_EXPECT_EQ(test, rdma_set_ib_path(&priv->id, &path), -EINVAL);
	route_ready(priv, mdev, CMA_FIX_IB_PORT);
	KUNIT_ASSERT_EQ(test, rdma_set_ib_path(&priv->id, &path), 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_ASSERT_NOT_NULL(test, priv->id.route.path_rec);
	KUNIT_EXPECT_PTR_NE(test, priv->id.route.path_rec, &path);
	KUNIT_EXPECT_EQ(test, priv->id.route.path_rec->sl, 3);
	KUNIT_EXPECT_EQ(test, priv->id.route.num_pri_alt_paths, 1);
	/* No event: the owner made the route itself. */
	flush_workqueue(cma_wq);
	KUNIT_EXPECT_EQ(test, o.count, 0);
	rdma_destroy_id(&priv->id);

	/* RoCE needs the net device for the path's L2 fields. */
	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	route_ready(priv, mdev, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, rdma_set_ib_path(&priv->id, &path), -ENODEV);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_RESOLVED);
	cma_fix_end(priv);
}

/* A neighbour entry of @ip (first bytes of its key) on "lo" with @mac. */
static struct neighbour *neigh_of(struct kunit *test, struct neigh_table *tbl,
				  __be32 ip, const u8 *mac)
{
	/* Room for an IPv6 key: the update reads the table family's size. */
	struct neighbour *n = kunit_kzalloc(test, sizeof(*n) +
					    sizeof(struct in6_addr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->tbl = tbl;
	n->dev = init_net.loopback_dev;
	memcpy(n->primary_key, &ip, sizeof(ip));
	memcpy(n->ha, mac, ETH_ALEN);
	return n;
}

/*
 * A RoCE route is watched: the peer's neighbour entry changing to another
 * MAC tells the owner UNREACHABLE (-ETIMEDOUT), from rdma_cm's workqueue;
 * the same MAC, another address or interface, or an IPv6 entry for an
 * IPv4 peer tell nothing; a destroyed id is no longer watched.
 */
static void cma_route_neigh_test(struct kunit *test)
{
	static const u8 moved[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x43 };
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct neigh_table *v4 = kunit_kzalloc(test, sizeof(*v4), GFP_KERNEL);
	struct neigh_table *v6 = kunit_kzalloc(test, sizeof(*v6), GFP_KERNEL);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	__be32 peer = htonl(0x0a000002);

	KUNIT_ASSERT_NOT_NULL(test, v4);
	KUNIT_ASSERT_NOT_NULL(test, v6);
	v4->family = AF_INET;
	v6->family = AF_INET6;

	route_ready(priv, mdev, CMA_FIX_ROCE_PORT);
	priv->id.route.addr.dev_addr.bound_dev_if = init_net.loopback_dev->ifindex;
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(&priv->id, 1000), 0);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ROUTE_RESOLVED);

	KUNIT_EXPECT_EQ(test, cma_neigh_update(neigh_of(test, v4, peer,
							peer_mac)), 0);
	KUNIT_EXPECT_EQ(test, cma_neigh_update(neigh_of(test, v4,
							htonl(0x0a000003),
							moved)), 0);
	KUNIT_EXPECT_EQ(test, cma_neigh_update(neigh_of(test, v6, peer,
							moved)), 0);
	KUNIT_EXPECT_EQ(test, cma_neigh_update(neigh_of(test, v4, peer,
							moved)), 1);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_UNREACHABLE);
	KUNIT_EXPECT_EQ(test, o.status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, o.count, 2);

	/* Another interface: nothing. */
	priv->id.route.addr.dev_addr.bound_dev_if++;
	KUNIT_EXPECT_EQ(test, cma_neigh_update(neigh_of(test, v4, peer,
							moved)), 0);
	priv->id.route.addr.dev_addr.bound_dev_if--;
	rdma_destroy_id(&priv->id);
	KUNIT_EXPECT_EQ(test, cma_neigh_update(neigh_of(test, v4, peer,
							moved)), 0);
}

static struct kunit_case cma_route_cases[] = {
	KUNIT_CASE(cma_route_errnos_test),
	KUNIT_CASE(cma_route_roce_test),
	KUNIT_CASE(cma_route_options_test),
	KUNIT_CASE(cma_route_destroy_pending_test),
	KUNIT_CASE(cma_route_set_ib_path_test),
	KUNIT_CASE(cma_route_neigh_test),
	{}
};

static struct kunit_suite cma_route_suite = {
	.name = "rdma_cm_route",
	.test_cases = cma_route_cases,
};

kunit_test_suites(&cma_route_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's routes");
MODULE_LICENSE("GPL");
