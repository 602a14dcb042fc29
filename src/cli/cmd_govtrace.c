// SPDX-License-Identifier: GPL-2.0-only
/* pmlab govtrace: drive one frequency governor with a CSV trace of util-hook
 * calls and print each frequency it picks. The work is in
 * src/cpufreq/govtrace.c; this is options, input and output. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpufreq/govtrace.h"
#include "cli.h"
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
	       "  -i, --input FILE            the trace; - for standard input (default)\n");
}

static int run(const struct govtrace_config *cfg, const struct govtrace_input *in,
	       const char *name)
{
	struct pm_diag d = { { 0 } };
	struct govtrace *g;
	if (govtrace_create(&g, cfg, &d) < 0)
		return cli_bad("govtrace: %s", d.msg);
	for (size_t i = 0; i < in->nrows; i++) {
		if (govtrace_step(g, 0, &in->rows[i], &d) < 0) {
			govtrace_destroy(g);
			return cli_bad("%s:%d: %s", name, in->rows[i].line, d.msg);
		}
	}
	size_t n;
	const struct govtrace_change *c = govtrace_changes(g, &n);
	printf("t_us,freq_khz\n");
	for (size_t i = 0; i < n; i++)
		printf("%lld,%u\n", (long long)c[i].t_us, c[i].khz);
	govtrace_destroy(g);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "pmlab: govtrace: cannot write to standard output\n");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

struct own {
	struct govtrace_config cfg;
	const char *freqs, *input;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;
	uint64_t v;

	switch (opt) {
	case 'g': w->cfg.governor = arg; return 0;
	case 'F': w->freqs = arg; return 0;
	case 'i': w->input = arg; return 0;
	case 'B':
		if (cli_parse_u64(arg, &v) < 0 || v < 1 || v > GOVTRACE_MAX_KHZ)
			return cli_bad("govtrace: --base-khz %s: expected kHz 1..%u", arg,
				       GOVTRACE_MAX_KHZ), -1;
		w->cfg.base_khz = (uint32_t)v;
		return 0;
	case 'H':
		if (cli_parse_u64(arg, &v) < 0 || v > 100000)
			return cli_bad("govtrace: --hz %s: expected 100, 250, 300 or 1000", arg), -1;
		w->cfg.hz = (int)v;
		return 0;
	case 'L':
		if (cli_parse_u64(arg, &v) < 0 || v > 10000000)
			return cli_bad("govtrace: --transition-latency-us %s: expected 0..10000000",
				       arg), -1;
		w->cfg.transition_latency_us = (int64_t)v;
		return 0;
	default:
		return 1;
	}
}

/* Reads the trace and runs it. Exit code. */
static int trace(struct own *w)
{
	struct govtrace_input in = { 0 };
	struct pm_diag d = { { 0 } };
	const char *name;
	char *text = NULL;
	size_t len;
	int rc;

	if (cli_read_input("govtrace", w->input, &text, &len, &name) < 0)
		return EXIT_USAGE;
	if (govtrace_parse(text, len, name, &in, &d) < 0) {
		rc = cli_bad("%s", d.msg);
	} else {
		w->cfg.no_util = !in.has_util;
		rc = run(&w->cfg, &in, name);
	}
	govtrace_input_free(&in);
	free(text);
	return rc;
}

int cmd_govtrace(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_SET,
		{ "governor", required_argument, 0, 'g' },
		{ "freqs", required_argument, 0, 'F' },
		{ "base-khz", required_argument, 0, 'B' },
		{ "hz", required_argument, 0, 'H' },
		{ "transition-latency-us", required_argument, 0, 'L' },
		{ "input", required_argument, 0, 'i' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { .cfg = { .hz = 250, .ncpus = 1 }, .input = "-" };
	struct pm_diag d = { { 0 } };
	uint32_t *table = NULL;
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "govtrace", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":g:i:", opts, own_option, &w);
	if (i < 0 || cli_no_operands(&o, i, argc, argv) < 0)
		goto out;
	if (!w.cfg.governor || !w.freqs) {
		cli_bad("govtrace: --governor and --freqs are required (see pmlab govtrace --help)");
		goto out;
	}
	w.cfg.sets = o.sets;
	w.cfg.nsets = o.nsets;
	if (govtrace_parse_freqs(w.freqs, &table, &w.cfg.nfreqs, &d) == 0) {
		w.cfg.freqs = table;
		if (govtrace_check(&w.cfg, &d) == 0)
			rc = trace(&w);
	}
	if (d.msg[0])
		cli_bad("govtrace: %s", d.msg);
out:
	free(table);
	cli_opts_free(&o);
	return rc;
}
