// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: one command from setup through its mode to teardown. */

#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "kperf.h"

/**
 * kperf_run_fail() - record why a command fails
 * @run: the command
 * @err: the negative errno it fails with
 * @fmt: the reason, printf style; only the first reason is kept
 *
 * Return: @err, so callers can "return kperf_run_fail(...)".
 */
int kperf_run_fail(struct kperf_run *run, int err, const char *fmt, ...)
{
	va_list args;

	if (run->reason[0])
		return err;
	va_start(args, fmt);
	vsnprintf(run->reason, sizeof(run->reason), fmt, args);
	va_end(args);
	if (run->p.mode == KPERF_RPING)	/* no dev=, no op= */
		pr_info("rping: %s (%d)\n", run->reason, err);
	else
		pr_info("%s %s on %s: %s (%d)\n", kperf_mode_name(run->p.mode),
			run->op->name, run->p.dev, run->reason, err);
	return err;
}

/**
 * kperf_run_progress() - note that something the command waits for came
 * @run: the command
 */
void kperf_run_progress(struct kperf_run *run)
{
	run->last_progress = ktime_get();
}

/**
 * kperf_run_clock_start() - start measuring wall and CPU time
 * @run: the command
 *
 * The CPU time is the writer's own (the process running the command).
 */
void kperf_run_clock_start(struct kperf_run *run)
{
	run->t0 = ktime_get();
	run->cpu0 = current->se.sum_exec_runtime;
}

/**
 * kperf_run_clock_stop() - stop measuring; the times go into run->res
 * @run: the command
 */
void kperf_run_clock_stop(struct kperf_run *run)
{
	run->res.ns = ktime_to_ns(ktime_sub(ktime_get(), run->t0));
	run->res.cpu_ns = current->se.sum_exec_runtime - run->cpu0;
}

/* A side holds a device that is going away. */
static bool kperf_run_side_gone(const struct kperf_side *s)
{
	return s->kdev && kperf_dev_gone(s->kdev);
}

/**
 * kperf_run_check() - should the command stop?
 * @run: the command; its sides open, or not yet (mode=rping)
 *
 * Cheap enough for every pass of a busy loop.
 *
 * Return: 0 to go on; -ENODEV when a device is going away (its removal
 * waits for this command), -EINTR on a fatal signal.
 */
int kperf_run_check(struct kperf_run *run)
{
	if (kperf_run_side_gone(&run->side[0]) ||
	    kperf_run_side_gone(&run->side[1]))
		return kperf_run_fail(run, -ENODEV, "device removed while the command ran");
	if (fatal_signal_pending(current))
		return kperf_run_fail(run, -EINTR, "interrupted");
	return 0;
}

/**
 * kperf_run_idle() - one turn of a wait loop with nothing arrived
 * @run: the command
 *
 * Busy-polls for the first millisecond without progress, then sleeps a
 * little between polls.
 *
 * Context: process context, may sleep.
 * Return: 0 to keep waiting; -ENODEV when a device is going away, -EINTR
 * on a fatal signal, -ETIMEDOUT after timeout_ms without progress.
 */
int kperf_run_idle(struct kperf_run *run)
{
	s64 idle_us = ktime_us_delta(ktime_get(), run->last_progress);
	int ret = kperf_run_check(run);

	if (ret)
		return ret;
	if (idle_us > (s64)run->p.timeout_ms * USEC_PER_MSEC)
		return kperf_run_fail(run, -ETIMEDOUT, "timed out after %u ms without a completion",
				      run->p.timeout_ms);
	if (idle_us > USEC_PER_MSEC)
		usleep_range(20, 60);
	else
		cond_resched();
	return 0;
}

/* The path MTU: the command's, or the smaller active MTU of the ports. */
static int kperf_run_mtu(struct kperf_run *run)
{
	enum ib_mtu active = min(run->side[0].active_mtu,
				 run->side[1].active_mtu);

	if (!run->p.mtu)
		run->p.mtu = active;
	if (run->p.mtu > active)
		return kperf_run_fail(run, -EINVAL, "mtu=%d exceeds the ports' active MTU %d",
				      ib_mtu_enum_to_int(run->p.mtu),
				      ib_mtu_enum_to_int(active));
	if (run->p.qp_type == IB_QPT_UD &&
	    run->p.size > ib_mtu_enum_to_int(run->p.mtu))
		return kperf_run_fail(run, -EINVAL, "UD messages must fit the path MTU %d",
				      ib_mtu_enum_to_int(run->p.mtu));
	return 0;
}

static int kperf_run_setup(struct kperf_run *run)
{
	int ret;

	ret = kperf_side_open(run, &run->side[0], run->p.dev);
	if (ret)
		return ret;
	ret = kperf_side_open(run, &run->side[1], run->p.peer);
	if (ret || run->p.mode == KPERF_MAD)	/* MADs use the QP1s */
		return ret;
	ret = kperf_run_mtu(run);
	if (!ret && run->p.srq)
		ret = kperf_srq_create(run);
	if (ret)
		return ret;
	return kperf_conn_create_all(run);
}

/* Undoes whatever part of kperf_run_setup() was done. */
static void kperf_run_teardown(struct kperf_run *run)
{
	kperf_mcast_detach(run);
	kperf_conn_destroy_all(run);
	kperf_side_close(&run->side[1]);
	kperf_side_close(&run->side[0]);
}

static int (*const kperf_modes[])(struct kperf_run *run) = {
	[KPERF_PING] = kperf_ping_run,
	[KPERF_BW] = kperf_bw_run,
	[KPERF_LAT] = kperf_lat_run,
	[KPERF_MAD] = kperf_mad_run,
};

/* The SRQ limit check and the group join (srq=1, mcast=1), then the mode. */
static int kperf_run_body(struct kperf_run *run)
{
	int ret = 0;

	if (run->p.srq)
		ret = kperf_srq_limit(run);
	if (!ret && run->p.mcast)
		ret = kperf_mcast_attach(run);
	if (ret)
		return ret;
	/* the connections ended (or, hold=1, were parked) where abort= said */
	if (run->p.abort)
		return run->p.hold ? kperf_hold_run(run) : 0;
	if (run->p.fault != KPERF_FAULT_NONE)
		return kperf_fault_run(run);
	if (run->p.cycles)
		return kperf_cycle_run(run);
	ret = kperf_modes[run->p.mode](run);
	if (!ret && run->p.hold)
		ret = kperf_hold_run(run);
	return ret;
}

/* Turns a failure the command asked for (expect=) into success. */
static int kperf_run_expect(struct kperf_run *run, int ret)
{
	int want = run->p.expect;

	if (want < 0)
		return ret;
	if (ret == -EIO && run->res.wc == want) {
		run->reason[0] = '\0';
		return 0;
	}
	if (!ret && want != IB_WC_SUCCESS)
		return kperf_run_fail(run, -EIO, "expected %s, but the command succeeded",
				      kperf_wc_name(want));
	return ret;
}

/**
 * kperf_run_gone() - a device going away explains whatever failed meanwhile
 * @run: the command
 * @ret: how it ended
 *
 * Return: -ENODEV (with the reason saying so) when @ret is a failure and a
 * device of @run is going away, else @ret.
 */
int kperf_run_gone(struct kperf_run *run, int ret)
{
	char first[sizeof(run->reason)];

	if (!ret || ret == -ENODEV)
		return ret;
	if (!kperf_run_side_gone(&run->side[0]) &&
	    !kperf_run_side_gone(&run->side[1]))
		return ret;
	strscpy(first, run->reason, sizeof(first));
	snprintf(run->reason, sizeof(run->reason),
		 "device removed while the command ran (%s)", first);
	return -ENODEV;
}

/**
 * kperf_run_alloc() - a new command's run
 * @p: the command, copied into the run
 * @out: where its lines go
 *
 * Context: process context; sleeps.
 * Return: the run, with no error recorded yet; free it with kfree(). NULL
 * when out of memory.
 */
struct kperf_run *kperf_run_alloc(const struct kperf_params *p,
				  struct seq_buf *out)
{
	struct kperf_run *run = kzalloc(sizeof(*run), GFP_KERNEL);

	if (!run)
		return NULL;
	run->p = *p;
	run->op = kperf_op_info(p->op);
	run->out = out;
	run->res.wc = IB_WC_SUCCESS;
	return run;
}

/**
 * kperf_run_command() - run one parsed command
 * @p: the command
 * @out: where its result lines go
 *
 * Everything the command creates is destroyed before this returns,
 * whether it succeeded or not.
 *
 * Context: process context (the writer's), sleeps.
 * Return: 0 when the command passed (result status=ok), else a negative
 * errno: -EINVAL for a command the devices cannot run, -EIO for a bad
 * completion status, -EBADMSG for corrupt data, -ETIMEDOUT, -ENODEV when
 * a device went away, -ENOMEM.
 */
int kperf_run_command(struct kperf_params *p, struct seq_buf *out)
{
	struct kperf_run *run = kperf_run_alloc(p, out);
	int ret;

	if (!run)
		return -ENOMEM;
	run->t_start = ktime_get();
	kperf_run_progress(run);
	ret = kperf_run_setup(run);
	if (!ret) {
		kperf_out_info(run);
		kperf_run_progress(run);
		ret = kperf_run_expect(run, kperf_run_body(run));
		/* cm=: ending the connections is part of the command */
		if (!ret)
			ret = kperf_conn_disconnect_all(run);
		ret = kperf_run_gone(run, ret);
	}
	kperf_run_teardown(run);
	kperf_out_result(run, ret);
	kfree(run);
	return ret;
}
