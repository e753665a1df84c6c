// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_cm: the RDMA connection manager, IP-addressed connections over the IB CM
 * (IB, RoCE) and over iw_cm (iWARP).
 */

#include <kunit/visibility.h>
#include <linux/module.h>

#include "cma/cma.h"

struct cma_globals cma = {
	.lock		= __MUTEX_INITIALIZER(cma.lock),
	.devices	= LIST_HEAD_INIT(cma.devices),
	.listeners	= LIST_HEAD_INIT(cma.listeners),
};
EXPORT_SYMBOL_IF_KUNIT(cma);

static int cma_wq_init(void)
{
	cma_wq = alloc_ordered_workqueue("rdma_cm", WQ_MEM_RECLAIM);
	return cma_wq ? 0 : -ENOMEM;
}

static void cma_wq_exit(void)
{
	destroy_workqueue(cma_wq);
}

/*
 * The parts of the module, brought up in order and down in reverse: the
 * port spaces before any device can bind an id, the workqueue before any
 * id can defer an input or the neighbour watch or a bond's failover queue
 * work for an id, resource tracking's reader before any id can
 * get a device (and after the last lost its), the ib_client, then
 * configfs, whose directories name the ib_client's devices.
 */
static const struct cma_part {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
} cma_parts[] = {
	{ "port spaces", cma_pernet_init, cma_pernet_exit },
	{ "workqueue", cma_wq_init, cma_wq_exit },
	{ "neighbour watch", cma_neigh_init, cma_neigh_exit },
	{ "bond failover", cma_netdev_init, cma_netdev_exit },
	{ "restrack", cma_res_init, cma_res_exit },
	{ "ib_client", cma_device_init, cma_device_exit },
	{ "configfs", cma_configfs_init, cma_configfs_exit },
};

static int __init rdma_cm_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(cma_parts); i++) {
		ret = cma_parts[i].init();
		if (ret)
			goto err_parts;
	}
	return 0;

err_parts:
	pr_err("%s: %d\n", cma_parts[i].name, ret);
	while (--i >= 0)
		cma_parts[i].exit();
	return ret;
}

static void __exit rdma_cm_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(cma_parts) - 1; i >= 0; i--)
		cma_parts[i].exit();
}

module_init(rdma_cm_init);
module_exit(rdma_cm_exit);

MODULE_DESCRIPTION("RDMA connection manager");
MODULE_LICENSE("GPL");
