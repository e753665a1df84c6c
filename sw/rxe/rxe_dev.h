/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_dev.h - the soft-RoCE device: its counters, the struct every object
 * points back to, and the functions of the device's life (rxe_dev.c,
 * rxe_notify.c, rxe_counters.c).
 */
#ifndef RXE_DEV_H
#define RXE_DEV_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include "rxe_param.h"

struct rxe_net_sock;

/* --- counters (rxe_counters.c) ----------------------------------------- */

/*
 * The first fifteen are the inbox driver's hw_counters, in its order (their
 * names are what tools read); the rest count receive drops by reason.
 */
enum rxe_counter {
	RXE_CNT_SENT_PKTS,
	RXE_CNT_RCVD_PKTS,
	RXE_CNT_DUP_REQ,
	RXE_CNT_OUT_OF_SEQ_REQ,
	RXE_CNT_RCV_RNR,
	RXE_CNT_SND_RNR,
	RXE_CNT_RCV_SEQ_ERR,
	RXE_CNT_ACK_DEFERRED,
	RXE_CNT_RETRY_EXCEEDED,
	RXE_CNT_RNR_RETRY_EXCEEDED,
	RXE_CNT_COMP_RETRY,
	RXE_CNT_SEND_ERR,
	RXE_CNT_LINK_DOWNED,
	RXE_CNT_RDMA_SEND,
	RXE_CNT_RDMA_RECV,
	/* receive drops */
	RXE_CNT_DROP_ICRC,	/* ICRC mismatch */
	RXE_CNT_DROP_HDR,	/* version, opcode, length or pad invalid */
	RXE_CNT_DROP_QPN,	/* no such QP */
	RXE_CNT_DROP_PKEY,	/* P_Key mismatch */
	RXE_CNT_DROP_QKEY,	/* UD Q_Key mismatch */
	RXE_CNT_DROP_QP_STATE,	/* QP cannot receive in its state */
	RXE_CNT_DROP_QP_TYPE,	/* opcode of another transport */
	RXE_CNT_DROP_ADDR,	/* source address is not the QP's peer */
	RXE_CNT_DROP_NOMEM,	/* no memory to keep or answer the packet */
	RXE_NUM_COUNTERS
};

struct rxe_stats {
	u64 cnt[RXE_NUM_COUNTERS];
};

/* --- the device --------------------------------------------------------- */

/**
 * struct rxe_dev - one soft-RoCE device on top of one net device
 * @ib_dev:    the core's device; must stay first (core-allocated)
 * @ndev:      the net device; held from creation to dealloc_driver
 * @list:      on rxe_dev_list; added after registration, removed by
 *             dealloc_driver (after unregistration); readers use RCU
 * @sock:      the UDP sockets of the namespace the device was made in
 *             (rxe_net_sock_get()), held until dealloc_driver
 * @attr:      device attributes answered by query_device
 * @port_lock: protects @port_state and @port_mtu
 * @port_state: IB_PORT_ACTIVE or IB_PORT_DOWN, follows the netdev
 * @port_mtu:  active MTU, from the netdev's MTU
 * @qp_xa:     QPN -> struct rxe_qp; lookups under RCU take a reference
 * @key_xa:    key index (key >> 8) -> the struct rxe_key embedded in a
 *             struct rxe_mr or struct rxe_mw (rxe_mr.h)
 * @ah_xa:     ah_num -> struct rxe_ah of a user AH (UD WQEs in a user SQ
 *             ring name their AH by number); readers copy the vector
 *             under the xarray's lock, destroy erases first
 * @mcast_lock: protects @mcast_list
 * @mcast_list: multicast groups with attached QPs
 * @ndev_tracker: tracks the reference on @ndev
 * @qpn_next:  where the cyclic QPN allocation goes on
 * @key_next:  where the cyclic key index allocation goes on
 * @stats:     per-CPU counters, indexed by enum rxe_counter
 * @num_pd:    live PDs, checked against @attr limits (likewise below)
 * @num_ah:    live AHs
 * @num_cq:    live CQs
 * @num_srq:   live SRQs
 * @num_qp:    live QPs
 * @num_mr:    live MRs
 * @num_mw:    live MWs
 * @mmap_offset: bytes of mmap offsets handed out (rxe_mmap.c)
 */
struct rxe_dev {
	struct ib_device ib_dev;
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct list_head list;
	struct rxe_net_sock *sock;
	struct ib_device_attr attr;

	spinlock_t port_lock;	/* @port_state, @port_mtu */
	enum ib_port_state port_state;
	enum ib_mtu port_mtu;

	struct xarray qp_xa;
	u32 qpn_next;
	struct xarray key_xa;
	u32 key_next;
	struct xarray ah_xa;

	spinlock_t mcast_lock;	/* @mcast_list */
	struct list_head mcast_list;

	struct rxe_stats __percpu *stats;

	atomic_t num_pd, num_ah, num_cq, num_srq, num_qp, num_mr, num_mw;
	atomic64_t mmap_offset;
};

static inline struct rxe_dev *to_rdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rxe_dev, ib_dev);
}

/*
 * Count one more object against its limit @max; false (and no count) when
 * over.
 */
static inline bool rxe_count_inc(atomic_t *num, int max)
{
	if (atomic_inc_return(num) <= max)
		return true;
	atomic_dec(num);
	return false;
}

static inline void rxe_counter_inc(struct rxe_dev *rxe, enum rxe_counter c)
{
	this_cpu_inc(rxe->stats->cnt[c]);
}

#define rxe_dbg_dev(rxe, fmt, ...) \
	ibdev_dbg(&(rxe)->ib_dev, "%s: " fmt, __func__, ##__VA_ARGS__)

/* --- rxe_dev.c, rxe_notify.c, rxe_counters.c ---------------------------- */

int rxe_dev_add(struct net_device *ndev, const char *ibdev_name);
struct rxe_dev *rxe_dev_from_ndev_rcu(struct net_device *ndev);
bool rxe_dev_with_ndev(struct net_device *ndev, void (*fn)(struct rxe_dev *));
void rxe_dev_port_update(struct rxe_dev *rxe);
int rxe_notify_init(void);
void rxe_notify_exit(void);
struct rdma_hw_stats *rxe_counters_alloc(struct ib_device *ibdev,
					 u32 port_num);
int rxe_counters_get(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index);

#endif /* RXE_DEV_H */
