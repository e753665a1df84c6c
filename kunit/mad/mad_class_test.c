// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_mad_class: class facts, receive checks and the
 * "unsupported" answer, every input.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_mad.h>

#include "core/mad/mad.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The expectations are spelled out from IBA volume 1 (chapter 13 and the
 * class chapters) and Linux 6.1's behaviour, not from core/mad/: a table of
 * the special classes, then every one of the 256 class codes against it.
 */

struct spec_class {
	u8 mgmt_class;
	int data_offset;
	bool rmpp;
};

static const struct spec_class spec_classes[] = {
	{ 0x03, 56, true },	/* subnet administration: MAD + RMPP + SA header */
	{ 0x06, 64, true },	/* device management */
	{ 0x10, 64, true },	/* device administration */
	{ 0x12, 64, true },	/* BIS */
};

static const struct spec_class *spec_class(unsigned int c)
{
	static struct spec_class vendor2 = { 0, 40, true };
	static struct spec_class plain = { 0, 24, false };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(spec_classes); i++)
		if (spec_classes[i].mgmt_class == c)
			return &spec_classes[i];
	/* Vendor range 2 carries an OUI after the RMPP header. */
	return c >= 0x30 && c <= 0x4f ? &vendor2 : &plain;
}

static void mad_class_offsets_test(struct kunit *test)
{
	unsigned int c;

	for (c = 0; c < 256; c++) {
		KUNIT_EXPECT_EQ_MSG(test, ib_get_mad_data_offset(c),
				    spec_class(c)->data_offset, "class 0x%02x", c);
		KUNIT_EXPECT_EQ_MSG(test, !!ib_is_mad_class_rmpp(c),
				    spec_class(c)->rmpp, "class 0x%02x", c);
		KUNIT_EXPECT_EQ_MSG(test, ib_mad_class_is_vendor2(c),
				    c >= 0x30 && c <= 0x4f, "class 0x%02x", c);
	}
}

static void mad_response_test(struct kunit *test)
{
	struct ib_mad_hdr hdr = {};
	unsigned int m;

	for (m = 0; m < 256; m++) {
		hdr.method = m;
		hdr.mgmt_class = IB_MGMT_CLASS_CM;
		/* Bit 7 is the response bit; TrapRepress (0x07) answers a Trap. */
		KUNIT_EXPECT_EQ_MSG(test, ib_response_mad(&hdr),
				    (m & 0x80) || m == 0x07, "method 0x%02x", m);
	}
	/* Baseboard management marks its responses in the attribute modifier. */
	hdr.mgmt_class = IB_MGMT_CLASS_BM;
	hdr.method = IB_MGMT_METHOD_SEND;
	hdr.attr_mod = cpu_to_be32(0);
	KUNIT_EXPECT_FALSE(test, ib_response_mad(&hdr));
	hdr.attr_mod = cpu_to_be32(1);
	KUNIT_EXPECT_TRUE(test, ib_response_mad(&hdr));
	hdr.mgmt_class = IB_MGMT_CLASS_PERF_MGMT;
	KUNIT_EXPECT_FALSE(test, ib_response_mad(&hdr));
}

/* Which (class, QP) pairs may carry MADs: SMPs on QP0 only, the rest never there. */
static bool spec_acceptable(u8 version, u8 class, u8 method, bool cpi, u32 qpn)
{
	bool smp = class == 0x01 || class == 0x81;

	if (version != 1)
		return false;
	if (smp)
		return qpn == 0;
	if (qpn == 0)
		return false;
	/* The CM sends everything with SEND but ClassPortInfo queries. */
	return class != 0x07 || cpi || method == IB_MGMT_METHOD_SEND;
}

/* @hdr as a ClassPortInfo query and not, on QP0, QP1 and another QP. */
static void hdr_acceptable_expect(struct kunit *test, struct ib_mad_hdr *hdr)
{
	unsigned int cpi, qpn;

	for (cpi = 0; cpi < 2; cpi++) {
		hdr->attr_id = cpi ? IB_MGMT_CLASSPORTINFO_ATTR_ID :
				     cpu_to_be16(0x0010);
		for (qpn = 0; qpn < 3; qpn++)
			KUNIT_EXPECT_EQ_MSG(test, ib_mad_hdr_acceptable(hdr, qpn),
					    spec_acceptable(hdr->base_version,
							    hdr->mgmt_class,
							    hdr->method, cpi, qpn),
					    "version %u class 0x%02x method 0x%02x cpi %u qp %u",
					    hdr->base_version, hdr->mgmt_class,
					    hdr->method, cpi, qpn);
	}
}

static void mad_hdr_acceptable_test(struct kunit *test)
{
	static const u8 versions[] = { 0, 1, 2, 0x80 };
	static const u8 methods[] = { 0x01, 0x02, 0x03, 0x05, 0x06, 0x81, 0x86 };
	struct ib_mad_hdr hdr = {};
	unsigned int v, c, m;

	for (v = 0; v < ARRAY_SIZE(versions); v++) {
		for (c = 0; c < 256; c++) {
			for (m = 0; m < ARRAY_SIZE(methods); m++) {
				hdr.base_version = versions[v];
				hdr.mgmt_class = c;
				hdr.method = methods[m];
				hdr_acceptable_expect(test, &hdr);
			}
		}
	}
}

static void mad_unsupported_reply_test(struct kunit *test)
{
	struct ib_mad_hdr hdr, before;
	unsigned int m;

	for (m = 0; m < 256; m++) {
		bool answers = m == IB_MGMT_METHOD_GET || m == IB_MGMT_METHOD_SET;

		memset(&hdr, 0, sizeof(hdr));
		hdr.base_version = 1;
		hdr.mgmt_class = IB_MGMT_CLASS_PERF_MGMT;
		hdr.class_version = 1;
		hdr.method = m;
		hdr.tid = cpu_to_be64(0x1122334455667788ULL);
		hdr.attr_id = cpu_to_be16(0x0012);
		hdr.attr_mod = cpu_to_be32(7);
		before = hdr;
		KUNIT_EXPECT_EQ_MSG(test, ib_mad_make_unsupported_reply(&hdr),
				    answers, "method 0x%02x", m);
		if (!answers) {
			KUNIT_EXPECT_EQ(test, memcmp(&hdr, &before, sizeof(hdr)), 0);
			continue;
		}
		KUNIT_EXPECT_EQ(test, hdr.method, 0x81);
		KUNIT_EXPECT_EQ(test, be16_to_cpu(hdr.status), 0x000c);
		/* Everything that says which request this answers is kept. */
		KUNIT_EXPECT_EQ(test, be64_to_cpu(hdr.tid), be64_to_cpu(before.tid));
		KUNIT_EXPECT_EQ(test, be16_to_cpu(hdr.attr_id),
				be16_to_cpu(before.attr_id));
		KUNIT_EXPECT_EQ(test, be32_to_cpu(hdr.attr_mod),
				be32_to_cpu(before.attr_mod));
		KUNIT_EXPECT_EQ(test, hdr.mgmt_class, before.mgmt_class);
	}
	/* A directed-route SMP answer sets the direction bit of its status. */
	memset(&hdr, 0, sizeof(hdr));
	hdr.mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	hdr.method = IB_MGMT_METHOD_GET;
	KUNIT_EXPECT_TRUE(test, ib_mad_make_unsupported_reply(&hdr));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(hdr.status), 0x800c);
}

static struct kunit_case mad_class_cases[] = {
	KUNIT_CASE(mad_class_offsets_test),
	KUNIT_CASE(mad_response_test),
	KUNIT_CASE(mad_hdr_acceptable_test),
	KUNIT_CASE(mad_unsupported_reply_test),
	{}
};

static struct kunit_suite mad_class_test_suite = {
	.name = "ib_core_mad_class",
	.test_cases = mad_class_cases,
};

kunit_test_suite(mad_class_test_suite);

MODULE_DESCRIPTION("KUnit tests of the MAD layer's class facts and receive checks");
MODULE_LICENSE("GPL");
