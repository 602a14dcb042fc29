// SPDX-License-Identifier: GPL-2.0-only
/* A placement policy from a plugin. The run data (sv_placement_data())
 * holds the tunables' values, then the view the plugin sees (struct
 * pmlab_sched, the CPUs' places and the request being served), then the
 * plugin's own data_size bytes. The policy the kernel's settings select
 * (placement_for()) stays underneath: the default_* calls are its, and
 * so are the idle-core hints its wakeup path keeps (cpu_idle, enqueued). */
#include <stdlib.h>
#include <string.h>

#include "../machine/machine.h"
#include "../sched/placement_lib.h"
#include "adapter.h"

/* The tunables take at most 64 int64_t: the view starts after them. */
#define VIEW_OFF ((size_t)64 * sizeof(int64_t))

struct placement_view {
	struct pmlab_sched sched; /* first: the plugin's pointer is the view's */
	struct sim *s;
	const struct placement_plugin *pp;
	const struct placement_ops *kernel; /* what the knobs select */
	struct task *t;                     /* in select_cpu(): the task being placed */
	const struct select_ctx *w;
	struct pmlab_cpu_place cpus[MACHINE_MAX_CPUS];
};

static struct placement_view *view_of(const struct sim *s)
{
	return (struct placement_view *)((char *)sv_placement_data(s) + VIEW_OFF);
}

static struct placement_view *view(const struct pmlab_sched *v)
{
	return (struct placement_view *)v;
}

static bool cpu_ok(const struct placement_view *v, int cpu)
{
	return cpu >= 0 && cpu < v->sched.ncpus;
}

static int64_t now(const struct pmlab_sched *v)
{
	return sv_now(view(v)->s);
}

static bool cpu_idle(const struct pmlab_sched *v, int cpu)
{
	return cpu_ok(view(v), cpu) && sv_cpu_idle(view(v)->s, cpu);
}

static int nr_running(const struct pmlab_sched *v, int cpu)
{
	return cpu_ok(view(v), cpu) ? sv_nr_running(view(v)->s, cpu) : 0;
}

static int64_t exit_latency(const struct pmlab_sched *v, int cpu)
{
	return cpu_idle(v, cpu) ? sv_exit_latency(view(v)->s, cpu) : 0;
}

static unsigned long cpu_util(struct pmlab_sched *v, int cpu)
{
	return cpu_ok(view(v), cpu) ? sv_cpu_util(view(v)->s, cpu) : 0;
}

static bool allowed(const struct pmlab_sched *v, int cpu)
{
	return cpu_ok(view(v), cpu) && task_allowed(view(v)->t, cpu);
}

/* Calls back into pmlab: what goes wrong there is pmlab's, not the plugin's. */
#define PMLAB_SIDE(expr)                                         \
	do {                                                     \
		const struct plugin_site *site_ = plugin_now.site; \
		const char *op_ = plugin_now.op;                 \
		plugin_leave();                                  \
		expr;                                            \
		plugin_enter(site_, op_);                        \
	} while (0)

static int default_cpu(struct pmlab_sched *sched, const struct pmlab_select *w)
{
	struct placement_view *v = view(sched);
	int cpu = -1;

	(void)w; /* the request being served: the one pmlab passed */
	if (!v->t)
		return -1;
	PMLAB_SIDE(cpu = v->kernel->select_cpu(v->s, v->t, v->w));
	return cpu;
}

static bool pull(struct pmlab_sched *sched, int from, int to)
{
	struct placement_view *v = view(sched);
	const struct sched_topology *topo = sv_topology(v->s);
	struct task *t = NULL;

	if (!cpu_ok(v, from) || !cpu_ok(v, to) || from == to)
		return false;
	PMLAB_SIDE(t = migratable(v->s, sv_rq(v->s, from), to,
				  topo->cpu[from].llc != topo->cpu[to].llc);
		   if (t) sv_migrate_queued(v->s, t, from, to));
	return t != NULL;
}

static bool default_newidle(struct pmlab_sched *sched, int cpu)
{
	struct placement_view *v = view(sched);
	bool moved = false;

	if (cpu_ok(v, cpu))
		PMLAB_SIDE(moved = v->kernel->newidle_balance(v->s, cpu));
	return moved;
}

static void default_tick(struct pmlab_sched *sched, int cpu)
{
	struct placement_view *v = view(sched);

	if (cpu_ok(v, cpu))
		PMLAB_SIDE(v->kernel->tick_balance(v->s, cpu));
}

static int pl_init(struct sim *s, const struct placement_ops *self, struct pm_diag *d)
{
	const struct sched_topology *topo = sv_topology(s);
	struct placement_view *v = view_of(s);
	const struct placement_plugin *pp = self->plugin;
	char err[512] = "";
	int rc;

	memset(v, 0, sizeof(*v));
	memset((char *)sv_placement_data(s) + pp->data_off, 0, pp->ops_plugin->data_size);
	v->s = s;
	v->pp = pp;
	v->kernel = placement_for(sv_knobs(s));
	for (int c = 0; c < topo->ncpus; c++)
		v->cpus[c] = (struct pmlab_cpu_place){ topo->cpu[c].pkg, topo->cpu[c].llc,
						       topo->cpu[c].core, topo->capacity[c] };
	v->sched = (struct pmlab_sched){
		.ncpus = topo->ncpus, .cpus = v->cpus, .tunables = sv_placement_data(s),
		.data = pp->ops_plugin->data_size ? (char *)sv_placement_data(s) + pp->data_off
						  : NULL,
		.now = now, .cpu_idle = cpu_idle, .nr_running = nr_running,
		.exit_latency_ns = exit_latency, .cpu_util = cpu_util, .allowed = allowed,
		.default_cpu = default_cpu, .pull = pull, .default_newidle = default_newidle,
		.default_tick = default_tick,
	};
	if (!pp->ops_plugin->init)
		return 0;
	plugin_enter(&pp->site, "init");
	rc = pp->ops_plugin->init(&v->sched, err, sizeof(err));
	plugin_leave();
	if (rc != 0)
		return pm_fail(d, "plugin %.200s: %s '%s': init failed: %.400s", pp->site.path,
			       pp->site.kind, pp->site.name, err[0] ? err : "no reason given");
	return 0;
}

static enum pmlab_select_kind kind_of(enum select_kind k)
{
	switch (k) {
	case SELECT_FORK:
		return PMLAB_SELECT_FORK;
	case SELECT_EXEC:
		return PMLAB_SELECT_EXEC;
	case SELECT_MOVE:
		return PMLAB_SELECT_MOVE;
	default:
		return PMLAB_SELECT_WAKE;
	}
}

static int pl_select_cpu(struct sim *s, struct task *t, const struct select_ctx *w)
{
	struct placement_view *v = view_of(s);
	const struct placement_plugin *pp = v->pp;
	struct pmlab_select req = { kind_of(w->kind), (int)t->id, t->cpu, w->this_cpu, w->sync };
	int cpu;

	v->t = t;
	v->w = w;
	plugin_enter(&pp->site, "select_cpu");
	cpu = pp->ops_plugin->select_cpu(&v->sched, &req);
	plugin_leave();
	if (!cpu_ok(v, cpu) || !task_allowed(t, cpu)) {
		plugin_fault(&pp->site, "select_cpu returned CPU %d for task %u (expected one of "
			     "0..%d it may run on)", cpu, t->id, v->sched.ncpus - 1);
		cpu = v->kernel->select_cpu(s, t, w);
	}
	v->t = NULL;
	v->w = NULL;
	return cpu;
}

static bool pl_newidle(struct sim *s, int cpu)
{
	struct placement_view *v = view_of(s);
	bool moved;

	if (!v->pp->ops_plugin->newidle_balance)
		return v->kernel->newidle_balance(s, cpu);
	plugin_enter(&v->pp->site, "newidle_balance");
	moved = v->pp->ops_plugin->newidle_balance(&v->sched, cpu);
	plugin_leave();
	return moved;
}

static void pl_tick(struct sim *s, int cpu)
{
	struct placement_view *v = view_of(s);

	if (!v->pp->ops_plugin->tick_balance) {
		v->kernel->tick_balance(s, cpu);
		return;
	}
	plugin_enter(&v->pp->site, "tick_balance");
	v->pp->ops_plugin->tick_balance(&v->sched, cpu);
	plugin_leave();
}

static void pl_cpu_idle(struct sim *s, int cpu)
{
	const struct placement_ops *k = view_of(s)->kernel;

	if (k->cpu_idle)
		k->cpu_idle(s, cpu);
}

static void pl_enqueued(struct sim *s, int cpu, const struct task *t, bool new_task)
{
	const struct placement_ops *k = view_of(s)->kernel;

	if (k->enqueued)
		k->enqueued(s, cpu, t, new_task);
}

int placement_plugin_init(struct placement_plugin *pp, const struct pmlab_placement *ops,
			  const char *path)
{
	memset(pp, 0, sizeof(*pp));
	pp->ops_plugin = ops;
	pp->site = (struct plugin_site){ path, "placement policy", ops->name };
	pp->tunables = plugin_tunables(ops->tunables, ops->ntunables);
	if (!pp->tunables)
		return -1;
	pp->data_off = VIEW_OFF + plugin_align(sizeof(struct placement_view));
	pp->ops = (struct placement_ops){
		.name = ops->name, .summary = ops->summary ? ops->summary : "",
		.select_cpu = pl_select_cpu, .newidle_balance = pl_newidle, .tick_balance = pl_tick,
		.cpu_idle = pl_cpu_idle, .enqueued = pl_enqueued, .tunables = pp->tunables,
		.ntunables = ops->ntunables, .data_size = pp->data_off + ops->data_size,
		.init = pl_init, .plugin = pp,
	};
	return 0;
}

void placement_plugin_fini(struct placement_plugin *pp)
{
	free(pp->tunables);
	pp->tunables = NULL;
}
