// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_restrack: resource tracking of core/restrack/restrack.c
 * on the mock driver.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#include "core/restrack/restrack.h"
#include "kunit/mock/mock_ibdev.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* How long a destroy must stay blocked, and how long it may take after. */
#define BLOCKED_MS	200
#define WAIT_MS		5000

/**
 * struct rt_test - per-case state
 * @mdev: a registered mock device
 * @pd: a PD on it, the first object tracked (PD id 0)
 */
struct rt_test {
	struct mock_ibdev *mdev;
	struct ib_pd *pd;
};

static int rt_test_init(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct rt_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->mdev = mock_ibdev_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);
	/* no internal MR: MR counts are only the case's own */
	t->mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	t->pd = ib_alloc_pd(&t->mdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	return 0;
}

static void rt_test_exit(struct kunit *test)
{
	struct rt_test *t = test->priv;

	if (!t)
		return;
	if (!IS_ERR_OR_NULL(t->pd) && !atomic_read(&t->pd->usecnt))
		ib_dealloc_pd(t->pd);
	mock_ibdev_destroy(t->mdev);
}

static struct rt_test *tst(struct kunit *test)
{
	return test->priv;
}

static struct ib_device *tdev(struct kunit *test)
{
	return &tst(test)->mdev->ibdev;
}

static int count(struct kunit *test, enum rdma_restrack_type type)
{
	return rdma_restrack_count(tdev(test), type, false);
}

static struct ib_cq *new_cq(struct kunit *test)
{
	return ib_alloc_cq(tdev(test), NULL, 16, 0, IB_POLL_DIRECT);
}

static struct ib_qp *new_qp(struct kunit *test, struct ib_cq *cq,
			    enum ib_qp_type type)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = type,
		.port_num = 1,
	};

	return ib_create_qp(tst(test)->pd, &attr);
}

static struct ib_srq *new_srq(struct kunit *test)
{
	struct ib_srq_init_attr attr = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};

	return ib_create_srq(tst(test)->pd, &attr);
}

/* get_byid() finds @want (then unpinned again). */
static void expect_byid(struct kunit *test, enum rdma_restrack_type type,
			u32 id, struct rdma_restrack_entry *want)
{
	struct rdma_restrack_entry *res;

	res = rdma_restrack_get_byid(tdev(test), type, id);
	KUNIT_EXPECT_PTR_EQ(test, res, want);
	if (!IS_ERR(res))
		rdma_restrack_put(res);
}

/* ---- Counts and owners --------------------------------------------------- */

/* Each type's count follows creation and destruction, and only its own. */
static void counts_test(struct kunit *test)
{
	struct ib_pd *pd = tst(test)->pd;
	struct ib_cq_init_attr cq_attr = { .cqe = 8 };
	struct ib_cq *cq, *raw_cq;
	struct ib_mr *mr, *pi_mr, *user_mr;
	struct ib_srq *srq;
	struct ib_qp *qp;

	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 1);
	cq = new_cq(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	raw_cq = ib_create_cq(tdev(test), NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw_cq);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CQ), 2);

	qp = new_qp(test, cq, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_QP), 1);

	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	pi_mr = ib_alloc_mr_integrity(pd, 4, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pi_mr);
	user_mr = ib_reg_user_mr(pd, 0x7000, 0x1000, 0x7000,
				 IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, user_mr);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_MR), 3);

	srq = new_srq(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_SRQ), 1);
	/* nothing else moved */
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 1);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CM_ID), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CTX), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_COUNTER), 0);

	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_SRQ), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(user_mr), 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(pi_mr), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_MR), 1);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_MR), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_QP), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(raw_cq, NULL), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CQ), 1);
	ib_free_cq(cq);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CQ), 0);
}

static void expect_kernel_owned(struct kunit *test,
				const struct rdma_restrack_entry *res,
				enum rdma_restrack_type type)
{
	KUNIT_EXPECT_TRUE(test, res->valid);
	KUNIT_EXPECT_EQ(test, res->type, type);
	KUNIT_EXPECT_TRUE(test, rdma_is_kernel_res(res));
	KUNIT_EXPECT_NULL(test, res->task);
	KUNIT_ASSERT_NOT_NULL(test, res->kern_name);
	KUNIT_EXPECT_STREQ(test, res->kern_name, KBUILD_MODNAME);
}

/*
 * Objects a module creates carry its KBUILD_MODNAME; those on a PD
 * (MR, SRQ) inherit the PD's owner.
 */
static void owner_test(struct kunit *test)
{
	struct ib_pd *pd = tst(test)->pd;
	struct ib_srq *srq;
	struct ib_cq *cq;
	struct ib_mr *mr;
	struct ib_qp *qp;

	expect_kernel_owned(test, &pd->res, RDMA_RESTRACK_PD);
	cq = new_cq(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	expect_kernel_owned(test, &cq->res, RDMA_RESTRACK_CQ);
	qp = new_qp(test, cq, IB_QPT_UD);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	expect_kernel_owned(test, &qp->res, RDMA_RESTRACK_QP);
	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	expect_kernel_owned(test, &mr->res, RDMA_RESTRACK_MR);
	KUNIT_EXPECT_PTR_EQ(test, mr->res.kern_name, pd->res.kern_name);
	srq = new_srq(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	expect_kernel_owned(test, &srq->res, RDMA_RESTRACK_SRQ);
	KUNIT_EXPECT_PTR_EQ(test, srq->res.kern_name, pd->res.kern_name);

	ib_destroy_srq(srq);
	ib_dereg_mr(mr);
	ib_destroy_qp(qp);
	ib_free_cq(cq);
}

/* A user owner: the task is held, passed on to children, then released. */
static void user_owner_test(struct kunit *test)
{
	struct rdma_restrack_entry parent = {}, child = {};

	rdma_restrack_new(&parent, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&parent, NULL);
	KUNIT_EXPECT_FALSE(test, rdma_is_kernel_res(&parent));
	KUNIT_EXPECT_PTR_EQ(test, parent.task, current);

	rdma_restrack_new(&child, RDMA_RESTRACK_MR);
	rdma_restrack_parent_name(&child, &parent);
	KUNIT_EXPECT_FALSE(test, rdma_is_kernel_res(&child));
	KUNIT_EXPECT_PTR_EQ(test, child.task, current);
	KUNIT_EXPECT_NULL(test, child.kern_name);

	/* a failed create: the put releases the task of an unadded entry */
	KUNIT_EXPECT_EQ(test, rdma_restrack_put(&child), 1);
	KUNIT_EXPECT_NULL(test, child.task);
	/* del of an entry never added only releases the task */
	rdma_restrack_del(&parent);
	KUNIT_EXPECT_NULL(test, parent.task);
	KUNIT_EXPECT_FALSE(test, parent.valid);
}

/* ---- Ids ----------------------------------------------------------------- */

/* Set where the next cyclic PD id search starts, as after many PDs. */
static void set_next_pd_id(struct kunit *test, u32 next)
{
	struct rdma_restrack_root *root = &tdev(test)->res[RDMA_RESTRACK_PD];

	xa_lock(&root->xa);
	root->next_id = next;
	xa_unlock(&root->xa);
}

/* Ids are unique, not reused at once, and wrap around at the top. */
static void cyclic_id_test(struct kunit *test)
{
	struct ib_pd *pd[5];
	unsigned int i;

	KUNIT_EXPECT_EQ(test, tst(test)->pd->res.id, 0U);
	for (i = 0; i < 3; i++) {
		pd[i] = ib_alloc_pd(tdev(test), 0);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd[i]);
		KUNIT_EXPECT_EQ(test, pd[i]->res.id, i + 1);
	}
	/* id 2 is free again, but the next PD gets 4 */
	ib_dealloc_pd(pd[1]);
	pd[1] = ib_alloc_pd(tdev(test), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd[1]);
	KUNIT_EXPECT_EQ(test, pd[1]->res.id, 4U);

	set_next_pd_id(test, U32_MAX);
	pd[3] = ib_alloc_pd(tdev(test), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd[3]);
	KUNIT_EXPECT_EQ(test, pd[3]->res.id, U32_MAX);
	/* past the top: the lowest free id, the one freed above */
	pd[4] = ib_alloc_pd(tdev(test), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd[4]);
	KUNIT_EXPECT_EQ(test, pd[4]->res.id, 2U);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 6);

	for (i = 0; i < ARRAY_SIZE(pd); i++)
		ib_dealloc_pd(pd[i]);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 1);
}

/*
 * A QP is listed under its QP number; QP1 carries its port in the top
 * byte; driver-specific QP types count only with show_details.
 */
static void qp_id_test(struct kunit *test)
{
	struct ib_qp *rc, *gsi, *drv;
	struct ib_cq *cq = new_cq(test);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	rc = new_qp(test, cq, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rc);
	KUNIT_EXPECT_EQ(test, rc->res.id, rc->qp_num);
	gsi = new_qp(test, cq, IB_QPT_GSI);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gsi);
	KUNIT_EXPECT_EQ(test, gsi->res.id, 1U | 1U << 24);
	expect_byid(test, RDMA_RESTRACK_QP, 1U << 24 | 1, &gsi->res);
	expect_byid(test, RDMA_RESTRACK_QP, rc->qp_num, &rc->res);

	drv = new_qp(test, cq, IB_QPT_DRIVER);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, drv);
	KUNIT_EXPECT_TRUE(test, drv->res.valid);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_QP), 2);
	KUNIT_EXPECT_EQ(test,
			rdma_restrack_count(tdev(test), RDMA_RESTRACK_QP, true),
			3);

	ib_destroy_qp(drv);
	ib_destroy_qp(gsi);
	ib_destroy_qp(rc);
	KUNIT_EXPECT_EQ(test,
			rdma_restrack_count(tdev(test), RDMA_RESTRACK_QP, true),
			0);
	ib_free_cq(cq);
}

/*
 * A QP number wider than 24 bits gets no id: the QP works but is not
 * tracked. Logs one ibdev_warn line ("... no restrack id").
 */
static void qp_bad_qpn_test(struct kunit *test)
{
	struct ib_cq *cq = new_cq(test);
	struct ib_qp *qp;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	atomic_set(&tst(test)->mdev->next_qpn, (1 << 24) - 1);
	qp = new_qp(test, cq, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_EQ(test, qp->qp_num, 1U << 24);
	KUNIT_EXPECT_FALSE(test, qp->res.valid);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_QP), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
}

/* ---- Lookup and references ----------------------------------------------- */

static void get_byid_test(struct kunit *test)
{
	struct ib_pd *pd = tst(test)->pd, *gone;
	struct rdma_restrack_entry *res;
	u32 gone_id;

	res = rdma_restrack_get_byid(tdev(test), RDMA_RESTRACK_PD, pd->res.id);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, res);
	KUNIT_EXPECT_PTR_EQ(test, res, &pd->res);
	KUNIT_EXPECT_EQ(test, kref_read(&res->kref), 2U);
	KUNIT_EXPECT_TRUE(test, rdma_restrack_get(res));
	KUNIT_EXPECT_EQ(test, kref_read(&res->kref), 3U);
	KUNIT_EXPECT_EQ(test, rdma_restrack_put(res), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_put(res), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&res->kref), 1U);

	/* wrong type, unknown id, destroyed object */
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(tdev(test),
							     RDMA_RESTRACK_CQ,
							     pd->res.id)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(tdev(test),
							     RDMA_RESTRACK_PD, 77)), -ENOENT);
	gone = ib_alloc_pd(tdev(test), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gone);
	gone_id = gone->res.id;
	ib_dealloc_pd(gone);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(tdev(test),
							     RDMA_RESTRACK_PD, gone_id)), -ENOENT);
}

/**
 * struct destroy_work - an object destroyed from a work item
 * @work: runs @destroy(@obj)
 * @destroy: the destroy verb
 * @obj: what to destroy
 * @done: completed after @destroy returned
 */
struct destroy_work {
	struct work_struct work;
	void (*destroy)(void *obj);
	void *obj;
	struct completion done;
};

static void destroy_work_fn(struct work_struct *work)
{
	struct destroy_work *dw = container_of(work, struct destroy_work, work);

	dw->destroy(dw->obj);
	complete(&dw->done);
}

static void destroy_pd(void *obj)
{
	ib_dealloc_pd(obj);
}

static void destroy_cq(void *obj)
{
	ib_free_cq(obj);
}

/* Poll (bounded) until @res has @n references. */
static bool wait_for_kref(struct rdma_restrack_entry *res, unsigned int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	while (kref_read(&res->kref) != n) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(5000, 10000);
	}
	return true;
}

/*
 * Pin @res, destroy its object elsewhere and check the destroy waits for
 * the pin: the object is hidden at once but the driver is not called
 * until the pin is dropped.
 */
static void expect_destroy_waits(struct kunit *test,
				 struct rdma_restrack_entry *res,
				 void (*destroy)(void *obj), void *obj,
				 enum mock_verb verb)
{
	struct destroy_work *dw = kunit_kzalloc(test, sizeof(*dw), GFP_KERNEL);
	enum rdma_restrack_type type = res->type;
	u32 id = res->id;

	KUNIT_ASSERT_NOT_NULL(test, dw);
	KUNIT_ASSERT_TRUE(test, rdma_restrack_get(res));
	INIT_WORK(&dw->work, destroy_work_fn);
	init_completion(&dw->done);
	dw->destroy = destroy;
	dw->obj = obj;
	schedule_work(&dw->work);

	/* the destroyer has dropped the owner's reference: only ours is left */
	KUNIT_EXPECT_TRUE(test, wait_for_kref(res, 1));
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&dw->done,
							  msecs_to_jiffies(BLOCKED_MS)), 0UL);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(tst(test)->mdev, verb), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_restrack_get_byid(tdev(test), type,
							     id)), -ENOENT);

	rdma_restrack_put(res);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&dw->done,
							  msecs_to_jiffies(WAIT_MS)), 0UL);
	flush_work(&dw->work);
	KUNIT_EXPECT_EQ(test, mock_ibdev_calls(tst(test)->mdev, verb), 1);
}

/* The begin/commit destroy path (PD) waits for a reader's pin. */
static void destroy_waits_pd_test(struct kunit *test)
{
	struct ib_pd *pd = ib_alloc_pd(tdev(test), 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	expect_destroy_waits(test, &pd->res, destroy_pd, pd, MOCK_DEALLOC_PD);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 1);
	KUNIT_EXPECT_EQ(test,
			mock_ibdev_live_objs(tst(test)->mdev, MOCK_OBJ_PD), 1);
}

/* So does the plain del path (ib_free_cq). */
static void destroy_waits_cq_test(struct kunit *test)
{
	struct ib_cq *cq = new_cq(test);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	expect_destroy_waits(test, &cq->res, destroy_cq, cq, MOCK_DESTROY_CQ);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CQ), 0);
}

/* ---- Failures ------------------------------------------------------------ */

/* A create the driver fails leaves nothing tracked and uses up no id. */
static void create_failure_test(struct kunit *test)
{
	struct mock_ibdev *mdev = tst(test)->mdev;
	struct ib_cq_init_attr cq_attr = { .cqe = 8 };
	struct ib_cq *cq;

	mock_ibdev_fail(mdev, MOCK_ALLOC_PD, -ENOSPC);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_alloc_pd(tdev(test), 0)));
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 1);

	mock_ibdev_fail(mdev, MOCK_CREATE_CQ, -ENOSPC);
	KUNIT_EXPECT_TRUE(test, IS_ERR(new_cq(test)));
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_create_cq(tdev(test), NULL, NULL,
						    NULL, &cq_attr)));
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CQ), 0);
	mock_ibdev_fail(mdev, MOCK_CREATE_CQ, 0);
	cq = new_cq(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_EQ(test, cq->res.id, 0U);

	mock_ibdev_fail(mdev, MOCK_CREATE_QP, -ENOSPC);
	KUNIT_EXPECT_TRUE(test, IS_ERR(new_qp(test, cq, IB_QPT_RC)));
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_QP), 0);
	mock_ibdev_fail(mdev, MOCK_CREATE_SRQ, -ENOSPC);
	KUNIT_EXPECT_TRUE(test, IS_ERR(new_srq(test)));
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_SRQ), 0);
	mock_ibdev_fail(mdev, MOCK_ALLOC_MR, -ENOSPC);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_alloc_mr(tst(test)->pd,
						   IB_MR_TYPE_MEM_REG, 4)));
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_MR), 0);
	ib_free_cq(cq);
}

/* A destroy the driver refuses leaves the object tracked and pinnable. */
static void destroy_failure_test(struct kunit *test)
{
	struct mock_ibdev *mdev = tst(test)->mdev;
	struct ib_cq_init_attr cq_attr = { .cqe = 8 };
	struct ib_pd *pd = ib_alloc_pd(tdev(test), 0);
	struct ib_cq *cq = ib_create_cq(tdev(test), NULL, NULL, NULL, &cq_attr);
	struct ib_qp *qp;
	struct ib_mr *mr;
	u32 pd_id;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	qp = new_qp(test, cq, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	pd_id = pd->res.id;

	mock_ibdev_fail(mdev, MOCK_DESTROY_QP, -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), -EBUSY);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_QP), 1);
	KUNIT_EXPECT_TRUE(test, rdma_restrack_get(&qp->res));
	rdma_restrack_put(&qp->res);
	mock_ibdev_fail(mdev, MOCK_DESTROY_QP, 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);

	/* an MR is untracked before the driver frees it: back, new id */
	mock_ibdev_fail(mdev, MOCK_DEREG_MR, -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), -EBUSY);
	KUNIT_EXPECT_TRUE(test, mr->res.valid);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_MR), 1);
	mock_ibdev_fail(mdev, MOCK_DEREG_MR, 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);

	mock_ibdev_fail(mdev, MOCK_DEALLOC_PD, -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 2);
	expect_byid(test, RDMA_RESTRACK_PD, pd_id, &pd->res);
	mock_ibdev_fail(mdev, MOCK_DEALLOC_PD, 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd_user(pd, NULL), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 1);

	mock_ibdev_fail(mdev, MOCK_DESTROY_CQ, -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CQ), 1);
	mock_ibdev_fail(mdev, MOCK_DESTROY_CQ, 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(cq, NULL), 0);
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_CQ), 0);
}

/* ---- Entries restrack does not list, and sync ---------------------------- */

/* rdma_restrack_no_track(): valid, but never in the table. */
static void no_track_test(struct kunit *test)
{
	struct ib_pd fake = { .device = tdev(test) };

	rdma_restrack_new(&fake.res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&fake.res, KBUILD_MODNAME);
	rdma_restrack_no_track(&fake.res);
	rdma_restrack_add(&fake.res);
	KUNIT_EXPECT_TRUE(test, fake.res.valid);
	KUNIT_EXPECT_FALSE(test, rdma_restrack_is_tracked(&fake.res));
	KUNIT_EXPECT_EQ(test, count(test, RDMA_RESTRACK_PD), 1);
	rdma_restrack_del(&fake.res);
	KUNIT_EXPECT_FALSE(test, fake.res.valid);
	KUNIT_EXPECT_EQ(test, kref_read(&fake.res.kref), 0U);
}

/* rdma_restrack_sync() leaves the entry listed, under the same id. */
static void sync_test(struct kunit *test)
{
	struct ib_pd *pd = tst(test)->pd;

	rdma_restrack_sync(&pd->res);
	KUNIT_EXPECT_TRUE(test, pd->res.valid);
	KUNIT_EXPECT_EQ(test, kref_read(&pd->res.kref), 1U);
	expect_byid(test, RDMA_RESTRACK_PD, pd->res.id, &pd->res);
}

/* ---- The leak report ----------------------------------------------------- */

static void describe_test(struct kunit *test)
{
	struct rdma_restrack_entry user = {};
	char buf[96], expect[96];
	struct ib_cq *cq = new_cq(test);
	struct ib_qp *qp;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	rdma_restrack_describe(&tst(test)->pd->res, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "PD 0 owned by " KBUILD_MODNAME);

	qp = new_qp(test, cq, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	rdma_restrack_describe(&qp->res, buf, sizeof(buf));
	snprintf(expect, sizeof(expect), "QP %u owned by %s", qp->qp_num,
		 KBUILD_MODNAME);
	KUNIT_EXPECT_STREQ(test, buf, expect);
	/* a short buffer: truncated, the full length returned */
	KUNIT_EXPECT_EQ(test, rdma_restrack_describe(&qp->res, buf, 4),
			(int)strlen(expect));
	KUNIT_EXPECT_STREQ(test, buf, "QP ");

	rdma_restrack_new(&user, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&user, NULL);
	user.id = 7;
	rdma_restrack_describe(&user, buf, sizeof(buf));
	snprintf(expect, sizeof(expect), "CQ 7 owned by %s pid %d",
		 current->comm, task_pid_nr(current));
	KUNIT_EXPECT_STREQ(test, buf, expect);
	rdma_restrack_del(&user);

	/*
	 * A kernel object whose owner's name cannot be read any more (the
	 * module that leaked it is gone): said so, never a fault. An
	 * address no kernel read may touch stands for the unmapped name.
	 */
	memset(&user, 0, sizeof(user));
	rdma_restrack_new(&user, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&user, "x");
	user.kern_name = (const char *)16;
	user.id = 9;
	rdma_restrack_describe(&user, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "CQ 9 owned by (a module since unloaded)");
	user.kern_name = NULL;
	rdma_restrack_describe(&user, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "CQ 9 owned by (unnamed)");
	rdma_restrack_del(&user);

	ib_destroy_qp(qp);
	ib_free_cq(cq);
}

/*
 * Freeing a device with a PD still allocated: no crash, no WARN, no leak
 * of the tables. Logs, at err level, "1 objects still tracked at
 * deallocation..." and "leaked PD 0 owned by restrack_test". The PD's
 * memory is the test's to free afterwards, as the device is gone.
 */
static void leak_report_test(struct kunit *test)
{
	const struct mock_ibdev_cfg cfg = { .nports = 1 };
	struct mock_ibdev *mdev = mock_ibdev_create(&cfg);
	struct ib_pd *pd;

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	mdev->ibdev.attrs.kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	pd = ib_alloc_pd(&mdev->ibdev, 0);
	if (IS_ERR(pd)) {
		mock_ibdev_destroy(mdev);
		KUNIT_FAIL(test, "no PD: %ld", PTR_ERR(pd));
		return;
	}
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(&mdev->ibdev,
						  RDMA_RESTRACK_PD, false), 1);
	mock_ibdev_destroy(mdev);
	/* ib_pd is the first member of the mock's PD */
	kfree(pd);
}

static struct kunit_case ib_core_restrack_cases[] = {
	KUNIT_CASE(counts_test),
	KUNIT_CASE(owner_test),
	KUNIT_CASE(user_owner_test),
	KUNIT_CASE(cyclic_id_test),
	KUNIT_CASE(qp_id_test),
	KUNIT_CASE(qp_bad_qpn_test),
	KUNIT_CASE(get_byid_test),
	KUNIT_CASE(destroy_waits_pd_test),
	KUNIT_CASE(destroy_waits_cq_test),
	KUNIT_CASE(create_failure_test),
	KUNIT_CASE(destroy_failure_test),
	KUNIT_CASE(no_track_test),
	KUNIT_CASE(sync_test),
	KUNIT_CASE(describe_test),
	KUNIT_CASE(leak_report_test),
	{}
};

static struct kunit_suite ib_core_restrack_suite = {
	.name = "ib_core_restrack",
	.init = rt_test_init,
	.exit = rt_test_exit,
	.test_cases = ib_core_restrack_cases,
};

kunit_test_suite(ib_core_restrack_suite);

MODULE_DESCRIPTION("KUnit tests for ib_core resource tracking");
MODULE_LICENSE("GPL");
