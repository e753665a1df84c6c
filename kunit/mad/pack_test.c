// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_pack: ib_pack() and ib_unpack() against wire images written out by hand. */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/stddef.h>
#include <rdma/ib_pack.h>

#include "kunit/mad/expect_bytes.h"

/* A structure with one member of each kind the field tables use. */
struct pack_sample {
	u8	hi_nibble;
	u8	lo_nibble;
	__be16	word16;
	__be32	bits20;
	__be64	word64;
	u8	gid[16];
	__be64	bits48;
	u8	untouched;
};

#define M(member) \
	.struct_offset_bytes = offsetof(struct pack_sample, member), \
	.struct_size_bytes = sizeof_field(struct pack_sample, member)

static const struct ib_field pack_fields[] = {
	{ M(hi_nibble),	.offset_words = 0, .offset_bits = 0,  .size_bits = 4,
	  .field_name = "hi_nibble" },
	{ M(lo_nibble),	.offset_words = 0, .offset_bits = 4,  .size_bits = 4,
	  .field_name = "lo_nibble" },
	{ M(word16),	.offset_words = 0, .offset_bits = 8,  .size_bits = 16,
	  .field_name = "word16" },
	{ RESERVED,	.offset_words = 0, .offset_bits = 24, .size_bits = 8 },
	/* 20 bits that start in the middle of a byte and span three */
	{ M(bits20),	.offset_words = 1, .offset_bits = 4,  .size_bits = 20,
	  .field_name = "bits20" },
	{ M(word64),	.offset_words = 2, .offset_bits = 0,  .size_bits = 64,
	  .field_name = "word64" },
	{ M(gid),	.offset_words = 4, .offset_bits = 0,  .size_bits = 128,
	  .field_name = "gid" },
	/* 48 bits starting half way into a word, as a GUID-sized field */
	{ M(bits48),	.offset_words = 8, .offset_bits = 16, .size_bits = 48,
	  .field_name = "bits48" },
};

/*
 * The wire image of pack_sample_values() packed into a buffer of 0xff:
 * bits no field covers keep the 0xff, the reserved byte becomes 0.
 */
static const u8 pack_wire[40] = {
	0xa5, 0xbe, 0xef, 0x00,		/* nibbles a and 5, 0xbeef, reserved */
	0xf1, 0x23, 0x45, 0xff,		/* 0x12345 from bit 36 to bit 55 */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
	0xff, 0xff, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
};

static void pack_sample_values(struct pack_sample *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->hi_nibble = 0xa;
	s->lo_nibble = 0x5;
	s->word16 = cpu_to_be16(0xbeef);
	s->bits20 = cpu_to_be32(0x12345);
	s->word64 = cpu_to_be64(0x0102030405060708ULL);
	for (i = 0; i < sizeof(s->gid); i++)
		s->gid[i] = 0xa0 + i;
	s->bits48 = cpu_to_be64(0x112233445566ULL);
}

static void pack_to_wire_test(struct kunit *test)
{
	struct pack_sample s;
	u8 wire[sizeof(pack_wire)];

	pack_sample_values(&s);
	memset(wire, 0xff, sizeof(wire));
	ib_pack(pack_fields, ARRAY_SIZE(pack_fields), &s, wire);
	EXPECT_BYTES(test, wire, pack_wire, sizeof(wire));
}

/* Values wider than their field lose their high bits, nothing else. */
static void pack_truncates_test(struct kunit *test)
{
	struct pack_sample s;
	u8 wire[sizeof(pack_wire)];

	pack_sample_values(&s);
	s.hi_nibble = 0xfa;
	s.bits20 = cpu_to_be32(0xfff12345);
	memset(wire, 0xff, sizeof(wire));
	ib_pack(pack_fields, ARRAY_SIZE(pack_fields), &s, wire);
	EXPECT_BYTES(test, wire, pack_wire, sizeof(wire));
}

static void unpack_from_wire_test(struct kunit *test)
{
	struct pack_sample want, got;
	u8 wire[sizeof(pack_wire)];

	pack_sample_values(&want);
	want.untouched = 0x77;
	memset(&got, 0, sizeof(got));
	got.untouched = 0x77;
	memcpy(wire, pack_wire, sizeof(wire));
	ib_unpack(pack_fields, ARRAY_SIZE(pack_fields), wire, &got);
	EXPECT_BYTES(test, &got, &want, sizeof(got));
	/* Unpacking reads: the image is as it was. */
	EXPECT_BYTES(test, wire, pack_wire, sizeof(wire));
}

/* A field too long for a number that is not whole bytes is skipped. */
static void pack_unaligned_long_field_test(struct kunit *test)
{
	static const struct ib_field bad[] = {
		{ M(gid), .offset_words = 0, .offset_bits = 4, .size_bits = 120,
		  .field_name = "crooked" },
	};
	struct pack_sample s;
	u8 wire[20];

	pack_sample_values(&s);
	memset(wire, 0x5c, sizeof(wire));
	ib_pack(bad, ARRAY_SIZE(bad), &s, wire);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(wire, 0x5c, sizeof(wire)), NULL);
	memset(&s, 0, sizeof(s));
	ib_unpack(bad, ARRAY_SIZE(bad), wire, &s);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(s.gid, 0, sizeof(s.gid)), NULL);
}

static struct kunit_case pack_cases[] = {
	KUNIT_CASE(pack_to_wire_test),
	KUNIT_CASE(pack_truncates_test),
	KUNIT_CASE(unpack_from_wire_test),
	KUNIT_CASE(pack_unaligned_long_field_test),
	{}
};

static struct kunit_suite pack_test_suite = {
	.name = "ib_core_pack",
	.test_cases = pack_cases,
};

kunit_test_suite(pack_test_suite);

MODULE_DESCRIPTION("KUnit tests of ib_pack() and ib_unpack()");
MODULE_LICENSE("GPL");
