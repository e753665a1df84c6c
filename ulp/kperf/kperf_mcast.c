// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: mcast=1, UD sends to a multicast group all target QPs joined. */

#include <linux/etherdevice.h>
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include "kperf.h"

#define KPERF_MCAST_HOPS	8

/* ff0e::4d:101, a global-scope group, for IPv6 source GIDs. */
static const struct in6_addr kperf_mcast_ip6 = {
	.s6_addr = { 0xff, 0x0e, [13] = 0x4d, [14] = 0x01, [15] = 0x01 },
};

/**
 * kperf_mcast_check() - the rules of mcast=1
 * @p: the command, defaults filled in
 *
 * Return: what is wrong with the command, or NULL.
 */
const char *kperf_mcast_check(const struct kperf_params *p)
{
	if (!p->mcast)
		return NULL;
	if (p->qp_type != IB_QPT_UD)
		return "mcast=1 needs qp=ud";
	if (p->mode != KPERF_PING)
		return "mcast=1 needs mode=ping";
	if (p->fault != KPERF_FAULT_NONE || p->srq)
		return "mcast=1 does not go with fault= or srq=1";
	return NULL;
}

/* The group, of the family of the initiator's source GID, and its MAC. */
static void kperf_mcast_gid(struct kperf_run *run, union ib_gid *gid,
			    u8 *mac)
{
	const struct in6_addr *src =
		(const struct in6_addr *)run->side[0].sgid_attr->gid.raw;
	struct in6_addr *a = (struct in6_addr *)gid->raw;

	if (ipv6_addr_v4mapped(src)) {
		ipv6_addr_set_v4mapped(htonl(KPERF_MCAST_IP4), a);
		ip_eth_mc_map(htonl(KPERF_MCAST_IP4), mac);
	} else {
		*a = kperf_mcast_ip6;
		ipv6_eth_mc_map(a, mac);
	}
}

/*
 * RoCE v2 packets reach the driver through the IP stack, which takes a
 * multicast packet only for a group its net device has joined. As the
 * RDMA CM does for its RoCE joins, the target's net device joins (@join)
 * or leaves the group at the IP level.
 */
static int kperf_mcast_ip(struct kperf_run *run, const union ib_gid *gid,
			  bool join)
{
	const struct in6_addr *a = (const struct in6_addr *)gid->raw;
	struct net_device *ndev;
	struct in_device *in_dev;
	int ret = 0;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(run->side[1].sgid_attr);
	if (IS_ERR(ndev))
		ndev = NULL;
	else
		dev_hold(ndev);
	rcu_read_unlock();
	if (!ndev)
		return join ? -ENODEV : 0;
	rtnl_lock();
	if (ipv6_addr_v4mapped(a)) {
		in_dev = __in_dev_get_rtnl(ndev);
		if (in_dev && join)
			ip_mc_inc_group(in_dev, a->s6_addr32[3]);
		else if (in_dev)
			ip_mc_dec_group(in_dev, a->s6_addr32[3]);
		else
			ret = -ENODEV;
	} else if (IS_ENABLED(CONFIG_IPV6)) {
		ret = join ? ipv6_dev_mc_inc(ndev, a) : ipv6_dev_mc_dec(ndev, a);
	}
	rtnl_unlock();
	dev_put(ndev);
	return join ? ret : 0;
}

/* Points an initiator end at the group instead of its target. */
static int kperf_mcast_ah(struct kperf_run *run, struct kperf_end *e,
			  union ib_gid *gid, const u8 *mac)
{
	struct kperf_side *s = &run->side[0];
	struct rdma_ah_attr ah = {};
	int ret;

	ah.type = rdma_ah_find_type(s->ibdev, s->port);
	rdma_ah_set_port_num(&ah, s->port);
	rdma_ah_set_grh(&ah, gid, 0, s->sgid_attr->index, KPERF_MCAST_HOPS, 0);
	ah.grh.sgid_attr = s->sgid_attr;
	ether_addr_copy(ah.roce.dmac, mac);
	if (e->ah)
		rdma_destroy_ah(e->ah, RDMA_DESTROY_AH_SLEEPABLE);
	e->ah = rdma_create_ah(s->pd, &ah, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(e->ah)) {
		ret = PTR_ERR(e->ah);
		e->ah = NULL;
		return kperf_run_fail(run, ret, "rdma_create_ah for group %pI6c failed",
				      gid->raw);
	}
	return 0;
}

/**
 * kperf_mcast_attach() - attach every target QP to the group (mcast=1)
 * @run: the command, connected, before its mode runs
 *
 * The target side's net device joins the group at the IP level first.
 * The initiators' address handles then point at the group; they send to
 * QPN 0xffffff with the command's Q_Key. Adds an "info mcast_gid=" line.
 * With cm=rdma, rdma_cm joins instead (kperf_rdma_mcast_attach()).
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno, with the reason recorded.
 */
int kperf_mcast_attach(struct kperf_run *run)
{
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	unsigned int i;
	int d, ret;

	if (run->p.cm == KPERF_CM_RDMA)
		return kperf_rdma_mcast_attach(run);
	for (d = 0; d < 2; d++)
		if (!rdma_protocol_roce(run->side[d].ibdev, run->side[d].port))
			return kperf_run_fail(run, -EINVAL,
					      "mcast=1 needs RoCE ports (no SA join here)");
	kperf_mcast_gid(run, &gid, mac);
	ret = kperf_mcast_ip(run, &gid, true);
	if (ret)
		return kperf_run_fail(run, ret, "%s cannot join %pI6c",
				      dev_name(&run->side[1].ibdev->dev),
				      gid.raw);
	run->mcast_joined = true;
	for (i = 0; i < run->p.qps; i++) {
		ret = ib_attach_mcast(run->conns[i].end[1].qp, &gid, 0);
		if (ret)
			return kperf_run_fail(run, ret, "ib_attach_mcast of QP %#x to %pI6c failed",
					      run->conns[i].end[1].qp->qp_num,
					      gid.raw);
		run->mcast_attached++;
		ret = kperf_mcast_ah(run, &run->conns[i].end[0], &gid, mac);
		if (ret)
			return ret;
	}
	seq_buf_printf(run->out, "info mcast_gid=%pI6c members=%u\n", gid.raw,
		       run->p.qps);
	return 0;
}

/**
 * kperf_mcast_detach() - detach what kperf_mcast_attach() attached, leave
 * @run: the command; its QPs still exist
 *
 * Context: process context, sleeps.
 */
void kperf_mcast_detach(struct kperf_run *run)
{
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	struct ib_qp *qp;

	if (run->rdma_mcast)
		kperf_rdma_mcast_detach(run);
	if (!run->mcast_joined)
		return;
	kperf_mcast_gid(run, &gid, mac);
	while (run->mcast_attached) {
		qp = run->conns[--run->mcast_attached].end[1].qp;
		if (ib_detach_mcast(qp, &gid, 0))
			pr_info("ib_detach_mcast of QP %#x failed\n", qp->qp_num);
	}
	kperf_mcast_ip(run, &gid, false);
	run->mcast_joined = false;
}

/* One receive of a round: each target QP once, from the round's sender. */
static int kperf_mcast_check_recv(struct kperf_run *run, const struct ib_wc *wc,
				  u32 round, unsigned int from, u64 *seen)
{
	unsigned int i = kperf_wr_qpi(wc->wr_id);
	u32 len = run->p.size + KPERF_UD_GRH;
	struct kperf_end *e;

	if (i >= run->p.qps || (*seen & BIT_ULL(i)) ||
	    wc->qp != run->conns[i].end[1].qp)
		return kperf_run_fail(run, -EBADMSG,
				      "round %u: unexpected receive (connection %u, QP %#x)",
				      round, i, wc->qp->qp_num);
	*seen |= BIT_ULL(i);
	e = &run->conns[i].end[1];
	if (wc->opcode != IB_WC_RECV || wc->byte_len != len ||
	    wc->src_qp != run->conns[from].end[0].qp->qp_num)
		return kperf_run_fail(run, -EBADMSG,
				      "round %u: QP %#x received opcode %d, %u bytes from QP %#x",
				      round, e->qp->qp_num, wc->opcode,
				      wc->byte_len, wc->src_qp);
	if (run->op->imm && (!(wc->wc_flags & IB_WC_WITH_IMM) ||
			     wc->ex.imm_data != kperf_imm(round)))
		return kperf_run_fail(run, -EBADMSG, "round %u: immediate data missing or wrong",
				      round);
	return kperf_data_check(run, e->buf.va + KPERF_UD_GRH, run->p.size,
				round, KPERF_SALT_DATA, "multicast receive buffer");
}

/* A receive on every target QP, poisoned buffers, the round's data. */
static int kperf_mcast_prepare(struct kperf_run *run, u32 round,
			       unsigned int from)
{
	struct kperf_end *e;
	unsigned int i;
	int ret;

	for (i = 0; i < run->p.qps; i++) {
		e = &run->conns[i].end[1];
		kperf_data_fill(e->buf.va, run->p.size + KPERF_UD_GRH, round,
				KPERF_SALT_POISON);
		ret = kperf_post_recv(run, e, kperf_wr_id(KPERF_WR_RECV, i, round));
		if (ret)
			return kperf_run_fail(run, ret, "ib_post_recv failed");
	}
	kperf_data_fill(run->conns[from].end[0].buf.va, run->p.size, round,
			KPERF_SALT_DATA);
	return 0;
}

/**
 * kperf_mcast_round() - one ping round of mcast=1
 * @run: the command, attached
 * @round: the round; connection round % qps sends
 *
 * One message to the group; every attached QP must receive it, once, with
 * the right length, source QP, immediate data and payload.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno.
 */
int kperf_mcast_round(struct kperf_run *run, u32 round)
{
	unsigned int from = round % run->p.qps, i;
	struct ib_wc wc;
	u64 seen = 0;
	int ret;

	ret = kperf_mcast_prepare(run, round, from);
	if (ret)
		return ret;
	ret = kperf_post_op(run, from, round, round, true);
	if (ret)
		return kperf_run_fail(run, ret, "ib_post_send of %s failed",
				      run->op->name);
	ret = kperf_cq_expect(run, &run->side[0], KPERF_WR_OP, &wc);
	for (i = 0; i < run->p.qps && !ret; i++) {
		ret = kperf_cq_expect(run, &run->side[1], KPERF_WR_RECV, &wc);
		if (!ret)
			ret = kperf_mcast_check_recv(run, &wc, round, from, &seen);
	}
	if (ret)
		return ret;
	run->res.msgs++;
	run->res.bytes += run->p.size;
	return 0;
}
