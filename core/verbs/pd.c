// SPDX-License-Identifier: GPL-2.0-only
/* Protection domains: ib_alloc_pd() with its local DMA lkey, and their release. */
/*
 * Every object a kernel ULP creates on a PD (QP, SRQ, MR, AH) counts in
 * pd->usecnt until destroyed. PDs are tracked (restrack) under the
 * caller's module name; their internal MR is not, as in 6.1.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "restrack/restrack.h"

/*
 * The access rights the PD's internal all-memory MR needs: local write
 * when the device has no reserved lkey for kernel memory, remote access
 * when the caller asked for a global rkey. 0 means no MR is needed.
 */
static int pd_internal_mr_access(const struct ib_pd *pd)
{
	int access = 0;

	if (!(pd->device->attrs.kernel_cap_flags & IBK_LOCAL_DMA_LKEY))
		access |= IB_ACCESS_LOCAL_WRITE;
	if (pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY)
		access |= IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE;
	return access;
}

/*
 * Have the driver register all of memory with @access for @pd and take
 * the PD's keys from that MR. The MR is the PD's own: it does not count in
 * pd->usecnt and goes away in ib_dealloc_pd_user().
 */
static int pd_internal_mr_create(struct ib_pd *pd, int access)
{
	struct ib_device *dev = pd->device;
	struct ib_mr *mr;

	if (!dev->ops.get_dma_mr)
		return -EOPNOTSUPP;
	mr = dev->ops.get_dma_mr(pd, access);
	if (IS_ERR(mr))
		return PTR_ERR(mr);

	mr->device = dev;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_DMA;
	mr->uobject = NULL;
	mr->need_inval = false;
	pd->__internal_mr = mr;

	if (!(dev->attrs.kernel_cap_flags & IBK_LOCAL_DMA_LKEY))
		pd->local_dma_lkey = mr->lkey;
	if (pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY)
		pd->unsafe_global_rkey = mr->rkey;
	return 0;
}

/**
 * __ib_alloc_pd() - allocate a protection domain for a kernel user
 * @device: the device
 * @flags: IB_PD_* flags; IB_PD_UNSAFE_GLOBAL_RKEY also opens all of memory
 *	to remote access (logged each time: trusted fabrics only)
 * @caller: the owning module's name (see ib_alloc_pd())
 *
 * The PD's local_dma_lkey may be used as the lkey of any kernel buffer in
 * local work requests: the device's reserved lkey when it has one
 * (IBK_LOCAL_DMA_LKEY), else the lkey of an all-memory MR the core
 * registers for the PD. Release with ib_dealloc_pd().
 *
 * Context: process context, may sleep.
 * Return: the PD, or ERR_PTR() of -ENOMEM, -EOPNOTSUPP when the device
 * lacks alloc_pd (or get_dma_mr where the PD needs an MR), or the driver's
 * error.
 */
struct ib_pd *__ib_alloc_pd(struct ib_device *device, unsigned int flags,
			    const char *caller)
{
	struct ib_pd *pd;
	int access;
	int err;

	if (!device->ops.alloc_pd || !device->ops.dealloc_pd)
		return ERR_PTR(-EOPNOTSUPP);
	pd = rdma_zalloc_drv_obj(device, ib_pd);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	/* nothing on it yet: usecnt zero, no internal MR, no keys */
	*pd = (struct ib_pd) { .device = device, .flags = flags };
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, caller);
	err = device->ops.alloc_pd(pd, NULL);
	if (err)
		goto err_untracked;
	rdma_restrack_add(&pd->res);

	/* a device's reserved lkey serves every PD; else the MR's does */
	if (device->attrs.kernel_cap_flags & IBK_LOCAL_DMA_LKEY)
		pd->local_dma_lkey = device->local_dma_lkey;
	if (flags & IB_PD_UNSAFE_GLOBAL_RKEY)
		pr_warn("%s: enabling unsafe global rkey\n", caller);
	access = pd_internal_mr_access(pd);
	err = access ? pd_internal_mr_create(pd, access) : 0;
	if (err) {
		/* a whole PD by now: the usual release undoes it */
		ib_dealloc_pd(pd);
		return ERR_PTR(err);
	}
	return pd;

err_untracked:
	rdma_restrack_put(&pd->res);
	kfree(pd);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(__ib_alloc_pd);

/**
 * ib_dealloc_pd_user() - release a protection domain
 * @pd: the PD; nothing may be left on it (pd->usecnt zero) and nothing
 *	may be created on it concurrently: the caller guarantees both
 * @udata: the user's data for a user PD, NULL for a kernel one
 *
 * Hides the PD from resource tracking and waits for readers pinning it,
 * deregisters its internal MR (a failure there is a driver bug and warns),
 * then has the driver free the PD.
 *
 * Context: process context, may sleep.
 * Return: 0 when freed, or the driver's error, in which case @pd still
 * exists (tracked again) but has lost its internal MR.
 */
int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata)
{
	struct ib_mr *internal_mr = pd->__internal_mr;
	int err;

	rdma_restrack_begin_del(&pd->res);
	/* nobody else knows the internal MR, so it cannot be busy */
	if (internal_mr) {
		WARN_ON(pd->device->ops.dereg_mr(internal_mr, NULL));
		pd->__internal_mr = NULL;
	}

	err = pd->device->ops.dealloc_pd(pd, udata);
	if (!err) {
		rdma_restrack_commit_del(&pd->res);
		kfree(pd);
	} else {
		/* the PD stays: it becomes visible again */
		rdma_restrack_abort_del(&pd->res);
	}
	return err;
}
EXPORT_SYMBOL(ib_dealloc_pd_user);
