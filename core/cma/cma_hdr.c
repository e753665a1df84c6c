// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 36-byte CMA header at the front of a REQ's private data: written by the
 * active side, read and matched to listeners by the passive side.
 */

#include <kunit/visibility.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/ipv6.h>

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

/* The family of a header's IP version; AF_UNSPEC for a version not 4 or 6. */
static sa_family_t cma_hdr_family(const struct cma_hdr *hdr)
{
	switch (hdr->ip_version >> 4) {
	case 4:
		return AF_INET;
	case 6:
		return AF_INET6;
	default:
		return AF_UNSPEC;
	}
}

/* A header address as a socket address of @family, with @port. */
static void cma_hdr_get_addr(struct sockaddr_storage *to, sa_family_t family,
			     const struct in6_addr *addr, __be16 port)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)to;
	struct sockaddr_in *sin = (struct sockaddr_in *)to;

	memset(to, 0, sizeof(*to));
	if (family == AF_INET) {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = addr->s6_addr32[3];
		sin->sin_port = port;
		return;
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = *addr;
	sin6->sin6_port = port;
}

/**
 * cma_hdr_parse() - The addresses a REQ's CMA header gives the new id
 * @data: the REQ's private data, CMA_HDR_SIZE bytes at least
 * @service_id: the REQ's service ID; its low 16 bits are our port
 * @src: set to our end: the header's destination address, that port
 * @dst: set to the peer's: the header's source address and port
 *
 * Context: any.
 * Return: 0; -EINVAL for a header version other than 0; -EAFNOSUPPORT
 * for an IP version other than 4 or 6.
 */
int cma_hdr_parse(const void *data, __be64 service_id,
		  struct sockaddr_storage *src, struct sockaddr_storage *dst)
{
	const struct cma_hdr *hdr = data;
	sa_family_t family = cma_hdr_family(hdr);

	if (hdr->version != CMA_HDR_VERSION)
		return -EINVAL;
	if (family == AF_UNSPEC)
		return -EAFNOSUPPORT;
	cma_hdr_get_addr(src, family, &hdr->dst,
			 htons((u16)be64_to_cpu(service_id)));
	cma_hdr_get_addr(dst, family, &hdr->src, hdr->port);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_hdr_parse);

/**
 * cma_hdr_match() - Is a REQ's header for this listener?
 * @priv: a listener
 * @data: the REQ's CMA header
 *
 * A wildcard listener that is not afonly takes both IP versions; any
 * other takes its own, and a specific one only requests for its address.
 *
 * Context: any.
 * Return: true if @priv takes the request.
 */
bool cma_hdr_match(struct cma_id_priv *priv, const void *data)
{
	const struct cma_hdr *hdr = data;
	struct sockaddr *addr = cma_src_addr(priv);
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;

	if (cma_addr_any(addr) && !priv->afonly)
		return true;
	if (cma_hdr_family(hdr) != addr->sa_family)
		return false;
	if (cma_addr_any(addr))
		return true;
	if (addr->sa_family == AF_INET)
		return hdr->dst.s6_addr32[3] == sin->sin_addr.s_addr;
	return ipv6_addr_equal(&hdr->dst, &sin6->sin6_addr);
}
EXPORT_SYMBOL_IF_KUNIT(cma_hdr_match);
