// SPDX-License-Identifier: GPL-2.0-only
/* ib_find_pkey(): the index of a P_Key in a port's table, full membership preferred. */

#include <linux/export.h>
#include <rdma/ib_verbs.h>

/* The membership bit of a P_Key; the low 15 bits are the partition. */
#define PKEY_FULL_MEMBER	0x8000

/**
 * ib_find_pkey() - Find a P_Key in a port's P_Key table
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key; only its partition (low 15 bits) has to match
 * @index: where to store the index found
 *
 * The table is read from the driver (ib_query_pkey()), entry by entry. An
 * entry of the partition with full membership wins; without one the first
 * limited-membership entry of the partition is taken.
 *
 * Context: process context (drivers may sleep in query_pkey).
 * Return: 0 and *@index set, -ENOENT when the partition is not in the
 * table, -EINVAL for a bad port, or the driver's error.
 */
int ib_find_pkey(struct ib_device *device, u32 port_num, u16 pkey, u16 *index)
{
	int limited = -1;
	u16 entry;
	u32 i, len;
	int ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	len = device->port_data[port_num].immutable.pkey_tbl_len;
	for (i = 0; i < len; i++) {
		ret = ib_query_pkey(device, port_num, i, &entry);
		if (ret)
			return ret;
		if ((entry ^ pkey) & ~PKEY_FULL_MEMBER)
			continue;
		if (entry & PKEY_FULL_MEMBER) {
			*index = i;
			return 0;
		}
		if (limited < 0)
			limited = i;
	}
	if (limited < 0)
		return -ENOENT;
	*index = limited;
	return 0;
}
EXPORT_SYMBOL(ib_find_pkey);
