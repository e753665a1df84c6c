// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_uverbs: the kernel's QP attributes, address handle attributes and
 * path records converted to and from their user ABI forms
 * (<rdma/ib_user_verbs.h>, <rdma/ib_user_sa.h>), for rdma_ucm.
 */

#include <linux/module.h>
#include <rdma/ib_marshall.h>
#include <rdma/opa_addr.h>

/**
 * ib_copy_ah_attr_to_user() - An address handle's attributes, user form
 * @device: the device the attributes are for
 * @dst: the user form, filled in (its GRH zeroed unless global)
 * @src: the kernel's attributes
 *
 * OPA extended LIDs are not translated: no OPA device exists here.
 *
 * Context: any.
 */
void ib_copy_ah_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_ah_attr *dst,
			     struct rdma_ah_attr *src)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(src);

	memset(&dst->grh, 0, sizeof(dst->grh));
	dst->dlid = rdma_ah_get_dlid(src);
	dst->sl = rdma_ah_get_sl(src);
	dst->src_path_bits = rdma_ah_get_path_bits(src);
	dst->static_rate = rdma_ah_get_static_rate(src);
	dst->port_num = rdma_ah_get_port_num(src);
	dst->reserved = 0;
	dst->is_global = !!(rdma_ah_get_ah_flags(src) & IB_AH_GRH);
	if (!dst->is_global)
		return;
	memcpy(dst->grh.dgid, grh->dgid.raw, sizeof(dst->grh.dgid));
	dst->grh.flow_label = grh->flow_label;
	dst->grh.sgid_index = grh->sgid_index;
	dst->grh.hop_limit = grh->hop_limit;
	dst->grh.traffic_class = grh->traffic_class;
}
EXPORT_SYMBOL(ib_copy_ah_attr_to_user);

/**
 * ib_copy_qp_attr_to_user() - QP attributes in the user form
 * @device: the QP's device
 * @dst: the user form; its qp_attr_mask is left to the caller
 * @src: the kernel's attributes (as ib_query_qp() or rdma_init_qp_attr()
 *	 filled them)
 *
 * Context: any.
 */
void ib_copy_qp_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_qp_attr *dst,
			     struct ib_qp_attr *src)
{
	*dst = (struct ib_uverbs_qp_attr) {
		.qp_attr_mask = dst->qp_attr_mask,
		.qp_state = src->qp_state,
		.cur_qp_state = src->cur_qp_state,
		.path_mtu = src->path_mtu,
		.path_mig_state = src->path_mig_state,
		.qkey = src->qkey,
		.rq_psn = src->rq_psn,
		.sq_psn = src->sq_psn,
		.dest_qp_num = src->dest_qp_num,
		.qp_access_flags = src->qp_access_flags,
		.max_send_wr = src->cap.max_send_wr,
		.max_recv_wr = src->cap.max_recv_wr,
		.max_send_sge = src->cap.max_send_sge,
		.max_recv_sge = src->cap.max_recv_sge,
		.max_inline_data = src->cap.max_inline_data,
		.pkey_index = src->pkey_index,
		.alt_pkey_index = src->alt_pkey_index,
		.en_sqd_async_notify = src->en_sqd_async_notify,
		.sq_draining = src->sq_draining,
		.max_rd_atomic = src->max_rd_atomic,
		.max_dest_rd_atomic = src->max_dest_rd_atomic,
		.min_rnr_timer = src->min_rnr_timer,
		.port_num = src->port_num,
		.timeout = src->timeout,
		.retry_cnt = src->retry_cnt,
		.rnr_retry = src->rnr_retry,
		.alt_port_num = src->alt_port_num,
		.alt_timeout = src->alt_timeout,
	};
	ib_copy_ah_attr_to_user(device, &dst->ah_attr, &src->ah_attr);
	ib_copy_ah_attr_to_user(device, &dst->alt_ah_attr, &src->alt_ah_attr);
}
EXPORT_SYMBOL(ib_copy_qp_attr_to_user);

/* @src in IB form (not OPA) to the user's record. */
static void uverbs_path_out(struct ib_user_path_rec *dst,
			    struct sa_path_rec *src)
{
	/* RoCE records carry no LIDs: both read back as 0 */
	*dst = (struct ib_user_path_rec) {
		.dlid = cpu_to_be16(be32_to_cpu(sa_path_get_dlid(src))),
		.slid = cpu_to_be16(be32_to_cpu(sa_path_get_slid(src))),
		.raw_traffic = sa_path_get_raw_traffic(src),
		.flow_label = src->flow_label,
		.reversible = src->reversible,
		.mtu = src->mtu,
		.pkey = src->pkey,
		.hop_limit = src->hop_limit,
		.traffic_class = src->traffic_class,
		.numb_path = src->numb_path,
		.sl = src->sl,
		.mtu_selector = src->mtu_selector,
		.rate_selector = src->rate_selector,
		.rate = src->rate,
		.packet_life_time_selector = src->packet_life_time_selector,
		.packet_life_time = src->packet_life_time,
		.preference = src->preference,
	};
	memcpy(dst->sgid, src->sgid.raw, sizeof(dst->sgid));
	memcpy(dst->dgid, src->dgid.raw, sizeof(dst->dgid));
}

/**
 * ib_copy_path_rec_to_user() - A path record in the user form
 * @dst: the user's record
 * @src: the kernel's; an OPA record is converted to IB form first
 *
 * Context: any.
 */
void ib_copy_path_rec_to_user(struct ib_user_path_rec *dst,
			      struct sa_path_rec *src)
{
	struct sa_path_rec ib;

	if (src->rec_type != SA_PATH_REC_TYPE_OPA) {
		uverbs_path_out(dst, src);
		return;
	}
	sa_convert_path_opa_to_ib(&ib, src);
	uverbs_path_out(dst, &ib);
}
EXPORT_SYMBOL(ib_copy_path_rec_to_user);

/**
 * ib_copy_path_rec_from_user() - A user's path record in kernel form
 * @dst: the kernel's record, overwritten
 * @src: the user's; OPA GIDs make an OPA record with the LIDs they hold
 *
 * Context: any.
 */
void ib_copy_path_rec_from_user(struct sa_path_rec *dst,
				struct ib_user_path_rec *src)
{
	const union ib_gid *sgid = (const union ib_gid *)src->sgid;
	const union ib_gid *dgid = (const union ib_gid *)src->dgid;
	bool opa = ib_is_opa_gid(sgid) || ib_is_opa_gid(dgid);

	*dst = (struct sa_path_rec) {
		.rec_type = opa ? SA_PATH_REC_TYPE_OPA : SA_PATH_REC_TYPE_IB,
		.flow_label = src->flow_label,
		.hop_limit = src->hop_limit,
		.traffic_class = src->traffic_class,
		.reversible = src->reversible,
		.numb_path = src->numb_path,
		.pkey = src->pkey,
		.sl = src->sl,
		.mtu_selector = src->mtu_selector,
		.mtu = src->mtu,
		.rate_selector = src->rate_selector,
		.rate = src->rate,
		.packet_life_time_selector = src->packet_life_time_selector,
		.packet_life_time = src->packet_life_time,
		.preference = src->preference,
	};
	memcpy(dst->dgid.raw, src->dgid, sizeof(dst->dgid));
	memcpy(dst->sgid.raw, src->sgid, sizeof(dst->sgid));
	sa_path_set_dlid(dst, opa ? opa_get_lid_from_gid(dgid) :
				    be16_to_cpu(src->dlid));
	sa_path_set_slid(dst, opa ? opa_get_lid_from_gid(sgid) :
				    be16_to_cpu(src->slid));
	sa_path_set_raw_traffic(dst, src->raw_traffic);
	sa_path_set_dmac_zero(dst);
}
EXPORT_SYMBOL(ib_copy_path_rec_from_user);
