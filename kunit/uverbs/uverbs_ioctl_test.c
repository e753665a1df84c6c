// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_uverbs_ioctl: the RDMA_VERBS_IOCTL header and attribute checks
 * of core/uverbs/uverbs_ioctl.c and the spec table of uverbs_ioctl_table.c.
 */
/*
 * The expected errnos are the contract libibverbs 44 is written against
 * (Linux 6.1's), spelled out per case rather than derived from the code:
 * -EINVAL for malformed input, -EPROTONOSUPPORT for what we do not have
 * (libibverbs then falls back to write() for that verb), -EOPNOTSUPP for
 * non-zero bytes past a known struct and unknown enum elements.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_ioctl_cmds.h>

#include "core/uverbs/uverbs_ioctl.h"

/* ---- The header ---------------------------------------------------------- */

struct hdr_case {
	const char *name;
	u16 length;
	u16 num_attrs;
	u64 reserved1;
	u32 reserved2;
	int err;
};

#define HDR_LEN(n)	(sizeof(struct ib_uverbs_ioctl_hdr) + 16 * (n))

static const struct hdr_case hdr_cases[] = {
	{ "no attributes", HDR_LEN(0), 0, 0, 0, 0 },
	{ "two attributes", HDR_LEN(2), 2, 0, 0, 0 },
	{ "the most that fit a page", HDR_LEN(254), 254, 0, 0, 0 },
	{ "one past a page", HDR_LEN(255), 255, 0, 0, -EINVAL },
	{ "length 0", 0, 0, 0, 0, -EINVAL },
	{ "length one attribute short", HDR_LEN(1), 2, 0, 0, -EINVAL },
	{ "length one attribute long", HDR_LEN(3), 2, 0, 0, -EINVAL },
	{ "length not a whole attribute", HDR_LEN(1) + 8, 1, 0, 0, -EINVAL },
	{ "num_attrs huge", HDR_LEN(1), 0xffff, 0, 0, -EINVAL },
	{ "reserved1", HDR_LEN(0), 0, 1, 0, -EPROTONOSUPPORT },
	{ "reserved1 high bit", HDR_LEN(0), 0, 1ULL << 63, 0, -EPROTONOSUPPORT },
	{ "reserved2", HDR_LEN(1), 1, 0, 0x100, -EPROTONOSUPPORT },
	{ "bad length before reserved", HDR_LEN(1), 0, 1, 1, -EINVAL },
};

static void hdr_case_desc(const struct hdr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hdr, hdr_cases, hdr_case_desc);

static void uverbs_ioctl_hdr_test(struct kunit *test)
{
	const struct hdr_case *c = test->param_value;
	struct ib_uverbs_ioctl_hdr hdr = {
		.length = c->length, .num_attrs = c->num_attrs,
		.reserved1 = c->reserved1, .reserved2 = c->reserved2,
		.driver_id = 14,
	};

	KUNIT_EXPECT_EQ(test, uverbs_ioctl_hdr_check(&hdr), c->err);
}

/* ---- One attribute against one spec -------------------------------------- */

static const struct uverbs_ia_spec spec_in = {
	.type = UVERBS_IA_PTR_IN, .min_len = 4, .max_len = 16 };
static const struct uverbs_ia_spec spec_in_zt = {
	.type = UVERBS_IA_PTR_IN, .min_len = 4, .max_len = 6,
	.zero_trailing = 1 };
static const struct uverbs_ia_spec spec_out = {
	.type = UVERBS_IA_PTR_OUT, .min_len = 4, .max_len = 8 };
static const struct uverbs_ia_spec spec_out_zt = {
	.type = UVERBS_IA_PTR_OUT, .min_len = 4, .max_len = 8,
	.zero_trailing = 1 };
static const struct uverbs_ia_spec spec_const = {
	.type = UVERBS_IA_CONST_IN, .min_len = 8, .max_len = 8,
	.max_val = 255 };
static const struct uverbs_ia_spec spec_flags = {
	.type = UVERBS_IA_FLAGS_IN, .min_len = 4, .max_len = 8, .max_val = 3 };
/* a kind of object of our own: the checks never look inside it */
static const struct uverbs_api_object test_kind;
static const struct uverbs_ia_spec spec_idr = {
	.type = UVERBS_IA_IDR, .obj = &test_kind };
static const struct uverbs_ia_spec spec_fd = {
	.type = UVERBS_IA_FD, .access = UVERBS_IA_NEW };
static const struct uverbs_ia_spec spec_elems[] = {
	{ .type = UVERBS_IA_PTR_IN, .min_len = 1, .max_len = 8 },
	{ .type = UVERBS_IA_PTR_OUT, .min_len = 1, .max_len = 8 },
};

static const struct uverbs_ia_spec spec_enum = {
	.type = UVERBS_IA_ENUM_IN, .num_elems = 2, .elems = spec_elems };
static const struct uverbs_ia_spec spec_bad = { .type = 0 };

/* what the fake user-memory check answers, and whether it was asked */
static bool fake_zero;
static bool fake_asked;

static bool fake_cleared(const struct ib_uverbs_attr *uattr, u16 from)
{
	fake_asked = true;
	return fake_zero;
}

struct attr_case {
	const char *name;
	const struct uverbs_ia_spec *spec;
	u16 len;
	u16 reserved;		/* attr_data: for ENUM_IN elem_id | reserved << 8 */
	u64 data;
	bool user_zero;		/* the fake's answer (len > 8, zero_trailing) */
	int err;
};

static const struct attr_case attr_cases[] = {
	/* PTR_IN without zero_trailing: min..max */
	{ "in: at its minimum", &spec_in, 4, 0, 0, false, 0 },
	{ "in: at its maximum", &spec_in, 16, 0, 0, false, 0 },
	{ "in: under its minimum", &spec_in, 3, 0, 0, false, -EINVAL },
	{ "in: empty", &spec_in, 0, 0, 0, false, -EINVAL },
	{ "in: over its maximum", &spec_in, 17, 0, 0, false, -EINVAL },
	{ "in: reserved set", &spec_in, 8, 1, 0, false, -EINVAL },
	/* PTR_IN with zero_trailing: longer passes when the excess is zero */
	{ "in zt: inline, excess zero", &spec_in_zt, 8, 0, 0x0000ffffffffffffULL,
	  false, 0 },
	{ "in zt: inline, excess not zero", &spec_in_zt, 8, 0,
	  0x0100000000000000ULL, false, -EOPNOTSUPP },
	{ "in zt: in memory, excess zero", &spec_in_zt, 64, 0, 0x1000, true, 0 },
	{ "in zt: in memory, excess not zero", &spec_in_zt, 64, 0, 0x1000,
	  false, -EOPNOTSUPP },
	{ "in zt: under its minimum", &spec_in_zt, 2, 0, 0, false, -EINVAL },
	{ "in zt: excess not zero before reserved", &spec_in_zt, 64, 1, 0x1000,
	  false, -EOPNOTSUPP },
	/* PTR_OUT */
	{ "out: in range", &spec_out, 8, 0, 0x1000, false, 0 },
	{ "out: under its minimum", &spec_out, 3, 0, 0x1000, false, -EINVAL },
	{ "out: over its maximum", &spec_out, 9, 0, 0x1000, false, -EINVAL },
	{ "out: reserved set", &spec_out, 8, 1, 0x1000, false, -EINVAL },
	{ "out zt: longer room is fine", &spec_out_zt, 4096, 0, 0x1000, false,
	  0 },
	/* CONST_IN: exactly a u64, within its type */
	{ "const: the largest value", &spec_const, 8, 0, 255, false, 0 },
	{ "const: past the largest", &spec_const, 8, 0, 256, false, -EINVAL },
	{ "const: u64 max", &spec_const, 8, 0, U64_MAX, false, -EINVAL },
	{ "const: 4 bytes", &spec_const, 4, 0, 1, false, -EINVAL },
	{ "const: 16 bytes", &spec_const, 16, 0, 1, false, -EINVAL },
	{ "const: reserved set", &spec_const, 8, 1, 1, false, -EINVAL },
	/* FLAGS_IN: a u32 or a u64, known bits only */
	{ "flags: u32 with known bits", &spec_flags, 4, 0, 3, false, 0 },
	{ "flags: u64 with a known bit", &spec_flags, 8, 0, 1, false, 0 },
	{ "flags: u32 ignores the upper half", &spec_flags, 4, 0,
	  0xffffffff00000001ULL, false, 0 },
	{ "flags: u32 with an unknown bit", &spec_flags, 4, 0, 4, false,
	  -EINVAL },
	{ "flags: u64 with a high bit", &spec_flags, 8, 0, 1ULL << 40, false,
	  -EINVAL },
	{ "flags: 6 bytes", &spec_flags, 6, 0, 0, false, -EINVAL },
	{ "flags: 2 bytes", &spec_flags, 2, 0, 0, false, -EINVAL },
	/* IDR and FD: no length, no reserved bits */
	{ "idr: a handle", &spec_idr, 0, 0, 7, false, 0 },
	{ "idr: with a length", &spec_idr, 4, 0, 7, false, -EINVAL },
	{ "idr: reserved set", &spec_idr, 0, 1, 7, false, -EINVAL },
	{ "idr: negative", &spec_idr, 0, 0, (u64)-1, false, -EINVAL },
	{ "fd: new", &spec_fd, 0, 0, 0, false, 0 },
	{ "fd: with a length", &spec_fd, 8, 0, 0, false, -EINVAL },
	{ "fd: reserved set", &spec_fd, 0, 1, 0, false, -EINVAL },
	/* ENUM_IN: the element's PTR_IN spec */
	{ "enum: element 0", &spec_enum, 4, 0, 0, false, 0 },
	{ "enum: element past the list", &spec_enum, 4, 2, 0, false,
	  -EOPNOTSUPP },
	{ "enum: element not PTR_IN", &spec_enum, 4, 1, 0, false, -EOPNOTSUPP },
	{ "enum: its reserved byte", &spec_enum, 4, 0x100, 0, false, -EINVAL },
	{ "enum: element 0 too long", &spec_enum, 9, 0, 0, false, -EINVAL },
	/* a spec of no kind */
	{ "a spec without a type", &spec_bad, 0, 0, 0, false, -EOPNOTSUPP },
};

static void attr_case_desc(const struct attr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(attr, attr_cases, attr_case_desc);

static void uverbs_ioctl_attr_test(struct kunit *test)
{
	const struct attr_case *c = test->param_value;
	struct ib_uverbs_attr uattr = {
		.len = c->len, .attr_data.reserved = c->reserved,
		.data = c->data,
	};

	fake_zero = c->user_zero;
	fake_asked = false;
	KUNIT_EXPECT_EQ(test, uverbs_ioctl_attr_check(c->spec, &uattr,
						      fake_cleared), c->err);
	/* user memory is only read for non-inline PTR_IN past its struct */
	KUNIT_EXPECT_EQ(test, fake_asked,
			c->spec->zero_trailing && c->len > 8 &&
			c->spec->type == UVERBS_IA_PTR_IN);
}

/* ---- Methods and the attribute array ------------------------------------- */

struct method_case {
	const char *name;
	u16 object;
	u16 method;
	bool found;
};

static const struct method_case method_cases[] = {
	{ "INVOKE_WRITE", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, true },
	{ "INFO_HANDLES", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES, true },
	{ "QUERY_PORT", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT, true },
	{ "GET_CONTEXT", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT, true },
	{ "QUERY_CONTEXT", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT,
	  true },
	{ "QUERY_GID_TABLE", UVERBS_OBJECT_DEVICE,
	  UVERBS_METHOD_QUERY_GID_TABLE, true },
	{ "QUERY_GID_ENTRY", UVERBS_OBJECT_DEVICE,
	  UVERBS_METHOD_QUERY_GID_ENTRY, true },
	{ "ASYNC_EVENT_ALLOC", UVERBS_OBJECT_ASYNC_EVENT,
	  UVERBS_METHOD_ASYNC_EVENT_ALLOC, true },
	{ "PD_DESTROY", UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, true },
	/* libibverbs falls back to write() for these */
	{ "device method 7", UVERBS_OBJECT_DEVICE, 7, false },
	{ "PD method 1", UVERBS_OBJECT_PD, 1, false },
	{ "CQ_CREATE", UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, false },
	{ "QP_CREATE", UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, false },
	{ "MR_DESTROY", UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, false },
	{ "a driver-namespace object", 0x1000, 0, false },
	{ "a driver-namespace method", UVERBS_OBJECT_DEVICE, 0x1000, false },
	{ "object 0xffff", 0xffff, 0, false },
};

static void method_case_desc(const struct method_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(method, method_cases, method_case_desc);

static void uverbs_ioctl_method_test(struct kunit *test)
{
	const struct method_case *c = test->param_value;
	const struct uverbs_ioctl_method *m;

	m = uverbs_ioctl_method_find(c->object, c->method);
	KUNIT_EXPECT_EQ(test, !!m, c->found);
	if (m) {
		KUNIT_EXPECT_EQ(test, m->id, c->method);
		KUNIT_EXPECT_NOT_NULL(test, m->handler);
	}
}

struct parse_case {
	const char *name;
	struct ib_uverbs_attr attrs[4];
	u16 num;
	int err;
	unsigned long present;	/* spec slots parsed when it succeeds */
};

#define PORT_NUM(p)	{ .attr_id = UVERBS_ATTR_QUERY_PORT_PORT_NUM,	\
			  .len = 8, .data = p }
#define PORT_RESP	{ .attr_id = UVERBS_ATTR_QUERY_PORT_RESP,	\
			  .len = sizeof(struct ib_uverbs_query_port_resp_ex), \
			  .data = 0x1000 }
#define UNKNOWN(f)	{ .attr_id = 0x55, .len = 8, .flags = f }

/* QUERY_PORT: PORT_NUM (CONST_IN u8) and RESP (a struct out), both mandatory */
static const struct parse_case parse_cases[] = {
	{ "both attributes", { PORT_NUM(1), PORT_RESP }, 2, 0, 0x3 },
	{ "in the other order", { PORT_RESP, PORT_NUM(1) }, 2, 0, 0x3 },
	{ "an unknown attribute is skipped", { PORT_NUM(1), UNKNOWN(0),
	  PORT_RESP }, 3, 0, 0x3 },
	{ "an unknown mandatory attribute", { PORT_NUM(1), PORT_RESP,
	  UNKNOWN(UVERBS_ATTR_F_MANDATORY) }, 3, -EPROTONOSUPPORT },
	{ "the driver's data on a method without it", { PORT_NUM(1),
	  PORT_RESP, { .attr_id = UVERBS_ATTR_UHW_IN,
		       .flags = UVERBS_ATTR_F_MANDATORY } }, 3,
	  -EPROTONOSUPPORT },
	{ "an attribute twice", { PORT_NUM(1), PORT_RESP, PORT_NUM(1) }, 3,
	  -EINVAL },
	{ "a mandatory attribute missing", { PORT_NUM(1) }, 1, -EINVAL },
	{ "nothing", {}, 0, -EINVAL },
	{ "a port past u8", { PORT_NUM(256), PORT_RESP }, 2, -EINVAL },
	{ "a response room too short", { PORT_NUM(1),
	  { .attr_id = UVERBS_ATTR_QUERY_PORT_RESP, .len = 40 } }, 2,
	  -EINVAL },
	{ "the first failure wins", { PORT_NUM(256),
	  UNKNOWN(UVERBS_ATTR_F_MANDATORY) }, 2, -EINVAL },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void uverbs_ioctl_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct uverbs_ioctl_ctx *ctx;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->method = uverbs_ioctl_method_find(UVERBS_OBJECT_DEVICE,
					       UVERBS_METHOD_QUERY_PORT);
	KUNIT_ASSERT_NOT_NULL(test, ctx->method);
	ctx->uattrs = (struct ib_uverbs_attr *)c->attrs;
	for (i = 0; i < ARRAY_SIZE(ctx->val); i++)
		ctx->val[i].fd = -1;
	KUNIT_EXPECT_EQ(test, uverbs_ioctl_parse(ctx, c->num), c->err);
	if (!c->err) {
		KUNIT_EXPECT_EQ(test, ctx->present, c->present);
		KUNIT_EXPECT_EQ(test, uverbs_ioctl_val(ctx,
						       UVERBS_ATTR_QUERY_PORT_PORT_NUM)->data, 1);
	}
	uverbs_ioctl_finish(ctx, false);
}

/* ---- The spec table's invariants ----------------------------------------- */

static void uverbs_ioctl_spec_check(struct kunit *test,
				    const struct uverbs_ioctl_method *m,
				    const struct uverbs_ia_spec *s)
{
	switch (s->type) {
	case UVERBS_IA_PTR_IN:
	case UVERBS_IA_PTR_OUT:
		KUNIT_EXPECT_LE(test, s->min_len, s->max_len);
		break;
	case UVERBS_IA_CONST_IN:
		KUNIT_EXPECT_EQ(test, s->min_len, 8);
		KUNIT_EXPECT_EQ(test, s->max_len, 8);
		KUNIT_EXPECT_FALSE(test, s->zero_trailing);
		break;
	case UVERBS_IA_FLAGS_IN:
		KUNIT_EXPECT_EQ(test, s->min_len, 4);
		KUNIT_EXPECT_EQ(test, s->max_len, 8);
		break;
	case UVERBS_IA_IDR:
		KUNIT_EXPECT_NOT_NULL(test, s->obj);
		if (s->obj)
			KUNIT_EXPECT_NOT_NULL(test, s->obj->type->destroy);
		KUNIT_EXPECT_TRUE(test, m->needs_ucontext);
		break;
	case UVERBS_IA_FD:
		/* descriptors are only ever made by a method */
		KUNIT_EXPECT_EQ(test, s->access, UVERBS_IA_NEW);
		KUNIT_EXPECT_TRUE(test, m->needs_ucontext);
		break;
	case UVERBS_IA_ENUM_IN:
		KUNIT_EXPECT_NOT_NULL(test, s->elems);
		KUNIT_EXPECT_GT(test, s->num_elems, 0);
		break;
	default:
		KUNIT_FAIL(test, "method %u attribute %u has no type", m->id,
			   s->id);
	}
}

static void uverbs_ioctl_method_check(struct kunit *test,
				      const struct uverbs_ioctl_method *m)
{
	unsigned int i, j, destroys = 0, uhw = 0;

	KUNIT_EXPECT_NOT_NULL(test, m->handler);
	KUNIT_EXPECT_LE(test, m->num_attrs, UVERBS_IOCTL_MAX_ATTRS);
	KUNIT_EXPECT_LE(test, m->num_attrs, BITS_PER_LONG);
	for (i = 0; i < m->num_attrs; i++) {
		const struct uverbs_ia_spec *s = &m->attrs[i];

		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE_MSG(test, m->attrs[j].id, s->id,
					    "method %u lists attribute %u twice",
					    m->id, s->id);
		uverbs_ioctl_spec_check(test, m, s);
		if (s->type == UVERBS_IA_IDR && s->access == UVERBS_IA_DESTROY)
			destroys++;
		if (s->id == UVERBS_ATTR_UHW_IN || s->id == UVERBS_ATTR_UHW_OUT) {
			uhw++;
			KUNIT_EXPECT_FALSE(test, s->mandatory);
		}
	}
	KUNIT_EXPECT_LE(test, destroys, 1);
	/* the driver's data: both attributes exactly when has_udata */
	KUNIT_EXPECT_EQ(test, uhw, m->has_udata ? 2 : 0);
}

static void uverbs_ioctl_table_test(struct kunit *test)
{
	unsigned int i, j, k;

	KUNIT_EXPECT_GT(test, uverbs_ioctl_num_objects, 0);
	for (i = 0; i < uverbs_ioctl_num_objects; i++) {
		const struct uverbs_ioctl_object *o = &uverbs_ioctl_objects[i];

		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, uverbs_ioctl_objects[j].id, o->id);
		KUNIT_EXPECT_PTR_EQ(test, uverbs_ioctl_object_find(o->id), o);
		for (j = 0; j < o->num_methods; j++) {
			for (k = 0; k < j; k++)
				KUNIT_EXPECT_NE(test, o->methods[k].id,
						o->methods[j].id);
			uverbs_ioctl_method_check(test, &o->methods[j]);
			KUNIT_EXPECT_PTR_EQ(test,
					    uverbs_ioctl_method_find(o->id, o->methods[j].id),
				&o->methods[j]);
		}
	}
	/* 6.1's device object: all seven of its methods */
	KUNIT_EXPECT_EQ(test,
			uverbs_ioctl_object_find(UVERBS_OBJECT_DEVICE)->num_methods, 7);
}

static void uverbs_ioctl_spec_index_test(struct kunit *test)
{
	const struct uverbs_ioctl_method *qp, *iw;
	int ix;

	qp = uverbs_ioctl_method_find(UVERBS_OBJECT_DEVICE,
				      UVERBS_METHOD_QUERY_PORT);
	iw = uverbs_ioctl_method_find(UVERBS_OBJECT_DEVICE,
				      UVERBS_METHOD_INVOKE_WRITE);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_ASSERT_NOT_NULL(test, iw);
	ix = uverbs_ioctl_spec_index(qp, UVERBS_ATTR_QUERY_PORT_RESP);
	KUNIT_EXPECT_EQ(test, qp->attrs[ix].id, UVERBS_ATTR_QUERY_PORT_RESP);
	KUNIT_EXPECT_EQ(test, uverbs_ioctl_spec_index(qp, 2), -ENOENT);
	KUNIT_EXPECT_EQ(test, uverbs_ioctl_spec_index(qp, UVERBS_ATTR_UHW_IN),
			-ENOENT);
	KUNIT_EXPECT_GE(test, uverbs_ioctl_spec_index(iw, UVERBS_ATTR_UHW_OUT),
			0);
}

static struct kunit_case uverbs_ioctl_cases[] = {
	KUNIT_CASE_PARAM(uverbs_ioctl_hdr_test, hdr_gen_params),
	KUNIT_CASE_PARAM(uverbs_ioctl_attr_test, attr_gen_params),
	KUNIT_CASE_PARAM(uverbs_ioctl_method_test, method_gen_params),
	KUNIT_CASE_PARAM(uverbs_ioctl_parse_test, parse_gen_params),
	KUNIT_CASE(uverbs_ioctl_table_test),
	KUNIT_CASE(uverbs_ioctl_spec_index_test),
	{}
};

static struct kunit_suite uverbs_ioctl_suite = {
	.name = "ib_uverbs_ioctl",
	.test_cases = uverbs_ioctl_cases,
};

kunit_test_suite(uverbs_ioctl_suite);

MODULE_DESCRIPTION("KUnit: ib_uverbs RDMA_VERBS_IOCTL checks and spec table");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
