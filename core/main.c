// SPDX-License-Identifier: GPL-2.0-only
/* ib_core module entry points: what happens when the RDMA core loads and unloads. */

#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init ib_core_init(void)
{
	pr_debug("loaded\n");
	return 0;
}

static void __exit ib_core_exit(void)
{
	pr_debug("unloaded\n");
}

module_init(ib_core_init);
module_exit(ib_core_exit);

MODULE_AUTHOR("rdmaoot developers");
MODULE_DESCRIPTION("RDMA core: verbs helpers, device model and shared tables");
MODULE_LICENSE("GPL");
