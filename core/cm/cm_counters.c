// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_cm's counters: drops by reason, and each port's messages by kind in 6.1's
 * sysfs files (ports/<n>/cm_tx_msgs/req, ...).
 */

#include <kunit/visibility.h>
#include <rdma/ib_sysfs.h>

#include "cm/cm.h"
#include "sysfs/sysfs.h"

atomic_long_t cm_drops[CM_DROP_REASONS];
EXPORT_SYMBOL_IF_KUNIT(cm_drops);

/*
 * A port's counters in sysfs: a directory per enum cm_count_group, in it a
 * read-only file per message kind, in attribute ID order. The same files
 * serve every port of every device: the core hands a file's show the
 * device and port, cm_port_get() finds our port, and the file itself
 * (struct cm_count_file around the attribute) says which counter it is.
 * cm_counters_init() makes the files from the names below.
 */
static const char *const cm_count_group_names[CM_COUNT_GROUPS] = {
	[CM_COUNT_TX]		= "cm_tx_msgs",
	[CM_COUNT_TX_RETRIES]	= "cm_tx_retries",
	[CM_COUNT_RX]		= "cm_rx_msgs",
	[CM_COUNT_RX_DUP]	= "cm_rx_duplicates",
};

static const char *const cm_count_kind_names[CM_MSG_KINDS] = {
	[CM_MSG_REQ] = "req", [CM_MSG_MRA] = "mra", [CM_MSG_REJ] = "rej",
	[CM_MSG_REP] = "rep", [CM_MSG_RTU] = "rtu", [CM_MSG_DREQ] = "dreq",
	[CM_MSG_DREP] = "drep", [CM_MSG_SIDR_REQ] = "sidr_req",
	[CM_MSG_SIDR_REP] = "sidr_rep", [CM_MSG_LAP] = "lap",
	[CM_MSG_APR] = "apr",
};

struct cm_count_file {
	struct ib_port_attribute	attr;
	u8				group;
	u8				kind;
};

static struct cm_count_file cm_count_files[CM_COUNT_GROUPS][CM_MSG_KINDS];
/* Each group's files, NULL-terminated as sysfs wants them. */
static struct attribute *cm_count_attrs[CM_COUNT_GROUPS][CM_MSG_KINDS + 1];
static struct attribute_group cm_count_dirs[CM_COUNT_GROUPS];

const struct attribute_group *cm_counters_groups[CM_COUNT_GROUPS + 1];
EXPORT_SYMBOL_IF_KUNIT(cm_counters_groups);

/**
 * cm_counters_format() - The text of a counter file
 * @port: the port whose counter it reads
 * @attr: one of the files of cm_counters_groups
 * @buf: sysfs's page
 *
 * Context: any; the counters are atomic and take no lock.
 * Return: the length of "<count>\n" written to @buf.
 */
ssize_t cm_counters_format(struct cm_port *port,
			   struct ib_port_attribute *attr, char *buf)
{
	struct cm_count_file *file =
		container_of(attr, struct cm_count_file, attr);

	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&port->counts[file->group]
							[file->kind]));
}
EXPORT_SYMBOL_IF_KUNIT(cm_counters_format);

static ssize_t cm_counters_show(struct ib_device *ibdev, u32 port_num,
				struct ib_port_attribute *attr, char *buf)
{
	struct cm_port *port = cm_port_get(ibdev, port_num);

	/*
	 * A port's files go up in cm_port_open(), ib_cm's device data only
	 * once all its ports are open: a read in between finds no port.
	 * Removal takes the files down before the port goes, and sysfs
	 * waits for the reads under way.
	 */
	if (!port)
		return -ENODEV;
	return cm_counters_format(port, attr, buf);
}

/**
 * cm_counters_init() - Make the counter files from their names
 *
 * Context: module init, before ib_cm's client is registered.
 */
void __init cm_counters_init(void)
{
	unsigned int g, k;

	for (g = 0; g < CM_COUNT_GROUPS; g++) {
		for (k = 0; k < CM_MSG_KINDS; k++) {
			struct cm_count_file *file = &cm_count_files[g][k];

			sysfs_attr_init(&file->attr.attr);
			file->attr.attr.name = cm_count_kind_names[k];
			file->attr.attr.mode = 0444;
			file->attr.show = cm_counters_show;
			file->group = g;
			file->kind = k;
			cm_count_attrs[g][k] = &file->attr.attr;
		}
		cm_count_dirs[g].name = cm_count_group_names[g];
		cm_count_dirs[g].attrs = cm_count_attrs[g];
		cm_counters_groups[g] = &cm_count_dirs[g];
	}
}

/**
 * cm_counters_publish() - Put a port's counter files in sysfs
 * @port: the port, its agent registered
 *
 * Context: process, may sleep (the client's add()).
 * Return: 0, or the core's error (no directory for the port, sysfs).
 */
int cm_counters_publish(struct cm_port *port)
{
	return ib_port_register_client_groups(port->dev->device,
					      port->port_num,
					      cm_counters_groups);
}

/**
 * cm_counters_unpublish() - Take a port's counter files out of sysfs
 * @port: a port cm_counters_publish() succeeded for
 *
 * Returns once no read of the files is under way.
 *
 * Context: process, may sleep (the client's add() unwinding, remove()).
 */
void cm_counters_unpublish(struct cm_port *port)
{
	ib_port_unregister_client_groups(port->dev->device, port->port_num,
					 cm_counters_groups);
}

/**
 * cm_counters_add_send() - Count a message the MAD layer is done with
 * @port: the port it went out on
 * @buf: the message; ->retries is the number of times the MAD layer
 *	 resent it, ->context[0] its cm_id (NULL for an answer sent
 *	 through cm_reply())
 *
 * Every transmission counts in cm_tx_msgs, the resends also in
 * cm_tx_retries, whether the message was answered, timed out or was
 * cancelled. 6.1 takes any answer without a cm_id other than a REJ or a
 * SIDR REP (an MRA, RTU or DREP repeated for a duplicate, a DREP to a DREQ
 * for a connection gone) for a message sent once before and resent now:
 * one resend, so two in cm_tx_msgs. The numbers here are the same. (6.1
 * sends its "unsupported" SIDR REP from a cm_id of its own: one
 * transmission.)
 *
 * Context: the agent's send handler; any context.
 */
void cm_counters_add_send(struct cm_port *port,
			  const struct ib_mad_send_buf *buf)
{
	const struct ib_mad_hdr *hdr = buf->mad;
	int kind = cm_msg_kind_of(hdr->attr_id);
	long resends = buf->retries;

	if (kind < 0)
		return;
	if (!buf->context[0] && kind != CM_MSG_REJ && kind != CM_MSG_SIDR_REP)
		resends = 1;
	atomic_long_add(1 + resends, &port->counts[CM_COUNT_TX][kind]);
	atomic_long_add(resends, &port->counts[CM_COUNT_TX_RETRIES][kind]);
}
EXPORT_SYMBOL_IF_KUNIT(cm_counters_add_send);
