// SPDX-License-Identifier: GPL-2.0-only
/* What a result was made from, so that a saved table, CSV or JSON file can
 * be re-run: pmlab's version, the machine (its name and a hash of the INI
 * text it was loaded as), the workload, every --set, the governors, the
 * profile, seed and duration, a sweep's --vary axes, the plugins, a host
 * command's wrapped command, and the command line that does it again.
 * Written as a wrapped "inputs:" paragraph under a table's header, as
 * "# " comment lines before a CSV header, and as a JSON "inputs" object
 * (docs/json-schema.md). */
#ifndef PMLAB_INPUTS_H
#define PMLAB_INPUTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../machine/machine.h"

#define INPUTS_HASH_MAX 17 /* 16 hex digits and a NUL */

/* One of the machines a sweep's points ran on. */
struct inputs_machine {
	const char *spec, *cpus;  /* --machine and --cpus as given (cpus NULL: all) */
	char name[MACHINE_NAME_MAX];
	char hash[INPUTS_HASH_MAX];
};

struct run_inputs {
	const char *command;  /* "sim", "compare", "replay", "sweep", "monitor", "bench" */
	const char *version;  /* pmlab's */
	char machine[MACHINE_NAME_MAX];
	char machine_hash[INPUTS_HASH_MAX]; /* FNV-1a 64 of machine_to_ini(), hex */
	int cpus;             /* CPUs online; --cpus when it limited them, else 0 */
	const char *machine_arg; /* --machine as given (a name or a path) */
	const char *workload; /* NULL for replay */
	const char *trace;    /* replay: the trace file, else NULL */
	const char *cpufreq, *cpuidle; /* as named; NULL: the machine's default ran */
	const char *profile;  /* sim --profile, else NULL */
	const char *const *sets;
	int nsets;
	const char *const *profiles; /* compare --profiles, else NULL */
	int nprofiles;
	int runs;             /* compare --runs; 0 for one run */
	uint64_t seed;
	double duration_s;
	const char *const *extra; /* further options as given, "--pid 12" (replay) */
	int nextra;
	const char *const *vary; /* sweep: every --vary KEY=V1,V2,... as given */
	int nvary;
	const char *shard;    /* sweep --shard I/N, else NULL; not in the command */
	/* sweep: the machines of its points when they are more than one (a
	 * varied machine or --cpus); machine and machine_hash are then not set */
	const struct inputs_machine *machines;
	int nmachines;
	const char *const *dirs; /* --profile-dir, in order */
	int ndirs;
	const char *const *plugins; /* --plugin, as given, in order */
	int nplugins;
	const char *plugin_path; /* $PMLAB_PLUGIN_PATH when set and not empty */
	const char *const *path_plugins; /* the files it loaded, in load order */
	int npath_plugins;
	bool host;            /* the real machine (monitor, bench): no model, seed, duration */
	const char *root;     /* host: --root, NULL for the default */
	char *const *argv;    /* host: the wrapped command (after --), else NULL */
};

/* Fills the machine's name and hash from m. -1 on OOM. */
int inputs_set_machine(struct run_inputs *in, const struct machine *m);
/* The same for one machine of a sweep. -1 on OOM. */
int inputs_machine_of(struct inputs_machine *im, const char *spec, const char *cpus,
		      const struct machine *m);
/* The command line that makes the result again, shell-quoted: the
 * plugin path as the variable's assignment before it, the wrapped command
 * after "--". A sweep's shard is left out: the command runs the whole
 * sweep, which the "shard" input says this output is a slice of. */
char *inputs_command(const struct run_inputs *in); /* malloc'd, NULL on OOM */
/* "pmlab 0.1.0, machine i7-4790 (INI fnv1a64 H)", or the machines of a
 * sweep, or "this machine" (host commands); the plugins of
 * PMLAB_PLUGIN_PATH, a sweep's shard. */
void inputs_describe(char *text, size_t size, const struct run_inputs *in);
/* The table's paragraph ("inputs: pmlab 0.1.0, machine ... (INI fnv1a64 ...)
 * ... re-run: pmlab sim ..."), wrapped to the width. */
void inputs_write_table(FILE *out, const struct run_inputs *in);
/* "# key: value" lines, one per input (a line per --set). */
void inputs_write_csv(FILE *out, const struct run_inputs *in);
/* The "inputs" object; NULL on OOM. */
json_t *inputs_json(const struct run_inputs *in);

#endif
