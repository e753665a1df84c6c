// SPDX-License-Identifier: GPL-2.0-only
/*
 * mock_iwarp: the iw_* ops of the mock RDMA driver, recording what iw_cm asks,
 * and upcalls the suites inject.
 */

#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <rdma/iw_cm.h>
#include <rdma/restrack.h>

#include "kunit/mock/mock_ibdev.h"

/*
 * A driver that connects nothing: each op counts its call in
 * mock_ibdev.calls, fails with what mock_ibdev_fail() set, and otherwise
 * writes down its arguments in mock_ibdev.iw. The suites play the
 * network: they make the events a real driver would send and deliver
 * them with mock_iwarp_upcall(). The mock holds no references on ids.
 */

/* Count a call of @verb; the error the test wants from it, or 0. */
static int mock_iw_enter(struct ib_device *ibdev, enum mock_verb verb)
{
	struct mock_ibdev *mdev = to_mock_ibdev(ibdev);

	atomic_inc(&mdev->calls[verb]);
	return READ_ONCE(mdev->fail[verb]);
}

static void mock_iw_add_ref(struct ib_qp *qp)
{
	mock_iw_enter(qp->device, MOCK_IW_ADD_REF);
	atomic_inc(&to_mock_ibdev(qp->device)->iw.qp_refs);
}

static void mock_iw_rem_ref(struct ib_qp *qp)
{
	mock_iw_enter(qp->device, MOCK_IW_REM_REF);
	atomic_dec(&to_mock_ibdev(qp->device)->iw.qp_refs);
}

/* The QP numbered @qpn, found as restrack keeps it; no reference kept. */
static struct ib_qp *mock_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct rdma_restrack_entry *res;
	struct ib_qp *qp;

	if (mock_iw_enter(ibdev, MOCK_IW_GET_QP) || qpn < 0)
		return NULL;
	res = rdma_restrack_get_byid(ibdev, RDMA_RESTRACK_QP, qpn);
	if (IS_ERR(res))
		return NULL;
	qp = container_of(res, struct ib_qp, res);
	rdma_restrack_put(res);
	return qp;
}

static void mock_iw_keep_pdata(struct mock_ibdev *mdev, const void *pdata,
			       u16 len)
{
	mdev->iw.pdata_len = len;
	memset(mdev->iw.pdata, 0, sizeof(mdev->iw.pdata));
	if (pdata)
		memcpy(mdev->iw.pdata, pdata,
		       min_t(u16, len, sizeof(mdev->iw.pdata)));
}

/* connect and accept: remember the id and its parameters. */
static int mock_iw_conn(struct iw_cm_id *cm_id,
			struct iw_cm_conn_param *param, enum mock_verb verb)
{
	struct mock_ibdev *mdev = to_mock_ibdev(cm_id->device);
	int err = mock_iw_enter(cm_id->device, verb);

	if (err)
		return err;
	mdev->iw.cm_id = cm_id;
	mdev->iw.param = *param;
	mdev->iw.param.private_data = NULL;
	mock_iw_keep_pdata(mdev, param->private_data, param->private_data_len);
	return 0;
}

static int mock_iw_connect(struct iw_cm_id *cm_id,
			   struct iw_cm_conn_param *param)
{
	return mock_iw_conn(cm_id, param, MOCK_IW_CONNECT);
}

static int mock_iw_accept(struct iw_cm_id *cm_id,
			  struct iw_cm_conn_param *param)
{
	return mock_iw_conn(cm_id, param, MOCK_IW_ACCEPT);
}

static int mock_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			  u8 pdata_len)
{
	struct mock_ibdev *mdev = to_mock_ibdev(cm_id->device);
	int err = mock_iw_enter(cm_id->device, MOCK_IW_REJECT);

	if (err)
		return err;
	mdev->iw.cm_id = cm_id;
	mock_iw_keep_pdata(mdev, pdata, pdata_len);
	return 0;
}

static int mock_iw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct mock_ibdev *mdev = to_mock_ibdev(cm_id->device);
	int err = mock_iw_enter(cm_id->device, MOCK_IW_CREATE_LISTEN);

	if (err)
		return err;
	mdev->iw.listen_id = cm_id;
	mdev->iw.backlog = backlog;
	return 0;
}

static int mock_iw_destroy_listen(struct iw_cm_id *cm_id)
{
	return mock_iw_enter(cm_id->device, MOCK_IW_DESTROY_LISTEN);
}

/* The ops of a cfg.iwarp device (set by mock_ibdev_alloc()). */
const struct ib_device_ops mock_iwarp_ops = {
	.iw_add_ref		= mock_iw_add_ref,
	.iw_rem_ref		= mock_iw_rem_ref,
	.iw_get_qp		= mock_iw_get_qp,
	.iw_connect		= mock_iw_connect,
	.iw_accept		= mock_iw_accept,
	.iw_reject		= mock_iw_reject,
	.iw_create_listen	= mock_iw_create_listen,
	.iw_destroy_listen	= mock_iw_destroy_listen,
};
EXPORT_SYMBOL_GPL(mock_iwarp_ops);

/**
 * mock_iwarp_init() - Make an allocated mock device an iWARP one
 * @mdev: the device, not registered yet
 *
 * Its ops become an iWARP driver's, its node an RNIC and its ports
 * iWARP's (mock_ibdev.c's port ops read cfg.iwarp). Like a real RNIC's,
 * each port is tied to a net device, init_net's loopback: the core asks
 * it for an iWARP port's state.
 *
 * Context: Process context, may sleep.
 * Return: 0 or the errno of ib_device_set_netdev().
 */
int mock_iwarp_init(struct mock_ibdev *mdev)
{
	u32 port;
	int ret;

	ib_set_device_ops(&mdev->ibdev, &mock_iwarp_ops);
	mdev->ibdev.node_type = RDMA_NODE_RNIC;
	for (port = 1; port <= mdev->cfg.nports; port++) {
		ret = ib_device_set_netdev(&mdev->ibdev,
					   init_net.loopback_dev, port);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(mock_iwarp_init);

/**
 * mock_iwarp_upcall() - Report an event to iw_cm, as a driver would
 * @cm_id: the id it is for (a listener for a connect request)
 * @event: the event; copied, so it may live on the caller's stack
 *
 * Calls @cm_id's event_handler with interrupts off, as a driver's
 * softirq or interrupt handler might: iw_cm must neither sleep nor
 * allocate there.
 *
 * Context: Any context.
 * Return: what the event handler returned (0, or -ENOMEM when the id has
 * no room left for an event).
 */
int mock_iwarp_upcall(struct iw_cm_id *cm_id, const struct iw_cm_event *event)
{
	struct iw_cm_event copy = *event;
	unsigned long flags;
	int ret;

	local_irq_save(flags);
	ret = cm_id->event_handler(cm_id, &copy);
	local_irq_restore(flags);
	return ret;
}
EXPORT_SYMBOL_GPL(mock_iwarp_upcall);

MODULE_DESCRIPTION("Mock RDMA driver for the KUnit suites: iWARP ops");
MODULE_LICENSE("GPL");
