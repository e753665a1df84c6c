// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: waiting for one kind of completion on a side's CQ. */

#include <linux/string.h>
#include "kperf.h"

static const char *const kperf_kind_names[] = {
	[KPERF_WR_OP] = "op", [KPERF_WR_RECV] = "recv",
	[KPERF_WR_REG] = "reg_mr", [KPERF_WR_INV] = "local_inv",
	[KPERF_WR_REPLY] = "reply",
};

static const char *kperf_kind_name(enum kperf_wr_kind kind)
{
	return kind < ARRAY_SIZE(kperf_kind_names) ? kperf_kind_names[kind] : "?";
}

/* Takes a completion of @kind out of the side's stash. */
static bool kperf_cq_unstash(struct kperf_side *s, enum kperf_wr_kind kind,
			     struct ib_wc *wc)
{
	unsigned int i;

	for (i = 0; i < s->nstash; i++) {
		if (kperf_wr_kind(s->stash[i].wr_id) != kind)
			continue;
		*wc = s->stash[i];
		s->nstash--;
		memmove(&s->stash[i], &s->stash[i + 1],
			(s->nstash - i) * sizeof(*wc));
		return true;
	}
	return false;
}

static int kperf_cq_stash(struct kperf_run *run, struct kperf_side *s,
			  const struct ib_wc *wc)
{
	if (s->nstash == KPERF_STASH)
		return kperf_run_fail(run, -EPROTO, "unexpected %s completion on %s, status %s",
				      kperf_kind_name(kperf_wr_kind(wc->wr_id)),
				      dev_name(&s->ibdev->dev),
				      kperf_wc_name(wc->status));
	s->stash[s->nstash++] = *wc;
	return 0;
}

/**
 * kperf_cq_poll() - take the next completion of one kind, if it is there
 * @run: the command
 * @s: the side whose CQ is polled
 * @kind: what the completion is for (from its wr_id)
 * @wc: the completion, whatever its status
 *
 * Completions of other kinds seen meanwhile are kept for later calls. For
 * waits that also watch something else (kperf_cq_wait() does not).
 *
 * Context: any; does not sleep.
 * Return: 1 with @wc, 0 when the CQ holds none of @kind, or the error of
 * polling.
 */
int kperf_cq_poll(struct kperf_run *run, struct kperf_side *s,
		  enum kperf_wr_kind kind, struct ib_wc *wc)
{
	int n, ret;

	if (kperf_cq_unstash(s, kind, wc))
		return 1;
	for (;;) {
		n = ib_poll_cq(s->cq, 1, wc);
		if (n < 0)
			return kperf_run_fail(run, n, "ib_poll_cq failed");
		if (!n)
			return 0;
		kperf_run_progress(run);
		if (kperf_wr_kind(wc->wr_id) == kind)
			return 1;
		ret = kperf_cq_stash(run, s, wc);
		if (ret)
			return ret;
	}
}

/**
 * kperf_cq_wait() - wait for the next completion of one kind
 * @run: the command (timeout, abort)
 * @s: the side whose CQ is polled
 * @kind: what the completion is for (from its wr_id)
 * @wc: the completion, whatever its status
 *
 * Completions of other kinds seen meanwhile are kept for later calls.
 *
 * Context: process context, may sleep.
 * Return: 0, or the error of kperf_run_idle() or of polling.
 */
int kperf_cq_wait(struct kperf_run *run, struct kperf_side *s,
		  enum kperf_wr_kind kind, struct ib_wc *wc)
{
	int ret;

	/* the timeout counts from here (filling and checking data is not idle) */
	kperf_run_progress(run);
	for (;;) {
		ret = kperf_cq_poll(run, s, kind, wc);
		if (ret)
			return ret < 0 ? ret : 0;
		ret = kperf_run_idle(run);
		if (ret)
			return ret;
	}
}

/**
 * kperf_cq_check() - a completion must have succeeded
 * @run: the command
 * @s: the side whose CQ it came from
 * @kind: what it was for
 * @wc: the completion
 *
 * A failed completion's status is kept in run->res.wc (for expect=).
 *
 * Return: 0, or -EIO for a bad status.
 */
int kperf_cq_check(struct kperf_run *run, struct kperf_side *s,
		   enum kperf_wr_kind kind, const struct ib_wc *wc)
{
	if (wc->status == IB_WC_SUCCESS)
		return 0;
	run->res.wc = wc->status;
	return kperf_run_fail(run, -EIO, "%s completion on %s: status %s (vendor_err %#x)",
			      kperf_kind_name(kind), dev_name(&s->ibdev->dev),
			      kperf_wc_name(wc->status), wc->vendor_err);
}

/**
 * kperf_cq_expect() - wait for a completion of one kind that must succeed
 * @run: the command
 * @s: the side whose CQ is polled
 * @kind: what the completion is for
 * @wc: the completion
 *
 * A failed completion's status is kept in run->res.wc (for expect=).
 *
 * Context: process context, may sleep.
 * Return: 0, -EIO for a bad status, or the error of kperf_cq_wait().
 */
int kperf_cq_expect(struct kperf_run *run, struct kperf_side *s,
		    enum kperf_wr_kind kind, struct ib_wc *wc)
{
	int ret = kperf_cq_wait(run, s, kind, wc);

	return ret ?: kperf_cq_check(run, s, kind, wc);
}
