// SPDX-License-Identifier: GPL-2.0-only
/* rxe_counters.c - the hardware counters a soft-RoCE port shows in hw_counters/ and "rdma stat". */

#include <linux/percpu.h>
#include "rxe_dev.h"

/*
 * Names as tools see them, indexed by enum rxe_counter. The first fifteen
 * are what the inbox driver calls its counters; the drop counters follow.
 */
static const struct rdma_stat_desc rxe_counter_descs[] = {
	[RXE_CNT_SENT_PKTS]		= { .name = "sent_pkts" },
	[RXE_CNT_RCVD_PKTS]		= { .name = "rcvd_pkts" },
	[RXE_CNT_DUP_REQ]		= { .name = "duplicate_request" },
	[RXE_CNT_OUT_OF_SEQ_REQ]	= { .name = "out_of_seq_request" },
	[RXE_CNT_RCV_RNR]		= { .name = "rcvd_rnr_err" },
	[RXE_CNT_SND_RNR]		= { .name = "send_rnr_err" },
	[RXE_CNT_RCV_SEQ_ERR]		= { .name = "rcvd_seq_err" },
	[RXE_CNT_ACK_DEFERRED]		= { .name = "ack_deferred" },
	[RXE_CNT_RETRY_EXCEEDED]	= { .name = "retry_exceeded_err" },
	[RXE_CNT_RNR_RETRY_EXCEEDED]	= { .name = "retry_rnr_exceeded_err" },
	[RXE_CNT_COMP_RETRY]		= { .name = "completer_retry_err" },
	[RXE_CNT_SEND_ERR]		= { .name = "send_err" },
	[RXE_CNT_LINK_DOWNED]		= { .name = "link_downed" },
	[RXE_CNT_RDMA_SEND]		= { .name = "rdma_sends" },
	[RXE_CNT_RDMA_RECV]		= { .name = "rdma_recvs" },
	[RXE_CNT_DROP_ICRC]		= { .name = "rcvd_drop_bad_icrc" },
	[RXE_CNT_DROP_HDR]		= { .name = "rcvd_drop_bad_header" },
	[RXE_CNT_DROP_QPN]		= { .name = "rcvd_drop_no_qp" },
	[RXE_CNT_DROP_PKEY]		= { .name = "rcvd_drop_bad_pkey" },
	[RXE_CNT_DROP_QKEY]		= { .name = "rcvd_drop_bad_qkey" },
	[RXE_CNT_DROP_QP_STATE]		= { .name = "rcvd_drop_qp_state" },
	[RXE_CNT_DROP_QP_TYPE]		= { .name = "rcvd_drop_qp_type" },
	[RXE_CNT_DROP_ADDR]		= { .name = "rcvd_drop_bad_addr" },
	[RXE_CNT_DROP_NOMEM]		= { .name = "rcvd_drop_no_mem" },
};

static_assert(ARRAY_SIZE(rxe_counter_descs) == RXE_NUM_COUNTERS);

/**
 * rxe_counter_read() - The current value of one counter of a device
 * @rxe: the device
 * @c:   which counter
 *
 * Sums the per-CPU copies. The result is a snapshot: other CPUs may be
 * counting while it is taken.
 *
 * Context: Any context.
 * Return: the sum over all possible CPUs.
 */
static u64 rxe_counter_read(struct rxe_dev *rxe, enum rxe_counter c)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(rxe->stats, cpu)->cnt[c];
	return sum;
}

/**
 * rxe_counters_alloc() - The alloc_hw_port_stats op
 * @ibdev:    the device
 * @port_num: the port (there is only port 1)
 *
 * Context: Process context, may sleep.
 * Return: a counter set with one entry per enum rxe_counter, or NULL.
 */
struct rdma_hw_stats *rxe_counters_alloc(struct ib_device *ibdev,
					 u32 port_num)
{
	return rdma_alloc_hw_stats_struct(rxe_counter_descs,
					  ARRAY_SIZE(rxe_counter_descs),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * rxe_counters_get() - The get_hw_stats op: refresh every counter
 * @ibdev:    the device
 * @stats:    from rxe_counters_alloc()
 * @port_num: the port
 * @index:    the counter the reader asked for (all are refreshed)
 *
 * Context: Process context; the core holds @stats->lock.
 * Return: the number of counters refreshed.
 */
int rxe_counters_get(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index)
{
	struct rxe_dev *rxe = to_rdev(ibdev);
	int i;

	for (i = 0; i < stats->num_counters && i < RXE_NUM_COUNTERS; i++)
		stats->value[i] = rxe_counter_read(rxe, i);
	return i;
}
