// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf mode=rping: either end of rping's protocol (rdmacm-utils), over rdma_cm. */
/*
 * rping (librdmacm's examples) connects one RC QP through rdma_cm, port
 * space TCP, and then repeats a ping of four messages:
 *
 *   client                                  server
 *   SEND  source buffer: addr, rkey, size  ->
 *                                       <-  RDMA READ of the source
 *                                       <-  SEND  go-ahead
 *   SEND  sink buffer: addr, rkey, size    ->
 *                                       <-  RDMA WRITE of what it read
 *                                       <-  SEND  go-ahead
 *
 * Every message is 16 bytes: the address (64 bits), the rkey and the size
 * (32 bits each), all big endian; a go-ahead is all zeros. The client
 * fills its source with the text of ping n and can compare the echo in
 * its sink with it; after its pings it disconnects, and the server ends
 * on DISCONNECTED.
 *
 * Here the writer's network namespace holds the id, as it would hold
 * rping's. The client resolves the address and route, opens the device
 * they lead to (kperf_side_open_dev(): its PD and CQ), registers its two
 * buffers through FRWR (they are read and written remotely), posts its
 * receive and connects. The server binds and listens; its bound address
 * names its device, whose PD, CQ and buffer exist before the request
 * comes. Its handler takes one request: the QP on the new id, the
 * receive, the accept; any other is refused (rdma_cm rejects it). The
 * server's buffer is only read into and written from locally, through
 * the PD's local_dma_lkey.
 *
 * Handlers only record (kperf_rdma_cm_event(), the last event); the
 * command waits in its own context and destroys every id itself.
 */

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <rdma/rdma_cm.h>
#include "kperf.h"

/* rping's sizes: "rdma-ping-2147483647: " and its 0 fit the smallest ping. */
#define KPERF_RPING_MIN_SIZE	26
#define KPERF_RPING_MAX_SIZE	65535
/* Its QP: 16 sends, 2 receives, one SGE each. */
#define KPERF_RPING_SQ_DEPTH	16
#define KPERF_RPING_RQ_DEPTH	2
/* The bytes of a REJ's private data a result line shows. */
#define KPERF_RPING_REJ_SHOWN	16
/* The letters after a ping's number run from 'A' to 'z', then again. */
#define KPERF_RPING_FIRST	'A'
#define KPERF_RPING_LAST	'z'
#define KPERF_RPING_LETTERS	(KPERF_RPING_LAST - KPERF_RPING_FIRST + 1)
/*
 * The message buffer: the receive at 0 (room for more than a message,
 * so a longer one is seen as such), the send at 64.
 */
#define KPERF_RPING_RECV_OFF	0
#define KPERF_RPING_RECV_LEN	64
#define KPERF_RPING_SEND_OFF	64
#define KPERF_RPING_MSG_BUF	128

/**
 * struct kperf_rping_msg - an rping message as it is on the wire
 * @addr: a buffer's address for RDMA READ or WRITE (0: a go-ahead)
 * @rkey: its rkey
 * @size: its size in bytes
 */
struct kperf_rping_msg {
	__be64 addr;
	__be32 rkey;
	__be32 size;
};

/**
 * struct kperf_rping - the one connection of a mode=rping command
 * @run: the command
 * @listed: the server's entry in the debugfs file "listening"
 * @addr: client: where it connects; server: where it listens
 * @listen: server: the listening id
 * @listen_end: the listener's end: UP once it took its request, FAILED
 *		when that could not be accepted or the listener failed
 * @conn: the connection's end; its id is the client's, or the one a
 *	  server's request came with
 * @lock: serializes the server's requests with the command's end;
 *	  protects @stopping and @conn.rdma on the server
 * @stopping: the command is ending: requests are refused
 * @ev_lock: protects @event, @status, @rej_data and @rej_len
 * @event: the last event the command handled, -1 before the first
 * @status: its status
 * @rej_data: after REJECTED: the start of the REJ's private data
 * @rej_len: how much of it @rej_data holds, 0 when none
 * @msg: the messages' buffer (local_dma_lkey)
 * @data: client: [0] the source, [1] the sink (FRWR, remote access);
 *	  server: [0] the buffer read into and written from (local_dma_lkey)
 * @expect: server with verify=1: the ping the client should have sent
 * @pings: pings completed
 * @verified: bytes found as expected
 * @timewait_ns: timewait=1: from the disconnect to TIMEWAIT_EXIT
 */
struct kperf_rping {
	struct kperf_run *run;
	struct kperf_listener listed;
	struct sockaddr_storage addr;
	struct rdma_cm_id *listen;
	struct kperf_cm_end listen_end;
	struct kperf_cm_end conn;
	struct mutex lock;	/* @stopping, the server's @conn.rdma */
	bool stopping;
	spinlock_t ev_lock;	/* @event, @status, @rej_data, @rej_len */
	int event;
	int status;
	u8 rej_data[KPERF_RPING_REJ_SHOWN];
	u8 rej_len;
	struct kperf_buf msg;
	struct kperf_end data[2];
	char *expect;
	u64 pings;
	u64 verified;
	u64 timewait_ns;
};

#define KPERF_RPING_EV(e) \
	[RDMA_CM_EVENT_##e] = #e

/* The events' names in result lines: the enum's, without its prefix. */
static const char *const kperf_rping_events[] = {
	KPERF_RPING_EV(ADDR_RESOLVED), KPERF_RPING_EV(ADDR_ERROR),
	KPERF_RPING_EV(ROUTE_RESOLVED), KPERF_RPING_EV(ROUTE_ERROR),
	KPERF_RPING_EV(CONNECT_REQUEST), KPERF_RPING_EV(CONNECT_RESPONSE),
	KPERF_RPING_EV(CONNECT_ERROR), KPERF_RPING_EV(UNREACHABLE),
	KPERF_RPING_EV(REJECTED), KPERF_RPING_EV(ESTABLISHED),
	KPERF_RPING_EV(DISCONNECTED), KPERF_RPING_EV(DEVICE_REMOVAL),
	KPERF_RPING_EV(MULTICAST_JOIN), KPERF_RPING_EV(MULTICAST_ERROR),
	KPERF_RPING_EV(ADDR_CHANGE), KPERF_RPING_EV(TIMEWAIT_EXIT),
};

/**
 * kperf_rping_event_name() - an rdma_cm event's name in result lines
 * @event: an enum rdma_cm_event_type, or -1 for none yet
 *
 * Return: the enum's name without its prefix, "NONE" or "UNKNOWN".
 */
const char *kperf_rping_event_name(int event)
{
	if (event < 0)
		return "NONE";
	if ((unsigned int)event < ARRAY_SIZE(kperf_rping_events) &&
	    kperf_rping_events[event])
		return kperf_rping_events[event];
	return "UNKNOWN";
}

static bool kperf_rping_server(const struct kperf_run *run)
{
	return run->p.role == KPERF_RPING_SERVER;
}

static struct sockaddr *kperf_rping_sa(struct sockaddr_storage *ss)
{
	return (struct sockaddr *)ss;
}

/**
 * kperf_rping_pattern() - the text rping's client sends in one ping
 * @buf: where it goes
 * @size: the ping size, at least KPERF_RPING_MIN_SIZE
 * @n: the ping, from 0
 *
 * "rdma-ping-<n>: ", then letters from 'A' + n % 58 on, each the next
 * character of ASCII and 'A' again after 'z', up to @size - 1 bytes, and
 * a 0 in the last byte.
 */
static void kperf_rping_pattern(char *buf, u32 size, u32 n)
{
	u32 i = scnprintf(buf, size, "rdma-ping-%u: ", n);
	char c = KPERF_RPING_FIRST + n % KPERF_RPING_LETTERS;

	for (; i < size - 1; i++) {
		buf[i] = c;
		c = c == KPERF_RPING_LAST ? KPERF_RPING_FIRST : c + 1;
	}
	buf[size - 1] = '\0';
}

/*
 * Remembers @ev as the last event the command handled, and the start of a
 * REJ's private data: what the rejecting consumer said, for the result.
 */
static void kperf_rping_note(struct kperf_rping *r,
			     const struct rdma_cm_event *ev)
{
	u8 len = 0;

	if (ev->event == RDMA_CM_EVENT_REJECTED && ev->param.conn.private_data)
		len = min_t(u8, ev->param.conn.private_data_len,
			    KPERF_RPING_REJ_SHOWN);
	spin_lock(&r->ev_lock);
	r->event = ev->event;
	r->status = ev->status;
	memcpy(r->rej_data, ev->param.conn.private_data, len);
	r->rej_len = len;
	spin_unlock(&r->ev_lock);
}

/* Both ends' connection parameters: rping's. */
static void kperf_rping_param(struct rdma_conn_param *param)
{
	memset(param, 0, sizeof(*param));
	param->responder_resources = 1;
	param->initiator_depth = 1;
	param->retry_count = 7;
	param->rnr_retry_count = 7;
}

/* The QP rping makes on its id: RC, 16 sends, 2 receives, the one CQ. */
static int kperf_rping_qp(struct kperf_run *run, struct kperf_rping *r,
			  struct rdma_cm_id *id)
{
	struct ib_qp_init_attr attr = {
		.send_cq = run->side[0].cq,
		.recv_cq = run->side[0].cq,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
		.cap = {
			.max_send_wr = KPERF_RPING_SQ_DEPTH,
			.max_recv_wr = KPERF_RPING_RQ_DEPTH,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	int ret;

	ret = rdma_create_qp(id, run->side[0].pd, &attr);
	if (ret)
		return ret;
	r->data[0].qp = id->qp;
	r->data[1].qp = id->qp;
	return 0;
}

static void kperf_rping_qp_destroy(struct kperf_rping *r,
				   struct rdma_cm_id *id)
{
	if (id->qp)
		rdma_destroy_qp(id);
	r->data[0].qp = NULL;
	r->data[1].qp = NULL;
}

/* The one receive of a message. */
static int kperf_rping_post_recv(struct kperf_rping *r, struct ib_qp *qp)
{
	struct ib_sge sge = {
		.addr = r->msg.addr + KPERF_RPING_RECV_OFF,
		.length = KPERF_RPING_RECV_LEN,
		.lkey = r->msg.lkey,
	};
	struct ib_recv_wr wr = {
		.wr_id = kperf_wr_id(KPERF_WR_RECV, 0, 0),
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(qp, &wr, NULL);
}

/*
 * Server, a request on the listener: the QP on the new @id, the receive,
 * the accept. Failing, it leaves no QP behind and returns the error;
 * rdma_cm then rejects the request and destroys @id.
 */
static int kperf_rping_accept(struct kperf_rping *r, struct rdma_cm_id *id,
			      const char **what)
{
	struct kperf_run *run = r->run;
	struct kperf_side *s = &run->side[0];
	struct rdma_conn_param param;
	int ret;

	*what = "a request on another device";
	if (id->device != s->ibdev || id->port_num != s->port)
		return -EINVAL;
	*what = "rdma_create_qp";
	ret = kperf_rping_qp(run, r, id);
	if (ret)
		return ret;
	*what = "ib_post_recv";
	ret = kperf_rping_post_recv(r, id->qp);
	if (!ret) {
		kperf_rping_param(&param);
		*what = "rdma_accept";
		ret = rdma_accept(id, &param);
	}
	if (ret)
		kperf_rping_qp_destroy(r, id);
	return ret;
}

/*
 * A CONNECT_REQUEST on the server's listener, with a new @id: the first
 * one is taken, any other refused (rdma_cm rejects it: consumer reject,
 * no private data). A first one that cannot be accepted fails the
 * command.
 */
static int kperf_rping_request(struct kperf_rping *r, struct rdma_cm_id *id,
			       const struct rdma_cm_event *ev)
{
	struct kperf_cm_end *le = &r->listen_end;
	const char *what;
	int ret = -EBUSY;

	mutex_lock(&r->lock);
	if (r->stopping || kperf_cm_end_state(le) != KPERF_CM_IDLE)
		goto out;
	ret = kperf_rping_accept(r, id, &what);
	if (ret) {
		kperf_cm_end_fail(le, ret, what, "failed", ret);
		goto out;
	}
	id->context = &r->conn;
	r->conn.rdma = id;
	kperf_rping_note(r, ev);
	kperf_cm_end_set(le, KPERF_CM_UP);
out:
	mutex_unlock(&r->lock);
	return ret;
}

/* Every id's handler: records, never destroys. */
static int kperf_rping_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct kperf_cm_end *ce = id->context;
	struct kperf_rping *r = ce->run->rping;

	/* A new id: its context is still the listener's. */
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return kperf_rping_request(r, id, ev);
	if (kperf_rdma_cm_event(ce, id, ev))
		kperf_rping_note(r, ev);
	return 0;
}

/* A new id in the writer's network namespace, as rping's would be. */
static struct rdma_cm_id *kperf_rping_id(struct kperf_cm_end *ce)
{
	return rdma_create_id(current->nsproxy->net_ns, kperf_rping_handler,
			      ce, RDMA_PS_TCP, IB_QPT_RC);
}

/* Why the connection failed: the event that failed it, else @step. */
static int kperf_rping_fail(struct kperf_run *run, struct kperf_cm_end *ce,
			    int err, const char *step)
{
	char who[KPERF_WHO_LEN];

	snprintf(who, sizeof(who), "connection %s %pISpc",
		 kperf_rping_server(run) ? "on" : "to", &run->rping->addr);
	return kperf_cm_end_why(run, ce, err, who, step);
}

/*
 * The side on the device @id is on (PD, CQ), the message buffer and the
 * data buffers: the client's two with FRWR MRs (registered once
 * connected), the server's one local.
 */
static int kperf_rping_open(struct kperf_run *run, struct kperf_rping *r,
			    struct rdma_cm_id *id)
{
	struct kperf_side *s = &run->side[0];
	u32 size = run->p.size;
	int ret;

	ret = kperf_side_open_dev(run, s, id->device, id->port_num);
	if (!ret)
		ret = kperf_buf_alloc_mr(run, s, &r->msg, KPERF_RPING_MSG_BUF,
					 KPERF_MR_DMA);
	if (ret)
		return ret;
	if (kperf_rping_server(run)) {
		ret = kperf_buf_alloc_mr(run, s, &r->data[0].buf, size,
					 KPERF_MR_DMA);
		if (ret || !run->p.verify)
			return ret;
		r->expect = kmalloc(size, GFP_KERNEL);
		return r->expect ? 0 : kperf_run_fail(run, -ENOMEM, "no memory for %u bytes",
						      size);
	}
	ret = kperf_buf_alloc_mr(run, s, &r->data[0].buf, size, KPERF_MR_FRWR);
	if (ret)
		return ret;
	return kperf_buf_alloc_mr(run, s, &r->data[1].buf, size, KPERF_MR_FRWR);
}

/* The info line: where the connection goes, once it is up. */
static void kperf_rping_info(struct kperf_run *run, struct kperf_rping *r)
{
	struct rdma_cm_id *id = r->conn.rdma;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr = {};
	union ib_gid sgid;

	rdma_read_gids(id, &sgid, NULL);
	if (ib_query_qp(id->qp, &attr, IB_QP_DEST_QPN | IB_QP_PATH_MTU, &init))
		memset(&attr, 0, sizeof(attr));
	seq_buf_printf(run->out,
		       "info mode=rping role=%s dev=%s port=%u gid=%pI6c local=%pISpc remote=%pISpc qpn=%#x peer_qpn=%#x mtu=%d\n",
		       kperf_rping_server(run) ? "server" : "client",
		       dev_name(&id->device->dev), id->port_num, sgid.raw,
		       &id->route.addr.src_addr, &id->route.addr.dst_addr,
		       id->qp->qp_num, attr.dest_qp_num,
		       attr.path_mtu ? ib_mtu_enum_to_int(attr.path_mtu) : 0);
}

/* SENDs a message: a buffer's address, rkey and size, or zeros. */
static int kperf_rping_send(struct kperf_run *run, struct kperf_rping *r,
			    u64 addr, u32 rkey, u32 size)
{
	struct kperf_rping_msg *m = r->msg.va + KPERF_RPING_SEND_OFF;
	struct ib_sge sge = {
		.addr = r->msg.addr + KPERF_RPING_SEND_OFF,
		.length = sizeof(*m),
		.lkey = r->msg.lkey,
	};
	struct ib_send_wr wr = {
		.wr_id = kperf_wr_id(KPERF_WR_OP, 0, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_wc wc;
	int ret;

	m->addr = cpu_to_be64(addr);
	m->rkey = cpu_to_be32(rkey);
	m->size = cpu_to_be32(size);
	ret = ib_post_send(r->conn.rdma->qp, &wr, NULL);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_send of a message failed");
	return kperf_cq_expect(run, &run->side[0], KPERF_WR_OP, &wc);
}

/* Server: an RDMA READ or WRITE of @len bytes of its buffer, done. */
static int kperf_rping_rdma(struct kperf_run *run, struct kperf_rping *r,
			    enum ib_wr_opcode op,
			    const struct kperf_rping_msg *m, u32 len)
{
	struct kperf_buf *b = &r->data[0].buf;
	struct ib_sge sge = { .addr = b->addr, .length = len, .lkey = b->lkey };
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = kperf_wr_id(KPERF_WR_OP, 0, 0),
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = be64_to_cpu(m->addr),
		.rkey = be32_to_cpu(m->rkey),
	};
	struct ib_wc wc;
	int ret;

	ret = ib_post_send(r->conn.rdma->qp, &wr.wr, NULL);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_send of an RDMA %s failed",
				      op == IB_WR_RDMA_READ ? "READ" : "WRITE");
	return kperf_cq_expect(run, &run->side[0], KPERF_WR_OP, &wc);
}

/*
 * The next message, into @m, its receive posted again. Returns 1 instead
 * when the connection went down before one came (the peer disconnected).
 */
static int kperf_rping_recv(struct kperf_run *run, struct kperf_rping *r,
			    struct kperf_rping_msg *m, u32 n)
{
	struct kperf_side *s = &run->side[0];
	struct ib_wc wc;
	int ret;

	kperf_run_progress(run);
	for (;;) {
		ret = kperf_cq_poll(run, s, KPERF_WR_RECV, &wc);
		if (ret < 0)
			return ret;
		if (ret)
			break;
		if (kperf_cm_end_state(&r->conn) != KPERF_CM_UP)
			return 1;
		ret = kperf_run_idle(run);
		if (ret)
			return ret;
	}
	ret = kperf_cq_check(run, s, KPERF_WR_RECV, &wc);
	if (ret)
		return ret;
	if (wc.opcode != IB_WC_RECV || wc.byte_len != sizeof(*m))
		return kperf_run_fail(run, -EBADMSG,
				      "ping %u: a message of %u bytes (opcode %d); rping's have %zu",
				      n, wc.byte_len, wc.opcode, sizeof(*m));
	memcpy(m, r->msg.va + KPERF_RPING_RECV_OFF, sizeof(*m));
	ret = kperf_rping_post_recv(r, r->conn.rdma->qp);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_recv failed");
	return 0;
}

/* Client: the connection went down during ping @n. */
static int kperf_rping_gone(struct kperf_run *run, struct kperf_rping *r,
			    u32 n)
{
	if (kperf_cm_end_state(&r->conn) == KPERF_CM_FAILED)
		return kperf_rping_fail(run, &r->conn, -ECONNRESET, "pinging");
	return kperf_run_fail(run, -ECONNRESET, "ping %u: the server disconnected",
			      n);
}

/* The index of the first byte where @a and @b differ; @len if none. */
static u32 kperf_rping_diff(const char *a, const char *b, u32 len)
{
	u32 i;

	for (i = 0; i < len && a[i] == b[i]; i++)
		;
	return i;
}

/* Client: ping @n, its echo checked with verify=1. */
static int kperf_rping_client_ping(struct kperf_run *run,
				   struct kperf_rping *r, u32 n)
{
	struct kperf_buf *src = &r->data[0].buf, *sink = &r->data[1].buf;
	u32 size = run->p.size, at;
	struct kperf_rping_msg m;
	int ret;

	kperf_rping_pattern(src->va, size, n);
	memset(sink->va, 0, size);
	ret = kperf_rping_send(run, r, src->addr, src->rkey, size);
	if (!ret)
		ret = kperf_rping_recv(run, r, &m, n);
	if (!ret)
		ret = kperf_rping_send(run, r, sink->addr, sink->rkey, size);
	if (!ret)
		ret = kperf_rping_recv(run, r, &m, n);
	if (ret > 0)
		return kperf_rping_gone(run, r, n);
	if (ret)
		return ret;
	if (run->p.verify) {
		at = kperf_rping_diff(src->va, sink->va, size);
		if (at < size)
			return kperf_run_fail(run, -EBADMSG,
					      "ping %u: the echo differs from the ping at byte %u (%#x, not %#x)",
					      n, at, ((u8 *)sink->va)[at],
					      ((u8 *)src->va)[at]);
		r->verified += size;
	}
	r->pings++;
	return 0;
}

/* Server: the source read in ping @n must be rping's ping @n. */
static int kperf_rping_check_read(struct kperf_run *run, struct kperf_rping *r,
				  u32 len, u32 n)
{
	u32 size = run->p.size, at;
	const char *got = r->data[0].buf.va;

	if (len != size)
		return kperf_run_fail(run, -EBADMSG,
				      "ping %u: the client's source has %u bytes, size=%u",
				      n, len, size);
	kperf_rping_pattern(r->expect, size, n);
	at = kperf_rping_diff(r->expect, got, size);
	if (at < size)
		return kperf_run_fail(run, -EBADMSG,
				      "ping %u: byte %u read is %#x, rping's client sends %#x",
				      n, at, (u8)got[at], (u8)r->expect[at]);
	r->verified += size;
	return 0;
}

/*
 * Server: ping @n. Returns 1 when the client disconnected instead of
 * advertising a buffer.
 */
static int kperf_rping_server_ping(struct kperf_run *run,
				   struct kperf_rping *r, u32 n)
{
	const char *buf = r->data[0].buf.va;
	struct kperf_rping_msg m;
	u32 len, out;
	int ret;

	ret = kperf_rping_recv(run, r, &m, n);
	if (ret)
		return ret;
	len = be32_to_cpu(m.size);
	if (len > run->p.size)
		return kperf_run_fail(run, -EBADMSG,
				      "ping %u: the client's source has %u bytes, more than size=%u",
				      n, len, run->p.size);
	ret = kperf_rping_rdma(run, r, IB_WR_RDMA_READ, &m, len);
	if (!ret && run->p.verify)
		ret = kperf_rping_check_read(run, r, len, n);
	if (!ret)
		ret = kperf_rping_send(run, r, 0, 0, 0);
	if (!ret)
		ret = kperf_rping_recv(run, r, &m, n);
	if (ret)
		return ret;
	/* What rping echoes: the text read, up to and with its 0. */
	out = min_t(size_t, strnlen(buf, len) + 1, len);
	if (out > be32_to_cpu(m.size))
		return kperf_run_fail(run, -EBADMSG,
				      "ping %u: the client's sink has %u bytes, the echo %u",
				      n, be32_to_cpu(m.size), out);
	ret = kperf_rping_rdma(run, r, IB_WR_RDMA_WRITE, &m, out);
	if (!ret)
		ret = kperf_rping_send(run, r, 0, 0, 0);
	if (!ret)
		r->pings++;
	return ret;
}

/* Client: FRWR registrations of its source and sink, on its QP in RTS. */
static int kperf_rping_reg(struct kperf_run *run, struct kperf_rping *r)
{
	int ret = kperf_buf_reg(run, &run->side[0], &r->data[0]);

	return ret ?: kperf_buf_reg(run, &run->side[0], &r->data[1]);
}

/* Client: resolve, open, connect, ping; disconnecting is left to the end. */
static int kperf_rping_client(struct kperf_run *run, struct kperf_rping *r)
{
	struct kperf_cm_end *ce = &r->conn;
	u32 ms = run->p.timeout_ms, n;
	struct rdma_conn_param param;
	struct rdma_cm_id *id;
	int ret;

	id = kperf_rping_id(ce);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id failed");
	ce->rdma = id;
	ret = rdma_resolve_addr(id, NULL, kperf_rping_sa(&r->addr), ms);
	if (!ret)
		ret = kperf_rdma_cm_wait(ce, KPERF_CM_IDLE, KPERF_CM_ADDR, ms);
	if (ret)
		return kperf_rping_fail(run, ce, ret, "resolving the address");
	ret = rdma_resolve_route(id, ms);
	if (!ret)
		ret = kperf_rdma_cm_wait(ce, KPERF_CM_ADDR, KPERF_CM_ROUTE, ms);
	if (ret)
		return kperf_rping_fail(run, ce, ret, "resolving the route");
	ret = kperf_rping_open(run, r, id);
	if (ret)
		return ret;
	ret = kperf_rping_qp(run, r, id);
	if (ret)
		return kperf_rping_fail(run, ce, ret, "rdma_create_qp");
	ret = kperf_rping_post_recv(r, id->qp);
	if (ret)
		return kperf_rping_fail(run, ce, ret, "ib_post_recv");
	kperf_rping_param(&param);
	ret = rdma_connect(id, &param);
	if (!ret)
		ret = kperf_rdma_cm_wait(ce, KPERF_CM_ROUTE, KPERF_CM_UP, ms);
	if (ret)
		return kperf_rping_fail(run, ce, ret, "connecting");
	kperf_rping_info(run, r);
	ret = kperf_rping_reg(run, r);
	for (n = 0; !ret && n < run->p.iters; n++) {
		ret = kperf_run_check(run);
		if (!ret)
			ret = kperf_rping_client_ping(run, r, n);
	}
	return ret;
}

/* Server: bind, open, listen; its handler takes the request. */
static int kperf_rping_listen(struct kperf_run *run, struct kperf_rping *r)
{
	struct rdma_cm_id *id;
	int ret;

	id = kperf_rping_id(&r->listen_end);
	if (IS_ERR(id))
		return kperf_run_fail(run, PTR_ERR(id), "rdma_create_id failed");
	r->listen = id;
	ret = rdma_bind_addr(id, kperf_rping_sa(&r->addr));
	if (ret)
		return kperf_run_fail(run, ret, "rdma_bind_addr %pISpc failed",
				      &r->addr);
	if (!id->device)
		return kperf_run_fail(run, -EINVAL, "%pISc is not the address of an RDMA port here",
				      &r->addr);
	ret = kperf_rping_open(run, r, id);
	if (ret)
		return ret;
	ret = rdma_listen(id, 1);
	if (ret)
		return kperf_run_fail(run, ret, "rdma_listen on %pISpc failed",
				      &r->addr);
	kperf_listener_add(&r->listed);
	return 0;
}

/* Server: listen, take one connection, serve it until the client leaves. */
static int kperf_rping_serve(struct kperf_run *run, struct kperf_rping *r)
{
	struct kperf_cm_end *ce = &r->conn;
	u32 ms = run->p.timeout_ms, n;
	int ret;

	ret = kperf_rping_listen(run, r);
	if (ret)
		return ret;
	ret = kperf_rdma_cm_wait(&r->listen_end, KPERF_CM_IDLE, KPERF_CM_UP, ms);
	if (ret)
		return kperf_rping_fail(run, &r->listen_end, ret,
					"waiting for a request");
	ret = kperf_rdma_cm_wait(ce, KPERF_CM_IDLE, KPERF_CM_UP, ms);
	if (ret)
		return kperf_rping_fail(run, ce, ret, "connecting");
	kperf_rping_info(run, r);
	for (n = 0; ; n++) {
		ret = kperf_run_check(run);
		if (!ret)
			ret = kperf_rping_server_ping(run, r, n);
		if (ret)
			break;
	}
	if (ret < 0)
		return ret;
	/* The client left: by disconnecting (DOWN), or by failing. */
	if (kperf_cm_end_state(ce) != KPERF_CM_DOWN)
		return kperf_rping_fail(run, ce, -ECONNRESET, "serving");
	if (run->p.iters && r->pings != run->p.iters)
		return kperf_run_fail(run, -EBADMSG,
				      "the client disconnected after %llu pings, iters=%u",
				      r->pings, run->p.iters);
	return 0;
}

/*
 * The end of the connection, if it was up: ours first (DREQ, the peer's
 * DREP, DISCONNECTED) or the answer to the peer's (DREP).
 */
static int kperf_rping_hangup(struct kperf_run *run, struct kperf_rping *r)
{
	struct kperf_cm_end *ce = &r->conn;
	int ret;

	switch (kperf_cm_end_state(ce)) {
	case KPERF_CM_UP:
		ret = rdma_disconnect(ce->rdma);
		if (ret)
			return kperf_run_fail(run, ret, "rdma_disconnect failed");
		ret = kperf_rdma_cm_wait(ce, KPERF_CM_UP, KPERF_CM_DOWN,
					 run->p.timeout_ms);
		return ret ? kperf_rping_fail(run, ce, ret, "disconnecting") : 0;
	case KPERF_CM_DOWN:
		ret = rdma_disconnect(ce->rdma);
		return ret ? kperf_run_fail(run, ret, "rdma_disconnect failed") : 0;
	default:
		return 0;
	}
}

/*
 * timewait=1: after the disconnect, the connection's id is kept until it
 * hears TIMEWAIT_EXIT (the IB CM's timewait is over: its QP could be
 * reused), which the result reports.
 */
static int kperf_rping_timewait(struct kperf_run *run, struct kperf_rping *r)
{
	u64 t0 = ktime_get_ns();
	int ret;

	ret = kperf_cm_end_wait_timewait(&r->conn, run->p.timeout_ms);
	if (ret == -ETIMEDOUT)
		return kperf_run_fail(run, ret, "no TIMEWAIT_EXIT within %u ms of the disconnect",
				      run->p.timeout_ms);
	if (ret)
		return ret;
	r->timewait_ns = ktime_get_ns() - t0;
	return 0;
}

/*
 * Everything the command made, in reverse: the QP and the id of the
 * connection, the listener, the buffers and their MRs, CQ, PD, the hold.
 */
static void kperf_rping_teardown(struct kperf_run *run, struct kperf_rping *r)
{
	struct kperf_side *s = &run->side[0];

	mutex_lock(&r->lock);
	r->stopping = true;
	mutex_unlock(&r->lock);
	if (r->conn.rdma) {
		kperf_rping_qp_destroy(r, r->conn.rdma);
		rdma_destroy_id(r->conn.rdma);
		r->conn.rdma = NULL;
	}
	kperf_listener_del(&r->listed);
	if (r->listen)
		rdma_destroy_id(r->listen);
	r->listen = NULL;
	kfree(r->expect);
	if (s->ibdev) {
		kperf_buf_free(s, &r->data[1].buf);
		kperf_buf_free(s, &r->data[0].buf);
		kperf_buf_free(s, &r->msg);
	}
	kperf_side_close(s);
}

static void kperf_rping_result(struct kperf_run *run, struct kperf_rping *r,
			       int err)
{
	const struct kperf_params *p = &run->p;

	seq_buf_printf(run->out,
		       "result mode=rping role=%s addr=%pISc port=%u size=%u iters=%u verify=%d pings=%llu bytes_verified=%llu",
		       kperf_rping_server(run) ? "server" : "client",
		       &p->addr, p->port, p->size, p->iters, p->verify,
		       r->pings, r->verified);
	kperf_out_fixed(run->out, "usec", run->res.ns, 1, 1000);
	seq_buf_printf(run->out, " cm_event=%s cm_status=%d",
		       kperf_rping_event_name(r->event), r->status);
	if (r->rej_len)
		seq_buf_printf(run->out, " rej_data=%*phN", r->rej_len,
			       r->rej_data);
	if (r->timewait_ns)
		kperf_out_fixed(run->out, "timewait_ms", r->timewait_ns, 1,
				NSEC_PER_MSEC);
	kperf_out_status(run, err);
}

static void kperf_rping_init(struct kperf_run *run, struct kperf_rping *r)
{
	r->run = run;
	r->addr = run->p.addr;
	((struct sockaddr_in *)&r->addr)->sin_port = htons(run->p.port);
	INIT_LIST_HEAD(&r->listed.node);
	r->listed.mode = "rping";
	r->listed.addr = r->addr;
	r->listen_end.run = run;
	init_completion(&r->listen_end.done);
	r->conn.run = run;
	init_completion(&r->conn.done);
	mutex_init(&r->lock);
	spin_lock_init(&r->ev_lock);
	r->event = -1;
}

/**
 * kperf_rping_run() - run one mode=rping command
 * @p: the command
 * @out: where its info and result lines go
 *
 * Everything the command made is destroyed before this returns.
 *
 * Context: process context (the writer's), sleeps.
 * Return: 0 when the command passed, else the negative errno of its
 * result line.
 */
int kperf_rping_run(const struct kperf_params *p, struct seq_buf *out)
{
	struct kperf_run *run;
	struct kperf_rping *r;
	int ret, end;

	run = kperf_run_alloc(p, out);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!run || !r) {
		kfree(run);
		kfree(r);
		return -ENOMEM;
	}
	run->rping = r;
	kperf_rping_init(run, r);
	kperf_run_clock_start(run);
	kperf_run_progress(run);
	if (kperf_rping_server(run))
		ret = kperf_rping_serve(run, r);
	else
		ret = kperf_rping_client(run, r);
	end = kperf_rping_hangup(run, r);
	if (!ret && !end && p->timewait)
		end = kperf_rping_timewait(run, r);
	ret = kperf_run_gone(run, ret ?: end);
	kperf_run_clock_stop(run);
	kperf_rping_teardown(run, r);
	kperf_rping_result(run, r, ret);
	mutex_destroy(&r->lock);
	kfree(r);
	kfree(run);
	return ret;
}

/* A refusal too long for one line once indented; its words are the interface. */
#define KPERF_RPING_KEYS \
	"mode=rping takes only role, addr, port, iters, size, verify, timewait and timeout_ms"

/**
 * kperf_rping_check() - the rules of mode=rping's keys
 * @p: a parsed command of mode=rping
 *
 * Return: what is wrong with @p, or NULL.
 */
const char *kperf_rping_check(const struct kperf_params *p)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)&p->addr;

	if (p->not_rping)
		return KPERF_RPING_KEYS;
	if (p->bind.ss_family)
		return "mode=rping takes no bind= (mode=mckey's)";
	if (p->role == KPERF_RPING_NONE)
		return "mode=rping needs role=client or role=server";
	if (p->addr.ss_family != AF_INET)
		return "mode=rping needs addr=<ipv4>";
	if (sin->sin_port)
		return "mode=rping takes its port from port=, not from addr=";
	if (p->size < KPERF_RPING_MIN_SIZE || p->size > KPERF_RPING_MAX_SIZE)
		return "mode=rping takes size=26 to size=65535, as rping does";
	if (p->iters > INT_MAX)
		return "mode=rping runs at most 2147483647 pings";
	if (!p->iters && p->role == KPERF_RPING_CLIENT)
		return "mode=rping role=client runs at least one ping (iters=)";
	return NULL;
}
