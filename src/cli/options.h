// SPDX-License-Identifier: GPL-2.0-only
/* The options the simulating commands share (--machine, --cpus,
 * --workload, --cpufreq, --cpuidle, --set, --profile, --profile-dir,
 * --duration, --seed, --format, --jobs, --timeline, --check) and the host
 * commands (--root, --quiet, --profile-dir, --format), parsed once here
 * with one wording for every error. */
#ifndef PMLAB_CLI_OPTIONS_H
#define PMLAB_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/simtime.h"
#include "../machine/machine.h"

enum cli_format { CLI_TABLE, CLI_CSV, CLI_JSON, CLI_HTML };
#define CLI_FORMAT_BIT(f) (1u << (f))

/* Long-only options' getopt codes. */
enum {
	CLI_OPT_CPUFREQ = 0x100,
	CLI_OPT_CPUIDLE,
	CLI_OPT_SET,
	CLI_OPT_PROFILE,
	CLI_OPT_PROFILE_DIR,
	CLI_OPT_TIMELINE,
	CLI_OPT_TRACE,
	CLI_OPT_WINDOW,
	CLI_OPT_TRACE_CPUS,
	CLI_OPT_CHECK,
	CLI_OPT_PLUGIN,
	CLI_OPT_WIDE,
	CLI_OPT_FIRST_OWN, /* the first code free for a command's own options */
};

#define CLI_OPTION_MACHINE { "machine", required_argument, 0, 'm' }
#define CLI_OPTION_WORKLOAD { "workload", required_argument, 0, 'w' }
#define CLI_OPTION_CPUS { "cpus", required_argument, 0, 'c' }
#define CLI_OPTION_DURATION { "duration", required_argument, 0, 'd' }
#define CLI_OPTION_SEED { "seed", required_argument, 0, 's' }
#define CLI_OPTION_FORMAT { "format", required_argument, 0, 'f' }
#define CLI_OPTION_JOBS { "jobs", required_argument, 0, 'j' }
#define CLI_OPTION_CPUFREQ { "cpufreq", required_argument, 0, CLI_OPT_CPUFREQ }
#define CLI_OPTION_CPUIDLE { "cpuidle", required_argument, 0, CLI_OPT_CPUIDLE }
#define CLI_OPTION_SET { "set", required_argument, 0, CLI_OPT_SET }
#define CLI_OPTION_PROFILE { "profile", required_argument, 0, CLI_OPT_PROFILE }
#define CLI_OPTION_PROFILE_DIR { "profile-dir", required_argument, 0, CLI_OPT_PROFILE_DIR }
#define CLI_OPTION_TIMELINE { "timeline", required_argument, 0, CLI_OPT_TIMELINE }
#define CLI_OPTION_CHECK { "check", no_argument, 0, CLI_OPT_CHECK }
#define CLI_OPTION_QUIET { "quiet", no_argument, 0, 'q' }
/* The host commands' system root (default $PMLAB_ROOT, else /). */
#define CLI_OPTION_ROOT { "root", required_argument, 0, 'r' }
/* A plugin's shared object (include/pmlab/plugin.h); repeatable. */
#define CLI_OPTION_PLUGIN { "plugin", required_argument, 0, CLI_OPT_PLUGIN }
/* What one run writes as it goes: --timeline, --trace, and the part of
 * the run they keep, --window and --trace-cpus. */
#define CLI_OPTIONS_EXPORT CLI_OPTION_TIMELINE,                              \
	{ "trace", required_argument, 0, CLI_OPT_TRACE },                  \
	{ "window", required_argument, 0, CLI_OPT_WINDOW },                \
	{ "trace-cpus", required_argument, 0, CLI_OPT_TRACE_CPUS }
/* The options every simulating command takes. */
#define CLI_OPTIONS_RUN CLI_OPTION_MACHINE, CLI_OPTION_CPUS, CLI_OPTION_DURATION, \
	CLI_OPTION_SEED, CLI_OPTION_CPUFREQ, CLI_OPTION_CPUIDLE, CLI_OPTION_SET, \
	CLI_OPTION_QUIET, CLI_OPTION_WIDE
/* Tables as wide as their columns, not cut to the terminal's width. */
#define CLI_OPTION_WIDE { "wide", no_argument, 0, CLI_OPT_WIDE }

struct cli_opts {
	const char *cmd; /* "sim": the first word of every message */
	unsigned formats; /* CLI_FORMAT_BIT()s --format accepts; 0: none */
	const char *machine, *cpus, *workload, *cpufreq, *cpuidle, *profile, *timeline;
	const char *trace, *window, *trace_cpus; /* CLI_OPTIONS_EXPORT */
	const char *root;                    /* --root; NULL: hostfs's default */
	const char *duration_arg, *seed_arg; /* as given; NULL when not */
	sim_ns duration;                     /* parsed, else the default */
	uint64_t seed;
	enum cli_format format;              /* the first allowed, unless given */
	int jobs;                            /* default: processors online */
	bool check;
	int nsets, ndirs, nplugins;
	const char **sets, **dirs, **plugins; /* as given, in order */
};

/* A command's own options: 0 taken, -1 bad (the message printed), 1 not
 * the command's own (the shared parser takes it: a command may note a
 * shared option, e.g. which subcommand it belongs to, and return 1). */
typedef int (*cli_own_option)(void *ctx, int opt, const char *arg);

/* Parses argv with getopt_long: the shared options into o (after
 * cli_opts_init), the others through own(ctx, ...) (may be NULL). Returns
 * the index of the first operand, or -1 after printing the one-line usage
 * error. */
int cli_parse(struct cli_opts *o, int argc, char **argv, const char *shortopts,
	      const struct option *longopts, cli_own_option own, void *ctx);
/* Defaults; room for argc --set and --profile-dir. -1 on OOM. */
int cli_opts_init(struct cli_opts *o, const char *cmd, unsigned formats, int argc);
void cli_opts_free(struct cli_opts *o);
/* The only operands argv[i..argc) may hold: none. -1 after the message. */
int cli_no_operands(const struct cli_opts *o, int i, int argc, char **argv);
/* Loads o->machine limited to o->cpus. -1 after the message. */
int cli_load_machine(const struct cli_opts *o, struct machine *m);
struct plugin_set;
/* The plugins of $PMLAB_PLUGIN_PATH, then those of --plugin, into set
 * (empty at first). -1 after the message. */
int cli_load_plugins(const struct cli_opts *o, struct plugin_set *set);
/* The root a host command reads: --root, else $PMLAB_ROOT when set and
 * not empty, else NULL (/), for the inputs. */
const char *cli_host_root(const struct cli_opts *o);
/* --format's value among the allowed ones; -1 after the message. */
int cli_parse_format(const char *cmd, const char *arg, unsigned allowed, enum cli_format *out);
/* A count from lo to hi (--runs, --jobs); -1 after the message. */
int cli_parse_count(const char *cmd, const char *name, const char *arg, uint64_t lo, uint64_t hi,
		    uint64_t *out);

#endif
