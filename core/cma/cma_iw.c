// SPDX-License-Identifier: GPL-2.0-only
/*
 * iWARP ids: rdma_cm over iw_cm - listening, connecting, accepting, the QP's
 * attributes, and iw_cm's events fed to the table.
 */

#include <kunit/visibility.h>
#include <rdma/ib_cache.h>
#include <rdma/iw_cm.h>

#include "cma/cma.h"

/*
 * On a port that speaks iWARP, rdma_cm hands the connection to iw_cm,
 * which hands it to the driver's TCP stack. The calls of cma_conn.c and
 * cma_listen.c dispatch here when the id is on such a port; the rest of
 * rdma_cm (binding, address resolution, the table) is the same for every
 * transport. What differs from the IB CM, as in 6.1:
 *
 * - There is no CMA header: the consumer's private data goes to iw_cm as
 *   it is, and comes back as it is in CONNECT_REQUEST, the reply and the
 *   reject. The addresses travel in TCP itself; the events carry them.
 * - A route needs no query: rdma_resolve_route() queues ROUTE_RESOLVED.
 * - ORD and IRD are named from our side: we offer the peer our initiator
 *   depth as ORD and our responder resources as IRD, and what the peer
 *   sends back is reported the other way round.
 * - iw_cm moves the QP from RTR on (the driver brings it to RTS as the
 *   connection comes up): rdma_cm brings it to INIT and RTR only.
 * - The connection ends with iw_cm's CLOSE, heard as DISCONNECTED; the
 *   id stays in CONNECT (no timewait, no DISCONNECT state). iw_cm's
 *   DISCONNECT (the peer started closing) is not passed on.
 *
 * Each iWARP listener has an iw_cm id of its own per device it listens
 * on (struct cma_listen, cma_listen.c), whose context is the listener: a
 * request that reaches it needs no lookup, unlike the IB CM's shared
 * listeners. iw_cm gives the request a new iw_cm id with the listener's
 * handler and context; cma_iw_req_handler() makes the new rdma_cm id for
 * it, which takes the iw_cm id over.
 *
 * Locks: iw_cm calls our handlers from its workqueue, where they take
 * the ids' handler mutexes (a listener's before its new id's) and
 * cma.lock. iw_destroy_cm_id() waits for that workqueue's handling of
 * the id's events: so it is never called with a handler mutex or
 * cma.lock held. That is why a failed connect keeps its iw_cm id (idle
 * again, the next connect uses it) for rdma_destroy_id() to destroy
 * outside the handler lock; and why a handler's failure leaves the iw_cm
 * id to iw_cm (a non-zero return destroys it).
 */

/* ---- Making iw_cm ids ---------------------------------------------------- */

/* The type of service the owner set, for the iw_cm id. */
static void cma_iw_take_tos(struct cma_id_priv *priv, struct iw_cm_id *iw)
{
	mutex_lock(&priv->qp_mutex);
	iw->tos = priv->tos;
	iw->tos_set = priv->tos_set;
	mutex_unlock(&priv->qp_mutex);
}

/**
 * cma_iw_listen() - An iWARP listener's iw_cm listener on one device
 * @priv: the listener (in LISTEN), its address and backlog set
 * @device: an iWARP device it listens on
 *
 * The iw_cm id listens on the listener's address (a wildcard listens on
 * every address of @device) with its backlog, type of service and
 * afonly; requests reach cma_iw_req_handler() with @priv as context.
 *
 * Context: process context, sleeps; no rdma_cm lock held.
 * Return: the iw_cm id, or ERR_PTR() of iw_create_cm_id()'s or
 * iw_cm_listen()'s errno (-EINVAL for a negative backlog).
 */
struct iw_cm_id *cma_iw_listen(struct cma_id_priv *priv,
			       struct ib_device *device)
{
	struct sockaddr *src = cma_src_addr(priv);
	struct iw_cm_id *iw;
	int ret;

	iw = iw_create_cm_id(device, cma_iw_req_event, priv);
	if (IS_ERR(iw))
		return iw;
	cma_iw_take_tos(priv, iw);
	iw->afonly = READ_ONCE(priv->afonly);
	memcpy(&iw->local_addr, src, rdma_addr_size(src));
	ret = iw_cm_listen(iw, priv->backlog);
	if (ret) {
		iw_destroy_cm_id(iw);
		return ERR_PTR(ret);
	}
	return iw;
}

/*
 * The connection's iw_cm id: the one a failed connect left, or a new
 * one. Its addresses are the id's.
 */
static int cma_iw_conn_id(struct cma_id_priv *priv)
{
	struct sockaddr *src = cma_src_addr(priv), *dst = cma_dst_addr(priv);
	struct iw_cm_id *iw = priv->iw;

	if (!iw) {
		iw = iw_create_cm_id(priv->id.device, cma_iw_event, priv);
		if (IS_ERR(iw))
			return PTR_ERR(iw);
		priv->iw = iw;
	}
	cma_iw_take_tos(priv, iw);
	memcpy(&iw->local_addr, src, rdma_addr_size(src));
	memcpy(&iw->remote_addr, dst, rdma_addr_size(dst));
	return 0;
}

/* What iw_cm passes on to the peer: our depths as ORD/IRD, the data as is. */
static void cma_iw_param(struct cma_id_priv *priv,
			 const struct rdma_conn_param *conn,
			 struct iw_cm_conn_param *param)
{
	param->ord = conn->initiator_depth;
	param->ird = conn->responder_resources;
	param->private_data = conn->private_data;
	param->private_data_len = conn->private_data_len;
	param->qpn = priv->qp_num;
}

/**
 * cma_iw_connect() - rdma_connect() on an iWARP id
 * @priv: the id, in CONNECT (claimed); its handler_mutex is held; its
 *	  qp_num set (its QP's, or the owner's @conn->qp_num)
 * @conn: the owner's parameters
 *
 * The QP (if rdma_create_qp() made it) goes to RTR, then iw_cm connects
 * with the owner's private data, its depths and the QP number. The answer
 * is iw_cm's CONNECT_REPLY (cma_h_iw_reply()).
 *
 * Return: 0; the errnos of iw_create_cm_id(), of moving the QP and of
 * iw_cm_connect() (-EINVAL for a QP number the device does not know).
 */
int cma_iw_connect(struct cma_id_priv *priv,
		   const struct rdma_conn_param *conn)
{
	struct iw_cm_conn_param param = {};
	int ret;

	lockdep_assert_held(&priv->handler_mutex);
	ret = cma_iw_conn_id(priv);
	if (ret)
		return ret;
	ret = cma_qp_rtr(priv, conn);
	if (ret)
		return ret;
	cma_iw_param(priv, conn, &param);
	return iw_cm_connect(priv->iw, &param);
}

/**
 * cma_iw_accept() - rdma_accept() on an iWARP id
 * @priv: the id of a connect request, in CONNECT; its handler_mutex is
 *	  held
 * @conn: our parameters; required (iWARP has no active-side accept)
 *
 * The QP (if any) goes to RTR, then iw_cm accepts; ESTABLISHED follows
 * from iw_cm. If anything fails the QP goes to ERR and the request is
 * rejected, as 6.1 does.
 *
 * Return: 0; -EINVAL without @conn (rejected too); the errnos of moving
 * the QP and of iw_cm_accept().
 */
int cma_iw_accept(struct cma_id_priv *priv,
		  const struct rdma_conn_param *conn)
{
	struct iw_cm_conn_param param = {};
	int ret;

	lockdep_assert_held(&priv->handler_mutex);
	if (!conn) {
		ret = -EINVAL;
		goto err_reject;
	}
	if (!priv->id.qp) {
		priv->qp_num = conn->qp_num;
		priv->srq = conn->srq;
	}
	ret = cma_qp_rtr(priv, conn);
	if (ret)
		goto err_reject;
	cma_iw_param(priv, conn, &param);
	ret = iw_cm_accept(priv->iw, &param);
	if (ret)
		goto err_reject;
	return 0;

err_reject:
	cma_qp_error(priv);
	iw_cm_reject(priv->iw, NULL, 0);
	return ret;
}

/**
 * cma_iw_qp_attr() - rdma_init_qp_attr() on an iWARP id
 * @priv: the id; its qp_mutex is held
 * @attr: in: the state wanted; out: its attributes
 * @mask: out: their mask
 *
 * Before the id has an iw_cm id, rdma_cm answers itself (the state and
 * no remote access, whatever the state); then iw_cm does. Either way the
 * port is the id's.
 *
 * Return: 0, or iw_cm_init_qp_attr()'s -EINVAL.
 */
int cma_iw_qp_attr(struct cma_id_priv *priv, struct ib_qp_attr *attr,
		   int *mask)
{
	int ret;

	lockdep_assert_held(&priv->qp_mutex);
	if (priv->iw) {
		ret = iw_cm_init_qp_attr(priv->iw, attr, mask);
		if (ret)
			return ret;
	} else {
		attr->qp_access_flags = 0;
		*mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
	}
	attr->port_num = priv->id.port_num;
	*mask |= IB_QP_PORT;
	return 0;
}

/* ---- iw_cm's events --------------------------------------------------------- */

/* What an iw_cm event is to the table; CMA_INPUTS: nothing. */
static enum cma_input cma_iw_input(enum iw_cm_event_type type)
{
	switch (type) {
	case IW_CM_EVENT_CONNECT_REPLY:
		return CMA_IN_IW_REPLY;
	case IW_CM_EVENT_ESTABLISHED:
		return CMA_IN_IW_ESTABLISHED;
	case IW_CM_EVENT_CLOSE:
		return CMA_IN_IW_CLOSE;
	default:	/* DISCONNECT: CLOSE follows; requests: not here */
		return CMA_INPUTS;
	}
}

/**
 * cma_iw_event() - The iw_cm handler of an iWARP connection's iw_cm id
 * @cm_id: the iw_cm id; its context is the rdma_cm id
 * @ev: the event
 *
 * An event the id's state does not take is dropped. If the owner asks
 * for its id's destruction, the iw_cm id goes with it: iw_cm destroys it
 * when this returns non-zero.
 *
 * Context: iw_cm's workqueue; sleeps.
 * Return: 0, or -ECONNABORTED when the id was destroyed.
 */
int cma_iw_event(struct iw_cm_id *cm_id, struct iw_cm_event *ev)
{
	struct cma_id_priv *priv = cm_id->context;
	struct cma_in in = { .input = cma_iw_input(ev->event), .iw_event = ev };

	if (in.input == CMA_INPUTS)
		return 0;
	mutex_lock(&priv->handler_mutex);
	if (cma_table_run(priv, &in) == CMA_DESTROY) {
		priv->iw = NULL;
		cma_id_destroy_unlock(priv);
		return -ECONNABORTED;
	}
	mutex_unlock(&priv->handler_mutex);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_iw_event);

/* The private data and status every iWARP event passes on. */
static void cma_iw_event_init(struct rdma_cm_event *event,
			      const struct iw_cm_event *ev,
			      enum rdma_cm_event_type type)
{
	event->event = type;
	event->status = ev->status;
	event->param.conn.private_data = ev->private_data;
	event->param.conn.private_data_len = ev->private_data_len;
}

/* The peer's depths, named from our side. */
static void cma_iw_event_depths(struct rdma_cm_event *event,
				const struct iw_cm_event *ev)
{
	event->param.conn.initiator_depth = ev->ird;
	event->param.conn.responder_resources = ev->ord;
}

/* An address an event carries, if it is one. */
static void cma_iw_addr_take(struct sockaddr *to,
			     const struct sockaddr_storage *from)
{
	const struct sockaddr *sa = (const struct sockaddr *)from;

	if (cma_addr_family_ok(sa))
		memcpy(to, sa, rdma_addr_size(sa));
}

/* CONNECT_REPLY's status, as 6.1 reports it. */
static const struct {
	int			status;
	enum rdma_cm_event_type	event;
} cma_iw_replies[] = {
	{ 0,		 RDMA_CM_EVENT_ESTABLISHED },
	{ -ECONNREFUSED, RDMA_CM_EVENT_REJECTED },	/* the peer's reject */
	{ -ECONNRESET,	 RDMA_CM_EVENT_REJECTED },
	{ -ETIMEDOUT,	 RDMA_CM_EVENT_UNREACHABLE },
};

static enum rdma_cm_event_type cma_iw_reply_event(int status)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(cma_iw_replies); i++)
		if (cma_iw_replies[i].status == status)
			return cma_iw_replies[i].event;
	return RDMA_CM_EVENT_CONNECT_ERROR;
}

/**
 * cma_h_iw_reply() - Cell CONNECT x IW connect reply
 * @priv: the id; its handler_mutex is held
 * @in: @in->iw_event, iw_cm's CONNECT_REPLY
 *
 * The addresses the connection has become the id's; the status says the
 * event: 0 ESTABLISHED (with the peer's depths), -ECONNREFUSED or
 * -ECONNRESET REJECTED, -ETIMEDOUT UNREACHABLE, anything else
 * CONNECT_ERROR; the status and private data go along.
 *
 * Return: 0 or CMA_DESTROY.
 */
int cma_h_iw_reply(struct cma_id_priv *priv, struct cma_in *in)
{
	const struct iw_cm_event *ev = in->iw_event;
	struct rdma_cm_event event = {};

	cma_iw_addr_take(cma_src_addr(priv), &ev->local_addr);
	cma_iw_addr_take(cma_dst_addr(priv), &ev->remote_addr);
	cma_iw_event_init(&event, ev, cma_iw_reply_event(ev->status));
	if (!ev->status)
		cma_iw_event_depths(&event, ev);
	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/* Cell CONNECT x IW established: our accept went through. */
int cma_h_iw_established(struct cma_id_priv *priv, struct cma_in *in)
{
	struct rdma_cm_event event = {};

	cma_iw_event_init(&event, in->iw_event, RDMA_CM_EVENT_ESTABLISHED);
	cma_iw_event_depths(&event, in->iw_event);
	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/* Cell CONNECT x IW close: the connection is gone; DISCONNECTED. */
int cma_h_iw_close(struct cma_id_priv *priv, struct cma_in *in)
{
	struct rdma_cm_event event = {};

	cma_iw_event_init(&event, in->iw_event, RDMA_CM_EVENT_DISCONNECTED);
	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/* ---- The passive side ------------------------------------------------------- */

/*
 * The new id's device: the listener's (the request came to its iw_cm
 * listener there), if rdma_cm still has it. The GID entry of the net
 * device's hardware address is the id's source GID where the port has
 * one (an RNIC's GIDs are its MACs).
 */
static int cma_iw_attach(struct cma_id_priv *priv, struct ib_device *device,
			 u32 port)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	const struct ib_gid_attr *attr;
	struct cma_device *dev;
	union ib_gid gid;
	int ret = -ENODEV;

	rdma_addr_get_sgid(dev_addr, &gid);
	attr = rdma_find_gid_by_port(device, &gid, IB_GID_TYPE_IB, port, NULL);
	priv->id.port_num = port;
	mutex_lock(&cma.lock);
	list_for_each_entry(dev, &cma.devices, node) {
		if (dev->device != device)
			continue;
		if (!IS_ERR(attr)) {
			dev_addr->sgid_attr = attr;
			attr = NULL;
		}
		cma_id_attach(priv, dev);
		ret = 0;
		break;
	}
	mutex_unlock(&cma.lock);
	if (!IS_ERR_OR_NULL(attr))
		rdma_put_gid_attr(attr);
	return ret;
}

/*
 * The port the listener's new ids go on: its own, or the first iWARP one.
 * The listener's handler lock is held (cma_req_spawn()).
 */
static u32 cma_iw_req_port(struct cma_id_priv *listener,
			   struct ib_device *device)
{
	u32 p;

	if (listener->dev)
		return listener->id.port_num;
	rdma_for_each_port(device, p)
		if (rdma_cap_iw_cm(device, p))
			return p;
	return rdma_start_port(device);
}

/**
 * cma_h_iw_req() - Cell IDLE x IW connect request: a new id for a request
 * @priv: the new id, made by the request handler; its handler_mutex is
 *	  held
 * @in: @in->iw_req, the request
 *
 * The id gets the link-level facts of the local address the request came
 * to, the listener's device and port, the event's addresses and the
 * iw_cm id; its owner hears CONNECT_REQUEST with the private data as
 * the peer sent it and the peer's depths.
 *
 * Return: 0, CMA_DESTROY when the owner refused, or a negative errno
 * (rdma_translate_ip()'s, -ENODEV when the device is going): the id goes
 * back to IDLE without the iw_cm id, to be destroyed.
 */
int cma_h_iw_req(struct cma_id_priv *priv, struct cma_in *in)
{
	const struct cma_iw_req *req = in->iw_req;
	const struct iw_cm_event *ev = req->ev;
	struct rdma_cm_event event = {};
	int ret;

	ret = rdma_translate_ip((const struct sockaddr *)&ev->local_addr,
				&priv->id.route.addr.dev_addr);
	if (ret)
		return ret;
	ret = cma_iw_attach(priv, req->cm_id->device,
			    cma_iw_req_port(req->listener, req->cm_id->device));
	if (ret)
		return ret;
	cma_iw_addr_take(cma_src_addr(priv), &ev->local_addr);
	cma_iw_addr_take(cma_dst_addr(priv), &ev->remote_addr);
	priv->iw = req->cm_id;
	req->cm_id->context = priv;
	req->cm_id->cm_handler = cma_iw_event;

	cma_iw_event_init(&event, ev, RDMA_CM_EVENT_CONNECT_REQUEST);
	cma_iw_event_depths(&event, ev);
	return cma_event_deliver(priv, &event) ? CMA_DESTROY : 0;
}

/**
 * cma_iw_req_event() - The iw_cm handler of rdma_cm's iWARP listeners
 * @cm_id: the iw_cm id iw_cm made for the request; its context is still
 *	   the listener
 * @ev: IW_CM_EVENT_CONNECT_REQUEST
 *
 * Makes the new id for the request with cma_req_spawn(), which feeds
 * it the request.
 *
 * Context: iw_cm's workqueue; sleeps.
 * Return: 0 when the new id took the request; non-zero to have iw_cm
 * reject it and destroy @cm_id: -ECONNABORTED when the listener stopped,
 * -ENOMEM, -ECONNREFUSED when the owner refused, or the cell's errno.
 */
int cma_iw_req_event(struct iw_cm_id *cm_id, struct iw_cm_event *ev)
{
	struct cma_id_priv *listener = cm_id->context;
	struct cma_iw_req req = { .ev = ev, .cm_id = cm_id };
	struct cma_in in = { .input = CMA_IN_IW_REQ, .iw_req = &req };

	if (ev->event != IW_CM_EVENT_CONNECT_REQUEST)
		return 0;
	req.listener = listener;
	return cma_req_spawn(listener, RDMA_PS_TCP, IB_QPT_RC, &in);
}
EXPORT_SYMBOL_IF_KUNIT(cma_iw_req_event);
