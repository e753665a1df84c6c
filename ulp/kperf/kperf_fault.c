// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: fault=, failures made on purpose and checked to happen right. */

#include <linux/delay.h>
#include "kperf.h"

#define KPERF_STALL_MS	20	/* sends reach the wire; ACK timeout is 67 ms */

/* Waits for @n completions of @kind, every one flushed. */
static int kperf_fault_flushed(struct kperf_run *run, struct kperf_side *s,
			       enum kperf_wr_kind kind, u32 n)
{
	struct ib_wc wc;
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = kperf_cq_wait(run, s, kind, &wc);
		if (ret)
			return ret;
		if (wc.status != IB_WC_WR_FLUSH_ERR)
			return kperf_run_fail(run, -EIO,
					      "WR %u of %u completed with %s, expected WR_FLUSH_ERR",
					      i + 1, n, kperf_wc_name(wc.status));
		run->res.msgs++;
	}
	run->res.wc = IB_WC_WR_FLUSH_ERR;
	return 0;
}

/*
 * RC (any op), the target's QP already in ERR (it drops what arrives): the
 * sends stay outstanding, waiting for ACKs, until the initiator's QP goes to
 * ERR well before the ACK timeout could expire.
 */
static int kperf_fault_qp_err_sends(struct kperf_run *run)
{
	u32 i;
	int ret;

	if (run->p.qp_type != IB_QPT_RC)
		return 0;
	for (i = 0; i < run->p.depth; i++) {
		ret = kperf_post_op(run, 0, i, i, true);
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_send failed");
	}
	msleep(KPERF_STALL_MS);
	ret = kperf_conn_to_err(run, &run->conns[0].end[0]);
	if (ret)
		return ret;
	return kperf_fault_flushed(run, &run->side[0], KPERF_WR_OP,
				   run->p.depth);
}

/* Receives posted on the target, then its QP goes to ERR. */
static int kperf_fault_qp_err_recvs(struct kperf_run *run)
{
	struct kperf_end *e = &run->conns[0].end[1];
	u32 i;
	int ret;

	for (i = 0; i < run->p.depth; i++) {
		ret = kperf_post_recv(run, e, kperf_wr_id(KPERF_WR_RECV, 0, i));
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_recv failed");
	}
	ret = kperf_conn_to_err(run, e);
	if (ret)
		return ret;
	return kperf_fault_flushed(run, &run->side[1], KPERF_WR_RECV,
				   run->p.depth);
}

static int kperf_fault_qp_err(struct kperf_run *run)
{
	int d, ret;

	run->p.expect = -1;	/* the flushes are checked here */
	for (d = 0; d < 2 && run->p.mr == KPERF_MR_FRWR; d++) {
		ret = kperf_buf_reg(run, &run->side[d], &run->conns[0].end[d]);
		if (ret)
			return ret;
	}
	kperf_run_clock_start(run);
	ret = kperf_fault_qp_err_recvs(run);
	if (!ret)
		ret = kperf_fault_qp_err_sends(run);
	kperf_run_clock_stop(run);
	return ret;
}

/*
 * bad_rkey and no_recv: one round of ping whose operation fails at the
 * initiator with the expected status (kperf_run_command() checks it).
 */
static int kperf_fault_one_round(struct kperf_run *run)
{
	if (run->p.expect < 0)
		run->p.expect = run->p.fault == KPERF_FAULT_BAD_RKEY ?
				IB_WC_REM_ACCESS_ERR : IB_WC_RNR_RETRY_EXC_ERR;
	run->p.iters = 1;
	return kperf_ping_run(run);
}

/**
 * kperf_fault_run() - run a command with fault=
 * @run: the command, connected
 *
 * bad_rkey: the operation carries a wrong rkey; expects REM_ACCESS_ERR.
 * no_recv: RC with rnr_retry 0 and no receive posted; expects
 * RNR_RETRY_EXC_ERR. qp_err: depth receives on the target, whose QP
 * then goes to ERR; then (RC) depth operations from
 * the initiator, unanswered, whose QP then goes to ERR. Every one of
 * them must complete with WR_FLUSH_ERR.
 *
 * Context: process context, sleeps.
 * Return: 0 when the failure happened as expected, else a negative errno.
 */
int kperf_fault_run(struct kperf_run *run)
{
	if (run->p.fault == KPERF_FAULT_QP_ERR)
		return kperf_fault_qp_err(run);
	return kperf_fault_one_round(run);
}
