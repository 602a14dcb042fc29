// SPDX-License-Identifier: GPL-2.0-only
/* Running the simulator from unit tests: a small two-core machine whose
 * numbers make results computable by hand, and one way to run a workload
 * on a machine given as INI text. */
#ifndef PMLAB_SIMTEST_H
#define PMLAB_SIMTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/sim.h"

/* Two cores, 1 or 2 GHz, C1 (1 us) and C6 (100 us); P = 1 nF * V^2 * f. */
#define SIMTEST_TWO_CORE_INI                                                                      \
	"[machine]\nname = two-core\ndescription = test machine\ntdp_w = 10\n"                    \
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n" \
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"                            \
	"[pstates]\n1000000 = 800\n2000000 = 1000\n"                                              \
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n" \
	"[cstate C6]\ndesc = power gated\nexit_latency_us = 100\ntarget_residency_us = 300\n"     \
	"power_mw = 0\n"                                                                          \
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n"

struct run {
	struct run_result r;
	struct machine m; /* r.m points here */
};

/* Runs `workload` under cpufreq `gov` and the "deepest" idle policy on the
 * machine `ini` with `cpus` online (0: all): the `defaults` settings first,
 * then `sets` (which win). `check` verifies the engine's invariants after
 * every event. Fails the test on any error. */
void simtest_run(struct run *out, const char *ini, int cpus, const char *workload, const char *gov,
		 double seconds, uint64_t seed, const char *const *defaults, int ndefaults,
		 const char *const *sets, int nsets, bool check);
/* The same under the idle governor `idle_gov`. */
void simtest_run_idle(struct run *out, const char *ini, int cpus, const char *workload,
		      const char *gov, const char *idle_gov, double seconds, uint64_t seed,
		      const char *const *defaults, int ndefaults, const char *const *sets, int nsets,
		      bool check);
/* Writes `json` (an rt-app file) to a new temporary file, `path` being a
 * mkstemp() template it fills in, and the workload naming it
 * ("rtapp:PATH") into `wl`; fails the test on any error. */
void simtest_rtapp_file(char *path, char *wl, size_t wlsize, const char *json);
/* A built-in machine's INI text; fails the test if there is none. */
const char *simtest_preset_text(const char *name);
/* The workload's extra figure `name`; fails the test if absent. */
double simtest_extra(const struct run_result *r, const char *name);

#endif
