// SPDX-License-Identifier: GPL-2.0-only
/*
 * SA record layouts other than PathRecord: MCMemberRecord and GUIDInfoRecord to
 * and from their host structures.
 */

#include <kunit/visibility.h>
#include <linux/stddef.h>
#include <rdma/ib_pack.h>

#include "mad/sa.h"

/*
 * A field: the byte of the record it starts in, the bit of that byte it
 * starts at (0 = most significant), its width in bits. ib_pack() counts
 * in 32-bit words.
 */
#define SA_AT(byte, bit, width)						\
	.offset_words = (byte) / 4,					\
	.offset_bits = (byte) % 4 * 8 + (bit),				\
	.size_bits = (width)

#define SA_FIELD(type, member, byte, bit, width) {			\
	.struct_offset_bytes = offsetof(struct type, member),		\
	.struct_size_bytes = sizeof_field(struct type, member),		\
	.field_name = #type ":" #member,				\
	SA_AT(byte, bit, width) }

#define SA_RESERVED(byte, bit, width) { RESERVED, SA_AT(byte, bit, width) }

/* ---- MCMemberRecord (IBA 15.2.5.17), 52 bytes ----------------------------- */

#define MC(member, byte, bit, width) \
	SA_FIELD(ib_sa_mcmember_rec, member, byte, bit, width)

static const struct ib_field sa_mcmember_fields[] = {
	MC(mgid,			 0, 0, 128),
	MC(port_gid,			16, 0, 128),
	MC(qkey,			32, 0, 32),
	MC(mlid,			36, 0, 16),
	MC(mtu_selector,		38, 0, 2),
	MC(mtu,				38, 2, 6),
	MC(traffic_class,		39, 0, 8),
	MC(pkey,			40, 0, 16),
	MC(rate_selector,		42, 0, 2),
	MC(rate,			42, 2, 6),
	MC(packet_life_time_selector,	43, 0, 2),
	MC(packet_life_time,		43, 2, 6),
	MC(sl,				44, 0, 4),
	MC(flow_label,			44, 4, 20),
	MC(hop_limit,			47, 0, 8),
	MC(scope,			48, 0, 4),
	MC(join_state,			48, 4, 4),
	MC(proxy_join,			49, 0, 1),
	SA_RESERVED(49, 1, 23),
};

/* Write @rec as the 52-byte attribute at @wire (reserved bits zero). */
void ib_sa_mcmember_pack(const struct ib_sa_mcmember_rec *rec, void *wire)
{
	ib_pack(sa_mcmember_fields, ARRAY_SIZE(sa_mcmember_fields),
		(void *)rec, wire);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_mcmember_pack);

/* Read the 52-byte attribute at @wire into @rec (every member set). */
void ib_sa_mcmember_unpack(const void *wire, struct ib_sa_mcmember_rec *rec)
{
	ib_unpack(sa_mcmember_fields, ARRAY_SIZE(sa_mcmember_fields),
		  (void *)wire, rec);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_mcmember_unpack);

/* ---- GUIDInfoRecord (IBA 15.2.5.18), 72 bytes ----------------------------- */

#define GI(member, byte, bit, width) \
	SA_FIELD(ib_sa_guidinfo_rec, member, byte, bit, width)

static const struct ib_field sa_guidinfo_fields[] = {
	GI(lid,			0, 0, 16),
	GI(block_num,		2, 0, 8),
	GI(res1,		3, 0, 8),
	GI(res2,		4, 0, 32),
	GI(guid_info_list,	8, 0, 512),
};

void ib_sa_guidinfo_pack(const struct ib_sa_guidinfo_rec *rec, void *wire)
{
	ib_pack(sa_guidinfo_fields, ARRAY_SIZE(sa_guidinfo_fields),
		(void *)rec, wire);
}

void ib_sa_guidinfo_unpack(const void *wire, struct ib_sa_guidinfo_rec *rec)
{
	ib_unpack(sa_guidinfo_fields, ARRAY_SIZE(sa_guidinfo_fields),
		  (void *)wire, rec);
}
