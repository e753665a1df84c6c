/* SPDX-License-Identifier: GPL-2.0-only */
/* Typed access to bit fields of big-endian IBTA wire structures (IBA_GET/IBA_SET). */
#ifndef RDMAOOT_RDMA_IBA_H
#define RDMAOOT_RDMA_IBA_H

#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/string.h>
#include <linux/bitfield.h>
#include <asm/unaligned.h>

/*
 * The IBTA specification describes message layouts as tables of
 * Byte[Bit] positions: a field starts at some byte, at some bit of that
 * byte counted from the most significant bit (bit 0), and runs for a
 * number of bits towards less significant positions, possibly across
 * byte boundaries. Everything is big-endian.
 *
 * A field is named by a macro that expands to its description, which the
 * accessors below take as their first argument:
 *
 *   scalar field:  <struct type>, <byte>, <bit>, <width in bits>
 *                  (width 1..64, and bit + width <= 64)
 *   memory field:  <struct type>, <byte>, <width in bits>, <C type>
 *                  (whole bytes: GIDs, private data, ...)
 *
 * <byte> counts from the start of the structure. The structure type is
 * checked against the pointer handed to the accessor.
 *
 *   IBA_GET(field, ptr)                value, as the smallest of u8, u16,
 *                                      u32, u64 that holds the width
 *   IBA_SET(field, ptr, value)         store; other bits are preserved
 *   IBA_GET_MEM_PTR(field, ptr)        (C type *) to the field's bytes
 *   IBA_SET_MEM(field, ptr, in, n)     copy n bytes in (no-op if !in or !n)
 *   IBA_GET_MEM(field, ptr, out, n)    copy n bytes out (same)
 *
 * IBA_SET/_MEM do not clear the part of a memory field beyond n bytes.
 */

/* ---- Bit-level engine ------------------------------------------------------- */

/* Low @width bits set; @width is 1..64. */
#define __IBA_MASK(width)	GENMASK_ULL((width) - 1, 0)

/* Bytes covered by a field that starts @bit bits into its first byte. */
static inline unsigned int __iba_span(unsigned int bit, unsigned int width)
{
	return DIV_ROUND_UP(bit + width, 8);
}

static inline u64 __iba_load(const u8 *p, unsigned int nbytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < nbytes; i++)
		v = (v << 8) | p[i];
	return v;
}

static inline void __iba_store(u8 *p, unsigned int nbytes, u64 v)
{
	unsigned int i;

	for (i = nbytes; i--; v >>= 8)
		p[i] = (u8)v;
}

static inline u64 __iba_read(const void *base, size_t byte, unsigned int bit,
			     unsigned int width)
{
	const u8 *p = (const u8 *)base + byte + bit / 8;
	unsigned int nbytes = __iba_span(bit % 8, width);
	unsigned int shift = nbytes * 8 - bit % 8 - width;

	return (__iba_load(p, nbytes) >> shift) & __IBA_MASK(width);
}

static inline void __iba_write(void *base, size_t byte, unsigned int bit,
			       unsigned int width, u64 value)
{
	u8 *p = (u8 *)base + byte + bit / 8;
	unsigned int nbytes = __iba_span(bit % 8, width);
	unsigned int shift = nbytes * 8 - bit % 8 - width;
	u64 mask = __IBA_MASK(width) << shift;
	u64 v = __iba_load(p, nbytes);

	v = (v & ~mask) | ((value << shift) & mask);
	__iba_store(p, nbytes, v);
}

/* Convert @v to the smallest unsigned type of at least @width bits. */
#define __IBA_NARROW(width, v)						\
	__builtin_choose_expr((width) <= 8, (u8)(v),			\
	__builtin_choose_expr((width) <= 16, (u16)(v),			\
	__builtin_choose_expr((width) <= 32, (u32)(v), (u64)(v))))

/* ---- Scalar fields ---------------------------------------------------------- */

#define __IBA_CHECK_SCALAR(bit, width)					\
	BUILD_BUG_ON_MSG((width) < 1 || (bit) % 8 + (width) > 64,	\
			 "IBA field wider than 64 bits")

#define __IBA_GET(stype, byte, bit, width, ptr)				\
	({								\
		const stype *__iba_p = (ptr);				\
		__IBA_CHECK_SCALAR(bit, width);				\
		__IBA_NARROW(width, __iba_read(__iba_p, byte, bit, width)); \
	})
#define IBA_GET(field, ptr) __IBA_GET(field, ptr)

/* A constant that does not fit the field is a build error, like FIELD_PREP. */
#define __IBA_SET(stype, byte, bit, width, ptr, value)			\
	({								\
		stype *__iba_p = (ptr);					\
		u64 __iba_v = (value);					\
		__IBA_CHECK_SCALAR(bit, width);				\
		BUILD_BUG_ON_MSG(__builtin_constant_p(__iba_v) &&	\
				 (__iba_v & ~__IBA_MASK(width)),	\
				 "value does not fit the IBA field");	\
		__iba_write(__iba_p, byte, bit, width, __iba_v);	\
	})
#define IBA_SET(field, ptr, value) __IBA_SET(field, ptr, value)

/* ---- Memory fields ---------------------------------------------------------- */

#define __IBA_MEM_PTR(stype, byte, width, ctype, ptr)			\
	({								\
		stype *__iba_p = (ptr);					\
		(ctype *)((u8 *)__iba_p + (byte));			\
	})
#define IBA_GET_MEM_PTR(field, ptr) __IBA_MEM_PTR(field, ptr)

#define __IBA_SET_MEM(stype, byte, width, ctype, ptr, in, bytes)	\
	({								\
		const ctype *__iba_in = (in);				\
		size_t __iba_n = (bytes);				\
		WARN_ON(__iba_n * 8 > (width));				\
		if (__iba_in && __iba_n)				\
			memcpy(__IBA_MEM_PTR(stype, byte, width, ctype, ptr), \
			       __iba_in, __iba_n);			\
	})
#define IBA_SET_MEM(field, ptr, in, bytes) __IBA_SET_MEM(field, ptr, in, bytes)

#define __IBA_GET_MEM(stype, byte, width, ctype, ptr, out, bytes)	\
	({								\
		ctype *__iba_out = (out);				\
		size_t __iba_n = (bytes);				\
		WARN_ON(__iba_n * 8 > (width));				\
		if (__iba_out && __iba_n)				\
			memcpy(__iba_out,				\
			       __IBA_MEM_PTR(stype, byte, width, ctype, ptr), \
			       __iba_n);				\
	})
#define IBA_GET_MEM(field, ptr, out, bytes) __IBA_GET_MEM(field, ptr, out, bytes)

/* ---- Describing fields ------------------------------------------------------ */

/* Field descriptions in the Byte[Bit] notation of the IBTA tables. */
#define IBA_FIELD(stype, byte, bit, width)	stype, byte, bit, width
#define IBA_MEM_FIELD(stype, byte, width, ctype) stype, byte, width, ctype

/*
 * Spellings used by 6.1-era field tables, kept so such tables work with
 * these accessors. The container-sized forms (8/16/32) all start at bit 0
 * of the given byte.
 */
#define IBA_FIELD_BLOC(stype, byte, bit, width)	IBA_FIELD(stype, byte, bit, width)
#define IBA_FIELD8_LOC(stype, byte, width)	IBA_FIELD(stype, byte, 0, width)
#define IBA_FIELD16_LOC(stype, byte, width)	IBA_FIELD(stype, byte, 0, width)
#define IBA_FIELD32_LOC(stype, byte, width)	IBA_FIELD(stype, byte, 0, width)
#define IBA_FIELD64_LOC(stype, byte)		IBA_FIELD(stype, byte, 0, 64)
#define IBA_FIELD_MLOC(stype, byte, width, ctype) \
	IBA_MEM_FIELD(stype, byte, width, ctype)

#endif /* RDMAOOT_RDMA_IBA_H */
