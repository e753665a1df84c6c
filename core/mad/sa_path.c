// SPDX-License-Identifier: GPL-2.0-only
/*
 * SA PathRecords: the wire attribute to and from struct sa_path_rec, and the
 * address vector a path describes.
 */
/*
 * These helpers need no SA client: the CM builds address vectors from the
 * paths carried in its REQs, rdma_cm from the routes it made up itself on
 * RoCE, and the rdma_cm user ABI moves paths as packed attributes.
 */

#include <linux/if_ether.h>
#include <linux/export.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_sa.h>

#include "roce/roce.h"

/* ---- The PathRecord attribute (IBA 15.2.5.16) ---------------------------- */

/*
 * A field of the 64-byte attribute: the byte it starts in, the bit of
 * that byte it starts at (0 = most significant) and its width in bits.
 * ib_pack() counts in 32-bit words, hence the conversion.
 */
#define PR_AT(byte, bit, width)						\
	.offset_words = (byte) / 4,					\
	.offset_bits = (byte) % 4 * 8 + (bit),				\
	.size_bits = (width)

#define PR_FIELD(member, byte, bit, width) {				\
	.struct_offset_bytes = offsetof(struct sa_path_rec, member),	\
	.struct_size_bytes = sizeof_field(struct sa_path_rec, member),	\
	.field_name = "sa_path_rec:" #member,				\
	PR_AT(byte, bit, width) }

/* Written as zeros, skipped when read. */
#define PR_RESERVED(byte, bit, width) { RESERVED, PR_AT(byte, bit, width) }

static const struct ib_field sa_path_fields[] = {
	PR_FIELD(service_id,			 0, 0, 64),
	PR_FIELD(dgid,				 8, 0, 128),
	PR_FIELD(sgid,				24, 0, 128),
	PR_FIELD(ib.dlid,			40, 0, 16),
	PR_FIELD(ib.slid,			42, 0, 16),
	PR_FIELD(ib.raw_traffic,		44, 0, 1),
	PR_RESERVED(44, 1, 3),
	PR_FIELD(flow_label,			44, 4, 20),
	PR_FIELD(hop_limit,			47, 0, 8),
	PR_FIELD(traffic_class,			48, 0, 8),
	PR_FIELD(reversible,			49, 0, 1),
	PR_FIELD(numb_path,			49, 1, 7),
	PR_FIELD(pkey,				50, 0, 16),
	PR_FIELD(qos_class,			52, 0, 12),
	PR_FIELD(sl,				53, 4, 4),
	PR_FIELD(mtu_selector,			54, 0, 2),
	PR_FIELD(mtu,				54, 2, 6),
	PR_FIELD(rate_selector,			55, 0, 2),
	PR_FIELD(rate,				55, 2, 6),
	PR_FIELD(packet_life_time_selector,	56, 0, 2),
	PR_FIELD(packet_life_time,		56, 2, 6),
	PR_FIELD(preference,			57, 0, 8),
	PR_RESERVED(58, 0, 48),
};

/*
 * The wire record only knows 16-bit IB LIDs. An OPA path goes out the
 * way its users convert it anyway (sa_convert_path_opa_to_ib()); a RoCE
 * path has no LIDs, so none are sent rather than the bytes of its MAC.
 */
static void sa_path_wire_view(struct sa_path_rec *ib, struct sa_path_rec *rec)
{
	if (sa_path_is_opa(rec)) {
		sa_convert_path_opa_to_ib(ib, rec);
		return;
	}
	*ib = *rec;
	memset(&ib->ib, 0, sizeof(ib->ib));
	ib->rec_type = SA_PATH_REC_TYPE_IB;
}

/**
 * ib_sa_pack_path() - Write a path as a PathRecord attribute
 * @rec: the path
 * @attribute: 64 bytes, filled completely (reserved bits zero)
 *
 * An IB path is written as it is. Other link layers are written through
 * their IB form: an OPA path converted as sa_convert_path_opa_to_ib()
 * does, a RoCE path with zero LIDs and RawTraffic.
 *
 * Context: any.
 */
void ib_sa_pack_path(struct sa_path_rec *rec, void *attribute)
{
	struct sa_path_rec ib;

	if (rec->rec_type != SA_PATH_REC_TYPE_IB) {
		sa_path_wire_view(&ib, rec);
		rec = &ib;
	}
	ib_pack(sa_path_fields, ARRAY_SIZE(sa_path_fields), rec, attribute);
}
EXPORT_SYMBOL(ib_sa_pack_path);

/**
 * ib_sa_unpack_path() - Read a PathRecord attribute into a path
 * @attribute: the 64-byte attribute
 * @rec: the path; becomes an IB path
 *
 * Every field of the attribute is stored in @rec, the LIDs and
 * RawTraffic in its IB member; @rec->flags and anything else the
 * attribute does not carry are left as they are.
 *
 * Context: any.
 */
void ib_sa_unpack_path(void *attribute, struct sa_path_rec *rec)
{
	ib_unpack(sa_path_fields, ARRAY_SIZE(sa_path_fields), attribute, rec);
	rec->rec_type = SA_PATH_REC_TYPE_IB;
}
EXPORT_SYMBOL(ib_sa_unpack_path);

/* ---- Address vectors from paths ----------------------------------------- */

/*
 * The bits of a source LID that select one of the port's LIDs: as many
 * as its LMC says. With no cached LMC, all seven LMC bits may.
 */
static u32 sa_path_bits_mask(struct ib_device *device, u32 port_num)
{
	u8 lmc;

	if (ib_get_cached_lmc(device, port_num, &lmc))
		return 0x7f;
	return (1U << lmc) - 1;
}

/* IB and OPA: the LIDs. */
static void sa_path_av_lids(struct ib_device *device, u32 port_num,
			    struct sa_path_rec *rec,
			    struct rdma_ah_attr *ah_attr)
{
	u32 dlid = be32_to_cpu(sa_path_get_dlid(rec));
	u32 slid = be32_to_cpu(sa_path_get_slid(rec));

	rdma_ah_set_dlid(ah_attr, dlid);
	rdma_ah_set_path_bits(ah_attr,
			      slid & sa_path_bits_mask(device, port_num));
	/* OPA sends to the permissive LID with a GRH (make_grd) */
	if (sa_path_is_opa(rec) && dlid == be16_to_cpu(IB_LID_PERMISSIVE))
		rdma_ah_set_make_grd(ah_attr, true);
}

/* RoCE: the route must be usable from @gid_attr; the MAC is the path's. */
static int sa_path_av_roce(struct sa_path_rec *rec,
			   struct rdma_ah_attr *ah_attr,
			   const struct ib_gid_attr *gid_attr)
{
	int err = roce_resolve_route_from_path(rec, gid_attr);

	if (err)
		return err;
	/* the record's MAC sits at an odd offset: no ether_addr_copy() */
	memcpy(ah_attr->roce.dmac, sa_path_get_dmac(rec), ETH_ALEN);
	return 0;
}

/*
 * The GRH towards the path's dgid. The source is @gid_attr when given,
 * else the port's entry holding the path's sgid with the path's GID
 * type; either way @ah_attr gets a reference of its own.
 */
static int sa_path_av_grh(struct ib_device *device, u32 port_num,
			  struct sa_path_rec *rec,
			  struct rdma_ah_attr *ah_attr,
			  const struct ib_gid_attr *gid_attr)
{
	enum ib_gid_type type = sa_conv_pathrec_to_gid_type(rec);
	const struct ib_gid_attr *sgid_attr = gid_attr;

	if (sgid_attr)
		rdma_hold_gid_attr(sgid_attr);
	else
		sgid_attr = rdma_find_gid_by_port(device, &rec->sgid, type,
						  port_num, NULL);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);

	rdma_move_grh_sgid_attr(ah_attr, &rec->dgid,
				be32_to_cpu(rec->flow_label), rec->hop_limit,
				rec->traffic_class, sgid_attr);
	return 0;
}

/**
 * ib_init_ah_attr_from_path() - Build the address vector of a path
 * @device: the device
 * @port_num: the port the path starts at
 * @rec: the path (a RoCE path is marked route_resolved once checked)
 * @ah_attr: overwritten; on success it may hold a GID entry reference
 * @gid_attr: the source GID entry to use, or NULL to look the path's
 *	sgid up on the port; the caller keeps its own reference
 *
 * The vector gets the path's SL and rate and the port; IB and OPA paths
 * give the destination LID and the path bits of the source LID, RoCE
 * paths the destination MAC in the record (after checking that the route
 * leaves by @gid_attr's netdev, unless already done). A GRH is added for
 * every RoCE path and for IB paths with a non-zero hop limit; it holds a
 * reference on its source GID entry, which rdma_destroy_ah_attr()
 * releases. On failure no reference is held.
 *
 * Context: process context; may sleep (RoCE route lookup).
 * Return: 0; -EINVAL for a RoCE path whose route cannot be checked (no
 * @gid_attr with a netdev, GIDs of different IP families) or that needs
 * a router without being RoCE v2; the route lookup's error; or the GID
 * cache's error (-ENOENT) when the port has no entry for the sgid.
 */
int ib_init_ah_attr_from_path(struct ib_device *device, u32 port_num,
			      struct sa_path_rec *rec,
			      struct rdma_ah_attr *ah_attr,
			      const struct ib_gid_attr *gid_attr)
{
	int err;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	rdma_ah_set_port_num(ah_attr, port_num);
	rdma_ah_set_sl(ah_attr, rec->sl);
	rdma_ah_set_static_rate(ah_attr, rec->rate);

	if (!sa_path_is_roce(rec)) {
		sa_path_av_lids(device, port_num, rec, ah_attr);
		/* hop limit 0: the path stays in the subnet, no GRH */
		if (!rec->hop_limit)
			return 0;
		return sa_path_av_grh(device, port_num, rec, ah_attr,
				      gid_attr);
	}

	err = sa_path_av_roce(rec, ah_attr, gid_attr);
	if (err)
		return err;
	return sa_path_av_grh(device, port_num, rec, ah_attr, gid_attr);
}
EXPORT_SYMBOL(ib_init_ah_attr_from_path);
