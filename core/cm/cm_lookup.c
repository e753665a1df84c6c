// SPDX-License-Identifier: GPL-2.0-only
/*
 * How received messages find their cm_id: listeners, connections by remote comm
 * ID and QPN, SIDR requests.
 */

#include <kunit/visibility.h>
#include <linux/rbtree.h>

#include "cm/cm.h"

/*
 * Four red-black trees under cm.lock:
 *  - listeners, by (device, service ID under the listener's mask); a
 *    device of NULL listens on every device;
 *  - connections by (remote comm ID, remote CA GUID): a REQ or REP seen
 *    again is a duplicate of the connection that has it;
 *  - live connections by (remote QPN, remote CA GUID): a new connection
 *    from a QP that still has one here is stale (IBA 12.4.1);
 *  - SIDR REQs being answered, by (request ID, sender GID).
 * Entries of the connection trees are struct cm_timewait, which outlive
 * their cm_id into timewait.
 */

/* -1, 0 or 1 as @a sorts before, with or after @b. */
static int cm_cmp(u64 a, u64 b)
{
	return (a > b) - (a < b);
}

/* ---- Listeners ----------------------------------------------------------- */

struct cm_listen_key {
	struct ib_device	*device;
	__be64			service_id;
};

static int cm_listen_cmp_key(const void *key, const struct rb_node *node)
{
	const struct cm_listen_key *k = key;
	const struct cm_id_priv *p = rb_entry(node, struct cm_id_priv,
					      listen_node);
	u64 mask = be64_to_cpu(p->service_mask);

	if (k->device != p->id.device)
		return cm_cmp((uintptr_t)k->device, (uintptr_t)p->id.device);
	return cm_cmp(be64_to_cpu(k->service_id) & mask,
		   be64_to_cpu(p->id.service_id) & mask);
}

static int cm_listen_cmp(struct rb_node *a, const struct rb_node *b)
{
	const struct cm_id_priv *p = rb_entry(a, struct cm_id_priv,
					      listen_node);
	struct cm_listen_key key = { p->id.device, p->id.service_id };

	return cm_listen_cmp_key(&key, b);
}

/* The listener of @service_id on @device, with a reference, or NULL. */
struct cm_id_priv *cm_listen_find(struct ib_device *device,
				  __be64 service_id)
{
	struct cm_listen_key key = { device, service_id };
	struct cm_id_priv *priv = NULL;
	struct rb_node *node;
	unsigned long flags;

	spin_lock_irqsave(&cm.lock, flags);
	node = rb_find(&key, &cm.listen_tree, cm_listen_cmp_key);
	if (node) {
		priv = rb_entry(node, struct cm_id_priv, listen_node);
		cm_id_get(priv);
	}
	spin_unlock_irqrestore(&cm.lock, flags);
	return priv;
}
EXPORT_SYMBOL_IF_KUNIT(cm_listen_find);

/* Add @priv (its service ID and mask set); -EBUSY if one listens there. */
int cm_listen_insert(struct cm_id_priv *priv)
{
	lockdep_assert_held(&cm.lock);
	if (rb_find_add(&priv->listen_node, &cm.listen_tree, cm_listen_cmp)) {
		RB_CLEAR_NODE(&priv->listen_node);
		return -EBUSY;
	}
	return 0;
}

void cm_listen_erase(struct cm_id_priv *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&cm.lock, flags);
	if (!RB_EMPTY_NODE(&priv->listen_node)) {
		rb_erase(&priv->listen_node, &cm.listen_tree);
		RB_CLEAR_NODE(&priv->listen_node);
	}
	spin_unlock_irqrestore(&cm.lock, flags);
}

/* ---- Connections --------------------------------------------------------- */

struct cm_remote_key {
	u32	id;		/* comm ID or QPN */
	u64	guid;
};

static int cm_remote_cmp_key(const struct cm_remote_key *k, u32 id, u64 guid)
{
	if (k->id != id)
		return cm_cmp(k->id, id);
	return cm_cmp(k->guid, guid);
}

static int cm_remote_id_cmp_key(const void *key, const struct rb_node *node)
{
	const struct cm_timewait *tw = rb_entry(node, struct cm_timewait,
						remote_id_node);

	return cm_remote_cmp_key(key, be32_to_cpu(tw->remote_id),
				 be64_to_cpu(tw->remote_ca_guid));
}

static int cm_remote_id_cmp(struct rb_node *a, const struct rb_node *b)
{
	const struct cm_timewait *tw = rb_entry(a, struct cm_timewait,
						remote_id_node);
	struct cm_remote_key key = { be32_to_cpu(tw->remote_id),
				     be64_to_cpu(tw->remote_ca_guid) };

	return cm_remote_id_cmp_key(&key, b);
}

static int cm_remote_qpn_cmp_key(const void *key, const struct rb_node *node)
{
	const struct cm_timewait *tw = rb_entry(node, struct cm_timewait,
						remote_qpn_node);

	return cm_remote_cmp_key(key, tw->remote_qpn,
				 be64_to_cpu(tw->remote_ca_guid));
}

static int cm_remote_qpn_cmp(struct rb_node *a, const struct rb_node *b)
{
	const struct cm_timewait *tw = rb_entry(a, struct cm_timewait,
						remote_qpn_node);
	struct cm_remote_key key = { tw->remote_qpn,
				     be64_to_cpu(tw->remote_ca_guid) };

	return cm_remote_qpn_cmp_key(&key, b);
}

/* Add @tw by remote comm ID; the entry already there, or NULL. */
struct cm_timewait *cm_remote_id_insert(struct cm_timewait *tw)
{
	struct rb_node *old;

	lockdep_assert_held(&cm.lock);
	old = rb_find_add(&tw->remote_id_node, &cm.remote_id_tree,
			  cm_remote_id_cmp);
	if (old)
		return rb_entry(old, struct cm_timewait, remote_id_node);
	tw->in_id_tree = true;
	return NULL;
}

struct cm_timewait *cm_remote_id_find(__be32 remote_id, __be64 guid)
{
	struct cm_remote_key key = { be32_to_cpu(remote_id),
				     be64_to_cpu(guid) };
	struct rb_node *node;

	lockdep_assert_held(&cm.lock);
	node = rb_find(&key, &cm.remote_id_tree, cm_remote_id_cmp_key);
	return node ? rb_entry(node, struct cm_timewait, remote_id_node) :
		      NULL;
}

/* Add @tw by remote QPN; the live connection already there, or NULL. */
struct cm_timewait *cm_remote_qpn_insert(struct cm_timewait *tw)
{
	struct rb_node *old;

	lockdep_assert_held(&cm.lock);
	old = rb_find_add(&tw->remote_qpn_node, &cm.remote_qpn_tree,
			  cm_remote_qpn_cmp);
	if (old)
		return rb_entry(old, struct cm_timewait, remote_qpn_node);
	tw->in_qpn_tree = true;
	return NULL;
}

/* Take @tw out of both connection trees. */
void cm_remote_erase(struct cm_timewait *tw)
{
	lockdep_assert_held(&cm.lock);
	if (tw->in_id_tree)
		rb_erase(&tw->remote_id_node, &cm.remote_id_tree);
	if (tw->in_qpn_tree)
		rb_erase(&tw->remote_qpn_node, &cm.remote_qpn_tree);
	tw->in_id_tree = false;
	tw->in_qpn_tree = false;
}

/* ---- SIDR requests ------------------------------------------------------- */

static int cm_sidr_cmp(struct rb_node *a, const struct rb_node *b)
{
	const struct cm_id_priv *pa = rb_entry(a, struct cm_id_priv,
					       sidr_node);
	const struct cm_id_priv *pb = rb_entry(b, struct cm_id_priv,
					       sidr_node);

	if (pa->sidr_remote_id != pb->sidr_remote_id)
		return cm_cmp(pa->sidr_remote_id, pb->sidr_remote_id);
	return memcmp(&pa->sidr_gid, &pb->sidr_gid, sizeof(pa->sidr_gid));
}

/* Add @priv by its SIDR request; the id answering it already, or NULL. */
struct cm_id_priv *cm_sidr_insert(struct cm_id_priv *priv)
{
	struct rb_node *old;
	unsigned long flags;

	spin_lock_irqsave(&cm.lock, flags);
	old = rb_find_add(&priv->sidr_node, &cm.sidr_tree, cm_sidr_cmp);
	if (old) {
		RB_CLEAR_NODE(&priv->sidr_node);
		priv = rb_entry(old, struct cm_id_priv, sidr_node);
		cm_id_get(priv);
	} else {
		priv = NULL;
	}
	spin_unlock_irqrestore(&cm.lock, flags);
	return priv;
}

void cm_sidr_erase(struct cm_id_priv *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&cm.lock, flags);
	if (!RB_EMPTY_NODE(&priv->sidr_node)) {
		rb_erase(&priv->sidr_node, &cm.sidr_tree);
		RB_CLEAR_NODE(&priv->sidr_node);
	}
	spin_unlock_irqrestore(&cm.lock, flags);
}
