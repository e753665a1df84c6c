// SPDX-License-Identifier: GPL-2.0-only
/*
 * iw_cm: the iWARP connection manager, between rdma_cm (or another owner) and
 * iWARP drivers such as siw.
 */

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>

#include "iwcm/iwcm.h"

/*
 * The files of the module: iwcm_id.c (ids, references, destroy),
 * iwcm_verbs.c (the exported calls), iwcm_table.c (the state machine)
 * with its cells in iwcm_conn.c and iwcm_close.c, iwcm_event.c and
 * iwcm_pool.c (upcalls and the entries they use), iwcm_request.c (new
 * ids for requests), iwcm_addr.c (addresses, without a port mapper),
 * iwcm_strings.c (iwcm_reject_msg()).
 */

struct iwcm_globals iwcm = {
	.live		= ATOMIC_INIT(0),
	.default_backlog = 256,
};
EXPORT_SYMBOL_IF_KUNIT(iwcm);

/* net.iw_cm.default_backlog: 1 or more (6.1 takes any value). */
static struct ctl_table iwcm_sysctl_table[] = {
	{
		.procname	= "default_backlog",
		.data		= &iwcm.default_backlog,
		.maxlen		= sizeof(iwcm.default_backlog),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= SYSCTL_INT_MAX,
	},
	{ }
};

static struct ctl_table_header *iwcm_sysctl_hdr;

static int __init iw_cm_init(void)
{
	iwcm.entries = KMEM_CACHE(iwcm_event_entry, 0);
	if (!iwcm.entries)
		return -ENOMEM;
	iwcm.wq = alloc_ordered_workqueue("iw_cm_wq", WQ_MEM_RECLAIM);
	if (!iwcm.wq)
		goto err_wq;
	iwcm_sysctl_hdr = register_net_sysctl(&init_net, "net/iw_cm",
					      iwcm_sysctl_table);
	if (!iwcm_sysctl_hdr)
		goto err_sysctl;
	return 0;

err_sysctl:
	destroy_workqueue(iwcm.wq);
err_wq:
	kmem_cache_destroy(iwcm.entries);
	return -ENOMEM;
}

static void __exit iw_cm_exit(void)
{
	unregister_net_sysctl_table(iwcm_sysctl_hdr);
	/* Ids a driver still holds (add_ref) keep their entries and work. */
	wait_var_event(&iwcm.live, !atomic_read(&iwcm.live));
	destroy_workqueue(iwcm.wq);
	kmem_cache_destroy(iwcm.entries);
}

module_init(iw_cm_init);
module_exit(iw_cm_exit);

MODULE_DESCRIPTION("iWARP connection manager");
MODULE_LICENSE("GPL");
