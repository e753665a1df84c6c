// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_strings: event and completion status names of core/verbs/strings.c. */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#define NO_EVENT_NAME	"unrecognized event"
#define NO_STATUS_NAME	"unrecognized status"

/**
 * struct named_value - an enumerator, its ABI value and its 6.1 text
 * @value: the enumerator
 * @code: the number it must have
 * @ident: its spelling, for test descriptions
 * @text: what the _msg() function must return for it
 */
struct named_value {
	int value;
	int code;
	const char *ident;
	const char *text;
};

#define EVENT(name, code, text)	{ IB_EVENT_##name, code, #name, text }
#define STATUS(name, code, text) { IB_WC_##name, code, #name, text }

static const struct named_value events[] = {
	EVENT(CQ_ERR,			 0, "CQ error"),
	EVENT(QP_FATAL,			 1, "QP fatal error"),
	EVENT(QP_REQ_ERR,		 2, "QP request error"),
	EVENT(QP_ACCESS_ERR,		 3, "QP access error"),
	EVENT(COMM_EST,			 4, "communication established"),
	EVENT(SQ_DRAINED,		 5, "send queue drained"),
	EVENT(PATH_MIG,			 6, "path migration successful"),
	EVENT(PATH_MIG_ERR,		 7, "path migration error"),
	EVENT(DEVICE_FATAL,		 8, "device fatal error"),
	EVENT(PORT_ACTIVE,		 9, "port active"),
	EVENT(PORT_ERR,			10, "port error"),
	EVENT(LID_CHANGE,		11, "LID change"),
	EVENT(PKEY_CHANGE,		12, "P_key change"),
	EVENT(SM_CHANGE,		13, "SM change"),
	EVENT(SRQ_ERR,			14, "SRQ error"),
	EVENT(SRQ_LIMIT_REACHED,	15, "SRQ limit reached"),
	EVENT(QP_LAST_WQE_REACHED,	16, "last WQE reached"),
	EVENT(CLIENT_REREGISTER,	17, "client reregister"),
	EVENT(GID_CHANGE,		18, "GID changed"),
	/* 6.1 has no text for this one and answers with the fallback. */
	EVENT(WQ_FATAL,			19, NO_EVENT_NAME),
};

static const struct named_value statuses[] = {
	STATUS(SUCCESS,			 0, "success"),
	STATUS(LOC_LEN_ERR,		 1, "local length error"),
	STATUS(LOC_QP_OP_ERR,		 2, "local QP operation error"),
	STATUS(LOC_EEC_OP_ERR,		 3, "local EE context operation error"),
	STATUS(LOC_PROT_ERR,		 4, "local protection error"),
	STATUS(WR_FLUSH_ERR,		 5, "WR flushed"),
	STATUS(MW_BIND_ERR,		 6, "memory bind operation error"),
	STATUS(BAD_RESP_ERR,		 7, "bad response error"),
	STATUS(LOC_ACCESS_ERR,		 8, "local access error"),
	STATUS(REM_INV_REQ_ERR,		 9, "remote invalid request error"),
	STATUS(REM_ACCESS_ERR,		10, "remote access error"),
	STATUS(REM_OP_ERR,		11, "remote operation error"),
	STATUS(RETRY_EXC_ERR,		12, "transport retry counter exceeded"),
	STATUS(RNR_RETRY_EXC_ERR,	13, "RNR retry counter exceeded"),
	STATUS(LOC_RDD_VIOL_ERR,	14, "local RDD violation error"),
	STATUS(REM_INV_RD_REQ_ERR,	15, "remote invalid RD request"),
	STATUS(REM_ABORT_ERR,		16, "operation aborted"),
	STATUS(INV_EECN_ERR,		17, "invalid EE context number"),
	STATUS(INV_EEC_STATE_ERR,	18, "invalid EE context state"),
	STATUS(FATAL_ERR,		19, "fatal error"),
	STATUS(RESP_TIMEOUT_ERR,	20, "response timeout error"),
	STATUS(GENERAL_ERR,		21, "general error"),
};

static void named_value_desc(const struct named_value *nv, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", nv->ident);
}

KUNIT_ARRAY_PARAM(events, events, named_value_desc);
KUNIT_ARRAY_PARAM(statuses, statuses, named_value_desc);

static void event_msg_test(struct kunit *test)
{
	const struct named_value *nv = test->param_value;

	KUNIT_EXPECT_EQ(test, nv->value, nv->code);
	KUNIT_EXPECT_STREQ(test, ib_event_msg((enum ib_event_type)nv->value), nv->text);
}

static void wc_status_msg_test(struct kunit *test)
{
	const struct named_value *nv = test->param_value;

	KUNIT_EXPECT_EQ(test, nv->value, nv->code);
	KUNIT_EXPECT_STREQ(test, ib_wc_status_msg((enum ib_wc_status)nv->value), nv->text);
}

/* Just past the last enumerator, further out, and negative. */
static const int bad_events[] = { 20, 21, 32, 255, 0x10000, INT_MAX, -1, INT_MIN };
static const int bad_statuses[] = { 22, 23, 32, 255, 0x10000, INT_MAX, -1, INT_MIN };

static void int_desc(const int *value, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%d", *value);
}

KUNIT_ARRAY_PARAM(bad_events, bad_events, int_desc);
KUNIT_ARRAY_PARAM(bad_statuses, bad_statuses, int_desc);

static void event_msg_unknown_test(struct kunit *test)
{
	int value = *(const int *)test->param_value;

	KUNIT_EXPECT_STREQ(test, ib_event_msg((enum ib_event_type)value), NO_EVENT_NAME);
}

static void wc_status_msg_unknown_test(struct kunit *test)
{
	int value = *(const int *)test->param_value;

	KUNIT_EXPECT_STREQ(test, ib_wc_status_msg((enum ib_wc_status)value), NO_STATUS_NAME);
}

/* The text @list holds for @value, or @fallback if it is not listed. */
static const char *listed_text(const struct named_value *list, size_t count,
			       int value, const char *fallback)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (list[i].value == value)
			return list[i].text;
	return fallback;
}

/* Every value from -64 to 1023 gives its listed text or the fallback. */
static void event_msg_sweep_test(struct kunit *test)
{
	const char *msg;
	int v;

	for (v = -64; v < 1024; v++) {
		msg = ib_event_msg((enum ib_event_type)v);
		KUNIT_ASSERT_NOT_NULL_MSG(test, msg, "event %d", v);
		KUNIT_EXPECT_STREQ_MSG(test, msg,
				       listed_text(events, ARRAY_SIZE(events), v, NO_EVENT_NAME),
				       "event %d", v);
	}
}

static void wc_status_msg_sweep_test(struct kunit *test)
{
	const char *msg;
	int v;

	for (v = -64; v < 1024; v++) {
		msg = ib_wc_status_msg((enum ib_wc_status)v);
		KUNIT_ASSERT_NOT_NULL_MSG(test, msg, "status %d", v);
		KUNIT_EXPECT_STREQ_MSG(test, msg,
				       listed_text(statuses, ARRAY_SIZE(statuses), v,
						   NO_STATUS_NAME),
				       "status %d", v);
	}
}

static struct kunit_case ib_core_strings_cases[] = {
	KUNIT_CASE_PARAM(event_msg_test, events_gen_params),
	KUNIT_CASE_PARAM(wc_status_msg_test, statuses_gen_params),
	KUNIT_CASE_PARAM(event_msg_unknown_test, bad_events_gen_params),
	KUNIT_CASE_PARAM(wc_status_msg_unknown_test, bad_statuses_gen_params),
	KUNIT_CASE(event_msg_sweep_test),
	KUNIT_CASE(wc_status_msg_sweep_test),
	{}
};

static struct kunit_suite ib_core_strings_suite = {
	.name = "ib_core_strings",
	.test_cases = ib_core_strings_cases,
};

kunit_test_suite(ib_core_strings_suite);

MODULE_DESCRIPTION("KUnit tests for the ib_core event and status names");
MODULE_LICENSE("GPL");
