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
 * id; a handler only records what happened (kperf_cm_end.c). No
 * handler returns non-zero except for a REQ kperf did not send, which the
 * CM then rejects and destroys.
 */

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

/**
 * struct kperf_cm - a command's IB CM state
 * @run: the command
 * @listen: the peer side's listening id
 * @service_id: what it listens on
 * @conns: per connection, its two ends
 */
struct kperf_cm {
	struct kperf_run *run;
	struct ib_cm_id *listen;
	__be64 service_id;
	struct kperf_cm_conn *conns;
};

/* Move @e's QP to @state with the attributes the CM gives for it. */
static int kperf_cm_qp_to(struct kperf_run *run, struct ib_cm_id *id,
			  struct kperf_end *e, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask, ret;

	ret = ib_cm_init_qp_attr(id, &attr, &mask);
	if (ret)
		return ret;
	/*
	 * Each end receives from the PSN it names in its own REQ or REP. The
	 * passive end goes to RTR before its REP is sent, when ib_cm does not
	 * know that PSN yet: say it here, as rdma_cm does with its seq_num.
	 */
	if (state == IB_QPS_RTR)
		attr.rq_psn = e->psn;
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

/* Passive: a REQ of ours; RTS, then the REP. */
static int kperf_cm_req_rcvd(struct kperf_cm *cm, struct ib_cm_id *id,
			     const struct ib_cm_event *ev)
{
	struct kperf_run *run = cm->run;
	struct ib_cm_rep_param rep = {
		.responder_resources = kperf_cm_rd_atom(run),
		.initiator_depth = kperf_cm_rd_atom(run),
		.rnr_retry_count = kperf_cm_rnr_retry(run),
		.srq = run->p.srq,
	};
	struct kperf_cm_end *ce;
	struct kperf_end *e;
	unsigned int i;
	int ret;

	if (kperf_cm_priv_index(run, ev->private_data,
				IB_CM_REQ_PRIVATE_DATA_SIZE, &i) ||
	    cm->conns[i].end[1].ib)
		return -EINVAL;	/* not ours: the CM rejects it */
	ce = &cm->conns[i].end[1];
	e = &run->conns[i].end[1];
	id->context = ce;
	ce->ib = id;
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
		kperf_cm_end_fail(ce, ret, "accepting the REQ", NULL, 0);
		ib_send_cm_rej(id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
	}
	return 0;
}

/* Active: the REP; RTR and RTS, then the RTU. */
static void kperf_cm_rep_rcvd(struct kperf_cm_end *ce)
{
	struct kperf_run *run = ce->run;
	struct kperf_end *e = &run->conns[ce->index].end[0];
	int ret;

	ret = kperf_cm_qp_to(run, ce->ib, e, IB_QPS_RTR);
	if (!ret)
		ret = kperf_cm_qp_to(run, ce->ib, e, IB_QPS_RTS);
	if (!ret)
		ret = ib_send_cm_rtu(ce->ib, NULL, 0);
	if (ret) {
		ib_send_cm_rej(ce->ib, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
		kperf_cm_end_fail(ce, ret, "accepting the REP", NULL, 0);
		return;
	}
	kperf_cm_end_set(ce, KPERF_CM_UP);
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
		kperf_cm_end_set(ce, KPERF_CM_UP);
		break;
	case IB_CM_REJ_RECEIVED:
		kperf_cm_end_fail(ce, kperf_cm_fail_err(ev),
				  ibcm_reject_msg(ev->param.rej_rcvd.reason),
				  NULL, ev->param.rej_rcvd.reason);
		break;
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
		kperf_cm_end_fail(ce, kperf_cm_fail_err(ev),
				  ibcm_reject_msg(IB_CM_REJ_TIMEOUT), NULL, 0);
		break;
	case IB_CM_DREQ_RECEIVED:
		ib_send_cm_drep(id, NULL, 0);
		kperf_cm_end_set(ce, KPERF_CM_DOWN);
		break;
	case IB_CM_DREP_RECEIVED:
	case IB_CM_DREQ_ERROR:
		kperf_cm_end_set(ce, KPERF_CM_DOWN);
		break;
	default:	/* MRA, TIMEWAIT_EXIT, ...: nothing to do */
		break;
	}
	return 0;
}

/* The command's IB CM state; the peer side listens. */
static int kperf_cm_listen(struct kperf_run *run)
{
	struct kperf_cm *cm;
	int ret;

	cm = kzalloc(sizeof(*cm), GFP_KERNEL);
	if (!cm)
		return kperf_run_fail(run, -ENOMEM, "no memory for the CM state");
	run->cm = cm;
	cm->run = run;
	cm->conns = kperf_cm_conns_alloc(run);
	if (!cm->conns)
		return kperf_run_fail(run, -ENOMEM, "no memory for the CM state");
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

/* Connection @i through the IB CM: the REQ, then both ends up. */
static int kperf_cm_connect(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm *cm = run->cm;
	struct kperf_cm_end *ce = &cm->conns[i].end[0];
	struct kperf_cm_end *pe = &cm->conns[i].end[1];
	struct kperf_end *e = &run->conns[i].end[0];
	struct kperf_cm_priv priv = { .index = cpu_to_be32(i) };
	struct sa_path_rec path;
	struct ib_cm_req_param req = {
		.primary_path = &path,
		.ppath_sgid_attr = run->side[0].sgid_attr,
		.service_id = cm->service_id,
		.qp_type = run->p.qp_type,
		.private_data = &priv,
		.private_data_len = sizeof(priv),
		.responder_resources = kperf_cm_rd_atom(run),
		.initiator_depth = kperf_cm_rd_atom(run),
		.remote_cm_response_timeout = KPERF_CM_RESPONSE,
		.local_cm_response_timeout = KPERF_CM_RESPONSE,
		.retry_count = KPERF_RETRY_CNT,
		.rnr_retry_count = kperf_cm_rnr_retry(run),
		.max_cm_retries = KPERF_CM_RETRIES,
		.srq = run->p.srq,
	};
	int ret;

	ce->ib = ib_create_cm_id(run->side[0].ibdev, kperf_cm_handler, ce);
	if (IS_ERR(ce->ib)) {
		ret = PTR_ERR(ce->ib);
		ce->ib = NULL;
		return kperf_run_fail(run, ret, "ib_create_cm_id on %s failed",
				      dev_name(&run->side[0].ibdev->dev));
	}
	ret = kperf_conn_init(run, &run->side[0], e);
	if (ret)
		return ret;
	kperf_cm_path(run, &path);
	req.qp_num = e->qp->qp_num;
	req.starting_psn = e->psn;
	ret = ib_send_cm_req(ce->ib, &req);
	if (ret)
		return kperf_run_fail(run, ret, "ib_send_cm_req failed");
	ret = kperf_cm_end_wait(ce, KPERF_CM_IDLE, KPERF_CM_WAIT_MS);
	if (ret || kperf_cm_end_state(ce) != KPERF_CM_UP)
		return kperf_run_fail(run, ret ?: ce->err ?: -ECONNRESET,
				      "connection %u: REQ side: %s (REJ reason %d)",
				      i, ce->what ?: "no answer", ce->status);
	ret = kperf_cm_end_wait(pe, KPERF_CM_IDLE, KPERF_CM_WAIT_MS);
	if (ret || kperf_cm_end_state(pe) != KPERF_CM_UP)
		return kperf_run_fail(run, ret ?: pe->err ?: -ECONNRESET,
				      "connection %u: REP side %s", i,
				      pe->what ?: "got no RTU");
	return 0;
}

/* Disconnect connection @i from the dev side; both ends must see it. */
static int kperf_cm_disconnect_one(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_end *ce = &run->cm->conns[i].end[0];
	struct kperf_cm_end *pe = &run->cm->conns[i].end[1];
	int ret;

	if (kperf_cm_end_state(ce) != KPERF_CM_UP ||
	    kperf_cm_end_state(pe) != KPERF_CM_UP)
		return 0;
	ret = ib_send_cm_dreq(ce->ib, NULL, 0);
	if (ret)
		return kperf_run_fail(run, ret, "connection %u: DREQ not sent", i);
	ret = kperf_cm_end_wait(ce, KPERF_CM_UP, KPERF_CM_WAIT_MS);
	if (!ret)
		ret = kperf_cm_end_wait(pe, KPERF_CM_UP, KPERF_CM_WAIT_MS);
	if (ret || kperf_cm_end_state(ce) != KPERF_CM_DOWN ||
	    kperf_cm_end_state(pe) != KPERF_CM_DOWN)
		return kperf_run_fail(run, ret ?: -ECONNRESET,
				      "connection %u: disconnect not seen on both ends", i);
	return 0;
}

/* Every connection that came up ends with DREQ and DREP. */
static int kperf_cm_disconnect(struct kperf_run *run)
{
	unsigned int i;
	int ret, first = 0;

	if (!run->cm || !run->cm->conns)
		return 0;
	for (i = 0; i < run->p.qps; i++) {
		ret = kperf_cm_disconnect_one(run, i);
		first = first ?: ret;
	}
	return first;
}

/*
 * Connections still up are disconnected first; then every id is
 * destroyed, which ends what was still in progress.
 */
static void kperf_cm_stop(struct kperf_run *run)
{
	struct kperf_cm *cm = run->cm;
	unsigned int i;
	int d;

	if (!cm)
		return;
	if (cm->conns) {
		kperf_cm_disconnect(run);
		for (i = 0; i < run->p.qps; i++)
			for (d = 1; d >= 0; d--)
				if (cm->conns[i].end[d].ib)
					ib_destroy_cm_id(cm->conns[i].end[d].ib);
	}
	if (cm->listen)
		ib_destroy_cm_id(cm->listen);
	kfree(cm->conns);
	kfree(cm);
	run->cm = NULL;
}

/* cm=ib: kperf creates the QPs, the IB CM moves them on. */
const struct kperf_cm_ops kperf_cm_ib = {
	.listen = kperf_cm_listen,
	.connect = kperf_cm_connect,
	.disconnect = kperf_cm_disconnect,
	.stop = kperf_cm_stop,
};
