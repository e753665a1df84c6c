/* SPDX-License-Identifier: GPL-2.0-only */
/* Settles our stack's own Kconfig options in an out-of-tree build. */
#ifndef RDMAOOT_KCONFIG_H
#define RDMAOOT_KCONFIG_H

/*
 * Out of tree, the target kernel's autoconf.h speaks for its inbox RDMA
 * options. On Debian's stock kernel they match what we build; on a kernel
 * configured without INFINIBAND (our debug guest) they are all absent, and
 * options that are not user-visible choices but facts of the platform
 * must be derived here exactly as our Kconfig would derive them in tree.
 * Each is defined only when the kernel did not define it, so the stock
 * build sees no redefinition.
 */

/* Software devices map memory by CPU address unless highmem forbids it. */
#if !defined(CONFIG_INFINIBAND_VIRT_DMA) && !defined(CONFIG_HIGHMEM)
#define CONFIG_INFINIBAND_VIRT_DMA 1
#endif

/*
 * rdma_cm's configfs tree exists wherever configfs does: out of tree we
 * are modules, so a modular configfs will do (core/Kbuild decides the
 * same from CONFIG_CONFIGFS_FS).
 */
#if !defined(CONFIG_INFINIBAND_ADDR_TRANS_CONFIGFS) && \
	(defined(CONFIG_CONFIGFS_FS) || defined(CONFIG_CONFIGFS_FS_MODULE))
#define CONFIG_INFINIBAND_ADDR_TRANS_CONFIGFS 1
#endif

#endif /* RDMAOOT_KCONFIG_H */
