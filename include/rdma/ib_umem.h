/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User memory pinned for an RDMA device (ib_umem), Linux 6.1's in-kernel
 * API: a driver's reg_user_mr (or a queue in user memory) pins the pages
 * behind a user address range with ib_umem_get() and walks them as a
 * DMA-mapped scatterlist; ib_umem_release() unpins them.
 */
#ifndef IB_UMEM_H
#define IB_UMEM_H

#include <linux/list.h>
#include <linux/scatterlist.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

struct ib_ucontext;
struct ib_umem_odp;
struct dma_buf_attach_ops;

/**
 * struct ib_umem - pinned user memory
 * @ibdev: the device the pages are mapped for
 * @owning_mm: the address space the pages came from (held with mmgrab());
 *	its pinned_vm counts them
 * @iova: the address the device sees the first byte at; the user address
 *	until ib_umem_find_best_pgsz() sets it
 * @length: bytes asked for
 * @address: user address of the first byte
 * @writable: the pages may be written (ib_access_writable())
 * @is_odp: on-demand paging memory (never set here: not supported)
 * @is_dmabuf: dma-buf memory (never set here: not supported)
 * @work: for drivers that release a umem from a work item
 * @sgt_append: the pages, page-aligned entries, DMA-mapped for @ibdev
 */
struct ib_umem {
	struct ib_device       *ibdev;
	struct mm_struct       *owning_mm;
	u64 iova;
	size_t			length;
	unsigned long		address;
	u32 writable : 1;
	u32 is_odp : 1;
	u32 is_dmabuf : 1;
	struct work_struct	work;
	struct sg_append_table sgt_append;
};

/* dma-buf backed memory: the type exists for source compatibility only. */
struct ib_umem_dmabuf {
	struct ib_umem umem;
	struct dma_buf_attachment *attach;
	struct sg_table *sgt;
	struct scatterlist *first_sg;
	struct scatterlist *last_sg;
	unsigned long first_sg_offset;
	unsigned long last_sg_trim;
	void *private;
	u8 pinned : 1;
};

static inline struct ib_umem_dmabuf *to_ib_umem_dmabuf(struct ib_umem *umem)
{
	return container_of(umem, struct ib_umem_dmabuf, umem);
}

/* Where the registered range begins inside its first page. */
static inline int ib_umem_offset(struct ib_umem *umem)
{
	return umem->address & ~PAGE_MASK;
}

/* The offset of the first byte inside a block of @pgsz bytes, as DMA sees it. */
static inline unsigned long ib_umem_dma_offset(struct ib_umem *umem,
					       unsigned long pgsz)
{
	dma_addr_t first = sg_dma_address(umem->sgt_append.sgt.sgl);

	return (first + ib_umem_offset(umem)) & (pgsz - 1);
}

/* Blocks of @pgsz bytes, aligned in iova space, that cover the umem. */
static inline size_t ib_umem_num_dma_blocks(struct ib_umem *umem,
					    unsigned long pgsz)
{
	u64 first = ALIGN_DOWN(umem->iova, pgsz);
	u64 end = ALIGN(umem->iova + umem->length, pgsz);

	return (size_t)((end - first) / pgsz);
}

/* CPU pages that cover the umem. */
static inline size_t ib_umem_num_pages(struct ib_umem *umem)
{
	return ib_umem_num_dma_blocks(umem, PAGE_SIZE);
}

struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access);
void ib_umem_release(struct ib_umem *umem);
int ib_umem_copy_from(void *dst, struct ib_umem *umem, size_t offset,
		      size_t length);
unsigned long ib_umem_find_best_pgsz(struct ib_umem *umem,
				     unsigned long pgsz_bitmap, u64 virt);

/**
 * ib_umem_find_best_pgoff() - best page size when the device takes an offset
 * @umem: the umem
 * @pgsz_bitmap: page sizes the device supports
 * @pgoff_bitmask: address bits the device can express as an offset into
 *	the first page rather than needing them aligned
 *
 * Like ib_umem_find_best_pgsz(), with the DMA address of the first byte,
 * masked by @pgoff_bitmask, standing in for the iova.
 *
 * Context: process context.
 * Return: the page size, or 0 when none fits.
 */
static inline unsigned long ib_umem_find_best_pgoff(struct ib_umem *umem,
						    unsigned long pgsz_bitmap,
						    u64 pgoff_bitmask)
{
	dma_addr_t first = sg_dma_address(umem->sgt_append.sgt.sgl) +
			   ib_umem_offset(umem);

	return ib_umem_find_best_pgsz(umem, pgsz_bitmap, first & pgoff_bitmask);
}

/*
 * dma-buf memory is not supported: these fail as 6.1's do without
 * CONFIG_INFINIBAND_USER_MEM, so drivers that offer it still build.
 */
static inline struct ib_umem_dmabuf *
ib_umem_dmabuf_get(struct ib_device *device, unsigned long offset,
		   size_t size, int fd, int access,
		   const struct dma_buf_attach_ops *ops)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned(struct ib_device *device, unsigned long offset,
			  size_t size, int fd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline int ib_umem_dmabuf_map_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	return -EOPNOTSUPP;
}

static inline void ib_umem_dmabuf_unmap_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
}

static inline void ib_umem_dmabuf_release(struct ib_umem_dmabuf *umem_dmabuf)
{
}

/* 6.1 keeps the umem block iterator here; later kernels in rdma/iter.h. */
#include <rdma/iter.h>

#endif /* IB_UMEM_H */
