/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_resp.h - the responder's per-QP state. (Placeholder: rxe_resp.c's
 * owner fills it in.)
 */
#ifndef RXE_RESP_H
#define RXE_RESP_H

#include <linux/types.h>

/**
 * struct rxe_resp_state - what the responder remembers between packets
 * @psn: next PSN expected
 * @msn: messages completed (sent back in every AETH)
 */
struct rxe_resp_state {
	u32 psn;
	u32 msn;
};

#endif /* RXE_RESP_H */
