// SPDX-License-Identifier: GPL-2.0-only
/*
 * The block layer's RDMA queue mapping, for ULPs rebuilt against this stack
 * instead of the kernel's built-in copy.
 */

#include <linux/blk-mq.h>
#include <linux/export.h>
#include <rdma/ib_verbs.h>

/*
 * The kernel's own prototype, under the name the rebuilt ULPs call: the
 * compiler checks that this definition is what they were built against.
 */
#define blk_mq_rdma_map_queues rdmaoot_blk_mq_rdma_map_queues
#include <linux/blk-mq-rdma.h>

/*
 * A distribution kernel that builds NVMe over RDMA carries
 * blk_mq_rdma_map_queues() in vmlinux (CONFIG_BLK_MQ_RDMA=y). It asks the
 * device for each completion vector's CPUs through an inline of the
 * kernel's own <rdma/ib_verbs.h>, i.e. at the offsets of the kernel's
 * struct ib_device, which are not ours: called with one of our devices it
 * would read some other field as the driver's op. ULPs rebuilt by
 * `make ulps` call this copy instead (the build renames the symbol with
 * -Dblk_mq_rdma_map_queues=rdmaoot_blk_mq_rdma_map_queues), which reads
 * our layout.
 */

/**
 * rdmaoot_blk_mq_rdma_map_queues() - Map hardware queues to CPUs by vector
 * @map: the queue map of a tag set; @map->nr_queues queues from
 *	 @map->queue_offset
 * @dev: the RDMA device the queues' completions come from
 * @first_vec: the completion vector of the map's first queue
 *
 * Queue n serves the CPUs of vector @first_vec + n's affinity mask, as
 * 6.1's blk_mq_rdma_map_queues() maps them. When any vector has no
 * affinity to offer (the driver has no get_vector_affinity op, or the
 * vector does not exist), the whole map takes the block layer's default
 * spread instead.
 *
 * Context: process context.
 */
void rdmaoot_blk_mq_rdma_map_queues(struct blk_mq_queue_map *map,
				    struct ib_device *dev, int first_vec)
{
	unsigned int n, cpu;

	for (n = 0; n < map->nr_queues; n++) {
		if (!ib_get_vector_affinity(dev, first_vec + n)) {
			blk_mq_map_queues(map);
			return;
		}
	}
	for (n = 0; n < map->nr_queues; n++)
		for_each_cpu(cpu, ib_get_vector_affinity(dev, first_vec + n))
			map->mq_map[cpu] = map->queue_offset + n;
}
EXPORT_SYMBOL_GPL(rdmaoot_blk_mq_rdma_map_queues);
