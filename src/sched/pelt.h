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

/* One period: 1024 "us" of 1024 ns. */
#define PELT_PERIOD_NS ((uint64_t)1024 << 10)

/* struct sched_avg, its utilization part. The kernel's period_contrib,
 * the "us" into the current period, is kept as the PELT clock at which
 * the period ends, last_update_time + ((1024 - period_contrib) << 10)
 * (pelt_period_contrib()): an update inside the period then tests that
 * end without the count, and moves last_update_time alone. The end lies
 * a whole number of "us" after last_update_time, at most a period (every
 * step moves the two by whole "us" and periods, or together).
 *
 * The end is kept signed, and the PELT clocks lie far below 2^62 ns:
 * while removed utilization waits on a run queue (pelt_remove()), its
 * end is kept less 2^63, below every clock, so that one test sends its
 * next update, whenever it comes, the slow way, which subtracts it first
 * (pelt_update_cfs_rq()). Set in pelt.c alone; pelt_consistent() says
 * whether it agrees with the removed utilization. */
struct pelt {
	uint64_t last_update_time; /* PELT clock, ns */
	int64_t slow_from;         /* the period's end, ns, flagged: see above */
	uint32_t util_sum;
	uint32_t util_avg;         /* 0..1024 */
};

#define PELT_REMOVED_FLAG INT64_MIN

/* The PELT clock at which the current period ends. */
static inline uint64_t pelt_period_end(const struct pelt *sa)
{
	return (uint64_t)sa->slow_from & ~(uint64_t)PELT_REMOVED_FLAG;
}

/* The kernel's sa->period_contrib: "us" into the current period, < 1024. */
static inline uint32_t pelt_period_contrib(const struct pelt *sa)
{
	return (uint32_t)((sa->last_update_time + PELT_PERIOD_NS - pelt_period_end(sa)) >> 10);
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

/* pelt_update() and pelt_update_cfs_rq() at or past the period's end, or
 * with removed utilization waiting, and for the clock going back: out of
 * line. */
bool pelt_update_slow(struct pelt *sa, uint64_t now, bool load, bool running);
bool pelt_update_cfs_rq_slow(struct pelt *cfs, struct pelt_removed *removed, uint64_t now,
			     bool load, bool running);

/* An update before slow_from: inside the current period, nothing removed
 * waiting. It only adds to the sum (accumulate_sum() with no period). */
static inline bool pelt_update_within(struct pelt *sa, uint64_t now, bool load, bool running)
{
	/* One signed test for both rare cases: the clock went back, or less
	 * than a "us" (1024 ns, a shift away) passed, as when a switch
	 * updates the run queue for the task put back and for the one
	 * picked; that changes nothing. */
	int64_t delta = (int64_t)(now - sa->last_update_time);
	if (delta < 1024) {
		if (delta < 0)
			return pelt_update_slow(sa, now, load, running);
		return false;
	}
	/* The whole "us" passed, in ns, are (delta >> 10) << 10, which is also
	 * what running adds to the sum ((delta >> 10) << PELT_SHIFT). */
	uint64_t step = (uint64_t)delta & ~(uint64_t)1023;
	sa->last_update_time += step;
	if (load && running)
		sa->util_sum += (uint32_t)step;
	return false;
}

/* ___update_load_sum() and ___update_load_avg() for utilization: accounts
 * [last_update_time, now) with the entity enqueued (`load`) and running
 * or not. True when a period boundary was crossed. Most updates stay
 * inside the current period (1024 "us", about a millisecond), here
 * inline: a boundary is crossed exactly when now reaches the period's
 * end (the kernel's test, period_contrib + (delta >> 10) >= 1024, in ns:
 * last_update_time lies whole "us" before the end, and delta's low ten
 * bits do not reach the next). An update under a "us" never reaches it.
 * For an entity's signal; a run queue's goes through pelt_update_cfs_rq(). */
static inline bool pelt_update(struct pelt *sa, uint64_t now, bool load, bool running)
{
	if ((int64_t)now >= sa->slow_from)
		return pelt_update_slow(sa, now, load, running);
	return pelt_update_within(sa, now, load, running);
}

/* update_cfs_rq_load_avg(): the removed utilization first, then the
 * run queue's own sums. True if either changed the signal ("decayed").
 * While removed utilization waits slow_from lies below every clock: the
 * inline path is taken only with none. */
static inline bool pelt_update_cfs_rq(struct pelt *cfs, struct pelt_removed *removed,
				      uint64_t now, bool load, bool running)
{
	if ((int64_t)now >= cfs->slow_from)
		return pelt_update_cfs_rq_slow(cfs, removed, now, load, running);
	return pelt_update_within(cfs, now, load, running);
}

/* slow_from flagged exactly while removed utilization waits (a run
 * queue's removed->nr; never for an entity), and the period's end a
 * whole number of "us" after last_update_time, at most a period: sim's
 * --check and the PELT unit tests ask. */
static inline bool pelt_consistent(const struct pelt *sa, bool removed_waits)
{
	uint64_t to_end = pelt_period_end(sa) - sa->last_update_time;
	return (sa->slow_from < 0) == removed_waits && to_end >= 1024 &&
	       to_end <= PELT_PERIOD_NS && (to_end & 1023) == 0;
}

/* attach_entity_load_avg(): the entity takes the run queue's clock and
 * position in the period, and its utilization joins the run queue's. */
void pelt_attach(struct pelt *cfs, struct pelt *se);
/* detach_entity_load_avg(): its utilization leaves the run queue now. */
void pelt_detach(struct pelt *cfs, const struct pelt *se);
/* remove_entity_load_avg()'s second half: leaves the run queue `cfs` at
 * its next update. */
void pelt_remove(struct pelt *cfs, struct pelt_removed *removed, const struct pelt *se);
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
