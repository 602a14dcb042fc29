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
#include "../metrics/inputs.h"
#include "cli.h"
#include "options.h"

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
	       "(JSON: elapsed_s). The output starts with its inputs and the command that\n"
	       "repeats it (a paragraph, CSV '#' lines, a first JSON line {\"inputs\": ...}).\n\n"
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

struct mon_args {
	sim_ns interval;
	uint64_t count; /* 0: until interrupted */
	bool summary_only;
	const char *interval_arg, *count_arg; /* as given, for the inputs */
	const char *root;                     /* the root read, for the inputs */
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct mon_args *a = ctx;

	switch (opt) {
	case 'i':
		a->interval = cli_parse_seconds(arg);
		if (a->interval < 1000000 || a->interval > 86400 * NS_PER_SEC)
			return cli_bad("monitor: --interval %s: expected seconds 0.001..86400", arg), -1;
		a->interval_arg = arg;
		return 0;
	case 'n':
		if (cli_parse_u64(arg, &a->count) < 0 || a->count == 0 || a->count > 100000000)
			return cli_bad("monitor: --count %s: expected 1..100000000", arg), -1;
		a->count_arg = arg;
		return 0;
	case 'S': a->summary_only = true; return 0;
	default: return 1;
	}
}

/* What the output records: the options that change what is measured
 * (the interval as it ran, the default included), the root, the wrapped
 * command. extra holds room for 5 words. */
static void monitor_inputs(const char *root, const struct mon_args *a, char **cmd,
			   const char **extra, struct run_inputs *in)
{
	int n = 0;

	*in = (struct run_inputs){ .command = "monitor", .version = PMLAB_VERSION, .host = true,
				   .root = root, .argv = cmd, .extra = extra };
	if (!cmd) {
		extra[n++] = "--interval";
		extra[n++] = a->interval_arg ? a->interval_arg : "5";
	}
	if (a->count_arg) {
		extra[n++] = "--count";
		extra[n++] = a->count_arg;
	}
	if (a->summary_only)
		extra[n++] = "--summary";
	in->nextra = n;
}

/* Opens root and monitors it: every interval, or over cmd's run. Exit
 * code. */
static int monitor(const char *root, struct mon_writer *w, const struct mon_args *a, char **cmd)
{
	struct hostfs fs;
	struct monitor m;
	struct pm_diag d = { { 0 } };
	int rc;

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
	w->m = &m;
	w->command = cmd ? cmd[0] : NULL;
	const char *extra[5];
	struct run_inputs in;
	monitor_inputs(a->root, a, cmd, extra, &in);
	w->inputs = &in;
	if (host_signals_install() < 0) {
		fprintf(stderr, "pmlab: monitor: cannot install signal handlers\n");
		rc = EXIT_RUNTIME;
	} else {
		rc = run(&m, w, a->interval, a->count, cmd);
		host_signals_restore();
	}
	monitor_close(&m);
	hostfs_close(&fs);
	return rc;
}

int cmd_monitor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, 0, 'i' },
		{ "count", required_argument, 0, 'n' },
		{ "summary", no_argument, 0, 'S' },
		CLI_OPTION_FORMAT, CLI_OPTION_ROOT, CLI_OPTION_QUIET, { 0, 0, 0, 0 },
	};
	static const enum mon_format mon_formats[] = {
		[CLI_TABLE] = MON_TABLE, [CLI_CSV] = MON_CSV, [CLI_JSON] = MON_JSON,
	};
	struct mon_args a = { .interval = 5 * NS_PER_SEC };
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "monitor", CLI_FORMAT_BIT(CLI_TABLE) | CLI_FORMAT_BIT(CLI_CSV) |
			  CLI_FORMAT_BIT(CLI_JSON), argc) < 0)
		return cli_bad("out of memory");
	/* '+': the first word that is not an option starts the command */
	i = cli_parse(&o, argc, argv, "+:i:n:f:Sq", opts, own_option, &a);
	char **cmd = i >= 0 && i < argc ? argv + i : NULL;
	struct mon_writer w = { .out = stdout, .format = mon_formats[o.format],
				.summary_only = a.summary_only };
	if (i < 0)
		goto out;
	if (cmd && a.count) {
		cli_bad("monitor: --count and a COMMAND do not go together (the command's run is "
			"the one interval)");
		goto out;
	}
	a.root = cli_host_root(&o);
	rc = monitor(o.root, &w, &a, cmd);
out:
	cli_opts_free(&o);
	return rc;
}
