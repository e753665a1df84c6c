// SPDX-License-Identifier: GPL-2.0-only
/* rdma_cm's small calls: options an owner sets before connecting, and what it can read back. */

#include <rdma/ib.h>

#include "cma/cma.h"

/**
 * rdma_set_service_type() - Set the IP type of service of an id's traffic
 * @id: the id
 * @tos: the TOS byte (DSCP and ECN); used on RoCE for the traffic class
 *	 and service level of the route, so set it before
 *	 rdma_resolve_route()
 *
 * Context: process context; takes the id's qp_mutex.
 */
void rdma_set_service_type(struct rdma_cm_id *id, int tos)
{
	struct cma_id_priv *priv = to_cma_id(id);

	mutex_lock(&priv->qp_mutex);
	priv->tos = (u8)tos;
	priv->tos_set = true;
	mutex_unlock(&priv->qp_mutex);
}
EXPORT_SYMBOL(rdma_set_service_type);

/**
 * rdma_set_ack_timeout() - Set the local ACK timeout of an id's QP
 * @id: an id of an RC or XRC initiator QP
 * @timeout: 4.096 us * 2^@timeout; 0 turns the timer off
 *
 * Applies to the primary path of the QP rdma_cm moves to RTS (call before
 * rdma_connect() or rdma_accept()); not negotiated with the peer. Set
 * before rdma_resolve_route(), it also gives a RoCE route its packet life
 * time (@timeout - 1).
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: 0, or -EINVAL for an id of another QP type.
 */
int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout)
{
	struct cma_id_priv *priv = to_cma_id(id);

	if (id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	mutex_lock(&priv->qp_mutex);
	priv->timeout = timeout;
	priv->timeout_set = true;
	mutex_unlock(&priv->qp_mutex);
	return 0;
}
EXPORT_SYMBOL(rdma_set_ack_timeout);

/**
 * rdma_set_min_rnr_timer() - Set the RNR NAK timer of an id's QP
 * @id: an id of an RC or XRC target QP
 * @min_rnr_timer: the 5-bit encoding of IBA's RNR NAK timer field; the
 *	default 0 stands for 655.36 ms
 *
 * The wait the peer is told to observe when our receive queue is empty;
 * call before rdma_connect() or rdma_accept().
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: 0, or -EINVAL for a value over 5 bits or an id of another QP
 * type (which also warns: no ULP should do that).
 */
int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer)
{
	struct cma_id_priv *priv = to_cma_id(id);

	if (min_rnr_timer > 0x1f)
		return -EINVAL;
	if (WARN_ON(id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_TGT))
		return -EINVAL;
	mutex_lock(&priv->qp_mutex);
	priv->min_rnr_timer = min_rnr_timer;
	priv->min_rnr_timer_set = true;
	mutex_unlock(&priv->qp_mutex);
	return 0;
}
EXPORT_SYMBOL(rdma_set_min_rnr_timer);

/*
 * Set a state-dependent option: @ok says whether @priv's state allows it.
 * The state is read and the option written under the id's lock, so a
 * bind or listen running at the same time sees the option or refuses it.
 */
static int cma_option_set(struct cma_id_priv *priv,
			  bool (*ok)(enum rdma_cm_state state, int val),
			  bool *option, int val, bool *set)
{
	unsigned long flags;
	int ret = -EINVAL;

	spin_lock_irqsave(&priv->lock, flags);
	if (ok(priv->state, val)) {
		*option = val;
		if (set)
			*set = true;
		ret = 0;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}

/* Before the bind; turning it on also later, until the id listens. */
static bool cma_reuseaddr_ok(enum rdma_cm_state state, int reuse)
{
	return state == RDMA_CM_IDLE || (reuse && state != RDMA_CM_LISTEN);
}

/**
 * rdma_set_reuseaddr() - Let an id share its port with other ids
 * @id: the id
 * @reuse: non-zero to share
 *
 * An id bound with reuse may share its port with other such ids unless
 * one of them listens; a listener must have the port to itself.
 *
 * Context: any; takes the id's lock.
 * Return: 0, or -EINVAL when the id's state no longer allows the change
 * (turning it off after the bind, anything once listening).
 */
int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse)
{
	struct cma_id_priv *priv = to_cma_id(id);

	return cma_option_set(priv, cma_reuseaddr_ok, &priv->reuseaddr,
			      !!reuse, NULL);
}
EXPORT_SYMBOL(rdma_set_reuseaddr);

/* Before the id listens or resolves. */
static bool cma_afonly_ok(enum rdma_cm_state state, int afonly)
{
	return state == RDMA_CM_IDLE || state == RDMA_CM_ADDR_BOUND;
}

/**
 * rdma_set_afonly() - Keep an IPv6 id's port to IPv6
 * @id: the id
 * @afonly: non-zero: an IPv6 wildcard bind does not also claim the port
 *	    for IPv4
 *
 * Without this call the namespace's net.ipv6.bindv6only decides, as for
 * sockets.
 *
 * Context: any; takes the id's lock.
 * Return: 0, or -EINVAL once the id is past ADDR_BOUND.
 */
int rdma_set_afonly(struct rdma_cm_id *id, int afonly)
{
	struct cma_id_priv *priv = to_cma_id(id);

	return cma_option_set(priv, cma_afonly_ok, &priv->afonly, !!afonly,
			      &priv->afonly_set);
}
EXPORT_SYMBOL(rdma_set_afonly);

/**
 * rdma_get_service_id() - The IB service ID an address maps to
 * @id: the id, whose port space is used
 * @addr: an IP address and port, or an AF_IB address
 *
 * For IP: the port space in bits 16-31 and the port in bits 0-15 (TCP's
 * port 7174 is 0x0000000001061c06); for AF_IB the address's own SID.
 *
 * Context: any.
 * Return: the service ID, network order.
 */
__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr)
{
	if (addr->sa_family == AF_IB)
		return ((struct sockaddr_ib *)addr)->sib_sid;
	return cpu_to_be64(((u64)id->ps << 16) | ntohs(cma_addr_port(addr)));
}
EXPORT_SYMBOL(rdma_get_service_id);

/* One end's GID: its IP address on RoCE, the resolved GID elsewhere. */
static void cma_read_gid(struct rdma_cm_id *id, bool src, union ib_gid *gid)
{
	struct rdma_addr *addr = &id->route.addr;
	struct sockaddr_storage *ip = src ? &addr->src_addr : &addr->dst_addr;

	if (!id->device)
		memset(gid, 0, sizeof(*gid));
	else if (rdma_protocol_roce(id->device, id->port_num))
		rdma_ip2gid((struct sockaddr *)ip, gid);
	else if (src)
		rdma_addr_get_sgid(&addr->dev_addr, gid);
	else
		rdma_addr_get_dgid(&addr->dev_addr, gid);
}

/**
 * rdma_read_gids() - The source and destination GIDs of an id
 * @cm_id: the id
 * @sgid: set to the source GID, if not NULL
 * @dgid: set to the destination GID, if not NULL
 *
 * On RoCE they are the id's IP addresses as GIDs, on IB the GIDs address
 * resolution found. An id on no device gets zeroes.
 *
 * Context: any.
 */
void rdma_read_gids(struct rdma_cm_id *cm_id, union ib_gid *sgid,
		    union ib_gid *dgid)
{
	if (sgid)
		cma_read_gid(cm_id, true, sgid);
	if (dgid)
		cma_read_gid(cm_id, false, dgid);
}
EXPORT_SYMBOL(rdma_read_gids);

/**
 * rdma_iw_cm_id() - The iw_cm id under an rdma_cm id
 * @cm_id: the id
 *
 * An iWARP id has one from rdma_connect() on (the active side) or from
 * its connect request (the passive side); a listener's are its own.
 *
 * Context: any.
 * Return: the iw_cm id, or NULL (not iWARP, or not connecting yet).
 */
struct iw_cm_id *rdma_iw_cm_id(struct rdma_cm_id *cm_id)
{
	return to_cma_id(cm_id)->iw;
}
EXPORT_SYMBOL(rdma_iw_cm_id);

/**
 * rdma_res_to_id() - The rdma_cm id of a resource tracking entry
 * @res: an entry of type RDMA_RESTRACK_CM_ID
 *
 * The row of a listener on a wildcard address on one device (6.1 shows
 * an internal id of the listener's there) gives the listener itself.
 *
 * Context: any; @res held or known to be listed.
 * Return: the id @res shows.
 */
struct rdma_cm_id *rdma_res_to_id(struct rdma_restrack_entry *res)
{
	return &container_of(res, struct cma_row, res)->priv->id;
}
EXPORT_SYMBOL(rdma_res_to_id);
