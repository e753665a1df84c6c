// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: what cm=ib and cm=rdma share: the ends of their connections, waits, private data. */
/*
 * A CM's event handlers run in its own context; they only record where an
 * end got to (kperf_cm_end_set(), kperf_cm_end_fail()) and wake the
 * command, which waits in its own process context and turns a failure
 * into the command's reason.
 */

#include <linux/jiffies.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "kperf.h"

/* How often a waiter looks for a device going away or a fatal signal. */
#define KPERF_CM_POLL_MS	100

/**
 * kperf_cm_conns_alloc() - the CM's view of every connection of a command
 * @run: the command
 *
 * Context: process context, sleeps.
 * Return: @run's qps= pairs of ends, IDLE, without ids; NULL when out of
 * memory. kfree() them.
 */
struct kperf_cm_conn *kperf_cm_conns_alloc(struct kperf_run *run)
{
	struct kperf_cm_conn *conns;
	struct kperf_cm_end *ce;
	unsigned int i;
	int d;

	conns = kcalloc(run->p.qps, sizeof(*conns), GFP_KERNEL);
	if (!conns)
		return NULL;
	for (i = 0; i < run->p.qps; i++) {
		for (d = 0; d < 2; d++) {
			ce = &conns[i].end[d];
			ce->run = run;
			ce->index = i;
			init_completion(&ce->done);
		}
	}
	return conns;
}

/**
 * kperf_cm_end_set() - an end got to @state
 * @ce: the end
 * @state: where it is now
 *
 * Context: any; a CM's event handler, typically.
 */
void kperf_cm_end_set(struct kperf_cm_end *ce, enum kperf_cm_state state)
{
	/* pairs with kperf_cm_end_state(): the failure's fields come first */
	smp_store_release(&ce->state, state);
	complete(&ce->done);
}

/**
 * kperf_cm_end_fail() - an end failed
 * @ce: the end
 * @err: why, a negative errno
 * @what: the event or step that failed, a string that outlives the command
 * @detail: more about it (a reject reason's name), or NULL
 * @status: the reject reason, the event's status or the step's errno
 *
 * Context: any; a CM's event handler, typically.
 */
void kperf_cm_end_fail(struct kperf_cm_end *ce, int err, const char *what,
		       const char *detail, int status)
{
	ce->err = err;
	ce->what = what;
	ce->detail = detail;
	ce->status = status;
	kperf_cm_end_set(ce, KPERF_CM_FAILED);
}

/**
 * kperf_cm_end_why() - fail a command with the reason an end failed
 * @run: the command
 * @ce: the end
 * @err: the errno of @step
 * @who: what failed, as the result line names it ("udaddy to <addr>")
 * @step: what the command was doing
 *
 * The reason is the event that failed @ce when it heard one, else @step
 * (timed out or failed with @err).
 *
 * Return: @ce's errno when it heard an event that failed it, else @err.
 */
int kperf_cm_end_why(struct kperf_run *run, const struct kperf_cm_end *ce,
		     int err, const char *who, const char *step)
{
	if (kperf_cm_end_state(ce) == KPERF_CM_FAILED)
		return kperf_run_fail(run, ce->err, "%s: %s%s%s (status %d)",
				      who, ce->what, ce->detail ? ": " : "",
				      ce->detail ?: "", ce->status);
	if (err == -ETIMEDOUT)
		return kperf_run_fail(run, err, "%s: %s: no event in %u ms",
				      who, step, run->p.timeout_ms);
	return kperf_run_fail(run, err, "%s: %s failed (%d)", who, step, err);
}

/**
 * kperf_cm_end_state() - where an end is
 * @ce: the end
 *
 * Once this reads KPERF_CM_FAILED, the failure's fields are there too.
 *
 * Return: its state.
 */
enum kperf_cm_state kperf_cm_end_state(const struct kperf_cm_end *ce)
{
	/* pairs with kperf_cm_end_set() */
	return smp_load_acquire(&ce->state);
}

/*
 * One sleep of a waiter on @ce that gives up at @end (jiffies): 0 to look
 * again, else why to stop.
 */
static int kperf_cm_end_sleep(struct kperf_cm_end *ce, unsigned long end)
{
	long left;
	int ret;

	ret = kperf_run_check(ce->run);
	if (ret)
		return ret;
	left = end - jiffies;
	if (left <= 0)
		return -ETIMEDOUT;
	wait_for_completion_timeout(&ce->done,
				    min_t(long, left,
					  msecs_to_jiffies(KPERF_CM_POLL_MS)));
	return 0;
}

/**
 * kperf_cm_end_wait() - wait for an end to leave a state
 * @ce: the end
 * @from: the state it is expected to leave
 * @ms: how long to wait at most: KPERF_CM_WAIT_MS (only a bug in a CM
 *	leaves a waiter without an event for that long), or a command's
 *	own timeout
 *
 * Context: the command's process context, sleeps.
 * Return: 0 when @ce left @from (kperf_cm_end_state() says where to);
 * -ETIMEDOUT when it did not within @ms; -ENODEV or -EINTR when a device
 * is going away or a fatal signal is pending (the reason is in the run).
 */
int kperf_cm_end_wait(struct kperf_cm_end *ce, enum kperf_cm_state from,
		      unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	int ret = 0;

	while (!ret && kperf_cm_end_state(ce) == from)
		ret = kperf_cm_end_sleep(ce, end);
	return ret;
}

/**
 * kperf_cm_end_wait_timewait() - wait for an end's TIMEWAIT_EXIT
 * @ce: the end, disconnected (DOWN)
 * @ms: how long to wait at most
 *
 * Context: the command's process context, sleeps.
 * Return: 0 once @ce->timewait_over is set; -ETIMEDOUT when it was not
 * within @ms; -ENODEV or -EINTR as kperf_cm_end_wait().
 */
int kperf_cm_end_wait_timewait(struct kperf_cm_end *ce, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	int ret = 0;

	/* pairs with the store in kperf_rdma_cm_event() */
	while (!ret && !smp_load_acquire(&ce->timewait_over))
		ret = kperf_cm_end_sleep(ce, end);
	return ret;
}

/**
 * kperf_cm_end_wait_removal() - wait for an end's DEVICE_REMOVAL
 * @ce: the end, whose id is on a device going away
 * @end: when to give up (jiffies)
 *
 * The device's removal waits for the command, which has released the
 * device (kperf_hold.c): this wait does not look at the command's
 * devices, only at a fatal signal.
 *
 * Context: the command's process context, sleeps.
 * Return: whether @ce->removed was set in time.
 */
bool kperf_cm_end_wait_removal(struct kperf_cm_end *ce, unsigned long end)
{
	long left;

	/* pairs with the store in kperf_rdma_cm_event() */
	while (!smp_load_acquire(&ce->removed)) {
		left = end - jiffies;
		if (left <= 0 || fatal_signal_pending(current))
			return false;
		wait_for_completion_timeout(&ce->done,
					    min_t(long, left,
						  msecs_to_jiffies(KPERF_CM_POLL_MS)));
	}
	return true;
}

/**
 * kperf_cm_end_reset() - an end starts over (cycles=)
 * @ce: the end; its id is destroyed, no handler can reach it
 */
void kperf_cm_end_reset(struct kperf_cm_end *ce)
{
	ce->state = KPERF_CM_IDLE;
	ce->err = 0;
	ce->what = NULL;
	ce->detail = NULL;
	ce->status = 0;
	ce->timewait_over = false;
	ce->removed = false;
	reinit_completion(&ce->done);
}

/**
 * kperf_cm_priv_index() - the connection a request's private data names
 * @run: the command
 * @data: the request's private data, or NULL
 * @len: its length
 * @i: set to the connection's index
 *
 * Return: 0, or -EINVAL when @data does not name one of @run's
 * connections (not a request of this command).
 */
int kperf_cm_priv_index(struct kperf_run *run, const void *data,
			unsigned int len, unsigned int *i)
{
	const struct kperf_cm_priv *priv = data;

	if (!priv || len < sizeof(*priv))
		return -EINVAL;
	*i = be32_to_cpu(priv->index);
	return *i < run->p.qps ? 0 : -EINVAL;
}

/**
 * kperf_cm_rd_atom() - the RDMA READ and atomic depth both ends ask for
 * @run: the command
 *
 * As many as kperf's own connections allow, and both devices.
 *
 * Return: the responder resources and initiator depth of a connection.
 */
u8 kperf_cm_rd_atom(struct kperf_run *run)
{
	return min3(run->side[0].ibdev->attrs.max_qp_rd_atom,
		    run->side[1].ibdev->attrs.max_qp_rd_atom,
		    KPERF_MAX_RD_ATOMIC);
}

/**
 * kperf_cm_rnr_retry() - the RNR retry count both ends ask for
 * @run: the command
 *
 * Return: infinite, except none for fault=no_recv (its first RNR NAK
 * must fail the operation).
 */
u8 kperf_cm_rnr_retry(struct kperf_run *run)
{
	return run->p.fault == KPERF_FAULT_NO_RECV ? 0 : KPERF_RNR_INFINITE;
}

/**
 * kperf_cm_check() - the rules of cm=
 * @p: a parsed command
 *
 * Return: what is wrong with @p, or NULL.
 */
const char *kperf_cm_check(const struct kperf_params *p)
{
	bool ib = p->cm == KPERF_CM_IB;

	if (p->cm == KPERF_CM_NONE)
		return NULL;
	if (ib && p->qp_type != IB_QPT_RC && p->qp_type != IB_QPT_UC)
		return "cm=ib connects qp=rc or qp=uc";
	if (p->mcast && ib)
		return "cm=ib does not go with mcast=1";
	return NULL;
}
