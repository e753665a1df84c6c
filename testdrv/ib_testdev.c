// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_testdev: a minimal RDMA driver for the integration tests (IB and RoCE
 * devices, no data path).
 */

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

/*
 * Two kinds of device, both registered through ib_core as a real driver
 * would register them:
 *
 *  - "ibtest%d", nr_ib of them at load: one InfiniBand port, always
 *    ACTIVE, with a LID, a small P_Key table and a GID table read through
 *    query_gid;
 *  - RoCE devices made by "rdma link add NAME type testdev netdev IFNAME":
 *    one Ethernet port bound to the net device, RoCE v1 and v2, GIDs kept
 *    by the core's GID cache (add_gid/del_gid accept everything). They go
 *    on "rdma link delete" and when their net device unregisters.
 *
 * The verbs create objects and do nothing with them: poll_cq finds no
 * completions, receive requests are accepted and never complete (no
 * packet ever arrives; the MAD layer posts its QP0/QP1 rings and frees
 * them when the QPs go), send requests are refused. Every device has three
 * per-port hardware counters that move on each read.
 *
 * ib_unregister_driver() acts on every device of a driver id. QLogic's
 * qib is PCI hardware that never exists in a QEMU guest and that this
 * stack does not ship, so its id is borrowed (the KUnit mock has mthca's,
 * rxe and siw their own).
 */
#define TESTDEV_DRIVER_ID	RDMA_DRIVER_QIB

#define TESTDEV_MAX_IB		16
#define TESTDEV_IB_GIDS		4
#define TESTDEV_ROCE_GIDS	32
#define TESTDEV_FIRST_LID	0x10
#define TESTDEV_SM_LID		1
/* Locally administered EUI-64s for the IB devices' node GUIDs. */
#define TESTDEV_GUID_BASE	0x0200000000ab0000ULL
#define TESTDEV_SUBNET_PREFIX	0xfe80000000000000ULL

static unsigned int nr_ib = 1;
module_param(nr_ib, uint, 0444);
MODULE_PARM_DESC(nr_ib, "InfiniBand test devices to create at load (default 1, at most 16)");

/* The IB devices' P_Key table: the full default partition and a few more. */
static const u16 testdev_pkeys[] = { 0xffff, 0x8001, 0x8002, 0x7fff };

/**
 * struct testdev - one device of the driver
 * @ibdev: the core's part, first as ib_alloc_device() wants
 * @ndev: RoCE only, the net device of port 1; the port holds the reference
 *	  (ib_device_set_netdev()) for as long as the device is registered
 * @next_qpn: the last QP number handed out
 * @nr: IB only, the instance number (LID and GUID derive from it)
 */
struct testdev {
	struct ib_device	ibdev;
	struct net_device	*ndev;
	atomic_t		next_qpn;
	unsigned int		nr;
};

static struct testdev *to_testdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct testdev, ibdev);
}

static bool testdev_is_roce(struct ib_device *ibdev)
{
	return to_testdev(ibdev)->ndev;
}

/* ---- Device and port queries --------------------------------------------- */

static int testdev_query_device(struct ib_device *ibdev,
				struct ib_device_attr *attr,
				struct ib_udata *uhw)
{
	attr->vendor_id = 0xffffff;
	attr->vendor_part_id = 0x7e57;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = 1024;
	attr->max_qp_wr = 1024;
	attr->max_send_sge = 8;
	attr->max_recv_sge = 8;
	attr->max_sge_rd = 8;
	attr->max_cq = 1024;
	attr->max_cqe = 4096;
	attr->max_mr = 1024;
	attr->max_pd = 1024;
	attr->max_pkeys = ARRAY_SIZE(testdev_pkeys);
	/* "rdma link delete" may remove what "rdma link add" made */
	if (testdev_is_roce(ibdev))
		attr->kernel_cap_flags |= IBK_ALLOW_USER_UNREG;
	return 0;
}

static void testdev_port_common(struct ib_port_attr *attr)
{
	attr->max_mtu = IB_MTU_4096;
	attr->max_msg_sz = 1U << 31;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_EDR;
	attr->max_vl_num = 1;
}

static void testdev_port_ib(struct testdev *tdev, struct ib_port_attr *attr)
{
	attr->state = IB_PORT_ACTIVE;
	attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	attr->active_mtu = IB_MTU_4096;
	attr->lid = TESTDEV_FIRST_LID + tdev->nr;
	attr->sm_lid = TESTDEV_SM_LID;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->gid_tbl_len = TESTDEV_IB_GIDS;
	attr->pkey_tbl_len = ARRAY_SIZE(testdev_pkeys);
}

/* A RoCE port is as up as its net device. */
static void testdev_port_roce(struct testdev *tdev, struct ib_port_attr *attr)
{
	struct net_device *ndev = tdev->ndev;

	if (netif_running(ndev) && netif_carrier_ok(ndev)) {
		attr->state = IB_PORT_ACTIVE;
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		attr->state = IB_PORT_DOWN;
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	attr->active_mtu = ib_mtu_int_to_enum(READ_ONCE(ndev->mtu));
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->gid_tbl_len = TESTDEV_ROCE_GIDS;
	attr->pkey_tbl_len = 1;
}

static int testdev_query_port(struct ib_device *ibdev, u32 port,
			      struct ib_port_attr *attr)
{
	struct testdev *tdev = to_testdev(ibdev);

	testdev_port_common(attr);
	if (tdev->ndev)
		testdev_port_roce(tdev, attr);
	else
		testdev_port_ib(tdev, attr);
	return 0;
}

static int testdev_get_port_immutable(struct ib_device *ibdev, u32 port,
				      struct ib_port_immutable *immutable)
{
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	if (testdev_is_roce(ibdev)) {
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE |
			RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
		immutable->gid_tbl_len = TESTDEV_ROCE_GIDS;
		immutable->pkey_tbl_len = 1;
	} else {
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
		immutable->gid_tbl_len = TESTDEV_IB_GIDS;
		immutable->pkey_tbl_len = ARRAY_SIZE(testdev_pkeys);
	}
	return 0;
}

static enum rdma_link_layer testdev_get_link_layer(struct ib_device *ibdev,
						   u32 port)
{
	return testdev_is_roce(ibdev) ? IB_LINK_LAYER_ETHERNET :
					IB_LINK_LAYER_INFINIBAND;
}

static int testdev_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			      u16 *pkey)
{
	unsigned int len = testdev_is_roce(ibdev) ? 1 : ARRAY_SIZE(testdev_pkeys);

	if (index >= len)
		return -EINVAL;
	*pkey = testdev_pkeys[index];
	return 0;
}

/* IB ports: entry 0 is the link-local GID of the node GUID, the rest empty. */
static int testdev_query_gid(struct ib_device *ibdev, u32 port, int index,
			     union ib_gid *gid)
{
	if (index < 0 || index >= TESTDEV_IB_GIDS)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	if (index == 0) {
		gid->global.subnet_prefix = cpu_to_be64(TESTDEV_SUBNET_PREFIX);
		gid->global.interface_id = ibdev->node_guid;
	}
	return 0;
}

/* RoCE ports: the core keeps the table; there is no hardware to program. */
static int testdev_add_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

static int testdev_del_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

/* ---- Objects ------------------------------------------------------------- */

struct testdev_pd {
	struct ib_pd ibpd;
};

struct testdev_cq {
	struct ib_cq ibcq;
};

/* A QP only remembers the state the core moved it to, for query_qp. */
struct testdev_qp {
	struct ib_qp ibqp;
	enum ib_qp_state state;
};

static int testdev_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int testdev_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int testdev_create_cq(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			     struct ib_udata *udata)
{
	if (attr->cqe < 1 || attr->cqe > cq->device->attrs.max_cqe)
		return -EINVAL;
	cq->cqe = attr->cqe;
	return 0;
}

static int testdev_destroy_cq(struct ib_cq *cq, struct ib_udata *udata)
{
	return 0;
}

/* Nothing is ever sent or received, so nothing ever completes. */
static int testdev_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc)
{
	return 0;
}

static int testdev_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags)
{
	return 0;
}

static int testdev_create_qp(struct ib_qp *qp, struct ib_qp_init_attr *init,
			     struct ib_udata *udata)
{
	struct testdev *tdev = to_testdev(qp->device);

	switch (init->qp_type) {
	case IB_QPT_SMI:
	case IB_QPT_GSI:
		/* the special QPs have fixed numbers 0 and 1 */
		qp->qp_num = init->qp_type;
		return 0;
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		qp->qp_num = atomic_inc_return(&tdev->next_qpn);
		return 0;
	default:
		ibdev_dbg(qp->device, "QP type %d not supported\n",
			  init->qp_type);
		return -EOPNOTSUPP;
	}
}

static int testdev_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr,
			     int mask, struct ib_udata *udata)
{
	if (mask & IB_QP_STATE)
		container_of(qp, struct testdev_qp, ibqp)->state = attr->qp_state;
	return 0;
}

static int testdev_query_qp(struct ib_qp *qp, struct ib_qp_attr *attr,
			    int mask, struct ib_qp_init_attr *init)
{
	attr->qp_state = container_of(qp, struct testdev_qp, ibqp)->state;
	attr->cur_qp_state = attr->qp_state;
	init->qp_type = qp->qp_type;
	return 0;
}

static int testdev_destroy_qp(struct ib_qp *qp, struct ib_udata *udata)
{
	return 0;
}

static int testdev_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			     const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

/* Accepted and forgotten: the consumer owns its buffers until it destroys the QP. */
static int testdev_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr)
{
	return 0;
}

/* MRs belong to the driver: allocated here, freed in dereg_mr. */
static struct ib_mr *testdev_get_dma_mr(struct ib_pd *pd, int access)
{
	struct ib_mr *mr = kzalloc(sizeof(*mr), GFP_KERNEL);

	if (!mr)
		return ERR_PTR(-ENOMEM);
	return mr;
}

static struct ib_mr *testdev_reg_user_mr(struct ib_pd *pd, u64 start,
					 u64 length, u64 virt, int access,
					 struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int testdev_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	kfree(mr);
	return 0;
}

/* ---- Hardware counters --------------------------------------------------- */

/* Each read adds 1, 2 and 3 to the counters, so every read differs. */
static const struct rdma_stat_desc testdev_stat_descs[] = {
	{ .name = "test_reads" },
	{ .name = "test_rx_packets" },
	{ .name = "test_tx_packets" },
};

static struct rdma_hw_stats *testdev_alloc_port_stats(struct ib_device *ibdev,
						      u32 port)
{
	return rdma_alloc_hw_stats_struct(testdev_stat_descs,
					  ARRAY_SIZE(testdev_stat_descs),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int testdev_get_hw_stats(struct ib_device *ibdev,
				struct rdma_hw_stats *stats, u32 port,
				int index)
{
	int i;

	for (i = 0; i < stats->num_counters; i++)
		stats->value[i] += i + 1;
	return stats->num_counters;
}

/* ---- Device attributes the core may change ------------------------------ */

/* Only the node description is writable (sysfs node_desc). */
static int testdev_modify_device(struct ib_device *ibdev, int mask,
				 struct ib_device_modify *attr)
{
	if (mask & ~IB_DEVICE_MODIFY_NODE_DESC)
		return -EOPNOTSUPP;
	if (mask & IB_DEVICE_MODIFY_NODE_DESC)
		memcpy(ibdev->node_desc, attr->node_desc, IB_DEVICE_NODE_DESC_MAX);
	return 0;
}

/* ---- Lifetime ------------------------------------------------------------ */

/* Every device unregisters through the core, which then frees it. */
static void testdev_dealloc_driver(struct ib_device *ibdev)
{
	ibdev_dbg(ibdev, "freed\n");
}

static const struct ib_device_ops testdev_ops = {
	.owner			= THIS_MODULE,
	.driver_id		= TESTDEV_DRIVER_ID,
	.uverbs_abi_ver		= 1,
	.dealloc_driver		= testdev_dealloc_driver,
	.query_device		= testdev_query_device,
	.query_port		= testdev_query_port,
	.get_port_immutable	= testdev_get_port_immutable,
	.get_link_layer		= testdev_get_link_layer,
	.query_pkey		= testdev_query_pkey,
	.query_gid		= testdev_query_gid,
	.add_gid		= testdev_add_gid,
	.del_gid		= testdev_del_gid,
	.alloc_pd		= testdev_alloc_pd,
	.dealloc_pd		= testdev_dealloc_pd,
	.create_cq		= testdev_create_cq,
	.destroy_cq		= testdev_destroy_cq,
	.poll_cq		= testdev_poll_cq,
	.req_notify_cq		= testdev_req_notify_cq,
	.create_qp		= testdev_create_qp,
	.modify_qp		= testdev_modify_qp,
	.query_qp		= testdev_query_qp,
	.destroy_qp		= testdev_destroy_qp,
	.post_send		= testdev_post_send,
	.post_recv		= testdev_post_recv,
	.get_dma_mr		= testdev_get_dma_mr,
	.reg_user_mr		= testdev_reg_user_mr,
	.dereg_mr		= testdev_dereg_mr,
	.alloc_hw_port_stats	= testdev_alloc_port_stats,
	.get_hw_stats		= testdev_get_hw_stats,
	.modify_device		= testdev_modify_device,
	INIT_RDMA_OBJ_SIZE(ib_pd, testdev_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, testdev_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, testdev_qp, ibqp),
};

static struct testdev *testdev_alloc(void)
{
	struct testdev *tdev = ib_alloc_device(testdev, ibdev);

	if (!tdev)
		return NULL;
	tdev->ibdev.phys_port_cnt = 1;
	tdev->ibdev.node_type = RDMA_NODE_IB_CA;
	tdev->ibdev.num_comp_vectors = 1;
	/* the special QPs take 0 and 1 */
	atomic_set(&tdev->next_qpn, 1);
	ib_set_device_ops(&tdev->ibdev, &testdev_ops);
	return tdev;
}

/* ---- InfiniBand devices made at load ------------------------------------- */

static int testdev_ib_add(unsigned int nr)
{
	struct testdev *tdev = testdev_alloc();
	int ret;

	if (!tdev)
		return -ENOMEM;
	tdev->nr = nr;
	tdev->ibdev.node_guid = cpu_to_be64(TESTDEV_GUID_BASE + nr);
	ret = ib_register_device(&tdev->ibdev, "ibtest%d", NULL);
	if (ret) {
		pr_warn("cannot register InfiniBand device %u: %d\n", nr, ret);
		ib_dealloc_device(&tdev->ibdev);
	}
	return ret;
}

/* ---- RoCE devices made by "rdma link add" -------------------------------- */

static int testdev_newlink(const char *name, struct net_device *ndev)
{
	struct ib_device *exists;
	struct testdev *tdev;
	int ret;

	if (ndev->type != ARPHRD_ETHER) {
		pr_info("%s: %s is not an Ethernet device\n", name, ndev->name);
		return -EINVAL;
	}
	exists = ib_device_get_by_netdev(ndev, TESTDEV_DRIVER_ID);
	if (exists) {
		ib_device_put(exists);
		pr_info("%s: %s already has a testdev device\n", name,
			ndev->name);
		return -EEXIST;
	}

	tdev = testdev_alloc();
	if (!tdev)
		return -ENOMEM;
	addrconf_addr_eui48((unsigned char *)&tdev->ibdev.node_guid,
			    ndev->dev_addr);
	ret = ib_device_set_netdev(&tdev->ibdev, ndev, 1);
	if (ret)
		goto err_free;
	tdev->ndev = ndev;
	ret = ib_register_device(&tdev->ibdev, name, NULL);
	if (ret)
		goto err_free;
	return 0;

err_free:
	/* freeing the device also drops its net device */
	ib_dealloc_device(&tdev->ibdev);
	return ret;
}

static struct rdma_link_ops testdev_link_ops = {
	.type		= "testdev",
	.newlink	= testdev_newlink,
};

/* A RoCE device goes with its net device (RTNL held: unregister later). */
static int testdev_netdev_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	ibdev = ib_device_get_by_netdev(ndev, TESTDEV_DRIVER_ID);
	if (!ibdev)
		return NOTIFY_DONE;
	ib_unregister_device_queued(ibdev);
	ib_device_put(ibdev);
	return NOTIFY_OK;
}

static struct notifier_block testdev_netdev_nb = {
	.notifier_call = testdev_netdev_event,
};

/* ---- Module -------------------------------------------------------------- */

static int __init testdev_init(void)
{
	unsigned int i;
	int ret;

	if (nr_ib > TESTDEV_MAX_IB) {
		pr_warn("nr_ib=%u is more than %u\n", nr_ib, TESTDEV_MAX_IB);
		return -EINVAL;
	}
	for (i = 0; i < nr_ib; i++) {
		ret = testdev_ib_add(i);
		if (ret)
			goto err_ib;
	}
	ret = register_netdevice_notifier(&testdev_netdev_nb);
	if (ret)
		goto err_ib;
	rdma_link_register(&testdev_link_ops);
	return 0;

err_ib:
	ib_unregister_driver(TESTDEV_DRIVER_ID);
	return ret;
}

static void __exit testdev_exit(void)
{
	rdma_link_unregister(&testdev_link_ops);
	unregister_netdevice_notifier(&testdev_netdev_nb);
	/* waits for unregistrations the notifier queued, too */
	ib_unregister_driver(TESTDEV_DRIVER_ID);
}

module_init(testdev_init);
module_exit(testdev_exit);

MODULE_ALIAS_RDMA_LINK("testdev");
MODULE_DESCRIPTION("Minimal RDMA driver (InfiniBand and RoCE test devices) for the integration tests");
MODULE_LICENSE("GPL");
