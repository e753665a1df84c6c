/* SPDX-License-Identifier: GPL-2.0-only */
/* Capability helpers and the verbs API: what drivers and ULPs call. */
#ifndef RDMAOOT_RDMA_VERBS_API_H
#define RDMAOOT_RDMA_VERBS_API_H

#ifndef RDMAOOT_IB_VERBS_PARTS
#error "include <rdma/ib_verbs.h>, not its parts"
#endif

/*
 * Everything here works on the objects of objects.h and device.h. Most
 * verbs are out-of-line functions of ib_core; the ones on the fast path
 * (posting, polling, DMA mapping) and the pure bit tests are inline so a
 * caller pays no extra call before reaching the driver.
 */

struct cpumask;
struct ib_usrq_object;
struct ib_uverbs_file;
struct inode;
struct net;
struct sockaddr;
struct uverbs_attr_bundle;

/* ---- Port numbering ------------------------------------------------------ */

/* A switch exposes only its management port 0; an HCA numbers ports from 1. */
static inline bool rdma_cap_ib_switch(const struct ib_device *device)
{
	return device->is_switch;
}

static inline u32 rdma_start_port(const struct ib_device *device)
{
	if (rdma_cap_ib_switch(device))
		return 0;
	return 1;
}

static inline u32 rdma_end_port(const struct ib_device *device)
{
	if (rdma_cap_ib_switch(device))
		return 0;
	return device->phys_port_cnt;
}

/*
 * Walk every valid port number of @device. @iter must be a u32 (checked
 * at build time) so the comparison with rdma_end_port() cannot wrap.
 */
#define rdma_for_each_port(device, iter)					\
	for ((void)BUILD_BUG_ON_ZERO(!__same_type(u32, iter)),			\
	     iter = rdma_start_port(device);					\
	     iter <= rdma_end_port(device); iter++)

static inline int rdma_is_port_valid(const struct ib_device *device,
				     unsigned int port)
{
	return port >= rdma_start_port(device) &&
	       port <= rdma_end_port(device);
}

/* Immutable per-port data, for code that cannot see struct ib_device. */
const struct ib_port_immutable *
ib_port_immutable_read(struct ib_device *dev, unsigned int port);

/* ---- Port protocols and management capabilities -------------------------- */

/*
 * All of the tests below read the RDMA_CORE_CAP_* / RDMA_CORE_PORT_* bits
 * the driver reported through get_port_immutable() at registration. The
 * port number is not range checked: callers pass a valid one.
 */
static inline u32 __rdma_port_core_caps(const struct ib_device *device,
					u32 port_num)
{
	return device->port_data[port_num].immutable.core_cap_flags;
}

/* The port wants a GRH on every packet, even inside one subnet. */
static inline bool rdma_is_grh_required(const struct ib_device *device,
					u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) &
	       RDMA_CORE_PORT_IB_GRH_REQUIRED;
}

static inline bool rdma_protocol_ib(const struct ib_device *device,
				    u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_PROT_IB;
}

/* RoCE of either version: v1 (Ethernet) or v2 (UDP/IP). */
static inline bool rdma_protocol_roce(const struct ib_device *device,
				      u32 port_num)
{
	u32 roce = RDMA_CORE_CAP_PROT_ROCE | RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;

	return __rdma_port_core_caps(device, port_num) & roce;
}

static inline bool rdma_protocol_roce_udp_encap(const struct ib_device *device,
						u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) &
	       RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
}

static inline bool rdma_protocol_roce_eth_encap(const struct ib_device *device,
						u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) &
	       RDMA_CORE_CAP_PROT_ROCE;
}

static inline bool rdma_protocol_iwarp(const struct ib_device *device,
				       u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) &
	       RDMA_CORE_CAP_PROT_IWARP;
}

/* IB transport semantics (LIDs or GIDs, MADs, P_Keys) on this port. */
static inline bool rdma_ib_or_roce(const struct ib_device *device,
				   u32 port_num)
{
	if (rdma_protocol_ib(device, port_num))
		return true;
	return rdma_protocol_roce(device, port_num);
}

static inline bool rdma_protocol_raw_packet(const struct ib_device *device,
					    u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) &
	       RDMA_CORE_CAP_PROT_RAW_PACKET;
}

static inline bool rdma_protocol_usnic(const struct ib_device *device,
				       u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) &
	       RDMA_CORE_CAP_PROT_USNIC;
}

/* The port sends and receives management datagrams (256-byte IB MADs). */
static inline bool rdma_cap_ib_mad(const struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_IB_MAD;
}

/* Omni-Path's larger, variable-size MAD format is understood. */
static inline bool rdma_cap_opa_mad(struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_OPA_MAD;
}

/* The port has a subnet management agent reachable over QP0. */
static inline bool rdma_cap_ib_smi(const struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_IB_SMI;
}

/* Connections on this port are set up by the IB CM (MADs over QP1). */
static inline bool rdma_cap_ib_cm(const struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_IB_CM;
}

/* Connections on this port are set up by the iWARP CM (over TCP). */
static inline bool rdma_cap_iw_cm(const struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_IW_CM;
}

/* Paths are resolved by asking the subnet administrator. */
static inline bool rdma_cap_ib_sa(const struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_IB_SA;
}

/*
 * Multicast groups are joined through the SA (once per port, however many
 * QPs attach), so this is the same test as rdma_cap_ib_sa().
 */
static inline bool rdma_cap_ib_mcast(const struct ib_device *device,
				     u32 port_num)
{
	return rdma_cap_ib_sa(device, port_num);
}

/* AF_IB addressing (GID based, as rdma_cm's native IB addresses) works. */
static inline bool rdma_cap_af_ib(const struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_AF_IB;
}

/*
 * Address handles carry Ethernet addressing (RoCE): every AH needs a GRH
 * and a resolved destination MAC.
 */
static inline bool rdma_cap_eth_ah(const struct ib_device *device, u32 port_num)
{
	return __rdma_port_core_caps(device, port_num) & RDMA_CORE_CAP_ETH_AH;
}

/* Address handles may use Omni-Path's extended (32-bit) LIDs. */
static inline bool rdma_cap_opa_ah(struct ib_device *device, u32 port_num)
{
	u32 caps = __rdma_port_core_caps(device, port_num);

	return (caps & RDMA_CORE_CAP_OPA_AH) == RDMA_CORE_CAP_OPA_AH;
}

/* Largest MAD (header and payload) the port handles, 0 without MADs. */
static inline size_t rdma_max_mad_size(const struct ib_device *device,
				       u32 port_num)
{
	return device->port_data[port_num].immutable.max_mad_size;
}

/*
 * The core keeps the port's GID table from net device events (RoCE). It
 * needs the driver's add_gid/del_gid to push entries into the hardware.
 */
static inline bool rdma_cap_roce_gid_table(const struct ib_device *device,
					   u32 port_num)
{
	if (!rdma_protocol_roce(device, port_num))
		return false;
	return device->ops.add_gid && device->ops.del_gid;
}

/* RDMA READ with invalidate: mandatory for iWARP, absent elsewhere. */
static inline bool rdma_cap_read_inv(struct ib_device *dev, u32 port_num)
{
	return rdma_protocol_iwarp(dev, port_num);
}

/* The port is Intel Omni-Path: every bit of the OPA port profile is set. */
static inline bool rdma_core_cap_opa_port(struct ib_device *device,
					  u32 port_num)
{
	u32 caps = __rdma_port_core_caps(device, port_num);

	return (caps & RDMA_CORE_PORT_INTEL_OPA) == RDMA_CORE_PORT_INTEL_OPA;
}

/* ---- Port MTU ------------------------------------------------------------ */

/*
 * Bytes for an MTU code of @port. OPA ports use the opa_mtu codes (which
 * add 8K and 10K), everything else the IB ones; -1 for an unknown code.
 */
static inline int rdma_mtu_enum_to_int(struct ib_device *device, u32 port,
				       int mtu)
{
	if (!rdma_core_cap_opa_port(device, port))
		return ib_mtu_enum_to_int((enum ib_mtu)mtu);
	return opa_mtu_enum_to_int((enum opa_mtu)mtu);
}

/* Bytes of the port's MTU from its queried attributes. */
static inline int rdma_mtu_from_attr(struct ib_device *device, u32 port,
				     struct ib_port_attr *attr)
{
	if (!rdma_core_cap_opa_port(device, port))
		return ib_mtu_enum_to_int(attr->max_mtu);
	return attr->phys_mtu;
}

/* ---- Device and port attributes, SR-IOV virtual functions ----------------- */

/* VF management, forwarded to the driver for the PF's netlink requests. */
int ib_set_vf_link_state(struct ib_device *device, int vf, u32 port,
			 int state);
int ib_get_vf_config(struct ib_device *device, int vf, u32 port,
		     struct ifla_vf_info *info);
int ib_get_vf_stats(struct ib_device *device, int vf, u32 port,
		    struct ifla_vf_stats *stats);
int ib_get_vf_guid(struct ib_device *device, int vf, u32 port,
		   struct ifla_vf_guid *node_guid,
		   struct ifla_vf_guid *port_guid);
int ib_set_vf_guid(struct ib_device *device, int vf, u32 port, u64 guid,
		   int type);

int ib_query_pkey(struct ib_device *device,
		  u32 port_num, u16 index, u16 *pkey);

int ib_modify_device(struct ib_device *device,
		     int device_modify_mask,
		     struct ib_device_modify *device_modify);

int ib_modify_port(struct ib_device *device,
		   u32 port_num, int port_modify_mask,
		   struct ib_port_modify *port_modify);

/* Search every port's tables; @port_num and @index may be NULL. */
int ib_find_gid(struct ib_device *device, union ib_gid *gid,
		u32 *port_num, u16 *index);

int ib_find_pkey(struct ib_device *device,
		 u32 port_num, u16 pkey, u16 *index);

/* ---- Protection domains -------------------------------------------------- */

enum ib_pd_flags {
	/*
	 * Also register all of memory for remote access and publish its
	 * rkey in pd->unsafe_global_rkey. Any peer that learns the rkey can
	 * read and write the whole host, so this is for fully trusted
	 * fabrics only; ib_core logs a warning each time it is used.
	 */
	IB_PD_UNSAFE_GLOBAL_RKEY	= 0x01,
};

/*
 * Kernel PDs: ib_alloc_pd() records the calling module's name for
 * resource tracking. Every PD comes with local_dma_lkey, usable as the
 * lkey of any kernel buffer in local work requests.
 */
struct ib_pd *__ib_alloc_pd(struct ib_device *device, unsigned int flags,
			    const char *caller);
#define ib_alloc_pd(device, flags)					\
	__ib_alloc_pd((device), (flags), KBUILD_MODNAME)

/* @udata is NULL for kernel objects; user objects come from uverbs. */
int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata);

/* Kernel PDs cannot fail to go away; complain loudly if one does. */
static inline void ib_dealloc_pd(struct ib_pd *pd)
{
	int err = ib_dealloc_pd_user(pd, NULL);

	WARN_ONCE(err, "ib_dealloc_pd: driver failed to free a kernel PD (%d)",
		  err);
}

/* ---- Address handles ----------------------------------------------------- */

enum rdma_create_ah_flags {
	/* The caller may sleep (the driver may wait for the hardware). */
	RDMA_CREATE_AH_SLEEPABLE = BIT(0),
};

enum rdma_destroy_ah_flags {
	/* The caller may sleep. */
	RDMA_DESTROY_AH_SLEEPABLE = BIT(0),
};

/* An address handle names one destination for UD sends. */
struct ib_ah *rdma_create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			     u32 flags);

/* As rdma_create_ah() for uverbs; a RoCE destination MAC is resolved here. */
struct ib_ah *rdma_create_user_ah(struct ib_pd *pd,
				  struct rdma_ah_attr *ah_attr,
				  struct ib_udata *udata);

/* Source and destination GID of a received packet's L3 header. */
int ib_get_gids_from_rdma_hdr(const union rdma_network_hdr *hdr,
			      enum rdma_network_type net_type,
			      union ib_gid *sgid, union ib_gid *dgid);

/* 4 or 6 for an IP header in the 40-byte GRH slot of a UD receive buffer. */
int ib_get_rdma_header_version(const union rdma_network_hdr *hdr);

/*
 * Address vector that answers the sender of @wc (@grh is only read when
 * the completion says a GRH is present). On success @ah_attr may hold a
 * reference on an SGID attribute: release it with rdma_destroy_ah_attr().
 */
int ib_init_ah_attr_from_wc(struct ib_device *device, u32 port_num,
			    const struct ib_wc *wc, const struct ib_grh *grh,
			    struct rdma_ah_attr *ah_attr);

struct ib_ah *ib_create_ah_from_wc(struct ib_pd *pd, const struct ib_wc *wc,
				   const struct ib_grh *grh, u32 port_num);

int rdma_modify_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);
int rdma_query_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);

int rdma_destroy_ah_user(struct ib_ah *ah, u32 flags, struct ib_udata *udata);

static inline void rdma_destroy_ah(struct ib_ah *ah, u32 flags)
{
	int err = rdma_destroy_ah_user(ah, flags, NULL);

	WARN_ONCE(err, "rdma_destroy_ah: driver failed to free a kernel AH (%d)",
		  err);
}

/* ---- Shared receive queues ----------------------------------------------- */

struct ib_srq *ib_create_srq_user(struct ib_pd *pd,
				  struct ib_srq_init_attr *srq_init_attr,
				  struct ib_usrq_object *uobject,
				  struct ib_udata *udata);

/* Kernel SRQ; -EOPNOTSUPP if the driver has no SRQ support at all. */
static inline struct ib_srq *
ib_create_srq(struct ib_pd *pd, struct ib_srq_init_attr *srq_init_attr)
{
	if (pd->device->ops.create_srq == NULL)
		return ERR_PTR(-EOPNOTSUPP);
	return ib_create_srq_user(pd, srq_init_attr, NULL, NULL);
}

/*
 * IB_SRQ_MAX_WR in @srq_attr_mask resizes the queue, IB_SRQ_LIMIT arms
 * the low-watermark event.
 */
int ib_modify_srq(struct ib_srq *srq,
		  struct ib_srq_attr *srq_attr,
		  enum ib_srq_attr_mask srq_attr_mask);

int ib_query_srq(struct ib_srq *srq,
		 struct ib_srq_attr *srq_attr);

int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata);

static inline void ib_destroy_srq(struct ib_srq *srq)
{
	int err = ib_destroy_srq_user(srq, NULL);

	WARN_ONCE(err, "ib_destroy_srq: driver failed to free a kernel SRQ (%d)",
		  err);
}

/*
 * Post receive buffers to @srq. On failure *@bad_recv_wr (when not NULL)
 * names the first request that was not queued.
 */
static inline int ib_post_srq_recv(struct ib_srq *srq,
				   const struct ib_recv_wr *recv_wr,
				   const struct ib_recv_wr **bad_recv_wr)
{
	const struct ib_recv_wr *ignored;

	if (!bad_recv_wr)
		bad_recv_wr = &ignored;
	return srq->device->ops.post_srq_recv(srq, recv_wr, bad_recv_wr);
}

/* ---- Queue pairs --------------------------------------------------------- */

struct ib_qp *ib_create_qp_kernel(struct ib_pd *pd,
				  struct ib_qp_init_attr *qp_init_attr,
				  const char *caller);

/*
 * Kernel QP on @pd. On success @init_attr->cap holds what the driver
 * actually allocated, which may exceed what was asked for.
 */
static inline struct ib_qp *ib_create_qp(struct ib_pd *pd,
					 struct ib_qp_init_attr *init_attr)
{
	return ib_create_qp_kernel(pd, init_attr, KBUILD_MODNAME);
}

/* The modify entry point of uverbs, which passes the driver's udata. */
int ib_modify_qp_with_udata(struct ib_qp *qp,
			    struct ib_qp_attr *attr,
			    int attr_mask,
			    struct ib_udata *udata);

/* Change the attributes named by @qp_attr_mask (IB_QP_*), state included. */
int ib_modify_qp(struct ib_qp *qp,
		 struct ib_qp_attr *qp_attr,
		 int qp_attr_mask);

int ib_query_qp(struct ib_qp *qp,
		struct ib_qp_attr *qp_attr,
		int qp_attr_mask,
		struct ib_qp_init_attr *qp_init_attr);

int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata);

/* Unlike the other kernel destroy helpers, this one reports failure. */
static inline int ib_destroy_qp(struct ib_qp *qp)
{
	return ib_destroy_qp_user(qp, NULL);
}

/*
 * Take a handle on an existing shareable (XRC target) QP; ib_close_qp()
 * drops it. The QP itself lives until its last handle is gone.
 */
struct ib_qp *ib_open_qp(struct ib_xrcd *xrcd,
			 struct ib_qp_open_attr *qp_open_attr);
int ib_close_qp(struct ib_qp *qp);

/*
 * Post a chain of send requests. If one fails, the ones before it are
 * already queued (the IB spec wants all or nothing; drivers do not do
 * that) and *@bad_send_wr, when not NULL, points at the first one that
 * was not.
 */
static inline int ib_post_send(struct ib_qp *qp,
			       const struct ib_send_wr *send_wr,
			       const struct ib_send_wr **bad_send_wr)
{
	const struct ib_send_wr *ignored;

	if (!bad_send_wr)
		bad_send_wr = &ignored;
	return qp->device->ops.post_send(qp, send_wr, bad_send_wr);
}

/* As ib_post_send(), for the receive queue. */
static inline int ib_post_recv(struct ib_qp *qp,
			       const struct ib_recv_wr *recv_wr,
			       const struct ib_recv_wr **bad_recv_wr)
{
	const struct ib_recv_wr *ignored;

	if (!bad_recv_wr)
		bad_recv_wr = &ignored;
	return qp->device->ops.post_recv(qp, recv_wr, bad_recv_wr);
}

/* ---- Completion queues --------------------------------------------------- */

/*
 * CQs managed by the core (core/cq.c): completions are delivered by
 * calling each work request's wr_cqe->done in the chosen @poll_ctx.
 * @caller names the owning module for resource tracking.
 */
struct ib_cq *__ib_alloc_cq(struct ib_device *dev, void *private, int nr_cqe,
			    int comp_vector, enum ib_poll_context poll_ctx,
			    const char *caller);

static inline struct ib_cq *ib_alloc_cq(struct ib_device *dev, void *private,
					int nr_cqe, int comp_vector,
					enum ib_poll_context poll_ctx)
{
	return __ib_alloc_cq(dev, private, nr_cqe, comp_vector, poll_ctx,
			     KBUILD_MODNAME);
}

/* As __ib_alloc_cq(), with the core picking a lightly used vector. */
struct ib_cq *__ib_alloc_cq_any(struct ib_device *dev, void *private,
				int nr_cqe, enum ib_poll_context poll_ctx,
				const char *caller);

static inline struct ib_cq *ib_alloc_cq_any(struct ib_device *dev,
					    void *private, int nr_cqe,
					    enum ib_poll_context poll_ctx)
{
	return __ib_alloc_cq_any(dev, private, nr_cqe, poll_ctx,
				 KBUILD_MODNAME);
}

void ib_free_cq(struct ib_cq *cq);

/* Reap up to @budget completions of an IB_POLL_DIRECT CQ in this context. */
int ib_process_cq_direct(struct ib_cq *cq, int budget);

/*
 * Raw CQ with the caller's own completion and event callbacks; the caller
 * polls it. cq->cqe tells the size the driver really gave.
 */
struct ib_cq *__ib_create_cq(struct ib_device *device,
			     ib_comp_handler comp_handler,
			     void (*event_handler)(struct ib_event *, void *),
			     void *cq_context,
			     const struct ib_cq_init_attr *cq_attr,
			     const char *caller);
#define ib_create_cq(device, cmp_hndlr, evt_hndlr, cq_ctxt, cq_attr)	\
	__ib_create_cq((device), (cmp_hndlr), (evt_hndlr), (cq_ctxt),	\
		       (cq_attr), KBUILD_MODNAME)

/* Grow or shrink to hold at least @cqe entries. */
int ib_resize_cq(struct ib_cq *cq, int cqe);

/* Interrupt moderation: an event per @cq_count CQEs or @cq_period usecs. */
int rdma_set_cq_moderation(struct ib_cq *cq, u16 cq_count, u16 cq_period);

int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata);

static inline void ib_destroy_cq(struct ib_cq *cq)
{
	int err = ib_destroy_cq_user(cq, NULL);

	WARN_ONCE(err, "ib_destroy_cq: driver failed to free a kernel CQ (%d)",
		  err);
}

/*
 * Move up to @num_entries completions into @wc. Returns how many were
 * moved (fewer than asked means the CQ is now empty) or a negative errno.
 */
static inline int ib_poll_cq(struct ib_cq *cq, int num_entries,
			     struct ib_wc *wc)
{
	return cq->device->ops.poll_cq(cq, num_entries, wc);
}

/* @wc as user space polls it; for ib_uverbs and software drivers' user CQs. */
struct ib_uverbs_wc;
void ib_wc_to_uverbs(struct ib_uverbs_wc *uwc, const struct ib_wc *wc);

/*
 * Arm @cq for one completion event: @flags holds IB_CQ_SOLICITED or
 * IB_CQ_NEXT_COMP, optionally with IB_CQ_REPORT_MISSED_EVENTS. Negative
 * is an error, 0 means armed (and, with REPORT_MISSED_EVENTS, that
 * nothing slipped in since the last poll). A positive value, only with
 * REPORT_MISSED_EVENTS, means completions may have arrived unannounced:
 * poll again before waiting for the event.
 */
static inline int ib_req_notify_cq(struct ib_cq *cq,
				   enum ib_cq_notify_flags flags)
{
	return cq->device->ops.req_notify_cq(cq, flags);
}

/* Shared CQs of the device-wide pool, for ULPs that do not need their own. */
struct ib_cq *ib_cq_pool_get(struct ib_device *dev, unsigned int nr_cqe,
			     int comp_vector_hint,
			     enum ib_poll_context poll_ctx);
void ib_cq_pool_put(struct ib_cq *cq, unsigned int nr_cqe);

/* ---- DMA mapping --------------------------------------------------------- */

/*
 * Software devices (rxe, siw, rdmavt) copy data with the CPU and register
 * with dma_device == NULL. For them a "DMA address" is simply the kernel
 * virtual address, and the helpers below skip the DMA API entirely.
 */
static inline bool ib_uses_virt_dma(struct ib_device *dev)
{
	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		return false;
	return dev->dma_device == NULL;
}

/* Whether PCI peer-to-peer memory may be handed to this device. */
static inline bool ib_dma_pci_p2p_dma_supported(struct ib_device *dev)
{
	if (ib_uses_virt_dma(dev))
		return false;
	return dma_pci_p2pdma_supported(dev->dma_device);
}

static inline int ib_dma_mapping_error(struct ib_device *dev, u64 dma_addr)
{
	if (ib_uses_virt_dma(dev))
		return 0;
	return dma_mapping_error(dev->dma_device, dma_addr);
}

static inline u64 ib_dma_map_single(struct ib_device *dev,
				    void *cpu_addr, size_t size,
				    enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return (uintptr_t)cpu_addr;
	return dma_map_single(dev->dma_device, cpu_addr, size, direction);
}

static inline void ib_dma_unmap_single(struct ib_device *dev,
				       u64 addr, size_t size,
				       enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return;
	dma_unmap_single(dev->dma_device, addr, size, direction);
}

static inline u64 ib_dma_map_page(struct ib_device *dev,
				  struct page *page,
				  unsigned long offset,
				  size_t size,
				  enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return (uintptr_t)page_address(page) + offset;
	return dma_map_page(dev->dma_device, page, offset, size, direction);
}

static inline void ib_dma_unmap_page(struct ib_device *dev,
				     u64 addr, size_t size,
				     enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return;
	dma_unmap_page(dev->dma_device, addr, size, direction);
}

/*
 * Fill in the DMA address and length of each entry from its page for a
 * virtual-DMA device. Returns @nents: the list is never merged.
 */
int ib_dma_virt_map_sg(struct ib_device *dev, struct scatterlist *sg, int nents);

static inline int ib_dma_map_sg_attrs(struct ib_device *dev,
				      struct scatterlist *sg, int nents,
				      enum dma_data_direction direction,
				      unsigned long dma_attrs)
{
	if (ib_uses_virt_dma(dev))
		return ib_dma_virt_map_sg(dev, sg, nents);
	return dma_map_sg_attrs(dev->dma_device, sg, nents, direction,
				dma_attrs);
}

static inline void ib_dma_unmap_sg_attrs(struct ib_device *dev,
					 struct scatterlist *sg, int nents,
					 enum dma_data_direction direction,
					 unsigned long dma_attrs)
{
	if (ib_uses_virt_dma(dev))
		return;
	dma_unmap_sg_attrs(dev->dma_device, sg, nents, direction, dma_attrs);
}

/*
 * Map a whole sg_table: 0 on success with sgt->nents set to the mapped
 * count, else a negative errno (as dma_map_sgtable()).
 */
static inline int ib_dma_map_sgtable_attrs(struct ib_device *dev,
					   struct sg_table *sgt,
					   enum dma_data_direction direction,
					   unsigned long dma_attrs)
{
	int mapped;

	if (!ib_uses_virt_dma(dev))
		return dma_map_sgtable(dev->dma_device, sgt, direction,
				       dma_attrs);

	mapped = ib_dma_virt_map_sg(dev, sgt->sgl, sgt->orig_nents);
	if (mapped == 0)
		return -EIO;
	sgt->nents = mapped;
	return 0;
}

static inline void ib_dma_unmap_sgtable_attrs(struct ib_device *dev,
					      struct sg_table *sgt,
					      enum dma_data_direction direction,
					      unsigned long dma_attrs)
{
	if (ib_uses_virt_dma(dev))
		return;
	dma_unmap_sgtable(dev->dma_device, sgt, direction, dma_attrs);
}

static inline int ib_dma_map_sg(struct ib_device *dev,
				struct scatterlist *sg, int nents,
				enum dma_data_direction direction)
{
	return ib_dma_map_sg_attrs(dev, sg, nents, direction, 0);
}

static inline void ib_dma_unmap_sg(struct ib_device *dev,
				   struct scatterlist *sg, int nents,
				   enum dma_data_direction direction)
{
	ib_dma_unmap_sg_attrs(dev, sg, nents, direction, 0);
}

/* Longest single segment the device can DMA, in bytes. */
static inline unsigned int ib_dma_max_seg_size(struct ib_device *dev)
{
	if (ib_uses_virt_dma(dev))
		return UINT_MAX;
	return dma_get_max_seg_size(dev->dma_device);
}

static inline void ib_dma_sync_single_for_cpu(struct ib_device *dev,
					      u64 addr,
					      size_t size,
					      enum dma_data_direction dir)
{
	if (ib_uses_virt_dma(dev))
		return;
	dma_sync_single_for_cpu(dev->dma_device, addr, size, dir);
}

static inline void ib_dma_sync_single_for_device(struct ib_device *dev,
						 u64 addr,
						 size_t size,
						 enum dma_data_direction dir)
{
	if (ib_uses_virt_dma(dev))
		return;
	dma_sync_single_for_device(dev->dma_device, addr, size, dir);
}

/* ---- Memory regions ------------------------------------------------------ */

/* Register user memory of current's mm on behalf of a kernel caller. */
struct ib_mr *ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			     u64 virt_addr, int mr_access_flags);

/* Prefetch hint for ODP memory behind @sg_list. */
int ib_advise_mr(struct ib_pd *pd, enum ib_uverbs_advise_mr_advice advice,
		 u32 flags, struct ib_sge *sg_list, u32 num_sge);

/* May fail, e.g. while memory windows are still bound to @mr. */
int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata);

static inline int ib_dereg_mr(struct ib_mr *mr)
{
	return ib_dereg_mr_user(mr, NULL);
}

/* An MR to be filled later by ib_map_mr_sg() and an IB_WR_REG_MR. */
struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			  u32 max_num_sg);

/* An IB_MR_TYPE_INTEGRITY MR with separate data and metadata capacity. */
struct ib_mr *ib_alloc_mr_integrity(struct ib_pd *pd,
				    u32 max_num_data_sg,
				    u32 max_num_meta_sg);

/*
 * The low 8 bits of an lkey/rkey are a key the consumer owns; changing
 * them before each re-registration makes stale remote keys useless.
 */
static inline void ib_update_fast_reg_key(struct ib_mr *mr, u8 newkey)
{
	mr->lkey = (mr->lkey & ~0xffU) | newkey;
	mr->rkey = (mr->rkey & ~0xffU) | newkey;
}

/* Next key: bump the consumer byte, wrapping, leave the index alone. */
static inline u32 ib_inc_rkey(u32 rkey)
{
	u8 key = rkey & 0xff;

	key++;
	return (rkey & ~0xffU) | key;
}

/* ---- Multicast and XRC domains ------------------------------------------- */

/*
 * Attach or detach a UD QP to a multicast group (@lid in CPU order). The
 * group must already exist in the fabric (joined through the SA).
 */
int ib_attach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid);
int ib_detach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid);

struct ib_xrcd *ib_alloc_xrcd_user(struct ib_device *device,
				   struct inode *inode, struct ib_udata *udata);
int ib_dealloc_xrcd_user(struct ib_xrcd *xrcd, struct ib_udata *udata);

/* ---- Access flags -------------------------------------------------------- */

/*
 * Validate MR access @flags for @ib_dev: only known bits; remote write
 * and remote atomic need local write too; on-demand paging needs device
 * support. 0 or -EINVAL.
 */
static inline int ib_check_mr_access(struct ib_device *ib_dev,
				     unsigned int flags)
{
	unsigned int remote_mod = IB_ACCESS_REMOTE_WRITE |
				  IB_ACCESS_REMOTE_ATOMIC;

	if (flags & ~IB_ACCESS_SUPPORTED)
		return -EINVAL;
	if ((flags & remote_mod) && !(flags & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if ((flags & IB_ACCESS_ON_DEMAND) &&
	    !(ib_dev->attrs.kernel_cap_flags & IBK_ON_DEMAND_PAGING))
		return -EINVAL;
	return 0;
}

/*
 * Whether memory registered with @access_flags can be written: directly,
 * by an atomic, or through a memory window bound to it.
 */
static inline bool ib_access_writable(int access_flags)
{
	int writers = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		      IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_MW_BIND;

	return access_flags & writers;
}

/* Signature/integrity error state of @mr for the checks in @check_mask. */
int ib_check_mr_status(struct ib_mr *mr, u32 check_mask,
		       struct ib_mr_status *mr_status);

/* ---- Device references and net devices ----------------------------------- */

/*
 * Keep @dev registered until ib_device_put(). Fails once unregistration
 * has begun. To merely keep the memory alive use get_device(&dev->dev).
 */
static inline bool ib_device_try_get(struct ib_device *dev)
{
	return refcount_inc_not_zero(&dev->refcount);
}

void ib_device_put(struct ib_device *device);

/* Lookups return a device held as by ib_device_try_get(), or NULL. */
struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  enum rdma_driver_id driver_id);
struct ib_device *ib_device_get_by_name(const char *name,
					enum rdma_driver_id driver_id);

/* Ask the registered clients which net device serves this address. */
struct net_device *ib_get_net_dev_by_params(struct ib_device *dev, u32 port,
					    u16 pkey, const union ib_gid *gid,
					    const struct sockaddr *addr);

int ib_device_set_netdev(struct ib_device *ib_dev, struct net_device *ndev,
			 unsigned int port);
/* The port's net device with a reference held, or NULL. */
struct net_device *ib_device_netdev(struct ib_device *dev, u32 port);

/* ---- Work queues --------------------------------------------------------- */

struct ib_wq *ib_create_wq(struct ib_pd *pd,
			   struct ib_wq_init_attr *init_attr);
int ib_destroy_wq_user(struct ib_wq *wq, struct ib_udata *udata);

/* ---- Mapping scatterlists into MRs --------------------------------------- */

/*
 * Load @sg into @mr's page list in @page_size pages, ready for an
 * IB_WR_REG_MR. Returns how many entries were mapped; @sg_offset (may be
 * NULL) is the byte offset into the first entry and is updated for a
 * partial mapping.
 */
int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size);

/* Same for an integrity MR, with a data and a metadata list. */
int ib_map_mr_sg_pi(struct ib_mr *mr, struct scatterlist *data_sg,
		    int data_sg_nents, unsigned int *data_sg_offset,
		    struct scatterlist *meta_sg, int meta_sg_nents,
		    unsigned int *meta_sg_offset, unsigned int page_size);

/* As ib_map_mr_sg(), then make the MR's addresses zero based. */
static inline int
ib_map_mr_sg_zbva(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset, unsigned int page_size)
{
	int mapped = ib_map_mr_sg(mr, sg, sg_nents, sg_offset, page_size);

	mr->iova = 0;
	return mapped;
}

/* Library for drivers: split @sgl into pages and feed each to @set_page. */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset, int (*set_page)(struct ib_mr *, u64));

/* ---- Draining and link speed --------------------------------------------- */

/*
 * Wait until every posted request of the queue has completed (flushed if
 * need be). The QP must use a CQ from ib_alloc_cq() and the caller must
 * not post more work meanwhile. May sleep.
 */
void ib_drain_rq(struct ib_qp *qp);
void ib_drain_sq(struct ib_qp *qp);
void ib_drain_qp(struct ib_qp *qp);

/* IB speed and width that best describe the port's Ethernet link. */
int ib_get_eth_speed(struct ib_device *dev, u32 port_num, u16 *speed,
		     u8 *width);

/* ---- Address vector accessors -------------------------------------------- */

/*
 * struct rdma_ah_attr keeps per-fabric fields in a union selected by
 * ->type. These accessors pick the right member; setting a field the
 * type does not have is ignored and getting one yields 0/false/NULL.
 */

static inline u8 *rdma_ah_retrieve_dmac(struct rdma_ah_attr *attr)
{
	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE)
		return NULL;
	return attr->roce.dmac;
}

/* IB LIDs are 16 bits wide; OPA ones 32. */
static inline void rdma_ah_set_dlid(struct rdma_ah_attr *attr, u32 dlid)
{
	switch (attr->type) {
	case RDMA_AH_ATTR_TYPE_IB:
		attr->ib.dlid = (u16)dlid;
		break;
	case RDMA_AH_ATTR_TYPE_OPA:
		attr->opa.dlid = dlid;
		break;
	default:
		break;
	}
}

static inline u32 rdma_ah_get_dlid(const struct rdma_ah_attr *attr)
{
	switch (attr->type) {
	case RDMA_AH_ATTR_TYPE_IB:
		return attr->ib.dlid;
	case RDMA_AH_ATTR_TYPE_OPA:
		return attr->opa.dlid;
	default:
		return 0;
	}
}

static inline void rdma_ah_set_sl(struct rdma_ah_attr *attr, u8 sl)
{
	attr->sl = sl;
}

static inline u8 rdma_ah_get_sl(const struct rdma_ah_attr *attr)
{
	return attr->sl;
}

static inline void rdma_ah_set_path_bits(struct rdma_ah_attr *attr,
					 u8 src_path_bits)
{
	switch (attr->type) {
	case RDMA_AH_ATTR_TYPE_IB:
		attr->ib.src_path_bits = src_path_bits;
		break;
	case RDMA_AH_ATTR_TYPE_OPA:
		attr->opa.src_path_bits = src_path_bits;
		break;
	default:
		break;
	}
}

static inline u8 rdma_ah_get_path_bits(const struct rdma_ah_attr *attr)
{
	switch (attr->type) {
	case RDMA_AH_ATTR_TYPE_IB:
		return attr->ib.src_path_bits;
	case RDMA_AH_ATTR_TYPE_OPA:
		return attr->opa.src_path_bits;
	default:
		return 0;
	}
}

/* OPA only: build a GRH to route the packet although no GID is given. */
static inline void rdma_ah_set_make_grd(struct rdma_ah_attr *attr,
					bool make_grd)
{
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA)
		attr->opa.make_grd = make_grd;
}

static inline bool rdma_ah_get_make_grd(const struct rdma_ah_attr *attr)
{
	if (attr->type != RDMA_AH_ATTR_TYPE_OPA)
		return false;
	return attr->opa.make_grd;
}

static inline void rdma_ah_set_port_num(struct rdma_ah_attr *attr, u32 port_num)
{
	attr->port_num = port_num;
}

static inline u32 rdma_ah_get_port_num(const struct rdma_ah_attr *attr)
{
	return attr->port_num;
}

/* @static_rate is an enum ib_rate value. */
static inline void rdma_ah_set_static_rate(struct rdma_ah_attr *attr,
					   u8 static_rate)
{
	attr->static_rate = static_rate;
}

static inline u8 rdma_ah_get_static_rate(const struct rdma_ah_attr *attr)
{
	return attr->static_rate;
}

/* Replaces all of ah_flags, not just one bit. */
static inline void rdma_ah_set_ah_flags(struct rdma_ah_attr *attr,
					enum ib_ah_flags flag)
{
	attr->ah_flags = flag;
}

static inline enum ib_ah_flags
rdma_ah_get_ah_flags(const struct rdma_ah_attr *attr)
{
	return attr->ah_flags;
}

/* The GRH fields, read only. */
static inline const struct ib_global_route *
rdma_ah_read_grh(const struct rdma_ah_attr *attr)
{
	return &attr->grh;
}

/* The GRH fields, for changing them in place. */
static inline struct ib_global_route *
rdma_ah_retrieve_grh(struct rdma_ah_attr *attr)
{
	return &attr->grh;
}

/* Copy a 16-byte destination GID from an untyped buffer. */
static inline void rdma_ah_set_dgid_raw(struct rdma_ah_attr *attr, void *dgid)
{
	struct ib_global_route *grh = rdma_ah_retrieve_grh(attr);

	memcpy(grh->dgid.raw, dgid, sizeof(grh->dgid.raw));
}

static inline void rdma_ah_set_subnet_prefix(struct rdma_ah_attr *attr,
					     __be64 prefix)
{
	rdma_ah_retrieve_grh(attr)->dgid.global.subnet_prefix = prefix;
}

static inline void rdma_ah_set_interface_id(struct rdma_ah_attr *attr,
					    __be64 if_id)
{
	rdma_ah_retrieve_grh(attr)->dgid.global.interface_id = if_id;
}

/*
 * Make @attr global: ah_flags becomes exactly IB_AH_GRH and the GRH is
 * filled in. @dgid may be NULL to keep the current destination GID. No
 * SGID attribute is referenced; see rdma_move_grh_sgid_attr() for that.
 */
static inline void rdma_ah_set_grh(struct rdma_ah_attr *attr,
				   union ib_gid *dgid, u32 flow_label,
				   u8 sgid_index, u8 hop_limit,
				   u8 traffic_class)
{
	struct ib_global_route *grh = rdma_ah_retrieve_grh(attr);

	attr->ah_flags = IB_AH_GRH;
	if (dgid)
		grh->dgid = *dgid;
	grh->flow_label = flow_label;
	grh->sgid_index = sgid_index;
	grh->hop_limit = hop_limit;
	grh->traffic_class = traffic_class;
	grh->sgid_attr = NULL;
}

/*
 * An rdma_ah_attr may own a reference on its GRH's sgid_attr. These
 * functions keep that reference counted right: destroy drops it, copy
 * takes another, replace and move hand it over.
 */
void rdma_destroy_ah_attr(struct rdma_ah_attr *ah_attr);
void rdma_move_grh_sgid_attr(struct rdma_ah_attr *attr, union ib_gid *dgid,
			     u32 flow_label, u8 hop_limit, u8 traffic_class,
			     const struct ib_gid_attr *sgid_attr);
void rdma_copy_ah_attr(struct rdma_ah_attr *dest,
		       const struct rdma_ah_attr *src);
void rdma_replace_ah_attr(struct rdma_ah_attr *old,
			  const struct rdma_ah_attr *new);
void rdma_move_ah_attr(struct rdma_ah_attr *dest, struct rdma_ah_attr *src);

/* Which kind of address vector a port of @dev takes. */
static inline enum rdma_ah_attr_type rdma_ah_find_type(struct ib_device *dev,
						       u32 port_num)
{
	if (rdma_protocol_roce(dev, port_num))
		return RDMA_AH_ATTR_TYPE_ROCE;
	if (!rdma_protocol_ib(dev, port_num))
		return RDMA_AH_ATTR_TYPE_UNDEFINED;
	if (rdma_cap_opa_ah(dev, port_num))
		return RDMA_AH_ATTR_TYPE_OPA;
	return RDMA_AH_ATTR_TYPE_IB;
}

/* ---- LIDs ---------------------------------------------------------------- */

/*
 * LIDs travel as u32 to make room for OPA; on IB the upper half must be
 * zero, and these narrow one back to the 16 bits of the wire format.
 */
static inline u16 ib_lid_cpu16(u32 lid)
{
	WARN_ON_ONCE(lid >> 16);
	return (u16)lid;
}

static inline __be16 ib_lid_be16(u32 lid)
{
	WARN_ON_ONCE(lid >> 16);
	return cpu_to_be16((u16)lid);
}

/* ---- Miscellaneous device helpers ---------------------------------------- */

/*
 * CPUs that serve interrupts of completion vector @comp_vector, or NULL
 * if the vector is out of range or the driver cannot tell.
 */
static inline const struct cpumask *
ib_get_vector_affinity(struct ib_device *device, int comp_vector)
{
	if (comp_vector < 0 || comp_vector >= device->num_comp_vectors)
		return NULL;
	if (!device->ops.get_vector_affinity)
		return NULL;
	return device->ops.get_vector_affinity(device, comp_vector);
}

/* Re-add RoCE GIDs from all net devices in the system to @ibdev. */
void rdma_roce_rescan_device(struct ib_device *ibdev);

/* uverbs glue for drivers' own ioctl methods. */
struct ib_ucontext *ib_uverbs_get_ucontext_file(struct ib_uverbs_file *ufile);
int uverbs_destroy_def_handler(struct uverbs_attr_bundle *attrs);

/* Offloaded (e.g. IPoIB) net devices provided by the driver. */
struct net_device *rdma_alloc_netdev(struct ib_device *device, u32 port_num,
				     enum rdma_netdev_t type, const char *name,
				     unsigned char name_assign_type,
				     void (*setup)(struct net_device *));

int rdma_init_netdev(struct ib_device *device, u32 port_num,
		     enum rdma_netdev_t type, const char *name,
		     unsigned char name_assign_type,
		     void (*setup)(struct net_device *),
		     struct net_device *netdev);

/*
 * The ib_device behind a struct device handed to a sysfs callback. That
 * device is embedded in an ib_core_device (the device's own or, in a
 * network namespace, a compat copy), whose owner is the ib_device.
 */
static inline struct ib_device *rdma_device_to_ibdev(struct device *device)
{
	struct ib_core_device *coredev;

	coredev = container_of(device, struct ib_core_device, dev);
	return coredev->owner;
}

/* NUMA node of the parent bus device; NUMA_NO_NODE without one. */
static inline int ibdev_to_node(struct ib_device *ibdev)
{
	struct device *parent = ibdev->dev.parent;

	return parent ? dev_to_node(parent) : NUMA_NO_NODE;
}

/*
 * Driver structure embedding the ib_device behind a sysfs struct device.
 * Only for drivers that still publish attributes through
 * ops.device_group; new code should not need it.
 */
#define rdma_device_to_drv_device(dev, drv_dev_struct, ibdev_member)	\
	container_of(rdma_device_to_ibdev(dev), drv_dev_struct, ibdev_member)

/* May @net see @device (shared mode, or the device lives in @net)? */
bool rdma_dev_access_netns(const struct ib_device *device,
			   const struct net *net);

/* ---- RoCE v2 UDP source port --------------------------------------------- */

/*
 * RoCE v2 draws its UDP source port from the flow label so that ECMP can
 * spread flows while packets of one flow stay in order. Ports come from
 * the upper quarter of the range; every driver has to agree on the
 * mapping below.
 */
#define IB_ROCE_UDP_ENCAP_VALID_PORT_MIN (0xC000)
#define IB_ROCE_UDP_ENCAP_VALID_PORT_MAX (0xFFFF)
#define IB_GRH_FLOWLABEL_MASK (0x000FFFFF)

/* Fold the 20-bit flow label into the 14 free bits of a port number. */
static inline u16 rdma_flow_label_to_udp_sport(u32 fl)
{
	u32 low = fl & 0x3fff;
	u32 high = (fl >> 14) & 0x3f;

	return (u16)((low ^ high) | IB_ROCE_UDP_ENCAP_VALID_PORT_MIN);
}

/*
 * Flow label derived from both QP numbers. The product is symmetric, so
 * requester and responder compute the same label for a connection.
 */
static inline u32 rdma_calc_flow_label(u32 lqpn, u32 rqpn)
{
	u64 mix = (u64)lqpn * rqpn;

	mix ^= mix >> 20;
	mix ^= mix >> 40;
	return (u32)mix & IB_GRH_FLOWLABEL_MASK;
}

/* Source port for a packet: @fl if set, else derived from the QP numbers. */
static inline u16 rdma_get_udp_sport(u32 fl, u32 lqpn, u32 rqpn)
{
	if (fl == 0)
		fl = rdma_calc_flow_label(lqpn, rqpn);
	return rdma_flow_label_to_udp_sport(fl);
}

#endif /* RDMAOOT_RDMA_VERBS_API_H */
