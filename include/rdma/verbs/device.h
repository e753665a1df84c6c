/* SPDX-License-Identifier: GPL-2.0-only */
/* struct ib_device, its operations table, clients and registration. */
#ifndef RDMAOOT_RDMA_VERBS_DEVICE_H
#define RDMAOOT_RDMA_VERBS_DEVICE_H

#ifndef RDMAOOT_IB_VERBS_PARTS
#error "include <rdma/ib_verbs.h>, not its parts"
#endif

/* Types this file only points to. */
struct attribute_group;
struct cpumask;
struct ifla_vf_guid;
struct ifla_vf_info;
struct ifla_vf_stats;
struct module;
struct net_device;
struct scatterlist;
struct sk_buff;
struct sockaddr;
struct vm_area_struct;
struct ib_cq_init_attr;
struct ib_device_modify;
struct ib_dm_alloc_attr;
struct ib_dm_mr_attr;
struct ib_event;
struct ib_event_handler;
struct ib_gid_attr;
struct ib_grh;
struct ib_mad;
struct ib_mr_status;
struct ib_port_attr;
struct ib_port_modify;
struct ib_qp_attr;
struct ib_qp_init_attr;
struct ib_recv_wr;
struct ib_send_wr;
struct ib_sge;
struct ib_srq_attr;
struct ib_srq_init_attr;
struct ib_wc;
union ib_gid;
struct rdma_ah_attr;
struct rdma_ah_init_attr;
struct rdma_counter;
struct rdma_hw_stats;
struct hw_stats_device_data;
struct rdma_restrack_root;
struct rdma_link_ops;
struct rdma_cm_id;
struct iw_cm_id;
struct iw_cm_conn_param;
struct uverbs_attr_bundle;
struct uapi_definition;
struct ib_client_nl_info;

/* ---- The driver's operations --------------------------------------------- */

/*
 * What a driver implements. It fills one of these (usually const, at file
 * scope) and hands it to ib_set_device_ops(), which copies each non-NULL
 * member into ib_device.ops unless an earlier table already set it; so a
 * driver can pass a specific table first and a common one after. A NULL
 * member means the verb is not supported. The order puts the fast-path calls first so they share
 * cache lines; the setup-time calls come after.
 */
struct ib_device_ops {
	struct module *owner;
	enum rdma_driver_id driver_id;
	u32 uverbs_abi_ver;
	unsigned int uverbs_no_driver_id_binding:1;

	/*
	 * Extra sysfs attributes of the device and of each port. Kept for
	 * drivers that already have them; new settings belong in netlink.
	 */
	const struct attribute_group *device_group;
	const struct attribute_group **port_groups;

	/* -- data path -- */
	int (*post_send)(struct ib_qp *qp, const struct ib_send_wr *send_wr,
			 const struct ib_send_wr **bad_send_wr);
	int (*post_recv)(struct ib_qp *qp, const struct ib_recv_wr *recv_wr,
			 const struct ib_recv_wr **bad_recv_wr);
	void (*drain_rq)(struct ib_qp *qp);
	void (*drain_sq)(struct ib_qp *qp);
	int (*poll_cq)(struct ib_cq *cq, int num_entries, struct ib_wc *wc);
	int (*peek_cq)(struct ib_cq *cq, int wc_cnt);
	int (*req_notify_cq)(struct ib_cq *cq, enum ib_cq_notify_flags flags);
	int (*post_srq_recv)(struct ib_srq *srq,
			     const struct ib_recv_wr *recv_wr,
			     const struct ib_recv_wr **bad_recv_wr);
	/* answer a MAD for the device's own agents; returns ib_mad_result */
	int (*process_mad)(struct ib_device *device, int process_mad_flags,
			   u32 port_num, const struct ib_wc *in_wc,
			   const struct ib_grh *in_grh,
			   const struct ib_mad *in_mad, struct ib_mad *out_mad,
			   size_t *out_mad_size, u16 *out_mad_pkey_index);

	/* -- device and port queries -- */
	int (*query_device)(struct ib_device *device,
			    struct ib_device_attr *device_attr,
			    struct ib_udata *udata);
	int (*modify_device)(struct ib_device *device, int device_modify_mask,
			     struct ib_device_modify *device_modify);
	void (*get_dev_fw_str)(struct ib_device *device, char *str);
	const struct cpumask *(*get_vector_affinity)(struct ib_device *ibdev,
						     int comp_vector);
	int (*query_port)(struct ib_device *device, u32 port_num,
			  struct ib_port_attr *port_attr);
	int (*modify_port)(struct ib_device *device, u32 port_num,
			   int port_modify_mask,
			   struct ib_port_modify *port_modify);
	/* required; called while the device registers */
	int (*get_port_immutable)(struct ib_device *device, u32 port_num,
				  struct ib_port_immutable *immutable);
	enum rdma_link_layer (*get_link_layer)(struct ib_device *device,
					       u32 port_num);
	/*
	 * The net_device of a port, with a reference taken (dev_hold), or
	 * NULL. Must return NULL before that netdev finishes unregistering.
	 */
	struct net_device *(*get_netdev)(struct ib_device *device,
					 u32 port_num);
	/*
	 * Create, or describe how to create, a netdev for a ULP such as
	 * IPoIB; -EOPNOTSUPP for an rdma_netdev_t the driver does not offer.
	 */
	struct net_device *(*alloc_rdma_netdev)(
		struct ib_device *device, u32 port_num, enum rdma_netdev_t type,
		const char *name, unsigned char name_assign_type,
		void (*setup)(struct net_device *));
	int (*rdma_netdev_get_params)(struct ib_device *device, u32 port_num,
				      enum rdma_netdev_t type,
				      struct rdma_netdev_alloc_params *params);

	/* -- GID and P_Key tables -- */
	/* IB and iWARP ports only; RoCE GIDs come from the core's GID table */
	int (*query_gid)(struct ib_device *device, u32 port_num, int index,
			 union ib_gid *gid);
	/*
	 * RoCE only: program, or remove, the GID table entry @attr describes.
	 * *@context is the driver's per-entry data; it may allocate it in
	 * add_gid and must free it in del_gid. May run concurrently for
	 * different ports.
	 */
	int (*add_gid)(const struct ib_gid_attr *attr, void **context);
	int (*del_gid)(const struct ib_gid_attr *attr, void **context);
	int (*query_pkey)(struct ib_device *device, u32 port_num, u16 index,
			  u16 *pkey);

	/* -- user contexts -- */
	int (*alloc_ucontext)(struct ib_ucontext *context,
			      struct ib_udata *udata);
	void (*dealloc_ucontext)(struct ib_ucontext *context);
	int (*mmap)(struct ib_ucontext *context, struct vm_area_struct *vma);
	/*
	 * The last reference to an rdma_user_mmap_entry is gone; only the
	 * driver knows what the entry maps, so it releases it here.
	 */
	void (*mmap_free)(struct rdma_user_mmap_entry *entry);
	void (*disassociate_ucontext)(struct ib_ucontext *ibcontext);

	/* -- object create/destroy; the core allocated the object -- */
	int (*alloc_pd)(struct ib_pd *pd, struct ib_udata *udata);
	int (*dealloc_pd)(struct ib_pd *pd, struct ib_udata *udata);
	int (*create_ah)(struct ib_ah *ah, struct rdma_ah_init_attr *attr,
			 struct ib_udata *udata);
	int (*create_user_ah)(struct ib_ah *ah, struct rdma_ah_init_attr *attr,
			      struct ib_udata *udata);
	int (*modify_ah)(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);
	int (*query_ah)(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);
	int (*destroy_ah)(struct ib_ah *ah, u32 flags);
	int (*create_srq)(struct ib_srq *srq,
			  struct ib_srq_init_attr *srq_init_attr,
			  struct ib_udata *udata);
	int (*modify_srq)(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
			  enum ib_srq_attr_mask srq_attr_mask,
			  struct ib_udata *udata);
	int (*query_srq)(struct ib_srq *srq, struct ib_srq_attr *srq_attr);
	int (*destroy_srq)(struct ib_srq *srq, struct ib_udata *udata);
	int (*create_qp)(struct ib_qp *qp, struct ib_qp_init_attr *qp_init_attr,
			 struct ib_udata *udata);
	int (*modify_qp)(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
			 int qp_attr_mask, struct ib_udata *udata);
	int (*query_qp)(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
			int qp_attr_mask, struct ib_qp_init_attr *qp_init_attr);
	int (*destroy_qp)(struct ib_qp *qp, struct ib_udata *udata);
	int (*create_cq)(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			 struct ib_udata *udata);
	int (*modify_cq)(struct ib_cq *cq, u16 cq_count, u16 cq_period);
	int (*destroy_cq)(struct ib_cq *cq, struct ib_udata *udata);
	int (*resize_cq)(struct ib_cq *cq, int cqe, struct ib_udata *udata);
	/*
	 * Destroy in two steps: first stop the CQ producing completions,
	 * keeping its resources; then free them.
	 */
	int (*pre_destroy_cq)(struct ib_cq *cq);
	void (*post_destroy_cq)(struct ib_cq *cq);

	/* -- memory registration -- */
	struct ib_mr *(*get_dma_mr)(struct ib_pd *pd, int mr_access_flags);
	struct ib_mr *(*reg_user_mr)(struct ib_pd *pd, u64 start, u64 length,
				     u64 virt_addr, int mr_access_flags,
				     struct ib_udata *udata);
	struct ib_mr *(*reg_user_mr_dmabuf)(struct ib_pd *pd, u64 offset,
					    u64 length, u64 virt_addr, int fd,
					    int mr_access_flags,
					    struct ib_udata *udata);
	struct ib_mr *(*rereg_user_mr)(struct ib_mr *mr, int flags, u64 start,
				       u64 length, u64 virt_addr,
				       int mr_access_flags, struct ib_pd *pd,
				       struct ib_udata *udata);
	int (*dereg_mr)(struct ib_mr *mr, struct ib_udata *udata);
	struct ib_mr *(*alloc_mr)(struct ib_pd *pd, enum ib_mr_type mr_type,
				  u32 max_num_sg);
	struct ib_mr *(*alloc_mr_integrity)(struct ib_pd *pd,
					    u32 max_num_data_sg,
					    u32 max_num_meta_sg);
	int (*advise_mr)(struct ib_pd *pd,
			 enum ib_uverbs_advise_mr_advice advice, u32 flags,
			 struct ib_sge *sg_list, u32 num_sge,
			 struct uverbs_attr_bundle *attrs);
	/*
	 * Kernel users consume data only after seeing its completion and use
	 * the DMA API properly, so a driver may map kernel MRs with relaxed
	 * ordering where the platform allows it.
	 */
	int (*map_mr_sg)(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
			 unsigned int *sg_offset);
	int (*check_mr_status)(struct ib_mr *mr, u32 check_mask,
			       struct ib_mr_status *mr_status);
	int (*alloc_mw)(struct ib_mw *mw, struct ib_udata *udata);
	int (*dealloc_mw)(struct ib_mw *mw);

	/* -- multicast, XRC, flow steering -- */
	int (*attach_mcast)(struct ib_qp *qp, union ib_gid *gid, u16 lid);
	int (*detach_mcast)(struct ib_qp *qp, union ib_gid *gid, u16 lid);
	int (*alloc_xrcd)(struct ib_xrcd *xrcd, struct ib_udata *udata);
	int (*dealloc_xrcd)(struct ib_xrcd *xrcd, struct ib_udata *udata);
	struct ib_flow *(*create_flow)(struct ib_qp *qp,
				       struct ib_flow_attr *flow_attr,
				       struct ib_udata *udata);
	int (*destroy_flow)(struct ib_flow *flow_id);
	int (*destroy_flow_action)(struct ib_flow_action *action);

	/* -- SR-IOV virtual functions -- */
	int (*set_vf_link_state)(struct ib_device *device, int vf, u32 port,
				 int state);
	int (*get_vf_config)(struct ib_device *device, int vf, u32 port,
			     struct ifla_vf_info *ivf);
	int (*get_vf_stats)(struct ib_device *device, int vf, u32 port,
			    struct ifla_vf_stats *stats);
	int (*get_vf_guid)(struct ib_device *device, int vf, u32 port,
			   struct ifla_vf_guid *node_guid,
			   struct ifla_vf_guid *port_guid);
	int (*set_vf_guid)(struct ib_device *device, int vf, u32 port, u64 guid,
			   int type);

	/* -- WQs and RSS tables, device memory, counters, integrity -- */
	struct ib_wq *(*create_wq)(struct ib_pd *pd,
				   struct ib_wq_init_attr *init_attr,
				   struct ib_udata *udata);
	int (*destroy_wq)(struct ib_wq *wq, struct ib_udata *udata);
	int (*modify_wq)(struct ib_wq *wq, struct ib_wq_attr *attr,
			 u32 wq_attr_mask, struct ib_udata *udata);
	int (*create_rwq_ind_table)(struct ib_rwq_ind_table *ib_rwq_ind_table,
				    struct ib_rwq_ind_table_init_attr *init_attr,
				    struct ib_udata *udata);
	int (*destroy_rwq_ind_table)(struct ib_rwq_ind_table *wq_ind_table);
	struct ib_dm *(*alloc_dm)(struct ib_device *device,
				  struct ib_ucontext *context,
				  struct ib_dm_alloc_attr *attr,
				  struct uverbs_attr_bundle *attrs);
	int (*dealloc_dm)(struct ib_dm *dm, struct uverbs_attr_bundle *attrs);
	struct ib_mr *(*reg_dm_mr)(struct ib_pd *pd, struct ib_dm *dm,
				   struct ib_dm_mr_attr *attr,
				   struct uverbs_attr_bundle *attrs);
	int (*create_counters)(struct ib_counters *counters,
			       struct uverbs_attr_bundle *attrs);
	int (*destroy_counters)(struct ib_counters *counters);
	int (*read_counters)(struct ib_counters *counters,
			     struct ib_counters_read_attr *counters_read_attr,
			     struct uverbs_attr_bundle *attrs);
	int (*map_mr_sg_pi)(struct ib_mr *mr, struct scatterlist *data_sg,
			    int data_sg_nents, unsigned int *data_sg_offset,
			    struct scatterlist *meta_sg, int meta_sg_nents,
			    unsigned int *meta_sg_offset);

	/* -- hardware statistics (sysfs and netlink) -- */
	/*
	 * Allocate and describe the device-wide or per-port counters; the
	 * core owns and frees the result. A lifespan of -1 asks for the
	 * default refresh interval.
	 */
	struct rdma_hw_stats *(*alloc_hw_device_stats)(struct ib_device *device);
	struct rdma_hw_stats *(*alloc_hw_port_stats)(struct ib_device *device,
						     u32 port_num);
	/*
	 * Refresh counter @index, or all of them when @index is
	 * stats->num_counters. Returns @index if just that one was read,
	 * num_counters if all were (a driver may always read all), or a
	 * negative errno.
	 */
	int (*get_hw_stats)(struct ib_device *device,
			    struct rdma_hw_stats *stats, u32 port, int index);
	/* turn an optional counter on or off */
	int (*modify_hw_stat)(struct ib_device *device, u32 port,
			      unsigned int counter_index, bool enable);

	/* -- driver attributes for restrack netlink dumps -- */
	int (*fill_res_mr_entry)(struct sk_buff *msg, struct ib_mr *ibmr);
	int (*fill_res_mr_entry_raw)(struct sk_buff *msg, struct ib_mr *ibmr);
	int (*fill_res_cq_entry)(struct sk_buff *msg, struct ib_cq *ibcq);
	int (*fill_res_cq_entry_raw)(struct sk_buff *msg, struct ib_cq *ibcq);
	int (*fill_res_qp_entry)(struct sk_buff *msg, struct ib_qp *ibqp);
	int (*fill_res_qp_entry_raw)(struct sk_buff *msg, struct ib_qp *ibqp);
	int (*fill_res_cm_id_entry)(struct sk_buff *msg, struct rdma_cm_id *id);

	/* -- lifecycle -- */
	/* the device is registered; clients have not been told yet */
	int (*enable_driver)(struct ib_device *dev);
	/* run from ib_dealloc_device() to free the driver's part */
	void (*dealloc_driver)(struct ib_device *dev);

	/* -- iWARP connection management, used by iw_cm -- */
	void (*iw_add_ref)(struct ib_qp *qp);
	void (*iw_rem_ref)(struct ib_qp *qp);
	struct ib_qp *(*iw_get_qp)(struct ib_device *device, int qpn);
	int (*iw_connect)(struct iw_cm_id *cm_id,
			  struct iw_cm_conn_param *conn_param);
	int (*iw_accept)(struct iw_cm_id *cm_id,
			 struct iw_cm_conn_param *conn_param);
	int (*iw_reject)(struct iw_cm_id *cm_id, const void *pdata,
			 u8 pdata_len);
	int (*iw_create_listen)(struct iw_cm_id *cm_id, int backlog);
	int (*iw_destroy_listen)(struct iw_cm_id *cm_id);

	/* -- QP statistics counters (rdma_counter.h) -- */
	/* a counter->id of 0 asks the driver to allocate a hardware counter */
	int (*counter_bind_qp)(struct rdma_counter *counter, struct ib_qp *qp);
	/* move the QP back to the port's default counter */
	int (*counter_unbind_qp)(struct ib_qp *qp);
	int (*counter_dealloc)(struct rdma_counter *counter);
	struct rdma_hw_stats *(*counter_alloc_stats)(
		struct rdma_counter *counter);
	int (*counter_update_stats)(struct rdma_counter *counter);
	/* driver attributes of an MR for "rdma stat" dumps */
	int (*fill_stat_mr_entry)(struct sk_buff *msg, struct ib_mr *ibmr);

	/* -- misc -- */
	int (*query_ucontext)(struct ib_ucontext *context,
			      struct uverbs_attr_bundle *attrs);
	/* NUMA node to allocate objects on; only rdmavt sets it */
	int (*get_numa_node)(struct ib_device *dev);

	/* sizes of the driver's objects, see INIT_RDMA_OBJ_SIZE */
	DECLARE_RDMA_OBJ_SIZE(ib_ah);
	DECLARE_RDMA_OBJ_SIZE(ib_counters);
	DECLARE_RDMA_OBJ_SIZE(ib_cq);
	DECLARE_RDMA_OBJ_SIZE(ib_mw);
	DECLARE_RDMA_OBJ_SIZE(ib_pd);
	DECLARE_RDMA_OBJ_SIZE(ib_qp);
	DECLARE_RDMA_OBJ_SIZE(ib_rwq_ind_table);
	DECLARE_RDMA_OBJ_SIZE(ib_srq);
	DECLARE_RDMA_OBJ_SIZE(ib_ucontext);
	DECLARE_RDMA_OBJ_SIZE(ib_xrcd);
};

/* ---- The device ---------------------------------------------------------- */

/*
 * The struct device behind an RDMA device in one network namespace: the
 * device's own in the namespace it lives in, plus one "compat" copy per
 * other namespace when namespaces are shared.
 */
struct ib_core_device {
	/* first: ib_device overlays dev with this struct in a union */
	struct device		dev;
	possible_net_t		rdma_net;
	struct kobject		*ports_kobj;
	struct list_head	port_list;
	struct ib_device	*owner;
};

/*
 * An RDMA device. Drivers embed it at the start of their own device
 * struct (see ib_alloc_device()), fill in ops and the fields below them,
 * then call ib_register_device().
 */
struct ib_device {
	/* for the core's DMA mapping only; others use the ib_dma_* helpers */
	struct device		*dma_device;
	struct ib_device_ops	ops;
	char			name[IB_DEVICE_NAME_MAX];
	struct rcu_head		rcu_head;

	/* event_handler_rwsem guards event_handler_list */
	struct list_head	event_handler_list;
	struct rw_semaphore	event_handler_rwsem;

	/* serializes QP event callbacks against open/close of shared QPs */
	spinlock_t		qp_open_list_lock;

	/* client_data_rwsem guards client_data, indexed by client id */
	struct rw_semaphore	client_data_rwsem;
	struct xarray		client_data;
	struct mutex		unregistration_lock;

	/* guards the cached GIDs, P_Keys, subnet prefix and LMC */
	rwlock_t		cache_lock;
	/* indexed by port number, rdma_start_port() .. rdma_end_port() */
	struct ib_port_data	*port_data;

	int			num_comp_vectors;

	union {
		struct device		dev;
		struct ib_core_device	coredev;
	};

	/*
	 * NULL-terminated sysfs groups: the core's device attributes, the
	 * driver's ops.device_group, the hardware counters.
	 */
	const struct attribute_group *groups[4];
	u8			hw_stats_attr_index;

	u64			uverbs_cmd_mask;

	char			node_desc[IB_DEVICE_NODE_DESC_MAX];
	__be64			node_guid;
	u32			local_dma_lkey;
	u16			is_switch:1;
	/* supports the kernel verbs; set by the core, not by drivers */
	u16			kverbs_provider:1;
	/* ask for adaptive CQ moderation (DIM) on the device's CQs */
	u16			use_cq_dim:1;
	u8			node_type;	/* enum rdma_node_type */
	u32			phys_port_cnt;
	struct ib_device_attr	attrs;
	struct hw_stats_device_data *hw_stats_data;

#ifdef CONFIG_CGROUP_RDMA
	struct rdmacg_device	cg_device;
#endif

	u32			index;

	/* cq_pools_lock guards the shared-CQ pools, one per poll context */
	spinlock_t		cq_pools_lock;
	struct list_head	cq_pools[IB_POLL_LAST_POOL_TYPE + 1];

	struct rdma_restrack_root *res;

	const struct uapi_definition *driver_def;

	/* non-zero while registered; unregistration waits for it to drop */
	refcount_t		refcount;
	struct completion	unreg_completion;
	struct work_struct	unregistration_work;

	const struct rdma_link_ops *link_ops;

	/* compat_devs holds one ib_core_device per other net namespace */
	struct mutex		compat_devs_mutex;
	struct xarray		compat_devs;

	/* iWARP: interface name the iw_cm gives the port mapper; flags */
	char			iw_ifname[IFNAMSIZ];
	u32			iw_driver_flags;
	u32			lag_flags;
};

/* ---- Allocating driver-sized objects ------------------------------------- */

/*
 * Zeroed memory for an object of @dev, on the device's NUMA node if the
 * caller wants that and the driver says which node (get_numa_node).
 */
static inline void *rdma_zalloc_obj(struct ib_device *dev, size_t size,
				    gfp_t gfp, bool is_numa_aware)
{
	if (!is_numa_aware || !dev->ops.get_numa_node)
		return kzalloc(size, gfp);
	return kzalloc_node(size, gfp, dev->ops.get_numa_node(dev));
}

/*
 * Allocate a struct @ib_type at the size the driver declared for it with
 * INIT_RDMA_OBJ_SIZE, i.e. with room for the driver's wrapper.
 */
#define rdma_zalloc_drv_obj_gfp(ib_dev, ib_type, gfp)			\
	((struct ib_type *)rdma_zalloc_obj(ib_dev,			\
		(ib_dev)->ops.size_##ib_type, gfp, false))

#define rdma_zalloc_drv_obj_numa(ib_dev, ib_type)			\
	((struct ib_type *)rdma_zalloc_obj(ib_dev,			\
		(ib_dev)->ops.size_##ib_type, GFP_KERNEL, true))

#define rdma_zalloc_drv_obj(ib_dev, ib_type)				\
	rdma_zalloc_drv_obj_gfp(ib_dev, ib_type, GFP_KERNEL)

/* ---- Clients ------------------------------------------------------------- */

/*
 * A kernel module that wants to know about every RDMA device (the MAD
 * layer, the CMs, IPoIB, ...). add() runs for each device present and
 * registered later; remove() when the device or the client goes away.
 */
struct ib_client {
	const char *name;
	int (*add)(struct ib_device *ibdev);
	void (*remove)(struct ib_device *ibdev, void *client_data);
	void (*rename)(struct ib_device *dev, void *client_data);
	int (*get_nl_info)(struct ib_device *ibdev, void *client_data,
			   struct ib_client_nl_info *res);
	int (*get_global_nl_info)(struct ib_client_nl_info *res);

	/*
	 * For clients that run a net_device over RDMA (IPoIB): find the one
	 * on @dev/@port that matches @pkey, @gid and @addr, so the RDMA CM
	 * can route a request to it. Returns it with a reference held, or
	 * NULL.
	 */
	struct net_device *(*get_net_dev_by_params)(
			struct ib_device *dev,
			u32 port,
			u16 pkey,
			const union ib_gid *gid,
			const struct sockaddr *addr,
			void *client_data);

	/* core bookkeeping: users of the client and its slot number */
	refcount_t		uses;
	struct completion	uses_zero;
	u32			client_id;

	/* also wants devices that do not support the kernel verbs */
	u8			no_kverbs_req:1;
};

/* ---- Device allocation and registration (core/device.c) ------------------ */

struct ib_device *_ib_alloc_device(size_t size);

/*
 * Allocate a driver's device struct @drv_struct whose first member
 * @member is the struct ib_device. Evaluates to a @drv_struct pointer, or
 * NULL on failure; building fails if @member is not first (and, through
 * container_of(), if it is not a struct ib_device).
 */
#define ib_alloc_device(drv_struct, member)				\
	container_of(_ib_alloc_device(sizeof(struct drv_struct) +	\
			BUILD_BUG_ON_ZERO(offsetof(struct drv_struct,	\
						   member))),		\
		     struct drv_struct, member)

void ib_dealloc_device(struct ib_device *device);

void ib_get_device_fw_str(struct ib_device *device, char *str);

int ib_register_device(struct ib_device *device, const char *name,
		       struct device *dma_device);
void ib_unregister_device(struct ib_device *device);
void ib_unregister_driver(enum rdma_driver_id driver_id);
void ib_unregister_device_and_put(struct ib_device *device);
void ib_unregister_device_queued(struct ib_device *ib_dev);

int ib_register_client(struct ib_client *client);
void ib_unregister_client(struct ib_client *client);

/*
 * The pointer @client stored for @device with ib_set_client_data(). Only
 * valid while the client is attached to the device, i.e. until its
 * remove() callback has returned.
 */
static inline void *ib_get_client_data(struct ib_device *device,
				       struct ib_client *client)
{
	return xa_load(&device->client_data, client->client_id);
}

void ib_set_client_data(struct ib_device *device, struct ib_client *client,
			void *data);
void ib_set_device_ops(struct ib_device *device,
		       const struct ib_device_ops *ops);

/* ---- Mapping device memory to user space (core/ib_core_uverbs.c) --------- */

int rdma_user_mmap_io(struct ib_ucontext *ucontext, struct vm_area_struct *vma,
		      unsigned long pfn, unsigned long size, pgprot_t prot,
		      struct rdma_user_mmap_entry *entry);
int rdma_user_mmap_entry_insert(struct ib_ucontext *ucontext,
				struct rdma_user_mmap_entry *entry,
				size_t length);
int rdma_user_mmap_entry_insert_range(struct ib_ucontext *ucontext,
				      struct rdma_user_mmap_entry *entry,
				      size_t length, u32 min_pgoff,
				      u32 max_pgoff);

/* Insert @entry at exactly page offset @pgoff, or fail. */
static inline int
rdma_user_mmap_entry_insert_exact(struct ib_ucontext *ucontext,
				  struct rdma_user_mmap_entry *entry,
				  size_t length, u32 pgoff)
{
	u32 first = pgoff, last = pgoff;

	return rdma_user_mmap_entry_insert_range(ucontext, entry, length,
						 first, last);
}

struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get_pgoff(struct ib_ucontext *ucontext,
			       unsigned long pgoff);
struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get(struct ib_ucontext *ucontext,
			 struct vm_area_struct *vma);
void rdma_user_mmap_entry_put(struct rdma_user_mmap_entry *entry);

void rdma_user_mmap_entry_remove(struct rdma_user_mmap_entry *entry);

/* ---- Driver-private command data (struct ib_udata) ----------------------- */

/* Copy @len bytes of the command's input in; 0 or -EFAULT. */
static inline int ib_copy_from_udata(void *dest, struct ib_udata *udata,
				     size_t len)
{
	if (copy_from_user(dest, udata->inbuf, len))
		return -EFAULT;
	return 0;
}

/* Copy @len bytes of response out to user space; 0 or -EFAULT. */
static inline int ib_copy_to_udata(struct ib_udata *udata, void *src,
				   size_t len)
{
	if (copy_to_user(udata->outbuf, src, len))
		return -EFAULT;
	return 0;
}

/*
 * True if the @len user bytes at @p can be read and are all zero: how a
 * driver checks that fields it does not know about were left clear.
 * Spans longer than USHRT_MAX are refused (false).
 */
static inline bool ib_is_buffer_cleared(const void __user *p, size_t len)
{
	if (len > USHRT_MAX)
		return false;
	return check_zeroed_user(p, len) > 0;
}

/* ib_is_buffer_cleared() on @len bytes of the input, from @offset on. */
static inline bool ib_is_udata_cleared(struct ib_udata *udata, size_t offset,
				       size_t len)
{
	const u8 __user *in = udata->inbuf;

	return ib_is_buffer_cleared(in + offset, len);
}

/* ---- Asynchronous events and port queries (core/device.c) ---------------- */

void ib_register_event_handler(struct ib_event_handler *event_handler);
void ib_unregister_event_handler(struct ib_event_handler *event_handler);
void ib_dispatch_event(const struct ib_event *event);

int ib_query_port(struct ib_device *device,
		  u32 port_num, struct ib_port_attr *port_attr);

enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *device,
					       u32 port_num);

#endif /* RDMAOOT_RDMA_VERBS_DEVICE_H */
