// SPDX-License-Identifier: GPL-2.0-only
/* Per-entity load tracking as Linux v6.19 computes it (kernel/sched/pelt.c,
 * pelt.h, sched-pelt.h): in fixed point, utilization only. Time is counted
 * in units of 1024 ns ("us") and periods of 1024 of them; each period
 * decays the sum by y, y^32 = 1/2, through the kernel's table of y^n in
 * 0.32 fixed point (runnable_avg_yN_inv) and its three-segment sum
 * (__accumulate_pelt_segments()). util_sum counts running time << 10;
 * util_avg = util_sum / (LOAD_AVG_MAX - 1024 + period_contrib).
 *
 * Frequency invariance is not in the sums: since v5.1 the time given to
 * an update is the run queue's PELT clock (rq_clock_pelt()), which runs
 * slower while the CPU runs below its reference frequency; the engine
 * keeps that clock (engine/load_avg.c). The run queue side of fair.c --
 * update_cfs_rq_load_avg() with its removed utilization, attach and
 * detach -- is here too, on the same structures. */
#ifndef PMLAB_PELT_H
#define PMLAB_PELT_H

#include <stdbool.h>
#include <stdint.h>

#define PELT_SCALE 1024u /* SCHED_CAPACITY_SCALE */
#define PELT_SHIFT 10    /* SCHED_CAPACITY_SHIFT */
#define LOAD_AVG_PERIOD 32
#define LOAD_AVG_MAX 47742u
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)

/* struct sched_avg, its utilization part. The kernel's period_contrib,
 * the "us" into the current period, is kept as the PELT clock at which
 * the period began, last_update_time - (period_contrib << 10)
 * (pelt_period_contrib()): an update inside the period then tests where
 * it ends without the count, and moves last_update_time alone. */
struct pelt {
	uint64_t last_update_time; /* PELT clock, ns */
	uint64_t period_start;     /* PELT clock, ns: see above */
	uint32_t util_sum;
	uint32_t util_avg;         /* 0..1024 */
};

/* The kernel's sa->period_contrib: "us" into the current period, < 1024. */
static inline uint32_t pelt_period_contrib(const struct pelt *sa)
{
	return (uint32_t)((sa->last_update_time - sa->period_start) >> 10);
}

/* A run queue's utilization leaving it lazily (cfs_rq->removed): tasks
 * that migrated away on wakeup or died, subtracted at its next update. */
struct pelt_removed {
	uint32_t util_avg;
	uint32_t nr;
};

/* val * y^n (decay_load()). */
uint64_t pelt_decay_load(uint64_t val, uint64_t n);

/* A signal starting at `now` with nothing accumulated. */
void pelt_init(struct pelt *sa, uint64_t now);

/* pelt_update() once a period boundary is crossed: `delta` "us" from
 * last_update_time. */
bool pelt_update_periods(struct pelt *sa, uint64_t delta, bool load, bool running);

/* ___update_load_sum() and ___update_load_avg() for utilization: accounts
 * [last_update_time, now) with the entity enqueued (`load`) and running
 * or not. True when a period boundary was crossed. Most updates stay
 * inside the current period (1024 "us", about a millisecond): they only
 * add to the sum (accumulate_sum() with no period), here inline. */
static inline bool pelt_update(struct pelt *sa, uint64_t now, bool load, bool running)
{
	uint64_t delta = now - sa->last_update_time;
	if ((int64_t)delta < 0) {
		/* The clock went back: the kernel's period_contrib stays. */
		sa->period_start = now - (sa->last_update_time - sa->period_start);
		sa->last_update_time = now;
		return false;
	}
	/* 1024 ns: a "us" that is a shift away. Less than one passed (an
	 * update at the same time, as a switch makes the run queue's for the
	 * task put back and the one picked) changes nothing. */
	if (delta < 1024)
		return false;
	/* A period boundary crossed, period_contrib + (delta >> 10) >= 1024:
	 * now - period_start is (period_contrib << 10) + delta, whose low ten
	 * bits are delta's, so it reaches 1024 << 10 exactly then. */
	if (now - sa->period_start >= (uint64_t)1024 << 10)
		return pelt_update_periods(sa, delta >> 10, load, running);
	/* The whole "us" passed, in ns, are (delta >> 10) << 10, which is also
	 * what running adds to the sum ((delta >> 10) << PELT_SHIFT). */
	uint64_t step = delta & ~(uint64_t)1023;
	sa->last_update_time += step;
	if (load && running)
		sa->util_sum += (uint32_t)step;
	return false;
}

/* update_cfs_rq_load_avg(): the removed utilization first, then the
 * run queue's own sums. True if either changed the signal ("decayed"). */
bool pelt_update_cfs_rq(struct pelt *cfs, struct pelt_removed *removed, uint64_t now,
			bool load, bool running);

/* attach_entity_load_avg(): the entity takes the run queue's clock and
 * position in the period, and its utilization joins the run queue's. */
void pelt_attach(struct pelt *cfs, struct pelt *se);
/* detach_entity_load_avg(): its utilization leaves the run queue now. */
void pelt_detach(struct pelt *cfs, const struct pelt *se);
/* remove_entity_load_avg()'s second half: leaves at the next update. */
void pelt_remove(struct pelt_removed *removed, const struct pelt *se);
/* load_avg_is_decayed(), for the utilization tracked. */
static inline bool pelt_decayed(const struct pelt *sa)
{
	return sa->util_sum == 0;
}

/* util_est: EWMA of the task's util_avg sampled at dequeue, weight 1/4. */
static inline uint32_t util_est_ewma(uint32_t ewma, uint32_t util)
{
	int64_t diff = (int64_t)util - (int64_t)ewma;
	return (uint32_t)((int64_t)ewma + diff / 4);
}

#endif
