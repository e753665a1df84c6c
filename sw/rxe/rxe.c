// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe.c - the rdma_rxe module: its parts set up at load, the "rxe" link
 * type, teardown at unload.
 */

#include <linux/module.h>
#include <rdma/rdma_netlink.h>
#include "rxe_dev.h"
#include "rxe_net.h"
#include "rxe_task.h"

static int rxe_link_newlink(const char *ibdev_name, struct net_device *ndev)
{
	return rxe_dev_add(ndev, ibdev_name);
}

/* "rdma link add NAME type rxe netdev IFNAME" */
static struct rdma_link_ops rxe_link_ops = {
	.type		= "rxe",
	.newlink	= rxe_link_newlink,
};

static int rxe_link_init(void)
{
	rdma_link_register(&rxe_link_ops);
	return 0;
}

/*
 * No new devices, then every device goes: ULPs' remove callbacks run, and
 * unregistrations the notifier queued are waited for.
 */
static void rxe_link_exit(void)
{
	rdma_link_unregister(&rxe_link_ops);
	ib_unregister_driver(RDMA_DRIVER_RXE);
}

/**
 * struct rxe_part - one piece of the driver set up at load time
 * @what: for the log when it fails
 * @init: set it up; 0 or a negative errno
 * @exit: tear it down
 */
struct rxe_part {
	const char *what;
	int (*init)(void);
	void (*exit)(void);
};

/* Set up in this order at load, torn down in the reverse order at unload. */
static const struct rxe_part rxe_parts[] = {
	{ "QP work queue",	 rxe_task_wq_init, rxe_task_wq_exit },
	{ "local delivery",	 rxe_loop_init,	   rxe_loop_exit },
	{ "UDP sockets",	 rxe_net_init,	   rxe_net_exit },
	{ "net device notifier", rxe_notify_init,  rxe_notify_exit },
	{ "rxe link type",	 rxe_link_init,	   rxe_link_exit },
};

static void rxe_parts_exit(unsigned int count)
{
	while (count--)
		rxe_parts[count].exit();
}

static int __init rxe_module_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(rxe_parts); i++) {
		ret = rxe_parts[i].init();
		if (ret) {
			pr_warn("cannot set up the %s: %d\n",
				rxe_parts[i].what, ret);
			rxe_parts_exit(i);
			return ret;
		}
	}
	pr_info("loaded\n");
	return 0;
}

static void __exit rxe_module_exit(void)
{
	rxe_parts_exit(ARRAY_SIZE(rxe_parts));
	pr_info("unloaded\n");
}

module_init(rxe_module_init);
module_exit(rxe_module_exit);

MODULE_ALIAS_RDMA_LINK("rxe");
MODULE_AUTHOR("rdmaoot developers");
MODULE_DESCRIPTION("Soft RDMA over Converged Ethernet (RoCE v2 over UDP) on any Ethernet device");
MODULE_LICENSE("GPL");
