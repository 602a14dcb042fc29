// SPDX-License-Identifier: GPL-2.0-only
/* pmlab machines detect: this machine (or a tree under --root) as a
 * machine file (src/host/machine_detect.c). Reads only. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/hostfs.h"
#include "../host/machine_detect.h"
#include "cli.h"

int cmd_machines_detect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, 0, 'r' },
		{ "output", required_argument, 0, 'o' },
		{ 0, 0, 0, 0 },
	};
	const char *root = NULL, *output = NULL;
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (opt == 'r')
			root = optarg;
		else if (opt == 'o')
			output = optarg;
		else
			return cli_bad_option("machines detect", opt, argv[optind - 1]);
	}
	if (optind < argc)
		return cli_bad("machines detect: takes no argument, got '%s'", argv[optind]);
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	if (hostfs_open(&fs, root, &d) < 0)
		return cli_bad("machines detect: %s", d.msg);
	char *ini = machine_detect_ini(&fs, &d);
	hostfs_close(&fs);
	if (!ini)
		return cli_bad("machines detect: %s", d.msg);
	/* What the model could not hold is in the file; say it here too. */
	for (const char *w = strstr(ini, "# warning: "); w; w = strstr(w + 1, "# warning: ")) {
		const char *eol = strchr(w, '\n');
		fprintf(stderr, "pmlab: machines detect: warning: %.*s\n",
			(int)((eol ? eol : w + strlen(w)) - w - 11), w + 11);
	}
	FILE *out = output ? fopen(output, "w") : stdout;
	if (!out) {
		free(ini);
		return cli_bad("machines detect: %s: cannot write", output);
	}
	int bad = fputs(ini, out) == EOF;
	bad |= output ? fclose(out) != 0 : fflush(out) != 0;
	free(ini);
	if (bad)
		return cli_bad("machines detect: %s: cannot write", output ? output : "standard output");
	return EXIT_OK;
}
