// SPDX-License-Identifier: GPL-2.0-only
/* Address handles and address vectors: the AH verbs, replies to packets, RoCE MACs. */
/*
 * An rdma_ah_attr with a GRH may own one reference on the GID entry of its
 * source (grh.sgid_attr). The verbs that take an attr fill that pointer in
 * from grh.sgid_index when the caller left it NULL, and undo the fill
 * before returning, so the caller's attr owns exactly what it owned on
 * entry. An AH (and a QP's primary and alternate path, see core/verbs/qp.c)
 * keeps a reference of its own for as long as it uses the entry.
 *
 * Not done: RoCE LAG (the driver is never given a transmit slave) and
 * resource tracking of AHs.
 */

#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/ip.h>
#include <linux/slab.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "roce/roce.h"
#include "verbs/verbs.h"

/* ---- The SGID reference of an address vector ----------------------------- */

/**
 * rdma_destroy_ah_attr() - drop the SGID reference an address vector owns
 * @ah_attr: the attr; zeroed or already destroyed ones are fine
 *
 * Context: any context.
 */
void rdma_destroy_ah_attr(struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *owned = ah_attr->grh.sgid_attr;

	/* cleared first, so destroying twice is harmless */
	ah_attr->grh.sgid_attr = NULL;
	if (owned)
		rdma_put_gid_attr(owned);
}
EXPORT_SYMBOL(rdma_destroy_ah_attr);

/**
 * rdma_move_ah_attr() - hand an address vector and its reference over
 * @dest: a valid or zeroed attr; its reference is dropped first
 * @src: copied into @dest, then left without a reference
 *
 * Context: any context.
 */
void rdma_move_ah_attr(struct rdma_ah_attr *dest, struct rdma_ah_attr *src)
{
	rdma_destroy_ah_attr(dest);
	*dest = *src;
	src->grh.sgid_attr = NULL;
}
EXPORT_SYMBOL(rdma_move_ah_attr);

/**
 * rdma_copy_ah_attr() - copy an address vector, with a reference of its own
 * @dest: overwritten; whatever it held is not released
 * @src: the original, unchanged
 *
 * Context: any context.
 */
void rdma_copy_ah_attr(struct rdma_ah_attr *dest,
		       const struct rdma_ah_attr *src)
{
	/* @src keeps its reference; the copy's is a new one on the same entry */
	if (src->grh.sgid_attr)
		rdma_hold_gid_attr(src->grh.sgid_attr);
	*dest = *src;
}
EXPORT_SYMBOL(rdma_copy_ah_attr);

/**
 * rdma_replace_ah_attr() - release an address vector and copy another in
 * @old: a valid or zeroed attr; its reference is dropped
 * @new: copied into @old, which takes a reference of its own
 *
 * Context: any context.
 */
void rdma_replace_ah_attr(struct rdma_ah_attr *old,
			  const struct rdma_ah_attr *new)
{
	rdma_destroy_ah_attr(old);
	rdma_copy_ah_attr(old, new);
}
EXPORT_SYMBOL(rdma_replace_ah_attr);

/*
 * What the device accepts: a real port, a GRH where the port needs one or
 * the attr is RoCE, and a caller's GID entry that matches port and index.
 */
static int ah_attr_check(struct ib_device *dev,
			 const struct rdma_ah_attr *attr)
{
	const struct ib_gid_attr *sgid_attr = attr->grh.sgid_attr;

	if (!rdma_is_port_valid(dev, attr->port_num))
		return -EINVAL;
	if ((rdma_is_grh_required(dev, attr->port_num) ||
	     attr->type == RDMA_AH_ATTR_TYPE_ROCE) &&
	    !(attr->ah_flags & IB_AH_GRH))
		return -EINVAL;
	if (sgid_attr && (sgid_attr->index != attr->grh.sgid_index ||
			  sgid_attr->port_num != attr->port_num))
		return -EINVAL;
	return 0;
}

/**
 * ib_ah_attr_fill_sgid() - check an address vector and look its GID entry up
 * @dev: the device it is for
 * @attr: the attr; a global one without grh.sgid_attr gets a reference on
 *	the entry at grh.sgid_index
 * @old: set to what grh.sgid_attr was on entry, for ib_ah_attr_unfill_sgid()
 *
 * Return: 0, -EINVAL for an attr the device cannot take, or the GID
 * cache's error. On success the caller must call ib_ah_attr_unfill_sgid().
 */
int ib_ah_attr_fill_sgid(struct ib_device *dev, struct rdma_ah_attr *attr,
			 const struct ib_gid_attr **old)
{
	const struct ib_gid_attr *sgid_attr;
	int err;

	*old = attr->grh.sgid_attr;
	err = ah_attr_check(dev, attr);
	if (err) {
		ibdev_dbg(dev, "address vector on port %u refused\n",
			  attr->port_num);
		return err;
	}
	if (!(attr->ah_flags & IB_AH_GRH) || attr->grh.sgid_attr)
		return 0;

	sgid_attr = rdma_get_gid_attr(dev, attr->port_num,
				      attr->grh.sgid_index);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);
	attr->grh.sgid_attr = sgid_attr;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_ah_attr_fill_sgid);

/**
 * ib_ah_attr_unfill_sgid() - undo ib_ah_attr_fill_sgid()
 * @attr: the attr
 * @old: what the fill saved
 */
void ib_ah_attr_unfill_sgid(struct rdma_ah_attr *attr,
			    const struct ib_gid_attr *old)
{
	/* a changed pointer means the fill took the reference (old was NULL) */
	if (attr->grh.sgid_attr != old)
		rdma_destroy_ah_attr(attr);
}
EXPORT_SYMBOL_IF_KUNIT(ib_ah_attr_unfill_sgid);

/**
 * ib_ah_attr_swap_sgid() - move an object's own reference to a new attr
 * @attr: the filled attr the object now uses
 * @old: the object's reference so far, dropped; may be NULL
 *
 * Return: a new reference on @attr's GID entry, or NULL when @attr is
 * not global.
 */
const struct ib_gid_attr *ib_ah_attr_swap_sgid(const struct rdma_ah_attr *attr,
					       const struct ib_gid_attr *old)
{
	if (old)
		rdma_put_gid_attr(old);
	if (!(attr->ah_flags & IB_AH_GRH))
		return NULL;
	rdma_hold_gid_attr(attr->grh.sgid_attr);
	return attr->grh.sgid_attr;
}

/* ---- RoCE destination MACs ----------------------------------------------- */

/**
 * ib_ah_roce_dmac_from_gid() - a RoCE destination MAC that follows from the GID
 * @dgid: the destination GID
 * @sgid_type: the GID type of the source entry
 * @dmac: set when the MAC follows
 *
 * Multicast groups (IPv6, or IPv4 in mapped form) have the Ethernet
 * multicast MAC of the group; a link-local destination seen from a RoCE v1
 * source carries its MAC in the interface id. Anything else needs the IP
 * stack's neighbour table.
 *
 * Return: true when @dmac was set.
 */
bool ib_ah_roce_dmac_from_gid(const union ib_gid *dgid,
			      enum ib_gid_type sgid_type, u8 *dmac)
{
	struct in6_addr *ip = (struct in6_addr *)dgid->raw;

	if (rdma_is_multicast_addr(ip)) {
		if (ipv6_addr_v4mapped(ip))
			ip_eth_mc_map(ip->s6_addr32[3], (char *)dmac);
		else
			ipv6_eth_mc_map(ip, (char *)dmac);
		return true;
	}
	if (rdma_link_local_addr(ip) && sgid_type == IB_GID_TYPE_ROCE) {
		rdma_get_ll_mac(ip, dmac);
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ib_ah_roce_dmac_from_gid);

/**
 * ib_resolve_eth_dmac() - fill in the destination MAC of a RoCE address vector
 * @device: the device
 * @ah_attr: a filled (see ib_ah_attr_fill_sgid()) global RoCE attr;
 *	roce.dmac and, when the IP stack was asked, grh.hop_limit are set
 *
 * The MAC follows from the GID where it can (ib_ah_roce_dmac_from_gid()),
 * else the neighbour table is asked on the source GID's netdev.
 *
 * Context: process context, may sleep (up to a second of neighbour probing).
 * Return: 0 or the address resolution's error.
 */
int ib_resolve_eth_dmac(struct ib_device *device, struct rdma_ah_attr *ah_attr)
{
	struct ib_global_route *grh = rdma_ah_retrieve_grh(ah_attr);
	const struct ib_gid_attr *sgid_attr = grh->sgid_attr;
	int hop_limit = 0xff;
	int err;

	if (ib_ah_roce_dmac_from_gid(&grh->dgid, sgid_attr->gid_type,
				     ah_attr->roce.dmac))
		return 0;
	err = rdma_addr_find_l2_eth_by_grh(&sgid_attr->gid, &grh->dgid,
					   ah_attr->roce.dmac, sgid_attr,
					   &hop_limit);
	grh->hop_limit = hop_limit;
	return err;
}

/* ---- Creation and destruction -------------------------------------------- */

/* Allocate the AH at the driver's size and have the driver create it. */
static struct ib_ah *ah_create(struct ib_pd *pd, struct rdma_ah_attr *attr,
			       u32 flags, struct ib_udata *udata)
{
	struct rdma_ah_init_attr init_attr = { .ah_attr = attr, .flags = flags };
	struct ib_device *dev = pd->device;
	gfp_t gfp = flags & RDMA_CREATE_AH_SLEEPABLE ? GFP_KERNEL : GFP_ATOMIC;
	struct ib_ah *ah;
	int err;

	might_sleep_if(flags & RDMA_CREATE_AH_SLEEPABLE);
	if (udata ? !dev->ops.create_user_ah : !dev->ops.create_ah)
		return ERR_PTR(-EOPNOTSUPP);

	ah = rdma_zalloc_drv_obj_gfp(dev, ib_ah, gfp);
	if (!ah)
		return ERR_PTR(-ENOMEM);
	ah->device = dev;
	ah->pd = pd;
	ah->type = attr->type;
	ah->sgid_attr = ib_ah_attr_swap_sgid(attr, NULL);

	if (udata)
		err = dev->ops.create_user_ah(ah, &init_attr, udata);
	else
		err = dev->ops.create_ah(ah, &init_attr, NULL);
	if (err)
		goto err_free;
	atomic_inc(&pd->usecnt);
	return ah;

err_free:
	if (ah->sgid_attr)
		rdma_put_gid_attr(ah->sgid_attr);
	kfree(ah);
	return ERR_PTR(err);
}

/*
 * What the AH creating verbs share: take the GID reference @attr may lack,
 * resolve a RoCE destination MAC where @resolve_dmac, create the AH, and
 * leave @attr owning what it owned on entry.
 */
static struct ib_ah *ah_create_from_attr(struct ib_pd *pd,
					 struct rdma_ah_attr *attr, u32 flags,
					 struct ib_udata *udata,
					 bool resolve_dmac)
{
	const struct ib_gid_attr *old;
	struct ib_ah *ah;
	int err;

	err = ib_ah_attr_fill_sgid(pd->device, attr, &old);
	if (err)
		return ERR_PTR(err);
	if (resolve_dmac && attr->type == RDMA_AH_ATTR_TYPE_ROCE)
		err = ib_resolve_eth_dmac(pd->device, attr);
	ah = err ? ERR_PTR(err) : ah_create(pd, attr, flags, udata);
	ib_ah_attr_unfill_sgid(attr, old);
	return ah;
}

/**
 * rdma_create_ah() - create an address handle for a kernel user
 * @pd: the protection domain
 * @ah_attr: the address vector; a RoCE one must already carry its
 *	destination MAC. Unchanged on return.
 * @flags: RDMA_CREATE_AH_SLEEPABLE when the caller may sleep
 *
 * Context: any context; process context with RDMA_CREATE_AH_SLEEPABLE.
 * Return: the AH, or ERR_PTR() of -EINVAL for a bad port or a missing
 * GRH, -EOPNOTSUPP when the driver cannot create AHs, -ENOMEM, the GID
 * cache's error for a bad sgid_index, or the driver's error.
 */
struct ib_ah *rdma_create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			     u32 flags)
{
	return ah_create_from_attr(pd, ah_attr, flags, NULL, false);
}
EXPORT_SYMBOL(rdma_create_ah);

/**
 * rdma_create_user_ah() - create an address handle for a user
 * @pd: the protection domain
 * @ah_attr: the address vector; for RoCE its destination MAC is resolved
 *	here (and written to @ah_attr), as user space cannot do that itself
 * @udata: the user's data
 *
 * Context: process context, may sleep.
 * Return: as rdma_create_ah(), or the MAC resolution's error.
 */
struct ib_ah *rdma_create_user_ah(struct ib_pd *pd,
				  struct rdma_ah_attr *ah_attr,
				  struct ib_udata *udata)
{
	return ah_create_from_attr(pd, ah_attr, RDMA_CREATE_AH_SLEEPABLE,
				   udata, true);
}
EXPORT_SYMBOL(rdma_create_user_ah);

/**
 * rdma_modify_ah() - change the address vector of an address handle
 * @ah: the AH
 * @ah_attr: the new address vector, of the AH's type
 *
 * Whatever the driver answers, the AH's GID reference follows @ah_attr.
 *
 * Context: as the driver's modify_ah; process context is safe.
 * Return: 0, -EINVAL for another type or a bad attr, -EOPNOTSUPP when
 * the driver cannot modify AHs, the GID cache's or the driver's error.
 */
int rdma_modify_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr)
{
	int (*modify)(struct ib_ah *ah, struct rdma_ah_attr *attr) =
		ah->device->ops.modify_ah;
	const struct ib_gid_attr *old;
	int err;

	if (ah->type != ah_attr->type)
		return -EINVAL;
	err = ib_ah_attr_fill_sgid(ah->device, ah_attr, &old);
	if (err)
		return err;

	err = modify ? modify(ah, ah_attr) : -EOPNOTSUPP;
	/* even a failed modify moves the reference over, as 6.1 does */
	ah->sgid_attr = ib_ah_attr_swap_sgid(ah_attr, ah->sgid_attr);
	ib_ah_attr_unfill_sgid(ah_attr, old);
	return err;
}
EXPORT_SYMBOL(rdma_modify_ah);

/**
 * rdma_query_ah() - read an address handle's address vector
 * @ah: the AH
 * @ah_attr: filled by the driver; it holds no GID reference
 *
 * Context: as the driver's query_ah; process context is safe.
 * Return: 0, -EOPNOTSUPP when the driver cannot query AHs, or its error.
 */
int rdma_query_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr)
{
	ah_attr->grh.sgid_attr = NULL;
	if (!ah->device->ops.query_ah)
		return -EOPNOTSUPP;
	return ah->device->ops.query_ah(ah, ah_attr);
}
EXPORT_SYMBOL(rdma_query_ah);

/**
 * rdma_destroy_ah_user() - destroy an address handle
 * @ah: the AH; no work request may still use it
 * @flags: RDMA_DESTROY_AH_SLEEPABLE when the caller may sleep
 * @udata: the user's data for a user AH, NULL for a kernel one
 *
 * Context: any context; process context with RDMA_DESTROY_AH_SLEEPABLE.
 * Return: 0 when gone, or the driver's error, and then @ah still exists.
 */
int rdma_destroy_ah_user(struct ib_ah *ah, u32 flags, struct ib_udata *udata)
{
	const struct ib_gid_attr *sgid_attr = ah->sgid_attr;
	struct ib_pd *pd = ah->pd;
	int err;

	might_sleep_if(flags & RDMA_DESTROY_AH_SLEEPABLE);
	err = ah->device->ops.destroy_ah(ah, flags);
	if (err)
		return err;

	atomic_dec(&pd->usecnt);
	if (sgid_attr)
		rdma_put_gid_attr(sgid_attr);
	kfree(ah);
	return 0;
}
EXPORT_SYMBOL(rdma_destroy_ah_user);

/* ---- Network headers of received packets --------------------------------- */

/* An IPv4 header is believed only with no options and a right checksum. */
static bool ah_hdr_is_ipv4(const struct iphdr *ip4)
{
	struct iphdr copy;

	if (ip4->ihl != 5)
		return false;
	/* the receive buffer may not be writable: check a copy */
	copy = *ip4;
	copy.check = 0;
	return ip_fast_csum((u8 *)&copy, 5) == ip4->check;
}

/**
 * ib_get_rdma_header_version() - which IP version a received GRH slot holds
 * @hdr: the 40 bytes in front of a UD receive buffer
 *
 * RoCE v2 over IPv4 puts a 20-byte IPv4 header in the last half of the
 * slot, leaving the first 20 bytes undefined: they may look like an IPv6
 * version, so with both plausible the IPv4 header's checksum decides.
 *
 * Context: any context.
 * Return: 4, 6, or 0 when it is neither.
 */
int ib_get_rdma_header_version(const union rdma_network_hdr *hdr)
{
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)&hdr->ibgrh;
	const struct iphdr *ip4 = &hdr->roce4grh;

	if (ip6->version != 6)
		return ip4->version == 4 ? 4 : 0;
	return ah_hdr_is_ipv4(ip4) ? 4 : 6;
}
EXPORT_SYMBOL(ib_get_rdma_header_version);

/**
 * ib_get_gids_from_rdma_hdr() - source and destination GID of a network header
 * @hdr: the received header
 * @net_type: what it is: an IPv4 header gives v4-mapped GIDs; an IPv6
 *	header or a GRH (IB, RoCE v1) gives its GIDs as they are
 * @sgid: the sender's GID
 * @dgid: the receiver's GID
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a NULL GID pointer or an unknown type.
 */
int ib_get_gids_from_rdma_hdr(const union rdma_network_hdr *hdr,
			      enum rdma_network_type net_type,
			      union ib_gid *sgid, union ib_gid *dgid)
{
	if (!sgid || !dgid)
		return -EINVAL;

	switch (net_type) {
	case RDMA_NETWORK_IPV4:
		ipv6_addr_set_v4mapped(hdr->roce4grh.saddr,
				       (struct in6_addr *)sgid->raw);
		ipv6_addr_set_v4mapped(hdr->roce4grh.daddr,
				       (struct in6_addr *)dgid->raw);
		return 0;
	case RDMA_NETWORK_IPV6:
	case RDMA_NETWORK_IB:
	case RDMA_NETWORK_ROCE_V1:
		*sgid = hdr->ibgrh.sgid;
		*dgid = hdr->ibgrh.dgid;
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL(ib_get_gids_from_rdma_hdr);

/* ---- Address vectors answering a received packet ------------------------- */

/* The network type of a packet received on an Ethernet port. */
static enum rdma_network_type ah_wc_net_type(const struct ib_wc *wc,
					     const struct ib_grh *grh)
{
	if (wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE)
		return wc->network_hdr_type;
	if (ib_get_rdma_header_version((const union rdma_network_hdr *)grh) == 4)
		return RDMA_NETWORK_IPV4;
	return grh->next_hdr == IPPROTO_UDP ? RDMA_NETWORK_IPV6 :
					      RDMA_NETWORK_ROCE_V1;
}

struct ah_eth_gid_match {
	u16 vlan_id;
	enum ib_gid_type gid_type;
};

static bool ah_eth_gid_filter(const union ib_gid *gid,
			      const struct ib_gid_attr *attr, void *context)
{
	const struct ah_eth_gid_match *match = context;
	u16 vlan_id = 0xffff;

	if (attr->gid_type != match->gid_type)
		return false;
	if (rdma_read_gid_l2_fields(attr, &vlan_id, NULL))
		return false;
	return vlan_id == match->vlan_id;
}

/**
 * rdma_move_grh_sgid_attr() - make an address vector global on a GID entry
 * @attr: the attr; ah_flags becomes IB_AH_GRH
 * @dgid: the destination GID
 * @flow_label: GRH flow label
 * @hop_limit: GRH hop limit
 * @traffic_class: GRH traffic class
 * @sgid_attr: the source GID entry; the caller's reference passes to
 *	@attr, to be dropped with rdma_destroy_ah_attr()
 *
 * Context: any context.
 */
void rdma_move_grh_sgid_attr(struct rdma_ah_attr *attr, union ib_gid *dgid,
			     u32 flow_label, u8 hop_limit, u8 traffic_class,
			     const struct ib_gid_attr *sgid_attr)
{
	/* rdma_ah_set_grh() clears grh.sgid_attr: the reference goes in after */
	rdma_ah_set_grh(attr, dgid, flow_label, sgid_attr->index, hop_limit,
			traffic_class);
	attr->grh.sgid_attr = sgid_attr;
}
EXPORT_SYMBOL(rdma_move_grh_sgid_attr);

/* Make @attr global from @grh's flow and class, answering @sgid. */
static void ah_attr_set_reply_grh(struct rdma_ah_attr *attr,
				  const struct ib_grh *grh, union ib_gid *sgid,
				  const struct ib_gid_attr *sgid_attr)
{
	u32 flow = be32_to_cpu(grh->version_tclass_flow);

	rdma_move_grh_sgid_attr(attr, sgid, flow & 0xfffff, 0xff,
				(flow >> 20) & 0xff, sgid_attr);
}

/* RoCE: our GID entry is the packet's dgid on the same VLAN and type. */
static int ah_attr_from_roce_wc(struct ib_device *dev, u32 port,
				const struct ib_wc *wc, const struct ib_grh *grh,
				struct rdma_ah_attr *attr,
				enum ib_gid_type gid_type,
				union ib_gid *sgid, union ib_gid *dgid)
{
	struct ah_eth_gid_match match = {
		.vlan_id = wc->wc_flags & IB_WC_WITH_VLAN ? wc->vlan_id : 0xffff,
		.gid_type = gid_type,
	};
	const struct ib_gid_attr *sgid_attr;
	int err;

	if (!(wc->wc_flags & IB_WC_GRH))
		return -EPROTOTYPE;
	sgid_attr = rdma_find_gid_by_filter(dev, dgid, port, ah_eth_gid_filter,
					    &match);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);
	ah_attr_set_reply_grh(attr, grh, sgid, sgid_attr);

	err = ib_resolve_eth_dmac(dev, attr);
	if (err)
		rdma_destroy_ah_attr(attr);
	return err;
}

/*
 * IB: answer the LID; with a GRH, from our GID entry the packet was sent
 * to (entry 0 for the well-known GUID of the SA).
 */
static int ah_attr_from_ib_wc(struct ib_device *dev, u32 port,
			      const struct ib_wc *wc, const struct ib_grh *grh,
			      struct rdma_ah_attr *attr,
			      union ib_gid *sgid, union ib_gid *dgid)
{
	const struct ib_gid_attr *sgid_attr;

	rdma_ah_set_dlid(attr, wc->slid);
	rdma_ah_set_path_bits(attr, wc->dlid_path_bits);
	if (!(wc->wc_flags & IB_WC_GRH))
		return 0;

	if (dgid->global.interface_id == cpu_to_be64(IB_SA_WELL_KNOWN_GUID))
		sgid_attr = rdma_get_gid_attr(dev, port, 0);
	else
		sgid_attr = rdma_find_gid_by_port(dev, dgid, IB_GID_TYPE_IB,
						  port, NULL);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);
	ah_attr_set_reply_grh(attr, grh, sgid, sgid_attr);
	return 0;
}

/**
 * ib_init_ah_attr_from_wc() - the address vector that answers a received packet
 * @device: the device it was received on
 * @port_num: the port it was received on
 * @wc: its completion
 * @grh: the 40-byte network header slot of its receive buffer
 * @ah_attr: overwritten; on success it may own a GID reference, to be
 *	released with rdma_destroy_ah_attr()
 *
 * The packet's source becomes the destination and the packet's
 * destination GID selects our source GID entry. On RoCE the destination
 * MAC is resolved too.
 *
 * Context: process context, may sleep.
 * Return: 0; -EPROTOTYPE for a RoCE packet without a GRH; -EINVAL for an
 * unknown network header type; the GID cache's error when no entry of
 * ours matches; or the MAC resolution's error.
 */
int ib_init_ah_attr_from_wc(struct ib_device *device, u32 port_num,
			    const struct ib_wc *wc, const struct ib_grh *grh,
			    struct rdma_ah_attr *ah_attr)
{
	enum rdma_network_type net_type = RDMA_NETWORK_IB;
	union ib_gid sgid, dgid;
	int err;

	might_sleep();
	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	if (rdma_cap_eth_ah(device, port_num))
		net_type = ah_wc_net_type(wc, grh);
	err = ib_get_gids_from_rdma_hdr((const union rdma_network_hdr *)grh,
					net_type, &sgid, &dgid);
	if (err)
		return err;

	rdma_ah_set_sl(ah_attr, wc->sl);
	rdma_ah_set_port_num(ah_attr, port_num);
	if (rdma_protocol_roce(device, port_num))
		return ah_attr_from_roce_wc(device, port_num, wc, grh, ah_attr,
					    ib_network_to_gid_type(net_type),
					    &sgid, &dgid);
	return ah_attr_from_ib_wc(device, port_num, wc, grh, ah_attr,
				  &sgid, &dgid);
}
EXPORT_SYMBOL(ib_init_ah_attr_from_wc);

/**
 * ib_create_ah_from_wc() - create the address handle that answers a packet
 * @pd: the protection domain
 * @wc: the packet's completion
 * @grh: its network header slot
 * @port_num: the port it was received on
 *
 * Context: process context, may sleep.
 * Return: the AH, or ERR_PTR() of an error of ib_init_ah_attr_from_wc()
 * or rdma_create_ah().
 */
struct ib_ah *ib_create_ah_from_wc(struct ib_pd *pd, const struct ib_wc *wc,
				   const struct ib_grh *grh, u32 port_num)
{
	struct rdma_ah_attr attr;
	struct ib_ah *ah;
	int err = ib_init_ah_attr_from_wc(pd->device, port_num, wc, grh,
					  &attr);

	if (err)
		return ERR_PTR(err);
	/* the AH keeps a GID reference of its own: the attr's goes */
	ah = rdma_create_ah(pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	rdma_destroy_ah_attr(&attr);
	return ah;
}
EXPORT_SYMBOL(ib_create_ah_from_wc);
