// SPDX-License-Identifier: GPL-2.0-only
/* pmlab record: a scheduler trace of this machine as a trace.dat
 * (src/trace/record.c), checked by reading it back. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/machine_detect.h"
#include "../trace/record.h"
#include "../trace/record_select.h"
#include "../trace/trace_read.h"
#include "cli.h"
#include "lab_client.h"
#include "options.h"

void usage_record(void)
{
	printf("usage: pmlab record [-o FILE.dat] [--duration S] [--buffer-kb N] [-- COMMAND ...]\n\n"
	       "Record the scheduler and power events of this machine through tracefs while\n"
	       "COMMAND runs, for S seconds, or until interrupted (Ctrl-C), and save them as a\n"
	       "trace.dat that trace-cmd report and pmlab replay read, and beside it\n"
	       "FILE.machine.ini, this machine as pmlab machines detect writes it (pmlab replay\n"
	       "runs the trace on it without --machine). Needs root (tracefs is\n"
	       "mounted if it is not). The tracing state -- enabled events, buffer size,\n"
	       "tracing_on -- is restored afterwards, also on an error or a signal; the ring\n"
	       "buffer's previous contents are discarded.\n\n"
	       "events: sched_switch, sched_wakeup, sched_wakeup_new, sched_process_fork,\n"
	       "sched_process_exit, sched_migrate_task, cpu_frequency, cpu_idle, and where the\n"
	       "kernel has them sched_waking and the timer expiry events (which wakeups timers\n"
	       "caused).\n\n"
	       "options:\n"
	       "  -o, --output FILE    the trace (default trace.dat)\n"
	       "  -d, --duration S     stop after S seconds (a command still running then gets\n"
	       "                       SIGTERM)\n"
	       "      --buffer-kb N    per-CPU ring buffer while recording (default 4096)\n"
	       "  -p, --pid LIST       keep only these processes (1234,1240) and what they fork\n"
	       "      --comm PATTERN   ... and the processes whose name matches (shell wildcards)\n"
	       "                       when the recording starts; repeatable\n"
	       "      --cgroup DIR     ... and the processes of cgroup DIR (v2; relative to\n"
	       "                       /sys/fs/cgroup)\n"
	       "                       (the kernel's set_event_pid with event-fork; the idle task\n"
	       "                       stays, and with a COMMAND so does pmlab, its parent)\n\n"
	       "The exit status is 0 when the trace was written and the command (if any)\n"
	       "succeeded, 1 if recording failed or the command failed, 2 for bad usage or a\n"
	       "command that cannot be run.\n");
}

static int count(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	(void)ev;
	(void)d;
	(*(uint64_t *)ctx)++;
	return 0;
}

#define MAX_SELECT 256

/* record's own options: where, how much, which processes. */
struct rec_args {
	struct record_config cfg;
	int pids[MAX_SELECT];
	const char *comms[MAX_SELECT];
	struct record_select sel;
};

/* -p 1234,1240 into a->pids. */
static int take_pids(struct rec_args *a, char *list)
{
	for (char *save = NULL, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (cli_parse_u64(w, &v) < 0 || v == 0 || v > 4194304)
			return cli_bad("record: -p %s: expected PIDs such as 1234,1240", w), -1;
		if (a->sel.npids == MAX_SELECT)
			return cli_bad("record: more than %d PIDs", MAX_SELECT), -1;
		a->pids[a->sel.npids++] = (int)v;
	}
	return 0;
}

static int own_option(void *ctx, int opt, const char *arg)
{
	struct rec_args *a = ctx;
	uint64_t kb;

	switch (opt) {
	case 'o': a->cfg.output = arg; return 0;
	case 'B':
		if (cli_parse_u64(arg, &kb) < 0 || kb < 4 || kb > 1 << 22)
			return cli_bad("record: --buffer-kb %s: expected 4..4194304", arg), -1;
		a->cfg.buffer_kb = (int)kb;
		return 0;
	case 'p': return take_pids(a, (char *)arg); /* getopt's optarg: argv's, writable */
	case 'C':
		if (a->sel.ncomms == MAX_SELECT)
			return cli_bad("record: more than %d --comm", MAX_SELECT), -1;
		a->comms[a->sel.ncomms++] = arg;
		return 0;
	case 'G': a->sel.cgroup = arg; return 0;
	default: return 1;
	}
}

/* Records cfg (a command's run, or until a signal or the duration) and
 * reads the trace back. Exit code. */
static int record(const struct record_config *cfg)
{
	struct pm_diag d = { { 0 } };
	struct record_result res;

	if (record_run(cfg, &res, &d) < 0) {
		fprintf(stderr, "pmlab: record: %s\n", d.msg);
		return res.exec_failed ? EXIT_USAGE : EXIT_RUNTIME;
	}
	uint64_t events = 0;
	struct trace_info info;
	if (trace_read(cfg->output, count, &events, &info, &d) < 0) {
		fprintf(stderr, "pmlab: record: the trace written does not read back: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	cli_note("record: %.3f s, %d CPUs, %llu events (%llu lost) -> %s (%llu bytes)%s",
		 res.seconds, res.ncpus, (unsigned long long)events, (unsigned long long)res.lost,
		 cfg->output, (unsigned long long)res.bytes,
		 cfg->pids ? "; replay only the processes kept with pmlab replay --pid or --comm" : "");
	/* The machine beside the trace, where pmlab replay without --machine
	 * looks for it. */
	char *machine_path = pmlab_replay_machine_path(cfg->output);
	d = (struct pm_diag){ { 0 } };
	if (!machine_path || machine_detect_write(NULL, machine_path, &d) < 0)
		cli_note("record: no model of this machine beside the trace (%s); pmlab replay "
			 "will use one like the capture machine", d.msg[0] ? d.msg : "out of memory");
	free(machine_path);
	if (res.signal)
		fprintf(stderr, "pmlab: record: stopped by signal %d (%s)\n", res.signal,
			strsignal(res.signal));
	/* Stopped on purpose: the command's dying of the signal is no failure. */
	if (res.status > 0 && !res.signal) {
		fprintf(stderr, "pmlab: record: '%s' exited with status %d\n", cfg->argv[0],
			res.status);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_DURATION,
		{ "output", required_argument, 0, 'o' },
		{ "buffer-kb", required_argument, 0, 'B' },
		{ "pid", required_argument, 0, 'p' },
		{ "comm", required_argument, 0, 'C' },
		{ "cgroup", required_argument, 0, 'G' },
		{ 0, 0, 0, 0 },
	};
	struct rec_args a = { .cfg = { .output = "trace.dat" } };
	struct pm_diag d = { { 0 } };
	struct cli_opts o;
	int *kept = NULL, nkept = 0, i, rc = EXIT_USAGE;

	a.sel.pids = a.pids;
	a.sel.comms = a.comms;
	if (cli_opts_init(&o, "record", 0, argc) < 0)
		return cli_bad("out of memory");
	/* '+': the command's own options are not ours. */
	i = cli_parse(&o, argc, argv, "+:o:d:p:", opts, own_option, &a);
	if (i < 0)
		goto out;
	if (!*a.cfg.output) {
		cli_bad("record: --output: empty file name");
		goto out;
	}
	if ((a.sel.npids || a.sel.ncomms || a.sel.cgroup) &&
	    record_select_pids("/", &a.sel, &kept, &nkept, &d) < 0) {
		cli_bad("record: %s", d.msg);
		goto out;
	}
	a.cfg.duration = o.duration_arg ? o.duration : 0; /* 0: the command's run, or a signal */
	a.cfg.pids = kept;
	a.cfg.npids = nkept;
	a.cfg.argv = i < argc ? argv + i : NULL;
	rc = record(&a.cfg);
out:
	free(kept);
	cli_opts_free(&o);
	return rc;
}
