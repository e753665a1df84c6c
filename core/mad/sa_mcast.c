// SPDX-License-Identifier: GPL-2.0-only
/*
 * SA multicast: one group per (port, MGID), its local members counted per join
 * state, joined and left at the SA.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/overflow.h>
#include <linux/rbtree.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "mad/sa.h"

/*
 * How a group works
 *
 * Every ib_sa_join_multicast() makes a member and queues it on the group
 * of its MGID (created on first use). A group handles one member at a
 * time, in order, so that joins, leaves and error recovery never overlap:
 * while it is BUSY its runner (sa_group_run(), from the workqueue or from
 * the callback of the group's SA request) takes the next pending member.
 * A member whose join states the group already holds at the SA joins
 * locally, if its record agrees with the group's; otherwise the group
 * sends a Set(MCMemberRecord) for it and the runner resumes from the
 * answer. Once nothing is pending, join states without local members are
 * left with a Delete, and the group becomes IDLE.
 *
 * A port event marks the groups ERROR (or PKEY_EVENT); their runner tells
 * every joined member -ENETRESET and starts again from no membership
 * (unless a P_Key event left the group's P_Key where it was).
 *
 * MGID 0 asks the SA to create a group: such groups are never shared and
 * are filed under the MGID the SA gives them.
 *
 * Locks: a port's lock protects its tree of groups; a group's lock
 * protects its lists, counts, state and record. Order: port, then group.
 * Both are taken with interrupts off.
 */

/* The number of resends of a leave that failed. */
#define SA_MCAST_LEAVE_RETRIES	3
#define SA_MCAST_NO_PKEY_INDEX	0xffff

static struct ib_sa_client sa_mcast_sa_client;
static struct workqueue_struct *sa_mcast_wq;

static int sa_mcast_add(struct ib_device *device);
static void sa_mcast_remove(struct ib_device *device, void *client_data);

static struct ib_client sa_mcast_client = {
	.name	= "sa_multicast",
	.add	= sa_mcast_add,
	.remove	= sa_mcast_remove,
};

struct sa_mcast_device;

/**
 * struct sa_mcast_port - the groups of one port
 * @dev: the device
 * @port_num: the port
 * @lock: protects @groups
 * @groups: struct sa_mcast_group by MGID
 * @refs: the device, and one per group
 * @released: completed when @refs reaches zero
 * @active: the port does IB multicast
 */
struct sa_mcast_port {
	struct sa_mcast_device	*dev;
	u32			port_num;
	spinlock_t		lock;	/* @groups */
	struct rb_root		groups;
	refcount_t		refs;
	struct completion	released;
	bool			active;
};

struct sa_mcast_device {
	struct ib_device	*device;
	struct ib_event_handler	event_handler;
	u32			start_port;
	u32			nports;
	struct sa_mcast_port	ports[];
};

enum sa_group_state {
	SA_GROUP_IDLE,
	SA_GROUP_BUSY,
	SA_GROUP_ERROR,
	SA_GROUP_PKEY_EVENT,
};

enum sa_member_state {
	SA_MEMBER_JOINING,
	SA_MEMBER_JOINED,
	SA_MEMBER_ERROR,
};

/**
 * struct sa_mcast_group - one multicast group of a port
 * @port: the port
 * @node: in @port->groups, under the MGID of @rec
 * @refs: each member, and the runner while not IDLE
 * @lock: protects every member below
 * @state: see enum sa_group_state
 * @rec: the record the SA gave (join_state: the states held at the SA)
 * @members: joined members per join state bit
 * @pending: members waiting to be joined, in order
 * @joined: members joined
 * @query: the outstanding SA request
 * @last_join: the member the outstanding Set was sent for
 * @leave_state: the join states the outstanding Delete leaves
 * @leave_retries: resends of a failed Delete left
 * @pkey_index: index of @rec.pkey when first joined
 * @work: runs sa_group_run() from the workqueue
 */
struct sa_mcast_group {
	struct sa_mcast_port	*port;
	struct rb_node		node;
	refcount_t		refs;
	spinlock_t		lock;	/* every member below */
	enum sa_group_state	state;
	struct ib_sa_mcmember_rec rec;
	int			members[NUM_JOIN_MEMBERSHIP_TYPES];
	struct list_head	pending;
	struct list_head	joined;
	struct ib_sa_query	*query;
	struct sa_mcast_member	*last_join;
	u8			leave_state;
	int			leave_retries;
	u16			pkey_index;
	struct work_struct	work;
};

/**
 * struct sa_mcast_member - one ib_sa_join_multicast()
 * @mc: what the caller sees
 * @state: see enum sa_member_state
 * @node: in @group->pending or ->joined, or alone
 * @group: the group
 * @refs: the caller, and a callback in progress
 * @released: completed when @refs reaches zero
 * @client: the caller's SA client (a use of it)
 */
struct sa_mcast_member {
	struct ib_sa_multicast	mc;
	enum sa_member_state	state;
	struct list_head	node;
	struct sa_mcast_group	*group;
	refcount_t		refs;
	struct completion	released;
	struct ib_sa_client	*client;
};

static bool sa_mgid_is_zero(const union ib_gid *mgid)
{
	return !memchr_inv(mgid->raw, 0, sizeof(mgid->raw));
}

/* ---- The tree of groups ------------------------------------------------- */

static struct sa_mcast_group *sa_group_find(struct sa_mcast_port *port,
					    const union ib_gid *mgid)
{
	struct rb_node *node = port->groups.rb_node;

	lockdep_assert_held(&port->lock);
	while (node) {
		struct sa_mcast_group *group =
			rb_entry(node, struct sa_mcast_group, node);
		int cmp = memcmp(mgid->raw, group->rec.mgid.raw,
				 sizeof(mgid->raw));

		if (!cmp)
			return group;
		node = cmp < 0 ? node->rb_left : node->rb_right;
	}
	return NULL;
}

/*
 * File @group under its MGID; returns the group already there instead,
 * unless @dup allows several (MGID 0).
 */
static struct sa_mcast_group *sa_group_insert(struct sa_mcast_port *port,
					      struct sa_mcast_group *group,
					      bool dup)
{
	struct rb_node **link = &port->groups.rb_node, *parent = NULL;

	lockdep_assert_held(&port->lock);
	while (*link) {
		struct sa_mcast_group *cur =
			rb_entry(*link, struct sa_mcast_group, node);
		int cmp = memcmp(group->rec.mgid.raw, cur->rec.mgid.raw,
				 sizeof(group->rec.mgid.raw));

		if (!cmp && !dup)
			return cur;
		parent = *link;
		link = cmp < 0 ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&group->node, parent, link);
	rb_insert_color(&group->node, &port->groups);
	return NULL;
}

/* Drop a reference on @port; the last one lets its removal go on. */
static void sa_port_put(struct sa_mcast_port *port)
{
	if (!refcount_dec_and_test(&port->refs))
		return;
	complete(&port->released);
}

/*
 * Drop a reference on @group. The last one unfiles it; the tree's lock
 * makes sure no lookup takes a new reference meanwhile.
 */
static void sa_group_put(struct sa_mcast_group *group)
{
	struct sa_mcast_port *port = group->port;
	unsigned long flags;
	bool last;

	spin_lock_irqsave(&port->lock, flags);
	last = refcount_dec_and_test(&group->refs);
	if (last)
		rb_erase(&group->node, &port->groups);
	spin_unlock_irqrestore(&port->lock, flags);
	if (!last)
		return;
	kfree(group);
	sa_port_put(port);
}

static struct sa_mcast_group *sa_group_alloc(struct sa_mcast_port *port,
					     const union ib_gid *mgid,
					     gfp_t gfp)
{
	struct sa_mcast_group *group = kzalloc(sizeof(*group), gfp);

	if (!group)
		return NULL;
	group->port = port;
	group->rec.mgid = *mgid;
	group->pkey_index = SA_MCAST_NO_PKEY_INDEX;
	group->leave_retries = SA_MCAST_LEAVE_RETRIES;
	spin_lock_init(&group->lock);
	INIT_LIST_HEAD(&group->pending);
	INIT_LIST_HEAD(&group->joined);
	refcount_set(&group->refs, 1);
	return group;
}

static void sa_group_work(struct work_struct *work);

/* The group of @mgid on @port, with a reference for the caller. */
static struct sa_mcast_group *sa_group_get(struct sa_mcast_port *port,
					   const union ib_gid *mgid, gfp_t gfp)
{
	bool fresh = sa_mgid_is_zero(mgid);
	struct sa_mcast_group *group, *cur = NULL;
	unsigned long flags;

	if (!fresh) {
		spin_lock_irqsave(&port->lock, flags);
		cur = sa_group_find(port, mgid);
		if (cur)
			refcount_inc(&cur->refs);
		spin_unlock_irqrestore(&port->lock, flags);
		if (cur)
			return cur;
	}
	group = sa_group_alloc(port, mgid, gfp);
	if (!group)
		return NULL;
	INIT_WORK(&group->work, sa_group_work);

	spin_lock_irqsave(&port->lock, flags);
	cur = sa_group_insert(port, group, fresh);
	if (cur)
		refcount_inc(&cur->refs);
	else
		refcount_inc(&port->refs);
	spin_unlock_irqrestore(&port->lock, flags);
	if (cur)
		kfree(group);
	return cur ?: group;
}

/* ---- Members ------------------------------------------------------------- */

static struct sa_mcast_member *to_member(struct ib_sa_multicast *mc)
{
	return container_of(mc, struct sa_mcast_member, mc);
}

static void sa_member_put(struct sa_mcast_member *member)
{
	if (refcount_dec_and_test(&member->refs))
		complete(&member->released);
}

/* Add (@delta 1) or remove (-1) a member of @join_state to the counts. */
static void sa_group_count(struct sa_mcast_group *group, u8 join_state,
			   int delta)
{
	int i;

	lockdep_assert_held(&group->lock);
	for (i = 0; i < NUM_JOIN_MEMBERSHIP_TYPES; i++)
		if (join_state & BIT(i))
			group->members[i] += delta;
}

/* Join states the group holds at the SA that no local member needs. */
static u8 sa_group_unneeded(struct sa_mcast_group *group)
{
	u8 unneeded = 0;
	int i;

	lockdep_assert_held(&group->lock);
	for (i = 0; i < NUM_JOIN_MEMBERSHIP_TYPES; i++)
		if (!group->members[i])
			unneeded |= BIT(i);
	return unneeded & group->rec.join_state;
}

/*
 * Tell @member @status, with a reference held for the callback; a
 * non-zero return of the callback frees the member.
 */
static void sa_member_report(struct sa_mcast_member *member, int status)
{
	int ret;

	ret = member->mc.callback(status, &member->mc);
	sa_member_put(member);
	if (ret)
		ib_sa_free_multicast(&member->mc);
}

/* Make @member a joined member of @group. */
static void sa_member_join(struct sa_mcast_group *group,
			   struct sa_mcast_member *member)
{
	u8 join_state = member->mc.rec.join_state;

	lockdep_assert_held(&group->lock);
	member->state = SA_MEMBER_JOINED;
	sa_group_count(group, join_state, 1);
	group->rec.join_state |= join_state;
	member->mc.rec = group->rec;
	member->mc.rec.join_state = join_state;
	list_move(&member->node, &group->joined);
}

/* ---- Matching a join against the group ------------------------------------ */

/* Whether @value satisfies @selector against @want (a mismatch is true). */
static bool sa_selector_fails(u8 selector, u8 value, u8 want)
{
	switch (selector) {
	case IB_SA_GT:
		return value <= want;
	case IB_SA_LT:
		return value >= want;
	case IB_SA_EQ:
		return value != want;
	default:
		return false;
	}
}

/* A selected component with a selector: check it only when both are masked. */
static bool sa_sel_mismatch(ib_sa_comp_mask mask, ib_sa_comp_mask sel_bit,
			    ib_sa_comp_mask val_bit, u8 selector, u8 value,
			    u8 want)
{
	if (!(mask & sel_bit) || !(mask & val_bit))
		return false;
	return sa_selector_fails(selector, value, want);
}

#define SA_DIFFERS(mask, bit, a, b) \
	(((mask) & (bit)) && memcmp(&(a), &(b), sizeof(a)))

/*
 * Whether the group's record @grp satisfies what the joiner asked in
 * @want under @mask; the MGID matches already, JoinState and ProxyJoin
 * do not count.
 */
static int sa_rec_check(const struct ib_sa_mcmember_rec *grp,
			const struct ib_sa_mcmember_rec *want,
			ib_sa_comp_mask mask)
{
	if (SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_PORT_GID, grp->port_gid,
		       want->port_gid) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_QKEY, grp->qkey, want->qkey) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_MLID, grp->mlid, want->mlid) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_TRAFFIC_CLASS,
		       grp->traffic_class, want->traffic_class) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_PKEY, grp->pkey, want->pkey) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_SL, grp->sl, want->sl) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_FLOW_LABEL, grp->flow_label,
		       want->flow_label) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_HOP_LIMIT, grp->hop_limit,
		       want->hop_limit) ||
	    SA_DIFFERS(mask, IB_SA_MCMEMBER_REC_SCOPE, grp->scope, want->scope))
		return -EINVAL;
	if (sa_sel_mismatch(mask, IB_SA_MCMEMBER_REC_MTU_SELECTOR,
			    IB_SA_MCMEMBER_REC_MTU, want->mtu_selector,
			    grp->mtu, want->mtu) ||
	    sa_sel_mismatch(mask, IB_SA_MCMEMBER_REC_RATE_SELECTOR,
			    IB_SA_MCMEMBER_REC_RATE, want->rate_selector,
			    grp->rate, want->rate) ||
	    sa_sel_mismatch(mask, IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME_SELECTOR,
			    IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME,
			    want->packet_life_time_selector,
			    grp->packet_life_time, want->packet_life_time))
		return -EINVAL;
	return 0;
}

/* ---- Requests to the SA ------------------------------------------------------ */

static void sa_join_done(int status, struct ib_sa_mcmember_rec *rec,
			 void *context);
static void sa_leave_done(int status, struct ib_sa_mcmember_rec *rec,
			  void *context);

/* Ask the SA to add @member's join states; 0 when sent. */
static int sa_group_send_join(struct sa_mcast_group *group,
			      struct sa_mcast_member *member)
{
	struct sa_mcast_port *port = group->port;
	int ret;

	group->last_join = member;
	ret = ib_sa_mcmember_rec_query(&sa_mcast_sa_client, port->dev->device,
				       port->port_num, IB_MGMT_METHOD_SET,
				       &member->mc.rec, member->mc.comp_mask,
				       IB_SA_MCAST_TIMEOUT_MS, GFP_KERNEL,
				       sa_join_done, group, &group->query);
	return ret < 0 ? ret : 0;
}

/* Ask the SA to drop @leave_state from the port's membership; 0 when sent. */
static int sa_group_send_leave(struct sa_mcast_group *group, u8 leave_state)
{
	struct sa_mcast_port *port = group->port;
	struct ib_sa_mcmember_rec rec;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&group->lock, flags);
	rec = group->rec;
	spin_unlock_irqrestore(&group->lock, flags);
	rec.join_state = leave_state;
	group->leave_state = leave_state;
	ret = ib_sa_mcmember_rec_query(&sa_mcast_sa_client, port->dev->device,
				       port->port_num, IB_SA_METHOD_DELETE,
				       &rec,
				       IB_SA_MCMEMBER_REC_MGID |
				       IB_SA_MCMEMBER_REC_PORT_GID |
				       IB_SA_MCMEMBER_REC_JOIN_STATE,
				       IB_SA_MCAST_TIMEOUT_MS, GFP_KERNEL,
				       sa_leave_done, group, &group->query);
	return ret < 0 ? ret : 0;
}

/* ---- The runner --------------------------------------------------------------- */

/*
 * After a port event: every joined member learns that its membership is
 * gone, and the group starts from none, unless a P_Key event left the
 * group's P_Key at its index.
 */
static void sa_group_recover(struct sa_mcast_group *group)
{
	struct sa_mcast_port *port = group->port;
	struct sa_mcast_member *member;
	bool pkey_event;
	u16 pkey, index;
	int ret;

	spin_lock_irq(&group->lock);
	pkey_event = group->state == SA_GROUP_PKEY_EVENT;
	pkey = be16_to_cpu(group->rec.pkey);
	spin_unlock_irq(&group->lock);
	ret = pkey_event ? ib_find_pkey(port->dev->device, port->port_num,
					pkey, &index) : -ENOENT;

	spin_lock_irq(&group->lock);
	if (!ret && index == group->pkey_index)
		goto out;
	while ((member = list_first_entry_or_null(&group->joined,
						  struct sa_mcast_member,
						  node))) {
		refcount_inc(&member->refs);
		list_del_init(&member->node);
		sa_group_count(group, member->mc.rec.join_state, -1);
		member->state = SA_MEMBER_ERROR;
		spin_unlock_irq(&group->lock);
		sa_member_report(member, -ENETRESET);
		spin_lock_irq(&group->lock);
	}
	group->rec.join_state = 0;
out:
	group->state = SA_GROUP_BUSY;
	spin_unlock_irq(&group->lock);
}

/*
 * Handle the first pending member, group lock held on entry and dropped.
 * True when an SA request went out for it: the runner stops until its
 * answer.
 */
static bool sa_group_next(struct sa_mcast_group *group)
	__releases(&group->lock)
{
	struct sa_mcast_member *member;
	u8 join_state;
	int status;

	lockdep_assert_held(&group->lock);
	member = list_first_entry(&group->pending, struct sa_mcast_member,
				  node);
	join_state = member->mc.rec.join_state;
	refcount_inc(&member->refs);

	if ((group->rec.join_state & join_state) == join_state) {
		status = sa_rec_check(&group->rec, &member->mc.rec,
				      member->mc.comp_mask);
		if (!status)
			sa_member_join(group, member);
		else
			list_del_init(&member->node);
		spin_unlock_irq(&group->lock);
		sa_member_report(member, status);
		return false;
	}
	spin_unlock_irq(&group->lock);

	status = sa_group_send_join(group, member);
	if (!status) {
		sa_member_put(member);
		return true;
	}
	spin_lock_irq(&group->lock);
	list_del_init(&member->node);
	spin_unlock_irq(&group->lock);
	sa_member_report(member, status);
	return false;
}

/*
 * Run the group until it waits for the SA or has nothing left to do:
 * recover from port events, handle pending members, leave the join
 * states no member needs, then go IDLE (dropping the runner's reference).
 */
static void sa_group_run(struct sa_mcast_group *group)
{
	u8 leave;

	for (;;) {
		spin_lock_irq(&group->lock);
		if (group->state != SA_GROUP_BUSY) {
			spin_unlock_irq(&group->lock);
			sa_group_recover(group);
			continue;
		}
		if (!list_empty(&group->pending)) {
			if (sa_group_next(group))
				return;
			continue;
		}
		leave = sa_group_unneeded(group);
		if (!leave) {
			group->state = SA_GROUP_IDLE;
			spin_unlock_irq(&group->lock);
			sa_group_put(group);
			return;
		}
		group->rec.join_state &= ~leave;
		spin_unlock_irq(&group->lock);
		if (!sa_group_send_leave(group, leave))
			return;
	}
}

static void sa_group_work(struct work_struct *work)
{
	sa_group_run(container_of(work, struct sa_mcast_group, work));
}

/* A Set failed: its member (if still first in line) is told. */
static void sa_join_failed(struct sa_mcast_group *group, int status)
{
	struct sa_mcast_member *member;

	spin_lock_irq(&group->lock);
	member = list_first_entry_or_null(&group->pending,
					  struct sa_mcast_member, node);
	if (!member || member != group->last_join) {
		spin_unlock_irq(&group->lock);
		return;
	}
	refcount_inc(&member->refs);
	list_del_init(&member->node);
	spin_unlock_irq(&group->lock);
	sa_member_report(member, status);
}

/* Take the SA's record as the group's; file the group under a new MGID. */
static void sa_group_update(struct sa_mcast_group *group,
			    const struct ib_sa_mcmember_rec *rec)
{
	struct sa_mcast_port *port = group->port;
	u16 index;
	bool moved;

	if (ib_find_pkey(port->dev->device, port->port_num,
			 be16_to_cpu(rec->pkey), &index))
		index = SA_MCAST_NO_PKEY_INDEX;

	spin_lock_irq(&port->lock);
	spin_lock(&group->lock);
	if (group->state == SA_GROUP_BUSY &&
	    group->pkey_index == SA_MCAST_NO_PKEY_INDEX)
		group->pkey_index = index;
	moved = memcmp(&rec->mgid, &group->rec.mgid, sizeof(rec->mgid));
	group->rec = *rec;
	spin_unlock(&group->lock);
	if (moved) {
		rb_erase(&group->node, &port->groups);
		sa_group_insert(port, group, sa_mgid_is_zero(&rec->mgid));
	}
	spin_unlock_irq(&port->lock);
}

static void sa_join_done(int status, struct ib_sa_mcmember_rec *rec,
			 void *context)
{
	struct sa_mcast_group *group = context;

	if (status)
		sa_join_failed(group, status);
	else
		sa_group_update(group, rec);
	sa_group_run(group);
}

static void sa_leave_done(int status, struct ib_sa_mcmember_rec *rec,
			  void *context)
{
	struct sa_mcast_group *group = context;

	if (status && group->leave_retries > 0 &&
	    !sa_group_send_leave(group, group->leave_state)) {
		group->leave_retries--;
		return;
	}
	sa_group_run(group);
}

/* ---- The API --------------------------------------------------------------------- */

static struct sa_mcast_port *sa_mcast_port_find(struct ib_device *device,
						u32 port_num)
{
	struct sa_mcast_device *dev;

	dev = ib_get_client_data(device, &sa_mcast_client);
	if (!dev || port_num < dev->start_port ||
	    port_num - dev->start_port >= dev->nports ||
	    !dev->ports[port_num - dev->start_port].active)
		return NULL;
	return &dev->ports[port_num - dev->start_port];
}

/*
 * Make the runner of @group run unless it does already; the runner holds
 * a reference of its own, which @take_ref says to take (else the caller
 * hands over one of its own). Returns false when it was running.
 */
static bool sa_group_kick(struct sa_mcast_group *group, bool take_ref)
{
	lockdep_assert_held(&group->lock);
	if (group->state != SA_GROUP_IDLE)
		return false;
	group->state = SA_GROUP_BUSY;
	if (take_ref)
		refcount_inc(&group->refs);
	queue_work(sa_mcast_wq, &group->work);
	return true;
}

/* Line @member up behind the group's other pending members. */
static void sa_member_queue(struct sa_mcast_member *member)
{
	struct sa_mcast_group *group = member->group;
	unsigned long flags;

	spin_lock_irqsave(&group->lock, flags);
	list_add_tail(&member->node, &group->pending);
	sa_group_kick(group, true);
	spin_unlock_irqrestore(&group->lock, flags);
}

/**
 * ib_sa_join_multicast() - Join a multicast group through the SA
 * @client: the SA user
 * @device: the device
 * @port_num: the port
 * @rec: the MCMemberRecord to join with; its join_state says as what
 *	(bits of enum ib_sa_mc_join_states); MGID 0 asks the SA for a
 *	new group
 * @comp_mask: the components of @rec that count (IB_SA_MCMEMBER_REC_*)
 * @gfp_mask: allocation flags
 * @callback: called with 0 once joined (the group's record in
 *	multicast->rec), or with the join's error: -ETIMEDOUT, -EIO,
 *	-EINVAL (the SA refused, or the group's record does not satisfy
 *	@rec), -EAGAIN (no SM known); later with -ENETRESET when a port
 *	event lost the membership (join again). Returning non-zero frees
 *	the join, as ib_sa_free_multicast() would
 * @context: for the callback, in multicast->context
 *
 * Joins of one MGID on one port share a group: the SA is asked only for
 * join states the port does not hold yet, and a join state is left at
 * the SA once no local member of it remains. Joins of a group are handled
 * one at a time, in order.
 *
 * Context: process context; the callback runs in process context, maybe
 * before this returns.
 * Return: the join, to be freed with ib_sa_free_multicast() whatever the
 * callback reports (unless the callback returned non-zero), or
 * ERR_PTR(-ENODEV) (no IB multicast on the port) or ERR_PTR(-ENOMEM).
 */
struct ib_sa_multicast *ib_sa_join_multicast(struct ib_sa_client *client,
					     struct ib_device *device,
					     u32 port_num,
					     struct ib_sa_mcmember_rec *rec,
					     ib_sa_comp_mask comp_mask,
					     gfp_t gfp_mask,
					     int (*callback)(int status,
							     struct ib_sa_multicast *multicast),
					     void *context)
{
	struct sa_mcast_port *port = sa_mcast_port_find(device, port_num);
	struct sa_mcast_member *member;

	if (!port)
		return ERR_PTR(-ENODEV);
	member = kzalloc(sizeof(*member), gfp_mask);
	if (!member)
		return ERR_PTR(-ENOMEM);
	member->mc.rec = *rec;
	member->mc.comp_mask = comp_mask;
	member->mc.callback = callback;
	member->mc.context = context;
	member->state = SA_MEMBER_JOINING;
	INIT_LIST_HEAD(&member->node);
	refcount_set(&member->refs, 1);
	init_completion(&member->released);

	member->group = sa_group_get(port, &rec->mgid, gfp_mask);
	if (!member->group) {
		kfree(member);
		return ERR_PTR(-ENOMEM);
	}
	ib_sa_client_get(client);
	member->client = client;
	/* From here the callback may run, and free it: return what we kept. */
	sa_member_queue(member);
	return &member->mc;
}
EXPORT_SYMBOL(ib_sa_join_multicast);

/**
 * ib_sa_free_multicast() - Leave and free a join
 * @multicast: a join from ib_sa_join_multicast()
 *
 * The member stops counting for its group (the group leaves join states
 * at the SA that no member needs any more, in the background) and is
 * freed once no callback of it runs any more.
 *
 * Context: process context, may sleep; not from the join's own callback
 * (return non-zero from it instead).
 */
void ib_sa_free_multicast(struct ib_sa_multicast *multicast)
{
	struct sa_mcast_member *member = to_member(multicast);
	struct ib_sa_client *client = member->client;
	struct sa_mcast_group *group = member->group;
	bool kicked;

	spin_lock_irq(&group->lock);
	list_del_init(&member->node);
	if (member->state == SA_MEMBER_JOINED)
		sa_group_count(group, multicast->rec.join_state, -1);
	/* An idle group must look at what it may leave now. */
	kicked = sa_group_kick(group, false);
	spin_unlock_irq(&group->lock);
	/* Our reference went to the runner, or goes now. */
	if (!kicked)
		sa_group_put(group);

	/* No callback of the member may be running when it is freed. */
	sa_member_put(member);
	wait_for_completion(&member->released);
	kfree(member);
	ib_sa_client_put(client);
}
EXPORT_SYMBOL(ib_sa_free_multicast);

/**
 * ib_sa_get_mcmember_rec() - The record of a group this port uses
 * @device: the device
 * @port_num: the port
 * @mgid: the group's MGID
 * @rec: filled with the record the SA gave for the group
 *
 * Context: any.
 * Return: 0, -ENODEV (no IB multicast on the port) or -EADDRNOTAVAIL (no
 * member of the port uses the group).
 */
int ib_sa_get_mcmember_rec(struct ib_device *device, u32 port_num,
			   union ib_gid *mgid, struct ib_sa_mcmember_rec *rec)
{
	struct sa_mcast_port *port = sa_mcast_port_find(device, port_num);
	struct sa_mcast_group *group;
	unsigned long flags;
	int ret = -EADDRNOTAVAIL;

	if (!port)
		return -ENODEV;
	spin_lock_irqsave(&port->lock, flags);
	group = sa_group_find(port, mgid);
	if (group) {
		spin_lock(&group->lock);
		*rec = group->rec;
		spin_unlock(&group->lock);
		ret = 0;
	}
	spin_unlock_irqrestore(&port->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_sa_get_mcmember_rec);

/**
 * ib_init_ah_from_mcmember() - The address vector to send to a group
 * @device: the device
 * @port_num: the port
 * @rec: the group's record (from a join, or ib_sa_get_mcmember_rec())
 * @ndev: on RoCE, the net device the source GID must belong to; not
 *	looked at on InfiniBand
 * @gid_type: the type of the source GID
 * @ah_attr: filled: the group's MLID, SL and rate, and a GRH to the MGID
 *	from the port's entry of rec->port_gid with the record's flow
 *	label, hop limit and traffic class
 *
 * On success @ah_attr holds a reference on its source GID entry, which
 * rdma_destroy_ah_attr() releases.
 *
 * Context: any.
 * Return: 0; -EINVAL on a port that is neither InfiniBand nor RoCE; the
 * GID cache's error (-ENOENT) when the port has no such source GID.
 */
int ib_init_ah_from_mcmember(struct ib_device *device, u32 port_num,
			     struct ib_sa_mcmember_rec *rec,
			     struct net_device *ndev, enum ib_gid_type gid_type,
			     struct rdma_ah_attr *ah_attr)
{
	struct net_device *gid_ndev;
	const struct ib_gid_attr *sgid_attr;

	/* Only RoCE GIDs belong to a net device. */
	if (rdma_protocol_roce(device, port_num))
		gid_ndev = ndev;
	else if (rdma_protocol_ib(device, port_num))
		gid_ndev = NULL;
	else
		return -EINVAL;
	sgid_attr = rdma_find_gid_by_port(device, &rec->port_gid, gid_type,
					  port_num, gid_ndev);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);
	rdma_ah_set_port_num(ah_attr, port_num);
	rdma_ah_set_dlid(ah_attr, be16_to_cpu(rec->mlid));
	rdma_ah_set_sl(ah_attr, rec->sl);
	rdma_ah_set_static_rate(ah_attr, rec->rate);
	rdma_move_grh_sgid_attr(ah_attr, &rec->mgid,
				be32_to_cpu(rec->flow_label), rec->hop_limit,
				rec->traffic_class, sgid_attr);
	return 0;
}
EXPORT_SYMBOL(ib_init_ah_from_mcmember);

/* ---- Port events --------------------------------------------------------------------- */

/* What a port event means for the groups of the port, if anything. */
static bool sa_mcast_event_state(enum ib_event_type type,
				 enum sa_group_state *state)
{
	switch (type) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		*state = SA_GROUP_ERROR;
		return true;
	case IB_EVENT_PKEY_CHANGE:
		*state = SA_GROUP_PKEY_EVENT;
		return true;
	default:
		return false;
	}
}

/*
 * Mark @group for recovery (an ERROR mark is never weakened to a P_Key
 * one) and make sure its runner runs.
 */
static void sa_group_mark(struct sa_mcast_group *group,
			  enum sa_group_state state)
{
	spin_lock(&group->lock);
	sa_group_kick(group, true);
	if (group->state != SA_GROUP_ERROR)
		group->state = state;
	spin_unlock(&group->lock);
}

static void sa_mcast_event(struct ib_event_handler *handler,
			   struct ib_event *event)
{
	struct sa_mcast_device *dev =
		container_of(handler, struct sa_mcast_device, event_handler);
	enum sa_group_state state;
	struct sa_mcast_port *port;
	struct rb_node *node;
	unsigned long flags;

	port = sa_mcast_port_find(dev->device, event->element.port_num);
	if (!port || !sa_mcast_event_state(event->event, &state))
		return;
	spin_lock_irqsave(&port->lock, flags);
	for (node = rb_first(&port->groups); node; node = rb_next(node))
		sa_group_mark(rb_entry(node, struct sa_mcast_group, node),
			      state);
	spin_unlock_irqrestore(&port->lock, flags);
}

/* ---- Devices ---------------------------------------------------------------------------- */

static int sa_mcast_add(struct ib_device *device)
{
	u32 nports = rdma_end_port(device) - rdma_start_port(device) + 1;
	struct sa_mcast_device *dev;
	unsigned int active = 0;
	u32 i;

	dev = kzalloc(struct_size(dev, ports, nports), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->device = device;
	dev->start_port = rdma_start_port(device);
	dev->nports = nports;
	for (i = 0; i < nports; i++) {
		struct sa_mcast_port *port = &dev->ports[i];

		port->dev = dev;
		port->port_num = dev->start_port + i;
		spin_lock_init(&port->lock);
		port->groups = RB_ROOT;
		refcount_set(&port->refs, 1);
		init_completion(&port->released);
		/* joins are MADs: a port without them has no groups */
		port->active = rdma_cap_ib_mcast(device, port->port_num) &&
			       rdma_cap_ib_mad(device, port->port_num);
		active += port->active;
	}
	if (!active) {
		kfree(dev);
		return -EOPNOTSUPP;
	}
	ib_set_client_data(device, &sa_mcast_client, dev);
	INIT_IB_EVENT_HANDLER(&dev->event_handler, device, sa_mcast_event);
	ib_register_event_handler(&dev->event_handler);
	return 0;
}

/* Waits until the users have freed every join of the device. */
static void sa_mcast_remove(struct ib_device *device, void *client_data)
{
	struct sa_mcast_device *dev = client_data;
	u32 i;

	ib_unregister_event_handler(&dev->event_handler);
	flush_workqueue(sa_mcast_wq);
	for (i = 0; i < dev->nports; i++) {
		if (!dev->ports[i].active)
			continue;
		sa_port_put(&dev->ports[i]);
		wait_for_completion(&dev->ports[i].released);
	}
	kfree(dev);
}

/* ---- ib_core part ------------------------------------------------------------------------ */

int ib_sa_mcast_init(void)
{
	int ret;

	ib_sa_register_client(&sa_mcast_sa_client);
	/* Ordered: the runs of all groups one after the other. */
	sa_mcast_wq = alloc_ordered_workqueue("ib_mcast", WQ_MEM_RECLAIM);
	ret = sa_mcast_wq ? ib_register_client(&sa_mcast_client) : -ENOMEM;
	if (!ret)
		return 0;
	if (sa_mcast_wq)
		destroy_workqueue(sa_mcast_wq);
	ib_sa_unregister_client(&sa_mcast_sa_client);
	return ret;
}

void ib_sa_mcast_cleanup(void)
{
	/* Every device's groups are gone once the client is. */
	ib_unregister_client(&sa_mcast_client);
	destroy_workqueue(sa_mcast_wq);
	ib_sa_unregister_client(&sa_mcast_sa_client);
}
