/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_param.h - the limits a soft-RoCE device advertises and enforces.
 * Software has no hardware limits: these bound memory per object and keep
 * a runaway ULP from exhausting the host.
 */
#ifndef RXE_PARAM_H
#define RXE_PARAM_H

#include <linux/sizes.h>

#define RXE_VENDOR_ID		0xffffff	/* no IEEE OUI */
#define RXE_MAX_MR_SIZE		(~0ull)
#define RXE_PAGE_SIZE_CAP	(~(u64)(SZ_4K - 1))	/* 4 KiB and up */

#define RXE_MAX_QP		0x10000
#define RXE_MAX_QP_WR		0x4000
#define RXE_MAX_SGE		32
#define RXE_MAX_INLINE_DATA	512
#define RXE_MAX_CQ		0x4000
#define RXE_MAX_CQE		0x8000
#define RXE_MAX_MR		0x40000
#define RXE_MAX_MW		0x40000
#define RXE_MAX_PD		0x10000
#define RXE_MAX_AH		0x8000
#define RXE_MAX_SRQ		0x4000
#define RXE_MAX_SRQ_WR		0x4000
#define RXE_MAX_FMR_PAGES	512	/* pages per fast-registration MR */
#define RXE_MAX_RD_ATOMIC	128	/* outstanding READ/ATOMIC per QP */
#define RXE_MAX_MCAST_GRP	0x2000
#define RXE_MAX_MCAST_QP_ATTACH	56
#define RXE_MAX_PKEYS		1
#define RXE_MAX_GIDS		1024	/* RoCE GID table per port */
#define RXE_MAX_MSG_SIZE	0x80000000u	/* 2 GiB */
#define RXE_LOCAL_CA_ACK_DELAY	15

/* QPNs: 0 and 1 are special; ordinary QPs start here. */
#define RXE_QPN_MIN		16

#endif /* RXE_PARAM_H */
