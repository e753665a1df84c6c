// SPDX-License-Identifier: GPL-2.0-only
/* nldev statistics: the default hardware counters of a port (STAT_GET, "rdma stat show"). */

#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

#include "netlink/nldev.h"

/**
 * rdma_nl_stat_hwcounter_entry() - Add one named counter to an nldev message
 * @msg: the message, inside an RDMA_NLDEV_ATTR_STAT_HWCOUNTERS nest
 * @name: the counter's name
 * @value: its value
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE (nothing added) when @msg is full.
 */
int rdma_nl_stat_hwcounter_entry(struct sk_buff *msg, const char *name,
				 u64 value)
{
	struct nlattr *entry;

	entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
			   name) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE,
			      value, RDMA_NLDEV_ATTR_PAD)) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}
EXPORT_SYMBOL(rdma_nl_stat_hwcounter_entry);

/* The first @count counters of @stats that are not disabled. */
static int nldev_stat_put_counters(struct sk_buff *msg,
				   const struct rdma_hw_stats *stats, int count)
{
	struct nlattr *table;
	int i;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < count; i++) {
		if (stats->is_disabled && test_bit(i, stats->is_disabled))
			continue;
		if (rdma_nl_stat_hwcounter_entry(msg, stats->descs[i].name,
						 stats->value[i])) {
			nla_nest_cancel(msg, table);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, table);
	return 0;
}

/* Read the port's counters into a set of our own and put them in @msg. */
static int nldev_stat_read_port(struct sk_buff *msg, struct nldev_req *req)
{
	struct ib_device *dev = req->dev;
	struct rdma_hw_stats *stats;
	int count, ret;

	stats = dev->ops.alloc_hw_port_stats(dev, req->port);
	if (!stats) {
		NL_SET_ERR_MSG(req->extack, "port has no hardware counters");
		return -EOPNOTSUPP;
	}
	/* nobody else sees this set, so its lock is not needed */
	count = dev->ops.get_hw_stats(dev, stats, req->port, 0);
	if (count < 0) {
		ibdev_dbg(dev, "reading counters of port %u failed: %d\n",
			  req->port, count);
		ret = count;
	} else {
		ret = nldev_stat_put_counters(msg, stats,
					      min(count, stats->num_counters));
	}
	rdma_free_hw_stats_struct(stats);
	return ret;
}

/**
 * nldev_stat_port_fill() - A port's hardware counters, as STAT_GET answers
 * @msg: the message
 * @req: .dev and .port name the port
 *
 * Reads the driver's default counters afresh. Counter objects (per-QP or
 * per-MR statistics, asked for with RDMA_NLDEV_ATTR_STAT_RES) are not
 * supported.
 *
 * Context: Process context, may sleep (asks the driver).
 * Return: 0, -EOPNOTSUPP, -EMSGSIZE, or the driver's error.
 */
int nldev_stat_port_fill(struct sk_buff *msg, struct nldev_req *req)
{
	const struct ib_device_ops *ops = &req->dev->ops;

	if (req->tb[RDMA_NLDEV_ATTR_STAT_RES]) {
		NL_SET_ERR_MSG(req->extack, "counter objects are not supported");
		return -EOPNOTSUPP;
	}
	if (!ops->alloc_hw_port_stats || !ops->get_hw_stats) {
		NL_SET_ERR_MSG(req->extack, "device has no hardware counters");
		return -EOPNOTSUPP;
	}
	if (nldev_put_handle(msg, req->dev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port))
		return -EMSGSIZE;
	return nldev_stat_read_port(msg, req);
}
EXPORT_SYMBOL_IF_KUNIT(nldev_stat_port_fill);

int nldev_stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	return nldev_reply_doit(skb, nlh, extack,
				NLDEV_NEED_DEV | NLDEV_NEED_PORT,
				RDMA_NLDEV_CMD_STAT_GET, nldev_stat_port_fill);
}
