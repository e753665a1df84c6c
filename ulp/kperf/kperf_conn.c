// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: QPs of both sides, connected directly (no CM): INIT, RTR, RTS. */

#include <linux/etherdevice.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "kperf.h"

#define KPERF_HOP_LIMIT		64

/* The connection managers of cm=, by enum kperf_cm_mode (none: NULL). */
static const struct kperf_cm_ops *const kperf_conn_cms[] = {
	[KPERF_CM_IB] = &kperf_cm_ib,
	[KPERF_CM_RDMA] = &kperf_cm_rdma,
};

/**
 * kperf_conn_qp_attr() - the creation attributes of a QP of side @s
 * @run: the command
 * @s: the side
 * @attr: filled in: the command's QP type, the side's CQ (and SRQ), room
 *	  for its work requests
 *
 * Return: 0, or -EINVAL when the device cannot hold the queues (the
 * reason is in @run).
 */
int kperf_conn_qp_attr(struct kperf_run *run, struct kperf_side *s,
		       struct ib_qp_init_attr *attr)
{
	const struct kperf_params *p = &run->p;

	memset(attr, 0, sizeof(*attr));
	attr->qp_type = p->qp_type;
	attr->send_cq = s->cq;
	attr->recv_cq = s->cq;
	attr->srq = s->srq;		/* srq=1, the target side */
	attr->sq_sig_type = IB_SIGNAL_REQ_WR;
	attr->cap.max_send_wr = p->depth + 4;
	attr->cap.max_recv_wr = 2 * p->depth + 1;
	attr->cap.max_send_sge = 1;
	attr->cap.max_recv_sge = 1;
	attr->cap.max_inline_data = p->inline_data ? p->size : 0;
	if (attr->cap.max_recv_wr > s->ibdev->attrs.max_qp_wr)
		return kperf_run_fail(run, -EINVAL, "depth=%u needs %u WRs, %s has %d",
				      p->depth, attr->cap.max_recv_wr,
				      dev_name(&s->ibdev->dev),
				      s->ibdev->attrs.max_qp_wr);
	return 0;
}

static int kperf_conn_qp_create(struct kperf_run *run, struct kperf_side *s,
				struct kperf_end *e)
{
	struct ib_qp_init_attr attr;
	int ret;

	ret = kperf_conn_qp_attr(run, s, &attr);
	if (ret)
		return ret;
	e->qp = ib_create_qp(s->pd, &attr);
	if (IS_ERR(e->qp)) {
		int ret = PTR_ERR(e->qp);

		e->qp = NULL;
		return kperf_run_fail(run, ret, "ib_create_qp on %s failed",
				      dev_name(&s->ibdev->dev));
	}
	e->psn = get_random_u32() & 0xffffff;
	return 0;
}

/**
 * kperf_conn_av() - the address vector from side @s to side @peer
 * @ah: filled in
 * @s: the sending side (port, source GID)
 * @peer: the other side (its GID, LID and MAC)
 */
void kperf_conn_av(struct rdma_ah_attr *ah, struct kperf_side *s,
		   struct kperf_side *peer)
{
	union ib_gid dgid = peer->sgid_attr->gid;

	memset(ah, 0, sizeof(*ah));
	ah->type = rdma_ah_find_type(s->ibdev, s->port);
	rdma_ah_set_port_num(ah, s->port);
	rdma_ah_set_sl(ah, 0);
	if (ah->type == RDMA_AH_ATTR_TYPE_IB) {
		rdma_ah_set_dlid(ah, peer->lid);
		return;
	}
	rdma_ah_set_grh(ah, &dgid, 0, s->sgid_attr->index, KPERF_HOP_LIMIT, 0);
	ah->grh.sgid_attr = s->sgid_attr;
	/* Kernel users resolve the MAC: the peer's, learnt in the kernel. */
	if (ah->type == RDMA_AH_ATTR_TYPE_ROCE)
		ether_addr_copy(ah->roce.dmac, peer->mac);
}

static int kperf_conn_modify(struct kperf_run *run, struct kperf_end *e,
			     struct ib_qp_attr *attr, int mask, const char *to)
{
	int ret = ib_modify_qp(e->qp, attr, mask);

	if (ret)
		return kperf_run_fail(run, ret, "modify QP %#x to %s failed",
				      e->qp->qp_num, to);
	return 0;
}

/**
 * kperf_conn_init() - move an end's QP to INIT with kperf's access rights
 * @run: the command
 * @s: the end's side
 * @e: the end
 *
 * Return: 0 or the error of ib_modify_qp() (the reason is in @run).
 */
int kperf_conn_init(struct kperf_run *run, struct kperf_side *s,
		    struct kperf_end *e)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT, .pkey_index = 0, .port_num = s->port,
	};
	int mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;

	if (run->p.qp_type == IB_QPT_UD) {
		attr.qkey = KPERF_UD_QKEY;
		mask |= IB_QP_QKEY;
	} else {
		attr.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				       IB_ACCESS_REMOTE_WRITE;
		if (run->p.qp_type == IB_QPT_RC)
			attr.qp_access_flags |= IB_ACCESS_REMOTE_READ |
						IB_ACCESS_REMOTE_ATOMIC;
		mask |= IB_QP_ACCESS_FLAGS;
	}
	return kperf_conn_modify(run, e, &attr, mask, "INIT");
}

static int kperf_conn_rtr(struct kperf_run *run, struct kperf_side *s,
			  struct kperf_end *e, struct kperf_side *ps,
			  struct kperf_end *pe)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };
	int mask = IB_QP_STATE;

	if (run->p.qp_type != IB_QPT_UD) {
		attr.path_mtu = run->p.mtu;
		attr.dest_qp_num = pe->qp->qp_num;
		attr.rq_psn = pe->psn;
		kperf_conn_av(&attr.ah_attr, s, ps);
		mask |= IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
			IB_QP_RQ_PSN;
	}
	if (run->p.qp_type == IB_QPT_RC) {
		attr.max_dest_rd_atomic = min(s->ibdev->attrs.max_qp_rd_atom,
					      KPERF_MAX_RD_ATOMIC);
		attr.min_rnr_timer = KPERF_MIN_RNR_TIMER;
		mask |= IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
	}
	return kperf_conn_modify(run, e, &attr, mask, "RTR");
}

static int kperf_conn_rts(struct kperf_run *run, struct kperf_side *s,
			  struct kperf_end *e, struct kperf_side *ps)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTS, .sq_psn = e->psn };
	int mask = IB_QP_STATE | IB_QP_SQ_PSN;

	if (run->p.qp_type == IB_QPT_RC) {
		attr.timeout = run->p.ack_timeout;
		attr.retry_cnt = KPERF_RETRY_CNT;
		/* fault=no_recv: no RNR retries, the first RNR NAK fails */
		attr.rnr_retry = run->p.fault == KPERF_FAULT_NO_RECV ?
				 0 : KPERF_RNR_INFINITE;
		attr.max_rd_atomic = min3(s->ibdev->attrs.max_qp_init_rd_atom,
					  ps->ibdev->attrs.max_qp_rd_atom,
					  KPERF_MAX_RD_ATOMIC);
		mask |= IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			IB_QP_MAX_QP_RD_ATOMIC;
	}
	return kperf_conn_modify(run, e, &attr, mask, "RTS");
}

/**
 * kperf_conn_ah() - UD: the address handle of the other end
 * @run: the command
 * @s: the end's side
 * @e: the end; gets the AH
 * @ps: the other end's side
 *
 * Return: 0 or rdma_create_ah()'s error (the reason is in @run).
 */
int kperf_conn_ah(struct kperf_run *run, struct kperf_side *s,
		  struct kperf_end *e, struct kperf_side *ps)
{
	struct rdma_ah_attr ah;

	kperf_conn_av(&ah, s, ps);
	e->ah = rdma_create_ah(s->pd, &ah, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(e->ah)) {
		int ret = PTR_ERR(e->ah);

		e->ah = NULL;
		return kperf_run_fail(run, ret, "rdma_create_ah on %s failed",
				      dev_name(&s->ibdev->dev));
	}
	return 0;
}

/* Brings end @d of a connection to RTS, pointing at the other end. */
static int kperf_conn_connect(struct kperf_run *run, struct kperf_conn *c,
			      int d)
{
	struct kperf_side *s = &run->side[d], *ps = &run->side[!d];
	struct kperf_end *e = &c->end[d], *pe = &c->end[!d];
	int ret;

	ret = kperf_conn_init(run, s, e);
	if (!ret)
		ret = kperf_conn_rtr(run, s, e, ps, pe);
	if (!ret)
		ret = kperf_conn_rts(run, s, e, ps);
	if (!ret && run->p.qp_type == IB_QPT_UD)
		ret = kperf_conn_ah(run, s, e, ps);
	return ret;
}

static int kperf_conn_create(struct kperf_run *run, struct kperf_conn *c)
{
	const struct kperf_cm_ops *cm = run->cm_ops;
	size_t len = run->p.size;
	int d, ret;

	if (run->p.qp_type == IB_QPT_UD)
		len += KPERF_UD_GRH;
	for (d = 0; d < 2; d++) {
		if (!cm || !cm->makes_qps) {
			ret = kperf_conn_qp_create(run, &run->side[d],
						   &c->end[d]);
			if (ret)
				return ret;
		}
		ret = kperf_buf_alloc(run, &run->side[d], &c->end[d].buf, len);
		if (ret)
			return ret;
	}
	if (cm)			/* cm=: the CM moves the QPs on */
		return cm->connect(run, c - run->conns);
	for (d = 0; d < 2; d++) {
		ret = kperf_conn_connect(run, c, d);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * kperf_conn_create_all() - make and connect the command's qps= connections
 * @run: the command; both sides are open
 *
 * On failure what was made stays in run->conns for kperf_conn_destroy_all().
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_conn_create_all(struct kperf_run *run)
{
	unsigned int i;
	int ret;

	run->conns = kcalloc(run->p.qps, sizeof(*run->conns), GFP_KERNEL);
	if (!run->conns)
		return kperf_run_fail(run, -ENOMEM, "no memory for %u connections",
				      run->p.qps);
	run->cm_ops = kperf_conn_cms[run->p.cm];
	if (run->cm_ops) {
		ret = run->cm_ops->listen(run);
		if (ret)
			return ret;
	}
	for (i = 0; i < run->p.qps; i++) {
		ret = kperf_conn_create(run, &run->conns[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * kperf_conn_disconnect_all() - end the connections a CM made (cm=)
 * @run: the command, connected
 *
 * Context: process context, sleeps.
 * Return: 0 (also for cm=none), or the first failure: both ends of every
 * connection must see it end (the reason is in @run).
 */
int kperf_conn_disconnect_all(struct kperf_run *run)
{
	return run->cm_ops ? run->cm_ops->disconnect(run) : 0;
}

/**
 * kperf_conn_destroy_all() - destroy every QP, AH, MR and buffer
 * @run: the command; anything it made may be missing
 *
 * A CM's connections still up are ended first, its ids destroyed.
 *
 * Context: process context, sleeps.
 */
void kperf_conn_destroy_all(struct kperf_run *run)
{
	struct kperf_end *e;
	unsigned int i;
	int d;

	if (!run->conns)
		return;
	if (run->cm_ops)
		run->cm_ops->stop(run);
	for (i = 0; i < run->p.qps; i++) {
		for (d = 0; d < 2; d++) {
			e = &run->conns[i].end[d];
			if (e->qp)
				ib_destroy_qp(e->qp);
			if (e->ah)
				rdma_destroy_ah(e->ah, RDMA_DESTROY_AH_SLEEPABLE);
			kperf_buf_free(&run->side[d], &e->buf);
		}
	}
	kfree(run->conns);
	run->conns = NULL;
}

/**
 * kperf_conn_to_err() - move an end's QP to the error state
 * @run: the command
 * @e: the end
 *
 * Return: 0 or the error of ib_modify_qp().
 */
int kperf_conn_to_err(struct kperf_run *run, struct kperf_end *e)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	return kperf_conn_modify(run, e, &attr, IB_QP_STATE, "ERR");
}
