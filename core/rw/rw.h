/* SPDX-License-Identifier: GPL-2.0-only */
/* What the KUnit suites may reach inside core/rw/rw.c. */
#ifndef RDMAOOT_CORE_RW_RW_H
#define RDMAOOT_CORE_RW_RW_H

#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * Set the force_mr module parameter; returns the old value. Exported to
 * the EXPORTED_FOR_KUNIT_TESTING namespace. rdma_rw_init_qp(),
 * rdma_rw_init_mrs() and rdma_rw_cleanup_mrs() (<rdma/rw.h>) are exported
 * there too.
 */
bool rdma_rw_force_mr_set(bool on);
#endif

#endif /* RDMAOOT_CORE_RW_RW_H */
