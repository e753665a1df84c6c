// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_ucm: addresses and routes. BIND_IP, BIND, RESOLVE_IP,
 * RESOLVE_ADDR and RESOLVE_ROUTE pass the user's addresses to rdma_cm
 * once their sizes agree with their families; QUERY_ROUTE and QUERY
 * answer with what the id has.
 */

#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_marshall.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_user_sa.h>

#include "ucma/ucma.h"

/* ---- Checks made before the id is looked up ---------------------------- */

int ucma_check_bind_ip(struct ucma_req *req)
{
	struct rdma_ucm_bind_ip *cmd = req->cmd;

	return rdma_addr_size_in6(&cmd->addr) ? 0 : -EINVAL;
}

int ucma_check_bind(struct ucma_req *req)
{
	struct rdma_ucm_bind *cmd = req->cmd;

	if (cmd->reserved || !cmd->addr_size)
		return -EINVAL;
	return cmd->addr_size == rdma_addr_size_kss(&cmd->addr) ? 0 : -EINVAL;
}

int ucma_check_resolve_ip(struct ucma_req *req)
{
	struct rdma_ucm_resolve_ip *cmd = req->cmd;

	/* the source is optional: a zero family leaves it out */
	if (cmd->src_addr.sin6_family && !rdma_addr_size_in6(&cmd->src_addr))
		return -EINVAL;
	return rdma_addr_size_in6(&cmd->dst_addr) ? 0 : -EINVAL;
}

int ucma_check_resolve_addr(struct ucma_req *req)
{
	struct rdma_ucm_resolve_addr *cmd = req->cmd;

	if (cmd->reserved || !cmd->dst_size ||
	    cmd->dst_size != rdma_addr_size_kss(&cmd->dst_addr))
		return -EINVAL;
	if (cmd->src_size && cmd->src_size != rdma_addr_size_kss(&cmd->src_addr))
		return -EINVAL;
	return 0;
}

/* ---- Binding and resolving ----------------------------------------------- */

int ucma_cmd_bind_ip(struct ucma_req *req)
{
	struct rdma_ucm_bind_ip *cmd = req->cmd;

	return rdma_bind_addr(req->ctx->cm_id, (struct sockaddr *)&cmd->addr);
}

int ucma_cmd_bind(struct ucma_req *req)
{
	struct rdma_ucm_bind *cmd = req->cmd;

	return rdma_bind_addr(req->ctx->cm_id, (struct sockaddr *)&cmd->addr);
}

int ucma_cmd_resolve_ip(struct ucma_req *req)
{
	struct rdma_ucm_resolve_ip *cmd = req->cmd;

	return rdma_resolve_addr(req->ctx->cm_id,
				 (struct sockaddr *)&cmd->src_addr,
				 (struct sockaddr *)&cmd->dst_addr,
				 cmd->timeout_ms);
}

int ucma_cmd_resolve_addr(struct ucma_req *req)
{
	struct rdma_ucm_resolve_addr *cmd = req->cmd;

	return rdma_resolve_addr(req->ctx->cm_id,
				 (struct sockaddr *)&cmd->src_addr,
				 (struct sockaddr *)&cmd->dst_addr,
				 cmd->timeout_ms);
}

int ucma_cmd_resolve_route(struct ucma_req *req)
{
	struct rdma_ucm_resolve_route *cmd = req->cmd;

	return rdma_resolve_route(req->ctx->cm_id, cmd->timeout_ms);
}

/* ---- QUERY_ROUTE ---------------------------------------------------------- */

/* An IPv4 or IPv6 address into the sockaddr_in6-sized slot of the reply. */
static void ucma_addr_in6_out(struct sockaddr_in6 *dst,
			      const struct sockaddr_storage *src)
{
	size_t n = src->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
					       sizeof(struct sockaddr_in6);

	memcpy(dst, src, n);
}

/* With no path record yet, the GIDs (and P_Key) the address gives. */
static void ucma_route_gids(struct rdma_cm_id *cm_id,
			    struct ib_user_path_rec *p)
{
	struct rdma_addr *addr = &cm_id->route.addr;

	if (rdma_protocol_roce(cm_id->device, cm_id->port_num)) {
		rdma_ip2gid((struct sockaddr *)&addr->dst_addr,
			    (union ib_gid *)p->dgid);
		rdma_ip2gid((struct sockaddr *)&addr->src_addr,
			    (union ib_gid *)p->sgid);
		p->pkey = cpu_to_be16(0xffff);
		return;
	}
	rdma_addr_get_dgid(&addr->dev_addr, (union ib_gid *)p->dgid);
	rdma_addr_get_sgid(&addr->dev_addr, (union ib_gid *)p->sgid);
	if (!rdma_protocol_iwarp(cm_id->device, cm_id->port_num))
		p->pkey = cpu_to_be16(ib_addr_get_pkey(&addr->dev_addr));
}

static void ucma_route_out(struct rdma_cm_id *cm_id,
			   struct rdma_ucm_query_route_resp *resp)
{
	struct rdma_route *route = &cm_id->route;
	bool iwarp = rdma_protocol_iwarp(cm_id->device, cm_id->port_num);
	int i;

	resp->node_guid = (__force __u64)cm_id->device->node_guid;
	resp->ibdev_index = cm_id->device->index;
	resp->port_num = cm_id->port_num;
	/* iWARP reports its GIDs only, with no path count */
	if (!iwarp)
		resp->num_paths = route->num_pri_alt_paths;
	if (iwarp || !route->num_pri_alt_paths) {
		ucma_route_gids(cm_id, &resp->ib_route[0]);
		return;
	}
	for (i = 0; i < min(route->num_pri_alt_paths, 2); i++)
		ib_copy_path_rec_to_user(&resp->ib_route[i],
					 &route->path_rec[i]);
}

/**
 * ucma_cmd_query_route() - QUERY_ROUTE: the id's addresses and route
 * @req: the command (struct rdma_ucm_query)
 *
 * An id on no device answers with its addresses only.
 *
 * Return: 0 or -EFAULT.
 */
int ucma_cmd_query_route(struct ucma_req *req)
{
	struct rdma_ucm_query *cmd = req->cmd;
	struct rdma_cm_id *cm_id = req->ctx->cm_id;
	struct rdma_ucm_query_route_resp resp = {};

	ucma_addr_in6_out(&resp.src_addr, &cm_id->route.addr.src_addr);
	ucma_addr_in6_out(&resp.dst_addr, &cm_id->route.addr.dst_addr);
	if (cm_id->device)
		ucma_route_out(cm_id, &resp);
	return ucma_respond(req, cmd->response, &resp, sizeof(resp));
}

/* ---- QUERY: ADDR, PATH, GID ---------------------------------------------- */

static void ucma_query_dev(struct rdma_cm_id *cm_id,
			   struct rdma_ucm_query_addr_resp *resp)
{
	struct ib_device *dev = cm_id->device;
	u16 pkey = ib_addr_get_pkey(&cm_id->route.addr.dev_addr);

	if (dev) {
		resp->pkey = (__force __u16)cpu_to_be16(pkey);
		resp->port_num = cm_id->port_num;
		resp->ibdev_index = dev->index;
		resp->node_guid = (__force __u64)dev->node_guid;
	}
}

static int ucma_query_addr(struct ucma_req *req, struct rdma_cm_id *cm_id,
			   u64 out)
{
	struct rdma_ucm_query_addr_resp resp = {};
	struct rdma_addr *a = &cm_id->route.addr;

	resp.src_size = rdma_addr_size((struct sockaddr *)&a->src_addr);
	memcpy(&resp.src_addr, &a->src_addr, resp.src_size);
	resp.dst_size = rdma_addr_size((struct sockaddr *)&a->dst_addr);
	memcpy(&resp.dst_addr, &a->dst_addr, resp.dst_size);
	ucma_query_dev(cm_id, &resp);
	return ucma_respond(req, out, &resp, sizeof(resp));
}

/* The id's paths as packed PathRecords, as many as the reply holds. */
static int ucma_query_path(struct ucma_req *req, struct rdma_cm_id *cm_id,
			   u64 out)
{
	struct rdma_ucm_query_path_resp *resp;
	u32 room = (req->out_len - sizeof(*resp)) /
		   sizeof(struct ib_path_rec_data);
	struct sa_path_rec ib;
	u32 n, i;
	int ret;

	n = min_t(u32, cm_id->route.num_pri_alt_paths, room);
	resp = kzalloc(struct_size(resp, path_data, n), GFP_KERNEL);
	if (!resp)
		return -ENOMEM;
	resp->num_paths = cm_id->route.num_pri_alt_paths;
	for (i = 0; i < n; i++) {
		struct sa_path_rec *rec = &cm_id->route.path_rec[i];

		resp->path_data[i].flags = IB_PATH_GMP | IB_PATH_PRIMARY |
					   IB_PATH_BIDIRECTIONAL;
		if (rec->rec_type == SA_PATH_REC_TYPE_OPA) {
			sa_convert_path_opa_to_ib(&ib, rec);
			rec = &ib;
		}
		ib_sa_pack_path(rec, &resp->path_data[i].path_rec);
	}
	ret = copy_to_user(ucma_uptr(out), resp,
			   struct_size(resp, path_data, n)) ? -EFAULT : 0;
	kfree(resp);
	return ret;
}

/* An address as AF_IB: kept if it is one, else made of GID and service. */
static void ucma_query_ib_addr(struct rdma_cm_id *cm_id,
			       struct sockaddr_storage *from,
			       struct sockaddr_ib *to, __be16 pkey, bool src)
{
	if (from->ss_family == AF_IB) {
		memcpy(to, from, sizeof(*to));
		return;
	}
	to->sib_family = AF_IB;
	to->sib_pkey = pkey;
	rdma_read_gids(cm_id, src ? (union ib_gid *)&to->sib_addr : NULL,
		       src ? NULL : (union ib_gid *)&to->sib_addr);
	to->sib_sid = rdma_get_service_id(cm_id, (struct sockaddr *)from);
}

static int ucma_query_gid(struct ucma_req *req, struct rdma_cm_id *cm_id,
			  u64 out)
{
	struct rdma_ucm_query_addr_resp resp = {};
	struct rdma_addr *a = &cm_id->route.addr;

	ucma_query_dev(cm_id, &resp);
	resp.src_size = sizeof(struct sockaddr_ib);
	resp.dst_size = sizeof(struct sockaddr_ib);
	ucma_query_ib_addr(cm_id, &a->src_addr,
			   (struct sockaddr_ib *)&resp.src_addr,
			   (__force __be16)resp.pkey, true);
	ucma_query_ib_addr(cm_id, &a->dst_addr,
			   (struct sockaddr_ib *)&resp.dst_addr,
			   (__force __be16)resp.pkey, false);
	return ucma_respond(req, out, &resp, sizeof(resp));
}

typedef int (*ucma_query_fn)(struct ucma_req *req, struct rdma_cm_id *cm_id,
			     u64 out);

/* Each option and the reply room it needs (-ENOSPC below it). */
static const struct {
	ucma_query_fn fn;
	size_t min_out;
} ucma_queries[] = {
	[RDMA_USER_CM_QUERY_ADDR] = {
		ucma_query_addr,
		offsetof(struct rdma_ucm_query_addr_resp, ibdev_index) },
	[RDMA_USER_CM_QUERY_PATH] = {
		ucma_query_path, sizeof(struct rdma_ucm_query_path_resp) },
	[RDMA_USER_CM_QUERY_GID] = {
		ucma_query_gid,
		offsetof(struct rdma_ucm_query_addr_resp, ibdev_index) },
};

/**
 * ucma_cmd_query() - QUERY: the id's addresses, paths or GIDs
 * @req: the command (struct rdma_ucm_query)
 *
 * Return: 0; -ENOSYS for an unknown option, -ENOSPC for a reply too
 * small for it, -ENOMEM, -EFAULT.
 */
int ucma_cmd_query(struct ucma_req *req)
{
	struct rdma_ucm_query *cmd = req->cmd;
	u32 opt = cmd->option;

	if (opt >= ARRAY_SIZE(ucma_queries))
		return -ENOSYS;
	opt = array_index_nospec(opt, ARRAY_SIZE(ucma_queries));
	if (req->out_len < ucma_queries[opt].min_out)
		return -ENOSPC;
	return ucma_queries[opt].fn(req, req->ctx->cm_id, cmd->response);
}
