// SPDX-License-Identifier: GPL-2.0-only
/* What every end-to-end test needs: run the pmlab binary like a user,
 * capture stdout, stderr and the exit code, and check the project's rules
 * for output and errors. */
#ifndef PMLAB_E2E_RUN_H
#define PMLAB_E2E_RUN_H

struct out {
	char *text;   /* stdout */
	char *err;    /* stderr */
	int status;   /* exit code; 128 if killed */
};

/* Runs `pmlab ARGS` through the shell (ARGS may redirect stdin). */
struct out run(const char *args);
void out_free(struct out *o);
/* The header a command wraps to the width: its lines up to the first
 * blank one, joined by single spaces. The caller frees it. */
char *out_header(const char *text);
/* A CSV without its "# " lines (the inputs): the caller frees it. */
char *csv_data(const char *text);
/* A bad-input error: exit 2, stderr one line "pmlab: ..." holding
 * `needle` (if not NULL). */
void assert_usage_error(struct out *o, const char *needle);
/* run(args) must succeed with exactly `want` on stdout and nothing on stderr. */
void expect_output(const char *args, const char *want);
/* run(args) must fail as bad input (assert_usage_error) with no stdout. */
void expect_usage_error(const char *args, const char *needle);
/* Writes `text` to a new temporary file ending in `suffix`; the caller
 * unlinks and frees the returned path. */
char *write_temp(const char *text, const char *suffix);

#endif
