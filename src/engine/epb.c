// SPDX-License-Identifier: GPL-2.0-only
/* The energy/performance bias (IA32_ENERGY_PERF_BIAS, --set
 * energy_perf_bias, 0 performance .. 15 energy; tuned writes it with
 * x86_energy_perf_policy whatever the cpufreq driver) acting on the
 * hardware, as x86_energy_perf_policy(8) (Len Brown, Intel) describes it:
 * "how aggressively or conservatively to control frequency in the turbo
 * range" and "how aggressively it should enter the OS requested
 * C-states". The machine's [energy_bias] gives the size of each effect;
 * Intel does not publish the PCU's thresholds, so the presets' figures are
 * ESTIMATES, never fitted to a row that differs in EPB.
 *   - C-states: with the BIOS's auto-demotion on (cpu.c), a deep request
 *     is granted once the previous idle period reached demotion_factor x
 *     the state's target residency: 1 at EPB 15, demotion_x at EPB 0,
 *     linear between.
 *   - Turbo: a request into the turbo range takes effect turbo_delay x
 *     EPB / 15 later (freq.c), the base P-state meanwhile.
 *   - The uncore clock (uncore.c): at the top clock for EPB at or below
 *     the machine's epb_max_clock. */
#include "hwmodel.h"
#include "sim_internal.h"

double epb_demotion_x(const struct machine *m, int epb)
{
	double x = m->epb.demotion_x;
	if (x <= 1.0)
		return 1.0;
	return 1.0 + (x - 1.0) * (double)(15 - epb) / 15.0;
}

sim_ns epb_turbo_delay(const struct machine *m, int epb)
{
	return m->epb.turbo_delay_ns * epb / 15;
}

double epb_demotion_factor(const struct sim *s)
{
	return epb_demotion_x(s->m, (int)s->par.energy_perf_bias);
}

sim_ns epb_turbo_delay_ns(const struct sim *s)
{
	return epb_turbo_delay(s->m, (int)s->par.energy_perf_bias);
}
