// SPDX-License-Identifier: GPL-2.0-only
/*
 * issmN: holding it open says "a subnet manager runs here". One holder
 * at a time (others wait, or get -EAGAIN with O_NONBLOCK); open sets
 * IB_PORT_SM in the port's capability mask, close clears it again.
 */

#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include "umad/umad.h"

/* Set or clear IB_PORT_SM; the device may be gone (-ENODEV). */
static int umad_issm_mark(struct umad_port *port, bool set)
{
	struct ib_port_modify props = {};
	int ret = -ENODEV;

	if (set)
		props.set_port_cap_mask = IB_PORT_SM;
	else
		props.clr_port_cap_mask = IB_PORT_SM;
	mutex_lock(&port->lock);
	if (port->ib_dev)
		ret = ib_modify_port(port->ib_dev, port->port_num, 0, &props);
	mutex_unlock(&port->lock);
	return ret;
}

static bool umad_issm_netns_ok(struct umad_port *port)
{
	bool ok;

	mutex_lock(&port->lock);
	ok = port->ib_dev &&
	     rdma_dev_access_netns(port->ib_dev, current->nsproxy->net_ns);
	mutex_unlock(&port->lock);
	return ok;
}

static int umad_issm_open(struct inode *inode, struct file *filp)
{
	struct umad_port *port = container_of(inode->i_cdev, struct umad_port,
					      sm_cdev);
	int ret;

	if (filp->f_flags & O_NONBLOCK) {
		if (down_trylock(&port->sm_sem))
			return -EAGAIN;
	} else if (down_interruptible(&port->sm_sem)) {
		return -ERESTARTSYS;
	}
	ret = -EPERM;
	if (!umad_issm_netns_ok(port))
		goto err_up;
	ret = umad_issm_mark(port, true);
	if (ret)
		goto err_up;
	filp->private_data = port;
	nonseekable_open(inode, filp);
	return 0;

err_up:
	up(&port->sm_sem);
	return ret;
}

static int umad_issm_release(struct inode *inode, struct file *filp)
{
	struct umad_port *port = filp->private_data;
	int ret;

	ret = umad_issm_mark(port, false);
	up(&port->sm_sem);
	/* a device already gone has no capability left to clear */
	return ret == -ENODEV ? 0 : ret;
}

const struct file_operations umad_issm_fops = {
	.owner = THIS_MODULE,
	.open = umad_issm_open,
	.release = umad_issm_release,
	.llseek = no_llseek,
};
