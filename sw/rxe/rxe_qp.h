/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_qp.h - the queue pair: attributes from modify_qp, its queues, and the
 * state the requester, completer (rxe_req.c, rxe_comp.c) and responder
 * (rxe_resp.c) keep. Files outside the transport use only qp->ibqp and
 * the functions declared here and in rxe_verbs.h.
 */
#ifndef RXE_QP_H
#define RXE_QP_H

#include <linux/skbuff.h>
#include <linux/hrtimer.h>
#include <linux/timer.h>
#include "rxe_dev.h"
#include "rxe_hdr.h"
#include "rxe_mem.h"
#include "rxe_mmap.h"
#include "rxe_queue.h"
#include "rxe_verbs.h"
#include "rxe_task.h"
#include "rxe_resp.h"

/**
 * struct rxe_send_wqe - one send work request as kept in the SQ
 * @wr_id:      the consumer's cookie
 * @opcode:     enum ib_wr_opcode
 * @send_flags: IB_SEND_*
 * @ex:         immediate data or the rkey to invalidate
 * @num_sge:    entries in @sge (0 when the data is inline)
 * @length:     message length in bytes (8 for atomics, 0 for local ops)
 * @status:     enum ib_wc_status the requester met (IB_WC_SUCCESS unless a
 *              local operation or the transmit failed); written before the
 *              WQE is published to the completer through req.sent_index
 * @first_psn:  first PSN the message uses, set by the requester when it
 *              first starts the WQE
 * @last_psn:   last PSN it uses; a READ has one per response packet; local
 *              operations use none (@last_psn = @first_psn - 1)
 * @wr:         per-opcode part of the work request
 * @sge:        @num_sge entries, or the inline data itself; the slot has
 *              room for max(max_send_sge entries, max_inline_data bytes)
 */
struct rxe_send_wqe {
	u64 wr_id;
	u32 opcode;
	u32 send_flags;
	union {
		__be32 imm_data;
		u32 invalidate_rkey;
	} ex;
	u32 num_sge;
	u32 length;
	u32 status;
	u32 first_psn;
	u32 last_psn;
	union {
		struct {
			u64 remote_addr;
			u32 rkey;
		} rdma;
		struct {
			u64 remote_addr;
			u64 compare_add;
			u64 swap;
			u32 rkey;
		} atomic;
		struct {
			struct rxe_av av;
			u32 remote_qpn;
			u32 remote_qkey;
		} ud;
		struct {
			struct ib_mr *mr;
			u32 key;
			int access;
		} reg;
		/* a bind from a user SQ ring, its keys looked up when run */
		struct {
			u64 addr;
			u64 length;
			u32 mr_lkey;
			u32 mw_rkey;
			u32 rkey;
			u32 access;
		} mw;
	} wr;
	struct ib_sge sge[];
};

static inline void *rxe_wqe_inline(struct rxe_send_wqe *wqe)
{
	return wqe->sge;
}

/*
 * Point @dma at byte @offset of @wqe's SGE list (the requester's transmit
 * cursor, or the completer's READ response cursor).
 */
static inline void rxe_wqe_dma_seek(struct rxe_dma *dma,
				    const struct rxe_send_wqe *wqe, u32 offset)
{
	u32 i;

	dma->length = wqe->length;
	dma->resid = wqe->length - min(offset, wqe->length);
	dma->num_sge = wqe->num_sge;
	for (i = 0; i < wqe->num_sge && offset >= wqe->sge[i].length; i++)
		offset -= wqe->sge[i].length;
	dma->cur_sge = i;
	dma->sge_offset = i < wqe->num_sge ? offset : 0;
}

/* req.flags bits: requests from the completer to the requester. */
enum rxe_req_flag {
	RXE_REQ_RETRY,		/* resend from req.retry_psn */
	RXE_REQ_PAUSED,		/* RNR wait: send nothing until cleared */
};

/**
 * struct rxe_req_state - the requester (rxe_req.c); its engine alone
 * writes the fields unless noted
 * @index:      next WQE to transmit from (free running, like sq.cons)
 * @offset:     bytes of that WQE already transmitted
 * @psn:        PSN of the next packet
 * @dma:        SGE cursor of WQE @index at @offset
 * @hw_index:   WQEs that have their PSNs (never goes back); published
 *              with release, the completer matches RC answers against them
 * @sent_index: WQEs transmitted completely at least once (never goes
 *              back); published with release, the completer reads it
 * @next_psn:   one past the highest PSN transmitted (never goes back)
 * @rd_atomic:  READ/ATOMIC requests in flight; the completer decrements
 * @flags:      enum rxe_req_flag bits, set by the completer
 * @retry_psn:  where to resend from (written before RXE_REQ_RETRY is set)
 * @window:     RC packets that may be unacknowledged now, at most
 *              RXE_REQ_WINDOW; the completer narrows it after a timeout
 *              and widens it on progress (rxe_comp_window())
 * @xmit_timer: retries a transmit that failed for lack of local resources
 */
struct rxe_req_state {
	u32 index;
	u32 offset;
	u32 psn;
	struct rxe_dma dma;
	u32 hw_index;
	u32 sent_index;
	u32 next_psn;
	atomic_t rd_atomic;
	unsigned long flags;
	u32 retry_psn;
	u32 window;
	struct timer_list xmit_timer;
};

/* comp.flags bits. */
enum rxe_comp_flag {
	RXE_COMP_TIMEOUT,	/* the retransmit timer fired */
	RXE_COMP_DRAINING,	/* SQD: report IB_EVENT_SQ_DRAINED when idle */
};

/**
 * struct rxe_comp_state - the completer (rxe_comp.c); its engine alone
 * writes the fields unless noted
 * @psn:        oldest PSN not yet acknowledged (the requester reads it to
 *              bound its window)
 * @dma:        where the next READ response data of the oldest WQE goes
 * @dma_index:  the WQE @dma was set up for
 * @dma_valid:  @dma belongs to WQE @dma_index
 * @retry_left: retries left after timeouts (sequence NAKs do not count)
 * @rnr_left:   retries left after RNR NAKs (rnr_retry 7: unlimited)
 * @retry_sent: a resend from @psn was requested; wait for it
 * @flags:      enum rxe_comp_flag bits
 * @timer:      retransmit timer (4.096 us * 2^timeout); an hrtimer, so
 *              that a short timeout is not rounded up to a jiffy
 * @rnr_timer:  ends an RNR wait (10 us to 655 ms, an hrtimer likewise)
 */
struct rxe_comp_state {
	u32 psn;
	struct rxe_dma dma;
	u32 dma_index;
	bool dma_valid;
	u8 retry_left;
	u8 rnr_left;
	bool retry_sent;
	unsigned long flags;
	struct hrtimer timer;
	struct hrtimer rnr_timer;
};

/**
 * struct rxe_qp_attr - transport attributes, written by modify_qp under
 * qp->state_lock while the QP's tasks are stopped or cannot look at them
 * (the field's transition is not yet reached), read by the tasks
 * @mtu:           path MTU in bytes
 * @path_mtu:      the same as enum ib_mtu (as queried)
 * @dest_qpn:      remote QPN (RC/UC)
 * @qkey:          Q_Key (UD/GSI)
 * @pkey_index:    P_Key table index (always 0)
 * @pkey:          P_Key sent in the BTH (from @pkey_index; 0xffff)
 * @sq_psn:        first PSN the requester uses
 * @rq_psn:        first PSN the responder expects
 * @timeout:       local ACK timeout code (4.096 us * 2^timeout, 0 = none)
 * @retry_cnt:     retries after a local ACK timeout
 * @rnr_retry:     retries after an RNR NAK (7 = infinite)
 * @min_rnr_timer: RNR NAK timer code this responder sends
 * @max_rd_atomic: READ/ATOMIC requests this requester may have in flight
 * @max_dest_rd_atomic: READ/ATOMIC requests this responder keeps for replay
 * @access:        IB_ACCESS_REMOTE_* the QP allows
 */
struct rxe_qp_attr {
	u32 mtu;
	enum ib_mtu path_mtu;
	u32 dest_qpn;
	u32 qkey;
	u16 pkey_index;
	u16 pkey;
	u32 sq_psn;
	u32 rq_psn;
	u8 timeout;
	u8 retry_cnt;
	u8 rnr_retry;
	u8 min_rnr_timer;
	u8 max_rd_atomic;
	u8 max_dest_rd_atomic;
	int access;
};

/**
 * struct rxe_qp - a soft-RoCE queue pair
 * @ibqp:       core object; must stay first (core-allocated)
 * @rxe:        device
 * @ref:        lookup references (rxe_qp_get()); the table holds one
 * @done:       completed when @ref drops to zero, destroy waits for it
 * @state_lock: protects @state and @attr against concurrent modify_qp
 * @state:      current state (the core validated the transition)
 * @attr:       transport attributes
 * @av:         primary path (RC, UC)
 * @sport:      UDP source port of every packet this QP sends
 * @sig_all:    every send WQE completes (IB_SIGNAL_ALL_WR)
 * @scq:        send CQ (the core holds a usecnt on it, as on @rcq, @srq)
 * @rcq:        receive CQ
 * @srq:        shared receive queue or NULL
 * @sq_lock:    serialises producers of @sq (post_send); the completer is
 *              its only consumer
 * @sq:         send WQEs (struct rxe_send_wqe, @sq_wqe_size bytes each)
 * @sq_wqe_size: bytes per SQ slot
 * @sq_max_sge: SGEs a slot holds (reported in the caps)
 * @sq_max_inline: inline bytes a slot holds (reported in the caps)
 * @rq_lock:    serialises producers of @rq (post_recv)
 * @rq:         receive WQEs (struct rxe_recv_wqe) unless @srq
 * @rq_max_sge: SGEs an RQ slot holds
 * @req_pkts:   requests received for the responder
 * @resp_pkts:  ACKs and responses received for the completer
 * @req_task:   the requester engine (rxe_req.c)
 * @comp_task:  the completer engine (rxe_comp.c)
 * @resp_task:  the responder engine (rxe_resp.c)
 * @resp:       responder state (rxe_resp.h)
 * @req:        requester state
 * @comp:       completer state
 * @is_user:    a user QP: its SQ and RQ are @usq and @urq (rxe_uqp.c)
 * @usq:        the SQ ring the process fills; its WQEs are copied into
 *              @sq under @sq_lock, the slot of @sq.prod next
 * @urq:        the RQ ring the process fills (none with an SRQ); the
 *              responder takes from it under resp.lock
 * @usq_copy:   one @usq slot copied out of the ring, under @sq_lock
 *
 * Packets on @req_pkts and @resp_pkts own the QP reference of their
 * pkt->qp; whoever frees one drops it (rxe_qp_pkt_free()).
 */
struct rxe_qp {
	struct ib_qp ibqp;
	struct rxe_dev *rxe;
	refcount_t ref;
	struct completion done;

	spinlock_t state_lock;	/* @state, @attr */
	enum ib_qp_state state;
	struct rxe_qp_attr attr;
	struct rxe_av av;
	u16 sport;
	bool sig_all;

	struct rxe_cq *scq;
	struct rxe_cq *rcq;
	struct rxe_srq *srq;

	spinlock_t sq_lock;	/* producers of @sq */
	struct rxe_queue sq;
	u32 sq_wqe_size;
	u32 sq_max_sge;
	u32 sq_max_inline;

	spinlock_t rq_lock;	/* producers of @rq */
	struct rxe_queue rq;
	u32 rq_max_sge;

	struct sk_buff_head req_pkts;
	struct sk_buff_head resp_pkts;

	struct rxe_task req_task;
	struct rxe_task comp_task;
	struct rxe_task resp_task;

	struct rxe_resp_state resp;
	/* requester and completer state (rxe_req.c, rxe_comp.c) */
	struct rxe_req_state req;
	struct rxe_comp_state comp;

	/* user QPs (rxe_uqp.c) */
	bool is_user;
	struct rxe_uring usq;
	struct rxe_uring urq;
	void *usq_copy;
};

#define rxe_dbg_qp(qp, fmt, ...) \
	ibdev_dbg((qp)->ibqp.device, "qp#%u %s: " fmt, (qp)->ibqp.qp_num, \
		  __func__, ##__VA_ARGS__)

static inline struct rxe_qp *to_rqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct rxe_qp, ibqp);
}

static inline struct rxe_pd *rxe_qp_pd(struct rxe_qp *qp)
{
	return to_rpd(qp->ibqp.pd);
}

static inline enum ib_qp_type rxe_qp_type(const struct rxe_qp *qp)
{
	return qp->ibqp.qp_type;
}

/* --- rxe_qp.c ----------------------------------------------------------- */

/* For rxe_qp_to_error(): move to ERR without an asynchronous event. */
#define RXE_QP_NO_EVENT		IB_EVENT_CQ_ERR

struct rxe_qp *rxe_qp_get(struct rxe_dev *rxe, u32 qpn);
void rxe_qp_put(struct rxe_qp *qp);
enum ib_qp_state rxe_qp_state(struct rxe_qp *qp);
void rxe_qp_to_error(struct rxe_qp *qp, enum ib_event_type event);
void rxe_qp_event(struct rxe_qp *qp, enum ib_event_type event);
u32 rxe_qp_mtu(struct rxe_qp *qp);
void rxe_qp_pkt_free(struct sk_buff *skb);

static inline bool rxe_qp_is_rc(const struct rxe_qp *qp)
{
	return rxe_qp_type(qp) == IB_QPT_RC;
}

/* UD and GSI (QP1) share the datagram transport: DETH, no PSN sequence. */
static inline bool rxe_qp_is_ud(const struct rxe_qp *qp)
{
	return rxe_qp_type(qp) == IB_QPT_UD || rxe_qp_type(qp) == IB_QPT_GSI;
}

/* --- rxe_uqp.c: the rings of user QPs -------------------------------- */

int rxe_uqp_create(struct rxe_qp *qp, const struct ib_qp_init_attr *init,
		   struct ib_udata *udata);
void rxe_uqp_destroy(struct rxe_qp *qp);
void rxe_uqp_sq_pull(struct rxe_qp *qp);
void rxe_uqp_sq_retired(struct rxe_qp *qp);
int rxe_post_send_user(struct rxe_qp *qp, const struct ib_send_wr *wr);
void rxe_post_send_bad(struct rxe_qp *qp, u64 wr_id);
void rxe_post_send_bind(struct rxe_qp *qp, const struct rxe_send_wr *uw);

/* --- rxe_comp.c: packets for the completer ------------------------------ */

void rxe_comp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb);

/* --- rxe_resp.c: the responder ------------------------------------------ */

void rxe_resp_init(struct rxe_qp *qp);
void rxe_resp_reset(struct rxe_qp *qp);
void rxe_resp_flush(struct rxe_qp *qp);
void rxe_resp_cleanup(struct rxe_qp *qp);
int rxe_resp_run(struct rxe_qp *qp);
void rxe_resp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb);

#endif /* RXE_QP_H */
