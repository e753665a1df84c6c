// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_conn: the REQ an id sends, the IB CM's events as the
 * owner hears them, errnos.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <rdma/ib_cm.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The REQ's fields are CM-UVERBS 0.3 and 0.4's
 * (timeouts 20, 15 retries, the service ID of the port space and port);
 * the events 2e's table (REJECTED reports 148 bytes, REP-based events
 * 196). IB CM events are handed to rdma_cm's handler as the IB CM would,
 * with an IB CM id that only carries the context: the rdma_cm id keeps
 * no IB CM id of its own here, so nothing is sent.
 */

static void ids_addrs(struct cma_id_priv *priv, bool v6)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)cma_src_addr(priv);
	struct sockaddr_in *d4 = (struct sockaddr_in *)cma_dst_addr(priv);
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)cma_src_addr(priv);
	struct sockaddr_in6 *d6 = (struct sockaddr_in6 *)cma_dst_addr(priv);

	if (!v6) {
		*s4 = (struct sockaddr_in){ .sin_family = AF_INET,
			.sin_port = htons(0x1234),
			.sin_addr.s_addr = htonl(0xc0a80001) };
		*d4 = (struct sockaddr_in){ .sin_family = AF_INET,
			.sin_port = htons(7174),
			.sin_addr.s_addr = htonl(0xc0a80002) };
		return;
	}
	*s6 = (struct sockaddr_in6){ .sin6_family = AF_INET6,
				     .sin6_port = htons(0x4321) };
	*d6 = (struct sockaddr_in6){ .sin6_family = AF_INET6,
				     .sin6_port = htons(4420) };
	s6->sin6_addr.s6_addr[0] = 0xfd;
	s6->sin6_addr.s6_addr[15] = 1;
	d6->sin6_addr.s6_addr[0] = 0xfd;
	d6->sin6_addr.s6_addr[15] = 2;
}

static void cma_conn_req_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct sa_path_rec path = {};
	struct rdma_conn_param conn = {
		.responder_resources = 4, .initiator_depth = 2,
		.flow_control = 1, .retry_count = 9, .rnr_retry_count = 7,
	};
	struct ib_cm_req_param req = {};

	ids_addrs(priv, false);
	priv->id.route.path_rec = &path;
	priv->id.route.num_pri_alt_paths = 1;
	priv->qp_num = 0x123;
	priv->ece.vendor_id = 0x15b3;
	cma_conn_req_param(priv, &conn, &req);
	KUNIT_EXPECT_PTR_EQ(test, req.primary_path, &path);
	KUNIT_EXPECT_PTR_EQ(test, req.alternate_path, NULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(req.service_id), 0x0000000001061c06ULL);
	KUNIT_EXPECT_EQ(test, req.qp_num, 0x123U);
	KUNIT_EXPECT_EQ(test, req.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, req.starting_psn, priv->seq_num);
	KUNIT_EXPECT_EQ(test, req.responder_resources, 4);
	KUNIT_EXPECT_EQ(test, req.initiator_depth, 2);
	KUNIT_EXPECT_EQ(test, req.flow_control, 1);
	KUNIT_EXPECT_EQ(test, req.retry_count, 7);	/* 3 bits on the wire */
	KUNIT_EXPECT_EQ(test, req.rnr_retry_count, 7);
	KUNIT_EXPECT_EQ(test, req.remote_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, req.local_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, req.max_cm_retries, 15);
	KUNIT_EXPECT_EQ(test, req.srq, 0);
	KUNIT_EXPECT_EQ(test, req.ece.vendor_id, 0x15b3U);
	priv->id.route.path_rec = NULL;
	rdma_destroy_id(&priv->id);
}

/* What the IB CM delivers: an event, and an id carrying our context. */
static int cm_event(struct cma_id_priv *priv, enum ib_cm_event_type type,
		    struct ib_cm_event *ev)
{
	struct ib_cm_id ib = { .context = priv };

	ev->event = type;
	return cma_conn_event(&ib, ev);
}

static void cma_conn_events_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	static u8 data[IB_CM_REP_PRIVATE_DATA_SIZE] = { 0xab };
	struct ib_cm_event ev = { .private_data = data };
	const void *rej;
	u8 len;

	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, RDMA_CM_CONNECT);

	/* No QP of rdma_create_qp(): the owner finishes with rdma_accept(). */
	ev.param.rep_rcvd = (struct ib_cm_rep_event_param){
		.remote_qpn = 0x77, .responder_resources = 3,
		.initiator_depth = 5, .rnr_retry_count = 6, .srq = 1,
	};
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_REP_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_CONNECT_RESPONSE);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_CONNECT);

	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_RTU_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_USER_ESTABLISHED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ESTABLISHED);

	ev.param.rej_rcvd.reason = IB_CM_REJ_CONSUMER_DEFINED;
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_REJ_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, o.status, (int)IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(&priv->id, o.status),
			   ibcm_reject_msg(IB_CM_REJ_CONSUMER_DEFINED));
	{
		struct rdma_cm_event rev = {
			.event = RDMA_CM_EVENT_REJECTED, .status = o.status,
			.param.conn = { .private_data = data,
					.private_data_len = 148 },
		};

		rej = rdma_consumer_reject_data(&priv->id, &rev, &len);
		KUNIT_EXPECT_PTR_EQ(test, rej, (const void *)data);
		KUNIT_EXPECT_EQ(test, len, 148);
		rev.status = IB_CM_REJ_STALE_CONN;
		KUNIT_EXPECT_PTR_EQ(test, rdma_consumer_reject_data(&priv->id,
								    &rev, &len), NULL);
	}

	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_REQ_ERROR, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_UNREACHABLE);
	KUNIT_EXPECT_EQ(test, o.status, -ETIMEDOUT);

	/* MRAs are the IB CM's business; timewait is not over yet. */
	o.count = 0;
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_MRA_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_TIMEWAIT_EXIT, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.count, 0);

	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_DREQ_ERROR, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, o.status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, o.state_seen, RDMA_CM_DISCONNECT);
	/* Once: a DREP after the DREQ timed out finds DISCONNECT. */
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_DREP_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_TIMEWAIT_EXIT, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_DISCONNECT);
	rdma_destroy_id(&priv->id);
}

/* The REP's event parameters, and a DREQ's DISCONNECTED without error. */
static void cma_conn_rep_data_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	static u8 data[IB_CM_REP_PRIVATE_DATA_SIZE];
	struct ib_cm_event ev = { .private_data = data };
	struct rdma_cm_event seen;

	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, RDMA_CM_CONNECT);
	ev.param.rep_rcvd = (struct ib_cm_rep_event_param){
		.remote_qpn = 0x77, .responder_resources = 3,
		.initiator_depth = 5, .flow_control = 1, .rnr_retry_count = 6,
		.srq = 1, .ece = { .vendor_id = 0x15b3, .attr_mod = 9 },
	};
	o.copy = &seen;
	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_REP_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, seen.param.conn.qp_num, 0x77U);
	KUNIT_EXPECT_EQ(test, seen.param.conn.responder_resources, 3);
	KUNIT_EXPECT_EQ(test, seen.param.conn.initiator_depth, 5);
	KUNIT_EXPECT_EQ(test, seen.param.conn.flow_control, 1);
	KUNIT_EXPECT_EQ(test, seen.param.conn.rnr_retry_count, 6);
	KUNIT_EXPECT_EQ(test, seen.param.conn.srq, 1);
	KUNIT_EXPECT_EQ(test, seen.param.conn.private_data_len,
			IB_CM_REP_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, seen.param.conn.private_data, (const void *)data);
	KUNIT_EXPECT_EQ(test, seen.ece.vendor_id, 0x15b3U);
	KUNIT_EXPECT_EQ(test, seen.ece.attr_mod, 9U);

	KUNIT_EXPECT_EQ(test, cm_event(priv, IB_CM_DREQ_RECEIVED, &ev), 0);
	KUNIT_EXPECT_EQ(test, seen.event, RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, seen.status, 0);
	o.copy = NULL;
	rdma_destroy_id(&priv->id);
}

/* An owner returning non-zero: its id goes, and so does the IB CM's. */
static void cma_conn_destroy_from_event_test(struct kunit *test)
{
	struct cma_owner o = { .ret = -ECONNRESET };
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct ib_cm_event ev = {};

	cma_fix_force(priv, RDMA_CM_CONNECT);
	KUNIT_EXPECT_NE(test, cm_event(priv, IB_CM_REQ_ERROR, &ev), 0);
	KUNIT_EXPECT_EQ(test, o.count, 1);
}

/* Calls that need an IB CM exchange, before there is one; bad REQs. */
static void cma_conn_errnos_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *ud = cma_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	u8 big[IB_CM_REQ_PRIVATE_DATA_SIZE - CMA_HDR_SIZE + 1] = {};
	struct rdma_conn_param conn = { .private_data = big };

	KUNIT_EXPECT_EQ(test, rdma_connect(&priv->id, &conn), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_disconnect(&priv->id), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_notify(&priv->id, IB_EVENT_COMM_EST), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_reject(&priv->id, NULL, 0, 28), -EINVAL);

	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(priv, RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, rdma_disconnect(&priv->id), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_notify(&priv->id, IB_EVENT_COMM_EST), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_reject(&priv->id, NULL, 0, 28), -EINVAL);
	rdma_lock_handler(&priv->id);
	KUNIT_EXPECT_EQ(test, rdma_accept(&priv->id, NULL), -EINVAL);
	rdma_unlock_handler(&priv->id);

	/* 57 bytes of private data: 36 + 57 > 92. */
	cma_fix_force(priv, RDMA_CM_ROUTE_RESOLVED);
	ids_addrs(priv, false);
	conn.private_data_len = sizeof(big);
	KUNIT_EXPECT_EQ(test, rdma_connect(&priv->id, &conn), -EINVAL);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_PTR_EQ(test, priv->ib, NULL);

	/*
	 * A UD id's SIDR REQ carries the CMA header too: without addresses
	 * to write in it, nothing is sent (rdma_cm_ud has the rest).
	 */
	cma_fix_attach(ud, mdev, CMA_FIX_ROCE_PORT);
	cma_fix_force(ud, RDMA_CM_ROUTE_RESOLVED);
	conn.private_data_len = 0;
	KUNIT_EXPECT_EQ(test, rdma_connect(&ud->id, &conn), -EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, cma_id_state(ud), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_PTR_EQ(test, ud->ib, NULL);
	cma_fix_end(priv);
	cma_fix_end(ud);
}

static struct kunit_case cma_conn_cases[] = {
	KUNIT_CASE(cma_conn_req_test),
	KUNIT_CASE(cma_conn_events_test),
	KUNIT_CASE(cma_conn_rep_data_test),
	KUNIT_CASE(cma_conn_destroy_from_event_test),
	KUNIT_CASE(cma_conn_errnos_test),
	{}
};

static struct kunit_suite cma_conn_suite = {
	.name = "rdma_cm_conn",
	.test_cases = cma_conn_cases,
};

kunit_test_suites(&cma_conn_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's connections over the IB CM");
MODULE_LICENSE("GPL");
