// SPDX-License-Identifier: GPL-2.0-only
/* Draining a QP: wait until every work request posted to it has completed. */
/*
 * The generic drain moves the QP to the error state, so the device flushes
 * whatever is outstanding, then posts one more (marker) request and waits
 * for its completion: completions come in order, so when the marker's
 * arrives everything posted before it has been handed to the ULP. The QP's
 * CQs must come from ib_alloc_cq(), because the marker completes through
 * its wr_cqe. A driver with drain ops of its own does it its own way.
 */

#include <linux/completion.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <rdma/ib_verbs.h>

/* How often a drain on an IB_POLL_DIRECT CQ polls it while waiting. */
#define DRAIN_DIRECT_POLL	(HZ / 10)

/**
 * struct drain_marker - the last work request of a drain
 * @cqe: its completion entry, whose done() signals @done
 * @done: completed when the marker's completion was reaped
 */
struct drain_marker {
	struct ib_cqe cqe;
	struct completion done;
};

/* The marker's completion was reaped: the drain may end. */
static void drain_marker_done(struct ib_cq *cq, struct ib_wc *wc)
{
	complete(&container_of(wc->wr_cqe, struct drain_marker, cqe)->done);
}

static void drain_marker_init(struct drain_marker *m)
{
	m->cqe.done = drain_marker_done;
	init_completion(&m->done);
}

/*
 * Wait for the marker. Nobody else polls a direct CQ, so the drain reaps
 * it itself until the marker shows up.
 */
static void drain_marker_wait(struct drain_marker *m, struct ib_cq *cq)
{
	if (cq->poll_ctx != IB_POLL_DIRECT) {
		wait_for_completion(&m->done);
		return;
	}
	while (!wait_for_completion_timeout(&m->done, DRAIN_DIRECT_POLL))
		ib_process_cq_direct(cq, -1);
}

/* Flush the QP: outstanding requests complete with IB_WC_WR_FLUSH_ERR. */
static int drain_to_error(struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	return ib_modify_qp(qp, &attr, IB_QP_STATE);
}

static void drain_sq_generic(struct ib_qp *qp)
{
	struct drain_marker m;
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &m.cqe,
			.opcode = IB_WR_RDMA_WRITE,
		},
	};
	int err;

	err = drain_to_error(qp);
	if (WARN_ONCE(err, "failed to drain send queue: %d\n", err))
		return;
	drain_marker_init(&m);
	err = ib_post_send(qp, &wr.wr, NULL);
	if (WARN_ONCE(err, "failed to drain send queue: %d\n", err))
		return;
	drain_marker_wait(&m, qp->send_cq);
}

static void drain_rq_generic(struct ib_qp *qp)
{
	struct drain_marker m;
	struct ib_recv_wr wr = { .wr_cqe = &m.cqe };
	int err;

	err = drain_to_error(qp);
	if (WARN_ONCE(err, "failed to drain recv queue: %d\n", err))
		return;
	drain_marker_init(&m);
	err = ib_post_recv(qp, &wr, NULL);
	if (WARN_ONCE(err, "failed to drain recv queue: %d\n", err))
		return;
	drain_marker_wait(&m, qp->recv_cq);
}

/**
 * ib_drain_sq() - wait until the send queue's completions were all consumed
 * @qp: the QP; moved to the error state unless the driver drains by itself
 *
 * The caller must have allocated the send CQ with ib_alloc_cq(), leave
 * room in the send queue and CQ for one more request, and post nothing
 * meanwhile; otherwise the drain may not see everything.
 *
 * Context: process context, may sleep; must not hold anything the CQ's
 * done() callbacks take.
 */
void ib_drain_sq(struct ib_qp *qp)
{
	if (qp->device->ops.drain_sq)
		qp->device->ops.drain_sq(qp);
	else
		drain_sq_generic(qp);
}
EXPORT_SYMBOL(ib_drain_sq);

/**
 * ib_drain_rq() - wait until the receive queue's completions were all consumed
 * @qp: the QP; moved to the error state unless the driver drains by itself
 *
 * As ib_drain_sq(), for the receive queue and its CQ.
 *
 * Context: process context, may sleep; must not hold anything the CQ's
 * done() callbacks take.
 */
void ib_drain_rq(struct ib_qp *qp)
{
	if (qp->device->ops.drain_rq)
		qp->device->ops.drain_rq(qp);
	else
		drain_rq_generic(qp);
}
EXPORT_SYMBOL(ib_drain_rq);

/**
 * ib_drain_qp() - drain both queues of a QP
 * @qp: the QP; its receive queue is left alone if it uses an SRQ
 *
 * The conditions of ib_drain_sq() apply to both queues.
 *
 * Context: process context, may sleep.
 */
void ib_drain_qp(struct ib_qp *qp)
{
	ib_drain_sq(qp);
	if (!qp->srq)
		ib_drain_rq(qp);
}
EXPORT_SYMBOL(ib_drain_qp);
