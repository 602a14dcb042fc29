// SPDX-License-Identifier: GPL-2.0-only
/* Task state changes: wakeups (with CFS's vruntime placement and wakeup
 * preemption), migrations between run queues, sleep timers, and asking
 * the workload what a task does next. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* A task moving between run queues keeps its vruntime relative to the
 * queues' min_vruntime, as migrate_task_rq_fair() does. */
static void renormalize(struct task *t, const struct sim_cpu *from, const struct sim_cpu *to)
{
	int64_t rel = (int64_t)(t->vruntime - from->rq.min_vruntime);
	int64_t v = (int64_t)to->rq.min_vruntime + rel;
	t->vruntime = v < 0 ? 0 : (uint64_t)v;
}

/* util_est_enqueue(): the task's estimate joins its CPU's sum. */
static void util_est_enqueue(struct sim_cpu *c, struct task *t)
{
	uint32_t est = t->util_est_ewma > t->util_est_last ? t->util_est_ewma : t->util_est_last;
	t->util_est_queued = est;
	c->util_est_sum += est;
	cpu_util_changed(c);
}

static void util_est_dequeue(struct sim_cpu *c, struct task *t)
{
	c->util_est_sum -= t->util_est_queued;
	t->util_est_queued = 0;
	cpu_util_changed(c);
}

static void count_migration(struct sim *s, struct sim_cpu *to)
{
	s->migrations++;
	to->acct.migrations++;
}

/* check_preempt_wakeup(): preempt curr if the wakee's vruntime is smaller
 * by more than the wakeup granularity (scaled by the wakee's weight). */
static void check_preempt_wakeup(struct sim *s, struct sim_cpu *c, struct task *t)
{
	cpu_sync(s, c);
	struct task *curr = c->curr;
	int64_t gran = s->par.sched_wakeup_granularity_ns * NICE_0_WEIGHT / t->weight;
	if ((int64_t)(curr->vruntime - t->vruntime) <= gran) {
		/* Consolidated updates also call the hook when wakeup preemption
		 * fails, so the wakee's load is not ignored until the next tick. */
		if (s->par.cpufreq_updates == CPUFREQ_UPDATES_CONSOLIDATED)
			freq_update_hook_outline(s, c, 0);
		return;
	}
	if (c->in_dispatch)
		c->need_resched = true;
	else
		cpu_schedule(s, c);
}

/* post_init_entity_util_avg() (Linux 6.1): a new task starts with half
 * the spare capacity of the CPU it is placed on, util_avg = (1024 -
 * cpu util_avg) / 2, so successive new tasks on one CPU get 512, 256,
 * 128, ... The kernel first extrapolates cfs_rq util_avg * weight /
 * (load_avg + 1) and caps it there; with util standing in for load (see
 * sched_view.h) that extrapolation is ~1024 and the cap decides. The
 * CPU's signal is read as it stands; the task's utilization then joins it
 * at its enqueue (attach_entity_load_avg(), engine/load_avg.c). */
static void post_init_util(const struct sim_cpu *c, struct task *t)
{
	uint32_t cpu_util = c->pelt.util_avg < PELT_SCALE ? c->pelt.util_avg : PELT_SCALE;
	t->pelt.util_avg = (PELT_SCALE - cpu_util) / 2;
}

/* enqueue_task_fair() of a woken, forked or moved task, with CFS's
 * vruntime placement and wakeup preemption; `new_task`: t->state is
 * TASK_NEW (a constant where the caller knows it). Inline in its callers
 * (task_wake()'s versions, task_requeue_elsewhere()), forced: it runs at
 * every wakeup, and a call of its own saves and restores the registers
 * task_wake() has just saved. */
static inline __attribute__((always_inline)) void task_enqueue(struct sim *s, struct sim_cpu *c,
							       struct task *t, bool wakeup,
							       bool new_task)
{
	bool was_iowait = false;
	if (t->ran && t->cpu != c->id) {
		renormalize(t, &s->cpus[t->cpu], c);
		if (!t->pelt_detached)
			load_avg_migrate_wakeup(s, t, &s->cpus[t->cpu]);
		count_migration(s, c);
	} else if (!t->ran && new_task) {
		post_init_util(c, t);
	}
	if (new_task) {
		/* START_DEBIT: a new task starts one slice behind. */
		t->vruntime = c->rq.min_vruntime + (uint64_t)sched_slice(s, c, t);
	} else if (wakeup) {
		/* place_entity() with GENTLE_FAIR_SLEEPERS: a sleeper gets at most
		 * half a latency period of credit. */
		uint64_t thresh = (uint64_t)s->par.sched_latency_ns / 2;
		uint64_t floor = c->rq.min_vruntime > thresh ? c->rq.min_vruntime - thresh : 0;
		if (t->vruntime < floor)
			t->vruntime = floor;
		was_iowait = t->iowait;
	}
	t->iowait = false;
	t->was_iowait = was_iowait;
	t->cpu = c->id;
	t->state = TASK_QUEUED;
	load_avg_wakeup(s, c);
	/* enqueue_entity(): decayed over its sleep, or attached here. */
	load_avg_update(s, c, t, false, LOAD_AVG_ATTACH);
	if (rq_push(&c->rq, t) < 0)
		s->oom = true;
	cpu_stealable(s, c);
	c->nr_running++;
	util_est_enqueue(c, t);
	if (s->placement->enqueued)
		s->placement->enqueued(s, c->id, t, new_task);
	if (s->classic_hook)
		freq_policy_hook(s, c, was_iowait ? CPUFREQ_UPDATE_IOWAIT : 0);
	if (c->mode == CPU_IDLE)
		cpu_kick_idle(s, c);
	else if (c->mode == CPU_RUNNING && c->curr && c->curr->state == TASK_RUNNING)
		check_preempt_wakeup(s, c, t);
}

/* The request context for placement: what runs on `this_cpu` wakes `t`. */
static struct select_ctx select_ctx(const struct sim *s, enum select_kind kind, int this_cpu,
				    bool sync)
{
	const struct sim_cpu *c = this_cpu >= 0 ? &s->cpus[this_cpu] : NULL;
	return (struct select_ctx){ .kind = kind,
				    .this_cpu = this_cpu,
				    .waker = c && c->mode == CPU_RUNNING ? c->curr : NULL,
				    .sync = sync };
}

/* Waking a task on another CPU costs the waker an IPI, unless that CPU is
 * idle (or on its way out of idle) in a state that watches its thread
 * flags: then setting TIF_NEED_RESCHED is the whole wakeup (set_nr_if_polling(),
 * kernel/sched/core.c, Linux 3.13 to v6.18; cpuidle_state_polls_flags()).
 * The idle CPU then runs the queued wakeup itself (sched_ttwu_pending() from
 * flush_smp_call_function_queue() in do_idle()), which the context switch
 * into the woken task stands for. Before 3.13 the idle loop cleared the
 * polling flag for every cpuidle state: an IPI each time
 * (idle_polling_wakeup=0, which --set kernel=3.12 or older selects). */
static bool wake_sends_ipi(const struct sim_cpu *target)
{
	if (target->mode == CPU_RUNNING)
		return true;
	/* Without idle_polling_wakeup, no state's bit is set (build_topology()). */
	return !(target->polls_flags >> target->req_cstate & 1);
}

/* task_wake() of a task in state `from` (TASK_NEW, TASK_SLEEPING or
 * TASK_BLOCKED). Inline in its versions: task_wake() reads the state;
 * those for a blocked task (wake_blocked(): pingpong's every wakeup; a
 * device's completion) and a sleeping one (task_timer()) know it, and
 * the tests of a new task fold away there. */
static inline __attribute__((always_inline)) void wake_from(struct sim *s, struct task *t,
							    enum task_state from, int waker_cpu,
							    bool sync)
{
	if (from == TASK_BLOCKED && t->iowait) {
		struct sim_cpu *prev = &s->cpus[t->cpu];
		cpu_sync(s, prev);
		prev->nr_iowait--;
	}
	struct select_ctx w = select_ctx(s, from == TASK_NEW ? SELECT_FORK : SELECT_WAKE, waker_cpu,
					 sync);
	int cpu = s->placement->select_cpu(s, t, &w);
	if (waker_cpu >= 0 && cpu != waker_cpu && wake_sends_ipi(&s->cpus[cpu]))
		cpu_charge(s, &s->cpus[waker_cpu], NULL, s->m->wakeup_ipi_ns);
	if (s->obs && s->obs->task_wakeup) {
		/* Only task_timer() wakes a sleeping task; only wake_blocked()
		 * a blocked one, from the CPU whose task runs the workload, if
		 * any. Worked out only for the observer: the task is still in
		 * the state it wakes from. */
		enum sim_wake_cause why = from == TASK_NEW        ? SIM_WAKE_NEW
					  : from == TASK_SLEEPING ? SIM_WAKE_TIMER
					  : waker_cpu >= 0        ? SIM_WAKE_TASK
								  : SIM_WAKE_IRQ;
		s->obs->task_wakeup(s->obs->ctx, cpu, why == SIM_WAKE_NEW ? -1 : waker_cpu, s->now, t,
				    why == SIM_WAKE_TASK ? w.waker : NULL, why);
	}
	t->wake_time = s->now;
	s->wakeups++;
	s->cpus[cpu].acct.wakeups++;
	task_enqueue(s, &s->cpus[cpu], t, true, from == TASK_NEW);
}

void task_wake(struct sim *s, struct task *t, int waker_cpu, bool sync)
{
	wake_from(s, t, t->state, waker_cpu, sync);
}

/* Out of line on its own: wake_blocked() inlines into the workloads. */
__attribute__((noinline)) void task_wake_blocked(struct sim *s, struct task *t, int waker_cpu,
						 bool sync)
{
	wake_from(s, t, TASK_BLOCKED, waker_cpu, sync);
}

/* Out of line on its own: task_timer() may inline into the event loop. */
static __attribute__((noinline)) void task_wake_sleeping(struct sim *s, struct task *t,
							  int waker_cpu)
{
	wake_from(s, t, TASK_SLEEPING, waker_cpu, false);
}

static bool classic_hook(const struct sim *s)
{
	return s->par.cpufreq_updates == CPUFREQ_UPDATES_CLASSIC && s->cf_gov->update;
}

void task_wake_setup(struct sim *s)
{
	s->classic_hook = classic_hook(s);
}

bool task_wake_setup_consistent(const struct sim *s)
{
	if (!s->par.idle_polling_wakeup)
		for (int c = 0; c < s->ncpus; c++)
			if (s->cpus[c].polls_flags)
				return false;
	return s->classic_hook == classic_hook(s);
}

static void wake_blocked(struct sim *s, struct task *t, bool sync)
{
	switch (t->state) {
	case TASK_QUEUED:
	case TASK_RUNNING:
		t->wake_pending = true;
		return;
	case TASK_BLOCKED:
		task_wake_blocked(s, t, s->dispatch_cpu, sync);
		return;
	default:
		return;
	}
}

void sim_wake(struct sim *s, struct task *t)
{
	wake_blocked(s, t, false);
}

void sim_wake_sync(struct sim *s, struct task *t)
{
	wake_blocked(s, t, true);
}

/* The accounting of a runnable task leaving `from` (already off its run
 * queue or CPU) for `to`'s run queue. */
static void move_queued(struct sim *s, struct task *t, struct sim_cpu *from, struct sim_cpu *to)
{
	load_avg_update(s, from, t, true, LOAD_AVG_DETACH);
	from->nr_running--;
	util_est_dequeue(from, t);
	renormalize(t, from, to);
	count_migration(s, to);
	t->cpu = to->id;
	load_avg_update(s, to, t, false, LOAD_AVG_ATTACH);
	if (rq_push(&to->rq, t) < 0)
		s->oom = true;
	cpu_stealable(s, to);
	to->nr_running++;
	util_est_enqueue(to, t);
}

void task_migrate(struct sim *s, struct task *t, struct sim_cpu *from, struct sim_cpu *to)
{
	cpu_sync(s, from);
	cpu_sync(s, to);
	rq_remove(&from->rq, t);
	cpu_stealable(s, from);
	move_queued(s, t, from, to);
	if (to->mode == CPU_IDLE)
		cpu_kick(s, to);
}

void task_move_running(struct sim *s, struct sim_cpu *from, struct sim_cpu *to)
{
	struct task *t = from->curr;
	cpu_sync(s, from);
	/* Off this CPU as if preempted, but onto the other run queue. */
	t->state = TASK_QUEUED;
	move_queued(s, t, from, to);
	cpu_schedule(s, from);
	if (to->mode == CPU_IDLE)
		cpu_kick(s, to);
}

void task_requeue_elsewhere(struct sim *s, struct sim_cpu *c, struct task *t)
{
	load_avg_update(s, c, t, true, LOAD_AVG_DETACH); /* move_queued_task() */
	c->nr_running--;
	util_est_dequeue(c, t);
	t->state = TASK_QUEUED;
	int cpu = t->exec_cpu;
	t->exec_cpu = -1;
	if (cpu < 0 || !task_allowed(t, cpu)) {
		struct select_ctx w = select_ctx(s, SELECT_MOVE, c->id, false);
		cpu = s->placement->select_cpu(s, t, &w);
	}
	task_enqueue(s, &s->cpus[cpu], t, false, false);
}

struct task *sim_fork(struct sim *s, struct task *parent, const char *name)
{
	struct task *t = task_create(s, name, s->now);
	if (!t)
		return NULL;
	/* sched_fork(): it starts on its parent's CPU, if the parent runs. */
	if (parent && parent->state == TASK_RUNNING && s->cpus[parent->cpu].curr == parent)
		t->cpu = parent->cpu;
	if (parent && parent->affinity) {
		size_t words = ((size_t)s->ncpus + 63) / 64;
		t->affinity = malloc(words * sizeof(*t->affinity));
		if (!t->affinity) {
			s->oom = true;
			return NULL;
		}
		memcpy(t->affinity, parent->affinity, words * sizeof(*t->affinity));
	}
	task_observe_new(s, t, parent && parent->state == TASK_RUNNING ? parent : NULL);
	return t;
}

void sim_wake_up_new_task(struct sim *s, struct task *t)
{
	if (t->state != TASK_NEW)
		return;
	/* Fork balancing from the CPU it was forked on. */
	int this_cpu = t->cpu;
	t->recent_used_cpu = this_cpu;
	task_wake(s, t, this_cpu, false);
}

void sim_exec(struct sim *s, struct task *t)
{
	if (t->state != TASK_RUNNING || t->cpu < 0)
		return;
	struct sim_cpu *c = &s->cpus[t->cpu];
	if (c->curr != t || !c->in_dispatch)
		return;
	struct select_ctx w = select_ctx(s, SELECT_EXEC, c->id, false);
	int cpu = s->placement->select_cpu(s, t, &w);
	if (cpu == c->id)
		return;
	/* The migration stopper moves it before the new image runs: it goes
	 * once it has said what it does next. */
	t->exec_cpu = cpu;
	c->need_resched = true;
}

void task_timer(struct sim *s, struct task *t)
{
	if (t->state != TASK_SLEEPING)
		return;
	t->timer_gen++;
	task_wake_sleeping(s, t, t->cpu); /* the timer interrupt, where it was armed */
}

/* The earliest live sleep timer armed on this CPU, or SIM_NS_MAX. Stale
 * entries (timers that fired) are dropped on the way. */
sim_ns cpu_next_timer(struct sim *s, struct sim_cpu *c)
{
	const struct event *e;
	while ((e = eventq_peek(&c->timers)) != NULL) {
		const struct task *t = s->slots[e->obj].t;
		if (t && t->state == TASK_SLEEPING && t->timer_gen == e->gen)
			return e->time;
		struct event dead;
		eventq_pop(&c->timers, &dead);
	}
	return SIM_NS_MAX;
}

/* The task leaves the run queue (sleep, block, exit): util_est learns
 * from the utilization it had, and the classic hook fires. Inline in
 * task_dispatch(): it runs at every sleep and block. */
static inline void task_off_cpu(struct sim *s, struct sim_cpu *c, struct task *t)
{
	/* dequeue_entity(): it ran until now, the CPU's curr (task_dispatch()
	 * runs on a running CPU, and nothing there changes its curr: --check
	 * says so). */
	if (s->check && (c->mode != CPU_RUNNING || c->curr != t)) {
		fprintf(stderr, "pmlab: internal error: CPU %d dispatches a task not its running "
			"curr at %lld ns\n", c->id, (long long)s->now);
		abort();
	}
	load_avg_update_as(s, c, t, true, 0, true, true);
	c->nr_running--;
	util_est_dequeue(c, t);
	t->util_est_last = t->pelt.util_avg;
	t->util_est_ewma = util_est_ewma(t->util_est_ewma, t->pelt.util_avg);
	if (s->classic_hook)
		freq_policy_hook(s, c, 0);
}

/* The workload's rarer answers: the task sleeps, yields or exits, or
 * asks again (true) after a sleep already over or a yield with nothing
 * to yield to. Out of line, apart from task_dispatch()'s copies: a burst
 * and a block, the common answers, take none of it. */
static __attribute__((noinline)) bool dispatch_stop(struct sim *s, struct sim_cpu *c,
						    struct task *t, const struct action *a)
{
	if (a->kind == ACT_SLEEP) {
		if (a->until <= s->now)
			return true;
		t->state = TASK_SLEEPING;
		t->timer_gen++;
		sim_post(s, a->until, EV_TIMER, t->slot, t->timer_gen, 0);
		if (eventq_push(&c->timers, a->until, EV_TIMER, t->slot, t->timer_gen, 0) < 0)
			s->oom = true;
		task_off_cpu(s, c, t);
		return false;
	}
	if (a->kind == ACT_YIELD) {
		/* CFS's yield: behind every task waiting here (its vruntime
		 * moves past theirs), still runnable; alone, it goes on. */
		const struct task *last = NULL;
		for (int i = 0; i < c->rq.len; i++)
			if (!last || c->rq.heap[i]->vruntime > last->vruntime)
				last = c->rq.heap[i];
		if (!last)
			return true;
		if (t->vruntime <= last->vruntime)
			t->vruntime = last->vruntime + 1;
		return false;
	}
	t->state = TASK_DEAD;
	s->nlive--;
	task_off_cpu(s, c, t);
	load_avg_remove(s, c, t); /* task_dead_fair() */
	task_finished(s, t);
	return false;
}

/* task_dispatch() hands next() an action it has not filled: a workload's
 * next() writes the whole of it on every path (workload.h), and a fill
 * before each call cost 2 to 5 instructions an event. --check holds next() to
 * that: the action starts poisoned, every byte ACTION_POISON, a value no
 * whole write leaves in any field (a kind out of range, a bool neither 0
 * nor 1, a tiny negative cycles or stall_ns, an until long before time 0);
 * a field still poisoned after next() was not written. */
#define ACTION_POISON 0xa5

static void next_checked(struct sim *s, void *data, struct task *t, struct action *a)
{
	static const struct {
		size_t off, len;
		const char *name;
	} fields[] = {
		{ offsetof(struct action, kind), sizeof(a->kind), "kind" },
		{ offsetof(struct action, sys), sizeof(a->sys), "sys" },
		{ offsetof(struct action, iowait), sizeof(a->iowait), "iowait" },
		{ offsetof(struct action, cycles), sizeof(a->cycles), "cycles" },
		{ offsetof(struct action, stall_ns), sizeof(a->stall_ns), "stall_ns" },
		{ offsetof(struct action, until), sizeof(a->until), "until" },
	};
	unsigned char poison[sizeof(*a)];
	memset(poison, ACTION_POISON, sizeof(poison));
	memcpy(a, poison, sizeof(*a));
	s->wl_own->next(s, data, t, a);
	const unsigned char *b = (const unsigned char *)a;
	const char *bad = NULL;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]) && !bad; i++)
		if (memcmp(b + fields[i].off, poison, fields[i].len) == 0)
			bad = fields[i].name;
	const char *what = "unwritten";
	if (!bad && ((unsigned)a->kind > ACT_YIELD || b[offsetof(struct action, sys)] > 1 ||
		     b[offsetof(struct action, iowait)] > 1)) {
		bad = "kind, sys or iowait";
		what = "out of range";
	}
	if (bad) {
		fprintf(stderr, "pmlab: internal error: workload %s's next() left the action's %s "
			"%s (task %s at %lld ns)\n", s->wl_own->name, bad, what, t->name,
			(long long)s->now);
		abort();
	}
}

void task_dispatch_check_setup(struct sim *s)
{
	if (!s->check)
		return;
	s->wl_own = s->wl;
	s->wl_checked = *s->wl;
	s->wl_checked.next = next_checked;
	s->wl = &s->wl_checked;
}

/* Inline in its callers (cpu.c's, under LTO), forced: it runs at every
 * burst's end and at every wakeup's, and its own call saved and restored
 * six registers each time, while the callers have theirs saved already.
 * What it inlines is kept short: a burst's start (with the stall's test
 * for none, memory_burst_stall()) and a block; the rest is
 * dispatch_stop(). */
__attribute__((always_inline)) inline bool task_dispatch(struct sim *s, struct sim_cpu *c)
{
	struct task *t = c->curr;
	bool running = false;
	int outer = s->dispatch_cpu;
	c->in_dispatch = true;
	s->dispatch_cpu = c->id;
	for (;;) {
		struct action a; /* next() writes it whole (--check: next_checked()) */
		s->wl->next(s, s->wl_data, t, &a);
		if (a.kind == ACT_RUN) {
			if (a.cycles <= 0 && a.stall_ns <= 0)
				continue;
			/* Memory stall at the present core and uncore clocks, with
			 * the coherence traffic of a group spread over packages,
			 * what the group left warm here, then the package's memory
			 * bandwidth, shared with the bursts running beside it
			 * (engine/memory.c). */
			double stall = memory_burst_stall(s, c, t, a.cycles,
							  a.stall_ns > 0 ? a.stall_ns : 0);
			t->rem_cycles = a.cycles > 0 ? a.cycles : 0;
			t->rem_stall_ns = stall + t->pending_stall_ns;
			t->pending_stall_ns = 0;
			t->burst_sys = a.sys;
			t->in_burst = true;
			t->cycles_requested += t->rem_cycles;
			running = true;
			break;
		}
		if (a.kind == ACT_BLOCK) {
			if (t->wake_pending) {
				t->wake_pending = false;
				continue;
			}
			t->state = TASK_BLOCKED;
			t->iowait = a.iowait;
			if (a.iowait)
				c->nr_iowait++;
			task_off_cpu(s, c, t);
			break;
		}
		if (!dispatch_stop(s, c, t, &a))
			break;
	}
	c->in_dispatch = false;
	s->dispatch_cpu = outer;
	if (s->knobs.uclamp_used)
		cpu_util_changed(c); /* the workload may have set the task's uclamp */
	return running;
}
