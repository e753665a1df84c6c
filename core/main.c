// SPDX-License-Identifier: GPL-2.0-only
/* ib_core module entry points: what happens when the RDMA core loads and unloads. */

#include <linux/export.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "roce/roce.h"
#include "device/device.h"
#include "mad/mad.h"
#include "mad/sa.h"
#include "netlink/netlink.h"

/* General deferred work of the core and its users (event dispatch, ...). */
struct workqueue_struct *ib_wq;
EXPORT_SYMBOL_GPL(ib_wq);
/* Completion processing of IB_POLL_WORKQUEUE / IB_POLL_UNBOUND_WORKQUEUE CQs. */
struct workqueue_struct *ib_comp_wq;
struct workqueue_struct *ib_comp_unbound_wq;
/* ib_unregister_device_queued(); apart from ib_wq so unregistering may flush it. */
struct workqueue_struct *ib_unreg_wq;

/* The all-zero GID, for comparisons. */
union ib_gid zgid;
EXPORT_SYMBOL(zgid);

/* ---- Workqueues ---------------------------------------------------------- */

static int ib_core_wq_init(void)
{
	ib_wq = alloc_workqueue("infiniband", 0, 0);
	if (!ib_wq)
		goto err_wq;
	ib_unreg_wq = alloc_workqueue("ib-unreg-wq", WQ_UNBOUND,
				      WQ_UNBOUND_MAX_ACTIVE);
	if (!ib_unreg_wq)
		goto err_unreg_wq;
	/* completions may be on the reclaim path (storage over RDMA) */
	ib_comp_wq = alloc_workqueue("ib-comp-wq",
				     WQ_HIGHPRI | WQ_MEM_RECLAIM | WQ_SYSFS, 0);
	if (!ib_comp_wq)
		goto err_comp_wq;
	ib_comp_unbound_wq = alloc_workqueue("ib-comp-unb-wq",
					     WQ_UNBOUND | WQ_HIGHPRI |
					     WQ_MEM_RECLAIM | WQ_SYSFS,
					     WQ_UNBOUND_MAX_ACTIVE);
	if (!ib_comp_unbound_wq)
		goto err_comp_unbound_wq;
	return 0;

err_comp_unbound_wq:
	destroy_workqueue(ib_comp_wq);
err_comp_wq:
	destroy_workqueue(ib_unreg_wq);
err_unreg_wq:
	destroy_workqueue(ib_wq);
err_wq:
	return -ENOMEM;
}

static void ib_core_wq_exit(void)
{
	/* the last event works may drop the last references to devices */
	flush_workqueue(ib_wq);
	destroy_workqueue(ib_comp_unbound_wq);
	destroy_workqueue(ib_comp_wq);
	destroy_workqueue(ib_unreg_wq);
	destroy_workqueue(ib_wq);
}

/* ---- Module init and exit ------------------------------------------------ */

/**
 * struct ib_core_part - one piece of ib_core that is set up at load time
 * @what: for the log when it fails
 * @init: set it up; 0 or a negative errno
 * @exit: tear it down; NULL when there is nothing to undo
 */
struct ib_core_part {
	const char *what;
	int (*init)(void);
	void (*exit)(void);
};

/* Set up in this order at load, torn down in the reverse order at unload. */
static const struct ib_core_part ib_core_parts[] = {
	{ "workqueues",		ib_core_wq_init,	  ib_core_wq_exit },
	{ "device class",	ib_device_class_register, ib_device_class_unregister },
	{ "netlink sockets",	rdma_nl_init,		  rdma_nl_exit },
	{ "nldev client",	nldev_init,		  nldev_exit },
	{ "RoCE GID management", roce_gid_mgmt_init, roce_gid_mgmt_cleanup },
	{ "address resolver",	addr_init,		  addr_cleanup },
	{ "MAD services",	ib_mad_init,		  ib_mad_cleanup },
	{ "SA client",		ib_sa_init,		  ib_sa_cleanup },
	{ "SA multicast",	ib_sa_mcast_init,	  ib_sa_mcast_cleanup },
};

static void ib_core_parts_exit(unsigned int count)
{
	while (count--)
		if (ib_core_parts[count].exit)
			ib_core_parts[count].exit();
}

static int __init ib_core_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ib_core_parts); i++) {
		ret = ib_core_parts[i].init();
		if (ret) {
			pr_warn("cannot set up the %s: %d\n",
				ib_core_parts[i].what, ret);
			ib_core_parts_exit(i);
			return ret;
		}
	}
	pr_debug("loaded\n");
	return 0;
}

static void __exit ib_core_exit(void)
{
	ib_core_parts_exit(ARRAY_SIZE(ib_core_parts));
	/* devices and port data are freed with kfree_rcu() */
	rcu_barrier();
	WARN_ON(!xa_empty(&ib_devices));
	pr_debug("unloaded\n");
}

module_init(ib_core_init);
module_exit(ib_core_exit);

MODULE_AUTHOR("rdmaoot developers");
MODULE_DESCRIPTION("RDMA core: verbs helpers, device model and shared tables");
MODULE_LICENSE("GPL");
