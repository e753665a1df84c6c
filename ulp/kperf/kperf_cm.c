// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf cm=ib: connections made by the IB CM (REQ, REP, RTU) and ended by it (DREQ, DREP). */
/*
 * The peer side listens on one service ID; the dev side sends one REQ per
 * connection, its index in the private data. Both sides take their QP
 * attributes from ib_cm_init_qp_attr(), as rdma_cm does: the passive side
 * goes to RTS before it sends the REP, the active side on the REP, before
 * the RTU. The QP's local ACK timeout stays kperf's own (ack_timeout=).
 *
 * The CM calls the handlers from its workqueue, one event at a time per
 * id; a handler only records what happened and completes the waiter. No
 * handler returns non-zero except for a REQ kperf did not send, which the
 * CM then rejects and destroys.
 */

#include <linux/completion.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_sa.h>
#include "kperf.h"

/* "KPERF" in ASCII, low bytes free; a private service ID of ours. */
#define KPERF_CM_SERVICE_ID	0x00004b5045524600ULL
/* 4.096 us * 2^16 = 268 ms: path lifetime and CM response times. */
#define KPERF_CM_LIFETIME	16
#define KPERF_CM_RESPONSE	16
#define KPERF_CM_RETRIES	8
/* Only a bug in a CM leaves a waiter without an event for this long. */
#define KPERF_CM_WAIT_MS	30000

/* Where one end of a connection is in the CM exchange. */
enum kperf_cm_state {
	KPERF_CM_IDLE,
	KPERF_CM_UP,		/* RTU sent (dev) or received (peer) */
	KPERF_CM_DOWN,		/* DREP received, or DREQ answered */
	KPERF_CM_FAILED,
};

/**
 * struct kperf_cm_end - the CM's view of one end of a connection
 * @cm: the command's CM state
 * @index: the connection's index
 * @id: its cm_id (the peer's comes with the REQ); NULL before
 * @state: how far it got
 * @err: why it failed (KPERF_CM_FAILED)
 * @what: the event that made it fail
 * @rej_reason: the reason of a REJ received, else 0
 * @done: completed at every change of @state
 */
struct kperf_cm_end {
	struct kperf_cm *cm;
	unsigned int index;
	struct ib_cm_id *id;
	enum kperf_cm_state state;
	int err;
	const char *what;
	int rej_reason;
	struct completion done;
};

/**
 * struct kperf_cm - a command's IB CM state
 * @run: the command
 * @listen: the peer side's listening id
 * @service_id: what it listens on
 * @ends: per connection, [0] the dev side, [1] the peer side
 */
struct kperf_cm {
	struct kperf_run *run;
	struct ib_cm_id *listen;
	__be64 service_id;
	struct kperf_cm_end (*ends)[2];
};

static void kperf_cm_set(struct kperf_cm_end *ce, enum kperf_cm_state state,
			 int err, const char *what)
{
	ce->state = state;
	ce->err = err;
	ce->what = what;
	complete(&ce->done);
}

/* Move @e's QP to @state with the attributes the CM gives for it. */
static int kperf_cm_qp_to(struct kperf_run *run, struct ib_cm_id *id,
			  struct kperf_end *e, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask, ret;

	ret = ib_cm_init_qp_attr(id, &attr, &mask);
	if (ret)
		return ret;
	if (state == IB_QPS_RTS && run->p.qp_type == IB_QPT_RC)
		attr.timeout = run->p.ack_timeout;
	return ib_modify_qp(e->qp, &attr, mask);
}

/* The path from the dev side to the peer side, as rdma_cm builds for RoCE. */
static void kperf_cm_path(struct kperf_run *run, struct sa_path_rec *path)
{
	struct kperf_side *s = &run->side[0], *ps = &run->side[1];

	memset(path, 0, sizeof(*path));
	path->rec_type = s->sgid_attr ?
		sa_conv_gid_to_pathrec_type(s->sgid_attr->gid_type) :
		SA_PATH_REC_TYPE_IB;
	if (s->sgid_attr)
		path->sgid = s->sgid_attr->gid;
	if (ps->sgid_attr)
		path->dgid = ps->sgid_attr->gid;
	if (path->rec_type == SA_PATH_REC_TYPE_IB) {
		sa_path_set_slid(path, s->lid);
		sa_path_set_dlid(path, ps->lid);
	} else {
		path->hop_limit = 64;
		sa_path_set_dmac(path, ps->mac);
		path->roce.route_resolved = true;
	}
	path->reversible = 1;
	path->numb_path = 1;
	path->pkey = cpu_to_be16(IB_DEFAULT_PKEY_FULL);
	path->mtu_selector = IB_SA_EQ;
	path->mtu = run->p.mtu;
	path->rate_selector = IB_SA_EQ;
	path->rate = IB_RATE_10_GBPS;
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = KPERF_CM_LIFETIME;
	path->service_id = cpu_to_be64(KPERF_CM_SERVICE_ID);
}

static u8 kperf_cm_rd_atom(struct kperf_run *run)
{
	return min3(run->side[0].ibdev->attrs.max_qp_rd_atom,
		    run->side[1].ibdev->attrs.max_qp_rd_atom, 16);
}

/* Passive: a REQ of ours; RTS, then the REP. */
static int kperf_cm_req_rcvd(struct kperf_cm *cm, struct ib_cm_id *id,
			     const struct ib_cm_event *ev)
{
	struct kperf_run *run = cm->run;
	struct ib_cm_rep_param rep = {
		.responder_resources = kperf_cm_rd_atom(run),
		.initiator_depth = kperf_cm_rd_atom(run),
		.rnr_retry_count = run->p.fault == KPERF_FAULT_NO_RECV ? 0 : 7,
		.srq = run->p.srq,
	};
	struct kperf_cm_end *ce;
	struct kperf_end *e;
	u32 i;
	int ret;

	if (!ev->private_data)
		return -EINVAL;
	i = be32_to_cpup(ev->private_data);
	if (i >= run->p.qps || cm->ends[i][1].id)
		return -EINVAL;	/* not ours: the CM rejects it */
	ce = &cm->ends[i][1];
	e = &run->conns[i].end[1];
	id->context = ce;
	ce->id = id;
	ret = kperf_conn_init(run, &run->side[1], e);
	if (!ret)
		ret = kperf_cm_qp_to(run, id, e, IB_QPS_RTR);
	if (!ret)
		ret = kperf_cm_qp_to(run, id, e, IB_QPS_RTS);
	if (!ret) {
		rep.qp_num = e->qp->qp_num;
		rep.starting_psn = e->psn;
		ret = ib_send_cm_rep(id, &rep);
	}
	if (ret) {
		kperf_cm_set(ce, KPERF_CM_FAILED, ret, "accepting the REQ");
		ib_send_cm_rej(id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
	}
	return 0;
}

/* Active: the REP; RTR and RTS, then the RTU. */
static void kperf_cm_rep_rcvd(struct kperf_cm_end *ce)
{
	struct kperf_run *run = ce->cm->run;
	struct kperf_end *e = &run->conns[ce->index].end[0];
	int ret;

	ret = kperf_cm_qp_to(run, ce->id, e, IB_QPS_RTR);
	if (!ret)
		ret = kperf_cm_qp_to(run, ce->id, e, IB_QPS_RTS);
	if (!ret)
		ret = ib_send_cm_rtu(ce->id, NULL, 0);
	if (ret) {
		ib_send_cm_rej(ce->id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
		kperf_cm_set(ce, KPERF_CM_FAILED, ret, "accepting the REP");
		return;
	}
	kperf_cm_set(ce, KPERF_CM_UP, 0, NULL);
}

/* The CM's word on @ce's REQ or REP: what failed, as an errno. */
static int kperf_cm_fail_err(const struct ib_cm_event *ev)
{
	switch (ev->event) {
	case IB_CM_REJ_RECEIVED:
		return -ECONNREFUSED;
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
		return -ETIMEDOUT;
	default:
		return -ECONNRESET;
	}
}

static int kperf_cm_handler(struct ib_cm_id *id, const struct ib_cm_event *ev)
{
	struct kperf_cm_end *ce = id->context;

	/* A new id: its context is still the listener's, the command's. */
	if (ev->event == IB_CM_REQ_RECEIVED)
		return kperf_cm_req_rcvd(id->context, id, ev);
	switch (ev->event) {
	case IB_CM_REP_RECEIVED:
		kperf_cm_rep_rcvd(ce);
		break;
	case IB_CM_RTU_RECEIVED:
	case IB_CM_USER_ESTABLISHED:
		kperf_cm_set(ce, KPERF_CM_UP, 0, NULL);
		break;
	case IB_CM_REJ_RECEIVED:
		ce->rej_reason = ev->param.rej_rcvd.reason;
		kperf_cm_set(ce, KPERF_CM_FAILED, kperf_cm_fail_err(ev),
			     ibcm_reject_msg(ce->rej_reason));
		break;
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
		kperf_cm_set(ce, KPERF_CM_FAILED, kperf_cm_fail_err(ev),
			     ibcm_reject_msg(IB_CM_REJ_TIMEOUT));
		break;
	case IB_CM_DREQ_RECEIVED:
		ib_send_cm_drep(id, NULL, 0);
		kperf_cm_set(ce, KPERF_CM_DOWN, 0, NULL);
		break;
	case IB_CM_DREP_RECEIVED:
	case IB_CM_DREQ_ERROR:
		kperf_cm_set(ce, KPERF_CM_DOWN, 0, NULL);
		break;
	default:	/* MRA, TIMEWAIT_EXIT, ...: nothing to do */
		break;
	}
	return 0;
}

/* Wait for @ce to leave @from; its state then. */
static enum kperf_cm_state kperf_cm_wait(struct kperf_cm_end *ce,
					 enum kperf_cm_state from)
{
	unsigned long end = jiffies + msecs_to_jiffies(KPERF_CM_WAIT_MS);

	while (READ_ONCE(ce->state) == from) {
		long left = end - jiffies;

		if (left <= 0 ||
		    !wait_for_completion_timeout(&ce->done, left))
			break;
	}
	return READ_ONCE(ce->state);
}

/**
 * kperf_cm_listen() - make the command's IB CM state; the peer side listens
 * @run: the command; both sides open, run->conns allocated
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno (the reason is in @run).
 */
int kperf_cm_listen(struct kperf_run *run)
{
	struct kperf_cm *cm;
	unsigned int i;
	int d, ret;

	cm = kzalloc(sizeof(*cm), GFP_KERNEL);
	if (!cm)
		return kperf_run_fail(run, -ENOMEM, "no memory for the CM state");
	run->cm = cm;
	cm->run = run;
	cm->ends = kcalloc(run->p.qps, sizeof(*cm->ends), GFP_KERNEL);
	if (!cm->ends)
		return kperf_run_fail(run, -ENOMEM, "no memory for the CM state");
	for (i = 0; i < run->p.qps; i++) {
		for (d = 0; d < 2; d++) {
			cm->ends[i][d].cm = cm;
			cm->ends[i][d].index = i;
			init_completion(&cm->ends[i][d].done);
		}
	}
	cm->service_id = cpu_to_be64(KPERF_CM_SERVICE_ID);
	cm->listen = ib_create_cm_id(run->side[1].ibdev, kperf_cm_handler, cm);
	if (IS_ERR(cm->listen)) {
		ret = PTR_ERR(cm->listen);
		cm->listen = NULL;
		return kperf_run_fail(run, ret, "ib_create_cm_id on %s failed",
				      dev_name(&run->side[1].ibdev->dev));
	}
	ret = ib_cm_listen(cm->listen, cm->service_id);
	if (ret)
		return kperf_run_fail(run, ret, "ib_cm_listen on %s failed",
				      dev_name(&run->side[1].ibdev->dev));
	return 0;
}

/**
 * kperf_cm_connect() - connect connection @i through the IB CM
 * @run: the command, after kperf_cm_listen(); the connection's QPs exist
 * @i: the connection
 *
 * Context: process context, sleeps until both ends are connected or one
 * failed.
 * Return: 0 or a negative errno (the reason is in @run).
 */
int kperf_cm_connect(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm *cm = run->cm;
	struct kperf_cm_end *ce = &cm->ends[i][0], *pe = &cm->ends[i][1];
	struct kperf_end *e = &run->conns[i].end[0];
	__be32 index = cpu_to_be32(i);
	struct sa_path_rec path;
	struct ib_cm_req_param req = {
		.primary_path = &path,
		.ppath_sgid_attr = run->side[0].sgid_attr,
		.service_id = cm->service_id,
		.qp_type = run->p.qp_type,
		.private_data = &index,
		.private_data_len = sizeof(index),
		.responder_resources = kperf_cm_rd_atom(run),
		.initiator_depth = kperf_cm_rd_atom(run),
		.remote_cm_response_timeout = KPERF_CM_RESPONSE,
		.local_cm_response_timeout = KPERF_CM_RESPONSE,
		.retry_count = 7,
		.rnr_retry_count = run->p.fault == KPERF_FAULT_NO_RECV ? 0 : 7,
		.max_cm_retries = KPERF_CM_RETRIES,
		.srq = run->p.srq,
	};
	int ret;

	ce->id = ib_create_cm_id(run->side[0].ibdev, kperf_cm_handler, ce);
	if (IS_ERR(ce->id)) {
		ret = PTR_ERR(ce->id);
		ce->id = NULL;
		return kperf_run_fail(run, ret, "ib_create_cm_id on %s failed",
				      dev_name(&run->side[0].ibdev->dev));
	}
	ret = kperf_conn_init(run, &run->side[0], e);
	if (ret)
		return ret;
	kperf_cm_path(run, &path);
	req.qp_num = e->qp->qp_num;
	req.starting_psn = e->psn;
	ret = ib_send_cm_req(ce->id, &req);
	if (ret)
		return kperf_run_fail(run, ret, "ib_send_cm_req failed");
	if (kperf_cm_wait(ce, KPERF_CM_IDLE) != KPERF_CM_UP)
		return kperf_run_fail(run, ce->err ?: -ETIMEDOUT,
				      "connection %u: REQ side: %s (REJ reason %d)",
				      i, ce->what ?: "no answer",
				      ce->rej_reason);
	if (kperf_cm_wait(pe, KPERF_CM_IDLE) != KPERF_CM_UP)
		return kperf_run_fail(run, pe->err ?: -ETIMEDOUT,
				      "connection %u: REP side %s", i,
				      pe->what ?: "got no RTU");
	return 0;
}

/* Disconnect connection @i from the dev side; both ends must see it. */
static int kperf_cm_disconnect(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_end *ce = &run->cm->ends[i][0];
	struct kperf_cm_end *pe = &run->cm->ends[i][1];
	int ret;

	if (ce->state != KPERF_CM_UP || pe->state != KPERF_CM_UP)
		return 0;
	ret = ib_send_cm_dreq(ce->id, NULL, 0);
	if (ret)
		return kperf_run_fail(run, ret, "connection %u: DREQ not sent", i);
	if (kperf_cm_wait(ce, KPERF_CM_UP) != KPERF_CM_DOWN ||
	    kperf_cm_wait(pe, KPERF_CM_UP) != KPERF_CM_DOWN)
		return kperf_run_fail(run, -ETIMEDOUT,
				      "connection %u: disconnect not seen on both ends", i);
	return 0;
}

/**
 * kperf_cm_stop() - disconnect every connection, free the command's CM state
 * @run: the command; run->cm may be NULL or half made
 *
 * Connections that came up are disconnected with a DREQ, whose DREP and
 * DREQ events both ends must see (a failure is the command's failure);
 * then every id is destroyed, which ends what was still in progress.
 *
 * Context: process context, sleeps.
 */
void kperf_cm_stop(struct kperf_run *run)
{
	struct kperf_cm *cm = run->cm;
	unsigned int i;
	int d;

	if (!cm)
		return;
	if (cm->ends) {
		for (i = 0; i < run->p.qps; i++)
			kperf_cm_disconnect(run, i);
		for (i = 0; i < run->p.qps; i++)
			for (d = 1; d >= 0; d--)
				if (cm->ends[i][d].id)
					ib_destroy_cm_id(cm->ends[i][d].id);
	}
	if (cm->listen)
		ib_destroy_cm_id(cm->listen);
	kfree(cm->ends);
	kfree(cm);
	run->cm = NULL;
}

/**
 * kperf_cm_check() - the rules of cm=
 * @p: a parsed command
 *
 * Return: what is wrong with @p, or NULL.
 */
const char *kperf_cm_check(const struct kperf_params *p)
{
	if (p->cm == KPERF_CM_NONE)
		return NULL;
	if (p->qp_type != IB_QPT_RC && p->qp_type != IB_QPT_UC)
		return "cm=ib connects qp=rc or qp=uc";
	if (p->mcast)
		return "cm=ib does not go with mcast=1";
	return NULL;
}
