// SPDX-License-Identifier: GPL-2.0-only
/*
 * Receiving MADs: the receive ring of a special QP, checks, the driver's first
 * look, routing to agents.
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

/**
 * struct ib_mad_recv - one receive buffer of a special QP
 * @rwc: what an agent receives (ib_mad_recv_wc), pointing into this buffer
 * @wc: the work completion, copied out of the CQ
 * @cqe: completion entry of the receive WR
 * @mqp: the QP it is posted on
 * @qnode: in @mqp->recvs while posted
 * @dma: mapping of @data
 * @data: what the HCA writes: the GRH (or its room), then the MAD
 */
struct ib_mad_recv {
	struct ib_mad_recv_wc	rwc;
	struct ib_wc		wc;
	struct ib_cqe		cqe;
	struct ib_mad_qp	*mqp;
	struct list_head	qnode;
	u64			dma;
	struct {
		struct ib_grh	grh;
		u8		mad[IB_MGMT_MAD_SIZE];
	} data;
};

static void mad_recv_done(struct ib_cq *cq, struct ib_wc *wc);

/* ---- The ring ------------------------------------------------------------- */

static struct ib_mad_recv *mad_recv_alloc(struct ib_mad_qp *mqp, gfp_t gfp)
{
	struct ib_device *dev = mqp->port->device;
	struct ib_mad_recv *recv;

	/* Post the GRH and the MAD as one SGE: they must touch. */
	BUILD_BUG_ON(offsetof(typeof(recv->data), mad) != sizeof(struct ib_grh));
	recv = kzalloc(sizeof(*recv), gfp);
	if (!recv)
		return NULL;
	recv->mqp = mqp;
	recv->cqe.done = mad_recv_done;
	INIT_LIST_HEAD(&recv->qnode);
	recv->dma = ib_dma_map_single(dev, &recv->data, sizeof(recv->data),
				      DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, recv->dma)) {
		kfree(recv);
		return NULL;
	}
	return recv;
}

static void mad_recv_unmap(struct ib_mad_recv *recv)
{
	ib_dma_unmap_single(recv->mqp->port->device, recv->dma,
			    sizeof(recv->data), DMA_FROM_DEVICE);
}

/* Post one new receive buffer on @mqp; 0 or a negative errno. */
static int mad_recv_post_one(struct ib_mad_qp *mqp, gfp_t gfp)
{
	struct ib_mad_recv *recv = mad_recv_alloc(mqp, gfp);
	struct ib_sge sge;
	struct ib_recv_wr wr = {
		.wr_cqe = NULL,
		.sg_list = &sge,
		.num_sge = 1,
	};
	unsigned long flags;
	int ret;

	if (!recv)
		return -ENOMEM;
	sge.addr = recv->dma;
	sge.length = sizeof(recv->data);
	sge.lkey = mqp->qp->pd->local_dma_lkey;
	wr.wr_cqe = &recv->cqe;

	/* On the list before the HCA can complete it. */
	spin_lock_irqsave(&mqp->lock, flags);
	ret = -ESHUTDOWN;
	if (!mqp->closing) {
		list_add_tail(&recv->qnode, &mqp->recvs);
		ret = ib_post_recv(mqp->qp, &wr, NULL);
		if (ret)
			list_del(&recv->qnode);
	}
	spin_unlock_irqrestore(&mqp->lock, flags);
	if (ret) {
		mad_recv_unmap(recv);
		kfree(recv);
	}
	return ret;
}

/**
 * ib_mad_recv_fill() - Post the whole receive ring of a special QP
 * @mqp: the QP, in RTS or at least INIT
 *
 * Context: process context, may sleep.
 * Return: 0, or the first error (buffers posted before it stay posted).
 */
int ib_mad_recv_fill(struct ib_mad_qp *mqp)
{
	int i, ret;

	for (i = 0; i < ib_mad_recvq_size; i++) {
		ret = mad_recv_post_one(mqp, GFP_KERNEL);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * ib_mad_recv_drain() - Free the receive buffers a destroyed QP left
 * @mqp: the QP, destroyed, its CQ freed (no completion runs any more)
 */
void ib_mad_recv_drain(struct ib_mad_qp *mqp)
{
	struct ib_mad_recv *recv, *tmp;

	list_for_each_entry_safe(recv, tmp, &mqp->recvs, qnode) {
		list_del(&recv->qnode);
		mad_recv_unmap(recv);
		kfree(recv);
	}
}

/**
 * ib_free_recv_mad() - Give back a MAD delivered to an agent
 * @mad_recv_wc: what the receive handler got
 *
 * Every segment of the message goes: a reassembled RMPP message is as
 * many receive buffers as its rmpp_list holds.
 *
 * Context: any.
 */
void ib_free_recv_mad(struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ib_mad_recv_buf *seg, *next;
	LIST_HEAD(segs);

	/* The list's head lives in the first segment: take it off first. */
	list_splice_init(&mad_recv_wc->rmpp_list, &segs);
	list_for_each_entry_safe(seg, next, &segs, list)
		kfree(container_of(seg, struct ib_mad_recv, rwc.recv_buf));
}
EXPORT_SYMBOL(ib_free_recv_mad);

/* ---- Handling one MAD ----------------------------------------------------- */

/*
 * The driver's right of first refusal (process_mad): true when it consumed
 * the MAD, or answered it (the answer sent from the port's responder).
 */
static bool mad_recv_driver_handled(struct ib_mad_recv *recv)
{
	struct ib_mad_port *port = recv->mqp->port;
	struct ib_device *dev = port->device;
	size_t out_size = IB_MGMT_MAD_SIZE;
	u16 out_pkey_index = 0;
	struct ib_mad *out;
	bool handled = false;
	int ret;

	if (!dev->ops.process_mad)
		return false;
	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!out)
		return false;
	ret = dev->ops.process_mad(dev, 0, port->port_num, &recv->wc,
				   &recv->data.grh,
				   (const struct ib_mad *)recv->data.mad,
				   out, &out_size, &out_pkey_index);
	if (ret & IB_MAD_RESULT_SUCCESS) {
		handled = ret & (IB_MAD_RESULT_CONSUMED | IB_MAD_RESULT_REPLY);
		if (!(ret & IB_MAD_RESULT_CONSUMED) &&
		    (ret & IB_MAD_RESULT_REPLY))
			ib_mad_reply_send(recv->mqp, &recv->wc,
					  &recv->data.grh, out);
	}
	kfree(out);
	return handled;
}

/*
 * A response nobody asked for goes to an agent only where the agent does
 * RMPP itself and this is one of its segments (the first one completed
 * the request, the others follow on their own, as in 6.1).
 */
static bool mad_recv_user_rmpp(struct ib_mad_agent_priv *priv,
			       const struct ib_mad_hdr *hdr)
{
	return !ib_mad_kernel_rmpp_agent(&priv->agent) &&
	       ib_mad_rmpp_active(hdr);
}

/*
 * Give the MAD to @priv. RMPP takes its share first on agents it runs
 * for, and may hand back a whole message instead. A response goes with
 * the request it answers and is dropped without one (a late answer to a
 * request already timed out or cancelled); the request is reported after
 * the response.
 */
static void mad_recv_deliver(struct ib_mad_agent_priv *priv,
			     struct ib_mad_recv *recv)
{
	struct ib_mad_recv_wc *rwc = &recv->rwc;
	struct ib_mad_send_buf *req = NULL;
	const struct ib_mad_hdr *hdr;

	if (ib_mad_kernel_rmpp_agent(&priv->agent)) {
		rwc = ib_mad_rmpp_recv(priv, rwc);
		if (!rwc)
			return;
	}
	hdr = &rwc->recv_buf.mad->mad_hdr;
	if (ib_response_mad(hdr)) {
		req = ib_mad_send_claim(priv, hdr);
		if (!req && !mad_recv_user_rmpp(priv, hdr)) {
			ib_free_recv_mad(rwc);
			return;
		}
	}
	priv->agent.recv_handler(&priv->agent, req, rwc);
	if (req)
		ib_mad_send_answered(req);
}

/* Work out where the received MAD in @recv goes; consumes @recv. */
static void mad_recv_handle(struct ib_mad_recv *recv)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)recv->data.mad;
	struct ib_mad_qp *mqp = recv->mqp;
	struct ib_mad_agent_priv *priv;

	if (!ib_mad_hdr_acceptable(hdr, mqp->qp->qp_num)) {
		dev_dbg_ratelimited(&mqp->port->device->dev,
				    "MAD dropped on QP%u: version %u class 0x%x method 0x%x\n",
				    mqp->qp->qp_num, hdr->base_version,
				    hdr->mgmt_class, hdr->method);
		goto drop;
	}
	if (mad_recv_driver_handled(recv))
		goto drop;

	priv = ib_mad_agent_route(mqp->port, hdr);
	if (priv) {
		mad_recv_deliver(priv, recv);
		ib_mad_agent_put(priv);
		return;
	}
	/* Nobody takes it: a GET or SET is told so, anything else vanishes. */
	if (ib_mad_make_unsupported_reply(hdr))
		ib_mad_reply_send(mqp, &recv->wc, &recv->data.grh,
				  (const struct ib_mad *)hdr);
drop:
	ib_free_recv_mad(&recv->rwc);
}

/* The CQ's completion of a receive WR (ib_cqe.done). */
static void mad_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ib_mad_recv *recv = container_of(wc->wr_cqe, struct ib_mad_recv,
					       cqe);
	struct ib_mad_qp *mqp = recv->mqp;
	unsigned long flags;
	bool closing;

	spin_lock_irqsave(&mqp->lock, flags);
	list_del_init(&recv->qnode);
	closing = mqp->closing;
	spin_unlock_irqrestore(&mqp->lock, flags);
	mad_recv_unmap(recv);

	/* A flushed receive: the QP is going away, the ring with it. */
	if (wc->status != IB_WC_SUCCESS || closing) {
		kfree(recv);
		return;
	}
	if (mad_recv_post_one(mqp, GFP_KERNEL))
		dev_warn_ratelimited(&mqp->port->device->dev,
				     "QP%u of port %u: receive ring one buffer short\n",
				     mqp->qp->qp_num, mqp->port->port_num);

	recv->wc = *wc;
	recv->rwc.wc = &recv->wc;
	recv->rwc.mad_len = IB_MGMT_MAD_SIZE;
	recv->rwc.mad_seg_size = IB_MGMT_MAD_SIZE;
	recv->rwc.recv_buf.mad = (struct ib_mad *)recv->data.mad;
	recv->rwc.recv_buf.grh = &recv->data.grh;
	INIT_LIST_HEAD(&recv->rwc.rmpp_list);
	list_add(&recv->rwc.recv_buf.list, &recv->rwc.rmpp_list);
	mad_recv_handle(recv);
}
