/* SPDX-License-Identifier: GPL-2.0-only */
/* AF_IB socket addresses (struct sockaddr_ib) and the uverbs file credential check. */
#ifndef RDMAOOT_RDMA_IB_H
#define RDMAOOT_RDMA_IB_H

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uaccess.h>

/* A 128-bit InfiniBand address (a GID), viewed in words of every size. */
struct ib_addr {
	union {
		__u8		uib_addr8[16];
		__be16		uib_addr16[8];
		__be32		uib_addr32[4];
		__be64		uib_addr64[2];
	} ib_u;
#define sib_addr8		ib_u.uib_addr8
#define sib_addr16		ib_u.uib_addr16
#define sib_addr32		ib_u.uib_addr32
#define sib_addr64		ib_u.uib_addr64
#define sib_raw			ib_u.uib_addr8
#define sib_subnet_prefix	ib_u.uib_addr64[0]
#define sib_interface_id	ib_u.uib_addr64[1]
};

/* The all-zero address, the AF_IB wildcard. */
static inline bool ib_addr_any(const struct ib_addr *a)
{
	return !(a->sib_addr64[0] | a->sib_addr64[1]);
}

/* ::1, the AF_IB loopback address. */
static inline bool ib_addr_loopback(const struct ib_addr *a)
{
	return !(a->sib_addr32[0] | a->sib_addr32[1] | a->sib_addr32[2]) &&
	       a->sib_addr32[3] == htonl(1);
}

static inline void ib_addr_set(struct ib_addr *addr,
			       __be32 w1, __be32 w2, __be32 w3, __be32 w4)
{
	addr->sib_addr32[0] = w1;
	addr->sib_addr32[1] = w2;
	addr->sib_addr32[2] = w3;
	addr->sib_addr32[3] = w4;
}

/* 0 when equal, like memcmp(). */
static inline int ib_addr_cmp(const struct ib_addr *a1,
			      const struct ib_addr *a2)
{
	return memcmp(a1, a2, sizeof(*a1));
}

/* An AF_IB endpoint: GID, P_Key, flow label and service id (with mask). */
struct sockaddr_ib {
	unsigned short int	sib_family;	/* AF_IB */
	__be16			sib_pkey;
	__be32			sib_flowinfo;
	struct ib_addr		sib_addr;
	__be64			sib_sid;
	__be64			sib_sid_mask;
	__u64			sib_scope_id;
};

/*
 * Whether a uverbs write() comes from the credentials that opened the
 * file (write() must not act on behalf of whoever passed the fd on).
 */
static inline bool ib_safe_file_access(struct file *filp)
{
	return filp->f_cred == current_cred();
}

#endif /* RDMAOOT_RDMA_IB_H */
