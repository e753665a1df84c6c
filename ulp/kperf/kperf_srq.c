// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: srq=1, the targets' QPs take their receives from one shared SRQ. */

#include <linux/delay.h>
#include <linux/jiffies.h>
#include "kperf.h"

/*
 * The limit check before the mode runs: this many receives are posted,
 * the limit is armed just below them, and as many messages take them.
 */
#define KPERF_SRQ_PRIMED	3
#define KPERF_SRQ_LIMIT		2

/* A refusal too long for one line once indented; its words are the interface. */
#define KPERF_SRQ_QP_ERR \
	"srq=1 does not go with fault=qp_err (a QP in error leaves the SRQ's receives alone)"

/**
 * kperf_srq_check() - the rules of srq=1
 * @p: the command, defaults filled in
 *
 * Return: what is wrong with the command, or NULL.
 */
const char *kperf_srq_check(const struct kperf_params *p)
{
	if (!p->srq)
		return NULL;
	if (!kperf_op_info(p->op)->recv)
		return "srq=1 needs an op that consumes a receive";
	if (p->mr != KPERF_MR_DMA)
		return "srq=1 needs mr=dma";
	if (p->fault == KPERF_FAULT_QP_ERR)
		return KPERF_SRQ_QP_ERR;
	return NULL;
}

/* Asynchronous event of the SRQ; @ctx is the target side. */
static void kperf_srq_event(struct ib_event *ev, void *ctx)
{
	struct kperf_side *s = ctx;

	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		WRITE_ONCE(s->srq_limit_hit, true);
}

/**
 * kperf_srq_create() - the SRQ of the target side (srq=1)
 * @run: the command; both sides open, no QP made yet
 *
 * It holds every receive the command may keep posted on all qps QPs, and
 * the limit check's. The target side's QPs are created on it.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno, with the reason recorded.
 */
int kperf_srq_create(struct kperf_run *run)
{
	struct kperf_side *s = &run->side[1];
	u32 want = run->p.qps * (2 * run->p.depth + 1) + KPERF_SRQ_PRIMED;
	struct ib_srq_init_attr attr = {
		.event_handler = kperf_srq_event,
		.srq_context = s,
		.attr = { .max_wr = want, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	int ret;

	if (want > s->ibdev->attrs.max_srq_wr)
		return kperf_run_fail(run, -EINVAL, "srq=1 needs %u SRQ WRs, %s has %d",
				      want, dev_name(&s->ibdev->dev),
				      s->ibdev->attrs.max_srq_wr);
	s->srq = ib_create_srq(s->pd, &attr);
	if (IS_ERR(s->srq)) {
		ret = PTR_ERR(s->srq);
		s->srq = NULL;
		return kperf_run_fail(run, ret, "ib_create_srq on %s failed",
				      dev_name(&s->ibdev->dev));
	}
	return 0;
}

/*
 * Message @i of the limit check, on connection i % qps: its receive must
 * come from the SRQ and complete on that connection's QP.
 */
static int kperf_srq_take(struct kperf_run *run, u32 i)
{
	unsigned int qpi = i % run->p.qps;
	struct ib_qp *want = run->conns[qpi].end[1].qp;
	struct ib_wc wc;
	int ret;

	ret = kperf_post_op(run, qpi, i, i, true);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_send of %s failed",
				      run->op->name);
	ret = kperf_cq_expect(run, &run->side[0], KPERF_WR_OP, &wc);
	if (!ret)
		ret = kperf_cq_expect(run, &run->side[1], KPERF_WR_RECV, &wc);
	if (ret)
		return ret;
	if (wc.qp != want)
		return kperf_run_fail(run, -EBADMSG,
				      "SRQ receive %u completed on QP %#x, expected %#x",
				      i, wc.qp->qp_num, want->qp_num);
	return 0;
}

/* Waits up to timeout_ms for IB_EVENT_SRQ_LIMIT_REACHED. */
static int kperf_srq_wait_event(struct kperf_run *run)
{
	unsigned long end = jiffies + msecs_to_jiffies(run->p.timeout_ms);
	int ret;

	while (!READ_ONCE(run->side[1].srq_limit_hit)) {
		ret = kperf_run_check(run);
		if (ret)
			return ret;
		if (time_after(jiffies, end))
			return kperf_run_fail(run, -ETIMEDOUT,
					      "no IB_EVENT_SRQ_LIMIT_REACHED after the SRQ fell below its limit %u",
					      KPERF_SRQ_LIMIT);
		usleep_range(100, 200);
	}
	return 0;
}

/**
 * kperf_srq_limit() - check the SRQ's sharing and its limit event
 * @run: the command, connected, before its mode runs
 *
 * Posts KPERF_SRQ_PRIMED receives, arms the limit at KPERF_SRQ_LIMIT and
 * sends as many messages, round robin over the connections; each receive
 * must complete on the QP its message arrived on, and the SRQ must report
 * IB_EVENT_SRQ_LIMIT_REACHED. The SRQ is empty afterwards. Adds an
 * "info srq_limit=..." line.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno, with the reason recorded.
 */
int kperf_srq_limit(struct kperf_run *run)
{
	struct ib_srq_attr attr = { .srq_limit = KPERF_SRQ_LIMIT };
	u32 i;
	int ret;

	for (i = 0; i < KPERF_SRQ_PRIMED; i++) {
		ret = kperf_post_recv(run, &run->conns[0].end[1],
				      kperf_wr_id(KPERF_WR_RECV, 0, i));
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_srq_recv failed");
	}
	ret = ib_modify_srq(run->side[1].srq, &attr, IB_SRQ_LIMIT);
	if (ret)
		return kperf_run_fail(run, ret, "arming the SRQ limit failed");
	for (i = 0; i < KPERF_SRQ_PRIMED; i++) {
		ret = kperf_srq_take(run, i);
		if (ret)
			return ret;
	}
	ret = kperf_srq_wait_event(run);
	if (ret)
		return ret;
	seq_buf_printf(run->out, "info srq_limit=%u srq_limit_event=1 srq_qps=%u\n",
		       KPERF_SRQ_LIMIT, run->p.qps);
	return 0;
}
