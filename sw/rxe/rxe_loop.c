// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_loop.c - packets for an address of this host: one FIFO per CPU,
 * emptied by that CPU's tasklet.
 *
 * A packet an rxe device sends to a local address (itself, or another rxe
 * device of this host) never reaches a wire. Handing it to the receiver
 * inside the sender's call would run the receiving engine from process
 * context with bottom halves off, where it may not run inline and has to
 * be queued on the workqueue: one work item, and a thread switch, per
 * packet. Queued here instead, the packet is received in softirq like one
 * from a real net device: the receiving engine runs inline, and its
 * answers come back through the same FIFO in order.
 *
 * A process that posts (a user QP's doorbell, a kernel ULP's post) is
 * outside any softirq: a tasklet scheduled from there would wait for the
 * next interrupt on this CPU or for ksoftirqd, a thread the scheduler
 * need not run before the poster's time slice ends (a tick, 4 ms) when
 * the poster busy-polls its CQ, as perftest and most user programs do.
 * So the queueing runs with bottom halves off and turns them on again at
 * the end, which runs the tasklet then and there, as netif_rx() does for
 * a packet a process hands to the stack.
 *
 * Each queued skb holds a reference to its destination net device
 * (skb->dev), dropped once the packet has been handed over, so a device
 * cannot go away while its packets wait.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <net/dst.h>
#include "rxe_net.h"

/* Packets one tasklet run hands over before it yields to other softirqs. */
#define RXE_LOOP_BUDGET		64

/**
 * struct rxe_loop_cpu - the local delivery queue of one CPU
 * @pkts:    packets waiting, in the order they were sent (its own lock;
 *	     filled and emptied on this CPU, except after CPU hotplug moved
 *	     the tasklet)
 * @tasklet: empties @pkts
 */
struct rxe_loop_cpu {
	struct sk_buff_head pkts;
	struct tasklet_struct tasklet;
};

static DEFINE_PER_CPU(struct rxe_loop_cpu, rxe_loop_cpus);

/* Hand one packet to the device it was queued for; drop its reference. */
static void rxe_loop_hand_over(struct sk_buff *skb)
{
	struct net_device *to = skb->dev;

	rcu_read_lock();
	rxe_net_loop_rcv(to, skb);
	rcu_read_unlock();
	dev_put(to);
}

static void rxe_loop_run(struct tasklet_struct *t)
{
	struct rxe_loop_cpu *lc = from_tasklet(lc, t, tasklet);
	struct sk_buff *skb;
	unsigned int n;

	for (n = 0; n < RXE_LOOP_BUDGET; n++) {
		skb = skb_dequeue(&lc->pkts);
		if (!skb)
			return;
		rxe_loop_hand_over(skb);
	}
	if (!skb_queue_empty_lockless(&lc->pkts))
		tasklet_schedule(&lc->tasklet);
}

/**
 * rxe_loop_queue() - deliver a packet to a local rxe device later
 * @to:  the net device owning the destination address (may be NULL: the
 *	 packet is dropped)
 * @skb: the packet, skb->data at the IP header; consumed
 *
 * From process context (interrupts on) the packet is handed over before
 * this returns; from softirq, when the current softirq run gets to it.
 *
 * Context: any but hard interrupt; the caller holds rcu_read_lock() so
 * that @to stays valid until its reference is taken.
 */
void rxe_loop_queue(struct net_device *to, struct sk_buff *skb)
{
	bool bh_here = !(hardirq_count() | softirq_count()) && !irqs_disabled();
	struct rxe_loop_cpu *lc;
	unsigned long flags;

	if (!to) {
		kfree_skb(skb);
		return;
	}
	dev_hold(to);
	skb_dst_drop(skb);
	skb->dev = to;
	if (bh_here)
		local_bh_disable();
	local_irq_save(flags);
	lc = this_cpu_ptr(&rxe_loop_cpus);
	skb_queue_tail(&lc->pkts, skb);
	tasklet_schedule(&lc->tasklet);
	local_irq_restore(flags);
	if (bh_here)
		local_bh_enable();
}

/**
 * rxe_loop_init() - set up the per-CPU local delivery queues
 *
 * Return: 0.
 */
int rxe_loop_init(void)
{
	struct rxe_loop_cpu *lc;
	int cpu;

	for_each_possible_cpu(cpu) {
		lc = per_cpu_ptr(&rxe_loop_cpus, cpu);
		skb_queue_head_init(&lc->pkts);
		tasklet_setup(&lc->tasklet, rxe_loop_run);
	}
	return 0;
}

/**
 * rxe_loop_exit() - stop the queues and drop what they still hold
 *
 * Context: module unload, every rxe device gone (nothing queues any more).
 */
void rxe_loop_exit(void)
{
	struct rxe_loop_cpu *lc;
	struct sk_buff *skb;
	int cpu;

	for_each_possible_cpu(cpu) {
		lc = per_cpu_ptr(&rxe_loop_cpus, cpu);
		tasklet_kill(&lc->tasklet);
		while ((skb = skb_dequeue(&lc->pkts))) {
			dev_put(skb->dev);
			kfree_skb(skb);
		}
	}
}
