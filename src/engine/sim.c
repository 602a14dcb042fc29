// SPDX-License-Identifier: GPL-2.0-only
/* Building a run, the event loop, and collecting the result. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/suggest.h"
#include "../cpufreq/energy_hints.h"
#include "../plugin/registry.h"
#include "../sched/asym.h"
#include "../sched/cfs_defaults.h"
#include "../sched/uclamp.h"
#include "sim_internal.h"

static const char *const cpufreq_updates_words[] = { "classic", "consolidated", NULL };
static const char *const auto_demotion_words[] = { "off", "c1", "c3", "both", NULL };
static const char *const thp_words[] = { "never", "madvise", "always", NULL };
static const char *const amd_pstate_words[] = { "default", "passive", "guided", NULL };

static const struct tunable engine_tunables[] = {
	{ "hz", "scheduler tick frequency, Hz (CONFIG_HZ: 100, 250, 300 or 1000)",
	  TUNABLE_FIELD(struct engine_params, hz), 250, 100, 1000, NULL },
	{ "sched_latency_ns", "CFS target latency, ns (0: kernel default, 6 ms x (1+log2 CPUs))",
	  TUNABLE_FIELD(struct engine_params, sched_latency_ns), 0, 0, 1000000000, NULL },
	{ "sched_min_granularity_ns", "CFS minimum slice, ns (0: kernel default, 0.75 ms x (1+log2 CPUs))",
	  TUNABLE_FIELD(struct engine_params, sched_min_granularity_ns), 0, 0, 1000000000, NULL },
	{ "sched_wakeup_granularity_ns", "CFS wakeup preemption granularity, ns (0: kernel default, 1 ms x (1+log2 CPUs))",
	  TUNABLE_FIELD(struct engine_params, sched_wakeup_granularity_ns), 0, 0, 1000000000, NULL },
	{ "sched_migration_cost_ns", "time after which a task is no longer cache hot, ns",
	  TUNABLE_FIELD(struct engine_params, sched_migration_cost_ns), 500000, 0, 1000000000, NULL },
	{ "balance_interval_ms", "periodic load-balance interval of a busy CPU, ms",
	  TUNABLE_FIELD(struct engine_params, balance_interval_ms), 4, 1, 1000, NULL },
	{ "pm_qos_latency_us", "PM QoS CPU latency limit (/dev/cpu_dma_latency), us; -1: none",
	  TUNABLE_FIELD(struct engine_params, pm_qos_latency_us), -1, -1, 2000000000, NULL },
	{ "scaling_min_khz", "cpufreq scaling_min_freq, kHz (0: hardware minimum)",
	  TUNABLE_FIELD(struct engine_params, scaling_min_khz), 0, 0, 100000000, NULL },
	{ "scaling_max_khz", "cpufreq scaling_max_freq, kHz (0: hardware maximum)",
	  TUNABLE_FIELD(struct engine_params, scaling_max_khz), 0, 0, 100000000, NULL },
	{ "boost", "1: turbo frequencies available (cpufreq boost), 0: capped at base",
	  TUNABLE_FIELD(struct engine_params, boost), 1, 0, 1, NULL },
	{ "pm_qos_resume_latency_us", "per-CPU resume latency limit, us; -1: n/a (none), 0: poll only",
	  TUNABLE_FIELD(struct engine_params, pm_qos_resume_latency_us), -1, -1, 2000000000, NULL },
	{ "tick_policy", "idle loop and the tick: legacy (<4.17, always stop), governor (4.17+, "
	  "governor decides), periodic (nohz off)",
	  TUNABLE_FIELD(struct engine_params, tick_policy), TICK_GOVERNOR, 0, 2, tick_policy_words },
	{ "tick_cost_ns", "CPU time of one scheduler tick interrupt, ns (-1: the machine's tick_us)",
	  TUNABLE_FIELD(struct engine_params, tick_cost_ns), -1, -1, 1000000, NULL },
	{ "tick_stop_cost_ns", "CPU time to stop the tick on idle entry, ns, delaying a wakeup that "
	  "comes before it is done (-1: the machine's tick_stop_us)",
	  TUNABLE_FIELD(struct engine_params, tick_stop_cost_ns), -1, -1, 1000000, NULL },
	{ "tick_restart_cost_ns", "CPU time to restart a stopped tick when a task leaves idle, ns "
	  "(-1: the machine's tick_restart_us)",
	  TUNABLE_FIELD(struct engine_params, tick_restart_cost_ns), -1, -1, 1000000, NULL },
	{ "tick_reprogram_cost_ns", "CPU time of a tick stop or restart whose once-a-jiffy "
	  "bookkeeping returns early (the tick timer's cancel or start and the clock event "
	  "reprogramming), ns; at most tick_stop_cost_ns and tick_restart_cost_ns (-1: the "
	  "machine's tick_reprogram_us)",
	  TUNABLE_FIELD(struct engine_params, tick_reprogram_cost_ns), -1, -1, 1000000, NULL },
	{ "idle_polling_wakeup", "1: waking a task on a CPU idle in the polling state or an MWAIT "
	  "state only sets TIF_NEED_RESCHED, no IPI (Linux 3.13+); 0: every remote wakeup of an "
	  "idle CPU sends one (before 3.13)",
	  TUNABLE_FIELD(struct engine_params, idle_polling_wakeup), 1, 0, 1, NULL },
	{ "background_wakeups", "background wakeups (timers, RCU, kworkers, interrupts) per CPU "
	  "per second (-1: the machine's [background] wakeups_per_s; 0: none)",
	  TUNABLE_FIELD(struct engine_params, background_wakeups), -1, -1, 1000000, NULL },
	{ "cpufreq_updates", "when the scheduler calls the frequency governor: classic (tick, "
	  "enqueue, dequeue) or consolidated (context switch, tick)",
	  TUNABLE_FIELD(struct engine_params, cpufreq_updates), CPUFREQ_UPDATES_CLASSIC, 0, 1,
	  cpufreq_updates_words },
	{ "cpufreq_update_cost_ns", "CPU time of one cpufreq_update_util() call into a governor, ns "
	  "(-1: the cycles of the path the governor takes, at the CPU's clock)",
	  TUNABLE_FIELD(struct engine_params, cpufreq_update_cost_ns), -1, -1, 1000000, NULL },
	{ "sched_mc_power_savings", "0: spread for performance; 1: the balancer packs onto fewer "
	  "packages when lightly loaded; 2: also newly idle CPUs pull at once and wakeups go to the "
	  "packing package",
	  TUNABLE_FIELD(struct engine_params, sched_mc_power_savings), 0, 0, 2, NULL },
	{ "sched_util_clamp_min", "sysctl kernel.sched_util_clamp_min: the largest utilization "
	  "clamp minimum (uclamp.min boost) any task gets, 0..1024",
	  TUNABLE_FIELD(struct engine_params, sched_util_clamp_min), 1024, 0, 1024, NULL },
	{ "sched_util_clamp_max", "sysctl kernel.sched_util_clamp_max: the largest utilization "
	  "clamp maximum any task gets (1024: no cap), 0..1024",
	  TUNABLE_FIELD(struct engine_params, sched_util_clamp_max), 1024, 0, 1024, NULL },
	{ "sched_energy_aware", "sysctl kernel.sched_energy_aware: 1 lets Energy Aware Scheduling "
	  "place wakeups where the machine allows it (asymmetric capacities, an energy model, "
	  "schedutil, no SMT); 0 keeps the capacity-aware CFS placement",
	  TUNABLE_FIELD(struct engine_params, sched_energy_aware), 1, 0, 1, NULL },
	{ "sched_itmt_enabled", "sysctl kernel.sched_itmt_enabled: 1 lets ITMT (asym packing) move "
	  "work to the CPUs of highest priority (the P-cores of a hybrid part) where the machine "
	  "has them; 0 treats every CPU alike",
	  TUNABLE_FIELD(struct engine_params, sched_itmt_enabled), 1, 0, 1, NULL },
	{ "amd_prefcore", "amd-pstate's preferred cores (v6.9+): 1 gives each CPU the CPPC "
	  "highest performance of its core ([highest_perf]) as its ITMT priority where the cores' "
	  "differ; 0 is the kernel parameter amd_prefcore=disable (each core still boosts to its "
	  "own top)", TUNABLE_FIELD(struct engine_params, amd_prefcore), 1, 0, 1, NULL },
	{ "cstate_auto_demotion", "Intel's hardware C-state auto-demotion (BIOS options): off, c1 "
	  "(C3 and deeper requests to C1), c3 (C6 and deeper to C3) or both, while the CPU's previous "
	  "idle period was shorter than the requested state's target residency",
	  TUNABLE_FIELD(struct engine_params, cstate_auto_demotion), DEMOTE_OFF, 0, 3,
	  auto_demotion_words },
	{ "freq_invariant", "1: the scheduler's utilization is frequency-invariant, against the "
	  "machine's freq_invariance reference; 0: it is not (running time counts fully); -1: as the "
	  "machine says, and off for kernels before 5.7 (x86 invariance)",
	  TUNABLE_FIELD(struct engine_params, freq_invariant), -1, -1, 1, NULL },
	{ "freq_invariance_cores", "N: frequency invariance divides by the turbo frequency with N "
	  "cores active (the 2020 x86 series' NC-turbo variants; 5.7 merged 4); 0: the machine's "
	  "freq_invariance",
	  TUNABLE_FIELD(struct engine_params, freq_invariance_cores), 0, 0, MACHINE_MAX_CPUS, NULL },
	{ "pl1_w", "package power limit PL1 (RAPL long term; AMD slow PPT), W (-1: the machine's "
	  "[power_limits]; 0: none)", TUNABLE_FIELD(struct engine_params, pl1_w), -1, -1, 100000, NULL },
	{ "pl1_window_ms", "PL1's time window (the running average's time constant), ms (-1: the "
	  "machine's)", TUNABLE_FIELD(struct engine_params, pl1_window_ms), -1, -1, 1000000, NULL },
	{ "pl2_w", "package power limit PL2 (RAPL short term; AMD fast PPT), W (-1: the machine's; "
	  "0: none)", TUNABLE_FIELD(struct engine_params, pl2_w), -1, -1, 100000, NULL },
	{ "turbo_eval_us", "period at which a package re-evaluates its turbo ceiling from its busy "
	  "cores, us (0: at every change)",
	  TUNABLE_FIELD(struct engine_params, turbo_eval_us), 500, 0, 100000, NULL },
	{ "energy_perf_bias", "IA32_ENERGY_PERF_BIAS, 0 (performance) .. 15 (energy); the kernel "
	  "sets 6 (normal) at boot; acts through the machine's [energy_bias] and [uncore]",
	  TUNABLE_FIELD(struct engine_params, energy_perf_bias), 6, 0, 15, epb_words },
	{ "amd_pstate", "amd-pstate's mode under a generic governor (the kernel's amd_pstate=): "
	  "passive (the governor's frequency), guided (the hardware picks at or above it), default "
	  "(passive on a machine with an amd-pstate driver); --cpufreq amd_pstate is the active mode",
	  TUNABLE_FIELD(struct engine_params, amd_pstate), AMD_PSTATE_DEFAULT, 0, 2,
	  amd_pstate_words },
	{ "pm_qos_dynamic_low_us", "tuned's dynamic PM QoS: the limit at or above the load "
	  "threshold, us (tuned's latency_low); -1: off",
	  TUNABLE_FIELD(struct engine_params, pm_qos_dynamic_low_us), -1, -1, 2000000000, NULL },
	{ "pm_qos_dynamic_high_us", "tuned's dynamic PM QoS: the limit below the load threshold, us "
	  "(latency_high)",
	  TUNABLE_FIELD(struct engine_params, pm_qos_dynamic_high_us), 1000, 0, 2000000000, NULL },
	{ "pm_qos_dynamic_load_milli", "tuned's dynamic PM QoS: the 1-minute load average "
	  "threshold, thousandths (load_threshold 0.2: 200)",
	  TUNABLE_FIELD(struct engine_params, pm_qos_dynamic_load_milli), 200, 0, 100000000, NULL },
	{ "pm_qos_dynamic_interval_s", "tuned's update_interval, s",
	  TUNABLE_FIELD(struct engine_params, pm_qos_dynamic_interval_s), 10, 1, 3600, NULL },
	{ "transparent_hugepage", "/sys/kernel/mm/transparent_hugepage/enabled: never, madvise or "
	  "always (workloads whose private memory it covers lose TLB-miss stall)",
	  TUNABLE_FIELD(struct engine_params, transparent_hugepage), THP_ALWAYS, 0, 2, thp_words },
	{ "dirty_ratio", "vm.dirty_ratio, % of memory (writers' throttle; at least the background "
	  "ratio)", TUNABLE_FIELD(struct engine_params, dirty_ratio), 20, 0, 100, NULL },
	{ "dirty_background_ratio", "vm.dirty_background_ratio, % of memory: above it the flusher "
	  "writes back without pause",
	  TUNABLE_FIELD(struct engine_params, dirty_background_ratio), 10, 0, 100, NULL },
	{ "dirty_writeback_centisecs", "vm.dirty_writeback_centisecs: the flusher's period (0: "
	  "no periodic writeback)",
	  TUNABLE_FIELD(struct engine_params, dirty_writeback_cs), 500, 0, 8640000, NULL },
	{ "dirty_expire_centisecs", "vm.dirty_expire_centisecs: age at which dirty data is "
	  "written back",
	  TUNABLE_FIELD(struct engine_params, dirty_expire_cs), 3000, 0, 8640000, NULL },
};

#define N_ENGINE_TUNABLES ((int)(sizeof(engine_tunables) / sizeof(engine_tunables[0])))

int sim_engine_tunable_count(void)
{
	return N_ENGINE_TUNABLES;
}

const struct tunable *sim_engine_tunable_at(int i)
{
	return &engine_tunables[i];
}

sim_ns sim_now(const struct sim *s) { return s->now; }
const char *sim_workload_arg(const struct sim *s) { return s->wl_arg; }
const void *sim_workload_data(const struct sim *s) { return s->wl_lent; }
uint64_t sim_seed(const struct sim *s) { return s->seed; }
int sim_ncpus(const struct sim *s) { return s->ncpus; }
const struct machine *sim_machine(const struct sim *s) { return s->m; }

const struct workload_ops *sim_workload_ops(const struct sim *s)
{
	return s->wl;
}
void sim_record_latency(struct sim *s, sim_ns latency) { hist_add(&s->latency, latency); }
void sim_add_work(struct sim *s, double units) { s->work_done += units; }
void sim_stop(struct sim *s) { s->stopped = true; }

double sim_mean_queue_length(const struct sim *s)
{
	uint64_t pops = s->events + s->stale_events;
	return pops ? (double)s->queue_len_sum / (double)pops : 0;
}

/* Puts a timer in the lane at its place in queue order. It takes the
 * queue's next sequence number (what a post to the queue would have given
 * it), so it comes after every timer due at its time or earlier; those
 * move down by one, from the lane's end (oltp's: about 4 of the 11 the lane
 * holds; an end of exit ramp, due soonest, none). */
static void lane_push(struct sim *s, sim_ns when, uint32_t kind, uint32_t obj, uint32_t gen,
		      uint32_t arg)
{
	/* when < INT64_MAX (the posts' callers): the sentinel v[0] stops
	 * the loop. */
	struct lane_timer *p = &s->lane.v[++s->lane.n];
	for (; p[-1].time <= when; p--)
		*p = p[-1];
	*p = (struct lane_timer){ .time = when, .seq = s->q.next_seq++, .kind = kind, .obj = obj,
				  .gen = gen, .arg = arg };
	s->lane_armed = true;
}

/* Whether the lane's first timer (it must hold one) comes before an
 * event at (time, seq). */
static inline bool lane_before(const struct sim *s, sim_ns time, uint64_t seq)
{
	const struct lane_timer *f = &s->lane.v[s->lane.n];
	return f->time < time || (f->time == time && f->seq < seq);
}

/* handle()'s EV_RAMP_END: stale once the core woke again (ramp_gen) or
 * its ramp ended otherwise. */
static inline bool ramp_end_event(struct sim *s, uint32_t core, uint32_t gen)
{
	if (gen != s->cores[core].ramp_gen || !s->cores[core].ramping)
		return false;
	exit_ramp_end(s, (int)core);
	return true;
}

/* handle()'s EV_TICK: stale (dropped) if the tick stopped meanwhile,
 * reused if it restarted first (cpu_start_tick()). */
static inline bool tick_event(struct sim *s, uint32_t cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	c->tick_pending = false;
	if (!c->tick_on)
		return false;
	cpu_tick(s, c);
	return true;
}

/* The lane's first timer as the next event, as handle() runs it; false
 * for a stale one. Out of line, as check_invariants() is: with both
 * inline in sim_run(), LTO took handle() out of it (batch +17, periodic
 * +14 instr/event). */
static __attribute__((noinline)) bool lane_fire(struct sim *s)
{
	struct timer_lane *l = &s->lane;
	struct lane_timer f = l->v[l->n--];
	s->lane_armed = l->n > 0;
	s->now = f.time;
	if (f.kind == EV_RAMP_END)
		return ramp_end_event(s, f.obj, f.gen);
	if (f.kind == EV_TICK)
		return tick_event(s, f.obj);
	if (s->wl->timer)
		s->wl->timer(s, s->wl_data, f.arg);
	return true;
}

/* Out of line: inline, its register saves came with every lane post.
 * A timer the queue has no room for fails the run (s->oom), as every
 * event the engine posts does: a workload that goes on without checking
 * would otherwise wait for it forever. */
static __attribute__((noinline)) int post_to_queue(struct sim *s, sim_ns when, uint32_t arg)
{
	if (eventq_push(&s->q, when, EV_WL_TIMER, 0, 0, arg) == 0)
		return 0;
	s->oom = true;
	return -1;
}

int sim_post_workload_timer(struct sim *s, sim_ns when, uint32_t arg)
{
	if (when < s->now)
		when = s->now;
	/* A timer due at INT64_MAX (a plugin's "never") would pass the
	 * lane's sentinel: the queue takes it. */
	if (s->lane.n >= s->lane.max || when == INT64_MAX)
		return post_to_queue(s, when, arg);
	lane_push(s, when, EV_WL_TIMER, 0, 0, arg);
	return 0;
}

/* A ramp lasts one fixed time per P-state pair: its ends come due in
 * the order they are posted, the lane's best case. */
void sim_post_ramp_end(struct sim *s, sim_ns t, uint32_t core, uint32_t gen)
{
	if (s->lane.n < s->lane.engine_max && t < INT64_MAX)
		lane_push(s, t, EV_RAMP_END, core, gen, 0);
	else
		sim_post(s, t, EV_RAMP_END, core, gen, 0);
}

void sim_lane_tick(struct sim *s, sim_ns t, uint32_t cpu)
{
	if (t < INT64_MAX)
		lane_push(s, t, EV_TICK, cpu, 0, 0);
	else
		sim_post(s, t, EV_TICK, cpu, 0, 0);
}

void sim_workload_timer_lane(struct sim *s)
{
	s->lane.max = LANE_MAX;
}

struct task *sim_task(struct sim *s, uint32_t id)
{
	uint32_t slot;
	return idmap_get(&s->ids, id, &slot) ? s->slots[slot].t : NULL;
}

/* A free slot: a finished task's, else a new one. */
static int slot_take(struct sim *s, uint32_t *slot)
{
	if (s->nfree) {
		*slot = s->free_slots[--s->nfree];
		return 0;
	}
	if (s->nslots == s->cap_slots) {
		uint32_t cap = s->cap_slots ? s->cap_slots * 2 : 64;
		struct task_slot *grown = realloc(s->slots, cap * sizeof(*grown));
		if (!grown)
			return -1;
		s->slots = grown;
		uint32_t *stack = realloc(s->free_slots, cap * sizeof(*stack));
		if (!stack)
			return -1;
		s->free_slots = stack;
		s->cap_slots = cap;
	}
	*slot = s->nslots++;
	s->slots[*slot] = (struct task_slot){ NULL, 0 };
	return 0;
}

void task_observe_new(struct sim *s, const struct task *t, const struct task *parent)
{
	if (s->obs && s->obs->task_new)
		s->obs->task_new(s->obs->ctx, s->now, t, parent);
}

struct task *task_create(struct sim *s, const char *name, sim_ns start)
{
	uint32_t slot;
	if (s->tasks_created == IDMAP_EMPTY || slot_take(s, &slot) < 0)
		return NULL;
	struct task *t = calloc(1, sizeof(*t));
	if (!t || idmap_put(&s->ids, s->tasks_created, slot) < 0) {
		free(t);
		s->free_slots[s->nfree++] = slot;
		return NULL;
	}
	t->id = s->tasks_created++;
	t->slot = slot;
	t->timer_gen = s->slots[slot].timer_gen;
	s->slots[slot].t = t;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->state = TASK_NEW;
	t->cpu = -1;
	t->recent_used_cpu = -1;
	t->exec_cpu = -1;
	t->last_llc = -1;
	t->weight = NICE_0_WEIGHT;
	t->rq_pos = -1;
	t->wake_time = -1;
	t->uclamp_max = PELT_SCALE;
	/* Its utilization joins a run queue's at its first enqueue
	 * (post_init_entity_util_avg()'s attach, with util 0). */
	pelt_init(&t->pelt, 0);
	t->pelt_detached = true;
	s->nlive++;
	return t;
}

struct task *sim_task_new(struct sim *s, const char *name, sim_ns start)
{
	struct task *t = task_create(s, name, start);
	if (!t)
		return NULL;
	const struct sim_cpu *c = s->dispatch_cpu >= 0 ? &s->cpus[s->dispatch_cpu] : NULL;
	task_observe_new(s, t, c && c->mode == CPU_RUNNING ? c->curr : NULL);
	sim_post(s, start > s->now ? start : s->now, EV_TASK_START, t->slot, 0, 0);
	return t;
}

void task_finished(struct sim *s, struct task *t)
{
	s->tasks_finished++;
	s->cycles_requested_finished += t->cycles_requested;
	s->cycles_done_finished += t->cycles_done;
	if (s->keep_finished)
		return;
	if (s->ndead == s->cap_dead) {
		uint32_t cap = s->cap_dead ? s->cap_dead * 2 : 16;
		struct task **grown = realloc(s->dead, cap * sizeof(*grown));
		if (!grown) {
			s->oom = true;
			return;
		}
		s->dead = grown;
		s->cap_dead = cap;
	}
	s->dead[s->ndead++] = t;
	s->reap = true;
}

static void task_free(struct sim *s, struct task *t)
{
	idmap_del(&s->ids, t->id);
	s->slots[t->slot] = (struct task_slot){ NULL, t->timer_gen + 1 };
	s->free_slots[s->nfree++] = t->slot;
	free(t->affinity);
	free(t);
}

/* The tasks that finished during the event just handled: nothing in the
 * engine points to them any more (their CPU has switched away), and the
 * workload was told (it handed out ACT_EXIT) not to use them again. */
static void reap_finished(struct sim *s)
{
	for (uint32_t i = 0; i < s->ndead; i++)
		task_free(s, s->dead[i]);
	s->ndead = 0;
	s->reap = false;
}

int sim_task_set_affinity(struct sim *s, struct task *t, const int *cpus, int n,
			  struct pm_diag *d)
{
	if (n <= 0)
		return pm_fail(d, "task %s: empty CPU affinity", t->name);
	size_t words = ((size_t)s->ncpus + 63) / 64;
	uint64_t *mask = calloc(words, sizeof(*mask));
	if (!mask)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < n; i++) {
		if (cpus[i] < 0 || cpus[i] >= s->ncpus) {
			free(mask);
			return pm_fail(d, "task %s: CPU %d is not online (expected 0..%d)", t->name,
				       cpus[i], s->ncpus - 1);
		}
		mask[cpus[i] / 64] |= UINT64_C(1) << (cpus[i] % 64);
	}
	free(t->affinity);
	t->affinity = mask;
	/* sched_setaffinity() moves a task off a CPU it may no longer use. */
	if (t->cpu < 0 || task_allowed(t, t->cpu))
		return 0;
	struct sim_cpu *c = &s->cpus[t->cpu];
	if (t->state == TASK_QUEUED) {
		struct select_ctx w = { .kind = SELECT_MOVE, .this_cpu = t->cpu };
		int to = s->placement->select_cpu(s, t, &w);
		task_migrate(s, t, c, &s->cpus[to]);
	} else if (t->state == TASK_RUNNING && c->curr == t) {
		if (c->in_dispatch)
			c->need_resched = true; /* moved once it has said what it does next */
		else
			cpu_schedule(s, c);
	}
	return 0;
}

void sim_task_set_uclamp(struct sim *s, struct task *t, int util_min, int util_max)
{
	if (util_min >= 0)
		t->uclamp_min = (uint16_t)util_min;
	if (util_max >= 0)
		t->uclamp_max = (uint16_t)util_max;
	if ((util_min >= 0 || util_max >= 0) && !s->knobs.uclamp_used) {
		s->knobs.uclamp_used = true;
		freq_uclamp_used(s);
	}
	/* A runnable task's clamps are its run queue's (uclamp_rq_inc()). */
	if (t->cpu >= 0 && (t->state == TASK_QUEUED || t->state == TASK_RUNNING))
		cpu_util_changed(&s->cpus[t->cpu]);
}

/* Offer KEY=VALUE to each owner of tunables in turn. */
static int apply_set(struct sim *s, const char *kv, struct pm_diag *d)
{
	char key[128];
	const char *val;
	if (kv_split(kv, key, sizeof(key), &val, d) < 0)
		return -1;
	/* Applied before every other key by apply_kernel(), resolve_placement(). */
	if (strcmp(key, "kernel") == 0 || strcmp(key, "placement") == 0)
		return 0;
	/* tuned's dynamic PM QoS as the profile mapper and the host planner
	 * spell it: "LOW,HIGH,THRESHOLD" (us, us, load average). */
	if (strcmp(key, "pm_qos_dynamic") == 0)
		return pmqos_dynamic_parse(&s->par, val, kv, d);
	/* A list, not a number: which C-states are disabled (stateN/disable). */
	if (strcmp(key, "cstate_disable") == 0) {
		if (strlen(val) >= sizeof(s->cstate_disable))
			return pm_fail(d, "--set %s: list too long", kv);
		snprintf(s->cstate_disable, sizeof(s->cstate_disable), "%s", val);
		return 0;
	}
	struct {
		const struct tunable *t;
		int n;
		void *obj;
	} owners[] = {
		{ engine_tunables, N_ENGINE_TUNABLES, &s->par },
		{ s->wl->params, s->wl->nparams, s->wl_data },
		{ s->cf_gov->tunables, s->cf_gov->ntunables, s->cf_tunables },
		{ s->ci_gov->tunables, s->ci_gov->ntunables, s->ci_tunables },
		{ s->placement_named ? s->placement_named->tunables : NULL,
		  s->placement_named ? s->placement_named->ntunables : 0, s->placement_data },
	};
	for (size_t i = 0; i < sizeof(owners) / sizeof(owners[0]); i++) {
		if (!owners[i].n)
			continue;
		int r = tunables_write_kv(owners[i].t, owners[i].n, owners[i].obj, kv, d);
		/* EPB is one register the hardware (engine) and a driver that
		 * keeps it (intel_pstate) both read. */
		if (r > 0 && i == 0 && strcmp(key, "energy_perf_bias") == 0 && s->cf_gov->ntunables &&
		    tunables_write_kv(s->cf_gov->tunables, s->cf_gov->ntunables, s->cf_tunables, kv,
				      d) < 0)
			return -1;
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	struct suggest near;
	char mean[96];
	suggest_init(&near, key);
	for (size_t i = 0; i < sizeof(owners) / sizeof(owners[0]); i++)
		for (int k = 0; k < owners[i].n; k++)
			suggest_offer(&near, owners[i].t[k].name);
	suggest_offer(&near, "kernel");
	suggest_offer(&near, "cstate_disable");
	suggest_offer(&near, "placement");
	return pm_fail(d, "--set %s: unknown key '%s'%s (expected an engine, workload '%s', "
		       "cpufreq '%s' or cpuidle '%s' tunable; see pmlab governors, pmlab workloads)",
		       kv, key, suggest_text(&near, mean, sizeof(mean)), s->wl->name, s->cf_gov->name,
		       s->ci_gov->name);
}

bool sim_engine_key(const char *key)
{
	static const char *const special[] = { "kernel", "cstate_disable", "pm_qos_dynamic",
					       "placement" };
	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		if (strcmp(special[i], key) == 0)
			return true;
	for (int i = 0; i < N_ENGINE_TUNABLES; i++)
		if (strcmp(engine_tunables[i].name, key) == 0)
			return true;
	return false;
}

int sim_kernel_version(const char *v)
{
	char *end;
	long major = strtol(v, &end, 10);
	if (end == v || *end != '.' || major < 2 || major > 99)
		return -1;
	const char *m = end + 1;
	long minor = strtol(m, &end, 10);
	if (end == m || minor < 0 || minor > 999 || (*end && *end != '.' && *end != '-'))
		return -1;
	return (int)(major * 1000 + minor);
}

/* --set kernel=X.Y: the idle loop, the frequency governor and the idle
 * governor as that kernel had them (each governor names its rules).
 * Applied first, so that explicit keys still override what it chose. */
static int apply_kernel(struct sim *s, const struct sim_config *cfg, struct pm_diag *d)
{
	for (int i = 0; i < cfg->nsets; i++) {
		char key[128];
		const char *val;
		if (kv_split(cfg->sets[i], key, sizeof(key), &val, d) < 0)
			return -1;
		if (strcmp(key, "kernel") != 0)
			continue;
		int version = sim_kernel_version(val);
		if (version < 0)
			return pm_fail(d, "--set %s: expected a kernel version MAJOR.MINOR (e.g. 3.10)",
				       cfg->sets[i]);
		const struct {
			const char *kind, *name;
			int since;
		} gov[] = { { "cpufreq", s->cf_gov->name, s->cf_gov->since },
			    { "cpuidle", s->ci_gov->name, s->ci_gov->since } };
		for (int g = 0; g < 2; g++)
			if (version < gov[g].since)
				return pm_fail(d, "--set %s: the %s governor %s arrived in Linux %d.%d",
					       cfg->sets[i], gov[g].kind, gov[g].name,
					       gov[g].since / 1000, gov[g].since % 1000);
		/* The idle loop kept the polling flag set in poll_idle() and
		 * MWAIT states from v3.13 (commit ea8117478918): from then on
		 * their remote wakeups need no IPI. */
		s->par.idle_polling_wakeup = version >= 3013;
		/* The tick left to the governor came with v4.17. */
		s->par.tick_policy = version < 4017 ? TICK_LEGACY : TICK_GOVERNOR;
		/* x86 frequency invariance (APERF/MPERF, arch_scale_freq_tick())
		 * came with v5.7; before it PELT counted running time alone. */
		if (version < 5007)
			s->par.freq_invariant = 0;
		s->kernel_version = version;
		const char *cf = s->cf_gov->kernel_rules ? s->cf_gov->kernel_rules(version) : NULL;
		const char *ci = s->ci_gov->kernel_rules ? s->ci_gov->kernel_rules(version) : NULL;
		if (cf && tunables_write_kv(s->cf_gov->tunables, s->cf_gov->ntunables, s->cf_tunables,
					    cf, d) < 0)
			return -1;
		if (ci && tunables_write_kv(s->ci_gov->tunables, s->ci_gov->ntunables, s->ci_tunables,
					    ci, d) < 0)
			return -1;
	}
	return 0;
}

static void *alloc_tunables(size_t size, const struct tunable *t, int n)
{
	void *p = calloc(1, size ? size : 1);
	if (p)
		tunables_set_defaults(t, n, p);
	return p;
}

/* --set placement=NAME (the last one counts), before the other keys so
 * that a plugin's tunables can be set: a plugin's policy gets its run
 * data; a built-in one is checked by build_sched(). */
static int resolve_placement(struct sim *s, const struct sim_config *cfg, struct pm_diag *d)
{
	const char *name = NULL, *given = NULL;
	for (int i = 0; i < cfg->nsets; i++) {
		char key[128];
		const char *val;
		if (kv_split(cfg->sets[i], key, sizeof(key), &val, d) < 0)
			return -1;
		if (strcmp(key, "placement") == 0) {
			name = val;
			given = cfg->sets[i];
		}
	}
	if (!name)
		return 0;
	s->placement_named = registry_placement_find(cfg->registry, name);
	if (!s->placement_named) {
		struct suggest near;
		char mean[96], list[256] = "";
		size_t used = 0;
		suggest_init(&near, name);
		for (int i = 0; i < registry_placement_count(cfg->registry); i++) {
			const char *n = registry_placement_at(cfg->registry, i)->name;
			suggest_offer(&near, n);
			if (used < sizeof(list))
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 i ? ", " : "", n);
		}
		return pm_fail(d, "--set %s: unknown placement policy '%s'%s (expected %s; see pmlab "
			       "governors)", given, name, suggest_text(&near, mean, sizeof(mean)), list);
	}
	if (!s->placement_named->plugin)
		return 0;
	s->placement_data = alloc_tunables(s->placement_named->data_size,
					   s->placement_named->tunables,
					   s->placement_named->ntunables);
	return s->placement_data ? 0 : pm_fail(d, "out of memory");
}

/* 0 leaves a CFS knob at the kernel's default (sched/cfs_defaults.h). */
static void default_sched_params(struct sim *s)
{
	struct engine_params *p = &s->par;
	struct cfs_defaults def = cfs_defaults(s->ncpus);
	if (!p->sched_latency_ns)
		p->sched_latency_ns = def.latency_ns;
	if (!p->sched_min_granularity_ns)
		p->sched_min_granularity_ns = def.min_granularity_ns;
	if (!p->sched_wakeup_granularity_ns)
		p->sched_wakeup_granularity_ns = def.wakeup_granularity_ns;
}

/* The scheduler's view of the machine's asymmetry, its knobs and the
 * placement policy they select (sched/asym.h, sched/placement.c). */
static int build_sched(struct sim *s, struct pm_diag *d)
{
	const struct engine_params *p = &s->par;
	enum sched_asym mode = sched_asym_mode(s->m, &s->topo, s->kernel_version,
					       p->sched_itmt_enabled != 0, p->amd_prefcore != 0);
	if (sched_topology_set_asym(&s->topo, s->m, mode, d) < 0 || perf_domains_build(s, d) < 0)
		return -1;
	s->knobs = (struct sched_knobs){
		.migration_cost_ns = p->sched_migration_cost_ns,
		.balance_interval_ns = p->balance_interval_ms * NS_PER_MS,
		.mc_power_savings = (int)p->sched_mc_power_savings,
		.kernel_version = s->kernel_version,
		.uclamp_util_min = (unsigned)p->sched_util_clamp_min,
		.uclamp_util_max = (unsigned)p->sched_util_clamp_max,
		/* sysctl_sched_uclamp_handler() enables sched_uclamp_used when a
		 * default changes; a task's clamp enables it later. */
		.uclamp_used = p->sched_util_clamp_min != UCLAMP_SCALE ||
			       p->sched_util_clamp_max != UCLAMP_SCALE,
		.asym_packing = mode == SCHED_ASYM_PACKING,
		.energy_enabled = s->npds > 0,
	};
	s->placement = placement_for(&s->knobs);
	/* A built-in policy follows the kernel's settings: naming one checks
	 * that they select it (so that sweeps and comparisons can name the
	 * kernel's beside a plugin's). */
	if (s->placement_named && !s->placement_named->plugin &&
	    s->placement_named != s->placement)
		return pm_fail(d, "--set placement=%s: the kernel's settings select %s here (the "
			       "built-in policies follow sched_mc_power_savings (pack), "
			       "sched_itmt_enabled (itmt) and sched_energy_aware (eas); "
			       "placement= names a plugin's or the one they select)",
			       s->placement_named->name, s->placement->name);
	if (s->placement_named)
		s->placement = s->placement_named;
	return 0;
}

/* --set cstate_disable=C6,C7: the states' disable flag on every CPU. */
static int apply_cstate_disable(struct sim *s, struct pm_diag *d)
{
	char list[sizeof(s->cstate_disable)];
	snprintf(list, sizeof(list), "%s", s->cstate_disable);
	for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		int st = machine_cstate_index(s->m, name);
		if (st < 0)
			return pm_fail(d, "--set cstate_disable: no C-state '%s' on %s", name,
				       s->m->name);
		for (int c = 0; c < s->ncpus; c++)
			s->cpus[c].idle.disabled[st] = true;
	}
	return 0;
}

/* The engine's side of each CPU type: its clock table, turbo ceilings by
 * active cores, capacity and work per cycle. The reference of frequency
 * invariance is set later (set_invariance()). */
static int build_types(struct sim *s)
{
	const struct machine *m = s->m;
	s->ntypes = m->ntypes;
	s->types = calloc((size_t)s->ntypes, sizeof(*s->types));
	if (!s->types)
		return -1;
	uint32_t ref_khz = 0; /* highest P-state of the first type of capacity 1024 */
	for (int t = m->ntypes - 1; t >= 0; t--)
		if (m->types[t].capacity == CAPACITY_SCALE)
			ref_khz = m->types[t].pstates[m->types[t].npstates - 1].khz;
	for (int t = 0; t < s->ntypes; t++) {
		struct sim_type *ty = &s->types[t];
		const struct cpu_type *ct = &m->types[t];
		ty->t = ct;
		ty->npstates = ct->npstates;
		ty->capacity = ct->capacity;
		ty->khz = calloc((size_t)ct->npstates, sizeof(*ty->khz));
		ty->os_khz = calloc((size_t)ct->npstates, sizeof(*ty->os_khz));
		ty->turbo_cap_idx = calloc((size_t)ct->cores + 1, sizeof(int));
		if (!ty->khz || !ty->os_khz || !ty->turbo_cap_idx)
			return -1;
		for (int i = 0; i < ct->npstates; i++) {
			ty->khz[i] = ct->pstates[i].khz;
			if (ct->pstates[i].khz <= ct->base_khz)
				ty->base_idx = i;
		}
		for (int i = 0; i < ct->npstates; i++)
			if (m->turbo_control == TURBO_OS || i <= ty->base_idx || i == ct->npstates - 1)
				ty->os_khz[ty->os_npstates++] = ty->khz[i];
		for (int n = 0; n <= ct->cores; n++)
			ty->turbo_cap_idx[n] = machine_type_pstate_at_most(
				ct, machine_type_turbo_limit_khz(ct, n));
		uint32_t top = ty->khz[ty->npstates - 1];
		ty->work_per_cycle = top == ref_khz && ct->capacity == CAPACITY_SCALE ? 1.0 :
				     (double)ct->capacity / CAPACITY_SCALE * ref_khz / top;
		ty->speed = calloc((size_t)ct->npstates, sizeof(*ty->speed));
		if (!ty->speed)
			return -1;
		for (int i = 0; i < ct->npstates; i++) {
			ty->speed[i] = ty->khz[i] / 1e6; /* cycles per ns */
			if (ty->work_per_cycle != 1.0)
				ty->speed[i] *= ty->work_per_cycle; /* a smaller type's cycles do less */
		}
	}
	return 0;
}

/* The reference of frequency invariance per type; a machine without one
 * still gets the highest P-state when invariance is asked for. Each
 * P-state's arch_scale_freq_capacity(): its frequency over the reference,
 * capped at 1024 as x86's scale_freq_tick() caps it (v6.x); 1024 without
 * invariance, where running time counts whatever the clock. The kernel
 * measures it from APERF/MPERF over the last tick; here it is the
 * frequency in force. */
static int set_invariance(struct sim *s)
{
	for (int t = 0; t < s->ntypes; t++) {
		struct sim_type *ty = &s->types[t];
		const struct cpu_type *ct = ty->t;
		ty->fie_khz = s->par.freq_invariant == 0 ? 0 :
			machine_type_invariance_khz(s->m, ct, (int)s->par.boost);
		if (s->par.freq_invariant == 1 && !ty->fie_khz)
			ty->fie_khz = s->par.boost ? ct->pstates[ct->npstates - 1].khz : ct->base_khz;
		/* The patch series' "NC-turbo" (arch_max_freq_ratio from the
		 * N-active-cores turbo ratio); with turbo off, the base, as
		 * arch_set_max_freq_ratio(turbo_disabled()) makes it. */
		if (ty->fie_khz && s->par.freq_invariance_cores > 0)
			ty->fie_khz = s->par.boost ? machine_type_turbo_limit_khz(
							     ct, (int)s->par.freq_invariance_cores)
						   : ct->base_khz;
		ty->freq_scale = calloc((size_t)ty->npstates, sizeof(*ty->freq_scale));
		if (!ty->freq_scale)
			return -1;
		for (int i = 0; i < ty->npstates; i++) {
			uint64_t scale = PELT_SCALE;
			if (ty->fie_khz)
				scale = (uint64_t)ty->khz[i] * PELT_SCALE / ty->fie_khz;
			ty->freq_scale[i] = (uint32_t)(scale < PELT_SCALE ? scale : PELT_SCALE);
		}
	}
	return 0;
}

/* The package power limits: the machine's [power_limits], or --set. */
static void set_power_limits(struct sim *s)
{
	const struct machine *m = s->m;
	s->pl1_w = s->par.pl1_w >= 0 ? (double)s->par.pl1_w : m->pl1_w;
	s->pl2_w = s->par.pl2_w >= 0 ? (double)s->par.pl2_w : m->pl2_w;
	s->pl1_window_ns = s->par.pl1_window_ms >= 0 ? s->par.pl1_window_ms * NS_PER_MS
						     : m->pl1_window_ns;
	s->pl2_window_ns = m->pl2_window_ns;
	/* A limit set from the command line on a machine that has none gets
	 * the windows Intel client parts commonly report (powercap's
	 * constraint_0_time_window_us = 27983872, about 28 s, and
	 * constraint_1_time_window_us = 2440). */
	if (s->pl1_window_ns <= 0)
		s->pl1_window_ns = 27983872 * NS_PER_US;
	if (s->pl2_window_ns <= 0)
		s->pl2_window_ns = 2440 * NS_PER_US;
}

static int build_topology(struct sim *s, struct pm_diag *d)
{
	const struct machine *m = s->m;
	s->ncpus = m->online_cpus;
	s->ncores = machine_cores(m);
	s->npkgs = m->packages;
	if (sched_topology_build(&s->topo, m, d) < 0)
		return -1;
	/* Each CPU a key of the deadline heap, which holds no more. */
	_Static_assert(MACHINE_MAX_CPUS <= KEYHEAP_MAX_KEYS, "CPUs beyond the deadline heap's keys");
	s->cpus = calloc((size_t)s->ncpus, sizeof(*s->cpus));
	s->cores = calloc((size_t)s->ncores, sizeof(*s->cores));
	s->pkgs = calloc((size_t)s->npkgs, sizeof(*s->pkgs));
	if (!s->cpus || !s->cores || !s->pkgs || build_types(s) < 0 ||
	    keyheap_init(&s->bursts, (uint32_t)s->ncpus) < 0)
		return pm_fail(d, "out of memory");
	s->demote_c1 = m->ncstates > 1 && m->cstates[0].poll ? 1 : 0;
	s->demote_c3 = s->demote_c1;
	for (int i = 0; i < m->ncstates; i++)
		s->idle_at_vid |= m->cstates[i].leak_at_vid != 0;
	while (s->demote_c3 < m->ncstates &&
	       (m->cstates[s->demote_c3].poll || m->cstates[s->demote_c3].turbo_active))
		s->demote_c3++;
	for (int p = 0; p < s->npkgs; p++) {
		for (int t = 0; t < s->ntypes; t++) /* no power-limit ceiling yet */
			s->pkgs[p].limit_idx[t] = s->types[t].npstates - 1;
		s->pkgs[p].ncores = m->cores_per_package;
		s->pkgs[p].first_core = p * m->cores_per_package;
		s->pkgs[p].pkg_cstate = -1;
		uncore_clock_set(s, p, 0); /* until power_init(): the uncore's nominal power */
		if (m->unc.max_khz) { /* the uncore's clock reads them (engine/uncore.c) */
			s->pkgs[p].busy_cores = calloc((size_t)m->cores_per_package, sizeof(int));
			if (!s->pkgs[p].busy_cores)
				return pm_fail(d, "out of memory");
			s->pkgs[p].unc_stale = true; /* the clock is not the model's yet */
		}
	}
	for (int i = 0; i < s->ncores; i++) {
		s->cores[i].pkg = i / m->cores_per_package;
		s->cores[i].type = machine_core_type(m, i);
		s->cores[i].type_p = &s->types[s->cores[i].type];
		/* The core's own top ([highest_perf]): the hardware boosts each
		 * core only to what its CPPC highest performance says. */
		s->cores[i].own_cap_idx = machine_type_pstate_at_most(
			&m->types[s->cores[i].type], machine_core_max_khz(m, i));
		/* At eff_idx 0 until power_init() sets the P-states. */
		s->cores[i].speed_solo = s->types[s->cores[i].type].speed[0];
	}
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpus[c];
		cpu->id = c;
		cpu->core = machine_cpu_core(m, c);
		cpu->pkg = machine_cpu_package(m, c);
		cpu->llc = machine_cpu_llc(m, c);
		cpu->type = s->cores[cpu->core].type;
		cpu->core_p = &s->cores[cpu->core];
		cpu->pkg_p = &s->pkgs[cpu->pkg];
		cpu->type_p = &s->types[cpu->type];
		cpu->mode = CPU_IDLE;
		cpu->done_at = -1;
		cpu->avg_idle = 2 * s->par.sched_migration_cost_ns; /* rq->avg_idle's start */
		pelt_init(&cpu->pelt, 0);
		rq_init(&cpu->rq);
		eventq_init(&cpu->timers);
		struct sim_core *core = &s->cores[cpu->core];
		if (core->ncpus >= (int)(sizeof(core->cpus) / sizeof(core->cpus[0])))
			return pm_fail(d, "%s: more than 8 threads per core are not supported", m->name);
		if (core->ncpus == 0)
			s->pkgs[cpu->pkg].ncores_online++;
		core->cpus[core->ncpus++] = c;
		cpu->acct.cpu = c;
		cpu->acct.core = cpu->core;
		cpu->acct.package = cpu->pkg;
		cpu->acct.pstate_ns = calloc((size_t)s->types[cpu->type].npstates, sizeof(sim_ns));
		if (!cpu->acct.pstate_ns)
			return pm_fail(d, "out of memory");
		struct cpuidle_device *dev = &cpu->idle;
		dev->cpu = c;
		dev->states = m->types[cpu->type].cstates;
		dev->nstates = m->ncstates;
		for (int k = 0; k < dev->nstates; k++)
			if (s->par.idle_polling_wakeup && cpuidle_state_polls_flags(&dev->states[k]))
				cpu->polls_flags |= 1u << k;
		dev->gov = s->ci_gov;
		if (s->ci_gov->data_size) {
			dev->gov_data = malloc(s->ci_gov->data_size);
			if (!dev->gov_data)
				return pm_fail(d, "out of memory");
			memcpy(dev->gov_data, s->ci_tunables, s->ci_gov->data_size);
		}
	}
	for (int p = 0; p < s->npkgs; p++)
		s->pkgs[p].acct.package = p;
	return apply_cstate_disable(s, d);
}

/* What struct sim keeps of the idle entry's costs (cpu.c's enter_idle()),
 * from the machine's and the tick costs once resolved: the C0 work of a
 * CPU whose task stopped, to its C-state (the switch out, then the idle
 * loop's entry), and a tick stop while the CPU's nohz state stays (its
 * jiffy-bound work left to the reprogramming, at most the full stop). */
static void idle_entry_costs(const struct sim *s, sim_ns *stopped_entry, sim_ns *restop)
{
	*stopped_entry = s->switch_half_ns + s->m->idle_entry_ns;
	sim_ns full = s->par.tick_stop_cost_ns, re = s->par.tick_reprogram_cost_ns;
	*restop = re < full ? re : full;
}

/* Whether a CPU going idle may leave the placement's newidle_balance()
 * out while no task is stealable (s->newidle_needs_stealable). */
static bool newidle_needs_stealable(const struct sim *s)
{
	return s->placement->newidle_needs_stealable && !sched_asym_cpucap_active(&s->topo);
}

int sim_create(struct sim **out, const struct sim_config *cfg, struct pm_diag *d)
{
	*out = NULL;
	struct sim *s = calloc(1, sizeof(*s));
	if (!s)
		return pm_fail(d, "out of memory");
	s->mcopy = *cfg->machine;
	machine_types_resolve(&s->mcopy);
	s->m = &s->mcopy;
	s->seed = cfg->seed;
	s->end = cfg->duration;
	s->check = cfg->check_invariants;
	s->call_every_hook = cfg->call_every_hook;
	s->dispatch_cpu = -1;
	s->obs = cfg->observer;
	s->progress = cfg->progress;
	s->progress_ctx = cfg->progress_ctx;
	s->hooks = s->check || s->progress;
	s->keep_finished = cfg->keep_finished_tasks;
	idmap_init(&s->ids);
	eventq_init(&s->q);
	s->lane.engine_max = LANE_MAX;
	s->lane.v[0].time = INT64_MAX; /* the sentinel: lane_push() */
	hist_init(&s->latency);
	hist_init(&s->wakeup_latency);
	*out = s;

	if (cfg->duration <= 0)
		return pm_fail(d, "--duration: must be positive (expected seconds > 0)");
	const char *colon = strchr(cfg->workload, ':');
	size_t nlen = colon ? (size_t)(colon - cfg->workload) : strlen(cfg->workload);
	if (nlen >= sizeof(s->wl_name))
		return pm_fail(d, "unknown workload '%s' (see pmlab workloads)", cfg->workload);
	memcpy(s->wl_name, cfg->workload, nlen);
	s->wl_name[nlen] = '\0';
	s->wl_arg = colon ? colon + 1 : NULL;
	s->wl_lent = cfg->workload_data;
	struct suggest near;
	char mean[96];
	s->wl = registry_workload_find(cfg->registry, s->wl_name);
	if (!s->wl) {
		suggest_init(&near, s->wl_name);
		for (int i = 0; i < registry_workload_count(cfg->registry); i++)
			suggest_offer(&near, registry_workload_at(cfg->registry, i)->name);
		return pm_fail(d, "unknown workload '%s'%s (see pmlab workloads)", s->wl_name,
			       suggest_text(&near, mean, sizeof(mean)));
	}
	s->cf_gov = registry_cpufreq_find(cfg->registry, cfg->cpufreq);
	if (!s->cf_gov) {
		suggest_init(&near, cfg->cpufreq);
		for (int i = 0; i < registry_cpufreq_count(cfg->registry); i++)
			suggest_offer(&near, registry_cpufreq_at(cfg->registry, i)->name);
		return pm_fail(d, "unknown cpufreq governor '%s'%s (see pmlab governors)",
			       cfg->cpufreq, suggest_text(&near, mean, sizeof(mean)));
	}
	s->ci_gov = registry_cpuidle_find(cfg->registry, cfg->cpuidle);
	if (!s->ci_gov) {
		suggest_init(&near, cfg->cpuidle);
		for (int i = 0; i < registry_cpuidle_count(cfg->registry); i++)
			suggest_offer(&near, registry_cpuidle_at(cfg->registry, i)->name);
		return pm_fail(d, "unknown cpuidle governor '%s'%s (see pmlab governors)",
			       cfg->cpuidle, suggest_text(&near, mean, sizeof(mean)));
	}

	tunables_set_defaults(engine_tunables, N_ENGINE_TUNABLES, &s->par);
	s->wl_data = alloc_tunables(s->wl->data_size, s->wl->params, s->wl->nparams);
	s->cf_tunables = alloc_tunables(s->cf_gov->data_size, s->cf_gov->tunables, s->cf_gov->ntunables);
	s->ci_tunables = alloc_tunables(s->ci_gov->data_size, s->ci_gov->tunables, s->ci_gov->ntunables);
	if (!s->wl_data || !s->cf_tunables || !s->ci_tunables)
		return pm_fail(d, "out of memory");
	if (resolve_placement(s, cfg, d) < 0 || apply_kernel(s, cfg, d) < 0)
		return -1;
	for (int i = 0; i < cfg->nsets; i++)
		if (apply_set(s, cfg->sets[i], d) < 0)
			return -1;
	if (s->par.hz != 100 && s->par.hz != 250 && s->par.hz != 300 && s->par.hz != 1000)
		return pm_fail(d, "--set hz=%lld: not a CONFIG_HZ choice (expected 100, 250, 300 or 1000)",
			       (long long)s->par.hz);
	s->tick_ns = (NS_PER_SEC + s->par.hz / 2) / s->par.hz;
	s->switch_half_ns = s->m->context_switch_ns / 2;
	/* Kernel costs the --set keys leave to the machine's [costs]. */
	if (s->par.tick_cost_ns < 0)
		s->par.tick_cost_ns = s->m->tick_cost_ns;
	if (s->par.tick_stop_cost_ns < 0)
		s->par.tick_stop_cost_ns = s->m->tick_stop_ns;
	if (s->par.tick_restart_cost_ns < 0)
		s->par.tick_restart_cost_ns = s->m->tick_restart_ns;
	if (s->par.tick_reprogram_cost_ns < 0)
		s->par.tick_reprogram_cost_ns = s->m->tick_reprogram_ns;
	idle_entry_costs(s, &s->stopped_entry_ns, &s->tick_restop_ns);
	if (s->par.sched_util_clamp_min > s->par.sched_util_clamp_max)
		return pm_fail(d, "--set sched_util_clamp_min=%lld: above sched_util_clamp_max=%lld "
			       "(the kernel refuses it with EINVAL; sched_util_clamp_min defaults "
			       "to 1024, so lower it too)",
			       (long long)s->par.sched_util_clamp_min,
			       (long long)s->par.sched_util_clamp_max);
	pmqos_dynamic_init(s);

	if (build_topology(s, d) < 0)
		return -1;
	if (set_invariance(s) < 0)
		return pm_fail(d, "out of memory");
	set_power_limits(s);
	if (power_tables(s) < 0)
		return pm_fail(d, "out of memory");
	if (build_sched(s, d) < 0)
		return -1;
	default_sched_params(s);
	if (s->placement->init && s->placement->init(s, s->placement, d) < 0)
		return -1;
	s->newidle_needs_stealable = newidle_needs_stealable(s);
	for (int c = 0; c < s->ncpus; c++)
		if (s->ci_gov->init && s->ci_gov->init(&s->cpus[c].idle, d) < 0)
			return -1;
	cpu_idle_setup(s);
	if (freq_init(s, d) < 0)
		return -1;
	cpu_wake_setup(s); /* after freq_init(): s->amd_pstate */
	cpu_stall_costs_setup(s);
	task_wake_setup(s);
	task_dispatch_check_setup(s);
	if (background_init(s, d) < 0)
		return -1;
	writeback_init(s);
	if (s->wl->init(s, s->wl_data, d) < 0)
		return -1;
	if (s->oom)
		return pm_fail(d, "out of memory");
	return 0;
}

/* Out of line: see lane_fire(). */
static __attribute__((noinline)) void check_invariants(struct sim *s)
{
	sim_ns stopped_entry, restop;
	idle_entry_costs(s, &stopped_entry, &restop);
	if (stopped_entry != s->stopped_entry_ns || restop != s->tick_restop_ns) {
		fprintf(stderr, "pmlab: internal error: the idle entry's kept costs disagree with "
			"their inputs at %lld ns\n", (long long)s->now);
		abort();
	}
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpus[c];
		int running = cpu->mode == CPU_RUNNING;
		/* Only between a switch out and its idle entry (cpu.c). */
		if (cpu->switch_out_ns)
			goto bad;
		if (running && (!cpu->curr || cpu->curr->state != TASK_RUNNING || cpu->curr->cpu != c))
			goto bad;
		if (cpu->mode == CPU_IDLE && (cpu->rq.len || cpu->nr_running))
			goto bad;
		/* Only a running CPU has a task current: the end of a wakeup
		 * picks with none (cpu_schedule_woken()). */
		if (!running && cpu->curr)
			goto bad;
		if (cpu->nr_running != cpu->rq.len + (running ? 1 : 0))
			goto bad;
		/* Its core, package and type by address, its core's type too. */
		if (cpu->core_p != &s->cores[cpu->core] || cpu->pkg_p != &s->pkgs[cpu->pkg] ||
		    cpu->type_p != &s->types[cpu->type] ||
		    cpu->core_p->type_p != &s->types[cpu->core_p->type])
			goto bad;
		/* Its stealable tasks (cpu_stealable()): a running CPU's queue,
		 * none on another. */
		if (cpu->stealable != (running ? cpu->rq.len : 0))
			goto bad;
		/* A running CPU's speed follows its P-state and SMT share. */
		if (running && cpu->speed != cpu_speed(s, cpu))
			goto bad;
		/* The deepest allowed C-state kept for the last latency limit. */
		if (cpu->idle.deepest_known &&
		    cpu->idle.deepest != cpuidle_deepest_scan(&cpu->idle, cpu->idle.deepest_limit_ns))
			goto bad;
		/* The figures an idle exit is classified by (cpuidle_record_exit()). */
		if (!cpuidle_fit_consistent(&cpu->idle))
			goto bad;
		/* Its deadline: the end of its wakeup or of its task's burst,
		 * no other (cpu_schedule() drops a void one), and at that
		 * time (the handler of one moves it or takes it out: sim_run()
		 * leaves a live one to it). */
		if (keyheap_has(&s->bursts, (uint32_t)c) !=
		    (cpu->mode == CPU_WAKING || (running && cpu->curr->in_burst)))
			goto bad;
		if (keyheap_has(&s->bursts, (uint32_t)c) &&
		    keyheap_time(&s->bursts, (uint32_t)c) !=
			    (cpu->mode == CPU_WAKING ? cpu->irq_end : cpu->done_at))
			goto bad;
		continue;
bad:
		fprintf(stderr, "pmlab: internal error: CPU %d inconsistent at %lld ns "
			"(mode %d, nr_running %d, queued %d)\n", c, (long long)s->now, cpu->mode,
			cpu->nr_running, cpu->rq.len);
		abort();
	}
	/* The queue holds EV_END while the run goes on: sim_run()'s loop
	 * reads its first event untested. */
	if (s->q.len == 0) {
		fprintf(stderr, "pmlab: internal error: the event queue is empty at %lld ns\n",
			(long long)s->now);
		abort();
	}
	/* The latency histograms' fast-path bound and sum (hist_add()). */
	if (!hist_check(&s->latency) || !hist_check(&s->wakeup_latency)) {
		fprintf(stderr, "pmlab: internal error: latency histogram inconsistent at %lld ns\n",
			(long long)s->now);
		abort();
	}
	/* The timer lane armed while it holds a timer, its sentinel in
	 * place, in queue order (by time, then sequence number), none of it
	 * past due or due at the sentinel's INT64_MAX. */
	if (s->lane_armed != (s->lane.n > 0) || s->lane.v[0].time != INT64_MAX) {
		fprintf(stderr, "pmlab: internal error: workload timer lane armed %d with %u "
			"timers at %lld ns\n", s->lane_armed, s->lane.n, (long long)s->now);
		abort();
	}
	for (uint32_t i = 1; i <= s->lane.n; i++) {
		const struct lane_timer *a = &s->lane.v[i];
		const struct lane_timer *b = &s->lane.v[i + 1];
		if (a->time < s->now || a->time == INT64_MAX ||
		    (i < s->lane.n && (a->time < b->time || (a->time == b->time && a->seq <= b->seq)))) {
			fprintf(stderr, "pmlab: internal error: workload timer lane out of order "
				"at %lld ns\n", (long long)s->now);
			abort();
		}
	}
	/* The CPUs' deadlines carry their sequence numbers in 48 bits
	 * (core/keyheap.h). */
	if (s->q.next_seq >= KEYHEAP_MAX_SEQ) {
		fprintf(stderr, "pmlab: internal error: sequence number %llu past the deadline "
			"heap's at %lld ns\n", (unsigned long long)s->q.next_seq, (long long)s->now);
		abort();
	}
	if (!cpu_idle_path_consistent(s) || !cpu_wake_path_consistent(s) ||
	    !task_wake_setup_consistent(s) || s->switch_half_ns != s->m->context_switch_ns / 2 ||
	    !cpu_stall_costs_consistent(s) ||
	    s->newidle_needs_stealable != newidle_needs_stealable(s)) {
		fprintf(stderr,
			"pmlab: internal error: the idle loop's kept state (its version, the tick "
			"period, a blind governor's answer, the LLC's idle-cores flag), the idle "
			"exit's version, the wakeup's "
			"(classic_hook, polls_flags), switch_half_ns, the stall costs or "
			"newidle_needs_stealable "
			"disagrees with its inputs at %lld ns\n",
			(long long)s->now);
		abort();
	}
	/* Each CPU's index in its policy, which cpufreq_policy_cpu_index()
	 * reads untested: the CPU's own place in its own policy. */
	for (int c = 0; c < s->ncpus; c++) {
		const struct cpufreq_policy *p = &s->policies[s->cpus[c].policy].p;
		int j = p->cpu_index[c];
		if (j < 0 || j >= p->ncpus || p->cpus[j] != c) {
			fprintf(stderr, "pmlab: internal error: CPU %d has index %d in cpufreq "
				"policy %d, which is not its own\n", c, j, p->id);
			abort();
		}
		if (s->cpus[c].votes_per_cpu != s->policies[s->cpus[c].policy].per_cpu_requests) {
			fprintf(stderr, "pmlab: internal error: CPU %d's votes_per_cpu disagrees "
				"with its cpufreq policy's per_cpu_requests at %lld ns\n", c,
				(long long)s->now);
			abort();
		}
		if (!freq_util_src_agrees(s, c)) {
			fprintf(stderr, "pmlab: internal error: CPU %d's utilization signals in "
				"place disagree with cpu_util() at %lld ns\n", c, (long long)s->now);
			abort();
		}
	}
	/* What the cpufreq governor keeps between calls (schedutil's maximum). */
	for (int i = 0; i < s->npolicies; i++)
		if (s->cf_gov->check && !s->cf_gov->check(&s->policies[i].p)) {
			fprintf(stderr, "pmlab: internal error: cpufreq policy %d: the %s governor's "
				"kept state disagrees with its inputs at %lld ns\n", i, s->cf_gov->name,
				(long long)s->now);
			abort();
		}
	/* A package's count of turbo-active cores of a type is its cores' flags. */
	for (int p = 0; p < s->npkgs; p++) {
		for (int t = 0; t < s->ntypes; t++) {
			int n = 0;
			for (int i = 0; i < s->pkgs[p].ncores; i++) {
				const struct sim_core *core = &s->cores[s->pkgs[p].first_core + i];
				n += core->type == t && core->turbo_active;
			}
			if (n != s->pkgs[p].nturbo_cores[t]) {
				fprintf(stderr, "pmlab: internal error: package %d counts %d "
					"turbo-active cores of type %d, its cores %d, at %lld ns\n", p,
					s->pkgs[p].nturbo_cores[t], t, n, (long long)s->now);
				abort();
			}
		}
	}
	/* The counts of stealable tasks (cpu_stealable()) are the run queues'
	 * of the running CPUs, per package and over the machine. */
	long all = 0;
	for (int p = 0; p < s->npkgs; p++) {
		long n = 0;
		for (int c = 0; c < s->ncpus; c++)
			if (s->cpus[c].pkg == p && s->cpus[c].mode == CPU_RUNNING)
				n += s->cpus[c].rq.len;
		all += n;
		if (n != s->pkgs[p].nr_stealable) {
			fprintf(stderr, "pmlab: internal error: package %d counts %ld stealable tasks, "
				"its run queues %ld, at %lld ns\n", p, s->pkgs[p].nr_stealable, n,
				(long long)s->now);
			abort();
		}
	}
	if (all != s->nr_stealable) {
		fprintf(stderr, "pmlab: internal error: %ld stealable tasks counted, %ld queued on "
			"running CPUs, at %lld ns\n", s->nr_stealable, all, (long long)s->now);
		abort();
	}
	/* The counts of active cores that leave the turbo ceiling alone. */
	for (int p = 0; p < s->npkgs; p++)
		if (!pkg_turbo_window_consistent(s, p)) {
			fprintf(stderr, "pmlab: internal error: package %d's window of turbo-active "
				"counts that keep the ceiling disagrees with its bins at %lld ns\n", p,
				(long long)s->now);
			abort();
		}
	/* The uncore's record of the busy cores' fastest clock is a scan's. */
	for (int p = 0; p < s->npkgs; p++) {
		int n;
		uint32_t khz = s->pkgs[p].busy_cores ? uncore_busy_scan(s, p, &n) : 0;
		if (s->pkgs[p].busy_cores && s->pkgs[p].busy_top_n >= 0 &&
		    (khz != s->pkgs[p].busy_top_khz || n != s->pkgs[p].busy_top_n)) {
			fprintf(stderr, "pmlab: internal error: package %d keeps %u kHz x %d as its "
				"busy cores' fastest, they run at %u kHz x %d, at %lld ns\n", p,
				s->pkgs[p].busy_top_khz, s->pkgs[p].busy_top_n, khz, n,
				(long long)s->now);
			abort();
		}
	}
	/* The uncore's clock and power are what re-evaluations would find
	 * (pkg_core_busy_more() moves the clock ahead of the core's update). */
	for (int p = 0; p < s->npkgs; p++)
		if (!uncore_consistent(s, p) || !pkg_power_consistent(s, p)) {
			fprintf(stderr, "pmlab: internal error: package %d's uncore at %u kHz, "
				"%g W disagrees with its state at %lld ns\n", p,
				s->pkgs[p].unc_khz, s->pkgs[p].p_uncore, (long long)s->now);
			abort();
		}
	/* A package's busy count is its cores' (core_thread_busy()'s and
	 * core_thread_idle()'s hand-over path moves the count alone). */
	for (int p = 0; p < s->npkgs; p++) {
		int n = 0;
		for (int i = 0; i < s->pkgs[p].ncores; i++)
			n += s->cores[s->pkgs[p].first_core + i].nbusy != 0;
		if (n != s->pkgs[p].nbusy_cores) {
			fprintf(stderr, "pmlab: internal error: package %d counts %d cores in C0, "
				"%d are, at %lld ns\n", p, s->pkgs[p].nbusy_cores, n, (long long)s->now);
			abort();
		}
	}
	/* The power walks' end (power_init()): no core past it has a CPU. */
	for (int p = 0; p < s->npkgs; p++)
		for (int i = s->pkgs[p].ncores_walk; i < s->pkgs[p].ncores; i++)
			if (s->cores[s->pkgs[p].first_core + i].ncpus) {
				fprintf(stderr, "pmlab: internal error: package %d's power walks stop "
					"at core %d, core %d has CPUs, at %lld ns\n", p,
					s->pkgs[p].ncores_walk, i, (long long)s->now);
				abort();
			}
	/* A core's busy count is its threads' modes (exit_ramp.c reads it
	 * for them). */
	for (int i = 0; i < s->ncores; i++) {
		int n = 0;
		for (int k = 0; k < s->cores[i].ncpus; k++)
			n += s->cpus[s->cores[i].cpus[k]].mode != CPU_IDLE;
		if (n != s->cores[i].nbusy) {
			fprintf(stderr, "pmlab: internal error: core %d counts %d threads in C0, "
				"%d are, at %lld ns\n", i, s->cores[i].nbusy, n, (long long)s->now);
			abort();
		}
		/* Its threads' speed alone (cpu_speed()) is its type's at its
		 * P-state (set_eff_idx()). */
		if (s->cores[i].speed_solo != s->types[s->cores[i].type].speed[s->cores[i].eff_idx]) {
			fprintf(stderr, "pmlab: internal error: core %d's speed is not its P-state's "
				"at %lld ns\n", i, (long long)s->now);
			abort();
		}
	}
	/* A halted core's power by C-state (power_tables()) is its type's
	 * C-state table's, which nothing changes after setup. */
	for (int t = 0; t < s->ntypes; t++)
		for (int i = 0; i < s->m->ncstates; i++) {
			const struct cstate *cs = &s->types[t].t->cstates[i];
			const struct core_idle_w *iw = &s->types[t].idle_w[i];
			if (iw->w != cs->power_w || iw->c0 != (cs->poll != 0) ||
			    iw->at_vid != (cs->leak_at_vid != 0) ||
			    iw->turbo != (cs->turbo_active != 0)) {
				fprintf(stderr, "pmlab: internal error: type %d's C-state %d power "
					"table disagrees with its C-state at %lld ns\n", t, i,
					(long long)s->now);
				abort();
			}
		}
	/* Each PELT signal's slow_from: its period's end, flagged for a run
	 * queue exactly while removed utilization waits (sched/pelt.h). */
	for (int c = 0; c < s->ncpus; c++)
		if (!pelt_consistent(&s->cpus[c].pelt, s->cpus[c].removed.nr != 0)) {
			fprintf(stderr, "pmlab: internal error: CPU %d's PELT signal keeps slow_from "
				"%lld at %llu with %u removed waiting, at %lld ns\n", c,
				(long long)s->cpus[c].pelt.slow_from,
				(unsigned long long)s->cpus[c].pelt.last_update_time,
				s->cpus[c].removed.nr, (long long)s->now);
			abort();
		}
	/* No task on two CPUs at once. */
	for (uint32_t i = 0; i < s->nslots; i++) {
		const struct task *t = s->slots[i].t;
		if (!t)
			continue;
		if (!pelt_consistent(&t->pelt, false)) {
			fprintf(stderr, "pmlab: internal error: task %u's PELT signal keeps slow_from "
				"%lld at %llu, at %lld ns\n", t->id, (long long)t->pelt.slow_from,
				(unsigned long long)t->pelt.last_update_time, (long long)s->now);
			abort();
		}
		int seen = 0;
		for (int c = 0; c < s->ncpus; c++)
			seen += s->cpus[c].mode == CPU_RUNNING && s->cpus[c].curr == t;
		if (seen != (t->state == TASK_RUNNING)) {
			fprintf(stderr, "pmlab: internal error: task %u is current on %d CPUs at %lld ns\n",
				t->id, seen, (long long)s->now);
			abort();
		}
	}
}

/* A CPU's end of burst. */
static void burst_done(struct sim *s, struct sim_cpu *c)
{
	c->done_at = -1;
	/* Kernel time charged during the burst (cpu_charge) moved its end. */
	cpu_sync(s, c);
	if (c->curr->rem_cycles > 0 || c->curr->rem_stall_ns > 0) {
		cpu_arm_done(s, c);
		return;
	}
	cpu_burst_done(s, c);
}

/* A CPU's deadline (the `bursts` heap): its end of wakeup while it wakes,
 * its end of burst while it runs one; false for a deadline left over
 * (a CPU scheduled while waking, or idle again). */
static bool cpu_deadline(struct sim *s, struct sim_cpu *c, sim_ns at)
{
	if (c->mode == CPU_WAKING) {
		cpu_wake_done(s, c);
		return true;
	}
	if (c->mode != CPU_RUNNING || c->done_at != at)
		return false;
	burst_done(s, c);
	return true;
}

/* Dispatches one event of the queue; returns false for a stale one (its
 * generation moved on: the thing it was for was cancelled or
 * rescheduled). */
static bool handle(struct sim *s, const struct event *e)
{
	switch (e->kind) {
	case EV_TASK_START:
		task_wake(s, s->slots[e->obj].t, -1, false);
		return true;
	case EV_TICK:
		return tick_event(s, e->obj);
	case EV_TIMER: {
		struct task *t = s->slots[e->obj].t;
		if (!t || e->gen != t->timer_gen)
			return false;
		task_timer(s, t);
		return true;
	}
	case EV_FREQ_APPLY:
		if (e->gen != s->policies[e->obj].apply_gen)
			return false;
		freq_apply(s, (int)e->obj, (int)e->arg);
		return true;
	case EV_POLL_END: {
		struct sim_cpu *c = &s->cpus[e->obj];
		if (e->gen != c->wake_gen || c->mode != CPU_IDLE || !c->idle.states[c->cstate].poll)
			return false;
		cpu_poll_end(s, c);
		return true;
	}
	case EV_TURBO_EVAL:
		pkg_turbo_eval(s, (int)e->obj);
		return true;
	case EV_BACKGROUND:
		background_fire(s, &s->cpus[e->obj]);
		return true;
	case EV_POWER_LIMIT:
		power_limit_eval(s, (int)e->obj);
		return true;
	case EV_LOADAVG:
		loadavg_sample(s);
		return true;
	case EV_PMQOS_DYNAMIC:
		pmqos_dynamic_eval(s);
		return true;
	case EV_WRITEBACK:
		writeback_run(s);
		return true;
	case EV_HW_LOOP: {
		struct sim_cpu *c = &s->cpus[e->obj];
		if (e->gen != c->wake_gen || c->mode == CPU_IDLE)
			return false;
		freq_hw_loop(s, c);
		return true;
	}
	case EV_RAMP_END:
		return ramp_end_event(s, e->obj, e->gen);
	case EV_WL_TIMER:
		if (s->wl->timer)
			s->wl->timer(s, s->wl_data, e->arg);
		return true;
	default:
		return false;
	}
}

static int collect(struct sim *s, struct run_result *r, struct pm_diag *d)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->machine, sizeof(r->machine), "%s", s->m->name);
	snprintf(r->workload, sizeof(r->workload), "%s", s->wl->name);
	snprintf(r->cpufreq, sizeof(r->cpufreq), "%s", s->cf_gov->name);
	snprintf(r->cpuidle, sizeof(r->cpuidle), "%s", s->ci_gov->name);
	if (strcmp(s->placement->name, "spread") != 0)
		snprintf(r->placement, sizeof(r->placement), "%s", s->placement->name);
	snprintf(r->throughput_unit, sizeof(r->throughput_unit), "%s", s->wl->throughput_unit);
	snprintf(r->latency_what, sizeof(r->latency_what), "%s", s->wl->latency_what);
	r->seed = s->seed;
	r->m = s->m;
	r->ncpus = s->ncpus;
	r->npackages = s->npkgs;
	r->duration_ns = s->now;
	r->work_done = s->work_done;
	r->throughput = s->now > 0 ? s->work_done / ((double)s->now * 1e-9) : 0;
	r->latency = s->latency;
	r->wakeup_latency = s->wakeup_latency;
	r->ctx_switches = s->ctx_switches;
	r->migrations = s->migrations;
	r->wakeups = s->wakeups;
	r->freq_transitions = s->freq_transitions;
	r->cpufreq_updates = s->cpufreq_hook_calls;
	r->events = s->events;
	r->stale_events = s->stale_events;
	r->tasks_created = s->tasks_created;
	r->tasks_finished = s->tasks_finished;
	r->cycles_requested_finished = s->cycles_requested_finished;
	r->cycles_done_finished = s->cycles_done_finished;
	r->cpus = calloc((size_t)s->ncpus, sizeof(*r->cpus));
	r->pkgs = calloc((size_t)s->npkgs, sizeof(*r->pkgs));
	if (!r->cpus || !r->pkgs)
		return pm_fail(d, "out of memory");
	for (int c = 0; c < s->ncpus; c++) {
		s->cpus[c].acct.c0_mhz_ns = cpu_c0_mhz_ns(s, &s->cpus[c]);
		r->cpus[c] = s->cpus[c].acct;
		/* Entries, too short and too long, as the cpuidle device
		 * counted them (the idle loop keeps no second count). */
		const struct cpuidle_device *dev = &s->cpus[c].idle;
		for (int st = 0; st < dev->nstates; st++) {
			r->cpus[c].cstate_usage[st] = dev->stats[st].usage;
			r->cpus[c].cstate_above[st] = dev->stats[st].above;
			r->cpus[c].cstate_below[st] = dev->stats[st].below;
		}
		s->cpus[c].acct.pstate_ns = NULL; /* ownership moves to the result */
	}
	for (int i = 0; i < s->ncores; i++) {
		const struct sim_core *core = &s->cores[i];
		struct package_result *pr = &s->pkgs[core->pkg].acct;
		pr->energy_core_dynamic_j += core->e_dyn;
		pr->energy_core_static_j += core->e_static;
	}
	for (int p = 0; p < s->npkgs; p++) {
		r->pkgs[p] = s->pkgs[p].acct;
		r->energy_core_dynamic_j += r->pkgs[p].energy_core_dynamic_j;
		r->energy_core_static_j += r->pkgs[p].energy_core_static_j;
		r->energy_uncore_j += r->pkgs[p].energy_uncore_j;
	}
	platform_power_collect(s, r);
	if (s->wl->report)
		s->wl->report(s, s->wl_data, r);
	return 0;
}

/* sim_run()'s one test after an event sees every flag only if they all
 * lie inside the word it reads. */
_Static_assert(offsetof(struct sim, hooks) + sizeof(bool) <=
		       offsetof(struct sim, attention_work) + sizeof(uint32_t) &&
	       offsetof(struct sim, lane_armed) + sizeof(bool) <=
		       offsetof(struct sim, attention) + sizeof(uint64_t),
	       "struct sim's attention flags fit in its attention word");

/* Whether the deadlines' first (a CPU's end of burst or of wakeup) comes
 * before the queue's first event, top. */
static inline bool deadline_first(const struct sim *s, const struct event *top)
{
	return s->bursts.n && keyheap_first_before(&s->bursts, top->time, top->seq);
}

/* Out of line: its one caller in a program (the CLI's, the benchmark's)
 * would take it in, and the benchmark counts instructions inside it
 * (callgrind --toggle-collect=sim_run). */
__attribute__((noinline)) int sim_run(struct sim *s, struct run_result *r, struct pm_diag *d)
{
	memset(r, 0, sizeof(*r));
	for (int c = 0; c < s->ncpus; c++)
		cpu_enter_idle(s, &s->cpus[c]);
	power_init(s);
	power_limit_init(s);
	sim_post(s, s->end, EV_END, 0, 0, 0);
	if (s->oom)
		return pm_fail(d, "out of memory");
	/* The next event is the earliest of the queue's first, the
	 * deadlines' first and, while the lane holds a timer, the lane's
	 * first. The queue holds EV_END until the loop pops it and stops:
	 * its first is there at every turn (check_invariants()). The lane's
	 * first is compared with the earlier of the other two: after an
	 * event that leaves the lane a timer (the attention block, which a
	 * run whose lane stays empty skips: the lane's flag is a byte of the
	 * attention word), the pick goes to `lane`, and from there to the
	 * event's dispatch or the lane's. */
	struct event e;
	const struct event *top;
	const struct keyheap_node *b = keyheap_first(&s->bursts);
	bool deadline, live;
	size_t len;
	if (s->lane_armed)
		goto lane;
	for (;;) {
		top = eventq_first(&s->q);
		deadline = deadline_first(s, top);
		len = s->q.len + s->bursts.n;
dispatch:
		if (deadline) {
			/* A CPU's end of burst or of wakeup. It stays in the heap
			 * while handled: the next burst's end moves it down from
			 * the top, one sift where a pop and a set take two, and
			 * a handler that arms none takes it out (the invariant
			 * check compares each CPU's deadline with its burst's or
			 * wakeup's end). One left over goes here. */
			b = keyheap_first(&s->bursts);
			uint32_t cpu = keyheap_node_key(b);
			uint64_t order = b->order;
			s->now = b->time;
			live = cpu_deadline(s, &s->cpus[cpu], b->time);
			if (!live)
				keyheap_cancel_order(&s->bursts, order);
		} else {
			eventq_pop(&s->q, &e);
			s->now = e.time;
			if (e.kind == EV_END)
				break;
			live = handle(s, &e);
		}
counted:
		s->queue_len_sum += len;
		if (live)
			s->events++;
		else
			s->stale_events++;
		if (s->attention) {
			if (s->attention_work) {
				if (s->reap)
					reap_finished(s);
				if (s->oom)
					return pm_fail(d, "out of memory");
				if (s->check)
					check_invariants(s);
				if (s->progress &&
				    ((s->events + s->stale_events) & 0xfffff) == 0)
					s->progress(s->progress_ctx,
						    (double)s->now / (double)s->end);
				if (s->stopped)
					break;
			}
			if (s->lane_armed) {
lane:
				/* The pick with the lane's timers, which count in
				 * the mean queue length. */
				top = eventq_first(&s->q);
				deadline = deadline_first(s, top);
				b = keyheap_first(&s->bursts);
				len = s->q.len + s->bursts.n + s->lane.n;
				if (!(deadline ? lane_before(s, b->time, keyheap_node_seq(b))
					       : lane_before(s, top->time, top->seq)))
					goto dispatch;
				live = lane_fire(s);
				goto counted;
			}
		}
	}
	for (int c = 0; c < s->ncpus; c++)
		cpu_sync(s, &s->cpus[c]);
	power_flush(s);
	return collect(s, r, d);
}

void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	if (s->wl && s->wl->fini && s->wl_data)
		s->wl->fini(s->wl_data);
	freq_fini(s);
	for (int c = 0; s->cpus && c < s->ncpus; c++) {
		rq_free(&s->cpus[c].rq);
		eventq_free(&s->cpus[c].timers);
		free(s->cpus[c].acct.pstate_ns);
		free(s->cpus[c].idle.gov_data);
	}
	for (uint32_t i = 0; i < s->nslots; i++) {
		if (s->slots[i].t) {
			free(s->slots[i].t->affinity);
			free(s->slots[i].t);
		}
	}
	free(s->slots);
	free(s->free_slots);
	free(s->dead);
	idmap_free(&s->ids);
	free(s->cpus);
	free(s->cores);
	for (int p = 0; s->pkgs && p < s->npkgs; p++)
		free(s->pkgs[p].busy_cores);
	free(s->pkgs);
	sched_topology_free(&s->topo);
	perf_domains_free(s);
	for (int t = 0; s->types && t < s->ntypes; t++) {
		free(s->types[t].khz);
		free(s->types[t].speed);
		free(s->types[t].freq_scale);
		free(s->types[t].os_khz);
		free(s->types[t].turbo_cap_idx);
		free(s->types[t].dyn_w);
		free(s->types[t].leak_w);
		free(s->types[t].activity_by_busy);
		free(s->types[t].idle_w);
	}
	free(s->types);
	free(s->cpu_policy);
	free(s->cpu_policy_slot);
	free(s->share_act);
	free(s->share_when);
	free(s->wl_data);
	free(s->cf_tunables);
	free(s->ci_tunables);
	free(s->placement_data);
	eventq_free(&s->q);
	keyheap_free(&s->bursts);
	free(s);
}
