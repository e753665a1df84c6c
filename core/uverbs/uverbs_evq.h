/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event queue behind both event files of ib_uverbs: completion channels and
 * the async event file (uverbs_evq.c).
 */
#ifndef RDMAOOT_CORE_UVERBS_EVQ_H
#define RDMAOOT_CORE_UVERBS_EVQ_H

#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <uapi/rdma/ib_user_verbs.h>

/*
 * A queue of event descriptors that read() hands out one at a time, oldest
 * first. @lock protects @events and @closed; @wait holds the readers and
 * pollers, woken on every change; @fasync the SIGIO subscribers.
 * @desc_size is what one read() copies: a completion channel's descriptor
 * or the longer async one. A closed queue takes no more events; drained,
 * its read() answers -EIO. The queue is its file's private_data: an owner
 * embeds it and finds itself again with container_of().
 */
struct uverbs_evq {
	/* protects @events and @closed */
	spinlock_t lock;
	wait_queue_head_t wait;
	struct list_head events;
	struct fasync_struct *fasync;
	size_t desc_size;
	bool closed;
};

/* Either descriptor a queue holds; a completion's fills the first 8 bytes. */
union uverbs_evq_desc {
	struct ib_uverbs_comp_event_desc comp;
	struct ib_uverbs_async_event_desc async;
};

void uverbs_evq_init(struct uverbs_evq *q, size_t desc_size);
void uverbs_evq_add(struct uverbs_evq *q, const union uverbs_evq_desc *desc,
		    struct list_head *obj_list, u32 *counter);
void uverbs_evq_forget(struct uverbs_evq *q, struct list_head *obj_list);
void uverbs_evq_close(struct uverbs_evq *q, bool flush);
ssize_t uverbs_evq_read(struct file *filp, char __user *buf, size_t count,
			loff_t *pos);
__poll_t uverbs_evq_poll(struct file *filp, poll_table *wait);
int uverbs_evq_fasync(int fd, struct file *filp, int on);
struct file *uverbs_evq_file(struct uverbs_evq *q,
			     const struct file_operations *fops);

#endif /* RDMAOOT_CORE_UVERBS_EVQ_H */
