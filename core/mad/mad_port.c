// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD client: on every port that speaks MADs, a PD, a CQ and the special
 * QPs QP0 and QP1, ready to use.
 */

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

int ib_mad_sendq_size = 128;
EXPORT_SYMBOL_IF_KUNIT(ib_mad_sendq_size);
module_param_named(send_queue_size, ib_mad_sendq_size, int, 0444);
MODULE_PARM_DESC(send_queue_size, "Size of the send queue of each special QP, in MADs");
int ib_mad_recvq_size = 512;
EXPORT_SYMBOL_IF_KUNIT(ib_mad_recvq_size);
module_param_named(recv_queue_size, ib_mad_recvq_size, int, 0444);
MODULE_PARM_DESC(recv_queue_size, "Size of the receive queue of each special QP, in MADs");

/*
 * Every open port, for ib_register_mad_agent() to find by (device, port).
 * A port enters once its QPs run and leaves before they stop.
 */
static LIST_HEAD(mad_ports);
static DEFINE_SPINLOCK(mad_ports_lock);

struct ib_mad_port *ib_mad_port_find(struct ib_device *device, u32 port_num)
{
	struct ib_mad_port *port, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&mad_ports_lock, flags);
	list_for_each_entry(port, &mad_ports, node) {
		if (port->device == device && port->port_num == port_num) {
			found = port;
			break;
		}
	}
	spin_unlock_irqrestore(&mad_ports_lock, flags);
	return found;
}

/* ---- The special QPs ------------------------------------------------------ */

static void mad_qp_event(struct ib_event *event, void *context)
{
	struct ib_mad_port *port = context;

	dev_err_ratelimited(&port->device->dev,
			    "port %u: fatal event %s on special QP%u\n",
			    port->port_num, ib_event_msg(event->event),
			    event->element.qp->qp_num);
}

static int mad_qp_create(struct ib_mad_port *port, enum ib_mad_qp_index qpi)
{
	struct ib_qp_init_attr init = {
		.event_handler = mad_qp_event,
		.qp_context = port,
		.send_cq = port->cq,
		.recv_cq = port->cq,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = qpi == IB_MAD_QP_SMI ? IB_QPT_SMI : IB_QPT_GSI,
		.port_num = port->port_num,
		.cap = {
			.max_send_wr = ib_mad_sendq_size,
			.max_recv_wr = ib_mad_recvq_size,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	struct ib_qp *qp;

	qp = ib_create_qp(port->pd, &init);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	port->qps[qpi].qp = qp;
	return 0;
}

/*
 * RESET -> INIT -> RTR -> RTS. The P_Key index is the full default P_Key's
 * where the table has it; QP1 answers to the well-known GSI Q_Key.
 */
static int mad_qp_start(struct ib_mad_qp *mqp)
{
	struct ib_qp *qp = mqp->qp;
	struct ib_qp_attr attr = {};
	u16 pkey_index;

	if (ib_find_pkey(qp->device, mqp->port->port_num, IB_DEFAULT_PKEY_FULL,
			 &pkey_index))
		pkey_index = 0;
	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = pkey_index;
	attr.qkey = qp->qp_num ? IB_QP1_QKEY : 0;
	if (ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_QKEY))
		return -EIO;
	attr.qp_state = IB_QPS_RTR;
	if (ib_modify_qp(qp, &attr, IB_QP_STATE))
		return -EIO;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	if (ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN))
		return -EIO;
	return ib_mad_recv_fill(mqp);
}

/*
 * Stop a QP. From the moment it is marked closing its receive completions
 * are only freed, never handled or replaced, so the QP may go while the
 * CQ's work still runs; what is left posted is freed by
 * ib_mad_recv_drain() once the CQ is gone.
 */
static void mad_qp_destroy(struct ib_mad_qp *mqp)
{
	if (!mqp->qp)
		return;
	spin_lock_irq(&mqp->lock);
	mqp->closing = true;
	spin_unlock_irq(&mqp->lock);
	ib_destroy_qp(mqp->qp);
}

/* ---- Open and close ------------------------------------------------------- */

static void mad_port_free(struct ib_mad_port *port)
{
	int i;

	for (i = IB_MAD_QP_COUNT - 1; i >= 0; i--)
		mad_qp_destroy(&port->qps[i]);
	if (port->cq)
		ib_free_cq(port->cq);
	/* No completion runs any more: what is still posted is ours. */
	for (i = 0; i < IB_MAD_QP_COUNT; i++)
		ib_mad_recv_drain(&port->qps[i]);
	if (port->pd)
		ib_dealloc_pd(port->pd);
	if (port->wq)
		destroy_workqueue(port->wq);
	kfree(port);
}

static struct ib_mad_port *mad_port_alloc(struct ib_device *device,
					  u32 port_num)
{
	struct ib_mad_port *port;
	int i;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return NULL;
	port->device = device;
	port->port_num = port_num;
	INIT_LIST_HEAD(&port->node);
	spin_lock_init(&port->agents_lock);
	INIT_LIST_HEAD(&port->agents);
	for (i = 0; i < IB_MAD_QP_COUNT; i++) {
		port->qps[i].port = port;
		spin_lock_init(&port->qps[i].lock);
		INIT_LIST_HEAD(&port->qps[i].backlog);
		INIT_LIST_HEAD(&port->qps[i].recvs);
	}
	return port;
}

static int mad_port_setup(struct ib_mad_port *port, bool has_smi)
{
	struct ib_device *dev = port->device;
	int nqps = has_smi ? 2 : 1;
	int ret;

	port->wq = alloc_ordered_workqueue("ib_mad%u", WQ_MEM_RECLAIM,
					   port->port_num);
	if (!port->wq)
		return -ENOMEM;
	port->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(port->pd)) {
		ret = PTR_ERR(port->pd);
		port->pd = NULL;
		return ret;
	}
	port->cq = ib_alloc_cq(dev, port,
			       nqps * (ib_mad_sendq_size + ib_mad_recvq_size),
			       0, IB_POLL_UNBOUND_WORKQUEUE);
	if (IS_ERR(port->cq)) {
		ret = PTR_ERR(port->cq);
		port->cq = NULL;
		return ret;
	}
	if (has_smi) {
		ret = mad_qp_create(port, IB_MAD_QP_SMI);
		if (ret)
			return ret;
	}
	ret = mad_qp_create(port, IB_MAD_QP_GSI);
	if (ret)
		return ret;
	if (has_smi) {
		ret = mad_qp_start(&port->qps[IB_MAD_QP_SMI]);
		if (ret)
			return ret;
	}
	return mad_qp_start(&port->qps[IB_MAD_QP_GSI]);
}

static int mad_port_open(struct ib_device *device, u32 port_num)
{
	struct ib_mad_port *port;
	int ret;

	port = mad_port_alloc(device, port_num);
	if (!port)
		return -ENOMEM;
	ret = mad_port_setup(port, rdma_cap_ib_smi(device, port_num));
	if (ret)
		goto err_setup;

	spin_lock_irq(&mad_ports_lock);
	list_add_tail(&port->node, &mad_ports);
	spin_unlock_irq(&mad_ports_lock);
	ret = ib_mad_reply_open(port);
	if (ret)
		goto err_reply;
	return 0;

err_reply:
	spin_lock_irq(&mad_ports_lock);
	list_del(&port->node);
	spin_unlock_irq(&mad_ports_lock);
err_setup:
	dev_err(&device->dev, "MAD services of port %u not started: %d\n",
		port_num, ret);
	mad_port_free(port);
	return ret;
}

static void mad_port_close(struct ib_mad_port *port)
{
	ib_mad_reply_close(port);
	spin_lock_irq(&mad_ports_lock);
	list_del(&port->node);
	spin_unlock_irq(&mad_ports_lock);
	WARN_ONCE(!list_empty(&port->agents),
		  "agents still registered on port %u of %s\n",
		  port->port_num, dev_name(&port->device->dev));
	mad_port_free(port);
}

/* ---- The client ----------------------------------------------------------- */

static void mad_client_remove(struct ib_device *device, void *client_data)
{
	u32 p;

	rdma_for_each_port(device, p) {
		struct ib_mad_port *port = ib_mad_port_find(device, p);

		if (port)
			mad_port_close(port);
	}
}

static int mad_client_add(struct ib_device *device)
{
	unsigned int opened = 0;
	u32 p;
	int ret;

	rdma_for_each_port(device, p) {
		if (!rdma_cap_ib_mad(device, p))
			continue;
		ret = mad_port_open(device, p);
		if (ret) {
			mad_client_remove(device, NULL);
			return ret;
		}
		opened++;
	}
	/* A device without MAD ports: nothing to remove later. */
	return opened ? 0 : -EOPNOTSUPP;
}

static struct ib_client mad_client = {
	.name	= "mad",
	.add	= mad_client_add,
	.remove	= mad_client_remove,
};

int ib_mad_init(void)
{
	if (ib_mad_sendq_size < 1 || ib_mad_recvq_size < 1) {
		pr_err("MAD queue sizes must be positive (send %d, receive %d)\n",
		       ib_mad_sendq_size, ib_mad_recvq_size);
		return -EINVAL;
	}
	return ib_register_client(&mad_client);
}

void ib_mad_cleanup(void)
{
	ib_unregister_client(&mad_client);
}
