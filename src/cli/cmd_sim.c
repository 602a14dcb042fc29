// SPDX-License-Identifier: GPL-2.0-only
/* pmlab sim: one simulated run, through libpmlab (include/pmlab/pmlab.h)
 * like any other program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmlab/pmlab.h>

#include "cli.h"
#include "lab_client.h"
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
	       "      --plugin FILE    load the governors of a plugin (pmlab/plugin.h), also\n"
	       "                       every *.so of PMLAB_PLUGIN_PATH; repeatable\n"
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
	(void)ctx;
	fprintf(stderr, "\rpmlab: simulating %3.0f%%", done * 100.0);
}

static void show_warning(void *ctx, const char *msg)
{
	fprintf(stderr, "pmlab: sim: %s\n", msg);
}

/* The run the options describe; -1 after the message. */
static int build(const struct cli_opts *o, pmlab_run *run, bool *progressed)
{
	pmlab_error err = { PMLAB_OK, "" };
	int bad = 0;

	bad |= pmlab_run_cpufreq(run, o->cpufreq, &err) != PMLAB_OK;
	bad |= !bad && pmlab_run_cpuidle(run, o->cpuidle, &err) != PMLAB_OK;
	bad |= !bad && pmlab_run_profile(run, o->profile, &err) != PMLAB_OK;
	for (int i = 0; !bad && i < o->nsets; i++)
		bad |= pmlab_run_set(run, o->sets[i], &err) != PMLAB_OK;
	bad |= !bad && pmlab_run_duration(run, o->duration, &err) != PMLAB_OK;
	if (bad)
		return cli_bad("%s", err.message), -1;
	pmlab_run_seed(run, o->seed);
	pmlab_run_check_invariants(run, o->check);
	/* The line is cleared whether or not it was shown: a run with a plugin
	 * shows it from a forked worker, whose flags never come back. */
	if (isatty(STDERR_FILENO) && !cli_quiet) {
		pmlab_run_on_progress(run, show_progress, NULL);
		*progressed = true;
	}
	if (!cli_quiet)
		pmlab_run_on_warning(run, show_warning, NULL);
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTIONS_RUN, CLI_OPTION_WORKLOAD, CLI_OPTION_FORMAT, CLI_OPTION_CHECK,
		CLI_OPTIONS_EXPORT, CLI_OPTION_PROFILE, CLI_OPTION_PROFILE_DIR, CLI_OPTION_PLUGIN,
		{ 0, 0, 0, 0 },
	};
	static const pmlab_format formats[] = {
		[CLI_TABLE] = PMLAB_TABLE, [CLI_CSV] = PMLAB_CSV, [CLI_JSON] = PMLAB_JSON,
	};
	struct cli_opts o;
	pmlab_lab *lab = NULL;
	pmlab_machine *m = NULL;
	pmlab_run *run = NULL;
	pmlab_result *res = NULL;
	pmlab_error err = { PMLAB_OK, "" };
	bool progressed = false;
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
	if (cli_lab(&o, &lab) < 0 || cli_machine(&o, &m) < 0)
		goto out;
	if (pmlab_run_new(lab, m, o.workload, &run, &err) != PMLAB_OK) {
		cli_bad("sim: %s", err.message);
		goto out;
	}
	if (cli_run_exports(&o, run) < 0 || build(&o, run, &progressed) < 0)
		goto out;
	if (pmlab_run_exec(run, &res, &err) != PMLAB_OK) {
		if (progressed)
			fprintf(stderr, "\r%30s\r", "");
		if (err.code == PMLAB_ERR_INPUT)
			cli_bad("%s", err.message);
		else
			fprintf(stderr, "pmlab: sim: %s\n", err.message);
		rc = err.code == PMLAB_ERR_INPUT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (progressed)
		fprintf(stderr, "\r%30s\r", "");
	rc = EXIT_OK;
	if (fputs(pmlab_result_text(res, formats[o.format]), stdout) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "pmlab: sim: cannot write the result to standard output\n");
		rc = EXIT_RUNTIME;
	}
out:
	pmlab_result_free(res);
	pmlab_run_free(run);
	pmlab_machine_free(m);
	pmlab_lab_free(lab);
	cli_opts_free(&o);
	return rc;
}
