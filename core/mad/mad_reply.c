// SPDX-License-Identifier: GPL-2.0-only
/*
 * The port's own answers: replies from the driver's process_mad and
 * "unsupported" for unclaimed requests.
 */

#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

/*
 * Each special QP of a port has a responses-only agent of the MAD layer
 * itself. A reply is addressed back along the path the request came (an
 * address handle made from its work completion and GRH) and lives until
 * its send completion, which releases both.
 */

static void mad_reply_sent(struct ib_mad_agent *agent,
			   struct ib_mad_send_wc *wc)
{
	struct ib_ah *ah = wc->send_buf->ah;

	ib_free_send_mad(wc->send_buf);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}

/**
 * ib_mad_reply_send() - Send a MAD back to where a request came from
 * @mqp: the QP the request arrived on
 * @wc: its work completion
 * @grh: its GRH (meaningful when @wc says IB_WC_GRH)
 * @mad: the 256-byte reply
 *
 * Failures are logged and the reply dropped: the requester retries.
 *
 * Context: process context (the CQ's work), may sleep.
 */
void ib_mad_reply_send(struct ib_mad_qp *mqp, const struct ib_wc *wc,
		       const struct ib_grh *grh, const struct ib_mad *mad)
{
	struct ib_mad_port *port = mqp->port;
	enum ib_mad_qp_index qpi = mqp - port->qps;
	struct ib_mad_agent *agent = port->responder[qpi];
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;
	int ret;

	if (!agent)
		return;
	ah = ib_create_ah_from_wc(port->pd, wc, grh, port->port_num);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto err_ah;
	}
	buf = ib_create_send_mad(agent, wc->src_qp, wc->pkey_index, 0,
				 IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		ret = PTR_ERR(buf);
		goto err_buf;
	}
	memcpy(buf->mad, mad, IB_MGMT_MAD_SIZE);
	buf->ah = ah;
	ret = ib_post_send_mad(buf, NULL);
	if (ret)
		goto err_post;
	return;

err_post:
	ib_free_send_mad(buf);
err_buf:
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
err_ah:
	dev_dbg_ratelimited(&port->device->dev,
			    "port %u: reply to QP%u not sent: %d\n",
			    port->port_num, wc->src_qp, ret);
}

/**
 * ib_mad_reply_open() - Register the responders of a port's special QPs
 * @port: a port whose QPs run and which ib_mad_port_find() finds
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno (nothing left registered).
 */
int ib_mad_reply_open(struct ib_mad_port *port)
{
	static const enum ib_qp_type types[IB_MAD_QP_COUNT] = {
		[IB_MAD_QP_SMI] = IB_QPT_SMI,
		[IB_MAD_QP_GSI] = IB_QPT_GSI,
	};
	struct ib_mad_agent *agent;
	int i;

	for (i = 0; i < IB_MAD_QP_COUNT; i++) {
		if (!port->qps[i].qp)
			continue;
		agent = ib_register_mad_agent(port->device, port->port_num,
					      types[i], NULL, 0, mad_reply_sent,
					      NULL, NULL, 0);
		if (IS_ERR(agent)) {
			ib_mad_reply_close(port);
			return PTR_ERR(agent);
		}
		port->responder[i] = agent;
	}
	return 0;
}

/**
 * ib_mad_reply_close() - Unregister the responders of a port
 * @port: the port; its QPs still run, so that replies in flight complete
 *
 * Context: process context, may sleep.
 */
void ib_mad_reply_close(struct ib_mad_port *port)
{
	int i;

	for (i = IB_MAD_QP_COUNT - 1; i >= 0; i--) {
		if (!port->responder[i])
			continue;
		ib_unregister_mad_agent(port->responder[i]);
		port->responder[i] = NULL;
	}
}
