// SPDX-License-Identifier: GPL-2.0-only
/* Sweeps: the points of a Cartesian product of settings, as pmlab sweep
 * (lab/sweep.c); the rows in the form pmlab sweep --format prints. */
#include <stdlib.h>
#include <string.h>

#include "../export/sweep_html.h"
#include "../lab/sweep.h"
#include "lib.h"

/* The options pmlab_sweep_option takes, as struct sweep names them. */
enum { OPT_MACHINE, OPT_WORKLOAD, OPT_CPUS, OPT_CPUFREQ, OPT_CPUIDLE, OPT_PROFILE, OPT_DURATION,
       OPT_SEED, NOPTS };
static const char *const option_names[NOPTS] = {
	"machine", "workload", "cpus", "cpufreq", "cpuidle", "profile", "duration", "seed",
};

struct pmlab_sweep {
	const pmlab_lab *lab;
	char *opt[NOPTS];
	struct lib_strings sets, vary;
	long shard, nshards;
	int jobs;
	pmlab_format format;
	void (*progress)(void *ctx, int done, int total);
	void *progress_ctx;
};

pmlab_status pmlab_sweep_new(const pmlab_lab *lab, pmlab_sweep **out, pmlab_error *err)
{
	*out = NULL;
	if (!lab)
		return lib_fail(err, PMLAB_ERR_INPUT, "sweep: expected a lab");
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	(*out)->lab = lab;
	(*out)->nshards = 1;
	(*out)->jobs = 1;
	(*out)->format = PMLAB_CSV;
	return lib_ok(err);
}

void pmlab_sweep_free(pmlab_sweep *s)
{
	if (!s)
		return;
	for (int i = 0; i < NOPTS; i++)
		free(s->opt[i]);
	lib_strings_free(&s->sets);
	lib_strings_free(&s->vary);
	free(s);
}

pmlab_status pmlab_sweep_option(pmlab_sweep *s, const char *name, const char *value,
				pmlab_error *err)
{
	for (int i = 0; name && i < NOPTS; i++)
		if (strcmp(name, option_names[i]) == 0) {
			if (lib_strdup_into(&s->opt[i], value) < 0)
				return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
			return lib_ok(err);
		}
	return lib_fail(err, PMLAB_ERR_INPUT, "sweep: option '%s': expected machine, workload, cpus, "
			"cpufreq, cpuidle, profile, duration or seed", name ? name : "");
}

pmlab_status pmlab_sweep_set(pmlab_sweep *s, const char *key_value, pmlab_error *err)
{
	if (!key_value)
		return lib_fail(err, PMLAB_ERR_INPUT, "--set: expected KEY=VALUE");
	if (lib_strings_add(&s->sets, key_value) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

/* The lab/sweep.c description of s, its dimensions added. -1 with the
 * reason in d; w is then freed. */
static int describe(const pmlab_sweep *s, int nvary, struct sweep *w, struct pm_diag *d)
{
	*w = (struct sweep){
		.machine = s->opt[OPT_MACHINE], .workload = s->opt[OPT_WORKLOAD],
		.cpus = s->opt[OPT_CPUS], .cpufreq = s->opt[OPT_CPUFREQ],
		.cpuidle = s->opt[OPT_CPUIDLE], .profile = s->opt[OPT_PROFILE],
		.duration = s->opt[OPT_DURATION], .seed = s->opt[OPT_SEED],
		.sets = (const char *const *)s->sets.s, .nsets = s->sets.n,
		.dirs = (const char *const *)s->lab->dirs, .ndirs = s->lab->ndirs,
		.shard = s->shard, .nshards = s->nshards,
		.format = s->format == PMLAB_JSON ? SWEEP_JSON : SWEEP_CSV, .workers = s->jobs,
		.done = s->progress, .done_ctx = s->progress_ctx,
		.registry = &s->lab->plugins.reg, .keep_signals = true,
	};
	for (int i = 0; i < nvary; i++)
		if (sweep_vary(w, s->vary.s[i], d) < 0) {
			sweep_free(w);
			return -1;
		}
	return 0;
}

pmlab_status pmlab_sweep_vary(pmlab_sweep *s, const char *key_values, pmlab_error *err)
{
	struct sweep w;
	struct pm_diag d = { { 0 } };

	if (!key_values)
		return lib_fail(err, PMLAB_ERR_INPUT, "--vary: expected KEY=V1,V2,...");
	if (lib_strings_add(&s->vary, key_values) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	/* Every dimension so far, so that a repeated key is found now. */
	if (describe(s, s->vary.n, &w, &d) < 0) {
		free(s->vary.s[--s->vary.n]);
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	}
	sweep_free(&w);
	return lib_ok(err);
}

pmlab_status pmlab_sweep_shard(pmlab_sweep *s, long i, long n, pmlab_error *err)
{
	if (n < 1 || n > SWEEP_MAX_POINTS || i < 0 || i >= n)
		return lib_fail(err, PMLAB_ERR_INPUT, "shard %ld/%ld: expected I/N with 0 <= I < N <= %ld",
				i, n, SWEEP_MAX_POINTS);
	s->shard = i;
	s->nshards = n;
	return lib_ok(err);
}

pmlab_status pmlab_sweep_jobs(pmlab_sweep *s, int jobs, pmlab_error *err)
{
	if (jobs < 1 || jobs > 1024)
		return lib_fail(err, PMLAB_ERR_INPUT, "jobs %d: expected a count from 1 to 1024", jobs);
	s->jobs = jobs;
	return lib_ok(err);
}

pmlab_status pmlab_sweep_format(pmlab_sweep *s, pmlab_format f, pmlab_error *err)
{
	if (f != PMLAB_CSV && f != PMLAB_JSON && f != PMLAB_HTML)
		return lib_fail(err, PMLAB_ERR_INPUT, "sweep: format: expected CSV, JSON or HTML");
	s->format = f;
	return lib_ok(err);
}

void pmlab_sweep_on_progress(pmlab_sweep *s, void (*fn)(void *ctx, int done, int total),
			     void *ctx)
{
	s->progress = fn;
	s->progress_ctx = ctx;
}

struct rows {
	struct sweep *w;
	bool html;
};

/* Runs the sweep, writing its rows to out as pmlab sweep does. */
static int run_rows(void *ctx, FILE *out, struct pm_diag *d)
{
	struct rows *x = ctx;
	struct sweep_out o = { 0 };
	struct sweep_stream st = { 0 };
	int rc;

	if (x->html)
		rc = sweep_run(x->w, &o, NULL, d) < 0 ||
		     sweep_out_write_html(out, &o, "pmlab sweep", d) < 0 ? -1 : 0;
	else
		rc = sweep_stream_start(&st, out, x->w->format, sweep_inputs(x->w), d) < 0 ||
		     sweep_run(x->w, NULL, &st, d) < 0 || sweep_stream_end(&st, d) < 0 ? -1 : 0;
	sweep_stream_free(&st);
	sweep_out_free(&o);
	return rc;
}

pmlab_status pmlab_sweep_exec(pmlab_sweep *s, pmlab_result **out, pmlab_error *err)
{
	struct sweep w;
	struct pm_diag d = { { 0 } };
	struct pmlab_result *res;
	struct rows x = { &w, s->format == PMLAB_HTML };
	pmlab_status rc = PMLAB_OK;

	/* what its outputs record besides the sweep's own options */
	const struct run_inputs base = {
		.version = pmlab_version(),
		.plugins = (const char *const *)s->lab->given.s, .nplugins = s->lab->given.n,
		.plugin_path = s->lab->plugin_path,
		.path_plugins = (const char *const *)s->lab->listed.s,
		.npath_plugins = s->lab->listed.n,
	};

	*out = NULL;
	if (describe(s, s->vary.n, &w, &d) < 0)
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	w.base = &base;
	if (sweep_setup(&w, &d) < 0) {
		sweep_free(&w);
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	}
	res = lib_result_new();
	if (!res)
		rc = lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	else if (lib_result_capture(res, s->format, run_rows, &x, &d) < 0)
		rc = lib_fail_diag(err, PMLAB_ERR_RUN, &d);
	sweep_free(&w);
	if (rc != PMLAB_OK) {
		pmlab_result_free(res);
		return rc;
	}
	*out = res;
	return lib_ok(err);
}
