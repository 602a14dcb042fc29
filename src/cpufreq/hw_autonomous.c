// SPDX-License-Identifier: GPL-2.0-only
/* The hardware's autonomous P-state loop. See hw_autonomous.h. */
#include "hw_autonomous.h"

int64_t hw_auto_setpoint_pct(int64_t epp)
{
	epp = epp < 0 ? 0 : epp > 255 ? 255 : epp;
	return 50 + epp * 45 / 255;
}

void hw_auto_start(struct hw_auto *h, struct cpufreq_policy *p, int cpu)
{
	h->eval_time = 0;
	if (p->driver->cpu_counters)
		p->driver->cpu_counters(p->driver_ctx, cpu, &h->prev);
}

uint64_t hw_auto_evaluate(struct hw_auto *h, struct cpufreq_policy *p, int cpu, sim_ns now,
			  int64_t epp)
{
	if (!p->driver->cpu_counters || now - h->eval_time < HW_AUTO_EVAL_NS)
		return 0;
	struct cpu_counters c;
	p->driver->cpu_counters(p->driver_ctx, cpu, &c);
	uint64_t aperf = c.aperf - h->prev.aperf, tsc = c.tsc - h->prev.tsc;
	h->prev = c;
	h->eval_time = now;
	if (!tsc)
		return 0;
	uint64_t avg_khz = aperf * p->base_khz / tsc;
	uint64_t want = avg_khz * 100 / (uint64_t)hw_auto_setpoint_pct(epp);
	/* A window without C0 time wants the least there is: 0 would read as
	 * "not evaluated", and the last busy window's choice would stay. */
	return want ? want : 1;
}
