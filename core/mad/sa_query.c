// SPDX-License-Identifier: GPL-2.0-only
/*
 * SA queries: one request MAD to the subnet manager per query, its answer,
 * timeout or cancel reported once.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_mad.h>

#include "mad/sa.h"

/*
 * The life of a query
 *
 * A query takes a reference on its port's SM address and a use of its
 * client, builds its request in a send buffer of the port's agent and is
 * published in sa_queries under its id (which is what callers cancel it
 * by) before the buffer is posted. The MAD layer resends it while the
 * retries last and then reports it to ib_sa_query_send_handler(); an
 * answer arrives first through ib_sa_query_recv_handler(). The caller's
 * callback runs exactly once: with the answer, or with the failure the
 * send report carries (-ETIMEDOUT, -EINTR when cancelled, -EIO). The send
 * report always comes last and releases the query.
 *
 * sa_queries' lock is taken with interrupts off; a cancel holds it while
 * it reaches into the send buffer, which the send report frees only
 * after it took the query out of sa_queries.
 */

/* Resends of every query: the caller's timeout is split between them. */
#define SA_QUERY_RETRIES	10

static DEFINE_XARRAY_FLAGS(sa_queries, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);

/* The low half of the TIDs; the agent's hi_tid is the high half. */
static atomic_t sa_tid_low;

/**
 * struct ib_sa_query - one outstanding SA request
 * @port: the port it is sent from
 * @client: the SA user it counts against
 * @sm_ah: the SM address it is sent to (a reference)
 * @mad_buf: the request
 * @id: its key in sa_queries
 * @attr_id: attribute of the request, which the answer must carry
 * @resp_method: method the answer must carry
 * @rec_bytes: bytes of record the answer must at least hold
 * @answered: the receive handler ran for it (the send report then
 *	      reports nothing more)
 * @report: tells the typed query's caller; @data is the answer's record,
 *	    NULL unless @status is 0. NULL when the caller wants no callback
 * @release: frees the typed query
 */
struct ib_sa_query {
	struct ib_sa_port	*port;
	struct ib_sa_client	*client;
	struct ib_sa_sm_ah	*sm_ah;
	struct ib_mad_send_buf	*mad_buf;
	int			id;
	u16			attr_id;
	u8			resp_method;
	u8			rec_bytes;
	bool			answered;
	void			(*report)(struct ib_sa_query *query, int status,
					  void *data);
	void			(*release)(struct ib_sa_query *query);
};

/* ---- Building and sending -------------------------------------------------- */

/* The method of the answer to a request of @method. */
static u8 sa_resp_method(u8 method)
{
	/* Set is answered with GetResp (IBA 13.4.5). */
	if (method == IB_MGMT_METHOD_SET)
		return IB_MGMT_METHOD_GET_RESP;
	return method | IB_MGMT_METHOD_RESP;
}

static void sa_query_fill_hdr(struct ib_sa_query *query, u8 method,
			      ib_sa_comp_mask comp_mask)
{
	struct ib_sa_mad *mad = query->mad_buf->mad;
	u32 low = atomic_inc_return(&sa_tid_low);

	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = IB_MGMT_CLASS_SUBN_ADM;
	mad->mad_hdr.class_version = IB_SA_CLASS_VERSION;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = cpu_to_be16(query->attr_id);
	mad->mad_hdr.tid = cpu_to_be64((u64)query->port->agent->hi_tid << 32 |
				       low);
	mad->sa_hdr.comp_mask = comp_mask;
}

/*
 * Prepare @query on (@device, @port_num): SM address, send buffer and
 * header; @query->attr_id and ->rec_bytes are set by the caller. The
 * record goes into the returned buffer's data.
 */
static int sa_query_prepare(struct ib_sa_query *query,
			    struct ib_sa_client *client,
			    struct ib_device *device, u32 port_num, u8 method,
			    ib_sa_comp_mask comp_mask, gfp_t gfp)
{
	struct ib_mad_send_buf *buf;

	query->port = ib_sa_port_find(device, port_num);
	if (!query->port)
		return -ENODEV;
	/* No SM known (or no SA on the port): try again after a port event. */
	query->sm_ah = ib_sa_sm_ah_get(query->port);
	if (!query->sm_ah)
		return -EAGAIN;
	buf = ib_create_send_mad(query->port->agent, 1,
				 query->sm_ah->pkey_index, 0, IB_MGMT_SA_HDR,
				 IB_MGMT_SA_DATA, gfp, IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		ib_sa_sm_ah_put(query->sm_ah);
		return PTR_ERR(buf);
	}
	buf->ah = query->sm_ah->ah;
	buf->context[0] = query;
	query->mad_buf = buf;
	query->resp_method = sa_resp_method(method);
	sa_query_fill_hdr(query, method, comp_mask);
	ib_sa_client_get(client);
	query->client = client;
	return 0;
}

/* Undo sa_query_prepare(), then free the typed query. */
static void sa_query_free(struct ib_sa_query *query)
{
	struct ib_sa_client *client = query->client;

	ib_free_send_mad(query->mad_buf);
	ib_sa_sm_ah_put(query->sm_ah);
	query->release(query);
	ib_sa_client_put(client);
}

/* The record area of a prepared query's request. */
static void *sa_query_data(struct ib_sa_query *query)
{
	return ((struct ib_sa_mad *)query->mad_buf->mad)->data;
}

/*
 * Publish and post a prepared query; on failure it is freed. The
 * caller's handle is set before the post: the answer may come first.
 * Returns the query id or a negative errno.
 */
static int sa_query_send(struct ib_sa_query *query, unsigned long timeout_ms,
			 gfp_t gfp, struct ib_sa_query **handle)
{
	struct ib_mad_send_buf *buf = query->mad_buf;
	u32 id;
	int ret;

	ret = xa_alloc_irq(&sa_queries, &id, query, xa_limit_31b, gfp);
	if (ret)
		goto err_id;
	query->id = id;
	/* The budget is spread over the resends; below 10 ms, 1 ms each. */
	buf->timeout_ms = timeout_ms / SA_QUERY_RETRIES;
	buf->retries = SA_QUERY_RETRIES;
	if (!buf->timeout_ms) {
		buf->timeout_ms = 1;
		buf->retries = timeout_ms;
	}
	*handle = query;
	ret = ib_post_send_mad(buf, NULL);
	if (ret)
		goto err_post;
	return id;

err_post:
	*handle = NULL;
	xa_erase_irq(&sa_queries, id);
err_id:
	sa_query_free(query);
	return ret;
}

/* ---- Answers and reports ---------------------------------------------------- */

static int sa_wc_status_errno(enum ib_wc_status status)
{
	switch (status) {
	case IB_WC_SUCCESS:
		return 0;
	case IB_WC_RESP_TIMEOUT_ERR:
		return -ETIMEDOUT;
	case IB_WC_WR_FLUSH_ERR:
		return -EINTR;
	default:
		return -EIO;
	}
}

/**
 * ib_sa_query_send_handler() - The MAD layer is done with a query's request
 * @agent: the port's SA agent
 * @wc: how it ended
 *
 * Reports the failure to the caller unless an answer was reported
 * already, then releases the query.
 *
 * Context: the MAD layer's (process context, or the caller of a post).
 */
void ib_sa_query_send_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_wc *wc)
{
	struct ib_sa_query *query = wc->send_buf->context[0];
	int status = sa_wc_status_errno(wc->status);

	/* A success without an answer cannot happen: the layer waits for one. */
	if (!query->answered && query->report)
		query->report(query, status ?: -EIO, NULL);
	xa_erase_irq(&sa_queries, query->id);
	sa_query_free(query);
}

/* Count and log an answer that cannot be what @query asked for. */
static int sa_answer_bad(struct ib_sa_query *query, const char *why)
{
	atomic_inc(&query->port->bad_responses);
	pr_debug_ratelimited("SA answer to query %d on port %u dropped: %s\n",
			     query->id, query->port->port_num, why);
	return -EINVAL;
}

/*
 * Check an answer against its query: 0 with its record in *@data, or the
 * status the caller gets (-EIO for a failed receive, -EINVAL for an error
 * status from the SA or a malformed answer).
 */
static int sa_answer_check(struct ib_sa_query *query,
			   const struct ib_mad_recv_wc *rwc, void **data)
{
	struct ib_sa_mad *mad = (struct ib_sa_mad *)rwc->recv_buf.mad;
	u32 need = sizeof(struct ib_grh) + IB_MGMT_SA_HDR + query->rec_bytes;

	if (rwc->wc->status != IB_WC_SUCCESS)
		return -EIO;
	if (rwc->wc->byte_len < need)
		return sa_answer_bad(query, "truncated");
	if (mad->mad_hdr.attr_id != cpu_to_be16(query->attr_id))
		return sa_answer_bad(query, "another attribute");
	if (mad->mad_hdr.method != query->resp_method)
		return sa_answer_bad(query, "another method");
	if (mad->mad_hdr.status)
		return -EINVAL;
	*data = mad->data;
	return 0;
}

/**
 * ib_sa_query_recv_handler() - An answer arrived for a query
 * @agent: the port's SA agent
 * @send_buf: the request it answers (matched by TID); NULL for anything
 *	      unsolicited, which the SA client does not take
 * @rwc: the answer
 *
 * Context: the MAD layer's receive work (process context).
 */
void ib_sa_query_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *rwc)
{
	struct ib_sa_query *query;
	void *data = NULL;
	int status;

	if (!send_buf)
		goto out;
	query = send_buf->context[0];
	query->answered = true;
	if (query->report) {
		status = sa_answer_check(query, rwc, &data);
		query->report(query, status, status ? NULL : data);
	}
out:
	ib_free_recv_mad(rwc);
}

/**
 * ib_sa_cancel_query() - Cancel an SA query
 * @id: the id the query was started with
 * @query: the handle the query was started with
 *
 * If @id still names @query, its request is cancelled and its callback
 * runs with -EINTR (from the MAD layer's context, maybe before this
 * returns). A query that has completed already is left alone.
 *
 * Context: any; does not sleep.
 */
void ib_sa_cancel_query(int id, struct ib_sa_query *query)
{
	unsigned long flags;

	xa_lock_irqsave(&sa_queries, flags);
	if (xa_load(&sa_queries, id) == query)
		ib_cancel_mad(query->mad_buf);
	xa_unlock_irqrestore(&sa_queries, flags);
}
EXPORT_SYMBOL(ib_sa_cancel_query);

/* ---- PathRecord ----------------------------------------------------------------- */

struct sa_path_query {
	struct ib_sa_query	q;
	void			(*callback)(int status, struct sa_path_rec *resp,
					    int num_paths, void *context);
	void			*context;
	bool			to_opa;
};

static void sa_path_report(struct ib_sa_query *q, int status, void *data)
{
	struct sa_path_query *query = container_of(q, struct sa_path_query, q);
	struct sa_path_rec rec = {}, opa = {};

	if (!data) {
		query->callback(status, NULL, 0, query->context);
		return;
	}
	ib_sa_unpack_path(data, &rec);
	if (!query->to_opa) {
		query->callback(status, &rec, 1, query->context);
		return;
	}
	sa_convert_path_ib_to_opa(&opa, &rec);
	query->callback(status, &opa, 1, query->context);
}

static void sa_path_release(struct ib_sa_query *q)
{
	kfree(container_of(q, struct sa_path_query, q));
}

/* An OPA path is asked for in IB form: only with a LID that fits 16 bits. */
static int sa_path_opa_check(struct ib_device *device, u32 port_num)
{
	struct ib_port_attr attr;

	if (ib_query_port(device, port_num, &attr))
		return -EINVAL;
	return attr.lid < be16_to_cpu(IB_MULTICAST_LID_BASE) ? 0 : -EINVAL;
}

/**
 * ib_sa_path_rec_get() - Ask the SA for a path
 * @client: the SA user
 * @device: the device
 * @port_num: the port to ask from
 * @rec: the path's known fields (an IB or OPA path)
 * @comp_mask: which fields of @rec the SA must match (IB_SA_PATH_REC_*)
 * @timeout_ms: how long to wait for the answer, over all resends
 * @gfp_mask: allocation flags
 * @callback: gets the result once: status 0 with one path (OPA when
 *	@rec was), or -ETIMEDOUT, -EINTR (cancelled), -EIO (send or
 *	receive failed) or -EINVAL (the SA answered with an error status,
 *	or malformed) with no path; may be NULL
 * @context: for @callback
 * @sa_query: set to the query's handle, for ib_sa_cancel_query()
 *
 * Sends a SubnAdmGet(PathRecord) on QP1 to the subnet manager's LID as
 * the port's attributes give it. Ports without an SA (RoCE, iWARP) have
 * none to ask: a device with no such port fails with -ENODEV. Multiple
 * path answers (GetTable, RMPP) and the local SA cache service of 6.1
 * (ibacm over netlink) are not implemented.
 *
 * Context: any allowed by @gfp_mask; the callback runs in process
 * context, maybe before this returns.
 * Return: the query id (>= 0), or -ENODEV (no SA on the device),
 * -EINVAL (a RoCE path, or an OPA path on a port with a large LID),
 * -EAGAIN (no subnet manager known yet), -ENOMEM, or the post's error.
 */
int ib_sa_path_rec_get(struct ib_sa_client *client, struct ib_device *device,
		       u32 port_num, struct sa_path_rec *rec,
		       ib_sa_comp_mask comp_mask, unsigned long timeout_ms,
		       gfp_t gfp_mask,
		       void (*callback)(int status, struct sa_path_rec *resp,
					int num_prs, void *context),
		       void *context, struct ib_sa_query **sa_query)
{
	struct sa_path_query *query;
	int ret;

	if (!ib_sa_port_find(device, port_num))
		return -ENODEV;
	if (rec->rec_type != SA_PATH_REC_TYPE_IB &&
	    rec->rec_type != SA_PATH_REC_TYPE_OPA)
		return -EINVAL;
	if (sa_path_is_opa(rec) && sa_path_opa_check(device, port_num))
		return -EINVAL;

	query = kzalloc(sizeof(*query), gfp_mask);
	if (!query)
		return -ENOMEM;
	query->callback = callback;
	query->context = context;
	query->to_opa = sa_path_is_opa(rec);
	query->q.attr_id = IB_SA_ATTR_PATH_REC;
	query->q.rec_bytes = 64;
	query->q.report = callback ? sa_path_report : NULL;
	query->q.release = sa_path_release;
	ret = sa_query_prepare(&query->q, client, device, port_num,
			       IB_MGMT_METHOD_GET, comp_mask, gfp_mask);
	if (ret) {
		kfree(query);
		return ret;
	}
	ib_sa_pack_path(rec, sa_query_data(&query->q));
	return sa_query_send(&query->q, timeout_ms, gfp_mask, sa_query);
}
EXPORT_SYMBOL(ib_sa_path_rec_get);

/* ---- MCMemberRecord -------------------------------------------------------------- */

struct sa_mcmember_query {
	struct ib_sa_query	q;
	void			(*callback)(int status,
					    struct ib_sa_mcmember_rec *resp,
					    void *context);
	void			*context;
};

static void sa_mcmember_report(struct ib_sa_query *q, int status, void *data)
{
	struct sa_mcmember_query *query =
		container_of(q, struct sa_mcmember_query, q);
	struct ib_sa_mcmember_rec rec;

	if (!data) {
		query->callback(status, NULL, query->context);
		return;
	}
	ib_sa_mcmember_unpack(data, &rec);
	query->callback(status, &rec, query->context);
}

static void sa_mcmember_release(struct ib_sa_query *q)
{
	kfree(container_of(q, struct sa_mcmember_query, q));
}

int ib_sa_mcmember_rec_query(struct ib_sa_client *client,
			     struct ib_device *device, u32 port_num, u8 method,
			     struct ib_sa_mcmember_rec *rec,
			     ib_sa_comp_mask comp_mask,
			     unsigned long timeout_ms, gfp_t gfp_mask,
			     void (*callback)(int status,
					      struct ib_sa_mcmember_rec *resp,
					      void *context),
			     void *context, struct ib_sa_query **sa_query)
{
	struct sa_mcmember_query *query;
	int ret;

	query = kzalloc(sizeof(*query), gfp_mask);
	if (!query)
		return -ENOMEM;
	query->callback = callback;
	query->context = context;
	query->q.attr_id = IB_SA_ATTR_MC_MEMBER_REC;
	query->q.rec_bytes = IB_SA_MCMEMBER_REC_BYTES;
	query->q.report = callback ? sa_mcmember_report : NULL;
	query->q.release = sa_mcmember_release;
	ret = sa_query_prepare(&query->q, client, device, port_num, method,
			       comp_mask, gfp_mask);
	if (ret) {
		kfree(query);
		return ret;
	}
	ib_sa_mcmember_pack(rec, sa_query_data(&query->q));
	return sa_query_send(&query->q, timeout_ms, gfp_mask, sa_query);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_mcmember_rec_query);

/* ---- GUIDInfoRecord --------------------------------------------------------------- */

struct sa_guidinfo_query {
	struct ib_sa_query	q;
	void			(*callback)(int status,
					    struct ib_sa_guidinfo_rec *resp,
					    void *context);
	void			*context;
};

static void sa_guidinfo_report(struct ib_sa_query *q, int status, void *data)
{
	struct sa_guidinfo_query *query =
		container_of(q, struct sa_guidinfo_query, q);
	struct ib_sa_guidinfo_rec rec;

	if (!data) {
		query->callback(status, NULL, query->context);
		return;
	}
	ib_sa_guidinfo_unpack(data, &rec);
	query->callback(status, &rec, query->context);
}

static void sa_guidinfo_release(struct ib_sa_query *q)
{
	kfree(container_of(q, struct sa_guidinfo_query, q));
}

/**
 * ib_sa_guid_info_rec_query() - Read or change a port's GUIDInfoRecord
 * @client: the SA user
 * @device: the device
 * @port_num: the port to ask from
 * @rec: the record (LID and block number select it)
 * @comp_mask: which fields the SA must match (IB_SA_GUIDINFO_REC_*)
 * @method: IB_MGMT_METHOD_GET, IB_MGMT_METHOD_SET or IB_SA_METHOD_DELETE
 * @timeout_ms: how long to wait for the answer, over all resends
 * @gfp_mask: allocation flags
 * @callback: gets the result once, as for ib_sa_path_rec_get(); may be
 *	NULL
 * @context: for @callback
 * @sa_query: set to the query's handle, for ib_sa_cancel_query()
 *
 * Context: as ib_sa_path_rec_get().
 * Return: the query id (>= 0), or -ENODEV (no SA on the device),
 * -EINVAL (another method), -EAGAIN (no subnet manager known yet),
 * -ENOMEM, or the post's error.
 */
int ib_sa_guid_info_rec_query(struct ib_sa_client *client,
			      struct ib_device *device,
			      u32 port_num, struct ib_sa_guidinfo_rec *rec,
			      ib_sa_comp_mask comp_mask, u8 method,
			      unsigned long timeout_ms, gfp_t gfp_mask,
			      void (*callback)(int status,
					       struct ib_sa_guidinfo_rec *resp,
					       void *context),
			      void *context, struct ib_sa_query **sa_query)
{
	struct sa_guidinfo_query *query;
	int ret;

	if (!ib_sa_port_find(device, port_num))
		return -ENODEV;
	if (method != IB_MGMT_METHOD_GET && method != IB_MGMT_METHOD_SET &&
	    method != IB_SA_METHOD_DELETE)
		return -EINVAL;

	query = kzalloc(sizeof(*query), gfp_mask);
	if (!query)
		return -ENOMEM;
	query->callback = callback;
	query->context = context;
	query->q.attr_id = IB_SA_ATTR_GUID_INFO_REC;
	query->q.rec_bytes = IB_SA_GUIDINFO_REC_BYTES;
	query->q.report = callback ? sa_guidinfo_report : NULL;
	query->q.release = sa_guidinfo_release;
	ret = sa_query_prepare(&query->q, client, device, port_num, method,
			       comp_mask, gfp_mask);
	if (ret) {
		kfree(query);
		return ret;
	}
	ib_sa_guidinfo_pack(rec, sa_query_data(&query->q));
	return sa_query_send(&query->q, timeout_ms, gfp_mask, sa_query);
}
EXPORT_SYMBOL(ib_sa_guid_info_rec_query);

/* ---- Module ------------------------------------------------------------------------ */

/*
 * Start the TIDs somewhere else on every load: a late answer to a query
 * of a previous instance must not match one of ours.
 */
void ib_sa_query_init(void)
{
	atomic_set(&sa_tid_low, get_random_u32());
}
