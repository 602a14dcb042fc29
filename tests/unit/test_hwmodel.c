// SPDX-License-Identifier: GPL-2.0-only
/* The models around the cores (issue 21), each rule on its own: the
 * uncore clock and its power, the memory stall at the present clocks and
 * cross-package coherence, the energy/performance bias on C-state
 * demotion and turbo, the exit ramp after C1E, the platform's DRAM, disk, fans and power supply,
 * tuned's dynamic PM QoS on the kernel's load average, and the flusher's
 * writeback pattern. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/hwmodel.h"
#include "engine/sim_internal.h"
#include "simtest.h"

#define TWO SIMTEST_TWO_CORE_INI
/* Two cores (1 or 2 GHz) with an uncore clock of 1..3 GHz, 1 W static of
 * its 2 W, voltage 0.5..1.0 V. */
#define UNCORE "[uncore]\nmin_khz = 1000000\nmax_khz = 3000000\nmin_mv = 500\nmax_mv = 1000\n" \
	       "static_w = 1\nepb_max_clock = 3\n"
/* A miss: 30 core cycles, 30 uncore cycles and 40 ns of DRAM. */
#define MEMORY "[memory]\ncore_cycles = 30\nuncore_cycles = 30\ndram_ns = 40\nmlp = 2\n" \
	       "line_nj = 10\n"

static const char *const quiet[] = { "tick_cost_ns=0", "cpufreq_update_cost_ns=0",
				     "tick_restart_cost_ns=0", "background_wakeups=0" };

static struct machine parse(const char *ini)
{
	struct machine m;
	struct pm_diag d = { { 0 } };
	if (machine_parse(&m, ini, "test", &d) < 0)
		fail_msg("%s", d.msg);
	return m;
}

static const char *parse_error(const char *ini)
{
	static struct pm_diag d;
	struct machine m;
	memset(&d, 0, sizeof(d));
	if (machine_parse(&m, ini, "test", &d) == 0)
		fail_msg("parsed, expected an error");
	return d.msg;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static void assert_near(double a, double b, double rel)
{
	if (fabs(a - b) > rel * fabs(b))
		fail_msg("%.9g, expected %.9g (+- %g%%)", a, b, rel * 100);
}

/* ---- machine sections ---- */

static void test_sections_parse_and_round_trip(void **state)
{
	struct machine m = parse(TWO UNCORE MEMORY
				 "[platform]\npsu_w = 100\npsu_eff_10_pct = 80\npsu_eff_20_pct = 85\n"
				 "psu_eff_50_pct = 90\npsu_eff_100_pct = 88\ndisk_active_w = 2\n"
				 "nic_packet_uj = 1\ndisk_mbps = 100\nfan_min_w = 1\nfan_max_w = 9\n"
				 "[energy_bias]\ndemotion_x = 3\nturbo_delay_us = 300\n");
	assert_int_equal(m.unc.max_khz, 3000000);
	assert_true(m.unc.static_w == 1);
	assert_true(m.mem.mlp == 2);
	assert_true(m.plat.psu_eff[2] == 0.9);
	assert_int_equal(m.epb.turbo_delay_ns, 300 * NS_PER_US);
	char *ini = machine_to_ini(&m);
	struct machine back = parse(ini);
	free(ini);
	assert_memory_equal(&back.unc, &m.unc, sizeof(m.unc));
	assert_memory_equal(&back.mem, &m.mem, sizeof(m.mem));
	assert_memory_equal(&back.plat, &m.plat, sizeof(m.plat));
	assert_memory_equal(&back.epb, &m.epb, sizeof(m.epb));
	/* Absent sections: no model, and nothing written. */
	m = parse(TWO);
	assert_int_equal(m.unc.max_khz, 0);
	ini = machine_to_ini(&m);
	assert_null(strstr(ini, "[uncore]"));
	assert_null(strstr(ini, "[memory]"));
	free(ini);

	assert_contains(parse_error(TWO "[uncore]\nmax_khz = 3000000\n"),
			"[uncore] is missing min_khz");
	assert_contains(parse_error(TWO "[uncore]\nmin_khz = 3000000\nmax_khz = 2000000\nmin_mv = 1\n"
				    "max_mv = 2\nstatic_w = 1\n"), "[uncore] min_khz = 3000000 is out of range");
	assert_contains(parse_error(TWO "[uncore]\nmin_khz = 1\nmax_khz = 2\nmin_mv = 1\nmax_mv = 2\n"
				    "static_w = 5\n"), "static_w = 5 is out of range (expected 0..uncore_w = 2 W)");
	assert_contains(parse_error(TWO "[memory]\ncore_cycles = 1\nuncore_cycles = 1\ndram_ns = 1\n"
				    "mlp = 0.5\n"), "mlp = 0.5 is out of range");
	assert_contains(parse_error(TWO "[platform]\npsu_w = 100\n"),
			"psu_eff_10_pct = 0 is out of range (expected 30..100 with psu_w given)");
	assert_contains(parse_error(TWO "[platform]\nfan_min_w = 5\nfan_max_w = 1\n"),
			"fan_min_w = 5, fan_max_w = 1");
	assert_contains(parse_error(TWO "[energy_bias]\ndemotion_x = 0.5\n"),
			"demotion_x = 0.5 is out of range");
}

/* ---- the uncore clock ---- */

static void test_uncore_power_rule(void **state)
{
	struct machine m = parse(TWO UNCORE);
	/* uncore_w (2 W) at the top clock; at the bottom: 1 + 1 x 1/3 x 0.5^2 */
	assert_near(uncore_power_w(&m, 3000000), 2.0, 1e-12);
	assert_near(uncore_power_w(&m, 1000000), 1.0 + 1.0 / 3 * 0.25, 1e-12);
	/* 2 GHz: V halfway, 0.75 V */
	assert_near(uncore_power_w(&m, 2000000), 1.0 + 2.0 / 3 * 0.75 * 0.75, 1e-12);
	struct machine plain = parse(TWO);
	assert_near(uncore_power_w(&plain, 1000000), 2.0, 1e-12);
}

/* A busy package runs the uncore at the fastest busy core's clock unless
 * the bias is "performance" (top clock); an idle one at its lowest. */
static void test_uncore_follows_cores_and_epb(void **state)
{
	const char *busy_ps[] = { "tasks=1", "work_ms=100", "energy_perf_bias=6" };
	const char *busy_perf[] = { "tasks=1", "work_ms=100", "energy_perf_bias=0" };
	struct run a, b, idle;
	/* powersave: the core at 1 GHz; the uncore follows it to 1 GHz. */
	simtest_run(&a, TWO UNCORE, 0, "batch", "powersave", 1, 1, quiet, 4, busy_ps, 3, true);
	simtest_run(&b, TWO UNCORE, 0, "batch", "powersave", 1, 1, quiet, 4, busy_perf, 3, true);
	double secs = a.r.extra[0].value;
	assert_near(b.r.extra[0].value, secs, 1e-9); /* no stall model: the same time */
	struct machine m = parse(TWO UNCORE);
	assert_near(a.r.energy_uncore_j, uncore_power_w(&m, 1000000) * secs, 1e-6);
	assert_near(b.r.energy_uncore_j, uncore_power_w(&m, 3000000) * secs, 1e-6);
	/* No work at all: the lowest clock throughout. */
	const char *none[] = { "tasks=1", "period_us=1000000", "run_us=0" };
	simtest_run(&idle, TWO UNCORE, 0, "periodic", "performance", 0.5, 1, quiet, 4, none, 3,
		    true);
	assert_near(idle.r.energy_uncore_j, uncore_power_w(&m, 1000000) * 0.5, 1e-3);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&idle.r);
}

/* ---- memory stall ---- */

static void test_memory_latency_rule(void **state)
{
	struct machine m = parse(TWO MEMORY);
	/* 3/3 GHz: 10 + 10 + 40 ns, the reference */
	assert_near(memory_latency_ns(&m, 3, 3), 60, 1e-12);
	assert_near(memory_latency_scale(&m, 3, 3), 1, 1e-12);
	assert_near(memory_latency_scale(&m, 1, 3), (30 + 10 + 40) / 60.0, 1e-12);
	assert_near(memory_latency_scale(&m, 1.5, 1), (20 + 30 + 40) / 60.0, 1e-12);
	struct machine plain = parse(TWO);
	assert_near(memory_latency_scale(&plain, 1, 1), 1, 1e-12);
}

/* A task that only stalls takes as long as its misses' latency: at 1 GHz
 * with the uncore following at 1 GHz, (30 + 30 + 40) / 60 of the
 * reference; at 2 GHz with the uncore at 2 GHz, (15 + 15 + 40) / 60. The
 * DRAM lines it moves: stall x mlp / latency. */
static void test_memory_stall_scales_with_clocks(void **state)
{
	const char *sets[] = { "tasks=1", "work_ms=60", "stall_pct=100" };
	struct run slow, fast, plain;
	simtest_run(&slow, TWO UNCORE MEMORY, 0, "batch", "powersave", 2, 1, quiet, 4, sets, 3, true);
	simtest_run(&fast, TWO UNCORE MEMORY, 0, "batch", "performance", 2, 1, quiet, 4, sets, 3,
		    true);
	simtest_run(&plain, TWO, 0, "batch", "performance", 2, 1, quiet, 4, sets, 3, true);
	double ref = plain.r.extra[0].value; /* 60 ms of fixed stall, and a switch */
	assert_near(ref, 0.060, 0.005);
	assert_near(slow.r.extra[0].value, ref * 100.0 / 60.0, 0.005);
	assert_near(fast.r.extra[0].value, ref * 70.0 / 60.0, 0.005);
	/* 100 ms of stall at 100 ns a miss, 2 in flight: 2e6 lines x 10 nJ */
	assert_near(slow.r.platform.dram_j, 2e6 * 10e-9, 1e-3);
	assert_true(plain.r.platform.dram_j == 0);
	result_free(&slow.r);
	result_free(&fast.r);
	result_free(&plain.r);
}

/* The rule on the Haswell-EP preset against what was measured there: a
 * DRAM miss of ~87 ns at 2.5 GHz cores and a 3.0 GHz uncore (Hackenberg
 * et al. 2015); with the uncore clocked apart from the cores (Haswell's
 * Uncore Frequency Scaling at its top), a miss at 1.2 GHz cores costs
 * only the core's few cycles more, so latency-bound work barely follows
 * the core clock (Hofmann 2015: the same sustained bandwidth at 1.2 GHz
 * as in turbo); with the uncore at the cores' clock (Sandy and Ivy
 * Bridge) it costs over a quarter more. */
static void test_memory_scaling_haswell_preset(void **state)
{
	struct machine m = parse(simtest_preset_text("xeon-e5-2650l-v3"));
	assert_near(memory_latency_ns(&m, 2.5, 3.0), 87, 0.01);
	double decoupled = memory_latency_ns(&m, 1.2, 3.0) / memory_latency_ns(&m, 2.5, 3.0);
	double coupled = memory_latency_ns(&m, 1.2, 1.2) / memory_latency_ns(&m, 2.5, 2.5);
	assert_true(decoupled > 1.0 && decoupled < 1.07);
	assert_true(coupled > 1.25);
}

/* Bandwidth: a package's tasks that ask for more than peak_gbps stretch
 * their stall by demand / peak. */
static void test_memory_saturation_rule(void **state)
{
	assert_near(memory_saturation(10, 0), 1, 1e-12); /* no limit */
	assert_near(memory_saturation(10, 20), 1, 1e-12);
	assert_near(memory_saturation(30, 20), 1.5, 1e-12);
	assert_contains(parse_error(TWO MEMORY "peak_gbps = -1\n"), "peak_gbps = -1 is out of range");
}

/* Two fully memory-bound tasks on two cores at 2 GHz (a miss: 15 + 10 +
 * 40 ns), each asking mlp 4 x 64 B per 65 ns = 3.94 GB/s: under a 6 GB/s
 * memory they take 7.88 / 6 times as long as under a 10 GB/s one; one
 * task alone is not limited. */
static void test_memory_bandwidth_shared(void **state)
{
	const char *sets[] = { "tasks=2", "work_ms=60", "stall_pct=100", "mlp=4" };
	const char *one[] = { "tasks=1", "work_ms=60", "stall_pct=100", "mlp=4" };
	struct run wide, narrow, alone;
	simtest_run(&wide, TWO MEMORY "peak_gbps = 10\n", 0, "batch", "performance", 2, 1, quiet,
		    4, sets, 4, true);
	simtest_run(&narrow, TWO MEMORY "peak_gbps = 6\n", 0, "batch", "performance", 2, 1, quiet,
		    4, sets, 4, true);
	simtest_run(&alone, TWO MEMORY "peak_gbps = 6\n", 0, "batch", "performance", 2, 1, quiet,
		    4, one, 4, true);
	double t_wide = wide.r.extra[0].value;
	assert_near(narrow.r.extra[0].value, t_wide * (2 * 4 * 64 / 65.0) / 6, 0.01);
	assert_near(alone.r.extra[0].value, t_wide, 0.02);
	/* The lines moved do not depend on the limit. */
	assert_near(narrow.r.platform.dram_j, wide.r.platform.dram_j, 1e-6);
	result_free(&wide.r);
	result_free(&narrow.r);
	result_free(&alone.r);
}

/* A package of two CPUs (one core each, 1 or 2 GHz, no uncore clock)
 * with the MEMORY miss (30 + 30 cycles + 40 ns) and peak_gbps 7, built by
 * hand so that each burst's clocks and mlp can be set. */
struct bw_rig {
	struct machine m;
	struct sim s;
	struct sim_cpu cpus[2];
	struct sim_core cores[2];
	struct sim_pkg pkg;
	struct sim_type type;
	struct cpu_group group;
	uint32_t khz[2];
	int ids[2];
	struct task tasks[2];
};

static void bw_rig_init(struct bw_rig *r)
{
	memset(r, 0, sizeof(*r));
	r->m.mem = (struct machine_memory){ .core_cycles = 30, .uncore_cycles = 30, .dram_ns = 40,
					    .mlp = 2, .peak_gbps = 7 };
	r->khz[0] = 1000000;
	r->khz[1] = 2000000;
	r->type.khz = r->khz;
	r->group = (struct cpu_group){ .n = 2, .cpu = r->ids };
	for (int i = 0; i < 2; i++) {
		r->ids[i] = i;
		r->cpus[i] = (struct sim_cpu){ .id = i, .core = i, .mode = CPU_RUNNING,
					       .curr = &r->tasks[i], .core_p = &r->cores[i],
					       .pkg_p = &r->pkg, .type_p = &r->type };
		r->cores[i].type_p = &r->type;
	}
	r->s.m = &r->m;
	r->s.ncpus = 2;
	r->s.cpus = r->cpus;
	r->s.cores = r->cores;
	r->s.pkgs = &r->pkg;
	r->s.types = &r->type;
	r->s.topo.pkg = &r->group;
}

/* A burst of pure stall starting on CPU i at P-state idx with mlp: its
 * bandwidth factor; the task is then in its burst. */
static double bw_burst(struct bw_rig *r, int i, int idx, double mlp)
{
	r->cores[i].eff_idx = idx;
	r->tasks[i].mlp = mlp;
	double f = memory_bandwidth_factor(&r->s, &r->cpus[i], &r->tasks[i], 0, 1000);
	r->tasks[i].in_burst = true;
	return f;
}

/* The bandwidth scan is skipped while no demand could reach the peak; that
 * bound follows the shortest latency and the largest mlp seen so far. Two
 * bursts within the peak at 1 GHz (2 x 4 x 64 / 80 ns = 6.4 GB/s), then one
 * CPU moves to 2 GHz (65 ns): 3.2 + 3.94 GB/s is over 7 and must stretch.
 * The same with mlp: 2 + 2 lines in flight at 2 GHz fit, 2 + 6 do not. */
static void test_memory_bandwidth_bound_follows_inputs(void **state)
{
	struct bw_rig r;
	bw_rig_init(&r);
	double slow = 4 * 64.0 / memory_latency_ns(&r.m, 1.0, 3.0);
	double fast = 4 * 64.0 / memory_latency_ns(&r.m, 2.0, 3.0);
	assert_true(2 * slow < 7 && slow + fast > 7);
	assert_true(bw_burst(&r, 0, 0, 4) == 1.0);
	assert_true(bw_burst(&r, 1, 0, 4) == 1.0);
	assert_near(bw_burst(&r, 1, 1, 4), (fast + slow) / 7, 1e-12);

	bw_rig_init(&r);
	double two = 2 * 64.0 / memory_latency_ns(&r.m, 2.0, 3.0);
	assert_true(bw_burst(&r, 0, 1, 2) == 1.0);
	assert_true(bw_burst(&r, 1, 1, 2) == 1.0);
	assert_near(bw_burst(&r, 1, 1, 6), (3 * two + two) / 7, 1e-12);
}

/* A burst with no stall skips the model: it ends with none and its task asks
 * for no bandwidth, whatever it asked in its last burst (the scan of the
 * package reads it); a sharing group's task still records its activity
 * here (engine/share.c), stall or not. */
static void test_memory_no_stall_burst(void **state)
{
	struct bw_rig r;
	bw_rig_init(&r);
	r.cores[0].eff_idx = 1;
	r.tasks[0].mem_gbps = 5;
	assert_true(memory_burst_stall(&r.s, &r.cpus[0], &r.tasks[0], 1000, 0) == 0);
	assert_true(r.tasks[0].mem_gbps == 0);
	assert_true(memory_burst_stall(&r.s, &r.cpus[0], &r.tasks[0], 1000, 100) > 100);
	assert_true(r.tasks[0].mem_gbps > 0);

	int llc_ids[1] = { 0 };
	struct cpu_group llc = { .n = 1, .cpu = llc_ids };
	double act[1] = { 0 };
	sim_ns when[1] = { 0 };
	r.m.share_window_ns = 1000000;
	r.s.topo.llc = &llc;
	r.s.topo.nllcs = 1;
	r.s.nshare_groups = 1;
	r.s.share_act = act;
	r.s.share_when = when;
	r.s.now = 500;
	r.tasks[0].share_group = 1;
	assert_true(memory_burst_stall(&r.s, &r.cpus[0], &r.tasks[0], 1000, 0) == 0);
	assert_true(r.tasks[0].mem_gbps == 0);
	assert_near(act[0], 1, 1e-12);
	assert_true(when[0] == 500);
}

/* Coherence: a sharing group spread over two packages pays snoops on the
 * share of its misses, the same group on one package does not. */
static void test_coherence_across_packages(void **state)
{
	const char *two_pkg = "[machine]\nname = two-pkg\n[topology]\npackages = 2\n"
		"cores_per_package = 1\nthreads_per_core = 1\nfreq_domain = core\n"
		"[frequency]\nbase_khz = 3000000\n[pstates]\n3000000 = 1000\n"
		"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 100\n"
		"[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 1\nplatform_w = 1\n"
		"[cache]\nshare_stall_cut = 0\nshare_window_us = 100000\n"
		"[memory]\ncore_cycles = 0\nuncore_cycles = 0\ndram_ns = 100\nsnoop_pct = 50\n"
		"snoop_x = 3\n";
	const char *spread[] = { "tasks=2", "work_ms=100", "stall_pct=100", "share=1",
				 "slice_us=1000" };
	const char *alone[] = { "tasks=2", "work_ms=100", "stall_pct=100", "share=0",
				"slice_us=1000" };
	struct run shared, apart;
	simtest_run(&shared, two_pkg, 0, "batch", "performance", 2, 1, quiet, 4, spread, 5, true);
	simtest_run(&apart, two_pkg, 0, "batch", "performance", 2, 1, quiet, 4, alone, 5, true);
	/* Unshared: 100 ms each. Shared, one task per package: half the
	 * group's activity is remote, so 1 + 0.5 x (3 - 1) x 0.5 = 1.5 once
	 * the first slices have run. */
	assert_near(apart.r.extra[0].value, 0.100, 1e-3);
	assert_near(shared.r.extra[0].value, 0.150, 0.02);
	result_free(&shared.r);
	result_free(&apart.r);
}

/* ---- the energy/performance bias ---- */

static void test_epb_rules(void **state)
{
	struct machine m = parse(TWO "[energy_bias]\ndemotion_x = 4\nturbo_delay_us = 300\n");
	assert_near(epb_demotion_x(&m, 15), 1, 1e-12);
	assert_near(epb_demotion_x(&m, 0), 4, 1e-12);
	assert_near(epb_demotion_x(&m, 5), 3, 1e-12);
	assert_int_equal(epb_turbo_delay(&m, 15), 300 * NS_PER_US);
	assert_int_equal(epb_turbo_delay(&m, 0), 0);
	assert_int_equal(epb_turbo_delay(&m, 5), 100 * NS_PER_US);
	struct machine plain = parse(TWO);
	assert_near(epb_demotion_x(&plain, 0), 1, 1e-12);
	assert_int_equal(epb_turbo_delay(&plain, 15), 0);
}

/* With the BIOS's C1 auto-demotion, C6 (300 us target residency) is
 * granted after an idle period of 300 us x the bias' factor: a 1 ms
 * period with 400 us of work leaves 600 us idle periods, enough at EPB 15
 * (x1), not at EPB 0 (x4). */
static void test_epb_demotion(void **state)
{
	const char *ebias = TWO "[energy_bias]\ndemotion_x = 4\n";
	const char *power[] = { "tasks=1", "period_us=1000", "run_us=400", "jitter_pct=0",
				"cstate_auto_demotion=c1", "energy_perf_bias=15" };
	const char *perf[] = { "tasks=1", "period_us=1000", "run_us=400", "jitter_pct=0",
			       "cstate_auto_demotion=c1", "energy_perf_bias=0" };
	struct run a, b;
	simtest_run(&a, ebias, 1, "periodic", "performance", 0.2, 1, quiet, 4, power, 6, true);
	simtest_run(&b, ebias, 1, "periodic", "performance", 0.2, 1, quiet, 4, perf, 6, true);
	int c6 = 1; /* [cstate C1], [cstate C6] */
	assert_true(a.r.cpus[0].cstate_ns[c6] > 0.5 * 0.6 * 0.2 * NS_PER_SEC);
	assert_true(b.r.cpus[0].cstate_ns[c6] == 0);
	/* cpuidle still counts the request */
	assert_true(b.r.cpus[0].cstate_usage[c6] > 100);
	result_free(&a.r);
	result_free(&b.r);
}

/* A request into the turbo range takes effect turbo_delay x EPB / 15
 * later, the base P-state meanwhile. */
static void test_epb_turbo_delay(void **state)
{
	const char *turbo = "[machine]\nname = t\n[topology]\npackages = 1\ncores_per_package = 1\n"
		"threads_per_core = 1\nfreq_domain = core\n[frequency]\nbase_khz = 2000000\n"
		"transition_latency_us = 0\n[pstates]\n1000000 = 800\n2000000 = 1000\n3000000 = 1100\n"
		"[turbo]\n3000000 = 1\n[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\n"
		"power_mw = 100\n[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 1\nplatform_w = 1\n"
		"[energy_bias]\nturbo_delay_us = 3000\n";
	const char *slow[] = { "tasks=1", "work_ms=10", "energy_perf_bias=15" };
	const char *fast[] = { "tasks=1", "work_ms=10", "energy_perf_bias=0" };
	struct run a, b;
	/* ondemand starts at the minimum and asks for the top at its first
	 * busy sample; at EPB 15 the base comes first for 3 ms. */
	simtest_run(&a, turbo, 0, "batch", "ondemand", 1, 1, quiet, 4, slow, 3, true);
	simtest_run(&b, turbo, 0, "batch", "ondemand", 1, 1, quiet, 4, fast, 3, true);
	sim_ns base_a = a.r.cpus[0].pstate_ns[1], base_b = b.r.cpus[0].pstate_ns[1];
	assert_true(base_a >= 3 * NS_PER_MS - 100 * NS_PER_US);
	assert_true(base_b < 100 * NS_PER_US);
	assert_true(a.r.extra[0].value > b.r.extra[0].value);
	result_free(&a.r);
	result_free(&b.r);
}

/* ---- the exit ramp after C1E ---- */

static void test_exit_ramp_rule(void **state)
{
	struct machine m = parse(TWO);
	assert_int_equal(exit_ramp_ns(&m, 800, 1000), 0); /* no slew rate: instant */
	m.vr_slew_mv_per_us = 10;
	assert_int_equal(exit_ramp_ns(&m, 800, 1000), 20 * NS_PER_US);
	assert_int_equal(exit_ramp_ns(&m, 800, 850), 5 * NS_PER_US);
	assert_int_equal(exit_ramp_ns(&m, 1000, 800), 0); /* nothing to ramp */
	assert_contains(parse_error(TWO "[cstate C7]\nexit_latency_us = 200\n"
				    "target_residency_us = 600\npower_mw = 0\nlowest_pstate = 2\n"),
			"lowest_pstate: '2' is not 0 or 1");
	assert_contains(parse_error("[machine]\nname = p\n[topology]\npackages = 1\n"
				    "cores_per_package = 1\nthreads_per_core = 1\nfreq_domain = core\n"
				    "[frequency]\nbase_khz = 1000000\n[pstates]\n1000000 = 900\n"
				    "[cstate POLL]\nexit_latency_us = 0\ntarget_residency_us = 0\n"
				    "power_mw = 0\npoll = 1\nlowest_pstate = 1\n[power]\nceff_nf = 1\n"
				    "leak_w = 1\nuncore_w = 1\nplatform_w = 1\n"),
			"lowest_pstate = 1 on a polling state");
	assert_contains(parse_error("[machine]\nname = p\n[topology]\npackages = 1\n"
				    "cores_per_package = 1\nthreads_per_core = 1\nfreq_domain = core\n"
				    "[frequency]\nbase_khz = 1000000\n[pstates]\n1000000 = 900\n"
				    "[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 1\n"
				    "power_mw = 0\n[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 1\n"
				    "platform_w = 1\nvr_slew_mv_per_us = -1\n"),
			"vr_slew_mv_per_us = -1 is out of range");
}

/* A core woken from C1E runs at its lowest P-state (1 GHz) while its
 * voltage climbs back to the 2 GHz point: (1000 - 800) mV at 10 mV/us, 20
 * us a wakeup; without the ramp (no slew rate, or a state that keeps the
 * clock) it never leaves 2 GHz. */
static void test_exit_ramp_after_c1e(void **state)
{
#define C1E_MACHINE(flag, slew)                                                                \
	"[machine]\nname = c1e\n[topology]\npackages = 1\ncores_per_package = 1\n"           \
	"threads_per_core = 1\nfreq_domain = core\n[frequency]\nbase_khz = 2000000\n"           \
	"transition_latency_us = 0\n[pstates]\n1000000 = 800\n2000000 = 1000\n"                \
	"[cstate C1E]\nexit_latency_us = 10\ntarget_residency_us = 20\nwake_us = 2\n"          \
	"power_mw = 100\nturbo_active = 1\nlowest_pstate = " flag "\n"                            \
	"[power]\nceff_nf = 1\nleak_w = 1\nleak_beta = 0\nuncore_w = 1\nplatform_w = 1\n"      \
	"vr_slew_mv_per_us = " slew "\n"
	const char *with = C1E_MACHINE("1", "10"), *flat = C1E_MACHINE("0", "10");
	const char *noslew = C1E_MACHINE("1", "0");
#undef C1E_MACHINE
	const char *sets[] = { "tasks=1", "period_us=1000", "run_us=400", "jitter_pct=0" };
	struct run a, b, c;
	simtest_run(&a, with, 0, "periodic", "performance", 0.2, 1, quiet, 4, sets, 4, true);
	simtest_run(&b, flat, 0, "periodic", "performance", 0.2, 1, quiet, 4, sets, 4, true);
	simtest_run(&c, noslew, 0, "periodic", "performance", 0.2, 1, quiet, 4, sets, 4, true);
	uint64_t wakeups = a.r.cpus[0].cstate_usage[0];
	assert_true(wakeups >= 190);
	sim_ns low = a.r.cpus[0].pstate_ns[0];
	assert_true(low >= (sim_ns)(wakeups - 2) * 20 * NS_PER_US);
	assert_true(low <= (sim_ns)(wakeups + 2) * 20 * NS_PER_US);
	assert_true(b.r.cpus[0].pstate_ns[0] == 0);
	assert_true(c.r.cpus[0].pstate_ns[0] == 0);
	/* The work at 1 GHz takes longer: more C0 time, the same work done. */
	assert_true(a.r.cpus[0].c0_ns > b.r.cpus[0].c0_ns + (sim_ns)wakeups * 5 * NS_PER_US);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
}

/* ---- idle power at the domain's voltage ---- */

/* Two cores on one VID (freq_domain = package), leakage 1 W x V / 1 V: a
 * halted core leaks at the running core's 1.0 V (1 W) while the other
 * runs, at the lowest P-state's 0.8 V once both halt and the package is
 * in its Extended HALT; a state without leak_at_vid draws its power_mw. */
static void test_idle_leak_at_vid(void **state)
{
#define VID_MACHINE(flag)                                                                     \
	"[machine]\nname = vid\n[topology]\npackages = 1\ncores_per_package = 2\n"            \
	"threads_per_core = 1\nfreq_domain = package\n[frequency]\nbase_khz = 2000000\n"      \
	"transition_latency_us = 0\n[pstates]\n1000000 = 800\n2000000 = 1000\n"               \
	"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 1\npower_mw = 500\n"         \
	"leak_at_vid = " flag "\n[package_cstate C1E]\nrequires = C1\nexit_latency_us = 10\n" \
	"target_residency_us = 20\npower_mw = 100\n"                                          \
	"[power]\nceff_nf = 1\nleak_w = 1\nleak_beta = 0\nuncore_w = 1\nplatform_w = 1\n"
	const char *vid = VID_MACHINE("1"), *flat = VID_MACHINE("0");
#undef VID_MACHINE
	const char *busy[] = { "tasks=1", "work_ms=1000", "pin_cpu=0" };
	const char *none[] = { "tasks=1", "period_us=1000000", "run_us=0" };
	struct run a, b, idle;
	simtest_run(&a, vid, 0, "batch", "performance", 0.1, 1, quiet, 4, busy, 3, true);
	simtest_run(&b, flat, 0, "batch", "performance", 0.1, 1, quiet, 4, busy, 3, true);
	simtest_run(&idle, vid, 0, "periodic", "performance", 0.1, 1, quiet, 4, none, 3, true);
	/* core 0 runs at 1.0 V (1 W), core 1 halts at 1.0 V (1 W) or 0.5 W */
	assert_near(a.r.energy_core_static_j, 0.1 * (1.0 + 1.0), 0.01);
	assert_near(b.r.energy_core_static_j, 0.1 * (1.0 + 0.5), 0.01);
	/* both halted, the package in C1E: 0.8 W each */
	assert_near(idle.r.energy_core_static_j, 0.1 * 2 * 0.8, 0.01);
	assert_contains(parse_error("[machine]\nname = p\n[topology]\npackages = 1\n"
				    "cores_per_package = 1\nthreads_per_core = 1\nfreq_domain = core\n"
				    "[frequency]\nbase_khz = 1000000\n[pstates]\n1000000 = 900\n"
				    "[cstate POLL]\nexit_latency_us = 0\ntarget_residency_us = 0\n"
				    "power_mw = 0\npoll = 1\nleak_at_vid = 1\n[power]\nceff_nf = 1\n"
				    "leak_w = 1\nuncore_w = 1\nplatform_w = 1\n"),
			"leak_at_vid = 1 on a polling state");
	result_free(&a.r);
	result_free(&b.r);
	result_free(&idle.r);
}

/* The halted core's leakage follows the running core's voltage when the
 * turbo ceiling moves too: CPU 1 runs 10 ms at the start (two active cores:
 * the 2 GHz ceiling, 1.0 V), then halts in a C1 that does not count as
 * active, so CPU 0 takes the one-core turbo bin (3 GHz, 1.2 V) and the
 * halted core leaks at 1.2 V with it. Leakage is 1 W x V / 1.2 V. */
static void test_idle_leak_at_vid_follows_turbo(void **state)
{
	const char *ini =
		"[machine]\nname = vidturbo\n[topology]\npackages = 1\ncores_per_package = 2\n"
		"threads_per_core = 1\nfreq_domain = package\n[frequency]\nbase_khz = 2000000\n"
		"transition_latency_us = 0\n[pstates]\n1000000 = 800\n2000000 = 1000\n"
		"3000000 = 1200\n[turbo]\n3000000 = 1\n"
		"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 1\npower_mw = 500\n"
		"leak_at_vid = 1\nturbo_active = 0\n"
		"[power]\nceff_nf = 1\nleak_w = 1\nleak_beta = 0\nuncore_w = 1\nplatform_w = 1\n";
	static const char *const json =
		"{ \"global\" : { \"duration\" : -1 },\n"
		"  \"tasks\" : {\n"
		"    \"hot\" : { \"loop\" : 1, \"cpus\" : [ 0 ],\n"
		"              \"phases\" : { \"p\" : { \"run\" : 10000000, \"sleep\" : 1000 } } },\n"
		"    \"short\" : { \"loop\" : 1, \"cpus\" : [ 1 ],\n"
		"              \"phases\" : { \"p\" : { \"run\" : 10000, \"sleep\" : 100000000 } } } } }\n";
	char path[] = "/tmp/pmlab-test-vidturbo-XXXXXX";
	char wl[64];
	simtest_rtapp_file(path, wl, sizeof(wl), json);
	struct run r;
	simtest_run(&r, ini, 0, wl, "performance", 0.1, 1, quiet, 4, NULL, 0, true);
	unlink(path);
	/* C0 time at each P-state at its voltage; CPU 1's halt at CPU 0's. */
	const double leak[3] = { 0.8 / 1.2, 1.0 / 1.2, 1.2 / 1.2 };
	double want = 0, c0_1 = 0;
	for (int k = 0; k < 3; k++) {
		want += (double)(r.r.cpus[0].pstate_ns[k] + r.r.cpus[1].pstate_ns[k]) * 1e-9 * leak[k];
		c0_1 += (double)r.r.cpus[1].pstate_ns[k] * 1e-9;
	}
	/* CPU 0 ran the whole run, most of it in the one-core bin. */
	assert_true((double)r.r.cpus[0].pstate_ns[2] * 1e-9 > 0.08);
	assert_true(c0_1 > 0.005 && c0_1 < 0.02);
	want += (0.1 - c0_1) * leak[2];
	assert_near(r.r.energy_core_static_j, want, 0.002);
	result_free(&r.r);
}

/* ---- the platform ---- */

static void test_platform_rules(void **state)
{
	struct machine m = parse(TWO "[platform]\npsu_w = 100\npsu_eff_10_pct = 80\n"
				 "psu_eff_20_pct = 85\npsu_eff_50_pct = 90\npsu_eff_100_pct = 88\n"
				 "fan_min_w = 1\nfan_max_w = 9\n");
	/* 35 W of 100: halfway between the 20 % and 50 % points, 87.5 % */
	assert_near(platform_wall_w(&m, 35), 35 / 0.875, 1e-12);
	assert_near(platform_wall_w(&m, 5), 5 / 0.80, 1e-12);      /* flat below 10 % */
	assert_near(platform_wall_w(&m, 150), 150 / 0.88, 1e-12);  /* and above 100 % */
	/* Fans: the cube of the speed, the speed the packages' power over TDP
	 * (10 W): 5 W gives 1 + 8 x 0.125 */
	assert_near(platform_fan_w(&m, 5, 1), 2, 1e-12);
	assert_near(platform_fan_w(&m, 50, 1), 9, 1e-12);
	struct machine plain = parse(TWO);
	assert_near(platform_wall_w(&plain, 35), 35, 1e-12);
	assert_near(platform_fan_w(&plain, 5, 1), 0, 1e-12);
}

/* A run's platform energy: the floor, plus what the PSU loses on all of
 * it. */
static void test_platform_energy(void **state)
{
	const char *ini = TWO "[platform]\npsu_w = 1000\npsu_eff_10_pct = 80\npsu_eff_20_pct = 80\n"
			  "psu_eff_50_pct = 80\npsu_eff_100_pct = 80\n";
	const char *sets[] = { "tasks=1", "work_ms=100" };
	struct run r;
	simtest_run(&r, ini, 0, "batch", "performance", 1, 1, quiet, 4, sets, 2, true);
	double secs = (double)r.r.duration_ns * 1e-9;
	double pkg = r.r.energy_core_dynamic_j + r.r.energy_core_static_j + r.r.energy_uncore_j;
	assert_near(r.r.platform.floor_j, 10 * secs, 1e-9);
	assert_near(r.r.platform.psu_loss_j, (pkg + 10 * secs) * 0.25, 1e-6);
	assert_near(r.r.energy_platform_j, r.r.platform.floor_j + r.r.platform.psu_loss_j, 1e-9);
	result_free(&r.r);
}

/* ---- tuned's dynamic PM QoS ---- */

/* Loaded (one busy task: load average 1): latency_low, so C6 (100 us)
 * is out under a 50 us low limit; lightly loaded (a task that runs 1 % of
 * the time: load average ~0): latency_high admits it. */
static void test_pmqos_dynamic(void **state)
{
	const char *busy[] = { "tasks=1", "period_us=10000", "run_us=9000", "jitter_pct=0",
			       "pm_qos_dynamic=50,1000,0.2" };
	const char *light[] = { "tasks=1", "period_us=10000", "run_us=100", "jitter_pct=0",
				"pm_qos_dynamic=50,1000,0.2" };
	const char *off[] = { "tasks=1", "period_us=10000", "run_us=9000", "jitter_pct=0" };
	struct run a, b, c, e;
	simtest_run_idle(&a, TWO, 1, "periodic", "performance", "menu", 12, 1, quiet, 4, busy, 5,
			 false);
	/* deepest, blind, is asked again when the limit moves (the idle loop
	 * keeps its answer per limit); --check compares the kept one. */
	simtest_run_idle(&e, TWO, 1, "periodic", "performance", "deepest", 12, 1, quiet, 4, busy, 5,
			 true);
	simtest_run_idle(&b, TWO, 1, "periodic", "performance", "menu", 12, 1, quiet, 4, light, 5,
			 false);
	simtest_run_idle(&c, TWO, 1, "periodic", "performance", "menu", 12, 1, quiet, 4, off, 4,
			 false);
	/* (before the first load sample, at the first tick, nothing limits) */
	int c6 = 1;
	assert_true(a.r.cpus[0].cstate_ns[c6] < NS_PER_MS);
	assert_true(e.r.cpus[0].cstate_ns[c6] < NS_PER_MS);
	assert_true(e.r.cpus[0].cstate_ns[0] > NS_PER_SEC);
	assert_true(b.r.cpus[0].cstate_ns[c6] > NS_PER_SEC);
	assert_true(c.r.cpus[0].cstate_ns[c6] > 100 * NS_PER_MS);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
	result_free(&e.r);

	struct pm_diag d = { { 0 } };
	struct machine m = parse(TWO);
	const char *bad[] = { "pm_qos_dynamic=100,1000" };
	struct sim_config cfg = { .machine = &m, .workload = "batch", .cpufreq = "performance",
				  .cpuidle = "menu", .duration = NS_PER_SEC, .seed = 1, .nsets = 1,
				  .sets = bad };
	struct sim *s;
	assert_int_not_equal(sim_create(&s, &cfg, &d), 0);
	assert_contains(d.msg, "--set pm_qos_dynamic=100,1000: expected LOW,HIGH,THRESHOLD");
	sim_destroy(s);
}

/* ---- writeback ---- */

static void test_writeback_pattern(void **state)
{
	struct machine m = parse(TWO MEMORY "size_mb = 1000\n");
	/* 1 MB/s for 30 s is 30 MB, under 10 % of 1000 MB: a burst every 5 s */
	assert_int_equal(writeback_period(&m, 10, 500, 3000, 1e6), 5 * NS_PER_SEC);
	/* 10 MB/s: 300 MB over the background threshold: continuous */
	assert_int_equal(writeback_period(&m, 10, 500, 3000, 10e6), 100 * NS_PER_MS);
	/* a higher threshold keeps it periodic; no periodic writeback: 0 */
	assert_int_equal(writeback_period(&m, 40, 500, 3000, 10e6), 5 * NS_PER_SEC);
	assert_int_equal(writeback_period(&m, 40, 0, 3000, 1e6), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_parse_and_round_trip),
		cmocka_unit_test(test_uncore_power_rule),
		cmocka_unit_test(test_uncore_follows_cores_and_epb),
		cmocka_unit_test(test_memory_latency_rule),
		cmocka_unit_test(test_memory_stall_scales_with_clocks),
		cmocka_unit_test(test_memory_scaling_haswell_preset),
		cmocka_unit_test(test_memory_saturation_rule),
		cmocka_unit_test(test_memory_bandwidth_shared),
		cmocka_unit_test(test_memory_bandwidth_bound_follows_inputs),
		cmocka_unit_test(test_memory_no_stall_burst),
		cmocka_unit_test(test_coherence_across_packages),
		cmocka_unit_test(test_epb_rules),
		cmocka_unit_test(test_epb_demotion),
		cmocka_unit_test(test_epb_turbo_delay),
		cmocka_unit_test(test_exit_ramp_rule),
		cmocka_unit_test(test_exit_ramp_after_c1e),
		cmocka_unit_test(test_idle_leak_at_vid),
		cmocka_unit_test(test_idle_leak_at_vid_follows_turbo),
		cmocka_unit_test(test_platform_rules),
		cmocka_unit_test(test_platform_energy),
		cmocka_unit_test(test_pmqos_dynamic),
		cmocka_unit_test(test_writeback_pattern),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
