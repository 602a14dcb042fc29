// SPDX-License-Identifier: GPL-2.0-only
/* JSON writer: the schema in docs/json-schema.md, version 2 (every figure
 * by the key of its CSV column, flat, as compare, monitor and bench name
 * it; version 1 nested some under other names). Keys are
 * inserted in the documented order and jansson keeps it; reals print with
 * ten significant digits so the same run gives the same bytes anywhere. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "result_writers.h"
#include "json_build.h"

#define PMLAB_SCHEMA_VERSION 2

/* The first failed allocation or insertion is remembered here so the
 * builders below can be written as straight-line code. */
static json_t *jcount(uint64_t v)
{
	return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
}

/* A name from a fixed-size field: bounded, and valid UTF-8 even when the
 * input file was not (bytes that do not decode become '?'). */
static json_t *jname(const char *s, size_t max)
{
	size_t n = strnlen(s, max), i;
	json_t *v = json_stringn(s, n);
	char *copy;

	if (v)
		return v;
	copy = malloc(n + 1);
	if (!copy)
		return NULL;
	for (i = 0; i < n; i++)
		copy[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
	copy[n] = '\0';
	v = json_stringn(copy, n);
	free(copy);
	return v;
}

/* A latency distribution as flat keys: PREFIX_count, PREFIX_mean_UNIT,
 * PREFIX_p50_UNIT, ... as the CSV names them. */
static void jhist(struct jctx *c, json_t *o, const char *prefix, const char *unit,
		  const struct histogram *h, double ns_per_unit)
{
	static const struct {
		const char *name;
		double q; /* < 0: the mean, > 1: the maximum */
	} fig[] = { { "mean", -1 }, { "p50", 0.50 }, { "p90", 0.90 }, { "p99", 0.99 },
		    { "p999", 0.999 }, { "max", 2 } };
	char key[64];

	snprintf(key, sizeof(key), "%s_count", prefix);
	put(c, o, key, jcount(h->count));
	for (size_t i = 0; i < sizeof(fig) / sizeof(fig[0]); i++) {
		double ns = fig[i].q < 0 ? hist_mean(h)
			  : fig[i].q > 1 ? (double)h->max_ns : hist_quantile(h, fig[i].q);
		snprintf(key, sizeof(key), "%s_%s_%s", prefix, fig[i].name, unit);
		put(c, o, key, jnum(ns / ns_per_unit));
	}
}

static json_t *jextra(struct jctx *c, const struct run_result *r)
{
	json_t *o = json_object();
	int i, n = r->nextra < RESULT_MAX_EXTRA ? r->nextra : RESULT_MAX_EXTRA;

	for (i = 0; i < n; i++) {
		const struct result_extra *x = &r->extra[i];
		json_t *e = json_object();
		char key[RESULT_NAME_MAX + 1];

		put(c, e, "value", jnum(x->value));
		put(c, e, "unit", jname(x->unit, sizeof(x->unit)));
		snprintf(key, sizeof(key), "%.*s", (int)strnlen(x->name, sizeof(x->name)), x->name);
		put(c, o, key, e);
	}
	return o;
}

/* "KIND_NAME_pct" of a C-state name, as the CSV writes it (characters
 * other than [A-Za-z0-9_] become '_'). */
static void state_key(char *key, size_t size, const char *kind, const char *name, size_t max,
		      const char *suffix)
{
	size_t n = (size_t)snprintf(key, size, "%s", kind);

	for (size_t i = 0; i < max && name[i] && n + 1 < size; i++, n++) {
		char ch = name[i];
		key[n] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '_' ? ch : '_';
	}
	key[n] = '\0';
	snprintf(key + n, size - n, "%s", suffix);
}

/* Busy% (turbostat), each C-state's residency, and sar's shares of one
 * CPU, or of all when cpu < 0. */
static void jbusy_idle_util(struct jctx *c, json_t *o, const struct run_result *r, int cpu)
{
	static const char *const util[] = { "util_user_pct", "util_sys_pct", "util_iowait_pct",
					    "util_idle_pct" };
	char key[CSTATE_NAME_MAX + 32];

	put(c, o, "avg_mhz", jnum(cpu < 0 ? result_avg_mhz(r) : result_cpu_avg_mhz(r, cpu)));
	put(c, o, "busy_pct", jnum(cpu < 0 ? result_busy_pct(r) : result_cpu_busy_pct(r, cpu)));
	put(c, o, "bzy_mhz", jnum(cpu < 0 ? result_bzy_mhz(r) : result_cpu_bzy_mhz(r, cpu)));
	for (int s = 0; s < result_ncstates(r); s++) {
		state_key(key, sizeof(key), "residency_", r->m->cstates[s].name, CSTATE_NAME_MAX,
			  "_pct");
		put(c, o, key, jnum(cpu < 0 ? result_residency_pct(r, s)
					    : result_cpu_residency_pct(r, cpu, s)));
	}
	for (int i = 0; i < 4; i++)
		put(c, o, util[i], jnum(cpu < 0 ? result_util_pct(r, i) : result_cpu_util_pct(r, cpu, i)));
}

static void jcounters(struct jctx *c, json_t *o, const struct run_result *r)
{
	put(c, o, "context_switches", jcount(r->ctx_switches));
	put(c, o, "migrations", jcount(r->migrations));
	put(c, o, "wakeups", jcount(r->wakeups));
	put(c, o, "freq_transitions", jcount(r->freq_transitions));
	put(c, o, "events", jcount(r->events));
	put(c, o, "tasks_created", jcount(r->tasks_created));
	put(c, o, "tasks_finished", jcount(r->tasks_finished));
	put(c, o, "cpufreq_updates", jcount(r->cpufreq_updates));
}

static json_t *jcpu(struct jctx *c, const struct run_result *r, int i)
{
	const struct cpu_result *cr = &r->cpus[i];
	json_t *o = json_object(), *ps = json_object();
	int p;

	put(c, o, "cpu", json_integer(cr->cpu));
	put(c, o, "core", json_integer(cr->core));
	put(c, o, "package", json_integer(cr->package));
	jbusy_idle_util(c, o, r, i);
	for (p = 0; p < result_cpu_npstates(r, i) && cr->pstate_ns; p++) {
		char key[24];

		if (cr->pstate_ns[p] <= 0)
			continue;
		snprintf(key, sizeof(key), "%lu", (unsigned long)result_cpu_pstate_khz(r, i, p));
		put(c, ps, key, jnum(result_cpu_pstate_pct(r, i, p)));
	}
	put(c, o, "time_in_pstate_pct", ps);
	put(c, o, "context_switches", jcount(cr->ctx_switches));
	put(c, o, "wakeups", jcount(cr->wakeups));
	put(c, o, "migrations", jcount(cr->migrations));
	/* the cpuidle sysfs counts, as pmlab monitor names them */
	for (int s = 0; r->m && s < r->m->ncstates; s++) {
		char key[CSTATE_NAME_MAX + 16];
		const char *name = r->m->cstates[s].name;

		state_key(key, sizeof(key), "", name, CSTATE_NAME_MAX, "_usage");
		put(c, o, key, jcount(cr->cstate_usage[s]));
		state_key(key, sizeof(key), "", name, CSTATE_NAME_MAX, "_above");
		put(c, o, key, jcount(cr->cstate_above[s]));
		state_key(key, sizeof(key), "", name, CSTATE_NAME_MAX, "_below");
		put(c, o, key, jcount(cr->cstate_below[s]));
	}
	return o;
}

static json_t *jpackage(struct jctx *c, const struct run_result *r, int i)
{
	json_t *o = json_object();
	int s;

	put(c, o, "package", json_integer(r->pkgs[i].package));
	put(c, o, "package_power_w", jnum(result_pkg_power_w(r, i)));
	put(c, o, "package_energy_j", jnum(result_pkg_energy_j(r, i)));
	put(c, o, "pkg_all_idle_pct", jnum(result_pkg_all_idle_pct(r, i)));
	for (s = 0; s < result_npkg_cstates(r); s++) {
		char key[CSTATE_NAME_MAX + 32];

		state_key(key, sizeof(key), "pkg_residency_", r->m->pkg_cstates[s].name,
			  CSTATE_NAME_MAX, "_pct");
		put(c, o, key, jnum(result_pkg_cstate_pct(r, i, s)));
	}
	put(c, o, "power_limited_pct", jnum(result_pkg_power_limited_pct(r, i)));
	return o;
}

/* One task's rt-app-style figures, times in us as rt-app logs them. */
static json_t *jtask(struct jctx *c, const struct run_result *r, int i)
{
	const struct task_result *t = &r->tasks[i];
	json_t *o = json_object();

	put(c, o, "name", jname(t->name, sizeof(t->name)));
	put(c, o, "activations", jcount(t->activations));
	put(c, o, "timed_activations", jcount(t->timed));
	put(c, o, "deadline_misses", jcount(t->deadline_misses));
	put(c, o, "run_us_mean", jnum(result_task_run_us(r, i)));
	put(c, o, "period_us_mean", jnum(result_task_period_us(r, i)));
	put(c, o, "slack_us_mean", jnum(result_task_slack_us(r, i)));
	put(c, o, "slack_us_min", jnum((double)t->slack_min_ns / NS_PER_US));
	/* rt-app's wu_lat: timer expiry to running */
	jhist(c, o, "wakeup_latency", "us", &t->wakeup_latency, NS_PER_US);
	return o;
}

static json_t *build(struct jctx *c, const struct run_result *r)
{
	json_t *root = json_object();
	json_t *cpus = json_array(), *pkgs = json_array();
	int i;

	put(c, root, "pmlab_schema", json_integer(PMLAB_SCHEMA_VERSION));
	put(c, root, "machine", jname(r->machine, sizeof(r->machine)));
	put(c, root, "workload", jname(r->workload, sizeof(r->workload)));
	put(c, root, "cpufreq", jname(r->cpufreq, sizeof(r->cpufreq)));
	put(c, root, "cpuidle", jname(r->cpuidle, sizeof(r->cpuidle)));
	/* JSON integers are exact in jansson only up to 2^63 - 1; a larger seed
	 * is written as its decimal string rather than silently changed. */
	if (r->seed <= INT64_MAX) {
		put(c, root, "seed", json_integer((json_int_t)r->seed));
	} else {
		char s[24];

		snprintf(s, sizeof(s), "%llu", (unsigned long long)r->seed);
		put(c, root, "seed", json_string(s));
	}
	put(c, root, "duration_s", jnum((double)r->duration_ns / NS_PER_SEC));
	put(c, root, "throughput", jnum(r->throughput));
	put(c, root, "throughput_unit", jname(r->throughput_unit, sizeof(r->throughput_unit)));
	put(c, root, "work_done", jnum(r->work_done));
	put(c, root, "extra", jextra(c, r));
	put(c, root, "latency_what", jname(r->latency_what, sizeof(r->latency_what)));
	jhist(c, root, "latency", "ms", &r->latency, NS_PER_MS);
	jhist(c, root, "wakeup_latency", "us", &r->wakeup_latency, NS_PER_US);
	put(c, root, "energy_j", jnum(result_energy_j(r)));
	put(c, root, "power_w", jnum(result_power_w(r)));
	put(c, root, "package_power_w", jnum(result_package_power_w(r)));
	put(c, root, "energy_core_dynamic_j", jnum(r->energy_core_dynamic_j));
	put(c, root, "energy_core_static_j", jnum(r->energy_core_static_j));
	put(c, root, "energy_uncore_j", jnum(r->energy_uncore_j));
	put(c, root, "energy_platform_j", jnum(r->energy_platform_j));
	put(c, root, "energy_platform_floor_j", jnum(r->platform.floor_j));
	put(c, root, "energy_platform_dram_j", jnum(r->platform.dram_j));
	put(c, root, "energy_platform_disk_j", jnum(r->platform.disk_j));
	put(c, root, "energy_platform_nic_j", jnum(r->platform.nic_j));
	put(c, root, "energy_platform_fans_j", jnum(r->platform.fans_j));
	put(c, root, "energy_platform_psu_loss_j", jnum(r->platform.psu_loss_j));
	jbusy_idle_util(c, root, r, -1);
	jcounters(c, root, r);
	for (i = 0; r->cpus && i < r->ncpus; i++)
		append(c, cpus, jcpu(c, r, i));
	put(c, root, "per_cpu", cpus);
	for (i = 0; r->pkgs && i < r->npackages; i++)
		append(c, pkgs, jpackage(c, r, i));
	put(c, root, "per_package", pkgs);
	/* Only workloads that follow tasks individually have this key. */
	if (r->tasks && r->ntasks > 0) {
		json_t *tasks = json_array();

		for (i = 0; i < r->ntasks; i++)
			append(c, tasks, jtask(c, r, i));
		put(c, root, "per_task", tasks);
	}
	/* Only runs that applied a profile have this key. */
	if (r->profile[0])
		put(c, root, "profile", jname(r->profile, sizeof(r->profile)));
	/* Only runs whose placement is not the default spread. */
	if (r->placement[0])
		put(c, root, "placement", jname(r->placement, sizeof(r->placement)));
	return root;
}

int result_write_json(FILE *out, const struct run_result *r, const struct run_inputs *in)
{
	struct jctx c = { 0 };
	json_t *root = build(&c, r);
	int rc = -1;

	/* After the schema version, before the figures. */
	if (root && in) {
		json_t *rest = json_deep_copy(root), *v;
		const char *k;

		json_object_clear(root);
		put(&c, root, "pmlab_schema", json_incref(json_object_get(rest, "pmlab_schema")));
		put(&c, root, "inputs", inputs_json(in));
		json_object_foreach(rest, k, v)
			if (strcmp(k, "pmlab_schema") != 0)
				put(&c, root, k, json_incref(v));
		json_decref(rest);
	}
	if (root && !c.err &&
	    json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_PRESERVE_ORDER) == 0 &&
	    fputc('\n', out) != EOF && !ferror(out))
		rc = 0;
	json_decref(root);
	return rc;
}
