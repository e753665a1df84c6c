// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_sa_query: SA queries over the MAD layer of a mock port,
 * from request to callback (core/mad/sa_query.c).
 */
/*
 * The test plays the subnet manager: it reads the request the SA client
 * posted on QP1 of the mock (the mock transmits every send at once),
 * delivers an answer (or none) on QP1, and checks what the caller's
 * callback gets.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>

#include "kunit/mad/sa_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define PR_ATTR		0x35
#define PR_BYTES	64

/* What a path callback got. */
struct path_result {
	struct completion done;
	int calls;
	int status;
	int num;
	struct sa_path_rec rec;
};

static void path_cb(int status, struct sa_path_rec *resp, int num,
		    void *context)
{
	struct path_result *r = context;

	r->calls++;
	r->status = status;
	r->num = num;
	if (resp)
		r->rec = *resp;
	complete(&r->done);
}

static void ib_dst(struct sa_path_rec *rec, u16 dlid)
{
	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	rec->dgid = mock_ibdev_gid(1, 5);
	rec->sgid = mock_ibdev_gid(1, 0);
	rec->ib.dlid = cpu_to_be16(dlid);
	rec->pkey = cpu_to_be16(0xffff);
	rec->numb_path = 1;
}

#define PR_MASK (IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID | \
		 IB_SA_PATH_REC_PKEY | IB_SA_PATH_REC_NUMB_PATH)

/* Start a PathRecord query for the fixture's port; returns its id. */
static int start_path(struct kunit *test, struct ib_sa_client *client,
		      unsigned long timeout_ms, struct path_result *r,
		      struct ib_sa_query **q)
{
	struct sa_fix *fix = test->priv;
	struct sa_path_rec rec;

	ib_dst(&rec, 0);
	init_completion(&r->done);
	return ib_sa_path_rec_get(client, &fix->mdev->ibdev, SA_FIX_PORT,
				  &rec, PR_MASK, timeout_ms, GFP_KERNEL,
				  path_cb, r, q);
}

static bool wait_cb(struct path_result *r)
{
	return wait_for_completion_timeout(&r->done, SA_FIX_WAIT);
}

static int sa_query_test_init(struct kunit *test)
{
	sa_fix_setup(test);
	return 0;
}

static void sa_query_test_exit(struct kunit *test)
{
	mock_ibdev_cleanup_all();
}

/* The request on the wire, and a good answer delivered to the caller. */
static void path_answered_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct path_result *r =
		kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	const struct rdma_ah_attr *ah;
	struct mock_sent_wr *req =
		kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	const struct ib_sa_mad *mad;
	struct sa_path_rec answer, asked;
	struct ib_sa_query *q;
	u8 wire[PR_BYTES];
	int id;

	ib_sa_register_client(&client);
	id = start_path(test, &client, 1000, r, &q);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_TRUE(test, sa_fix_wait_sent(fix, 1));
	KUNIT_ASSERT_TRUE(test, sa_fix_sent(fix, 0, req));

	mad = (const void *)req->mad;
	KUNIT_EXPECT_EQ(test, mad->mad_hdr.base_version, 1);
	KUNIT_EXPECT_EQ(test, mad->mad_hdr.mgmt_class, IB_MGMT_CLASS_SUBN_ADM);
	KUNIT_EXPECT_EQ(test, mad->mad_hdr.class_version, 2);
	KUNIT_EXPECT_EQ(test, mad->mad_hdr.method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(mad->mad_hdr.attr_id), PR_ATTR);
	KUNIT_EXPECT_EQ(test, (u32)(be64_to_cpu(mad->mad_hdr.tid) >> 32),
			fix->port->agent->hi_tid);
	KUNIT_EXPECT_EQ(test, be64_to_cpu((__force __be64)mad->sa_hdr.comp_mask),
			be64_to_cpu((__force __be64)PR_MASK));
	ib_dst(&asked, 0);
	ib_sa_pack_path(&asked, wire);
	KUNIT_EXPECT_EQ(test, memcmp(mad->data, wire, PR_BYTES), 0);
	/* To QP1 of the SM, with the port's SM address. */
	KUNIT_EXPECT_EQ(test, req->ud_remote_qpn, 1);
	KUNIT_ASSERT_NOT_NULL(test, req->ud_ah);
	ah = mock_ibdev_ah_attr(req->ud_ah);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(ah), MOCK_IBDEV_SM_LID);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(ah), MOCK_IBDEV_SM_SL);

	ib_dst(&answer, 0x42);
	ib_sa_pack_path(&answer, wire);
	KUNIT_ASSERT_EQ(test, sa_fix_answer(fix, req, IB_MGMT_METHOD_GET_RESP,
					    0, wire, PR_BYTES), 0);
	KUNIT_ASSERT_TRUE(test, wait_cb(r));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, r->num, 1);
	KUNIT_EXPECT_EQ(test, r->rec.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r->rec.ib.dlid), 0x42);
	KUNIT_EXPECT_EQ(test, memcmp(&r->rec.dgid, &answer.dgid, 16), 0);
	ib_sa_unregister_client(&client);
	KUNIT_EXPECT_EQ(test, r->calls, 1);
}

/* An answer with another TID is not this query's; the right one is. */
static void path_routed_by_tid_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct path_result *r =
		kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct sa_path_rec answer;
	struct mock_sent_wr *req =
		kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct ib_sa_mad *mad;
	struct ib_sa_query *q;
	u8 wire[PR_BYTES];

	ib_sa_register_client(&client);
	KUNIT_ASSERT_GE(test, start_path(test, &client, 1000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, sa_fix_wait_sent(fix, 1));
	KUNIT_ASSERT_TRUE(test, sa_fix_sent(fix, 0, req));

	ib_dst(&answer, 0x43);
	ib_sa_pack_path(&answer, wire);
	mad = (struct ib_sa_mad *)req->mad;
	mad->mad_hdr.tid = cpu_to_be64(be64_to_cpu(mad->mad_hdr.tid) + 1);
	KUNIT_ASSERT_EQ(test, sa_fix_answer(fix, req, IB_MGMT_METHOD_GET_RESP,
					    0, wire, PR_BYTES), 0);
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&r->done,
							     HZ / 10));
	mad->mad_hdr.tid = cpu_to_be64(be64_to_cpu(mad->mad_hdr.tid) - 1);
	KUNIT_ASSERT_EQ(test, sa_fix_answer(fix, req, IB_MGMT_METHOD_GET_RESP,
					    0, wire, PR_BYTES), 0);
	KUNIT_ASSERT_TRUE(test, wait_cb(r));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r->rec.ib.dlid), 0x43);
	ib_sa_unregister_client(&client);
	KUNIT_EXPECT_EQ(test, r->calls, 1);
}

/* One bad answer, and the status the caller gets for it. */
struct bad_answer {
	const char *what;
	u16 attr_id;
	u8 method;
	u16 status;
	u32 len;
	bool counted;
};

static const struct bad_answer bad_answers[] = {
	{ "error status",	PR_ATTR, IB_MGMT_METHOD_GET_RESP, 0x000c, 256, false },
	{ "another attribute",	0x38, IB_MGMT_METHOD_GET_RESP, 0, 256, true },
	{ "another method",	PR_ATTR, IB_SA_METHOD_GET_TABLE_RESP, 0, 256, true },
	{ "truncated",		PR_ATTR, IB_MGMT_METHOD_GET_RESP, 0, 100, true },
};

static void path_bad_answer_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct ib_sa_query *q;
	unsigned int i;

	ib_sa_register_client(&client);
	for (i = 0; i < ARRAY_SIZE(bad_answers); i++) {
		const struct bad_answer *b = &bad_answers[i];
		int before = atomic_read(&fix->port->bad_responses);
		struct path_result *r =
			kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
		struct mock_sent_wr *req =
			kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
		struct ib_sa_mad *mad;

		KUNIT_ASSERT_GE(test, start_path(test, &client, 1000, r, &q),
				0);
		KUNIT_ASSERT_TRUE(test, sa_fix_wait_sent(fix, i + 1));
		KUNIT_ASSERT_TRUE(test, sa_fix_sent(fix, i, req));
		mad = (struct ib_sa_mad *)req->mad;
		mad->mad_hdr.method = b->method;
		mad->mad_hdr.attr_id = cpu_to_be16(b->attr_id);
		mad->mad_hdr.status = cpu_to_be16(b->status);
		KUNIT_ASSERT_EQ(test, mock_ibdev_qp_deliver(fix->qp, mad, b->len,
							    1, 1), 0);
		KUNIT_ASSERT_TRUE_MSG(test, wait_cb(r), "%s", b->what);
		KUNIT_EXPECT_EQ_MSG(test, r->status, -EINVAL, "%s", b->what);
		KUNIT_EXPECT_EQ_MSG(test, r->num, 0, "%s", b->what);
		KUNIT_EXPECT_EQ_MSG(test,
				    atomic_read(&fix->port->bad_responses) - before,
				    b->counted ? 1 : 0, "%s", b->what);
	}
	ib_sa_unregister_client(&client);
}

/* No answer: resent while the retries last, then -ETIMEDOUT. */
static void path_timeout_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct path_result *r =
		kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct ib_sa_query *q;

	ib_sa_register_client(&client);
	/* 2 ms per try, 10 resends. */
	KUNIT_ASSERT_GE(test, start_path(test, &client, 20, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, wait_cb(r));
	KUNIT_EXPECT_EQ(test, r->status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, r->num, 0);
	KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix), 11);
	ib_sa_unregister_client(&client);
	KUNIT_EXPECT_EQ(test, r->calls, 1);
}

/* A cancelled query reports -EINTR; a stale cancel does nothing. */
static void path_cancel_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct path_result *r =
		kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct ib_sa_query *q;
	int id;

	ib_sa_register_client(&client);
	id = start_path(test, &client, 10000, r, &q);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_TRUE(test, sa_fix_wait_sent(fix, 1));
	ib_sa_cancel_query(id, q);
	KUNIT_ASSERT_TRUE(test, wait_cb(r));
	KUNIT_EXPECT_EQ(test, r->status, -EINTR);
	ib_sa_unregister_client(&client);
	KUNIT_EXPECT_EQ(test, r->calls, 1);
	/* The id is free again: nothing to cancel, nothing to crash on. */
	ib_sa_cancel_query(id, q);
}

struct unreg_work {
	struct work_struct work;
	struct ib_sa_client *client;
	struct completion done;
};

static void unreg_fn(struct work_struct *work)
{
	struct unreg_work *u = container_of(work, struct unreg_work, work);

	ib_sa_unregister_client(u->client);
	complete(&u->done);
}

/* Unregistering a client returns only after its last query reported. */
static void unregister_waits_test(struct kunit *test)
{
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct path_result *r =
		kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct unreg_work u;
	struct mock_sent_wr *req =
		kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct sa_path_rec answer;
	struct ib_sa_query *q;
	u8 wire[PR_BYTES];

	ib_sa_register_client(&client);
	KUNIT_ASSERT_GE(test, start_path(test, &client, 10000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, sa_fix_wait_sent(fix, 1));
	KUNIT_ASSERT_TRUE(test, sa_fix_sent(fix, 0, req));

	u.client = &client;
	init_completion(&u.done);
	INIT_WORK_ONSTACK(&u.work, unreg_fn);
	schedule_work(&u.work);
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&u.done, HZ / 10));

	ib_dst(&answer, 0x44);
	ib_sa_pack_path(&answer, wire);
	KUNIT_ASSERT_EQ(test, sa_fix_answer(fix, req, IB_MGMT_METHOD_GET_RESP,
					    0, wire, PR_BYTES), 0);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&u.done,
							    SA_FIX_WAIT));
	flush_work(&u.work);
	destroy_work_on_stack(&u.work);
	KUNIT_EXPECT_EQ(test, r->calls, 1);
	KUNIT_EXPECT_EQ(test, r->status, 0);
}

/* Paths the SA cannot be asked for, and ports without an SA. */
static void path_refused_test(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1, .roce_port = 1,
					    .mad = true };
	struct sa_fix *fix = test->priv;
	struct ib_sa_client client;
	struct sa_path_rec rec;
	struct mock_ibdev *roce;
	struct ib_sa_query *q;

	ib_sa_register_client(&client);
	ib_dst(&rec, 0);
	rec.rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&client, &fix->mdev->ibdev,
						 SA_FIX_PORT, &rec, PR_MASK,
						 1000, GFP_KERNEL, path_cb,
						 NULL, &q), -EINVAL);

	/* RoCE has no SM: as 6.1, such a device has no SA client data. */
	roce = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, roce);
	ib_dst(&rec, 0);
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&client, &roce->ibdev, 1,
						 &rec, PR_MASK, 1000,
						 GFP_KERNEL, path_cb, NULL,
						 &q), -ENODEV);
	KUNIT_EXPECT_NULL(test, ib_sa_port_find(&roce->ibdev, 1));
	mock_ibdev_destroy(roce);
	ib_sa_unregister_client(&client);
}

static struct kunit_case sa_query_cases[] = {
	KUNIT_CASE(path_answered_test),
	KUNIT_CASE(path_routed_by_tid_test),
	KUNIT_CASE(path_bad_answer_test),
	KUNIT_CASE(path_timeout_test),
	KUNIT_CASE(path_cancel_test),
	KUNIT_CASE(unregister_waits_test),
	KUNIT_CASE(path_refused_test),
	{}
};

static struct kunit_suite sa_query_suite = {
	.name = "ib_core_sa_query",
	.init = sa_query_test_init,
	.exit = sa_query_test_exit,
	.test_cases = sa_query_cases,
};

kunit_test_suite(sa_query_suite);

MODULE_DESCRIPTION("KUnit tests of SA queries");
MODULE_LICENSE("GPL");
