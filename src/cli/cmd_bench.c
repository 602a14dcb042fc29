// SPDX-License-Identifier: GPL-2.0-only
/* pmlab bench: A/B comparison of profiles on this machine. The work is in
 * src/host/abbench.c; this is options and output. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/abbench.h"
#include "../host/runcmd.h"
#include "../metrics/inputs.h"
#include "cli.h"
#include "options.h"

#define MAX_PROFILES 16

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
	       "active before is applied again. Exit 1 if COMMAND fails. The output starts\n"
	       "with its inputs and the command that repeats it (a paragraph, CSV '#' lines).\n\n"
	       "options:\n"
	       "  -p, --profiles LIST    profiles to compare, comma-separated (at least two)\n"
	       "  -n, --runs N           rounds (default 5)\n"
	       "  -b, --baseline NAME    the profile ratios refer to (default the first)\n"
	       "  -f, --format F         table (default) or csv (every run)\n"
	       "      --profile-dir DIR  look for profiles in DIR first; repeatable\n"
	       "      --root DIR         the system root (default $PMLAB_ROOT, else /)\n");
}

struct own {
	char *list;
	const char *root, *baseline;
	struct hbench_config c;
	struct run_inputs in; /* what the output records */
	const char *extra[2];
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;
	uint64_t v;

	switch (opt) {
	case 'p':
		free(w->list);
		w->list = strdup(arg);
		return w->list ? 0 : (cli_bad("out of memory"), -1);
	case 'n':
		if (cli_parse_count("bench", "--runs", arg, 1, 10000, &v) < 0)
			return -1;
		w->c.runs = (int)v;
		return 0;
	case 'b': w->baseline = arg; return 0;
	default: return 1;
	}
}

/* --profiles (split in place) and --baseline into w->c. -1 after the
 * message. */
static int take_profiles(struct own *w, const char **profiles)
{
	struct hbench_config *c = &w->c;

	if (!w->list)
		return cli_bad("bench: --profiles A,B is required (see pmlab bench --help)"), -1;
	for (char *save = NULL, *t = strtok_r(w->list, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (c->nprofiles == MAX_PROFILES)
			return cli_bad("bench: more than %d profiles", MAX_PROFILES), -1;
		for (int i = 0; i < c->nprofiles; i++)
			if (strcmp(profiles[i], t) == 0)
				return cli_bad("bench: profile %s given twice", t), -1;
		profiles[c->nprofiles++] = t;
	}
	if (c->nprofiles < 2)
		return cli_bad("bench: --profiles needs at least two profiles, comma-separated"), -1;
	c->profiles = profiles;
	c->baseline = -1;
	for (int i = 0; w->baseline && i < c->nprofiles; i++)
		if (strcmp(profiles[i], w->baseline) == 0)
			c->baseline = i;
	if (w->baseline && c->baseline < 0)
		return cli_bad("bench: --baseline %s is not one of --profiles", w->baseline), -1;
	if (c->baseline < 0)
		c->baseline = 0;
	return 0;
}

/* Runs the comparison on this machine and prints it. Exit code. */
static int bench(struct own *w, bool csv)
{
	struct pm_diag d = { { 0 } };
	struct hostfs fs;
	struct hbench b;
	int r, rc = EXIT_OK;

	/* A command that cannot be run: said before any profile is applied. */
	if (host_command_runnable(w->c.argv[0], &d) < 0 || hostfs_open(&fs, w->root, &d) < 0)
		return cli_bad("bench: %s", d.msg);
	r = hbench_run(&fs, &w->c, &b, &d);
	if (r == 0)
		hostfs_print_refused(&fs, stderr);
	hostfs_close(&fs);
	if (r == -2) {
		rc = cli_bad("%s", d.msg);
	} else if (r < 0) {
		fprintf(stderr, "pmlab: bench: %s\n", d.msg);
		rc = EXIT_RUNTIME;
	} else {
		/* the inputs first: "#" lines before the CSV, a paragraph above the table */
		if (csv) {
			inputs_write_csv(stdout, &w->in);
		} else {
			inputs_write_table(stdout, &w->in);
			fputc('\n', stdout);
		}
		if (hbench_write(stdout, &w->c, &b, csv) < 0) {
			fprintf(stderr, "pmlab: bench: cannot write to standard output\n");
			rc = EXIT_RUNTIME;
		}
	}
	hbench_free(&b);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_FORMAT, CLI_OPTION_PROFILE_DIR,
		{ "profiles", required_argument, 0, 'p' },
		{ "runs", required_argument, 0, 'n' },
		{ "baseline", required_argument, 0, 'b' },
		CLI_OPTION_ROOT,
		{ 0, 0, 0, 0 },
	};
	struct own w = { .c = { .runs = 5, .log = stderr } };
	const char *profiles[MAX_PROFILES];
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "bench", CLI_FORMAT_BIT(CLI_TABLE) | CLI_FORMAT_BIT(CLI_CSV), argc) < 0)
		return cli_bad("out of memory");
	/* "+": options end at the command, whose own options are its own. */
	i = cli_parse(&o, argc, argv, "+:p:n:b:f:", opts, own_option, &w);
	if (i < 0 || take_profiles(&w, profiles) < 0)
		goto out;
	if (i >= argc) {
		cli_bad("bench: no command (expected -- COMMAND [ARG...])");
		goto out;
	}
	w.root = o.root;
	w.c.dirs = o.dirs;
	w.c.ndirs = o.ndirs;
	w.c.argv = argv + i;
	w.in = (struct run_inputs){
		.command = "bench", .version = PMLAB_VERSION, .host = true, .root = cli_host_root(&o),
		.profiles = w.c.profiles, .nprofiles = w.c.nprofiles, .runs = w.c.runs,
		.dirs = o.dirs, .ndirs = o.ndirs, .argv = w.c.argv, .extra = w.extra,
	};
	if (w.baseline) {
		w.extra[0] = "--baseline";
		w.extra[1] = w.baseline;
		w.in.nextra = 2;
	}
	rc = bench(&w, o.format == CLI_CSV);
out:
	free(w.list);
	cli_opts_free(&o);
	return rc;
}
