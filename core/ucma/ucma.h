/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdma_ucm: the private interface between the files of core/ucma/.
 *
 * Objects and their locks
 * -----------------------
 * ucma_file  one per open() of /dev/infiniband/rdma_cm. @lock guards its
 *            list of contexts (@ctxs) and its event queue (@events);
 *            @wait wakes readers of the queue.
 * ucma_ctx   one per user id. Published in the global table ucma_ctxs
 *            under its number; lookups take a reference (@users) under the
 *            table's lock, and the table itself holds one. @lock orders the
 *            commands that call into rdma_cm for this id. The CM's handler
 *            lock (rdma_lock_handler()) is taken inside @lock, never the
 *            other way round; the event handler takes only the file's lock.
 *            @file changes (MIGRATE_ID) only under both the handler lock
 *            and the table's lock, so either is enough to read it.
 * ucma_mc    one per multicast join, in the global table ucma_mcs, on its
 *            context's @mcs list (guarded by the ucma_mcs lock).
 *
 * Lifetime: a context is built, then published (xa_store); it is
 * unpublished (its slot swapped for a reserved entry: only one caller can
 * win) before it is torn down by ucma_ctx_destroy(), which waits for the
 * users, destroys the rdma_cm id (no event can follow), then drops the
 * events still queued for it.
 */
#ifndef RDMAOOT_UCMA_H
#define RDMAOOT_UCMA_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/socket.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_user_cm.h>

struct ucma_file {
	struct mutex		lock;	/* @ctxs and @events */
	struct list_head	ctxs;
	struct list_head	events;
	wait_queue_head_t	wait;
	struct file		*filp;
};

struct ucma_ctx {
	u32			id;
	u64			uid;	/* 0 until a new connection is accepted */
	struct ucma_file	*file;
	struct rdma_cm_id	*cm_id;	/* NULL once closed */
	struct mutex		lock;	/* calls into rdma_cm for this id */
	refcount_t		users;
	struct completion	idle;	/* @users reached 0 */
	int			events_reported;	/* under file->lock */
	atomic_t		backlog;	/* requests not yet reported */
	struct list_head	file_node;	/* on file->ctxs */
	struct list_head	mcs;	/* ucma_mc.node, under the mcs table lock */
	struct work_struct	close_work;	/* device removal */
};

struct ucma_mc {
	struct sockaddr_storage	addr;	/* the group */
	struct ucma_ctx		*ctx;
	struct list_head	node;	/* on ctx->mcs */
	u64			uid;
	u32			id;
	int			events_reported;	/* under file->lock */
	u8			join_state;
};

/* A queued event; @child is the new context of a CONNECT_REQUEST. */
struct ucma_event {
	struct rdma_ucm_event_resp resp;	/* what GET_EVENT copies out */
	struct list_head	node;	/* on file->events */
	struct ucma_ctx		*ctx;	/* reporting context */
	struct ucma_mc		*mc;	/* join of a multicast event */
	struct ucma_ctx		*child;
};

extern struct xarray ucma_ctxs;
extern struct xarray ucma_mcs;
extern unsigned int ucma_max_backlog;
extern const struct file_operations ucma_fops;

/* ucma_ctx.c: contexts */
struct ucma_ctx *ucma_ctx_alloc(struct ucma_file *file);
void ucma_ctx_set_id(struct ucma_ctx *ctx, struct rdma_cm_id *cm_id);
void ucma_ctx_publish(struct ucma_ctx *ctx);
struct ucma_ctx *ucma_ctx_get(struct ucma_file *file, u32 id);
void ucma_ctx_put(struct ucma_ctx *ctx);
struct ucma_ctx *ucma_ctx_unpublish(struct ucma_file *file, u32 id);
int ucma_ctx_destroy(struct ucma_ctx *ctx);
void ucma_ctx_close_id(struct ucma_ctx *ctx);

/* ucma_event.c: the event handler and the file's queue */
int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *event);
int ucma_event_purge_ctx(struct ucma_ctx *ctx);
void ucma_event_purge_mc(struct ucma_mc *mc);

/* ucma_cmd_table.c: dispatch of a write() */
ssize_t ucma_cmd_dispatch(struct ucma_file *file, const char __user *buf,
			  size_t len);

/*
 * One command being run. @cmd is the command (copied from user space,
 * @in_len bytes offered), @out_len the bytes the response may take, @ctx
 * the id the command names (looked up by the dispatcher, its lock held)
 * or NULL for commands that find their objects themselves.
 */
struct ucma_req {
	struct ucma_file	*file;
	void			*cmd;
	u32			in_len;
	u32			out_len;
	struct ucma_ctx		*ctx;
};

typedef int (*ucma_cmd_fn)(struct ucma_req *req);

/* How ucma_cmd_dispatch() finds the id a command names. */
enum ucma_find {
	UCMA_FIND_NONE,		/* the command finds what it needs itself */
	UCMA_FIND_ID,		/* any id of this file */
	UCMA_FIND_BOUND,	/* an id of this file already on a device */
};

/*
 * @size: the command's structure. @in_min: 0 when the whole structure is
 * read whatever the header says (6.1 reads it so); otherwise the header
 * must offer at least @in_min bytes and no more than it offers is read
 * (the commands that grew: CONNECT and ACCEPT with ECE). @out_min: room
 * the response needs, checked before anything else (-ENOSPC).
 */
struct ucma_cmd_desc {
	ucma_cmd_fn	run;
	u16		size, in_min, out_min, id_off;
	enum ucma_find	find;
	ucma_cmd_fn	check;
};

/* ucma_cmd_table.c: the table's row of a command, and its length check */
const struct ucma_cmd_desc *ucma_cmd_lookup(u32 cmd);
int ucma_cmd_copy_len(const struct ucma_cmd_desc *desc, u32 in_len,
		      u32 out_len);

/* Commands, one file per family. */
int ucma_cmd_create_id(struct ucma_req *req);
int ucma_cmd_destroy_id(struct ucma_req *req);
int ucma_cmd_migrate_id(struct ucma_req *req);
int ucma_cmd_get_event(struct ucma_req *req);

int ucma_cmd_bind_ip(struct ucma_req *req);
int ucma_cmd_bind(struct ucma_req *req);
int ucma_cmd_resolve_ip(struct ucma_req *req);
int ucma_cmd_resolve_addr(struct ucma_req *req);
int ucma_cmd_resolve_route(struct ucma_req *req);
int ucma_cmd_query_route(struct ucma_req *req);
int ucma_cmd_query(struct ucma_req *req);

int ucma_cmd_connect(struct ucma_req *req);
int ucma_cmd_listen(struct ucma_req *req);
int ucma_cmd_accept(struct ucma_req *req);
int ucma_cmd_reject(struct ucma_req *req);
int ucma_cmd_disconnect(struct ucma_req *req);
int ucma_cmd_init_qp_attr(struct ucma_req *req);
int ucma_cmd_notify(struct ucma_req *req);

int ucma_cmd_set_option(struct ucma_req *req);

int ucma_cmd_join_ip_mcast(struct ucma_req *req);
int ucma_cmd_join_mcast(struct ucma_req *req);
int ucma_cmd_leave_mcast(struct ucma_req *req);

/* Validators run before the id is looked up (0 or -EINVAL). */
int ucma_check_create_id(struct ucma_req *req);
int ucma_check_bind_ip(struct ucma_req *req);
int ucma_check_bind(struct ucma_req *req);
int ucma_check_resolve_ip(struct ucma_req *req);
int ucma_check_resolve_addr(struct ucma_req *req);
int ucma_check_connect(struct ucma_req *req);
int ucma_check_reject(struct ucma_req *req);
int ucma_check_init_qp_attr(struct ucma_req *req);
int ucma_check_set_option(struct ucma_req *req);

static inline void __user *ucma_uptr(u64 v)
{
	return u64_to_user_ptr(v);
}

/* Copy @len bytes of @src to the user's @resp, at most what it offers. */
static inline int ucma_respond(struct ucma_req *req, u64 resp,
			       const void *src, size_t len)
{
	return copy_to_user(ucma_uptr(resp), src, min_t(size_t, len,
		req->out_len)) ? -EFAULT : 0;
}

#endif /* RDMAOOT_UCMA_H */
