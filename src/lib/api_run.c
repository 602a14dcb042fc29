// SPDX-License-Identifier: GPL-2.0-only
/* One run: what pmlab sim does, as a handle. The settings are kept as
 * given and the run specification (lab/runspec.h) is built from them in
 * pmlab sim's order -- governors, then the profile, then KEY=VALUE
 * settings -- whatever order the setters were called in. */
#include <stdlib.h>
#include <string.h>

#include "../export/export_filter.h"
#include "../lab/runspec.h"
#include "../lab/runner.h"
#include "../lab/single_run.h"
#include "../metrics/inputs.h"
#include "../plugin/guard.h"
#include "../plugin/registry.h"
#include "lib.h"

struct pmlab_run {
	const pmlab_lab *lab;
	struct machine m;
	char *machine_source; /* pmlab_machine's source */
	char *workload, *cpufreq, *cpuidle, *profile, *timeline, *trace;
	struct lib_strings sets;
	sim_ns duration;
	uint64_t seed;
	bool check;
	struct export_filter filter;
	void (*progress)(void *ctx, double done);
	void *progress_ctx;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

pmlab_status pmlab_run_new(const pmlab_lab *lab, const pmlab_machine *m, const char *workload,
			   pmlab_run **out, pmlab_error *err)
{
	pmlab_run *run;

	*out = NULL;
	if (!lab || !m)
		return lib_fail(err, PMLAB_ERR_INPUT, "run: expected a lab and a machine");
	if (!workload || !*workload)
		return lib_fail(err, PMLAB_ERR_INPUT, "run: expected a workload");
	run = calloc(1, sizeof(*run));
	if (!run || !(run->workload = strdup(workload))) {
		free(run);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	run->lab = lab;
	run->m = m->m;
	if (m->source && !(run->machine_source = strdup(m->source))) {
		free(run->workload);
		free(run);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	run->duration = RUNSPEC_DEFAULT_DURATION;
	run->seed = RUNSPEC_DEFAULT_SEED;
	export_filter_all(&run->filter);
	*out = run;
	return lib_ok(err);
}

void pmlab_run_free(pmlab_run *run)
{
	if (!run)
		return;
	free(run->machine_source);
	free(run->workload);
	free(run->cpufreq);
	free(run->cpuidle);
	free(run->profile);
	free(run->timeline);
	free(run->trace);
	lib_strings_free(&run->sets);
	free(run);
}

static pmlab_status keep(char **slot, const char *s, pmlab_error *err)
{
	if (lib_strdup_into(slot, s && *s ? s : NULL) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

pmlab_status pmlab_run_cpufreq(pmlab_run *run, const char *name, pmlab_error *err)
{
	return keep(&run->cpufreq, name, err);
}

pmlab_status pmlab_run_cpuidle(pmlab_run *run, const char *name, pmlab_error *err)
{
	return keep(&run->cpuidle, name, err);
}

pmlab_status pmlab_run_profile(pmlab_run *run, const char *entry, pmlab_error *err)
{
	return keep(&run->profile, entry, err);
}

pmlab_status pmlab_run_timeline(pmlab_run *run, const char *path, pmlab_error *err)
{
	return keep(&run->timeline, path, err);
}

pmlab_status pmlab_run_trace(pmlab_run *run, const char *path, pmlab_error *err)
{
	return keep(&run->trace, path, err);
}

pmlab_status pmlab_run_set(pmlab_run *run, const char *key_value, pmlab_error *err)
{
	if (!key_value)
		return lib_fail(err, PMLAB_ERR_INPUT, "--set: expected KEY=VALUE");
	if (lib_strings_add(&run->sets, key_value) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

pmlab_status pmlab_run_duration(pmlab_run *run, int64_t ns, pmlab_error *err)
{
	if (ns <= 0)
		return lib_fail(err, PMLAB_ERR_INPUT, "duration %lld ns: expected more than 0",
				(long long)ns);
	run->duration = ns;
	return lib_ok(err);
}

void pmlab_run_seed(pmlab_run *run, uint64_t seed)
{
	run->seed = seed;
}

void pmlab_run_check_invariants(pmlab_run *run, int on)
{
	run->check = on != 0;
}

pmlab_status pmlab_run_window(pmlab_run *run, const char *from_to, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };

	if (export_filter_window(&run->filter, from_to ? from_to : "", &d) < 0)
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	return lib_ok(err);
}

pmlab_status pmlab_run_trace_cpus(pmlab_run *run, const char *list, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };

	if (export_filter_cpus(&run->filter, list ? list : "", run->m.online_cpus, &d) < 0)
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	return lib_ok(err);
}

void pmlab_run_on_progress(pmlab_run *run, void (*fn)(void *ctx, double done), void *ctx)
{
	run->progress = fn;
	run->progress_ctx = ctx;
}

void pmlab_run_on_warning(pmlab_run *run, void (*fn)(void *ctx, const char *msg), void *ctx)
{
	run->warn = fn;
	run->warn_ctx = ctx;
}

/* The run specification, in pmlab sim's order. -1 with the reason in d. */
static int build(const pmlab_run *run, struct runspec *rs, struct pm_diag *d)
{
	if (runspec_init(rs, &run->m, run->workload, run->cpufreq, run->cpuidle, d) < 0 ||
	    (run->profile && runspec_profile(rs, run->profile, (const char *const *)run->lab->dirs,
					     run->lab->ndirs, d) < 0) ||
	    runspec_set_all(rs, (const char *const *)run->sets.s, run->sets.n, d) < 0)
		return -1;
	rs->duration = run->duration;
	rs->seed = run->seed;
	rs->check = run->check;
	rs->progress = run->progress;
	rs->progress_ctx = run->progress_ctx;
	rs->registry = &run->lab->plugins.reg;
	return runspec_check(rs, d);
}

pmlab_status pmlab_run_validate(pmlab_run *run, pmlab_error *err)
{
	struct runspec rs = { .nsets = 0 };
	struct pm_diag d = { { 0 } };
	int rc = build(run, &rs, &d);

	runspec_free(&rs);
	return rc < 0 ? lib_fail_diag(err, PMLAB_ERR_INPUT, &d) : lib_ok(err);
}

struct render {
	const struct run_result *r;
	enum result_format f;
	const struct run_inputs *in;
};

static int render(void *ctx, FILE *out, struct pm_diag *d)
{
	const struct render *x = ctx;

	if (result_write_inputs(out, x->r, x->f, x->in) < 0)
		return pm_fail(d, "cannot write the result");
	return 0;
}

struct capture {
	struct pmlab_result *res;
	const pmlab_run *run;
};

/* What the run was made from, written with every form of its result
 * (metrics/inputs.h): the command line's names of it. -1 on OOM. */
static int run_inputs(const pmlab_run *run, struct run_inputs *in)
{
	memset(in, 0, sizeof(*in));
	in->command = "sim";
	in->version = pmlab_version();
	in->machine_arg = run->machine_source;
	in->cpus = run->m.online_cpus < machine_possible_cpus(&run->m) ? run->m.online_cpus : 0;
	in->workload = run->workload;
	in->cpufreq = run->cpufreq;
	in->cpuidle = run->cpuidle;
	in->profile = run->profile;
	in->sets = (const char *const *)run->sets.s;
	in->nsets = run->sets.n;
	in->seed = run->seed;
	in->duration_s = (double)run->duration / NS_PER_SEC;
	in->dirs = (const char *const *)run->lab->dirs;
	in->ndirs = run->lab->ndirs;
	in->plugins = (const char *const *)run->lab->given.s;
	in->nplugins = run->lab->given.n;
	in->plugin_path = run->lab->plugin_path;
	in->path_plugins = (const char *const *)run->lab->listed.s;
	in->npath_plugins = run->lab->listed.n;
	return inputs_set_machine(in, &run->m);
}

/* Every text form of the result, while the simulation still exists. */
static int capture(void *ctx, struct sim *s, const struct run_result *r)
{
	const struct capture *c = ctx;
	struct pm_diag d = { { 0 } };
	static const enum result_format forms[] = { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };
	static const pmlab_format as[] = { PMLAB_TABLE, PMLAB_CSV, PMLAB_JSON };
	struct run_inputs in;

	if (run_inputs(c->run, &in) < 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		struct render x = { r, forms[i], &in };
		if (lib_result_capture(c->res, as[i], render, &x, &d) < 0)
			return -1;
	}
	return 0;
}

/* A run that may call a plugin's code, in a worker process
 * (plugin/guard.h): the three texts come back over the runner's pipe. */
struct isolated {
	const pmlab_run *run;
	const struct runspec *rs;
	const struct run_exports *x;
	const char *title;
	struct pmlab_result *res;
};

static const pmlab_format sent[] = { PMLAB_TABLE, PMLAB_CSV, PMLAB_JSON };
#define NSENT (sizeof(sent) / sizeof(sent[0]))

static int isolated_job(void *ctx, int i, FILE *out, struct pm_diag *d)
{
	const struct isolated *k = ctx;
	struct pmlab_result *res = lib_result_new();
	int rc;

	if (!res)
		return pm_fail(d, "out of memory");
	rc = single_run(k->rs, k->x, k->title, capture, &(struct capture){ res, k->run }, d);
	for (size_t f = 0; rc == 0 && f < NSENT; f++) {
		uint64_t len = strlen(res->text[sent[f]]);
		if (fwrite(&len, sizeof(len), 1, out) != 1 ||
		    fwrite(res->text[sent[f]], 1, len, out) != len)
			rc = pm_fail(d, "cannot send the result");
	}
	pmlab_result_free(res);
	return rc;
}

static int isolated_deliver(void *ctx, int i, const char *data, size_t len, struct pm_diag *d)
{
	const struct isolated *k = ctx;
	size_t at = 0;

	for (size_t f = 0; f < NSENT; f++) {
		uint64_t n;
		if (len - at < sizeof(n))
			return pm_fail(d, "the worker's result is cut short");
		memcpy(&n, data + at, sizeof(n));
		at += sizeof(n);
		if (n > len - at || !(k->res->text[sent[f]] = strndup(data + at, (size_t)n)))
			return pm_fail(d, n > len - at ? "the worker's result is cut short"
						       : "out of memory");
		at += (size_t)n;
	}
	return 0;
}

static void isolated_name(void *ctx, int i, char *buf, size_t size)
{
	const struct isolated *k = ctx;
	snprintf(buf, size, "%s", k->title);
}

static int run_isolated(const pmlab_run *run, const struct runspec *rs,
			const struct run_exports *x, struct pmlab_result *res, struct pm_diag *d,
			bool *in_plugin)
{
	struct isolated k = { run, rs, x, run->workload, res };
	struct plugin_guard *g = plugin_guard_new();
	struct runner r = {
		.njobs = 1, .workers = 1, .job = isolated_job, .ctx = &k, .name = isolated_name,
		.deliver = isolated_deliver, .isolate = true, .worker_init = plugin_guard_arm,
		.death_note = plugin_guard_note, .init_ctx = g, .keep_signals = true,
	};
	int rc;

	if (!g)
		return pm_fail(d, "cannot map a page for the worker's report");
	rc = runner_run(&r, d);
	*in_plugin = plugin_guard_report(g)[0] != '\0';
	plugin_guard_free(g);
	return rc;
}

pmlab_status pmlab_run_exec(pmlab_run *run, pmlab_result **out, pmlab_error *err)
{
	struct runspec rs = { .nsets = 0 };
	struct pm_diag d = { { 0 } };
	struct run_exports x = {
		.timeline = run->timeline, .trace = run->trace, .cmd = "sim", .filter = &run->filter,
		.quiet = !run->warn, .warn = run->warn, .warn_ctx = run->warn_ctx,
	};
	struct pmlab_result *res;
	pmlab_status code = PMLAB_OK;

	*out = NULL;
	if (build(run, &rs, &d) < 0) {
		runspec_free(&rs);
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	}
	res = lib_result_new();
	if (!res)
		code = lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	else if (run->lab->isolate && registry_has_plugins(rs.registry)) {
		bool in_plugin = false;
		if (run_isolated(run, &rs, &x, res, &d, &in_plugin) < 0)
			code = lib_fail_diag(err, in_plugin || strncmp(d.msg, "plugin ", 7) == 0
							  ? PMLAB_ERR_PLUGIN : PMLAB_ERR_RUN, &d);
	} else if (single_run(&rs, &x, run->workload, capture, &(struct capture){ res, run }, &d) < 0)
		code = !d.msg[0] ? lib_fail(err, PMLAB_ERR_NOMEM, "out of memory")
				 : lib_fail_diag(err, strncmp(d.msg, "plugin ", 7) == 0 ? PMLAB_ERR_PLUGIN
										     : PMLAB_ERR_RUN, &d);
	runspec_free(&rs);
	if (code != PMLAB_OK) {
		pmlab_result_free(res);
		return code;
	}
	*out = res;
	return lib_ok(err);
}
