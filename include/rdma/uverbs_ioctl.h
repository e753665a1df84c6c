/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a driver op may learn about the user command it serves through its
 * struct ib_udata: the user context (rdma_udata_to_drv_context()). The
 * attribute bundle of the ioctl framework grows here with that framework;
 * today it holds just what drivers of 6.1 reach through the macro.
 */
#ifndef _RDMA_UVERBS_IOCTL_H_
#define _RDMA_UVERBS_IOCTL_H_

#include <linux/container_of.h>
#include <rdma/ib_verbs.h>

/**
 * struct uverbs_attr_bundle - a user command as driver ops see it
 * @driver_udata: the driver's part of request and response; the udata
 *		  every driver op of a user command gets is this one
 * @context: the user context the command runs in
 */
struct uverbs_attr_bundle {
	struct ib_udata driver_udata;
	struct ib_ucontext *context;
};

/*
 * The driver's user context (type @drv_dev_struct, whose member @member is
 * the struct ib_ucontext) of the command @udata came with; NULL for a
 * kernel caller (@udata NULL).
 */
#define rdma_udata_to_drv_context(udata, drv_dev_struct, member)	\
	((udata) ? container_of(container_of(udata,			\
					     struct uverbs_attr_bundle,	\
					     driver_udata)->context,	\
				drv_dev_struct, member) :		\
		   (drv_dev_struct *)NULL)

#endif /* _RDMA_UVERBS_IOCTL_H_ */
