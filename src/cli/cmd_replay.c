// SPDX-License-Identifier: GPL-2.0-only
/* pmlab replay: a recorded trace as a workload (src/lab/replay.c) on a
 * machine model, under one policy or, with --profiles, under several (as
 * pmlab compare). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../export/html_report.h"
#include "../lab/replay.h"
#include "../lab/single_run.h"
#include "../metrics/inputs.h"
#include "cli.h"
#include "compare_out.h"
#include "options.h"

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
	       REPLAY_DEFAULT_CAPTURE_KHZ);
}

#define KEEP_MAX 256

struct own {
	struct replay r;
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
		if (cli_parse_u64(arg, &w->r.capture_khz) < 0 || w->r.capture_khz == 0 ||
		    w->r.capture_khz > 100000000)
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

struct print {
	const struct cli_opts *o;
	const struct own *w;
	double duration_s; /* the limit the run had */
};

/* The inputs of a replay: the trace, and --pid and --comm as given. */
static int replay_inputs(const struct cli_opts *o, const struct own *w, double duration_s,
			 struct run_inputs *in, const char **extra, char *pids, size_t size)
{
	size_t n = 0;

	if (cli_inputs(o, &w->r.m, in) < 0)
		return -1;
	in->workload = NULL;
	in->trace = w->r.file;
	in->duration_s = duration_s;
	in->extra = extra;
	pids[0] = '\0';
	for (int i = 0; i < w->npids && n < size; i++)
		n += (size_t)snprintf(pids + n, size - n, "%s%d", i ? "," : "", w->pids[i]);
	if (w->npids > 0) {
		extra[in->nextra++] = "--pid";
		extra[in->nextra++] = pids;
	}
	for (int i = 0; i < w->ncomms; i++) {
		extra[in->nextra++] = "--comm";
		extra[in->nextra++] = w->comms[i];
	}
	return 0;
}

static int print(void *ctx, struct sim *s, const struct run_result *r)
{
	const struct print *k = ctx;
	const struct replay *rp = &k->w->r;
	int rc;

	if (r->tasks_finished < rp->rm.ntasks)
		cli_note("replay: stopped at the --duration limit (%.3f s) with %llu of "
			"%u tasks unfinished", (double)r->duration_ns * 1e-9,
			(unsigned long long)(rp->rm.ntasks - r->tasks_finished), rp->rm.ntasks);
	const char *extra[2 + 2 * KEEP_MAX];
	char pids[KEEP_MAX * 12];
	struct run_inputs in;

	if (replay_inputs(k->o, k->w, k->duration_s, &in, extra, pids, sizeof(pids)) < 0)
		return cli_bad("out of memory"), -1;
	if (k->o->format == CLI_HTML) {
		const struct run_result *runs[] = { r };
		struct html_group g = { r->cpufreq, runs, 1 };
		char title[512], note[1024];

		snprintf(title, sizeof(title), "pmlab replay %s: machine %s, workload %s", rp->file,
			 r->machine, r->workload);
		snprintf(note, sizeof(note), "Trace %s replayed on %s under %s / %s.", rp->file,
			 r->machine, r->cpufreq, r->cpuidle);
		rc = html_report(stdout, title, note, &in, 1, &g);
	} else {
		rc = result_write_inputs(stdout, r, (enum result_format)k->o->format, &in);
	}
	if (rc == 0 && k->o->format == CLI_TABLE)
		replay_write_summary(stdout, &rp->rm, r);
	if (rc == 0 && k->w->per_task && k->o->format == CLI_TABLE)
		replay_write_per_task(stdout, &rp->rm, s, r);
	if (rc < 0 || fflush(stdout) != 0)
		return cli_bad("replay: cannot write the result to standard output"), -1;
	return 0;
}

/* One run under the options' policy. Exit code. */
static int run_one(const struct cli_opts *o, const struct own *w)
{
	struct print k = { o, w, 0 };
	struct runspec rs;
	struct export_filter filter;
	struct run_exports x;
	struct pm_diag d = { { 0 } };
	int rc = EXIT_USAGE;

	if (cli_exports(o, &w->r.m, &filter, &x) < 0)
		return EXIT_USAGE;
	if (runspec_init(&rs, &w->r.m, w->r.workload, o->cpufreq, o->cpuidle, &d) == 0) {
		rs.duration = o->duration_arg ? o->duration : w->r.duration;
		k.duration_s = (double)rs.duration / NS_PER_SEC;
		rs.seed = o->seed;
		rs.check = o->check;
		rs.keep_finished_tasks = w->per_task;
	}
	if (d.msg[0] || runspec_set_all(&rs, w->r.pre, w->r.npre, &d) < 0 ||
	    runspec_set_all(&rs, o->sets, o->nsets, &d) < 0 || runspec_check(&rs, &d) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	rc = EXIT_OK;
	if (single_run(&rs, &x, w->r.workload, print, &k, &d) < 0) {
		if (d.msg[0])
			fprintf(stderr, "pmlab: replay: %s\n", d.msg);
		rc = EXIT_RUNTIME;
	}
out:
	runspec_free(&rs);
	return rc;
}

/* --profiles: a comparison with the trace as the workload. Exit code. */
static int run_profiles(const struct cli_opts *o, const struct own *w)
{
	struct cli_opts c = *o;
	const char **sets = calloc((size_t)(w->r.npre + o->nsets) + 1, sizeof(*sets));
	char **profiles = NULL;
	int n = 0, rc;

	if (!sets || compare_split_profiles(w->profiles, &profiles, &n) < 0) {
		free(sets);
		return cli_bad("out of memory");
	}
	c.nsets = 0;
	for (int i = 0; i < w->r.npre; i++)
		sets[c.nsets++] = w->r.pre[i];
	for (int i = 0; i < o->nsets; i++)
		sets[c.nsets++] = o->sets[i];
	c.sets = sets;
	c.workload = w->r.workload;
	if (!o->duration_arg)
		c.duration = w->r.duration;
	/* The inputs as the user gave them, not the trace's own settings. */
	const char *extra[2 + 2 * KEEP_MAX];
	char pids[KEEP_MAX * 12];
	struct run_inputs in;
	rc = replay_inputs(o, w, (double)c.duration / NS_PER_SEC, &in, extra, pids, sizeof(pids));
	if (rc < 0) {
		rc = cli_bad("out of memory");
	} else {
		rc = compare_out(&c, &w->r.m, (const char *const *)profiles, n, NULL,
				 w->runs ? (int)w->runs : 1, &in);
	}
	for (int i = 0; i < n; i++)
		free(profiles[i]);
	free(profiles);
	free(sets);
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
	struct pm_diag d = { { 0 } };
	struct cli_opts o;
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
	w.r.file = argv[i];
	if (cli_no_operands(&o, i + 1, argc, argv) < 0 || check_modes(&o, &w) < 0)
		goto out;
	w.r.machine = o.machine;
	w.r.cpus = o.cpus;
	w.r.keep = (struct replay_keep){ w.pids, w.npids, w.comms, w.ncomms };
	if (replay_setup(&w.r, &d) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	rc = w.profiles ? run_profiles(&o, &w) : run_one(&o, &w);
out:
	replay_free(&w.r);
	cli_opts_free(&o);
	return rc;
}
