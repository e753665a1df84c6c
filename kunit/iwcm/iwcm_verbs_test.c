// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iw_cm_verbs: iw_cm's exported calls and the driver's events,
 * against a mock iWARP device.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/module.h>
#include <rdma/iw_cm.h>

#include "core/iwcm/iwcm.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The suite is the owner (rdma_cm's place) and the network: it calls
 * iw_cm, and makes the events a driver would report with
 * mock_iwarp_upcall() (interrupts off). The owner's handler writes down
 * every event; settle() waits until iw_cm's workqueue handled all that
 * was queued. Expectations follow 6.1's iwcm.c; every error code the
 * calls return has a case.
 */

#define EVENTS_MAX	16
#define PDATA_KEEP	16
#define PROVIDER_DATA	((void *)0x5eed)

/* One event as the owner's handler saw it. */
struct seen {
	enum iw_cm_event_type type;
	int status;
	struct iw_cm_id *id;
	void *provider_data;
	u8 pdata[PDATA_KEEP];
	u8 pdata_len;
	struct sockaddr_storage local, remote;
};

/**
 * struct iwt - per-case state
 * @mdev: an iWARP mock device
 * @pd: a PD on it
 * @cq: the CQ of @qp
 * @qp: an RC QP connections use
 * @seen: events the owner got, in order
 * @nseen: how many
 * @ret_for: what the handler returns, by event type
 * @block: the handler waits for @release on the next CONNECT_REQUEST
 * @entered: completed when the handler starts waiting
 * @release: let it go on
 * @child: the id of the last CONNECT_REQUEST
 * @live: iw_cm's live ids before the case
 */
struct iwt {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct seen seen[EVENTS_MAX];
	int nseen;
	int ret_for[IW_CM_EVENT_CLOSE + 1];
	bool block;
	struct completion entered, release;
	struct iw_cm_id *child;
	int live;
};

static int owner_handler(struct iw_cm_id *id, struct iw_cm_event *ev)
{
	struct iwt *t = id->context;
	struct seen *s;

	if (t->nseen < EVENTS_MAX) {
		s = &t->seen[t->nseen++];
		s->type = ev->event;
		s->status = ev->status;
		s->id = id;
		s->provider_data = ev->provider_data;
		s->pdata_len = ev->private_data_len;
		if (ev->private_data)
			memcpy(s->pdata, ev->private_data,
			       min_t(u8, ev->private_data_len, PDATA_KEEP));
		s->local = ev->local_addr;
		s->remote = ev->remote_addr;
	}
	if (ev->event == IW_CM_EVENT_CONNECT_REQUEST) {
		t->child = id;
		if (t->block) {
			t->block = false;
			complete(&t->entered);
			wait_for_completion(&t->release);
		}
	}
	return ev->event <= IW_CM_EVENT_CLOSE ? t->ret_for[ev->event] : 0;
}

static void settle(void)
{
	flush_workqueue(iwcm.wq);
}

static enum iwcm_state state_of(struct iw_cm_id *id)
{
	return to_iwcm_id_priv(id)->state;
}

static void addr4(struct sockaddr_storage *ss, u32 ip, u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(ip);
	sin->sin_port = htons(port);
}

static u16 port_of(const struct sockaddr_storage *ss)
{
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

static int iwt_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1, .iwarp = true };
	struct ib_qp_init_attr attr = {
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IB_QPT_RC,
		.port_num = 1,
	};
	struct iwt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	init_completion(&t->entered);
	init_completion(&t->release);
	t->live = atomic_read(&iwcm.live);
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cq = ib_alloc_cq(&t->mdev->ibdev, NULL, 32, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cq);
	attr.send_cq = t->cq;
	attr.recv_cq = t->cq;
	t->qp = ib_create_qp(t->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->qp);
	return 0;
}

static void iwt_exit(struct kunit *test)
{
	struct iwt *t = test->priv;

	if (!t)
		return;
	atomic_set(&iwcm_fault_allocs, 0);
	settle();
	if (!IS_ERR_OR_NULL(t->qp))
		ib_destroy_qp(t->qp);
	if (!IS_ERR_OR_NULL(t->cq))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

/* Every id of the case is gone, and every QP reference it took. */
static void expect_all_gone(struct kunit *test, struct iwt *t)
{
	settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm.live), t->live);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
}

static int calls(struct iwt *t, enum mock_verb verb)
{
	return mock_ibdev_calls(t->mdev, verb);
}

static struct iw_cm_id *new_id(struct kunit *test, struct iwt *t)
{
	struct iw_cm_id *id = iw_create_cm_id(&t->mdev->ibdev, owner_handler, t);

	KUNIT_ASSERT_FALSE(test, IS_ERR(id));
	addr4(&id->local_addr, 0x0a000001, 7174);
	addr4(&id->remote_addr, 0x0a000002, 7175);
	return id;
}

static struct iw_cm_id *new_listener(struct kunit *test, struct iwt *t,
				     int backlog)
{
	struct iw_cm_id *id = new_id(test, t);

	KUNIT_ASSERT_EQ(test, iw_cm_listen(id, backlog), 0);
	return id;
}

static int upcall(struct iw_cm_id *id, enum iw_cm_event_type type,
		  int status, const char *pdata)
{
	struct iw_cm_event ev = {
		.event = type, .status = status,
		.private_data = (void *)pdata,
		.private_data_len = pdata ? strlen(pdata) + 1 : 0,
		.provider_data = PROVIDER_DATA, .ord = 2, .ird = 3,
	};

	addr4(&ev.local_addr, 0x0a000001, 7174);
	addr4(&ev.remote_addr, 0x0a000003, 40000);
	return mock_iwarp_upcall(id, &ev);
}

/* A request to @listener, handed to the owner: the new id. */
static struct iw_cm_id *request(struct kunit *test, struct iwt *t,
				struct iw_cm_id *listener)
{
	t->child = NULL;
	KUNIT_ASSERT_EQ(test, upcall(listener, IW_CM_EVENT_CONNECT_REQUEST, 0,
				     "hello"), 0);
	settle();
	KUNIT_ASSERT_NOT_NULL(test, t->child);
	return t->child;
}

static struct iw_cm_conn_param conn_param(struct iwt *t)
{
	return (struct iw_cm_conn_param){
		.private_data = "pd", .private_data_len = 3,
		.ord = 4, .ird = 5, .qpn = t->qp->qp_num,
	};
}

/* An active id, connected. */
static struct iw_cm_id *connected(struct kunit *test, struct iwt *t)
{
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);

	KUNIT_ASSERT_EQ(test, iw_cm_connect(id, &p), 0);
	KUNIT_ASSERT_EQ(test, upcall(id, IW_CM_EVENT_CONNECT_REPLY, 0, NULL), 0);
	settle();
	KUNIT_ASSERT_EQ(test, state_of(id), IWCM_ESTABLISHED);
	return id;
}

/* ---- Ids ----------------------------------------------------------------- */

static void iwcm_create_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *id = new_id(test, t);

	KUNIT_EXPECT_PTR_EQ(test, id->device, &t->mdev->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, id->context, (void *)t);
	KUNIT_EXPECT_TRUE(test, id->event_handler && id->add_ref && id->rem_ref);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm.live), t->live + 1);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

static void iwcm_create_enomem_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *id;

	atomic_set(&iwcm_fault_allocs, 1);
	id = iw_create_cm_id(&t->mdev->ibdev, owner_handler, t);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(id), -ENOMEM);
	expect_all_gone(test, t);
}

/* ---- Listen -------------------------------------------------------------- */

static void iwcm_listen_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *id = new_listener(test, t, 5);

	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_CREATE_LISTEN), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->mdev->iw.listen_id, id);
	KUNIT_EXPECT_EQ(test, t->mdev->iw.backlog, 5);
	KUNIT_EXPECT_EQ(test, memcmp(&id->m_local_addr, &id->local_addr,
				     sizeof(id->local_addr)), 0);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_LISTEN);
	iw_destroy_cm_id(id);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_DESTROY_LISTEN), 1);
	expect_all_gone(test, t);
}

/* Backlog 0 is net.iw_cm.default_backlog, 256 unless changed. */
static void iwcm_listen_default_backlog_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	int saved = iwcm.default_backlog;
	struct iw_cm_id *id;

	KUNIT_EXPECT_EQ(test, saved, 256);
	WRITE_ONCE(iwcm.default_backlog, 3);
	id = new_listener(test, t, 0);
	WRITE_ONCE(iwcm.default_backlog, saved);
	KUNIT_EXPECT_EQ(test, t->mdev->iw.backlog, 3);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

static void iwcm_listen_einval_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *id = new_id(test, t);

	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 4), 0);
	/* Listening twice (6.1 would BUG). */
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_CREATE_LISTEN), 1);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

static void iwcm_listen_enomem_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *id = new_id(test, t);

	atomic_set(&iwcm_fault_allocs, 3);	/* the third entry fails */
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 8), -ENOMEM);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_CREATE_LISTEN), 0);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

/* The driver's error comes back and the id is idle again. */
static void iwcm_listen_driver_error_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *id = new_id(test, t);

	mock_ibdev_fail(t->mdev, MOCK_IW_CREATE_LISTEN, -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 2), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	mock_ibdev_fail(t->mdev, MOCK_IW_CREATE_LISTEN, 0);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 2), 0);
	iw_destroy_cm_id(id);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_DESTROY_LISTEN), 1);
	expect_all_gone(test, t);
}

/* ---- Connect ------------------------------------------------------------- */

static void iwcm_connect_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };
	int mask;

	KUNIT_ASSERT_EQ(test, iw_cm_connect(id, &p), 0);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_CONNECT), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->mdev->iw.cm_id, id);
	KUNIT_EXPECT_EQ(test, t->mdev->iw.param.qpn, t->qp->qp_num);
	KUNIT_EXPECT_EQ(test, t->mdev->iw.param.ord, 4U);
	KUNIT_EXPECT_STREQ(test, (char *)t->mdev->iw.pdata, "pd");
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 1);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_CONN_SENT);
	KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask), 0);

	KUNIT_ASSERT_EQ(test, upcall(id, IW_CM_EVENT_CONNECT_REPLY, 0, "welcome"), 0);
	settle();
	KUNIT_ASSERT_EQ(test, t->nseen, 1);
	KUNIT_EXPECT_EQ(test, (int)t->seen[0].type, (int)IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, t->seen[0].status, 0);
	KUNIT_EXPECT_PTR_EQ(test, t->seen[0].id, id);
	KUNIT_EXPECT_STREQ(test, (char *)t->seen[0].pdata, "welcome");
	/* The owner sees the addresses it asked for, the id keeps the driver's. */
	KUNIT_EXPECT_EQ(test, port_of(&t->seen[0].remote), 7175);
	KUNIT_EXPECT_EQ(test, port_of(&id->m_remote_addr), 40000);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_ESTABLISHED);

	/* Graceful close: SQD, the QP is kept until CLOSE. */
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 0), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_SQD);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 1);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_CLOSING);
	/* Ignored while closing, as the peer may close too. */
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 1), 0);
	KUNIT_ASSERT_EQ(test, upcall(id, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	settle();
	KUNIT_ASSERT_EQ(test, t->nseen, 2);
	KUNIT_EXPECT_EQ(test, (int)t->seen[1].type, (int)IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

/* The peer refuses: the owner hears why, the QP is let go. */
static void iwcm_connect_refused_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);

	KUNIT_ASSERT_EQ(test, iw_cm_connect(id, &p), 0);
	KUNIT_ASSERT_EQ(test, upcall(id, IW_CM_EVENT_CONNECT_REPLY,
				     -ECONNREFUSED, "no"), 0);
	settle();
	KUNIT_ASSERT_EQ(test, t->nseen, 1);
	KUNIT_EXPECT_EQ(test, t->seen[0].status, -ECONNREFUSED);
	KUNIT_EXPECT_STREQ(test, (char *)t->seen[0].pdata, "no");
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 0), 0);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

static void iwcm_connect_einval_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);
	struct iw_cm_id *lid = new_listener(test, t, 1);

	p.qpn = t->qp->qp_num + 100;	/* no such QP */
	KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &p), -EINVAL);
	p = conn_param(t);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(lid, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_CONNECT), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	iw_destroy_cm_id(id);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

static void iwcm_connect_enomem_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);

	atomic_set(&iwcm_fault_allocs, 1);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &p), -ENOMEM);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_CONNECT), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

/* A refused connect leaves nothing pending: destroy does not wait. */
static void iwcm_connect_driver_error_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);

	mock_ibdev_fail(t->mdev, MOCK_IW_CONNECT, -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &p), -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

/* ---- Requests, accept, reject -------------------------------------------- */

static void iwcm_request_accept_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *lid = new_listener(test, t, 2);
	struct iw_cm_id *cid = request(test, t, lid);

	KUNIT_EXPECT_PTR_NE(test, cid, lid);
	KUNIT_ASSERT_EQ(test, t->nseen, 1);
	KUNIT_EXPECT_EQ(test, (int)t->seen[0].type,
			(int)IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_STREQ(test, (char *)t->seen[0].pdata, "hello");
	KUNIT_EXPECT_PTR_EQ(test, t->seen[0].provider_data, PROVIDER_DATA);
	KUNIT_EXPECT_PTR_EQ(test, cid->provider_data, PROVIDER_DATA);
	KUNIT_EXPECT_PTR_EQ(test, cid->context, (void *)t);
	KUNIT_EXPECT_EQ(test, port_of(&cid->remote_addr), 40000);
	KUNIT_EXPECT_EQ(test, port_of(&cid->m_local_addr), 7174);
	KUNIT_EXPECT_EQ(test, state_of(cid), IWCM_CONN_RECV);
	KUNIT_EXPECT_EQ(test, state_of(lid), IWCM_LISTEN);

	KUNIT_ASSERT_EQ(test, iw_cm_accept(cid, &p), 0);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_ACCEPT), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->mdev->iw.cm_id, cid);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 1);
	KUNIT_ASSERT_EQ(test, upcall(cid, IW_CM_EVENT_ESTABLISHED, 0, NULL), 0);
	settle();
	KUNIT_ASSERT_EQ(test, t->nseen, 2);
	KUNIT_EXPECT_EQ(test, (int)t->seen[1].type, (int)IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_PTR_EQ(test, t->seen[1].id, cid);
	KUNIT_EXPECT_EQ(test, state_of(cid), IWCM_ESTABLISHED);

	/* The peer closes: DISCONNECT is not passed on, CLOSE is. */
	KUNIT_ASSERT_EQ(test, upcall(cid, IW_CM_EVENT_DISCONNECT, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 2);
	KUNIT_EXPECT_EQ(test, state_of(cid), IWCM_CLOSING);
	KUNIT_ASSERT_EQ(test, upcall(cid, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	iw_destroy_cm_id(cid);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

static void iwcm_accept_einval_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);
	struct iw_cm_id *lid = new_listener(test, t, 2);
	struct iw_cm_id *cid = request(test, t, lid);

	/* No request waiting on an idle id. */
	KUNIT_EXPECT_EQ(test, iw_cm_accept(id, &p), -EINVAL);
	p.qpn = t->qp->qp_num + 100;
	KUNIT_EXPECT_EQ(test, iw_cm_accept(cid, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_ACCEPT), 0);
	KUNIT_EXPECT_EQ(test, state_of(cid), IWCM_CONN_RECV);
	iw_destroy_cm_id(id);
	iw_destroy_cm_id(cid);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

static void iwcm_accept_driver_error_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *lid = new_listener(test, t, 2);
	struct iw_cm_id *cid = request(test, t, lid);

	mock_ibdev_fail(t->mdev, MOCK_IW_ACCEPT, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(cid, &p), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, state_of(cid), IWCM_IDLE);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	iw_destroy_cm_id(cid);
	/* An idle id has nothing to reject. */
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_REJECT), 0);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

static void iwcm_reject_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 2);
	struct iw_cm_id *cid = request(test, t, lid);

	KUNIT_EXPECT_EQ(test, iw_cm_reject(cid, "busy", 5), 0);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_REJECT), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->mdev->iw.cm_id, cid);
	KUNIT_EXPECT_STREQ(test, (char *)t->mdev->iw.pdata, "busy");
	KUNIT_EXPECT_EQ(test, state_of(cid), IWCM_IDLE);
	/* Once is all. */
	KUNIT_EXPECT_EQ(test, iw_cm_reject(cid, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(lid, NULL, 0), -EINVAL);
	iw_destroy_cm_id(cid);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_REJECT), 1);
	KUNIT_EXPECT_EQ(test, t->nseen, 1);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

static void iwcm_reject_driver_error_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 2);
	struct iw_cm_id *cid = request(test, t, lid);

	mock_ibdev_fail(t->mdev, MOCK_IW_REJECT, -EIO);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(cid, NULL, 0), -EIO);
	KUNIT_EXPECT_EQ(test, state_of(cid), IWCM_IDLE);
	/* Nothing is left pending: destroy does not wait. */
	iw_destroy_cm_id(cid);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

/* The owner's non-zero return for a request: rejected and destroyed. */
static void iwcm_request_refused_by_owner_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 2);

	t->ret_for[IW_CM_EVENT_CONNECT_REQUEST] = -ENOMEM;
	KUNIT_ASSERT_EQ(test, upcall(lid, IW_CM_EVENT_CONNECT_REQUEST, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 1);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_REJECT), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm.live), t->live + 1);
	KUNIT_EXPECT_EQ(test, state_of(lid), IWCM_LISTEN);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

/*
 * No entries for the new id: the request is rejected and the owner not
 * told. No id at all: the request is left to the driver (6.1 does so).
 */
static void iwcm_request_enomem_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 2);

	atomic_set(&iwcm_fault_allocs, 2);	/* the id, then its first entry */
	KUNIT_ASSERT_EQ(test, upcall(lid, IW_CM_EVENT_CONNECT_REQUEST, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm_fault_allocs), 0);
	KUNIT_EXPECT_EQ(test, t->nseen, 0);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_REJECT), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm.live), t->live + 1);

	atomic_set(&iwcm_fault_allocs, 1);	/* the id */
	KUNIT_ASSERT_EQ(test, upcall(lid, IW_CM_EVENT_CONNECT_REQUEST, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 0);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_REJECT), 1);
	KUNIT_EXPECT_EQ(test, state_of(lid), IWCM_LISTEN);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

/*
 * A listener's backlog is its entries: with all of them waiting, the
 * next request's upcall fails with -ENOMEM (and the driver rejects it).
 */
static void iwcm_upcall_enomem_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 1);
	struct iw_cm_id *first;

	t->block = true;
	KUNIT_ASSERT_EQ(test, upcall(lid, IW_CM_EVENT_CONNECT_REQUEST, 0, NULL), 0);
	wait_for_completion(&t->entered);
	KUNIT_EXPECT_EQ(test, upcall(lid, IW_CM_EVENT_CONNECT_REQUEST, 0, NULL),
			-ENOMEM);
	first = t->child;
	complete(&t->release);
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 1);
	/* The entry is back: another request fits. */
	request(test, t, lid);
	iw_destroy_cm_id(first);
	iw_destroy_cm_id(t->child);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

/* ---- Disconnect, QP attributes, destroy ---------------------------------- */

static void iwcm_disconnect_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 1);
	struct iw_cm_id *id = connected(test, t);

	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(lid, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 1), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_CLOSING);
	iw_destroy_cm_id(id);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

static void iwcm_init_qp_attr_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 1);
	struct iw_cm_id *id = new_id(test, t);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	int mask = 0;

	KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_ACCESS_FLAGS);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags,
			IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, 0);
	attr.qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask), -EINVAL);
	attr.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(lid, &attr, &mask), -EINVAL);
	iw_destroy_cm_id(id);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

/*
 * Destroying an established connection resets it; the driver's later
 * CLOSE is dropped, and the id lives until the driver lets go of it.
 */
static void iwcm_destroy_established_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *id = connected(test, t);

	id->add_ref(id);		/* the driver's hold */
	t->nseen = 0;
	iw_destroy_cm_id(id);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mdev->iw.qp_refs), 0);
	KUNIT_EXPECT_EQ(test, upcall(id, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm.live), t->live + 1);
	id->rem_ref(id);
	expect_all_gone(test, t);
}

/* Destroys an id from another thread, so the case can watch it wait. */
struct destroyer {
	struct work_struct work;
	struct iw_cm_id *id;
	struct completion done;
};

static void destroyer_fn(struct work_struct *work)
{
	struct destroyer *d = container_of(work, struct destroyer, work);

	iw_destroy_cm_id(d->id);
	complete(&d->done);
}

static void destroyer_start(struct destroyer *d, struct iw_cm_id *id)
{
	d->id = id;
	init_completion(&d->done);
	INIT_WORK(&d->work, destroyer_fn);
	queue_work(system_unbound_wq, &d->work);
}

/* Wait up to a second for @id to reach @state. */
static bool wait_state(struct iw_cm_id *id, enum iwcm_state state)
{
	int ms;

	for (ms = 0; ms < 1000 && state_of(id) != state; ms++)
		usleep_range(1000, 2000);
	return state_of(id) == state;
}

/* Destroy waits until a connect is answered; the answer still arrives. */
static void iwcm_destroy_waits_for_reply_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);
	struct destroyer d;

	KUNIT_ASSERT_EQ(test, iw_cm_connect(id, &p), 0);
	destroyer_start(&d, id);
	KUNIT_ASSERT_FALSE(test, wait_for_completion_timeout(&d.done,
							     msecs_to_jiffies(100)));
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_CONN_SENT);
	KUNIT_EXPECT_EQ(test, upcall(id, IW_CM_EVENT_CONNECT_REPLY, 0, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&d.done, 10 * HZ));
	KUNIT_EXPECT_EQ(test, t->nseen, 1);
	/* Then it reset the connection. */
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_ERR);
	expect_all_gone(test, t);
}

/*
 * A request queued for a listener that is destroyed before it is handled
 * is dropped: no new id, no event (the driver's destroy_listen cleans up).
 */
static void iwcm_destroy_drops_queued_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *busy = new_listener(test, t, 1);
	struct iw_cm_id *lid = new_listener(test, t, 1);
	struct destroyer d;

	/* Hold the workqueue in the handler of a request to @busy. */
	t->block = true;
	KUNIT_ASSERT_EQ(test, upcall(busy, IW_CM_EVENT_CONNECT_REQUEST, 0, NULL), 0);
	wait_for_completion(&t->entered);
	KUNIT_EXPECT_EQ(test, upcall(lid, IW_CM_EVENT_CONNECT_REQUEST, 0, NULL), 0);
	destroyer_start(&d, lid);
	KUNIT_EXPECT_TRUE(test, wait_state(lid, IWCM_DESTROYING));
	complete(&t->release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&d.done, 10 * HZ));
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 1);
	KUNIT_EXPECT_PTR_EQ(test, t->seen[0].id, t->child);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_DESTROY_LISTEN), 1);
	iw_destroy_cm_id(t->child);
	iw_destroy_cm_id(busy);
	expect_all_gone(test, t);
}

/* A request destroyed before accept or reject is rejected. */
static void iwcm_destroy_request_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_id *lid = new_listener(test, t, 1);
	struct iw_cm_id *cid = request(test, t, lid);

	iw_destroy_cm_id(cid);
	KUNIT_EXPECT_EQ(test, calls(t, MOCK_IW_REJECT), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->mdev->iw.cm_id, cid);
	iw_destroy_cm_id(lid);
	expect_all_gone(test, t);
}

/* A non-zero return from the owner destroys the id: here, a reset. */
static void iwcm_handler_destroys_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);

	t->ret_for[IW_CM_EVENT_CONNECT_REPLY] = -ECONNABORTED;
	KUNIT_ASSERT_EQ(test, iw_cm_connect(id, &p), 0);
	KUNIT_ASSERT_EQ(test, upcall(id, IW_CM_EVENT_CONNECT_REPLY, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, t->nseen, 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(t->qp), IB_QPS_ERR);
	expect_all_gone(test, t);
}

/* Events queued faster than handled reach the owner one by one, in order. */
static void iwcm_event_order_test(struct kunit *test)
{
	struct iwt *t = test->priv;
	struct iw_cm_conn_param p = conn_param(t);
	struct iw_cm_id *id = new_id(test, t);

	KUNIT_ASSERT_EQ(test, iw_cm_connect(id, &p), 0);
	KUNIT_EXPECT_EQ(test, upcall(id, IW_CM_EVENT_CONNECT_REPLY, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, upcall(id, IW_CM_EVENT_DISCONNECT, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, upcall(id, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	settle();
	KUNIT_ASSERT_EQ(test, t->nseen, 2);
	KUNIT_EXPECT_EQ(test, (int)t->seen[0].type, (int)IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, (int)t->seen[1].type, (int)IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, state_of(id), IWCM_IDLE);
	iw_destroy_cm_id(id);
	expect_all_gone(test, t);
}

static struct kunit_case iwcm_verbs_cases[] = {
	/* Ids */
	KUNIT_CASE(iwcm_create_test), KUNIT_CASE(iwcm_create_enomem_test),
	/* Listen */
	KUNIT_CASE(iwcm_listen_test),
	KUNIT_CASE(iwcm_listen_default_backlog_test),
	KUNIT_CASE(iwcm_listen_einval_test), KUNIT_CASE(iwcm_listen_enomem_test),
	KUNIT_CASE(iwcm_listen_driver_error_test),
	/* Connect */
	KUNIT_CASE(iwcm_connect_test), KUNIT_CASE(iwcm_connect_refused_test),
	KUNIT_CASE(iwcm_connect_einval_test), KUNIT_CASE(iwcm_connect_enomem_test),
	KUNIT_CASE(iwcm_connect_driver_error_test),
	/* Requests, accept, reject */
	KUNIT_CASE(iwcm_request_accept_test), KUNIT_CASE(iwcm_accept_einval_test),
	KUNIT_CASE(iwcm_accept_driver_error_test),
	KUNIT_CASE(iwcm_reject_test), KUNIT_CASE(iwcm_reject_driver_error_test),
	KUNIT_CASE(iwcm_request_refused_by_owner_test),
	KUNIT_CASE(iwcm_request_enomem_test), KUNIT_CASE(iwcm_upcall_enomem_test),
	/* Disconnect, QP attributes, destroy, event order */
	KUNIT_CASE(iwcm_disconnect_test), KUNIT_CASE(iwcm_init_qp_attr_test),
	KUNIT_CASE(iwcm_destroy_established_test),
	KUNIT_CASE(iwcm_destroy_request_test),
	KUNIT_CASE(iwcm_destroy_waits_for_reply_test),
	KUNIT_CASE(iwcm_destroy_drops_queued_test),
	KUNIT_CASE(iwcm_handler_destroys_test), KUNIT_CASE(iwcm_event_order_test),
	{}
};

static struct kunit_suite iwcm_verbs_suite = {
	.name = "iw_cm_verbs",
	.init = iwt_init,
	.exit = iwt_exit,
	.test_cases = iwcm_verbs_cases,
};

kunit_test_suites(&iwcm_verbs_suite);

MODULE_DESCRIPTION("KUnit tests of iw_cm against a mock iWARP device");
MODULE_LICENSE("GPL");
