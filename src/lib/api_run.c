// SPDX-License-Identifier: GPL-2.0-only
/* One run: what pmlab sim does, as a handle. The settings are kept as
 * given and the run specification (lab/runspec.h) is built from them in
 * pmlab sim's order -- governors, then the profile, then KEY=VALUE
 * settings -- whatever order the setters were called in. A replay's run
 * (pmlab_replay_run) has the trace as its workload and the replay's
 * settings first. */
#include <stdlib.h>
#include <string.h>

#include "../export/export_filter.h"
#include "../lab/runspec.h"
#include "../lab/runner.h"
#include "../lab/single_run.h"
#include "../metrics/inputs.h"
#include "lib_replay.h"
#include "worker.h"

struct pmlab_run {
	const pmlab_lab *lab;
	struct machine m;
	char *machine_source; /* pmlab_machine's source */
	char *workload, *cpufreq, *cpuidle, *profile, *timeline, *trace;
	struct lib_strings sets; /* a replay's own first (npre), then pmlab_run_set's */
	int npre;
	const pmlab_replay *replay; /* NULL: not a replay's run */
	bool per_task;
	bool cpus_set;            /* the machine was limited (a replay's --cpus) */
	sim_ns duration;
	uint64_t seed;
	bool check;
	struct export_filter filter;
	void (*progress)(void *ctx, double done);
	void *progress_ctx;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

/* A run of workload on m, the machine named source (may be NULL). */
static pmlab_status new_run(const pmlab_lab *lab, const struct machine *m, const char *source,
			    const char *workload, pmlab_run **out, pmlab_error *err)
{
	pmlab_run *run = calloc(1, sizeof(*run));

	if (!run || !(run->workload = strdup(workload)) ||
	    lib_strdup_into(&run->machine_source, source) < 0) {
		pmlab_run_free(run);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	run->lab = lab;
	run->m = *m;
	run->duration = RUNSPEC_DEFAULT_DURATION;
	run->seed = RUNSPEC_DEFAULT_SEED;
	export_filter_all(&run->filter);
	*out = run;
	return lib_ok(err);
}

pmlab_status pmlab_run_new(const pmlab_lab *lab, const pmlab_machine *m, const char *workload,
			   pmlab_run **out, pmlab_error *err)
{
	*out = NULL;
	if (!lab || !m)
		return lib_fail(err, PMLAB_ERR_INPUT, "run: expected a lab and a machine");
	if (!workload || !*workload)
		return lib_fail(err, PMLAB_ERR_INPUT, "run: expected a workload");
	return new_run(lab, &m->m, m->source, workload, out, err);
}

pmlab_status pmlab_replay_run(const pmlab_lab *lab, const pmlab_replay *rp, pmlab_run **out,
			      pmlab_error *err)
{
	pmlab_status rc;

	*out = NULL;
	rc = lib_replay_usable(lab, rp, err);
	if (rc == PMLAB_OK)
		rc = new_run(lab, &rp->r.m, rp->machine, rp->r.workload, out, err);
	if (rc == PMLAB_OK && lib_replay_presets(rp, &(*out)->sets) < 0)
		rc = lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	if (rc != PMLAB_OK) {
		pmlab_run_free(*out);
		*out = NULL;
		return rc;
	}
	(*out)->npre = rp->r.npre;
	(*out)->replay = rp;
	(*out)->cpus_set = rp->cpus[0] != '\0';
	(*out)->duration = rp->r.duration;
	return lib_ok(err);
}

pmlab_status pmlab_run_per_task(pmlab_run *run, int on, pmlab_error *err)
{
	if (!run->replay)
		return lib_fail(err, PMLAB_ERR_STATE, "per-task CPU times are a replay's "
				"(pmlab_replay_run)");
	run->per_task = on != 0;
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
	if (run->replay) {
		rs->workload_data = &run->replay->r.rm;
		rs->keep_finished_tasks = run->per_task;
	}
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

/* What the run was made from, written with every form of its result
 * (metrics/inputs.h): the command line's names of it. -1 on OOM. */
static int run_inputs(const pmlab_run *run, struct run_inputs *in)
{
	bool cpus = run->replay ? run->cpus_set
				: run->m.online_cpus < machine_possible_cpus(&run->m);

	if (lib_inputs(in, run->replay ? "replay" : "sim", run->lab, &run->m, run->machine_source,
		       cpus) < 0)
		return -1;
	in->workload = run->workload;
	in->cpufreq = run->cpufreq;
	in->cpuidle = run->cpuidle;
	in->profile = run->profile;
	in->sets = (const char *const *)run->sets.s + run->npre;
	in->nsets = run->sets.n - run->npre;
	in->seed = run->seed;
	in->duration_s = (double)run->duration / NS_PER_SEC;
	if (run->replay)
		lib_replay_inputs(run->replay, in);
	return 0;
}

struct render {
	const pmlab_run *run;
	struct sim *s;
	const struct run_result *r;
	pmlab_format f;
	const struct run_inputs *in;
};

/* One form: as pmlab sim prints it; a replay's table ends with what was
 * replayed, and its page is the replay's. */
static int render(void *ctx, FILE *out, struct pm_diag *d)
{
	const struct render *x = ctx;
	static const enum result_format as[] = {
		[PMLAB_TABLE] = FORMAT_TABLE, [PMLAB_CSV] = FORMAT_CSV, [PMLAB_JSON] = FORMAT_JSON,
	};
	const pmlab_replay *rp = x->run->replay;

	if (x->f == PMLAB_HTML ? lib_replay_html(rp, out, x->r, x->in) < 0
			       : result_write_inputs(out, x->r, as[x->f], x->in) < 0)
		return pm_fail(d, "cannot write the result");
	if (x->f == PMLAB_TABLE && rp)
		lib_replay_table_end(rp, out, x->s, x->r, x->run->per_task);
	return 0;
}

struct capture {
	struct pmlab_result *res;
	const pmlab_run *run;
	unsigned forms;
};

/* The forms asked for, while the simulation still exists. */
static int capture(void *ctx, struct sim *s, const struct run_result *r)
{
	const struct capture *c = ctx;
	struct pm_diag d = { { 0 } };
	struct run_inputs in;
	char note[256];

	if (c->run->replay && c->run->warn) {
		lib_replay_unfinished(c->run->replay, r, note, sizeof(note));
		if (note[0])
			c->run->warn(c->run->warn_ctx, note);
	}
	if (run_inputs(c->run, &in) < 0)
		return -1;
	for (int f = PMLAB_TABLE; f <= PMLAB_HTML; f++) {
		struct render x = { c->run, s, r, (pmlab_format)f, &in };
		if ((c->forms & LIB_FORM(f)) && lib_result_capture(c->res, f, render, &x, &d) < 0)
			return -1;
	}
	return 0;
}

struct job {
	const pmlab_run *run;
	const struct runspec *rs;
	const struct run_exports *x;
};

/* The run, here or in a worker (worker.h). */
static int compute(const void *ctx, struct pmlab_result *res, unsigned forms, pmlab_status *code,
		   struct pm_diag *d)
{
	const struct job *k = ctx;

	if (single_run(k->rs, k->x, k->run->workload, capture,
		       &(struct capture){ res, k->run, forms }, d) == 0)
		return 0;
	*code = !d->msg[0] ? PMLAB_ERR_NOMEM
	      : strncmp(d->msg, "plugin ", 7) == 0 ? PMLAB_ERR_PLUGIN : PMLAB_ERR_RUN;
	if (!d->msg[0])
		pm_fail(d, "out of memory");
	return -1;
}

/* Runs it into *out, rendering the forms asked for. */
static pmlab_status run_forms(pmlab_run *run, unsigned forms, pmlab_result **out,
			      pmlab_error *err)
{
	struct runspec rs = { .nsets = 0 };
	struct pm_diag d = { { 0 } };
	struct run_exports x = {
		.timeline = run->timeline, .trace = run->trace, .cmd = "sim", .filter = &run->filter,
		.quiet = !run->warn, .warn = run->warn, .warn_ctx = run->warn_ctx,
	};
	pmlab_status rc;

	*out = NULL;
	if (build(run, &rs, &d) < 0) {
		runspec_free(&rs);
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	}
	rc = lib_compute(run->lab, run->workload, compute, &(struct job){ run, &rs, &x }, forms, out,
			 err);
	runspec_free(&rs);
	return rc;
}

/* The forms a run's result has: a replay's also HTML. */
static unsigned forms_of(const pmlab_run *run)
{
	return LIB_FORM(PMLAB_TABLE) | LIB_FORM(PMLAB_CSV) | LIB_FORM(PMLAB_JSON) |
	       (run->replay ? LIB_FORM(PMLAB_HTML) : 0);
}

pmlab_status pmlab_run_exec(pmlab_run *run, pmlab_result **out, pmlab_error *err)
{
	return run_forms(run, forms_of(run), out, err);
}

pmlab_status pmlab_run_write(pmlab_run *run, FILE *out, pmlab_format f, pmlab_error *err)
{
	pmlab_result *res;
	pmlab_status rc;
	int bad;

	if (!out || (unsigned)f > PMLAB_HTML || !(forms_of(run) & LIB_FORM(f)))
		return lib_fail(err, PMLAB_ERR_INPUT, "run: expected a stream and a form the "
				"result has (HTML: a replay's)");
	rc = run_forms(run, LIB_FORM(f), &res, err);
	if (rc != PMLAB_OK)
		return rc;
	bad = fputs(res->text[f], out) < 0;
	pmlab_result_free(res);
	return bad ? lib_fail(err, PMLAB_ERR_IO, "run: cannot write the result") : lib_ok(err);
}
