// SPDX-License-Identifier: GPL-2.0-only
/* ib_cm's client of the RDMA core: a CM class agent on QP1 of every port that speaks the IB CM. */

#include <linux/slab.h>

#include "cm/cm.h"

static struct ib_client cm_client;

/**
 * cm_port_get() - The CM port of a device port
 * @device: the device
 * @port_num: the port
 *
 * Context: any.
 * Return: the port, or NULL where ib_cm does not run.
 */
struct cm_port *cm_port_get(struct ib_device *device, u32 port_num)
{
	struct cm_device *dev = ib_get_client_data(device, &cm_client);

	if (!dev || port_num < 1 || port_num > dev->nports)
		return NULL;
	return dev->ports[port_num - 1];
}

/*
 * A port of @dev: its CM agent on QP1, then its counter files. A port
 * comes up whole or not at all; cm_port_close() undoes it in reverse.
 */
static int cm_port_open(struct cm_device *dev, u32 port_num)
{
	struct ib_mad_reg_req reg = {
		.mgmt_class = IB_MGMT_CLASS_CM,
		.mgmt_class_version = CM_MSG_CLASS_VERSION,
	};
	struct cm_port *port;
	int ret;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->dev = dev;
	port->port_num = port_num;
	set_bit(IB_MGMT_METHOD_SEND, reg.method_mask);
	port->agent = ib_register_mad_agent(dev->device, port_num, IB_QPT_GSI,
					    &reg, 0, cm_wire_send_handler,
					    cm_recv_handler, port, 0);
	if (IS_ERR(port->agent)) {
		ret = PTR_ERR(port->agent);
		goto err_port;
	}
	ret = cm_counters_publish(port);
	if (ret)
		goto err_agent;
	dev->ports[port_num - 1] = port;
	return 0;

err_agent:
	ib_unregister_mad_agent(port->agent);
err_port:
	kfree(port);
	return ret;
}

static void cm_port_close(struct cm_device *dev, u32 port_num)
{
	struct cm_port *port = dev->ports[port_num - 1];

	if (!port)
		return;
	cm_counters_unpublish(port);
	ib_unregister_mad_agent(port->agent);
	dev->ports[port_num - 1] = NULL;
	kfree(port);
}

static void cm_device_close(struct cm_device *dev)
{
	u32 p;

	spin_lock_irq(&cm.lock);
	dev->going_down = true;
	spin_unlock_irq(&cm.lock);
	cm_timewait_flush();
	for (p = dev->nports; p >= 1; p--)
		cm_port_close(dev, p);
	kfree(dev);
}

static int cm_device_add(struct ib_device *device)
{
	struct cm_device *dev;
	bool any = false;
	u32 p;
	int ret;

	dev = kzalloc(struct_size(dev, ports, device->phys_port_cnt),
		      GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->device = device;
	dev->nports = device->phys_port_cnt;
	dev->ack_delay = device->attrs.local_ca_ack_delay;
	rdma_for_each_port(device, p) {
		if (!rdma_cap_ib_cm(device, p))
			continue;
		ret = cm_port_open(dev, p);
		if (ret)
			goto err_ports;
		any = true;
	}
	if (!any) {
		kfree(dev);
		return -EOPNOTSUPP;
	}
	ib_set_client_data(device, &cm_client, dev);
	return 0;

err_ports:
	cm_device_close(dev);
	return ret;
}

static void cm_device_remove(struct ib_device *device, void *client_data)
{
	if (client_data)
		cm_device_close(client_data);
}

static struct ib_client cm_client = {
	.name	= "cm",
	.add	= cm_device_add,
	.remove	= cm_device_remove,
};

int cm_device_init(void)
{
	return ib_register_client(&cm_client);
}

void cm_device_exit(void)
{
	ib_unregister_client(&cm_client);
}
