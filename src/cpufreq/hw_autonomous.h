// SPDX-License-Identifier: GPL-2.0-only
/* The processor's own P-state loop, shared by the drivers that hand the
 * choice to the hardware: intel_pstate with HWP (the hardware picks within
 * HWP_REQUEST's min and max, steered by EPP), amd-pstate's active mode
 * (amd-pstate-epp: CPPC with desired perf 0, steered by EPP) and its
 * guided mode (the hardware picks at or above the governor's request).
 *
 * Neither Intel nor AMD publishes the algorithm. pmlab's model of it, a
 * model and no more: at the first call at least HW_AUTO_EVAL_NS after the
 * previous evaluation, the hardware measures the CPU's average frequency
 * over wall time in that window (APERF x base / TSC, what turbostat calls
 * Avg_MHz) and asks for the frequency that would leave the CPU busy a
 * setpoint share of the time, setpoint = 50 % + 45 % x EPP / 255: EPP 0
 * (performance) keeps 2x headroom, 128 (balance_performance) about 1.4x,
 * 255 (power) about 1.05x. A higher EPP therefore never picks a higher
 * frequency for the same load. The caller bounds the choice by the
 * request's min and max and runs the table entry at or above it. */
#ifndef PMLAB_HW_AUTONOMOUS_H
#define PMLAB_HW_AUTONOMOUS_H

#include <stdint.h>

#include "cpufreq.h"

#define HW_AUTO_EVAL_NS NS_PER_MS /* the loop's period (ESTIMATE: not published) */

struct hw_auto {
	sim_ns eval_time;          /* of the previous evaluation */
	struct cpu_counters prev;  /* the counters then */
};

/* The busy share, in %, the loop aims for under an EPP of 0..255. */
int64_t hw_auto_setpoint_pct(int64_t epp);
/* Primes the loop with the CPU's counters (the driver's, if it has any). */
void hw_auto_start(struct hw_auto *h, struct cpufreq_policy *p, int cpu);
/* Evaluates the loop if its period has passed: the kHz it wants for the
 * CPU (unbounded; at least 1, the lowest the caller allows, after a window
 * the CPU spent idle), or 0 when it did not evaluate or saw no time pass. */
uint64_t hw_auto_evaluate(struct hw_auto *h, struct cpufreq_policy *p, int cpu, sim_ns now,
			  int64_t epp);

#endif
