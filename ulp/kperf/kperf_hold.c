// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_kperf cm=rdma hold=1: connections kept up until debugfs closes them or
 * their devices go away.
 */
/*
 * A hold=1 command connects and verifies as usual, then lists itself in
 * /sys/kernel/debug/ib_kperf/hold and waits. A write to that file closes
 * every holding command, which then disconnects and ends as any other.
 *
 * A device that goes away under a holding command is what the mode is
 * for. The core removes a device's clients in the reverse order of their
 * registration, so kperf's client (registered after rdma_cm's, whose
 * symbols it uses) hears of it first, and its remove() waits for the
 * command (kperf_dev.c). The command gives up everything it has on that
 * side except the rdma_cm ids: their QPs, the buffers, the CQ, the PD and
 * its hold on the device. Then the removal reaches rdma_cm, which must
 * tell every id on the device (DEVICE_REMOVAL) and waits until each is
 * destroyed; the command counts the ids that heard it and destroys them
 * from its own context, as ULPs do. The other side keeps holding, so a
 * module unload that removes both devices, one after the other, is heard
 * by every id of the command.
 *
 * With abort= the connections are parked at that point instead of being
 * connected (kperf_rdma_cm_abort.c): ids in an address or route query,
 * a REQ unanswered, a REP not yet answered, a DREQ not yet answered,
 * timewait. Only the ids that exist count.
 */

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/wait.h>
#include <rdma/rdma_cm.h>
#include "kperf.h"

/* How often a holding command looks at its devices. */
#define KPERF_HOLD_POLL_MS	100

/**
 * struct kperf_hold - a command holding its connections
 * @run: the command
 * @node: in kperf_holds
 * @closed: a write to the hold file asked it to end
 */
struct kperf_hold {
	struct kperf_run *run;
	struct list_head node;
	bool closed;
};

/* The holding commands; kperf_holds_lock protects the list. */
static LIST_HEAD(kperf_holds);
static DEFINE_MUTEX(kperf_holds_lock);
static DECLARE_WAIT_QUEUE_HEAD(kperf_holds_wq);

/* Side @d is still open and its device is going away. */
static bool kperf_hold_lost(struct kperf_run *run, int d)
{
	struct kperf_side *s = &run->side[d];

	return s->kdev && kperf_dev_gone(s->kdev);
}

/*
 * Everything of side @d but its rdma_cm ids: the QPs on them, the
 * buffers, then the CQ, PD and device hold (kperf_side_close()).
 */
static void kperf_hold_drop_side(struct kperf_run *run, int d)
{
	struct kperf_cm_conn *cc = run->rdma_cm->conns;
	struct kperf_end *e;
	unsigned int i;

	for (i = 0; i < run->p.qps; i++) {
		e = &run->conns[i].end[d];
		if (cc[i].end[d].rdma && cc[i].end[d].rdma->qp)
			rdma_destroy_qp(cc[i].end[d].rdma);
		else if (e->qp)		/* abort=rep: kperf's own */
			ib_destroy_qp(e->qp);
		e->qp = NULL;
		kperf_buf_free(&run->side[d], &e->buf);
	}
	kperf_side_close(&run->side[d]);
}

/* One id of a side that went: count it, and its DEVICE_REMOVAL; destroy it. */
static void kperf_hold_removed_id(struct kperf_run *run,
				  struct kperf_cm_end *ce,
				  struct rdma_cm_id **id, unsigned long end)
{
	if (!*id)
		return;
	run->removal_ids++;
	if (kperf_cm_end_wait_removal(ce, end))
		run->removals++;
	rdma_destroy_id(*id);
	*id = NULL;
}

/* The ids of side @d, whose device went (the listener is side 1's). */
static void kperf_hold_removed_side(struct kperf_run *run, int d)
{
	struct kperf_rdma_cm *rcm = run->rdma_cm;
	unsigned long end = jiffies + msecs_to_jiffies(KPERF_CM_WAIT_MS);
	unsigned int i;

	for (i = 0; i < run->p.qps; i++)
		kperf_hold_removed_id(run, &rcm->conns[i].end[d],
				      &rcm->conns[i].end[d].rdma, end);
	if (d == 1)
		kperf_hold_removed_id(run, &rcm->listen_end, &rcm->listen, end);
}

/*
 * The sides whose devices are going away: first both are given up (with
 * dev=peer one device is both sides, and its removal waits for both),
 * then their ids are heard and destroyed.
 */
static void kperf_hold_lose(struct kperf_run *run)
{
	bool lost[2];
	int d;

	for (d = 0; d < 2; d++) {
		lost[d] = kperf_hold_lost(run, d);
		if (lost[d])
			kperf_hold_drop_side(run, d);
	}
	for (d = 0; d < 2; d++)
		if (lost[d])
			kperf_hold_removed_side(run, d);
}

static bool kperf_hold_open(struct kperf_run *run)
{
	return run->side[0].kdev || run->side[1].kdev;
}

/**
 * kperf_hold_run() - hold a command's connections (hold=1)
 * @run: the command, cm=rdma, connected and verified, or with abort= its
 *	 connections parked where abort= says
 *
 * Returns once the hold file was written, or once both sides' devices
 * went away.
 *
 * Context: the command's process context, sleeps.
 * Return: 0; -EPROTO when an id on a device that went away did not hear
 * DEVICE_REMOVAL, -EINTR on a fatal signal.
 */
int kperf_hold_run(struct kperf_run *run)
{
	struct kperf_hold h = { .run = run };
	int ret = 0;

	mutex_lock(&kperf_holds_lock);
	list_add_tail(&h.node, &kperf_holds);
	mutex_unlock(&kperf_holds_lock);
	while (!ret && !READ_ONCE(h.closed) && kperf_hold_open(run)) {
		wait_event_timeout(kperf_holds_wq, READ_ONCE(h.closed),
				   msecs_to_jiffies(KPERF_HOLD_POLL_MS));
		if (fatal_signal_pending(current))
			ret = kperf_run_fail(run, -EINTR, "interrupted");
		else
			kperf_hold_lose(run);
	}
	mutex_lock(&kperf_holds_lock);
	list_del(&h.node);
	mutex_unlock(&kperf_holds_lock);
	if (!ret && run->removals != run->removal_ids)
		ret = kperf_run_fail(run, -EPROTO,
				     "%u of %u ids on the devices that went away heard DEVICE_REMOVAL",
				     run->removals, run->removal_ids);
	return ret;
}

/**
 * kperf_hold_show() - the debugfs file "hold"
 * @m: the file
 * @unused: nothing
 *
 * One line "hold dev=<dev> peer=<peer> qps=<n> addr_changes=<n>" per
 * holding command.
 *
 * Return: 0.
 */
int kperf_hold_show(struct seq_file *m, void *unused)
{
	struct kperf_hold *h;

	mutex_lock(&kperf_holds_lock);
	list_for_each_entry(h, &kperf_holds, node)
		seq_printf(m, "hold dev=%s peer=%s qps=%u addr_changes=%d\n",
			   h->run->p.dev, h->run->p.peer, h->run->p.qps,
			   atomic_read(&h->run->addr_changes));
	mutex_unlock(&kperf_holds_lock);
	return 0;
}

/**
 * kperf_hold_release_all() - end every holding command's hold
 *
 * Context: process context (a write to the hold file).
 */
void kperf_hold_release_all(void)
{
	struct kperf_hold *h;

	mutex_lock(&kperf_holds_lock);
	list_for_each_entry(h, &kperf_holds, node)
		WRITE_ONCE(h->closed, true);
	mutex_unlock(&kperf_holds_lock);
	wake_up_all(&kperf_holds_wq);
}
