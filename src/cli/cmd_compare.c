// SPDX-License-Identifier: GPL-2.0-only
/* pmlab compare: several profiles on one machine and workload, each run N
 * times, as the seed's tables set tuned profiles side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "profile_list.h"
#include "lab_client.h"
#include "options.h"
#include "progress.h"

void usage_compare(void)
{
	printf("usage: pmlab compare --machine M --workload W --profiles A,B,... [options]\n\n"
	       "Run workload W on machine M under each profile, --runs times each (seeds\n"
	       "S..S+N-1), and print throughput, latency, power, CPU frequency, C-state\n"
	       "residency, CPU utilisation and package idle per profile: mean and 95 %%\n"
	       "confidence interval (Student t), then the same relative to the baseline with\n"
	       "'~' where a difference is not significant (Welch's t-test, p >= 0.05). One\n"
	       "run gives neither intervals nor marks.\n\n"
	       "A profile is a tuned profile name (searched in --profile-dir, data/profiles,\n"
	       "/etc/tuned/profiles, /usr/lib/tuned/profiles) or path, optionally with\n"
	       "overrides of its [cpu] options (balanced:governor=conservative), or 'none':\n"
	       "the --cpufreq, --cpuidle and --set options alone. 'none:KEY=VALUE,...' adds\n"
	       "--set keys (and cpufreq=G, cpuidle=G) to that entry only. In the list, an\n"
	       "item OPTION=VALUE continues the previous entry's overrides.\n\n"
	       "options:\n"
	       "  -m, --machine M       built-in machine (pmlab machines) or an .ini file\n"
	       "  -w, --workload W      workload model (pmlab workloads)\n"
	       "  -p, --profiles LIST   profiles to compare, comma-separated; repeatable\n"
	       "  -b, --baseline P      the profile the others are set against (default: first)\n"
	       "  -n, --runs N          runs per profile (default 3)\n"
	       "  -c, --cpus N          restrict the machine to its first N CPUs\n"
	       "  -d, --duration S      simulated seconds per run (default 10)\n"
	       "  -s, --seed N          seed of the first run (default 1)\n"
	       "      --cpufreq G       frequency governor for every profile, over the\n"
	       "                        profiles' own (default: the profile's, else the\n"
	       "                        machine's default, as in pmlab sim)\n"
	       "      --cpuidle G       idle governor (default menu, as in pmlab sim)\n"
	       "      --set KEY=VALUE   tunable for every profile, over the profile's own; repeatable\n"
	       "  -j, --jobs J          runs in parallel, in J processes (default: processors\n"
	       "                        online); the output does not depend on J\n"
	       "  -f, --format F        table (default), csv, json or html (one self-contained\n"
	       "                        page: the tables, power against throughput with the\n"
	       "                        Pareto front, C-state residency, busy frequency and\n"
	       "                        the spread of the runs' throughput)\n"
	       "      --timeline PREFIX also write each profile's first run as a timeline\n"
	       "                        (Chrome trace JSON that ui.perfetto.dev opens) to\n"
	       "                        PREFIX-PROFILE.json, with '/', ':', ',' and '=' in the\n"
	       "                        profile's name replaced by '_'\n"
	       "      --profile-dir DIR look for profiles in DIR first; repeatable\n"
	       "      --plugin FILE     load the governors of a plugin (pmlab/plugin.h), to name\n"
	       "                        in a profile entry (none:cpuidle=NAME); repeatable\n\n"
	       "On a terminal, progress goes to standard error; in a pipe, nothing but the result.\n");
}

struct own {
	char **profiles;
	int nprofiles;
	const char *baseline;
	uint64_t runs;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;

	switch (opt) {
	case 'p':
		if (compare_split_profiles(arg, &w->profiles, &w->nprofiles) < 0)
			return cli_bad("out of memory"), -1;
		return 0;
	case 'b': w->baseline = arg; return 0;
	case 'n': return cli_parse_count("compare", "--runs", arg, 1, 100000, &w->runs);
	default: return 1;
	}
}

static void job_done(void *ctx, int done, int total)
{
	progress_update(ctx, done, total);
}

/* The comparison the options describe, on lab and m. -1 after the message. */
static int describe(const struct cli_opts *o, const struct own *w, const pmlab_lab *lab,
		    const pmlab_machine *m, pmlab_compare **c)
{
	pmlab_error err = { PMLAB_OK, "" };
	int bad;

	if (pmlab_compare_new(lab, m, o->workload, c, &err) != PMLAB_OK)
		return cli_bad("compare: %s", err.message), -1;
	bad = pmlab_compare_cpufreq(*c, o->cpufreq, &err) != PMLAB_OK ||
	      pmlab_compare_cpuidle(*c, o->cpuidle, &err) != PMLAB_OK ||
	      pmlab_compare_baseline(*c, w->baseline, &err) != PMLAB_OK ||
	      pmlab_compare_timeline(*c, o->timeline, &err) != PMLAB_OK ||
	      pmlab_compare_duration(*c, o->duration, &err) != PMLAB_OK ||
	      pmlab_compare_runs(*c, (int)w->runs, &err) != PMLAB_OK ||
	      pmlab_compare_jobs(*c, o->jobs, &err) != PMLAB_OK;
	for (int i = 0; !bad && i < w->nprofiles; i++)
		bad = pmlab_compare_policy(*c, w->profiles[i], NULL, &err) != PMLAB_OK;
	for (int i = 0; !bad && i < o->nsets; i++)
		bad = pmlab_compare_set(*c, o->sets[i], &err) != PMLAB_OK;
	if (bad)
		return cli_bad("compare: %s", err.message), -1;
	pmlab_compare_seed(*c, o->seed);
	return 0;
}

static int run_failed(const char *msg)
{
	fprintf(stderr, "pmlab: %s\n", msg);
	return EXIT_RUNTIME;
}

/* Runs the comparison and prints it in --format. Exit code. */
static int run(const struct cli_opts *o, pmlab_compare *c)
{
	static const pmlab_format formats[] = {
		[CLI_TABLE] = PMLAB_TABLE, [CLI_CSV] = PMLAB_CSV, [CLI_JSON] = PMLAB_JSON,
		[CLI_HTML] = PMLAB_HTML,
	};
	pmlab_error err = { PMLAB_OK, "" };
	struct progress prog;

	/* Every policy's run is checked before any runs (and before the
	 * progress line shows anything): bad input is PMLAB_ERR_INPUT. */
	pmlab_compare_on_progress(c, job_done, &prog);
	progress_start(&prog, "compare: runs");
	if (pmlab_compare_write(c, stdout, formats[o->format], &err) != PMLAB_OK) {
		progress_end(&prog);
		if (err.code == PMLAB_ERR_IO)
			return run_failed("compare: cannot write the result to standard output");
		return cli_lib_error(o, &err);
	}
	progress_end(&prog);
	if (fflush(stdout) != 0 || ferror(stdout))
		return run_failed("compare: cannot write the result to standard output");
	return EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTIONS_RUN, CLI_OPTION_WORKLOAD, CLI_OPTION_FORMAT, CLI_OPTION_JOBS,
		CLI_OPTION_PROFILE_DIR, CLI_OPTION_TIMELINE, CLI_OPTION_PLUGIN,
		{ "profiles", required_argument, 0, 'p' },
		{ "baseline", required_argument, 0, 'b' },
		{ "runs", required_argument, 0, 'n' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { .runs = 3 };
	struct cli_opts o;
	pmlab_lab *lab = NULL;
	pmlab_machine *m = NULL;
	pmlab_compare *c = NULL;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "compare", CLI_FORMAT_BIT(CLI_TABLE) | CLI_FORMAT_BIT(CLI_CSV) |
			  CLI_FORMAT_BIT(CLI_JSON) | CLI_FORMAT_BIT(CLI_HTML), argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":m:w:p:b:n:c:d:s:j:f:", opts, own_option, &w);
	if (i < 0 || cli_no_operands(&o, i, argc, argv) < 0)
		goto out;
	if (!o.machine || !o.workload || w.nprofiles == 0) {
		cli_bad("compare: --machine, --workload and --profiles are required "
			"(see pmlab compare --help)");
		goto out;
	}
	if (cli_machine(&o, &m) == 0 && cli_lab(&o, &lab) == 0 &&
	    describe(&o, &w, lab, m, &c) == 0)
		rc = run(&o, c);
out:
	pmlab_compare_free(c);
	pmlab_machine_free(m);
	pmlab_lab_free(lab);
	for (i = 0; i < w.nprofiles; i++)
		free(w.profiles[i]);
	free(w.profiles);
	cli_opts_free(&o);
	return rc;
}
