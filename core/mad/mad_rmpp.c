// SPDX-License-Identifier: GPL-2.0-only
/*
 * RMPP in common: which side of the engine a received RMPP MAD is for, and the
 * ACKs and ABORTs we answer with.
 */

#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

/*
 * An agent for which ib_mad_kernel_rmpp_agent() is true has every MAD it
 * receives looked at here first. One without an active RMPP header is
 * an ordinary MAD and goes on as one. An active one is taken by its
 * RMPP type: DATA is a segment for the receiver (mad_rmpp_recv.c), which
 * may hand back a whole message; ACK, STOP and ABORT speak of one of our
 * own sends (mad_rmpp_send.c) and end here. A version or a type we do
 * not know ends the send it names and is answered with an ABORT.
 */

static struct ib_rmpp_hdr *rmpp_hdr_of(const struct ib_mad_recv_wc *rwc)
{
	return &((struct ib_rmpp_mad *)rwc->recv_buf.mad)->rmpp_hdr;
}

bool ib_mad_rmpp_active(const struct ib_mad_hdr *hdr)
{
	struct ib_rmpp_hdr *rh = &((struct ib_rmpp_mad *)hdr)->rmpp_hdr;

	return ib_is_mad_class_rmpp(hdr->mgmt_class) &&
	       (ib_get_rmpp_flags(rh) & IB_MGMT_RMPP_FLAG_ACTIVE);
}

/* The sender's side: the MAD is consumed here. */
typedef void (*rmpp_tx_handler)(struct ib_mad_agent_priv *priv,
				struct ib_mad_recv_wc *rwc);

static const rmpp_tx_handler rmpp_tx_handlers[] = {
	[IB_MGMT_RMPP_TYPE_ACK]		= ib_mad_rmpp_tx_ack,
	[IB_MGMT_RMPP_TYPE_STOP]	= ib_mad_rmpp_tx_stop,
	[IB_MGMT_RMPP_TYPE_ABORT]	= ib_mad_rmpp_tx_abort,
};

/* Refuse @rwc: end the send it names, answer ABORT with @status. */
void ib_mad_rmpp_refuse(struct ib_mad_agent_priv *priv,
			struct ib_mad_recv_wc *rwc, u8 status)
{
	ib_mad_rmpp_tx_end(priv, rwc, status);
	ib_mad_rmpp_reply(priv, rwc, IB_MGMT_RMPP_TYPE_ABORT, status, 0, 0);
}

/**
 * ib_mad_rmpp_recv() - Let RMPP look at a MAD a kernel-RMPP agent receives
 * @priv: the agent, ib_mad_kernel_rmpp_agent() true
 * @rwc: one received MAD (its rmpp_list holds only itself)
 *
 * Context: process context (the CQ's work), may sleep.
 * Return: @rwc itself when it is no RMPP MAD, a complete message
 * (possibly of many segments) when @rwc completed one, or NULL when RMPP
 * kept or freed it.
 */
struct ib_mad_recv_wc *ib_mad_rmpp_recv(struct ib_mad_agent_priv *priv,
					struct ib_mad_recv_wc *rwc)
{
	struct ib_rmpp_hdr *rh = rmpp_hdr_of(rwc);
	u8 type = rh->rmpp_type;

	if (!ib_mad_rmpp_active(&rwc->recv_buf.mad->mad_hdr))
		return rwc;
	if (rh->rmpp_version != IB_MGMT_RMPP_VERSION)
		ib_mad_rmpp_refuse(priv, rwc, IB_MGMT_RMPP_STATUS_UNV);
	else if (type == IB_MGMT_RMPP_TYPE_DATA)
		return ib_mad_rmpp_rx_data(priv, rwc);
	else if (type < ARRAY_SIZE(rmpp_tx_handlers) && rmpp_tx_handlers[type])
		rmpp_tx_handlers[type](priv, rwc);
	else
		ib_mad_rmpp_refuse(priv, rwc, IB_MGMT_RMPP_STATUS_BADT);
	ib_free_recv_mad(rwc);
	return NULL;
}

/**
 * ib_mad_rmpp_answer_new() - Prepare an answer to a received RMPP MAD
 * @rwc: the MAD answered
 * @type: IB_MGMT_RMPP_TYPE_ACK, _STOP or _ABORT
 * @status: RMPP status to send
 *
 * The answer carries the headers of @rwc (common, RMPP and class, up to
 * where the class data begins) with the method's response bit turned
 * over, so that it is routed as the other side's RMPP MADs of this
 * exchange are; the data is zeros. It keeps a copy of @rwc's work
 * completion and GRH to find the way back, so @rwc may go before the
 * answer is sent.
 *
 * Context: process context, may sleep.
 * Return: the answer, or NULL without memory.
 */
struct ib_mad_rmpp_answer *
ib_mad_rmpp_answer_new(const struct ib_mad_recv_wc *rwc, u8 type, u8 status)
{
	const struct ib_mad_hdr *in = &rwc->recv_buf.mad->mad_hdr;
	int hdr_len = ib_get_mad_data_offset(in->mgmt_class);
	struct ib_mad_rmpp_answer *ans;
	struct ib_rmpp_mad *out;

	ans = kzalloc(sizeof(*ans), GFP_KERNEL);
	if (!ans)
		return NULL;
	ans->wc = *rwc->wc;
	if (rwc->recv_buf.grh)
		ans->grh = *rwc->recv_buf.grh;
	out = &ans->mad;
	memcpy(out, in, hdr_len);
	out->mad_hdr.method ^= IB_MGMT_METHOD_RESP;
	out->rmpp_hdr.rmpp_version = IB_MGMT_RMPP_VERSION;
	out->rmpp_hdr.rmpp_type = type;
	ib_set_rmpp_flags(&out->rmpp_hdr, IB_MGMT_RMPP_FLAG_ACTIVE);
	out->rmpp_hdr.rmpp_status = status;
	return ans;
}

/**
 * ib_mad_rmpp_answer_send() - Send a prepared answer, and free it
 * @priv: the agent that received what is answered
 * @ans: from ib_mad_rmpp_answer_new(), or NULL (nothing is sent)
 * @seg_num: SegmentNumber to send
 * @newwin: NewWindowLast to send (the PayloadLength field)
 *
 * It goes back along the answered MAD's path from the port's own
 * sender; a failure is logged there, the peer's timers cover the loss.
 *
 * Context: process context, may sleep; no lock held.
 */
void ib_mad_rmpp_answer_send(struct ib_mad_agent_priv *priv,
			     struct ib_mad_rmpp_answer *ans, u32 seg_num,
			     u32 newwin)
{
	might_sleep();
	if (!ans)
		return;
	ans->mad.rmpp_hdr.seg_num = cpu_to_be32(seg_num);
	ans->mad.rmpp_hdr.paylen_newwin = cpu_to_be32(newwin);
	ib_mad_reply_send(priv->mqp, &ans->wc, &ans->grh,
			  (const struct ib_mad *)&ans->mad);
	kfree(ans);
}

/**
 * ib_mad_rmpp_reply() - Answer a received RMPP MAD at once
 * @priv: the agent that received @rwc
 * @rwc: the MAD answered
 * @type: IB_MGMT_RMPP_TYPE_ACK, _STOP or _ABORT
 * @status: RMPP status to send
 * @seg_num: SegmentNumber to send
 * @newwin: NewWindowLast to send
 *
 * Context: process context, may sleep; no lock held.
 */
void ib_mad_rmpp_reply(struct ib_mad_agent_priv *priv,
		       const struct ib_mad_recv_wc *rwc, u8 type, u8 status,
		       u32 seg_num, u32 newwin)
{
	ib_mad_rmpp_answer_send(priv, ib_mad_rmpp_answer_new(rwc, type, status),
				seg_num, newwin);
}
