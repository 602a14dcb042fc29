// SPDX-License-Identifier: GPL-2.0-only
/* Drives one frequency governor with a trace of scheduler util-hook calls,
 * without the engine: a small cpufreq driver whose callbacks return what
 * the trace says the CPUs did (times in each state, utilization, APERF/
 * MPERF/TSC derived from busy time and the frequency in force). Used by
 * `pmlab govtrace` and by the unit tests.
 *
 * The CSV (one CPU): header t_us,busy_us,iowait_us,idle_us[,util]
 * [,iowait_wakeup], then one row per hook call at t_us, with the time spent
 * busy, in iowait and idle since the previous row (they add up to the gap;
 * the first row's gap is from 0). util is the frequency-invariant
 * utilization, 0..1024; iowait_wakeup 1 gives the call the I/O-wait flag.
 * `--set freq_invariant=0` makes the driver's utilization not invariant
 * (arch_scale_freq_invariant() false): it reports util x max / cur.
 * Blank lines and lines starting with '#' are skipped. */
#ifndef PMLAB_GOVTRACE_H
#define PMLAB_GOVTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpufreq.h"

struct gov_registry;

#define GOVTRACE_MAX_US INT64_C(1000000000000) /* 11.6 days: cycle counts stay in 64 bits */
#define GOVTRACE_MAX_KHZ 10000000u             /* 10 GHz */
#define GOVTRACE_MAX_FREQS 256
#define GOVTRACE_MAX_CPUS 64

struct govtrace_row {
	int64_t t_us;                        /* time of the hook call */
	int64_t busy_us, iowait_us, idle_us; /* since this CPU's previous row */
	int util;                            /* 0..1024; -1: the trace has none */
	int uclamp_min, uclamp_max;          /* runqueue clamps: 0 and 1024 for none */
	unsigned flags;                      /* CPUFREQ_UPDATE_* */
	bool no_hook;                        /* account the time, make no hook call
						(a CPU seen by another CPU's sample) */
	int line;                            /* in the input, for messages; 0: none */
};

struct govtrace_input {
	struct govtrace_row *rows;
	size_t nrows;
	bool has_util;
};

/* Parses a whole CSV; `name` (a path or "<stdin>") prefixes messages,
 * "NAME:LINE: what (expected ...)". */
int govtrace_parse(const char *text, size_t len, const char *name, struct govtrace_input *in,
		   struct pm_diag *d);
void govtrace_input_free(struct govtrace_input *in);
/* "KHZ,KHZ,...": distinct kHz values, returned ascending (malloc'd). */
int govtrace_parse_freqs(const char *list, uint32_t **freqs, int *n, struct pm_diag *d);

struct govtrace_config {
	const char *governor;
	const char *const *sets;       /* "KEY=VALUE" writes to the governor's tunables */
	int nsets;
	const uint32_t *freqs;         /* ascending, distinct; the last is cpuinfo max */
	int nfreqs;
	uint32_t base_khz;             /* highest non-turbo entry; 0: the last one */
	int hz;                        /* 100, 250, 300 or 1000 */
	int64_t transition_latency_us; /* 0: unknown, as drivers that report none */
	int ncpus;                     /* CPUs sharing the clock */
	bool no_util;                  /* the driver reports no utilization */
	/* What the processor offers a P-state driver (cpufreq.h): HWP, the
	 * kHz per performance unit, CPPC's lowest nonlinear frequency. */
	bool hwp;
	uint32_t perf_scaling_khz, lowest_nonlinear_khz;
	uint32_t epp_balance_perf; /* intel_pstate's balance_performance EPP; 0: 128 */
	const struct gov_registry *registry; /* plugins' governors; may be NULL */
};

struct govtrace_change {
	int64_t t_us;
	uint32_t khz;
};

struct govtrace;

/* Checks the configuration, the governor's name and the tunable writes. */
int govtrace_check(const struct govtrace_config *cfg, struct pm_diag *d);
/* Sets up the policy (starting at cpuinfo max, as firmware hands over),
 * starts the governor and applies the limits, as cpufreq does. */
int govtrace_create(struct govtrace **out, const struct govtrace_config *cfg, struct pm_diag *d);
/* One hook call on CPU `cpu` (0..ncpus-1). Calls must come in time order,
 * and each CPU's times must add up to the gap since its previous call. */
int govtrace_step(struct govtrace *g, int cpu, const struct govtrace_row *row, struct pm_diag *d);
/* The frequency changes so far; the first is the frequency after start, at 0. */
const struct govtrace_change *govtrace_changes(const struct govtrace *g, size_t *n);
struct cpufreq_policy *govtrace_policy(struct govtrace *g);
void govtrace_destroy(struct govtrace *g);

#endif
