// SPDX-License-Identifier: GPL-2.0-only
/* tuned's [scheduler] and [sysctl] plugins: the CFS knobs by their
 * [scheduler] option, sysctl or debugfs name become the engine's keys;
 * everything else is listed as not modelled. */
#include <stdio.h>
#include <string.h>

#include "profile_map.h"

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

static int sched_knob(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		      const char *engine)
{
	char value[VALUE_MAX];
	if (pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	return pfm_set_knob(m, in, o, pfm_engine_tunable(engine), value, NULL);
}

int pfm_scheduler_instance(struct map *m, const struct pf_inst *in)
{
	for (int i = 0; i < in->u->nopts; i++) {
		const struct pf_opt *o = &in->u->opts[i];
		const char *k = o->key;
		int knob = -1;

		for (int j = 0; j < NKNOBS; j++)
			if (sched_knobs[j].sched && strcmp(sched_knobs[j].sched, k) == 0)
				knob = j;
		if (pfm_in_list(pfm_meta_options, k) && strcmp(k, "script_pre") && strcmp(k, "script_post"))
			continue;
		if (knob < 0 && !pfm_in_list(sched_options, k) && !pfm_in_list(pfm_meta_options, k) &&
		    strncmp(k, "group.", 6) != 0 && strncmp(k, "cgroup.", 7) != 0)
			return pfm_unknown(m, in, o, "sched_latency_ns, sched_min_granularity_ns, "
				       "sched_wakeup_granularity_ns, sched_migration_cost_ns, "
				       "sched_mc_power_savings, another option of tuned's scheduler plugin, "
				       "group.NAME or cgroup.NAME");
		int rc;
		if (!in->enabled)
			rc = pfm_skip(m, in, o, "instance disabled: %s", in->why_off);
		else if (knob >= 0)
			rc = sched_knob(m, in, o, sched_knobs[knob].engine);
		else
			rc = pfm_skip(m, in, o, "not modelled");
		if (rc)
			return -1;
	}
	return 0;
}

/* A sysctl name, "kernel.sched_latency_ns" or "kernel/sched_latency_ns". */
int pfm_sysctl_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
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
	int rc;
	if (pfm_vm_sysctl(m, in, o, key, &rc))
		return rc;
	return pfm_skip(m, in, o, "not modelled");
}

static int sysctl_key(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	return pfm_sysctl_option(m, in, o, o->key);
}

int pfm_sysctl_instance(struct map *m, const struct pf_inst *in)
{
	return pfm_each_option(m, in, sysctl_key);
}

/* A file of /sys/kernel/debug/sched/ (5.13+), by its name there. */
int pfm_debugfs_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		       const char *name, const char *value)
{
	for (int k = 0; k < NKNOBS; k++)
		if (sched_knobs[k].debugfs && strcmp(sched_knobs[k].debugfs, name) == 0)
			return pfm_set_knob(m, in, o, pfm_engine_tunable(sched_knobs[k].engine), value,
					    NULL);
	return pfm_skip(m, in, o, "not modelled");
}
