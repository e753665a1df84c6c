// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_cm: the InfiniBand connection manager (IBA chapter 12), as RDMA CM and
 * ULPs use it over IB and RoCE.
 */

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/random.h>

#include "cm/cm.h"

/*
 * The files of the module, in the order a connection meets them: cm_id.c
 * and cm_event.c (ids and their events), cm_verbs.c and cm_qp_attr.c (the
 * exported API), cm_table.c (the state machine) with its cells in
 * cm_conn.c, cm_disc.c, cm_rej.c, cm_sidr.c and cm_teardown.c, messages
 * in cm_msg.c and cm_format.c, cm_recv.c and cm_wire.c (MADs in and out),
 * cm_lookup.c and cm_timewait.c (finding connections), cm_device.c (the
 * ports), cm_counters.c (their counters in sysfs), cm_timeout.c (IBA time
 * arithmetic).
 */

struct cm_globals cm = {
	.lock		= __SPIN_LOCK_UNLOCKED(cm.lock),
	.listen_tree	= RB_ROOT,
	.remote_id_tree	= RB_ROOT,
	.remote_qpn_tree = RB_ROOT,
	.sidr_tree	= RB_ROOT,
	.timewait_list	= LIST_HEAD_INIT(cm.timewait_list),
};
EXPORT_SYMBOL_IF_KUNIT(cm);

static int __init ib_cm_init(void)
{
	int ret;

	cm.random_id_operand = (__force __be32)get_random_u32();
	cm_counters_init();
	cm.wq = alloc_workqueue("ib_cm", WQ_MEM_RECLAIM, 0);
	if (!cm.wq)
		return -ENOMEM;
	ret = cm_device_init();
	if (ret)
		goto err_wq;
	return 0;

err_wq:
	destroy_workqueue(cm.wq);
	return ret;
}

static void __exit ib_cm_exit(void)
{
	cm_device_exit();
	cm_timewait_flush();
	destroy_workqueue(cm.wq);
}

module_init(ib_cm_init);
module_exit(ib_cm_exit);

MODULE_DESCRIPTION("InfiniBand connection manager");
MODULE_LICENSE("GPL");
