// SPDX-License-Identifier: GPL-2.0-only
/* PELT's arithmetic as Linux v6.19 has it (kernel/sched/pelt.c, and the
 * run queue side of kernel/sched/fair.c), restricted to utilization. */
#include "pelt.h"

/* y^n in 0.32 fixed point, n < 32, y^32 = 1/2: kernel/sched/sched-pelt.h,
 * as Documentation/scheduler/sched-pelt.c generates it ((2^32 - 1) y^n,
 * truncated). tests/unit/test_pelt.c recomputes it from the formula. */
static const uint32_t runnable_avg_yN_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

/* mul_u64_u32_shr(a, mul, 32), the kernel's generic version: exact. */
static inline uint64_t mul_shr32(uint64_t a, uint32_t mul)
{
	uint64_t lo = (uint64_t)(uint32_t)a * mul, hi = (a >> 32) * mul;
	return (lo >> 32) + hi;
}

uint64_t pelt_decay_load(uint64_t val, uint64_t n)
{
	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	uint32_t local_n = (uint32_t)n;
	/* y^n = 1/2^(n / PERIOD) * y^(n % PERIOD) */
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}
	return mul_shr32(val, runnable_avg_yN_inv[local_n]);
}

/* c1 = d1 y^p (the end of the old period), c2 = 1024 sum_{n=1}^{p-1} y^n
 * (the full periods), c3 = d3 (the start of the current one). */
static uint32_t accumulate_pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1 = (uint32_t)pelt_decay_load(d1, periods);
	uint32_t c2 = LOAD_AVG_MAX - (uint32_t)pelt_decay_load(LOAD_AVG_MAX, periods) - 1024;
	return c1 + c2 + d3;
}

/* accumulate_sum(): decay the sum over the `periods` crossed, then add
 * this stretch's contribution: `delta` "us" from `period_contrib` into
 * the old period to `new_contrib` into the new one. */
static void accumulate_sum(uint64_t delta, struct pelt *sa, uint64_t periods,
			   uint32_t period_contrib, uint32_t new_contrib, bool load, bool running)
{
	uint32_t contrib = (uint32_t)delta; /* no period crossed: delta < 1024 */
	if (periods) {
		sa->util_sum = (uint32_t)pelt_decay_load(sa->util_sum, periods);
		if (load)
			contrib = accumulate_pelt_segments(periods, 1024 - period_contrib, new_contrib);
	}
	if (running)
		sa->util_sum += contrib << PELT_SHIFT;
}

void pelt_init(struct pelt *sa, uint64_t now)
{
	sa->last_update_time = now;
	sa->slow_from = (int64_t)(now + PELT_PERIOD_NS); /* period_contrib 0 */
	sa->util_sum = 0;
	sa->util_avg = 0;
}

static inline uint32_t divider(const struct pelt *sa)
{
	return PELT_MIN_DIVIDER + pelt_period_contrib(sa); /* get_pelt_divider() */
}

/* A period boundary crossed: now at or past `end`, the current period's.
 * The kernel's delta + period_contrib, the "us" from the period's start
 * to now, is 1024 + `past`, the "us" from its end (end lies whole "us"
 * after last_update_time), so the periods crossed and the new
 * period_contrib are those of `past`. */
static bool update_periods(struct pelt *sa, uint64_t now, uint64_t end, bool load, bool running)
{
	uint64_t lut = sa->last_update_time;
	uint64_t delta = (now - lut) >> 10;
	uint32_t period_contrib = (uint32_t)((lut + PELT_PERIOD_NS - end) >> 10);
	uint64_t past = (now - end) >> 10;
	uint64_t periods = past / 1024 + 1;
	uint32_t new_contrib = (uint32_t)(past % 1024);
	sa->last_update_time = lut + (delta << 10);
	sa->slow_from = (int64_t)(end + periods * PELT_PERIOD_NS);
	if (!load)
		running = false;
	accumulate_sum(delta, sa, periods, period_contrib, new_contrib, load, running);
	/* The average moves only at period boundaries (___update_load_avg()):
	 * get_pelt_divider(). */
	sa->util_avg = sa->util_sum / (PELT_MIN_DIVIDER + new_contrib);
	return true;
}

static inline uint32_t sub_positive(uint32_t v, uint32_t d)
{
	return v > d ? v - d : 0;
}

/* util_sum may not fall below what util_avg implies at the smallest
 * divider (rounding of removed and detached sums, fair.c). */
static inline void util_sum_floor(struct pelt *sa)
{
	uint32_t floor = sa->util_avg * PELT_MIN_DIVIDER;
	if (sa->util_sum < floor)
		sa->util_sum = floor;
}

/* Every update that pelt_update_within() does not take: the clock gone
 * back, a period boundary crossed, or (from pelt_update_cfs_rq_slow())
 * anything after the removed utilization left. It leaves slow_from at the
 * period's end. */
bool pelt_update_slow(struct pelt *sa, uint64_t now, bool load, bool running)
{
	uint64_t end = pelt_period_end(sa);
	if (now >= end) /* then also a "us" or more since last_update_time */
		return update_periods(sa, now, end, load, running);
	uint64_t delta = now - sa->last_update_time;
	if ((int64_t)delta < 0) {
		/* The clock went back: the kernel's period_contrib stays. */
		end -= sa->last_update_time - now;
		sa->last_update_time = now;
	} else if (delta >= 1024) {
		uint64_t step = delta & ~(uint64_t)1023;
		sa->last_update_time += step;
		if (load && running)
			sa->util_sum += (uint32_t)step;
	}
	sa->slow_from = (int64_t)end;
	return false;
}

bool pelt_update_cfs_rq_slow(struct pelt *cfs, struct pelt_removed *removed, uint64_t now,
			     bool load, bool running)
{
	bool decayed = false;
	if (removed->nr) {
		uint32_t r = removed->util_avg;
		cfs->util_avg = sub_positive(cfs->util_avg, r);
		cfs->util_sum = sub_positive(cfs->util_sum, r * divider(cfs));
		util_sum_floor(cfs);
		removed->util_avg = 0;
		removed->nr = 0;
		decayed = true;
	}
	return pelt_update_slow(cfs, now, load, running) || decayed;
}

void pelt_attach(struct pelt *cfs, struct pelt *se)
{
	uint32_t div = divider(cfs);
	se->last_update_time = cfs->last_update_time;
	se->slow_from = (int64_t)pelt_period_end(cfs); /* its period_contrib */
	se->util_sum = se->util_avg * div;
	cfs->util_avg += se->util_avg;
	cfs->util_sum += se->util_sum;
}

void pelt_detach(struct pelt *cfs, const struct pelt *se)
{
	cfs->util_avg = sub_positive(cfs->util_avg, se->util_avg);
	cfs->util_sum = sub_positive(cfs->util_sum, se->util_sum);
	util_sum_floor(cfs);
}

void pelt_remove(struct pelt *cfs, struct pelt_removed *removed, const struct pelt *se)
{
	removed->nr++;
	removed->util_avg += se->util_avg;
	cfs->slow_from |= PELT_REMOVED_FLAG; /* its next update subtracts it */
}
