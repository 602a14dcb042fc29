// SPDX-License-Identifier: GPL-2.0-only
/* Per-entity load tracking (kernel/sched/pelt.c): a utilization signal
 * that counts running time in 1024 us periods (1 "us" = 1024 ns, as the
 * kernel shifts ns by 10), each period decaying by y with y^32 = 1/2.
 * Contributions are scaled by frequency (current/max) and capacity, so the
 * signal is frequency- and capacity-invariant, 0..1024. */
#ifndef PMLAB_PELT_H
#define PMLAB_PELT_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/simtime.h"

#define PELT_SCALE 1024u /* SCHED_CAPACITY_SCALE */

struct pelt {
	double util_sum;         /* decayed sum of scaled running time */
	uint32_t util_avg;       /* 0..1024 */
	uint32_t period_contrib; /* "us" into the current period */
	sim_ns last;             /* last update, a multiple of 1024 ns */
};

void pelt_init(struct pelt *p, sim_ns now);
/* Accounts [last, now) as running (or not) at `scale`/1024 of full speed.
 * Returns true when at least one period boundary was crossed ("decayed"). */
bool pelt_update(struct pelt *p, sim_ns now, bool running, uint32_t scale);
/* Sets the signal to `util` as if it had run so (post_init_entity_util_avg()
 * gives a new task a utilization before it has run). */
void pelt_set_util(struct pelt *p, uint32_t util);
/* Moves a task's signal into or out of a CPU's (attach/detach_entity_load_avg). */
void pelt_attach(struct pelt *cpu, const struct pelt *task);
void pelt_detach(struct pelt *cpu, const struct pelt *task);

/* util_est: EWMA of the task's util_avg sampled at dequeue, weight 1/4. */
static inline uint32_t util_est_ewma(uint32_t ewma, uint32_t util)
{
	int64_t diff = (int64_t)util - (int64_t)ewma;
	return (uint32_t)((int64_t)ewma + diff / 4);
}

#endif
