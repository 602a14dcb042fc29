// SPDX-License-Identifier: GPL-2.0-only
/* The replay handle behind pmlab.h's replays section (api_replay.c), and
 * what a replay's runs (api_run.c) and comparisons (api_compare.c) take
 * from it: its settings, its inputs, the lines its table ends with. */
#ifndef PMLAB_LIB_REPLAY_H
#define PMLAB_LIB_REPLAY_H

#include "../lab/replay.h"
#include "lib.h"

struct pmlab_replay {
	struct replay r;       /* lab/replay.h: the trace, the machine */
	char *file, *machine;  /* as given; machine NULL: recorded or capture-like */
	char cpus[16];         /* --cpus as a count, "" when not limited */
	int pids[PMLAB_REPLAY_KEEP_MAX];
	int npids;
	struct lib_strings comms;
	bool loaded;
	/* The inputs' options: "--pid" "P,P,..." then "--comm" PATTERN per
	 * pattern, as pmlab replay records them. */
	char pid_list[PMLAB_REPLAY_KEEP_MAX * 12];
	const char *extra[2 + 2 * PMLAB_REPLAY_KEEP_MAX];
	int nextra;
};

/* Whether runs can be made of rp (a lab, a loaded replay): PMLAB_OK, or
 * the error. */
pmlab_status lib_replay_usable(const pmlab_lab *lab, const pmlab_replay *rp, pmlab_error *err);
/* Adds the replay's own settings to sets, which they begin. -1 on OOM. */
int lib_replay_presets(const pmlab_replay *rp, struct lib_strings *sets);

struct run_inputs;
struct run_result;
struct sim;

/* A replay's part of the inputs of its results (after lib_inputs): no
 * workload, the trace, --pid and --comm. */
void lib_replay_inputs(const pmlab_replay *rp, struct run_inputs *in);
/* What a replay's run adds to its table: what was replayed, and each
 * task's CPU time when per_task (s kept its finished tasks). */
void lib_replay_table_end(const pmlab_replay *rp, FILE *out, struct sim *s,
			  const struct run_result *r, bool per_task);
/* A replay's run as one HTML page. -1 on a write error or OOM. */
int lib_replay_html(const pmlab_replay *rp, FILE *out, const struct run_result *r,
		    const struct run_inputs *in);
/* "stopped at the --duration limit ...", or "" if every task finished. */
void lib_replay_unfinished(const pmlab_replay *rp, const struct run_result *r, char *buf,
			   size_t size);

#endif
