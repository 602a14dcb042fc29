// SPDX-License-Identifier: GPL-2.0-only
/* Private to the profile mapper (profile_map*.c): the state of one
 * mapping and the helpers every plugin's file uses. Each option either
 * becomes a setting (pfm_set_knob) or is listed as skipped with the
 * reason (pfm_skip); bad values fail with FILE:LINE (pfm_bad). */
#ifndef PMLAB_PROFILE_MAP_H
#define PMLAB_PROFILE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../machine/machine.h"
#include "profile_internal.h"

struct cpufreq_governor;
struct tunable;

#define VALUE_MAX 1024

struct map {
	struct pf_load *L;
	struct profile *p;
	struct pm_diag *d;
	const struct cpufreq_governor *gov;    /* the governor that runs, NULL if unknown */
	const struct cpufreq_governor *pstate; /* intel_pstate (amd_pstate when it runs), for
						  its tunables */
	bool intel;                            /* the driver is intel_pstate */
	bool amd;                              /* the driver is amd-pstate-epp (amd_pstate) */
	const char *driver;                    /* its name in messages (the host's real one) */
	char why_no_pstate[128];               /* why intel_pstate-only options are skipped */
	const struct pf_inst *cpu;             /* the [cpu] instance tuned uses */
	const struct pf_opt *gov_opt;          /* its governor= */
	bool gov_applied;                      /* gov_opt chose the governor (or policy) */
	bool dynamic;                          /* tuned's dynamic PM QoS runs (profile_map_cpu.c) */
	int cs_lines;                          /* cpuidle stateN/disable lines seen */
	bool cs_off[MACHINE_MAX_CSTATES];
	char cs_origin[PROFILE_TEXT_MAX];
};

/* The meta options every plugin has (type, priority, enabled, ...). */
extern const char *const pfm_meta_options[];

/* profile_map.c: shared helpers. */
bool pfm_in_list(const char *const *list, const char *s);
/* "FILE:LINE: [section] option=value" + note, a setting's origin. */
void pfm_origin(const struct pf_inst *in, const struct pf_opt *o, const char *note,
		char *buf, size_t len);
int pfm_skip(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int pfm_bad(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int pfm_unknown(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		const char *expected);
const struct tunable *pfm_engine_tunable(const char *name);
const struct tunable *pfm_gov_tunable(const struct cpufreq_governor *g, const char *name);
/* Checks value the way --set will, into *v; on error `why` has the reason
 * without tunables_write()'s "name=value: " prefix. */
int pfm_check(const struct tunable *t, const char *value, int64_t *v, char *why, size_t len);
/* Sets knob t (key t->name) from an option's value: checks it, honours a
 * '>' or '<' modifier, and replaces an earlier setting of the same key. */
int pfm_set_knob(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		 const struct tunable *t, const char *value, const char *note);
/* Each option of an instance whose plugin takes any key (sysctl, sysfs):
 * plugin metadata is not a setting, a disabled instance skips them all. */
int pfm_each_option(struct map *m, const struct pf_inst *in,
		    int (*map_one)(struct map *, const struct pf_inst *, const struct pf_opt *));

/* profile_map_cpu.c: whether tuned's dynamic tuning runs (tuned-main.conf,
 * an override, else on before 2.22). */
bool pfm_dynamic_tuning(const struct pf_load *L);

/* profile_map_vm.c: [vm], and vm.* sysctls (1: one of them, *rc its result). */
int pfm_vm_instance(struct map *m, const struct pf_inst *in);
int pfm_vm_sysctl(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		  const char *name, int *rc);

/* profile_map_latency.c */
/* Machine C-state index of Linux's stateN, -1 for the implicit POLL of a
 * machine that does not list a polling state first, -2 for none. */
int pfm_linux_state(const struct machine *mc, int n);
int pfm_linux_nstates(const struct machine *mc);
int pfm_force_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		      const char *value);
int pfm_resume_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		       const char *value);
/* A latency as force_latency takes it, resolved to microseconds (how: the
 * alternative that resolved); None or no alternative here is an error. */
int pfm_latency_us(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		   const char *value, int64_t *us, char *how, size_t len);

/* profile_map_cpu.c */
/* Picks the governor before the other options, which depend on it. */
int pfm_governor(struct map *m);
int pfm_cpu_instance(struct map *m, const struct pf_inst *in);

/* profile_map_sched.c */
int pfm_scheduler_instance(struct map *m, const struct pf_inst *in);
int pfm_sysctl_instance(struct map *m, const struct pf_inst *in);
/* A sysctl name, "kernel.sched_latency_ns" or "kernel/sched_latency_ns". */
int pfm_sysctl_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		      const char *name);
/* A file of /sys/kernel/debug/sched/ by its name there. */
int pfm_debugfs_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		       const char *name, const char *value);

/* profile_map_host.c: plugins only the host backend applies */
int pfm_acpi_instance(struct map *m, const struct pf_inst *in);
int pfm_modules_instance(struct map *m, const struct pf_inst *in);

/* profile_map_sysfs.c */
int pfm_sysfs_instance(struct map *m, const struct pf_inst *in);

#endif
