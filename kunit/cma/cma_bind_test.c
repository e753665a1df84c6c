// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_bind: rdma_bind_addr()'s errnos, explicit and ephemeral
 * ports, sharing rules, release on destroy.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <net/ip.h>
#include <rdma/ib.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * Expectations from 6.1's rules (and TCP's, which they copy): wildcards
 * collide with everything unless both sides asked for reuse, IPv4 and
 * IPv6 share a port only when both are afonly, the port goes when its
 * last owner does. The ports used are far from the local range.
 */

#define PORT_A	4791
#define PORT_B	4792

static struct sockaddr *any4(struct sockaddr_in *sin, u16 port)
{
	*sin = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_port = htons(port) };
	return (struct sockaddr *)sin;
}

static struct sockaddr *any6(struct sockaddr_in6 *sin6, u16 port)
{
	*sin6 = (struct sockaddr_in6){ .sin6_family = AF_INET6,
				       .sin6_port = htons(port) };
	return (struct sockaddr *)sin6;
}

static bool port_bound(enum rdma_ucm_port_space ps, u16 port)
{
	return xa_load(cma_ps_xa(&init_net, ps), port);
}

static void cma_bind_errnos_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *bad = cma_fix_id(test, &o, 0x0107, IB_QPT_RC);
	struct sockaddr_ib sib = { .sib_family = AF_IB };
	struct sockaddr_in6 ll = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(0xc0000201) };
	struct sockaddr_in any;

	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&priv->id, (struct sockaddr *)&sib),
			-EAFNOSUPPORT);
	/* Link-local without its interface. */
	ll.sin6_addr.s6_addr32[0] = htonl(0xfe800000);
	ll.sin6_addr.s6_addr32[3] = htonl(1);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&priv->id, (struct sockaddr *)&ll),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_IDLE);
	/* 192.0.2.1 (TEST-NET-1) is nobody's address here. */
	KUNIT_EXPECT_NE(test, rdma_bind_addr(&priv->id, (struct sockaddr *)&sin), 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_IDLE);
	KUNIT_EXPECT_PTR_EQ(test, priv->id.device, NULL);
	/* No such port space. */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&bad->id, any4(&any, PORT_A)),
			-EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, cma_id_state(bad), RDMA_CM_IDLE);

	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&priv->id, any4(&any, PORT_A)), 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_BOUND);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&priv->id, any4(&any, PORT_B)),
			-EINVAL);
	/* The destination takes the source's family. */
	KUNIT_EXPECT_EQ(test, cma_dst_addr(priv)->sa_family, AF_INET);
	KUNIT_EXPECT_TRUE(test, priv->afonly);
	rdma_destroy_id(&priv->id);
	rdma_destroy_id(&bad->id);
}

static void cma_bind_share_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *a = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *b = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *u = cma_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	struct sockaddr_in sin;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(&a->id, any4(&sin, PORT_A)), 0);
	KUNIT_EXPECT_TRUE(test, port_bound(RDMA_PS_TCP, PORT_A));
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&b->id, any4(&sin, PORT_A)),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, cma_id_state(b), RDMA_CM_IDLE);
	/* Port spaces do not see each other. */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&u->id, any4(&sin, PORT_A)), 0);
	KUNIT_EXPECT_FALSE(test, port_bound(RDMA_PS_UDP, PORT_B));
	/* Reuse takes both sides. */
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(&b->id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&b->id, any4(&sin, PORT_A)),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(&a->id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&b->id, any4(&sin, PORT_A)), 0);
	KUNIT_EXPECT_PTR_EQ(test, a->bind, b->bind);

	/* The port stays while one owner is left, and goes with the last. */
	rdma_destroy_id(&a->id);
	KUNIT_EXPECT_TRUE(test, port_bound(RDMA_PS_TCP, PORT_A));
	rdma_destroy_id(&b->id);
	KUNIT_EXPECT_FALSE(test, port_bound(RDMA_PS_TCP, PORT_A));
	KUNIT_EXPECT_TRUE(test, port_bound(RDMA_PS_UDP, PORT_A));
	rdma_destroy_id(&u->id);
	KUNIT_EXPECT_FALSE(test, port_bound(RDMA_PS_UDP, PORT_A));
}

/* IPv4 and IPv6 wildcards on one port: only if both are afonly. */
static void cma_bind_afonly_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *v4 = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *v6 = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(&v4->id, any4(&sin, PORT_B)), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_afonly(&v6->id, 0), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&v6->id, any6(&sin6, PORT_B)),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, rdma_set_afonly(&v6->id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&v6->id, any6(&sin6, PORT_B)), 0);
	KUNIT_EXPECT_TRUE(test, v6->afonly);
	rdma_destroy_id(&v6->id);
	rdma_destroy_id(&v4->id);
}

/* Port 0: a port of the local range, each wildcard id its own. */
static void cma_bind_ephemeral_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *a = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *b = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sockaddr_in sin;
	int low, high;
	u16 pa, pb;

	inet_get_local_port_range(&init_net, &low, &high);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(&a->id, any4(&sin, 0)), 0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(&b->id, any4(&sin, 0)), 0);
	pa = ntohs(cma_addr_port(cma_src_addr(a)));
	pb = ntohs(cma_addr_port(cma_src_addr(b)));
	KUNIT_EXPECT_GE(test, pa, low);
	KUNIT_EXPECT_LE(test, pa, high);
	KUNIT_EXPECT_GE(test, pb, low);
	KUNIT_EXPECT_LE(test, pb, high);
	KUNIT_EXPECT_NE(test, pa, pb);
	KUNIT_EXPECT_TRUE(test, port_bound(RDMA_PS_TCP, pa));
	rdma_destroy_id(&a->id);
	rdma_destroy_id(&b->id);
	KUNIT_EXPECT_FALSE(test, port_bound(RDMA_PS_TCP, pa));
}

/* Reuse asked for after the bind: it may be turned on, not off. */
static void cma_bind_reuse_after_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *a = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sockaddr_in sin;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(&a->id, any4(&sin, PORT_A)), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(&a->id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(&a->id, 0), -EINVAL);
	rdma_destroy_id(&a->id);
}

static struct kunit_case cma_bind_cases[] = {
	KUNIT_CASE(cma_bind_errnos_test),
	KUNIT_CASE(cma_bind_share_test),
	KUNIT_CASE(cma_bind_afonly_test),
	KUNIT_CASE(cma_bind_ephemeral_test),
	KUNIT_CASE(cma_bind_reuse_after_test),
	{}
};

static struct kunit_suite cma_bind_suite = {
	.name = "rdma_cm_bind",
	.test_cases = cma_bind_cases,
};

kunit_test_suites(&cma_bind_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's binding and port spaces");
MODULE_LICENSE("GPL");
