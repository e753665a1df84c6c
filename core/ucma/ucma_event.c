// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: rdma_cm's events turned into the user's rdma_ucm_event_resp
 * and queued on the owning file, new connections made into contexts, the
 * queue drained by GET_EVENT and purged when a context or join goes.
 */

#include <linux/slab.h>
#include <linux/sched.h>
#include <rdma/ib_marshall.h>

#include "ucma/ucma.h"

static void ucma_event_conn_out(struct rdma_ucm_conn_param *u,
				const struct rdma_conn_param *k)
{
	*u = (struct rdma_ucm_conn_param) {
		.qp_num = k->qp_num,
		.srq = k->srq,
		.flow_control = k->flow_control,
		.retry_count = k->retry_count,
		.rnr_retry_count = k->rnr_retry_count,
		.initiator_depth = k->initiator_depth,
		.responder_resources = k->responder_resources,
		.private_data_len = k->private_data_len,
	};
	if (k->private_data_len)
		memcpy(u->private_data, k->private_data, k->private_data_len);
}

static void ucma_event_ud_out(struct ib_device *dev,
			      struct rdma_ucm_ud_param *u,
			      struct rdma_ud_param *k)
{
	u->qp_num = k->qp_num;
	u->qkey = k->qkey;
	ib_copy_ah_attr_to_user(dev, &u->ah_attr, &k->ah_attr);
	u->private_data_len = k->private_data_len;
	if (k->private_data_len)
		memcpy(u->private_data, k->private_data, k->private_data_len);
}

static bool ucma_event_is_mc(enum rdma_cm_event_type type)
{
	return type == RDMA_CM_EVENT_MULTICAST_JOIN ||
	       type == RDMA_CM_EVENT_MULTICAST_ERROR;
}

/* The user's copy of @ev on @ctx's @cm_id, not yet queued. */
static struct ucma_event *ucma_event_make(struct ucma_ctx *ctx,
					  struct rdma_cm_id *cm_id,
					  struct rdma_cm_event *ev)
{
	struct ucma_event *uev = kzalloc(sizeof(*uev), GFP_KERNEL);

	if (!uev)
		return NULL;
	uev->ctx = ctx;
	uev->resp.uid = ctx->uid;
	uev->resp.id = ctx->id;
	if (ucma_event_is_mc(ev->event)) {
		/* the join's context came back as the private data */
		uev->mc = (struct ucma_mc *)ev->param.ud.private_data;
		uev->resp.uid = uev->mc->uid;
		uev->resp.id = uev->mc->id;
	}
	uev->resp.event = ev->event;
	uev->resp.status = ev->status;
	uev->resp.ece.vendor_id = ev->ece.vendor_id;
	uev->resp.ece.attr_mod = ev->ece.attr_mod;
	if (cm_id->qp_type == IB_QPT_UD)
		ucma_event_ud_out(cm_id->device, &uev->resp.param.ud,
				  &ev->param.ud);
	else
		ucma_event_conn_out(&uev->resp.param.conn, &ev->param.conn);
	return uev;
}

static void ucma_event_queue(struct ucma_file *file, struct ucma_event *uev)
{
	lockdep_assert_held(&file->lock);
	list_add_tail(&uev->node, &file->events);
	wake_up_interruptible(&file->wait);
}

/*
 * A request on @listener: a context for the new id, reported with the
 * listener's uid and the new context's number. Counted against the
 * listener's backlog until GET_EVENT reports it. Non-zero makes rdma_cm
 * destroy the new id.
 */
static int ucma_event_new_conn(struct ucma_ctx *listener,
			       struct rdma_cm_id *cm_id,
			       struct rdma_cm_event *ev)
{
	struct ucma_file *file = listener->file;
	struct ucma_event *uev;
	struct ucma_ctx *ctx;

	if (!atomic_add_unless(&listener->backlog, -1, 0))
		return -ENOMEM;
	ctx = ucma_ctx_alloc(file);
	if (!ctx)
		goto err_backlog;
	ucma_ctx_set_id(ctx, cm_id);
	uev = ucma_event_make(listener, cm_id, ev);
	if (!uev)
		goto err_ctx;
	uev->child = ctx;
	uev->resp.id = ctx->id;
	cm_id->context = ctx;

	mutex_lock(&file->lock);
	ucma_ctx_publish(ctx);
	ucma_event_queue(file, uev);
	mutex_unlock(&file->lock);
	return 0;

err_ctx:
	/* rdma_cm destroys the id itself: the context must not */
	ctx->cm_id = NULL;
	refcount_set(&ctx->users, 0);
	ucma_ctx_destroy(ctx);
err_backlog:
	atomic_inc(&listener->backlog);
	return -ENOMEM;
}

/* DEVICE_REMOVAL: close the id from a work item if the user still owns it. */
static void ucma_event_removal(struct ucma_ctx *ctx)
{
	xa_lock(&ucma_ctxs);
	if (xa_load(&ucma_ctxs, ctx->id) == ctx)
		queue_work(system_unbound_wq, &ctx->close_work);
	xa_unlock(&ucma_ctxs);
}

/**
 * ucma_event_handler() - rdma_cm's event handler for user ids
 * @cm_id: the id
 * @ev: the event
 *
 * Queues the event on the file that owns the id and wakes its readers.
 * An id made by a connection request reports nothing until the user has
 * accepted it (its uid is set then); its DEVICE_REMOVAL still closes it.
 *
 * Context: process context, @cm_id's handler lock held by rdma_cm.
 * Return: 0, or non-zero for rdma_cm to destroy a new connection's id.
 */
int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev)
{
	struct ucma_ctx *ctx = cm_id->context;
	struct ucma_event *uev;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return ucma_event_new_conn(ctx, cm_id, ev);
	if (ctx->uid) {
		uev = ucma_event_make(ctx, cm_id, ev);
		if (uev) {
			mutex_lock(&ctx->file->lock);
			ucma_event_queue(ctx->file, uev);
			mutex_unlock(&ctx->file->lock);
		}
	}
	if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
		ucma_event_removal(ctx);
	return 0;
}

/*
 * The first event of @file, waiting for one unless the file is
 * non-blocking; returns with the file's lock held on success.
 */
static struct ucma_event *ucma_event_first(struct ucma_file *file)
{
	for (;;) {
		mutex_lock(&file->lock);
		if (!list_empty(&file->events))
			return list_first_entry(&file->events,
						struct ucma_event, node);
		mutex_unlock(&file->lock);
		if (file->filp->f_flags & O_NONBLOCK)
			return ERR_PTR(-EAGAIN);
		if (wait_event_interruptible(file->wait,
					     !list_empty(&file->events)))
			return ERR_PTR(-ERESTARTSYS);
	}
}

/*
 * @uev reached the user: off the queue, counted for DESTROY_ID and
 * LEAVE_MCAST; a request no longer counts against the backlog.
 */
static void ucma_event_reported(struct ucma_event *uev)
{
	lockdep_assert_held(&uev->ctx->file->lock);
	if (uev->resp.event == RDMA_CM_EVENT_CONNECT_REQUEST)
		atomic_inc(&uev->ctx->backlog);
	uev->ctx->events_reported++;
	if (uev->mc)
		uev->mc->events_reported++;
	list_del(&uev->node);
}

/**
 * ucma_cmd_get_event() - GET_EVENT: hand the oldest event to the user
 * @req: the command (struct rdma_ucm_get_event)
 *
 * Context: process context; sleeps for an event unless O_NONBLOCK.
 * Return: 0; -EAGAIN (non-blocking, queue empty), -ERESTARTSYS, -EFAULT
 * (the event stays queued).
 */
int ucma_cmd_get_event(struct ucma_req *req)
{
	struct rdma_ucm_get_event *cmd = req->cmd;
	struct ucma_file *file = req->file;
	struct ucma_event *uev;

	uev = ucma_event_first(file);
	if (IS_ERR(uev))
		return PTR_ERR(uev);
	if (ucma_respond(req, cmd->response, &uev->resp, sizeof(uev->resp))) {
		mutex_unlock(&file->lock);
		return -EFAULT;
	}
	ucma_event_reported(uev);
	mutex_unlock(&file->lock);
	kfree(uev);
	return 0;
}

/*
 * Claim a queued request's new context for destruction; false when a
 * command already took it (it was reported, or is being destroyed).
 */
static bool ucma_event_claim_child(struct ucma_event *uev)
{
	struct ucma_ctx *child = uev->child;

	return uev->resp.event == RDMA_CM_EVENT_CONNECT_REQUEST &&
	       xa_cmpxchg(&ucma_ctxs, child->id, child, XA_ZERO_ENTRY,
			  GFP_KERNEL) == child;
}

/**
 * ucma_event_purge_ctx() - Drop the unreported events of a closed context
 * @ctx: the context, its id destroyed (no event can come)
 *
 * Takes the context off its file. The new connections of requests it
 * never reported are destroyed too, outside the file's lock.
 *
 * Return: the events the context reported.
 */
int ucma_event_purge_ctx(struct ucma_ctx *ctx)
{
	struct ucma_file *file = ctx->file;
	struct ucma_event *uev, *next;
	LIST_HEAD(children);
	int reported;

	mutex_lock(&file->lock);
	list_for_each_entry_safe(uev, next, &file->events, node) {
		if (uev->ctx != ctx)
			continue;
		if (ucma_event_claim_child(uev)) {
			list_move_tail(&uev->node, &children);
			continue;
		}
		list_del(&uev->node);
		kfree(uev);
	}
	list_del(&ctx->file_node);
	reported = ctx->events_reported;
	mutex_unlock(&file->lock);

	list_for_each_entry_safe(uev, next, &children, node) {
		ucma_ctx_destroy(uev->child);
		kfree(uev);
	}
	return reported;
}

/**
 * ucma_event_purge_mc() - Drop the unreported events of a join
 * @mc: the join, left (rdma_leave_multicast() returned)
 *
 * Holds the id's handler lock so that no event of the join is being
 * queued meanwhile.
 */
void ucma_event_purge_mc(struct ucma_mc *mc)
{
	struct ucma_file *file;
	struct ucma_event *uev, *next;

	rdma_lock_handler(mc->ctx->cm_id);
	file = mc->ctx->file;
	mutex_lock(&file->lock);
	list_for_each_entry_safe(uev, next, &file->events, node) {
		if (uev->mc == mc) {
			list_del(&uev->node);
			kfree(uev);
		}
	}
	mutex_unlock(&file->lock);
	rdma_unlock_handler(mc->ctx->cm_id);
}
