// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/readall.h"
#include "../lab/runspec.h"

bool cli_quiet;

void cli_note(const char *fmt, ...)
{
	va_list ap;
	if (cli_quiet)
		return;
	fputs("pmlab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_bad(const char *fmt, ...)
{
	va_list ap;
	fputs("pmlab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int cli_bad_option(const char *cmd, int opt, const char *arg)
{
	if (opt == ':')
		return cli_bad("%s: %s needs a value (see pmlab %s --help)", cmd, arg, cmd);
	return cli_bad("%s: unknown option '%s' (see pmlab %s --help)", cmd, arg, cmd);
}

sim_ns cli_parse_seconds(const char *s)
{
	return runspec_parse_seconds(s);
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	return runspec_parse_u64(s, out);
}

int cli_read_input(const char *cmd, const char *path, char **text, size_t *len,
		   const char **name)
{
	bool in = strcmp(path, "-") == 0;
	FILE *f = in ? stdin : fopen(path, "rb");
	const char *why;

	*name = in ? "<stdin>" : path;
	if (!f)
		return cli_bad("%s: cannot read %s: %s", cmd, *name, strerror(errno)), -1;
	why = read_whole(f, text, len);
	if (!in)
		fclose(f);
	if (why)
		return cli_bad("%s: cannot read %s: %s", cmd, *name, why), -1;
	return 0;
}

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	}
	return false;
}
