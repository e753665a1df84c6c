// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_mad_rmpp: RMPP over the MAD layer of a mock port, segment
 * by segment (core/mad/mad_rmpp*.c).
 */
/*
 * The test registers an agent of a vendor class of range 2 with RMPP on
 * the mock port of sa_fixture.h and plays the peer on the far side of
 * QP1: it reads the segments, ACKs and ABORTs the MAD layer posts (the
 * mock transmits every send at once) and delivers the peer's segments,
 * ACKs, STOPs and ABORTs. The expected wire values are written from IBA
 * 13.6, not from the code.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/module.h>
#include <rdma/ib_mad.h>

#include "core/mad/mad.h"
#include "kunit/mad/sa_fixture.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define VCLASS		0x30
#define VOUI		0x001405
#define PEER_QP		1
#define PEER_LID	0x0022
/* Vendor range 2: common header, RMPP header, OUI: 40 bytes. */
#define HDR		IB_MGMT_VENDOR_HDR
#define SEG		(IB_MGMT_MAD_SIZE - HDR)
#define RMPP_SEG	IB_MGMT_RMPP_DATA
#define MAX_RECVS	4

/* What the agent's handlers saw. */
struct rmpp_log {
	spinlock_t lock;	/* protects the counters and arrays */
	int nrecv;
	struct ib_mad_recv_wc *recv[MAX_RECVS];
	struct ib_mad_send_buf *recv_req[MAX_RECVS];
	int nsent;
	int nfailed;
	enum ib_wc_status status;
	u32 vendor_err;
	int retries;
	struct completion recv_done;
	struct completion send_done;
};

/**
 * struct rmpp_fix - one test's agent on the fixture's port
 * @sa: the mock device and its port (sa_fixture.h)
 * @agent: vendor class 0x30 with RMPP, GET and SET
 * @ah: address handle to the peer
 * @recv_timeout_ms: ib_mad_rmpp_recv_timeout_ms before the test
 * @sendq_size: ib_mad_sendq_size before the test
 * @log: what the handlers saw
 */
struct rmpp_fix {
	struct sa_fix *sa;
	struct ib_mad_agent *agent;
	struct ib_ah *ah;
	unsigned int recv_timeout_ms;
	int sendq_size;
	struct rmpp_log log;
};

/* The test running: sa_fix_setup() owns test->priv until it succeeded. */
static struct rmpp_fix *rmpp_cur;

static void rmpp_send_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_wc *wc)
{
	struct rmpp_log *log = agent->context;

	spin_lock(&log->lock);
	log->nsent++;
	log->nfailed += wc->status != IB_WC_SUCCESS;
	log->status = wc->status;
	log->vendor_err = wc->vendor_err;
	log->retries = wc->send_buf->retries;
	spin_unlock(&log->lock);
	ib_free_send_mad(wc->send_buf);
	complete(&log->send_done);
}

static void rmpp_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *req,
			      struct ib_mad_recv_wc *rwc)
{
	struct rmpp_log *log = agent->context;
	bool kept = false;

	spin_lock(&log->lock);
	if (log->nrecv < MAX_RECVS) {
		log->recv_req[log->nrecv] = req;
		log->recv[log->nrecv++] = rwc;
		kept = true;
	}
	spin_unlock(&log->lock);
	if (!kept)
		ib_free_recv_mad(rwc);
	complete(&log->recv_done);
}

static struct ib_mad_agent *rmpp_register(struct kunit *test, u8 rmpp,
					  u32 flags)
{
	struct rmpp_fix *fix = test->priv;
	struct ib_mad_reg_req req = {
		.mgmt_class = VCLASS,
		.mgmt_class_version = 1,
		.oui = { (VOUI >> 16) & 0xff, (VOUI >> 8) & 0xff, VOUI & 0xff },
	};

	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	return ib_register_mad_agent(&fix->sa->mdev->ibdev, SA_FIX_PORT,
				     IB_QPT_GSI, &req, rmpp,
				     rmpp_send_handler, rmpp_recv_handler,
				     &fix->log, flags);
}

static int rmpp_test_init(struct kunit *test)
{
	struct rdma_ah_attr attr = {};
	struct rmpp_fix *fix = kunit_kzalloc(test, sizeof(*fix), GFP_KERNEL);
	struct sa_fix *sa;

	KUNIT_ASSERT_NOT_NULL(test, fix);
	fix->recv_timeout_ms = ib_mad_rmpp_recv_timeout_ms;
	fix->sendq_size = ib_mad_sendq_size;
	rmpp_cur = fix;
	sa = sa_fix_setup(test);
	fix->sa = sa;
	test->priv = fix;
	spin_lock_init(&fix->log.lock);
	init_completion(&fix->log.recv_done);
	init_completion(&fix->log.send_done);

	fix->agent = rmpp_register(test, IB_MGMT_RMPP_VERSION, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fix->agent));
	attr.type = rdma_ah_find_type(&sa->mdev->ibdev, SA_FIX_PORT);
	rdma_ah_set_dlid(&attr, PEER_LID);
	rdma_ah_set_port_num(&attr, SA_FIX_PORT);
	fix->ah = rdma_create_ah(sa->qp->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fix->ah));
	return 0;
}

static void rmpp_log_free(struct rmpp_log *log)
{
	int i;

	for (i = 0; i < log->nrecv; i++)
		ib_free_recv_mad(log->recv[i]);
	log->nrecv = 0;
}

static void rmpp_test_exit(struct kunit *test)
{
	struct rmpp_fix *fix = rmpp_cur;

	rmpp_cur = NULL;
	if (fix) {
		ib_mad_rmpp_recv_timeout_ms = fix->recv_timeout_ms;
		ib_mad_sendq_size = fix->sendq_size;
	}
	if (fix && fix->sa && !IS_ERR_OR_NULL(fix->agent)) {
		ib_unregister_mad_agent(fix->agent);
		rmpp_log_free(&fix->log);
	}
	if (fix && !IS_ERR_OR_NULL(fix->ah))
		rdma_destroy_ah(fix->ah, RDMA_DESTROY_AH_SLEEPABLE);
	mock_ibdev_cleanup_all();
}

/* ---- The wire ------------------------------------------------------------- */

static struct ib_rmpp_mad *wire_mad(struct mock_sent_wr *wr)
{
	return (struct ib_rmpp_mad *)wr->mad;
}

/* The @n-th MAD QP1 sent, waited for. */
static struct ib_rmpp_mad *sent(struct kunit *test, int n)
{
	struct rmpp_fix *fix = test->priv;
	struct mock_sent_wr *wr = kunit_kzalloc(test, sizeof(*wr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wr);
	KUNIT_ASSERT_TRUE_MSG(test, sa_fix_wait_sent(fix->sa, n + 1),
			      "MAD %d never went out", n);
	KUNIT_ASSERT_TRUE(test, sa_fix_sent(fix->sa, n, wr));
	return wire_mad(wr);
}

/* No more than @n MADs were sent, after giving the layer time to err. */
static void expect_nsent(struct kunit *test, int n)
{
	struct rmpp_fix *fix = test->priv;

	msleep(50);
	KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix->sa), n);
}

static void expect_rmpp(struct kunit *test, const struct ib_rmpp_mad *m,
			u8 type, u8 flags, u8 status, u32 seg, u32 paylen)
{
	KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_version, IB_MGMT_RMPP_VERSION);
	KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_type, type);
	KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_rtime_flags & 7, flags);
	KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_status, status);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m->rmpp_hdr.seg_num), seg);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m->rmpp_hdr.paylen_newwin), paylen);
}

/* A MAD of our vendor class from the peer. */
static void peer_mad(struct ib_rmpp_mad *m, u8 method, __be64 tid)
{
	struct ib_vendor_mad *v = (struct ib_vendor_mad *)m;

	memset(m, 0, sizeof(*m));
	m->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	m->mad_hdr.mgmt_class = VCLASS;
	m->mad_hdr.class_version = 1;
	m->mad_hdr.method = method;
	m->mad_hdr.tid = tid;
	m->mad_hdr.attr_id = cpu_to_be16(0x10);
	v->oui[0] = VOUI >> 16;
	v->oui[1] = (VOUI >> 8) & 0xff;
	v->oui[2] = VOUI & 0xff;
}

static void peer_rmpp(struct kunit *test, u8 method, __be64 tid, u8 type,
		      u8 flags, u8 status, u32 seg, u32 paylen, u8 fill)
{
	struct rmpp_fix *fix = test->priv;
	struct ib_rmpp_mad *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct ib_vendor_mad *v = (struct ib_vendor_mad *)m;

	KUNIT_ASSERT_NOT_NULL(test, m);
	peer_mad(m, method, tid);
	m->rmpp_hdr.rmpp_version = IB_MGMT_RMPP_VERSION;
	m->rmpp_hdr.rmpp_type = type;
	m->rmpp_hdr.rmpp_rtime_flags = flags;
	m->rmpp_hdr.rmpp_status = status;
	m->rmpp_hdr.seg_num = cpu_to_be32(seg);
	m->rmpp_hdr.paylen_newwin = cpu_to_be32(paylen);
	memset(v->data, fill, sizeof(v->data));
	KUNIT_ASSERT_EQ(test, mock_ibdev_qp_deliver(fix->sa->qp, m, sizeof(*m),
						    PEER_QP, PEER_LID), 0);
}

#define ACTIVE	IB_MGMT_RMPP_FLAG_ACTIVE
#define FIRST	IB_MGMT_RMPP_FLAG_FIRST
#define LAST	IB_MGMT_RMPP_FLAG_LAST

/* The peer ACKs segment @seg of our message @tid, window up to @win. */
static void peer_ack(struct kunit *test, u8 method, __be64 tid, u32 seg,
		     u32 win)
{
	peer_rmpp(test, method, tid, IB_MGMT_RMPP_TYPE_ACK, ACTIVE, 0, seg,
		  win, 0);
}

/* ---- Sending -------------------------------------------------------------- */

static __be64 our_tid(struct kunit *test, u32 low)
{
	struct rmpp_fix *fix = test->priv;

	return cpu_to_be64(((u64)fix->agent->hi_tid << 32) | low);
}

/*
 * An RMPP message of @data_len bytes (byte i of the data is i * 7 + 1),
 * of @method and @tid, posted with @timeout_ms and @retries.
 */
static struct ib_mad_send_buf *post_rmpp(struct kunit *test, int data_len,
					 u32 timeout_ms, int retries,
					 u8 method, __be64 tid)
{
	struct rmpp_fix *fix = test->priv;
	struct ib_mad_send_buf *buf;
	struct ib_vendor_mad *v;
	int i;

	buf = ib_create_send_mad(fix->agent, PEER_QP, 0, 1, HDR, data_len,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	v = buf->mad;
	v->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	v->mad_hdr.mgmt_class = VCLASS;
	v->mad_hdr.class_version = 1;
	v->mad_hdr.method = method;
	v->mad_hdr.tid = tid;
	v->oui[0] = VOUI >> 16;
	v->oui[1] = (VOUI >> 8) & 0xff;
	v->oui[2] = VOUI & 0xff;
	for (i = 0; i < data_len; i++) {
		u8 *seg = ib_get_rmpp_segment(buf, i / buf->seg_size + 1);

		seg[i % buf->seg_size] = i * 7 + 1;
	}
	buf->ah = fix->ah;
	buf->timeout_ms = timeout_ms;
	buf->retries = retries;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	return buf;
}

/* A SET request of ours, TID low half @low. */
static struct ib_mad_send_buf *post_msg(struct kunit *test, int data_len,
					u32 timeout_ms, int retries, u32 low)
{
	return post_rmpp(test, data_len, timeout_ms, retries,
			 IB_MGMT_METHOD_SET, our_tid(test, low));
}

/* Segment @seg on the wire carries the right headers and data. */
static void expect_segment_of(struct kunit *test,
			      const struct ib_rmpp_mad *m, int data_len,
			      u32 seg, u8 method, __be64 tid)
{
	const struct ib_vendor_mad *v = (const void *)m;
	int count = DIV_ROUND_UP(data_len, SEG) ?: 1;
	int pad = count * SEG - data_len;
	u8 flags = ACTIVE;
	u32 paylen = 0;
	int i, first_bad = -1;

	if (seg == 1) {
		flags |= FIRST;
		paylen = count * RMPP_SEG - pad;
	}
	if (seg == count) {
		flags |= LAST;
		paylen = RMPP_SEG - pad;
	}
	KUNIT_EXPECT_EQ(test, be64_to_cpu(m->mad_hdr.tid), be64_to_cpu(tid));
	KUNIT_EXPECT_EQ(test, m->mad_hdr.mgmt_class, VCLASS);
	KUNIT_EXPECT_EQ(test, m->mad_hdr.method, method);
	KUNIT_EXPECT_EQ(test, v->oui[2], VOUI & 0xff);
	expect_rmpp(test, m, IB_MGMT_RMPP_TYPE_DATA, flags, 0, seg, paylen);
	for (i = 0; i < SEG; i++) {
		int at = (seg - 1) * SEG + i;
		u8 want = at < data_len ? at * 7 + 1 : 0;

		if (v->data[i] != want && first_bad < 0)
			first_bad = i;
	}
	KUNIT_EXPECT_EQ_MSG(test, first_bad, -1, "segment %u data", seg);
}

static void expect_segment(struct kunit *test, const struct ib_rmpp_mad *m,
			   int data_len, u32 seg, __be64 tid)
{
	expect_segment_of(test, m, data_len, seg, IB_MGMT_METHOD_SET, tid);
}

static bool wait_send(struct rmpp_fix *fix)
{
	return wait_for_completion_timeout(&fix->log.send_done, SA_FIX_WAIT);
}

/* The send ends, with @status. */
static void expect_send_done(struct kunit *test, enum ib_wc_status status)
{
	struct rmpp_fix *fix = test->priv;

	KUNIT_ASSERT_TRUE(test, wait_send(fix));
	KUNIT_EXPECT_EQ(test, fix->log.status, status);
}

static bool wait_recv(struct rmpp_fix *fix)
{
	return wait_for_completion_timeout(&fix->log.recv_done, SA_FIX_WAIT);
}

/* Buffers of several lengths: how many segments, padding, headers. */
static void rmpp_segmentation_test(struct kunit *test)
{
	static const struct { int len, count; } cases[] = {
		{ 0, 1 }, { 1, 1 }, { SEG, 1 }, { SEG + 1, 2 },
		{ 2 * SEG, 2 }, { 9 * SEG + 17, 10 },
	};
	struct rmpp_fix *fix = test->priv;
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		struct ib_mad_send_buf *buf;
		struct ib_rmpp_mad *m;
		int i;

		buf = ib_create_send_mad(fix->agent, PEER_QP, 0, 1, HDR,
					 cases[c].len, GFP_KERNEL,
					 IB_MGMT_BASE_VERSION);
		KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
		KUNIT_EXPECT_EQ_MSG(test, buf->seg_count, cases[c].count,
				    "len %d", cases[c].len);
		KUNIT_EXPECT_EQ(test, buf->seg_size, SEG);
		KUNIT_EXPECT_EQ(test, buf->seg_rmpp_size, RMPP_SEG);
		KUNIT_EXPECT_EQ(test, buf->hdr_len, HDR);
		KUNIT_EXPECT_EQ(test, buf->data_len, cases[c].len);
		m = buf->mad;
		expect_rmpp(test, m, IB_MGMT_RMPP_TYPE_DATA, ACTIVE, 0, 0, 0);
		for (i = 1; i <= buf->seg_count; i++)
			KUNIT_EXPECT_NOT_NULL(test, ib_get_rmpp_segment(buf, i));
		KUNIT_EXPECT_NULL(test, ib_get_rmpp_segment(buf, 0));
		KUNIT_EXPECT_NULL(test,
				  ib_get_rmpp_segment(buf, buf->seg_count + 1));
		ib_free_send_mad(buf);
	}
}

/* Every refusal of ib_create_send_mad() and ib_get_rmpp_segment(). */
static void rmpp_create_errors_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	struct ib_mad_agent *plain;
	struct ib_mad_send_buf *buf;

	/* An RMPP agent: headers too short or filling the MAD, no fit. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_send_mad(fix->agent, 1, 0, 1,
							 IB_MGMT_RMPP_HDR - 1, 10, GFP_KERNEL,
							 IB_MGMT_BASE_VERSION)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_send_mad(fix->agent, 1, 0, 1,
							 IB_MGMT_MAD_SIZE, 0, GFP_KERNEL,
							 IB_MGMT_BASE_VERSION)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_send_mad(fix->agent, 1, 0, 0,
							 HDR, SEG + 1, GFP_KERNEL,
							 IB_MGMT_BASE_VERSION)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_send_mad(fix->agent, 1, 0, 1,
							 HDR, -1, GFP_KERNEL,
							 IB_MGMT_BASE_VERSION)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_send_mad(fix->agent, 1, 0, 1,
							 HDR, 10, GFP_KERNEL,
							 OPA_MGMT_BASE_VERSION)), -EINVAL);
	/* A one-MAD buffer of an RMPP agent has no segments. */
	buf = ib_create_send_mad(fix->agent, 1, 0, 0, HDR, SEG, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	KUNIT_EXPECT_EQ(test, buf->seg_count, 0);
	KUNIT_EXPECT_NULL(test, ib_get_rmpp_segment(buf, 1));
	ib_free_send_mad(buf);

	/* Agents without RMPP in the kernel cannot create RMPP buffers. */
	plain = ib_register_mad_agent(&fix->sa->mdev->ibdev, SA_FIX_PORT,
				      IB_QPT_GSI, NULL, 0, rmpp_send_handler,
				      NULL, &fix->log, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_send_mad(plain, 1, 0, 1, HDR,
							 10, GFP_KERNEL,
							 IB_MGMT_BASE_VERSION)), -EINVAL);
	ib_unregister_mad_agent(plain);
}

/* The window: one segment, then what each ACK opens, done on the last ACK. */
static void rmpp_send_window_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	int len = 3 * SEG + 10;
	__be64 tid = our_tid(test, 1);

	post_msg(test, len, 0, 2, 1);
	expect_segment(test, sent(test, 0), len, 1, tid);
	expect_nsent(test, 1);

	peer_ack(test, 0x82, tid, 1, 3);
	expect_segment(test, sent(test, 1), len, 2, tid);
	expect_segment(test, sent(test, 2), len, 3, tid);
	expect_nsent(test, 3);

	/* A repeat of the ACK and an older window change nothing. */
	peer_ack(test, 0x82, tid, 1, 3);
	peer_ack(test, 0x82, tid, 1, 2);
	expect_nsent(test, 3);
	KUNIT_EXPECT_EQ(test, fix->log.nsent, 0);

	peer_ack(test, 0x82, tid, 3, 4);
	expect_segment(test, sent(test, 3), len, 4, tid);
	KUNIT_EXPECT_EQ(test, fix->log.nsent, 0);
	peer_ack(test, 0x82, tid, 4, 4);
	expect_send_done(test, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, fix->log.retries, 0);
	/* No answer is expected: no DS ACK either. */
	expect_nsent(test, 4);
}

/* A one-segment message: FIRST and LAST on one segment. */
static void rmpp_send_single_test(struct kunit *test)
{
	__be64 tid = our_tid(test, 2);

	post_msg(test, SEG, 0, 0, 2);
	expect_segment(test, sent(test, 0), SEG, 1, tid);
	peer_ack(test, 0x82, tid, 1, 1);
	expect_send_done(test, IB_WC_SUCCESS);
}

/* An ACK beyond the window or the message aborts the send (S2B). */
static void rmpp_send_ack_too_far_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = our_tid(test, 3);
	struct ib_rmpp_mad *abort;

	post_msg(test, 2 * SEG, 0, 0, 3);
	sent(test, 0);
	peer_ack(test, 0x82, tid, 2, 5);
	expect_send_done(test, IB_WC_REM_ABORT_ERR);
	KUNIT_EXPECT_EQ(test, fix->log.vendor_err, IB_MGMT_RMPP_STATUS_S2B);
	abort = sent(test, 1);
	KUNIT_EXPECT_EQ(test, abort->mad_hdr.method, IB_MGMT_METHOD_SET);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(abort->mad_hdr.tid), be64_to_cpu(tid));
	expect_rmpp(test, abort, IB_MGMT_RMPP_TYPE_ABORT, ACTIVE,
		    IB_MGMT_RMPP_STATUS_S2B, 0, 0);
}

/* A window ending before the segment ACKed: W2S. */
static void rmpp_send_ack_w2s_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = our_tid(test, 4);

	post_msg(test, 2 * SEG, 0, 0, 4);
	sent(test, 0);
	peer_ack(test, 0x82, tid, 1, 0);
	expect_send_done(test, IB_WC_REM_ABORT_ERR);
	KUNIT_EXPECT_EQ(test, fix->log.vendor_err, IB_MGMT_RMPP_STATUS_W2S);
	expect_rmpp(test, sent(test, 1), IB_MGMT_RMPP_TYPE_ABORT, ACTIVE,
		    IB_MGMT_RMPP_STATUS_W2S, 0, 0);
}

/* STOP (resources exhausted) and ABORT from the receiver end the send. */
static void rmpp_send_stop_abort_test(struct kunit *test)
{
	static const struct { u8 type, status; u32 vendor_err; bool answer; }
	cases[] = {
		{ IB_MGMT_RMPP_TYPE_STOP, IB_MGMT_RMPP_STATUS_RESX,
		  IB_MGMT_RMPP_STATUS_RESX, false },
		{ IB_MGMT_RMPP_TYPE_ABORT, IB_MGMT_RMPP_STATUS_T2L,
		  IB_MGMT_RMPP_STATUS_T2L, false },
		{ IB_MGMT_RMPP_TYPE_ABORT, IB_MGMT_RMPP_STATUS_UNSPEC,
		  IB_MGMT_RMPP_STATUS_UNSPEC, false },
		/* Codes outside their range: BAD_STATUS, answered. */
		{ IB_MGMT_RMPP_TYPE_STOP, 2, IB_MGMT_RMPP_STATUS_BAD_STATUS,
		  true },
		{ IB_MGMT_RMPP_TYPE_ABORT, 5, IB_MGMT_RMPP_STATUS_BAD_STATUS,
		  true },
		/* An unknown type: BADT, answered. */
		{ 9, 0, IB_MGMT_RMPP_STATUS_BADT, true },
	};
	struct rmpp_fix *fix = test->priv;
	unsigned int c;
	int n = 0;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		__be64 tid = our_tid(test, 10 + c);

		reinit_completion(&fix->log.send_done);
		post_msg(test, 3 * SEG, 0, 0, 10 + c);
		sent(test, n++);
		peer_rmpp(test, 0x82, tid, cases[c].type, ACTIVE,
			  cases[c].status, 0, 0, 0);
		KUNIT_ASSERT_TRUE(test, wait_send(fix));
		KUNIT_EXPECT_EQ_MSG(test, fix->log.status, IB_WC_REM_ABORT_ERR,
				    "case %u", c);
		KUNIT_EXPECT_EQ_MSG(test, fix->log.vendor_err,
				    cases[c].vendor_err, "case %u", c);
		if (cases[c].answer) {
			struct ib_rmpp_mad *m = sent(test, n++);

			expect_rmpp(test, m, IB_MGMT_RMPP_TYPE_ABORT, ACTIVE,
				    cases[c].vendor_err, 0, 0);
		}
		expect_nsent(test, n);
	}
}

/* No ACK: the window is sent again while retries last, then it times out. */
static void rmpp_send_timeout_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	int len = 3 * SEG;
	__be64 tid = our_tid(test, 5);

	/* 300 ms for each ACK (shorter than the 2 s cap), 2 retries. */
	post_msg(test, len, 300, 2, 5);
	expect_segment(test, sent(test, 0), len, 1, tid);
	peer_ack(test, 0x82, tid, 1, 3);
	expect_segment(test, sent(test, 1), len, 2, tid);
	expect_segment(test, sent(test, 2), len, 3, tid);
	/* Silence: 2 and 3 again, from after the last segment ACKed. */
	expect_segment(test, sent(test, 3), len, 2, tid);
	expect_segment(test, sent(test, 4), len, 3, tid);
	expect_segment(test, sent(test, 5), len, 2, tid);
	expect_segment(test, sent(test, 6), len, 3, tid);
	expect_send_done(test, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, fix->log.retries, 2);
	expect_nsent(test, 7);
}

/* An ACK that moves on gives the retries back. */
static void rmpp_send_retries_renewed_test(struct kunit *test)
{
	int len = 3 * SEG;
	__be64 tid = our_tid(test, 6);

	post_msg(test, len, 300, 1, 6);
	sent(test, 0);
	/* The only retry goes on segment 1... */
	expect_segment(test, sent(test, 1), len, 1, tid);
	peer_ack(test, 0x82, tid, 1, 3);
	/* ...and the ACK gives it back: 2 and 3, then once more. */
	expect_segment(test, sent(test, 2), len, 2, tid);
	expect_segment(test, sent(test, 3), len, 3, tid);
	expect_segment(test, sent(test, 4), len, 2, tid);
	expect_segment(test, sent(test, 5), len, 3, tid);
	expect_send_done(test, IB_WC_RESP_TIMEOUT_ERR);
}

/*
 * A request that expects a response: through after the last ACK, which
 * is answered with a DS ACK; done when the response arrives.
 */
static void rmpp_send_then_response_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	struct ib_mad_send_buf *buf;
	__be64 tid = our_tid(test, 7);
	struct ib_rmpp_mad *m;

	buf = post_msg(test, 2 * SEG, 2000, 0, 7);
	sent(test, 0);
	peer_ack(test, 0x82, tid, 1, 2);
	sent(test, 1);
	peer_ack(test, 0x82, tid, 2, 2);
	m = sent(test, 2);
	KUNIT_EXPECT_EQ(test, m->mad_hdr.method, IB_MGMT_METHOD_SET);
	expect_rmpp(test, m, IB_MGMT_RMPP_TYPE_ACK, ACTIVE, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, fix->log.nsent, 0);

	/* The response: one MAD, no RMPP. */
	peer_rmpp(test, IB_MGMT_METHOD_GET_RESP, tid, 0, 0, 0, 0, 0, 0x5a);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	expect_send_done(test, IB_WC_SUCCESS);
	KUNIT_EXPECT_PTR_EQ(test, fix->log.recv_req[0], buf);
}

/* After the last ACK, a missing response times out without resends. */
static void rmpp_send_response_timeout_test(struct kunit *test)
{
	__be64 tid = our_tid(test, 8);

	post_msg(test, SEG, 400, 3, 8);
	sent(test, 0);
	peer_ack(test, 0x82, tid, 1, 1);
	sent(test, 1);	/* the DS ACK */
	expect_send_done(test, IB_WC_RESP_TIMEOUT_ERR);
	expect_nsent(test, 2);
}

/* ---- Receiving ------------------------------------------------------------ */

/* Segment @seg of @count of the peer's SET @tid; the last has @tail bytes. */
static void peer_seg(struct kunit *test, __be64 tid, u32 seg, u32 count,
		     u32 tail)
{
	u8 flags = ACTIVE;
	u32 paylen = 0;

	if (seg == 1) {
		flags |= FIRST;
		paylen = (count - 1) * RMPP_SEG + tail;
	}
	if (seg == count) {
		flags |= LAST;
		paylen = tail;
	}
	peer_rmpp(test, IB_MGMT_METHOD_SET, tid, IB_MGMT_RMPP_TYPE_DATA, flags,
		  0, seg, paylen, seg);
}

#define PEER_TID(n)	cpu_to_be64(0x0000abcd00000000ULL | (n))

/* The message delivered: its length and its segments in order. */
static void expect_message(struct kunit *test, struct ib_mad_recv_wc *rwc,
			   u32 count, u32 tail)
{
	struct ib_mad_recv_buf *seg;
	u32 n = 0;

	KUNIT_EXPECT_EQ(test, rwc->mad_len,
			HDR + (count - 1) * SEG + tail - (RMPP_SEG - SEG));
	KUNIT_EXPECT_PTR_EQ(test, &rwc->recv_buf,
			    list_first_entry(&rwc->rmpp_list,
					     struct ib_mad_recv_buf, list));
	list_for_each_entry(seg, &rwc->rmpp_list, list) {
		struct ib_rmpp_mad *m = (struct ib_rmpp_mad *)seg->mad;
		struct ib_vendor_mad *v = (struct ib_vendor_mad *)seg->mad;

		n++;
		KUNIT_EXPECT_EQ(test, be32_to_cpu(m->rmpp_hdr.seg_num), n);
		KUNIT_EXPECT_EQ(test, v->data[0], (u8)n);
	}
	KUNIT_EXPECT_EQ(test, n, count);
}

static void expect_ack(struct kunit *test, int n, __be64 tid, u32 seg,
		       u32 win)
{
	struct ib_rmpp_mad *m = sent(test, n);

	KUNIT_EXPECT_EQ(test, be64_to_cpu(m->mad_hdr.tid), be64_to_cpu(tid));
	KUNIT_EXPECT_EQ(test, m->mad_hdr.method,
			IB_MGMT_METHOD_SET | IB_MGMT_METHOD_RESP);
	expect_rmpp(test, m, IB_MGMT_RMPP_TYPE_ACK, ACTIVE, 0, seg, win);
}

/* What the window is after the first segment: 1 + recv_queue_size / 8. */
static u32 first_window(void)
{
	return 1 + max(ib_mad_recvq_size >> 3, 1);
}

static void rmpp_recv_in_order_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = PEER_TID(1);

	peer_seg(test, tid, 1, 3, 100);
	expect_ack(test, 0, tid, 1, first_window());
	peer_seg(test, tid, 2, 3, 100);
	peer_seg(test, tid, 3, 3, 100);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 1);
	KUNIT_EXPECT_NULL(test, fix->log.recv_req[0]);
	expect_message(test, fix->log.recv[0], 3, 100);
	expect_ack(test, 1, tid, 3, first_window());
	expect_nsent(test, 2);
}

static void rmpp_recv_out_of_order_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = PEER_TID(2);

	peer_seg(test, tid, 1, 4, RMPP_SEG);
	peer_seg(test, tid, 4, 4, RMPP_SEG);
	peer_seg(test, tid, 3, 4, RMPP_SEG);
	expect_nsent(test, 1);
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 0);
	peer_seg(test, tid, 2, 4, RMPP_SEG);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	expect_message(test, fix->log.recv[0], 4, RMPP_SEG);
	expect_ack(test, 1, tid, 4, first_window());
}

/* Repeats: of a kept segment dropped, of one ACKed ACKed again. */
static void rmpp_recv_duplicates_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = PEER_TID(3);

	peer_seg(test, tid, 1, 3, 1);
	expect_ack(test, 0, tid, 1, first_window());
	peer_seg(test, tid, 2, 3, 1);
	peer_seg(test, tid, 2, 3, 1);
	expect_nsent(test, 1);
	peer_seg(test, tid, 1, 3, 1);
	expect_ack(test, 1, tid, 2, first_window());
	peer_seg(test, tid, 3, 3, 1);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	expect_message(test, fix->log.recv[0], 3, 1);
	expect_ack(test, 2, tid, 3, first_window());
	/* The sender missed our last ACK: it comes again, nothing more. */
	peer_seg(test, tid, 3, 3, 1);
	expect_ack(test, 3, tid, 3, first_window());
	expect_nsent(test, 4);
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 1);
}

/* A segment beyond the window is dropped without a word. */
static void rmpp_recv_out_of_window_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = PEER_TID(4);

	peer_seg(test, tid, 1, 200, 1);
	sent(test, 0);
	peer_seg(test, tid, first_window() + 1, 200, 1);
	peer_seg(test, tid, 200, 200, 1);
	expect_nsent(test, 1);
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 0);
}

/* A message of one segment is delivered at once. */
static void rmpp_recv_single_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = PEER_TID(5);

	peer_seg(test, tid, 1, 1, 37);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	expect_message(test, fix->log.recv[0], 1, 37);
	expect_ack(test, 0, tid, 1, 1);
}

/* Faults of a segment itself: ABORT with the status IBA gives them. */
static void rmpp_recv_bad_segment_test(struct kunit *test)
{
	static const struct { u8 version, flags, status; u32 seg; u8 abort; }
	cases[] = {
		/* Segment 1 without FIRST, another one with it. */
		{ 1, ACTIVE, 0, 1, IB_MGMT_RMPP_STATUS_BAD_SEG },
		{ 1, ACTIVE | FIRST, 0, 2, IB_MGMT_RMPP_STATUS_BAD_SEG },
		{ 1, ACTIVE | FIRST, 3, 1, IB_MGMT_RMPP_STATUS_BAD_STATUS },
		{ 2, ACTIVE | FIRST, 0, 1, IB_MGMT_RMPP_STATUS_UNV },
	};
	struct rmpp_fix *fix = test->priv;
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		struct ib_rmpp_mad *m =
			kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
		__be64 tid = PEER_TID(10 + c);
		struct ib_rmpp_mad *abort;

		KUNIT_ASSERT_NOT_NULL(test, m);
		peer_mad(m, IB_MGMT_METHOD_SET, tid);
		m->rmpp_hdr.rmpp_version = cases[c].version;
		m->rmpp_hdr.rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
		m->rmpp_hdr.rmpp_rtime_flags = cases[c].flags;
		m->rmpp_hdr.rmpp_status = cases[c].status;
		m->rmpp_hdr.seg_num = cpu_to_be32(cases[c].seg);
		KUNIT_ASSERT_EQ(test,
				mock_ibdev_qp_deliver(fix->sa->qp, m, sizeof(*m),
						      PEER_QP, PEER_LID), 0);
		abort = sent(test, c);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(abort->mad_hdr.tid), be64_to_cpu(tid));
		KUNIT_EXPECT_EQ(test, abort->mad_hdr.method, 0x82);
		expect_rmpp(test, abort, IB_MGMT_RMPP_TYPE_ABORT, ACTIVE,
			    cases[c].abort, 0, 0);
	}
	expect_nsent(test, ARRAY_SIZE(cases));
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 0);
}

/* Incomplete too long: dropped, the sender told (T2L), later segments too. */
static void rmpp_recv_timeout_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	unsigned int saved = ib_mad_rmpp_recv_timeout_ms;
	__be64 tid = PEER_TID(6);
	struct ib_rmpp_mad *abort;

	ib_mad_rmpp_recv_timeout_ms = 100;
	peer_seg(test, tid, 1, 3, 1);
	expect_ack(test, 0, tid, 1, first_window());
	ib_mad_rmpp_recv_timeout_ms = saved;
	peer_seg(test, tid, 2, 3, 1);
	abort = sent(test, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(abort->mad_hdr.tid), be64_to_cpu(tid));
	expect_rmpp(test, abort, IB_MGMT_RMPP_TYPE_ABORT, ACTIVE,
		    IB_MGMT_RMPP_STATUS_T2L, 0, 0);
	peer_seg(test, tid, 3, 3, 1);
	expect_nsent(test, 2);
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 0);
}

/* A response that answers no request of ours is dropped, segment by segment. */
static void rmpp_recv_unasked_response_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = our_tid(test, 40);

	peer_rmpp(test, IB_MGMT_METHOD_GET_RESP, tid, IB_MGMT_RMPP_TYPE_DATA,
		  ACTIVE | FIRST | LAST, 0, 1, 10, 1);
	expect_nsent(test, 0);
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 0);
}

/* An RMPP response to our one-MAD request, reassembled, then the request done. */
static void rmpp_recv_response_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = our_tid(test, 41);
	struct ib_mad_send_buf *buf;
	struct ib_vendor_mad *v;

	buf = ib_create_send_mad(fix->agent, PEER_QP, 0, 0, HDR, 4,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	v = buf->mad;
	peer_mad((struct ib_rmpp_mad *)v, IB_MGMT_METHOD_GET, tid);
	buf->ah = fix->ah;
	buf->timeout_ms = 2000;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	sent(test, 0);

	peer_rmpp(test, IB_MGMT_METHOD_GET_RESP, tid, IB_MGMT_RMPP_TYPE_DATA,
		  ACTIVE | FIRST, 0, 1, RMPP_SEG + 8, 1);
	peer_rmpp(test, IB_MGMT_METHOD_GET_RESP, tid, IB_MGMT_RMPP_TYPE_DATA,
		  ACTIVE | LAST, 0, 2, 8, 2);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	expect_send_done(test, IB_WC_SUCCESS);
	KUNIT_EXPECT_PTR_EQ(test, fix->log.recv_req[0], buf);
	expect_message(test, fix->log.recv[0], 2, 8);
	/* ACKs of a response go out with the request's method. */
	KUNIT_EXPECT_EQ(test, sent(test, 1)->mad_hdr.method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, sent(test, 2)->mad_hdr.method, IB_MGMT_METHOD_GET);
}

/*
 * An RMPP response to the peer's GET: its ACKs come as GETs, routed by
 * class; the response is done when its last segment is ACKed.
 */
static void rmpp_send_response_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = PEER_TID(20);
	int len = 2 * SEG - 3;

	peer_rmpp(test, IB_MGMT_METHOD_GET, tid, 0, 0, 0, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	post_rmpp(test, len, 0, 0, IB_MGMT_METHOD_GET_RESP, tid);
	expect_segment_of(test, sent(test, 0), len, 1,
			  IB_MGMT_METHOD_GET_RESP, tid);
	peer_ack(test, IB_MGMT_METHOD_GET, tid, 1, 2);
	expect_segment_of(test, sent(test, 1), len, 2,
			  IB_MGMT_METHOD_GET_RESP, tid);
	peer_ack(test, IB_MGMT_METHOD_GET, tid, 2, 2);
	expect_send_done(test, IB_WC_SUCCESS);
	expect_nsent(test, 2);
}

/* Unregistering with a message half received and a send half sent. */
static void rmpp_cancel_on_unregister_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;

	peer_seg(test, PEER_TID(7), 1, 3, 1);
	sent(test, 0);
	post_msg(test, 3 * SEG, 0, 0, 9);
	sent(test, 1);
	ib_unregister_mad_agent(fix->agent);
	fix->agent = NULL;
	KUNIT_EXPECT_EQ(test, fix->log.nsent, 1);
	KUNIT_EXPECT_EQ(test, fix->log.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, fix->log.nrecv, 0);
}

/* An agent that does RMPP itself gets every segment as it came. */
static void rmpp_user_rmpp_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	__be64 tid = PEER_TID(8);
	struct ib_mad_agent *user;

	ib_unregister_mad_agent(fix->agent);
	fix->agent = NULL;
	user = rmpp_register(test, IB_MGMT_RMPP_VERSION, IB_MAD_USER_RMPP);
	KUNIT_ASSERT_FALSE(test, IS_ERR(user));
	KUNIT_EXPECT_FALSE(test, ib_mad_kernel_rmpp_agent(user));
	fix->agent = user;

	peer_seg(test, tid, 1, 2, 5);
	peer_seg(test, tid, 2, 2, 5);
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	KUNIT_ASSERT_TRUE(test, wait_recv(fix));
	KUNIT_ASSERT_EQ(test, fix->log.nrecv, 2);
	KUNIT_EXPECT_EQ(test, fix->log.recv[0]->mad_len, IB_MGMT_MAD_SIZE);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&fix->log.recv[0]->rmpp_list));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(((struct ib_rmpp_mad *)
				fix->log.recv[1]->recv_buf.mad)->rmpp_hdr.seg_num), 2);
	/* Nothing answered on its behalf. */
	expect_nsent(test, 0);
}

/*
 * Not RMPP, the same agent: a response claims its request, which waits
 * for it after its send completed, and an unregistration cancels every
 * send at that moment. The request is the response's until
 * ib_mad_send_answered(): the cancel leaves it alone (it once reported and
 * freed it under the response's handler), the answer reports it once.
 */
static void mad_claim_then_cancel_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	struct ib_mad_agent_priv *priv = ib_mad_agent_priv(fix->agent);
	struct ib_mad_send_buf *buf, *claimed;
	unsigned long end = jiffies + SA_FIX_WAIT;
	struct ib_mad_hdr answer;

	buf = ib_create_send_mad(fix->agent, PEER_QP, 0, 0, HDR,
				 IB_MGMT_MAD_SIZE - HDR, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	peer_mad(buf->mad, IB_MGMT_METHOD_GET, our_tid(test, 77));
	buf->ah = fix->ah;
	buf->timeout_ms = 10000;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
	/* Off the wire: the request waits for its answer. */
	while (READ_ONCE(ib_mad_send(buf)->on_wire)) {
		KUNIT_ASSERT_TRUE(test, time_before(jiffies, end));
		usleep_range(1000, 2000);
	}

	answer = *(struct ib_mad_hdr *)buf->mad;
	answer.method = IB_MGMT_METHOD_GET_RESP;
	claimed = ib_mad_send_claim(priv, &answer);
	KUNIT_ASSERT_PTR_EQ(test, claimed, buf);
	/* A second answer finds nothing to claim. */
	KUNIT_EXPECT_NULL(test, ib_mad_send_claim(priv, &answer));

	ib_mad_send_cancel_all(priv);
	KUNIT_EXPECT_EQ(test, fix->log.nsent, 0);
	ib_mad_send_answered(claimed);
	KUNIT_EXPECT_EQ(test, fix->log.nsent, 1);
	KUNIT_EXPECT_EQ(test, fix->log.status, IB_WC_SUCCESS);
}

/* Reports the agent's send handler got so far, read under its lock. */
static void sends_reported(struct rmpp_fix *fix, int *n, int *failed)
{
	spin_lock(&fix->log.lock);
	*n = fix->log.nsent;
	*failed = fix->log.nfailed;
	spin_unlock(&fix->log.lock);
}

/* Wait until the agent's send handler got @n reports. */
static bool wait_reported(struct rmpp_fix *fix, int n)
{
	unsigned long end = jiffies + SA_FIX_WAIT;
	int got, failed;

	for (;;) {
		sends_reported(fix, &got, &failed);
		if (got >= n || time_after(jiffies, end))
			return got >= n;
		usleep_range(1000, 2000);
	}
}

/* A GET of the fixture's agent without a timeout, posted. */
static void post_get(struct kunit *test, u32 low)
{
	struct rmpp_fix *fix = test->priv;
	struct ib_mad_send_buf *buf;

	buf = ib_create_send_mad(fix->agent, PEER_QP, 0, 0, HDR,
				 IB_MGMT_MAD_SIZE - HDR, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	peer_mad(buf->mad, IB_MGMT_METHOD_GET, our_tid(test, low));
	buf->ah = fix->ah;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(buf, NULL), 0);
}

/*
 * Shrink the send queue to two MADs and post five GETs (TIDs from @low)
 * whose sends complete only when the test says so: two go on the QP, three
 * wait in the backlog. Returns how many sends the QP had taken before.
 */
static int backlog_fill(struct kunit *test, u32 low)
{
	struct rmpp_fix *fix = test->priv;
	int base, i;

	mock_ibdev_transmit_hold(fix->sa->mdev);
	ib_mad_sendq_size = 2;
	base = sa_fix_nsent(fix->sa);
	for (i = 0; i < 5; i++)
		post_get(test, low + i);
	KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix->sa) - base, 2);
	return base;
}

/*
 * Undo backlog_fill(): the queue's size back, every send completing on
 * its own. If fewer than five were reported (@n), one more GET makes room
 * for a backlog left behind, so the exit does not wait on it forever.
 */
static void backlog_end(struct kunit *test, int n, u32 low)
{
	struct rmpp_fix *fix = test->priv;

	mock_ibdev_fail(fix->sa->mdev, MOCK_POST_SEND, 0);
	ib_mad_sendq_size = fix->sendq_size;
	mock_ibdev_transmit_all(fix->sa->mdev);
	if (n < 5)
		post_get(test, low);
}

/*
 * Each completion posts the oldest of the backlog, so the QP never holds
 * more than two and all five are reported. (The backlog once counted as
 * posted, which kept the count at the queue's size after the first
 * completions: the backlog stayed put.)
 */
static void mad_backlog_drains_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	int n, failed, i, base;

	base = backlog_fill(test, 300);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test,
				mock_ibdev_qp_complete_send(fix->sa->qp, 1), 1);
		KUNIT_EXPECT_TRUE(test, wait_reported(fix, i + 1));
		/* the completion made room for one of the backlog, no more */
		KUNIT_EXPECT_TRUE(test, sa_fix_wait_sent(fix->sa, base + 3 + i));
		KUNIT_EXPECT_EQ(test, sa_fix_nsent(fix->sa) - base, 3 + i);
	}
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_complete_send(fix->sa->qp, 2), 2);
	KUNIT_EXPECT_TRUE(test, wait_reported(fix, 5));
	sends_reported(fix, &n, &failed);
	KUNIT_EXPECT_EQ(test, n, 5);
	KUNIT_EXPECT_EQ(test, failed, 0);
	backlog_end(test, n, 400);
}

/*
 * The driver refuses every post, and the two on the QP complete: every
 * send of the backlog is tried in turn and reported failed, none is left
 * behind with nothing on the QP to post it (it once stayed there, and its
 * agent's unregistration waited forever).
 */
static void mad_backlog_post_fails_test(struct kunit *test)
{
	struct rmpp_fix *fix = test->priv;
	int n, failed;

	backlog_fill(test, 100);
	sends_reported(fix, &n, &failed);
	KUNIT_EXPECT_EQ(test, n, 0);

	mock_ibdev_fail(fix->sa->mdev, MOCK_POST_SEND, -ENOMEM);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_complete_send(fix->sa->qp, 1), 1);
	KUNIT_EXPECT_TRUE(test, wait_reported(fix, 4));
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_complete_send(fix->sa->qp, 1), 1);
	KUNIT_EXPECT_TRUE(test, wait_reported(fix, 5));
	sends_reported(fix, &n, &failed);
	KUNIT_EXPECT_EQ(test, n, 5);
	KUNIT_EXPECT_EQ(test, failed, 3);
	backlog_end(test, n, 200);
}

static struct kunit_case rmpp_cases[] = {
	/* Buffers. */
	KUNIT_CASE(rmpp_segmentation_test),
	KUNIT_CASE(rmpp_create_errors_test),
	/* Sending: windows, the receiver's verdicts, timeouts. */
	KUNIT_CASE(rmpp_send_window_test),
	KUNIT_CASE(rmpp_send_single_test),
	KUNIT_CASE(rmpp_send_ack_too_far_test),
	KUNIT_CASE(rmpp_send_ack_w2s_test),
	KUNIT_CASE(rmpp_send_stop_abort_test),
	/* Sending: timeouts, responses. */
	KUNIT_CASE(rmpp_send_timeout_test),
	KUNIT_CASE(rmpp_send_retries_renewed_test),
	KUNIT_CASE(rmpp_send_then_response_test),
	KUNIT_CASE(rmpp_send_response_timeout_test),
	KUNIT_CASE(rmpp_send_response_test),
	/* Receiving. */
	KUNIT_CASE(rmpp_recv_in_order_test),
	KUNIT_CASE(rmpp_recv_out_of_order_test),
	KUNIT_CASE(rmpp_recv_duplicates_test),
	KUNIT_CASE(rmpp_recv_out_of_window_test),
	KUNIT_CASE(rmpp_recv_single_test),
	/* Receiving: faults, timeouts, responses, the end. */
	KUNIT_CASE(rmpp_recv_bad_segment_test),
	KUNIT_CASE(rmpp_recv_timeout_test),
	KUNIT_CASE(rmpp_recv_unasked_response_test),
	KUNIT_CASE(rmpp_recv_response_test),
	KUNIT_CASE(rmpp_cancel_on_unregister_test),
	KUNIT_CASE(rmpp_user_rmpp_test),
	/* Not RMPP: a claimed request, an unregistration, the send backlog. */
	KUNIT_CASE(mad_claim_then_cancel_test),
	KUNIT_CASE(mad_backlog_drains_test),
	KUNIT_CASE(mad_backlog_post_fails_test),
	{}
};

static struct kunit_suite rmpp_suite = {
	.name = "ib_core_mad_rmpp",
	.init = rmpp_test_init,
	.exit = rmpp_test_exit,
	.test_cases = rmpp_cases,
};

kunit_test_suite(rmpp_suite);

MODULE_DESCRIPTION("KUnit tests of RMPP in the MAD layer");
MODULE_LICENSE("GPL");
