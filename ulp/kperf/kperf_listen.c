// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: the servers listening by IP address now (debugfs "listening"). */
/*
 * A test starts the peer's client only once our server listens; the file
 * says when. Each mode=rping or mode=udaddy server lists itself from its
 * rdma_listen() until its listener is destroyed.
 */

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include "kperf.h"

static LIST_HEAD(kperf_listeners);
static DEFINE_MUTEX(kperf_listeners_lock);	/* kperf_listeners */

/**
 * kperf_listener_add() - a server listens
 * @l: its entry, with @l->mode and @l->addr set; not listed
 *
 * Context: process context, sleeps.
 */
void kperf_listener_add(struct kperf_listener *l)
{
	mutex_lock(&kperf_listeners_lock);
	list_add_tail(&l->node, &kperf_listeners);
	mutex_unlock(&kperf_listeners_lock);
}

/**
 * kperf_listener_del() - a server's listener is going away
 * @l: its entry, initialized with INIT_LIST_HEAD(); listed or not
 *
 * Context: process context, sleeps.
 */
void kperf_listener_del(struct kperf_listener *l)
{
	mutex_lock(&kperf_listeners_lock);
	if (!list_empty(&l->node))
		list_del_init(&l->node);
	mutex_unlock(&kperf_listeners_lock);
}

/**
 * kperf_listener_show() - the debugfs file "listening"
 * @m: the file
 * @unused: nothing
 *
 * One line "<mode> <addr>:<port>" per server listed.
 *
 * Return: 0.
 */
int kperf_listener_show(struct seq_file *m, void *unused)
{
	struct kperf_listener *l;

	mutex_lock(&kperf_listeners_lock);
	list_for_each_entry(l, &kperf_listeners, node)
		seq_printf(m, "%s %pISpc\n", l->mode, &l->addr);
	mutex_unlock(&kperf_listeners_lock);
	return 0;
}
