// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_kperf: mode=mad, management datagrams between the QP1s of two ports
 * through the MAD API of <rdma/ib_mad.h>: requests answered by an agent of
 * the peer (echo), left to the peer's MAD layer (unmatched), ignored until
 * the retries run out (timeout), or cancelled (cancel). With rmpp=1 the
 * echoed messages are RMPP messages of a vendor class of range 2, many
 * segments each way.
 */

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include "kperf.h"

/* A vendor class of range 1 that no agent of either stack registers. */
#define KPERF_MAD_CLASS		0x0a
#define KPERF_MAD_VERSION	1
#define KPERF_MAD_ATTR		cpu_to_be16(0x4b50)	/* "KP" */
/* rmpp=1: a vendor class of range 2 (RMPP, an OUI), 2000 bytes a message. */
#define KPERF_MAD_RMPP_CLASS	0x3a
#define KPERF_MAD_OUI		0x4b5046		/* "KPF" */
#define KPERF_MAD_RMPP_LEN	2000
#define KPERF_MAD_RMPP_SEG	(IB_MGMT_MAD_SIZE - IB_MGMT_VENDOR_HDR)

/**
 * struct kperf_mad - one mode=mad command
 * @run: the command
 * @req: the requester: a responses-only agent on dev's QP1
 * @resp: the responder on peer's QP1 (class KPERF_MAD_CLASS, GET), if any
 * @ah: from dev to peer, on @req's PD
 * @done: completed by @req's send handler
 * @resp_done: completed by @resp's send handler (an echo sent)
 * @resp_status: status of the last echo's send completion
 * @status: status of the last send completion
 * @retries: resends of the last request
 * @answers: answers the requester received, @bad the ones that were wrong
 * @bad: see @answers
 * @seq: number of the request in flight (its TID's low half)
 * @pattern: rmpp=1: the data of the request in flight
 */
struct kperf_mad {
	struct kperf_run *run;
	struct ib_mad_agent *req, *resp;
	struct ib_ah *ah;
	struct completion done, resp_done;
	enum ib_wc_status status, resp_status;
	int retries;
	u32 answers, bad, seq;
	u8 *pattern;
};

static u8 kperf_mad_class(const struct kperf_params *p)
{
	return p->mad_rmpp ? KPERF_MAD_RMPP_CLASS : KPERF_MAD_CLASS;
}

/* Vendor range 2: our OUI, in a registration or after the RMPP header. */
static void kperf_mad_put_oui(u8 *oui)
{
	oui[0] = KPERF_MAD_OUI >> 16;
	oui[1] = (KPERF_MAD_OUI >> 8) & 0xff;
	oui[2] = KPERF_MAD_OUI & 0xff;
}

static void kperf_mad_set_oui(void *mad)
{
	kperf_mad_put_oui(((struct ib_vendor_mad *)mad)->oui);
}

/*
 * Copy the data of an RMPP message, segment after segment, to @out
 * (@len bytes at most); how many bytes were there.
 */
static size_t kperf_mad_gather(struct ib_mad_recv_wc *rwc, u8 *out, size_t len)
{
	struct ib_mad_recv_buf *seg;
	size_t got = 0, n;

	list_for_each_entry(seg, &rwc->rmpp_list, list) {
		n = min_t(size_t, len - got, KPERF_MAD_RMPP_SEG);
		memcpy(out + got, (u8 *)seg->mad + IB_MGMT_VENDOR_HDR, n);
		got += n;
		if (got == len)
			break;
	}
	return got;
}

/* Spread @len bytes of @data over the segments of @buf. */
static void kperf_mad_scatter(struct ib_mad_send_buf *buf, const u8 *data,
			      size_t len)
{
	size_t off, n;
	int seg;

	for (off = 0, seg = 1; off < len; off += n, seg++) {
		n = min_t(size_t, len - off, buf->seg_size);
		memcpy(ib_get_rmpp_segment(buf, seg), data + off, n);
	}
}

/* ---- The peer's responder ------------------------------------------------- */

static void kperf_mad_resp_sent(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	struct kperf_mad *km = agent->context;
	struct ib_ah *ah = wc->send_buf->ah;

	km->resp_status = wc->status;
	ib_free_send_mad(wc->send_buf);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	complete(&km->resp_done);
}

/*
 * rmpp=1: the answer is an RMPP message as long as the request, headers
 * and data copied from it; NULL when the request is not one or no memory.
 */
static struct ib_mad_send_buf *kperf_mad_echo_rmpp(struct ib_mad_agent *agent,
						   struct ib_mad_recv_wc *rwc)
{
	int len = rwc->mad_len - IB_MGMT_VENDOR_HDR;
	struct ib_mad_send_buf *buf;
	u8 *data;

	if (len <= 0 || len > KPERF_MAD_RMPP_LEN)
		return NULL;
	data = kmalloc(len, GFP_KERNEL);
	if (!data)
		return NULL;
	buf = ib_create_send_mad(agent, rwc->wc->src_qp, rwc->wc->pkey_index,
				 1, IB_MGMT_VENDOR_HDR, len, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		kfree(data);
		return NULL;
	}
	memcpy(buf->mad, rwc->recv_buf.mad, sizeof(struct ib_mad_hdr));
	kperf_mad_set_oui(buf->mad);
	kperf_mad_gather(rwc, data, len);
	kperf_mad_scatter(buf, data, len);
	kfree(data);
	return buf;
}

/* mad=echo: the request comes back as its GET_RESP, data and all. */
static void kperf_mad_echo(struct ib_mad_agent *agent,
			   struct ib_mad_recv_wc *rwc, bool rmpp)
{
	struct ib_mad_send_buf *buf;
	struct ib_mad_hdr *hdr;
	struct ib_ah *ah;

	ah = ib_create_ah_from_wc(agent->qp->pd, rwc->wc, rwc->recv_buf.grh,
				  agent->port_num);
	if (IS_ERR(ah))
		return;
	if (rmpp) {
		buf = kperf_mad_echo_rmpp(agent, rwc);
		if (!buf) {
			rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
			return;
		}
	} else {
		buf = ib_create_send_mad(agent, rwc->wc->src_qp,
					 rwc->wc->pkey_index, 0,
					 IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA,
					 GFP_KERNEL, IB_MGMT_BASE_VERSION);
		if (IS_ERR(buf)) {
			rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
			return;
		}
		memcpy(buf->mad, rwc->recv_buf.mad, IB_MGMT_MAD_SIZE);
	}
	hdr = buf->mad;
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	buf->ah = ah;
	if (ib_post_send_mad(buf, NULL)) {
		ib_free_send_mad(buf);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	}
}

static void kperf_mad_resp_recv(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *rwc)
{
	struct kperf_mad *km = agent->context;

	if (km->run->p.mad == KPERF_MAD_ECHO)
		kperf_mad_echo(agent, rwc, km->run->p.mad_rmpp);
	/* mad=timeout and mad=cancel: the request is never answered. */
	ib_free_recv_mad(rwc);
}

/* ---- dev's requester ------------------------------------------------------ */

static void kperf_mad_req_sent(struct ib_mad_agent *agent,
			       struct ib_mad_send_wc *wc)
{
	struct kperf_mad *km = agent->context;

	km->status = wc->status;
	km->retries = wc->send_buf->retries;
	ib_free_send_mad(wc->send_buf);
	complete(&km->done);
}

/*
 * An answer: echo wants our request back as a GET_RESP with status 0,
 * unmatched the peer's MAD layer saying "unsupported method/attribute".
 */
static bool kperf_mad_answer_ok(struct kperf_mad *km,
				const struct ib_mad_send_buf *req,
				const struct ib_mad *ans)
{
	const struct ib_mad *sent = req->mad;
	u16 want = km->run->p.mad == KPERF_MAD_ECHO ? 0 :
		   IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;

	if (ans->mad_hdr.method != IB_MGMT_METHOD_GET_RESP ||
	    be16_to_cpu(ans->mad_hdr.status) != want ||
	    ans->mad_hdr.tid != sent->mad_hdr.tid ||
	    ans->mad_hdr.attr_id != KPERF_MAD_ATTR)
		return false;
	return !memcmp(ans->data, sent->data, sizeof(ans->data));
}

/* rmpp=1: the whole message came back, as long as sent, data intact. */
static bool kperf_mad_answer_rmpp_ok(struct kperf_mad *km,
				     const struct ib_mad_send_buf *req,
				     struct ib_mad_recv_wc *rwc)
{
	const struct ib_mad_hdr *sent = req->mad, *ans = &rwc->recv_buf.mad->mad_hdr;
	u8 *got;
	bool ok;

	if (ans->method != IB_MGMT_METHOD_GET_RESP || ans->status ||
	    ans->tid != sent->tid || ans->attr_id != KPERF_MAD_ATTR ||
	    rwc->mad_len != IB_MGMT_VENDOR_HDR + KPERF_MAD_RMPP_LEN)
		return false;
	got = kmalloc(KPERF_MAD_RMPP_LEN, GFP_KERNEL);
	if (!got)
		return false;
	ok = kperf_mad_gather(rwc, got, KPERF_MAD_RMPP_LEN) ==
	     KPERF_MAD_RMPP_LEN &&
	     !memcmp(got, km->pattern, KPERF_MAD_RMPP_LEN);
	kfree(got);
	return ok;
}

static void kperf_mad_req_recv(struct ib_mad_agent *agent,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *rwc)
{
	struct kperf_mad *km = agent->context;

	/* Only answers reach a responses-only agent, each with its request. */
	if (send_buf && (km->run->p.mad_rmpp ?
			 kperf_mad_answer_rmpp_ok(km, send_buf, rwc) :
			 kperf_mad_answer_ok(km, send_buf, rwc->recv_buf.mad)))
		km->answers++;
	else
		km->bad++;
	ib_free_recv_mad(rwc);
}

/* ---- Setup ---------------------------------------------------------------- */

static int kperf_mad_agents(struct kperf_mad *km)
{
	struct kperf_run *run = km->run;
	struct ib_mad_reg_req reg = {
		.mgmt_class = kperf_mad_class(&run->p),
		.mgmt_class_version = KPERF_MAD_VERSION,
	};
	struct kperf_side *s0 = &run->side[0], *s1 = &run->side[1];
	u8 rmpp = run->p.mad_rmpp ? IB_MGMT_RMPP_VERSION : 0;
	int ret;

	if (rmpp)
		kperf_mad_put_oui(reg.oui);
	km->req = ib_register_mad_agent(s0->ibdev, s0->port, IB_QPT_GSI, NULL,
					rmpp, kperf_mad_req_sent,
					kperf_mad_req_recv, km, 0);
	if (IS_ERR(km->req)) {
		ret = PTR_ERR(km->req);
		km->req = NULL;
		return kperf_run_fail(run, ret, "MAD agent on %s refused",
				      dev_name(&s0->ibdev->dev));
	}
	if (run->p.mad == KPERF_MAD_UNMATCHED)
		return 0;
	__set_bit(IB_MGMT_METHOD_GET, reg.method_mask);
	km->resp = ib_register_mad_agent(s1->ibdev, s1->port, IB_QPT_GSI, &reg,
					 rmpp, kperf_mad_resp_sent,
					 kperf_mad_resp_recv, km, 0);
	if (IS_ERR(km->resp)) {
		ret = PTR_ERR(km->resp);
		km->resp = NULL;
		return kperf_run_fail(run, ret, "MAD agent for class 0x%x on %s refused",
				      reg.mgmt_class, dev_name(&s1->ibdev->dev));
	}
	return 0;
}

static int kperf_mad_ah(struct kperf_mad *km)
{
	struct kperf_run *run = km->run;
	struct rdma_ah_attr attr;

	kperf_conn_av(&attr, &run->side[0], &run->side[1]);
	km->ah = rdma_create_ah(km->req->qp->pd, &attr,
				RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(km->ah)) {
		int ret = PTR_ERR(km->ah);

		km->ah = NULL;
		return kperf_run_fail(run, ret, "rdma_create_ah for QP1 of %s failed",
				      dev_name(&run->side[0].ibdev->dev));
	}
	return 0;
}

static void kperf_mad_close(struct kperf_mad *km)
{
	if (km->ah)
		rdma_destroy_ah(km->ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (km->resp)
		ib_unregister_mad_agent(km->resp);
	if (km->req)
		ib_unregister_mad_agent(km->req);
}

/* ---- One request ---------------------------------------------------------- */

static int kperf_mad_post(struct kperf_mad *km, struct ib_mad_send_buf **out)
{
	struct kperf_run *run = km->run;
	struct ib_mad_send_buf *buf;
	struct ib_mad_hdr *hdr;
	int ret;

	bool rmpp = run->p.mad_rmpp;

	if (rmpp)
		buf = ib_create_send_mad(km->req, 1, 0, 1, IB_MGMT_VENDOR_HDR,
					 KPERF_MAD_RMPP_LEN, GFP_KERNEL,
					 IB_MGMT_BASE_VERSION);
	else
		buf = ib_create_send_mad(km->req, 1, 0, 0, IB_MGMT_MAD_HDR,
					 IB_MGMT_MAD_DATA, GFP_KERNEL,
					 IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf))
		return kperf_run_fail(run, PTR_ERR(buf), "ib_create_send_mad failed");
	hdr = buf->mad;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = kperf_mad_class(&run->p);
	hdr->class_version = KPERF_MAD_VERSION;
	hdr->method = IB_MGMT_METHOD_GET;
	hdr->tid = cpu_to_be64(((u64)km->req->hi_tid << 32) | km->seq);
	hdr->attr_id = KPERF_MAD_ATTR;
	if (rmpp) {
		kperf_mad_set_oui(hdr);
		kperf_data_fill(km->pattern, KPERF_MAD_RMPP_LEN, km->seq,
				KPERF_SALT_DATA);
		kperf_mad_scatter(buf, km->pattern, KPERF_MAD_RMPP_LEN);
	} else {
		kperf_data_fill(((struct ib_mad *)hdr)->data, IB_MGMT_MAD_DATA,
				km->seq, KPERF_SALT_DATA);
	}
	buf->ah = km->ah;
	buf->timeout_ms = run->p.mad_resp_ms;
	buf->retries = run->p.mad_retries;
	reinit_completion(&km->done);
	reinit_completion(&km->resp_done);
	ret = ib_post_send_mad(buf, NULL);
	if (ret) {
		ib_free_send_mad(buf);
		return kperf_run_fail(run, ret, "ib_post_send_mad failed");
	}
	*out = buf;
	return 0;
}

/* Wait for a send handler (@done), watching the devices. */
static int kperf_mad_wait(struct kperf_mad *km, struct completion *done)
{
	struct kperf_run *run = km->run;
	int ret;

	kperf_run_progress(run);
	while (!wait_for_completion_timeout(done, msecs_to_jiffies(10))) {
		ret = kperf_run_idle(run);
		if (ret)
			return ret;
	}
	return 0;
}

/* What mad=@case expects of the completion of one request. */
static int kperf_mad_judge(struct kperf_mad *km, ktime_t t0)
{
	struct kperf_run *run = km->run;
	const struct kperf_params *p = &run->p;
	s64 ms = ktime_ms_delta(ktime_get(), t0);
	/* A deadline can come up to a jiffy early against wall time. */
	s64 least = (s64)(p->mad_retries + 1) *
		    (p->mad_resp_ms - jiffies_to_msecs(1));

	switch (p->mad) {
	case KPERF_MAD_TIMEOUT:
		if (km->status != IB_WC_RESP_TIMEOUT_ERR)
			break;
		if (km->retries != p->mad_retries)
			return kperf_run_fail(run, -EIO, "%d resends reported, %u expected",
					      km->retries, p->mad_retries);
		if (ms < least)
			return kperf_run_fail(run, -EIO,
					      "timed out after %lld ms, %lld at least expected",
					      ms, least);
		return 0;
	case KPERF_MAD_CANCEL:
		if (km->status == IB_WC_WR_FLUSH_ERR)
			return 0;
		break;
	default:
		if (km->status != IB_WC_SUCCESS)
			break;
		if (km->bad || km->answers != km->seq + 1)
			return kperf_run_fail(run, -EBADMSG,
					      "%u answers right, %u wrong after %u requests",
					      km->answers, km->bad, km->seq + 1);
		return 0;
	}
	run->res.wc = km->status;
	return kperf_run_fail(run, -EIO, "request %u completed with %s",
			      km->seq, kperf_wc_name(km->status));
}

/*
 * rmpp=1: the echo is an RMPP send of the peer, done when our last ACK
 * reached it (which may come after our request completed). Waiting for
 * it checks that ACK and keeps the next round, or the unregistration,
 * from overtaking it (an ACK for an agent gone is answered "unsupported").
 */
static int kperf_mad_echo_done(struct kperf_mad *km)
{
	struct kperf_run *run = km->run;
	int ret = kperf_mad_wait(km, &km->resp_done);

	if (ret || km->resp_status == IB_WC_SUCCESS)
		return ret;
	run->res.wc = km->resp_status;
	return kperf_run_fail(run, -EIO, "echo %u completed with %s", km->seq,
			      kperf_wc_name(km->resp_status));
}

static int kperf_mad_rounds(struct kperf_mad *km)
{
	struct kperf_run *run = km->run;
	struct ib_mad_send_buf *buf;
	ktime_t t0;
	int ret;

	kperf_run_clock_start(run);
	for (km->seq = 0; km->seq < run->p.iters; km->seq++) {
		t0 = ktime_get();
		ret = kperf_mad_post(km, &buf);
		if (ret)
			return ret;
		if (run->p.mad == KPERF_MAD_CANCEL)
			ib_cancel_mad(buf);
		ret = kperf_mad_wait(km, &km->done) ?: kperf_mad_judge(km, t0);
		if (!ret && run->p.mad_rmpp)
			ret = kperf_mad_echo_done(km);
		if (ret)
			return ret;
		run->res.msgs++;
		run->res.bytes += run->p.mad_rmpp ? KPERF_MAD_RMPP_LEN :
						    IB_MGMT_MAD_SIZE;
	}
	kperf_run_clock_stop(run);
	return 0;
}

/**
 * kperf_mad_check() - the rules of a mode=mad command
 * @p: the parsed command
 *
 * Return: what is wrong with it, or NULL.
 */
const char *kperf_mad_check(const struct kperf_params *p)
{
	u64 longest = (u64)p->mad_resp_ms * (p->mad_retries + 1);

	if (p->iters > 100000)
		return "mode=mad allows at most 100000 iters";
	if (p->mad == KPERF_MAD_TIMEOUT && longest >= p->timeout_ms)
		return "mad=timeout needs timeout_ms above resp_ms * (retries + 1)";
	if (p->mad_rmpp && p->mad != KPERF_MAD_ECHO)
		return "rmpp=1 needs mad=echo";
	return NULL;
}

/**
 * kperf_mad_run() - run a mode=mad command
 * @run: the command, both sides open (no connections)
 *
 * Registers the agents, sends @iters GETs one after the other from dev's
 * QP1 to peer's and checks how each ends (see the file comment and
 * Documentation/kperf.rst), then unregisters everything.
 *
 * Context: process context (the writer's), sleeps.
 * Return: 0, or a negative errno with the reason recorded in @run.
 */
int kperf_mad_run(struct kperf_run *run)
{
	struct kperf_mad *km = kzalloc(sizeof(*km), GFP_KERNEL);
	int ret;

	if (!km)
		return kperf_run_fail(run, -ENOMEM, "no memory");
	km->run = run;
	init_completion(&km->done);
	init_completion(&km->resp_done);
	if (run->p.mad_rmpp) {
		km->pattern = kmalloc(KPERF_MAD_RMPP_LEN, GFP_KERNEL);
		if (!km->pattern) {
			kfree(km);
			return kperf_run_fail(run, -ENOMEM, "no memory");
		}
	}
	ret = kperf_mad_agents(km) ?: kperf_mad_ah(km);
	if (!ret)
		ret = kperf_mad_rounds(km);
	kperf_mad_close(km);
	kfree(km->pattern);
	kfree(km);
	return ret;
}
