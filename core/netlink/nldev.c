// SPDX-License-Identifier: GPL-2.0-only
/* The nldev netlink client: attribute policy, request parsing, replies and the command table. */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

#include "device/device.h"
#include "netlink/netlink.h"
#include "netlink/nldev.h"

#define NLDEV_STR(max)	{ .type = NLA_NUL_STRING, .len = (max) }
#define NLDEV_EMPTY	NLDEV_STR(RDMA_NLDEV_ATTR_EMPTY_STRING)
#define NLDEV_U8	{ .type = NLA_U8 }
#define NLDEV_U32	{ .type = NLA_U32 }
#define NLDEV_U64	{ .type = NLA_U64 }
#define NLDEV_NEST	{ .type = NLA_NESTED }
#define NLDEV_SOCKADDR	{ .len = sizeof(struct __kernel_sockaddr_storage) }

/*
 * Names the kernel sends (firmware, kernel owner, counter names...) are
 * output only: user space may send them empty at most.
 */
const struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	/* device and port identity */
	[RDMA_NLDEV_ATTR_DEV_INDEX]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_DEV_NAME]		= NLDEV_STR(IB_DEVICE_NAME_MAX),
	[RDMA_NLDEV_ATTR_PORT_INDEX]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]		= NLDEV_U8,
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL]		= NLDEV_EMPTY,
	[RDMA_NLDEV_ATTR_DEV_DIM]		= NLDEV_U8,
	[RDMA_NLDEV_ATTR_FW_VERSION]		= NLDEV_EMPTY,
	[RDMA_NLDEV_ATTR_NODE_GUID]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID]	= NLDEV_U64,
	[RDMA_NLDEV_ATTR_SUBNET_PREFIX]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_LID]			= NLDEV_U32,
	[RDMA_NLDEV_ATTR_SM_LID]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_LMC]			= NLDEV_U8,
	[RDMA_NLDEV_ATTR_PORT_STATE]		= NLDEV_U8,
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]	= NLDEV_U8,
	[RDMA_NLDEV_ATTR_NDEV_INDEX]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_NDEV_NAME]		= NLDEV_STR(IFNAMSIZ),
	[RDMA_NLDEV_ATTR_LINK_TYPE]		= NLDEV_STR(IFNAMSIZ),
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]	= NLDEV_U32,
	[RDMA_NLDEV_NET_NS_FD]			= NLDEV_U32,
	/* character devices */
	[RDMA_NLDEV_ATTR_CHARDEV]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_CHARDEV_ABI]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_CHARDEV_NAME]		= NLDEV_EMPTY,
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE]		=
		NLDEV_STR(RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE),
	/* driver-specific details */
	[RDMA_NLDEV_ATTR_DRIVER]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_DRIVER_ENTRY]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_DRIVER_STRING]		= NLDEV_EMPTY,
	[RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE]	= NLDEV_U8,
	[RDMA_NLDEV_ATTR_DRIVER_S32]		= { .type = NLA_S32 },
	[RDMA_NLDEV_ATTR_DRIVER_U32]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_DRIVER_S64]		= { .type = NLA_S64 },
	[RDMA_NLDEV_ATTR_DRIVER_U64]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_DRIVER_DETAILS]	= NLDEV_U8,
	/* resource tables and their entries */
	[RDMA_NLDEV_ATTR_RES_SUMMARY]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY]	= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME] = NLDEV_EMPTY,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR] = NLDEV_U64,
	[RDMA_NLDEV_ATTR_RES_QP]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_CM_ID]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY]	= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_CQ]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_CQ_ENTRY]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_MR]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_MR_ENTRY]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_PD]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_PD_ENTRY]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_CTX]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_CTX_ENTRY]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQ]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQ_ENTRY]		= NLDEV_NEST,
	/* resource attributes */
	[RDMA_NLDEV_ATTR_RES_LQPN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_RQPN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_RQ_PSN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_SQ_PSN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE]	= NLDEV_U8,
	[RDMA_NLDEV_ATTR_RES_TYPE]		= NLDEV_U8,
	[RDMA_NLDEV_ATTR_RES_SUBTYPE]		= NLDEV_EMPTY,
	[RDMA_NLDEV_ATTR_RES_STATE]		= NLDEV_U8,
	[RDMA_NLDEV_ATTR_RES_PID]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_KERN_NAME]		= NLDEV_EMPTY,
	[RDMA_NLDEV_ATTR_RES_PS]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR]		= NLDEV_SOCKADDR,
	[RDMA_NLDEV_ATTR_RES_DST_ADDR]		= NLDEV_SOCKADDR,
	[RDMA_NLDEV_ATTR_RES_CQE]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_USECNT]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_RES_POLL_CTX]		= NLDEV_U8,
	[RDMA_NLDEV_ATTR_RES_RKEY]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_LKEY]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_IOVA]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_RES_MRLEN]		= NLDEV_U64,
	[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY]	= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY]	= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_CM_IDN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_CQN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_MRN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_PDN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_CTXN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_SRQN]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_RES_RAW]		= { .type = NLA_BINARY },
	[RDMA_NLDEV_ATTR_MIN_RANGE]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_MAX_RANGE]		= NLDEV_U32,
	/* statistics */
	[RDMA_NLDEV_ATTR_STAT_MODE]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_STAT_RES]		= NLDEV_U32,
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK]	= NLDEV_U32,
	[RDMA_NLDEV_ATTR_STAT_COUNTER]		= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY]	= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]	= NLDEV_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]	= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY]	= NLDEV_NEST,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = { .type = NLA_NUL_STRING },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = NLDEV_U64,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX]	= NLDEV_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = NLDEV_U8,
	/* system settings */
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]	= NLDEV_U8,
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]	= NLDEV_U8,
	[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE] = NLDEV_U8,
};
EXPORT_SYMBOL_IF_KUNIT(nldev_policy);

/* ---- Requests ------------------------------------------------------------ */

static int nldev_req_device(struct nldev_req *req, unsigned int needs)
{
	struct nlattr *idx = req->tb[RDMA_NLDEV_ATTR_DEV_INDEX];

	if (!(needs & (NLDEV_NEED_DEV | NLDEV_MAY_DEV)))
		return 0;
	if (!idx) {
		if (!(needs & NLDEV_NEED_DEV))
			return 0;
		NL_SET_ERR_MSG(req->extack, "device index is missing");
		return -EINVAL;
	}
	req->dev = ib_device_get_by_index(req->net, nla_get_u32(idx));
	if (!req->dev) {
		NL_SET_ERR_MSG_ATTR(req->extack, idx, "no such device");
		return -EINVAL;
	}
	return 0;
}

static int nldev_req_port(struct nldev_req *req, unsigned int needs)
{
	struct nlattr *port = req->tb[RDMA_NLDEV_ATTR_PORT_INDEX];

	if (!(needs & (NLDEV_NEED_PORT | NLDEV_MAY_PORT)))
		return 0;
	if (!port) {
		if (!(needs & NLDEV_NEED_PORT))
			return 0;
		NL_SET_ERR_MSG(req->extack, "port index is missing");
		return -EINVAL;
	}
	if (!req->dev) {
		NL_SET_ERR_MSG_ATTR(req->extack, port, "a port needs a device index");
		return -EINVAL;
	}
	req->port = nla_get_u32(port);
	if (!rdma_is_port_valid(req->dev, req->port)) {
		NL_SET_ERR_MSG_ATTR(req->extack, port, "no such port");
		return -EINVAL;
	}
	return 0;
}

/**
 * nldev_req_parse() - Check an nldev request and look up what it names
 * @req: .net, .extack and .admin set by the caller; the rest is filled in
 * @nlh: the request
 * @needs: NLDEV_NEED_* / NLDEV_MAY_PORT bits
 *
 * Parses the attributes against nldev_policy, then finds the device and
 * port the request names when @needs asks for them.
 *
 * Context: Process context, may sleep.
 * Return: 0 (release @req with nldev_req_release()), or -EINVAL with a
 * message in .extack; nothing is held then.
 */
int nldev_req_parse(struct nldev_req *req, const struct nlmsghdr *nlh,
		    unsigned int needs)
{
	int ret;

	req->dev = NULL;
	req->port = 0;
	ret = nlmsg_parse_deprecated(nlh, 0, req->tb, RDMA_NLDEV_ATTR_MAX - 1,
				     nldev_policy, req->extack);
	if (ret)
		return -EINVAL;
	ret = nldev_req_device(req, needs);
	if (ret)
		return ret;
	ret = nldev_req_port(req, needs);
	if (ret)
		nldev_req_release(req);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_req_parse);

/**
 * nldev_req_release() - Drop what nldev_req_parse() holds
 * @req: a parsed request
 *
 * Context: Any context.
 */
void nldev_req_release(struct nldev_req *req)
{
	if (req->dev)
		ib_device_put(req->dev);
	req->dev = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_req_release);

/**
 * nldev_req_new() - An empty request, to be parsed
 * @net: the namespace of the requesting socket
 * @from: the request's skb, whose sender's capabilities count
 * @extack: where to report problems, or NULL
 *
 * Requests live on the heap: their attribute table is too big for a stack
 * frame. Free with nldev_req_free().
 *
 * Context: Process context, may sleep.
 * Return: the request, or NULL when out of memory.
 */
struct nldev_req *nldev_req_new(struct net *net, const struct sk_buff *from,
				struct netlink_ext_ack *extack)
{
	struct nldev_req *req = kzalloc(sizeof(*req), GFP_KERNEL);

	if (!req)
		return NULL;
	req->net = net;
	req->extack = extack;
	req->admin = netlink_capable(from, CAP_NET_ADMIN);
	return req;
}

/* Release what @req holds and free it; NULL is fine. */
void nldev_req_free(struct nldev_req *req)
{
	if (!req)
		return;
	nldev_req_release(req);
	kfree(req);
}

/* doit of the commands that answer with an ack only: parse, then @fn. */
int nldev_req_run(struct sk_buff *skb, const struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack, unsigned int needs,
		  int (*fn)(struct nldev_req *req))
{
	struct nldev_req *req = nldev_req_new(sock_net(skb->sk), skb, extack);
	int ret;

	if (!req)
		return -ENOMEM;
	ret = nldev_req_parse(req, nlh, needs);
	if (!ret)
		ret = fn(req);
	nldev_req_free(req);
	return ret;
}

/* ---- Replies ------------------------------------------------------------- */

/* Start an nldev message of command @cmd in @msg; NULL when it is full. */
struct nlmsghdr *nldev_msg_start(struct sk_buff *msg, u32 portid, u32 seq,
				 u8 cmd, int flags)
{
	return nlmsg_put(msg, portid, seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd),
			 0, flags);
}

/**
 * nldev_reply_build() - Build the one-message answer to a request
 * @req: the parsed request
 * @portid: the requester's port id
 * @seq: the request's sequence number
 * @cmd: RDMA_NLDEV_CMD_* of the answer
 * @fill: adds the attributes
 *
 * Context: Process context, may sleep.
 * Return: the message, or an ERR_PTR (an error of @fill, -ENOMEM,
 * -EMSGSIZE).
 */
struct sk_buff *nldev_reply_build(struct nldev_req *req, u32 portid, u32 seq,
				  u8 cmd, nldev_fill_fn fill)
{
	struct nlmsghdr *nlh;
	struct sk_buff *msg;
	int ret;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return ERR_PTR(-ENOMEM);
	nlh = nldev_msg_start(msg, portid, seq, cmd, 0);
	if (!nlh) {
		ret = -EMSGSIZE;
		goto err_free;
	}
	ret = fill(msg, req);
	if (ret)
		goto err_free;
	nlmsg_end(msg, nlh);
	return msg;

err_free:
	nlmsg_free(msg);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(nldev_reply_build);

/* doit of every command that answers with one message built by @fill. */
int nldev_reply_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		     struct netlink_ext_ack *extack, unsigned int needs,
		     u8 cmd, nldev_fill_fn fill)
{
	u32 portid = NETLINK_CB(skb).portid;
	struct nldev_req *req;
	struct sk_buff *msg;
	int ret;

	req = nldev_req_new(sock_net(skb->sk), skb, extack);
	if (!req)
		return -ENOMEM;
	ret = nldev_req_parse(req, nlh, needs);
	msg = ret ? ERR_PTR(ret) :
		    nldev_reply_build(req, portid, nlh->nlmsg_seq, cmd, fill);
	nldev_req_free(req);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	return rdma_nl_unicast(sock_net(skb->sk), msg, portid);
}

/**
 * nldev_dump_devices() - Dump one message per registered device
 * @skb: the dump buffer
 * @cb: the dump; args[0] is the device index to go on from
 * @cmd: RDMA_NLDEV_CMD_* of the messages
 * @fill: adds one device's attributes (from req->dev)
 *
 * Context: Process context. Holds ib_devices_rwsem for reading, which keeps
 * every listed device registered while @fill runs.
 * Return: the length of @skb (0 when nothing was left to dump), or an
 * error of @fill other than -EMSGSIZE.
 */
int nldev_dump_devices(struct sk_buff *skb, struct netlink_callback *cb,
		       u8 cmd, nldev_fill_fn fill)
{
	struct nldev_req *req;
	struct nlmsghdr *nlh;
	unsigned long index;
	int ret = 0;

	req = nldev_req_new(sock_net(skb->sk), cb->skb, cb->extack);
	if (!req)
		return -ENOMEM;
	/* the devices are not held: ib_devices_rwsem keeps them registered */
	down_read(&ib_devices_rwsem);
	xa_for_each_start(&ib_devices, index, req->dev, cb->args[0]) {
		if (!xa_get_mark(&ib_devices, index, IB_DEVICE_REGISTERED))
			continue;
		nlh = nldev_msg_start(skb, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, cmd, NLM_F_MULTI);
		ret = nlh ? fill(skb, req) : -EMSGSIZE;
		if (ret) {
			if (nlh)
				nlmsg_cancel(skb, nlh);
			break;
		}
		nlmsg_end(skb, nlh);
		cb->args[0] = index + 1;
	}
	up_read(&ib_devices_rwsem);
	req->dev = NULL;
	nldev_req_free(req);
	return ret && ret != -EMSGSIZE ? ret : skb->len;
}

/* Index and name: how every nldev message names its device. */
int nldev_put_handle(struct sk_buff *msg, struct ib_device *dev)
{
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, dev->index) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_NAME, dev_name(&dev->dev)))
		return -EMSGSIZE;
	return 0;
}

/* ---- Driver attributes --------------------------------------------------- */

static int nldev_put_driver_name(struct sk_buff *msg, const char *name,
				 enum rdma_nldev_print_type how)
{
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_DRIVER_STRING, name))
		return -EMSGSIZE;
	if (how != RDMA_NLDEV_PRINT_TYPE_UNSPEC &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, how))
		return -EMSGSIZE;
	return 0;
}

static int nldev_put_driver_u32(struct sk_buff *msg, const char *name,
				enum rdma_nldev_print_type how, u32 value)
{
	if (nldev_put_driver_name(msg, name, how) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_DRIVER_U32, value))
		return -EMSGSIZE;
	return 0;
}

static int nldev_put_driver_u64(struct sk_buff *msg, const char *name,
				enum rdma_nldev_print_type how, u64 value)
{
	if (nldev_put_driver_name(msg, name, how) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_DRIVER_U64, value,
			      RDMA_NLDEV_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

/**
 * rdma_nl_put_driver_u32() - Add a named driver value to an nldev message
 * @msg: the message a fill_res_*_entry() op is given
 * @name: the value's name, as the rdma tool prints it
 * @value: the value, printed in decimal
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u32(struct sk_buff *msg, const char *name, u32 value)
{
	return nldev_put_driver_u32(msg, name, RDMA_NLDEV_PRINT_TYPE_UNSPEC,
				    value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u32);

/**
 * rdma_nl_put_driver_u32_hex() - Add a named driver value shown in hex
 * @msg: the message a fill_res_*_entry() op is given
 * @name: the value's name
 * @value: the value, printed in hexadecimal
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u32_hex(struct sk_buff *msg, const char *name,
			       u32 value)
{
	return nldev_put_driver_u32(msg, name, RDMA_NLDEV_PRINT_TYPE_HEX,
				    value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u32_hex);

/**
 * rdma_nl_put_driver_u64() - Add a named 64-bit driver value
 * @msg: the message a fill_res_*_entry() op is given
 * @name: the value's name
 * @value: the value, printed in decimal
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u64(struct sk_buff *msg, const char *name, u64 value)
{
	return nldev_put_driver_u64(msg, name, RDMA_NLDEV_PRINT_TYPE_UNSPEC,
				    value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u64);

/**
 * rdma_nl_put_driver_u64_hex() - Add a named 64-bit driver value in hex
 * @msg: the message a fill_res_*_entry() op is given
 * @name: the value's name
 * @value: the value, printed in hexadecimal
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u64_hex(struct sk_buff *msg, const char *name,
			       u64 value)
{
	return nldev_put_driver_u64(msg, name, RDMA_NLDEV_PRINT_TYPE_HEX,
				    value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u64_hex);

/**
 * rdma_nl_put_driver_string() - Add a named driver string
 * @msg: the message a fill_res_*_entry() op is given
 * @name: the string's name
 * @str: the string
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_string(struct sk_buff *msg, const char *name,
			      const char *str)
{
	if (nldev_put_driver_name(msg, name, RDMA_NLDEV_PRINT_TYPE_UNSPEC) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DRIVER_STRING, str))
		return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL(rdma_nl_put_driver_string);

/* ---- The command table --------------------------------------------------- */

/* Commands not listed here answer -EOPNOTSUPP (core/netlink/netlink.c). */
static const struct rdma_nl_cbs nldev_cmds[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = {
		.doit = nldev_get_doit, .dump = nldev_get_dumpit },
	[RDMA_NLDEV_CMD_SET] = {
		.doit = nldev_set_doit, .flags = RDMA_NL_ADMIN_PERM },
	[RDMA_NLDEV_CMD_NEWLINK] = {
		.doit = nldev_newlink_doit, .flags = RDMA_NL_ADMIN_PERM },
	[RDMA_NLDEV_CMD_DELLINK] = {
		.doit = nldev_dellink_doit, .flags = RDMA_NL_ADMIN_PERM },
	[RDMA_NLDEV_CMD_PORT_GET] = {
		.doit = nldev_port_get_doit, .dump = nldev_port_get_dumpit },
	[RDMA_NLDEV_CMD_GET_CHARDEV] = { .doit = nldev_get_chardev_doit },
	[RDMA_NLDEV_CMD_SYS_GET] = { .doit = nldev_sys_get_doit },
	[RDMA_NLDEV_CMD_SYS_SET] = {
		.doit = nldev_sys_set_doit, .flags = RDMA_NL_ADMIN_PERM },
	[RDMA_NLDEV_CMD_RES_GET] = {
		.doit = nldev_res_get_doit, .dump = nldev_res_get_dumpit },
	[RDMA_NLDEV_CMD_RES_QP_GET] = { .dump = nldev_res_qp_dumpit },
	[RDMA_NLDEV_CMD_RES_CQ_GET] = { .dump = nldev_res_cq_dumpit },
	[RDMA_NLDEV_CMD_RES_MR_GET] = { .dump = nldev_res_mr_dumpit },
	[RDMA_NLDEV_CMD_RES_PD_GET] = { .dump = nldev_res_pd_dumpit },
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = { .dump = nldev_res_cm_id_dumpit },
	[RDMA_NLDEV_CMD_STAT_GET] = { .doit = nldev_stat_get_doit },
};

int nldev_init(void)
{
	rdma_nl_register(RDMA_NL_NLDEV, nldev_cmds);
	return 0;
}

void nldev_exit(void)
{
	rdma_nl_unregister(RDMA_NL_NLDEV);
}

MODULE_ALIAS_RDMA_NETLINK(RDMA_NL_NLDEV, 5);
