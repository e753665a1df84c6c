// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_ucm_cmd: the write() command table and length check of
 * core/ucma/ucma_cmd_table.c.
 */
/*
 * The expected rows are 6.1's rdma_ucm ABI as librdmacm is written
 * against it: the uapi structure each command reads, the response room
 * each one demands before it acts, which commands name an id and which
 * need that id bound to a device. They are spelled out per command here,
 * not read back from the table under test.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/rdma_user_cm.h>

#include "core/ucma/ucma.h"

#define OUT_ANY		U32_MAX
#define GROWN(type)	offsetofend(type, reserved)
#define EVENT_MIN	(sizeof(struct rdma_ucm_event_resp) -		\
			 sizeof_field(struct rdma_ucm_event_resp, reserved) - \
			 sizeof_field(struct rdma_ucm_event_resp, ece))

struct cmd_case {
	const char *name;
	u32 cmd;
	bool handler;		/* false: the ABI number no kernel runs */
	size_t size;		/* the uapi command structure */
	size_t in_min;		/* 0: read whole, whatever the header says */
	size_t out_min;		/* response room demanded up front */
	enum ucma_find find;
	size_t id_off;		/* where the id sits, when find names one */
};

#define ROW(n, type, inmin, outmin, how)				\
	{ #n, RDMA_USER_CM_CMD_##n, true, sizeof(type), inmin, outmin,	\
	  how, offsetof(type, id) }
#define ROW_NOID(n, type, outmin)					\
	{ #n, RDMA_USER_CM_CMD_##n, true, sizeof(type), 0, outmin,	\
	  UCMA_FIND_NONE, 0 }

static const struct cmd_case cmd_cases[] = {
	ROW_NOID(CREATE_ID, struct rdma_ucm_create_id,
		 sizeof(struct rdma_ucm_create_id_resp)),
	/* 6.1 looks the id up itself: it must leave the table's xarray */
	ROW(DESTROY_ID, struct rdma_ucm_destroy_id, 0,
	    sizeof(struct rdma_ucm_destroy_id_resp), UCMA_FIND_NONE),
	ROW(BIND_IP, struct rdma_ucm_bind_ip, 0, 0, UCMA_FIND_ID),
	ROW(RESOLVE_IP, struct rdma_ucm_resolve_ip, 0, 0, UCMA_FIND_ID),
	ROW(RESOLVE_ROUTE, struct rdma_ucm_resolve_route, 0, 0,
	    UCMA_FIND_BOUND),
	ROW(QUERY_ROUTE, struct rdma_ucm_query, 0,
	    offsetof(struct rdma_ucm_query_route_resp, ibdev_index),
	    UCMA_FIND_ID),
	ROW(CONNECT, struct rdma_ucm_connect,
	    GROWN(struct rdma_ucm_connect), 0, UCMA_FIND_BOUND),
	ROW(LISTEN, struct rdma_ucm_listen, 0, 0, UCMA_FIND_ID),
	ROW(ACCEPT, struct rdma_ucm_accept, GROWN(struct rdma_ucm_accept), 0,
	    UCMA_FIND_BOUND),
	ROW(REJECT, struct rdma_ucm_reject, 0, 0, UCMA_FIND_BOUND),
	ROW(DISCONNECT, struct rdma_ucm_disconnect, 0, 0, UCMA_FIND_BOUND),
	ROW(INIT_QP_ATTR, struct rdma_ucm_init_qp_attr, 0,
	    sizeof(struct ib_uverbs_qp_attr), UCMA_FIND_BOUND),
	ROW_NOID(GET_EVENT, struct rdma_ucm_get_event, EVENT_MIN),
	{ "GET_OPTION", RDMA_USER_CM_CMD_GET_OPTION, false },
	ROW(SET_OPTION, struct rdma_ucm_set_option, 0, 0, UCMA_FIND_ID),
	ROW(NOTIFY, struct rdma_ucm_notify, 0, 0, UCMA_FIND_ID),
	/* joins check their response room and find a bound id themselves */
	ROW(JOIN_IP_MCAST, struct rdma_ucm_join_ip_mcast, 0, 0,
	    UCMA_FIND_NONE),
	ROW(LEAVE_MCAST, struct rdma_ucm_destroy_id, 0,
	    sizeof(struct rdma_ucm_destroy_id_resp), UCMA_FIND_NONE),
	/* the id belongs to another file, named by the command's fd */
	ROW(MIGRATE_ID, struct rdma_ucm_migrate_id, 0, 0, UCMA_FIND_NONE),
	/* each QUERY option checks its own response room */
	ROW(QUERY, struct rdma_ucm_query, 0, 0, UCMA_FIND_ID),
	ROW(BIND, struct rdma_ucm_bind, 0, 0, UCMA_FIND_ID),
	ROW(RESOLVE_ADDR, struct rdma_ucm_resolve_addr, 0, 0, UCMA_FIND_ID),
	ROW(JOIN_MCAST, struct rdma_ucm_join_mcast, 0, 0, UCMA_FIND_NONE),
};

static void cmd_case_desc(const struct cmd_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmd, cmd_cases, cmd_case_desc);

/* Every number up to JOIN_MCAST has a row; its facts are 6.1's. */
static void ucma_cmd_row_test(struct kunit *test)
{
	const struct cmd_case *c = test->param_value;
	const struct ucma_cmd_desc *d = ucma_cmd_lookup(c->cmd);

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(d));
	KUNIT_EXPECT_EQ(test, !!d->run, c->handler);
	if (!c->handler)
		return;
	KUNIT_EXPECT_EQ(test, (size_t)d->size, c->size);
	KUNIT_EXPECT_EQ(test, (size_t)d->in_min, c->in_min);
	KUNIT_EXPECT_EQ(test, (size_t)d->out_min, c->out_min);
	KUNIT_EXPECT_EQ(test, d->find, c->find);
	if (c->find != UCMA_FIND_NONE)
		KUNIT_EXPECT_EQ(test, (size_t)d->id_off, c->id_off);
}

/*
 * The length check against each command: response room first, then the
 * header's in for the commands that grew, else the whole structure.
 */
static void ucma_cmd_len_test(struct kunit *test)
{
	const struct cmd_case *c = test->param_value;
	const struct ucma_cmd_desc *d = ucma_cmd_lookup(c->cmd);
	int whole = c->size;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(d));
	if (!c->handler)
		return;
	if (c->out_min) {
		KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->size,
							c->out_min - 1),
				-ENOSPC);
		KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->size, 0),
				-ENOSPC);
	}
	KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->size, c->out_min),
			whole);
	KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->size + 64, OUT_ANY),
			whole);
	if (!c->in_min) {
		/* 6.1 reads these whole, even past a short header in */
		KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, 0, OUT_ANY), whole);
		KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->size - 1,
							OUT_ANY), whole);
		return;
	}
	KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, 0, OUT_ANY), -EINVAL);
	KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->in_min - 1, OUT_ANY),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->in_min, OUT_ANY),
			(int)c->in_min);
	KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, c->size - 1, OUT_ANY),
			whole - 1);
	/* too short for both ECE and room for it: ENOSPC wins */
	if (c->out_min)
		KUNIT_EXPECT_EQ(test, ucma_cmd_copy_len(d, 0, 0), -ENOSPC);
}

/* The grown commands are exactly 6.1's two: CONNECT and ACCEPT. */
static void ucma_cmd_grown_test(struct kunit *test)
{
	KUNIT_EXPECT_LT(test, GROWN(struct rdma_ucm_connect),
			sizeof(struct rdma_ucm_connect));
	KUNIT_EXPECT_LT(test, GROWN(struct rdma_ucm_accept),
			sizeof(struct rdma_ucm_accept));
}

static void ucma_cmd_range_test(struct kunit *test)
{
	static const u32 bad[] = {
		RDMA_USER_CM_CMD_JOIN_MCAST + 1, 0x100, S32_MAX, U32_MAX,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ(test, PTR_ERR(ucma_cmd_lookup(bad[i])),
				(long)-EINVAL);
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(cmd_cases),
			(size_t)RDMA_USER_CM_CMD_JOIN_MCAST + 1);
}

static struct kunit_case ucma_cmd_cases[] = {
	KUNIT_CASE_PARAM(ucma_cmd_row_test, cmd_gen_params),
	KUNIT_CASE_PARAM(ucma_cmd_len_test, cmd_gen_params),
	KUNIT_CASE(ucma_cmd_grown_test),
	KUNIT_CASE(ucma_cmd_range_test),
	{}
};

static struct kunit_suite ucma_cmd_suite = {
	.name = "rdma_ucm_cmd",
	.test_cases = ucma_cmd_cases,
};

kunit_test_suite(ucma_cmd_suite);

MODULE_DESCRIPTION("KUnit: rdma_ucm write() command table and length check");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
