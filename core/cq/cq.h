/* SPDX-License-Identifier: GPL-2.0-only */
/* What the device model needs from the CQ code (core/cq/cq.c, core/cq/cq_pool.c). */
#ifndef RDMAOOT_CORE_CQ_CQ_H
#define RDMAOOT_CORE_CQ_CQ_H

struct ib_device;

/*
 * Free every CQ the shared pool still holds for @dev. Called by the device
 * model while unregistering, after all clients are gone. May sleep. With
 * CONFIG_KUNIT also exported, to the EXPORTED_FOR_KUNIT_TESTING namespace.
 */
void ib_cq_pool_cleanup(struct ib_device *dev);

#endif /* RDMAOOT_CORE_CQ_CQ_H */
