// SPDX-License-Identifier: GPL-2.0-only
/* Machine model: presets, INI parsing and writing, topology helpers, and
 * the exact line and words of every kind of bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/rng.h"
#include "machine/machine.h"

#define FIXTURES PMLAB_SOURCE_ROOT "/tests/fixtures/machines/"

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void load_preset(struct machine *m, const char *name)
{
	struct pm_diag d = { "" };
	if (machine_load(m, name, &d) != 0)
		fail_msg("%s: %s", name, d.msg);
}

/* ---- presets ---- */

static void test_presets_parse_and_validate(void **state)
{
	(void)state;
	assert_int_equal(machine_preset_count(), 15);
	for (int i = 0; i < machine_preset_count(); i++) {
		struct machine m;
		struct pm_diag d = { "" };
		const char *name = machine_preset_name(i);
		if (machine_parse(&m, machine_preset_text(i), name, &d) != 0)
			fail_msg("%s", d.msg);
		if (machine_validate(&m, name, &d) != 0)
			fail_msg("%s", d.msg);
		/* the preset is named after its file and says so itself */
		assert_string_equal(m.name, name);
		assert_int_equal(m.online_cpus, machine_possible_cpus(&m));
		if (i > 0)
			assert_true(strcmp(machine_preset_name(i - 1), name) < 0);
	}
	assert_null(machine_preset_name(-1));
	assert_null(machine_preset_text(machine_preset_count()));
}

/* Every data/machines/NAME.ini is compiled in, unchanged, under its basename. */
static void test_presets_match_data_dir(void **state)
{
	DIR *dir = opendir(PMLAB_SOURCE_ROOT "/data/machines");
	struct dirent *e;
	int files = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".ini") != 0)
			continue;
		char name[256], path[1024];
		snprintf(name, sizeof(name), "%.*s", (int)(n - 4), e->d_name);
		snprintf(path, sizeof(path), "%s/data/machines/%s", PMLAB_SOURCE_ROOT, e->d_name);
		int found = -1;
		for (int i = 0; i < machine_preset_count(); i++)
			if (strcmp(machine_preset_name(i), name) == 0)
				found = i;
		if (found < 0)
			fail_msg("%s is not a built-in preset (list it in src/machine/meson.build)",
				 e->d_name);
		char *text = read_file(path);
		assert_string_equal(text, machine_preset_text(found));
		free(text);

		struct machine m;
		struct pm_diag d = { "" };
		if (machine_load(&m, path, &d) != 0)
			fail_msg("%s", d.msg);
		assert_string_equal(m.name, name);
		files++;
	}
	closedir(dir);
	assert_int_equal(files, machine_preset_count());
}

static void assert_machines_equal(const struct machine *a, const struct machine *b)
{
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->description, b->description);
	assert_true(a->tdp_w == b->tdp_w);
	assert_int_equal(a->packages, b->packages);
	assert_int_equal(a->cores_per_package, b->cores_per_package);
	assert_int_equal(a->threads_per_core, b->threads_per_core);
	assert_int_equal(a->llc_cores, b->llc_cores);
	assert_int_equal(a->freq_domain, b->freq_domain);
	assert_int_equal(a->cluster_cores, b->cluster_cores);
	assert_int_equal(a->online_cpus, b->online_cpus);
	assert_int_equal(a->base_khz, b->base_khz);
	assert_int_equal(a->transition_latency_ns, b->transition_latency_ns);
	assert_int_equal(a->freq_invariance, b->freq_invariance);
	assert_int_equal(a->cpufreq_driver, b->cpufreq_driver);
	assert_int_equal(a->cpuidle_driver, b->cpuidle_driver);
	assert_int_equal(a->pm_profile, b->pm_profile);
	assert_int_equal(a->hwp, b->hwp);
	assert_int_equal(a->lowest_nonlinear_khz, b->lowest_nonlinear_khz);
	assert_int_equal(a->perf_scaling_khz, b->perf_scaling_khz);
	assert_int_equal(a->epp_balance_perf, b->epp_balance_perf);
	assert_int_equal(a->ntypes, b->ntypes);
	for (int t = 0; t < a->ntypes; t++) {
		assert_int_equal(a->types[t].lowest_nonlinear_khz, b->types[t].lowest_nonlinear_khz);
		assert_int_equal(a->types[t].perf_scaling_khz, b->types[t].perf_scaling_khz);
	}
	assert_int_equal(a->npstates, b->npstates);
	for (int i = 0; i < a->npstates; i++) {
		assert_int_equal(a->pstates[i].khz, b->pstates[i].khz);
		assert_int_equal(a->pstates[i].mv, b->pstates[i].mv);
	}
	assert_int_equal(a->nturbo, b->nturbo);
	for (int i = 0; i < a->nturbo; i++) {
		assert_int_equal(a->turbo[i].khz, b->turbo[i].khz);
		assert_int_equal(a->turbo[i].max_active_cores, b->turbo[i].max_active_cores);
	}
	assert_int_equal(a->ncstates, b->ncstates);
	for (int i = 0; i < a->ncstates; i++) {
		const struct cstate *x = &a->cstates[i], *y = &b->cstates[i];
		assert_string_equal(x->name, y->name);
		assert_string_equal(x->desc, y->desc);
		assert_int_equal(x->exit_ns, y->exit_ns);
		assert_int_equal(x->residency_ns, y->residency_ns);
		if (x->power_w != y->power_w)
			fail_msg("C-state %s power %.17g != %.17g", x->name, x->power_w, y->power_w);
		assert_int_equal(x->poll, y->poll);
	}
	assert_int_equal(a->npkg_cstates, b->npkg_cstates);
	for (int i = 0; i < a->npkg_cstates; i++) {
		const struct pkg_cstate *x = &a->pkg_cstates[i], *y = &b->pkg_cstates[i];
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->requires, y->requires);
		assert_int_equal(x->exit_ns, y->exit_ns);
		assert_int_equal(x->residency_ns, y->residency_ns);
		assert_true(x->power_w == y->power_w);
	}
	assert_true(a->ceff_nf == b->ceff_nf);
	assert_true(a->leak_w == b->leak_w);
	assert_true(a->leak_beta == b->leak_beta);
	assert_true(a->smt_activity == b->smt_activity);
	assert_true(a->smt_throughput == b->smt_throughput);
	assert_true(a->uncore_w == b->uncore_w);
	assert_true(a->platform_w == b->platform_w);
	assert_int_equal(a->refill_ns, b->refill_ns);
	assert_int_equal(a->tick_cost_ns, b->tick_cost_ns);
	assert_int_equal(a->tick_stop_ns, b->tick_stop_ns);
	assert_int_equal(a->tick_restart_ns, b->tick_restart_ns);
	assert_int_equal(a->idle_entry_ns, b->idle_entry_ns);
	assert_int_equal(a->idle_exit_ns, b->idle_exit_ns);
	assert_true(a->bg_wakeups_per_s == b->bg_wakeups_per_s);
	assert_true(fabs(a->bg_jitter - b->bg_jitter) < 1e-12);
	assert_true(fabs(a->bg_timer_share - b->bg_timer_share) < 1e-12);
	assert_int_equal(a->bg_handler_ns, b->bg_handler_ns);
}

/* to_ini -> parse gives the same machine, and writing that again gives
 * the same text (the written form is canonical). */
static void round_trip(const struct machine *m)
{
	struct machine back;
	struct pm_diag d = { "" };
	char *ini = machine_to_ini(m);

	assert_non_null(ini);
	if (machine_parse(&back, ini, "round-trip", &d) != 0)
		fail_msg("%s\n%s", d.msg, ini);
	assert_machines_equal(m, &back);
	char *again = machine_to_ini(&back);
	assert_string_equal(ini, again);
	free(again);
	free(ini);
}

static void test_round_trip_presets(void **state)
{
	(void)state;
	for (int i = 0; i < machine_preset_count(); i++) {
		struct machine m;
		load_preset(&m, machine_preset_name(i));
		round_trip(&m);
		machine_set_online(&m, 3, &(struct pm_diag){ "" });
		round_trip(&m);
	}
}

/* Values that are not short decimals still come back bit for bit. */
static void test_round_trip_awkward_values(void **state)
{
	struct machine m;
	struct rng r;

	(void)state;
	load_preset(&m, "power9-2n128");
	rng_init(&r, 99, 0);
	for (int i = 0; i < 2000; i++) {
		m.ceff_nf = 0.001 + rng_uniform(&r) * 10;
		m.leak_beta = rng_uniform(&r) * 5;
		m.platform_w = rng_uniform(&r) * 1e3;
		m.tdp_w = i % 2 ? 1e-300 : 123456.789;
		/* power_mw in the file: any value the parser can produce */
		m.cstates[0].power_w = (rng_uniform(&r) * 1e4) / 1000;
		m.cstates[6].power_w = (double)rng_below(&r, 100000) * 1e-7 / 1000;
		m.transition_latency_ns = (sim_ns)rng_below(&r, 1000000000);
		m.refill_ns = (sim_ns)rng_below(&r, 10000000);
		round_trip(&m);
	}
}

static void test_round_trip_fixture(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };

	(void)state;
	if (machine_load(&m, FIXTURES "good-minimal.ini", &d) != 0)
		fail_msg("%s", d.msg);
	round_trip(&m);
	/* hwp, perf_scaling_khz and lowest_nonlinear_khz, the machine's and
	 * the types' own */
	if (machine_load(&m, FIXTURES "good-hybrid.ini", &d) != 0)
		fail_msg("%s", d.msg);
	assert_int_equal(m.hwp, 1);
	assert_int_equal(m.types[0].perf_scaling_khz, 78741);
	assert_int_equal(m.types[1].perf_scaling_khz, 100000);
	assert_int_equal(m.types[1].lowest_nonlinear_khz, 1000000);
	round_trip(&m);
}

/* ---- what the parser reads ---- */

static void test_good_minimal(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };

	(void)state;
	if (machine_load(&m, FIXTURES "good-minimal.ini", &d) != 0)
		fail_msg("%s", d.msg);
	assert_string_equal(m.name, "minimal");
	assert_string_equal(m.description, "A small test machine");
	assert_int_equal(m.packages, 1);
	assert_int_equal(m.cores_per_package, 2);
	assert_int_equal(m.llc_cores, 2);  /* default: all cores of the package */
	assert_int_equal(m.online_cpus, 2);
	assert_int_equal(m.freq_domain, FREQ_DOMAIN_PACKAGE);
	assert_int_equal(m.cluster_cores, 0);
	assert_int_equal(m.base_khz, 2000000);
	assert_int_equal(m.transition_latency_ns, 12500);
	assert_int_equal(m.npstates, 3);
	assert_int_equal(m.pstates[0].khz, 1000000);
	assert_int_equal(m.pstates[0].mv, 800);
	assert_int_equal(m.pstates[1].khz, 1500000);
	assert_int_equal(m.pstates[2].khz, 2000000);
	assert_int_equal(m.pstates[2].mv, 1000);
	assert_int_equal(m.nturbo, 0);
	assert_int_equal(m.ncstates, 1);
	assert_int_equal(m.cstates[0].exit_ns, 1500);
	assert_int_equal(m.cstates[0].residency_ns, 3000);
	assert_true(m.cstates[0].power_w == 250.5 / 1000);
	assert_int_equal(m.cstates[0].poll, 0);
	assert_int_equal(m.npkg_cstates, 0);
	assert_true(m.smt_activity == 1.0);
	assert_true(m.smt_throughput == 1.0);
	assert_true(m.leak_beta == 0.0);
	assert_int_equal(m.refill_ns, 0);
}

static void test_bom_and_crlf(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };
	char *text = read_file(FIXTURES "good-minimal.ini");
	size_t n = strlen(text);
	char *crlf = malloc(3 + 2 * n + 1), *q = crlf;

	(void)state;
	memcpy(q, "\xef\xbb\xbf", 3);
	q += 3;
	for (size_t i = 0; i < n; i++) {
		if (text[i] == '\n')
			*q++ = '\r';
		*q++ = text[i];
	}
	*q = '\0';
	if (machine_parse(&m, crlf, "crlf", &d) != 0)
		fail_msg("%s", d.msg);
	assert_string_equal(m.name, "minimal");
	assert_string_equal(m.description, "A small test machine");
	free(crlf);
	free(text);
}

/* ---- topology ---- */

static void test_topology_i7(void **state)
{
	struct machine m;

	(void)state;
	load_preset(&m, "i7-4790");
	assert_int_equal(machine_possible_cpus(&m), 8);
	assert_int_equal(machine_cores(&m), 4);
	/* Linux numbering: cpus 0-3 are the first threads, 4-7 their siblings */
	assert_int_equal(machine_cpu_core(&m, 5), 1);
	assert_int_equal(machine_cpu_thread(&m, 5), 1);
	assert_int_equal(machine_cpu_package(&m, 5), 0);
	assert_int_equal(machine_cpu_core(&m, 3), 3);
	assert_int_equal(machine_cpu_thread(&m, 3), 0);
	assert_int_equal(machine_cpu_llc(&m, 7), 0);
	assert_int_equal(machine_freq_domains(&m), 1);
	assert_int_equal(machine_cpu_freq_domain(&m, 6), 0);
	assert_int_equal(machine_cpu_core(&m, 8), -1);
	assert_int_equal(machine_cpu_core(&m, -1), -1);
}

static void test_topology_xeon_2s(void **state)
{
	struct machine m;

	(void)state;
	load_preset(&m, "xeon-2s-quad");
	assert_int_equal(machine_possible_cpus(&m), 8);
	assert_int_equal(machine_cpu_package(&m, 3), 0);
	assert_int_equal(machine_cpu_package(&m, 4), 1);
	assert_int_equal(machine_cpu_core(&m, 4), 4);
	assert_int_equal(machine_cpu_thread(&m, 7), 0);
	assert_int_equal(machine_cpu_llc(&m, 3), 0);
	assert_int_equal(machine_cpu_llc(&m, 4), 1);
	assert_int_equal(machine_freq_domains(&m), 2);
	assert_int_equal(machine_cpu_freq_domain(&m, 5), 1);
}

static void test_topology_hsx_per_core(void **state)
{
	struct machine m;

	(void)state;
	load_preset(&m, "xeon-e5-2650l-v3");
	assert_int_equal(machine_possible_cpus(&m), 24);
	assert_int_equal(machine_freq_domains(&m), 12);
	assert_int_equal(machine_cpu_core(&m, 13), 1);
	assert_int_equal(machine_cpu_thread(&m, 13), 1);
	assert_int_equal(machine_cpu_freq_domain(&m, 13), 1);
	assert_int_equal(machine_cpu_freq_domain(&m, 11), 11);
	assert_int_equal(machine_cpu_llc(&m, 23), 0);
}

static void test_topology_power9(void **state)
{
	struct machine m;

	(void)state;
	load_preset(&m, "power9-2n128");
	assert_int_equal(machine_possible_cpus(&m), 128);
	assert_int_equal(machine_cores(&m), 32);
	assert_int_equal(machine_cpu_core(&m, 31), 31);
	assert_int_equal(machine_cpu_package(&m, 31), 1);
	assert_int_equal(machine_cpu_thread(&m, 32), 1);
	assert_int_equal(machine_cpu_core(&m, 32), 0);
	assert_int_equal(machine_cpu_core(&m, 127), 31);
	assert_int_equal(machine_cpu_thread(&m, 127), 3);
	/* L3 region per core pair, global index */
	assert_int_equal(machine_cpu_llc(&m, 5), 2);
	assert_int_equal(machine_cpu_llc(&m, 17), 8);
	assert_int_equal(machine_cpu_llc(&m, 16 + 32), 8);
	/* one clock per quad */
	assert_int_equal(machine_freq_domains(&m), 8);
	assert_int_equal(machine_cpu_freq_domain(&m, 5), 1);
	assert_int_equal(machine_cpu_freq_domain(&m, 17), 4);
	assert_int_equal(machine_cpu_freq_domain(&m, 127), 7);
	assert_int_equal(m.cstates[0].poll, 1);
	assert_int_equal(machine_cstate_index(&m, "stop2"), 4);
}

/* A hybrid machine (issue 16): types in declaration order within each
 * package, CPUs numbered thread-major skipping the threads a type lacks,
 * clocks per package and type, each type resolved from the machine's
 * defaults and its own sections, and a round trip that keeps it all. */
static void test_topology_hybrid(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };

	(void)state;
	if (machine_load(&m, FIXTURES "good-hybrid.ini", &d) != 0)
		fail_msg("%s", d.msg);
	assert_int_equal(m.ntypes, 2);
	assert_int_equal(m.turbo_control, TURBO_HARDWARE);
	assert_true(m.pl1_w == 8 && m.pl2_w == 12);
	assert_int_equal(m.pl1_window_ns, 100 * NS_PER_MS);
	assert_int_equal(m.pl2_window_ns, 2440 * NS_PER_US);
	/* 2 packages x (2 big x 2 threads + 4 little) */
	assert_int_equal(machine_possible_cpus(&m), 16);
	assert_int_equal(m.online_cpus, 16);
	assert_int_equal(machine_cpu_type(&m, 0), 0);
	assert_int_equal(machine_cpu_type(&m, 2), 1);
	assert_int_equal(machine_cpu_type(&m, 6), 0);  /* package 1's first big core */
	assert_int_equal(machine_cpu_package(&m, 6), 1);
	/* second threads: the big cores only, package by package */
	assert_int_equal(machine_cpu_core(&m, 12), 0);
	assert_int_equal(machine_cpu_thread(&m, 12), 1);
	assert_int_equal(machine_cpu_core(&m, 14), 6);
	assert_int_equal(machine_cpu_core(&m, 15), 7);
	assert_int_equal(machine_cpu_core(&m, 16), -1);
	/* clocks: 2 big cores each, one cluster of 4 little, per package */
	assert_int_equal(machine_freq_domains(&m), 6);
	assert_int_equal(machine_cpu_freq_domain(&m, 1), 1);
	assert_int_equal(machine_cpu_freq_domain(&m, 5), 2);
	assert_int_equal(machine_cpu_freq_domain(&m, 13), 1);
	assert_int_equal(machine_cpu_freq_domain(&m, 6), 3);
	assert_int_equal(machine_cpu_freq_domain(&m, 11), 5);

	const struct cpu_type *big = &m.types[0], *little = &m.types[1];
	assert_string_equal(big->name, "big");
	assert_int_equal(big->capacity, 1024);
	assert_int_equal(big->threads_per_core, 2);
	assert_int_equal(big->npstates, 3);            /* the machine's */
	assert_int_equal(big->nturbo, 1);
	assert_true(big->smt_throughput == 0.6);
	assert_int_equal(little->capacity, 512);
	assert_int_equal(little->threads_per_core, 1);
	assert_int_equal(little->freq_domain, FREQ_DOMAIN_CLUSTER);
	assert_int_equal(little->npstates, 4);          /* its own */
	assert_int_equal(little->pstates[0].khz, 500000);
	assert_int_equal(little->nturbo, 0);            /* own P-states: no machine bins */
	assert_true(little->ceff_nf == 0.5 && little->leak_beta == 3);
	assert_true(little->smt_throughput == 1.0 && little->smt_activity == 1.0);
	assert_int_equal(little->cstates[0].exit_ns, 1000); /* its own C1 */
	assert_int_equal(little->cstates[0].residency_ns, 4000); /* the machine's */
	assert_true(little->cstates[0].power_w == 0.1);
	assert_int_equal(little->cstates[1].wake_ns, 40000);
	int n;
	assert_ptr_equal(machine_cpu_pstates(&m, 3, &n), little->pstates);
	assert_int_equal(n, 4);
	assert_int_equal(machine_type_turbo_limit_khz(little, 1), 2000000);
	assert_int_equal(machine_type_turbo_limit_khz(big, 2), 2000000);
	round_trip(&m);
	machine_set_online(&m, 5, &d);
	round_trip(&m);

	/* A machine without types: one implicit type made of its own fields. */
	struct cpu_type t;
	load_preset(&m, "i7-4790");
	assert_int_equal(m.ntypes, 0);
	assert_int_equal(machine_ntypes(&m), 1);
	assert_int_equal(machine_cpu_type(&m, 7), 0);
	machine_type_get(&m, 0, &t);
	assert_int_equal(t.cores, 4);
	assert_int_equal(t.capacity, 1024);
	assert_int_equal(t.npstates, m.npstates);
	assert_int_equal(t.turbo[0].khz, 4000000);
	machine_types_resolve(&m);
	assert_int_equal(m.ntypes, 1);
	assert_int_equal(machine_possible_cpus(&m), 8);
	assert_int_equal(machine_freq_domains(&m), 1);
	assert_int_equal(machine_validate(&m, "resolved", &d), 0);
}

/* ---- frequency helpers ---- */

static void test_turbo_limit(void **state)
{
	struct machine m;

	(void)state;
	load_preset(&m, "i7-4790");
	assert_int_equal(machine_turbo_limit_khz(&m, 1), 4000000);
	assert_int_equal(machine_turbo_limit_khz(&m, 2), 4000000);
	assert_int_equal(machine_turbo_limit_khz(&m, 3), 3900000);
	assert_int_equal(machine_turbo_limit_khz(&m, 4), 3800000);
	assert_int_equal(machine_turbo_limit_khz(&m, 5), 3600000); /* beyond every bin: base */
	assert_int_equal(machine_turbo_limit_khz(&m, 0), 4000000);
	assert_int_equal(machine_turbo_limit_khz(&m, -2), 4000000);

	load_preset(&m, "xeon-e5-2650l-v3");
	assert_int_equal(machine_turbo_limit_khz(&m, 4), 2300000);
	assert_int_equal(machine_turbo_limit_khz(&m, 12), 2100000);

	struct pm_diag d = { "" };
	assert_int_equal(machine_load(&m, FIXTURES "good-minimal.ini", &d), 0);
	assert_int_equal(machine_turbo_limit_khz(&m, 1), 2000000); /* no bins: top P-state */
	assert_int_equal(machine_turbo_limit_khz(&m, 99), 2000000);
}

/* [costs] and [background]: the idle loop's and the tick's costs and the
 * background wakeups, with the documented defaults when a file says
 * nothing (the pre-issue-13 tick figures; the measured idle laptop). */
static void test_idle_costs_and_background(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };
	(void)state;
	assert_int_equal(machine_load(&m, FIXTURES "good-minimal.ini", &d), 0);
	assert_int_equal(m.tick_cost_ns, 1000);
	assert_int_equal(m.tick_stop_ns + m.tick_restart_ns, 2000);
	assert_int_equal(m.idle_entry_ns + m.idle_exit_ns, 0);
	assert_true(m.bg_wakeups_per_s == 80.0);
	assert_true(fabs(m.bg_timer_share - 0.72) < 1e-12);
	load_preset(&m, "i7-4790");
	assert_int_equal(m.tick_restart_ns, 330);
	assert_int_equal(m.idle_exit_ns, 280);
	assert_true(fabs(m.bg_jitter - 1.0) < 1e-12);
	assert_int_equal(m.bg_handler_ns, 2000);
	/* Every C-state of every preset has a measured or estimated wake time. */
	for (int i = 0; i < machine_preset_count(); i++) {
		load_preset(&m, machine_preset_name(i));
		for (int c = 0; c < m.ncstates; c++)
			if (!m.cstates[c].poll && m.cstates[c].exit_ns > 10 * NS_PER_US &&
			    !m.cstates[c].wake_ns && strcmp(m.name, "power9-2n128") != 0)
				fail_msg("%s: %s has no wake_us", m.name, m.cstates[c].name);
	}
}

/* The reference of the scheduler's frequency invariance, as the kernel
 * picks it (arch/x86/kernel/cpu/aperfmperf.c): the i7-4790's 4-core turbo
 * (3.8 GHz), its base with turbo off (arch_set_max_freq_ratio(true)); the
 * 1-core turbo; the highest P-state when the file says nothing; none on
 * Core 2 and POWER. A CPU with fewer than 4 cores has no 4-core ratio:
 * core_set_max_freq_ratio() takes the 1-core one. */
static void test_invariance_reference(void **state)
{
	struct machine m;
	(void)state;
	load_preset(&m, "i7-4790");
	assert_int_equal(m.freq_invariance, FIE_TURBO_4C);
	assert_int_equal(machine_invariance_khz(&m, 1), 3800000);
	assert_int_equal(machine_invariance_khz(&m, 0), 3600000);
	m.freq_invariance = FIE_TURBO_1C;
	assert_int_equal(machine_invariance_khz(&m, 1), 4000000);
	m.freq_invariance = FIE_BASE;
	assert_int_equal(machine_invariance_khz(&m, 1), 3600000);
	m.freq_invariance = FIE_TURBO_4C;
	m.cores_per_package = 2;
	assert_int_equal(machine_invariance_khz(&m, 1), 4000000);
	load_preset(&m, "xeon-2s-harpertown");
	assert_int_equal(machine_invariance_khz(&m, 1), 0);
	load_preset(&m, "power9-2n128");
	assert_int_equal(m.freq_invariance, FIE_NONE);
	struct pm_diag d = { "" };
	assert_int_equal(machine_load(&m, FIXTURES "good-minimal.ini", &d), 0);
	assert_int_equal(m.freq_invariance, FIE_MAX);
	assert_int_equal(machine_invariance_khz(&m, 1), 2000000);
	assert_string_equal(machine_invariance_name(FIE_TURBO_4C), "turbo_4c");
}

static void test_pstate_at_most_and_cstate_index(void **state)
{
	struct machine m;

	(void)state;
	load_preset(&m, "i7-4790");
	int i = machine_pstate_at_most(&m, 3650000);
	assert_int_equal(m.pstates[i].khz, 3600000);
	assert_int_equal(machine_pstate_at_most(&m, 3600000), i);
	assert_int_equal(machine_pstate_at_most(&m, 100), 0);
	assert_int_equal(machine_pstate_at_most(&m, 10000000), m.npstates - 1);
	assert_int_equal(machine_cstate_index(&m, "POLL"), 0);
	assert_int_equal(machine_cstate_index(&m, "C1"), 1);
	assert_int_equal(machine_cstate_index(&m, "C7s"), 5);
	assert_int_equal(machine_cstate_index(&m, "C7"), -1);
	assert_int_equal(m.pkg_cstates[3].requires, 5); /* PC7 requires C7s */
}

/* ---- online restriction and loading ---- */

static void test_set_online(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };

	(void)state;
	load_preset(&m, "xeon-e5-2650l-v3");
	assert_int_equal(machine_set_online(&m, 0, &d), -1);
	assert_string_equal(d.msg, "0 online CPUs is out of range for xeon-e5-2650l-v3 "
			    "(expected 1..24)");
	assert_int_equal(machine_set_online(&m, 25, &d), -1);
	assert_int_equal(m.online_cpus, 24);
	assert_int_equal(machine_set_online(&m, 4, &d), 0);
	assert_int_equal(m.online_cpus, 4);
	assert_int_equal(machine_validate(&m, "x", &d), 0);
	/* the first four CPUs are four distinct cores */
	for (int cpu = 0; cpu < 4; cpu++) {
		assert_int_equal(machine_cpu_core(&m, cpu), cpu);
		assert_int_equal(machine_cpu_thread(&m, cpu), 0);
	}
}

static void test_load_errors(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };

	(void)state;
	assert_int_equal(machine_load(&m, "nosuch", &d), -1);
	assert_string_equal(d.msg, "unknown machine 'nosuch' (expected one of: epyc-9555-2s, "
			    "epyc-vm-2c, hikey960, i5-10600k, i7-1260p, i7-4790, power9-2n128, "
			    "ryzen-7840u, xeon-2s-harpertown, xeon-2s-quad, xeon-8480-2s, "
			    "xeon-e3-1240-v5, xeon-e5-2650l-v3, xeon-e5-2670-v3-2s, xeon-e5-2698-v4-2s "
			    "or a path to an .ini file)");
	assert_int_equal(machine_load(&m, "/nonexistent/x.ini", &d), -1);
	assert_string_equal(d.msg, "/nonexistent/x.ini: cannot read: No such file or directory");
	/* ".ini" makes it a path even without a '/' */
	assert_int_equal(machine_load(&m, "i7-4790.ini", &d), -1);
	assert_string_equal(d.msg, "i7-4790.ini: cannot read: No such file or directory");
	assert_int_equal(machine_load(&m, PMLAB_SOURCE_ROOT "/data/machines", &d), -1);
	assert_non_null(strstr(d.msg, "cannot read"));
	/* A NUL byte is refused at its line. */
	char path[] = "/tmp/pmlab-nul-XXXXXX.ini";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[machine]\nname = a\0b\n", 21), 21);
	close(fd);
	assert_int_equal(machine_load(&m, path, &d), -1);
	char want[64];
	snprintf(want, sizeof(want), "%s:2: a NUL byte, byte 19 of the file", path);
	if (strncmp(d.msg, want, strlen(want)) != 0)
		fail_msg("got '%s', expected '%s...'", d.msg, want);
	unlink(path);
}

/* ---- bad input: exact line, key words ---- */

static const char *const base_lines[] = {
	"[machine]",                    /*  1 */
	"name = t",                     /*  2 */
	"[topology]",                   /*  3 */
	"packages = 1",                 /*  4 */
	"cores_per_package = 4",        /*  5 */
	"threads_per_core = 2",         /*  6 */
	"freq_domain = core",           /*  7 */
	"[frequency]",                  /*  8 */
	"base_khz = 2000000",           /*  9 */
	"transition_latency_us = 10",   /* 10 */
	"[pstates]",                    /* 11 */
	"1000000 = 800",                /* 12 */
	"2000000 = 1000",               /* 13 */
	"2400000 = 1100",               /* 14 */
	"[turbo]",                      /* 15 */
	"2400000 = 2",                  /* 16 */
	"[cstate C1]",                  /* 17 */
	"exit_latency_us = 2",          /* 18 */
	"target_residency_us = 2",      /* 19 */
	"power_mw = 500",               /* 20 */
	"[cstate C6]",                  /* 21 */
	"exit_latency_us = 100",        /* 22 */
	"target_residency_us = 400",    /* 23 */
	"power_mw = 10",                /* 24 */
	"[package_cstate PC6]",         /* 25 */
	"requires = C6",                /* 26 */
	"exit_latency_us = 50",         /* 27 */
	"target_residency_us = 500",    /* 28 */
	"power_mw = 1000",              /* 29 */
	"[power]",                      /* 30 */
	"ceff_nf = 2",                  /* 31 */
	"leak_w = 1",                   /* 32 */
	"smt_throughput = 0.6",         /* 33 */
	"uncore_w = 5",                 /* 34 */
	"platform_w = 20",              /* 35 */
};
#define NBASE ((int)(sizeof(base_lines) / sizeof(base_lines[0])))

/* The base text with lines from..to (1-based) replaced by repl, or repl
 * appended after the last line when from is 0. */
static char *mutate(int from, int to, const char *repl)
{
	size_t size = strlen(repl) + 2;
	for (int i = 0; i < NBASE; i++)
		size += strlen(base_lines[i]) + 1;
	char *s = malloc(size);
	assert_non_null(s);
	s[0] = '\0';
	for (int i = 1; i <= NBASE; i++) {
		if (i == from) {
			strcat(s, repl);
			strcat(s, "\n");
		}
		if (i >= from && i <= to)
			continue;
		strcat(s, base_lines[i - 1]);
		strcat(s, "\n");
	}
	if (from == 0) {
		strcat(s, repl);
		strcat(s, "\n");
	}
	return s;
}

/* Parses `text` as "t.ini" and expects failure at `line` (0: no line) with
 * message words `w1` and `w2` (may be NULL). */
static void expect_error(const char *text, int line, const char *w1, const char *w2)
{
	struct machine m;
	struct pm_diag d = { "" };
	char prefix[32];

	if (machine_parse(&m, text, "t.ini", &d) == 0)
		fail_msg("parsed, expected an error at line %d about '%s':\n%s", line, w1, text);
	if (line > 0)
		snprintf(prefix, sizeof(prefix), "t.ini:%d: ", line);
	else
		snprintf(prefix, sizeof(prefix), "t.ini: ");
	if (strncmp(d.msg, prefix, strlen(prefix)) != 0 || !strstr(d.msg, w1) ||
	    (w2 && !strstr(d.msg, w2)) || !strstr(d.msg, "(expected"))
		fail_msg("expected '%s...%s...%s' (expected ...)\n     got '%s'", prefix, w1,
			 w2 ? w2 : "", d.msg);
}

#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10

struct bad_case {
	int from, to;
	const char *repl;
	int line;
	const char *w1, *w2;
};

static const struct bad_case bad_cases[] = {
	/* syntax */
	{ 0, 0, "[bogus]\nx = 1", 36, "unknown section [bogus]", NULL },
	{ 0, 0, "[cache", 36, "no closing ']'", NULL },
	{ 3, 3, "[topology] junk", 3, "text after a section header", NULL },
	{ 3, 3, "[topology extra]", 3, "[topology] takes no name", NULL },
	{ 17, 17, "[cstate]", 17, "[cstate] has no name", NULL },
	{ 17, 17, "[cstate C 1]", 17, "cstate name 'C 1' is not valid", NULL },
	{ 0, 0, "this is not ini", 36, "not a 'key = value' line", NULL },
	{ 1, 1, "foo = 1\n[machine]", 1, "'foo' is outside any section", NULL },
	{ 2, 2, "description = " X100 X100, 2, "line is too long", NULL },
	{ 2, 2, "nmae = t", 2, "unknown key 'nmae' in [machine]", "name, description, tdp_w" },
	{ 18, 18, "exit_latency = 2", 18, "unknown key 'exit_latency' in [cstate C1]", NULL },
	/* what the processor offers a P-state driver (issue 16) */
	{ 10, 10, "lowest_nonlinear_khz = 900000", 10, "lowest_nonlinear_khz = 900000 is out of range",
	  "1000000..2000000" },
	{ 10, 10, "lowest_nonlinear_khz = 2400000", 10, "lowest_nonlinear_khz", "base_khz" },
	{ 10, 10, "hwp = 2", 10, "hwp", "0 or 1" },
	{ 10, 10, "epp_balance_performance = 0", 10, "epp_balance_performance = 0", "1..255" },
	{ 10, 10, "epp_balance_performance = 256", 10, "epp_balance_performance = 256", "1..255" },
	{ 10, 10, "perf_scaling_khz = 200000000", 10, "perf_scaling_khz", NULL },
	{ 2, 2, "cpufreq_driver = amd_pstate", 2, "amd_pstate", "amd-pstate-epp" },
	/* malformed numbers */
	{ 5, 5, "cores_per_package = four", 5, "cores_per_package: 'four' is not an integer", NULL },
	{ 5, 5, "cores_per_package = 5000000000", 5, "5000000000 is out of range", NULL },
	{ 9, 9, "base_khz = 2000000x", 9, "'2000000x' is not an integer", NULL },
	{ 31, 31, "ceff_nf = 2.0x", 31, "ceff_nf: '2.0x' is not a number", NULL },
	{ 31, 31, "ceff_nf = nan", 31, "ceff_nf: 'nan' is not a number", NULL },
	{ 31, 31, "ceff_nf = 0x10", 31, "is not a number", NULL },
	{ 12, 12, "1.5e6 = 800", 12, "pstate '1.5e6': not a frequency", NULL },
	{ 20, 20, "power_mw = 500\npoll = 2", 21, "'2' is not 0 or 1", NULL },
	{ 7, 7, "freq_domain = socket", 7, "'socket' is not a domain kind", "core, cluster or package" },
	{ 10, 10, "transition_latency_us = 1e10", 10, "out of range", NULL },
	{ 0, 0, "[background]\njitter_pct = 150", 37, "jitter_pct = 150 is out of range",
	  "0..100" },
	{ 0, 0, "[background]\nwakeups_per_s = -1", 37, "wakeups_per_s = -1 is out of range", NULL },
	{ 0, 0, "[costs]\ntick_restart_us = -2", 37, "tick_restart_us is out of range", NULL },
	{ 10, 10, "transition_latency_us = 10\nfreq_invariance = 2c", 11,
	  "freq_invariance: '2c' is not a frequency invariance reference",
	  "max|turbo_4c|turbo_1c|base|none" },
	/* frequencies and voltages */
	{ 12, 12, "0 = 800", 12, "pstate 0 kHz: frequency must be positive (expected kHz > 0)", NULL },
	{ 12, 12, "-1000000 = 800", 12, "frequency must be positive", NULL },
	{ 12, 12, "1000000000 = 800", 12, "frequency is too high", NULL },
	{ 13, 13, "2000000 = 0", 13, "pstate 2000000 kHz: voltage must be positive", NULL },
	{ 13, 13, "2000000 = -5", 13, "voltage must be positive", NULL },
	{ 14, 14, "2400000 = 900", 14, "voltage 900 mV is below", "rise with frequency" },
	{ 11, 14, "[pstates]", 11, "no P-states", NULL },
	{ 11, 16, "", 0, "no P-states", NULL },
	{ 13, 13, "2000000 = 1000\n1000000 = 900", 14, "duplicate P-state 1000000 kHz", "line 12" },
	{ 9, 9, "base_khz = 1500000", 9, "base_khz = 1500000 is not a P-state", "1000000 or 2000000" },
	{ 9, 9, "base_khz = 3000000", 9, "above the highest P-state 2400000", NULL },
	{ 9, 9, "base_khz = 500000", 9, "below the lowest P-state", NULL },
	{ 9, 9, "base_khz = 0", 9, "must be positive", NULL },
	{ 16, 16, "2300000 = 2", 16, "turbo 2300000 kHz: not a P-state", NULL },
	{ 16, 16, "2000000 = 2", 16, "turbo 2000000 kHz: not above base_khz", NULL },
	{ 16, 16, "2400000 = 5", 16, "5 active cores is out of range (expected 1..4)", NULL },
	{ 16, 16, "2400000 = 0", 16, "0 active cores is out of range", NULL },
	{ 16, 16, "2400000 = 2\n2400000 = 3", 17, "duplicate turbo bin 2400000", "line 16" },
	/* topology */
	{ 4, 6, "packages = 64\ncores_per_package = 64\nthreads_per_core = 2", 3,
	  "topology has 8192 CPUs", NULL },
	{ 4, 4, "packages = 0", 4, "packages = 0 is out of range", NULL },
	{ 6, 6, "threads_per_core = 9", 6, "threads_per_core = 9 is out of range", NULL },
	{ 6, 6, "threads_per_core = 2\nllc_cores = 3", 7,
	  "llc_cores = 3 does not divide cores_per_package = 4", "divisor of 4" },
	{ 7, 7, "freq_domain = cluster\ncluster_cores = 3", 8, "cluster_cores = 3 does not divide", NULL },
	{ 7, 7, "freq_domain = cluster", 3, "[topology] is missing cluster_cores", NULL },
	{ 7, 7, "freq_domain = core\ncluster_cores = 2", 8, "cluster_cores is set", NULL },
	{ 7, 7, "freq_domain = core\nonline_cpus = 9", 8, "online_cpus = 9 is out of range",
	  "1..8" },
	{ 7, 7, "freq_domain = core\nonline_cpus = 0", 8, "online_cpus = 0 is out of range", NULL },
	/* C-states */
	{ 23, 23, "target_residency_us = 50", 23,
	  "target_residency_us = 50 is below exit_latency_us = 100",
	  "expected target_residency_us >= exit_latency_us" },
	{ 18, 18, "exit_latency_us = -1", 18, "exit_latency_us = -1 is out of range", NULL },
	{ 22, 22, "exit_latency_us = 1", 22, "exit latency 1 us is below the 2 us", "increasing depth" },
	{ 24, 24, "power_mw = 10\npoll = 1", 25, "only the first C-state may poll", NULL },
	{ 20, 20, "power_mw = -3", 20, "power_mw = -3 is out of range", NULL },
	{ 23, 23, "target_residency_us = 400\nwake_us = 101", 24,
	  "C-state C6: wake_us = 101 (expected 0..exit_latency_us = 100", "worst case" },
	{ 0, 0, "[cstate C1]\nexit_latency_us = 1", 36, "duplicate C-state C1", "line 17" },
	{ 17, 29, "", 0, "no core C-states", NULL },
	/* package C-states */
	{ 26, 26, "requires = C7", 26, "requires unknown C-state 'C7'", "C1, C6" },
	{ 0, 0, "[package_cstate PC7]\nrequires = C1\nexit_latency_us = 60\n"
	  "target_residency_us = 600\npower_mw = 500", 37,
	  "PC7 requires C1, shallower than C6 required by PC6", NULL },
	{ 0, 0, "[package_cstate PC6]", 36, "duplicate package C-state PC6", "line 25" },
	{ 29, 29, "power_mw = 6000", 29, "exceeds uncore_w = 5 W", NULL },
	{ 28, 28, "target_residency_us = 10", 28, "is below exit_latency_us = 50", NULL },
	/* power */
	{ 32, 32, "leak_w = -1", 32, "leak_w = -1 is out of range", NULL },
	{ 31, 31, "ceff_nf = 0", 31, "ceff_nf = 0 is out of range", NULL },
	{ 33, 33, "smt_throughput = 0.4", 33, "smt_throughput = 0.4 is out of range", "0.5..1" },
	{ 33, 33, "smt_throughput = 0.6\nsmt_activity = 3", 34, "smt_activity = 3 is out of range", NULL },
	/* duplicates and missing keys */
	{ 4, 4, "packages = 1\npackages = 2", 5, "duplicate key packages in [topology]", "line 4" },
	{ 0, 0, "[machine]", 36, "duplicate section [machine]", "line 1" },
	{ 2, 2, "description = x", 1, "[machine] is missing name", "name = <name>" },
	{ 2, 2, "name = bad/name", 2, "name 'bad/name' is not a valid machine name", NULL },
	{ 4, 4, "", 3, "[topology] is missing packages", NULL },
	{ 9, 9, "", 8, "[frequency] is missing base_khz", NULL },
	{ 31, 31, "", 30, "[power] is missing ceff_nf", NULL },
	{ 35, 35, "", 30, "[power] is missing platform_w", NULL },
	{ 33, 33, "", 30, "[power] is missing smt_throughput", "threads_per_core > 1" },
	{ 20, 20, "", 17, "[cstate C1] is missing power_mw", NULL },
	{ 26, 26, "", 25, "[package_cstate PC6] is missing requires", NULL },
	/* No [power] at all: the place is the end of the file (line 30). */
	{ 30, 35, "", 30, "the file ends without a [power] section, which needs ceff_nf",
	  "[power] with ceff_nf" },
	/* power limits and who picks turbo (issue 16) */
	{ 0, 0, "[power_limits]\npl1_w = -3", 37, "pl1_w = -3 is out of range", NULL },
	{ 0, 0, "[power_limits]\npl1_w = 30", 36, "pl1_window_us is out of range",
	  "with pl1_w set" },
	{ 0, 0, "[power_limits]\npl2_w = 30\npl2_window_us = 0", 38, "pl2_window_us is out of range",
	  NULL },
	{ 0, 0, "[power_limits]\ncontrol_us = 0.5", 37, "control_us is out of range", NULL },
	{ 10, 10, "transition_latency_us = 10\nturbo = pcu", 11,
	  "turbo: 'pcu' is not who picks turbo frequencies", "os|hardware" },
	/* CPU types (issue 16) */
	{ 0, 0, "[cpu_type big]\ncores = 2\n[cpu_type little]\ncores = 3\nthreads_per_core = 1", 5,
	  "the CPU types have 5 cores per package, cores_per_package = 4", "add up" },
	{ 0, 0, "[cpu_type big]\ncores = 4\ncapacity = 512", 38,
	  "the biggest CPU type has capacity 512", "(expected 1024" },
	{ 0, 0, "[cpu_type big]\ncores = 4\ncapacity = 2000", 38,
	  "cpu_type big: capacity = 2000 is out of range", NULL },
	{ 0, 0, "[pstates little]\n1000000 = 800", 36, "unknown CPU type 'little'",
	  "[cpu_type little] section before" },
	{ 0, 0, "[cpu_type a]\ncores = 4\n[cpu_type a]\ncores = 1", 38,
	  "duplicate CPU type a, first on line 36", NULL },
	{ 0, 0, "[cpu_type a]\ncores = 4\n[pstates a]\n1000000 = 800", 36,
	  "[cpu_type a] is missing base_khz", "its own [pstates NAME]" },
	{ 0, 0, "[cpu_type a]\ncores = 2\n[cpu_type b]\ncores = 2\nthreads_per_core = 1\n"
	  "capacity = 300\n[cstate C9 b]\npower_mw = 1", 42, "unknown C-state 'C9'", NULL },
	{ 0, 0, "[cpu_type a]\ncores = 4\nthreads_per_core = 4", 36,
	  "[cpu_type a] is missing smt_throughput", "threads_per_core > 1" },
	{ 0, 0, "[cpu_type a]\ncores = 4\n[cstate C6 a]\nexit_latency_us = 1", 39,
	  "cpu_type a: C-state C6: exit latency 1 us is below the 2 us", NULL },
	{ 0, 0, "[cpu_type a]\ncores = 2\n[cpu_type b]\ncores = 2\n[turbo b]\n2400000 = 3", 41,
	  "cpu_type b: turbo 2400000 kHz: 3 active cores is out of range", "1..2" },
	{ 0, 0, "[cpu_type a]\ncores = 2\nfreq_domain = cluster", 36,
	  "[cpu_type a] is missing cluster_cores", "freq_domain = cluster" },
	{ 0, 0, "[cpu_type a]\ncores = 4\nbogus = 1", 38, "unknown key 'bogus' in [cpu_type a]",
	  "cores, threads_per_core, capacity" },
	{ 0, 0, "[cpu_type]", 36, "[cpu_type] has no name", NULL },
	{ 0, 0, "[cpu_type a]\ncores = 4\nbase_khz = 1000000\n[pstates a]\n1000000 = 800\n"
	  "[pstates a]", 41, "duplicate section [pstates a], first on line 39", NULL },
	{ 0, 0, "[cpu_type a]\ncores = 4\nbase_khz = 1000000\n[pstates a]\n1000000 = 800\n"
	  "1500000 = 700", 41, "cpu_type a: pstate 1500000 kHz: voltage 700 mV is below", NULL },
	{ 0, 0, "[cpu_type a]\ncores = 2\n[cpu_type b]\ncores = 2\nfreq_domain = cluster\n"
	  "cluster_cores = 3", 41, "cpu_type b: cluster_cores = 3 does not divide its cores = 2",
	  NULL },
	{ 20, 20, "power_mw = 500\ncluster = 1", 21, "C-state C1: cluster = 1 on the first state",
	  NULL },
	{ 0, 0, "[cstate C7]\nexit_latency_us = 200\ntarget_residency_us = 800\npower_mw = 5\n"
	  "cluster = 1\n[cstate C8]\nexit_latency_us = 300\ntarget_residency_us = 900\n"
	  "power_mw = 1", 41, "C-state C8: a core state after the cluster state C7", NULL },
	{ 35, 35, "platform_w = 20\ncluster_w = -1", 36, "cluster_w = -1 is out of range", NULL },
	{ 0, 0, "[highest_perf]\n0-3 = 255", 37, "not a highest performance", "1..254" },
	{ 0, 0, "[highest_perf]\nx = 5", 37, "'x': not a core or a range", NULL },
	{ 0, 0, "[highest_perf]\n3-1 = 150", 37, "cores 3-1: not a range of cores", NULL },
	{ 0, 0, "[highest_perf]\n0-2 = 150\n1 = 150", 38, "core 1 given twice, first on line 37",
	  NULL },
	{ 0, 0, "[highest_perf]\n0-2 = 150", 36, "gives no value for core 3", "every core 0-3" },
	{ 0, 0, "[highest_perf]\n0-4 = 150", 37, "core 4: the machine has 4 cores", "cores 0-3" },
	{ 0, 0, "[highest_perf]\n0-3 = 150\n[highest_perf]", 38,
	  "duplicate section [highest_perf], first on line 36", NULL },
};

/* [highest_perf]: each core's own top frequency by CPPC's linear scale
 * (the best core at the table's top), preferred cores found when two
 * differ, and the writer's ranges read back alike. */
static void test_highest_perf(void **state)
{
	(void)state;
	char *text = mutate(0, 0, "[highest_perf]\n0 = 150\n1-2 = 200\n3 = 100");
	struct machine m, back;
	struct pm_diag d = { "" };
	if (machine_parse(&m, text, "t.ini", &d) != 0)
		fail_msg("%s", d.msg);
	free(text);
	assert_true(machine_highest_perf_differs(&m));
	assert_int_equal(machine_core_max_khz(&m, 1), 2400000);
	assert_int_equal(machine_core_max_khz(&m, 0), 1800000);
	assert_int_equal(machine_core_max_khz(&m, 3), 1200000);
	char *ini = machine_to_ini(&m);
	assert_non_null(strstr(ini, "\n[highest_perf]\n0 = 150\n1-2 = 200\n3 = 100\n"));
	if (machine_parse(&back, ini, "back", &d) != 0)
		fail_msg("%s", d.msg);
	free(ini);
	assert_memory_equal(back.highest_perf, m.highest_perf, sizeof(m.highest_perf));
	text = mutate(0, 0, "[highest_perf]\n0-3 = 166");
	assert_int_equal(machine_parse(&m, text, "t.ini", &d), 0);
	free(text);
	assert_false(machine_highest_perf_differs(&m));
	assert_int_equal(machine_core_max_khz(&m, 2), 2400000);
}

static void test_bad_inline(void **state)
{
	(void)state;
	/* the base itself is good */
	char *base = mutate(-1, -1, "");
	struct machine m;
	struct pm_diag d = { "" };
	if (machine_parse(&m, base, "t.ini", &d) != 0)
		fail_msg("%s", d.msg);
	free(base);

	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		char *text = mutate(c->from, c->to, c->repl);
		expect_error(text, c->line, c->w1, c->w2);
		free(text);
	}
}

/* Each bad fixture says on its first line "# expect: LINE: words". */
static void test_bad_fixtures(void **state)
{
	static const char *const files[] = {
		"bad-unknown-section.ini", "bad-number.ini", "bad-llc.ini",
		"bad-residency.ini", "bad-online.ini", "bad-requires.ini",
		"bad-turbo-order.ini",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512], want[256], prefix[600];
		int line;
		struct machine m;
		struct pm_diag d = { "" };

		snprintf(path, sizeof(path), "%s%s", FIXTURES, files[i]);
		char *text = read_file(path);
		assert_int_equal(sscanf(text, "# expect: %d: %255[^\n]", &line, want), 2);
		free(text);
		assert_int_equal(machine_load(&m, path, &d), -1);
		snprintf(prefix, sizeof(prefix), "%s:%d: ", path, line);
		if (strncmp(d.msg, prefix, strlen(prefix)) != 0 || !strstr(d.msg, want))
			fail_msg("%s: expected line %d '%s', got '%s'", files[i], line, want, d.msg);
	}
}

static void test_too_many_entries(void **state)
{
	char *s = malloc(1 << 16);

	(void)state;
	/* 65 P-states: the 65th, on line 11 + 65, is one too many */
	s[0] = '\0';
	for (int i = 0; i < 11; i++)
		strcat(strcat(s, base_lines[i]), "\n");
	for (int i = 0; i < 65; i++)
		sprintf(s + strlen(s), "%d = %d\n", 1000000 + 10000 * i, 800 + i);
	expect_error(s, 76, "too many P-states", "at most 64");

	/* 13 C-states: 2 in the base, 11 appended from line 36, 4 lines each */
	char *base = mutate(-1, -1, "");
	strcpy(s, base);
	free(base);
	for (int i = 0; i < 11; i++)
		sprintf(s + strlen(s), "[cstate X%d]\nexit_latency_us = 100\n"
			"target_residency_us = 400\npower_mw = 10\n", i);
	expect_error(s, 76, "too many C-states", "at most 12");

	/* 9 package C-states */
	base = mutate(-1, -1, "");
	strcpy(s, base);
	free(base);
	for (int i = 0; i < 8; i++)
		sprintf(s + strlen(s), "[package_cstate P%d]\nrequires = C6\n"
			"exit_latency_us = 50\ntarget_residency_us = 500\npower_mw = 1000\n", i);
	expect_error(s, 36 + 7 * 5, "too many package C-states", "at most 8");

	/* 33 turbo bins need 33 P-states above base */
	strcpy(s, "[topology]\ncores_per_package = 64\n[pstates]\n");
	for (int i = 0; i < 33; i++)
		sprintf(s + strlen(s), "%d = 1000\n", 3000000 + i * 1000);
	strcat(s, "[turbo]\n");
	for (int i = 0; i < 33; i++)
		sprintf(s + strlen(s), "%d = %d\n", 3000000 + i * 1000, 33 - i);
	expect_error(s, 3 + 33 + 1 + 33, "too many turbo bins", "at most 32");
	free(s);
}

/* A machine built in code gets the same checks, without line numbers. */
static void test_validate_in_code(void **state)
{
	struct machine m, good;
	struct pm_diag d = { "" };

	(void)state;
	load_preset(&good, "i7-4790");

	m = good;
	m.llc_cores = 3;
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_string_equal(d.msg, "mine: llc_cores = 3 does not divide cores_per_package = 4 "
			    "(expected a divisor of 4)");

	m = good;
	m.pkg_cstates[1].requires = 9;
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_non_null(strstr(d.msg, "PC3: requires C-state 9, which does not exist"));

	m = good;
	memset(m.cstates[2].name, 'A', sizeof(m.cstates[2].name)); /* no NUL */
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_non_null(strstr(d.msg, "is not valid"));

	m = good;
	m.cstates[2].power_w = NAN;
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_non_null(strstr(d.msg, "C-state C1E: power_mw"));

	m = good;
	strcpy(m.description, "fine ; not a comment");
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_non_null(strstr(d.msg, "description"));

	m = good;
	m.freq_domain = (enum freq_domain_kind)7;
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_non_null(strstr(d.msg, "freq_domain 7 is unknown"));

	m = good;
	m.npstates = MACHINE_MAX_PSTATES + 1;
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_non_null(strstr(d.msg, "too many P-states"));

	m = good;
	m.smt_throughput = 0.3;
	assert_int_equal(machine_validate(&m, "mine", &d), -1);
	assert_non_null(strstr(d.msg, "smt_throughput"));

	assert_int_equal(machine_validate(&good, "mine", &d), 0);
}

/* Odd input never crashes and always explains itself. */
static void test_garbage(void **state)
{
	static const char *const inputs[] = {
		"", "\n\n", "[", "]", "=", "==", "[]", "[ ]", "[machine", "[machine]]",
		"[machine]\nname", "[machine]\n=", "[pstates]\n= =", "[turbo]\n1 = x",
		"\x01\x02\x03", "\xef\xbb\xbf", "[machine]\nname = \xff\xfe",
		"[machine]\ndescription = a\tb", "[cstate " X10 X10 "]",
		"[package_cstate P]\nrequires = " X10 X10, "; only a comment",
		"[machine]\nname = x ; y", "[power]\nceff_nf = 1e999",
		"[pstates]\n99999999999999999999999 = 1",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		struct machine m;
		struct pm_diag d = { "" };
		assert_int_equal(machine_parse(&m, inputs[i], "g", &d), -1);
		assert_true(strncmp(d.msg, "g:", 2) == 0);
		assert_non_null(strstr(d.msg, "(expected"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presets_parse_and_validate),
		cmocka_unit_test(test_presets_match_data_dir),
		cmocka_unit_test(test_round_trip_presets),
		cmocka_unit_test(test_round_trip_awkward_values),
		cmocka_unit_test(test_round_trip_fixture),
		cmocka_unit_test(test_good_minimal),
		cmocka_unit_test(test_bom_and_crlf),
		cmocka_unit_test(test_topology_i7),
		cmocka_unit_test(test_topology_xeon_2s),
		cmocka_unit_test(test_topology_hsx_per_core),
		cmocka_unit_test(test_topology_power9),
		cmocka_unit_test(test_topology_hybrid),
		cmocka_unit_test(test_turbo_limit),
		cmocka_unit_test(test_invariance_reference),
		cmocka_unit_test(test_idle_costs_and_background),
		cmocka_unit_test(test_pstate_at_most_and_cstate_index),
		cmocka_unit_test(test_set_online),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_bad_inline),
		cmocka_unit_test(test_highest_perf),
		cmocka_unit_test(test_bad_fixtures),
		cmocka_unit_test(test_too_many_entries),
		cmocka_unit_test(test_validate_in_code),
		cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
