// SPDX-License-Identifier: GPL-2.0-only
/* A run specification: the machine, the workload, the policies (frequency
 * and idle governor, a tuned profile) and the settings of one simulation.
 * Every command that simulates builds one: pmlab sim one, compare one per
 * profile, sweep one per point, validate one per row. */
#ifndef PMLAB_RUNSPEC_H
#define PMLAB_RUNSPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../machine/machine.h"
#include "../metrics/result.h"

#define RUNSPEC_NAME_MAX 64

/* What a run is when nothing says otherwise; the governors are those a
 * stock kernel runs on the machine (runspec_default_cpufreq, _cpuidle). */
#define RUNSPEC_DEFAULT_DURATION (10 * NS_PER_SEC)
#define RUNSPEC_DEFAULT_SEED 1

struct sim;
struct sim_observer;
struct gov_registry;

struct runspec {
	const struct machine *m; /* not owned */
	const char *workload;    /* not owned */
	char cpufreq[RUNSPEC_NAME_MAX];
	bool cpufreq_fixed;      /* the user named it: it wins over a profile's */
	bool cpufreq_default;    /* nobody named it: the machine's default */
	char cpuidle[RUNSPEC_NAME_MAX];
	bool cpuidle_default;
	sim_ns duration;
	uint64_t seed;
	int nsets;
	char **sets; /* "KEY=VALUE", owned; applied in order, so a later one wins */
	char profile[RESULT_NAME_MAX]; /* the tuned profile applied, as given; "" for none */
	char *note;    /* what a profile did: "2 settings, 5 options not modelled"; owned, may be NULL */
	char *skipped; /* the options not modelled, "WHAT (WHY)", "; "-separated; owned, may be NULL */
	bool check;    /* verify the engine's invariants after every event (slow) */
	bool keep_finished_tasks; /* for use() to read finished tasks (per-task reports) */
	const struct sim_observer *observer; /* not owned, may be NULL */
	void (*progress)(void *ctx, double done); /* the engine's progress callback; may be NULL */
	void *progress_ctx;
	const struct gov_registry *registry; /* plugins' governors; not owned, may be NULL */
	const void *workload_data; /* sim_config's; not owned, may be NULL */
};

/* The frequency governor a stock kernel runs on m, and why ("the default
 * of acpi-cpufreq"): the cpufreq driver's default under Debian 12's kernel
 * configuration -- intel_pstate's own powersave policy in active mode,
 * schedutil (CONFIG_CPU_FREQ_DEFAULT_GOV_SCHEDUTIL=y) for the drivers that
 * run the generic governors, performance without a driver. kernel is a
 * --set kernel= version (sim_kernel_version) or 0: a kernel older than
 * that governor ran the Kconfig default of its time, performance. */
const char *runspec_default_cpufreq(const struct machine *m, int kernel, const char **why);
/* The idle governor a stock kernel runs on m, and why: menu (the highest
 * rated governor that kernel builds: teo and haltpoll are not built),
 * or "deepest" for a machine without a cpuidle driver, whose idle loop
 * stops the tick and enters the one default state. */
const char *runspec_default_cpuidle(const struct machine *m, const char **why);

/* The frequency governor rs runs: as named (by the user or a profile), or
 * the machine's default for the kernel its --set kernel= names. why, if
 * not NULL, says why a default runs ("" for a named one). */
const char *runspec_cpufreq(const struct runspec *rs, const char **why);

/* Decimal seconds ("10", "0.5") to ns; -1 if malformed or not positive. */
sim_ns runspec_parse_seconds(const char *s);
/* duration, or less when $PMLAB_MAX_DURATION (seconds) says so: how the
 * tests run the README's commands as shown, only shorter. Every run goes
 * through it (runspec_run), as govd's --duration does. */
sim_ns runspec_duration_cap(sim_ns duration);
/* A non-negative decimal integer below 2^64. -1 if malformed or larger. */
int runspec_parse_u64(const char *s, uint64_t *out);

/* Loads machine SPEC (a built-in name or an INI file), limited to its
 * first CPUS CPUs when cpus is not NULL (--cpus). -1 with the reason in d. */
int runspec_load_machine(struct machine *m, const char *spec, const char *cpus, struct pm_diag *d);
/* Limits m to its first CPUS CPUs (--cpus). -1 with the reason in d. */
int runspec_load_machine_cpus(struct machine *m, const char *cpus, struct pm_diag *d);
/* The run of workload on m with the default governors, duration and seed;
 * then cpufreq and cpuidle, when not NULL, name the governors (a named
 * cpufreq governor wins over a profile's). -1 with the reason in d if a
 * name is too long. The caller frees it with runspec_free(). */
int runspec_init(struct runspec *rs, const struct machine *m, const char *workload,
		 const char *cpufreq, const char *cpuidle, struct pm_diag *d);
/* Appends a copy of "KEY=VALUE". -1 on OOM. */
int runspec_set(struct runspec *rs, const char *kv);
/* runspec_set() of each of sets[0..n). -1 with the reason in d. */
int runspec_set_all(struct runspec *rs, const char *const *sets, int n, struct pm_diag *d);
/* Applies a profile entry: "none" (nothing), "none:KEY=VALUE,..." (--set
 * keys, plus cpufreq=G and cpuidle=G), or a tuned profile name or path
 * with optional ":option=value,..." overrides, loaded against rs->m and
 * searched first in dirs[]. As with pmlab sim --profile, the profile's
 * governor replaces rs->cpufreq unless rs->cpufreq_fixed, and its
 * settings are appended, so --set options added afterwards override them.
 * -1 with the reason in d. */
int runspec_profile(struct runspec *rs, const char *spec, const char *const *dirs, int ndirs,
		    struct pm_diag *d);
/* Builds the simulation without running it, so that bad input is found
 * before any run starts. -1 with the reason in d. */
int runspec_check(const struct runspec *rs, struct pm_diag *d);
/* Runs it and hands the result to use() while the simulation, whose
 * machine model and tasks the result points to, still exists. Returns -1
 * with the reason in d if the run fails, else what use() returns. */
int runspec_run(const struct runspec *rs,
		int (*use)(void *ctx, struct sim *s, const struct run_result *r), void *ctx,
		struct pm_diag *d);
void runspec_free(struct runspec *rs);

#endif
