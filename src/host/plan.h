// SPDX-License-Identifier: GPL-2.0-only
/* A write plan: a resolved profile translated into concrete writes to
 * THIS machine's files, in the order the kernel needs them (governor
 * before its tunables and before EPP; no_turbo before frequency limits;
 * min/max limits ordered so min <= max holds after every write), plus
 * what was skipped and why. Building a plan reads the machine but writes
 * nothing; apply.c snapshots, writes and restores it.
 *
 * The translation table (pmlab key -> files) is host_plan_keys[]; every
 * path comes from it and from numbers read from the machine, never from
 * profile text. `a|b` alternatives are chosen by what the machine has
 * (scaling_available_governors, the EPP list, cpuidle states). */
#ifndef PMLAB_PLAN_H
#define PMLAB_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "../profile/profile.h"
#include "inventory.h"

#define PLAN_VALUE_MAX 128
#define PLAN_KEY_MAX 64
#define PLAN_WHAT_MAX 200
#define PLAN_WHY_MAX 256

struct plan_entry {
	char path[HOSTFS_PATH_MAX];  /* relative to the root */
	char value[PLAN_VALUE_MAX];  /* written without a newline */
	char key[PLAN_KEY_MAX];      /* the pmlab key ("governor" for the governor) */
	char origin[PROFILE_TEXT_MAX];
	int order;                   /* write order (phase x 100000 + position) */
	bool check;                  /* read back must equal value (kernels may round
					frequencies or spell EPP numbers as words) */
	bool appears;                /* created by an earlier write (a governor's tunables
					directory): nothing to snapshot or restore */
	bool watch;                  /* not written by apply, only restored if it changed
					(govd: scaling_setspeed) */
};

struct plan_skip {
	char what[PLAN_WHAT_MAX];    /* "energy_perf_bias=performance" or "[disk] readahead=>4096" */
	char origin[PROFILE_TEXT_MAX];
	char why[PLAN_WHY_MAX];
	bool not_applied;            /* outside what the host backend applies ([script], [vm] ...) */
};

/* A kernel module to load before the writes (tuned's [modules]). */
struct plan_module {
	char name[PLAN_KEY_MAX];
	char origin[PROFILE_TEXT_MAX];
};
#define PLAN_MAX_MODULES 16

struct host_plan {
	char profile[PROFILE_TEXT_MAX]; /* the spec it came from, for the state file */
	int n, cap;
	struct plan_entry *e;
	int nskip, capskip;
	struct plan_skip *skip;
	int64_t latency_us;          /* /dev/cpu_dma_latency request; -1 none */
	char latency_origin[PROFILE_TEXT_MAX];
	/* tuned's dynamic PM QoS: latency_us is dyn_high_us while the 1-minute
	 * load average is below dyn_threshold_milli / 1000, else dyn_low_us;
	 * dyn_low_us -1: the request is static. */
	int64_t dyn_low_us, dyn_high_us, dyn_threshold_milli;
	double load;                 /* the load average latency_us was chosen by; -1 unread */
	int nmodules;
	struct plan_module modules[PLAN_MAX_MODULES];
};

/* The request tuned's dynamic PM QoS makes at load average `load`. */
int64_t host_dynamic_latency(int64_t low_us, int64_t high_us, int64_t threshold_milli,
			     double load);

/* One row of the translation table, for --help and the man page. */
struct plan_key {
	const char *key;
	const char *files;
};
extern const struct plan_key host_plan_keys[];
extern const int host_plan_nkeys;

void host_plan_init(struct host_plan *pl, const char *profile);
void host_plan_free(struct host_plan *pl);
/* Translates p for the machine hi describes. Bad input (a value no
 * interface here could take, e.g. EPB 20 or a frequency outside cpuinfo
 * limits) fails with a message naming the setting; what the machine lacks
 * is skipped, with the reason. */
int host_plan_build(struct host_plan *pl, const struct hostfs *fs, const struct host_info *hi,
		    const struct profile *p, struct pm_diag *d);
/* Adds one write (or watch) at phase `phase`; used by govd and tests. */
int host_plan_add(struct host_plan *pl, int phase, const char *path, const char *value,
		  const char *key, const char *origin, bool check, struct pm_diag *d);
int host_plan_add_skip(struct host_plan *pl, const char *what, const char *origin,
		       const char *why, bool not_applied, struct pm_diag *d);
/* Orders the entries for writing (stable by phase). */
void host_plan_sort(struct host_plan *pl);

/* Phases, in write order. */
enum plan_phase {
	PHASE_WATCH,       /* govd: files the governor may change, snapshotted first */
	PHASE_PLATFORM,    /* the ACPI platform profile: firmware limits, before the rest */
	PHASE_IDLE_GOV,
	PHASE_GOVERNOR,
	PHASE_GOV_TUNABLE,
	PHASE_TURBO,
	PHASE_PERF_PCT,
	PHASE_FREQ,
	PHASE_EPP,
	PHASE_EPB,
	PHASE_RESUME_LATENCY,
	PHASE_CSTATE,
	PHASE_SCHED,
};

#endif
