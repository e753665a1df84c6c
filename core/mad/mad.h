/* SPDX-License-Identifier: GPL-2.0-only */
/* core/mad/: management datagrams on the special QPs, as the rest of ib_core and the MAD files see them. */
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
	spinlock_t		lock;
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
	spinlock_t		agents_lock;
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
	spinlock_t		lock;
	struct list_head	sends;
	struct list_head	waiting;
	struct delayed_work	timer;
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
