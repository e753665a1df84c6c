// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_cm's ids in resource tracking: their rows, and the reader through which
 * ib_core's nldev lists them (rdma res show cm_id).
 */

#include <kunit/visibility.h>

#include "cma/cma.h"
#include "restrack/restrack.h"

/*
 * What is listed, as in 6.1:
 *
 * - every id on a device, from the moment it gets one (binding, address
 *   resolution, a REQ's new id) until it is destroyed, with its port,
 *   its QP once it has one, its port space, state and both addresses;
 * - for a listener on no device (a wildcard address), one row per device
 *   it listens on, with the listener's port space, state and source
 *   address, no port and no destination: 6.1 makes an internal id per
 *   device for such a listener, and those are what it lists. Ours has a
 *   struct cma_listen per device instead, and that carries the row.
 *
 * Rows take their owner's name from the id (its module, or its task):
 * a REQ's new id and a listener's rows are named after the listener.
 *
 * ib_core reads a row only through cma_res_read(), while it is held or
 * being added or deleted; a row is deleted (waiting for its readers)
 * before what it shows goes away.
 */

static void cma_res_read(const struct rdma_restrack_entry *res,
			 struct rdma_restrack_cm_id_info *info)
{
	struct cma_row *row = container_of(res, struct cma_row, res);
	struct cma_id_priv *priv = row->priv;
	struct rdma_addr *addr = &priv->id.route.addr;

	info->id = &priv->id;
	info->device = row->device;
	info->qp_type = priv->id.qp_type;
	info->ps = priv->id.ps;
	info->state = cma_id_state(priv);
	info->src = &addr->src_addr;
	if (row->listen)
		return;
	info->port = READ_ONCE(priv->id.port_num);
	info->qp_num = READ_ONCE(priv->qp_num);
	info->dst = &addr->dst_addr;
}

/**
 * cma_res_init_row() - Prepare a row and name its owner
 * @row: the row, zeroed with what holds it
 * @priv: the id it shows
 * @listen: a wildcard listener's row on one device, not @priv's own
 * @owner: a row whose owner this one takes (a REQ's listener, the id a
 *	   listener's row belongs to), or NULL
 * @caller: the owning module's name when @owner is NULL; NULL for an id
 *	    of user space (the current task then owns it)
 *
 * Context: process context.
 */
void cma_res_init_row(struct cma_row *row, struct cma_id_priv *priv,
		      bool listen, const struct cma_row *owner,
		      const char *caller)
{
	row->priv = priv;
	row->listen = listen;
	rdma_restrack_new(&row->res, RDMA_RESTRACK_CM_ID);
	if (owner)
		rdma_restrack_parent_name(&row->res, &owner->res);
	else
		rdma_restrack_set_name(&row->res, caller);
}

/**
 * cma_res_add() - List a row on a device
 * @row: the row, prepared, not listed
 * @device: the device
 *
 * A row taken off before (an id whose bind failed after it got its
 * device) is prepared again first: restrack's entry starts afresh.
 *
 * Context: process context, may sleep; cma.lock held (the id's device or
 * the listener's entry cannot go meanwhile).
 */
void cma_res_add(struct cma_row *row, struct ib_device *device)
{
	lockdep_assert_held(&cma.lock);
	if (WARN_ON(row->res.valid))
		return;
	row->device = device;
	rdma_restrack_new(&row->res, RDMA_RESTRACK_CM_ID);
	rdma_restrack_add(&row->res);
}

/**
 * cma_res_del() - Take a row off, or just let go of its owner
 * @row: the row, listed or not
 *
 * Waits until nldev is done with it. A user-space owner's task is let go
 * as well (a row listed again later has none: rdma_cm has no user ids
 * yet, rdma_ucm will).
 *
 * Context: process context, sleeps; no rdma_cm lock held.
 */
void cma_res_del(struct cma_row *row)
{
	rdma_restrack_del(&row->res);
}

/* Part of rdma_cm's init: ib_core can read our rows from now on. */
int cma_res_init(void)
{
	rdma_restrack_cm_id_register(cma_res_read);
	return 0;
}

/* Part of rdma_cm's exit, once no id is on a device any more. */
void cma_res_exit(void)
{
	rdma_restrack_cm_id_unregister();
}
