// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe_mr.c - memory keys, memory regions (DMA, fast registration, user
 * memory), and copies and atomics through them.
 */

#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <rdma/ib_umem.h>
#include "rxe_ops.h"
#include "rxe_verbs.h"
#include "rxe_qp.h"
#include "rxe_mr.h"

/* ---- Keys ------------------------------------------------------------- */

/**
 * rxe_key_add() - reserve a key index for a new MR or MW
 * @rxe: the device
 * @key: the key to set up; holds its owner's reference on return
 * @kind: what @key is embedded in
 *
 * The index is reserved but not visible to lookups until rxe_key_publish().
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM (no memory or no free index).
 */
int rxe_key_add(struct rxe_dev *rxe, struct rxe_key *key,
		enum rxe_key_kind kind)
{
	int err;

	refcount_set(&key->ref, 1);
	init_completion(&key->done);
	key->kind = kind;
	err = xa_alloc_cyclic(&rxe->key_xa, &key->index, NULL,
			      XA_LIMIT(1, RXE_MAX_MR + RXE_MAX_MW),
			      &rxe->key_next, GFP_KERNEL);
	if (err < 0)
		return err == -EBUSY ? -ENOMEM : err;
	return 0;
}

/**
 * rxe_key_publish() - make a fully set up key visible to lookups
 * @rxe: the device
 * @key: a key reserved by rxe_key_add()
 *
 * Context: any context; the index is reserved, so nothing is allocated.
 */
void rxe_key_publish(struct rxe_dev *rxe, struct rxe_key *key)
{
	xa_store(&rxe->key_xa, key->index, key, GFP_ATOMIC);
}

/**
 * rxe_key_del() - unpublish a key and wait until nobody uses it
 * @rxe: the device
 * @key: a key from rxe_key_add(); its owner's reference is dropped here
 *
 * Lookups that found the key before it was erased may still touch its
 * memory for an RCU grace period; the caller frees it after one.
 *
 * Context: process context, sleeps.
 */
void rxe_key_del(struct rxe_dev *rxe, struct rxe_key *key)
{
	xa_erase(&rxe->key_xa, key->index);
	rxe_key_put(key);
	wait_for_completion(&key->done);
}

/**
 * rxe_key_get() - find the MR or MW an lkey/rkey names, by its index
 * @rxe: the device
 * @key: the key; only its index is looked at here, the caller compares
 *	the whole key under the object's rules
 *
 * Context: any context.
 * Return: the key with a reference (rxe_key_put()), or NULL.
 */
struct rxe_key *rxe_key_get(struct rxe_dev *rxe, u32 key)
{
	struct rxe_key *k;

	rcu_read_lock();
	k = xa_load(&rxe->key_xa, rxe_key_index(key));
	if (k && !refcount_inc_not_zero(&k->ref))
		k = NULL;
	rcu_read_unlock();
	return k;
}

/**
 * rxe_key_put() - drop a reference from rxe_key_get() or rxe_key_add()
 * @key: the key
 *
 * Context: any context.
 */
void rxe_key_put(struct rxe_key *key)
{
	if (refcount_dec_and_test(&key->ref))
		complete(&key->done);
}

/* ---- Checks ----------------------------------------------------------- */

/**
 * rxe_mr_covers() - whether [@iova, @iova + @len) lies inside an MR
 * @mr: the MR
 * @iova: first address
 * @len: bytes
 *
 * Context: any context.
 */
bool rxe_mr_covers(const struct rxe_mr *mr, u64 iova, u64 len)
{
	return iova >= mr->iova && len <= mr->length &&
	       iova - mr->iova <= mr->length - len;
}

/**
 * rxe_mr_check() - whether an access through a key may use an MR
 * @mr: the MR the key's index named
 * @pd: the PD of the QP making the access
 * @key: the whole key (variant byte included)
 * @iova: first address
 * @len: bytes
 * @access: IB_ACCESS_* bits the access needs (0 for a local read)
 *
 * Context: any context; the caller holds a reference on @mr.
 * Return: true when @mr is valid under @key, in @pd, allows @access and
 * covers the range.
 */
bool rxe_mr_check(struct rxe_mr *mr, struct rxe_pd *pd, u32 key, u64 iova,
		  u64 len, int access)
{
	/* pairs with the release in rxe_mr_fast_reg(): fields below are set */
	if (smp_load_acquire(&mr->state) != RXE_MEM_VALID)
		return false;
	/* rereg changes pd and access in place (rxe_mr_rereg_in_place()) */
	return mr->mkey == key && READ_ONCE(mr->pd) == pd &&
	       (READ_ONCE(mr->access) & access) == access &&
	       rxe_mr_covers(mr, iova, len);
}

/* ---- The verbs ---------------------------------------------------------- */

/* A new MR of @kind on @ibpd, with its key reserved; not yet published. */
static struct rxe_mr *rxe_mr_new(struct ib_pd *ibpd, enum rxe_mr_kind kind)
{
	struct rxe_dev *rxe = to_rdev(ibpd->device);
	struct rxe_mr *mr;
	int err;

	if (!rxe_count_inc(&rxe->num_mr, rxe->attr.max_mr)) {
		rxe_dbg_dev(rxe, "too many MRs\n");
		return ERR_PTR(-ENOMEM);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		err = -ENOMEM;
		goto err_count;
	}
	err = rxe_key_add(rxe, &mr->key, RXE_KEY_MR);
	if (err)
		goto err_free;
	spin_lock_init(&mr->lock);
	mr->pd = to_rpd(ibpd);
	mr->kind = kind;
	mr->mkey = mr->key.index << 8;
	mr->ibmr.lkey = mr->mkey;
	mr->ibmr.rkey = mr->mkey;
	return mr;

err_free:
	kfree(mr);
err_count:
	atomic_dec(&rxe->num_mr);
	return ERR_PTR(err);
}

/**
 * rxe_mr_get_dma() - the get_dma_mr verb
 * @ibpd: the PD
 * @access: IB_ACCESS_* allowed
 *
 * The MR covers the whole address space: an iova is a kernel virtual
 * address (what DMA addresses are on this device).
 *
 * Context: process context.
 * Return: the MR, or ERR_PTR(-ENOMEM) (also beyond attr.max_mr).
 */
struct ib_mr *rxe_mr_get_dma(struct ib_pd *ibpd, int access)
{
	struct rxe_mr *mr = rxe_mr_new(ibpd, RXE_MR_DMA);

	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->access = access;
	mr->iova = 0;
	mr->length = U64_MAX;
	mr->state = RXE_MEM_VALID;
	rxe_key_publish(to_rdev(ibpd->device), &mr->key);
	return &mr->ibmr;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_get_dma);

/**
 * rxe_mr_alloc() - the alloc_mr verb: an MR for fast registration
 * @ibpd: the PD
 * @type: IB_MR_TYPE_MEM_REG
 * @max_num_sg: pages the MR may map (up to RXE_MAX_FMR_PAGES)
 *
 * The MR is invalid until an IB_WR_REG_MR after rxe_mr_map_sg().
 *
 * Context: process context.
 * Return: the MR, ERR_PTR() of -EOPNOTSUPP (other types), -EINVAL (too
 * many pages), -ENOMEM (also beyond attr.max_mr).
 */
struct ib_mr *rxe_mr_alloc(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct rxe_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > RXE_MAX_FMR_PAGES)
		return ERR_PTR(-EINVAL);
	mr = rxe_mr_new(ibpd, RXE_MR_PAGES);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->pages = kcalloc(max_num_sg, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages) {
		rxe_mr_dereg(&mr->ibmr, NULL);
		return ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	mr->state = RXE_MEM_FREE;
	rxe_key_publish(to_rdev(ibpd->device), &mr->key);
	return &mr->ibmr;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_alloc);

/* ib_sg_to_pages() callback: one more page of the list. */
static int rxe_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct rxe_mr *mr = to_rmr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

/**
 * rxe_mr_map_sg() - the map_mr_sg verb: load an MR's page list
 * @ibmr: an MR from rxe_mr_alloc(), not valid; ibmr->page_size is set
 * @sg: a DMA-mapped scatterlist (DMA addresses are kernel addresses)
 * @sg_nents: entries in @sg
 * @sg_offset: bytes to skip in the first entry, or NULL
 *
 * Context: any context.
 * Return: entries mapped (see ib_sg_to_pages()), or -EINVAL.
 */
int rxe_mr_map_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct rxe_mr *mr = to_rmr(ibmr);
	int n;

	if (mr->kind != RXE_MR_PAGES || !is_power_of_2(ibmr->page_size))
		return -EINVAL;
	mr->npages = 0;
	mr->page_shift = ilog2(ibmr->page_size);
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, rxe_mr_set_page);
	mr->page_offset = ibmr->iova & (ibmr->page_size - 1);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_map_sg);

/* The umem's pages, one pointer per CPU page, in address order. */
static int rxe_mr_load_umem(struct rxe_mr *mr, struct ib_umem *umem)
{
	size_t npages = ib_umem_num_pages(umem);
	struct sg_page_iter piter;
	u32 i = 0;

	mr->upages = kvcalloc(npages, sizeof(*mr->upages), GFP_KERNEL);
	if (!mr->upages)
		return -ENOMEM;
	for_each_sgtable_page(&umem->sgt_append.sgt, &piter, 0) {
		if (i == npages)
			break;
		mr->upages[i++] = sg_page_iter_page(&piter);
	}
	if (i != npages)
		return -EFAULT;
	mr->npages = i;
	mr->max_pages = i;
	mr->page_shift = PAGE_SHIFT;
	mr->page_offset = ib_umem_offset(umem);
	return 0;
}

/**
 * rxe_mr_reg_user() - the reg_user_mr verb
 * @ibpd: PD
 * @start: user virtual address of the first byte
 * @length: bytes
 * @iova: address the region is known by (same offset in its page as
 *	@start; ib_uverbs checks)
 * @access: IB_ACCESS_* flags (checked by the caller)
 * @udata: user data (rdma_rxe takes none)
 *
 * The pages are pinned with ib_umem_get() (RLIMIT_MEMLOCK applies) and
 * stay pinned until rxe_mr_dereg(); the transport copies through them
 * page by page.
 *
 * Context: process context of the owner of the memory, may sleep.
 * Return: the MR, or ERR_PTR() of ib_umem_get()'s errors, -ENOMEM (also
 * beyond attr.max_mr).
 */
struct ib_mr *rxe_mr_reg_user(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct ib_umem *umem;
	struct rxe_mr *mr;
	int err;

	mr = rxe_mr_new(ibpd, RXE_MR_USER);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto err_mr;
	}
	mr->umem = umem;
	err = rxe_mr_load_umem(mr, umem);
	if (err)
		goto err_mr;
	mr->access = access;
	mr->iova = iova;
	mr->length = length;
	mr->state = RXE_MEM_VALID;
	rxe_key_publish(to_rdev(ibpd->device), &mr->key);
	return &mr->ibmr;

err_mr:
	/* releases what was set up so far, the umem included */
	rxe_mr_dereg(&mr->ibmr, NULL);
	return ERR_PTR(err);
}

/*
 * Retire @mr, which a rereg replaced: invalid from now on, so its keys
 * are refused and no window can be bound to it any more. Refused
 * (-EBUSY) while windows are bound: the core could not deregister it.
 */
static int rxe_mr_retire(struct rxe_mr *mr)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&mr->lock, flags);
	if (atomic_read(&mr->num_mw))
		err = -EBUSY;
	else
		WRITE_ONCE(mr->state, RXE_MEM_FREE);
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

/*
 * A new registration for a rereg: the new range with IB_MR_REREG_TRANS,
 * the old one re-pinned otherwise (access that now writes needs pages
 * pinned for writing), on @ibpd with @access.
 */
static struct ib_mr *rxe_mr_rereg_new(struct rxe_mr *mr, int flags, u64 start,
				      u64 length, u64 iova, int access,
				      struct ib_pd *ibpd)
{
	struct ib_mr *ibmr;
	int err;

	if (!(flags & IB_MR_REREG_TRANS)) {
		start = mr->umem->address;
		length = mr->umem->length;
		iova = mr->iova;
	}
	ibmr = rxe_mr_reg_user(ibpd, start, length, iova, access, NULL);
	if (IS_ERR(ibmr))
		return ibmr;
	err = rxe_mr_retire(mr);
	if (err)
		goto err_new;
	return ibmr;

err_new:
	rxe_mr_dereg(ibmr, NULL);
	return ERR_PTR(err);
}

/*
 * PD and access of @mr, in place. Lookups read both without the lock
 * (READ_ONCE in rxe_mr_check()): one racing with this sees the old or
 * the new value of each, and a copy that passed its check before
 * finishes under the old rights. Binds check and count a window under
 * mr->lock, so none is bound on the strength of the old values.
 */
static int rxe_mr_rereg_in_place(struct rxe_mr *mr, int flags, int access,
				 struct ib_pd *ibpd)
{
	unsigned long irqflags;
	int err = 0;

	spin_lock_irqsave(&mr->lock, irqflags);
	if (atomic_read(&mr->num_mw)) {
		err = -EBUSY;
		goto out;
	}
	if (flags & IB_MR_REREG_PD)
		WRITE_ONCE(mr->pd, to_rpd(ibpd));
	if (flags & IB_MR_REREG_ACCESS)
		WRITE_ONCE(mr->access, access);
out:
	spin_unlock_irqrestore(&mr->lock, irqflags);
	return err;
}

/**
 * rxe_mr_rereg_user() - the rereg_user_mr verb
 * @ibmr: a user MR
 * @flags: IB_MR_REREG_* (checked by the caller; may be 0)
 * @start: IB_MR_REREG_TRANS: user address of the new range
 * @length: IB_MR_REREG_TRANS: its bytes
 * @iova: IB_MR_REREG_TRANS: the address it is known by
 * @access: IB_MR_REREG_ACCESS: the new IB_ACCESS_* (checked by the caller)
 * @ibpd: the PD the MR is to be on (its own without IB_MR_REREG_PD)
 * @udata: user data (rdma_rxe takes none)
 *
 * PD and access change in place, keys unchanged, unless the new access
 * writes memory pinned read-only. A new translation, or that, makes a new
 * registration with new keys, which the caller puts behind the handle
 * before deregistering @ibmr; @ibmr is invalid from then on, and copies
 * that found it before finish with their own reference. IBA forbids a
 * rereg while memory windows are bound to the MR.
 *
 * Context: process context of the owner of the memory, may sleep.
 * Return: NULL when changed in place, the new MR, or ERR_PTR() of
 * -EINVAL (not a user MR), -EBUSY (windows bound) or rxe_mr_reg_user()'s
 * errors; @ibmr is then unchanged.
 */
struct ib_mr *rxe_mr_rereg_user(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rxe_mr *mr = to_rmr(ibmr);
	int err;

	if (mr->kind != RXE_MR_USER)
		return ERR_PTR(-EINVAL);
	if (!(flags & IB_MR_REREG_ACCESS))
		access = mr->access;
	if ((flags & IB_MR_REREG_TRANS) ||
	    (ib_access_writable(access) && !mr->umem->writable))
		return rxe_mr_rereg_new(mr, flags, start, length, iova, access,
					ibpd);
	err = rxe_mr_rereg_in_place(mr, flags, access, ibpd);
	return err ? ERR_PTR(err) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_rereg_user);

/**
 * rxe_mr_dereg() - the dereg_mr verb
 * @ibmr: the MR
 * @udata: user data (unused)
 *
 * Waits until copies that found the MR are done with it, then unpins a
 * user MR's pages.
 *
 * Context: process context, sleeps.
 * Return: 0, or -EBUSY while memory windows are bound to the MR.
 */
int rxe_mr_dereg(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rxe_mr *mr = to_rmr(ibmr);
	struct rxe_dev *rxe = to_rdev(mr->pd->ibpd.device);

	if (atomic_read(&mr->num_mw))
		return -EBUSY;
	rxe_key_del(rxe, &mr->key);
	kvfree(mr->upages);
	ib_umem_release(mr->umem);
	kfree(mr->pages);
	atomic_dec(&rxe->num_mr);
	kfree_rcu(mr, key.rcu);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_dereg);

/**
 * rxe_mr_fast_reg() - carry out an IB_WR_REG_MR
 * @qp: the QP the request was posted on
 * @ibmr: the MR, mapped by rxe_mr_map_sg()
 * @key: the new lkey == rkey; its index must be the MR's
 * @access: IB_ACCESS_* of the registration
 *
 * The region is ibmr->iova and ibmr->length as they are now.
 *
 * Context: any context.
 * Return: 0, or -EINVAL (not a fast-registration MR, another PD, already
 * valid, wrong key index).
 */
int rxe_mr_fast_reg(struct rxe_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access)
{
	struct rxe_mr *mr = to_rmr(ibmr);
	unsigned long flags;
	int err = 0;

	if (mr->kind != RXE_MR_PAGES || mr->pd != rxe_qp_pd(qp) ||
	    rxe_key_index(key) != mr->key.index) {
		rxe_dbg_qp(qp, "cannot register MR %#x as %#x\n", mr->mkey, key);
		return -EINVAL;
	}
	spin_lock_irqsave(&mr->lock, flags);
	if (mr->state != RXE_MEM_FREE) {
		err = -EINVAL;
		goto out;
	}
	mr->mkey = key;
	mr->access = access;
	mr->iova = ibmr->iova;
	mr->length = ibmr->length;
	/* lookups that see the MR valid see the registration's fields */
	smp_store_release(&mr->state, RXE_MEM_VALID);
out:
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_fast_reg);

/*
 * Invalidate a fast-registration MR of @qp's PD by its whole @key. A peer
 * may invalidate only an MR it could be given access to.
 */
static int rxe_mr_invalidate(struct rxe_mr *mr, struct rxe_qp *qp, u32 key,
			     bool remote)
{
	unsigned long flags;
	int err = 0;

	if (mr->kind != RXE_MR_PAGES || mr->pd != rxe_qp_pd(qp))
		return -EINVAL;
	if (remote && !(READ_ONCE(mr->access) & RXE_ACCESS_REMOTE))
		return -EINVAL;
	spin_lock_irqsave(&mr->lock, flags);
	if (mr->mkey != key)
		err = -EINVAL;
	else
		WRITE_ONCE(mr->state, RXE_MEM_FREE);
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

/**
 * rxe_key_invalidate() - carry out a LOCAL_INV or a SEND_WITH_INV's invalidation
 * @qp: the QP that got the request
 * @key: the MR's or type 2 MW's whole key
 * @remote: from a SEND_WITH_INV: an MR must then allow some remote access
 *
 * An MR becomes invalid, a type 2 MW (bound to @qp) unbound.
 *
 * Context: any context.
 * Return: 0 or -EINVAL.
 */
int rxe_key_invalidate(struct rxe_qp *qp, u32 key, bool remote)
{
	struct rxe_key *k = rxe_key_get(qp->rxe, key);
	int err;

	if (!k) {
		rxe_dbg_qp(qp, "no key %#x to invalidate\n", key);
		return -EINVAL;
	}
	if (k->kind == RXE_KEY_MR)
		err = rxe_mr_invalidate(rxe_key_mr(k), qp, key, remote);
	else
		err = rxe_mw_invalidate(rxe_key_mw(k), qp, key);
	rxe_key_put(k);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_key_invalidate);

/**
 * rxe_rkey_get() - the MR an incoming RDMA or atomic request may use
 * @qp: the responder's QP
 * @rkey: the request's rkey: an MR's or an MW's
 * @va: first address
 * @len: bytes
 * @access: IB_ACCESS_REMOTE_READ, _WRITE or _ATOMIC
 *
 * Context: any context.
 * Return: the MR (through an MW: the MR it is bound to) with a reference
 * (rxe_mr_put()), or ERR_PTR(-EACCES) when the key is unknown, invalid,
 * of another PD or QP, lacks @access or does not cover the range.
 */
struct rxe_mr *rxe_rkey_get(struct rxe_qp *qp, u32 rkey, u64 va, u32 len,
			    int access)
{
	struct rxe_key *k = rxe_key_get(qp->rxe, rkey);
	struct rxe_mr *mr;

	if (!k)
		goto err;
	if (k->kind == RXE_KEY_MW) {
		mr = rxe_mw_resolve(rxe_key_mw(k), qp, rkey, va, len, access);
		rxe_key_put(k);
		if (!mr)
			goto err;
		return mr;
	}
	mr = rxe_key_mr(k);
	if (rxe_mr_check(mr, rxe_qp_pd(qp), rkey, va, len, access))
		return mr;
	rxe_key_put(k);
err:
	rxe_dbg_qp(qp, "rkey %#x refused for %u bytes at %#llx\n", rkey, len,
		   va);
	return ERR_PTR(-EACCES);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_rkey_get);

/**
 * rxe_mr_put() - drop a reference from rxe_rkey_get()
 * @mr: the MR
 *
 * Context: any context.
 */
void rxe_mr_put(struct rxe_mr *mr)
{
	rxe_key_put(&mr->key);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_put);

/* ---- Copies and atomics ------------------------------------------------- */

/*
 * Kernel address of @iova in a page-list MR and the bytes that follow it
 * in the same page (in *@room); NULL past the list.
 */
static void *rxe_mr_page_addr(const struct rxe_mr *mr, u64 iova, u32 *room)
{
	u64 off = iova - mr->iova + mr->page_offset;
	u64 idx = off >> mr->page_shift;
	u64 in = off & ((1ull << mr->page_shift) - 1);

	if (idx >= mr->npages || idx >= mr->max_pages)
		return NULL;
	*room = (1u << mr->page_shift) - in;
	return (void *)(uintptr_t)(mr->pages[idx] + in);
}

/*
 * The pinned page of a user MR holding @iova, and @iova's offset in it
 * (in *@in); NULL past the pages.
 */
static struct page *rxe_mr_user_page(const struct rxe_mr *mr, u64 iova,
				     u32 *in)
{
	u64 off = iova - mr->iova + mr->page_offset;
	u64 idx = off >> PAGE_SHIFT;

	if (idx >= mr->npages)
		return NULL;
	*in = off & ~PAGE_MASK;
	return mr->upages[idx];
}

static void rxe_copy(void *mem, void *buf, u32 len, enum rxe_copy_dir dir)
{
	if (dir == RXE_TO_MEM)
		memcpy(mem, buf, len);
	else
		memcpy(buf, mem, len);
}

/* Copy through a user MR: each page mapped only while it is copied. */
static int rxe_mr_user_copy(struct rxe_mr *mr, u64 iova, void *buf, u32 len,
			    enum rxe_copy_dir dir)
{
	struct page *page;
	void *va;
	u32 in;
	u32 n;

	while (len) {
		page = rxe_mr_user_page(mr, iova, &in);
		if (!page)
			return -EINVAL;
		n = min_t(u32, len, PAGE_SIZE - in);
		va = kmap_local_page(page);
		rxe_copy(va + in, buf, n, dir);
		kunmap_local(va);
		iova += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/**
 * rxe_mr_copy() - copy between a buffer and an MR's memory
 * @mr: a DMA, page-list or user MR
 * @iova: first address in the MR
 * @buf: the kernel buffer
 * @len: bytes
 * @dir: RXE_TO_MEM or RXE_FROM_MEM
 *
 * Access rights are the caller's business (rxe_rkey_get(), rxe_sgl_copy()).
 *
 * Context: any context.
 * Return: 0, or -EINVAL when the range is not inside the MR.
 */
int rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u32 len,
		enum rxe_copy_dir dir)
{
	void *mem;
	u32 room;
	u32 n;

	if (!rxe_mr_covers(mr, iova, len))
		return -EINVAL;
	if (mr->kind == RXE_MR_DMA) {
		rxe_copy((void *)(uintptr_t)iova, buf, len, dir);
		return 0;
	}
	if (mr->kind == RXE_MR_USER)
		return rxe_mr_user_copy(mr, iova, buf, len, dir);
	while (len) {
		mem = rxe_mr_page_addr(mr, iova, &room);
		if (!mem)
			return -EINVAL;
		n = min(len, room);
		rxe_copy(mem, buf, n, dir);
		iova += n;
		buf += n;
		len -= n;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_copy);

/**
 * rxe_mr_atomic() - an atomic operation on 8 bytes of an MR
 * @mr: the MR (from rxe_rkey_get() with IB_ACCESS_REMOTE_ATOMIC)
 * @iova: address of the operand, 8-byte aligned
 * @cmp_swap: compare-and-swap (else fetch-and-add)
 * @swap_add: the value stored (compare-and-swap) or added
 * @comp: compare-and-swap: store only when memory holds this
 * @orig: the operand's value before the operation
 *
 * Atomic against other atomics on the same address by any QP of this
 * host, as the operation is one CPU atomic instruction.
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a misaligned or out-of-range address.
 */
int rxe_mr_atomic(struct rxe_mr *mr, u64 iova, bool cmp_swap, u64 swap_add,
		  u64 comp, u64 *orig)
{
	u32 room = sizeof(u64);
	struct page *page;
	void *va = NULL;
	void *mem;
	u32 in;

	if (!IS_ALIGNED(iova, sizeof(u64)) ||
	    !rxe_mr_covers(mr, iova, sizeof(u64)))
		return -EINVAL;
	if (mr->kind == RXE_MR_DMA) {
		mem = (void *)(uintptr_t)iova;
	} else if (mr->kind == RXE_MR_USER) {
		page = rxe_mr_user_page(mr, iova, &in);
		if (!page)
			return -EINVAL;
		va = kmap_local_page(page);
		mem = va + in;
		room = PAGE_SIZE - in;
	} else {
		mem = rxe_mr_page_addr(mr, iova, &room);
	}
	if (!mem || room < sizeof(u64) || !IS_ALIGNED((uintptr_t)mem, 8)) {
		if (va)
			kunmap_local(va);
		return -EINVAL;
	}

	if (cmp_swap)
		*orig = cmpxchg64((u64 *)mem, comp, swap_add);
	else
		*orig = atomic64_fetch_add(swap_add, (atomic64_t *)mem);
	if (va)
		kunmap_local(va);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_mr_atomic);

/* Copy @len bytes at @off into SGE @sge, which must stay inside it. */
static int rxe_sge_copy(struct rxe_pd *pd, const struct ib_sge *sge, u32 off,
			void *buf, u32 len, enum rxe_copy_dir dir)
{
	int access = dir == RXE_TO_MEM ? IB_ACCESS_LOCAL_WRITE : 0;
	struct rxe_dev *rxe = to_rdev(pd->ibpd.device);
	u64 iova = sge->addr + off;
	struct rxe_key *k;
	int err = -EINVAL;

	if (iova < sge->addr)
		return -EINVAL;
	k = rxe_key_get(rxe, sge->lkey);
	if (!k)
		return -EINVAL;
	if (k->kind == RXE_KEY_MR &&
	    rxe_mr_check(rxe_key_mr(k), pd, sge->lkey, iova, len, access))
		err = rxe_mr_copy(rxe_key_mr(k), iova, buf, len, dir);
	rxe_key_put(k);
	if (err)
		rxe_dbg_dev(rxe, "lkey %#x refused for %u bytes at %#llx\n",
			    sge->lkey, len, iova);
	return err;
}

/**
 * rxe_sgl_copy() - copy the next bytes of a message to or from an SGE list
 * @pd: the PD of the QP the SGEs were posted on
 * @dma: the cursor in the list; advanced by @len on success
 * @sge: the list (@dma->num_sge entries)
 * @buf: the kernel buffer (packet payload)
 * @len: bytes to copy
 * @dir: RXE_TO_MEM (receive) or RXE_FROM_MEM (send)
 *
 * Each SGE's lkey must name a valid MR of @pd that covers it, and allow
 * local writes when memory is written.
 *
 * Context: any context.
 * Return: 0; -EINVAL for a bad lkey or an SGE outside its MR (a local
 * protection error); -ENOSPC when the list is shorter than the message.
 * After an error some bytes may have been copied and the cursor is where
 * the failing SGE begins or continues.
 */
int rxe_sgl_copy(struct rxe_pd *pd, struct rxe_dma *dma,
		 const struct ib_sge *sge, void *buf, u32 len,
		 enum rxe_copy_dir dir)
{
	const struct ib_sge *s;
	u32 n;
	int err;

	if (len > dma->resid)
		return -ENOSPC;
	while (len) {
		if (dma->cur_sge >= dma->num_sge)
			return -ENOSPC;
		s = &sge[dma->cur_sge];
		if (dma->sge_offset >= s->length) {
			dma->cur_sge++;
			dma->sge_offset = 0;
			continue;
		}
		n = min(len, s->length - dma->sge_offset);
		err = rxe_sge_copy(pd, s, dma->sge_offset, buf, n, dir);
		if (err)
			return err;
		dma->sge_offset += n;
		dma->resid -= n;
		buf += n;
		len -= n;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_sgl_copy);
