// SPDX-License-Identifier: GPL-2.0-only
/* The governor trace harness: CSV parsing and a cpufreq driver fed by the
 * trace. See govtrace.h. */
#include "govtrace.h"

#include "../plugin/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHED_CAPACITY_SCALE 1024

/* ---- parsing ---- */

enum column { COL_T, COL_BUSY, COL_IOWAIT, COL_IDLE, COL_UTIL, COL_IOWAIT_WAKEUP, NCOLUMNS };

static const char *const column_names[NCOLUMNS] = {
	"t_us", "busy_us", "iowait_us", "idle_us", "util", "iowait_wakeup",
};

#define HEADER_FORM "t_us,busy_us,iowait_us,idle_us[,util][,iowait_wakeup]"
#define MAX_FIELDS 8

/* Splits `line` in place at commas, trimming blanks; returns the count, or
 * MAX_FIELDS + 1 if there are more. */
static int split(char *line, char **fields)
{
	int n = 0;
	for (char *s = line;; n++) {
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		char *end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		fields[n] = s;
		if (!comma)
			return n + 1;
		s = comma + 1;
	}
}

/* The header's columns in order; the first four are fixed, then util and
 * iowait_wakeup, each optional. */
static int parse_header(char **fields, int n, enum column *cols)
{
	if (n < 4 || n > 6)
		return -1;
	for (int i = 0; i < n; i++) {
		int c = i < 4 ? i : -1;
		/* util before iowait_wakeup, each at most once */
		for (int k = COL_UTIL; i >= 4 && k < NCOLUMNS; k++)
			if (strcmp(fields[i], column_names[k]) == 0 && (i == 4 || (int)cols[4] < k))
				c = k;
		if (c < 0 || strcmp(fields[i], column_names[c]) != 0)
			return -1;
		cols[i] = (enum column)c;
	}
	return 0;
}

static int parse_field(const char *s, enum column c, int64_t *v, const char *name, int line,
		       struct pm_diag *d)
{
	int64_t max = c == COL_UTIL ? SCHED_CAPACITY_SCALE : c == COL_IOWAIT_WAKEUP ? 1
										    : GOVTRACE_MAX_US;
	const char *what = c == COL_UTIL	   ? "utilization"
			   : c == COL_IOWAIT_WAKEUP ? "a flag"
						    : "microseconds";
	if (parse_int64(s, v) < 0)
		return pm_fail_at(d, name, line, "%s '%s': not an integer (expected %s 0..%lld)",
				  column_names[c], s, what, (long long)max);
	if (*v < 0 || *v > max)
		return pm_fail_at(d, name, line, "%s %lld: out of range (expected %s 0..%lld)",
				  column_names[c], (long long)*v, what, (long long)max);
	return 0;
}

static int parse_row(char **fields, int n, const enum column *cols, int ncols, int64_t prev_t,
		     struct govtrace_row *r, const char *name, int line, struct pm_diag *d)
{
	if (n > MAX_FIELDS)
		return pm_fail_at(d, name, line, "too many fields (expected %d, as in the header)",
				  ncols);
	if (n != ncols)
		return pm_fail_at(d, name, line, "%d fields (expected %d, as in the header)", n,
				  ncols);
	*r = (struct govtrace_row){ .util = -1, .uclamp_max = SCHED_CAPACITY_SCALE, .line = line };
	for (int i = 0; i < n; i++) {
		int64_t v;
		if (parse_field(fields[i], cols[i], &v, name, line, d) < 0)
			return -1;
		switch (cols[i]) {
		case COL_T: r->t_us = v; break;
		case COL_BUSY: r->busy_us = v; break;
		case COL_IOWAIT: r->iowait_us = v; break;
		case COL_IDLE: r->idle_us = v; break;
		case COL_UTIL: r->util = (int)v; break;
		case COL_IOWAIT_WAKEUP: r->flags = v ? CPUFREQ_UPDATE_IOWAIT : 0; break;
		case NCOLUMNS: break;
		}
	}
	if (r->t_us < prev_t)
		return pm_fail_at(d, name, line, "t_us %lld before the previous row's %lld (expected "
				  "rows in time order)", (long long)r->t_us, (long long)prev_t);
	int64_t sum = r->busy_us + r->iowait_us + r->idle_us;
	if (sum != r->t_us - prev_t)
		return pm_fail_at(d, name, line,
				  "busy_us+iowait_us+idle_us = %lld, but %lld us passed since the "
				  "previous row (expected them to add up)", (long long)sum,
				  (long long)(r->t_us - prev_t));
	return 0;
}

int govtrace_parse(const char *text, size_t len, const char *name, struct govtrace_input *in,
		   struct pm_diag *d)
{
	*in = (struct govtrace_input){ 0 };
	enum column cols[NCOLUMNS] = { 0 };
	int ncols = 0, lineno = 0, rc = -1;
	size_t cap = 0;
	int64_t prev_t = 0;
	char *line = malloc(len + 1);
	if (!line)
		return pm_fail(d, "out of memory");
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		lineno++;
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + (nl != NULL);
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (strlen(line) != n) {
			pm_fail_at(d, name, lineno, "a NUL byte (expected text)");
			goto out;
		}
		if (n == 0 || line[0] == '#')
			continue;
		char *fields[MAX_FIELDS];
		int nf = split(line, fields);
		if (!ncols) {
			if (parse_header(fields, nf, cols) < 0) {
				pm_fail_at(d, name, lineno,
					   "not a govtrace header (expected " HEADER_FORM ")");
				goto out;
			}
			ncols = nf;
			for (int i = 4; i < ncols; i++)
				in->has_util |= cols[i] == COL_UTIL;
			continue;
		}
		if (in->nrows == cap) {
			size_t grown = cap ? 2 * cap : 256;
			struct govtrace_row *rows = realloc(in->rows, grown * sizeof(*rows));
			if (!rows) {
				pm_fail(d, "out of memory");
				goto out;
			}
			in->rows = rows;
			cap = grown;
		}
		struct govtrace_row *r = &in->rows[in->nrows];
		if (parse_row(fields, nf, cols, ncols, prev_t, r, name, lineno, d) < 0)
			goto out;
		prev_t = r->t_us;
		in->nrows++;
	}
	if (!ncols) {
		pm_fail_at(d, name, lineno + 1, "no header (expected " HEADER_FORM ")");
		goto out;
	}
	rc = 0;
out:
	free(line);
	if (rc < 0)
		govtrace_input_free(in);
	return rc;
}

void govtrace_input_free(struct govtrace_input *in)
{
	free(in->rows);
	*in = (struct govtrace_input){ 0 };
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

int govtrace_parse_freqs(const char *list, uint32_t **freqs, int *n, struct pm_diag *d)
{
	*freqs = NULL;
	*n = 0;
	uint32_t *f = malloc(GOVTRACE_MAX_FREQS * sizeof(*f));
	char *copy = strdup(list);
	if (!f || !copy) {
		free(f);
		free(copy);
		return pm_fail(d, "out of memory");
	}
	int count = 0, rc = -1;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int64_t v;
		if (count == GOVTRACE_MAX_FREQS) {
			pm_fail(d, "--freqs: more than %d frequencies", GOVTRACE_MAX_FREQS);
			goto out;
		}
		if (parse_int64(tok, &v) < 0 || v < 1 || v > GOVTRACE_MAX_KHZ) {
			pm_fail(d, "--freqs: '%s' (expected kHz 1..%u, comma-separated)", tok,
				GOVTRACE_MAX_KHZ);
			goto out;
		}
		f[count++] = (uint32_t)v;
	}
	if (count == 0) {
		pm_fail(d, "--freqs '%s': no frequency (expected kHz,kHz,...)", list);
		goto out;
	}
	qsort(f, (size_t)count, sizeof(*f), cmp_u32);
	for (int i = 1; i < count; i++) {
		if (f[i] == f[i - 1]) {
			pm_fail(d, "--freqs: %u kHz given twice (expected distinct frequencies)",
				f[i]);
			goto out;
		}
	}
	*freqs = f;
	*n = count;
	f = NULL;
	rc = 0;
out:
	free(f);
	free(copy);
	return rc;
}

/* ---- the trace's cpufreq driver ---- */

struct govtrace_cpu {
	int64_t t_us;                          /* of the previous row */
	int64_t busy_us, iowait_us, idle_us;   /* cumulative */
	uint64_t idle_calls;
	/* Cycle counters in kHz x us (1/1000 cycle), exact; reported in cycles. */
	uint64_t aperf, mperf, tsc;
	struct cpu_util util;
};

struct govtrace {
	struct cpufreq_policy p;
	int *cpus;
	uint32_t *table;
	struct govtrace_cpu *c;
	int64_t now_us;
	bool started, recording, out_of_memory;
	struct govtrace_change *changes;
	size_t nchanges, cap;
};

static void gt_cpu_times(void *ctx, int cpu, struct cpu_times *out)
{
	const struct govtrace_cpu *c = &((struct govtrace *)ctx)->c[cpu];
	out->busy = c->busy_us * NS_PER_US;
	out->iowait = c->iowait_us * NS_PER_US;
	out->idle = c->idle_us * NS_PER_US;
	out->idle_calls = c->idle_calls;
}

/* The trace's util is frequency-invariant; a driver without invariance
 * reports running time instead: util x cpuinfo max / cur, at most 1024. */
static void gt_cpu_util(void *ctx, int cpu, struct cpu_util *out)
{
	const struct govtrace *g = ctx;
	*out = g->c[cpu].util;
	if (!g->p.freq_invariant && g->p.cur) {
		unsigned long long raw = (unsigned long long)out->util * g->p.cpuinfo_max / g->p.cur;
		out->util = raw > out->capacity ? out->capacity : (unsigned long)raw;
	}
}

static void gt_cpu_counters(void *ctx, int cpu, struct cpu_counters *out)
{
	const struct govtrace_cpu *c = &((struct govtrace *)ctx)->c[cpu];
	out->aperf = c->aperf / 1000;
	out->mperf = c->mperf / 1000;
	out->tsc = c->tsc / 1000;
}

static void record(struct govtrace *g, uint32_t khz)
{
	if (g->nchanges == g->cap) {
		size_t grown = g->cap ? 2 * g->cap : 64;
		struct govtrace_change *c = realloc(g->changes, grown * sizeof(*c));
		if (!c) {
			g->out_of_memory = true;
			return;
		}
		g->changes = c;
		g->cap = grown;
	}
	g->changes[g->nchanges++] = (struct govtrace_change){ g->now_us, khz };
}

static void gt_set_target(void *ctx, struct cpufreq_policy *p, uint32_t khz)
{
	struct govtrace *g = ctx;
	if (g->recording)
		record(g, khz);
}

static const struct cpufreq_driver gt_driver = {
	.cpu_times = gt_cpu_times,
	.cpu_util = gt_cpu_util,
	.cpu_counters = gt_cpu_counters,
	.set_target = gt_set_target,
};

static const struct cpufreq_driver gt_driver_no_util = {
	.cpu_times = gt_cpu_times,
	.cpu_counters = gt_cpu_counters,
	.set_target = gt_set_target,
};

static int check_config(const struct govtrace_config *cfg, struct pm_diag *d)
{
	if (cfg->hz != 100 && cfg->hz != 250 && cfg->hz != 300 && cfg->hz != 1000)
		return pm_fail(d, "--hz %d: not a kernel HZ (expected 100, 250, 300 or 1000)",
			       cfg->hz);
	if (cfg->nfreqs < 1 || cfg->nfreqs > GOVTRACE_MAX_FREQS)
		return pm_fail(d, "--freqs: %d frequencies (expected 1..%d)", cfg->nfreqs,
			       GOVTRACE_MAX_FREQS);
	for (int i = 0; i < cfg->nfreqs; i++)
		if (cfg->freqs[i] < 1 || cfg->freqs[i] > GOVTRACE_MAX_KHZ ||
		    (i && cfg->freqs[i] <= cfg->freqs[i - 1]))
			return pm_fail(d, "--freqs: expected distinct kHz 1..%u in ascending order",
				       GOVTRACE_MAX_KHZ);
	bool base_ok = cfg->base_khz == 0;
	for (int i = 0; i < cfg->nfreqs; i++)
		base_ok |= cfg->freqs[i] == cfg->base_khz;
	if (!base_ok)
		return pm_fail(d, "--base-khz %u: not one of --freqs (expected a table entry)",
			       cfg->base_khz);
	if (cfg->transition_latency_us < 0 || cfg->transition_latency_us > 10000000)
		return pm_fail(d, "--transition-latency-us %lld: out of range (expected 0..10000000)",
			       (long long)cfg->transition_latency_us);
	if (cfg->ncpus < 1 || cfg->ncpus > GOVTRACE_MAX_CPUS)
		return pm_fail(d, "%d CPUs (expected 1..%d)", cfg->ncpus, GOVTRACE_MAX_CPUS);
	return 0;
}

/* Offers each KEY=VALUE to the governor's tunables, but freq_invariant,
 * which is the driver's (arch_scale_freq_invariant()), to the driver. */
static int apply_sets(const struct govtrace_config *cfg, const struct cpufreq_governor *gov,
		      void *data, bool *freq_invariant, struct pm_diag *d)
{
	*freq_invariant = true;
	for (int i = 0; i < cfg->nsets; i++) {
		const char *kv = cfg->sets[i], *value;
		char key[128];
		if (kv_split(kv, key, sizeof(key), &value, d) < 0)
			return -1;
		if (strcmp(key, "freq_invariant") == 0) {
			if (strcmp(value, "0") && strcmp(value, "1"))
				return pm_fail(d, "--set %s: expected 0 or 1", kv);
			*freq_invariant = value[0] == '1';
			continue;
		}
		int r = tunables_write_kv(gov->tunables, gov->ntunables, data, kv, d);
		if (r < 0)
			return -1;
		if (r == 0) {
			char names[512];
			kv_split(kv, key, sizeof(key), &value, d);
			tunables_names(gov->tunables, gov->ntunables, names, sizeof(names));
			return pm_fail(d, "--set %s: '%s' is not a tunable of %s (expected %s)", kv,
				       key, gov->name,
				       gov->ntunables ? names : "none: it has no tunables");
		}
	}
	return 0;
}

static const struct cpufreq_governor *find_governor(const struct gov_registry *r,
						   const char *name, struct pm_diag *d)
{
	const struct cpufreq_governor *gov = registry_cpufreq_find(r, name);
	if (gov)
		return gov;
	char names[512] = "";
	size_t used = 0;
	for (int i = 0; i < registry_cpufreq_count(r) && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
					 registry_cpufreq_at(r, i)->name);
	pm_fail(d, "--governor %s: unknown governor (expected one of %s)", name, names);
	return NULL;
}

int govtrace_check(const struct govtrace_config *cfg, struct pm_diag *d)
{
	const struct cpufreq_governor *gov;
	if (check_config(cfg, d) < 0 || !(gov = find_governor(cfg->registry, cfg->governor, d)))
		return -1;
	void *data = calloc(1, gov->data_size ? gov->data_size : 1);
	if (!data)
		return pm_fail(d, "out of memory");
	tunables_set_defaults(gov->tunables, gov->ntunables, data);
	bool freq_invariant;
	int rc = apply_sets(cfg, gov, data, &freq_invariant, d);
	free(data);
	return rc;
}

int govtrace_create(struct govtrace **out, const struct govtrace_config *cfg, struct pm_diag *d)
{
	*out = NULL;
	const struct cpufreq_governor *gov;
	if (check_config(cfg, d) < 0 || !(gov = find_governor(cfg->registry, cfg->governor, d)))
		return -1;
	struct govtrace *g = calloc(1, sizeof(*g));
	if (!g)
		return pm_fail(d, "out of memory");
	g->cpus = calloc((size_t)cfg->ncpus, sizeof(*g->cpus));
	g->c = calloc((size_t)cfg->ncpus, sizeof(*g->c));
	g->table = malloc((size_t)cfg->nfreqs * sizeof(*g->table));
	void *data = calloc(1, gov->data_size ? gov->data_size : 1);
	struct cpufreq_policy *p = &g->p;
	p->gov_data = data;
	if (!g->cpus || !g->c || !g->table || !data) {
		govtrace_destroy(g);
		return pm_fail(d, "out of memory");
	}
	tunables_set_defaults(gov->tunables, gov->ntunables, data);
	if (apply_sets(cfg, gov, data, &p->freq_invariant, d) < 0) {
		govtrace_destroy(g);
		return -1;
	}

	memcpy(g->table, cfg->freqs, (size_t)cfg->nfreqs * sizeof(*g->table));
	for (int i = 0; i < cfg->ncpus; i++) {
		g->cpus[i] = i;
		g->c[i].util = (struct cpu_util){ 0, SCHED_CAPACITY_SCALE, 0, SCHED_CAPACITY_SCALE };
	}
	p->ncpus = cfg->ncpus;
	p->cpus = g->cpus;
	p->table = g->table;
	p->ntable = cfg->nfreqs;
	p->cpuinfo_min = g->table[0];
	p->cpuinfo_max = g->table[cfg->nfreqs - 1];
	p->base_khz = cfg->base_khz ? cfg->base_khz : p->cpuinfo_max;
	p->tick_ns = (NS_PER_SEC + cfg->hz / 2) / cfg->hz;
	p->min = p->cpuinfo_min;
	p->max = p->cpuinfo_max;
	p->cur = p->cpuinfo_max;
	p->transition_latency_ns = cfg->transition_latency_us * NS_PER_US;
	p->transition_delay_ns = 0;
	p->hwp = cfg->hwp;
	p->perf_scaling_khz = cfg->perf_scaling_khz;
	p->lowest_nonlinear_khz = cfg->lowest_nonlinear_khz;
	p->epp_balance_perf = cfg->epp_balance_perf;
	p->amd_pstate = strcmp(gov->name, "amd_pstate") == 0 ? CPPC_ACTIVE : CPPC_NONE;
	p->gov = gov;
	p->driver = cfg->no_util ? &gt_driver_no_util : &gt_driver;
	p->driver_ctx = g;

	if (gov->start && gov->start(p, d) < 0) {
		if (cfg->no_util) {
			char why[PM_DIAG_MAX];
			snprintf(why, sizeof(why), "%s", d->msg);
			pm_fail(d, "%s (the trace has no util column)", why);
		}
		govtrace_destroy(g);
		return -1;
	}
	g->started = true;
	/* cpufreq_start_governor(): start, then limits. */
	if (cpufreq_set_limits(p, cpufreq_default_min(p), p->cpuinfo_max, d) < 0) {
		govtrace_destroy(g);
		return -1;
	}
	g->recording = true;
	record(g, p->cur);
	if (g->out_of_memory) {
		govtrace_destroy(g);
		return pm_fail(d, "out of memory");
	}
	*out = g;
	return 0;
}

int govtrace_step(struct govtrace *g, int cpu, const struct govtrace_row *row, struct pm_diag *d)
{
	struct cpufreq_policy *p = &g->p;
	if (cpu < 0 || cpu >= p->ncpus)
		return pm_fail(d, "CPU %d: not in the policy (expected 0..%d)", cpu, p->ncpus - 1);
	struct govtrace_cpu *c = &g->c[cpu];
	int64_t gap = row->t_us - c->t_us;
	if (row->util > SCHED_CAPACITY_SCALE || row->uclamp_min < 0 ||
	    row->uclamp_max > SCHED_CAPACITY_SCALE || row->uclamp_min > row->uclamp_max)
		return pm_fail(d, "CPU %d at %lld us: utilization or clamps outside 0..1024", cpu,
			       (long long)row->t_us);
	if (row->t_us < g->now_us || row->t_us > GOVTRACE_MAX_US)
		return pm_fail(d, "hook call at %lld us, after one at %lld us (expected time order)",
			       (long long)row->t_us, (long long)g->now_us);
	bool in_range = row->busy_us >= 0 && row->iowait_us >= 0 && row->idle_us >= 0 &&
			row->busy_us <= GOVTRACE_MAX_US && row->iowait_us <= GOVTRACE_MAX_US &&
			row->idle_us <= GOVTRACE_MAX_US;
	if (!in_range || row->busy_us + row->iowait_us + row->idle_us != gap)
		return pm_fail(d, "CPU %d at %lld us: busy+iowait+idle must add up to the %lld us "
			       "since its previous call", cpu, (long long)row->t_us, (long long)gap);
	/* The interval ran at the frequency in force before this call. */
	c->aperf += (uint64_t)p->cur * (uint64_t)row->busy_us;
	c->mperf += (uint64_t)p->base_khz * (uint64_t)row->busy_us;
	c->tsc += (uint64_t)p->base_khz * (uint64_t)gap;
	c->busy_us += row->busy_us;
	c->iowait_us += row->iowait_us;
	c->idle_us += row->idle_us;
	/* Every idle period is taken to stop the tick (a NOHZ idle entry). */
	if (row->iowait_us + row->idle_us > 0)
		c->idle_calls++;
	c->t_us = row->t_us;
	c->util.util = row->util < 0 ? 0 : (unsigned long)row->util;
	c->util.uclamp_min = (unsigned long)row->uclamp_min;
	c->util.uclamp_max = (unsigned long)row->uclamp_max;
	g->now_us = row->t_us;
	/* A governor with no hook installed is not called (intel_pstate's
	 * performance policy); the cost of the call is left for the caller to
	 * read in hook_cycles and hook_deferred. */
	p->hook_cycles = 0;
	p->hook_deferred = 0;
	if (p->gov->update && p->hook != CPUFREQ_HOOK_NONE && !row->no_hook)
		p->gov->update(p, cpu, row->t_us * NS_PER_US, row->flags);
	if (g->out_of_memory)
		return pm_fail(d, "out of memory");
	return 0;
}

const struct govtrace_change *govtrace_changes(const struct govtrace *g, size_t *n)
{
	*n = g->nchanges;
	return g->changes;
}

struct cpufreq_policy *govtrace_policy(struct govtrace *g)
{
	return &g->p;
}

void govtrace_destroy(struct govtrace *g)
{
	if (!g)
		return;
	if (g->started && g->p.gov->stop)
		g->p.gov->stop(&g->p);
	free(g->p.gov_data);
	free(g->changes);
	free(g->table);
	free(g->c);
	free(g->cpus);
	free(g);
}
