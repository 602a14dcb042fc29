// SPDX-License-Identifier: GPL-2.0-only
#include "comparison.h"

#include <stdlib.h>
#include <string.h>

#include "../plugin/registry.h"
#include "../workload/workload.h"
#include "batch.h"

static const char *label_of(const struct comparison *c, int i)
{
	return c->label ? c->label[i] : c->policy[i];
}

static int setup_one(struct comparison *c, int i, struct cmp_set *set, struct pm_diag *d)
{
	struct runspec *rs = &c->spec[i];
	char why[PM_DIAG_MAX];

	if (runspec_init(rs, c->m, c->workload, c->cpufreq, c->cpuidle, d) < 0)
		return -1;
	rs->registry = c->registry;
	rs->workload_data = c->workload_data;
	rs->duration = c->duration;
	rs->seed = c->seed;
	if (runspec_profile(rs, c->policy[i], c->dirs, c->ndirs, d) < 0 ||
	    runspec_set_all(rs, c->sets, c->nsets, d) < 0)
		return -1;
	if (runspec_check(rs, d) < 0) {
		snprintf(why, sizeof(why), "%s", d->msg);
		return pm_fail(d, "%s: %.*s", c->policy[i], PM_DIAG_MAX - 80, why);
	}
	if (cmp_set_profile(set, i, label_of(c, i), runspec_cpufreq(rs, NULL), rs->cpuidle, rs->note,
			    rs->skipped) < 0)
		return pm_fail(d, "out of memory");
	return 0;
}

/* What a worker sends back per run: the throughput unit, then the
 * figures. */
struct collect {
	struct comparison *c;
	struct cmp_set *set;
};

static int emit(void *ctx, const struct run_result *r, FILE *out)
{
	const struct collect *k = ctx;
	double *v = calloc((size_t)k->set->nmetrics, sizeof(*v));
	char unit[RESULT_NAME_MAX] = { 0 };

	if (!v)
		return -1;
	snprintf(unit, sizeof(unit), "%.*s", (int)strnlen(r->throughput_unit, sizeof(unit) - 1),
		 r->throughput_unit);
	cmp_sample(k->set, r, v);
	fwrite(unit, 1, sizeof(unit), out);
	fwrite(v, sizeof(*v), (size_t)k->set->nmetrics, out);
	free(v);
	return 0;
}

static int collect(void *ctx, int i, int run, const char *data, size_t len, struct pm_diag *d)
{
	const struct collect *k = ctx;
	struct cmp_set *set = k->set;
	size_t want = RESULT_NAME_MAX + (size_t)set->nmetrics * sizeof(double);
	double *row;

	if (len != want)
		return pm_fail(d, "%s: run %d: malformed answer from its worker", k->c->cmd,
			       i * set->nruns + run);
	if (i == 0 && run == 0)
		cmp_set_unit(set, data);
	if (strncmp(set->unit, data, RESULT_NAME_MAX) != 0)
		return pm_fail(d, "%s: %s reports throughput in %.*s, %s in %s: not comparable",
			       k->c->cmd, set->profile[i].name, RESULT_NAME_MAX, data,
			       set->profile[0].name, set->unit);
	/* Copied out: the buffer gives no alignment guarantee to doubles
	 * behind the unit. */
	row = calloc((size_t)set->nmetrics, sizeof(*row));
	if (!row)
		return pm_fail(d, "out of memory");
	memcpy(row, data + RESULT_NAME_MAX, want - RESULT_NAME_MAX);
	cmp_put_run(set, i, run, row);
	free(row);
	return 0;
}

static void label(void *ctx, int i, char *buf, size_t size)
{
	const struct collect *k = ctx;

	snprintf(buf, size, "%s", label_of(k->c, i));
}

static void done(void *ctx, int ndone, int njobs)
{
	const struct collect *k = ctx;

	if (k->c->done)
		k->c->done(k->c->done_ctx, ndone, njobs);
}

static struct batch make_batch(struct comparison *c, struct collect *k)
{
	return (struct batch){
		.cmd = c->cmd, .spec = c->spec, .nspecs = c->npolicies, .runs = c->runs,
		.name_runs = true, .workers = c->workers, .label = label, .emit = emit,
		.collect = collect, .done = done, .timeline = c->timeline, .ctx = k,
		.keep_signals = c->keep_signals,
	};
}

int comparison_setup(struct comparison *c, struct cmp_set *set, int *bad, struct pm_diag *d)
{
	*bad = -1;
	if (cmp_init(set, c->m, c->npolicies, c->runs) < 0 ||
	    !(c->spec = calloc((size_t)c->npolicies, sizeof(*c->spec))))
		return pm_fail(d, "out of memory");
	snprintf(set->workload, sizeof(set->workload), "%s", c->workload);
	const struct workload_ops *w = registry_workload_find_spec(c->registry, c->workload);
	if (w && w->ends_run)
		cmp_add_run_figures(set);
	set->duration_s = (double)c->duration / NS_PER_SEC;
	set->seed = c->seed;
	set->baseline = c->baseline;
	for (int i = 0; i < c->npolicies; i++) {
		if (setup_one(c, i, set, d) < 0) {
			*bad = i;
			return -1;
		}
	}
	struct collect k = { c, set };
	struct batch b = make_batch(c, &k);

	return batch_check(&b, d);
}

int comparison_run(struct comparison *c, struct cmp_set *set, struct pm_diag *d)
{
	struct collect k = { c, set };
	struct batch b = make_batch(c, &k);

	return batch_run(&b, d);
}

void comparison_free(struct comparison *c)
{
	for (int i = 0; c->spec && i < c->npolicies; i++)
		runspec_free(&c->spec[i]);
	free(c->spec);
	c->spec = NULL;
}
