/* SPDX-License-Identifier: GPL-2.0-only */
/* A fake RDMA driver for the KUnit suites: devices with no hardware behind them. */
#ifndef RDMAOOT_KUNIT_MOCK_MOCK_IBDEV_H
#define RDMAOOT_KUNIT_MOCK_MOCK_IBDEV_H

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/iw_cm.h>

/*
 * ib_unregister_driver() acts on every device of a driver id, so the mock
 * borrows the id of a PCI driver that never has hardware in the test
 * guest, rather than rxe's or siw's.
 */
#define MOCK_IBDEV_DRIVER_ID	RDMA_DRIVER_MTHCA

struct mock_ibdev;

/**
 * struct mock_ibdev_cfg - how a mock device behaves
 * @nports: number of ports (phys_port_cnt), 1 or more
 * @fail_immutable_port: get_port_immutable fails with -EIO for this port;
 *			 0 for never
 * @no_kverbs: leave out the ops the kernel verbs need, so the device is
 *	       not a kverbs_provider
 * @dealloc_driver: use the dealloc_driver flow (unregistration frees)
 * @on_port_immutable: called from get_port_immutable, i.e. in the middle
 *		       of ib_register_device(); may be NULL
 * @priv: for the test's callbacks
 * @roce_port: this port is RoCE (Ethernet link layer); 0 for none
 * @roce_v2: @roce_port speaks RoCE v2 as well as v1 (both GID types)
 * @driver_drain: give the device drain_sq/drain_rq ops of its own
 * @mad: the ports speak MADs, so the MAD layer opens its special QPs on
 *	 them (QP0 and QP1 on InfiniBand ports, QP1 on the RoCE port);
 *	 without it the ports have no MAD capability and the suites see
 *	 only the objects they create themselves
 * @iwarp: give the device the iw_* ops of an iWARP driver (mock_iwarp.c):
 *	   they record their calls and arguments in mock_ibdev.iw, fail as
 *	   mock_ibdev_fail() says, and find QPs by number; events reach
 *	   iw_cm through mock_iwarp_upcall(). The node is an RNIC, every
 *	   port an iWARP port (Ethernet link layer) tied to init_net's
 *	   loopback net device, as rdma_cm wants to see it
 * @uverbs: give the device user contexts (alloc_ucontext and
 *	    dealloc_ucontext, counted in MOCK_OBJ_UCONTEXT, uverbs ABI
 *	    MOCK_IBDEV_UVERBS_ABI), so that ib_uverbs offers it to user space
 */
struct mock_ibdev_cfg {
	u32 nports;
	u32 fail_immutable_port;
	bool no_kverbs;
	bool dealloc_driver;
	void (*on_port_immutable)(struct mock_ibdev *mdev, u32 port);
	void *priv;
	u32 roce_port;
	bool roce_v2;
	bool driver_drain;
	bool mad;
	bool iwarp;
	bool uverbs;
};

/*
 * The driver verbs of the mock, each of which a test can make fail with
 * mock_ibdev_fail() and whose calls are counted in mock_ibdev.calls.
 */
enum mock_verb {
	MOCK_ALLOC_PD,
	MOCK_DEALLOC_PD,
	MOCK_GET_DMA_MR,
	MOCK_ALLOC_MR,
	MOCK_ALLOC_MR_INTEGRITY,
	MOCK_REG_USER_MR,
	MOCK_DEREG_MR,
	MOCK_MAP_MR_SG_PI,
	MOCK_CHECK_MR_STATUS,
	MOCK_ADVISE_MR,
	MOCK_CREATE_CQ,
	MOCK_DESTROY_CQ,
	MOCK_CREATE_QP,
	MOCK_MODIFY_QP,
	MOCK_QUERY_QP,
	MOCK_DESTROY_QP,
	MOCK_POST_SEND,
	MOCK_POST_RECV,
	MOCK_CREATE_SRQ,
	MOCK_MODIFY_SRQ,
	MOCK_QUERY_SRQ,
	MOCK_DESTROY_SRQ,
	MOCK_ALLOC_XRCD,
	MOCK_DEALLOC_XRCD,
	MOCK_ATTACH_MCAST,
	MOCK_DETACH_MCAST,
	MOCK_DRAIN_SQ,
	MOCK_DRAIN_RQ,
	MOCK_CREATE_WQ,
	MOCK_DESTROY_WQ,
	MOCK_QUERY_GID,		/* IB ports' GIDs */
	MOCK_ADD_GID,		/* RoCE ports (cfg.roce_port) only */
	MOCK_DEL_GID,
	MOCK_CREATE_AH,
	MOCK_DESTROY_AH,
	MOCK_IW_ADD_REF,	/* cfg.iwarp devices only */
	MOCK_IW_REM_REF,
	MOCK_IW_GET_QP,
	MOCK_IW_CONNECT,
	MOCK_IW_ACCEPT,
	MOCK_IW_REJECT,
	MOCK_IW_CREATE_LISTEN,
	MOCK_IW_DESTROY_LISTEN,
	MOCK_VERB_NR
};

/* The driver objects the mock counts, so tests see what the driver holds. */
enum mock_obj {
	MOCK_OBJ_PD,
	MOCK_OBJ_MR,
	MOCK_OBJ_CQ,
	MOCK_OBJ_QP,
	MOCK_OBJ_SRQ,
	MOCK_OBJ_XRCD,
	MOCK_OBJ_WQ,
	MOCK_OBJ_GID,		/* added by add_gid, not yet del_gid'd */
	MOCK_OBJ_AH,
	MOCK_OBJ_UCONTEXT,	/* cfg.uverbs devices only */
	MOCK_OBJ_NR
};

/* Ports a mock device may have; mock_ibdev_alloc() refuses more. */
#define MOCK_IBDEV_MAX_PORTS		4

/* What the mock's ops report, so tests can check the core passed it on. */
#define MOCK_IBDEV_LID(port)		(0x100 + (port))
#define MOCK_IBDEV_PKEY_TBL_LEN(port)	(16 * (port))
#define MOCK_IBDEV_GID_TBL_LEN(port)	(8 * (port))
#define MOCK_IBDEV_PKEY(port, index)	(0x8000 | ((port) << 8) | (index))
#define MOCK_IBDEV_FW			"1.2.3"
/* The uverbs_abi_ver of a cfg.uverbs device. */
#define MOCK_IBDEV_UVERBS_ABI		7
/* The subnet manager's LID and SL on the IB ports of a cfg.mad device. */
#define MOCK_IBDEV_SM_LID		0x0001
#define MOCK_IBDEV_SM_SL		3
/* The subnet prefix and interface id of GID @index of an IB port. */
#define MOCK_IBDEV_GID_PREFIX(port)	(0xfec0000000000000ULL | (port))
#define MOCK_IBDEV_GID_GUID(port, index)				\
	(0x0002c90300000000ULL | ((u64)(port) << 16) | (index))

/* GID @index of IB port @port, as query_gid reports it until changed. */
static inline union ib_gid mock_ibdev_gid(u32 port, u32 index)
{
	union ib_gid gid = { .global = {
		.subnet_prefix = cpu_to_be64(MOCK_IBDEV_GID_PREFIX(port)),
		.interface_id = cpu_to_be64(MOCK_IBDEV_GID_GUID(port, index)),
	} };

	return gid;
}

/**
 * struct mock_gid_ctx - the context add_gid stores for a RoCE GID entry
 * @port: attr->port_num at add_gid
 * @index: attr->index at add_gid
 */
struct mock_gid_ctx {
	u32 port;
	u32 index;
};

/**
 * struct mock_ibdev_port - what query_port, query_pkey and query_gid report
 * @lid: the LID (MOCK_IBDEV_LID() at first)
 * @lmc: the LMC (0 at first)
 * @sm_lid: the SM's LID (MOCK_IBDEV_SM_LID with cfg.mad, else 0)
 * @sm_sl: the SM's SL (MOCK_IBDEV_SM_SL with cfg.mad, else 0)
 * @state: the port state (IB_PORT_ACTIVE at first)
 * @pkey: the P_Key table (MOCK_IBDEV_PKEY() at first)
 * @gid: the GID table (mock_ibdev_gid() at first)
 *
 * Change with the mock_ibdev_set_*() helpers, then dispatch an event.
 */
struct mock_ibdev_port {
	u32 lid;
	u8 lmc;
	u32 sm_lid;
	u8 sm_sl;
	enum ib_port_state state;
	u16 pkey[MOCK_IBDEV_PKEY_TBL_LEN(MOCK_IBDEV_MAX_PORTS)];
	union ib_gid gid[MOCK_IBDEV_GID_TBL_LEN(MOCK_IBDEV_MAX_PORTS)];
};

/**
 * struct mock_ibdev_last - arguments of the latest calls, for the tests
 * @access: access flags of the last get_dma_mr or reg_user_mr
 * @mr_type: type of the last alloc_mr
 * @max_num_sg: max_num_sg of the last alloc_mr (data pages for integrity)
 * @max_num_meta_sg: metadata pages of the last alloc_mr_integrity
 * @user_start: start of the last reg_user_mr
 * @qp_attr_mask: mask of the last modify_qp
 * @qp_attr: attributes of the last modify_qp
 * @srq_attr_mask: mask of the last modify_srq
 * @mcast_lid: LID of the last attach_mcast or detach_mcast
 * @advise_num_sge: num_sge of the last advise_mr
 *
 * Written by the ops, read by the test thread after its call returned.
 */
struct mock_ibdev_last {
	int access;
	enum ib_mr_type mr_type;
	u32 max_num_sg;
	u32 max_num_meta_sg;
	u64 user_start;
	int qp_attr_mask;
	struct ib_qp_attr qp_attr;
	int srq_attr_mask;
	u16 mcast_lid;
	u32 advise_num_sge;
};

/* Private data the iWARP ops keep a copy of (the rest is cut). */
#define MOCK_IWARP_PDATA_MAX	64

/**
 * struct mock_iwarp - what the iw_* ops of a cfg.iwarp device saw
 * @qp_refs: iw_add_ref calls minus iw_rem_ref calls
 * @listen_id: the id of the last iw_create_listen
 * @backlog: its backlog
 * @cm_id: the id of the last iw_connect, iw_accept or iw_reject
 * @param: the parameters of the last iw_connect or iw_accept
 * @pdata: the private data of the last iw_connect, iw_accept or iw_reject
 * @pdata_len: its length (before the cut to MOCK_IWARP_PDATA_MAX)
 *
 * Written by the ops, read by the test thread once iw_cm's work is done.
 */
struct mock_iwarp {
	atomic_t qp_refs;
	struct iw_cm_id *listen_id;
	int backlog;
	struct iw_cm_id *cm_id;
	struct iw_cm_conn_param param;
	u8 pdata[MOCK_IWARP_PDATA_MAX];
	u16 pdata_len;
};

/**
 * struct mock_ibdev - a mock device
 * @ibdev: the RDMA device; first, as ib_alloc_device() wants
 * @cfg: a copy of the configuration it was made with
 * @query_port_calls: how often query_port ran since registration finished
 *		      (the core's cache reads every port while registering)
 * @fail: what each verb returns instead of doing its work; 0 for success
 * @calls: how often each verb was called
 * @live: driver objects of each kind now in existence
 * @next_key: source of MR keys
 * @next_qpn: source of QP numbers
 * @last: arguments of the latest calls
 * @port_lock: protects @ports against the ops reading them
 * @ports: what the port queries report, by port number (0 unused)
 * @qps_lock: protects @qps
 * @qps: the device's QPs (struct mock_qp), for mock_ibdev_transmit_all()
 * @transmit_all: every send completes as soon as it is posted
 * @iw: what the iWARP ops saw (cfg.iwarp)
 */
struct mock_ibdev {
	struct ib_device ibdev;
	struct mock_ibdev_cfg cfg;
	atomic_t query_port_calls;
	int fail[MOCK_VERB_NR];
	atomic_t calls[MOCK_VERB_NR];
	atomic_t live[MOCK_OBJ_NR];
	atomic_t next_key;
	atomic_t next_qpn;
	struct mock_ibdev_last last;
	spinlock_t port_lock;	/* guards ports */
	struct mock_ibdev_port ports[MOCK_IBDEV_MAX_PORTS + 1];
	spinlock_t qps_lock;	/* guards qps */
	struct list_head qps;
	bool transmit_all;
	struct mock_iwarp iw;
};

static inline struct mock_ibdev *to_mock_ibdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mock_ibdev, ibdev);
}

/* The device's reserved lkey, reported with IBK_LOCAL_DMA_LKEY. */
#define MOCK_IBDEV_LOCAL_DMA_LKEY	0x0badc0deU
/* QP numbers the mock gives start here, above the special QPs'. */
#define MOCK_IBDEV_FIRST_QPN		0x10
/* Entries in a mock CQ and in each mock work queue. */
#define MOCK_IBDEV_CQ_DEPTH		64
#define MOCK_IBDEV_WQ_DEPTH		16

/* Make @verb return @err (0: work again) from now on. */
static inline void mock_ibdev_fail(struct mock_ibdev *mdev,
				   enum mock_verb verb, int err)
{
	WRITE_ONCE(mdev->fail[verb], err);
}

static inline int mock_ibdev_calls(struct mock_ibdev *mdev,
				   enum mock_verb verb)
{
	return atomic_read(&mdev->calls[verb]);
}

static inline int mock_ibdev_live_objs(struct mock_ibdev *mdev,
				       enum mock_obj obj)
{
	return atomic_read(&mdev->live[obj]);
}

struct mock_ibdev *mock_ibdev_alloc(const struct mock_ibdev_cfg *cfg);
int mock_ibdev_register(struct mock_ibdev *mdev, const char *name);
void mock_ibdev_free(struct mock_ibdev *mdev);
int mock_ibdev_cache_sync(struct mock_ibdev *mdev, u32 port);
void mock_ibdev_port_event(struct mock_ibdev *mdev, u32 port,
			   enum ib_event_type type);
void mock_ibdev_set_port(struct mock_ibdev *mdev, u32 port, u32 lid, u8 lmc,
			 enum ib_port_state state);
void mock_ibdev_set_pkey(struct mock_ibdev *mdev, u32 port, int index,
			 u16 pkey);
void mock_ibdev_set_gid(struct mock_ibdev *mdev, u32 port, int index,
			const union ib_gid *gid);

int mock_ibdev_live(void);
void mock_ibdev_cleanup_all(void);

struct mock_ibdev *mock_ibdev_create(const struct mock_ibdev_cfg *cfg);
void mock_ibdev_destroy(struct mock_ibdev *mdev);

/* The verbs (kunit/mock/mock_verbs.c): see the kernel-doc there. */
extern const struct ib_device_ops mock_verbs_ops;
extern const struct ib_device_ops mock_ah_ops;
extern const struct ib_device_ops mock_verbs_drain_ops;
bool mock_ibdev_cq_push(struct ib_cq *cq, const struct ib_wc *wc);
int mock_ibdev_cq_pending(struct ib_cq *cq);
enum ib_qp_state mock_ibdev_qp_state(struct ib_qp *qp);
int mock_ibdev_qp_complete_send(struct ib_qp *qp, int n);
void mock_ibdev_transmit_all(struct mock_ibdev *mdev);
void mock_ibdev_transmit_hold(struct mock_ibdev *mdev);
u32 mock_ibdev_mr_npages(struct ib_mr *mr);
u64 mock_ibdev_mr_page(struct ib_mr *mr, u32 i);

/* ---- What the QPs were given to send, for the rdma_rw suite -------------- */

/* Send WRs a mock QP remembers, and SGEs of each. */
#define MOCK_IBDEV_SENT_MAX	32
#define MOCK_IBDEV_SENT_SGES	4

/**
 * struct mock_sent_wr - a copy of one send WR a mock QP accepted
 * @opcode: its opcode
 * @send_flags: its IB_SEND_* flags
 * @num_sge: its SGE count (only the first MOCK_IBDEV_SENT_SGES are kept)
 * @sge: its first SGEs
 * @wr_cqe: its wr_cqe (or wr_id, which shares the storage)
 * @remote_addr: remote address of an RDMA opcode, else 0
 * @rkey: remote key of an RDMA opcode, else 0
 * @invalidate_rkey: ex.invalidate_rkey of LOCAL_INV and READ_WITH_INV
 * @reg_mr: MR of a REG_MR or REG_MR_INTEGRITY, else NULL
 * @reg_key: key of the registration
 * @reg_access: access rights of the registration
 * @ud_ah: address handle of a send on a UD, GSI or SMI QP
 * @ud_remote_qpn: its destination QP
 * @ud_pkey_index: its P_Key index
 * @mad: on a GSI or SMI QP, a copy of the MAD (the first SGE) as posted
 */
struct mock_sent_wr {
	enum ib_wr_opcode opcode;
	int send_flags;
	int num_sge;
	struct ib_sge sge[MOCK_IBDEV_SENT_SGES];
	struct ib_cqe *wr_cqe;
	u64 remote_addr;
	u32 rkey;
	u32 invalidate_rkey;
	struct ib_mr *reg_mr;
	u32 reg_key;
	int reg_access;
	struct ib_ah *ud_ah;
	u32 ud_remote_qpn;
	u16 ud_pkey_index;
	u8 mad[256];
};

int mock_ibdev_qp_sent(struct ib_qp *qp, struct mock_sent_wr *out, int max);

/* ---- Special QPs and address handles, for the MAD and SA suites ---------- */

/*
 * GSI and SMI QPs hold as many receives as they were created for, and
 * what they receive comes from the test: the message lands after the
 * 40 bytes a UD receive keeps for the GRH, as on real hardware.
 */
int mock_ibdev_qp_deliver(struct ib_qp *qp, const void *msg, u32 len,
			  u32 src_qp, u16 slid);
const struct rdma_ah_attr *mock_ibdev_ah_attr(struct ib_ah *ah);

/* ---- iWARP, for the iw_cm suites (kunit/mock/mock_iwarp.c) --------------- */

extern const struct ib_device_ops mock_iwarp_ops;
int mock_iwarp_init(struct mock_ibdev *mdev);
int mock_iwarp_upcall(struct iw_cm_id *cm_id, const struct iw_cm_event *event);

#endif /* RDMAOOT_KUNIT_MOCK_MOCK_IBDEV_H */
