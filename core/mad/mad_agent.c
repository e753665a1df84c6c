// SPDX-License-Identifier: GPL-2.0-only
/* MAD agents: registration on a port's special QP, and which agent a received MAD belongs to. */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_mad.h>

#include "mad/mad.h"

/*
 * Limits of a registration request, as 6.1 checks them: class versions
 * below 0x83, classes below 0x50 (vendor range 2 ends at 0x4f) except the
 * directed-route SMP class 0x81, which is accepted as well.
 */
#define MAD_REG_VERSION_LIMIT	0x83
#define MAD_REG_CLASS_LIMIT	0x50

/*
 * Every agent by its hi_tid, the upper half of the TIDs it sends, so that
 * answers find their way back. IDs keep to 24 bits: some drivers (mlx4's
 * SR-IOV tunnelling) claim the top byte of the TID for themselves. The
 * xarray's own lock serialises writers; readers use RCU plus a reference.
 */
static DEFINE_XARRAY_ALLOC1(mad_agent_ids);
static u32 mad_agent_next_id;

void ib_mad_agent_put(struct ib_mad_agent_priv *priv)
{
	if (refcount_dec_and_test(&priv->refs))
		complete(&priv->released);
}

/* ---- Registration requests ------------------------------------------------ */

static bool mad_class_is_smp(u8 mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	       mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

static bool mad_class_in_range(u8 mgmt_class)
{
	if (mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return true;
	/* Class 0 is reserved (6.1 uses its slot for directed route). */
	return mgmt_class && mgmt_class < MAD_REG_CLASS_LIMIT;
}

int ib_mad_reg_req_check(const struct ib_mad_reg_req *req,
			 enum ib_mad_qp_index qpi, u8 rmpp_version,
			 bool has_recv_handler)
{
	bool on_smi = qpi == IB_MAD_QP_SMI;

	if (req->mgmt_class_version >= MAD_REG_VERSION_LIMIT)
		return -EINVAL;
	if (!has_recv_handler || !mad_class_in_range(req->mgmt_class))
		return -EINVAL;
	/* A vendor class of range 2 is told apart by its OUI: zero is none. */
	if (ib_mad_class_is_vendor2(req->mgmt_class) &&
	    !(req->oui[0] | req->oui[1] | req->oui[2]))
		return -EINVAL;
	if (rmpp_version && !ib_is_mad_class_rmpp(req->mgmt_class))
		return -EINVAL;
	/* SMP classes belong to QP0 and only they do. */
	if (mad_class_is_smp(req->mgmt_class) != on_smi)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_reg_req_check);

static bool mad_reg_req_same_class(const struct ib_mad_reg_req *a,
				   u8 mgmt_class, u8 version, const u8 *oui)
{
	if (a->mgmt_class != mgmt_class || a->mgmt_class_version != version)
		return false;
	return !ib_mad_class_is_vendor2(mgmt_class) ||
	       !memcmp(a->oui, oui, sizeof(a->oui));
}

bool ib_mad_reg_req_overlap(const struct ib_mad_reg_req *a,
			    const struct ib_mad_reg_req *b)
{
	return mad_reg_req_same_class(a, b->mgmt_class,
				      b->mgmt_class_version, b->oui) &&
	       bitmap_intersects(a->method_mask, b->method_mask,
				 IB_MGMT_MAX_METHODS);
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_reg_req_overlap);

bool ib_mad_reg_req_match(const struct ib_mad_reg_req *req,
			  const struct ib_mad_hdr *hdr)
{
	const struct ib_vendor_mad *vmad = (const struct ib_vendor_mad *)hdr;

	if (!mad_reg_req_same_class(req, hdr->mgmt_class, hdr->class_version,
				    vmad->oui))
		return false;
	return test_bit(hdr->method & ~IB_MGMT_METHOD_RESP, req->method_mask);
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_reg_req_match);

/* ---- Routing of received MADs --------------------------------------------- */

static struct ib_mad_agent_priv *mad_agent_by_tid(__be64 tid)
{
	struct ib_mad_agent_priv *priv;

	rcu_read_lock();
	priv = xa_load(&mad_agent_ids, be64_to_cpu(tid) >> 32);
	if (priv && !refcount_inc_not_zero(&priv->refs))
		priv = NULL;
	rcu_read_unlock();
	return priv;
}

static struct ib_mad_agent_priv *mad_agent_by_class(struct ib_mad_port *port,
						    const struct ib_mad_hdr *hdr)
{
	struct ib_mad_agent_priv *priv, *found = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(priv, &port->agents, node) {
		if (!ib_mad_reg_req_match(priv->reg, hdr))
			continue;
		if (refcount_inc_not_zero(&priv->refs))
			found = priv;
		break;
	}
	rcu_read_unlock();
	return found;
}

struct ib_mad_agent_priv *ib_mad_agent_route(struct ib_mad_port *port,
					     const struct ib_mad_hdr *hdr)
{
	struct ib_mad_agent_priv *priv;

	if (ib_response_mad(hdr))
		priv = mad_agent_by_tid(hdr->tid);
	else
		priv = mad_agent_by_class(port, hdr);
	/* An answer for an agent of another port is not ours to deliver. */
	if (priv && (priv->port != port || !priv->agent.recv_handler)) {
		ib_mad_agent_put(priv);
		return NULL;
	}
	return priv;
}

/* ---- Register and unregister ---------------------------------------------- */

static int mad_agent_check(struct ib_device *device, u32 port_num,
			   enum ib_qp_type qp_type,
			   const struct ib_mad_reg_req *req, u8 rmpp_version,
			   ib_mad_send_handler send_handler,
			   ib_mad_recv_handler recv_handler, u32 flags)
{
	enum ib_mad_qp_index qpi = qp_type == IB_QPT_SMI ? IB_MAD_QP_SMI :
							    IB_MAD_QP_GSI;

	if (!rdma_is_port_valid(device, port_num))
		return -ENODEV;
	if (qp_type == IB_QPT_SMI && !rdma_cap_ib_smi(device, port_num))
		return -EPROTONOSUPPORT;
	if (qp_type == IB_QPT_GSI && !rdma_cap_ib_cm(device, port_num))
		return -EPROTONOSUPPORT;
	if (qp_type != IB_QPT_SMI && qp_type != IB_QPT_GSI)
		return -EINVAL;
	if (rmpp_version && rmpp_version != IB_MGMT_RMPP_VERSION)
		return -EINVAL;
	if (req)
		return ib_mad_reg_req_check(req, qpi, rmpp_version,
					    recv_handler);
	/* Without a request the agent only sends (and gets its answers). */
	if (!send_handler || (flags & IB_MAD_USER_RMPP))
		return -EINVAL;
	return 0;
}

/* Publish @priv in its port's class routing unless a method is taken. */
static int mad_agent_publish(struct ib_mad_agent_priv *priv)
{
	struct ib_mad_port *port = priv->port;
	struct ib_mad_agent_priv *other;
	int ret = 0;

	spin_lock_irq(&port->agents_lock);
	list_for_each_entry(other, &port->agents, node) {
		if (other->mqp == priv->mqp &&
		    ib_mad_reg_req_overlap(other->reg, priv->reg)) {
			ret = -EINVAL;
			goto out;
		}
	}
	list_add_tail_rcu(&priv->node, &port->agents);
out:
	spin_unlock_irq(&port->agents_lock);
	return ret;
}

static void mad_agent_unpublish(struct ib_mad_agent_priv *priv)
{
	spin_lock_irq(&priv->port->agents_lock);
	list_del_rcu(&priv->node);
	spin_unlock_irq(&priv->port->agents_lock);
}

static void mad_agent_init(struct ib_mad_agent_priv *priv,
			   struct ib_mad_port *port, struct ib_mad_qp *mqp)
{
	priv->port = port;
	priv->mqp = mqp;
	priv->agent.device = port->device;
	priv->agent.port_num = port->port_num;
	priv->agent.qp = mqp->qp;
	INIT_LIST_HEAD(&priv->node);
	refcount_set(&priv->refs, 1);
	init_completion(&priv->released);
	spin_lock_init(&priv->lock);
	INIT_LIST_HEAD(&priv->sends);
	INIT_LIST_HEAD(&priv->waiting);
	INIT_LIST_HEAD(&priv->rmpp_rxs);
	INIT_DELAYED_WORK(&priv->timer, ib_mad_send_timer_fn);
}

/**
 * ib_register_mad_agent() - Register to send and receive MADs on a port
 * @device: the device
 * @port_num: the port
 * @qp_type: IB_QPT_SMI (QP0, InfiniBand ports) or IB_QPT_GSI (QP1)
 * @mad_reg_req: the unsolicited MADs wanted (class, class version, OUI for
 *		 vendor range 2, methods), or NULL for an agent that only
 *		 sends and receives the answers to its own requests
 * @rmpp_version: IB_MGMT_RMPP_VERSION for an RMPP class, else 0
 * @send_handler: called once for every posted MAD when it is done
 * @recv_handler: called for every MAD delivered to the agent
 * @context: stored in the agent for the caller
 * @registration_flags: IB_MAD_USER_RMPP when the caller does RMPP itself
 *
 * The agent's hi_tid is unique among all agents of the system: requests
 * the caller sends must carry it in the upper 32 bits of their TID, which
 * is how their answers are routed back. Two agents on one QP cannot claim
 * the same (class, version, OUI, method).
 *
 * Context: process context, may sleep.
 * Return: the agent, or an ERR_PTR(): -ENODEV for a port without MAD
 * support, -EPROTONOSUPPORT for a QP the port lacks, -EINVAL for a bad or
 * overlapping request, -ENOMEM.
 */
struct ib_mad_agent *ib_register_mad_agent(struct ib_device *device,
					   u32 port_num,
					   enum ib_qp_type qp_type,
					   struct ib_mad_reg_req *mad_reg_req,
					   u8 rmpp_version,
					   ib_mad_send_handler send_handler,
					   ib_mad_recv_handler recv_handler,
					   void *context,
					   u32 registration_flags)
{
	struct ib_mad_agent_priv *priv;
	struct ib_mad_port *port;
	struct ib_mad_qp *mqp;
	int ret;

	ret = mad_agent_check(device, port_num, qp_type, mad_reg_req,
			      rmpp_version, send_handler, recv_handler,
			      registration_flags);
	if (ret)
		goto err_check;
	port = ib_mad_port_find(device, port_num);
	ret = -ENODEV;
	if (!port)
		goto err_check;
	mqp = &port->qps[qp_type == IB_QPT_SMI ? IB_MAD_QP_SMI : IB_MAD_QP_GSI];
	ret = -EPROTONOSUPPORT;
	if (!mqp->qp)
		goto err_check;

	ret = -ENOMEM;
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		goto err_check;
	if (mad_reg_req) {
		priv->reg = kmemdup(mad_reg_req, sizeof(*mad_reg_req),
				    GFP_KERNEL);
		if (!priv->reg)
			goto err_reg;
	}
	mad_agent_init(priv, port, mqp);
	priv->agent.recv_handler = recv_handler;
	priv->agent.send_handler = send_handler;
	priv->agent.context = context;
	priv->agent.flags = registration_flags;
	priv->agent.rmpp_version = rmpp_version;

	ret = xa_alloc_cyclic(&mad_agent_ids, &priv->agent.hi_tid, priv,
			      XA_LIMIT(1, (1 << 24) - 1), &mad_agent_next_id,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_id;
	if (priv->reg) {
		ret = mad_agent_publish(priv);
		if (ret)
			goto err_publish;
	}
	return &priv->agent;

err_publish:
	xa_erase(&mad_agent_ids, priv->agent.hi_tid);
err_id:
	kfree(priv->reg);
err_reg:
	kfree(priv);
err_check:
	dev_dbg_ratelimited(&device->dev,
			    "MAD agent on port %u (QP type %d, class 0x%x) refused: %d\n",
			    port_num, qp_type,
			    mad_reg_req ? mad_reg_req->mgmt_class : 0, ret);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_register_mad_agent);

/**
 * ib_unregister_mad_agent() - Stop an agent and release it
 * @mad_agent: an agent from ib_register_mad_agent()
 *
 * The agent stops receiving unsolicited MADs and answers, its outstanding
 * sends complete to its send handler with IB_WC_WR_FLUSH_ERR, the RMPP
 * messages it was receiving are dropped, and the call
 * returns once no handler of the agent runs any more and every send buffer
 * created on it has been freed with ib_free_send_mad().
 *
 * Context: process context, may sleep; not from one of the agent's own
 * handlers.
 */
void ib_unregister_mad_agent(struct ib_mad_agent *mad_agent)
{
	struct ib_mad_agent_priv *priv = ib_mad_agent_priv(mad_agent);

	if (priv->reg)
		mad_agent_unpublish(priv);
	xa_erase(&mad_agent_ids, mad_agent->hi_tid);
	ib_mad_send_cancel_all(priv);
	ib_mad_rmpp_rx_cancel_all(priv);
	ib_mad_agent_put(priv);
	wait_for_completion(&priv->released);
	kfree(priv->reg);
	/* Routing may still be looking at it under RCU. */
	kfree_rcu(priv, rcu);
}
EXPORT_SYMBOL(ib_unregister_mad_agent);
