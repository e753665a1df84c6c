// SPDX-License-Identifier: GPL-2.0-only
/* The 36-byte CMA header at the front of a REQ's private data: who connects to whom, for the passive side's listener match. */

#include <kunit/visibility.h>
#include <linux/in.h>
#include <linux/in6.h>

#include "cma/cma.h"

/*
 * The wire image (CM-UVERBS 2c), network order:
 *
 *	byte 0		version, 0
 *	byte 1		IP version in bits 7:4 (4 or 6)
 *	bytes 2-3	the active side's source port
 *	bytes 4-19	its source address
 *	bytes 20-35	its destination address
 *
 * An IPv4 address sits in the last 4 bytes of its 16, the first 12 zero
 * (not IPv4-mapped). The consumer's private data follows, so a REQ
 * carries at most 92 - 36 = 56 bytes of it.
 */
struct cma_hdr {
	u8		version;
	u8		ip_version;
	__be16		port;
	struct in6_addr	src;
	struct in6_addr	dst;
} __packed;

static_assert(sizeof(struct cma_hdr) == CMA_HDR_SIZE);

/* @addr's host address as the header carries it. */
static void cma_hdr_put_addr(struct in6_addr *to, const struct sockaddr *addr)
{
	memset(to, 0, sizeof(*to));
	if (addr->sa_family == AF_INET)
		to->s6_addr32[3] = ((const struct sockaddr_in *)addr)->sin_addr.s_addr;
	else
		*to = ((const struct sockaddr_in6 *)addr)->sin6_addr;
}

/**
 * cma_hdr_format() - Write an id's CMA header
 * @priv: an IPv4 or IPv6 id with its source and destination
 * @buf: CMA_HDR_SIZE bytes
 *
 * Context: any.
 * Return: 0, or -EAFNOSUPPORT for an id of another family (AF_IB ids
 * send no header).
 */
int cma_hdr_format(struct cma_id_priv *priv, void *buf)
{
	struct sockaddr *src = cma_src_addr(priv);
	struct cma_hdr *hdr = buf;

	if (src->sa_family != AF_INET && src->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	hdr->version = CMA_HDR_VERSION;
	hdr->ip_version = (src->sa_family == AF_INET ? 4 : 6) << 4;
	hdr->port = cma_addr_port(src);
	cma_hdr_put_addr(&hdr->src, src);
	cma_hdr_put_addr(&hdr->dst, cma_dst_addr(priv));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_hdr_format);
