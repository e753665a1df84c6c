// SPDX-License-Identifier: GPL-2.0-only
/*
 * The way to read() on umadN: received MADs (whole RMPP messages when the
 * kernel reassembled them) and timed-out requests, queued on the file in
 * arrival order with an ib_user_mad header that says where each came
 * from, and copied out one per read().
 */

#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "umad/umad.h"

/**
 * umad_packet_free() - Free a packet and the received MAD it holds
 * @packet: a packet no list holds
 *
 * Context: Any.
 */
void umad_packet_free(struct umad_packet *packet)
{
	if (packet->recv_wc)
		ib_free_recv_mad(packet->recv_wc);
	kfree(packet);
}

/**
 * umad_recv_queue() - Queue a packet for read() under its agent's id
 * @file: the file
 * @agent: the agent the packet is for
 * @packet: the packet, owned by the caller until this succeeds
 * @received: a received MAD, which a full queue drops (a report of the
 *	      file's own send is always queued)
 *
 * Context: Process context, may sleep; takes file->lock.
 * Return: true when queued; false when the agent is no longer the
 * file's (unregistered, or the file is closing or cut off) or the queue
 * is full, and the caller keeps @packet.
 */
bool umad_recv_queue(struct umad_file *file, struct ib_mad_agent *agent,
		     struct umad_packet *packet, bool received)
{
	bool queued = false;
	u32 id;

	mutex_lock(&file->lock);
	if (received && file->recv_count >= UMAD_MAX_RECV_QUEUED)
		goto out;
	for (id = 0; id < UMAD_MAX_AGENTS; id++) {
		if (umad_file_agent(file, id) != agent)
			continue;
		packet->umad.hdr.id = id;
		list_add_tail(&packet->node, &file->recvq);
		file->recv_count++;
		queued = true;
		break;
	}
out:
	mutex_unlock(&file->lock);
	if (queued)
		wake_up_interruptible(&file->wait);
	return queued;
}

/**
 * umad_recv_flush() - Drop everything queued for read()
 * @file: a file whose agents are gone
 *
 * Context: Process context, may sleep; takes file->lock.
 */
void umad_recv_flush(struct umad_file *file)
{
	struct umad_packet *packet, *next;
	LIST_HEAD(gone);

	mutex_lock(&file->lock);
	list_splice_init(&file->recvq, &gone);
	file->recv_count = 0;
	mutex_unlock(&file->lock);
	list_for_each_entry_safe(packet, next, &gone, node)
		umad_packet_free(packet);
}

/* The GRH fields of the header, from the address a reply would use. */
static int umad_recv_fill_grh(struct ib_mad_agent *agent,
			      struct ib_mad_recv_wc *rwc,
			      struct ib_user_mad_hdr *hdr)
{
	const struct ib_global_route *grh;
	struct rdma_ah_attr attr;
	int ret;

	ret = ib_init_ah_attr_from_wc(agent->device, agent->port_num, rwc->wc,
				      rwc->recv_buf.grh, &attr);
	if (ret)
		return ret;
	grh = rdma_ah_read_grh(&attr);
	hdr->gid_index = grh->sgid_index;
	hdr->hop_limit = grh->hop_limit;
	hdr->traffic_class = grh->traffic_class;
	memcpy(hdr->gid, grh->dgid.raw, sizeof(hdr->gid));
	hdr->flow_label = cpu_to_be32(grh->flow_label);
	rdma_destroy_ah_attr(&attr);
	return 0;
}

/* The header read() gives for the received MAD of @rwc. */
static int umad_recv_fill_hdr(struct umad_file *file,
			      struct ib_mad_agent *agent,
			      struct ib_mad_recv_wc *rwc,
			      struct ib_user_mad_hdr *hdr)
{
	const struct ib_wc *wc = rwc->wc;
	u32 slid = wc->slid;

	/* OPA's 32-bit LIDs do not fit: user space finds them elsewhere */
	if (rdma_cap_opa_mad(agent->device, agent->port_num))
		slid &= 0xffff;
	hdr->length = umad_hdr_size(file) + rwc->mad_len;
	hdr->qpn = cpu_to_be32(wc->src_qp);
	hdr->lid = cpu_to_be16(slid);
	hdr->sl = wc->sl;
	hdr->path_bits = wc->dlid_path_bits;
	hdr->pkey_index = wc->pkey_index;
	hdr->grh_present = !!(wc->wc_flags & IB_WC_GRH);
	return hdr->grh_present ? umad_recv_fill_grh(agent, rwc, hdr) : 0;
}

/**
 * umad_recv_handler() - A MAD for one of a file's agents
 * @agent: the agent
 * @send_buf: the request a response answers, else NULL (unused: the
 *	      response carries the request's TID)
 * @mad_recv_wc: the MAD, ours to free
 *
 * Context: Process context (the MAD layer's work items), may sleep.
 */
void umad_recv_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_buf *send_buf,
		       struct ib_mad_recv_wc *mad_recv_wc)
{
	struct umad_file *file = agent->context;
	struct umad_packet *packet;

	if (mad_recv_wc->wc->status != IB_WC_SUCCESS)
		goto err_mad;
	packet = kzalloc(sizeof(*packet), GFP_KERNEL);
	if (!packet)
		goto err_mad;
	packet->length = mad_recv_wc->mad_len;
	if (umad_recv_fill_hdr(file, agent, mad_recv_wc, &packet->umad.hdr))
		goto err_packet;
	packet->recv_wc = mad_recv_wc;
	if (umad_recv_queue(file, agent, packet, true))
		return;
	packet->recv_wc = NULL;
err_packet:
	kfree(packet);
err_mad:
	ib_free_recv_mad(mad_recv_wc);
}

/*
 * Copy a received MAD out: the header, then the first segment, then the
 * data of the others without their repeated headers. A buffer too short
 * for the first segment is -EINVAL; one too short for the rest gets the
 * header (whose length says what is needed) and the first segment, and
 * -ENOSPC.
 */
static ssize_t umad_recv_copy_mad(struct umad_file *file, char __user *buf,
				  struct umad_packet *packet, size_t count)
{
	struct ib_mad_recv_wc *rwc = packet->recv_wc;
	struct ib_mad_recv_buf *seg = &rwc->recv_buf;
	size_t hsize = umad_hdr_size(file), first, left, skip, n;

	first = min_t(size_t, packet->length, rwc->mad_seg_size);
	if (count < hsize + first)
		return -EINVAL;
	if (copy_to_user(buf, &packet->umad.hdr, hsize) ||
	    copy_to_user(buf + hsize, seg->mad, first))
		return -EFAULT;
	if (first == packet->length)
		return hsize + first;
	if (count < hsize + packet->length)
		return -ENOSPC;

	skip = ib_get_mad_data_offset(seg->mad->mad_hdr.mgmt_class);
	buf += hsize + first;
	for (left = packet->length - first; left; left -= n, buf += n) {
		seg = list_next_entry(seg, list);
		n = min_t(size_t, left, rwc->mad_seg_size - skip);
		if (copy_to_user(buf, (void *)seg->mad + skip, n))
			return -EFAULT;
	}
	return hsize + packet->length;
}

/* Copy out the report of a send that timed out: header and MAD header. */
static ssize_t umad_recv_copy_report(struct umad_file *file, char __user *buf,
				     struct umad_packet *packet, size_t count)
{
	size_t hsize = umad_hdr_size(file);

	if (count < hsize + packet->length)
		return -EINVAL;
	if (copy_to_user(buf, &packet->umad.hdr, hsize) ||
	    copy_to_user(buf + hsize, packet->umad.data, packet->length))
		return -EFAULT;
	return hsize + packet->length;
}

/* Take the oldest packet off the queue, waiting unless @nonblock. */
static struct umad_packet *umad_recv_next(struct umad_file *file,
					  bool nonblock)
{
	struct umad_packet *packet;

	for (;;) {
		mutex_lock(&file->lock);
		if (file->dead) {
			mutex_unlock(&file->lock);
			return ERR_PTR(-EIO);
		}
		packet = list_first_entry_or_null(&file->recvq,
						  struct umad_packet, node);
		if (packet) {
			list_del(&packet->node);
			file->recv_count--;
			mutex_unlock(&file->lock);
			return packet;
		}
		mutex_unlock(&file->lock);
		if (nonblock)
			return ERR_PTR(-EAGAIN);
		if (wait_event_interruptible(file->wait,
					     !list_empty(&file->recvq) ||
					     READ_ONCE(file->dead)))
			return ERR_PTR(-ERESTARTSYS);
	}
}

/**
 * umad_recv_read() - read() on umadN: the oldest queued MAD or report
 * @file: the file
 * @buf: the caller's buffer
 * @count: its size
 * @nonblock: O_NONBLOCK: do not wait for one
 *
 * A packet that does not fit goes back to the head of the queue.
 *
 * Context: Process context, may sleep.
 * Return: the bytes copied; -EINVAL for a buffer shorter than the header
 * or the packet's first MAD; -ENOSPC (with header and first segment
 * copied) for an RMPP message that does not fit; -EAGAIN; -EIO once the
 * device is gone; -ERESTARTSYS; -EFAULT.
 */
ssize_t umad_recv_read(struct umad_file *file, char __user *buf,
		       size_t count, bool nonblock)
{
	struct umad_packet *packet;
	ssize_t ret;

	if (count < umad_hdr_size(file))
		return -EINVAL;
	packet = umad_recv_next(file, nonblock);
	if (IS_ERR(packet))
		return PTR_ERR(packet);

	if (packet->recv_wc)
		ret = umad_recv_copy_mad(file, buf, packet, count);
	else
		ret = umad_recv_copy_report(file, buf, packet, count);
	if (ret >= 0) {
		umad_packet_free(packet);
		return ret;
	}
	mutex_lock(&file->lock);
	if (!file->dead) {
		list_add(&packet->node, &file->recvq);
		file->recv_count++;
		packet = NULL;
	}
	mutex_unlock(&file->lock);
	if (packet)
		umad_packet_free(packet);
	return ret;
}
