// SPDX-License-Identifier: GPL-2.0-only
/* ib_core module entry points: what happens when the RDMA core loads and unloads. */

#include <linux/export.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

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

static int __init ib_core_init(void)
{
	int ret = -ENOMEM;

	ib_wq = alloc_workqueue("infiniband", 0, 0);
	if (!ib_wq)
		return ret;
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

	ret = ib_device_class_register();
	if (ret) {
		pr_warn("cannot register the infiniband device class: %d\n", ret);
		goto err_class;
	}

	pr_debug("loaded\n");
	return 0;

err_class:
	destroy_workqueue(ib_comp_unbound_wq);
err_comp_unbound_wq:
	destroy_workqueue(ib_comp_wq);
err_comp_wq:
	destroy_workqueue(ib_unreg_wq);
err_unreg_wq:
	destroy_workqueue(ib_wq);
	return ret;
}

static void __exit ib_core_exit(void)
{
	/* the last event works may drop the last references to devices */
	flush_workqueue(ib_wq);
	ib_device_class_unregister();
	destroy_workqueue(ib_comp_unbound_wq);
	destroy_workqueue(ib_comp_wq);
	destroy_workqueue(ib_unreg_wq);
	destroy_workqueue(ib_wq);
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
