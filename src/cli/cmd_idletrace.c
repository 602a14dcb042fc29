// SPDX-License-Identifier: GPL-2.0-only
/* pmlab idletrace: one idle governor driven by a CSV trace of idle periods;
 * the model is src/cpuidle/idletrace.h. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmlab/pmlab.h>

#include "cli.h"
#include "lab_client.h"
#include "options.h"

void usage_idletrace(void)
{
	printf("usage: pmlab idletrace --governor NAME --machine M [options]\n\n"
	       "Drive one idle governor with a trace of idle periods of one CPU, using CPU 0's\n"
	       "C-states of machine M, and print for each period the state chosen, whether the\n"
	       "tick was stopped, and whether the state was too deep (above) or too shallow\n"
	       "(below), as the kernel counts them.\n\n"
	       "options:\n"
	       "  -g, --governor NAME   idle governor (pmlab governors)\n"
	       "  -m, --machine M       built-in machine (pmlab machines) or an .ini file\n"
	       "      --set KEY=VALUE   governor tunable; repeatable\n"
	       "  -i, --input FILE|-    the trace (default -, standard input)\n"
	       "      --tick-policy P   legacy (stop the tick, then select), governor (the\n"
	       "                        governor decides; default) or periodic (never stop it)\n"
	       "      --hz HZ           tick frequency: 100, 250 (default), 300 or 1000\n"
	       "      --plugin FILE     load the governors of a plugin (pmlab/plugin.h)\n\n"
	       "input: CSV with the header next_timer_us,idle_us[,latency_limit_us]; one row\n"
	       "per idle period: the time to the next timer event (tick not counted), how long\n"
	       "the CPU stayed idle before its wakeup (>= next_timer_us: the timer woke it) and\n"
	       "the PM QoS latency limit (empty or no column: none). Microseconds, up to three\n"
	       "decimals. Blank lines and lines starting with '#' are skipped.\n\n"
	       "output: CSV idx,state,stop_tick,above,below, one row per period (idx counts\n"
	       "periods from 0; stop_tick is 1 if the tick did not run during it), then a line\n"
	       "'# states: NAME=COUNT ...; above=N below=N tick_stopped=N'.\n\n"
	       "model: no busy time between periods; ticks on the 1/HZ grid from time 0. The\n"
	       "CPU wakes at min(idle, timer), or earlier at a running tick, or at the polling\n"
	       "state's limit (cpuidle_poll_time()); that time is the residency given to\n"
	       "reflect(), and the period ends there.\n");
}

struct own {
	const char *governor, *tick_policy, *input;
	int hz;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;
	uint64_t hz;

	switch (opt) {
	case 'g': w->governor = arg; return 0;
	case 'i': w->input = arg; return 0;
	case 'T':
		/* checked when the run is described, in option order with --hz */
		w->tick_policy = arg;
		return 0;
	case 'H':
		if (cli_parse_u64(arg, &hz) < 0 || (hz != 100 && hz != 250 && hz != 300 && hz != 1000))
			return cli_bad("idletrace: --hz %s: expected 100, 250, 300 or 1000", arg), -1;
		w->hz = (int)hz;
		return 0;
	default:
		return 1;
	}
}

/* The run the options describe. -1 after the message. */
static int describe(const struct cli_opts *o, const struct own *w, const pmlab_lab *lab,
		    const pmlab_machine *m, pmlab_idletrace **it)
{
	pmlab_error err = { PMLAB_OK, "" };
	int bad;

	if (pmlab_idletrace_new(lab, m, w->governor, it, &err) != PMLAB_OK)
		return cli_bad("%s", err.message), -1;
	bad = pmlab_idletrace_hz(*it, w->hz, &err) != PMLAB_OK ||
	      (w->tick_policy && pmlab_idletrace_tick_policy(*it, w->tick_policy, &err) != PMLAB_OK);
	for (int i = 0; !bad && i < o->nsets; i++)
		bad = pmlab_idletrace_set(*it, o->sets[i], &err) != PMLAB_OK;
	if (bad || pmlab_idletrace_validate(*it, &err) != PMLAB_OK)
		return cli_bad("idletrace: %s", err.message), -1;
	return 0;
}

/* Reads the trace, runs it and prints the periods. Exit code. */
static int run(const struct own *w, pmlab_idletrace *it)
{
	pmlab_error err = { PMLAB_OK, "" };
	pmlab_trace *t = NULL;
	const char *name;
	char *text = NULL;
	size_t len;
	int rc = EXIT_OK;

	if (cli_read_input("idletrace", w->input, &text, &len, &name) < 0)
		return EXIT_USAGE;
	if (pmlab_trace_parse(text, len, name, PMLAB_TRACE_IDLE, &t, &err) != PMLAB_OK) {
		rc = cli_bad("%s", err.message);
	} else if (pmlab_idletrace_write(it, t, stdout, PMLAB_CSV, &err) != PMLAB_OK) {
		if (err.code == PMLAB_ERR_INPUT)
			rc = cli_bad("%s", err.message);
		else if (err.code == PMLAB_ERR_IO)
			fprintf(stderr, "pmlab: idletrace: cannot write to standard output\n"), rc = EXIT_RUNTIME;
		else
			fprintf(stderr, "pmlab: %s\n", err.message), rc = EXIT_RUNTIME;
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: idletrace: cannot write to standard output\n");
		rc = EXIT_RUNTIME;
	}
	pmlab_trace_free(t);
	free(text);
	return rc;
}

int cmd_idletrace(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_MACHINE, CLI_OPTION_SET, CLI_OPTION_PLUGIN,
		{ "governor", required_argument, 0, 'g' },
		{ "input", required_argument, 0, 'i' },
		{ "tick-policy", required_argument, 0, 'T' },
		{ "hz", required_argument, 0, 'H' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { .hz = 250, .input = "-" };
	struct cli_opts o;
	pmlab_lab *lab = NULL;
	pmlab_machine *m = NULL;
	pmlab_idletrace *it = NULL;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "idletrace", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":g:m:i:", opts, own_option, &w);
	if (i < 0 || cli_no_operands(&o, i, argc, argv) < 0)
		goto out;
	if (!w.governor || !o.machine) {
		cli_bad("idletrace: --governor and --machine are required (see pmlab idletrace --help)");
		goto out;
	}
	if (cli_machine(&o, &m) == 0 && cli_lab(&o, &lab) == 0 && describe(&o, &w, lab, m, &it) == 0)
		rc = run(&w, it);
out:
	pmlab_idletrace_free(it);
	pmlab_machine_free(m);
	pmlab_lab_free(lab);
	cli_opts_free(&o);
	return rc;
}
