// SPDX-License-Identifier: GPL-2.0-only
/*
 * Multicast groups of UD ids on RoCE: rdma_join_multicast(),
 * rdma_leave_multicast(), and the groups an id leaves when it goes.
 */

#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_sa.h>

#include "cma/cma.h"

/*
 * RoCE has no subnet manager: joining a group is local. The group's GID
 * is its IP address (an IPv4 group as ::ffff:a.b.c.d, with the ff0e::
 * prefix for RoCE v1), the member record is made up from the net device
 * (its MTU, all P_Keys, the default rate), and the owner hears
 * MULTICAST_JOIN from rdma_cm's workqueue with an address vector to the
 * group, QP number 0xffffff and the id's Q_Key. It attaches its QP itself
 * (ib_attach_mcast()): as in 6.1, the call refuses ids whose QP rdma_cm
 * made. With RoCE v2 the net device also joins the IPv4 group (not for a
 * send-only join), so that the switch and the kernel deliver the group's
 * packets to it; IPv6 groups over RoCE v2 are refused (-ENOTSUPP, 6.1's
 * answer). InfiniBand groups, joined through the SA, are not built here.
 *
 * The groups are on the id's @mcasts under its @lock. Leaving, or the
 * id's destruction, takes a group off, drops the IPv4 membership and
 * waits for its event to be delivered or cancelled.
 */

/**
 * struct cma_mcast - one group an id joined
 * @node: in the id's @mcasts, under its @lock
 * @priv: the id
 * @addr: the group's address, as the owner gave it
 * @context: the owner's, returned with the event
 * @join_state: the JoinState bits of the join
 * @igmp: the net device joined @mgid's IPv4 group (RoCE v2, not send-only)
 * @mgid: the group's GID
 * @work: delivers @event
 * @event: MULTICAST_JOIN or MULTICAST_ERROR, made at join time
 */
struct cma_mcast {
	struct list_head	node;
	struct cma_id_priv	*priv;
	struct sockaddr_storage	addr;
	void			*context;
	u8			join_state;
	bool			igmp;
	union ib_gid		mgid;
	struct work_struct	work;
	struct rdma_cm_event	event;
};

/* The GID of the group at @addr for ids using @type GIDs. */
static void cma_mcast_mgid(const struct sockaddr *addr, enum ib_gid_type type,
			   union ib_gid *mgid)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;

	memset(mgid, 0, sizeof(*mgid));
	if (cma_addr_any(addr))
		return;
	if (addr->sa_family == AF_INET6) {
		memcpy(mgid->raw,
		       &((const struct sockaddr_in6 *)addr)->sin6_addr, 16);
		return;
	}
	if (type != IB_GID_TYPE_ROCE_UDP_ENCAP) {
		mgid->raw[0] = 0xff;
		mgid->raw[1] = 0x0e;
	}
	mgid->raw[10] = 0xff;
	mgid->raw[11] = 0xff;
	memcpy(&mgid->raw[12], &sin->sin_addr.s_addr, 4);
}

/* The id's net device, held, or NULL. */
static struct net_device *cma_mcast_ndev(struct cma_id_priv *priv)
{
	const struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;

	if (!dev_addr->bound_dev_if)
		return NULL;
	return dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
}

/* Join or leave the IPv4 group in the last 4 bytes of @mgid on @ndev. */
static int cma_mcast_igmp(struct net_device *ndev, const union ib_gid *mgid,
			  bool join)
{
	struct in_device *in_dev;
	__be32 group;

	memcpy(&group, &mgid->raw[12], sizeof(group));
	rtnl_lock();
	in_dev = __in_dev_get_rtnl(ndev);
	if (in_dev) {
		if (join)
			ip_mc_inc_group(in_dev, group);
		else
			ip_mc_dec_group(in_dev, group);
	}
	rtnl_unlock();
	return in_dev ? 0 : -ENODEV;
}

/* Deliver a join's event, unless the id is going. */
static void cma_mcast_work(struct work_struct *work)
{
	struct cma_mcast *mc = container_of(work, struct cma_mcast, work);
	struct cma_id_priv *priv = mc->priv;
	enum rdma_cm_state state;

	mutex_lock(&priv->handler_mutex);
	state = cma_id_state(priv);
	/* The owner may not ask for destruction from this event (6.1 warns). */
	if (state != RDMA_CM_DESTROYING && state != RDMA_CM_DEVICE_REMOVAL)
		WARN_ON(cma_event_deliver(priv, &mc->event));
	mutex_unlock(&priv->handler_mutex);
}

/*
 * The member record RoCE makes up for a group, the event that tells the
 * owner about it, and the IPv4 membership. Return: 0, -EINVAL for the
 * wildcard group or a net device too small for RoCE, -ENODEV without a
 * net device, -ENOTSUPP for IPv6 groups on RoCE v2.
 */
static int cma_mcast_roce_join(struct cma_id_priv *priv, struct cma_mcast *mc)
{
	struct sockaddr *addr = (struct sockaddr *)&mc->addr;
	struct rdma_cm_id *id = &priv->id;
	enum ib_gid_type type = cma_device_gid_type(priv->dev, id->port_num);
	bool send_only = mc->join_state == BIT(SENDONLY_FULLMEMBER_JOIN);
	struct ib_sa_mcmember_rec rec = {
		.pkey = cpu_to_be16(0xffff),
		.rate = IB_RATE_PORT_CURRENT,
		.hop_limit = 1,
	};
	struct net_device *ndev;
	int ret = 0;

	if (cma_addr_any(addr))
		return -EINVAL;
	cma_mcast_mgid(addr, type, &mc->mgid);
	rec.mgid = mc->mgid;
	ndev = cma_mcast_ndev(priv);
	if (!ndev)
		return -ENODEV;
	rec.mtu = iboe_get_mtu(ndev->mtu);
	if (type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
		if (addr->sa_family != AF_INET)
			ret = -ENOTSUPP;
		rec.hop_limit = IPV6_DEFAULT_HOPLIMIT;
	}
	if (!ret && !rec.mtu)
		ret = -EINVAL;
	if (!ret && type == IB_GID_TYPE_ROCE_UDP_ENCAP && !send_only) {
		ret = cma_mcast_igmp(ndev, &mc->mgid, true);
		mc->igmp = !ret;
	}
	if (ret)
		goto out;

	mutex_lock(&priv->qp_mutex);
	cma_ud_qkey_set(priv, 0);
	mutex_unlock(&priv->qp_mutex);
	rdma_ip2gid(cma_src_addr(priv), &rec.port_gid);
	mc->event.param.ud.private_data = mc->context;
	mc->event.event = RDMA_CM_EVENT_MULTICAST_JOIN;
	if (ib_init_ah_from_mcmember(id->device, id->port_num, &rec, ndev,
				     type, &mc->event.param.ud.ah_attr)) {
		mc->event.event = RDMA_CM_EVENT_MULTICAST_ERROR;
	} else {
		mc->event.param.ud.qp_num = 0xffffff;
		mc->event.param.ud.qkey = priv->qkey;
	}
out:
	dev_put(ndev);
	return ret;
}

/* Undo a join: the IPv4 membership, the event not yet delivered. */
static void cma_mcast_free(struct cma_id_priv *priv, struct cma_mcast *mc)
{
	struct net_device *ndev;

	if (mc->igmp) {
		ndev = cma_mcast_ndev(priv);
		if (ndev)
			cma_mcast_igmp(ndev, &mc->mgid, false);
		dev_put(ndev);
	}
	cancel_work_sync(&mc->work);
	if (mc->event.event == RDMA_CM_EVENT_MULTICAST_JOIN)
		rdma_destroy_ah_attr(&mc->event.param.ud.ah_attr);
	kfree(mc);
}

/**
 * cma_h_join() - Cells ADDR_BOUND and ADDR_RESOLVED x join
 * @priv: the id
 * @in: @in->addr, the group; @in->arg, the JoinState bits; @in->ctx, the
 *	owner's context
 *
 * Return: 0 (the event follows from the workqueue); -EINVAL for an id
 * on no device, not UD, or whose QP rdma_cm made; -ENOMEM; -EOPNOTSUPP
 * on an InfiniBand port; see cma_mcast_roce_join().
 */
int cma_h_join(struct cma_id_priv *priv, struct cma_in *in)
{
	struct rdma_cm_id *id = &priv->id;
	struct cma_mcast *mc;
	unsigned long flags;
	int ret;

	if (!id->device || id->qp || id->qp_type != IB_QPT_UD)
		return -EINVAL;
	if (!rdma_protocol_roce(id->device, id->port_num))
		return -EOPNOTSUPP;
	mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc)
		return -ENOMEM;
	memcpy(&mc->addr, in->addr, rdma_addr_size(in->addr));
	mc->priv = priv;
	mc->context = in->ctx;
	mc->join_state = in->arg;
	INIT_WORK(&mc->work, cma_mcast_work);
	ret = cma_mcast_roce_join(priv, mc);
	if (ret) {
		kfree(mc);
		return ret;
	}
	spin_lock_irqsave(&priv->lock, flags);
	list_add_tail(&mc->node, &priv->mcasts);
	spin_unlock_irqrestore(&priv->lock, flags);
	queue_work(cma_wq, &mc->work);
	return 0;
}

/**
 * rdma_join_multicast() - Join a multicast group
 * @id: a UD id, bound to an address on a device or with its address
 *	resolved, without a QP of rdma_create_qp()
 * @addr: the group's IP address
 * @join_state: the JoinState bits (BIT(FULLMEMBER_JOIN),
 *		BIT(SENDONLY_FULLMEMBER_JOIN), ...)
 * @context: returned in the event's param.ud.private_data
 *
 * The owner hears MULTICAST_JOIN (the address vector to the group, QP
 * number 0xffffff, the id's Q_Key) or MULTICAST_ERROR, and attaches its
 * QP with ib_attach_mcast() itself.
 *
 * Context: process context, sleeps.
 * Return: 0; -EINVAL in another state (see cma_h_join() for the rest).
 */
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	struct cma_in in = {
		.input = CMA_IN_JOIN, .addr = addr, .arg = join_state,
		.ctx = context,
	};

	if (!cma_addr_family_ok(addr))
		return -EINVAL;
	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_join_multicast);

/**
 * rdma_leave_multicast() - Leave a multicast group
 * @id: the id that joined
 * @addr: the group's address, as joined
 *
 * Nothing happens for a group the id has not joined. The owner detaches
 * its QP first.
 *
 * Context: process context, sleeps (waits for the join's event).
 */
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct cma_id_priv *priv = to_cma_id(id);
	struct cma_mcast *mc, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	list_for_each_entry(mc, &priv->mcasts, node) {
		if (!memcmp(&mc->addr, addr, rdma_addr_size(addr))) {
			list_del(&mc->node);
			found = mc;
			break;
		}
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	if (found)
		cma_mcast_free(priv, found);
}
EXPORT_SYMBOL(rdma_leave_multicast);

/**
 * cma_mcast_leave_all() - Leave every group of an id being destroyed
 * @priv: the id; its handler_mutex is not held (a join's event may be
 *	  waiting for it)
 *
 * Context: process context, sleeps.
 */
void cma_mcast_leave_all(struct cma_id_priv *priv)
{
	struct cma_mcast *mc;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&priv->lock, flags);
		mc = list_first_entry_or_null(&priv->mcasts, struct cma_mcast,
					      node);
		if (mc)
			list_del(&mc->node);
		spin_unlock_irqrestore(&priv->lock, flags);
		if (!mc)
			return;
		cma_mcast_free(priv, mc);
	}
}
