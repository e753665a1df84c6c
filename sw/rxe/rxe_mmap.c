// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_mmap.c - buffers a process maps with mmap() on its uverbs file:
 * offsets, the pending list, the driver's mmap op.
 */
/*
 * An object with a user ring (a user CQ today) allocates its buffer here.
 * The create (or resize) response names it by an offset from a counter of
 * the device, and the buffer waits on its context's pending list until the
 * process maps it; mapping takes it off the list, so each buffer is mapped
 * once. The buffer belongs to its reference count, not to the object: the
 * object holds one reference, every VMA another (taken at mmap and at
 * fork, dropped at unmap), so neither destroying the object nor removing
 * the device frees memory a process still maps. Every VMA also pins this
 * module: its vm_operations live here.
 */

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/shmparam.h>
#include <kunit/visibility.h>
#include "rxe_mmap.h"
#include "rxe_verbs.h"

/**
 * rxe_mmap_offset_next() - take the next mmap offset of a device
 * @next: the device's counter of bytes handed out (starts at 0)
 * @size: the buffer's size
 *
 * Offsets start one SHMLBA-aligned page in and step by the size aligned
 * to SHMLBA, so buffers never share a cache colour boundary.
 *
 * Context: any context.
 * Return: the offset user space passes to mmap().
 */
u64 rxe_mmap_offset_next(atomic64_t *next, u32 size)
{
	u64 step = ALIGN((u64)size, SHMLBA);

	return ALIGN(PAGE_SIZE, SHMLBA) + atomic64_fetch_add(step, next);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mmap_offset_next);

/**
 * rxe_mmap_alloc() - a zeroed buffer for user space to map
 * @rxe: the device (its offset counter)
 * @uc: the context whose process may map it
 * @size: bytes wanted; the buffer is rounded up to whole pages
 *
 * Not offered yet: rxe_mmap_offer() does that once the object is complete.
 *
 * Context: process context, may sleep.
 * Return: the buffer with one reference, or an ERR_PTR (-EINVAL, -ENOMEM).
 */
struct rxe_mmap *rxe_mmap_alloc(struct rxe_dev *rxe, struct rxe_ucontext *uc,
				size_t size)
{
	struct rxe_mmap *mm;

	if (!size || size > U32_MAX - PAGE_SIZE)
		return ERR_PTR(-EINVAL);
	mm = kzalloc(sizeof(*mm), GFP_KERNEL);
	if (!mm)
		return ERR_PTR(-ENOMEM);
	mm->size = PAGE_ALIGN(size);
	mm->buf = vmalloc_user(mm->size);
	if (!mm->buf) {
		kfree(mm);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&mm->ref);
	INIT_LIST_HEAD(&mm->list);
	mm->uc = uc;
	mm->offset = rxe_mmap_offset_next(&rxe->mmap_offset, mm->size);
	return mm;
}

/**
 * rxe_mmap_offer() - let the process map a buffer
 * @mm: from rxe_mmap_alloc(), not offered before
 * @mi: set to the offset and size user space maps with
 *
 * Context: any context.
 */
void rxe_mmap_offer(struct rxe_mmap *mm, struct mminfo *mi)
{
	struct rxe_ucontext *uc = mm->uc;

	mi->offset = mm->offset;
	mi->size = mm->size;
	mi->pad = 0;
	spin_lock_bh(&uc->mmap_lock);
	list_add_tail(&mm->list, &uc->mmap_pending);
	spin_unlock_bh(&uc->mmap_lock);
}

static void rxe_mmap_free(struct kref *ref)
{
	struct rxe_mmap *mm = container_of(ref, struct rxe_mmap, ref);

	vfree(mm->buf);
	kfree(mm);
}

/**
 * rxe_mmap_put() - the owning object lets go of its buffer
 * @mm: the buffer; withdrawn from its context if never mapped
 *
 * The memory goes once no VMA maps it either.
 *
 * Context: process context; the context of @mm still exists.
 */
void rxe_mmap_put(struct rxe_mmap *mm)
{
	struct rxe_ucontext *uc = mm->uc;

	spin_lock_bh(&uc->mmap_lock);
	list_del_init(&mm->list);
	spin_unlock_bh(&uc->mmap_lock);
	kref_put(&mm->ref, rxe_mmap_free);
}

static void rxe_mmap_vma_open(struct vm_area_struct *vma)
{
	struct rxe_mmap *mm = vma->vm_private_data;

	__module_get(THIS_MODULE);
	kref_get(&mm->ref);
}

static void rxe_mmap_vma_close(struct vm_area_struct *vma)
{
	struct rxe_mmap *mm = vma->vm_private_data;

	kref_put(&mm->ref, rxe_mmap_free);
	module_put(THIS_MODULE);
}

static const struct vm_operations_struct rxe_mmap_vm_ops = {
	.open = rxe_mmap_vma_open,
	.close = rxe_mmap_vma_close,
};

/* Take the pending buffer at @offset off @uc's list, with a reference. */
static struct rxe_mmap *rxe_mmap_claim(struct rxe_ucontext *uc, u64 offset,
				       unsigned long len)
{
	struct rxe_mmap *mm;

	spin_lock_bh(&uc->mmap_lock);
	list_for_each_entry(mm, &uc->mmap_pending, list) {
		if (mm->offset != offset)
			continue;
		if (len > mm->size)
			break;
		list_del_init(&mm->list);
		kref_get(&mm->ref);
		spin_unlock_bh(&uc->mmap_lock);
		return mm;
	}
	spin_unlock_bh(&uc->mmap_lock);
	return NULL;
}

/**
 * rxe_mmap() - the mmap verb: map a pending buffer of the context
 * @ibuc: the context of the uverbs file
 * @vma: the mapping; its offset names the buffer, its length may not
 *	exceed the buffer's
 *
 * Context: process context (mmap()), mmap lock held.
 * Return: 0, or -EINVAL for an offset no pending buffer has (never
 * offered, already mapped, withdrawn) or a mapping larger than the buffer;
 * -EAGAIN or another error from remap_vmalloc_range().
 */
int rxe_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rxe_ucontext *uc = to_ruc(ibuc);
	u64 offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
	struct rxe_mmap *mm;
	int err;

	mm = rxe_mmap_claim(uc, offset, vma->vm_end - vma->vm_start);
	if (!mm) {
		rxe_dbg_dev(to_rdev(ibuc->device),
			    "no pending buffer at %#llx for %lu bytes\n",
			    offset, vma->vm_end - vma->vm_start);
		return -EINVAL;
	}
	err = remap_vmalloc_range(vma, mm->buf, 0);
	if (err) {
		kref_put(&mm->ref, rxe_mmap_free);
		return err;
	}
	/* the reference claimed above becomes the VMA's */
	__module_get(THIS_MODULE);
	vma->vm_ops = &rxe_mmap_vm_ops;
	vma->vm_private_data = mm;
	return 0;
}
