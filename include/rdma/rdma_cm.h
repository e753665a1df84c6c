/* SPDX-License-Identifier: GPL-2.0-only */
/* RDMA connection manager (rdma_cm): IP-addressed connection setup for IB, RoCE and iWARP. */
#ifndef RDMAOOT_RDMA_RDMA_CM_H
#define RDMAOOT_RDMA_RDMA_CM_H

#include <linux/socket.h>
#include <linux/in6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_sa.h>
#include <uapi/rdma/rdma_user_cm.h>

/* ---- Events ---------------------------------------------------------------- */

/*
 * After RDMA_CM_EVENT_DEVICE_REMOVAL the user must destroy the id and
 * release everything it allocated on that device.
 */
enum rdma_cm_event_type {
	RDMA_CM_EVENT_ADDR_RESOLVED,
	RDMA_CM_EVENT_ADDR_ERROR,
	RDMA_CM_EVENT_ROUTE_RESOLVED,
	RDMA_CM_EVENT_ROUTE_ERROR,
	RDMA_CM_EVENT_CONNECT_REQUEST,
	RDMA_CM_EVENT_CONNECT_RESPONSE,
	RDMA_CM_EVENT_CONNECT_ERROR,
	RDMA_CM_EVENT_UNREACHABLE,
	RDMA_CM_EVENT_REJECTED,
	RDMA_CM_EVENT_ESTABLISHED,
	RDMA_CM_EVENT_DISCONNECTED,
	RDMA_CM_EVENT_DEVICE_REMOVAL,
	RDMA_CM_EVENT_MULTICAST_JOIN,
	RDMA_CM_EVENT_MULTICAST_ERROR,
	RDMA_CM_EVENT_ADDR_CHANGE,
	RDMA_CM_EVENT_TIMEWAIT_EXIT
};

/* Printable name of @event. */
const char *__attribute_const__ rdma_event_msg(enum rdma_cm_event_type event);

/* IB service ids that map IP port spaces: prefix | (port space << 16) | port. */
#define RDMA_IB_IP_PS_MASK   0xFFFFFFFFFFFF0000ULL
#define RDMA_IB_IP_PS_TCP    0x0000000001060000ULL
#define RDMA_IB_IP_PS_UDP    0x0000000001110000ULL
#define RDMA_IB_IP_PS_IB     0x00000000013F0000ULL

/* ---- Addresses and routes ------------------------------------------------- */

struct rdma_addr {
	struct sockaddr_storage src_addr;
	struct sockaddr_storage dst_addr;
	struct rdma_dev_addr dev_addr;
};

#define RDMA_PRIMARY_PATH_MAX_REC_NUM 3

/*
 * @path_rec is an array of @num_pri_alt_paths entries (0: none yet,
 * 1: primary, 2: primary and alternate). The inbound/outbound records are
 * optional extra descriptions of the primary path.
 */
struct rdma_route {
	struct rdma_addr addr;
	struct sa_path_rec *path_rec;
	struct sa_path_rec *path_rec_inbound;
	struct sa_path_rec *path_rec_outbound;
	int num_pri_alt_paths;
};

/* ---- Connection parameters ------------------------------------------------ */

/*
 * Parameters of a connect/accept, and what the peer sent in a request or
 * reply event. @retry_count is not used by accept; @srq, @qp_num and
 * @qkey matter only when the id has no QP created by rdma_create_qp().
 */
struct rdma_conn_param {
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;
	u8 initiator_depth;
	u8 flow_control;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 srq;
	u32 qp_num;
	u32 qkey;
};

/* Datagram (UD) equivalent, delivered with UD/multicast events. */
struct rdma_ud_param {
	const void *private_data;
	u8 private_data_len;
	struct rdma_ah_attr ah_attr;
	u32 qp_num;
	u32 qkey;
};

/* What an event handler receives; @param is conn or ud depending on the QP type. */
struct rdma_cm_event {
	enum rdma_cm_event_type	 event;
	int			 status;
	union {
		struct rdma_conn_param	conn;
		struct rdma_ud_param	ud;
	} param;
	struct rdma_ucm_ece ece;
};

/* ---- Identifiers ------------------------------------------------------------ */

struct rdma_cm_id;

/*
 * Event callback. It runs under the id's handler lock and may sleep. It
 * must not destroy its own id (or the listener it came from) directly;
 * returning non-zero makes the CM destroy @id afterwards.
 */
typedef int (*rdma_cm_event_handler)(struct rdma_cm_id *id,
				     struct rdma_cm_event *event);

struct rdma_cm_id {
	struct ib_device	*device;
	void			*context;
	struct ib_qp		*qp;
	rdma_cm_event_handler	 event_handler;
	struct rdma_route	 route;
	enum rdma_ucm_port_space ps;
	enum ib_qp_type		 qp_type;
	u32			 port_num;
	struct work_struct net_work;
};

struct rdma_cm_id *
__rdma_create_kernel_id(struct net *net, rdma_cm_event_handler event_handler,
			void *context, enum rdma_ucm_port_space ps,
			enum ib_qp_type qp_type, const char *caller);
struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type);

/*
 * Create an id in network namespace @net (a reference is held until the
 * id is destroyed); the calling module's name is recorded for restrack.
 * Returns the id or an ERR_PTR().
 */
#define rdma_create_id(net, event_handler, context, ps, qp_type)	\
	__rdma_create_kernel_id(net, event_handler, context, ps, qp_type, \
				KBUILD_MODNAME)

/* Destroy @id, cancelling whatever it has in flight. Waits for handlers. */
void rdma_destroy_id(struct rdma_cm_id *id);

/* Give @id a local address (wildcards allowed); a specific one binds the device. */
int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);

/*
 * Active side, step 1: resolve @dst_addr (and optional @src_addr) and bind
 * @id to a device; ends with ADDR_RESOLVED or ADDR_ERROR.
 */
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr,
		      unsigned long timeout_ms);

/* Active side, step 2: find the path; ends with ROUTE_RESOLVED or ROUTE_ERROR. */
int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms);

/* Passive side: accept connection requests on the bound address. */
int rdma_listen(struct rdma_cm_id *id, int backlog);

/* ---- QPs --------------------------------------------------------------------- */

/*
 * Create a QP on @pd for @id; the CM then moves it through its states as
 * the connection progresses. Destroy it with rdma_destroy_qp() before the
 * id itself.
 */
int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr);
void rdma_destroy_qp(struct rdma_cm_id *id);

/*
 * For users managing their own QP: put the wanted state in
 * qp_attr->qp_state; the attributes and mask that ib_modify_qp() needs
 * for that transition come back filled in.
 */
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask);

/* ---- Connecting, accepting, disconnecting ---------------------------------- */

/* The _locked variants are for use from within the id's event handler. */
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param);
int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece);

int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece);

/* Take/drop the lock that serializes @id's event handler. */
void rdma_lock_handler(struct rdma_cm_id *id);
void rdma_unlock_handler(struct rdma_cm_id *id);

/*
 * Tell the CM about a QP event it cannot see itself; IB_EVENT_COMM_EST
 * (data arrived before the RTU) is the one that matters.
 */
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event);

/* Refuse a connection request or reply; @reason is used on IB only. */
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason);

/* Move the QP to the error state and start the disconnect exchange. */
int rdma_disconnect(struct rdma_cm_id *id);

/* ---- Multicast -------------------------------------------------------------- */

/*
 * Join the group for @addr with the JoinState bits in @join_state; the
 * result arrives as MULTICAST_JOIN/ERROR with @context as private_data.
 */
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context);
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr);

/* ---- Options (set before the step they affect) ------------------------------ */

/* IP type of service (DSCP/ECN byte) for the connection; before route resolution. */
void rdma_set_service_type(struct rdma_cm_id *id, int tos);
/* Allow binding to an address in use; before rdma_bind_addr(). */
int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse);
/* Restrict an IPv6 wildcard listener to IPv6; before rdma_listen(). */
int rdma_set_afonly(struct rdma_cm_id *id, int afonly);
/*
 * Local QP timers, in their IB encodings; call before rdma_connect() or
 * rdma_accept(). The ACK timeout (0 = off) applies to the primary path
 * and, when set before route resolution, also sets RoCE's packet life time.
 */
int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout);
int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer);

/* ---- Queries ----------------------------------------------------------------- */

/* The IB service id that @addr maps to in @id's port space. */
__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr);

/* Printable reason for a REJECTED event's status, per @id's transport. */
const char *__attribute_const__ rdma_reject_msg(struct rdma_cm_id *id,
						int reason);
/* The peer's private data in a consumer-defined reject, or NULL. */
const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len);

/*
 * Source and destination GIDs (either pointer may be NULL) once @id is
 * bound to a device; untouched before that. Kept for old users; new code
 * should read the route's path record.
 */
void rdma_read_gids(struct rdma_cm_id *cm_id, union ib_gid *sgid,
		    union ib_gid *dgid);

struct iw_cm_id *rdma_iw_cm_id(struct rdma_cm_id *cm_id);
struct rdma_cm_id *rdma_res_to_id(struct rdma_restrack_entry *res);

#endif /* RDMAOOT_RDMA_RDMA_CM_H */
