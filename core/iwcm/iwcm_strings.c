// SPDX-License-Identifier: GPL-2.0-only
/* Printable reasons for a refused or failed connect (iwcm_reject_msg). */

#include "iwcm/iwcm.h"

/*
 * iWARP drivers report why a connect failed as a negative errno in the
 * CONNECT_REPLY status; these are the ones 6.1 names, with its words
 * (users may match on them).
 */
static const struct {
	int		status;
	const char	*msg;
} iwcm_reasons[] = {
	{ -ECONNRESET,		"reset by remote host" },
	{ -ECONNREFUSED,	"refused by remote application" },
	{ -ETIMEDOUT,		"setup timeout" },
};

/**
 * iwcm_reject_msg() - Describe the status of a failed connect
 * @reason: the status of IW_CM_EVENT_CONNECT_REPLY (a negative errno)
 *
 * Context: any.
 * Return: a constant string; "unrecognized reason" for a status with no
 * text of its own.
 */
const char *__attribute_const__ iwcm_reject_msg(int reason)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(iwcm_reasons); i++)
		if (iwcm_reasons[i].status == reason)
			return iwcm_reasons[i].msg;
	return "unrecognized reason";
}
EXPORT_SYMBOL(iwcm_reject_msg);
