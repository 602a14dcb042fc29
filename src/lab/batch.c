// SPDX-License-Identifier: GPL-2.0-only
#include "batch.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../export/perfetto.h"
#include "runner.h"

#define LABEL_MAX 512

char *batch_timeline_path(const char *prefix, const char *label)
{
	size_t a = strlen(prefix), b = strlen(label);
	char *path = malloc(a + b + 7);

	if (!path)
		return NULL;
	memcpy(path, prefix, a);
	path[a] = '-';
	for (size_t i = 0; i < b; i++)
		path[a + 1 + i] = strchr("/:,=", label[i]) ? '_' : label[i];
	memcpy(path + a + 1 + b, ".json", 6);
	return path;
}

int batch_check(const struct batch *b, struct pm_diag *d)
{
	char li[LABEL_MAX], lk[LABEL_MAX];

	for (int i = 0; b->timeline && i < b->nspecs; i++)
		for (int k = 0; k < i; k++) {
			b->label(b->ctx, i, li, sizeof(li));
			b->label(b->ctx, k, lk, sizeof(lk));
			char *x = batch_timeline_path("", li), *y = batch_timeline_path("", lk);
			int same = x && y && strcmp(x, y) == 0, oom = !x || !y;

			free(x);
			free(y);
			if (oom)
				return pm_fail(d, "out of memory");
			if (same)
				return pm_fail(d, "%s: --timeline: profiles '%s' and '%s' give the same "
					       "file name", b->cmd, lk, li);
		}
	return 0;
}

/* "compare: balanced, run 2 (seed 8)", "sweep: point 3 (hz=100)". */
static void job_name(void *ctx, int job, char *buf, size_t size)
{
	const struct batch *b = ctx;
	int i = job / b->runs, run = job % b->runs;
	char label[LABEL_MAX];

	b->label(b->ctx, i, label, sizeof(label));
	if (b->name_runs)
		snprintf(buf, size, "%s: %s, run %d (seed %" PRIu64 ")", b->cmd, label, run + 1,
			 b->spec[i].seed + (uint64_t)run);
	else
		snprintf(buf, size, "%s: %s", b->cmd, label);
}

struct sink {
	const struct batch *b;
	FILE *out;
	sim_ns duration; /* the run's, for the timeline's end */
};

static int emit(void *ctx, struct sim *s, const struct run_result *r)
{
	struct sink *k = ctx;

	k->duration = r->duration_ns;
	return k->b->emit(k->b->ctx, r, k->out);
}

/* Each spec's first run, in whichever process runs it: the file is the
 * worker's own, the output unchanged. */
static struct perfetto *open_timeline(const struct batch *b, int i, struct runspec *rs,
				      struct pm_diag *d)
{
	char label[LABEL_MAX], title[LABEL_MAX + RESULT_NAME_MAX];
	struct perfetto *tl;
	char *path;

	b->label(b->ctx, i, label, sizeof(label));
	path = batch_timeline_path(b->timeline, label);
	if (!path) {
		pm_fail(d, "out of memory");
		return NULL;
	}
	snprintf(title, sizeof(title), "%s, %s", rs->workload, label);
	tl = perfetto_open(path, rs->m, title, NULL, d);
	free(path);
	if (tl)
		rs->observer = perfetto_observer(tl);
	return tl;
}

static int run_job(void *ctx, int job, FILE *out, struct pm_diag *d)
{
	const struct batch *b = ctx;
	int i = job / b->runs, run = job % b->runs, rc;
	struct runspec rs = b->spec[i];
	struct sink k = { b, out, 0 };
	struct perfetto *tl = NULL;

	rs.seed = b->spec[i].seed + (uint64_t)run;
	if (b->timeline && run == 0 && !(tl = open_timeline(b, i, &rs, d)))
		return -1;
	rc = runspec_run(&rs, emit, &k, d);
	if (tl) {
		if (rc < 0)
			perfetto_discard(tl);
		else if (perfetto_close(tl, k.duration, d) < 0)
			return -1;
	}
	if (rc < 0) {
		char why[PM_DIAG_MAX], name[LABEL_MAX + 64];

		snprintf(why, sizeof(why), "%s", d->msg[0] ? d->msg : "cannot write the result");
		job_name(ctx, job, name, sizeof(name));
		return pm_fail(d, "%s: %s", name, why);
	}
	return 0;
}

static void job_done(void *ctx, int ndone, int njobs)
{
	const struct batch *b = ctx;

	if (b->done)
		b->done(b->ctx, ndone, njobs);
}

/* Each job's bytes, in job order, as soon as the jobs before it are done. */
static int deliver(void *ctx, int job, const char *data, size_t len, struct pm_diag *d)
{
	const struct batch *b = ctx;

	return b->collect(b->ctx, job / b->runs, job % b->runs, data, len, d);
}

int batch_run(const struct batch *b, struct pm_diag *d)
{
	struct runner r = { b->nspecs * b->runs, b->workers, run_job, (void *)b, job_done,
			    job_name, deliver };

	return runner_run(&r, d);
}
