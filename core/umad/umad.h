/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ib_umad: the private interface between the files of core/umad/.
 *
 * Objects and their locks
 * -----------------------
 * umad_dev   one per ib_device with at least one MAD port; a kref held by
 *            the client and by every struct device of its ports (so by
 *            every open file, through the cdev), freed with the last.
 * umad_port  one per port that speaks MADs: /dev/infiniband/umadN and
 *            issmN. @lock guards @ib_dev (NULL once the device is going)
 *            and the list of open files (@files); agent registration and
 *            unregistration run under it, so removal never races them.
 *            @sm_sem makes issmN exclusive.
 * umad_file  one per open() of umadN. @lock guards the agent slots, the
 *            receive queue (@recvq, @recv_count), @dead and the P_Key
 *            index flags; @send_lock (a spinlock: taken in the MAD layer's
 *            handlers too) guards the list of MADs in flight (@sends).
 *
 * Lock order: port->lock, then file->lock, then file->send_lock. The MAD
 * layer's handlers take only file->lock or file->send_lock, and agents are
 * unregistered (which waits for the handlers) without file->lock held.
 */
#ifndef RDMAOOT_UMAD_H
#define RDMAOOT_UMAD_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_user_mad.h>

/* Agents one open file may hold at once. */
#define UMAD_MAX_AGENTS		32
/* Received MADs queued on one file before new ones are dropped. */
#define UMAD_MAX_RECV_QUEUED	200000
/*
 * The largest message a write() may carry, MAD header included: far above
 * any real RMPP transfer, far below what an int or the segment allocator
 * can be tricked with (the CVE-2026-23243 class of lengths).
 */
#define UMAD_MAX_WRITE_LEN	(4 << 20)

/* Device numbers: 64 fixed umad/issm pairs on major 231, then dynamic. */
#define UMAD_MAJOR		231
#define UMAD_FIXED_MINORS	64
#define UMAD_ISSM_MINOR_BASE	UMAD_FIXED_MINORS
#define UMAD_MAX_PORTS		8192
#define UMAD_DYNAMIC_MINORS	(UMAD_MAX_PORTS - UMAD_FIXED_MINORS)

struct umad_dev;

struct umad_port {
	u32			port_num;
	int			devnum;		/* the N of umadN and issmN */
	bool			published;	/* both files were added */
	struct umad_dev		*udev;
	struct ib_device	*ib_dev;	/* NULL once removed */
	struct mutex		lock;		/* @ib_dev, @files, agent (un)registration */
	struct list_head	files;		/* umad_file.port_node */
	struct semaphore	sm_sem;		/* one issmN holder */
	struct device		dev;		/* umadN */
	struct cdev		cdev;
	struct device		sm_dev;		/* issmN */
	struct cdev		sm_cdev;
};

struct umad_dev {
	struct kref		kref;
	u32			nports;
	struct umad_port	ports[];	/* rdma_start_port() first */
};

struct umad_file {
	struct mutex		lock;		/* see the top of this file */
	spinlock_t		send_lock;	/* @sends */
	struct umad_port	*port;
	struct list_head	port_node;	/* on port->files */
	struct list_head	recvq;		/* umad_packet.node, oldest first */
	unsigned int		recv_count;
	struct list_head	sends;		/* umad_packet.node, in flight */
	wait_queue_head_t	wait;		/* readers of @recvq */
	struct ib_mad_agent	*agents[UMAD_MAX_AGENTS];
	bool			dead;		/* the agents are gone */
	bool			pkey_index;	/* new header layout */
	bool			used;		/* an agent was registered */
};

/*
 * A MAD on its way to user space (received, or a send that timed out) or
 * one in flight from it. @recv_wc is set for a received MAD; @msg for a
 * send. @umad ends with room for the first IB_MGMT_RMPP_HDR bytes of a
 * sent MAD, kept for duplicate checks and the timeout report.
 */
struct umad_packet {
	struct list_head	node;
	struct ib_mad_send_buf	*msg;
	struct ib_mad_recv_wc	*recv_wc;
	int			length;		/* MAD bytes to report */
	struct ib_user_mad	umad;		/* must stay last */
};

/* umad_port.c */
extern struct ib_client umad_client;
extern struct ib_client umad_issm_client;
int umad_class_init(void);
void umad_class_exit(void);

/* umad_file.c */
extern const struct file_operations umad_fops;
size_t umad_hdr_size(const struct umad_file *file);
struct ib_mad_agent *umad_file_agent(struct umad_file *file, u32 id);
void umad_file_kill(struct umad_file *file);

/* umad_agent.c */
long umad_agent_register(struct umad_file *file, void __user *arg);
long umad_agent_register2(struct umad_file *file, void __user *arg);
long umad_agent_unregister(struct umad_file *file, u32 __user *arg);
long umad_agent_enable_pkey(struct umad_file *file);

/* umad_send.c */
ssize_t umad_send_write(struct umad_file *file, const char __user *buf,
			size_t count);
void umad_send_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_wc *send_wc);

/* umad_recv.c */
void umad_recv_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_buf *send_buf,
		       struct ib_mad_recv_wc *mad_recv_wc);
bool umad_recv_queue(struct umad_file *file, struct ib_mad_agent *agent,
		     struct umad_packet *packet, bool received);
void umad_recv_flush(struct umad_file *file);
ssize_t umad_recv_read(struct umad_file *file, char __user *buf,
		       size_t count, bool nonblock);
void umad_packet_free(struct umad_packet *packet);

/* umad_issm.c */
extern const struct file_operations umad_issm_fops;

#endif /* RDMAOOT_UMAD_H */
