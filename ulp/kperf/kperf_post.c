// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: building and posting the work requests of an operation. */

#include "kperf.h"

#define KPERF_KIND_BITS	4
#define KPERF_QPI_BITS	16

/**
 * kperf_wr_id() - the wr_id of a work request
 * @kind: what it is for
 * @qpi: index of its connection
 * @seq: a sequence number (bw: messages posted so far)
 *
 * Return: the three packed into 64 bits.
 */
u64 kperf_wr_id(enum kperf_wr_kind kind, unsigned int qpi, u64 seq)
{
	return kind | (u64)qpi << KPERF_KIND_BITS |
	       seq << (KPERF_KIND_BITS + KPERF_QPI_BITS);
}

/** kperf_wr_kind() - the kind packed into a wr_id by kperf_wr_id() */
enum kperf_wr_kind kperf_wr_kind(u64 wr_id)
{
	return wr_id & GENMASK_ULL(KPERF_KIND_BITS - 1, 0);
}

/** kperf_wr_qpi() - the connection index packed into a wr_id */
unsigned int kperf_wr_qpi(u64 wr_id)
{
	return (wr_id >> KPERF_KIND_BITS) & GENMASK(KPERF_QPI_BITS - 1, 0);
}

/** kperf_wr_seq() - the sequence number packed into a wr_id */
u64 kperf_wr_seq(u64 wr_id)
{
	return wr_id >> (KPERF_KIND_BITS + KPERF_QPI_BITS);
}

/**
 * kperf_imm() - the immediate data sent in a round
 * @round: the round
 *
 * Return: the value in network order, as it appears in the WC.
 */
__be32 kperf_imm(u32 round)
{
	return cpu_to_be32(0x5e000000 ^ round);
}

/* All the send work requests an operation may need, one at a time. */
union kperf_wr {
	struct ib_send_wr send;
	struct ib_rdma_wr rdma;
	struct ib_atomic_wr atomic;
	struct ib_ud_wr ud;
};

/* The target's rkey, spoiled in its key byte for fault=bad_rkey. */
static u32 kperf_post_rkey(struct kperf_run *run, const struct kperf_end *dst)
{
	if (run->p.fault == KPERF_FAULT_BAD_RKEY)
		return dst->buf.rkey ^ 0xa5;
	return dst->buf.rkey;
}

/* The part of the WR that addresses the target. */
static void kperf_post_target(struct kperf_run *run, union kperf_wr *u,
			      const struct kperf_end *src,
			      const struct kperf_end *dst, u32 round)
{
	const struct kperf_op_info *op = run->op;

	if (run->p.qp_type == IB_QPT_UD) {
		u->ud.ah = src->ah;
		u->ud.remote_qpn = run->p.mcast ? KPERF_MCAST_QPN :
				   dst->qp->qp_num;
		u->ud.remote_qkey = src->qkey ?: KPERF_UD_QKEY;
	} else if (op->atomic) {
		u->atomic.remote_addr = dst->buf.addr;
		u->atomic.rkey = kperf_post_rkey(run, dst);
		u->atomic.compare_add = kperf_data_word(round, KPERF_SALT_CMP);
		u->atomic.swap = kperf_data_word(round, KPERF_SALT_SWAP);
	} else if (op->remote) {
		u->rdma.remote_addr = dst->buf.addr;
		u->rdma.rkey = kperf_post_rkey(run, dst);
	}
}

/* Posts the command's operation from end[dir] to end[!dir] of a connection. */
static int kperf_post_dir(struct kperf_run *run, unsigned int qpi, u32 round,
			  u64 wr_id, bool signaled, int dir)
{
	struct kperf_end *src = &run->conns[qpi].end[dir];
	struct kperf_end *dst = &run->conns[qpi].end[!dir];
	struct ib_sge sge = {
		.addr = src->buf.addr, .length = run->p.size,
		.lkey = src->buf.lkey,
	};
	union kperf_wr u = {};
	struct ib_send_wr *wr = &u.send;

	wr->opcode = run->op->wr;
	wr->wr_id = wr_id;
	wr->sg_list = &sge;
	wr->num_sge = run->p.size ? 1 : 0;
	wr->send_flags = signaled ? IB_SEND_SIGNALED : 0;
	if (run->p.inline_data)
		wr->send_flags |= IB_SEND_INLINE;
	if (run->op->imm)
		wr->ex.imm_data = kperf_imm(round);
	if (run->p.op == KPERF_OP_SEND_INV)
		wr->ex.invalidate_rkey = dst->buf.rkey;
	kperf_post_target(run, &u, src, dst, round);
	return ib_post_send(src->qp, wr, NULL);
}

/**
 * kperf_post_op() - post the command's operation on a connection
 * @run: the command
 * @qpi: the connection; the initiator end posts to the target end
 * @round: the round (immediate data, atomic operands)
 * @seq: sequence number carried in the wr_id
 * @signaled: ask for a completion
 *
 * Return: 0 or the error of ib_post_send().
 */
int kperf_post_op(struct kperf_run *run, unsigned int qpi, u32 round,
		  u64 seq, bool signaled)
{
	return kperf_post_dir(run, qpi, round,
			      kperf_wr_id(KPERF_WR_OP, qpi, seq), signaled, 0);
}

/**
 * kperf_post_reply() - post the operation back, target to initiator (lat)
 * @run: the command
 * @qpi: the connection
 * @round: the round
 *
 * Return: 0 or the error of ib_post_send().
 */
int kperf_post_reply(struct kperf_run *run, unsigned int qpi, u32 round)
{
	return kperf_post_dir(run, qpi, round,
			      kperf_wr_id(KPERF_WR_REPLY, qpi, round), true, 1);
}

/**
 * kperf_post_recv() - post one receive of the command's size
 * @run: the command
 * @e: the end receiving; its whole buffer (UD: GRH first) takes the data
 * @wr_id: the receive's wr_id
 *
 * Return: 0 or the error of ib_post_recv().
 */
int kperf_post_recv(struct kperf_run *run, struct kperf_end *e, u64 wr_id)
{
	u32 grh = run->p.qp_type == IB_QPT_UD ? KPERF_UD_GRH : 0;
	struct ib_sge sge = {
		.addr = e->buf.addr, .length = run->p.size + grh,
		.lkey = e->buf.lkey,
	};
	struct ib_recv_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
	};

	if (e->qp->srq)		/* srq=1: shared by the side's QPs */
		return ib_post_srq_recv(e->qp->srq, &wr, NULL);
	return ib_post_recv(e->qp, &wr, NULL);
}
