// SPDX-License-Identifier: GPL-2.0-only
/* CSV writer: one header line and one data line per run (RFC 4180 quoting,
 * LF line ends). The column list is walked twice, once for the names and
 * once for the values, so the two lines can never disagree. Columns depend
 * only on the machine model (its C-state and package C-state names) except
 * the workload's extra figures, which come last; see docs/json-schema.md. */
#include <inttypes.h>
#include <string.h>

#include "inputs.h"
#include "result_writers.h"

struct csv {
	FILE *out;
	int header; /* 1: write column names, 0: write values */
	int n;      /* fields written on this line */
};

void result_csv_quote(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && !strchr(",\"\r\n", s[i]); i++)
		;
	if (i == len) {
		fwrite(s, 1, len, out);
		return;
	}
	fputc('"', out);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

static void field(struct csv *c, const char *s, size_t len)
{
	if (c->n++)
		fputc(',', c->out);
	result_csv_quote(c->out, s, len);
}

/* Column name built from parts; anything but [A-Za-z0-9_] becomes '_' so
 * names stay identifiers whatever a state or unit is called. */
static void name(struct csv *c, const char *pre, const char *mid, size_t midmax, const char *post)
{
	char buf[3 * RESULT_NAME_MAX];
	size_t i, n;

	n = (size_t)snprintf(buf, sizeof(buf), "%s%.*s%s", pre, (int)strnlen(mid, midmax), mid, post);
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	for (i = 0; i < n; i++) {
		char ch = buf[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_'))
			buf[i] = '_';
	}
	field(c, buf, n);
}

static void col_str(struct csv *c, const char *col, const char *s, size_t max)
{
	if (c->header)
		field(c, col, strlen(col));
	else
		field(c, s, strnlen(s, max));
}

/* Ten significant digits, as the JSON writer prints reals. */
static void num_field(struct csv *c, double v)
{
	char buf[RESULT_NUM_MAX];

	result_fmt_num(buf, sizeof(buf), v, -10);
	field(c, buf, strlen(buf));
}

static void col_num(struct csv *c, const char *col, double v)
{
	if (c->header)
		field(c, col, strlen(col));
	else
		num_field(c, v);
}

static void col_u64(struct csv *c, const char *col, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	col_str(c, col, buf, sizeof(buf));
}

/* A column whose name carries a machine-specific part. */
static void col_named(struct csv *c, const char *pre, const char *mid, size_t midmax,
		      const char *post, double v)
{
	if (c->header)
		name(c, pre, mid, midmax, post);
	else
		num_field(c, v);
}

static void hist_cols(struct csv *c, const char *pre, const char *unit,
		      const struct histogram *h, double ns_per_unit)
{
	static const struct { const char *name; double q; } qs[] = {
		{ "p50", 0.50 }, { "p90", 0.90 }, { "p99", 0.99 }, { "p999", 0.999 },
	};
	char col[64];
	size_t i;

	snprintf(col, sizeof(col), "%scount", pre);
	col_u64(c, col, h->count);
	snprintf(col, sizeof(col), "%smean_%s", pre, unit);
	col_num(c, col, hist_mean(h) / ns_per_unit);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		snprintf(col, sizeof(col), "%s%s_%s", pre, qs[i].name, unit);
		col_num(c, col, hist_quantile(h, qs[i].q) / ns_per_unit);
	}
	snprintf(col, sizeof(col), "%smax_%s", pre, unit);
	col_num(c, col, (double)h->max_ns / ns_per_unit);
}

static void columns(struct csv *c, const struct run_result *r)
{
	static const char *const util[] = { "util_user_pct", "util_sys_pct",
					    "util_iowait_pct", "util_idle_pct" };
	int i, n;

	col_str(c, "machine", r->machine, sizeof(r->machine));
	col_str(c, "workload", r->workload, sizeof(r->workload));
	col_str(c, "cpufreq", r->cpufreq, sizeof(r->cpufreq));
	col_str(c, "cpuidle", r->cpuidle, sizeof(r->cpuidle));
	col_u64(c, "seed", r->seed);
	col_num(c, "duration_s", (double)r->duration_ns / NS_PER_SEC);
	col_num(c, "throughput", r->throughput);
	col_str(c, "throughput_unit", r->throughput_unit, sizeof(r->throughput_unit));
	col_num(c, "work_done", r->work_done);
	col_str(c, "latency_what", r->latency_what, sizeof(r->latency_what));
	hist_cols(c, "latency_", "ms", &r->latency, NS_PER_MS);
	hist_cols(c, "wakeup_latency_", "us", &r->wakeup_latency, NS_PER_US);
	col_num(c, "energy_j", result_energy_j(r));
	col_num(c, "power_w", result_power_w(r));
	col_num(c, "package_power_w", result_package_power_w(r));
	col_num(c, "energy_core_dynamic_j", r->energy_core_dynamic_j);
	col_num(c, "energy_core_static_j", r->energy_core_static_j);
	col_num(c, "energy_uncore_j", r->energy_uncore_j);
	col_num(c, "energy_platform_j", r->energy_platform_j);
	col_num(c, "avg_mhz", result_avg_mhz(r));
	col_num(c, "busy_pct", result_busy_pct(r));
	col_num(c, "bzy_mhz", result_bzy_mhz(r));
	for (i = 0; i < result_ncstates(r); i++)
		col_named(c, "residency_", r->m->cstates[i].name, CSTATE_NAME_MAX, "_pct",
			  result_residency_pct(r, i));
	col_num(c, "pkg_all_idle_pct", result_all_idle_pct(r));
	for (i = 0; i < result_npkg_cstates(r); i++)
		col_named(c, "pkg_residency_", r->m->pkg_cstates[i].name, CSTATE_NAME_MAX, "_pct",
			  result_pkg_cstate_avg_pct(r, i));
	for (i = 0; i < 4; i++)
		col_num(c, util[i], result_util_pct(r, i));
	col_u64(c, "context_switches", r->ctx_switches);
	col_u64(c, "migrations", r->migrations);
	col_u64(c, "wakeups", r->wakeups);
	col_u64(c, "freq_transitions", r->freq_transitions);
	col_u64(c, "events", r->events);
	col_u64(c, "tasks_created", r->tasks_created);
	col_u64(c, "tasks_finished", r->tasks_finished);
	col_u64(c, "cpufreq_updates", r->cpufreq_updates);

	n = r->nextra < RESULT_MAX_EXTRA ? r->nextra : RESULT_MAX_EXTRA;
	for (i = 0; i < n; i++) {
		const struct result_extra *x = &r->extra[i];
		char mid[2 * RESULT_NAME_MAX + 2];
		int un = (int)strnlen(x->unit, sizeof(x->unit));

		snprintf(mid, sizeof(mid), "%.*s%s%.*s", (int)strnlen(x->name, sizeof(x->name)),
			 x->name, un ? "_" : "", un, x->unit);
		col_named(c, "extra_", mid, sizeof(mid), "", x->value);
	}
}

int result_write_csv(FILE *out, const struct run_result *r, const struct run_inputs *in)
{
	struct csv c = { out, 1, 0 };

	if (in)
		inputs_write_csv(out, in);
	columns(&c, r);
	fputc('\n', out);
	c.header = 0;
	c.n = 0;
	columns(&c, r);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}
