// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_umem as a device sees it: the largest page size a umem can be mapped with,
 * and walks in aligned blocks.
 */

#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

/*
 * How a page size is chosen. A device page of 2^k bytes maps a stretch of
 * iova onto a stretch of DMA addresses of the same alignment. So 2^k is
 * usable only if, at the start of every physically contiguous run of the
 * umem, the iova and the DMA address agree in their low k bits, and every
 * run but the first starts on a 2^k boundary of iova (a run ending
 * mid-page would leave the rest of that page unmapped). Each such rule
 * contributes the bits in which it fails; the lowest of them all bounds k.
 * Sizes large enough to hold the whole range in one block are all equally
 * good, so only the smallest of them stays a candidate.
 */

/* Bits that rule out page sizes for the umem mapped at @virt; ~0 for none. */
static u64 umem_pgsz_conflicts(struct ib_umem *umem, u64 virt)
{
	unsigned long skip = ib_umem_offset(umem);
	dma_addr_t run_end = 0;
	struct scatterlist *sg;
	u64 conflicts = 0;
	u64 va = virt;
	unsigned int i;

	for_each_sgtable_dma_sg(&umem->sgt_append.sgt, sg, i) {
		if (i == 0 || sg_dma_address(sg) != run_end) {
			conflicts |= (sg_dma_address(sg) + skip) ^ va;
			if (i)
				conflicts |= va;
		}
		run_end = sg_dma_address(sg) + sg_dma_len(sg);
		va += sg_dma_len(sg) - skip;
		skip = 0;
	}
	return conflicts;
}

/**
 * ib_umem_find_best_pgsz() - the page size to map a umem with
 * @umem: the umem; its iova becomes @virt
 * @pgsz_bitmap: page sizes the device supports (each a power of two)
 * @virt: the iova the device will see the umem's first byte at
 *
 * Picks the largest supported size that maps the range correctly, except
 * that among sizes that hold the whole range in one block it picks the
 * smallest. A driver then walks the umem with
 * rdma_umem_for_each_dma_block() and that size.
 *
 * Context: any context.
 * Return: the page size, or 0 when none of @pgsz_bitmap fits (or
 * @virt + length overflows).
 */
unsigned long ib_umem_find_best_pgsz(struct ib_umem *umem,
				     unsigned long pgsz_bitmap, u64 virt)
{
	unsigned int span_bits;
	u64 conflicts;
	u64 last;

	umem->iova = virt;
	if (check_add_overflow(virt, (u64)umem->length - 1, &last))
		return 0;
	conflicts = umem_pgsz_conflicts(umem, virt);
	/* blocks of 2^span_bits or more hold virt..last in one block */
	span_bits = fls64(virt ^ last);
	if (span_bits < BITS_PER_LONG)
		conflicts |= pgsz_bitmap & ~(BIT(span_bits) - 1);
	if (conflicts)
		pgsz_bitmap &= GENMASK(__ffs64(conflicts), 0);
	return pgsz_bitmap ? BIT(__fls(pgsz_bitmap)) : 0;
}
EXPORT_SYMBOL(ib_umem_find_best_pgsz);

/**
 * __rdma_block_iter_start() - begin a walk of a scatterlist in aligned blocks
 * @biter: the walk's state
 * @sglist: a DMA-mapped scatterlist
 * @nents: its mapped entries
 * @pgsz: the block size, a power of two
 *
 * Use through rdma_for_each_block() or rdma_umem_for_each_dma_block().
 *
 * Context: any context.
 */
void __rdma_block_iter_start(struct ib_block_iter *biter,
			     struct scatterlist *sglist, unsigned int nents,
			     unsigned long pgsz)
{
	*biter = (struct ib_block_iter){
		.__sg = sglist,
		.__sg_nents = nents,
		.__pg_bit = __fls(pgsz),
	};
}
EXPORT_SYMBOL(__rdma_block_iter_start);

/**
 * __rdma_block_iter_next() - step to the next block of a walk
 * @biter: the walk's state
 *
 * A block ends at the next block-size boundary of DMA addresses or at the
 * end of its entry, whichever comes first.
 *
 * Context: any context.
 * Return: true with the block in @biter, false at the end of the list.
 */
bool __rdma_block_iter_next(struct ib_block_iter *biter)
{
	u64 block = BIT_ULL(biter->__pg_bit);
	unsigned int left;
	u64 to_boundary;

	if (!biter->__sg || !biter->__sg_nents)
		return false;
	biter->__dma_addr = sg_dma_address(biter->__sg) + biter->__sg_advance;
	to_boundary = block - (biter->__dma_addr & (block - 1));
	left = sg_dma_len(biter->__sg) - biter->__sg_advance;
	if (left > to_boundary) {
		biter->__sg_advance += to_boundary;
		return true;
	}
	biter->__sg = sg_next(biter->__sg);
	biter->__sg_nents--;
	biter->__sg_advance = 0;
	return true;
}
EXPORT_SYMBOL(__rdma_block_iter_next);
