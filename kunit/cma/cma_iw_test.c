// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite rdma_cm_iw: rdma_cm ids on an iWARP device, over iw_cm, against
 * the mock iWARP driver.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/module.h>
#include <rdma/iw_cm.h>

#include "core/iwcm/iwcm.h"
#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The expectations are 6.1's (cma.c's iWARP paths): a TCP listener on an
 * iWARP device has iw_cm listen on its address with its backlog; a
 * connect request becomes a new id in CONNECT whose owner hears
 * CONNECT_REQUEST with the private data as sent (no CMA header) and the
 * peer's ORD/IRD the other way round; rdma_connect() and rdma_accept()
 * hand iw_cm our depths as ORD/IRD, the private data as is and the QP
 * number; CONNECT_REPLY's status picks the event (0 ESTABLISHED,
 * -ECONNREFUSED and -ECONNRESET REJECTED, -ETIMEDOUT UNREACHABLE, else
 * CONNECT_ERROR); iw_cm's DISCONNECT is not passed on, its CLOSE is
 * DISCONNECTED and the id stays in CONNECT.
 *
 * The suite plays the network through the mock's iWARP ops: they write
 * down what iw_cm asked of the driver (mock_ibdev.iw), and
 * mock_iwarp_upcall() delivers the events a driver would. Ids are put on
 * the device directly (cma_fix_attach()), as address resolution would:
 * the mock's GIDs are no net device's MAC. Connect requests come to
 * 127.0.0.1, an address of init_net's loopback, which the mock ties its
 * ports to.
 */

#define IW_PORT		1
#define LPORT		5170
#define PEER_PORT	40000
#define LO_HOST(n)	(0x7f000000U | (n))	/* 127.0.0.n */
#define EV_DATA_MAX	32

/**
 * struct iw_owner - the owner of the suite's ids
 * @count: events received
 * @last: the last event's type (-1: none)
 * @id: the id of the last event
 * @ev: a copy of the last event (its private data points to @data)
 * @data: a copy of its private data
 * @state: the id's state while the handler ran
 * @ret: what the handler returns
 * @ret_on: return @ret only for this event type (-1: for any)
 */
struct iw_owner {
	int			count;
	int			last;
	struct rdma_cm_id	*id;
	struct rdma_cm_event	ev;
	u8			data[EV_DATA_MAX];
	enum rdma_cm_state	state;
	int			ret;
	int			ret_on;
};

static int iw_owner_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct iw_owner *o = id->context;
	u8 len = ev->param.conn.private_data_len;

	o->count++;
	o->last = ev->event;
	o->id = id;
	o->ev = *ev;
	memset(o->data, 0, sizeof(o->data));
	if (ev->param.conn.private_data)
		memcpy(o->data, ev->param.conn.private_data,
		       min_t(u8, len, EV_DATA_MAX));
	o->ev.param.conn.private_data = o->data;
	o->state = cma_id_state(to_cma_id(id));
	if (o->ret_on < 0 || o->ret_on == ev->event)
		return o->ret;
	return 0;
}

/**
 * struct iw_fix - per-case state
 * @mdev: an iWARP mock device, rdma_cm's client on it
 * @pd: a PD on it
 * @cq: the CQ of @qp
 * @qp: an RC QP connections name by number
 * @live: iw_cm's live ids before the case
 */
struct iw_fix {
	struct mock_ibdev	*mdev;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	struct ib_qp		*qp;
	int			live;
};

static const struct mock_ibdev_cfg iw_cfg = { .nports = 1, .iwarp = true };

static int iw_fix_init(struct kunit *test)
{
	struct ib_qp_init_attr attr = {
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IB_QPT_RC,
		.port_num = IW_PORT,
	};
	struct iw_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	test->priv = f;
	f->live = atomic_read(&iwcm.live);
	f->mdev = cma_fix_device_cfg(test, &iw_cfg);
	f->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	f->pd = ib_alloc_pd(&f->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->pd);
	f->cq = ib_alloc_cq(&f->mdev->ibdev, NULL, 32, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->cq);
	attr.send_cq = f->cq;
	attr.recv_cq = f->cq;
	f->qp = ib_create_qp(f->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->qp);
	return 0;
}

/* Let iw_cm and rdma_cm handle what was queued. */
static void settle(void)
{
	flush_workqueue(iwcm.wq);
	flush_workqueue(cma_wq);
}

/*
 * Ids a failed case left on the device go before the QP they may name
 * (the device's own end, a resource of the test, comes after this).
 */
static void iw_fix_exit(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct cma_device *dev;
	struct cma_id_priv *priv;

	if (!f || !f->mdev)
		return;
	settle();
	dev = cma_device_of(&f->mdev->ibdev);
	for (;;) {
		mutex_lock(&cma.lock);
		priv = dev ? list_first_entry_or_null(&dev->ids,
						      struct cma_id_priv,
						      dev_node) : NULL;
		mutex_unlock(&cma.lock);
		if (!priv)
			break;
		cma_fix_end(priv);
	}
	if (!IS_ERR_OR_NULL(f->qp))
		ib_destroy_qp(f->qp);
	if (!IS_ERR_OR_NULL(f->cq))
		ib_free_cq(f->cq);
	if (!IS_ERR_OR_NULL(f->pd))
		ib_dealloc_pd(f->pd);
}

/* Nothing of the case is left: no iw_cm id, no QP reference, no id. */
static void expect_all_gone(struct kunit *test, struct iw_fix *f)
{
	struct cma_device *dev = cma_device_of(&f->mdev->ibdev);

	settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm.live), f->live);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mdev->iw.qp_refs), 0);
	mutex_lock(&cma.lock);
	KUNIT_EXPECT_TRUE(test, list_empty(&dev->ids));
	mutex_unlock(&cma.lock);
}

static int calls(struct iw_fix *f, enum mock_verb verb)
{
	return mock_ibdev_calls(f->mdev, verb);
}

static void addr4(void *ss, u32 host, u16 port)
{
	struct sockaddr_in *sin = ss;

	memset(sin, 0, sizeof(struct sockaddr_storage));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(host);
	sin->sin_port = htons(port);
}

static bool addr_is(const void *ss, u32 host, u16 port)
{
	const struct sockaddr_in *sin = ss;

	return sin->sin_family == AF_INET &&
	       sin->sin_addr.s_addr == htonl(host) &&
	       sin->sin_port == htons(port);
}

/* A new TCP id of @o, in init_net. */
static struct cma_id_priv *new_id(struct kunit *test, struct iw_owner *o)
{
	struct rdma_cm_id *id;

	o->last = -1;
	o->ret_on = -1;
	id = rdma_create_id(&init_net, iw_owner_handler, o, RDMA_PS_TCP,
			    IB_QPT_RC);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id));
	return to_cma_id(id);
}

/* An id of @o bound to 127.0.0.1:LPORT on the device, as binding would. */
static struct cma_id_priv *bound(struct kunit *test, struct iw_fix *f,
				 struct iw_owner *o)
{
	struct cma_id_priv *priv = new_id(test, o);

	addr4(cma_src_addr(priv), LO_HOST(1), LPORT);
	cma_dst_addr(priv)->sa_family = AF_INET;
	priv->afonly = true;
	cma_fix_attach(priv, f->mdev, IW_PORT);
	KUNIT_ASSERT_EQ(test, cma_bind_port(priv), 0);
	cma_fix_force(priv, RDMA_CM_ADDR_BOUND);
	return priv;
}

/* A listener of @o on the device; the mock's listen_id is its iw_cm id. */
static struct cma_id_priv *listener(struct kunit *test, struct iw_fix *f,
				    struct iw_owner *o, int backlog)
{
	struct cma_id_priv *priv = bound(test, f, o);

	KUNIT_ASSERT_EQ(test, rdma_listen(&priv->id, backlog), 0);
	KUNIT_ASSERT_NOT_NULL(test, f->mdev->iw.listen_id);
	return priv;
}

/* An id of @o on the device with its route resolved (ROUTE_RESOLVED). */
static struct cma_id_priv *routed(struct kunit *test, struct iw_fix *f,
				  struct iw_owner *o)
{
	struct cma_id_priv *priv = new_id(test, o);

	addr4(cma_src_addr(priv), LO_HOST(1), 0x1234);
	addr4(cma_dst_addr(priv), LO_HOST(2), LPORT);
	cma_fix_attach(priv, f->mdev, IW_PORT);
	cma_fix_force(priv, RDMA_CM_ADDR_RESOLVED);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(&priv->id, 1000), 0);
	settle();
	KUNIT_ASSERT_EQ(test, o->last, (int)RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_ASSERT_EQ(test, cma_id_state(priv), RDMA_CM_ROUTE_RESOLVED);
	return priv;
}

static struct rdma_conn_param conn_param(struct iw_fix *f, const char *data)
{
	return (struct rdma_conn_param){
		.private_data = data, .private_data_len = strlen(data) + 1,
		.initiator_depth = 4, .responder_resources = 5,
		.qp_num = f->qp->qp_num,
	};
}

/* An event as the driver would report it: 127.0.0.1:LPORT <-> the peer. */
static int upcall(struct iw_cm_id *iw, enum iw_cm_event_type type,
		  int status, const char *data)
{
	struct iw_cm_event ev = {
		.event = type, .status = status,
		.private_data = (void *)data,
		.private_data_len = data ? strlen(data) + 1 : 0,
		.ord = 2, .ird = 3,
	};

	addr4(&ev.local_addr, LO_HOST(1), LPORT);
	addr4(&ev.remote_addr, LO_HOST(2), PEER_PORT);
	return mock_iwarp_upcall(iw, &ev);
}

/* rdma_connect() on a routed id; the mock saw the connect. */
static struct cma_id_priv *connecting(struct kunit *test, struct iw_fix *f,
				      struct iw_owner *o)
{
	struct cma_id_priv *priv = routed(test, f, o);
	struct rdma_conn_param p = conn_param(f, "hi");

	KUNIT_ASSERT_EQ(test, rdma_connect(&priv->id, &p), 0);
	KUNIT_ASSERT_NOT_NULL(test, priv->iw);
	return priv;
}

/* ...and accepted by the peer: ESTABLISHED. */
static struct cma_id_priv *connected(struct kunit *test, struct iw_fix *f,
				     struct iw_owner *o)
{
	struct cma_id_priv *priv = connecting(test, f, o);

	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CONNECT_REPLY, 0,
				     "ok"), 0);
	settle();
	KUNIT_ASSERT_EQ(test, o->last, (int)RDMA_CM_EVENT_ESTABLISHED);
	return priv;
}

/* A connect request to @l's iw_cm listener: the new id its owner heard. */
static struct cma_id_priv *request(struct kunit *test, struct iw_fix *f,
				   struct iw_owner *o, const char *data)
{
	o->id = NULL;
	KUNIT_ASSERT_EQ(test, upcall(f->mdev->iw.listen_id,
				     IW_CM_EVENT_CONNECT_REQUEST, 0, data), 0);
	settle();
	KUNIT_ASSERT_NOT_NULL(test, o->id);
	KUNIT_ASSERT_EQ(test, o->last, (int)RDMA_CM_EVENT_CONNECT_REQUEST);
	return to_cma_id(o->id);
}

/* ---- Listening -------------------------------------------------------------- */

static void cma_iw_listen_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = bound(test, f, &o);
	struct iw_cm_id *iw;

	rdma_set_service_type(&priv->id, 0x20);
	KUNIT_ASSERT_EQ(test, rdma_listen(&priv->id, 7), 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_CREATE_LISTEN), 1);
	KUNIT_EXPECT_EQ(test, cma_listen_count(priv), 1);
	iw = f->mdev->iw.listen_id;
	KUNIT_ASSERT_NOT_NULL(test, iw);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.backlog, 7);
	KUNIT_EXPECT_PTR_EQ(test, iw->device, &f->mdev->ibdev);
	KUNIT_EXPECT_TRUE(test, addr_is(&iw->local_addr, LO_HOST(1), LPORT));
	KUNIT_EXPECT_EQ(test, iw->tos, 0x20);
	KUNIT_EXPECT_TRUE(test, iw->tos_set);
	KUNIT_EXPECT_TRUE(test, iw->afonly);
	/* The listener hears nothing of its own. */
	KUNIT_EXPECT_EQ(test, o.count, 0);
	rdma_destroy_id(&priv->id);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_DESTROY_LISTEN), 1);
	expect_all_gone(test, f);
}

/*
 * A wildcard TCP listener listens on the iWARP device too; backlog 0 is
 * iw_cm's default. A UDP one does not, and cannot listen bound there.
 */
static void cma_iw_listen_any_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct sockaddr_in any = { .sin_family = AF_INET,
				   .sin_port = htons(LPORT + 1) };
	struct cma_id_priv *priv = new_id(test, &o);
	struct rdma_cm_id *udp;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(&priv->id, (struct sockaddr *)&any),
			0);
	KUNIT_ASSERT_EQ(test, rdma_listen(&priv->id, 0), 0);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_CREATE_LISTEN), 1);
	KUNIT_ASSERT_NOT_NULL(test, f->mdev->iw.listen_id);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.backlog,
			READ_ONCE(iwcm.default_backlog));
	KUNIT_EXPECT_TRUE(test, addr_is(&f->mdev->iw.listen_id->local_addr, 0,
					LPORT + 1));
	rdma_destroy_id(&priv->id);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_DESTROY_LISTEN), 1);

	udp = rdma_create_id(&init_net, iw_owner_handler, &o, RDMA_PS_UDP,
			     IB_QPT_UD);
	KUNIT_ASSERT_FALSE(test, IS_ERR(udp));
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(udp, (struct sockaddr *)&any), 0);
	KUNIT_EXPECT_EQ(test, rdma_listen(udp, 0), 0);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_CREATE_LISTEN), 1);
	rdma_destroy_id(udp);
	udp = rdma_create_id(&init_net, iw_owner_handler, &o, RDMA_PS_UDP,
			     IB_QPT_UD);
	KUNIT_ASSERT_FALSE(test, IS_ERR(udp));
	addr4(cma_src_addr(to_cma_id(udp)), LO_HOST(1), LPORT);
	cma_fix_attach(to_cma_id(udp), f->mdev, IW_PORT);
	KUNIT_ASSERT_EQ(test, cma_bind_port(to_cma_id(udp)), 0);
	cma_fix_force(to_cma_id(udp), RDMA_CM_ADDR_BOUND);
	KUNIT_EXPECT_EQ(test, rdma_listen(udp, 0), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_CREATE_LISTEN), 1);
	rdma_destroy_id(udp);
	expect_all_gone(test, f);
}

/* The driver refuses to listen: the errno, back to ADDR_BOUND. */
static void cma_iw_listen_fail_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = bound(test, f, &o);

	mock_ibdev_fail(f->mdev, MOCK_IW_CREATE_LISTEN, -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, rdma_listen(&priv->id, 4), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_BOUND);
	KUNIT_EXPECT_EQ(test, cma_listen_count(priv), 0);
	/* A negative backlog is iw_cm's -EINVAL. */
	mock_ibdev_fail(f->mdev, MOCK_IW_CREATE_LISTEN, 0);
	KUNIT_EXPECT_EQ(test, rdma_listen(&priv->id, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ADDR_BOUND);
	rdma_destroy_id(&priv->id);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_DESTROY_LISTEN), 0);
	expect_all_gone(test, f);
}

/* ---- The active side -------------------------------------------------------- */

static void cma_iw_connect_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = routed(test, f, &o);
	struct rdma_conn_param p = conn_param(f, "hello");
	struct iw_cm_id *iw;

	/* No path: the route is ready without one. */
	KUNIT_EXPECT_EQ(test, priv->id.route.num_pri_alt_paths, 0);
	rdma_set_service_type(&priv->id, 0x48);
	KUNIT_ASSERT_EQ(test, rdma_connect(&priv->id, &p), 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_CONNECT), 1);
	iw = rdma_iw_cm_id(&priv->id);
	KUNIT_ASSERT_NOT_NULL(test, iw);
	KUNIT_EXPECT_PTR_EQ(test, f->mdev->iw.cm_id, iw);
	/* The private data as the owner gave it: no CMA header. */
	KUNIT_EXPECT_EQ(test, f->mdev->iw.pdata_len, 6);
	KUNIT_EXPECT_EQ(test, memcmp(f->mdev->iw.pdata, "hello", 6), 0);
	/* Our initiator depth is the ORD we ask for, our resources the IRD. */
	KUNIT_EXPECT_EQ(test, f->mdev->iw.param.ord, 4U);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.param.ird, 5U);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.param.qpn, f->qp->qp_num);
	KUNIT_EXPECT_TRUE(test, addr_is(&iw->local_addr, LO_HOST(1), 0x1234));
	KUNIT_EXPECT_TRUE(test, addr_is(&iw->remote_addr, LO_HOST(2), LPORT));
	KUNIT_EXPECT_EQ(test, iw->tos, 0x48);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mdev->iw.qp_refs), 1);

	KUNIT_ASSERT_EQ(test, upcall(iw, IW_CM_EVENT_CONNECT_REPLY, 0, "ok"), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, o.ev.status, 0);
	/* The peer's IRD is what we may read at once, its ORD what it will. */
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.initiator_depth, 3);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.responder_resources, 2);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.private_data_len, 3);
	KUNIT_EXPECT_EQ(test, memcmp(o.data, "ok", 3), 0);
	KUNIT_EXPECT_EQ(test, o.state, RDMA_CM_CONNECT);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/*
 * A connect that fails keeps its iw_cm id, idle, and the next one uses
 * it; the id is back in ROUTE_RESOLVED meanwhile.
 */
static void cma_iw_connect_fail_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = routed(test, f, &o);
	struct rdma_conn_param p = conn_param(f, "x");
	struct iw_cm_id *iw;

	mock_ibdev_fail(f->mdev, MOCK_IW_CONNECT, -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, rdma_connect(&priv->id, &p), -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ROUTE_RESOLVED);
	iw = priv->iw;
	KUNIT_EXPECT_NOT_NULL(test, iw);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mdev->iw.qp_refs), 0);
	/* A QP number the device does not know. */
	mock_ibdev_fail(f->mdev, MOCK_IW_CONNECT, 0);
	p.qp_num = 0xfffff;
	KUNIT_EXPECT_EQ(test, rdma_connect(&priv->id, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_ROUTE_RESOLVED);
	p = conn_param(f, "x");
	KUNIT_EXPECT_EQ(test, rdma_connect(&priv->id, &p), 0);
	KUNIT_EXPECT_PTR_EQ(test, priv->iw, iw);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_CONNECT), 2);
	KUNIT_ASSERT_EQ(test, upcall(iw, IW_CM_EVENT_CONNECT_REPLY,
				     -ECONNREFUSED, NULL), 0);
	settle();
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/* CONNECT_REPLY's status and the event the owner hears of it. */
struct iw_reply_case {
	const char		*name;
	int			status;
	enum rdma_cm_event_type	event;
};

static const struct iw_reply_case iw_reply_cases[] = {
	{ "accepted", 0, RDMA_CM_EVENT_ESTABLISHED },
	{ "refused", -ECONNREFUSED, RDMA_CM_EVENT_REJECTED },
	{ "reset", -ECONNRESET, RDMA_CM_EVENT_REJECTED },
	{ "timed out", -ETIMEDOUT, RDMA_CM_EVENT_UNREACHABLE },
	{ "unreachable host", -EHOSTUNREACH, RDMA_CM_EVENT_CONNECT_ERROR },
	{ "no memory", -ENOMEM, RDMA_CM_EVENT_CONNECT_ERROR },
};

static void iw_reply_desc(const struct iw_reply_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(iw_reply, iw_reply_cases, iw_reply_desc);

static void cma_iw_reply_test(struct kunit *test)
{
	const struct iw_reply_case *c = test->param_value;
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = connecting(test, f, &o);
	const void *data;
	u8 len;

	o.count = 0;
	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CONNECT_REPLY,
				     c->status, "why"), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)c->event);
	KUNIT_EXPECT_EQ(test, o.ev.status, c->status);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.private_data_len, 4);
	KUNIT_EXPECT_EQ(test, memcmp(o.data, "why", 4), 0);
	KUNIT_EXPECT_EQ(test, o.state, RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_CONNECT);
	/* The connection's addresses, as the driver reported them. */
	KUNIT_EXPECT_TRUE(test, addr_is(cma_dst_addr(priv), LO_HOST(2),
					c->status ? PEER_PORT : LPORT));
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(&priv->id, c->status),
			   iwcm_reject_msg(c->status));
	/* Only the peer consumer's refusal carries its data. */
	data = rdma_consumer_reject_data(&priv->id, &o.ev, &len);
	if (c->status == -ECONNREFUSED) {
		KUNIT_EXPECT_PTR_EQ(test, data, (const void *)o.data);
		KUNIT_EXPECT_EQ(test, len, 4);
	} else {
		KUNIT_EXPECT_PTR_EQ(test, data, NULL);
		KUNIT_EXPECT_EQ(test, len, 0);
	}
	/* A second reply finds iw_cm's id answered already: nothing more. */
	KUNIT_EXPECT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CONNECT_REPLY, 0,
				     NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.count, 1);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/*
 * rdma_disconnect() closes gracefully (the QP to SQD); the peer's
 * DISCONNECT is not passed on; CLOSE is DISCONNECTED, in CONNECT still.
 */
static void cma_iw_disconnect_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = connected(test, f, &o);
	struct iw_cm_id *iw = priv->iw;

	o.count = 0;
	KUNIT_EXPECT_EQ(test, rdma_disconnect(&priv->id), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(f->qp), IB_QPS_SQD);
	KUNIT_ASSERT_EQ(test, upcall(iw, IW_CM_EVENT_DISCONNECT, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.count, 0);
	KUNIT_ASSERT_EQ(test, upcall(iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, o.ev.status, 0);
	KUNIT_EXPECT_EQ(test, o.state, RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_CONNECT);
	/* iw_cm let the QP go with the close. */
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mdev->iw.qp_refs), 0);
	/* Disconnecting again is harmless, as in 6.1. */
	KUNIT_EXPECT_EQ(test, rdma_disconnect(&priv->id), 0);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/* The peer closes first: CLOSE alone is DISCONNECTED too. */
static void cma_iw_close_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = connected(test, f, &o);

	o.count = 0;
	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CLOSE, -ECONNRESET,
				     NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, o.ev.status, -ECONNRESET);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/* The owner returns non-zero from ESTABLISHED: the id and its iw_cm id go. */
static void cma_iw_event_destroy_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = connecting(test, f, &o);

	o.ret = 1;
	o.ret_on = RDMA_CM_EVENT_ESTABLISHED;
	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CONNECT_REPLY, 0,
				     NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ESTABLISHED);
	/* iw_cm reset the connection: the QP to ERR. */
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(f->qp), IB_QPS_ERR);
	expect_all_gone(test, f);
}

/* ---- The passive side ------------------------------------------------------- */

static void cma_iw_request_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *l = listener(test, f, &o, 4);
	struct cma_id_priv *child = request(test, f, &o, "hello");

	KUNIT_EXPECT_PTR_NE(test, child, l);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	/* The private data as the peer sent it: no header taken off. */
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.private_data_len, 6);
	KUNIT_EXPECT_EQ(test, memcmp(o.data, "hello", 6), 0);
	/* The peer's IRD and ORD, named from our side. */
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.initiator_depth, 3);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.responder_resources, 2);
	KUNIT_EXPECT_EQ(test, o.state, RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, cma_id_state(l), RDMA_CM_LISTEN);
	/* The new id: the listener's device, port, port space and owner. */
	KUNIT_EXPECT_PTR_EQ(test, child->id.device, &f->mdev->ibdev);
	KUNIT_EXPECT_EQ(test, child->id.port_num, IW_PORT);
	KUNIT_EXPECT_EQ(test, child->id.ps, RDMA_PS_TCP);
	KUNIT_EXPECT_EQ(test, child->id.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_PTR_EQ(test, child->id.context, (void *)&o);
	KUNIT_EXPECT_TRUE(test, addr_is(cma_src_addr(child), LO_HOST(1), LPORT));
	KUNIT_EXPECT_TRUE(test, addr_is(cma_dst_addr(child), LO_HOST(2),
					PEER_PORT));
	KUNIT_EXPECT_NOT_NULL(test, rdma_iw_cm_id(&child->id));
	KUNIT_EXPECT_PTR_NE(test, rdma_iw_cm_id(&child->id),
			    f->mdev->iw.listen_id);
	KUNIT_EXPECT_PTR_EQ(test, rdma_iw_cm_id(&child->id)->context,
			    (void *)child);
	rdma_destroy_id(&child->id);
	/* A request nobody accepted is rejected as it goes. */
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_REJECT), 1);
	rdma_destroy_id(&l->id);
	expect_all_gone(test, f);
}

static void cma_iw_accept_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *l = listener(test, f, &o, 4);
	struct cma_id_priv *child = request(test, f, &o, "hello");
	struct rdma_conn_param p = conn_param(f, "welcome");
	struct iw_cm_id *iw = child->iw;

	rdma_lock_handler(&child->id);
	KUNIT_EXPECT_EQ(test, rdma_accept(&child->id, &p), 0);
	rdma_unlock_handler(&child->id);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_ACCEPT), 1);
	KUNIT_EXPECT_PTR_EQ(test, f->mdev->iw.cm_id, iw);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.pdata_len, 8);
	KUNIT_EXPECT_EQ(test, memcmp(f->mdev->iw.pdata, "welcome", 8), 0);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.param.ord, 4U);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.param.ird, 5U);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.param.qpn, f->qp->qp_num);

	o.count = 0;
	KUNIT_ASSERT_EQ(test, upcall(iw, IW_CM_EVENT_ESTABLISHED, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_PTR_EQ(test, o.id, &child->id);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.initiator_depth, 3);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.responder_resources, 2);
	/* Destroying an established id resets it. */
	rdma_destroy_id(&child->id);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(f->qp), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_REJECT), 0);
	rdma_destroy_id(&l->id);
	expect_all_gone(test, f);
}

static void cma_iw_reject_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *l = listener(test, f, &o, 4);
	struct cma_id_priv *child = request(test, f, &o, "hello");

	KUNIT_EXPECT_EQ(test, rdma_reject(&child->id, "no", 3,
					  IB_CM_REJ_CONSUMER_DEFINED), 0);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_REJECT), 1);
	KUNIT_EXPECT_PTR_EQ(test, f->mdev->iw.cm_id, child->iw);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.pdata_len, 3);
	KUNIT_EXPECT_EQ(test, memcmp(f->mdev->iw.pdata, "no", 3), 0);
	/* Once only: iw_cm's id has no request left. */
	KUNIT_EXPECT_EQ(test, rdma_reject(&child->id, NULL, 0, 0), -EINVAL);
	rdma_destroy_id(&child->id);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_REJECT), 1);

	/* The owner refuses in its handler: iw_cm rejects, the id goes. */
	o.ret = -ENOMEM;
	o.ret_on = RDMA_CM_EVENT_CONNECT_REQUEST;
	request(test, f, &o, "again");
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_REJECT), 2);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.pdata_len, 0);
	mutex_lock(&cma.lock);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&l->dev->ids));
	mutex_unlock(&cma.lock);

	/* An accept without parameters fails, and rejects (as 6.1). */
	o.ret = 0;
	child = request(test, f, &o, "third");
	rdma_lock_handler(&child->id);
	KUNIT_EXPECT_EQ(test, rdma_accept(&child->id, NULL), -EINVAL);
	rdma_unlock_handler(&child->id);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_REJECT), 3);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_ACCEPT), 0);
	rdma_destroy_id(&child->id);
	KUNIT_EXPECT_EQ(test, calls(f, MOCK_IW_REJECT), 3);
	rdma_destroy_id(&l->id);
	expect_all_gone(test, f);
}

/* ---- The QP ------------------------------------------------------------------- */

static void cma_iw_qp_attr_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = routed(test, f, &o);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct rdma_conn_param p = conn_param(f, "x");
	int mask = 0;

	/* Before the connection rdma_cm answers: no remote access. */
	attr.qp_access_flags = IB_ACCESS_REMOTE_WRITE;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(&priv->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_ACCESS_FLAGS |
				    IB_QP_PORT);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags, 0);
	KUNIT_EXPECT_EQ(test, attr.port_num, IW_PORT);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(&priv->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_ACCESS_FLAGS |
				    IB_QP_PORT);

	/* Then iw_cm: remote read and write for INIT, nothing for RTS. */
	KUNIT_ASSERT_EQ(test, rdma_connect(&priv->id, &p), 0);
	attr.qp_state = IB_QPS_INIT;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(&priv->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_ACCESS_FLAGS |
				    IB_QP_PORT);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags,
			IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(&priv->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_PORT);
	attr.qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, rdma_init_qp_attr(&priv->id, &attr, &mask),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CONNECT_REPLY,
				     -ECONNREFUSED, NULL), 0);
	settle();
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/* A QP of rdma_create_qp(): INIT at once, RTR before the connect. */
static void cma_iw_create_qp_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {};
	struct cma_id_priv *priv = routed(test, f, &o);
	struct rdma_conn_param p = conn_param(f, "x");
	struct ib_qp_init_attr init = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IB_QPT_RC, .send_cq = f->cq, .recv_cq = f->cq,
	};

	KUNIT_ASSERT_EQ(test, rdma_create_qp(&priv->id, f->pd, &init), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(priv->id.qp), IB_QPS_INIT);
	p.qp_num = 0xfffff;	/* the id's own QP wins */
	KUNIT_ASSERT_EQ(test, rdma_connect(&priv->id, &p), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(priv->id.qp), IB_QPS_RTR);
	KUNIT_EXPECT_EQ(test, f->mdev->iw.param.qpn, priv->id.qp->qp_num);
	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CONNECT_REPLY,
				     -ETIMEDOUT, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_UNREACHABLE);
	rdma_destroy_qp(&priv->id);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/* ---- Destruction and removal ------------------------------------------------ */

/* Destroyed in each state an iWARP id can be in, nothing stays behind. */
static void cma_iw_destroy_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct iw_owner o = {}, lo = {};
	struct rdma_conn_param p = conn_param(f, "x");
	struct cma_id_priv *priv, *l;

	/* ROUTE_RESOLVED, with the idle iw_cm id of a failed connect. */
	priv = routed(test, f, &o);
	mock_ibdev_fail(f->mdev, MOCK_IW_CONNECT, -EIO);
	KUNIT_EXPECT_EQ(test, rdma_connect(&priv->id, &p), -EIO);
	mock_ibdev_fail(f->mdev, MOCK_IW_CONNECT, 0);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);

	/* CONNECT, established (active). */
	priv = connected(test, f, &o);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);

	/* CONNECT, after CLOSE. */
	priv = connected(test, f, &o);
	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	settle();
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);

	/* CONNECT, refused (active). */
	priv = connecting(test, f, &o);
	KUNIT_ASSERT_EQ(test, upcall(priv->iw, IW_CM_EVENT_CONNECT_REPLY,
				     -ECONNREFUSED, NULL), 0);
	settle();
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);

	/* LISTEN with a request not yet answered, the new id first. */
	l = listener(test, f, &lo, 2);
	priv = request(test, f, &lo, NULL);
	rdma_destroy_id(&priv->id);
	rdma_destroy_id(&l->id);
	expect_all_gone(test, f);

	/* A listener destroyed with its new id still there. */
	l = listener(test, f, &lo, 2);
	priv = request(test, f, &lo, NULL);
	rdma_destroy_id(&l->id);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_CONNECT);
	rdma_destroy_id(&priv->id);
	expect_all_gone(test, f);
}

/*
 * The device goes: a listener on it and a request's new id hear
 * DEVICE_REMOVAL and are destroyed by their owner's return.
 */
static void cma_iw_removal_test(struct kunit *test)
{
	struct iw_fix *f = test->priv;
	struct mock_ibdev *mdev = cma_fix_device_cfg(test, &iw_cfg);
	struct iw_owner o = {};
	struct cma_id_priv *l = new_id(test, &o), *child;

	addr4(cma_src_addr(l), LO_HOST(1), LPORT);
	cma_dst_addr(l)->sa_family = AF_INET;
	cma_fix_attach(l, mdev, IW_PORT);
	KUNIT_ASSERT_EQ(test, cma_bind_port(l), 0);
	cma_fix_force(l, RDMA_CM_ADDR_BOUND);
	KUNIT_ASSERT_EQ(test, rdma_listen(&l->id, 2), 0);
	KUNIT_ASSERT_NOT_NULL(test, mdev->iw.listen_id);
	KUNIT_ASSERT_EQ(test, upcall(mdev->iw.listen_id,
				     IW_CM_EVENT_CONNECT_REQUEST, 0, NULL), 0);
	settle();
	KUNIT_ASSERT_EQ(test, o.last, (int)RDMA_CM_EVENT_CONNECT_REQUEST);
	child = to_cma_id(o.id);
	KUNIT_EXPECT_PTR_EQ(test, child->id.device, &mdev->ibdev);

	o.count = 0;
	o.ret = 1;
	o.ret_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	cma_fix_device_destroy(test, mdev);
	KUNIT_EXPECT_EQ(test, o.count, 2);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_DEVICE_REMOVAL);
	settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&iwcm.live), f->live);
}

static struct kunit_case cma_iw_cases[] = {
	KUNIT_CASE(cma_iw_listen_test), KUNIT_CASE(cma_iw_listen_any_test),
	KUNIT_CASE(cma_iw_listen_fail_test),
	KUNIT_CASE(cma_iw_connect_test), KUNIT_CASE(cma_iw_connect_fail_test),
	KUNIT_CASE_PARAM(cma_iw_reply_test, iw_reply_gen_params),
	KUNIT_CASE(cma_iw_disconnect_test), KUNIT_CASE(cma_iw_close_test),
	KUNIT_CASE(cma_iw_event_destroy_test),
	KUNIT_CASE(cma_iw_request_test), KUNIT_CASE(cma_iw_accept_test),
	KUNIT_CASE(cma_iw_reject_test),
	KUNIT_CASE(cma_iw_qp_attr_test), KUNIT_CASE(cma_iw_create_qp_test),
	KUNIT_CASE(cma_iw_destroy_test), KUNIT_CASE(cma_iw_removal_test),
	{}
};

static struct kunit_suite cma_iw_suite = {
	.name = "rdma_cm_iw",
	.init = iw_fix_init,
	.exit = iw_fix_exit,
	.test_cases = cma_iw_cases,
};

kunit_test_suites(&cma_iw_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's iWARP ids over iw_cm");
MODULE_LICENSE("GPL");
