/* SPDX-License-Identifier: GPL-2.0-only */
/* rxe_home.h - the home CPU of a QP's engines (rxe_home.c). */
#ifndef RXE_HOME_H
#define RXE_HOME_H

#include <linux/atomic.h>
#include <linux/cpumask.h>

struct rxe_dev;

int rxe_home_pick(const atomic_t *load, const struct cpumask *cpus);
int rxe_home_get(struct rxe_dev *rxe);
void rxe_home_put(struct rxe_dev *rxe, int cpu);
int rxe_home_init(struct rxe_dev *rxe);
void rxe_home_exit(struct rxe_dev *rxe);

#endif /* RXE_HOME_H */
