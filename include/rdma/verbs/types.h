/* SPDX-License-Identifier: GPL-2.0-only */
/* Verbs constants and plain data types: attributes, address vectors, work requests, completions. */
#ifndef RDMAOOT_RDMA_VERBS_TYPES_H
#define RDMAOOT_RDMA_VERBS_TYPES_H

#ifndef RDMAOOT_IB_VERBS_PARTS
#error "include <rdma/ib_verbs.h>, not its parts"
#endif

/*
 * Nothing here needs the full definition of an object (struct ib_device,
 * ib_qp, ...): attribute structs and work requests only point at them, so
 * this part comes first and the object parts build on it.
 */
#include <linux/bits.h>
#include <linux/cgroup_rdma.h>
#include <linux/container_of.h>
#include <linux/dynamic_debug.h>
#include <linux/ethtool.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <rdma/signature.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>

/* Objects defined by the later parts or by other headers. */
struct hw_stats_device_data;
struct ib_ah;
struct ib_cq;
struct ib_device;
struct ib_mr;
struct ib_port;
struct ib_qp;
struct ib_rwq_ind_table;
struct ib_srq;
struct ib_ucq_object;
struct ib_umem;
struct ib_umem_odp;
struct ib_uqp_object;
struct ib_usrq_object;
struct ib_uwq_object;
struct ib_wq;
struct ib_xrcd;
struct net_device;
struct rdma_cgroup;
struct rdma_cm_id;

/* Longest firmware version string a device reports. */
#define IB_FW_VERSION_NAME_MAX	ETHTOOL_FWVERS_LEN

/*
 * Work queues owned by ib_core: ib_wq for general deferred work, the other
 * two for completion processing of IB_POLL_WORKQUEUE and
 * IB_POLL_UNBOUND_WORKQUEUE CQs.
 */
extern struct workqueue_struct *ib_wq;
extern struct workqueue_struct *ib_comp_wq;
extern struct workqueue_struct *ib_comp_unbound_wq;

/* ---- Logging ------------------------------------------------------------- */

/* printk with the device's driver and device name in front (exported by ib_core). */
__printf(3, 4) __cold
void ibdev_printk(const char *level, const struct ib_device *ibdev,
		  const char *format, ...);
__printf(2, 3) __cold
void ibdev_emerg(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_alert(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_crit(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_err(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_warn(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_notice(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_info(const struct ib_device *ibdev, const char *format, ...);

/*
 * Rate-limited variants: each call site gets its own default-sized budget.
 * @ibdev_level is one of the functions above (or anything called the same
 * way).
 */
#define ibdev_level_ratelimited(ibdev_level, ibdev, fmt, ...)		\
do {									\
	static DEFINE_RATELIMIT_STATE(_rs, DEFAULT_RATELIMIT_INTERVAL,	\
				      DEFAULT_RATELIMIT_BURST);		\
	if (__ratelimit(&_rs))						\
		ibdev_level(ibdev, fmt, ##__VA_ARGS__);			\
} while (0)

#define ibdev_emerg_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_emerg, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_alert_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_alert, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_crit_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_crit, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_err_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_err, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_warn_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_warn, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_notice_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_notice, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_info_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_info, ibdev, fmt, ##__VA_ARGS__)

/*
 * Debug messages.
 *
 * 6.1 sends ibdev_dbg() through dynamic debug's __dynamic_ibdev_dbg(). That
 * function is built into the running kernel and reads the device name out
 * of the kernel's own struct ib_device layout, not ours, so we must never
 * call it. Instead each ibdev_dbg() is still a dynamic debug call site
 * (listed in <debugfs>/dynamic_debug/control and switched the usual way),
 * but when enabled it calls our ibdev_printk(KERN_DEBUG, ...). What is lost
 * are the optional decorations dynamic debug adds itself (+f, +l, +m, +t).
 *
 * Without dynamic debug, the messages are printed if DEBUG is defined (like
 * pr_debug(); 6.1 drops them) and compiled out otherwise. The format string
 * and arguments are type-checked in every configuration.
 *
 * ibdev_dbg_ratelimited() tests the call site before the rate limit, so a
 * disabled site never reports "callbacks suppressed".
 */
#define __rdmaoot_ibdev_dbg_print(ibdev, fmt, ...) \
	ibdev_printk(KERN_DEBUG, ibdev, fmt, ##__VA_ARGS__)

#if defined(CONFIG_DYNAMIC_DEBUG) || \
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))
#define __rdmaoot_ibdev_dbg_site(fmt, func, ...) \
	_dynamic_func_call_no_desc(fmt, func, ##__VA_ARGS__)
#elif defined(DEBUG)
#define __rdmaoot_ibdev_dbg_site(fmt, func, ...) \
	do { func(__VA_ARGS__); } while (0)
#else
#define __rdmaoot_ibdev_dbg_site(fmt, func, ...) \
	do { if (0) func(__VA_ARGS__); } while (0)
#endif

#define ibdev_dbg(ibdev, fmt, ...)					\
	__rdmaoot_ibdev_dbg_site(fmt, __rdmaoot_ibdev_dbg_print,	\
				 ibdev, fmt, ##__VA_ARGS__)
#define ibdev_dbg_ratelimited(ibdev, fmt, ...)				\
	__rdmaoot_ibdev_dbg_site(fmt, ibdev_level_ratelimited,		\
				 __rdmaoot_ibdev_dbg_print,		\
				 ibdev, fmt, ##__VA_ARGS__)

/* ---- Path MTU ------------------------------------------------------------ */

/* IBTA MTU codes: code n stands for 128 << n bytes. */
enum ib_mtu {
	IB_MTU_256  = 1,
	IB_MTU_512  = 2,
	IB_MTU_1024 = 3,
	IB_MTU_2048 = 4,
	IB_MTU_4096 = 5
};

/* Bytes for an MTU code, or -1 if @mtu is not one of the IB_MTU_* codes. */
static inline int ib_mtu_enum_to_int(enum ib_mtu mtu)
{
	if (mtu < IB_MTU_256 || mtu > IB_MTU_4096)
		return -1;
	return 256 << (mtu - IB_MTU_256);
}

/*
 * Largest MTU code whose size does not exceed @mtu bytes; anything below
 * 512 (including zero and negative values) gives IB_MTU_256.
 */
static inline enum ib_mtu ib_mtu_int_to_enum(int mtu)
{
	int code = IB_MTU_4096;

	while (code > IB_MTU_256 && mtu < (128 << code))
		code--;
	return (enum ib_mtu)code;
}

/*
 * Omni-Path extends the IB codes with two sizes that are not powers of two.
 * The OPA helpers accept and return IB codes as well.
 */
enum opa_mtu {
	OPA_MTU_8192	= 6,
	OPA_MTU_10240	= 7
};

/* Bytes for an OPA or IB MTU code; -1 for an unknown code. */
static inline int opa_mtu_enum_to_int(enum opa_mtu mtu)
{
	if (mtu == OPA_MTU_10240)
		return 10240;
	if (mtu == OPA_MTU_8192)
		return 8192;
	return ib_mtu_enum_to_int((enum ib_mtu)mtu);
}

/* Largest OPA or IB MTU code not above @mtu bytes (at least IB_MTU_256). */
static inline enum opa_mtu opa_mtu_int_to_enum(int mtu)
{
	if (mtu >= 10240)
		return OPA_MTU_10240;
	if (mtu >= 8192)
		return OPA_MTU_8192;
	return (enum opa_mtu)ib_mtu_int_to_enum(mtu);
}

/* ---- Asynchronous events ------------------------------------------------- */

enum ib_event_type {
	IB_EVENT_CQ_ERR			= 0,
	IB_EVENT_QP_FATAL		= 1,
	IB_EVENT_QP_REQ_ERR		= 2,
	IB_EVENT_QP_ACCESS_ERR		= 3,
	IB_EVENT_COMM_EST		= 4,
	IB_EVENT_SQ_DRAINED		= 5,
	IB_EVENT_PATH_MIG		= 6,
	IB_EVENT_PATH_MIG_ERR		= 7,
	IB_EVENT_DEVICE_FATAL		= 8,
	IB_EVENT_PORT_ACTIVE		= 9,
	IB_EVENT_PORT_ERR		= 10,
	IB_EVENT_LID_CHANGE		= 11,
	IB_EVENT_PKEY_CHANGE		= 12,
	IB_EVENT_SM_CHANGE		= 13,
	IB_EVENT_SRQ_ERR		= 14,
	IB_EVENT_SRQ_LIMIT_REACHED	= 15,
	IB_EVENT_QP_LAST_WQE_REACHED	= 16,
	IB_EVENT_CLIENT_REREGISTER	= 17,
	IB_EVENT_GID_CHANGE		= 18,
	IB_EVENT_WQ_FATAL		= 19,
};

/* Human-readable name of an event, for log messages (core/strings.c). */
const char *__attribute_const__ ib_event_msg(enum ib_event_type event);

/*
 * One asynchronous event. Which member of @element is valid follows from
 * @event: a CQ, QP, SRQ or WQ for object events, a port number for port
 * events, nothing for device events.
 */
struct ib_event {
	struct ib_device	*device;
	union {
		struct ib_cq	*cq;
		struct ib_qp	*qp;
		struct ib_srq	*srq;
		struct ib_wq	*wq;
		u32		port_num;
	} element;
	enum ib_event_type	event;
};

/* A consumer of a device's unaffiliated events (ib_register_event_handler()). */
struct ib_event_handler {
	struct ib_device *device;
	void		(*handler)(struct ib_event_handler *handler,
				   struct ib_event *event);
	struct list_head list;
};

/* Prepare @_ptr for ib_register_event_handler(). */
#define INIT_IB_EVENT_HANDLER(_ptr, _device, _handler)		\
	do {							\
		(_ptr)->device = (_device);			\
		(_ptr)->handler = (_handler);			\
		INIT_LIST_HEAD(&(_ptr)->list);			\
	} while (0)

/* ---- Static rates (address vectors, path records) ------------------------ */

/*
 * IBTA static rate codes, listed in code order. The codes are not sorted by
 * speed: later IBTA revisions appended faster and odd-lane rates at the end.
 */
enum ib_rate {
	IB_RATE_PORT_CURRENT	= 0,
	IB_RATE_2_5_GBPS	= 2,
	IB_RATE_10_GBPS		= 3,
	IB_RATE_30_GBPS		= 4,
	IB_RATE_5_GBPS		= 5,
	IB_RATE_20_GBPS		= 6,
	IB_RATE_40_GBPS		= 7,
	IB_RATE_60_GBPS		= 8,
	IB_RATE_80_GBPS		= 9,
	IB_RATE_120_GBPS	= 10,
	IB_RATE_14_GBPS		= 11,
	IB_RATE_56_GBPS		= 12,
	IB_RATE_112_GBPS	= 13,
	IB_RATE_168_GBPS	= 14,
	IB_RATE_25_GBPS		= 15,
	IB_RATE_100_GBPS	= 16,
	IB_RATE_200_GBPS	= 17,
	IB_RATE_300_GBPS	= 18,
	IB_RATE_28_GBPS		= 19,
	IB_RATE_50_GBPS		= 20,
	IB_RATE_400_GBPS	= 21,
	IB_RATE_600_GBPS	= 22,
};

/* Conversions between rate codes, 2.5 Gb/s multiples and Mb/s (core/rate.c). */
__attribute_const__ int ib_rate_to_mult(enum ib_rate rate);
__attribute_const__ int ib_rate_to_mbps(enum ib_rate rate);
__attribute_const__ enum ib_rate mult_to_ib_rate(int mult);

/* ---- GIDs and network types ---------------------------------------------- */

/* A 128-bit GID: raw bytes, or subnet prefix plus interface id. */
union ib_gid {
	u8	raw[16];
	struct {
		__be64	subnet_prefix;
		__be64	interface_id;
	} global;
};

/* The all-zero GID (exported by ib_core). */
extern union ib_gid zgid;

/* GID table entry types; the values are shared with the uverbs ABI. */
enum ib_gid_type {
	IB_GID_TYPE_IB			= IB_UVERBS_GID_TYPE_IB,
	IB_GID_TYPE_ROCE		= IB_UVERBS_GID_TYPE_ROCE_V1,
	IB_GID_TYPE_ROCE_UDP_ENCAP	= IB_UVERBS_GID_TYPE_ROCE_V2,
	IB_GID_TYPE_SIZE
};

/* IANA UDP destination port of RoCE v2. */
#define ROCE_V2_UDP_DPORT	4791

/*
 * One entry of a port's GID table, as handed out (with a reference) by the
 * GID cache. @ndev is the net device the GID belongs to, for RoCE only.
 */
struct ib_gid_attr {
	struct net_device __rcu	*ndev;
	struct ib_device	*device;
	union ib_gid		gid;
	enum ib_gid_type	gid_type;
	u16			index;
	u32			port_num;
};

enum {
	/* Well-known SA GUID: bit 57 marks it locally administered. */
	IB_SA_WELL_KNOWN_GUID	= BIT_ULL(57) | 2,
};

/* How a node type maps to a transport (rdma_node_get_transport()). */
enum rdma_transport_type {
	RDMA_TRANSPORT_IB		= 0,
	RDMA_TRANSPORT_IWARP		= 1,
	RDMA_TRANSPORT_USNIC		= 2,
	RDMA_TRANSPORT_USNIC_UDP	= 3,
	RDMA_TRANSPORT_UNSPECIFIED	= 4,
};

enum rdma_protocol_type {
	RDMA_PROTOCOL_IB		= 0,
	RDMA_PROTOCOL_IBOE		= 1,
	RDMA_PROTOCOL_IWARP		= 2,
	RDMA_PROTOCOL_USNIC_UDP		= 3
};

/* Transport of an RDMA_NODE_* node type. */
__attribute_const__ enum rdma_transport_type
rdma_node_get_transport(unsigned int node_type);

/* The network header a packet or path uses. */
enum rdma_network_type {
	RDMA_NETWORK_IB		= 0,
	RDMA_NETWORK_ROCE_V1	= 1,
	RDMA_NETWORK_IPV4	= 2,
	RDMA_NETWORK_IPV6	= 3
};

/* GID type that goes with a network type: both IP flavours are RoCE v2. */
static inline enum ib_gid_type
ib_network_to_gid_type(enum rdma_network_type network_type)
{
	switch (network_type) {
	case RDMA_NETWORK_IPV4:
	case RDMA_NETWORK_IPV6:
		return IB_GID_TYPE_ROCE_UDP_ENCAP;
	case RDMA_NETWORK_ROCE_V1:
		return IB_GID_TYPE_ROCE;
	default:
		return IB_GID_TYPE_IB;
	}
}

/*
 * Network type of traffic sent from GID entry @attr. A RoCE v2 GID holding
 * an IPv4 address stores it v4-mapped (::ffff:a.b.c.d).
 */
static inline enum rdma_network_type
rdma_gid_attr_network_type(const struct ib_gid_attr *attr)
{
	switch (attr->gid_type) {
	case IB_GID_TYPE_IB:
		return RDMA_NETWORK_IB;
	case IB_GID_TYPE_ROCE:
		return RDMA_NETWORK_ROCE_V1;
	default:
		break;
	}
	if (ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw))
		return RDMA_NETWORK_IPV4;
	return RDMA_NETWORK_IPV6;
}

/* Link layer under a port. */
enum rdma_link_layer {
	IB_LINK_LAYER_UNSPECIFIED	= 0,
	IB_LINK_LAYER_INFINIBAND	= 1,
	IB_LINK_LAYER_ETHERNET		= 2,
};

/* ---- Device capabilities and attributes ---------------------------------- */

/*
 * ib_device_attr.device_cap_flags. These are reported to user space, so
 * each takes the value of its uverbs twin. Bit 16 (the old SEND_W_INV) and
 * the uverbs INIT_TYPE bit have no kernel name.
 */
enum ib_device_cap_flags {
	IB_DEVICE_RESIZE_MAX_WR		= IB_UVERBS_DEVICE_RESIZE_MAX_WR,
	IB_DEVICE_BAD_PKEY_CNTR		= IB_UVERBS_DEVICE_BAD_PKEY_CNTR,
	IB_DEVICE_BAD_QKEY_CNTR		= IB_UVERBS_DEVICE_BAD_QKEY_CNTR,
	IB_DEVICE_RAW_MULTI		= IB_UVERBS_DEVICE_RAW_MULTI,
	IB_DEVICE_AUTO_PATH_MIG		= IB_UVERBS_DEVICE_AUTO_PATH_MIG,
	IB_DEVICE_CHANGE_PHY_PORT	= IB_UVERBS_DEVICE_CHANGE_PHY_PORT,
	IB_DEVICE_UD_AV_PORT_ENFORCE	= IB_UVERBS_DEVICE_UD_AV_PORT_ENFORCE,
	IB_DEVICE_CURR_QP_STATE_MOD	= IB_UVERBS_DEVICE_CURR_QP_STATE_MOD,
	IB_DEVICE_SHUTDOWN_PORT		= IB_UVERBS_DEVICE_SHUTDOWN_PORT,
	IB_DEVICE_PORT_ACTIVE_EVENT	= IB_UVERBS_DEVICE_PORT_ACTIVE_EVENT,
	IB_DEVICE_SYS_IMAGE_GUID	= IB_UVERBS_DEVICE_SYS_IMAGE_GUID,
	IB_DEVICE_RC_RNR_NAK_GEN	= IB_UVERBS_DEVICE_RC_RNR_NAK_GEN,
	IB_DEVICE_SRQ_RESIZE		= IB_UVERBS_DEVICE_SRQ_RESIZE,
	IB_DEVICE_N_NOTIFY_CQ		= IB_UVERBS_DEVICE_N_NOTIFY_CQ,
	IB_DEVICE_MEM_WINDOW		= IB_UVERBS_DEVICE_MEM_WINDOW,
	/* UD QPs offload TCP/UDP checksums (IPoIB datagram mode uses it). */
	IB_DEVICE_UD_IP_CSUM		= IB_UVERBS_DEVICE_UD_IP_CSUM,
	IB_DEVICE_XRC			= IB_UVERBS_DEVICE_XRC,
	/*
	 * Fast registration and local/remote invalidation work requests
	 * (IB_WR_REG_MR, IB_WR_LOCAL_INV, IB_WR_SEND_WITH_INV); iWARP
	 * devices with it also do IB_WR_RDMA_READ_WITH_INV.
	 */
	IB_DEVICE_MEM_MGT_EXTENSIONS	= IB_UVERBS_DEVICE_MEM_MGT_EXTENSIONS,
	IB_DEVICE_MEM_WINDOW_TYPE_2A	= IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2A,
	IB_DEVICE_MEM_WINDOW_TYPE_2B	= IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2B,
	IB_DEVICE_RC_IP_CSUM		= IB_UVERBS_DEVICE_RC_IP_CSUM,
	/* Superseded by IB_RAW_PACKET_CAP_IP_CSUM. */
	IB_DEVICE_RAW_IP_CSUM		= IB_UVERBS_DEVICE_RAW_IP_CSUM,
	IB_DEVICE_MANAGED_FLOW_STEERING	=
		IB_UVERBS_DEVICE_MANAGED_FLOW_STEERING,
	/* Superseded by IB_RAW_PACKET_CAP_SCATTER_FCS. */
	IB_DEVICE_RAW_SCATTER_FCS	= IB_UVERBS_DEVICE_RAW_SCATTER_FCS,
	/* Incoming writes can be padded to a full cache line. */
	IB_DEVICE_PCI_WRITE_END_PADDING	=
		IB_UVERBS_DEVICE_PCI_WRITE_END_PADDING,
};

/* ib_device_attr.kernel_cap_flags: features only kernel users see. */
enum ib_kernel_cap_flags {
	/*
	 * A device-wide lkey covers all local memory. ULPs should not test
	 * this; ib_pd.local_dma_lkey is always usable.
	 */
	IBK_LOCAL_DMA_LKEY		= 1 << 0,
	/* IB_QP_CREATE_INTEGRITY_EN and integrity MRs (T10-PI offload). */
	IBK_INTEGRITY_HANDOVER		= 1 << 1,
	/* IB_ACCESS_ON_DEMAND in reg_user_mr(). */
	IBK_ON_DEMAND_PAGING		= 1 << 2,
	/* IB_MR_TYPE_SG_GAPS. */
	IBK_SG_GAPS_REG			= 1 << 3,
	/* The device may be removed with RDMA_NLDEV_CMD_DELLINK. */
	IBK_ALLOW_USER_UNREG		= 1 << 4,
	/* The next four tell IPoIB what it may use. */
	IBK_BLOCK_MULTICAST_LOOPBACK	= 1 << 5,	/* that QP create flag */
	IBK_UD_TSO			= 1 << 6,	/* IB_QP_CREATE_IPOIB_UD_LSO */
	IBK_VIRTUAL_FUNCTION		= 1 << 7,	/* the *_vf_* device ops */
	IBK_RDMA_NETDEV_OPA		= 1 << 8,	/* IB_QP_CREATE_NETDEV_USE */
};

/* Scope in which the device keeps atomic operations atomic. */
enum ib_atomic_cap {
	IB_ATOMIC_NONE	= 0,
	IB_ATOMIC_HCA	= 1,
	IB_ATOMIC_GLOB	= 2
};

/* On-demand paging: ib_odp_caps.general_caps. */
enum ib_odp_general_cap_bits {
	IB_ODP_SUPPORT			= 1 << 0,
	IB_ODP_SUPPORT_IMPLICIT		= 1 << 1,
};

/* On-demand paging: operations allowed per transport. */
enum ib_odp_transport_cap_bits {
	IB_ODP_SUPPORT_SEND		= 1 << 0,
	IB_ODP_SUPPORT_RECV		= 1 << 1,
	IB_ODP_SUPPORT_WRITE		= 1 << 2,
	IB_ODP_SUPPORT_READ		= 1 << 3,
	IB_ODP_SUPPORT_ATOMIC		= 1 << 4,
	IB_ODP_SUPPORT_SRQ_RECV		= 1 << 5,
};

struct ib_odp_caps {
	uint64_t general_caps;
	struct {
		uint32_t rc_odp_caps;
		uint32_t uc_odp_caps;
		uint32_t ud_odp_caps;
		uint32_t xrc_odp_caps;
	} per_transport_caps;
};

/* Receive-side scaling. @supported_qpts has bit (1 << IB_QPT_x) per QP type. */
struct ib_rss_caps {
	u32 supported_qpts;
	u32 max_rwq_indirection_tables;
	u32 max_rwq_indirection_table_size;
};

/* Tag matching: ib_tm_caps.flags. */
enum ib_tm_cap_flags {
	/* Rendezvous offload on RC. */
	IB_TM_CAP_RNDV_RC	= 1 << 0,
};

/* Tag matching limits; @max_ops counts outstanding list operations. */
struct ib_tm_caps {
	u32 max_rndv_hdr_size;
	u32 max_num_tags;
	u32 flags;
	u32 max_ops;
	u32 max_sge;
};

/* CQ moderation limits. */
struct ib_cq_caps {
	u16	max_cq_moderation_count;
	u16	max_cq_moderation_period;
};

/* Device memory: registering part of an allocation as an MR. */
struct ib_dm_mr_attr {
	u64		length;
	u64		offset;
	u32		access_flags;
};

/* Device memory: an allocation request. */
struct ib_dm_alloc_attr {
	u64	length;
	u32	alignment;
	u32	flags;
};

/*
 * What a device can do, as filled in by its query_device op. Limits are
 * per device unless the name says otherwise; @device_cap_flags holds
 * IB_DEVICE_*, @kernel_cap_flags IBK_*, @raw_packet_caps
 * IB_RAW_PACKET_CAP_*, @hca_core_clock is in kHz and @max_sgl_rd is the
 * SGL length beyond which RDMA READs get slower.
 */
struct ib_device_attr {
	u64			fw_ver;
	__be64			sys_image_guid;
	u64			max_mr_size;
	u64			page_size_cap;
	u32			vendor_id;
	u32			vendor_part_id;
	u32			hw_ver;
	int			max_qp;
	int			max_qp_wr;
	u64			device_cap_flags;
	u64			kernel_cap_flags;
	int			max_send_sge;
	int			max_recv_sge;
	int			max_sge_rd;
	int			max_cq;
	int			max_cqe;
	int			max_mr;
	int			max_pd;
	int			max_qp_rd_atom;
	int			max_ee_rd_atom;
	int			max_res_rd_atom;
	int			max_qp_init_rd_atom;
	int			max_ee_init_rd_atom;
	enum ib_atomic_cap	atomic_cap;
	enum ib_atomic_cap	masked_atomic_cap;
	int			max_ee;
	int			max_rdd;
	int			max_mw;
	int			max_raw_ipv6_qp;
	int			max_raw_ethy_qp;
	int			max_mcast_grp;
	int			max_mcast_qp_attach;
	int			max_total_mcast_qp_attach;
	int			max_ah;
	int			max_srq;
	int			max_srq_wr;
	int			max_srq_sge;
	unsigned int		max_fast_reg_page_list_len;
	unsigned int		max_pi_fast_reg_page_list_len;
	u16			max_pkeys;
	u8			local_ca_ack_delay;
	int			sig_prot_cap;
	int			sig_guard_cap;
	struct ib_odp_caps	odp_caps;
	uint64_t		timestamp_mask;
	uint64_t		hca_core_clock;
	struct ib_rss_caps	rss_caps;
	u32			max_wq_type_rq;
	u32			raw_packet_caps;
	struct ib_tm_caps	tm_caps;
	struct ib_cq_caps	cq_caps;
	u64			max_dm_size;
	u32			max_sgl_rd;
};

/* ib_modify_device(): which members of struct ib_device_modify to apply. */
enum ib_device_modify_flags {
	IB_DEVICE_MODIFY_SYS_IMAGE_GUID	= 1 << 0,
	IB_DEVICE_MODIFY_NODE_DESC	= 1 << 1
};

/* Size of the node description, including the terminating NUL. */
#define IB_DEVICE_NODE_DESC_MAX 64

struct ib_device_modify {
	u64	sys_image_guid;
	char	node_desc[IB_DEVICE_NODE_DESC_MAX];
};

/* ---- Ports --------------------------------------------------------------- */

/* Logical port state (PortInfo:PortState). */
enum ib_port_state {
	IB_PORT_NOP		= 0,
	IB_PORT_DOWN		= 1,
	IB_PORT_INIT		= 2,
	IB_PORT_ARMED		= 3,
	IB_PORT_ACTIVE		= 4,
	IB_PORT_ACTIVE_DEFER	= 5
};

/* Physical port state (PortInfo:PortPhysicalState). */
enum ib_port_phys_state {
	IB_PORT_PHYS_STATE_SLEEP			= 1,
	IB_PORT_PHYS_STATE_POLLING			= 2,
	IB_PORT_PHYS_STATE_DISABLED			= 3,
	IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING	= 4,
	IB_PORT_PHYS_STATE_LINK_UP			= 5,
	IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY		= 6,
	IB_PORT_PHYS_STATE_PHY_TEST			= 7,
};

/* Link width bits as IBTA encodes them; 2X came last and got bit 4. */
enum ib_port_width {
	IB_WIDTH_1X	= 1,
	IB_WIDTH_2X	= 16,
	IB_WIDTH_4X	= 2,
	IB_WIDTH_8X	= 4,
	IB_WIDTH_12X	= 8
};

/* Number of lanes for a width code, or -1 if @width is not a single code. */
static inline int ib_width_enum_to_int(enum ib_port_width width)
{
	switch (width) {
	case IB_WIDTH_1X:
		return 1;
	case IB_WIDTH_2X:
		return 2;
	case IB_WIDTH_4X:
		return 4;
	case IB_WIDTH_8X:
		return 8;
	case IB_WIDTH_12X:
		return 12;
	}
	return -1;
}

/* Per-lane speed bits. */
enum ib_port_speed {
	IB_SPEED_SDR	= 1,
	IB_SPEED_DDR	= 2,
	IB_SPEED_QDR	= 4,
	IB_SPEED_FDR10	= 8,
	IB_SPEED_FDR	= 16,
	IB_SPEED_EDR	= 32,
	IB_SPEED_HDR	= 64,
	IB_SPEED_NDR	= 128,
};

/*
 * What the core must provide for a port, kept in
 * ib_port_immutable.core_cap_flags: management classes in bits 0-11,
 * address formats in bits 12-19, the protocol in bits 20-31.
 */
#define RDMA_CORE_CAP_IB_MAD			0x00000001
#define RDMA_CORE_CAP_IB_SMI			0x00000002
#define RDMA_CORE_CAP_IB_CM			0x00000004
#define RDMA_CORE_CAP_IW_CM			0x00000008
#define RDMA_CORE_CAP_IB_SA			0x00000010
#define RDMA_CORE_CAP_OPA_MAD			0x00000020

#define RDMA_CORE_CAP_AF_IB			0x00001000
#define RDMA_CORE_CAP_ETH_AH			0x00002000
#define RDMA_CORE_CAP_OPA_AH			0x00004000
#define RDMA_CORE_CAP_IB_GRH_REQUIRED		0x00008000

#define RDMA_CORE_CAP_PROT_IB			0x00100000
#define RDMA_CORE_CAP_PROT_ROCE			0x00200000
#define RDMA_CORE_CAP_PROT_IWARP		0x00400000
#define RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP	0x00800000
#define RDMA_CORE_CAP_PROT_RAW_PACKET		0x01000000
#define RDMA_CORE_CAP_PROT_USNIC		0x02000000

/* The usual combinations, one per kind of port a driver can declare. */
#define RDMA_CORE_PORT_IB_GRH_REQUIRED					\
	(RDMA_CORE_CAP_IB_GRH_REQUIRED | RDMA_CORE_CAP_PROT_ROCE |	\
	 RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP)
#define RDMA_CORE_PORT_IBA_IB						\
	(RDMA_CORE_CAP_PROT_IB | RDMA_CORE_CAP_IB_MAD |			\
	 RDMA_CORE_CAP_IB_SMI | RDMA_CORE_CAP_IB_CM |			\
	 RDMA_CORE_CAP_IB_SA | RDMA_CORE_CAP_AF_IB)
#define RDMA_CORE_PORT_IBA_ROCE						\
	(RDMA_CORE_CAP_PROT_ROCE | RDMA_CORE_CAP_IB_MAD |		\
	 RDMA_CORE_CAP_IB_CM | RDMA_CORE_CAP_AF_IB |			\
	 RDMA_CORE_CAP_ETH_AH)
#define RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP				\
	(RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP | RDMA_CORE_CAP_IB_MAD |	\
	 RDMA_CORE_CAP_IB_CM | RDMA_CORE_CAP_AF_IB |			\
	 RDMA_CORE_CAP_ETH_AH)
#define RDMA_CORE_PORT_IWARP						\
	(RDMA_CORE_CAP_PROT_IWARP | RDMA_CORE_CAP_IW_CM)
#define RDMA_CORE_PORT_INTEL_OPA					\
	(RDMA_CORE_PORT_IBA_IB | RDMA_CORE_CAP_OPA_MAD)
#define RDMA_CORE_PORT_RAW_PACKET	(RDMA_CORE_CAP_PROT_RAW_PACKET)
#define RDMA_CORE_PORT_USNIC		(RDMA_CORE_CAP_PROT_USNIC)

/*
 * Port attributes from the driver's query_port op. @port_cap_flags and
 * @port_cap_flags2 are PortInfo's CapabilityMask fields; @active_width and
 * @active_speed hold an ib_port_width and an ib_port_speed; @phys_mtu is in
 * bytes; @ip_gids means the GID table is filled from IP addresses.
 */
struct ib_port_attr {
	u64			subnet_prefix;
	enum ib_port_state	state;
	enum ib_mtu		max_mtu;
	enum ib_mtu		active_mtu;
	u32			phys_mtu;
	int			gid_tbl_len;
	unsigned int		ip_gids:1;
	u32			port_cap_flags;
	u32			max_msg_sz;
	u32			bad_pkey_cntr;
	u32			qkey_viol_cntr;
	u16			pkey_tbl_len;
	u32			sm_lid;
	u32			lid;
	u8			lmc;
	u8			max_vl_num;
	u8			sm_sl;
	u8			subnet_timeout;
	u8			init_type_reply;
	u8			active_width;
	u16			active_speed;
	u8			phys_state;
	u16			port_cap_flags2;
};

/* ib_modify_port() flags. */
enum ib_port_modify_flags {
	IB_PORT_SHUTDOWN		= 1 << 0,
	IB_PORT_INIT_TYPE		= 1 << 2,
	IB_PORT_RESET_QKEY_CNTR		= 1 << 3,
	IB_PORT_OPA_MASK_CHG		= 1 << 4
};

struct ib_port_modify {
	u32	set_port_cap_mask;
	u32	clr_port_cap_mask;
	u8	init_type;
};

/* ---- Hardware statistics ------------------------------------------------- */

/* rdma_stat_desc.flags */
enum ib_stat_flag {
	/* Off by default; enabled through rdma_counter_modify(). */
	IB_STAT_FLAG_OPTIONAL	= 1 << 0,
};

/* Static description of one counter; @priv belongs to the driver. */
struct rdma_stat_desc {
	const char *name;
	unsigned int flags;
	const void *priv;
};

/*
 * A set of hardware counters, device- or port-wide, or of a bound counter
 * object. The driver's get_hw_stats op fills @value; the core refreshes it
 * at most every @lifespan jiffies (last refresh at @timestamp). @lock
 * serialises refreshes, since 64-bit values are not written atomically
 * everywhere. @is_disabled has one bit per counter; @descs must have at
 * least @num_counters entries.
 */
struct rdma_hw_stats {
	struct mutex			lock;
	unsigned long			timestamp;
	unsigned long			lifespan;
	const struct rdma_stat_desc	*descs;
	unsigned long			*is_disabled;
	int				num_counters;
	u64				value[];
};

/* Default rdma_hw_stats.lifespan, in milliseconds. */
#define RDMA_HW_STATS_DEFAULT_LIFESPAN 10

/* @lifespan in milliseconds; returns NULL when out of memory. */
struct rdma_hw_stats *rdma_alloc_hw_stats_struct(
	const struct rdma_stat_desc *descs, int num_counters,
	unsigned long lifespan);
void rdma_free_hw_stats_struct(struct rdma_hw_stats *stats);

/* ---- Address vectors ----------------------------------------------------- */

/* Global routing part of an address vector (the fields of a GRH). */
struct ib_global_route {
	const struct ib_gid_attr *sgid_attr;
	union ib_gid	dgid;
	u32		flow_label;
	u8		sgid_index;
	u8		hop_limit;
	u8		traffic_class;
};

/* The 40-byte IBA global route header, in wire byte order. */
struct ib_grh {
	__be32		version_tclass_flow;
	__be16		paylen;
	u8		next_hdr;
	u8		hop_limit;
	union ib_gid	sgid;
	union ib_gid	dgid;
};

/*
 * The network header area of a received UD packet: a GRH, or for RoCE v2
 * over IPv4 an IPv4 header in the last 20 of the 40 bytes.
 */
union rdma_network_hdr {
	struct ib_grh ibgrh;
	struct {
		u8		reserved[20];
		struct iphdr	roce4grh;
	};
};

#define IB_QPN_MASK		0xFFFFFF

enum {
	IB_MULTICAST_QPN = 0xffffff
};

/* Both in network byte order. */
#define IB_LID_PERMISSIVE	cpu_to_be16(0xFFFF)
#define IB_MULTICAST_LID_BASE	cpu_to_be16(0xC000)

/* rdma_ah_attr.ah_flags */
enum ib_ah_flags {
	IB_AH_GRH	= 1
};

/* Arguments of the driver's create_ah op; @flags are RDMA_CREATE_AH_*. */
struct rdma_ah_init_attr {
	struct rdma_ah_attr *ah_attr;
	u32 flags;
	struct net_device *xmit_slave;
};

/* Which member of the union in struct rdma_ah_attr is in use. */
enum rdma_ah_attr_type {
	RDMA_AH_ATTR_TYPE_UNDEFINED	= 0,
	RDMA_AH_ATTR_TYPE_IB		= 1,
	RDMA_AH_ATTR_TYPE_ROCE		= 2,
	RDMA_AH_ATTR_TYPE_OPA		= 3,
};

struct ib_ah_attr {
	u16			dlid;
	u8			src_path_bits;
};

struct roce_ah_attr {
	u8			dmac[ETH_ALEN];
};

struct opa_ah_attr {
	u32			dlid;
	u8			src_path_bits;
	bool			make_grd;
};

/*
 * An address vector. @grh is valid when @ah_flags has IB_AH_GRH;
 * @static_rate holds an ib_rate code. Use the rdma_ah_*() accessors rather
 * than the union directly.
 */
struct rdma_ah_attr {
	struct ib_global_route	grh;
	u8			sl;
	u8			static_rate;
	u32			port_num;
	u8			ah_flags;
	enum rdma_ah_attr_type	type;
	union {
		struct ib_ah_attr	ib;
		struct roce_ah_attr	roce;
		struct opa_ah_attr	opa;
	};
};

/* ---- Memory regions and windows ------------------------------------------ */

/*
 * MEM_REG: fast registration (ib_map_mr_sg() + IB_WR_REG_MR);
 * SG_GAPS: like MEM_REG but any SG list, gaps included;
 * DM: device memory; USER: user memory; DMA: the device's physical-address
 * MR; INTEGRITY: data plus protection information (signature offload).
 */
enum ib_mr_type {
	IB_MR_TYPE_MEM_REG	= 0,
	IB_MR_TYPE_SG_GAPS	= 1,
	IB_MR_TYPE_DM		= 2,
	IB_MR_TYPE_USER		= 3,
	IB_MR_TYPE_DMA		= 4,
	IB_MR_TYPE_INTEGRITY	= 5,
};

/* Checks ib_check_mr_status() can run. */
enum ib_mr_status_check {
	IB_MR_CHECK_SIG_STATUS	= 1,
};

/* Result of ib_check_mr_status(): a bit per failed check, and the details. */
struct ib_mr_status {
	u32			fail_status;
	struct ib_sig_err	sig_err;
};

/* MR and MW access rights; the values are shared with the uverbs ABI. */
enum ib_access_flags {
	IB_ACCESS_LOCAL_WRITE		= IB_UVERBS_ACCESS_LOCAL_WRITE,
	IB_ACCESS_REMOTE_WRITE		= IB_UVERBS_ACCESS_REMOTE_WRITE,
	IB_ACCESS_REMOTE_READ		= IB_UVERBS_ACCESS_REMOTE_READ,
	IB_ACCESS_REMOTE_ATOMIC		= IB_UVERBS_ACCESS_REMOTE_ATOMIC,
	IB_ACCESS_MW_BIND		= IB_UVERBS_ACCESS_MW_BIND,
	IB_ZERO_BASED			= IB_UVERBS_ACCESS_ZERO_BASED,
	IB_ACCESS_ON_DEMAND		= IB_UVERBS_ACCESS_ON_DEMAND,
	IB_ACCESS_HUGETLB		= IB_UVERBS_ACCESS_HUGETLB,
	IB_ACCESS_RELAXED_ORDERING	= IB_UVERBS_ACCESS_RELAXED_ORDERING,

	/* Hints a device may ignore. */
	IB_ACCESS_OPTIONAL		= IB_UVERBS_ACCESS_OPTIONAL_RANGE,
	/* Every bit up to HUGETLB, plus the optional range. */
	IB_ACCESS_SUPPORTED		=
		((IB_ACCESS_HUGETLB << 1) - 1) | IB_ACCESS_OPTIONAL,
};

/* What a rereg_user_mr call changes: translation, PD and/or access. */
enum ib_mr_rereg_flags {
	IB_MR_REREG_TRANS	= 1 << 0,
	IB_MR_REREG_PD		= 1 << 1,
	IB_MR_REREG_ACCESS	= 1 << 2,
	IB_MR_REREG_SUPPORTED	= (IB_MR_REREG_ACCESS << 1) - 1
};

enum ib_mw_type {
	IB_MW_TYPE_1	= 1,
	IB_MW_TYPE_2	= 2
};

/* ---- Work completions ---------------------------------------------------- */

/* Completion status codes; the values are shared with the uverbs ABI. */
enum ib_wc_status {
	IB_WC_SUCCESS			= 0,
	IB_WC_LOC_LEN_ERR		= 1,
	IB_WC_LOC_QP_OP_ERR		= 2,
	IB_WC_LOC_EEC_OP_ERR		= 3,
	IB_WC_LOC_PROT_ERR		= 4,
	IB_WC_WR_FLUSH_ERR		= 5,
	IB_WC_MW_BIND_ERR		= 6,
	IB_WC_BAD_RESP_ERR		= 7,
	IB_WC_LOC_ACCESS_ERR		= 8,
	IB_WC_REM_INV_REQ_ERR		= 9,
	IB_WC_REM_ACCESS_ERR		= 10,
	IB_WC_REM_OP_ERR		= 11,
	IB_WC_RETRY_EXC_ERR		= 12,
	IB_WC_RNR_RETRY_EXC_ERR		= 13,
	IB_WC_LOC_RDD_VIOL_ERR		= 14,
	IB_WC_REM_INV_RD_REQ_ERR	= 15,
	IB_WC_REM_ABORT_ERR		= 16,
	IB_WC_INV_EECN_ERR		= 17,
	IB_WC_INV_EEC_STATE_ERR		= 18,
	IB_WC_FATAL_ERR			= 19,
	IB_WC_RESP_TIMEOUT_ERR		= 20,
	IB_WC_GENERAL_ERR		= 21
};

/* Human-readable name of a completion status (core/strings.c). */
const char *__attribute_const__ ib_wc_status_msg(enum ib_wc_status status);

/*
 * What a completion was for. Send-side codes follow the uverbs ABI; all
 * receive-side codes have bit 7 set, so (opcode & IB_WC_RECV) tells a
 * receive completion from a send completion.
 */
enum ib_wc_opcode {
	IB_WC_SEND			= IB_UVERBS_WC_SEND,
	IB_WC_RDMA_WRITE		= IB_UVERBS_WC_RDMA_WRITE,
	IB_WC_RDMA_READ			= IB_UVERBS_WC_RDMA_READ,
	IB_WC_COMP_SWAP			= IB_UVERBS_WC_COMP_SWAP,
	IB_WC_FETCH_ADD			= IB_UVERBS_WC_FETCH_ADD,
	IB_WC_BIND_MW			= IB_UVERBS_WC_BIND_MW,
	IB_WC_LOCAL_INV			= IB_UVERBS_WC_LOCAL_INV,
	IB_WC_LSO			= IB_UVERBS_WC_TSO,
	IB_WC_REG_MR			= IB_WC_LSO + 1,
	IB_WC_MASKED_COMP_SWAP		= IB_WC_LSO + 2,
	IB_WC_MASKED_FETCH_ADD		= IB_WC_LSO + 3,

	IB_WC_RECV			= 1 << 7,
	IB_WC_RECV_RDMA_WITH_IMM	= IB_WC_RECV + 1
};

/* ib_wc.wc_flags */
enum ib_wc_flags {
	IB_WC_GRH			= 1 << 0,
	IB_WC_WITH_IMM			= 1 << 1,
	IB_WC_WITH_INVALIDATE		= 1 << 2,
	IB_WC_IP_CSUM_OK		= 1 << 3,
	IB_WC_WITH_SMAC			= 1 << 4,
	IB_WC_WITH_VLAN			= 1 << 5,
	IB_WC_WITH_NETWORK_HDR_TYPE	= 1 << 6,
};

/*
 * A work completion. Kernel users that post with a struct ib_cqe get it
 * back in @wr_cqe, others their @wr_id. @ex holds the immediate data or
 * the invalidated rkey as @wc_flags says; @port_num is only set for
 * directed-route SMPs on switches; @network_hdr_type is an
 * rdma_network_type when IB_WC_WITH_NETWORK_HDR_TYPE is set.
 */
struct ib_wc {
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	enum ib_wc_status	status;
	enum ib_wc_opcode	opcode;
	u32			vendor_err;
	u32			byte_len;
	struct ib_qp		*qp;
	union {
		__be32		imm_data;
		u32		invalidate_rkey;
	} ex;
	u32			src_qp;
	u32			slid;
	int			wc_flags;
	u16			pkey_index;
	u8			sl;
	u8			dlid_path_bits;
	u32			port_num;
	u8			smac[ETH_ALEN];
	u16			vlan_id;
	u8			network_hdr_type;
};

/* ib_req_notify_cq() flags. */
enum ib_cq_notify_flags {
	IB_CQ_SOLICITED			= 1 << 0,
	IB_CQ_NEXT_COMP			= 1 << 1,
	IB_CQ_SOLICITED_MASK		= IB_CQ_SOLICITED | IB_CQ_NEXT_COMP,
	IB_CQ_REPORT_MISSED_EVENTS	= 1 << 2,
};

/* Arguments of the driver's create_cq op; @flags are IB_UVERBS_CQ_FLAGS_*. */
struct ib_cq_init_attr {
	unsigned int	cqe;
	u32		comp_vector;
	u32		flags;
};

/* Which CQ properties a modify_cq call changes. */
enum ib_cq_attr_mask {
	IB_CQ_MODERATE	= 1 << 0,
};

/* ---- Shared receive queues ----------------------------------------------- */

enum ib_srq_type {
	IB_SRQT_BASIC	= IB_UVERBS_SRQT_BASIC,
	IB_SRQT_XRC	= IB_UVERBS_SRQT_XRC,
	IB_SRQT_TM	= IB_UVERBS_SRQT_TM,
};

/* XRC and tag-matching SRQs complete into a CQ of their own. */
static inline bool ib_srq_has_cq(enum ib_srq_type srq_type)
{
	return srq_type == IB_SRQT_XRC || srq_type == IB_SRQT_TM;
}

/* Which members of struct ib_srq_attr ib_modify_srq() applies. */
enum ib_srq_attr_mask {
	IB_SRQ_MAX_WR	= 1 << 0,
	IB_SRQ_LIMIT	= 1 << 1,
};

struct ib_srq_attr {
	u32	max_wr;
	u32	max_sge;
	u32	srq_limit;
};

/*
 * SRQ creation arguments. @ext.cq is used by the types ib_srq_has_cq()
 * accepts; @ext.xrc by XRC SRQs, @ext.tag_matching by TM SRQs.
 */
struct ib_srq_init_attr {
	void			(*event_handler)(struct ib_event *event,
						 void *srq_context);
	void			*srq_context;
	struct ib_srq_attr	attr;
	enum ib_srq_type	srq_type;

	struct {
		struct ib_cq	*cq;
		union {
			struct {
				struct ib_xrcd *xrcd;
			} xrc;

			struct {
				u32	max_num_tags;
			} tag_matching;
		};
	} ext;
};

/* ---- Queue pairs: types, states and modify attributes -------------------- */

/*
 * QP types. SMI and GSI must stay 0 and 1: the MAD layer indexes per-port
 * arrays with them. The user-visible types take their uverbs ABI values.
 * Types from IB_QPT_RESERVED1 on are private to low-level drivers and never
 * reach the core; IB_QPT_MAX bounds only the types the core knows.
 */
enum ib_qp_type {
	IB_QPT_SMI		= 0,
	IB_QPT_GSI		= 1,
	IB_QPT_RC		= IB_UVERBS_QPT_RC,
	IB_QPT_UC		= IB_UVERBS_QPT_UC,
	IB_QPT_UD		= IB_UVERBS_QPT_UD,
	IB_QPT_RAW_IPV6		= 5,
	IB_QPT_RAW_ETHERTYPE	= 6,
	IB_QPT_RAW_PACKET	= IB_UVERBS_QPT_RAW_PACKET,
	IB_QPT_XRC_INI		= IB_UVERBS_QPT_XRC_INI,
	IB_QPT_XRC_TGT		= IB_UVERBS_QPT_XRC_TGT,
	IB_QPT_MAX		= IB_UVERBS_QPT_XRC_TGT + 1,
	IB_QPT_DRIVER		= IB_UVERBS_QPT_DRIVER,
	IB_QPT_RESERVED1	= 0x1000,
	IB_QPT_RESERVED2	= 0x1001,
	IB_QPT_RESERVED3	= 0x1002,
	IB_QPT_RESERVED4	= 0x1003,
	IB_QPT_RESERVED5	= 0x1004,
	IB_QPT_RESERVED6	= 0x1005,
	IB_QPT_RESERVED7	= 0x1006,
	IB_QPT_RESERVED8	= 0x1007,
	IB_QPT_RESERVED9	= 0x1008,
	IB_QPT_RESERVED10	= 0x1009,
};

/* Which members of struct ib_qp_attr a modify or query call carries. */
enum ib_qp_attr_mask {
	IB_QP_STATE			= BIT(0),
	IB_QP_CUR_STATE			= BIT(1),
	IB_QP_EN_SQD_ASYNC_NOTIFY	= BIT(2),
	IB_QP_ACCESS_FLAGS		= BIT(3),
	IB_QP_PKEY_INDEX		= BIT(4),
	IB_QP_PORT			= BIT(5),
	IB_QP_QKEY			= BIT(6),
	IB_QP_AV			= BIT(7),
	IB_QP_PATH_MTU			= BIT(8),
	IB_QP_TIMEOUT			= BIT(9),
	IB_QP_RETRY_CNT			= BIT(10),
	IB_QP_RNR_RETRY			= BIT(11),
	IB_QP_RQ_PSN			= BIT(12),
	IB_QP_MAX_QP_RD_ATOMIC		= BIT(13),
	IB_QP_ALT_PATH			= BIT(14),
	IB_QP_MIN_RNR_TIMER		= BIT(15),
	IB_QP_SQ_PSN			= BIT(16),
	IB_QP_MAX_DEST_RD_ATOMIC	= BIT(17),
	IB_QP_PATH_MIG_STATE		= BIT(18),
	IB_QP_CAP			= BIT(19),
	IB_QP_DEST_QPN			= BIT(20),
	IB_QP_RESERVED1			= BIT(21),
	IB_QP_RESERVED2			= BIT(22),
	IB_QP_RESERVED3			= BIT(23),
	IB_QP_RESERVED4			= BIT(24),
	IB_QP_RATE_LIMIT		= BIT(25),

	/* The attributes defined by the IBTA, as opposed to extensions. */
	IB_QP_ATTR_STANDARD_BITS	= GENMASK(20, 0),
};

/* QP states of the IBTA state machine, in the order of a normal bring-up. */
enum ib_qp_state {
	IB_QPS_RESET	= 0,
	IB_QPS_INIT	= 1,
	IB_QPS_RTR	= 2,
	IB_QPS_RTS	= 3,
	IB_QPS_SQD	= 4,
	IB_QPS_SQE	= 5,
	IB_QPS_ERR	= 6
};

/* Automatic path migration state of a connected QP. */
enum ib_mig_state {
	IB_MIG_MIGRATED	= 0,
	IB_MIG_REARM	= 1,
	IB_MIG_ARMED	= 2
};

/* Check a modify_qp transition and attribute mask (core/qp_state.c). */
bool ib_modify_qp_is_ok(enum ib_qp_state cur_state, enum ib_qp_state next_state,
			enum ib_qp_type type, enum ib_qp_attr_mask mask);

/* ---- Queue pairs: creation ----------------------------------------------- */

/*
 * Queue sizes. @max_rdma_ctxs is for users of the RDMA R/W API: how many
 * rdma_rw_ctx may be in flight, so that ib_create_qp() can reserve the
 * work requests and MRs they need.
 */
struct ib_qp_cap {
	u32	max_send_wr;
	u32	max_recv_wr;
	u32	max_send_sge;
	u32	max_recv_sge;
	u32	max_inline_data;
	u32	max_rdma_ctxs;
};

/* Whether every send completes, or only those posted with IB_SEND_SIGNALED. */
enum ib_sig_type {
	IB_SIGNAL_ALL_WR	= 0,
	IB_SIGNAL_REQ_WR	= 1
};

/*
 * ib_qp_init_attr.create_flags. Bits 26 to 31 are left to low-level
 * drivers; RESERVED_END is the sign bit, as in 6.1.
 */
enum ib_qp_create_flags {
	IB_QP_CREATE_IPOIB_UD_LSO		= 1 << 0,
	IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK	=
		IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK,
	IB_QP_CREATE_CROSS_CHANNEL		= 1 << 2,
	IB_QP_CREATE_MANAGED_SEND		= 1 << 3,
	IB_QP_CREATE_MANAGED_RECV		= 1 << 4,
	IB_QP_CREATE_NETIF_QP			= 1 << 5,
	IB_QP_CREATE_INTEGRITY_EN		= 1 << 6,
	IB_QP_CREATE_NETDEV_USE			= 1 << 7,
	IB_QP_CREATE_SCATTER_FCS		=
		IB_UVERBS_QP_CREATE_SCATTER_FCS,
	IB_QP_CREATE_CVLAN_STRIPPING		=
		IB_UVERBS_QP_CREATE_CVLAN_STRIPPING,
	IB_QP_CREATE_SOURCE_QPN			= 1 << 10,
	IB_QP_CREATE_PCI_WRITE_END_PADDING	=
		IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING,
	IB_QP_CREATE_RESERVED_START		= 1 << 26,
	IB_QP_CREATE_RESERVED_END		= 1 << 31,
};

/*
 * QP creation arguments. @event_handler runs from a work queue and must
 * not destroy or close the QP it is called for. @xrcd is for XRC target
 * QPs; @port_num for special QP types and R/W API users.
 */
struct ib_qp_init_attr {
	void			(*event_handler)(struct ib_event *event,
						 void *qp_context);
	void			*qp_context;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	struct ib_srq		*srq;
	struct ib_xrcd		*xrcd;
	struct ib_qp_cap	cap;
	enum ib_sig_type	sq_sig_type;
	enum ib_qp_type		qp_type;
	u32			create_flags;
	u32			port_num;
	struct ib_rwq_ind_table	*rwq_ind_tbl;
	u32			source_qpn;
};

/* Arguments of ib_open_qp(): share an existing XRC target QP. */
struct ib_qp_open_attr {
	void			(*event_handler)(struct ib_event *event,
						 void *qp_context);
	void			*qp_context;
	u32			qp_num;
	enum ib_qp_type		qp_type;
};

/* ---- Queue pairs: modify attributes -------------------------------------- */

/*
 * Minimum RNR NAK timer codes. The name gives the delay in milliseconds
 * (IB_RNR_TIMER_001_28 is 1.28 ms); code 0 is the longest, 655.36 ms.
 */
enum ib_rnr_timeout {
	IB_RNR_TIMER_655_36	= 0,
	IB_RNR_TIMER_000_01	= 1,
	IB_RNR_TIMER_000_02	= 2,
	IB_RNR_TIMER_000_03	= 3,
	IB_RNR_TIMER_000_04	= 4,
	IB_RNR_TIMER_000_06	= 5,
	IB_RNR_TIMER_000_08	= 6,
	IB_RNR_TIMER_000_12	= 7,
	IB_RNR_TIMER_000_16	= 8,
	IB_RNR_TIMER_000_24	= 9,
	IB_RNR_TIMER_000_32	= 10,
	IB_RNR_TIMER_000_48	= 11,
	IB_RNR_TIMER_000_64	= 12,
	IB_RNR_TIMER_000_96	= 13,
	IB_RNR_TIMER_001_28	= 14,
	IB_RNR_TIMER_001_92	= 15,
	IB_RNR_TIMER_002_56	= 16,
	IB_RNR_TIMER_003_84	= 17,
	IB_RNR_TIMER_005_12	= 18,
	IB_RNR_TIMER_007_68	= 19,
	IB_RNR_TIMER_010_24	= 20,
	IB_RNR_TIMER_015_36	= 21,
	IB_RNR_TIMER_020_48	= 22,
	IB_RNR_TIMER_030_72	= 23,
	IB_RNR_TIMER_040_96	= 24,
	IB_RNR_TIMER_061_44	= 25,
	IB_RNR_TIMER_081_92	= 26,
	IB_RNR_TIMER_122_88	= 27,
	IB_RNR_TIMER_163_84	= 28,
	IB_RNR_TIMER_245_76	= 29,
	IB_RNR_TIMER_327_68	= 30,
	IB_RNR_TIMER_491_52	= 31
};

/*
 * QP attributes for ib_modify_qp() and ib_query_qp(); the ib_qp_attr_mask
 * passed along says which members are meaningful. @qp_access_flags holds
 * IB_ACCESS_* remote rights; @xmit_slave is the LAG port the QP sends on.
 */
struct ib_qp_attr {
	enum ib_qp_state	qp_state;
	enum ib_qp_state	cur_qp_state;
	enum ib_mtu		path_mtu;
	enum ib_mig_state	path_mig_state;
	u32			qkey;
	u32			rq_psn;
	u32			sq_psn;
	u32			dest_qp_num;
	int			qp_access_flags;
	struct ib_qp_cap	cap;
	struct rdma_ah_attr	ah_attr;
	struct rdma_ah_attr	alt_ah_attr;
	u16			pkey_index;
	u16			alt_pkey_index;
	u8			en_sqd_async_notify;
	u8			sq_draining;
	u8			max_rd_atomic;
	u8			max_dest_rd_atomic;
	u8			min_rnr_timer;
	u32			port_num;
	u8			timeout;
	u8			retry_cnt;
	u8			rnr_retry;
	u32			alt_port_num;
	u8			alt_timeout;
	u32			rate_limit;
	struct net_device	*xmit_slave;
};

/* ---- Work requests ------------------------------------------------------- */

/*
 * Send opcodes. Those user space may post take their uverbs values; REG_MR
 * and REG_MR_INTEGRITY are kernel only; 0xf0 to 0xf9 are left to
 * low-level drivers and never interpreted by the core.
 */
enum ib_wr_opcode {
	IB_WR_RDMA_WRITE			= IB_UVERBS_WR_RDMA_WRITE,
	IB_WR_RDMA_WRITE_WITH_IMM		= IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
	IB_WR_SEND				= IB_UVERBS_WR_SEND,
	IB_WR_SEND_WITH_IMM			= IB_UVERBS_WR_SEND_WITH_IMM,
	IB_WR_RDMA_READ				= IB_UVERBS_WR_RDMA_READ,
	IB_WR_ATOMIC_CMP_AND_SWP		= IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
	IB_WR_ATOMIC_FETCH_AND_ADD		= IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
	IB_WR_BIND_MW				= IB_UVERBS_WR_BIND_MW,
	IB_WR_LSO				= IB_UVERBS_WR_TSO,
	IB_WR_SEND_WITH_INV			= IB_UVERBS_WR_SEND_WITH_INV,
	IB_WR_RDMA_READ_WITH_INV		= IB_UVERBS_WR_RDMA_READ_WITH_INV,
	IB_WR_LOCAL_INV				= IB_UVERBS_WR_LOCAL_INV,
	IB_WR_MASKED_ATOMIC_CMP_AND_SWP		=
		IB_UVERBS_WR_MASKED_ATOMIC_CMP_AND_SWP,
	IB_WR_MASKED_ATOMIC_FETCH_AND_ADD	=
		IB_UVERBS_WR_MASKED_ATOMIC_FETCH_AND_ADD,

	IB_WR_REG_MR				= 0x20,
	IB_WR_REG_MR_INTEGRITY			= 0x21,

	IB_WR_RESERVED1				= 0xf0,
	IB_WR_RESERVED2				= 0xf1,
	IB_WR_RESERVED3				= 0xf2,
	IB_WR_RESERVED4				= 0xf3,
	IB_WR_RESERVED5				= 0xf4,
	IB_WR_RESERVED6				= 0xf5,
	IB_WR_RESERVED7				= 0xf6,
	IB_WR_RESERVED8				= 0xf7,
	IB_WR_RESERVED9				= 0xf8,
	IB_WR_RESERVED10			= 0xf9,
};

/*
 * ib_send_wr.send_flags. Bits 26 to 31 are left to low-level drivers;
 * RESERVED_END is the sign bit, as in 6.1.
 */
enum ib_send_flags {
	IB_SEND_FENCE		= 1 << 0,
	IB_SEND_SIGNALED	= 1 << 1,
	IB_SEND_SOLICITED	= 1 << 2,
	IB_SEND_INLINE		= 1 << 3,
	IB_SEND_IP_CSUM		= 1 << 4,

	IB_SEND_RESERVED_START	= 1 << 26,
	IB_SEND_RESERVED_END	= 1 << 31,
};

/* One scatter/gather element: @addr is a DMA (or MR) address under @lkey. */
struct ib_sge {
	u64	addr;
	u32	length;
	u32	lkey;
};

/*
 * Completion callback of a work request. Embed it in the request's context
 * and post with wr_cqe pointing at it; the CQ code calls @done with the
 * completion, whose wr_cqe leads back to the context via container_of().
 */
struct ib_cqe {
	void (*done)(struct ib_cq *cq, struct ib_wc *wc);
};

/*
 * A send work request; requests are chained through @next. Opcodes that
 * need more (RDMA, atomics, UD, registration) use one of the structures
 * below, which embed this one as @wr.
 */
struct ib_send_wr {
	struct ib_send_wr	*next;
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	struct ib_sge		*sg_list;
	int			num_sge;
	enum ib_wr_opcode	opcode;
	int			send_flags;
	union {
		__be32		imm_data;
		u32		invalidate_rkey;
	} ex;
};

/* RDMA READ and WRITE. */
struct ib_rdma_wr {
	struct ib_send_wr	wr;
	u64			remote_addr;
	u32			rkey;
};

/* The ib_rdma_wr that @wr is embedded in; same for the accessors below. */
static inline const struct ib_rdma_wr *rdma_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_rdma_wr, wr);
}

/* Atomics; the masks are for the masked variants only. */
struct ib_atomic_wr {
	struct ib_send_wr	wr;
	u64			remote_addr;
	u64			compare_add;
	u64			swap;
	u64			compare_add_mask;
	u64			swap_mask;
	u32			rkey;
};

static inline const struct ib_atomic_wr *atomic_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_atomic_wr, wr);
}

/*
 * Datagram sends. @header/@hlen/@mss are for LSO; @pkey_index is only used
 * on GSI QPs, @port_num only for directed-route SMPs on switches.
 */
struct ib_ud_wr {
	struct ib_send_wr	wr;
	struct ib_ah		*ah;
	void			*header;
	int			hlen;
	int			mss;
	u32			remote_qpn;
	u32			remote_qkey;
	u16			pkey_index;
	u32			port_num;
};

static inline const struct ib_ud_wr *ud_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_ud_wr, wr);
}

/* Fast registration of @mr (IB_WR_REG_MR) under @key with @access rights. */
struct ib_reg_wr {
	struct ib_send_wr	wr;
	struct ib_mr		*mr;
	u32			key;
	int			access;
};

static inline const struct ib_reg_wr *reg_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_reg_wr, wr);
}

/* A receive work request; requests are chained through @next. */
struct ib_recv_wr {
	struct ib_recv_wr	*next;
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	struct ib_sge		*sg_list;
	int			num_sge;
};

/* ---- User objects -------------------------------------------------------- */

/*
 * Why a user object is being destroyed. Only DESTROY may fail (user space
 * asked, or cleanup makes a first attempt); for the others the object must
 * go: CLOSE when its context is closed, DRIVER_REMOVE on hot-unplug,
 * ABORT when it was never committed, DRIVER_FAILURE after the driver
 * failed to destroy it and is being disconnected.
 */
enum rdma_remove_reason {
	RDMA_REMOVE_DESTROY		= 0,
	RDMA_REMOVE_CLOSE		= 1,
	RDMA_REMOVE_DRIVER_REMOVE	= 2,
	RDMA_REMOVE_ABORT		= 3,
	RDMA_REMOVE_DRIVER_FAILURE	= 4,
};

/* The RDMA cgroup an object is charged to; empty without CONFIG_CGROUP_RDMA. */
struct ib_rdmacg_object {
#ifdef CONFIG_CGROUP_RDMA
	struct rdma_cgroup	*cg;
#endif
};

#endif /* RDMAOOT_RDMA_VERBS_TYPES_H */
