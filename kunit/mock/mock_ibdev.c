// SPDX-License-Identifier: GPL-2.0-only
/* mock_ibdev: a fake RDMA driver the KUnit suites register devices with. */

#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

/*
 * Every mock device not yet deallocated, so a suite's exit can clean up
 * after a test that stopped half way. mock_lock protects mock_devices and
 * each device's entry on it.
 */
static DEFINE_MUTEX(mock_lock);
static LIST_HEAD(mock_devices);

/**
 * struct mock_entry - a mock device on mock_devices
 * @mdev: the device
 * @node: on mock_devices
 */
struct mock_entry {
	struct mock_ibdev *mdev;
	struct list_head node;
};

static int mock_count_locked(void)
{
	struct mock_entry *e;
	int n = 0;

	lockdep_assert_held(&mock_lock);
	list_for_each_entry(e, &mock_devices, node)
		n++;
	return n;
}

static void mock_forget(struct mock_ibdev *mdev)
{
	struct mock_entry *e, *tmp;

	mutex_lock(&mock_lock);
	list_for_each_entry_safe(e, tmp, &mock_devices, node) {
		if (e->mdev != mdev)
			continue;
		list_del(&e->node);
		kfree(e);
	}
	mutex_unlock(&mock_lock);
}

/* ---- Device and port ops ------------------------------------------------- */

static int mock_query_device(struct ib_device *ibdev,
			     struct ib_device_attr *attr, struct ib_udata *uhw)
{
	attr->vendor_id = 0x5a5a;
	attr->max_qp = 64;
	attr->max_cqe = 1024;
	return 0;
}

static int mock_query_port(struct ib_device *ibdev, u32 port,
			   struct ib_port_attr *attr)
{
	struct mock_ibdev *mdev = to_mock_ibdev(ibdev);
	const struct mock_ibdev_port *mp = &mdev->ports[port];

	atomic_inc(&mdev->query_port_calls);
	spin_lock(&mdev->port_lock);
	attr->state = mp->state;
	attr->lid = mp->lid;
	attr->lmc = mp->lmc;
	attr->sm_lid = mp->sm_lid;
	attr->sm_sl = mp->sm_sl;
	spin_unlock(&mdev->port_lock);
	attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_2048;
	attr->gid_tbl_len = MOCK_IBDEV_GID_TBL_LEN(port);
	attr->pkey_tbl_len = MOCK_IBDEV_PKEY_TBL_LEN(port);
	return 0;
}

static int mock_get_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *immutable)
{
	struct mock_ibdev *mdev = to_mock_ibdev(ibdev);

	if (mdev->cfg.on_port_immutable)
		mdev->cfg.on_port_immutable(mdev, port);
	if (port == mdev->cfg.fail_immutable_port)
		return -EIO;

	immutable->pkey_tbl_len = MOCK_IBDEV_PKEY_TBL_LEN(port);
	immutable->gid_tbl_len = MOCK_IBDEV_GID_TBL_LEN(port);
	immutable->core_cap_flags = port == mdev->cfg.roce_port ?
				    RDMA_CORE_PORT_IBA_ROCE :
				    RDMA_CORE_PORT_IBA_IB;
	if (mdev->cfg.iwarp)
		immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
	if (port == mdev->cfg.roce_port && mdev->cfg.roce_v2)
		immutable->core_cap_flags |= RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
	if (!mdev->cfg.mad) {
		immutable->core_cap_flags &= ~(RDMA_CORE_CAP_IB_MAD |
					       RDMA_CORE_CAP_IB_SMI);
		return 0;
	}
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer mock_get_link_layer(struct ib_device *ibdev,
						u32 port)
{
	const struct mock_ibdev_cfg *cfg = &to_mock_ibdev(ibdev)->cfg;

	if (port == cfg->roce_port || cfg->iwarp)
		return IB_LINK_LAYER_ETHERNET;
	return IB_LINK_LAYER_INFINIBAND;
}

static int mock_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			   u16 *pkey)
{
	struct mock_ibdev *mdev = to_mock_ibdev(ibdev);

	if (index >= MOCK_IBDEV_PKEY_TBL_LEN(port))
		return -EINVAL;
	spin_lock(&mdev->port_lock);
	*pkey = mdev->ports[port].pkey[index];
	spin_unlock(&mdev->port_lock);
	return 0;
}

/* Count a call of @verb; the error the test wants from it, or 0. */
static int mock_gid_enter(struct mock_ibdev *mdev, enum mock_verb verb)
{
	atomic_inc(&mdev->calls[verb]);
	return READ_ONCE(mdev->fail[verb]);
}

static int mock_query_gid(struct ib_device *ibdev, u32 port, int index,
			  union ib_gid *gid)
{
	struct mock_ibdev *mdev = to_mock_ibdev(ibdev);
	int err = mock_gid_enter(mdev, MOCK_QUERY_GID);

	if (err)
		return err;
	if (index < 0 || index >= MOCK_IBDEV_GID_TBL_LEN(port))
		return -EINVAL;
	spin_lock(&mdev->port_lock);
	*gid = mdev->ports[port].gid[index];
	spin_unlock(&mdev->port_lock);
	return 0;
}

/* RoCE ports: the context is a struct mock_gid_ctx, freed by del_gid. */
static int mock_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct mock_ibdev *mdev = to_mock_ibdev(attr->device);
	int err = mock_gid_enter(mdev, MOCK_ADD_GID);
	struct mock_gid_ctx *ctx;

	if (err)
		return err;
	ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->port = attr->port_num;
	ctx->index = attr->index;
	*context = ctx;
	atomic_inc(&mdev->live[MOCK_OBJ_GID]);
	return 0;
}

static int mock_del_gid(const struct ib_gid_attr *attr, void **context)
{
	struct mock_ibdev *mdev = to_mock_ibdev(attr->device);

	/* the core does not look at del_gid's result: always clean up */
	mock_gid_enter(mdev, MOCK_DEL_GID);
	kfree(*context);
	*context = NULL;
	atomic_dec(&mdev->live[MOCK_OBJ_GID]);
	return 0;
}

static const struct ib_device_ops mock_roce_ops = {
	.add_gid		= mock_add_gid,
	.del_gid		= mock_del_gid,
};

static int mock_modify_port(struct ib_device *ibdev, u32 port, int mask,
			    struct ib_port_modify *modify)
{
	return 0;
}

static void mock_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	strscpy(str, MOCK_IBDEV_FW, IB_FW_VERSION_NAME_MAX);
}

static const struct ib_device_ops mock_base_ops = {
	.owner			= THIS_MODULE,
	.driver_id		= MOCK_IBDEV_DRIVER_ID,
	.query_device		= mock_query_device,
	.query_port		= mock_query_port,
	.get_port_immutable	= mock_get_port_immutable,
	.get_link_layer		= mock_get_link_layer,
	.query_pkey		= mock_query_pkey,
	.query_gid		= mock_query_gid,
	.modify_port		= mock_modify_port,
	.get_dev_fw_str		= mock_get_dev_fw_str,
};

/* ---- Port values a test can change --------------------------------------- */

static void mock_ports_init(struct mock_ibdev *mdev)
{
	u32 port;
	int i;

	spin_lock_init(&mdev->port_lock);
	for (port = 1; port <= mdev->cfg.nports; port++) {
		struct mock_ibdev_port *mp = &mdev->ports[port];

		mp->lid = MOCK_IBDEV_LID(port);
		mp->state = IB_PORT_ACTIVE;
		if (mdev->cfg.mad) {
			mp->sm_lid = MOCK_IBDEV_SM_LID;
			mp->sm_sl = MOCK_IBDEV_SM_SL;
		}
		for (i = 0; i < MOCK_IBDEV_PKEY_TBL_LEN(port); i++)
			mp->pkey[i] = MOCK_IBDEV_PKEY(port, i);
		for (i = 0; i < MOCK_IBDEV_GID_TBL_LEN(port); i++)
			mp->gid[i] = mock_ibdev_gid(port, i);
	}
}

/**
 * mock_ibdev_set_port() - Change what query_port reports for a port
 * @mdev: the device
 * @port: the port
 * @lid: the new LID
 * @lmc: the new LMC
 * @state: the new state
 *
 * The core sees it at the next query; dispatch an event to refresh its
 * cache.
 *
 * Context: Process context (the ops read the values under a spinlock).
 */
void mock_ibdev_set_port(struct mock_ibdev *mdev, u32 port, u32 lid, u8 lmc,
			 enum ib_port_state state)
{
	if (WARN_ON(port < 1 || port > mdev->cfg.nports))
		return;
	spin_lock(&mdev->port_lock);
	mdev->ports[port].lid = lid;
	mdev->ports[port].lmc = lmc;
	mdev->ports[port].state = state;
	spin_unlock(&mdev->port_lock);
}
EXPORT_SYMBOL_GPL(mock_ibdev_set_port);

/**
 * mock_ibdev_set_pkey() - Change one P_Key of a port
 * @mdev: the device
 * @port: the port
 * @index: below MOCK_IBDEV_PKEY_TBL_LEN(@port)
 * @pkey: the new P_Key
 *
 * Context: Process context.
 */
void mock_ibdev_set_pkey(struct mock_ibdev *mdev, u32 port, int index,
			 u16 pkey)
{
	if (WARN_ON(port < 1 || port > mdev->cfg.nports ||
		    index < 0 || index >= MOCK_IBDEV_PKEY_TBL_LEN(port)))
		return;
	spin_lock(&mdev->port_lock);
	mdev->ports[port].pkey[index] = pkey;
	spin_unlock(&mdev->port_lock);
}
EXPORT_SYMBOL_GPL(mock_ibdev_set_pkey);

/**
 * mock_ibdev_set_gid() - Change one GID of a port (zero: an empty entry)
 * @mdev: the device
 * @port: the port
 * @index: below MOCK_IBDEV_GID_TBL_LEN(@port)
 * @gid: the new GID
 *
 * Context: Process context.
 */
void mock_ibdev_set_gid(struct mock_ibdev *mdev, u32 port, int index,
			const union ib_gid *gid)
{
	if (WARN_ON(port < 1 || port > mdev->cfg.nports ||
		    index < 0 || index >= MOCK_IBDEV_GID_TBL_LEN(port)))
		return;
	spin_lock(&mdev->port_lock);
	mdev->ports[port].gid[index] = *gid;
	spin_unlock(&mdev->port_lock);
}
EXPORT_SYMBOL_GPL(mock_ibdev_set_gid);

/* ---- User contexts (cfg.uverbs) ------------------------------------------- */

struct mock_ucontext {
	struct ib_ucontext ibuc;
};

static int mock_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	atomic_inc(&to_mock_ibdev(uctx->device)->live[MOCK_OBJ_UCONTEXT]);
	return 0;
}

static void mock_dealloc_ucontext(struct ib_ucontext *uctx)
{
	atomic_dec(&to_mock_ibdev(uctx->device)->live[MOCK_OBJ_UCONTEXT]);
}

static const struct ib_device_ops mock_ucontext_ops = {
	.uverbs_abi_ver		= MOCK_IBDEV_UVERBS_ABI,
	.alloc_ucontext		= mock_alloc_ucontext,
	.dealloc_ucontext	= mock_dealloc_ucontext,
	INIT_RDMA_OBJ_SIZE(ib_ucontext, mock_ucontext, ibuc),
};

/* ---- Lifetime ------------------------------------------------------------ */

/* The dealloc_driver flow: the core calls this, then frees the device. */
static void mock_dealloc_driver(struct ib_device *ibdev)
{
	mock_forget(to_mock_ibdev(ibdev));
}

static const struct ib_device_ops mock_dealloc_ops = {
	.dealloc_driver		= mock_dealloc_driver,
};

/**
 * mock_ibdev_alloc() - Allocate a mock device, not registered
 * @cfg: its behaviour; copied
 *
 * Context: Process context, may sleep.
 * Return: the device, or NULL without memory or with zero ports or more
 * than MOCK_IBDEV_MAX_PORTS.
 */
struct mock_ibdev *mock_ibdev_alloc(const struct mock_ibdev_cfg *cfg)
{
	struct mock_entry *e;
	struct mock_ibdev *mdev;

	if (!cfg->nports || cfg->nports > MOCK_IBDEV_MAX_PORTS)
		return NULL;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return NULL;
	mdev = ib_alloc_device(mock_ibdev, ibdev);
	if (!mdev) {
		kfree(e);
		return NULL;
	}

	mdev->cfg = *cfg;
	mock_ports_init(mdev);
	spin_lock_init(&mdev->qps_lock);
	INIT_LIST_HEAD(&mdev->qps);
	atomic_set(&mdev->query_port_calls, 0);
	atomic_set(&mdev->next_qpn, MOCK_IBDEV_FIRST_QPN);
	mdev->ibdev.local_dma_lkey = MOCK_IBDEV_LOCAL_DMA_LKEY;
	mdev->ibdev.phys_port_cnt = cfg->nports;
	mdev->ibdev.node_type = RDMA_NODE_IB_CA;
	mdev->ibdev.num_comp_vectors = 1;
	ib_set_device_ops(&mdev->ibdev, &mock_base_ops);
	if (!cfg->no_kverbs)
		ib_set_device_ops(&mdev->ibdev, &mock_verbs_ops);
	if (cfg->dealloc_driver)
		ib_set_device_ops(&mdev->ibdev, &mock_dealloc_ops);
	if (cfg->driver_drain)
		ib_set_device_ops(&mdev->ibdev, &mock_verbs_drain_ops);
	if (cfg->roce_port)
		ib_set_device_ops(&mdev->ibdev, &mock_roce_ops);
	if (cfg->mad && !cfg->no_kverbs)
		ib_set_device_ops(&mdev->ibdev, &mock_ah_ops);
	if (cfg->uverbs)
		ib_set_device_ops(&mdev->ibdev, &mock_ucontext_ops);
	if (cfg->iwarp && mock_iwarp_init(mdev)) {
		ib_dealloc_device(&mdev->ibdev);
		kfree(e);
		return NULL;
	}

	e->mdev = mdev;
	mutex_lock(&mock_lock);
	list_add_tail(&e->node, &mock_devices);
	mutex_unlock(&mock_lock);
	return mdev;
}
EXPORT_SYMBOL_GPL(mock_ibdev_alloc);

/**
 * mock_ibdev_register() - ib_register_device() for a mock device
 * @mdev: the device
 * @name: name or template
 *
 * query_port_calls counts from zero again once it succeeded.
 *
 * Context: Process context, may sleep.
 * Return: what ib_register_device() returns.
 */
int mock_ibdev_register(struct mock_ibdev *mdev, const char *name)
{
	int ret = ib_register_device(&mdev->ibdev, name, NULL);

	if (!ret)
		atomic_set(&mdev->query_port_calls, 0);
	return ret;
}
EXPORT_SYMBOL_GPL(mock_ibdev_register);

/**
 * mock_ibdev_free() - ib_dealloc_device() for a mock device
 * @mdev: an unregistered device; gone on return
 *
 * Context: Process context, may sleep.
 */
void mock_ibdev_free(struct mock_ibdev *mdev)
{
	/* with dealloc_driver, the core's call of it forgets the device */
	if (!mdev->cfg.dealloc_driver)
		mock_forget(mdev);
	ib_dealloc_device(&mdev->ibdev);
}
EXPORT_SYMBOL_GPL(mock_ibdev_free);

/**
 * mock_ibdev_port_event() - Dispatch a port event, as hardware would
 * @mdev: the device
 * @port: the port number
 * @type: the event
 *
 * Context: Any context.
 */
void mock_ibdev_port_event(struct mock_ibdev *mdev, u32 port,
			   enum ib_event_type type)
{
	struct ib_event event = {
		.device = &mdev->ibdev,
		.element.port_num = port,
		.event = type,
	};

	ib_dispatch_event(&event);
}
EXPORT_SYMBOL_GPL(mock_ibdev_port_event);

/* Waits for one event on one port of one device (mock_ibdev_cache_sync). */
struct mock_event_waiter {
	struct ib_event_handler	eh;
	u32			port;
	struct completion	seen;
};

static void mock_event_waiter_fn(struct ib_event_handler *eh,
				 struct ib_event *event)
{
	struct mock_event_waiter *w =
		container_of(eh, struct mock_event_waiter, eh);

	if (event->element.port_num == w->port)
		complete(&w->seen);
}

/**
 * mock_ibdev_cache_sync() - Make ib_core's cache read a port again
 * @mdev: the device
 * @port: the port whose P_Keys, GIDs or attributes a test changed
 *
 * Dispatches a P_Key change on @port, as hardware would after changing
 * its table, and waits until the event reached the device's event
 * handlers: ib_core refreshes its cache of the port before it passes a
 * cache event on.
 *
 * Context: Process context, sleeps.
 * Return: 0, or -ETIMEDOUT if the event did not come round in 10 s.
 */
int mock_ibdev_cache_sync(struct mock_ibdev *mdev, u32 port)
{
	struct mock_event_waiter w = { .port = port };
	unsigned long left;

	init_completion(&w.seen);
	INIT_IB_EVENT_HANDLER(&w.eh, &mdev->ibdev, mock_event_waiter_fn);
	ib_register_event_handler(&w.eh);
	mock_ibdev_port_event(mdev, port, IB_EVENT_PKEY_CHANGE);
	left = wait_for_completion_timeout(&w.seen, 10 * HZ);
	ib_unregister_event_handler(&w.eh);
	return left ? 0 : -ETIMEDOUT;
}
EXPORT_SYMBOL_GPL(mock_ibdev_cache_sync);

/**
 * mock_ibdev_live() - Count the mock devices not yet deallocated
 *
 * Context: Process context, may sleep.
 * Return: the count.
 */
int mock_ibdev_live(void)
{
	int n;

	mutex_lock(&mock_lock);
	n = mock_count_locked();
	mutex_unlock(&mock_lock);
	return n;
}
EXPORT_SYMBOL_GPL(mock_ibdev_live);

/* The oldest mock device still alive, or NULL. */
static struct mock_ibdev *mock_first(void)
{
	struct mock_entry *e;

	mutex_lock(&mock_lock);
	e = list_first_entry_or_null(&mock_devices, struct mock_entry, node);
	mutex_unlock(&mock_lock);
	return e ? e->mdev : NULL;
}

/**
 * mock_ibdev_cleanup_all() - Unregister and free every mock device left
 *
 * Context: Process context, may sleep. Meant for a suite's exit, to undo
 * whatever a test left behind; nothing else may use mock devices meanwhile.
 */
void mock_ibdev_cleanup_all(void)
{
	struct mock_ibdev *mdev;
	bool registered, self_freeing;

	while ((mdev = mock_first())) {
		registered = refcount_read(&mdev->ibdev.refcount);
		self_freeing = mdev->cfg.dealloc_driver;
		/*
		 * A test that stopped half way may have left sends posted
		 * and never completed; MAD agents wait for theirs before
		 * they go. Real hardware would transmit them: so does the
		 * mock from here on.
		 */
		mock_ibdev_transmit_all(mdev);
		if (registered)
			ib_unregister_device(&mdev->ibdev);
		/* unregistering already freed a dealloc_driver device */
		if (!registered || !self_freeing)
			mock_ibdev_free(mdev);
	}
}
EXPORT_SYMBOL_GPL(mock_ibdev_cleanup_all);

/**
 * mock_ibdev_create() - Allocate and register a mock device ("kmv%d")
 * @cfg: its behaviour; must not ask for dealloc_driver
 *
 * Context: Process context, may sleep.
 * Return: the registered device, or NULL on any failure.
 */
struct mock_ibdev *mock_ibdev_create(const struct mock_ibdev_cfg *cfg)
{
	struct mock_ibdev *mdev;

	if (cfg->dealloc_driver)
		return NULL;
	mdev = mock_ibdev_alloc(cfg);
	if (!mdev)
		return NULL;
	if (mock_ibdev_register(mdev, "kmv%d")) {
		mock_ibdev_free(mdev);
		return NULL;
	}
	return mdev;
}
EXPORT_SYMBOL_GPL(mock_ibdev_create);

/**
 * mock_ibdev_destroy() - Unregister and free a device of mock_ibdev_create()
 * @mdev: the device, or NULL
 *
 * Context: Process context, may sleep.
 */
void mock_ibdev_destroy(struct mock_ibdev *mdev)
{
	if (!mdev)
		return;
	ib_unregister_device(&mdev->ibdev);
	mock_ibdev_free(mdev);
}
EXPORT_SYMBOL_GPL(mock_ibdev_destroy);

static int __init mock_ibdev_init(void)
{
	return 0;
}

static void __exit mock_ibdev_exit(void)
{
	/* a test module that left devices behind is a test bug */
	WARN_ON(mock_ibdev_live());
}

module_init(mock_ibdev_init);
module_exit(mock_ibdev_exit);

MODULE_DESCRIPTION("Mock RDMA driver for the ib_core KUnit suites");
MODULE_LICENSE("GPL");
