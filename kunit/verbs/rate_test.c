// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_rate: static rate code conversions of core/verbs/rate.c. */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

/**
 * struct known_rate - what 6.1 says about one rate code
 * @rate: the enumerator
 * @name: its spelling, for test descriptions
 * @code: its numeric value (IBTA code, part of the ABI)
 * @mult: the nominal Gb/s of the name divided by 2.5, rounded to nearest
 * @mbps: the signalling rate in Mb/s, fraction dropped
 */
struct known_rate {
	enum ib_rate rate;
	const char *name;
	int code;
	int mult;
	int mbps;
};

#define KNOWN(gbps, code, mult, mbps) \
	{ IB_RATE_##gbps##_GBPS, "IB_RATE_" #gbps "_GBPS", code, mult, mbps }

/* In IBTA code order; IB_RATE_PORT_CURRENT (code 0) is not a rate. */
static const struct known_rate known_rates[] = {
	KNOWN(2_5,  2,   1,   2500),	/* 1x SDR */
	KNOWN(10,   3,   4,  10000),	/* 4x SDR */
	KNOWN(30,   4,  12,  30000),	/* 12x SDR */
	KNOWN(5,    5,   2,   5000),	/* 1x DDR */
	KNOWN(20,   6,   8,  20000),	/* 4x DDR */
	KNOWN(40,   7,  16,  40000),	/* 4x QDR */
	KNOWN(60,   8,  24,  60000),	/* 12x DDR */
	KNOWN(80,   9,  32,  80000),	/* 8x QDR */
	KNOWN(120, 10,  48, 120000),	/* 12x QDR */
	KNOWN(14,  11,   6,  14062),	/* 1x FDR: 14.0625 */
	KNOWN(56,  12,  22,  56250),	/* 4x FDR */
	KNOWN(112, 13,  45, 112500),	/* 8x FDR */
	KNOWN(168, 14,  67, 168750),	/* 12x FDR */
	KNOWN(25,  15,  10,  25781),	/* 1x EDR: 25.78125 */
	KNOWN(100, 16,  40, 103125),	/* 4x EDR */
	KNOWN(200, 17,  80, 206250),	/* 8x EDR */
	KNOWN(300, 18, 120, 309375),	/* 12x EDR */
	KNOWN(28,  19,  11,  28125),	/* 2x FDR */
	KNOWN(50,  20,  20,  53125),	/* 1x HDR: 53.125 */
	KNOWN(400, 21, 160, 425000),	/* 8x HDR */
	KNOWN(600, 22, 240, 637500),	/* 12x HDR */
};

static void known_rate_desc(const struct known_rate *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", r->name);
}

KUNIT_ARRAY_PARAM(known_rate, known_rates, known_rate_desc);

/* Return the known_rates row with multiple @mult, or NULL. */
static const struct known_rate *known_rate_by_mult(int mult)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(known_rates); i++)
		if (known_rates[i].mult == mult)
			return &known_rates[i];
	return NULL;
}

/* Return the known_rates row whose code is @code, or NULL. */
static const struct known_rate *known_rate_by_code(int code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(known_rates); i++)
		if (known_rates[i].code == code)
			return &known_rates[i];
	return NULL;
}

static void rate_code_value_test(struct kunit *test)
{
	const struct known_rate *r = test->param_value;

	KUNIT_EXPECT_EQ(test, (int)r->rate, r->code);
}

static void rate_to_mult_test(struct kunit *test)
{
	const struct known_rate *r = test->param_value;

	KUNIT_EXPECT_EQ(test, ib_rate_to_mult(r->rate), r->mult);
}

static void rate_to_mbps_test(struct kunit *test)
{
	const struct known_rate *r = test->param_value;

	KUNIT_EXPECT_EQ(test, ib_rate_to_mbps(r->rate), r->mbps);
}

static void mult_to_rate_test(struct kunit *test)
{
	const struct known_rate *r = test->param_value;

	KUNIT_EXPECT_EQ(test, mult_to_ib_rate(r->mult), r->rate);
}

/* Values of enum ib_rate's type that name no rate. */
static const int bad_codes[] = {
	IB_RATE_PORT_CURRENT, 1, 23, 24, 31, 63, 255, 0x10000, INT_MAX, -1, INT_MIN,
};

static void int_desc(const int *value, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%d", *value);
}

KUNIT_ARRAY_PARAM(bad_code, bad_codes, int_desc);

static void rate_bad_code_test(struct kunit *test)
{
	const int *code = test->param_value;

	KUNIT_EXPECT_EQ(test, ib_rate_to_mult((enum ib_rate)*code), -1);
	KUNIT_EXPECT_EQ(test, ib_rate_to_mbps((enum ib_rate)*code), -1);
}

/* Multiples no rate has: zero, negative, in the gaps, past the top. */
static const int bad_mults[] = {
	0, -1, -2, -4, -240, INT_MIN,
	3, 5, 7, 9, 13, 14, 15, 17, 21, 23, 25, 30, 44, 46, 47, 56, 64, 66, 68,
	79, 81, 100, 119, 121, 159, 161, 239, 241, 320, 480, 1000, 0x10000,
	INT_MAX,
};

KUNIT_ARRAY_PARAM(bad_mult, bad_mults, int_desc);

static void mult_bad_test(struct kunit *test)
{
	const int *mult = test->param_value;

	/* Guard the test data itself: this must really be an unused multiple. */
	KUNIT_ASSERT_NULL(test, known_rate_by_mult(*mult));
	KUNIT_EXPECT_EQ(test, mult_to_ib_rate(*mult), IB_RATE_PORT_CURRENT);
}

/* Every code from -64 to 1023: known ones convert, all others give -1. */
static void rate_code_sweep_test(struct kunit *test)
{
	const struct known_rate *r;
	int code;

	for (code = -64; code < 1024; code++) {
		r = known_rate_by_code(code);
		KUNIT_EXPECT_EQ_MSG(test, ib_rate_to_mult((enum ib_rate)code),
				    r ? r->mult : -1, "code %d", code);
		KUNIT_EXPECT_EQ_MSG(test, ib_rate_to_mbps((enum ib_rate)code),
				    r ? r->mbps : -1, "code %d", code);
	}
}

/* Every multiple from -1024 to 65535 maps to its code or to PORT_CURRENT. */
static void mult_sweep_test(struct kunit *test)
{
	const struct known_rate *r;
	int mult;

	for (mult = -1024; mult < 65536; mult++) {
		r = known_rate_by_mult(mult);
		KUNIT_EXPECT_EQ_MSG(test, mult_to_ib_rate(mult),
				    r ? r->rate : IB_RATE_PORT_CURRENT,
				    "mult %d", mult);
	}
}

/* The table itself: codes and multiples are each used once. */
static void known_rates_unique_test(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(known_rates); i++) {
		KUNIT_EXPECT_PTR_EQ(test, known_rate_by_code(known_rates[i].code),
				    &known_rates[i]);
		KUNIT_EXPECT_PTR_EQ(test, known_rate_by_mult(known_rates[i].mult),
				    &known_rates[i]);
	}
	KUNIT_EXPECT_EQ(test, (int)IB_RATE_PORT_CURRENT, 0);
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(known_rates), 21);
}

static struct kunit_case ib_core_rate_cases[] = {
	KUNIT_CASE_PARAM(rate_code_value_test, known_rate_gen_params),
	KUNIT_CASE_PARAM(rate_to_mult_test, known_rate_gen_params),
	KUNIT_CASE_PARAM(rate_to_mbps_test, known_rate_gen_params),
	KUNIT_CASE_PARAM(mult_to_rate_test, known_rate_gen_params),
	KUNIT_CASE_PARAM(rate_bad_code_test, bad_code_gen_params),
	KUNIT_CASE_PARAM(mult_bad_test, bad_mult_gen_params),
	KUNIT_CASE(rate_code_sweep_test),
	KUNIT_CASE(mult_sweep_test),
	KUNIT_CASE(known_rates_unique_test),
	{}
};

static struct kunit_suite ib_core_rate_suite = {
	.name = "ib_core_rate",
	.test_cases = ib_core_rate_cases,
};

kunit_test_suite(ib_core_rate_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core static rate helpers");
MODULE_LICENSE("GPL");
