// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_umad: module load and unload. The class infiniband_mad (with the
 * device numbers of its files) and the two ib_core clients: "umad", which
 * makes umadN and issmN for every MAD port, and "issm", which only names
 * issmN to RDMA netlink's GET_CHARDEV. Either name loads us on demand.
 */

#include <linux/module.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "umad/umad.h"

static int umad_umad_client_init(void)
{
	return ib_register_client(&umad_client);
}

static void umad_umad_client_exit(void)
{
	ib_unregister_client(&umad_client);
}

static int umad_issm_client_init(void)
{
	return ib_register_client(&umad_issm_client);
}

static void umad_issm_client_exit(void)
{
	ib_unregister_client(&umad_issm_client);
}

/* Set up in this order at load, undone in reverse at unload. */
static const struct {
	int (*init)(void);
	void (*exit)(void);
} umad_parts[] = {
	{ umad_class_init, umad_class_exit },
	{ umad_umad_client_init, umad_umad_client_exit },
	{ umad_issm_client_init, umad_issm_client_exit },
};

static void umad_parts_exit(unsigned int n)
{
	while (n--)
		umad_parts[n].exit();
}

static int __init umad_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(umad_parts); i++) {
		ret = umad_parts[i].init();
		if (ret) {
			umad_parts_exit(i);
			return ret;
		}
	}
	return 0;
}

static void __exit umad_exit(void)
{
	umad_parts_exit(ARRAY_SIZE(umad_parts));
}

module_init(umad_init);
module_exit(umad_exit);

MODULE_DESCRIPTION("RDMA userspace MAD access (rdmaoot)");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_CLIENT("umad");
MODULE_ALIAS_RDMA_CLIENT("issm");
