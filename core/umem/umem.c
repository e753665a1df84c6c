// SPDX-License-Identifier: GPL-2.0-only
/* ib_umem: pinning user memory for a device, with RLIMIT_MEMLOCK accounting, and releasing it. */
/*
 * Pages are pinned with FOLL_LONGTERM (the device may use them for as long
 * as the registration lives) and counted in the owning mm's pinned_vm,
 * which RLIMIT_MEMLOCK bounds unless the caller has CAP_IPC_LOCK; the count
 * goes down again when the umem is released, whoever releases it (the
 * mm is held with mmgrab() for that). 6.1 links this into ib_uverbs; here
 * it is in ib_core, so that a driver using it does not pull ib_uverbs in
 * (GET_CHARDEV loads ib_uverbs when user space asks for it).
 */

#include <linux/capability.h>
#include <linux/dma-mapping.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <rdma/ib_umem.h>

#include "umem/umem.h"

/* Pages one pin_user_pages_fast() call fills: a page of pointers. */
#define UMEM_PIN_BATCH	(PAGE_SIZE / sizeof(struct page *))

/**
 * umem_range_pages() - CPU pages a user range touches
 * @addr: first byte
 * @size: bytes
 *
 * Context: any context.
 * Return: the page count, or 0 when the range is empty or its end (rounded
 * up to a page) does not fit in an unsigned long.
 */
unsigned long umem_range_pages(unsigned long addr, size_t size)
{
	unsigned long end;

	if (!size || check_add_overflow(addr, size, &end) ||
	    PAGE_ALIGN(end) < end)
		return 0;
	return (PAGE_ALIGN(end) - (addr & PAGE_MASK)) >> PAGE_SHIFT;
}
EXPORT_SYMBOL_IF_KUNIT(umem_range_pages);

/* Count @npages more in @mm's pinned_vm, within RLIMIT_MEMLOCK. */
static int umem_account(struct mm_struct *mm, unsigned long npages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;

	if (atomic64_add_return(npages, &mm->pinned_vm) <= limit)
		return 0;
	/* asked only when over the limit, so the audit log names real uses */
	if (capable(CAP_IPC_LOCK))
		return 0;
	atomic64_sub(npages, &mm->pinned_vm);
	return -ENOMEM;
}

/* Unpin every page in @umem's table and free the table. */
static void umem_unpin(struct ib_umem *umem, bool dirty)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_sg(&umem->sgt_append.sgt, sg, i)
		unpin_user_page_range_dirty_lock(sg_page(sg),
						 DIV_ROUND_UP(sg->length, PAGE_SIZE),
						 dirty);
	sg_free_append_table(&umem->sgt_append);
}

/*
 * Pin @npages pages from the page holding @umem->address on and append
 * them to the umem's table, a batch at a time.
 */
static int umem_pin(struct ib_umem *umem, unsigned long npages)
{
	unsigned long base = umem->address & PAGE_MASK;
	unsigned int max_seg = ib_dma_max_seg_size(umem->ibdev);
	/*
	 * Always FOLL_WRITE, as 6.1: a private page is unshared now, so the
	 * device keeps seeing the page the process writes later. Read-only
	 * registrations add FOLL_FORCE to get that on read-only mappings.
	 */
	unsigned int flags = FOLL_WRITE | FOLL_LONGTERM |
			     (umem->writable ? 0 : FOLL_FORCE);
	struct page **pages;
	int got, err = 0;

	pages = (struct page **)__get_free_page(GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	while (npages) {
		cond_resched();
		got = pin_user_pages_fast(base, min(npages, UMEM_PIN_BATCH),
					  flags, pages);
		if (got <= 0) {
			err = got ? got : -EFAULT;
			break;
		}
		base += (unsigned long)got << PAGE_SHIFT;
		npages -= got;
		err = sg_alloc_append_table_from_pages(&umem->sgt_append, pages,
						       got, 0,
						       (unsigned long)got << PAGE_SHIFT,
						       max_seg, npages, GFP_KERNEL);
		if (err) {
			unpin_user_pages(pages, got);
			break;
		}
	}
	free_page((unsigned long)pages);
	return err;
}

/* A umem of current's memory, with its mm held, nothing pinned yet. */
static struct ib_umem *umem_new(struct ib_device *device, unsigned long addr,
				size_t size, int access)
{
	struct ib_umem *umem = kzalloc(sizeof(*umem), GFP_KERNEL);

	if (!umem)
		return NULL;
	*umem = (struct ib_umem){
		.ibdev = device,
		.owning_mm = current->mm,
		/* the iova is the user address until a driver chooses one */
		.iova = addr,
		.address = addr,
		.length = size,
		.writable = ib_access_writable(access),
	};
	mmgrab(current->mm);
	return umem;
}

/**
 * ib_umem_get() - pin user memory and map it for a device
 * @device: the device that will access the memory
 * @addr: user address of the first byte, in current's address space
 * @size: bytes
 * @access: IB_ACCESS_* of the registration; the pages are pinned writable
 *	when ib_access_writable() says the device or a window may write
 *
 * The pages count in current->mm's pinned_vm until ib_umem_release():
 * beyond RLIMIT_MEMLOCK only a caller with CAP_IPC_LOCK may pin. The
 * result's sgt_append.sgt lists the pages, DMA-mapped for @device.
 *
 * Context: process context of the process owning the memory, may sleep.
 * Return: the umem, or ERR_PTR() of -EINVAL (empty range, or @addr + @size
 * overflowing), -EPERM (RLIMIT_MEMLOCK is 0 and no CAP_IPC_LOCK),
 * -EOPNOTSUPP (IB_ACCESS_ON_DEMAND), -EFAULT (no user address space, or
 * the range is not mapped as needed), -ENOMEM (over the limit, no memory).
 */
struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access)
{
	unsigned long attrs = 0;
	struct ib_umem *umem;
	unsigned long npages;
	int err;

	if (size && !umem_range_pages(addr, size))
		return ERR_PTR(-EINVAL);
	if (!can_do_mlock())
		return ERR_PTR(-EPERM);
	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);
	npages = umem_range_pages(addr, size);
	if (!npages || npages > UINT_MAX)
		return ERR_PTR(-EINVAL);
	if (!current->mm)
		return ERR_PTR(-EFAULT);

	umem = umem_new(device, addr, size, access);
	if (!umem)
		return ERR_PTR(-ENOMEM);
	err = umem_account(umem->owning_mm, npages);
	if (err)
		goto err_mm;
	err = umem_pin(umem, npages);
	if (err)
		goto err_pages;
	if (access & IB_ACCESS_RELAXED_ORDERING)
		attrs |= DMA_ATTR_WEAK_ORDERING;
	err = ib_dma_map_sgtable_attrs(device, &umem->sgt_append.sgt,
				       DMA_BIDIRECTIONAL, attrs);
	if (err)
		goto err_pages;
	return umem;

err_pages:
	umem_unpin(umem, false);
	atomic64_sub(npages, &umem->owning_mm->pinned_vm);
err_mm:
	mmdrop(umem->owning_mm);
	kfree(umem);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(ib_umem_get);

/**
 * ib_umem_release() - unmap, unpin and free user memory
 * @umem: from ib_umem_get(), or NULL (nothing happens)
 *
 * Pages of a writable umem are marked dirty. The pinned_vm of the mm the
 * pages came from goes down again, also when another process (or the
 * kernel, after the owner exited) releases the umem.
 *
 * Context: process context, may sleep.
 */
void ib_umem_release(struct ib_umem *umem)
{
	if (!umem)
		return;
	ib_dma_unmap_sgtable_attrs(umem->ibdev, &umem->sgt_append.sgt,
				   DMA_BIDIRECTIONAL, 0);
	umem_unpin(umem, umem->writable);
	atomic64_sub(ib_umem_num_pages(umem), &umem->owning_mm->pinned_vm);
	mmdrop(umem->owning_mm);
	kfree(umem);
}
EXPORT_SYMBOL(ib_umem_release);

/**
 * ib_umem_copy_from() - copy bytes out of pinned user memory
 * @dst: kernel buffer of @length bytes
 * @umem: the umem
 * @offset: where to start, in bytes from the umem's first byte
 * @length: bytes to copy
 *
 * Context: any context in which the pages may be mapped (kmap_local).
 * Return: 0, or -EINVAL when the range is not inside the umem.
 */
int ib_umem_copy_from(void *dst, struct ib_umem *umem, size_t offset,
		      size_t length)
{
	size_t copied;

	if (offset > umem->length || length > umem->length - offset) {
		pr_err("%s: %zu bytes at %zu outside a umem of %zu\n",
		       __func__, length, offset, umem->length);
		return -EINVAL;
	}
	copied = sg_pcopy_to_buffer(umem->sgt_append.sgt.sgl,
				    umem->sgt_append.sgt.orig_nents, dst,
				    length, offset + ib_umem_offset(umem));
	return copied == length ? 0 : -EINVAL;
}
EXPORT_SYMBOL(ib_umem_copy_from);
