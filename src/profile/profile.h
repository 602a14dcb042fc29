// SPDX-License-Identifier: GPL-2.0-only
/* tuned-compatible profiles, resolved into what pmlab can apply: a
 * frequency governor and a list of --set KEY=VALUE settings (engine,
 * governor tunables), each remembering where it came from, plus the
 * options the model does not cover, listed with the reason -- never
 * dropped silently. The same resolved profile drives the simulator
 * (pmlab sim/compare/sweep) and, later, the host backend. */
#ifndef PMLAB_PROFILE_H
#define PMLAB_PROFILE_H

#include <stdbool.h>

#include "../core/diag.h"
#include "../machine/machine.h"

#define PROFILE_TEXT_MAX 256

/* The kernel a simulated machine claims to run, for uname_regex: "Linux",
 * a host name, this release, "#1 SMP" and the machine's architecture
 * (x86_64, or ppc64le for a POWER machine), as " ".join(os.uname()) reads. */
#define PROFILE_UNAME_RELEASE "6.1.0-pmlab"

struct profile_setting {
	char key[64];                 /* a pmlab --set key */
	char value[128];
	char origin[PROFILE_TEXT_MAX];/* "FILE:LINE: [section] option=value" */
	char kv[196];                 /* "KEY=VALUE", what --set takes */
	/* Applied by the host backend only; the simulator has no such knob and
	 * profile_apply() leaves it out: cpuidle_governor, platform_profile,
	 * module.NAME (see profile_map_host.c). */
	bool host_only;
};

struct profile_skip {
	char what[128];               /* "[disk] readahead=>4096" */
	char origin[PROFILE_TEXT_MAX];/* "FILE:LINE" */
	char why[128];                /* "not modelled", "no such CPU governor here", ... */
};

struct profile {
	char name[128];
	char summary[PROFILE_TEXT_MAX];
	char cpufreq[64];             /* governor to run; "" keeps the caller's */
	char cpufreq_origin[PROFILE_TEXT_MAX];
	int nsettings;
	struct profile_setting *settings;
	int nskipped;
	struct profile_skip *skipped;
	/* Added to the contract: */
	char path[PROFILE_TEXT_MAX];  /* the top tuned.conf */
	char driver[32];              /* cpufreq driver: "acpi-cpufreq" or "intel_pstate" modelled,
					 or profile_env.driver */
	char uname[PROFILE_TEXT_MAX]; /* what uname_regex was matched against */
	int tuned_version;            /* emulated, major * 100 + minor; 0: not tuned's */
	/* Not tuned's: the daemon whose code the profile follows, version and
	 * driver file (power-profiles-daemon's ppd/NAME); "" for tuned's. */
	char daemon[PROFILE_TEXT_MAX];
};

/* The CPUs tuned's built-in functions see (cpulist_online,
 * calc_isolated_cores, ...) when they are not the machine model's. */
struct profile_cpus {
	int n;
	const int *cpu;          /* the online CPUs' numbers */
	const int *package;      /* their physical_package_id, -1 unknown; NULL: all -1 */
	const char *present;     /* sysfs "present" cpulist; NULL: the online CPUs */
};

/* What the caller fixes before a profile is resolved. */
struct profile_env {
	/* The governor the caller runs when the profile names none (pmlab sim:
	 * "performance"); NULL means "performance". Governor tunables such as
	 * sampling_down_factor are mapped onto the governor that will run. */
	const char *cpufreq;
	/* True when cpufreq runs whatever the profile says (pmlab sim
	 * --cpufreq G): the profile's governor= is then listed as skipped, or,
	 * for cpufreq "intel_pstate", read as the driver's own policy
	 * (performance|powersave -> its scaling_governor tunable). */
	bool cpufreq_fixed;
	const char *uname;            /* NULL: the PROFILE_UNAME_RELEASE string */
	/* The cpufreq driver that runs (the host's scaling_driver), named in
	 * messages and profile.driver; NULL: the one modelled (acpi-cpufreq, or
	 * intel_pstate when it runs). */
	const char *driver;
	const struct profile_cpus *cpus; /* NULL: the machine's CPUs 0..online-1 */
	/* The tuned version emulated, major * 100 + minor; 0: the profile's
	 * (its family directory tuned-X.Y, or a tuned-version file beside its
	 * directory) or PF_TUNED_DEFAULT. A spec's ":tuned=2.22" wins. */
	int tuned_version;
};

/* Debian 12's tuned: dynamic PM QoS on ([cpu] latency_low/high), no [acpi]. */
#define PF_TUNED_DEFAULT 220

/* Loads NAME (searched in dirs[], then data/profiles, /etc/tuned/profiles,
 * /usr/lib/tuned/profiles), a path to a tuned.conf or its directory, or
 * either followed by ":option=value,option=value" overrides of [cpu]
 * options (e.g. "balanced:governor=conservative"). Conditions
 * (uname_regex, cpuinfo_regex) and `a|b` alternatives are evaluated
 * against machine `m`. Errors: "FILE:LINE: what (expected ...)". */
int profile_load(struct profile *p, const char *spec, const struct machine *m,
		 const char *const *dirs, int ndirs, struct pm_diag *d);
/* profile_load() with the caller's governor (env may be NULL). */
int profile_load_env(struct profile *p, const char *spec, const struct machine *m,
		     const struct profile_env *env, const char *const *dirs, int ndirs,
		     struct pm_diag *d);
void profile_free(struct profile *p);

struct sim_config;

/* Puts profile p into a run: cfg->cpufreq becomes the profile's governor
 * unless keep_cpufreq (the user named one) or the profile names none;
 * sets_out receives the profile's "KEY=VALUE" settings, then the caller's
 * user_sets, so the user's win; cfg->sets and cfg->nsets point at them.
 * Returns the number of sets, or -1 (with a message) if max is too small.
 * The strings stay p's and user_sets': keep both alive while cfg is used.
 * Load p with profile_load_env() and the same governor, so that governor
 * tunables are mapped onto the governor that runs. */
/* Why a host-only setting (profile_setting.host_only) stays out of a run. */
const char *profile_host_only_why(const char *key);

int profile_apply(const struct profile *p, struct sim_config *cfg, bool keep_cpufreq,
		  const char *const *user_sets, int nuser, const char **sets_out, int max,
		  struct pm_diag *d);

/* The directories a NAME is searched in, in order: dirs[], then
 * $PMLAB_PROFILE_PATH (colon-separated), data/profiles, the installed
 * share/pmlab/profiles next to the running binary (and the source tree's
 * data/profiles when it runs from a build directory inside it),
 * /etc/tuned/profiles, /etc/tuned, /usr/lib/tuned/profiles, /usr/lib/tuned
 * (or, when set, the colon-separated $PMLAB_TUNED_DIRS instead of these).
 * Calls fn for each directory that exists (each once, however it is
 * named); stops at, and returns, the first nonzero fn returns; -1 when out
 * of memory. */
int profile_search_path(const char *const *dirs, int ndirs,
			int (*fn)(void *ctx, const char *dir), void *ctx);

/* Every profile in the search path: NAME (or FAMILY/NAME one level down,
 * e.g. "tuned-2.3/balanced"), its directory, its [main] summary, and the
 * directory of an earlier profile of the same name that hides it ("" if
 * none). Calls fn once per profile found, directories in search order,
 * names sorted within each. */
struct profile_entry {
	char name[128];
	char dir[PROFILE_TEXT_MAX];
	char summary[PROFILE_TEXT_MAX];
	char hidden_by[PROFILE_TEXT_MAX];
};
int profile_list(const char *const *dirs, int ndirs,
		 void (*fn)(void *ctx, const struct profile_entry *e), void *ctx,
		 struct pm_diag *d);

#endif
