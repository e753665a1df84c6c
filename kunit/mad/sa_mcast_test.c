// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_sa_mcast: multicast joins shared per group, left at the
 * SA with the last member (core/mad/sa_mcast.c).
 */
/*
 * As in ib_core_sa_query, the test answers for the subnet manager on
 * QP1 of a mock port; it counts the SA requests to see which joins and
 * frees reach the SA.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/module.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>

#include "kunit/mad/sa_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define MC_ATTR		0x38
#define MC_MLID		0xc001

/* What a join's callback got. */
struct join_result {
	struct completion done;
	int calls;
	int status;
};

static int join_cb(int status, struct ib_sa_multicast *mc)
{
	struct join_result *r = mc->context;

	r->calls++;
	r->status = status;
	complete(&r->done);
	return 0;
}

static const union ib_gid test_mgid = { .raw = {
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 } };

static void member(struct ib_sa_mcmember_rec *rec, u32 qkey)
{
	memset(rec, 0, sizeof(*rec));
	rec->mgid = test_mgid;
	rec->port_gid = mock_ibdev_gid(SA_FIX_PORT, 0);
	rec->qkey = cpu_to_be32(qkey);
	rec->pkey = cpu_to_be16(0xffff);
	rec->join_state = BIT(FULLMEMBER_JOIN);
}

#define MC_MASK (IB_SA_MCMEMBER_REC_MGID | IB_SA_MCMEMBER_REC_PORT_GID | \
		 IB_SA_MCMEMBER_REC_QKEY | IB_SA_MCMEMBER_REC_PKEY | \
		 IB_SA_MCMEMBER_REC_JOIN_STATE)

static struct ib_sa_multicast *join(struct kunit *test,
				    struct ib_sa_client *client, u32 qkey,
				    struct join_result *r)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_mcmember_rec rec;

	member(&rec, qkey);
	init_completion(&r->done);
	return ib_sa_join_multicast(client, &fix->mdev->ibdev, SA_FIX_PORT,
				    &rec, MC_MASK, GFP_KERNEL, join_cb, r);
}

/* Answer the @n-th request with the group's record and @method. */
static void answer(struct kunit *test, int n, u8 method, u16 status)
{
	struct sa_fix *fix = test->priv;
	u8 wire[IB_SA_MCMEMBER_REC_BYTES];
	struct ib_sa_mcmember_rec rec;
	struct mock_sent_wr req;

	KUNIT_ASSERT_TRUE(test, sa_fix_wait_sent(fix, n + 1));
	KUNIT_ASSERT_TRUE(test, sa_fix_sent(fix, n, &req));
	ib_sa_mcmember_unpack(((struct ib_sa_mad *)req.mad)->data, &rec);
	rec.mlid = cpu_to_be16(MC_MLID);
	rec.sl = 4;
	ib_sa_mcmember_pack(&rec, wire);
	KUNIT_ASSERT_EQ(test, sa_fix_answer(fix, &req, method, status, wire,
					    sizeof(wire)), 0);
}

/* The @n-th request: its method and JoinState. */
static void expect_request(struct kunit *test, int n, u8 method,
			   u8 join_state)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_mcmember_rec rec;
	struct mock_sent_wr req;
	struct ib_sa_mad *mad;

	KUNIT_ASSERT_TRUE(test, sa_fix_wait_sent(fix, n + 1));
	KUNIT_ASSERT_TRUE(test, sa_fix_sent(fix, n, &req));
	mad = (struct ib_sa_mad *)req.mad;
	KUNIT_EXPECT_EQ(test, mad->mad_hdr.method, method);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(mad->mad_hdr.attr_id), MC_ATTR);
	ib_sa_mcmember_unpack(mad->data, &rec);
	KUNIT_EXPECT_EQ(test, rec.join_state, join_state);
	KUNIT_EXPECT_EQ(test, memcmp(&rec.mgid, &test_mgid, 16), 0);
}

static bool wait_join(struct join_result *r)
{
	return wait_for_completion_timeout(&r->done, SA_FIX_WAIT);
}

/* Wait until the port has no group of test_mgid any more. */
static bool group_gone(struct sa_fix *fix)
{
	unsigned long end = jiffies + SA_FIX_WAIT;
	struct ib_sa_mcmember_rec rec;
	union ib_gid mgid = test_mgid;

	while (ib_sa_get_mcmember_rec(&fix->mdev->ibdev, SA_FIX_PORT, &mgid,
				      &rec) != -EADDRNOTAVAIL) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

static int sa_mcast_test_init(struct kunit *test)
{
	sa_fix_setup(test);
	return 0;
}

static void sa_mcast_test_exit(struct kunit *test)
{
	mock_ibdev_cleanup_all();
}

/*
 * Two joins of one group: one Set for the first, the second joins
 * locally; one Delete after the last free.
 */
static void join_shared_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct join_result ra = {}, rb = {};
	struct ib_sa_multicast *a, *b;
	struct ib_sa_mcmember_rec rec;
	union ib_gid mgid = test_mgid;
	struct ib_sa_client client;

	ib_sa_register_client(&client);
	a = join(test, &client, 0x11, &ra);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	expect_request(test, 0, IB_MGMT_METHOD_SET, BIT(FULLMEMBER_JOIN));
	answer(test, 0, IB_MGMT_METHOD_GET_RESP, 0);
	KUNIT_ASSERT_TRUE(test, wait_join(&ra));
	KUNIT_EXPECT_EQ(test, ra.status, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->rec.mlid), MC_MLID);
	KUNIT_EXPECT_EQ(test, a->rec.join_state, BIT(FULLMEMBER_JOIN));

	b = join(test, &client, 0x11, &rb);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_ASSERT_TRUE(test, wait_join(&rb));
	KUNIT_EXPECT_EQ(test, rb.status, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(b->rec.mlid), MC_MLID);
	KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix), 1);

	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(&fix->mdev->ibdev,
						     SA_FIX_PORT, &mgid, &rec),
			0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.mlid), MC_MLID);
	KUNIT_EXPECT_EQ(test, rec.sl, 4);

	/* One member left: the port stays in the group. */
	ib_sa_free_multicast(a);
	msleep(20);
	KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix), 1);
	ib_sa_free_multicast(b);
	expect_request(test, 1, IB_SA_METHOD_DELETE, BIT(FULLMEMBER_JOIN));
	answer(test, 1, IB_SA_METHOD_DELETE_RESP, 0);
	KUNIT_EXPECT_TRUE(test, group_gone(fix));
	ib_sa_unregister_client(&client);
	KUNIT_EXPECT_EQ(test, ra.calls, 1);
	KUNIT_EXPECT_EQ(test, rb.calls, 1);
}

/* A join the SA refuses fails; nothing is left at the SA afterwards. */
static void join_refused_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct join_result r = {};
	struct ib_sa_multicast *mc;

	ib_sa_register_client(&client);
	mc = join(test, &client, 0x11, &r);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mc));
	answer(test, 0, IB_MGMT_METHOD_GET_RESP, 0x000c);
	KUNIT_ASSERT_TRUE(test, wait_join(&r));
	KUNIT_EXPECT_EQ(test, r.status, -EINVAL);
	ib_sa_free_multicast(mc);
	KUNIT_EXPECT_TRUE(test, group_gone(fix));
	KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix), 1);
	ib_sa_unregister_client(&client);
}

/* A second join whose record the group does not satisfy fails locally. */
static void join_mismatch_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct join_result ra = {}, rb = {};
	struct ib_sa_multicast *a, *b;
	struct ib_sa_client client;

	ib_sa_register_client(&client);
	a = join(test, &client, 0x11, &ra);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	answer(test, 0, IB_MGMT_METHOD_GET_RESP, 0);
	KUNIT_ASSERT_TRUE(test, wait_join(&ra));

	b = join(test, &client, 0x22, &rb);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_ASSERT_TRUE(test, wait_join(&rb));
	KUNIT_EXPECT_EQ(test, rb.status, -EINVAL);
	ib_sa_free_multicast(b);
	KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix), 1);

	ib_sa_free_multicast(a);
	answer(test, 1, IB_SA_METHOD_DELETE_RESP, 0);
	KUNIT_EXPECT_TRUE(test, group_gone(fix));
	ib_sa_unregister_client(&client);
}

/* The address vector of a group on an IB port. */
static void init_ah_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_mcmember_rec rec;
	struct rdma_ah_attr ah;
	const struct ib_global_route *grh;

	member(&rec, 0x11);
	rec.mlid = cpu_to_be16(MC_MLID);
	rec.sl = 5;
	rec.rate = IB_RATE_40_GBPS;
	rec.flow_label = cpu_to_be32(0x1234);
	rec.hop_limit = 3;
	rec.traffic_class = 7;
	/* An IB port ignores the net device. */
	KUNIT_ASSERT_EQ(test, ib_init_ah_from_mcmember(&fix->mdev->ibdev,
						       SA_FIX_PORT, &rec,
						       init_net.loopback_dev,
						       IB_GID_TYPE_IB, &ah), 0);
	KUNIT_EXPECT_EQ(test, ah.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&ah), SA_FIX_PORT);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ah), MC_MLID);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&ah), 5);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&ah), IB_RATE_40_GBPS);
	KUNIT_EXPECT_TRUE(test, rdma_ah_get_ah_flags(&ah) & IB_AH_GRH);
	grh = rdma_ah_read_grh(&ah);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &test_mgid, 16), 0);
	KUNIT_EXPECT_EQ(test, grh->flow_label, 0x1234);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 3);
	KUNIT_EXPECT_EQ(test, grh->traffic_class, 7);
	KUNIT_EXPECT_EQ(test, grh->sgid_index, 0);
	KUNIT_ASSERT_NOT_NULL(test, grh->sgid_attr);
	rdma_destroy_ah_attr(&ah);

	/* A port GID the port does not have. */
	rec.port_gid.global.interface_id = cpu_to_be64(0x1122334455667788ULL);
	KUNIT_EXPECT_LT(test, ib_init_ah_from_mcmember(&fix->mdev->ibdev,
						       SA_FIX_PORT, &rec, NULL,
						       IB_GID_TYPE_IB, &ah), 0);
}

/* No IB multicast on a RoCE port: rdma_cm does without the SA there. */
static void roce_refused_test(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1, .roce_port = 1,
					    .mad = true };
	struct ib_sa_client client;
	struct join_result r = {};
	struct ib_sa_mcmember_rec rec;
	union ib_gid mgid = test_mgid;
	struct mock_ibdev *roce;
	struct ib_sa_multicast *mc;

	ib_sa_register_client(&client);
	roce = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, roce);
	member(&rec, 0x11);
	init_completion(&r.done);
	mc = ib_sa_join_multicast(&client, &roce->ibdev, 1, &rec, MC_MASK,
				  GFP_KERNEL, join_cb, &r);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mc), -ENODEV);
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(&roce->ibdev, 1, &mgid,
						     &rec), -ENODEV);
	mock_ibdev_destroy(roce);
	ib_sa_unregister_client(&client);
}

static struct kunit_case sa_mcast_cases[] = {
	KUNIT_CASE(join_shared_test),
	KUNIT_CASE(join_refused_test),
	KUNIT_CASE(join_mismatch_test),
	KUNIT_CASE(init_ah_test),
	KUNIT_CASE(roce_refused_test),
	{}
};

static struct kunit_suite sa_mcast_suite = {
	.name = "ib_core_sa_mcast",
	.init = sa_mcast_test_init,
	.exit = sa_mcast_test_exit,
	.test_cases = sa_mcast_cases,
};

kunit_test_suite(sa_mcast_suite);

MODULE_DESCRIPTION("KUnit tests of SA multicast joins");
MODULE_LICENSE("GPL");
