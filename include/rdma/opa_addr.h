/* SPDX-License-Identifier: GPL-2.0-only */
/* Omni-Path extended (32-bit) LIDs: carrying them in GIDs and classifying them. */
#ifndef RDMAOOT_RDMA_OPA_ADDR_H
#define RDMAOOT_RDMA_OPA_ADDR_H

#include <rdma/opa_smi.h>

/*
 * OPA LIDs wider than 16 bits do not fit IB paths; they travel in a GID
 * whose interface id is this OUI in the top 24 bits and the LID in the
 * low 32 bits.
 */
#define OPA_SPECIAL_OUI		(0x00066AULL)
#define OPA_MAKE_ID(x)		(cpu_to_be64(OPA_SPECIAL_OUI << 40 | (x)))
/* A LID usable as an IB unicast LID, or 0 if it is in the IB multicast range. */
#define OPA_TO_IB_UCAST_LID(x)	(((x) >= be16_to_cpu(IB_MULTICAST_LID_BASE)) \
				 ? 0 : x)
/* GID table slot where OPA drivers keep the LID-carrying GID. */
#define OPA_GID_INDEX		0x1

/*
 * The top of the 32-bit LID space: OPA_MCAST_NR leading one bits mark
 * multicast, the next OPA_COLLECTIVE_NR bit(s) set mark collectives.
 */
#define OPA_MCAST_NR		0x4
#define OPA_COLLECTIVE_NR	0x1

static inline bool ib_is_opa_gid(const union ib_gid *gid)
{
	return (be64_to_cpu(gid->global.interface_id) >> 40) == OPA_SPECIAL_OUI;
}

static inline u32 opa_get_lid_from_gid(const union ib_gid *gid)
{
	return lower_32_bits(be64_to_cpu(gid->global.interface_id));
}

/* True when either LID is beyond what a 16-bit IB unicast LID can hold. */
static inline bool opa_is_extended_lid(__be32 dlid, __be32 slid)
{
	u32 limit = be16_to_cpu(IB_MULTICAST_LID_BASE);

	return be32_to_cpu(dlid) >= limit || be32_to_cpu(slid) >= limit;
}

/* First multicast LID when the top @nr_top_bits bits mark multicast. */
static inline u32 opa_get_mcast_base(u32 nr_top_bits)
{
	return be32_to_cpu(OPA_LID_PERMISSIVE) << (32 - nr_top_bits);
}

/* Whether @attr's DLID is a non-zero unicast LID for its address type. */
static inline bool rdma_is_valid_unicast_lid(struct rdma_ah_attr *attr)
{
	u32 dlid = rdma_ah_get_dlid(attr);

	switch (attr->type) {
	case RDMA_AH_ATTR_TYPE_IB:
		return dlid && dlid < be16_to_cpu(IB_MULTICAST_LID_BASE);
	case RDMA_AH_ATTR_TYPE_OPA:
		return dlid && dlid < opa_get_mcast_base(OPA_MCAST_NR);
	default:
		return true;
	}
}

#endif /* RDMAOOT_RDMA_OPA_ADDR_H */
