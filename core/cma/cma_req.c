// SPDX-License-Identifier: GPL-2.0-only
/*
 * The passive side's REQ: the listener it is for, the new id made of it, and
 * the CONNECT_REQUEST its owner hears.
 */

#include <kunit/visibility.h>
#include <linux/if_arp.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>

#include "cma/cma.h"
#include "roce/roce.h"

/*
 * ib_cm hands every REQ and SIDR REQ for a service ID we listen on to
 * cma_req_handler(), with a new IB CM id made for it. A SIDR REQ is a UD
 * id's question for our QP: it makes a UD id, whose owner answers with
 * rdma_accept() or rdma_reject() (cma_ud.c); it has no paths, and on IB
 * no GID to find our address by, so it is taken on RoCE only. The REQ names the port space and port
 * in its service ID and the addresses in its CMA header; the namespace is
 * the one of the net device whose GID entry the REQ came in on (RoCE), or
 * init_net (IB, where we have no IPoIB device to ask). The listener is the
 * owner of that port in that namespace that listens, is on no device or
 * on the REQ's, and whose address the header asks for.
 *
 * The new id is fed CM REQ (IDLE -> CONNECT) under the listener's handler
 * lock and its own: the cell gives it the REQ's addresses, paths, device
 * and GID entry, takes over the IB CM id and tells the owner. A non-zero
 * return of the handler makes ib_cm destroy its IB CM id (and reject the
 * REQ; -ENOMEM drops it so the peer tries again), so the new id must not
 * keep it then.
 */

/* The port space and the port a service ID of ours carries. */
static enum rdma_ucm_port_space cma_req_ps(__be64 service_id)
{
	return (be64_to_cpu(service_id) >> 16) & 0xffff;
}

static unsigned short cma_req_port(__be64 service_id)
{
	return be64_to_cpu(service_id) & 0xffff;
}

/*
 * The net device of the GID entry a RoCE REQ came in on, held, in
 * @req->ndev. A device that is down may be changing namespace: its REQs
 * are refused, as 6.1 does. IB REQs have none.
 */
static int cma_req_ndev(struct cma_req *req)
{
	struct net_device *ndev;
	int ret = 0;

	if (!rdma_protocol_roce(req->cm_id->device, req->port))
		return req->sidr ? -EOPNOTSUPP : 0;
	if (!req->sgid_attr)
		return -ENODEV;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(req->sgid_attr);
	if (IS_ERR(ndev))
		ret = PTR_ERR(ndev);
	else if (!(ndev->flags & IFF_UP))
		ret = -EHOSTUNREACH;
	else
		dev_hold(ndev);
	rcu_read_unlock();
	if (!ret)
		req->ndev = ndev;
	return ret;
}

/* The namespace the REQ is looked up in, referenced; NULL if it is going. */
static struct net *cma_req_net(const struct cma_req *req)
{
	struct net *net;

	if (!req->ndev)
		return get_net(&init_net);
	rcu_read_lock();
	net = maybe_get_net(dev_net(req->ndev));
	rcu_read_unlock();
	return net;
}

/*
 * Does @cur take the REQ? It listens, on no device or on the REQ's, the
 * header asks for its address, and a listener bound to an interface gets
 * REQs for IPv6 link-local addresses of that interface only.
 */
static bool cma_req_takes(struct cma_id_priv *cur, const struct cma_req *req)
{
	const struct sockaddr_in6 *our6 = (const struct sockaddr_in6 *)&req->src;
	int bound_if = cur->id.route.addr.dev_addr.bound_dev_if;

	lockdep_assert_held(&cma.lock);
	if (cma_id_state(cur) != RDMA_CM_LISTEN)
		return false;
	if (cur->dev && cur->id.device != req->cm_id->device)
		return false;
	if (!cma_hdr_match(cur, req->ev->private_data))
		return false;
	if (our6->sin6_family == AF_INET6 &&
	    (ipv6_addr_type(&our6->sin6_addr) & IPV6_ADDR_LINKLOCAL) &&
	    bound_if && req->ndev && bound_if != req->ndev->ifindex)
		return false;
	return true;
}

/* The listener that takes the REQ in @net, referenced, or NULL. */
static struct cma_id_priv *cma_req_listener(struct net *net,
					    const struct cma_req *req)
{
	__be64 sid = req->service_id;
	struct xarray *xa = cma_ps_xa(net, cma_req_ps(sid));
	struct cma_id_priv *cur, *found = NULL;
	struct cma_bind *bind;

	if (!xa)
		return NULL;
	mutex_lock(&cma.lock);
	bind = xa_load(xa, cma_req_port(sid));
	if (bind) {
		hlist_for_each_entry(cur, &bind->owners, bind_node) {
			if (cma_req_takes(cur, req)) {
				found = cur;
				cma_id_get(found);
				break;
			}
		}
	}
	mutex_unlock(&cma.lock);
	return found;
}

/*
 * The REQ's paths (primary, and alternate if it has one) as the route. A
 * SIDR REQ has none: a UD id sends to whoever asks, by the address vector
 * of each work request.
 */
static int cma_req_route(struct cma_id_priv *priv, const struct cma_req *req)
{
	const struct ib_cm_req_event_param *p = &req->ev->param.req_rcvd;
	struct rdma_route *route = &priv->id.route;
	int n;

	if (req->sidr)
		return 0;
	n = p->alternate_path ? 2 : 1;
	route->path_rec = kcalloc(n, sizeof(*route->path_rec), GFP_KERNEL);
	if (!route->path_rec)
		return -ENOMEM;
	route->path_rec[0] = *p->primary_path;
	if (n == 2)
		route->path_rec[1] = *p->alternate_path;
	route->num_pri_alt_paths = n;
	return 0;
}

/*
 * The id's dev_addr and GID entry. RoCE: the link-level facts of the net
 * device the REQ came in on and the GID entry it came in on, which must
 * be the address the header says it is for; the peer's GID is its
 * address's. IB: the GIDs and P_Key of the path, the GID entry of our GID
 * on @port.
 */
static int cma_req_dev_addr(struct cma_id_priv *priv,
			    const struct cma_req *req, u32 port)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct sa_path_rec *path = priv->id.route.path_rec;
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	if (req->ndev) {
		attr = req->sgid_attr;
		rdma_ip2gid(cma_src_addr(priv), &gid);
		if (memcmp(&gid, &attr->gid, sizeof(gid)))
			return -EINVAL;
		rdma_copy_src_l2_addr(dev_addr, req->ndev);
		rdma_hold_gid_attr(attr);
		dev_addr->sgid_attr = attr;
		rdma_ip2gid(cma_dst_addr(priv), &gid);
		rdma_addr_set_dgid(dev_addr, &gid);
		return 0;
	}
	dev_addr->dev_type = ARPHRD_INFINIBAND;
	rdma_addr_set_sgid(dev_addr, &path->sgid);
	ib_addr_set_pkey(dev_addr, be16_to_cpu(path->pkey));
	attr = rdma_find_gid_by_port(req->cm_id->device, &path->sgid,
				     IB_GID_TYPE_IB, port, NULL);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	dev_addr->sgid_attr = attr;
	rdma_addr_set_dgid(dev_addr, &path->dgid);
	return 0;
}

/* Put the id on its device, if rdma_cm still has it. */
static int cma_req_attach(struct cma_id_priv *priv, struct ib_device *device,
			  u32 port)
{
	struct cma_device *dev;
	int ret = -ENODEV;

	priv->id.port_num = port;
	mutex_lock(&cma.lock);
	list_for_each_entry(dev, &cma.devices, node) {
		if (dev->device == device) {
			cma_id_attach(priv, dev);
			ret = 0;
			break;
		}
	}
	mutex_unlock(&cma.lock);
	if (!ret)
		priv->gid_type = priv->id.route.addr.dev_addr.sgid_attr->gid_type;
	return ret;
}

/*
 * CONNECT_REQUEST: the consumer's part of the REQ's private data (after
 * the CMA header, always the full 56 bytes) and the peer's parameters.
 * Then, unless the owner refused or answered already, the MRA is armed.
 * A SIDR REQ's: the consumer's part of its data (180 bytes), nothing
 * else; no MRA.
 */
static int cma_req_deliver(struct cma_id_priv *priv, const struct cma_req *req)
{
	struct rdma_cm_event sidr = {
		.event = RDMA_CM_EVENT_CONNECT_REQUEST,
		.param.ud = {
			.private_data = (const u8 *)req->ev->private_data +
					CMA_HDR_SIZE,
			.private_data_len = IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE -
					    CMA_HDR_SIZE,
		},
	};

	const struct ib_cm_req_event_param *p = &req->ev->param.req_rcvd;
	struct rdma_cm_event event = {
		.event = RDMA_CM_EVENT_CONNECT_REQUEST,
		.param.conn = {
			.private_data = (const u8 *)req->ev->private_data +
					CMA_HDR_SIZE,
			.private_data_len = IB_CM_REQ_PRIVATE_DATA_SIZE -
					    CMA_HDR_SIZE,
			.responder_resources = p->responder_resources,
			.initiator_depth = p->initiator_depth,
			.flow_control = p->flow_control,
			.retry_count = p->retry_count,
			.rnr_retry_count = p->rnr_retry_count,
			.srq = p->srq,
			.qp_num = p->remote_qpn,
		},
		.ece = p->ece,
	};

	if (req->sidr)
		return cma_event_deliver(priv, &sidr) ? CMA_DESTROY : 0;
	if (cma_event_deliver(priv, &event))
		return CMA_DESTROY;
	if (cma_id_state(priv) == RDMA_CM_CONNECT &&
	    priv->id.qp_type != IB_QPT_UD)
		ib_send_cm_mra(priv->ib, CMA_CM_MRA_SETTING, NULL, 0);
	return 0;
}

/**
 * cma_h_cm_req() - Cell IDLE x CM REQ: a new id for a REQ a listener took
 * @priv: the new id, made by the REQ handler; its handler_mutex is held
 * @in: @in->req, the REQ as the handler read it
 *
 * The id gets the header's addresses (ours with the service ID's port,
 * the peer's with the header's port), the REQ's paths as its route, its
 * dev_addr and GID entry, the REQ's device and port, and the REQ's IB CM
 * id; then its owner hears CONNECT_REQUEST.
 *
 * Return: 0, CMA_DESTROY when the owner refused, or a negative errno
 * (the id goes back to IDLE, without the IB CM id, to be destroyed).
 */
int cma_h_cm_req(struct cma_id_priv *priv, struct cma_in *in)
{
	const struct cma_req *req = in->req;
	int ret;

	if (priv->id.ps == RDMA_PS_IPOIB && req->ndev)
		return -EINVAL;
	memcpy(cma_src_addr(priv), &req->src, sizeof(req->src));
	memcpy(cma_dst_addr(priv), &req->dst, sizeof(req->dst));
	ret = cma_req_route(priv, req);
	if (ret)
		return ret;
	ret = cma_req_dev_addr(priv, req, req->port);
	if (ret)
		return ret;
	ret = cma_req_attach(priv, req->cm_id->device, req->port);
	if (ret)
		return ret;
	cma_conn_adopt(priv, req->cm_id);
	return cma_req_deliver(priv, req);
}

/**
 * cma_req_spawn() - Make a listener's new id for a connect request
 * @listener: the listening id the request is for
 * @ps: the new id's port space
 * @qp_type: the new id's QP type
 * @in: the table input that hands the request to the new id
 *
 * Allocates the new id and runs @in on it under @listener's handler lock,
 * so the listener cannot stop (or be destroyed) half way; the cell reads
 * what it needs of the listener there. When the cell fails, the CM's id
 * is forgotten (the CM destroys it on our non-zero return) and the new id
 * destroyed.
 *
 * Context: process; sleeps. Takes both handler locks, the new one nested.
 * Return: 0 when the new id took the request; -ECONNABORTED when the
 * listener stopped, -ENOMEM, the cell's errno, or -ECONNREFUSED when the
 * owner refused it.
 */
int cma_req_spawn(struct cma_id_priv *listener, enum rdma_ucm_port_space ps,
		  enum ib_qp_type qp_type, struct cma_in *in)
{
	struct cma_id_priv *priv;
	int ret;

	mutex_lock(&listener->handler_mutex);
	if (cma_id_state(listener) != RDMA_CM_LISTEN) {
		mutex_unlock(&listener->handler_mutex);
		return -ECONNABORTED;
	}
	priv = cma_id_alloc(cma_id_net(listener), listener->id.event_handler,
			    listener->id.context, ps, qp_type,
			    &listener->row, NULL);
	if (IS_ERR(priv)) {
		mutex_unlock(&listener->handler_mutex);
		return PTR_ERR(priv);
	}
	mutex_lock_nested(&priv->handler_mutex, SINGLE_DEPTH_NESTING);
	ret = cma_table_run(priv, in);
	mutex_unlock(&listener->handler_mutex);
	if (!ret) {
		mutex_unlock(&priv->handler_mutex);
		return 0;
	}
	priv->ib = NULL;
	priv->iw = NULL;
	cma_id_destroy_unlock(priv);
	return ret < 0 ? ret : -ECONNREFUSED;
}

/**
 * cma_req_handler() - The IB CM handler of rdma_cm's listeners
 * @ib: the IB CM id ib_cm made for the request
 * @ev: the event, IB_CM_REQ_RECEIVED or IB_CM_SIDR_REQ_RECEIVED
 *
 * Registered with ib_cm_insert_listen(); finds the listener of the REQ
 * and makes the new id, which takes @ib over.
 *
 * Context: ib_cm's event work of @ib; sleeps.
 * Return: 0 when a new id took the REQ; non-zero to have ib_cm destroy
 * @ib and reject the REQ: -EINVAL or -EAFNOSUPPORT for a bad CMA header,
 * -EINVAL for a QP type the listener does not take or a GID entry that is
 * not the header's address, -ENODEV or -EHOSTUNREACH for a RoCE REQ
 * without a usable net device, -ECONNREFUSED when no listener takes it or
 * its owner refused it, -ECONNABORTED when the listener stopped,
 * -EOPNOTSUPP for a SIDR REQ on IB or another event; -ENOMEM (no REJ:
 * the peer tries again).
 */
int cma_req_handler(struct ib_cm_id *ib, const struct ib_cm_event *ev)
{
	struct cma_req req = { .ev = ev, .cm_id = ib };
	struct cma_in in = {
		.input = CMA_IN_CM_REQ, .cm_event = ev, .req = &req,
	};
	const struct ib_cm_req_event_param *p = &ev->param.req_rcvd;
	const struct ib_cm_sidr_req_event_param *s = &ev->param.sidr_req_rcvd;
	struct cma_id_priv *listener;
	struct net *net;
	int ret;

	if (ev->event == IB_CM_REQ_RECEIVED) {
		if (!p->primary_path)
			return -EINVAL;
		req.service_id = p->primary_path->service_id;
		req.port = p->port;
		req.qp_type = p->qp_type;
		req.sgid_attr = p->ppath_sgid_attr;
	} else if (ev->event == IB_CM_SIDR_REQ_RECEIVED) {
		req.sidr = true;
		req.service_id = s->service_id;
		req.port = s->port;
		req.qp_type = IB_QPT_UD;
		req.sgid_attr = s->sgid_attr;
	} else {
		return -EOPNOTSUPP;
	}
	if (!ev->private_data || !rdma_is_port_valid(ib->device, req.port))
		return -EINVAL;
	ret = cma_hdr_parse(ev->private_data, req.service_id,
			    &req.src, &req.dst);
	if (ret)
		return ret;
	ret = cma_req_ndev(&req);
	if (ret)
		return ret;
	net = cma_req_net(&req);
	if (!net) {
		ret = -ENODEV;
		goto out;
	}
	listener = cma_req_listener(net, &req);
	put_net(net);
	if (!listener) {
		pr_debug("no listener for service id %llx\n",
			 be64_to_cpu(req.service_id));
		ret = -ECONNREFUSED;
		goto out;
	}
	/* A listener of QP type 0 (IB_QPT_SMI) takes any, as in 6.1. */
	if (listener->id.qp_type && listener->id.qp_type != req.qp_type)
		ret = -EINVAL;
	else
		ret = cma_req_spawn(listener, listener->id.ps, req.qp_type,
				    &in);
	cma_id_put(listener);
out:
	dev_put(req.ndev);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cma_req_handler);
