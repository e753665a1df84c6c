// SPDX-License-Identifier: GPL-2.0-only
/* IP to RDMA address resolution: route, source device and neighbour MAC, asynchronously. */
/*
 * rdma_resolve_ip() does a first resolution attempt in the caller's
 * context. A request whose neighbour entry is not valid yet stays queued
 * (the neighbour layer was asked to probe) and is retried when a
 * NETEVENT_NEIGH_UPDATE says some neighbour became valid, or finally at
 * its deadline; every other outcome is reported from the resolver's own
 * workqueue, so the callback never runs inside rdma_resolve_ip().
 *
 * Not done: the IB-over-IP gateway case (a route through a gateway on an
 * IPoIB device) would ask user space over RDMA netlink (the ibacm
 * "local service" protocol); without that it fails with -EADDRNOTAVAIL,
 * which is what 6.1 reports when nobody listens on that netlink group.
 */

#include <linux/completion.h>
#include <linux/export.h>
#include <linux/inetdevice.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/ipv6_stubs.h>
#include <net/neighbour.h>
#include <net/netevent.h>
#include <net/route.h>
#include <rdma/ib.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>

#include "roce/roce.h"

/* Where a request is in its life. */
enum addr_req_state {
	/* the neighbour is being probed: retry on a neighbour update */
	ADDR_REQ_WAIT_NEIGH,
	/* the outcome is in @status: report it and free the request */
	ADDR_REQ_DONE,
};

/**
 * struct addr_req - one rdma_resolve_ip() in progress
 * @node: entry on addr_reqs; whoever takes it off owns the request
 * @src: the source address, completed by the route lookup
 * @dst: the destination address
 * @dev_addr: the caller's result, and its key for rdma_addr_cancel()
 * @callback: reports the outcome, exactly once unless cancelled
 * @context: for @callback
 * @deadline: in jiffies; past it a request still unresolved fails
 * @work: runs the retry or the report; (re)armed only under addr_lock
 *	while the request is on addr_reqs
 * @by_gid_attr: resolve on the netdev of dev_addr->sgid_attr
 * @state: what @work does next; only @work changes it once queued
 * @status: outcome for the report
 */
struct addr_req {
	struct list_head node;
	struct sockaddr_storage src;
	struct sockaddr_storage dst;
	struct rdma_dev_addr *dev_addr;
	void (*callback)(int status, struct sockaddr *src_addr,
			 struct rdma_dev_addr *addr, void *context);
	void *context;
	unsigned long deadline;
	struct delayed_work work;
	bool by_gid_attr;
	enum addr_req_state state;
	int status;
};

/*
 * addr_lock protects addr_reqs, i.e. which requests are outstanding and
 * so who owns each one, and the arming of their works. It is taken from
 * the netevent notifier, which may run in softirq context: hence _bh.
 */
static DEFINE_SPINLOCK(addr_lock);
static LIST_HEAD(addr_reqs);
/* Ordered: requests are reported in the order their works become due. */
static struct workqueue_struct *addr_wq;

/* ---- Address sizes and source devices ------------------------------------ */

/* The address families RDMA resolves, and their sockaddr sizes. */
static const struct {
	sa_family_t family;
	int size;
} addr_family_sizes[] = {
	{ AF_INET,	sizeof(struct sockaddr_in) },
	{ AF_INET6,	sizeof(struct sockaddr_in6) },
	{ AF_IB,	sizeof(struct sockaddr_ib) },
};

/**
 * rdma_addr_size() - the size of the sockaddr type of an address family
 * @addr: the address; only its family is read
 *
 * Context: any context.
 * Return: the size of sockaddr_in, sockaddr_in6 or sockaddr_ib for
 * AF_INET, AF_INET6 and AF_IB, 0 for any other family.
 */
int rdma_addr_size(const struct sockaddr *addr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(addr_family_sizes); i++)
		if (addr_family_sizes[i].family == addr->sa_family)
			return addr_family_sizes[i].size;
	return 0;
}
EXPORT_SYMBOL(rdma_addr_size);

/*
 * rdma_addr_size() for an address that came in @room bytes of storage
 * (from user space, say): a family whose sockaddr is bigger than the
 * storage counts as unknown, so nobody reads past it.
 */
static int addr_size_within(const void *addr, size_t room)
{
	int size = rdma_addr_size(addr);

	return size > room ? 0 : size;
}

/**
 * rdma_addr_size_in6() - rdma_addr_size() bounded by a sockaddr_in6
 * @addr: the address, in storage of sizeof(struct sockaddr_in6)
 *
 * Context: any context.
 * Return: the size of the address's type, or 0 when unknown or when it
 * would not fit in @addr's storage (AF_IB).
 */
int rdma_addr_size_in6(struct sockaddr_in6 *addr)
{
	return addr_size_within(addr, sizeof(*addr));
}
EXPORT_SYMBOL(rdma_addr_size_in6);

/**
 * rdma_addr_size_kss() - rdma_addr_size() bounded by a sockaddr_storage
 * @addr: the address, in storage of sizeof(struct __kernel_sockaddr_storage)
 *
 * Context: any context.
 * Return: the size of the address's type, or 0 when unknown or too big.
 */
int rdma_addr_size_kss(struct __kernel_sockaddr_storage *addr)
{
	return addr_size_within(addr, sizeof(*addr));
}
EXPORT_SYMBOL(rdma_addr_size_kss);

#if IS_ENABLED(CONFIG_IPV6)
static struct net_device *addr_ndev_by_ip6_rcu(struct net *net,
					       const struct in6_addr *ip)
{
	struct net_device *dev;

	for_each_netdev_rcu(net, dev)
		if (ipv6_chk_addr(net, ip, dev, 1))
			return dev;
	return NULL;
}
#else
static struct net_device *addr_ndev_by_ip6_rcu(struct net *net,
					       const struct in6_addr *ip)
{
	return NULL;
}
#endif

/* The local netdev that has @ip as one of its addresses; caller in RCU. */
static struct net_device *addr_ndev_by_ip_rcu(struct net *net,
					      const struct sockaddr *ip)
{
	struct net_device *dev = NULL;

	if (ip->sa_family == AF_INET)
		dev = __ip_dev_find(net,
				    ((const struct sockaddr_in *)ip)->sin_addr.s_addr,
				    false);
	else if (ip->sa_family == AF_INET6)
		dev = addr_ndev_by_ip6_rcu(net,
					   &((const struct sockaddr_in6 *)ip)->sin6_addr);
	return dev ?: ERR_PTR(-EADDRNOTAVAIL);
}

/**
 * rdma_copy_src_l2_addr() - take the source link-level facts from a netdev
 * @dev_addr: filled in: device type, own and broadcast hardware address,
 *	and the interface index it is bound to
 * @dev: the net device
 *
 * Context: any context; the caller keeps @dev alive.
 */
void rdma_copy_src_l2_addr(struct rdma_dev_addr *dev_addr,
			   const struct net_device *dev)
{
	/* from now on this address is bound to @dev */
	dev_addr->bound_dev_if = dev->ifindex;
	dev_addr->dev_type = dev->type;
	memcpy(dev_addr->broadcast, dev->broadcast,
	       sizeof(dev_addr->broadcast));
	memcpy(dev_addr->src_dev_addr, dev->dev_addr,
	       sizeof(dev_addr->src_dev_addr));
}
EXPORT_SYMBOL(rdma_copy_src_l2_addr);

/**
 * rdma_translate_ip() - find the local device of an address
 * @addr: a local IPv4 or IPv6 address
 * @dev_addr: in: the namespace (@net) and, if not 0, @bound_dev_if, which
 *	then decides the device whatever @addr is; out: the device's
 *	link-level facts (see rdma_copy_src_l2_addr())
 *
 * Context: any context that may take the RCU read lock.
 * Return: 0; -ENODEV when the bound interface does not exist;
 * -EADDRNOTAVAIL when no device in the namespace has @addr.
 */
int rdma_translate_ip(const struct sockaddr *addr,
		      struct rdma_dev_addr *dev_addr)
{
	struct net_device *dev;

	/* RCU keeps the device alive while its facts are copied */
	rcu_read_lock();
	if (dev_addr->bound_dev_if)
		dev = dev_get_by_index_rcu(dev_addr->net,
					   dev_addr->bound_dev_if) ?:
		      ERR_PTR(-ENODEV);
	else
		dev = addr_ndev_by_ip_rcu(dev_addr->net, addr);
	if (!IS_ERR(dev))
		rdma_copy_src_l2_addr(dev_addr, dev);
	rcu_read_unlock();
	return PTR_ERR_OR_ZERO(dev);
}
EXPORT_SYMBOL(rdma_translate_ip);

/* ---- Routes -------------------------------------------------------------- */

/*
 * Route lookups, one per family. Each routes from the source (the
 * wildcard for any) to @dst out of addr->bound_dev_if (0 for any), writes
 * the source routing chose back into a wildcard source, records the
 * route's hop limit and returns the route (held), or an ERR_PTR.
 */
static struct dst_entry *addr_route4(struct sockaddr_in *src,
				     const struct sockaddr_in *dst,
				     struct rdma_dev_addr *addr)
{
	struct flowi4 fl4 = {
		.daddr = dst->sin_addr.s_addr,
		.saddr = src->sin_addr.s_addr,
		.flowi4_oif = addr->bound_dev_if,
	};
	struct rtable *rt = ip_route_output_key(addr->net, &fl4);

	if (IS_ERR(rt))
		return ERR_CAST(rt);
	/* ip_route_output_key() fills fl4.saddr in when it was 0 */
	src->sin_addr.s_addr = fl4.saddr;
	addr->hoplimit = ip4_dst_hoplimit(&rt->dst);
	return &rt->dst;
}

#if IS_ENABLED(CONFIG_IPV6)
static struct dst_entry *addr_route6(struct sockaddr_in6 *src,
				     const struct sockaddr_in6 *dst,
				     struct rdma_dev_addr *addr)
{
	struct flowi6 fl6 = {
		.daddr = dst->sin6_addr,
		.saddr = src->sin6_addr,
		.flowi6_oif = addr->bound_dev_if,
	};
	struct dst_entry *route =
		ipv6_stub->ipv6_dst_lookup_flow(addr->net, NULL, &fl6, NULL);

	if (!IS_ERR(route)) {
		if (ipv6_addr_any(&src->sin6_addr))
			src->sin6_addr = fl6.saddr;
		addr->hoplimit = ip6_dst_hoplimit(route);
	}
	return route;
}
#else
static struct dst_entry *addr_route6(struct sockaddr_in6 *src,
				     const struct sockaddr_in6 *dst,
				     struct rdma_dev_addr *addr)
{
	return ERR_PTR(-EADDRNOTAVAIL);
}
#endif

/* The route for @src -> @dst in *@out, held: 0 or the lookup's errno. */
static int addr_route(struct sockaddr *src, const struct sockaddr *dst,
		      struct rdma_dev_addr *addr, struct dst_entry **out)
{
	struct dst_entry *route;

	if (src->sa_family == AF_INET)
		route = addr_route4((struct sockaddr_in *)src,
				    (const struct sockaddr_in *)dst, addr);
	else
		route = addr_route6((struct sockaddr_in6 *)src,
				    (const struct sockaddr_in6 *)dst, addr);
	if (IS_ERR(route))
		return PTR_ERR(route);
	*out = route;
	return 0;
}

static bool addr_route_via_gateway(const struct dst_entry *route,
				   sa_family_t family)
{
	if (family == AF_INET)
		return container_of(route, struct rtable, dst)->rt_uses_gateway;
#if IS_ENABLED(CONFIG_IPV6)
	return dst_rt6_info(route)->rt6i_flags & RTF_GATEWAY;
#else
	return false;
#endif
}

/*
 * The source side of a resolved route: the device's link-level facts and
 * the network type. RDMA never runs over "lo": a route to a local address
 * stands for the device that owns the destination address. RoCE v1 does
 * not cross routers, so a route through a gateway on an Ethernet device
 * means RoCE v2 over IPv4 or IPv6. Caller in RCU.
 */
static int addr_set_source_rcu(struct rdma_dev_addr *addr,
			       const struct sockaddr *dst_in,
			       const struct dst_entry *route)
{
	struct net_device *ndev = READ_ONCE(route->dev);
	int ret = 0;

	if (ndev->flags & IFF_LOOPBACK) {
		ndev = addr_ndev_by_ip_rcu(dev_net(ndev), dst_in);
		if (IS_ERR(ndev))
			return -ENODEV;
		ret = rdma_translate_ip(dst_in, addr);
	} else {
		rdma_copy_src_l2_addr(addr, ndev);
	}

	if (addr_route_via_gateway(route, dst_in->sa_family) &&
	    ndev->type != ARPHRD_INFINIBAND)
		addr->network = dst_in->sa_family == AF_INET ?
				RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6;
	else
		addr->network = RDMA_NETWORK_IB;
	return ret;
}

/* ---- Neighbours ---------------------------------------------------------- */

/*
 * The hardware address of the next hop to @daddr. When the neighbour
 * entry is not valid yet, kick its resolution and say -ENODATA: the
 * request waits for a neighbour update.
 */
static int addr_neigh_fetch(const struct dst_entry *route,
			    struct rdma_dev_addr *addr, const void *daddr)
{
	struct neighbour *n;
	int ret = 0;

	n = dst_neigh_lookup(route, daddr);
	if (!n)
		return -ENODATA;

	read_lock_bh(&n->lock);
	if (n->nud_state & NUD_VALID)
		neigh_ha_snapshot(addr->dst_dev_addr, n, route->dev);
	else
		ret = -ENODATA;
	read_unlock_bh(&n->lock);

	if (ret)
		neigh_event_send(n, NULL);
	neigh_release(n);
	return ret;
}

static int addr_resolve_neigh(const struct dst_entry *route,
			      const struct sockaddr *dst_in,
			      struct rdma_dev_addr *addr,
			      unsigned int ndev_flags)
{
	const void *daddr;

	if (ndev_flags & IFF_LOOPBACK) {
		memcpy(addr->dst_dev_addr, addr->src_dev_addr, MAX_ADDR_LEN);
		return 0;
	}
	/* IB behind a router: only user space (ibacm) knows the GID */
	if (addr_route_via_gateway(route, dst_in->sa_family) &&
	    addr->network == RDMA_NETWORK_IB)
		return -EADDRNOTAVAIL;

	if (dst_in->sa_family == AF_INET)
		daddr = &((const struct sockaddr_in *)dst_in)->sin_addr.s_addr;
	else
		daddr = &((const struct sockaddr_in6 *)dst_in)->sin6_addr;
	return addr_neigh_fetch(route, addr, daddr);
}

/* ---- One resolution attempt ---------------------------------------------- */

/*
 * For a resolution on a GID entry's netdev: take the namespace and the
 * interface from it. Reading them under RCU is safe: moving a netdev to
 * another namespace synchronizes RCU between downing it and changing them.
 */
static int addr_bind_to_gid_ndev_rcu(struct rdma_dev_addr *addr)
{
	struct net_device *ndev;

	if (!addr->sgid_attr) {
		pr_warn_ratelimited("address resolution without a GID entry\n");
		return -EINVAL;
	}
	ndev = rdma_read_gid_attr_ndev_rcu(addr->sgid_attr);
	if (IS_ERR(ndev))
		return PTR_ERR(ndev);
	addr->net = dev_net(ndev);
	addr->bound_dev_if = ndev->ifindex;
	return 0;
}

/*
 * Route, source and (with @want_neigh) destination MAC, in one go. 0,
 * -ENODATA while the neighbour is being probed, or another errno.
 */
static int addr_resolve(struct sockaddr *src_in, const struct sockaddr *dst_in,
			struct rdma_dev_addr *addr, bool want_neigh,
			bool by_gid_attr)
{
	unsigned int ndev_flags = 0;
	struct dst_entry *route;
	int ret;

	if (!addr->net) {
		pr_warn_ratelimited("address resolution without a namespace\n");
		return -EINVAL;
	}

	rcu_read_lock();
	ret = by_gid_attr ? addr_bind_to_gid_ndev_rcu(addr) : 0;
	if (!ret)
		ret = addr_route(src_in, dst_in, addr, &route);
	if (ret) {
		rcu_read_unlock();
		goto out;
	}
	ndev_flags = READ_ONCE(route->dev)->flags;
	ret = addr_set_source_rcu(addr, dst_in, route);
	rcu_read_unlock();

	if (!ret && want_neigh)
		ret = addr_resolve_neigh(route, dst_in, addr, ndev_flags);
	dst_release(route);
out:
	/* the namespace came from the GID entry only for this attempt */
	if (by_gid_attr) {
		addr->net = &init_net;
		addr->bound_dev_if = 0;
	}
	return ret;
}

/* ---- Requests ------------------------------------------------------------ */

/* Run @req's work at @when (or now, if that has passed). */
static void addr_req_arm(struct addr_req *req, unsigned long when)
{
	long delay = (long)(when - jiffies);

	lockdep_assert_held(&addr_lock);
	mod_delayed_work(addr_wq, &req->work, max(delay, 0L));
}

/* Another attempt for a request waiting on its neighbour. */
static void addr_req_retry(struct addr_req *req)
{
	int ret = addr_resolve((struct sockaddr *)&req->src,
			       (struct sockaddr *)&req->dst, req->dev_addr,
			       true, req->by_gid_attr);

	if (ret && time_after_eq(jiffies, req->deadline))
		ret = -ETIMEDOUT;
	if (ret == -ENODATA)
		return;
	req->status = ret;
	req->state = ADDR_REQ_DONE;
}

/*
 * Report the outcome and free the request, unless rdma_addr_cancel()
 * took it off the list meanwhile: then the canceller frees it once this
 * work has finished.
 */
static void addr_req_report(struct addr_req *req)
{
	bool owned;

	req->callback(req->status, (struct sockaddr *)&req->src,
		      req->dev_addr, req->context);

	spin_lock_bh(&addr_lock);
	owned = !list_empty(&req->node);
	if (owned) {
		list_del_init(&req->node);
		/* a neighbour update may have re-armed it meanwhile */
		cancel_delayed_work(&req->work);
	}
	spin_unlock_bh(&addr_lock);
	if (owned)
		kfree(req);
}

static void addr_req_work(struct work_struct *work)
{
	struct addr_req *req = container_of(to_delayed_work(work),
					    struct addr_req, work);

	if (req->state == ADDR_REQ_WAIT_NEIGH)
		addr_req_retry(req);
	if (req->state == ADDR_REQ_DONE) {
		addr_req_report(req);
		return;
	}
	/* still probing: the next neighbour update, or the deadline */
	spin_lock_bh(&addr_lock);
	if (!list_empty(&req->node))
		addr_req_arm(req, req->deadline);
	spin_unlock_bh(&addr_lock);
}

/* Copy the caller's addresses in; a missing source is a wildcard. */
static int addr_req_set_addrs(struct addr_req *req,
			      const struct sockaddr *src_addr,
			      const struct sockaddr *dst_addr)
{
	int dst_size = rdma_addr_size(dst_addr);

	/* routes exist for IP only (an AF_IB destination needs no resolution) */
	if (dst_addr->sa_family != AF_INET && dst_addr->sa_family != AF_INET6)
		return -EINVAL;
	if (src_addr) {
		if (src_addr->sa_family != dst_addr->sa_family)
			return -EINVAL;
		memcpy(&req->src, src_addr, dst_size);
	} else {
		req->src.ss_family = dst_addr->sa_family;
	}
	memcpy(&req->dst, dst_addr, dst_size);
	return 0;
}

/**
 * rdma_resolve_ip() - resolve an IP destination into RDMA addresses
 * @src_addr: the source; NULL or a wildcard to let the route choose one.
 *	Must be of @dst_addr's family.
 * @dst_addr: an IPv4 or IPv6 destination
 * @addr: in: @net (required) and optionally @bound_dev_if or, with
 *	@resolve_by_gid_attr, @sgid_attr; out: source and destination
 *	hardware addresses, device type, network type and hop limit. Must
 *	stay valid until the callback ran or rdma_addr_cancel() returned.
 * @timeout_ms: how long to wait for the neighbour to be resolved
 * @callback: called once from the resolver's workqueue with 0 or a
 *	negative errno (-ETIMEDOUT when the neighbour stayed unknown), the
 *	completed source address and @addr; never when this function fails
 * @resolve_by_gid_attr: route out of the netdev of addr->sgid_attr, in its
 *	namespace, instead of @addr's own
 * @context: for @callback
 *
 * Context: process context, may sleep.
 * Return: 0 when the request is queued (@callback will tell the outcome);
 * -EINVAL for bad arguments, -ENOMEM, or the route lookup's error, e.g.
 * -ENETUNREACH or -EHOSTUNREACH, -ENODEV when a local destination has
 * no device of its own.
 */
int rdma_resolve_ip(struct sockaddr *src_addr, const struct sockaddr *dst_addr,
		    struct rdma_dev_addr *addr, unsigned long timeout_ms,
		    void (*callback)(int status, struct sockaddr *src_addr,
				     struct rdma_dev_addr *addr, void *context),
		    bool resolve_by_gid_attr, void *context)
{
	struct addr_req *req;
	int ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = addr_req_set_addrs(req, src_addr, dst_addr);
	if (ret)
		goto err_free;
	INIT_LIST_HEAD(&req->node);
	INIT_DELAYED_WORK(&req->work, addr_req_work);
	req->dev_addr = addr;
	req->callback = callback;
	req->context = context;
	req->by_gid_attr = resolve_by_gid_attr;

	ret = addr_resolve((struct sockaddr *)&req->src,
			   (struct sockaddr *)&req->dst, addr, true,
			   resolve_by_gid_attr);
	if (ret && ret != -ENODATA)
		goto err_free;
	req->state = ret ? ADDR_REQ_WAIT_NEIGH : ADDR_REQ_DONE;
	req->status = 0;
	req->deadline = jiffies + (ret ? msecs_to_jiffies(timeout_ms) : 0);

	spin_lock_bh(&addr_lock);
	list_add_tail(&req->node, &addr_reqs);
	addr_req_arm(req, req->deadline);
	spin_unlock_bh(&addr_lock);
	return 0;

err_free:
	kfree(req);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_ip);

/*
 * Take the outstanding request on @addr off addr_reqs and return it: whoever
 * unlinks a request owns it. NULL when there is none.
 */
static struct addr_req *addr_req_unlink(const struct rdma_dev_addr *addr)
{
	struct addr_req *req;

	lockdep_assert_held(&addr_lock);
	list_for_each_entry(req, &addr_reqs, node) {
		if (req->dev_addr != addr)
			continue;
		list_del_init(&req->node);
		return req;
	}
	return NULL;
}

/**
 * rdma_addr_cancel() - stop a pending rdma_resolve_ip()
 * @addr: the @addr the request was made with
 *
 * When this returns, the request is gone and its callback is not running
 * and never will: if the callback was already running, this waits for it
 * to return. Nothing happens when no request on @addr is outstanding.
 * Must not be called from the callback of the request it cancels.
 *
 * Context: process context, may sleep.
 */
void rdma_addr_cancel(struct rdma_dev_addr *addr)
{
	struct addr_req *req;

	spin_lock_bh(&addr_lock);
	req = addr_req_unlink(addr);
	spin_unlock_bh(&addr_lock);

	/* off the list, nobody re-arms it: once idle, it stays idle */
	if (req) {
		cancel_delayed_work_sync(&req->work);
		kfree(req);
	}
}
EXPORT_SYMBOL(rdma_addr_cancel);

/* ---- Synchronous resolution for RoCE address vectors --------------------- */

/* A synchronous caller's wait: the callback sets @status, then @done. */
struct addr_sync_wait {
	int status;
	struct completion done;
};

static void addr_sync_done(int status, struct sockaddr *src_addr,
			   struct rdma_dev_addr *addr, void *context)
{
	struct addr_sync_wait *wait = context;

	wait->status = status;
	complete(&wait->done);
}

int rdma_addr_find_l2_eth_by_grh(const union ib_gid *sgid,
				 const union ib_gid *dgid,
				 u8 *dmac, const struct ib_gid_attr *sgid_attr,
				 int *hoplimit)
{
	union {
		struct sockaddr_in in4;
		struct sockaddr_in6 in6;
	} src, dst;
	struct rdma_dev_addr dev_addr = {
		.net = &init_net,
		.sgid_attr = sgid_attr,
	};
	struct addr_sync_wait wait;
	int ret;

	rdma_gid2ip((struct sockaddr *)&src, sgid);
	rdma_gid2ip((struct sockaddr *)&dst, dgid);
	init_completion(&wait.done);

	ret = rdma_resolve_ip((struct sockaddr *)&src, (struct sockaddr *)&dst,
			      &dev_addr, 1000, addr_sync_done, true, &wait);
	if (ret)
		return ret;
	wait_for_completion(&wait.done);
	if (wait.status)
		return wait.status;

	memcpy(dmac, dev_addr.dst_dev_addr, ETH_ALEN);
	*hoplimit = dev_addr.hoplimit;
	return 0;
}

/* ---- Routes of RoCE paths ------------------------------------------------ */

/* Only RoCE v2 (UDP/IP) packets cross the router a routed network implies. */
static bool addr_route_fits_path(enum rdma_network_type network,
				 const struct sa_path_rec *rec)
{
	return network == RDMA_NETWORK_IB ||
	       rec->rec_type == SA_PATH_REC_TYPE_ROCE_V2;
}

/**
 * roce_resolve_route_from_path() - check that a RoCE path can be routed
 * @rec: a RoCE path; route_resolved is set once the check passed
 * @attr: the source GID entry, whose netdev the route must leave by
 *
 * A path whose route is already known (route_resolved) passes as it is.
 * Otherwise the route from sgid to dgid is looked up on @attr's netdev;
 * the neighbour is not resolved, the path's dmac is the caller's.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL when the GIDs are of different IP families, @attr
 * is missing or has no netdev, or the route crosses a router while the
 * path is not RoCE v2; or the route lookup's error.
 */
int roce_resolve_route_from_path(struct sa_path_rec *rec,
				 const struct ib_gid_attr *attr)
{
	struct sockaddr_storage src, dst;
	struct rdma_dev_addr dev_addr = {
		.net = &init_net,
		.sgid_attr = attr,
	};
	int err;

	might_sleep();
	if (rec->roce.route_resolved)
		return 0;
	/* the route is looked up from the GID entry's netdev */
	if (!attr || !rcu_access_pointer(attr->ndev))
		return -EINVAL;
	rdma_gid2ip((struct sockaddr *)&src, &rec->sgid);
	rdma_gid2ip((struct sockaddr *)&dst, &rec->dgid);
	if (src.ss_family != dst.ss_family)
		return -EINVAL;

	err = addr_resolve((struct sockaddr *)&src, (struct sockaddr *)&dst,
			   &dev_addr, false, true);
	if (!err && !addr_route_fits_path(dev_addr.network, rec))
		err = -EINVAL;
	if (!err)
		rec->roce.route_resolved = true;
	return err;
}

/* ---- Neighbour updates and module init ----------------------------------- */

/* A neighbour became valid: any waiting request may be resolvable now. */
static int addr_netevent(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct neighbour *neigh = ptr;
	struct addr_req *req;

	if (event != NETEVENT_NEIGH_UPDATE || !(neigh->nud_state & NUD_VALID))
		return NOTIFY_DONE;

	spin_lock_bh(&addr_lock);
	list_for_each_entry(req, &addr_reqs, node)
		addr_req_arm(req, jiffies);
	spin_unlock_bh(&addr_lock);
	return NOTIFY_DONE;
}

static struct notifier_block addr_netevent_nb = {
	.notifier_call = addr_netevent,
};

int addr_init(void)
{
	int ret;

	addr_wq = alloc_ordered_workqueue("ib_addr", 0);
	if (!addr_wq)
		return -ENOMEM;
	ret = register_netevent_notifier(&addr_netevent_nb);
	if (ret)
		goto err_notifier;
	return 0;

err_notifier:
	destroy_workqueue(addr_wq);
	return ret;
}

void addr_cleanup(void)
{
	unregister_netevent_notifier(&addr_netevent_nb);
	destroy_workqueue(addr_wq);
	WARN_ON(!list_empty(&addr_reqs));
}
