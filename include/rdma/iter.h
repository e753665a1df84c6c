/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walking a DMA-mapped scatterlist (or a umem) in blocks of one device page
 * size, each block aligned to that size: how drivers fill their page
 * tables. 6.1 has these in ib_verbs.h and ib_umem.h; Debian's later 6.1
 * kernels in this header.
 */
#ifndef _RDMA_ITER_H_
#define _RDMA_ITER_H_

#include <linux/bits.h>
#include <linux/scatterlist.h>
#include <rdma/ib_umem.h>

/**
 * struct ib_block_iter - position of a block walk; all fields are private
 * @__sg: the entry the current block lies in
 * @__dma_addr: DMA address where the current block's data begins
 * @__sg_numblocks: blocks left to hand out (umem walks only)
 * @__sg_nents: entries not yet finished
 * @__sg_advance: bytes of @__sg already handed out
 * @__pg_bit: log2 of the block size
 */
struct ib_block_iter {
	struct scatterlist *__sg;
	dma_addr_t __dma_addr;
	size_t __sg_numblocks;
	unsigned int __sg_nents;
	unsigned int __sg_advance;
	unsigned int __pg_bit;
};

void __rdma_block_iter_start(struct ib_block_iter *biter,
			     struct scatterlist *sglist, unsigned int nents,
			     unsigned long pgsz);
bool __rdma_block_iter_next(struct ib_block_iter *biter);

/**
 * rdma_block_iter_dma_address() - DMA address of the current block
 * @biter: the walk
 *
 * Return: the block's start, aligned down to the block size.
 */
static inline dma_addr_t rdma_block_iter_dma_address(struct ib_block_iter *biter)
{
	return biter->__dma_addr & ~(BIT_ULL(biter->__pg_bit) - 1);
}

/**
 * rdma_for_each_block - walk a DMA-mapped scatterlist in aligned blocks
 * @sglist: the list
 * @biter: struct ib_block_iter for the walk
 * @nents: mapped entries in @sglist
 * @pgsz: block size, a power of two
 */
#define rdma_for_each_block(sglist, biter, nents, pgsz)			\
	for (__rdma_block_iter_start(biter, sglist, nents, pgsz);	\
	     __rdma_block_iter_next(biter);)

static inline void __rdma_umem_block_iter_start(struct ib_block_iter *biter,
						struct ib_umem *umem,
						unsigned long pgsz)
{
	__rdma_block_iter_start(biter, umem->sgt_append.sgt.sgl,
				umem->sgt_append.sgt.nents, pgsz);
	/* the first page may hold bytes before the range: skip whole blocks */
	biter->__sg_advance = ib_umem_offset(umem) & ~(pgsz - 1);
	biter->__sg_numblocks = ib_umem_num_dma_blocks(umem, pgsz);
}

static inline bool __rdma_umem_block_iter_next(struct ib_block_iter *biter)
{
	if (!__rdma_block_iter_next(biter))
		return false;
	if (!biter->__sg_numblocks)
		return false;
	biter->__sg_numblocks--;
	return true;
}

/**
 * rdma_umem_for_each_dma_block - walk a umem in aligned DMA blocks
 * @umem: the umem
 * @biter: struct ib_block_iter for the walk
 * @pgsz: block size: at most PAGE_SIZE, or what ib_umem_find_best_pgsz()
 *	chose
 *
 * Exactly ib_umem_num_dma_blocks() blocks, from the block holding the
 * first byte to the block holding the last.
 */
#define rdma_umem_for_each_dma_block(umem, biter, pgsz)			\
	for (__rdma_umem_block_iter_start(biter, umem, pgsz);		\
	     __rdma_umem_block_iter_next(biter);)

#endif /* _RDMA_ITER_H_ */
