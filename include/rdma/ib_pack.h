/* SPDX-License-Identifier: GPL-2.0-only */
/* InfiniBand wire headers: BTH opcodes, unpacked UD header images and the field packer. */
#ifndef RDMAOOT_RDMA_IB_PACK_H
#define RDMAOOT_RDMA_IB_PACK_H

#include <rdma/ib_verbs.h>
#include <uapi/linux/if_ether.h>

/* ---- Header sizes on the wire (bytes) ------------------------------------ */

enum {
	IB_LRH_BYTES		= 8,
	IB_ETH_BYTES		= 14,
	IB_VLAN_BYTES		= 4,
	IB_GRH_BYTES		= 40,
	IB_IP4_BYTES		= 20,
	IB_UDP_BYTES		= 8,
	IB_BTH_BYTES		= 12,
	IB_DETH_BYTES		= 8,
	IB_EXT_ATOMICETH_BYTES	= 28,
	IB_EXT_XRC_BYTES	= 4,
	IB_ICRC_BYTES		= 4
};

/* ---- Table-driven packing ------------------------------------------------ */

/*
 * One entry of a header description: where a member lives in the unpacked
 * C structure, and where (32-bit word, bit offset from the word's most
 * significant bit, width) it goes in the big-endian wire image.
 */
struct ib_field {
	size_t struct_offset_bytes;
	size_t struct_size_bytes;
	int    offset_words;
	int    offset_bits;
	int    size_bits;
	char  *field_name;
};

/* Initializer for a table entry that only reserves wire bits. */
#define RESERVED \
	.field_name          = "reserved"

void ib_pack(const struct ib_field *desc, int desc_len, void *structure,
	     void *buf);
void ib_unpack(const struct ib_field *desc, int desc_len, void *buf,
	       void *structure);

/* ---- BTH opcodes ----------------------------------------------------------- */

/*
 * A BTH opcode is a transport prefix (top three bits) plus an operation
 * (low five bits). IB_OPCODE(RC, SEND_FIRST) declares the enumerator
 * IB_OPCODE_RC_SEND_FIRST with that sum as its value; use the combined
 * names, not the two halves.
 */
#define IB_OPCODE(transport, op)					\
	IB_OPCODE_ ## transport ## _ ## op =				\
		IB_OPCODE_ ## transport + IB_OPCODE_ ## op

/* Operation groups shared by several transports. */
#define __IB_OPCODES_SEND(t)						\
	IB_OPCODE(t, SEND_FIRST),					\
	IB_OPCODE(t, SEND_MIDDLE),					\
	IB_OPCODE(t, SEND_LAST),					\
	IB_OPCODE(t, SEND_LAST_WITH_IMMEDIATE),				\
	IB_OPCODE(t, SEND_ONLY),					\
	IB_OPCODE(t, SEND_ONLY_WITH_IMMEDIATE)

#define __IB_OPCODES_WRITE(t)						\
	IB_OPCODE(t, RDMA_WRITE_FIRST),					\
	IB_OPCODE(t, RDMA_WRITE_MIDDLE),				\
	IB_OPCODE(t, RDMA_WRITE_LAST),					\
	IB_OPCODE(t, RDMA_WRITE_LAST_WITH_IMMEDIATE),			\
	IB_OPCODE(t, RDMA_WRITE_ONLY),					\
	IB_OPCODE(t, RDMA_WRITE_ONLY_WITH_IMMEDIATE)

/* Reads, acknowledgements and atomics: reliable transports only. */
#define __IB_OPCODES_RELIABLE(t)					\
	IB_OPCODE(t, RDMA_READ_REQUEST),				\
	IB_OPCODE(t, RDMA_READ_RESPONSE_FIRST),				\
	IB_OPCODE(t, RDMA_READ_RESPONSE_MIDDLE),			\
	IB_OPCODE(t, RDMA_READ_RESPONSE_LAST),				\
	IB_OPCODE(t, RDMA_READ_RESPONSE_ONLY),				\
	IB_OPCODE(t, ACKNOWLEDGE),					\
	IB_OPCODE(t, ATOMIC_ACKNOWLEDGE),				\
	IB_OPCODE(t, COMPARE_SWAP),					\
	IB_OPCODE(t, FETCH_ADD)

enum {
	/* Transport prefixes. */
	IB_OPCODE_RC				= 0x00,
	IB_OPCODE_UC				= 0x20,
	IB_OPCODE_RD				= 0x40,
	IB_OPCODE_UD				= 0x60,
	IB_OPCODE_CNP				= 0x80,	/* congestion notification */
	IB_OPCODE_MSP				= 0xe0,	/* vendor specific */

	/* Operations; 0x15 is unassigned. */
	IB_OPCODE_SEND_FIRST			= 0x00,
	IB_OPCODE_SEND_MIDDLE			= 0x01,
	IB_OPCODE_SEND_LAST			= 0x02,
	IB_OPCODE_SEND_LAST_WITH_IMMEDIATE	= 0x03,
	IB_OPCODE_SEND_ONLY			= 0x04,
	IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE	= 0x05,
	IB_OPCODE_RDMA_WRITE_FIRST		= 0x06,
	IB_OPCODE_RDMA_WRITE_MIDDLE		= 0x07,
	IB_OPCODE_RDMA_WRITE_LAST		= 0x08,
	IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09,
	IB_OPCODE_RDMA_WRITE_ONLY		= 0x0a,
	IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0b,
	IB_OPCODE_RDMA_READ_REQUEST		= 0x0c,
	IB_OPCODE_RDMA_READ_RESPONSE_FIRST	= 0x0d,
	IB_OPCODE_RDMA_READ_RESPONSE_MIDDLE	= 0x0e,
	IB_OPCODE_RDMA_READ_RESPONSE_LAST	= 0x0f,
	IB_OPCODE_RDMA_READ_RESPONSE_ONLY	= 0x10,
	IB_OPCODE_ACKNOWLEDGE			= 0x11,
	IB_OPCODE_ATOMIC_ACKNOWLEDGE		= 0x12,
	IB_OPCODE_COMPARE_SWAP			= 0x13,
	IB_OPCODE_FETCH_ADD			= 0x14,
	IB_OPCODE_SEND_LAST_WITH_INVALIDATE	= 0x16,
	IB_OPCODE_SEND_ONLY_WITH_INVALIDATE	= 0x17,

	/* The combined opcodes, per transport. */
	__IB_OPCODES_SEND(RC),
	__IB_OPCODES_WRITE(RC),
	__IB_OPCODES_RELIABLE(RC),
	IB_OPCODE(RC, SEND_LAST_WITH_INVALIDATE),
	IB_OPCODE(RC, SEND_ONLY_WITH_INVALIDATE),

	__IB_OPCODES_SEND(UC),
	__IB_OPCODES_WRITE(UC),

	__IB_OPCODES_SEND(RD),
	__IB_OPCODES_WRITE(RD),
	__IB_OPCODES_RELIABLE(RD),

	IB_OPCODE(UD, SEND_ONLY),
	IB_OPCODE(UD, SEND_ONLY_WITH_IMMEDIATE)
};

#undef __IB_OPCODES_SEND
#undef __IB_OPCODES_WRITE
#undef __IB_OPCODES_RELIABLE

/* LRH "next header" values. */
enum {
	IB_LNH_RAW		= 0,
	IB_LNH_IP		= 1,
	IB_LNH_IBA_LOCAL	= 2,
	IB_LNH_IBA_GLOBAL	= 3
};

/* ---- Unpacked header images ------------------------------------------------ */

/* Each header as separate members; ib_pack()/ib_unpack() convert. */

struct ib_unpacked_lrh {
	u8	virtual_lane;
	u8	link_version;
	u8	service_level;
	u8	link_next_header;
	__be16	destination_lid;
	__be16	packet_length;
	__be16	source_lid;
};

struct ib_unpacked_grh {
	u8		ip_version;
	u8		traffic_class;
	__be32		flow_label;
	__be16		payload_length;
	u8		next_header;
	u8		hop_limit;
	union ib_gid	source_gid;
	union ib_gid	destination_gid;
};

struct ib_unpacked_bth {
	u8	opcode;
	u8	solicited_event;
	u8	mig_req;
	u8	pad_count;
	u8	transport_header_version;
	__be16	pkey;
	__be32	destination_qpn;
	u8	ack_req;
	__be32	psn;
};

struct ib_unpacked_deth {
	__be32	qkey;
	__be32	source_qpn;
};

/* The MACs are split so each piece sits inside one 32-bit wire word. */
struct ib_unpacked_eth {
	u8	dmac_h[4];
	u8	dmac_l[2];
	u8	smac_h[2];
	u8	smac_l[4];
	__be16	type;
};

struct ib_unpacked_ip4 {
	u8	ver;
	u8	hdr_len;
	u8	tos;
	__be16	tot_len;
	__be16	id;
	__be16	frag_off;
	u8	ttl;
	u8	protocol;
	__sum16	check;
	__be32	saddr;
	__be32	daddr;
};

struct ib_unpacked_udp {
	__be16	sport;
	__be16	dport;
	__be16	length;
	__be16	csum;
};

struct ib_unpacked_vlan {
	__be16	tag;
	__be16	type;
};

/* ---- UD datagram headers (used by drivers that build them in software) ---- */

/* A whole UD header stack; each *_present flag says if that layer is used. */
struct ib_ud_header {
	int			lrh_present;
	struct ib_unpacked_lrh	lrh;
	int			eth_present;
	struct ib_unpacked_eth	eth;
	int			vlan_present;
	struct ib_unpacked_vlan	vlan;
	int			grh_present;
	struct ib_unpacked_grh	grh;
	int			ipv4_present;
	struct ib_unpacked_ip4	ip4;
	int			udp_present;
	struct ib_unpacked_udp	udp;
	struct ib_unpacked_bth	bth;
	struct ib_unpacked_deth	deth;
	int			immediate_present;
	__be32			immediate_data;
};

__sum16 ib_ud_ip4_csum(struct ib_ud_header *header);

int ib_ud_header_init(int payload_bytes, int lrh_present, int eth_present,
		      int vlan_present, int grh_present, int ip_version,
		      int udp_present, int immediate_present,
		      struct ib_ud_header *header);
int ib_ud_header_pack(struct ib_ud_header *header, void *buf);
int ib_ud_header_unpack(void *buf, struct ib_ud_header *header);

#endif /* RDMAOOT_RDMA_IB_PACK_H */
