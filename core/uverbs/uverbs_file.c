// SPDX-License-Identifier: GPL-2.0-only
/*
 * An open uverbs device file: open, close, and the teardown of what it holds on
 * the device (its objects and ucontext).
 */

#include <linux/fs.h>
#include <linux/nsproxy.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "restrack/restrack.h"
#include "uverbs/uverbs.h"
#include "uverbs/uverbs_ioctl.h"

static void uverbs_file_free(struct kref *ref)
{
	struct ib_uverbs_file *file = container_of(ref, struct ib_uverbs_file, ref);

	if (file->async)
		uverbs_async_put(file->async);
	WARN_ON(!xa_empty(&file->uobjs));
	xa_destroy(&file->uobjs);
	mutex_destroy(&file->ucontext_lock);
	put_device(&file->udev->dev);
	kfree(file);
}

/**
 * uverbs_file_put() - Drop a reference on an open file's state
 * @file: the file; the last put frees it and its hold on the uverbs device
 *
 * Context: Process context.
 */
void uverbs_file_put(struct ib_uverbs_file *file)
{
	kref_put(&file->ref, uverbs_file_free);
}

/**
 * uverbs_file_ucontext() - The file's user context, once it is complete
 * @file: the file
 *
 * Context: Any context.
 * Return: the ucontext, or NULL before GET_CONTEXT and after teardown.
 */
struct ib_ucontext *uverbs_file_ucontext(struct ib_uverbs_file *file)
{
	/*
	 * Pairs with the smp_store_release() of GET_CONTEXT (write() and
	 * ioctl()) and of uverbs_file_destroy_hw(): a ucontext found here is
	 * complete.
	 */
	return smp_load_acquire(&file->ucontext);
}

/**
 * uverbs_file_destroy_hw() - Destroy what a file holds on its device
 * @file: the file
 * @removal: the device is being removed (not a close): the file's async
 *	     event file hears IB_EVENT_DEVICE_FATAL
 *
 * Destroys the file's objects, newest dependencies first, then its
 * ucontext. Runs at close and at device removal, whichever comes first;
 * the second finds nothing left. The device is alive: either the file is
 * still on the device's list (removal waits for us on ucontext_lock) or
 * removal is the caller.
 *
 * Context: Process context, may sleep. No command runs on @file.
 */
void uverbs_file_destroy_hw(struct ib_uverbs_file *file, bool removal)
{
	struct ib_ucontext *ucontext;
	struct ib_device *ib_dev;

	mutex_lock(&file->ucontext_lock);
	ucontext = file->ucontext;
	if (ucontext) {
		ib_dev = ucontext->device;
		uverbs_uobj_destroy_all(file);
		if (file->async)
			uverbs_async_unwatch(file->async);
		/*
		 * Pairs with smp_load_acquire() in uverbs_file_ucontext():
		 * whoever finds NULL there also finds the objects destroyed.
		 */
		smp_store_release(&file->ucontext, NULL);
		uverbs_comp_close_all(file);
		rdma_restrack_del(&ucontext->res);
		if (removal && ib_dev->ops.disassociate_ucontext)
			ib_dev->ops.disassociate_ucontext(ucontext);
		if (ib_dev->ops.dealloc_ucontext)
			ib_dev->ops.dealloc_ucontext(ucontext);
		WARN_ON(!xa_empty(&ucontext->mmap_xa));
		kfree(ucontext);
	}
	if (removal && file->async)
		uverbs_async_queue(file->async, 0, IB_EVENT_DEVICE_FATAL);
	mutex_unlock(&file->ucontext_lock);
}

static int uverbs_open(struct inode *inode, struct file *filp)
{
	struct uverbs_dev *udev;
	struct ib_uverbs_file *file;
	struct ib_device *ib_dev;
	int key, ret;

	udev = container_of(inode->i_cdev, struct uverbs_dev, cdev);
	key = srcu_read_lock(&udev->srcu);
	ib_dev = uverbs_dev_get_ibdev(udev);
	if (!ib_dev) {
		ret = -EIO;
		goto out_unlock;
	}
	if (!rdma_dev_access_netns(ib_dev, current->nsproxy->net_ns)) {
		ret = -EPERM;
		goto out_unlock;
	}
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	file->udev = udev;
	get_device(&udev->dev);
	kref_init(&file->ref);
	mutex_init(&file->ucontext_lock);
	INIT_LIST_HEAD(&file->comp_channels);
	xa_init_flags(&file->uobjs, XA_FLAGS_ALLOC);

	/* removal waits for us (SRCU), then finds the file on the list */
	mutex_lock(&udev->lists_mutex);
	list_add_tail(&file->list, &udev->files);
	mutex_unlock(&udev->lists_mutex);
	filp->private_data = file;
	ret = stream_open(inode, filp);

out_unlock:
	srcu_read_unlock(&udev->srcu, key);
	return ret;
}

static int uverbs_release(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_file *file = filp->private_data;
	struct uverbs_dev *udev = file->udev;

	/* teardown first: a file off the list has nothing left on the device */
	uverbs_file_destroy_hw(file, false);
	mutex_lock(&udev->lists_mutex);
	list_del_init(&file->list);
	mutex_unlock(&udev->lists_mutex);
	uverbs_file_put(file);
	return 0;
}

/*
 * A stream of commands (write() and ioctl()): no seeking, no reading (answers
 * go to user buffers).
 */
const struct file_operations uverbs_fops = {
	.owner = THIS_MODULE,
	.open = uverbs_open, .release = uverbs_release,
	.llseek = no_llseek,
	/* commands */
	.write = uverbs_write,
	.mmap = uverbs_mmap,
	.unlocked_ioctl = uverbs_ioctl, .compat_ioctl = uverbs_ioctl,
};
