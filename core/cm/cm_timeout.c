// SPDX-License-Identifier: GPL-2.0-only
/* IBA time values (4.096 us * 2^x) as the CM turns them into milliseconds and ACK timeouts. */

#include <kunit/visibility.h>
#include <linux/minmax.h>

#include "cm/cm.h"

/*
 * 4.096 us * 2^x is close to 2^(x - 8) ms; the CM rounds everything below
 * 2^8 * 4.096 us (about 1 ms) up to 1 ms, so a timer never fires at once.
 * x is a 5-bit field: up to 2^23 ms, some 2.3 hours.
 */
unsigned int cm_convert_to_ms(u8 iba_time)
{
	return 1U << (iba_time > 8 ? iba_time - 8 : 0);
}
EXPORT_SYMBOL_IF_KUNIT(cm_convert_to_ms);

/*
 * The local ACK timeout of a path (IBA 12.7.34): the round trip, twice
 * the packet lifetime, plus the responder's ACK delay. In powers of two
 * the sum of two terms is the larger one, plus one when the smaller one
 * is not far below it; the 5-bit field caps it at 31.
 */
u8 cm_ack_timeout(u8 ca_ack_delay, u8 packet_life_time)
{
	unsigned int round_trip = packet_life_time + 1;
	unsigned int big = max_t(unsigned int, round_trip, ca_ack_delay);
	unsigned int small = min_t(unsigned int, round_trip, ca_ack_delay);

	if (round_trip >= ca_ack_delay)
		big += small + 1 >= big;
	else
		big += small >= big - 1;
	return min(31U, big);
}
EXPORT_SYMBOL_IF_KUNIT(cm_ack_timeout);
