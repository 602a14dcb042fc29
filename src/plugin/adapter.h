// SPDX-License-Identifier: GPL-2.0-only
/* A plugin's governor as an internal one: an adapter builds a struct
 * cpuidle_governor (cpufreq_governor) whose operations translate the
 * engine's device (policy) into the stable view of include/pmlab/plugin.h
 * and call the plugin inside plugin_enter()/plugin_leave(). */
#ifndef PMLAB_PLUGIN_ADAPTER_H
#define PMLAB_PLUGIN_ADAPTER_H

#include "../../include/pmlab/plugin.h"
#include "../cpufreq/cpufreq.h"
#include "../cpuidle/cpuidle.h"
#include "../sched/placement.h"
#include "../workload/workload.h"
#include "guard.h"

struct idle_plugin {
	struct cpuidle_governor gov; /* gov.plugin points here */
	struct plugin_site site;
	const struct pmlab_idle_governor *ops;
	struct tunable *tunables;
	size_t view_off, data_off; /* in gov_data, after the tunables */
};

struct freq_plugin {
	struct cpufreq_governor gov;
	struct plugin_site site;
	const struct pmlab_freq_governor *ops;
	struct tunable *tunables;
	size_t view_off, data_off;
};

struct workload_plugin {
	struct workload_ops wl;
	struct plugin_site site;
	const struct pmlab_workload *ops;
	struct tunable *params;
	size_t ctx_off, data_off;
};

struct placement_plugin {
	struct placement_ops ops; /* ops.plugin points here */
	struct plugin_site site;
	const struct pmlab_placement *ops_plugin;
	struct tunable *tunables;
	size_t data_off; /* of the plugin's data in the run data, after the view */
};

int placement_plugin_init(struct placement_plugin *pp, const struct pmlab_placement *ops,
			  const char *path);
void placement_plugin_fini(struct placement_plugin *pp);

int workload_plugin_init(struct workload_plugin *wp, const struct pmlab_workload *ops,
			 const char *path);
void workload_plugin_fini(struct workload_plugin *wp);

/* Fills ip from ops (checked by the loader). -1 on OOM. */
int idle_plugin_init(struct idle_plugin *ip, const struct pmlab_idle_governor *ops,
		     const char *path);
void idle_plugin_fini(struct idle_plugin *ip);
int freq_plugin_init(struct freq_plugin *fp, const struct pmlab_freq_governor *ops,
		     const char *path);
void freq_plugin_fini(struct freq_plugin *fp);

/* The internal tunable table of a plugin's: each value an int64_t at
 * i * 8 of the governor data. NULL on OOM (n > 0). */
struct tunable *plugin_tunables(const struct pmlab_tunable *t, int n);
/* Where the adapter's view and the plugin's data start in gov_data. */
size_t plugin_align(size_t n);

#endif
