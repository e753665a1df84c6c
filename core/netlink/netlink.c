// SPDX-License-Identifier: GPL-2.0-only
/* NETLINK_RDMA: one kernel socket per namespace, client tables, dispatch and sending. */

#include <linux/export.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/netns/generic.h>
#include <net/sock.h>
#include <rdma/rdma_netlink.h>

#include "netlink/netlink.h"

/*
 * One slot per client index (RDMA_NL_IWCM, RDMA_NL_LS, RDMA_NL_NLDEV, ...).
 * @sem protects @ops: readers are the commands running for the client, the
 * writer is rdma_nl_unregister(), which so waits for them to finish.
 */
struct rdma_nl_client {
	const struct rdma_nl_cbs *ops;
	struct rw_semaphore sem;
};

static struct rdma_nl_client rdma_nl_clients[RDMA_NL_NUM_CLIENTS];

/* How many operations each client index may have; 0: not a client. */
static const unsigned int rdma_nl_num_ops[RDMA_NL_NUM_CLIENTS] = {
	[RDMA_NL_IWCM]	= RDMA_NL_IWPM_NUM_OPS,
	[RDMA_NL_LS]	= RDMA_NL_LS_NUM_OPS,
	[RDMA_NL_NLDEV]	= RDMA_NLDEV_NUM_OPS,
};

/* The kernel socket of a namespace, set up by the pernet init. */
struct rdma_nl_net {
	struct sock *sk;
};

static unsigned int rdma_nl_net_id;

static struct sock *rdma_nl_sock(struct net *net)
{
	struct rdma_nl_net *rnet = net_generic(net, rdma_nl_net_id);

	return rnet->sk;
}

static bool rdma_nl_op_valid(unsigned int client, unsigned int op)
{
	return client < RDMA_NL_NUM_CLIENTS && op < rdma_nl_num_ops[client];
}

/* ---- Client registration ------------------------------------------------- */

/**
 * rdma_nl_register() - Install a netlink client's operation table
 * @index: client index, RDMA_NL_*
 * @cb_table: operations indexed by operation number; must stay valid
 *	      until rdma_nl_unregister(@index)
 *
 * Requests for @index are dispatched to @cb_table from now on. A second
 * table for the same index is refused with a warning in the log.
 *
 * Context: Process context, may sleep.
 */
void rdma_nl_register(unsigned int index, const struct rdma_nl_cbs cb_table[])
{
	struct rdma_nl_client *c;

	if (!rdma_nl_op_valid(index, 0)) {
		pr_warn("no RDMA netlink client has index %u\n", index);
		return;
	}
	c = &rdma_nl_clients[index];
	down_write(&c->sem);
	if (c->ops)
		pr_warn("RDMA netlink client %u is already registered\n", index);
	else
		c->ops = cb_table;
	up_write(&c->sem);
}
EXPORT_SYMBOL(rdma_nl_register);

/**
 * rdma_nl_unregister() - Remove a netlink client's operation table
 * @index: client index given to rdma_nl_register()
 *
 * Waits until no command of the client runs any more. Dumps already
 * started keep their callbacks, which live in the caller's module.
 *
 * Context: Process context, may sleep.
 */
void rdma_nl_unregister(unsigned int index)
{
	struct rdma_nl_client *c;

	if (!rdma_nl_op_valid(index, 0))
		return;
	c = &rdma_nl_clients[index];
	down_write(&c->sem);
	c->ops = NULL;
	up_write(&c->sem);
}
EXPORT_SYMBOL(rdma_nl_unregister);

/*
 * The operation @op of @client, loading the client's module once if it has
 * no table yet. Called and returns with the client's sem held for reading.
 */
static const struct rdma_nl_cbs *rdma_nl_op_get(unsigned int client,
						unsigned int op)
{
	struct rdma_nl_client *c = &rdma_nl_clients[client];
	const struct rdma_nl_cbs *ops = c->ops;

	if (!ops) {
		up_read(&c->sem);
		request_module("rdma-netlink-subsys-%u", client);
		down_read(&c->sem);
		ops = c->ops;
	}
	if (!ops || (!ops[op].doit && !ops[op].dump))
		return NULL;
	return &ops[op];
}

/* ---- Receiving ----------------------------------------------------------- */

/*
 * LS messages are answers from user space to kernel requests and reuse
 * the NLM_F_ROOT bit: they only ever go to doit. IWCM always dumps.
 */
static int rdma_nl_call(struct sk_buff *skb, struct nlmsghdr *nlh,
			unsigned int client, const struct rdma_nl_cbs *cb,
			struct netlink_ext_ack *extack)
{
	bool dump = client != RDMA_NL_LS &&
		    (client == RDMA_NL_IWCM || (nlh->nlmsg_flags & NLM_F_DUMP));
	struct netlink_dump_control c = { .dump = cb->dump };

	if (!dump && cb->doit)
		return cb->doit(skb, nlh, extack);
	if (dump && cb->dump)
		return netlink_dump_start(skb->sk, skb, nlh, &c);
	NL_SET_ERR_MSG(extack, "operation not supported in this form");
	return -EOPNOTSUPP;
}

static int rdma_nl_dispatch(struct sk_buff *skb, struct nlmsghdr *nlh,
			    struct netlink_ext_ack *extack)
{
	unsigned int client = RDMA_NL_GET_CLIENT(nlh->nlmsg_type);
	unsigned int op = RDMA_NL_GET_OP(nlh->nlmsg_type);
	const struct rdma_nl_cbs *cb;
	int ret;

	if (!rdma_nl_op_valid(client, op)) {
		NL_SET_ERR_MSG(extack, "unknown RDMA netlink client or operation");
		return -EINVAL;
	}
	/* only nldev knows about network namespaces */
	if (client != RDMA_NL_NLDEV && !net_eq(sock_net(skb->sk), &init_net)) {
		NL_SET_ERR_MSG(extack, "client only available in the initial namespace");
		return -EINVAL;
	}

	down_read(&rdma_nl_clients[client].sem);
	cb = rdma_nl_op_get(client, op);
	if (!cb) {
		NL_SET_ERR_MSG(extack, "operation not supported");
		ret = -EOPNOTSUPP;
	} else if ((cb->flags & RDMA_NL_ADMIN_PERM) &&
		   !netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack, "CAP_NET_ADMIN is required");
		ret = -EPERM;
	} else {
		ret = rdma_nl_call(skb, nlh, client, cb, extack);
	}
	up_read(&rdma_nl_clients[client].sem);
	return ret;
}

/* Requests, and LS answers which come without NLM_F_REQUEST. */
static bool rdma_nl_is_for_us(const struct nlmsghdr *nlh)
{
	if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return false;
	return (nlh->nlmsg_flags & NLM_F_REQUEST) ||
	       RDMA_NL_GET_CLIENT(nlh->nlmsg_type) == RDMA_NL_LS;
}

static void rdma_nl_rcv_one(struct sk_buff *skb, struct nlmsghdr *nlh)
{
	struct netlink_ext_ack extack = {};
	int err = 0;

	if (rdma_nl_is_for_us(nlh))
		err = rdma_nl_dispatch(skb, nlh, &extack);
	/* -EINTR: a dump was started, it answers for itself */
	if (err == -EINTR)
		return;
	if (err || (nlh->nlmsg_flags & NLM_F_ACK))
		netlink_ack(skb, nlh, err, &extack);
}

/* The socket's input: every message of @skb in turn. */
static void rdma_nl_rcv(struct sk_buff *skb)
{
	while (skb->len >= nlmsg_total_size(0)) {
		struct nlmsghdr *nlh = nlmsg_hdr(skb);
		u32 len;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || skb->len < nlh->nlmsg_len)
			return;
		rdma_nl_rcv_one(skb, nlh);
		len = min_t(u32, NLMSG_ALIGN(nlh->nlmsg_len), skb->len);
		skb_pull(skb, len);
	}
}

/* ---- Sending ------------------------------------------------------------- */

/**
 * ibnl_put_msg() - Start a netlink message of an RDMA client
 * @skb: the buffer to add the message to
 * @nlh: receives the new message header
 * @seq: sequence number
 * @len: payload length to reserve
 * @client: RDMA_NL_* client index
 * @op: the client's operation
 * @flags: netlink flags (NLM_F_*)
 *
 * Context: Any context.
 * Return: the reserved payload, or NULL (*@nlh NULL too) if @skb is full.
 */
void *ibnl_put_msg(struct sk_buff *skb, struct nlmsghdr **nlh, int seq,
		   int len, int client, int op, int flags)
{
	*nlh = nlmsg_put(skb, 0, seq, RDMA_NL_GET_TYPE(client, op), len, flags);
	return *nlh ? nlmsg_data(*nlh) : NULL;
}
EXPORT_SYMBOL(ibnl_put_msg);

/**
 * ibnl_put_attr() - Append an attribute to a message, or drop the message
 * @skb: the buffer holding the message
 * @nlh: the message, from ibnl_put_msg()
 * @len: length of @data
 * @data: the attribute's payload
 * @type: the attribute type
 *
 * When @skb has no room, the whole message at @nlh is taken out again.
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE.
 */
int ibnl_put_attr(struct sk_buff *skb, struct nlmsghdr *nlh,
		  int len, void *data, int type)
{
	if (!nla_put(skb, type, len, data))
		return 0;
	nlmsg_cancel(skb, nlh);
	return -EMSGSIZE;
}
EXPORT_SYMBOL(ibnl_put_attr);

static int rdma_nl_send(struct net *net, struct sk_buff *skb, u32 pid,
			int nonblock)
{
	int ret = netlink_unicast(rdma_nl_sock(net), skb, pid, nonblock);

	return ret < 0 ? ret : 0;
}

/**
 * rdma_nl_unicast() - Send a message to one user-space socket
 * @net: the namespace whose RDMA socket sends
 * @skb: the message; always consumed
 * @pid: netlink port id of the receiver
 *
 * Does not wait when the receiver's queue is full.
 *
 * Context: Any context that may allocate with GFP_ATOMIC.
 * Return: 0 or a negative errno (-EAGAIN when the receiver is full).
 */
int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 pid)
{
	return rdma_nl_send(net, skb, pid, MSG_DONTWAIT);
}
EXPORT_SYMBOL(rdma_nl_unicast);

/**
 * rdma_nl_unicast_wait() - Send a message to one socket, waiting for room
 * @net: the namespace whose RDMA socket sends
 * @skb: the message; always consumed
 * @pid: netlink port id of the receiver
 *
 * Blocks for up to the socket's send timeout when the receiver is full.
 *
 * Context: Process context, may sleep.
 * Return: 0 or a negative errno.
 */
int rdma_nl_unicast_wait(struct net *net, struct sk_buff *skb, __u32 pid)
{
	return rdma_nl_send(net, skb, pid, 0);
}
EXPORT_SYMBOL(rdma_nl_unicast_wait);

/**
 * rdma_nl_multicast() - Send a message to a multicast group
 * @net: the namespace whose RDMA socket sends
 * @skb: the message; always consumed
 * @group: RDMA_NL_GROUP_*
 * @flags: allocation flags for the copies
 *
 * Context: Any context that @flags allows.
 * Return: 0, -ESRCH if nobody listens, or another negative errno.
 */
int rdma_nl_multicast(struct net *net, struct sk_buff *skb,
		      unsigned int group, gfp_t flags)
{
	return nlmsg_multicast(rdma_nl_sock(net), skb, 0, group, flags);
}
EXPORT_SYMBOL(rdma_nl_multicast);

/**
 * rdma_nl_chk_listeners() - Whether a multicast group has listeners
 * @group: RDMA_NL_GROUP_*
 *
 * Only the initial namespace is asked: the clients that multicast (iWARP
 * port mapper, SA path queries) live there.
 *
 * Context: Any context.
 * Return: true when at least one socket listens on @group.
 */
bool rdma_nl_chk_listeners(unsigned int group)
{
	return netlink_has_listeners(rdma_nl_sock(&init_net), group);
}
EXPORT_SYMBOL(rdma_nl_chk_listeners);

/* ---- Per-namespace sockets and module setup ------------------------------ */

static int __net_init rdma_nl_net_init(struct net *net)
{
	struct rdma_nl_net *rnet = net_generic(net, rdma_nl_net_id);
	struct netlink_kernel_cfg cfg = { .input = rdma_nl_rcv };

	rnet->sk = netlink_kernel_create(net, NETLINK_RDMA, &cfg);
	if (!rnet->sk)
		return -ENOMEM;
	/* bounds rdma_nl_unicast_wait() */
	rnet->sk->sk_sndtimeo = 10 * HZ;
	return 0;
}

static void __net_exit rdma_nl_net_exit(struct net *net)
{
	struct rdma_nl_net *rnet = net_generic(net, rdma_nl_net_id);

	netlink_kernel_release(rnet->sk);
	rnet->sk = NULL;
}

static struct pernet_operations rdma_nl_net_ops = {
	.init	= rdma_nl_net_init,
	.exit	= rdma_nl_net_exit,
	.id	= &rdma_nl_net_id,
	.size	= sizeof(struct rdma_nl_net),
};

/* Client table first, then a socket in every namespace. */
int rdma_nl_init(void)
{
	unsigned int i;

	for (i = 0; i < RDMA_NL_NUM_CLIENTS; i++)
		init_rwsem(&rdma_nl_clients[i].sem);
	return register_pernet_subsys(&rdma_nl_net_ops);
}

void rdma_nl_exit(void)
{
	unsigned int i;

	unregister_pernet_subsys(&rdma_nl_net_ops);
	for (i = 0; i < RDMA_NL_NUM_CLIENTS; i++)
		if (rdma_nl_clients[i].ops)
			pr_warn("RDMA netlink client %u still registered at unload\n",
				i);
}

MODULE_ALIAS_NET_PF_PROTO(PF_NETLINK, NETLINK_RDMA);
