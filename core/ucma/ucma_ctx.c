// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: the user ids' contexts. Their numbers, how a command finds
 * and holds one, how one is unpublished and torn down, and the closing
 * of a context's rdma_cm id when its device goes away.
 */

#include <linux/slab.h>

#include "ucma/ucma.h"

/* Every context of every file, by number (numbers are global, as 6.1's). */
DEFINE_XARRAY_ALLOC(ucma_ctxs);
/* Every multicast join, by number. */
DEFINE_XARRAY_ALLOC(ucma_mcs);

static void ucma_ctx_close_work(struct work_struct *work)
{
	ucma_ctx_close_id(container_of(work, struct ucma_ctx, close_work));
}

/**
 * ucma_ctx_alloc() - A new context of @file, its number reserved
 * @file: the owning file
 *
 * The number is reserved, not published: lookups do not find it until
 * ucma_ctx_publish().
 *
 * Context: process context, may sleep.
 * Return: the context or NULL.
 */
struct ucma_ctx *ucma_ctx_alloc(struct ucma_file *file)
{
	struct ucma_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	ctx->file = file;
	mutex_init(&ctx->lock);
	init_completion(&ctx->idle);
	INIT_LIST_HEAD(&ctx->file_node);
	INIT_LIST_HEAD(&ctx->mcs);
	INIT_WORK(&ctx->close_work, ucma_ctx_close_work);
	if (xa_alloc(&ucma_ctxs, &ctx->id, NULL, xa_limit_32b, GFP_KERNEL)) {
		mutex_destroy(&ctx->lock);
		kfree(ctx);
		return NULL;
	}
	return ctx;
}

/**
 * ucma_ctx_set_id() - Give a new context its rdma_cm id
 * @ctx: the context, not yet published
 * @cm_id: the id; the table's reference on @ctx starts here
 */
void ucma_ctx_set_id(struct ucma_ctx *ctx, struct rdma_cm_id *cm_id)
{
	refcount_set(&ctx->users, 1);
	ctx->cm_id = cm_id;
}

/**
 * ucma_ctx_publish() - Make a built context visible to commands
 * @ctx: the context, its id set
 *
 * Context: the file's lock held.
 */
void ucma_ctx_publish(struct ucma_ctx *ctx)
{
	lockdep_assert_held(&ctx->file->lock);
	list_add_tail(&ctx->file_node, &ctx->file->ctxs);
	xa_store(&ucma_ctxs, ctx->id, ctx, GFP_KERNEL);
}

/* The published context @id if it is @file's; the table's lock held. */
static struct ucma_ctx *ucma_ctx_find(struct ucma_file *file, u32 id)
{
	struct ucma_ctx *ctx = xa_load(&ucma_ctxs, id);

	if (!ctx)
		return ERR_PTR(-ENOENT);
	if (ctx->file != file)
		return ERR_PTR(-EINVAL);
	return ctx;
}

/**
 * ucma_ctx_get() - Find and hold a context of @file
 * @file: the file the command came from
 * @id: the context's number
 *
 * Return: the context, held; ERR_PTR(-ENOENT) for no such id,
 * ERR_PTR(-EINVAL) for another file's, ERR_PTR(-ENXIO) for one whose
 * device went away.
 */
struct ucma_ctx *ucma_ctx_get(struct ucma_file *file, u32 id)
{
	struct ucma_ctx *ctx;

	xa_lock(&ucma_ctxs);
	ctx = ucma_ctx_find(file, id);
	if (!IS_ERR(ctx) && !refcount_inc_not_zero(&ctx->users))
		ctx = ERR_PTR(-ENXIO);
	xa_unlock(&ucma_ctxs);
	return ctx;
}

/**
 * ucma_ctx_put() - Drop a hold taken by ucma_ctx_get()
 * @ctx: the context
 */
void ucma_ctx_put(struct ucma_ctx *ctx)
{
	if (refcount_dec_and_test(&ctx->users))
		complete(&ctx->idle);
}

/**
 * ucma_ctx_unpublish() - Take @file's context @id out of reach
 * @file: the owner
 * @id: the number
 *
 * Its slot keeps the number reserved; the caller now owns the teardown
 * (ucma_ctx_destroy()). Of racing callers, one wins; the others get
 * -ENOENT.
 *
 * Return: the context or an ERR_PTR() as ucma_ctx_get().
 */
struct ucma_ctx *ucma_ctx_unpublish(struct ucma_file *file, u32 id)
{
	struct ucma_ctx *ctx;

	xa_lock(&ucma_ctxs);
	ctx = ucma_ctx_find(file, id);
	if (!IS_ERR(ctx) &&
	    __xa_cmpxchg(&ucma_ctxs, id, ctx, XA_ZERO_ENTRY, GFP_KERNEL) != ctx)
		ctx = ERR_PTR(-ENOENT);
	xa_unlock(&ucma_ctxs);
	return ctx;
}

/**
 * ucma_ctx_close_id() - Destroy a context's rdma_cm id
 * @ctx: the context; the table's reference is consumed
 *
 * Waits until no command holds the context, then destroys the id: no
 * event of it follows. Runs from the work queued on DEVICE_REMOVAL, or
 * from ucma_ctx_destroy() when that work never ran.
 *
 * Context: process context, sleeps.
 */
void ucma_ctx_close_id(struct ucma_ctx *ctx)
{
	ucma_ctx_put(ctx);
	wait_for_completion(&ctx->idle);
	rdma_destroy_id(ctx->cm_id);
	ctx->cm_id = NULL;
}

static void ucma_ctx_free_mcs(struct ucma_ctx *ctx)
{
	struct ucma_mc *mc, *next;
	LIST_HEAD(gone);

	/* the id is destroyed: no command or event refers to them now */
	xa_lock(&ucma_mcs);
	list_splice_init(&ctx->mcs, &gone);
	list_for_each_entry(mc, &gone, node)
		__xa_erase(&ucma_mcs, mc->id);
	xa_unlock(&ucma_mcs);
	list_for_each_entry_safe(mc, next, &gone, node)
		kfree(mc);
}

/**
 * ucma_ctx_destroy() - Tear down an unpublished context
 * @ctx: the context, unpublished or never published
 *
 * The id is destroyed (waiting for commands still holding the context
 * and for its event handler), the events it has not reported are
 * dropped (new connections it has not reported are destroyed with
 * them), then its joins and the context itself are freed.
 *
 * Context: process context, sleeps; no lock held.
 * Return: the number of events the context reported.
 */
int ucma_ctx_destroy(struct ucma_ctx *ctx)
{
	int reported;

	/* no new close work can be queued: the context is unpublished */
	cancel_work_sync(&ctx->close_work);
	if (refcount_read(&ctx->users))
		ucma_ctx_close_id(ctx);
	reported = ucma_event_purge_ctx(ctx);
	ucma_ctx_free_mcs(ctx);
	WARN_ON(xa_cmpxchg(&ucma_ctxs, ctx->id, XA_ZERO_ENTRY, NULL,
			   GFP_KERNEL));
	mutex_destroy(&ctx->lock);
	kfree(ctx);
	return reported;
}
