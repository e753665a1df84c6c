/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kunit/mad/: comparing a packed wire image with the expected one, naming the
 * first byte that differs.
 */
#ifndef RDMAOOT_KUNIT_MAD_EXPECT_BYTES_H
#define RDMAOOT_KUNIT_MAD_EXPECT_BYTES_H

#include <kunit/test.h>

/*
 * EXPECT_BYTES(test, got, want, len): the @len bytes at @got equal those at
 * @want; on a mismatch the message gives the first differing offset and
 * both values, which says more about a wrong bit position than memcmp().
 */
#define EXPECT_BYTES(test, got, want, len) do {				\
	const u8 *g_ = (const void *)(got), *w_ = (const void *)(want);	\
	size_t n_ = (len), i_ = 0;					\
									\
	while (i_ < n_ && g_[i_] == w_[i_])				\
		i_++;							\
	KUNIT_EXPECT_EQ_MSG(test, i_, n_,				\
			    "byte %zu is 0x%02x, expected 0x%02x", i_,	\
			    i_ < n_ ? g_[i_] : 0, i_ < n_ ? w_[i_] : 0);	\
} while (0)

#endif /* RDMAOOT_KUNIT_MAD_EXPECT_BYTES_H */
