// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_uqp.c - user QPs: the SQ and RQ rings a process fills, copied and
 * checked into what the engines use.
 */
/*
 * The engines keep working on kernel structures only. A user QP has, on
 * top of its kernel SQ, two rings in the rdma_user_rxe.h layout mapped
 * into the process (rxe_uring.c):
 *
 * - The SQ ring. The process writes WQEs and rings the doorbell
 *   (POST_SEND with no work requests, rxe_post_send()). The doorbell
 *   copies each new slot out of the ring, checks the copy and queues the
 *   equivalent kernel work request on the kernel SQ, which has a slot for
 *   every ring slot: the ring's slot n is the kernel SQ's entry n, so the
 *   ring's consumer index is the kernel SQ's, published as the completer
 *   retires WQEs (as on 6.1, where the ring only frees a slot once its
 *   WQE completed). A process can thus never post more than the kernel SQ
 *   holds; one that lies about its producer index only gets its own slots
 *   read again, never more than the kernel SQ has room for.
 *
 * - The RQ ring. The responder takes its next receive WQE straight from
 *   it (rxe_uring_take_recv()), copying the WQE out and checking it first.
 *
 * A WQE that fails the checks is handled as 6.1's requester handles a
 * WQE it cannot build a packet for: it completes with
 * IB_WC_LOC_QP_OP_ERR and the QP moves to the error state, which flushes
 * the WQEs after it. Here it is queued as a kernel WQE with no valid
 * opcode, so the requester fails it in order like any other.
 */

#include <linux/slab.h>
#include <rdma/uverbs_ioctl.h>
#include "rxe_qp.h"
#include "rxe_opcode.h"
#include "rxe_ops.h"

/* Our kernel SGE and the ring's are the same three fields. */
static_assert(sizeof(struct rxe_sge) == sizeof(struct ib_sge));
static_assert(offsetof(struct rxe_sge, length) == offsetof(struct ib_sge, length));
static_assert(offsetof(struct rxe_sge, lkey) == offsetof(struct ib_sge, lkey));

/* --- creation ----------------------------------------------------------- */

/* Bytes of the SGE list or inline data an SQ slot holds (as 6.1 sizes it). */
static u32 uqp_sq_room(const struct ib_qp_cap *cap)
{
	return max_t(u32, cap->max_send_sge * sizeof(struct rxe_sge),
		     cap->max_inline_data);
}

static int uqp_rings_init(struct rxe_qp *qp, const struct ib_qp_init_attr *init,
			  struct rxe_ucontext *uc)
{
	const struct ib_qp_cap *cap = &init->cap;
	int err;

	err = rxe_uring_init(&qp->usq, qp->rxe, uc, max(cap->max_send_wr, 1u),
			     RXE_MAX_QP_WR,
			     sizeof(struct rxe_user_send_wqe) + uqp_sq_room(cap));
	if (err || init->srq)
		return err;
	err = rxe_uring_init(&qp->urq, qp->rxe, uc, max(cap->max_recv_wr, 1u),
			     RXE_MAX_QP_WR, sizeof(struct rxe_user_recv_wqe) +
			     max(cap->max_recv_sge, 1u) * sizeof(struct rxe_sge));
	if (err)
		rxe_uring_cleanup(&qp->usq);
	return err;
}

/**
 * rxe_uqp_create() - make the rings of a user QP and tell user space where
 * to map them
 * @qp: the QP, its kernel SQ not yet allocated
 * @init: the creation attributes (caps checked against the limits)
 * @udata: the command's driver data; the response gets rxe_create_qp_resp
 *
 * On success @init->cap holds the sizes for the kernel SQ: as many WRs as
 * the SQ ring has slots.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL for a response too short, -ENOMEM, -EFAULT.
 */
int rxe_uqp_create(struct rxe_qp *qp, const struct ib_qp_init_attr *init,
		   struct ib_udata *udata)
{
	struct rxe_create_qp_resp resp = {};
	struct rxe_ucontext *uc;
	int err;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	uc = rdma_udata_to_drv_context(udata, struct rxe_ucontext, ibuc);
	err = uqp_rings_init(qp, init, uc);
	if (err)
		return err;
	qp->usq_copy = kmalloc(1u << qp->usq.log2_elem, GFP_KERNEL);
	if (!qp->usq_copy) {
		err = -ENOMEM;
		goto err_rings;
	}
	rxe_mmap_offer(qp->usq.mm, &resp.sq_mi);
	if (qp->urq.mm)
		rxe_mmap_offer(qp->urq.mm, &resp.rq_mi);
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_copy;
	qp->is_user = true;
	return 0;

err_copy:
	kfree(qp->usq_copy);
	qp->usq_copy = NULL;
err_rings:
	rxe_uring_cleanup(&qp->urq);
	rxe_uring_cleanup(&qp->usq);
	return err;
}

/**
 * rxe_uqp_destroy() - let go of a user QP's rings
 * @qp: the QP, its engines stopped
 *
 * The memory stays while the process maps it.
 *
 * Context: process context.
 */
void rxe_uqp_destroy(struct rxe_qp *qp)
{
	if (!qp->is_user)
		return;
	kfree(qp->usq_copy);
	rxe_uring_cleanup(&qp->urq);
	rxe_uring_cleanup(&qp->usq);
}

/* --- the SQ ring -------------------------------------------------------- */

/* The work request opcodes user space may queue, one bit each. */
static const u32 uqp_user_opcodes =
	BIT(IB_WR_RDMA_WRITE) | BIT(IB_WR_RDMA_WRITE_WITH_IMM) |
	BIT(IB_WR_SEND) | BIT(IB_WR_SEND_WITH_IMM) | BIT(IB_WR_RDMA_READ) |
	BIT(IB_WR_ATOMIC_CMP_AND_SWP) | BIT(IB_WR_ATOMIC_FETCH_AND_ADD) |
	BIT(IB_WR_LOCAL_INV) | BIT(IB_WR_SEND_WITH_INV) | BIT(IB_WR_BIND_MW);

static bool uqp_opcode_ok(u32 opcode)
{
	return opcode < 32 && (uqp_user_opcodes & BIT(opcode));
}

/* A work request of any shape, built from one ring slot. */
union rxe_uqp_wr {
	struct ib_send_wr wr;
	struct ib_rdma_wr rdma;
	struct ib_atomic_wr atomic;
	struct ib_ud_wr ud;
};

/*
 * rxe_uqp_wqe_to_wr() - check a send WQE copied out of a ring and build the
 * kernel work request it stands for
 * @u: the copy; its SGE list or inline data follows it in the copy
 * @room: bytes after @u->dma in the copy
 * @max_sge: SGEs the QP allows
 * @max_inline: inline bytes the QP allows
 * @w: filled in; its sg_list points into @u (a single entry for inline
 *     data, pointing at the data itself)
 * @inline_sge: storage for that single entry
 *
 * Checked here: the opcode is one user space may post, the SGE count and
 * the inline length are within the QP's limits and the copy. What depends
 * on the QP type and the address (rxe_wr_allowed(), lengths, UD's remote
 * QPN) is checked by the post path the request then goes through.
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a WQE that cannot be posted.
 */
static int rxe_uqp_wqe_to_wr(const struct rxe_user_send_wqe *u, size_t room,
			     u32 max_sge, u32 max_inline, union rxe_uqp_wr *w,
			     struct ib_sge *inline_sge)
{
	const struct rxe_send_wr *uw = &u->wr;
	u32 num_sge = u->dma.num_sge;

	memset(w, 0, sizeof(*w));
	if (!uqp_opcode_ok(uw->opcode))
		return -EINVAL;
	w->wr.wr_id = uw->wr_id;
	w->wr.opcode = uw->opcode;
	w->wr.send_flags = uw->send_flags;
	w->wr.ex.imm_data = uw->ex.imm_data;
	if (uw->send_flags & IB_SEND_INLINE) {
		if (u->dma.length > max_inline || u->dma.length > room)
			return -EINVAL;
		inline_sge->addr = (uintptr_t)u->dma.inline_data;
		inline_sge->length = u->dma.length;
		inline_sge->lkey = 0;
		w->wr.sg_list = inline_sge;
		w->wr.num_sge = 1;
	} else {
		if (num_sge > max_sge || num_sge * sizeof(struct rxe_sge) > room)
			return -EINVAL;
		w->wr.sg_list = (struct ib_sge *)u->dma.sge;
		w->wr.num_sge = num_sge;
	}
	switch (uw->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		w->rdma.remote_addr = uw->wr.rdma.remote_addr;
		w->rdma.rkey = uw->wr.rdma.rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		w->atomic.remote_addr = uw->wr.atomic.remote_addr;
		w->atomic.compare_add = uw->wr.atomic.compare_add;
		w->atomic.swap = uw->wr.atomic.swap;
		w->atomic.rkey = uw->wr.atomic.rkey;
		break;
	}
	return 0;
}

/*
 * The address of a UD send: the AH user space named by number, which
 * must be one of the QP's PD. Its vector is copied into @ah under the
 * table's lock, so the AH may go right after. A WQE carrying its own
 * vector (ah_num 0, providers older than rdma-core's ah_num) is refused.
 */
static int uqp_ud_ah(struct rxe_qp *qp, u32 ah_num, struct rxe_ah *ah)
{
	struct rxe_ah *found;
	unsigned long flags;
	int err = -EINVAL;

	if (!ah_num)
		return -EINVAL;
	xa_lock_irqsave(&qp->rxe->ah_xa, flags);
	found = xa_load(&qp->rxe->ah_xa, ah_num);
	if (found && found->ibah.pd == qp->ibqp.pd) {
		ah->av = found->av;
		err = 0;
	}
	xa_unlock_irqrestore(&qp->rxe->ah_xa, flags);
	return err;
}

/* Queue the WQE copied into qp->usq_copy; false when it was refused. */
static bool uqp_sq_post_copy(struct rxe_qp *qp)
	__must_hold(&qp->sq_lock)
{
	const struct rxe_user_send_wqe *u = qp->usq_copy;
	size_t room = (1u << qp->usq.log2_elem) - sizeof(*u);
	struct ib_sge inline_sge;
	union rxe_uqp_wr w;
	struct rxe_ah ah;

	/* a bind has no kernel work request: it is queued as it is */
	if (u->wr.opcode == IB_WR_BIND_MW) {
		if (!rxe_wr_allowed(rxe_qp_type(qp), IB_WR_BIND_MW))
			return false;
		rxe_post_send_bind(qp, &u->wr);
		return true;
	}
	if (rxe_uqp_wqe_to_wr(u, room, qp->sq_max_sge, qp->sq_max_inline, &w,
			      &inline_sge))
		return false;
	if (rxe_qp_is_ud(qp)) {
		if (uqp_ud_ah(qp, u->wr.wr.ud.ah_num, &ah))
			return false;
		w.ud.ah = &ah.ibah;
		w.ud.remote_qpn = u->wr.wr.ud.remote_qpn;
		w.ud.remote_qkey = u->wr.wr.ud.remote_qkey;
	}
	return !rxe_post_send_user(qp, &w.wr);
}

/**
 * rxe_uqp_sq_pull() - queue what user space added to the SQ ring
 * @qp: a user QP ready to send (RTS, SQD or ERR)
 *
 * The POST_SEND doorbell: every slot from the kernel SQ's producer to the
 * ring's producer index is copied out, checked and queued, as long as the
 * kernel SQ has room. A refused WQE is queued as one that fails.
 *
 * Context: any context; takes qp->sq_lock.
 */
void rxe_uqp_sq_pull(struct rxe_qp *qp)
{
	const struct rxe_user_send_wqe *u = qp->usq_copy;
	unsigned long flags;
	u32 prod;

	spin_lock_irqsave(&qp->sq_lock, flags);
	prod = rxe_uring_user_prod(&qp->usq);
	while ((qp->sq.prod & qp->usq.mask) != prod &&
	       !rxe_queue_full(&qp->sq)) {
		memcpy(qp->usq_copy, rxe_uring_slot(&qp->usq, qp->sq.prod),
		       1u << qp->usq.log2_elem);
		if (!uqp_sq_post_copy(qp)) {
			rxe_dbg_qp(qp, "bad user send WQE (opcode %u, %u SGEs)\n",
				   u->wr.opcode, u->dma.num_sge);
			rxe_post_send_bad(qp, u->wr.wr_id);
		}
	}
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}

/**
 * rxe_uqp_sq_retired() - hand the slots of retired WQEs back to user space
 * @qp: a user QP
 *
 * Context: the completer, or modify_qp to RESET with the engines stopped.
 */
void rxe_uqp_sq_retired(struct rxe_qp *qp)
{
	/* The slot was read before: pairs with the provider's acquire. */
	smp_store_release(&qp->usq.buf->consumer_index,
			  qp->sq.cons & qp->usq.mask);
}
