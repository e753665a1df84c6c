// SPDX-License-Identifier: GPL-2.0-only
/*
 * The agent ioctls of umadN: REGISTER_AGENT (the old layout),
 * REGISTER_AGENT2 (flags and a 24-bit OUI), UNREGISTER_AGENT and
 * ENABLE_PKEY. An agent is a MAD layer agent on the file's port whose
 * handlers queue for the file; its id is its slot, 0 to 31.
 */

#include <linux/nospec.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "umad/umad.h"

/* What both REGISTER ioctls ask for, once read and checked. */
struct umad_reg {
	struct ib_mad_reg_req	req;
	bool			has_class;	/* else @req is unused */
	u8			qpn;
	u8			rmpp_version;
	u32			flags;
};

/* The first free slot of @file, or -ENOMEM when all 32 are taken. */
static int umad_agent_slot(struct umad_file *file)
{
	u32 id;

	lockdep_assert_held(&file->lock);
	for (id = 0; id < UMAD_MAX_AGENTS; id++)
		if (!umad_file_agent(file, id))
			return id;
	return -ENOMEM;
}

/*
 * Register the agent @reg describes in a free slot of @file and tell user
 * space its id at @uid. The first agent of a file fixes its header layout;
 * REGISTER_AGENT2 (@v2) always picks the one with P_Key indexes.
 */
static long umad_agent_add(struct umad_file *file, struct umad_reg *reg,
			   u32 __user *uid, bool v2)
{
	struct umad_port *port = file->port;
	struct ib_mad_agent *agent = NULL;
	int id;
	long ret;

	mutex_lock(&port->lock);
	mutex_lock(&file->lock);
	ret = -EPIPE;
	if (!port->ib_dev || file->dead)
		goto out;
	id = umad_agent_slot(file);
	ret = id;
	if (id < 0)
		goto out;
	agent = ib_register_mad_agent(port->ib_dev, port->port_num,
				      reg->qpn ? IB_QPT_GSI : IB_QPT_SMI,
				      reg->has_class ? &reg->req : NULL,
				      reg->rmpp_version, umad_send_handler,
				      umad_recv_handler, file, reg->flags);
	if (IS_ERR(agent)) {
		ret = PTR_ERR(agent);
		agent = NULL;
		goto out;
	}
	ret = -EFAULT;
	if (put_user((u32)id, uid))
		goto out;
	if (!file->used) {
		file->used = true;
		if (v2)
			file->pkey_index = true;
	}
	file->agents[id] = agent;
	ret = 0;
out:
	mutex_unlock(&file->lock);
	/* a registered agent we failed to hand out goes without file->lock */
	if (ret && agent)
		ib_unregister_mad_agent(agent);
	mutex_unlock(&port->lock);
	return ret;
}

/**
 * umad_agent_register() - IB_USER_MAD_REGISTER_AGENT
 * @file: the file
 * @arg: struct ib_user_mad_reg_req; its id is written back
 *
 * A zero mgmt_class registers an agent that only sends (and receives the
 * answers to what it sends).
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for a qpn other than 0 or 1 or a request the MAD
 * layer refuses; -ENOMEM when the file has 32 agents; -EPIPE once the
 * device is gone; -EFAULT.
 */
long umad_agent_register(struct umad_file *file, void __user *arg)
{
	struct ib_user_mad_reg_req ureq;
	struct umad_reg reg = {};

	if (copy_from_user(&ureq, arg, sizeof(ureq)))
		return -EFAULT;
	if (ureq.qpn > 1)
		return -EINVAL;
	reg.qpn = ureq.qpn;
	reg.rmpp_version = ureq.rmpp_version;
	if (ureq.mgmt_class) {
		reg.has_class = true;
		reg.req.mgmt_class = ureq.mgmt_class;
		reg.req.mgmt_class_version = ureq.mgmt_class_version;
		memcpy(reg.req.oui, ureq.oui, sizeof(reg.req.oui));
		/* 128 method bits either way: the same bytes, in order */
		BUILD_BUG_ON(sizeof(ureq.method_mask) !=
			     sizeof(reg.req.method_mask));
		memcpy(reg.req.method_mask, ureq.method_mask,
		       sizeof(reg.req.method_mask));
	}
	return umad_agent_add(file, &reg,
			      arg + offsetof(struct ib_user_mad_reg_req, id),
			      false);
}

/**
 * umad_agent_register2() - IB_USER_MAD_REGISTER_AGENT2
 * @file: the file
 * @arg: struct ib_user_mad_reg_req2; its id is written back
 *
 * Unknown flags are refused, and the flags this kernel knows are written
 * back into the request. The OUI is the low 24 bits of @oui.
 *
 * Context: Process context, may sleep.
 * Return: as umad_agent_register(); -EINVAL also for unknown flags or an
 * OUI above 24 bits.
 */
long umad_agent_register2(struct umad_file *file, void __user *arg)
{
	struct ib_user_mad_reg_req2 ureq;
	struct umad_reg reg = {};

	if (copy_from_user(&ureq, arg, sizeof(ureq)))
		return -EFAULT;
	if (ureq.qpn > 1)
		return -EINVAL;
	if (ureq.flags & ~IB_USER_MAD_REG_FLAGS_CAP) {
		if (put_user((u32)IB_USER_MAD_REG_FLAGS_CAP,
			     (u32 __user *)(arg +
				offsetof(struct ib_user_mad_reg_req2, flags))))
			return -EFAULT;
		return -EINVAL;
	}
	reg.qpn = ureq.qpn;
	reg.rmpp_version = ureq.rmpp_version;
	reg.flags = ureq.flags;
	if (ureq.mgmt_class) {
		if (ureq.oui >> 24)
			return -EINVAL;
		reg.has_class = true;
		reg.req.mgmt_class = ureq.mgmt_class;
		reg.req.mgmt_class_version = ureq.mgmt_class_version;
		/* the OUI goes on the wire most significant byte first */
		reg.req.oui[0] = ureq.oui >> 16;
		reg.req.oui[1] = ureq.oui >> 8;
		reg.req.oui[2] = ureq.oui;
		bitmap_from_arr64(reg.req.method_mask, ureq.method_mask,
				  IB_MGMT_MAX_METHODS);
	}
	return umad_agent_add(file, &reg,
			      arg + offsetof(struct ib_user_mad_reg_req2, id),
			      true);
}

/**
 * umad_agent_unregister() - IB_USER_MAD_UNREGISTER_AGENT
 * @file: the file
 * @arg: the agent's id
 *
 * Its sends in flight complete (and are dropped) before this returns.
 *
 * Context: Process context, may sleep.
 * Return: 0; -EINVAL for an id out of range or of no agent; -EFAULT.
 */
long umad_agent_unregister(struct umad_file *file, u32 __user *arg)
{
	struct ib_mad_agent *agent;
	u32 id;

	if (get_user(id, arg))
		return -EFAULT;
	if (id >= UMAD_MAX_AGENTS)
		return -EINVAL;
	id = array_index_nospec(id, UMAD_MAX_AGENTS);

	mutex_lock(&file->port->lock);
	mutex_lock(&file->lock);
	agent = umad_file_agent(file, id);
	file->agents[id] = NULL;
	mutex_unlock(&file->lock);
	if (agent)
		ib_unregister_mad_agent(agent);
	mutex_unlock(&file->port->lock);
	return agent ? 0 : -EINVAL;
}

/**
 * umad_agent_enable_pkey() - IB_USER_MAD_ENABLE_PKEY
 * @file: the file
 *
 * Switches the file to the header with P_Key indexes; only possible
 * before its first agent.
 *
 * Context: Process context, may sleep.
 * Return: 0, or -EINVAL once an agent was registered.
 */
long umad_agent_enable_pkey(struct umad_file *file)
{
	long ret = 0;

	mutex_lock(&file->lock);
	if (file->used)
		ret = -EINVAL;
	else
		file->pkey_index = true;
	mutex_unlock(&file->lock);
	return ret;
}
