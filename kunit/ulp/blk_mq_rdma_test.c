// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ib_core_blk_mq_rdma: hardware queues mapped by completion vector
 * affinity, and the default spread when a vector has none.
 */

#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#define blk_mq_rdma_map_queues rdmaoot_blk_mq_rdma_map_queues
#include <linux/blk-mq-rdma.h>

/*
 * The device is a bare struct ib_device: the mapping reads only its
 * num_comp_vectors and its get_vector_affinity op. Vector v's CPUs are
 * the (v - 1)-th possible CPU alone, or with spread_all every possible
 * CPU; vector 0 and the vector named in no_affinity have none.
 */

static int no_affinity = -1;
static bool spread_all;

static const struct cpumask *vec_affinity(struct ib_device *dev, int v)
{
	unsigned int cpu, k = 0;

	if (v == 0 || v == no_affinity)
		return NULL;
	if (spread_all)
		return cpu_possible_mask;
	for_each_possible_cpu(cpu)
		if (++k == v)
			return cpumask_of(cpu);
	return NULL;
}

static struct ib_device *bare_dev(struct kunit *test, bool with_op)
{
	struct ib_device *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->num_comp_vectors = num_possible_cpus() + 4;
	if (with_op)
		dev->ops.get_vector_affinity = vec_affinity;
	return dev;
}

static struct blk_mq_queue_map *new_map(struct kunit *test,
					unsigned int queues,
					unsigned int offset)
{
	struct blk_mq_queue_map *map = kunit_kzalloc(test, sizeof(*map),
						     GFP_KERNEL);
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, map);
	map->mq_map = kunit_kcalloc(test, nr_cpu_ids, sizeof(*map->mq_map),
				    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, map->mq_map);
	for_each_possible_cpu(cpu)
		map->mq_map[cpu] = UINT_MAX;
	map->nr_queues = queues;
	map->queue_offset = offset;
	return map;
}

/* Queue k takes the CPU of vector first_vec + k, offset by queue_offset. */
static void blk_mq_rdma_affinity_test(struct kunit *test)
{
	struct ib_device *dev = bare_dev(test, true);
	unsigned int n = num_possible_cpus(), cpu, k = 0;
	struct blk_mq_queue_map *map = new_map(test, n, 3);

	no_affinity = -1;
	spread_all = false;
	rdmaoot_blk_mq_rdma_map_queues(map, dev, 1);
	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_EQ_MSG(test, map->mq_map[cpu], 3 + k, "cpu %u", cpu);
		k++;
	}

	/* Vectors on every CPU: each queue in turn takes them all. */
	spread_all = true;
	map = new_map(test, 3, 1);
	rdmaoot_blk_mq_rdma_map_queues(map, dev, 1);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, map->mq_map[cpu], 1 + 2, "cpu %u", cpu);
	spread_all = false;
}

/*
 * @map (3 queues) holds the block layer's own spread, which puts the
 * first possible CPU on the first queue: not what the vectors (every
 * CPU on each, so the last queue everywhere) would have given.
 */
static void expect_default(struct kunit *test, struct blk_mq_queue_map *map)
{
	struct blk_mq_queue_map *want = new_map(test, map->nr_queues,
						map->queue_offset);
	unsigned int cpu;

	blk_mq_map_queues(want);
	KUNIT_EXPECT_EQ(test, want->mq_map[cpumask_first(cpu_possible_mask)],
			map->queue_offset);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, map->mq_map[cpu], want->mq_map[cpu],
				    "cpu %u", cpu);
}

/*
 * Any vector without an affinity (none from the driver, no op at all, a
 * vector past num_comp_vectors) gives the default spread for every queue.
 */
static void blk_mq_rdma_fallback_test(struct kunit *test)
{
	struct ib_device *dev = bare_dev(test, true);
	struct blk_mq_queue_map *map;

	spread_all = true;
	map = new_map(test, 3, 0);
	no_affinity = 3;	/* the last queue's vector */
	rdmaoot_blk_mq_rdma_map_queues(map, dev, 1);
	expect_default(test, map);
	no_affinity = -1;

	map = new_map(test, 3, 2);
	rdmaoot_blk_mq_rdma_map_queues(map, bare_dev(test, false), 1);
	expect_default(test, map);

	/* Vectors 1..3 of a device that has only 3 (0..2). */
	dev->num_comp_vectors = 3;
	map = new_map(test, 3, 0);
	rdmaoot_blk_mq_rdma_map_queues(map, dev, 1);
	expect_default(test, map);

	map = new_map(test, 3, 0);
	rdmaoot_blk_mq_rdma_map_queues(map, bare_dev(test, true), -1);
	expect_default(test, map);
	spread_all = false;
}

static struct kunit_case blk_mq_rdma_cases[] = {
	KUNIT_CASE(blk_mq_rdma_affinity_test),
	KUNIT_CASE(blk_mq_rdma_fallback_test),
	{}
};

static struct kunit_suite blk_mq_rdma_suite = {
	.name = "ib_core_blk_mq_rdma",
	.test_cases = blk_mq_rdma_cases,
};

kunit_test_suites(&blk_mq_rdma_suite);

MODULE_DESCRIPTION("KUnit tests of the RDMA queue mapping rebuilt ULPs use");
MODULE_LICENSE("GPL");
