/* SPDX-License-Identifier: GPL-2.0-only */
/* Management datagrams (MADs): wire formats, RMPP and the MAD agent API of ib_core. */
#ifndef RDMAOOT_RDMA_IB_MAD_H
#define RDMAOOT_RDMA_IB_MAD_H

#include <linux/list.h>

#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_mad.h>

/* ---- Versions, classes and methods ----------------------------------------- */

#define IB_MGMT_BASE_VERSION			1
#define OPA_MGMT_BASE_VERSION			0x80
#define OPA_SM_CLASS_VERSION			0x80

#define IB_MGMT_CLASS_SUBN_LID_ROUTED		0x01
#define IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE	0x81
#define IB_MGMT_CLASS_SUBN_ADM			0x03
#define IB_MGMT_CLASS_PERF_MGMT			0x04
#define IB_MGMT_CLASS_BM			0x05
#define IB_MGMT_CLASS_DEVICE_MGMT		0x06
#define IB_MGMT_CLASS_CM			0x07
#define IB_MGMT_CLASS_SNMP			0x08
#define IB_MGMT_CLASS_DEVICE_ADM		0x10
#define IB_MGMT_CLASS_BOOT_MGMT			0x11
#define IB_MGMT_CLASS_BIS			0x12
#define IB_MGMT_CLASS_CONG_MGMT			0x21
/* Vendor classes in this range carry an OUI (struct ib_vendor_mad). */
#define IB_MGMT_CLASS_VENDOR_RANGE2_START	0x30
#define IB_MGMT_CLASS_VENDOR_RANGE2_END		0x4F

#define IB_OPENIB_OUI				(0x001405)

#define IB_MGMT_METHOD_GET			0x01
#define IB_MGMT_METHOD_SET			0x02
#define IB_MGMT_METHOD_GET_RESP			0x81
#define IB_MGMT_METHOD_SEND			0x03
#define IB_MGMT_METHOD_TRAP			0x05
#define IB_MGMT_METHOD_REPORT			0x06
#define IB_MGMT_METHOD_REPORT_RESP		0x86
#define IB_MGMT_METHOD_TRAP_REPRESS		0x07

/* A response's method is its request's method with this bit set. */
#define IB_MGMT_METHOD_RESP			0x80
#define IB_BM_ATTR_MOD_RESP			cpu_to_be32(1)

#define IB_MGMT_MAX_METHODS			128

/* ---- Status and RMPP codes --------------------------------------------------- */

#define IB_MGMT_MAD_STATUS_SUCCESS			0x0000
#define IB_MGMT_MAD_STATUS_BUSY				0x0001
#define IB_MGMT_MAD_STATUS_REDIRECT_REQD		0x0002
#define IB_MGMT_MAD_STATUS_BAD_VERSION			0x0004
#define IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD		0x0008
#define IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB	0x000c
#define IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE		0x001c

#define IB_MGMT_RMPP_VERSION			1

#define IB_MGMT_RMPP_TYPE_DATA			1
#define IB_MGMT_RMPP_TYPE_ACK			2
#define IB_MGMT_RMPP_TYPE_STOP			3
#define IB_MGMT_RMPP_TYPE_ABORT			4

#define IB_MGMT_RMPP_FLAG_ACTIVE		1
#define IB_MGMT_RMPP_FLAG_FIRST			(1<<1)
#define IB_MGMT_RMPP_FLAG_LAST			(1<<2)

#define IB_MGMT_RMPP_NO_RESPTIME		0x1F

#define IB_MGMT_RMPP_STATUS_SUCCESS		0
#define IB_MGMT_RMPP_STATUS_RESX		1
/* Abort/stop reasons occupy 118..127. */
#define IB_MGMT_RMPP_STATUS_ABORT_MIN		118
#define IB_MGMT_RMPP_STATUS_T2L			118
#define IB_MGMT_RMPP_STATUS_BAD_LEN		119
#define IB_MGMT_RMPP_STATUS_BAD_SEG		120
#define IB_MGMT_RMPP_STATUS_BADT		121
#define IB_MGMT_RMPP_STATUS_W2S			122
#define IB_MGMT_RMPP_STATUS_S2B			123
#define IB_MGMT_RMPP_STATUS_BAD_STATUS		124
#define IB_MGMT_RMPP_STATUS_UNV			125
#define IB_MGMT_RMPP_STATUS_TMR			126
#define IB_MGMT_RMPP_STATUS_UNSPEC		127
#define IB_MGMT_RMPP_STATUS_ABORT_MAX		127

/* ---- Special QPs and keys -------------------------------------------------- */

#define IB_QP0			0
#define IB_QP1			cpu_to_be32(1)
#define IB_QP1_QKEY		0x80010000
/* Q_Key values with this bit set cannot be used by unprivileged senders. */
#define IB_QP_SET_QKEY		0x80000000

#define IB_DEFAULT_PKEY_PARTIAL	0x7FFF
#define IB_DEFAULT_PKEY_FULL	0xFFFF

/* ---- Traps and notices ----------------------------------------------------- */

#define IB_NOTICE_TYPE_FATAL		0x80
#define IB_NOTICE_TYPE_URGENT		0x81
#define IB_NOTICE_TYPE_SECURITY		0x82
#define IB_NOTICE_TYPE_SM		0x83
#define IB_NOTICE_TYPE_INFO		0x84

#define IB_NOTICE_PROD_CA		cpu_to_be16(1)
#define IB_NOTICE_PROD_SWITCH		cpu_to_be16(2)
#define IB_NOTICE_PROD_ROUTER		cpu_to_be16(3)
#define IB_NOTICE_PROD_CLASS_MGR	cpu_to_be16(4)

/* ---- Layouts --------------------------------------------------------------- */

/* Header and payload sizes in bytes; an IB MAD is 256 bytes, an OPA one 2048. */
enum {
	IB_MGMT_MAD_HDR = 24,
	IB_MGMT_MAD_DATA = 232,
	IB_MGMT_RMPP_HDR = 36,
	IB_MGMT_RMPP_DATA = 220,
	IB_MGMT_VENDOR_HDR = 40,
	IB_MGMT_VENDOR_DATA = 216,
	IB_MGMT_SA_HDR = 56,
	IB_MGMT_SA_DATA = 200,
	IB_MGMT_DEVICE_HDR = 64,
	IB_MGMT_DEVICE_DATA = 192,
	IB_MGMT_MAD_SIZE = IB_MGMT_MAD_HDR + IB_MGMT_MAD_DATA,
	OPA_MGMT_MAD_DATA = 2024,
	OPA_MGMT_RMPP_DATA = 2012,
	OPA_MGMT_MAD_SIZE = IB_MGMT_MAD_HDR + OPA_MGMT_MAD_DATA,
};

/* Common header that starts every MAD. */
struct ib_mad_hdr {
	u8	base_version;
	u8	mgmt_class;
	u8	class_version;
	u8	method;
	__be16	status;
	__be16	class_specific;
	__be64	tid;
	__be16	attr_id;
	__be16	resv;
	__be32	attr_mod;
};

struct ib_rmpp_hdr {
	u8	rmpp_version;
	u8	rmpp_type;
	u8	rmpp_rtime_flags;	/* resp time << 3 | flags */
	u8	rmpp_status;
	__be32	seg_num;
	__be32	paylen_newwin;
};

/* SA component mask: big-endian on the wire, one bit per record field. */
typedef u64 __bitwise ib_sa_comp_mask;

#define IB_SA_COMP_MASK(n) ((__force ib_sa_comp_mask) cpu_to_be64(1ull << (n)))

/*
 * The SA header has 64-bit members at 4-byte aligned wire offsets, so it
 * and struct ib_sa_mad must be packed to keep the wire layout on 64-bit
 * machines.
 */
struct ib_sa_hdr {
	__be64			sm_key;
	__be16			attr_offset;
	__be16			reserved;
	ib_sa_comp_mask		comp_mask;
} __packed;

struct ib_mad {
	struct ib_mad_hdr	mad_hdr;
	u8			data[IB_MGMT_MAD_DATA];
};

struct opa_mad {
	struct ib_mad_hdr	mad_hdr;
	u8			data[OPA_MGMT_MAD_DATA];
};

struct ib_rmpp_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	u8			data[IB_MGMT_RMPP_DATA];
};

struct opa_rmpp_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	u8			data[OPA_MGMT_RMPP_DATA];
};

struct ib_sa_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	struct ib_sa_hdr	sa_hdr;
	u8			data[IB_MGMT_SA_DATA];
} __packed;

struct ib_vendor_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	u8			reserved;
	u8			oui[3];
	u8			data[IB_MGMT_VENDOR_DATA];
};

/* ---- ClassPortInfo ---------------------------------------------------------- */

#define IB_MGMT_CLASSPORTINFO_ATTR_ID		cpu_to_be16(0x0001)

/* cap_mask2_resp_time: CapabilityMask2 in the top 27 bits, RespTimeValue below. */
#define IB_CLASS_PORT_INFO_RESP_TIME_MASK	0x1F
#define IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE	5

struct ib_class_port_info {
	u8			base_version;
	u8			class_version;
	__be16			capability_mask;
	__be32			cap_mask2_resp_time;
	u8			redirect_gid[16];
	__be32			redirect_tcslfl;
	__be16			redirect_lid;
	__be16			redirect_pkey;
	__be32			redirect_qp;
	__be32			redirect_qkey;
	u8			trap_gid[16];
	__be32			trap_tcslfl;
	__be16			trap_lid;
	__be16			trap_pkey;
	__be32			trap_hlqp;
	__be32			trap_qkey;
};

/* PortInfo:CapabilityMask bits. */
enum ib_port_capability_mask_bits {
	IB_PORT_SM = 1 << 1,
	IB_PORT_NOTICE_SUP = 1 << 2,
	IB_PORT_TRAP_SUP = 1 << 3,
	IB_PORT_OPT_IPD_SUP = 1 << 4,
	IB_PORT_AUTO_MIGR_SUP = 1 << 5,
	IB_PORT_SL_MAP_SUP = 1 << 6,
	IB_PORT_MKEY_NVRAM = 1 << 7,
	IB_PORT_PKEY_NVRAM = 1 << 8,
	IB_PORT_LED_INFO_SUP = 1 << 9,
	IB_PORT_SM_DISABLED = 1 << 10,
	IB_PORT_SYS_IMAGE_GUID_SUP = 1 << 11,
	IB_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = 1 << 12,
	IB_PORT_EXTENDED_SPEEDS_SUP = 1 << 14,
	IB_PORT_CAP_MASK2_SUP = 1 << 15,
	IB_PORT_CM_SUP = 1 << 16,
	IB_PORT_SNMP_TUNNEL_SUP = 1 << 17,
	IB_PORT_REINIT_SUP = 1 << 18,
	IB_PORT_DEVICE_MGMT_SUP = 1 << 19,
	IB_PORT_VENDOR_CLASS_SUP = 1 << 20,
	IB_PORT_DR_NOTICE_SUP = 1 << 21,
	IB_PORT_CAP_MASK_NOTICE_SUP = 1 << 22,
	IB_PORT_BOOT_MGMT_SUP = 1 << 23,
	IB_PORT_LINK_LATENCY_SUP = 1 << 24,
	IB_PORT_CLIENT_REG_SUP = 1 << 25,
	IB_PORT_OTHER_LOCAL_CHANGES_SUP = 1 << 26,
	IB_PORT_LINK_SPEED_WIDTH_TABLE_SUP = 1 << 27,
	IB_PORT_VENDOR_SPECIFIC_MADS_TABLE_SUP = 1 << 28,
	IB_PORT_MCAST_PKEY_TRAP_SUPPRESSION_SUP = 1 << 29,
	IB_PORT_MCAST_FDB_TOP_SUP = 1 << 30,
	IB_PORT_HIERARCHY_INFO_SUP = 1ULL << 31,
};

/* PortInfo:CapabilityMask2 bits. */
enum ib_port_capability_mask2_bits {
	IB_PORT_SET_NODE_DESC_SUP		= 1 << 0,
	IB_PORT_EX_PORT_INFO_EX_SUP		= 1 << 1,
	IB_PORT_VIRT_SUP			= 1 << 2,
	IB_PORT_SWITCH_PORT_STATE_TABLE_SUP	= 1 << 3,
	IB_PORT_LINK_WIDTH_2X_SUP		= 1 << 4,
	IB_PORT_LINK_SPEED_HDR_SUP		= 1 << 5,
	IB_PORT_LINK_SPEED_NDR_SUP		= 1 << 10,
};

#define OPA_CLASS_PORT_INFO_PR_SUPPORT BIT(26)

/* OPA's ClassPortInfo: 32-bit LIDs, so the IB layout does not fit. */
struct opa_class_port_info {
	u8 base_version;
	u8 class_version;
	__be16 cap_mask;
	__be32 cap_mask2_resp_time;

	u8 redirect_gid[16];
	__be32 redirect_tc_fl;
	__be32 redirect_lid;
	__be32 redirect_sl_qp;
	__be32 redirect_qkey;

	u8 trap_gid[16];
	__be32 trap_tc_fl;
	__be32 trap_lid;
	__be32 trap_hl_qp;
	__be32 trap_qkey;

	__be16 trap_pkey;
	__be16 redirect_pkey;

	u8 trap_sl_rsvd;
	u8 reserved[3];
} __packed;

static inline u8 ib_get_cpi_resp_time(struct ib_class_port_info *cpi)
{
	u32 v = be32_to_cpu(cpi->cap_mask2_resp_time);

	return v & IB_CLASS_PORT_INFO_RESP_TIME_MASK;
}

static inline void ib_set_cpi_resp_time(struct ib_class_port_info *cpi,
					u8 rtime)
{
	u32 v = be32_to_cpu(cpi->cap_mask2_resp_time);

	v &= ~(u32)IB_CLASS_PORT_INFO_RESP_TIME_MASK;
	v |= rtime & IB_CLASS_PORT_INFO_RESP_TIME_MASK;
	cpi->cap_mask2_resp_time = cpu_to_be32(v);
}

static inline u32 ib_get_cpi_capmask2(struct ib_class_port_info *cpi)
{
	return be32_to_cpu(cpi->cap_mask2_resp_time) >>
	       IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE;
}

static inline void ib_set_cpi_capmask2(struct ib_class_port_info *cpi,
				       u32 capmask2)
{
	u32 v = be32_to_cpu(cpi->cap_mask2_resp_time);

	v &= IB_CLASS_PORT_INFO_RESP_TIME_MASK;
	v |= capmask2 << IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE;
	cpi->cap_mask2_resp_time = cpu_to_be32(v);
}

static inline u32 opa_get_cpi_capmask2(struct opa_class_port_info *cpi)
{
	return be32_to_cpu(cpi->cap_mask2_resp_time) >>
	       IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE;
}

/* ---- Notice attribute ------------------------------------------------------- */

/* Notice (trap) data; the member of @details that applies is picked by trap_num. */
struct ib_mad_notice_attr {
	u8 generic_type;
	u8 prod_type_msb;
	__be16 prod_type_lsb;
	__be16 trap_num;
	__be16 issuer_lid;
	__be16 toggle_count;

	union {
		struct {
			u8	details[54];
		} raw_data;

		/* Traps 129-131: link error thresholds, flow update. */
		struct {
			__be16	reserved;
			__be16	lid;
			u8	port_num;
		} __packed ntc_129_131;

		/* Trap 144: capability mask or other local change. */
		struct {
			__be16	reserved;
			__be16	lid;
			u8	reserved2;
			u8	local_changes;	/* bit 0 only */
			__be32	new_cap_mask;
			u8	reserved3;
			u8	change_flags;	/* IB_NOTICE_TRAP_*_CHG, 3 bits */
		} __packed ntc_144;

		/* Trap 145: system image GUID changed. */
		struct {
			__be16	reserved;
			__be16	lid;
			__be16	reserved2;
			__be64	new_sys_guid;
		} __packed ntc_145;

		/* Trap 256: bad M_Key. */
		struct {
			__be16	reserved;
			__be16	lid;
			__be16	dr_slid;
			u8	method;
			u8	reserved2;
			__be16	attr_id;
			__be32	attr_mod;
			__be64	mkey;
			u8	reserved3;
			u8	dr_trunc_hop;
			u8	dr_rtn_path[30];
		} __packed ntc_256;

		/* Traps 257/258: bad P_Key / Q_Key. */
		struct {
			__be16		reserved;
			__be16		lid1;
			__be16		lid2;
			__be32		key;
			__be32		sl_qp1;	/* SL in the top 4 bits */
			__be32		qp2;	/* QPN in the low 24 bits */
			union ib_gid	gid1;
			union ib_gid	gid2;
		} __packed ntc_257_258;

	} details;
};

/* ---- RMPP header accessors ------------------------------------------------- */

static inline u8 ib_get_rmpp_resptime(struct ib_rmpp_hdr *rmpp_hdr)
{
	return rmpp_hdr->rmpp_rtime_flags >> 3;
}

static inline u8 ib_get_rmpp_flags(struct ib_rmpp_hdr *rmpp_hdr)
{
	return rmpp_hdr->rmpp_rtime_flags & 0x07;
}

static inline void ib_set_rmpp_resptime(struct ib_rmpp_hdr *rmpp_hdr, u8 rtime)
{
	rmpp_hdr->rmpp_rtime_flags = (u8)(rtime << 3) |
				     ib_get_rmpp_flags(rmpp_hdr);
}

static inline void ib_set_rmpp_flags(struct ib_rmpp_hdr *rmpp_hdr, u8 flags)
{
	rmpp_hdr->rmpp_rtime_flags = (rmpp_hdr->rmpp_rtime_flags & ~0x07) |
				     (flags & 0x07);
}

/* ---- MAD agents ------------------------------------------------------------ */

struct ib_mad_agent;
struct ib_mad_send_wc;
struct ib_mad_recv_wc;

/*
 * A MAD to send plus its bookkeeping, from ib_create_send_mad(). @mad is
 * the buffer the caller fills (for RMPP: only the headers, segments come
 * from ib_get_rmpp_segment()). @hdr_len covers all headers up to the class
 * data, @data_len the class data. @retries is per window with RMPP and
 * reports the retries used on completion. @context is free for the caller.
 */
struct ib_mad_send_buf {
	struct ib_mad_send_buf	*next;
	void			*mad;
	struct ib_mad_agent	*mad_agent;
	struct ib_ah		*ah;
	void			*context[2];
	int			hdr_len;
	int			data_len;
	int			seg_count;
	int			seg_size;
	int			seg_rmpp_size;
	int			timeout_ms;
	int			retries;
};

/* Called once per posted MAD when it is done (sent, answered, failed). */
typedef void (*ib_mad_send_handler)(struct ib_mad_agent *mad_agent,
				    struct ib_mad_send_wc *mad_send_wc);

/*
 * Called for each received MAD; @send_buf is the matching request for a
 * response, else NULL. The receiver owns @mad_recv_wc and releases it with
 * ib_free_recv_mad(). Responses are delivered before the send completes.
 */
typedef void (*ib_mad_recv_handler)(struct ib_mad_agent *mad_agent,
				    struct ib_mad_send_buf *send_buf,
				    struct ib_mad_recv_wc *mad_recv_wc);

/* Registration flag: the user does RMPP itself, ib_mad passes it through. */
enum {
	IB_MAD_USER_RMPP = IB_USER_MAD_USER_RMPP,
};

/*
 * A registration on one port's SMI or GSI QP. @hi_tid is stamped into the
 * upper 32 bits of the TIDs of requests this agent sends; @security and
 * @mad_agent_sec_list belong to the LSM hooks.
 */
struct ib_mad_agent {
	struct ib_device	*device;
	struct ib_qp		*qp;
	ib_mad_recv_handler	recv_handler;
	ib_mad_send_handler	send_handler;
	void			*context;
	u32			hi_tid;
	u32			flags;
	void			*security;
	struct list_head	mad_agent_sec_list;
	u8			port_num;
	u8			rmpp_version;
	bool			smp_allowed;
};

struct ib_mad_send_wc {
	struct ib_mad_send_buf	*send_buf;
	enum ib_wc_status	status;
	u32			vendor_err;
};

/* One received buffer; @grh is meaningful only when the WC says GRH. */
struct ib_mad_recv_buf {
	struct list_head	list;
	struct ib_grh		*grh;
	union {
		struct ib_mad	*mad;
		struct opa_mad	*opa_mad;
	};
};

/*
 * A received MAD. For RMPP the segments are chained on @rmpp_list and
 * @mad_len is the reassembled length without repeated headers.
 */
struct ib_mad_recv_wc {
	struct ib_wc		*wc;
	struct ib_mad_recv_buf	recv_buf;
	struct list_head	rmpp_list;
	int			mad_len;
	size_t			mad_seg_size;
};

/*
 * Which unsolicited MADs an agent wants: class, class version, vendor OUI
 * (vendor range 2 only) and one bit per method.
 */
struct ib_mad_reg_req {
	u8	mgmt_class;
	u8	mgmt_class_version;
	u8	oui[3];
	DECLARE_BITMAP(method_mask, IB_MGMT_MAX_METHODS);
};

/*
 * Register on @port_num's QP0 (IB_QPT_SMI) or QP1 (IB_QPT_GSI). A NULL
 * @mad_reg_req receives only responses to its own requests. Returns the
 * agent or an ERR_PTR(). May sleep.
 */
struct ib_mad_agent *ib_register_mad_agent(struct ib_device *device,
					   u32 port_num,
					   enum ib_qp_type qp_type,
					   struct ib_mad_reg_req *mad_reg_req,
					   u8 rmpp_version,
					   ib_mad_send_handler send_handler,
					   ib_mad_recv_handler recv_handler,
					   void *context,
					   u32 registration_flags);
/* Flushes outstanding sends and waits for running handlers. May sleep. */
void ib_unregister_mad_agent(struct ib_mad_agent *mad_agent);

/* ---- Sending and receiving ------------------------------------------------- */

/* Whether @hdr is a response (method or trap-repress), not a request. */
int ib_response_mad(const struct ib_mad_hdr *hdr);

/*
 * Allocate a zeroed MAD buffer for @mad_agent addressed to @remote_qpn.
 * @data_len is padded up to whole RMPP segments when @rmpp_active; the
 * RMPP header is then set up by ib_mad. Returns an ERR_PTR() on failure.
 */
struct ib_mad_send_buf *ib_create_send_mad(struct ib_mad_agent *mad_agent,
					   u32 remote_qpn, u16 pkey_index,
					   int rmpp_active,
					   int hdr_len, int data_len,
					   gfp_t gfp_mask,
					   u8 base_version);
void ib_free_send_mad(struct ib_mad_send_buf *send_buf);
/* Data area of RMPP segment @seg_num (1-based); caller serializes. */
void *ib_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num);

/*
 * Post a chain of MADs linked through ->next. Completion order is not
 * guaranteed. On error *@bad_send_buf (optional for a single MAD) points
 * at the first one not posted.
 */
int ib_post_send_mad(struct ib_mad_send_buf *send_buf,
		     struct ib_mad_send_buf **bad_send_buf);
/* Change the response timeout of a posted MAD; 0 cancels it. */
int ib_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms);

/* Cancel a posted MAD; it still completes through the send handler. */
static inline void ib_cancel_mad(struct ib_mad_send_buf *send_buf)
{
	ib_modify_mad(send_buf, 0);
}

void ib_free_recv_mad(struct ib_mad_recv_wc *mad_recv_wc);

int ib_is_mad_class_rmpp(u8 mgmt_class);
/* Offset of the class data in a MAD of @mgmt_class. */
int ib_get_mad_data_offset(u8 mgmt_class);
/* True if ib_mad, not the agent's user, performs RMPP for @agent. */
int ib_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent);

#endif /* RDMAOOT_RDMA_IB_MAD_H */
