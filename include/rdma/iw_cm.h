/* SPDX-License-Identifier: GPL-2.0-only */
/* iWARP connection manager (iw_cm): TCP-based connection setup between its users and iWARP drivers. */
#ifndef RDMAOOT_RDMA_IW_CM_H
#define RDMAOOT_RDMA_IW_CM_H

#include <linux/in.h>
#include <rdma/ib_cm.h>

struct iw_cm_id;

/* ---- Events ----------------------------------------------------------------- */

enum iw_cm_event_type {
	IW_CM_EVENT_CONNECT_REQUEST = 1,	/* passive: peer wants to connect */
	IW_CM_EVENT_CONNECT_REPLY,		/* active: answer to our connect */
	IW_CM_EVENT_ESTABLISHED,		/* passive: accept completed */
	IW_CM_EVENT_DISCONNECT,			/* peer closed gracefully */
	IW_CM_EVENT_CLOSE			/* connection fully torn down */
};

/*
 * One event. @provider_data is the driver's handle for a pending
 * connection request; @ord/@ird are the peer's read depths.
 */
struct iw_cm_event {
	enum iw_cm_event_type event;
	int			 status;
	struct sockaddr_storage local_addr;
	struct sockaddr_storage remote_addr;
	void *private_data;
	void *provider_data;
	u8 private_data_len;
	u8 ord;
	u8 ird;
};

/* How iw_cm delivers events to its user (rdma_cm). */
typedef int (*iw_cm_handler)(struct iw_cm_id *cm_id,
			     struct iw_cm_event *event);

/* How a driver delivers events to iw_cm; 0 or a negative errno. */
typedef int (*iw_event_handler)(struct iw_cm_id *cm_id,
				 struct iw_cm_event *event);

/* ---- Identifiers ------------------------------------------------------------ */

/*
 * @local_addr/@remote_addr are the addresses the user asked for;
 * @m_local_addr/@m_remote_addr the ones after port mapping (what the
 * driver actually uses). @add_ref/@rem_ref let the driver pin the id.
 */
struct iw_cm_id {
	iw_cm_handler		cm_handler;
	void			*context;
	struct ib_device	*device;
	struct sockaddr_storage local_addr;
	struct sockaddr_storage	remote_addr;
	struct sockaddr_storage m_local_addr;
	struct sockaddr_storage	m_remote_addr;
	void			*provider_data;
	iw_event_handler	event_handler;
	void (*add_ref)(struct iw_cm_id *cm_id);
	void (*rem_ref)(struct iw_cm_id *cm_id);
	u8  tos;
	bool tos_set:1;
	bool mapped:1;
	bool afonly:1;
};

struct iw_cm_conn_param {
	const void *private_data;
	u16 private_data_len;
	u32 ord;
	u32 ird;
	u32 qpn;
};

/* Driver flags (ib_device iw_driver_flags). */
enum iw_flags {
	/*
	 * Mappings are still registered with the port mapper, but with the
	 * real port, and no socket reserves it: lets a software iWARP
	 * device coexist with mapped ports.
	 */
	IW_F_NO_PORT_MAP = (1 << 0),
};

/* New id on @device; ERR_PTR() on failure. */
struct iw_cm_id *iw_create_cm_id(struct ib_device *device,
				 iw_cm_handler cm_handler, void *context);
/* No events are delivered for @cm_id once this returns. */
void iw_destroy_cm_id(struct iw_cm_id *cm_id);

/* ---- Driver side ------------------------------------------------------------ */

/*
 * Drop the association between @cm_id and @qp (and the references that
 * go with it); used by drivers destroying a QP and by iw_cm itself.
 */
void iw_cm_unbind_qp(struct iw_cm_id *cm_id, struct ib_qp *qp);
/* The QP with number @qpn on @device, or NULL. */
struct ib_qp *iw_cm_get_qp(struct ib_device *device, int qpn);

/* ---- Connection management -------------------------------------------------- */

/* Listen on cm_id->local_addr with up to @backlog pending requests. */
int iw_cm_listen(struct iw_cm_id *cm_id, int backlog);

/*
 * Accept the request that created @cm_id. Events may arrive before this
 * returns; after an error return none will.
 */
int iw_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param);

/* Refuse the request; @private_data may be reused once this returns. */
int iw_cm_reject(struct iw_cm_id *cm_id, const void *private_data,
		 u8 private_data_len);

/* Connect to cm_id->remote_addr; same event rules as iw_cm_accept(). */
int iw_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param);

/*
 * Close gracefully, or reset if @abrupt. The id stays in use until
 * IW_CM_EVENT_CLOSE is delivered.
 */
int iw_cm_disconnect(struct iw_cm_id *cm_id, int abrupt);

/* Attributes and mask for moving the id's QP to qp_attr->qp_state. */
int iw_cm_init_qp_attr(struct iw_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask);

/* Printable text for a reject status. */
const char *__attribute_const__ iwcm_reject_msg(int reason);

#endif /* RDMAOOT_RDMA_IW_CM_H */
