// SPDX-License-Identifier: GPL-2.0-only
/* rdma_cm's port spaces: per network namespace, one xarray of bound ports for each RDMA_PS_*. */

#include <kunit/visibility.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "cma/cma.h"

/*
 * The port spaces of one namespace. An entry maps a port number to its
 * struct cma_bind; cma.lock serializes changes to what an entry holds,
 * the xarray's own lock its insertion and removal.
 */
enum cma_ps_index { CMA_PS_TCP, CMA_PS_UDP, CMA_PS_IPOIB, CMA_PS_IB, CMA_PS_N };

struct cma_pernet {
	struct xarray	ps[CMA_PS_N];
};

static unsigned int cma_pernet_id;

static int cma_ps_index(enum rdma_ucm_port_space ps)
{
	switch (ps) {
	case RDMA_PS_TCP:	return CMA_PS_TCP;
	case RDMA_PS_UDP:	return CMA_PS_UDP;
	case RDMA_PS_IPOIB:	return CMA_PS_IPOIB;
	case RDMA_PS_IB:	return CMA_PS_IB;
	}
	return -EINVAL;
}

/**
 * cma_ps_xa() - The bound ports of one port space of one namespace
 * @net: the namespace
 * @ps: the port space
 *
 * Context: any.
 * Return: the xarray, or NULL for a value that is no port space.
 */
struct xarray *cma_ps_xa(struct net *net, enum rdma_ucm_port_space ps)
{
	struct cma_pernet *pernet = net_generic(net, cma_pernet_id);
	int i = cma_ps_index(ps);

	return i < 0 ? NULL : &pernet->ps[i];
}
EXPORT_SYMBOL_IF_KUNIT(cma_ps_xa);

static int __net_init cma_pernet_net_init(struct net *net)
{
	struct cma_pernet *pernet = net_generic(net, cma_pernet_id);
	int i;

	for (i = 0; i < CMA_PS_N; i++)
		xa_init(&pernet->ps[i]);
	return 0;
}

/* Every id of a namespace holds it: none can be bound when it goes. */
static void __net_exit cma_pernet_net_exit(struct net *net)
{
	struct cma_pernet *pernet = net_generic(net, cma_pernet_id);
	int i;

	for (i = 0; i < CMA_PS_N; i++)
		WARN_ON(!xa_empty(&pernet->ps[i]));
}

static struct pernet_operations cma_pernet_ops = {
	.init	= cma_pernet_net_init,
	.exit	= cma_pernet_net_exit,
	.id	= &cma_pernet_id,
	.size	= sizeof(struct cma_pernet),
};

int cma_pernet_init(void)
{
	return register_pernet_subsys(&cma_pernet_ops);
}

void cma_pernet_exit(void)
{
	unregister_pernet_subsys(&cma_pernet_ops);
}
