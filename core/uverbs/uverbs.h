/* SPDX-License-Identifier: GPL-2.0-only */
/* core/uverbs/: ib_uverbs, the userspace verbs character devices, as its files see each other. */
#ifndef RDMAOOT_CORE_UVERBS_UVERBS_H
#define RDMAOOT_CORE_UVERBS_UVERBS_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/srcu.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

/*
 * Lifetime, in one place (Documentation/uverbs.rst says the same):
 *
 * A uverbs_dev exists for every ib_device whose driver can make user
 * contexts. Its struct device (class infiniband_verbs) counts its users:
 * the client's add() holds the first reference, every open file one more,
 * and the memory goes with the last put. The ib_device itself is reached
 * only through @ib_dev, an SRCU-protected pointer: every system call reads
 * it inside srcu_read_lock(&@srcu) and finds NULL once the device is being
 * removed. remove() clears the pointer, waits for the readers
 * (synchronize_srcu()), then takes every open file off @files and destroys
 * what the file still holds on the device (its objects, its ucontext),
 * queueing a fatal event for its async event file. remove() never waits for
 * user space: files stay open and answer -EIO from then on.
 */
struct uverbs_dev {
	struct device dev;
	struct cdev cdev;
	int devnum;
	struct ib_device __rcu *ib_dev;
	struct srcu_struct srcu;
	/* protects @files, the open files that still hold device resources */
	struct mutex lists_mutex;
	struct list_head files;
};

struct uverbs_async_file;

/*
 * One open of /dev/infiniband/uverbsN. @ucontext_lock serialises creating
 * the ucontext with destroying the file's device resources (at close and
 * at device removal); @ucontext is published with smp_store_release() once
 * complete and read with smp_load_acquire() by commands.
 */
struct ib_uverbs_file {
	struct uverbs_dev *udev;
	struct list_head list;		/* on udev->files, under lists_mutex */
	struct kref ref;
	/* serialises creating @ucontext with destroying the file's resources */
	struct mutex ucontext_lock;
	struct ib_ucontext *ucontext;
	struct uverbs_async_file *async;	/* under ucontext_lock */
	struct list_head comp_channels;		/* under ucontext_lock */
	/* the handle table: struct ib_uobject by handle */
	struct xarray uobjs;
};

/* ---- The uverbs devices (uverbs_dev.c) ----------------------------------- */

#define UVERBS_MAJOR		231
#define UVERBS_BASE_MINOR	192
#define UVERBS_FIXED_MINORS	32
#define UVERBS_MAX_DEVICES	1024
/* The ABI the class file reports: the uverbs command set of 6.1. */
#define UVERBS_CLASS_ABI	IB_USER_VERBS_ABI_VERSION

extern struct ib_client uverbs_client;
int uverbs_dev_init(void);
void uverbs_dev_exit(void);
struct ib_device *uverbs_dev_get_ibdev(struct uverbs_dev *udev);

/* ---- Open files (uverbs_file.c) ------------------------------------------ */

extern const struct file_operations uverbs_fops;
void uverbs_file_put(struct ib_uverbs_file *file);
void uverbs_file_destroy_hw(struct ib_uverbs_file *file, bool removal);
struct ib_ucontext *uverbs_file_ucontext(struct ib_uverbs_file *file);

/* ---- The async event file (uverbs_async.c) ------------------------------- */

struct uverbs_async_file *uverbs_async_create(struct file **filp);
void uverbs_async_put(struct uverbs_async_file *async);
void uverbs_async_queue(struct uverbs_async_file *async, u64 element,
			u32 event_type);
struct uverbs_async_file *uverbs_async_get(struct ib_uverbs_file *file);
void uverbs_async_queue_obj(struct uverbs_async_file *async, u64 element,
			    u32 event_type, struct list_head *obj_list,
			    u32 *counter);
void uverbs_async_forget(struct uverbs_async_file *async,
			 struct list_head *obj_list);
void uverbs_async_watch(struct uverbs_async_file *async,
			struct ib_device *ib_dev);
void uverbs_async_unwatch(struct uverbs_async_file *async);

/* ---- Completion channels (uverbs_comp.c) --------------------------------- */

struct uverbs_comp_channel;
struct uverbs_comp_channel *uverbs_comp_get(int fd, struct ib_uverbs_file *file);
void uverbs_comp_put(struct uverbs_comp_channel *ch);
void uverbs_comp_queue(struct uverbs_comp_channel *ch, u64 cq_handle,
		       struct list_head *obj_list, u32 *counter);
void uverbs_comp_close_all(struct ib_uverbs_file *file);
void uverbs_comp_forget(struct uverbs_comp_channel *ch,
			struct list_head *obj_list);

/* ---- mmap() of driver buffers (uverbs_mmap.c) ---------------------------- */

int uverbs_mmap(struct file *filp, struct vm_area_struct *vma);

/* ---- The handle table (uverbs_uobj.c) ------------------------------------ */

/**
 * struct uverbs_obj_type - what the handle table knows of a kind of object
 * @name: for messages
 * @destroy: destroy the object of @uobj; called once nobody else uses the
 *	     handle. With @force (close, device removal) it must release
 *	     everything even if the driver refuses; otherwise it may fail
 *	     (-EBUSY while other objects use it) and the handle stays.
 */
struct uverbs_obj_type {
	const char *name;
	int (*destroy)(struct ib_uobject *uobj, struct ib_uverbs_file *file,
		       bool force);
};

/* The handle table's view of uobject->uapi_object. */
struct uverbs_api_object {
	const struct uverbs_obj_type *type;
};

extern const struct uverbs_api_object uverbs_obj_pd;
extern const struct uverbs_api_object uverbs_obj_mr;
extern const struct uverbs_api_object uverbs_obj_mw;
extern const struct uverbs_api_object uverbs_obj_cq;

struct ib_uobject *uverbs_uobj_alloc(struct ib_uverbs_file *file,
				     const struct uverbs_api_object *type);
int uverbs_uobj_publish(struct ib_uobject *uobj);
void uverbs_uobj_abort(struct ib_uobject *uobj);
struct ib_uobject *uverbs_uobj_get_read(struct ib_uverbs_file *file,
					const struct uverbs_api_object *type,
					u32 handle);
void uverbs_uobj_put_read(struct ib_uobject *uobj);
struct ib_uobject *uverbs_uobj_get_write(struct ib_uverbs_file *file,
					 const struct uverbs_api_object *type,
					 u32 handle);
void uverbs_uobj_put_write(struct ib_uobject *uobj);
void *uverbs_uobj_replace(struct ib_uobject *uobj, void *object);
int uverbs_uobj_destroy(struct ib_uverbs_file *file,
			const struct uverbs_api_object *type, u32 handle);
void uverbs_uobj_destroy_all(struct ib_uverbs_file *file);

/* ---- write() commands (uverbs_write.c, uverbs_cmd_*.c) ------------------- */

/**
 * struct uverbs_cmd_ctx - one write() command as its handler sees it
 * @file: the file it came on
 * @ib_dev: the device, valid for the whole command (SRCU read side held)
 * @ucontext: the file's ucontext, set for commands that need one
 * @ucore: the core request and response (user buffers)
 * @driver_udata: the driver's part of request and response
 * @bundle: lays @driver_udata and @ucontext out as struct uverbs_attr_bundle
 *	    does, so that rdma_udata_to_drv_context() finds @ucontext
 */
struct uverbs_cmd_ctx {
	struct ib_uverbs_file *file;
	struct ib_device *ib_dev;
	/* drivers find @ucontext from @driver_udata (rdma_udata_to_drv_context) */
	union {
		struct uverbs_attr_bundle bundle;
		struct {
			struct ib_udata driver_udata;
			struct ib_ucontext *ucontext;
		};
	};
	struct ib_udata ucore;
};

static_assert(offsetof(struct uverbs_cmd_ctx, ucontext) ==
	      offsetof(struct uverbs_cmd_ctx, bundle.context));

/**
 * struct uverbs_cmd - one row of the write() command table
 * @handler: runs the command; NULL: not implemented (-EOPNOTSUPP)
 * @req_size: the least core request the command accepts, in bytes
 * @resp_size: the least core response room it needs, in bytes
 * @has_resp: the request starts with the u64 address of the response
 * @has_udata: bytes past the core structs are the driver's
 * @is_ex: an extended command (IB_USER_VERBS_CMD_FLAG_EXTENDED)
 * @no_ucontext: runs before GET_CONTEXT (every other command answers
 *		 -EINVAL on a file without a ucontext)
 * @needs: offset in struct ib_device_ops of the driver op the command
 *	   cannot work without, or 0
 */
struct uverbs_cmd {
	int (*handler)(struct uverbs_cmd_ctx *ctx);
	u16 req_size;
	u16 resp_size;
	u8 has_resp:1;
	u8 has_udata:1;
	u8 is_ex:1;
	u8 no_ucontext:1;
	u16 needs;
};

const struct uverbs_cmd *uverbs_cmd_lookup(u32 command);
bool uverbs_cmd_supported(const struct uverbs_cmd *cmd,
			  const struct ib_device *ib_dev);
int uverbs_cmd_hdr_check(const struct ib_uverbs_cmd_hdr *hdr,
			 const struct ib_uverbs_ex_cmd_hdr *ex, size_t count,
			 const struct uverbs_cmd *cmd);
ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos);

int uverbs_cmd_request(struct uverbs_cmd_ctx *ctx, void *req, size_t len);
int uverbs_cmd_response(struct uverbs_cmd_ctx *ctx, const void *resp,
			size_t len);

int uverbs_cmd_get_context(struct uverbs_cmd_ctx *ctx);
struct ib_ucontext *uverbs_ucontext_alloc(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_query_device(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_ex_query_device(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_query_port(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_alloc_pd(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_dealloc_pd(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_reg_mr(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_rereg_mr(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_dereg_mr(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_alloc_mw(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_dealloc_mw(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_comp_channel(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_ex_create_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_resize_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_poll_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_req_notify_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_cq(struct uverbs_cmd_ctx *ctx);
void uverbs_port_attr_copy(struct ib_uverbs_query_port_resp *resp,
			   struct ib_device *ib_dev, u32 port,
			   const struct ib_port_attr *attr);

/* ---- Objects with async events only: QPs, SRQs (uverbs_uevent.c) -------- */

/**
 * struct uverbs_uevent - the user side of a QP or SRQ
 * @ref: the object's reference and that of a DESTROY command reading
 *	 @events_reported after the object went
 * @user_handle: the object's name in its events
 * @async: the file's async event file the events go to, or NULL
 * @async_list: the object's unread events on @async
 * @events_reported: events user space read (for DESTROY's response)
 * @destroyed: the object is gone
 *
 * It starts the objects the core knows by type (qp->uobject,
 * srq->uobject) and is the context their event handler gets.
 */
struct uverbs_uevent {
	struct kref ref;
	u64 user_handle;
	struct uverbs_async_file *async;
	struct list_head async_list;
	u32 events_reported;
	bool destroyed;
};

struct uverbs_uevent *uverbs_uevent_alloc(struct uverbs_cmd_ctx *ctx,
					  u64 user_handle, size_t size);
void uverbs_uevent_handler(struct ib_event *event, void *context);
void uverbs_uevent_release(struct uverbs_uevent *ue);
int uverbs_uevent_destroy(struct ib_uverbs_file *file,
			  const struct uverbs_api_object *type,
			  struct ib_uobject *uobj, struct uverbs_uevent *ue,
			  u32 *events_reported);

/* SRQs (uverbs_cmd_srq.c): the kind, and the lookup other commands use */
extern const struct uverbs_api_object uverbs_obj_srq;
struct ib_srq *uverbs_srq_get(struct ib_uverbs_file *file, u32 handle,
			      struct ib_uobject **uobj);
int uverbs_cmd_create_srq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_xsrq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_modify_srq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_query_srq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_srq(struct uverbs_cmd_ctx *ctx);

/**
 * struct ib_uqp_object - the user side of a QP (qp->uobject)
 * @uevent: handle, async events, DESTROY's count
 * @mcast_lock: protects @mcast_list
 * @mcast_list: the groups the process attached the QP to
 *		(uverbs_cmd_mcast.c)
 */
struct ib_uqp_object {
	struct uverbs_uevent uevent;
	/* protects @mcast_list */
	struct mutex mcast_lock;
	struct list_head mcast_list;
};

static_assert(offsetof(struct ib_uqp_object, uevent) == 0);

/* QPs (uverbs_cmd_qp.c), AHs (uverbs_cmd_ah.c), multicast (uverbs_cmd_mcast.c) */
extern const struct uverbs_api_object uverbs_obj_qp;
extern const struct uverbs_api_object uverbs_obj_ah;
int uverbs_cmd_create_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_ex_create_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_modify_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_ex_modify_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_query_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_post_send(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_ah(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_ah(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_attach_mcast(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_detach_mcast(struct uverbs_cmd_ctx *ctx);
void uverbs_mcast_detach_all(struct ib_qp *qp);

#endif /* RDMAOOT_CORE_UVERBS_UVERBS_H */
