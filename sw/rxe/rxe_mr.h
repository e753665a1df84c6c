/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_mr.h - memory regions and memory windows: the key every one of them
 * is found by, and the state rxe_mr.c and rxe_mw.c share. The rest of the
 * driver goes through the functions of rxe_mem.h.
 */
#ifndef RXE_MR_H
#define RXE_MR_H

#include <linux/rcupdate.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include "rxe_mem.h"

struct rxe_dev;
struct rxe_pd;

enum rxe_key_kind {
	RXE_KEY_MR,
	RXE_KEY_MW,
};

/**
 * struct rxe_key - what rxe->key_xa holds for an MR or an MW
 * @ref:   lookup references; the key's owner holds one from creation until
 *         dereg/dealloc, which then waits for the others to go
 * @done:  completed when @ref drops to zero
 * @index: the key's index in rxe->key_xa; an lkey/rkey is (index << 8)
 *         | a variant byte that changes with each registration
 * @kind:  enum rxe_key_kind: what the key is embedded in
 * @rcu:   frees an MR after lookups that may still see it are over
 *
 * Lookups run under RCU: xa_load() then refcount_inc_not_zero(), so the
 * memory of a key stays valid for a grace period after it is erased.
 */
struct rxe_key {
	refcount_t ref;
	struct completion done;
	u32 index;
	u8 kind;
	struct rcu_head rcu;
};

#define RXE_ACCESS_REMOTE	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_ATOMIC)

static inline u32 rxe_key_index(u32 key)
{
	return key >> 8;
}

int rxe_key_add(struct rxe_dev *rxe, struct rxe_key *key,
		enum rxe_key_kind kind);
void rxe_key_publish(struct rxe_dev *rxe, struct rxe_key *key);
void rxe_key_del(struct rxe_dev *rxe, struct rxe_key *key);
struct rxe_key *rxe_key_get(struct rxe_dev *rxe, u32 key);
void rxe_key_put(struct rxe_key *key);

/* Whether an MR or a bound MW may be used through its key. */
enum rxe_mem_state {
	RXE_MEM_FREE,		/* MR not registered, MW not bound */
	RXE_MEM_VALID,
};

enum rxe_mr_kind {
	RXE_MR_DMA,		/* iova == kernel virtual address, no bounds */
	RXE_MR_PAGES,		/* fast registration: a page list */
	RXE_MR_USER,		/* user memory: pinned pages of an ib_umem */
};

/**
 * struct rxe_mr - a memory region
 * @key:       lookup key; first, the MR is allocated by the driver
 * @ibmr:      the core's MR
 * @pd:        the MR's PD (ibmr.pd is set by the core only after alloc)
 * @kind:      enum rxe_mr_kind
 * @lock:      serialises changes of @state (fast_reg, invalidate,
 *             rereg), and rereg's change of @pd and @access with binds
 *             checking them and counting a window in @num_mw (taken
 *             inside the MW's lock)
 * @state:     enum rxe_mem_state; set last (release) when an MR becomes
 *             valid, read first (acquire) by lookups
 * @mkey:      the lkey == rkey the MR is valid under (variant included)
 * @access:    IB_ACCESS_* of the current registration
 * @iova:      first address of the region
 * @length:    bytes in the region
 * @page_shift: log2 of the page list's page size
 * @page_offset: offset of @iova in the first page of the list
 * @npages:    pages in @pages
 * @max_pages: room in @pages
 * @pages:     kernel virtual address of each page (DMA addresses of a
 *             virtual-DMA device)
 * @umem:      user MRs: the pinned memory, released at dereg
 * @upages:    user MRs: the pinned pages in order (@npages of them), each
 *             mapped with kmap_local_page() while it is copied
 * @num_mw:    memory windows bound to the MR; it cannot go while there are
 */
struct rxe_mr {
	struct rxe_key key;
	struct ib_mr ibmr;
	struct rxe_pd *pd;
	u8 kind;
	spinlock_t lock;	/* @state; @pd, @access vs binds */
	u8 state;
	u32 mkey;
	int access;
	u64 iova;
	u64 length;
	u32 page_shift;
	u32 page_offset;
	u32 npages;
	u32 max_pages;
	u64 *pages;
	struct ib_umem *umem;
	struct page **upages;
	atomic_t num_mw;
};

static inline struct rxe_mr *to_rmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct rxe_mr, ibmr);
}

static inline struct rxe_mr *rxe_key_mr(struct rxe_key *key)
{
	return container_of(key, struct rxe_mr, key);
}

bool rxe_mr_check(struct rxe_mr *mr, struct rxe_pd *pd, u32 key, u64 iova,
		  u64 len, int access);
bool rxe_mr_covers(const struct rxe_mr *mr, u64 iova, u64 len);

/**
 * struct rxe_mw - a memory window
 * @ibmw:   the core's MW; first, the core allocates the MW
 * @key:    lookup key
 * @pd:     the MW's PD
 * @lock:   protects everything below (bind, invalidate, lookups)
 * @state:  enum rxe_mem_state: bound or not
 * @mkey:   the rkey the MW is bound under
 * @mr:     the MR bound to, with a reference and counted in its @num_mw
 * @qpn:    type 2: the QP the window is bound to
 * @access: IB_ACCESS_REMOTE_* granted
 * @addr:   start of the window, in the MR's address space
 * @length: bytes in the window
 */
struct rxe_mw {
	struct ib_mw ibmw;
	struct rxe_key key;
	struct rxe_pd *pd;
	spinlock_t lock;	/* the fields below */
	u8 state;
	u32 mkey;
	struct rxe_mr *mr;
	u32 qpn;
	int access;
	u64 addr;
	u64 length;
};

static inline struct rxe_mw *to_rmw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct rxe_mw, ibmw);
}

static inline struct rxe_mw *rxe_key_mw(struct rxe_key *key)
{
	return container_of(key, struct rxe_mw, key);
}

struct rxe_mr *rxe_mw_resolve(struct rxe_mw *mw, struct rxe_qp *qp, u32 rkey,
			      u64 va, u32 len, int access);
int rxe_mw_invalidate(struct rxe_mw *mw, struct rxe_qp *qp, u32 rkey);

#endif /* RXE_MR_H */
