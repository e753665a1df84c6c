// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SA client of ib_core: SA users' registration, and per port a SubnAdm
 * agent and the address of the subnet manager.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/opa_addr.h>

#include "mad/sa.h"

static int sa_client_add(struct ib_device *device);
static void sa_client_remove(struct ib_device *device, void *client_data);

static struct ib_client sa_client = {
	.name	= "sa",
	.add	= sa_client_add,
	.remove	= sa_client_remove,
};

/* ---- SA users -------------------------------------------------------------- */

/**
 * ib_sa_register_client() - Prepare an SA user's handle
 * @client: the handle, usually static in the user's module
 *
 * Every query and multicast join is made on behalf of a client, and
 * ib_sa_unregister_client() waits for all of them to be over.
 *
 * Context: any.
 */
void ib_sa_register_client(struct ib_sa_client *client)
{
	/* The one use the client has of itself, dropped on unregistration. */
	*client = (struct ib_sa_client){ .users = ATOMIC_INIT(1) };
	init_completion(&client->comp);
}
EXPORT_SYMBOL(ib_sa_register_client);

/**
 * ib_sa_unregister_client() - Wait until a client has nothing outstanding
 * @client: a client from ib_sa_register_client()
 *
 * Returns once every query of the client has reported to its callback
 * and been released, and every multicast join of the client has been
 * freed with ib_sa_free_multicast(). The caller cancels its queries and
 * frees its joins first, or this waits for them to finish on their own.
 *
 * Context: process context, may sleep; not from a callback of the client.
 */
void ib_sa_unregister_client(struct ib_sa_client *client)
{
	/* Not the last use: the last query or join completes ->comp. */
	if (!atomic_dec_and_test(&client->users))
		wait_for_completion(&client->comp);
}
EXPORT_SYMBOL(ib_sa_unregister_client);

/* ---- The SM's address ------------------------------------------------------- */

static void sa_sm_ah_release(struct kref *ref)
{
	struct ib_sa_sm_ah *sm_ah = container_of(ref, struct ib_sa_sm_ah, ref);

	rdma_destroy_ah(sm_ah->ah, 0);
	kfree(sm_ah);
}

void ib_sa_sm_ah_put(struct ib_sa_sm_ah *sm_ah)
{
	kref_put(&sm_ah->ref, sa_sm_ah_release);
}

struct ib_sa_sm_ah *ib_sa_sm_ah_get(struct ib_sa_port *port)
{
	struct ib_sa_sm_ah *sm_ah;
	unsigned long flags;

	spin_lock_irqsave(&port->ah_lock, flags);
	sm_ah = port->sm_ah;
	if (sm_ah)
		kref_get(&sm_ah->ref);
	spin_unlock_irqrestore(&port->ah_lock, flags);
	return sm_ah;
}

/* Install @sm_ah (may be NULL) as the port's SM address. */
static void sa_sm_ah_replace(struct ib_sa_port *port, struct ib_sa_sm_ah *sm_ah)
{
	struct ib_sa_sm_ah *old;
	unsigned long flags;

	spin_lock_irqsave(&port->ah_lock, flags);
	old = port->sm_ah;
	port->sm_ah = sm_ah;
	spin_unlock_irqrestore(&port->ah_lock, flags);
	if (old)
		ib_sa_sm_ah_put(old);
}

/*
 * The address vector towards the SM: its LID and SL from the port's
 * attributes, and where the port needs a GRH, the SA's well-known GUID
 * in the port's subnet.
 */
static void sa_sm_ah_attr(struct ib_sa_port *port,
			  const struct ib_port_attr *pa,
			  struct rdma_ah_attr *attr)
{
	struct ib_device *device = port->dev->device;
	bool grh = rdma_is_grh_required(device, port->port_num);

	memset(attr, 0, sizeof(*attr));
	attr->type = rdma_ah_find_type(device, port->port_num);
	rdma_ah_set_dlid(attr, pa->sm_lid);
	rdma_ah_set_sl(attr, pa->sm_sl);
	rdma_ah_set_port_num(attr, port->port_num);
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA &&
	    (grh || pa->sm_lid == be16_to_cpu(IB_LID_PERMISSIVE)))
		rdma_ah_set_make_grd(attr, true);
	if (attr->type == RDMA_AH_ATTR_TYPE_IB && grh) {
		rdma_ah_set_ah_flags(attr, IB_AH_GRH);
		rdma_ah_set_subnet_prefix(attr, cpu_to_be64(pa->subnet_prefix));
		rdma_ah_set_interface_id(attr,
					 cpu_to_be64(IB_SA_WELL_KNOWN_GUID));
	}
}

/*
 * Build the port's SM address from its attributes now. Without a valid
 * SM LID (no SM has swept the subnet yet) the port has none, and queries
 * fail with -EAGAIN until an event brings one.
 */
static void sa_sm_ah_update(struct ib_sa_port *port)
{
	struct ib_device *device = port->dev->device;
	struct ib_sa_sm_ah *sm_ah;
	struct rdma_ah_attr attr;
	struct ib_port_attr pa;

	if (ib_query_port(device, port->port_num, &pa))
		goto err_none;
	sa_sm_ah_attr(port, &pa, &attr);
	if (!rdma_is_valid_unicast_lid(&attr))
		goto err_none;
	sm_ah = kzalloc(sizeof(*sm_ah), GFP_KERNEL);
	if (!sm_ah)
		goto err_none;
	kref_init(&sm_ah->ref);
	sm_ah->src_path_mask = (1 << pa.lmc) - 1;
	if (ib_find_pkey(device, port->port_num, IB_DEFAULT_PKEY_FULL,
			 &sm_ah->pkey_index))
		sm_ah->pkey_index = 0;
	sm_ah->ah = rdma_create_ah(port->agent->qp->pd, &attr,
				   RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(sm_ah->ah)) {
		dev_dbg_ratelimited(&device->dev,
				    "port %u: no address handle to the SM: %ld\n",
				    port->port_num, PTR_ERR(sm_ah->ah));
		kfree(sm_ah);
		goto err_none;
	}
	sa_sm_ah_replace(port, sm_ah);
	return;

err_none:
	sa_sm_ah_replace(port, NULL);
}

static void sa_sm_ah_work(struct work_struct *work)
{
	sa_sm_ah_update(container_of(work, struct ib_sa_port, update_work));
}

/* The port events after which the SM may answer from elsewhere. */
static bool sa_event_moves_sm(enum ib_event_type type)
{
	switch (type) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		return true;
	default:
		return false;
	}
}

/* Forget the SM's address at once; find it again from the work. */
static void sa_event(struct ib_event_handler *handler, struct ib_event *event)
{
	struct ib_sa_device *sa_dev =
		container_of(handler, struct ib_sa_device, event_handler);
	u32 port_num = event->element.port_num;
	struct ib_sa_port *port;

	if (!sa_event_moves_sm(event->event) ||
	    port_num < sa_dev->start_port ||
	    port_num - sa_dev->start_port >= sa_dev->nports)
		return;
	port = &sa_dev->ports[port_num - sa_dev->start_port];
	if (!port->agent)
		return;
	sa_sm_ah_replace(port, NULL);
	queue_work(ib_wq, &port->update_work);
}

/* ---- Ports and devices ------------------------------------------------------ */

struct ib_sa_port *ib_sa_port_find(struct ib_device *device, u32 port_num)
{
	struct ib_sa_device *sa_dev = ib_get_client_data(device, &sa_client);

	if (!sa_dev || port_num < sa_dev->start_port ||
	    port_num - sa_dev->start_port >= sa_dev->nports)
		return NULL;
	return &sa_dev->ports[port_num - sa_dev->start_port];
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_port_find);

static int sa_port_open(struct ib_sa_port *port)
{
	struct ib_mad_agent *agent;

	agent = ib_register_mad_agent(port->dev->device, port->port_num,
				      IB_QPT_GSI, NULL, 0,
				      ib_sa_query_send_handler,
				      ib_sa_query_recv_handler, port, 0);
	if (IS_ERR(agent))
		return PTR_ERR(agent);
	port->agent = agent;
	return 0;
}

/* Every query of the port is over once its agent is gone. */
static void sa_port_close(struct ib_sa_port *port)
{
	if (!port->agent)
		return;
	cancel_work_sync(&port->update_work);
	ib_unregister_mad_agent(port->agent);
	port->agent = NULL;
	sa_sm_ah_replace(port, NULL);
}

static void sa_device_close(struct ib_sa_device *sa_dev)
{
	u32 i;

	for (i = sa_dev->nports; i-- > 0;)
		sa_port_close(&sa_dev->ports[i]);
	kfree(sa_dev);
}

static struct ib_sa_device *sa_device_alloc(struct ib_device *device)
{
	u32 nports = rdma_end_port(device) - rdma_start_port(device) + 1;
	struct ib_sa_device *sa_dev;
	u32 i;

	sa_dev = kzalloc(struct_size(sa_dev, ports, nports), GFP_KERNEL);
	if (!sa_dev)
		return NULL;
	sa_dev->device = device;
	sa_dev->start_port = rdma_start_port(device);
	sa_dev->nports = nports;
	for (i = 0; i < nports; i++) {
		struct ib_sa_port *port = &sa_dev->ports[i];

		port->dev = sa_dev;
		port->port_num = sa_dev->start_port + i;
		spin_lock_init(&port->ah_lock);
		INIT_WORK(&port->update_work, sa_sm_ah_work);
		atomic_set(&port->bad_responses, 0);
	}
	return sa_dev;
}

/* A port has an SA when the link is InfiniBand and it speaks MADs. */
static bool sa_port_wanted(struct ib_device *device, u32 port_num)
{
	return rdma_cap_ib_sa(device, port_num) &&
	       rdma_cap_ib_mad(device, port_num);
}

static int sa_client_add(struct ib_device *device)
{
	struct ib_sa_device *sa_dev;
	unsigned int opened = 0;
	int ret = 0;
	u32 i;

	sa_dev = sa_device_alloc(device);
	if (!sa_dev)
		return -ENOMEM;
	for (i = 0; i < sa_dev->nports && !ret; i++) {
		if (!sa_port_wanted(device, sa_dev->ports[i].port_num))
			continue;
		ret = sa_port_open(&sa_dev->ports[i]);
		opened += !ret;
	}
	if (ret || !opened) {
		sa_device_close(sa_dev);
		/* A device without an SA (RoCE, iWARP) is no error. */
		return ret ?: -EOPNOTSUPP;
	}

	ib_set_client_data(device, &sa_client, sa_dev);
	/* Events first, so no change between the look and the handler is lost. */
	INIT_IB_EVENT_HANDLER(&sa_dev->event_handler, device, sa_event);
	ib_register_event_handler(&sa_dev->event_handler);
	for (i = 0; i < sa_dev->nports; i++)
		if (sa_dev->ports[i].agent)
			sa_sm_ah_update(&sa_dev->ports[i]);
	return 0;
}

static void sa_client_remove(struct ib_device *device, void *client_data)
{
	struct ib_sa_device *sa_dev = client_data;

	ib_unregister_event_handler(&sa_dev->event_handler);
	sa_device_close(sa_dev);
}

/* ---- ib_core part ----------------------------------------------------------- */

int ib_sa_init(void)
{
	ib_sa_query_init();
	return ib_register_client(&sa_client);
}

void ib_sa_cleanup(void)
{
	ib_unregister_client(&sa_client);
}
