// SPDX-License-Identifier: GPL-2.0-only
#include "host_trees.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *copy_tree(const char *name)
{
	char *dir = strdup("/tmp/pmlab-host-XXXXXX");
	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(sh("cp -a '%s%s/.' '%s/'", HOST_FIXTURES, name, dir), 0);
	return dir;
}

void drop_tree(char *dir)
{
	sh("rm -rf '%s'", dir);
	free(dir);
}

void tree_put(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(sh("mkdir -p \"$(dirname '%s')\"", path), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

char *tree_get(const char *dir, const char *rel)
{
	static char buf[4096];
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}
