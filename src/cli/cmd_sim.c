// SPDX-License-Identifier: GPL-2.0-only
/* pmlab sim: one simulated run. */
#include <stdio.h>
#include <unistd.h>

#include "../lab/single_run.h"
#include "cli.h"
#include "options.h"

void usage_sim(void)
{
	printf("usage: pmlab sim --machine M --workload W [options]\n\n"
	       "Simulate workload W on machine M under a frequency and an idle governor and\n"
	       "print throughput, latency, energy, power, frequency, C-state residency and\n"
	       "CPU utilisation.\n\n"
	       "options:\n"
	       "  -m, --machine M      built-in machine (pmlab machines) or an .ini file\n"
	       "  -w, --workload W     workload model (pmlab workloads)\n"
	       "  -c, --cpus N         restrict the machine to its first N CPUs\n"
	       "  -d, --duration S     simulated seconds (default 10)\n"
	       "  -s, --seed N         random seed (default 1)\n"
	       "      --cpufreq G      frequency governor (default: what the machine's cpufreq\n"
	       "                       driver runs under a stock kernel: schedutil, intel_pstate\n"
	       "                       for an intel_pstate machine, performance without a driver)\n"
	       "      --cpuidle G      idle governor (default menu; deepest without a cpuidle\n"
	       "                       driver)\n"
	       "      --set KEY=VALUE  engine, workload or governor tunable; repeatable\n"
	       "      --profile P      tuned profile (pmlab profile list), a tuned.conf, or either\n"
	       "                       with :OPTION=VALUE,... [cpu] overrides; its governor runs\n"
	       "                       unless --cpufreq is given, its settings come before --set\n"
	       "      --profile-dir D  look for profiles in D first; repeatable\n"
	       "      --timeline FILE  also write the run as a timeline (Chrome trace JSON)\n"
	       "                       that ui.perfetto.dev opens; a large one is announced\n"
	       "      --trace FILE     also write the run as a kernel trace, a trace.dat\n"
	       "                       (sched_switch, sched_wakeup, cpu_idle, cpu_frequency,\n"
	       "                       power) for trace-cmd, KernelShark and pmlab replay\n"
	       "      --window S:E     the timeline and trace keep only S..E seconds\n"
	       "      --trace-cpus L   ... and only the CPUs in list L (0-3,6)\n"
	       "  -f, --format F       table (default), csv or json\n"
	       "      --check          verify the engine's invariants after every event (slow)\n");
}

/* Long runs show how far they are on a terminal and stay quiet in pipes. */
static void show_progress(void *ctx, double done)
{
	fprintf(stderr, "\rpmlab: simulating %3.0f%%", done * 100.0);
}

static int print_result(void *ctx, struct sim *s, const struct run_result *r)
{
	const struct cli_opts *o = ctx;

	if (isatty(STDERR_FILENO) && r->events > 0xfffff)
		fprintf(stderr, "\r%30s\r", "");
	if (result_write(stdout, r, (enum result_format)o->format) < 0 || fflush(stdout) != 0)
		return cli_bad("sim: cannot write the result to standard output"), -1;
	return 0;
}

/* The run the options describe; -1 after the message. */
static int build(const struct cli_opts *o, const struct machine *m, struct runspec *rs)
{
	struct pm_diag d = { { 0 } };

	if (runspec_init(rs, m, o->workload, o->cpufreq, o->cpuidle, &d) < 0 ||
	    (o->profile && runspec_profile(rs, o->profile, o->dirs, o->ndirs, &d) < 0) ||
	    runspec_set_all(rs, o->sets, o->nsets, &d) < 0)
		return cli_bad("%s", d.msg), -1;
	rs->duration = o->duration;
	rs->seed = o->seed;
	rs->check = o->check;
	if (isatty(STDERR_FILENO) && !cli_quiet)
		rs->progress = show_progress;
	if (runspec_check(rs, &d) < 0)
		return cli_bad("%s", d.msg), -1;
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTIONS_RUN, CLI_OPTION_WORKLOAD, CLI_OPTION_FORMAT, CLI_OPTION_CHECK,
		CLI_OPTIONS_EXPORT, CLI_OPTION_PROFILE, CLI_OPTION_PROFILE_DIR, { 0, 0, 0, 0 },
	};
	struct cli_opts o;
	struct runspec rs = { .nsets = 0 };
	struct export_filter filter;
	struct run_exports x;
	struct machine m;
	struct pm_diag d = { { 0 } };
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "sim", CLI_FORMAT_BIT(CLI_TABLE) | CLI_FORMAT_BIT(CLI_CSV) |
			  CLI_FORMAT_BIT(CLI_JSON), argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":m:w:c:d:s:f:", opts, NULL, NULL);
	if (i < 0 || cli_no_operands(&o, i, argc, argv) < 0)
		goto out;
	if (!o.machine || !o.workload) {
		cli_bad("sim: --machine and --workload are required (see pmlab sim --help)");
		goto out;
	}
	if (cli_load_machine(&o, &m) < 0 || cli_exports(&o, &m, &filter, &x) < 0 ||
	    build(&o, &m, &rs) < 0)
		goto out;
	rc = EXIT_OK;
	if (single_run(&rs, &x, o.workload, print_result, &o, &d) < 0) {
		if (d.msg[0])
			fprintf(stderr, "pmlab: sim: %s\n", d.msg);
		rc = EXIT_RUNTIME;
	}
out:
	runspec_free(&rs);
	cli_opts_free(&o);
	return rc;
}
