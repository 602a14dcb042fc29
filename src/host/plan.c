// SPDX-License-Identifier: GPL-2.0-only
/* From a resolved profile to writes on this machine. See plan.h. */
#include "plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpufreq/cpufreq.h"
#include "../cpufreq/energy_hints.h"
#include "plan_paths.h"

#define MAX_ALTS 16

const struct plan_key host_plan_keys[] = {
	{ "governor", "cpufreq/policyN/scaling_governor (first of a|b|c in "
		      "scaling_available_governors)" },
	{ "GOVERNOR TUNABLE", "cpufreq/GOVERNOR/TUNABLE or cpufreq/policyN/GOVERNOR/TUNABLE" },
	{ "cpuidle", "cpuidle/current_governor (also cpuidle_governor)" },
	{ "platform_profile", "/sys/firmware/acpi/platform_profile (first of a|b in "
			      "platform_profile_choices)" },
	{ "module.NAME", "modprobe NAME before the writes, if not loaded (tuned's [modules])" },
	{ "pm_qos_dynamic", "/dev/cpu_dma_latency, held open: LOW,HIGH,THRESHOLD by the "
			    "1-minute load average (tuned's dynamic PM QoS)" },
	{ "pm_qos_latency_us", "/dev/cpu_dma_latency, held open (N, cstate.id:N, cstate.name:X, "
			       "*_no_zero, None)" },
	{ "scaling_min_khz", "cpufreq/policyN/scaling_min_freq (0: cpuinfo_min_freq)" },
	{ "scaling_max_khz", "cpufreq/policyN/scaling_max_freq (0: cpuinfo_max_freq)" },
	{ "boost", "intel_pstate/no_turbo (inverted), else cpufreq/policyN/boost, else "
		   "cpufreq/boost" },
	{ "no_turbo", "intel_pstate/no_turbo" },
	{ "min_perf_pct", "intel_pstate/min_perf_pct" },
	{ "max_perf_pct", "intel_pstate/max_perf_pct" },
	{ "energy_performance_preference", "cpufreq/policyN/energy_performance_preference" },
	{ "energy_perf_bias", "cpuN/power/energy_perf_bias (names written as numbers)" },
	{ "pm_qos_resume_latency_us", "cpuN/power/pm_qos_resume_latency_us (-1: 0 = no limit, "
				      "0: n/a = no idle state)" },
	{ "cstate_disable", "cpuN/cpuidle/stateK/disable of the named states" },
	{ "sched_*", "/proc/sys/kernel/sched_* or /sys/kernel/debug/sched/*" },
};
const int host_plan_nkeys = (int)(sizeof(host_plan_keys) / sizeof(host_plan_keys[0]));

/* Keys of the simulator with no kernel file behind them. */
static const char *const sim_only[] = {
	"hz", "tick_policy", "tick_cost_ns", "tick_stop_cost_ns", "tick_restart_cost_ns",
	"tick_reprogram_cost_ns", "idle_polling_wakeup", "background_wakeups", "cpufreq_updates",
	"cpufreq_update_cost_ns", "turbo_eval_us", "balance_interval_ms", "variant",
	"freq_invariant", "freq_invariance_cores", "hwp", "hwp_dynamic_boost",
};

/* Scheduler tunables: the sysctl of older kernels, then debugfs (5.13+),
 * base_slice_ns being the EEVDF successor of min_granularity_ns (6.6+). */
static const struct {
	const char *key;
	const char *paths[3];
	bool zero_is_default;
} sched_keys[] = {
	{ "sched_migration_cost_ns", { "proc/sys/kernel/sched_migration_cost_ns",
				       "sys/kernel/debug/sched/migration_cost_ns" }, false },
	{ "sched_min_granularity_ns", { "proc/sys/kernel/sched_min_granularity_ns",
					"sys/kernel/debug/sched/min_granularity_ns",
					"sys/kernel/debug/sched/base_slice_ns" }, true },
	{ "sched_wakeup_granularity_ns", { "proc/sys/kernel/sched_wakeup_granularity_ns",
					   "sys/kernel/debug/sched/wakeup_granularity_ns" }, true },
	{ "sched_latency_ns", { "proc/sys/kernel/sched_latency_ns",
				"sys/kernel/debug/sched/latency_ns" }, true },
	{ "sched_mc_power_savings", { HOST_CPU_DIR "/sched_mc_power_savings" }, false },
};

struct planner {
	struct host_plan *pl;
	const struct hostfs *fs;
	const struct host_info *hi;
	const struct profile *p;
	char gov[HOST_NAME_MAX];         /* the governor that will run ("" unknown) */
	const struct cpufreq_governor *reg; /* its pmlab implementation, for tunables */
	bool gov_switch;                 /* some policy switches to it */
	const struct profile_setting *min_khz, *max_khz, *min_pct, *max_pct, *no_turbo;
	struct pm_diag *d;
};

void host_plan_init(struct host_plan *pl, const char *profile)
{
	*pl = (struct host_plan){ .latency_us = -1, .dyn_low_us = -1, .load = -1 };
	snprintf(pl->profile, sizeof(pl->profile), "%s", profile ? profile : "");
}

void host_plan_free(struct host_plan *pl)
{
	free(pl->e);
	free(pl->skip);
	*pl = (struct host_plan){ .latency_us = -1, .dyn_low_us = -1, .load = -1 };
}

/* plugin_cpu.py _instance_update_dynamic() (tuned 2.20): latency_high
 * while load < load_threshold, else latency_low. */
int64_t host_dynamic_latency(int64_t low_us, int64_t high_us, int64_t threshold_milli,
			     double load)
{
	return load * 1000.0 < (double)threshold_milli ? high_us : low_us;
}

int host_plan_add(struct host_plan *pl, int phase, const char *path, const char *value,
		  const char *key, const char *origin, bool check, struct pm_diag *d)
{
	if (strlen(path) >= HOSTFS_PATH_MAX || strlen(value) >= PLAN_VALUE_MAX)
		return pm_fail(d, "%s=%s: value or path too long", key, value);
	if (!host_plan_path_ok(path))
		return pm_fail(d, "%s=%s: %s is not a file pmlab writes (see src/host/plan_paths.c)",
			       key, value, path);
	/* One write per file: a later setting replaces an earlier one. */
	struct plan_entry *e = NULL;
	for (int i = 0; i < pl->n && !e; i++)
		if (strcmp(pl->e[i].path, path) == 0)
			e = &pl->e[i];
	if (!e) {
		if (pl->n == pl->cap) {
			int cap = pl->cap ? 2 * pl->cap : 32;
			struct plan_entry *grown = realloc(pl->e, (size_t)cap * sizeof(*grown));
			if (!grown)
				return pm_fail(d, "out of memory");
			pl->e = grown;
			pl->cap = cap;
		}
		e = &pl->e[pl->n];
		*e = (struct plan_entry){ .order = phase * 100000 + pl->n };
		pl->n++;
	}
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->value, sizeof(e->value), "%s", value);
	snprintf(e->key, sizeof(e->key), "%s", key);
	snprintf(e->origin, sizeof(e->origin), "%s", origin ? origin : "");
	e->check = check;
	e->watch = phase == PHASE_WATCH;
	return 0;
}

int host_plan_add_skip(struct host_plan *pl, const char *what, const char *origin,
		       const char *why, bool not_applied, struct pm_diag *d)
{
	if (pl->nskip == pl->capskip) {
		int cap = pl->capskip ? 2 * pl->capskip : 16;
		struct plan_skip *grown = realloc(pl->skip, (size_t)cap * sizeof(*grown));
		if (!grown)
			return pm_fail(d, "out of memory");
		pl->skip = grown;
		pl->capskip = cap;
	}
	struct plan_skip *s = &pl->skip[pl->nskip++];
	snprintf(s->what, sizeof(s->what), "%s", what);
	snprintf(s->origin, sizeof(s->origin), "%s", origin ? origin : "");
	snprintf(s->why, sizeof(s->why), "%s", why);
	s->not_applied = not_applied;
	return 0;
}

static int cmp_order(const void *a, const void *b)
{
	const struct plan_entry *x = a, *y = b;
	return (x->order > y->order) - (x->order < y->order);
}

void host_plan_sort(struct host_plan *pl)
{
	if (pl->n > 1)
		qsort(pl->e, (size_t)pl->n, sizeof(*pl->e), cmp_order);
}

static int skipf(struct planner *P, const struct profile_setting *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int skipf(struct planner *P, const struct profile_setting *s, const char *fmt, ...)
{
	char why[PLAN_WHY_MAX], what[PLAN_WHAT_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(what, sizeof(what), "%s=%s", s->key, s->value);
	return host_plan_add_skip(P->pl, what, s->origin, why, false, P->d);
}

static int bad(struct planner *P, const struct profile_setting *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct planner *P, const struct profile_setting *s, const char *fmt, ...)
{
	char why[PLAN_WHY_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (s->origin[0])
		return pm_fail(P->d, "%s: %s=%s: %s", s->origin, s->key, s->value, why);
	return pm_fail(P->d, "%s=%s: %s", s->key, s->value, why);
}

/* Splits "a|b|c" in place (blanks around items trimmed). */
static int split_alts(char *s, char **alts)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(s, "|", &save); t && n < MAX_ALTS;
	     t = strtok_r(NULL, "|", &save)) {
		while (isspace((unsigned char)*t))
			t++;
		size_t len = strlen(t);
		while (len && isspace((unsigned char)t[len - 1]))
			t[--len] = '\0';
		if (len)
			alts[n++] = t;
	}
	return n;
}

/* A whole decimal integer. */
static bool parse_i64(const char *s, int64_t *v)
{
	char *end;
	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

/* The `a|b|c` the profile wrote, from an origin "FILE:LINE: [cpu]
 * OPTION=a|b|c": the loader keeps one alternative, chosen for the
 * simulator, and the host must choose by what it has. Else `value`. */
static void alternatives_of(const char *origin, const char *option, const char *value,
			    char *out, size_t len)
{
	char needle[PLAN_KEY_MAX + 4];
	snprintf(needle, sizeof(needle), "] %s=", option);
	const char *s = strstr(origin, needle);
	if (s) {
		s += strlen(needle);
		size_t n = strcspn(s, " ");
		/* Unexpanded ${...} text is the loader's to resolve. */
		if (memchr(s, '|', n) && !memchr(s, '$', n)) {
			snprintf(out, len, "%.*s", (int)n, s);
			return;
		}
	}
	snprintf(out, len, "%s", value);
}

/* The cpufreq driver that runs, for messages. */
static const char *driver_name(const struct host_info *hi)
{
	return hi->npolicies && hi->pol[0].driver[0] ? hi->pol[0].driver : "none: no cpufreq";
}

static void list_text(char *out, size_t len, const char *list)
{
	snprintf(out, len, "%s", *list ? list : "none");
}

/* ---- the frequency governor and its tunables ---- */

static bool every_policy_offers(const struct host_info *hi, const char *gov)
{
	for (int i = 0; i < hi->npolicies; i++)
		if (!host_list_has(hi->pol[i].governors, gov))
			return false;
	return hi->npolicies > 0;
}

/* A module the plan loads first that registers governor gov
 * (drivers/cpufreq/cpufreq_GOV.c builds cpufreq_GOV.ko). */
static bool module_brings(const struct host_plan *pl, const char *gov)
{
	char name[PLAN_KEY_MAX];
	snprintf(name, sizeof(name), "cpufreq_%s", gov);
	for (int i = 0; i < pl->nmodules; i++)
		if (strcmp(pl->modules[i].name, name) == 0)
			return true;
	return false;
}

static int plan_governor(struct planner *P)
{
	const struct host_info *hi = P->hi;
	const struct profile *p = P->p;
	char rel[HOSTFS_PATH_MAX];
	if (hi->npolicies)
		snprintf(P->gov, sizeof(P->gov), "%s", hi->pol[0].governor);
	if (!p->cpufreq[0]) {
		P->reg = cpufreq_governor_find(P->gov);
		return 0;
	}
	struct profile_setting s = { .key = "governor" };
	snprintf(s.value, sizeof(s.value), "%s", p->cpufreq);
	snprintf(s.origin, sizeof(s.origin), "%s", p->cpufreq_origin);
	if (!hi->npolicies) {
		P->gov[0] = '\0';
		return skipf(P, &s, "no cpufreq on this machine (no policy under /%s)",
			     HOST_CPUFREQ_DIR);
	}
	char copy[PROFILE_TEXT_MAX], *alts[MAX_ALTS];
	alternatives_of(s.origin, "governor", s.value, copy, sizeof(copy));
	int n = split_alts(copy, alts);
	const char *chosen = NULL;
	for (int i = 0; i < n && !chosen; i++)
		if (every_policy_offers(hi, alts[i]) ||
		    (hi->npolicies && module_brings(P->pl, alts[i])))
			chosen = alts[i];
	if (!chosen) {
		char avail[HOST_LIST_MAX];
		list_text(avail, sizeof(avail), hi->pol[0].governors);
		return skipf(P, &s, "no such CPU governor here (available: %s; driver %s)", avail,
			     hi->pol[0].driver[0] ? hi->pol[0].driver : "unknown");
	}
	snprintf(P->gov, sizeof(P->gov), "%s", chosen);
	P->reg = cpufreq_governor_find(chosen);
	for (int i = 0; i < hi->npolicies; i++) {
		P->gov_switch |= strcmp(hi->pol[i].governor, chosen) != 0;
		host_policy_path(rel, sizeof(rel), hi->pol[i].id, "scaling_governor");
		if (host_plan_add(P->pl, PHASE_GOVERNOR, rel, chosen, "governor", s.origin, true,
				  P->d) < 0)
			return -1;
	}
	return 0;
}

static const struct tunable *gov_tunable(const struct cpufreq_governor *g, const char *key)
{
	for (int i = 0; g && i < g->ntunables; i++)
		if (strcmp(g->tunables[i].name, key) == 0)
			return &g->tunables[i];
	return NULL;
}

static int plan_gov_tunable(struct planner *P, const struct profile_setting *s,
			    const struct tunable *t)
{
	const struct host_info *hi = P->hi;
	char rel[HOSTFS_PATH_MAX];
	int64_t v;
	if (parse_i64(s->value, &v) && v == -1)
		return skipf(P, s, "-1 keeps the kernel's default");
	/* Range-check with pmlab's own tunable, as the kernel would reject. */
	void *scratch = calloc(1, P->reg->data_size ? P->reg->data_size : 1);
	if (!scratch)
		return pm_fail(P->d, "out of memory");
	struct pm_diag why;
	int r = tunables_write(P->reg->tunables, P->reg->ntunables, scratch, t->name, s->value,
			       &why);
	free(scratch);
	if (r < 0)
		return bad(P, s, "%s", why.msg);
	const char *gov = P->reg->name, *name = t->name; /* registry names, not profile text */
	bool per_policy = hi->npolicies > 0;
	for (int i = 0; i < hi->npolicies && per_policy; i++) {
		hostfs_path(rel, sizeof(rel), HOST_CPUFREQ_DIR "/policy%d/%s/%s", hi->pol[i].id, gov,
			    name);
		per_policy = hostfs_exists(P->fs, rel);
	}
	if (per_policy) {
		for (int i = 0; i < hi->npolicies; i++) {
			hostfs_path(rel, sizeof(rel), HOST_CPUFREQ_DIR "/policy%d/%s/%s",
				    hi->pol[i].id, gov, name);
			if (host_plan_add(P->pl, PHASE_GOV_TUNABLE, rel, s->value, s->key, s->origin,
					  true, P->d) < 0)
				return -1;
		}
		return 0;
	}
	hostfs_path(rel, sizeof(rel), HOST_CPUFREQ_DIR "/%s/%s", gov, name);
	bool exists = hostfs_exists(P->fs, rel);
	if (!exists && !P->gov_switch)
		return skipf(P, s, "%s has no tunable %s here", gov, name);
	if (host_plan_add(P->pl, PHASE_GOV_TUNABLE, rel, s->value, s->key, s->origin, true,
			  P->d) < 0)
		return -1;
	/* The directory appears when the governor starts and goes with it. */
	P->pl->e[P->pl->n - 1].appears = !exists;
	return 0;
}

/* ---- limits: frequencies and intel_pstate percentages ---- */

/* Writes lo and hi (either may be absent) so that lo <= hi holds after
 * each write: raise the maximum first when the new minimum is above the
 * current maximum, else lower the minimum first. */
static int ordered_pair(struct planner *P, int phase, const char *lo_path, const char *hi_path,
			int64_t lo, int64_t hi, int64_t cur_hi, const struct profile_setting *slo,
			const struct profile_setting *shi)
{
	char v[32];
	bool hi_first = slo && lo > cur_hi;
	for (int k = 0; k < 2; k++) {
		bool do_hi = (k == 0) == hi_first;
		const struct profile_setting *s = do_hi ? shi : slo;
		if (!s)
			continue;
		snprintf(v, sizeof(v), "%lld", (long long)(do_hi ? hi : lo));
		if (host_plan_add(P->pl, phase, do_hi ? hi_path : lo_path, v, s->key, s->origin,
				  false, P->d) < 0)
			return -1;
	}
	return 0;
}

static int freq_value(struct planner *P, const struct profile_setting *s,
		      const struct host_policy *pol, bool is_min, int64_t *out)
{
	int64_t v;
	if (!parse_i64(s->value, &v) || v < 0)
		return bad(P, s, "not a frequency (expected kHz, 0 for the hardware limit)");
	if (v == 0)
		v = is_min ? pol->cpuinfo_min : pol->cpuinfo_max;
	if (pol->cpuinfo_max && (v < pol->cpuinfo_min || v > pol->cpuinfo_max))
		return bad(P, s, "outside policy%d's cpuinfo_min_freq..cpuinfo_max_freq %u..%u kHz",
			   pol->id, pol->cpuinfo_min, pol->cpuinfo_max);
	*out = v;
	return 0;
}

static int plan_freqs(struct planner *P)
{
	const struct host_info *hi = P->hi;
	const struct profile_setting *smin = P->min_khz, *smax = P->max_khz;
	if (!smin && !smax)
		return 0;
	if (!hi->npolicies) {
		for (int k = 0; k < 2; k++)
			if ((k ? smax : smin) &&
			    skipf(P, k ? smax : smin, "no cpufreq on this machine") < 0)
				return -1;
		return 0;
	}
	for (int i = 0; i < hi->npolicies; i++) {
		const struct host_policy *pol = &hi->pol[i];
		int64_t lo = pol->scaling_min, up = pol->scaling_max;
		if ((smin && freq_value(P, smin, pol, true, &lo) < 0) ||
		    (smax && freq_value(P, smax, pol, false, &up) < 0))
			return -1;
		if (lo > up)
			return bad(P, smin ? smin : smax, "scaling_min_freq %lld kHz would be above "
				   "scaling_max_freq %lld kHz on policy%d", (long long)lo,
				   (long long)up, pol->id);
		char lo_path[HOSTFS_PATH_MAX], hi_path[HOSTFS_PATH_MAX];
		host_policy_path(lo_path, sizeof(lo_path), pol->id, "scaling_min_freq");
		host_policy_path(hi_path, sizeof(hi_path), pol->id, "scaling_max_freq");
		if (ordered_pair(P, PHASE_FREQ, lo_path, hi_path, lo, up, pol->scaling_max, smin,
				 smax) < 0)
			return -1;
	}
	return 0;
}

static int pct_value(struct planner *P, const struct profile_setting *s, int64_t *out)
{
	if (!parse_i64(s->value, out) || *out < 0 || *out > 100)
		return bad(P, s, "expected a percentage 0..100");
	return 0;
}

static int plan_perf_pct(struct planner *P)
{
	const struct host_info *hi = P->hi;
	const struct profile_setting *smin = P->min_pct, *smax = P->max_pct;
	int64_t lo = 0, up = 100, cur_max = 100;
	if ((smin && pct_value(P, smin, &lo) < 0) || (smax && pct_value(P, smax, &up) < 0))
		return -1;
	if (smin && !hi->has_min_perf_pct) {
		if (skipf(P, smin, "no %s here (cpufreq driver %s)", hi->intel_pstate
			  ? "intel_pstate/min_perf_pct" : "intel_pstate", driver_name(hi)) < 0)
			return -1;
		smin = NULL;
	}
	if (smax && !hi->has_max_perf_pct) {
		if (skipf(P, smax, "no %s here (cpufreq driver %s)", hi->intel_pstate
			  ? "intel_pstate/max_perf_pct" : "intel_pstate", driver_name(hi)) < 0)
			return -1;
		smax = NULL;
	}
	if (!smin && !smax)
		return 0;
	uint64_t v;
	struct pm_diag ignore;
	if (hostfs_read_u64(P->fs, HOST_PSTATE_DIR "/max_perf_pct", &v, &ignore) == 0)
		cur_max = (int64_t)v;
	if (!smax)
		up = cur_max;
	if (smin && lo > up)
		return bad(P, smin, "min_perf_pct would be above max_perf_pct %lld", (long long)up);
	return ordered_pair(P, PHASE_PERF_PCT, HOST_PSTATE_DIR "/min_perf_pct",
			    HOST_PSTATE_DIR "/max_perf_pct", lo, up, cur_max, smin, smax);
}

static int parse_bool01(const char *s)
{
	int64_t v;
	if (parse_i64(s, &v))
		return v != 0;
	if (strcmp(s, "true") == 0 || strcmp(s, "on") == 0 || strcmp(s, "yes") == 0)
		return 1;
	if (strcmp(s, "false") == 0 || strcmp(s, "off") == 0 || strcmp(s, "no") == 0)
		return 0;
	return -1;
}

static int plan_no_turbo(struct planner *P, const struct profile_setting *s)
{
	int b = parse_bool01(s->value);
	if (b < 0)
		return bad(P, s, "expected 0 or 1");
	if (!P->hi->has_no_turbo)
		return skipf(P, s, "no intel_pstate/no_turbo here (cpufreq driver %s)",
			     driver_name(P->hi));
	return host_plan_add(P->pl, PHASE_TURBO, HOST_PSTATE_DIR "/no_turbo", b ? "1" : "0",
			     s->key, s->origin, true, P->d);
}

static int plan_boost(struct planner *P, const struct profile_setting *s)
{
	const struct host_info *hi = P->hi;
	int b = parse_bool01(s->value);
	char rel[HOSTFS_PATH_MAX];
	if (b < 0)
		return bad(P, s, "expected 0 or 1");
	/* tuned writes no_turbo for boost when intel_pstate is there: its
	 * per-policy boost file, where a kernel has one, does not stop turbo. */
	if (hi->has_no_turbo) {
		if (P->no_turbo)
			return skipf(P, s, "no_turbo is set explicitly and wins");
		return host_plan_add(P->pl, PHASE_TURBO, HOST_PSTATE_DIR "/no_turbo", b ? "0" : "1",
				     s->key, s->origin, true, P->d);
	}
	bool per_policy = hi->npolicies > 0;
	for (int i = 0; i < hi->npolicies; i++)
		per_policy &= hi->pol[i].has_boost;
	if (per_policy) {
		for (int i = 0; i < hi->npolicies; i++) {
			host_policy_path(rel, sizeof(rel), hi->pol[i].id, "boost");
			if (host_plan_add(P->pl, PHASE_TURBO, rel, b ? "1" : "0", s->key, s->origin,
					  true, P->d) < 0)
				return -1;
		}
		return 0;
	}
	if (hi->global_boost)
		return host_plan_add(P->pl, PHASE_TURBO, HOST_CPUFREQ_DIR "/boost", b ? "1" : "0",
				     s->key, s->origin, true, P->d);
	return skipf(P, s, "no boost control here (no intel_pstate/no_turbo, policyN/boost or "
		     "cpufreq/boost)");
}

/* ---- hints ---- */

static int plan_epp(struct planner *P, const struct profile_setting *s)
{
	const struct host_info *hi = P->hi;
	char copy[PROFILE_TEXT_MAX], *alts[MAX_ALTS], rel[HOSTFS_PATH_MAX], num[16];
	alternatives_of(s->origin, s->key, s->value, copy, sizeof(copy));
	int n = split_alts(copy, alts);
	int with_epp = 0;
	for (int i = 0; i < n; i++) {
		int64_t v;
		if (parse_i64(alts[i], &v) && (v < 0 || v > 255))
			return bad(P, s, "EPP %lld out of range (expected 0..255 or a name)",
				   (long long)v);
	}
	for (int i = 0; i < hi->npolicies; i++) {
		const struct host_policy *pol = &hi->pol[i];
		if (!pol->has_epp)
			continue;
		with_epp++;
		bool amd = strncmp(pol->driver, "amd", 3) == 0;
		const char *chosen = NULL;
		bool check = true;
		for (int k = 0; k < n && !chosen; k++) {
			int64_t v;
			if (!parse_i64(alts[k], &v)) {
				if (host_list_has(pol->epps, alts[k]))
					chosen = alts[k];
				continue;
			}
			/* a number equal to a preset is written as its name */
			for (int w = 0; w < epp_preset_count() && !chosen; w++)
				if (epp_preset_value(w, amd) == v && host_list_has(pol->epps,
										  epp_preset_name(w)))
					chosen = epp_preset_name(w);
			/* Raw numbers: intel_pstate takes them; amd-pstate only
			 * its named presets. */
			if (!chosen && strcmp(pol->driver, "intel_pstate") == 0) {
				snprintf(num, sizeof(num), "%lld", (long long)v);
				chosen = num;
				check = false;
			}
		}
		if (!chosen) {
			char avail[HOST_LIST_MAX];
			list_text(avail, sizeof(avail), pol->epps);
			return skipf(P, s, "not offered by policy%d (available: %s)", pol->id, avail);
		}
		host_policy_path(rel, sizeof(rel), pol->id, "energy_performance_preference");
		if (host_plan_add(P->pl, PHASE_EPP, rel, chosen, s->key, s->origin, check, P->d) < 0)
			return -1;
	}
	if (!with_epp)
		return skipf(P, s, "no energy_performance_preference here (driver %s)",
			     hi->npolicies && hi->pol[0].driver[0] ? hi->pol[0].driver
								   : "none: no cpufreq");
	return 0;
}

static int plan_epb(struct planner *P, const struct profile_setting *s)
{
	const struct host_info *hi = P->hi;
	char copy[PROFILE_TEXT_MAX], *alts[MAX_ALTS], rel[HOSTFS_PATH_MAX], v[16];
	alternatives_of(s->origin, s->key, s->value, copy, sizeof(copy));
	int n = split_alts(copy, alts), epb = -1;
	for (int i = 0; i < n && epb < 0; i++) {
		int64_t x;
		if (parse_i64(alts[i], &x) && x >= 0 && x <= 15)
			epb = (int)x;
		if (epb < 0)
			epb = epb_value(alts[i]);
	}
	if (epb < 0)
		return bad(P, s, "not an energy_perf_bias (expected 0..15, performance, "
			   "balance-performance, normal, balance-power or power)");
	if (!hi->has_epb)
		return skipf(P, s, "no energy_perf_bias here (no cpuN/power/energy_perf_bias)");
	/* Numbers, as the kernel reads the file back. */
	snprintf(v, sizeof(v), "%d", epb);
	for (int i = 0; i < hi->ncpus; i++) {
		host_cpu_path(rel, sizeof(rel), hi->cpus[i], "power/energy_perf_bias");
		if (host_plan_add(P->pl, PHASE_EPB, rel, v, s->key, s->origin, true, P->d) < 0)
			return -1;
	}
	return 0;
}

/* ---- idle: PM QoS, C-states, the idle governor ---- */

static int cstate_by_name(const struct host_info *hi, const char *name)
{
	for (int i = 0; i < hi->ncstates; i++)
		if (strcmp(hi->cstates[i].name, name) == 0)
			return i;
	return -1;
}

/* tuned's force_latency forms; 1 resolved (*us, -1 for "no limit"), 0 not
 * available here (try the next), -1 not a form at all. */
static int latency_alt(const struct host_info *hi, const char *a, int64_t *us)
{
	static const char *const forms[] = { "cstate.id_no_zero:", "cstate.id:",
					     "cstate.name_no_zero:", "cstate.name:" };
	if (strcmp(a, "None") == 0 || strcmp(a, "none") == 0) {
		*us = -1;
		return 1;
	}
	if (parse_i64(a, us))
		return *us >= -1 && *us <= 2000000000 ? 1 : -1;
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		size_t len = strlen(forms[f]);
		if (strncmp(a, forms[f], len) != 0)
			continue;
		const char *arg = a + len;
		int st = -1;
		int64_t id;
		if (f < 2) {
			if (!parse_i64(arg, &id) || id < 0)
				return -1;
			st = id < hi->ncstates ? (int)id : -1;
		} else {
			st = cstate_by_name(hi, arg);
		}
		if (st < 0)
			return 0;
		bool no_zero = strstr(forms[f], "no_zero") != NULL;
		if (no_zero && hi->cstates[st].latency_us == 0)
			return 0;
		*us = (int64_t)hi->cstates[st].latency_us;
		return 1;
	}
	return -1;
}

static int plan_latency(struct planner *P, const struct profile_setting *s)
{
	char copy[sizeof(s->value)], *alts[MAX_ALTS];
	snprintf(copy, sizeof(copy), "%s", s->value);
	int n = split_alts(copy, alts);
	int64_t us = -1;
	int found = 0;
	for (int i = 0; i < n && !found; i++) {
		found = latency_alt(P->hi, alts[i], &us);
		if (found < 0)
			return bad(P, s, "'%s' is not a latency (expected microseconds, -1 or None, "
				   "cstate.id:N, cstate.name:NAME or their _no_zero forms)", alts[i]);
	}
	if (!found)
		return skipf(P, s, "no such C-state here (%d cpuidle states)", P->hi->ncstates);
	if (us < 0)
		return skipf(P, s, "no latency limit asked for");
	if (!P->hi->has_dma_latency)
		return skipf(P, s, "no /%s here", HOST_DMA_LATENCY);
	P->pl->latency_us = us;
	snprintf(P->pl->latency_origin, sizeof(P->pl->latency_origin), "%s", s->origin);
	return 0;
}

static int plan_resume_latency(struct planner *P, const struct profile_setting *s)
{
	const struct host_info *hi = P->hi;
	char rel[HOSTFS_PATH_MAX], v[32];
	int64_t x;
	/* pmlab's -1 (no limit) is the kernel's 0; pmlab's 0 (no idle state)
	 * is the kernel's "n/a". */
	if (strcmp(s->value, "n/a") == 0)
		snprintf(v, sizeof(v), "n/a");
	else if (!parse_i64(s->value, &x) || x < -1 || x > 2000000000)
		return bad(P, s, "expected microseconds, -1 for no limit or 0 (n/a) for no idle state");
	else if (x == -1)
		snprintf(v, sizeof(v), "0");
	else if (x == 0)
		snprintf(v, sizeof(v), "n/a");
	else
		snprintf(v, sizeof(v), "%lld", (long long)x);
	if (!hi->has_resume_latency)
		return skipf(P, s, "no cpuN/power/pm_qos_resume_latency_us here");
	for (int i = 0; i < hi->ncpus; i++) {
		host_cpu_path(rel, sizeof(rel), hi->cpus[i], "power/pm_qos_resume_latency_us");
		if (host_plan_add(P->pl, PHASE_RESUME_LATENCY, rel, v, s->key, s->origin, true,
				  P->d) < 0)
			return -1;
	}
	return 0;
}

static int plan_cstate_disable(struct planner *P, const struct profile_setting *s)
{
	const struct host_info *hi = P->hi;
	char copy[sizeof(s->value)], rel[HOSTFS_PATH_MAX];
	snprintf(copy, sizeof(copy), "%s", s->value);
	if (!hi->ncstates)
		return skipf(P, s, "no cpuidle states here (driver %s)",
			     hi->idle_driver[0] ? hi->idle_driver : "none");
	for (char *save = NULL, *name = strtok_r(copy, ", ", &save); name;
	     name = strtok_r(NULL, ", ", &save)) {
		int st = cstate_by_name(hi, name);
		if (st < 0) {
			char names[256] = "";
			for (int i = 0; i < hi->ncstates; i++) {
				size_t used = strlen(names);
				snprintf(names + used, sizeof(names) - used, "%s%s", i ? " " : "",
					 hi->cstates[i].name);
			}
			if (skipf(P, s, "no C-state %s here (states: %s)", name, names) < 0)
				return -1;
			continue;
		}
		for (int i = 0; i < hi->ncpus; i++) {
			host_cstate_path(rel, sizeof(rel), hi->cpus[i], st, "disable");
			if (!hostfs_exists(P->fs, rel)) {
				if (skipf(P, s, "cpu%d has no state%d/disable", hi->cpus[i], st) < 0)
					return -1;
				continue;
			}
			if (host_plan_add(P->pl, PHASE_CSTATE, rel, "1", s->key, s->origin, true,
					  P->d) < 0)
				return -1;
		}
	}
	return 0;
}

static int plan_idle_governor(struct planner *P, const struct profile_setting *s)
{
	const struct host_info *hi = P->hi;
	char copy[sizeof(s->value)], *alts[MAX_ALTS];
	snprintf(copy, sizeof(copy), "%s", s->value);
	int n = split_alts(copy, alts);
	if (!hi->has_idle_governor)
		return skipf(P, s, "no cpuidle/current_governor here");
	for (int i = 0; i < n; i++)
		if (host_list_has(hi->idle_governors, alts[i]))
			return host_plan_add(P->pl, PHASE_IDLE_GOV, HOST_CPUIDLE_DIR "/current_governor",
					     alts[i], "cpuidle", s->origin, true, P->d);
	char avail[HOST_LIST_MAX];
	list_text(avail, sizeof(avail), hi->idle_governors);
	return skipf(P, s, "no such idle governor here (available: %s)", avail);
}

static int plan_sched(struct planner *P, const struct profile_setting *s, size_t k)
{
	int64_t v;
	if (!parse_i64(s->value, &v) || v < 0)
		return bad(P, s, "expected a whole number");
	if (v == 0 && sched_keys[k].zero_is_default)
		return skipf(P, s, "0 keeps the kernel's default");
	for (int i = 0; i < 3 && sched_keys[k].paths[i]; i++)
		if (hostfs_exists(P->fs, sched_keys[k].paths[i]))
			return host_plan_add(P->pl, PHASE_SCHED, sched_keys[k].paths[i], s->value,
					     s->key, s->origin, true, P->d);
	return skipf(P, s, "no such scheduler tunable on this kernel (or debugfs not mounted)");
}

/* [acpi] platform_profile=a|b: the first the firmware offers. */
static int plan_platform_profile(struct planner *P, const struct profile_setting *s)
{
	const struct host_info *hi = P->hi;
	char copy[sizeof(s->value)], *alts[MAX_ALTS];
	snprintf(copy, sizeof(copy), "%s", s->value);
	int n = split_alts(copy, alts);
	if (!hi->has_platform_profile)
		return skipf(P, s, "no ACPI platform profile here (no /%s)", HOST_PLATFORM_PROFILE);
	for (int i = 0; i < n; i++)
		if (host_list_has(hi->platform_profile_choices, alts[i]))
			return host_plan_add(P->pl, PHASE_PLATFORM, HOST_PLATFORM_PROFILE, alts[i],
					     s->key, s->origin, true, P->d);
	char avail[HOST_LIST_MAX];
	list_text(avail, sizeof(avail), hi->platform_profile_choices);
	return skipf(P, s, "not offered by the firmware (platform_profile_choices: %s)", avail);
}

/* [modules] NAME=+r: loaded with modprobe before the writes unless it is
 * loaded (tuned reloads it; for a governor in use that changes nothing).
 * Options other than +r go to /etc/modprobe.d/tuned.conf under tuned,
 * a file pmlab does not write. */
static int plan_module(struct planner *P, const struct profile_setting *s)
{
	const char *name = s->key + 7;
	const char *opts = s->value;
	while (*opts == ' ')
		opts++;
	if (strncmp(opts, "+r", 2) == 0) {
		opts += 2;
		while (*opts == ' ' || *opts == ',')
			opts++;
	}
	if (*opts && skipf(P, s, "module options '%s': tuned writes them to "
			   "/etc/modprobe.d/tuned.conf, pmlab does not", opts) < 0)
		return -1;
	if (host_module_loaded(P->fs, name))
		return skipf(P, s, "module %s is loaded already", name);
	int known = host_module_known(P->fs, P->hi, name);
	if (known == 0)
		return skipf(P, s, "no module %s in lib/modules/%s (tuned's modinfo check fails too)",
			     name, P->hi->osrelease);
	if (known < 0)
		return skipf(P, s, "cannot tell whether module %s exists (no lib/modules/%s/"
			     "modules.dep)", name, P->hi->osrelease[0] ? P->hi->osrelease : "RELEASE");
	if (P->pl->nmodules == PLAN_MAX_MODULES)
		return bad(P, s, "more than %d modules", PLAN_MAX_MODULES);
	struct plan_module *m = &P->pl->modules[P->pl->nmodules++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->origin, sizeof(m->origin), "%s", s->origin);
	return 0;
}

/* tuned's dynamic PM QoS, "LOW,HIGH,THRESHOLD": the request it makes at
 * the load average now; pmlab daemon follows the load from there. */
static int plan_dynamic_latency(struct planner *P, const struct profile_setting *s)
{
	long long low, high;
	double th;
	int used = 0;
	if (sscanf(s->value, "%lld,%lld,%lf%n", &low, &high, &th, &used) != 3 ||
	    s->value[used] || low < 0 || high < 0 || low > 2000000000 || high > 2000000000 ||
	    !(th >= 0 && th <= 1e6))
		return bad(P, s, "expected LOW_US,HIGH_US,LOAD_THRESHOLD");
	if (!P->hi->has_dma_latency)
		return skipf(P, s, "no /%s here", HOST_DMA_LATENCY);
	struct host_plan *pl = P->pl;
	pl->dyn_low_us = low;
	pl->dyn_high_us = high;
	pl->dyn_threshold_milli = (int64_t)(th * 1000.0 + 0.5);
	double load = -1;
	/* unreadable: as if loaded, the stricter limit */
	pl->load = host_loadavg(P->fs, &load) == 0 ? load : -1;
	pl->latency_us = pl->load < 0 ? low : host_dynamic_latency(low, high,
								   pl->dyn_threshold_milli, load);
	snprintf(pl->latency_origin, sizeof(pl->latency_origin), "%s", s->origin);
	return 0;
}

static int plan_setting(struct planner *P, const struct profile_setting *s)
{
	const char *k = s->key;
	if (strcmp(k, "pm_qos_latency_us") == 0)
		return plan_latency(P, s);
	if (strcmp(k, "scaling_min_khz") == 0 || strcmp(k, "scaling_max_khz") == 0 ||
	    strcmp(k, "min_perf_pct") == 0 || strcmp(k, "max_perf_pct") == 0)
		return 0; /* in pairs, after the loop */
	if (strcmp(k, "boost") == 0)
		return plan_boost(P, s);
	if (strcmp(k, "no_turbo") == 0)
		return plan_no_turbo(P, s);
	if (strcmp(k, "energy_performance_preference") == 0)
		return plan_epp(P, s);
	if (strcmp(k, "energy_perf_bias") == 0)
		return plan_epb(P, s);
	if (strcmp(k, "pm_qos_resume_latency_us") == 0)
		return plan_resume_latency(P, s);
	if (strcmp(k, "cstate_disable") == 0)
		return plan_cstate_disable(P, s);
	if (strcmp(k, "cpuidle") == 0 || strcmp(k, "cpuidle_governor") == 0)
		return plan_idle_governor(P, s);
	if (strcmp(k, "platform_profile") == 0)
		return plan_platform_profile(P, s);
	if (strcmp(k, "pm_qos_dynamic") == 0)
		return plan_dynamic_latency(P, s);
	if (strncmp(k, "module.", 7) == 0)
		return 0; /* before the governor, in host_plan_build() */
	if (strcmp(k, "scaling_governor") == 0)
		return skipf(P, s, "the governor comes from the profile's governor=");
	for (size_t i = 0; i < sizeof(sched_keys) / sizeof(sched_keys[0]); i++)
		if (strcmp(k, sched_keys[i].key) == 0)
			return plan_sched(P, s, i);
	for (size_t i = 0; i < sizeof(sim_only) / sizeof(sim_only[0]); i++)
		if (strcmp(k, sim_only[i]) == 0)
			return skipf(P, s, "simulator-only: no kernel interface");
	const struct tunable *t = gov_tunable(P->reg, k);
	if (t)
		return plan_gov_tunable(P, s, t);
	if (!P->gov[0])
		return skipf(P, s, "not a host setting (no cpufreq governor here to own it)");
	return skipf(P, s, "not a host setting (nor a tunable of %s)", P->gov);
}

int host_plan_build(struct host_plan *pl, const struct hostfs *fs, const struct host_info *hi,
		    const struct profile *p, struct pm_diag *d)
{
	struct planner P = { .pl = pl, .fs = fs, .hi = hi, .p = p, .d = d };
	for (int i = 0; i < p->nsettings; i++) {
		const struct profile_setting *s = &p->settings[i];
		if (strcmp(s->key, "scaling_min_khz") == 0)
			P.min_khz = s;
		else if (strcmp(s->key, "scaling_max_khz") == 0)
			P.max_khz = s;
		else if (strcmp(s->key, "min_perf_pct") == 0)
			P.min_pct = s;
		else if (strcmp(s->key, "max_perf_pct") == 0)
			P.max_pct = s;
		else if (strcmp(s->key, "no_turbo") == 0)
			P.no_turbo = s;
	}
	for (int i = 0; i < p->nsettings; i++)
		if (strncmp(p->settings[i].key, "module.", 7) == 0 &&
		    plan_module(&P, &p->settings[i]) < 0)
			return -1;
	if (plan_governor(&P) < 0)
		return -1;
	for (int i = 0; i < p->nsettings; i++)
		if (plan_setting(&P, &p->settings[i]) < 0)
			return -1;
	if (plan_freqs(&P) < 0 || plan_perf_pct(&P) < 0)
		return -1;
	for (int i = 0; i < p->nskipped; i++) {
		const struct profile_skip *s = &p->skipped[i];
		if (host_plan_add_skip(pl, s->what, s->origin, s->why, true, d) < 0)
			return -1;
	}
	host_plan_sort(pl);
	return 0;
}
