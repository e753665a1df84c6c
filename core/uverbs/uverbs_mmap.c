// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmap() of a uverbs file: the driver maps a buffer of the file's ucontext (a
 * ring of a user queue).
 */

#include <linux/fs.h>
#include <linux/mm.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

/**
 * uverbs_mmap() - mmap() of a uverbs device file
 * @filp: the file
 * @vma: the mapping; the driver reads its offset and length
 *
 * Runs in the SRCU read side like a command: the driver and the ucontext
 * stay while it maps. What the mapping keeps alive afterwards is the
 * driver's business (rdma_rxe: the buffer, through the VMA).
 *
 * Context: Process context, mmap lock held.
 * Return: 0; -EIO once the device is being removed, -EINVAL without a
 * ucontext, -EOPNOTSUPP when the driver maps nothing, or the driver's
 * error.
 */
int uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct ib_uverbs_file *file = filp->private_data;
	struct uverbs_dev *udev = file->udev;
	struct ib_ucontext *ucontext;
	struct ib_device *ib_dev;
	int key, ret;

	key = srcu_read_lock(&udev->srcu);
	ib_dev = uverbs_dev_get_ibdev(udev);
	ucontext = uverbs_file_ucontext(file);
	if (!ib_dev)
		ret = -EIO;
	else if (!ucontext)
		ret = -EINVAL;
	else if (!ib_dev->ops.mmap)
		ret = -EOPNOTSUPP;
	else
		ret = ib_dev->ops.mmap(ucontext, vma);
	srcu_read_unlock(&udev->srcu, key);
	return ret;
}
