// SPDX-License-Identifier: GPL-2.0-only
#include "single_run.h"

#include <stdio.h>
#include <stdlib.h>

#include "../export/observer_tee.h"
#include "../export/perfetto.h"
#include "../export/tracedat_export.h"

/* The size estimate looks at the output this often (of the run's span). */
#define ESTIMATE_STEPS 64

struct estimate {
	uint64_t bytes;   /* at the previous check */
	sim_ns at;
	double warned_mb; /* the estimate last announced, 0: none */
};

struct wrap {
	struct perfetto *tl;
	struct simtrace *tr;
	const struct run_exports *x;
	int (*use)(void *ctx, struct sim *s, const struct run_result *r);
	void *ctx;
	struct pm_diag *d;
	struct observer_tee exports, all; /* all: the exports, then the watcher */
	struct sim_observer watch;        /* the size estimate */
	sim_ns from, span, next_check;
	double warn_tl_mb, warn_tr_mb;
	struct estimate est_tl, est_tr;
};

static double env_mb(const char *name, double def)
{
	const char *v = getenv(name);
	char *end;
	double mb = v ? strtod(v, &end) : 0;
	return v && end != v && mb > 0 ? mb : def;
}

/* The estimate assumes the run lasts to its end (-d or the window's): a
 * workload that finishes sooner (hackbench's loops, a replayed trace)
 * writes less, which the message says. */
static void warn(struct wrap *w, const char *what, const char *path, double mb, double done,
		 double limit, const char *also)
{
	char msg[PM_DIAG_MAX];

	snprintf(msg, sizeof(msg), "%s %.400s will be about %.*f MB (estimated at %.0f %% of the "
		 "run, if it lasts to %g s; warning above %g MB%s); keep part of it with "
		 "--window FROM:TO or --trace-cpus LIST", what, path, mb < 10 ? 1 : 0, mb,
		 done * 100, (double)(w->from + w->span) / 1e9, limit, also);
	if (w->x->warn)
		w->x->warn(w->x->warn_ctx, msg);
	else
		fprintf(stderr, "pmlab: %s: %s\n", w->x->cmd, msg);
}

/* The bytes so far plus the rest of the span at the rate of the last
 * step (the start of a run is often quieter than the rest). */
static double estimate(struct estimate *e, uint64_t bytes, sim_ns now, sim_ns end)
{
	double rate = now > e->at ? (double)(bytes - e->bytes) / (double)(now - e->at) : 0;
	e->bytes = bytes;
	e->at = now;
	return ((double)bytes + rate * (double)(end - now)) / 1e6;
}

/* Warns once the estimate passes the limit, and again each time it has
 * doubled since. */
static void check_one(struct wrap *w, struct estimate *e, uint64_t bytes, sim_ns now,
		      const char *what, const char *path, double limit, const char *also)
{
	double mb = estimate(e, bytes, now, w->from + w->span);
	if (mb > limit && mb > 2 * e->warned_mb && !w->x->quiet) {
		warn(w, what, path, mb, (double)(now - w->from) / (double)w->span, limit, also);
		e->warned_mb = mb;
	}
}

static void check_size(struct wrap *w, sim_ns now)
{
	w->next_check += w->span / ESTIMATE_STEPS;
	if (w->tl)
		check_one(w, &w->est_tl, perfetto_bytes(w->tl), now, "the timeline",
			  w->x->timeline, w->warn_tl_mb, ", what the Perfetto UI loads comfortably");
	if (w->tr)
		check_one(w, &w->est_tr, simtrace_bytes(w->tr), now, "the trace", w->x->trace,
			  w->warn_tr_mb, "");
}

static void watch_run(void *ctx, int cpu, sim_ns now, const struct task *t)
{
	struct wrap *w = ctx;
	if (now >= w->next_check)
		check_size(w, now);
}

/* The watcher sees cpu_run, which comes often enough to time the checks,
 * after the exports have written it. */
static void watch_init(struct wrap *w, const struct runspec *rs)
{
	const struct export_filter *f = w->x->filter;
	sim_ns to = f && f->to < rs->duration ? f->to : rs->duration;
	w->from = f ? f->from : 0;
	w->span = to > w->from ? to - w->from : 1;
	w->next_check = w->from + w->span / ESTIMATE_STEPS;
	w->est_tl.at = w->est_tr.at = w->from;
	w->warn_tl_mb = env_mb("PMLAB_EXPORT_WARN_MB", SINGLE_RUN_TIMELINE_WARN_MB);
	w->warn_tr_mb = env_mb("PMLAB_EXPORT_WARN_MB", SINGLE_RUN_TRACE_WARN_MB);
	w->watch = (struct sim_observer){ .ctx = w, .cpu_run = watch_run };
	observer_tee_init(&w->all, &w->exports.obs, &w->watch);
}

static int finish(void *ctx, struct sim *s, const struct run_result *r)
{
	struct wrap *w = ctx;
	struct pm_diag closing = { { 0 } };
	int rc = 0;

	if (w->tl) {
		rc = perfetto_close(w->tl, r->duration_ns, &closing);
		w->tl = NULL;
	}
	if (w->tr) {
		if (simtrace_close(w->tr, r->duration_ns, rc < 0 ? &(struct pm_diag){ { 0 } }
								 : &closing) < 0)
			rc = -1;
		w->tr = NULL;
	}
	if (w->use(w->ctx, s, r) < 0)
		return -1;
	if (rc < 0)
		return pm_fail(w->d, "%s", closing.msg);
	return 0;
}

int single_run(const struct runspec *rs, const struct run_exports *x, const char *title,
	       int (*use)(void *ctx, struct sim *s, const struct run_result *r), void *ctx,
	       struct pm_diag *d)
{
	static const struct run_exports none = { .cmd = "sim" };
	struct runspec run = *rs;
	struct wrap w = { .x = x ? x : &none, .use = use, .ctx = ctx, .d = d };
	int rc;

	x = w.x;
	if (x->timeline) {
		w.tl = perfetto_open(x->timeline, rs->m, title, x->filter, d);
		if (!w.tl)
			return -1;
	}
	if (x->trace) {
		w.tr = simtrace_open(x->trace, rs->m, x->filter, d);
		if (!w.tr) {
			if (w.tl)
				perfetto_discard(w.tl);
			return -1;
		}
	}
	if (w.tl || w.tr) {
		observer_tee_init(&w.exports, w.tl ? perfetto_observer(w.tl) : NULL,
				  w.tr ? simtrace_observer(w.tr) : NULL);
		watch_init(&w, rs);
		run.observer = &w.all.obs;
	}
	rc = runspec_run(&run, finish, &w, d);
	if (w.tl)
		perfetto_discard(w.tl);
	if (w.tr)
		simtrace_discard(w.tr);
	return rc;
}
