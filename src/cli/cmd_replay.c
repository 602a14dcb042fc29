// SPDX-License-Identifier: GPL-2.0-only
/* pmlab replay: a recorded trace as a workload on a machine model, under
 * one policy or, with --profiles, under several (as pmlab compare): a
 * client of libpmlab's replays (include/pmlab/pmlab.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lab_client.h"
#include "options.h"
#include "profile_list.h"
#include "progress.h"

void usage_replay(void)
{
	printf("usage: pmlab replay FILE [options]\n\n"
	       "Replay a recorded trace -- a trace.dat (pmlab record, trace-cmd) or ftrace text\n"
	       "(/sys/kernel/tracing/trace, trace-cmd report) -- on a machine model: every task\n"
	       "runs its recorded CPU bursts (time x the frequency it ran at = cycles) and\n"
	       "waits as it did, until the task that woke it has run up to the wakeup, for a\n"
	       "timer's recorded sleep, or until an interrupt's recorded time. The simulator\n"
	       "schedules, idles and sets frequencies as the policy says.\n\n"
	       "Without --machine, the machine recorded with the trace: FILE.machine.ini,\n"
	       "which pmlab record writes (pmlab machines detect), without its kernel and\n"
	       "tick costs (they are in the recorded bursts). Without one, a machine like the\n"
	       "capture one: as many CPUs as the trace names, one P-state at --capture-khz,\n"
	       "no kernel costs, tick costs 0: it replays the trace as recorded.\n\n"
	       "options:\n"
	       "  -m, --machine M       built-in machine (pmlab machines) or an .ini file\n"
	       "  -c, --cpus N          restrict the machine to its first N CPUs\n"
	       "      --capture-khz K   frequency the trace ran at where it has no\n"
	       "                        cpu_frequency events (default: the machine's base;\n"
	       "                        %d without --machine)\n"
	       "      --cpufreq G       frequency governor (default: the machine's, as in pmlab sim)\n"
	       "      --cpuidle G       idle governor (default: the machine's, as in pmlab sim)\n"
	       "      --set KEY=VALUE   engine, governor or replay tunable; repeatable\n"
	       "  -p, --profiles LIST   compare profiles instead (as pmlab compare --workload\n"
	       "                        replay:FILE; see pmlab compare --help)\n"
	       "  -n, --runs N          with --profiles: runs per profile (default 1)\n"
	       "  -d, --duration S      stop after S simulated seconds if the trace has not\n"
	       "                        ended (default: 100 x the trace's length + 1 s)\n"
	       "  -s, --seed N          random seed (default 1)\n"
	       "  -f, --format F        table (default), csv, json or html (one self-contained page)\n"
	       "      --timeline FILE   also write the run as a timeline (Chrome trace JSON)\n"
	       "                        that ui.perfetto.dev opens\n"
	       "      --trace FILE      also write the replay as a trace.dat (see pmlab sim)\n"
	       "      --window S:E      the timeline and trace keep only S..E seconds\n"
	       "      --trace-cpus L    ... and only the CPUs in list L\n"
	       "      --per-task        with the table: each task's CPU time, traced and replayed\n"
	       "      --pid LIST        replay only these processes (1234,1240) and what they fork;\n"
	       "                        the others' CPU time is left out, their wakeups of the kept\n"
	       "                        ones come at the recorded time (-p is --profiles)\n"
	       "      --comm PATTERN    ... and the tasks whose comm matches PATTERN (shell\n"
	       "                        wildcards, 'sched-messag*'); repeatable\n"
	       "      --check           verify the engine's invariants after every event (slow)\n",
	       PMLAB_REPLAY_DEFAULT_CAPTURE_KHZ);
}

#define KEEP_MAX PMLAB_REPLAY_KEEP_MAX

struct own {
	uint64_t capture_khz;        /* --capture-khz; 0: not given */
	const char *profiles;
	uint64_t runs;
	bool per_task;
	int pids[KEEP_MAX];          /* --pid */
	int npids;
	const char *comms[KEEP_MAX]; /* --comm */
	int ncomms;
};

/* --pid 123,456 (repeatable). */
static int add_pids(struct own *w, const char *arg)
{
	const char *p = arg;
	while (*p) {
		uint64_t v;
		char num[24];
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof(num))
			return cli_bad("replay: --pid %s: expected PIDs such as 1234,1240", arg), -1;
		memcpy(num, p, n);
		num[n] = '\0';
		if (cli_parse_u64(num, &v) < 0 || v == 0 || v > 4194304)
			return cli_bad("replay: --pid %s: '%s' is not a PID (1..4194304)", arg, num), -1;
		if (w->npids == KEEP_MAX)
			return cli_bad("replay: more than %d PIDs", KEEP_MAX), -1;
		w->pids[w->npids++] = (int)v;
		p += n + (p[n] == ',');
	}
	return 0;
}

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;

	switch (opt) {
	case 'K':
		if (cli_parse_u64(arg, &w->capture_khz) < 0 || w->capture_khz == 0 ||
		    w->capture_khz > 100000000)
			return cli_bad("replay: --capture-khz %s: expected a frequency in kHz", arg), -1;
		return 0;
	case 'p': w->profiles = arg; return 0;
	case 'n': return cli_parse_count("replay", "--runs", arg, 1, 100000, &w->runs);
	case 'P': w->per_task = true; return 0;
	case 'I': return add_pids(w, arg);
	case 'C':
		if (!*arg)
			return cli_bad("replay: --comm needs a name or a pattern"), -1;
		if (w->ncomms == KEEP_MAX)
			return cli_bad("replay: more than %d --comm", KEEP_MAX), -1;
		w->comms[w->ncomms++] = arg;
		return 0;
	default: return 1;
	}
}

/* The trace at file read on the machine the options name. A --cpus that is
 * no count is reported after what the load finds wrong, as the machine's
 * own checks come first. -1 after the message. */
static int load(const struct cli_opts *o, const struct own *w, const char *file,
		pmlab_replay **rp)
{
	pmlab_error err = { PMLAB_OK, "" };
	uint64_t n = 0;
	bool count = !o->cpus || (cli_parse_u64(o->cpus, &n) == 0 && n <= MACHINE_MAX_CPUS);
	int bad;

	if (pmlab_replay_new(file, rp, &err) != PMLAB_OK)
		return cli_bad("%s", err.message), -1;
	bad = pmlab_replay_machine(*rp, o->machine, &err) != PMLAB_OK ||
	      (o->cpus && count && pmlab_replay_cpus(*rp, (int)n, &err) != PMLAB_OK) ||
	      (w->capture_khz && pmlab_replay_capture_khz(*rp, w->capture_khz, &err) != PMLAB_OK);
	for (int i = 0; !bad && i < w->npids; i++)
		bad = pmlab_replay_keep_pid(*rp, w->pids[i], &err) != PMLAB_OK;
	for (int i = 0; !bad && i < w->ncomms; i++)
		bad = pmlab_replay_keep_comm(*rp, w->comms[i], &err) != PMLAB_OK;
	if (bad || pmlab_replay_load(*rp, &err) != PMLAB_OK)
		return cli_bad("%s", err.message), -1;
	if (!count)
		return cli_bad("--cpus %s: expected a CPU count", o->cpus), -1;
	return 0;
}

static void show_warning(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "pmlab: replay: %s\n", msg);
}

/* The run the options describe; -1 after the message. */
static int build(const struct cli_opts *o, const struct own *w, pmlab_run *run)
{
	pmlab_error err = { PMLAB_OK, "" };
	int bad = 0;

	bad |= pmlab_run_cpufreq(run, o->cpufreq, &err) != PMLAB_OK;
	bad |= !bad && pmlab_run_cpuidle(run, o->cpuidle, &err) != PMLAB_OK;
	for (int i = 0; !bad && i < o->nsets; i++)
		bad |= pmlab_run_set(run, o->sets[i], &err) != PMLAB_OK;
	bad |= !bad && o->duration_arg && pmlab_run_duration(run, o->duration, &err) != PMLAB_OK;
	bad |= !bad && pmlab_run_per_task(run, w->per_task, &err) != PMLAB_OK;
	if (bad)
		return cli_bad("replay: %s", err.message), -1;
	pmlab_run_seed(run, o->seed);
	pmlab_run_check_invariants(run, o->check);
	if (!cli_quiet)
		pmlab_run_on_warning(run, show_warning, NULL);
	return 0;
}

static const pmlab_format formats[] = {
	[CLI_TABLE] = PMLAB_TABLE, [CLI_CSV] = PMLAB_CSV, [CLI_JSON] = PMLAB_JSON,
	[CLI_HTML] = PMLAB_HTML,
};

static int write_failed(void)
{
	fprintf(stderr, "pmlab: replay: cannot write the result to standard output\n");
	return EXIT_RUNTIME;
}

/* One run under the options' policy. Exit code. */
static int run_one(const struct cli_opts *o, const struct own *w, const pmlab_lab *lab,
		   const pmlab_replay *rp)
{
	pmlab_error err = { PMLAB_OK, "" };
	pmlab_run *run = NULL;
	int rc = EXIT_USAGE;

	if (pmlab_replay_run(lab, rp, &run, &err) != PMLAB_OK) {
		cli_bad("replay: %s", err.message);
		goto out;
	}
	if (cli_run_exports(o, run) < 0 || build(o, w, run) < 0)
		goto out;
	/* Only the form printed is rendered. */
	if (pmlab_run_write(run, stdout, formats[o->format], &err) != PMLAB_OK) {
		if (err.code == PMLAB_ERR_IO)
			rc = write_failed();
		else if (err.code == PMLAB_ERR_INPUT)
			cli_bad("%s", err.message);
		else
			fprintf(stderr, "pmlab: replay: %s\n", err.message);
		if (err.code != PMLAB_ERR_IO)
			rc = err.code == PMLAB_ERR_INPUT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	rc = fflush(stdout) != 0 ? write_failed() : EXIT_OK;
out:
	pmlab_run_free(run);
	return rc;
}

static void job_done(void *ctx, int done, int total)
{
	progress_update(ctx, done, total);
}

/* The comparison --profiles asks for; -1 after the message. */
static int describe(const struct cli_opts *o, const struct own *w, char **profiles, int n,
		    pmlab_compare *c)
{
	pmlab_error err = { PMLAB_OK, "" };
	int bad;

	bad = pmlab_compare_cpufreq(c, o->cpufreq, &err) != PMLAB_OK ||
	      pmlab_compare_cpuidle(c, o->cpuidle, &err) != PMLAB_OK ||
	      (o->duration_arg && pmlab_compare_duration(c, o->duration, &err) != PMLAB_OK) ||
	      pmlab_compare_runs(c, w->runs ? (int)w->runs : 1, &err) != PMLAB_OK ||
	      pmlab_compare_jobs(c, o->jobs, &err) != PMLAB_OK;
	for (int i = 0; !bad && i < n; i++)
		bad = pmlab_compare_policy(c, profiles[i], NULL, &err) != PMLAB_OK;
	for (int i = 0; !bad && i < o->nsets; i++)
		bad = pmlab_compare_set(c, o->sets[i], &err) != PMLAB_OK;
	if (bad)
		return cli_bad("replay: %s", err.message), -1;
	pmlab_compare_seed(c, o->seed);
	return 0;
}

/* --profiles: a comparison with the trace as the workload. Exit code. */
static int run_profiles(const struct cli_opts *o, const struct own *w, const pmlab_lab *lab,
			const pmlab_replay *rp)
{
	pmlab_error err = { PMLAB_OK, "" };
	pmlab_compare *c = NULL;
	struct progress prog;
	char **profiles = NULL;
	int n = 0, rc = EXIT_USAGE;

	if (compare_split_profiles(w->profiles, &profiles, &n) < 0) {
		rc = cli_bad("out of memory");
		goto out;
	}
	/* --profiles '' or ',': nothing to compare */
	if (n < 1) {
		cli_bad("replay: --profiles: expected one or more profiles, comma-separated");
		goto out;
	}
	if (pmlab_replay_compare(lab, rp, &c, &err) != PMLAB_OK) {
		cli_bad("replay: %s", err.message);
		goto out;
	}
	if (describe(o, w, profiles, n, c) < 0)
		goto out;
	pmlab_compare_on_progress(c, job_done, &prog);
	progress_start(&prog, "replay: runs");
	if (pmlab_compare_write(c, stdout, formats[o->format], &err) != PMLAB_OK) {
		progress_end(&prog);
		rc = err.code == PMLAB_ERR_IO ? write_failed() : cli_lib_error(o, &err);
		goto out;
	}
	progress_end(&prog);
	rc = fflush(stdout) != 0 || ferror(stdout) ? write_failed() : EXIT_OK;
out:
	pmlab_compare_free(c);
	for (int i = 0; i < n; i++)
		free(profiles[i]);
	free(profiles);
	return rc;
}

static int check_modes(const struct cli_opts *o, const struct own *w)
{
	if (w->profiles && (o->timeline || o->trace || o->window || o->trace_cpus || w->per_task))
		return cli_bad("replay: --timeline, --trace, --window, --trace-cpus and --per-task "
			       "are for one configuration, not --profiles"), -1;
	if (w->runs && !w->profiles)
		return cli_bad("replay: --runs goes with --profiles"), -1;
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTIONS_RUN, CLI_OPTION_FORMAT, CLI_OPTIONS_EXPORT, CLI_OPTION_CHECK,
		{ "capture-khz", required_argument, 0, 'K' },
		{ "profiles", required_argument, 0, 'p' },
		{ "runs", required_argument, 0, 'n' },
		{ "per-task", no_argument, 0, 'P' },
		{ "pid", required_argument, 0, 'I' },
		{ "comm", required_argument, 0, 'C' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { .runs = 0 };
	struct cli_opts o;
	pmlab_replay *rp = NULL;
	pmlab_lab *lab = NULL;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "replay", CLI_FORMAT_BIT(CLI_TABLE) | CLI_FORMAT_BIT(CLI_CSV) |
			  CLI_FORMAT_BIT(CLI_JSON) | CLI_FORMAT_BIT(CLI_HTML), argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":m:c:p:n:d:s:f:", opts, own_option, &w);
	if (i < 0)
		goto out;
	if (i >= argc) {
		cli_bad("replay: which trace? (expected pmlab replay FILE; see --help)");
		goto out;
	}
	if (cli_no_operands(&o, i + 1, argc, argv) < 0 || check_modes(&o, &w) < 0 ||
	    load(&o, &w, argv[i], &rp) < 0 || cli_lab(&o, &lab) < 0)
		goto out;
	rc = w.profiles ? run_profiles(&o, &w, lab, rp) : run_one(&o, &w, lab, rp);
out:
	pmlab_lab_free(lab);
	pmlab_replay_free(rp);
	cli_opts_free(&o);
	return rc;
}
