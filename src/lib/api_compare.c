// SPDX-License-Identifier: GPL-2.0-only
/* Comparisons: each policy run `runs` times, as pmlab compare (the one
 * pipeline of lab/comparison.c); the result in every format it prints.
 * A replay's comparison (pmlab_replay_compare) has the trace as its
 * workload and the replay's settings first, as pmlab replay --profiles. */
#include <stdlib.h>
#include <string.h>

#include "../export/compare_html.h"
#include "../lab/comparison.h"
#include "../lab/runspec.h"
#include "../metrics/inputs.h"
#include "lib_replay.h"

struct pmlab_compare {
	const pmlab_lab *lab;
	struct machine m;
	char *spec;   /* the machine as loaded (pmlab_machine) */
	bool cpus_set;
	char *workload, *cpufreq, *cpuidle, *timeline, *baseline;
	struct lib_strings policy, label;
	struct lib_strings sets; /* a replay's own first (npre), then pmlab_compare_set's */
	int npre;
	const pmlab_replay *replay; /* NULL: not a replay's */
	sim_ns duration;
	uint64_t seed;
	int runs, jobs;
	void (*progress)(void *ctx, int done, int total);
	void *progress_ctx;
};

/* A comparison of workload on m, the machine named spec (may be NULL). */
static pmlab_status new_compare(const pmlab_lab *lab, const struct machine *m, const char *spec,
				bool cpus_set, const char *workload, pmlab_compare **out,
				pmlab_error *err)
{
	pmlab_compare *c = calloc(1, sizeof(*c));

	if (!c || !(c->workload = strdup(workload)) || lib_strdup_into(&c->spec, spec) < 0) {
		pmlab_compare_free(c);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	c->lab = lab;
	c->m = *m;
	c->cpus_set = cpus_set;
	c->duration = RUNSPEC_DEFAULT_DURATION;
	c->seed = RUNSPEC_DEFAULT_SEED;
	c->runs = 3;
	c->jobs = 1;
	*out = c;
	return lib_ok(err);
}

pmlab_status pmlab_compare_new(const pmlab_lab *lab, const pmlab_machine *m, const char *workload,
			       pmlab_compare **out, pmlab_error *err)
{
	*out = NULL;
	if (!lab || !m)
		return lib_fail(err, PMLAB_ERR_INPUT, "compare: expected a lab and a machine");
	if (!workload || !*workload)
		return lib_fail(err, PMLAB_ERR_INPUT, "compare: expected a workload");
	return new_compare(lab, &m->m, m->source, m->cpus_set, workload, out, err);
}

pmlab_status pmlab_replay_compare(const pmlab_lab *lab, const pmlab_replay *rp,
				  pmlab_compare **out, pmlab_error *err)
{
	pmlab_status rc;

	*out = NULL;
	rc = lib_replay_usable(lab, rp, err);
	if (rc == PMLAB_OK)
		rc = new_compare(lab, &rp->r.m, rp->machine, rp->cpus[0] != '\0', rp->r.workload,
				 out, err);
	if (rc == PMLAB_OK && lib_replay_presets(rp, &(*out)->sets) < 0)
		rc = lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	if (rc != PMLAB_OK) {
		pmlab_compare_free(*out);
		*out = NULL;
		return rc;
	}
	(*out)->npre = rp->r.npre;
	(*out)->replay = rp;
	(*out)->duration = rp->r.duration;
	(*out)->runs = 1;
	return lib_ok(err);
}

void pmlab_compare_free(pmlab_compare *c)
{
	if (!c)
		return;
	free(c->spec);
	free(c->workload);
	free(c->cpufreq);
	free(c->cpuidle);
	free(c->timeline);
	free(c->baseline);
	lib_strings_free(&c->policy);
	lib_strings_free(&c->label);
	lib_strings_free(&c->sets);
	free(c);
}

static pmlab_status keep(char **slot, const char *s, pmlab_error *err)
{
	if (lib_strdup_into(slot, s && *s ? s : NULL) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

pmlab_status pmlab_compare_policy(pmlab_compare *c, const char *entry, const char *label,
				  pmlab_error *err)
{
	if (!entry || !*entry)
		return lib_fail(err, PMLAB_ERR_INPUT, "compare: expected a profile entry");
	for (int i = 0; i < c->policy.n; i++)
		if (strcmp(c->policy.s[i], entry) == 0)
			return lib_fail(err, PMLAB_ERR_INPUT, "profile '%s' is listed twice", entry);
	if (lib_strings_add(&c->label, label && *label ? label : entry) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	if (lib_strings_add(&c->policy, entry) < 0) {
		free(c->label.s[--c->label.n]); /* keep them paired */
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	return lib_ok(err);
}

pmlab_status pmlab_compare_baseline(pmlab_compare *c, const char *entry, pmlab_error *err)
{
	return keep(&c->baseline, entry, err);
}

pmlab_status pmlab_compare_cpufreq(pmlab_compare *c, const char *name, pmlab_error *err)
{
	return keep(&c->cpufreq, name, err);
}

pmlab_status pmlab_compare_cpuidle(pmlab_compare *c, const char *name, pmlab_error *err)
{
	return keep(&c->cpuidle, name, err);
}

pmlab_status pmlab_compare_timeline(pmlab_compare *c, const char *prefix, pmlab_error *err)
{
	return keep(&c->timeline, prefix, err);
}

pmlab_status pmlab_compare_set(pmlab_compare *c, const char *key_value, pmlab_error *err)
{
	if (!key_value)
		return lib_fail(err, PMLAB_ERR_INPUT, "--set: expected KEY=VALUE");
	if (lib_strings_add(&c->sets, key_value) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

pmlab_status pmlab_compare_duration(pmlab_compare *c, int64_t ns, pmlab_error *err)
{
	if (ns <= 0)
		return lib_fail(err, PMLAB_ERR_INPUT, "duration %lld ns: expected more than 0",
				(long long)ns);
	c->duration = ns;
	return lib_ok(err);
}

void pmlab_compare_seed(pmlab_compare *c, uint64_t seed)
{
	c->seed = seed;
}

pmlab_status pmlab_compare_runs(pmlab_compare *c, int runs, pmlab_error *err)
{
	if (runs < 1 || runs > 100000)
		return lib_fail(err, PMLAB_ERR_INPUT, "runs %d: expected a count from 1 to 100000", runs);
	c->runs = runs;
	return lib_ok(err);
}

pmlab_status pmlab_compare_jobs(pmlab_compare *c, int jobs, pmlab_error *err)
{
	if (jobs < 1 || jobs > 1024)
		return lib_fail(err, PMLAB_ERR_INPUT, "jobs %d: expected a count from 1 to 1024", jobs);
	c->jobs = jobs;
	return lib_ok(err);
}

void pmlab_compare_on_progress(pmlab_compare *c, void (*fn)(void *ctx, int done, int total),
			       void *ctx)
{
	c->progress = fn;
	c->progress_ctx = ctx;
}

/* The comparison c describes, set up (every run checked) into set. */
static pmlab_status setup(pmlab_compare *c, struct comparison *k, struct cmp_set *set,
			  pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	int bad, baseline = 0;

	if (c->policy.n == 0)
		return lib_fail(err, PMLAB_ERR_INPUT, "compare: expected at least one policy");
	if (c->baseline) {
		for (baseline = 0; baseline < c->policy.n; baseline++)
			if (strcmp(c->policy.s[baseline], c->baseline) == 0)
				break;
		if (baseline == c->policy.n)
			return lib_fail(err, PMLAB_ERR_INPUT, "--baseline %s: not one of --profiles",
					c->baseline);
	}
	*k = (struct comparison){
		.cmd = c->replay ? "replay" : "compare", .m = &c->m, .workload = c->workload, .cpufreq = c->cpufreq,
		.cpuidle = c->cpuidle, .duration = c->duration, .seed = c->seed, .runs = c->runs,
		.sets = (const char *const *)c->sets.s, .nsets = c->sets.n,
		.dirs = (const char *const *)c->lab->dirs, .ndirs = c->lab->ndirs,
		.policy = (const char *const *)c->policy.s, .label = (const char *const *)c->label.s,
		.npolicies = c->policy.n, .baseline = baseline, .timeline = c->timeline,
		.workers = c->jobs, .done = c->progress, .done_ctx = c->progress_ctx,
		.registry = &c->lab->plugins.reg, .keep_signals = !c->lab->signals,
		.workload_data = c->replay ? &c->replay->r.rm : NULL,
	};
	if (comparison_setup(k, set, &bad, &d) < 0)
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	return lib_ok(err);
}

pmlab_status pmlab_compare_validate(pmlab_compare *c, pmlab_error *err)
{
	struct comparison k = { .spec = NULL };
	struct cmp_set set = { .nmetrics = 0 };
	pmlab_status rc = setup(c, &k, &set, err);

	comparison_free(&k);
	cmp_free(&set);
	return rc;
}

static int write_cmp(void *ctx, FILE *out, struct pm_diag *d, enum cmp_format f)
{
	if (cmp_write(out, ctx, f) < 0)
		return pm_fail(d, "cannot write the comparison");
	return 0;
}

static int write_table(void *ctx, FILE *out, struct pm_diag *d)
{
	return write_cmp(ctx, out, d, CMP_TABLE);
}

static int write_csv(void *ctx, FILE *out, struct pm_diag *d)
{
	return write_cmp(ctx, out, d, CMP_CSV);
}

static int write_json(void *ctx, FILE *out, struct pm_diag *d)
{
	return write_cmp(ctx, out, d, CMP_JSON);
}

static int write_html(void *ctx, FILE *out, struct pm_diag *d)
{
	if (cmp_write_html(out, ctx) < 0)
		return pm_fail(d, "cannot write the comparison");
	return 0;
}

/* The most options compare_inputs adds. */
#define EXTRA_MAX (2 + 2 + 2 * PMLAB_REPLAY_KEEP_MAX)

/* What the comparison is made from, as pmlab compare (pmlab replay
 * --profiles) records it: the command line that makes it again names
 * --baseline only when given. extra holds EXTRA_MAX strings. -1 on OOM. */
static int compare_inputs(const pmlab_compare *c, struct run_inputs *in, const char **extra)
{
	if (lib_inputs(in, c->replay ? "replay" : "compare", c->lab, &c->m, c->spec,
		       c->cpus_set) < 0)
		return -1;
	in->workload = c->workload;
	if (c->replay) {
		lib_replay_inputs(c->replay, in);
		for (int i = 0; i < in->nextra; i++)
			extra[i] = in->extra[i];
	}
	in->extra = extra;
	in->cpufreq = c->cpufreq;
	in->cpuidle = c->cpuidle;
	in->sets = (const char *const *)c->sets.s + c->npre;
	in->nsets = c->sets.n - c->npre;
	in->seed = c->seed;
	in->duration_s = (double)c->duration / NS_PER_SEC;
	in->profiles = (const char *const *)c->policy.s;
	in->nprofiles = c->policy.n;
	in->runs = c->runs;
	if (c->baseline) {
		extra[in->nextra++] = "--baseline";
		extra[in->nextra++] = c->baseline;
	}
	return 0;
}

static int (*const writers[])(void *, FILE *, struct pm_diag *) = {
	[PMLAB_TABLE] = write_table, [PMLAB_CSV] = write_csv, [PMLAB_JSON] = write_json,
	[PMLAB_HTML] = write_html,
};

/* A comparison run: its figures, and the inputs they were made from. */
struct ran {
	struct comparison k;
	struct cmp_set set;
	struct run_inputs in;
	const char *extra[EXTRA_MAX];
};

/* Sets up and runs the comparison into r (freed by ran_free whatever
 * happens). */
static pmlab_status run(pmlab_compare *c, struct ran *r, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	pmlab_status rc;

	r->k = (struct comparison){ .spec = NULL };
	r->set = (struct cmp_set){ .nmetrics = 0 };
	rc = setup(c, &r->k, &r->set, err);
	if (rc == PMLAB_OK && comparison_run(&r->k, &r->set, &d) < 0)
		rc = lib_fail_diag(err, PMLAB_ERR_RUN, &d);
	if (rc == PMLAB_OK && compare_inputs(c, &r->in, r->extra) < 0)
		rc = lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	r->set.inputs = &r->in;
	return rc;
}

static void ran_free(struct ran *r)
{
	comparison_free(&r->k);
	cmp_free(&r->set);
}

pmlab_status pmlab_compare_exec(pmlab_compare *c, pmlab_result **out, pmlab_error *err)
{
	struct ran r;
	struct pm_diag d = { { 0 } };
	struct pmlab_result *res = NULL;
	pmlab_status rc;

	*out = NULL;
	rc = run(c, &r, err);
	if (rc == PMLAB_OK && !(res = lib_result_new()))
		rc = lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	for (int f = PMLAB_TABLE; rc == PMLAB_OK && f <= PMLAB_HTML; f++)
		if (lib_result_capture(res, (pmlab_format)f, writers[f], &r.set, &d) < 0)
			rc = lib_fail_diag(err, PMLAB_ERR_IO, &d);
	ran_free(&r);
	if (rc != PMLAB_OK) {
		pmlab_result_free(res);
		return rc;
	}
	*out = res;
	return lib_ok(err);
}

pmlab_status pmlab_compare_write(pmlab_compare *c, FILE *out, pmlab_format f, pmlab_error *err)
{
	struct ran r;
	struct pm_diag d = { { 0 } };
	pmlab_status rc;

	if (!out || (unsigned)f > PMLAB_HTML)
		return lib_fail(err, PMLAB_ERR_INPUT, "compare: expected a stream and a format");
	rc = run(c, &r, err);
	if (rc == PMLAB_OK && writers[f](&r.set, out, &d) < 0)
		rc = lib_fail(err, PMLAB_ERR_IO, "compare: %s", d.msg);
	ran_free(&r);
	return rc == PMLAB_OK ? lib_ok(err) : rc;
}
