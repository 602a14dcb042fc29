// SPDX-License-Identifier: GPL-2.0-only
/* pmlab govtrace: drive one frequency governor with a CSV trace of util-hook
 * calls and print each frequency it picks. The work is in
 * src/cpufreq/govtrace.c; this is options, input and output. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmlab/pmlab.h>

#include "cli.h"
#include "lab_client.h"
#include "options.h"

void usage_govtrace(void)
{
	printf("usage: pmlab govtrace --governor G --freqs KHZ,KHZ,... [options]\n\n"
	       "Drive frequency governor G on one CPU with a trace of scheduler util-hook calls\n"
	       "and print t_us,freq_khz each time its target frequency changes (the first row is\n"
	       "the frequency after the governor started, at 0; the CPU starts at the highest).\n\n"
	       "input (CSV): header t_us,busy_us,iowait_us,idle_us[,util][,iowait_wakeup], then\n"
	       "one row per hook call at t_us with the us spent busy, in iowait and idle since\n"
	       "the previous row (they add up to the gap); util is the frequency-invariant\n"
	       "utilization 0..1024 (schedutil needs it), iowait_wakeup 1 flags an I/O wakeup.\n\n"
	       "options:\n"
	       "  -g, --governor G            frequency governor (pmlab governors)\n"
	       "      --set TUNABLE=VALUE     governor tunable; repeatable\n"
	       "      --freqs KHZ,KHZ,...     frequency table; the highest is cpuinfo max\n"
	       "      --base-khz KHZ          highest non-turbo entry (default: the highest)\n"
	       "      --hz N                  scheduler tick rate: 100, 250 (default), 300, 1000\n"
	       "      --transition-latency-us N  hardware transition latency (default 0: unknown)\n"
	       "  -i, --input FILE            the trace; - for standard input (default)\n"
	       "      --plugin FILE           load the governors of a plugin (pmlab/plugin.h)\n");
}

struct own {
	const char *governor, *freqs, *input;
	uint32_t base_khz;
	int hz;
	int64_t transition_latency_us;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;
	uint64_t v;

	switch (opt) {
	case 'g': w->governor = arg; return 0;
	case 'F': w->freqs = arg; return 0;
	case 'i': w->input = arg; return 0;
	case 'B':
		if (cli_parse_u64(arg, &v) < 0 || v < 1 || v > PMLAB_GOVTRACE_MAX_KHZ)
			return cli_bad("govtrace: --base-khz %s: expected kHz 1..%u", arg,
				       PMLAB_GOVTRACE_MAX_KHZ), -1;
		w->base_khz = (uint32_t)v;
		return 0;
	case 'H':
		if (cli_parse_u64(arg, &v) < 0 || v > 100000)
			return cli_bad("govtrace: --hz %s: expected 100, 250, 300 or 1000", arg), -1;
		w->hz = (int)v;
		return 0;
	case 'L':
		if (cli_parse_u64(arg, &v) < 0 || v > 10000000)
			return cli_bad("govtrace: --transition-latency-us %s: expected 0..10000000",
				       arg), -1;
		w->transition_latency_us = (int64_t)v;
		return 0;
	default:
		return 1;
	}
}

/* The run the options describe, checked. -1 after the message. */
static int describe(const struct cli_opts *o, const struct own *w, const pmlab_lab *lab,
		    pmlab_govtrace **g)
{
	pmlab_error err = { PMLAB_OK, "" };
	int bad;

	if (pmlab_govtrace_new(lab, w->governor, g, &err) != PMLAB_OK)
		return cli_bad("govtrace: %s", err.message), -1;
	bad = pmlab_govtrace_base_khz(*g, w->base_khz, &err) != PMLAB_OK ||
	      pmlab_govtrace_hz(*g, w->hz, &err) != PMLAB_OK ||
	      pmlab_govtrace_transition_latency(*g, w->transition_latency_us, &err) != PMLAB_OK;
	for (int i = 0; !bad && i < o->nsets; i++)
		bad = pmlab_govtrace_set(*g, o->sets[i], &err) != PMLAB_OK;
	if (bad || pmlab_govtrace_freqs(*g, w->freqs, &err) != PMLAB_OK ||
	    pmlab_govtrace_validate(*g, NULL, &err) != PMLAB_OK)
		return cli_bad("govtrace: %s", err.message), -1;
	return 0;
}

/* Reads the trace, runs it and prints each change of frequency. Exit code. */
static int run(const struct own *w, pmlab_govtrace *g)
{
	pmlab_error err = { PMLAB_OK, "" };
	pmlab_trace *t = NULL;
	const char *name;
	char *text = NULL;
	size_t len;
	int rc = EXIT_OK;

	if (cli_read_input("govtrace", w->input, &text, &len, &name) < 0)
		return EXIT_USAGE;
	if (pmlab_trace_parse(text, len, name, PMLAB_TRACE_UTIL, &t, &err) != PMLAB_OK)
		rc = cli_bad("%s", err.message);
	else if (pmlab_govtrace_validate(g, t, &err) != PMLAB_OK)
		rc = cli_bad("govtrace: %s", err.message);
	else if (pmlab_govtrace_write(g, t, stdout, PMLAB_CSV, &err) != PMLAB_OK) {
		if (err.code == PMLAB_ERR_INPUT)
			rc = cli_bad("%s", err.message);
		else if (err.code == PMLAB_ERR_IO)
			fprintf(stderr, "pmlab: govtrace: cannot write to standard output\n"), rc = EXIT_RUNTIME;
		else
			fprintf(stderr, "pmlab: %s\n", err.message), rc = EXIT_RUNTIME;
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: govtrace: cannot write to standard output\n");
		rc = EXIT_RUNTIME;
	}
	pmlab_trace_free(t);
	free(text);
	return rc;
}

int cmd_govtrace(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_SET, CLI_OPTION_PLUGIN,
		{ "governor", required_argument, 0, 'g' },
		{ "freqs", required_argument, 0, 'F' },
		{ "base-khz", required_argument, 0, 'B' },
		{ "hz", required_argument, 0, 'H' },
		{ "transition-latency-us", required_argument, 0, 'L' },
		{ "input", required_argument, 0, 'i' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { .hz = 250, .input = "-" };
	struct cli_opts o;
	pmlab_lab *lab = NULL;
	pmlab_govtrace *g = NULL;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "govtrace", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":g:i:", opts, own_option, &w);
	if (i < 0 || cli_no_operands(&o, i, argc, argv) < 0)
		goto out;
	if (!w.governor || !w.freqs) {
		cli_bad("govtrace: --governor and --freqs are required (see pmlab govtrace --help)");
		goto out;
	}
	if (cli_lab(&o, &lab) == 0 && describe(&o, &w, lab, &g) == 0)
		rc = run(&w, g);
out:
	pmlab_govtrace_free(g);
	pmlab_lab_free(lab);
	cli_opts_free(&o);
	return rc;
}
