// SPDX-License-Identifier: GPL-2.0-only
/*
 * An open umadN: open, close, the file operations that dispatch to the
 * agent, send and receive code, poll, and the cut-off of a file whose
 * device goes away.
 */

#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include "umad/umad.h"

/**
 * umad_hdr_size() - The size of the ib_user_mad header this file speaks
 * @file: the file
 *
 * Files that enabled P_Key indexes (ENABLE_PKEY, or REGISTER_AGENT2) use
 * struct ib_user_mad_hdr, the others its older, shorter form.
 *
 * Context: Any; the answer can only change before the first agent.
 * Return: the header size in bytes.
 */
size_t umad_hdr_size(const struct umad_file *file)
{
	return file->pkey_index ? sizeof(struct ib_user_mad_hdr) :
				  sizeof(struct ib_user_mad_hdr_old);
}

/**
 * umad_file_agent() - The agent of a file by its id
 * @file: the file
 * @id: the id REGISTER_AGENT returned, below UMAD_MAX_AGENTS
 *
 * Context: Caller holds file->lock.
 * Return: the agent, or NULL when @id is free or the file is cut off.
 */
struct ib_mad_agent *umad_file_agent(struct umad_file *file, u32 id)
{
	lockdep_assert_held(&file->lock);
	return file->dead ? NULL : file->agents[id];
}

/*
 * Mark @file dead and take its agents out of their slots, into @agents:
 * from here no handler queues anything on it. Returns how many there were.
 */
static unsigned int umad_file_take_agents(struct umad_file *file,
					  struct ib_mad_agent **agents)
{
	unsigned int i, n = 0;

	mutex_lock(&file->lock);
	file->dead = true;
	for (i = 0; i < UMAD_MAX_AGENTS; i++) {
		if (file->agents[i])
			agents[n++] = file->agents[i];
		file->agents[i] = NULL;
	}
	mutex_unlock(&file->lock);
	return n;
}

/*
 * Unregister @file's agents (each waits for its handlers and completes
 * its sends in flight, which frees them) and drop what the receive queue
 * still holds.
 */
static void umad_file_stop(struct umad_file *file)
{
	struct ib_mad_agent *agents[UMAD_MAX_AGENTS];
	unsigned int n;

	n = umad_file_take_agents(file, agents);
	wake_up_interruptible(&file->wait);
	while (n--)
		ib_unregister_mad_agent(agents[n]);
	umad_recv_flush(file);
}

/**
 * umad_file_kill() - Cut a file off its departing device
 * @file: an open file of the port being removed
 *
 * Its agents are unregistered, readers wake up to -EIO, poll() reports
 * EPOLLERR, and every later call fails; the file stays open until its
 * process closes it, which nobody waits for.
 *
 * Context: Caller holds file->port->lock; may sleep.
 */
void umad_file_kill(struct umad_file *file)
{
	lockdep_assert_held(&file->port->lock);
	umad_file_stop(file);
}

static struct umad_file *umad_file_alloc(struct umad_port *port)
{
	struct umad_file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!file)
		return NULL;
	mutex_init(&file->lock);
	spin_lock_init(&file->send_lock);
	INIT_LIST_HEAD(&file->recvq);
	INIT_LIST_HEAD(&file->sends);
	init_waitqueue_head(&file->wait);
	file->port = port;
	return file;
}

/* May the caller use @port? -ENXIO once its device is gone. */
static int umad_port_usable(struct umad_port *port)
{
	lockdep_assert_held(&port->lock);
	if (!port->ib_dev)
		return -ENXIO;
	if (!rdma_dev_access_netns(port->ib_dev, current->nsproxy->net_ns))
		return -EPERM;
	return 0;
}

static int umad_open(struct inode *inode, struct file *filp)
{
	struct umad_port *port = container_of(inode->i_cdev, struct umad_port,
					      cdev);
	struct umad_file *file = umad_file_alloc(port);
	int ret;

	if (!file)
		return -ENOMEM;
	mutex_lock(&port->lock);
	ret = umad_port_usable(port);
	if (!ret)
		list_add_tail(&file->port_node, &port->files);
	mutex_unlock(&port->lock);
	if (ret) {
		mutex_destroy(&file->lock);
		kfree(file);
		return ret;
	}
	filp->private_data = file;
	return stream_open(inode, filp);
}

static int umad_release(struct inode *inode, struct file *filp)
{
	struct umad_file *file = filp->private_data;
	struct umad_port *port = file->port;

	mutex_lock(&port->lock);
	list_del(&file->port_node);
	umad_file_stop(file);
	mutex_unlock(&port->lock);

	mutex_destroy(&file->lock);
	kfree(file);
	return 0;
}

static ssize_t umad_read(struct file *filp, char __user *buf, size_t count,
			 loff_t *pos)
{
	return umad_recv_read(filp->private_data, buf, count,
			      filp->f_flags & O_NONBLOCK);
}

static ssize_t umad_write(struct file *filp, const char __user *buf,
			  size_t count, loff_t *pos)
{
	return umad_send_write(filp->private_data, buf, count);
}

/* Sends are never refused for want of room: always writable. */
static __poll_t umad_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct umad_file *file = filp->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	poll_wait(filp, &file->wait, wait);
	mutex_lock(&file->lock);
	if (!list_empty(&file->recvq))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (file->dead)
		mask = EPOLLERR;
	mutex_unlock(&file->lock);
	return mask;
}

static long umad_ioctl_pkey(struct umad_file *file, void __user *arg)
{
	return umad_agent_enable_pkey(file);
}

static long umad_ioctl_unregister(struct umad_file *file, void __user *arg)
{
	return umad_agent_unregister(file, arg);
}

/* The ioctls of umadN and what serves each. */
static const struct {
	unsigned int cmd;
	long (*handler)(struct umad_file *file, void __user *arg);
} umad_ioctls[] = {
	{ IB_USER_MAD_REGISTER_AGENT, umad_agent_register },
	{ IB_USER_MAD_REGISTER_AGENT2, umad_agent_register2 },
	{ IB_USER_MAD_UNREGISTER_AGENT, umad_ioctl_unregister },
	{ IB_USER_MAD_ENABLE_PKEY, umad_ioctl_pkey },
};

static long umad_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(umad_ioctls); i++)
		if (umad_ioctls[i].cmd == cmd)
			return umad_ioctls[i].handler(filp->private_data,
						      (void __user *)arg);
	return -ENOIOCTLCMD;
}

const struct file_operations umad_fops = {
	.owner = THIS_MODULE,
	.llseek = no_llseek,
	.unlocked_ioctl = umad_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = umad_poll,
	.read = umad_read,
	.write = umad_write,
	.open = umad_open,
	.release = umad_release,
};
