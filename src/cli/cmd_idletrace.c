// SPDX-License-Identifier: GPL-2.0-only
/* pmlab idletrace: one idle governor driven by a CSV trace of idle periods;
 * the model is src/cpuidle/idletrace.h. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpuidle/idletrace.h"
#include "../machine/machine.h"
#include "cli.h"
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
	       "      --hz HZ           tick frequency: 100, 250 (default), 300 or 1000\n\n"
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

static int run_trace(struct idletrace_sim *s, const struct idletrace *t)
{
	uint64_t count[MACHINE_MAX_CSTATES] = { 0 }, above = 0, below = 0, stopped = 0;
	const struct cpuidle_device *dev = &s->dev;

	printf("idx,state,stop_tick,above,below\n");
	for (int i = 0; i < t->nrows; i++) {
		struct idletrace_step st;
		idletrace_sim_step(s, &t->rows[i], &st);
		int a = st.miss == CPUIDLE_ABOVE, b = st.miss == CPUIDLE_BELOW;
		printf("%d,%s,%d,%d,%d\n", i, dev->states[st.state].name, st.tick_stopped, a, b);
		count[st.state]++;
		above += (uint64_t)a;
		below += (uint64_t)b;
		stopped += st.tick_stopped;
	}
	printf("# states:");
	for (int i = 0; i < dev->nstates; i++)
		printf(" %s=%llu", dev->states[i].name, (unsigned long long)count[i]);
	printf("; above=%llu below=%llu tick_stopped=%llu\n", (unsigned long long)above,
	       (unsigned long long)below, (unsigned long long)stopped);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: idletrace: cannot write to standard output\n");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

struct own {
	struct idletrace_config cfg;
	const char *input;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;
	uint64_t hz;

	switch (opt) {
	case 'g': w->cfg.governor = arg; return 0;
	case 'i': w->input = arg; return 0;
	case 'T':
		if (tick_policy_parse(arg, &w->cfg.tick_policy) < 0)
			return cli_bad("idletrace: --tick-policy %s: expected legacy, governor or "
				       "periodic", arg), -1;
		return 0;
	case 'H':
		if (cli_parse_u64(arg, &hz) < 0 || (hz != 100 && hz != 250 && hz != 300 && hz != 1000))
			return cli_bad("idletrace: --hz %s: expected 100, 250, 300 or 1000", arg), -1;
		w->cfg.hz = (int)hz;
		return 0;
	default:
		return 1;
	}
}

/* Reads the trace and runs it on sim. Exit code. */
static int trace(struct idletrace_sim *sim, const char *input)
{
	struct idletrace t = { 0 };
	struct pm_diag d = { { 0 } };
	const char *name;
	char *text = NULL;
	size_t len;
	int rc;

	if (cli_read_input("idletrace", input, &text, &len, &name) < 0)
		return EXIT_USAGE;
	if (idletrace_parse(&t, text, len, name, &d) < 0)
		rc = cli_bad("%s", d.msg);
	else
		rc = run_trace(sim, &t);
	idletrace_free(&t);
	free(text);
	return rc;
}

int cmd_idletrace(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_MACHINE, CLI_OPTION_SET,
		{ "governor", required_argument, 0, 'g' },
		{ "input", required_argument, 0, 'i' },
		{ "tick-policy", required_argument, 0, 'T' },
		{ "hz", required_argument, 0, 'H' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { .cfg = { .tick_policy = TICK_GOVERNOR, .hz = 250 }, .input = "-" };
	struct idletrace_sim sim = { 0 };
	struct pm_diag d = { { 0 } };
	struct cli_opts o;
	struct machine m;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "idletrace", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":g:m:i:", opts, own_option, &w);
	if (i < 0 || cli_no_operands(&o, i, argc, argv) < 0)
		goto out;
	if (!w.cfg.governor || !o.machine) {
		cli_bad("idletrace: --governor and --machine are required (see pmlab idletrace --help)");
		goto out;
	}
	w.cfg.sets = o.sets;
	w.cfg.nsets = o.nsets;
	if (cli_load_machine(&o, &m) < 0)
		goto out;
	if (idletrace_sim_init(&sim, &m, &w.cfg, &d) < 0) {
		cli_bad("idletrace: %s", d.msg);
		goto out;
	}
	rc = trace(&sim, w.input);
out:
	idletrace_sim_destroy(&sim);
	cli_opts_free(&o);
	return rc;
}
