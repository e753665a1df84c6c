// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites rdma_cm_table, rdma_cm_api, rdma_cm_device: every (state, input)
 * cell of rdma_cm's ids, the engine's claim and undo, the errnos of the API
 * built so far, the ib_client.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <rdma/ib.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>

#include "kunit/cma/cma_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The expectations are written from 6.1's behaviour as CM-UVERBS 2e and
 * cma.c describe it, not from core/cma/cma_table.c: a cell listed here
 * must exist and lead where it says; any cell not listed must refuse its
 * input with -EINVAL and leave the id where it was.
 */

#define SAME	CMA_SAME

struct cma_expect {
	u8	state;
	u8	input;
	u8	next;
	int	ret;	/* fed to a fresh id with no arguments */
	bool	run;	/* the handler can run that way */
	s8	event;	/* what the owner then hears, or NONE */
};

#define NONE	(-1)
#define EV(e)	RDMA_CM_EVENT_##e

/* A cell built now that runs with no arguments, and what it tells. */
#define DONE(s, i, n, e) { RDMA_CM_##s, CMA_IN_##i, RDMA_CM_##n, 0, true, e }
/*
 * A cell that needs arguments (a bound address, a REQ): its own suite
 * runs it (rdma_cm_listen has ADDR_BOUND x listen and IDLE x CM REQ).
 */
#define ARGS(s, i, n)	{ RDMA_CM_##s, CMA_IN_##i, RDMA_CM_##n, 0, false, NONE }
/* A cell that needs the IB CM exchange: before it, -EINVAL (as 6.1). */
#define NOIB(s, i)	{ RDMA_CM_##s, CMA_IN_##i, SAME, -EINVAL, true, NONE }
/*
 * A call that needs the id on a device (multicast joins): a fresh id has
 * none, and the cell refuses with -EINVAL, leaving it where it was;
 * rdma_cm_mcast runs it for real.
 */
#define NODEV(s, i)	{ RDMA_CM_##s, CMA_IN_##i, SAME, -EINVAL, true, NONE }
/* Device removal and destruction, taken by every live state. */
#define REMOVED(s)	DONE(s, DEVICE_REMOVAL, DEVICE_REMOVAL, EV(DEVICE_REMOVAL))
#define DESTROYED(s)	DONE(s, DESTROY, DESTROYING, NONE)

static const struct cma_expect cma_expects[] = {
	ARGS(IDLE, BIND, ADDR_BOUND),
	ARGS(IDLE, CM_REQ, CONNECT),
	ARGS(IDLE, IW_REQ, CONNECT),
	REMOVED(IDLE),
	DESTROYED(IDLE),

	ARGS(ADDR_BOUND, RESOLVE_ADDR, ADDR_QUERY),
	ARGS(ADDR_BOUND, LISTEN, LISTEN),
	NODEV(ADDR_BOUND, JOIN),
	REMOVED(ADDR_BOUND),
	DESTROYED(ADDR_BOUND),

	ARGS(ADDR_QUERY, ADDR_OK, ADDR_RESOLVED),
	DONE(ADDR_QUERY, ADDR_ERR, ADDR_BOUND, EV(ADDR_ERROR)),
	REMOVED(ADDR_QUERY),
	DESTROYED(ADDR_QUERY),

	ARGS(ADDR_RESOLVED, RESOLVE_ROUTE, ROUTE_QUERY),
	ARGS(ADDR_RESOLVED, SET_IB_PATH, ROUTE_RESOLVED),
	NODEV(ADDR_RESOLVED, JOIN),
	REMOVED(ADDR_RESOLVED),
	DESTROYED(ADDR_RESOLVED),

	DONE(ROUTE_QUERY, ROUTE_OK, ROUTE_RESOLVED, EV(ROUTE_RESOLVED)),
	DONE(ROUTE_QUERY, ROUTE_ERR, ADDR_RESOLVED, EV(ROUTE_ERROR)),
	REMOVED(ROUTE_QUERY),
	DESTROYED(ROUTE_QUERY),

	ARGS(ROUTE_RESOLVED, CONNECT, CONNECT),
	REMOVED(ROUTE_RESOLVED),
	DESTROYED(ROUTE_RESOLVED),

	NOIB(CONNECT, ACCEPT),
	NOIB(CONNECT, REJECT),
	NOIB(CONNECT, DISCONNECT),
	NOIB(CONNECT, NOTIFY),
	{ RDMA_CM_CONNECT, CMA_IN_CM_REP, SAME, 0, false, NONE },
	{ RDMA_CM_CONNECT, CMA_IN_CM_ESTABLISHED, SAME, 0, true, EV(ESTABLISHED) },
	{ RDMA_CM_CONNECT, CMA_IN_CM_REJ, SAME, 0, false, NONE },
	{ RDMA_CM_CONNECT, CMA_IN_CM_UNREACHABLE, SAME, 0, true, EV(UNREACHABLE) },
	ARGS(CONNECT, CM_DISCONNECT, DISCONNECT),
	{ RDMA_CM_CONNECT, CMA_IN_CM_SIDR_REP, SAME, 0, false, NONE },
	/*
	 * iw_cm's events, here with status 0 and nothing else set (the
	 * suite rdma_cm_iw runs every status): the id stays in CONNECT.
	 */
	{ RDMA_CM_CONNECT, CMA_IN_IW_REPLY, SAME, 0, true, EV(ESTABLISHED) },
	{ RDMA_CM_CONNECT, CMA_IN_IW_ESTABLISHED, SAME, 0, true,
	  EV(ESTABLISHED) },
	{ RDMA_CM_CONNECT, CMA_IN_IW_CLOSE, SAME, 0, true, EV(DISCONNECTED) },
	REMOVED(CONNECT),
	DESTROYED(CONNECT),

	NOIB(DISCONNECT, DISCONNECT),
	NOIB(DISCONNECT, NOTIFY),
	{ RDMA_CM_DISCONNECT, CMA_IN_CM_TIMEWAIT_EXIT, SAME, 0, true,
	  EV(TIMEWAIT_EXIT) },
	REMOVED(DISCONNECT),
	DESTROYED(DISCONNECT),

	REMOVED(LISTEN),
	DESTROYED(LISTEN),

	NOIB(DEVICE_REMOVAL, DISCONNECT),
	DONE(DEVICE_REMOVAL, DESTROY, DESTROYING, NONE),
};

static const struct cma_expect *cma_expect_find(u8 state, u8 input)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(cma_expects); i++)
		if (cma_expects[i].state == state && cma_expects[i].input == input)
			return &cma_expects[i];
	return NULL;
}

/* ---- rdma_cm_table --------------------------------------------------------- */

/* The table against the list, in both directions. */
static void cma_table_shape_test(struct kunit *test)
{
	int s, i;

	for (s = 0; s < CMA_STATES; s++) {
		for (i = 0; i < CMA_INPUTS; i++) {
			const struct cma_expect *e = cma_expect_find(s, i);
			const struct cma_cell *c = cma_table_cell(s, i);

			if (!e) {
				KUNIT_EXPECT_PTR_EQ_MSG(test, c->fn, NULL, "%s x %s",
							cma_state_name(s), cma_input_name(i));
				continue;
			}
			KUNIT_EXPECT_NOT_NULL_MSG(test, c->fn, "%s x %s",
						  cma_state_name(s), cma_input_name(i));
			KUNIT_EXPECT_EQ_MSG(test, c->next, e->next, "%s x %s",
					    cma_state_name(s), cma_input_name(i));
		}
	}
	KUNIT_EXPECT_PTR_EQ(test, cma_table_cell(CMA_STATES, 0)->fn, NULL);
	KUNIT_EXPECT_PTR_EQ(test, cma_table_cell(0, CMA_INPUTS)->fn, NULL);
}

/* One parameter per (state, input) pair. */
static const void *cell_gen(const void *prev, char *desc)
{
	static int n;

	n = prev ? n + 1 : 0;
	if (n >= CMA_STATES * CMA_INPUTS)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s x %s",
		 cma_state_name(n / CMA_INPUTS),
		 cma_input_name(n % CMA_INPUTS));
	return &n;
}

/*
 * Feed @input as cma_fix_feed() does, with an iw_cm event of status 0
 * for the inputs that carry one (the others do not look at it).
 */
static int cell_feed(struct cma_id_priv *priv, enum cma_input input)
{
	static const struct iw_cm_event iw_event;
	struct cma_in in = { .input = input, .iw_event = &iw_event };
	int ret;

	mutex_lock(&priv->handler_mutex);
	ret = cma_table_run(priv, &in);
	mutex_unlock(&priv->handler_mutex);
	return ret;
}

/*
 * Feed the input to an id in the state: a listed cell returns what the
 * list says and leaves the id in its next state (or where it was, when
 * the handler refused); any other input is refused and changes nothing.
 */
static void cma_table_cell_test(struct kunit *test)
{
	int n = *(const int *)test->param_value;
	u8 state = n / CMA_INPUTS, input = n % CMA_INPUTS;
	const struct cma_expect *e = cma_expect_find(state, input);
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	u8 after;
	int ret;

	if (e && !e->run)
		kunit_skip(test, "needs arguments: tested by its own case");
	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	cma_fix_force(priv, state);
	ret = cell_feed(priv, input);
	after = cma_id_state(priv);
	if (!e) {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		KUNIT_EXPECT_EQ(test, after, state);
	} else {
		KUNIT_EXPECT_EQ(test, ret, e->ret);
		if (e->ret || e->next == SAME)
			KUNIT_EXPECT_EQ(test, after, state);
		else
			KUNIT_EXPECT_EQ(test, after, e->next);
	}
	if (e && e->event != NONE) {
		KUNIT_EXPECT_EQ(test, o.count, 1);
		KUNIT_EXPECT_EQ(test, o.last, (int)e->event);
		KUNIT_EXPECT_EQ(test, o.state_seen, after);
	} else {
		KUNIT_EXPECT_EQ(test, o.count, 0);
	}
	cma_fix_end(priv);
}

/* The owner's handler runs with the id already in the cell's next state. */
static void cma_table_claim_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);

	cma_fix_force(priv, RDMA_CM_ADDR_RESOLVED);
	KUNIT_EXPECT_EQ(test, cma_fix_feed(priv, CMA_IN_DEVICE_REMOVAL), 0);
	KUNIT_EXPECT_EQ(test, o.state_seen, RDMA_CM_DEVICE_REMOVAL);
	/* Removed twice: the second finds DEVICE_REMOVAL, which refuses. */
	KUNIT_EXPECT_EQ(test, cma_fix_feed(priv, CMA_IN_DEVICE_REMOVAL), -EINVAL);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	cma_fix_end(priv);
}

/* A handler asking for destruction: the engine keeps the new state. */
static void cma_table_destroy_request_test(struct kunit *test)
{
	struct cma_owner o = { .ret = -ENOMEM };
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);

	cma_fix_force(priv, RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, cma_fix_feed(priv, CMA_IN_DEVICE_REMOVAL),
			CMA_DESTROY);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_DEVICE_REMOVAL);
	cma_fix_end(priv);
}

/*
 * cma_id_remove(), what the device's removal does to each id: the owner
 * that returns non-zero has its id destroyed there and then (the test
 * holds no pointer after it); the one that returns 0 destroys it later.
 */
static void cma_table_remove_test(struct kunit *test)
{
	struct cma_owner keep = {}, drop = { .ret = 1 };
	struct cma_id_priv *a = cma_fix_id(test, &keep, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *b = cma_fix_id(test, &drop, RDMA_PS_TCP, IB_QPT_RC);

	cma_fix_force(a, RDMA_CM_ADDR_BOUND);
	cma_fix_force(b, RDMA_CM_ADDR_BOUND);
	cma_id_get(a);
	cma_id_remove(a);
	cma_id_get(b);
	cma_id_remove(b);
	KUNIT_EXPECT_EQ(test, keep.count, 1);
	KUNIT_EXPECT_EQ(test, drop.count, 1);
	KUNIT_EXPECT_EQ(test, cma_id_state(a), RDMA_CM_DEVICE_REMOVAL);
	rdma_destroy_id(&a->id);
}

/* Nothing reaches an id being destroyed, not even its destruction. */
static void cma_table_destroying_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	int i;

	cma_fix_force(priv, RDMA_CM_DESTROYING);
	for (i = 0; i < CMA_INPUTS; i++)
		KUNIT_EXPECT_EQ_MSG(test, cma_fix_feed(priv, i), -EINVAL, "%s",
				    cma_input_name(i));
	KUNIT_EXPECT_EQ(test, o.count, 0);
	cma_fix_end(priv);
}

static struct kunit_case cma_table_cases[] = {
	KUNIT_CASE(cma_table_shape_test),
	KUNIT_CASE_PARAM(cma_table_cell_test, cell_gen),
	KUNIT_CASE(cma_table_claim_test),
	KUNIT_CASE(cma_table_destroy_request_test),
	KUNIT_CASE(cma_table_remove_test),
	KUNIT_CASE(cma_table_destroying_test),
	{}
};

static struct kunit_suite cma_table_suite = {
	.name = "rdma_cm_table",
	.test_cases = cma_table_cases,
};

/* ---- rdma_cm_api ------------------------------------------------------------ */

static void cma_api_create_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	struct rdma_cm_id *uid;

	KUNIT_EXPECT_PTR_EQ(test, priv->id.context, (void *)&o);
	KUNIT_EXPECT_EQ(test, priv->id.ps, RDMA_PS_UDP);
	KUNIT_EXPECT_EQ(test, priv->id.qp_type, IB_QPT_UD);
	KUNIT_EXPECT_PTR_EQ(test, priv->id.device, NULL);
	KUNIT_EXPECT_PTR_EQ(test, priv->id.route.addr.dev_addr.net, &init_net);
	KUNIT_EXPECT_EQ(test, cma_id_state(priv), RDMA_CM_IDLE);
	KUNIT_EXPECT_EQ(test, priv->seq_num & ~0xffffffU, 0U);
	rdma_destroy_id(&priv->id);

	uid = rdma_create_user_id(cma_owner_handler, &o, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_FALSE(test, IS_ERR(uid));
	KUNIT_EXPECT_PTR_EQ(test, uid->route.addr.dev_addr.net,
			    current->nsproxy->net_ns);

	/* The handler lock is the id's handler_mutex. */
	rdma_lock_handler(uid);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&to_cma_id(uid)->handler_mutex));
	rdma_unlock_handler(uid);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&to_cma_id(uid)->handler_mutex));
	rdma_destroy_id(uid);
}

static void cma_api_timers_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *rc = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *ud = cma_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	struct cma_id_priv *xi = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_XRC_INI);

	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(&rc->id, 14), 0);
	KUNIT_EXPECT_TRUE(test, rc->timeout_set);
	KUNIT_EXPECT_EQ(test, rc->timeout, 14);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(&xi->id, 0), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(&ud->id, 14), -EINVAL);
	KUNIT_EXPECT_FALSE(test, ud->timeout_set);

	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(&rc->id, 0x1f), 0);
	KUNIT_EXPECT_EQ(test, rc->min_rnr_timer, 0x1f);
	KUNIT_EXPECT_TRUE(test, rc->min_rnr_timer_set);
	/* Six bits are too many, whatever the QP (checked first). */
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(&rc->id, 0x20), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(&ud->id, 0x20), -EINVAL);
	KUNIT_EXPECT_EQ(test, rc->min_rnr_timer, 0x1f);
	/* (A UD id with a valid value is -EINVAL with a warning: not run.) */

	rdma_set_service_type(&ud->id, 0x1b8);
	KUNIT_EXPECT_EQ(test, ud->tos, 0xb8);
	KUNIT_EXPECT_TRUE(test, ud->tos_set);
	rdma_destroy_id(&rc->id);
	rdma_destroy_id(&ud->id);
	rdma_destroy_id(&xi->id);
}

/* rdma_set_reuseaddr() by state: value 0 and 1, 0 = allowed. */
static const struct { u8 state; int off, on; } reuse_rules[] = {
	{ RDMA_CM_IDLE, 0, 0 },
	{ RDMA_CM_ADDR_BOUND, -EINVAL, 0 },
	{ RDMA_CM_ADDR_RESOLVED, -EINVAL, 0 },
	{ RDMA_CM_CONNECT, -EINVAL, 0 },
	{ RDMA_CM_LISTEN, -EINVAL, -EINVAL },
};

/* rdma_set_afonly() by state. */
static const struct { u8 state; int ret; } afonly_rules[] = {
	{ RDMA_CM_IDLE, 0 },
	{ RDMA_CM_ADDR_BOUND, 0 },
	{ RDMA_CM_ADDR_QUERY, -EINVAL },
	{ RDMA_CM_ADDR_RESOLVED, -EINVAL },
	{ RDMA_CM_LISTEN, -EINVAL },
	{ RDMA_CM_DESTROYING, -EINVAL },
};

static void cma_api_reuse_afonly_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	int i;

	for (i = 0; i < ARRAY_SIZE(reuse_rules); i++) {
		cma_fix_force(priv, reuse_rules[i].state);
		KUNIT_EXPECT_EQ_MSG(test, rdma_set_reuseaddr(&priv->id, 0),
				    reuse_rules[i].off, "%s",
				    cma_state_name(reuse_rules[i].state));
		KUNIT_EXPECT_EQ_MSG(test, rdma_set_reuseaddr(&priv->id, 7),
				    reuse_rules[i].on, "%s",
				    cma_state_name(reuse_rules[i].state));
	}
	for (i = 0; i < ARRAY_SIZE(afonly_rules); i++) {
		cma_fix_force(priv, afonly_rules[i].state);
		KUNIT_EXPECT_EQ_MSG(test, rdma_set_afonly(&priv->id, 1),
				    afonly_rules[i].ret, "%s",
				    cma_state_name(afonly_rules[i].state));
	}
	KUNIT_EXPECT_TRUE(test, priv->afonly);
	KUNIT_EXPECT_TRUE(test, priv->afonly_set);
	cma_fix_end(priv);
}

static void cma_api_service_id_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *tcp = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct cma_id_priv *udp = cma_fix_id(test, &o, RDMA_PS_UDP, IB_QPT_UD);
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(7174) };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(4420) };
	struct sockaddr_ib sib = { .sib_family = AF_IB,
				   .sib_sid = cpu_to_be64(0x1122334455667788ULL) };

	/* rping's port: CM-UVERBS 0.4. */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rdma_get_service_id(&tcp->id,
							      (struct sockaddr *)&sin)),
			0x0000000001061c06ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rdma_get_service_id(&udp->id,
							      (struct sockaddr *)&sin6)),
			0x0000000001111144ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rdma_get_service_id(&tcp->id,
							      (struct sockaddr *)&sib)),
			0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, RDMA_IB_IP_PS_TCP | 7174,
			be64_to_cpu(rdma_get_service_id(&tcp->id,
							(struct sockaddr *)&sin)));
	rdma_destroy_id(&tcp->id);
	rdma_destroy_id(&udp->id);
}

static void cma_api_strings_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	struct rdma_cm_event ev = {
		.event = RDMA_CM_EVENT_REJECTED,
		.status = IB_CM_REJ_CONSUMER_DEFINED,
		.param.conn = { .private_data = "x", .private_data_len = 148 },
	};
	u8 len = 99;

	KUNIT_EXPECT_STREQ(test, rdma_event_msg(RDMA_CM_EVENT_ADDR_RESOLVED),
			   "address resolved");
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(RDMA_CM_EVENT_ROUTE_RESOLVED),
			   "route resolved ");
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(RDMA_CM_EVENT_TIMEWAIT_EXIT),
			   "timewait exit");
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(RDMA_CM_EVENT_TIMEWAIT_EXIT + 1),
			   "unrecognized event");
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(-1), "unrecognized event");

	/* An id on no device has no transport to explain a reject. */
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(&priv->id, 28),
			   "unrecognized transport");
	KUNIT_EXPECT_PTR_EQ(test, rdma_consumer_reject_data(&priv->id, &ev, &len),
			    NULL);
	KUNIT_EXPECT_EQ(test, len, 0);
	rdma_destroy_id(&priv->id);
}

static void cma_api_misc_test(struct kunit *test)
{
	struct cma_owner o = {};
	struct cma_id_priv *priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	union ib_gid sgid, dgid;

	memset(&sgid, 0xaa, sizeof(sgid));
	memset(&dgid, 0xbb, sizeof(dgid));
	rdma_read_gids(&priv->id, &sgid, &dgid);
	KUNIT_EXPECT_TRUE(test, rdma_is_zero_gid(&sgid));
	KUNIT_EXPECT_TRUE(test, rdma_is_zero_gid(&dgid));
	rdma_read_gids(&priv->id, NULL, NULL);

	KUNIT_EXPECT_PTR_EQ(test, rdma_iw_cm_id(&priv->id), NULL);
	KUNIT_EXPECT_PTR_EQ(test, rdma_res_to_id(&priv->row.res), &priv->id);
	rdma_destroy_id(&priv->id);
}

/*
 * The ib_client: a device with an IB and a RoCE port gets a cma_device
 * with a GID type per port; its removal tells the ids on it.
 */
static void cma_api_device_test(struct kunit *test)
{
	struct mock_ibdev *mdev = cma_fix_device(test);
	struct cma_owner o = {};
	struct cma_id_priv *priv;
	struct cma_device *dev;

	dev = cma_device_of(&mdev->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_EQ(test, dev->nports, 2U);
	KUNIT_EXPECT_EQ(test, cma_device_gid_type(dev, 1), IB_GID_TYPE_IB);
	/* The mock's RoCE port is v1 only: no v2 to prefer. */
	KUNIT_EXPECT_EQ(test, cma_device_gid_type(dev, 2), IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, cma_device_roce_tos(dev, 2), 0);
	KUNIT_EXPECT_EQ(test, cma_device_gid_type(dev, 3), IB_GID_TYPE_IB);

	priv = cma_fix_id(test, &o, RDMA_PS_TCP, IB_QPT_RC);
	cma_fix_attach(priv, mdev, CMA_FIX_ROCE_PORT);
	KUNIT_EXPECT_PTR_EQ(test, priv->id.device, &mdev->ibdev);
	/* The owner destroys its id from the removal event: returns 1. */
	o.ret = 1;
	cma_fix_force(priv, RDMA_CM_ADDR_BOUND);
	cma_fix_device_destroy(test, mdev);
	KUNIT_EXPECT_EQ(test, o.count, 1);
	KUNIT_EXPECT_EQ(test, o.last, (int)RDMA_CM_EVENT_DEVICE_REMOVAL);
}

static void cma_api_ps_test(struct kunit *test)
{
	KUNIT_EXPECT_NOT_NULL(test, cma_ps_xa(&init_net, RDMA_PS_TCP));
	KUNIT_EXPECT_NOT_NULL(test, cma_ps_xa(&init_net, RDMA_PS_UDP));
	KUNIT_EXPECT_NOT_NULL(test, cma_ps_xa(&init_net, RDMA_PS_IPOIB));
	KUNIT_EXPECT_NOT_NULL(test, cma_ps_xa(&init_net, RDMA_PS_IB));
	KUNIT_EXPECT_PTR_NE(test, cma_ps_xa(&init_net, RDMA_PS_TCP),
			    cma_ps_xa(&init_net, RDMA_PS_UDP));
	KUNIT_EXPECT_PTR_EQ(test, cma_ps_xa(&init_net, 0x0107), NULL);
}

static struct kunit_case cma_api_cases[] = {
	KUNIT_CASE(cma_api_create_test),
	KUNIT_CASE(cma_api_timers_test),
	KUNIT_CASE(cma_api_reuse_afonly_test),
	KUNIT_CASE(cma_api_service_id_test),
	KUNIT_CASE(cma_api_strings_test),
	KUNIT_CASE(cma_api_misc_test),
	{}
};

static struct kunit_suite cma_api_suite = {
	.name = "rdma_cm_api",
	.test_cases = cma_api_cases,
};

/* ---- rdma_cm_device: the ib_client and the port spaces -------------------- */

static struct kunit_case cma_device_cases[] = {
	KUNIT_CASE(cma_api_device_test),
	KUNIT_CASE(cma_api_ps_test),
	{}
};

static struct kunit_suite cma_device_suite = {
	.name = "rdma_cm_device",
	.test_cases = cma_device_cases,
};

kunit_test_suites(&cma_table_suite, &cma_api_suite, &cma_device_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's id state table and API");
MODULE_LICENSE("GPL");
