// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_kperf mcast=1 cm=rdma: the group joined through rdma_join_multicast(), as
 * a ULP or rdma_ucm's users join one.
 */
/*
 * Each side makes a UD id of the UDP port space in its GID's net
 * device's namespace, binds it to its GID's IPv4 address and joins
 * KPERF_MCAST_IP4: the target side as a full member (rdma_cm has its net
 * device join the IP group, so RoCE v2 packets to the group reach it),
 * the initiator side as a send-only member. MULTICAST_JOIN brings each
 * an address vector to the group and the group's Q_Key. The target QPs
 * are attached to the group's GID and take its Q_Key; the initiators
 * send by the address vector the join gave them, to QP 0xffffff with
 * that Q_Key. Detaching leaves both groups and destroys the ids.
 *
 * The join ids have no QP: rdma_cm refuses joins on ids whose QP it made
 * (6.1 does), so the connections' QPs are attached by kperf itself.
 */

#include <linux/in.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm.h>
#include "kperf.h"

/**
 * struct kperf_rdma_mcast_end - one side's membership
 * @id: its UD id
 * @done: completed by the join's event
 * @event: that event (MULTICAST_JOIN or MULTICAST_ERROR), -1 before
 * @status: its status
 * @ah: MULTICAST_JOIN's address vector to the group (holds a GID entry)
 * @qkey: the group's Q_Key
 */
struct kperf_rdma_mcast_end {
	struct rdma_cm_id *id;
	struct completion done;
	int event;
	int status;
	struct rdma_ah_attr ah;
	u32 qkey;
};

/**
 * struct kperf_rdma_mcast - a command's two memberships
 * @group: the group's address
 * @end: [0] the initiator side's, [1] the target side's
 * @gid: the group's GID, as the target's join gave it
 */
struct kperf_rdma_mcast {
	struct sockaddr_in group;
	struct kperf_rdma_mcast_end end[2];
	union ib_gid gid;
};

/* A join's event; the address vector is copied before rdma_cm drops it. */
static int kperf_rdma_mcast_handler(struct rdma_cm_id *id,
				    struct rdma_cm_event *ev)
{
	struct kperf_rdma_mcast_end *me = id->context;

	if (ev->event != RDMA_CM_EVENT_MULTICAST_JOIN &&
	    ev->event != RDMA_CM_EVENT_MULTICAST_ERROR)
		return 0;
	if (ev->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
		rdma_copy_ah_attr(&me->ah, &ev->param.ud.ah_attr);
		me->qkey = ev->param.ud.qkey;
	}
	me->status = ev->status;
	/* pairs with the smp_load_acquire() in kperf_rdma_mcast_one() */
	smp_store_release(&me->event, ev->event);
	complete(&me->done);
	return 0;
}

/* Side @d's id, bound to its GID's IPv4 address, joined to the group. */
static int kperf_rdma_mcast_one(struct kperf_run *run,
				struct kperf_rdma_mcast *rm, int d)
{
	struct kperf_rdma_mcast_end *me = &rm->end[d];
	struct kperf_side *s = &run->side[d];
	struct net *net = kperf_side_net(s);
	struct sockaddr_storage ss = {};
	int ret;

	if (!net)
		return kperf_run_fail(run, -ENETDOWN, "%s: no net device for its GID",
				      dev_name(&s->ibdev->dev));
	me->id = rdma_create_id(net, kperf_rdma_mcast_handler, me, RDMA_PS_UDP,
				IB_QPT_UD);
	put_net(net);
	if (IS_ERR(me->id)) {
		ret = PTR_ERR(me->id);
		me->id = NULL;
		return kperf_run_fail(run, ret, "rdma_create_id for the group failed");
	}
	rdma_gid2ip((struct sockaddr *)&ss, &s->sgid_attr->gid);
	ret = rdma_bind_addr(me->id, (struct sockaddr *)&ss);
	if (ret)
		return kperf_run_fail(run, ret, "rdma_bind_addr %pISc for the group failed",
				      &ss);
	ret = rdma_join_multicast(me->id, (struct sockaddr *)&rm->group,
				  d ? BIT(FULLMEMBER_JOIN) :
				  BIT(SENDONLY_FULLMEMBER_JOIN), me);
	if (ret)
		return kperf_run_fail(run, ret, "rdma_join_multicast %pI4 from %pISc failed",
				      &rm->group.sin_addr, &ss);
	if (!wait_for_completion_timeout(&me->done,
					 msecs_to_jiffies(KPERF_CM_WAIT_MS)))
		return kperf_run_fail(run, -ETIMEDOUT, "no event for the join of %pI4",
				      &rm->group.sin_addr);
	/* pairs with the smp_store_release() in kperf_rdma_mcast_handler() */
	if (smp_load_acquire(&me->event) != RDMA_CM_EVENT_MULTICAST_JOIN)
		return kperf_run_fail(run, me->status ?: -EIO,
				      "joining %pI4: multicast error (status %d)",
				      &rm->group.sin_addr, me->status);
	return 0;
}

/* The target QPs in the group with its Q_Key; the initiators at the group. */
static int kperf_rdma_mcast_use(struct kperf_run *run,
				struct kperf_rdma_mcast *rm)
{
	struct ib_qp_attr attr = { .qkey = rm->end[1].qkey };
	struct kperf_end *e;
	unsigned int i;
	int ret;

	rm->gid = rm->end[1].ah.grh.dgid;
	for (i = 0; i < run->p.qps; i++) {
		e = &run->conns[i].end[1];
		ret = ib_modify_qp(e->qp, &attr, IB_QP_QKEY);
		if (ret)
			return kperf_run_fail(run, ret, "QP %#x cannot take the group's Q_Key",
					      e->qp->qp_num);
		ret = ib_attach_mcast(e->qp, &rm->gid, 0);
		if (ret)
			return kperf_run_fail(run, ret, "ib_attach_mcast of QP %#x to %pI6c failed",
					      e->qp->qp_num, rm->gid.raw);
		run->mcast_attached++;
		e = &run->conns[i].end[0];
		if (e->ah)
			rdma_destroy_ah(e->ah, RDMA_DESTROY_AH_SLEEPABLE);
		e->ah = rdma_create_ah(run->side[0].pd, &rm->end[0].ah,
				       RDMA_CREATE_AH_SLEEPABLE);
		if (IS_ERR(e->ah)) {
			ret = PTR_ERR(e->ah);
			e->ah = NULL;
			return kperf_run_fail(run, ret, "rdma_create_ah for the group failed");
		}
		e->qkey = rm->end[0].qkey;
	}
	return 0;
}

/**
 * kperf_rdma_mcast_attach() - mcast=1 cm=rdma: join, attach, aim
 * @run: the command, connected, before its mode runs
 *
 * Adds an "info mcast_gid=" line as kperf_mcast_attach() does, with the
 * group's Q_Key.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno, with the reason recorded; what was made
 * is undone by kperf_rdma_mcast_detach().
 */
int kperf_rdma_mcast_attach(struct kperf_run *run)
{
	struct kperf_rdma_mcast *rm;
	int d, ret;

	rm = kzalloc(sizeof(*rm), GFP_KERNEL);
	if (!rm)
		return kperf_run_fail(run, -ENOMEM, "no memory for the group");
	run->rdma_mcast = rm;
	rm->group.sin_family = AF_INET;
	rm->group.sin_addr.s_addr = htonl(KPERF_MCAST_IP4);
	for (d = 0; d < 2; d++) {
		init_completion(&rm->end[d].done);
		rm->end[d].event = -1;
	}
	for (d = 1; d >= 0; d--) {
		ret = kperf_rdma_mcast_one(run, rm, d);
		if (ret)
			return ret;
	}
	ret = kperf_rdma_mcast_use(run, rm);
	if (ret)
		return ret;
	seq_buf_printf(run->out, "info mcast_gid=%pI6c members=%u qkey=%#x\n",
		       rm->gid.raw, run->p.qps, rm->end[1].qkey);
	return 0;
}

/**
 * kperf_rdma_mcast_detach() - undo kperf_rdma_mcast_attach()
 * @run: the command; its QPs still exist
 *
 * Context: process context, sleeps.
 */
void kperf_rdma_mcast_detach(struct kperf_run *run)
{
	struct kperf_rdma_mcast *rm = run->rdma_mcast;
	struct kperf_rdma_mcast_end *me;
	struct ib_qp *qp;
	int d;

	if (!rm)
		return;
	while (run->mcast_attached) {
		qp = run->conns[--run->mcast_attached].end[1].qp;
		if (ib_detach_mcast(qp, &rm->gid, 0))
			pr_info("ib_detach_mcast of QP %#x failed\n", qp->qp_num);
	}
	for (d = 0; d < 2; d++) {
		me = &rm->end[d];
		if (me->id) {
			rdma_leave_multicast(me->id, (struct sockaddr *)&rm->group);
			rdma_destroy_id(me->id);
		}
		if (me->event == RDMA_CM_EVENT_MULTICAST_JOIN)
			rdma_destroy_ah_attr(&me->ah);
	}
	kfree(rm);
	run->rdma_mcast = NULL;
}
