// SPDX-License-Identifier: GPL-2.0-only
/* pmlab monitor: turbostat-like figures of this machine, periodically or
 * over one command's run. The sampling is src/host/monitor.c; this is
 * options, the loop and output. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../host/hostsig.h"
#include "../host/apply.h"
#include "../host/monitor_out.h"
#include "../host/runcmd.h"
#include "cli.h"

void usage_monitor(void)
{
	printf("usage: pmlab monitor [--interval S] [--count N] [--format table|csv|json]\n"
	       "                     [--summary] [--root DIR] [-- COMMAND [ARG...]]\n\n"
	       "Print turbostat-like figures of this machine every interval, per CPU with the\n"
	       "summary row first (CPU -): Busy%%, Avg_MHz and Bzy_MHz from APERF/MPERF\n"
	       "(/dev/cpu/N/msr) or else /proc/stat and scaling_cur_freq; per cpuidle state\n"
	       "NAME%% residency, NAME entries, NAME+ (below: too shallow) and NAME- (above:\n"
	       "too deep); user%%, sys%%, iowait%%, steal%%, idle%% from /proc/stat; PkgWatt,\n"
	       "CorWatt and RAMWatt from RAPL (powercap energy_uj, wraparound handled). A source this\n"
	       "machine lacks shows '-' and is named once on standard error. With a COMMAND,\n"
	       "measure over its run instead, as turbostat COMMAND does (exit 1 if it fails,\n"
	       "2 if it cannot be run), and end with its elapsed time, as perf stat does\n"
	       "(JSON: elapsed_s).\n\n"
	       "options:\n"
	       "  -i, --interval S    seconds between rows (default 5)\n"
	       "  -n, --count N       stop after N intervals (default: until interrupted)\n"
	       "  -f, --format F      table (default), csv, or json (one object per line)\n"
	       "  -S, --summary       the summary row only\n"
	       "  -q, --quiet         no notes on standard error (absent sources)\n"
	       "      --root DIR      the system root (default $PMLAB_ROOT, else /)\n");
}

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int emit(struct mon_writer *w, const struct monitor *m, const struct mon_sample *a,
		const struct mon_sample *b, double t_s)
{
	struct mon_result r;
	struct pm_diag d = { { 0 } };
	if (monitor_compute(m, a, b, &r, &d) < 0) {
		fprintf(stderr, "pmlab: monitor: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	int rc = mon_write(w, &r, t_s);
	monitor_result_free(&r);
	if (rc < 0) {
		fprintf(stderr, "pmlab: monitor: cannot write to standard output\n");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int run(struct monitor *m, struct mon_writer *w, int64_t interval_ns, uint64_t count,
	       char **cmd)
{
	struct mon_sample s[2];
	struct pm_diag d = { { 0 } };
	if (monitor_sample_init(m, &s[0], &d) < 0 || monitor_sample_init(m, &s[1], &d) < 0) {
		fprintf(stderr, "pmlab: monitor: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	int rc = EXIT_OK, cur = 0;
	int64_t t0 = mono_ns();
	struct host_drift drift = { 0 }; /* files of the active profile a peer changed */
	monitor_sample(m, &s[cur], &d);
	if (cmd) {
		int status, ran = host_run_command(cmd, &status, &d);
		if (ran < 0) {
			fprintf(stderr, "pmlab: monitor: %s\n", d.msg);
			rc = ran == HOST_RUN_CANNOT_EXEC ? EXIT_USAGE : EXIT_RUNTIME;
		} else {
			monitor_sample(m, &s[1], &d);
			rc = emit(w, m, &s[0], &s[1], (double)(s[1].t_ns - t0) / 1e9);
			host_profile_drift(m->fs, &drift, stderr);
			if (rc == EXIT_OK && status != 0) {
				fprintf(stderr, "pmlab: monitor: '%s' exited with status %d\n", cmd[0],
					status);
				rc = EXIT_RUNTIME;
			}
		}
	} else {
		for (uint64_t i = 0; (!count || i < count) && rc == EXIT_OK; i++) {
			int64_t due = s[cur].t_ns + interval_ns, now;
			while ((now = mono_ns()) < due && !host_stop_requested())
				host_signal_wait((int)((due - now + 999999) / 1000000));
			if (host_stop_requested())
				break;
			monitor_sample(m, &s[!cur], &d);
			rc = emit(w, m, &s[cur], &s[!cur], (double)(s[!cur].t_ns - t0) / 1e9);
			host_profile_drift(m->fs, &drift, stderr);
			cur = !cur;
		}
	}
	monitor_sample_free(&s[0]);
	monitor_sample_free(&s[1]);
	host_drift_free(&drift);
	return rc;
}

int cmd_monitor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, 0, 'i' },
		{ "count", required_argument, 0, 'n' },
		{ "format", required_argument, 0, 'f' },
		{ "summary", no_argument, 0, 'S' },
		{ "root", required_argument, 0, 'r' },
		{ "quiet", no_argument, 0, 'q' },
		{ 0, 0, 0, 0 },
	};
	const char *root = NULL;
	sim_ns interval = 5 * NS_PER_SEC;
	uint64_t count = 0;
	bool count_given = false;
	struct mon_writer w = { .out = stdout, .format = MON_TABLE };
	int opt;
	optind = 1;
	opterr = 0;
	/* '+': the first word that is not an option starts the command */
	while ((opt = getopt_long(argc, argv, "+:i:n:f:Sq", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			interval = cli_parse_seconds(optarg);
			if (interval < 1000000 || interval > 86400 * NS_PER_SEC)
				return cli_bad("monitor: --interval %s: expected seconds 0.001..86400",
					       optarg);
			break;
		case 'n':
			if (cli_parse_u64(optarg, &count) < 0 || count == 0 || count > 100000000)
				return cli_bad("monitor: --count %s: expected 1..100000000", optarg);
			count_given = true;
			break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				w.format = MON_TABLE;
			else if (strcmp(optarg, "csv") == 0)
				w.format = MON_CSV;
			else if (strcmp(optarg, "json") == 0)
				w.format = MON_JSON;
			else
				return cli_bad("monitor: --format %s: expected table, csv or json", optarg);
			break;
		case 'S': w.summary_only = true; break;
		case 'r': root = optarg; break;
		case 'q': cli_quiet = true; break;
		case ':':
		default:
			return cli_bad_option("monitor", opt, argv[optind - 1]);
		}
	}
	char **cmd = optind < argc ? argv + optind : NULL;
	if (cmd && count_given)
		return cli_bad("monitor: --count and a COMMAND do not go together (the command's "
			       "run is the one interval)");
	struct hostfs fs;
	struct monitor m;
	struct pm_diag d = { { 0 } };
	if (cmd && host_command_runnable(cmd[0], &d) < 0)
		return cli_bad("monitor: %s", d.msg);
	if (hostfs_open(&fs, root, &d) < 0)
		return cli_bad("monitor: %s", d.msg);
	if (monitor_open(&m, &fs, &d) < 0) {
		hostfs_close(&fs);
		fprintf(stderr, "pmlab: monitor: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	for (int i = 0; i < m.nabsent; i++)
		cli_note("monitor: %s", m.absent[i]);
	hostfs_print_refused(&fs, stderr);
	w.m = &m;
	w.command = cmd ? cmd[0] : NULL;
	int rc;
	if (host_signals_install() < 0) {
		fprintf(stderr, "pmlab: monitor: cannot install signal handlers\n");
		rc = EXIT_RUNTIME;
	} else {
		rc = run(&m, &w, interval, count, cmd);
		host_signals_restore();
	}
	monitor_close(&m);
	hostfs_close(&fs);
	return rc;
}
