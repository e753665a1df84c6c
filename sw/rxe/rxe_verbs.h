/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_verbs.h - the verbs objects other files look into (PD, AV and AH,
 * CQ, receive WQE and SRQ, multicast groups) and what the rest of the
 * driver calls on them. Their verbs entry points are in rxe_ops.h, memory
 * regions and windows in rxe_mr.h (their insides) and rxe_mem.h (access
 * through them), QPs in rxe_qp.h.
 */
#ifndef RXE_VERBS_H
#define RXE_VERBS_H

#include <linux/if_ether.h>
#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include "rxe_dev.h"
#include "rxe_mmap.h"
#include "rxe_queue.h"

struct rxe_qp;

/* --- user contexts (rxe_ucontext.c) --------------------------------------- */

/*
 * @mmap_lock protects @mmap_pending: the buffers (struct rxe_mmap) the
 * process may still map, each once (rxe_mmap.c).
 */
struct rxe_ucontext {
	struct ib_ucontext ibuc;
	spinlock_t mmap_lock;	/* @mmap_pending */
	struct list_head mmap_pending;
};

static inline struct rxe_ucontext *to_ruc(struct ib_ucontext *ibuc)
{
	return container_of(ibuc, struct rxe_ucontext, ibuc);
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
 * @hop_limit:    from the GRH
 * @traffic_class: from the GRH
 * @flow_label:   from the GRH
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

/* @ah_num: a user AH's number in rxe->ah_xa (0 for a kernel AH) */
struct rxe_ah {
	struct ib_ah ibah;
	struct rxe_av av;
	u32 ah_num;
};

static inline struct rxe_ah *to_rah(struct ib_ah *ibah)
{
	return container_of(ibah, struct rxe_ah, ibah);
}

/* --- completion queues (rxe_cq.c) --------------------------------------- */

/**
 * struct rxe_cq - a completion queue of struct ib_wc slots (kernel) or of
 * struct ib_uverbs_wc in a ring shared with user space (user)
 * @ibcq:   the core's CQ
 * @lock:   protects @queue or @uring (the kernel's end), @notify and
 *          @overflow
 * @queue:  the struct ib_wc slots of a kernel CQ
 * @uring:  the ring of a user CQ; user space polls it
 * @is_user: a user CQ (@uring in use, @queue unused)
 * @notify: armed notification: 0, IB_CQ_NEXT_COMP or IB_CQ_SOLICITED
 * @overflow: a completion was lost; reported once as IB_EVENT_CQ_ERR
 */
struct rxe_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* kernel end of the ring, @notify, @overflow */
	struct rxe_queue queue;
	struct rxe_uring uring;
	bool is_user;
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
 * @ibsrq: the core's SRQ
 * @lock:  protects the producer side of @rq and @limit (post, modify)
 * @cons_lock: serialises consumers (responders of several QPs)
 * @rq:    the receive WQEs (struct rxe_recv_wqe)
 * @max_sge: SGEs a slot holds
 * @limit: SRQ limit; 0 when not armed
 * @is_user: a user SRQ: its WQEs are in @urq, which the process fills,
 *	     and @rq is unused
 * @urq:   a user SRQ's ring (rdma_user_rxe.h layout), consumed under
 *	   @cons_lock
 */
struct rxe_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;	/* producers of @rq, @limit */
	spinlock_t cons_lock;	/* consumers of @rq */
	struct rxe_queue rq;
	u32 max_sge;
	u32 limit;
	bool is_user;
	struct rxe_uring urq;
};

static inline struct rxe_srq *to_rsrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct rxe_srq, ibsrq);
}

int rxe_srq_take(struct rxe_srq *srq, struct rxe_recv_wqe *dst, u32 max_sge);

/* --- multicast groups (rxe_mcast.c) ------------------------------------- */

void rxe_mcast_cleanup(struct rxe_dev *rxe);
void rxe_mcast_qp_remove(struct rxe_qp *qp);

#endif /* RXE_VERBS_H */
