// SPDX-License-Identifier: GPL-2.0-only
#include "compare_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../export/compare_html.h"
#include "../lab/comparison.h"
#include "../plugin/loader.h"
#include "../metrics/inputs.h"
#include "cli.h"
#include "progress.h"

/* Splits a --profiles list. "balanced:governor=x,energy_perf_bias=y" is
 * one entry: an item that is OPTION=VALUE (no ':' and no '/') continues
 * the entry before it, as tuned's own override syntax would read it. */
int compare_split_profiles(const char *arg, char ***list, int *n)
{
	char *copy = strdup(arg), *item, *save = NULL;
	int rc = 0;

	if (!copy)
		return -1;
	for (item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save)) {
		char **grown;

		if (*n > 0 && strchr(item, '=') && !strpbrk(item, ":/") && strchr((*list)[*n - 1], ':')) {
			size_t a = strlen((*list)[*n - 1]), b = strlen(item);
			char *joined = realloc((*list)[*n - 1], a + b + 2);

			if (!joined) {
				rc = -1;
				break;
			}
			joined[a] = ',';
			memcpy(joined + a + 1, item, b + 1);
			(*list)[*n - 1] = joined;
			continue;
		}
		grown = realloc(*list, (size_t)(*n + 1) * sizeof(*grown));
		if (!grown || !(grown[*n] = strdup(item))) {
			if (grown)
				*list = grown;
			rc = -1;
			break;
		}
		*list = grown;
		(*n)++;
	}
	free(copy);
	return rc;
}

static void job_done(void *ctx, int done, int total)
{
	progress_update(ctx, done, total);
}

static int baseline_of(const char *const *profiles, int n, const char *baseline)
{
	for (int i = 0; baseline && i < n; i++)
		if (strcmp(profiles[i], baseline) == 0)
			return i;
	return baseline ? -1 : 0;
}

int compare_out(const struct cli_opts *o, const struct machine *m, const char *const *profiles,
		int n, const char *baseline, int runs, const struct run_inputs *given)
{
	struct progress prog;
	char what[64];
	struct comparison c = {
		.cmd = o->cmd, .m = m, .workload = o->workload, .cpufreq = o->cpufreq,
		.cpuidle = o->cpuidle, .duration = o->duration, .seed = o->seed, .runs = runs,
		.sets = o->sets, .nsets = o->nsets, .dirs = o->dirs, .ndirs = o->ndirs,
		.policy = profiles, .npolicies = n, .baseline = baseline_of(profiles, n, baseline),
		.timeline = o->timeline, .workers = o->jobs, .done = job_done, .done_ctx = &prog,
	};
	struct cmp_set set = { .nmetrics = 0 };

	/* --profiles '' or ',': nothing to compare (replay --profiles '' read
	 * past an empty table) */
	if (n < 1)
		return cli_bad("%s: --profiles: expected one or more profiles, comma-separated",
			       o->cmd);
	struct pm_diag d = { { 0 } };
	struct plugin_set plugins = { .n = 0 };
	struct run_inputs in;
	const char *extra[2];
	int rc = EXIT_USAGE, bad;

	for (int i = 0; i < n; i++)
		for (int k = 0; k < i; k++)
			if (strcmp(profiles[k], profiles[i]) == 0)
				return cli_bad("%s: profile '%s' is listed twice", o->cmd, profiles[i]);
	if (c.baseline < 0) {
		cli_bad("%s: --baseline %s: not one of --profiles", o->cmd, baseline);
		return rc;
	}
	if (cli_load_plugins(o, &plugins) < 0)
		goto out;
	c.registry = &plugins.reg;
	if (comparison_setup(&c, &set, &bad, &d) < 0) {
		cli_bad("%s: %s", o->cmd, d.msg);
		goto out;
	}
	snprintf(what, sizeof(what), "%s: runs", o->cmd);
	progress_start(&prog, what);
	rc = comparison_run(&c, &set, &d);
	progress_end(&prog);
	if (rc < 0) {
		fprintf(stderr, "pmlab: %s\n", d.msg);
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (given) {
		in = *given;
	} else if (cli_inputs(o, m, &in) < 0) {
		fprintf(stderr, "pmlab: %s: out of memory\n", o->cmd);
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (cli_inputs_plugins(o, &plugins, &in) < 0) {
		fprintf(stderr, "pmlab: %s: out of memory\n", o->cmd);
		rc = EXIT_RUNTIME;
		goto out;
	}
	in.profiles = profiles;
	in.nprofiles = n;
	in.runs = runs;
	if (baseline && in.nextra == 0) {
		extra[0] = "--baseline";
		extra[1] = baseline;
		in.extra = extra;
		in.nextra = 2;
	}
	set.inputs = &in;
	rc = EXIT_OK;
	if ((o->format == CLI_HTML ? cmp_write_html(stdout, &set)
				   : cmp_write(stdout, &set, (enum cmp_format)o->format)) < 0 ||
	    fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: %s: cannot write the result to standard output\n", o->cmd);
		rc = EXIT_RUNTIME;
	}
	free((void *)in.path_plugins);
out:
	comparison_free(&c);
	cmp_free(&set);
	plugin_set_free(&plugins);
	return rc;
}
