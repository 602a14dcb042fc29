// SPDX-License-Identifier: GPL-2.0-only
/* pmlab validate: the seed experiments (the .ini files of data/validation) run through
 * the compare machinery, the model's figures set against the measured
 * ones cell by cell, the seed's orderings checked, and the whole written
 * as markdown. The report is honest, not a gate: large errors exit 0;
 * only bad data files (exit 2) or failed runs (exit 1) do not. */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "../metrics/compare.h"
#include "cli.h"
#include "runner.h"
#include "runspec.h"

#define V_MAX 48   /* rows, targets per row, sets, orderings, maps */
#define V_NAME 64
#define V_TEXT 512

void usage_validate(void)
{
	printf("usage: pmlab validate [--data DIR|FILE] [--write FILE.md] [--jobs N]\n\n"
	       "Run every seed experiment described in DIR (default data/validation, every\n"
	       "*.ini) or in FILE: each row's policy on the experiment's machine and workload,\n"
	       "with the experiment's calibration, and set the model's figures against the\n"
	       "measured targets: relative error (%%) for throughput, latency, power,\n"
	       "frequency, runtime and energy, absolute points for percentages. Check the\n"
	       "orderings the seed shows. Prints one line per experiment:\n"
	       "  NAME: max error X, mean error Y, orderings N/M match\n"
	       "and with --write, the tables side by side as markdown. Exit 0 whatever the\n"
	       "errors; 2 on a bad data file.\n\n"
	       "options:\n"
	       "      --data P          directory of experiments, or one .ini file\n"
	       "      --write FILE      write the markdown report to FILE\n"
	       "  -j, --jobs N          runs in parallel (default: processors online)\n");
}

struct target {
	char fig[V_NAME];
	double v;
	int line;
};

struct vrow {
	char name[V_NAME];
	char policy[V_TEXT]; /* a compare profile entry */
	int line;
	int ntargets;
	struct target t[V_MAX];
};

struct keyed {
	char key[V_NAME];
	char val[V_TEXT];
	int line;
};

#define V_NOTE 2048

struct note {
	char key[V_NAME];
	char val[V_NOTE];
	int line;
};

struct experiment {
	const char *path;
	char name[V_NAME], seed_file[V_TEXT], machine[V_TEXT], cpus[V_NAME], workload[V_NAME];
	char cpuidle[V_NAME], cpufreq[V_NAME], baseline[V_NAME], kernel[V_NAME];
	double duration;
	double tie_tolerance; /* % (relative figures) or points: what '~' in an ordering allows */
	double platform_w;    /* > 0: replaces the machine's platform_w (calibration) */
	int runs;
	int nsets, nmaps, nrows, norders, nnotes;
	struct keyed set[V_MAX], map[V_MAX], order[V_MAX];
	struct note note[V_MAX];
	struct vrow row[V_MAX];
	/* parsing */
	FILE *f;
	int line, failed;
	char section[V_NAME];
	char msg[V_TEXT];
};

static int bad(struct experiment *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct experiment *e, const char *fmt, ...)
{
	va_list ap;

	if (e->failed)
		return 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->failed = e->line ? e->line : 1;
	return 0;
}

static char *read_line(char *buf, int size, void *stream)
{
	struct experiment *e = stream;
	char *s = fgets(buf, size, e->f);

	if (s)
		e->line++;
	return s;
}

/* What a figure is: relative error or points, and whether it is known. */
static int fig_is_points(const char *fig)
{
	return fig[0] == 'C' || strcmp(fig, "user") == 0 || strcmp(fig, "sys") == 0 ||
	       strcmp(fig, "iowait") == 0 || strcmp(fig, "idle") == 0 ||
	       (strncmp(fig, "pkg", 3) == 0 && strstr(fig, "_idle"));
}

static int fig_known(const char *fig)
{
	static const char *const names[] = { "throughput_tpm", "latency_ms", "power_w", "freq_ghz",
		"user", "sys", "iowait", "idle", "runtime_s", "energy_rel", "power_rel" };
	int n = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(fig, names[i]) == 0)
			return 1;
	if (fig[0] == 'C' && fig[1] && strspn(fig + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
	    strlen(fig + 1))
		return 1;
	if (sscanf(fig, "pkg%d_idle%n", &n, &n) == 1 && fig[n] == '\0')
		return 1;
	if (sscanf(fig, "pkg%d_cpu_idle%n", &n, &n) == 1 && fig[n] == '\0')
		return 1;
	return 0;
}

/* [experiment]'s plain text keys: stores `value` in the field named like
 * the key; false if `name` is not one of them. */
static bool text_key(struct experiment *e, const char *name, const char *value)
{
	static const struct {
		const char *name;
		size_t offset, size;
	} keys[] = {
#define TEXT_KEY(f) { #f, offsetof(struct experiment, f), sizeof(((struct experiment *)0)->f) }
		TEXT_KEY(name), TEXT_KEY(seed_file), TEXT_KEY(machine), TEXT_KEY(cpus),
		TEXT_KEY(workload), TEXT_KEY(cpuidle), TEXT_KEY(cpufreq), TEXT_KEY(baseline),
		TEXT_KEY(kernel),
#undef TEXT_KEY
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(name, keys[i].name) == 0) {
			snprintf((char *)e + keys[i].offset, keys[i].size, "%s", value);
			return true;
		}
	return false;
}

static int on_value(void *user, const char *section, const char *name, const char *value)
{
	struct experiment *e = user;
	char *end;

	if (e->failed)
		return 0;
	if (strcmp(section, "experiment") == 0) {
		if (text_key(e, name, value))
			return 1;
		if (strcmp(name, "duration") == 0) {
			e->duration = strtod(value, &end);
			if (*end || !(e->duration > 0))
				return bad(e, "duration = %s: expected positive seconds", value);
		} else if (strcmp(name, "tie_tolerance") == 0) {
			e->tie_tolerance = strtod(value, &end);
			if (*end || !(e->tie_tolerance >= 0 && e->tie_tolerance <= 100))
				return bad(e, "tie_tolerance = %s: expected 0..100 (%% or points)", value);
		} else if (strcmp(name, "runs") == 0) {
			long r = strtol(value, &end, 10);

			if (*end || r < 1 || r > 1000)
				return bad(e, "runs = %s: expected a count from 1 to 1000", value);
			e->runs = (int)r;
		} else if (strncmp(name, "map.", 4) == 0) {
			if (e->nmaps >= V_MAX)
				return bad(e, "too many map. keys");
			if (!fig_known(name + 4) || name[4] != 'C')
				return bad(e, "%s: map. names a C-state figure (map.C1 = POLL+C1+C1E)", name);
			snprintf(e->map[e->nmaps].key, V_NAME, "%s", name + 4);
			snprintf(e->map[e->nmaps].val, V_TEXT, "%s", value);
			e->map[e->nmaps++].line = e->line;
		} else
			return bad(e, "[experiment]: unknown key '%s'", name);
		return 1;
	}
	if (strcmp(section, "calibration") == 0) {
		/* The one machine figure no data sheet gives: the rest of the
		 * server (memory, disks, fans, PSU losses) at the wall. */
		if (strcmp(name, "platform_w") == 0) {
			e->platform_w = strtod(value, &end);
			if (!*value || *end || !(e->platform_w >= 0 && e->platform_w < 100000))
				return bad(e, "platform_w = %s: expected watts", value);
			return 1;
		}
		if (e->nsets >= V_MAX)
			return bad(e, "too many calibration keys");
		snprintf(e->set[e->nsets].key, V_NAME, "%s", name);
		snprintf(e->set[e->nsets].val, V_TEXT, "%s=%s", name, value);
		e->set[e->nsets++].line = e->line;
		return 1;
	}
	if (strcmp(section, "notes") == 0) {
		/* TOPIC = text; indented lines below continue it (inih hands them
		 * over under the same name). */
		struct note *k = e->nnotes ? &e->note[e->nnotes - 1] : NULL;
		if (k && strcmp(k->key, name) == 0) {
			size_t len = strlen(k->val);
			if (len + 1 + strlen(value) >= V_NOTE)
				return bad(e, "[notes] %s: longer than %d characters", name, V_NOTE - 1);
			snprintf(k->val + len, V_NOTE - len, " %s", value);
			return 1;
		}
		if (e->nnotes >= V_MAX)
			return bad(e, "too many notes");
		if (strlen(name) >= V_NAME || strlen(value) >= V_NOTE)
			return bad(e, "[notes] %s: too long", name);
		snprintf(e->note[e->nnotes].key, V_NAME, "%s", name);
		snprintf(e->note[e->nnotes].val, V_NOTE, "%s", value);
		e->note[e->nnotes++].line = e->line;
		return 1;
	}
	if (strcmp(section, "orderings") == 0) {
		if (e->norders >= V_MAX)
			return bad(e, "too many orderings");
		if (!fig_known(name))
			return bad(e, "[orderings]: unknown figure '%s'", name);
		snprintf(e->order[e->norders].key, V_NAME, "%s", name);
		snprintf(e->order[e->norders].val, V_TEXT, "%s", value);
		e->order[e->norders++].line = e->line;
		return 1;
	}
	if (strncmp(section, "row ", 4) == 0 && section[4]) {
		struct vrow *r = e->nrows ? &e->row[e->nrows - 1] : NULL;

		if (!r || strcmp(r->name, section + 4) != 0) {
			for (int i = 0; i < e->nrows; i++)
				if (strcmp(e->row[i].name, section + 4) == 0)
					return bad(e, "[%s]: row listed twice", section);
			if (e->nrows >= V_MAX)
				return bad(e, "too many rows");
			r = &e->row[e->nrows++];
			snprintf(r->name, sizeof(r->name), "%s", section + 4);
			r->line = e->line;
		}
		if (strcmp(name, "profile") == 0) {
			snprintf(r->policy, sizeof(r->policy), "%s", value);
		} else if (strcmp(name, "set") == 0) {
			snprintf(r->policy, sizeof(r->policy), "none:%s", value);
		} else if (strncmp(name, "target.", 7) == 0) {
			struct target *t;

			if (!fig_known(name + 7))
				return bad(e, "%s: unknown figure '%s'", name, name + 7);
			if (r->ntargets >= V_MAX)
				return bad(e, "too many targets");
			t = &r->t[r->ntargets++];
			snprintf(t->fig, sizeof(t->fig), "%s", name + 7);
			t->v = strtod(value, &end);
			t->line = e->line;
			if (!*value || *end || !isfinite(t->v))
				return bad(e, "%s = %s: expected a number", name, value);
		} else
			return bad(e, "[%s]: unknown key '%s' (profile, set, target.FIGURE)", section, name);
		return 1;
	}
	return bad(e, "unknown section [%s] (experiment, calibration, row NAME, orderings, notes)",
		   section);
}

static int fail_at(struct experiment *e, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(struct experiment *e, int line, const char *fmt, ...)
{
	char msg[V_TEXT];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "pmlab: %s:%d: %s\n", e->path, line, msg);
	return EXIT_USAGE;
}

static int row_index(const struct experiment *e, const char *name)
{
	for (int i = 0; i < e->nrows; i++)
		if (strcmp(e->row[i].name, name) == 0)
			return i;
	return -1;
}

/* Splits "a > b > c" into trimmed names; the count, -1 if malformed. */
/* "A > B ~ C": row names and, in rel[k], how names[k] relates to
 * names[k + 1]: '>' (strictly more) or '~' (the seed cannot tell them
 * apart: within the experiment's tie_tolerance). */
/* A '~' pair: the model's values differ by no more than the tolerance,
 * in the figure's own unit (points, or % of the larger value). */
static int within_tolerance(const struct experiment *e, const char *fig, double a, double b)
{
	double diff = fabs(a - b);
	if (fig_is_points(fig))
		return diff <= e->tie_tolerance;
	double big = fmax(fabs(a), fabs(b));
	return big == 0 || diff / big * 100 <= e->tie_tolerance;
}

static int split_chain(const char *s, char names[][V_NAME], char *rel, int max)
{
	int n = 0;

	while (*s) {
		const char *op = s + strcspn(s, ">~"), *end = op;
		while (*s == ' ' || *s == '\t')
			s++;
		const char *b = end;
		while (b > s && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b == s || n >= max || b - s >= V_NAME)
			return -1;
		snprintf(names[n++], V_NAME, "%.*s", (int)(b - s), s);
		if (!*op)
			break;
		rel[n - 1] = *op;
		s = op + 1;
		if (!*s)
			return -1;
	}
	return n;
}

static int load(struct experiment *e)
{
	int rc;

	e->f = fopen(e->path, "r");
	if (!e->f) {
		fprintf(stderr, "pmlab: %s: cannot open\n", e->path);
		return EXIT_USAGE;
	}
	e->duration = 10;
	e->runs = 3;
	snprintf(e->cpuidle, sizeof(e->cpuidle), "menu");
	rc = ini_parse_stream(read_line, e, on_value, e);
	fclose(e->f);
	e->f = NULL;
	if (e->failed)
		return fail_at(e, e->failed, "%s", e->msg);
	if (rc != 0)
		return fail_at(e, rc > 0 ? rc : 0, "not a 'key = value' line, a [section] header or a comment");
	if (!e->name[0]) {
		const char *b = strrchr(e->path, '/');

		snprintf(e->name, sizeof(e->name), "%.*s", (int)strcspn(b ? b + 1 : e->path, "."),
			 b ? b + 1 : e->path);
	}
	if (!e->machine[0] || !e->workload[0] || !e->baseline[0])
		return fail_at(e, 1, "[experiment] needs machine, workload and baseline");
	if (e->nrows == 0)
		return fail_at(e, e->line, "no [row NAME] sections");
	for (int i = 0; i < e->nrows; i++)
		if (!e->row[i].policy[0])
			return fail_at(e, e->row[i].line, "[row %s]: needs profile = or set =", e->row[i].name);
	if (row_index(e, e->baseline) < 0)
		return fail_at(e, 1, "baseline = %s: no [row %s]", e->baseline, e->baseline);
	for (int i = 0; i < e->norders; i++) {
		char names[V_MAX][V_NAME];
		char rel[V_MAX];
		int n = split_chain(e->order[i].val, names, rel, V_MAX);

		if (n < 2)
			return fail_at(e, e->order[i].line, "%s: expected 'ROW > ROW [> ROW...]' "
				       "('~' between rows the seed cannot tell apart)", e->order[i].key);
		for (int k = 0; k + 1 < n; k++)
			if (rel[k] == '~' && e->tie_tolerance == 0)
				return fail_at(e, e->order[i].line, "%s: '~' needs tie_tolerance = in "
					       "[experiment]", e->order[i].key);
		for (int k = 0; k < n; k++)
			if (row_index(e, names[k]) < 0)
				return fail_at(e, e->order[i].line, "%s: no row '%s'", e->order[i].key,
					       names[k]);
	}
	return 0;
}

/* The runs. */
struct vrun {
	struct cmp_set set;
	struct runspec *spec;
};

static int send_figures(void *ctx, const struct run_result *r)
{
	void **k = ctx;
	const struct cmp_set *s = k[1];
	double *v = calloc((size_t)s->nmetrics, sizeof(*v));

	if (!v)
		return -1;
	cmp_sample(s, r, v);
	fwrite(v, sizeof(*v), (size_t)s->nmetrics, k[0]);
	free(v);
	return 0;
}

static int run_job(void *ctx, int i, FILE *out, struct pm_diag *d)
{
	struct vrun *v = ctx;
	int p = i / v->set.nruns, run = i % v->set.nruns;
	struct runspec rs = v->spec[p];
	void *k[2] = { out, &v->set };

	rs.seed = v->set.seed + (uint64_t)run;
	if (runspec_run(&rs, send_figures, k, d) < 0) {
		char why[PM_DIAG_MAX];

		snprintf(why, sizeof(why), "%s", d->msg[0] ? d->msg : "out of memory");
		return pm_fail(d, "validate: %s, run %d: %s", v->set.profile[p].name, run + 1, why);
	}
	return 0;
}

static double mean_of(const struct cmp_set *s, int p, const char *key, int *found)
{
	for (int m = 0; m < s->nmetrics; m++)
		if (strcmp(s->metric[m].key, key) == 0) {
			struct cmp_summary sum;

			cmp_summarize(s, p, m, &sum);
			*found = 1;
			return sum.mean;
		}
	*found = 0;
	return NAN;
}

/* The model's value of figure fig for row p; NAN when not comparable. */
static double model_value(const struct experiment *e, const struct cmp_set *s, int p, const char *fig)
{
	char key[CMP_KEY_MAX + 16];
	int found = 0, b = row_index(e, e->baseline);
	double v;

	if (strcmp(fig, "throughput_tpm") == 0)
		return mean_of(s, p, "throughput", &found);
	if (strcmp(fig, "latency_ms") == 0)
		return mean_of(s, p, "latency_ms", &found);
	if (strcmp(fig, "power_w") == 0)
		return mean_of(s, p, "power_w", &found);
	if (strcmp(fig, "freq_ghz") == 0)
		return mean_of(s, p, "bzy_ghz", &found);
	if (strcmp(fig, "runtime_s") == 0) {
		/* kernbench's throughput is in runs/h: one build's time. */
		v = mean_of(s, p, "throughput", &found);
		return v > 0 ? 3600.0 / v : NAN;
	}
	if (strcmp(fig, "power_rel") == 0) {
		double b0 = mean_of(s, b, "power_w", &found);
		return mean_of(s, p, "power_w", &found) / b0;
	}
	if (strcmp(fig, "energy_rel") == 0) {
		double t = mean_of(s, p, "throughput", &found), tb = mean_of(s, b, "throughput", &found);
		double w = mean_of(s, p, "power_w", &found), wb = mean_of(s, b, "power_w", &found);
		return (w / t) / (wb / tb); /* power x runtime, runtime = 1/throughput */
	}
	if (fig[0] == 'C') {
		const char *spec = fig;
		char buf[V_TEXT], *tok, *save = NULL;

		for (int i = 0; i < e->nmaps; i++)
			if (strcmp(e->map[i].key, fig) == 0)
				spec = e->map[i].val;
		if (strcmp(spec, "-") == 0)
			return NAN;
		if (strcmp(spec, "C0") == 0)
			return mean_of(s, p, "residency_C0_pct", &found);
		snprintf(buf, sizeof(buf), "%s", spec);
		v = 0;
		for (tok = strtok_r(buf, "+ ", &save); tok; tok = strtok_r(NULL, "+ ", &save)) {
			snprintf(key, sizeof(key), "residency_%s_pct", tok);
			v += mean_of(s, p, key, &found);
			if (!found)
				return NAN;
		}
		return v;
	}
	if (strncmp(fig, "pkg", 3) == 0) {
		snprintf(key, sizeof(key), "%s_pct", fig);
		v = mean_of(s, p, key, &found);
		return found ? v : NAN;
	}
	snprintf(key, sizeof(key), "util_%s_pct", fig);
	return mean_of(s, p, key, &found);
}

/* Figures in order of first appearance. */
static int figures(const struct experiment *e, char figs[][V_NAME])
{
	int n = 0;

	for (int r = 0; r < e->nrows; r++)
		for (int t = 0; t < e->row[r].ntargets; t++) {
			int k;

			for (k = 0; k < n && strcmp(figs[k], e->row[r].t[t].fig) != 0; k++)
				;
			if (k == n && n < 2 * V_MAX)
				snprintf(figs[n++], V_NAME, "%s", e->row[r].t[t].fig);
		}
	return n;
}

static const struct target *target_of(const struct vrow *r, const char *fig)
{
	for (int t = 0; t < r->ntargets; t++)
		if (strcmp(r->t[t].fig, fig) == 0)
			return &r->t[t];
	return NULL;
}

/* Error of a cell: relative % or points; NAN when not comparable. */
static double cell_error(const char *fig, double model, double target)
{
	if (isnan(model))
		return NAN;
	if (fig_is_points(fig))
		return model - target;
	return target != 0 ? 100.0 * (model - target) / target : NAN;
}

static void head(FILE *md, char figs[][V_NAME], int nf)
{
	fprintf(md, "| Row |");
	for (int f = 0; f < nf; f++)
		fprintf(md, " %s |", figs[f]);
	fprintf(md, "\n|---|");
	for (int f = 0; f < nf; f++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
}

static int validate(struct experiment *e, int jobs, FILE *md)
{
	struct vrun v;
	struct machine m;
	struct pm_diag d = { { 0 } };
	struct runner_result *res = NULL;
	int rc = EXIT_RUNTIME, njobs = 0, nf, i;
	static char figs[2 * V_MAX][V_NAME];
	size_t want;

	memset(&v, 0, sizeof(v));
	if (runspec_load_machine(&m, e->machine, e->cpus[0] ? e->cpus : NULL, &d) < 0)
		return fail_at(e, 1, "machine %s: %s", e->machine, d.msg);
	if (e->platform_w > 0)
		m.platform_w = e->platform_w;
	if (cmp_init(&v.set, &m, e->nrows, e->runs) < 0 ||
	    !(v.spec = calloc((size_t)e->nrows, sizeof(*v.spec)))) {
		fprintf(stderr, "pmlab: out of memory\n");
		goto out;
	}
	v.set.seed = 1;
	v.set.baseline = row_index(e, e->baseline);
	for (i = 0; i < e->nrows; i++) {
		struct runspec *rs = &v.spec[i];

		rs->m = &m;
		rs->workload = e->workload;
		rs->duration = (sim_ns)llround(e->duration * NS_PER_SEC);
		rs->seed = 1;
		snprintf(rs->cpufreq, sizeof(rs->cpufreq), "%s", e->cpufreq[0] ? e->cpufreq : "performance");
		rs->cpufreq_fixed = e->cpufreq[0] != '\0';
		snprintf(rs->cpuidle, sizeof(rs->cpuidle), "%s", e->cpuidle);
		if (runspec_profile(rs, e->row[i].policy, NULL, 0, &d) < 0) {
			rc = fail_at(e, e->row[i].line, "[row %s]: %s", e->row[i].name, d.msg);
			goto out;
		}
		char kernel[V_NAME + 8];
		snprintf(kernel, sizeof(kernel), "kernel=%s", e->kernel);
		if (e->kernel[0] && runspec_set(rs, kernel) < 0) {
			fprintf(stderr, "pmlab: out of memory\n");
			goto out;
		}
		for (int k = 0; k < e->nsets; k++)
			if (runspec_set(rs, e->set[k].val) < 0) {
				fprintf(stderr, "pmlab: out of memory\n");
				goto out;
			}
		if (runspec_check(rs, &d) < 0) {
			rc = fail_at(e, e->row[i].line, "[row %s]: %s", e->row[i].name, d.msg);
			goto out;
		}
		if (cmp_set_profile(&v.set, i, e->row[i].name, rs->cpufreq, rs->cpuidle, rs->note,
				    rs->skipped) < 0)
			goto out;
	}
	njobs = e->nrows * e->runs;
	res = calloc((size_t)njobs, sizeof(*res));
	if (!res)
		goto out;
	struct runner r = { njobs, jobs, run_job, &v, NULL, NULL };
	if (runner_run(&r, res, &d) < 0) {
		fprintf(stderr, "pmlab: %s\n", d.msg);
		goto out;
	}
	want = (size_t)v.set.nmetrics * sizeof(double);
	for (i = 0; i < njobs; i++) {
		double *row = calloc((size_t)v.set.nmetrics, sizeof(*row));

		if (res[i].len != want || !row) {
			free(row);
			fprintf(stderr, "pmlab: validate: run %d: malformed answer from its worker\n", i);
			goto out;
		}
		memcpy(row, res[i].data, want);
		cmp_put_run(&v.set, i / e->runs, i % e->runs, row);
		free(row);
	}

	/* Errors and orderings. */
	nf = figures(e, figs);
	double maxe = 0, sume = 0;
	int ncells = 0, nmatch = 0, b = row_index(e, e->baseline);

	for (int p = 0; p < e->nrows; p++)
		for (int f = 0; f < nf; f++) {
			const struct target *t = target_of(&e->row[p], figs[f]);
			double err;

			if (!t || (p == b && strstr(figs[f], "_rel")))
				continue;
			err = cell_error(figs[f], model_value(e, &v.set, p, figs[f]), t->v);
			if (isnan(err))
				continue;
			ncells++;
			sume += fabs(err);
			if (fabs(err) > maxe)
				maxe = fabs(err);
		}
	int okorder[V_MAX];
	for (i = 0; i < e->norders; i++) {
		char names[V_MAX][V_NAME];
		char rel[V_MAX];
		int n = split_chain(e->order[i].val, names, rel, V_MAX);

		okorder[i] = 1;
		for (int k = 0; k + 1 < n; k++) {
			double a = model_value(e, &v.set, row_index(e, names[k]), e->order[i].key);
			double c = model_value(e, &v.set, row_index(e, names[k + 1]), e->order[i].key);

			if (rel[k] == '>' ? !(a > c) : !within_tolerance(e, e->order[i].key, a, c))
				okorder[i] = 0;
		}
		nmatch += okorder[i];
	}
	printf("%s: max error %.2f, mean error %.2f, orderings %d/%d match\n", e->name, maxe,
	       ncells ? sume / ncells : 0.0, nmatch, e->norders);

	if (md) {
		fprintf(md, "## %s\n\n", e->name);
		fprintf(md, "Seed: `%s`. Data: `%s`. Machine `%s`%s%s, workload `%s`, %g s simulated, "
			"%d run%s per row (seeds 1..%d), cpuidle `%s`%s%s%s, baseline row `%s`.\n\n",
			e->seed_file, e->path, e->machine, e->cpus[0] ? " limited to " : "",
			e->cpus[0] ? e->cpus : "", e->workload, e->duration, e->runs,
			e->runs == 1 ? "" : "s", e->runs, e->cpuidle,
			e->kernel[0] ? ", `--set kernel=" : "", e->kernel, e->kernel[0] ? "`" : "",
			e->baseline);
		fprintf(md, "Calibration (--set):");
		for (int k = 0; k < e->nsets; k++)
			fprintf(md, " `%s`", e->set[k].val);
		if (e->platform_w > 0)
			fprintf(md, "; machine `platform_w = %g` W", e->platform_w);
		fprintf(md, "%s\n\nPolicies:", e->nsets || e->platform_w > 0 ? "" : " none");
		for (int p = 0; p < e->nrows; p++)
			fprintf(md, " %s = `%s`%s", e->row[p].name, e->row[p].policy,
				p + 1 < e->nrows ? ";" : ".");
		fprintf(md, "\n\n### Seed (measured)\n\n");
		head(md, figs, nf);
		for (int p = 0; p < e->nrows; p++) {
			fprintf(md, "| %s |", e->row[p].name);
			for (int f = 0; f < nf; f++) {
				const struct target *t = target_of(&e->row[p], figs[f]);
				if (t)
					fprintf(md, " %g |", t->v);
				else
					fprintf(md, " |");
			}
			fprintf(md, "\n");
		}
		fprintf(md, "\n### pmlab (predicted)\n\n");
		head(md, figs, nf);
		for (int p = 0; p < e->nrows; p++) {
			fprintf(md, "| %s |", e->row[p].name);
			for (int f = 0; f < nf; f++) {
				double x = model_value(e, &v.set, p, figs[f]);
				if (isnan(x))
					fprintf(md, " n/c |");
				else
					fprintf(md, fabs(x) >= 1000 ? " %.0f |" : " %.4g |", x);
			}
			fprintf(md, "\n");
		}
		fprintf(md, "\n### Error (model - seed: %% of the seed's value; pt: percentage points; "
			"n/c: not comparable)\n\n");
		head(md, figs, nf);
		for (int p = 0; p < e->nrows; p++) {
			fprintf(md, "| %s |", e->row[p].name);
			for (int f = 0; f < nf; f++) {
				const struct target *t = target_of(&e->row[p], figs[f]);
				double err;

				if (!t || (p == b && strstr(figs[f], "_rel"))) {
					fprintf(md, " |");
					continue;
				}
				err = cell_error(figs[f], model_value(e, &v.set, p, figs[f]), t->v);
				if (isnan(err))
					fprintf(md, " n/c |");
				else
					fprintf(md, " %+.2f %s |", fabs(err) < 0.005 ? 0.0 : err, fig_is_points(figs[f]) ? "pt" : "%");
			}
			fprintf(md, "\n");
		}
		fprintf(md, "\n### Orderings (from the seed)\n\n");
		for (i = 0; i < e->norders; i++)
			fprintf(md, "- %s `%s: %s`\n", okorder[i] ? "✓" : "✗", e->order[i].key,
				e->order[i].val);
		fprintf(md, "\n### Deviations\n\n");
		fprintf(md, "Max error %.2f, mean error %.2f over %d comparable cells; orderings %d/%d "
			"match.", maxe, ncells ? sume / ncells : 0.0, ncells, nmatch, e->norders);
		int nbig = 0, nnc = 0;
		for (int p = 0; p < e->nrows; p++)
			for (int f = 0; f < nf; f++) {
				const struct target *t = target_of(&e->row[p], figs[f]);
				double err;

				if (!t || (p == b && strstr(figs[f], "_rel")))
					continue;
				err = cell_error(figs[f], model_value(e, &v.set, p, figs[f]), t->v);
				if (isnan(err)) {
					nnc++;
					continue;
				}
				if (fabs(err) > (fig_is_points(figs[f]) ? 3.0 : 5.0)) {
					fprintf(md, "%s %s/%s (%+.2f %s)", nbig ? "," :
						" Cells beyond 5 % (relative) or 3 points:", e->row[p].name,
						figs[f], err, fig_is_points(figs[f]) ? "pt" : "%");
					nbig++;
				}
			}
		fputs(nbig ? "." : " No cell is beyond 5 % (relative) or 3 points.", md);
		if (nnc) {
			fprintf(md, " Not comparable (no such state in the model):");
			int first = 1;
			for (int p = 0; p < e->nrows; p++)
				for (int f = 0; f < nf; f++) {
					const struct target *t = target_of(&e->row[p], figs[f]);
					if (t && !(p == b && strstr(figs[f], "_rel")) &&
					    isnan(model_value(e, &v.set, p, figs[f]))) {
						fprintf(md, "%s %s/%s", first ? "" : ",", e->row[p].name, figs[f]);
						first = 0;
					}
				}
			fprintf(md, ".");
		}
		int nfail = 0;
		for (i = 0; i < e->norders; i++)
			if (!okorder[i]) {
				fprintf(md, "%s `%s: %s`", nfail ? "," : " Orderings the model does not reproduce:",
					e->order[i].key, e->order[i].val);
				nfail++;
			}
		fputs(nfail ? ".\n\n" : " Every ordering matches.\n\n", md);
		if (e->nnotes)
			fprintf(md, "Where and why, as analysed in the data file's [notes]:\n\n");
		for (i = 0; i < e->nnotes; i++)
			fprintf(md, "- **%s**: %s\n%s", e->note[i].key, e->note[i].val,
				i + 1 == e->nnotes ? "\n" : "");
	}
	rc = EXIT_OK;
out:
	if (res)
		runner_results_free(res, njobs);
	free(res);
	if (v.spec)
		for (i = 0; i < e->nrows; i++)
			runspec_free(&v.spec[i]);
	free(v.spec);
	cmp_free(&v.set);
	return rc;
}

static int is_ini(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 4 && strcmp(de->d_name + n - 4, ".ini") == 0;
}

int cmd_validate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "data", required_argument, 0, 'D' },
		{ "write", required_argument, 0, 'W' },
		{ "jobs", required_argument, 0, 'j' },
		{ 0, 0, 0, 0 },
	};
	const char *data = "data/validation", *write = NULL;
	uint64_t jobs = (uint64_t)runner_default_workers();
	struct dirent **list = NULL;
	struct experiment *e = NULL;
	char **paths = NULL;
	int n = 0, opt, rc = EXIT_OK, i;
	struct stat st;
	FILE *md = NULL;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":j:", opts, NULL)) != -1) {
		switch (opt) {
		case 'D': data = optarg; break;
		case 'W': write = optarg; break;
		case 'j':
			if (cli_parse_u64(optarg, &jobs) < 0 || jobs < 1 || jobs > 1024)
				return cli_bad("validate: --jobs %s: expected a count from 1 to 1024", optarg);
			break;
		case ':':
		default:
			return cli_bad_option("validate", opt, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_bad("validate: unexpected argument '%s'", argv[optind]);
	if (stat(data, &st) < 0)
		return cli_bad("validate: --data %s: no such file or directory", data);
	if (S_ISDIR(st.st_mode)) {
		n = scandir(data, &list, is_ini, alphasort);
		if (n <= 0) {
			free(list);
			return cli_bad("validate: %s: no .ini files", data);
		}
	} else
		n = 1;
	paths = calloc((size_t)n, sizeof(*paths));
	e = calloc(1, sizeof(*e));
	if (!paths || !e) {
		rc = cli_bad("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (list) {
			size_t len = strlen(data) + strlen(list[i]->d_name) + 2;
			paths[i] = malloc(len);
			if (paths[i])
				snprintf(paths[i], len, "%s/%s", data, list[i]->d_name);
		} else
			paths[i] = strdup(data);
		if (!paths[i]) {
			rc = cli_bad("out of memory");
			goto out;
		}
	}
	/* Every file checked before any run. */
	for (i = 0; i < n; i++) {
		memset(e, 0, sizeof(*e));
		e->path = paths[i];
		if ((rc = load(e)) != 0)
			goto out;
	}
	if (write && !(md = fopen(write, "w"))) {
		rc = cli_bad("validate: --write %s: cannot create", write);
		goto out;
	}
	if (md)
		fprintf(md, "# Validation against the seed measurements\n\n"
			"Generated by `pmlab validate` (`make validate`) from the data files it names; "
			"do not edit by hand. An experiment's free parameters -- the workload "
			"model's, and what no data sheet gives (the rest of the server's power, "
			"BIOS settings) -- are calibrated on its baseline row only; the comments in "
			"its data file say which values are fitted and to what (everything else is "
			"the model's defaults and the machine's data-sheet figures). Every other row "
			"changes nothing but the policy. Errors are model minus seed: "
			"relative (%% of the seed's value) for throughput, latency, power, frequency, "
			"runtime and energy; absolute percentage points (pt) for percentages. "
			"Max and mean errors mix the two units.\n\n");
	for (i = 0; i < n; i++) {
		memset(e, 0, sizeof(*e));
		e->path = paths[i];
		if ((rc = load(e)) != 0 || (rc = validate(e, (int)jobs, md)) != 0)
			goto out;
	}
out:
	if (md && fclose(md) != 0 && rc == EXIT_OK)
		rc = cli_bad("validate: --write %s: cannot write", write);
	for (i = 0; list && i < n; i++)
		free(list[i]);
	free(list);
	for (i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
	free(e);
	return rc;
}
