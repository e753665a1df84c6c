/* SPDX-License-Identifier: GPL-2.0-only */
/* iWARP port mapper client: talks to the userspace iwpmd over RDMA netlink to map TCP ports. */
#ifndef RDMAOOT_RDMA_IW_PORTMAP_H
#define RDMAOOT_RDMA_IW_PORTMAP_H

#include <linux/socket.h>
#include <linux/netlink.h>

#define IWPM_ULIBNAME_SIZE	32
#define IWPM_DEVNAME_SIZE	32
#define IWPM_IFNAME_SIZE	16
#define IWPM_IPADDR_SIZE	16

/* Error codes exchanged with the port mapper daemon. */
enum {
	IWPM_INVALID_NLMSG_ERR = 10,
	IWPM_CREATE_MAPPING_ERR,
	IWPM_DUPLICATE_MAPPING_ERR,
	IWPM_UNKNOWN_MAPPING_ERR,
	IWPM_CLIENT_DEV_INFO_ERR,
	IWPM_USER_LIB_INFO_ERR,
	IWPM_REMOTE_QUERY_REJECT
};

struct iwpm_dev_data {
	char dev_name[IWPM_DEVNAME_SIZE];
	char if_name[IWPM_IFNAME_SIZE];
};

/* A local/remote address pair and its mapped counterparts; @flags: IW_F_*. */
struct iwpm_sa_data {
	struct sockaddr_storage loc_addr;
	struct sockaddr_storage mapped_loc_addr;
	struct sockaddr_storage rem_addr;
	struct sockaddr_storage mapped_rem_addr;
	u32 flags;
};

/* ---- Client lifetime -------------------------------------------------------- */

/* @nl_client identifies the netlink client (RDMA_NL_IWCM). */
int iwpm_init(u8 nl_client);
int iwpm_exit(u8 nl_client);
/* Whether a port mapper daemon has registered. */
int iwpm_valid_pid(void);

/* ---- Requests to the daemon ------------------------------------------------- */

int iwpm_register_pid(struct iwpm_dev_data *pm_msg, u8 nl_client);
int iwpm_add_mapping(struct iwpm_sa_data *pm_msg, u8 nl_client);
int iwpm_add_and_query_mapping(struct iwpm_sa_data *pm_msg, u8 nl_client);
int iwpm_remove_mapping(struct sockaddr_storage *local_addr, u8 nl_client);

/* ---- Netlink handlers for the daemon's messages ----------------------------- */

int iwpm_register_pid_cb(struct sk_buff *skb, struct netlink_callback *cb);
int iwpm_add_mapping_cb(struct sk_buff *skb, struct netlink_callback *cb);
int iwpm_add_and_query_mapping_cb(struct sk_buff *skb,
				  struct netlink_callback *cb);
int iwpm_remote_info_cb(struct sk_buff *skb, struct netlink_callback *cb);
int iwpm_mapping_error_cb(struct sk_buff *skb, struct netlink_callback *cb);
int iwpm_mapping_info_cb(struct sk_buff *skb, struct netlink_callback *cb);
int iwpm_ack_mapping_info_cb(struct sk_buff *skb, struct netlink_callback *cb);
int iwpm_hello_cb(struct sk_buff *skb, struct netlink_callback *cb);

/* ---- Local mapping cache ---------------------------------------------------- */

/* The remote's real address for a mapped connection, as the daemon reported it. */
int iwpm_get_remote_info(struct sockaddr_storage *mapped_loc_addr,
			 struct sockaddr_storage *mapped_rem_addr,
			 struct sockaddr_storage *remote_addr, u8 nl_client);
int iwpm_create_mapinfo(struct sockaddr_storage *local_addr,
			struct sockaddr_storage *mapped_addr, u8 nl_client,
			u32 map_flags);
int iwpm_remove_mapinfo(struct sockaddr_storage *local_addr,
			struct sockaddr_storage *mapped_addr);

#endif /* RDMAOOT_RDMA_IW_PORTMAP_H */
