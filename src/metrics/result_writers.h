// SPDX-License-Identifier: GPL-2.0-only
/* Private to src/metrics: the three writers behind result_write() and the
 * per-CPU and per-package figures they share, so that a percentage in the
 * table, the CSV and the JSON is computed by one function. */
#ifndef PMLAB_RESULT_WRITERS_H
#define PMLAB_RESULT_WRITERS_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

struct run_inputs;
int result_write_table(FILE *out, const struct run_result *r, const struct run_inputs *in);
int result_write_csv(FILE *out, const struct run_result *r, const struct run_inputs *in);
int result_write_json(FILE *out, const struct run_result *r, const struct run_inputs *in);

/* The machine's table sizes, 0 when the result carries no machine. */
int result_ncstates(const struct run_result *r);
int result_npkg_cstates(const struct run_result *r);

/* Figures of one CPU (index into r->cpus), defined as the run-wide ones. */
double result_cpu_avg_mhz(const struct run_result *r, int cpu);
double result_cpu_busy_pct(const struct run_result *r, int cpu);
double result_cpu_bzy_mhz(const struct run_result *r, int cpu);
double result_cpu_residency_pct(const struct run_result *r, int cpu, int state);
double result_cpu_util_pct(const struct run_result *r, int cpu, int which);
/* The P-states of the CPU's type (issue 16: a hybrid machine's types have
 * their own), 0 when the result carries no machine; one's kHz. */
int result_cpu_npstates(const struct run_result *r, int cpu);
uint32_t result_cpu_pstate_khz(const struct run_result *r, int cpu, int ps);
/* Share of the CPU's C0 time spent at P-state `ps` (its type's index). */
double result_cpu_pstate_pct(const struct run_result *r, int cpu, int ps);

/* Figures of one package (index into r->pkgs). */
double result_pkg_energy_j(const struct run_result *r, int pkg);
double result_pkg_power_w(const struct run_result *r, int pkg);
double result_pkg_all_idle_pct(const struct run_result *r, int pkg);
/* Share of the run a package power limit held the clock below the top. */
double result_pkg_power_limited_pct(const struct run_result *r, int pkg);
/* Idle (idle + iowait) share of the package's CPUs' time, %. */
double result_pkg_cpu_idle_pct(const struct run_result *r, int pkg);
double result_pkg_cstate_pct(const struct run_result *r, int pkg, int state);
/* Averages over all packages, for the one-line CSV. */
double result_all_idle_pct(const struct run_result *r);
double result_pkg_cstate_avg_pct(const struct run_result *r, int state);

/* Means over one task's activations (index into r->tasks), in us: time in
 * run events, activation length, and slack of the timed activations. */
double result_task_run_us(const struct run_result *r, int i);
double result_task_period_us(const struct run_result *r, int i);
double result_task_slack_us(const struct run_result *r, int i);


#endif
