/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/mad/: the SA client (subnet administration queries and multicast joins)
 * as its files see each other.
 */
#ifndef RDMAOOT_CORE_MAD_SA_H
#define RDMAOOT_CORE_MAD_SA_H

#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_sa.h>

/*
 * Shape of the SA client
 *
 * sa_client.c is an ib_client: on every port with an SA (InfiniBand ports,
 * never RoCE) it registers a send-only MAD agent of class SubnAdm on QP1
 * and keeps an address handle towards the subnet manager, rebuilt when
 * the port's events say the SM or our LID may have moved. sa_query.c
 * sends one SA request per query through that agent and turns the answer
 * (or the MAD layer's timeout, cancel or error) into the caller's
 * callback, exactly once. sa_record.c knows the wire layouts of the
 * records other than PathRecord (sa_path.c). sa_mcast.c keeps one group
 * per (port, MGID) and joins or leaves it at the SA on behalf of all its
 * local members.
 *
 * Every query and every multicast member counts as a user of the
 * struct ib_sa_client it was made for; ib_sa_unregister_client() waits
 * until none is left.
 */

/**
 * struct ib_sa_sm_ah - where a port's SA requests go
 * @ref: the port and every query using it
 * @ah: address handle to the SM's LID and SL
 * @pkey_index: index of the default P_Key, sent with every request
 * @src_path_mask: the path bits the port's LMC allows
 */
struct ib_sa_sm_ah {
	struct kref	ref;
	struct ib_ah	*ah;
	u16		pkey_index;
	u8		src_path_mask;
};

struct ib_sa_device;

/**
 * struct ib_sa_port - the SA state of one port
 * @dev: the device it belongs to
 * @port_num: the port
 * @agent: the SubnAdm agent on QP1; NULL on a port without an SA
 * @ah_lock: protects @sm_ah
 * @sm_ah: the current SM address, NULL while unknown
 * @update_work: rebuilds @sm_ah after a port event
 * @bad_responses: answers that were malformed (wrong attribute, method
 *		   or length); reported to their query as -EINVAL
 */
struct ib_sa_port {
	struct ib_sa_device	*dev;
	u32			port_num;
	struct ib_mad_agent	*agent;
	spinlock_t		ah_lock;	/* @sm_ah */
	struct ib_sa_sm_ah	*sm_ah;
	struct work_struct	update_work;
	atomic_t		bad_responses;
};

/**
 * struct ib_sa_device - the SA client data of a device
 * @device: the device
 * @event_handler: port events that invalidate @ports[].sm_ah
 * @start_port: the first port number (@ports[0])
 * @nports: entries of @ports
 * @ports: one per port of the device
 */
struct ib_sa_device {
	struct ib_device	*device;
	struct ib_event_handler	event_handler;
	u32			start_port;
	u32			nports;
	struct ib_sa_port	ports[];
};

struct ib_sa_query;

/* ---- Clients (core/mad/sa_client.c) ---------------------------------------- */

static inline void ib_sa_client_get(struct ib_sa_client *client)
{
	atomic_inc(&client->users);
}

static inline void ib_sa_client_put(struct ib_sa_client *client)
{
	if (atomic_dec_and_test(&client->users))
		complete(&client->comp);
}

/*
 * The SA port (@device, @port_num), or NULL: no SA client data on the
 * device (no port has an SA) or a port number out of range. The port's
 * @agent may still be NULL (a RoCE port of a mixed device).
 */
struct ib_sa_port *ib_sa_port_find(struct ib_device *device, u32 port_num);

/* The port's SM address with a reference, or NULL while it is unknown. */
struct ib_sa_sm_ah *ib_sa_sm_ah_get(struct ib_sa_port *port);
void ib_sa_sm_ah_put(struct ib_sa_sm_ah *sm_ah);

int ib_sa_init(void);
void ib_sa_cleanup(void);

/* ---- Queries (core/mad/sa_query.c) ----------------------------------------- */

/* The handlers of every port's agent: answers and send reports of queries. */
void ib_sa_query_send_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_wc *wc);
void ib_sa_query_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *wc);

void ib_sa_query_init(void);

/* Timeout, in ms, of the multicast joins and leaves (6.1's value). */
#define IB_SA_MCAST_TIMEOUT_MS	3000

/*
 * Send an MCMemberRecord request (@method: IB_MGMT_METHOD_SET to join,
 * IB_SA_METHOD_DELETE to leave). Conventions as ib_sa_path_rec_get().
 */
int ib_sa_mcmember_rec_query(struct ib_sa_client *client,
			     struct ib_device *device, u32 port_num, u8 method,
			     struct ib_sa_mcmember_rec *rec,
			     ib_sa_comp_mask comp_mask,
			     unsigned long timeout_ms, gfp_t gfp_mask,
			     void (*callback)(int status,
					      struct ib_sa_mcmember_rec *resp,
					      void *context),
			     void *context, struct ib_sa_query **sa_query);

/* ---- Record layouts (core/mad/sa_record.c) --------------------------------- */

/* Bytes of the records on the wire. */
#define IB_SA_MCMEMBER_REC_BYTES	52
#define IB_SA_GUIDINFO_REC_BYTES	72

void ib_sa_mcmember_pack(const struct ib_sa_mcmember_rec *rec, void *wire);
void ib_sa_mcmember_unpack(const void *wire, struct ib_sa_mcmember_rec *rec);
void ib_sa_guidinfo_pack(const struct ib_sa_guidinfo_rec *rec, void *wire);
void ib_sa_guidinfo_unpack(const void *wire, struct ib_sa_guidinfo_rec *rec);

/* ---- Multicast (core/mad/sa_mcast.c) --------------------------------------- */

int ib_sa_mcast_init(void);
void ib_sa_mcast_cleanup(void);

#endif /* RDMAOOT_CORE_MAD_SA_H */
