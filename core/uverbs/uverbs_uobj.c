// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-file handle table: the numbers user space names its objects by, and
 * who may use or destroy one.
 */
/*
 * A handle is an index in the file's xarray. It is reserved (a NULL entry,
 * invisible to lookups) while its object is being created and holds the
 * ib_uobject once published. uobject->usecnt says who has it: > 0 commands
 * using it (lookups for reading), -1 one command destroying or changing
 * it alone (REREG_MR may even replace the object), 0 nobody.
 * A lookup never waits: a handle being destroyed answers -EBUSY, as does a
 * destroy while the object is in use. The xarray's lock makes the lookup
 * and the usecnt change one step.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "uverbs/uverbs.h"

/**
 * uverbs_uobj_alloc() - Reserve a handle for a new object
 * @file: the file the object will belong to
 * @type: what kind of object
 *
 * The caller creates the object, sets ->object and ->context, then
 * publishes the handle with uverbs_uobj_publish() or gives it back with
 * uverbs_uobj_abort().
 *
 * Context: Process context, may sleep.
 * Return: the uobject with ->id set, or an ERR_PTR (-ENOMEM, or -ENOSPC
 * when the file has 2^32 handles).
 */
struct ib_uobject *uverbs_uobj_alloc(struct ib_uverbs_file *file,
				     const struct uverbs_api_object *type)
{
	struct ib_uobject *uobj;
	u32 id;
	int ret;

	uobj = kzalloc(sizeof(*uobj), GFP_KERNEL);
	if (!uobj)
		return ERR_PTR(-ENOMEM);
	ret = xa_alloc(&file->uobjs, &id, NULL, xa_limit_32b, GFP_KERNEL);
	if (ret) {
		kfree(uobj);
		return ERR_PTR(ret);
	}
	uobj->id = id;
	uobj->ufile = file;
	uobj->uapi_object = type;
	atomic_set(&uobj->usecnt, 0);
	kref_init(&uobj->ref);
	return uobj;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_alloc);

/**
 * uverbs_uobj_publish() - Make a fully created object's handle usable
 * @uobj: from uverbs_uobj_alloc(), its object complete
 *
 * Context: Process context.
 * Return: 0. The reserved slot needs no memory, so this cannot fail.
 */
int uverbs_uobj_publish(struct ib_uobject *uobj)
{
	return xa_err(xa_store(&uobj->ufile->uobjs, uobj->id, uobj,
			       GFP_KERNEL));
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_publish);

/**
 * uverbs_uobj_abort() - Give back a handle whose object was not created
 * @uobj: from uverbs_uobj_alloc(), never published
 *
 * Context: Process context.
 */
void uverbs_uobj_abort(struct ib_uobject *uobj)
{
	xa_erase(&uobj->ufile->uobjs, uobj->id);
	kfree(uobj);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_abort);

/* Claim @uobj for destruction or a change: only when nobody uses it. */
static int uverbs_uobj_claim(struct ib_uobject *uobj)
{
	return atomic_cmpxchg(&uobj->usecnt, 0, -1) ? -EBUSY : 0;
}

/*
 * The uobject behind @handle if it is a @type, held for use (usecnt + 1)
 * or, with @write, claimed alone (usecnt -1); the lookup and the hold are
 * one step under the table's lock, so a destroy cannot come between.
 */
static struct ib_uobject *uverbs_uobj_find(struct ib_uverbs_file *file,
					   const struct uverbs_api_object *type,
					   u32 handle, bool write)
{
	struct ib_uobject *uobj;
	bool held;

	xa_lock(&file->uobjs);
	uobj = xa_load(&file->uobjs, handle);
	if (!uobj || uobj->uapi_object != type) {
		uobj = ERR_PTR(-EINVAL);
	} else {
		held = write ? !uverbs_uobj_claim(uobj) :
			       atomic_inc_unless_negative(&uobj->usecnt);
		if (!held)
			uobj = ERR_PTR(-EBUSY);
	}
	xa_unlock(&file->uobjs);
	return uobj;
}

/**
 * uverbs_uobj_get_read() - Look up a handle to use its object
 * @file: the file the handle belongs to
 * @type: the kind of object the command expects
 * @handle: the number user space gave
 *
 * Context: Any context.
 * Return: the uobject, used until uverbs_uobj_put_read(); -EINVAL for no
 * such handle or another kind of object, -EBUSY while it is destroyed.
 */
struct ib_uobject *uverbs_uobj_get_read(struct ib_uverbs_file *file,
					const struct uverbs_api_object *type,
					u32 handle)
{
	return uverbs_uobj_find(file, type, handle, false);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_get_read);

/**
 * uverbs_uobj_put_read() - Done using an object found by uverbs_uobj_get_read()
 * @uobj: the uobject
 *
 * Context: Any context.
 */
void uverbs_uobj_put_read(struct ib_uobject *uobj)
{
	atomic_dec(&uobj->usecnt);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_put_read);

/**
 * uverbs_uobj_get_write() - Look up a handle to change its object alone
 * @file: the file the handle belongs to
 * @type: the kind of object the command expects
 * @handle: the number user space gave
 *
 * The handle is claimed as a destroy claims it (usecnt -1): until
 * uverbs_uobj_put_write(), lookups answer -EBUSY and the object may be
 * changed or replaced (uverbs_uobj_replace()) without other locks.
 *
 * Context: Any context.
 * Return: the uobject; -EINVAL for no such handle or another kind of
 * object, -EBUSY while another command uses or destroys it.
 */
struct ib_uobject *uverbs_uobj_get_write(struct ib_uverbs_file *file,
					 const struct uverbs_api_object *type,
					 u32 handle)
{
	return uverbs_uobj_find(file, type, handle, true);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_get_write);

/**
 * uverbs_uobj_put_write() - Done with a handle from uverbs_uobj_get_write()
 * @uobj: the uobject
 *
 * Context: Any context.
 */
void uverbs_uobj_put_write(struct ib_uobject *uobj)
{
	WARN_ON_ONCE(atomic_read(&uobj->usecnt) != -1);
	atomic_set(&uobj->usecnt, 0);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_put_write);

/**
 * uverbs_uobj_replace() - Put a new object behind a handle
 * @uobj: a uobject the caller holds from uverbs_uobj_get_write()
 * @object: the new object, of the handle's kind, fully created
 *
 * For a driver that answers a change (REREG_MR) with a new object: the
 * handle keeps its number and its uobject, only ->object changes. The
 * write claim is the lock: no lookup can see @uobj until it is put, so
 * later commands find @object only. The caller destroys the old object.
 *
 * Context: Any context; the caller holds @uobj for writing.
 * Return: the old object.
 */
void *uverbs_uobj_replace(struct ib_uobject *uobj, void *object)
{
	void *old = uobj->object;

	WARN_ON_ONCE(atomic_read(&uobj->usecnt) != -1);
	uobj->object = object;
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_replace);

/* Destroy a claimed @uobj's object; on success its handle goes too. */
static int uverbs_uobj_finish(struct ib_uverbs_file *file, struct ib_uobject *uobj,
			      bool force)
{
	int ret = uobj->uapi_object->type->destroy(uobj, file, force);

	if (ret && !force) {
		atomic_set(&uobj->usecnt, 0);
		return ret;
	}
	xa_erase(&file->uobjs, uobj->id);
	kfree(uobj);
	return ret;
}

/**
 * uverbs_uobj_destroy() - Destroy the object behind a handle (a DESTROY command)
 * @file: the file the handle belongs to
 * @type: the kind of object the command expects
 * @handle: the number user space gave
 *
 * Context: Process context, may sleep.
 * Return: 0 when the object and its handle are gone; -EINVAL for no such
 * handle, -EBUSY while another command uses it, or the destroy's error
 * (the handle then stays valid).
 */
int uverbs_uobj_destroy(struct ib_uverbs_file *file,
			const struct uverbs_api_object *type, u32 handle)
{
	struct ib_uobject *uobj = uverbs_uobj_find(file, type, handle, true);

	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	return uverbs_uobj_finish(file, uobj, false);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_destroy);

/* One pass over the table; true when some object went. */
static bool uverbs_uobj_destroy_pass(struct ib_uverbs_file *file, bool force)
{
	struct ib_uobject *uobj;
	unsigned long id;
	bool progress = false;

	xa_for_each(&file->uobjs, id, uobj) {
		if (uverbs_uobj_claim(uobj))
			continue;
		if (!uverbs_uobj_finish(file, uobj, force) || force)
			progress = true;
	}
	return progress;
}

/**
 * uverbs_uobj_destroy_all() - Destroy every object of a file
 * @file: the file, closing or losing its device
 *
 * Objects others depend on refuse to go first (-EBUSY), so passes repeat
 * while they make progress; a last pass forces out what is left.
 *
 * Context: Process context, may sleep. Caller holds file->ucontext_lock
 * and no command runs on @file.
 */
void uverbs_uobj_destroy_all(struct ib_uverbs_file *file)
{
	lockdep_assert_held(&file->ucontext_lock);
	while (!xa_empty(&file->uobjs) && uverbs_uobj_destroy_pass(file, false))
		;
	uverbs_uobj_destroy_pass(file, true);
	WARN_ON(!xa_empty(&file->uobjs));
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_destroy_all);
