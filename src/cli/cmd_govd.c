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
#include "options.h"

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

struct own {
	struct govd_config c;
	const char *root;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct own *w = ctx;
	uint64_t v;

	switch (opt) {
	case 'g': w->c.governor = arg; return 0;
	case 'q': cli_quiet = true; return 0;
	case 'r': w->root = arg; return 0;
	case 'I':
		if (cli_parse_u64(arg, &v) < 0 || v < 1 || v > 60000)
			return cli_bad("govd: --interval-ms %s: expected 1..60000", arg), -1;
		w->c.interval_ms = (int)v;
		return 0;
	case 'H':
		if (cli_parse_u64(arg, &v) < 0 || v > 100000)
			return cli_bad("govd: --hz %s: expected 100, 250, 300 or 1000", arg), -1;
		w->c.hz = (int)v;
		return 0;
	default:
		return 1;
	}
}

/* Runs the governor on this machine until the duration or a signal. Exit
 * code. */
static int govd(struct own *w)
{
	struct pm_diag d = { { 0 } };
	struct hostfs fs;
	int r;

	if (govd_check(&w->c, &d) < 0 || hostfs_open(&fs, w->root, &d) < 0)
		return cli_bad("govd: %s", d.msg);
	r = govd_run(&fs, &w->c, &d);
	if (r == 0)
		hostfs_print_refused(&fs, stderr);
	hostfs_close(&fs);
	if (r == -2)
		return cli_bad("govd: %s", d.msg);
	if (r < 0) {
		fprintf(stderr, "pmlab: govd: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

int cmd_govd(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_SET, CLI_OPTION_DURATION,
		{ "governor", required_argument, 0, 'g' },
		{ "interval-ms", required_argument, 0, 'I' },
		{ "hz", required_argument, 0, 'H' },
		{ "quiet", no_argument, 0, 'q' },
		{ "root", required_argument, 0, 'r' },
		{ 0, 0, 0, 0 },
	};
	struct own w = { .c = { .interval_ms = 10, .hz = 250, .log = stdout } };
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "govd", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":g:q", opts, own_option, &w);
	if (i < 0 || cli_no_operands(&o, i, argc, argv) < 0)
		goto out;
	if (!w.c.governor) {
		cli_bad("govd: --governor is required (ondemand, conservative or schedutil)");
		goto out;
	}
	w.c.sets = o.sets;
	w.c.nsets = o.nsets;
	if (cli_quiet) /* --quiet here or before the command */
		w.c.log = NULL;
	/* 0: until a signal. */
	w.c.duration_s = o.duration_arg ? (double)runspec_duration_cap(o.duration) / 1e9 : 0;
	rc = govd(&w);
out:
	cli_opts_free(&o);
	return rc;
}
