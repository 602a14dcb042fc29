// SPDX-License-Identifier: GPL-2.0-only
/* What matters to CPU power, mapped onto pmlab: the enabled plugin
 * instances of a resolved profile become a governor and --set settings;
 * everything else is listed with the reason it is not applied.
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
 *
 * Latency. force_latency (/dev/cpu_dma_latency) -> pm_qos_latency_us;
 * cstate.id:N reads Linux's cpuidle stateN. A machine whose first C-state
 * polls (POLL on the x86 presets, snooze on POWER) lists Linux's state0,
 * so stateN is its C-state N; on a machine file without one, state0 is an
 * implicit POLL of 0 us (x86 always has it) and stateN its N-th C-state.
 * The latency is the state's exit latency in us. pm_qos_resume_latency_us
 * keeps the kernel's sysfs meaning: "n/a" is no C-state (engine 0), 0 is
 * no constraint (engine -1).
 *
 * Modifiers. ">N" and "<N" (tuned 2.4+) set N only if it is greater or
 * smaller than the current value; on a simulated machine the current
 * value is what an earlier line of the profile set, else pmlab's default
 * for that knob on this machine (the CFS defaults scaled by CPUs as the
 * kernel does, see engine/sim.c). */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/tunable.h"
#include "../cpufreq/cpufreq.h"
#include "../engine/sim.h"
#include "profile_internal.h"

#define VALUE_MAX 1024
#define WHY_ACPI "intel_pstate only; the cpufreq driver modelled here is acpi-cpufreq"

/* tuned's plugin_cpu options; the meta options every plugin has. */
static const char *const cpu_options[] = {
	"governor", "sampling_down_factor", "energy_perf_bias", "energy_performance_preference",
	"min_perf_pct", "max_perf_pct", "no_turbo", "boost", "force_latency",
	"pm_qos_resume_latency_us", "load_threshold", "latency_low", "latency_high", NULL,
};
const char pf_cpu_options_text[] = "governor, sampling_down_factor, energy_perf_bias, "
	"energy_performance_preference, min_perf_pct, max_perf_pct, no_turbo, boost, "
	"force_latency, pm_qos_resume_latency_us, load_threshold, latency_low, latency_high";
static const char *const meta_options[] = {
	"type", "priority", "enabled", "devices", "devices_udev_regex", "cpuinfo_regex",
	"uname_regex", "script_pre", "script_post", NULL,
};
static const char *const sched_options[] = {
	"sched_min_granularity_ns", "sched_latency_ns", "sched_wakeup_granularity_ns",
	"sched_migration_cost_ns", "sched_mc_power_savings", "sched_tunable_scaling",
	"sched_nr_migrate", "numa_balancing_scan_delay_ms", "numa_balancing_scan_period_min_ms",
	"numa_balancing_scan_period_max_ms", "numa_balancing_scan_size_mb", "isolated_cores",
	"cgroup_mount_point", "cgroup_mount_point_init", "cgroup_groups_init",
	"cgroup_for_isolated_cores", "cgroup_ps_blacklist", "ps_whitelist", "ps_blacklist",
	"irq_process", "default_irq_smp_affinity", "perf_mmap_pages", "perf_process_fork",
	"runtime", NULL,
};
/* tuned's other plugins: read, never applied. */
static const char *const other_plugins[] = {
	"acpi", "audio", "bootloader", "disk", "eeepc_she", "irq", "irqbalance", "kthread",
	"modules", "mounts", "net", "rtentsk", "script", "scsi_host", "selinux", "service",
	"systemd", "uncore", "usb", "video", "vm", NULL,
};

/* Kernel scheduler knobs by their sysctl name (after "kernel."), the
 * [scheduler] name and the debugfs name, and the engine's key. */
static const struct {
	const char *sysctl, *sched, *debugfs, *engine;
} sched_knobs[] = {
	{ "sched_min_granularity_ns", "sched_min_granularity_ns", "min_granularity_ns",
	  "sched_min_granularity_ns" },
	{ NULL, NULL, "base_slice_ns", "sched_min_granularity_ns" }, /* 6.6+: same knob */
	{ "sched_latency_ns", "sched_latency_ns", "latency_ns", "sched_latency_ns" },
	{ "sched_wakeup_granularity_ns", "sched_wakeup_granularity_ns", "wakeup_granularity_ns",
	  "sched_wakeup_granularity_ns" },
	{ "sched_migration_cost_ns", "sched_migration_cost_ns", "migration_cost_ns",
	  "sched_migration_cost_ns" },
	{ "sched_migration_cost", NULL, NULL, "sched_migration_cost_ns" }, /* before 3.x */
	{ "sched_mc_power_savings", "sched_mc_power_savings", NULL, "sched_mc_power_savings" },
};
#define NKNOBS ((int)(sizeof(sched_knobs) / sizeof(sched_knobs[0])))

struct map {
	struct pf_load *L;
	struct profile *p;
	struct pm_diag *d;
	const struct cpufreq_governor *gov;    /* the governor that runs, NULL if unknown */
	const struct cpufreq_governor *pstate; /* intel_pstate, for its tunables */
	bool intel;                            /* the driver is intel_pstate */
	const struct pf_inst *cpu;             /* the [cpu] instance tuned uses */
	const struct pf_opt *gov_opt;          /* its governor= */
	bool gov_applied;                      /* gov_opt chose the governor (or policy) */
	int cs_lines;                          /* cpuidle stateN/disable lines seen */
	bool cs_off[MACHINE_MAX_CSTATES];
	char cs_origin[PROFILE_TEXT_MAX];
};

static bool in_list(const char *const *list, const char *s)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

bool pf_cpu_option_known(const char *key)
{
	return in_list(cpu_options, key);
}

void pf_where(const struct pf_opt *o, char *buf, size_t len)
{
	if (o->line > 0)
		snprintf(buf, len, "%s:%d", o->file, o->line);
	else
		snprintf(buf, len, "%s", o->file);
}

static void origin(const struct pf_inst *in, const struct pf_opt *o, const char *note,
		   char *buf, size_t len)
{
	char w[PROFILE_TEXT_MAX];
	pf_where(o, w, sizeof(w));
	pf_fmt(buf, len, "%s: [%s] %s=%s%s", w, in->u->name, o->key, o->value, note ? note : "");
}

static int skip(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int skip(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		const char *fmt, ...)
{
	char what[256], w[PROFILE_TEXT_MAX], why[256];
	va_list ap;

	snprintf(what, sizeof(what), "[%s] %s=%s", in->u->name, o->key, o->value);
	pf_where(o, w, sizeof(w));
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pf_add_skip(m->p, what, w, why, m->d);
}

static int bad(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
	       const char *fmt, ...)
{
	char why[PM_DIAG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pm_fail_at(m->d, o->file, o->line, "[%s] %s=%s: %s", in->u->name, o->key, o->value,
			  why);
}

static int unknown(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		   const char *expected)
{
	return pm_fail_at(m->d, o->file, o->line, "unknown [%s] option '%s' (expected %s)",
			  in->u->name, o->key, expected);
}

static const struct tunable *find_tunable(const struct tunable *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	return NULL;
}

static const struct tunable *engine_tunable(const char *name)
{
	for (int i = 0; i < sim_engine_tunable_count(); i++)
		if (strcmp(sim_engine_tunable_at(i)->name, name) == 0)
			return sim_engine_tunable_at(i);
	return NULL;
}

static const struct tunable *gov_tunable(const struct cpufreq_governor *g, const char *name)
{
	return g ? find_tunable(g->tunables, g->ntunables, name) : NULL;
}

/* Checks value the way --set will, into *v; on error `why` has the reason
 * without tunables_write()'s "name=value: " prefix. */
static int check(const struct tunable *t, const char *value, int64_t *v, char *why, size_t len)
{
	struct tunable one = *t;
	struct pm_diag d = { "" };
	int64_t slot = 0;

	one.offset = 0;
	if (tunables_write(&one, 1, &slot, t->name, value, &d) == 1) {
		*v = slot;
		return 0;
	}
	const char *msg = d.msg, *colon = strstr(msg, ": ");
	snprintf(why, len, "%s", colon ? colon + 2 : msg);
	return -1;
}

static int ilog2(int v)
{
	int r = 0;
	while (v >>= 1)
		r++;
	return r;
}

/* The value a knob has before the profile: set earlier in this profile,
 * or pmlab's default on this machine. */
static int64_t current(struct map *m, const struct tunable *t, const char **from)
{
	for (int i = 0; i < m->p->nsettings; i++)
		if (strcmp(m->p->settings[i].key, t->name) == 0) {
			int64_t v;
			char why[128];
			*from = m->p->settings[i].origin;
			if (check(t, m->p->settings[i].value, &v, why, sizeof(why)) == 0)
				return v;
		}
	*from = NULL;
	/* engine/sim.c default_sched_params(): 0 means the kernel default,
	 * scaled by 1 + log2(CPUs), CPUs capped at 8. */
	int64_t factor = 1 + ilog2(m->L->m->online_cpus < 8 ? m->L->m->online_cpus : 8);
	if (strcmp(t->name, "sched_latency_ns") == 0)
		return 6000000 * factor;
	if (strcmp(t->name, "sched_min_granularity_ns") == 0)
		return 750000 * factor;
	if (strcmp(t->name, "sched_wakeup_granularity_ns") == 0)
		return 1000000 * factor;
	return t->def;
}

/* Sets knob t (key t->name) from an option's value: checks it, honours a
 * '>' or '<' modifier, and replaces an earlier setting of the same key. */
static int set_knob(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		    const struct tunable *t, const char *value, const char *note)
{
	char orig[PROFILE_TEXT_MAX * 2], why[256];
	int64_t v;
	char op = (value[0] == '>' || value[0] == '<') ? value[0] : 0;
	const char *num = value + (op != 0);

	while (op && (*num == ' ' || *num == '\t'))
		num++;
	if (check(t, num, &v, why, sizeof(why)))
		return bad(m, in, o, "%s", why);
	if (op) {
		const char *from;
		int64_t cur = current(m, t, &from);
		if ((op == '>' && !(v > cur)) || (op == '<' && !(v < cur)))
			return skip(m, in, o, "'%c%s' does not apply: %s is %" PRId64 " (%s)", op, num,
				    t->name, cur, from ? "set earlier" : "pmlab's default here");
	}
	origin(in, o, note, orig, sizeof(orig));
	return pf_add_setting(m->p, t->name, num, orig, m->d);
}

/* --- Linux cpuidle states of the machine --- */

/* Machine C-state index of Linux's stateN, -1 for the implicit POLL of a
 * machine that does not list a polling state first, -2 for none. */
static int linux_state(const struct machine *mc, int n)
{
	bool implicit_poll = mc->ncstates == 0 || !mc->cstates[0].poll;
	if (implicit_poll) {
		if (n == 0)
			return -1;
		n--;
	}
	return n >= 0 && n < mc->ncstates ? n : -2;
}

static int linux_nstates(const struct machine *mc)
{
	return mc->ncstates + (mc->ncstates == 0 || !mc->cstates[0].poll);
}

static const char *state_name(const struct machine *mc, int idx)
{
	return idx == -1 ? "POLL" : mc->cstates[idx].name;
}

static int64_t state_latency_us(const struct machine *mc, int idx)
{
	return idx == -1 ? 0 : mc->cstates[idx].exit_ns / 1000;
}

/* --- force_latency and pm_qos_resume_latency_us --- */

enum lat_kind { LAT_VALUE, LAT_NONE, LAT_NA, LAT_UNRESOLVED };

struct latency {
	enum lat_kind kind;
	int64_t us;
	char how[96]; /* which alternative, and what it resolved to */
};

static bool prefix(const char *s, const char *p, const char **rest)
{
	size_t n = strlen(p);
	if (strncmp(s, p, n) != 0)
		return false;
	*rest = s + n;
	return true;
}

/* tuned's _parse_latency(): alternatives "a|b|c", the first that resolves
 * wins; None stops; a malformed alternative is an error here (tuned would
 * pass over it), so a typo cannot silently leave C-states unlimited. */
static int parse_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			 const char *value, bool allow_na, struct latency *out)
{
	const struct machine *mc = m->L->m;
	char copy[VALUE_MAX];
	char *alts[32];
	int n = 0;

	snprintf(copy, sizeof(copy), "%s", value);
	for (char *save = NULL, *a = strtok_r(copy, "|", &save); a && n < 32;
	     a = strtok_r(NULL, "|", &save)) {
		while (*a == ' ' || *a == '\t')
			a++;
		size_t len = strlen(a);
		while (len && (a[len - 1] == ' ' || a[len - 1] == '\t'))
			a[--len] = '\0';
		alts[n++] = a;
	}
	if (n == 0 || strstr(value, "||") || value[0] == '|' || value[strlen(value) - 1] == '|')
		return bad(m, in, o, "empty alternative (expected microseconds, cstate.id:N, "
			   "cstate.name:NAME or their _no_zero forms%s, separated by '|')",
			   allow_na ? ", n/a" : "");
	/* Check every alternative first. */
	for (int i = 0; i < n; i++) {
		const char *a = alts[i], *rest;
		int64_t v;
		if (parse_int64(a, &v) == 0) {
			if (v < 0 || v > 2000000000)
				return bad(m, in, o, "latency %s us out of range (expected 0..2000000000)", a);
		} else if (prefix(a, "cstate.id_no_zero:", &rest) || prefix(a, "cstate.id:", &rest)) {
			if (parse_int64(rest, &v) || v < 0)
				return bad(m, in, o, "'%s': not a C-state number (expected cstate.id:N, "
					   "N >= 0)", a);
		} else if (prefix(a, "cstate.name_no_zero:", &rest) ||
			   prefix(a, "cstate.name:", &rest)) {
			if (!*rest)
				return bad(m, in, o, "'%s': no C-state name (expected cstate.name:NAME)", a);
		} else if (strcmp(a, "None") != 0 && strcmp(a, "none") != 0 &&
			   !(allow_na && strcmp(a, "n/a") == 0)) {
			return bad(m, in, o, "'%s' is not a latency (expected microseconds, cstate.id:N, "
				   "cstate.name:NAME, cstate.id_no_zero:N, cstate.name_no_zero:NAME%s or "
				   "None, alternatives separated by '|')", a, allow_na ? ", n/a" : "");
		}
	}
	for (int i = 0; i < n; i++) {
		const char *a = alts[i], *rest;
		int64_t v;
		bool no_zero = false;
		int idx = -2;

		if (parse_int64(a, &v) == 0) {
			*out = (struct latency){ LAT_VALUE, v, "" };
			snprintf(out->how, sizeof(out->how), "%s", a);
			return 0;
		}
		if (strcmp(a, "None") == 0 || strcmp(a, "none") == 0) {
			*out = (struct latency){ LAT_NONE, 0, "" };
			return 0;
		}
		if (strcmp(a, "n/a") == 0) {
			*out = (struct latency){ LAT_NA, 0, "n/a" };
			return 0;
		}
		if ((no_zero = prefix(a, "cstate.id_no_zero:", &rest)) || prefix(a, "cstate.id:", &rest)) {
			parse_int64(rest, &v);
			idx = v <= 64 ? linux_state(mc, (int)v) : -2;
		} else if ((no_zero = prefix(a, "cstate.name_no_zero:", &rest)) ||
			   prefix(a, "cstate.name:", &rest)) {
			if (linux_state(mc, 0) == -1 && strcmp(rest, "POLL") == 0)
				idx = -1; /* the x86 POLL state the machine does not list */
			else if ((idx = machine_cstate_index(mc, rest)) < 0)
				idx = -2;
		}
		if (idx == -2)
			continue; /* no such state here: the next alternative */
		if (no_zero && state_latency_us(mc, idx) == 0)
			continue;
		*out = (struct latency){ LAT_VALUE, state_latency_us(mc, idx), "" };
		snprintf(out->how, sizeof(out->how), "%s = %s, %" PRId64 " us", a,
			 state_name(mc, idx), out->us);
		return 0;
	}
	*out = (struct latency){ LAT_UNRESOLVED, 0, "" };
	return 0;
}

static int force_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			 const char *value)
{
	struct latency lat;
	char note[128];

	if (parse_latency(m, in, o, value, false, &lat))
		return -1;
	if (lat.kind == LAT_NONE)
		return skip(m, in, o, "None: PM QoS is left alone");
	if (lat.kind == LAT_UNRESOLVED)
		return skip(m, in, o, "no alternative exists on %s (tuned logs an error and sets no "
			    "PM QoS limit)", m->L->m->name);
	char num[32];
	snprintf(num, sizeof(num), "%" PRId64, lat.us);
	snprintf(note, sizeof(note), " (%s)", lat.how);
	return set_knob(m, in, o, engine_tunable("pm_qos_latency_us"), num,
			strchr(lat.how, '=') ? note : NULL);
}

static int resume_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			  const char *value)
{
	struct latency lat;
	char note[160], num[32];

	if (parse_latency(m, in, o, value, true, &lat))
		return -1;
	if (lat.kind == LAT_NONE)
		return skip(m, in, o, "None: the resume latency is left alone");
	if (lat.kind == LAT_UNRESOLVED)
		return skip(m, in, o, "no alternative exists on %s", m->L->m->name);
	/* sysfs: "n/a" allows no C-state (engine 0), 0 means no constraint
	 * (engine -1), N allows states with an exit latency below N. */
	int64_t engine = lat.kind == LAT_NA ? 0 : lat.us == 0 ? -1 : lat.us;
	snprintf(num, sizeof(num), "%" PRId64, engine);
	snprintf(note, sizeof(note), " (%s%s)", lat.how[0] ? lat.how : value,
		 lat.kind == LAT_NA ? ": no C-state" : engine < 0 ? ": 0 is no constraint" : "");
	return set_knob(m, in, o, engine_tunable("pm_qos_resume_latency_us"), num, note);
}

/* --- [cpu] --- */

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
static int governor(struct map *m)
{
	const struct profile_env *env = m->L->env;
	const char *caller = env && env->cpufreq ? env->cpufreq : "performance";
	const struct pf_opt *o = NULL;
	char value[VALUE_MAX], copy[VALUE_MAX];
	char *alts[32];
	int n;

	m->gov = cpufreq_governor_find(caller);
	m->pstate = cpufreq_governor_find("intel_pstate");
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
		return bad(m, m->cpu, o, "empty governor name (expected NAME[|NAME...], e.g. "
			   "governor=ondemand|powersave)");
	if (pf_devices_matched(m->cpu->devices ? m->cpu->devices->value : "*",
			       m->L->m->online_cpus) < m->L->m->online_cpus)
		return 0; /* listed with the other per-CPU options */
	char orig[PROFILE_TEXT_MAX * 2];
	if (env && env->cpufreq_fixed && m->intel) {
		/* intel_pstate in active mode offers two policies under these names. */
		for (int i = 0; i < n; i++)
			if (strcmp(alts[i], "performance") == 0 || strcmp(alts[i], "powersave") == 0) {
				origin(m->cpu, o, NULL, orig, sizeof(orig));
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
		snprintf(m->p->cpufreq, sizeof(m->p->cpufreq), "%s", g->name);
		origin(m->cpu, o, NULL, orig, sizeof(orig));
		pf_fmt(m->p->cpufreq_origin, sizeof(m->p->cpufreq_origin), "%s", orig);
		m->gov_applied = true;
		return 0;
	}
	/* A profile line naming only governors pmlab lacks is skipped, as tuned
	 * skips one the kernel lacks; but a governor the user typed as an
	 * override is meant to run, so naming none pmlab has is an error. */
	if (o->file && strcmp(o->file, PF_OVERRIDE_FILE) == 0)
		return bad(m, m->cpu, o, "no such governor (expected one of pmlab's: see pmlab "
			   "governors)");
	return 0;
}

static int cpu_governor_skip(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	const struct profile_env *env = m->L->env;
	if (o == m->gov_opt && m->gov_applied)
		return 0; /* it chose the governor (or intel_pstate's policy): p->cpufreq says so */
	if (env && env->cpufreq_fixed && m->intel)
		return skip(m, in, o, "intel_pstate offers only its performance and powersave "
			    "policies");
	if (env && env->cpufreq_fixed)
		return skip(m, in, o, "the run uses cpufreq %s (chosen by the caller)", m->p->cpufreq);
	return skip(m, in, o, "no alternative is a pmlab governor (see pmlab governors); the "
		    "caller's governor runs");
}

/* EPB names: the kernel's (4.13+) and x86_energy_perf_policy's "powersave". */
static const char *epb_name(const char *a)
{
	return strcmp(a, "powersave") == 0 ? "power" : a;
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
	const struct tunable *t = gov_tunable(m->pstate, o->key);

	if (!alternatives(value, copy, sizeof(copy), alts, &n, 32))
		return bad(m, in, o, "empty alternative (expected VALUE[|VALUE...])");
	for (int i = 0; i < n; i++) {
		int64_t v;
		const char *a = epp ? alts[i] : epb_name(alts[i]);
		if (epp && parse_int64(a, &v) == 0)
			continue;
		if (t && check(t, a, &v, why, sizeof(why)) == 0) {
			snprintf(buf, len, "%s", a);
			*chosen = buf;
			return 0;
		}
	}
	return bad(m, in, o, "no alternative is valid (expected %s)",
		   epp ? "performance|balance_performance|balance_power|power|default"
		       : "performance|balance-performance|normal|balance-power|power|powersave or 0..15");
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
		return unknown(m, in, o, pf_cpu_options_text);
	if (pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	if (in_list(per_cpu, k) && !per_cpu_ok) {
		if (strcmp(k, "governor") == 0) {
			char copy[VALUE_MAX];
			char *alts[32];
			int n;
			if (!alternatives(value, copy, sizeof(copy), alts, &n, 32))
				return bad(m, in, o, "empty governor name (expected NAME[|NAME...])");
		}
		return skip(m, in, o, "devices=%s covers %d of %d CPUs; pmlab's settings apply to "
			    "every CPU", in->devices->value, matched, ncpus);
	}
	if (strcmp(k, "governor") == 0)
		return cpu_governor_skip(m, in, o);
	if (strcmp(k, "force_latency") == 0)
		return force_latency(m, in, o, value);
	if (strcmp(k, "pm_qos_resume_latency_us") == 0)
		return resume_latency(m, in, o, value);
	if (strcmp(k, "boost") == 0) {
		if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
			return bad(m, in, o, "not 0 or 1 (expected boost=0|1)");
		return set_knob(m, in, o, engine_tunable("boost"), value, NULL);
	}
	if (strcmp(k, "sampling_down_factor") == 0) {
		const struct tunable *t = gov_tunable(m->gov, k);
		int64_t v;
		if (!t)
			return parse_int64(value, &v) || v < 1
				? bad(m, in, o, "not a positive integer (expected e.g. 100)")
				: skip(m, in, o, "the governor %s has no sampling_down_factor",
				       m->gov ? m->gov->name : "(unknown)");
		return set_knob(m, in, o, t, value, NULL);
	}
	if (strcmp(k, "energy_perf_bias") == 0 || strcmp(k, "energy_performance_preference") == 0) {
		if (pick(m, in, o, value, &chosen, buf, sizeof(buf)))
			return -1;
		if (!m->intel)
			return skip(m, in, o, "%s", strcmp(k, "energy_perf_bias") == 0
				    ? "EPB: pmlab keeps it in intel_pstate only (no modelled effect); "
				      "the driver here is acpi-cpufreq"
				    : WHY_ACPI);
		return set_knob(m, in, o, gov_tunable(m->pstate, k), chosen, NULL);
	}
	if (strcmp(k, "min_perf_pct") == 0 || strcmp(k, "max_perf_pct") == 0 ||
	    strcmp(k, "no_turbo") == 0) {
		const struct tunable *t = gov_tunable(m->pstate, k);
		int64_t v;
		char why[256];
		if (t && check(t, value[0] == '>' || value[0] == '<' ? value + 1 : value, &v, why,
			       sizeof(why)))
			return bad(m, in, o, "%s", why);
		if (!m->intel)
			return skip(m, in, o, WHY_ACPI);
		return set_knob(m, in, o, t, value, NULL);
	}
	/* load_threshold, latency_low, latency_high */
	return skip(m, in, o, "dynamic tuning (off by default: dynamic_tuning=0 in "
		    "tuned-main.conf) is not modelled");
}

static int cpu_instance(struct map *m, const struct pf_inst *in)
{
	int ncpus = m->L->m->online_cpus;
	int matched = pf_devices_matched(in->devices ? in->devices->value : "*", ncpus);
	char where[PROFILE_TEXT_MAX];

	for (int i = 0; i < in->u->nopts; i++) {
		const struct pf_opt *o = &in->u->opts[i];
		if (in_list(meta_options, o->key)) {
			if (strcmp(o->key, "script_pre") == 0 || strcmp(o->key, "script_post") == 0 ||
			    strcmp(o->key, "devices_udev_regex") == 0)
				if (skip(m, in, o, "not modelled"))
					return -1;
			continue;
		}
		if (!in->enabled) {
			if (!pf_cpu_option_known(o->key))
				return unknown(m, in, o, pf_cpu_options_text);
			if (skip(m, in, o, "instance disabled: %s", in->why_off))
				return -1;
			continue;
		}
		if (in != m->cpu) {
			if (!pf_cpu_option_known(o->key))
				return unknown(m, in, o, pf_cpu_options_text);
			snprintf(where, sizeof(where), "%s:%d", m->cpu->u->file, m->cpu->u->line);
			if (skip(m, in, o, "a second cpu instance: tuned gives the CPUs and the "
				 "latency to the first, [%s] at %s", m->cpu->u->name, where))
				return -1;
			continue;
		}
		if (cpu_option(m, in, o, matched == ncpus, matched))
			return -1;
	}
	return 0;
}

/* --- Scheduler knobs: [scheduler], [sysctl], debugfs and /proc paths --- */

static int sched_knob(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		      const char *engine)
{
	char value[VALUE_MAX];
	if (pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	return set_knob(m, in, o, engine_tunable(engine), value, NULL);
}

static int scheduler_instance(struct map *m, const struct pf_inst *in)
{
	for (int i = 0; i < in->u->nopts; i++) {
		const struct pf_opt *o = &in->u->opts[i];
		const char *k = o->key;
		int knob = -1;

		for (int j = 0; j < NKNOBS; j++)
			if (sched_knobs[j].sched && strcmp(sched_knobs[j].sched, k) == 0)
				knob = j;
		if (in_list(meta_options, k) && strcmp(k, "script_pre") && strcmp(k, "script_post"))
			continue;
		if (knob < 0 && !in_list(sched_options, k) && !in_list(meta_options, k) &&
		    strncmp(k, "group.", 6) != 0 && strncmp(k, "cgroup.", 7) != 0)
			return unknown(m, in, o, "sched_latency_ns, sched_min_granularity_ns, "
				       "sched_wakeup_granularity_ns, sched_migration_cost_ns, "
				       "sched_mc_power_savings, another option of tuned's scheduler plugin, "
				       "group.NAME or cgroup.NAME");
		int rc;
		if (!in->enabled)
			rc = skip(m, in, o, "instance disabled: %s", in->why_off);
		else if (knob >= 0)
			rc = sched_knob(m, in, o, sched_knobs[knob].engine);
		else
			rc = skip(m, in, o, "not modelled");
		if (rc)
			return -1;
	}
	return 0;
}

/* A sysctl name, "kernel.sched_latency_ns" or "kernel/sched_latency_ns". */
static int sysctl_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			 const char *name)
{
	char key[256];
	snprintf(key, sizeof(key), "%s", name);
	for (char *c = key; *c; c++)
		if (*c == '/')
			*c = '.';
	if (strncmp(key, "kernel.", 7) == 0)
		for (int j = 0; j < NKNOBS; j++)
			if (sched_knobs[j].sysctl && strcmp(sched_knobs[j].sysctl, key + 7) == 0)
				return sched_knob(m, in, o, sched_knobs[j].engine);
	return skip(m, in, o, "not modelled");
}

/* Each option of an instance whose plugin takes any key (sysctl, sysfs):
 * plugin metadata is not a setting, a disabled instance skips them all. */
static int each_option(struct map *m, const struct pf_inst *in,
		       int (*map_one)(struct map *, const struct pf_inst *, const struct pf_opt *))
{
	for (int i = 0; i < in->u->nopts; i++) {
		const struct pf_opt *o = &in->u->opts[i];
		int rc;
		if (in_list(meta_options, o->key) && strcmp(o->key, "script_pre") &&
		    strcmp(o->key, "script_post"))
			continue;
		if (!in->enabled)
			rc = skip(m, in, o, "instance disabled: %s", in->why_off);
		else if (in_list(meta_options, o->key))
			rc = skip(m, in, o, "not modelled");
		else
			rc = map_one(m, in, o);
		if (rc)
			return -1;
	}
	return 0;
}

static int sysctl_key(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	return sysctl_option(m, in, o, o->key);
}

static int sysctl_instance(struct map *m, const struct pf_inst *in)
{
	return each_option(m, in, sysctl_key);
}

/* --- [sysfs] --- */

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
		return bad(m, in, o, "not 0 or 1 (expected 1 to disable the state, 0 to enable it)");
	for (int n = 0; n < linux_nstates(mc); n++) {
		char name[16];
		snprintf(name, sizeof(name), "state%d", n);
		if (fnmatch(state_glob, name, 0) != 0)
			continue;
		int idx = linux_state(mc, n);
		if (idx == -1) {
			if (skip(m, in, o, "state0 is POLL, which this machine file does not list"))
				return -1;
			continue;
		}
		m->cs_off[idx] = value[0] == '1';
		hits++;
	}
	if (!hits)
		return skip(m, in, o, "no such cpuidle state on %s", mc->name);
	m->cs_lines++;
	origin(in, o, NULL, m->cs_origin, sizeof(m->cs_origin));
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
		*rc = skip(m, in, o, "the governor that runs is %s, not %s",
			   m->gov ? m->gov->name : "(unknown)", gov);
	else if ((t = gov_tunable(m->gov, slash + 1)) != NULL)
		*rc = set_knob(m, in, o, t, value, NULL);
	else
		*rc = skip(m, in, o, "%s has no tunable %s in pmlab", gov, slash + 1);
	return true;
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
		return set_knob(m, in, o, engine_tunable("sched_mc_power_savings"), value, NULL);
	if (strcmp(rest, "cpufreq/boost") == 0)
		return set_knob(m, in, o, engine_tunable("boost"), value, NULL);
	if (strcmp(comp, "intel_pstate") == 0) {
		const struct tunable *t = gov_tunable(m->pstate, tail);
		if (!t || strcmp(tail, "scaling_governor") == 0 || strcmp(tail, "hwp") == 0 ||
		    strcmp(tail, "energy_perf_bias") == 0 ||
		    strcmp(tail, "energy_performance_preference") == 0)
			return skip(m, in, o, "no pmlab knob for this intel_pstate file");
		return m->intel ? set_knob(m, in, o, t, value, NULL) : skip(m, in, o, WHY_ACPI);
	}
	if (strcmp(rest, "cpuidle/current_governor") == 0)
		return skip(m, in, o, "the idle governor is chosen with pmlab sim --cpuidle");
	bool policy = strcmp(comp, "cpufreq") == 0 && strncmp(tail, "policy", 6) == 0;
	int rc;
	if (strcmp(comp, "cpufreq") == 0 && !policy) {
		/* cpufreq/GOVERNOR/TUNABLE: the governor's global tunables. */
		if (gov_tunable_path(m, in, o, tail, value, &rc))
			return rc;
		return skip(m, in, o, "no pmlab knob for this path");
	}
	if (policy) {
		/* cpufreq/policyN/...: as cpuN/cpufreq/... for the policy's CPUs. */
		const char *slash = strchr(tail, '/');
		snprintf(comp, sizeof(comp), "%.*s", slash ? (int)(slash - tail) : (int)strlen(tail), tail);
		tail = slash ? slash + 1 : "";
	} else if (strncmp(comp, "cpu", 3) != 0) {
		return skip(m, in, o, "no pmlab knob for this path");
	}
	hit = glob_cpus(mc, comp, policy, &all);
	if (hit == 0)
		return skip(m, in, o, "'%s' matches no %s here", comp, policy ? "policy" : "CPU");
	if (hit < all)
		return skip(m, in, o, "'%s' matches %d of %d %s; pmlab's settings apply to every CPU",
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
		return skip(m, in, o, "no pmlab knob for this cpuidle file");
	} else if (!policy && strcmp(tail, "power/energy_perf_bias") == 0) {
		tail = "energy_perf_bias";
	} else if (!policy && strcmp(tail, "power/pm_qos_resume_latency_us") == 0) {
		return resume_latency(m, in, o, value);
	} else if (!policy) {
		return skip(m, in, o, "no pmlab knob for this path");
	}
	if (strcmp(tail, "scaling_min_freq") == 0 || strcmp(tail, "scaling_max_freq") == 0)
		return set_knob(m, in, o, engine_tunable(strcmp(tail, "scaling_min_freq") == 0
								 ? "scaling_min_khz"
								 : "scaling_max_khz"), value, NULL);
	if (strcmp(tail, "boost") == 0)
		return set_knob(m, in, o, engine_tunable("boost"), value, NULL);
	if (strcmp(tail, "scaling_governor") == 0)
		return skip(m, in, o, "pmlab takes the governor from [cpu] governor=");
	if (strcmp(tail, "energy_performance_preference") == 0 || strcmp(tail, "energy_perf_bias") == 0) {
		const struct tunable *t = gov_tunable(m->pstate, tail);
		int64_t v;
		char why[256];
		if (t && check(t, epb_name(value), &v, why, sizeof(why)))
			return bad(m, in, o, "%s", why);
		return m->intel ? set_knob(m, in, o, t, epb_name(value), NULL) : skip(m, in, o, WHY_ACPI);
	}
	/* Per-policy governor tunables: cpufreq/policyN/ondemand/up_threshold. */
	if (gov_tunable_path(m, in, o, tail, value, &rc))
		return rc;
	return skip(m, in, o, "no pmlab knob for this path");
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
		return sysctl_option(m, in, o, clean + 10);
	if (strncmp(clean, "/sys/kernel/debug/sched/", 24) == 0) {
		for (int k = 0; k < NKNOBS; k++)
			if (sched_knobs[k].debugfs && strcmp(sched_knobs[k].debugfs, clean + 24) == 0)
				return set_knob(m, in, o, engine_tunable(sched_knobs[k].engine), value,
						NULL);
		return skip(m, in, o, "not modelled");
	}
	if (strncmp(clean, "/sys/devices/system/cpu/", 24) == 0)
		return sysfs_cpu(m, in, o, clean + 24, value);
	return skip(m, in, o, "not modelled");
}

static int sysfs_instance(struct map *m, const struct pf_inst *in)
{
	return each_option(m, in, sysfs_option);
}

/* --- Everything else --- */

static int other_instance(struct map *m, const struct pf_inst *in)
{
	bool known = in_list(other_plugins, in->type);
	char why[192];
	int listed = 0;

	if (!in->enabled)
		snprintf(why, sizeof(why), "not modelled (and disabled: %s)", in->why_off);
	else
		snprintf(why, sizeof(why), known ? "not modelled" : "not modelled (no tuned plugin "
			 "'%s')", in->type);
	for (int i = 0; i < in->u->nopts; i++) {
		if (in_list(meta_options, in->u->opts[i].key))
			continue; /* type=, conditions: the reason says what they did */
		if (skip(m, in, &in->u->opts[i], "%s", why))
			return -1;
		listed++;
	}
	if (!listed) {
		char what[160], w[PROFILE_TEXT_MAX];
		snprintf(what, sizeof(what), "[%s]", in->u->name);
		snprintf(w, sizeof(w), "%s:%d", in->u->file, in->u->line);
		return pf_add_skip(m->p, what, w, why, m->d);
	}
	return 0;
}

static int main_instance(struct map *m, const struct pf_inst *in)
{
	for (int i = 0; i < in->u->nopts; i++) {
		const char *k = in->u->opts[i].key;
		if (strcmp(k, "summary") && strcmp(k, "description") &&
		    skip(m, in, &in->u->opts[i], "a [main] option pmlab does not use"))
			return -1;
	}
	return 0;
}

static int cstates_setting(struct map *m)
{
	const struct machine *mc = m->L->m;
	char list[MACHINE_MAX_CSTATES * (CSTATE_NAME_MAX + 1)] = "";

	if (!m->cs_lines)
		return 0;
	for (int i = 0; i < mc->ncstates; i++)
		if (m->cs_off[i]) {
			strcat(list, list[0] ? "," : "");
			strcat(list, mc->cstates[i].name);
		}
	if (!list[0])
		return 0; /* every state the profile touched is enabled: the default */
	char orig[PROFILE_TEXT_MAX + 32];
	snprintf(orig, sizeof(orig), "%s%s", m->cs_origin,
		 m->cs_lines > 1 ? " (the last of the cpuidle lines)" : "");
	return pf_add_setting(m->p, "cstate_disable", list, orig, m->d);
}

int pf_map(struct pf_load *L, struct profile *p)
{
	struct map m = { .L = L, .p = p, .d = L->d };

	for (int i = 0; i < L->ninsts && !m.cpu; i++)
		if (L->insts[i].enabled && strcmp(L->insts[i].type, "cpu") == 0 &&
		    strcmp(L->insts[i].u->name, "main") != 0)
			m.cpu = &L->insts[i];
	if (governor(&m))
		return -1;
	snprintf(p->driver, sizeof(p->driver), "%s", m.intel ? "intel_pstate" : "acpi-cpufreq");
	for (int i = 0; i < L->ninsts; i++) {
		const struct pf_inst *in = &L->insts[i];
		int rc;
		if (strcmp(in->u->name, "main") == 0)
			rc = main_instance(&m, in);
		else if (strcmp(in->type, "cpu") == 0)
			rc = cpu_instance(&m, in);
		else if (strcmp(in->type, "scheduler") == 0)
			rc = scheduler_instance(&m, in);
		else if (strcmp(in->type, "sysctl") == 0)
			rc = sysctl_instance(&m, in);
		else if (strcmp(in->type, "sysfs") == 0)
			rc = sysfs_instance(&m, in);
		else
			rc = other_instance(&m, in);
		if (rc)
			return -1;
	}
	return cstates_setting(&m);
}
