/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SA suites' fixture: a mock device whose IB port speaks MADs, and a
 * stand-in for the SM on the far side of QP1.
 */
#ifndef RDMAOOT_KUNIT_MAD_SA_FIXTURE_H
#define RDMAOOT_KUNIT_MAD_SA_FIXTURE_H

#include <kunit/test.h>
#include <linux/delay.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>

#include "core/mad/sa.h"
#include "kunit/mock/mock_ibdev.h"

#define SA_FIX_PORT	1
/*
 * Long enough for the MAD layer's and the SA client's work items, also
 * on a debug kernel under TCG sharing the host with other jobs.
 */
#define SA_FIX_WAIT	(10 * HZ)

/**
 * struct sa_fix - one mock device with an SA client on its IB port
 * @mdev: the device (cfg.mad: QP0 and QP1, an SM at MOCK_IBDEV_SM_LID)
 * @port: the SA client's port
 * @qp: QP1, where the SA client's requests go out and answers come in
 */
struct sa_fix {
	struct mock_ibdev *mdev;
	struct ib_sa_port *port;
	struct ib_qp *qp;
};

/*
 * Set up the fixture in @test->priv; the suite's exit calls
 * mock_ibdev_cleanup_all(), which also undoes a setup stopped half way.
 */
static inline struct sa_fix *sa_fix_setup(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1, .mad = true };
	struct sa_fix *fix = kunit_kzalloc(test, sizeof(*fix), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fix);
	test->priv = fix;
	fix->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, fix->mdev);
	/*
	 * The wire takes every send at once, resends included: a MAD's
	 * send buffer lives until its send completes, and a resend left
	 * outstanding would keep its query (and ib_sa_unregister_client())
	 * waiting forever.
	 */
	mock_ibdev_transmit_all(fix->mdev);
	fix->port = ib_sa_port_find(&fix->mdev->ibdev, SA_FIX_PORT);
	KUNIT_ASSERT_NOT_NULL(test, fix->port);
	KUNIT_ASSERT_NOT_NULL(test, fix->port->agent);
	fix->qp = fix->port->agent->qp;
	return fix;
}

/* The @n-th send QP1 accepted (from 0), or false if there are fewer. */
static inline bool sa_fix_sent(struct sa_fix *fix, int n,
			       struct mock_sent_wr *out)
{
	struct mock_sent_wr *all;
	bool found;
	int got;

	all = kcalloc(MOCK_IBDEV_SENT_MAX, sizeof(*all), GFP_KERNEL);
	if (!all)
		return false;
	got = mock_ibdev_qp_sent(fix->qp, all, MOCK_IBDEV_SENT_MAX);
	found = n < got;
	if (found)
		*out = all[n];
	kfree(all);
	return found;
}

/* Sends QP1 accepted so far. */
static inline int sa_fix_nsent(struct sa_fix *fix)
{
	struct mock_sent_wr *all;
	int got;

	all = kcalloc(MOCK_IBDEV_SENT_MAX, sizeof(*all), GFP_KERNEL);
	if (!all)
		return 0;
	got = mock_ibdev_qp_sent(fix->qp, all, MOCK_IBDEV_SENT_MAX);
	kfree(all);
	return got;
}

/* Wait until @n sends went out. */
static inline bool sa_fix_wait_sent(struct sa_fix *fix, int n)
{
	unsigned long end = jiffies + SA_FIX_WAIT;

	while (sa_fix_nsent(fix) < n) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

/*
 * Answer the request @req as the SA would: the same header with
 * @method and @status, the record @rec (@len bytes) as its data.
 */
static inline int sa_fix_answer(struct sa_fix *fix,
				const struct mock_sent_wr *req, u8 method,
				u16 status, const void *rec, size_t len)
{
	struct ib_sa_mad *mad = kmemdup(req->mad, sizeof(*mad), GFP_KERNEL);
	int ret;

	if (!mad)
		return -ENOMEM;
	mad->mad_hdr.method = method;
	mad->mad_hdr.status = cpu_to_be16(status);
	memset(mad->data, 0, sizeof(mad->data));
	memcpy(mad->data, rec, min(len, sizeof(mad->data)));
	ret = mock_ibdev_qp_deliver(fix->qp, mad, sizeof(*mad), 1,
				    MOCK_IBDEV_SM_LID);
	kfree(mad);
	return ret;
}

#endif /* RDMAOOT_KUNIT_MAD_SA_FIXTURE_H */
