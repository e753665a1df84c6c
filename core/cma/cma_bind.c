// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_bind_addr(): an id's source address, the device that owns it, and its
 * port in the port space.
 */

#include <kunit/visibility.h>
#include <linux/capability.h>
#include <linux/if_arp.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <rdma/ib_cache.h>

#include "cma/cma.h"

/*
 * Ports follow the rules of 6.1 (and of TCP sockets): a port below 1024
 * needs CAP_NET_BIND_SERVICE; two ids may share a port when both asked
 * for reuse, when they are of different families and both afonly, or
 * when their addresses are specific and differ. A wildcard collides with
 * everything (-EADDRNOTAVAIL), the same address with the same address
 * (-EADDRINUSE). An ephemeral port comes from the namespace's
 * ip_local_port_range, skipping ip_local_reserved_ports; it may be one
 * already bound when the connections it would serve differ (another
 * destination address or port, or another source address).
 */

/* The port handed out last: not handed out again at once (cma.lock). */
static unsigned int cma_bind_last_port;

/* An IPv6 link-local address names its interface: it must have one. */
static int cma_bind_linklocal(struct rdma_dev_addr *dev_addr,
			      const struct sockaddr *addr)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;

	if (addr->sa_family != AF_INET6 ||
	    !(ipv6_addr_type(&sin6->sin6_addr) & IPV6_ADDR_LINKLOCAL))
		return 0;
	if (!sin6->sin6_scope_id)
		return -EINVAL;
	dev_addr->bound_dev_if = sin6->sin6_scope_id;
	return 0;
}

/*
 * The GID entry of @port that carries @gid for @priv: on RoCE the entry
 * of the bound net device with the port's default GID type, on IB the
 * IB entry. The link layer must match the address's device type.
 */
static const struct ib_gid_attr *cma_bind_find_gid(struct cma_id_priv *priv,
						   struct cma_device *dev,
						   u32 port,
						   const union ib_gid *gid)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct ib_device *device = dev->device;
	enum ib_gid_type type = IB_GID_TYPE_IB;
	const struct ib_gid_attr *attr;
	struct net_device *ndev = NULL;
	bool ib = dev_addr->dev_type == ARPHRD_INFINIBAND;

	if (!rdma_dev_access_netns(device, dev_addr->net) ||
	    ib != rdma_protocol_ib(device, port))
		return ERR_PTR(-ENODEV);
	if (dev_addr->dev_type == ARPHRD_ETHER &&
	    rdma_protocol_roce(device, port)) {
		ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
		if (!ndev)
			return ERR_PTR(-ENODEV);
		type = cma_device_gid_type(dev, port);
	}
	attr = rdma_find_gid_by_port(device, gid, type, port, ndev);
	dev_put(ndev);
	return attr;
}

/**
 * cma_bind_device() - Bind an id to the device and port of its source
 * @priv: the id; its source address and dev_addr (rdma_translate_ip())
 *	  are set, it is on no device
 *
 * The first port, over all devices, whose GID table holds the source:
 * on RoCE the source IP as a GID, elsewhere the GID address resolution
 * put in dev_addr. The id keeps the GID entry (dev_addr.sgid_attr).
 *
 * Context: process context; takes cma.lock.
 * Return: 0, -EINVAL for an IPoIB id on a non-IB address, -ENODEV when no
 * port has the address.
 */
int cma_bind_device(struct cma_id_priv *priv)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	const struct ib_gid_attr *attr;
	union ib_gid roce_gid, ib_gid;
	struct cma_device *dev;
	int ret = -ENODEV;
	u32 p;

	if (priv->id.ps == RDMA_PS_IPOIB &&
	    dev_addr->dev_type != ARPHRD_INFINIBAND)
		return -EINVAL;
	rdma_ip2gid(cma_src_addr(priv), &roce_gid);
	rdma_addr_get_sgid(dev_addr, &ib_gid);
	mutex_lock(&cma.lock);
	list_for_each_entry(dev, &cma.devices, node) {
		rdma_for_each_port(dev->device, p) {
			bool roce = rdma_protocol_roce(dev->device, p);

			attr = cma_bind_find_gid(priv, dev, p,
						 roce ? &roce_gid : &ib_gid);
			if (IS_ERR(attr))
				continue;
			dev_addr->sgid_attr = attr;
			priv->id.port_num = p;
			cma_id_attach(priv, dev);
			ret = 0;
			goto out;
		}
	}
out:
	mutex_unlock(&cma.lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cma_bind_device);

/* Make @priv an owner of @bind, with its port in its source address. */
static void cma_bind_join(struct cma_bind *bind, struct cma_id_priv *priv)
{
	lockdep_assert_held(&cma.lock);
	cma_addr_set_port(cma_src_addr(priv), htons(bind->port));
	priv->bind = bind;
	hlist_add_head(&priv->bind_node, &bind->owners);
}

/* A port nobody has: a new bind, published in the port space. */
static int cma_bind_new(struct cma_id_priv *priv, struct xarray *xa,
			unsigned short port)
{
	struct cma_bind *bind;
	int ret;

	lockdep_assert_held(&cma.lock);
	bind = kzalloc(sizeof(*bind), GFP_KERNEL);
	if (!bind)
		return -ENOMEM;
	bind->ps = priv->id.ps;
	bind->port = port;
	INIT_HLIST_HEAD(&bind->owners);
	ret = xa_insert(xa, port, bind, GFP_KERNEL);
	if (ret) {
		kfree(bind);
		return ret == -EBUSY ? -EADDRINUSE : ret;
	}
	cma_bind_join(bind, priv);
	return 0;
}

/*
 * May @priv take the port of @bind next to its owners? @reuse: @priv
 * asked for reuse (the explicit bind), false when it is about to listen.
 */
static int cma_bind_conflict(struct cma_bind *bind, struct cma_id_priv *priv,
			     bool reuse)
{
	struct sockaddr *addr = cma_src_addr(priv);
	struct cma_id_priv *cur;

	lockdep_assert_held(&cma.lock);
	hlist_for_each_entry(cur, &bind->owners, bind_node) {
		struct sockaddr *cur_addr = cma_src_addr(cur);

		if (cur == priv || (reuse && cur->reuseaddr))
			continue;
		if (priv->afonly && cur->afonly &&
		    addr->sa_family != cur_addr->sa_family)
			continue;
		if (cma_addr_any(addr) || cma_addr_any(cur_addr))
			return -EADDRNOTAVAIL;
		if (!cma_addr_cmp(addr, cur_addr))
			return -EADDRINUSE;
	}
	return 0;
}

/* Two specific addresses that differ; a wildcard differs from nothing. */
static bool cma_bind_differ(const struct sockaddr *a, const struct sockaddr *b)
{
	return !cma_addr_any(a) && !cma_addr_any(b) && cma_addr_cmp(a, b);
}

/*
 * May @priv share the ephemeral port of @bind? Only if, against each
 * owner, the destination port, the source or the destination address
 * tells their connections apart.
 */
static bool cma_bind_unique(struct cma_bind *bind, struct cma_id_priv *priv)
{
	struct sockaddr *src = cma_src_addr(priv), *dst = cma_dst_addr(priv);
	struct cma_id_priv *cur;

	lockdep_assert_held(&cma.lock);
	hlist_for_each_entry(cur, &bind->owners, bind_node) {
		__be16 dport = cma_addr_port(dst);
		__be16 cur_dport = cma_addr_port(cma_dst_addr(cur));

		if (cur == priv)
			continue;
		if (dport && cur_dport && dport != cur_dport)
			continue;
		if (cma_bind_differ(src, cma_src_addr(cur)) ||
		    cma_bind_differ(dst, cma_dst_addr(cur)))
			continue;
		return false;
	}
	return true;
}

/* The port the owner asked for. */
static int cma_bind_explicit(struct cma_id_priv *priv, struct xarray *xa,
			     unsigned short port)
{
	struct cma_bind *bind;
	int ret;

	lockdep_assert_held(&cma.lock);
	if (port < PROT_SOCK && !capable(CAP_NET_BIND_SERVICE))
		return -EACCES;
	bind = xa_load(xa, port);
	if (!bind)
		return cma_bind_new(priv, xa, port);
	ret = cma_bind_conflict(bind, priv, priv->reuseaddr);
	if (!ret)
		cma_bind_join(bind, priv);
	return ret;
}

/* One candidate ephemeral port: 0, -EADDRNOTAVAIL (try the next), error. */
static int cma_bind_try(struct cma_id_priv *priv, struct xarray *xa,
			unsigned int port)
{
	struct cma_bind *bind;

	if (port == cma_bind_last_port ||
	    inet_is_local_reserved_port(cma_id_net(priv), port))
		return -EADDRNOTAVAIL;
	bind = xa_load(xa, port);
	if (!bind)
		return cma_bind_new(priv, xa, port);
	if (!cma_bind_unique(bind, priv))
		return -EADDRNOTAVAIL;
	cma_bind_join(bind, priv);
	return 0;
}

/* A port of the local range, from a random start, walking up and around. */
static int cma_bind_ephemeral(struct cma_id_priv *priv, struct xarray *xa)
{
	unsigned int span, first, i, port;
	int low, high, ret;

	lockdep_assert_held(&cma.lock);
	inet_get_local_port_range(cma_id_net(priv), &low, &high);
	span = high - low + 1;
	first = get_random_u32_below(span);
	for (i = 0; i < span; i++) {
		port = low + (first + i) % span;
		ret = cma_bind_try(priv, xa, port);
		if (!ret)
			cma_bind_last_port = port;
		if (ret != -EADDRNOTAVAIL)
			return ret;
	}
	return -EADDRNOTAVAIL;
}

/**
 * cma_bind_port() - Give an id its port in its port space
 * @priv: the id, its source address set; port 0 asks for an ephemeral one
 *
 * Context: process context; takes cma.lock.
 * Return: 0 (the port is in the source address), -EPROTONOSUPPORT for an
 * id of no port space, -EACCES, -EADDRINUSE, -EADDRNOTAVAIL or -ENOMEM.
 */
int cma_bind_port(struct cma_id_priv *priv)
{
	struct xarray *xa = cma_ps_xa(cma_id_net(priv), priv->id.ps);
	unsigned short port;
	int ret;

	if (!xa)
		return -EPROTONOSUPPORT;
	port = ntohs(cma_addr_port(cma_src_addr(priv)));
	mutex_lock(&cma.lock);
	if (port)
		ret = cma_bind_explicit(priv, xa, port);
	else
		ret = cma_bind_ephemeral(priv, xa);
	mutex_unlock(&cma.lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cma_bind_port);

/**
 * cma_bind_listen() - Make an id's port its own before it listens
 * @priv: a bound id about to listen (already claimed LISTEN: its reuse
 *	  option can no longer change)
 *
 * A listener shares its port with nobody it could be confused with: an
 * id bound with reuse is checked again as if it had not asked for it,
 * against every other owner of the port, and loses its reuse, so that
 * later binds with reuse are checked against it too (6.1's rule). An id
 * bound without reuse passed that check when it was bound.
 *
 * Context: process context; takes cma.lock.
 * Return: 0; -EADDRNOTAVAIL when either side is a wildcard, -EADDRINUSE
 * for the same address.
 */
int cma_bind_listen(struct cma_id_priv *priv)
{
	unsigned long flags;
	int ret = 0;

	if (!priv->reuseaddr)
		return 0;
	mutex_lock(&cma.lock);
	if (priv->bind)
		ret = cma_bind_conflict(priv->bind, priv, false);
	if (!ret) {
		spin_lock_irqsave(&priv->lock, flags);
		priv->reuseaddr = false;
		spin_unlock_irqrestore(&priv->lock, flags);
	}
	mutex_unlock(&cma.lock);
	return ret;
}

/**
 * cma_bind_release() - Give an id's port back
 * @priv: the id, bound or not
 *
 * The last owner of a port takes it out of the port space.
 *
 * Context: process context; takes cma.lock.
 */
void cma_bind_release(struct cma_id_priv *priv)
{
	struct cma_bind *bind = priv->bind;

	if (!bind)
		return;
	mutex_lock(&cma.lock);
	hlist_del(&priv->bind_node);
	priv->bind = NULL;
	if (hlist_empty(&bind->owners)) {
		xa_erase(cma_ps_xa(cma_id_net(priv), bind->ps), bind->port);
		kfree(bind);
	}
	mutex_unlock(&cma.lock);
}

/* Without rdma_set_afonly(), IPv4 is always, IPv6 as bindv6only says. */
static void cma_bind_afonly(struct cma_id_priv *priv, sa_family_t family)
{
	unsigned long flags;
	bool afonly = family == AF_INET;

#if IS_ENABLED(CONFIG_IPV6)
	if (family == AF_INET6)
		afonly = cma_id_net(priv)->ipv6.sysctl.bindv6only;
#endif
	spin_lock_irqsave(&priv->lock, flags);
	if (!priv->afonly_set)
		priv->afonly = afonly;
	spin_unlock_irqrestore(&priv->lock, flags);
}

/**
 * cma_h_bind() - Cell IDLE x bind: take a source address
 * @priv: the id
 * @in: @in->addr, the address (a wildcard binds no device); @in->dst, the
 *	destination of rdma_resolve_addr()'s implicit bind, or NULL
 *
 * A specific address binds the device and port whose GID table holds it;
 * then the port is taken in the id's port space.
 *
 * Return: 0 or a negative errno (the id goes back to IDLE).
 */
int cma_h_bind(struct cma_id_priv *priv, struct cma_in *in)
{
	struct rdma_dev_addr *dev_addr = &priv->id.route.addr.dev_addr;
	struct sockaddr *dst = cma_dst_addr(priv);
	int ret;

	ret = cma_bind_linklocal(dev_addr, in->addr);
	if (ret)
		return ret;
	memcpy(cma_src_addr(priv), in->addr, rdma_addr_size(in->addr));
	if (!cma_addr_any(in->addr)) {
		ret = rdma_translate_ip(in->addr, dev_addr);
		if (ret)
			return ret;
		ret = cma_bind_device(priv);
		if (ret)
			return ret;
	}
	cma_bind_afonly(priv, in->addr->sa_family);
	if (in->dst)
		memcpy(dst, in->dst, rdma_addr_size(in->dst));
	dst->sa_family = in->addr->sa_family;
	ret = cma_bind_port(priv);
	if (ret)
		goto err_device;
	return 0;

err_device:
	cma_id_detach(priv);
	return ret;
}

/**
 * rdma_bind_addr() - Bind an id to a local address
 * @id: an IDLE id
 * @addr: an IPv4 or IPv6 address and port; a wildcard address binds no
 *	  device (a listener on it listens on all), port 0 takes an
 *	  ephemeral port
 *
 * A specific address binds the id to the device and port it belongs to.
 * IPv6 link-local addresses need their scope id. AF_IB addresses are not
 * taken yet.
 *
 * Context: process context, sleeps.
 * Return: 0; -EAFNOSUPPORT for another family; -EINVAL when the id is not
 * IDLE or a link-local address has no scope; -ENODEV or -EADDRNOTAVAIL
 * when no local device owns the address; -EACCES, -EADDRINUSE,
 * -EADDRNOTAVAIL for the port; -EPROTONOSUPPORT for an id of no port
 * space.
 */
int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct cma_in in = { .input = CMA_IN_BIND, .addr = addr };

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	return cma_table_run(to_cma_id(id), &in);
}
EXPORT_SYMBOL(rdma_bind_addr);
