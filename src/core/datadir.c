// SPDX-License-Identifier: GPL-2.0-only
#include "datadir.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The running binary's directory, "" if unknown. */
static void exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		buf[0] = '\0';
}

static int visit(const char *dir, int (*fn)(void *ctx, const char *dir), void *ctx)
{
	return is_dir(dir) ? fn(ctx, dir) : 0;
}

int datadir_each(const char *sub, int (*fn)(void *ctx, const char *dir), void *ctx)
{
	char exe[PATH_MAX], buf[PATH_MAX + 64], up[PATH_MAX + 16];
	int rc;

	snprintf(buf, sizeof(buf), "data/%s", sub);
	if ((rc = visit(buf, fn, ctx)) != 0)
		return rc;
	exe_dir(exe, sizeof(exe));
	if (!exe[0])
		return 0;
	snprintf(buf, sizeof(buf), "%s/../share/pmlab/%s", exe, sub);
	if ((rc = visit(buf, fn, ctx)) != 0)
		return rc;
	/* A build directory inside the source tree (build/src/cli/pmlab). */
	snprintf(up, sizeof(up), "%s", exe);
	for (int i = 0; i < 4; i++) {
		if (strlen(up) + 4 >= sizeof(up))
			break;
		strcat(up, "/..");
		snprintf(buf, sizeof(buf), "%s/src/core/datadir.h", up);
		if (is_file(buf)) {
			snprintf(buf, sizeof(buf), "%s/data/%s", up, sub);
			return visit(buf, fn, ctx);
		}
	}
	return 0;
}

struct first {
	char *buf;
	size_t size;
};

static int take(void *ctx, const char *dir)
{
	struct first *f = ctx;
	snprintf(f->buf, f->size, "%s", dir);
	return 1;
}

int datadir_find(const char *sub, char *buf, size_t size)
{
	struct first f = { buf, size };
	return datadir_each(sub, take, &f) == 1 ? 0 : -1;
}
