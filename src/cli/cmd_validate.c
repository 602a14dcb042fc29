// SPDX-License-Identifier: GPL-2.0-only
/* pmlab validate: the published experiments of data/validation run
 * through the validation model (src/lab/validation.c) and written as
 * markdown. The report is honest, not a gate: large errors exit 0; only
 * bad data files (exit 2) or failed runs (exit 1) do not. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/datadir.h"
#include "../lab/validation.h"
#include "cli.h"
#include "options.h"

void usage_validate(void)
{
	printf("usage: pmlab validate [--data DIR|FILE] [--write FILE.md] [--jobs N] [NAME...]\n\n"
	       "Run every published experiment described in DIR (every *.ini; default\n"
	       "data/validation, else the installed share/pmlab/validation) or in FILE, or\n"
	       "only those NAMEd (a file's name without .ini, e.g. sched-mc-power-savings): each\n"
	       "row's policy on the experiment's machine and workload, with the experiment's\n"
	       "setup and calibration, and set the model's figures against the measured ones:\n"
	       "relative error (%%) for throughput, latency, power, frequency, runtime and\n"
	       "energy, absolute points for percentages. Check the orderings the measurements\n"
	       "show. Prints one line per experiment:\n"
	       "  NAME: max error X, mean error Y, orderings N/M match\n"
	       "and with --write, a summary, the orderings the model misses grouped by the\n"
	       "mechanism it lacks, and the tables side by side, as markdown. Exit 0\n"
	       "whatever the errors; 2 on a bad data file.\n\n"
	       "options:\n"
	       "      --data P          directory of experiments, or one .ini file\n"
	       "      --write FILE      write the markdown report to FILE\n"
	       "  -j, --jobs N          runs in parallel (default: processors online)\n");
}

static int is_ini(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 4 && strcmp(de->d_name + n - 4, ".ini") == 0;
}

static void free_paths(char **paths, int n)
{
	for (int i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

/* DIR's *.ini files in name order, or FILE alone. -1 after the message. */
static int list_files(const char *data, char ***out)
{
	struct dirent **list = NULL;
	struct stat st;
	char **paths;
	int n = 1, ok;

	if (stat(data, &st) < 0)
		return cli_bad("validate: --data %s: no such file or directory", data), -1;
	if (S_ISDIR(st.st_mode) && (n = scandir(data, &list, is_ini, alphasort)) <= 0) {
		free(list);
		return cli_bad("validate: %s: no .ini files", data), -1;
	}
	paths = calloc((size_t)n, sizeof(*paths));
	ok = paths != NULL;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(data) + (list ? strlen(list[i]->d_name) : 0) + 2;

		if (ok && (paths[i] = malloc(len)) && list)
			snprintf(paths[i], len, "%s/%s", data, list[i]->d_name);
		else if (ok && paths[i])
			snprintf(paths[i], len, "%s", data);
		ok = ok && paths[i];
		if (list)
			free(list[i]);
	}
	free(list);
	if (!ok) {
		free_paths(paths, n);
		return cli_bad("out of memory"), -1;
	}
	*out = paths;
	return n;
}

/* The experiment a path holds: its file name without .ini. */
static int is_named(const char *path, const char *name)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len = strlen(base) > 4 ? strlen(base) - 4 : strlen(base);

	return strlen(name) == len && strncmp(base, name, len) == 0;
}

/* Keeps of paths[0..*n) those names[0..nnames) name (all without names),
 * in their order there. -1 after the message: a name that is none of them. */
static int keep_named(char **paths, int *n, char **names, int nnames, const char *data)
{
	int kept = 0;

	if (nnames == 0)
		return 0;
	for (int j = 0; j < nnames; j++) {
		int found = 0;
		for (int i = 0; i < *n && !found; i++)
			found = is_named(paths[i], names[j]);
		if (!found)
			return cli_bad("validate: %s: no experiment %s.ini (see pmlab validate --help)",
				       data, names[j]), -1;
	}
	for (int i = 0; i < *n; i++) {
		int wanted = 0;
		for (int j = 0; j < nnames && !wanted; j++)
			wanted = is_named(paths[i], names[j]);
		if (wanted)
			paths[kept++] = paths[i];
		else
			free(paths[i]);
	}
	*n = kept;
	return 0;
}

/* One experiment: its summary line, its summary for the report's top,
 * and its section in md. Exit code. */
static int validate(struct validation *v, const char *path, int jobs, FILE *md,
		    struct vsummary *sum)
{
	struct cmp_set set = { .nmetrics = 0 };
	struct vscore sc;
	struct pm_diag d = { { 0 } };
	bool bad_input;
	int rc = EXIT_OK;

	if (validation_load(v, path, &d) < 0)
		return cli_bad("%s", d.msg);
	if (validation_run(v, jobs, &set, &bad_input, &d) < 0) {
		if (bad_input)
			rc = cli_bad("%s", d.msg);
		else
			fprintf(stderr, "pmlab: %s\n", d.msg);
		cmp_free(&set);
		return bad_input ? rc : EXIT_RUNTIME;
	}
	validation_score(v, &set, &sc);
	validation_summarize(v, &sc, sum);
	printf("%s: max error %.2f, mean error %.2f, orderings %d/%d match\n", v->name, sc.max_err,
	       sc.mean_err, sc.nmatch, v->norders);
	if (md)
		validation_report(md, v, &set, &sc);
	cmp_free(&set);
	return rc;
}

struct own {
	const char *data, *write;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;

	if (opt == 'D')
		w->data = arg;
	else if (opt == 'W')
		w->write = arg;
	else
		return 1;
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "data", required_argument, 0, 'D' },
		{ "write", required_argument, 0, 'W' },
		CLI_OPTION_JOBS,
		{ 0, 0, 0, 0 },
	};
	struct own w = { NULL, NULL };
	char found[4096];
	struct validation *v = malloc(sizeof(*v));
	struct pm_diag d = { { 0 } };
	struct cli_opts o;
	struct vsummary *sum = NULL;
	char **paths = NULL, *body = NULL;
	size_t bodylen = 0;
	int n = 0, i, rc = EXIT_USAGE;
	FILE *md = NULL, *sections = NULL;

	if (!v || cli_opts_init(&o, "validate", 0, argc) < 0) {
		free(v);
		return cli_bad("out of memory");
	}
	i = cli_parse(&o, argc, argv, ":j:", opts, own_option, &w);
	if (i < 0)
		goto out;
	/* data/validation, or the installed share/pmlab/validation. */
	if (!w.data && datadir_find("validation", found, sizeof(found)) == 0)
		w.data = found;
	if (!w.data) {
		cli_bad("validate: no data/validation here nor an installed one (expected --data "
			"DIR|FILE)");
		goto out;
	}
	if ((n = list_files(w.data, &paths)) < 0 ||
	    keep_named(paths, &n, argv + i, argc - i, w.data) < 0)
		goto out;
	/* Every file checked before any run. */
	for (i = 0, rc = EXIT_OK; i < n && rc == EXIT_OK; i++)
		if (validation_load(v, paths[i], &d) < 0)
			rc = cli_bad("%s", d.msg);
	if (rc == EXIT_OK && w.write && !(md = fopen(w.write, "w")))
		rc = cli_bad("validate: --write %s: cannot create", w.write);
	/* The sections wait in memory: the summary on top needs them all. */
	if (rc == EXIT_OK && (!(sum = calloc((size_t)n, sizeof(*sum))) ||
			      (md && !(sections = open_memstream(&body, &bodylen)))))
		rc = cli_bad("out of memory");
	for (i = 0; i < n && rc == EXIT_OK; i++)
		rc = validate(v, paths[i], o.jobs, sections, &sum[i]);
	if (sections && fclose(sections) != 0 && rc == EXIT_OK)
		rc = cli_bad("out of memory");
	if (md && rc == EXIT_OK) {
		validation_report_head(md);
		validation_report_summary(md, sum, n);
		fwrite(body, 1, bodylen, md);
	}
	if (md && fclose(md) != 0 && rc == EXIT_OK)
		rc = cli_bad("validate: --write %s: cannot write", w.write);
out:
	free(body);
	free(sum);
	free_paths(paths, n);
	free(v);
	cli_opts_free(&o);
	return rc;
}
