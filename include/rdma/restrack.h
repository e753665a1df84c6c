/* SPDX-License-Identifier: GPL-2.0-only */
/* Resource tracking: the entry every verbs object embeds so nldev can list and pin it. */
#ifndef RDMAOOT_RDMA_RESTRACK_H
#define RDMAOOT_RDMA_RESTRACK_H

/*
 * The kernel headers below are the ones 6.1's restrack.h pulls in; drivers
 * built against 6.1 may depend on getting them through us.
 */
#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/typecheck.h>
#include <linux/xarray.h>
#include <uapi/rdma/rdma_netlink.h>

struct ib_device;
struct sk_buff;

/*
 * XArray mark for entries that carry driver-specific details (so far: a
 * QP's driver subtype) which nldev should ask the driver to fill in.
 */
#define RESTRACK_DD XA_MARK_1

/* Kinds of tracked objects; each has its own table per device. */
enum rdma_restrack_type {
	RDMA_RESTRACK_PD	= 0,
	RDMA_RESTRACK_CQ	= 1,
	RDMA_RESTRACK_QP	= 2,
	RDMA_RESTRACK_CM_ID	= 3,
	RDMA_RESTRACK_MR	= 4,
	RDMA_RESTRACK_CTX	= 5,
	RDMA_RESTRACK_COUNTER	= 6,
	RDMA_RESTRACK_SRQ	= 7,
	/* Number of kinds: sizes the per-device arrays of tables. */
	RDMA_RESTRACK_MAX
};

/*
 * Tracking state embedded in each object.
 *
 * @valid:     set once the entry is in the table, cleared when removed
 * @no_track:  never put this entry in the table (see rdma_restrack_no_track())
 * @kref:      held by readers (nldev) so the object is not released under them
 * @comp:      completed when the last reference is dropped; the owner waits
 *             on it before freeing
 * @task:      owning task for objects created from user space, else NULL
 * @kern_name: owning module's name for objects created by the kernel
 * @type:      which table the entry belongs to
 * @user:      created on behalf of user space
 * @id:        identifier shown to user space, unique per device and type
 */
struct rdma_restrack_entry {
	bool			valid;
	u8			no_track : 1;
	struct kref		kref;
	struct completion	comp;
	struct task_struct	*task;
	const char		*kern_name;
	enum rdma_restrack_type	type;
	bool			user;
	u32			id;
};

/* ---- Lookup and references ----------------------------------------------- */

int rdma_restrack_count(struct ib_device *dev, enum rdma_restrack_type type,
			bool show_details);

struct rdma_restrack_entry *rdma_restrack_get_byid(struct ib_device *dev,
						   enum rdma_restrack_type type,
						   u32 id);

/* Pin an entry; fails once the owner has started to destroy the object. */
int __must_check rdma_restrack_get(struct rdma_restrack_entry *res);

/* Drop a reference from rdma_restrack_get() or rdma_restrack_get_byid(). */
int rdma_restrack_put(struct rdma_restrack_entry *res);

/* ---- Entry flags --------------------------------------------------------- */

/* True when the object was created by a kernel user rather than user space. */
static inline bool rdma_is_kernel_res(const struct rdma_restrack_entry *res)
{
	return !res->user;
}

/*
 * Keep this object out of the tables (and so out of nldev output). Only for
 * driver-internal objects that must not be visible; call before adding.
 */
static inline void rdma_restrack_no_track(struct rdma_restrack_entry *res)
{
	res->no_track = 1;
}

static inline bool rdma_restrack_is_tracked(struct rdma_restrack_entry *res)
{
	return res->no_track == 0;
}

/* ---- Driver attributes in nldev replies ---------------------------------- */

/*
 * For a driver's fill_res_*_entry() callbacks: append one named
 * driver-specific attribute to the nldev message being built.
 */
int rdma_nl_put_driver_u32(struct sk_buff *msg, const char *name, u32 value);
int rdma_nl_put_driver_u32_hex(struct sk_buff *msg, const char *name,
			       u32 value);
int rdma_nl_put_driver_u64(struct sk_buff *msg, const char *name, u64 value);
int rdma_nl_put_driver_u64_hex(struct sk_buff *msg, const char *name,
			       u64 value);
int rdma_nl_put_driver_string(struct sk_buff *msg, const char *name,
			      const char *str);
int rdma_nl_stat_hwcounter_entry(struct sk_buff *msg, const char *name,
				 u64 value);

#endif /* RDMAOOT_RDMA_RESTRACK_H */
