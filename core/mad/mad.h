/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/mad/: management datagrams on the special QPs, as the rest of ib_core
 * and the MAD files see them.
 */
#ifndef RDMAOOT_CORE_MAD_MAD_H
#define RDMAOOT_CORE_MAD_MAD_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

/*
 * Shape of the MAD layer
 *
 * Every port that speaks MADs gets a struct ib_mad_port (mad_port.c): a PD,
 * one CQ and the special QPs, QP1 (GSI) always and QP0 (SMI) where the link
 * is InfiniBand. Agents register on one of those QPs (mad_agent.c); an agent
 * that names a class, version and methods also receives the unsolicited
 * MADs that match, every agent receives the responses whose TID carries its
 * hi_tid in the upper 32 bits. Sends (mad_send.c) are posted on the QP and,
 * when they expect an answer, wait for it on their agent with a deadline
 * and a retry budget. Receives (mad_recv.c) are checked, offered to the
 * driver's process_mad, routed, or answered with an "unsupported" status
 * by the port's own responder (mad_reply.c).
 *
 * Lifetimes: an agent is counted (refs) by itself, by every send buffer
 * created on it and by every receive being delivered to it; unregistration
 * unpublishes it, cancels its sends and waits for the count to reach zero.
 * A port lives from the MAD client's add() to its remove(); agents of a
 * port hold no reference on it, so remove() requires that every agent of
 * the port is gone (the CM and SA clients are removed before us, as they
 * registered after us).
 *
 * RMPP (mad_rmpp*.c) runs for agents where ib_mad_kernel_rmpp_agent() is
 * true: a send created with rmpp_active goes out segment by segment in
 * the window the receiver's ACKs open (mad_rmpp_send.c), received
 * segments are put together into one message before the agent sees it
 * (mad_rmpp_recv.c), and mad_rmpp.c sorts the RMPP MADs an agent receives
 * by their type. Agents that do RMPP themselves (IB_MAD_USER_RMPP) get
 * every segment as it came.
 */

/* Index of a special QP in struct ib_mad_port.qps[]. */
enum ib_mad_qp_index {
	IB_MAD_QP_SMI,
	IB_MAD_QP_GSI,
	IB_MAD_QP_COUNT,
};

/* Queue depths of every special QP (6.1's defaults and module parameters). */
extern int ib_mad_sendq_size;
extern int ib_mad_recvq_size;

struct ib_mad_port;

/**
 * struct ib_mad_qp - one special QP of a port
 * @port: the port it belongs to
 * @qp: the QP, NULL where the port has no such QP (no QP0 on RoCE)
 * @lock: protects @posted, @backlog, @recvs and @closing
 * @closing: the port is going away: post nothing more, handle nothing more
 * @posted: sends on the send queue now
 * @backlog: sends waiting for room on the send queue (struct ib_mad_send)
 * @recvs: receive buffers posted and not yet completed (struct ib_mad_recv)
 */
struct ib_mad_qp {
	struct ib_mad_port	*port;
	struct ib_qp		*qp;
	spinlock_t		lock;	/* @posted, @backlog, @recvs, @closing */
	bool			closing;
	unsigned int		posted;
	struct list_head	backlog;
	struct list_head	recvs;
};

/**
 * struct ib_mad_port - the MAD state of one port
 * @node: in the device's list of MAD ports (client data of the MAD client)
 * @device: the device
 * @port_num: the port
 * @pd: PD of the QPs and of the replies' address handles
 * @cq: the one CQ every special QP of the port completes on
 * @qps: QP0 and QP1
 * @agents_lock: serialises changes of @agents (readers use RCU)
 * @agents: registered agents that receive unsolicited MADs
 * @responder: the port's own GSI/SMI senders of replies (mad_reply.c)
 * @wq: ordered workqueue of the agents' timers of this port
 */
struct ib_mad_port {
	struct list_head	node;
	struct ib_device	*device;
	u32			port_num;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	struct ib_mad_qp	qps[IB_MAD_QP_COUNT];
	spinlock_t		agents_lock;	/* writers of @agents */
	struct list_head	agents;
	struct ib_mad_agent	*responder[IB_MAD_QP_COUNT];
	struct workqueue_struct	*wq;
};

/**
 * struct ib_mad_agent_priv - an agent as the MAD layer keeps it
 * @agent: what the registrant sees
 * @port: the port, @mqp the QP it is registered on
 * @mqp: see @port
 * @reg: copy of the registration request, NULL for a responses-only agent
 * @node: in @port->agents while @reg is set (RCU list)
 * @refs: the agent itself, each send buffer, each receive in delivery
 * @released: completed when @refs reaches zero
 * @lock: protects @sends and @waiting and every field of their entries
 *	  that mad_send.c documents as under it
 * @sends: posted sends whose send completion has not arrived
 * @waiting: sent requests waiting for their answer, earliest deadline first
 * @timer: runs the deadlines of @waiting (mad_send.c)
 * @rmpp_rxs: RMPP messages being received or recently received
 *	      (struct mad_rmpp_rx of mad_rmpp_recv.c), under @lock
 * @rmpp_closing: the agent is being unregistered: no new RMPP receives
 *		  (under @lock)
 * @rcu: frees the structure after RCU readers of @port->agents are done
 */
struct ib_mad_agent_priv {
	struct ib_mad_agent	agent;
	struct ib_mad_port	*port;
	struct ib_mad_qp	*mqp;
	struct ib_mad_reg_req	*reg;
	struct list_head	node;
	refcount_t		refs;
	struct completion	released;
	spinlock_t		lock;	/* @sends, @waiting, the RMPP members */
	struct list_head	sends;
	struct list_head	waiting;
	struct delayed_work	timer;
	struct list_head	rmpp_rxs;
	bool			rmpp_closing;
	struct rcu_head		rcu;
};

static inline struct ib_mad_agent_priv *
ib_mad_agent_priv(const struct ib_mad_agent *agent)
{
	return container_of(agent, struct ib_mad_agent_priv, agent);
}

/* ---- Class facts (core/mad/mad_class.c) ---------------------------------- */

/* A vendor class of range 2 (0x30-0x4f), the ones that carry an OUI. */
bool ib_mad_class_is_vendor2(u8 mgmt_class);

/*
 * Whether a received MAD may be handled at all on QP @qp_num: base version
 * 1, SMP classes only on QP0 and the others never there, CM MADs other
 * than ClassPortInfo only with the SEND method.
 */
bool ib_mad_hdr_acceptable(const struct ib_mad_hdr *hdr, u32 qp_num);

/*
 * Turn the request @mad (a GET or SET that nobody handles) into its answer
 * in place: GET_RESP with status "unsupported method/attribute" (and the
 * direction bit for a directed-route SMP). False for any other method:
 * nothing is to be answered.
 */
bool ib_mad_make_unsupported_reply(struct ib_mad_hdr *hdr);

/* ---- Agents (core/mad/mad_agent.c) --------------------------------------- */

/* Drop a reference taken on @priv; the last one completes ->released. */
void ib_mad_agent_put(struct ib_mad_agent_priv *priv);

/*
 * The agent a received MAD goes to, with a reference, or NULL: responses
 * by their TID's upper half, requests by class, version, method (and OUI).
 * Any context.
 */
struct ib_mad_agent_priv *ib_mad_agent_route(struct ib_mad_port *port,
					     const struct ib_mad_hdr *hdr);

/*
 * Check a registration request against the rules of 6.1 (class ranges,
 * version, RMPP, which QP may carry the class); 0 or -EINVAL.
 */
int ib_mad_reg_req_check(const struct ib_mad_reg_req *req,
			 enum ib_mad_qp_index qpi, u8 rmpp_version,
			 bool has_recv_handler);

/* Whether two registrations on one QP claim a common (class, version, OUI, method). */
bool ib_mad_reg_req_overlap(const struct ib_mad_reg_req *a,
			    const struct ib_mad_reg_req *b);

/* Whether a request MAD with header @hdr is one @req asked for. */
bool ib_mad_reg_req_match(const struct ib_mad_reg_req *req,
			  const struct ib_mad_hdr *hdr);

/* ---- Sends (core/mad/mad_send.c) ----------------------------------------- */

struct ib_mad_rmpp_tx;

/**
 * struct ib_mad_send - a send buffer as the MAD layer keeps it
 * @buf: what the caller sees
 * @agent: the agent it was created on
 * @node: in the agent's @sends or @waiting list (under the agent's lock)
 * @qnode: in the QP's backlog while waiting for room (under the QP's lock)
 * @cqe: completion entry of the send WR
 * @wr: the UD send work request
 * @sge: the whole MAD on the wire, header and data
 * @wire: what @sge maps: @buf.mad itself, or the segment RMPP is sending
 * @rmpp: the RMPP state of a send created with rmpp_active, else NULL
 * @mad_size: bytes of the MAD on the wire
 * @tid: TID the answer must carry, read when posted
 * @deadline: when the answer is due (jiffies), while on @waiting
 * @max_retries: the retries the caller asked for
 * @retries_left: resends still allowed
 * @status: IB_WC_SUCCESS until the send failed or was cancelled
 * @vendor_err: for IB_WC_REM_ABORT_ERR, the RMPP status the peer gave
 * @on_wire: the send completion is owed
 * @awaits_answer: an answer is owed (for RMPP: an ACK or the response)
 * @answering: claimed by a response being delivered (ib_mad_send_claim()):
 *	only ib_mad_send_answered(), or the send completion after it,
 *	reports it; off @waiting meanwhile, so that neither the timer nor
 *	a cancel sees it
 *
 * Every field after @tid is under the agent's lock, so is all of @rmpp.
 */
struct ib_mad_send {
	struct ib_mad_send_buf	buf;
	struct ib_mad_agent_priv *agent;
	struct list_head	node;
	struct list_head	qnode;
	struct ib_cqe		cqe;
	struct ib_ud_wr		wr;
	struct ib_sge		sge;
	void			*wire;
	struct ib_mad_rmpp_tx	*rmpp;
	u32			mad_size;
	__be64			tid;
	unsigned long		deadline;
	int			max_retries;
	int			retries_left;
	enum ib_wc_status	status;
	u32			vendor_err;
	bool			on_wire;
	bool			awaits_answer;
	bool			answering;
};

static inline struct ib_mad_send *ib_mad_send(struct ib_mad_send_buf *buf)
{
	return container_of(buf, struct ib_mad_send, buf);
}

/* The delayed work of an agent's deadlines (struct ib_mad_agent_priv.timer). */
void ib_mad_send_timer_fn(struct work_struct *work);
/* Unregistration: report the waiting sends, flush those on the wire. */
void ib_mad_send_cancel_all(struct ib_mad_agent_priv *priv);
/*
 * A response for @priv arrived: claim the request it answers (same TID and
 * class, still awaiting an answer), or NULL. ib_mad_send_answered() settles
 * the claimed request after the response has been delivered.
 */
struct ib_mad_send_buf *ib_mad_send_claim(struct ib_mad_agent_priv *priv,
					  const struct ib_mad_hdr *hdr);
void ib_mad_send_answered(struct ib_mad_send_buf *buf);
/* Whether a request of @priv waits for the response @hdr (nothing claimed). */
bool ib_mad_send_expects(struct ib_mad_agent_priv *priv,
			 const struct ib_mad_hdr *hdr);
/*
 * For the RMPP engine, all with the agent's lock held: put @send on the
 * QP, wait on @waiting for @timeout_ms, and the outstanding RMPP send of
 * @priv with the TID and class of @hdr.
 */
int ib_mad_send_to_qp(struct ib_mad_send *send);
void ib_mad_send_wait(struct ib_mad_send *send, u32 timeout_ms);
struct ib_mad_send *ib_mad_send_find_rmpp(struct ib_mad_agent_priv *priv,
					  const struct ib_mad_hdr *hdr);
/* Report @send (taken off the lists, agent's lock not held). */
void ib_mad_send_report(struct ib_mad_send *send);

/* ---- RMPP sends (core/mad/mad_rmpp_send.c) -------------------------------- */

/* How long a sender waits for an ACK at most (6.1's two seconds). */
#define IB_MAD_RMPP_ACK_MS	2000

int ib_mad_rmpp_tx_alloc(struct ib_mad_send *send, int pad, gfp_t gfp);
void ib_mad_rmpp_tx_free(struct ib_mad_send *send);
void *ib_mad_rmpp_tx_segment(struct ib_mad_send *send, int seg_num);
/* With the agent's lock held: */
void ib_mad_rmpp_tx_start(struct ib_mad_send *send);
bool ib_mad_rmpp_tx_continue(struct ib_mad_send *send);
bool ib_mad_rmpp_tx_rewind(struct ib_mad_send *send);
u32 ib_mad_rmpp_tx_wait_ms(const struct ib_mad_send *send);
/* The peer's ACK, STOP or ABORT for one of @priv's RMPP sends. */
void ib_mad_rmpp_tx_ack(struct ib_mad_agent_priv *priv,
			struct ib_mad_recv_wc *rwc);
void ib_mad_rmpp_tx_stop(struct ib_mad_agent_priv *priv,
			 struct ib_mad_recv_wc *rwc);
void ib_mad_rmpp_tx_abort(struct ib_mad_agent_priv *priv,
			  struct ib_mad_recv_wc *rwc);
/* End the RMPP send matching @rwc with IB_WC_REM_ABORT_ERR and @status. */
void ib_mad_rmpp_tx_end(struct ib_mad_agent_priv *priv,
			struct ib_mad_recv_wc *rwc, u8 status);

/* ---- RMPP receives (core/mad/mad_rmpp_recv.c) ----------------------------- */

/*
 * 6.1's times: a message must be complete 40 s after its first segment,
 * and a complete one is remembered 10 s for the sender's late repeats.
 */
extern unsigned int ib_mad_rmpp_recv_timeout_ms;
extern unsigned int ib_mad_rmpp_linger_ms;

struct ib_mad_recv_wc *ib_mad_rmpp_rx_data(struct ib_mad_agent_priv *priv,
					   struct ib_mad_recv_wc *rwc);
void ib_mad_rmpp_rx_ds_ack(struct ib_mad_agent_priv *priv,
			   const struct ib_mad_recv_wc *rwc, u32 newwin);
int ib_mad_rmpp_rx_repwin(struct ib_mad_agent_priv *priv,
			  const struct ib_mad_send *send);
void ib_mad_rmpp_rx_cancel_all(struct ib_mad_agent_priv *priv);

/* ---- RMPP in common (core/mad/mad_rmpp.c) --------------------------------- */

/*
 * A MAD received by a kernel-RMPP agent: NULL when RMPP consumed it, else
 * the message to deliver (the MAD itself, or a whole reassembled one).
 */
struct ib_mad_recv_wc *ib_mad_rmpp_recv(struct ib_mad_agent_priv *priv,
					struct ib_mad_recv_wc *rwc);
/* Whether @mad carries an active RMPP header of an RMPP class. */
bool ib_mad_rmpp_active(const struct ib_mad_hdr *hdr);
/* End the RMPP send @rwc names and answer it with an ABORT of @status. */
void ib_mad_rmpp_refuse(struct ib_mad_agent_priv *priv,
			struct ib_mad_recv_wc *rwc, u8 status);
/**
 * struct ib_mad_rmpp_answer - an RMPP MAD to send back, and where to
 * @wc: copy of the answered MAD's work completion
 * @grh: copy of its GRH
 * @mad: the answer
 */
struct ib_mad_rmpp_answer {
	struct ib_wc		wc;
	struct ib_grh		grh;
	struct ib_rmpp_mad	mad;
};

struct ib_mad_rmpp_answer *
ib_mad_rmpp_answer_new(const struct ib_mad_recv_wc *rwc, u8 type, u8 status);
void ib_mad_rmpp_answer_send(struct ib_mad_agent_priv *priv,
			     struct ib_mad_rmpp_answer *ans, u32 seg_num,
			     u32 newwin);
/* Send an ACK, ABORT or STOP back to where @rwc came from. */
void ib_mad_rmpp_reply(struct ib_mad_agent_priv *priv,
		       const struct ib_mad_recv_wc *rwc, u8 type, u8 status,
		       u32 seg_num, u32 newwin);

/* ---- Receives (core/mad/mad_recv.c) --------------------------------------- */

int ib_mad_recv_fill(struct ib_mad_qp *mqp);
void ib_mad_recv_drain(struct ib_mad_qp *mqp);

/* ---- The port's own replies (core/mad/mad_reply.c) ------------------------ */

void ib_mad_reply_send(struct ib_mad_qp *mqp, const struct ib_wc *wc,
		       const struct ib_grh *grh, const struct ib_mad *mad);
int ib_mad_reply_open(struct ib_mad_port *port);
void ib_mad_reply_close(struct ib_mad_port *port);

/* ---- Ports (core/mad/mad_port.c) ----------------------------------------- */

/* The MAD port of (@device, @port_num), or NULL. */
struct ib_mad_port *ib_mad_port_find(struct ib_device *device, u32 port_num);

int ib_mad_init(void);
void ib_mad_cleanup(void);

#endif /* RDMAOOT_CORE_MAD_MAD_H */
