// SPDX-License-Identifier: GPL-2.0-only
/* The comparison as JSON: what was compared, the figures' keys and units,
 * and per profile its runs (seed and figures) and its summary (mean, 95 %
 * interval, ratio to the baseline, Welch p-value, significance). Reals
 * print with ten significant digits, as the sim JSON writer prints them;
 * a figure that does not apply is null. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "inputs.h"
#include "json_build.h"

/* A string that may not be UTF-8 (a profile path): undecodable bytes
 * become '?' rather than failing the whole document. */
static json_t *jstr(const char *s)
{
	json_t *v = json_string(s);
	char *copy;
	size_t i;

	if (v)
		return v;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (i = 0; copy[i]; i++)
		if ((unsigned char)copy[i] >= 0x80)
			copy[i] = '?';
	v = json_string(copy);
	free(copy);
	return v;
}

static json_t *jmetrics(struct jctx *c, const struct cmp_set *s)
{
	json_t *a = json_array();
	int m;

	for (m = 0; m < s->nmetrics; m++) {
		json_t *o = json_object();

		put(c, o, "key", json_string(s->metric[m].key));
		put(c, o, "heading", json_string(s->metric[m].head));
		put(c, o, "unit", jstr(s->metric[m].unit));
		/* what a figure's vs_baseline is: a ratio or a difference in points */
		put(c, o, "vs_baseline", jstr(s->metric[m].points ? "points" : "ratio"));
		append(c, a, o);
	}
	return a;
}

static json_t *jruns(struct jctx *c, const struct cmp_set *s, int p)
{
	json_t *a = json_array();
	int r, m;

	for (r = 0; r < s->nruns; r++) {
		json_t *o = json_object(), *v = json_object();

		put(c, o, "run", json_integer(r + 1));
		put(c, o, "seed", json_integer((json_int_t)(s->seed + (uint64_t)r)));
		for (m = 0; m < s->nmetrics; m++)
			put(c, v, s->metric[m].key, jnum(cmp_samples(s, p, m)[r]));
		put(c, o, "figures", v);
		append(c, a, o);
	}
	return a;
}

static json_t *jsummary(struct jctx *c, const struct cmp_set *s, int p)
{
	json_t *o = json_object();
	struct cmp_summary sum;
	int m, many = s->nruns > 1;

	for (m = 0; m < s->nmetrics; m++) {
		json_t *f = json_object();

		cmp_summarize(s, p, m, &sum);
		put(c, f, "mean", jnum(sum.mean));
		put(c, f, "ci95", many ? jnum(sum.ci) : json_null());
		put(c, f, "vs_baseline", sum.has_ratio ? jnum(sum.ratio) : json_null());
		put(c, f, "vs_baseline_ci95", sum.has_ratio && many ? jnum(sum.ratio_ci) : json_null());
		put(c, f, "p_welch", sum.p >= 0 ? jnum(sum.p) : json_null());
		put(c, f, "significant", sum.p >= 0 ? json_boolean(!sum.not_significant) : json_null());
		put(c, o, s->metric[m].key, f);
	}
	return o;
}

int cmp_write_json(FILE *out, const struct cmp_set *s)
{
	struct jctx c = { 0 };
	json_t *root = json_object(), *profiles = json_array();
	int p, rc;

	put(&c, root, "schema", json_string("pmlab-compare"));
	/* 2: bzy_ghz became bzy_mhz (docs/json-schema.md) */
	put(&c, root, "version", json_integer(3));
	if (s->inputs)
		put(&c, root, "inputs", inputs_json(s->inputs));
	put(&c, root, "machine", jstr(s->machine));
	put(&c, root, "cpus", json_integer(s->ncpus));
	put(&c, root, "workload", jstr(s->workload));
	put(&c, root, "duration_s", jnum(s->duration_s));
	put(&c, root, "runs", json_integer(s->nruns));
	put(&c, root, "seed", json_integer((json_int_t)s->seed));
	put(&c, root, "throughput_unit", jstr(s->unit));
	put(&c, root, "confidence", jnum(CMP_LEVEL));
	put(&c, root, "alpha", jnum(CMP_ALPHA));
	put(&c, root, "baseline", jstr(s->profile[s->baseline].name));
	put(&c, root, "metrics", jmetrics(&c, s));
	for (p = 0; p < s->nprofiles; p++) {
		json_t *o = json_object();

		put(&c, o, "name", jstr(s->profile[p].name));
		put(&c, o, "cpufreq", jstr(s->profile[p].cpufreq));
		put(&c, o, "cpuidle", jstr(s->profile[p].cpuidle));
		put(&c, o, "note", jstr(s->profile[p].note));
		put(&c, o, "not_modelled", jstr(s->profile[p].skipped));
		put(&c, o, "runs", jruns(&c, s, p));
		put(&c, o, "summary", jsummary(&c, s, p));
		append(&c, profiles, o);
	}
	put(&c, root, "profiles", profiles);
	rc = !c.err && root &&
	     json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_PRESERVE_ORDER) == 0 &&
	     fputc('\n', out) != EOF ? 0 : -1;
	json_decref(root);
	return rc;
}
