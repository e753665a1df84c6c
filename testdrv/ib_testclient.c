// SPDX-License-Identifier: GPL-2.0-only
/* A kernel ULP for the integration tests: holds verbs objects on every RDMA device while loaded. */

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

/**
 * struct testclient_dev - what the client holds on one device
 * @pd: protection domain everything else is created in
 * @cq: completion queue of @qp, polled from the core's workqueue
 * @qp: an RC queue pair, never connected
 * @handler: sees the device's asynchronous events
 * @events: how many events @handler saw
 *
 * Made in add(), torn down in remove(); nothing else touches it, so it
 * needs no lock.
 */
struct testclient_dev {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_event_handler handler;
	atomic_t events;
};

static struct ib_client testclient;

static void testclient_event(struct ib_event_handler *handler,
			     struct ib_event *event)
{
	struct testclient_dev *tdev =
		container_of(handler, struct testclient_dev, handler);

	atomic_inc(&tdev->events);
}

static struct ib_qp *testclient_qp_create(struct testclient_dev *tdev)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.send_cq = tdev->cq,
		.recv_cq = tdev->cq,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 4, .max_recv_wr = 4,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
	};

	return ib_create_qp(tdev->pd, &attr);
}

static int testclient_objects_create(struct testclient_dev *tdev,
				     struct ib_device *dev)
{
	int ret;

	tdev->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(tdev->pd))
		return PTR_ERR(tdev->pd);
	tdev->cq = ib_alloc_cq(dev, NULL, 8, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(tdev->cq)) {
		ret = PTR_ERR(tdev->cq);
		goto err_cq;
	}
	tdev->qp = testclient_qp_create(tdev);
	if (IS_ERR(tdev->qp)) {
		ret = PTR_ERR(tdev->qp);
		goto err_qp;
	}
	return 0;

err_qp:
	ib_free_cq(tdev->cq);
err_cq:
	ib_dealloc_pd(tdev->pd);
	return ret;
}

static void testclient_objects_destroy(struct testclient_dev *tdev)
{
	ib_destroy_qp(tdev->qp);
	ib_free_cq(tdev->cq);
	ib_dealloc_pd(tdev->pd);
}

static int testclient_add(struct ib_device *dev)
{
	struct testclient_dev *tdev;
	int ret;

	/* like any kernel ULP, only devices that offer the kernel verbs */
	if (!dev->kverbs_provider)
		return -EOPNOTSUPP;
	tdev = kzalloc(sizeof(*tdev), GFP_KERNEL);
	if (!tdev)
		return -ENOMEM;
	ret = testclient_objects_create(tdev, dev);
	if (ret) {
		dev_warn(&dev->dev, "ib_testclient: cannot create objects: %d\n",
			 ret);
		kfree(tdev);
		return ret;
	}
	INIT_IB_EVENT_HANDLER(&tdev->handler, dev, testclient_event);
	ib_register_event_handler(&tdev->handler);
	ib_set_client_data(dev, &testclient, tdev);
	dev_info(&dev->dev, "ib_testclient: attached\n");
	return 0;
}

static void testclient_remove(struct ib_device *dev, void *client_data)
{
	struct testclient_dev *tdev = client_data;

	ib_unregister_event_handler(&tdev->handler);
	testclient_objects_destroy(tdev);
	dev_info(&dev->dev, "ib_testclient: detached after %d events\n",
		 atomic_read(&tdev->events));
	kfree(tdev);
}

static struct ib_client testclient = {
	.name	= "testclient",
	.add	= testclient_add,
	.remove	= testclient_remove,
};

static int __init testclient_init(void)
{
	return ib_register_client(&testclient);
}

static void __exit testclient_exit(void)
{
	ib_unregister_client(&testclient);
}

module_init(testclient_init);
module_exit(testclient_exit);

MODULE_AUTHOR("rdmaoot developers");
MODULE_DESCRIPTION("Test ULP: holds a PD, CQ and QP on every RDMA device");
MODULE_LICENSE("GPL");
