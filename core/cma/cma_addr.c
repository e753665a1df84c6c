// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_cm's socket addresses: an id's source and destination, wildcards,
 * loopback, ports and comparison.
 */

#include <kunit/visibility.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/ipv6.h>
#include <rdma/ib.h>

#include "cma/cma.h"

/*
 * AF_INET and AF_INET6 are what this step serves; AF_IB addresses are
 * parsed where 6.1 parses them (ports, comparison) so that the day AF_IB
 * ids come, only the binding and resolving code has to learn them.
 */

/* A family rdma_cm takes in an address. */
bool cma_addr_family_ok(const struct sockaddr *addr)
{
	return addr->sa_family == AF_INET || addr->sa_family == AF_INET6 ||
	       addr->sa_family == AF_IB;
}

/* The wildcard address of its family (an unknown family counts as one). */
bool cma_addr_any(const struct sockaddr *addr)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	const struct sockaddr_ib *sib = (const struct sockaddr_ib *)addr;

	if (addr->sa_family == AF_INET)
		return ipv4_is_zeronet(sin->sin_addr.s_addr);
	if (addr->sa_family == AF_INET6)
		return ipv6_addr_any(&sin6->sin6_addr);
	if (addr->sa_family == AF_IB)
		return ib_addr_any(&sib->sib_addr);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(cma_addr_any);

bool cma_addr_loopback(const struct sockaddr *addr)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	const struct sockaddr_ib *sib = (const struct sockaddr_ib *)addr;

	if (addr->sa_family == AF_INET)
		return ipv4_is_loopback(sin->sin_addr.s_addr);
	if (addr->sa_family == AF_INET6)
		return ipv6_addr_loopback(&sin6->sin6_addr);
	if (addr->sa_family == AF_IB)
		return ib_addr_loopback(&sib->sib_addr);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(cma_addr_loopback);

/* The port of @addr, network order; an AF_IB address's is in its SID. */
__be16 cma_addr_port(const struct sockaddr *addr)
{
	const struct sockaddr_ib *sib = (const struct sockaddr_ib *)addr;

	switch (addr->sa_family) {
	case AF_INET:
		return ((const struct sockaddr_in *)addr)->sin_port;
	case AF_INET6:
		return ((const struct sockaddr_in6 *)addr)->sin6_port;
	case AF_IB:
		return htons((u16)(be64_to_cpu(sib->sib_sid & sib->sib_sid_mask)));
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(cma_addr_port);

void cma_addr_set_port(struct sockaddr *addr, __be16 port)
{
	if (addr->sa_family == AF_INET)
		((struct sockaddr_in *)addr)->sin_port = port;
	else if (addr->sa_family == AF_INET6)
		((struct sockaddr_in6 *)addr)->sin6_port = port;
}

/*
 * 0 when @a and @b name the same host address (ports aside): what makes
 * two binds of one port collide. Different families never match; IPv6
 * link-local addresses match only on the same interface.
 */
int cma_addr_cmp(const struct sockaddr *a, const struct sockaddr *b)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
	const struct sockaddr_in6 *b6 = (const struct sockaddr_in6 *)b;

	if (a->sa_family != b->sa_family)
		return -1;
	switch (a->sa_family) {
	case AF_INET:
		return ((struct sockaddr_in *)a)->sin_addr.s_addr !=
		       ((struct sockaddr_in *)b)->sin_addr.s_addr;
	case AF_INET6:
		if ((ipv6_addr_type(&a6->sin6_addr) & IPV6_ADDR_LINKLOCAL) &&
		    a6->sin6_scope_id != b6->sin6_scope_id)
			return -1;
		return !ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr);
	case AF_IB:
		return ib_addr_cmp(&((struct sockaddr_ib *)a)->sib_addr,
				   &((struct sockaddr_ib *)b)->sib_addr);
	default:
		return -1;
	}
}
EXPORT_SYMBOL_IF_KUNIT(cma_addr_cmp);
