// SPDX-License-Identifier: GPL-2.0-only
/* An idle governor from a plugin. gov_data holds the tunables' values
 * (int64_t each, as the engine writes them), then the view the plugin
 * sees (struct pmlab_idle_device and the state table), then the plugin's
 * own data_size bytes. */
#include <stdlib.h>
#include <string.h>

#include "adapter.h"

struct idle_view {
	struct pmlab_idle_device dev;
	struct pmlab_idle_state states[MACHINE_MAX_CSTATES];
};

size_t plugin_align(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

struct tunable *plugin_tunables(const struct pmlab_tunable *t, int n)
{
	struct tunable *out = calloc((size_t)(n > 0 ? n : 1), sizeof(*out));

	for (int i = 0; out && i < n; i++)
		out[i] = (struct tunable){ .name = t[i].name, .help = t[i].help ? t[i].help : "",
					   .offset = (size_t)i * sizeof(int64_t), .def = t[i].def,
					   .min = t[i].min, .max = t[i].max, .words = t[i].words };
	return out;
}

static const struct idle_plugin *of(const struct cpuidle_device *dev)
{
	return dev->gov->plugin;
}

static struct idle_view *view(const struct idle_plugin *ip, struct cpuidle_device *dev)
{
	return (struct idle_view *)((char *)dev->gov_data + ip->view_off);
}

/* What changed since the last call: everything the idle loop fills. */
static struct pmlab_idle_device *refresh(const struct idle_plugin *ip, struct cpuidle_device *dev)
{
	struct pmlab_idle_device *v = &view(ip, dev)->dev;

	v->now_ns = dev->now;
	v->next_timer_ns = dev->next_timer_ns;
	v->next_timer_no_tick_ns = dev->next_timer_no_tick_ns;
	v->tick_period_ns = dev->tick_period_ns;
	v->tick_stopped = dev->tick_stopped;
	v->nr_iowait = dev->nr_iowait;
	v->last_state = dev->last_state;
	v->last_residency_ns = dev->last_residency_ns;
	v->tick_wakeup = dev->tick_wakeup;
	v->poll_time_limit = dev->poll_time_limit;
	return v;
}

static int idle_init(struct cpuidle_device *dev, struct pm_diag *d)
{
	const struct idle_plugin *ip = of(dev);
	struct idle_view *w = view(ip, dev);
	char err[512] = "";
	int rc = 0;

	memset(w, 0, sizeof(*w));
	memset((char *)dev->gov_data + ip->data_off, 0, ip->ops->data_size);
	for (int i = 0; i < dev->nstates; i++)
		w->states[i] = (struct pmlab_idle_state){
			.name = dev->states[i].name, .exit_latency_ns = dev->states[i].exit_ns,
			.target_residency_ns = dev->states[i].residency_ns,
			.polling = dev->states[i].poll != 0,
		};
	w->dev = (struct pmlab_idle_device){
		.cpu = dev->cpu, .nstates = dev->nstates, .states = w->states,
		.disabled = dev->disabled, .tunables = dev->gov_data,
		.data = ip->ops->data_size ? (char *)dev->gov_data + ip->data_off : NULL,
	};
	if (!ip->ops->init)
		return 0;
	refresh(ip, dev);
	plugin_enter(&ip->site, "init");
	rc = ip->ops->init(&w->dev, err, sizeof(err));
	plugin_leave();
	if (rc != 0)
		return pm_fail(d, "plugin %.200s: %s '%s': init on CPU %d failed: %.400s", ip->site.path,
			       ip->site.kind, ip->site.name, dev->cpu, err[0] ? err : "no reason given");
	return 0;
}

static int idle_select(struct cpuidle_device *dev, sim_ns latency_limit_ns, bool *stop_tick)
{
	const struct idle_plugin *ip = of(dev);
	struct pmlab_idle_device *v = refresh(ip, dev);
	int state;

	plugin_enter(&ip->site, "select");
	state = ip->ops->select(v, latency_limit_ns, stop_tick);
	plugin_leave();
	if (state < 0 || state >= dev->nstates || !cpuidle_state_enabled(dev, state)) {
		plugin_fault(&ip->site, "select returned state %d on CPU %d (expected an enabled "
			     "state of 0..%d)", state, dev->cpu, dev->nstates - 1);
		return cpuidle_deepest_allowed(dev, latency_limit_ns);
	}
	return state;
}

static void idle_reflect(struct cpuidle_device *dev, int state)
{
	const struct idle_plugin *ip = of(dev);
	struct pmlab_idle_device *v = refresh(ip, dev);

	plugin_enter(&ip->site, "reflect");
	ip->ops->reflect(v, state);
	plugin_leave();
}

int idle_plugin_init(struct idle_plugin *ip, const struct pmlab_idle_governor *ops,
		     const char *path)
{
	size_t tun = plugin_align((size_t)ops->ntunables * sizeof(int64_t));

	memset(ip, 0, sizeof(*ip));
	ip->ops = ops;
	ip->site = (struct plugin_site){ path, "idle governor", ops->name };
	ip->tunables = plugin_tunables(ops->tunables, ops->ntunables);
	if (!ip->tunables)
		return -1;
	ip->view_off = tun;
	ip->data_off = tun + plugin_align(sizeof(struct idle_view));
	ip->gov = (struct cpuidle_governor){
		.name = ops->name, .summary = ops->summary ? ops->summary : "",
		.tunables = ip->tunables, .ntunables = ops->ntunables,
		.data_size = ip->data_off + ops->data_size, .init = idle_init,
		.select = idle_select, .reflect = ops->reflect ? idle_reflect : NULL, .plugin = ip,
	};
	return 0;
}

void idle_plugin_fini(struct idle_plugin *ip)
{
	free(ip->tunables);
	ip->tunables = NULL;
}
