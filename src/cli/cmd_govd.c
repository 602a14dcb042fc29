// SPDX-License-Identifier: GPL-2.0-only
/* pmlab govd: pmlab's ondemand, conservative or schedutil driving this
 * machine through the kernel's userspace governor. The work is in
 * src/host/govd.c; this is options and output. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/govd.h"
#include "../lab/runspec.h"
#include "cli.h"

void usage_govd(void)
{
	printf("usage: pmlab govd --governor ondemand|conservative|schedutil [--set TUNABLE=VALUE]\n"
	       "                  [--interval-ms N] [--hz N] [--duration S] [--quiet] [--root DIR]\n\n"
	       "Select the kernel's userspace governor on every cpufreq policy and run pmlab's\n"
	       "own governor code -- the same ondemand, conservative and schedutil the simulator\n"
	       "runs -- on /proc/stat samples: every interval each CPU's scheduler hook is\n"
	       "emulated, the governor samples at its own rate and its frequency requests are\n"
	       "written to scaling_setspeed. Prints t_s,policy,khz for each request. On exit\n"
	       "(SIGINT, SIGTERM, --duration) the previous governor is restored; a govd killed\n"
	       "outright is restored by the next one. Needs a cpufreq driver with the userspace\n"
	       "governor (acpi-cpufreq, intel_cpufreq with intel_pstate=passive): exit 1 without.\n\n"
	       "options:\n"
	       "  -g, --governor G      ondemand, conservative or schedutil\n"
	       "      --set TUNABLE=V   a tunable of the governor (pmlab governors); repeatable\n"
	       "      --interval-ms N   ms between hook emulations (default 10)\n"
	       "      --hz N            the kernel's HZ for the governors' 2-tick floor: 100, 250\n"
	       "                        (default), 300, 1000\n"
	       "      --duration S      stop after S seconds (default: at a signal)\n"
	       "  -q, --quiet           do not print the frequency requests\n"
	       "      --root DIR        the system root (default $PMLAB_ROOT, else /)\n");
}

int cmd_govd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "governor", required_argument, 0, 'g' },
		{ "set", required_argument, 0, 'S' },
		{ "interval-ms", required_argument, 0, 'I' },
		{ "hz", required_argument, 0, 'H' },
		{ "duration", required_argument, 0, 'D' },
		{ "quiet", no_argument, 0, 'q' },
		{ "root", required_argument, 0, 'r' },
		{ 0, 0, 0, 0 },
	};
	struct govd_config c = { .interval_ms = 10, .hz = 250, .log = stdout };
	const char *root = NULL;
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	uint64_t v;
	int opt, rc = EXIT_USAGE;
	if (!sets)
		return cli_bad("out of memory");
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":g:q", opts, NULL)) != -1) {
		switch (opt) {
		case 'g': c.governor = optarg; break;
		case 'S': sets[c.nsets++] = optarg; break;
		case 'I':
			if (cli_parse_u64(optarg, &v) < 0 || v < 1 || v > 60000) {
				cli_bad("govd: --interval-ms %s: expected 1..60000", optarg);
				goto out;
			}
			c.interval_ms = (int)v;
			break;
		case 'H':
			if (cli_parse_u64(optarg, &v) < 0 || v > 100000) {
				cli_bad("govd: --hz %s: expected 100, 250, 300 or 1000", optarg);
				goto out;
			}
			c.hz = (int)v;
			break;
		case 'D': {
			sim_ns ns = cli_parse_seconds(optarg);
			if (ns < 0) {
				cli_bad("govd: --duration %s: expected seconds", optarg);
				goto out;
			}
			c.duration_s = (double)runspec_duration_cap(ns) / 1e9;
			break;
		}
		case 'q': cli_quiet = true; break;
		case 'r': root = optarg; break;
		case ':':
		default:
			cli_bad_option("govd", opt, argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		cli_bad("govd: unexpected argument '%s' (see pmlab govd --help)", argv[optind]);
		goto out;
	}
	if (!c.governor) {
		cli_bad("govd: --governor is required (ondemand, conservative or schedutil)");
		goto out;
	}
	c.sets = sets;
	if (cli_quiet) /* --quiet here or before the command */
		c.log = NULL;
	struct pm_diag d = { { 0 } };
	if (govd_check(&c, &d) < 0) {
		cli_bad("govd: %s", d.msg);
		goto out;
	}
	struct hostfs fs;
	if (hostfs_open(&fs, root, &d) < 0) {
		cli_bad("govd: %s", d.msg);
		goto out;
	}
	int r = govd_run(&fs, &c, &d);
	if (r == 0)
		hostfs_print_refused(&fs, stderr);
	hostfs_close(&fs);
	if (r == -2) {
		cli_bad("govd: %s", d.msg);
		goto out;
	}
	if (r < 0) {
		fprintf(stderr, "pmlab: govd: %s\n", d.msg);
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
out:
	free(sets);
	return rc;
}
