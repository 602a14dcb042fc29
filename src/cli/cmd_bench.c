// SPDX-License-Identifier: GPL-2.0-only
/* pmlab bench: A/B comparison of profiles on this machine. The work is in
 * src/host/abbench.c; this is options and output. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/abbench.h"
#include "cli.h"

#define MAX_PROFILES 16
#define MAX_DIRS 16

void usage_bench(void)
{
	printf("usage: pmlab bench --profiles A,B[,...] [--runs N] [--baseline A]\n"
	       "                   [--format table|csv] [--profile-dir DIR] [--root DIR]\n"
	       "                   -- COMMAND [ARG...]\n\n"
	       "Compare tuned profiles on this machine: each of N rounds runs COMMAND once\n"
	       "under every profile, in an order that rotates from round to round; each run\n"
	       "applies its profile (holding its PM QoS request), measures wall time, RAPL\n"
	       "package energy and power, Busy%% and Bzy_MHz, and the next apply restores it.\n"
	       "The table gives each figure's mean with its 95 %% confidence interval and the\n"
	       "ratio to the baseline, marked ~ where Welch's t-test finds no difference at\n"
	       "5 %%. The machine is restored at the end, on failure and on Ctrl-C; a profile\n"
	       "active before is applied again. Exit 1 if COMMAND fails.\n\n"
	       "options:\n"
	       "  -p, --profiles LIST    profiles to compare, comma-separated (at least two)\n"
	       "  -n, --runs N           rounds (default 5)\n"
	       "  -b, --baseline NAME    the profile ratios refer to (default the first)\n"
	       "  -f, --format F         table (default) or csv (every run)\n"
	       "      --profile-dir DIR  look for profiles in DIR first; repeatable\n"
	       "      --root DIR         the system root (default $PMLAB_ROOT, else /)\n");
}

int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "profiles", required_argument, 0, 'p' },
		{ "runs", required_argument, 0, 'n' },
		{ "baseline", required_argument, 0, 'b' },
		{ "format", required_argument, 0, 'f' },
		{ "profile-dir", required_argument, 0, 'D' },
		{ "root", required_argument, 0, 'r' },
		{ 0, 0, 0, 0 },
	};
	const char *profiles[MAX_PROFILES], *dirs[MAX_DIRS], *root = NULL, *baseline = NULL;
	char *list = NULL;
	struct hbench_config c = { .runs = 5, .log = stderr };
	bool csv = false;
	uint64_t v;
	int opt, rc = EXIT_USAGE;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:p:n:b:f:", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			free(list);
			list = strdup(optarg);
			if (!list)
				return cli_bad("out of memory");
			break;
		case 'n':
			if (cli_parse_u64(optarg, &v) < 0 || v < 1 || v > 10000) {
				cli_bad("bench: --runs %s: expected 1..10000", optarg);
				goto out;
			}
			c.runs = (int)v;
			break;
		case 'b': baseline = optarg; break;
		case 'f':
			if (strcmp(optarg, "table") != 0 && strcmp(optarg, "csv") != 0) {
				cli_bad("bench: --format %s: expected table or csv", optarg);
				goto out;
			}
			csv = strcmp(optarg, "csv") == 0;
			break;
		case 'D':
			if (c.ndirs == MAX_DIRS) {
				cli_bad("bench: more than %d --profile-dir", MAX_DIRS);
				goto out;
			}
			dirs[c.ndirs++] = optarg;
			break;
		case 'r': root = optarg; break;
		case ':':
		default:
			cli_bad_option("bench", opt, argv[optind - 1]);
			goto out;
		}
	}
	if (!list) {
		cli_bad("bench: --profiles A,B is required (see pmlab bench --help)");
		goto out;
	}
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (c.nprofiles == MAX_PROFILES) {
			cli_bad("bench: more than %d profiles", MAX_PROFILES);
			goto out;
		}
		for (int i = 0; i < c.nprofiles; i++)
			if (strcmp(profiles[i], t) == 0) {
				cli_bad("bench: profile %s given twice", t);
				goto out;
			}
		profiles[c.nprofiles++] = t;
	}
	if (c.nprofiles < 2) {
		cli_bad("bench: --profiles needs at least two profiles, comma-separated");
		goto out;
	}
	for (int i = 0; baseline && i < c.nprofiles; i++)
		if (strcmp(profiles[i], baseline) == 0)
			c.baseline = i + 1;
	if (baseline && !c.baseline) {
		cli_bad("bench: --baseline %s is not one of --profiles", baseline);
		goto out;
	}
	c.baseline = baseline ? c.baseline - 1 : 0;
	if (optind >= argc) {
		cli_bad("bench: no command (expected -- COMMAND [ARG...])");
		goto out;
	}
	c.profiles = profiles;
	c.dirs = dirs;
	c.argv = argv + optind;
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	if (hostfs_open(&fs, root, &d) < 0) {
		cli_bad("bench: %s", d.msg);
		goto out;
	}
	struct hbench b;
	int r = hbench_run(&fs, &c, &b, &d);
	if (r == 0)
		hostfs_print_refused(&fs, stderr);
	hostfs_close(&fs);
	if (r == -2) {
		cli_bad("%s", d.msg);
	} else if (r < 0) {
		fprintf(stderr, "pmlab: bench: %s\n", d.msg);
		rc = EXIT_RUNTIME;
	} else if (hbench_write(stdout, &c, &b, csv) < 0) {
		fprintf(stderr, "pmlab: bench: cannot write to standard output\n");
		rc = EXIT_RUNTIME;
	} else {
		rc = EXIT_OK;
	}
	hbench_free(&b);
out:
	free(list);
	return rc;
}
