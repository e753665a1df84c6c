/* SPDX-License-Identifier: GPL-2.0-only */
/* What the nldev files (the RDMA_NL_NLDEV client) share with each other and with KUnit. */
#ifndef RDMAOOT_CORE_NETLINK_NLDEV_H
#define RDMAOOT_CORE_NETLINK_NLDEV_H

#include <linux/netlink.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

/* Attribute types and lengths every nldev request is checked against. */
extern const struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX];

/* What a command needs from its request: the @needs of nldev_req_parse(). */
enum nldev_need {
	/* RDMA_NLDEV_ATTR_DEV_INDEX of a registered device; held in .dev */
	NLDEV_NEED_DEV		= 1 << 0,
	/* RDMA_NLDEV_ATTR_PORT_INDEX, a port of that device; in .port */
	NLDEV_NEED_PORT		= 1 << 1,
	/* the port index may be left out (.port 0); checked when present */
	NLDEV_MAY_PORT		= 1 << 2,
	/* the device index may be left out (.dev NULL); looked up when present */
	NLDEV_MAY_DEV		= 1 << 3,
};

/**
 * struct nldev_req - one parsed nldev request
 * @net: the namespace of the requesting socket
 * @extack: where to say what was wrong; may be NULL
 * @admin: the sender has CAP_NET_ADMIN (shows keys of MRs and PDs)
 * @dev: the device of the request, held, when NLDEV_NEED_DEV was asked
 *	 (or NLDEV_MAY_DEV and the request names one)
 * @port: the port of the request, or 0
 * @tb: the attributes, indexed by type
 */
struct nldev_req {
	struct net *net;
	struct netlink_ext_ack *extack;
	bool admin;
	struct ib_device *dev;
	u32 port;
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
};

struct nldev_req *nldev_req_new(struct net *net, const struct sk_buff *from,
				struct netlink_ext_ack *extack);
void nldev_req_free(struct nldev_req *req);
int nldev_req_run(struct sk_buff *skb, const struct nlmsghdr *nlh,
		  struct netlink_ext_ack *extack, unsigned int needs,
		  int (*fn)(struct nldev_req *req));
int nldev_req_parse(struct nldev_req *req, const struct nlmsghdr *nlh,
		    unsigned int needs);
void nldev_req_release(struct nldev_req *req);

/* Fills the attributes of one reply message from a request. */
typedef int (*nldev_fill_fn)(struct sk_buff *msg, struct nldev_req *req);

struct nlmsghdr *nldev_msg_start(struct sk_buff *msg, u32 portid, u32 seq,
				 u8 cmd, int flags);
struct sk_buff *nldev_reply_build(struct nldev_req *req, u32 portid, u32 seq,
				  u8 cmd, nldev_fill_fn fill);
int nldev_reply_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		     struct netlink_ext_ack *extack, unsigned int needs,
		     u8 cmd, nldev_fill_fn fill);
int nldev_dump_devices(struct sk_buff *skb, struct netlink_callback *cb,
		       u8 cmd, nldev_fill_fn fill);
int nldev_put_handle(struct sk_buff *msg, struct ib_device *dev);

/* core/netlink/nldev_dev.c: devices, ports, system settings. */
int nldev_dev_fill(struct sk_buff *msg, struct nldev_req *req);
int nldev_port_fill(struct sk_buff *msg, struct nldev_req *req);
int nldev_dev_set(struct nldev_req *req);
int nldev_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		   struct netlink_ext_ack *extack);
int nldev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		   struct netlink_ext_ack *extack);
int nldev_port_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack);
int nldev_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_sys_fill(struct sk_buff *msg, struct nldev_req *req);
int nldev_sys_set(struct nldev_req *req);
int nldev_sys_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int nldev_sys_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
/* Whether non-privileged users may use privileged Q_Keys (SYS_SET). */
bool rdma_nl_get_privileged_qkey(void);

/* core/netlink/nldev_chardev.c: a client's character device. */
int nldev_get_chardev_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack);

/* core/netlink/nldev_link.c: link types, NEWLINK and DELLINK. */
const struct rdma_link_ops *nldev_link_lookup(const char *type);
int nldev_link_add(struct nldev_req *req);
int nldev_link_del(struct nldev_req *req);
int nldev_newlink_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int nldev_dellink_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);

/* core/netlink/nldev_res.c: resource summaries and per-object dumps. */
int nldev_res_summary_fill(struct sk_buff *msg, struct nldev_req *req);
int nldev_res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int nldev_res_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_qp_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_cq_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_mr_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_pd_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_cm_id_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* core/netlink/nldev_stat.c: the default hardware counters of a port. */
int nldev_stat_port_fill(struct sk_buff *msg, struct nldev_req *req);
int nldev_stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack);

#endif /* RDMAOOT_CORE_NETLINK_NLDEV_H */
