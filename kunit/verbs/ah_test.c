// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_ah: address handles and address vectors of
 * core/verbs/ah.c on the mock driver.
 */
/*
 * The mock has no AH verbs: each case adds its own (and a query_gid, so
 * that the GID cache can read the IB ports' GIDs) before registering. The
 * cases that use GID entries of the IB port need the GID cache
 * (core/device/cache.c) filling IB tables from query_gid.
 */

#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/module.h>
#include <net/checksum.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "core/verbs/verbs.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define IB_PORT		1
#define ROCE_PORT	2

/* The GIDs the test's query_gid reports: fe80::2:c903:0:<port><index>. */
#define AH_TEST_GUID(port, index) \
	cpu_to_be64(0x0002c90300000000ULL | ((port) << 8) | (index))

/**
 * struct ah_test_drv - what the test's AH verbs do and saw
 * @fail_create: create_ah/create_user_ah return this when not 0
 * @fail_modify: modify_ah returns this when not 0
 * @fail_destroy: destroy_ah returns this when not 0
 * @live: driver AHs in existence
 * @creates: create_ah and create_user_ah calls
 * @user_creates: create_user_ah calls
 * @modifies: modify_ah calls
 * @last_flags: flags of the last create
 * @last: the address vector the driver last got (without its sgid_attr)
 * @last_sgid_attr: the sgid_attr the driver last got
 */
struct ah_test_drv {
	int fail_create;
	int fail_modify;
	int fail_destroy;
	int live;
	int creates;
	int user_creates;
	int modifies;
	u32 last_flags;
	struct rdma_ah_attr last;
	const struct ib_gid_attr *last_sgid_attr;
};

struct ah_test_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

static struct ah_test_drv *drv_of(struct ib_device *ibdev)
{
	return to_mock_ibdev(ibdev)->cfg.priv;
}

static void ah_test_record(struct ah_test_drv *drv,
			   const struct rdma_ah_attr *attr)
{
	drv->last = *attr;
	drv->last_sgid_attr = attr->grh.sgid_attr;
	drv->last.grh.sgid_attr = NULL;
}

static int ah_test_create_ah(struct ib_ah *ibah,
			     struct rdma_ah_init_attr *init_attr,
			     struct ib_udata *udata)
{
	struct ah_test_ah *ah = container_of(ibah, struct ah_test_ah, ibah);
	struct ah_test_drv *drv = drv_of(ibah->device);

	drv->creates++;
	drv->last_flags = init_attr->flags;
	ah_test_record(drv, init_attr->ah_attr);
	if (drv->fail_create)
		return drv->fail_create;
	ah->attr = drv->last;
	drv->live++;
	return 0;
}

static int ah_test_create_user_ah(struct ib_ah *ibah,
				  struct rdma_ah_init_attr *init_attr,
				  struct ib_udata *udata)
{
	drv_of(ibah->device)->user_creates++;
	return ah_test_create_ah(ibah, init_attr, udata);
}

static int ah_test_modify_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct ah_test_ah *ah = container_of(ibah, struct ah_test_ah, ibah);
	struct ah_test_drv *drv = drv_of(ibah->device);

	drv->modifies++;
	ah_test_record(drv, attr);
	if (drv->fail_modify)
		return drv->fail_modify;
	ah->attr = drv->last;
	return 0;
}

static int ah_test_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = container_of(ibah, struct ah_test_ah, ibah)->attr;
	return 0;
}

static int ah_test_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct ah_test_drv *drv = drv_of(ibah->device);

	if (drv->fail_destroy)
		return drv->fail_destroy;
	drv->live--;
	return 0;
}

static int ah_test_query_gid(struct ib_device *ibdev, u32 port, int index,
			     union ib_gid *gid)
{
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	gid->global.interface_id = AH_TEST_GUID(port, index);
	return 0;
}

static const struct ib_device_ops ah_test_gid_ops = {
	.query_gid = ah_test_query_gid,
};

static const struct ib_device_ops ah_test_ops = {
	.create_ah = ah_test_create_ah,
	.create_user_ah = ah_test_create_user_ah,
	.modify_ah = ah_test_modify_ah,
	.query_ah = ah_test_query_ah,
	.destroy_ah = ah_test_destroy_ah,
	INIT_RDMA_OBJ_SIZE(ib_ah, ah_test_ah, ibah),
};

/* Only create and destroy: modify and query are not supported. */
static const struct ib_device_ops ah_test_min_ops = {
	.create_ah = ah_test_create_ah,
	.destroy_ah = ah_test_destroy_ah,
	INIT_RDMA_OBJ_SIZE(ib_ah, ah_test_ah, ibah),
};

/* ---- Fixture ------------------------------------------------------------- */

struct ah_test {
	struct ah_test_drv drv;
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
};

static struct ah_test *tst(struct kunit *test)
{
	return test->priv;
}

/* A registered two-port device (IB, RoCE) with @ops added, and a PD. */
static struct mock_ibdev *ah_test_dev(struct kunit *test,
				      struct ah_test_drv *drv,
				      const struct ib_device_ops *ops)
{
	const struct mock_ibdev_cfg cfg = {
		.nports = 2, .roce_port = ROCE_PORT, .priv = drv,
	};
	struct mock_ibdev *mdev = mock_ibdev_alloc(&cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	/* our GIDs, not the mock's (ib_set_device_ops() keeps set slots) */
	mdev->ibdev.ops.query_gid = NULL;
	ib_set_device_ops(&mdev->ibdev, &ah_test_gid_ops);
	if (ops)
		ib_set_device_ops(&mdev->ibdev, ops);
	if (mock_ibdev_register(mdev, "ahtest%d")) {
		mock_ibdev_free(mdev);
		KUNIT_ASSERT_FAILURE(test, "cannot register the mock device");
	}
	return mdev;
}

static int ah_test_init(struct kunit *test)
{
	struct ah_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->mdev = ah_test_dev(test, &t->drv, &ah_test_ops);
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	return 0;
}

static void ah_test_exit(struct kunit *test)
{
	struct ah_test *t = tst(test);

	if (!t || !t->mdev)
		return;
	if (!IS_ERR_OR_NULL(t->pd)) {
		KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
		ib_dealloc_pd(t->pd);
	}
	KUNIT_EXPECT_EQ(test, t->drv.live, 0);
	mock_ibdev_destroy(t->mdev);
}

/* An IB address vector on @port, local (no GRH). */
static struct rdma_ah_attr ib_av(u32 port)
{
	struct rdma_ah_attr av = {
		.type = RDMA_AH_ATTR_TYPE_IB,
		.port_num = port,
		.sl = 5,
	};

	av.ib.dlid = 0x42;
	return av;
}

/* The same, global, from the port's GID entry @index. */
static struct rdma_ah_attr ib_av_grh(u32 port, u8 index)
{
	struct rdma_ah_attr av = ib_av(port);
	union ib_gid dgid = {};

	dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	dgid.global.interface_id = cpu_to_be64(0x1234);
	rdma_ah_set_grh(&av, &dgid, 0x12345, index, 64, 7);
	return av;
}

/* ---- Create and destroy -------------------------------------------------- */

/* A local IB AH reaches the driver as given and counts on the PD. */
static void create_local_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av(IB_PORT);
	struct ib_ah *ah;

	ah = rdma_create_ah(t->pd, &av, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_EXPECT_PTR_EQ(test, ah->device, &t->mdev->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, ah->pd, t->pd);
	KUNIT_EXPECT_EQ(test, ah->type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, t->drv.live, 1);
	KUNIT_EXPECT_EQ(test, t->drv.last_flags, (u32)RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, t->drv.last.ib.dlid, 0x42);
	KUNIT_EXPECT_EQ(test, t->drv.last.sl, 5);
	KUNIT_EXPECT_NULL(test, t->drv.last_sgid_attr);

	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, t->drv.live, 0);
}

/* Address vectors the device cannot take never reach the driver. */
static void create_bad_attr_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct ib_gid_attr wrong = { .index = 3, .port_num = IB_PORT };
	struct rdma_ah_attr av;

	av = ib_av(0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(t->pd, &av, 0)), -EINVAL);
	av = ib_av(3);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(t->pd, &av, 0)), -EINVAL);
	/* RoCE needs a GRH */
	av = ib_av(ROCE_PORT);
	av.type = RDMA_AH_ATTR_TYPE_ROCE;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(t->pd, &av, 0)), -EINVAL);
	/* a caller's GID entry must be the one sgid_index names */
	av = ib_av_grh(IB_PORT, 2);
	av.grh.sgid_attr = &wrong;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(t->pd, &av, 0)), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, av.grh.sgid_attr,
			    (const struct ib_gid_attr *)&wrong);
	wrong.index = 2;
	wrong.port_num = ROCE_PORT;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(t->pd, &av, 0)), -EINVAL);
	/* the same through uverbs */
	av = ib_av(0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_user_ah(t->pd, &av, NULL)),
			-EINVAL);

	KUNIT_EXPECT_EQ(test, t->drv.creates, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
}

/* A GID index the port does not have fails in the GID cache. */
static void create_bad_sgid_index_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av_grh(IB_PORT, 200);
	struct ib_ah *ah;

	ah = rdma_create_ah(t->pd, &av, 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ah));
	KUNIT_EXPECT_NULL(test, av.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, t->drv.creates, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
}

/* A driver failure is passed on and leaves nothing behind. */
static void create_driver_fails_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av(IB_PORT);

	t->drv.fail_create = -ENOSPC;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(t->pd, &av, 0)), -ENOSPC);
	KUNIT_EXPECT_EQ(test, t->drv.creates, 1);
	KUNIT_EXPECT_EQ(test, t->drv.last_flags, 0U);

	/* also with a GID reference taken for the AH (released again) */
	av = ib_av_grh(IB_PORT, 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(t->pd, &av, 0)), -ENOSPC);
	KUNIT_EXPECT_NULL(test, av.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, t->drv.live, 0);
}

/* A driver without the AH verbs. */
static void create_not_supported_test(struct kunit *test)
{
	struct ah_test_drv drv = {};
	struct mock_ibdev *mdev = ah_test_dev(test, &drv, NULL);
	struct rdma_ah_attr av = ib_av(IB_PORT);
	struct ib_pd *pd = ib_alloc_pd(&mdev->ibdev, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(pd, &av, 0)), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_user_ah(pd, &av, NULL)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	ib_dealloc_pd(pd);
	mock_ibdev_destroy(mdev);
}

/* A global AH holds its own reference; the caller's attr is unchanged. */
static void create_global_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av_grh(IB_PORT, 3);
	struct ib_ah *ah;

	ah = rdma_create_ah(t->pd, &av, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_EXPECT_NULL(test, av.grh.sgid_attr);
	KUNIT_ASSERT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_PTR_EQ(test, t->drv.last_sgid_attr, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->index, 3);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->port_num, IB_PORT);
	KUNIT_EXPECT_EQ(test,
			be64_to_cpu(ah->sgid_attr->gid.global.interface_id),
			be64_to_cpu(AH_TEST_GUID(IB_PORT, 3)));
	KUNIT_EXPECT_EQ(test, t->drv.last.grh.flow_label, 0x12345U);
	KUNIT_EXPECT_EQ(test, t->drv.last.grh.hop_limit, 64);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 0);
}

/* A caller's own GID reference is used, and still the caller's after. */
static void create_with_caller_sgid_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av_grh(IB_PORT, 2);
	const struct ib_gid_attr *sgid_attr;
	struct ib_ah *ah;

	sgid_attr = rdma_get_gid_attr(&t->mdev->ibdev, IB_PORT, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sgid_attr));
	av.grh.sgid_attr = sgid_attr;
	ah = rdma_create_ah(t->pd, &av, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_EXPECT_PTR_EQ(test, av.grh.sgid_attr, sgid_attr);
	KUNIT_EXPECT_PTR_EQ(test, ah->sgid_attr, sgid_attr);
	rdma_destroy_ah(ah, 0);
	/* the AH's reference went with it, ours is still good */
	KUNIT_EXPECT_EQ(test, sgid_attr->index, 2);
	rdma_destroy_ah_attr(&av);
	KUNIT_EXPECT_NULL(test, av.grh.sgid_attr);
}

/* The uverbs flavour calls create_user_ah and sleeps. */
static void create_user_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av(IB_PORT);
	struct ib_udata udata = {};
	struct ib_ah *ah;

	ah = rdma_create_user_ah(t->pd, &av, &udata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_EXPECT_EQ(test, t->drv.user_creates, 1);
	KUNIT_EXPECT_EQ(test, t->drv.last_flags, (u32)RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, &udata), 0);
}

/* A failed destroy leaves the AH and its PD reference in place. */
static void destroy_driver_fails_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av(IB_PORT);
	struct ib_ah *ah = rdma_create_ah(t->pd, &av, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	t->drv.fail_destroy = -EBUSY;
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, t->drv.live, 1);
	t->drv.fail_destroy = 0;
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah_user(ah, 0, NULL), 0);
}

/* ---- Modify and query ---------------------------------------------------- */

static void modify_query_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av(IB_PORT);
	struct ib_gid_attr dummy = {};
	struct ib_ah *ah = rdma_create_ah(t->pd, &av, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	av.ib.dlid = 0x77;
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), 0);
	KUNIT_EXPECT_EQ(test, t->drv.modifies, 1);
	KUNIT_EXPECT_EQ(test, t->drv.last.ib.dlid, 0x77);

	/* query clears the pointer: no reference is handed out */
	memset(&av, 0, sizeof(av));
	av.grh.sgid_attr = &dummy;
	KUNIT_EXPECT_EQ(test, rdma_query_ah(ah, &av), 0);
	KUNIT_EXPECT_NULL(test, av.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, av.ib.dlid, 0x77);

	/* another type, or a bad port, is refused before the driver */
	av = ib_av(IB_PORT);
	av.type = RDMA_AH_ATTR_TYPE_OPA;
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), -EINVAL);
	av = ib_av(5);
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->drv.modifies, 1);

	t->drv.fail_modify = -EIO;
	av = ib_av(IB_PORT);
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), -EIO);
	rdma_destroy_ah(ah, 0);
}

/* The AH's GID reference follows the address vector it is modified to. */
static void modify_moves_sgid_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr av = ib_av(IB_PORT);
	struct ib_ah *ah = rdma_create_ah(t->pd, &av, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	av = ib_av_grh(IB_PORT, 4);
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), 0);
	KUNIT_EXPECT_NULL(test, av.grh.sgid_attr);
	KUNIT_ASSERT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->index, 4);

	/* even when the driver fails (as 6.1 does) */
	t->drv.fail_modify = -EIO;
	av = ib_av_grh(IB_PORT, 5);
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), -EIO);
	KUNIT_ASSERT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->index, 5);

	t->drv.fail_modify = 0;
	av = ib_av(IB_PORT);
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), 0);
	KUNIT_EXPECT_NULL(test, ah->sgid_attr);
	rdma_destroy_ah(ah, 0);
}

static void modify_query_not_supported_test(struct kunit *test)
{
	struct ah_test_drv drv = {};
	struct mock_ibdev *mdev = ah_test_dev(test, &drv, &ah_test_min_ops);
	struct ib_pd *pd = ib_alloc_pd(&mdev->ibdev, 0);
	struct rdma_ah_attr av = ib_av(IB_PORT);
	struct ib_udata udata = {};
	struct ib_ah *ah;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	ah = rdma_create_ah(pd, &av, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_EXPECT_EQ(test, rdma_modify_ah(ah, &av), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_query_ah(ah, &av), -EOPNOTSUPP);
	/* uverbs (udata given) without create_user_ah */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_user_ah(pd, &av, &udata)),
			-EOPNOTSUPP);
	rdma_destroy_ah(ah, 0);
	KUNIT_EXPECT_EQ(test, drv.live, 0);
	ib_dealloc_pd(pd);
	mock_ibdev_destroy(mdev);
}

/* ---- Received network headers -------------------------------------------- */

/* An IPv4 header in the last 20 bytes of the slot, checksummed. */
static void build_ipv4_hdr(union rdma_network_hdr *hdr, __be32 saddr,
			   __be32 daddr)
{
	struct iphdr *ip4 = &hdr->roce4grh;

	memset(hdr, 0, sizeof(*hdr));
	ip4->version = 4;
	ip4->ihl = 5;
	ip4->ttl = 64;
	ip4->protocol = IPPROTO_UDP;
	ip4->tot_len = htons(100);
	ip4->saddr = saddr;
	ip4->daddr = daddr;
	ip4->check = ip_fast_csum((u8 *)ip4, 5);
}

/* A GRH / IPv6 header: version 6, the given next header, two GIDs. */
static void build_grh(union rdma_network_hdr *hdr, u8 next_hdr,
		      u32 tclass, u32 flow)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->ibgrh.version_tclass_flow =
		cpu_to_be32((6 << 28) | (tclass << 20) | flow);
	hdr->ibgrh.next_hdr = next_hdr;
	hdr->ibgrh.hop_limit = 9;
	hdr->ibgrh.sgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	hdr->ibgrh.sgid.global.interface_id = cpu_to_be64(0xaaaa);
	hdr->ibgrh.dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	hdr->ibgrh.dgid.global.interface_id = AH_TEST_GUID(IB_PORT, 3);
}

static void header_version_test(struct kunit *test)
{
	union rdma_network_hdr hdr;

	build_ipv4_hdr(&hdr, htonl(0x0a000001), htonl(0x0a000002));
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 4);
	/* undefined first half that happens to look like IPv6 */
	hdr.ibgrh.version_tclass_flow = cpu_to_be32(6 << 28);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 4);
	/* ... but a wrong checksum says IPv6 */
	hdr.roce4grh.check = ~hdr.roce4grh.check;
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 6);
	/* and so do IPv4 options */
	build_ipv4_hdr(&hdr, htonl(0x0a000001), htonl(0x0a000002));
	hdr.ibgrh.version_tclass_flow = cpu_to_be32(6 << 28);
	hdr.roce4grh.ihl = 6;
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 6);

	build_grh(&hdr, IPPROTO_UDP, 0, 0);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 6);
	memset(&hdr, 0, sizeof(hdr));
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 0);
}

static void gids_from_ipv4_test(struct kunit *test)
{
	union rdma_network_hdr hdr;
	union ib_gid sgid, dgid;
	struct in6_addr want;

	build_ipv4_hdr(&hdr, htonl(0xc0a80001), htonl(0xc0a80002));
	KUNIT_ASSERT_EQ(test, ib_get_gids_from_rdma_hdr(&hdr, RDMA_NETWORK_IPV4,
							&sgid, &dgid), 0);
	ipv6_addr_set_v4mapped(htonl(0xc0a80001), &want);
	KUNIT_EXPECT_EQ(test, memcmp(sgid.raw, want.s6_addr, 16), 0);
	ipv6_addr_set_v4mapped(htonl(0xc0a80002), &want);
	KUNIT_EXPECT_EQ(test, memcmp(dgid.raw, want.s6_addr, 16), 0);
}

static void gids_from_grh_test(struct kunit *test)
{
	static const enum rdma_network_type types[] = {
		RDMA_NETWORK_IPV6, RDMA_NETWORK_IB, RDMA_NETWORK_ROCE_V1,
	};
	union rdma_network_hdr hdr;
	union ib_gid sgid, dgid;
	int i;

	build_grh(&hdr, IPPROTO_UDP, 0, 0);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		memset(&sgid, 0, sizeof(sgid));
		memset(&dgid, 0, sizeof(dgid));
		KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&hdr, types[i],
								&sgid, &dgid),
				0);
		KUNIT_EXPECT_EQ(test,
				memcmp(sgid.raw, hdr.ibgrh.sgid.raw, 16), 0);
		KUNIT_EXPECT_EQ(test,
				memcmp(dgid.raw, hdr.ibgrh.dgid.raw, 16), 0);
	}
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&hdr, RDMA_NETWORK_IB,
							NULL, &dgid), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&hdr, RDMA_NETWORK_IB,
							&sgid, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_gids_from_rdma_hdr(&hdr, 77, &sgid, &dgid),
			-EINVAL);
}

/* ---- Address vectors answering a received packet ------------------------- */

/* IB without a GRH: back to the sender's LID. */
static void from_wc_ib_local_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct ib_wc wc = { .slid = 0x99, .sl = 3, .dlid_path_bits = 2 };
	union rdma_network_hdr hdr;
	struct rdma_ah_attr attr;
	struct ib_ah *ah;

	memset(&hdr, 0xa5, sizeof(hdr));
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(&t->mdev->ibdev, IB_PORT,
						      &wc, &hdr.ibgrh, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr), 0x99U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&attr), 2);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&attr), IB_PORT);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&attr), 0);
	KUNIT_EXPECT_NULL(test, attr.grh.sgid_attr);

	ah = ib_create_ah_from_wc(t->pd, &wc, &hdr.ibgrh, IB_PORT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_EXPECT_EQ(test, t->drv.last.ib.dlid, 0x99);
	KUNIT_EXPECT_EQ(test, t->drv.last_flags, (u32)RDMA_CREATE_AH_SLEEPABLE);
	rdma_destroy_ah(ah, 0);
}

/* IB with a GRH: the packet's dgid picks our GID entry. */
static void from_wc_ib_grh_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct ib_wc wc = { .slid = 0x99, .wc_flags = IB_WC_GRH };
	union rdma_network_hdr hdr;
	struct rdma_ah_attr attr;
	struct ib_ah *ah;

	build_grh(&hdr, 0x1b, 0x42, 0xabcde);
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(&t->mdev->ibdev, IB_PORT,
						      &wc, &hdr.ibgrh, &attr), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&attr), IB_AH_GRH);
	KUNIT_EXPECT_EQ(test,
			memcmp(attr.grh.dgid.raw, hdr.ibgrh.sgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, attr.grh.flow_label, 0xabcdeU);
	KUNIT_EXPECT_EQ(test, attr.grh.traffic_class, 0x42);
	KUNIT_EXPECT_EQ(test, attr.grh.hop_limit, 0xff);
	KUNIT_EXPECT_EQ(test, attr.grh.sgid_index, 3);
	KUNIT_ASSERT_NOT_NULL(test, attr.grh.sgid_attr);
	KUNIT_EXPECT_EQ(test, attr.grh.sgid_attr->index, 3);
	rdma_destroy_ah_attr(&attr);
	KUNIT_EXPECT_NULL(test, attr.grh.sgid_attr);

	/* the SA's well-known GUID answers from entry 0 */
	hdr.ibgrh.dgid.global.interface_id = cpu_to_be64(IB_SA_WELL_KNOWN_GUID);
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(&t->mdev->ibdev, IB_PORT,
						      &wc, &hdr.ibgrh, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.grh.sgid_index, 0);
	rdma_destroy_ah_attr(&attr);

	/* a dgid that is none of ours */
	hdr.ibgrh.dgid.global.interface_id = cpu_to_be64(0x5555);
	KUNIT_EXPECT_LT(test, ib_init_ah_attr_from_wc(&t->mdev->ibdev, IB_PORT,
						      &wc, &hdr.ibgrh, &attr), 0);
	KUNIT_EXPECT_TRUE(test,
			  IS_ERR(ib_create_ah_from_wc(t->pd, &wc, &hdr.ibgrh,
						      IB_PORT)));

	hdr.ibgrh.dgid.global.interface_id = AH_TEST_GUID(IB_PORT, 3);
	ah = ib_create_ah_from_wc(t->pd, &wc, &hdr.ibgrh, IB_PORT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_NOT_NULL(test, ah->sgid_attr);
	KUNIT_EXPECT_EQ(test, ah->sgid_attr->index, 3);
	rdma_destroy_ah(ah, 0);
}

/* RoCE packets: a GRH is a must, and the header type must be known. */
static void from_wc_roce_errors_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct ib_wc wc = {};
	union rdma_network_hdr hdr;
	struct rdma_ah_attr attr;

	build_grh(&hdr, IPPROTO_UDP, 0, 0);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(&t->mdev->ibdev,
						      ROCE_PORT, &wc,
						      &hdr.ibgrh, &attr),
			-EPROTOTYPE);
	KUNIT_EXPECT_EQ(test, attr.type, RDMA_AH_ATTR_TYPE_ROCE);
	KUNIT_EXPECT_NULL(test, attr.grh.sgid_attr);

	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc.network_hdr_type = 77;
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(&t->mdev->ibdev,
						      ROCE_PORT, &wc,
						      &hdr.ibgrh, &attr),
			-EINVAL);
}

/* ---- RoCE destination MACs from GIDs ------------------------------------- */

struct dmac_case {
	const char *name;
	u8 gid[16];
	enum ib_gid_type sgid_type;
	bool derived;
	u8 mac[ETH_ALEN];
};

#define V4MAPPED(a, b, c, d) \
	{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d }

static const struct dmac_case dmac_cases[] = {
	{ "ipv6 multicast",
	  { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0x00, 0x12, 0x34 },
	  IB_GID_TYPE_ROCE_UDP_ENCAP, true,
	  { 0x33, 0x33, 0xff, 0x00, 0x12, 0x34 } },
	{ "ipv4 multicast", V4MAPPED(224, 1, 2, 3),
	  IB_GID_TYPE_ROCE_UDP_ENCAP, true,
	  { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 } },
	{ "ipv4 multicast, high group bit dropped",
	  V4MAPPED(239, 255, 255, 250),
	  IB_GID_TYPE_ROCE, true,
	  { 0x01, 0x00, 0x5e, 0x7f, 0xff, 0xfa } },
	{ "link-local from RoCE v1",
	  { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	    0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 },
	  IB_GID_TYPE_ROCE, true,
	  { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 } },
	{ "link-local, U/L bit set",
	  { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	    0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 },
	  IB_GID_TYPE_ROCE, true,
	  { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 } },
	{ "link-local from RoCE v2 needs the IP stack",
	  { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	    0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 },
	  IB_GID_TYPE_ROCE_UDP_ENCAP, false, {} },
	{ "ipv6 unicast", { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
	  IB_GID_TYPE_ROCE, false, {} },
	{ "ipv4 unicast", V4MAPPED(10, 0, 0, 1),
	  IB_GID_TYPE_ROCE_UDP_ENCAP, false, {} },
	{ "fe80 prefix with non-zero second word is not link-local",
	  { 0xfe, 0x80, 0, 0, 0, 0, 0, 1,
	    0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 },
	  IB_GID_TYPE_ROCE, false, {} },
};

static void dmac_case_desc(const struct dmac_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dmac, dmac_cases, dmac_case_desc);

static void dmac_from_gid_test(struct kunit *test)
{
	const struct dmac_case *c = test->param_value;
	static const u8 untouched[ETH_ALEN] = { 0xee, 0xee, 0xee,
						0xee, 0xee, 0xee };
	union ib_gid gid;
	u8 mac[ETH_ALEN];

	memcpy(gid.raw, c->gid, sizeof(gid.raw));
	memcpy(mac, untouched, ETH_ALEN);
	KUNIT_EXPECT_EQ(test,
			ib_ah_roce_dmac_from_gid(&gid, c->sgid_type, mac),
			c->derived);
	KUNIT_EXPECT_EQ(test, memcmp(mac, c->derived ? c->mac : untouched,
				     ETH_ALEN), 0);
}

/* ---- Reference handling of address vectors ------------------------------- */

/* Without a GID entry these only copy. */
static void attr_no_sgid_test(struct kunit *test)
{
	struct rdma_ah_attr a = ib_av(IB_PORT), b = {}, c = {};

	rdma_copy_ah_attr(&b, &a);
	KUNIT_EXPECT_EQ(test, b.ib.dlid, 0x42);
	KUNIT_EXPECT_NULL(test, b.grh.sgid_attr);
	a.ib.dlid = 0x43;
	rdma_replace_ah_attr(&b, &a);
	KUNIT_EXPECT_EQ(test, b.ib.dlid, 0x43);
	rdma_move_ah_attr(&c, &b);
	KUNIT_EXPECT_EQ(test, c.ib.dlid, 0x43);
	/* destroying twice, or a zeroed attr, is fine */
	rdma_destroy_ah_attr(&c);
	rdma_destroy_ah_attr(&c);
	memset(&c, 0, sizeof(c));
	rdma_destroy_ah_attr(&c);
	KUNIT_EXPECT_NULL(test, c.grh.sgid_attr);
}

/*
 * With one: copy and replace take a reference, move hands it over,
 * destroy drops it. Unbalanced counts show as leaks or use-after-free
 * (kmemleak, KASAN) and as the GID cache's complaints at unregistration.
 */
static void attr_sgid_refs_test(struct kunit *test)
{
	struct ah_test *t = tst(test);
	struct rdma_ah_attr a = ib_av_grh(IB_PORT, 1), b = {}, c = {};
	const struct ib_gid_attr *one, *two;

	one = rdma_get_gid_attr(&t->mdev->ibdev, IB_PORT, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(one));
	two = rdma_get_gid_attr(&t->mdev->ibdev, IB_PORT, 2);
	if (IS_ERR(two)) {
		rdma_put_gid_attr(one);
		KUNIT_ASSERT_FAILURE(test, "no GID entry 2");
	}
	rdma_move_grh_sgid_attr(&a, &a.grh.dgid, 0, 64, 0, one);
	KUNIT_EXPECT_EQ(test, a.grh.sgid_index, 1);
	KUNIT_EXPECT_PTR_EQ(test, a.grh.sgid_attr, one);

	rdma_copy_ah_attr(&b, &a);			/* one: a, b */
	KUNIT_EXPECT_PTR_EQ(test, b.grh.sgid_attr, one);
	rdma_move_ah_attr(&c, &b);			/* one: a, c */
	KUNIT_EXPECT_NULL(test, b.grh.sgid_attr);
	KUNIT_EXPECT_PTR_EQ(test, c.grh.sgid_attr, one);

	b = ib_av_grh(IB_PORT, 2);
	rdma_move_grh_sgid_attr(&b, NULL, 0, 64, 0, two);	/* two: b */
	rdma_replace_ah_attr(&c, &b);			/* one: a; two: b, c */
	KUNIT_EXPECT_PTR_EQ(test, c.grh.sgid_attr, two);
	KUNIT_EXPECT_EQ(test, c.grh.sgid_index, 2);
	rdma_move_ah_attr(&a, &c);			/* two: a, b */
	KUNIT_EXPECT_PTR_EQ(test, a.grh.sgid_attr, two);
	KUNIT_EXPECT_NULL(test, c.grh.sgid_attr);

	rdma_destroy_ah_attr(&a);
	rdma_destroy_ah_attr(&b);
	rdma_destroy_ah_attr(&c);
	KUNIT_EXPECT_NULL(test, a.grh.sgid_attr);
	KUNIT_EXPECT_NULL(test, b.grh.sgid_attr);
}

static struct kunit_case ah_test_cases[] = {
	KUNIT_CASE(create_local_test),
	KUNIT_CASE(create_bad_attr_test),
	KUNIT_CASE(create_bad_sgid_index_test),
	KUNIT_CASE(create_driver_fails_test),
	KUNIT_CASE(create_not_supported_test),
	KUNIT_CASE(create_global_test),
	KUNIT_CASE(create_with_caller_sgid_test),
	KUNIT_CASE(create_user_test),
	KUNIT_CASE(destroy_driver_fails_test),
	KUNIT_CASE(modify_query_test),
	KUNIT_CASE(modify_moves_sgid_test),
	KUNIT_CASE(modify_query_not_supported_test),
	KUNIT_CASE(header_version_test),
	KUNIT_CASE(gids_from_ipv4_test),
	KUNIT_CASE(gids_from_grh_test),
	KUNIT_CASE(from_wc_ib_local_test),
	KUNIT_CASE(from_wc_ib_grh_test),
	KUNIT_CASE(from_wc_roce_errors_test),
	KUNIT_CASE_PARAM(dmac_from_gid_test, dmac_gen_params),
	KUNIT_CASE(attr_no_sgid_test),
	KUNIT_CASE(attr_sgid_refs_test),
	{}
};

static struct kunit_suite ah_test_suite = {
	.name = "ib_core_ah",
	.init = ah_test_init,
	.exit = ah_test_exit,
	.test_cases = ah_test_cases,
};

kunit_test_suite(ah_test_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA address handles");
MODULE_LICENSE("GPL");
