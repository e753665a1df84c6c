// SPDX-License-Identifier: GPL-2.0-only
/* Completion queues: ib_alloc_cq() and its pollers, and the raw CQ verbs. */

#include <linux/dim.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/irq_poll.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "cq/cq.h"
#include "restrack/restrack.h"

/* ---- Tunables ------------------------------------------------------------ */

/* Completions fetched per poll_cq call by the softirq and work pollers. */
#define CQ_BATCH		16
/* The same for ib_process_cq_direct(), whose buffer lives on the stack. */
#define CQ_BATCH_DIRECT		8
/* Completions one softirq run may handle (the irq_poll weight). */
#define CQ_BUDGET_SOFTIRQ	256
/* Completions one work item run handles before it requeues itself. */
#define CQ_BUDGET_WORK		65536
/* How the pollers re-arm: next completion, and tell us if one slipped by. */
#define CQ_REARM_FLAGS		(IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS)

/* ---- Adaptive moderation (lib/dim) --------------------------------------- */

#define CQ_DIM_STEP(us, n)	{ .usec = (us), .comps = (n) }

/*
 * The moderation settings DIM walks through, lightest first: an event
 * after @comps completions or @usec microseconds, whichever comes first.
 */
static const struct dim_cq_moder cq_dim_steps[RDMA_DIM_PARAMS_NUM_PROFILES] = {
	CQ_DIM_STEP(1, 1),   CQ_DIM_STEP(1, 4),   CQ_DIM_STEP(2, 4),
	CQ_DIM_STEP(2, 8),   CQ_DIM_STEP(4, 8),   CQ_DIM_STEP(16, 8),
	CQ_DIM_STEP(16, 16), CQ_DIM_STEP(32, 16), CQ_DIM_STEP(32, 32),
};

/* DIM picked a new step: hand its settings to the driver. */
static void cq_dim_apply(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	const struct dim_cq_moder *step = &cq_dim_steps[dim->profile_ix];
	struct ib_cq *cq = dim->priv;

	dim->state = DIM_START_MEASURE;
	cq->device->ops.modify_cq(cq, step->comps, step->usec);
}

/*
 * Give @cq adaptive moderation if its device asks for it and can change
 * moderation. Optional: without memory the CQ just runs unmoderated.
 */
static void cq_dim_init(struct ib_cq *cq)
{
	struct ib_device *dev = cq->device;
	struct dim *dim;

	if (!dev->use_cq_dim || !dev->ops.modify_cq ||
	    cq->poll_ctx == IB_POLL_DIRECT)
		return;

	dim = kzalloc(sizeof(*dim), GFP_KERNEL);
	if (!dim)
		return;
	dim->state = DIM_START_MEASURE;
	dim->tune_state = DIM_GOING_RIGHT;
	dim->profile_ix = RDMA_DIM_START_PROFILE;
	dim->priv = cq;
	INIT_WORK(&dim->work, cq_dim_apply);
	cq->dim = dim;
}

static void cq_dim_destroy(struct ib_cq *cq)
{
	if (!cq->dim)
		return;
	cancel_work_sync(&cq->dim->work);
	kfree(cq->dim);
	cq->dim = NULL;
}

/* ---- Reaping completions ------------------------------------------------- */

/*
 * Hand each polled completion to the ULP that posted its work request.
 * Only a flushed request may come back without a wr_cqe.
 */
static void cq_dispatch(struct ib_cq *cq, struct ib_wc *wcs, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (wcs[i].wr_cqe)
			wcs[i].wr_cqe->done(cq, &wcs[i]);
		else
			WARN_ON_ONCE(wcs[i].status == IB_WC_SUCCESS);
	}
}

/*
 * Poll @cq in batches of @batch into @wcs and dispatch, until the CQ runs
 * dry or @budget completions were handled. A budget of -1 means no limit,
 * which the unsigned min() below turns into "always a full batch".
 * Returns the number handled.
 */
static int cq_reap(struct ib_cq *cq, int budget, struct ib_wc *wcs, int batch)
{
	bool bounded = budget != -1;
	int handled = 0;
	int n;

	do {
		n = ib_poll_cq(cq, min_t(u32, batch, budget - handled), wcs);
		if (n <= 0)
			break;
		cq_dispatch(cq, wcs, n);
		handled += n;
		/* a short batch means the CQ is empty */
	} while (n == batch && !(bounded && handled >= budget));
	return handled;
}

/**
 * ib_process_cq_direct() - handle a CQ's completions in the caller's context
 * @cq: the CQ, normally allocated with IB_POLL_DIRECT
 * @budget: most completions to handle, or -1 for no limit
 *
 * Polls @cq and calls each completion's wr_cqe->done() right here. The CQ
 * is not re-armed. On a CQ with another poll context this races with the
 * core's own poller. Pass -1 only when few completions can be pending.
 *
 * Context: any context the ULP's done() callbacks accept; takes no locks.
 * Return: the number of completions handled.
 */
int ib_process_cq_direct(struct ib_cq *cq, int budget)
{
	struct ib_wc wcs[CQ_BATCH_DIRECT];

	return cq_reap(cq, budget, wcs, CQ_BATCH_DIRECT);
}
EXPORT_SYMBOL(ib_process_cq_direct);

/* ---- Pollers, one per poll context --------------------------------------- */

/* irq_poll callback: runs in softirq context with the irq_poll weight. */
static int cq_softirq_poll(struct irq_poll *iop, int budget)
{
	struct ib_cq *cq = container_of(iop, struct ib_cq, iop);
	int handled = cq_reap(cq, budget, cq->wc, CQ_BATCH);

	/* a full budget leaves us scheduled: irq_poll calls again */
	if (handled < budget) {
		irq_poll_complete(&cq->iop);
		if (ib_req_notify_cq(cq, CQ_REARM_FLAGS) > 0)
			irq_poll_sched(&cq->iop);
	}
	if (cq->dim)
		rdma_dim(cq->dim, handled);
	return handled;
}

static void cq_softirq_event(struct ib_cq *cq, void *private)
{
	irq_poll_sched(&cq->iop);
}

static void cq_softirq_start(struct ib_cq *cq)
{
	irq_poll_init(&cq->iop, CQ_BUDGET_SOFTIRQ, cq_softirq_poll);
}

static void cq_softirq_stop(struct ib_cq *cq)
{
	irq_poll_disable(&cq->iop);
	/*
	 * irq_poll_disable() may return as soon as the handler called
	 * irq_poll_complete(), while it is still re-arming the CQ. Softirq
	 * handlers are RCU read-side sections, so a grace period waits
	 * until it has really left.
	 */
	synchronize_rcu();
}

/* Work item of the workqueue poll contexts. */
static void cq_work_poll(struct work_struct *work)
{
	struct ib_cq *cq = container_of(work, struct ib_cq, work);
	int handled = cq_reap(cq, CQ_BUDGET_WORK, cq->wc, CQ_BATCH);

	if (handled >= CQ_BUDGET_WORK ||
	    ib_req_notify_cq(cq, CQ_REARM_FLAGS) > 0)
		queue_work(cq->comp_wq, &cq->work);
	else if (cq->dim)
		rdma_dim(cq->dim, handled);
}

static void cq_work_event(struct ib_cq *cq, void *private)
{
	queue_work(cq->comp_wq, &cq->work);
}

static void cq_work_start(struct ib_cq *cq)
{
	INIT_WORK(&cq->work, cq_work_poll);
}

static void cq_work_stop(struct ib_cq *cq)
{
	cancel_work_sync(&cq->work);
}

/* Direct CQs are never armed, so a completion event is a driver bug. */
static void cq_direct_event(struct ib_cq *cq, void *private)
{
	WARN_ONCE(1, "unexpected completion event on direct CQ %p\n", cq);
}

/**
 * struct cq_poller - how CQs of one poll context get their completions
 * @event: becomes cq->comp_handler, what the driver calls on an event
 * @start: set up the poller after the driver created the CQ (optional)
 * @stop: make sure the poller is idle and stays so (optional)
 * @wq: the workqueue of the work pollers, NULL for the others
 * @arm: whether the CQ is armed at creation (all but direct CQs)
 */
struct cq_poller {
	ib_comp_handler event;
	void (*start)(struct ib_cq *cq);
	void (*stop)(struct ib_cq *cq);
	struct workqueue_struct **wq;
	bool arm;
};

static const struct cq_poller cq_pollers[] = {
	[IB_POLL_SOFTIRQ] = {
		.event = cq_softirq_event, .start = cq_softirq_start,
		.stop = cq_softirq_stop, .arm = true,
	},
	[IB_POLL_WORKQUEUE] = {
		.event = cq_work_event, .start = cq_work_start,
		.stop = cq_work_stop, .wq = &ib_comp_wq, .arm = true,
	},
	[IB_POLL_UNBOUND_WORKQUEUE] = {
		.event = cq_work_event, .start = cq_work_start,
		.stop = cq_work_stop, .wq = &ib_comp_unbound_wq, .arm = true,
	},
	[IB_POLL_DIRECT] = { .event = cq_direct_event },
};

/* The poller of @ctx, NULL if @ctx is no poll context. */
static const struct cq_poller *cq_poller_get(enum ib_poll_context ctx)
{
	if ((unsigned int)ctx >= ARRAY_SIZE(cq_pollers) ||
	    !cq_pollers[ctx].event)
		return NULL;
	return &cq_pollers[ctx];
}

/* Connect @cq to its poller and arm it; the driver's CQ exists already. */
static void cq_poller_start(struct ib_cq *cq, const struct cq_poller *p)
{
	if (p->wq)
		cq->comp_wq = *p->wq;
	if (p->start)
		p->start(cq);
	cq->comp_handler = p->event;
	if (p->arm)
		ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
}

static void cq_poller_stop(struct ib_cq *cq)
{
	const struct cq_poller *p = cq_poller_get(cq->poll_ctx);

	if (WARN_ON_ONCE(!p))
		return;
	if (p->stop)
		p->stop(cq);
}

/* ---- Creating a CQ at the driver; raw CQs -------------------------------- */

/*
 * What every CQ goes through once its core fields are set: track it as
 * @caller's (NULL: the current task's, for a user CQ) and have the driver
 * create it, with @udata for a user CQ. Returns @cq, or an ERR_PTR() after
 * freeing it. The caller publishes a created CQ with rdma_restrack_add()
 * once it is ready for use.
 */
static struct ib_cq *cq_driver_create(struct ib_cq *cq,
				      const struct ib_cq_init_attr *attr,
				      const char *caller,
				      struct ib_udata *udata)
{
	int err;

	rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&cq->res, caller);
	err = cq->device->ops.create_cq(cq, attr, udata);
	if (!err)
		return cq;
	rdma_restrack_put(&cq->res);
	kfree(cq);
	return ERR_PTR(err);
}

/**
 * __ib_create_cq() - create a CQ with the caller's own event handlers
 * @device: the device
 * @comp_handler: called by the driver on a completion event of an armed CQ
 * @event_handler: called on asynchronous CQ events (errors), may be NULL
 * @cq_context: passed to both handlers
 * @cq_attr: size, completion vector and flags for the driver
 * @caller: the owning module's name (see ib_create_cq())
 *
 * The caller polls with ib_poll_cq() and arms with ib_req_notify_cq();
 * cq->cqe holds the size the driver actually gave. Most kernel users want
 * ib_alloc_cq() instead. Free with ib_destroy_cq().
 *
 * Context: process context, may sleep.
 * Return: as ib_create_cq_udata().
 */
struct ib_cq *__ib_create_cq(struct ib_device *device,
			     ib_comp_handler comp_handler,
			     void (*event_handler)(struct ib_event *, void *),
			     void *cq_context,
			     const struct ib_cq_init_attr *cq_attr,
			     const char *caller)
{
	return ib_create_cq_udata(device, comp_handler, event_handler,
				  cq_context, cq_attr, caller, NULL);
}
EXPORT_SYMBOL(__ib_create_cq);

/**
 * ib_create_cq_udata() - create a raw CQ for a kernel caller or user space
 * @device: the device
 * @comp_handler: called by the driver on a completion event of an armed CQ
 * @event_handler: called on asynchronous CQ events (errors), may be NULL
 * @cq_context: passed to both handlers
 * @cq_attr: size, completion vector and flags for the driver
 * @caller: the owning module's name; NULL for a user CQ (owned by the
 *	    current task)
 * @udata: the driver's command and response of a user CQ; NULL for a
 *	   kernel CQ
 *
 * The one path by which a CQ the caller polls itself is made: the kernel's
 * ib_create_cq() and ib_uverbs' CREATE_CQ both come here. The CQ is
 * allocated at the driver's size, filled, created by the driver and added
 * to resource tracking; cq->cqe holds the size the driver gave. The caller
 * sets cq->uobject of a user CQ itself afterwards; the handlers must not
 * need it (they get @cq_context). Free with ib_destroy_cq_user().
 *
 * Context: process context, may sleep.
 * Return: the CQ, or ERR_PTR() of -ENOMEM, -EOPNOTSUPP if the device
 * cannot create CQs, or the driver's error.
 */
struct ib_cq *ib_create_cq_udata(struct ib_device *device,
				 ib_comp_handler comp_handler,
				 void (*event_handler)(struct ib_event *, void *),
				 void *cq_context,
				 const struct ib_cq_init_attr *cq_attr,
				 const char *caller, struct ib_udata *udata)
{
	struct ib_cq *cq;

	if (!device->ops.create_cq || !device->ops.destroy_cq)
		return ERR_PTR(-EOPNOTSUPP);

	cq = rdma_zalloc_drv_obj(device, ib_cq);
	if (!cq)
		return ERR_PTR(-ENOMEM);
	/* no poller and no wc buffer: the caller polls */
	*cq = (struct ib_cq) {
		.device = device, .cq_context = cq_context,
		.comp_handler = comp_handler, .event_handler = event_handler,
	};
	cq = cq_driver_create(cq, cq_attr, caller, udata);
	if (!IS_ERR(cq))
		rdma_restrack_add(&cq->res);
	return cq;
}
EXPORT_SYMBOL(ib_create_cq_udata);

/**
 * ib_wc_to_uverbs() - a completion in the layout user space polls
 * @uwc: where to write struct ib_uverbs_wc
 * @wc: the completion
 *
 * The one conversion from struct ib_wc to struct ib_uverbs_wc: ib_uverbs'
 * POLL_CQ answers with it and a software driver's user CQ ring holds it.
 * A completion without a QP reports qp_num 0; the LID is narrowed to the
 * 16 bits of the user layout.
 *
 * Context: any.
 */
void ib_wc_to_uverbs(struct ib_uverbs_wc *uwc, const struct ib_wc *wc)
{
	*uwc = (struct ib_uverbs_wc) {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.ex.imm_data = wc->ex.imm_data,
		.qp_num = wc->qp ? wc->qp->qp_num : 0,
		.src_qp = wc->src_qp,
		.wc_flags = wc->wc_flags,
		.pkey_index = wc->pkey_index,
		.slid = ib_lid_cpu16(wc->slid),
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
}
EXPORT_SYMBOL(ib_wc_to_uverbs);

/* ---- Core-managed CQs ---------------------------------------------------- */

/* The verbs a device needs for ib_alloc_cq() CQs. */
static bool cq_verbs_present(const struct ib_device *dev)
{
	return dev->ops.create_cq && dev->ops.destroy_cq &&
	       dev->ops.poll_cq && dev->ops.req_notify_cq;
}

/**
 * __ib_alloc_cq() - allocate a CQ that the core polls for its user
 * @dev: the device
 * @private: the user's pointer, stored in cq->cq_context
 * @nr_cqe: how many completions the CQ must hold
 * @comp_vector: the device's completion vector (interrupt) to use
 * @poll_ctx: where completions are handled: softirq, a workqueue, or the
 *	user's own calls to ib_process_cq_direct() for IB_POLL_DIRECT
 * @caller: the owning module's name (see ib_alloc_cq())
 *
 * Work requests posted to queues on this CQ must carry a struct ib_cqe in
 * wr_cqe, not a wr_id: the core calls wr_cqe->done() for each completion.
 * Free the CQ with ib_free_cq().
 *
 * Context: process context, may sleep.
 * Return: the CQ, or ERR_PTR() of -ENOMEM, -EINVAL for an unknown
 * @poll_ctx, -EOPNOTSUPP if @dev lacks the CQ verbs, or the driver's error.
 */
struct ib_cq *__ib_alloc_cq(struct ib_device *dev, void *private, int nr_cqe,
			    int comp_vector, enum ib_poll_context poll_ctx,
			    const char *caller)
{
	const struct ib_cq_init_attr attr = {
		.cqe = nr_cqe,
		.comp_vector = comp_vector,
	};
	const struct cq_poller *poller = cq_poller_get(poll_ctx);
	struct ib_wc *wcs;
	struct ib_cq *cq;

	if (!poller)
		return ERR_PTR(-EINVAL);
	if (!cq_verbs_present(dev))
		return ERR_PTR(-EOPNOTSUPP);

	/* the CQ and the buffer its poller reaps into live and die together */
	cq = rdma_zalloc_drv_obj(dev, ib_cq);
	wcs = kmalloc_array(CQ_BATCH, sizeof(*wcs), GFP_KERNEL);
	if (!cq || !wcs) {
		kfree(wcs);
		kfree(cq);
		return ERR_PTR(-ENOMEM);
	}
	*cq = (struct ib_cq) {
		.device = dev, .cq_context = private, .wc = wcs,
		.poll_ctx = poll_ctx, .comp_vector = comp_vector,
	};
	cq = cq_driver_create(cq, &attr, caller, NULL);
	if (IS_ERR(cq)) {
		kfree(wcs);
		return cq;
	}

	/* the driver's CQ exists: only now may completions be reaped */
	cq_dim_init(cq);
	cq_poller_start(cq, poller);
	rdma_restrack_add(&cq->res);
	return cq;
}
EXPORT_SYMBOL(__ib_alloc_cq);

/**
 * __ib_alloc_cq_any() - allocate a CQ on a completion vector of the core's choice
 * @dev: the device
 * @private: the user's pointer, stored in cq->cq_context
 * @nr_cqe: how many completions the CQ must hold
 * @poll_ctx: where completions are handled, as for __ib_alloc_cq()
 * @caller: the owning module's name (see ib_alloc_cq_any())
 *
 * Successive calls go round the device's vectors (at most one per online
 * CPU), so that CQs of many users spread their interrupts.
 *
 * Context: process context, may sleep.
 * Return: as __ib_alloc_cq().
 */
struct ib_cq *__ib_alloc_cq_any(struct ib_device *dev, void *private,
				int nr_cqe, enum ib_poll_context poll_ctx,
				const char *caller)
{
	static atomic_t next_vector;
	int vector = 0;
	int spread;

	if (dev->num_comp_vectors > 1) {
		/* more vectors than CPUs would leave some CPUs doubly loaded */
		spread = min_t(int, dev->num_comp_vectors, num_online_cpus());
		vector = atomic_inc_return(&next_vector) % spread;
	}
	return __ib_alloc_cq(dev, private, nr_cqe, vector, poll_ctx, caller);
}
EXPORT_SYMBOL(__ib_alloc_cq_any);

/**
 * ib_free_cq() - free a CQ from ib_alloc_cq()
 * @cq: the CQ; no QP or WQ may still use it and, for a pool CQ, no user
 *	may hold entries in it
 *
 * Stops the poller (waiting for a running one to finish), then has the
 * driver destroy the CQ. A CQ still in use triggers a warning and is left
 * alone.
 *
 * Context: process context, may sleep; the caller must not hold locks the
 * ULP's done() callbacks take.
 */
void ib_free_cq(struct ib_cq *cq)
{
	struct ib_device *dev = cq->device;
	int err = 0;

	if (WARN_ON_ONCE(atomic_read(&cq->usecnt)))
		return;
	if (WARN_ON_ONCE(cq->cqe_used))
		return;

	rdma_restrack_del(&cq->res);
	/* a two-step driver first stops completions arriving */
	if (dev->ops.pre_destroy_cq) {
		err = dev->ops.pre_destroy_cq(cq);
		WARN_ONCE(err, "failed to disable kernel CQ: %d\n", err);
	}
	cq_poller_stop(cq);
	cq_dim_destroy(cq);
	if (dev->ops.post_destroy_cq)
		dev->ops.post_destroy_cq(cq);
	else
		err = dev->ops.destroy_cq(cq, NULL);
	WARN_ONCE(err, "failed to destroy kernel CQ: %d\n", err);
	kfree(cq->wc);
	kfree(cq);
}
EXPORT_SYMBOL(ib_free_cq);

/* ---- Raw CQs: destruction and tuning ------------------------------------ */

/**
 * ib_destroy_cq_user() - destroy a CQ from ib_create_cq() or user space
 * @cq: the CQ
 * @udata: the user's data for a user CQ, NULL for a kernel one
 *
 * Context: process context, may sleep.
 * Return: 0 when freed; -EBUSY if a QP, WQ or SRQ still uses the CQ;
 * -EOPNOTSUPP (with a warning) for a CQ of the shared pool; or the
 * driver's error, in which case the CQ still exists.
 */
int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata)
{
	struct ib_device *dev = cq->device;
	int err;

	if (WARN_ON_ONCE(cq->shared))
		return -EOPNOTSUPP;
	if (atomic_read(&cq->usecnt))
		return -EBUSY;

	rdma_restrack_begin_del(&cq->res);
	err = dev->ops.destroy_cq(cq, udata);
	if (!err) {
		rdma_restrack_commit_del(&cq->res);
		kfree(cq);
	} else {
		/* the CQ stays: it becomes visible again */
		rdma_restrack_abort_del(&cq->res);
	}
	return err;
}
EXPORT_SYMBOL(ib_destroy_cq_user);

/**
 * ib_resize_cq() - change how many completions a CQ holds
 * @cq: the CQ, not one of the shared pool
 * @cqe: the new minimum size; the driver may round it up
 *
 * Context: process context, may sleep.
 * Return: 0 or the driver's error; -EOPNOTSUPP for a pool CQ or when the
 * driver cannot resize.
 */
int ib_resize_cq(struct ib_cq *cq, int cqe)
{
	if (cq->shared || !cq->device->ops.resize_cq)
		return -EOPNOTSUPP;
	return cq->device->ops.resize_cq(cq, cqe, NULL);
}
EXPORT_SYMBOL(ib_resize_cq);

/**
 * rdma_set_cq_moderation() - set a CQ's interrupt moderation
 * @cq: the CQ, not one of the shared pool
 * @cq_count: completions to gather before an event
 * @cq_period: microseconds to wait at most before an event
 *
 * Context: process context, may sleep.
 * Return: 0 or the driver's error; -EOPNOTSUPP for a pool CQ or when the
 * driver has no moderation.
 */
int rdma_set_cq_moderation(struct ib_cq *cq, u16 cq_count, u16 cq_period)
{
	if (cq->shared || !cq->device->ops.modify_cq)
		return -EOPNOTSUPP;
	return cq->device->ops.modify_cq(cq, cq_count, cq_period);
}
EXPORT_SYMBOL(rdma_set_cq_moderation);
