/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-QP statistic counters: binding modes, counter objects and the core's counter API. */
#ifndef RDMAOOT_RDMA_RDMA_COUNTER_H
#define RDMAOOT_RDMA_RDMA_COUNTER_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/types.h>

#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

struct ib_device;
struct ib_qp;
struct netlink_ext_ack;
struct rdma_hw_stats;

/* ---- Binding modes ------------------------------------------------------- */

/* The QP properties auto mode groups by; only the QP type so far. */
struct auto_mode_param {
	int qp_type;
};

/*
 * How QPs get bound to counters on a port: @mode is manual or auto, and in
 * auto mode @mask says which properties (@param) QPs sharing a counter
 * must have in common.
 */
struct rdma_counter_mode {
	enum rdma_nl_counter_mode mode;
	enum rdma_nl_counter_mask mask;
	struct auto_mode_param param;
};

/* ---- Objects ------------------------------------------------------------- */

/*
 * Counter state of one port: the binding mode, and the port-wide
 * statistics whose values are summed over all of the port's counters.
 * @lock guards the mode and @num_counters.
 */
struct rdma_port_counter {
	struct rdma_counter_mode mode;
	struct rdma_hw_stats *hstats;
	unsigned int num_counters;
	struct mutex lock;
};

/*
 * A hardware counter that one or more QPs of @port are bound to. @kref
 * keeps it alive while QPs are bound; @lock serialises binding QPs and
 * reading @stats; @id is the driver's counter id, shown through nldev.
 */
struct rdma_counter {
	struct rdma_restrack_entry	res;
	struct ib_device		*device;
	uint32_t			id;
	struct kref			kref;
	struct rdma_counter_mode	mode;
	struct mutex			lock;
	struct rdma_hw_stats		*stats;
	u32				port;
};

/* ---- Core API (mostly driven by nldev) ----------------------------------- */

void rdma_counter_init(struct ib_device *dev);
void rdma_counter_release(struct ib_device *dev);

int rdma_counter_set_auto_mode(struct ib_device *dev, u32 port,
			       enum rdma_nl_counter_mask mask,
			       struct netlink_ext_ack *extack);
int rdma_counter_get_mode(struct ib_device *dev, u32 port,
			  enum rdma_nl_counter_mode *mode,
			  enum rdma_nl_counter_mask *mask);

/* Called as a QP moves to and from its working states. */
int rdma_counter_bind_qp_auto(struct ib_qp *qp, u32 port);
int rdma_counter_unbind_qp(struct ib_qp *qp, bool force);

/* Manual binding, by QP number and counter id. */
int rdma_counter_bind_qpn(struct ib_device *dev, u32 port,
			  u32 qp_num, u32 counter_id);
int rdma_counter_bind_qpn_alloc(struct ib_device *dev, u32 port,
				u32 qp_num, u32 *counter_id);
int rdma_counter_unbind_qpn(struct ib_device *dev, u32 port,
			    u32 qp_num, u32 counter_id);

int rdma_counter_query_stats(struct rdma_counter *counter);
u64 rdma_counter_get_hwstat_value(struct ib_device *dev, u32 port, u32 index);

/* Turn an optional hardware statistic (IB_STAT_FLAG_OPTIONAL) on or off. */
int rdma_counter_modify(struct ib_device *dev, u32 port,
			unsigned int index, bool enable);

#endif /* RDMAOOT_RDMA_RDMA_COUNTER_H */
