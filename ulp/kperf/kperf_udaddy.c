// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf mode=udaddy: either end of udaddy's protocol (rdmacm-utils): UD over rdma_cm, SIDR. */
/*
 * udaddy (librdmacm's examples) makes a UD id in port space UDP, port
 * 7174 by default. Its client resolves the server's address and route,
 * makes its QP, posts one receive per message and "connects": a SIDR REQ,
 * whose answer (ESTABLISHED) carries the server QP's number, its Q_Key
 * and an address vector. The server listens, takes the request on a new
 * id, makes its QP, posts its receives and accepts (a SIDR REP naming its
 * QP and rdma_cm's Q_Key). Then:
 *
 *   client                                   server
 *   count x SEND with immediate = its QPN ->
 *                                         <- count x SEND with immediate
 *                                            = its QPN
 *
 * Every message has size bytes (100 by default; count 10). The server
 * answers by an address vector made from the first message's completion
 * and GRH, to the QP number in its immediate, with its own Q_Key. udaddy
 * sends what its single buffer holds: its client uninitialized memory,
 * its server the 40-byte GRH area and the first size - 40 bytes of the
 * last message it received (all receives land in that one buffer).
 *
 * So what can be checked: every message's length, that its immediate is
 * its sender's QPN, that the sender is the peer the SIDR exchange was
 * with; and, as a client, that the server's answers hold our last
 * message's head and, for RoCE v2 over IPv4, the IPv4 header it came in
 * (our address to the server's). Ours fills message n with kperf's data
 * pattern of round n; as a server it answers exactly as udaddy's does.
 *
 * Ids live in the writer's network namespace, as udaddy's would. The
 * handlers only record (kperf_rdma_cm_event()); the command waits in its
 * own context and destroys every id itself. There is nothing to
 * disconnect on UD.
 */

#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/rdma_cm.h>
#include "kperf.h"

/* Where RoCE v2 puts the IPv4 header in a receive's GRH room, its addresses. */
#define KPERF_UDADDY_IP4	20
#define KPERF_UDADDY_IP4_SRC	(KPERF_UDADDY_IP4 + 12)
#define KPERF_UDADDY_IP4_DST	(KPERF_UDADDY_IP4 + 16)
#define KPERF_UDADDY_MAX_COUNT	1024
#define KPERF_UDADDY_MAX_SIZE	4096

/**
 * struct kperf_udaddy - the one exchange of a mode=udaddy command
 * @run: the command
 * @listed: the server's entry in the debugfs file "listening"
 * @addr: client: the server's address; server: where it listens
 * @listen: server: the listening id
 * @listen_end: the listener's end: UP once it took its request, FAILED
 *		when that could not be accepted
 * @conn: the exchange's end; its id is the client's, or the one the
 *	  server's request came with
 * @lock: serializes the server's request with the command's end;
 *	  protects @stopping and, on the server, @conn.rdma
 * @stopping: the command is ending: requests are refused
 * @event: the last event the command handled, -1 before the first
 * @status: its status
 * @msg: the messages both ways, by the UD QP rdma_cm made on @conn's id
 * @qkey: that QP's Q_Key
 * @ah: the address handle the messages go by
 * @peer_qpn: the peer's QPN (0 until known)
 * @peer_qkey: the Q_Key its QP takes
 * @last: the receive slot of the server's last message
 * @verified: bytes found as expected
 */
struct kperf_udaddy {
	struct kperf_run *run;
	struct kperf_listener listed;
	struct sockaddr_storage addr;
	struct rdma_cm_id *listen;
	struct kperf_cm_end listen_end;
	struct kperf_cm_end conn;
	struct mutex lock;	/* @stopping, the server's @conn.rdma */
	bool stopping;
	int event;
	int status;
	struct kperf_ud_msg msg;
	u32 qkey;
	struct ib_ah *ah;
	u32 peer_qpn;
	u32 peer_qkey;
	u32 last;
	u64 verified;
};

static bool kperf_udaddy_server(const struct kperf_run *run)
{
	return run->p.role == KPERF_RPING_SERVER;
}

/* The last event the command handled, for the result line. */
static void kperf_udaddy_note(struct kperf_udaddy *u,
			      const struct rdma_cm_event *ev)
{
	WRITE_ONCE(u->status, ev->status);
	WRITE_ONCE(u->event, ev->event);
}

/* The QP udaddy makes: UD, a send and a receive per message, one CQ. */
static int kperf_udaddy_qp(struct kperf_run *run, struct kperf_udaddy *u,
			   struct rdma_cm_id *id)
{
	struct ib_qp_init_attr attr = {
		.send_cq = run->side[0].cq,
		.recv_cq = run->side[0].cq,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_UD,
		.cap = {
			.max_send_wr = run->p.iters,
			.max_recv_wr = run->p.iters,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	struct ib_qp_init_attr init;
	struct ib_qp_attr qattr;
	int ret;

	ret = rdma_create_qp(id, run->side[0].pd, &attr);
	if (ret)
		return ret;
	u->msg.qp = id->qp;
	ret = ib_query_qp(id->qp, &qattr, IB_QP_QKEY, &init);
	if (!ret)
		u->qkey = qattr.qkey;
	return ret;
}

static void kperf_udaddy_qp_destroy(struct kperf_udaddy *u,
				    struct rdma_cm_id *id)
{
	if (id->qp)
		rdma_destroy_qp(id);
	u->msg.qp = NULL;
}

/*
 * Server, the request on the listener: the QP on the new @id, the
 * receives, the accept (rdma_cm's Q_Key). Failing, it leaves no QP
 * behind; rdma_cm then refuses the request and destroys @id.
 */
static int kperf_udaddy_accept(struct kperf_udaddy *u, struct rdma_cm_id *id,
			       const char **what)
{
	struct kperf_run *run = u->run;
	struct kperf_side *s = &run->side[0];
	struct rdma_conn_param param = {};
	int ret;

	*what = "a request on another device";
	if (id->device != s->ibdev || id->port_num != s->port)
		return -EINVAL;
	*what = "rdma_create_qp";
	ret = kperf_udaddy_qp(run, u, id);
	if (!ret) {
		*what = "ib_post_recv";
		ret = kperf_ud_msg_post_recvs(run, &u->msg);
	}
	if (!ret) {
		*what = "rdma_accept";
		ret = rdma_accept(id, &param);
	}
	if (ret)
		kperf_udaddy_qp_destroy(u, id);
	return ret;
}

/*
 * A CONNECT_REQUEST (a SIDR REQ) on the server's listener, with a new
 * @id: the first is taken and its end is up at once (UD has nothing more
 * to exchange), any other refused.
 */
static int kperf_udaddy_request(struct kperf_udaddy *u, struct rdma_cm_id *id,
				const struct rdma_cm_event *ev)
{
	struct kperf_cm_end *le = &u->listen_end;
	const char *what;
	int ret = -EBUSY;

	mutex_lock(&u->lock);
	if (u->stopping || kperf_cm_end_state(le) != KPERF_CM_IDLE)
		goto out;
	ret = kperf_udaddy_accept(u, id, &what);
	if (ret) {
		kperf_cm_end_fail(le, ret, what, "failed", ret);
		goto out;
	}
	id->context = &u->conn;
	u->conn.rdma = id;
	kperf_udaddy_note(u, ev);
	kperf_cm_end_set(&u->conn, KPERF_CM_UP);
	kperf_cm_end_set(le, KPERF_CM_UP);
out:
	mutex_unlock(&u->lock);
	return ret;
}

/* Every id's handler: records, never destroys. */
static int kperf_udaddy_handler(struct rdma_cm_id *id,
				struct rdma_cm_event *ev)
{
	struct kperf_cm_end *ce = id->context;
	struct kperf_udaddy *u = ce->run->udaddy;

	/* A new id: its context is still the listener's. */
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return kperf_udaddy_request(u, id, ev);
	if (kperf_rdma_cm_event(ce, id, ev))
		kperf_udaddy_note(u, ev);
	return 0;
}

/* A new UD id in the writer's network namespace, as udaddy's would be. */
static struct rdma_cm_id *kperf_udaddy_id(struct kperf_cm_end *ce)
{
	return rdma_create_id(current->nsproxy->net_ns, kperf_udaddy_handler,
			      ce, RDMA_PS_UDP, IB_QPT_UD);
}

/* Why the exchange failed: the event that failed it, else @step. */
static int kperf_udaddy_fail(struct kperf_run *run, struct kperf_cm_end *ce,
			     int err, const char *step)
{
	char who[KPERF_WHO_LEN];

	snprintf(who, sizeof(who), "udaddy %s %pISpc",
		 kperf_udaddy_server(run) ? "on" : "to", &run->udaddy->addr);
	return kperf_cm_end_why(run, ce, err, who, step);
}

/* The side on @id's device (PD, CQ) and the messages' buffer. */
static int kperf_udaddy_open(struct kperf_run *run, struct kperf_udaddy *u,
			     struct rdma_cm_id *id)
{
	struct kperf_side *s = &run->side[0];
	int ret;

	ret = kperf_side_open_dev(run, s, id->device, id->port_num);
	return ret ?: kperf_ud_msg_alloc(run, s, &u->msg, "udaddy");
}

/* The info line: what the SIDR exchange set up. */
static void kperf_udaddy_info(struct kperf_run *run, struct kperf_udaddy *u)
{
	struct rdma_cm_id *id = u->conn.rdma;

	seq_buf_printf(run->out,
		       "info mode=udaddy role=%s dev=%s port=%u local=%pISpc remote=%pISpc qpn=%#x qkey=%#x",
		       kperf_udaddy_server(run) ? "server" : "client",
		       dev_name(&id->device->dev), id->port_num,
		       &id->route.addr.src_addr, &id->route.addr.dst_addr,
		       u->msg.qp->qp_num, u->qkey);
	if (u->peer_qpn)
		seq_buf_printf(run->out, " peer_qpn=%#x peer_qkey=%#x",
			       u->peer_qpn, u->peer_qkey);
	seq_buf_printf(run->out, "\n");
}

/*
 * Server: the first message names the client; the answers go by an
 * address vector made from its completion, which must lead back to the
 * address the SIDR REQ came from.
 */
static int kperf_udaddy_reply_ah(struct kperf_run *run,
				 struct kperf_udaddy *u, const struct ib_wc *wc,
				 const struct ib_grh *grh)
{
	struct rdma_cm_id *id = u->conn.rdma;
	struct kperf_side *s = &run->side[0];
	struct rdma_ah_attr attr;
	union ib_gid want;
	int ret;

	ret = ib_init_ah_attr_from_wc(s->ibdev, s->port, wc, grh, &attr);
	if (ret)
		return kperf_run_fail(run, ret, "no address vector from the first message");
	ipv6_addr_set_v4mapped(((struct sockaddr_in *)&id->route.addr.dst_addr)->sin_addr.s_addr,
			       (struct in6_addr *)want.raw);
	if (memcmp(rdma_ah_read_grh(&attr)->dgid.raw, want.raw, sizeof(want))) {
		ret = kperf_run_fail(run, -EBADMSG,
				     "the first message came from %pI6c, the SIDR REQ from %pISc",
				     rdma_ah_read_grh(&attr)->dgid.raw,
				     &id->route.addr.dst_addr);
		goto out;
	}
	u->ah = rdma_create_ah(s->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(u->ah)) {
		ret = PTR_ERR(u->ah);
		u->ah = NULL;
		kperf_run_fail(run, ret, "rdma_create_ah for the answers failed");
	}
out:
	rdma_destroy_ah_attr(&attr);
	return ret;
}

/*
 * Client: answer @n, received into the slot at @slot. Its message (after
 * our own GRH room) is the server's receive buffer: the GRH room of our
 * last message, then that message's head.
 */
static int kperf_udaddy_check_answer(struct kperf_run *run,
				     struct kperf_udaddy *u, const u8 *slot,
				     u32 n)
{
	const u8 *m = slot + KPERF_UD_GRH;
	const struct sockaddr_in *src, *dst;
	u32 size = run->p.size;
	u64 addr;

	if (size < KPERF_UD_GRH)
		return 0;
	src = (const struct sockaddr_in *)&u->conn.rdma->route.addr.src_addr;
	dst = (const struct sockaddr_in *)&u->conn.rdma->route.addr.dst_addr;
	if (memcmp(m + KPERF_UDADDY_IP4_SRC, &src->sin_addr, 4) ||
	    memcmp(m + KPERF_UDADDY_IP4_DST, &dst->sin_addr, 4))
		return kperf_run_fail(run, -EBADMSG,
				      "answer %u: the IPv4 header echoed is from %pI4 to %pI4, not %pI4 to %pI4",
				      n, m + KPERF_UDADDY_IP4_SRC,
				      m + KPERF_UDADDY_IP4_DST,
				      &src->sin_addr, &dst->sin_addr);
	if (memcmp(m + KPERF_UD_GRH,
		   kperf_ud_msg_out(&u->msg, run->p.iters - 1, &addr),
		   size - KPERF_UD_GRH))
		return kperf_run_fail(run, -EBADMSG,
				      "answer %u does not echo the head of our last message",
				      n);
	u->verified += size - KPERF_UD_GRH + 8;
	return 0;
}

/* The message in receive slot @n: udaddy's, from the peer (@ctx: the command's). */
static int kperf_udaddy_recv(void *ctx, const struct ib_wc *wc, u32 n)
{
	struct kperf_udaddy *u = ctx;
	struct kperf_run *run = u->run;
	const u8 *m = kperf_ud_msg_in(&u->msg, n);
	bool first = !u->peer_qpn;
	int ret;

	ret = kperf_ud_msg_check(run, &u->msg, wc, &u->peer_qpn);
	if (ret)
		return ret;
	if (first && kperf_udaddy_server(run)) {
		u->peer_qkey = u->qkey;	/* udaddy answers with its own */
		ret = kperf_udaddy_reply_ah(run, u, wc, (const struct ib_grh *)m);
		if (ret)
			return ret;
	}
	u->last = n;
	if (!kperf_udaddy_server(run) && run->p.verify)
		return kperf_udaddy_check_answer(run, u, m, u->msg.received);
	return 0;
}

/* Client: resolve, open, make the QP, receives, SIDR REQ, messages both ways. */
static int kperf_udaddy_client(struct kperf_run *run, struct kperf_udaddy *u)
{
	struct kperf_cm_end *ce = &u->conn;
	u32 ms = run->p.timeout_ms, n;
	struct rdma_conn_param param = {};
	struct rdma_cm_id *id;
	u64 addr;
	int ret;

	id = kperf_udaddy_id(ce);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id failed");
	ce->rdma = id;
	ret = rdma_resolve_addr(id, NULL, (struct sockaddr *)&u->addr, ms);
	if (!ret)
		ret = kperf_rdma_cm_wait(ce, KPERF_CM_IDLE, KPERF_CM_ADDR, ms);
	if (ret)
		return kperf_udaddy_fail(run, ce, ret, "resolving the address");
	ret = rdma_resolve_route(id, ms);
	if (!ret)
		ret = kperf_rdma_cm_wait(ce, KPERF_CM_ADDR, KPERF_CM_ROUTE, ms);
	if (ret)
		return kperf_udaddy_fail(run, ce, ret, "resolving the route");
	ret = kperf_udaddy_open(run, u, id);
	if (ret)
		return ret;
	ret = kperf_udaddy_qp(run, u, id);
	if (ret)
		return kperf_udaddy_fail(run, ce, ret, "rdma_create_qp");
	ret = kperf_ud_msg_post_recvs(run, &u->msg);
	if (ret)
		return ret;
	ret = rdma_connect(id, &param);
	if (!ret)
		ret = kperf_rdma_cm_wait(ce, KPERF_CM_ROUTE, KPERF_CM_UP, ms);
	if (ret)
		return kperf_udaddy_fail(run, ce, ret, "the SIDR exchange");
	u->peer_qpn = ce->ud.qp_num;
	u->peer_qkey = ce->ud.qkey;
	kperf_udaddy_info(run, u);
	u->ah = rdma_create_ah(run->side[0].pd, &ce->ud.ah_attr,
			       RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(u->ah)) {
		ret = PTR_ERR(u->ah);
		u->ah = NULL;
		return kperf_run_fail(run, ret, "rdma_create_ah from the SIDR REP failed");
	}
	for (n = 0; n < run->p.iters; n++)
		kperf_data_fill(kperf_ud_msg_out(&u->msg, n, &addr),
				run->p.size, n, KPERF_SALT_DATA);
	ret = kperf_ud_msg_send(run, &u->msg, u->ah, u->peer_qpn,
				u->peer_qkey);
	return ret ?: kperf_ud_msg_wait(run, &run->side[0], &u->msg,
					run->p.iters, run->p.iters);
}

/* Server: bind, open, listen; its handler takes the request. */
static int kperf_udaddy_listen(struct kperf_run *run, struct kperf_udaddy *u)
{
	struct rdma_cm_id *id;
	int ret;

	id = kperf_udaddy_id(&u->listen_end);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id failed");
	u->listen = id;
	ret = rdma_bind_addr(id, (struct sockaddr *)&u->addr);
	if (ret)
		return kperf_run_fail(run, ret, "rdma_bind_addr %pISpc failed",
				      &u->addr);
	if (!id->device)
		return kperf_run_fail(run, -EINVAL, "%pISc is not the address of an RDMA port here",
				      &u->addr);
	ret = kperf_udaddy_open(run, u, id);
	if (ret)
		return ret;
	ret = rdma_listen(id, 1);
	if (ret)
		return kperf_run_fail(run, ret, "rdma_listen on %pISpc failed",
				      &u->addr);
	kperf_listener_add(&u->listed);
	return 0;
}

/* Server: take one request, the client's messages, then answer each. */
static int kperf_udaddy_serve(struct kperf_run *run, struct kperf_udaddy *u)
{
	u32 ms = run->p.timeout_ms, n;
	u64 addr;
	int ret;

	ret = kperf_udaddy_listen(run, u);
	if (ret)
		return ret;
	ret = kperf_rdma_cm_wait(&u->listen_end, KPERF_CM_IDLE, KPERF_CM_UP, ms);
	if (ret)
		return kperf_udaddy_fail(run, &u->listen_end, ret,
					 "waiting for a SIDR REQ");
	ret = kperf_ud_msg_wait(run, &run->side[0], &u->msg, run->p.iters, 0);
	if (ret)
		return ret;
	kperf_udaddy_info(run, u);
	/* What udaddy's server sends: its buffer, the last receive's slot. */
	for (n = 0; n < run->p.iters; n++)
		memcpy(kperf_ud_msg_out(&u->msg, n, &addr),
		       kperf_ud_msg_in(&u->msg, u->last), run->p.size);
	ret = kperf_ud_msg_send(run, &u->msg, u->ah, u->peer_qpn,
				u->peer_qkey);
	return ret ?: kperf_ud_msg_wait(run, &run->side[0], &u->msg,
					run->p.iters, run->p.iters);
}

/* Everything the command made, in reverse. */
static void kperf_udaddy_teardown(struct kperf_run *run,
				  struct kperf_udaddy *u)
{
	struct kperf_side *s = &run->side[0];

	mutex_lock(&u->lock);
	u->stopping = true;
	mutex_unlock(&u->lock);
	if (u->ah)
		rdma_destroy_ah(u->ah, RDMA_DESTROY_AH_SLEEPABLE);
	u->ah = NULL;
	if (u->conn.rdma) {
		kperf_udaddy_qp_destroy(u, u->conn.rdma);
		rdma_destroy_id(u->conn.rdma);
		u->conn.rdma = NULL;
	}
	if (u->conn.ud_set)
		rdma_destroy_ah_attr(&u->conn.ud.ah_attr);
	kperf_listener_del(&u->listed);
	if (u->listen)
		rdma_destroy_id(u->listen);
	u->listen = NULL;
	if (s->ibdev)
		kperf_buf_free(s, &u->msg.buf);
	kperf_side_close(s);
}

static void kperf_udaddy_result(struct kperf_run *run, struct kperf_udaddy *u,
				int err)
{
	const struct kperf_params *p = &run->p;

	seq_buf_printf(run->out,
		       "result mode=udaddy role=%s addr=%pISc port=%u size=%u iters=%u verify=%d received=%u sent=%u bytes_verified=%llu peer_qpn=%#x",
		       kperf_udaddy_server(run) ? "server" : "client",
		       &p->addr, p->port, p->size, p->iters, p->verify,
		       u->msg.received, u->msg.sent, u->verified, u->peer_qpn);
	kperf_out_fixed(run->out, "usec", run->res.ns, 1, 1000);
	seq_buf_printf(run->out, " cm_event=%s cm_status=%d",
		       kperf_rping_event_name(READ_ONCE(u->event)),
		       READ_ONCE(u->status));
	kperf_out_status(run, err);
}

static void kperf_udaddy_init(struct kperf_run *run, struct kperf_udaddy *u)
{
	u->run = run;
	u->addr = run->p.addr;
	((struct sockaddr_in *)&u->addr)->sin_port = htons(run->p.port);
	INIT_LIST_HEAD(&u->listed.node);
	u->listed.mode = "udaddy";
	u->listed.addr = u->addr;
	u->listen_end.run = run;
	init_completion(&u->listen_end.done);
	u->conn.run = run;
	init_completion(&u->conn.done);
	mutex_init(&u->lock);
	u->event = -1;
	u->msg.recv = kperf_udaddy_recv;
	u->msg.ctx = u;
}

/**
 * kperf_udaddy_run() - run one mode=udaddy command
 * @p: the command
 * @out: where its info and result lines go
 *
 * Everything the command made is destroyed before this returns.
 *
 * Context: process context (the writer's), sleeps.
 * Return: 0 when the command passed, else the negative errno of its
 * result line.
 */
int kperf_udaddy_run(const struct kperf_params *p, struct seq_buf *out)
{
	struct kperf_run *run;
	struct kperf_udaddy *u;
	int ret;

	run = kperf_run_alloc(p, out);
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!run || !u) {
		kfree(run);
		kfree(u);
		return -ENOMEM;
	}
	run->udaddy = u;
	kperf_udaddy_init(run, u);
	kperf_run_clock_start(run);
	kperf_run_progress(run);
	if (kperf_udaddy_server(run))
		ret = kperf_udaddy_serve(run, u);
	else
		ret = kperf_udaddy_client(run, u);
	ret = kperf_run_gone(run, ret);
	kperf_run_clock_stop(run);
	kperf_udaddy_teardown(run, u);
	kperf_udaddy_result(run, u, ret);
	mutex_destroy(&u->lock);
	kfree(u);
	kfree(run);
	return ret;
}

/* A refusal too long for one line once indented; its words are the interface. */
#define KPERF_UDADDY_KEYS \
	"mode=udaddy takes only role, addr, port, iters, size, verify and timeout_ms"

/**
 * kperf_udaddy_check() - the rules of mode=udaddy's keys
 * @p: a parsed command of mode=udaddy
 *
 * Return: what is wrong with @p, or NULL.
 */
const char *kperf_udaddy_check(const struct kperf_params *p)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)&p->addr;

	if (p->not_rping)
		return KPERF_UDADDY_KEYS;
	if (p->bind.ss_family)
		return "mode=udaddy binds the client to the address the route gives (no bind=)";
	if (p->timewait)
		return "mode=udaddy has no connection to wait out (timewait=)";
	if (p->role == KPERF_RPING_NONE)
		return "mode=udaddy needs role=client or role=server";
	if (p->addr.ss_family != AF_INET)
		return "mode=udaddy needs addr=<ipv4>";
	if (sin->sin_port)
		return "mode=udaddy takes its port from port=, not from addr=";
	if (!p->size || p->size > KPERF_UDADDY_MAX_SIZE)
		return "mode=udaddy takes size=1 to size=4096 (one UD message each)";
	if (!p->iters || p->iters > KPERF_UDADDY_MAX_COUNT)
		return "mode=udaddy takes iters=1 to iters=1024 (messages each way)";
	return NULL;
}
