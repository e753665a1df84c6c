// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: SET_OPTION. The id-level options (TOS, REUSEADDR, AFONLY,
 * ACK_TIMEOUT) as a table of sizes and setters; the IB level's IB_PATH,
 * a route the user found itself, which completes route resolution.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/ib_user_sa.h>

#include "ucma/ucma.h"

static int ucma_opt_tos(struct rdma_cm_id *id, const void *v)
{
	rdma_set_service_type(id, *(const u8 *)v);
	return 0;
}

static int ucma_opt_reuseaddr(struct rdma_cm_id *id, const void *v)
{
	return rdma_set_reuseaddr(id, !!*(const int *)v);
}

static int ucma_opt_afonly(struct rdma_cm_id *id, const void *v)
{
	return rdma_set_afonly(id, !!*(const int *)v);
}

static int ucma_opt_ack_timeout(struct rdma_cm_id *id, const void *v)
{
	return rdma_set_ack_timeout(id, *(const u8 *)v);
}

/* RDMA_OPTION_ID's options: the exact length each takes, and its setter. */
static const struct {
	int (*set)(struct rdma_cm_id *id, const void *v);
	u32 len;
} ucma_id_opts[] = {
	[RDMA_OPTION_ID_TOS] = { ucma_opt_tos, sizeof(u8) },
	[RDMA_OPTION_ID_REUSEADDR] = { ucma_opt_reuseaddr, sizeof(int) },
	[RDMA_OPTION_ID_AFONLY] = { ucma_opt_afonly, sizeof(int) },
	[RDMA_OPTION_ID_ACK_TIMEOUT] = { ucma_opt_ack_timeout, sizeof(u8) },
};

static int ucma_opt_id(struct rdma_cm_id *id, u32 name, const void *v,
		       u32 len)
{
	if (name >= ARRAY_SIZE(ucma_id_opts))
		return -ENOSYS;
	if (len != ucma_id_opts[name].len)
		return -EINVAL;
	return ucma_id_opts[name].set(id, v);
}

/* The first primary, bidirectional GMP path of the ones given, or NULL. */
static struct ib_path_rec_data *ucma_opt_pick_path(void *v, u32 len)
{
	const u32 want = IB_PATH_GMP | IB_PATH_PRIMARY | IB_PATH_BIDIRECTIONAL;
	struct ib_path_rec_data *p = v;
	u32 i;

	for (i = 0; i < len / sizeof(*p); i++)
		if (p[i].flags == want)
			return &p[i];
	return NULL;
}

/*
 * IB_PATH: set the route and report ROUTE_RESOLVED as if rdma_cm had
 * resolved it (under the handler lock, as an event of the CM would be).
 */
static int ucma_opt_ib_path(struct ucma_ctx *ctx, void *v, u32 len)
{
	struct rdma_cm_id *id = ctx->cm_id;
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_ROUTE_RESOLVED };
	struct ib_path_rec_data *data;
	struct sa_path_rec rec = {}, opa;
	int ret;

	if (len % sizeof(*data))
		return -EINVAL;
	data = ucma_opt_pick_path(v, len);
	if (!data || !id->device)
		return -EINVAL;
	rec.rec_type = SA_PATH_REC_TYPE_IB;
	ib_sa_unpack_path(data->path_rec, &rec);
	if (rdma_cap_opa_ah(id->device, id->port_num)) {
		sa_convert_path_ib_to_opa(&opa, &rec);
		ret = rdma_set_ib_path(id, &opa);
	} else {
		ret = rdma_set_ib_path(id, &rec);
	}
	if (ret)
		return ret;
	rdma_lock_handler(id);
	ret = ucma_event_handler(id, &ev);
	rdma_unlock_handler(id);
	return ret;
}

int ucma_check_set_option(struct ucma_req *req)
{
	struct rdma_ucm_set_option *cmd = req->cmd;

	return cmd->optlen > KMALLOC_MAX_SIZE ? -EINVAL : 0;
}

/**
 * ucma_cmd_set_option() - SET_OPTION: an option of the id
 * @req: the command (struct rdma_ucm_set_option)
 *
 * Return: 0; -ENOSYS for an unknown level or name, -EINVAL for a length
 * the option does not take, the setter's errno, -EFAULT, -ENOMEM.
 */
int ucma_cmd_set_option(struct ucma_req *req)
{
	struct rdma_ucm_set_option *cmd = req->cmd;
	void *v;
	int ret;

	v = memdup_user(ucma_uptr(cmd->optval), cmd->optlen);
	if (IS_ERR(v))
		return PTR_ERR(v);
	if (cmd->level == RDMA_OPTION_ID)
		ret = ucma_opt_id(req->ctx->cm_id, cmd->optname, v, cmd->optlen);
	else if (cmd->level == RDMA_OPTION_IB && cmd->optname == RDMA_OPTION_IB_PATH)
		ret = ucma_opt_ib_path(req->ctx, v, cmd->optlen);
	else
		ret = -ENOSYS;
	kfree(v);
	return ret;
}
