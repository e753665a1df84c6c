/* SPDX-License-Identifier: GPL-2.0-only */
/* NETLINK_RDMA in the kernel: client callback tables, sending helpers and rdma link types. */
#ifndef RDMAOOT_RDMA_RDMA_NETLINK_H
#define RDMAOOT_RDMA_RDMA_NETLINK_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/netlink.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include <uapi/rdma/rdma_netlink.h>

struct net;
struct net_device;
struct netlink_callback;
struct nlmsghdr;
struct sk_buff;

/* Sizes of nldev string attributes. */
enum {
	RDMA_NLDEV_ATTR_EMPTY_STRING		= 1,
	RDMA_NLDEV_ATTR_ENTRY_STRLEN		= 16,
	RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE	= 32,
};

/* ---- Clients ------------------------------------------------------------- */

/* Bits of rdma_nl_cbs.flags. */
enum rdma_nl_flags {
	/* Only callers with CAP_NET_ADMIN may run this operation. */
	RDMA_NL_ADMIN_PERM	= 1 << 0,
};

/*
 * One operation of a netlink client. A client registers an array of these
 * indexed by its operation numbers; either callback may be NULL.
 */
struct rdma_nl_cbs {
	int (*doit)(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack);
	int (*dump)(struct sk_buff *skb, struct netlink_callback *nlcb);
	u8 flags;
};

/*
 * Mark a module as the provider of netlink client @_index so that a request
 * for it autoloads the module. The alias needs the number spelled out
 * (@_val); the assertion keeps it in step with the uapi enum.
 */
#define MODULE_ALIAS_RDMA_NETLINK(_index, _val)				\
	static_assert((_index) == (_val),				\
		      "RDMA netlink client index does not match");	\
	MODULE_ALIAS("rdma-netlink-subsys-" __stringify(_val))

/*
 * Install the operation table of client @index (RDMA_NL_*). The table must
 * stay valid until rdma_nl_unregister(@index) returns.
 */
void rdma_nl_register(unsigned int index,
		      const struct rdma_nl_cbs cb_table[]);
void rdma_nl_unregister(unsigned int index);

/* ---- Building and sending messages --------------------------------------- */

/*
 * Start a message for @client/@op in @skb; returns its payload area, or
 * NULL if @skb has no room. *@nlh receives the new header.
 */
void *ibnl_put_msg(struct sk_buff *skb, struct nlmsghdr **nlh, int seq,
		   int len, int client, int op, int flags);

/* Append one attribute to the message at @nlh: 0 or a negative errno. */
int ibnl_put_attr(struct sk_buff *skb, struct nlmsghdr *nlh,
		  int len, void *data, int type);

/*
 * Send @skb to the socket with port id @pid in @net; the _wait variant
 * blocks (and retries once) when the receiver is full. Both consume @skb.
 */
int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 pid);
int rdma_nl_unicast_wait(struct net *net, struct sk_buff *skb, __u32 pid);

/* Send @skb to multicast group @group in @net; consumes @skb. */
int rdma_nl_multicast(struct net *net, struct sk_buff *skb,
		      unsigned int group, gfp_t flags);

/* Whether anyone listens on multicast group @group right now. */
bool rdma_nl_chk_listeners(unsigned int group);

/* ---- Link types ("rdma link add NAME type TYPE netdev NDEV") ------------- */

/* A software device type that can be created on top of a net device. */
struct rdma_link_ops {
	struct list_head list;
	const char *type;
	int (*newlink)(const char *ibdev_name, struct net_device *ndev);
};

void rdma_link_register(struct rdma_link_ops *ops);
void rdma_link_unregister(struct rdma_link_ops *ops);

/* Module aliases so "rdma link add ... type T" and clients can autoload. */
#define MODULE_ALIAS_RDMA_LINK(type) MODULE_ALIAS("rdma-link-" type)
#define MODULE_ALIAS_RDMA_CLIENT(type) MODULE_ALIAS("rdma-client-" type)

#endif /* RDMAOOT_RDMA_RDMA_NETLINK_H */
