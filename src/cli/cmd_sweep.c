// SPDX-License-Identifier: GPL-2.0-only
/* pmlab sweep: one run per point of a Cartesian product of settings,
 * written as CSV or JSON rows; --shard runs one slice of the points so
 * that a batch system can spread a sweep over machines, and pmlab merge
 * joins the slices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../export/sweep_html.h"
#include "../lab/sweep.h"
#include "../metrics/inputs.h"
#include "../plugin/loader.h"
#include "cli.h"
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

/* "I/N", each a decimal within 0 <= I < N <= SWEEP_MAX_POINTS. */
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
	    k > SWEEP_MAX_POINTS || i >= k)
		return -1;
	*idx = (long)i;
	*n = (long)k;
	return 0;
}

static int own_option(void *ctx, int opt, const char *arg)
{
	struct sweep *s = ctx;
	struct pm_diag d = { { 0 } };

	switch (opt) {
	case 'v':
		if (sweep_vary(s, arg, &d) < 0)
			return cli_bad("sweep: %s", d.msg), -1;
		return 0;
	case 'H':
		if (parse_shard(arg, &s->shard, &s->nshards) < 0)
			return cli_bad("sweep: --shard %s: expected I/N with 0 <= I < N <= %ld", arg,
				       SWEEP_MAX_POINTS), -1;
		return 0;
	default:
		return 1;
	}
}

static void job_done(void *ctx, int done, int total)
{
	progress_update(ctx, done, total);
}

/* Runs the sweep s describes and prints it: rows as they complete, in
 * point order (HTML, drawn from all of them, at the end). Exit code. */
static int run(struct sweep *s, bool html)
{
	struct sweep_out o = { 0 };
	struct sweep_stream st = { 0 };
	struct progress prog;
	struct pm_diag d = { { 0 } };
	int rc = EXIT_RUNTIME;

	if (sweep_setup(s, &d) < 0) {
		sweep_out_free(&o);
		return cli_bad("sweep: %s", d.msg);
	}
	if (!html && sweep_stream_start(&st, stdout, s->format, sweep_inputs(s), &d) < 0) {
		fprintf(stderr, "pmlab: sweep: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	s->done = job_done;
	s->done_ctx = &prog;
	progress_start(&prog, "sweep: points");
	if (sweep_run(s, html ? &o : NULL, html ? NULL : &st, &d) < 0) {
		progress_end(&prog);
		fprintf(stderr, "pmlab: %s\n", d.msg);
		goto out;
	}
	progress_end(&prog);
	/* The page's title names what was swept. */
	char title[256];
	snprintf(title, sizeof(title), "pmlab sweep: machine %s, workload %s",
		 s->machine ? s->machine : "-", s->workload ? s->workload : "-");
	if (html ? sweep_out_write_html(stdout, &o, title, &d) < 0
		 : sweep_stream_end(&st, &d) < 0) {
		fprintf(stderr, "pmlab: sweep: %s\n", d.msg);
		goto out;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: sweep: cannot write the result to standard output\n");
		goto out;
	}
	rc = EXIT_OK;
out:
	sweep_stream_free(&st);
	sweep_out_free(&o);
	return rc;
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
	struct sweep s = { .nshards = 1 };
	struct plugin_set plugins = { .n = 0 };
	/* what every output records besides the sweep's own options */
	struct run_inputs base = { .version = PMLAB_VERSION };
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "sweep", CLI_FORMAT_BIT(CLI_CSV) | CLI_FORMAT_BIT(CLI_JSON) |
			  CLI_FORMAT_BIT(CLI_HTML), argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":m:w:v:c:d:s:j:f:", opts, own_option, &s);
	if (i >= 0 && cli_no_operands(&o, i, argc, argv) == 0 && cli_load_plugins(&o, &plugins) == 0 &&
	    cli_inputs_plugins(&o, &plugins, &base) == 0) {
		s.registry = &plugins.reg;
		s.machine = o.machine;
		s.workload = o.workload;
		s.cpus = o.cpus;
		s.cpufreq = o.cpufreq;
		s.cpuidle = o.cpuidle;
		s.profile = o.profile;
		s.duration = o.duration_arg;
		s.seed = o.seed_arg;
		s.sets = o.sets;
		s.nsets = o.nsets;
		s.dirs = o.dirs;
		s.ndirs = o.ndirs;
		s.workers = o.jobs;
		s.base = &base;
		/* HTML is drawn from the rows gathered as CSV cells. */
		s.format = o.format == CLI_JSON ? SWEEP_JSON : SWEEP_CSV;
		rc = run(&s, o.format == CLI_HTML);
	}
	sweep_free(&s);
	free((void *)base.path_plugins);
	plugin_set_free(&plugins);
	cli_opts_free(&o);
	return rc;
}
