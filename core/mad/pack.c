// SPDX-License-Identifier: GPL-2.0-only
/*
 * ib_pack() and ib_unpack(): C structures to and from big-endian wire images,
 * by a table of fields.
 */

#include <asm/unaligned.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <rdma/ib_pack.h>

/*
 * A field is a run of bits in the wire image, counted from the most
 * significant bit of its first byte (network order). Runs of up to 64
 * bits are moved as numbers, a byte at a time from their least
 * significant end; longer ones must start and end on byte boundaries and
 * are copied as they are. On the structure side a numeric member is
 * itself big-endian (u8, __be16, __be32 or __be64, by its size).
 */

static u64 pack_member_load(const void *structure, const struct ib_field *f)
{
	const void *p = structure + f->struct_offset_bytes;

	switch (f->struct_size_bytes) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return get_unaligned_be16(p);
	case 4:
		return get_unaligned_be32(p);
	case 8:
		return get_unaligned_be64(p);
	}
	return 0;
}

static void pack_member_store(void *structure, const struct ib_field *f,
			      u64 val)
{
	void *p = structure + f->struct_offset_bytes;

	switch (f->struct_size_bytes) {
	case 1:
		*(u8 *)p = val;
		break;
	case 2:
		put_unaligned_be16(val, p);
		break;
	case 4:
		put_unaligned_be32(val, p);
		break;
	case 8:
		put_unaligned_be64(val, p);
		break;
	}
}

static unsigned int pack_bit_pos(const struct ib_field *f)
{
	return f->offset_words * 32 + f->offset_bits;
}

/* Write the low @width bits of @val at bit @pos of @buf. */
static void pack_bits_put(u8 *buf, unsigned int pos, unsigned int width,
			  u64 val)
{
	unsigned int end = pos + width;

	while (width) {
		unsigned int byte = (end - 1) / 8;
		unsigned int shift = 7 - (end - 1) % 8;	/* of the run's last bit */
		unsigned int take = min(width, 8 - shift);
		u8 mask = ((1u << take) - 1) << shift;

		buf[byte] = (buf[byte] & ~mask) | ((val << shift) & mask);
		val >>= take;
		width -= take;
		end -= take;
	}
}

/* Read @width bits at bit @pos of @buf as a number. */
static u64 pack_bits_get(const u8 *buf, unsigned int pos, unsigned int width)
{
	unsigned int end = pos + width, done = 0;
	u64 val = 0;

	while (done < width) {
		unsigned int byte = (end - 1) / 8;
		unsigned int shift = 7 - (end - 1) % 8;
		unsigned int take = min(width - done, 8 - shift);

		val |= (u64)((buf[byte] >> shift) & ((1u << take) - 1)) << done;
		done += take;
		end -= take;
	}
	return val;
}

/* A field too long for a number must be whole bytes. */
static bool pack_bytes_ok(const struct ib_field *f)
{
	if (f->offset_bits % 8 == 0 && f->size_bits % 8 == 0)
		return true;
	pr_warn("ib_pack: field %s of %d bits at bit %d is not whole bytes\n",
		f->field_name, f->size_bits, f->offset_bits);
	return false;
}

/**
 * ib_pack() - Build a wire image from a structure
 * @desc: the fields
 * @desc_len: how many
 * @structure: the unpacked structure
 * @buf: the wire image; bits no field covers are left as they are
 *
 * A field with no structure member (struct_size_bytes 0) is written as
 * zeros: reserved bits.
 *
 * Context: any.
 */
void ib_pack(const struct ib_field *desc, int desc_len, void *structure,
	     void *buf)
{
	const struct ib_field *f;

	for (f = desc; f < desc + desc_len; f++) {
		if (f->size_bits <= 64) {
			pack_bits_put(buf, pack_bit_pos(f), f->size_bits,
				      pack_member_load(structure, f));
			continue;
		}
		if (!pack_bytes_ok(f))
			continue;
		if (f->struct_size_bytes)
			memcpy(buf + pack_bit_pos(f) / 8,
			       structure + f->struct_offset_bytes,
			       f->size_bits / 8);
		else
			memset(buf + pack_bit_pos(f) / 8, 0, f->size_bits / 8);
	}
}
EXPORT_SYMBOL(ib_pack);

/**
 * ib_unpack() - Fill a structure from a wire image
 * @desc: the fields
 * @desc_len: how many
 * @buf: the wire image
 * @structure: the structure; members no field names are left as they are
 *
 * Reserved fields (no structure member) are skipped.
 *
 * Context: any.
 */
void ib_unpack(const struct ib_field *desc, int desc_len, void *buf,
	       void *structure)
{
	const struct ib_field *f;

	for (f = desc; f < desc + desc_len; f++) {
		if (!f->struct_size_bytes)
			continue;
		if (f->size_bits <= 64) {
			pack_member_store(structure, f,
					  pack_bits_get(buf, pack_bit_pos(f),
							f->size_bits));
			continue;
		}
		if (pack_bytes_ok(f))
			memcpy(structure + f->struct_offset_bytes,
			       buf + pack_bit_pos(f) / 8, f->size_bits / 8);
	}
}
EXPORT_SYMBOL(ib_unpack);
