// SPDX-License-Identifier: GPL-2.0-only
/* pmlab replay: a recorded trace as a workload (src/workload/replay.c) on
 * a machine model, under one policy or, with --profiles, under several
 * (through pmlab compare). The trace is read once, here, and lent to the
 * runs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/sim.h"
#include "../export/html_report.h"
#include "../export/perfetto.h"
#include "../metrics/result.h"
#include "../trace/replay_model.h"
#include "cli.h"

#define DEFAULT_CAPTURE_KHZ 2000000

void usage_replay(void)
{
	printf("usage: pmlab replay FILE [options]\n\n"
	       "Replay a recorded trace -- a trace.dat (pmlab record, trace-cmd) or ftrace text\n"
	       "(/sys/kernel/tracing/trace, trace-cmd report) -- on a machine model: every task\n"
	       "runs its recorded CPU bursts (time x the frequency it ran at = cycles) and\n"
	       "waits as it did, until the task that woke it has run up to the wakeup, for a\n"
	       "timer's recorded sleep, or until an interrupt's recorded time. The simulator\n"
	       "schedules, idles and sets frequencies as the policy says.\n\n"
	       "Without --machine, the machine is like the capture one: as many CPUs as the\n"
	       "trace names, one P-state at --capture-khz, no kernel costs (they are in the\n"
	       "recorded bursts), tick costs 0: it replays the trace as recorded.\n\n"
	       "options:\n"
	       "  -m, --machine M       built-in machine (pmlab machines) or an .ini file\n"
	       "  -c, --cpus N          restrict the machine to its first N CPUs\n"
	       "      --capture-khz K   frequency the trace ran at where it has no\n"
	       "                        cpu_frequency events (default: the machine's base;\n"
	       "                        %d without --machine)\n"
	       "      --cpufreq G       frequency governor (default performance)\n"
	       "      --cpuidle G       idle governor (default deepest)\n"
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
	       "      --per-task        with the table: each task's CPU time, traced and replayed\n"
	       "      --check           verify the engine's invariants after every event (slow)\n",
	       DEFAULT_CAPTURE_KHZ);
}

enum fmt { F_TABLE, F_CSV, F_JSON, F_HTML };

struct opts {
	const char *file, *machine, *cpus, *capture, *profiles, *runs, *timeline;
	const char *cpufreq, *cpuidle;
	const char *format_name;
	enum fmt format;
	sim_ns duration;
	uint64_t seed;
	bool per_task, check;
	int nsets;
	const char **sets;
};

/* The capture machine as far as a trace tells: its CPUs, one frequency. */
static void trace_machine(char *ini, size_t size, const struct replay_model *rm, uint64_t khz)
{
	int n = rm->ncpus > rm->info.ncpus ? rm->ncpus : rm->info.ncpus;
	snprintf(ini, size,
		 "[machine]\nname = trace\n"
		 "description = like the machine that recorded the trace: %d CPUs at %llu kHz\n"
		 "[topology]\npackages = 1\ncores_per_package = %d\nthreads_per_core = 1\n"
		 "llc_cores = %d\nfreq_domain = core\n"
		 "[frequency]\nbase_khz = %llu\n[pstates]\n%llu = 1000\n"
		 "[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 1000\n"
		 "[power]\nceff_nf = 2\nleak_w = 1\nuncore_w = 5\nplatform_w = 0\n"
		 "[cache]\nrefill_us = 0\n"
		 "[costs]\nsyscall_us = 0\ncontext_switch_us = 0\nwakeup_ipi_us = 0\n"
		 "fork_us = 0\nexec_us = 0\n",
		 n, (unsigned long long)khz, n, n, (unsigned long long)khz, (unsigned long long)khz);
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "machine", required_argument, 0, 'm' },
		{ "cpus", required_argument, 0, 'c' },
		{ "capture-khz", required_argument, 0, 'K' },
		{ "cpufreq", required_argument, 0, 'F' },
		{ "cpuidle", required_argument, 0, 'I' },
		{ "set", required_argument, 0, 'S' },
		{ "profiles", required_argument, 0, 'p' },
		{ "runs", required_argument, 0, 'n' },
		{ "duration", required_argument, 0, 'd' },
		{ "seed", required_argument, 0, 's' },
		{ "format", required_argument, 0, 'f' },
		{ "timeline", required_argument, 0, 'T' },
		{ "per-task", no_argument, 0, 'P' },
		{ "check", no_argument, 0, 'C' },
		{ 0, 0, 0, 0 },
	};
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:c:p:n:d:s:f:", opts, NULL)) != -1) {
		switch (opt) {
		case 'm': o->machine = optarg; break;
		case 'c': o->cpus = optarg; break;
		case 'K': o->capture = optarg; break;
		case 'F': o->cpufreq = optarg; break;
		case 'I': o->cpuidle = optarg; break;
		case 'S': o->sets[o->nsets++] = optarg; break;
		case 'p': o->profiles = optarg; break;
		case 'n': o->runs = optarg; break;
		case 'T': o->timeline = optarg; break;
		case 'P': o->per_task = true; break;
		case 'C': o->check = true; break;
		case 'd':
			o->duration = cli_parse_seconds(optarg);
			if (o->duration < 0)
				return cli_bad("replay: --duration %s: expected positive seconds", optarg);
			break;
		case 's':
			if (cli_parse_u64(optarg, &o->seed) < 0)
				return cli_bad("replay: --seed %s: expected a non-negative integer", optarg);
			break;
		case 'f': {
			static const char *const names[] = { "table", "csv", "json", "html" };
			int k = 0;
			while (k < 4 && strcmp(optarg, names[k]) != 0)
				k++;
			if (k == 4)
				return cli_bad("replay: --format %s: expected table, csv, json or html",
					       optarg);
			o->format = (enum fmt)k;
			o->format_name = names[k];
			break;
		}
		case ':':
		default:
			return cli_bad_option("replay", opt, argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_bad("replay: which trace? (expected pmlab replay FILE; see --help)");
	o->file = argv[optind++];
	if (optind < argc)
		return cli_bad("replay: unexpected argument '%s' (see pmlab replay --help)",
			       argv[optind]);
	if (o->profiles && (o->timeline || o->per_task))
		return cli_bad("replay: --timeline and --per-task are for one configuration, "
			       "not --profiles");
	if (o->runs && !o->profiles)
		return cli_bad("replay: --runs goes with --profiles");
	return 0;
}

/* Each task's CPU time in the trace and in the run, by name: the replay's
 * fidelity, one line per task, busiest first in the trace's order. */
static void per_task(const struct replay_model *rm, struct sim *s, const struct run_result *r)
{
	printf("\nPer task: CPU time traced and replayed\n  %-24s %12s %12s %8s\n", "task",
	       "traced_ms", "replayed_ms", "diff_%");
	double tt = 0, tr = 0;
	for (uint32_t id = 0; id < r->tasks_created; id++) {
		const struct task *t = sim_task(s, id);
		const struct replay_task *mt = &rm->tasks[t->wl_role];
		double a = (double)mt->busy_ns / 1e6, b = (double)t->sum_exec / 1e6;
		tt += a;
		tr += b;
		printf("  %-24s %12.3f %12.3f %8.2f\n", t->name, a, b, a > 0 ? (b - a) / a * 100 : 0);
	}
	printf("  %-24s %12.3f %12.3f %8.2f\n", "total", tt, tr, tt > 0 ? (tr - tt) / tt * 100 : 0);
}

static int write_result(const struct opts *o, const struct run_result *r)
{
	if (o->format != F_HTML) {
		enum result_format f = o->format == F_CSV ? FORMAT_CSV :
				       o->format == F_JSON ? FORMAT_JSON : FORMAT_TABLE;
		return result_write(stdout, r, f);
	}
	const struct run_result *runs[] = { r };
	struct html_group g = { r->cpufreq, runs, 1 };
	char title[512], note[1024];
	snprintf(title, sizeof(title), "pmlab replay %s", o->file);
	snprintf(note, sizeof(note), "Trace %s replayed on %s under %s / %s.", o->file,
		 r->machine, r->cpufreq, r->cpuidle);
	return html_report(stdout, title, note, 1, &g);
}

static int run_one(const struct opts *o, const struct replay_model *rm, const struct machine *m,
		   const char *workload)
{
	struct pm_diag d = { { 0 } };
	struct sim_config cfg = { .machine = m, .workload = workload,
				  .cpufreq = o->cpufreq ? o->cpufreq : "performance",
				  .cpuidle = o->cpuidle ? o->cpuidle : "deepest",
				  .duration = o->duration, .seed = o->seed, .nsets = o->nsets,
				  .sets = o->sets, .check_invariants = o->check,
				  .keep_finished_tasks = o->per_task };
	struct perfetto *tl = NULL;
	if (o->timeline) {
		tl = perfetto_open(o->timeline, m, workload, &d);
		if (!tl) {
			fprintf(stderr, "pmlab: %s\n", d.msg);
			return EXIT_RUNTIME;
		}
		cfg.observer = perfetto_observer(tl);
	}
	struct sim *s;
	if (sim_create(&s, &cfg, &d) < 0) {
		sim_destroy(s);
		if (tl)
			perfetto_discard(tl);
		return cli_bad("%s", d.msg);
	}
	struct run_result r;
	if (sim_run(s, &r, &d) < 0) {
		result_free(&r);
		sim_destroy(s);
		if (tl)
			perfetto_discard(tl);
		fprintf(stderr, "pmlab: replay: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	int rc = EXIT_OK;
	if (r.tasks_finished < rm->ntasks)
		fprintf(stderr, "pmlab: replay: stopped at the --duration limit (%.3f s) with %llu of "
			"%u tasks unfinished\n", (double)r.duration_ns * 1e-9,
			(unsigned long long)(rm->ntasks - r.tasks_finished), rm->ntasks);
	if (tl && perfetto_close(tl, r.duration_ns, &d) < 0) {
		fprintf(stderr, "pmlab: %s\n", d.msg);
		rc = EXIT_RUNTIME;
	}
	if (write_result(o, &r) < 0) {
		fprintf(stderr, "pmlab: replay: cannot write the result to standard output\n");
		rc = EXIT_RUNTIME;
	} else if (o->per_task && o->format == F_TABLE) {
		per_task(rm, s, &r);
	}
	if (fflush(stdout) != 0)
		rc = EXIT_RUNTIME;
	result_free(&r);
	sim_destroy(s);
	return rc;
}

/* --profiles: pmlab compare with this trace as the workload. */
static int run_profiles(const struct opts *o, const char *machine_spec, const char *workload)
{
	char dur[32], seed[32];
	snprintf(dur, sizeof(dur), "%.9f", (double)o->duration * 1e-9);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o->seed);
	const char **av = calloc((size_t)o->nsets * 2 + 32, sizeof(*av));
	if (!av)
		return cli_bad("out of memory");
	int n = 0;
	av[n++] = "compare";
	av[n++] = "--machine";
	av[n++] = machine_spec;
	av[n++] = "--workload";
	av[n++] = workload;
	av[n++] = "--profiles";
	av[n++] = o->profiles;
	av[n++] = "--runs";
	av[n++] = o->runs ? o->runs : "1";
	av[n++] = "--duration";
	av[n++] = dur;
	av[n++] = "--seed";
	av[n++] = seed;
	if (o->cpus) {
		av[n++] = "--cpus";
		av[n++] = o->cpus;
	}
	if (o->cpufreq) {
		av[n++] = "--cpufreq";
		av[n++] = o->cpufreq;
	}
	if (o->cpuidle) {
		av[n++] = "--cpuidle";
		av[n++] = o->cpuidle;
	}
	if (o->format_name) {
		av[n++] = "--format";
		av[n++] = o->format_name;
	}
	for (int i = 0; i < o->nsets; i++) {
		av[n++] = "--set";
		av[n++] = o->sets[i];
	}
	int rc = cmd_compare(n, (char **)av);
	free(av);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct opts o = { .seed = 1 };
	o.sets = calloc((size_t)argc + 4, sizeof(*o.sets));
	if (!o.sets)
		return cli_bad("out of memory");
	int rc = parse(argc, argv, &o);
	struct replay_model rm = { 0 };
	char *workload = NULL, capture_set[64], tmp[] = "/tmp/pmlab-trace-machine-XXXXXX";
	char ini[2048];
	int tmpfd = -1;
	if (rc != 0)
		goto out;
	rc = EXIT_USAGE;
	struct pm_diag d = { { 0 } };
	uint64_t khz = 0;
	if (o.capture && (cli_parse_u64(o.capture, &khz) < 0 || khz == 0 || khz > 100000000)) {
		cli_bad("replay: --capture-khz %s: expected a frequency in kHz", o.capture);
		goto out;
	}
	if (replay_model_load(&rm, o.file, &d) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	struct machine m;
	if (!o.machine)
		trace_machine(ini, sizeof(ini), &rm, khz ? khz : DEFAULT_CAPTURE_KHZ);
	if ((o.machine ? machine_load(&m, o.machine, &d)
		       : machine_parse(&m, ini, "trace machine", &d)) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	if (o.cpus) {
		uint64_t n;
		if (cli_parse_u64(o.cpus, &n) < 0 || n > MACHINE_MAX_CPUS) {
			cli_bad("replay: --cpus %s: expected a CPU count", o.cpus);
			goto out;
		}
		if (machine_set_online(&m, (int)n, &d) < 0) {
			cli_bad("replay: --cpus: %s", d.msg);
			goto out;
		}
	}
	if (rm.ncpus > m.online_cpus) {
		char where[512];
		replay_model_cpu_where(&rm, where, sizeof(where));
		cli_bad("%s: CPU %d, but machine %s has %d CPUs (expected a machine with at least %d)",
			where, rm.ncpus - 1, m.name, m.online_cpus, rm.ncpus);
		goto out;
	}
	/* Settings before the user's, which therefore win: the default
	 * machine replays with no tick costs; --capture-khz is the replay's. */
	memmove(o.sets + 3, o.sets, (size_t)o.nsets * sizeof(*o.sets));
	int pre = 0;
	if (!o.machine) {
		o.sets[pre++] = "tick_cost_ns=0";
		o.sets[pre++] = "tick_stop_cost_ns=0";
	}
	if (khz) {
		snprintf(capture_set, sizeof(capture_set), "capture_khz=%llu", (unsigned long long)khz);
		o.sets[pre++] = capture_set;
	}
	memmove(o.sets + pre, o.sets + 3, (size_t)o.nsets * sizeof(*o.sets));
	o.nsets += pre;
	if (!o.duration)
		o.duration = (rm.t_end - rm.t0) * 100 + NS_PER_SEC;
	size_t wl = strlen(o.file) + 8;
	workload = malloc(wl);
	if (!workload) {
		cli_bad("out of memory");
		goto out;
	}
	snprintf(workload, wl, "replay:%s", o.file);
	replay_model_share(&rm);
	if (!o.profiles) {
		rc = run_one(&o, &rm, &m, workload);
		goto out;
	}
	const char *spec = o.machine;
	if (!spec) { /* compare loads machines by name or file */
		tmpfd = mkstemp(tmp);
		size_t len = strlen(ini);
		if (tmpfd < 0 || write(tmpfd, ini, len) != (ssize_t)len) {
			fprintf(stderr, "pmlab: replay: cannot write a temporary machine file\n");
			rc = EXIT_RUNTIME;
			goto out;
		}
		spec = tmp;
	}
	rc = run_profiles(&o, spec, workload);
out:
	replay_model_share(NULL);
	if (tmpfd >= 0) {
		close(tmpfd);
		unlink(tmp);
	}
	replay_model_free(&rm);
	free(workload);
	free(o.sets);
	return rc;
}
