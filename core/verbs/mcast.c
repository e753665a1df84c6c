// SPDX-License-Identifier: GPL-2.0-only
/* Multicast: attaching UD QPs to multicast groups and detaching them. */
/*
 * Each attachment counts in the QP's usecnt, so a QP cannot be destroyed
 * while still attached. The group itself must have been joined through
 * the SA (or, on RoCE, exist on the Ethernet side); this only tells the
 * device to deliver the group's packets to the QP.
 */

#include <linux/export.h>
#include <linux/in6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>

/* An InfiniBand multicast LID: in the multicast range, not the permissive LID. */
static bool mcast_ib_lid_ok(u16 lid)
{
	return lid >= be16_to_cpu(IB_MULTICAST_LID_BASE) &&
	       lid != be16_to_cpu(IB_LID_PERMISSIVE);
}

/* Whether any port of @dev runs on something other than InfiniBand. */
static bool mcast_dev_has_eth_port(struct ib_device *dev)
{
	u32 port;

	rdma_for_each_port(dev, port)
		if (rdma_port_get_link_layer(dev, port) !=
		    IB_LINK_LAYER_INFINIBAND)
			return true;
	return false;
}

/*
 * RoCE ignores multicast LIDs, so @lid is only checked where it matters:
 * on the QP's port once the QP has one (INIT or later), else only if
 * every port of the device is InfiniBand.
 */
static bool mcast_lid_ok(struct ib_qp *qp, u16 lid)
{
	struct ib_qp_init_attr init_attr = {};
	struct ib_qp_attr attr = {};

	if (!ib_query_qp(qp, &attr, IB_QP_STATE | IB_QP_PORT, &init_attr) &&
	    attr.qp_state >= IB_QPS_INIT) {
		if (rdma_port_get_link_layer(qp->device, attr.port_num) !=
		    IB_LINK_LAYER_INFINIBAND)
			return true;
		return mcast_ib_lid_ok(lid);
	}
	if (mcast_dev_has_eth_port(qp->device))
		return true;
	return mcast_ib_lid_ok(lid);
}

/* What both directions require: a multicast GID, a UD QP, a usable LID. */
static bool mcast_args_ok(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	return rdma_is_multicast_addr((struct in6_addr *)gid->raw) &&
	       qp->qp_type == IB_QPT_UD && mcast_lid_ok(qp, lid);
}

/*
 * Attach @qp to the group (@join) or detach it. Every attachment counts
 * in qp->usecnt, so a QP cannot be destroyed while it is in a group.
 */
static int mcast_change(struct ib_qp *qp, union ib_gid *gid, u16 lid,
			bool join)
{
	const struct ib_device_ops *ops = &qp->device->ops;
	int (*change)(struct ib_qp *group_qp, union ib_gid *group_gid,
		      u16 group_lid) = join ? ops->attach_mcast :
					      ops->detach_mcast;
	int err;

	if (!change)
		return -EOPNOTSUPP;
	if (!mcast_args_ok(qp, gid, lid))
		return -EINVAL;
	err = change(qp, gid, lid);
	if (err)
		return err;
	if (join)
		atomic_inc(&qp->usecnt);
	else
		atomic_dec(&qp->usecnt);
	return 0;
}

/**
 * ib_attach_mcast() - deliver a multicast group's packets to a QP
 * @qp: a UD QP
 * @gid: the group's multicast GID
 * @lid: the group's multicast LID, in CPU order (ignored on RoCE)
 *
 * Context: process context, may sleep.
 * Return: 0; -EOPNOTSUPP when the device has no multicast; -EINVAL for a
 * GID that is not multicast, a QP that is not UD, or an InfiniBand LID
 * outside the multicast range; or the driver's error.
 */
int ib_attach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	return mcast_change(qp, gid, lid, true);
}
EXPORT_SYMBOL(ib_attach_mcast);

/**
 * ib_detach_mcast() - undo ib_attach_mcast()
 * @qp: the QP
 * @gid: the group's multicast GID
 * @lid: the group's multicast LID, in CPU order
 *
 * Context: process context, may sleep.
 * Return: as ib_attach_mcast().
 */
int ib_detach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	return mcast_change(qp, gid, lid, false);
}
EXPORT_SYMBOL(ib_detach_mcast);
