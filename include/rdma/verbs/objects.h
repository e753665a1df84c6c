/* SPDX-License-Identifier: GPL-2.0-only */
/* Verbs objects: PD, CQ, SRQ, QP, MR, MW, AH, XRCD, WQ, flows, counters. */
#ifndef RDMAOOT_RDMA_VERBS_OBJECTS_H
#define RDMAOOT_RDMA_VERBS_OBJECTS_H

#ifndef RDMAOOT_IB_VERBS_PARTS
#error "include <rdma/ib_verbs.h>, not its parts"
#endif

/*
 * Every object here starts with the fields a consumer may read (device,
 * owning PD, user object, context pointers) and ends with the core's own
 * bookkeeping, usually a restrack entry. Drivers embed these structs in
 * their own (see INIT_RDMA_OBJ_SIZE at the end); the core allocates them.
 */

/* Types this file only points to. */
struct ib_device;
struct ib_event;
struct ib_gid_attr;
struct ib_wc;
union ib_gid;
struct ib_sig_attrs;
struct ib_mad;
struct inode;
struct net_device;
struct sk_buff;
struct rdma_counter;
/* uverbs objects that wrap a verbs object handed out to user space */
struct ib_uverbs_file;
struct uverbs_api_object;
struct ib_ucq_object;
struct ib_usrq_object;
struct ib_uwq_object;
struct ib_uqp_object;
/* per-port caches and sysfs state private to the core */
struct ib_pkey_cache;
struct ib_gid_table;
struct ib_port;
/* forward references between the objects below */
struct ib_cq;
struct ib_mr;
struct ib_qp;
struct ib_qp_security;
struct ib_flow_action;
struct ib_counters;

/* ---- User contexts and uverbs plumbing ----------------------------------- */

/* One per open of a uverbs device file; drivers hang their state off it. */
struct ib_ucontext {
	struct ib_device	*device;
	struct ib_uverbs_file	*ufile;

	struct ib_rdmacg_object	cg_obj;

	/* core bookkeeping below, not for drivers */
	struct rdma_restrack_entry res;
	/* rdma_user_mmap_entry objects user space may mmap, by page offset */
	struct xarray		mmap_xa;
};

/* The handle user space holds on a verbs object. */
struct ib_uobject {
	u64			user_handle;	/* opaque, from user space */
	struct ib_uverbs_file	*ufile;
	struct ib_ucontext	*context;
	void			*object;	/* the verbs object behind it */
	struct list_head	list;		/* on the ufile's object list */
	struct ib_rdmacg_object	cg_obj;
	int			id;		/* the handle user space uses */
	struct kref		ref;
	/* > 0: readers hold it, -1: one writer has it exclusively */
	atomic_t		usecnt;
	struct rcu_head		rcu;		/* lookups run under RCU */

	const struct uverbs_api_object *uapi_object;
};

/*
 * The driver-specific part of a uverbs command: an input buffer to read
 * from and an output buffer to answer in, both in user memory. A kernel
 * caller passes NULL instead of a udata.
 */
struct ib_udata {
	const void __user	*inbuf;
	void __user		*outbuf;
	size_t			inlen;
	size_t			outlen;
};

/* ---- Protection domains, XRC domains, address handles -------------------- */

struct ib_pd {
	u32			local_dma_lkey;
	u32			flags;		/* enum ib_pd_flags */
	struct ib_device	*device;
	struct ib_uobject	*uobject;
	atomic_t		usecnt;		/* objects created on this PD */

	/* rkey of the all-memory MR, if IB_PD_UNSAFE_GLOBAL_RKEY was asked */
	u32			unsafe_global_rkey;

	/* core bookkeeping below, not for drivers */
	struct ib_mr		*__internal_mr;	/* backs the global rkey */
	struct rdma_restrack_entry res;
};

struct ib_xrcd {
	struct ib_device	*device;
	atomic_t		usecnt;		/* SRQs and QPs using it */
	/* the file user space named when it opened the XRCD, if any */
	struct inode		*inode;
	/* tgt_qps holds the XRC target QPs; the rwsem guards it */
	struct rw_semaphore	tgt_qps_rwsem;
	struct xarray		tgt_qps;
};

struct ib_ah {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_uobject	*uobject;
	/* the source GID the AH holds a reference on */
	const struct ib_gid_attr *sgid_attr;
	enum rdma_ah_attr_type	type;
};

/* ---- Completion queues --------------------------------------------------- */

/* Called, usually in interrupt context, when an armed CQ gets a completion. */
typedef void (*ib_comp_handler)(struct ib_cq *cq, void *cq_context);

/*
 * Where completions of a CQ from ib_alloc_cq() are polled. The pool types
 * come first: the core keeps one shared-CQ pool per type up to
 * IB_POLL_LAST_POOL_TYPE. IB_POLL_DIRECT CQs are polled by their user.
 */
enum ib_poll_context {
	IB_POLL_SOFTIRQ,
	IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
	IB_POLL_LAST_POOL_TYPE = IB_POLL_UNBOUND_WORKQUEUE,

	IB_POLL_DIRECT,
};

struct ib_cq {
	struct ib_device	*device;
	struct ib_ucq_object	*uobject;
	ib_comp_handler		comp_handler;
	void			(*event_handler)(struct ib_event *event,
						 void *context);
	void			*cq_context;
	int			cqe;		/* capacity in entries */
	unsigned int		cqe_used;	/* entries taken, shared CQs */
	atomic_t		usecnt;		/* QPs and WQs using this CQ */
	enum ib_poll_context	poll_ctx;
	struct ib_wc		*wc;		/* batch buffer of the poller */
	struct list_head	pool_entry;	/* on the device's CQ pool */
	/* the poller: irq_poll for softirq CQs, a work item otherwise */
	union {
		struct irq_poll		iop;
		struct work_struct	work;
	};
	struct workqueue_struct	*comp_wq;
	struct dim		*dim;		/* adaptive moderation state */

	/* written only by the CQ tracepoints */
	ktime_t			timestamp;
	u8			interrupt:1;
	u8			shared:1;
	unsigned int		comp_vector;

	/* core bookkeeping below, not for drivers */
	struct rdma_restrack_entry res;
};

/* ---- Shared receive queues ----------------------------------------------- */

struct ib_srq {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_usrq_object	*uobject;
	void			(*event_handler)(struct ib_event *event,
						 void *context);
	void			*srq_context;
	enum ib_srq_type	srq_type;
	atomic_t		usecnt;

	/* what only some SRQ types have: a CQ (XRC, TM), an XRC domain */
	struct {
		struct ib_cq	*cq;
		union {
			struct {
				struct ib_xrcd	*xrcd;
				u32		srq_num;
			} xrc;
		};
	} ext;

	/* core bookkeeping below, not for drivers */
	struct rdma_restrack_entry res;
};

/* ---- Work queues and RSS indirection tables (raw packet QPs) ------------- */

/* Offloads a device may report for raw packet QPs; values are uverbs ABI. */
enum ib_raw_packet_caps {
	IB_RAW_PACKET_CAP_CVLAN_STRIPPING =
		IB_UVERBS_RAW_PACKET_CAP_CVLAN_STRIPPING,
	IB_RAW_PACKET_CAP_SCATTER_FCS = IB_UVERBS_RAW_PACKET_CAP_SCATTER_FCS,
	IB_RAW_PACKET_CAP_IP_CSUM = IB_UVERBS_RAW_PACKET_CAP_IP_CSUM,
	IB_RAW_PACKET_CAP_DELAY_DROP = IB_UVERBS_RAW_PACKET_CAP_DELAY_DROP,
};

enum ib_wq_type {
	IB_WQT_RQ = IB_UVERBS_WQT_RQ,
};

enum ib_wq_state {
	IB_WQS_RESET,
	IB_WQS_RDY,
	IB_WQS_ERR
};

struct ib_wq {
	struct ib_device	*device;
	struct ib_uwq_object	*uobject;
	void			*wq_context;
	void			(*event_handler)(struct ib_event *event,
						 void *context);
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	u32			wq_num;
	enum ib_wq_state	state;
	enum ib_wq_type		wq_type;
	atomic_t		usecnt;
};

/* Create/modify flags of a WQ; the values are uverbs ABI. */
enum ib_wq_flags {
	IB_WQ_FLAGS_CVLAN_STRIPPING	= IB_UVERBS_WQ_FLAGS_CVLAN_STRIPPING,
	IB_WQ_FLAGS_SCATTER_FCS		= IB_UVERBS_WQ_FLAGS_SCATTER_FCS,
	IB_WQ_FLAGS_DELAY_DROP		= IB_UVERBS_WQ_FLAGS_DELAY_DROP,
	IB_WQ_FLAGS_PCI_WRITE_END_PADDING =
		IB_UVERBS_WQ_FLAGS_PCI_WRITE_END_PADDING,
};

struct ib_wq_init_attr {
	void			*wq_context;
	enum ib_wq_type		wq_type;
	u32			max_wr;
	u32			max_sge;
	struct ib_cq		*cq;
	void			(*event_handler)(struct ib_event *event,
						 void *context);
	u32			create_flags;	/* enum ib_wq_flags */
};

/* Which members of struct ib_wq_attr a modify call carries. */
enum ib_wq_attr_mask {
	IB_WQ_STATE	= 1 << 0,
	IB_WQ_CUR_STATE	= 1 << 1,
	IB_WQ_FLAGS	= 1 << 2,
};

struct ib_wq_attr {
	enum ib_wq_state	wq_state;
	enum ib_wq_state	curr_wq_state;
	u32			flags;		/* enum ib_wq_flags to set */
	u32			flags_mask;	/* which of them to change */
};

/* Spreads received packets over 2^log_ind_tbl_size WQs (RSS). */
struct ib_rwq_ind_table {
	struct ib_device	*device;
	struct ib_uobject	*uobject;
	atomic_t		usecnt;
	u32			ind_tbl_num;
	u32			log_ind_tbl_size;
	struct ib_wq		**ind_tbl;
};

struct ib_rwq_ind_table_init_attr {
	u32			log_ind_tbl_size;
	struct ib_wq		**ind_tbl;	/* 2^log_ind_tbl_size WQs */
};

/* ---- P_Key enforcement state of a QP (core/security.c) ------------------- */

/* Whether a QP's port/P_Key pair is set, and whether it is on its list. */
enum port_pkey_state {
	IB_PORT_PKEY_NOT_VALID = 0,
	IB_PORT_PKEY_VALID = 1,
	IB_PORT_PKEY_LISTED = 2,
};

/* One port and P_Key index a QP uses, linked on that port's P_Key list. */
struct ib_port_pkey {
	enum port_pkey_state	state;
	u16			pkey_index;
	u32			port_num;
	struct list_head	qp_list;
	struct list_head	to_error_list;
	struct ib_qp_security	*sec;
};

/* The primary and alternate path settings of a QP. */
struct ib_ports_pkeys {
	struct ib_port_pkey	main;
	struct ib_port_pkey	alt;
};

struct ib_qp_security {
	struct ib_qp		*qp;
	struct ib_device	*dev;
	/* serializes changes of ports_pkeys */
	struct mutex		mutex;
	struct ib_ports_pkeys	*ports_pkeys;
	/* other handles opened on the same shared QP; all must be checked */
	struct list_head	shared_qp_list;
	void			*security;	/* LSM blob */
	bool			destroying;
	/* moving the QP to error after a P_Key change, and waiting for it */
	atomic_t		error_list_count;
	struct completion	error_complete;
	int			error_comps_pending;
};

/* ---- Queue pairs --------------------------------------------------------- */

struct ib_qp {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	/* mr_lock guards the MR pools below (core/mr_pool.c) */
	spinlock_t		mr_lock;
	int			mrs_used;
	struct list_head	rdma_mrs;
	struct list_head	sig_mrs;
	struct ib_srq		*srq;
	struct ib_xrcd		*xrcd;		/* XRC target QPs only */
	struct list_head	xrcd_list;

	/* opens of a shared QP, multicast and flow attachments */
	atomic_t		usecnt;
	struct list_head	open_list;
	/* the QP this handle was opened on (itself unless shared) */
	struct ib_qp		*real_qp;
	struct ib_uqp_object	*uobject;
	void			(*event_handler)(struct ib_event *event,
						 void *context);
	void			*qp_context;
	/* GID references held for the primary and alternate path */
	const struct ib_gid_attr *av_sgid_attr;
	const struct ib_gid_attr *alt_path_sgid_attr;
	u32			qp_num;
	/* SGE limits of a single RDMA WRITE and READ, used by core/rw.c */
	u32			max_write_sge;
	u32			max_read_sge;
	enum ib_qp_type		qp_type;
	struct ib_rwq_ind_table	*rwq_ind_tbl;
	struct ib_qp_security	*qp_sec;
	u32			port;

	bool			integrity_en;

	/* core bookkeeping below, not for drivers */
	struct rdma_restrack_entry res;

	/* statistics counter the QP is bound to, if any */
	struct rdma_counter	*counter;
};

/* ---- Memory: device memory, memory regions, memory windows --------------- */

struct ib_dm {
	struct ib_device	*device;
	u32			length;
	u32			flags;
	struct ib_uobject	*uobject;
	atomic_t		usecnt;		/* MRs registered on it */
};

struct ib_mr {
	struct ib_device	*device;
	/*
	 * A user MR may move to another PD (IB_MR_REREG_PD), so for those
	 * pd is stable only under the uobject lock of a system call.
	 */
	struct ib_pd		*pd;
	u32			lkey;
	u32			rkey;
	u64			iova;
	u64			length;
	unsigned int		page_size;
	enum ib_mr_type		type;
	bool			need_inval;	/* invalidate before reuse */
	union {
		struct ib_uobject	*uobject;	/* user MRs */
		struct list_head	qp_entry;	/* in a QP's MR pool */
	};

	struct ib_dm		*dm;
	struct ib_sig_attrs	*sig_attrs;	/* IB_MR_TYPE_INTEGRITY only */

	/* core bookkeeping below, not for drivers */
	struct rdma_restrack_entry res;
};

struct ib_mw {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_uobject	*uobject;
	u32			rkey;
	enum ib_mw_type		type;
};

/* ---- Flow steering ------------------------------------------------------- */

/* Kinds of steering rule. */
enum ib_flow_attr_type {
	/* match the specs that follow */
	IB_FLOW_ATTR_NORMAL		= 0x0,
	/* Ethernet traffic that no other rule steered */
	IB_FLOW_ATTR_ALL_DEFAULT	= 0x1,
	/* Ethernet multicast that no other rule steered */
	IB_FLOW_ATTR_MC_DEFAULT		= 0x2,
	/* a copy of everything on the port */
	IB_FLOW_ATTR_SNIFFER		= 0x3
};

/*
 * Spec types: bits 4-7 give the header layer (2, 3, 4, tunnel 5, MPLS 6),
 * IB_FLOW_SPEC_INNER is or-ed in for headers inside a tunnel, and 0x1000
 * and up are actions rather than matches.
 */
enum ib_flow_spec_type {
	IB_FLOW_SPEC_ETH		= 0x20,
	IB_FLOW_SPEC_IB			= 0x22,
	IB_FLOW_SPEC_IPV4		= 0x30,
	IB_FLOW_SPEC_IPV6		= 0x31,
	IB_FLOW_SPEC_ESP		= 0x34,
	IB_FLOW_SPEC_TCP		= 0x40,
	IB_FLOW_SPEC_UDP		= 0x41,
	IB_FLOW_SPEC_VXLAN_TUNNEL	= 0x50,
	IB_FLOW_SPEC_GRE		= 0x51,
	IB_FLOW_SPEC_MPLS		= 0x60,
	IB_FLOW_SPEC_INNER		= 0x100,
	IB_FLOW_SPEC_ACTION_TAG		= 0x1000,
	IB_FLOW_SPEC_ACTION_DROP	= 0x1001,
	IB_FLOW_SPEC_ACTION_HANDLE	= 0x1002,
	IB_FLOW_SPEC_ACTION_COUNT	= 0x1003,
};
#define IB_FLOW_SPEC_LAYER_MASK		0xF0
#define IB_FLOW_SPEC_SUPPORT_LAYERS	10

/* struct ib_flow_attr flags. */
enum ib_flow_flags {
	/* let later rules see the packet too */
	IB_FLOW_ATTR_FLAGS_DONT_TRAP = 1UL << 1,
	/* match sent rather than received packets */
	IB_FLOW_ATTR_FLAGS_EGRESS = 1UL << 2,
	/* one past the last valid flag */
	IB_FLOW_ATTR_FLAGS_RESERVED = 1UL << 3
};

/*
 * Each spec below carries a value and a mask of the same filter struct.
 * A filter's real_sz marks its end: user space may pass a shorter or
 * longer filter, and the uverbs layer compares against offsetof(real_sz).
 */

struct ib_flow_eth_filter {
	u8	dst_mac[6];
	u8	src_mac[6];
	__be16	ether_type;
	__be16	vlan_tag;
	u8	real_sz[];
};

struct ib_flow_spec_eth {
	u32				type;
	u16				size;
	struct ib_flow_eth_filter	val;
	struct ib_flow_eth_filter	mask;
};

struct ib_flow_ib_filter {
	__be16	dlid;
	__u8	sl;
	u8	real_sz[];
};

struct ib_flow_spec_ib {
	u32				type;
	u16				size;
	struct ib_flow_ib_filter	val;
	struct ib_flow_ib_filter	mask;
};

/* Fragmentation flags of an IPv4 filter. */
enum ib_ipv4_flags {
	IB_IPV4_DONT_FRAG = 0x2,
	IB_IPV4_MORE_FRAG = 0x4		/* set on every fragment but the last */
};

struct ib_flow_ipv4_filter {
	__be32	src_ip;
	__be32	dst_ip;
	u8	proto;
	u8	tos;
	u8	ttl;
	u8	flags;		/* enum ib_ipv4_flags */
	u8	real_sz[];
};

struct ib_flow_spec_ipv4 {
	u32				type;
	u16				size;
	struct ib_flow_ipv4_filter	val;
	struct ib_flow_ipv4_filter	mask;
};

struct ib_flow_ipv6_filter {
	u8	src_ip[16];
	u8	dst_ip[16];
	__be32	flow_label;
	u8	next_hdr;
	u8	traffic_class;
	u8	hop_limit;
	u8	real_sz[];
};

struct ib_flow_spec_ipv6 {
	u32				type;
	u16				size;
	struct ib_flow_ipv6_filter	val;
	struct ib_flow_ipv6_filter	mask;
};

struct ib_flow_tcp_udp_filter {
	__be16	dst_port;
	__be16	src_port;
	u8	real_sz[];
};

struct ib_flow_spec_tcp_udp {
	u32				type;
	u16				size;
	struct ib_flow_tcp_udp_filter	val;
	struct ib_flow_tcp_udp_filter	mask;
};

struct ib_flow_tunnel_filter {
	__be32	tunnel_id;	/* the VNI for VXLAN */
	u8	real_sz[];
};

struct ib_flow_spec_tunnel {
	u32				type;
	u16				size;
	struct ib_flow_tunnel_filter	val;
	struct ib_flow_tunnel_filter	mask;
};

struct ib_flow_esp_filter {
	__be32	spi;
	__be32	seq;
	u8	real_sz[];
};

struct ib_flow_spec_esp {
	u32				type;
	u16				size;
	struct ib_flow_esp_filter	val;
	struct ib_flow_esp_filter	mask;
};

struct ib_flow_gre_filter {
	__be16	c_ks_res0_ver;	/* checksum/key/sequence bits and version */
	__be16	protocol;
	__be32	key;
	u8	real_sz[];
};

struct ib_flow_spec_gre {
	u32				type;
	u16				size;
	struct ib_flow_gre_filter	val;
	struct ib_flow_gre_filter	mask;
};

struct ib_flow_mpls_filter {
	__be32	tag;
	u8	real_sz[];
};

struct ib_flow_spec_mpls {
	u32				type;
	u16				size;
	struct ib_flow_mpls_filter	val;
	struct ib_flow_mpls_filter	mask;
};

/* Action specs: what to do with a packet the rule matched. */

struct ib_flow_spec_action_tag {
	enum ib_flow_spec_type	type;
	u16			size;
	u32			tag_id;		/* reported in the completion */
};

struct ib_flow_spec_action_drop {
	enum ib_flow_spec_type	type;
	u16			size;
};

struct ib_flow_spec_action_handle {
	enum ib_flow_spec_type	type;
	u16			size;
	struct ib_flow_action	*act;
};

/* What a counter bound to a flow counts. */
enum ib_counters_description {
	IB_COUNTER_PACKETS,
	IB_COUNTER_BYTES,
};

struct ib_flow_spec_action_count {
	enum ib_flow_spec_type	type;
	u16			size;
	struct ib_counters	*counters;
};

/* Any spec; the leading type and size say which one and how long. */
union ib_flow_spec {
	struct {
		u32			type;
		u16			size;
	};
	struct ib_flow_spec_eth			eth;
	struct ib_flow_spec_ib			ib;
	struct ib_flow_spec_ipv4		ipv4;
	struct ib_flow_spec_tcp_udp		tcp_udp;
	struct ib_flow_spec_ipv6		ipv6;
	struct ib_flow_spec_tunnel		tunnel;
	struct ib_flow_spec_esp			esp;
	struct ib_flow_spec_gre			gre;
	struct ib_flow_spec_mpls		mpls;
	struct ib_flow_spec_action_tag		flow_tag;
	struct ib_flow_spec_action_drop		drop;
	struct ib_flow_spec_action_handle	action;
	struct ib_flow_spec_action_count	flow_count;
};

/* A steering rule: num_of_specs specs, packed back to back after it. */
struct ib_flow_attr {
	enum ib_flow_attr_type	type;
	u16			size;
	u16			priority;
	u32			flags;		/* enum ib_flow_flags */
	u8			num_of_specs;
	u32			port;
	union ib_flow_spec	flows[];
};

struct ib_flow {
	struct ib_qp		*qp;
	struct ib_device	*device;
	struct ib_uobject	*uobject;
};

/* ---- Flow actions -------------------------------------------------------- */

enum ib_flow_action_type {
	IB_FLOW_ACTION_UNSPECIFIED,
	IB_FLOW_ACTION_ESP = 1,
};

struct ib_flow_action_attrs_esp_keymats {
	enum ib_uverbs_flow_action_esp_keymat		protocol;
	union {
		struct ib_uverbs_flow_action_esp_keymat_aes_gcm aes_gcm;
	} keymat;
};

struct ib_flow_action_attrs_esp_replays {
	enum ib_uverbs_flow_action_esp_replay		protocol;
	union {
		struct ib_uverbs_flow_action_esp_replay_bmp	bmp;
	} replay;
};

/*
 * ESP action flags. The low 32 bits are the uverbs
 * ib_uverbs_flow_action_esp_flags, passed through unchanged; the kernel's
 * own flags live above them.
 */
enum ib_flow_action_attrs_esp_flags {
	IB_FLOW_ACTION_ESP_FLAGS_ESN_TRIGGERED	= 1ULL << 32,
	IB_FLOW_ACTION_ESP_FLAGS_MOD_ESP_ATTRS	= 1ULL << 33,
};

/* A singly linked list of specs, used for the ESP encapsulation headers. */
struct ib_flow_spec_list {
	struct ib_flow_spec_list	*next;
	union ib_flow_spec		spec;
};

struct ib_flow_action_attrs_esp {
	struct ib_flow_action_attrs_esp_keymats	*keymat;
	struct ib_flow_action_attrs_esp_replays	*replay;
	struct ib_flow_spec_list		*encap;
	/* meaningful, zero included, only with ..._ESN_TRIGGERED set */
	u32					esn;
	u32					spi;
	u32					seq;
	u32					tfc_pad;
	/* enum ib_flow_action_attrs_esp_flags */
	u64					flags;
	u64					hard_limit_pkts;
};

struct ib_flow_action {
	struct ib_device		*device;
	struct ib_uobject		*uobject;
	enum ib_flow_action_type	type;
	atomic_t			usecnt;
};

/* ---- Management datagrams handed to the driver --------------------------- */

/* Checks the driver's process_mad may skip for a MAD the core built. */
enum ib_process_mad_flags {
	IB_MAD_IGNORE_MKEY	= 1,
	IB_MAD_IGNORE_BKEY	= 2,
	IB_MAD_IGNORE_ALL	= IB_MAD_IGNORE_MKEY | IB_MAD_IGNORE_BKEY
};

/* Bits process_mad returns; without SUCCESS the others are ignored. */
enum ib_mad_result {
	IB_MAD_RESULT_FAILURE	= 0,
	IB_MAD_RESULT_SUCCESS	= 1 << 0,
	IB_MAD_RESULT_REPLY	= 1 << 1,	/* send out_mad back */
	IB_MAD_RESULT_CONSUMED	= 1 << 2	/* hide the MAD from others */
};

/* ---- Per-port data of a device ------------------------------------------- */

/* Port state the core caches; guarded by the device's cache_lock. */
struct ib_port_cache {
	u64			subnet_prefix;
	struct ib_pkey_cache	*pkey;
	struct ib_gid_table	*gid;
	u8			lmc;
	enum ib_port_state	port_state;
};

/* Port properties a driver reports once, at registration. */
struct ib_port_immutable {
	int			pkey_tbl_len;
	int			gid_tbl_len;
	u32			core_cap_flags;	/* RDMA_CORE_CAP_* */
	u32			max_mad_size;
};

/* What the core keeps for each port; ib_device.port_data is indexed by port. */
struct ib_port_data {
	struct ib_device	*ib_dev;

	struct ib_port_immutable immutable;

	/* guards pkey_list */
	spinlock_t		pkey_list_lock;

	/* guards writers of netdev */
	spinlock_t		netdev_lock;

	/* the ib_port_pkey of every QP using this port (core/security.c) */
	struct list_head	pkey_list;

	struct ib_port_cache	cache;

	struct net_device __rcu	*netdev;
	struct hlist_node	ndev_hash_link;
	struct rdma_port_counter port_counter;
	struct ib_port		*sysfs;
};

/* ---- Network devices on top of an RDMA port (IPoIB, OPA VNIC) ------------ */

enum rdma_netdev_t {
	RDMA_NETDEV_OPA_VNIC,
	RDMA_NETDEV_IPOIB,
};

/*
 * The private data at the start of a net_device a driver creates for a
 * ULP; the ULP fills clnt_priv and calls the hooks to reach the hardware.
 */
struct rdma_netdev {
	void			*clnt_priv;
	struct ib_device	*hca;
	u32			port_num;
	int			mtu;

	/* the driver's destructor; only OPA VNIC still needs it */
	void (*free_rdma_netdev)(struct net_device *netdev);

	void (*set_id)(struct net_device *netdev, int id);
	int (*send)(struct net_device *dev, struct sk_buff *skb,
		    struct ib_ah *address, u32 dqpn);
	int (*attach_mcast)(struct net_device *dev, struct ib_device *hca,
			    union ib_gid *gid, u16 mlid,
			    int set_qkey, u32 qkey);
	int (*detach_mcast)(struct net_device *dev, struct ib_device *hca,
			    union ib_gid *gid, u16 mlid);
	void (*tx_timeout)(struct net_device *dev, unsigned int txqueue);
};

/* How to allocate one; returned by the driver's rdma_netdev_get_params. */
struct rdma_netdev_alloc_params {
	size_t		sizeof_priv;
	unsigned int	txqs;
	unsigned int	rxqs;
	void		*param;

	int (*initialize_rdma_netdev)(struct ib_device *device, u32 port_num,
				      struct net_device *netdev, void *param);
};

/* ---- Counters ------------------------------------------------------------ */

/* Page fault statistics of an ODP-capable driver. */
struct ib_odp_counters {
	atomic64_t	faults;
	atomic64_t	invalidations;
	atomic64_t	prefetch;
};

/* A counters object user space binds to flows and reads. */
struct ib_counters {
	struct ib_device	*device;
	struct ib_uobject	*uobject;
	atomic_t		usecnt;		/* flows bound to it */
};

struct ib_counters_read_attr {
	u64	*counters_buff;
	u32	ncounters;
	u32	flags;		/* enum ib_uverbs_read_counters_flags */
};

/* ---- Driver-sized objects ------------------------------------------------ */

/*
 * The core allocates PDs, CQs, QPs and friends itself, at the size the
 * driver declares in its ib_device_ops. A driver wraps each object in its
 * own struct, with the ib_ struct as the first member, and declares:
 *
 *	INIT_RDMA_OBJ_SIZE(ib_pd, mydrv_pd, ibpd),
 *
 * which refuses to build if the member is not first or of the wrong type.
 */
#define INIT_RDMA_OBJ_SIZE(ib_struct, drv_struct, member)		\
	.size_##ib_struct = sizeof(struct drv_struct) +			\
		BUILD_BUG_ON_ZERO(offsetof(struct drv_struct,		\
					   member)) +			\
		BUILD_BUG_ON_ZERO(!__same_type(				\
			((struct drv_struct *)NULL)->member,		\
			struct ib_struct))

/* The size field INIT_RDMA_OBJ_SIZE fills in, inside struct ib_device_ops. */
#define DECLARE_RDMA_OBJ_SIZE(ib_struct) size_t size_##ib_struct

/* ---- User mmap entries --------------------------------------------------- */

/*
 * Something of a user context that user space may mmap(): a driver embeds
 * this in its own struct and inserts it with rdma_user_mmap_entry_insert(),
 * which picks the page offset user space then passes to mmap().
 */
struct rdma_user_mmap_entry {
	struct kref		ref;
	struct ib_ucontext	*ucontext;
	unsigned long		start_pgoff;
	size_t			npages;
	bool			driver_removed;
};

/* The byte offset user space gives mmap() to map @entry. */
static inline u64
rdma_user_mmap_get_offset(const struct rdma_user_mmap_entry *entry)
{
	u64 pgoff = entry->start_pgoff;

	return pgoff << PAGE_SHIFT;
}

#endif /* RDMAOOT_RDMA_VERBS_OBJECTS_H */
