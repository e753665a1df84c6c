// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: mode=lat, ping-pong round trips timed one by one. */

#include <linux/slab.h>
#include <linux/sort.h>
#include "kperf.h"

/*
 * op=write is detected by polling the last byte of the buffer written:
 * the initiator writes a marker in 0x01..0x7f, the target answers with
 * the same marker | 0x80, so neither can mistake its own or an old one.
 */
static u8 kperf_lat_marker(u32 round)
{
	return round % 0x7f + 1;
}

static int kperf_lat_poll_byte(struct kperf_run *run, const u8 *byte, u8 want)
{
	int ret;

	kperf_run_progress(run);
	while (READ_ONCE(*byte) != want) {
		ret = kperf_run_idle(run);
		if (ret)
			return ret;
	}
	kperf_run_progress(run);
	return 0;
}

/* One round trip by RDMA WRITE, polled in memory at both ends. */
static int kperf_lat_write(struct kperf_run *run, u32 round)
{
	struct kperf_conn *c = &run->conns[0];
	u32 last = run->p.size - 1;
	u8 *a = c->end[0].buf.va, *b = c->end[1].buf.va;
	u8 m = kperf_lat_marker(round);
	int ret;

	a[last] = m;
	ret = kperf_post_op(run, 0, round, round, true);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_send failed");
	ret = kperf_lat_poll_byte(run, &b[last], m);
	if (ret)
		return ret;
	b[last] = m | 0x80;
	ret = kperf_post_reply(run, 0, round);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_send failed");
	return kperf_lat_poll_byte(run, &a[last], m | 0x80);
}

/* One round trip by a message each way (send, send_imm, write_imm). */
static int kperf_lat_msg(struct kperf_run *run, u32 round)
{
	struct kperf_conn *c = &run->conns[0];
	struct ib_wc wc;
	int ret;

	ret = kperf_post_op(run, 0, round, round, true);
	if (!ret)
		ret = kperf_cq_expect(run, &run->side[1], KPERF_WR_RECV, &wc);
	if (!ret)
		ret = kperf_post_recv(run, &c->end[1],
				      kperf_wr_id(KPERF_WR_RECV, 0, round));
	if (!ret)
		ret = kperf_post_reply(run, 0, round);
	if (!ret)
		ret = kperf_cq_expect(run, &run->side[0], KPERF_WR_RECV, &wc);
	if (!ret)
		ret = kperf_post_recv(run, &c->end[0],
				      kperf_wr_id(KPERF_WR_RECV, 0, round));
	/* Only the first reason is kept: a failed completion names itself. */
	return ret ? kperf_run_fail(run, ret, "posting a work request failed") : 0;
}

/* Reaps the round's two send completions (outside the timed part). */
static int kperf_lat_reap(struct kperf_run *run)
{
	struct ib_wc wc;
	int ret;

	ret = kperf_cq_expect(run, &run->side[0], KPERF_WR_OP, &wc);
	if (ret)
		return ret;
	return kperf_cq_expect(run, &run->side[1], KPERF_WR_REPLY, &wc);
}

static int kperf_lat_setup(struct kperf_run *run)
{
	struct kperf_conn *c = &run->conns[0];
	int d, ret;

	for (d = 0; d < 2; d++) {
		if (run->p.mr == KPERF_MR_FRWR) {
			ret = kperf_buf_reg(run, &run->side[d], &c->end[d]);
			if (ret)
				return ret;
		}
		if (run->op->recv) {
			ret = kperf_post_recv(run, &c->end[d],
					      kperf_wr_id(KPERF_WR_RECV, 0, 0));
			if (ret)
				return kperf_run_fail(run, ret, "ib_post_recv failed");
		}
		memset(c->end[d].buf.va, 0, c->end[d].buf.len);
	}
	return 0;
}

/* Invalidates what kperf_lat_setup() registered (mr=frwr). */
static int kperf_lat_finish(struct kperf_run *run)
{
	int d, ret;

	for (d = 0; d < 2 && run->p.mr == KPERF_MR_FRWR; d++) {
		ret = kperf_buf_inv(run, &run->side[d], &run->conns[0].end[d]);
		if (ret)
			return ret;
	}
	return 0;
}

static int kperf_lat_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void kperf_lat_stats(struct kperf_run *run, u64 *ns, u32 n)
{
	sort(ns, n, sizeof(*ns), kperf_lat_cmp, NULL);
	run->res.lat[0] = ns[0];
	run->res.lat[1] = ns[n / 2];
	run->res.lat[2] = ns[min(n - 1, (u32)div_u64((u64)n * 99, 100))];
	run->res.lat[3] = ns[n - 1];
}

static int kperf_lat_rounds(struct kperf_run *run, u64 *ns)
{
	bool by_write = run->p.op == KPERF_OP_WRITE;
	u32 round;
	ktime_t t;
	int ret;

	kperf_run_clock_start(run);
	for (round = 0; round < run->p.iters; round++) {
		ret = kperf_run_check(run);
		if (ret)
			return ret;
		t = ktime_get();
		ret = by_write ? kperf_lat_write(run, round) :
				 kperf_lat_msg(run, round);
		ns[round] = ktime_to_ns(ktime_sub(ktime_get(), t));
		if (!ret)
			ret = kperf_lat_reap(run);
		if (ret)
			return ret;
		run->res.msgs += 2;
		run->res.bytes += 2 * run->p.size;
	}
	kperf_run_clock_stop(run);
	kperf_lat_stats(run, ns, run->p.iters);
	return 0;
}

/**
 * kperf_lat_run() - mode=lat: round-trip latency on the first QP
 * @run: the command, connected
 *
 * Each round the initiator sends (or writes) size bytes and the target
 * answers the same way as soon as it sees them; the time from posting to
 * seeing the answer is one sample. Send completions are reaped after the
 * sample is taken.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_lat_run(struct kperf_run *run)
{
	u64 *ns;
	int ret;

	ns = kvmalloc_array(run->p.iters, sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return kperf_run_fail(run, -ENOMEM, "no memory for %u samples",
				      run->p.iters);
	ret = kperf_lat_setup(run);
	if (!ret)
		ret = kperf_lat_rounds(run, ns);
	if (!ret)
		ret = kperf_lat_finish(run);
	kvfree(ns);
	return ret;
}
