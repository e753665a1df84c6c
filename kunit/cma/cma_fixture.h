/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rdma_cm suites' fixture: an owner that records its events, ids made and
 * put in a state, a mock device with an IB and a RoCE port.
 */
#ifndef RDMAOOT_KUNIT_CMA_CMA_FIXTURE_H
#define RDMAOOT_KUNIT_CMA_CMA_FIXTURE_H

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/rdma_cm.h>

#include "core/cma/cma.h"
#include "core/device/device.h"
#include "kunit/mock/mock_ibdev.h"

/* Long enough for the resolver's and rdma_cm's work items. */
#define CMA_FIX_WAIT	(2 * HZ)
/* The mock device's ports. */
#define CMA_FIX_IB_PORT		1
#define CMA_FIX_ROCE_PORT	2

/**
 * struct cma_owner - the owner of ids in a test
 * @count: events received
 * @last: the last event's type (-1: none)
 * @status: its status
 * @state_seen: the id's state while the handler ran
 * @ret: what the handler returns (non-zero: destroy the id)
 * @copy: if set, the last event is copied there
 * @event: completed on every event
 */
struct cma_owner {
	int			count;
	int			last;
	int			status;
	enum rdma_cm_state	state_seen;
	int			ret;
	struct rdma_cm_event	*copy;
	struct completion	event;
};

static inline int cma_owner_handler(struct rdma_cm_id *id,
				    struct rdma_cm_event *event)
{
	struct cma_owner *o = id->context;

	o->count++;
	o->last = event->event;
	o->status = event->status;
	o->state_seen = cma_id_state(to_cma_id(id));
	if (o->copy)
		*o->copy = *event;
	complete(&o->event);
	return o->ret;
}

/* Wait for the owner's next event; false if none came in time. */
static inline bool cma_owner_wait(struct cma_owner *o)
{
	return wait_for_completion_timeout(&o->event, CMA_FIX_WAIT);
}

/* A new id of @o in init_net. */
static inline struct cma_id_priv *cma_fix_id(struct kunit *test,
					     struct cma_owner *o,
					     enum rdma_ucm_port_space ps,
					     enum ib_qp_type qp_type)
{
	struct rdma_cm_id *id;

	o->last = -1;
	init_completion(&o->event);
	id = rdma_create_id(&init_net, cma_owner_handler, o, ps, qp_type);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id));
	return to_cma_id(id);
}

/* Put an id in @state as if it had got there (the test's privilege). */
static inline void cma_fix_force(struct cma_id_priv *priv,
				 enum rdma_cm_state state)
{
	priv->state = state;
}

/* Destroy an id whatever state a test left it in. */
static inline void cma_fix_end(struct cma_id_priv *priv)
{
	cma_fix_force(priv, RDMA_CM_IDLE);
	rdma_destroy_id(&priv->id);
}

/* Feed @input as its feeder would, with the handler lock held. */
static inline int cma_fix_feed(struct cma_id_priv *priv, enum cma_input input)
{
	struct cma_in in = { .input = input };
	int ret;

	mutex_lock(&priv->handler_mutex);
	ret = cma_table_run(priv, &in);
	mutex_unlock(&priv->handler_mutex);
	return ret;
}

/*
 * The mock device is a resource of the test: a case stopped by a failed
 * assertion still loses it, and the ids it left on the device go first
 * (removing a device waits for the ids on it to be destroyed, and nobody
 * else would). Their owner may be gone with the case's stack: destroying
 * an id delivers no event, so nothing reaches it.
 */
static inline int cma_fix_device_init(struct kunit_resource *res, void *mdev)
{
	res->data = mdev;
	return 0;
}

static inline void cma_fix_device_free(struct kunit_resource *res)
{
	struct mock_ibdev *mdev = res->data;
	struct cma_device *dev;
	struct cma_id_priv *priv;

	if (!mdev)	/* the test removed it itself */
		return;
	dev = cma_device_of(&mdev->ibdev);
	for (;;) {
		mutex_lock(&cma.lock);
		priv = dev ? list_first_entry_or_null(&dev->ids,
						      struct cma_id_priv,
						      dev_node) : NULL;
		mutex_unlock(&cma.lock);
		if (!priv)
			break;
		pr_info("cma fixture: destroying an id left in state %s\n",
			cma_state_name(cma_id_state(priv)));
		cma_fix_end(priv);
	}
	mock_ibdev_destroy(mdev);
}

static inline bool cma_fix_device_match(struct kunit *test,
					struct kunit_resource *res, void *mdev)
{
	return res->data == mdev;
}

/* A mock device as @cfg says; rdma_cm's client is on it. */
static inline struct mock_ibdev *
cma_fix_device_cfg(struct kunit *test, const struct mock_ibdev_cfg *cfg)
{
	struct mock_ibdev *mdev = mock_ibdev_create(cfg);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	if (!kunit_alloc_resource(test, cma_fix_device_init,
				  cma_fix_device_free, GFP_KERNEL, mdev)) {
		mock_ibdev_destroy(mdev);
		KUNIT_ASSERT_FAILURE(test, "no memory for the device resource");
	}
	KUNIT_ASSERT_NOT_NULL(test, cma_device_of(&mdev->ibdev));
	return mdev;
}

/* A mock device: port 1 IB, port 2 RoCE (v1); rdma_cm's client is on it. */
static inline struct mock_ibdev *cma_fix_device(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = {
		.nports = 2, .roce_port = CMA_FIX_ROCE_PORT,
	};

	return cma_fix_device_cfg(test, &cfg);
}

/* The same with a RoCE port of v1 and v2 (as NICs have; rxe has v2 only). */
static inline struct mock_ibdev *cma_fix_device_v2(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = {
		.nports = 2, .roce_port = CMA_FIX_ROCE_PORT, .roce_v2 = true,
	};

	return cma_fix_device_cfg(test, &cfg);
}

/*
 * Remove the device now, as a driver would: the ids on it see
 * DEVICE_REMOVAL and their owners decide. The end of the test then has
 * nothing left to do.
 */
static inline void cma_fix_device_destroy(struct kunit *test,
					  struct mock_ibdev *mdev)
{
	struct kunit_resource *res;

	res = kunit_find_resource(test, cma_fix_device_match, mdev);
	KUNIT_ASSERT_NOT_NULL(test, res);
	res->data = NULL;
	kunit_put_resource(res);
	mock_ibdev_destroy(mdev);
}

/* End the device now as the end of the test would: left ids first. */
static inline void cma_fix_device_end(struct kunit *test,
				      struct mock_ibdev *mdev)
{
	KUNIT_EXPECT_EQ(test, kunit_destroy_resource(test, cma_fix_device_match,
						     mdev), 0);
}

/* Put an id on port @port of @mdev, as binding to an address there would. */
/* The IPv4-mapped GID of @ip, as RoCE GID entries carry an IPv4 address. */
static inline union ib_gid cma_fix_v4_gid(__be32 ip)
{
	union ib_gid gid = {};

	ipv6_addr_set_v4mapped(ip, (struct in6_addr *)gid.raw);
	return gid;
}

/*
 * A GID entry of "lo" for @ip on the mock's RoCE port, of @type, as the
 * RoCE GID manager would add for an address on it. The entry holds "lo"
 * until a grace period after the device goes (suites rcu_barrier()).
 */
static inline void cma_fix_lo_gid_add(struct kunit *test,
				      struct mock_ibdev *mdev, __be32 ip,
				      enum ib_gid_type type)
{
	struct ib_gid_attr attr = { .gid_type = type };
	union ib_gid gid = cma_fix_v4_gid(ip);

	RCU_INIT_POINTER(attr.ndev, init_net.loopback_dev);
	KUNIT_ASSERT_EQ(test, ib_cache_gid_add(&mdev->ibdev, CMA_FIX_ROCE_PORT,
					       &gid, &attr), 0);
}

static inline void cma_fix_attach(struct cma_id_priv *priv,
				  struct mock_ibdev *mdev, u32 port)
{
	priv->id.port_num = port;
	mutex_lock(&cma.lock);
	cma_id_attach(priv, cma_device_of(&mdev->ibdev));
	mutex_unlock(&cma.lock);
}

#endif /* RDMAOOT_KUNIT_CMA_CMA_FIXTURE_H */
