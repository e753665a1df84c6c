// SPDX-License-Identifier: GPL-2.0-only
/*
 * nldev GET_CHARDEV: which character device user space opens for a client
 * ("uverbs", "rdma_cm", ...).
 */
/*
 * rdma-core finds /dev/infiniband/uverbsN of a device this way (and loads
 * ib_uverbs on demand: the client module's alias is rdma-client-<name>).
 * The request names the client in CHARDEV_TYPE and, optionally, a device
 * and a port of it; the answer carries the dev_t, the ABI version and the
 * name of the character device, plus what the client adds itself (uverbs:
 * UVERBS_DRIVER_ID).
 */

#include <linux/device.h>
#include <linux/kdev_t.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "device/device.h"
#include "netlink/netlink.h"
#include "netlink/nldev.h"

static int nldev_chardev_fill(struct sk_buff *msg, struct nldev_req *req)
{
	struct ib_client_nl_info info = {
		.nl_msg = msg,
		.port = req->dev && req->port ? req->port : (u32)-1,
	};
	char name[RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE];
	int ret;

	if (!req->tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE]) {
		NL_SET_ERR_MSG(req->extack, "chardev type is missing");
		return -EINVAL;
	}
	nla_strscpy(name, req->tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE], sizeof(name));
	ret = ib_get_client_nl_info(req->dev, name, &info);
	if (ret)
		return ret;
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV,
			      huge_encode_dev(info.cdev->devt),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV_ABI, info.abi,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_NAME,
			   dev_name(info.cdev)))
		ret = -EMSGSIZE;
	put_device(info.cdev);
	return ret;
}

/**
 * nldev_get_chardev_doit() - RDMA_NLDEV_CMD_GET_CHARDEV
 * @skb: the request
 * @nlh: its header
 * @extack: where to say what was wrong
 *
 * Context: Process context, may sleep (loads the client's module).
 * Return: 0 when answered; -EINVAL for a bad request, -EOPNOTSUPP when
 * no such client has a character device, or the client's error.
 */
int nldev_get_chardev_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack)
{
	/* The device is optional here, the port only with a device. */
	return nldev_reply_doit(skb, nlh, extack, NLDEV_MAY_DEV | NLDEV_MAY_PORT,
				RDMA_NLDEV_CMD_GET_CHARDEV, nldev_chardev_fill);
}
