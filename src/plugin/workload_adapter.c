// SPDX-License-Identifier: GPL-2.0-only
/* A workload from a plugin. The instance data holds the parameters'
 * values (int64_t each, as the engine writes them), then the context the
 * plugin is handed (struct pmlab_run_ctx: its calls into the engine), then
 * the plugin's own data_size bytes. The actions it returns are checked:
 * a broken one fails the run naming the plugin (plugin/guard.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/sim.h"
#include "adapter.h"

static const struct workload_plugin *of(struct sim *s)
{
	return sim_workload_ops(s)->plugin;
}

static struct pmlab_run_ctx *ctx_of(const struct workload_plugin *wp, void *data)
{
	return (struct pmlab_run_ctx *)((char *)data + wp->ctx_off);
}

static struct sim *sim_of(const struct pmlab_run_ctx *c)
{
	return c->pmlab;
}

static int64_t now(const struct pmlab_run_ctx *c)
{
	return sim_now(sim_of(c));
}

static int task_new(struct pmlab_run_ctx *c, const char *name, int64_t start_ns)
{
	struct task *t = sim_task_new(sim_of(c), name ? name : "task", start_ns);
	return t ? (int)t->id : -1;
}

static void wake(struct pmlab_run_ctx *c, int task)
{
	struct sim *s = sim_of(c);
	struct task *t = task >= 0 ? sim_task(s, (uint32_t)task) : NULL;

	if (!t) {
		plugin_fault(&of(s)->site, "wake: no task %d", task);
		return;
	}
	sim_wake(s, t);
}

static int post_timer(struct pmlab_run_ctx *c, int64_t when_ns, uint32_t arg)
{
	struct sim *s = sim_of(c);

	if (!of(s)->ops->timer) {
		plugin_fault(&of(s)->site, "post_timer without a timer() to call");
		return -1;
	}
	return sim_post_workload_timer(s, when_ns < sim_now(s) ? sim_now(s) : when_ns, arg);
}

static void record_latency(struct pmlab_run_ctx *c, int64_t ns)
{
	sim_record_latency(sim_of(c), ns < 0 ? 0 : ns);
}

static void add_work(struct pmlab_run_ctx *c, double units)
{
	sim_add_work(sim_of(c), units);
}

static int wl_init(struct sim *s, void *data, struct pm_diag *d)
{
	const struct workload_plugin *wp = of(s);
	struct pmlab_run_ctx *c = ctx_of(wp, data);
	char err[512] = "";
	int rc;

	memset((char *)data + wp->data_off, 0, wp->ops->data_size);
	*c = (struct pmlab_run_ctx){
		.params = data, .data = wp->ops->data_size ? (char *)data + wp->data_off : NULL,
		.base_khz = sim_machine(s)->base_khz, .ncpus = sim_machine(s)->online_cpus,
		.seed = sim_seed(s), .now = now, .task_new = task_new, .wake = wake,
		.post_timer = post_timer, .record_latency = record_latency, .add_work = add_work,
		.pmlab = s,
	};
	plugin_enter(&wp->site, "init");
	rc = wp->ops->init(c, err, sizeof(err));
	plugin_leave();
	if (rc != 0)
		return pm_fail(d, "plugin %.200s: %s '%s': init failed: %.400s", wp->site.path,
			       wp->site.kind, wp->site.name, err[0] ? err : "no reason given");
	return plugin_fault_take(d);
}

static void wl_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	const struct workload_plugin *wp = of(s);
	/* pa starts as EXIT, the rest zero (plugin.h's contract); *a, which
	 * the engine does not fill, is written whole on every path. */
	struct pmlab_action pa = { .kind = PMLAB_ACT_EXIT };

	plugin_enter(&wp->site, "next");
	wp->ops->next(ctx_of(wp, data), (int)t->id, &pa);
	plugin_leave();
	switch (pa.kind) {
	case PMLAB_ACT_RUN:
		if (!(pa.cycles >= 0) || !(pa.stall_ns >= 0) || !isfinite(pa.cycles + pa.stall_ns)) {
			plugin_fault(&wp->site, "next: a run of %g cycles and %g ns stall (expected "
				     "finite, not negative)", pa.cycles, pa.stall_ns);
			break;
		}
		*a = (struct action){ .kind = ACT_RUN, .sys = pa.sys, .cycles = pa.cycles,
				      .stall_ns = pa.stall_ns };
		return;
	case PMLAB_ACT_SLEEP:
		*a = (struct action){ .kind = ACT_SLEEP,
				      .until = pa.until_ns < sim_now(s) ? sim_now(s) : pa.until_ns };
		return;
	case PMLAB_ACT_BLOCK:
		*a = (struct action){ .kind = ACT_BLOCK, .iowait = pa.iowait };
		return;
	case PMLAB_ACT_YIELD:
		*a = (struct action){ .kind = ACT_YIELD };
		return;
	case PMLAB_ACT_EXIT:
		*a = (struct action){ .kind = ACT_EXIT };
		return;
	default:
		plugin_fault(&wp->site, "next: action kind %d (expected 0..4)", (int)pa.kind);
	}
	*a = (struct action){ .kind = ACT_EXIT };
	sim_stop(s);
}

static void wl_timer(struct sim *s, void *data, uint32_t arg)
{
	const struct workload_plugin *wp = of(s);

	plugin_enter(&wp->site, "timer");
	wp->ops->timer(ctx_of(wp, data), arg);
	plugin_leave();
}

int workload_plugin_init(struct workload_plugin *wp, const struct pmlab_workload *ops,
			 const char *path)
{
	size_t par = plugin_align((size_t)ops->nparams * sizeof(int64_t));

	memset(wp, 0, sizeof(*wp));
	wp->ops = ops;
	wp->site = (struct plugin_site){ path, "workload", ops->name };
	wp->params = plugin_tunables(ops->params, ops->nparams);
	if (!wp->params)
		return -1;
	wp->ctx_off = par;
	wp->data_off = par + plugin_align(sizeof(struct pmlab_run_ctx));
	wp->wl = (struct workload_ops){
		.name = ops->name, .summary = ops->summary ? ops->summary : "",
		.throughput_unit = ops->throughput_unit ? ops->throughput_unit : "units/s",
		.latency_what = ops->latency_what ? ops->latency_what : "latency",
		.params = wp->params, .nparams = ops->nparams,
		.data_size = wp->data_off + ops->data_size, .init = wl_init, .next = wl_next,
		.timer = ops->timer ? wl_timer : NULL, .plugin = wp,
	};
	return 0;
}

void workload_plugin_fini(struct workload_plugin *wp)
{
	free(wp->params);
	wp->params = NULL;
}
