/* SPDX-License-Identifier: GPL-2.0-only */
/* T10-DIF signature offload: domain layouts for integrity MRs and the errors they report. */
#ifndef RDMAOOT_RDMA_SIGNATURE_H
#define RDMAOOT_RDMA_SIGNATURE_H

#include <linux/types.h>

/* ---- Device capabilities (ib_device_attr.sig_prot_cap / sig_guard_cap) -- */

/* T10-DIF protection types a device can generate and check. */
enum ib_signature_prot_cap {
	IB_PROT_T10DIF_TYPE_1	= 1 << 0,
	IB_PROT_T10DIF_TYPE_2	= 1 << 1,
	IB_PROT_T10DIF_TYPE_3	= 1 << 2,
};

/* Guard algorithms a device can compute. */
enum ib_signature_guard_cap {
	IB_GUARD_T10DIF_CRC	= 1 << 0,
	IB_GUARD_T10DIF_CSUM	= 1 << 1,
};

/* ---- Domain descriptions ------------------------------------------------- */

/* What protects the data in one domain (memory or wire): nothing, or T10-DIF. */
enum ib_signature_type {
	IB_SIG_TYPE_NONE	= 0,
	IB_SIG_TYPE_T10_DIF	= 1,
};

/* Block guard flavour: the T10 CRC16, or the IP checksum some HBAs use. */
enum ib_t10_dif_bg_type {
	IB_T10DIF_CRC	= 0,
	IB_T10DIF_CSUM	= 1,
};

/*
 * T10-DIF layout of one domain. @pi_interval is the data block size each
 * 8-byte tuple protects, @bg the guard seed; @ref_remap makes the reference
 * tag count up per block; the two escape flags skip checking blocks whose
 * application tag (or reference tag) is all ones.
 */
struct ib_t10_dif_domain {
	enum ib_t10_dif_bg_type	bg_type;
	u16			pi_interval;
	u16			bg;
	u16			app_tag;
	u32			ref_tag;
	bool			ref_remap;
	bool			app_escape;
	bool			ref_escape;
	u16			apptag_check_mask;
};

/* One side of a signature MR: its protection type and the type's parameters. */
struct ib_sig_domain {
	enum ib_signature_type	sig_type;
	union {
		struct ib_t10_dif_domain dif;
	} sig;
};

/*
 * Parameters of a signature handover: how the data is protected in memory
 * and on the wire, and which bytes of the 8-byte tuple to verify
 * (@check_mask, built from IB_SIG_CHECK_*).
 */
struct ib_sig_attrs {
	u8			check_mask;
	struct ib_sig_domain	mem;
	struct ib_sig_domain	wire;
	int			meta_length;
};

/* ---- Checks and errors --------------------------------------------------- */

/*
 * Bits of ib_sig_attrs.check_mask, one per byte of the T10 tuple:
 * guard (2 bytes), application tag (2 bytes), reference tag (4 bytes).
 */
enum {
	IB_SIG_CHECK_GUARD	= 0xc0,
	IB_SIG_CHECK_APPTAG	= 0x30,
	IB_SIG_CHECK_REFTAG	= 0x0f,
};

/* Which part of the tuple failed verification. */
enum ib_sig_err_type {
	IB_SIG_BAD_GUARD	= 0,
	IB_SIG_BAD_REFTAG	= 1,
	IB_SIG_BAD_APPTAG	= 2,
};

/* A signature failure as reported by ib_check_mr_status(). */
struct ib_sig_err {
	enum ib_sig_err_type	err_type;
	u32			expected;
	u32			actual;
	u64			sig_err_offset;
	u32			key;
};

#endif /* RDMAOOT_RDMA_SIGNATURE_H */
