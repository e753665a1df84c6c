// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_xrcd: XRC domains and shared XRC target QPs of core/verbs/xrcd.c. */

#include <kunit/test.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "core/verbs/verbs.h"
#include "kunit/mock/mock_ibdev.h"

/**
 * struct xrcd_test - per-case state
 * @mdev: the device
 * @xrcd: an XRC domain on it
 */
struct xrcd_test {
	struct mock_ibdev *mdev;
	struct ib_xrcd *xrcd;
};

static int xrcd_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct xrcd_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	t->xrcd = ib_alloc_xrcd_user(&t->mdev->ibdev, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->xrcd);
	return 0;
}

static void xrcd_test_exit(struct kunit *test)
{
	struct xrcd_test *t = test->priv;

	if (!t)
		return;
	if (!IS_ERR_OR_NULL(t->xrcd))
		ib_dealloc_xrcd_user(t->xrcd, NULL);
	mock_ibdev_destroy(t->mdev);
}

static struct xrcd_test *tst(struct kunit *test)
{
	return test->priv;
}

/**
 * struct opener - one user of a shared QP: its handle's event context
 * @events: events delivered to it
 * @last_qp: element.qp of the last one
 */
struct opener {
	int events;
	struct ib_qp *last_qp;
};

static void opener_event(struct ib_event *event, void *context)
{
	struct opener *o = context;

	o->events++;
	o->last_qp = event->element.qp;
}

/* Create an XRC target QP in the case's domain; returns the first handle. */
static struct ib_qp *new_tgt_qp(struct kunit *test, struct opener *o)
{
	struct ib_qp_init_attr attr = {
		.event_handler = opener_event,
		.qp_context = o,
		.qp_type = IB_QPT_XRC_TGT,
		.xrcd = tst(test)->xrcd,
		.port_num = 1,
	};

	return ib_create_qp_user(&tst(test)->mdev->ibdev, NULL, &attr, NULL,
				 NULL, KBUILD_MODNAME);
}

static struct ib_qp_open_attr open_attr(struct ib_qp *qp, struct opener *o)
{
	return (struct ib_qp_open_attr) {
		.event_handler = opener_event,
		.qp_context = o,
		.qp_num = qp->qp_num,
		.qp_type = IB_QPT_XRC_TGT,
	};
}

/* ---- XRC domains --------------------------------------------------------- */

static void alloc_test(struct kunit *test)
{
	struct xrcd_test *t = tst(test);
	struct ib_xrcd *xrcd = t->xrcd;

	KUNIT_EXPECT_PTR_EQ(test, xrcd->device, &t->mdev->ibdev);
	KUNIT_EXPECT_NULL(test, xrcd->inode);
	KUNIT_EXPECT_EQ(test, atomic_read(&xrcd->usecnt), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&xrcd->tgt_qps));
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_XRCD), 1);

	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(xrcd, NULL), 0);
	t->xrcd = NULL;
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_XRCD), 0);
}

static void alloc_errors_test(struct kunit *test)
{
	struct xrcd_test *t = tst(test);
	struct ib_xrcd *xrcd;

	mock_ibdev_fail(t->mdev, MOCK_ALLOC_XRCD, -ENOSPC);
	xrcd = ib_alloc_xrcd_user(&t->mdev->ibdev, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(xrcd), -ENOSPC);

	t->mdev->ibdev.ops.alloc_xrcd = NULL;
	xrcd = ib_alloc_xrcd_user(&t->mdev->ibdev, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(xrcd), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_ALLOC_XRCD), 2);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_XRCD), 1);
}

static void dealloc_errors_test(struct kunit *test)
{
	struct xrcd_test *t = tst(test);

	atomic_inc(&t->xrcd->usecnt);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(t->xrcd, NULL), -EBUSY);
	atomic_dec(&t->xrcd->usecnt);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(t->mdev, MOCK_DEALLOC_XRCD), 0);

	mock_ibdev_fail(t->mdev, MOCK_DEALLOC_XRCD, -EIO);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(t->xrcd, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_XRCD), 1);
	mock_ibdev_fail(t->mdev, MOCK_DEALLOC_XRCD, 0);
}

/* ---- Shared target QPs --------------------------------------------------- */

/* Two users share a QP; it goes with the second one's destroy. */
static void shared_qp_test(struct kunit *test)
{
	struct xrcd_test *t = tst(test);
	struct ib_event event = { .event = IB_EVENT_QP_FATAL };
	struct opener a = {}, b = {};
	struct ib_qp_open_attr oattr;
	struct ib_qp *ha, *hb, *real;

	ha = new_tgt_qp(test, &a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ha);
	real = ha->real_qp;
	KUNIT_EXPECT_PTR_NE(test, real, ha);
	KUNIT_EXPECT_PTR_EQ(test, real->xrcd, t->xrcd);
	KUNIT_EXPECT_NULL(test, real->pd);
	KUNIT_EXPECT_NULL(test, real->send_cq);
	KUNIT_EXPECT_EQ(test, ha->qp_num, real->qp_num);
	KUNIT_EXPECT_EQ(test, ha->qp_type, IB_QPT_XRC_TGT);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 1);
	KUNIT_EXPECT_PTR_EQ(test, xa_load(&t->xrcd->tgt_qps, real->qp_num),
			    (void *)real);

	oattr = open_attr(real, &b);
	hb = ib_open_qp(t->xrcd, &oattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hb);
	KUNIT_EXPECT_PTR_EQ(test, hb->real_qp, real);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 2);
	/* the domain counts the QP, not its handles */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 1);

	/* an event of the QP reaches every handle, naming that handle */
	event.device = &t->mdev->ibdev;
	event.element.qp = real;
	real->event_handler(&event, real->qp_context);
	KUNIT_EXPECT_EQ(test, a.events, 1);
	KUNIT_EXPECT_EQ(test, b.events, 1);
	KUNIT_EXPECT_PTR_EQ(test, a.last_qp, ha);
	KUNIT_EXPECT_PTR_EQ(test, b.last_qp, hb);

	/* the real QP cannot go while handles exist */
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(real), -EBUSY);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(ha), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_QP), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_dealloc_xrcd_user(t->xrcd, NULL), -EBUSY);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(hb), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_QP), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&t->xrcd->tgt_qps));
}

/* Modify and query through a handle act on the real QP. */
static void handle_verbs_test(struct kunit *test)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_qp_init_attr init;
	struct opener a = {};
	struct ib_qp *h;

	h = new_tgt_qp(test, &a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(h, &attr, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_qp_state(h->real_qp), IB_QPS_INIT);
	memset(&attr, 0, sizeof(attr));
	KUNIT_EXPECT_EQ(test, ib_query_qp(h, &attr, IB_QP_STATE, &init), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(h), 0);
}

/* ib_close_qp() drops a handle only; the QP stays for the others. */
static void close_test(struct kunit *test)
{
	struct xrcd_test *t = tst(test);
	struct opener a = {}, b = {};
	struct ib_qp_open_attr oattr;
	struct ib_qp *ha, *hb, *real;

	ha = new_tgt_qp(test, &a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ha);
	real = ha->real_qp;
	oattr = open_attr(real, &b);
	hb = ib_open_qp(t->xrcd, &oattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hb);
	KUNIT_EXPECT_EQ(test, ib_close_qp(hb), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&real->usecnt), 1);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_QP), 1);
	/* a real QP is not a handle */
	KUNIT_EXPECT_EQ(test, ib_close_qp(real), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(ha), 0);
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_QP), 0);
}

static void open_errors_test(struct kunit *test)
{
	struct xrcd_test *t = tst(test);
	struct opener a = {};
	struct ib_qp_open_attr oattr;
	struct ib_qp *h, *got;

	h = new_tgt_qp(test, &a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	oattr = open_attr(h, &a);
	oattr.qp_type = IB_QPT_RC;
	got = ib_open_qp(t->xrcd, &oattr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(got), -EINVAL);
	oattr = open_attr(h, &a);
	oattr.qp_num = h->qp_num + 1;
	got = ib_open_qp(t->xrcd, &oattr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(got), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->real_qp->usecnt), 1);

	/* once destroyed it cannot be found */
	oattr = open_attr(h, &a);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(h), 0);
	got = ib_open_qp(t->xrcd, &oattr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(got), -EINVAL);
}

/* A target QP the driver cannot create leaves the domain untouched. */
static void create_error_test(struct kunit *test)
{
	struct xrcd_test *t = tst(test);
	struct opener a = {};
	struct ib_qp *h;

	mock_ibdev_fail(t->mdev, MOCK_CREATE_QP, -ENOSPC);
	h = new_tgt_qp(test, &a);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(h), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->xrcd->usecnt), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&t->xrcd->tgt_qps));
	KUNIT_EXPECT_EQ(test, mock_ibdev_live_objs(t->mdev, MOCK_OBJ_QP), 0);
}

static struct kunit_case ib_core_xrcd_cases[] = {
	KUNIT_CASE(alloc_test),
	KUNIT_CASE(alloc_errors_test),
	KUNIT_CASE(dealloc_errors_test),
	KUNIT_CASE(shared_qp_test),
	KUNIT_CASE(handle_verbs_test),
	KUNIT_CASE(close_test),
	KUNIT_CASE(open_errors_test),
	KUNIT_CASE(create_error_test),
	{}
};

static struct kunit_suite ib_core_xrcd_suite = {
	.name = "ib_core_xrcd",
	.init = xrcd_test_init,
	.exit = xrcd_test_exit,
	.test_cases = ib_core_xrcd_cases,
};

kunit_test_suite(ib_core_xrcd_suite);

MODULE_DESCRIPTION("KUnit tests for ib_core XRC domains and shared QPs");
MODULE_LICENSE("GPL");
