// SPDX-License-Identifier: GPL-2.0-only
/* A recorded trace replayed on a machine model (pmlab replay, the
 * library's pmlab_replay): the trace read once and lent to the runs
 * (runspec's workload_data) as the workload "replay:FILE"
 * (workload/replay.c), on a given machine or on one like the capture
 * machine, with the settings a replay needs before the user's. */
#ifndef PMLAB_LAB_REPLAY_H
#define PMLAB_LAB_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "../core/diag.h"
#include "../machine/machine.h"
#include "../trace/replay_keep.h"
#include "../trace/replay_model.h"

/* The capture-like machine's frequency when neither the trace nor the
 * user gives one. */
#define REPLAY_DEFAULT_CAPTURE_KHZ 2000000

struct sim;
struct run_result;

struct replay {
	const char *file;     /* the trace */
	const char *machine;  /* a machine spec; NULL: the recorded one (FILE.machine.ini),
				 else like the capture machine */
	const char *cpus;     /* --cpus, or NULL */
	uint64_t capture_khz; /* 0: the machine's base (REPLAY_DEFAULT_CAPTURE_KHZ without one) */
	struct replay_keep keep; /* only these processes (--pid, --comm); none given: all */
	/* Filled by replay_setup. */
	struct replay_model rm;
	struct machine m;
	char *workload;     /* "replay:FILE" */
	sim_ns duration;    /* the default cap: 100 x the trace's length + 1 s */
	int npre;
	const char *pre[3]; /* settings before the user's --set */
	char capture_set[64];
	char recorded[4096]; /* the machine recorded beside the trace, "" none */
};

/* pmlab record's machine beside the trace (host/machine_detect.h). */
#define MACHINE_RECORDED_SUFFIX ".machine.ini"

/* Reads the trace and sets up the machine; the runs then get &r->rm as
 * their workload_data. -1 with the reason in d (all bad input). */
int replay_setup(struct replay *r, struct pm_diag *d);
void replay_free(struct replay *r);
/* The machine like the capture one as far as a trace tells: its CPUs, one
 * P-state at khz. */
int replay_capture_machine(struct machine *m, const struct replay_model *rm, uint64_t khz,
			   struct pm_diag *d);
/* One line: how many of the trace's tasks the run r replayed, in how
 * much simulated time against the trace's length, and the energy. */
void replay_write_summary(FILE *out, const struct replay_model *rm, const struct run_result *r);
/* Each task's CPU time in the trace and in the run s, by name: the
 * replay's fidelity, one line per task. */
void replay_write_per_task(FILE *out, const struct replay_model *rm, struct sim *s,
			   const struct run_result *r);

#endif
