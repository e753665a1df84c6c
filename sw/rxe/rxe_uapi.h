/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_uapi.h - the user ABI of rdma_rxe (the target kernel's
 * <uapi/rdma/rdma_user_rxe.h>), included once for the whole driver.
 *
 * That header names its user-visible formats rxe_av, rxe_send_wqe and
 * rxe_recv_wqe, which are also the names of our kernel-side structs. Its
 * three are renamed rxe_user_* here as it is included: the layouts stay
 * the header's own, never copied.
 */
#ifndef RXE_UAPI_H
#define RXE_UAPI_H

#define rxe_av		rxe_user_av
#define rxe_send_wqe	rxe_user_send_wqe
#define rxe_recv_wqe	rxe_user_recv_wqe
#include <uapi/rdma/rdma_user_rxe.h>
#undef rxe_recv_wqe
#undef rxe_send_wqe
#undef rxe_av

#endif /* RXE_UAPI_H */
