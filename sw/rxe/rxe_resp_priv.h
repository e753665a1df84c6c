/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_resp_priv.h - what the responder's files share: step outcomes, the
 * per-kind operations the state table calls, and small helpers.
 *   rxe_resp.c       the state table, the task, replies without data
 *   rxe_resp_send.c  SEND and RDMA WRITE: receive WQEs, data, completions
 *   rxe_resp_read.c  RDMA READ and ATOMIC, and their replay on duplicates
 */
#ifndef RXE_RESP_PRIV_H
#define RXE_RESP_PRIV_H

#include "rxe_net.h"
#include "rxe_qp.h"

/* What a step tells the state table (rxe_resp.c) to do next. */
enum rxe_resp_out {
	RXE_OUT_OK,		/* go on */
	RXE_OUT_DUP,		/* PSN before the expected one */
	RXE_OUT_AHEAD,		/* PSN after the expected one */
	RXE_OUT_READ,		/* duplicate READ: resend its responses */
	RXE_OUT_NAK,		/* answer with resp.nak_syndrome */
	RXE_OUT_FATAL,		/* the request fails; see rxe_resp_fail() */
	RXE_OUT_DROP,		/* discard the packet */
	RXE_NUM_OUTS,
	/* handled by the runner: the packet stays at its step */
	RXE_OUT_WAIT,		/* nothing to do, or no memory: stop */
	RXE_OUT_YIELD,		/* progress made: let other work run */
};

typedef enum rxe_resp_out (*rxe_resp_fn)(struct rxe_qp *qp);

/**
 * struct rxe_resp_ops - what one kind of request does at the steps that
 * depend on the kind
 * @res:   get the resources (receive WQE, MR behind the R_Key)
 * @exec:  move the data or do the operation
 * @reply: answer a new request (ACK, READ responses, ATOMIC ACK)
 * @dup:   answer a duplicate
 */
struct rxe_resp_ops {
	rxe_resp_fn res;
	rxe_resp_fn exec;
	rxe_resp_fn reply;
	rxe_resp_fn dup;
};

extern const struct rxe_resp_ops rxe_resp_send_ops;
extern const struct rxe_resp_ops rxe_resp_write_ops;
extern const struct rxe_resp_ops rxe_resp_read_ops;
extern const struct rxe_resp_ops rxe_resp_atomic_ops;

/* last_opcode while no message is open: any complete, single-packet one. */
#define RXE_RESP_NO_MSG		IB_OPCODE_RC_SEND_ONLY

/* The request being processed. */
static inline struct rxe_pkt *rxe_resp_pkt(struct rxe_qp *qp)
{
	return RXE_SKB_PKT(qp->resp.skb);
}

static inline u32 rxe_resp_mtu(const struct rxe_qp *qp)
{
	return max_t(u32, qp->attr.mtu, 256);
}

static inline void rxe_resp_xfer_put(struct rxe_resp_xfer *x)
{
	if (x->mr) {
		rxe_mr_put(x->mr);
		x->mr = NULL;
	}
}

/* rxe_resp.c */
enum rxe_resp_out rxe_resp_fail(struct rxe_qp *qp, u8 code,
				enum ib_wc_status status);
enum rxe_resp_out rxe_resp_wait_mem(struct rxe_qp *qp);
struct sk_buff *rxe_resp_reply_new(struct rxe_qp *qp, struct rxe_pkt *reply,
				   u8 opcode, u32 len, u8 syndrome, u32 psn);
void rxe_resp_xmit(struct rxe_qp *qp, struct sk_buff *skb,
		   struct rxe_pkt *reply);
int rxe_resp_send_aeth(struct rxe_qp *qp, u8 syndrome, u32 psn);
int rxe_resp_ack_flush(struct rxe_qp *qp);

/* rxe_resp_send.c */
void rxe_resp_abandon(struct rxe_qp *qp);
enum rxe_resp_out rxe_resp_complete(struct rxe_qp *qp);
void rxe_resp_wqe_fail(struct rxe_qp *qp, enum ib_wc_status status);
void rxe_resp_flush_rq(struct rxe_qp *qp);

/* rxe_resp_read.c */
void rxe_resp_rd_free(struct rxe_qp *qp);

#endif /* RXE_RESP_PRIV_H */
