/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/iwcm/: iw_cm's ids, their event queues and their state table, as the
 * files of iw_cm see them.
 */
#ifndef RDMAOOT_CORE_IWCM_IWCM_H
#define RDMAOOT_CORE_IWCM_IWCM_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/iw_cm.h>

/*
 * Shape of iw_cm
 *
 * An id (struct iwcm_id_priv, iwcm_id.c) is a listener or one end of one
 * connection. What the id's owner asks for (the exported calls of
 * iwcm_verbs.c) and what its driver reports (upcalls through
 * iw_cm_id.event_handler) are inputs (enum iwcm_input) to one table,
 * iwcm_table.c: (state, input) -> cell handler and next state. Handlers
 * (iwcm_cells.c) run under the id's lock and never sleep; what must
 * happen outside the lock (calling the driver, moving the QP, dropping a
 * QP reference, waking waiters) they write down in struct iwcm_effects,
 * which the engine carries out once the lock is dropped.
 *
 * Upcalls may come in atomic context and must not allocate: each id owns
 * a pool of event entries, filled when it starts listening (the backlog),
 * connecting (4) or is born from a request (3); an upcall takes a free
 * entry, copies the event and its private data into it and queues it on
 * the id (iwcm_event.c). The id's work item, on one ordered workqueue,
 * feeds the queued events to the table one at a time, in order, and hands
 * them to the owner's handler; a non-zero return destroys the id.
 *
 * Port mapping (the iwpm netlink protocol with iwpmd) is not done: every
 * id behaves as on a device with IW_F_NO_PORT_MAP whose mapping is the
 * identity, i.e. m_local_addr and m_remote_addr are the real addresses
 * (iwcm_addr.c).
 *
 * References (iwcm_id_priv.refs): the owner's, one per queued event and
 * one per iw_cm_id.add_ref() of the driver. Destroying waits for a
 * handler in progress and for connect/accept to be answered, not for the
 * driver's references: the id is freed when the last one goes.
 */

/* ---- Inputs -------------------------------------------------------------- */

enum iwcm_input {
	/* The owner's calls. */
	IWCM_IN_LISTEN, IWCM_IN_CONNECT, IWCM_IN_ACCEPT, IWCM_IN_REJECT,
	IWCM_IN_DISCONNECT, IWCM_IN_QP_ATTR, IWCM_IN_DESTROY,
	/* The driver refused what one of the calls above asked of it. */
	IWCM_IN_LISTEN_FAILED, IWCM_IN_CONNECT_FAILED, IWCM_IN_ACCEPT_FAILED,
	/* A new id takes over a connect request its listener received. */
	IWCM_IN_ADOPT,
	/* The driver's upcalls; CONNECT_REPLY splits on its status. */
	IWCM_IN_EV_CONNECT_REQUEST,
	IWCM_IN_EV_CONNECT_REPLY, IWCM_IN_EV_CONNECT_REPLY_ERR,
	IWCM_IN_EV_ESTABLISHED, IWCM_IN_EV_DISCONNECT, IWCM_IN_EV_CLOSE,
	IWCM_INPUTS,
};

/*
 * The id states of 6.1: IDLE (nothing going on, or all over), LISTEN
 * (the driver listens for us), CONN_RECV (a request waits for accept or
 * reject), CONN_SENT (our connect waits for the reply), ESTABLISHED,
 * CLOSING (one side started closing), DESTROYING (the owner let go:
 * events are dropped).
 */
enum iwcm_state {
	IWCM_IDLE, IWCM_LISTEN, IWCM_CONN_RECV, IWCM_CONN_SENT,
	IWCM_ESTABLISHED, IWCM_CLOSING, IWCM_DESTROYING,
	IWCM_STATES,
};

/* The state a cell leaves alone. */
#define IWCM_SAME	0xff

/* ---- The id -------------------------------------------------------------- */

/**
 * struct iwcm_id_priv - an iw_cm_id as iw_cm keeps it
 * @id: what the owner and the driver see
 * @lock: protects every field below up to @wait; taken with interrupts
 *	  off, as upcalls may come from interrupt context
 * @state: written by iwcm_table_run() only
 * @pending: a connect or accept is in the driver's hands and its answer
 *	     (CONNECT_REPLY, ESTABLISHED) not yet handled, or a reject is
 *	     in progress; disconnect and destroy wait for it to clear
 * @qp: the connection's QP, with a reference taken by iw_add_ref
 * @free: event entries ready for upcalls (struct iwcm_event_entry)
 * @queue: events waiting to be handled, oldest first
 * @work_queued: @work is queued or running and will see @queue empty
 *		 before it stops
 * @wait: where disconnect and destroy wait for @pending to clear
 * @work: handles @queue
 * @refs: see "Shape of iw_cm" above
 */
struct iwcm_id_priv {
	struct iw_cm_id		id;
	spinlock_t		lock;	/* the fields below, to @wait */
	enum iwcm_state		state;
	bool			pending;
	struct ib_qp		*qp;
	struct list_head	free;
	struct list_head	queue;
	bool			work_queued;
	wait_queue_head_t	wait;
	struct work_struct	work;
	refcount_t		refs;
};

static inline struct iwcm_id_priv *to_iwcm_id_priv(struct iw_cm_id *id)
{
	return container_of(id, struct iwcm_id_priv, id);
}

/**
 * struct iwcm_event_entry - room for one event, taken from its id's pool
 * @node: on iwcm_id_priv.free or .queue; off both while being handled
 * @event: a copy of the driver's event; private_data points to @data
 * @data: a copy of its private data
 */
struct iwcm_event_entry {
	struct list_head	node;
	struct iw_cm_event	event;
	u8			data[U8_MAX];
};

/* Entries an id reserves for its connection, as 6.1 does. */
#define IWCM_ENTRIES_ACTIVE	4	/* CONNECT_REPLY, ESTABLISHED, DISCONNECT, CLOSE */
#define IWCM_ENTRIES_PASSIVE	3	/* ESTABLISHED, DISCONNECT, CLOSE */

/**
 * struct iwcm_globals - what iw_cm shares between its ids
 * @wq: ordered: one event of one id is handled at a time, as in 6.1
 * @entries: the slab of struct iwcm_event_entry
 * @live: ids not yet freed; module exit waits for zero
 * @default_backlog: net.iw_cm.default_backlog, the backlog of a listen
 *		     that asks for 0
 */
struct iwcm_globals {
	struct workqueue_struct	*wq;
	struct kmem_cache	*entries;
	atomic_t		live;
	int			default_backlog;
};

extern struct iwcm_globals iwcm;

/* iwcm_id.c */
struct iwcm_id_priv *iwcm_id_alloc(struct ib_device *device,
				   iw_cm_handler handler, void *context);
void iwcm_id_get(struct iwcm_id_priv *priv);
void iwcm_id_put(struct iwcm_id_priv *priv);
int iwcm_id_destroy(struct iwcm_id_priv *priv);
void iwcm_id_pending_wait(struct iwcm_id_priv *priv);
void iwcm_id_pending_end(struct iwcm_id_priv *priv);
bool iwcm_fault_alloc(void);

/* iwcm_pool.c; iwcm_fault_allocs: an allocation the KUnit suites make fail */
extern atomic_t iwcm_fault_allocs;
int iwcm_pool_alloc(struct list_head *pool, int count);
void iwcm_pool_free(struct list_head *pool);

/* iwcm_event.c */
int iwcm_event_upcall(struct iw_cm_id *cm_id, struct iw_cm_event *event);
void iwcm_event_work_fn(struct work_struct *work);
bool iwcm_event_on_wq(void);

/* iwcm_request.c */
void iwcm_request_spawn(struct iwcm_id_priv *listener,
			struct iw_cm_event *event);

/* iwcm_addr.c */
void iwcm_addr_map(struct iw_cm_id *cm_id);
void iwcm_addr_adopt(struct iw_cm_id *cm_id, const struct iw_cm_event *ev);
void iwcm_addr_reply(struct iw_cm_id *cm_id, struct iw_cm_event *ev);

/* ---- The state table (iwcm_table.c) -------------------------------------- */

/* What the driver is asked to do once the id's lock is dropped. */
enum iwcm_call {
	IWCM_CALL_NONE,
	IWCM_CALL_DESTROY_LISTEN,	/* iw_destroy_listen */
	IWCM_CALL_REJECT,		/* iw_reject without private data */
	IWCM_CALL_QP_SQD,		/* ib_modify_qp(SQD): graceful close */
	IWCM_CALL_QP_ERR,		/* ib_modify_qp(ERR): abortive close */
};

/**
 * struct iwcm_effects - what a cell wants done outside the id's lock
 * @call: the driver call, in this order first
 * @qp: the QP for @call, whose reference (iw_add_ref) is dropped after it
 * @notify: hand the event to the owner's handler (for a listener's
 *	    CONNECT_REQUEST: to a new id, then to the handler)
 * @wake: wake those waiting for iwcm_id_priv.pending to clear
 */
struct iwcm_effects {
	enum iwcm_call	call;
	struct ib_qp	*qp;
	bool		notify;
	bool		wake;
};

/**
 * struct iwcm_in - one input to the table
 * @input: what happened
 * @event: the driver's event (IWCM_IN_EV_*, ADOPT), ours to change
 * @qp: the QP of a connect or accept (from iw_get_qp; NULL if none)
 * @pool: event entries for LISTEN, CONNECT and ADOPT; a cell that takes
 *	  them leaves the list empty
 * @abrupt: DISCONNECT resets the connection
 * @qp_attr: QP_ATTR: the state asked about, and the attributes to fill
 * @qp_attr_mask: QP_ATTR: the mask to fill
 * @fx: filled by the cell
 */
struct iwcm_in {
	enum iwcm_input		input;
	struct iw_cm_event	*event;
	struct ib_qp		*qp;
	struct list_head	*pool;
	bool			abrupt;
	struct ib_qp_attr	*qp_attr;
	int			*qp_attr_mask;
	struct iwcm_effects	fx;
};

/* A cell lets go of the id's QP: dropped once the lock is released. */
static inline void iwcm_qp_release(struct iwcm_id_priv *priv,
				   struct iwcm_in *in)
{
	in->fx.qp = priv->qp;
	priv->qp = NULL;
}

/*
 * A handler of one cell: under the id's lock, never sleeping. 0 lets the
 * engine move the id to the cell's next state; a negative errno leaves
 * the state alone and is what the owner's call returns.
 */
typedef int (*iwcm_cell_fn)(struct iwcm_id_priv *priv, struct iwcm_in *in);

struct iwcm_cell {
	iwcm_cell_fn	fn;
	u8		next;
};

const struct iwcm_cell *iwcm_table_cell(enum iwcm_state state,
					enum iwcm_input input);
int iwcm_table_run(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_table_feed(struct iwcm_id_priv *priv, struct iwcm_in *in);
void iwcm_effects_apply(struct iwcm_id_priv *priv, struct iwcm_effects *fx);
const char *iwcm_input_name(enum iwcm_input input);
const char *iwcm_state_name(enum iwcm_state state);

/* Cell handlers (iwcm_cells.c). */
int iwcm_h_listen(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_connect(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_accept(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_reject(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_adopt(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_undo(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_request(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_reply(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_reply_err(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_established(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_close(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_ignore(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_qp_attr(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_disconnect(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_destroy(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_destroy_listen(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_destroy_request(struct iwcm_id_priv *priv, struct iwcm_in *in);
int iwcm_h_destroy_abort(struct iwcm_id_priv *priv, struct iwcm_in *in);

#endif /* RDMAOOT_CORE_IWCM_IWCM_H */
