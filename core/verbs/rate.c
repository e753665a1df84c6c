// SPDX-License-Identifier: GPL-2.0-only
/* Static rate conversions: IBTA rate code <-> 2.5 Gb/s multiple <-> Mb/s. */

#include <linux/export.h>
#include <linux/kernel.h>
#include <rdma/ib_verbs.h>

/**
 * struct rate_row - one IBTA static rate
 * @rate: the rate code
 * @mult: the nominal rate (the one in the code's name) in units of 2.5 Gb/s,
 *	  one SDR lane, rounded to the nearest whole number
 * @mbps: the signalling rate on the wire in Mb/s, rounded down
 */
struct rate_row {
	enum ib_rate rate;
	int mult;
	int mbps;
};

/* Every rate code except IB_RATE_PORT_CURRENT, slowest first. */
static const struct rate_row rate_rows[] = {
	/* code			mult	mbps */
	{ IB_RATE_2_5_GBPS,	  1,	  2500 },
	{ IB_RATE_5_GBPS,	  2,	  5000 },
	{ IB_RATE_10_GBPS,	  4,	 10000 },
	{ IB_RATE_14_GBPS,	  6,	 14062 },
	{ IB_RATE_20_GBPS,	  8,	 20000 },
	{ IB_RATE_25_GBPS,	 10,	 25781 },
	{ IB_RATE_28_GBPS,	 11,	 28125 },
	{ IB_RATE_30_GBPS,	 12,	 30000 },
	{ IB_RATE_40_GBPS,	 16,	 40000 },
	{ IB_RATE_50_GBPS,	 20,	 53125 },
	{ IB_RATE_56_GBPS,	 22,	 56250 },
	{ IB_RATE_60_GBPS,	 24,	 60000 },
	{ IB_RATE_80_GBPS,	 32,	 80000 },
	{ IB_RATE_100_GBPS,	 40,	103125 },
	{ IB_RATE_112_GBPS,	 45,	112500 },
	{ IB_RATE_120_GBPS,	 48,	120000 },
	{ IB_RATE_168_GBPS,	 67,	168750 },
	{ IB_RATE_200_GBPS,	 80,	206250 },
	{ IB_RATE_300_GBPS,	120,	309375 },
	{ IB_RATE_400_GBPS,	160,	425000 },
	{ IB_RATE_600_GBPS,	240,	637500 },
};

static const struct rate_row *rate_row_by_code(enum ib_rate rate)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rate_rows); i++)
		if (rate_rows[i].rate == rate)
			return &rate_rows[i];
	return NULL;
}

static const struct rate_row *rate_row_by_mult(int mult)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rate_rows); i++)
		if (rate_rows[i].mult == mult)
			return &rate_rows[i];
	return NULL;
}

/**
 * ib_rate_to_mult() - Express a static rate code as a multiple of 2.5 Gb/s
 * @rate: rate code, e.g. from an address handle or a path record
 *
 * IB_RATE_10_GBPS gives 4, IB_RATE_5_GBPS gives 2. A nominal rate that is
 * not a multiple of 2.5 Gb/s gives the nearest whole multiple:
 * IB_RATE_14_GBPS gives 6, IB_RATE_56_GBPS gives 22.
 *
 * Context: Any context.
 * Return: the multiple, or -1 if @rate is IB_RATE_PORT_CURRENT or not a
 * rate code at all.
 */
__attribute_const__ int ib_rate_to_mult(enum ib_rate rate)
{
	const struct rate_row *row = rate_row_by_code(rate);

	return row ? row->mult : -1;
}
EXPORT_SYMBOL(ib_rate_to_mult);

/**
 * ib_rate_to_mbps() - Give the signalling rate of a static rate code in Mb/s
 * @rate: rate code, e.g. from an address handle or a path record
 *
 * This is the rate on the wire, not the nominal one: for the FDR, EDR and
 * HDR based codes it includes the encoding overhead, so IB_RATE_100_GBPS
 * gives 103125. Fractions of a Mb/s are dropped.
 *
 * Context: Any context.
 * Return: the rate in Mb/s, or -1 if @rate is IB_RATE_PORT_CURRENT or not a
 * rate code at all.
 */
__attribute_const__ int ib_rate_to_mbps(enum ib_rate rate)
{
	const struct rate_row *row = rate_row_by_code(rate);

	return row ? row->mbps : -1;
}
EXPORT_SYMBOL(ib_rate_to_mbps);

/**
 * mult_to_ib_rate() - Find the static rate code for a multiple of 2.5 Gb/s
 * @mult: the rate in units of 2.5 Gb/s, as ib_rate_to_mult() returns it
 *
 * The inverse of ib_rate_to_mult(): only multiples that some rate code maps
 * to are recognised, there is no rounding to a neighbouring rate.
 *
 * Context: Any context.
 * Return: the rate code, or IB_RATE_PORT_CURRENT if no code has @mult.
 */
__attribute_const__ enum ib_rate mult_to_ib_rate(int mult)
{
	const struct rate_row *row = rate_row_by_mult(mult);

	return row ? row->rate : IB_RATE_PORT_CURRENT;
}
EXPORT_SYMBOL(mult_to_ib_rate);
