// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_uverbs_write: the write() command table and header checks of
 * core/uverbs/uverbs_write.c and uverbs_cmd_table.c.
 */
/*
 * The expected errnos are those libibverbs is written against (6.1's):
 * they are spelled out here per case, not derived from the table.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "core/uverbs/uverbs.h"

#define EXT	IB_USER_VERBS_CMD_FLAG_EXTENDED

/* ---- The table ----------------------------------------------------------- */

struct lookup_case {
	const char *name;
	u32 command;
	int err;		/* ERR_PTR of the lookup, or 0 for a row */
	bool implemented;	/* the row has a handler */
	bool is_ex;
};

static const struct lookup_case lookup_cases[] = {
	{ "GET_CONTEXT", IB_USER_VERBS_CMD_GET_CONTEXT, 0, true, false },
	{ "QUERY_DEVICE", IB_USER_VERBS_CMD_QUERY_DEVICE, 0, true, false },
	{ "QUERY_PORT", IB_USER_VERBS_CMD_QUERY_PORT, 0, true, false },
	{ "ALLOC_PD", IB_USER_VERBS_CMD_ALLOC_PD, 0, true, false },
	{ "DEALLOC_PD", IB_USER_VERBS_CMD_DEALLOC_PD, 0, true, false },
	{ "REG_MR", IB_USER_VERBS_CMD_REG_MR, 0, true, false },
	{ "REREG_MR", IB_USER_VERBS_CMD_REREG_MR, 0, true, false },
	{ "DEREG_MR", IB_USER_VERBS_CMD_DEREG_MR, 0, true, false },
	{ "ALLOC_MW", IB_USER_VERBS_CMD_ALLOC_MW, 0, true, false },
	{ "DEALLOC_MW", IB_USER_VERBS_CMD_DEALLOC_MW, 0, true, false },
	{ "CREATE_COMP_CHANNEL", IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, 0,
	  true, false },
	{ "CREATE_CQ", IB_USER_VERBS_CMD_CREATE_CQ, 0, true, false },
	{ "RESIZE_CQ", IB_USER_VERBS_CMD_RESIZE_CQ, 0, true, false },
	{ "POLL_CQ", IB_USER_VERBS_CMD_POLL_CQ, 0, true, false },
	{ "REQ_NOTIFY_CQ", IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, 0, true, false },
	{ "DESTROY_CQ", IB_USER_VERBS_CMD_DESTROY_CQ, 0, true, false },
	{ "EX QUERY_DEVICE", EXT | IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 0,
	  true, true },
	{ "EX CREATE_CQ", EXT | IB_USER_VERBS_EX_CMD_CREATE_CQ, 0, true, true },
	{ "CREATE_QP", IB_USER_VERBS_CMD_CREATE_QP, 0, true, false },
	{ "QUERY_QP", IB_USER_VERBS_CMD_QUERY_QP, 0, true, false },
	{ "MODIFY_QP", IB_USER_VERBS_CMD_MODIFY_QP, 0, true, false },
	{ "DESTROY_QP", IB_USER_VERBS_CMD_DESTROY_QP, 0, true, false },
	{ "POST_SEND", IB_USER_VERBS_CMD_POST_SEND, 0, true, false },
	{ "CREATE_AH", IB_USER_VERBS_CMD_CREATE_AH, 0, true, false },
	{ "DESTROY_AH", IB_USER_VERBS_CMD_DESTROY_AH, 0, true, false },
	{ "ATTACH_MCAST", IB_USER_VERBS_CMD_ATTACH_MCAST, 0, true, false },
	{ "DETACH_MCAST", IB_USER_VERBS_CMD_DETACH_MCAST, 0, true, false },
	{ "EX CREATE_QP", EXT | IB_USER_VERBS_EX_CMD_CREATE_QP, 0, true, true },
	{ "EX MODIFY_QP", EXT | IB_USER_VERBS_EX_CMD_MODIFY_QP, 0, true, true },
	/* defined by the ABI, not implemented yet */
	{ "POST_RECV", IB_USER_VERBS_CMD_POST_RECV, 0, false, false },
	{ "OPEN_QP", IB_USER_VERBS_CMD_OPEN_QP, 0, false, false },
	{ "EX MODIFY_CQ", EXT | IB_USER_VERBS_EX_CMD_MODIFY_CQ, 0, false,
	  true },
	{ "EX number 0", EXT | 0, 0, false, true },
	/* past every number the ABI has */
	{ "legacy 0xff", 0xff, -EOPNOTSUPP },
	{ "legacy 0x80", 0x80, -EOPNOTSUPP },
	{ "EX 0xff", EXT | 0xff, -EOPNOTSUPP },
	/* bits between the command number and the flag */
	{ "bit 8", 0x100 | IB_USER_VERBS_CMD_QUERY_DEVICE, -EINVAL },
	{ "bit 30", 0x40000000, -EINVAL },
	{ "EX with bit 16", EXT | 0x10000 | 3, -EINVAL },
	{ "all ones", 0xffffffff, -EINVAL },
};

static void lookup_case_desc(const struct lookup_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lookup, lookup_cases, lookup_case_desc);

static void uverbs_cmd_lookup_test(struct kunit *test)
{
	const struct lookup_case *c = test->param_value;
	const struct uverbs_cmd *cmd = uverbs_cmd_lookup(c->command);

	if (c->err) {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cmd), c->err);
		return;
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(cmd));
	KUNIT_EXPECT_EQ(test, !!cmd->handler, c->implemented);
	KUNIT_EXPECT_EQ(test, (bool)cmd->is_ex, c->is_ex);
}

static int fake_query_port(struct ib_device *dev, u32 port,
			   struct ib_port_attr *attr)
{
	return 0;
}

/* A row without a handler, or whose driver op is missing, is not run. */
static void uverbs_cmd_supported_test(struct kunit *test)
{
	struct ib_device *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	const struct uverbs_cmd *port, *ctx, *cq;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	port = uverbs_cmd_lookup(IB_USER_VERBS_CMD_QUERY_PORT);
	ctx = uverbs_cmd_lookup(IB_USER_VERBS_CMD_GET_CONTEXT);
	cq = uverbs_cmd_lookup(IB_USER_VERBS_CMD_CREATE_CQ);

	KUNIT_EXPECT_FALSE(test, uverbs_cmd_supported(port, dev));
	KUNIT_EXPECT_TRUE(test, uverbs_cmd_supported(ctx, dev));
	KUNIT_EXPECT_FALSE(test, uverbs_cmd_supported(cq, dev));
	dev->ops.query_port = fake_query_port;
	KUNIT_EXPECT_TRUE(test, uverbs_cmd_supported(port, dev));
	KUNIT_EXPECT_FALSE(test, uverbs_cmd_supported(cq, dev));
}

static struct ib_mr *fake_rereg(struct ib_mr *mr, int flags, u64 start,
				u64 length, u64 virt_addr, int access,
				struct ib_pd *pd, struct ib_udata *udata)
{
	return NULL;
}

/*
 * REREG_MR as 6.1 declares it: a 48-byte request (response address,
 * handle, flags, start, length, hca_va, PD handle, access), an 8-byte
 * response (lkey, rkey), driver data after both; offered only by a
 * driver with rereg_user_mr.
 */
static void uverbs_cmd_rereg_mr_row_test(struct kunit *test)
{
	struct ib_device *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	const struct uverbs_cmd *cmd = uverbs_cmd_lookup(IB_USER_VERBS_CMD_REREG_MR);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(cmd));
	KUNIT_EXPECT_EQ(test, IB_USER_VERBS_CMD_REREG_MR, 11);
	KUNIT_EXPECT_EQ(test, cmd->req_size, 48);
	KUNIT_EXPECT_EQ(test, cmd->resp_size, 8);
	KUNIT_EXPECT_TRUE(test, cmd->has_resp);
	KUNIT_EXPECT_TRUE(test, cmd->has_udata);
	KUNIT_EXPECT_FALSE(test, cmd->is_ex);
	KUNIT_EXPECT_FALSE(test, uverbs_cmd_supported(cmd, dev));
	dev->ops.rereg_user_mr = fake_rereg;
	KUNIT_EXPECT_TRUE(test, uverbs_cmd_supported(cmd, dev));
}

/* ---- Legacy headers ------------------------------------------------------ */

/*
 * QUERY_PORT: a 16-byte request (response address, port, padding) and a
 * 40-byte response, no driver data.
 */
#define PORT_REQ	sizeof(struct ib_uverbs_query_port)
#define PORT_RESP	sizeof(struct ib_uverbs_query_port_resp)
#define HDR		sizeof(struct ib_uverbs_cmd_hdr)

struct legacy_case {
	const char *name;
	u32 command;
	u16 in_words;
	u16 out_words;
	size_t count;
	int err;
};

static const struct legacy_case legacy_cases[] = {
	{ "exact", IB_USER_VERBS_CMD_QUERY_PORT, (HDR + PORT_REQ) / 4,
	  PORT_RESP / 4, HDR + PORT_REQ, 0 },
	{ "more response room", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4, PORT_RESP / 4 + 10, HDR + PORT_REQ, 0 },
	{ "longer request, counted", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4 + 2, PORT_RESP / 4, HDR + PORT_REQ + 8, 0 },
	{ "in_words above count", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4 + 1, PORT_RESP / 4, HDR + PORT_REQ, -EINVAL },
	{ "in_words below count", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4 - 1, PORT_RESP / 4, HDR + PORT_REQ, -EINVAL },
	{ "count not a word multiple", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4, PORT_RESP / 4, HDR + PORT_REQ + 1, -EINVAL },
	{ "short request", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4 - 1, PORT_RESP / 4, HDR + PORT_REQ - 4,
	  -ENOSPC },
	{ "header only", IB_USER_VERBS_CMD_QUERY_PORT, HDR / 4, PORT_RESP / 4,
	  HDR, -ENOSPC },
	{ "short response room", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4, PORT_RESP / 4 - 1, HDR + PORT_REQ, -ENOSPC },
	{ "no response room", IB_USER_VERBS_CMD_QUERY_PORT,
	  (HDR + PORT_REQ) / 4, 0, HDR + PORT_REQ, -ENOSPC },
	/* DEALLOC_PD: a 4-byte request, nothing back */
	{ "no response needed", IB_USER_VERBS_CMD_DEALLOC_PD, (HDR + 4) / 4, 0,
	  HDR + 4, 0 },
	{ "no request body", IB_USER_VERBS_CMD_DEALLOC_PD, HDR / 4, 0, HDR,
	  -ENOSPC },
	/* an unimplemented command still has its header checked */
	{ "unimplemented, any size", IB_USER_VERBS_CMD_POST_RECV, HDR / 4, 0,
	  HDR, 0 },
	{ "unimplemented, bad count", IB_USER_VERBS_CMD_POST_RECV, HDR / 4, 0,
	  HDR + 4, -EINVAL },
};

static void legacy_case_desc(const struct legacy_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(legacy, legacy_cases, legacy_case_desc);

static void uverbs_hdr_legacy_test(struct kunit *test)
{
	const struct legacy_case *c = test->param_value;
	struct ib_uverbs_cmd_hdr hdr = {
		.command = c->command, .in_words = c->in_words,
		.out_words = c->out_words,
	};
	struct ib_uverbs_ex_cmd_hdr ex = {};
	const struct uverbs_cmd *cmd = uverbs_cmd_lookup(c->command);

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(cmd));
	KUNIT_EXPECT_EQ(test, uverbs_cmd_hdr_check(&hdr, &ex, c->count, cmd),
			c->err);
}

/* ---- Extended headers ---------------------------------------------------- */

/*
 * EX_QUERY_DEVICE: the request every caller sends is comp_mask and
 * reserved (8 bytes, one word); the response up to response_length.
 */
#define EXHDR		(HDR + sizeof(struct ib_uverbs_ex_cmd_hdr))
#define EXQ_REQ_WORDS	1
#define EXQ_RESP_MIN	\
	offsetofend(struct ib_uverbs_ex_query_device_resp, response_length)
#define EXQ_RESP_WORDS	(EXQ_RESP_MIN / 8)
/* any address below the user/kernel split passes access_ok() */
#define USER_ADDR	0x10000ULL
#define KERNEL_ADDR	0xffff888000000000ULL

struct ex_case {
	const char *name;
	u16 in_words;
	u16 out_words;
	u16 prov_in;
	u16 prov_out;
	u64 response;
	u32 reserved;
	size_t count;
	int err;
};

static const struct ex_case ex_cases[] = {
	{ "exact", EXQ_REQ_WORDS, EXQ_RESP_WORDS, 0, 0, USER_ADDR, 0,
	  EXHDR + 8, 0 },
	{ "with driver data", EXQ_REQ_WORDS, EXQ_RESP_WORDS, 2, 3, USER_ADDR,
	  0, EXHDR + 8 + 16, 0 },
	{ "no response at all", EXQ_REQ_WORDS, 0, 0, 0, 0, 0, EXHDR + 8, 0 },
	{ "shorter than both headers", EXQ_REQ_WORDS, EXQ_RESP_WORDS, 0, 0,
	  USER_ADDR, 0, EXHDR - 8, -EINVAL },
	{ "words above count", EXQ_REQ_WORDS + 1, EXQ_RESP_WORDS, 0, 0,
	  USER_ADDR, 0, EXHDR + 8, -EINVAL },
	{ "driver words above count", EXQ_REQ_WORDS, EXQ_RESP_WORDS, 1, 0,
	  USER_ADDR, 0, EXHDR + 8, -EINVAL },
	{ "short request", 0, EXQ_RESP_WORDS, 0, 0, USER_ADDR, 0, EXHDR,
	  -ENOSPC },
	{ "reserved set", EXQ_REQ_WORDS, EXQ_RESP_WORDS, 0, 0, USER_ADDR, 1,
	  EXHDR + 8, -EINVAL },
	{ "address without room", EXQ_REQ_WORDS, 0, 0, 0, USER_ADDR, 0,
	  EXHDR + 8, -EINVAL },
	{ "room without address", EXQ_REQ_WORDS, EXQ_RESP_WORDS, 0, 0, 0, 0,
	  EXHDR + 8, -EINVAL },
	{ "driver room without address", EXQ_REQ_WORDS, 0, 0, 1, 0, 0,
	  EXHDR + 8, -EINVAL },
	{ "short response room", EXQ_REQ_WORDS, EXQ_RESP_WORDS - 1, 0, 0,
	  USER_ADDR, 0, EXHDR + 8, -ENOSPC },
	{ "response in kernel memory", EXQ_REQ_WORDS, EXQ_RESP_WORDS, 0, 0,
	  KERNEL_ADDR, 0, EXHDR + 8, -EFAULT },
};

static void ex_case_desc(const struct ex_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ex, ex_cases, ex_case_desc);

static void uverbs_hdr_ex_test(struct kunit *test)
{
	const struct ex_case *c = test->param_value;
	u32 command = EXT | IB_USER_VERBS_EX_CMD_QUERY_DEVICE;
	struct ib_uverbs_cmd_hdr hdr = {
		.command = command, .in_words = c->in_words,
		.out_words = c->out_words,
	};
	struct ib_uverbs_ex_cmd_hdr ex = {
		.response = c->response, .provider_in_words = c->prov_in,
		.provider_out_words = c->prov_out,
		.cmd_hdr_reserved = c->reserved,
	};
	const struct uverbs_cmd *cmd = uverbs_cmd_lookup(command);

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(cmd));
	KUNIT_EXPECT_EQ(test, uverbs_cmd_hdr_check(&hdr, &ex, c->count, cmd),
			c->err);
}

static struct kunit_case uverbs_write_cases[] = {
	KUNIT_CASE_PARAM(uverbs_cmd_lookup_test, lookup_gen_params),
	KUNIT_CASE(uverbs_cmd_supported_test),
	KUNIT_CASE(uverbs_cmd_rereg_mr_row_test),
	KUNIT_CASE_PARAM(uverbs_hdr_legacy_test, legacy_gen_params),
	KUNIT_CASE_PARAM(uverbs_hdr_ex_test, ex_gen_params),
	{}
};

static struct kunit_suite uverbs_write_suite = {
	.name = "ib_uverbs_write",
	.test_cases = uverbs_write_cases,
};

kunit_test_suite(uverbs_write_suite);

MODULE_DESCRIPTION("KUnit: ib_uverbs write() command table and headers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
