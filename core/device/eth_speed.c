// SPDX-License-Identifier: GPL-2.0-only
/* ib_get_eth_speed(): the IB speed and width that describe a RoCE/iWARP port's Ethernet link. */

#include <linux/errno.h>
#include <linux/ethtool.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"

/* The speed assumed when the net device cannot tell (Mb/s). */
#define ETH_SPEED_DEFAULT	SPEED_1000

/**
 * struct eth_speed_map - the IB rate reported for Ethernet links up to a speed
 * @max_mbps: the fastest link (Mb/s) this row covers
 * @width: the IB width reported
 * @speed: the IB lane speed reported
 */
struct eth_speed_map {
	u32 max_mbps;
	u8 width;
	u16 speed;
};

/* Rows by rising @max_mbps; the last one covers everything faster. */
static const struct eth_speed_map eth_speed_table[] = {
	{ SPEED_1000,	IB_WIDTH_1X,	IB_SPEED_SDR },
	{ SPEED_10000,	IB_WIDTH_1X,	IB_SPEED_FDR10 },
	{ SPEED_20000,	IB_WIDTH_4X,	IB_SPEED_DDR },
	{ SPEED_25000,	IB_WIDTH_1X,	IB_SPEED_EDR },
	{ SPEED_40000,	IB_WIDTH_4X,	IB_SPEED_FDR10 },
	{ U32_MAX,	IB_WIDTH_4X,	IB_SPEED_EDR },
};

static const struct eth_speed_map *eth_speed_lookup(u32 mbps)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(eth_speed_table) - 1; i++)
		if (mbps <= eth_speed_table[i].max_mbps)
			break;
	return &eth_speed_table[i];
}

/*
 * The link speed of @ndev in Mb/s, ETH_SPEED_DEFAULT when unknown, or
 * -ENODEV (as a negative int) when it is going away.
 */
static long eth_speed_of(struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;
	long mbps = -ENODEV;

	rtnl_lock();
	if (READ_ONCE(ndev->reg_state) != NETREG_REGISTERED)
		goto out;
	if (!__ethtool_get_link_ksettings(ndev, &ks) &&
	    ks.base.speed != (u32)SPEED_UNKNOWN) {
		mbps = ks.base.speed;
	} else {
		mbps = ETH_SPEED_DEFAULT;
		netdev_warn(ndev, "link speed unknown, taking %u Mb/s\n",
			    ETH_SPEED_DEFAULT);
	}
out:
	rtnl_unlock();
	return mbps;
}

/**
 * ib_get_eth_speed() - IB speed and width for a port's Ethernet link
 * @dev: the device
 * @port_num: a port with an Ethernet link layer
 * @speed: set to an IB_SPEED_* value
 * @width: set to an IB_WIDTH_* value
 *
 * For drivers' query_port: reads the link speed of the port's net device
 * with ethtool and reports the IB speed and width whose product comes
 * closest from below, e.g. 4X FDR10 for 40 Gb/s. A link of unknown speed
 * counts as 1 Gb/s (with a warning).
 *
 * Context: process context, may sleep; takes the RTNL lock, so the caller
 * must not hold it.
 * Return: 0 with @speed and @width set; -EINVAL for a port that is not
 * Ethernet; -ENODEV when the port has no registered net device.
 */
int ib_get_eth_speed(struct ib_device *dev, u32 port_num, u16 *speed,
		     u8 *width)
{
	const struct eth_speed_map *map;
	struct net_device *ndev;
	long mbps;

	if (rdma_port_get_link_layer(dev, port_num) != IB_LINK_LAYER_ETHERNET)
		return -EINVAL;
	ndev = ib_device_get_netdev(dev, port_num);
	if (!ndev)
		return -ENODEV;
	mbps = eth_speed_of(ndev);
	dev_put(ndev);
	if (mbps < 0)
		return mbps;

	map = eth_speed_lookup(mbps);
	*width = map->width;
	*speed = map->speed;
	return 0;
}
EXPORT_SYMBOL(ib_get_eth_speed);
