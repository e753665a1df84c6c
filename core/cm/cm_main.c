// SPDX-License-Identifier: GPL-2.0-only
/* ib_cm: the InfiniBand connection manager (IBA chapter 12), as RDMA CM and ULPs use it over IB and RoCE. */

#include <linux/module.h>

/*
 * Under construction: this module holds the message layer (cm_msg.c) so
 * far; the connection state machine, its timers and the 6.1 exports come
 * next (Documentation/core.rst says what exists).
 */

MODULE_DESCRIPTION("InfiniBand connection manager");
MODULE_LICENSE("GPL");
