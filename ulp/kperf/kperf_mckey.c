// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_kperf mode=mckey: either end of mckey's protocol (rdmacm-utils): RoCE
 * multicast through rdma_cm.
 */
/*
 * mckey (librdmacm's examples) makes a UD id in port space UDP, binds it
 * to its address (-b), resolves the group's (-m) and joins the group. On
 * MULTICAST_JOIN (the group's GID, Q_Key and address vector) its QP is in
 * the group. Its receiver ("server") posts a receive per message before
 * joining and ends once that many completed; its sender ("client", -s)
 * waits 3 seconds after the join and sends count messages of size bytes,
 * SEND with immediate (its QPN), to QPN 0xffffff with the group's Q_Key.
 * The messages are uninitialized memory; nothing answers them.
 *
 * Here role=server receives: it binds bind=, resolves and joins addr= as
 * a full member (rdma_cm has its net device join the IP group), attaches
 * its QP to the group's GID (a kernel ULP does that itself: rdma_cm
 * refuses joins on ids with a QP it made) and lists itself in the debugfs
 * file "listening" ("mckey <group>:0"). Every message must have size
 * bytes, an immediate that is its sender's QPN, one sender, and come to
 * the group (the destination in the IPv4 header RoCE v2 leaves in the
 * GRH room). role=client sends: a send-only join (its net device stays
 * out of the group), then the messages, kperf's data pattern of round n
 * in message n, sent as soon as the join completed.
 *
 * The QP is kperf's own: rdma_init_qp_attr() gives its INIT attributes
 * (port, P_Key, the id's Q_Key), RTR and RTS need nothing on UD.
 */

#include <linux/in.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm.h>
#include "kperf.h"

/* Where RoCE v2 leaves the IPv4 destination in a receive's GRH room. */
#define KPERF_MCKEY_IP4_DST	(20 + 16)
#define KPERF_MCKEY_MAX_COUNT	1024
#define KPERF_MCKEY_MAX_SIZE	4096

/**
 * struct kperf_mckey - the one membership of a mode=mckey command
 * @run: the command
 * @listed: the receiver's entry in "listening", once its QP is attached
 * @group: the group's address (addr=)
 * @bind: our address (bind=)
 * @end: the id's end: ADDR, then UP at MULTICAST_JOIN (@end.ud holds the
 *	 join's answer), FAILED at MULTICAST_ERROR or a failed resolution
 * @event: the last event the command handled, -1 before the first
 * @status: its status
 * @joined: the join completed: leave before destroying the id
 * @msg: the messages, by kperf's UD QP
 * @qkey: that QP's Q_Key
 * @gid: the group's GID, @qp attached to it when @attached
 * @attached: @qp is in the group
 * @ah: the sender's address handle to the group
 * @peer_qpn: the receiver: the QPN the messages come from (0 before)
 */
struct kperf_mckey {
	struct kperf_run *run;
	struct kperf_listener listed;
	struct sockaddr_storage group;
	struct sockaddr_storage bind;
	struct kperf_cm_end end;
	int event;
	int status;
	bool joined;
	struct kperf_ud_msg msg;
	u32 qkey;
	union ib_gid gid;
	bool attached;
	struct ib_ah *ah;
	u32 peer_qpn;
};

static bool kperf_mckey_receiver(const struct kperf_run *run)
{
	return run->p.role == KPERF_RPING_SERVER;
}

/* The id's handler: records the join's answer, never destroys. */
static int kperf_mckey_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct kperf_cm_end *ce = id->context;
	struct kperf_mckey *k = container_of(ce, struct kperf_mckey, end);

	WRITE_ONCE(k->status, ev->status);
	WRITE_ONCE(k->event, ev->event);
	if (ev->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
		if (!ce->ud_set) {
			ce->ud = ev->param.ud;
			rdma_copy_ah_attr(&ce->ud.ah_attr, &ev->param.ud.ah_attr);
			ce->ud.private_data = NULL;
			ce->ud_set = true;
		}
		kperf_cm_end_set(ce, KPERF_CM_UP);
		return 0;
	}
	if (ev->event == RDMA_CM_EVENT_MULTICAST_ERROR) {
		kperf_cm_end_fail(ce, ev->status < 0 ? ev->status : -ENETUNREACH,
				  "MULTICAST_ERROR", NULL, ev->status);
		return 0;
	}
	kperf_rdma_cm_event(ce, id, ev);
	return 0;
}

static int kperf_mckey_fail(struct kperf_run *run, struct kperf_mckey *k,
			    int err, const char *step)
{
	char who[KPERF_WHO_LEN];

	snprintf(who, sizeof(who), "mckey group %pISc", &k->group);
	return kperf_cm_end_why(run, &k->end, err, who, step);
}

/* kperf's UD QP on the id's port: INIT as rdma_cm says, then RTR, RTS. */
static int kperf_mckey_qp(struct kperf_run *run, struct kperf_mckey *k,
			  struct rdma_cm_id *id)
{
	struct kperf_side *s = &run->side[0];
	struct ib_qp_init_attr init = {
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_UD,
		.cap = {
			.max_send_wr = run->p.iters,
			.max_recv_wr = run->p.iters,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_qp *qp;
	int mask, ret;

	qp = ib_create_qp(s->pd, &init);
	if (IS_ERR(qp))
		return kperf_run_fail(run, PTR_ERR(qp), "ib_create_qp (UD) failed");
	k->msg.qp = qp;
	ret = rdma_init_qp_attr(id, &attr, &mask);
	if (ret)
		return kperf_run_fail(run, ret, "rdma_init_qp_attr (INIT) failed");
	k->qkey = attr.qkey;
	ret = ib_modify_qp(qp, &attr, mask);
	if (!ret) {
		attr.qp_state = IB_QPS_RTR;
		ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	}
	if (!ret) {
		attr.qp_state = IB_QPS_RTS;
		attr.sq_psn = 0;
		ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
	}
	return ret ? kperf_run_fail(run, ret, "UD QP %#x to RTS failed",
				    qp->qp_num) : 0;
}

/* The id, resolved from bind= to the group, its side and its buffer. */
static int kperf_mckey_open(struct kperf_run *run, struct kperf_mckey *k)
{
	struct kperf_side *s = &run->side[0];
	u32 ms = run->p.timeout_ms;
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(current->nsproxy->net_ns, kperf_mckey_handler,
			    &k->end, RDMA_PS_UDP, IB_QPT_UD);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id failed");
	k->end.rdma = id;
	ret = rdma_resolve_addr(id, (struct sockaddr *)&k->bind,
				(struct sockaddr *)&k->group, ms);
	if (!ret)
		ret = kperf_rdma_cm_wait(&k->end, KPERF_CM_IDLE, KPERF_CM_ADDR,
					 ms);
	if (ret)
		return kperf_mckey_fail(run, k, ret, "resolving the group from bind=");
	ret = kperf_side_open_dev(run, s, id->device, id->port_num);
	if (!ret)
		ret = kperf_ud_msg_alloc(run, s, &k->msg, "mckey");
	return ret ?: kperf_mckey_qp(run, k, id);
}

/* Join as a full member (receiver) or send-only, and wait for the answer. */
static int kperf_mckey_join(struct kperf_run *run, struct kperf_mckey *k)
{
	u8 state = kperf_mckey_receiver(run) ? BIT(FULLMEMBER_JOIN) :
		   BIT(SENDONLY_FULLMEMBER_JOIN);
	int ret;

	ret = rdma_join_multicast(k->end.rdma, (struct sockaddr *)&k->group,
				  state, k);
	if (ret)
		return kperf_mckey_fail(run, k, ret, "rdma_join_multicast");
	k->joined = true;
	ret = kperf_rdma_cm_wait(&k->end, KPERF_CM_ADDR, KPERF_CM_UP,
				 run->p.timeout_ms);
	if (ret || kperf_cm_end_state(&k->end) != KPERF_CM_UP)
		return kperf_mckey_fail(run, k, ret ?: -EIO, "joining");
	k->gid = k->end.ud.ah_attr.grh.dgid;
	return 0;
}

static void kperf_mckey_info(struct kperf_run *run, struct kperf_mckey *k)
{
	struct rdma_ud_param *ud = &k->end.ud;

	seq_buf_printf(run->out,
		       "info mode=mckey role=%s dev=%s port=%u bind=%pISc group=%pISc mgid=%pI6c qpn=%#x qkey=%#x group_qpn=%#x group_qkey=%#x\n",
		       kperf_mckey_receiver(run) ? "server" : "client",
		       dev_name(&run->side[0].ibdev->dev), run->side[0].port,
		       &k->bind, &k->group, k->gid.raw, k->msg.qp->qp_num,
		       k->qkey, ud->qp_num, ud->qkey);
}

/* Receiver: its QP in the group, with the group's Q_Key. */
static int kperf_mckey_attach(struct kperf_run *run, struct kperf_mckey *k)
{
	struct ib_qp_attr attr = { .qkey = k->end.ud.qkey };
	struct ib_qp *qp = k->msg.qp;
	int ret;

	if (k->qkey != attr.qkey) {
		ret = ib_modify_qp(qp, &attr, IB_QP_QKEY);
		if (ret)
			return kperf_run_fail(run, ret, "QP %#x cannot take the group's Q_Key %#x",
					      qp->qp_num, attr.qkey);
		k->qkey = attr.qkey;
	}
	ret = ib_attach_mcast(qp, &k->gid, 0);
	if (ret)
		return kperf_run_fail(run, ret, "ib_attach_mcast of QP %#x to %pI6c failed",
				      qp->qp_num, k->gid.raw);
	k->attached = true;
	return 0;
}

/* Receiver: slot @n's message: mckey's, to the group (@ctx: the command's). */
static int kperf_mckey_recv(void *ctx, const struct ib_wc *wc, u32 n)
{
	struct kperf_mckey *k = ctx;
	const u8 *m = kperf_ud_msg_in(&k->msg, n);
	const struct sockaddr_in *g = (const struct sockaddr_in *)&k->group;
	int ret;

	ret = kperf_ud_msg_check(k->run, &k->msg, wc, &k->peer_qpn);
	if (ret)
		return ret;
	if (memcmp(m + KPERF_MCKEY_IP4_DST, &g->sin_addr, 4))
		return kperf_run_fail(k->run, -EBADMSG,
				      "message %u was sent to %pI4, not to the group",
				      k->msg.received, m + KPERF_MCKEY_IP4_DST);
	return 0;
}

/* Sender: the messages to the group, by the join's address vector. */
static int kperf_mckey_send(struct kperf_run *run, struct kperf_mckey *k)
{
	u64 addr;
	u32 n;
	int ret;

	k->ah = rdma_create_ah(run->side[0].pd, &k->end.ud.ah_attr,
			       RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(k->ah)) {
		ret = PTR_ERR(k->ah);
		k->ah = NULL;
		return kperf_run_fail(run, ret, "rdma_create_ah to the group failed");
	}
	for (n = 0; n < run->p.iters; n++)
		kperf_data_fill(kperf_ud_msg_out(&k->msg, n, &addr),
				run->p.size, n, KPERF_SALT_DATA);
	ret = kperf_ud_msg_send(run, &k->msg, k->ah, k->end.ud.qp_num,
				k->end.ud.qkey);
	return ret ?: kperf_ud_msg_wait(run, &run->side[0], &k->msg, 0,
					run->p.iters);
}

static int kperf_mckey_go(struct kperf_run *run, struct kperf_mckey *k)
{
	int ret;

	ret = kperf_mckey_open(run, k);
	if (!ret && kperf_mckey_receiver(run))
		ret = kperf_ud_msg_post_recvs(run, &k->msg);
	if (!ret)
		ret = kperf_mckey_join(run, k);
	if (ret)
		return ret;
	if (!kperf_mckey_receiver(run)) {
		kperf_mckey_info(run, k);
		return kperf_mckey_send(run, k);
	}
	ret = kperf_mckey_attach(run, k);
	if (ret)
		return ret;
	kperf_mckey_info(run, k);
	kperf_listener_add(&k->listed);
	return kperf_ud_msg_wait(run, &run->side[0], &k->msg, run->p.iters, 0);
}

/* Everything the command made, in reverse. */
static void kperf_mckey_teardown(struct kperf_run *run, struct kperf_mckey *k)
{
	struct kperf_side *s = &run->side[0];

	kperf_listener_del(&k->listed);
	if (k->ah)
		rdma_destroy_ah(k->ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (k->attached && ib_detach_mcast(k->msg.qp, &k->gid, 0))
		pr_info("ib_detach_mcast of QP %#x failed\n", k->msg.qp->qp_num);
	if (k->joined)
		rdma_leave_multicast(k->end.rdma, (struct sockaddr *)&k->group);
	if (k->msg.qp)
		ib_destroy_qp(k->msg.qp);
	if (k->end.rdma)
		rdma_destroy_id(k->end.rdma);
	if (k->end.ud_set)
		rdma_destroy_ah_attr(&k->end.ud.ah_attr);
	if (s->ibdev)
		kperf_buf_free(s, &k->msg.buf);
	kperf_side_close(s);
}

static void kperf_mckey_result(struct kperf_run *run, struct kperf_mckey *k,
			       int err)
{
	const struct kperf_params *p = &run->p;

	seq_buf_printf(run->out,
		       "result mode=mckey role=%s addr=%pISc bind=%pISc size=%u iters=%u received=%u sent=%u peer_qpn=%#x",
		       kperf_mckey_receiver(run) ? "server" : "client",
		       &p->addr, &p->bind, p->size, p->iters, k->msg.received,
		       k->msg.sent, k->peer_qpn);
	kperf_out_fixed(run->out, "usec", run->res.ns, 1, 1000);
	seq_buf_printf(run->out, " cm_event=%s cm_status=%d",
		       kperf_rping_event_name(READ_ONCE(k->event)),
		       READ_ONCE(k->status));
	kperf_out_status(run, err);
}

/**
 * kperf_mckey_run() - run one mode=mckey command
 * @p: the command
 * @out: where its info and result lines go
 *
 * Everything the command made is destroyed and the group left before
 * this returns.
 *
 * Context: process context (the writer's), sleeps.
 * Return: 0 when the command passed, else the negative errno of its
 * result line.
 */
int kperf_mckey_run(const struct kperf_params *p, struct seq_buf *out)
{
	struct kperf_run *run;
	struct kperf_mckey *k;
	int ret;

	run = kperf_run_alloc(p, out);
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!run || !k) {
		kfree(run);
		kfree(k);
		return -ENOMEM;
	}
	k->run = run;
	k->group = p->addr;
	k->bind = p->bind;
	INIT_LIST_HEAD(&k->listed.node);
	k->listed.mode = "mckey";
	k->listed.addr = k->group;
	k->end.run = run;
	init_completion(&k->end.done);
	k->event = -1;
	k->msg.recv = kperf_mckey_recv;
	k->msg.ctx = k;
	kperf_run_clock_start(run);
	kperf_run_progress(run);
	ret = kperf_run_gone(run, kperf_mckey_go(run, k));
	kperf_run_clock_stop(run);
	kperf_mckey_teardown(run, k);
	kperf_mckey_result(run, k, ret);
	kfree(k);
	kfree(run);
	return ret;
}

/**
 * kperf_mckey_check() - the rules of mode=mckey's keys
 * @p: a parsed command of mode=mckey
 *
 * Return: what is wrong with @p, or NULL.
 */
const char *kperf_mckey_check(const struct kperf_params *p)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)&p->addr;

	if (p->not_rping)
		return "mode=mckey takes only role, addr, bind, iters, size and timeout_ms";
	if (p->timewait)
		return "mode=mckey has no connection to wait out (timewait=)";
	if (p->role == KPERF_RPING_NONE)
		return "mode=mckey needs role=client (sender) or role=server (receiver)";
	if (p->addr.ss_family != AF_INET ||
	    !ipv4_is_multicast(sin->sin_addr.s_addr) || sin->sin_port)
		return "mode=mckey needs addr=<ipv4 multicast group>, no port";
	if (p->bind.ss_family != AF_INET ||
	    ((const struct sockaddr_in *)&p->bind)->sin_port)
		return "mode=mckey needs bind=<our ipv4 address>, no port";
	if (!p->size || p->size > KPERF_MCKEY_MAX_SIZE)
		return "mode=mckey takes size=1 to size=4096 (one UD message each)";
	if (!p->iters || p->iters > KPERF_MCKEY_MAX_COUNT)
		return "mode=mckey takes iters=1 to iters=1024 (messages)";
	return NULL;
}
