// SPDX-License-Identifier: GPL-2.0-only
/* ib_uverbs: module load and unload. */

#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

static int __init uverbs_init(void)
{
	int ret;

	ret = uverbs_dev_init();
	if (ret)
		return ret;
	ret = ib_register_client(&uverbs_client);
	if (ret) {
		uverbs_dev_exit();
		return ret;
	}
	return 0;
}

static void __exit uverbs_exit(void)
{
	ib_unregister_client(&uverbs_client);
	uverbs_dev_exit();
}

module_init(uverbs_init);
module_exit(uverbs_exit);

MODULE_DESCRIPTION("RDMA userspace verbs access (rdmaoot)");
MODULE_LICENSE("GPL");
/* GET_CHARDEV "uverbs" loads us on demand */
MODULE_ALIAS("rdma-client-uverbs");
