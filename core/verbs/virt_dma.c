// SPDX-License-Identifier: GPL-2.0-only
/* DMA "mapping" for software RDMA devices, whose DMA addresses are kernel virtual addresses. */

#include <linux/export.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

/**
 * ib_dma_virt_map_sg() - map a scatterlist for a device without DMA
 * @dev: a device with dma_device NULL (rxe, siw, rdmavt)
 * @sg: the scatterlist; every entry's pages must have a kernel mapping
 * @nents: its number of entries
 *
 * Such devices copy with the CPU, so each entry's DMA address is just the
 * kernel virtual address of its data, and its DMA length its length.
 * Entries are never merged. Built whatever CONFIG_INFINIBAND_VIRT_DMA
 * says, so a target kernel without it still links; the ib_dma_*() helpers
 * call it only where that option is set.
 *
 * Context: any context.
 * Return: @nents.
 */
int ib_dma_virt_map_sg(struct ib_device *dev, struct scatterlist *sg, int nents)
{
	struct scatterlist *s = sg;
	int left = nents;

	while (left-- > 0) {
		/* the CPU reaches the data where the kernel maps it */
		sg_dma_address(s) = (uintptr_t)sg_virt(s);
		sg_dma_len(s) = s->length;
		s = sg_next(s);
	}
	return nents;
}
EXPORT_SYMBOL(ib_dma_virt_map_sg);
