// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_cm_counters: the per-port counter files of ib_cm (their names,
 * their text) and how sends count.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sysfs.h>

#include "core/cm/cm.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The names are those 6.1's ib_cm gives its files under ports/<n>/,
 * written down here rather than taken from core/cm/cm_counters.c: a
 * directory per group, a file per CM message in attribute ID order
 * (0x10 .. 0x1a).
 */
static const char *const want_dirs[] = {
	"cm_tx_msgs", "cm_tx_retries", "cm_rx_msgs", "cm_rx_duplicates",
};

static const char *const want_files[] = {
	"req", "mra", "rej", "rep", "rtu", "dreq", "drep", "sidr_req",
	"sidr_rep", "lap", "apr",
};

static struct ib_port_attribute *file_of(unsigned int dir, unsigned int file)
{
	struct attribute *attr = cm_counters_groups[dir]->attrs[file];

	return container_of(attr, struct ib_port_attribute, attr);
}

/* Four read-only directories of eleven read-only files, in that order. */
static void cm_counters_layout_test(struct kunit *test)
{
	unsigned int d, f;

	for (d = 0; d < ARRAY_SIZE(want_dirs); d++) {
		const struct attribute_group *group = cm_counters_groups[d];

		KUNIT_ASSERT_NOT_NULL(test, group);
		KUNIT_EXPECT_STREQ(test, group->name, want_dirs[d]);
		for (f = 0; f < ARRAY_SIZE(want_files); f++) {
			struct ib_port_attribute *attr;

			KUNIT_ASSERT_NOT_NULL(test, group->attrs[f]);
			attr = file_of(d, f);
			KUNIT_EXPECT_STREQ(test, attr->attr.name, want_files[f]);
			KUNIT_EXPECT_EQ(test, attr->attr.mode, (umode_t)0444);
			KUNIT_EXPECT_NOT_NULL(test, attr->show);
			KUNIT_EXPECT_NULL(test, attr->store);
		}
		KUNIT_EXPECT_NULL(test, group->attrs[f]);
	}
	KUNIT_EXPECT_NULL(test, cm_counters_groups[d]);
}

/* A file reads its own counter of the port, in decimal, and a newline. */
static void cm_counters_format_test(struct kunit *test)
{
	struct cm_port *port = kunit_kzalloc(test, sizeof(*port), GFP_KERNEL);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, port);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	atomic_long_set(&port->counts[CM_COUNT_RX_DUP][CM_MSG_DREQ], 12345);
	atomic_long_set(&port->counts[CM_COUNT_TX][CM_MSG_APR], LONG_MAX);

	/* cm_rx_duplicates/dreq */
	KUNIT_EXPECT_EQ(test, cm_counters_format(port, file_of(3, 5), buf), 6L);
	KUNIT_EXPECT_STREQ(test, buf, "12345\n");
	/* cm_rx_msgs/dreq and cm_rx_duplicates/drep: other counters */
	KUNIT_EXPECT_EQ(test, cm_counters_format(port, file_of(2, 5), buf), 2L);
	KUNIT_EXPECT_STREQ(test, buf, "0\n");
	cm_counters_format(port, file_of(3, 6), buf);
	KUNIT_EXPECT_STREQ(test, buf, "0\n");
	/* cm_tx_msgs/apr */
	cm_counters_format(port, file_of(0, 10), buf);
	KUNIT_EXPECT_STREQ(test, buf, "9223372036854775807\n");
}

/* A sent MAD of @kind with @retries resends, for cm_counters_add_send(). */
static struct ib_mad_send_buf *sent(struct kunit *test, enum cm_msg_kind kind,
				    bool has_id, int retries)
{
	struct ib_mad_send_buf *buf = kunit_kzalloc(test, sizeof(*buf),
						    GFP_KERNEL);
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	cm_msg_hdr_init(&mad->mad_hdr, kind, cpu_to_be64(1));
	buf->mad = mad;
	buf->context[0] = has_id ? buf : NULL;
	buf->retries = retries;
	return buf;
}

static long count(struct cm_port *port, enum cm_count_group group,
		  enum cm_msg_kind kind)
{
	return atomic_long_read(&port->counts[group][kind]);
}

/*
 * 6.1's arithmetic: a message counts once per transmission in cm_tx_msgs
 * and once per resend in cm_tx_retries. An answer sent without a cm_id,
 * a REJ or SIDR REP excepted, repeats one sent before and counts as a
 * resend.
 */
static void cm_counters_add_send_test(struct kunit *test)
{
	struct cm_port *port = kunit_kzalloc(test, sizeof(*port), GFP_KERNEL);
	struct ib_mad_send_buf *other;

	KUNIT_ASSERT_NOT_NULL(test, port);
	/* A REQ sent and resent three times. */
	cm_counters_add_send(port, sent(test, CM_MSG_REQ, true, 3));
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX, CM_MSG_REQ), 4L);
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX_RETRIES, CM_MSG_REQ), 3L);
	/* An RTU of an id, once. */
	cm_counters_add_send(port, sent(test, CM_MSG_RTU, true, 0));
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX, CM_MSG_RTU), 1L);
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX_RETRIES, CM_MSG_RTU), 0L);
	/* The same RTU repeated for a duplicate REP: 6.1 counts 2 and 1. */
	cm_counters_add_send(port, sent(test, CM_MSG_RTU, false, 0));
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX, CM_MSG_RTU), 3L);
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX_RETRIES, CM_MSG_RTU), 1L);
	/* A REJ without an id (no listener) is sent for the first time. */
	cm_counters_add_send(port, sent(test, CM_MSG_REJ, false, 0));
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX, CM_MSG_REJ), 1L);
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX_RETRIES, CM_MSG_REJ), 0L);
	/* Nor is a SIDR REP without an id (nobody listens: "unsupported"). */
	cm_counters_add_send(port, sent(test, CM_MSG_SIDR_REP, false, 0));
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX, CM_MSG_SIDR_REP), 1L);
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX_RETRIES, CM_MSG_SIDR_REP),
			0L);
	/* No CM attribute: nothing counts. */
	other = sent(test, CM_MSG_REQ, true, 0);
	((struct ib_mad_hdr *)other->mad)->attr_id = cpu_to_be16(0x30);
	cm_counters_add_send(port, other);
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_TX, CM_MSG_REQ), 4L);
	/* Received messages are not the send side's business. */
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_RX, CM_MSG_RTU), 0L);
	KUNIT_EXPECT_EQ(test, count(port, CM_COUNT_RX_DUP, CM_MSG_RTU), 0L);
}

static struct kunit_case cm_counters_cases[] = {
	KUNIT_CASE(cm_counters_layout_test),
	KUNIT_CASE(cm_counters_format_test),
	KUNIT_CASE(cm_counters_add_send_test),
	{}
};

static struct kunit_suite cm_counters_suite = {
	.name = "ib_cm_counters",
	.test_cases = cm_counters_cases,
};

kunit_test_suites(&cm_counters_suite);

MODULE_DESCRIPTION("KUnit tests of ib_cm's per-port counters");
MODULE_LICENSE("GPL");
