// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_home.c - the CPU each QP calls home.
 *
 * A QP gets a home CPU when it is created: the online CPU on which the
 * device has the fewest QPs (a count per CPU, not a hash, so that two QPs
 * of a device on a two-CPU machine land on different CPUs). Every run of
 * the QP's engines that is queued rather than run inline goes to that CPU
 * (rxe_task.c), so a busy QP's packets leave from one CPU, in order, and
 * busy QPs of one device spread over the CPUs instead of all queueing on
 * the one that posts to them.
 */
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "rxe_dev.h"
#include "rxe_home.h"

/**
 * rxe_home_pick() - the least-loaded CPU of a set
 * @load: QPs per CPU, indexed by CPU number
 * @cpus: the CPUs to choose from
 *
 * The first CPU (in number order) with the lowest count wins.
 *
 * Return: the CPU, or -1 when @cpus is empty.
 */
int rxe_home_pick(const atomic_t *load, const struct cpumask *cpus)
{
	int cpu, best = -1, best_load = INT_MAX;

	for_each_cpu(cpu, cpus) {
		int n = atomic_read(&load[cpu]);

		if (n < best_load) {
			best = cpu;
			best_load = n;
		}
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_home_pick);

/**
 * rxe_home_get() - choose a home CPU for a new QP of @rxe and count it
 * @rxe: the device
 *
 * Two QPs created at once may pick the same CPU: the count is a hint.
 * Context: any.
 *
 * Return: a CPU number, to give back with rxe_home_put().
 */
int rxe_home_get(struct rxe_dev *rxe)
{
	int cpu = rxe_home_pick(rxe->home_load, cpu_online_mask);

	if (cpu < 0)	/* every CPU went offline meanwhile: any will do */
		cpu = raw_smp_processor_id();
	atomic_inc(&rxe->home_load[cpu]);
	return cpu;
}

/**
 * rxe_home_put() - a QP of @rxe leaves its home CPU @cpu
 * @rxe: the device
 * @cpu: what rxe_home_get() returned
 */
void rxe_home_put(struct rxe_dev *rxe, int cpu)
{
	atomic_dec(&rxe->home_load[cpu]);
}

/**
 * rxe_home_init() - allocate @rxe's count of QPs per CPU
 * @rxe: the device
 *
 * Return: 0 or -ENOMEM.
 */
int rxe_home_init(struct rxe_dev *rxe)
{
	rxe->home_load = kcalloc(nr_cpu_ids, sizeof(*rxe->home_load),
				 GFP_KERNEL);
	return rxe->home_load ? 0 : -ENOMEM;
}

/**
 * rxe_home_exit() - free @rxe's count of QPs per CPU (every QP is gone)
 * @rxe: the device
 */
void rxe_home_exit(struct rxe_dev *rxe)
{
	kfree(rxe->home_load);
	rxe->home_load = NULL;
}
