// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_resolve: rdma_resolve_addr()'s implicit bind and errnos,
 * its result as an event, cancel on destroy.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <rdma/ib.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * 127.0.0.1 resolves (the resolver answers for loopback) but no RDMA
 * device owns it: the id cannot find its device, and the owner hears
 * ADDR_ERROR from rdma_cm's work item, the id back in ADDR_BOUND. That
 * is the whole asynchronous path without a device.
 */

static struct sockaddr *ip4(struct sockaddr_in *sin, u32 addr, u16 port)
{
	*sin = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr = htonl(addr),
				     .sin_port = htons(port) };
	return (struct sockaddr *)sin;
}

static void cma_resolve_errnos_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sockaddr_in6 src6 = { .sin6_family = AF_INET6 };
	struct sockaddr_ib sib = { .sib_family = AF_IB };
	struct sockaddr_in dst, any;

	/* The implicit bind refuses an AF_IB source. */
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(&priv->id, (struct sockaddr *)&sib,
						ip4(&dst, INADDR_LOOPBACK, 7174), 100),
			-EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_IDLE);
	/* An IPv6 source, an IPv4 destination: bound, then refused. */
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(&priv->id, (struct sockaddr *)&src6,
						ip4(&dst, INADDR_LOOPBACK, 7174), 100),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_BOUND);
	cma_fix_end(priv);

	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	/* A wildcard destination (6.1's loopback resolution): not built. */
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(&priv->id, NULL,
						ip4(&any, INADDR_ANY, 7174), 100),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_BOUND);
	cma_fix_force(priv, RDMA_CM_ADDR_RESOLVED);
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(&priv->id, NULL,
						ip4(&dst, INADDR_LOOPBACK, 7174), 100),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, o.count, 0);
	cma_fix_end(priv);
}

/* The result arrives as an event, from the work item; then again. */
static void cma_resolve_error_event_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sockaddr_in dst;
	int i;

	for (i = 0; i < 2; i++) {
		reinit_completion(&o.event);
		KUNIT_ASSERT_EQ(test, rdma_resolve_addr(&priv->id, NULL,
							ip4(&dst, INADDR_LOOPBACK, 7174), 1000), 0);
		KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
		KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ADDR_ERROR);
		KUNIT_EXPECT_LT(test, o.status, 0);
		KUNIT_EXPECT_EQ(test, o.state_seen, RDMA_CM_ADDR_BOUND);
		KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_BOUND);
		KUNIT_EXPECT_PTR_EQ(test, priv->id.device, NULL);
	}
	KUNIT_EXPECT_EQ(test, o.count, 2);
	rdma_destroy_id(&priv->id);
}

/* An owner returning non-zero from ADDR_ERROR: the id is destroyed. */
static void cma_resolve_destroy_from_handler_test(struct kunit *test)
{
	struct cma_owner o = { .ret = 1 };
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sockaddr_in dst, src;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(&priv->id,
					     ip4(&src, INADDR_ANY, 4793)), 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(&priv->id, NULL,
						ip4(&dst, INADDR_LOOPBACK, 7174), 1000), 0);
	KUNIT_ASSERT_TRUE(test, cma_owner_wait(&o));
	flush_workqueue(cma_wq);
	/* Its port went with it. */
	KUNIT_EXPECT_PTR_EQ(test, xa_load(cma_ps_xa(&init_net, RDMA_PS_TCP), 4793),
			    NULL);
}

/* Destroyed while the query runs: the owner hears nothing afterwards. */
static void cma_resolve_cancel_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	struct sockaddr_in dst;
	int i, before;

	for (i = 0; i < 20; i++) {
		priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
		KUNIT_ASSERT_EQ(test, rdma_resolve_addr(&priv->id, NULL,
							ip4(&dst, INADDR_LOOPBACK, 7174), 1000), 0);
		if (i & 1)
			udelay(50 * i);
		rdma_destroy_id(&priv->id);
		before = o.count;
		flush_workqueue(cma_wq);
		msleep(20);
		KUNIT_EXPECT_EQ(test, o.count, before);
	}
}

static struct kunit_case cma_resolve_cases[] = {
	KUNIT_CASE(cma_resolve_errnos_test),
	KUNIT_CASE(cma_resolve_error_event_test),
	KUNIT_CASE(cma_resolve_destroy_from_handler_test),
	KUNIT_CASE(cma_resolve_cancel_test),
	{}
};

static struct kunit_suite cma_resolve_suite = {
	.name = "rdma_cm_resolve",
	.test_cases = cma_resolve_cases,
};

kunit_test_suites(&cma_resolve_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's address resolution");
MODULE_LICENSE("GPL");
