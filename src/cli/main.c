// SPDX-License-Identifier: GPL-2.0-only
/* pmlab: a laboratory for Linux CPU power management. */
#include <stdio.h>
#include <string.h>

#include "../core/suggest.h"
#include "../metrics/texttable.h"
#include "cli.h"

static const struct subcommand commands[] = {
	{ "sim", "simulate one run: machine x workload x policy", cmd_sim, usage_sim },
	{ "compare", "compare profiles over repeated runs, with confidence intervals", cmd_compare, usage_compare },
	{ "validate", "run the seed experiments and compare the model with their measurements", cmd_validate, usage_validate },
	{ "sweep", "one run per point of a Cartesian product of settings (CSV, JSON)", cmd_sweep, usage_sweep },
	{ "merge", "join the outputs of sharded sweeps", cmd_merge, usage_merge },
	{ "profile", "show a tuned profile as pmlab applies it, or list profiles", cmd_profile, usage_profile },
	{ "machines", "list the built-in machine models, or show one as INI", cmd_machines, usage_machines },
	{ "governors", "list frequency and idle governors with their tunables", cmd_governors, usage_governors },
	{ "workloads", "list workload models with their parameters", cmd_workloads, usage_workloads },
	{ "govtrace", "drive one frequency governor with a utilization trace (CSV)", cmd_govtrace, usage_govtrace },
	{ "idletrace", "drive one idle governor with a trace of idle periods (CSV)", cmd_idletrace, usage_idletrace },
	{ "record", "record this machine's scheduler trace (tracefs) as a trace.dat", cmd_record, usage_record },
	{ "replay", "replay a recorded trace (trace.dat, ftrace text) on a machine model", cmd_replay, usage_replay },
	{ "info", "this machine's drivers, governors, limits, C-states; what pmlab can change", cmd_info, usage_info },
	{ "monitor", "turbostat-like figures of this machine, periodic or over a command", cmd_monitor, usage_monitor },
	{ "bench", "A/B compare profiles on this machine running a command", cmd_bench, usage_bench },
	{ "govd", "run pmlab's ondemand/conservative/schedutil on this machine (userspace)", cmd_govd, usage_govd },
	{ "complete", "names for shell completion (commands, machines, governors, keys...)", cmd_complete, usage_complete },
	{ "daemon", "hold the active profile's PM QoS request (foreground; systemd unit)", cmd_daemon, usage_daemon },
};

#define NCOMMANDS ((int)(sizeof(commands) / sizeof(commands[0])))

static void usage(FILE *out)
{
	fprintf(out, "usage: pmlab [--quiet] COMMAND [OPTIONS]\n"
		     "       pmlab help [COMMAND] | pmlab --version\n\n"
		     "A laboratory for Linux CPU power management: what a frequency governor, an idle\n"
		     "governor or a scheduler policy does to throughput, latency and energy.\n\n"
		     "commands:\n");
	for (int i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n-q, --quiet leaves notes, warnings and progress unsaid (errors never);\n"
		     "--wide prints tables whole instead of cutting them to the terminal's width\n"
		     "(else 100 columns when the output is not a terminal; $COLUMNS if set).\n"
		     "'pmlab COMMAND --help' describes a command; 'man pmlab' describes them all.\n");
}

void cli_print_commands(void)
{
	for (int i = 0; i < NCOMMANDS; i++)
		printf("%s\n", commands[i].name);
	printf("help\n");
}

static const struct subcommand *find(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* pmlab -q|--quiet COMMAND ...: notes and warnings unsaid; pmlab
	 * --wide COMMAND ...: tables not cut to the terminal's width. */
	while (argc > 1 && (strcmp(argv[1], "-q") == 0 || strcmp(argv[1], "--quiet") == 0 ||
			    strcmp(argv[1], "--wide") == 0)) {
		if (strcmp(argv[1], "--wide") == 0)
			text_width_set(0);
		else
			cli_quiet = true;
		argv++;
		argc--;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("pmlab %s\n", PMLAB_VERSION);
		return EXIT_OK;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		if (argc > 2 && strcmp(cmd, "help") == 0) {
			const struct subcommand *sc = find(argv[2]);
			if (!sc)
				return cli_bad("help: unknown command '%s' (see pmlab help)", argv[2]);
			sc->usage();
			return EXIT_OK;
		}
		usage(stdout);
		return EXIT_OK;
	}
	const struct subcommand *sc = find(cmd);
	if (!sc) {
		struct suggest near;
		char mean[96];
		suggest_init(&near, cmd);
		for (int i = 0; i < NCOMMANDS; i++)
			suggest_offer(&near, commands[i].name);
		cli_bad("unknown command '%s'%s (see pmlab help)", cmd,
			suggest_text(&near, mean, sizeof(mean)));
		return EXIT_USAGE;
	}
	if (cli_wants_help(argc - 1, argv + 1)) {
		sc->usage();
		return EXIT_OK;
	}
	return sc->run(argc - 1, argv + 1);
}
