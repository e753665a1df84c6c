// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf cm=rdma: connections made by the RDMA CM, by IP address and port, and ended by it. */
/*
 * The peer side binds the IP address of its GID (the one kperf chose:
 * ip=, gid=) and port=, in the namespace of that GID's net device, and
 * listens. For each connection the dev side makes an id in its own net
 * device's namespace, resolves the address from its GID's IP to the
 * peer's (or to addr=) and then the route, has rdma_cm create its QP
 * (kperf's PD, CQ and queue sizes) and connects with the connection's
 * index as private data. The CONNECT_REQUEST comes to the peer side on a
 * new id, which gets its QP the same way and is accepted. rdma_cm moves
 * both QPs to RTS itself, with kperf's ACK timeout and RNR timer set on
 * the ids; ESTABLISHED on both ends completes a connection.
 *
 * At the end the dev side disconnects (a DREQ), the peer side hears
 * DISCONNECTED and disconnects too (its DREP answers), the dev side hears
 * DISCONNECTED; then each QP and id is destroyed, the listener last.
 *
 * qp=ud: the ids are of the UDP port space and "connecting" is a SIDR
 * exchange. The peer side's new id gets a UD QP and accepts (a SIDR REP
 * naming that QP and rdma_cm's Q_Key): that end is up. The dev side's
 * ESTABLISHED carries the answer, whose address vector, QP number and
 * Q_Key its sends then use (the QP number must be the peer end's). The
 * peer end sends back by kperf's own address vector. There is nothing to
 * disconnect.
 *
 * The handlers run in rdma_cm's context, one event at a time per id; they
 * record what happened (kperf_cm_end.c) and never destroy an id, the
 * command does that in its own context. A CONNECT_REQUEST kperf does not
 * take is refused by returning non-zero: rdma_cm then rejects it and
 * destroys the new id itself.
 */

#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_cm_ib.h>
#include "kperf.h"

/* How long the address and the route may take to resolve. */
#define KPERF_RDMA_CM_RESOLVE_MS	2000

static struct sockaddr *kperf_rdma_cm_sa(struct sockaddr_storage *ss)
{
	return (struct sockaddr *)ss;
}

static void kperf_rdma_cm_set_port(struct sockaddr_storage *ss, u16 port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static u16 kperf_rdma_cm_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
}

/* The IP address in side @s's GID, port 0. */
static int kperf_rdma_cm_ip(struct kperf_run *run, struct kperf_side *s,
			    struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	if (!rdma_protocol_roce(s->ibdev, s->port) || !s->sgid_attr)
		return kperf_run_fail(run, -EINVAL,
				      "cm=rdma needs RoCE: %s port %u has no IP addresses (cm=ib)",
				      dev_name(&s->ibdev->dev), s->port);
	rdma_gid2ip(kperf_rdma_cm_sa(ss), &s->sgid_attr->gid);
	if (ss->ss_family == AF_INET6 &&
	    (ipv6_addr_type(&sin6->sin6_addr) & IPV6_ADDR_LINKLOCAL))
		return kperf_run_fail(run, -EINVAL,
				      "cm=rdma needs a routable address, %s GID %u is link-local",
				      dev_name(&s->ibdev->dev),
				      s->sgid_attr->index);
	return 0;
}

/* The dev side's, the peer side's and the connections' addresses. */
static int kperf_rdma_cm_addrs(struct kperf_run *run,
			       struct kperf_rdma_cm *rcm)
{
	int ret;

	ret = kperf_rdma_cm_ip(run, &run->side[0], &rcm->src);
	if (!ret)
		ret = kperf_rdma_cm_ip(run, &run->side[1], &rcm->bind);
	if (ret)
		return ret;
	kperf_rdma_cm_set_port(&rcm->bind, run->p.port);
	rcm->dst = rcm->bind;
	if (run->p.addr.ss_family) {
		rcm->dst = run->p.addr;
		if (!kperf_rdma_cm_port(&rcm->dst))
			kperf_rdma_cm_set_port(&rcm->dst, run->p.port);
	}
	if (rcm->dst.ss_family != rcm->src.ss_family)
		return kperf_run_fail(run, -EINVAL,
				      "cm=rdma cannot connect %pISc to %pISc (ip=, gid=, addr=)",
				      &rcm->src, &rcm->dst);
	return 0;
}

/**
 * kperf_rdma_cm_fail() - the reason of a connection's failure
 * @run: the command
 * @ce: the end that failed
 * @err: the errno of the @step
 * @step: what the command was doing
 *
 * Return: @ce's errno when it heard an event that failed it (named in the
 * reason), else @err.
 */
int kperf_rdma_cm_fail(struct kperf_run *run, struct kperf_cm_end *ce,
		       int err, const char *step)
{
	struct kperf_rdma_cm *rcm = run->rdma_cm;
	const char *end = ce->index < run->p.qps &&
			  ce == &rcm->conns[ce->index].end[0] ? "" : "peer side ";

	if (kperf_cm_end_state(ce) != KPERF_CM_FAILED)
		return kperf_run_fail(run, err, "connection %u to %pISpc: %s%s failed",
				      ce->index, &rcm->dst, end, step);
	return kperf_run_fail(run, ce->err, "connection %u to %pISpc: %s%s%s%s (status %d)",
			      ce->index, &rcm->dst, end, ce->what,
			      ce->detail ? ": " : "", ce->detail ?: "",
			      ce->status);
}

/* The errno of an event that failed a connection. */
static int kperf_rdma_cm_errno(const struct rdma_cm_event *ev)
{
	if (ev->event == RDMA_CM_EVENT_REJECTED)
		return -ECONNREFUSED;	/* its status is the reject reason */
	if (ev->status < 0)
		return ev->status;
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_ERROR:
		return -EHOSTUNREACH;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return -ENETUNREACH;
	case RDMA_CM_EVENT_UNREACHABLE:
		return -ETIMEDOUT;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return -ENODEV;
	default:
		return -ECONNABORTED;
	}
}

/**
 * kperf_rdma_cm_qp() - the QP of a connection's end, made by rdma_cm
 * @run: the command
 * @id: the end's id
 * @s: its side (the PD)
 * @e: the end; gets the QP
 * @attr: the QP's creation attributes
 * @what: set to the step that failed
 *
 * On RC the id gets kperf's RNR timer, and its ACK timeout when the
 * command gave one.
 *
 * Return: 0 or the failed step's errno.
 */
int kperf_rdma_cm_qp(struct kperf_run *run, struct rdma_cm_id *id,
		     struct kperf_side *s, struct kperf_end *e,
		     struct ib_qp_init_attr *attr, const char **what)
{
	int ret;

	*what = "rdma_create_qp";
	ret = rdma_create_qp(id, s->pd, attr);
	if (ret)
		return ret;
	e->qp = id->qp;
	if (run->p.qp_type != IB_QPT_RC)
		return 0;
	if (run->p.ack_timeout) {
		*what = "rdma_set_ack_timeout";
		ret = rdma_set_ack_timeout(id, run->p.ack_timeout);
		if (ret)
			return ret;
	}
	*what = "rdma_set_min_rnr_timer";
	return rdma_set_min_rnr_timer(id, KPERF_MIN_RNR_TIMER);
}

/**
 * kperf_rdma_cm_param() - a connection's parameters, the same at both ends
 * @run: the command
 * @param: filled in: the read depth (none on UC), retries, RNR retries
 */
void kperf_rdma_cm_param(struct kperf_run *run,
			 struct rdma_conn_param *param)
{
	u8 rd_atom = run->p.qp_type == IB_QPT_RC ? kperf_cm_rd_atom(run) : 0;

	param->responder_resources = rd_atom;
	param->initiator_depth = rd_atom;
	param->retry_count = KPERF_RETRY_CNT;
	param->rnr_retry_count = kperf_cm_rnr_retry(run);
}

/*
 * Peer side, a CONNECT_REQUEST of connection @pe: the QP on the new @id,
 * then the accept. Failing, it leaves neither behind and says why in @pe.
 */
static int kperf_rdma_cm_accept(struct kperf_run *run, struct rdma_cm_id *id,
				struct kperf_cm_end *pe)
{
	struct kperf_rdma_cm *rcm = run->rdma_cm;
	struct kperf_side *s = &run->side[1];
	struct kperf_end *e = &run->conns[pe->index].end[1];
	struct ib_qp_init_attr attr = rcm->qp_attr;
	struct rdma_conn_param param = {};
	const char *what = "connect request on another device";
	int ret = -EINVAL;

	if (id->device == s->ibdev && id->port_num == s->port)
		ret = kperf_rdma_cm_qp(run, id, s, e, &attr, &what);
	if (!ret) {
		kperf_rdma_cm_param(run, &param);
		what = "rdma_accept";
		ret = rdma_accept(id, &param);
	}
	/* UD: the SIDR REP is all there is; the dev end's sends use its answer. */
	if (!ret && run->p.qp_type == IB_QPT_UD) {
		e->qkey = RDMA_UDP_QKEY;
		ret = kperf_conn_ah(run, s, e, &run->side[0]);
		if (!ret)
			kperf_cm_end_set(pe, KPERF_CM_UP);
		what = "rdma_create_ah";
	}
	if (!ret)
		return 0;
	if (id->qp)
		rdma_destroy_qp(id);
	e->qp = NULL;
	kperf_cm_end_fail(pe, ret, what, "failed", ret);
	return ret;
}

/* A CONNECT_REQUEST on the listener: a new @id, ours if its data says. */
static int kperf_rdma_cm_request(struct kperf_rdma_cm *rcm,
				 struct rdma_cm_id *id,
				 const struct rdma_cm_event *ev)
{
	struct kperf_run *run = rcm->listen_end.run;
	struct kperf_cm_end *pe;
	unsigned int i;
	int ret = -EINVAL;

	const void *data = run->p.qp_type == IB_QPT_UD ?
			   ev->param.ud.private_data : ev->param.conn.private_data;
	u8 len = run->p.qp_type == IB_QPT_UD ? ev->param.ud.private_data_len :
		 ev->param.conn.private_data_len;

	if (kperf_cm_priv_index(run, data, len, &i))
		return -EINVAL;	/* not ours: rdma_cm rejects it */
	mutex_lock(&rcm->lock);
	pe = &rcm->conns[i].end[1];
	/* abort=connect: the request is held, never accepted */
	if (!rcm->stopping && !pe->rdma)
		ret = run->p.abort == KPERF_ABORT_CONNECT ? 0 :
		      kperf_rdma_cm_accept(run, id, pe);
	if (!ret) {
		id->context = pe;
		pe->rdma = id;
		if (run->p.abort == KPERF_ABORT_CONNECT)
			kperf_cm_end_set(pe, KPERF_CM_REQUESTED);
	}
	mutex_unlock(&rcm->lock);
	return ret;
}

/* Where the events of a connection's progress take an end. */
static const enum kperf_cm_state kperf_rdma_cm_next[] = {
	[RDMA_CM_EVENT_ADDR_RESOLVED] = KPERF_CM_ADDR,
	[RDMA_CM_EVENT_ROUTE_RESOLVED] = KPERF_CM_ROUTE,
	[RDMA_CM_EVENT_ESTABLISHED] = KPERF_CM_UP,
	[RDMA_CM_EVENT_DISCONNECTED] = KPERF_CM_DOWN,
};

/*
 * The events that end a connection attempt. (CONNECT_RESPONSE does not
 * come to an id with a QP of rdma_create_qp(): rdma_cm finishes itself.)
 * TIMEWAIT_EXIT and ADDR_CHANGE change nothing.
 */
#define KPERF_RDMA_CM_FAILURES						\
	(BIT(RDMA_CM_EVENT_ADDR_ERROR) | BIT(RDMA_CM_EVENT_ROUTE_ERROR) |	\
	 BIT(RDMA_CM_EVENT_CONNECT_ERROR) | BIT(RDMA_CM_EVENT_UNREACHABLE) |	\
	 BIT(RDMA_CM_EVENT_REJECTED) | BIT(RDMA_CM_EVENT_CONNECT_RESPONSE) |	\
	 BIT(RDMA_CM_EVENT_DEVICE_REMOVAL))

/**
 * kperf_rdma_cm_event() - what an event of a connection's id does to its end
 * @ce: the end
 * @id: its id
 * @ev: the event, not a CONNECT_REQUEST (that one comes to a new id)
 *
 * The end moves on (ADDR, ROUTE, UP, DOWN) or fails (with the event's
 * name, the reject reason's for REJECTED, and its status and errno).
 * After DEVICE_REMOVAL too the command destroys the id: kperf's ib_client
 * holds the device and its removal waits for the command, so the event
 * only comes to a command that is ending anyway.
 *
 * Context: the id's event handler.
 * TIMEWAIT_EXIT sets @ce->timewait_over and leaves the state alone;
 * ADDR_CHANGE is counted in the command (hold=1 shows the count);
 * DEVICE_REMOVAL sets @ce->removed too (hold=1 counts them).
 *
 * Return: whether the event meant anything to @ce's state (TIMEWAIT_EXIT
 * and ADDR_CHANGE, for instance, do not).
 */
bool kperf_rdma_cm_event(struct kperf_cm_end *ce, struct rdma_cm_id *id,
			 const struct rdma_cm_event *ev)
{
	unsigned int type = ev->event;
	enum kperf_cm_state next = KPERF_CM_IDLE;

	if (type == RDMA_CM_EVENT_TIMEWAIT_EXIT) {
		/* pairs with kperf_cm_end_wait_timewait() */
		smp_store_release(&ce->timewait_over, true);
		complete(&ce->done);
		return false;
	}
	if (type == RDMA_CM_EVENT_ADDR_CHANGE) {
		atomic_inc(&ce->run->addr_changes);
		return false;
	}
	if (type == RDMA_CM_EVENT_DEVICE_REMOVAL)	/* pairs with kperf_cm_end_wait_removal() */
		smp_store_release(&ce->removed, true);
	if (type < ARRAY_SIZE(kperf_rdma_cm_next))
		next = kperf_rdma_cm_next[type];
	if (type < BITS_PER_LONG && (BIT(type) & KPERF_RDMA_CM_FAILURES)) {
		kperf_cm_end_fail(ce, kperf_rdma_cm_errno(ev),
				  rdma_event_msg(ev->event),
				  ev->event == RDMA_CM_EVENT_REJECTED ?
				  rdma_reject_msg(id, ev->status) : NULL,
				  ev->status);
		return true;
	}
	if (next == KPERF_CM_IDLE)
		return false;
	/* A UD id's ESTABLISHED: the SIDR REP's answer, kept for the command. */
	if (type == RDMA_CM_EVENT_ESTABLISHED && id->qp_type == IB_QPT_UD &&
	    !ce->ud_set) {
		ce->ud = ev->param.ud;
		rdma_copy_ah_attr(&ce->ud.ah_attr, &ev->param.ud.ah_attr);
		ce->ud.private_data = NULL;
		ce->ud_set = true;
	}
	if (kperf_cm_end_state(ce) != KPERF_CM_FAILED)
		kperf_cm_end_set(ce, next);
	return true;
}

/* Every id's handler. */
static int kperf_rdma_cm_handler(struct rdma_cm_id *id,
				 struct rdma_cm_event *ev)
{
	struct kperf_cm_end *ce = id->context;

	/* A new id: its context is still the listener's. */
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return kperf_rdma_cm_request(container_of(ce, struct kperf_rdma_cm,
							  listen_end),
					     id, ev);
	/* abort=rep: the dev side's id has no QP, the REP is handed up */
	if (ev->event == RDMA_CM_EVENT_CONNECT_RESPONSE &&
	    ce->run->p.abort == KPERF_ABORT_REP) {
		kperf_cm_end_set(ce, KPERF_CM_REPLIED);
		return 0;
	}
	kperf_rdma_cm_event(ce, id, ev);
	return 0;
}

/**
 * kperf_rdma_cm_id() - a new id for one end of a command's connections
 * @run: the command
 * @s: the end's side; the id is made in its GID's net device's namespace
 * @ce: the end, the id's context
 *
 * Return: the id or an ERR_PTR().
 */
struct rdma_cm_id *kperf_rdma_cm_id(struct kperf_run *run,
				    struct kperf_side *s,
				    struct kperf_cm_end *ce)
{
	struct net *net = kperf_side_net(s);
	struct rdma_cm_id *id;

	if (!net)
		return ERR_PTR(-ENETDOWN);
	id = rdma_create_id(net, kperf_rdma_cm_handler, ce,
			    run->p.qp_type == IB_QPT_UD ? RDMA_PS_UDP :
			    RDMA_PS_TCP, run->p.qp_type);
	put_net(net);
	return id;
}

/* The command's RDMA CM state; the peer side listens. */
static int kperf_rdma_cm_listen(struct kperf_run *run)
{
	struct kperf_side *ps = &run->side[1];
	struct kperf_rdma_cm *rcm;
	struct rdma_cm_id *id;
	int ret;

	rcm = kzalloc(sizeof(*rcm), GFP_KERNEL);
	if (!rcm)
		return kperf_run_fail(run, -ENOMEM, "no memory for the CM state");
	run->rdma_cm = rcm;
	mutex_init(&rcm->lock);
	rcm->listen_end.run = run;
	rcm->listen_end.index = run->p.qps;	/* none */
	init_completion(&rcm->listen_end.done);
	rcm->conns = kperf_cm_conns_alloc(run);
	if (!rcm->conns)
		return kperf_run_fail(run, -ENOMEM, "no memory for the CM state");
	ret = kperf_rdma_cm_addrs(run, rcm);
	if (!ret)
		ret = kperf_conn_qp_attr(run, ps, &rcm->qp_attr);
	if (ret)
		return ret;
	id = kperf_rdma_cm_id(run, ps, &rcm->listen_end);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id for %s failed",
				      dev_name(&ps->ibdev->dev));
	rcm->listen = id;
	ret = rdma_bind_addr(id, kperf_rdma_cm_sa(&rcm->bind));
	if (ret)
		return kperf_run_fail(run, ret, "rdma_bind_addr %pISpc failed",
				      &rcm->bind);
	if (id->device != ps->ibdev)
		return kperf_run_fail(run, -EINVAL, "%pISc is on %s, not on %s",
				      &rcm->bind,
				      id->device ? dev_name(&id->device->dev) : "no device",
				      dev_name(&ps->ibdev->dev));
	ret = rdma_listen(id, run->p.qps);
	if (ret)
		return kperf_run_fail(run, ret, "rdma_listen on %pISpc failed",
				      &rcm->bind);
	return 0;
}

/**
 * kperf_rdma_cm_wait() - wait for an end to get from one state to the next
 * @ce: the end
 * @from: where it is
 * @to: where it should get
 * @ms: how long to wait at most
 *
 * Context: the command's process context, sleeps.
 * Return: 0; -ECONNRESET when it got elsewhere (failed: the end says why);
 * the errors of kperf_cm_end_wait().
 */
int kperf_rdma_cm_wait(struct kperf_cm_end *ce, enum kperf_cm_state from,
		       enum kperf_cm_state to, unsigned int ms)
{
	int ret = kperf_cm_end_wait(ce, from, ms);

	if (ret)
		return ret;
	return kperf_cm_end_state(ce) == to ? 0 : -ECONNRESET;
}

/**
 * kperf_rdma_cm_step() - kperf_rdma_cm_wait() as long as a CM may take
 * @ce: the end
 * @from: where it is
 * @to: where it should get
 *
 * Return: as kperf_rdma_cm_wait().
 */
int kperf_rdma_cm_step(struct kperf_cm_end *ce, enum kperf_cm_state from,
		       enum kperf_cm_state to)
{
	return kperf_rdma_cm_wait(ce, from, to, KPERF_CM_WAIT_MS);
}

/* Dev side, connection @i: the address, the route and the QP. */
static int kperf_rdma_cm_resolve(struct kperf_run *run, unsigned int i)
{
	struct kperf_rdma_cm *rcm = run->rdma_cm;
	struct kperf_cm_end *ce = &rcm->conns[i].end[0];
	struct kperf_side *s = &run->side[0];
	struct ib_qp_init_attr attr;
	struct rdma_cm_id *id;
	const char *what;
	int ret;

	id = kperf_rdma_cm_id(run, s, ce);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id for %s failed",
				      dev_name(&s->ibdev->dev));
	ce->rdma = id;
	ret = rdma_resolve_addr(id, kperf_rdma_cm_sa(&rcm->src),
				kperf_rdma_cm_sa(&rcm->dst),
				KPERF_RDMA_CM_RESOLVE_MS);
	if (!ret)
		ret = kperf_rdma_cm_step(ce, KPERF_CM_IDLE, KPERF_CM_ADDR);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, "resolving the address");
	if (id->device != s->ibdev || id->port_num != s->port)
		return kperf_run_fail(run, -EINVAL,
				      "connection %u: %pISc to %pISc resolves to %s port %u, not to %s port %u",
				      i, &rcm->src, &rcm->dst,
				      dev_name(&id->device->dev), id->port_num,
				      dev_name(&s->ibdev->dev), s->port);
	ret = rdma_resolve_route(id, KPERF_RDMA_CM_RESOLVE_MS);
	if (!ret)
		ret = kperf_rdma_cm_step(ce, KPERF_CM_ADDR, KPERF_CM_ROUTE);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, "resolving the route");
	/* The path MTU is the route's (mtu= is refused). */
	if (id->route.num_pri_alt_paths && id->route.path_rec->mtu)
		run->p.mtu = id->route.path_rec->mtu;
	ret = kperf_conn_qp_attr(run, s, &attr);
	if (ret)
		return ret;
	ret = kperf_rdma_cm_qp(run, id, s, &run->conns[i].end[0], &attr, &what);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, what);
	return 0;
}

/*
 * qp=ud, connection @i: the dev end sends by the SIDR REP's answer, which
 * must name the peer end's QP.
 */
static int kperf_rdma_cm_ud(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_end *ce = &run->rdma_cm->conns[i].end[0];
	struct kperf_end *e = &run->conns[i].end[0];
	u32 peer_qpn = run->conns[i].end[1].qp->qp_num;

	if (!ce->ud_set || ce->ud.qp_num != peer_qpn)
		return kperf_run_fail(run, -EPROTO,
				      "connection %u: the SIDR REP names QP %#x, the peer end's is %#x",
				      i, ce->ud_set ? ce->ud.qp_num : 0, peer_qpn);
	e->qkey = ce->ud.qkey;
	e->ah = rdma_create_ah(run->side[0].pd, &ce->ud.ah_attr,
			       RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(e->ah)) {
		int ret = PTR_ERR(e->ah);

		e->ah = NULL;
		return kperf_run_fail(run, ret,
				      "connection %u: rdma_create_ah from the SIDR REP failed",
				      i);
	}
	return 0;
}

/* Connection @i through the RDMA CM: resolved, connected, both ends up. */
static int kperf_rdma_cm_connect(struct kperf_run *run, unsigned int i)
{
	struct kperf_rdma_cm *rcm = run->rdma_cm;
	struct kperf_cm_end *ce = &rcm->conns[i].end[0];
	struct kperf_cm_end *pe = &rcm->conns[i].end[1];
	struct kperf_cm_priv priv = { .index = cpu_to_be32(i) };
	struct rdma_conn_param param = {
		.private_data = &priv,
		.private_data_len = sizeof(priv),
	};
	int ret;

	if (run->p.abort)
		return kperf_rdma_cm_abort(run, i);
	ret = kperf_rdma_cm_resolve(run, i);
	if (ret)
		return ret;
	kperf_rdma_cm_param(run, &param);
	ret = rdma_connect(ce->rdma, &param);
	if (!ret)
		ret = kperf_rdma_cm_step(ce, KPERF_CM_ROUTE, KPERF_CM_UP);
	/* A request the peer side failed to take: its reason is better. */
	if (ret && kperf_cm_end_state(pe) == KPERF_CM_FAILED)
		return kperf_rdma_cm_fail(run, pe, ret, "accepting");
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, "connecting");
	ret = kperf_rdma_cm_step(pe, KPERF_CM_IDLE, KPERF_CM_UP);
	if (ret)
		return kperf_rdma_cm_fail(run, pe, ret, "connecting");
	if (run->p.qp_type == IB_QPT_UD)
		return kperf_rdma_cm_ud(run, i);
	return 0;
}

/*
 * Connection @i, if both ends are up: the dev side's DREQ, DISCONNECTED
 * on the peer side, its DREP, DISCONNECTED on the dev side.
 */
static int kperf_rdma_cm_disconnect_one(struct kperf_run *run,
					unsigned int i)
{
	struct kperf_cm_end *ce = &run->rdma_cm->conns[i].end[0];
	struct kperf_cm_end *pe = &run->rdma_cm->conns[i].end[1];
	int ret;

	/* hold=1 may have destroyed one end after its device went away */
	if (!ce->rdma || !pe->rdma ||
	    kperf_cm_end_state(ce) != KPERF_CM_UP ||
	    kperf_cm_end_state(pe) != KPERF_CM_UP ||
	    run->p.qp_type == IB_QPT_UD)
		return 0;
	ret = rdma_disconnect(ce->rdma);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, "rdma_disconnect");
	ret = kperf_rdma_cm_step(pe, KPERF_CM_UP, KPERF_CM_DOWN);
	if (ret)
		return kperf_rdma_cm_fail(run, pe, ret, "disconnecting");
	ret = rdma_disconnect(pe->rdma);
	if (ret)
		return kperf_rdma_cm_fail(run, pe, ret, "rdma_disconnect");
	ret = kperf_rdma_cm_step(ce, KPERF_CM_UP, KPERF_CM_DOWN);
	if (ret)
		return kperf_rdma_cm_fail(run, ce, ret, "disconnecting");
	return 0;
}

static int kperf_rdma_cm_disconnect(struct kperf_run *run)
{
	unsigned int i;
	int ret, first = 0;

	if (!run->rdma_cm || !run->rdma_cm->conns)
		return 0;
	for (i = 0; i < run->p.qps; i++) {
		ret = kperf_rdma_cm_disconnect_one(run, i);
		first = first ?: ret;
	}
	return first;
}

/**
 * kperf_rdma_cm_destroy() - the QP rdma_cm made for an end, then its id
 * @ce: the end; nothing happens without an id
 * @e: the end's QP and buffer; a QP kperf made itself (abort=rep) stays
 */
void kperf_rdma_cm_destroy(struct kperf_cm_end *ce, struct kperf_end *e)
{
	if (ce->ud_set) {
		rdma_destroy_ah_attr(&ce->ud.ah_attr);
		ce->ud_set = false;
	}
	if (!ce->rdma)
		return;
	if (ce->rdma->qp) {
		rdma_destroy_qp(ce->rdma);
		e->qp = NULL;
	}
	rdma_destroy_id(ce->rdma);
	ce->rdma = NULL;
}

/*
 * cycles=: connection @i was disconnected; its QPs and ids go, its ends
 * start over. No request of connection @i can come meanwhile: only its
 * dev side's connect makes one.
 */
static void kperf_rdma_cm_recycle(struct kperf_run *run, unsigned int i)
{
	struct kperf_cm_conn *cc = &run->rdma_cm->conns[i];
	int d;

	for (d = 1; d >= 0; d--) {
		kperf_rdma_cm_destroy(&cc->end[d], &run->conns[i].end[d]);
		kperf_cm_end_reset(&cc->end[d]);
	}
}

/*
 * No request is taken from here on; connections still up are ended, then
 * every QP and id is destroyed (which ends what was still in progress),
 * the listener last.
 */
static void kperf_rdma_cm_stop(struct kperf_run *run)
{
	struct kperf_rdma_cm *rcm = run->rdma_cm;
	unsigned int i;
	int d;

	if (!rcm)
		return;
	mutex_lock(&rcm->lock);
	rcm->stopping = true;
	mutex_unlock(&rcm->lock);
	if (rcm->conns) {
		kperf_rdma_cm_disconnect(run);
		for (i = 0; i < run->p.qps; i++)
			for (d = 1; d >= 0; d--)
				kperf_rdma_cm_destroy(&rcm->conns[i].end[d],
						      &run->conns[i].end[d]);
	}
	if (rcm->listen)
		rdma_destroy_id(rcm->listen);
	mutex_destroy(&rcm->lock);
	kfree(rcm->conns);
	kfree(rcm);
	run->rdma_cm = NULL;
}

/* A refusal too long for one line once indented; its words are the interface. */
#define KPERF_RDMA_CM_PEER_FIRST \
	"abort_first=peer needs abort=connect or later (the peer side has no id before)"

/**
 * kperf_rdma_cm_check() - the rules of cm=rdma's keys
 * @p: a parsed command
 *
 * Return: what is wrong with @p, or NULL.
 */
const char *kperf_rdma_cm_check(const struct kperf_params *p)
{
	bool extra = p->cycles || p->abort || p->abort_peer_first || p->hold;

	if (p->cm != KPERF_CM_RDMA && extra)
		return "cycles=, abort= and hold= need cm=rdma";
	if (p->cm != KPERF_CM_RDMA)
		return p->addr.ss_family || p->port ?
		       "addr= and port= need cm=rdma" : NULL;
	if (p->mtu)
		return "cm=rdma takes the path MTU from its route (no mtu=)";
	if (extra && (p->mode != KPERF_PING || p->fault != KPERF_FAULT_NONE ||
		      p->srq))
		return "cycles=, abort= and hold= run mode=ping without fault= or srq=1";
	if (extra && p->qp_type == IB_QPT_UD)
		return "cycles=, abort= and hold= need qp=rc or qp=uc (UD ids do not connect)";
	if (p->cycles && (p->abort || p->hold))
		return "cycles= goes without abort= and hold=";
	if (p->abort_peer_first && p->hold)
		return "abort_first= destroys, hold=1 parks: not both";
	if (p->abort_peer_first && p->abort < KPERF_ABORT_CONNECT)
		return KPERF_RDMA_CM_PEER_FIRST;
	return NULL;
}

/* cm=rdma: rdma_cm creates the QPs on its ids and moves them on. */
const struct kperf_cm_ops kperf_cm_rdma = {
	.listen = kperf_rdma_cm_listen,
	.connect = kperf_rdma_cm_connect,
	.disconnect = kperf_rdma_cm_disconnect,
	.stop = kperf_rdma_cm_stop,
	.recycle = kperf_rdma_cm_recycle,
	.makes_qps = true,
};
