/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core/umem/: pinned user memory (ib_umem) and the DMA block walks, as their
 * files and tests see each other.
 */
#ifndef RDMAOOT_CORE_UMEM_UMEM_H
#define RDMAOOT_CORE_UMEM_UMEM_H

#include <linux/types.h>

unsigned long umem_range_pages(unsigned long addr, size_t size);

#endif /* RDMAOOT_CORE_UMEM_UMEM_H */
