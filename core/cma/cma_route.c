// SPDX-License-Identifier: GPL-2.0-only
/* rdma_resolve_route() on RoCE (a path record built locally, no SA) and rdma_set_ib_path(). */

#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/route.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_cm_ib.h>

#include "cma/cma.h"
#include "roce/roce.h"

/*
 * A RoCE route is the path record the IB CM will put in its REQ, made up
 * from what address resolution found (CM-UVERBS 1d): the IP addresses as
 * GIDs, the route's hop limit, P_Key 0xffff, traffic class and SL from
 * the type of service, the MTU of the net device, the packet life time,
 * and for RoCE v2 a flow label from the ports. There is no query, but the
 * result is still an event: ROUTE_RESOLVED from the id's work item, so
 * the owner's handler never runs inside its own call.
 */

/* The packet life time of a RoCE route when no ACK timeout was set. */
#define CMA_ROCE_PACKET_LIFE_TIME	18

/*
 * The GID type of the route: RoCE v2 for an IP network where the port
 * has it, else the id's; never below what the network type implies.
 */
static enum ib_gid_type cma_route_gid_type(struct cma_id_priv *priv)
{
	enum rdma_network_type net = priv->id.route.addr.dev_addr.network;
	unsigned long mask = roce_gid_type_mask_support(priv->id.device,
							priv->id.port_num);
	enum ib_gid_type type = priv->gid_type;

	if ((net == RDMA_NETWORK_IPV4 || net == RDMA_NETWORK_IPV6) &&
	    (mask & BIT(IB_GID_TYPE_ROCE_UDP_ENCAP)))
		type = IB_GID_TYPE_ROCE_UDP_ENCAP;
	return max(type, ib_network_to_gid_type(net));
}

/*
 * The Ethernet side of a RoCE path: its record type, next-hop MAC. Return:
 * the bound net device, referenced, or NULL if there is none.
 */
static struct net_device *cma_route_l2(struct cma_id_priv *priv,
				       struct sa_path_rec *rec)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct net_device *ndev;

	if (!dev_addr->bound_dev_if)
		return NULL;
	ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
	if (!ndev)
		return NULL;
	rec->rec_type = sa_conv_gid_to_pathrec_type(cma_route_gid_type(priv));
	rec->roce.route_resolved = true;
	sa_path_set_dmac(rec, dev_addr->dst_dev_addr);
	return ndev;
}

/*
 * The SL of a type of service: the net device's traffic class for the
 * TOS's priority. (6.1 also follows VLAN egress maps: not done.)
 */
static u8 cma_route_sl(struct net_device *ndev, u8 tos)
{
	if (!ndev->num_tc)
		return 0;
	return netdev_get_prio_tc_map(ndev, rt_tos2priority(tos));
}

/*
 * RoCE v2's flow label: the one an IPv6 source carries, else one spread
 * by the ports (source * 31 + destination), 20 bits.
 */
static __be32 cma_route_flow_label(struct cma_id_priv *priv)
{
	struct sockaddr_in6 *src6 = (struct sockaddr_in6 *)cma_src_addr(priv);
	u32 fl = 0;

	if (src6->sin6_family == AF_INET6)
		fl = be32_to_cpu(src6->sin6_flowinfo) & IB_GRH_FLOWLABEL_MASK;
	if (!fl)
		fl = (ntohs(cma_addr_port(cma_src_addr(priv))) * 31 +
		      ntohs(cma_addr_port(cma_dst_addr(priv)))) &
		     IB_GRH_FLOWLABEL_MASK;
	return cpu_to_be32(fl);
}

/* Fill @rec from the id and @ndev. Takes the id's qp_mutex. */
static void cma_route_fill(struct cma_id_priv *priv, struct sa_path_rec *rec,
			   struct net_device *ndev)
{
	struct rdma_addr *addr = &priv->id.route.addr;
	u8 tos;

	mutex_lock(&priv->qp_mutex);
	tos = priv->tos_set ? priv->tos :
	      cma_device_roce_tos(priv->dev, priv->id.port_num);
	rec->packet_life_time = priv->timeout_set && priv->timeout ?
				priv->timeout - 1 : CMA_ROCE_PACKET_LIFE_TIME;
	mutex_unlock(&priv->qp_mutex);

	rdma_ip2gid((struct sockaddr *)&addr->src_addr, &rec->sgid);
	rdma_ip2gid((struct sockaddr *)&addr->dst_addr, &rec->dgid);
	rec->hop_limit = addr->dev_addr.hoplimit;
	rec->reversible = 1;
	rec->pkey = cpu_to_be16(0xffff);
	rec->traffic_class = tos;
	rec->sl = cma_route_sl(ndev, tos);
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = iboe_get_mtu(ndev->mtu);
	rec->rate_selector = IB_SA_EQ;
	rec->rate = IB_RATE_PORT_CURRENT;
	rec->packet_life_time_selector = IB_SA_EQ;
	if (rdma_protocol_roce_udp_encap(priv->id.device, priv->id.port_num))
		rec->flow_label = cma_route_flow_label(priv);
}

/* Publish @rec as the id's one path (NULL: none). */
static void cma_route_set(struct cma_id_priv *priv, struct sa_path_rec *rec)
{
	kfree(priv->id.route.path_rec);
	priv->id.route.path_rec = rec;
	priv->id.route.num_pri_alt_paths = rec ? 1 : 0;
}

static int cma_route_roce(struct cma_id_priv *priv)
{
	struct sa_path_rec *rec;
	struct net_device *ndev;
	int ret = 0;

	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	ndev = cma_route_l2(priv, rec);
	if (!ndev) {
		ret = -ENODEV;
		goto err_rec;
	}
	cma_route_fill(priv, rec, ndev);
	dev_put(ndev);
	if (!rec->mtu) {
		ret = -EINVAL;
		goto err_rec;
	}
	cma_route_set(priv, rec);
	return 0;

err_rec:
	kfree(rec);
	return ret;
}

/**
 * cma_h_resolve_route() - Cell ADDR_RESOLVED x resolve_route
 * @priv: the id, on its device
 * @in: the input
 *
 * RoCE: the path is built now and ROUTE_RESOLVED queued. iWARP has no
 * path (TCP finds its way): ROUTE_RESOLVED is queued at once, as in 6.1.
 * IB needs a PathRecord query to the SA: not built.
 *
 * Return: 0; -ENODEV without a bound net device; -EINVAL for an MTU RoCE
 * cannot use; -ENOMEM; -EOPNOTSUPP on IB.
 */
int cma_h_resolve_route(struct cma_id_priv *priv, struct cma_in *in)
{
	int ret;

	if (rdma_protocol_iwarp(priv->id.device, priv->id.port_num)) {
		cma_work_queue(priv, CMA_IN_ROUTE_OK, 0);
		return 0;
	}

	if (!rdma_protocol_roce(priv->id.device, priv->id.port_num))
		return -EOPNOTSUPP;
	ret = cma_route_roce(priv);
	if (ret)
		return ret;
	cma_neigh_watch(priv);
	cma_work_queue(priv, CMA_IN_ROUTE_OK, 0);
	return 0;
}

/* Cell ROUTE_QUERY x route resolved: the owner hears ROUTE_RESOLVED. */
int cma_h_route_ok(struct cma_id_priv *priv, struct cma_in *in)
{
	return cma_event_simple(priv, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
}

/* Cell ROUTE_QUERY x route error: no path; ROUTE_ERROR with the errno. */
int cma_h_route_err(struct cma_id_priv *priv, struct cma_in *in)
{
	cma_route_set(priv, NULL);
	return cma_event_simple(priv, RDMA_CM_EVENT_ROUTE_ERROR, in->status);
}

/**
 * rdma_resolve_route() - Find the path to an id's destination
 * @id: an id in ADDR_RESOLVED
 * @timeout_ms: how long a query may take (must not be 0)
 *
 * The second step of the active side; ends with ROUTE_RESOLVED (the path
 * in id->route.path_rec) or ROUTE_ERROR. On RoCE, set the type of
 * service and the ACK timeout before: they go into the path.
 *
 * Context: process context, may sleep; may be called from the id's
 * ADDR_RESOLVED handler.
 * Return: 0 when ROUTE_RESOLVED is on its way; -EINVAL for a zero
 * timeout or in another state; the errnos of cma_h_resolve_route().
 */
int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms)
{
	struct cma_in in = {
		.input = CMA_IN_RESOLVE_ROUTE,
		.timeout_ms = timeout_ms,
	};

	if (!timeout_ms)
		return -EINVAL;
	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_resolve_route);

/* Cell ADDR_RESOLVED x set_ib_path: @in->path becomes the id's route. */
int cma_h_set_ib_path(struct cma_id_priv *priv, struct cma_in *in)
{
	struct sa_path_rec *rec;
	struct net_device *ndev;

	rec = kmemdup(in->path, sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	if (rdma_protocol_roce(priv->id.device, priv->id.port_num)) {
		ndev = cma_route_l2(priv, rec);
		if (!ndev) {
			kfree(rec);
			return -ENODEV;
		}
		dev_put(ndev);
	}
	cma_route_set(priv, rec);
	return 0;
}

/**
 * rdma_set_ib_path() - Give an id its path instead of resolving it
 * @id: an id in ADDR_RESOLVED
 * @path_rec: the path (copied); on RoCE its L2 fields are completed from
 *	      the id's address
 *
 * The id moves to ROUTE_RESOLVED at once; no event follows.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL in another state; -ENOMEM; -ENODEV on RoCE without a
 * bound net device.
 */
int rdma_set_ib_path(struct rdma_cm_id *id, struct sa_path_rec *path_rec)
{
	struct cma_in in = { .input = CMA_IN_SET_IB_PATH, .path = path_rec };

	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_set_ib_path);
