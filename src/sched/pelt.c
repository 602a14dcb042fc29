// SPDX-License-Identifier: GPL-2.0-only
#include "pelt.h"

#include <math.h>

#define PELT_PERIOD 1024u      /* in 1024 ns units */
#define LOAD_AVG_MAX 47742.0   /* maximum possible util_sum / 1024 */

/* v * y^periods with y = 0.5^(1/32): halve per 32 periods, and take
 * y^(periods % 32) from a table (decay_load() does the same in fixed point). */
static double decay(double v, uint64_t periods)
{
	static double y_pow[32], halves[64];
	if (y_pow[0] == 0) {
		for (int i = 0; i < 32; i++)
			y_pow[i] = pow(0.5, i / 32.0);
		for (int i = 0; i < 64; i++)
			halves[i] = ldexp(1.0, -i);
	}
	if (periods >= 64 * 32)
		return 0;
	return v * y_pow[periods % 32] * halves[periods / 32];
}

void pelt_init(struct pelt *p, sim_ns now)
{
	p->util_sum = 0;
	p->util_avg = 0;
	p->period_contrib = 0;
	p->last = now & ~(sim_ns)1023;
}

/* The kernel's divider: the running time a signal would have summed had
 * it run all the time, given how far into the current period it is
 * (get_pelt_divider()). util_sum / divider is util_avg in 0..1024. */
static double divider(const struct pelt *p)
{
	return LOAD_AVG_MAX - 1024.0 + p->period_contrib;
}

static void refresh_avg(struct pelt *p)
{
	double avg = p->util_sum / divider(p);
	if (avg > PELT_SCALE)
		avg = PELT_SCALE;
	p->util_avg = (uint32_t)avg;
}

bool pelt_update(struct pelt *p, sim_ns now, bool running, uint32_t scale)
{
	uint64_t delta = (uint64_t)(now - p->last) >> 10;
	if ((int64_t)(now - p->last) <= 0 || delta == 0)
		return false;
	p->last += (sim_ns)(delta << 10);
	uint64_t total = delta + p->period_contrib;
	uint64_t periods = total / PELT_PERIOD;
	double contrib;
	if (periods) {
		p->util_sum = decay(p->util_sum, periods);
		/* Three segments (accumulate_pelt_segments()): the end of the old
		 * period, decayed; the full periods in between; the start of the
		 * new one. */
		uint64_t d1 = PELT_PERIOD - p->period_contrib;
		uint64_t d3 = total % PELT_PERIOD;
		double full = 0;
		if (periods > 1) /* sum_{n=1}^{periods-1} 1024 y^n */
			full = LOAD_AVG_MAX - decay(LOAD_AVG_MAX, periods) - 1024.0;
		contrib = decay((double)d1, periods) + full + (double)d3;
		p->period_contrib = (uint32_t)d3;
	} else {
		contrib = (double)delta;
		p->period_contrib = (uint32_t)total;
	}
	if (running)
		p->util_sum += contrib * scale;
	refresh_avg(p);
	return periods > 0;
}

void pelt_set_util(struct pelt *p, uint32_t util)
{
	p->util_sum = (double)util * divider(p);
	refresh_avg(p);
}

void pelt_attach(struct pelt *cpu, const struct pelt *task)
{
	cpu->util_sum += (double)task->util_avg * divider(cpu);
	refresh_avg(cpu);
}

void pelt_detach(struct pelt *cpu, const struct pelt *task)
{
	cpu->util_sum -= (double)task->util_avg * divider(cpu);
	if (cpu->util_sum < 0)
		cpu->util_sum = 0;
	refresh_avg(cpu);
}
