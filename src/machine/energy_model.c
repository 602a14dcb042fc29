// SPDX-License-Identifier: GPL-2.0-only
/* The Energy Model of a machine, as Linux v6.9+ builds it
 * (kernel/power/energy_model.c): em_create_perf_table() takes each
 * operating point's frequency and power from the driver,
 * em_init_performance() gives it the performance max_cap x f / fmax
 * (max_cap = arch_scale_cpu_capacity()), and em_compute_costs() its cost,
 * power x 10 / performance, marking a state inefficient when it costs no
 * less than a faster one. The power is what drivers/opp/of.c's
 * _get_power() estimates from a device tree's dynamic-power-coefficient
 * (uW/MHz/V^2): coefficient x mV^2 x MHz / 10^6 uW, in integers. */
#include "energy_model.h"

#include <math.h>
#include <stdlib.h>

unsigned long em_dynamic_power_coefficient(const struct cpu_type *t)
{
	/* P = ceff_nf 1e-9 x V^2 x f_Hz W = ceff_nf x 1000 uW per MHz per V^2. */
	double c = t->ceff_nf * 1000.0;
	return c > 0 && c < 1e15 ? (unsigned long)llround(c) : 0;
}

void em_build_table(const struct cpu_type *t, struct em_table *out)
{
	unsigned long dpc = em_dynamic_power_coefficient(t);
	int n = t->npstates < MACHINE_MAX_PSTATES ? t->npstates : MACHINE_MAX_PSTATES;

	out->dynamic_power_coefficient = dpc;
	out->nr_perf_states = n;
	if (n < 1)
		return;
	uint64_t fmax = t->pstates[n - 1].khz, max_cap = t->capacity;
	for (int i = 0; i < n; i++) {
		struct em_perf_state *ps = &out->state[i];
		uint64_t mv = t->pstates[i].mv, mhz = t->pstates[i].khz / 1000;
		ps->frequency = t->pstates[i].khz;
		uint64_t v2f = mv * mv * mhz;
		ps->power = v2f && dpc > UINT64_MAX / v2f ? (unsigned long)-1
							: (unsigned long)(dpc * v2f / 1000000);
		ps->performance = (unsigned long)(max_cap * ps->frequency / fmax);
		ps->inefficient = false;
	}
	unsigned long prev_cost = (unsigned long)-1;
	for (int i = n - 1; i >= 0; i--) {
		struct em_perf_state *ps = &out->state[i];
		/* The kernel divides by a performance of 0 too; a type that small
		 * (capacity x f / fmax < 1) gets the highest cost instead. */
		ps->cost = ps->performance ? ps->power * 10 / ps->performance : (unsigned long)-1;
		if (ps->cost >= prev_cost)
			ps->inefficient = true;
		else
			prev_cost = ps->cost;
	}
}

/* The online CPUs of clock domain `dom`, as a cpulist ("0,12"). */
static void write_domain_cpus(FILE *f, const struct machine *m, int dom)
{
	int first = 1;
	for (int c = 0; c < m->online_cpus; c++) {
		if (machine_cpu_freq_domain(m, c) != dom)
			continue;
		int end = c;
		while (end + 1 < m->online_cpus && machine_cpu_freq_domain(m, end + 1) == dom)
			end++;
		fprintf(f, first ? "%d" : ",%d", c);
		if (end > c)
			fprintf(f, "-%d", end);
		first = 0;
		c = end;
	}
}

void em_write(FILE *f, const struct machine *m)
{
	fprintf(f, "# Energy model of %s (kernel/power/energy_model.c, v6.9+): one performance "
		"domain per\n# cpufreq policy; power is the dynamic power of the type's ceff_nf as a "
		"device tree's\n# dynamic-power-coefficient (drivers/opp/of.c), leakage left out; "
		"performance = capacity x f / fmax;\n# cost = power x 10 / performance; "
		"'inefficient': a faster state costs no more.\n", m->name);
	for (int t = 0; t < machine_ntypes(m); t++) {
		struct cpu_type ty;
		struct em_table em;
		machine_type_get(m, t, &ty);
		em_build_table(&ty, &em);
		fprintf(f, "\ncpu_type %s: capacity %u, dynamic-power-coefficient %lu uW/MHz/V^2\n",
			ty.name, ty.capacity, em.dynamic_power_coefficient);
		fprintf(f, "  perf domains (CPUs):");
		int any = 0;
		for (int dom = 0; dom < machine_freq_domains(m); dom++) {
			int c = 0;
			while (c < m->online_cpus && machine_cpu_freq_domain(m, c) != dom)
				c++;
			if (c == m->online_cpus || machine_cpu_type(m, c) != t)
				continue;
			fputs(any ? "; " : " ", f);
			write_domain_cpus(f, m, dom);
			any = 1;
		}
		fprintf(f, "%s\n  %13s %12s %12s %10s\n", any ? "" : " none online", "frequency_khz",
			"performance", "power_uw", "cost");
		for (int i = 0; i < em.nr_perf_states; i++) {
			const struct em_perf_state *ps = &em.state[i];
			fprintf(f, "  %13u %12lu %12lu %10lu%s\n", ps->frequency, ps->performance,
				ps->power, ps->cost, ps->inefficient ? "  inefficient" : "");
		}
	}
}
