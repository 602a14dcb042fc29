// SPDX-License-Identifier: GPL-2.0-only
/* Derived figures and the three writers, on a run built by hand whose every
 * figure is computed below from first principles. */
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "metrics/result.h"
#include "metrics/texttable.h"

#define assert_near(a, b, eps)                                                        \
	do {                                                                          \
		double a_ = (a), b_ = (b);                                            \
		if (!(fabs(a_ - b_) <= (eps)))                                        \
			fail_msg("%s = %.12g, expected %.12g (+- %g)", #a, a_, b_,    \
				 (double)(eps));                                      \
	} while (0)

#define MS NS_PER_MS

/* Two P-states (1 and 2 GHz), three C-states, one package C-state. */
static struct machine mach;

static void fill_machine(void)
{
	memset(&mach, 0, sizeof(mach));
	strcpy(mach.name, "tiny");
	mach.packages = 1;
	mach.cores_per_package = 2;
	mach.threads_per_core = 1;
	mach.online_cpus = 2;
	mach.npstates = 2;
	mach.pstates[0].khz = 1000000;
	mach.pstates[1].khz = 2000000;
	mach.ncstates = 3;
	strcpy(mach.cstates[0].name, "C1");
	strcpy(mach.cstates[1].name, "C1E");
	strcpy(mach.cstates[2].name, "C6");
	mach.npkg_cstates = 1;
	strcpy(mach.pkg_cstates[0].name, "PC6");
}

/* One second, two CPUs:
 *   CPU0: C0 600 ms (200 at 1 GHz, 400 at 2 GHz), C1 100, C1E 100, C6 200
 *         user 400, sys 150, iowait 50, idle 400
 *   CPU1: C0 200 ms (all at 1 GHz), C1E 300, C6 500
 *         user 100, sys 100, idle 800
 * so: Busy% 40, C1 5, C1E 20, C6 35; Avg_MHz 600, Bzy_MHz 1500;
 *     user 25, sys 12.5, iowait 2.5, idle 60;
 *     energy 10 + 5 + 3 + 2 = 20 J, 20 W, package 18 W. */
static struct run_result *make_result(void)
{
	struct run_result *r = calloc(1, sizeof(*r));
	struct cpu_result *c;
	sim_ns v;

	assert_non_null(r);
	fill_machine();
	strcpy(r->machine, "tiny");
	strcpy(r->workload, "oltp");
	strcpy(r->cpufreq, "ondemand");
	strcpy(r->cpuidle, "menu");
	r->seed = 42;
	r->m = &mach;
	r->ncpus = 2;
	r->npackages = 1;
	r->duration_ns = NS_PER_SEC;
	r->throughput = 123.5;
	strcpy(r->throughput_unit, "tpm");
	r->work_done = 2058;
	r->nextra = 1;
	strcpy(r->extra[0].name, "deadline_misses");
	strcpy(r->extra[0].unit, "count");
	r->extra[0].value = 3;
	hist_init(&r->latency);
	for (v = 1; v <= 100; v++)
		hist_add(&r->latency, v * MS);
	strcpy(r->latency_what, "transaction");
	hist_init(&r->wakeup_latency);
	hist_add(&r->wakeup_latency, 10 * NS_PER_US);
	hist_add(&r->wakeup_latency, 30 * NS_PER_US);
	r->energy_core_dynamic_j = 10;
	r->energy_core_static_j = 5;
	r->energy_uncore_j = 3;
	r->energy_platform_j = 2;
	r->platform.floor_j = 2;
	r->ctx_switches = 1000;
	r->migrations = 7;
	r->wakeups = 900;
	r->freq_transitions = 11;
	r->events = 123456;
	r->tasks_created = 4;
	r->tasks_finished = 3;

	r->cpus = calloc(2, sizeof(*r->cpus));
	r->pkgs = calloc(1, sizeof(*r->pkgs));
	assert_non_null(r->cpus);
	assert_non_null(r->pkgs);

	c = &r->cpus[0];
	c->cpu = 0;
	c->core = 0;
	c->c0_ns = 600 * MS;
	c->cstate_ns[0] = 100 * MS;
	c->cstate_ns[1] = 100 * MS;
	c->cstate_ns[2] = 200 * MS;
	c->user_ns = 400 * MS;
	c->sys_ns = 150 * MS;
	c->iowait_ns = 50 * MS;
	c->idle_ns = 400 * MS;
	c->pstate_ns = calloc(2, sizeof(sim_ns));
	assert_non_null(c->pstate_ns);
	c->pstate_ns[0] = 200 * MS;
	c->pstate_ns[1] = 400 * MS;
	c->c0_mhz_ns = 1000.0 * 200 * MS + 2000.0 * 400 * MS;
	c->ctx_switches = 600;
	c->wakeups = 500;
	c->migrations = 4;

	c = &r->cpus[1];
	c->cpu = 1;
	c->core = 1;
	c->c0_ns = 200 * MS;
	c->cstate_ns[1] = 300 * MS;
	c->cstate_ns[2] = 500 * MS;
	c->user_ns = 100 * MS;
	c->sys_ns = 100 * MS;
	c->idle_ns = 800 * MS;
	c->pstate_ns = calloc(2, sizeof(sim_ns));
	assert_non_null(c->pstate_ns);
	c->pstate_ns[0] = 200 * MS;
	c->c0_mhz_ns = 1000.0 * 200 * MS;
	c->ctx_switches = 400;
	c->wakeups = 400;
	c->migrations = 3;

	r->pkgs[0].package = 0;
	r->pkgs[0].all_idle_ns = 100 * MS;
	r->pkgs[0].pkg_cstate_ns[0] = 50 * MS;
	r->pkgs[0].energy_core_dynamic_j = 10;
	r->pkgs[0].energy_core_static_j = 5;
	r->pkgs[0].energy_uncore_j = 3;
	return r;
}

static void drop_result(struct run_result *r)
{
	result_free(r);
	assert_null(r->cpus);
	assert_null(r->pkgs);
	free(r);
}

/* The writer's whole output as a string (NUL-terminated, caller frees). */
static char *render(const struct run_result *r, enum result_format f)
{
	FILE *fp = tmpfile();
	char *buf;
	long n;

	assert_non_null(fp);
	assert_int_equal(result_write(fp, r, f), 0);
	n = ftell(fp);
	assert_true(n > 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	rewind(fp);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void test_derived_figures(void **state)
{
	struct run_result *r = make_result();

	(void)state;
	assert_near(result_energy_j(r), 20, 1e-12);
	assert_near(result_power_w(r), 20, 1e-12);
	assert_near(result_package_power_w(r), 18, 1e-12);
	assert_near(result_avg_mhz(r), 600, 1e-9);
	assert_near(result_busy_pct(r), 40, 1e-9);
	assert_near(result_bzy_mhz(r), 1500, 1e-9);
	assert_near(result_residency_pct(r, -1), 40, 1e-9);
	assert_near(result_residency_pct(r, 0), 5, 1e-9);
	assert_near(result_residency_pct(r, 1), 20, 1e-9);
	assert_near(result_residency_pct(r, 2), 35, 1e-9);
	assert_near(result_residency_pct(r, 3), 0, 0); /* past the machine's states */
	assert_near(result_util_pct(r, 0), 25, 1e-9);
	assert_near(result_util_pct(r, 1), 12.5, 1e-9);
	assert_near(result_util_pct(r, 2), 2.5, 1e-9);
	assert_near(result_util_pct(r, 3), 60, 1e-9);
	assert_near(result_util_pct(r, 4), 0, 0);

	/* Power scales with the duration, energy does not. */
	r->duration_ns = 2 * NS_PER_SEC;
	assert_near(result_power_w(r), 10, 1e-12);
	assert_near(result_package_power_w(r), 9, 1e-12);
	drop_result(r);
}

static void test_zero_duration_gives_zeros(void **state)
{
	struct run_result *r = make_result();
	json_t *root;
	char *json;

	(void)state;
	r->duration_ns = 0;
	r->cpus[0].c0_ns = 0;
	r->cpus[1].c0_ns = 0;
	assert_near(result_power_w(r), 0, 0);
	assert_near(result_package_power_w(r), 0, 0);
	assert_near(result_avg_mhz(r), 0, 0);
	assert_near(result_busy_pct(r), 0, 0);
	assert_near(result_bzy_mhz(r), 0, 0); /* no C0 time */
	assert_near(result_residency_pct(r, 2), 0, 0);
	assert_near(result_util_pct(r, 0), 0, 0);
	assert_near(result_energy_j(r), 20, 1e-12);

	json = render(r, FORMAT_JSON);
	assert_null(strstr(json, "nan"));
	assert_null(strstr(json, "inf"));
	root = json_loads(json, 0, NULL);
	assert_non_null(root);
	json_decref(root);
	free(json);
	free(render(r, FORMAT_CSV));
	free(render(r, FORMAT_TABLE));
	drop_result(r);
}

static double num_at(json_t *o, const char *path)
{
	char key[64];
	const char *dot;
	json_t *v = o;

	/* "a.b.c" walks nested objects. */
	while (v && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		v = json_object_get(v, key);
		path = dot + 1;
	}
	v = v ? json_object_get(v, path) : NULL;
	if (!json_is_number(v))
		fail_msg("no number at %s", path);
	return json_number_value(v);
}

static void test_json_schema_and_values(void **state)
{
	/* version 2: every figure flat, by its CSV column's name */
	static const char *const top[] = {
		"pmlab_schema", "machine", "workload", "cpufreq", "cpuidle", "seed",
		"duration_s", "throughput", "throughput_unit", "work_done", "extra",
		"latency_what", "latency_count", "latency_mean_ms", "latency_p50_ms", "latency_p90_ms",
		"latency_p99_ms", "latency_p999_ms", "latency_max_ms", "wakeup_latency_count",
		"wakeup_latency_mean_us", "wakeup_latency_p50_us", "wakeup_latency_p90_us",
		"wakeup_latency_p99_us", "wakeup_latency_p999_us", "wakeup_latency_max_us",
		"energy_j", "power_w", "package_power_w", "energy_core_dynamic_j",
		"energy_core_static_j", "energy_uncore_j", "energy_platform_j",
		"energy_platform_floor_j", "energy_platform_dram_j", "energy_platform_disk_j",
		"energy_platform_nic_j", "energy_platform_fans_j", "energy_platform_psu_loss_j",
		"avg_mhz", "busy_pct", "bzy_mhz", "residency_C1_pct", "residency_C1E_pct",
		"residency_C6_pct", "util_user_pct", "util_sys_pct", "util_iowait_pct",
		"util_idle_pct", "context_switches", "migrations", "wakeups", "freq_transitions",
		"events", "tasks_created", "tasks_finished", "cpufreq_updates", "per_cpu",
		"per_package",
	};
	struct run_result *r = make_result();
	char *text = render(r, FORMAT_JSON);
	json_error_t err;
	json_t *root = json_loads(text, 0, &err), *v, *cpu, *pkg;
	double sum = 0;
	void *it;
	size_t i;

	(void)state;
	if (!root)
		fail_msg("JSON does not parse: line %d: %s", err.line, err.text);
	assert_int_equal(text[strlen(text) - 1], '\n');

	/* Top-level keys, all of them, in the documented order. */
	for (i = 0, it = json_object_iter(root); it; i++, it = json_object_iter_next(root, it)) {
		assert_true(i < sizeof(top) / sizeof(top[0]));
		assert_string_equal(json_object_iter_key(it), top[i]);
	}
	assert_int_equal(i, sizeof(top) / sizeof(top[0]));

	assert_int_equal(json_integer_value(json_object_get(root, "pmlab_schema")), 2);
	assert_string_equal(json_string_value(json_object_get(root, "machine")), "tiny");
	assert_string_equal(json_string_value(json_object_get(root, "cpufreq")), "ondemand");
	assert_int_equal(json_integer_value(json_object_get(root, "seed")), 42);
	assert_string_equal(json_string_value(json_object_get(root, "throughput_unit")), "tpm");
	assert_near(num_at(root, "duration_s"), 1, 0);
	assert_near(num_at(root, "throughput"), 123.5, 0);
	assert_near(num_at(root, "extra.deadline_misses.value"), 3, 0);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(json_object_get(root, "extra"), "deadline_misses"), "unit")), "count");

	/* 1..100 ms: p50 is 50.5 ms within a bucket; max exact. */
	assert_string_equal(json_string_value(json_object_get(root, "latency_what")), "transaction");
	assert_near(num_at(root, "latency_count"), 100, 0);
	assert_near(num_at(root, "latency_mean_ms"), 50.5, 1e-9);
	assert_near(num_at(root, "latency_p50_ms"), 50.5, 50.5 / 64);
	assert_near(num_at(root, "latency_p99_ms"), 99.01, 99.01 / 64);
	assert_near(num_at(root, "latency_max_ms"), 100, 0);
	assert_near(num_at(root, "wakeup_latency_count"), 2, 0);
	assert_near(num_at(root, "wakeup_latency_max_us"), 30, 0);
	assert_near(num_at(root, "wakeup_latency_mean_us"), 20, 1e-9);

	/* Energy is the sum of its parts; power is energy over time. */
	assert_near(num_at(root, "energy_j"),
		    num_at(root, "energy_core_dynamic_j") + num_at(root, "energy_core_static_j") +
		    num_at(root, "energy_uncore_j") + num_at(root, "energy_platform_j"), 1e-9);
	/* The platform's parts add up to its component. */
	double parts = num_at(root, "energy_platform_floor_j") +
		       num_at(root, "energy_platform_dram_j") +
		       num_at(root, "energy_platform_disk_j") + num_at(root, "energy_platform_nic_j") +
		       num_at(root, "energy_platform_fans_j") +
		       num_at(root, "energy_platform_psu_loss_j");
	assert_true(fabs(num_at(root, "energy_platform_j") - parts) < 1e-9);
	assert_near(num_at(root, "energy_j"), 20, 1e-9);
	assert_near(num_at(root, "power_w"), num_at(root, "energy_j") / num_at(root, "duration_s"), 1e-9);
	assert_near(num_at(root, "package_power_w"), 18, 1e-9);
	assert_near(num_at(root, "avg_mhz"), 600, 1e-6);
	assert_near(num_at(root, "busy_pct"), 40, 1e-6);
	assert_near(num_at(root, "bzy_mhz"), 1500, 1e-6);

	/* Busy% and the machine's states sum to 100. */
	sum = num_at(root, "busy_pct") + num_at(root, "residency_C1_pct") +
	      num_at(root, "residency_C1E_pct") + num_at(root, "residency_C6_pct");
	assert_near(sum, 100, 1e-6);
	assert_null(json_object_get(root, "residency_C0_pct")); /* Busy% has one key */
	assert_near(num_at(root, "residency_C1E_pct"), 20, 1e-6);
	assert_near(num_at(root, "util_user_pct"), 25, 1e-6);
	assert_near(num_at(root, "util_iowait_pct"), 2.5, 1e-6);
	assert_near(num_at(root, "context_switches"), 1000, 0);
	assert_near(num_at(root, "events"), 123456, 0);
	assert_near(num_at(root, "tasks_finished"), 3, 0);

	/* Per CPU: the same keys, and the cpuidle counts as monitor names them. */
	assert_int_equal(json_array_size(json_object_get(root, "per_cpu")), 2);
	cpu = json_array_get(json_object_get(root, "per_cpu"), 0);
	assert_near(num_at(cpu, "busy_pct"), 60, 1e-6);
	assert_near(num_at(cpu, "avg_mhz"), 1000, 1e-6);
	assert_near(num_at(cpu, "bzy_mhz"), 1e12 / 600e6, 1e-6);
	assert_near(num_at(cpu, "residency_C6_pct"), 20, 1e-6);
	assert_near(num_at(cpu, "util_sys_pct"), 15, 1e-6);
	assert_near(num_at(cpu, "context_switches"), 600, 0);
	assert_true(json_is_integer(json_object_get(cpu, "C1E_usage")));
	assert_true(json_is_integer(json_object_get(cpu, "C6_below")));
	v = json_object_get(cpu, "time_in_pstate_pct");
	assert_int_equal(json_object_size(v), 2);
	assert_near(num_at(v, "1000000"), 100.0 / 3, 1e-6);
	assert_near(num_at(v, "2000000"), 200.0 / 3, 1e-6);
	cpu = json_array_get(json_object_get(root, "per_cpu"), 1);
	v = json_object_get(cpu, "time_in_pstate_pct");
	assert_int_equal(json_object_size(v), 1); /* zero entries left out */
	assert_near(num_at(v, "1000000"), 100, 1e-6);
	sum = num_at(cpu, "busy_pct") + num_at(cpu, "residency_C1_pct") +
	      num_at(cpu, "residency_C1E_pct") + num_at(cpu, "residency_C6_pct");
	assert_near(sum, 100, 1e-6);

	/* Per package. */
	pkg = json_array_get(json_object_get(root, "per_package"), 0);
	assert_non_null(pkg);
	assert_near(num_at(pkg, "package_power_w"), 18, 1e-9);
	assert_near(num_at(pkg, "package_energy_j"), 18, 1e-9);
	assert_near(num_at(pkg, "pkg_all_idle_pct"), 10, 1e-9);
	assert_near(num_at(pkg, "pkg_residency_PC6_pct"), 5, 1e-9);

	json_decref(root);
	free(text);
	drop_result(r);
}

static void test_json_is_byte_stable(void **state)
{
	struct run_result *r = make_result();
	char *a = render(r, FORMAT_JSON), *b = render(r, FORMAT_JSON);

	(void)state;
	assert_string_equal(a, b);
	free(a);
	free(b);
	drop_result(r);
}

/* Splits one CSV line (RFC 4180, no embedded newlines here) and returns
 * the field count; field `want` is copied into out. */
static int csv_fields(const char *line, int want, char *out, size_t outsz)
{
	int n = 0, q = 0;
	size_t o = 0;
	const char *p;

	for (p = line; *p && *p != '\n'; p++) {
		if (q && *p == '"' && p[1] == '"') {
			if (n == want && o + 1 < outsz)
				out[o++] = '"';
			p++;
		} else if (*p == '"') {
			q = !q;
		} else if (!q && *p == ',') {
			n++;
		} else if (n == want && o + 1 < outsz) {
			out[o++] = *p;
		}
	}
	if (outsz)
		out[o] = '\0';
	return n + 1;
}

static int csv_column(const char *header, const char *name)
{
	char f[128];
	int i, n = csv_fields(header, 0, f, sizeof(f));

	for (i = 0; i < n; i++) {
		csv_fields(header, i, f, sizeof(f));
		if (strcmp(f, name) == 0)
			return i;
	}
	fail_msg("no CSV column %s", name);
	return -1;
}

static bool has_column(const char *header, const char *name)
{
	char f[128];
	int n = csv_fields(header, 0, f, sizeof(f));

	for (int i = 0; i < n; i++) {
		csv_fields(header, i, f, sizeof(f));
		if (strcmp(f, name) == 0)
			return true;
	}
	return false;
}

/* One spelling per figure: every number of the JSON's top level is a CSV
 * column of the same name, printed the same. */
static void test_json_keys_are_csv_columns(void **state)
{
	struct run_result *r = make_result();
	char *json = render(r, FORMAT_JSON), *csv = render(r, FORMAT_CSV);
	json_t *root = json_loads(json, 0, NULL), *v;
	const char *key, *data = strchr(csv, '\n') + 1;
	int n = 0;

	(void)state;
	assert_non_null(root);
	json_object_foreach(root, key, v) {
		char f[128], num[64];

		if (!json_is_number(v) || strcmp(key, "pmlab_schema") == 0 ||
		    strncmp(key, "energy_platform_", 16) == 0) /* the platform's parts: JSON only */
			continue;
		if (!has_column(csv, key))
			fail_msg("JSON key %s is no CSV column", key);
		int col = csv_column(csv, key);
		csv_fields(data, col, f, sizeof(f));
		if (json_is_integer(v))
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		else
			result_fmt_num(num, sizeof(num), json_real_value(v), -10);
		assert_string_equal(f, num);
		n++;
	}
	assert_true(n > 40);
	json_decref(root);
	free(json);
	free(csv);
	drop_result(r);
}

static void test_csv(void **state)
{
	struct run_result *r = make_result();
	char *text, *data, f[128];
	int nh, nd;

	(void)state;
	/* A name that needs quoting. */
	strcpy(r->workload, "rt-app \"a,b\"");
	text = render(r, FORMAT_CSV);
	data = strchr(text, '\n');
	assert_non_null(data);
	data++;
	assert_non_null(strchr(data, '\n'));
	assert_string_equal(strchr(data, '\n'), "\n"); /* exactly two lines */

	nh = csv_fields(text, -1, f, sizeof(f));
	nd = csv_fields(data, -1, f, sizeof(f));
	assert_int_equal(nh, nd);
	assert_true(nh > 40);

	csv_fields(data, csv_column(text, "workload"), f, sizeof(f));
	assert_string_equal(f, "rt-app \"a,b\"");
	assert_non_null(strstr(data, "\"rt-app \"\"a,b\"\"\""));
	csv_fields(data, csv_column(text, "power_w"), f, sizeof(f));
	assert_near(strtod(f, NULL), 20, 1e-9);
	csv_fields(data, csv_column(text, "residency_C1E_pct"), f, sizeof(f));
	assert_near(strtod(f, NULL), 20, 1e-9);
	assert_false(has_column(text, "residency_C0_pct")); /* Busy%: busy_pct */
	csv_fields(data, csv_column(text, "busy_pct"), f, sizeof(f));
	assert_near(strtod(f, NULL), 40, 1e-9);
	csv_fields(data, csv_column(text, "pkg_residency_PC6_pct"), f, sizeof(f));
	assert_near(strtod(f, NULL), 5, 1e-9);
	csv_fields(data, csv_column(text, "latency_max_ms"), f, sizeof(f));
	assert_near(strtod(f, NULL), 100, 1e-9);
	csv_fields(data, csv_column(text, "seed"), f, sizeof(f));
	assert_string_equal(f, "42");
	csv_fields(data, csv_column(text, "extra_deadline_misses_count"), f, sizeof(f));
	assert_string_equal(f, "3");
	free(text);

	/* The columns do not depend on the run, only on the machine (and the
	 * workload's extras): a different run gives the same header line. */
	text = render(r, FORMAT_CSV);
	r->cpus[0].c0_ns = 0;
	r->duration_ns = 5 * NS_PER_SEC;
	strcpy(r->cpufreq, "performance");
	data = render(r, FORMAT_CSV);
	assert_int_equal(strchr(text, '\n') - text, strchr(data, '\n') - data);
	assert_memory_equal(text, data, (size_t)(strchr(text, '\n') - text));
	free(text);
	free(data);
	drop_result(r);
}

/* A program that sets a comma-decimal locale still gets '.' in CSV. */
static void test_csv_numbers_ignore_locale(void **state)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
					     "fr_FR.utf8", "nl_NL.UTF-8" };
	struct run_result *r;
	char *csv, *table, *json;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (setlocale(LC_NUMERIC, names[i]))
			break;
	if (i == sizeof(names) / sizeof(names[0]) || strcmp(localeconv()->decimal_point, ",") != 0) {
		setlocale(LC_NUMERIC, "C");
		skip();
	}
	r = make_result();
	csv = render(r, FORMAT_CSV);
	table = render(r, FORMAT_TABLE);
	json = render(r, FORMAT_JSON);
	setlocale(LC_NUMERIC, "C");
	assert_non_null(strstr(csv, ",12.5,"));
	assert_non_null(strstr(csv, ",123.5,"));
	assert_non_null(strstr(table, "123.50 tpm"));
	assert_non_null(strstr(json, "\"throughput\": 123.5,"));
	free(csv);
	free(table);
	free(json);
	drop_result(r);
}

static void test_table(void **state)
{
	struct run_result *r = make_result();
	char *text = render(r, FORMAT_TABLE);
	const char *line;

	(void)state;
	assert_non_null(strstr(text, "tpm"));
	assert_non_null(strstr(text, "Busy%"));
	assert_non_null(strstr(text, " C1%"));
	assert_non_null(strstr(text, " C1E%"));
	assert_non_null(strstr(text, " C6%"));
	assert_non_null(strstr(text, "Pkg%pc6"));
	assert_non_null(strstr(text, "PkgWatt"));
	assert_non_null(strstr(text, "%user  %system  %iowait  %idle"));
	/* Every line fits 100 columns. */
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		char one[512];

		snprintf(one, sizeof(one), "%.*s", (int)n, l);
		if (text_cols(one) > 100)
			fail_msg("line wider than 100 columns: %s", one);
		l += n + (e != NULL);
	}
	assert_non_null(strstr(text, "Avg_MHz"));
	assert_non_null(strstr(text, "Bzy_MHz"));
	assert_non_null(strstr(text, "transaction (ms)"));
	assert_non_null(strstr(text, "deadline_misses"));
	assert_non_null(strstr(text, "ondemand"));
	assert_non_null(strstr(text, "menu"));
	/* The summary figures appear as turbostat would print them. */
	assert_non_null(strstr(text, "\n  Avg_MHz  Busy%  Bzy_MHz"));
	assert_non_null(strstr(text, "\n      600  40.00     1500"));
	/* Lines stay within 120 columns for a small machine. */
	for (line = text; *line; ) {
		const char *nl = strchr(line, '\n');

		assert_non_null(nl);
		assert_true(nl - line <= 120);
		line = nl + 1;
	}
	free(text);
	drop_result(r);
}

static void test_write_error(void **state)
{
	struct run_result *r = make_result();
	enum result_format f;

	(void)state;
	for (f = FORMAT_TABLE; f <= FORMAT_JSON; f++) {
		FILE *full = fopen("/dev/full", "w");

		if (!full)
			skip();
		setvbuf(full, NULL, _IONBF, 0);
		assert_int_equal(result_write(full, r, f), -1);
		fclose(full);

		/* Buffered: the error shows only on flush, which result_write does. */
		full = fopen("/dev/full", "w");
		assert_non_null(full);
		assert_int_equal(result_write(full, r, f), -1);
		fclose(full);
	}
	drop_result(r);
}

/* A result with no machine model and no per-CPU arrays (e.g. after
 * result_free) still writes valid, NaN-free output. */
static void test_writers_without_machine(void **state)
{
	struct run_result *r = make_result();
	json_t *root;
	char *text;

	(void)state;
	result_free(r);
	r->m = NULL;
	text = render(r, FORMAT_JSON);
	root = json_loads(text, 0, NULL);
	assert_non_null(root);
	/* no machine: no C-state keys */
	const char *key;
	json_t *v;
	json_object_foreach(root, key, v)
		assert_true(strncmp(key, "residency_", 10) != 0);
	assert_int_equal(json_array_size(json_object_get(root, "per_cpu")), 0);
	assert_near(num_at(root, "busy_pct"), 0, 0);
	json_decref(root);
	free(text);
	free(render(r, FORMAT_CSV));
	free(render(r, FORMAT_TABLE));
	free(r);
}

static void test_result_free_is_safe_twice(void **state)
{
	struct run_result *r = make_result();

	(void)state;
	result_free(r);
	result_free(r);
	assert_int_equal(r->ncpus, 0);
	free(r);
}

/* A table wider than the width goes on in blocks that repeat the label
 * column, breaking before a group that does not fit whole; numbers are
 * right-aligned, labels left; no line ends in a space. */
static void test_text_table(void **state)
{
	struct text_table *t = ttab_new(1, 2);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(t);
	ttab_col(t, "name", NULL);
	ttab_col(t, "alpha", "(W)");
	ttab_col(t, "beta", NULL);
	ttab_group(t);
	ttab_col(t, "gamma", NULL);
	ttab_col(t, "delta", NULL);
	ttab_cell(t, "first");
	ttab_cell(t, "1.5");
	ttab_cell(t, "22");
	ttab_cell(t, "333");
	ttab_cell(t, "4444");
	ttab_cell(t, "second-row");
	ttab_cellf(t, "%d", 7);
	ttab_cell(t, "8");
	ttab_cell(t, "9");
	ttab_cell(t, "10 ");
	/* Headings on the first line, units under them, the label's heading
	 * beside the units. 2 + 10 + 2 + 5 + 2 + 4 = 25 fits, + 2 + 5 would
	 * fit 32, but the group gamma..delta needs 39: it starts the next
	 * block. A cell's trailing spaces (a mark's room) stay inside its
	 * column, and are not written at the line's end. */
	assert_int_equal(ttab_write_at(out, t, 32), 0);
	fclose(out);
	assert_string_equal(text,
			    "              alpha  beta\n"
			    "  name          (W)\n"
			    "  -----------------------\n"
			    "  first         1.5    22\n"
			    "  second-row      7     8\n"
			    "\n"
			    "  name        gamma  delta\n"
			    "  ------------------------\n"
			    "  first         333   4444\n"
			    "  second-row      9    10\n");
	free(text);
	/* Unlimited width (--wide): one block. */
	text = NULL;
	out = open_memstream(&text, &len);
	assert_int_equal(ttab_write_at(out, t, 0), 0);
	fclose(out);
	assert_non_null(strstr(text, "              alpha  beta  gamma  delta\n"));
	free(text);
	ttab_free(t);
	/* Wrapping: at ", " when that fills two thirds of the line, else at a
	 * space; continuation lines indented. */
	text = NULL;
	out = open_memstream(&text, &len);
	text_width_set(40);
	text_wrap(out, "head: ", "one two three, four five six seven eight nine ten", 4);
	text_width_set(100);
	fclose(out);
	assert_string_equal(text, "head: one two three, four five six seven\n"
				  "    eight nine ten\n");
	free(text);
}

int main(void)
{
	text_width_set(100);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived_figures),
		cmocka_unit_test(test_zero_duration_gives_zeros),
		cmocka_unit_test(test_json_schema_and_values),
		cmocka_unit_test(test_json_is_byte_stable),
		cmocka_unit_test(test_json_keys_are_csv_columns),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_numbers_ignore_locale),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_text_table),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_writers_without_machine),
		cmocka_unit_test(test_result_free_is_safe_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
