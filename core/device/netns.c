// SPDX-License-Identifier: GPL-2.0-only
/* Which network namespaces may see an RDMA device. */

#include <linux/export.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

/*
 * The stack runs in the "shared" netns mode only (rdma system show says
 * netns shared; "exclusive" is refused): every namespace sees every
 * device. In exclusive mode a device would be visible in the namespace it
 * belongs to (coredev.rdma_net) alone.
 */
static const bool ib_devices_netns_shared = true;

/**
 * rdma_dev_access_netns() - May a namespace use a device?
 * @device: the device
 * @net: the namespace asking (of a socket, a file opener, a CM id)
 *
 * Context: any.
 * Return: true when @device is visible in @net.
 */
bool rdma_dev_access_netns(const struct ib_device *device,
			   const struct net *net)
{
	return ib_devices_netns_shared ||
	       net_eq(read_pnet(&device->coredev.rdma_net), net);
}
EXPORT_SYMBOL(rdma_dev_access_netns);
