/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe.h - the soft-RoCE driver's shared types: the device, the verbs
 * objects other files look into, the ring used by every queue, counters,
 * and the functions one part of the driver offers the others.
 *
 * Who owns what (one concept per file):
 *   rxe.c          module init/exit, "rxe" link type
 *   rxe_dev.c      device allocation, registration, device/port queries
 *   rxe_notify.c   net device events -> port state, MTU, unregister
 *   rxe_net.c      UDP/4791 sockets per netns, route, transmit, receive
 *   rxe_counters.c hardware counters (hw_counters/, rdma stat)
 *   rxe_opcode.c   the opcode table;  rxe_icrc.c  the invariant CRC
 *   rxe_pd.c rxe_av.c rxe_cq.c rxe_srq.c rxe_mr.c rxe_mw.c rxe_mcast.c
 *                  verbs objects and memory access
 *   rxe_qp.c       QP create/modify/query/destroy (rxe_qp.h)
 *   rxe_post.c     post_send/post_recv
 *   rxe_task.c     per-QP work scheduling
 *   rxe_recv.c     receive-side checks and dispatch to a QP
 *   rxe_req.c rxe_resp.c rxe_comp.c  requester, responder, completer
 */
#ifndef RXE_H
#define RXE_H

#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/xarray.h>
#include <linux/in6.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_pack.h>
#include "rxe_hdr.h"
#include "rxe_param.h"

struct rxe_qp;
struct rxe_mr;
struct rxe_net_sock;

/* --- counters ----------------------------------------------------------- */

/*
 * The first fifteen are the inbox driver's hw_counters, in its order (their
 * names are what tools read); the rest count receive drops by reason.
 */
enum rxe_counter {
	RXE_CNT_SENT_PKTS,
	RXE_CNT_RCVD_PKTS,
	RXE_CNT_DUP_REQ,
	RXE_CNT_OUT_OF_SEQ_REQ,
	RXE_CNT_RCV_RNR,
	RXE_CNT_SND_RNR,
	RXE_CNT_RCV_SEQ_ERR,
	RXE_CNT_ACK_DEFERRED,
	RXE_CNT_RETRY_EXCEEDED,
	RXE_CNT_RNR_RETRY_EXCEEDED,
	RXE_CNT_COMP_RETRY,
	RXE_CNT_SEND_ERR,
	RXE_CNT_LINK_DOWNED,
	RXE_CNT_RDMA_SEND,
	RXE_CNT_RDMA_RECV,
	/* receive drops */
	RXE_CNT_DROP_ICRC,	/* ICRC mismatch */
	RXE_CNT_DROP_HDR,	/* version, opcode, length or pad invalid */
	RXE_CNT_DROP_QPN,	/* no such QP */
	RXE_CNT_DROP_PKEY,	/* P_Key mismatch */
	RXE_CNT_DROP_QKEY,	/* UD Q_Key mismatch */
	RXE_CNT_DROP_QP_STATE,	/* QP cannot receive in its state */
	RXE_CNT_DROP_QP_TYPE,	/* opcode of another transport */
	RXE_CNT_DROP_ADDR,	/* source address is not the QP's peer */
	RXE_CNT_DROP_NOMEM,	/* no memory to keep or answer the packet */
	RXE_NUM_COUNTERS
};

struct rxe_stats {
	u64 cnt[RXE_NUM_COUNTERS];
};

/* --- the device --------------------------------------------------------- */

/**
 * struct rxe_dev - one soft-RoCE device on top of one net device
 * @ib_dev:    the core's device; must stay first (core-allocated)
 * @ndev:      the net device; held from creation to dealloc_driver
 * @list:      on rxe_dev_list; added after registration, removed by
 *             dealloc_driver (after unregistration); readers use RCU
 * @sock:      the UDP sockets of the namespace the device was made in
 *             (rxe_net_sock_get()), held until dealloc_driver
 * @attr:      device attributes answered by query_device
 * @port_lock: protects @port_state and @port_mtu
 * @port_state: IB_PORT_ACTIVE or IB_PORT_DOWN, follows the netdev
 * @port_mtu:  active MTU, from the netdev's MTU
 * @qp_xa:     QPN -> struct rxe_qp; lookups under RCU take a reference
 * @key_xa:    key index (key >> 8) -> the struct rxe_key embedded in a
 *             struct rxe_mr or struct rxe_mw (rxe_mr.h)
 * @mcast_lock: protects @mcast_list
 * @mcast_list: multicast groups with attached QPs
 * @stats:     per-CPU counters, indexed by enum rxe_counter
 * @num_*:     live objects, checked against @attr limits
 */
struct rxe_dev {
	struct ib_device ib_dev;
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct list_head list;
	struct rxe_net_sock *sock;
	struct ib_device_attr attr;

	spinlock_t port_lock;
	enum ib_port_state port_state;
	enum ib_mtu port_mtu;

	struct xarray qp_xa;
	u32 qpn_next;
	struct xarray key_xa;
	u32 key_next;

	spinlock_t mcast_lock;
	struct list_head mcast_list;

	struct rxe_stats __percpu *stats;

	atomic_t num_pd, num_ah, num_cq, num_srq, num_qp, num_mr, num_mw;
};

static inline struct rxe_dev *to_rdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rxe_dev, ib_dev);
}

/* Count one more object against its limit @max; false (and no count) when over. */
static inline bool rxe_count_inc(atomic_t *num, int max)
{
	if (atomic_inc_return(num) <= max)
		return true;
	atomic_dec(num);
	return false;
}

static inline void rxe_counter_inc(struct rxe_dev *rxe, enum rxe_counter c)
{
	this_cpu_inc(rxe->stats->cnt[c]);
}

#define rxe_dbg_dev(rxe, fmt, ...) \
	ibdev_dbg(&(rxe)->ib_dev, "%s: " fmt, __func__, ##__VA_ARGS__)
#define rxe_dbg_qp(qp, fmt, ...) \
	ibdev_dbg((qp)->ibqp.device, "qp#%u %s: " fmt, (qp)->ibqp.qp_num, \
		  __func__, ##__VA_ARGS__)

/* --- the ring behind SQ, RQ, SRQ and CQ --------------------------------- */

/**
 * struct rxe_queue - a single-producer, single-consumer ring of fixed-size
 * slots. @prod and @cons run freely and are masked on use. Each side is
 * serialised by its owner's lock (or by being one task); the other side's
 * index is read with acquire and written with release.
 */
struct rxe_queue {
	void *buf;
	u32 elem_size;
	u32 mask;		/* slots - 1; slots is a power of two */
	u32 prod;
	u32 cons;
};

int rxe_queue_init(struct rxe_queue *q, u32 min_slots, u32 elem_size);
void rxe_queue_cleanup(struct rxe_queue *q);
int rxe_queue_resize(struct rxe_queue *q, u32 min_slots, spinlock_t *lock);
int rxe_queue_move(struct rxe_queue *q, struct rxe_queue *to);

static inline u32 rxe_queue_slots(const struct rxe_queue *q)
{
	return q->mask + 1;
}

static inline void *rxe_queue_at(const struct rxe_queue *q, u32 index)
{
	return q->buf + (size_t)(index & q->mask) * q->elem_size;
}

/* Slots in use, as seen by either side. */
static inline u32 rxe_queue_count(const struct rxe_queue *q)
{
	return smp_load_acquire(&q->prod) - smp_load_acquire(&q->cons);
}

static inline bool rxe_queue_empty(const struct rxe_queue *q)
{
	return rxe_queue_count(q) == 0;
}

static inline bool rxe_queue_full(const struct rxe_queue *q)
{
	return rxe_queue_count(q) > q->mask;
}

/* Producer: the free slot to fill, then publish it. */
static inline void *rxe_queue_tail(const struct rxe_queue *q)
{
	return rxe_queue_at(q, q->prod);
}

static inline void rxe_queue_produce(struct rxe_queue *q)
{
	smp_store_release(&q->prod, q->prod + 1);
}

/* Consumer: the oldest filled slot (NULL when empty), then release it. */
static inline void *rxe_queue_head(const struct rxe_queue *q)
{
	u32 cons = q->cons;

	if (smp_load_acquire(&q->prod) == cons)
		return NULL;
	return rxe_queue_at(q, cons);
}

static inline void rxe_queue_consume(struct rxe_queue *q)
{
	smp_store_release(&q->cons, q->cons + 1);
}

/* --- protection domains and address vectors (rxe_pd.c, rxe_av.c) ------- */

struct rxe_pd {
	struct ib_pd ibpd;
};

static inline struct rxe_pd *to_rpd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct rxe_pd, ibpd);
}

/**
 * struct rxe_av - where a packet goes: RoCEv2 addresses and L2 next hop
 * @network_type: RDMA_NETWORK_IPV4 or RDMA_NETWORK_IPV6
 * @dmac:         destination MAC (resolved by the core for RoCE AHs)
 * @sgid_index:   source GID table index
 * @sgid:         source GID (IPv4-mapped for IPv4)
 * @dgid:         destination GID
 * @flow_label, @hop_limit, @traffic_class: from the GRH
 */
struct rxe_av {
	u8 network_type;
	u8 dmac[ETH_ALEN];
	u8 hop_limit;
	u8 traffic_class;
	u32 flow_label;
	u32 sgid_index;
	union ib_gid sgid;
	union ib_gid dgid;
};

int rxe_av_from_attr(struct rxe_dev *rxe, struct rxe_av *av,
		     const struct rdma_ah_attr *attr);
void rxe_av_to_attr(const struct rxe_av *av, struct rdma_ah_attr *attr);

struct rxe_ah {
	struct ib_ah ibah;
	struct rxe_av av;
};

static inline struct rxe_ah *to_rah(struct ib_ah *ibah)
{
	return container_of(ibah, struct rxe_ah, ibah);
}

/* --- completion queues (rxe_cq.c) --------------------------------------- */

/**
 * struct rxe_cq - a completion queue of struct ib_wc slots
 * @lock:   protects @queue (both ends), @notify and @overflow
 * @notify: armed notification: 0, IB_CQ_NEXT_COMP or IB_CQ_SOLICITED
 * @overflow: a completion was lost; reported once as IB_EVENT_CQ_ERR
 */
struct rxe_cq {
	struct ib_cq ibcq;
	spinlock_t lock;
	struct rxe_queue queue;
	u8 notify;
	bool overflow;
};

static inline struct rxe_cq *to_rcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct rxe_cq, ibcq);
}

int rxe_cq_post(struct rxe_cq *cq, const struct ib_wc *wc, bool solicited);

/* --- receive WQEs and shared receive queues (rxe_srq.c) ----------------- */

/* One receive work request as queued on an RQ or SRQ. */
struct rxe_recv_wqe {
	u64 wr_id;
	u32 num_sge;
	u32 length;		/* sum of the SGE lengths */
	struct ib_sge sge[];
};

int rxe_queue_post_recv(struct rxe_queue *q, const struct ib_recv_wr *wr,
			u32 max_sge);

static inline size_t rxe_recv_wqe_size(u32 max_sge)
{
	return struct_size((struct rxe_recv_wqe *)NULL, sge, max_sge);
}

/**
 * struct rxe_srq - shared receive queue
 * @lock:  protects the producer side of @rq and @limit (post, modify)
 * @cons_lock: serialises consumers (responders of several QPs)
 * @limit: SRQ limit; 0 when not armed
 */
struct rxe_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;
	spinlock_t cons_lock;
	struct rxe_queue rq;
	u32 max_sge;
	u32 limit;
};

static inline struct rxe_srq *to_rsrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct rxe_srq, ibsrq);
}

int rxe_srq_take(struct rxe_srq *srq, struct rxe_recv_wqe *dst, u32 max_sge);

/* --- memory: MRs, MWs, and copies through them (rxe_mr.c, rxe_mw.c) ---- */

enum rxe_copy_dir {
	RXE_TO_MEM,	/* buffer -> registered memory */
	RXE_FROM_MEM,	/* registered memory -> buffer */
};

/* Progress through an SGE list (send WQE or receive WQE). */
struct rxe_dma {
	u32 length;		/* total bytes described */
	u32 resid;		/* bytes not yet transferred */
	u32 cur_sge;
	u32 sge_offset;
	u32 num_sge;
};

int rxe_sgl_copy(struct rxe_pd *pd, struct rxe_dma *dma,
		 const struct ib_sge *sge, void *buf, u32 len,
		 enum rxe_copy_dir dir);
struct rxe_mr *rxe_rkey_get(struct rxe_qp *qp, u32 rkey, u64 va, u32 len,
			    int access);
int rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u32 len,
		enum rxe_copy_dir dir);
int rxe_mr_atomic(struct rxe_mr *mr, u64 iova, bool cmp_swap, u64 swap_add,
		  u64 comp, u64 *orig);
void rxe_mr_put(struct rxe_mr *mr);
int rxe_mr_fast_reg(struct rxe_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access);
int rxe_key_invalidate(struct rxe_qp *qp, u32 key, bool remote);
int rxe_mw_bind(struct rxe_qp *qp, struct ib_mw *ibmw, struct ib_mr *ibmr,
		u32 rkey, u64 addr, u64 length, int access);

/* --- multicast (rxe_mcast.c) -------------------------------------------- */

void rxe_mcast_deliver(struct rxe_dev *rxe, struct sk_buff *skb);
void rxe_mcast_cleanup(struct rxe_dev *rxe);
void rxe_mcast_qp_remove(struct rxe_qp *qp);

/* --- the network (rxe_net.c) -------------------------------------------- */

struct sk_buff *rxe_net_skb_alloc(struct rxe_dev *rxe, const struct rxe_av *av,
				  u32 paylen, struct rxe_pkt *pkt);
int rxe_net_xmit(struct rxe_dev *rxe, const struct rxe_av *av, u16 sport,
		 struct sk_buff *skb, struct rxe_pkt *pkt);
int rxe_net_init(void);
void rxe_net_exit(void);
void rxe_net_loop_rcv(struct net_device *to, struct sk_buff *skb);

/* --- local delivery (rxe_loop.c) ---------------------------------------- */

void rxe_loop_queue(struct net_device *to, struct sk_buff *skb);
int rxe_loop_init(void);
void rxe_loop_exit(void);
struct rxe_net_sock *rxe_net_sock_get(struct net *net);
void rxe_net_sock_put(struct rxe_net_sock *sock);

/* --- devices (rxe_dev.c, rxe_notify.c) ---------------------------------- */

int rxe_dev_add(struct net_device *ndev, const char *ibdev_name);
struct rxe_dev *rxe_dev_from_ndev_rcu(struct net_device *ndev);
bool rxe_dev_with_ndev(struct net_device *ndev, void (*fn)(struct rxe_dev *));
void rxe_dev_port_update(struct rxe_dev *rxe);
int rxe_notify_init(void);
void rxe_notify_exit(void);

/* --- transport (rxe_recv.c) --------------------------------------------- */

/* A checked packet (header, ICRC) for @rxe; consumes @skb. */
void rxe_recv(struct rxe_dev *rxe, struct sk_buff *skb);
/*
 * A checked packet for one QP (multicast fan-out); the caller holds a
 * reference on @qp for the duration of the call; consumes @skb.
 */
void rxe_recv_deliver(struct rxe_qp *qp, struct sk_buff *skb);

/* --- verbs entry points, gathered into ib_device_ops by rxe_dev.c ------- */

int rxe_pd_alloc(struct ib_pd *ibpd, struct ib_udata *udata);
int rxe_pd_dealloc(struct ib_pd *ibpd, struct ib_udata *udata);

int rxe_ah_create(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int rxe_ah_modify(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int rxe_ah_query(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int rxe_ah_destroy(struct ib_ah *ibah, u32 flags);

int rxe_cq_create(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int rxe_cq_destroy(struct ib_cq *ibcq, struct ib_udata *udata);
int rxe_cq_resize(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int rxe_cq_poll(struct ib_cq *ibcq, int num, struct ib_wc *wc);
int rxe_cq_peek(struct ib_cq *ibcq, int wc_cnt);
int rxe_cq_req_notify(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

int rxe_srq_create(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int rxe_srq_modify(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int rxe_srq_query(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int rxe_srq_destroy(struct ib_srq *ibsrq, struct ib_udata *udata);
int rxe_srq_post_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);

struct ib_mr *rxe_mr_get_dma(struct ib_pd *ibpd, int access);
struct ib_mr *rxe_mr_alloc(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg);
int rxe_mr_map_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
struct ib_mr *rxe_mr_reg_user(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
int rxe_mr_dereg(struct ib_mr *ibmr, struct ib_udata *udata);

int rxe_mw_alloc(struct ib_mw *ibmw, struct ib_udata *udata);
int rxe_mw_dealloc(struct ib_mw *ibmw);

int rxe_mcast_attach(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid);
int rxe_mcast_detach(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid);

int rxe_qp_create(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int rxe_qp_modify(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int rxe_qp_query(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int rxe_qp_destroy(struct ib_qp *ibqp, struct ib_udata *udata);
int rxe_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int rxe_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);

struct rdma_hw_stats *rxe_counters_alloc(struct ib_device *ibdev,
					 u32 port_num);
int rxe_counters_get(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index);

#endif /* RXE_H */
