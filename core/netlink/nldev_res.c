// SPDX-License-Identifier: GPL-2.0-only
/* nldev resource commands: per-device summaries (RES_GET) and QP/CQ/MR/PD/CM id dumps. */

#include <kunit/visibility.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

#include "netlink/nldev.h"
#include "restrack/restrack.h"

/* ---- Summary (RES_GET) --------------------------------------------------- */

/* What the summary calls each kind; kinds without a name are left out. */
static const char *const nldev_res_names[RDMA_RESTRACK_MAX] = {
	[RDMA_RESTRACK_PD]	= "pd",
	[RDMA_RESTRACK_CQ]	= "cq",
	[RDMA_RESTRACK_QP]	= "qp",
	[RDMA_RESTRACK_CM_ID]	= "cm_id",
	[RDMA_RESTRACK_MR]	= "mr",
	[RDMA_RESTRACK_CTX]	= "ctx",
	[RDMA_RESTRACK_SRQ]	= "srq",
};

static bool nldev_res_details(const struct nldev_req *req)
{
	const struct nlattr *attr = req->tb[RDMA_NLDEV_ATTR_DRIVER_DETAILS];

	return attr && nla_get_u8(attr);
}

static int nldev_res_summary_entry(struct sk_buff *msg, const char *name,
				   u64 count)
{
	struct nlattr *entry;

	entry = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR,
			      count, RDMA_NLDEV_ATTR_PAD)) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}

/**
 * nldev_res_summary_fill() - How many objects of each kind a device has
 * @msg: the message
 * @req: .dev is the device; DRIVER_DETAILS also counts driver-internal ones
 *
 * Context: Process context; the device is held or ib_devices_rwsem is.
 * Return: 0 or -EMSGSIZE.
 */
int nldev_res_summary_fill(struct sk_buff *msg, struct nldev_req *req)
{
	bool details = nldev_res_details(req);
	struct nlattr *table;
	unsigned int type;
	int count;

	if (nldev_put_handle(msg, req->dev))
		return -EMSGSIZE;
	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY);
	if (!table)
		return -EMSGSIZE;
	for (type = 0; type < RDMA_RESTRACK_MAX; type++) {
		if (!nldev_res_names[type])
			continue;
		count = rdma_restrack_count(req->dev, type, details);
		if (nldev_res_summary_entry(msg, nldev_res_names[type], count)) {
			nla_nest_cancel(msg, table);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, table);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nldev_res_summary_fill);

int nldev_res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	return nldev_reply_doit(skb, nlh, extack, NLDEV_NEED_DEV,
				RDMA_NLDEV_CMD_RES_GET, nldev_res_summary_fill);
}

int nldev_res_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_dump_devices(skb, cb, RDMA_NLDEV_CMD_RES_GET,
				  nldev_res_summary_fill);
}

/* ---- Attributes of one object -------------------------------------------- */

/* Who owns it: the kernel module's name, or the user process's pid. */
static int nldev_res_put_owner(struct sk_buff *msg,
			       struct rdma_restrack_entry *res)
{
	pid_t pid;

	if (rdma_is_kernel_res(res))
		return nla_put_string(msg, RDMA_NLDEV_ATTR_RES_KERN_NAME,
				      res->kern_name ?: "");
	/* a task that already exited has no pid to show */
	pid = res->task ? task_pid_vnr(res->task) : 0;
	if (pid)
		return nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PID, pid);
	return 0;
}

static bool nldev_qp_connected(enum ib_qp_type type)
{
	return type == IB_QPT_RC || type == IB_QPT_UC;
}

static bool nldev_qp_migrates(enum ib_qp_type type)
{
	return nldev_qp_connected(type) || type == IB_QPT_XRC_INI ||
	       type == IB_QPT_XRC_TGT;
}

/* What ib_query_qp() says; its results are too big for the stack. */
static int nldev_qp_put_state(struct sk_buff *msg, struct ib_qp *qp)
{
	struct {
		struct ib_qp_attr attr;
		struct ib_qp_init_attr init;
	} *q;
	int ret;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	ret = ib_query_qp(qp, &q->attr, 0, &q->init);
	if (ret == -EOPNOTSUPP) {
		/* a driver without query_qp: list the QP without its state */
		ret = 0;
		goto out;
	}
	if (ret)
		goto out;
	ret = -EMSGSIZE;
	if (nldev_qp_connected(qp->qp_type) &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQPN, q->attr.dest_qp_num) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQ_PSN, q->attr.rq_psn)))
		goto out;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_SQ_PSN, q->attr.sq_psn))
		goto out;
	if (nldev_qp_migrates(qp->qp_type) &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE,
		       q->attr.path_mig_state))
		goto out;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, qp->qp_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, q->attr.qp_state))
		goto out;
	ret = 0;
out:
	kfree(q);
	return ret;
}

/* -EAGAIN: not on the port the request asked about; skipped. */
static int nldev_qp_fill(struct sk_buff *msg, struct rdma_restrack_entry *res,
			 const struct nldev_req *req)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);
	int ret;

	if (req->port && req->port != qp->port)
		return -EAGAIN;
	/* the port is only known once the QP went to INIT */
	if (qp->port && nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, qp->port))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num))
		return -EMSGSIZE;
	if (!rdma_is_kernel_res(res) && qp->pd &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, qp->pd->res.id))
		return -EMSGSIZE;
	if (nldev_res_put_owner(msg, res))
		return -EMSGSIZE;
	ret = nldev_qp_put_state(msg, qp);
	if (ret || !qp->device->ops.fill_res_qp_entry)
		return ret;
	return qp->device->ops.fill_res_qp_entry(msg, qp);
}

static int nldev_cq_fill(struct sk_buff *msg, struct rdma_restrack_entry *res,
			 const struct nldev_req *req)
{
	struct ib_cq *cq = container_of(res, struct ib_cq, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQE, cq->cqe) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_USECNT,
			      atomic_read(&cq->usecnt), RDMA_NLDEV_ATTR_PAD))
		return -EMSGSIZE;
	/* user CQs are polled by user space: no poll context */
	if (rdma_is_kernel_res(res) &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_POLL_CTX, cq->poll_ctx))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, !!cq->dim) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQN, res->id) ||
	    nldev_res_put_owner(msg, res))
		return -EMSGSIZE;
	if (!cq->device->ops.fill_res_cq_entry)
		return 0;
	return cq->device->ops.fill_res_cq_entry(msg, cq);
}

static int nldev_mr_fill(struct sk_buff *msg, struct rdma_restrack_entry *res,
			 const struct nldev_req *req)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);
	struct ib_pd *pd = READ_ONCE(mr->pd);

	/* keys give access to memory: only for the administrator */
	if (req->admin &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RKEY, mr->rkey) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LKEY, mr->lkey)))
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_MRLEN, mr->length,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_MRN, res->id))
		return -EMSGSIZE;
	if (!rdma_is_kernel_res(res) && pd &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, pd->res.id))
		return -EMSGSIZE;
	if (nldev_res_put_owner(msg, res))
		return -EMSGSIZE;
	if (!mr->device->ops.fill_res_mr_entry)
		return 0;
	return mr->device->ops.fill_res_mr_entry(msg, mr);
}

static int nldev_pd_put_keys(struct sk_buff *msg, const struct ib_pd *pd)
{
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY,
			pd->local_dma_lkey))
		return -EMSGSIZE;
	if ((pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY) &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY,
			pd->unsafe_global_rkey))
		return -EMSGSIZE;
	return 0;
}

static int nldev_pd_fill(struct sk_buff *msg, struct rdma_restrack_entry *res,
			 const struct nldev_req *req)
{
	struct ib_pd *pd = container_of(res, struct ib_pd, res);

	if (req->admin && nldev_pd_put_keys(msg, pd))
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_USECNT,
			      atomic_read(&pd->usecnt), RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, res->id))
		return -EMSGSIZE;
	if (!rdma_is_kernel_res(res) && pd->uobject && pd->uobject->context &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CTXN,
			pd->uobject->context->res.id))
		return -EMSGSIZE;
	return nldev_res_put_owner(msg, res);
}

/* An address of a CM id as 6.1 puts it: the whole sockaddr_storage. */
static int nldev_cm_id_put_addr(struct sk_buff *msg, int type,
				const struct sockaddr_storage *addr)
{
	if (!addr || !addr->ss_family)
		return 0;
	return nla_put(msg, type, sizeof(*addr), addr);
}

/*
 * An rdma_cm id, as rdma_cm's reader describes it (restrack.h): the QP
 * number and type only once the id has a QP, the addresses once they
 * have a family. -EAGAIN: not on the port the request asked about.
 */
static int nldev_cm_id_fill(struct sk_buff *msg,
			    struct rdma_restrack_entry *res,
			    const struct nldev_req *req)
{
	struct rdma_restrack_cm_id_info info;

	if (!rdma_restrack_cm_id_read(res, &info) ||
	    (req->port && req->port != info.port))
		return -EAGAIN;
	if (info.port &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, info.port))
		return -EMSGSIZE;
	if (info.qp_num &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, info.qp_num) ||
	     nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, info.qp_type)))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PS, info.ps) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, info.state) ||
	    nldev_cm_id_put_addr(msg, RDMA_NLDEV_ATTR_RES_SRC_ADDR, info.src) ||
	    nldev_cm_id_put_addr(msg, RDMA_NLDEV_ATTR_RES_DST_ADDR, info.dst) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CM_IDN, res->id) ||
	    nldev_res_put_owner(msg, res))
		return -EMSGSIZE;
	if (!info.device->ops.fill_res_cm_id_entry)
		return 0;
	return info.device->ops.fill_res_cm_id_entry(msg, info.id);
}

/* ---- Dumps of one kind --------------------------------------------------- */

/**
 * struct nldev_res_kind - how one kind of object is dumped
 * @cmd: the RDMA_NLDEV_CMD_RES_*_GET command
 * @table: attribute nesting all entries of a message
 * @entry: attribute nesting one object
 * @fill: the object's attributes; -EAGAIN skips it
 */
struct nldev_res_kind {
	u8 cmd;
	u16 table;
	u16 entry;
	int (*fill)(struct sk_buff *msg, struct rdma_restrack_entry *res,
		    const struct nldev_req *req);
};

static const struct nldev_res_kind nldev_res_kinds[RDMA_RESTRACK_MAX] = {
	[RDMA_RESTRACK_QP] = { RDMA_NLDEV_CMD_RES_QP_GET, RDMA_NLDEV_ATTR_RES_QP,
			       RDMA_NLDEV_ATTR_RES_QP_ENTRY, nldev_qp_fill },
	[RDMA_RESTRACK_CQ] = { RDMA_NLDEV_CMD_RES_CQ_GET, RDMA_NLDEV_ATTR_RES_CQ,
			       RDMA_NLDEV_ATTR_RES_CQ_ENTRY, nldev_cq_fill },
	[RDMA_RESTRACK_MR] = { RDMA_NLDEV_CMD_RES_MR_GET, RDMA_NLDEV_ATTR_RES_MR,
			       RDMA_NLDEV_ATTR_RES_MR_ENTRY, nldev_mr_fill },
	[RDMA_RESTRACK_PD] = { RDMA_NLDEV_CMD_RES_PD_GET, RDMA_NLDEV_ATTR_RES_PD,
			       RDMA_NLDEV_ATTR_RES_PD_ENTRY, nldev_pd_fill },
	[RDMA_RESTRACK_CM_ID] = { RDMA_NLDEV_CMD_RES_CM_ID_GET,
				  RDMA_NLDEV_ATTR_RES_CM_ID,
				  RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY,
				  nldev_cm_id_fill },
};

static int nldev_res_entry(struct sk_buff *skb, const struct nldev_res_kind *k,
			   struct rdma_restrack_entry *res,
			   const struct nldev_req *req)
{
	struct nlattr *entry = nla_nest_start_noflag(skb, k->entry);
	int ret;

	if (!entry)
		return -EMSGSIZE;
	ret = k->fill(skb, res, req);
	if (ret) {
		nla_nest_cancel(skb, entry);
		return ret;
	}
	nla_nest_end(skb, entry);
	return 0;
}

/*
 * Add the objects of @type from id cb->args[0] on, as many as fit, and move
 * args[0] past them. The table's lock is dropped while one is filled in
 * (drivers and ib_query_qp() may sleep); the reference keeps it alive.
 */
static int nldev_res_entries(struct sk_buff *skb, struct netlink_callback *cb,
			     const struct nldev_req *req,
			     enum rdma_restrack_type type, unsigned int *filled)
{
	struct rdma_restrack_root *rt = &req->dev->res[type];
	bool details = nldev_res_details(req);
	struct rdma_restrack_entry *res;
	unsigned long id;
	int ret = 0;

	xa_lock(&rt->xa);
	xa_for_each_start(&rt->xa, id, res, cb->args[0]) {
		if ((details || !xa_get_mark(&rt->xa, id, RESTRACK_DD)) &&
		    rdma_restrack_get(res)) {
			xa_unlock(&rt->xa);
			ret = nldev_res_entry(skb, &nldev_res_kinds[type], res,
					      req);
			rdma_restrack_put(res);
			xa_lock(&rt->xa);
			if (ret && ret != -EAGAIN)
				break;
			*filled += !ret;
			ret = 0;
		}
		cb->args[0] = id + 1;
	}
	xa_unlock(&rt->xa);
	return ret;
}

/* One message of @type objects of the request's device. */
static int nldev_res_dump_msg(struct sk_buff *skb, struct netlink_callback *cb,
			      const struct nldev_req *req,
			      enum rdma_restrack_type type)
{
	const struct nldev_res_kind *k = &nldev_res_kinds[type];
	unsigned int filled = 0;
	struct nlattr *table;
	struct nlmsghdr *nlh;
	int ret;

	nlh = nldev_msg_start(skb, NETLINK_CB(cb->skb).portid,
			      cb->nlh->nlmsg_seq, k->cmd, NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	table = nldev_put_handle(skb, req->dev) ? NULL :
		nla_nest_start_noflag(skb, k->table);
	if (!table) {
		nlmsg_cancel(skb, nlh);
		return -EMSGSIZE;
	}
	ret = req->dev->res ? nldev_res_entries(skb, cb, req, type, &filled) : 0;
	if ((ret && ret != -EMSGSIZE) || !filled) {
		/* an error, or nothing (more) to say: the dump ends */
		nlmsg_cancel(skb, nlh);
		return ret == -EMSGSIZE ? 0 : ret;
	}
	nla_nest_end(skb, table);
	nlmsg_end(skb, nlh);
	return skb->len;
}

static int nldev_res_dump(struct sk_buff *skb, struct netlink_callback *cb,
			  enum rdma_restrack_type type)
{
	struct nldev_req *req;
	int ret;

	req = nldev_req_new(sock_net(skb->sk), cb->skb, cb->extack);
	if (!req)
		return -ENOMEM;
	ret = nldev_req_parse(req, cb->nlh, NLDEV_NEED_DEV | NLDEV_MAY_PORT);
	if (!ret)
		ret = nldev_res_dump_msg(skb, cb, req, type);
	nldev_req_free(req);
	return ret;
}

int nldev_res_qp_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_res_dump(skb, cb, RDMA_RESTRACK_QP);
}

int nldev_res_cq_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_res_dump(skb, cb, RDMA_RESTRACK_CQ);
}

int nldev_res_mr_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_res_dump(skb, cb, RDMA_RESTRACK_MR);
}

int nldev_res_pd_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_res_dump(skb, cb, RDMA_RESTRACK_PD);
}

int nldev_res_cm_id_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_res_dump(skb, cb, RDMA_RESTRACK_CM_ID);
}
