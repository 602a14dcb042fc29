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

/* Reads all of f; NULL on a read error or out of memory. */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *grown = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap *= 2);
		if (!grown)
			free(buf);
		buf = grown;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	*len = n;
	return buf;
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

int cmd_idletrace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "governor", required_argument, 0, 'g' },
		{ "machine", required_argument, 0, 'm' },
		{ "set", required_argument, 0, 'S' },
		{ "input", required_argument, 0, 'i' },
		{ "tick-policy", required_argument, 0, 'T' },
		{ "hz", required_argument, 0, 'H' },
		{ 0, 0, 0, 0 },
	};
	struct idletrace_config cfg = { .tick_policy = TICK_GOVERNOR, .hz = 250 };
	const char *machine = NULL, *input = "-";
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	struct idletrace trace = { 0 };
	struct idletrace_sim sim = { 0 };
	struct pm_diag d = { { 0 } };
	char *text = NULL;
	int opt, rc = EXIT_USAGE;
	uint64_t hz;

	if (!sets)
		return cli_bad("out of memory");
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":g:m:i:", opts, NULL)) != -1) {
		switch (opt) {
		case 'g': cfg.governor = optarg; break;
		case 'm': machine = optarg; break;
		case 'i': input = optarg; break;
		case 'S': sets[cfg.nsets++] = optarg; break;
		case 'T':
			if (tick_policy_parse(optarg, &cfg.tick_policy) < 0) {
				cli_bad("idletrace: --tick-policy %s: expected legacy, governor or periodic",
					optarg);
				goto out;
			}
			break;
		case 'H':
			if (cli_parse_u64(optarg, &hz) < 0 ||
			    (hz != 100 && hz != 250 && hz != 300 && hz != 1000)) {
				cli_bad("idletrace: --hz %s: expected 100, 250, 300 or 1000", optarg);
				goto out;
			}
			cfg.hz = (int)hz;
			break;
		case ':':
		default:
			cli_bad_option("idletrace", opt, argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		cli_bad("idletrace: unexpected argument '%s' (see pmlab idletrace --help)",
			argv[optind]);
		goto out;
	}
	if (!cfg.governor || !machine) {
		cli_bad("idletrace: --governor and --machine are required (see pmlab idletrace --help)");
		goto out;
	}
	cfg.sets = sets;

	struct machine m;
	if (machine_load(&m, machine, &d) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	if (idletrace_sim_init(&sim, &m, &cfg, &d) < 0) {
		cli_bad("idletrace: %s", d.msg);
		goto out;
	}

	bool from_stdin = strcmp(input, "-") == 0;
	const char *where = from_stdin ? "<stdin>" : input;
	FILE *f = from_stdin ? stdin : fopen(input, "r");
	if (!f) {
		cli_bad("%s: cannot open: %s", input, strerror(errno));
		goto out;
	}
	size_t len;
	text = slurp(f, &len);
	if (!from_stdin)
		fclose(f);
	if (!text) {
		cli_bad("%s: cannot read it", where);
		goto out;
	}
	if (idletrace_parse(&trace, text, len, where, &d) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	rc = run_trace(&sim, &trace);
out:
	idletrace_free(&trace);
	idletrace_sim_destroy(&sim);
	free(text);
	free(sets);
	return rc;
}
