// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_resolve_addr(): an implicit bind, the address resolver, and its result
 * delivered as ADDR_RESOLVED or ADDR_ERROR.
 */

#include <linux/in6.h>
#include <net/ipv6.h>

#include "cma/cma.h"

/*
 * The resolver calls back from its own workqueue, where the owner's
 * handler must not run (it may call rdma_resolve_addr() again, whose
 * cancel would wait for that very callback). The callback only keeps the
 * source address it found and defers the result to the id's work item.
 */
static void cma_resolve_done(int status, struct sockaddr *src,
			     struct rdma_dev_addr *dev_addr, void *context)
{
	struct cma_id_priv *priv = context;

	if (!status)
		memcpy(&priv->resolved_src, src, rdma_addr_size(src));
	cma_work_queue(priv, status ? CMA_IN_ADDR_ERR : CMA_IN_ADDR_OK, status);
}

/**
 * cma_h_resolve_addr() - Cell ADDR_BOUND x resolve_addr: start the query
 * @priv: the id
 * @in: @in->dst, the destination; @in->timeout_ms
 *
 * Return: 0 (the result comes from the resolver), -EINVAL when the
 * destination's family is not the source's, -EOPNOTSUPP for a wildcard
 * destination (6.1's loopback to the first active port: not built), or
 * the resolver's errno. Failing, the id goes back to ADDR_BOUND.
 */
int cma_h_resolve_addr(struct cma_id_priv *priv, struct cma_in *in)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;

	memcpy(cma_dst_addr(priv), in->dst, rdma_addr_size(in->dst));
	if (cma_src_addr(priv)->sa_family != in->dst->sa_family)
		return -EINVAL;
	if (cma_addr_any(in->dst))
		return -EOPNOTSUPP;
	/*
	 * After an ADDR_ERROR the resolver may still hold the earlier
	 * request on this dev_addr: it must be gone before the next.
	 */
	if (priv->resolve_used)
		rdma_addr_cancel(dev_addr);
	priv->resolve_used = true;
	return rdma_resolve_ip(cma_src_addr(priv), in->dst, dev_addr,
			       in->timeout_ms, cma_resolve_done, false, priv);
}

/**
 * cma_h_addr_ok() - Cell ADDR_QUERY x address resolved
 * @priv: the id; its handler_mutex is held
 * @in: the input
 *
 * The source the resolver chose becomes the id's; an id bound to a
 * wildcard now gets the device that owns it. Then the owner hears
 * ADDR_RESOLVED.
 *
 * Return: 0, CMA_DESTROY from the owner, or the errno of finding the
 * device (the work item then feeds ADDR_ERR with it).
 */
int cma_h_addr_ok(struct cma_id_priv *priv, struct cma_in *in)
{
	struct sockaddr *src = cma_src_addr(priv);
	struct sockaddr_storage old;
	int ret;

	memcpy(&old, src, sizeof(old));
	memcpy(src, &priv->resolved_src,
	       rdma_addr_size((struct sockaddr *)&priv->resolved_src));
	if (!priv->dev) {
		ret = cma_bind_device(priv);
		if (ret) {
			memcpy(src, &old, sizeof(old));
			return ret;
		}
	}
	return cma_event_simple(priv, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
}

/* Cell ADDR_QUERY x address error: ADDR_ERROR with the resolver's errno. */
int cma_h_addr_err(struct cma_id_priv *priv, struct cma_in *in)
{
	return cma_event_simple(priv, RDMA_CM_EVENT_ADDR_ERROR, in->status);
}

/*
 * rdma_resolve_addr()'s bind of an IDLE id: @src if it has a family, else
 * the wildcard of @dst's family (with an IPv6 destination's scope, so a
 * link-local destination binds its interface).
 */
static int cma_resolve_bind(struct cma_id_priv *priv, struct sockaddr *src,
			    const struct sockaddr *dst)
{
	const struct sockaddr_in6 *dst6 = (const struct sockaddr_in6 *)dst;
	struct sockaddr_storage any = { .ss_family = dst->sa_family };
	struct sockaddr_in6 *any6 = (struct sockaddr_in6 *)&any;
	struct cma_in in = { .input = CMA_IN_BIND, .addr = src, .dst = dst };

	if (!src || !src->sa_family) {
		if (dst->sa_family == AF_INET6)
			any6->sin6_scope_id = dst6->sin6_scope_id;
		in.addr = (struct sockaddr *)&any;
	}
	if (in.addr->sa_family != AF_INET && in.addr->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	return cma_table_run(priv, &in);
}

/**
 * rdma_resolve_addr() - Resolve a destination and bind the id to a device
 * @id: an IDLE id (bound here first, to @src_addr or a wildcard) or a
 *	bound one (@src_addr is then ignored)
 * @src_addr: the source address, or NULL
 * @dst_addr: the destination, IPv4 or IPv6
 * @timeout_ms: how long the resolver may take
 *
 * The first step of the active side. The result comes as an event:
 * ADDR_RESOLVED (the id is on the device that reaches @dst_addr, its
 * source address complete) or ADDR_ERROR with the errno (the id stays
 * bound and may try again). Destroying the id cancels the query.
 *
 * Context: process context, sleeps; may be called from the id's handler.
 * Return: 0 when the query is under way; -EINVAL in another state or for
 * families that differ; -EOPNOTSUPP for a wildcard destination; the
 * errnos of rdma_bind_addr() for the implicit bind; the resolver's.
 */
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr, unsigned long timeout_ms)
{
	struct cma_id_priv *priv = to_cma_id(id);
	struct cma_in in = {
		.input = CMA_IN_RESOLVE_ADDR,
		.dst = dst_addr,
		.timeout_ms = timeout_ms,
	};
	int ret;

	if (cma_id_state(priv) == RDMA_CM_IDLE) {
		ret = cma_resolve_bind(priv, src_addr, dst_addr);
		if (ret)
			return ret;
	}
	return cma_table_run(priv, &in);
}
EXPORT_SYMBOL(rdma_resolve_addr);
