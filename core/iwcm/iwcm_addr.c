// SPDX-License-Identifier: GPL-2.0-only
/*
 * Addresses of an id: the mapped ones, with the port mapper left out (identity
 * mapping, as for IW_F_NO_PORT_MAP).
 */

#include "iwcm/iwcm.h"

/*
 * 6.1 asks iwpmd, over RDMA netlink, for a mapped address and port for
 * every listener and active connection, and whether the peer's port was
 * mapped. We do not speak that protocol: an id's addresses map to
 * themselves, which is what a device with IW_F_NO_PORT_MAP gets from
 * iwpmd anyway (same port, no socket reserving it) and what 6.1 falls
 * back to when iwpmd is not running. cm_id->mapped stays false.
 */

/* Listen or connect: the driver works on the mapped addresses. */
void iwcm_addr_map(struct iw_cm_id *cm_id)
{
	cm_id->m_local_addr = cm_id->local_addr;
	cm_id->m_remote_addr = cm_id->remote_addr;
}

/*
 * A new id from a request: both ends of the new connection, as the
 * driver saw them, are the real ones too. (6.1 without iwpmd would
 * leave local_addr as the listener's, possibly a wildcard; the event
 * the owner gets carries the same addresses either way.)
 */
void iwcm_addr_adopt(struct iw_cm_id *cm_id, const struct iw_cm_event *ev)
{
	cm_id->local_addr = ev->local_addr;
	cm_id->remote_addr = ev->remote_addr;
	cm_id->m_local_addr = ev->local_addr;
	cm_id->m_remote_addr = ev->remote_addr;
}

/*
 * Our connect was accepted: the driver reports the mapped addresses it
 * connected with; the owner is told the ones it asked for.
 */
void iwcm_addr_reply(struct iw_cm_id *cm_id, struct iw_cm_event *ev)
{
	cm_id->m_local_addr = ev->local_addr;
	cm_id->m_remote_addr = ev->remote_addr;
	ev->local_addr = cm_id->local_addr;
	ev->remote_addr = cm_id->remote_addr;
}
