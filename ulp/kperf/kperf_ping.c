// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: mode=ping, one verified operation per round. */

#include <linux/delay.h>
#include <linux/jiffies.h>
#include "kperf.h"

/* The completion opcode the initiator sees for each operation. */
static const enum ib_wc_opcode kperf_ping_wc_op[KPERF_OP_COUNT] = {
	[KPERF_OP_SEND] = IB_WC_SEND, [KPERF_OP_SEND_IMM] = IB_WC_SEND,
	[KPERF_OP_SEND_INV] = IB_WC_SEND, [KPERF_OP_WRITE] = IB_WC_RDMA_WRITE,
	[KPERF_OP_WRITE_IMM] = IB_WC_RDMA_WRITE,
	[KPERF_OP_READ] = IB_WC_RDMA_READ, [KPERF_OP_CAS] = IB_WC_COMP_SWAP,
	[KPERF_OP_FAA] = IB_WC_FETCH_ADD,
};

/* Offset of the payload in the target's buffer (UD: after the GRH). */
static size_t kperf_ping_rx_off(struct kperf_run *run)
{
	return run->p.qp_type == IB_QPT_UD ? KPERF_UD_GRH : 0;
}

/* Puts the round's data where it comes from, poison where it goes. */
static void kperf_ping_prepare(struct kperf_run *run, struct kperf_conn *c,
			       u32 round)
{
	struct kperf_buf *src = &c->end[0].buf, *dst = &c->end[1].buf;
	u32 size = run->p.size;

	if (run->op->atomic) {
		*(u64 *)dst->va = kperf_data_word(round, KPERF_SALT_CMP);
		*(u64 *)src->va = kperf_data_word(round, KPERF_SALT_POISON);
	} else if (run->p.op == KPERF_OP_READ) {
		kperf_data_fill(dst->va, size, round, KPERF_SALT_DATA);
		kperf_data_fill(src->va, size, round, KPERF_SALT_POISON);
	} else {
		kperf_data_fill(src->va, size, round, KPERF_SALT_DATA);
		kperf_data_fill(dst->va, size + kperf_ping_rx_off(run), round,
				KPERF_SALT_POISON);
	}
}

static int kperf_ping_check_atomic(struct kperf_run *run,
				   struct kperf_conn *c, u32 round)
{
	u64 orig = kperf_data_word(round, KPERF_SALT_CMP);
	u64 got = *(u64 *)c->end[0].buf.va;
	u64 now = *(u64 *)c->end[1].buf.va;
	u64 want = run->p.op == KPERF_OP_CAS ?
		   kperf_data_word(round, KPERF_SALT_SWAP) : orig + orig;

	if (got != orig)
		return kperf_run_fail(run, -EBADMSG,
				      "round %u: %s returned %#llx, the target held %#llx",
				      round, run->op->name, got, orig);
	if (now != want)
		return kperf_run_fail(run, -EBADMSG,
				      "round %u: %s left %#llx at the target, expected %#llx",
				      round, run->op->name, now, want);
	return 0;
}

/*
 * A UC write without immediate completes at the initiator once it is sent:
 * nothing tells when it has landed. Wait (up to the command's timeout) for
 * the target buffer to show the round's pattern before checking it.
 */
static void kperf_ping_settle(struct kperf_run *run, struct kperf_conn *c,
			      u32 round)
{
	const void *buf = c->end[1].buf.va + kperf_ping_rx_off(run);
	unsigned long end = jiffies + msecs_to_jiffies(run->p.timeout_ms);

	if (run->p.qp_type != IB_QPT_UC || run->op->recv || run->op->atomic ||
	    run->p.op == KPERF_OP_READ)
		return;
	while (!kperf_data_match(buf, run->p.size, round, KPERF_SALT_DATA) &&
	       time_before(jiffies, end))
		usleep_range(100, 200);
}

/* Verifies the data where the operation put it. */
static int kperf_ping_check(struct kperf_run *run, struct kperf_conn *c,
			    u32 round)
{
	u32 size = run->p.size;

	if (run->op->atomic)
		return kperf_ping_check_atomic(run, c, round);
	if (run->p.op == KPERF_OP_READ)
		return kperf_data_check(run, c->end[0].buf.va, size, round,
					KPERF_SALT_DATA, "read buffer");
	return kperf_data_check(run, c->end[1].buf.va + kperf_ping_rx_off(run),
				size, round, KPERF_SALT_DATA, "target buffer");
}

/* The receive completion's length, opcode, immediate, invalidation, source. */
static int kperf_ping_check_recv(struct kperf_run *run, struct kperf_conn *c,
				 const struct ib_wc *wc, u32 round)
{
	u32 len = run->p.op == KPERF_OP_WRITE_IMM ? 0 :
		  run->p.size + kperf_ping_rx_off(run);
	enum ib_wc_opcode op = run->p.op == KPERF_OP_WRITE_IMM ?
			       IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV;

	if (wc->opcode != op || (op == IB_WC_RECV && wc->byte_len != len))
		return kperf_run_fail(run, -EBADMSG,
				      "round %u: receive WC opcode %d length %u, expected %d and %u",
				      round, wc->opcode, wc->byte_len, op, len);
	if (run->op->imm && (!(wc->wc_flags & IB_WC_WITH_IMM) ||
			     wc->ex.imm_data != kperf_imm(round)))
		return kperf_run_fail(run, -EBADMSG, "round %u: immediate data missing or wrong",
				      round);
	if (run->p.op == KPERF_OP_SEND_INV &&
	    (!(wc->wc_flags & IB_WC_WITH_INVALIDATE) ||
	     wc->ex.invalidate_rkey != c->end[1].buf.rkey))
		return kperf_run_fail(run, -EBADMSG, "round %u: invalidated rkey missing or wrong",
				      round);
	if (wc->qp != c->end[1].qp)	/* srq=1: not any QP of the SRQ */
		return kperf_run_fail(run, -EBADMSG, "round %u: received on QP %#x, expected %#x",
				      round, wc->qp->qp_num, c->end[1].qp->qp_num);
	if (run->p.qp_type == IB_QPT_UD &&
	    wc->src_qp != c->end[0].qp->qp_num)
		return kperf_run_fail(run, -EBADMSG, "round %u: UD source QP %#x, expected %#x",
				      round, wc->src_qp, c->end[0].qp->qp_num);
	return 0;
}

/* Registers both ends' buffers (mr=frwr) before a round. */
static int kperf_ping_reg(struct kperf_run *run, struct kperf_conn *c)
{
	int ret;

	if (run->p.mr != KPERF_MR_FRWR)
		return 0;
	ret = kperf_buf_reg(run, &run->side[1], &c->end[1]);
	if (ret)
		return ret;
	return kperf_buf_reg(run, &run->side[0], &c->end[0]);
}

/* Invalidates them after it; send_inv has invalidated the target's. */
static int kperf_ping_inv(struct kperf_run *run, struct kperf_conn *c)
{
	int ret;

	if (run->p.mr != KPERF_MR_FRWR)
		return 0;
	ret = kperf_buf_inv(run, &run->side[0], &c->end[0]);
	if (ret || run->p.op == KPERF_OP_SEND_INV)
		return ret;
	return kperf_buf_inv(run, &run->side[1], &c->end[1]);
}

/* Posts the round's receive (unless fault=no_recv) and operation. */
static int kperf_ping_post(struct kperf_run *run, unsigned int qpi, u32 round)
{
	bool recv = run->op->recv && run->p.fault != KPERF_FAULT_NO_RECV;
	int ret;

	if (recv) {
		ret = kperf_post_recv(run, &run->conns[qpi].end[1],
				      kperf_wr_id(KPERF_WR_RECV, qpi, round));
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_recv failed");
	}
	ret = kperf_post_op(run, qpi, round, round, true);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_send of %s failed",
				      run->op->name);
	return 0;
}

static int kperf_ping_round(struct kperf_run *run, u32 round)
{
	unsigned int qpi = round % run->p.qps;
	struct kperf_conn *c = &run->conns[qpi];
	struct ib_wc wc;
	int ret;

	ret = kperf_ping_reg(run, c);
	if (ret)
		return ret;
	kperf_ping_prepare(run, c, round);
	ret = kperf_ping_post(run, qpi, round);
	if (!ret)
		ret = kperf_cq_expect(run, &run->side[0], KPERF_WR_OP, &wc);
	if (ret)
		return ret;
	if (wc.opcode != kperf_ping_wc_op[run->p.op])
		return kperf_run_fail(run, -EBADMSG,
				      "round %u: initiator WC opcode %d, expected %d",
				      round, wc.opcode, kperf_ping_wc_op[run->p.op]);
	if (run->op->recv) {
		ret = kperf_cq_expect(run, &run->side[1], KPERF_WR_RECV, &wc);
		if (!ret)
			ret = kperf_ping_check_recv(run, c, &wc, round);
		if (ret)
			return ret;
	}
	kperf_ping_settle(run, c, round);
	ret = kperf_ping_check(run, c, round);
	if (ret)
		return ret;
	run->res.msgs++;
	run->res.bytes += run->p.size;
	return kperf_ping_inv(run, c);
}

/**
 * kperf_ping_run() - mode=ping: iters rounds, each operation verified
 * @run: the command, connected
 *
 * Round r uses connection r % qps. Its data is a pattern of r; it is
 * checked where the operation leaves it: the receive buffer (sends), the
 * target buffer (writes), the local buffer (read), both the returned and
 * the target's new value (atomics).
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno (the first failure ends the command).
 */
int kperf_ping_run(struct kperf_run *run)
{
	u32 round;
	int ret = 0;

	kperf_run_clock_start(run);
	for (round = 0; round < run->p.iters && !ret; round++) {
		ret = kperf_run_check(run);
		if (!ret)
			ret = run->p.mcast ? kperf_mcast_round(run, round) :
					     kperf_ping_round(run, round);
	}
	kperf_run_clock_stop(run);
	return ret;
}
