// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: the info and result lines a command leaves in the run file. */

#include <linux/math64.h>
#include "kperf.h"

static const char *const kperf_fault_out[] = {
	[KPERF_FAULT_NONE] = "none", [KPERF_FAULT_BAD_RKEY] = "bad_rkey",
	[KPERF_FAULT_NO_RECV] = "no_recv", [KPERF_FAULT_QP_ERR] = "qp_err",
};

/**
 * kperf_out_fixed() - " name=<num * scale / den>" with three decimals
 * @out: where the field goes
 * @name: its name
 * @num: numerator
 * @scale: its factor
 * @den: denominator; 0 prints 0
 */
void kperf_out_fixed(struct seq_buf *out, const char *name, u64 num,
		     u64 scale, u64 den)
{
	u64 milli = den ? mul_u64_u64_div_u64(num, scale * 1000, den) : 0;
	u32 frac;
	u64 whole = div_u64_rem(milli, 1000, &frac);

	seq_buf_printf(out, " %s=%llu.%03u", name, whole, frac);
}

static void kperf_out_side(struct seq_buf *out, const char *prefix,
			   const struct kperf_side *s)
{
	seq_buf_printf(out, " %s=%s %sport=%u %sgid_index=%u %sgid=%pI6c %slid=%u",
		       prefix[0] ? "peer" : "dev", dev_name(&s->ibdev->dev),
		       prefix, s->port, prefix, s->sgid_attr->index, prefix,
		       s->sgid_attr->gid.raw, prefix, s->lid);
}

static u32 kperf_out_qpn(const struct ib_qp *qp)
{
	return qp ? qp->qp_num : 0;
}

/**
 * kperf_out_info() - the "info" line: what the command is connected over
 * @run: the command, connected
 */
void kperf_out_info(struct kperf_run *run)
{
	struct seq_buf *out = run->out;

	seq_buf_printf(out, "info");
	kperf_out_side(out, "", &run->side[0]);
	kperf_out_side(out, "peer_", &run->side[1]);
	/* mode=mad talks between the QP1s and has no connections. */
	if (!run->conns) {
		seq_buf_printf(out, " mtu=%d qpn=0x1 peer_qpn=0x1\n",
			       ib_mtu_enum_to_int(run->p.mtu));
		return;
	}
	/* abort=: the first connection's QPs are gone already (0) */
	seq_buf_printf(out, " mtu=%d qpn=%#x peer_qpn=%#x\n",
		       ib_mtu_enum_to_int(run->p.mtu),
		       kperf_out_qpn(run->conns[0].end[0].qp),
		       kperf_out_qpn(run->conns[0].end[1].qp));
}

static void kperf_out_params(struct kperf_run *run)
{
	const struct kperf_params *p = &run->p;

	seq_buf_printf(run->out,
		       "result mode=%s op=%s qp=%s size=%u qps=%u depth=%u sig=%u iters=%u mtu=%d mr=%s inline=%d fault=%s",
		       kperf_mode_name(p->mode), run->op->name,
		       kperf_qp_name(p->qp_type), p->size, p->qps, p->depth,
		       p->sig, p->iters, p->mtu ? ib_mtu_enum_to_int(p->mtu) : 0,
		       p->mr == KPERF_MR_FRWR ? "frwr" : "dma", p->inline_data,
		       kperf_fault_out[p->fault]);
}

static void kperf_out_numbers(struct kperf_run *run)
{
	const struct kperf_result *r = &run->res;
	struct seq_buf *out = run->out;

	seq_buf_printf(out, " msgs=%llu bytes=%llu", r->msgs, r->bytes);
	kperf_out_fixed(out, "usec", r->ns, 1, 1000);
	/* bytes per microsecond is MB/s; messages per microsecond is Mpps */
	kperf_out_fixed(out, "mbps", r->bytes, 1000, r->ns);
	kperf_out_fixed(out, "mpps", r->msgs, 1000, r->ns);
	kperf_out_fixed(out, "lat_min", r->lat[0], 1, 1000);
	kperf_out_fixed(out, "lat_med", r->lat[1], 1, 1000);
	kperf_out_fixed(out, "lat_p99", r->lat[2], 1, 1000);
	kperf_out_fixed(out, "lat_max", r->lat[3], 1, 1000);
	kperf_out_fixed(out, "cpu_usec", r->cpu_ns, 1, 1000);
	seq_buf_printf(out, " wc=%s", kperf_wc_name(r->wc));
}

/* cm=rdma's cycles=, abort= and hold=: what they did, only when given. */
static void kperf_out_rdma_cm(struct kperf_run *run)
{
	const struct kperf_params *p = &run->p;
	struct seq_buf *out = run->out;

	if (p->cycles) {
		seq_buf_printf(out, " cycles=%llu", run->cycles_done);
		kperf_out_fixed(out, "connects_per_s",
				run->cycles_done * p->qps, NSEC_PER_SEC,
				run->cycles_ns);
	}
	if (p->abort)
		seq_buf_printf(out, " abort=%s", kperf_abort_name(p->abort));
	if (p->hold)
		seq_buf_printf(out, " removals=%u removal_ids=%u addr_changes=%d",
			       run->removals, run->removal_ids,
			       atomic_read(&run->addr_changes));
}

/**
 * kperf_out_status() - the end of a "result" line: its status
 * @run: the command, finished
 * @err: its outcome: 0 for status=ok, else status=fail with @err and the
 *	 recorded reason
 */
void kperf_out_status(struct kperf_run *run, int err)
{
	if (!err) {
		seq_buf_printf(run->out, " status=ok\n");
		return;
	}
	seq_buf_printf(run->out, " status=fail errno=%d reason=\"%s\"\n", err,
		       run->reason[0] ? run->reason : "unknown");
}

/**
 * kperf_out_result() - the "result" line of a command
 * @run: the command, finished and torn down
 * @err: its outcome, as kperf_out_status() takes it
 */
void kperf_out_result(struct kperf_run *run, int err)
{
	kperf_out_params(run);
	kperf_out_numbers(run);
	kperf_out_rdma_cm(run);
	kperf_out_status(run, err);
}
