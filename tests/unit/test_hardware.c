// SPDX-License-Identifier: GPL-2.0-only
/* Today's hardware in the engine (issue 16): CPU types of their own
 * capacity, clocks, C-states and power on a hybrid machine. Small
 * machines whose results are computable by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/sim.h"
#include "lab/runspec.h"
#include "machine/energy_model.h"
#include "metrics/result_writers.h"
#include "simtest.h"

#define FIXTURES PMLAB_SOURCE_ROOT "/tests/fixtures/machines/"

/* One little core (capacity 512, its own 1.0..2.0 GHz in 200 MHz steps)
 * declared first, so that one online CPU is the little one, and one big
 * core (the machine's 1 and 2 GHz). Both top out at 2 GHz: a little cycle
 * does half a big one's work. */
static const char *const little_big_ini =
	"[machine]\nname = little-big\ndescription = test machine\ntdp_w = 10\n"
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\nfreq_invariance = max\n"
	"[pstates]\n1000000 = 800\n2000000 = 1000\n"
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[cstate C6]\ndesc = power gated\nexit_latency_us = 100\ntarget_residency_us = 300\n"
	"power_mw = 0\n"
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n"
	"[cpu_type little]\ncores = 1\ncapacity = 512\nbase_khz = 2000000\nceff_nf = 0.25\n"
	"[pstates little]\n1000000 = 800\n1200000 = 820\n1400000 = 840\n1600000 = 860\n"
	"1800000 = 880\n2000000 = 900\n"
	"[cpu_type big]\ncores = 1\n";

static void run(struct run *out, const char *ini, int cpus, const char *workload, const char *gov,
		double seconds, const char *const *sets, int nsets)
{
	static const char *const defaults[] = { "tick_cost_ns=0", "tick_restart_cost_ns=0",
						"background_wakeups=0" };
	simtest_run(out, ini, cpus, workload, gov, seconds, 1, defaults, 3, sets, nsets, true);
}

static void near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: %.9g, expected %.9g +- %g", what, got, want, tol);
}

/* The P-state (kHz) CPU 0 spent most of its C0 time in. */
static uint32_t busiest_khz(const struct run_result *r)
{
	int best = 0;
	for (int i = 1; i < result_cpu_npstates(r, 0); i++)
		if (r->cpus[0].pstate_ns[i] > r->cpus[0].pstate_ns[best])
			best = i;
	return result_cpu_pstate_khz(r, 0, best);
}

/* Work is counted in the big type's cycles: the same job takes twice as
 * long on the little core at the same clock (C6 exit 100 us first). */
static void test_capacity_scales_work(void **state)
{
	const char *sets[] = { "tasks=2", "work_ms=100", "stall_pct=0" };
	struct run r;
	(void)state;
	run(&r, little_big_ini, 0, "batch", "performance", 10, sets, 3);
	assert_int_equal(r.r.tasks_finished, 2);
	near(hist_quantile(&r.r.latency, 0.0) * 1e-9, 0.1001, 1e-6, "the big core's job, s");
	near(simtest_extra(&r.r, "seconds"), 0.2001, 1e-6, "the little core's job, s");
	/* Each type draws its own power: the little core's ceff is a quarter
	 * and its top P-state 0.9 V: 0.25 nF x 0.81 x 2 GHz for 0.2 s, the big
	 * one 1 nF x 1 x 2 GHz for 0.1 s. */
	near(r.r.energy_core_dynamic_j, 0.25 * 0.81 * 2 * 0.2001 + 2 * 0.1001, 1e-6,
	     "dynamic energy, J");
	result_free(&r.r);
}

/* Utilization is capacity-invariant (update_rq_clock_pelt() scales time
 * by arch_scale_cpu_capacity()) and schedutil divides by the CPU's
 * capacity: a load of W MHz of little cycles per second gives util =
 * W / 2 GHz x 512 and next_f = 1.25 x 2 GHz x util / 512 = 1.25 W on the
 * little core. A job of 2 M big cycles every 4 ms is 4 M little cycles,
 * W = 1000 MHz: 1.25 GHz, the 1.4 GHz entry (util_est may hold a step
 * more). Capacity missing on either side would double or halve it. */
static void test_capacity_scaled_utilization(void **state)
{
	const char *sets[] = { "tasks=1", "period_us=4000", "run_us=1000", "jitter_pct=0",
			       "freq_invariant=1" };
	struct run r;
	(void)state;
	run(&r, little_big_ini, 1, "periodic", "schedutil", 4, sets, 5);
	uint32_t khz = busiest_khz(&r.r);
	if (khz != 1400000 && khz != 1600000)
		fail_msg("little core settled at %u kHz (expected 1400000 or 1600000)", khz);
	assert_int_equal(result_cpu_npstates(&r.r, 0), 6);
	result_free(&r.r);
}

/* The hybrid fixture runs every kind of workload with its invariants
 * checked after each event: per-type turbo counts, cluster clocks, SMT
 * only where the type has it. */
static void test_hybrid_runs(void **state)
{
	static const char *const loads[] = { "batch", "tbench", "pingpong", "oltp", "kernbench" };
	char *ini = NULL;
	FILE *f = fopen(FIXTURES "good-hybrid.ini", "rb");
	size_t cap = 0;
	(void)state;
	assert_non_null(f);
	assert_int_equal(getdelim(&ini, &cap, '\0', f) > 0, 1);
	fclose(f);
	for (size_t i = 0; i < sizeof(loads) / sizeof(loads[0]); i++) {
		struct run r;
		simtest_run_idle(&r, ini, 0, loads[i], "schedutil", "menu", 0.1, 1, NULL, 0, NULL, 0,
				 true);
		assert_int_equal(r.r.ncpus, 16);
		/* The little CPUs (2..5 and 8..11) never run above their 2 GHz. */
		for (int c = 0; c < r.r.ncpus; c++)
			for (int p = 0; p < result_cpu_npstates(&r.r, c); p++)
				if (r.r.cpus[c].pstate_ns[p] > 0 && ((c >= 2 && c <= 5) || (c >= 8 && c <= 11)))
					assert_true(result_cpu_pstate_khz(&r.r, c, p) <= 2000000);
		result_free(&r.r);
	}
	free(ini);
}

/* The Energy Model as v6.9+ computes it, by hand: the big type of the
 * fixture (ceff 2 nF: 2000 uW/MHz/V^2, capacity 1024, fmax 3 GHz) at
 * 1 GHz and 0.8 V: 2000 x 800^2 x 1000 / 10^6 = 1280000 uW, performance
 * 1024 x 1/3 = 341, cost 12800000 / 341 = 37536; the little type (0.5 nF,
 * capacity 512) at its top, 1.0 V and 2 GHz: 1000000 uW, 512, 19531. A
 * state no cheaper per unit of work than a faster one (same voltage) is
 * inefficient. */
static void test_energy_model(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };
	struct cpu_type t;
	struct em_table em;
	(void)state;
	assert_int_equal(machine_load(&m, FIXTURES "good-hybrid.ini", &d), 0);
	machine_type_get(&m, 0, &t);
	em_build_table(&t, &em);
	assert_int_equal(em.dynamic_power_coefficient, 2000);
	assert_int_equal(em.nr_perf_states, 3);
	assert_int_equal(em.state[0].frequency, 1000000);
	assert_int_equal(em.state[0].power, 1280000);
	assert_int_equal(em.state[0].performance, 341);
	assert_int_equal(em.state[0].cost, 37536);
	assert_int_equal(em.state[2].performance, 1024);
	machine_type_get(&m, 1, &t);
	em_build_table(&t, &em);
	assert_int_equal(em.state[3].power, 1000000);
	assert_int_equal(em.state[3].performance, 512);
	assert_int_equal(em.state[3].cost, 19531);
	for (int i = 0; i < em.nr_perf_states; i++)
		assert_false(em.state[i].inefficient);
	/* 1 and 2 GHz at one voltage: the slower one wastes nothing less. */
	t.npstates = 2;
	t.pstates[0] = (struct pstate){ 1000000, 1000 };
	t.pstates[1] = (struct pstate){ 2000000, 1000 };
	em_build_table(&t, &em);
	assert_true(em.state[0].inefficient);
	assert_false(em.state[1].inefficient);
	assert_int_equal(em.state[0].cost, em.state[1].cost);
}

/* Two cores that both turbo to 3 GHz: busy, the package draws 2 x 1 nF x
 * 1.2^2 x 3 GHz + 1 W uncore = 9.64 W; at 2 GHz 5 W, at 1 GHz 2.28 W;
 * idle (C6, no package state) 1 W. */
static const char *const limit_ini =
	"[machine]\nname = limited\ndescription = test machine\ntdp_w = 5\n"
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
	"[pstates]\n1000000 = 800\n2000000 = 1000\n3000000 = 1200\n"
	"[turbo]\n3000000 = 2\n"
	"[cstate C6]\ndesc = power gated\nexit_latency_us = 100\ntarget_residency_us = 300\n"
	"power_mw = 0\n"
	"[power]\nceff_nf = 1.0\nleak_w = 0\nleak_beta = 0\nuncore_w = 1\nplatform_w = 0\n"
	"[power_limits]\npl1_w = 6\npl1_window_us = 1000000\n";

struct freq_log {
	sim_ns first_drop; /* when CPU 0 first left 3 GHz after reaching it */
	bool at_top;
};

static void log_freq(void *ctx, int cpu, sim_ns now, uint32_t khz)
{
	struct freq_log *l = ctx;
	if (cpu != 0)
		return;
	if (khz == 3000000)
		l->at_top = true;
	else if (l->at_top && l->first_drop < 0)
		l->first_drop = now;
}

/* Two busy cores under the performance governor for `seconds`, with
 * `sets`; the package energy, J, and when CPU 0 first left 3 GHz. */
static double limited_run(double seconds, const char *const *sets, int nsets, sim_ns *drop,
			  sim_ns *limited_ns)
{
	struct machine m;
	struct pm_diag d = { "" };
	struct freq_log log = { -1, false };
	struct sim_observer obs = { .ctx = &log, .cpu_freq = log_freq };
	const char *all[8] = { "tasks=2", "work_ms=100000", "stall_pct=0", "background_wakeups=0" };
	for (int i = 0; i < nsets; i++)
		all[4 + i] = sets[i];
	struct sim_config cfg = { .machine = &m, .workload = "batch", .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = (sim_ns)(seconds * 1e9),
				  .seed = 1, .nsets = 4 + nsets, .sets = all,
				  .check_invariants = true, .observer = &obs };
	struct sim *sim;
	struct run_result r;
	if (machine_parse(&m, limit_ini, "limited", &d) != 0 || sim_create(&sim, &cfg, &d) != 0 ||
	    sim_run(sim, &r, &d) != 0)
		fail_msg("%s", d.msg);
	double e = r.energy_core_dynamic_j + r.energy_core_static_j + r.energy_uncore_j;
	*drop = log.first_drop;
	*limited_ns = r.pkgs[0].power_limited_ns;
	result_free(&r);
	sim_destroy(sim);
	return e;
}

/* RAPL's PL1: the running average of package power with a 1 s time
 * constant starts at the idle 1 W; at 9.64 W it passes the 6 W limit
 * after 1 s x ln((9.64 - 1) / (9.64 - 6)) = 0.864 s, and only then does
 * the clock leave the turbo bin. Afterwards the package holds 6 W on
 * average (from 3 s to 6 s, by the energy between two identical runs).
 * PL2 (--set pl2_w=7, Intel's 2.44 ms window) caps at once; --set
 * pl1_w=0 removes PL1. */
static void test_power_limit_caps_turbo_after_window(void **state)
{
	sim_ns drop, limited;
	(void)state;
	double e3 = limited_run(3, NULL, 0, &drop, &limited);
	if (drop < (sim_ns)(0.862 * 1e9) || drop > (sim_ns)(0.866 * 1e9))
		fail_msg("left the turbo bin at %.4f s (expected 0.864 s)", (double)drop * 1e-9);
	/* Then the ceiling hunts between 2 and 3 GHz, at 2 GHz for the share
	 * x with 5 x + 9.64 (1 - x) = 6: x = 0.7845 of the 2.136 s left. */
	near((double)limited * 1e-9, (3 - 0.864) * (1 - 1.0 / 4.64), 0.02,
	     "time under the limit's ceiling, s");
	double e6 = limited_run(6, NULL, 0, &drop, &limited);
	near((e6 - e3) / 3, 6.0, 0.1, "package power under PL1, W");

	const char *pl2[] = { "pl1_w=0", "pl2_w=7" };
	double e1 = limited_run(1, pl2, 2, &drop, &limited);
	double e2 = limited_run(2, pl2, 2, &drop, &limited);
	if (drop < 0 || drop > 10 * NS_PER_MS)
		fail_msg("PL2 left the turbo bin at %.4f s (expected within 10 ms)", (double)drop * 1e-9);
	/* The 1 ms control period hunts around a 2.44 ms average: within 7 %. */
	near(e2 - e1, 7.25, 0.25, "package power under PL2, W");

	const char *none[] = { "pl1_w=0" };
	double free3 = limited_run(3, none, 1, &drop, &limited);
	assert_true(drop < 0);
	assert_int_equal(limited, 0);
	near(free3, 9.64 * 3, 0.01, "package energy without limits, J");
}

/* Turbo to 3 GHz for one busy core, 2.5 GHz for two; `turbo` says who
 * picks the bin. */
static const char *turbo_ini(const char *turbo)
{
	static char ini[2048];
	snprintf(ini, sizeof(ini),
		 "[machine]\nname = turbo\ndescription = test machine\ntdp_w = 10\n"
		 "[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n"
		 "freq_domain = core\n"
		 "[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\nturbo = %s\n"
		 "[pstates]\n1000000 = 800\n2000000 = 1000\n2500000 = 1100\n3000000 = 1200\n"
		 "[turbo]\n3000000 = 1\n2500000 = 2\n"
		 "[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\n"
		 "power_mw = 500\n"
		 "[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\n"
		 "platform_w = 10\n", turbo);
	return ini;
}

/* "Hardware decides" (ACPI _PSS's turbo entry, AMD's boost): with turbo =
 * hardware the OS sees 1, 2 and 3 GHz only, so asking for 2.5 GHz gets the
 * turbo entry and the hardware runs its bin, 3 GHz with one busy core
 * (2e8 cycles in 66.7 ms); with turbo = os, 2.5 GHz is a P-state of its
 * own (80 ms). C1's exit takes 1 us first. */
static void test_hardware_picks_turbo_bin(void **state)
{
	const char *sets[] = { "tasks=1", "work_ms=100", "stall_pct=0", "scaling_setspeed=2500000" };
	struct run os, hw;
	(void)state;
	run(&os, turbo_ini("os"), 0, "batch", "userspace", 1, sets, 4);
	run(&hw, turbo_ini("hardware"), 0, "batch", "userspace", 1, sets, 4);
	near(simtest_extra(&os.r, "seconds"), 0.080001, 1e-6, "2.5 GHz requested, turbo = os");
	near(simtest_extra(&hw.r, "seconds"), 0.2 / 3 + 0.000001, 1e-6,
	     "2.5 GHz requested, turbo = hardware");
	result_free(&os.r);
	result_free(&hw.r);
}

/* An amd-pstate machine: one core per clock, 0.5..3 GHz in 500 MHz steps,
 * nominal (base) 2 GHz, CPPC's lowest nonlinear frequency 1.5 GHz. */
static const char *const amd_ini =
	"[machine]\nname = amd-test\ndescription = test machine\ntdp_w = 10\n"
	"cpufreq_driver = amd-pstate\n"
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
	"lowest_nonlinear_khz = 1500000\n"
	"[pstates]\n500000 = 700\n1000000 = 750\n1500000 = 800\n2000000 = 900\n2500000 = 1000\n"
	"3000000 = 1100\n"
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n";

/* C0 time CPU 0 spent below `khz`. */
static sim_ns c0_below(const struct run_result *r, uint32_t khz)
{
	sim_ns t = 0;
	for (int i = 0; i < result_cpu_npstates(r, 0); i++)
		if (result_cpu_pstate_khz(r, 0, i) < khz)
			t += r->cpus[0].pstate_ns[i];
	return t;
}

static const char *const light[] = { "tasks=1", "period_us=10000", "run_us=1000",
				     "jitter_pct=0" };

/* amd_pstate_verify() (v6.11+): a scaling_min_freq nobody set is
 * lowest_nonlinear_freq. A light load under schedutil (amd-pstate's
 * passive mode) wants about 1.25 x 10 % of 3 GHz, yet never runs below
 * 1.5 GHz; set explicitly, or on v6.10, the minimum is the hardware's and
 * the same load runs below it. */
static void test_amd_pstate_lowest_nonlinear_floor(void **state)
{
	const char *explicit_min[] = { "scaling_min_khz=500000" };
	const char *v610[] = { "kernel=6.10" };
	struct run dflt, low, old;
	(void)state;
	run(&dflt, amd_ini, 1, "periodic", "schedutil", 2, light, 4);
	assert_int_equal(c0_below(&dflt.r, 1500000), 0);
	assert_true(c0_below(&dflt.r, 2000000) > 0);
	const char *sets[5];
	memcpy(sets, light, sizeof(light));
	sets[4] = explicit_min[0];
	run(&low, amd_ini, 1, "periodic", "schedutil", 2, sets, 5);
	assert_true(c0_below(&low.r, 1500000) > 0);
	sets[4] = v610[0];
	run(&old, amd_ini, 1, "periodic", "schedutil", 2, sets, 5);
	assert_true(c0_below(&old.r, 1500000) > 0);
	result_free(&dflt.r);
	result_free(&low.r);
	result_free(&old.r);
}

/* Guided mode (amd_pstate_update(): min_perf = des_perf, des_perf = 0):
 * schedutil's choice becomes the floor and the hardware's loop, under EPP
 * 0, picks at or above it: faster than passive mode for the same light
 * load, never slower. A governor that does not switch dynamically
 * (performance) gets what it asks for in either mode: the same run. */
static void test_amd_pstate_guided(void **state)
{
	const char *sets[5];
	struct run passive, guided, perf_passive, perf_guided;
	(void)state;
	memcpy(sets, light, sizeof(light));
	sets[4] = "amd_pstate=passive";
	run(&passive, amd_ini, 1, "periodic", "schedutil", 2, sets, 5);
	run(&perf_passive, amd_ini, 1, "periodic", "performance", 2, sets, 5);
	sets[4] = "amd_pstate=guided";
	run(&guided, amd_ini, 1, "periodic", "schedutil", 2, sets, 5);
	run(&perf_guided, amd_ini, 1, "periodic", "performance", 2, sets, 5);
	if (!(result_bzy_mhz(&guided.r) > result_bzy_mhz(&passive.r) + 100))
		fail_msg("guided %.0f MHz, passive %.0f MHz: expected guided faster",
			 result_bzy_mhz(&guided.r), result_bzy_mhz(&passive.r));
	assert_int_equal(c0_below(&guided.r, 1500000), 0);
	assert_true(result_energy_j(&perf_guided.r) == result_energy_j(&perf_passive.r));
	result_free(&passive.r);
	result_free(&guided.r);
	result_free(&perf_passive.r);
	result_free(&perf_guided.r);
}

/* amd-pstate-epp (the amd_pstate governor): powersave lets the hardware go
 * down to the floor, 1.5 GHz; the performance policy raises the CPPC
 * minimum to the nominal frequency, 2 GHz (amd_pstate_update_min_max_limit()),
 * not to the top as intel_pstate's HWP does. */
static void test_amd_pstate_active(void **state)
{
	const char *sets[5];
	struct run save, perf;
	(void)state;
	run(&save, amd_ini, 1, "periodic", "amd_pstate", 2, light, 4);
	memcpy(sets, light, sizeof(light));
	sets[4] = "scaling_governor=performance";
	run(&perf, amd_ini, 1, "periodic", "amd_pstate", 2, sets, 5);
	assert_int_equal(c0_below(&save.r, 1500000), 0);
	assert_true(c0_below(&save.r, 2000000) > 0);
	assert_int_equal(c0_below(&perf.r, 2000000), 0);
	assert_true(result_bzy_mhz(&perf.r) < 3000);
	result_free(&save.r);
	result_free(&perf.r);
}

/* Today's presets (issue 16) run under their default governors and each of
 * today's policies that applies to them, with the engine's invariants
 * checked after every event: the default (amd_pstate, intel_pstate with
 * HWP, schedutil on cpufreq-dt, performance without a driver), schedutil
 * (amd-pstate's passive mode), guided mode, amd_pstate's and
 * intel_pstate's policies. On the server presets, whose FADT PM profile
 * is a server's, amd-pstate-epp runs the performance policy: never below
 * the nominal frequency. */
static void test_todays_presets_run(void **state)
{
	static const struct { const char *machine, *gov, *set; } cases[] = {
		{ "epyc-9555-2s", NULL, NULL },
		{ "epyc-9555-2s", "schedutil", "amd_pstate=guided" },
		{ "ryzen-7840u", NULL, NULL },
		{ "ryzen-7840u", "schedutil", NULL },
		{ "ryzen-7840u", "schedutil", "amd_pstate=guided" },
		{ "ryzen-7840u", "amd_pstate", "energy_performance_preference=power" },
		{ "i7-1260p", NULL, NULL },
		{ "i7-1260p", "intel_pstate", "hwp_dynamic_boost=1" },
		{ "i7-1260p", "intel_pstate", "scaling_governor=performance" },
		{ "xeon-8480-2s", NULL, NULL },
		{ "hikey960", NULL, NULL },
		{ "epyc-vm-2c", NULL, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *ini = simtest_preset_text(cases[i].machine);
		const char *gov = cases[i].gov;
		struct machine m;
		struct pm_diag d = { { 0 } };
		const char *why;
		assert_int_equal(machine_parse(&m, ini, cases[i].machine, &d), 0);
		if (!gov)
			gov = runspec_default_cpufreq(&m, 0, &why);
		const char *sets[1] = { cases[i].set };
		struct run r;
		simtest_run_idle(&r, ini, 0, "tbench", gov, "menu", 0.02, 1, NULL, 0, sets,
				 cases[i].set ? 1 : 0, true);
		assert_true(r.r.work_done > 0);
		if (strcmp(cases[i].machine, "epyc-9555-2s") == 0 && !cases[i].gov)
			for (int c = 0; c < r.r.ncpus; c++)
				for (int p = 0; p < result_cpu_npstates(&r.r, c); p++)
					if (r.r.cpus[c].pstate_ns[p] > 0)
						assert_true(result_cpu_pstate_khz(&r.r, c, p) >= 3200000);
		result_free(&r.r);
	}
}

/* The uncore's clock follows the fastest busy core (engine/uncore.c),
 * which the package keeps as cores wake, sleep and change P-state instead
 * of scanning its busy cores at every change: with the invariants checked
 * after every event (a scan against the record), Haswell-EP servers under
 * governors that move each core's clock while it runs, through C1E's exit
 * ramp (xeon-e5-2650l-v3's C1E drops to the lowest P-state), one and two
 * packages. EPB 6 (the default) is above epb_max_clock, so the rule reads
 * the busy cores' clocks. */
static void test_uncore_fastest_busy_core_kept(void **state)
{
	static const struct { const char *machine, *workload, *gov, *idle; } cases[] = {
		{ "xeon-e5-2650l-v3", "oltp", "ondemand", "menu" },
		{ "xeon-e5-2650l-v3", "ebizzy", "conservative", "teo" },
		{ "xeon-e5-2670-v3-2s", "tbench", "schedutil", "menu" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;
		simtest_run_idle(&r, simtest_preset_text(cases[i].machine), 0, cases[i].workload,
				 cases[i].gov, cases[i].idle, 0.1, 1, NULL, 0, NULL, 0, true);
		assert_true(r.r.work_done > 0);
		/* The uncore ran above its floor while cores were busy. */
		assert_true(r.r.energy_uncore_j > 0);
		result_free(&r.r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capacity_scales_work),
		cmocka_unit_test(test_capacity_scaled_utilization),
		cmocka_unit_test(test_hybrid_runs),
		cmocka_unit_test(test_energy_model),
		cmocka_unit_test(test_power_limit_caps_turbo_after_window),
		cmocka_unit_test(test_hardware_picks_turbo_bin),
		cmocka_unit_test(test_amd_pstate_lowest_nonlinear_floor),
		cmocka_unit_test(test_amd_pstate_guided),
		cmocka_unit_test(test_amd_pstate_active),
		cmocka_unit_test(test_todays_presets_run),
		cmocka_unit_test(test_uncore_fastest_busy_core_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
