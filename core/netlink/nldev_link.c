// SPDX-License-Identifier: GPL-2.0-only
/* rdma link types: their registry, and the NEWLINK / DELLINK commands that use it. */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kmod.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/rwsem.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "netlink/nldev.h"

/*
 * Registered link types. nldev_link_rwsem protects the list; NEWLINK holds
 * it for reading while the type's newlink() runs, so rdma_link_unregister()
 * returns only when no creation through the type is in progress.
 */
static LIST_HEAD(nldev_link_types);
static DECLARE_RWSEM(nldev_link_rwsem);

static struct rdma_link_ops *nldev_link_find(const char *type)
{
	struct rdma_link_ops *ops;

	lockdep_assert_held(&nldev_link_rwsem);
	list_for_each_entry(ops, &nldev_link_types, list)
		if (!strcmp(ops->type, type))
			return ops;
	return NULL;
}

/**
 * rdma_link_register() - Offer a link type to "rdma link add"
 * @ops: the type; its name (@ops->type) must be unique
 *
 * A second type with a name already registered is refused (with a log
 * line); unregistering it later is harmless.
 *
 * Context: Process context, may sleep.
 */
void rdma_link_register(struct rdma_link_ops *ops)
{
	down_write(&nldev_link_rwsem);
	if (nldev_link_find(ops->type)) {
		pr_warn("rdma link type %s is already registered\n", ops->type);
		INIT_LIST_HEAD(&ops->list);
	} else {
		list_add(&ops->list, &nldev_link_types);
	}
	up_write(&nldev_link_rwsem);
}
EXPORT_SYMBOL(rdma_link_register);

/**
 * rdma_link_unregister() - Withdraw a link type
 * @ops: the type given to rdma_link_register()
 *
 * Waits for "rdma link add" commands running the type's newlink().
 *
 * Context: Process context, may sleep.
 */
void rdma_link_unregister(struct rdma_link_ops *ops)
{
	down_write(&nldev_link_rwsem);
	if (nldev_link_find(ops->type) == ops)
		list_del_init(&ops->list);
	up_write(&nldev_link_rwsem);
}
EXPORT_SYMBOL(rdma_link_unregister);

/**
 * nldev_link_lookup() - The registered link type of a name
 * @type: the name
 *
 * For tests: the answer is only stable while its owner keeps it registered.
 *
 * Context: Process context, may sleep.
 * Return: the type, or NULL.
 */
const struct rdma_link_ops *nldev_link_lookup(const char *type)
{
	const struct rdma_link_ops *ops;

	down_read(&nldev_link_rwsem);
	ops = nldev_link_find(type);
	up_read(&nldev_link_rwsem);
	return ops;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_link_lookup);

/* The type, loading "rdma-link-<type>" once if nobody offers it yet. */
static const struct rdma_link_ops *nldev_link_get(const char *type)
	__must_hold(&nldev_link_rwsem)
{
	const struct rdma_link_ops *ops = nldev_link_find(type);

	if (ops || !IS_ENABLED(CONFIG_MODULES))
		return ops;
	up_read(&nldev_link_rwsem);
	request_module("rdma-link-%s", type);
	down_read(&nldev_link_rwsem);
	return nldev_link_find(type);
}

/* Copy string attribute @type of @req into @buf: present, not empty, fits. */
static int nldev_link_str(struct nldev_req *req, int type, char *buf,
			  size_t size)
{
	struct nlattr *attr = req->tb[type];

	if (nla_strscpy(buf, attr, size) < 0 || !buf[0]) {
		NL_SET_ERR_MSG_ATTR(req->extack, attr, "empty or too long");
		return -EINVAL;
	}
	return 0;
}

static int nldev_link_create(struct nldev_req *req, const char *name,
			     const char *type, struct net_device *ndev)
{
	const struct rdma_link_ops *ops;
	int ret;

	down_read(&nldev_link_rwsem);
	ops = nldev_link_get(type);
	if (ops) {
		ret = ops->newlink(name, ndev);
	} else {
		NL_SET_ERR_MSG_ATTR(req->extack,
				    req->tb[RDMA_NLDEV_ATTR_LINK_TYPE],
				    "unknown link type");
		ret = -EINVAL;
	}
	up_read(&nldev_link_rwsem);
	return ret;
}

/**
 * nldev_link_add() - Carry out a NEWLINK request
 * @req: the parsed request: device name, link type, net device name
 *
 * Looks the net device up in the requester's namespace and the link type
 * in the registry (loading its module if needed), then lets the type
 * create the device.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL (missing or bad attribute, unknown type), -ENODEV (no
 * such net device), or the type's error.
 */
int nldev_link_add(struct nldev_req *req)
{
	char name[IB_DEVICE_NAME_MAX], type[IFNAMSIZ], ndev_name[IFNAMSIZ];
	struct net_device *ndev;
	int ret;

	if (!req->tb[RDMA_NLDEV_ATTR_DEV_NAME] ||
	    !req->tb[RDMA_NLDEV_ATTR_LINK_TYPE] ||
	    !req->tb[RDMA_NLDEV_ATTR_NDEV_NAME]) {
		NL_SET_ERR_MSG(req->extack,
			       "device name, link type and net device are required");
		return -EINVAL;
	}
	ret = nldev_link_str(req, RDMA_NLDEV_ATTR_DEV_NAME, name, sizeof(name)) ?:
	      nldev_link_str(req, RDMA_NLDEV_ATTR_LINK_TYPE, type, sizeof(type)) ?:
	      nldev_link_str(req, RDMA_NLDEV_ATTR_NDEV_NAME, ndev_name,
			     sizeof(ndev_name));
	if (ret)
		return ret;
	if (strchr(name, '%')) {
		NL_SET_ERR_MSG(req->extack, "device name may not be a template");
		return -EINVAL;
	}
	ndev = dev_get_by_name(req->net, ndev_name);
	if (!ndev) {
		NL_SET_ERR_MSG(req->extack, "no such net device");
		return -ENODEV;
	}
	ret = nldev_link_create(req, name, type, ndev);
	dev_put(ndev);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_link_add);

int nldev_newlink_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	return nldev_req_run(skb, nlh, extack, 0, nldev_link_add);
}

/**
 * nldev_link_del() - Carry out a DELLINK request
 * @req: the parsed request, holding .dev
 *
 * Only devices whose driver allows it (IBK_ALLOW_USER_UNREG, i.e. created
 * with "rdma link add") and frees them itself (dealloc_driver) go away;
 * the request's reference is consumed either way.
 *
 * Context: Process context, may sleep until the device is unregistered.
 * Return: 0, or -EINVAL for a device that cannot be deleted.
 */
int nldev_link_del(struct nldev_req *req)
{
	struct ib_device *dev = req->dev;

	req->dev = NULL;
	if (!(dev->attrs.kernel_cap_flags & IBK_ALLOW_USER_UNREG) ||
	    !dev->ops.dealloc_driver) {
		NL_SET_ERR_MSG(req->extack,
			       "device was not created by rdma link add");
		ib_device_put(dev);
		return -EINVAL;
	}
	ib_unregister_device_and_put(dev);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_link_del);

int nldev_dellink_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	return nldev_req_run(skb, nlh, extack, NLDEV_NEED_DEV, nldev_link_del);
}
