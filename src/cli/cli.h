// SPDX-License-Identifier: GPL-2.0-only
/* Shared helpers of the pmlab subcommands. Exit codes: 0 ok, 1 runtime
 * failure, 2 bad usage or bad input. */
#ifndef PMLAB_CLI_H
#define PMLAB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/simtime.h"

#define EXIT_OK 0
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

struct subcommand {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(void);
};

/* --quiet (before the command, or the command's own): notes, warnings
 * and progress on standard error stay unsaid; errors never do. */
extern bool cli_quiet;
/* "pmlab: MSG" on stderr, unless --quiet. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "pmlab: MSG" on stderr and returns EXIT_USAGE. */
int cli_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* getopt_long's complaint (opt is ':' for a missing value, anything else
 * for an unknown option `arg`) as the one-line usage error of `cmd`. */
int cli_bad_option(const char *cmd, int opt, const char *arg);
/* Seconds as a decimal ("10", "0.5") to ns; -1 if malformed or not positive. */
sim_ns cli_parse_seconds(const char *s);
int cli_parse_u64(const char *s, uint64_t *out);
/* Reads all of path ("-": standard input, named "<stdin>" in *name) into a
 * malloc'd buffer, at most 1 GiB. -1 after "CMD: cannot read PATH: why". */
int cli_read_input(const char *cmd, const char *path, char **text, size_t *len,
		   const char **name);
/* True if argv has -h or --help before any "--". */
bool cli_wants_help(int argc, char **argv);

int cmd_sim(int argc, char **argv);
void usage_sim(void);
int cmd_machines(int argc, char **argv);
int cmd_machines_detect(int argc, char **argv); /* cmd_detect.c */
void usage_machines(void);
int cmd_governors(int argc, char **argv);
void usage_governors(void);
int cmd_workloads(int argc, char **argv);
void usage_workloads(void);
int cmd_govtrace(int argc, char **argv);
void usage_govtrace(void);
int cmd_idletrace(int argc, char **argv);
void usage_idletrace(void);
int cmd_record(int argc, char **argv);
void usage_record(void);
int cmd_replay(int argc, char **argv);
void usage_replay(void);
int cmd_profile(int argc, char **argv);
void usage_profile(void);
int cmd_compare(int argc, char **argv);
void usage_compare(void);
int cmd_sweep(int argc, char **argv);
void usage_sweep(void);
int cmd_merge(int argc, char **argv);
void usage_merge(void);
int cmd_monitor(int argc, char **argv);
void usage_monitor(void);
int cmd_bench(int argc, char **argv);
void usage_bench(void);
int cmd_govd(int argc, char **argv);
void usage_govd(void);
int cmd_daemon(int argc, char **argv);
void usage_daemon(void);
int cmd_complete(int argc, char **argv);
void usage_complete(void);
/* The command names, one a line (pmlab complete commands). */
void cli_print_commands(void);
int cmd_info(int argc, char **argv);
void usage_info(void);
int cmd_validate(int argc, char **argv);
void usage_validate(void);
/* pmlab profile apply|off|verify|active (argv[0] is the subcommand). */
int cmd_profile_host(const char *sub, int argc, char **argv);
void usage_profile_host(void);

#endif
