// SPDX-License-Identifier: GPL-2.0-only
/* Energy Aware Scheduling as Linux v6.12 has it (kernel/sched/fair.c,
 * include/linux/energy_model.h): on a wakeup while the root domain is not
 * overutilized, find_energy_efficient_cpu() picks, in each performance
 * domain, the CPU with the most spare capacity that the task fits (the
 * previous CPU always a candidate), estimates with the energy model how
 * much the domain's energy grows if the task runs there (compute_energy()
 * and em_cpu_energy(): the domain's busiest CPU sets the performance
 * state, every CPU's utilization pays that state's cost), and takes the
 * cheapest, unless the previous CPU is as cheap. Once a CPU's utilization
 * no longer fits its capacity the root domain is overutilized and the
 * ordinary capacity-aware placement and load balancing take over, until a
 * load balance at the top level finds every CPU fitting again. */
#ifndef PMLAB_FAIR_ENERGY_H
#define PMLAB_FAIR_ENERGY_H

#include <stdbool.h>

#include "sched_view.h"
#include "task.h"

/* em_cpu_energy() (v6.9+): the energy of a performance domain whose
 * busiest CPU needs `max_util` (capped at `allowed_cap`) and whose CPUs'
 * utilizations sum to `sum_util`: the lowest efficient state whose
 * performance reaches max_util, its cost times sum_util (in the model's
 * units: uW x 10 per unit of capacity). 0 when sum_util is 0. */
unsigned long em_cpu_energy(const struct em_table *em, unsigned long max_util,
			    unsigned long sum_util, unsigned long allowed_cap);

/* find_energy_efficient_cpu(): the CPU for a waking `p` whose previous
 * CPU is `prev_cpu`, woken from `this_cpu` (-1: an interrupt, taken on
 * prev_cpu), or -1 to leave the choice to the ordinary path (no
 * performance domain, no asymmetric domain of this_cpu spanning
 * prev_cpu). The previous CPU when the task has no utilization nor boost,
 * or when no CPU beats it. */
int find_energy_efficient_cpu(struct sim *s, struct task *p, int prev_cpu, int this_cpu);

/* is_rd_overutilized(): EAS is off or the root domain is overutilized. */
bool is_rd_overutilized(const struct sim *s);
/* check_update_overutilized_status(): at enqueue and at the tick, the
 * root domain becomes overutilized when `cpu` is. */
void check_update_overutilized_status(struct sim *s, int cpu);
/* update_sd_lb_stats() at the top domain: a load balance recomputes the
 * flag from every CPU (so it clears once they all fit again). */
void update_overutilized_root(struct sim *s);

#endif
