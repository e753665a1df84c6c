/* SPDX-License-Identifier: GPL-2.0-only */
/* What the device model and ib_uverbs need from the CQ code (core/cq/cq.c, core/cq/cq_pool.c). */
#ifndef RDMAOOT_CORE_CQ_CQ_H
#define RDMAOOT_CORE_CQ_CQ_H

struct ib_cq;
struct ib_cq_init_attr;
struct ib_device;
struct ib_event;
struct ib_udata;

/*
 * Free every CQ the shared pool still holds for @dev. Called by the device
 * model while unregistering, after all clients are gone. May sleep. With
 * CONFIG_KUNIT also exported, to the EXPORTED_FOR_KUNIT_TESTING namespace.
 */
void ib_cq_pool_cleanup(struct ib_device *dev);

/*
 * Create a raw CQ, for the kernel (@udata NULL, @caller its module) or for
 * ib_uverbs (@udata the command's, @caller NULL). Kernel-doc in cq.c.
 */
struct ib_cq *ib_create_cq_udata(struct ib_device *device,
				 void (*comp_handler)(struct ib_cq *, void *),
				 void (*event_handler)(struct ib_event *, void *),
				 void *cq_context,
				 const struct ib_cq_init_attr *cq_attr,
				 const char *caller, struct ib_udata *udata);

#endif /* RDMAOOT_CORE_CQ_CQ_H */
