/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/cma/: the RDMA connection manager's ids, devices, port spaces and state
 * table, as the files of rdma_cm see them.
 */
#ifndef RDMAOOT_CORE_CMA_CMA_H
#define RDMAOOT_CORE_CMA_CMA_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_cm.h>
#include <rdma/iw_cm.h>
#include <rdma/rdma_cm.h>
#include <rdma/restrack.h>

/*
 * Shape of rdma_cm
 *
 * An id (struct cma_id_priv, cma_id.c) is one end of one connection, a
 * listener, or an address being resolved. Everything that can happen to
 * it is an input (enum cma_input): a call of its owner, the result of an
 * address or route query, an event of its IB CM id, the removal of its
 * device, its destruction. cma_table.c maps (state, input) to one handler
 * and the state that follows; its engine is the only code that writes
 * cma_id_priv.state.
 *
 * Unlike ib_cm's, these handlers may sleep (they call ib_cm, the address
 * resolver, the verbs), so the engine cannot hold a spinlock around them.
 * It claims the transition first (the id is in the next state while the
 * handler runs, so a result that races with the call finds it there), and
 * puts the id back where it was if the handler fails and nothing else
 * moved it meanwhile. A claim that finds another state refuses: two
 * racing calls cannot both take one transition.
 *
 * Events reach the owner's handler with the id's handler_mutex held, one
 * at a time. The owner may call the API from inside its handler; it must
 * not destroy the id there, but returns non-zero to have it destroyed.
 *
 * Files: cma_main.c (module init/exit), cma_device.c (the ib_client:
 * devices, their ports' defaults, removal), cma_configfs.c (those
 * defaults in configfs), cma_res.c (ids in resource tracking), cma_pernet.c (port spaces per
 * network namespace), cma_id.c (create, reference, destroy), cma_event.c
 * (delivering events), cma_table.c (the state machine), cma_addr.c
 * (sockaddr helpers), cma_bind.c (rdma_bind_addr, the device of an
 * address, port allocation), cma_resolve.c (rdma_resolve_addr),
 * cma_route.c (rdma_resolve_route on RoCE, rdma_set_ib_path), cma_qp.c
 * (the id's QP and its attributes), cma_hdr.c (the CMA header of a REQ),
 * cma_conn.c (connect, accept, reject, disconnect, notify and the IB
 * CM's events), cma_listen.c (rdma_listen: a listener's IB CM listeners,
 * per device), cma_req.c (a REQ a listener takes: the new id and its
 * CONNECT_REQUEST), cma_options.c (the small setters and getters),
 * cma_strings.c (event and reject names), cma_ud.c (UD ids: SIDR),
 * cma_mcast.c (multicast groups of UD ids on RoCE), cma_neigh.c (the
 * peer's neighbour entry changing under a RoCE route), cma_netdev.c (a
 * bond's address changing under its ids), cma_iw.c (iWARP ids over
 * iw_cm: listening, connecting, accepting, iw_cm's events).
 *
 * Locks, outermost first: cma_id_priv.handler_mutex (event delivery and
 * destruction; a listener's before the new id's a REQ makes of it),
 * cma.lock (devices, bind lists, device id lists, listeners and their
 * IB CM listeners), cma_id_priv.qp_mutex (the QP and the options it is
 * built from), cma_id_priv.lock (the state).
 *
 * ib_cm's event handlers (cma_conn.c's, cma_req.c's) take handler
 * mutexes and cma.lock, and every IB CM id's event work is one lockdep
 * class: so no call that may destroy an IB CM id (ib_destroy_cm_id(),
 * ib_cm_insert_listen() failing) is made with either held. The same
 * holds for iw_cm's handlers (cma_iw.c's) and iw_destroy_cm_id().
 */

/* ---- States and inputs ---------------------------------------------------- */

/* An id's state: 6.1's values (cma_priv.h); restrack and tracing show them. */
enum rdma_cm_state {
	RDMA_CM_IDLE = 0,
	RDMA_CM_ADDR_QUERY = 1,
	RDMA_CM_ADDR_RESOLVED = 2,
	RDMA_CM_ROUTE_QUERY = 3,
	RDMA_CM_ROUTE_RESOLVED = 4,
	RDMA_CM_CONNECT = 5,
	RDMA_CM_DISCONNECT = 6,
	RDMA_CM_ADDR_BOUND = 7,
	RDMA_CM_LISTEN = 8,
	RDMA_CM_DEVICE_REMOVAL = 9,
	RDMA_CM_DESTROYING = 10,
};

#define CMA_STATES	(RDMA_CM_DESTROYING + 1)
/* The state a cell leaves alone. */
#define CMA_SAME	0xff

enum cma_input {
	/*
	 * The owner's calls: rdma_bind_addr(), rdma_resolve_addr(),
	 * rdma_resolve_route(), rdma_set_ib_path(), rdma_listen(),
	 * rdma_connect*(), rdma_accept*(), rdma_reject(), rdma_disconnect(),
	 * rdma_notify(), rdma_join_multicast().
	 */
	CMA_IN_BIND, CMA_IN_RESOLVE_ADDR, CMA_IN_RESOLVE_ROUTE,
	CMA_IN_SET_IB_PATH, CMA_IN_LISTEN, CMA_IN_CONNECT, CMA_IN_ACCEPT,
	CMA_IN_REJECT, CMA_IN_DISCONNECT, CMA_IN_NOTIFY, CMA_IN_JOIN,
	/* Results of the queries the calls started. */
	CMA_IN_ADDR_OK, CMA_IN_ADDR_ERR, CMA_IN_ROUTE_OK, CMA_IN_ROUTE_ERR,
	/*
	 * Events of the id's IB CM id, by what they mean to rdma_cm: a new id
	 * made for a REQ a listener took; REP_RECEIVED; RTU_RECEIVED or
	 * USER_ESTABLISHED; REJ_RECEIVED; REQ_ERROR, REP_ERROR or
	 * SIDR_REQ_ERROR; DREQ_RECEIVED, DREP_RECEIVED or DREQ_ERROR;
	 * TIMEWAIT_EXIT; SIDR_REP_RECEIVED (a UD id's answer).
	 */
	CMA_IN_CM_REQ, CMA_IN_CM_REP, CMA_IN_CM_ESTABLISHED, CMA_IN_CM_REJ,
	CMA_IN_CM_UNREACHABLE, CMA_IN_CM_DISCONNECT, CMA_IN_CM_TIMEWAIT_EXIT,
	CMA_IN_CM_SIDR_REP,
	/*
	 * Events of an iWARP id's iw_cm id (cma_iw.c): a new id made for a
	 * connect request an iWARP listener took; CONNECT_REPLY (any
	 * status); ESTABLISHED (the passive side's accept completed);
	 * CLOSE. iw_cm's DISCONNECT is no input: 6.1 waits for the CLOSE.
	 */
	CMA_IN_IW_REQ, CMA_IN_IW_REPLY, CMA_IN_IW_ESTABLISHED, CMA_IN_IW_CLOSE,
	/* The device goes away; the owner destroys the id. */
	CMA_IN_DEVICE_REMOVAL, CMA_IN_DESTROY,
	CMA_INPUTS,
};

/* ---- Devices (cma_device.c) ------------------------------------------------ */

/**
 * struct cma_port_defaults - what ids on one port get unless told otherwise
 * @gid_type: the RoCE GID type of their source GID
 * @roce_tos: the type of service of their RoCE traffic
 *
 * Both may change at any time through configfs (cma_configfs.c): they are
 * written and read with WRITE_ONCE()/READ_ONCE(), and an id takes what
 * they say when it needs them (attaching to the device, building a route).
 */
struct cma_port_defaults {
	enum ib_gid_type	gid_type;
	u8			roce_tos;
};

/**
 * struct cma_device - rdma_cm's client data of one device
 * @device: the device
 * @node: in cma.devices (cma.lock)
 * @ids: the ids bound to it (cma_id_priv.dev_node, cma.lock)
 * @refs: the client's, and one per id bound to it
 * @released: completed when @refs reaches zero
 * @nports: entries of @ports, by port number - rdma_start_port()
 * @ports: per port defaults
 */
struct cma_device {
	struct ib_device		*device;
	struct list_head		node;
	struct list_head		ids;
	refcount_t			refs;
	struct completion		released;
	u32				nports;
	struct cma_port_defaults	ports[];
};

void cma_device_get(struct cma_device *dev);
void cma_device_put(struct cma_device *dev);
enum ib_gid_type cma_device_gid_type(struct cma_device *dev, u32 port);
u8 cma_device_roce_tos(struct cma_device *dev, u32 port);
int cma_device_set_gid_type(struct cma_device *dev, u32 port,
			    enum ib_gid_type type);
int cma_device_set_roce_tos(struct cma_device *dev, u32 port, u8 tos);
struct cma_device *cma_device_of(struct ib_device *device);
struct cma_device *cma_device_find_by_name(const char *name);
int cma_device_init(void);
void cma_device_exit(void);

/* ---- configfs (cma_configfs.c) -------------------------------------------- */

#if IS_ENABLED(CONFIG_INFINIBAND_ADDR_TRANS_CONFIGFS)
struct configfs_subsystem;
extern struct configfs_subsystem cma_configfs_subsys;
int cma_configfs_init(void);
void cma_configfs_exit(void);
#else
/* Without configfs the defaults stay what cma_device_add() chose. */
static inline int cma_configfs_init(void)
{
	return 0;
}

static inline void cma_configfs_exit(void)
{
}
#endif

/* ---- Port spaces (cma_pernet.c) -------------------------------------------- */

/**
 * struct cma_bind - the ids bound to one port of one port space
 * @ps: the port space
 * @port: the port, host order
 * @owners: the ids (cma_id_priv.bind_node), under cma.lock
 */
struct cma_bind {
	enum rdma_ucm_port_space	ps;
	unsigned short			port;
	struct hlist_head		owners;
};

struct xarray *cma_ps_xa(struct net *net, enum rdma_ucm_port_space ps);
int cma_pernet_init(void);
void cma_pernet_exit(void);

/* ---- Resource tracking (cma_res.c) ----------------------------------------- */

struct cma_id_priv;

/**
 * struct cma_row - one row of rdma_cm's in resource tracking
 * @res: restrack's entry, of type RDMA_RESTRACK_CM_ID
 * @priv: the id the row shows
 * @device: the device it is listed on (set when it is added)
 * @listen: the row of a wildcard listener on one device (struct
 *	cma_listen's), rather than the id's own
 */
struct cma_row {
	struct rdma_restrack_entry	res;
	struct cma_id_priv		*priv;
	struct ib_device		*device;
	bool				listen;
};

void cma_res_init_row(struct cma_row *row, struct cma_id_priv *priv,
		      bool listen, const struct cma_row *owner,
		      const char *caller);
void cma_res_add(struct cma_row *row, struct ib_device *device);
void cma_res_del(struct cma_row *row);
int cma_res_init(void);
void cma_res_exit(void);

/* ---- The id (cma_id.c) ------------------------------------------------------ */

/**
 * struct cma_id_priv - an rdma_cm_id as rdma_cm keeps it
 * @id: what the owner sees
 * @state: enum rdma_cm_state; written by cma_table.c only, under @lock
 * @lock: protects @state, @reuseaddr, @afonly, @afonly_set and @mcasts
 * @handler_mutex: held while the owner's handler runs and while the id is
 *	destroyed: no event reaches an id being destroyed
 * @qp_mutex: protects @id.qp and the options it is built from (@tos,
 *	@timeout, @min_rnr_timer and their _set flags)
 * @refs: the owner's, one per piece of work in flight (a query, a work
 *	item, an event being delivered)
 * @released: completed when @refs reaches zero
 * @dev: the device the id is bound to, or NULL (cma.lock to change)
 * @dev_node: in @dev's ids (cma.lock)
 * @bind: the port the id is bound to, or NULL (cma.lock)
 * @bind_node: in @bind's owners (cma.lock)
 * @ib: the IB CM id of a connection or listener, or NULL
 * @iw: the iw_cm id of an iWARP connection, or NULL; one made for a
 *	connect that failed stays for the next try (cma_iw.c says why)
 * @work: runs a route result (and other deferred inputs) under
 *	@handler_mutex
 * @work_input: the input @work feeds
 * @work_status: the status that goes with it
 * @resolved_src: the source address the resolver found (its callback
 *	writes it, the ADDR_OK input reads it)
 * @resolve_used: rdma_resolve_ip() was called on @id's dev_addr before
 * @gid_type: the GID type of the source GID
 * @seq_num: the starting PSN of the id's QP (24 bits)
 * @qkey: of a UD id, set once (cma_ud_qkey_set(), under @qp_mutex)
 * @qp_num: a user-created QP's number (no @id.qp)
 * @srq: that QP has an SRQ
 * @backlog: of a listener
 * @timeout_ms: of the address or route query in flight
 * @tos: the type of service set by rdma_set_service_type()
 * @tos_set: @tos was set
 * @timeout: the local ACK timeout set by rdma_set_ack_timeout()
 * @timeout_set: @timeout was set
 * @min_rnr_timer: set by rdma_set_min_rnr_timer()
 * @min_rnr_timer_set: @min_rnr_timer was set
 * @reuseaddr: binding may share the port (rdma_set_reuseaddr())
 * @afonly: an IPv6 wildcard does not take IPv4 (rdma_set_afonly())
 * @afonly_set: @afonly was set; otherwise the netns's bindv6only decides
 * @ece: ECE the owner offered or the peer sent
 * @listens: a listener's IB CM listeners, one per device (struct
 *	cma_listen, cma.lock)
 * @listen_node: in cma.listeners while a listener on no device (cma.lock)
 * @mcasts: the multicast groups the id joined (struct cma_mcast, @lock)
 * @row: the id's row in resource tracking, listed while it is on a
 *	device
 * @neigh_node: in the neighbour watch while its RoCE route stands
 *	(cma_neigh.c); @id.net_work tells the owner when the peer moved
 */
struct cma_id_priv {
	struct rdma_cm_id	id;
	enum rdma_cm_state	state;
	spinlock_t		lock;		/* @state, @mcasts, the bind options */
	struct mutex		handler_mutex;	/* handler runs, destroy */
	struct mutex		qp_mutex;	/* @id.qp and its options */
	refcount_t		refs;
	struct completion	released;
	struct cma_device	*dev;
	struct list_head	dev_node;
	struct cma_bind		*bind;
	struct hlist_node	bind_node;
	struct ib_cm_id		*ib;
	struct iw_cm_id		*iw;
	struct work_struct	work;
	enum cma_input		work_input;
	int			work_status;
	struct sockaddr_storage	resolved_src;
	bool			resolve_used;
	enum ib_gid_type	gid_type;
	u32			seq_num;
	u32			qkey;
	u32			qp_num;
	u8			srq;
	int			backlog;
	unsigned long		timeout_ms;
	u8			tos;
	bool			tos_set;
	u8			timeout;
	bool			timeout_set;
	u8			min_rnr_timer;
	bool			min_rnr_timer_set;
	bool			reuseaddr;
	bool			afonly;
	bool			afonly_set;
	struct rdma_ucm_ece	ece;
	struct list_head	listens;
	struct list_head	listen_node;
	struct list_head	mcasts;
	struct cma_row		row;
	struct hlist_node	neigh_node;
};

static inline struct cma_id_priv *to_cma_id(struct rdma_cm_id *id)
{
	return container_of(id, struct cma_id_priv, id);
}

struct cma_id_priv *cma_id_alloc(struct net *net,
				 rdma_cm_event_handler handler, void *context,
				 enum rdma_ucm_port_space ps,
				 enum ib_qp_type qp_type,
				 const struct cma_row *owner, const char *caller);
void cma_id_get(struct cma_id_priv *priv);
void cma_id_put(struct cma_id_priv *priv);
/* Destroy @priv, whose handler_mutex the caller holds and this releases. */
void cma_id_destroy_unlock(struct cma_id_priv *priv);
void cma_id_remove(struct cma_id_priv *priv);
enum rdma_cm_state cma_id_state(struct cma_id_priv *priv);
void cma_id_attach(struct cma_id_priv *priv, struct cma_device *dev);
void cma_id_detach(struct cma_id_priv *priv);
struct net *cma_id_net(struct cma_id_priv *priv);

/* ---- Events (cma_event.c) --------------------------------------------------- */

int cma_event_deliver(struct cma_id_priv *priv, struct rdma_cm_event *event);
int cma_event_simple(struct cma_id_priv *priv, enum rdma_cm_event_type type,
		     int status);
void cma_work_queue(struct cma_id_priv *priv, enum cma_input input,
		    int status);
void cma_work_fn(struct work_struct *work);
extern struct workqueue_struct *cma_wq;

/* ---- The state table (cma_table.c) ------------------------------------------ */

/**
 * struct cma_in - one input to the table
 * @input: what happened
 * @from: the state the id was in (set by the engine for the handler)
 * @status: a result's status
 * @addr: rdma_bind_addr()'s or rdma_resolve_addr()'s source address
 * @dst: rdma_resolve_addr()'s destination
 * @timeout_ms: of a query
 * @path: rdma_set_ib_path()'s path
 * @backlog: rdma_listen()'s backlog
 * @conn: rdma_connect()'s or rdma_accept()'s parameters (accept: may be
 *	  NULL)
 * @data: rdma_reject()'s private data
 * @data_len: its length
 * @arg: rdma_reject()'s reason, rdma_notify()'s event
 * @cm_event: the IB CM event of a CMA_IN_CM_* input
 * @ctx: rdma_join_multicast()'s context
 * @req: what the REQ handler found out about a CMA_IN_CM_REQ's REQ
 * @iw_event: the iw_cm event of a CMA_IN_IW_* input but IW_REQ
 * @iw_req: the connect request of a CMA_IN_IW_REQ
 */
struct cma_in {
	enum cma_input			input;
	u8				from;
	int				status;
	struct sockaddr			*addr;
	const struct sockaddr		*dst;
	unsigned long			timeout_ms;
	struct sa_path_rec		*path;
	int				backlog;
	const struct rdma_conn_param	*conn;
	const void			*data;
	u8				data_len;
	int				arg;
	const struct ib_cm_event	*cm_event;
	void				*ctx;
	const struct cma_req		*req;
	const struct iw_cm_event	*iw_event;
	const struct cma_iw_req		*iw_req;
};

/**
 * struct cma_iw_req - an iWARP connect request, for the new id
 * @ev: iw_cm's CONNECT_REQUEST
 * @cm_id: the iw_cm id iw_cm made for it; the new id takes it over
 * @listener: the listener it came to, whose handler lock the cell runs
 *	      under; the new id takes its device and port
 */
struct cma_iw_req {
	const struct iw_cm_event	*ev;
	struct iw_cm_id			*cm_id;
	struct cma_id_priv		*listener;
};

/*
 * A handler of one cell. 0: the id stays in the cell's next state;
 * a negative errno: the id goes back to @in->from (unless something else
 * moved it meanwhile) and a call returns the errno; CMA_DESTROY: the owner's
 * handler asked for the id to be destroyed (the caller, who holds the
 * handler_mutex, does it).
 */
#define CMA_DESTROY	1
typedef int (*cma_cell_fn)(struct cma_id_priv *priv, struct cma_in *in);

struct cma_cell {
	cma_cell_fn	fn;
	u8		next;
};

const struct cma_cell *cma_table_cell(enum rdma_cm_state state,
				      enum cma_input input);
int cma_table_run(struct cma_id_priv *priv, struct cma_in *in);
const char *cma_input_name(enum cma_input input);
const char *cma_state_name(enum rdma_cm_state state);

/* Cell handlers, by the file they live in. */
/* cma_bind.c */
int cma_h_bind(struct cma_id_priv *priv, struct cma_in *in);
/* cma_resolve.c */
int cma_h_resolve_addr(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_addr_ok(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_addr_err(struct cma_id_priv *priv, struct cma_in *in);
/* cma_route.c */
int cma_h_resolve_route(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_set_ib_path(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_route_ok(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_route_err(struct cma_id_priv *priv, struct cma_in *in);
/* cma_conn.c */
int cma_h_connect(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_accept(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_reject(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_disconnect(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_notify(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_cm_rep(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_cm_established(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_cm_rej(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_cm_unreachable(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_cm_disconnect(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_cm_timewait_exit(struct cma_id_priv *priv, struct cma_in *in);
/* cma_ud.c */
int cma_h_cm_sidr_rep(struct cma_id_priv *priv, struct cma_in *in);
/* cma_mcast.c */
int cma_h_join(struct cma_id_priv *priv, struct cma_in *in);
/* cma_listen.c */
int cma_h_listen(struct cma_id_priv *priv, struct cma_in *in);
/* cma_req.c */
int cma_h_cm_req(struct cma_id_priv *priv, struct cma_in *in);
/* cma_iw.c */
int cma_h_iw_req(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_iw_reply(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_iw_established(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_iw_close(struct cma_id_priv *priv, struct cma_in *in);
/* cma_id.c */
int cma_h_destroy(struct cma_id_priv *priv, struct cma_in *in);
int cma_h_device_removal(struct cma_id_priv *priv, struct cma_in *in);

/* ---- Addresses (cma_addr.c) ------------------------------------------------- */

static inline struct sockaddr *cma_src_addr(struct cma_id_priv *priv)
{
	return (struct sockaddr *)&priv->id.route.addr.src_addr;
}

static inline struct sockaddr *cma_dst_addr(struct cma_id_priv *priv)
{
	return (struct sockaddr *)&priv->id.route.addr.dst_addr;
}

bool cma_addr_any(const struct sockaddr *addr);
bool cma_addr_loopback(const struct sockaddr *addr);
__be16 cma_addr_port(const struct sockaddr *addr);
void cma_addr_set_port(struct sockaddr *addr, __be16 port);
int cma_addr_cmp(const struct sockaddr *a, const struct sockaddr *b);
bool cma_addr_family_ok(const struct sockaddr *addr);

/* ---- Binding (cma_bind.c) --------------------------------------------------- */

int cma_bind_device(struct cma_id_priv *priv);
int cma_bind_port(struct cma_id_priv *priv);
int cma_bind_listen(struct cma_id_priv *priv);
void cma_bind_release(struct cma_id_priv *priv);

/* ---- The QP (cma_qp.c) ------------------------------------------------------ */

int cma_qp_ready(struct cma_id_priv *priv, const struct rdma_conn_param *conn);
int cma_qp_rtr(struct cma_id_priv *priv, const struct rdma_conn_param *conn);
int cma_qp_error(struct cma_id_priv *priv);

/* ---- Connections (cma_hdr.c, cma_conn.c) ------------------------------------ */

/* The CMA header at the front of a REQ's private data (cma_hdr.c). */
#define CMA_HDR_SIZE		36
#define CMA_HDR_VERSION		0x00
/*
 * The MRA an id owes while its owner decides (a REP without a QP, a
 * CONNECT_REQUEST not yet accepted): armed with a service timeout of 24
 * and sent only if the peer repeats itself (CM-UVERBS 0.3).
 */
#define CMA_CM_MRA_SETTING	(IB_CM_MRA_FLAG_DELAY | 24)
/*
 * What an inbox peer expects of us (CM-UVERBS 0.3): the CM response
 * timeout 20 (4096 ms each way) and 15 retries.
 */
#define CMA_CM_RESPONSE_TIMEOUT	20
#define CMA_MAX_CM_RETRIES	15
int cma_hdr_format(struct cma_id_priv *priv, void *buf);
int cma_hdr_parse(const void *data, __be64 service_id,
		  struct sockaddr_storage *src, struct sockaddr_storage *dst);
bool cma_hdr_match(struct cma_id_priv *priv, const void *data);
void cma_conn_req_param(struct cma_id_priv *priv,
			const struct rdma_conn_param *conn,
			struct ib_cm_req_param *req);
void *cma_conn_hdr_data(struct cma_id_priv *priv,
			const struct rdma_conn_param *conn, size_t room,
			u8 *len);
int cma_conn_handler(struct ib_cm_id *ib, const struct ib_cm_event *ev);
void cma_conn_adopt(struct cma_id_priv *priv, struct ib_cm_id *ib);
int cma_conn_event(struct ib_cm_id *ib, const struct ib_cm_event *ev);

/* ---- UD ids (cma_ud.c) and multicast (cma_mcast.c) ------------------------- */

int cma_ud_connect(struct cma_id_priv *priv,
		   const struct rdma_conn_param *conn);
int cma_ud_answer(struct cma_id_priv *priv, enum ib_cm_sidr_status status,
		  u32 qkey, const void *data, u8 len);
int cma_ud_qkey_set(struct cma_id_priv *priv, u32 qkey);
void cma_mcast_leave_all(struct cma_id_priv *priv);

/* ---- iWARP ids (cma_iw.c) ------------------------------------------------- */

/* Is @priv on an iWARP port (its calls go to iw_cm)? */
static inline bool cma_iw_is(struct cma_id_priv *priv)
{
	return priv->id.device &&
	       rdma_cap_iw_cm(priv->id.device, priv->id.port_num);
}

struct iw_cm_id *cma_iw_listen(struct cma_id_priv *priv,
			       struct ib_device *device);
int cma_iw_connect(struct cma_id_priv *priv,
		   const struct rdma_conn_param *conn);
int cma_iw_accept(struct cma_id_priv *priv,
		  const struct rdma_conn_param *conn);
int cma_iw_qp_attr(struct cma_id_priv *priv, struct ib_qp_attr *attr,
		   int *mask);
int cma_iw_event(struct iw_cm_id *cm_id, struct iw_cm_event *ev);
int cma_iw_req_event(struct iw_cm_id *cm_id, struct iw_cm_event *ev);

/* ---- The peers' neighbour entries (cma_neigh.c) ----------------------------- */

struct neighbour;
void cma_neigh_init_id(struct cma_id_priv *priv);
void cma_neigh_watch(struct cma_id_priv *priv);
void cma_neigh_unwatch(struct cma_id_priv *priv);
int cma_neigh_update(const struct neighbour *neigh);
int cma_neigh_init(void);
void cma_neigh_exit(void);

/* ---- A bond failing over under its ids (cma_netdev.c) ---------------------- */

struct net_device;
int cma_netdev_failover(struct net_device *ndev);
int cma_netdev_init(void);
void cma_netdev_exit(void);

/* ---- The passive side (cma_listen.c, cma_req.c) ---------------------------- */

/**
 * struct cma_req - a REQ as the REQ handler read it, for the new id
 * @ev: the IB CM's REQ_RECEIVED or SIDR_REQ_RECEIVED event
 * @cm_id: the IB CM id ib_cm made for the REQ; the new id takes it over
 * @sidr: @ev is a SIDR REQ (a UD id asks for our QP)
 * @service_id: the service ID it is for
 * @port: the port it came in on
 * @qp_type: the QP type it asks for (UD for a SIDR REQ)
 * @sgid_attr: the GID entry it came in on (RoCE), or NULL
 * @ndev: the net device of the GID entry the REQ came in on, held (RoCE);
 *	  NULL on IB
 * @src: our address: the CMA header's destination, the service ID's port
 * @dst: the peer's: the header's source address and port
 */
struct cma_req {
	const struct ib_cm_event	*ev;
	struct ib_cm_id			*cm_id;
	bool				sidr;
	__be64				service_id;
	u32				port;
	enum ib_qp_type			qp_type;
	const struct ib_gid_attr	*sgid_attr;
	struct net_device		*ndev;
	struct sockaddr_storage		src;
	struct sockaddr_storage		dst;
};

int cma_req_handler(struct ib_cm_id *ib, const struct ib_cm_event *ev);
int cma_req_spawn(struct cma_id_priv *listener, enum rdma_ucm_port_space ps,
		  enum ib_qp_type qp_type, struct cma_in *in);
int cma_listen_run(struct list_head *todo);
void cma_listen_plan_device(struct cma_device *dev, struct list_head *todo);
void cma_listen_drop_device(struct cma_device *dev, struct list_head *gone);
void cma_listen_free_all(struct list_head *gone);
void cma_listen_release(struct cma_id_priv *priv);
int cma_listen_count(struct cma_id_priv *priv);
struct ib_cm_id *cma_listen_ib(struct cma_id_priv *priv,
			       struct ib_device *device);

/* ---- Globals (cma_main.c) --------------------------------------------------- */

/**
 * struct cma_globals - what rdma_cm shares between its ids
 * @lock: protects @devices, each device's ids, every cma_bind's owners,
 *	the port spaces' contents, @listeners and each listener's listens
 * @devices: the cma_devices (cma_device.node)
 * @listeners: the listeners on no device (cma_id_priv.listen_node): a
 *	device added gets an IB CM listener for each
 */
struct cma_globals {
	struct mutex		lock;	/* devices, bindings, listeners */
	struct list_head	devices;
	struct list_head	listeners;
};

extern struct cma_globals cma;

#endif /* RDMAOOT_CORE_CMA_CMA_H */
