/* SPDX-License-Identifier: GPL-2.0-only */
/* In-kernel RDMA verbs API, source compatible with Linux 6.1's <rdma/ib_verbs.h>. */
#ifndef RDMAOOT_RDMA_IB_VERBS_H
#define RDMAOOT_RDMA_IB_VERBS_H

/*
 * Upstream keeps the whole verbs API in one header. We keep the same API
 * split by concept under include/rdma/verbs/; this file is the only one
 * users include, and it pulls the parts in dependency order:
 *
 *   types.h    constants, attributes, address vectors, work requests,
 *              completions, hardware statistics
 *   objects.h  PD, CQ, SRQ, QP, MR, MW, AH, XRCD, WQ, flows, counters,
 *              user-context plumbing
 *   device.h   struct ib_device_ops, struct ib_device, clients, device
 *              registration and user-data helpers
 *   api.h      capability/protocol helpers and the verbs themselves
 *
 * The kernel headers below are the ones 6.1's ib_verbs.h includes; code
 * written for 6.1 may rely on getting them through us.
 */
#include <linux/atomic.h>
#include <linux/cgroup_rdma.h>
#include <linux/device.h>
#include <linux/dim.h>
#include <linux/dma-mapping.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/irq_poll.h>
#include <linux/irqflags.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mmu_notifier.h>
#include <linux/netdevice.h>
#include <linux/preempt.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <uapi/linux/if_ether.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/rdma_user_ioctl.h>

#include <rdma/rdma_counter.h>
#include <rdma/restrack.h>
#include <rdma/signature.h>

/* The parts refuse to be included on their own. */
#define RDMAOOT_IB_VERBS_PARTS
#include <rdma/verbs/types.h>
#include <rdma/verbs/objects.h>
#include <rdma/verbs/device.h>
#include <rdma/verbs/api.h>
#undef RDMAOOT_IB_VERBS_PARTS

#endif /* RDMAOOT_RDMA_IB_VERBS_H */
