// SPDX-License-Identifier: GPL-2.0-only
/* The per-CPU state machine: running a task, idle in a C-state, waking up;
 * accounting of time, work and vruntime between state changes; the tick
 * and CFS's slice preemption. */
#include <stdlib.h>

#include "core_power.h"
#include "sim_internal.h"

double cpu_c0_mhz_ns(const struct sim *s, const struct sim_cpu *c)
{
	const struct sim_type *ty = cpu_type_of(s, c);
	double v = 0;
	for (int i = 0; i < ty->npstates; i++)
		v += (double)c->acct.pstate_ns[i] * (ty->khz[i] / 1000.0);
	return v;
}

/* Advance a burst by dt ns at `speed` cycles/ns. Cycles and stall shrink
 * in proportion, so a frequency change mid-burst affects exactly the part
 * not yet executed. */
static void burst_progress(struct task *t, sim_ns dt, double speed)
{
	double total = t->rem_cycles / speed + t->rem_stall_ns;
	if ((double)dt >= total) {
		t->cycles_done += t->rem_cycles;
		t->rem_cycles = 0;
		t->rem_stall_ns = 0;
		return;
	}
	double left = 1.0 - (double)dt / total;
	t->cycles_done += t->rem_cycles * (1.0 - left);
	t->rem_cycles *= left;
	t->rem_stall_ns *= left;
}

static inline uint64_t weighted(sim_ns dt, uint32_t weight)
{
	if (weight == NICE_0_WEIGHT)
		return (uint64_t)dt;
	return (uint64_t)dt * NICE_0_WEIGHT / weight;
}

/* cpu_sync_from()'s accounting of dt ns of a CPU running no task, in
 * `mode` (idle, or waking: the idle task is current). */
static inline __attribute__((always_inline)) void sync_not_running(struct sim *s, struct sim_cpu *c,
								   sim_ns dt, enum cpu_mode mode)
{
	struct cpu_result *a = &c->acct;
	clock_pelt_idle(s, c);
	if (mode == CPU_IDLE) {
		a->cstate_ns[c->cstate] += dt;
	} else {
		a->c0_ns += dt;
		a->pstate_ns[cpu_effective_idx(s, c)] += dt;
		/* An interrupt's handler at the end of a wakeup is system
		 * time, not idle. */
		if (c->irq_end > c->irq_start) {
			sim_ns from = s->now - dt > c->irq_start ? s->now - dt : c->irq_start;
			sim_ns to = s->now < c->irq_end ? s->now : c->irq_end;
			sim_ns irq = to > from ? to - from : 0;
			a->sys_ns += irq;
			dt -= irq;
		}
	}
	if (c->nr_iowait > 0)
		a->iowait_ns += dt;
	else
		a->idle_ns += dt;
}

/* Accounts the time since the last sync in the CPU's present state: its
 * PELT clock (update_rq_clock()), residency, CPU times, the running task's
 * execution and burst. PELT's signals move only where the kernel updates
 * them (engine/load_avg.c). */
void cpu_sync_from(struct sim *s, struct sim_cpu *c)
{
	sim_ns dt = s->now - c->seg_start;
	c->seg_start = s->now;
	struct cpu_result *a = &c->acct;
	if (c->mode == CPU_RUNNING) {
		int idx = cpu_effective_idx(s, c);
		clock_pelt_run(s, c, dt, idx);
		a->c0_ns += dt;
		a->pstate_ns[idx] += dt; /* cycles: cpu_c0_mhz_ns() */
		struct task *t = c->curr;
		if (t->burst_sys)
			a->sys_ns += dt;
		else
			a->user_ns += dt;
		t->sum_exec += dt;
		t->vruntime += weighted(dt, t->weight);
		if (t->in_burst)
			burst_progress(t, dt, c->speed);
		return;
	}
	sync_not_running(s, c, dt, c->mode);
}

/* cpu_sync() of a CPU known to be waking (the end of its wakeup), inline:
 * its accounting without the call and the test of its mode. */
static inline __attribute__((always_inline)) void cpu_sync_waking(struct sim *s, struct sim_cpu *c)
{
	if (s->now <= c->seg_start)
		return;
	sim_ns dt = s->now - c->seg_start;
	c->seg_start = s->now;
	sync_not_running(s, c, dt, CPU_WAKING);
}

/* From the core's speed at its P-state (sim_core.speed_solo: the type's
 * at eff_idx, kept by set_eff_idx()): one load where the type's table
 * took three. */
double cpu_speed(const struct sim *s, const struct sim_cpu *c)
{
	const struct sim_core *core = c->core_p;
	double speed = core->speed_solo;
	if (core->nrunning > 1)
		speed *= cpu_type_of(s, c)->t->smt_throughput;
	return speed;
}

/* cpu_set_speed() with an observer, told the clock first. */
static __attribute__((noinline)) void cpu_set_speed_observed(struct sim *s, struct sim_cpu *c)
{
	const struct sim_type *ty = cpu_type_of(s, c);
	int idx = cpu_effective_idx(s, c);
	if (s->obs->cpu_freq && ty->khz[idx] != c->obs_khz) {
		c->obs_khz = ty->khz[idx];
		s->obs->cpu_freq(s->obs->ctx, c->id, s->now, c->obs_khz);
	}
	c->speed = cpu_speed(s, c);
}

/* A leaf but for an observer (out of line: the call's register saves
 * cost every call). */
void cpu_set_speed(struct sim *s, struct sim_cpu *c)
{
	if (s->obs) {
		cpu_set_speed_observed(s, c);
		return;
	}
	c->speed = cpu_speed(s, c);
}

void cpu_charge(struct sim *s, struct sim_cpu *c, struct task *t, sim_ns ns)
{
	if (ns <= 0)
		return;
	if (c->mode == CPU_RUNNING && c->curr && c->curr->in_burst) {
		/* The queued completion event is left as it is: when it fires, the
		 * engine sees the work left and re-arms (one event per burst
		 * instead of one per charge). */
		cpu_sync(s, c);
		c->curr->rem_stall_ns += (double)ns;
	} else if (c->mode == CPU_RUNNING && c->curr) {
		c->curr->pending_stall_ns += (double)ns;
	} else if (t) {
		t->pending_stall_ns += (double)ns;
	}
}

/* Arms the end of the burst `t` runs on c, which is running it, outside
 * a dispatch. */
static inline __attribute__((always_inline)) void arm_burst(struct sim *s, struct sim_cpu *c,
							   const struct task *t)
{
	double total = t->rem_cycles / c->speed + t->rem_stall_ns;
	/* ceil(total) for the non-negative time left, without libm's call:
	 * the truncation, plus one where it dropped a fraction. */
	sim_ns left = (sim_ns)total;
	left += (double)left < total;
	sim_ns at = s->now + left;
	/* Speed changes that leave the end of the burst where it was (another
	 * core's turbo move, say) keep the event already queued. */
	if (at == c->done_at)
		return;
	c->done_at = at;
	/* Moved in place: a sequence number from the queue, as a post takes. */
	keyheap_set(&s->bursts, (uint32_t)c->id, at, s->q.next_seq++);
}

/* arm_burst() of the CPU whose own dispatch, entered from the event loop
 * (the end of its burst), just ended in a burst: without cpu_arm_done()'s
 * tests, which that answers (task_dispatch() returns true only with c
 * running its task in a burst, and the dispatch is over). One copy out of
 * line for both such entries (cpu_burst_done(), a pass from
 * SCHED_STOPPED); --check: check_invariants() fails for a deadline armed
 * off a burst. */
static __attribute__((noinline)) void arm_dispatched(struct sim *s, struct sim_cpu *c)
{
	arm_burst(s, c, c->curr);
}

void cpu_arm_done(struct sim *s, struct sim_cpu *c)
{
	struct task *t = c->curr;
	if (c->mode != CPU_RUNNING || !t || !t->in_burst || c->in_dispatch)
		return;
	arm_burst(s, c, t);
}

/* Mode changes move the core's and the package's counters, which change
 * power, turbo ceilings and SMT speeds. The CPU is accounted up to now
 * first, and so are the SMT siblings whose speed changes; power and the
 * package account for themselves (core_thread_busy(), core_thread_idle()).
 * Inlined with constant modes for the transitions of every idle period
 * (cpu_wake(), cpu_enter_idle(), cpu_set_mode()), so that the counters a
 * transition leaves alone cost nothing: IDLE <-> WAKING/RUNNING moves the
 * busy count and the core's power, WAKING <-> RUNNING only the running
 * count and SMT speeds. */
static inline __attribute__((always_inline)) void set_mode(struct sim *s, struct sim_cpu *c,
							  enum cpu_mode old, enum cpu_mode mode,
							  bool synced)
{
	struct sim_core *core = c->core_p;
	/* A caller that synced c at this timestamp says so (synced): a second
	 * cpu_sync() would find nothing to account. */
	if (!synced)
		cpu_sync(s, c);
	int was_busy = old != CPU_IDLE, is_busy = mode != CPU_IDLE;
	int was_run = old == CPU_RUNNING, is_run = mode == CPU_RUNNING;
	/* The SMT siblings' speed follows the core's running count: only the
	 * threads running besides c have a speed to change (none on a core
	 * of one thread). */
	bool speeds_change = was_run != is_run && core->nrunning - was_run > 0;
	for (int i = 0; speeds_change && i < core->ncpus; i++)
		if (s->cpus[core->cpus[i]].mode == CPU_RUNNING)
			cpu_sync(s, &s->cpus[core->cpus[i]]);
	c->mode = mode;
	if (s->knobs.uclamp_used)
		cpu_util_changed(c); /* whether curr counts for uclamp */
	/* Only a running CPU's queue is stealable: a move between idle and
	 * waking leaves its count at 0 (--check: check_invariants()). */
	if (was_run != is_run)
		cpu_stealable(s, c);
	core->nrunning += is_run - was_run;
	/* Waking and running are both C0 at the same P-state: the core's
	 * power, its turbo activity and the uncore's clock stay as they are
	 * (its energy is integrated at the next real change). */
	if (was_busy != is_busy) {
		if (is_busy)
			core_thread_busy(s, core, c->core, c->pkg_p);
		else
			core_thread_idle(s, core, c->core, c->pkg_p);
	}
	for (int i = 0; speeds_change && i < core->ncpus; i++) {
		struct sim_cpu *sib = &s->cpus[core->cpus[i]];
		if (sib != c && sib->mode == CPU_RUNNING) {
			cpu_set_speed(s, sib);
			cpu_arm_done(s, sib);
		}
	}
	/* A vote moves only in a policy whose CPUs request per CPU (the test
	 * freq_votes() makes first, here without the call, from the CPU's
	 * copy of it). */
	if (was_busy != is_busy && c->votes_per_cpu)
		freq_votes(s, c);
}

/* For cpu_schedule(), which has synced c at this timestamp. */
static void cpu_set_mode(struct sim *s, struct sim_cpu *c, enum cpu_mode mode)
{
	enum cpu_mode old = c->mode;
	if (old == CPU_WAKING && mode == CPU_RUNNING)
		set_mode(s, c, CPU_WAKING, CPU_RUNNING, true);
	else if (old != mode)
		set_mode(s, c, old, mode, true);
}

/* The tick's event stays queued while the tick is stopped: it is dropped
 * when it comes due with the tick off, and reused if the tick restarts
 * first (it is then still the next jiffy), so nohz idle periods shorter
 * than a tick cost no events. */
static void cpu_stop_tick(struct sim_cpu *c)
{
	c->tick_on = false;
}

/* A restarted tick whose event is gone (it came due while the tick was
 * stopped) posts the next jiffy's. `jiffy`: the present one. Out of line:
 * most restarts find the event still queued. */
static __attribute__((noinline)) void tick_post(struct sim *s, struct sim_cpu *c, sim_ns jiffy)
{
	/* Ticks are aligned to the jiffy grid on every CPU, as the kernel's are. */
	c->next_tick = (jiffy + 1) * s->tick_ns;
	c->tick_pending = true;
	sim_post_tick(s, c->next_tick, (uint32_t)c->id);
}

/* cpu_start_tick() of a CPU whose tick is stopped, inline where the caller
 * has tested that and knows the jiffy (schedule_leave_idle()). */
static inline void start_stopped_tick(struct sim *s, struct sim_cpu *c, sim_ns jiffy)
{
	c->tick_on = true;
	if (!c->tick_pending)
		tick_post(s, c, jiffy);
}

void cpu_start_tick(struct sim *s, struct sim_cpu *c)
{
	if (!c->tick_on)
		start_stopped_tick(s, c, s->now / s->tick_ns);
}

/* Intel's C-state auto-demotion (MSR_PKG_CST_CONFIG_CONTROL bits 25/26,
 * enabled by the BIOS): "the core C-state is demoted to C3 or C1 until a
 * sufficient amount of residency has been established" (Intel's Sandy
 * Bridge data sheet, 4.2.4.5) -- read here as: until the CPU's previous
 * idle period reached the requested state's target residency. "C1" is the
 * first hardware state, "C3" the first state that stops the core's clocks
 * (neither polling nor turbo_active); option c1 demotes C3 and deeper to
 * C1, c3 demotes what is deeper than C3 to C3, both tries C3 first (if the
 * period reached C3's residency) then C1. The OS still believes it asked
 * for `st`: cpuidle's statistics keep the request, residency and power
 * follow the hardware. */
static int hw_cstate_demoted(const struct sim *s, const struct sim_cpu *c, int st)
{
	const struct cstate *cs = c->idle.states;
	enum auto_demotion mode = (enum auto_demotion)s->par.cstate_auto_demotion;
	int c1 = s->demote_c1, c3 = s->demote_c3;
	/* The energy/performance bias sets how much history a request needs
	 * (engine/epb.c). */
	double x = epb_demotion_factor(s);
	double last = (double)c->last_idle_ns;
	if (last >= x * (double)cs[st].residency_ns)
		return st;
	if ((mode == DEMOTE_C3 || mode == DEMOTE_BOTH) && st > c3 &&
	    (mode == DEMOTE_C3 || last >= x * (double)cs[c3].residency_ns))
		return c3;
	return mode == DEMOTE_C3 ? st : c1;
}

/* The tests that settle most requests, inline at each idle entry. */
static inline int hw_cstate(const struct sim *s, const struct sim_cpu *c, int st)
{
	if (s->par.cstate_auto_demotion == DEMOTE_OFF || st < s->demote_c3)
		return st; /* only states that stop the clocks are demoted */
	return hw_cstate_demoted(s, c, st);
}

/* Stopping and restarting the tick (kernel/time/tick-sched.c, the same
 * structure in v4.16 and v6.18) have bookkeeping that returns early until
 * a jiffy has passed, leaving the sched_timer's hrtimer cancel or start
 * and the clock event reprogramming (tick_reprogram_cost_ns, at most the
 * full path's cost). Stopping: tick_nohz_stop_sched_tick() (4.16) /
 * tick_nohz_stop_tick() (6.x) and nohz_balance_enter_idle(), which does
 * its global cpumask and counter updates only if a busy tick has run
 * nohz_balance_exit_idle() since (rq->nohz_tick_stopped; the model's
 * nohz_idle). Restarting: tick_nohz_restart_sched_tick(), whose jiffies
 * update, cpu_load_update_nohz_stop() (4.16) and idle tick accounting
 * (tick_nohz_account_idle_ticks()/_time()) do work only when the idle
 * period crossed a jiffy boundary. docs/sources.md 2.7 derives both. */
static sim_ns tick_reprogram_cost(const struct sim *s, sim_ns full)
{
	return s->par.tick_reprogram_cost_ns < full ? s->par.tick_reprogram_cost_ns : full;
}

/* The stop's cost again while the nohz state stays (s->tick_restop_ns,
 * the lesser of the two: kept at setup, sim.c's idle_entry_costs_consistent()). */
static sim_ns tick_stop_cost(const struct sim *s, const struct sim_cpu *c)
{
	return c->nohz_idle ? s->tick_restop_ns : s->par.tick_stop_cost_ns;
}

/* The restart's cost as the stall it adds (schedule_leave_idle()): the
 * stop at or after the present jiffy's start is in the same jiffy (the
 * stop is at or before now); the doubles are fixed at setup
 * (cpu_stall_costs_setup()). */
static double tick_restart_stall(const struct sim *s, const struct sim_cpu *c, sim_ns jiffy)
{
	return c->tick_stop_ns >= jiffy * s->tick_ns ? s->tick_restart_reprogram_stall_ns
						    : s->tick_restart_stall_ns;
}

/* The legacy idle loop's decision (Linux 4.16 tick_nohz_idle_enter() ->
 * tick_nohz_stop_sched_tick()): stop the tick unless the next timer is due
 * within one tick of the last jiffy; once stopped it stays stopped until
 * the CPU leaves the idle loop (tick_nohz_idle_exit()). */
static bool legacy_stops_tick(const struct sim *s, const struct sim_cpu *c, sim_ns next_timer,
			      sim_ns jiffy)
{
	if (!c->tick_on)
		return true;
	sim_ns basemono = jiffy * s->tick_ns; /* the last jiffy's start */
	return next_timer == SIM_NS_MAX || next_timer - basemono > s->tick_ns;
}

/* What the idle loop tells the governor before select() besides the tick
 * period: the time, the CPU's load and I/O waiters, the sleep length with
 * and without the tick.
 * The next timer event is the earlier of `task_timer` (its tasks' sleep
 * timers, cpu_next_timer()) and the background wakeups that are timers
 * (engine/background.c). Returns whether the legacy idle loop stops the
 * tick. */
static inline bool idle_inputs(struct sim *s, struct sim_cpu *c, enum tick_policy policy,
			       sim_ns task_timer, sim_ns *jiffy_out)
{
	struct cpuidle_device *dev = &c->idle;
	dev->now = s->now;
	dev->nr_iowait = c->nr_iowait;
	dev->cpu_load = c->cpu_load0;
	sim_ns bg = background_next_timer(s, c);
	sim_ns next_timer = bg < task_timer ? bg : task_timer;
	dev->next_timer_no_tick_ns = next_timer == SIM_NS_MAX ? SIM_NS_MAX : next_timer - s->now;
	sim_ns jiffy = *jiffy_out = s->now / s->tick_ns;
	sim_ns to_tick = (jiffy + 1) * s->tick_ns - s->now;
	/* The legacy idle loop decided about the tick before asking the
	 * governor, which then got one sleep length: to the next timer if the
	 * tick was stopped, else to the next tick. Governors of that time had
	 * no notion of a stopped tick (tick_nohz_tick_stopped() came with the
	 * 4.17 rework), so it is not reported as stopped. Since 4.17 the tick
	 * is stopped here only if a previous iteration of this idle stretch
	 * stopped it (re-selection after a polling timeout or an interrupt). */
	bool legacy_stop = policy == TICK_LEGACY && legacy_stops_tick(s, c, next_timer, jiffy);
	bool tick_gone = legacy_stop || (policy != TICK_LEGACY && !c->tick_on);
	dev->tick_stopped = policy != TICK_LEGACY && !c->tick_on;
	dev->next_timer_ns = (!tick_gone && to_tick < dev->next_timer_no_tick_ns)
				     ? to_tick
				     : dev->next_timer_no_tick_ns;
	/* With nohz off, or before 4.17 with the tick kept, the tick is the
	 * sleep length (tick_nohz_get_sleep_length()). */
	if (policy == TICK_PERIODIC || (policy == TICK_LEGACY && !legacy_stop))
		dev->next_timer_no_tick_ns = dev->next_timer_ns;
	return legacy_stop;
}

/* A switch through the idle task is split over two CPUs, as __schedule()
 * runs it (kernel/sched/core.c, v6.18): the CPU whose task blocks does
 * the switching out (deactivate, pick the idle task, context_switch() to
 * it: no mm switch, the idle task borrows the mm) on its way into idle,
 * in parallel with the wakeup; the CPU that leaves idle does the switching
 * in (the wakeup's enqueue from its wake list, pick, switch_mm() and
 * switch_to()) before the woken task runs. context_switch_us is measured
 * on one CPU, both halves in a row (lat_ctx, pinned pipe ping-pong:
 * docs/sources.md 2.7); each half is taken as half of it (an ESTIMATE:
 * the two paths are of about the same length). */
static sim_ns switch_out_half(const struct sim *s)
{
	return s->switch_half_ns; /* s->m->context_switch_ns / 2 */
}

/* No task to run: `prev` (if any) switched out, the CPU's run queue
 * idle, its deadline dropped if void; the idle loop comes next. */
static inline __attribute__((always_inline)) void switch_to_idle(struct sim *s, struct sim_cpu *c,
								 struct task *prev, bool void_deadline)
{
	if (prev) {
		s->ctx_switches++;
		c->acct.ctx_switches++;
	}
	load_avg_cpu_goes_idle(s, c);
	c->curr = NULL;
	/* update_idle_core() (kernel/sched/sched.h, 6.6) acts only under
	 * sched_smt_present, and __update_idle_core() stops at once while
	 * test_idle_cores(): no call then (c->llc_idle_cores: NULL without
	 * SMT or a placement's cpu_idle()). */
	if (c->llc_idle_cores && !*c->llc_idle_cores)
		s->placement->cpu_idle(s, c->id);
	if (void_deadline)
		keyheap_cancel(&s->bursts, (uint32_t)c->id);
}

/* The idle loop's entry, in one version per configuration that stays
 * fixed for a run: the tick policy and, under nohz, whether the governor
 * is blind (cpuidle_governor.blind; the legacy loop fills the inputs all
 * the same, for its own decision). The tests of both fold away in each version;
 * cpu_idle_setup() chooses one (s->enter_idle), and --check verifies the
 * choice against its inputs (cpu_idle_path_consistent()). */
static inline __attribute__((always_inline)) void enter_idle(struct sim *s, struct sim_cpu *c,
							    const enum tick_policy policy,
							    const bool blind, const bool stopped)
{
	struct cpuidle_device *dev = &c->idle;
	/* `stopped`: from stopped_idle(), whose CPU was running and is
	 * synced at this time (load_avg_cpu_goes_idle()). */
	bool was_idle = !stopped && c->mode == CPU_IDLE; /* re-selecting after a poll timeout */
	if (!stopped)
		cpu_sync(s, c);
	c->idle_calls++;
	/* A blind governor is not given the inputs. The kernel's governors
	 * ask for the sleep length themselves (tick_nohz_get_sleep_length()),
	 * so this is its order too. cpu_next_timer() runs at every entry all
	 * the same: it drops the fired sleep timers, so that the CPU's timer
	 * queue does not grow. dev->tick_period_ns, which cpuidle_poll_time()
	 * reads too, is set at setup (cpu_idle_setup()). */
	sim_ns task_timer = cpu_next_timer(s, c);
	bool legacy_stop = false;
	sim_ns jiffy = 0;
	if (!blind)
		legacy_stop = idle_inputs(s, c, policy, task_timer, &jiffy);
	/* A blind governor is asked again only under a new latency limit: its
	 * answer depends on nothing else (cpuidle_governor.blind), and it
	 * leaves stop_tick as it was. --check asks it at every event. */
	bool stop_tick = true;
	int st;
	if (blind && c->blind_limit_ns == s->latency_limit_ns) {
		st = c->blind_state;
	} else {
		/* Its own variable: stop_tick, whose address is not taken,
		 * stays in a register (a blind governor leaves it true). */
		bool ask = true;
		st = c->idle_select(dev, s->latency_limit_ns, &ask);
		if (st < 0 || st >= dev->nstates)
			st = 0;
		if (blind) {
			c->blind_state = st;
			c->blind_limit_ns = s->latency_limit_ns;
		} else {
			stop_tick = ask;
		}
	}
	if (policy == TICK_LEGACY)
		stop_tick = legacy_stop;
	else if (policy == TICK_PERIODIC)
		stop_tick = false;
	else if (!c->tick_on)
		stop_tick = true; /* "stop_tick || tick_nohz_tick_stopped()" (v4.17+) */
	/* This entry stops the tick: nohz_balance_enter_idle(), whose work is
	 * done once until a busy tick clears the CPU's nohz state. */
	sim_ns stop_cost = 0;
	if (stop_tick && c->tick_on) {
		stop_cost = tick_stop_cost(s, c);
		c->tick_stop_ns = s->now;
		load_avg_nohz_enter(s, c);
	}
	/* The idle loop's own work before the C-state, and stopping the tick
	 * if this entry stops it (not again while it stays stopped): C0 time
	 * that delays a wakeup arriving before it is done. */
	if (stopped) {
		/* The switch out of the task that stopped, then the idle loop's
		 * entry: s->stopped_entry_ns (kept at setup,
		 * sim.c's idle_entry_costs_consistent()). c->switch_out_ns, set for the idle
		 * entry that follows a switch out alone (schedule_idle()),
		 * is 0 (check_invariants()). */
		c->idle_busy_until = s->now + s->stopped_entry_ns + stop_cost;
	} else {
		c->idle_busy_until = s->now + c->switch_out_ns + s->m->idle_entry_ns + stop_cost;
		c->switch_out_ns = 0;
	}
	if (stop_tick)
		cpu_stop_tick(c);
	else
		cpu_start_tick(s, c);
	c->req_cstate = st;
	c->cstate = hw_cstate(s, c, st);
	c->idle_start = s->now;
	if (s->obs && s->obs->cpu_idle)
		s->obs->cpu_idle(s->obs->ctx, c->id, s->now, st);
	dev->stats[st].usage++; /* also the result's cstate_usage (collect()) */
	if (was_idle) {
		/* Already idle: only the state changed. */
		core_update(s, c->core);
		pkg_idle_changed(s, c->pkg);
		freq_votes(s, c);
	} else if (stopped || c->mode == CPU_RUNNING) {
		set_mode(s, c, CPU_RUNNING, CPU_IDLE, true);
	} else {
		set_mode(s, c, CPU_WAKING, CPU_IDLE, true);
	}
	/* A polling state spins at most cpuidle_poll_time(), then the idle loop
	 * asks the governor again without leaving idle. Only state 0 may poll
	 * (machine.c rejects a table with another), so a deeper request needs
	 * no look at the table. (The state read back from c: kept in a
	 * register across the mode change's calls, it cost a register save at
	 * every entry.) */
	if (c->req_cstate == 0 && dev->states[0].poll)
		sim_post(s, s->now + cpuidle_poll_time(dev), EV_POLL_END, (uint32_t)c->id,
			 c->wake_gen, 0);
}

/* The idle loop's entry from a CPU whose task has just stopped, with
 * nothing queued here and no newidle balance to ask (cpu_schedule_stopped()):
 * schedule_pass(s, c, true, SCHED_STOPPED) with rq_first() NULL, its idle
 * branch alone, then the idle loop, in one function: pingpong's every
 * other event comes this way, and one call with its register saves and
 * the tests of the CPU's mode and time is left out. */
static inline __attribute__((always_inline)) void stopped_idle(struct sim *s, struct sim_cpu *c,
							      const enum tick_policy policy,
							      const bool blind)
{
	c->done_at = -1;
	c->need_resched = false;
	struct task *prev = c->curr;
	prev->last_ran = s->now;
	switch_to_idle(s, c, prev, true);
	enter_idle(s, c, policy, blind, true);
}

/* Each version of both entries. The periodic tick, a rare choice, makes
 * both tests. */
#define IDLE_ENTRY_VERSION(name, policy, blind)                                 \
	static void enter_idle_##name(struct sim *s, struct sim_cpu *c)         \
	{                                                                       \
		enter_idle(s, c, policy, blind, false);                         \
	}                                                                       \
	static void stopped_idle_##name(struct sim *s, struct sim_cpu *c)       \
	{                                                                       \
		stopped_idle(s, c, policy, blind);                              \
	}
IDLE_ENTRY_VERSION(legacy, TICK_LEGACY, false)
IDLE_ENTRY_VERSION(nohz, TICK_GOVERNOR, false)
IDLE_ENTRY_VERSION(nohz_blind, TICK_GOVERNOR, true)
IDLE_ENTRY_VERSION(periodic, TICK_PERIODIC, s->ci_gov->blind)
#undef IDLE_ENTRY_VERSION

struct idle_entry {
	void (*enter)(struct sim *s, struct sim_cpu *c);
	void (*stopped)(struct sim *s, struct sim_cpu *c);
};

/* The versions of the idle entry for the run's tick policy and governor. */
static struct idle_entry idle_entry_for(const struct sim *s)
{
	bool blind = s->ci_gov->blind;
	switch ((enum tick_policy)s->par.tick_policy) {
	case TICK_LEGACY:
		return (struct idle_entry){ enter_idle_legacy, stopped_idle_legacy };
	case TICK_PERIODIC:
		return (struct idle_entry){ enter_idle_periodic, stopped_idle_periodic };
	case TICK_GOVERNOR:
	default:
		return blind ? (struct idle_entry){ enter_idle_nohz_blind, stopped_idle_nohz_blind }
			     : (struct idle_entry){ enter_idle_nohz, stopped_idle_nohz };
	}
}

/* sim_cpu.llc_idle_cores: where an idle entry may set the flag. */
static const bool *llc_idle_cores_for(const struct sim *s, int cpu)
{
	if (!s->topo.smt || !s->placement->cpu_idle)
		return NULL;
	return &s->topo.cpu[cpu].shared->has_idle_cores;
}

/* The governor's select() for c's device, as its tunables are now. */
static cpuidle_select_fn *idle_select_for(const struct sim *s, const struct sim_cpu *c)
{
	const struct cpuidle_governor *g = s->ci_gov;
	return g->select_for ? g->select_for(&c->idle) : g->select;
}

void cpu_idle_setup(struct sim *s)
{
	struct idle_entry e = idle_entry_for(s);
	s->enter_idle = e.enter;
	s->stopped_idle = e.stopped;
	for (int i = 0; i < s->ncpus; i++) {
		s->cpus[i].idle.tick_period_ns = s->tick_ns;
		s->cpus[i].blind_limit_ns = -1;
		s->cpus[i].idle_select = idle_select_for(s, &s->cpus[i]);
		s->cpus[i].llc_idle_cores = llc_idle_cores_for(s, i);
	}
}

bool cpu_idle_path_consistent(struct sim *s)
{
	struct idle_entry e = idle_entry_for(s);
	if (s->enter_idle != e.enter || s->stopped_idle != e.stopped)
		return false;
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		if (c->idle.tick_period_ns != s->tick_ns || c->idle_select != idle_select_for(s, c) ||
		    c->llc_idle_cores != llc_idle_cores_for(s, i))
			return false;
		/* A blind governor's kept answer: what it says now, asked again
		 * (under the same limit it cannot have changed its mind). */
		if (s->ci_gov->blind && c->blind_limit_ns == s->latency_limit_ns) {
			bool stop_tick = true;
			int st = s->ci_gov->select(&c->idle, c->blind_limit_ns, &stop_tick);
			if (st < 0 || st >= c->idle.nstates)
				st = 0;
			if (st != c->blind_state || !stop_tick)
				return false;
		}
	}
	return true;
}

/* Leaves the C-state: the wake time, the idle loop's exit path and `extra`
 * ns of kernel work (an interrupt's handler) in C0 before the CPU can run
 * anything, plus whatever of its entry work (idle loop, tick stop) was
 * still under way. Restarting a stopped tick is charged when a task is
 * picked (cpu_schedule()): an interrupt that leaves the CPU idle keeps the
 * tick stopped. */
static inline __attribute__((always_inline)) void wake(struct sim *s, struct sim_cpu *c,
						      sim_ns extra, const bool plain)
{
	const struct sim_pkg *pkg = c->pkg_p;
	/* The state's wake time and the idle loop's exit path: kept per
	 * state for the plain version (plain_exit_ns), whose wake time is
	 * cluster_wake_ns()'s without a cluster state to look past. */
	sim_ns exit = plain ? c->plain_exit_ns[c->cstate] : cluster_wake_ns(s, c) + s->m->idle_exit_ns;
	if (pkg->pkg_cstate >= 0)
		exit += s->m->pkg_cstates[pkg->pkg_cstate].exit_ns;
	if (c->idle_busy_until > s->now)
		exit += c->idle_busy_until - s->now;
	/* The wakeup's times and generation are set before the mode changes,
	 * so that after the calls there (core_update()) the rest needs only
	 * s and c: nothing on that way reads them (the CPU is accounted up to
	 * now as idle first, and only the posts below carry the generation). */
	c->irq_start = s->now + exit;
	c->irq_end = s->now + exit + extra;
	c->wake_gen++;
	if (!plain)
		exit_ramp_begin(s, c);
	set_mode(s, c, CPU_IDLE, CPU_WAKING, false);
	if (!plain && s->obs && s->obs->cpu_waking)
		s->obs->cpu_waking(s->obs->ctx, c->id, s->now);
	/* The plain version runs only where no policy has a processor loop
	 * (wake_for()). */
	if (!plain)
		freq_hw_loop_start(s, c);
	/* EV_WAKE_DONE at irq_end: the CPU's deadline beside the queue (no
	 * burst runs while it wakes), a sequence number from the queue, as a
	 * post takes. An idle CPU has none set (--check: check_invariants()),
	 * so it is added without a look for one. */
	keyheap_add(&s->bursts, (uint32_t)c->id, c->irq_end, s->q.next_seq++);
}

/* The idle exit in two versions, one chosen at setup (cpu_wake_setup(),
 * checked by cpu_wake_path_consistent() under --check): the plain one for
 * the runs without what it leaves out, whose tests then cost nothing per
 * wakeup: no CPU with a cluster state (cluster_idle.c), no exit ramp
 * (machine.vr_slew_mv_per_us <= 0: exit_ramp_begin() returns at once),
 * no observer of wakeups and no processor loop (freq_hw_loop_possible():
 * freq_hw_loop_start() would post nothing). */
static void wake_plain(struct sim *s, struct sim_cpu *c, sim_ns extra)
{
	wake(s, c, extra, true);
}

static void wake_full(struct sim *s, struct sim_cpu *c, sim_ns extra)
{
	wake(s, c, extra, false);
}

static void cpu_wake(struct sim *s, struct sim_cpu *c, sim_ns extra)
{
	if (c->mode != CPU_IDLE)
		return;
	s->wake(s, c, extra);
}

static void (*wake_for(const struct sim *s))(struct sim *, struct sim_cpu *, sim_ns)
{
	if (s->m->vr_slew_mv_per_us > 0 || (s->obs && s->obs->cpu_waking) ||
	    freq_hw_loop_possible(s))
		return wake_full;
	for (int i = 0; i < s->ncpus; i++) {
		const struct cpuidle_device *dev = &s->cpus[i].idle;
		for (int j = 0; j < dev->nstates; j++)
			if (dev->states[j].cluster)
				return wake_full;
	}
	return wake_plain;
}

/* wake_plain()'s time from the wakeup event of state `st` to the end of
 * the idle loop's exit path (sim_cpu.plain_exit_ns). */
static sim_ns plain_exit_ns(const struct sim *s, const struct sim_cpu *c, int st)
{
	const struct cstate *cs = &c->idle.states[st];
	return (cs->wake_ns ? cs->wake_ns : cs->exit_ns) + s->m->idle_exit_ns;
}

void cpu_wake_setup(struct sim *s)
{
	s->wake = wake_for(s);
	for (int i = 0; i < s->ncpus; i++)
		for (int j = 0; j < s->cpus[i].idle.nstates; j++)
			s->cpus[i].plain_exit_ns[j] = plain_exit_ns(s, &s->cpus[i], j);
}

bool cpu_wake_path_consistent(const struct sim *s)
{
	if (s->wake == wake_plain && freq_hw_loop_running(s))
		return false;
	for (int i = 0; i < s->ncpus; i++)
		for (int j = 0; j < s->cpus[i].idle.nstates; j++)
			if (s->cpus[i].plain_exit_ns[j] != plain_exit_ns(s, &s->cpus[i], j))
				return false;
	return s->wake == wake_for(s);
}

/* An interrupt with no task to wake (engine/background.c): on an idle CPU
 * it ends the idle period as a kept tick does, the handler in C0, then
 * the idle loop selects again; on a busy one its handler takes the CPU
 * from the current task. */
void cpu_interrupt(struct sim *s, struct sim_cpu *c, sim_ns handler_ns)
{
	if (c->mode == CPU_IDLE)
		cpu_wake(s, c, handler_ns);
	else
		cpu_charge(s, c, NULL, handler_ns);
}

void cpu_kick(struct sim *s, struct sim_cpu *c)
{
	cpu_wake(s, c, 0);
}

/* cpu_kick() of a CPU known idle, from a wakeup's enqueue (task_enqueue()),
 * where the plain version runs in place: the wakeup's call is its last
 * step, and the idle exit's own call saved and restored registers that
 * task_wake() has saved already (pingpong: one per round trip). */
__attribute__((always_inline)) inline void cpu_kick_idle(struct sim *s, struct sim_cpu *c)
{
	if (s->wake == wake_plain)
		wake(s, c, 0, true);
	else
		s->wake(s, c, 0);
}

/* cpuidle bookkeeping after an idle period (cpuidle_enter_state()):
 * time, above/below (the device's counts are the result's: collect()),
 * what ended it, then the governor's reflect(). */
static void idle_reflect(struct sim *s, struct sim_cpu *c, bool poll_timeout)
{
	struct cpuidle_device *dev = &c->idle;
	int st = c->req_cstate;
	cpuidle_record_exit(dev, st, s->now - c->idle_start);
	dev->tick_wakeup = c->tick_woke;
	dev->poll_time_limit = poll_timeout;
	c->tick_woke = false;
	if (s->ci_gov->reflect)
		s->ci_gov->reflect(dev, st);
}

void cpu_poll_end(struct sim *s, struct sim_cpu *c)
{
	idle_reflect(s, c, true);
	cpu_enter_idle(s, c);
}

/* `curr`: c's current task (c->curr), or NULL. */
static void update_min_vruntime(struct sim_cpu *c, const struct task *curr)
{
	uint64_t v = curr ? curr->vruntime : UINT64_MAX;
	struct task *first = rq_first(&c->rq);
	if (first && first->vruntime < v)
		v = first->vruntime;
	if (v != UINT64_MAX && v > c->rq.min_vruntime)
		c->rq.min_vruntime = v;
}

/* The costs switch_in() and a tick's restart add to a task's stall, each
 * a double a switch adds as it is, with no conversion: a whole switch, its
 * switching-in half (from idle); a tick restarted in the jiffy it was
 * stopped in (tick_reprogram_cost()) or a later one. */
static void stall_costs(const struct sim *s, double *sw, double *sw_in, double *tick_reprogram,
			double *tick)
{
	sim_ns full = s->par.tick_restart_cost_ns;
	*sw = (double)s->m->context_switch_ns;
	*sw_in = (double)(s->m->context_switch_ns - switch_out_half(s));
	*tick_reprogram = (double)tick_reprogram_cost(s, full);
	*tick = (double)full;
}

void cpu_stall_costs_setup(struct sim *s)
{
	stall_costs(s, &s->switch_stall_ns, &s->switch_in_stall_ns,
		    &s->tick_restart_reprogram_stall_ns, &s->tick_restart_stall_ns);
}

bool cpu_stall_costs_consistent(const struct sim *s)
{
	double sw, sw_in, tick_reprogram, tick;
	stall_costs(s, &sw, &sw_in, &tick_reprogram, &tick);
	return sw == s->switch_stall_ns && sw_in == s->switch_in_stall_ns &&
	       tick_reprogram == s->tick_restart_reprogram_stall_ns &&
	       tick == s->tick_restart_stall_ns;
}

/* Switch `next` in: counters, cache refill and wakeup latency. From idle
 * only the switching-in half is left (the other was paid going idle). */
static inline __attribute__((always_inline)) void switch_in(struct sim *s, struct sim_cpu *c,
							    struct task *next, enum cpu_mode mode)
{
	s->ctx_switches++;
	c->acct.ctx_switches++;
	next->pending_stall_ns += mode != CPU_RUNNING ? s->switch_in_stall_ns : s->switch_stall_ns;
	/* A task that changes last-level cache refetches its working set, but
	 * not the part its sharing group keeps warm in the new one (cc1's
	 * code and the headers of one build: engine/share.c). */
	if (next->ran && next->last_llc != c->llc)
		next->pending_stall_ns += (double)s->m->refill_ns * share_refill_factor(s, next, c->llc);
	if (next->in_burst) {
		next->rem_stall_ns += next->pending_stall_ns;
		next->pending_stall_ns = 0;
	}
	next->last_llc = c->llc;
	next->ran = true;
	if (next->wake_time >= 0) {
		sim_ns lat = s->now - next->wake_time;
		hist_add(&s->wakeup_latency, lat);
		next->wake_time = -1;
	}
}

/* How a pass of cpu_schedule() begins, as its caller knows it. A known
 * entry is a constant in the inlined pass (schedule_pass()): the tests of
 * the CPU's state it answers fold away, and the pass starts where they
 * lead. A pass repeated (need_resched, or a task that stopped at once)
 * starts from SCHED_ANY. */
enum sched_from {
	SCHED_ANY,     /* whatever the CPU's state */
	SCHED_WOKEN,   /* the end of its wakeup (cpu_wake_done()): waking, no
			* task current (the idle task's) */
	SCHED_STOPPED, /* its task stopped in a dispatch, blocked, asleep or
			* dead (cpu_burst_done()): running, synced at this
			* timestamp, the task no longer TASK_RUNNING */
};

/* The CPU's mode at the start of the pass. */
static inline enum cpu_mode pass_mode(const struct sim_cpu *c, enum sched_from from)
{
	return from == SCHED_WOKEN ? CPU_WAKING : from == SCHED_STOPPED ? CPU_RUNNING : c->mode;
}

/* Whether newidle_balance() may pull a task: not while nothing is
 * stealable anywhere, where the placement declares so. */
static inline bool newidle_may_pull(const struct sim *s)
{
	return s->nr_stealable || !s->newidle_needs_stealable;
}

/* No task to run: the CPU goes idle, switching `prev` (if any) out. */
static inline __attribute__((always_inline)) void schedule_idle(struct sim *s, struct sim_cpu *c,
								struct task *prev, bool void_deadline)
{
	switch_to_idle(s, c, prev, void_deadline);
	if (prev)
		c->switch_out_ns = switch_out_half(s); /* for the idle entry */
	cpu_enter_idle(s, c);
}

/* A CPU not yet running (waking, or woken) starts running `next`. */
static inline __attribute__((always_inline)) void
schedule_leave_idle(struct sim *s, struct sim_cpu *c, struct task *next, enum sched_from from)
{
	if (from == SCHED_WOKEN)
		set_mode(s, c, CPU_WAKING, CPU_RUNNING, true);
	else
		cpu_set_mode(s, c, CPU_RUNNING);
	/* tick_nohz_idle_exit(): restarting a stopped tick is on the way to
	 * the task. */
	if (!c->tick_on) {
		sim_ns jiffy = s->now / s->tick_ns; /* one division for all three */
		/* cpu_charge() of c, which runs next now and is accounted up
		 * to now. */
		double cost = tick_restart_stall(s, c, jiffy);
		if (cost > 0 && next->in_burst)
			next->rem_stall_ns += cost;
		else if (cost > 0)
			next->pending_stall_ns += cost;
		cpu_load_nohz_exit(c, jiffy);
		start_stopped_tick(s, c, jiffy); /* cpu_start_tick(), tested */
	}
	/* A CPU that stays running keeps its speed: whatever moves it
	 * (P-state, turbo ceiling, exit ramp, SMT siblings' running count)
	 * sets it on the running CPUs. */
	cpu_set_speed(s, c);
}

/* One pick: the previous task put back or let go, the next one switched
 * in and dispatched, or the CPU to idle. False when it must pick again
 * (need_resched, or the task picked stopped at once). */
static inline __attribute__((always_inline)) bool
schedule_pass(struct sim *s, struct sim_cpu *c, bool void_deadline, enum sched_from from)
{
	if (from == SCHED_WOKEN)
		cpu_sync_waking(s, c);
	else if (from != SCHED_STOPPED)
		cpu_sync(s, c);
	c->done_at = -1;
	c->need_resched = false;
	struct task *prev = from == SCHED_WOKEN ? NULL : c->curr;
	bool prev_running = from == SCHED_ANY && prev && prev->state == TASK_RUNNING;
	bool preempted = false;
	if (prev_running && (prev->exec_cpu >= 0 || !task_allowed(prev, c->id))) {
		/* sched_exec() or sched_setaffinity() moves it off. */
		task_requeue_elsewhere(s, c, prev);
	} else if (prev_running) {
		preempted = true;
		prev->state = TASK_QUEUED;
		if (rq_push(&c->rq, prev) < 0)
			s->oom = true;
		cpu_stealable(s, c);
	}
	struct task *next = rq_first(&c->rq);
	if (!next && newidle_may_pull(s) && s->placement->newidle_balance(s, c->id))
		next = rq_first(&c->rq);
	if (prev && prev != next)
		prev->last_ran = s->now;
	if (!next) {
		schedule_idle(s, c, prev, void_deadline);
		return true;
	}
	bool switched = next != prev;
	if (switched) {
		/* put_prev_entity() of a preempted task (it ran until
		 * now), set_next_entity() of the next (it waited). */
		if (preempted)
			load_avg_update(s, c, prev, true, 0);
		/* The end of a wakeup: the CPU still waking, no task runs;
		 * synced at the pass's start (cpu_sync_waking()). */
		if (from == SCHED_WOKEN)
			load_avg_update_synced(s, c, next, true, 0, false, false);
		else
			load_avg_update(s, c, next, true, 0);
	}
	rq_remove(&c->rq, next);
	if (from != SCHED_WOKEN) /* a waking CPU has none stealable, before and after */
		cpu_stealable(s, c);
	next->state = TASK_RUNNING;
	next->cpu = c->id;
	enum cpu_mode mode = pass_mode(c, from);
	if (switched)
		switch_in(s, c, next, mode);
	if (s->obs && s->obs->cpu_run && (switched || mode != CPU_RUNNING))
		s->obs->cpu_run(s->obs->ctx, c->id, s->now, next);
	c->curr = next;
	next->exec_at_pick = next->sum_exec;
	if (mode != CPU_RUNNING)
		schedule_leave_idle(s, c, next, from);
	update_min_vruntime(c, next);
	/* Consolidated cpufreq updates: at context switch, for a fair task
	 * only if utilization decayed since the last call or it was in
	 * iowait. */
	if (switched && s->par.cpufreq_updates == CPUFREQ_UPDATES_CONSOLIDATED &&
	    (c->util_decayed || next->was_iowait))
		freq_update_hook_outline(s, c, next->was_iowait ? CPUFREQ_UPDATE_IOWAIT : 0);
	next->was_iowait = false;
	if (!next->in_burst && !task_dispatch(s, c))
		return false; /* it blocked, slept or exited at once: pick again */
	if (c->need_resched)
		return false;
	/* Inline at the end of a wakeup (pingpong's every pass: -6 instr/event
	 * there, the call and its register saves), and without cpu_arm_done()'s
	 * tests of the CPU: a dispatch ends with c running its task in a
	 * burst (task_dispatch() returns true only then; anything that would
	 * take c's task or mode away during it waits for need_resched) and
	 * outside any dispatch (this entry comes from the event loop alone).
	 * --check: check_invariants() fails for a deadline armed off a burst.
	 * Its end is then armed (or was, at this time, by a frequency change
	 * on the way): no void deadline is left to drop. The pass from
	 * SCHED_STOPPED, also from the event loop alone, arms the same way
	 * out of line (arm_dispatched()); the other entry shares
	 * cpu_arm_done()'s one copy with its callers elsewhere. */
	if (from == SCHED_WOKEN) {
		arm_burst(s, c, c->curr);
		return true;
	}
	if (from == SCHED_STOPPED) {
		arm_dispatched(s, c);
		return true;
	}
	cpu_arm_done(s, c);
	if (void_deadline && c->done_at < 0)
		keyheap_cancel(&s->bursts, (uint32_t)c->id);
	return true;
}

/* Passes from any state until one ends. */
static void schedule_from(struct sim *s, struct sim_cpu *c, bool void_deadline)
{
	while (!schedule_pass(s, c, void_deadline, SCHED_ANY))
		;
}

/* A running CPU's deadline is its burst's end, void now; a waking one's is
 * its end of wakeup. Either is left in place: the burst armed on the way
 * out moves it (one sift, where a cancel and a set take two). If none is
 * armed, a running CPU's is cancelled on the way out (void_deadline); a
 * waking one's stays, to be dropped when it comes due, unless it is being
 * handled (cpu_schedule_woken()). Nothing reads or moves this CPU's
 * deadline meanwhile (cpu_arm_done() waits for the end of a dispatch). */
void cpu_schedule(struct sim *s, struct sim_cpu *c)
{
	schedule_from(s, c, c->mode == CPU_RUNNING);
}

/* cpu_schedule() at the end of a wakeup. Its deadline, being handled, is
 * void: sim_run() leaves it to this. Out of line: inline in the event loop
 * it would take registers there. */
__attribute__((noinline)) static void cpu_schedule_woken(struct sim *s, struct sim_cpu *c)
{
	if (!schedule_pass(s, c, true, SCHED_WOKEN))
		schedule_from(s, c, true);
}

/* cpu_schedule_stopped() with a task to pick, or a newidle balance to
 * ask for one. */
__attribute__((noinline)) static void schedule_stopped_pick(struct sim *s, struct sim_cpu *c)
{
	if (!schedule_pass(s, c, true, SCHED_STOPPED))
		schedule_from(s, c, true);
}

/* cpu_schedule() once the running task has stopped in its dispatch, in
 * two versions out of line, as the other entry: the CPU that goes idle at
 * once (a task handing over and blocking, pingpong's every other event)
 * does not save the registers of the rest of the pass at every entry. */
static inline void cpu_schedule_stopped(struct sim *s, struct sim_cpu *c)
{
	if (c->rq.len || newidle_may_pull(s))
		schedule_stopped_pick(s, c);
	else
		s->stopped_idle(s, c); /* stopped_idle() */
}

void cpu_wake_done(struct sim *s, struct sim_cpu *c)
{
	c->last_idle_ns = s->now - c->idle_start;
	idle_reflect(s, c, false);
	cpu_schedule_woken(s, c);
}

/* For sim_run(), which has synced c at this timestamp. */
void cpu_burst_done(struct sim *s, struct sim_cpu *c)
{
	struct task *t = c->curr;
	t->cycles_done += t->rem_cycles;
	t->rem_cycles = 0;
	t->rem_stall_ns = 0;
	t->in_burst = false;
	if (task_dispatch(s, c)) {
		if (c->need_resched)
			cpu_schedule(s, c);
		else
			arm_dispatched(s, c);
	} else if (t->state != TASK_RUNNING) {
		cpu_schedule_stopped(s, c);
	} else {
		cpu_schedule(s, c); /* it yielded */
	}
}

/* CFS's sched_slice(): the share of the latency period this task gets. */
sim_ns sched_slice(const struct sim *s, const struct sim_cpu *c, const struct task *t)
{
	const struct engine_params *p = &s->par;
	int nr = c->rq.len + 1;
	int64_t nr_latency = p->sched_latency_ns / p->sched_min_granularity_ns;
	sim_ns period = nr > nr_latency ? nr * p->sched_min_granularity_ns : p->sched_latency_ns;
	uint64_t load = c->rq.load + t->weight;
	return (sim_ns)((uint64_t)period * t->weight / load);
}

/* check_preempt_tick(): has curr used its slice? */
static bool slice_expired(const struct sim *s, const struct sim_cpu *c)
{
	const struct task *curr = c->curr;
	const struct task *first = rq_first(&c->rq);
	if (!first)
		return false;
	sim_ns ideal = sched_slice(s, c, curr);
	sim_ns ran = curr->sum_exec - curr->exec_at_pick;
	if (ran > ideal)
		return true;
	if (ran < s->par.sched_min_granularity_ns)
		return false;
	return (int64_t)(curr->vruntime - first->vruntime) > (int64_t)ideal;
}

/* Linux 3.10's cpu_load[0]: update_cpu_load_active() at each tick
 * stores the run queue's load weight (the idle CPU's is 0). */
static void cpu_load_tick(struct sim *s, struct sim_cpu *c)
{
	c->cpu_load0 = c->mode == CPU_RUNNING && c->curr ? c->rq.load + c->curr->weight : 0;
	c->load_update_jiffy = s->now / s->tick_ns;
}

/* update_cpu_load_nohz() from tick_nohz_restart_sched_tick() (v3.10):
 * after a nohz idle stretch of a jiffy or more the CPU was idle, load 0.
 * `jiffy`: the present one, s->now / s->tick_ns. */
void cpu_load_nohz_exit(struct sim_cpu *c, sim_ns jiffy)
{
	if (jiffy != c->load_update_jiffy) {
		c->cpu_load0 = 0;
		c->load_update_jiffy = jiffy;
	}
}

/* A tick the idle loop kept running wakes the CPU: it leaves its C-state,
 * runs the tick handler and goes back to idle through the governor. */
static void cpu_idle_tick(struct sim *s, struct sim_cpu *c)
{
	cpu_load_tick(s, c);
	c->acct.ticks++;
	c->tick_woke = true;
	/* The balance softirq updates an idle CPU's blocked load. */
	load_avg_blocked(s, c);
	cpu_wake(s, c, s->par.tick_cost_ns);
}

void cpu_tick(struct sim *s, struct sim_cpu *c)
{
	c->next_tick += s->tick_ns;
	c->tick_pending = true;
	sim_post_tick(s, c->next_tick, (uint32_t)c->id);
	if (c->mode == CPU_IDLE) {
		cpu_idle_tick(s, c);
		return;
	}
	if (c->mode != CPU_RUNNING)
		return;
	cpu_sync(s, c);
	cpu_load_tick(s, c);
	c->acct.ticks++;
	load_avg_update(s, c, c->curr, true, 0); /* entity_tick() */
	cpu_charge(s, c, NULL, s->par.tick_cost_ns);
	update_min_vruntime(c, c->curr);
	freq_update_hook(s, c, 0);
	if (++c->ticks_since_balance * (uint64_t)s->tick_ns >=
	    (uint64_t)s->par.balance_interval_ms * NS_PER_MS) {
		c->ticks_since_balance = 0;
		s->placement->tick_balance(s, c->id);
	}
	load_avg_busy_tick(s, c);
	if (c->mode == CPU_RUNNING && slice_expired(s, c))
		cpu_schedule(s, c);
}
