// SPDX-License-Identifier: GPL-2.0-only
/* rxe_mcast.c - multicast groups of UD QPs: attach, detach, and fan-out of received packets. */

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "rxe_ops.h"
#include "rxe_verbs.h"
#include "rxe_recv.h"
#include "rxe_qp.h"

/**
 * struct rxe_mcg - one multicast group with QPs attached, on rxe->mcast_list
 * @list:   entry in rxe->mcast_list
 * @mgid:   the group's GID: an IPv6 multicast address, or an IPv4 one mapped
 * @mac:    its Ethernet multicast address, added to the net device's list
 * @num_qp: entries used in @qpn
 * @qpn:    the attached QPs, by number (looked up again on each delivery,
 *          so an attachment holds no reference on its QP)
 *
 * rxe->mcast_lock (taken with bottom halves off) protects all of it.
 */
struct rxe_mcg {
	struct list_head list;
	union ib_gid mgid;
	u8 mac[ETH_ALEN];
	u32 num_qp;
	u32 qpn[RXE_MAX_MCAST_QP_ATTACH];
};

/* The Ethernet address of multicast GID @mgid; false if it is none. */
static bool rxe_mcast_mac(const union ib_gid *mgid, u8 *mac)
{
	const struct in6_addr *a = (const struct in6_addr *)mgid->raw;

	if (ipv6_addr_v4mapped(a)) {
		if (!ipv4_is_multicast(a->s6_addr32[3]))
			return false;
		ip_eth_mc_map(a->s6_addr32[3], mac);
		return true;
	}
	if (!ipv6_addr_is_multicast(a))
		return false;
	ipv6_eth_mc_map(a, mac);
	return true;
}

/* The group of @mgid or NULL; *@count: groups looked at. */
static struct rxe_mcg *rxe_mcast_find(struct rxe_dev *rxe,
				      const union ib_gid *mgid, u32 *count)
{
	struct rxe_mcg *grp;

	lockdep_assert_held(&rxe->mcast_lock);
	*count = 0;
	list_for_each_entry(grp, &rxe->mcast_list, list) {
		if (!memcmp(grp->mgid.raw, mgid->raw, sizeof(mgid->raw)))
			return grp;
		(*count)++;
	}
	return NULL;
}

/* Position of @qpn in @grp, or -1. */
static int rxe_mcast_slot(const struct rxe_mcg *grp, u32 qpn)
{
	u32 i;

	for (i = 0; i < grp->num_qp; i++)
		if (grp->qpn[i] == qpn)
			return i;
	return -1;
}

/* Remove @qpn from @grp if there; frees @grp when it empties. */
static void rxe_mcast_grp_del_qp(struct rxe_dev *rxe, struct rxe_mcg *grp,
				 u32 qpn)
{
	int i = rxe_mcast_slot(grp, qpn);

	lockdep_assert_held(&rxe->mcast_lock);
	if (i < 0)
		return;
	grp->qpn[i] = grp->qpn[--grp->num_qp];
	if (grp->num_qp)
		return;
	list_del(&grp->list);
	dev_mc_del(rxe->ndev, grp->mac);
	kfree(grp);
}

/*
 * The group of @mgid, made from @spare (and its MAC added to the net
 * device) if there is none. Sets *@spare to NULL when it was used.
 */
static struct rxe_mcg *rxe_mcast_get_grp(struct rxe_dev *rxe,
					 const union ib_gid *mgid,
					 const u8 *mac, struct rxe_mcg **spare)
{
	struct rxe_mcg *grp;
	u32 count;
	int err;

	grp = rxe_mcast_find(rxe, mgid, &count);
	if (grp)
		return grp;
	if (count >= rxe->attr.max_mcast_grp)
		return ERR_PTR(-ENOMEM);
	/* dev_mc_add() takes the address list lock, it does not sleep */
	err = dev_mc_add(rxe->ndev, mac);
	if (err)
		return ERR_PTR(err);
	grp = *spare;
	*spare = NULL;
	grp->mgid = *mgid;
	ether_addr_copy(grp->mac, mac);
	list_add_tail(&grp->list, &rxe->mcast_list);
	return grp;
}

/**
 * rxe_mcast_attach() - the attach_mcast verb
 * @ibqp: a UD QP
 * @mgid: the group: an IPv6 multicast address, or a mapped IPv4 one
 * @mlid: ignored (no LIDs on RoCE)
 *
 * The first QP of a group adds its Ethernet multicast address to the net
 * device. Attaching twice is not an error.
 *
 * Context: process context.
 * Return: 0; -EINVAL for another QP type or a GID that is not multicast;
 * -ENOMEM without memory, beyond max_mcast_grp groups or
 * RXE_MAX_MCAST_QP_ATTACH QPs in the group.
 */
int rxe_mcast_attach(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_mcg *spare, *grp;
	u8 mac[ETH_ALEN];
	int err = 0;

	if (rxe_qp_type(qp) != IB_QPT_UD || !rxe_mcast_mac(mgid, mac))
		return -EINVAL;
	spare = kzalloc(sizeof(*spare), GFP_KERNEL);
	if (!spare)
		return -ENOMEM;

	spin_lock_bh(&rxe->mcast_lock);
	grp = rxe_mcast_get_grp(rxe, mgid, mac, &spare);
	if (IS_ERR(grp))
		err = PTR_ERR(grp);
	else if (rxe_mcast_slot(grp, ibqp->qp_num) >= 0)
		err = 0;
	else if (grp->num_qp == RXE_MAX_MCAST_QP_ATTACH)
		err = -ENOMEM;
	else
		grp->qpn[grp->num_qp++] = ibqp->qp_num;
	spin_unlock_bh(&rxe->mcast_lock);

	kfree(spare);
	if (err)
		rxe_dbg_qp(qp, "cannot attach to %pI6: %d\n", mgid->raw, err);
	return err;
}

/**
 * rxe_mcast_detach() - the detach_mcast verb
 * @ibqp: the QP
 * @mgid: the group
 * @mlid: ignored
 *
 * The last QP of a group removes its address from the net device.
 *
 * Context: process context.
 * Return: 0, or -EINVAL when @ibqp is not attached to @mgid.
 */
int rxe_mcast_detach(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_mcg *grp;
	int err = -EINVAL;
	u32 count;

	spin_lock_bh(&rxe->mcast_lock);
	grp = rxe_mcast_find(rxe, mgid, &count);
	if (grp && rxe_mcast_slot(grp, ibqp->qp_num) >= 0) {
		rxe_mcast_grp_del_qp(rxe, grp, ibqp->qp_num);
		err = 0;
	}
	spin_unlock_bh(&rxe->mcast_lock);
	return err;
}

/**
 * rxe_mcast_qp_remove() - detach a QP from every group
 * @qp: a QP being destroyed
 *
 * Context: process context.
 */
void rxe_mcast_qp_remove(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_mcg *grp, *next;

	spin_lock_bh(&rxe->mcast_lock);
	list_for_each_entry_safe(grp, next, &rxe->mcast_list, list)
		rxe_mcast_grp_del_qp(rxe, grp, qp->ibqp.qp_num);
	spin_unlock_bh(&rxe->mcast_lock);
}

/**
 * rxe_mcast_cleanup() - forget every group of a device
 * @rxe: the device, being torn down; its net device is still held
 *
 * Context: process context.
 */
void rxe_mcast_cleanup(struct rxe_dev *rxe)
{
	struct rxe_mcg *grp, *next;

	spin_lock_bh(&rxe->mcast_lock);
	list_for_each_entry_safe(grp, next, &rxe->mcast_list, list) {
		list_del(&grp->list);
		dev_mc_del(rxe->ndev, grp->mac);
		kfree(grp);
	}
	spin_unlock_bh(&rxe->mcast_lock);
}

/* The destination IP address of @skb as a GID; false if not IP. */
static bool rxe_mcast_dgid(const struct sk_buff *skb, union ib_gid *dgid)
{
	struct in6_addr *a = (struct in6_addr *)dgid->raw;

	if (skb->protocol == htons(ETH_P_IP)) {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, a);
		return true;
	}
	if (skb->protocol == htons(ETH_P_IPV6)) {
		*a = ipv6_hdr(skb)->daddr;
		return true;
	}
	return false;
}

/* QPs attached to the group @skb is addressed to, copied to @qpn. */
static u32 rxe_mcast_members(struct rxe_dev *rxe, const struct sk_buff *skb,
			     u32 *qpn)
{
	struct rxe_mcg *grp;
	union ib_gid dgid;
	u32 n = 0;
	u32 count;

	if (!rxe_mcast_dgid(skb, &dgid))
		return 0;
	spin_lock_bh(&rxe->mcast_lock);
	grp = rxe_mcast_find(rxe, &dgid, &count);
	if (grp) {
		n = grp->num_qp;
		memcpy(qpn, grp->qpn, n * sizeof(*qpn));
	}
	spin_unlock_bh(&rxe->mcast_lock);
	return n;
}

/**
 * rxe_mcast_deliver() - hand a packet sent to QPN 0xffffff to its group
 * @rxe: the device it arrived on
 * @skb: a checked packet; consumed
 *
 * Every QP attached to the group of the destination IP address gets its
 * own clone (the last one the packet itself).
 *
 * Context: softirq or process context.
 */
void rxe_mcast_deliver(struct rxe_dev *rxe, struct sk_buff *skb)
{
	u32 qpn[RXE_MAX_MCAST_QP_ATTACH];
	u32 n = rxe_mcast_members(rxe, skb, qpn);
	struct sk_buff *copy;
	struct rxe_qp *qp;
	u32 i;

	if (!n)
		rxe_counter_inc(rxe, RXE_CNT_DROP_QPN);
	for (i = 0; i < n; i++) {
		qp = rxe_qp_get(rxe, qpn[i]);
		if (!qp)
			continue;
		if (i == n - 1) {
			copy = skb;
			skb = NULL;
		} else {
			copy = skb_clone(skb, GFP_ATOMIC);
		}
		if (copy)
			rxe_recv_deliver(qp, copy);
		else
			rxe_counter_inc(rxe, RXE_CNT_DROP_NOMEM);
		rxe_qp_put(qp);
	}
	if (skb)
		kfree_skb(skb);
}
