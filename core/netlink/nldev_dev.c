// SPDX-License-Identifier: GPL-2.0-only
/* nldev commands about devices, ports and system settings: GET, SET, PORT_GET, SYS_GET/SET. */

#include <kunit/visibility.h>
#include <linux/capability.h>
#include <linux/export.h>
#include <linux/netdevice.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "device/device.h"
#include "netlink/nldev.h"

/* SYS_SET privileged-qkey: let everyone use Q_Keys with the high bit set. */
static bool nldev_privileged_qkey;

/* ---- Device information (GET) -------------------------------------------- */

/*
 * The protocol the rdma tool shows, judged by the first port as 6.1 does;
 * OPA (an IB link with OPA MADs) is tested before these.
 */
static const struct {
	bool (*is)(const struct ib_device *dev, u32 port);
	const char *name;
} nldev_protocols[] = {
	{ rdma_protocol_ib,	"ib" },
	{ rdma_protocol_iwarp,	"iw" },
	{ rdma_protocol_roce,	"roce" },
	{ rdma_protocol_usnic,	"usnic" },
};

static int nldev_put_protocol(struct sk_buff *msg, struct ib_device *dev)
{
	u32 port = rdma_start_port(dev);
	unsigned int i;

	if (rdma_cap_opa_mad(dev, port))
		return nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_PROTOCOL, "opa");
	for (i = 0; i < ARRAY_SIZE(nldev_protocols); i++)
		if (nldev_protocols[i].is(dev, port))
			return nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_PROTOCOL,
					      nldev_protocols[i].name);
	return 0;
}

static int nldev_put_fw(struct sk_buff *msg, struct ib_device *dev)
{
	char fw[IB_FW_VERSION_NAME_MAX];

	ib_get_device_fw_str(dev, fw);
	if (!fw[0])
		return 0;
	return nla_put_string(msg, RDMA_NLDEV_ATTR_FW_VERSION, fw);
}

/**
 * nldev_dev_fill() - The attributes of a device, as GET answers them
 * @msg: the message
 * @req: .dev is the device
 *
 * Context: Process context; the device is held or ib_devices_rwsem is.
 * Return: 0 or -EMSGSIZE.
 */
int nldev_dev_fill(struct sk_buff *msg, struct nldev_req *req)
{
	struct ib_device *dev = req->dev;

	/* for a device, PORT_INDEX is the number of its last port */
	if (nldev_put_handle(msg, dev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, rdma_end_port(dev)) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS,
			      dev->attrs.device_cap_flags,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nldev_put_fw(msg, dev) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_NODE_GUID,
			      be64_to_cpu(dev->node_guid), RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID,
			      be64_to_cpu(dev->attrs.sys_image_guid),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, dev->node_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, dev->use_cq_dim) ||
	    nldev_put_protocol(msg, dev))
		return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_dev_fill);

int nldev_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		   struct netlink_ext_ack *extack)
{
	return nldev_reply_doit(skb, nlh, extack, NLDEV_NEED_DEV,
				RDMA_NLDEV_CMD_GET, nldev_dev_fill);
}

int nldev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_dump_devices(skb, cb, RDMA_NLDEV_CMD_GET, nldev_dev_fill);
}

/* ---- Device settings (SET) ----------------------------------------------- */

static int nldev_dev_rename(struct nldev_req *req, const struct nlattr *attr)
{
	char name[IB_DEVICE_NAME_MAX];
	int ret;

	if (nla_strscpy(name, attr, sizeof(name)) < 0 || !name[0]) {
		NL_SET_ERR_MSG_ATTR(req->extack, attr,
				    "device name is empty or too long");
		return -EINVAL;
	}
	ret = ib_device_rename(req->dev, name);
	if (ret == -EINVAL)
		NL_SET_ERR_MSG_ATTR(req->extack, attr, "invalid device name");
	else if (ret == -EEXIST)
		NL_SET_ERR_MSG_ATTR(req->extack, attr, "device name is taken");
	return ret;
}

static int nldev_dev_set_dim(struct nldev_req *req, const struct nlattr *attr)
{
	u8 on = nla_get_u8(attr);

	if (on > 1) {
		NL_SET_ERR_MSG_ATTR(req->extack, attr, "dim is 0 or 1");
		return -EINVAL;
	}
	/* read when CQs are created; a racing creation sees either value */
	req->dev->use_cq_dim = on;
	return 0;
}

/**
 * nldev_dev_set() - Apply a SET request to its device
 * @req: the parsed request, with .dev
 *
 * One setting per request, as 6.1 does: a new name, else the DIM flag.
 * Moving a device to another namespace is not supported.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EINVAL (bad value), -EEXIST (name taken), -EOPNOTSUPP, or
 * an error of the rename.
 */
int nldev_dev_set(struct nldev_req *req)
{
	struct nlattr **tb = req->tb;

	if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return nldev_dev_rename(req, tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	if (tb[RDMA_NLDEV_NET_NS_FD]) {
		NL_SET_ERR_MSG(req->extack,
			       "moving devices between namespaces is not supported");
		return -EOPNOTSUPP;
	}
	if (tb[RDMA_NLDEV_ATTR_DEV_DIM])
		return nldev_dev_set_dim(req, tb[RDMA_NLDEV_ATTR_DEV_DIM]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_dev_set);

int nldev_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		   struct netlink_ext_ack *extack)
{
	return nldev_req_run(skb, nlh, extack, NLDEV_NEED_DEV, nldev_dev_set);
}

/* ---- Ports (PORT_GET) ---------------------------------------------------- */

/* Addressing of an InfiniBand port: capabilities, subnet, LIDs. */
static int nldev_put_ib_port(struct sk_buff *msg, const struct ib_port_attr *a)
{
	u64 caps = a->port_cap_flags | ((u64)a->port_cap_flags2 << 32);

	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS, caps,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SUBNET_PREFIX,
			      a->subnet_prefix, RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_LID, a->lid) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_SM_LID, a->sm_lid) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_LMC, a->lmc))
		return -EMSGSIZE;
	return 0;
}

/* The port's net device, when it is in the requester's namespace. */
static int nldev_put_port_netdev(struct sk_buff *msg, struct nldev_req *req)
{
	struct net_device *ndev = ib_device_get_netdev(req->dev, req->port);
	int ret = 0;

	if (!ndev)
		return 0;
	if (net_eq(dev_net(ndev), req->net) &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_NDEV_INDEX, ndev->ifindex) ||
	     nla_put_string(msg, RDMA_NLDEV_ATTR_NDEV_NAME, ndev->name)))
		ret = -EMSGSIZE;
	dev_put(ndev);
	return ret;
}

/**
 * nldev_port_fill() - The attributes of a port, as PORT_GET answers them
 * @msg: the message
 * @req: .dev and .port name the port
 *
 * Context: Process context, may sleep (asks the driver).
 * Return: 0, -EMSGSIZE, or an error of ib_query_port().
 */
int nldev_port_fill(struct sk_buff *msg, struct nldev_req *req)
{
	struct ib_port_attr attr;
	int ret;

	ret = ib_query_port(req->dev, req->port, &attr);
	if (ret)
		return ret;
	if (nldev_put_handle(msg, req->dev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port))
		return -EMSGSIZE;
	if (rdma_protocol_ib(req->dev, req->port) &&
	    nldev_put_ib_port(msg, &attr))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_STATE, attr.state) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, attr.phys_state))
		return -EMSGSIZE;
	return nldev_put_port_netdev(msg, req);
}
EXPORT_SYMBOL_IF_KUNIT(nldev_port_fill);

int nldev_port_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	return nldev_reply_doit(skb, nlh, extack,
				NLDEV_NEED_DEV | NLDEV_NEED_PORT,
				RDMA_NLDEV_CMD_PORT_GET, nldev_port_fill);
}

/* One message per port of the request's device; args[0]: ports done. */
static int nldev_port_dump_ports(struct sk_buff *skb,
				 struct netlink_callback *cb,
				 struct nldev_req *req)
{
	struct nlmsghdr *nlh;
	int ret = 0;

	for (req->port = rdma_start_port(req->dev) + cb->args[0];
	     req->port <= rdma_end_port(req->dev); req->port++) {
		nlh = nldev_msg_start(skb, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq,
				      RDMA_NLDEV_CMD_PORT_GET, NLM_F_MULTI);
		ret = nlh ? nldev_port_fill(skb, req) : -EMSGSIZE;
		if (ret) {
			if (nlh)
				nlmsg_cancel(skb, nlh);
			break;
		}
		nlmsg_end(skb, nlh);
		cb->args[0]++;
	}
	return ret && ret != -EMSGSIZE ? ret : skb->len;
}

int nldev_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nldev_req *req;
	int ret;

	req = nldev_req_new(sock_net(skb->sk), cb->skb, cb->extack);
	if (!req)
		return -ENOMEM;
	ret = nldev_req_parse(req, cb->nlh, NLDEV_NEED_DEV);
	if (!ret)
		ret = nldev_port_dump_ports(skb, cb, req);
	nldev_req_free(req);
	return ret;
}

/* ---- System settings (SYS_GET, SYS_SET) ---------------------------------- */

/**
 * rdma_nl_get_privileged_qkey() - Whether the caller may use privileged Q_Keys
 *
 * True when the administrator allowed it for everyone (rdma system set
 * privileged-qkey on) or the caller has CAP_NET_RAW.
 *
 * Context: Process context (looks at the current task's capabilities).
 * Return: true if privileged Q_Keys may be used.
 */
bool rdma_nl_get_privileged_qkey(void)
{
	return READ_ONCE(nldev_privileged_qkey) || capable(CAP_NET_RAW);
}
EXPORT_SYMBOL(rdma_nl_get_privileged_qkey);

/**
 * nldev_sys_fill() - The system settings, as SYS_GET answers them
 * @msg: the message
 * @req: unused
 *
 * Devices are always shared between namespaces (netns mode 1); pinned
 * pages are copied on fork by the kernel we run on.
 *
 * Context: Any context.
 * Return: 0 or -EMSGSIZE.
 */
int nldev_sys_fill(struct sk_buff *msg, struct nldev_req *req)
{
	if (nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1) ||
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE,
		       READ_ONCE(nldev_privileged_qkey)) ||
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1))
		return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_sys_fill);

int nldev_sys_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	return nldev_reply_doit(skb, nlh, extack, 0, RDMA_NLDEV_CMD_SYS_GET,
				nldev_sys_fill);
}

/* A 0/1 setting; anything else is refused. */
static int nldev_sys_flag(struct nldev_req *req, int type, u8 *val)
{
	*val = nla_get_u8(req->tb[type]);
	if (*val <= 1)
		return 0;
	NL_SET_ERR_MSG_ATTR(req->extack, req->tb[type], "value must be 0 or 1");
	return -EINVAL;
}

/**
 * nldev_sys_set() - Apply a SYS_SET request
 * @req: the parsed request
 *
 * The netns mode can only stay "shared" (1); privileged-qkey is 0 or 1.
 *
 * Context: Any context.
 * Return: 0, -EINVAL (nothing to set or a bad value), or -EOPNOTSUPP for
 * exclusive netns mode.
 */
int nldev_sys_set(struct nldev_req *req)
{
	u8 val;
	int ret;

	if (req->tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]) {
		ret = nldev_sys_flag(req, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, &val);
		if (ret || val)
			return ret;
		NL_SET_ERR_MSG(req->extack,
			       "exclusive netns mode is not supported");
		return -EOPNOTSUPP;
	}
	if (req->tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE]) {
		ret = nldev_sys_flag(req,
				     RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE,
				     &val);
		if (!ret)
			WRITE_ONCE(nldev_privileged_qkey, val);
		return ret;
	}
	NL_SET_ERR_MSG(req->extack, "no system setting given");
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_sys_set);

int nldev_sys_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	return nldev_req_run(skb, nlh, extack, 0, nldev_sys_set);
}
