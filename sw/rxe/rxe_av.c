// SPDX-License-Identifier: GPL-2.0-only
/* rxe_av.c - address vectors (RoCEv2 only) and the address handle verbs built on them. */

#include <kunit/visibility.h>
#include "rxe_ops.h"
#include "rxe_verbs.h"

/* The source GID entry of @attr when it is a RoCE v2 one of @rxe, else NULL. */
static const struct ib_gid_attr *rxe_av_sgid_attr(struct rxe_dev *rxe,
						  const struct rdma_ah_attr *attr)
{
	const struct ib_gid_attr *sgid_attr = attr->grh.sgid_attr;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(attr->ah_flags & IB_AH_GRH) || !sgid_attr)
		return NULL;
	if (sgid_attr->device != &rxe->ib_dev ||
	    sgid_attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return NULL;
	return sgid_attr;
}

/**
 * rxe_av_from_attr() - build an address vector from the core's description
 * @rxe: the device the vector is for
 * @av: filled in
 * @attr: a RoCE address with a GRH whose sgid_attr is a RoCE v2 GID of @rxe
 *
 * Context: any context.
 * Return: 0, or -EINVAL when @attr is not such an address (then @av is
 * unchanged).
 */
int rxe_av_from_attr(struct rxe_dev *rxe, struct rxe_av *av,
		     const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(attr);
	const struct ib_gid_attr *sgid_attr = rxe_av_sgid_attr(rxe, attr);
	enum rdma_network_type type;

	if (!sgid_attr) {
		rxe_dbg_dev(rxe, "not a RoCE v2 address\n");
		return -EINVAL;
	}
	type = rdma_gid_attr_network_type(sgid_attr);
	if (type != RDMA_NETWORK_IPV4 && type != RDMA_NETWORK_IPV6)
		return -EINVAL;

	av->network_type = type;
	memcpy(av->dmac, attr->roce.dmac, ETH_ALEN);
	av->sgid_index = sgid_attr->index;
	av->sgid = sgid_attr->gid;
	av->dgid = grh->dgid;
	av->hop_limit = grh->hop_limit;
	av->traffic_class = grh->traffic_class;
	av->flow_label = grh->flow_label;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_av_from_attr);

/**
 * rxe_av_to_attr() - describe an address vector for query_ah / query_qp
 * @av: the vector
 * @attr: filled in, without an sgid_attr reference
 *
 * Context: any context.
 */
void rxe_av_to_attr(const struct rxe_av *av, struct rdma_ah_attr *attr)
{
	union ib_gid dgid = av->dgid;

	memset(attr, 0, sizeof(*attr));
	attr->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(attr, 1);
	memcpy(attr->roce.dmac, av->dmac, ETH_ALEN);
	rdma_ah_set_grh(attr, &dgid, av->flow_label, av->sgid_index,
			av->hop_limit, av->traffic_class);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_av_to_attr);

/* Number a user AH in rxe->ah_xa and tell user space its number. */
static int rxe_ah_publish(struct rxe_dev *rxe, struct rxe_ah *ah,
			  struct ib_udata *udata)
{
	struct rxe_create_ah_resp resp = {};
	int err;

	err = xa_alloc_irq(&rxe->ah_xa, &ah->ah_num, ah, xa_limit_31b,
			   GFP_KERNEL);
	if (err)
		return err;
	resp.ah_num = ah->ah_num;
	/* an old provider without room for the number gets none */
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err) {
		xa_erase_irq(&rxe->ah_xa, ah->ah_num);
		ah->ah_num = 0;
	}
	return err;
}

/**
 * rxe_ah_create() - the create_ah verb
 * @ibah: the AH, allocated by the core
 * @init: its address
 * @udata: NULL for a kernel AH; a user AH's response gets its ah_num,
 *	   the number UD WQEs of a user SQ ring name it by
 *
 * Context: any context unless init->flags has RDMA_CREATE_AH_SLEEPABLE
 * (always set for a user AH).
 * Return: 0, -EINVAL for an address that is not RoCE v2, -ENOMEM beyond
 * attr.max_ah, -EFAULT for the response.
 */
int rxe_ah_create(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibah->device);
	struct rxe_ah *ah = to_rah(ibah);
	int err;

	if (!rxe_count_inc(&rxe->num_ah, rxe->attr.max_ah)) {
		rxe_dbg_dev(rxe, "too many AHs\n");
		return -ENOMEM;
	}
	ah->ah_num = 0;
	err = rxe_av_from_attr(rxe, &ah->av, init->ah_attr);
	if (!err && udata)
		err = rxe_ah_publish(rxe, ah, udata);
	if (err)
		atomic_dec(&rxe->num_ah);
	return err;
}

/**
 * rxe_ah_modify() - the modify_ah verb
 * @ibah: the AH
 * @attr: its new address
 *
 * Context: any context.
 * Return: 0 or -EINVAL (the AH keeps its address).
 */
int rxe_ah_modify(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct rxe_dev *rxe = to_rdev(ibah->device);
	struct rxe_ah *ah = to_rah(ibah);
	unsigned long flags;
	struct rxe_av av;
	int err;

	err = rxe_av_from_attr(rxe, &av, attr);
	if (err)
		return err;
	/* a user AH's vector is copied by UD posts under the table's lock */
	xa_lock_irqsave(&rxe->ah_xa, flags);
	ah->av = av;
	xa_unlock_irqrestore(&rxe->ah_xa, flags);
	return 0;
}

/**
 * rxe_ah_query() - the query_ah verb
 * @ibah: the AH
 * @attr: filled with its address (the core adds no sgid_attr)
 *
 * Context: any context.
 * Return: 0.
 */
int rxe_ah_query(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	rxe_av_to_attr(&to_rah(ibah)->av, attr);
	return 0;
}

/**
 * rxe_ah_destroy() - the destroy_ah verb
 * @ibah: the AH
 * @flags: RDMA_DESTROY_AH_SLEEPABLE or 0
 *
 * Context: any context.
 * Return: 0.
 */
int rxe_ah_destroy(struct ib_ah *ibah, u32 flags)
{
	struct rxe_ah *ah = to_rah(ibah);

	/* no UD post copies the vector once it is out of the table */
	if (ah->ah_num) {
		unsigned long irqflags;

		xa_lock_irqsave(&to_rdev(ibah->device)->ah_xa, irqflags);
		__xa_erase(&to_rdev(ibah->device)->ah_xa, ah->ah_num);
		xa_unlock_irqrestore(&to_rdev(ibah->device)->ah_xa, irqflags);
	}
	atomic_dec(&to_rdev(ibah->device)->num_ah);
	return 0;
}
