// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_mad_agent: registration requests checked, overlapping and
 * matched, case by case.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_mad.h>

#include "core/mad/mad.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A request for @class/@version (@oui for vendor range 2), methods 0-31 in @methods. */
static struct ib_mad_reg_req reg(u8 class, u8 version, u32 oui, u32 methods)
{
	struct ib_mad_reg_req r = {
		.mgmt_class = class,
		.mgmt_class_version = version,
		.oui = { oui >> 16, oui >> 8, oui },
	};
	unsigned int m;

	for (m = 0; m < 32; m++)
		if (methods & BIT(m))
			__set_bit(m, r.method_mask);
	return r;
}

/* One registration request and what 6.1 says of it. */
struct reg_case {
	const char *what;
	u8 class, version;
	u32 oui;
	enum ib_mad_qp_index qpi;
	u8 rmpp;
	bool recv_handler;
	int expect;
};

static const struct reg_case reg_cases[] = {
	{ "CM on QP1",			0x07, 2, 0, IB_MAD_QP_GSI, 0, true, 0 },
	{ "SA with RMPP on QP1",	0x03, 2, 0, IB_MAD_QP_GSI, 1, true, 0 },
	{ "PerfMgmt on QP1",		0x04, 1, 0, IB_MAD_QP_GSI, 0, true, 0 },
	{ "LID-routed SMP on QP0",	0x01, 1, 0, IB_MAD_QP_SMI, 0, true, 0 },
	{ "directed-route SMP on QP0",	0x81, 1, 0, IB_MAD_QP_SMI, 0, true, 0 },
	{ "vendor range 1",		0x09, 1, 0, IB_MAD_QP_GSI, 0, true, 0 },
	{ "vendor range 2 with OUI",	0x30, 1, 0x001405, IB_MAD_QP_GSI, 0, true, 0 },
	{ "last vendor range 2 class",	0x4f, 1, 0x000001, IB_MAD_QP_GSI, 1, true, 0 },
	{ "highest class version",	0x07, 0x82, 0, IB_MAD_QP_GSI, 0, true, 0 },
	{ "no receive handler",		0x07, 2, 0, IB_MAD_QP_GSI, 0, false, -EINVAL },
	{ "class version 0x83",		0x07, 0x83, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "class 0 is reserved",	0x00, 1, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "class 0x50",			0x50, 1, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "class 0x80",			0x80, 1, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "class 0xff",			0xff, 1, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "vendor range 2 without OUI",	0x30, 1, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "RMPP for the CM",		0x07, 2, 0, IB_MAD_QP_GSI, 1, true, -EINVAL },
	{ "RMPP for vendor range 1",	0x09, 1, 0, IB_MAD_QP_GSI, 1, true, -EINVAL },
	{ "SMP on QP1",			0x01, 1, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "directed route on QP1",	0x81, 1, 0, IB_MAD_QP_GSI, 0, true, -EINVAL },
	{ "CM on QP0",			0x07, 2, 0, IB_MAD_QP_SMI, 0, true, -EINVAL },
	{ "SA on QP0",			0x03, 2, 0, IB_MAD_QP_SMI, 0, true, -EINVAL },
};

static void mad_reg_req_check_test(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reg_cases); i++) {
		const struct reg_case *c = &reg_cases[i];
		struct ib_mad_reg_req r = reg(c->class, c->version, c->oui,
					      BIT(IB_MGMT_METHOD_GET));

		KUNIT_EXPECT_EQ_MSG(test,
				    ib_mad_reg_req_check(&r, c->qpi, c->rmpp,
							 c->recv_handler),
				    c->expect, "%s", c->what);
	}
}

static void mad_reg_req_overlap_test(struct kunit *test)
{
	struct ib_mad_reg_req cm_send = reg(0x07, 2, 0, BIT(0x03));
	struct ib_mad_reg_req cm_get = reg(0x07, 2, 0, BIT(0x01) | BIT(0x02));
	struct ib_mad_reg_req cm_both = reg(0x07, 2, 0, BIT(0x02) | BIT(0x03));
	struct ib_mad_reg_req cm_v1 = reg(0x07, 1, 0, BIT(0x03));
	struct ib_mad_reg_req sa_send = reg(0x03, 2, 0, BIT(0x03));
	struct ib_mad_reg_req v2_a = reg(0x30, 1, 0x000001, BIT(0x01));
	struct ib_mad_reg_req v2_b = reg(0x30, 1, 0x000002, BIT(0x01));
	struct ib_mad_reg_req v1_a = reg(0x09, 1, 0x000001, BIT(0x01));
	struct ib_mad_reg_req v1_b = reg(0x09, 1, 0x000002, BIT(0x01));

	KUNIT_EXPECT_FALSE(test, ib_mad_reg_req_overlap(&cm_send, &cm_get));
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_overlap(&cm_send, &cm_both));
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_overlap(&cm_get, &cm_both));
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_overlap(&cm_send, &cm_send));
	/* Another class version or class is another registration space. */
	KUNIT_EXPECT_FALSE(test, ib_mad_reg_req_overlap(&cm_send, &cm_v1));
	KUNIT_EXPECT_FALSE(test, ib_mad_reg_req_overlap(&cm_send, &sa_send));
	/* Vendor range 2 is split by OUI; range 1 has none to split by. */
	KUNIT_EXPECT_FALSE(test, ib_mad_reg_req_overlap(&v2_a, &v2_b));
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_overlap(&v2_a, &v2_a));
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_overlap(&v1_a, &v1_b));
}

static void mad_reg_req_match_test(struct kunit *test)
{
	struct ib_mad_reg_req cm = reg(0x07, 2, 0, BIT(0x03));
	struct ib_mad_reg_req v2 = reg(0x30, 1, 0x001405, BIT(0x01) | BIT(0x05));
	struct ib_vendor_mad vmad = {};
	struct ib_mad_hdr *hdr = &vmad.mad_hdr;

	hdr->mgmt_class = 0x07;
	hdr->class_version = 2;
	hdr->method = 0x03;
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_match(&cm, hdr));
	hdr->class_version = 1;
	KUNIT_EXPECT_FALSE(test, ib_mad_reg_req_match(&cm, hdr));
	hdr->class_version = 2;
	hdr->method = 0x01;
	KUNIT_EXPECT_FALSE(test, ib_mad_reg_req_match(&cm, hdr));
	/* The response bit does not count when a method is looked up. */
	hdr->method = 0x83;
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_match(&cm, hdr));

	hdr->mgmt_class = 0x30;
	hdr->class_version = 1;
	hdr->method = 0x05;
	vmad.oui[0] = 0x00;
	vmad.oui[1] = 0x14;
	vmad.oui[2] = 0x05;
	KUNIT_EXPECT_TRUE(test, ib_mad_reg_req_match(&v2, hdr));
	vmad.oui[2] = 0x06;
	KUNIT_EXPECT_FALSE(test, ib_mad_reg_req_match(&v2, hdr));
}

static struct kunit_case mad_agent_cases[] = {
	KUNIT_CASE(mad_reg_req_check_test),
	KUNIT_CASE(mad_reg_req_overlap_test),
	KUNIT_CASE(mad_reg_req_match_test),
	{}
};

static struct kunit_suite mad_agent_test_suite = {
	.name = "ib_core_mad_agent",
	.test_cases = mad_agent_cases,
};

kunit_test_suite(mad_agent_test_suite);

MODULE_DESCRIPTION("KUnit tests of MAD agent registration rules");
MODULE_LICENSE("GPL");
