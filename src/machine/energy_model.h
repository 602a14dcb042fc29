// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's Energy Model of a machine (kernel/power/energy_model.c as
 * of v6.9, include/linux/energy_model.h): one performance domain per
 * cpufreq policy, a table of performance states with frequency,
 * performance, power and cost, which Energy Aware Scheduling reads.
 *
 * The power of a state comes from the type's power coefficients the way
 * an Arm device tree's comes from its `dynamic-power-coefficient`
 * (drivers/opp/of.c, _get_power()): the dynamic power C x V^2 x f with
 * C = ceff_nf x 1000 uW/MHz/V^2, in micro-watts, leakage left out. */
#ifndef PMLAB_ENERGY_MODEL_H
#define PMLAB_ENERGY_MODEL_H

#include <stdbool.h>
#include <stdio.h>

#include "machine.h"

/* struct em_perf_state */
struct em_perf_state {
	uint32_t frequency;        /* kHz */
	unsigned long performance; /* capacity at this frequency: max_cap x f / fmax */
	unsigned long power;       /* uW */
	unsigned long cost;        /* power x 10 / performance */
	bool inefficient;          /* EM_PERF_STATE_INEFFICIENT: costs no less than a faster state */
};

/* The table of one CPU type: every performance domain of the type has it. */
struct em_table {
	unsigned long dynamic_power_coefficient; /* uW/MHz/V^2 */
	int nr_perf_states;
	struct em_perf_state state[MACHINE_MAX_PSTATES];
};

/* The type's dynamic-power-coefficient: ceff_nf x 1000, rounded. */
unsigned long em_dynamic_power_coefficient(const struct cpu_type *t);
/* em_create_perf_table(), em_init_performance() and em_compute_costs(). */
void em_build_table(const struct cpu_type *t, struct em_table *out);
/* Every performance domain of the machine's online CPUs with its table,
 * as text (what /sys/kernel/debug/energy_model shows). */
void em_write(FILE *f, const struct machine *m);

#endif
