/* SPDX-License-Identifier: GPL-2.0-only */
/* Resource tracking (core/restrack/restrack.c) as the rest of ib_core and nldev see it. */
#ifndef RDMAOOT_CORE_RESTRACK_RESTRACK_H
#define RDMAOOT_CORE_RESTRACK_RESTRACK_H

#include <linux/xarray.h>
#include <rdma/restrack.h>

/*
 * One per resource type per device: ib_device.res is an array of
 * RDMA_RESTRACK_MAX of these. Entries are indexed by their res.id, handed
 * out cyclically from next_id; xa's own lock guards both.
 */
struct rdma_restrack_root {
	struct xarray	xa;
	u32		next_id;
};

/* Device lifetime: alloc time, and after unregistration (reports leaks). */
int rdma_restrack_init(struct ib_device *dev);
void rdma_restrack_clean(struct ib_device *dev);

/*
 * Object lifetime: new() before the driver creates it, set_name() or
 * parent_name() to say who owns it, add() once it is live, del() before
 * it is destroyed.
 */
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type);
void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller);
void rdma_restrack_parent_name(struct rdma_restrack_entry *dst,
			       const struct rdma_restrack_entry *parent);
void rdma_restrack_add(struct rdma_restrack_entry *res);
void rdma_restrack_del(struct rdma_restrack_entry *res);

/*
 * del() in two halves for destroy verbs whose driver call may fail:
 * begin_del() hides the object and waits for readers, then commit_del()
 * once it is destroyed, or abort_del() to publish it again.
 */
void rdma_restrack_begin_del(struct rdma_restrack_entry *res);
void rdma_restrack_commit_del(struct rdma_restrack_entry *res);
void rdma_restrack_abort_del(struct rdma_restrack_entry *res);

/* Wait out current readers of an object whose fields are about to change. */
void rdma_restrack_sync(struct rdma_restrack_entry *res);

/*
 * One line naming an object and its owner, as the leak report prints it.
 * With CONFIG_KUNIT also exported, to EXPORTED_FOR_KUNIT_TESTING.
 */
int rdma_restrack_describe(const struct rdma_restrack_entry *res, char *buf,
			   size_t len);

#endif /* RDMAOOT_CORE_RESTRACK_RESTRACK_H */
