/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_task.h - one engine of a QP (requester, completer, responder) run
 * on the driver's workqueue or inline by whoever kicks it, never twice at
 * once.
 */
#ifndef RXE_TASK_H
#define RXE_TASK_H

#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

struct rxe_qp;

/*
 * enum rxe_task_state - where an engine is
 * @RXE_TASK_IDLE:    not running, not queued; a kick starts it
 * @RXE_TASK_BUSY:    running somewhere or queued on the workqueue
 * @RXE_TASK_ARMED:   busy, and kicked again meanwhile: loop once more
 * @RXE_TASK_STOPPED: kicks are ignored until rxe_task_start()
 */
enum rxe_task_state {
	RXE_TASK_IDLE,
	RXE_TASK_BUSY,
	RXE_TASK_ARMED,
	RXE_TASK_STOPPED,
};

/**
 * struct rxe_task - a QP engine
 * @work:     queued on the driver's workqueue
 * @qp:       the QP the engine belongs to
 * @fn:       one step of the engine: returns 0 when it made progress and
 *            wants to be called again, -EAGAIN when there is nothing more
 *            to do (any other error is treated like -EAGAIN)
 * @lock:     protects @state and @stopping
 * @state:    enum rxe_task_state
 * @stopping: rxe_task_stop() waits for the runner to leave
 * @waitq:    rxe_task_stop() sleeps here
 */
struct rxe_task {
	struct work_struct work;
	struct rxe_qp *qp;
	int (*fn)(struct rxe_qp *qp);
	spinlock_t lock;	/* @state, @stopping */
	int state;
	bool stopping;
	wait_queue_head_t waitq;
};

void rxe_task_init(struct rxe_task *task, struct rxe_qp *qp,
		   int (*fn)(struct rxe_qp *qp));
void rxe_task_run(struct rxe_task *task);
void rxe_task_sched(struct rxe_task *task);
void rxe_task_stop(struct rxe_task *task);
void rxe_task_start(struct rxe_task *task);
bool rxe_task_stopped(struct rxe_task *task);
int rxe_task_wq_init(void);
void rxe_task_wq_exit(void);

#endif /* RXE_TASK_H */
