// SPDX-License-Identifier: GPL-2.0-only
/* rxe_srq.c - shared receive queues: posting, the responders' side, the limit event, resizing. */

#include <linux/uaccess.h>
#include <rdma/uverbs_ioctl.h>
#include "rxe_ops.h"
#include "rxe_verbs.h"

/*
 * Locks: srq->lock serialises posters and modify_srq; srq->cons_lock
 * serialises the responders of the QPs sharing the SRQ. A resize takes
 * both, cons_lock first. The limit is armed under srq->lock and disarmed
 * with cmpxchg() by the consumer that takes the count below it, so the
 * consumer side never needs the producers' lock.
 *
 * A user SRQ is a ring in the rdma_user_rxe.h layout the process fills
 * and maps (rxe_uring.c): the responders take WQEs from it with
 * rxe_uring_take_recv(), which copies and checks each before use, and
 * nothing is ever posted from the kernel side.
 */

/* The bytes of a WQE slot with @max_sge SGEs in a user SRQ's ring. */
static size_t rxe_srq_uelem_size(u32 max_sge)
{
	return sizeof(struct rxe_user_recv_wqe) +
	       max_sge * sizeof(struct rxe_sge);
}

/* The WQEs the SRQ holds. */
static u32 rxe_srq_slots(struct rxe_srq *srq)
{
	return srq->is_user ? srq->urq.mask : rxe_queue_slots(&srq->rq);
}

/* A user SRQ's ring, offered to the process in the create response. */
static int rxe_srq_user_init(struct rxe_srq *srq, u32 max_wr,
			     struct ib_udata *udata)
{
	struct rxe_create_srq_resp resp = {};
	struct rxe_ucontext *uc;
	int err;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	uc = rdma_udata_to_drv_context(udata, struct rxe_ucontext, ibuc);
	err = rxe_uring_init(&srq->urq, to_rdev(srq->ibsrq.device), uc,
			     max_wr, RXE_MAX_SRQ_WR,
			     rxe_srq_uelem_size(srq->max_sge));
	if (err)
		return err;
	rxe_mmap_offer(srq->urq.mm, &resp.mi);
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err) {
		rxe_uring_cleanup(&srq->urq);
		return err;
	}
	srq->is_user = true;
	return 0;
}

static bool rxe_srq_size_ok(u32 max_wr)
{
	return max_wr >= 1 && max_wr <= RXE_MAX_SRQ_WR;
}

/**
 * rxe_srq_create() - the create_srq verb
 * @ibsrq: the SRQ, allocated by the core
 * @init: IB_SRQT_BASIC; attr.max_wr (1..RXE_MAX_SRQ_WR) and attr.max_sge
 *	(up to RXE_MAX_SGE); both are replaced by what the SRQ really holds
 * @udata: NULL for a kernel SRQ; a user SRQ's response gets the mmap
 *	   information of its ring (struct rxe_create_srq_resp)
 *
 * Context: process context.
 * Return: 0, -EOPNOTSUPP for another SRQ type, -EINVAL for sizes out of
 * range or a response too short, -ENOMEM (also beyond attr.max_srq),
 * -EFAULT.
 */
int rxe_srq_create(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibsrq->device);
	struct rxe_srq *srq = to_rsrq(ibsrq);
	struct ib_srq_attr *attr = &init->attr;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!rxe_srq_size_ok(attr->max_wr) || attr->max_sge > RXE_MAX_SGE) {
		rxe_dbg_dev(rxe, "bad SRQ size %u/%u\n", attr->max_wr,
			    attr->max_sge);
		return -EINVAL;
	}
	if (!rxe_count_inc(&rxe->num_srq, rxe->attr.max_srq))
		return -ENOMEM;

	srq->max_sge = max(attr->max_sge, 1u);
	if (udata)
		err = rxe_srq_user_init(srq, attr->max_wr, udata);
	else
		err = rxe_queue_init(&srq->rq, attr->max_wr,
				     rxe_recv_wqe_size(srq->max_sge));
	if (err) {
		atomic_dec(&rxe->num_srq);
		return err;
	}
	spin_lock_init(&srq->lock);
	spin_lock_init(&srq->cons_lock);
	srq->limit = 0;
	attr->max_wr = rxe_srq_slots(srq);
	attr->max_sge = srq->max_sge;
	return 0;
}

/**
 * rxe_srq_destroy() - the destroy_srq verb
 * @ibsrq: the SRQ; no QP uses it any more
 * @udata: user data (unused)
 *
 * Context: process context.
 * Return: 0.
 */
int rxe_srq_destroy(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);

	if (srq->is_user)
		rxe_uring_cleanup(&srq->urq);
	else
		rxe_queue_cleanup(&srq->rq);
	atomic_dec(&to_rdev(ibsrq->device)->num_srq);
	return 0;
}

/* Queue one receive WR; caller holds srq->lock. */
static int rxe_srq_post_one(struct rxe_srq *srq, const struct ib_recv_wr *wr)
{
	lockdep_assert_held(&srq->lock);
	return rxe_queue_post_recv(&srq->rq, wr, srq->max_sge);
}

/**
 * rxe_srq_post_recv() - the post_srq_recv verb
 * @ibsrq: the SRQ
 * @wr: a chain of receive WRs
 * @bad_wr: set to the first WR not posted on failure
 *
 * Context: any context.
 * Return: 0, -EINVAL for too many SGEs, -ENOMEM when the SRQ is full,
 * -EOPNOTSUPP for a user SRQ (its process posts into its ring).
 */
int rxe_srq_post_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);
	unsigned long flags;
	int err = 0;

	/* a user SRQ's WQEs are in its ring */
	if (srq->is_user) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		err = rxe_srq_post_one(srq, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return err;
}

/* Resize with both ends of the ring stopped; @limit must stay below. */
static int rxe_srq_resize(struct rxe_srq *srq, u32 max_wr, u32 limit)
{
	struct rxe_queue to;
	unsigned long flags;
	int err;

	err = rxe_queue_init(&to, max_wr, srq->rq.elem_size);
	if (err)
		return err;
	spin_lock_irqsave(&srq->cons_lock, flags);
	spin_lock(&srq->lock);
	if (limit >= rxe_queue_slots(&to))
		err = -EINVAL;
	else
		err = rxe_queue_move(&srq->rq, &to);
	spin_unlock(&srq->lock);
	spin_unlock_irqrestore(&srq->cons_lock, flags);
	rxe_queue_cleanup(&to);
	return err;
}

/*
 * Resize a user SRQ: the new ring's mmap information goes where the
 * provider's command says (struct rxe_modify_srq_cmd), then the WQEs not
 * taken yet move over. The provider does not post while it resizes; one
 * that does only loses its own WQEs.
 */
static int rxe_srq_resize_user(struct rxe_srq *srq, u32 max_wr, u32 limit,
			       struct ib_udata *udata)
{
	struct rxe_modify_srq_cmd cmd;
	struct rxe_uring to;
	unsigned long flags;
	struct mminfo mi;
	int err;

	err = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
	if (err)
		return err;
	err = rxe_uring_init(&to, to_rdev(srq->ibsrq.device), srq->urq.mm->uc,
			     max_wr, RXE_MAX_SRQ_WR, 1u << srq->urq.log2_elem);
	if (err)
		return err;
	rxe_mmap_offer(to.mm, &mi);
	if (copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi, sizeof(mi)))
		err = -EFAULT;
	if (!err) {
		spin_lock_irqsave(&srq->cons_lock, flags);
		spin_lock(&srq->lock);
		err = limit >= to.mask ? -EINVAL :
		      rxe_uring_move(&srq->urq, &to, true);
		spin_unlock(&srq->lock);
		spin_unlock_irqrestore(&srq->cons_lock, flags);
	}
	/* the old ring after a move, the unused new one after a failure */
	rxe_uring_cleanup(&to);
	return err;
}

/* Arm the limit event; caller holds nothing. */
static int rxe_srq_arm(struct rxe_srq *srq, u32 limit)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&srq->lock, flags);
	if (limit >= rxe_srq_slots(srq))
		err = -EINVAL;
	else	/* pairs with READ_ONCE()/cmpxchg() in rxe_srq_limit_hit() */
		WRITE_ONCE(srq->limit, limit);
	spin_unlock_irqrestore(&srq->lock, flags);
	return err;
}

/**
 * rxe_srq_modify() - the modify_srq verb
 * @ibsrq: the SRQ
 * @attr: the new values
 * @mask: IB_SRQ_MAX_WR (resize, keeping the WQEs queued) and/or
 *	IB_SRQ_LIMIT (arm the limit event; below max_wr)
 * @udata: NULL for a kernel SRQ; a user SRQ's resize names where the new
 *	   ring's mmap information goes (struct rxe_modify_srq_cmd)
 *
 * Context: process context.
 * Return: 0, -EINVAL (bad size, fewer slots than WQEs queued, limit not
 * below max_wr, no command for a user resize), -EOPNOTSUPP, -ENOMEM,
 * -EFAULT.
 */
int rxe_srq_modify(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);
	u32 limit;
	int err;

	if (!!udata != srq->is_user)
		return -EOPNOTSUPP;
	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR) {
		if (!rxe_srq_size_ok(attr->max_wr))
			return -EINVAL;
		limit = mask & IB_SRQ_LIMIT ? attr->srq_limit :
					      READ_ONCE(srq->limit);
		err = srq->is_user ?
		      rxe_srq_resize_user(srq, attr->max_wr, limit, udata) :
		      rxe_srq_resize(srq, attr->max_wr, limit);
		if (err)
			return err;
	}
	if (mask & IB_SRQ_LIMIT)
		return rxe_srq_arm(srq, attr->srq_limit);
	return 0;
}

/**
 * rxe_srq_query() - the query_srq verb
 * @ibsrq: the SRQ
 * @attr: filled with its size, SGEs per WQE and armed limit (0: none)
 *
 * Context: any context.
 * Return: 0.
 */
int rxe_srq_query(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);

	attr->max_wr = rxe_srq_slots(srq);
	attr->max_sge = srq->max_sge;
	attr->srq_limit = READ_ONCE(srq->limit);
	return 0;
}

/* Disarm the limit if @count went below it; true if this call did. */
static bool rxe_srq_limit_hit(struct rxe_srq *srq, u32 count)
{
	/*
	 * Pairs with WRITE_ONCE() in rxe_srq_arm(); cmpxchg() makes disarming
	 * happen once.
	 */
	u32 limit = READ_ONCE(srq->limit);

	return limit && count < limit && cmpxchg(&srq->limit, limit, 0) == limit;
}

static void rxe_srq_limit_event(struct rxe_srq *srq)
{
	struct ib_srq *ibsrq = &srq->ibsrq;
	struct ib_event ev = {
		.device = ibsrq->device,
		.element.srq = ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (ibsrq->event_handler)
		ibsrq->event_handler(&ev, ibsrq->srq_context);
}

/**
 * rxe_srq_take() - take the oldest receive WQE of an SRQ (responder side)
 * @srq: the SRQ
 * @dst: receives a copy of the WQE
 * @max_sge: SGEs @dst has room for; at least the SRQ's max_sge
 *
 * When the limit is armed and the WQEs left fall below it, the limit is
 * disarmed and IB_EVENT_SRQ_LIMIT_REACHED goes to the SRQ's event handler.
 *
 * Context: process or softirq context.
 * Return: 0, -EAGAIN when the SRQ is empty, -EINVAL (and a warning) when
 * @dst is too small.
 */
int rxe_srq_take(struct rxe_srq *srq, struct rxe_recv_wqe *dst, u32 max_sge)
{
	struct rxe_recv_wqe *wqe;
	unsigned long flags;
	bool hit, taken;

	spin_lock_irqsave(&srq->cons_lock, flags);
	if (srq->is_user) {
		taken = rxe_uring_take_recv(&srq->urq, srq->max_sge, dst,
					    max_sge);
		hit = taken &&
		      rxe_srq_limit_hit(srq, rxe_uring_pending(&srq->urq));
		spin_unlock_irqrestore(&srq->cons_lock, flags);
		goto out;
	}
	wqe = rxe_queue_head(&srq->rq);
	if (!wqe || WARN_ON_ONCE(wqe->num_sge > max_sge)) {
		spin_unlock_irqrestore(&srq->cons_lock, flags);
		return wqe ? -EINVAL : -EAGAIN;
	}
	memcpy(dst, wqe, rxe_recv_wqe_size(wqe->num_sge));
	rxe_queue_consume(&srq->rq);
	hit = rxe_srq_limit_hit(srq, rxe_queue_count(&srq->rq));
	spin_unlock_irqrestore(&srq->cons_lock, flags);
	taken = true;
out:
	if (hit)
		rxe_srq_limit_event(srq);
	return taken ? 0 : -EAGAIN;
}
