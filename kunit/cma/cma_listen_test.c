// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites rdma_cm_listen, rdma_cm_req: rdma_listen()'s IB CM listeners per
 * device and its port rules; the new ids REQs make of a listener.
 */

#include <kunit/test.h>
#include <linux/if_arp.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>

#include "core/cm/cm.h"
#include "core/device/cache_gid.h"
#include "core/device/device.h"
#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The expectations are 6.1's (CM-UVERBS 1d, 2c, 2e): a listener listens
 * through ib_cm_insert_listen() by the service ID of its port space and
 * port, on its device or on every device (those added later included); a
 * listener must have its port to itself; a REQ whose CMA header asks for
 * the listener's address makes a new id in CONNECT, whose owner hears
 * CONNECT_REQUEST with the 56 bytes after the header; the new id keeps
 * the REQ's IB CM id and arms the delayed MRA; a REQ nobody takes, or one
 * the owner refuses, leaves nothing behind.
 *
 * REQs are handed to rdma_cm's REQ handler as ib_cm would, with an IB CM
 * id made on the mock device and put in REQ_RCVD by hand (so the MRA can
 * be seen); the test puts it back to IDLE before it is destroyed, since
 * the mock has no MAD agent to send the REJ a REQ_RCVD id says goodbye
 * with. RoCE REQs come in on the mock RoCE port's GID entry
 * ::ffff:127.0.0.1 of "lo", which the test guest brings up.
 */

#define LPORT(n)	(4800 + (n))
#define LO_HOST(n)	(0x7f000000U | (n))	/* 127.0.0.n */
#define LO_IP(n)	htonl(LO_HOST(n))

/* ---- The owner ------------------------------------------------------------ */

/**
 * struct req_owner - the owner of a listener and of the ids made of it
 * @count: events received
 * @last: the last event's type
 * @id: the id of the last event
 * @ev: a copy of the last event
 * @state: the id's state while the handler ran
 * @ret: what the handler returns
 */
struct req_owner {
	int			count;
	int			last;
	struct rdma_cm_id	*id;
	struct rdma_cm_event	ev;
	enum rdma_cm_state	state;
	int			ret;
};

static int req_owner_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct req_owner *o = id->context;

	o->count++;
	o->last = ev->event;
	o->id = id;
	o->ev = *ev;
	o->state = cma_id_state(to_cma_id(id));
	return o->ret;
}

static struct cma_id_priv *owner_id(struct kunit *test, struct req_owner *o)
{
	struct rdma_cm_id *id;

	id = rdma_create_id(&init_net, req_owner_handler, o, RDMA_PS_TCP,
			    IB_QPT_RC);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id));
	return to_cma_id(id);
}

/* An id of @o bound by rdma_bind_addr() to 0.0.0.0:@port. */
static struct cma_id_priv *any_bound(struct kunit *test, struct req_owner *o,
				     u16 port, bool reuse)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	struct cma_id_priv *priv = owner_id(test, o);

	if (reuse)
		KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(&priv->id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&priv->id, (struct sockaddr *)&sin),
			0);
	return priv;
}

/*
 * An id of @o bound to @ip:@port as binding to a local address would
 * leave it: on @mdev's RoCE port (or on no device), its port taken.
 */
static struct cma_id_priv *ip_bound(struct kunit *test, struct req_owner *o,
				    __be32 ip, u16 port, struct mock_ibdev *mdev,
				    bool reuse)
{
	struct cma_id_priv *priv = owner_id(test, o);
	struct sockaddr_in *sin = (struct sockaddr_in *)cma_src_addr(priv);

	*sin = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_port = htons(port),
				     .sin_addr.s_addr = ip };
	cma_dst_addr(priv)->sa_family = AF_INET;
	priv->afonly = true;
	priv->reuseaddr = reuse;
	if (mdev)
		cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, cma_bind_port(priv), 0);
	cma_fix_force(priv, RDMA_CM_ADDR_BOUND);
	return priv;
}

/* ---- ib_cm's side ---------------------------------------------------------- */

static __be64 tcp_sid(u16 port)
{
	return cpu_to_be64(RDMA_IB_IP_PS_TCP | port);
}

/*
 * ib_cm's listener of @sid on @dev, or NULL, and how many users share it.
 * The pointer is only compared: our listener keeps it alive.
 */
static struct ib_cm_id *cm_listener(struct ib_device *dev, __be64 sid,
				    int *users)
{
	struct cm_id_priv *cp = cm_listen_find(dev, sid);

	if (users)
		*users = cp ? cp->listen_share : 0;
	if (!cp)
		return NULL;
	cm_id_put(cp);
	return &cp->id;
}

static void cm_force(struct ib_cm_id *ib, enum ib_cm_state state)
{
	struct cm_id_priv *cp = to_cm_id_priv(ib);

	spin_lock_irq(&cp->lock);
	cp->id.state = state;
	spin_unlock_irq(&cp->lock);
}

static int req_dummy(struct ib_cm_id *ib, const struct ib_cm_event *ev)
{
	return 0;
}

/* An IB CM id the test made: back to IDLE (nothing to send), destroyed. */
static void cm_end(struct ib_cm_id *ib)
{
	cm_force(ib, IB_CM_IDLE);
	ib_destroy_cm_id(ib);
}

/* ---- REQs -------------------------------------------------------------------- */

/**
 * struct req_msg - a REQ as ib_cm reports it
 * @data: its private data: the CMA header, then bytes 36..91 = their index
 * @path: the primary path as the passive side sees it
 * @alt: an alternate path, if the test sets one
 * @ev: the REQ_RECEIVED event
 */
struct req_msg {
	u8			data[IB_CM_REQ_PRIVATE_DATA_SIZE];
	struct sa_path_rec	path;
	struct sa_path_rec	alt;
	struct ib_cm_event	ev;
};

/*
 * A RoCE REQ of RC from 127.0.0.2:0x4321 for @dst:@port, in on the mock
 * RoCE port's GID entry @attr.
 */
static struct req_msg *req_v4(struct kunit *test, const struct ib_gid_attr *attr,
			      __be32 dst, u16 port)
{
	struct req_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	__be32 src = LO_IP(2);
	__be16 sport = htons(0x4321);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->data[1] = 0x40;
	memcpy(&m->data[2], &sport, sizeof(sport));
	memcpy(&m->data[16], &src, sizeof(src));
	memcpy(&m->data[32], &dst, sizeof(dst));
	for (i = CMA_HDR_SIZE; i < sizeof(m->data); i++)
		m->data[i] = i;
	m->path.service_id = tcp_sid(port);
	m->path.sgid = cma_fix_v4_gid(dst);
	m->path.dgid = cma_fix_v4_gid(src);
	m->path.pkey = cpu_to_be16(0xffff);
	m->path.rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	m->ev.event = IB_CM_REQ_RECEIVED;
	m->ev.private_data = m->data;
	m->ev.param.req_rcvd = (struct ib_cm_req_event_param){
		.port = CMA_FIX_ROCE_PORT, .primary_path = &m->path,
		.ppath_sgid_attr = attr, .remote_qpn = 0x4242,
		.qp_type = IB_QPT_RC, .starting_psn = 0x777,
		.responder_resources = 4, .initiator_depth = 2,
		.flow_control = 1, .retry_count = 5, .rnr_retry_count = 6,
		.ece = { .vendor_id = 0x15b3, .attr_mod = 3 },
	};
	return m;
}

/*
 * The same as a SIDR REQ (a UD id's question) of port space @ps, in on
 * @attr: the same private data, no path.
 */
static struct req_msg *sidr_v4(struct kunit *test,
			       const struct ib_gid_attr *attr, __be32 dst,
			       u64 ps, u16 port)
{
	struct req_msg *m = req_v4(test, attr, dst, port);

	m->ev.event = IB_CM_SIDR_REQ_RECEIVED;
	m->ev.param.sidr_req_rcvd = (struct ib_cm_sidr_req_event_param){
		.port = CMA_FIX_ROCE_PORT, .service_id = cpu_to_be64(ps | port),
		.pkey = 0xffff, .bth_pkey = 0xffff, .sgid_attr = attr,
	};
	return m;
}

/* Hand @m to rdma_cm as ib_cm would: a new IB CM id in @state, in @ibp. */
static int req_feed(struct kunit *test, struct mock_ibdev *mdev,
		    struct req_msg *m, enum ib_cm_state state,
		    struct ib_cm_id **ibp)
{
	struct ib_cm_id *ib = ib_create_cm_id(&mdev->ibdev, req_dummy, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(ib));
	cm_force(ib, state);
	*ibp = ib;
	return cma_req_handler(ib, &m->ev);
}

/* A REQ that must be refused: non-zero, nobody told; its IB CM id goes. */
static void req_refused(struct kunit *test, struct mock_ibdev *mdev,
			struct req_msg *m, struct req_owner *o, int err)
{
	struct ib_cm_id *ib;
	int count = o->count;

	KUNIT_EXPECT_EQ(test, req_feed(test, mdev, m, IB_CM_IDLE, &ib), err);
	KUNIT_EXPECT_EQ(test, o->count, count);
	KUNIT_EXPECT_TRUE(test, ib->cm_handler == req_dummy);
	cm_end(ib);
}

/* ---- The fixture ------------------------------------------------------------- */

/**
 * struct lfix - what each case starts with
 * @mdev: a mock device (port 1 IB, port 2 RoCE)
 * @lo: its RoCE port's GID entry ::ffff:127.0.0.1 on "lo", referenced
 */
struct lfix {
	struct mock_ibdev		*mdev;
	const struct ib_gid_attr	*lo;
};

static int lfix_init(struct kunit *test)
{
	struct lfix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	union ib_gid gid = cma_fix_v4_gid(LO_IP(1));

	KUNIT_ASSERT_NOT_NULL(test, f);
	test->priv = f;
	f->mdev = cma_fix_device(test);
	cma_fix_lo_gid_add(test, f->mdev, LO_IP(1), IB_GID_TYPE_ROCE);
	f->lo = rdma_find_gid_by_port(&f->mdev->ibdev, &gid, IB_GID_TYPE_ROCE,
				      CMA_FIX_ROCE_PORT, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->lo);
	return 0;
}

static void lfix_exit(struct kunit *test)
{
	struct lfix *f = test->priv;

	if (!f)
		return;
	if (!IS_ERR_OR_NULL(f->lo))
		rdma_put_gid_attr(f->lo);
	if (f->mdev)
		cma_fix_device_end(test, f->mdev);
	/* the GID entry's reference on "lo" goes after a grace period */
	rcu_barrier();
}

static struct lfix *fix(struct kunit *test)
{
	return test->priv;
}

static unsigned int gid_refs(const struct ib_gid_attr *attr)
{
	return kref_read(&to_gid_entry(attr)->ref);
}

static unsigned int dev_refs(struct mock_ibdev *mdev)
{
	return refcount_read(&cma_device_of(&mdev->ibdev)->refs);
}

/* ---- rdma_cm_listen: listening ---------------------------------------------- */

/* A listener bound to a device: one IB CM listener, there, for its port. */
static void cma_listen_bound_test(struct kunit *test)
{
	struct mock_ibdev *mdev = fix(test)->mdev;
	struct req_owner o = {};
	struct cma_id_priv *l;
	struct ib_cm_id *ib;
	int users;

	l = ip_bound(test, &o, LO_IP(1), LPORT(1), mdev, false);
	KUNIT_EXPECT_EQ(test, rdma_listen(&l->id, 7), 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(l), RDMA_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, l->backlog, 7);
	KUNIT_EXPECT_EQ(test, cma_listen_count(l), 1);
	ib = cma_listen_ib(l, &mdev->ibdev);
	KUNIT_EXPECT_NOT_NULL(test, ib);
	KUNIT_EXPECT_PTR_EQ(test, cm_listener(&mdev->ibdev, tcp_sid(LPORT(1)),
					      &users), ib);
	KUNIT_EXPECT_EQ(test, users, 1);
	/* Shared listeners of ib_cm carry no context of their users. */
	if (ib)
		KUNIT_EXPECT_PTR_EQ(test, ib->context, NULL);
	/* Listening once is enough. */
	KUNIT_EXPECT_EQ(test, rdma_listen(&l->id, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, cma_id_state(l), RDMA_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, o.count, 0);

	rdma_destroy_id(&l->id);
	KUNIT_EXPECT_NULL(test, cm_listener(&mdev->ibdev, tcp_sid(LPORT(1)),
					    NULL));
}

/*
 * A listener on the wildcard: an IB CM listener on every device, gone
 * from a device that goes, all gone with the listener.
 */
static void cma_listen_any_test(struct kunit *test)
{
	struct mock_ibdev *mdev = fix(test)->mdev;
	struct mock_ibdev *d2 = cma_fix_device(test);
	__be64 sid = tcp_sid(LPORT(2));
	struct req_owner o = {};
	struct cma_id_priv *l;
	int n;

	l = any_bound(test, &o, LPORT(2), false);
	KUNIT_EXPECT_EQ(test, rdma_listen(&l->id, 3), 0);
	KUNIT_EXPECT_PTR_EQ(test, l->id.device, NULL);
	KUNIT_EXPECT_NOT_NULL(test, cma_listen_ib(l, &mdev->ibdev));
	KUNIT_EXPECT_NOT_NULL(test, cma_listen_ib(l, &d2->ibdev));
	KUNIT_EXPECT_PTR_EQ(test, cm_listener(&mdev->ibdev, sid, NULL),
			    cma_listen_ib(l, &mdev->ibdev));
	KUNIT_EXPECT_PTR_EQ(test, cm_listener(&d2->ibdev, sid, NULL),
			    cma_listen_ib(l, &d2->ibdev));
	n = cma_listen_count(l);
	KUNIT_EXPECT_GE(test, n, 2);

	/* A device that goes takes its IB CM listener along, silently. */
	cma_fix_device_destroy(test, d2);
	KUNIT_EXPECT_EQ(test, cma_listen_count(l), n - 1);
	KUNIT_EXPECT_NULL(test, cm_listener(&d2->ibdev, sid, NULL));
	KUNIT_EXPECT_EQ(test, o.count, 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(l), RDMA_CM_LISTEN);

	rdma_destroy_id(&l->id);
	KUNIT_EXPECT_NULL(test, cm_listener(&mdev->ibdev, sid, NULL));
}

/* A device added under a wildcard listener gets an IB CM listener too. */
static void cma_listen_device_added_test(struct kunit *test)
{
	__be64 sid = tcp_sid(LPORT(3));
	struct req_owner o = {};
	struct mock_ibdev *d2;
	struct cma_id_priv *l;
	struct ib_cm_id *ib;
	int n;

	l = any_bound(test, &o, LPORT(3), false);
	KUNIT_EXPECT_EQ(test, rdma_listen(&l->id, 3), 0);
	n = cma_listen_count(l);
	d2 = cma_fix_device(test);
	KUNIT_EXPECT_EQ(test, cma_listen_count(l), n + 1);
	ib = cma_listen_ib(l, &d2->ibdev);
	KUNIT_EXPECT_NOT_NULL(test, ib);
	KUNIT_EXPECT_PTR_EQ(test, cm_listener(&d2->ibdev, sid, NULL), ib);
	cma_fix_device_destroy(test, d2);
	KUNIT_EXPECT_EQ(test, cma_listen_count(l), n);

	/* Once the listener is gone, a new device gets nothing. */
	rdma_destroy_id(&l->id);
	d2 = cma_fix_device(test);
	KUNIT_EXPECT_NULL(test, cm_listener(&d2->ibdev, sid, NULL));
	cma_fix_device_destroy(test, d2);
}

/*
 * rdma_listen() by state: an IDLE id is bound to the IPv4 wildcard and
 * an ephemeral port first; other states than IDLE and ADDR_BOUND refuse.
 */
static void cma_listen_state_test(struct kunit *test)
{
	static const u8 refused[] = {
		RDMA_CM_ADDR_QUERY, RDMA_CM_ADDR_RESOLVED, RDMA_CM_ROUTE_RESOLVED,
		RDMA_CM_CONNECT, RDMA_CM_DISCONNECT, RDMA_CM_DEVICE_REMOVAL,
	};
	struct req_owner o = {};
	struct cma_id_priv *priv = owner_id(test, &o);
	struct sockaddr *src = cma_src_addr(priv);
	int i;

	KUNIT_EXPECT_EQ(test, rdma_listen(&priv->id, 9), 0);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, src->sa_family, AF_INET);
	KUNIT_EXPECT_TRUE(test, cma_addr_any(src));
	KUNIT_EXPECT_NE(test, ntohs(cma_addr_port(src)), 0);
	KUNIT_EXPECT_NOT_NULL(test, priv->bind);
	KUNIT_EXPECT_EQ(test, priv->backlog, 9);
	rdma_destroy_id(&priv->id);

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		priv = owner_id(test, &o);
		cma_fix_force(priv, refused[i]);
		KUNIT_EXPECT_EQ_MSG(test, rdma_listen(&priv->id, 1), -EINVAL,
				    "%s", cma_state_name(refused[i]));
		KUNIT_EXPECT_EQ(test, cma_id_state(priv), refused[i]);
		KUNIT_EXPECT_EQ(test, cma_listen_count(priv), 0);
		cma_fix_end(priv);
	}
	KUNIT_EXPECT_EQ(test, o.count, 0);
}

/*
 * A listener has its port to itself (6.1's rule): an id bound with reuse
 * is checked again without it, against every other owner of the port:
 * the same address is -EADDRINUSE, a wildcard -EADDRNOTAVAIL. Once it
 * listens, it has lost its reuse and nobody binds next to it. Specific
 * addresses that differ share the port, and ib_cm's listener too.
 */
static void cma_listen_reuse_test(struct kunit *test)
{
	struct mock_ibdev *mdev = fix(test)->mdev;
	__be64 sid = tcp_sid(LPORT(6));
	struct cma_id_priv *a, *b, *c;
	struct req_owner o = {};
	struct sockaddr_in sin;
	int users;

	a = ip_bound(test, &o, LO_IP(5), LPORT(4), NULL, true);
	b = ip_bound(test, &o, LO_IP(5), LPORT(4), NULL, true);
	KUNIT_EXPECT_EQ(test, rdma_listen(&a->id, 1), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, cma_id_state(a), RDMA_CM_ADDR_BOUND);
	KUNIT_EXPECT_TRUE(test, a->reuseaddr);
	KUNIT_EXPECT_EQ(test, cma_listen_count(a), 0);
	rdma_destroy_id(&a->id);
	rdma_destroy_id(&b->id);

	a = any_bound(test, &o, LPORT(5), true);
	b = any_bound(test, &o, LPORT(5), true);
	KUNIT_EXPECT_EQ(test, rdma_listen(&a->id, 1), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, cma_id_state(a), RDMA_CM_ADDR_BOUND);
	rdma_destroy_id(&b->id);
	KUNIT_EXPECT_EQ(test, rdma_listen(&a->id, 1), 0);
	KUNIT_EXPECT_FALSE(test, a->reuseaddr);
	/* Another id asking for reuse of the listener's port: refused. */
	b = owner_id(test, &o);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(&b->id, 1), 0);
	sin = (struct sockaddr_in){ .sin_family = AF_INET,
				    .sin_port = htons(LPORT(5)) };
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(&b->id, (struct sockaddr *)&sin),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, cma_id_state(b), RDMA_CM_IDLE);
	rdma_destroy_id(&b->id);
	rdma_destroy_id(&a->id);

	/* 127.0.0.5 and 127.0.0.6 on one port: both listen, one IB CM id. */
	b = ip_bound(test, &o, LO_IP(5), LPORT(6), NULL, true);
	c = ip_bound(test, &o, LO_IP(6), LPORT(6), NULL, true);
	KUNIT_EXPECT_EQ(test, rdma_listen(&b->id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_listen(&c->id, 1), 0);
	KUNIT_EXPECT_PTR_EQ(test, cma_listen_ib(b, &mdev->ibdev),
			    cma_listen_ib(c, &mdev->ibdev));
	KUNIT_EXPECT_PTR_EQ(test, cm_listener(&mdev->ibdev, sid, &users),
			    cma_listen_ib(b, &mdev->ibdev));
	KUNIT_EXPECT_EQ(test, users, 2);
	rdma_destroy_id(&b->id);
	KUNIT_EXPECT_PTR_EQ(test, cm_listener(&mdev->ibdev, sid, &users),
			    cma_listen_ib(c, &mdev->ibdev));
	KUNIT_EXPECT_EQ(test, users, 1);
	rdma_destroy_id(&c->id);
	KUNIT_EXPECT_NULL(test, cm_listener(&mdev->ibdev, sid, NULL));
}

/*
 * A listener bound to a device that goes: its owner hears DEVICE_REMOVAL
 * and its IB CM listener is gone right after, whether the owner keeps
 * the id for now or has it destroyed from the event.
 */
static void cma_listen_bound_removal_test(struct kunit *test)
{
	struct mock_ibdev *d2 = cma_fix_device(test);
	struct ib_device *gone = &d2->ibdev;
	__be64 sid = tcp_sid(LPORT(7));
	struct req_owner o = {};
	struct cma_id_priv *l;

	l = ip_bound(test, &o, LO_IP(1), LPORT(7), d2, false);
	KUNIT_EXPECT_EQ(test, rdma_listen(&l->id, 1), 0);
	KUNIT_EXPECT_NOT_NULL(test, cm_listener(&d2->ibdev, sid, NULL));
	/* What the removal of d2 does to an id on it; the owner keeps it. */
	mutex_lock(&cma.lock);
	list_del_init(&l->dev_node);
	mutex_unlock(&cma.lock);
	cma_id_get(l);
	cma_id_remove(l);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_DEVICE_REMOVAL);
	KUNIT_EXPECT_EQ(test, o.state, RDMA_CM_DEVICE_REMOVAL);
	KUNIT_EXPECT_EQ(test, cma_listen_count(l), 0);
	KUNIT_EXPECT_NULL(test, cm_listener(&d2->ibdev, sid, NULL));
	rdma_destroy_id(&l->id);

	/* The owner destroys its listener from the event: d2 can go. */
	o = (struct req_owner){ .ret = 1 };
	l = ip_bound(test, &o, LO_IP(1), LPORT(7), d2, false);
	KUNIT_EXPECT_EQ(test, rdma_listen(&l->id, 1), 0);
	cma_fix_device_destroy(test, d2);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_DEVICE_REMOVAL);
	KUNIT_EXPECT_NULL(test, cm_listener(gone, sid, NULL));
}

static struct kunit_case cma_listen_cases[] = {
	KUNIT_CASE(cma_listen_bound_test),
	KUNIT_CASE(cma_listen_any_test),
	KUNIT_CASE(cma_listen_device_added_test),
	KUNIT_CASE(cma_listen_state_test),
	KUNIT_CASE(cma_listen_reuse_test),
	KUNIT_CASE(cma_listen_bound_removal_test),
	{}
};

static struct kunit_suite cma_listen_suite = {
	.name = "rdma_cm_listen",
	.init = lfix_init,
	.exit = lfix_exit,
	.test_cases = cma_listen_cases,
};

/* ---- rdma_cm_req: REQs ------------------------------------------------------ */

/*
 * A RoCE REQ for a wildcard listener: a new id in CONNECT, its owner
 * told with the consumer's 56 bytes and the peer's parameters, the new
 * id on the REQ's device, port and GID entry with the header's addresses,
 * the REQ's IB CM id its own, the delayed MRA armed.
 */
static void cma_listen_req_test(struct kunit *test)
{
	struct lfix *f = fix(test);
	struct req_msg *m = req_v4(test, f->lo, LO_IP(1), LPORT(8));
	unsigned int refs = gid_refs(f->lo), drefs;
	const struct sockaddr_in *src, *dst;
	struct rdma_dev_addr *dev_addr;
	struct req_owner o = {};
	struct cma_id_priv *l, *c;
	struct ib_cm_id *ib;

	l = any_bound(test, &o, LPORT(8), false);
	KUNIT_ASSERT_EQ(test, rdma_listen(&l->id, 1), 0);
	drefs = dev_refs(f->mdev);
	KUNIT_ASSERT_EQ(test, req_feed(test, f->mdev, m, IB_CM_REQ_RCVD, &ib), 0);
	KUNIT_ASSERT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, o.ev.status, 0);
	KUNIT_EXPECT_EQ(test, o.state, RDMA_CM_CONNECT);
	KUNIT_ASSERT_PTR_NE(test, o.id, &l->id);
	c = to_cma_id(o.id);

	/* The event: the bytes after the header, and the peer's parameters. */
	KUNIT_EXPECT_PTR_EQ(test, o.ev.param.conn.private_data,
			    (const void *)(m->data + CMA_HDR_SIZE));
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.private_data_len, 56);
	KUNIT_EXPECT_EQ(test, ((const u8 *)o.ev.param.conn.private_data)[0],
			CMA_HDR_SIZE);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.qp_num, 0x4242U);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.responder_resources, 4);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.initiator_depth, 2);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.flow_control, 1);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.retry_count, 5);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.rnr_retry_count, 6);
	KUNIT_EXPECT_EQ(test, o.ev.param.conn.srq, 0);
	KUNIT_EXPECT_EQ(test, o.ev.ece.vendor_id, 0x15b3U);
	KUNIT_EXPECT_EQ(test, o.ev.ece.attr_mod, 3U);

	/* The new id: the listener's owner, the REQ's QP type, CONNECT. */
	KUNIT_EXPECT_EQ(test, cma_id_state(c), RDMA_CM_CONNECT);
	KUNIT_EXPECT_PTR_EQ(test, c->id.context, (void *)&o);
	KUNIT_EXPECT_EQ(test, c->id.ps, RDMA_PS_TCP);
	KUNIT_EXPECT_EQ(test, c->id.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_PTR_EQ(test, c->id.route.addr.dev_addr.net, &init_net);
	src = (const struct sockaddr_in *)cma_src_addr(c);
	dst = (const struct sockaddr_in *)cma_dst_addr(c);
	KUNIT_EXPECT_EQ(test, src->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(src->sin_addr.s_addr), LO_HOST(1));
	KUNIT_EXPECT_EQ(test, ntohs(src->sin_port), LPORT(8));
	KUNIT_EXPECT_EQ(test, dst->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(dst->sin_addr.s_addr), LO_HOST(2));
	KUNIT_EXPECT_EQ(test, ntohs(dst->sin_port), 0x4321);

	/* Its device, route and addresses. */
	KUNIT_EXPECT_PTR_EQ(test, c->id.device, &f->mdev->ibdev);
	KUNIT_EXPECT_EQ(test, c->id.port_num, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, dev_refs(f->mdev), drefs + 1);
	KUNIT_EXPECT_EQ(test, c->id.route.num_pri_alt_paths, 1);
	KUNIT_ASSERT_NOT_NULL(test, c->id.route.path_rec);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(c->id.route.path_rec[0].service_id),
			RDMA_IB_IP_PS_TCP | LPORT(8));
	KUNIT_EXPECT_EQ(test, memcmp(&c->id.route.path_rec[0], &m->path,
				     sizeof(m->path)), 0);
	dev_addr = &c->id.route.addr.dev_addr;
	KUNIT_EXPECT_EQ(test, dev_addr->bound_dev_if,
			init_net.loopback_dev->ifindex);
	KUNIT_EXPECT_EQ(test, dev_addr->dev_type, ARPHRD_LOOPBACK);
	KUNIT_EXPECT_PTR_EQ(test, dev_addr->sgid_attr, f->lo);
	KUNIT_EXPECT_EQ(test, gid_refs(f->lo), refs + 1);
	KUNIT_EXPECT_EQ(test, c->gid_type, IB_GID_TYPE_ROCE);

	/* The REQ's IB CM id is the new id's now; the MRA waits for a repeat. */
	KUNIT_EXPECT_PTR_EQ(test, c->ib, ib);
	KUNIT_EXPECT_PTR_EQ(test, ib->context, (void *)c);
	KUNIT_EXPECT_FALSE(test, ib->cm_handler == req_dummy);
	KUNIT_EXPECT_EQ(test, ib->state, IB_CM_MRA_REQ_SENT);
	KUNIT_EXPECT_EQ(test, to_cm_id_priv(ib)->service_timeout, 24);
	KUNIT_EXPECT_EQ(test, refcount_read(&l->refs), 1U);

	cm_force(ib, IB_CM_IDLE);
	rdma_destroy_id(&c->id);
	KUNIT_EXPECT_EQ(test, gid_refs(f->lo), refs);
	KUNIT_EXPECT_EQ(test, dev_refs(f->mdev), drefs);
	rdma_destroy_id(&l->id);
}

/*
 * An IB REQ (no GID entry reported, init_net): the new id's addresses
 * come from the path (our GID, the peer's, the P_Key), its GID entry is
 * our GID's on the port; an alternate path becomes the second path.
 */
static void cma_listen_req_ib_test(struct kunit *test)
{
	struct lfix *f = fix(test);
	struct req_msg *m = req_v4(test, NULL, LO_IP(1), LPORT(9));
	union ib_gid ours = mock_ibdev_gid(CMA_FIX_IB_PORT, 0);
	union ib_gid peer = mock_ibdev_gid(CMA_FIX_IB_PORT, 5);
	struct rdma_dev_addr *dev_addr;
	struct req_owner o = {};
	struct cma_id_priv *l, *c;
	struct ib_cm_id *ib;
	union ib_gid gid;

	m->ev.param.req_rcvd.port = CMA_FIX_IB_PORT;
	m->path.sgid = ours;
	m->path.dgid = peer;
	m->path.pkey = cpu_to_be16(0x8001);
	m->path.rec_type = SA_PATH_REC_TYPE_IB;
	m->alt = m->path;
	m->alt.sgid = mock_ibdev_gid(CMA_FIX_IB_PORT, 1);
	m->ev.param.req_rcvd.alternate_path = &m->alt;

	l = any_bound(test, &o, LPORT(9), false);
	KUNIT_ASSERT_EQ(test, rdma_listen(&l->id, 1), 0);
	KUNIT_ASSERT_EQ(test, req_feed(test, f->mdev, m, IB_CM_REQ_RCVD, &ib), 0);
	KUNIT_ASSERT_EQ(test, o.count, 1);
	c = to_cma_id(o.id);
	KUNIT_EXPECT_EQ(test, c->id.port_num, CMA_FIX_IB_PORT);
	KUNIT_EXPECT_EQ(test, c->id.route.num_pri_alt_paths, 2);
	KUNIT_ASSERT_NOT_NULL(test, c->id.route.path_rec);
	KUNIT_EXPECT_EQ(test, memcmp(&c->id.route.path_rec[1], &m->alt,
				     sizeof(m->alt)), 0);
	dev_addr = &c->id.route.addr.dev_addr;
	KUNIT_EXPECT_EQ(test, dev_addr->dev_type, ARPHRD_INFINIBAND);
	KUNIT_EXPECT_EQ(test, dev_addr->bound_dev_if, 0);
	rdma_addr_get_sgid(dev_addr, &gid);
	KUNIT_EXPECT_EQ(test, memcmp(&gid, &ours, sizeof(gid)), 0);
	rdma_addr_get_dgid(dev_addr, &gid);
	KUNIT_EXPECT_EQ(test, memcmp(&gid, &peer, sizeof(gid)), 0);
	KUNIT_EXPECT_EQ(test, ib_addr_get_pkey(dev_addr), 0x8001);
	KUNIT_ASSERT_NOT_NULL(test, dev_addr->sgid_attr);
	KUNIT_EXPECT_EQ(test, memcmp(&dev_addr->sgid_attr->gid, &ours,
				     sizeof(ours)), 0);
	KUNIT_EXPECT_EQ(test, dev_addr->sgid_attr->port_num, CMA_FIX_IB_PORT);
	KUNIT_EXPECT_EQ(test, c->gid_type, IB_GID_TYPE_IB);
	/* rdma_read_gids(): the GIDs address resolution would have found. */
	rdma_read_gids(&c->id, &gid, NULL);
	KUNIT_EXPECT_EQ(test, memcmp(&gid, &ours, sizeof(gid)), 0);

	cm_force(ib, IB_CM_IDLE);
	rdma_destroy_id(&c->id);
	rdma_destroy_id(&l->id);
}

/* REQs nobody takes: no id made, nobody told, ib_cm's id left to ib_cm. */
static void cma_listen_req_refused_test(struct kunit *test)
{
	struct lfix *f = fix(test);
	unsigned int refs = gid_refs(f->lo), drefs;
	struct req_owner o = {};
	struct cma_id_priv *l, *s;
	struct mock_ibdev *d2;
	struct req_msg *m;

	/* Nobody on the port. */
	m = req_v4(test, f->lo, LO_IP(1), LPORT(10));
	req_refused(test, f->mdev, m, &o, -ECONNREFUSED);

	l = any_bound(test, &o, LPORT(10), false);
	KUNIT_ASSERT_EQ(test, rdma_listen(&l->id, 1), 0);
	drefs = dev_refs(f->mdev);
	/* An IPv6 header for an IPv4 listener. */
	m->data[1] = 0x60;
	req_refused(test, f->mdev, m, &o, -ECONNREFUSED);
	/* A header version rdma_cm does not know. */
	m = req_v4(test, f->lo, LO_IP(1), LPORT(10));
	m->data[0] = 1;
	req_refused(test, f->mdev, m, &o, -EINVAL);
	/* A QP type the listener does not take. */
	m = req_v4(test, f->lo, LO_IP(1), LPORT(10));
	m->ev.param.req_rcvd.qp_type = IB_QPT_UC;
	req_refused(test, f->mdev, m, &o, -EINVAL);
	/* A SIDR REQ for this RC listener's port: a QP type it does not take. */
	m = sidr_v4(test, f->lo, LO_IP(1), RDMA_IB_IP_PS_TCP, LPORT(10));
	req_refused(test, f->mdev, m, &o, -EINVAL);
	/* A SIDR REQ on the IB port: no GID to find our address by. */
	m->ev.param.sidr_req_rcvd.port = CMA_FIX_IB_PORT;
	m->ev.param.sidr_req_rcvd.sgid_attr = NULL;
	req_refused(test, f->mdev, m, &o, -EOPNOTSUPP);
	/*
	 * A header for 127.0.0.9 that came in on the GID entry of 127.0.0.1:
	 * the listener takes it, the new id does not, and goes.
	 */
	m = req_v4(test, f->lo, LO_IP(9), LPORT(10));
	req_refused(test, f->mdev, m, &o, -EINVAL);
	KUNIT_EXPECT_EQ(test, gid_refs(f->lo), refs);
	KUNIT_EXPECT_EQ(test, dev_refs(f->mdev), drefs);
	KUNIT_EXPECT_EQ(test, refcount_read(&l->refs), 1U);
	rdma_destroy_id(&l->id);
	/* The listener gone, its port takes nothing. */
	m = req_v4(test, f->lo, LO_IP(1), LPORT(10));
	req_refused(test, f->mdev, m, &o, -ECONNREFUSED);

	/* A listener on 127.0.0.3 and a REQ for 127.0.0.1. */
	s = ip_bound(test, &o, LO_IP(3), LPORT(11), NULL, false);
	KUNIT_ASSERT_EQ(test, rdma_listen(&s->id, 1), 0);
	m = req_v4(test, f->lo, LO_IP(1), LPORT(11));
	req_refused(test, f->mdev, m, &o, -ECONNREFUSED);
	rdma_destroy_id(&s->id);

	/* A listener bound to another device. */
	d2 = cma_fix_device(test);
	s = ip_bound(test, &o, LO_IP(1), LPORT(12), d2, false);
	KUNIT_EXPECT_EQ(test, rdma_listen(&s->id, 1), 0);
	m = req_v4(test, f->lo, LO_IP(1), LPORT(12));
	req_refused(test, f->mdev, m, &o, -ECONNREFUSED);
	rdma_destroy_id(&s->id);
	cma_fix_device_destroy(test, d2);
	KUNIT_EXPECT_EQ(test, o.count, 0);
}

/*
 * The owner refuses the CONNECT_REQUEST (returns non-zero): the new id is
 * gone with all it held, the REQ handler returns non-zero so that ib_cm
 * rejects and destroys its IB CM id, which the new id must not have
 * destroyed.
 */
static void cma_listen_req_owner_refuses_test(struct kunit *test)
{
	struct lfix *f = fix(test);
	struct req_msg *m = req_v4(test, f->lo, LO_IP(1), LPORT(13));
	unsigned int refs = gid_refs(f->lo), drefs;
	struct req_owner o = { .ret = -ENOMEM };
	struct cma_id_priv *l;
	struct ib_cm_id *ib;

	l = any_bound(test, &o, LPORT(13), false);
	KUNIT_ASSERT_EQ(test, rdma_listen(&l->id, 1), 0);
	drefs = dev_refs(f->mdev);
	KUNIT_EXPECT_NE(test, req_feed(test, f->mdev, m, IB_CM_REQ_RCVD, &ib), 0);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_PTR_NE(test, o.id, &l->id);
	KUNIT_EXPECT_EQ(test, gid_refs(f->lo), refs);
	KUNIT_EXPECT_EQ(test, dev_refs(f->mdev), drefs);
	KUNIT_EXPECT_EQ(test, refcount_read(&l->refs), 1U);
	/* Still ib_cm's: REQ_RCVD, no MRA armed, destroyed by it (here). */
	KUNIT_EXPECT_EQ(test, ib->state, IB_CM_REQ_RCVD);
	cm_end(ib);
	KUNIT_EXPECT_EQ(test, cma_id_state(l), RDMA_CM_LISTEN);
	rdma_destroy_id(&l->id);
}

/*
 * A SIDR REQ for a UDP listener: a UD id in CONNECT, its addresses and
 * GID entry from the REQ, no route; the owner hears CONNECT_REQUEST with
 * the 180 bytes after the header and nothing else; no MRA is armed.
 */
static void cma_listen_sidr_test(struct kunit *test)
{
	struct lfix *f = fix(test);
	struct req_msg *m = sidr_v4(test, f->lo, LO_IP(1), RDMA_IB_IP_PS_UDP,
				    LPORT(14));
	unsigned int refs = gid_refs(f->lo);
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(LPORT(14)) };
	union ib_gid peer = cma_fix_v4_gid(LO_IP(2));
	struct req_owner o = {};
	struct rdma_cm_id *id;
	struct cma_id_priv *l, *c;
	struct ib_cm_id *ib;

	id = rdma_create_id(&init_net, req_owner_handler, &o, RDMA_PS_UDP,
			    IB_QPT_UD);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id));
	l = to_cma_id(id);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, (struct sockaddr *)&sin), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(id, 1), 0);
	KUNIT_ASSERT_EQ(test, req_feed(test, f->mdev, m, IB_CM_SIDR_REQ_RCVD,
				       &ib), 0);
	KUNIT_ASSERT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, o.state, RDMA_CM_CONNECT);
	KUNIT_EXPECT_PTR_EQ(test, o.ev.param.ud.private_data,
			    (const void *)(m->data + CMA_HDR_SIZE));
	KUNIT_EXPECT_EQ(test, o.ev.param.ud.private_data_len, 180);
	KUNIT_EXPECT_EQ(test, o.ev.param.ud.qp_num, 0U);
	c = to_cma_id(o.id);
	KUNIT_EXPECT_EQ(test, c->id.ps, RDMA_PS_UDP);
	KUNIT_EXPECT_EQ(test, c->id.qp_type, IB_QPT_UD);
	KUNIT_EXPECT_NULL(test, c->id.route.path_rec);
	KUNIT_EXPECT_EQ(test, c->id.route.num_pri_alt_paths, 0);
	KUNIT_EXPECT_EQ(test, c->id.port_num, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_PTR_EQ(test, c->id.route.addr.dev_addr.sgid_attr, f->lo);
	KUNIT_EXPECT_EQ(test, memcmp(c->id.route.addr.dev_addr.dst_dev_addr +
				     rdma_addr_gid_offset(&c->id.route.addr.dev_addr),
				     peer.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, ntohs(((struct sockaddr_in *)cma_dst_addr(c))->sin_port),
			0x4321);
	KUNIT_EXPECT_PTR_EQ(test, c->ib, ib);
	KUNIT_EXPECT_EQ(test, ib->state, IB_CM_SIDR_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, gid_refs(f->lo), refs + 1);

	cm_force(ib, IB_CM_IDLE);
	rdma_destroy_id(&c->id);
	KUNIT_EXPECT_EQ(test, gid_refs(f->lo), refs);
	rdma_destroy_id(&l->id);
}

static struct kunit_case cma_req_cases[] = {
	KUNIT_CASE(cma_listen_sidr_test),
	KUNIT_CASE(cma_listen_req_test),
	KUNIT_CASE(cma_listen_req_ib_test),
	KUNIT_CASE(cma_listen_req_refused_test),
	KUNIT_CASE(cma_listen_req_owner_refuses_test),
	{}
};

static struct kunit_suite cma_req_suite = {
	.name = "rdma_cm_req",
	.init = lfix_init,
	.exit = lfix_exit,
	.test_cases = cma_req_cases,
};

kunit_test_suites(&cma_listen_suite, &cma_req_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's listeners and the ids REQs make of them");
MODULE_LICENSE("GPL");
