// SPDX-License-Identifier: GPL-2.0-only
/* pmlab daemon: holds the active profile's PM QoS request in the
 * foreground (systemd: data/systemd/pmlab.service.in). The work is in
 * src/host/daemon.c. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../host/daemon.h"
#include "cli.h"

#define MAX_DIRS 16

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

int cmd_daemon(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "profile", required_argument, 0, 'p' },
		{ "profile-dir", required_argument, 0, 'D' },
		{ "root", required_argument, 0, 'r' },
		{ 0, 0, 0, 0 },
	};
	struct daemon_config c = { .log = stdout };
	const char *root = NULL, *dirs[MAX_DIRS];
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (opt) {
		case 'p': c.profile = optarg; break;
		case 'D':
			if (c.ndirs == MAX_DIRS)
				return cli_bad("daemon: more than %d --profile-dir", MAX_DIRS);
			dirs[c.ndirs++] = optarg;
			break;
		case 'r': root = optarg; break;
		case ':':
		default:
			return cli_bad_option("daemon", opt, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_bad("daemon: unexpected argument '%s' (see pmlab daemon --help)",
			       argv[optind]);
	c.dirs = dirs;
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	if (hostfs_open(&fs, root, &d) < 0)
		return cli_bad("daemon: %s", d.msg);
	int rc = host_daemon_run(&fs, &c, &d);
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
