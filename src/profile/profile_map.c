// SPDX-License-Identifier: GPL-2.0-only
/* What matters to CPU power, mapped onto pmlab: the enabled plugin
 * instances of a resolved profile become a governor and --set settings;
 * everything else is listed with the reason it is not applied. One file
 * per tuned plugin: profile_map_cpu.c ([cpu]), profile_map_latency.c (its
 * latency options, shared with [sysfs]), profile_map_sched.c ([scheduler],
 * [sysctl]), profile_map_sysfs.c ([sysfs]); here the helpers they share,
 * the dispatch, and the plugins pmlab only lists.
 *
 * Modifiers. ">N" and "<N" (tuned 2.4+) set N only if it is greater or
 * smaller than the current value; on a simulated machine the current
 * value is what an earlier line of the profile set, else pmlab's default
 * for that knob on this machine (the CFS defaults scaled by CPUs as the
 * kernel does, sched/cfs_defaults.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/tunable.h"
#include "../cpufreq/cpufreq.h"
#include "../engine/sim.h"
#include "../sched/cfs_defaults.h"
#include "profile_map.h"

const char *const pfm_meta_options[] = {
	"type", "priority", "enabled", "devices", "devices_udev_regex", "cpuinfo_regex",
	"uname_regex", "script_pre", "script_post", NULL,
};
/* tuned's other plugins: read, never applied. */
static const char *const other_plugins[] = {
	"acpi", "audio", "bootloader", "disk", "eeepc_she", "irq", "irqbalance", "kthread",
	"modules", "mounts", "net", "rtentsk", "script", "scsi_host", "selinux", "service",
	"systemd", "uncore", "usb", "video", "vm", NULL,
};

bool pfm_in_list(const char *const *list, const char *s)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

void pf_where(const struct pf_opt *o, char *buf, size_t len)
{
	if (o->line > 0)
		snprintf(buf, len, "%s:%d", o->file, o->line);
	else
		snprintf(buf, len, "%s", o->file);
}

void pfm_origin(const struct pf_inst *in, const struct pf_opt *o, const char *note,
		   char *buf, size_t len)
{
	char w[PROFILE_TEXT_MAX];
	pf_where(o, w, sizeof(w));
	pf_fmt(buf, len, "%s: [%s] %s=%s%s", w, in->u->name, o->key, o->value, note ? note : "");
}

int pfm_skip(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
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

int pfm_bad(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
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

int pfm_unknown(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
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

const struct tunable *pfm_engine_tunable(const char *name)
{
	for (int i = 0; i < sim_engine_tunable_count(); i++)
		if (strcmp(sim_engine_tunable_at(i)->name, name) == 0)
			return sim_engine_tunable_at(i);
	return NULL;
}

const struct tunable *pfm_gov_tunable(const struct cpufreq_governor *g, const char *name)
{
	return g ? find_tunable(g->tunables, g->ntunables, name) : NULL;
}

/* Checks value the way --set will, into *v; on error `why` has the reason
 * without tunables_write()'s "name=value: " prefix. */
int pfm_check(const struct tunable *t, const char *value, int64_t *v, char *why, size_t len)
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

/* The value a knob has before the profile: set earlier in this profile,
 * or pmlab's default on this machine. */
static int64_t current(struct map *m, const struct tunable *t, const char **from)
{
	for (int i = 0; i < m->p->nsettings; i++)
		if (strcmp(m->p->settings[i].key, t->name) == 0) {
			int64_t v;
			char why[128];
			*from = m->p->settings[i].origin;
			if (pfm_check(t, m->p->settings[i].value, &v, why, sizeof(why)) == 0)
				return v;
		}
	*from = NULL;
	/* The engine's 0: the kernel's default for this many CPUs. */
	struct cfs_defaults def = cfs_defaults(m->L->m->online_cpus);
	if (strcmp(t->name, "sched_latency_ns") == 0)
		return def.latency_ns;
	if (strcmp(t->name, "sched_min_granularity_ns") == 0)
		return def.min_granularity_ns;
	if (strcmp(t->name, "sched_wakeup_granularity_ns") == 0)
		return def.wakeup_granularity_ns;
	return t->def;
}

/* Sets knob t (key t->name) from an option's value: checks it, honours a
 * '>' or '<' modifier, and replaces an earlier setting of the same key. */
int pfm_set_knob(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		    const struct tunable *t, const char *value, const char *note)
{
	char orig[PROFILE_TEXT_MAX * 2], why[256];
	int64_t v;
	char op = (value[0] == '>' || value[0] == '<') ? value[0] : 0;
	const char *num = value + (op != 0);

	while (op && (*num == ' ' || *num == '\t'))
		num++;
	if (pfm_check(t, num, &v, why, sizeof(why)))
		return pfm_bad(m, in, o, "%s", why);
	if (op) {
		const char *from;
		int64_t cur = current(m, t, &from);
		if ((op == '>' && !(v > cur)) || (op == '<' && !(v < cur)))
			return pfm_skip(m, in, o, "'%c%s' does not apply: %s is %" PRId64 " (%s)", op, num,
				    t->name, cur, from ? "set earlier" : "pmlab's default here");
	}
	pfm_origin(in, o, note, orig, sizeof(orig));
	return pf_add_setting(m->p, t->name, num, orig, m->d);
}

/* Each option of an instance whose plugin takes any key (sysctl, sysfs):
 * plugin metadata is not a setting, a disabled instance skips them all. */
int pfm_each_option(struct map *m, const struct pf_inst *in,
		       int (*map_one)(struct map *, const struct pf_inst *, const struct pf_opt *))
{
	for (int i = 0; i < in->u->nopts; i++) {
		const struct pf_opt *o = &in->u->opts[i];
		int rc;
		if (pfm_in_list(pfm_meta_options, o->key) && strcmp(o->key, "script_pre") &&
		    strcmp(o->key, "script_post"))
			continue;
		if (!in->enabled)
			rc = pfm_skip(m, in, o, "instance disabled: %s", in->why_off);
		else if (pfm_in_list(pfm_meta_options, o->key))
			rc = pfm_skip(m, in, o, "not modelled");
		else
			rc = map_one(m, in, o);
		if (rc)
			return -1;
	}
	return 0;
}

/* --- Everything else --- */

static int other_instance(struct map *m, const struct pf_inst *in)
{
	bool known = pfm_in_list(other_plugins, in->type);
	char why[192];
	int listed = 0;

	if (!in->enabled)
		snprintf(why, sizeof(why), "not modelled (and disabled: %s)", in->why_off);
	else
		snprintf(why, sizeof(why), known ? "not modelled" : "not modelled (no tuned plugin "
			 "'%s')", in->type);
	for (int i = 0; i < in->u->nopts; i++) {
		if (pfm_in_list(pfm_meta_options, in->u->opts[i].key))
			continue; /* type=, conditions: the reason says what they did */
		if (pfm_skip(m, in, &in->u->opts[i], "%s", why))
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
		    pfm_skip(m, in, &in->u->opts[i], "a [main] option pmlab does not use"))
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
	if (pfm_governor(&m))
		return -1;
	/* The driver modelled, named as the host's real one when there is one
	 * (amd-pstate-epp is modelled as intel_pstate's two policies). */
	m.driver = L->env && L->env->driver ? L->env->driver
		   : m.intel ? "intel_pstate" : m.amd ? "amd-pstate-epp" : "acpi-cpufreq";
	snprintf(m.why_no_pstate, sizeof(m.why_no_pstate), "%s; the cpufreq driver %s is %s",
		 m.amd ? "intel_pstate only (amd-pstate has no such file; tuned skips it)"
		       : "intel_pstate only", L->env && L->env->driver ? "here" : "modelled here",
		 m.driver);
	snprintf(p->driver, sizeof(p->driver), "%s", m.driver);
	for (int i = 0; i < L->ninsts; i++) {
		const struct pf_inst *in = &L->insts[i];
		int rc;
		if (strcmp(in->u->name, "main") == 0)
			rc = main_instance(&m, in);
		else if (strcmp(in->type, "cpu") == 0)
			rc = pfm_cpu_instance(&m, in);
		else if (strcmp(in->type, "scheduler") == 0)
			rc = pfm_scheduler_instance(&m, in);
		else if (strcmp(in->type, "sysctl") == 0)
			rc = pfm_sysctl_instance(&m, in);
		else if (strcmp(in->type, "vm") == 0 && in->enabled)
			rc = pfm_vm_instance(&m, in);
		else if (strcmp(in->type, "sysfs") == 0)
			rc = pfm_sysfs_instance(&m, in);
		else if (strcmp(in->type, "acpi") == 0)
			rc = pfm_acpi_instance(&m, in);
		else if (strcmp(in->type, "modules") == 0)
			rc = pfm_modules_instance(&m, in);
		else
			rc = other_instance(&m, in);
		if (rc)
			return -1;
	}
	return cstates_setting(&m);
}
