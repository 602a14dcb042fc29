// SPDX-License-Identifier: GPL-2.0-only
/* pmlab daemon: holds the active profile's PM QoS request in the
 * foreground (systemd: data/systemd/pmlab.service.in). The work is in
 * src/host/daemon.c. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../host/daemon.h"
#include "cli.h"
#include "options.h"

void usage_daemon(void)
{
	printf("usage: pmlab daemon [--profile NAME] [--profile-dir DIR] [--root DIR]\n\n"
	       "Run in the foreground as the holder of the active profile's PM QoS request\n"
	       "(force_latency: /dev/cpu_dma_latency counts only while a process keeps it\n"
	       "open). At start it re-applies the active profile, or applies --profile when\n"
	       "none is active; pmlab profile apply and off tell it (SIGHUP) to take up the new\n"
	       "request or drop it. SIGINT or SIGTERM end it: the request goes, the profile's\n"
	       "other settings stay (pmlab profile off restores them). One daemon per root;\n"
	       "make install installs its systemd unit, pmlab.service.\n\n"
	       "options:\n"
	       "      --profile NAME     apply NAME at start when no profile is active\n"
	       "      --profile-dir DIR  look for profiles in DIR first; repeatable\n"
	       "      --root DIR         the system root (default $PMLAB_ROOT, else /)\n");
}

/* Runs the daemon on root until a signal. Exit code. */
static int daemon_run(const char *root, struct daemon_config *c)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	if (hostfs_open(&fs, root, &d) < 0)
		return cli_bad("daemon: %s", d.msg);
	int rc = host_daemon_run(&fs, c, &d);
	if (rc == 0)
		hostfs_print_refused(&fs, stderr);
	hostfs_close(&fs);
	if (rc == -2)
		return cli_bad("daemon: %s", d.msg);
	if (rc < 0) {
		fprintf(stderr, "pmlab: daemon: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_daemon(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_PROFILE, CLI_OPTION_PROFILE_DIR, CLI_OPTION_ROOT, { 0, 0, 0, 0 },
	};
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (cli_opts_init(&o, "daemon", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":", opts, NULL, NULL);
	if (i >= 0 && cli_no_operands(&o, i, argc, argv) == 0) {
		struct daemon_config c = { .log = stdout, .profile = o.profile, .dirs = o.dirs,
					   .ndirs = o.ndirs };
		rc = daemon_run(o.root, &c);
	}
	cli_opts_free(&o);
	return rc;
}
