// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: the UD messages of udaddy's and mckey's protocols (mode=udaddy, mode=mckey). */
/*
 * Both tools send count messages of size bytes, SEND with immediate (the
 * sender's QPN), and post a receive per message before they connect or
 * join. One buffer holds a receive slot per message (the 40-byte GRH room
 * a UD receive starts with, then the message) and, after them, a send
 * slot per message. The command's CQ gets completions of both kinds in
 * any order; kperf_ud_msg_wait() counts both and hands each receive to
 * the mode.
 */

#include <linux/string.h>
#include "kperf.h"

/**
 * kperf_ud_msg_alloc() - the buffer of a command's messages
 * @run: the command; @run->p.iters messages of @run->p.size bytes
 * @s: its side, open (PD, port)
 * @m: zeroed; gets the buffer and the sizes
 * @tool: "udaddy" or "mckey", for the reason of a refusal
 *
 * A message must fit the port's active MTU, as both tools require.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno, with the reason recorded.
 */
int kperf_ud_msg_alloc(struct kperf_run *run, struct kperf_side *s,
		       struct kperf_ud_msg *m, const char *tool)
{
	int mtu = ib_mtu_enum_to_int(s->active_mtu);

	m->count = run->p.iters;
	m->size = run->p.size;
	if (m->size > mtu)
		return kperf_run_fail(run, -EINVAL,
				      "size=%u is larger than the active MTU %d of %s port %u (%s refuses it too)",
				      m->size, mtu, dev_name(&s->ibdev->dev),
				      s->port, tool);
	m->slot = KPERF_UD_GRH + m->size;
	m->tool = tool;
	return kperf_buf_alloc_mr(run, s, &m->buf,
				  (size_t)m->count * (m->slot + m->size),
				  KPERF_MR_DMA);
}

/**
 * kperf_ud_msg_in() - receive slot @n: the GRH room, then the message
 * @m: the messages
 * @n: the slot, below @m->count
 *
 * Return: its start.
 */
u8 *kperf_ud_msg_in(struct kperf_ud_msg *m, u32 n)
{
	return m->buf.va + (size_t)n * m->slot;
}

/**
 * kperf_ud_msg_out() - send slot @n
 * @m: the messages
 * @n: the slot, below @m->count
 * @addr: set to its DMA address
 *
 * Return: its start.
 */
u8 *kperf_ud_msg_out(struct kperf_ud_msg *m, u32 n, u64 *addr)
{
	size_t off = (size_t)m->count * m->slot + (size_t)n * m->size;

	*addr = m->buf.addr + off;
	return m->buf.va + off;
}

/**
 * kperf_ud_msg_post_recvs() - a receive per message on @m->qp
 * @run: the command
 * @m: the messages; slot n takes message n
 *
 * Return: 0 or a negative errno, with the reason recorded.
 */
int kperf_ud_msg_post_recvs(struct kperf_run *run, struct kperf_ud_msg *m)
{
	struct ib_sge sge = { .length = m->slot, .lkey = m->buf.lkey };
	struct ib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	u32 n;
	int ret;

	for (n = 0; n < m->count; n++) {
		sge.addr = m->buf.addr + (u64)n * m->slot;
		wr.wr_id = kperf_wr_id(KPERF_WR_RECV, 0, n);
		ret = ib_post_recv(m->qp, &wr, NULL);
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_recv of receive %u failed",
					      n);
	}
	return 0;
}

/**
 * kperf_ud_msg_send() - post every send slot as a message
 * @run: the command
 * @m: the messages, their send slots filled
 * @ah: where they go
 * @qpn: to which QP (0xffffff: a multicast group)
 * @qkey: with which Q_Key
 *
 * SEND with immediate, the immediate @m->qp's number, each signaled; the
 * completions are counted by kperf_ud_msg_wait().
 *
 * Return: 0 or a negative errno, with the reason recorded.
 */
int kperf_ud_msg_send(struct kperf_run *run, struct kperf_ud_msg *m,
		      struct ib_ah *ah, u32 qpn, u32 qkey)
{
	struct ib_sge sge = { .length = m->size, .lkey = m->buf.lkey };
	struct ib_ud_wr wr = {
		.wr = {
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND_WITH_IMM,
			.send_flags = IB_SEND_SIGNALED,
			.ex.imm_data = cpu_to_be32(m->qp->qp_num),
		},
		.ah = ah,
		.remote_qpn = qpn,
		.remote_qkey = qkey,
	};
	u32 n;
	int ret;

	for (n = 0; n < m->count; n++) {
		kperf_ud_msg_out(m, n, &sge.addr);
		wr.wr.wr_id = kperf_wr_id(KPERF_WR_OP, 0, n);
		ret = ib_post_send(m->qp, &wr.wr, NULL);
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_send of message %u failed",
					      n);
	}
	return 0;
}

/**
 * kperf_ud_msg_check() - what both tools' messages are
 * @run: the command
 * @m: the messages
 * @wc: a receive's completion
 * @peer_qpn: the QP the messages come from; 0: this is the first, whose
 *	      sender it becomes
 *
 * @m->size bytes (after the GRH room), an immediate that is the sending
 * QP's number, the same sender for all.
 *
 * Return: 0, or -EBADMSG with the reason recorded.
 */
int kperf_ud_msg_check(struct kperf_run *run, struct kperf_ud_msg *m,
		       const struct ib_wc *wc, u32 *peer_qpn)
{
	u32 imm = be32_to_cpu(wc->ex.imm_data);

	if (wc->opcode != IB_WC_RECV || !(wc->wc_flags & IB_WC_WITH_IMM) ||
	    wc->byte_len != m->slot)
		return kperf_run_fail(run, -EBADMSG,
				      "message %u: %u bytes (opcode %d, flags %#x); %s's have %u and an immediate",
				      m->received, wc->byte_len, wc->opcode,
				      wc->wc_flags, m->tool, m->slot);
	if (imm != wc->src_qp)
		return kperf_run_fail(run, -EBADMSG,
				      "message %u from QP %#x says it is from QP %#x",
				      m->received, wc->src_qp, imm);
	if (!*peer_qpn)
		*peer_qpn = wc->src_qp;
	if (wc->src_qp != *peer_qpn)
		return kperf_run_fail(run, -EBADMSG, "message %u comes from QP %#x, not %#x",
				      m->received, wc->src_qp, *peer_qpn);
	return 0;
}

/**
 * kperf_ud_msg_wait() - completions until enough came of both kinds
 * @run: the command
 * @s: its side (the CQ)
 * @m: the messages
 * @recvs: how many must have been received (@m->received), each checked
 *	   by @m->recv
 * @sends: how many sends must have completed (@m->sent)
 *
 * Context: process context, sleeps between polls.
 * Return: 0; the error of a failed completion or of @m->recv; -ETIMEDOUT
 * after the command's timeout_ms without a completion; -ENODEV, -EINTR as
 * kperf_run_idle(). The reason is recorded.
 */
int kperf_ud_msg_wait(struct kperf_run *run, struct kperf_side *s,
		      struct kperf_ud_msg *m, u32 recvs, u32 sends)
{
	struct ib_wc wc;
	int ret;

	kperf_run_progress(run);
	while (m->received < recvs || m->sent < sends) {
		ret = ib_poll_cq(s->cq, 1, &wc);
		if (ret < 0)
			return kperf_run_fail(run, ret, "ib_poll_cq failed");
		if (!ret) {
			ret = kperf_run_idle(run);
			if (ret == -ETIMEDOUT)
				return kperf_run_fail(run, ret,
						      "%u of %u messages received, %u of %u sent in time",
						      m->received, recvs, m->sent, sends);
			if (ret)
				return ret;
			continue;
		}
		kperf_run_progress(run);
		ret = kperf_cq_check(run, s, kperf_wr_kind(wc.wr_id), &wc);
		if (ret)
			return ret;
		if (kperf_wr_kind(wc.wr_id) != KPERF_WR_RECV) {
			m->sent++;
			continue;
		}
		ret = m->recv(m->ctx, &wc, kperf_wr_seq(wc.wr_id));
		if (ret)
			return ret;
		m->received++;
	}
	return 0;
}
