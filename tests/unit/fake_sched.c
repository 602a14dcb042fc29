// SPDX-License-Identifier: GPL-2.0-only
/* The fake engine of the placement tests (fake_sched.h). */
#include "fake_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sched/asym.h"
#include "sched/fair_select.h"

struct sim sim;
struct task tasks[4 * MAX_CPUS];
int ntasks;

const struct sched_topology *sv_topology(const struct sim *s) { return &s->topo; }
const struct sched_knobs *sv_knobs(const struct sim *s) { return &s->knobs; }
sim_ns sv_now(const struct sim *s) { return s->now; }

static const struct fake_cpu *rd(const struct sim *s, int cpu)
{
	assert_true(cpu >= 0 && cpu < s->topo.ncpus);
	((struct sim *)s)->reads++;
	return &s->cpu[cpu];
}

enum sv_mode sv_cpu_mode(const struct sim *s, int cpu) { return rd(s, cpu)->mode; }
int sv_nr_running(const struct sim *s, int cpu) { return rd(s, cpu)->nr_running; }
bool sv_cpu_idle(const struct sim *s, int cpu)
{
	return rd(s, cpu)->mode != SV_RUNNING && s->cpu[cpu].nr_running == 0;
}
sim_ns sv_exit_latency(const struct sim *s, int cpu) { return rd(s, cpu)->exit_ns; }
sim_ns sv_idle_since(const struct sim *s, int cpu) { return rd(s, cpu)->idle_since; }
unsigned sv_cpu_util(struct sim *s, int cpu) { return rd(s, cpu)->util; }
unsigned sv_cpu_util_avg(struct sim *s, int cpu) { return rd(s, cpu)->util; }
unsigned sv_cpu_util_est(const struct sim *s, int cpu) { return rd(s, cpu)->util_est; }
void sv_task_sync(struct sim *s, struct task *t) {}
unsigned sv_cpu_load(struct sim *s, int cpu) { return rd(s, cpu)->load; }
const struct rq *sv_rq(const struct sim *s, int cpu) { return &rd(s, cpu)->rq; }
struct task *sv_curr(const struct sim *s, int cpu) { return rd(s, cpu)->curr; }
int sv_perf_domains(const struct sim *s, const struct sv_perf_domain **out)
{
	*out = s->pds;
	return s->npds;
}
long sv_nr_stealable(const struct sim *s) { return 0; }
long sv_pkg_stealable(const struct sim *s, int pkg) { return 0; }

static void record(struct sim *s, struct task *t, int from, int to, bool running)
{
	s->nmoves++;
	s->last_move = (struct fake_move){ .from = from, .to = to, .t = t, .running = running };
}

void sv_migrate_queued(struct sim *s, struct task *t, int from, int to)
{
	record(s, t, from, to, false);
}

/* The running task leaves `from`, which goes idle, for `to`'s queue. */
void sv_migrate_running(struct sim *s, int from, int to)
{
	struct fake_cpu *f = &s->cpu[from], *d = &s->cpu[to];
	struct task *t = f->curr;
	record(s, t, from, to, true);
	f->curr = NULL;
	f->nr_running--;
	f->mode = f->nr_running ? SV_RUNNING : SV_IDLE;
	d->nr_running++;
	t->cpu = to;
	t->state = TASK_QUEUED;
}

struct sim *machine_from(struct machine *m, enum sched_asym asym)
{
	m->online_cpus = machine_possible_cpus(m);
	assert_true(m->online_cpus <= MAX_CPUS);
	sched_topology_free(&sim.topo);
	memset(&sim, 0, sizeof(sim));
	memset(tasks, 0, sizeof(tasks));
	ntasks = 0;
	struct pm_diag d = { { 0 } };
	assert_int_equal(sched_topology_build(&sim.topo, m, &d), 0);
	assert_int_equal(sched_topology_set_asym(&sim.topo, m, asym, &d), 0);
	sim.knobs = (struct sched_knobs){ .migration_cost_ns = 500000,
					  .balance_interval_ns = 4000000,
					  .uclamp_util_min = 1024,
					  .uclamp_util_max = 1024 };
	sim.now = 1000000000;
	for (int c = 0; c < m->online_cpus; c++)
		sim.cpu[c] = (struct fake_cpu){ .mode = SV_IDLE, .exit_ns = 2000 };
	return &sim;
}

struct sim *machine(int pkgs, int cores, int threads, int llc)
{
	struct machine m = { .packages = pkgs, .cores_per_package = cores,
			     .threads_per_core = threads, .llc_cores = llc };
	return machine_from(&m, SCHED_ASYM_NONE);
}

struct task *sleeper(int prev, uint32_t util)
{
	assert_true(ntasks < 4 * MAX_CPUS);
	struct task *t = &tasks[ntasks++];
	memset(t, 0, sizeof(*t));
	t->id = (uint32_t)(t - tasks);
	t->state = TASK_BLOCKED;
	t->cpu = prev;
	t->recent_used_cpu = -1;
	t->ran = true;
	t->pelt.util_avg = util;
	t->uclamp_max = 1024;
	return t;
}

struct task *run_on(struct sim *s, int cpu, uint32_t util)
{
	struct task *t = sleeper(cpu, util);
	t->state = TASK_RUNNING;
	s->cpu[cpu].mode = SV_RUNNING;
	s->cpu[cpu].nr_running++;
	s->cpu[cpu].curr = t;
	s->cpu[cpu].util += util;
	s->cpu[cpu].load += util;
	return t;
}

int wake(struct sim *s, struct task *p, int this_cpu, bool sync)
{
	struct select_ctx w = { .kind = SELECT_WAKE, .this_cpu = this_cpu,
				.waker = this_cpu >= 0 ? s->cpu[this_cpu].curr : NULL,
				.sync = sync };
	return fair_select_task_rq(s, p, &w);
}

int free_topology(void **state)
{
	sched_topology_free(&sim.topo);
	return 0;
}
