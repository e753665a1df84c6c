// SPDX-License-Identifier: GPL-2.0-only
/* Resource tracking: per-device tables of the verbs objects, for nldev and leak reports. */

#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_counter.h>
#include <rdma/restrack.h>

#include "restrack/restrack.h"

/*
 * How an entry gets into its table and how a reader finds out who owns it.
 *
 * Lifetime of an entry (all in the owning object, no allocation here):
 *
 *   rdma_restrack_new()        kref 1, completion armed
 *   set_name()/parent_name()   owner: a module name, or a held task
 *   rdma_restrack_add()        in dev->res[type].xa, ->valid set
 *   rdma_restrack_get()/put()  readers pin the object while it is valid
 *   rdma_restrack_del()        out of the table, the owner's reference
 *                              dropped, then wait until every reader has
 *                              put theirs; the task is released
 *
 * The destroy verbs split del into begin (hide the entry behind a reserved
 * slot, wait for readers), then commit (free the slot) or, when the driver
 * refused to destroy, abort (put the entry back, fresh kref).
 */

/**
 * struct restrack_kind - what restrack knows about one type of object
 * @name: for the leak report
 * @located: the offsets below are valid: the entry can lead to its device
 * @res_off: where the struct rdma_restrack_entry sits in the object
 * @dev_off: where the object's struct ib_device pointer sits
 * @insert: put the entry into @root under an id of the object's own
 *	    choosing; NULL to take the next cyclic id
 */
struct restrack_kind {
	const char *name;
	bool located;
	size_t res_off;
	size_t dev_off;
	int (*insert)(struct rdma_restrack_root *root,
		      struct rdma_restrack_entry *res);
};

static int restrack_insert_qp(struct rdma_restrack_root *root,
			      struct rdma_restrack_entry *res);
static int restrack_insert_counter(struct rdma_restrack_root *root,
				   struct rdma_restrack_entry *res);

/* A kind whose objects hold their entry in 'res' and their device in 'device'. */
#define RESTRACK_OBJ(kind_name, obj_type)			\
	.name = kind_name,					\
	.located = true,					\
	.res_off = offsetof(obj_type, res),			\
	.dev_off = offsetof(obj_type, device)

/*
 * Indexed by enum rdma_restrack_type. CM ids live inside rdma_cm's private
 * structures, which this file cannot see: rdma_cm's reader finds their
 * device (restrack_cm_id_dev()).
 */
static const struct restrack_kind restrack_kinds[RDMA_RESTRACK_MAX] = {
	[RDMA_RESTRACK_PD]	= { RESTRACK_OBJ("PD", struct ib_pd) },
	[RDMA_RESTRACK_CQ]	= { RESTRACK_OBJ("CQ", struct ib_cq) },
	[RDMA_RESTRACK_QP]	= { RESTRACK_OBJ("QP", struct ib_qp),
				    .insert = restrack_insert_qp },
	[RDMA_RESTRACK_CM_ID]	= { .name = "CM_ID" },
	[RDMA_RESTRACK_MR]	= { RESTRACK_OBJ("MR", struct ib_mr) },
	[RDMA_RESTRACK_CTX]	= { RESTRACK_OBJ("CTX", struct ib_ucontext) },
	[RDMA_RESTRACK_COUNTER]	= { RESTRACK_OBJ("COUNTER", struct rdma_counter),
				    .insert = restrack_insert_counter },
	[RDMA_RESTRACK_SRQ]	= { RESTRACK_OBJ("SRQ", struct ib_srq) },
};

static const struct restrack_kind *restrack_kind_of(enum rdma_restrack_type type)
{
	if (WARN_ONCE((unsigned int)type >= RDMA_RESTRACK_MAX,
		      "bad restrack type %u\n", type))
		return NULL;
	return &restrack_kinds[type];
}

/* ---- rdma_cm's ids -------------------------------------------------------- */

/* rdma_cm's reader of its entries; NULL while rdma_cm is not loaded. */
static rdma_restrack_cm_id_reader restrack_cm_id_reader;

/**
 * rdma_restrack_cm_id_register() - rdma_cm tells restrack how to read its ids
 * @reader: fills a struct rdma_restrack_cm_id_info for an entry of type
 *	    RDMA_RESTRACK_CM_ID; must not sleep, may be called from any
 *	    context while the entry is held or being added or deleted
 *
 * Called by rdma_cm before any of its ids can get a device, undone by
 * rdma_restrack_cm_id_unregister() once none has one any more.
 *
 * Context: any.
 */
void rdma_restrack_cm_id_register(rdma_restrack_cm_id_reader reader)
{
	WARN_ON(READ_ONCE(restrack_cm_id_reader));
	WRITE_ONCE(restrack_cm_id_reader, reader);
}
EXPORT_SYMBOL(rdma_restrack_cm_id_register);

/**
 * rdma_restrack_cm_id_unregister() - rdma_cm is going away
 *
 * Context: any; no entry of type RDMA_RESTRACK_CM_ID may exist.
 */
void rdma_restrack_cm_id_unregister(void)
{
	WRITE_ONCE(restrack_cm_id_reader, NULL);
}
EXPORT_SYMBOL(rdma_restrack_cm_id_unregister);

/*
 * Fill @info for @res, a CM id's entry. Return: false when no reader is
 * registered (an entry cannot exist then: a bug elsewhere).
 */
bool rdma_restrack_cm_id_read(const struct rdma_restrack_entry *res,
			      struct rdma_restrack_cm_id_info *info)
{
	rdma_restrack_cm_id_reader reader = READ_ONCE(restrack_cm_id_reader);

	memset(info, 0, sizeof(*info));
	if (WARN_ON_ONCE(!reader || res->type != RDMA_RESTRACK_CM_ID))
		return false;
	reader(res, info);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rdma_restrack_cm_id_read);

static struct ib_device *restrack_cm_id_dev(const struct rdma_restrack_entry *res)
{
	struct rdma_restrack_cm_id_info info;

	return rdma_restrack_cm_id_read(res, &info) ? info.device : NULL;
}

/* The device of the object @res is embedded in, or NULL if unknown. */
static struct ib_device *restrack_dev(const struct rdma_restrack_entry *res)
{
	const struct restrack_kind *kind = restrack_kind_of(res->type);
	const void *obj;

	if (res->type == RDMA_RESTRACK_CM_ID)
		return restrack_cm_id_dev(res);
	if (!kind || !kind->located)
		return NULL;
	obj = (const void *)res - kind->res_off;
	return *(struct ib_device * const *)(obj + kind->dev_off);
}

/* The table @res belongs in, or NULL (with a warning) if there is none. */
static struct rdma_restrack_root *restrack_root(struct rdma_restrack_entry *res)
{
	struct ib_device *dev = restrack_dev(res);

	if (WARN_ONCE(!dev || !dev->res, "no restrack table for type %u\n",
		      res->type))
		return NULL;
	return &dev->res[res->type];
}

/* ---- Ids ----------------------------------------------------------------- */

/* QP numbers are 24 bits and port numbers 8: a special QP's id has both. */
#define RESTRACK_QPN_BITS	24

/*
 * A QP is listed under its QP number so that nldev's LQPN finds it. QP0
 * and QP1 exist once per port, so theirs carries the port in the top byte.
 * Driver-specific QP types are marked for nldev to ask the driver.
 */
static int restrack_insert_qp(struct rdma_restrack_root *root,
			      struct rdma_restrack_entry *res)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);
	int err;

	if (qp->qp_num >> RESTRACK_QPN_BITS || qp->port > U8_MAX) {
		ibdev_warn(qp->device, "QP %#x on port %u: no restrack id\n",
			   qp->qp_num, qp->port);
		return -ERANGE;
	}
	res->id = qp->qp_num;
	if (qp->qp_type == IB_QPT_SMI || qp->qp_type == IB_QPT_GSI)
		res->id |= qp->port << RESTRACK_QPN_BITS;

	err = xa_insert(&root->xa, res->id, res, GFP_KERNEL);
	if (err)
		return err;
	if (qp->qp_type >= IB_QPT_DRIVER)
		xa_set_mark(&root->xa, res->id, RESTRACK_DD);
	return 0;
}

/* A counter is listed under the id the driver gave it. */
static int restrack_insert_counter(struct rdma_restrack_root *root,
				   struct rdma_restrack_entry *res)
{
	struct rdma_counter *counter =
		container_of(res, struct rdma_counter, res);

	res->id = counter->id;
	return xa_insert(&root->xa, res->id, res, GFP_KERNEL);
}

/* Everything else: the next free id after the last one handed out. */
static int restrack_insert_cyclic(struct rdma_restrack_root *root,
				  struct rdma_restrack_entry *res)
{
	int ret = xa_alloc_cyclic(&root->xa, &res->id, res, xa_limit_32b,
				  &root->next_id, GFP_KERNEL);

	/* 1 only says the ids wrapped around */
	return ret < 0 ? ret : 0;
}

/* ---- Device tables ------------------------------------------------------- */

/**
 * rdma_restrack_init() - Give a device its empty resource tables
 * @dev: the device, being allocated
 *
 * Context: Process context, may sleep.
 * Return: 0, or -ENOMEM.
 */
int rdma_restrack_init(struct ib_device *dev)
{
	unsigned int i;

	dev->res = kcalloc(RDMA_RESTRACK_MAX, sizeof(*dev->res), GFP_KERNEL);
	if (!dev->res)
		return -ENOMEM;
	for (i = 0; i < RDMA_RESTRACK_MAX; i++)
		xa_init_flags(&dev->res[i].xa, XA_FLAGS_ALLOC);
	return 0;
}

/*
 * A kernel object's owner name is a string in its module's memory: an
 * object leaked by a module that is gone names memory that went with it.
 * Read it without faulting, into @name; say so when it cannot be read.
 */
static const char *restrack_kern_name(const struct rdma_restrack_entry *res,
				      char *name, size_t len)
{
	size_t i;

	if (!res->kern_name)
		return "(unnamed)";
	/* byte by byte: a block read could cross into an unmapped page */
	for (i = 0; i + 1 < len; i++) {
		if (copy_from_kernel_nofault(&name[i], res->kern_name + i, 1))
			return "(a module since unloaded)";
		if (!name[i])
			return name;
	}
	name[i] = '\0';
	return name;
}

/**
 * rdma_restrack_describe() - Say in one line what a tracked object is
 * @res: the entry
 * @buf: where to write
 * @len: size of @buf
 *
 * "<type> <id> owned by <module>" for a kernel object, "<type> <id> owned
 * by <comm> pid <pid>" for a user one. The leak report is made of these;
 * a kernel object whose module is no longer loaded is said to be owned by
 * "(a module since unloaded)", its name being gone with the module.
 *
 * Context: Any context.
 * Return: what snprintf() returns.
 */
int rdma_restrack_describe(const struct rdma_restrack_entry *res, char *buf,
			   size_t len)
{
	const struct restrack_kind *kind = restrack_kind_of(res->type);
	const char *type = kind ? kind->name : "?";
	char comm[TASK_COMM_LEN];
	char name[MODULE_NAME_LEN];

	if (rdma_is_kernel_res(res) || !res->task)
		return snprintf(buf, len, "%s %u owned by %s", type, res->id,
				restrack_kern_name(res, name, sizeof(name)));
	get_task_comm(comm, res->task);
	return snprintf(buf, len, "%s %u owned by %s pid %d", type, res->id,
			comm, task_pid_nr(res->task));
}
EXPORT_SYMBOL_IF_KUNIT(rdma_restrack_describe);

/* How many objects are still in the tables; reserved slots do not count. */
static unsigned int restrack_leaked(struct ib_device *dev)
{
	struct rdma_restrack_entry *res;
	unsigned int i, n = 0;
	unsigned long id;

	for (i = 0; i < RDMA_RESTRACK_MAX; i++)
		xa_for_each(&dev->res[i].xa, id, res)
			n++;
	return n;
}

static void restrack_report(struct ib_device *dev, unsigned int leaked)
{
	struct rdma_restrack_entry *res;
	char line[TASK_COMM_LEN + 64];
	unsigned long id;
	unsigned int i;

	ibdev_err(dev, "%u objects still tracked at deallocation, leaked by their owners:\n",
		  leaked);
	for (i = 0; i < RDMA_RESTRACK_MAX; i++) {
		xa_for_each(&dev->res[i].xa, id, res) {
			rdma_restrack_describe(res, line, sizeof(line));
			ibdev_err(dev, "  leaked %s\n", line);
		}
	}
}

/**
 * rdma_restrack_clean() - Free a device's resource tables
 * @dev: the device, unregistered and being freed
 *
 * Every object should have been destroyed by now. Any still tracked is
 * reported (one line per object, naming its owner) and forgotten: the
 * objects themselves are not touched.
 *
 * Context: Process context. Nothing may use the tables any more.
 */
void rdma_restrack_clean(struct ib_device *dev)
{
	unsigned int leaked, i;

	if (!dev->res)
		return;
	leaked = restrack_leaked(dev);
	if (leaked)
		restrack_report(dev, leaked);
	for (i = 0; i < RDMA_RESTRACK_MAX; i++)
		xa_destroy(&dev->res[i].xa);
	kfree(dev->res);
	dev->res = NULL;
}

/* ---- Lookup and references ----------------------------------------------- */

/**
 * rdma_restrack_count() - Count the tracked objects of one type
 * @dev: the device
 * @type: the type
 * @show_details: also count objects of driver-specific subtypes (QPs of
 *		  a type at or above IB_QPT_DRIVER)
 *
 * Objects being destroyed are no longer counted.
 *
 * Context: Any context; takes the table's lock with interrupts on.
 * Return: the count.
 */
int rdma_restrack_count(struct ib_device *dev, enum rdma_restrack_type type,
			bool show_details)
{
	struct rdma_restrack_root *root = &dev->res[type];
	XA_STATE(xas, &root->xa, 0);
	struct rdma_restrack_entry *res;
	int n = 0;

	xa_lock(&root->xa);
	xas_for_each(&xas, res, U32_MAX) {
		if (xa_is_zero(res))
			continue;
		if (!show_details && xas_get_mark(&xas, RESTRACK_DD))
			continue;
		n++;
	}
	xa_unlock(&root->xa);
	return n;
}
EXPORT_SYMBOL(rdma_restrack_count);

/**
 * rdma_restrack_get() - Pin a tracked object
 * @res: the entry
 *
 * Keeps the owner's destroy from finishing until rdma_restrack_put().
 *
 * Context: Any context.
 * Return: true when pinned; false once the owner has started destroying
 * the object (or before it was added).
 */
int rdma_restrack_get(struct rdma_restrack_entry *res)
{
	return kref_get_unless_zero(&res->kref);
}
EXPORT_SYMBOL(rdma_restrack_get);

/* The last reference is gone: let a waiting destroy go on. */
static void restrack_release(struct kref *kref)
{
	struct rdma_restrack_entry *res =
		container_of(kref, struct rdma_restrack_entry, kref);

	/* a create that failed before add() drops its task here */
	if (res->task && !res->valid) {
		put_task_struct(res->task);
		res->task = NULL;
	}
	complete(&res->comp);
}

/**
 * rdma_restrack_put() - Drop a reference to a tracked object
 * @res: the entry, pinned with rdma_restrack_get() or _get_byid(); or
 *	 the creator's own reference when the create failed before
 *	 rdma_restrack_add()
 *
 * Context: Any context.
 * Return: 1 when this was the last reference, else 0.
 */
int rdma_restrack_put(struct rdma_restrack_entry *res)
{
	return kref_put(&res->kref, restrack_release);
}
EXPORT_SYMBOL(rdma_restrack_put);

/**
 * rdma_restrack_get_byid() - Find and pin a tracked object by id
 * @dev: the device
 * @type: the type
 * @id: the entry's id (res->id)
 *
 * Context: Any context; takes the table's lock with interrupts on.
 * Return: the pinned entry (rdma_restrack_put() it), or ERR_PTR(-ENOENT)
 * when no such object exists or it is being destroyed.
 */
struct rdma_restrack_entry *rdma_restrack_get_byid(struct ib_device *dev,
						   enum rdma_restrack_type type,
						   u32 id)
{
	struct rdma_restrack_root *root = &dev->res[type];
	struct rdma_restrack_entry *res;
	bool pinned;

	/*
	 * Under the xarray lock the entry cannot be erased and freed between
	 * the load and the get; a zero kref means it is being destroyed.
	 */
	xa_lock(&root->xa);
	res = xa_load(&root->xa, id);
	pinned = res && rdma_restrack_get(res);
	xa_unlock(&root->xa);
	return pinned ? res : ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_restrack_get_byid);

/* ---- Owner names --------------------------------------------------------- */

/*
 * Record who owns @res. A kernel object is named after its module
 * (@kern_name); a user object holds its @task, replacing any earlier one.
 */
static void restrack_owner_set(struct rdma_restrack_entry *res, bool user,
			       const char *kern_name, struct task_struct *task)
{
	if (!user) {
		res->kern_name = kern_name;
		return;
	}
	if (WARN_ON_ONCE(!task))
		return;
	get_task_struct(task);
	if (res->task)
		put_task_struct(res->task);
	res->task = task;
	res->user = true;
}

static void restrack_task_drop(struct rdma_restrack_entry *res)
{
	if (!res->task)
		return;
	put_task_struct(res->task);
	res->task = NULL;
}

/**
 * rdma_restrack_set_name() - Record who owns an object
 * @res: the entry, after rdma_restrack_new()
 * @caller: the owning kernel module's name (KBUILD_MODNAME), which must
 *	    outlive the object; NULL for a user object, owned by current
 *
 * Context: Process context (for a user object).
 */
void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller)
{
	restrack_owner_set(res, !caller, caller, current);
}
EXPORT_SYMBOL(rdma_restrack_set_name);

/**
 * rdma_restrack_parent_name() - Give an object the owner of another
 * @dst: the new object's entry
 * @parent: the entry of the object it is created on (an MR's PD, say)
 *
 * Context: Any context.
 */
void rdma_restrack_parent_name(struct rdma_restrack_entry *dst,
			       const struct rdma_restrack_entry *parent)
{
	restrack_owner_set(dst, !rdma_is_kernel_res(parent), parent->kern_name,
			   parent->task);
}
EXPORT_SYMBOL(rdma_restrack_parent_name);

/* ---- Adding and removing ------------------------------------------------- */

/**
 * rdma_restrack_new() - Prepare an object's entry
 * @res: the entry, zeroed with its object
 * @type: what the object is
 *
 * From here a failed create drops the entry with rdma_restrack_put().
 *
 * Context: Any context.
 */
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type)
{
	res->type = type;
	/* the creator's reference; @comp fires when the last one goes */
	init_completion(&res->comp);
	kref_init(&res->kref);
}
EXPORT_SYMBOL(rdma_restrack_new);

/**
 * rdma_restrack_add() - Publish a fully created object
 * @res: the entry; its object's device pointer (and for a QP, qp_num,
 *	 port and qp_type) already set
 *
 * An object marked with rdma_restrack_no_track() is only made valid. If
 * no id can be had (a QP number already listed, no memory) the object
 * simply stays untracked.
 *
 * Context: Process context, may sleep.
 */
void rdma_restrack_add(struct rdma_restrack_entry *res)
{
	const struct restrack_kind *kind;
	struct rdma_restrack_root *root;
	int err;

	if (res->no_track) {
		res->valid = true;
		return;
	}
	root = restrack_root(res);
	if (!root)
		return;
	kind = &restrack_kinds[res->type];
	err = kind->insert ? kind->insert(root, res) :
			     restrack_insert_cyclic(root, res);
	if (err) {
		ibdev_dbg(restrack_dev(res), "%s not tracked: %d\n",
			  kind->name, err);
		res->id = 0;
		return;
	}
	res->valid = true;
}
EXPORT_SYMBOL(rdma_restrack_add);

/* Drop the owner's reference and wait until no reader holds one. */
static void restrack_drain(struct rdma_restrack_entry *res)
{
	rdma_restrack_put(res);
	wait_for_completion(&res->comp);
}

/**
 * rdma_restrack_del() - Unpublish an object before destroying it
 * @res: the entry
 *
 * Takes the entry out of its table, then waits for every reader's
 * rdma_restrack_put(). An entry that never got valid only loses its task.
 *
 * Context: Process context, may sleep; must not hold a reference itself.
 */
void rdma_restrack_del(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_root *root;

	if (!res->valid)
		goto out;
	if (!res->no_track) {
		root = restrack_root(res);
		if (!root)
			return;
		WARN_ON(xa_erase(&root->xa, res->id) != res);
	}
	res->valid = false;
	restrack_drain(res);
out:
	restrack_task_drop(res);
}
EXPORT_SYMBOL(rdma_restrack_del);

/*
 * Replace what the table holds under @res's id, @from, by @to: @res by
 * the reserved slot (XA_ZERO_ENTRY) or back. The xarray reports a
 * reserved slot it replaced as NULL.
 */
static void restrack_swap(struct rdma_restrack_entry *res, void *from,
			  void *to)
{
	struct rdma_restrack_root *root;
	void *prev;

	if (res->no_track)
		return;
	root = restrack_root(res);
	if (!root)
		return;
	prev = xa_cmpxchg(&root->xa, res->id, from, to, GFP_KERNEL);
	WARN_ON(prev != (xa_is_zero(from) ? NULL : from));
}

/**
 * rdma_restrack_begin_del() - Hide an object that is about to be destroyed
 * @res: the entry
 *
 * The id stays reserved, so rdma_restrack_abort_del() can put the entry
 * back; lookups and counts no longer see it. Waits for every reader.
 * Follow with rdma_restrack_commit_del() or rdma_restrack_abort_del().
 *
 * Context: Process context, may sleep.
 */
void rdma_restrack_begin_del(struct rdma_restrack_entry *res)
{
	if (!res->valid)
		return;
	restrack_swap(res, res, XA_ZERO_ENTRY);
	restrack_drain(res);
}
EXPORT_SYMBOL(rdma_restrack_begin_del);

/**
 * rdma_restrack_abort_del() - The destroy failed: publish the object again
 * @res: the entry, after rdma_restrack_begin_del()
 *
 * Context: Process context, may sleep.
 */
void rdma_restrack_abort_del(struct rdma_restrack_entry *res)
{
	if (!res->valid)
		return;
	reinit_completion(&res->comp);
	kref_init(&res->kref);
	restrack_swap(res, XA_ZERO_ENTRY, res);
}
EXPORT_SYMBOL(rdma_restrack_abort_del);

/**
 * rdma_restrack_commit_del() - The destroy succeeded: forget the object
 * @res: the entry, after rdma_restrack_begin_del()
 *
 * Frees the reserved id and releases the owning task.
 *
 * Context: Process context.
 */
void rdma_restrack_commit_del(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_root *root;

	if (res->valid && !res->no_track) {
		root = restrack_root(res);
		if (root)
			xa_erase(&root->xa, res->id);
	}
	res->valid = false;
	restrack_task_drop(res);
}
EXPORT_SYMBOL(rdma_restrack_commit_del);

/**
 * rdma_restrack_sync() - Wait out readers of an object that is changing
 * @res: the entry
 *
 * For a change readers do not lock against (an MR's PD on rereg): hides
 * the object, waits until every reader is done, publishes it again.
 * Readers that come later see the new state. Must not race with
 * rdma_restrack_del().
 *
 * Context: Process context, may sleep.
 */
void rdma_restrack_sync(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_root *root;

	if (!res->valid || res->no_track)
		return;
	root = restrack_root(res);
	if (!root || WARN_ON(xa_get_mark(&root->xa, res->id, RESTRACK_DD)))
		return;
	rdma_restrack_begin_del(res);
	rdma_restrack_abort_del(res);
}
EXPORT_SYMBOL(rdma_restrack_sync);
