// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_res: rdma_cm's ids as rows of resource tracking, and what
 * ib_core's reader gets of them for nldev.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/module.h>

#include "core/restrack/restrack.h"
#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * What 6.1 lists (nldev's RES_CM_ID_GET): an id from the moment it is on
 * a device until it is destroyed, named after the module that created it
 * (rdma_create_id() passes KBUILD_MODNAME: this suite's module), with its
 * port, its QP number once it has a QP, port space, state in rdma_cm's
 * numbering and both addresses; a listener on a wildcard address once per
 * device it listens on, with no port and no destination.
 */

static int rows(struct mock_ibdev *mdev)
{
	return rdma_restrack_count(&mdev->ibdev, RDMA_RESTRACK_CM_ID, false);
}

/* The only CM id row of @mdev; the test fails if there is not one. */
static struct rdma_restrack_entry *only_row(struct kunit *test,
					    struct mock_ibdev *mdev)
{
	struct rdma_restrack_root *rt = &mdev->ibdev.res[RDMA_RESTRACK_CM_ID];
	struct rdma_restrack_entry *res, *found = NULL;
	unsigned long id;

	KUNIT_ASSERT_EQ(test, rows(mdev), 1);
	xa_for_each(&rt->xa, id, res)
		found = res;
	KUNIT_ASSERT_NOT_NULL(test, found);
	return found;
}

static void set_addrs(struct cma_id_priv *priv)
{
	*(struct sockaddr_in *)cma_src_addr(priv) = (struct sockaddr_in){
		.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x0a000001),
		.sin_port = htons(40002) };
	*(struct sockaddr_in *)cma_dst_addr(priv) = (struct sockaddr_in){
		.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x0a000002),
		.sin_port = htons(7174) };
}

/* An id is listed while it is on a device, and reads as it is. */
static void cma_res_id_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct rdma_restrack_cm_id_info info;
	struct rdma_restrack_entry *res;
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	u32 idn;

	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, rows(mdev), 0);
	set_addrs(priv);
	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, RDMA_CM_ADDR_RESOLVED);

	res = only_row(test, mdev);
	KUNIT_EXPECT_PTR_EQ(test, res, &priv->row.res);
	KUNIT_EXPECT_EQ(test, res->type, RDMA_RESTRACK_CM_ID);
	KUNIT_EXPECT_TRUE(test, rdma_is_kernel_res(res));
	KUNIT_EXPECT_STREQ(test, res->kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_PTR_EQ(test, rdma_res_to_id(res), &priv->id);

	KUNIT_ASSERT_TRUE(test, rdma_restrack_cm_id_read(res, &info));
	KUNIT_EXPECT_PTR_EQ(test, info.id, &priv->id);
	KUNIT_EXPECT_PTR_EQ(test, info.device, &mdev->ibdev);
	KUNIT_EXPECT_EQ(test, info.port, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, info.state, 2);	/* ADDR_RESOLVED */
	KUNIT_EXPECT_EQ(test, info.ps, 0x0106U);	/* RDMA_PS_TCP */
	KUNIT_EXPECT_EQ(test, info.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, info.qp_num, 0U);
	KUNIT_ASSERT_NOT_NULL(test, info.src);
	KUNIT_ASSERT_NOT_NULL(test, info.dst);
	KUNIT_EXPECT_EQ(test,
			ntohs(((const struct sockaddr_in *)info.src)->sin_port),
			40002);
	KUNIT_EXPECT_EQ(test,
			ntohl(((const struct sockaddr_in *)info.dst)->sin_addr.s_addr),
			0x0a000002U);

	/* The QP's number once it has one; the state as it moves. */
	priv->qp_num = 0x1234;
	cma_fix_force(priv, RDMA_CM_CONNECT);
	rdma_restrack_cm_id_read(res, &info);
	KUNIT_EXPECT_EQ(test, info.qp_num, 0x1234U);
	KUNIT_EXPECT_EQ(test, info.state, 5);	/* CONNECT */

	/* Found by its number, while it exists. */
	idn = res->id;
	res = rdma_restrack_get_byid(&mdev->ibdev, RDMA_RESTRACK_CM_ID, idn);
	KUNIT_ASSERT_FALSE(test, IS_ERR(res));
	KUNIT_EXPECT_PTR_EQ(test, res, &priv->row.res);
	rdma_restrack_put(res);
	priv->qp_num = 0;
	cma_fix_end(priv);
	KUNIT_EXPECT_EQ(test, rows(mdev), 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_restrack_get_byid(&mdev->ibdev,
							      RDMA_RESTRACK_CM_ID,
							      idn)));
}

/* An id on no device is on no list; destroying it leaves nothing. */
static void cma_res_unlisted_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv;

	priv = cma_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	KUNIT_EXPECT_FALSE(test, priv->row.res.valid);
	KUNIT_EXPECT_STREQ(test, priv->row.res.kern_name, KBUILD_MODNAME);
	rdma_destroy_id(&priv->id);
	KUNIT_EXPECT_EQ(test, rows(mdev), 0);
}

/*
 * A listener on the wildcard: a row per device it listens on, as 6.1's
 * internal ids, a device added later included; the listener has none of
 * its own (it is on no device).
 */
static void cma_res_wildcard_listener_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct rdma_restrack_cm_id_info info;
	struct rdma_restrack_entry *res;
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	struct mock_ibdev *d2;

	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_listen(&priv->id, 4), 0);
	KUNIT_EXPECT_FALSE(test, priv->row.res.valid);

	res = only_row(test, mdev);
	KUNIT_EXPECT_TRUE(test, rdma_is_kernel_res(res));
	KUNIT_EXPECT_STREQ(test, res->kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_PTR_EQ(test, rdma_res_to_id(res), &priv->id);
	KUNIT_ASSERT_TRUE(test, rdma_restrack_cm_id_read(res, &info));
	KUNIT_EXPECT_PTR_EQ(test, info.device, &mdev->ibdev);
	KUNIT_EXPECT_EQ(test, info.port, 0U);
	KUNIT_EXPECT_EQ(test, info.state, 8);	/* LISTEN */
	KUNIT_EXPECT_EQ(test, info.ps, 0x0106U);
	KUNIT_EXPECT_EQ(test, info.qp_num, 0U);
	KUNIT_ASSERT_NOT_NULL(test, info.src);
	KUNIT_EXPECT_EQ(test, info.src->ss_family, AF_INET);
	KUNIT_EXPECT_EQ(test,
			ntohs(((const struct sockaddr_in *)info.src)->sin_port),
			ntohs(cma_addr_port(cma_src_addr(priv))));
	KUNIT_EXPECT_NULL(test, info.dst);

	d2 = cma_fix_device(test);
	KUNIT_EXPECT_EQ(test, rows(d2), 1);
	KUNIT_EXPECT_EQ(test, rows(mdev), 1);
	/* A device that goes takes its row along, not the other. */
	cma_fix_device_destroy(test, d2);
	KUNIT_EXPECT_EQ(test, rows(mdev), 1);

	rdma_destroy_id(&priv->id);
	KUNIT_EXPECT_EQ(test, rows(mdev), 0);
}

static struct kunit_case cma_res_cases[] = {
	KUNIT_CASE(cma_res_id_test),
	KUNIT_CASE(cma_res_unlisted_test),
	KUNIT_CASE(cma_res_wildcard_listener_test),
	{}
};

static struct kunit_suite cma_res_suite = {
	.name = "rdma_cm_res",
	.test_cases = cma_res_cases,
};

kunit_test_suites(&cma_res_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's resource tracking rows");
MODULE_LICENSE("GPL");
