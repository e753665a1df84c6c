/* SPDX-License-Identifier: GPL-2.0-only */
/* Resource tracking (core/restrack/restrack.c) as the rest of ib_core and nldev see it. */
#ifndef RDMAOOT_CORE_RESTRACK_RESTRACK_H
#define RDMAOOT_CORE_RESTRACK_RESTRACK_H

#include <linux/socket.h>
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

/*
 * rdma_cm's ids (RDMA_RESTRACK_CM_ID) are tracked here, but their entries
 * sit in rdma_cm's private structures, which ib_core cannot see and must
 * not depend on. rdma_cm hands in a reader for them while it is loaded:
 * restrack asks it for an entry's device, nldev for what to list. An
 * entry exists only while rdma_cm is loaded, and a reader is called only
 * on an entry that is being added, deleted or held, so it is always there.
 */

struct rdma_cm_id;

/**
 * struct rdma_restrack_cm_id_info - one rdma_cm id as nldev lists it
 * @id: the rdma_cm_id, for the driver's fill_res_cm_id_entry()
 * @device: the device the entry is listed on
 * @port: the id's port, 0 for none
 * @qp_num: the number of the id's QP, 0 for none
 * @qp_type: the QP type the id connects
 * @ps: its port space (enum rdma_ucm_port_space)
 * @state: its state, in rdma_cm's numbering (enum rdma_cm_state)
 * @src: its source address, or NULL to leave it out
 * @dst: its destination address, or NULL to leave it out
 */
struct rdma_restrack_cm_id_info {
	struct rdma_cm_id		*id;
	struct ib_device		*device;
	u32				port;
	u32				qp_num;
	u8				qp_type;
	u32				ps;
	u8				state;
	const struct sockaddr_storage	*src;
	const struct sockaddr_storage	*dst;
};

typedef void (*rdma_restrack_cm_id_reader)(const struct rdma_restrack_entry *res,
					   struct rdma_restrack_cm_id_info *info);

void rdma_restrack_cm_id_register(rdma_restrack_cm_id_reader reader);
void rdma_restrack_cm_id_unregister(void);
bool rdma_restrack_cm_id_read(const struct rdma_restrack_entry *res,
			      struct rdma_restrack_cm_id_info *info);

#endif /* RDMAOOT_CORE_RESTRACK_RESTRACK_H */
