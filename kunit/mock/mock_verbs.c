// SPDX-License-Identifier: GPL-2.0-only
/* mock_verbs: the kernel verbs of the mock RDMA driver, with fault injection. */
/*
 * Every verb first counts itself in mock_ibdev.calls and returns what the
 * test put in mock_ibdev.fail, if anything. Objects are counted in
 * mock_ibdev.live. CQs hold their completions in a ring; QPs keep their
 * outstanding requests and flush them to the CQs when moved to ERR, so
 * the core's pollers and drains see what real hardware would give them.
 */

#include <linux/bottom_half.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "kunit/mock/mock_ibdev.h"

/* ---- Kernel verbs: fault injection and accounting ------------------------ */

/* Count a call of @verb; return the error the test wants from it, or 0. */
static int mock_enter(struct ib_device *ibdev, enum mock_verb verb)
{
	struct mock_ibdev *mdev = to_mock_ibdev(ibdev);

	atomic_inc(&mdev->calls[verb]);
	return READ_ONCE(mdev->fail[verb]);
}

static void mock_obj_add(struct ib_device *ibdev, enum mock_obj obj, int delta)
{
	atomic_add(delta, &to_mock_ibdev(ibdev)->live[obj]);
}

/* A create verb: fails as told, else one more @obj exists. */
static int mock_obj_create(struct ib_device *ibdev, enum mock_verb verb,
			   enum mock_obj obj)
{
	int err = mock_enter(ibdev, verb);

	if (!err)
		mock_obj_add(ibdev, obj, 1);
	return err;
}

/* A destroy verb: fails as told (the object stays), else one @obj less. */
static int mock_obj_destroy(struct ib_device *ibdev, enum mock_verb verb,
			    enum mock_obj obj)
{
	int err = mock_enter(ibdev, verb);

	if (!err)
		mock_obj_add(ibdev, obj, -1);
	return err;
}

/* ---- PDs and XRC domains ------------------------------------------------- */

/**
 * struct mock_xrcd - an XRC domain of the mock
 * @ibxrcd: the core's part, first as INIT_RDMA_OBJ_SIZE wants
 */
struct mock_xrcd {
	struct ib_xrcd ibxrcd;
};

/**
 * struct mock_pd - a PD of the mock
 * @ibpd: the core's part
 */
struct mock_pd {
	struct ib_pd ibpd;
};

static int mock_pd_alloc(struct ib_pd *pd, struct ib_udata *udata)
{
	return mock_obj_create(pd->device, MOCK_ALLOC_PD, MOCK_OBJ_PD);
}

static int mock_pd_dealloc(struct ib_pd *pd, struct ib_udata *udata)
{
	return mock_obj_destroy(pd->device, MOCK_DEALLOC_PD, MOCK_OBJ_PD);
}

static int mock_xrcd_alloc(struct ib_xrcd *xrcd, struct ib_udata *udata)
{
	return mock_obj_create(xrcd->device, MOCK_ALLOC_XRCD, MOCK_OBJ_XRCD);
}

static int mock_xrcd_dealloc(struct ib_xrcd *xrcd, struct ib_udata *udata)
{
	return mock_obj_destroy(xrcd->device, MOCK_DEALLOC_XRCD,
				MOCK_OBJ_XRCD);
}

/* ---- CQs: a ring of completions per CQ ----------------------------------- */

/**
 * struct mock_cq - a CQ of the mock
 * @ibcq: the core's part
 * @lock: protects the members below; taken with interrupts off, as the
 *	core polls from softirq context
 * @ring: pending completions, @count of them from @head on
 * @head: ring index of the oldest pending completion
 * @count: pending completions
 * @armed: the next completion raises a completion event
 */
struct mock_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* protects the members below */
	struct ib_wc ring[MOCK_IBDEV_CQ_DEPTH];
	unsigned int head;
	unsigned int count;
	bool armed;
};

static struct mock_cq *to_mock_cq(struct ib_cq *cq)
{
	return container_of(cq, struct mock_cq, ibcq);
}

static int mock_cq_create(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata)
{
	int err = mock_obj_create(cq->device, MOCK_CREATE_CQ, MOCK_OBJ_CQ);

	if (err)
		return err;
	spin_lock_init(&to_mock_cq(cq)->lock);
	cq->cqe = min_t(int, attr->cqe, MOCK_IBDEV_CQ_DEPTH);
	return 0;
}

static int mock_cq_destroy(struct ib_cq *cq, struct ib_udata *udata)
{
	return mock_obj_destroy(cq->device, MOCK_DESTROY_CQ, MOCK_OBJ_CQ);
}

static int mock_cq_poll(struct ib_cq *cq, int num_entries, struct ib_wc *wc)
{
	struct mock_cq *mcq = to_mock_cq(cq);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&mcq->lock, flags);
	for (n = 0; n < num_entries && mcq->count; n++) {
		wc[n] = mcq->ring[mcq->head];
		mcq->head = (mcq->head + 1) % MOCK_IBDEV_CQ_DEPTH;
		mcq->count--;
	}
	spin_unlock_irqrestore(&mcq->lock, flags);
	return n;
}

/* As hardware does, report completions that are already waiting. */
static int mock_cq_req_notify(struct ib_cq *cq, enum ib_cq_notify_flags flags)
{
	struct mock_cq *mcq = to_mock_cq(cq);
	unsigned long irqflags;
	int missed;

	spin_lock_irqsave(&mcq->lock, irqflags);
	mcq->armed = true;
	missed = (flags & IB_CQ_REPORT_MISSED_EVENTS) && mcq->count;
	spin_unlock_irqrestore(&mcq->lock, irqflags);
	return missed;
}

/**
 * mock_ibdev_cq_push() - Add a completion to a mock CQ, as hardware would
 * @cq: the CQ
 * @wc: the completion
 *
 * If the CQ is armed, the completion event is raised right away, with
 * bottom halves off as in an interrupt, so a softirq poller runs before
 * this returns.
 *
 * Context: Process context with interrupts on; no locks the CQ's done()
 * callbacks take.
 * Return: false if the CQ was full and the completion dropped.
 */
bool mock_ibdev_cq_push(struct ib_cq *cq, const struct ib_wc *wc)
{
	struct mock_cq *mcq = to_mock_cq(cq);
	unsigned long flags;
	bool fire, room;

	spin_lock_irqsave(&mcq->lock, flags);
	room = mcq->count < MOCK_IBDEV_CQ_DEPTH;
	if (room) {
		mcq->ring[(mcq->head + mcq->count) % MOCK_IBDEV_CQ_DEPTH] = *wc;
		mcq->count++;
	}
	fire = room && mcq->armed && cq->comp_handler;
	if (fire)
		mcq->armed = false;
	spin_unlock_irqrestore(&mcq->lock, flags);

	if (fire) {
		local_bh_disable();
		cq->comp_handler(cq, cq->cq_context);
		local_bh_enable();
	}
	return room;
}
EXPORT_SYMBOL_GPL(mock_ibdev_cq_push);

/**
 * mock_ibdev_cq_pending() - Completions waiting in a mock CQ
 * @cq: the CQ
 *
 * Context: Any context.
 * Return: their number.
 */
int mock_ibdev_cq_pending(struct ib_cq *cq)
{
	struct mock_cq *mcq = to_mock_cq(cq);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&mcq->lock, flags);
	n = mcq->count;
	spin_unlock_irqrestore(&mcq->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(mock_ibdev_cq_pending);

/* ---- QPs: a state and two queues of outstanding requests ----------------- */

/**
 * struct mock_wq - outstanding work requests of one queue
 * @wr_id: their wr_id (or wr_cqe, which shares the storage), oldest first
 * @count: how many
 */
struct mock_wq {
	u64 wr_id[MOCK_IBDEV_WQ_DEPTH];
	unsigned int count;
};

/**
 * struct mock_qp - a QP of the mock
 * @ibqp: the core's part
 * @lock: protects the members below; interrupts off, like the CQ's
 * @state: the state the last modify_qp set
 * @port: the port, from creation or the last modify_qp with IB_QP_PORT
 * @init: the creation attributes
 * @sq: outstanding send requests
 * @rq: outstanding receive requests
 * @sent: copies of the first send requests accepted, @nsent of them
 * @nsent: entries of @sent in use
 * @special_rq: receives of a GSI or SMI QP, instead of @rq
 * @node: in the device's list of QPs (under mock_ibdev.qps_lock)
 * @transmit: completes the outstanding sends (mock_ibdev.transmit_all)
 */
struct mock_qp {
	struct ib_qp ibqp;
	spinlock_t lock;	/* protects the members below */
	enum ib_qp_state state;
	u32 port;
	struct ib_qp_init_attr init;
	struct mock_wq sq;
	struct mock_wq rq;
	struct mock_sent_wr sent[MOCK_IBDEV_SENT_MAX];
	unsigned int nsent;
	struct mock_special_rq *special_rq;
	struct list_head node;
	struct work_struct transmit;
};

/**
 * struct mock_special_rq - the receive queue of a GSI or SMI QP
 * @size: room, the QP's max_recv_wr
 * @head: index of the oldest receive
 * @count: receives posted
 * @wr: the receives: their wr_id and first SGE
 *
 * Under the QP's lock.
 */
struct mock_special_rq {
	unsigned int size;
	unsigned int head;
	unsigned int count;
	struct {
		u64 wr_id;
		struct ib_sge sge;
	} wr[];
};

static struct mock_qp *to_mock_qp(struct ib_qp *qp)
{
	return container_of(qp, struct mock_qp, ibqp);
}

/* Put a completion for @wr_id of @mqp on @cq (if the QP has that CQ). */
static void mock_qp_complete(struct mock_qp *mqp, struct ib_cq *cq, u64 wr_id,
			     enum ib_wc_status status, enum ib_wc_opcode op)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = status,
		.opcode = op,
		.qp = &mqp->ibqp,
	};

	if (cq)
		mock_ibdev_cq_push(cq, &wc);
}

/*
 * Take up to @max requests off @wq, oldest first, into @ids. Completions
 * are pushed after the lock is dropped: pushing may run the core's poller.
 */
/* Take up to @max of the oldest requests of @wq; the caller holds mqp->lock. */
static unsigned int mock_wq_take_locked(struct mock_wq *wq, u64 *ids,
					unsigned int max)
{
	unsigned int n = min(max, wq->count);

	memcpy(ids, wq->wr_id, n * sizeof(*ids));
	memmove(wq->wr_id, wq->wr_id + n, (wq->count - n) * sizeof(*ids));
	wq->count -= n;
	return n;
}

static unsigned int mock_wq_take(struct mock_qp *mqp, struct mock_wq *wq,
				 u64 *ids, unsigned int max)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&mqp->lock, flags);
	n = mock_wq_take_locked(wq, ids, max);
	spin_unlock_irqrestore(&mqp->lock, flags);
	return n;
}

/* Flush everything outstanding on @wq to @cq, as a QP entering ERR does. */
static void mock_wq_flush(struct mock_qp *mqp, struct mock_wq *wq,
			  struct ib_cq *cq, enum ib_wc_opcode op)
{
	u64 ids[MOCK_IBDEV_WQ_DEPTH];
	unsigned int i, n;

	n = mock_wq_take(mqp, wq, ids, MOCK_IBDEV_WQ_DEPTH);
	for (i = 0; i < n; i++)
		mock_qp_complete(mqp, cq, ids[i], IB_WC_WR_FLUSH_ERR, op);
}

/*
 * Queue one request. Returns 0 when queued, 1 when the QP is in the error
 * state and the request must be flushed right away, -ENOMEM when full.
 */
static int mock_wq_post(struct mock_qp *mqp, struct mock_wq *wq, u64 wr_id)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&mqp->lock, flags);
	if (mqp->state == IB_QPS_ERR)
		ret = 1;
	else if (wq->count == MOCK_IBDEV_WQ_DEPTH)
		ret = -ENOMEM;
	else
		wq->wr_id[wq->count++] = wr_id;
	spin_unlock_irqrestore(&mqp->lock, flags);
	return ret;
}

/*
 * The wire of mock_ibdev_transmit_all(). It looks at the device's flag under
 * the QP's lock, as a post does: a send posted after
 * mock_ibdev_transmit_hold() stays outstanding even when a run queued
 * before the hold comes late.
 */
static void mock_qp_transmit(struct work_struct *work)
{
	struct mock_qp *mqp = container_of(work, struct mock_qp, transmit);
	struct mock_ibdev *mdev = to_mock_ibdev(mqp->ibqp.device);
	u64 ids[MOCK_IBDEV_WQ_DEPTH];
	unsigned long flags;
	unsigned int i, n = 0;

	spin_lock_irqsave(&mqp->lock, flags);
	if (READ_ONCE(mdev->transmit_all))
		n = mock_wq_take_locked(&mqp->sq, ids, MOCK_IBDEV_WQ_DEPTH);
	spin_unlock_irqrestore(&mqp->lock, flags);
	for (i = 0; i < n; i++)
		mock_qp_complete(mqp, mqp->ibqp.send_cq, ids[i], IB_WC_SUCCESS,
				 IB_WC_SEND);
}

static int mock_qp_create(struct ib_qp *qp, struct ib_qp_init_attr *init,
			  struct ib_udata *udata)
{
	struct mock_ibdev *mdev = to_mock_ibdev(qp->device);
	struct mock_qp *mqp = to_mock_qp(qp);
	unsigned long flags;
	int err;

	err = mock_obj_create(qp->device, MOCK_CREATE_QP, MOCK_OBJ_QP);
	if (err)
		return err;
	spin_lock_init(&mqp->lock);
	INIT_WORK(&mqp->transmit, mock_qp_transmit);
	mqp->state = IB_QPS_RESET;
	mqp->port = init->port_num;
	mqp->init = *init;
	if (init->qp_type != IB_QPT_SMI && init->qp_type != IB_QPT_GSI) {
		qp->qp_num = atomic_inc_return(&mdev->next_qpn);
	} else {
		qp->qp_num = init->qp_type;
		mqp->special_rq = kzalloc(struct_size(mqp->special_rq, wr,
						      init->cap.max_recv_wr),
					  GFP_KERNEL);
		if (!mqp->special_rq) {
			mock_obj_add(qp->device, MOCK_OBJ_QP, -1);
			return -ENOMEM;
		}
		mqp->special_rq->size = init->cap.max_recv_wr;
	}
	spin_lock_irqsave(&mdev->qps_lock, flags);
	list_add_tail(&mqp->node, &mdev->qps);
	spin_unlock_irqrestore(&mdev->qps_lock, flags);
	return 0;
}

static int mock_qp_modify(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
			  struct ib_udata *udata)
{
	struct mock_ibdev *mdev = to_mock_ibdev(qp->device);
	struct mock_qp *mqp = to_mock_qp(qp);
	unsigned long flags;
	int err;

	err = mock_enter(qp->device, MOCK_MODIFY_QP);
	if (err)
		return err;
	mdev->last.qp_attr_mask = mask;
	mdev->last.qp_attr = *attr;

	spin_lock_irqsave(&mqp->lock, flags);
	if (mask & IB_QP_PORT)
		mqp->port = attr->port_num;
	if (mask & IB_QP_STATE)
		mqp->state = attr->qp_state;
	spin_unlock_irqrestore(&mqp->lock, flags);

	if (mask & IB_QP_STATE && attr->qp_state == IB_QPS_ERR) {
		mock_wq_flush(mqp, &mqp->sq, qp->send_cq, IB_WC_SEND);
		mock_wq_flush(mqp, &mqp->rq, qp->recv_cq, IB_WC_RECV);
	}
	return 0;
}

static int mock_qp_query(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
			 struct ib_qp_init_attr *init)
{
	struct mock_qp *mqp = to_mock_qp(qp);
	unsigned long flags;
	int err;

	err = mock_enter(qp->device, MOCK_QUERY_QP);
	if (err)
		return err;
	spin_lock_irqsave(&mqp->lock, flags);
	attr->qp_state = mqp->state;
	attr->cur_qp_state = mqp->state;
	attr->port_num = mqp->port;
	attr->cap = mqp->init.cap;
	*init = mqp->init;
	spin_unlock_irqrestore(&mqp->lock, flags);
	return 0;
}

static int mock_qp_destroy(struct ib_qp *qp, struct ib_udata *udata)
{
	struct mock_ibdev *mdev = to_mock_ibdev(qp->device);
	int err = mock_obj_destroy(qp->device, MOCK_DESTROY_QP, MOCK_OBJ_QP);
	unsigned long flags;

	if (err)
		return err;
	spin_lock_irqsave(&mdev->qps_lock, flags);
	list_del(&to_mock_qp(qp)->node);
	spin_unlock_irqrestore(&mdev->qps_lock, flags);
	cancel_work_sync(&to_mock_qp(qp)->transmit);
	kfree(to_mock_qp(qp)->special_rq);
	return 0;
}

/* Post one request to @wq, or in the error state flush it to @cq at once. */
static int mock_qp_post_one(struct mock_qp *mqp, struct mock_wq *wq,
			    struct ib_cq *cq, u64 wr_id, enum ib_wc_opcode op)
{
	int ret = mock_wq_post(mqp, wq, wr_id);

	if (ret != 1)
		return ret;
	mock_qp_complete(mqp, cq, wr_id, IB_WC_WR_FLUSH_ERR, op);
	return 0;
}

/* The opcodes whose WR is an ib_rdma_wr, and those that are an ib_reg_wr. */
static bool mock_wr_is_rdma(enum ib_wr_opcode op)
{
	return op == IB_WR_RDMA_WRITE || op == IB_WR_RDMA_WRITE_WITH_IMM ||
	       op == IB_WR_RDMA_READ || op == IB_WR_RDMA_READ_WITH_INV;
}

static bool mock_wr_is_reg(enum ib_wr_opcode op)
{
	return op == IB_WR_REG_MR || op == IB_WR_REG_MR_INTEGRITY;
}

/* What a test can check of @wr, copied into @out. */
static void mock_sent_copy(struct mock_sent_wr *out,
			   const struct ib_send_wr *wr)
{
	int i;

	memset(out, 0, sizeof(*out));
	out->opcode = wr->opcode;
	out->send_flags = wr->send_flags;
	out->num_sge = wr->num_sge;
	for (i = 0; i < min(wr->num_sge, MOCK_IBDEV_SENT_SGES); i++)
		out->sge[i] = wr->sg_list[i];
	out->wr_cqe = wr->wr_cqe;
	if (wr->opcode == IB_WR_LOCAL_INV ||
	    wr->opcode == IB_WR_RDMA_READ_WITH_INV)
		out->invalidate_rkey = wr->ex.invalidate_rkey;
	if (mock_wr_is_rdma(wr->opcode)) {
		out->remote_addr = rdma_wr(wr)->remote_addr;
		out->rkey = rdma_wr(wr)->rkey;
	}
	if (mock_wr_is_reg(wr->opcode)) {
		out->reg_mr = reg_wr(wr)->mr;
		out->reg_key = reg_wr(wr)->key;
		out->reg_access = reg_wr(wr)->access;
	}
}

/* A send on a datagram QP: its address, and the MAD of a special QP. */
static void mock_sent_copy_ud(struct mock_qp *mqp, struct mock_sent_wr *out,
			      const struct ib_send_wr *wr)
{
	enum ib_qp_type type = mqp->init.qp_type;

	if (type != IB_QPT_UD && type != IB_QPT_GSI && type != IB_QPT_SMI)
		return;
	out->ud_ah = ud_wr(wr)->ah;
	out->ud_remote_qpn = ud_wr(wr)->remote_qpn;
	out->ud_pkey_index = ud_wr(wr)->pkey_index;
	/* The mock has no DMA device: addresses are kernel addresses. */
	if (mqp->special_rq && wr->num_sge)
		memcpy(out->mad, (void *)(uintptr_t)wr->sg_list[0].addr,
		       min_t(u32, wr->sg_list[0].length, sizeof(out->mad)));
}

/* Remember an accepted send request, while there is room. */
static void mock_sent_log(struct mock_qp *mqp, const struct ib_send_wr *wr)
{
	unsigned long flags;

	spin_lock_irqsave(&mqp->lock, flags);
	if (mqp->nsent < MOCK_IBDEV_SENT_MAX) {
		mock_sent_copy(&mqp->sent[mqp->nsent], wr);
		mock_sent_copy_ud(mqp, &mqp->sent[mqp->nsent++], wr);
	}
	spin_unlock_irqrestore(&mqp->lock, flags);
}

static int mock_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			  const struct ib_send_wr **bad_wr)
{
	struct mock_qp *mqp = to_mock_qp(qp);
	int err = mock_enter(qp->device, MOCK_POST_SEND);

	while (wr && !err) {
		err = mock_qp_post_one(mqp, &mqp->sq, qp->send_cq, wr->wr_id,
				       IB_WC_SEND);
		if (!err) {
			mock_sent_log(mqp, wr);
			wr = wr->next;
		}
	}
	if (err)
		*bad_wr = wr;
	/* Posters may hold irqsave locks: the CQ is pushed from a work item. */
	if (READ_ONCE(to_mock_ibdev(qp->device)->transmit_all))
		queue_work(system_wq, &mqp->transmit);
	return err;
}

/* Queue a receive of a special QP; -ENOMEM when full. */
static int mock_special_post(struct mock_qp *mqp, const struct ib_recv_wr *wr)
{
	struct mock_special_rq *rq = mqp->special_rq;
	unsigned long flags;
	int ret = -ENOMEM;

	spin_lock_irqsave(&mqp->lock, flags);
	if (rq->count < rq->size && wr->num_sge == 1) {
		unsigned int i = (rq->head + rq->count++) % rq->size;

		rq->wr[i].wr_id = wr->wr_id;
		rq->wr[i].sge = wr->sg_list[0];
		ret = 0;
	}
	spin_unlock_irqrestore(&mqp->lock, flags);
	return ret;
}

static int mock_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
			  const struct ib_recv_wr **bad_wr)
{
	struct mock_qp *mqp = to_mock_qp(qp);
	int err = mock_enter(qp->device, MOCK_POST_RECV);

	while (wr && !err) {
		if (mqp->special_rq)
			err = mock_special_post(mqp, wr);
		else
			err = mock_qp_post_one(mqp, &mqp->rq, qp->recv_cq,
					       wr->wr_id, IB_WC_RECV);
		if (!err)
			wr = wr->next;
	}
	if (err)
		*bad_wr = wr;
	return err;
}

/**
 * mock_ibdev_qp_state() - The state a mock QP was last moved to
 * @qp: the QP
 *
 * Context: Any context.
 * Return: the state.
 */
enum ib_qp_state mock_ibdev_qp_state(struct ib_qp *qp)
{
	struct mock_qp *mqp = to_mock_qp(qp->real_qp);
	enum ib_qp_state state;
	unsigned long flags;

	spin_lock_irqsave(&mqp->lock, flags);
	state = mqp->state;
	spin_unlock_irqrestore(&mqp->lock, flags);
	return state;
}
EXPORT_SYMBOL_GPL(mock_ibdev_qp_state);

/**
 * mock_ibdev_qp_complete_send() - Complete the oldest send requests
 * @qp: the QP
 * @n: how many, at most
 *
 * They complete successfully on the send CQ, as after a transmission.
 *
 * Context: As mock_ibdev_cq_push().
 * Return: how many were completed.
 */
int mock_ibdev_qp_complete_send(struct ib_qp *qp, int n)
{
	struct mock_qp *mqp = to_mock_qp(qp);
	u64 ids[MOCK_IBDEV_WQ_DEPTH];
	unsigned int i, got;

	got = mock_wq_take(mqp, &mqp->sq, ids,
			   clamp(n, 0, MOCK_IBDEV_WQ_DEPTH));
	for (i = 0; i < got; i++)
		mock_qp_complete(mqp, qp->send_cq, ids[i], IB_WC_SUCCESS,
				 IB_WC_SEND);
	return got;
}
EXPORT_SYMBOL_GPL(mock_ibdev_qp_complete_send);

/**
 * mock_ibdev_transmit_all() - Complete every send of @mdev from now on
 * @mdev: the device
 *
 * What is outstanding on its QPs completes successfully, and every later
 * send soon after it is posted, as if a wire took them: from a work item
 * per QP, in process context.
 *
 * Context: Any context.
 */
void mock_ibdev_transmit_all(struct mock_ibdev *mdev)
{
	struct mock_qp *mqp;
	unsigned long flags;

	WRITE_ONCE(mdev->transmit_all, true);
	spin_lock_irqsave(&mdev->qps_lock, flags);
	list_for_each_entry(mqp, &mdev->qps, node)
		queue_work(system_wq, &mqp->transmit);
	spin_unlock_irqrestore(&mdev->qps_lock, flags);
}
EXPORT_SYMBOL_GPL(mock_ibdev_transmit_all);

/**
 * mock_ibdev_transmit_hold() - Stop completing sends on their own
 * @mdev: the device
 *
 * Undoes mock_ibdev_transmit_all(): sends posted from now on stay
 * outstanding until mock_ibdev_qp_complete_send() completes them, even if
 * a transmission queued earlier runs after this.
 *
 * Context: Any context.
 */
void mock_ibdev_transmit_hold(struct mock_ibdev *mdev)
{
	WRITE_ONCE(mdev->transmit_all, false);
}
EXPORT_SYMBOL_GPL(mock_ibdev_transmit_hold);

/**
 * mock_ibdev_qp_sent() - The send requests a mock QP accepted
 * @qp: the QP
 * @out: filled with copies of the requests, oldest first
 * @max: room in @out
 *
 * The QP remembers the first MOCK_IBDEV_SENT_MAX requests posted to it,
 * including those completed or flushed since.
 *
 * Context: Any context.
 * Return: how many were copied.
 */
int mock_ibdev_qp_sent(struct ib_qp *qp, struct mock_sent_wr *out, int max)
{
	struct mock_qp *mqp = to_mock_qp(qp);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&mqp->lock, flags);
	n = min_t(int, max, mqp->nsent);
	memcpy(out, mqp->sent, n * sizeof(*out));
	spin_unlock_irqrestore(&mqp->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(mock_ibdev_qp_sent);

/**
 * mock_ibdev_qp_deliver() - Receive a message on a GSI or SMI QP
 * @qp: the QP
 * @msg: the message (a MAD)
 * @len: its length
 * @src_qp: the sender's QP number, for the completion
 * @slid: the sender's LID, for the completion
 *
 * The oldest posted receive gets the message after its 40 bytes of GRH
 * room (no GRH is reported), and completes successfully on the receive
 * CQ.
 *
 * Context: As mock_ibdev_cq_push().
 * Return: 0, -EINVAL for a QP that is not special, -ENOENT when no receive
 * is posted, -EMSGSIZE when the receive is too small.
 */
int mock_ibdev_qp_deliver(struct ib_qp *qp, const void *msg, u32 len,
			  u32 src_qp, u16 slid)
{
	struct mock_qp *mqp = to_mock_qp(qp);
	struct mock_special_rq *rq = mqp->special_rq;
	struct ib_wc wc = {
		.status = IB_WC_SUCCESS,
		.opcode = IB_WC_RECV,
		.byte_len = sizeof(struct ib_grh) + len,
		.qp = qp,
		.src_qp = src_qp,
		.slid = slid,
		.port_num = mqp->port,
	};
	struct ib_sge sge;
	unsigned long flags;

	if (!rq)
		return -EINVAL;
	spin_lock_irqsave(&mqp->lock, flags);
	if (!rq->count) {
		spin_unlock_irqrestore(&mqp->lock, flags);
		return -ENOENT;
	}
	wc.wr_id = rq->wr[rq->head].wr_id;
	sge = rq->wr[rq->head].sge;
	rq->head = (rq->head + 1) % rq->size;
	rq->count--;
	spin_unlock_irqrestore(&mqp->lock, flags);

	if (sge.length < wc.byte_len) {
		wc.status = IB_WC_LOC_LEN_ERR;
		mock_ibdev_cq_push(qp->recv_cq, &wc);
		return -EMSGSIZE;
	}
	memcpy((void *)(uintptr_t)sge.addr + sizeof(struct ib_grh), msg, len);
	mock_ibdev_cq_push(qp->recv_cq, &wc);
	return 0;
}
EXPORT_SYMBOL_GPL(mock_ibdev_qp_deliver);

/* ---- Address handles: the attributes are kept for the tests --------------- */

/**
 * struct mock_ah - an address handle of the mock
 * @ibah: the core's part
 * @attr: the attributes it was created with (no GID reference kept)
 */
struct mock_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

static int mock_ah_create(struct ib_ah *ah, struct rdma_ah_init_attr *init,
			  struct ib_udata *udata)
{
	struct mock_ah *mah = container_of(ah, struct mock_ah, ibah);
	int err = mock_obj_create(ah->device, MOCK_CREATE_AH, MOCK_OBJ_AH);

	if (err)
		return err;
	mah->attr = *init->ah_attr;
	mah->attr.grh.sgid_attr = NULL;
	return 0;
}

static int mock_ah_destroy(struct ib_ah *ah, u32 flags)
{
	return mock_obj_destroy(ah->device, MOCK_DESTROY_AH, MOCK_OBJ_AH);
}

/**
 * mock_ibdev_ah_attr() - The attributes a mock AH was created with
 * @ah: the AH
 *
 * Context: Any context, while @ah lives.
 * Return: the attributes (holding no GID entry).
 */
const struct rdma_ah_attr *mock_ibdev_ah_attr(struct ib_ah *ah)
{
	return &container_of(ah, struct mock_ah, ibah)->attr;
}
EXPORT_SYMBOL_GPL(mock_ibdev_ah_attr);

/* The driver's own drain: only counted, nothing is waited for. */
static void mock_drain_sq(struct ib_qp *qp)
{
	mock_enter(qp->device, MOCK_DRAIN_SQ);
}

static void mock_drain_rq(struct ib_qp *qp)
{
	mock_enter(qp->device, MOCK_DRAIN_RQ);
}

static int mock_mcast_attach(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	to_mock_ibdev(qp->device)->last.mcast_lid = lid;
	return mock_enter(qp->device, MOCK_ATTACH_MCAST);
}

static int mock_mcast_detach(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	to_mock_ibdev(qp->device)->last.mcast_lid = lid;
	return mock_enter(qp->device, MOCK_DETACH_MCAST);
}

/* ---- SRQs ---------------------------------------------------------------- */

/**
 * struct mock_srq - an SRQ of the mock
 * @ibsrq: the core's part
 * @attr: its size and limit; used by the test thread only
 */
struct mock_srq {
	struct ib_srq ibsrq;
	struct ib_srq_attr attr;
};

static struct mock_srq *to_mock_srq(struct ib_srq *srq)
{
	return container_of(srq, struct mock_srq, ibsrq);
}

static int mock_srq_create(struct ib_srq *srq, struct ib_srq_init_attr *init,
			   struct ib_udata *udata)
{
	int err = mock_obj_create(srq->device, MOCK_CREATE_SRQ, MOCK_OBJ_SRQ);

	if (!err)
		to_mock_srq(srq)->attr = init->attr;
	return err;
}

static int mock_srq_modify(struct ib_srq *srq, struct ib_srq_attr *attr,
			   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mock_srq *msrq = to_mock_srq(srq);
	int err = mock_enter(srq->device, MOCK_MODIFY_SRQ);

	if (err)
		return err;
	to_mock_ibdev(srq->device)->last.srq_attr_mask = mask;
	if (mask & IB_SRQ_MAX_WR)
		msrq->attr.max_wr = attr->max_wr;
	if (mask & IB_SRQ_LIMIT)
		msrq->attr.srq_limit = attr->srq_limit;
	return 0;
}

static int mock_srq_query(struct ib_srq *srq, struct ib_srq_attr *attr)
{
	int err = mock_enter(srq->device, MOCK_QUERY_SRQ);

	if (!err)
		*attr = to_mock_srq(srq)->attr;
	return err;
}

static int mock_srq_destroy(struct ib_srq *srq, struct ib_udata *udata)
{
	return mock_obj_destroy(srq->device, MOCK_DESTROY_SRQ, MOCK_OBJ_SRQ);
}

/* ---- MRs: keys from a counter and a page list ---------------------------- */

/* The most pages a mock MR holds; more is refused like a real limit. */
#define MOCK_MR_MAX_PAGES	256

/**
 * struct mock_mr - an MR of the mock, allocated by the driver as in 6.1
 * @ibmr: the core's part
 * @max_pages: room in @pages
 * @npages: pages the last map_mr_sg put in @pages
 * @pages: the page list
 */
struct mock_mr {
	struct ib_mr ibmr;
	u32 max_pages;
	u32 npages;
	u64 pages[];
};

static struct mock_mr *to_mock_mr(struct ib_mr *mr)
{
	return container_of(mr, struct mock_mr, ibmr);
}

/* An MR with room for @max_pages pages and fresh keys, or as @verb fails. */
static struct ib_mr *mock_mr_new(struct ib_pd *pd, enum mock_verb verb,
				 u32 max_pages)
{
	struct mock_ibdev *mdev = to_mock_ibdev(pd->device);
	struct mock_mr *mmr;
	u32 key;
	int err;

	err = mock_enter(pd->device, verb);
	if (err)
		return ERR_PTR(err);
	if (max_pages > MOCK_MR_MAX_PAGES)
		return ERR_PTR(-EINVAL);
	mmr = kzalloc(struct_size(mmr, pages, max_pages), GFP_KERNEL);
	if (!mmr)
		return ERR_PTR(-ENOMEM);

	key = (u32)atomic_inc_return(&mdev->next_key) << 8;
	mmr->ibmr.lkey = key | 0x01;
	mmr->ibmr.rkey = key | 0x02;
	mmr->max_pages = max_pages;
	mock_obj_add(pd->device, MOCK_OBJ_MR, 1);
	return &mmr->ibmr;
}

static struct ib_mr *mock_mr_get_dma(struct ib_pd *pd, int access)
{
	to_mock_ibdev(pd->device)->last.access = access;
	return mock_mr_new(pd, MOCK_GET_DMA_MR, 0);
}

static struct ib_mr *mock_mr_alloc(struct ib_pd *pd, enum ib_mr_type type,
				   u32 max_num_sg)
{
	struct mock_ibdev *mdev = to_mock_ibdev(pd->device);

	mdev->last.mr_type = type;
	mdev->last.max_num_sg = max_num_sg;
	return mock_mr_new(pd, MOCK_ALLOC_MR, max_num_sg);
}

static struct ib_mr *mock_mr_alloc_integrity(struct ib_pd *pd, u32 max_data,
					     u32 max_meta)
{
	struct mock_ibdev *mdev = to_mock_ibdev(pd->device);

	mdev->last.max_num_sg = max_data;
	mdev->last.max_num_meta_sg = max_meta;
	return mock_mr_new(pd, MOCK_ALLOC_MR_INTEGRITY, max_data + max_meta);
}

static struct ib_mr *mock_mr_reg_user(struct ib_pd *pd, u64 start, u64 length,
				      u64 virt, int access,
				      struct ib_udata *udata)
{
	struct mock_ibdev *mdev = to_mock_ibdev(pd->device);

	mdev->last.user_start = start;
	mdev->last.access = access;
	return mock_mr_new(pd, MOCK_REG_USER_MR, 0);
}

static int mock_mr_dereg(struct ib_mr *mr, struct ib_udata *udata)
{
	struct ib_device *ibdev = mr->device;
	int err = mock_obj_destroy(ibdev, MOCK_DEREG_MR, MOCK_OBJ_MR);

	if (!err)
		kfree(to_mock_mr(mr));
	return err;
}

/* ib_sg_to_pages() callback: append a page, refuse when full. */
static int mock_mr_set_page(struct ib_mr *mr, u64 addr)
{
	struct mock_mr *mmr = to_mock_mr(mr);

	if (mmr->npages == mmr->max_pages)
		return -ENOMEM;
	mmr->pages[mmr->npages++] = addr;
	return 0;
}

static int mock_mr_map_sg(struct ib_mr *mr, struct scatterlist *sg,
			  int sg_nents, unsigned int *sg_offset)
{
	to_mock_mr(mr)->npages = 0;
	return ib_sg_to_pages(mr, sg, sg_nents, sg_offset, mock_mr_set_page);
}

/* Bytes @nents mapped entries from @sg cover. */
static u64 mock_sg_bytes(struct scatterlist *sg, int nents)
{
	struct scatterlist *s;
	u64 bytes = 0;
	int i;

	for_each_sg(sg, s, nents, i)
		bytes += sg_dma_len(s);
	return bytes;
}

/*
 * As a real driver does, the MR then starts at the data and covers data
 * and metadata; no page list is kept.
 */
static int mock_mr_map_sg_pi(struct ib_mr *mr, struct scatterlist *data_sg,
			     int data_sg_nents, unsigned int *data_sg_offset,
			     struct scatterlist *meta_sg, int meta_sg_nents,
			     unsigned int *meta_sg_offset)
{
	int err = mock_enter(mr->device, MOCK_MAP_MR_SG_PI);

	if (err)
		return err;
	mr->iova = data_sg_nents > 0 ? sg_dma_address(data_sg) : 0;
	mr->length = mock_sg_bytes(data_sg, data_sg_nents) +
		     mock_sg_bytes(meta_sg, meta_sg_nents);
	return 0;
}

static int mock_mr_check_status(struct ib_mr *mr, u32 check_mask,
				struct ib_mr_status *mr_status)
{
	int err = mock_enter(mr->device, MOCK_CHECK_MR_STATUS);

	if (!err)
		mr_status->fail_status = 0;
	return err;
}

static int mock_mr_advise(struct ib_pd *pd,
			  enum ib_uverbs_advise_mr_advice advice, u32 flags,
			  struct ib_sge *sg_list, u32 num_sge,
			  struct uverbs_attr_bundle *attrs)
{
	to_mock_ibdev(pd->device)->last.advise_num_sge = num_sge;
	return mock_enter(pd->device, MOCK_ADVISE_MR);
}

/**
 * mock_ibdev_mr_npages() - Pages the last ib_map_mr_sg() put in a mock MR
 * @mr: the MR
 *
 * Context: Any context.
 * Return: their number.
 */
u32 mock_ibdev_mr_npages(struct ib_mr *mr)
{
	return to_mock_mr(mr)->npages;
}
EXPORT_SYMBOL_GPL(mock_ibdev_mr_npages);

/**
 * mock_ibdev_mr_page() - One page address of a mock MR's page list
 * @mr: the MR
 * @i: index, below mock_ibdev_mr_npages()
 *
 * Context: Any context.
 * Return: the address, 0 for an index beyond the list.
 */
u64 mock_ibdev_mr_page(struct ib_mr *mr, u32 i)
{
	struct mock_mr *mmr = to_mock_mr(mr);

	return i < mmr->npages ? mmr->pages[i] : 0;
}
EXPORT_SYMBOL_GPL(mock_ibdev_mr_page);

/* ---- Work queues --------------------------------------------------------- */

/**
 * struct mock_rwq - a work queue of the mock, allocated by the driver as in 6.1
 * @ibwq: the core's part
 */
struct mock_rwq {
	struct ib_wq ibwq;
};

static struct ib_wq *mock_wq_create(struct ib_pd *pd,
				    struct ib_wq_init_attr *attr,
				    struct ib_udata *udata)
{
	struct mock_ibdev *mdev = to_mock_ibdev(pd->device);
	struct mock_rwq *mwq;
	int err;

	err = mock_enter(pd->device, MOCK_CREATE_WQ);
	if (err)
		return ERR_PTR(err);
	mwq = kzalloc(sizeof(*mwq), GFP_KERNEL);
	if (!mwq)
		return ERR_PTR(-ENOMEM);
	mwq->ibwq.wq_num = atomic_inc_return(&mdev->next_qpn);
	mwq->ibwq.state = IB_WQS_RESET;
	attr->max_wr = max_t(u32, attr->max_wr, MOCK_IBDEV_WQ_DEPTH);
	mock_obj_add(pd->device, MOCK_OBJ_WQ, 1);
	return &mwq->ibwq;
}

static int mock_wq_destroy(struct ib_wq *wq, struct ib_udata *udata)
{
	struct ib_device *ibdev = wq->device;
	int err = mock_obj_destroy(ibdev, MOCK_DESTROY_WQ, MOCK_OBJ_WQ);

	if (!err)
		kfree(container_of(wq, struct mock_rwq, ibwq));
	return err;
}

/* The kernel verbs every mock device has, unless cfg.no_kverbs. */
const struct ib_device_ops mock_verbs_ops = {
	.alloc_pd		= mock_pd_alloc,
	.dealloc_pd		= mock_pd_dealloc,
	.alloc_xrcd		= mock_xrcd_alloc,
	.dealloc_xrcd		= mock_xrcd_dealloc,
	.create_cq		= mock_cq_create,
	.destroy_cq		= mock_cq_destroy,
	.poll_cq		= mock_cq_poll,
	.req_notify_cq		= mock_cq_req_notify,
	.create_qp		= mock_qp_create,
	.modify_qp		= mock_qp_modify,
	.query_qp		= mock_qp_query,
	.destroy_qp		= mock_qp_destroy,
	.post_send		= mock_post_send,
	.post_recv		= mock_post_recv,
	.attach_mcast		= mock_mcast_attach,
	.detach_mcast		= mock_mcast_detach,
	.create_srq		= mock_srq_create,
	.modify_srq		= mock_srq_modify,
	.query_srq		= mock_srq_query,
	.destroy_srq		= mock_srq_destroy,
	.get_dma_mr		= mock_mr_get_dma,
	.alloc_mr		= mock_mr_alloc,
	.alloc_mr_integrity	= mock_mr_alloc_integrity,
	.reg_user_mr		= mock_mr_reg_user,
	.dereg_mr		= mock_mr_dereg,
	.map_mr_sg		= mock_mr_map_sg,
	.map_mr_sg_pi		= mock_mr_map_sg_pi,
	.check_mr_status	= mock_mr_check_status,
	.advise_mr		= mock_mr_advise,
	.create_wq		= mock_wq_create,
	.destroy_wq		= mock_wq_destroy,
	INIT_RDMA_OBJ_SIZE(ib_pd, mock_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_xrcd, mock_xrcd, ibxrcd),
	INIT_RDMA_OBJ_SIZE(ib_cq, mock_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, mock_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, mock_srq, ibsrq),
};
EXPORT_SYMBOL_GPL(mock_verbs_ops);

/*
 * Address handles, for cfg.mad (the MAD layer answers and the SA client
 * reach the SM through them). Without cfg.mad a suite may bring its own
 * create_ah/destroy_ah (the first ops set win).
 */
const struct ib_device_ops mock_ah_ops = {
	.create_ah		= mock_ah_create,
	.destroy_ah		= mock_ah_destroy,
	INIT_RDMA_OBJ_SIZE(ib_ah, mock_ah, ibah),
};
EXPORT_SYMBOL_GPL(mock_ah_ops);

/* A driver's own drain, for cfg.driver_drain. */
const struct ib_device_ops mock_verbs_drain_ops = {
	.drain_sq		= mock_drain_sq,
	.drain_rq		= mock_drain_rq,
};
EXPORT_SYMBOL_GPL(mock_verbs_drain_ops);

MODULE_DESCRIPTION("Verbs of the mock RDMA driver for the ib_core KUnit suites");
MODULE_LICENSE("GPL");
