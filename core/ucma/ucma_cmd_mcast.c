// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: multicast. JOIN_IP_MCAST and JOIN_MCAST make a join with a
 * number of its own (its events carry it and the user's uid for it);
 * LEAVE_MCAST ends one and drops its unreported events.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_sa.h>

#include "ucma/ucma.h"

/* The JoinState bit each user flag asks for. */
static int ucma_mc_join_state(u16 flags, u8 *state)
{
	switch (flags) {
	case RDMA_MC_JOIN_FLAG_FULLMEMBER:
		*state = BIT(FULLMEMBER_JOIN);
		return 0;
	case RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER:
		*state = BIT(SENDONLY_FULLMEMBER_JOIN);
		return 0;
	}
	return -EINVAL;
}

/* A join of @ctx, numbered and listed but not yet findable. */
static struct ucma_mc *ucma_mc_new(struct ucma_ctx *ctx, u64 uid, u8 state,
				   const struct sockaddr *addr, u16 size)
{
	struct ucma_mc *mc = kzalloc(sizeof(*mc), GFP_KERNEL);

	if (!mc)
		return NULL;
	mc->ctx = ctx;
	mc->uid = uid;
	mc->join_state = state;
	memcpy(&mc->addr, addr, size);
	xa_lock(&ucma_mcs);
	if (__xa_alloc(&ucma_mcs, &mc->id, NULL, xa_limit_32b, GFP_KERNEL)) {
		xa_unlock(&ucma_mcs);
		kfree(mc);
		return NULL;
	}
	list_add_tail(&mc->node, &ctx->mcs);
	xa_unlock(&ucma_mcs);
	return mc;
}

static void ucma_mc_free(struct ucma_mc *mc)
{
	xa_lock(&ucma_mcs);
	list_del(&mc->node);
	__xa_erase(&ucma_mcs, mc->id);
	xa_unlock(&ucma_mcs);
	kfree(mc);
}

/* Join on the id, tell the user the join's number, then publish it. */
static int ucma_mc_join_locked(struct ucma_ctx *ctx, struct ucma_mc *mc,
			       u64 response)
{
	struct rdma_ucm_create_id_resp resp = {};
	int ret;

	lockdep_assert_held(&ctx->lock);
	ret = rdma_join_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr,
				  mc->join_state, mc);
	if (ret)
		return ret;
	resp.id = mc->id;
	if (copy_to_user(ucma_uptr(response), &resp, sizeof(resp))) {
		rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
		return -EFAULT;
	}
	return 0;
}

static int ucma_mc_join(struct ucma_req *req, u32 id, u64 uid, u64 response,
			const struct sockaddr *addr, u16 size, u16 flags)
{
	struct ucma_ctx *ctx;
	struct ucma_mc *mc;
	u8 state;
	int ret;

	if (req->out_len < sizeof(struct rdma_ucm_create_id_resp))
		return -ENOSPC;
	if (size != rdma_addr_size(addr) || ucma_mc_join_state(flags, &state))
		return -EINVAL;
	ctx = ucma_ctx_get(req->file, id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->lock);
	ret = -EINVAL;
	if (!ctx->cm_id->device)
		goto err_unlock;
	ret = -ENOMEM;
	mc = ucma_mc_new(ctx, uid, state, addr, size);
	if (!mc)
		goto err_unlock;
	ret = ucma_mc_join_locked(ctx, mc, response);
	if (ret)
		goto err_mc;
	xa_store(&ucma_mcs, mc->id, mc, 0);
	mutex_unlock(&ctx->lock);
	ucma_ctx_put(ctx);
	return 0;

err_mc:
	mutex_unlock(&ctx->lock);
	/* a join left again may have queued its event meanwhile */
	ucma_event_purge_mc(mc);
	ucma_mc_free(mc);
	ucma_ctx_put(ctx);
	return ret;
err_unlock:
	mutex_unlock(&ctx->lock);
	ucma_ctx_put(ctx);
	return ret;
}

/**
 * ucma_cmd_join_ip_mcast() - JOIN_IP_MCAST: join an IP group as full member
 * @req: the command (struct rdma_ucm_join_ip_mcast)
 *
 * Return: 0 with the join's number; -ENOSPC, -EINVAL, the id's lookup
 * errno, rdma_join_multicast()'s errno, -EFAULT.
 */
int ucma_cmd_join_ip_mcast(struct ucma_req *req)
{
	struct rdma_ucm_join_ip_mcast *cmd = req->cmd;
	int size = rdma_addr_size_in6(&cmd->addr);

	if (!size)
		return -EINVAL;
	return ucma_mc_join(req, cmd->id, cmd->uid, cmd->response,
			    (struct sockaddr *)&cmd->addr, size,
			    RDMA_MC_JOIN_FLAG_FULLMEMBER);
}

/**
 * ucma_cmd_join_mcast() - JOIN_MCAST: join with the given membership
 * @req: the command (struct rdma_ucm_join_mcast)
 *
 * Return: as ucma_cmd_join_ip_mcast().
 */
int ucma_cmd_join_mcast(struct ucma_req *req)
{
	struct rdma_ucm_join_mcast *cmd = req->cmd;

	if (!rdma_addr_size_kss(&cmd->addr))
		return -EINVAL;
	return ucma_mc_join(req, cmd->id, cmd->uid, cmd->response,
			    (struct sockaddr *)&cmd->addr, cmd->addr_size,
			    cmd->join_flags);
}

/* Take @file's join @id out of the table, its context held. */
static struct ucma_mc *ucma_mc_take(struct ucma_file *file, u32 id)
{
	struct ucma_mc *mc;

	xa_lock(&ucma_mcs);
	mc = xa_load(&ucma_mcs, id);
	if (!mc)
		mc = ERR_PTR(-ENOENT);
	else if (READ_ONCE(mc->ctx->file) != file)
		mc = ERR_PTR(-EINVAL);
	else if (!refcount_inc_not_zero(&mc->ctx->users))
		mc = ERR_PTR(-ENXIO);
	if (!IS_ERR(mc)) {
		list_del(&mc->node);
		__xa_erase(&ucma_mcs, mc->id);
	}
	xa_unlock(&ucma_mcs);
	return mc;
}

/**
 * ucma_cmd_leave_mcast() - LEAVE_MCAST: leave a group joined on this file
 * @req: the command (struct rdma_ucm_destroy_id, naming the join)
 *
 * Return: 0 with the events the join reported; -ENOENT, -EINVAL (another
 * file's), -ENXIO (its id is closing), -EFAULT.
 */
int ucma_cmd_leave_mcast(struct ucma_req *req)
{
	struct rdma_ucm_destroy_id *cmd = req->cmd;
	struct rdma_ucm_destroy_id_resp resp = {};
	struct ucma_ctx *ctx;
	struct ucma_mc *mc;

	mc = ucma_mc_take(req->file, cmd->id);
	if (IS_ERR(mc))
		return PTR_ERR(mc);
	ctx = mc->ctx;
	mutex_lock(&ctx->lock);
	rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
	mutex_unlock(&ctx->lock);
	ucma_event_purge_mc(mc);
	ucma_ctx_put(ctx);
	resp.events_reported = mc->events_reported;
	kfree(mc);
	return ucma_respond(req, cmd->response, &resp, sizeof(resp));
}
