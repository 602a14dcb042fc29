// SPDX-License-Identifier: GPL-2.0-only
/* tuned's [cpu] plugin: the governor, its tunables, intel_pstate's
 * options, EPB/EPP and the latency options.
 *
 * The cpufreq driver. pmlab models acpi-cpufreq unless the governor that
 * runs is "intel_pstate" (a profile naming it, or the caller running it,
 * e.g. pmlab sim --cpufreq intel_pstate). Under acpi-cpufreq the generic
 * governors are available, so governor=powersave is cpufreq_powersave, and
 * the intel_pstate-only options (min_perf_pct, max_perf_pct, no_turbo,
 * energy_performance_preference) are skipped as tuned skips them when
 * /sys/devices/system/cpu/intel_pstate is absent; energy_perf_bias is
 * skipped too (pmlab keeps EPB only in intel_pstate, where it has no
 * modelled effect). Under intel_pstate, governor=a|b picks the first of
 * the driver's two policies, performance or powersave (its
 * scaling_governor), and those options become intel_pstate tunables.
 * Under amd_pstate (amd-pstate-epp) likewise for the policy and EPP (its
 * AMD values); EPB does not exist on AMD processors and intel_pstate's
 * files are skipped as tuned skips them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/tunable.h"
#include "../cpufreq/cpufreq.h"
#include "../cpufreq/energy_hints.h"
#include "profile_map.h"

/* tuned's plugin_cpu options; the meta options every plugin has. */
static const char *const cpu_options[] = {
	"governor", "sampling_down_factor", "energy_perf_bias", "energy_performance_preference",
	"min_perf_pct", "max_perf_pct", "no_turbo", "boost", "force_latency",
	"pm_qos_resume_latency_us", "load_threshold", "latency_low", "latency_high", NULL,
};
const char pf_cpu_options_text[] = "governor, sampling_down_factor, energy_perf_bias, "
	"energy_performance_preference, min_perf_pct, max_perf_pct, no_turbo, boost, "
	"force_latency, pm_qos_resume_latency_us, load_threshold, latency_low, latency_high";

bool pf_cpu_option_known(const char *key)
{
	return pfm_in_list(cpu_options, key);
}

/* Splits "a|b|c" into trimmed alternatives; false if one is empty. */
static bool alternatives(const char *value, char *copy, size_t len, char **alts, int *n, int max)
{
	*n = 0;
	snprintf(copy, len, "%s", value);
	char *s = copy;
	for (;;) {
		char *bar = strchr(s, '|');
		if (bar)
			*bar = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		size_t l = strlen(s);
		while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
			s[--l] = '\0';
		if (!l || *n == max)
			return false;
		alts[(*n)++] = s;
		if (!bar)
			return true;
		s = bar + 1;
	}
}

/* Picks the governor before the other options, which depend on it. */
int pfm_governor(struct map *m)
{
	const struct profile_env *env = m->L->env;
	const char *caller = env && env->cpufreq ? env->cpufreq : "performance";
	const struct pf_opt *o = NULL;
	char value[VALUE_MAX], copy[VALUE_MAX];
	char *alts[32];
	int n;

	m->gov = cpufreq_governor_find(caller);
	m->amd = m->gov && strcmp(m->gov->name, "amd_pstate") == 0;
	m->pstate = cpufreq_governor_find(m->amd ? "amd_pstate" : "intel_pstate");
	if (env && env->cpufreq_fixed)
		snprintf(m->p->cpufreq, sizeof(m->p->cpufreq), "%s", caller);
	for (int i = 0; m->cpu && i < m->cpu->u->nopts; i++)
		if (strcmp(m->cpu->u->opts[i].key, "governor") == 0)
			o = &m->cpu->u->opts[i];
	m->gov_opt = o;
	m->intel = m->gov && strcmp(m->gov->name, "intel_pstate") == 0;
	if (!o)
		return 0;
	if (pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	if (!alternatives(value, copy, sizeof(copy), alts, &n, 32))
		return pfm_bad(m, m->cpu, o, "empty governor name (expected NAME[|NAME...], e.g. "
			   "governor=ondemand|powersave)");
	if (pf_devices_matched(m->cpu->devices ? m->cpu->devices->value : "*",
			       m->L->m->online_cpus) < m->L->m->online_cpus)
		return 0; /* listed with the other per-CPU options */
	char orig[PROFILE_TEXT_MAX * 2];
	if (env && env->cpufreq_fixed && (m->intel || m->amd)) {
		/* intel_pstate and amd-pstate-epp in active mode offer two
		 * policies under these names. */
		for (int i = 0; i < n; i++)
			if (strcmp(alts[i], "performance") == 0 || strcmp(alts[i], "powersave") == 0) {
				pfm_origin(m->cpu, o, NULL, orig, sizeof(orig));
				pf_fmt(m->p->cpufreq_origin, sizeof(m->p->cpufreq_origin), "%s", orig);
				m->gov_applied = true;
				return pf_add_setting(m->p, "scaling_governor", alts[i], orig, m->d);
			}
		return 0;
	}
	if (env && env->cpufreq_fixed)
		return 0;
	for (int i = 0; i < n; i++) {
		const struct cpufreq_governor *g = cpufreq_governor_find(alts[i]);
		if (!g)
			continue;
		m->gov = g;
		m->intel = strcmp(g->name, "intel_pstate") == 0;
		m->amd = strcmp(g->name, "amd_pstate") == 0;
		m->pstate = cpufreq_governor_find(m->amd ? "amd_pstate" : "intel_pstate");
		snprintf(m->p->cpufreq, sizeof(m->p->cpufreq), "%s", g->name);
		pfm_origin(m->cpu, o, NULL, orig, sizeof(orig));
		pf_fmt(m->p->cpufreq_origin, sizeof(m->p->cpufreq_origin), "%s", orig);
		m->gov_applied = true;
		return 0;
	}
	/* A profile line naming only governors pmlab lacks is skipped, as tuned
	 * skips one the kernel lacks; but a governor the user typed as an
	 * override is meant to run, so naming none pmlab has is an error. */
	if (o->file && strcmp(o->file, PF_OVERRIDE_FILE) == 0)
		return pfm_bad(m, m->cpu, o, "no such governor (expected one of pmlab's: see pmlab "
			   "governors)");
	return 0;
}

static int cpu_governor_skip(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	const struct profile_env *env = m->L->env;
	if (o == m->gov_opt && m->gov_applied)
		return 0; /* it chose the governor (or intel_pstate's policy): p->cpufreq says so */
	if (env && env->cpufreq_fixed && (m->intel || m->amd))
		return pfm_skip(m, in, o, "%s offers only its performance and powersave "
				"policies", m->driver);
	if (env && env->cpufreq_fixed)
		return pfm_skip(m, in, o, "the run uses cpufreq %s (chosen by the caller)", m->p->cpufreq);
	return pfm_skip(m, in, o, "no alternative is a pmlab governor (see pmlab governors); the "
		    "caller's governor runs");
}

/* The first alternative intel_pstate's tunable takes; for EPP only names,
 * as tuned checks energy_performance_available_preferences. */
static int pick(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		const char *value, const char **chosen, char *buf, size_t len)
{
	char copy[VALUE_MAX], why[256];
	char *alts[32];
	int n;
	bool epp = strcmp(o->key, "energy_performance_preference") == 0;
	const struct tunable *t = pfm_gov_tunable(m->pstate, o->key);

	if (!alternatives(value, copy, sizeof(copy), alts, &n, 32))
		return pfm_bad(m, in, o, "empty alternative (expected VALUE[|VALUE...])");
	for (int i = 0; i < n; i++) {
		int64_t v;
		const char *a = epp ? alts[i] : epb_kernel_name(alts[i]);
		if (epp && parse_int64(a, &v) == 0)
			continue;
		if (t && pfm_check(t, a, &v, why, sizeof(why)) == 0) {
			snprintf(buf, len, "%s", a);
			*chosen = buf;
			return 0;
		}
	}
	return pfm_bad(m, in, o, "no alternative is valid (expected %s)",
		   epp ? "performance|balance_performance|balance_power|power|default"
		       : "performance|balance-performance|normal|balance-power|power|powersave or 0..15");
}

/* amd-pstate-epp under its performance policy (the profile's, or the
 * platform's on a server) takes EPP performance (0) only. */
static bool amd_epp_refused(const struct map *m, const char *epp)
{
	const char *policy = NULL;
	for (int i = 0; i < m->p->nsettings; i++)
		if (strcmp(m->p->settings[i].key, "scaling_governor") == 0)
			policy = m->p->settings[i].value;
	bool performance = policy ? strcmp(policy, "performance") == 0
				  : machine_pm_profile_server(m->L->m->pm_profile);
	return performance && strcmp(epp, "performance") != 0 && strcmp(epp, "0") != 0;
}

static int cpu_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		      bool per_cpu_ok, int matched)
{
	const char *k = o->key;
	char value[VALUE_MAX], buf[64];
	const char *chosen;
	int ncpus = m->L->m->online_cpus;
	static const char *const per_cpu[] = { "governor", "sampling_down_factor",
		"energy_perf_bias", "energy_performance_preference", "boost",
		"pm_qos_resume_latency_us", NULL };

	if (!pf_cpu_option_known(k))
		return pfm_unknown(m, in, o, pf_cpu_options_text);
	if (pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	if (pfm_in_list(per_cpu, k) && !per_cpu_ok) {
		if (strcmp(k, "governor") == 0) {
			char copy[VALUE_MAX];
			char *alts[32];
			int n;
			if (!alternatives(value, copy, sizeof(copy), alts, &n, 32))
				return pfm_bad(m, in, o, "empty governor name (expected NAME[|NAME...])");
		}
		return pfm_skip(m, in, o, "devices=%s covers %d of %d CPUs; pmlab's settings apply to "
			    "every CPU", in->devices->value, matched, ncpus);
	}
	if (strcmp(k, "governor") == 0)
		return cpu_governor_skip(m, in, o);
	if (strcmp(k, "force_latency") == 0)
		return pfm_force_latency(m, in, o, value);
	if (strcmp(k, "pm_qos_resume_latency_us") == 0)
		return pfm_resume_latency(m, in, o, value);
	if (strcmp(k, "boost") == 0 && m->L->tuned_version < 224)
		return pfm_skip(m, in, o, "tuned %d.%d has no [cpu] boost (2.24 added it)",
				m->L->tuned_version / 100, m->L->tuned_version % 100);
	if (strcmp(k, "boost") == 0) {
		if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
			return pfm_bad(m, in, o, "not 0 or 1 (expected boost=0|1)");
		return pfm_set_knob(m, in, o, pfm_engine_tunable("boost"), value, NULL);
	}
	if (strcmp(k, "sampling_down_factor") == 0) {
		const struct tunable *t = pfm_gov_tunable(m->gov, k);
		int64_t v;
		if (!t)
			return parse_int64(value, &v) || v < 1
				? pfm_bad(m, in, o, "not a positive integer (expected e.g. 100)")
				: pfm_skip(m, in, o, "the governor %s has no sampling_down_factor",
				       m->gov ? m->gov->name : "(unknown)");
		return pfm_set_knob(m, in, o, t, value, NULL);
	}
	if (strcmp(k, "energy_perf_bias") == 0 || strcmp(k, "energy_performance_preference") == 0) {
		bool epb = strcmp(k, "energy_perf_bias") == 0;
		if (m->amd && epb)
			return pfm_skip(m, in, o, "AMD processors have no energy_perf_bias "
					"(IA32_ENERGY_PERF_BIAS is Intel's); the cpufreq driver modelled "
					"here is %s", m->driver);
		if (pick(m, in, o, value, &chosen, buf, sizeof(buf)))
			return -1;
		/* x86_energy_perf_policy writes the MSR whatever the driver
		 * (tuned 2.3 on): the hardware's bias (engine/epb.c). */
		if (!m->intel && epb)
			return pfm_set_knob(m, in, o, pfm_engine_tunable(k), chosen, NULL);
		if (!m->intel && !m->amd)
			return pfm_skip(m, in, o, "%s", m->why_no_pstate);
		if (m->amd && amd_epp_refused(m, chosen))
			return pfm_skip(m, in, o, "amd-pstate refuses an EPP above 0 under its "
					"performance policy (EBUSY; amd_pstate_set_energy_pref_index(), "
					"v6.15): tuned's write fails");
		return pfm_set_knob(m, in, o, pfm_gov_tunable(m->pstate, k), chosen, NULL);
	}
	if (strcmp(k, "no_turbo") == 0) {
		/* tuned 2.25+ reads it with get_bool(); 2.20 wrote "true" as it
		 * is, which intel_pstate's store_no_turbo() refuses (EINVAL).
		 * pmlab writes what the word means. */
		int b = pf_bool(value);
		if (b < 0)
			return pfm_bad(m, in, o, "not a boolean (expected 1|0, true|false, yes|no, "
				       "y|n, t|f, on|off)");
		if (!m->intel)
			return pfm_skip(m, in, o, "%s", m->why_no_pstate);
		return pfm_set_knob(m, in, o, pfm_gov_tunable(m->pstate, k), b ? "1" : "0", NULL);
	}
	if (strcmp(k, "min_perf_pct") == 0 || strcmp(k, "max_perf_pct") == 0) {
		const struct tunable *t = pfm_gov_tunable(m->pstate, k);
		int64_t v;
		char why[256];
		if (t && pfm_check(t, value[0] == '>' || value[0] == '<' ? value + 1 : value, &v, why,
			       sizeof(why)))
			return pfm_bad(m, in, o, "%s", why);
		if (!m->intel)
			return pfm_skip(m, in, o, "%s", m->why_no_pstate);
		return pfm_set_knob(m, in, o, t, value, NULL);
	}
	/* load_threshold, latency_low, latency_high */
	if (m->dynamic)
		return 0; /* in the pm_qos_dynamic setting (dynamic_latency()) */
	if (!pfm_dynamic_tuning(m->L)) {
		if (m->L->dynamic_from[0])
			return pfm_skip(m, in, o, "dynamic tuning is off (dynamic_tuning = 0, %s)",
					m->L->dynamic_from);
		return pfm_skip(m, in, o, "tuned %d.%d does no dynamic tuning by default "
				"(dynamic_tuning = 0 in tuned-main.conf from 2.22)",
				m->L->tuned_version / 100, m->L->tuned_version % 100);
	}
	return pfm_skip(m, in, o, "the latency is static: force_latency or "
			"pm_qos_resume_latency_us is set");
}

bool pfm_dynamic_tuning(const struct pf_load *L)
{
	return L->dynamic_tuning >= 0 ? L->dynamic_tuning != 0 : L->tuned_version < 222;
}

static const struct pf_opt *own_opt(const struct pf_inst *in, const char *key)
{
	for (int i = 0; i < in->u->nopts; i++)
		if (strcmp(in->u->opts[i].key, key) == 0)
			return &in->u->opts[i];
	return NULL;
}

/* tuned before 2.22 runs dynamic tuning (dynamic_tuning = 1 in
 * tuned-main.conf), and plugin_cpu.py's first instance, when it has
 * neither force_latency nor pm_qos_resume_latency_us, sets the PM QoS
 * limit from the 1-minute load average (/proc/loadavg) every
 * update_interval (10 s): latency_high (1000 us) below load_threshold
 * (0.2), latency_low (100 us) at or above it. tuned 2.3 (v2.3.0
 * plugins/plugin_cpu.py _instance_update_dynamic()) and 2.20 alike; 2.22
 * turned dynamic_tuning off in tuned-main.conf, and tuned's own spec file
 * turned it off for RHEL builds from the start (v2.3.0 tuned.spec: "%if
 * 0%{?rhel}" sed dynamic_tuning to 0): a tuned-main.conf beside the
 * profile's family directory, or NAME:dynamic_tuning=0|1, says which. The
 * host backend holds the limit (pmlab daemon re-evaluates it); the
 * simulator runs it on its own load average (engine/pmqos_dynamic.c). */
static int dynamic_latency(struct map *m, const struct pf_inst *in)
{
	static const char *const keys[] = { "latency_low", "latency_high", "load_threshold" };
	static const char *const defaults[] = { "100", "1000", "0.2" };
	char value[3][VALUE_MAX], how[3][96], text[VALUE_MAX], orig[PROFILE_TEXT_MAX * 2];
	int64_t us[2];

	for (int k = 0; k < 3; k++) {
		const struct pf_opt *o = own_opt(in, keys[k]);
		if (!o) {
			snprintf(value[k], sizeof(value[k]), "%s", defaults[k]);
			snprintf(how[k], sizeof(how[k]), "%s (default)", defaults[k]);
			continue;
		}
		if (pf_expand(m->L, o, value[k], sizeof(value[k])))
			return -1;
		if (k < 2 && pfm_latency_us(m, in, o, value[k], &us[k], how[k], sizeof(how[k])))
			return -1;
		if (k == 2) {
			char *end;
			double t = strtod(value[k], &end);
			if (end == value[k] || *end || !(t >= 0 && t <= 1e6))
				return pfm_bad(m, in, o, "not a load average (expected e.g. 0.2)");
			pf_fmt(how[k], sizeof(how[k]), "%s", value[k]);
		}
		if (k < 2)
			snprintf(value[k], sizeof(value[k]), "%" PRId64, us[k]);
	}
	pf_fmt(text, sizeof(text), "%s,%s,%s", value[0], value[1], value[2]);
	pf_fmt(orig, sizeof(orig), "%s:%d: [%s] dynamic PM QoS of tuned %d.%d (no force_latency): "
	       "latency_low=%s latency_high=%s load_threshold=%s", in->u->file, in->u->line,
	       in->u->name, m->L->tuned_version / 100, m->L->tuned_version % 100, how[0], how[1],
	       how[2]);
	return pf_add_setting(m->p, "pm_qos_dynamic", text, orig, m->d);
}

int pfm_cpu_instance(struct map *m, const struct pf_inst *in)
{
	int ncpus = m->L->m->online_cpus;
	int matched = pf_devices_matched(in->devices ? in->devices->value : "*", ncpus);
	char where[PROFILE_TEXT_MAX];

	if (in == m->cpu)
		m->dynamic = pfm_dynamic_tuning(m->L) && !own_opt(in, "force_latency") &&
			     !own_opt(in, "pm_qos_resume_latency_us");
	for (int i = 0; i < in->u->nopts; i++) {
		const struct pf_opt *o = &in->u->opts[i];
		if (pfm_in_list(pfm_meta_options, o->key)) {
			if (strcmp(o->key, "script_pre") == 0 || strcmp(o->key, "script_post") == 0 ||
			    strcmp(o->key, "devices_udev_regex") == 0)
				if (pfm_skip(m, in, o, "not modelled"))
					return -1;
			continue;
		}
		if (!in->enabled) {
			if (!pf_cpu_option_known(o->key))
				return pfm_unknown(m, in, o, pf_cpu_options_text);
			if (pfm_skip(m, in, o, "instance disabled: %s", in->why_off))
				return -1;
			continue;
		}
		if (in != m->cpu) {
			if (!pf_cpu_option_known(o->key))
				return pfm_unknown(m, in, o, pf_cpu_options_text);
			snprintf(where, sizeof(where), "%s:%d", m->cpu->u->file, m->cpu->u->line);
			if (pfm_skip(m, in, o, "a second cpu instance: tuned gives the CPUs and the "
				 "latency to the first, [%s] at %s", m->cpu->u->name, where))
				return -1;
			continue;
		}
		if (cpu_option(m, in, o, matched == ncpus, matched))
			return -1;
	}
	if (in == m->cpu && m->dynamic)
		return dynamic_latency(m, in);
	if (in == m->cpu && !pfm_dynamic_tuning(m->L) && !own_opt(in, "force_latency") &&
	    !own_opt(in, "pm_qos_resume_latency_us") && m->L->dynamic_from[0]) {
		char what[128], origin[PROFILE_TEXT_MAX], why[128];
		pf_fmt(what, sizeof(what), "[%s] dynamic PM QoS (no force_latency)", in->u->name);
		pf_fmt(origin, sizeof(origin), "%s:%d", in->u->file, in->u->line);
		pf_fmt(why, sizeof(why), "dynamic tuning is off (dynamic_tuning = 0, %s)",
		       m->L->dynamic_from);
		return pf_add_skip(m->p, what, origin, why, m->d);
	}
	return 0;
}
