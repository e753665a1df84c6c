// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf cm=rdma abort=: a connection's ids destroyed where its setup or its teardown stands. */
/*
 * A ULP may destroy an rdma_cm id at any moment, and each moment leaves
 * rdma_cm and the IB CM something else to undo: an address query, a route
 * work item, a REQ waiting for its REP, a REP handed up and not yet
 * answered, a live connection, a DREQ waiting for its DREP, a timewait.
 * abort= takes each connection of the command to one of these points,
 * destroys the dev side's QP and id there, checks what the peer side's id
 * hears of it, and destroys that one too:
 *
 *   addr         rdma_resolve_addr() called, no result waited for
 *   route        address resolved, rdma_resolve_route() called
 *   connect      REQ sent; the peer side holds the CONNECT_REQUEST without
 *                accepting: it must hear REJECTED (the IB CM's REJ)
 *   rep          the dev side's id has no QP of rdma_cm's (a QP of
 *                kperf's own, its number in the REQ), so rdma_cm hands the
 *                REP up as CONNECT_RESPONSE and sends no RTU: the peer
 *                side, REP sent, must hear REJECTED
 *   established  both ends connected: the peer side must hear DISCONNECTED
 *   disconnect   DREQ sent and taken by the peer side, no DREP yet: the
 *                peer side's rdma_disconnect() answers an id that is gone
 *   timewait     DREQ and DREP done: both ids in their timewait
 *
 * abort_first=peer destroys the peer side's id first instead (from
 * connect on): the dev side's must hear REJECTED (a held request, a REP
 * sent) or DISCONNECTED (connected; DREQ sent, the destroy's DREP).
 *
 * With hold=1 the connections stay parked there instead, for a device to
 * go away under them (kperf_hold.c).
 *
 * Nothing of this is supposed to leak or to hold a module: the tests check
 * kmemleak, rdma res and module unload afterwards.
 */

#include <rdma/rdma_cm.h>
#include "kperf.h"

/*
 * How long resolving may take: as cm=rdma's own connections; with hold=1
 * the command's timeout_ms, so that a query to a silent neighbour is
 * still in flight when a device goes away under it.
 */
#define KPERF_ABORT_RESOLVE_MS	2000

static unsigned int kperf_abort_resolve_ms(struct kperf_run *run)
{
	return run->p.hold ? run->p.timeout_ms : KPERF_ABORT_RESOLVE_MS;
}

static const char *const kperf_abort_names[KPERF_ABORT_COUNT] = {
	[KPERF_ABORT_NONE] = "none", [KPERF_ABORT_ADDR] = "addr",
	[KPERF_ABORT_ROUTE] = "route", [KPERF_ABORT_CONNECT] = "connect",
	[KPERF_ABORT_REP] = "rep", [KPERF_ABORT_ESTABLISHED] = "established",
	[KPERF_ABORT_DISCONNECT] = "disconnect",
	[KPERF_ABORT_TIMEWAIT] = "timewait",
};

/**
 * kperf_abort_name() - the name of an abort= point
 * @abort: a valid enum kperf_abort
 *
 * Return: its name in commands and results.
 */
const char *kperf_abort_name(enum kperf_abort abort)
{
	return kperf_abort_names[abort];
}

/**
 * kperf_abort_lookup() - the abort= point of a name
 * @name: what the command says
 *
 * Return: the enum kperf_abort, or -1 for no such point ("none" too).
 */
int kperf_abort_lookup(const char *name)
{
	int i;

	for (i = KPERF_ABORT_ADDR; i < KPERF_ABORT_COUNT; i++)
		if (!strcmp(kperf_abort_names[i], name))
			return i;
	return -1;
}

static bool kperf_abort_at(struct kperf_run *run, enum kperf_abort at)
{
	return run->p.abort == at;
}

/*
 * abort=rep: the dev side's QP, made by kperf rather than by rdma_cm; its
 * number goes into the REQ. kperf_conn_destroy_all() destroys it.
 */
static int kperf_abort_own_qp(struct kperf_run *run, struct kperf_end *e,
			      struct ib_qp_init_attr *attr)
{
	struct ib_qp *qp = ib_create_qp(run->side[0].pd, attr);

	if (IS_ERR(qp))
		return kperf_run_fail(run, PTR_ERR(qp), "ib_create_qp on %s failed",
				      dev_name(&run->side[0].ibdev->dev));
	e->qp = qp;
	return 0;
}

/* The dev side's QP of connection @i, and its connect. */
static int kperf_abort_connect(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_end *ce = &run->rdma_cm->conns[i].end[0];
	struct kperf_end *e = &run->conns[i].end[0];
	struct kperf_cm_priv priv = { .index = cpu_to_be32(i) };
	struct rdma_conn_param param = {
		.private_data = &priv,
		.private_data_len = sizeof(priv),
	};
	struct ib_qp_init_attr attr;
	const char *what = "kperf's own QP";
	int ret;

	ret = kperf_conn_qp_attr(run, &run->side[0], &attr);
	if (ret)
		return ret;
	if (kperf_abort_at(run, KPERF_ABORT_REP))
		ret = kperf_abort_own_qp(run, e, &attr);
	else
		ret = kperf_rdma_cm_qp(run, ce->rdma, &run->side[0], e, &attr,
				       &what);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, what);
	kperf_rdma_cm_param(run, &param);
	if (!ce->rdma->qp)
		param.qp_num = e->qp->qp_num;
	ret = rdma_connect(ce->rdma, &param);
	return ret ? kperf_rdma_cm_fail(run, ce, ret, "rdma_connect") : 0;
}

/*
 * The dev side of connection @i: its id, the address query, the route
 * query, the connect, as far as abort= goes (a query is only started).
 */
static int kperf_abort_setup(struct kperf_run *run, unsigned int i)
{
	struct kperf_rdma_cm *rcm = run->rdma_cm;
	struct kperf_cm_end *ce = &rcm->conns[i].end[0];
	struct rdma_cm_id *id;
	int ret;

	id = kperf_rdma_cm_id(run, &run->side[0], ce);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id for %s failed",
				      dev_name(&run->side[0].ibdev->dev));
	ce->rdma = id;
	ret = rdma_resolve_addr(id, (struct sockaddr *)&rcm->src,
				(struct sockaddr *)&rcm->dst,
				kperf_abort_resolve_ms(run));
	if (ret || kperf_abort_at(run, KPERF_ABORT_ADDR))
		return ret ? kperf_rdma_cm_fail(run, ce, ret, "rdma_resolve_addr") : 0;
	ret = kperf_rdma_cm_step(ce, KPERF_CM_IDLE, KPERF_CM_ADDR);
	if (!ret)
		ret = rdma_resolve_route(id, kperf_abort_resolve_ms(run));
	if (ret || kperf_abort_at(run, KPERF_ABORT_ROUTE))
		return ret ? kperf_rdma_cm_fail(run, ce, ret, "resolving the address") : 0;
	ret = kperf_rdma_cm_step(ce, KPERF_CM_ADDR, KPERF_CM_ROUTE);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, "resolving the route");
	return kperf_abort_connect(run, i);
}

/* Connected both ends, then (disconnect, timewait) the disconnect's steps. */
static int kperf_abort_teardown(struct kperf_run *run, struct kperf_cm_end *ce,
				struct kperf_cm_end *pe)
{
	int ret;

	ret = kperf_rdma_cm_step(ce, KPERF_CM_ROUTE, KPERF_CM_UP);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, "connecting");
	ret = kperf_rdma_cm_step(pe, KPERF_CM_IDLE, KPERF_CM_UP);
	if (ret || kperf_abort_at(run, KPERF_ABORT_ESTABLISHED))
		return ret ? kperf_rdma_cm_fail(run, pe, ret, "connecting") : 0;
	ret = rdma_disconnect(ce->rdma);
	if (!ret)
		ret = kperf_rdma_cm_step(pe, KPERF_CM_UP, KPERF_CM_DOWN);
	if (ret || kperf_abort_at(run, KPERF_ABORT_DISCONNECT))
		return ret ? kperf_rdma_cm_fail(run, pe, ret, "disconnecting") : 0;
	ret = rdma_disconnect(pe->rdma);
	if (!ret)
		ret = kperf_rdma_cm_step(ce, KPERF_CM_UP, KPERF_CM_DOWN);
	return ret ? kperf_rdma_cm_fail(run, ce, ret, "disconnecting") : 0;
}

/* Wait until connection @i is where abort= destroys the dev side's id. */
static int kperf_abort_reach(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_end *ce = &run->rdma_cm->conns[i].end[0];
	struct kperf_cm_end *pe = &run->rdma_cm->conns[i].end[1];
	int ret;

	switch (run->p.abort) {
	case KPERF_ABORT_ADDR:
	case KPERF_ABORT_ROUTE:
		return 0;
	case KPERF_ABORT_CONNECT:
		ret = kperf_rdma_cm_step(pe, KPERF_CM_IDLE, KPERF_CM_REQUESTED);
		return ret ? kperf_rdma_cm_fail(run, pe, ret, "taking the request") : 0;
	case KPERF_ABORT_REP:
		ret = kperf_rdma_cm_step(ce, KPERF_CM_ROUTE, KPERF_CM_REPLIED);
		return ret ? kperf_rdma_cm_fail(run, ce, ret, "waiting for the REP") : 0;
	default:
		return kperf_abort_teardown(run, ce, pe);
	}
}

/* @oe heard the REJ its connection's destroyed first end sent. */
static int kperf_abort_rejected(struct kperf_run *run, struct kperf_cm_end *oe,
				enum kperf_cm_state from)
{
	int ret = kperf_cm_end_wait(oe, from, KPERF_CM_WAIT_MS);

	if (!ret && (kperf_cm_end_state(oe) != KPERF_CM_FAILED ||
		     oe->err != -ECONNREFUSED))
		ret = -EPROTO;
	if (ret)
		return kperf_run_fail(run, ret,
				      "connection %u, abort=%s: the other end heard no REJECTED (%s)",
				      oe->index, kperf_abort_name(run->p.abort),
				      oe->what ?: "nothing");
	return 0;
}

/*
 * The dev side's id was destroyed first: what the peer side's id of
 * connection @i must hear of it.
 */
static int kperf_abort_peer_hears(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_end *pe = &run->rdma_cm->conns[i].end[1];
	int ret;

	switch (run->p.abort) {
	case KPERF_ABORT_CONNECT:
		return kperf_abort_rejected(run, pe, KPERF_CM_REQUESTED);
	case KPERF_ABORT_REP:
		return kperf_abort_rejected(run, pe, KPERF_CM_IDLE);
	case KPERF_ABORT_ESTABLISHED:
		ret = kperf_rdma_cm_step(pe, KPERF_CM_UP, KPERF_CM_DOWN);
		if (ret)
			return kperf_rdma_cm_fail(run, pe, ret,
						  "hearing the DREQ of a destroyed id");
		return 0;
	case KPERF_ABORT_DISCONNECT:
		ret = rdma_disconnect(pe->rdma);
		if (ret)
			return kperf_rdma_cm_fail(run, pe, ret,
						  "answering a destroyed id's DREQ");
		return 0;
	default:
		return 0;
	}
}

/*
 * abort_first=peer, the peer side's id was destroyed first: what the dev
 * side's id of connection @i must hear of it.
 */
static int kperf_abort_dev_hears(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_end *ce = &run->rdma_cm->conns[i].end[0];
	int ret;

	switch (run->p.abort) {
	case KPERF_ABORT_CONNECT:	/* the held request refused */
		return kperf_abort_rejected(run, ce, KPERF_CM_ROUTE);
	case KPERF_ABORT_REP:		/* the REP sent, taken back */
		return kperf_abort_rejected(run, ce, KPERF_CM_REPLIED);
	case KPERF_ABORT_ESTABLISHED:	/* a DREQ */
	case KPERF_ABORT_DISCONNECT:	/* the DREP of the destroy */
		ret = kperf_rdma_cm_step(ce, KPERF_CM_UP, KPERF_CM_DOWN);
		if (ret)
			return kperf_rdma_cm_fail(run, ce, ret,
						  "hearing the end of a destroyed id");
		return 0;
	default:
		return 0;
	}
}

/**
 * kperf_rdma_cm_abort() - connection @i taken to abort=, then destroyed
 * @run: the command, cm=rdma with abort=, its peer side listening
 * @i: the connection
 *
 * The dev side's QP and id are destroyed at the point abort= names, then
 * the peer side's (if the connection got that far), after it heard what
 * it must of the first; with abort_first=peer the other way round. With
 * hold=1 both are left where they are.
 *
 * Context: the command's process context, sleeps.
 * Return: 0, or a negative errno with the reason in @run; whatever is left
 * is destroyed by the CM's stop.
 */
int kperf_rdma_cm_abort(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_conn *cc = &run->rdma_cm->conns[i];
	int ret;

	ret = kperf_abort_setup(run, i);
	if (!ret)
		ret = kperf_abort_reach(run, i);
	if (ret)
		return ret;
	/*
	 * abort=rep: the REP arrived, so the peer side's request handler
	 * accepted under rcm->lock and is done with it, or is about to store
	 * the new id: once the lock is free, pe->rdma is there.
	 */
	mutex_lock(&run->rdma_cm->lock);
	mutex_unlock(&run->rdma_cm->lock);
	if (run->p.hold)	/* parked there for kperf_hold_run() */
		return 0;
	if (run->p.abort_peer_first) {
		kperf_rdma_cm_destroy(&cc->end[1], &run->conns[i].end[1]);
		ret = kperf_abort_dev_hears(run, i);
	} else {
		kperf_rdma_cm_destroy(&cc->end[0], &run->conns[i].end[0]);
		ret = kperf_abort_peer_hears(run, i);
	}
	kperf_rdma_cm_destroy(&cc->end[0], &run->conns[i].end[0]);
	kperf_rdma_cm_destroy(&cc->end[1], &run->conns[i].end[1]);
	return ret;
}
