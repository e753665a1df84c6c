// SPDX-License-Identifier: GPL-2.0-only
/* Memory regions: allocation, registration, mapping scatterlists into page lists. */
/*
 * Every MR counts in its PD's usecnt (an MR on device memory also in the
 * ib_dm's) until deregistered. MRs are tracked (restrack) as their PD's
 * owner's.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/signature.h>

#include "restrack/restrack.h"

/* ---- Allocation and registration ----------------------------------------- */

/* Publish @mr in resource tracking, owned by whoever owns its PD. */
static void mr_track(struct ib_mr *mr, struct ib_pd *pd)
{
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_parent_name(&mr->res, &pd->res);
	rdma_restrack_add(&mr->res);
}

/*
 * The core's part of any MR the driver just made on @pd, set last, once
 * the caller has filled in the rest: the MR now counts in the PD's
 * usecnt and is visible in resource tracking.
 */
static void mr_attach(struct ib_mr *mr, struct ib_pd *pd, enum ib_mr_type type)
{
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = type;
	mr->dm = NULL;
	atomic_inc(&pd->usecnt);
	mr_track(mr, pd);
}

/* A kernel MR: no uobject, nothing registered yet, so nothing to invalidate. */
static void mr_init_kernel(struct ib_mr *mr, struct ib_pd *pd,
			   enum ib_mr_type type, struct ib_sig_attrs *sig_attrs)
{
	mr->uobject = NULL;
	mr->need_inval = false;
	mr->sig_attrs = sig_attrs;
	mr_attach(mr, pd, type);
}

/**
 * ib_alloc_mr() - allocate an MR for fast registration
 * @pd: the PD
 * @mr_type: IB_MR_TYPE_MEM_REG, or IB_MR_TYPE_SG_GAPS for an MR that takes
 *	scatterlists with gaps; integrity MRs come from ib_alloc_mr_integrity()
 * @max_num_sg: the most pages (or, for SG_GAPS, entries) one mapping may use
 *
 * Fill the MR with ib_map_mr_sg() and make it valid with an IB_WR_REG_MR.
 *
 * Context: process context, may sleep.
 * Return: the MR, or ERR_PTR() of -EOPNOTSUPP when the device cannot,
 * -EINVAL (with a warning) for IB_MR_TYPE_INTEGRITY, or the driver's error.
 */
struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			  u32 max_num_sg)
{
	struct ib_device *dev = pd->device;
	struct ib_mr *mr;

	if (!dev->ops.alloc_mr)
		return ERR_PTR(-EOPNOTSUPP);
	if (WARN_ON_ONCE(mr_type == IB_MR_TYPE_INTEGRITY))
		return ERR_PTR(-EINVAL);

	mr = dev->ops.alloc_mr(pd, mr_type, max_num_sg);
	if (IS_ERR(mr))
		return mr;
	mr_init_kernel(mr, pd, mr_type, NULL);
	return mr;
}
EXPORT_SYMBOL(ib_alloc_mr);

/**
 * ib_alloc_mr_integrity() - allocate an MR for data plus protection information
 * @pd: the PD
 * @max_num_data_sg: the most data pages one mapping may use
 * @max_num_meta_sg: the most metadata pages one mapping may use, not zero
 *
 * Fill the MR with ib_map_mr_sg_pi(); its signature attributes are in
 * mr->sig_attrs.
 *
 * Context: process context, may sleep.
 * Return: the MR, or ERR_PTR() of -EOPNOTSUPP when the device has no
 * integrity MRs, -EINVAL for no metadata pages, -ENOMEM, or the driver's
 * error.
 */
struct ib_mr *ib_alloc_mr_integrity(struct ib_pd *pd, u32 max_num_data_sg,
				    u32 max_num_meta_sg)
{
	struct ib_device *dev = pd->device;
	struct ib_sig_attrs *sig_attrs;
	struct ib_mr *mr;

	if (!dev->ops.alloc_mr_integrity || !dev->ops.map_mr_sg_pi)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_meta_sg)
		return ERR_PTR(-EINVAL);

	sig_attrs = kzalloc(sizeof(*sig_attrs), GFP_KERNEL);
	if (!sig_attrs)
		return ERR_PTR(-ENOMEM);
	mr = dev->ops.alloc_mr_integrity(pd, max_num_data_sg, max_num_meta_sg);
	if (IS_ERR(mr)) {
		kfree(sig_attrs);
		return mr;
	}
	mr_init_kernel(mr, pd, IB_MR_TYPE_INTEGRITY, sig_attrs);
	return mr;
}
EXPORT_SYMBOL(ib_alloc_mr_integrity);

/**
 * ib_reg_user_mr() - register user memory for a kernel caller
 * @pd: the PD
 * @start: start of the memory in current's address space
 * @length: its length in bytes
 * @virt_addr: the address the MR presents to the peer (its iova)
 * @access_flags: IB_ACCESS_* rights; IB_ACCESS_ON_DEMAND needs a device
 *	with on-demand paging
 *
 * Context: process context, may sleep.
 * Return: the MR, or ERR_PTR() of -EINVAL for on-demand paging the device
 * lacks, -EOPNOTSUPP when the driver cannot register user memory, or the
 * driver's error.
 */
struct ib_mr *ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			     u64 virt_addr, int access_flags)
{
	struct ib_device *dev = pd->device;
	struct ib_mr *mr;

	if (access_flags & IB_ACCESS_ON_DEMAND &&
	    !(dev->attrs.kernel_cap_flags & IBK_ON_DEMAND_PAGING)) {
		pr_debug("%s: no on-demand paging on %s\n", __func__,
			 dev_name(&dev->dev));
		return ERR_PTR(-EINVAL);
	}
	if (!dev->ops.reg_user_mr)
		return ERR_PTR(-EOPNOTSUPP);

	mr = dev->ops.reg_user_mr(pd, start, length, virt_addr, access_flags,
				  NULL);
	if (IS_ERR(mr))
		return mr;
	mr->iova = virt_addr;
	mr->length = length;
	mr_attach(mr, pd, IB_MR_TYPE_USER);
	return mr;
}
EXPORT_SYMBOL(ib_reg_user_mr);

/**
 * ib_advise_mr() - hint the device about upcoming access to ODP memory
 * @pd: the PD of the MRs
 * @advice: prefetch for reading, for writing, or no-fault prefetch
 * @flags: IB_UVERBS_ADVISE_MR_FLAG_* (e.g. wait for the prefetch)
 * @sg_list: the ranges, by lkey, address and length
 * @num_sge: how many; 0 is a no-op
 *
 * Context: process context, may sleep.
 * Return: 0, -EOPNOTSUPP when the device takes no advice, or the driver's
 * error.
 */
int ib_advise_mr(struct ib_pd *pd, enum ib_uverbs_advise_mr_advice advice,
		 u32 flags, struct ib_sge *sg_list, u32 num_sge)
{
	const struct ib_device_ops *ops = &pd->device->ops;

	if (!ops->advise_mr)
		return -EOPNOTSUPP;
	/* no ranges, no advice: the driver is not asked */
	return num_sge ? ops->advise_mr(pd, advice, flags, sg_list, num_sge,
					NULL) : 0;
}
EXPORT_SYMBOL(ib_advise_mr);

/**
 * ib_dereg_mr_user() - deregister and free an MR
 * @mr: the MR
 * @udata: the user's data for a user MR, NULL for a kernel one
 *
 * Takes the MR out of resource tracking first, waiting for readers
 * pinning it.
 *
 * Context: process context, may sleep.
 * Return: 0 when gone, or the driver's error (memory windows still bound,
 * say), in which case the MR still exists, tracked again under a new id.
 */
int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata)
{
	/* the driver frees @mr: keep what must be released after it */
	struct ib_sig_attrs *sig_attrs = mr->sig_attrs;
	struct ib_pd *pd = mr->pd;
	struct ib_dm *dm = mr->dm;
	int err;

	/* the driver frees @mr itself: it must be untracked before */
	rdma_restrack_del(&mr->res);
	err = mr->device->ops.dereg_mr(mr, udata);
	if (err) {
		/* still there: back in tracking, under a new id */
		mr_track(mr, pd);
		return err;
	}
	/* released in the reverse of the order they were taken */
	kfree(sig_attrs);
	if (dm)
		atomic_dec(&dm->usecnt);
	atomic_dec(&pd->usecnt);
	return 0;
}
EXPORT_SYMBOL(ib_dereg_mr_user);

/**
 * ib_check_mr_status() - read and clear an MR's integrity errors
 * @mr: an integrity MR after its registration was used
 * @check_mask: IB_MR_CHECK_SIG_STATUS
 * @mr_status: filled with the errors found
 *
 * Context: any context the driver allows; usually completion handling.
 * Return: 0, -EOPNOTSUPP when the device cannot check, or the driver's
 * error.
 */
int ib_check_mr_status(struct ib_mr *mr, u32 check_mask,
		       struct ib_mr_status *mr_status)
{
	const struct ib_device_ops *ops = &mr->device->ops;

	return ops->check_mr_status ?
	       ops->check_mr_status(mr, check_mask, mr_status) : -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_check_mr_status);

/* ---- Mapping scatterlists ------------------------------------------------ */

/**
 * ib_map_mr_sg() - load a DMA-mapped scatterlist into an MR's page list
 * @mr: an MR from ib_alloc_mr()
 * @sg: the scatterlist, already DMA mapped
 * @sg_nents: its number of entries
 * @sg_offset: bytes to skip in the first entry; on return, where in entry
 *	number (return value) the mapping stopped. May be NULL for 0.
 * @page_size: the page size the MR maps with
 *
 * Maps the longest prefix the MR can describe with pages: the first entry
 * may start anywhere and the last end anywhere, but every entry in between
 * must begin on a page or continue its predecessor, and no more than the
 * MR's max_num_sg pages are used. IB_MR_TYPE_SG_GAPS MRs take any list.
 *
 * Context: any context; the driver's map_mr_sg does not sleep.
 * Return: how many entries were mapped, or a negative errno (-EOPNOTSUPP
 * when the device has no map_mr_sg).
 */
int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size)
{
	const struct ib_device_ops *ops = &mr->device->ops;

	if (unlikely(!ops->map_mr_sg))
		return -EOPNOTSUPP;
	/* the driver's set_page callbacks add pages of this size */
	mr->page_size = page_size;
	return ops->map_mr_sg(mr, sg, sg_nents, sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg);

/**
 * ib_map_mr_sg_pi() - load data and metadata scatterlists into an integrity MR
 * @mr: an MR from ib_alloc_mr_integrity()
 * @data_sg: the data scatterlist, DMA mapped
 * @data_sg_nents: its number of entries
 * @data_sg_offset: bytes to skip in its first entry, or NULL
 * @meta_sg: the protection information scatterlist, DMA mapped, or NULL
 * @meta_sg_nents: its number of entries
 * @meta_sg_offset: bytes to skip in its first entry, or NULL
 * @page_size: the page size the MR maps with
 *
 * Context: any context; the driver's op does not sleep.
 * Return: 0 when both lists were mapped, -EOPNOTSUPP when the device has
 * no such op or (with a warning) @mr is not an integrity MR, or the
 * driver's error.
 */
int ib_map_mr_sg_pi(struct ib_mr *mr, struct scatterlist *data_sg,
		    int data_sg_nents, unsigned int *data_sg_offset,
		    struct scatterlist *meta_sg, int meta_sg_nents,
		    unsigned int *meta_sg_offset, unsigned int page_size)
{
	const struct ib_device_ops *ops = &mr->device->ops;

	if (unlikely(!ops->map_mr_sg_pi))
		return -EOPNOTSUPP;
	/* only an integrity MR has room for the metadata pages */
	if (WARN_ON_ONCE(mr->type != IB_MR_TYPE_INTEGRITY))
		return -EOPNOTSUPP;
	mr->page_size = page_size;
	return ops->map_mr_sg_pi(mr, data_sg, data_sg_nents, data_sg_offset,
				 meta_sg, meta_sg_nents, meta_sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg_pi);

/**
 * struct sg_walk - ib_sg_to_pages() going through a scatterlist
 * @mr: the MR whose page list is filled
 * @set_page: the driver's callback adding one page
 * @page_mask: keeps the page part of a DMA address
 * @prev_end: DMA address just past the previous entry
 * @prev_end_off: offset of @prev_end within its page, 0 when aligned
 */
struct sg_walk {
	struct ib_mr *mr;
	int (*set_page)(struct ib_mr *mr, u64 addr);
	u64 page_mask;
	u64 prev_end;
	unsigned int prev_end_off;
};

/* ib_sg_to_pages() stops before an entry that does not join the previous one. */
#define SG_WALK_GAP	1

/*
 * Add the pages from @page on, up to one that reaches @end, but at least
 * one. *@resume_at becomes the start of each page added.
 */
static int sg_walk_pages(struct sg_walk *w, u64 page, u64 end, u64 *resume_at)
{
	int err;

	do {
		err = w->set_page(w->mr, page);
		if (err < 0)
			return err;
		*resume_at = page;
		page += w->mr->page_size;
	} while (page < end);
	return 0;
}

/*
 * Add entry @sg, from @off bytes in, to the page list. An entry after the
 * first that starts inside a page, or follows one that ended inside a
 * page, must continue exactly where that one ended: then its first page
 * is already on the list. On a set_page() failure, *@off becomes the
 * offset in @sg to resume at and mr->length counts up to there.
 * Returns 0, SG_WALK_GAP, or set_page()'s error.
 */
static int sg_walk_entry(struct sg_walk *w, struct scatterlist *sg,
			 bool first, unsigned int *off)
{
	u64 start = sg_dma_address(sg) + *off;
	unsigned int len = sg_dma_len(sg) - *off;
	u64 end = start + len;
	u64 page = start & w->page_mask;
	u64 resume_at = start;
	int err;

	if (!first && (w->prev_end_off || page != start)) {
		if (w->prev_end != start)
			return SG_WALK_GAP;
		page += w->mr->page_size;
		err = page < end ? sg_walk_pages(w, page, end, &resume_at) : 0;
	} else {
		err = sg_walk_pages(w, page, end, &resume_at);
	}
	if (err < 0) {
		*off = resume_at - sg_dma_address(sg);
		w->mr->length += resume_at - start;
		return err;
	}

	w->mr->length += len;
	w->prev_end = end;
	w->prev_end_off = end & ~w->page_mask;
	*off = 0;
	return 0;
}

/**
 * ib_sg_to_pages() - turn a DMA-mapped scatterlist into a page list
 * @mr: the MR; its page_size (set by ib_map_mr_sg()) is the page size
 * @sgl: the scatterlist
 * @sg_nents: its number of entries
 * @sg_offset_p: in, bytes to skip in the first entry (NULL for 0); out,
 *	where in entry number (return value) a partial mapping stopped,
 *	else 0
 * @set_page: the driver's callback adding one page address; a negative
 *	return (the list is full) stops the mapping there
 *
 * A library for drivers' map_mr_sg: maps the longest prefix that meets
 * ib_map_mr_sg()'s rules, setting mr->iova to the first byte mapped and
 * mr->length to the bytes mapped.
 *
 * Context: any context; does not sleep unless @set_page does.
 * Return: how many entries were mapped entirely; -EINVAL for no entries
 * or an offset beyond the first entry; @set_page's error if it failed on
 * the first page of the list.
 */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset_p, int (*set_page)(struct ib_mr *, u64))
{
	struct sg_walk w = {
		.mr = mr,
		.set_page = set_page,
		.page_mask = ~((u64)mr->page_size - 1),
	};
	unsigned int off = sg_offset_p ? *sg_offset_p : 0;
	struct scatterlist *sg;
	int i, err;

	if (unlikely(sg_nents <= 0 || off > sg_dma_len(&sgl[0])))
		return -EINVAL;

	mr->iova = sg_dma_address(&sgl[0]) + off;
	mr->length = 0;
	for_each_sg(sgl, sg, sg_nents, i) {
		err = sg_walk_entry(&w, sg, i == 0, &off);
		if (err == SG_WALK_GAP)
			break;
		if (err < 0) {
			if (sg_offset_p)
				*sg_offset_p = off;
			/* nothing mapped at all: report why */
			return i || off ? i : err;
		}
	}

	if (sg_offset_p)
		*sg_offset_p = 0;
	return i;
}
EXPORT_SYMBOL(ib_sg_to_pages);
