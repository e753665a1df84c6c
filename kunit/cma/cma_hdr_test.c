// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_hdr: the 36-byte CMA header written byte by byte, read
 * back into a new id's addresses, matched against listeners.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The bytes are CM-UVERBS 2c's: version 0, IP version in the high
 * nibble, the active side's port, its source then its destination
 * address, IPv4 in the last 4 bytes of 16 (not IPv4-mapped). The passive
 * side's new id gets the destination and the service ID's port as its
 * source, the header's source and port as its destination; listeners
 * match as 6.1's cma_match_private_data.
 */

static const u8 hdr_v4[CMA_HDR_SIZE] = {
	0x00, 0x40, 0x12, 0x34,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 192, 168, 0, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 192, 168, 0, 2,
};

static const u8 hdr_v6[CMA_HDR_SIZE] = {
	0x00, 0x60, 0x43, 0x21,
	0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
};

/* Our ends: 192.168.0.1:0x1234 -> 192.168.0.2:7174, or fd::1 -> fd::2. */
static void ids_addrs(struct cma_id_priv *priv, bool v6)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)cma_src_addr(priv);
	struct sockaddr_in *d4 = (struct sockaddr_in *)cma_dst_addr(priv);
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)cma_src_addr(priv);
	struct sockaddr_in6 *d6 = (struct sockaddr_in6 *)cma_dst_addr(priv);

	if (!v6) {
		*s4 = (struct sockaddr_in){ .sin_family = AF_INET,
			.sin_port = htons(0x1234),
			.sin_addr.s_addr = htonl(0xc0a80001) };
		*d4 = (struct sockaddr_in){ .sin_family = AF_INET,
			.sin_port = htons(7174),
			.sin_addr.s_addr = htonl(0xc0a80002) };
		return;
	}
	*s6 = (struct sockaddr_in6){ .sin6_family = AF_INET6,
				     .sin6_port = htons(0x4321) };
	*d6 = (struct sockaddr_in6){ .sin6_family = AF_INET6,
				     .sin6_port = htons(4420) };
	s6->sin6_addr.s6_addr[0] = 0xfd;
	s6->sin6_addr.s6_addr[15] = 1;
	d6->sin6_addr.s6_addr[0] = 0xfd;
	d6->sin6_addr.s6_addr[15] = 2;
}

static void cma_hdr_format_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	u8 buf[CMA_HDR_SIZE];

	ids_addrs(priv, false);
	memset(buf, 0xee, sizeof(buf));
	KUNIT_ASSERT_EQ(test, cma_hdr_format(priv, buf), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, hdr_v4, sizeof(hdr_v4)), 0);
	ids_addrs(priv, true);
	KUNIT_ASSERT_EQ(test, cma_hdr_format(priv, buf), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, hdr_v6, sizeof(hdr_v6)), 0);
	cma_src_addr(priv)->sa_family = AF_IB;
	KUNIT_EXPECT_EQ(test, cma_hdr_format(priv, buf), -EAFNOSUPPORT);
	cma_src_addr(priv)->sa_family = AF_INET6;
	rdma_destroy_id(&priv->id);
}

static void cma_hdr_parse_test(struct kunit *test)
{
	__be64 sid = cpu_to_be64(0x0000000001061c06ULL);	/* TCP, 7174 */
	struct sockaddr_storage src, dst;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&src;
	struct sockaddr_in *d4 = (struct sockaddr_in *)&dst;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&src;
	struct sockaddr_in6 *d6 = (struct sockaddr_in6 *)&dst;
	u8 bad[CMA_HDR_SIZE];

	KUNIT_ASSERT_EQ(test, cma_hdr_parse(hdr_v4, sid, &src, &dst), 0);
	KUNIT_EXPECT_EQ(test, s4->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(s4->sin_addr.s_addr), 0xc0a80002U);
	KUNIT_EXPECT_EQ(test, ntohs(s4->sin_port), 7174);
	KUNIT_EXPECT_EQ(test, d4->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(d4->sin_addr.s_addr), 0xc0a80001U);
	KUNIT_EXPECT_EQ(test, ntohs(d4->sin_port), 0x1234);

	KUNIT_ASSERT_EQ(test, cma_hdr_parse(hdr_v6, sid, &src, &dst), 0);
	KUNIT_EXPECT_EQ(test, s6->sin6_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, s6->sin6_addr.s6_addr[15], 2);
	KUNIT_EXPECT_EQ(test, ntohs(s6->sin6_port), 7174);
	KUNIT_EXPECT_EQ(test, d6->sin6_addr.s6_addr[15], 1);
	KUNIT_EXPECT_EQ(test, ntohs(d6->sin6_port), 0x4321);

	memcpy(bad, hdr_v4, sizeof(bad));
	bad[0] = 1;
	KUNIT_EXPECT_EQ(test, cma_hdr_parse(bad, sid, &src, &dst), -EINVAL);
	bad[0] = 0;
	bad[1] = 0x50;
	KUNIT_EXPECT_EQ(test, cma_hdr_parse(bad, sid, &src, &dst), -EAFNOSUPPORT);
}

/* A listener on @addr of @family (wildcard if @addr is 0), afonly or not. */
static struct cma_id_priv *listener(struct kunit *test, struct cma_owner *o,
				    sa_family_t family, u32 addr, bool afonly)
{
	struct cma_id_priv *priv = cma_fix_id(test, o, RDMA_PS_TCP, IB_QPT_RC);
	struct sockaddr_in *sin = (struct sockaddr_in *)cma_src_addr(priv);
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)cma_src_addr(priv);

	if (family == AF_INET) {
		*sin = (struct sockaddr_in){ .sin_family = AF_INET,
					     .sin_addr.s_addr = htonl(addr) };
	} else {
		*sin6 = (struct sockaddr_in6){ .sin6_family = AF_INET6 };
		if (addr) {
			sin6->sin6_addr.s6_addr[0] = 0xfd;
			sin6->sin6_addr.s6_addr[15] = addr;
		}
	}
	priv->afonly = afonly;
	return priv;
}

static const struct {
	sa_family_t family;
	u32 addr;
	bool afonly;
	bool v4, v6;	/* takes hdr_v4, hdr_v6 */
} match_rules[] = {
	{ AF_INET, 0, false, true, true },	/* wildcard, not afonly */
	{ AF_INET, 0, true, true, false },
	{ AF_INET6, 0, true, false, true },
	{ AF_INET, 0xc0a80002, true, true, false },	/* the destination */
	{ AF_INET, 0xc0a80003, true, false, false },	/* another address */
	{ AF_INET6, 2, false, false, true },
	{ AF_INET6, 3, false, false, false },
};

static void cma_hdr_match_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	int i;

	for (i = 0; i < ARRAY_SIZE(match_rules); i++) {
		priv = listener(test, &o, match_rules[i].family,
				match_rules[i].addr, match_rules[i].afonly);
		KUNIT_EXPECT_EQ_MSG(test, cma_hdr_match(priv, hdr_v4),
				    match_rules[i].v4, "rule %d", i);
		KUNIT_EXPECT_EQ_MSG(test, cma_hdr_match(priv, hdr_v6),
				    match_rules[i].v6, "rule %d", i);
		rdma_destroy_id(&priv->id);
	}
}

static struct kunit_case cma_hdr_cases[] = {
	KUNIT_CASE(cma_hdr_format_test),
	KUNIT_CASE(cma_hdr_parse_test),
	KUNIT_CASE(cma_hdr_match_test),
	{}
};

static struct kunit_suite cma_hdr_suite = {
	.name = "rdma_cm_hdr",
	.test_cases = cma_hdr_cases,
};

kunit_test_suites(&cma_hdr_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's CMA header");
MODULE_LICENSE("GPL");
