// SPDX-License-Identifier: GPL-2.0-only
/*
 * write() on umadN: one ib_user_mad header and one MAD (or, for an agent
 * the kernel does RMPP for, one whole RMPP message, cut into segments
 * here) become a MAD layer send. Everything the caller gives is checked
 * before anything is allocated. The send handler frees what a send used
 * and hands a request that timed out back to read() with ETIMEDOUT.
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "umad/umad.h"

/* A write() as read from user space and checked, before any allocation. */
struct umad_req {
	struct ib_user_mad_hdr	hdr;	/* zero-extended from the old layout */
	union {				/* the MAD's first bytes */
		u8			head[IB_MGMT_RMPP_HDR];
		struct {
			struct ib_mad_hdr	mad_hdr;
			struct ib_rmpp_hdr	rmpp_hdr;
		} rmpp;
	};
	const char __user	*mad;	/* the MAD in the caller's buffer */
	size_t			hdr_len;	/* class headers, by class */
	size_t			data_len;	/* bytes after them */
	size_t			copy_from;	/* what the caller's MAD gives */
	bool			rmpp_active;	/* segmented here */
	bool			user_rmpp;	/* a segment of the caller's RMPP */
};

static_assert(offsetof(struct umad_req, rmpp.rmpp_hdr) -
	      offsetof(struct umad_req, head) == IB_MGMT_MAD_HDR);

static bool umad_rmpp_active(struct ib_rmpp_hdr *rmpp_hdr)
{
	return ib_get_rmpp_flags(rmpp_hdr) & IB_MGMT_RMPP_FLAG_ACTIVE;
}

/*
 * Read the header and the MAD's first bytes of a write() of @count bytes;
 * bounds first, so a length that is negative or huge once the headers are
 * taken off is refused here.
 */
static int umad_req_read(struct umad_file *file, const char __user *buf,
			 size_t count, struct umad_req *req)
{
	size_t hsize = umad_hdr_size(file);

	if (count < hsize + IB_MGMT_RMPP_HDR ||
	    count - hsize > UMAD_MAX_WRITE_LEN)
		return -EINVAL;
	memset(&req->hdr, 0, sizeof(req->hdr));
	if (copy_from_user(&req->hdr, buf, hsize) ||
	    copy_from_user(req->head, buf + hsize, sizeof(req->head)))
		return -EFAULT;
	if (req->hdr.id >= UMAD_MAX_AGENTS)
		return -EINVAL;
	req->mad = buf + hsize;
	req->hdr_len = ib_get_mad_data_offset(req->rmpp.mad_hdr.mgmt_class);
	if (check_sub_overflow(count - hsize, req->hdr_len, &req->data_len))
		return -EINVAL;
	return 0;
}

/* Decide how @req goes, given the agent that sends it. */
static int umad_req_shape(struct ib_mad_agent *agent, struct umad_req *req)
{
	bool rmpp_class = ib_is_mad_class_rmpp(req->rmpp.mad_hdr.mgmt_class);

	req->rmpp_active = false;
	req->user_rmpp = false;
	req->copy_from = IB_MGMT_MAD_HDR;
	if (rmpp_class && ib_mad_kernel_rmpp_agent(agent)) {
		/* the kernel writes the RMPP header: the caller's is a flag */
		req->copy_from = IB_MGMT_RMPP_HDR;
		req->rmpp_active = umad_rmpp_active(&req->rmpp.rmpp_hdr);
	} else if (rmpp_class) {
		req->user_rmpp = umad_rmpp_active(&req->rmpp.rmpp_hdr);
	}
	/* a message that is not segmented here is one MAD */
	if (!req->rmpp_active &&
	    req->hdr_len + req->data_len > IB_MGMT_MAD_SIZE)
		return -EINVAL;
	if (req->rmpp_active && req->hdr_len < IB_MGMT_RMPP_HDR)
		return -EINVAL;
	return 0;
}

/* The address the header names, on the file's port. */
static struct ib_ah *umad_req_ah(struct umad_file *file,
				 struct ib_mad_agent *agent,
				 struct ib_user_mad_hdr *hdr)
{
	struct rdma_ah_attr attr = {};
	u32 port_num = file->port->port_num;

	attr.type = rdma_ah_find_type(agent->device, port_num);
	rdma_ah_set_port_num(&attr, port_num);
	rdma_ah_set_dlid(&attr, be16_to_cpu(hdr->lid));
	rdma_ah_set_sl(&attr, hdr->sl);
	rdma_ah_set_path_bits(&attr, hdr->path_bits);
	if (hdr->grh_present) {
		rdma_ah_set_grh(&attr, NULL, be32_to_cpu(hdr->flow_label),
				hdr->gid_index, hdr->hop_limit,
				hdr->traffic_class);
		rdma_ah_set_dgid_raw(&attr, hdr->gid);
	}
	return rdma_create_user_ah(agent->qp->pd, &attr, NULL);
}

/* Copy the caller's message into @msg, segment by segment for RMPP. */
static int umad_req_copy(const struct umad_req *req,
			 struct ib_mad_send_buf *msg)
{
	size_t left, n;
	int seg;

	memcpy(msg->mad, req->head, IB_MGMT_MAD_HDR);
	if (!req->rmpp_active)
		return copy_from_user(msg->mad + req->copy_from,
				      req->mad + req->copy_from,
				      req->hdr_len + req->data_len -
				      req->copy_from) ? -EFAULT : 0;
	/* the class header after the RMPP header, then the data */
	if (copy_from_user(msg->mad + IB_MGMT_RMPP_HDR,
			   req->mad + IB_MGMT_RMPP_HDR,
			   req->hdr_len - IB_MGMT_RMPP_HDR))
		return -EFAULT;
	for (seg = 1, left = req->data_len; left; seg++, left -= n) {
		void *dst = ib_get_rmpp_segment(msg, seg);

		n = min_t(size_t, left, msg->seg_size);
		if (!dst || copy_from_user(dst, req->mad + req->hdr_len +
					   (seg - 1) * (size_t)msg->seg_size, n))
			return -EFAULT;
	}
	return 0;
}

static bool umad_same_peer(const struct ib_user_mad_hdr *a,
			   const struct ib_user_mad_hdr *b)
{
	if (a->grh_present != b->grh_present)
		return false;
	return a->grh_present ? !memcmp(a->gid, b->gid, sizeof(a->gid)) :
				a->lid == b->lid;
}

/*
 * Is a send like @packet's already in flight? Two requests of one class
 * may not share a TID; nor may two responses to the same peer.
 */
static bool umad_send_is_duplicate(struct umad_file *file,
				   const struct umad_packet *packet)
{
	const struct ib_mad_hdr *hdr = (void *)packet->umad.data;
	const struct umad_packet *other;

	lockdep_assert_held(&file->send_lock);
	list_for_each_entry(other, &file->sends, node) {
		const struct ib_mad_hdr *ohdr = (void *)other->umad.data;

		if (ohdr->tid != hdr->tid || ohdr->mgmt_class != hdr->mgmt_class)
			continue;
		if (ib_response_mad(hdr) != ib_response_mad(ohdr))
			continue;
		if (!ib_response_mad(hdr) ||
		    umad_same_peer(&packet->umad.hdr, &other->umad.hdr))
			return true;
	}
	return false;
}

/* Put @packet on the file's list of sends; false for a duplicate. */
static bool umad_send_track(struct umad_file *file, struct umad_packet *packet,
			    bool check)
{
	bool dup;

	spin_lock_irq(&file->send_lock);
	dup = check && umad_send_is_duplicate(file, packet);
	if (!dup)
		list_add_tail(&packet->node, &file->sends);
	spin_unlock_irq(&file->send_lock);
	return !dup;
}

static void umad_send_untrack(struct umad_file *file,
			      struct umad_packet *packet)
{
	spin_lock_irq(&file->send_lock);
	list_del(&packet->node);
	spin_unlock_irq(&file->send_lock);
}

/* Make, fill and post the send of @req on @agent, whose address is @ah. */
static int umad_send_post(struct umad_file *file, struct ib_mad_agent *agent,
			  struct umad_req *req, struct ib_ah *ah)
{
	struct ib_mad_hdr *mhdr = &req->rmpp.mad_hdr;
	struct umad_packet *packet;
	struct ib_mad_send_buf *msg;
	int ret;

	packet = kzalloc(sizeof(*packet) + IB_MGMT_RMPP_HDR, GFP_KERNEL);
	if (!packet)
		return -ENOMEM;
	msg = ib_create_send_mad(agent, be32_to_cpu(req->hdr.qpn),
				 req->hdr.pkey_index, req->rmpp_active,
				 req->hdr_len, req->data_len, GFP_KERNEL,
				 mhdr->base_version);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto err_packet;
	}
	/* requests carry the agent's hi_tid, which routes answers back */
	if (!ib_response_mad(mhdr))
		mhdr->tid = cpu_to_be64((u64)agent->hi_tid << 32 |
					(be64_to_cpu(mhdr->tid) & 0xffffffff));
	ret = umad_req_copy(req, msg);
	if (ret)
		goto err_msg;
	msg->ah = ah;
	msg->timeout_ms = req->hdr.timeout_ms;
	msg->retries = req->hdr.retries;
	msg->context[0] = packet;
	packet->msg = msg;
	packet->umad.hdr = req->hdr;
	memcpy(packet->umad.data, req->head, IB_MGMT_RMPP_HDR);

	/* the segments of one user RMPP message share their TID */
	ret = -EINVAL;
	if (!umad_send_track(file, packet, !req->user_rmpp))
		goto err_msg;
	ret = ib_post_send_mad(msg, NULL);
	if (ret)
		goto err_untrack;
	return 0;

err_untrack:
	umad_send_untrack(file, packet);
err_msg:
	ib_free_send_mad(msg);
err_packet:
	kfree(packet);
	return ret;
}

/**
 * umad_send_write() - write() on umadN: send one MAD or RMPP message
 * @file: the file
 * @buf: an ib_user_mad header in the file's layout, then the MAD
 * @count: the size of both
 *
 * The header names the agent, the destination (LID or GRH, QPN, P_Key
 * index) and for requests timeout_ms and retries; a request whose answer
 * does not come in time is reported by read() with status ETIMEDOUT.
 *
 * Context: Process context, may sleep.
 * Return: @count; -EINVAL for a short or oversized write, an agent id out
 * of range, a MAD too long for its class, a duplicate TID; -EIO for an id
 * of no agent or once the device is gone; the MAD layer's or the address
 * handle's errors; -EFAULT.
 */
ssize_t umad_send_write(struct umad_file *file, const char __user *buf,
			size_t count)
{
	struct ib_mad_agent *agent;
	struct umad_req req;
	struct ib_ah *ah;
	int ret;

	ret = umad_req_read(file, buf, count, &req);
	if (ret)
		return ret;

	mutex_lock(&file->lock);
	agent = umad_file_agent(file, req.hdr.id);
	ret = -EIO;
	if (!agent)
		goto out;
	ret = umad_req_shape(agent, &req);
	if (ret)
		goto out;
	ah = umad_req_ah(file, agent, &req.hdr);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto out;
	}
	ret = umad_send_post(file, agent, &req, ah);
	if (ret)
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
out:
	mutex_unlock(&file->lock);
	return ret ? ret : count;
}

/**
 * umad_send_handler() - The MAD layer is done with a send of a file
 * @agent: the file's agent
 * @send_wc: how it ended
 *
 * The send's address handle and buffer go; a request whose answer never
 * came is queued for read() with its MAD header and status ETIMEDOUT.
 *
 * Context: Process context (the MAD layer's work items), may sleep.
 */
void umad_send_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_wc *send_wc)
{
	struct umad_file *file = agent->context;
	struct ib_mad_send_buf *msg = send_wc->send_buf;
	struct umad_packet *packet = msg->context[0];

	umad_send_untrack(file, packet);
	rdma_destroy_ah(msg->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(msg);
	packet->msg = NULL;
	if (send_wc->status == IB_WC_RESP_TIMEOUT_ERR) {
		packet->length = IB_MGMT_MAD_HDR;
		packet->umad.hdr.status = ETIMEDOUT;
		if (umad_recv_queue(file, agent, packet, false))
			return;
	}
	kfree(packet);
}
