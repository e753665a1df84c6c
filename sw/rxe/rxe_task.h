/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_task.h - one engine of a QP (requester, completer, responder) run
 * on a workqueue, never twice at once. (Placeholder: rxe_task.c's owner
 * fills in the state it needs.)
 */
#ifndef RXE_TASK_H
#define RXE_TASK_H

#include <linux/workqueue.h>

struct rxe_qp;

/**
 * struct rxe_task - a QP engine
 * @work: queued on the driver's workqueue
 * @qp:   the QP the engine belongs to
 * @fn:   one step of the engine: returns 0 when it made progress and wants
 *        to be called again, -EAGAIN when there is nothing more to do
 */
struct rxe_task {
	struct work_struct work;
	struct rxe_qp *qp;
	int (*fn)(struct rxe_qp *qp);
};

void rxe_task_init(struct rxe_task *task, struct rxe_qp *qp,
		   int (*fn)(struct rxe_qp *qp));
void rxe_task_run(struct rxe_task *task);
void rxe_task_sched(struct rxe_task *task);
void rxe_task_stop(struct rxe_task *task);
void rxe_task_start(struct rxe_task *task);
int rxe_task_wq_init(void);
void rxe_task_wq_exit(void);

#endif /* RXE_TASK_H */
