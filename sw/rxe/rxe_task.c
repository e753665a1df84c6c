// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_task.c - runs the engines of QPs (requester, completer, responder):
 * inline in the context that kicks them when they are idle, otherwise on
 * one driver-wide workqueue, never two runs of one engine at once.
 *
 * Each engine is a tiny state machine (enum rxe_task_state) under its own
 * spinlock. A kick (rxe_task_run/rxe_task_sched) either claims an idle
 * engine (IDLE -> BUSY) or tells the current runner to go round once more
 * (BUSY -> ARMED). The runner calls the engine's step function until it
 * reports -EAGAIN, then leaves (BUSY -> IDLE) or loops again when it was
 * armed meanwhile (ARMED -> BUSY). After RXE_TASK_MAX_STEPS steps it
 * requeues itself on the workqueue instead, staying BUSY, so one busy QP
 * cannot hold a CPU (or a softirq) for long.
 */
#include <linux/interrupt.h>
#include "rxe_qp.h"

/* Steps one run may take before it yields the CPU. */
#define RXE_TASK_MAX_STEPS	64
/*
 * Fewer when the run is inline in the network's receive softirq: what an
 * engine sends from there (READ responses, a go-back-N resend) waits in
 * the backlog until the softirq ends, so a long run there delays the
 * peer's view of every packet by the whole run; on the workqueue each
 * packet is delivered as it is sent.
 */
#define RXE_TASK_SOFTIRQ_STEPS	8

/*
 * A per-CPU (bound) queue: a run queued from CPU n runs on CPU n, and a
 * run that yields requeues itself there. What one engine sends therefore
 * enters one CPU's receive backlog, a FIFO, and reaches the peer in PSN
 * order; an unbound queue moved runs between CPUs whose backlogs drain
 * independently, so a READ response stream arrived reordered and every
 * reordering cost the requester a go-back-N. Engines of different QPs
 * still spread over the CPUs that kick them (posting threads, receive
 * softirqs). WQ_MEM_RECLAIM: storage ULPs (iSER, NVMe-oF, NFS/RDMA) send
 * through us while the kernel reclaims memory, so the queue needs its
 * rescuer to guarantee progress. WQ_HIGHPRI: the process that waits for a
 * queued run is often a user program busy-polling its CQ or its buffer on
 * the very CPU the run was queued on (perftest, MPI, SPDK), and a
 * normal-priority worker that ran recently does not preempt it: the run
 * waited for the end of the poller's time slice, a tick, and userspace
 * ib_write_lat on one device averaged 1450 us for a typical 12 us. The
 * workers of the high-priority pool get the CPU at once; runs are short
 * and bounded (RXE_TASK_MAX_STEPS), as softirq work would be, which is
 * where the inbox driver runs the same engines.
 */
static struct workqueue_struct *rxe_wq;

/* Leave the engine: true when it was kicked meanwhile and must go on. */
static bool rxe_task_leave(struct rxe_task *task)
{
	unsigned long flags;
	bool again = false;

	spin_lock_irqsave(&task->lock, flags);
	if (task->state == RXE_TASK_ARMED && !task->stopping) {
		task->state = RXE_TASK_BUSY;
		again = true;
	} else {
		task->state = RXE_TASK_IDLE;
		/* Woken under the lock: the waiter cannot free us early. */
		if (task->stopping)
			wake_up(&task->waitq);
	}
	spin_unlock_irqrestore(&task->lock, flags);
	return again;
}

/* Run steps until the engine has nothing to do or has had its share. */
static void rxe_task_loop(struct rxe_task *task)
{
	unsigned int steps = 0;
	unsigned int max = in_serving_softirq() ? RXE_TASK_SOFTIRQ_STEPS :
						  RXE_TASK_MAX_STEPS;

	for (;;) {
		/*
		 * Unlocked peek at a flag set under task->lock; rxe_task_leave()
		 * rechecks it under the lock.
		 */
		if (READ_ONCE(task->stopping)) {
			rxe_task_leave(task);
			return;
		}
		if (task->fn(task->qp) == 0) {
			if (++steps < max)
				continue;
			/* Still BUSY (or ARMED): the work item goes on. */
			queue_work(rxe_wq, &task->work);
			return;
		}
		if (!rxe_task_leave(task))
			return;
	}
}

static void rxe_task_work(struct work_struct *work)
{
	rxe_task_loop(container_of(work, struct rxe_task, work));
}

/* Claim an idle engine (true: the caller runs it) or arm a busy one. */
static bool rxe_task_claim(struct rxe_task *task)
{
	unsigned long flags;
	bool claimed = false;

	spin_lock_irqsave(&task->lock, flags);
	if (task->stopping) {
		/* rxe_task_stop() is waiting: do not start anything. */
	} else if (task->state == RXE_TASK_IDLE) {
		task->state = RXE_TASK_BUSY;
		claimed = true;
	} else if (task->state == RXE_TASK_BUSY) {
		task->state = RXE_TASK_ARMED;
	}
	spin_unlock_irqrestore(&task->lock, flags);
	return claimed;
}

/**
 * rxe_task_init() - prepare an engine, initially stopped
 * @task: the engine
 * @qp:   its QP, passed to @fn
 * @fn:   one step; 0 = progress, call again; -EAGAIN = nothing to do
 *
 * The engine ignores kicks until rxe_task_start().
 */
void rxe_task_init(struct rxe_task *task, struct rxe_qp *qp,
		   int (*fn)(struct rxe_qp *qp))
{
	INIT_WORK(&task->work, rxe_task_work);
	task->qp = qp;
	task->fn = fn;
	spin_lock_init(&task->lock);
	task->state = RXE_TASK_STOPPED;
	task->stopping = false;
	init_waitqueue_head(&task->waitq);
}

/**
 * rxe_task_run() - run an engine now, in the caller's context
 * @task: the engine
 *
 * When the engine is idle it runs here (at most RXE_TASK_MAX_STEPS steps,
 * then it continues on the workqueue); when it is running elsewhere it is
 * told to go round once more. With interrupts disabled the run is queued
 * instead. Context: any; the steps must not sleep.
 */
void rxe_task_run(struct rxe_task *task)
{
	if (in_hardirq() || irqs_disabled()) {
		rxe_task_sched(task);
		return;
	}
	if (rxe_task_claim(task))
		rxe_task_loop(task);
}

/**
 * rxe_task_sched() - make sure an engine runs soon, on the workqueue
 * @task: the engine
 *
 * Context: any.
 */
void rxe_task_sched(struct rxe_task *task)
{
	if (rxe_task_claim(task))
		queue_work(rxe_wq, &task->work);
}

static bool rxe_task_quiet(struct rxe_task *task)
{
	unsigned long flags;
	bool quiet;

	spin_lock_irqsave(&task->lock, flags);
	quiet = task->state == RXE_TASK_IDLE ||
		task->state == RXE_TASK_STOPPED;
	spin_unlock_irqrestore(&task->lock, flags);
	return quiet;
}

/**
 * rxe_task_stop() - wait until an engine is not running and keep it so
 * @task: the engine
 *
 * A run in progress finishes its current step; kicks are ignored from now
 * on until rxe_task_start(). Context: process; sleeps. Not from the
 * engine's own step function.
 */
void rxe_task_stop(struct rxe_task *task)
{
	might_sleep();
	spin_lock_irq(&task->lock);
	task->stopping = true;
	spin_unlock_irq(&task->lock);

	wait_event(task->waitq, rxe_task_quiet(task));

	spin_lock_irq(&task->lock);
	task->state = RXE_TASK_STOPPED;
	task->stopping = false;
	spin_unlock_irq(&task->lock);
}

/**
 * rxe_task_start() - let a stopped engine run again, and run it once
 * @task: the engine
 *
 * The engine is scheduled once, so that kicks it missed while stopped
 * take effect. Context: any.
 */
void rxe_task_start(struct rxe_task *task)
{
	unsigned long flags;

	spin_lock_irqsave(&task->lock, flags);
	if (task->state == RXE_TASK_STOPPED)
		task->state = RXE_TASK_IDLE;
	spin_unlock_irqrestore(&task->lock, flags);
	rxe_task_sched(task);
}

/**
 * rxe_task_stopped() - whether an engine is stopped or being stopped
 * @task: the engine
 *
 * A hint for producers that may drop work for a dying QP. Context: any.
 *
 * Return: true when kicks are ignored now.
 */
bool rxe_task_stopped(struct rxe_task *task)
{
	return READ_ONCE(task->state) == RXE_TASK_STOPPED ||
	       READ_ONCE(task->stopping);
}

/**
 * rxe_task_wq_init() - create the engines' workqueue (module init)
 *
 * Return: 0 or -ENOMEM.
 */
int rxe_task_wq_init(void)
{
	rxe_wq = alloc_workqueue("rxe_wq", WQ_MEM_RECLAIM | WQ_HIGHPRI, 0);
	return rxe_wq ? 0 : -ENOMEM;
}

/**
 * rxe_task_wq_exit() - destroy the engines' workqueue (module exit)
 *
 * Every QP is gone by then; anything still queued is drained first.
 */
void rxe_task_wq_exit(void)
{
	destroy_workqueue(rxe_wq);
	rxe_wq = NULL;
}
