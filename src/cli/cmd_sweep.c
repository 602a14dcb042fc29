// SPDX-License-Identifier: GPL-2.0-only
/* pmlab sweep: one run per point of a Cartesian product of settings,
 * written as CSV or JSON rows; --shard runs one slice of the points so
 * that a batch system can spread a sweep over machines, and pmlab merge
 * joins the slices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lab_client.h"
#include "options.h"
#include "progress.h"

void usage_sweep(void)
{
	printf("usage: pmlab sweep --machine M --workload W --vary KEY=V1,V2,... [options]\n\n"
	       "Run one simulation per point of the Cartesian product of the --vary lists and\n"
	       "print one row per point: its number, the varied values, then the columns of\n"
	       "'pmlab sim --format csv' (CSV), or a JSON object {\"schema\": \"pmlab-sweep\",\n"
	       "\"version\": 2, \"inputs\", \"points\"}, points an array of objects {\"point\",\n"
	       "\"vary\", \"result\"} where result is the 'pmlab sim --format json' object.\n"
	       "Every format records the inputs (as pmlab sim: CSV '#' lines, the JSON\n"
	       "\"inputs\", HTML), the --vary axes among them, with the command that runs the\n"
	       "whole sweep again.\n\n"
	       "Points are numbered from 0 in the order of the --vary options, the last one\n"
	       "varying fastest. KEY is machine, workload, profile, cpufreq, cpuidle, seed,\n"
	       "cpus, duration, or any --set key (pmlab governors, pmlab workloads); values\n"
	       "cannot contain ','. As in pmlab sim, --cpufreq (or a varied cpufreq), --set\n"
	       "and varied keys win over a profile's governor and settings.\n\n"
	       "CSV columns are those of every point, in order of first appearance (points on\n"
	       "machines with other C-states, or workloads with other figures, leave the cells\n"
	       "they lack empty).\n\n"
	       "options:\n"
	       "  -m, --machine M       built-in machine (pmlab machines) or an .ini file\n"
	       "  -w, --workload W      workload model (pmlab workloads)\n"
	       "  -v, --vary KEY=V,...  a dimension of the sweep; repeatable\n"
	       "      --set KEY=VALUE   tunable for every point; repeatable\n"
	       "  -c, --cpus N          restrict the machine to its first N CPUs\n"
	       "  -d, --duration S      simulated seconds per point (default 10)\n"
	       "  -s, --seed N          random seed (default 1)\n"
	       "      --cpufreq G       frequency governor (default: the machine's, as in pmlab sim)\n"
	       "      --cpuidle G       idle governor (default: the machine's, as in pmlab sim)\n"
	       "      --profile P       tuned profile for every point (see pmlab compare --help)\n"
	       "      --profile-dir DIR look for profiles in DIR first; repeatable\n"
	       "      --plugin FILE     load the governors of a plugin (pmlab/plugin.h); repeatable\n"
	       "  -j, --jobs J          points in parallel, in J processes (default: processors\n"
	       "                        online); the output does not depend on J\n"
	       "      --shard I/N       run only the points whose number modulo N is I\n"
	       "                        (0 <= I < N); 'pmlab merge' joins the N outputs into\n"
	       "                        the output of the whole sweep, byte for byte\n"
	       "  -f, --format F        csv (default), json, or html (a table of the points and\n"
	       "                        power against throughput with the Pareto front)\n\n"
	       "On a terminal, progress goes to standard error; in a pipe, nothing but the result.\n");
}

/* "I/N", each a decimal within 0 <= I < N <= PMLAB_SWEEP_MAX_POINTS. */
static int parse_shard(const char *arg, long *idx, long *n)
{
	char part[32];
	const char *slash = strchr(arg, '/');
	uint64_t i, k;

	if (!slash || (size_t)(slash - arg) >= sizeof(part))
		return -1;
	memcpy(part, arg, (size_t)(slash - arg));
	part[slash - arg] = '\0';
	if (cli_parse_u64(part, &i) < 0 || cli_parse_u64(slash + 1, &k) < 0 || k < 1 ||
	    k > PMLAB_SWEEP_MAX_POINTS || i >= k)
		return -1;
	*idx = (long)i;
	*n = (long)k;
	return 0;
}

struct own {
	pmlab_sweep *s;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;
	pmlab_error err;
	long i, n;

	switch (opt) {
	case 'v':
		if (pmlab_sweep_vary(w->s, arg, &err) != PMLAB_OK)
			return cli_bad("sweep: %s", err.message), -1;
		return 0;
	case 'H':
		if (parse_shard(arg, &i, &n) < 0 || pmlab_sweep_shard(w->s, i, n, &err) != PMLAB_OK)
			return cli_bad("sweep: --shard %s: expected I/N with 0 <= I < N <= %ld", arg,
				       PMLAB_SWEEP_MAX_POINTS), -1;
		return 0;
	default:
		return 1;
	}
}

static void job_done(void *ctx, int done, int total)
{
	progress_update(ctx, done, total);
}

/* The fixed options of the sweep: those given. -1 after the message. */
static int describe(const struct cli_opts *o, pmlab_sweep *s)
{
	static const pmlab_format formats[] = {
		[CLI_CSV] = PMLAB_CSV, [CLI_JSON] = PMLAB_JSON, [CLI_HTML] = PMLAB_HTML,
	};
	const char *const given[][2] = {
		{ "machine", o->machine }, { "workload", o->workload }, { "cpus", o->cpus },
		{ "cpufreq", o->cpufreq }, { "cpuidle", o->cpuidle }, { "profile", o->profile },
		{ "duration", o->duration_arg }, { "seed", o->seed_arg },
	};
	pmlab_error err = { PMLAB_OK, "" };
	int bad = 0;

	for (size_t i = 0; !bad && i < sizeof(given) / sizeof(given[0]); i++)
		bad = given[i][1] && pmlab_sweep_option(s, given[i][0], given[i][1], &err) != PMLAB_OK;
	for (int i = 0; !bad && i < o->nsets; i++)
		bad = pmlab_sweep_set(s, o->sets[i], &err) != PMLAB_OK;
	bad = bad || pmlab_sweep_jobs(s, o->jobs, &err) != PMLAB_OK ||
	      pmlab_sweep_format(s, formats[o->format], &err) != PMLAB_OK;
	if (bad)
		return cli_bad("sweep: %s", err.message), -1;
	return 0;
}

/* Runs the sweep and prints it: rows as they complete, in point order
 * (HTML, drawn from all of them, at the end). Exit code. */
static int run(const struct cli_opts *o, pmlab_sweep *s)
{
	pmlab_error err = { PMLAB_OK, "" };
	struct progress prog;

	/* Every point is checked before any runs (and before the progress
	 * line shows anything): bad input is PMLAB_ERR_INPUT. */
	pmlab_sweep_on_progress(s, job_done, &prog);
	progress_start(&prog, "sweep: points");
	if (pmlab_sweep_write(s, stdout, &err) != PMLAB_OK) {
		progress_end(&prog);
		return cli_lib_error(o, &err);
	}
	progress_end(&prog);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: sweep: cannot write the result to standard output\n");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTIONS_RUN, CLI_OPTION_WORKLOAD, CLI_OPTION_FORMAT, CLI_OPTION_JOBS,
		CLI_OPTION_PROFILE_DIR, { "profile", required_argument, 0, CLI_OPT_PROFILE },
		CLI_OPTION_PLUGIN,
		{ "vary", required_argument, 0, 'v' },
		{ "shard", required_argument, 0, 'H' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { NULL };
	pmlab_lab *lab = NULL;
	pmlab_error err;
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "sweep", CLI_FORMAT_BIT(CLI_CSV) | CLI_FORMAT_BIT(CLI_JSON) |
			  CLI_FORMAT_BIT(CLI_HTML), argc) < 0)
		return cli_bad("out of memory");
	/* The lab is filled once the options are read: --vary is checked as it comes. */
	if (pmlab_lab_new(&lab, &err) != PMLAB_OK || pmlab_sweep_new(lab, &w.s, &err) != PMLAB_OK) {
		cli_bad("sweep: %s", err.message);
		goto out;
	}
	i = cli_parse(&o, argc, argv, ":m:w:v:c:d:s:j:f:", opts, own_option, &w);
	if (i >= 0 && cli_no_operands(&o, i, argc, argv) == 0 && cli_lab_setup(&o, lab) == 0 &&
	    describe(&o, w.s) == 0)
		rc = run(&o, w.s);
out:
	pmlab_sweep_free(w.s);
	pmlab_lab_free(lab);
	cli_opts_free(&o);
	return rc;
}
