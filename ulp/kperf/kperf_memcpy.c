// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_kperf: mode=memcpy, the guest's plain memory copy bandwidth. A
 * soft-RoCE device copies every payload at least once per side, so this is
 * the ceiling its bandwidth is measured against. It needs no device.
 */

#include <linux/compiler.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "kperf.h"

/* The copies between two checks for a fatal signal and a resched. */
#define KPERF_MEMCPY_BATCH	16

/* What one memcpy command measured. */
struct kperf_memcpy_res {
	u64 copies, ns, cpu_ns;
};

/* " name=<num * scale / den>" with three decimals (0 when @den is 0). */
static void kperf_memcpy_fixed(struct seq_buf *out, const char *name,
			       u64 num, u64 scale, u64 den)
{
	u64 milli = den ? mul_u64_u64_div_u64(num, scale * 1000, den) : 0;
	u32 frac;
	u64 whole = div_u64_rem(milli, 1000, &frac);

	seq_buf_printf(out, " %s=%llu.%03u", name, whole, frac);
}

static void kperf_memcpy_out(const struct kperf_params *p,
			     const struct kperf_memcpy_res *r,
			     struct seq_buf *out, int err, const char *why)
{
	u64 bytes = r->copies * p->size;

	seq_buf_printf(out, "result mode=memcpy size=%u iters=%u msgs=%llu bytes=%llu",
		       p->size, p->iters, r->copies, bytes);
	kperf_memcpy_fixed(out, "usec", r->ns, 1, 1000);
	/* bytes per microsecond is MB/s */
	kperf_memcpy_fixed(out, "mbps", bytes, 1000, r->ns);
	kperf_memcpy_fixed(out, "cpu_usec", r->cpu_ns, 1, 1000);
	if (!err)
		seq_buf_printf(out, " status=ok\n");
	else
		seq_buf_printf(out, " status=fail errno=%d reason=\"%s\"\n",
			       err, why);
}

/* Copies @src to @dst @iters times; stops early on a fatal signal. */
static int kperf_memcpy_loop(const struct kperf_params *p, void *dst,
			     const void *src, struct kperf_memcpy_res *r)
{
	ktime_t t0 = ktime_get();
	u64 cpu0 = current->se.sum_exec_runtime;
	int ret = 0;

	while (r->copies < p->iters) {
		memcpy(dst, src, p->size);
		barrier_data(dst);
		if (++r->copies % KPERF_MEMCPY_BATCH)
			continue;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	r->ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	r->cpu_ns = current->se.sum_exec_runtime - cpu0;
	return ret;
}

/**
 * kperf_memcpy_run() - run a mode=memcpy command
 * @p: the command (only size and iters matter)
 * @out: where the result line goes
 *
 * Copies one buffer of @p->size bytes into another @p->iters times; both
 * are allocated (kvmalloc) and written once before the clock starts, so
 * page faults and first touches are not measured.
 *
 * Context: process context (the writer's), sleeps.
 * Return: 0, -EINVAL for size=0, -ENOMEM, or -EINTR on a fatal signal.
 */
int kperf_memcpy_run(const struct kperf_params *p, struct seq_buf *out)
{
	struct kperf_memcpy_res r = {};
	void *src, *dst;
	int ret;

	if (!p->size) {
		kperf_memcpy_out(p, &r, out, -EINVAL, "memcpy needs size >= 1");
		return -EINVAL;
	}
	src = kvmalloc(p->size, GFP_KERNEL);
	dst = kvmalloc(p->size, GFP_KERNEL);
	if (!src || !dst) {
		ret = -ENOMEM;
		kperf_memcpy_out(p, &r, out, ret, "no memory for the buffers");
		goto out_free;
	}
	memset(src, 0x5a, p->size);
	memset(dst, 0xa5, p->size);
	ret = kperf_memcpy_loop(p, dst, src, &r);
	kperf_memcpy_out(p, &r, out, ret, ret ? "interrupted" : "");
out_free:
	kvfree(dst);
	kvfree(src);
	return ret;
}
