// SPDX-License-Identifier: GPL-2.0-only
/* A frequency governor from a plugin. gov_data holds the tunables'
 * values, then the view (struct pmlab_freq_policy and the policy it
 * stands for), then the plugin's own data_size bytes. The calls the view
 * offers go to the policy's driver, as a built-in governor's would. A
 * plugin's update() path is charged only the hook's dispatch
 * (cpufreq_update_util()): pmlab cannot count its instructions. */
#include <stdlib.h>
#include <string.h>

#include "adapter.h"

struct freq_view {
	struct pmlab_freq_policy pol;
	struct cpufreq_policy *p;
};

static const struct freq_plugin *of(const struct cpufreq_policy *p)
{
	return p->gov->plugin;
}

static struct freq_view *view_of(const struct cpufreq_policy *p)
{
	return (struct freq_view *)((char *)p->gov_data + of(p)->view_off);
}

/* The limits and the frequency may have changed since the last call. */
static struct pmlab_freq_policy *refresh(struct cpufreq_policy *p)
{
	struct pmlab_freq_policy *v = &view_of(p)->pol;

	v->min = p->min;
	v->max = p->max;
	v->cur = p->cur;
	return v;
}

static struct cpufreq_policy *policy(const struct pmlab_freq_policy *v)
{
	return ((const struct freq_view *)v)->p;
}

static void cpu_times(const struct pmlab_freq_policy *v, int cpu, struct pmlab_cpu_times *out)
{
	struct cpufreq_policy *p = policy(v);
	struct cpu_times t = { 0, 0, 0, 0 };

	if (p->driver->cpu_times)
		p->driver->cpu_times(p->driver_ctx, cpu, &t);
	*out = (struct pmlab_cpu_times){ t.busy, t.idle, t.iowait, t.idle_calls };
}

static void cpu_util(const struct pmlab_freq_policy *v, int cpu, struct pmlab_cpu_util *out)
{
	struct cpufreq_policy *p = policy(v);
	struct cpu_util u = { 0, 1024, 0, 1024 };

	if (p->driver->cpu_util)
		p->driver->cpu_util(p->driver_ctx, cpu, &u);
	*out = (struct pmlab_cpu_util){ u.util, u.capacity, u.uclamp_min, u.uclamp_max };
}

static void target(struct pmlab_freq_policy *v, uint32_t khz, enum pmlab_relation relation)
{
	struct cpufreq_policy *p = policy(v);

	if ((unsigned)relation > PMLAB_RELATION_C) {
		plugin_fault(&of(p)->site, "target: relation %d (expected 0, 1 or 2)", (int)relation);
		relation = PMLAB_RELATION_L;
	}
	cpufreq_driver_target(p, khz, (enum cpufreq_relation)relation);
	v->cur = p->cur;
}

static void use_hook(struct pmlab_freq_policy *v, bool on)
{
	struct cpufreq_policy *p = policy(v);

	if (on && !of(p)->ops->update) {
		plugin_fault(&of(p)->site, "asked for the utilization hook without an update()");
		on = false;
	}
	p->hook = on ? CPUFREQ_HOOK_UTIL : CPUFREQ_HOOK_NONE;
}

static int freq_start(struct cpufreq_policy *p, struct pm_diag *d)
{
	const struct freq_plugin *fp = of(p);
	struct freq_view *w = view_of(p);
	char err[512] = "";
	int rc;

	memset((char *)p->gov_data + fp->data_off, 0, fp->ops->data_size);
	w->p = p;
	w->pol = (struct pmlab_freq_policy){
		.id = p->id, .ncpus = p->ncpus, .cpus = p->cpus, .table = p->table,
		.ntable = p->ntable, .cpuinfo_min = p->cpuinfo_min, .cpuinfo_max = p->cpuinfo_max,
		.base_khz = p->base_khz, .tick_ns = p->tick_ns,
		.transition_latency_ns = p->transition_latency_ns,
		.transition_delay_ns = p->transition_delay_ns, .freq_invariant = p->freq_invariant,
		.tunables = p->gov_data,
		.data = fp->ops->data_size ? (char *)p->gov_data + fp->data_off : NULL,
		.cpu_times = cpu_times, .cpu_util = cpu_util, .target = target, .use_hook = use_hook,
		.pmlab = w,
	};
	p->hook = CPUFREQ_HOOK_NONE;
	if (!fp->ops->start)
		return 0;
	plugin_enter(&fp->site, "start");
	rc = fp->ops->start(refresh(p), err, sizeof(err));
	plugin_leave();
	if (rc != 0)
		return pm_fail(d, "plugin %.200s: %s '%s': start of policy %d failed: %.400s",
			       fp->site.path, fp->site.kind, fp->site.name, p->id,
			       err[0] ? err : "no reason given");
	return 0;
}

static void freq_stop(struct cpufreq_policy *p)
{
	const struct freq_plugin *fp = of(p);

	plugin_enter(&fp->site, "stop");
	fp->ops->stop(refresh(p));
	plugin_leave();
}

static void freq_limits(struct cpufreq_policy *p)
{
	const struct freq_plugin *fp = of(p);

	plugin_enter(&fp->site, "limits");
	fp->ops->limits(refresh(p));
	plugin_leave();
}

static void freq_update(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags)
{
	const struct freq_plugin *fp = of(p);

	plugin_enter(&fp->site, "update");
	fp->ops->update(refresh(p), cpu, now, flags & CPUFREQ_UPDATE_IOWAIT);
	plugin_leave();
}

int freq_plugin_init(struct freq_plugin *fp, const struct pmlab_freq_governor *ops,
		     const char *path)
{
	size_t tun = plugin_align((size_t)ops->ntunables * sizeof(int64_t));

	memset(fp, 0, sizeof(*fp));
	fp->ops = ops;
	fp->site = (struct plugin_site){ path, "frequency governor", ops->name };
	fp->tunables = plugin_tunables(ops->tunables, ops->ntunables);
	if (!fp->tunables)
		return -1;
	fp->view_off = tun;
	fp->data_off = tun + plugin_align(sizeof(struct freq_view));
	fp->gov = (struct cpufreq_governor){
		.name = ops->name, .summary = ops->summary ? ops->summary : "",
		.tunables = fp->tunables, .ntunables = ops->ntunables,
		.data_size = fp->data_off + ops->data_size, .start = freq_start,
		.stop = ops->stop ? freq_stop : NULL, .limits = freq_limits,
		.update = ops->update ? freq_update : NULL, .plugin = fp,
	};
	return 0;
}

void freq_plugin_fini(struct freq_plugin *fp)
{
	free(fp->tunables);
	fp->tunables = NULL;
}
