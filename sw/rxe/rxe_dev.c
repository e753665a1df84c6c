// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_dev.c - soft-RoCE devices: creation on a net device, registration,
 * device and port queries, the device list.
 */

#include <linux/if_arp.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include "rxe_dev.h"
#include "rxe_net.h"
#include "rxe_ops.h"
#include "rxe_verbs.h"
#include "rxe_qp.h"
#include "rxe_mr.h"

/*
 * Every registered rxe device, for the receive path's lookup by net device
 * (RCU readers) and the notifier (under rxe_dev_lock). rxe_dev_lock
 * protects changes to the list; rxe_dev_add_lock serialises whole creations
 * so two "rdma link add" on one net device cannot both pass the duplicate
 * check. The add lock is never taken under RTNL, and RTNL is never taken
 * under rxe_dev_lock.
 */
static LIST_HEAD(rxe_dev_list);
static DEFINE_MUTEX(rxe_dev_lock);
static DEFINE_MUTEX(rxe_dev_add_lock);

#define RXE_NODE_DESC	"rxe"

/* ---- The device list ----------------------------------------------------- */

/**
 * rxe_dev_from_ndev_rcu() - The rxe device on top of a net device
 * @ndev: the net device
 *
 * The device stays valid until the caller leaves its RCU read-side
 * section; dealloc_driver waits for that before freeing it.
 *
 * Context: rcu_read_lock() held (or rxe_dev_lock).
 * Return: the device, or NULL when @ndev has none.
 */
struct rxe_dev *rxe_dev_from_ndev_rcu(struct net_device *ndev)
{
	struct rxe_dev *rxe;

	list_for_each_entry_rcu(rxe, &rxe_dev_list, list,
				lockdep_is_held(&rxe_dev_lock))
		if (rxe->ndev == ndev)
			return rxe;
	return NULL;
}

/**
 * rxe_dev_with_ndev() - Run a function on the rxe device of a net device
 * @ndev: the net device
 * @fn:   what to do; may sleep, must not take RTNL
 *
 * @fn runs with rxe_dev_lock held, which keeps the device from being
 * freed (dealloc_driver takes the lock to leave the list).
 *
 * Context: Process context, may sleep; RTNL may be held.
 * Return: true when @ndev has an rxe device and @fn ran.
 */
bool rxe_dev_with_ndev(struct net_device *ndev, void (*fn)(struct rxe_dev *))
{
	struct rxe_dev *rxe;

	mutex_lock(&rxe_dev_lock);
	rxe = rxe_dev_from_ndev_rcu(ndev);
	if (rxe)
		fn(rxe);
	mutex_unlock(&rxe_dev_lock);
	return rxe;
}

/*
 * Publish a registered device. A net device that began unregistering
 * before the device was on the list was missed by the notifier: the device
 * then goes at once.
 */
static void rxe_dev_publish(struct rxe_dev *rxe)
{
	mutex_lock(&rxe_dev_lock);
	list_add_tail_rcu(&rxe->list, &rxe_dev_list);
	if (READ_ONCE(rxe->ndev->reg_state) != NETREG_REGISTERED)
		ib_unregister_device_queued(&rxe->ib_dev);
	mutex_unlock(&rxe_dev_lock);
}

/* ---- Device and port queries ---------------------------------------------- */

static int rxe_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	*attr = to_rdev(ibdev)->attr;
	return 0;
}

static int rxe_modify_device(struct ib_device *ibdev, int mask,
			     struct ib_device_modify *attr)
{
	/* only the node description (sysfs node_desc) can be set */
	if (mask & ~IB_DEVICE_MODIFY_NODE_DESC)
		return -EOPNOTSUPP;
	if (mask & IB_DEVICE_MODIFY_NODE_DESC)
		memcpy(ibdev->node_desc, attr->node_desc,
		       sizeof(ibdev->node_desc));
	return 0;
}

static int rxe_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct rxe_dev *rxe = to_rdev(ibdev);
	int ret;

	/* the core cleared *attr: every counter and IB-only field is 0 */
	attr->max_mtu = IB_MTU_4096;
	attr->gid_tbl_len = RXE_MAX_GIDS;
	attr->pkey_tbl_len = RXE_MAX_PKEYS;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = RXE_MAX_MSG_SIZE;
	attr->max_vl_num = 1;

	spin_lock_bh(&rxe->port_lock);
	attr->state = rxe->port_state;
	attr->active_mtu = rxe->port_mtu;
	spin_unlock_bh(&rxe->port_lock);
	attr->phys_mtu = ib_mtu_enum_to_int(attr->active_mtu);
	attr->phys_state = attr->state == IB_PORT_ACTIVE ?
			   IB_PORT_PHYS_STATE_LINK_UP :
			   IB_PORT_PHYS_STATE_DISABLED;

	ret = ib_get_eth_speed(ibdev, port, &attr->active_speed,
			       &attr->active_width);
	/* a net device on its way out has no speed; report the port anyway */
	if (ret == -ENODEV)
		ret = 0;
	return ret;
}

/* Nothing about a soft port can be changed; accept what asks for nothing. */
static int rxe_modify_port(struct ib_device *ibdev, u32 port, int mask,
			   struct ib_port_modify *attr)
{
	if (mask & ~(IB_PORT_SHUTDOWN | IB_PORT_INIT_TYPE |
		     IB_PORT_RESET_QKEY_CNTR))
		return -EOPNOTSUPP;
	return 0;
}

static int rxe_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	/* RoCE v2 only, like the inbox driver */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->pkey_tbl_len = RXE_MAX_PKEYS;
	immutable->gid_tbl_len = RXE_MAX_GIDS;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static int rxe_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey)
{
	if (index >= RXE_MAX_PKEYS)
		return -EINVAL;
	*pkey = RXE_DEFAULT_PKEY;
	return 0;
}

static enum rdma_link_layer rxe_get_link_layer(struct ib_device *ibdev,
					       u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/* ---- Lifetime ------------------------------------------------------------- */

/*
 * Frees what rxe_dev_add() set up after ib_alloc_device(). Runs at the end
 * of unregistration, or from ib_dealloc_device() when registration failed
 * (then the device may be only partly set up and was never listed).
 */
static void rxe_dev_dealloc(struct ib_device *ibdev)
{
	struct rxe_dev *rxe = to_rdev(ibdev);

	mutex_lock(&rxe_dev_lock);
	if (!list_empty(&rxe->list))
		list_del_rcu(&rxe->list);
	mutex_unlock(&rxe_dev_lock);
	/* receive paths that found the device are done with it */
	synchronize_rcu();

	WARN_ON(!xa_empty(&rxe->qp_xa));
	WARN_ON(!xa_empty(&rxe->key_xa));
	WARN_ON(!xa_empty(&rxe->ah_xa));
	xa_destroy(&rxe->ah_xa);
	xa_destroy(&rxe->qp_xa);
	xa_destroy(&rxe->key_xa);
	/* groups left by QPs that never detached (none when ULPs clean up) */
	rxe_mcast_cleanup(rxe);
	free_percpu(rxe->stats);
	if (rxe->sock)
		rxe_net_sock_put(rxe->sock);
	if (rxe->ndev)
		netdev_put(rxe->ndev, &rxe->ndev_tracker);
	ibdev_dbg(ibdev, "freed\n");
}

static const struct ib_device_ops rxe_dev_ops = {
	.owner			= THIS_MODULE,
	.driver_id		= RDMA_DRIVER_RXE,
	.uverbs_abi_ver		= 2,

	.dealloc_driver		= rxe_dev_dealloc,
	.query_device		= rxe_query_device,
	.modify_device		= rxe_modify_device,
	.query_port		= rxe_query_port,
	.modify_port		= rxe_modify_port,
	.get_port_immutable	= rxe_get_port_immutable,
	.query_pkey		= rxe_query_pkey,
	.get_link_layer		= rxe_get_link_layer,
	.alloc_hw_port_stats	= rxe_counters_alloc,
	.get_hw_stats		= rxe_counters_get,

	.alloc_ucontext		= rxe_ucontext_alloc,
	.dealloc_ucontext	= rxe_ucontext_dealloc,
	.mmap			= rxe_mmap,
	.alloc_pd		= rxe_pd_alloc,
	.dealloc_pd		= rxe_pd_dealloc,
	.create_ah		= rxe_ah_create,
	.create_user_ah		= rxe_ah_create,
	.modify_ah		= rxe_ah_modify,
	.query_ah		= rxe_ah_query,
	.destroy_ah		= rxe_ah_destroy,
	.create_cq		= rxe_cq_create,
	.destroy_cq		= rxe_cq_destroy,
	.resize_cq		= rxe_cq_resize,
	.poll_cq		= rxe_cq_poll,
	.peek_cq		= rxe_cq_peek,
	.req_notify_cq		= rxe_cq_req_notify,
	.create_srq		= rxe_srq_create,
	.modify_srq		= rxe_srq_modify,
	.query_srq		= rxe_srq_query,
	.destroy_srq		= rxe_srq_destroy,
	.post_srq_recv		= rxe_srq_post_recv,
	.get_dma_mr		= rxe_mr_get_dma,
	.alloc_mr		= rxe_mr_alloc,
	.map_mr_sg		= rxe_mr_map_sg,
	.dereg_mr		= rxe_mr_dereg,
	.reg_user_mr		= rxe_mr_reg_user,
	.rereg_user_mr		= rxe_mr_rereg_user,
	.alloc_mw		= rxe_mw_alloc,
	.dealloc_mw		= rxe_mw_dealloc,
	.attach_mcast		= rxe_mcast_attach,
	.detach_mcast		= rxe_mcast_detach,
	.create_qp		= rxe_qp_create,
	.modify_qp		= rxe_qp_modify,
	.query_qp		= rxe_qp_query,
	.destroy_qp		= rxe_qp_destroy,
	.post_send		= rxe_post_send,
	.post_recv		= rxe_post_recv,

	INIT_RDMA_OBJ_SIZE(ib_ah, rxe_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, rxe_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, rxe_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, rxe_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, rxe_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, rxe_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_mw, rxe_mw, ibmw),
};

/* What query_device answers: the limits of rxe_param.h. */
static void rxe_dev_attr_init(struct rxe_dev *rxe)
{
	struct ib_device_attr *a = &rxe->attr;

	a->vendor_id = RXE_VENDOR_ID;
	a->sys_image_guid = rxe->ib_dev.node_guid;
	a->max_mr_size = RXE_MAX_MR_SIZE;
	a->page_size_cap = RXE_PAGE_SIZE_CAP;
	a->max_qp = RXE_MAX_QP;
	a->max_qp_wr = RXE_MAX_QP_WR;
	/* no IB_DEVICE_LOCAL_DMA_LKEY: the core makes a DMA MR per PD */
	a->device_cap_flags = IB_DEVICE_BAD_PKEY_CNTR |
			      IB_DEVICE_BAD_QKEY_CNTR |
			      IB_DEVICE_RC_RNR_NAK_GEN |
			      IB_DEVICE_SRQ_RESIZE |
			      IB_DEVICE_MEM_MGT_EXTENSIONS |
			      IB_DEVICE_MEM_WINDOW |
			      IB_DEVICE_MEM_WINDOW_TYPE_2B;
	/* made by "rdma link add", so "rdma link delete" may remove it */
	a->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	a->max_send_sge = RXE_MAX_SGE;
	a->max_recv_sge = RXE_MAX_SGE;
	a->max_sge_rd = RXE_MAX_SGE;
	a->max_cq = RXE_MAX_CQ;
	a->max_cqe = RXE_MAX_CQE;
	a->max_mr = RXE_MAX_MR;
	a->max_mw = RXE_MAX_MW;
	a->max_pd = RXE_MAX_PD;
	a->max_qp_rd_atom = RXE_MAX_RD_ATOMIC;
	a->max_qp_init_rd_atom = RXE_MAX_RD_ATOMIC;
	a->max_res_rd_atom = RXE_MAX_RD_ATOMIC * RXE_MAX_QP;
	a->atomic_cap = IB_ATOMIC_HCA;
	a->max_mcast_grp = RXE_MAX_MCAST_GRP;
	a->max_mcast_qp_attach = RXE_MAX_MCAST_QP_ATTACH;
	a->max_total_mcast_qp_attach = RXE_MAX_MCAST_GRP *
				       RXE_MAX_MCAST_QP_ATTACH;
	a->max_ah = RXE_MAX_AH;
	a->max_srq = RXE_MAX_SRQ;
	a->max_srq_wr = RXE_MAX_SRQ_WR;
	a->max_srq_sge = RXE_MAX_SGE;
	a->max_fast_reg_page_list_len = RXE_MAX_FMR_PAGES;
	a->max_pkeys = RXE_MAX_PKEYS;
	a->local_ca_ack_delay = RXE_LOCAL_CA_ACK_DELAY;
}

/* The device's own state: locks, tables, lists, identity, attributes. */
static void rxe_dev_init(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct ib_device *ibdev = &rxe->ib_dev;

	INIT_LIST_HEAD(&rxe->list);
	spin_lock_init(&rxe->port_lock);
	rxe->port_state = IB_PORT_NOP;
	xa_init_flags(&rxe->qp_xa, XA_FLAGS_ALLOC);
	rxe->qpn_next = RXE_QPN_MIN;
	xa_init_flags(&rxe->key_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&rxe->ah_xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	spin_lock_init(&rxe->mcast_lock);
	INIT_LIST_HEAD(&rxe->mcast_list);

	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	addrconf_addr_eui48((unsigned char *)&ibdev->node_guid,
			    ndev->dev_addr);
	strscpy(ibdev->node_desc, RXE_NODE_DESC, sizeof(ibdev->node_desc));
	/*
	 * The net device's own parent (the PCI or virtio device under it),
	 * when there is one, is ours as well, as siw's is: sysfs's "device"
	 * link of rxe0 then leads to a device whose net/ names the
	 * interface, which is where rdma-core's tests look for it. A
	 * virtual net device (veth, a bond) has none: neither has rxe then.
	 */
	ibdev->dev.parent = ndev->dev.parent;
	ib_set_device_ops(ibdev, &rxe_dev_ops);
	rxe_dev_attr_init(rxe);
}

/*
 * The resources a device holds until dealloc_driver: counters, the UDP
 * sockets of its namespace, its net device. On failure the caller frees
 * the device with ib_dealloc_device(), which releases what was taken.
 */
static int rxe_dev_hold(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct rxe_net_sock *sock;

	rxe->stats = alloc_percpu(struct rxe_stats);
	if (!rxe->stats)
		return -ENOMEM;
	sock = rxe_net_sock_get(dev_net(ndev));
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	rxe->sock = sock;
	netdev_hold(ndev, &rxe->ndev_tracker, GFP_KERNEL);
	rxe->ndev = ndev;
	return 0;
}

/* Refuse net devices an rxe device cannot use; rxe_dev_add_lock held. */
static int rxe_dev_check(struct net_device *ndev, const char *name)
{
	bool exists;

	lockdep_assert_held(&rxe_dev_add_lock);
	if (ndev->type != ARPHRD_ETHER) {
		pr_info("%s: %s is not an Ethernet device\n", name, ndev->name);
		return -EINVAL;
	}
	rcu_read_lock();
	exists = rxe_dev_from_ndev_rcu(ndev);
	rcu_read_unlock();
	if (exists) {
		pr_info("%s: %s already has an rxe device\n", name, ndev->name);
		return -EEXIST;
	}
	return 0;
}

static int rxe_dev_create(struct net_device *ndev, const char *name)
{
	struct rxe_dev *rxe;
	int ret;

	rxe = ib_alloc_device(rxe_dev, ib_dev);
	if (!rxe)
		return -ENOMEM;
	rxe_dev_init(rxe, ndev);
	ret = rxe_dev_hold(rxe, ndev);
	if (ret)
		goto err_dealloc;
	rxe_dev_port_update(rxe);
	ret = ib_device_set_netdev(&rxe->ib_dev, ndev, 1);
	if (ret)
		goto err_dealloc;
	ret = ib_register_device(&rxe->ib_dev, name, NULL);
	if (ret)
		goto err_dealloc;
	rxe_dev_publish(rxe);
	return 0;

err_dealloc:
	ib_dealloc_device(&rxe->ib_dev);
	return ret;
}

/**
 * rxe_dev_add() - Create and register an rxe device on a net device
 * @ndev: an Ethernet net device, held by the caller
 * @ibdev_name: the RDMA device's name
 *
 * The "rxe" link type's newlink. The device holds @ndev and the UDP/4791
 * sockets of @ndev's namespace until it is freed; it goes away with
 * "rdma link delete", when @ndev unregisters, or when the module unloads.
 *
 * Context: Process context, may sleep; not under RTNL.
 * Return: 0; -EINVAL for a net device that is not Ethernet, -EEXIST when
 * @ndev already has an rxe device, or the error of the UDP sockets or of
 * ib_register_device().
 */
int rxe_dev_add(struct net_device *ndev, const char *ibdev_name)
{
	int ret;

	mutex_lock(&rxe_dev_add_lock);
	ret = rxe_dev_check(ndev, ibdev_name);
	if (!ret)
		ret = rxe_dev_create(ndev, ibdev_name);
	mutex_unlock(&rxe_dev_add_lock);
	if (ret && ret != -EEXIST && ret != -EINVAL)
		pr_warn("%s: cannot add an rxe device on %s: %d\n", ibdev_name,
			ndev->name, ret);
	return ret;
}
