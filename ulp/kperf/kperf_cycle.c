// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf cm=rdma cycles=: connections made, verified, ended and destroyed, over and over. */
/*
 * Each cycle connects the command's qps= connections through rdma_cm
 * (address, route, REQ, REP, RTU), runs iters= verified ping rounds over
 * them, disconnects them (DREQ, DREP) and destroys their QPs and ids; the
 * listener, the PDs, CQs and buffers stay for the whole command. The first
 * cycle's connections are the command's setup, the last one's disconnect
 * is its usual end. What a ULP that reconnects all day does to rdma_cm,
 * ib_cm and the MAD layer: every lost id, timewait, MAD or reference
 * shows after a thousand cycles.
 */

#include <linux/sched.h>
#include "kperf.h"

/* The connections of the last cycle end; the next cycle's are made. */
static int kperf_cycle_again(struct kperf_run *run)
{
	const struct kperf_cm_ops *cm = run->cm_ops;
	unsigned int i;
	int ret;

	ret = kperf_conn_disconnect_all(run);
	for (i = 0; i < run->p.qps && !ret; i++) {
		cm->recycle(run, i);
		ret = cm->connect(run, i);
	}
	return ret;
}

/**
 * kperf_cycle_run() - the body of a cycles= command
 * @run: the command, its first cycle's connections made
 *
 * Counts the cycles done in @run->cycles_done; @run->cycles_ns and the
 * result's usec cover the whole command up to the last cycle's pings,
 * its cpu_usec the writer's CPU time over the cycles (the first one's
 * connect excepted).
 *
 * Context: process context, sleeps.
 * Return: 0, or the first failure (the reason is in @run).
 */
int kperf_cycle_run(struct kperf_run *run)
{
	u64 cpu0 = current->se.sum_exec_runtime;
	u32 c;
	int ret = 0;

	if (!run->cm_ops || !run->cm_ops->recycle)
		return kperf_run_fail(run, -EINVAL,
				      "cycles= needs a CM that can make a connection again");
	for (c = 0; c < run->p.cycles && !ret; c++) {
		if (c)
			ret = kperf_cycle_again(run);
		if (!ret)
			ret = kperf_ping_run(run);
		if (!ret)
			run->cycles_done++;
	}
	run->cycles_ns = ktime_to_ns(ktime_sub(ktime_get(), run->t_start));
	run->res.ns = run->cycles_ns;
	run->res.cpu_ns = current->se.sum_exec_runtime - cpu0;
	return ret;
}
