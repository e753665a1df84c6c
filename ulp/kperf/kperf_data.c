// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: the data patterns written and checked by mode=ping. */

#include <linux/string.h>
#include <linux/compiler.h>
#include "kperf.h"

/* Byte @i of the pattern of (@round, @salt): changes with each of them. */
static inline u8 kperf_data_byte(size_t i, u32 round, u32 salt)
{
	return (u8)(i * 167 + (i >> 9) + round * 13 + salt * 101 + 1);
}

/**
 * kperf_data_fill() - write a round's pattern into a buffer
 * @buf: the buffer
 * @len: bytes to write
 * @round: the round; every round's pattern differs
 * @salt: tells apart the patterns of a round (source, poison, ...)
 */
void kperf_data_fill(void *buf, size_t len, u32 round, u32 salt)
{
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = kperf_data_byte(i, round, salt);
}

/**
 * kperf_data_check() - verify a buffer against a round's pattern
 * @run: the command; a mismatch is recorded as its failure
 * @buf: the buffer
 * @len: bytes to check
 * @round: the round the data belongs to
 * @salt: the pattern's salt, as given to kperf_data_fill()
 * @what: names the buffer in the failure reason
 *
 * Return: 0, or -EBADMSG naming the first differing byte.
 */
int kperf_data_check(struct kperf_run *run, const void *buf, size_t len,
		     u32 round, u32 salt, const char *what)
{
	const u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		u8 want = kperf_data_byte(i, round, salt);

		if (p[i] != want)
			return kperf_run_fail(run, -EBADMSG,
					      "round %u: %s byte %zu is %#x, expected %#x",
					      round, what, i, p[i], want);
	}
	return 0;
}

/**
 * kperf_data_match() - does a buffer hold a round's pattern? (no failure
 * is recorded; for waiting on data nothing acknowledges)
 * @buf: the buffer
 * @len: bytes to compare
 * @round: the round
 * @salt: the pattern's salt
 *
 * Return: true when every byte matches.
 */
bool kperf_data_match(const void *buf, size_t len, u32 round, u32 salt)
{
	const u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (READ_ONCE(p[i]) != kperf_data_byte(i, round, salt))
			return false;
	return true;
}

/**
 * kperf_data_word() - a 64-bit value of a round, for the atomics
 * @round: the round
 * @salt: tells apart the values of a round
 *
 * Return: the value.
 */
u64 kperf_data_word(u32 round, u32 salt)
{
	return 0x0102030405060708ULL * (round + 1) + ((u64)salt << 40) + salt;
}
