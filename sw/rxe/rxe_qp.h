/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_qp.h - the queue pair: attributes from modify_qp, its queues, and the
 * state the requester, completer (rxe_req.c, rxe_comp.c) and responder
 * (rxe_resp.c) keep. Files outside the transport use only qp->ibqp and
 * the functions declared here and in rxe.h.
 */
#ifndef RXE_QP_H
#define RXE_QP_H

#include <linux/skbuff.h>
#include <linux/timer.h>
#include "rxe.h"
#include "rxe_task.h"
#include "rxe_resp.h"

/**
 * struct rxe_qp_attr - transport attributes, written by modify_qp under
 * qp->state_lock while the QP's tasks are stopped or cannot look at them
 * (the field's transition is not yet reached), read by the tasks
 * @mtu:           path MTU in bytes
 * @dest_qpn:      remote QPN (RC/UC)
 * @qkey:          Q_Key (UD/GSI)
 * @pkey:          P_Key sent in the BTH (from @pkey_index; 0xffff)
 * @sq_psn:        first PSN the requester uses
 * @rq_psn:        first PSN the responder expects
 * @timeout:       local ACK timeout code (4.096 us * 2^timeout, 0 = none)
 * @retry_cnt, @rnr_retry: retries left after a timeout / an RNR NAK (7 = inf)
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
 * @scq, @rcq, @srq: attached objects (each holds a usecnt in the core)
 * @sq_lock:    serialises producers of @sq (post_send)
 * @sq:         send WQEs (struct rxe_send_wqe, @sq_wqe_size bytes each)
 * @rq_lock:    serialises producers of @rq (post_recv)
 * @rq:         receive WQEs (struct rxe_recv_wqe) unless @srq
 * @req_pkts:   requests received for the responder
 * @resp_pkts:  ACKs and responses received for the completer
 * @req_task, @comp_task, @resp_task: the three engines
 * @resp:       responder state (rxe_resp.h)
 */
struct rxe_qp {
	struct ib_qp ibqp;
	struct rxe_dev *rxe;
	refcount_t ref;
	struct completion done;

	spinlock_t state_lock;
	enum ib_qp_state state;
	struct rxe_qp_attr attr;
	struct rxe_av av;
	u16 sport;
	bool sig_all;

	struct rxe_cq *scq;
	struct rxe_cq *rcq;
	struct rxe_srq *srq;

	spinlock_t sq_lock;
	struct rxe_queue sq;
	u32 sq_wqe_size;
	u32 sq_max_sge;
	u32 sq_max_inline;

	spinlock_t rq_lock;
	struct rxe_queue rq;
	u32 rq_max_sge;

	struct sk_buff_head req_pkts;
	struct sk_buff_head resp_pkts;

	struct rxe_task req_task;
	struct rxe_task comp_task;
	struct rxe_task resp_task;

	struct rxe_resp_state resp;
	/* requester and completer state follow (rxe_req.c, rxe_comp.c) */
};

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

struct rxe_qp *rxe_qp_get(struct rxe_dev *rxe, u32 qpn);
void rxe_qp_put(struct rxe_qp *qp);
enum ib_qp_state rxe_qp_state(struct rxe_qp *qp);
void rxe_qp_to_error(struct rxe_qp *qp, enum ib_event_type event);
void rxe_qp_event(struct rxe_qp *qp, enum ib_event_type event);

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
