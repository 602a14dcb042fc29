// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for command-line option parsing (src/cli/options.c,
 * cli.c, the number parsers of src/lab/runspec.c): the input is argv, its
 * words separated by newlines. The shared options of the simulating
 * commands are parsed as pmlab sim does; each word is also given to the
 * number parsers every integer and duration option goes through. Any
 * input is taken, with values in their ranges, or refused with one line;
 * a number taken is the number written (no overflow, no wrap). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

/* The value of a decimal string, or -1 if it is not below 2^64. */
static int exact_u64(const char *s, uint64_t *v)
{
	*v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return -1;
		*v = *v * 10 + d;
	}
	return 0;
}

static void numbers(const char *w)
{
	uint64_t got, want;
	int rc = cli_parse_u64(w, &got);
	if (rc == 0)
		check(exact_u64(w, &want) == 0 && got == want, "cli_parse_u64 took what it read");
	sim_ns ns = cli_parse_seconds(w);
	check(ns == -1 || ns > 0, "cli_parse_seconds: positive or refused");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *quiet;
	if (!quiet) {
		/* Usage errors go to stderr: not libFuzzer's (it kept its own). */
		quiet = fopen("/dev/null", "w");
		check(quiet != NULL, "/dev/null");
		stderr = quiet;
	}
	char *buf = malloc(size + 1);
	check(buf != NULL, "memory");
	memcpy(buf, data, size);
	buf[size] = '\0';
	char *argv[MAX_ARGS + 2] = { "sim" };
	int argc = 1;
	for (char *s = buf, *save = NULL, *w; argc <= MAX_ARGS && (w = strtok_r(s, "\n", &save));
	     s = NULL) {
		argv[argc++] = w;
		numbers(w);
	}
	argv[argc] = NULL;
	static const struct option longopts[] = {
		CLI_OPTIONS_RUN, CLI_OPTION_WORKLOAD, CLI_OPTION_FORMAT, CLI_OPTION_JOBS,
		CLI_OPTION_PROFILE, CLI_OPTION_PROFILE_DIR, CLI_OPTION_TIMELINE, CLI_OPTION_CHECK,
		{ 0, 0, 0, 0 },
	};
	struct cli_opts o;
	check(cli_opts_init(&o, "sim", CLI_FORMAT_BIT(CLI_TABLE) | CLI_FORMAT_BIT(CLI_CSV) |
					 CLI_FORMAT_BIT(CLI_JSON), argc) == 0, "init");
	int i = cli_parse(&o, argc, argv, ":m:w:c:d:s:f:j:", longopts, NULL, NULL);
	if (i > 0 && cli_no_operands(&o, i, argc, argv) == 0) {
		check(o.jobs >= 1 && o.jobs <= 1024, "--jobs in range");
		check(o.duration > 0, "--duration positive");
		check(o.nsets < argc && o.ndirs < argc, "--set and --profile-dir counted");
		/* Built-in machines only: a path would read a file per run. */
		if (o.machine && !strchr(o.machine, '/') && !strstr(o.machine, ".ini")) {
			struct machine m;
			if (cli_load_machine(&o, &m) == 0)
				check(m.online_cpus >= 1 && m.online_cpus <= MACHINE_MAX_CPUS,
				      "--cpus within the machine");
		}
	}
	cli_opts_free(&o);
	free(buf);
	return 0;
}
