// SPDX-License-Identifier: GPL-2.0-only
/* tuned's [sysfs] plugin: paths under /sys/devices/system/cpu become the
 * knob they set (cpufreq limits and governor tunables, intel_pstate,
 * cpuidle stateN/disable, EPB/EPP, the resume latency); /proc/sys and the
 * scheduler's debugfs files go to the scheduler knobs. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "../cpufreq/cpufreq.h"
#include "../cpufreq/energy_hints.h"
#include "profile_map.h"

/* How many online CPUs (cpuN) or policies (policyN, N the first CPU of
 * each clock domain) a path component's glob matches; *all is their
 * number. */
static int glob_cpus(const struct machine *mc, const char *glob, bool policy, int *all)
{
	int matched = 0, n = 0;
	bool seen[MACHINE_MAX_CPUS] = { false };

	for (int c = 0; c < mc->online_cpus; c++) {
		char name[32];
		if (policy) {
			int dom = machine_cpu_freq_domain(mc, c);
			if (dom < 0 || dom >= MACHINE_MAX_CPUS || seen[dom])
				continue;
			seen[dom] = true;
		}
		snprintf(name, sizeof(name), "%s%d", policy ? "policy" : "cpu", c);
		n++;
		matched += fnmatch(glob, name, 0) == 0;
	}
	*all = n;
	return matched;
}

static int cpuidle_disable(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			   const char *state_glob, const char *value)
{
	const struct machine *mc = m->L->m;
	int hits = 0;

	if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
		return pfm_bad(m, in, o, "not 0 or 1 (expected 1 to disable the state, 0 to enable it)");
	for (int n = 0; n < pfm_linux_nstates(mc); n++) {
		char name[16];
		snprintf(name, sizeof(name), "state%d", n);
		if (fnmatch(state_glob, name, 0) != 0)
			continue;
		int idx = pfm_linux_state(mc, n);
		if (idx == -1) {
			if (pfm_skip(m, in, o, "state0 is POLL, which this machine file does not list"))
				return -1;
			continue;
		}
		m->cs_off[idx] = value[0] == '1';
		hits++;
	}
	if (!hits)
		return pfm_skip(m, in, o, "no such cpuidle state on %s", mc->name);
	m->cs_lines++;
	pfm_origin(in, o, NULL, m->cs_origin, sizeof(m->cs_origin));
	return 0;
}

/* "GOVERNOR/TUNABLE", global or under a policy: the running governor's
 * tunable, or why not (another governor runs, no such tunable), into *rc.
 * False, with nothing done, when `path` does not start with a governor. */
static bool gov_tunable_path(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			     const char *path, const char *value, int *rc)
{
	char gov[64];
	const char *slash = strchr(path, '/');
	snprintf(gov, sizeof(gov), "%.*s", slash ? (int)(slash - path) : 0, path);
	if (!slash || !cpufreq_governor_find(gov))
		return false;
	const struct tunable *t;
	if (!m->gov || strcmp(m->gov->name, gov) != 0)
		*rc = pfm_skip(m, in, o, "the governor that runs is %s, not %s",
			   m->gov ? m->gov->name : "(unknown)", gov);
	else if ((t = pfm_gov_tunable(m->gov, slash + 1)) != NULL)
		*rc = pfm_set_knob(m, in, o, t, value, NULL);
	else
		*rc = pfm_skip(m, in, o, "%s has no tunable %s in pmlab", gov, slash + 1);
	return true;
}

/* TAIL under cpuN/cpufreq/ or cpufreq/policyN/, for every CPU: the
 * scaling limits, boost, EPP/EPB and the governors' per-policy tunables. */
static int cpufreq_file(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			const char *tail, const char *value)
{
	int rc;

	if (strcmp(tail, "scaling_min_freq") == 0 || strcmp(tail, "scaling_max_freq") == 0)
		return pfm_set_knob(m, in, o, pfm_engine_tunable(strcmp(tail, "scaling_min_freq") == 0
								 ? "scaling_min_khz"
								 : "scaling_max_khz"), value, NULL);
	if (strcmp(tail, "boost") == 0)
		return pfm_set_knob(m, in, o, pfm_engine_tunable("boost"), value, NULL);
	if (strcmp(tail, "scaling_governor") == 0)
		return pfm_skip(m, in, o, "pmlab takes the governor from [cpu] governor=");
	if (strcmp(tail, "energy_performance_preference") == 0 || strcmp(tail, "energy_perf_bias") == 0) {
		const struct tunable *t = pfm_gov_tunable(m->pstate, tail);
		int64_t v;
		char why[256];
		if (t && pfm_check(t, epb_kernel_name(value), &v, why, sizeof(why)))
			return pfm_bad(m, in, o, "%s", why);
		return m->intel ? pfm_set_knob(m, in, o, t, epb_kernel_name(value), NULL) : pfm_skip(m, in, o, "%s", m->why_no_pstate);
	}
	/* Per-policy governor tunables: cpufreq/policyN/ondemand/up_threshold. */
	if (gov_tunable_path(m, in, o, tail, value, &rc))
		return rc;
	return pfm_skip(m, in, o, "no pmlab knob for this path");
}

static int sysfs_cpu(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		     const char *rest, const char *value)
{
	const struct machine *mc = m->L->m;
	char comp[128];
	const char *tail = strchr(rest, '/');
	size_t n = tail ? (size_t)(tail - rest) : strlen(rest);
	int all, hit;

	snprintf(comp, sizeof(comp), "%.*s", (int)n, rest);
	tail = tail ? tail + 1 : "";
	if (strcmp(rest, "sched_mc_power_savings") == 0)
		return pfm_set_knob(m, in, o, pfm_engine_tunable("sched_mc_power_savings"), value, NULL);
	if (strcmp(rest, "cpufreq/boost") == 0)
		return pfm_set_knob(m, in, o, pfm_engine_tunable("boost"), value, NULL);
	if (strcmp(comp, "intel_pstate") == 0) {
		const struct tunable *t = pfm_gov_tunable(m->pstate, tail);
		if (!t || strcmp(tail, "scaling_governor") == 0 || strcmp(tail, "hwp") == 0 ||
		    strcmp(tail, "energy_perf_bias") == 0 ||
		    strcmp(tail, "energy_performance_preference") == 0)
			return pfm_skip(m, in, o, "no pmlab knob for this intel_pstate file");
		return m->intel ? pfm_set_knob(m, in, o, t, value, NULL) : pfm_skip(m, in, o, "%s", m->why_no_pstate);
	}
	if (strcmp(rest, "cpuidle/current_governor") == 0) {
		char orig[PROFILE_TEXT_MAX * 2];
		if (!value[0])
			return pfm_bad(m, in, o, "no governor (expected e.g. menu or teo)");
		pfm_origin(in, o, NULL, orig, sizeof(orig));
		return pf_add_host_setting(m->p, "cpuidle_governor", value, orig, m->d);
	}
	bool policy = strcmp(comp, "cpufreq") == 0 && strncmp(tail, "policy", 6) == 0;
	int rc;
	if (strcmp(comp, "cpufreq") == 0 && !policy) {
		/* cpufreq/GOVERNOR/TUNABLE: the governor's global tunables. */
		if (gov_tunable_path(m, in, o, tail, value, &rc))
			return rc;
		return pfm_skip(m, in, o, "no pmlab knob for this path");
	}
	if (policy) {
		/* cpufreq/policyN/...: as cpuN/cpufreq/... for the policy's CPUs. */
		const char *slash = strchr(tail, '/');
		snprintf(comp, sizeof(comp), "%.*s", slash ? (int)(slash - tail) : (int)strlen(tail), tail);
		tail = slash ? slash + 1 : "";
	} else if (strncmp(comp, "cpu", 3) != 0) {
		return pfm_skip(m, in, o, "no pmlab knob for this path");
	}
	hit = glob_cpus(mc, comp, policy, &all);
	if (hit == 0)
		return pfm_skip(m, in, o, "'%s' matches no %s here", comp, policy ? "policy" : "CPU");
	if (hit < all)
		return pfm_skip(m, in, o, "'%s' matches %d of %d %s; pmlab's settings apply to every CPU",
			    comp, hit, all, policy ? "policies" : "CPUs");
	if (!policy && strncmp(tail, "cpufreq/", 8) == 0)
		tail += 8;
	else if (!policy && strncmp(tail, "cpuidle/", 8) == 0) {
		const char *st = tail + 8, *slash = strchr(st, '/');
		if (slash && strcmp(slash, "/disable") == 0) {
			char glob[64];
			snprintf(glob, sizeof(glob), "%.*s", (int)(slash - st), st);
			return cpuidle_disable(m, in, o, glob, value);
		}
		return pfm_skip(m, in, o, "no pmlab knob for this cpuidle file");
	} else if (!policy && strcmp(tail, "power/energy_perf_bias") == 0) {
		tail = "energy_perf_bias";
	} else if (!policy && strcmp(tail, "power/pm_qos_resume_latency_us") == 0) {
		return pfm_resume_latency(m, in, o, value);
	} else if (!policy) {
		return pfm_skip(m, in, o, "no pmlab knob for this path");
	}
	return cpufreq_file(m, in, o, tail, value);
}

static int sysfs_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	char path[VALUE_MAX], value[VALUE_MAX], clean[VALUE_MAX];
	size_t j = 0;

	if (pf_expand_at(m->L, o->key, o->file, o->line, path, sizeof(path)) ||
	    pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	for (size_t i = 0; path[i] && j + 1 < sizeof(clean); i++)
		if (!(path[i] == '/' && j && clean[j - 1] == '/'))
			clean[j++] = path[i];
	clean[j] = '\0';
	if (strncmp(clean, "/proc/sys/", 10) == 0)
		return pfm_sysctl_option(m, in, o, clean + 10);
	if (strncmp(clean, "/sys/kernel/debug/sched/", 24) == 0)
		return pfm_debugfs_option(m, in, o, clean + 24, value);
	if (strncmp(clean, "/sys/devices/system/cpu/", 24) == 0)
		return sysfs_cpu(m, in, o, clean + 24, value);
	return pfm_skip(m, in, o, "not modelled");
}

int pfm_sysfs_instance(struct map *m, const struct pf_inst *in)
{
	return pfm_each_option(m, in, sysfs_option);
}
