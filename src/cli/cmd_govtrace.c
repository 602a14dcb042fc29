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

#define MAX_INPUT_BYTES (1u << 30)

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

/* Reads all of `path` ("-": stdin) into a malloc'd buffer. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || cap >= MAX_INPUT_BYTES)
			break;
		char *grown = realloc(buf, cap * 2);
		if (!grown) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = grown;
		cap *= 2;
	}
	bool failed = ferror(f) || (buf && n == cap);
	if (f != stdin)
		fclose(f);
	if (failed) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
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

int cmd_govtrace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "governor", required_argument, 0, 'g' },
		{ "set", required_argument, 0, 'S' },
		{ "freqs", required_argument, 0, 'F' },
		{ "base-khz", required_argument, 0, 'B' },
		{ "hz", required_argument, 0, 'H' },
		{ "transition-latency-us", required_argument, 0, 'L' },
		{ "input", required_argument, 0, 'i' },
		{ 0, 0, 0, 0 },
	};
	struct govtrace_config cfg = { .hz = 250, .ncpus = 1 };
	const char *freqs = NULL, *input = "-";
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	if (!sets)
		return cli_bad("out of memory");
	int opt, rc = EXIT_USAGE;
	uint64_t v;
	uint32_t *table = NULL;
	char *text = NULL;
	struct govtrace_input in = { 0 };
	struct pm_diag d = { { 0 } };
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":g:i:", opts, NULL)) != -1) {
		switch (opt) {
		case 'g': cfg.governor = optarg; break;
		case 'S': sets[cfg.nsets++] = optarg; break;
		case 'F': freqs = optarg; break;
		case 'i': input = optarg; break;
		case 'B':
			if (cli_parse_u64(optarg, &v) < 0 || v < 1 || v > GOVTRACE_MAX_KHZ) {
				cli_bad("govtrace: --base-khz %s: expected kHz 1..%u", optarg,
					GOVTRACE_MAX_KHZ);
				goto out;
			}
			cfg.base_khz = (uint32_t)v;
			break;
		case 'H':
			if (cli_parse_u64(optarg, &v) < 0 || v > 100000) {
				cli_bad("govtrace: --hz %s: expected 100, 250, 300 or 1000", optarg);
				goto out;
			}
			cfg.hz = (int)v;
			break;
		case 'L':
			if (cli_parse_u64(optarg, &v) < 0 || v > 10000000) {
				cli_bad("govtrace: --transition-latency-us %s: expected 0..10000000",
					optarg);
				goto out;
			}
			cfg.transition_latency_us = (int64_t)v;
			break;
		case ':':
		default:
			cli_bad_option("govtrace", opt, argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		cli_bad("govtrace: unexpected argument '%s' (see pmlab govtrace --help)",
			argv[optind]);
		goto out;
	}
	if (!cfg.governor || !freqs) {
		cli_bad("govtrace: --governor and --freqs are required (see pmlab govtrace --help)");
		goto out;
	}
	if (govtrace_parse_freqs(freqs, &table, &cfg.nfreqs, &d) < 0) {
		cli_bad("govtrace: %s", d.msg);
		goto out;
	}
	cfg.freqs = table;
	cfg.sets = sets;
	if (govtrace_check(&cfg, &d) < 0) {
		cli_bad("govtrace: %s", d.msg);
		goto out;
	}

	const char *name = strcmp(input, "-") == 0 ? "<stdin>" : input;
	size_t len;
	text = read_all(input, &len);
	if (!text) {
		cli_bad("govtrace: cannot read %s (expected a readable CSV file or -)", name);
		goto out;
	}
	if (govtrace_parse(text, len, name, &in, &d) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	cfg.no_util = !in.has_util;
	rc = run(&cfg, &in, name);
out:
	govtrace_input_free(&in);
	free(text);
	free(table);
	free(sets);
	return rc;
}
