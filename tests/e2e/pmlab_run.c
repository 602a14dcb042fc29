// SPDX-License-Identifier: GPL-2.0-only
#include "pmlab_run.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static char *slurp(FILE *f)
{
	size_t cap = 1 << 16, len = 0, n;
	char *buf = malloc(cap);
	assert_non_null(buf);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 4096) {
			buf = realloc(buf, cap *= 2);
			assert_non_null(buf);
		}
	}
	buf[len] = '\0';
	return buf;
}

struct out run(const char *args)
{
	struct out o = { 0 };
	char errpath[] = "/tmp/pmlab-e2e-XXXXXX";
	int fd = mkstemp(errpath);
	assert_true(fd >= 0);
	size_t len = strlen(PMLAB_BIN) + strlen(args) + strlen(errpath) + 32;
	char *cmd = malloc(len);
	assert_non_null(cmd);
	/* No $COLUMNS: tables at the width of output that is not a terminal's. */
	snprintf(cmd, len, "COLUMNS= %s %s 2>%s", PMLAB_BIN, args, errpath);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	o.text = slurp(p);
	int st = pclose(p);
	o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	FILE *e = fdopen(fd, "r");
	assert_non_null(e);
	o.err = slurp(e);
	fclose(e);
	unlink(errpath);
	free(cmd);
	return o;
}

char *out_header(const char *text)
{
	const char *end = strstr(text, "\n\n");
	size_t n = end ? (size_t)(end - text) : strlen(text), k = 0;
	char *h = malloc(n + 1);

	assert_non_null(h);
	for (size_t i = 0; i < n; i++) {
		if (text[i] == '\n') {
			while (i + 1 < n && text[i + 1] == ' ')
				i++;
			h[k++] = ' ';
			continue;
		}
		h[k++] = text[i];
	}
	h[k] = '\0';
	return h;
}

char *csv_data(const char *text)
{
	char *d = malloc(strlen(text) + 1), *w = d;

	assert_non_null(d);
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) + 1 : strlen(text);

		if (text[0] != '#') {
			memcpy(w, text, n);
			w += n;
		}
		text += n;
	}
	*w = '\0';
	return d;
}

void out_free(struct out *o)
{
	free(o->text);
	free(o->err);
	o->text = o->err = NULL;
}

void assert_usage_error(struct out *o, const char *needle)
{
	if (o->status != 2)
		fail_msg("exit %d, expected 2; stderr: %s", o->status, o->err);
	assert_true(strncmp(o->err, "pmlab: ", 7) == 0);
	char *nl = strchr(o->err, '\n');
	assert_non_null(nl);
	assert_true(nl[1] == '\0');
	if (needle && !strstr(o->err, needle))
		fail_msg("stderr '%s' lacks '%s'", o->err, needle);
}

void expect_output(const char *args, const char *want)
{
	struct out o = run(args);
	if (o.status != 0)
		fail_msg("pmlab %s: exit %d: %s", args, o.status, o.err);
	assert_string_equal(o.err, "");
	if (strcmp(o.text, want) != 0)
		fail_msg("pmlab %s:\n%s\nexpected:\n%s", args, o.text, want);
	out_free(&o);
}

void expect_usage_error(const char *args, const char *needle)
{
	struct out o = run(args);
	assert_usage_error(&o, needle);
	assert_string_equal(o.text, "");
	out_free(&o);
}

char *write_temp(const char *text, const char *suffix)
{
	size_t len = strlen("/tmp/pmlab-e2e-XXXXXX") + strlen(suffix) + 1;
	char *path = malloc(len);
	assert_non_null(path);
	snprintf(path, len, "/tmp/pmlab-e2e-XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}
