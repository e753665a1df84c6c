// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: module load and unload. The misc device
 * /dev/infiniband/rdma_cm with its abi_version file, the max_backlog
 * sysctl, and the ib_core client that names the device to RDMA
 * netlink's GET_CHARDEV "rdma_cm" (which loads us on demand).
 */

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "device/device.h"
#include "ucma/ucma.h"

/* LISTEN's backlog is clamped to this (and a backlog <= 0 means it). */
unsigned int ucma_max_backlog = 1024;

/* /sys/class/misc/rdma_cm/abi_version: librdmacm's fallback to netlink */
static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", RDMA_USER_CM_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);
static struct attribute *ucma_dev_attrs[] = { &dev_attr_abi_version.attr, NULL };
ATTRIBUTE_GROUPS(ucma_dev);

static struct miscdevice ucma_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "rdma_cm",
	.nodename = "infiniband/rdma_cm",
	.mode = 0666,
	.fops = &ucma_fops,
	.groups = ucma_dev_groups,
};

static struct ctl_table ucma_sysctl[] = {
	{
		.procname = "max_backlog",
		.data = &ucma_max_backlog,
		.maxlen = sizeof(ucma_max_backlog),
		.mode = 0644,
		.proc_handler = proc_dointvec,
	},
	{}
};

static struct ctl_table_header *ucma_sysctl_hdr;

static int ucma_get_global_nl_info(struct ib_client_nl_info *res)
{
	res->abi = RDMA_USER_CM_ABI_VERSION;
	res->cdev = ucma_misc.this_device;
	return 0;
}

/* Not tied to any device: present only for GET_CHARDEV. */
static struct ib_client ucma_client = {
	.name = "rdma_cm",
	.get_global_nl_info = ucma_get_global_nl_info,
};

static int ucma_misc_init(void)
{
	return misc_register(&ucma_misc);
}

static void ucma_misc_exit(void)
{
	misc_deregister(&ucma_misc);
}

static int ucma_sysctl_init(void)
{
	ucma_sysctl_hdr = register_net_sysctl(&init_net, "net/rdma_ucm",
					      ucma_sysctl);
	return ucma_sysctl_hdr ? 0 : -ENOMEM;
}

static void ucma_sysctl_exit(void)
{
	unregister_net_sysctl_table(ucma_sysctl_hdr);
}

static int ucma_client_init(void)
{
	return ib_register_client(&ucma_client);
}

static void ucma_client_exit(void)
{
	ib_unregister_client(&ucma_client);
}

/* Set up in this order at load, undone in reverse at unload. */
static const struct {
	int (*init)(void);
	void (*exit)(void);
} ucma_parts[] = {
	{ ucma_misc_init, ucma_misc_exit },
	{ ucma_sysctl_init, ucma_sysctl_exit },
	{ ucma_client_init, ucma_client_exit },
};

static void ucma_parts_exit(unsigned int n)
{
	while (n--)
		ucma_parts[n].exit();
}

static int __init ucma_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ucma_parts); i++) {
		ret = ucma_parts[i].init();
		if (ret) {
			ucma_parts_exit(i);
			return ret;
		}
	}
	return 0;
}

static void __exit ucma_exit(void)
{
	ucma_parts_exit(ARRAY_SIZE(ucma_parts));
}

module_init(ucma_init);
module_exit(ucma_exit);

MODULE_DESCRIPTION("RDMA userspace connection manager access (rdmaoot)");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_CLIENT("rdma_cm");
