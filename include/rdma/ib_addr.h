/* SPDX-License-Identifier: GPL-2.0-only */
/* IP to RDMA address resolution (ib_addr) and GID/MAC/VLAN helpers derived from IP addresses. */
#ifndef RDMAOOT_RDMA_IB_ADDR_H
#define RDMAOOT_RDMA_IB_ADDR_H

#include <linux/ethtool.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/inetdevice.h>
#include <linux/socket.h>
#include <linux/if_vlan.h>
#include <net/ipv6.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_pack.h>
#include <net/net_namespace.h>
#include <asm/unaligned.h>

/* ---- Resolved addresses ---------------------------------------------------- */

/*
 * The link-level view of an RDMA endpoint, filled in by address
 * resolution. On IPoIB devices the hardware addresses hold a 4-byte QPN
 * prefix followed by the GID, and @broadcast carries the P_Key in bytes
 * 8-9 and the broadcast MGID from byte 4. @net must be set by the caller
 * before resolving; @sgid_attr is the GID entry chosen for the source.
 */
struct rdma_dev_addr {
	unsigned char src_dev_addr[MAX_ADDR_LEN];
	unsigned char dst_dev_addr[MAX_ADDR_LEN];
	unsigned char broadcast[MAX_ADDR_LEN];
	unsigned short dev_type;
	int bound_dev_if;
	enum rdma_transport_type transport;
	struct net *net;
	const struct ib_gid_attr *sgid_attr;
	enum rdma_network_type network;
	int hoplimit;
};

/* Fill @dev_addr from the local netdev that owns @addr (in dev_addr->net). */
int rdma_translate_ip(const struct sockaddr *addr,
		      struct rdma_dev_addr *dev_addr);

/*
 * Asynchronously resolve @dst_addr (and @src_addr, which may be a wildcard
 * or NULL) into @addr. @callback runs exactly once, with status 0 on
 * success, a negative errno on failure, timeout (@timeout_ms) or
 * cancellation. @addr must stay valid until then. With
 * @resolve_by_gid_attr the source comes from addr->sgid_attr instead of a
 * route lookup.
 */
int rdma_resolve_ip(struct sockaddr *src_addr, const struct sockaddr *dst_addr,
		    struct rdma_dev_addr *addr, unsigned long timeout_ms,
		    void (*callback)(int status, struct sockaddr *src_addr,
				     struct rdma_dev_addr *addr, void *context),
		    bool resolve_by_gid_attr, void *context);
/* Cancel a pending rdma_resolve_ip() on @addr; waits for its callback. */
void rdma_addr_cancel(struct rdma_dev_addr *addr);

/* Size of the sockaddr for the address family stored in @addr, or 0. */
int rdma_addr_size(const struct sockaddr *addr);
int rdma_addr_size_in6(struct sockaddr_in6 *addr);
int rdma_addr_size_kss(struct __kernel_sockaddr_storage *addr);

/* ---- IPoIB broadcast address: P_Key and MGID ------------------------------- */

static inline u16 ib_addr_get_pkey(struct rdma_dev_addr *dev_addr)
{
	return get_unaligned_be16(&dev_addr->broadcast[8]);
}

static inline void ib_addr_set_pkey(struct rdma_dev_addr *dev_addr, u16 pkey)
{
	put_unaligned_be16(pkey, &dev_addr->broadcast[8]);
}

static inline void ib_addr_get_mgid(struct rdma_dev_addr *dev_addr,
				    union ib_gid *gid)
{
	memcpy(gid->raw, &dev_addr->broadcast[4], sizeof(gid->raw));
}

/* Where the GID starts inside src/dst_dev_addr: after the QPN on IPoIB. */
static inline int rdma_addr_gid_offset(struct rdma_dev_addr *dev_addr)
{
	if (dev_addr->dev_type == ARPHRD_INFINIBAND)
		return 4;
	return 0;
}

/*
 * GIDs kept inside the hardware addresses. Meaningful for IB and iWARP;
 * RoCE GIDs are derived from IP addresses instead.
 */
static inline void rdma_addr_get_sgid(struct rdma_dev_addr *dev_addr,
				      union ib_gid *gid)
{
	memcpy(gid->raw, dev_addr->src_dev_addr + rdma_addr_gid_offset(dev_addr),
	       sizeof(gid->raw));
}

static inline void rdma_addr_set_sgid(struct rdma_dev_addr *dev_addr,
				      union ib_gid *gid)
{
	memcpy(dev_addr->src_dev_addr + rdma_addr_gid_offset(dev_addr), gid->raw,
	       sizeof(gid->raw));
}

static inline void rdma_addr_get_dgid(struct rdma_dev_addr *dev_addr,
				      union ib_gid *gid)
{
	memcpy(gid->raw, dev_addr->dst_dev_addr + rdma_addr_gid_offset(dev_addr),
	       sizeof(gid->raw));
}

static inline void rdma_addr_set_dgid(struct rdma_dev_addr *dev_addr,
				      union ib_gid *gid)
{
	memcpy(dev_addr->dst_dev_addr + rdma_addr_gid_offset(dev_addr), gid->raw,
	       sizeof(gid->raw));
}

/* ---- IP <-> GID ------------------------------------------------------------ */

/* IPv4 becomes a v4-mapped IPv6 GID; -EINVAL for other families. */
static inline int rdma_ip2gid(struct sockaddr *addr, union ib_gid *gid)
{
	struct in6_addr *out = (struct in6_addr *)gid->raw;

	if (addr->sa_family == AF_INET) {
		ipv6_addr_set_v4mapped(((struct sockaddr_in *)addr)->sin_addr.s_addr,
				       out);
		return 0;
	}
	if (addr->sa_family == AF_INET6) {
		*out = ((struct sockaddr_in6 *)addr)->sin6_addr;
		return 0;
	}
	return -EINVAL;
}

/*
 * Inverse of rdma_ip2gid(): a v4-mapped GID yields a sockaddr_in, anything
 * else a sockaddr_in6. @out must have room for either (e.g. a union or a
 * sockaddr_storage); it is zeroed first.
 */
static inline void rdma_gid2ip(struct sockaddr *out, const union ib_gid *gid)
{
	const struct in6_addr *in6 = (const struct in6_addr *)gid->raw;

	if (ipv6_addr_v4mapped(in6)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)out;

		memset(sin, 0, sizeof(*sin));
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = in6->s6_addr32[3];
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out;

		memset(sin6, 0, sizeof(*sin6));
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = *in6;
	}
}

/* ---- RoCE: MTU, MACs and VLANs from Ethernet/IP facts -------------------- */

/*
 * Largest IB MTU that fits in a netdev MTU of @mtu bytes once the RoCE
 * headers (GRH, UDP, BTH, XRC ext., AtomicETH, ICRC) are taken off; 0 if
 * not even IB_MTU_256 fits.
 */
static inline enum ib_mtu iboe_get_mtu(int mtu)
{
	int code;

	mtu -= IB_GRH_BYTES + IB_UDP_BYTES + IB_BTH_BYTES + IB_EXT_XRC_BYTES +
	       IB_EXT_ATOMICETH_BYTES + IB_ICRC_BYTES;
	for (code = IB_MTU_4096; code >= IB_MTU_256; code--)
		if (mtu >= ib_mtu_enum_to_int((enum ib_mtu)code))
			return (enum ib_mtu)code;
	return 0;
}

/* True for fe80::/64, the prefix of link-local RoCE v1 GIDs. */
static inline int rdma_link_local_addr(struct in6_addr *addr)
{
	return addr->s6_addr32[0] == htonl(0xfe800000) &&
	       addr->s6_addr32[1] == 0;
}

/*
 * MAC embedded in a modified EUI-64 interface id (bytes 8-10 and 13-15,
 * with the universal/local bit flipped back).
 */
static inline void rdma_get_ll_mac(struct in6_addr *addr, u8 *mac)
{
	const u8 *iid = &addr->s6_addr[8];

	mac[0] = iid[0] ^ 0x02;
	mac[1] = iid[1];
	mac[2] = iid[2];
	mac[3] = iid[5];
	mac[4] = iid[6];
	mac[5] = iid[7];
}

/* IPv6 multicast, or an IPv4 multicast address in v4-mapped form. */
static inline int rdma_is_multicast_addr(struct in6_addr *addr)
{
	if (addr->s6_addr[0] == 0xff)
		return 1;
	return ipv6_addr_v4mapped(addr) &&
	       ipv4_is_multicast(addr->s6_addr32[3]);
}

/* IPv6 multicast MAC: 33:33 followed by the group's last four bytes. */
static inline void rdma_get_mcast_mac(struct in6_addr *addr, u8 *mac)
{
	mac[0] = 0x33;
	mac[1] = 0x33;
	memcpy(&mac[2], &addr->s6_addr[12], 4);
}

/* VLAN id carried in GID bytes 11-12, or 0xffff when not a valid VID. */
static inline u16 rdma_get_vlan_id(union ib_gid *dgid)
{
	u16 vid = get_unaligned_be16(&dgid->raw[11]);

	return vid < VLAN_N_VID ? vid : 0xffff;
}

/* VLAN id of @dev, or 0xffff when @dev is not a VLAN device. */
static inline u16 rdma_vlan_dev_vlan_id(const struct net_device *dev)
{
	if (!is_vlan_dev(dev))
		return 0xffff;
	return vlan_dev_vlan_id(dev);
}

/* The device under a VLAN device, or NULL when @dev is not one. */
static inline struct net_device *
rdma_vlan_dev_real_dev(const struct net_device *dev)
{
	if (!is_vlan_dev(dev))
		return NULL;
	return vlan_dev_real_dev(dev);
}

#endif /* RDMAOOT_RDMA_IB_ADDR_H */
