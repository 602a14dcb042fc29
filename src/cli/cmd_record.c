// SPDX-License-Identifier: GPL-2.0-only
/* pmlab record: a scheduler trace of this machine as a trace.dat
 * (src/trace/record.c), checked by reading it back. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/machine_detect.h"
#include "../lab/replay.h"
#include "../trace/record.h"
#include "../trace/record_select.h"
#include "../trace/trace_read.h"
#include "cli.h"

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

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, 0, 'o' },
		{ "duration", required_argument, 0, 'd' },
		{ "buffer-kb", required_argument, 0, 'B' },
		{ "pid", required_argument, 0, 'p' },
		{ "comm", required_argument, 0, 'C' },
		{ "cgroup", required_argument, 0, 'G' },
		{ 0, 0, 0, 0 },
	};
	struct record_config cfg = { .output = "trace.dat" };
	int pids[256], npids = 0, opt;
	const char *comms[256];
	struct record_select sel = { .pids = pids, .comms = comms };
	optind = 1;
	opterr = 0;
	/* '+': the command's own options are not ours. */
	while ((opt = getopt_long(argc, argv, "+:o:d:p:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': cfg.output = optarg; break;
		case 'd':
			cfg.duration = cli_parse_seconds(optarg);
			if (cfg.duration < 0)
				return cli_bad("record: --duration %s: expected positive seconds", optarg);
			break;
		case 'B': {
			uint64_t kb;
			if (cli_parse_u64(optarg, &kb) < 0 || kb < 4 || kb > 1 << 22)
				return cli_bad("record: --buffer-kb %s: expected 4..4194304", optarg);
			cfg.buffer_kb = (int)kb;
			break;
		}
		case 'p':
			for (char *save = NULL, *w = strtok_r(optarg, ",", &save); w;
			     w = strtok_r(NULL, ",", &save)) {
				uint64_t v;
				if (cli_parse_u64(w, &v) < 0 || v == 0 || v > 4194304)
					return cli_bad("record: -p %s: expected PIDs such as 1234,1240", w);
				if (npids == 256)
					return cli_bad("record: more than 256 PIDs");
				pids[npids++] = (int)v;
			}
			break;
		case 'C':
			if (sel.ncomms == 256)
				return cli_bad("record: more than 256 --comm");
			comms[sel.ncomms++] = optarg;
			break;
		case 'G': sel.cgroup = optarg; break;
		case ':':
		default:
			return cli_bad_option("record", opt, argv[optind - 1]);
		}
	}
	sel.npids = npids;
	int *kept = NULL, nkept = 0;
	struct pm_diag sd = { { 0 } };
	if ((npids || sel.ncomms || sel.cgroup) &&
	    record_select_pids("/", &sel, &kept, &nkept, &sd) < 0)
		return cli_bad("record: %s", sd.msg);
	cfg.pids = kept;
	cfg.npids = nkept;
	if (optind < argc)
		cfg.argv = argv + optind;
	if (!*cfg.output)
		return cli_bad("record: --output: empty file name");

	struct pm_diag d = { { 0 } };
	struct record_result res;
	int rc = record_run(&cfg, &res, &d);
	free(kept);
	if (rc < 0) {
		fprintf(stderr, "pmlab: record: %s\n", d.msg);
		return res.exec_failed ? EXIT_USAGE : EXIT_RUNTIME;
	}
	uint64_t events = 0;
	struct trace_info info;
	if (trace_read(cfg.output, count, &events, &info, &d) < 0) {
		fprintf(stderr, "pmlab: record: the trace written does not read back: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	cli_note("record: %.3f s, %d CPUs, %llu events (%llu lost) -> %s (%llu bytes)%s",
		 res.seconds, res.ncpus, (unsigned long long)events, (unsigned long long)res.lost,
		 cfg.output, (unsigned long long)res.bytes,
		 cfg.pids ? "; replay only the processes kept with pmlab replay --pid or --comm" : "");
	/* The machine beside the trace, for pmlab replay without --machine. */
	char machine_path[4096];
	d = (struct pm_diag){ { 0 } };
	snprintf(machine_path, sizeof(machine_path), "%s" MACHINE_RECORDED_SUFFIX, cfg.output);
	if (strlen(cfg.output) + strlen(MACHINE_RECORDED_SUFFIX) >= sizeof(machine_path) ||
	    machine_detect_write(NULL, machine_path, &d) < 0)
		cli_note("record: no model of this machine beside the trace (%s); pmlab replay "
			 "will use one like the capture machine", d.msg[0] ? d.msg : "path too long");
	if (res.signal)
		fprintf(stderr, "pmlab: record: stopped by signal %d (%s)\n", res.signal,
			strsignal(res.signal));
	/* Stopped on purpose: the command's dying of the signal is no failure. */
	if (res.status > 0 && !res.signal) {
		fprintf(stderr, "pmlab: record: '%s' exited with status %d\n", cfg.argv[0], res.status);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
