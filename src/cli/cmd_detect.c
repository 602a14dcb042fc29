// SPDX-License-Identifier: GPL-2.0-only
/* pmlab machines detect: this machine (or a tree under --root) as a
 * machine file (src/host/machine_detect.c). Reads only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/hostfs.h"
#include "../host/machine_detect.h"
#include "cli.h"
#include "options.h"

/* -o FILE, the command's own option; --root is a shared one. */
static int detect_option(void *ctx, int opt, const char *arg)
{
	if (opt != 'o')
		return 1;
	*(const char **)ctx = arg;
	return 0;
}

/* The machine file of the tree under root, written to output (NULL:
 * standard output). */
static int detect(const char *root, const char *output)
{
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

int cmd_machines_detect(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_ROOT,
		{ "output", required_argument, 0, 'o' },
		{ 0, 0, 0, 0 },
	};
	const char *output = NULL;
	struct cli_opts o;
	int i;

	if (cli_opts_init(&o, "machines detect", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":o:", opts, detect_option, &output);
	cli_opts_free(&o);
	if (i < 0)
		return EXIT_USAGE;
	if (i < argc)
		return cli_bad("machines detect: takes no argument, got '%s'", argv[i]);
	return detect(o.root, output);
}
