// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: mode=bw, depth operations in flight on each of qps QPs. */

#include <linux/slab.h>
#include "kperf.h"

#define KPERF_BW_POLL		8
#define KPERF_BW_DRAIN_MS	20	/* UC/UD: how long to wait for late receives */

/**
 * struct kperf_bw - progress of mode=bw
 * @posted: per QP, operations posted
 * @done: per QP, operations known complete (up to the last signaled one)
 * @rx: receives completed, all QPs
 * @rx_posted: per QP, receives posted
 * @qps_done: QPs with every operation complete
 */
struct kperf_bw {
	u64 *posted, *done, *rx_posted;
	u64 rx;
	unsigned int qps_done;
};

static bool kperf_bw_signaled(struct kperf_run *run, u64 n)
{
	return !(n % run->p.sig) || n == run->p.iters;
}

/* Fills QP @qpi's send queue up to depth operations in flight. */
static int kperf_bw_post(struct kperf_run *run, struct kperf_bw *bw,
			 unsigned int qpi)
{
	int ret;

	while (bw->posted[qpi] < run->p.iters &&
	       bw->posted[qpi] - bw->done[qpi] < run->p.depth) {
		u64 n = bw->posted[qpi] + 1;

		ret = kperf_post_op(run, qpi, (u32)n, n,
				    kperf_bw_signaled(run, n));
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_send failed after %llu operations",
					      bw->posted[qpi]);
		bw->posted[qpi] = n;
	}
	return 0;
}

static int kperf_bw_recv(struct kperf_run *run, struct kperf_bw *bw,
			 unsigned int qpi)
{
	int ret;

	if (bw->rx_posted[qpi] >= run->p.iters)
		return 0;
	ret = kperf_post_recv(run, &run->conns[qpi].end[1],
			      kperf_wr_id(KPERF_WR_RECV, qpi, 0));
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_recv failed");
	bw->rx_posted[qpi]++;
	return 0;
}

static int kperf_bw_bad_wc(struct kperf_run *run, struct kperf_side *s,
			   const struct ib_wc *wc)
{
	run->res.wc = wc->status;
	return kperf_run_fail(run, -EIO, "completion on %s: status %s (vendor_err %#x)",
			      dev_name(&s->ibdev->dev),
			      kperf_wc_name(wc->status), wc->vendor_err);
}

/* Reaps the initiators' completions; returns how many, or an error. */
static int kperf_bw_reap_tx(struct kperf_run *run, struct kperf_bw *bw)
{
	struct ib_wc wc[KPERF_BW_POLL];
	unsigned int qpi;
	int n, i;

	n = ib_poll_cq(run->side[0].cq, KPERF_BW_POLL, wc);
	for (i = 0; i < n; i++) {
		if (wc[i].status != IB_WC_SUCCESS)
			return kperf_bw_bad_wc(run, &run->side[0], &wc[i]);
		qpi = kperf_wr_qpi(wc[i].wr_id);
		bw->done[qpi] = kperf_wr_seq(wc[i].wr_id);
		if (bw->done[qpi] == run->p.iters)
			bw->qps_done++;
	}
	return n;
}

/* Reaps the targets' receive completions and reposts the receives. */
static int kperf_bw_reap_rx(struct kperf_run *run, struct kperf_bw *bw)
{
	struct ib_wc wc[KPERF_BW_POLL];
	int n, i, ret;

	n = ib_poll_cq(run->side[1].cq, KPERF_BW_POLL, wc);
	for (i = 0; i < n; i++) {
		if (wc[i].status != IB_WC_SUCCESS)
			return kperf_bw_bad_wc(run, &run->side[1], &wc[i]);
		bw->rx++;
		ret = kperf_bw_recv(run, bw, kperf_wr_qpi(wc[i].wr_id));
		if (ret)
			return ret;
	}
	return n;
}

/* One pass: post, reap, or idle when nothing happened. */
static int kperf_bw_pass(struct kperf_run *run, struct kperf_bw *bw)
{
	unsigned int qpi;
	int tx, rx = 0, ret;

	ret = kperf_run_check(run);
	if (ret)
		return ret;
	for (qpi = 0; qpi < run->p.qps; qpi++) {
		ret = kperf_bw_post(run, bw, qpi);
		if (ret)
			return ret;
	}
	tx = kperf_bw_reap_tx(run, bw);
	if (tx < 0)
		return tx;
	if (run->op->recv) {
		rx = kperf_bw_reap_rx(run, bw);
		if (rx < 0)
			return rx;
	}
	if (tx || rx) {
		kperf_run_progress(run);
		return 0;
	}
	return kperf_run_idle(run);
}

/* Waits for the receives still due; UC and UD may have dropped some. */
static int kperf_bw_drain(struct kperf_run *run, struct kperf_bw *bw)
{
	u64 want = (u64)run->p.iters * run->p.qps;
	bool reliable = run->p.qp_type == IB_QPT_RC;
	int n, ret;

	kperf_run_progress(run);
	while (run->op->recv && bw->rx < want) {
		n = kperf_bw_reap_rx(run, bw);
		if (n < 0)
			return n;
		if (n) {
			kperf_run_progress(run);
			continue;
		}
		if (!reliable &&
		    ktime_ms_delta(ktime_get(), run->last_progress) > KPERF_BW_DRAIN_MS)
			break;
		ret = kperf_run_idle(run);
		if (ret)
			return ret;
	}
	return 0;
}

/* Posts the first receives and registers the buffers (mr=frwr). */
static int kperf_bw_start(struct kperf_run *run, struct kperf_bw *bw)
{
	unsigned int qpi, i;
	int d, ret;

	for (qpi = 0; qpi < run->p.qps; qpi++) {
		for (d = 0; d < 2 && run->p.mr == KPERF_MR_FRWR; d++) {
			ret = kperf_buf_reg(run, &run->side[d],
					    &run->conns[qpi].end[d]);
			if (ret)
				return ret;
		}
		for (i = 0; i < 2 * run->p.depth && run->op->recv; i++) {
			ret = kperf_bw_recv(run, bw, qpi);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Invalidates the buffers registered by kperf_bw_start(). */
static int kperf_bw_finish(struct kperf_run *run)
{
	unsigned int qpi;
	int d, ret;

	for (qpi = 0; qpi < run->p.qps && run->p.mr == KPERF_MR_FRWR; qpi++) {
		for (d = 0; d < 2; d++) {
			ret = kperf_buf_inv(run, &run->side[d],
					    &run->conns[qpi].end[d]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int kperf_bw_loop(struct kperf_run *run, struct kperf_bw *bw)
{
	int ret;

	ret = kperf_bw_start(run, bw);
	if (ret)
		return ret;
	kperf_run_clock_start(run);
	while (bw->qps_done < run->p.qps) {
		ret = kperf_bw_pass(run, bw);
		if (ret)
			return ret;
	}
	kperf_run_clock_stop(run);
	run->res.msgs = (u64)run->p.iters * run->p.qps;
	run->res.bytes = run->res.msgs * run->p.size;
	ret = kperf_bw_drain(run, bw);
	if (ret)
		return ret;
	return kperf_bw_finish(run);
}

/**
 * kperf_bw_run() - mode=bw: throughput of one operation
 * @run: the command, connected
 *
 * Keeps depth operations in flight on each QP, every sig-th signaled,
 * until each QP has completed iters of them; the targets keep receives
 * posted for the operations that consume them. Data is not verified.
 * With mr=frwr the buffers are registered once for the whole command.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_bw_run(struct kperf_run *run)
{
	struct kperf_bw bw = {};
	unsigned int n = run->p.qps;
	int ret = -ENOMEM;

	bw.posted = kcalloc(n, sizeof(u64), GFP_KERNEL);
	bw.done = kcalloc(n, sizeof(u64), GFP_KERNEL);
	bw.rx_posted = kcalloc(n, sizeof(u64), GFP_KERNEL);
	if (bw.posted && bw.done && bw.rx_posted)
		ret = kperf_bw_loop(run, &bw);
	else
		kperf_run_fail(run, ret, "no memory for %u QPs' counters", n);
	kfree(bw.rx_posted);
	kfree(bw.done);
	kfree(bw.posted);
	return ret;
}
