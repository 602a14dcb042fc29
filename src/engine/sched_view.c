// SPDX-License-Identifier: GPL-2.0-only
/* The engine's side of sched/sched_view.h: what a placement policy may
 * read of the engine, and the moves it may make. */
#include "sim_internal.h"

const struct sched_topology *sv_topology(const struct sim *s)
{
	return &s->topo;
}

const struct sched_knobs *sv_knobs(const struct sim *s)
{
	return &s->knobs;
}

sim_ns sv_now(const struct sim *s)
{
	return s->now;
}

enum sv_mode sv_cpu_mode(const struct sim *s, int cpu)
{
	switch (s->cpus[cpu].mode) {
	case CPU_IDLE:
		return SV_IDLE;
	case CPU_WAKING:
		return SV_WAKING;
	default:
		return SV_RUNNING;
	}
}

int sv_nr_running(const struct sim *s, int cpu)
{
	return s->cpus[cpu].nr_running;
}

bool sv_cpu_idle(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	return c->mode != CPU_RUNNING && c->nr_running == 0;
}

sim_ns sv_exit_latency(const struct sim *s, int cpu)
{
	return s->cpus[cpu].idle.states[s->cpus[cpu].req_cstate].exit_ns;
}

sim_ns sv_idle_since(const struct sim *s, int cpu)
{
	return s->cpus[cpu].idle_start;
}

unsigned sv_cpu_util(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	load_avg_blocked(s, c);
	uint32_t util = c->pelt.util_avg > c->util_est_sum ? c->pelt.util_avg : c->util_est_sum;
	return util < PELT_SCALE ? util : PELT_SCALE;
}

unsigned sv_cpu_util_avg(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	load_avg_blocked(s, c);
	return c->pelt.util_avg;
}

unsigned sv_cpu_util_est(const struct sim *s, int cpu)
{
	return s->cpus[cpu].util_est_sum;
}

void sv_task_sync(struct sim *s, struct task *t)
{
	/* sync_entity_load_avg(): decayed to its run queue's last update. */
	if (t->cpu >= 0 && t->state != TASK_RUNNING && !t->pelt_detached)
		pelt_update(&t->pelt, s->cpus[t->cpu].pelt.last_update_time, false, false);
}

unsigned sv_cpu_load(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	load_avg_blocked(s, c);
	return c->pelt.util_avg;
}

const struct rq *sv_rq(const struct sim *s, int cpu)
{
	return &s->cpus[cpu].rq;
}

struct task *sv_curr(const struct sim *s, int cpu)
{
	return s->cpus[cpu].curr;
}

long sv_nr_stealable(const struct sim *s)
{
	return s->nr_stealable;
}

long sv_pkg_stealable(const struct sim *s, int pkg)
{
	return s->pkgs[pkg].nr_stealable;
}

int sv_perf_domains(const struct sim *s, const struct sv_perf_domain **out)
{
	*out = s->pds;
	return s->npds;
}

void sv_migrate_queued(struct sim *s, struct task *t, int from, int to)
{
	task_migrate(s, t, &s->cpus[from], &s->cpus[to]);
}

void sv_migrate_running(struct sim *s, int from, int to)
{
	task_move_running(s, &s->cpus[from], &s->cpus[to]);
}

void *sv_placement_data(const struct sim *s)
{
	return s->placement_data;
}
