// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: one side of a command: device, port, source GID, PD and CQ. */

#include <linux/etherdevice.h>
#include <linux/rcupdate.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include "kperf.h"

/* The first RoCE v2 GID of @port that carries an IPv4 address, held. */
/* Is @attr a RoCE v2 GID of IP family @family (global for IPv6)? */
static bool kperf_side_gid_fits(const struct ib_gid_attr *attr, u8 family)
{
	const struct in6_addr *a = (const struct in6_addr *)attr->gid.raw;

	if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return false;
	if (family == 4)
		return ipv6_addr_v4mapped(a);
	return !ipv6_addr_v4mapped(a) &&
	       !(ipv6_addr_type(a) & IPV6_ADDR_LINKLOCAL);
}

static const struct ib_gid_attr *kperf_side_gid_ip(struct ib_device *dev,
						   u32 port, int len,
						   u8 family)
{
	const struct ib_gid_attr *attr;
	int i;

	for (i = 0; i < len; i++) {
		attr = rdma_get_gid_attr(dev, port, i);
		if (IS_ERR(attr))
			continue;
		if (kperf_side_gid_fits(attr, family))
			return attr;
		rdma_put_gid_attr(attr);
	}
	return NULL;
}

/* The GID a command uses on @port: gid= or the first RoCE v2 GID of ip=. */
static const struct ib_gid_attr *kperf_side_gid(struct kperf_run *run,
						struct ib_device *dev,
						u32 port, int len)
{
	const struct ib_gid_attr *attr;

	if (run->p.gid >= 0) {
		attr = rdma_get_gid_attr(dev, port, run->p.gid);
		return IS_ERR(attr) ? NULL : attr;
	}
	if (rdma_protocol_roce(dev, port))
		return kperf_side_gid_ip(dev, port, len, run->p.ip_family);
	/* InfiniBand: GID 0, though LIDs address the peer. */
	attr = rdma_get_gid_attr(dev, port, 0);
	return IS_ERR(attr) ? NULL : attr;
}

static void kperf_side_mac(struct kperf_side *s)
{
	struct net_device *ndev;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(s->sgid_attr);
	if (!IS_ERR(ndev))
		ether_addr_copy(s->mac, ndev->dev_addr);
	rcu_read_unlock();
}

/* Picks the first port with a usable GID; fills the port facts. */
static int kperf_side_port(struct kperf_run *run, struct kperf_side *s)
{
	struct ib_port_attr pattr;
	const struct ib_gid_attr *attr;
	u32 port;

	rdma_for_each_port(s->ibdev, port) {
		if (ib_query_port(s->ibdev, port, &pattr))
			continue;
		attr = kperf_side_gid(run, s->ibdev, port, pattr.gid_tbl_len);
		if (!attr)
			continue;
		s->port = port;
		s->sgid_attr = attr;
		s->lid = pattr.lid;
		s->active_mtu = pattr.active_mtu;
		if (pattr.state != IB_PORT_ACTIVE)
			return kperf_run_fail(run, -ENETDOWN, "%s port %u is not ACTIVE",
					      dev_name(&s->ibdev->dev), port);
		if (rdma_protocol_roce(s->ibdev, port))
			kperf_side_mac(s);
		return 0;
	}
	if (run->p.gid >= 0)
		return kperf_run_fail(run, -EINVAL, "%s has no GID index %d",
				      dev_name(&s->ibdev->dev), run->p.gid);
	return kperf_run_fail(run, -EADDRNOTAVAIL, "%s has no RoCE v2 GID with an IPv4 address",
			      dev_name(&s->ibdev->dev));
}

static int kperf_side_pd_cq(struct kperf_run *run, struct kperf_side *s)
{
	const struct kperf_params *p = &run->p;
	unsigned int flags = 0;
	int ncqe;

	/*
	 * Remote access through mr=dma needs the PD's all-memory rkey, on
	 * the target side (and on both for mode=lat, which answers back).
	 */
	if (p->mr == KPERF_MR_DMA && run->op->remote &&
	    (s == &run->side[1] || p->mode == KPERF_LAT))
		flags |= IB_PD_UNSAFE_GLOBAL_RKEY;
	s->pd = ib_alloc_pd(s->ibdev, flags);
	if (IS_ERR(s->pd)) {
		int ret = PTR_ERR(s->pd);

		s->pd = NULL;
		return kperf_run_fail(run, ret, "ib_alloc_pd on %s failed%s",
				      dev_name(&s->ibdev->dev),
				      flags ? " (mr=dma needs its global rkey; try mr=frwr)" : "");
	}
	ncqe = min_t(int, p->qps * (2 * p->depth + 8),
		     s->ibdev->attrs.max_cqe);
	s->cq = ib_alloc_cq(s->ibdev, NULL, ncqe, 0, IB_POLL_DIRECT);
	if (IS_ERR(s->cq)) {
		int ret = PTR_ERR(s->cq);

		s->cq = NULL;
		return kperf_run_fail(run, ret, "ib_alloc_cq(%d) on %s failed",
				      ncqe, dev_name(&s->ibdev->dev));
	}
	return 0;
}

/**
 * kperf_side_open() - hold a device and make a side's PD and CQ on it
 * @run: the command
 * @s: the side, zeroed
 * @name: the device name
 *
 * On failure @s holds whatever was made; kperf_side_close() frees it.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno, with the reason recorded in @run.
 */
int kperf_side_open(struct kperf_run *run, struct kperf_side *s,
		    const char *name)
{
	int ret;

	s->kdev = kperf_dev_get(name);
	if (!s->kdev)
		return kperf_run_fail(run, -ENODEV, "no RDMA device '%s'", name);
	s->ibdev = kperf_dev_ib(s->kdev);
	ret = kperf_side_port(run, s);
	if (ret)
		return ret;
	return kperf_side_pd_cq(run, s);
}

/**
 * kperf_side_open_dev() - hold a device another API chose, and make a
 * side's PD and CQ on it
 * @run: the command
 * @s: the side, zeroed
 * @ibdev: the device (an rdma_cm id's, for instance)
 * @port: its port the side uses
 *
 * No GID is chosen (@s->sgid_attr stays NULL): whatever chose the device
 * addresses the peer. On failure @s holds whatever was made;
 * kperf_side_close() frees it.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno, with the reason recorded in @run.
 */
int kperf_side_open_dev(struct kperf_run *run, struct kperf_side *s,
			struct ib_device *ibdev, u32 port)
{
	struct ib_port_attr pattr;
	int ret;

	s->kdev = kperf_dev_hold(ibdev);
	if (!s->kdev)
		return kperf_run_fail(run, -ENODEV, "%s is going away",
				      dev_name(&ibdev->dev));
	s->ibdev = ibdev;
	s->port = port;
	ret = ib_query_port(ibdev, port, &pattr);
	if (ret)
		return kperf_run_fail(run, ret, "ib_query_port %s %u failed",
				      dev_name(&ibdev->dev), port);
	s->lid = pattr.lid;
	s->active_mtu = pattr.active_mtu;
	return kperf_side_pd_cq(run, s);
}

/**
 * kperf_side_net() - the network namespace of a side's GID's net device
 * @s: the side, with its GID (@s->sgid_attr)
 *
 * rdma_cm ids of the side are made there, as a ULP on that device would
 * make them.
 *
 * Return: the namespace with a reference (put_net() it), or NULL when the
 * GID has no net device or its namespace is being torn down.
 */
struct net *kperf_side_net(const struct kperf_side *s)
{
	struct net_device *ndev;
	struct net *net = NULL;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(s->sgid_attr);
	if (!IS_ERR(ndev))
		net = maybe_get_net(dev_net(ndev));
	rcu_read_unlock();
	return net;
}

/**
 * kperf_side_close() - free what kperf_side_open() made and drop the hold
 * @s: the side; its QPs and MRs are already destroyed
 */
void kperf_side_close(struct kperf_side *s)
{
	if (s->srq)
		ib_destroy_srq(s->srq);
	if (s->cq)
		ib_free_cq(s->cq);
	if (s->pd)
		ib_dealloc_pd(s->pd);
	if (s->sgid_attr)
		rdma_put_gid_attr(s->sgid_attr);
	if (s->kdev)
		kperf_dev_put(s->kdev);
	memset(s, 0, sizeof(*s));
}
