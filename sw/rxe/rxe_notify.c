// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_notify.c - an rxe port follows its net device: state, MTU, and removal
 * when the net device goes.
 */

#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/udp.h>
#include "rxe_dev.h"
#include "rxe_hdr.h"

/*
 * Bytes a RoCEv2 packet needs around its payload, at worst: IPv6, UDP, the
 * BTH, the largest extension header (ATMETH) and the ICRC.
 */
#define RXE_MAX_OVERHEAD	(sizeof(struct ipv6hdr) + sizeof(struct udphdr) + \
				 sizeof(struct rxe_bth) + sizeof(struct rxe_atmeth) + \
				 RXE_ICRC_SIZE)

/**
 * rxe_mtu_from_ndev() - The IB MTU a port can use on a net device MTU
 * @mtu: the net device's MTU in bytes
 *
 * Context: Any context.
 * Return: the largest IB_MTU_* whose payload plus RXE_MAX_OVERHEAD fits in
 * @mtu (IB_MTU_1024 for 1500, IB_MTU_4096 for 9000); IB_MTU_256 at least.
 */
static enum ib_mtu rxe_mtu_from_ndev(unsigned int mtu)
{
	enum ib_mtu ib_mtu;

	for (ib_mtu = IB_MTU_4096; ib_mtu > IB_MTU_256; ib_mtu--)
		if (ib_mtu_enum_to_int(ib_mtu) + RXE_MAX_OVERHEAD <= mtu)
			break;
	return ib_mtu;
}

static enum ib_port_state rxe_port_state_of(struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev) ?
	       IB_PORT_ACTIVE : IB_PORT_DOWN;
}

static void rxe_port_event(struct rxe_dev *rxe, enum ib_event_type type)
{
	struct ib_event event = {
		.device = &rxe->ib_dev,
		.element.port_num = 1,
		.event = type,
	};

	ib_dispatch_event(&event);
}

/**
 * rxe_dev_port_update() - Refresh the port from its net device
 * @rxe: the device
 *
 * Sets the port state (ACTIVE when the net device is up with carrier, else
 * DOWN) and the active MTU. When the state changes, ULPs get
 * IB_EVENT_PORT_ACTIVE or IB_EVENT_PORT_ERR, and a port that goes down
 * counts link_downed. The first refresh, before registration, only sets
 * the state.
 *
 * Context: Process context or softirq; takes rxe->port_lock.
 */
void rxe_dev_port_update(struct rxe_dev *rxe)
{
	enum ib_port_state state = rxe_port_state_of(rxe->ndev);
	enum ib_mtu mtu = rxe_mtu_from_ndev(READ_ONCE(rxe->ndev->mtu));
	enum ib_port_state old;

	spin_lock_bh(&rxe->port_lock);
	old = rxe->port_state;
	rxe->port_state = state;
	/* Read without the lock by rxe_qp_mtu() and qp_set_mtu(). */
	WRITE_ONCE(rxe->port_mtu, mtu);
	spin_unlock_bh(&rxe->port_lock);

	if (old == state || old == IB_PORT_NOP)
		return;
	if (state == IB_PORT_ACTIVE) {
		rxe_port_event(rxe, IB_EVENT_PORT_ACTIVE);
	} else {
		rxe_counter_inc(rxe, RXE_CNT_LINK_DOWNED);
		rxe_port_event(rxe, IB_EVENT_PORT_ERR);
	}
	rxe_dbg_dev(rxe, "port %s, mtu %d\n",
		    state == IB_PORT_ACTIVE ? "active" : "down",
		    ib_mtu_enum_to_int(mtu));
}

/*
 * The net device is going: unregister from the core's work queue, never
 * here (RTNL is held, and unregistration waits for ULPs).
 */
static void rxe_dev_remove_queued(struct rxe_dev *rxe)
{
	rxe_dbg_dev(rxe, "%s unregisters\n", netdev_name(rxe->ndev));
	ib_unregister_device_queued(&rxe->ib_dev);
}

/* What each net device event does to the rxe device on top of it. */
static void (*const rxe_notify_action[])(struct rxe_dev *) = {
	[NETDEV_UP]		= rxe_dev_port_update,
	[NETDEV_DOWN]		= rxe_dev_port_update,
	[NETDEV_CHANGE]		= rxe_dev_port_update,
	[NETDEV_CHANGEMTU]	= rxe_dev_port_update,
	[NETDEV_UNREGISTER]	= rxe_dev_remove_queued,
};

static int rxe_notify_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	if (event >= ARRAY_SIZE(rxe_notify_action) ||
	    !rxe_notify_action[event])
		return NOTIFY_DONE;
	return rxe_dev_with_ndev(ndev, rxe_notify_action[event]) ?
	       NOTIFY_OK : NOTIFY_DONE;
}

static struct notifier_block rxe_notify_nb = {
	.notifier_call = rxe_notify_event,
};

/**
 * rxe_notify_init() - Start following net device events
 *
 * Context: Process context (module init).
 * Return: 0 or the error of register_netdevice_notifier().
 */
int rxe_notify_init(void)
{
	return register_netdevice_notifier(&rxe_notify_nb);
}

/**
 * rxe_notify_exit() - Stop following net device events
 *
 * Context: Process context (module exit).
 */
void rxe_notify_exit(void)
{
	unregister_netdevice_notifier(&rxe_notify_nb);
}
