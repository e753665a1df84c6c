/* SPDX-License-Identifier: GPL-2.0-only */
/* core/cm/: the IB CM's objects, its state table and its wire, as the files of ib_cm see them. */
#ifndef RDMAOOT_CORE_CM_CM_H
#define RDMAOOT_CORE_CM_CM_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_mad.h>

#include "cm_msg.h"

/*
 * Shape of ib_cm
 *
 * A cm_id (struct cm_id_priv, cm_id.c) is one end of one connection or one
 * listener. Everything that can happen to it is an input (enum cm_input):
 * a message received for it, a verb its owner calls, its MAD send timing
 * out, its timewait running out. cm_table.c maps (state, input) to one
 * handler and the state that follows when the handler succeeds; the
 * engine there is the only code that writes id.state. Handlers live with
 * the messages they deal with (cm_conn.c, cm_disc.c, cm_rej.c, cm_sidr.c,
 * cm_teardown.c); they run under the id's lock and never sleep.
 *
 * Received MADs (cm_recv.c) are checked, decoded (cm_msg.c) and routed to
 * their id through the lookups of cm_lookup.c: local comm IDs in an
 * xarray, remote comm IDs and remote QPNs of connections, listeners by
 * service ID and mask, SIDR requests in progress. Whatever has no id to
 * go to, or arrives in a state that does not take it, is dropped and
 * counted (cm_drops). Each port counts the messages it sent and received,
 * by kind, in the sysfs files of 6.1 (cm_counters.c).
 *
 * The owner's handler gets its events from the id's work item on the CM
 * workqueue (cm_event.c), one at a time and in order; a non-zero return
 * destroys the id. Everything that touches a device (MADs, address
 * vectors) goes through struct cm_wire_ops (cm_wire.c), which the KUnit
 * suites replace to watch the engine from the outside.
 *
 * Locks, outermost first: cm_id_priv.lock (the id's state and connection),
 * cm.lock (the lookup trees and the timewait list). The xarray of local
 * IDs has its own lock; lookups in it are RCU plus a reference.
 */

/* ---- Inputs -------------------------------------------------------------- */

enum cm_input {
	/* Received messages: the same numbers as enum cm_msg_kind. */
	CM_IN_REQ = CM_MSG_REQ, CM_IN_MRA = CM_MSG_MRA, CM_IN_REJ = CM_MSG_REJ,
	CM_IN_REP = CM_MSG_REP, CM_IN_RTU = CM_MSG_RTU,
	CM_IN_DREQ = CM_MSG_DREQ, CM_IN_DREP = CM_MSG_DREP,
	CM_IN_SIDR_REQ = CM_MSG_SIDR_REQ, CM_IN_SIDR_REP = CM_MSG_SIDR_REP,
	CM_IN_LAP = CM_MSG_LAP, CM_IN_APR = CM_MSG_APR,
	/* A REJ with reason IB_CM_REJ_STALE_CONN: it may lead elsewhere. */
	CM_IN_REJ_STALE = CM_MSG_KINDS,
	/* The owner's verbs; ESTABLISH is ib_cm_notify(IB_EVENT_COMM_EST). */
	CM_IN_LISTEN, CM_IN_SEND_REQ, CM_IN_SEND_REP, CM_IN_SEND_RTU,
	CM_IN_SEND_DREQ, CM_IN_SEND_DREP, CM_IN_SEND_REJ, CM_IN_SEND_MRA,
	CM_IN_SEND_SIDR_REQ, CM_IN_SEND_SIDR_REP, CM_IN_ESTABLISH,
	CM_IN_DESTROY,
	/* Timers: the MAD layer gave up on our message; timewait is over. */
	CM_IN_TIMEOUT, CM_IN_TIMEWAIT_EXIT,
	CM_INPUTS,
};

#define CM_STATES	(IB_CM_SIDR_REQ_RCVD + 1)

/* The state a cell leaves alone. */
#define CM_SAME		0xff

/* ---- Counters (cm_counters.c) -------------------------------------------- */

enum cm_drop_reason {
	CM_DROP_MALFORMED,	/* too short, bad header, unknown attribute */
	CM_DROP_NO_ID,		/* no cm_id for its comm IDs */
	CM_DROP_STATE,		/* its cm_id's state does not take it */
	CM_DROP_DUPLICATE,	/* a retransmission we have seen */
	CM_DROP_REFUSED,	/* a handler turned it down */
	CM_DROP_REASONS,
};

/*
 * Messages ib_cm dropped since it was loaded, over all ports, by reason:
 * diagnostics of our own (6.1 has no such counters), read by KUnit.
 */
extern atomic_long_t cm_drops[CM_DROP_REASONS];

/*
 * The counter groups of a port, one sysfs directory each under
 * /sys/class/infiniband/<dev>/ports/<port>/, each a file per message kind.
 */
enum cm_count_group {
	CM_COUNT_TX,		/* cm_tx_msgs: transmissions, resends included */
	CM_COUNT_TX_RETRIES,	/* cm_tx_retries: the resends among them */
	CM_COUNT_RX,		/* cm_rx_msgs: received and taken in */
	CM_COUNT_RX_DUP,	/* cm_rx_duplicates: received again */
	CM_COUNT_GROUPS,
};

struct cm_port;
struct ib_port_attribute;

/* The groups of files, NULL-terminated (exported to KUnit). */
extern const struct attribute_group *cm_counters_groups[];
void cm_counters_init(void);
int cm_counters_publish(struct cm_port *port);
void cm_counters_unpublish(struct cm_port *port);
ssize_t cm_counters_format(struct cm_port *port,
			   struct ib_port_attribute *attr, char *buf);
void cm_counters_add_send(struct cm_port *port,
			  const struct ib_mad_send_buf *buf);

/* ---- Devices and ports (cm_device.c) ------------------------------------- */

/**
 * struct cm_port - one port of a CM device
 * @dev: the device it belongs to
 * @port_num: its number
 * @agent: the CM class agent on its QP1
 * @counts: messages sent and received on it, by enum cm_count_group and
 *	    enum cm_msg_kind; atomic, no lock (read by the sysfs files)
 */
struct cm_port {
	struct cm_device	*dev;
	u32			port_num;
	struct ib_mad_agent	*agent;
	atomic_long_t		counts[CM_COUNT_GROUPS][CM_MSG_KINDS];
};

/**
 * struct cm_device - ib_cm's client data of one device
 * @device: the device
 * @ack_delay: its local CA ACK delay (IBA time units)
 * @going_down: removal started; no new timewait timers (under cm.lock)
 * @nports: entries of @ports, by port number - 1 (NULL: no CM there)
 * @ports: the ports
 */
struct cm_device {
	struct ib_device	*device;
	u8			ack_delay;
	bool			going_down;
	u32			nports;
	struct cm_port		*ports[];
};

/* The CM port of @port_num of @device, or NULL. */
struct cm_port *cm_port_get(struct ib_device *device, u32 port_num);
int cm_device_init(void);
void cm_device_exit(void);

/* ---- Timers (cm_timeout.c) ----------------------------------------------- */

unsigned int cm_convert_to_ms(u8 iba_time);
u8 cm_ack_timeout(u8 ca_ack_delay, u8 packet_life_time);

/* ---- The cm_id ----------------------------------------------------------- */

struct cm_timewait;

/**
 * struct cm_av - the address vector of a connection's primary path
 * @port: port the connection runs on
 * @ah_attr: towards the peer's CM (and QP)
 * @valid: @ah_attr is set (and holds a GID reference)
 * @pkey_index: P_Key index of the path
 * @timeout: local ACK timeout of the path (IBA time units)
 */
struct cm_av {
	struct cm_port		*port;
	struct rdma_ah_attr	ah_attr;
	bool			valid;
	u16			pkey_index;
	u8			timeout;
};

void cm_av_move(struct cm_av *to, struct cm_av *from);
void cm_av_destroy(struct cm_av *av);

/**
 * struct cm_id_priv - a cm_id as ib_cm keeps it
 * @id: what the owner sees; id.state is written by cm_table.c only
 * @lock: protects @id.state and every field below up to @events
 * @av: where the peer is
 * @tw: the connection's entries in the remote lookups, and its timewait
 *	to be; NULL outside a connection
 * @tid: TID of the message the next answer goes out with
 * @msg: our message the MAD layer is retrying, if any
 * @timeout_ms: wait for an answer to @msg
 * @max_cm_retries: retries of @msg
 * @qp_type: RC, UC or XRC of the connection
 * @local_qpn: our QP
 * @remote_qpn: the peer's QP
 * @sq_psn: the PSN our QP sends from: the starting PSN of the message the
 *	peer sent (its REQ, or its REP)
 * @rq_psn: the PSN our QP expects first: the starting PSN of the message
 *	we sent. Each side names in its REQ or REP the PSN it will receive
 *	from, as 6.1 (and so an inbox peer) reads the field.
 * @path_mtu: MTU of the path
 * @responder_resources: ours, for the QP's RTR attributes
 * @initiator_depth: ours, for the QP's RTS attributes
 * @retry_count: for RTS
 * @rnr_retry_count: for RTS
 * @service_timeout: of the MRA we sent or owe
 * @private_data: what we sent last, for resending it (MRA, RTU, DREP)
 * @private_data_len: its length
 * @sidr_remote_id: request ID of the SIDR REQ being answered
 * @sidr_gid: sender of that SIDR REQ
 * @service_mask: of a listener
 * @listen_share: ib_cm_insert_listen() users of a listener
 * @listen_node: in cm.listen_tree (cm.lock)
 * @sidr_node: in cm.sidr_tree (cm.lock)
 * @events: events to deliver (struct cm_event_item), under @lock
 * @event_work: delivers @events
 * @destroying: destruction started: no new events (under @lock)
 * @refs: the owner's, each event queued, each message in flight, each
 *	  lookup in progress
 * @released: completed when @refs reaches zero
 * @rcu: frees the id once cm_id_acquire()'s RCU readers are done with it
 */
struct cm_id_priv {
	struct ib_cm_id		id;
	spinlock_t		lock;	/* @id.state and the members below, up to @events */
	struct cm_av		av;
	struct cm_timewait	*tw;
	__be64			tid;
	struct ib_mad_send_buf	*msg;
	unsigned int		timeout_ms;
	u8			max_cm_retries;
	enum ib_qp_type		qp_type;
	u32			local_qpn;
	u32			remote_qpn;
	u32			sq_psn;
	u32			rq_psn;
	enum ib_mtu		path_mtu;
	u8			responder_resources;
	u8			initiator_depth;
	u8			retry_count;
	u8			rnr_retry_count;
	u8			service_timeout;
	u8			private_data[IB_CM_DREP_PRIVATE_DATA_SIZE];
	u8			private_data_len;
	u32			sidr_remote_id;
	union ib_gid		sidr_gid;
	__be64			service_mask;
	int			listen_share;
	struct rb_node		listen_node;
	struct rb_node		sidr_node;
	struct list_head	events;
	struct work_struct	event_work;
	bool			destroying;
	refcount_t		refs;
	struct completion	released;
	struct rcu_head		rcu;
};

static inline struct cm_id_priv *to_cm_id_priv(struct ib_cm_id *id)
{
	return container_of(id, struct cm_id_priv, id);
}

/* cm_id.c */
struct cm_id_priv *cm_id_alloc(struct ib_device *device,
			       ib_cm_handler handler, void *context);
void cm_id_publish(struct cm_id_priv *priv);
void cm_id_get(struct cm_id_priv *priv);
void cm_id_put(struct cm_id_priv *priv);
struct cm_id_priv *cm_id_acquire(__be32 local_id, __be32 remote_id);
void cm_id_destroy(struct cm_id_priv *priv, int err);
void cm_id_set_private_data(struct cm_id_priv *priv, const void *data,
			    u8 len);
__be64 cm_id_tid(struct cm_id_priv *priv);

/* cm_event.c */
struct cm_event_item;
struct cm_event_item *cm_event_alloc(enum ib_cm_event_type type,
				     const void *private_data, u8 len);
void cm_event_queue(struct cm_id_priv *priv, struct cm_event_item *item);
struct ib_cm_event *cm_event_of(struct cm_event_item *item);
void *cm_event_room(struct cm_event_item *item);
void *cm_event_info(struct cm_event_item *item);
void cm_event_work_fn(struct work_struct *work);
void cm_event_drain(struct cm_id_priv *priv);

/* ---- Lookups (cm_lookup.c) ----------------------------------------------- */

/**
 * struct cm_timewait - a connection's identity, alive into its timewait
 * @work: ends the timewait
 * @node: in cm.timewait_list while in timewait
 * @remote_id_node: in cm.remote_id_tree (dup REQ/REP detection)
 * @remote_qpn_node: in cm.remote_qpn_tree (stale detection, live only)
 * @local_id: of the cm_id it belongs to
 * @remote_id: the peer's comm ID
 * @remote_ca_guid: the peer's CA GUID
 * @remote_qpn: the peer's QP
 * @in_id_tree: in cm.remote_id_tree (cm.lock)
 * @in_qpn_tree: in cm.remote_qpn_tree (cm.lock)
 */
struct cm_timewait {
	struct delayed_work	work;
	struct list_head	node;
	struct rb_node		remote_id_node;
	struct rb_node		remote_qpn_node;
	__be32			local_id, remote_id;
	__be64			remote_ca_guid;
	u32			remote_qpn;
	bool			in_id_tree, in_qpn_tree;
};

/**
 * struct cm_globals - what ib_cm shares between its ids
 * @lock: protects the trees, @timewait_list and cm_device.going_down
 * @listen_tree: listeners by device, service ID and mask
 * @remote_id_tree: connections by remote comm ID and CA GUID
 * @remote_qpn_tree: live connections by remote QPN and CA GUID
 * @sidr_tree: SIDR REQs being answered, by request ID and sender
 * @timewait_list: connections in timewait
 * @wq: events, timewait timers
 * @random_id_operand: mixed into every local comm ID
 */
struct cm_globals {
	spinlock_t		lock;	/* the trees, @timewait_list, going_down */
	struct rb_root		listen_tree;
	struct rb_root		remote_id_tree;
	struct rb_root		remote_qpn_tree;
	struct rb_root		sidr_tree;
	struct list_head	timewait_list;
	struct workqueue_struct	*wq;
	__be32			random_id_operand;
};

extern struct cm_globals cm;

struct cm_id_priv *cm_listen_find(struct ib_device *device,
				  __be64 service_id);
int cm_listen_insert(struct cm_id_priv *priv);
void cm_listen_erase(struct cm_id_priv *priv);
struct cm_timewait *cm_remote_id_insert(struct cm_timewait *tw);
struct cm_timewait *cm_remote_id_find(__be32 remote_id, __be64 guid);
struct cm_timewait *cm_remote_qpn_insert(struct cm_timewait *tw);
void cm_remote_erase(struct cm_timewait *tw);
struct cm_id_priv *cm_sidr_insert(struct cm_id_priv *priv);
void cm_sidr_erase(struct cm_id_priv *priv);

/* ---- Timewait (cm_timewait.c) -------------------------------------------- */

struct cm_timewait *cm_timewait_alloc(struct cm_id_priv *priv, gfp_t gfp);
void cm_timewait_enter(struct cm_id_priv *priv);
void cm_timewait_forget(struct cm_id_priv *priv);
void cm_timewait_flush(void);

/* ---- The wire (cm_wire.c) ------------------------------------------------ */

/**
 * struct cm_out - a message to send
 * @kind: what it is
 * @tid: its TID
 * @retry: keep it in cm_id_priv.msg and retry it until answered
 * @msg: the message, struct cm_msg_<kind>
 */
struct cm_out {
	enum cm_msg_kind	kind;
	__be64			tid;
	bool			retry;
	union cm_msg_any	msg;
};

/**
 * struct cm_in - one input to the table
 * @input: what happened
 * @port: where a message arrived (NULL for a verb or timer)
 * @wc: its receive completion, for answering it (NULL in KUnit)
 * @tid: its TID
 * @msg: the decoded message (struct cm_msg_<kind>) or the verb's
 *	 parameters (struct ib_cm_<verb>_param, private data, ...)
 * @err: the error that destroys an id (CM_IN_DESTROY)
 * @arg: a verb's extra parameter (MRA service timeout, REJ reason)
 * @data: a verb's private data
 * @data_len: its length
 * @ari: a REJ's ARI
 * @ari_len: its length
 * @send_buf: the timed out message (CM_IN_TIMEOUT)
 * @listener: the listener a new id's REQ or SIDR REQ matched
 * @reply: where a handler's answer to the message waits until the id's
 *	   lock is released (cm_reply()); NULL: it goes at once
 */
struct cm_in {
	enum cm_input			input;
	struct cm_port			*port;
	const struct ib_mad_recv_wc	*wc;
	__be64				tid;
	const void			*msg;
	int				err;
	int				arg;
	const void			*data;
	u8				data_len;
	const void			*ari;
	u8				ari_len;
	struct ib_mad_send_buf		*send_buf;
	struct cm_id_priv		*listener;
	struct cm_reply			*reply;
};

/*
 * struct cm_reply - an answer formatted under an id's lock, sent after it:
 * its address handle comes from the received completion, which on RoCE
 * resolves the sender's MAC and may sleep (6.1 makes it before taking
 * the lock)
 * @pending: @out is to be sent
 * @out: the answer
 */
struct cm_reply {
	bool		pending;
	struct cm_out	out;
};

/*
 * Everything the engine does to a device. @send sends @out to the peer of
 * @priv over its address vector; @reply answers the MAD @in arrived in;
 * @cancel stops retrying @priv->msg; @extend gives it @timeout_ms more;
 * @av_from_path and @av_from_wc fill an address vector (they may sleep).
 */
struct cm_wire_ops {
	int (*send)(struct cm_id_priv *priv, struct cm_out *out);
	int (*reply)(const struct cm_in *in, struct cm_out *out);
	void (*cancel)(struct cm_id_priv *priv);
	int (*extend)(struct cm_id_priv *priv, unsigned int timeout_ms);
	int (*av_from_path)(struct cm_av *av, struct ib_device *device,
			    struct sa_path_rec *path,
			    const struct ib_gid_attr *sgid_attr);
	int (*av_from_wc)(struct cm_av *av, const struct cm_in *in);
};

extern const struct cm_wire_ops *cm_wire;
void cm_wire_set(const struct cm_wire_ops *ops);
void cm_wire_send_handler(struct ib_mad_agent *agent,
			  struct ib_mad_send_wc *wc);

/*
 * Send @out to @priv's peer; answer the message of @in (from the table:
 * once the id's lock is released, through @in->reply). Each message is
 * counted on its port when the MAD layer is done with it.
 */
int cm_send(struct cm_id_priv *priv, struct cm_out *out);
int cm_reply(const struct cm_in *in, struct cm_out *out);
/* Stop retrying @priv->msg (a no-op without one). */
void cm_cancel(struct cm_id_priv *priv);

/* ---- Messages and events of a connection (cm_format.c) ------------------- */

/* ib_send_cm_req()'s work done before taking the id's lock. */
struct cm_req_prep {
	const void		*param;
	struct cm_av		av;
	struct cm_timewait	*tw;
	struct cm_out		out;
};

void cm_req_format(struct cm_id_priv *priv,
		   const struct ib_cm_req_param *param, struct cm_out *out);
enum ib_qp_type cm_req_qp_type(const struct cm_msg_req *req);
u8 cm_req_packet_life_time(const struct cm_msg_req *req);
void cm_req_event_fill(struct cm_id_priv *priv, const struct cm_in *in,
		       struct cm_event_item *item);
void cm_rep_format(struct cm_id_priv *priv,
		   const struct ib_cm_rep_param *param, struct cm_out *out);
void cm_rep_event_fill(const struct cm_msg_rep *rep,
		       struct cm_event_item *item);
void cm_rej_format(struct cm_id_priv *priv, struct cm_out *out, u16 reason,
		   const void *ari, u8 ari_len, const void *data, u8 len);
void cm_count_dup(const struct cm_in *in);
int cm_queue_simple(struct cm_id_priv *priv, enum ib_cm_event_type type,
		    const void *data, u8 len);

/* ---- Receiving (cm_recv.c) ----------------------------------------------- */

void cm_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *rwc);
int cm_recv_mad(struct cm_port *port, const struct ib_mad_recv_wc *rwc);
int cm_recv_check(const struct ib_mad_recv_wc *rwc);

/* ---- The state table (cm_table.c) ---------------------------------------- */

/*
 * A handler of one cell. It runs under the id's lock; 0 lets the engine
 * move the id to the cell's next state, a negative errno leaves the
 * state alone and is what a verb returns (a message is then dropped).
 */
typedef int (*cm_cell_fn)(struct cm_id_priv *priv, const struct cm_in *in);

struct cm_cell {
	cm_cell_fn	fn;
	u8		next;
};

/* The cell of (@state, @input); a cell with no fn is "not allowed". */
const struct cm_cell *cm_table_cell(enum ib_cm_state state,
				    enum cm_input input);
/* Feed @in to @priv, whose lock the caller holds. */
int cm_table_run(struct cm_id_priv *priv, const struct cm_in *in);
/* The same, taking the lock. */
int cm_table_feed(struct cm_id_priv *priv, const struct cm_in *in);
const char *cm_input_name(enum cm_input input);

/* Cell handlers, by the file they live in. */
/* cm_conn.c */
int cm_h_listen(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_send_req(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_req_first(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_req_dup(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_req_dup_mra(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_req_dup_stale(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_send_mra(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_mra(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_send_rep(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_rep(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_rep_dup(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_rep_dup_mra(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_rep_dup_rtu(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_send_rtu(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_rtu(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_establish(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_timeout(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_dup(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_isconn(struct cm_id_priv *priv, const struct cm_in *in);
/* cm_disc.c */
int cm_h_send_dreq(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_dreq(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_dreq_dup_drep(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_send_drep(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_drep(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_timewait_exit(struct cm_id_priv *priv, const struct cm_in *in);
/* cm_rej.c */
int cm_h_send_rej(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_rej(struct cm_id_priv *priv, const struct cm_in *in);
int cm_send_rej_reason(struct cm_id_priv *priv, u16 reason,
		       const void *ari, u8 ari_len);
int cm_dreq_send(struct cm_id_priv *priv, const void *data, u8 len,
		 bool retry);
int cm_sidr_rep_send(struct cm_id_priv *priv,
		     const struct ib_cm_sidr_rep_param *param);
/* cm_sidr.c */
int cm_h_send_sidr_req(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_sidr_req_first(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_send_sidr_rep(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_sidr_rep(struct cm_id_priv *priv, const struct cm_in *in);
/* cm_teardown.c */
int cm_h_destroy_idle(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_listen(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_req_sent(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_req_rcvd(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_rej(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_rep_sent(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_established(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_dreq_sent(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_dreq_rcvd(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_sidr_sent(struct cm_id_priv *priv, const struct cm_in *in);
int cm_h_destroy_sidr_rcvd(struct cm_id_priv *priv, const struct cm_in *in);

#endif /* RDMAOOT_CORE_CM_CM_H */
