// SPDX-License-Identifier: GPL-2.0-only
/* The engine's state, shared by the files of src/engine and the placement
 * policies in src/sched. Nothing outside those includes this. */
#ifndef PMLAB_SIM_INTERNAL_H
#define PMLAB_SIM_INTERNAL_H

#include "../core/eventq.h"
#include "../core/idmap.h"
#include "../core/keyheap.h"
#include "../core/rng.h"
#include "../cpufreq/cpufreq.h"
#include "../cpufreq/cppc_guided.h"
#include "../cpuidle/cpuidle.h"
#include "../metrics/histogram.h"
#include "../sched/placement.h"
#include "../sched/rq.h"
#include "../workload/workload.h"
#include "hwmodel.h"
#include "sim.h"

/* The most timers the workload timer lane holds (struct sim's lane). */
#define LANE_MAX 32

enum event_kind {
	EV_TASK_START,  /* obj = task slot: first wakeup of a new task */
	EV_BURST_DONE,  /* obj = cpu: curr finished its burst */
	EV_WAKE_DONE,   /* obj = cpu: exit latency elapsed */
	EV_TICK,        /* obj = cpu */
	EV_TIMER,       /* obj = task slot: timed sleep ends */
	EV_FREQ_APPLY,  /* obj = policy, arg = P-state index */
	EV_WL_TIMER,    /* arg = workload's */
	EV_POLL_END,    /* obj = cpu: the polling state's time limit */
	EV_TURBO_EVAL,  /* obj = package: re-evaluate the turbo ceiling */
	EV_BACKGROUND,  /* obj = cpu: a background wakeup (engine/background.c) */
	EV_POWER_LIMIT, /* obj = package: the power controller's period (engine/power_limit.c) */
	EV_LOADAVG,     /* the kernel's load-average sample (engine/pmqos_dynamic.c) */
	EV_PMQOS_DYNAMIC, /* tuned's dynamic PM QoS re-evaluation (engine/pmqos_dynamic.c) */
	EV_WRITEBACK,   /* the flusher's periodic writeback (engine/writeback.c) */
	EV_RAMP_END,    /* obj = core: its voltage is back up after C1E (engine/exit_ramp.c) */
	EV_HW_LOOP,     /* obj = cpu: the processor's own P-state loop (engine/freq.c) */
	EV_END,
};

enum cpu_mode {
	CPU_IDLE,    /* in cstate */
	CPU_WAKING,  /* leaving cstate: exit latency, counted as C0 */
	CPU_RUNNING, /* curr executes */
};

/* Engine tunables (--set), int64_t for the tunable table. */
/* MSR_PKG_CST_CONFIG_CONTROL bit 26 (c1) and bit 25 (c3). */
enum auto_demotion { DEMOTE_OFF, DEMOTE_C1, DEMOTE_C3, DEMOTE_BOTH };
/* --set amd_pstate=: the machine's driver decides (default), or the mode
 * the kernel's amd_pstate= parameter picks for the generic governors. */
enum amd_pstate_param { AMD_PSTATE_DEFAULT, AMD_PSTATE_PASSIVE, AMD_PSTATE_GUIDED };

struct engine_params {
	int64_t hz;
	int64_t sched_latency_ns;
	int64_t sched_min_granularity_ns;
	int64_t sched_wakeup_granularity_ns;
	int64_t sched_migration_cost_ns;
	int64_t balance_interval_ms;
	int64_t pm_qos_latency_us; /* -1: no constraint */
	int64_t scaling_min_khz;   /* 0: hardware minimum */
	int64_t scaling_max_khz;   /* 0: hardware maximum */
	int64_t boost;             /* 0 disables turbo P-states */
	int64_t pm_qos_resume_latency_us; /* per-CPU resume latency limit; -1: n/a */
	int64_t tick_policy;       /* enum tick_policy */
	int64_t tick_cost_ns;      /* CPU time of one tick interrupt; -1: the machine's */
	int64_t tick_stop_cost_ns; /* stopping the tick (nohz); -1: the machine's */
	int64_t tick_restart_cost_ns; /* restarting it on leaving idle; -1: the machine's */
	int64_t tick_reprogram_cost_ns; /* either, within the jiffy of the last; -1: the machine's */
	int64_t idle_polling_wakeup; /* 1: no IPI to a CPU idle in POLL or MWAIT (3.13+) */
	int64_t background_wakeups;/* per CPU per second; -1: the machine's [background] */
	int64_t cpufreq_updates;   /* enum cpufreq_updates */
	int64_t cpufreq_update_cost_ns; /* CPU time of one cpufreq_update_util() call */
	int64_t turbo_eval_us;     /* period of the package's turbo-limit evaluation; 0: instant */
	int64_t freq_invariant;    /* -1: the machine's (and the kernel's); 0: off; 1: on */
	int64_t freq_invariance_cores; /* N: the N-active-cores turbo as reference; 0: the machine's */
	int64_t cstate_auto_demotion; /* enum auto_demotion: the hardware's (BIOS option) */
	int64_t sched_mc_power_savings; /* 0 spread, 1 pack when lightly loaded, 2 also wakeups */
	int64_t sched_util_clamp_min;   /* sysctl: the largest uclamp.min any task gets */
	int64_t sched_util_clamp_max;   /* sysctl: the largest uclamp.max any task gets */
	int64_t sched_energy_aware;     /* sysctl: 1 lets EAS run where it can */
	int64_t sched_itmt_enabled;     /* sysctl: 1 lets ITMT (asym packing) run where it can */
	int64_t amd_prefcore;           /* amd_prefcore=disable on the command line: 0 */
	int64_t pl1_w, pl2_w;      /* package power limits, W; -1: the machine's; 0: none */
	int64_t pl1_window_ms;     /* PL1's time window; -1: the machine's */
	int64_t energy_perf_bias;  /* IA32_ENERGY_PERF_BIAS, 0..15 (engine/epb.c) */
	int64_t amd_pstate;        /* enum amd_pstate_param: amd_pstate= on the command line */
	/* tuned's dynamic PM QoS (engine/pmqos_dynamic.c): -1 low: off */
	int64_t pm_qos_dynamic_low_us, pm_qos_dynamic_high_us, pm_qos_dynamic_load_milli;
	int64_t pm_qos_dynamic_interval_s;
	int64_t transparent_hugepage; /* enum thp_mode */
	/* vm.dirty_* (engine/writeback.c) */
	int64_t dirty_ratio, dirty_background_ratio, dirty_writeback_cs, dirty_expire_cs;
};

/* When the scheduler calls the frequency governor's hook (§15 of the
 * governor reference). */
enum cpufreq_updates {
	CPUFREQ_UPDATES_CLASSIC,      /* tick, enqueue, dequeue */
	CPUFREQ_UPDATES_CONSOLIDATED, /* context switch (if util decayed or iowait), tick,
					 failed wakeup preemption */
};

struct sim_cpu {
	int id, core, pkg, llc, policy;
	int type;              /* its CPU type (s->types) */
	/* &s->cores[core], &s->pkgs[pkg] and &s->types[type]: one load where
	 * the index took three to five instructions at every accounting step,
	 * idle entry and exit. Set with the topology (build_topology()); the
	 * arrays are never moved (--check: check_invariants() compares). */
	struct sim_core *core_p;
	struct sim_pkg *pkg_p;
	const struct sim_type *type_p;
	enum cpu_mode mode;
	int cstate;            /* state the hardware entered (IDLE/WAKING) */
	int req_cstate;        /* state the governor asked for (cpuidle's view) */
	/* A blind governor's last answer and the latency limit it was for
	 * (-1: none yet): its select() is a function of the limit alone. */
	int blind_state;
	sim_ns blind_limit_ns;
	/* The governor's select() for this CPU (cpu_idle_setup(): its
	 * select_for(), else select()). */
	cpuidle_select_fn *idle_select;
	/* Its LLC's has_idle_cores, which an idle entry may set through the
	 * placement's cpu_idle() (switch_to_idle()), or NULL where none does
	 * (no SMT, or no cpu_idle()): one load and test where the topology's
	 * took five. Set by cpu_idle_setup(); neither the topology nor the
	 * placement changes in a run (--check: cpu_idle_path_consistent()). */
	const bool *llc_idle_cores;
	sim_ns last_idle_ns;   /* length of the previous idle period, for auto-demotion */
	struct task *curr;     /* RUNNING: executing; WAKING: none yet */
	struct rq rq;
	int nr_running;        /* queued + curr */
	bool in_dispatch;      /* the workload is deciding curr's next action */
	bool need_resched;
	/* Its policy's per_cpu_requests, kept here so a busy change tests
	 * one byte of the CPU (set_mode()); it changes only in
	 * sim_request_cpus() (freq.c), which sets it for every CPU of the
	 * policy; check_invariants() compares the two. */
	bool votes_per_cpu;
	double speed;          /* cycles per ns for curr */
	sim_ns seg_start;      /* accounted up to here */
	sim_ns idle_start;
	sim_ns next_tick;
	uint32_t wake_gen;
	bool tick_on;
	bool tick_pending;     /* a tick event is queued (see cpu_stop_tick) */
	sim_ns done_at;        /* when the queued EV_BURST_DONE fires, -1: none */
	int stealable;         /* its share of the package's nr_stealable */
	uint32_t obs_khz;      /* last frequency told to the observer */
	int nr_iowait;         /* tasks blocked on I/O that last ran here */
	uint64_t ticks_since_balance;
	uint64_t idle_calls;   /* idle-loop entries (tick_nohz_get_idle_calls_cpu) */
	/* Linux 3.10's rq->cpu_load[0] (menu 3.10 reads it): the load weight
	 * at the last tick, and the jiffy of that update (last_load_update_tick). */
	unsigned long cpu_load0;
	sim_ns load_update_jiffy;
	/* An interrupt's handler that ends a wakeup (cpu_interrupt()): from
	 * irq_start to irq_end the CPU is in C0 on kernel work, counted as
	 * system time as /proc/stat counts irq and softirq time. */
	sim_ns irq_start, irq_end;
	/* PELT (engine/load_avg.c): the CFS run queue's utilization as of its
	 * last update, what leaves it at the next, and its PELT clock. */
	struct pelt pelt;
	struct pelt_removed removed;
	uint64_t clock_pelt, lost_idle_time;
	uint64_t clock_pelt_idle;  /* rq_clock_pelt() when last seen idle */
	sim_ns clock_idle;         /* when last seen idle */
	bool has_blocked_load;     /* idle with a signal not yet decayed to 0 */
	bool nohz_idle;            /* idle with its tick stopped, until its next busy tick */
	sim_ns tick_stop_ns;       /* when the tick was last stopped */
	sim_ns avg_idle;           /* rq->avg_idle: average idle period, capped */
	sim_ns idle_stamp;         /* rq->idle_stamp: when it went idle, 0 once woken */
	uint32_t util_est_sum; /* util_est of its runnable tasks */
	uint64_t *util_dirty;  /* its word of its policy's util_dirty (cpu_util_changed())... */
	uint64_t util_dirty_bit; /* ...and its bit there */
	bool util_decayed;     /* the run queue's PELT moved since the last cpufreq hook call */
	sim_ns idle_busy_until;/* the idle entry path (and tick stop) runs until then */
	/* The switch to idle of the task that just left (schedule_idle()),
	 * for the idle entry that follows; 0 otherwise. */
	sim_ns switch_out_ns;
	/* By C-state, for the plain idle exit (wake_plain()): the state's wake
	 * time (wake_ns, else exit_ns) and the idle loop's exit path after it
	 * (machine.idle_exit_ns). Set by cpu_wake_setup(): the states and the
	 * machine are fixed by then; --check compares (cpu_wake_path_consistent()). */
	sim_ns plain_exit_ns[MACHINE_MAX_CSTATES];
	bool tick_woke;        /* the tick ended the current idle period */
	struct cpuidle_device idle;
	/* By C-state, bit k: waking a task here from another CPU needs no
	 * IPI (wake_sends_ipi()): cpuidle_state_polls_flags() of
	 * idle.states[k] (a string search in the state's desc: done once, at
	 * the start), with par.idle_polling_wakeup; none without it. */
	uint32_t polls_flags;
	struct eventq timers;  /* armed sleep timers of tasks that slept here */
	sim_ns bg_next;        /* next background wakeup (engine/background.c), or SIM_NS_MAX */
	bool bg_timer;         /* ...and whether it is a timer */
	struct rng bg_rng;
	struct cpu_result acct;
};

struct sim_core {
	int pkg;
	int type;              /* its CPU type (s->types) */
	const struct sim_type *type_p; /* &s->types[type], as sim_cpu's */
	int ncpus;
	int cpus[8];
	int nbusy;             /* threads in C0 (running or waking) */
	int own_cap_idx;       /* its own highest P-state (the machine's [highest_perf]) */
	int eff_idx;           /* its threads' P-state in C0: cpu_effective_idx() */
	uint32_t ramp_gen;     /* its EV_RAMP_END's generation */
	int nrunning;          /* threads running a task */
	int busy_slot;         /* its index in its package's busy_cores while nbusy */
	bool turbo_active;     /* counts toward the package's active cores for turbo */
	bool ramping;          /* at its lowest P-state after C1E (engine/exit_ramp.c) */
	/* Its type's speed at eff_idx, set with it (set_eff_idx()): what a
	 * thread running alone on the core does per ns (cpu_speed()). */
	double speed_solo;
	double p_dyn, p_static;
	sim_ns last;
	double e_dyn, e_static;
	double obs_w;          /* last power told to the observer */
};

struct sim_pkg {
	int ncores;
	int first_core;        /* global index of its first core (all cores, online or not) */
	/* One past its last core with a CPU online (power_init()): the cores
	 * after it have none, for the whole run, and the power walks stop
	 * there (--check verifies). */
	int ncores_walk;
	int nbusy_cores;       /* cores in C0 */
	int *busy_cores;       /* ...which (global core indices), in no order; kept
				  with an uncore model only (engine/uncore.c) */
	/* Per CPU type: cores active for the turbo bins (C0, polling or a
	 * turbo_active state) and the turbo ceiling P-state in force. */
	int nturbo_cores[MACHINE_MAX_TYPES];
	int cap_idx[MACHINE_MAX_TYPES];
	/* Per CPU type, the counts of turbo-active cores that leave the power
	 * controller nothing to do: turbo_lo .. turbo_lo + turbo_span, those
	 * whose ceiling is cap_idx, or every count while an evaluation is
	 * pending (turbo_window_set(); --check verifies). */
	int turbo_lo[MACHINE_MAX_TYPES];
	unsigned turbo_span[MACHINE_MAX_TYPES];
	/* The power controller (engine/power_limit.c): its ceiling per type
	 * (the top P-state: none), its level on type 0's table, the running
	 * averages of package power (W) and the energy counter it last read. */
	int limit_idx[MACHINE_MAX_TYPES];
	int pl_level;
	double pl_avg1, pl_avg2, pl_energy_j;
	sim_ns pl_last;
	int nidle_cores;       /* online cores idle */
	int ncores_online;
	bool turbo_eval_pending;
	long nr_stealable;     /* queued tasks on its running CPUs (see cpu_stealable) */
	int pkg_cstate;        /* -1: not in a package C-state */
	double p_uncore;
	sim_ns last;           /* energy and residency accounted up to here */
	sim_ns all_idle_since; /* -1 when some core is busy */
	struct package_result acct;
	double obs_w;          /* last uncore power told to the observer */
	uint32_t unc_khz;      /* the uncore clock (engine/uncore.c); 0: no model */
	double unc_w;          /* the uncore's power at that clock, while running */
	/* The fastest clock among busy_cores and how many of them run at it,
	 * kept as cores join, leave or change P-state (uncore_busy_khz());
	 * busy_top_n -1: unknown, found again by a scan when next needed. */
	uint32_t busy_top_khz;
	int busy_top_n;
	/* The uncore clock's target may have moved since the clock last
	 * followed it: set where its inputs move (the busy count to or from
	 * 0, the busy cores' fastest clock), cleared where the clock follows
	 * (uncore_follow()); never set without an uncore model. */
	bool unc_stale;
};

/* A CPU type as the engine runs it (machine.h, struct cpu_type). */
/* A halted core's power in one C-state of its type (power_tables()), from
 * the type's fixed table (machine.h struct cstate): 16 bytes a state,
 * against 120 for struct cstate. */
struct core_idle_w {
	double w;              /* power_w */
	bool c0;               /* poll: the core stays in C0 */
	bool at_vid;           /* leak_at_vid: the leakage at its domain's voltage */
	bool turbo;            /* turbo_active */
};

struct sim_type {
	const struct cpu_type *t; /* in s->mcopy, resolved */
	uint32_t *khz;         /* its P-states, ascending */
	int npstates;
	/* What the OS may request (the policy's table): every P-state, or
	 * with [frequency] turbo = hardware those up to base and one turbo
	 * entry, the top, which lets the hardware pick the bin. */
	uint32_t *os_khz;
	int os_npstates;
	int base_idx;          /* highest non-turbo P-state */
	int *turbo_cap_idx;    /* by the type's active cores in the package */
	uint32_t fie_khz;      /* frequency invariance's reference; 0: PELT not invariant */
	uint32_t *freq_scale;  /* by P-state: arch_scale_freq_capacity() (set_invariance()) */
	uint32_t capacity;     /* arch_scale_cpu_capacity() */
	/* Work per cycle against the first type of capacity 1024: a type of
	 * capacity C and highest frequency F does C/1024 of its work at F. */
	double work_per_cycle;
	double *speed;         /* by P-state: work per ns of one thread alone (cpu_set_speed()) */
	double *dyn_w;         /* by P-state: Ceff V^2 f of one busy thread (power_tables()) */
	double *leak_w;        /* by P-state: leakage at its voltage */
	double *activity_by_busy; /* by threads in C0: the SMT activity factor */
	struct core_idle_w *idle_w; /* by C-state of t: a halted core's power */
	/* To 128 bytes on 64-bit hosts, so that s->types[] is indexed by a
	 * shift: the power step indexes it at every change of a core's
	 * C-state (pingpong -4.5 instr/event, oltp -5). */
	char pad_to_128[8];
};
_Static_assert(sizeof(void *) != 8 || sizeof(struct sim_type) == 128,
	       "struct sim_type is 128 bytes on 64-bit hosts");

struct sim_policy {
	struct cpufreq_policy p;
	int type;              /* a clock domain never spans two CPU types */
	int *cpus;
	uint64_t *util_dirty;  /* p.util_dirty */
	struct cpu_util_src *util_src; /* p.util_src while it is offered */
	int cur_idx;           /* P-state the hardware runs now (before turbo cap) */
	uint32_t apply_gen;
	struct cppc_guided guided; /* amd-pstate's guided mode (cpufreq/cppc_guided.h) */
	uint32_t guided_khz;   /* what guided mode last programmed */
	/* Per CPU of the policy, its own P-state request (kHz), once the
	 * governor asks per CPU (cpufreq_request_cpus()): the clock is then
	 * resolved from the requests of the CPUs that vote (freq_votes()). */
	uint32_t *req_khz;
	bool per_cpu_requests;
};

/* Where a task lives. A finished task is freed and its slot reused; the
 * slot's timer generation carries on, so that a stale timer event of the
 * old task never matches the new one. */
struct task_slot {
	struct task *t;        /* NULL: free */
	uint32_t timer_gen;    /* of the task that last held it, while free */
};

struct sim {
	const struct machine *m;
	struct machine mcopy;
	sim_ns now, end;
	/* What sim_run() must look at after an event, each a byte of one
	 * word, so that a single test covers them all (most events need
	 * none): the byte is set where its cause arises. */
	union {
		struct {
			union {
				struct {
					bool stopped; /* sim_stop() */
					bool oom;     /* an allocation failed: the run fails */
					bool reap;    /* tasks finished: dead[] to free */
					bool hooks;   /* per-event work asked: check or progress */
				};
				uint32_t attention_work; /* the four above */
			};
			bool lane_armed; /* the timer lane holds a timer (lane.n > 0) */
		};
		uint64_t attention;
	};
	uint64_t seed;
	struct eventq q;
	/* Each CPU's one deadline (key: the CPU): while it runs, its end of
	 * burst (EV_BURST_DONE, done_at), moved in place at every frequency,
	 * turbo or SMT sibling change (cpu_arm_done()); while it wakes, its
	 * end of wakeup (EV_WAKE_DONE, cpu_wake()), the event most wakeups
	 * from idle post and pop. sim_run() takes the earlier of it and the
	 * queue. */
	struct keyheap bursts;
	/* The workload's timers, once it asks for the lane
	 * (sim_workload_timer_lane(): device completions, as oltp's), the
	 * ends of exit ramps (EV_RAMP_END), and ticks while it holds a timer,
	 * at most LANE_MAX of them (the queue takes the rest), kept in queue
	 * order (time, then sequence number) from the last to the first: a
	 * pop takes the last, and a push moves those due before it, from the
	 * end, down to v[1]: v[0] is a sentinel due at INT64_MAX, later than
	 * any timer the lane takes, so the move's loop has no bound to test.
	 * A device's timers mostly come due in the order they are posted,
	 * and a ramp lasts one fixed time per P-state pair, so a push
	 * moves few (a tick, a jiffy ahead, most). While it holds one
	 * (lane_armed), sim_run() compares its first with the earlier of the
	 * queue's and the deadlines' first at every event (a run without a
	 * lane pays nothing); check_invariants() checks the order. */
	struct timer_lane {
		struct lane_timer {
			sim_ns time;
			uint64_t seq;
			uint32_t kind; /* EV_WL_TIMER, EV_RAMP_END or EV_TICK */
			uint32_t obj;  /* EV_RAMP_END: the core; EV_TICK: the CPU */
			uint32_t gen;  /* EV_RAMP_END: its ramp_gen */
			uint32_t arg;  /* EV_WL_TIMER: the workload's */
		} v[LANE_MAX + 1]; /* v[1] to v[n]; v[0]: the sentinel */
		uint32_t n;
		uint32_t max; /* LANE_MAX once sim_workload_timer_lane() was called, else 0 */
		/* The engine's own (sim_post_ramp_end(), sim_post_tick()) go
		 * in while fewer than this are in: LANE_MAX (0 in tests: the
		 * queue alone). */
		uint32_t engine_max;
	} lane;
	struct engine_params par;
	sim_ns tick_ns;
	/* Half the machine's context switch (switch_out_half()), fixed at setup. */
	sim_ns switch_half_ns;
	/* The stalls switch_in() and a restarted tick (schedule_leave_idle())
	 * add to the task's, as doubles, fixed at setup (cpu_stall_costs_setup()):
	 * a switch, its switching-in half (from idle), and a tick restart
	 * within the jiffy it was stopped in or later (--check:
	 * cpu_stall_costs_consistent()). */
	double switch_stall_ns, switch_in_stall_ns;
	double tick_restart_reprogram_stall_ns, tick_restart_stall_ns;
	/* The idle entry's C0 work after a task stopped: the switch out and
	 * the idle loop's entry (switch_half_ns + machine idle_entry_ns), and
	 * a tick stop's cost while the CPU's nohz state stays (the lesser of
	 * tick_stop_cost_ns and tick_reprogram_cost_ns); fixed at setup. */
	sim_ns stopped_entry_ns, tick_restop_ns;
	sim_ns latency_limit_ns;
	int kernel_version;    /* --set kernel=X.Y as MAJOR * 1000 + MINOR; 0: current */
	enum cppc_mode amd_pstate; /* amd-pstate's mode for every policy (CPPC_NONE: not it) */
	int nohz_nr_cpus;      /* CPUs idle with the tick stopped (nohz.nr_cpus) */
	bool nohz_has_blocked; /* one of them may have blocked load (nohz.has_blocked) */
	/* cpu_enter_idle()'s version for the run's tick policy and idle
	 * governor, fixed at setup (cpu_idle_setup()). */
	void (*enter_idle)(struct sim *s, struct sim_cpu *c);
	/* ...and with it, inline, the switch to idle of a CPU whose task has
	 * just stopped, nothing to pick (cpu.c's cpu_schedule_stopped()). */
	void (*stopped_idle)(struct sim *s, struct sim_cpu *c);
	/* cpu_wake()'s version: plain without cluster states, exit ramp and
	 * wakeup observer; fixed at setup (cpu_wake_setup()). */
	void (*wake)(struct sim *s, struct sim_cpu *c, sim_ns extra);
	/* The placement's newidle_balance() needs a stealable task
	 * (placement_ops.newidle_needs_stealable, capacities symmetric):
	 * a CPU going idle calls it only while one exists. Fixed at setup. */
	bool newidle_needs_stealable;
	/* The scheduler calls the governor's hook at every enqueue and
	 * dequeue (classic cpufreq updates, a governor with a hook): fixed at
	 * setup (task_wake_setup()). */
	bool classic_hook;
	sim_ns nohz_next_blocked; /* not before this jiffy (nohz.next_blocked) */
	int cpuidle_stop_tick_default;
	int cluster_cstate;    /* the first cluster C-state (engine/cluster_idle.c); -1 none */
	bool cluster_power;    /* clusters draw power of their own (cluster_w) or go down */

	int ncpus;
	struct sim_cpu *cpus;
	int ncores;            /* all cores of the topology */
	struct sim_core *cores;
	int npkgs;
	struct sim_pkg *pkgs;
	int npolicies;
	struct sim_policy *policies;
	int *cpu_policy;       /* cpu -> policy index */
	int *cpu_policy_slot;  /* cpu -> its index in its policy's CPUs */
	struct sched_topology topo; /* the scheduler's copy: groups by core, LLC, package */
	struct sched_knobs knobs;   /* what placement reads of par */
	char cstate_disable[256];   /* --set cstate_disable=NAME,NAME */
	uint32_t nshare_groups;     /* engine/share.c */
	double *share_act;          /* [group][llc] decayed activity */
	sim_ns *share_when;         /* [group][llc] when it was last decayed */
	int dispatch_cpu;           /* CPU whose task the workload is deciding for, or -1 */
	char wl_name[64];           /* --workload NAME[:ARG] split */
	const char *wl_arg;
	const void *wl_lent;  /* sim_config.workload_data */
	int ntypes;
	struct sim_type *types;
	double pl1_w, pl2_w;   /* package power limits in force, W (0: none) */
	sim_ns pl1_window_ns, pl2_window_ns;
	/* Auto-demotion's targets: the first hardware state ("C1") and the
	 * first that stops the clocks ("C3": neither polling nor turbo_active;
	 * ncstates if none). */
	int demote_c1, demote_c3;
	/* Some C-state's power follows its clock domain's voltage
	 * (leak_at_vid): package C-state changes move idle cores' power. */
	bool idle_at_vid;

	const struct cpufreq_governor *cf_gov;
	void *cf_tunables;     /* template copied into each policy */
	const struct cpuidle_governor *ci_gov;
	void *ci_tunables;
	const struct placement_ops *placement;
	/* --set placement=NAME: a plugin's policy (with its run data), or a
	 * built-in one's name, checked against the one the knobs select. */
	const struct placement_ops *placement_named;
	void *placement_data;
	/* Energy Aware Scheduling (engine/perf_domain.c): the root domain's
	 * performance domains, none when it cannot run (and why). */
	int npds;
	struct sv_perf_domain *pds;
	int *pd_cpus;
	struct em_table *em;   /* by CPU type */
	const char *eas_why;

	const struct workload_ops *wl;
	void *wl_data;

	/* Tasks: slots, reused once a task has finished (memory follows the
	 * live tasks, not every task ever created); ids grow for ever. */
	struct task_slot *slots;
	uint32_t nslots, cap_slots;
	uint32_t *free_slots;  /* a stack of free slot indices */
	uint32_t nfree;
	struct idmap ids;      /* task id -> slot, for sim_task() */
	struct task **dead;    /* finished during this event, freed after it */
	uint32_t ndead, cap_dead;
	bool keep_finished;    /* sim_config.keep_finished_tasks: never free */
	uint32_t tasks_created;
	uint32_t nlive;
	uint64_t tasks_finished;
	double cycles_requested_finished, cycles_done_finished;
	long nr_stealable;     /* the packages' nr_stealable summed (see cpu_stealable) */

	struct histogram latency, wakeup_latency;
	double work_done;
	uint64_t ctx_switches, migrations, wakeups, freq_transitions, events;
	uint64_t cpufreq_hook_calls;
	uint64_t stale_events; /* popped but cancelled (lazy cancellation) */
	uint64_t queue_len_sum; /* the event queue's length at each pop, summed */
	bool check;
	bool call_every_hook; /* sim_config's */
	void (*progress)(void *ctx, double done);
	void *progress_ctx;
	const struct sim_observer *obs;

	/* The memory model's figures at the core and uncore clocks asked
	 * (engine/memory.c): a burst asks three times; a few pairs of clocks
	 * recur, each kept in the slot the pair picks (memory.c: clocks()). And the bound
	 * on any burst's bandwidth demand (bw_*, see memory_bandwidth_factor()). */
	struct mem_clocks {
		bool valid;
		uint32_t khz, unc_khz;
		double core_ghz, uncore_ghz, latency_ns, scale;
	} mem_at[4];
	double mem_bw_mlp_max, mem_bw_latency_min;
	bool mem_bw_below_peak;
	int8_t mem_model; /* whether the machine has a memory model: 0 not yet asked, 1, -1 */

	/* What the platform power model counts (engine/platform_power.c). */
	double dram_lines;     /* 64-byte lines moved to or from DRAM */
	sim_ns disk_busy_ns;   /* time a disk served I/O */
	double nic_packets;
	/* The kernel's 1-minute load average (avenrun[0], FIXED_1 = 2048) and
	 * tuned's PM QoS request from it, -1 none (engine/pmqos_dynamic.c). */
	unsigned long avenrun0;
	bool avenrun_seeded;
	int64_t pmqos_dynamic_us;
	/* Page cache written since the flusher's last run, and what it wrote
	 * back (engine/writeback.c). */
	double dirty_new_bytes;
	sim_ns writeback_last;
	double written_back_bytes;
	uint64_t writeback_runs;
	/* --check: wl is &wl_checked, the workload's own ops (wl_own) with a
	 * next() that checks the action comes back written whole, which
	 * task_dispatch() relies on (task_dispatch_check_setup()). */
	const struct workload_ops *wl_own;
	struct workload_ops wl_checked;
};

/* engine/cpu.c */
void cpu_sync_from(struct sim *s, struct sim_cpu *c);
/* Accounts the CPU's time up to now (cpu.c); most calls find it done. */
static inline void cpu_sync(struct sim *s, struct sim_cpu *c)
{
	if (s->now > c->seg_start)
		cpu_sync_from(s, c);
}
/* Work per ns of the running CPU at its P-state and SMT share
 * (cpu_speed()), kept in c->speed and told to the observer as a
 * frequency (cpu_set_speed()). */
double cpu_speed(const struct sim *s, const struct sim_cpu *c);
void cpu_set_speed(struct sim *s, struct sim_cpu *c);
void cpu_schedule(struct sim *s, struct sim_cpu *c);
void cpu_kick(struct sim *s, struct sim_cpu *c);
void cpu_kick_idle(struct sim *s, struct sim_cpu *c); /* c->mode == CPU_IDLE */
void cpu_interrupt(struct sim *s, struct sim_cpu *c, sim_ns handler_ns);
/* The idle loop: select a C-state and enter it (cpu.c). */
static inline void cpu_enter_idle(struct sim *s, struct sim_cpu *c)
{
	s->enter_idle(s, c);
}
/* Chooses the idle loop's version and sets what it leaves to setup;
 * after the governors' init. */
void cpu_idle_setup(struct sim *s);
bool cpu_idle_path_consistent(struct sim *s); /* --check; asks a blind governor */
void cpu_wake_setup(struct sim *s);
bool cpu_wake_path_consistent(const struct sim *s); /* --check */
/* Sets the stall costs kept as doubles (struct sim's switch_stall_ns...);
 * once the machine's costs and the --set keys are in. */
void cpu_stall_costs_setup(struct sim *s);
bool cpu_stall_costs_consistent(const struct sim *s); /* --check */
void cpu_arm_done(struct sim *s, struct sim_cpu *c);
void cpu_wake_done(struct sim *s, struct sim_cpu *c);
void cpu_poll_end(struct sim *s, struct sim_cpu *c);
void cpu_burst_done(struct sim *s, struct sim_cpu *c);
void cpu_tick(struct sim *s, struct sim_cpu *c);
void cpu_load_nohz_exit(struct sim_cpu *c, sim_ns jiffy);
void cpu_start_tick(struct sim *s, struct sim_cpu *c);
sim_ns sched_slice(const struct sim *s, const struct sim_cpu *c, const struct task *t);
/* MHz x ns in C0 (cycles / 1000): from the time at each P-state. */
double cpu_c0_mhz_ns(const struct sim *s, const struct sim_cpu *c);

/* engine/load_avg.c: PELT's clock and update points */
enum load_avg_flags {
	LOAD_AVG_ATTACH = 1, /* DO_ATTACH: enqueue of a task that changed CPU */
	LOAD_AVG_DETACH = 2, /* DO_DETACH: dequeue of a task moving while queued */
};
/* update_rq_clock_pelt() for dt ns: running at P-state idx, or idle
 * (waking included: the idle task is current) (cpu_sync). */
void clock_pelt_run(struct sim *s, struct sim_cpu *c, sim_ns dt, int idx);
/* The nohz idle balancer's stats update of blocked load, when it is due
 * (_nohz_idle_balance(NOHZ_STATS_KICK)). */
void load_avg_nohz_stats(struct sim *s);
/* clock_pelt_idle(), load_avg_update() (update_load_avg()) and
 * load_avg_cpu_goes_idle() are inline at the end of this file. */
/* An idle CPU's blocked load decayed to now (update_blocked_averages()). */
void load_avg_blocked(struct sim *s, struct sim_cpu *c);
/* remove_entity_load_avg(): `t` (off its run queue) leaves c's signal. */
void load_avg_remove(struct sim *s, struct sim_cpu *c, struct task *t);
/* migrate_task_rq_fair() for a waking task leaving `from`. */
void load_avg_migrate_wakeup(struct sim *s, struct task *t, struct sim_cpu *from);
/* ttwu's idle-time sample: a task is queued on c. */
void load_avg_wakeup(struct sim *s, struct sim_cpu *c);
/* nohz_balance_enter_idle(): c stopped its tick in idle. */
void load_avg_nohz_enter(struct sim *s, struct sim_cpu *c);
/* The nohz part of a busy CPU's tick (nohz_balancer_kick()'s stats kick). */
void load_avg_busy_tick(struct sim *s, struct sim_cpu *c);

/* The P-state a CPU runs at in C0: its policy's, under its package's
 * turbo ceiling for its type and its core's own top (kept by the core,
 * core_pstate_refresh(): read at every accounting step, it changes only
 * with the frequency, the turbo ceiling or an exit ramp). */
static inline int cpu_effective_idx(const struct sim *s, const struct sim_cpu *c)
{
	(void)s;
	return c->core_p->eff_idx;
}

static inline const struct sim_type *cpu_type_of(const struct sim *s, const struct sim_cpu *c)
{
	(void)s;
	return c->type_p;
}

/* The frequency the CPU runs at now (its clock domain's, under the turbo
 * ceiling of its package and type), kHz. */
static inline uint32_t cpu_khz(const struct sim *s, const struct sim_cpu *c)
{
	return s->types[c->type].khz[cpu_effective_idx(s, c)];
}

/* The shallowest state of a core's threads (of one at least), which is
 * the core's while all are idle (power.c, exit_ramp.c). */
static inline int core_shallowest_cstate(const struct sim *s, const struct sim_core *core)
{
	int st = s->cpus[core->cpus[0]].cstate;
	for (int i = 1; i < core->ncpus; i++)
		if (s->cpus[core->cpus[i]].cstate < st)
			st = s->cpus[core->cpus[i]].cstate;
	return st;
}

/* ...its threads' clock in C0, from the core (cpu_khz() of any of them). */
static inline uint32_t core_khz(const struct sim *s, const struct sim_core *core)
{
	return s->types[core->type].khz[core->eff_idx];
}

/* engine/background.c: wakeups of idle CPUs besides the workload's */
int background_init(struct sim *s, struct pm_diag *d);
void background_fire(struct sim *s, struct sim_cpu *c);
/* The CPU's next background wakeup if it is a timer, else SIM_NS_MAX. */
sim_ns background_next_timer(const struct sim *s, const struct sim_cpu *c);

/* engine/cluster_idle.c: cluster power-down (PSCI platform-coordinated) */
void cluster_idle_init(struct sim *s);
/* Every CPU of the clock domain `policy` idle in a cluster state. */
bool cluster_is_down(const struct sim *s, int policy);
/* The clusters of package `pkg` that are up: their cluster_w. */
double cluster_power_w(const struct sim *s, int pkg);
/* The time CPU c takes to leave its idle state: a cluster state's while
 * the cluster is down, else the core state's before it. */
sim_ns cluster_wake_ns(const struct sim *s, const struct sim_cpu *c);

/* engine/uncore.c: the uncore clock and its power */
void uncore_init(struct sim *s);
void uncore_follow(struct sim *s, int pkg);   /* re-evaluate after a core changed */
void uncore_clock_follow(struct sim *s, int pkg); /* to the target, the caller re-evaluates */
/* --check: the clock is the rule's for the busy cores a scan finds, its power the clock's. */
bool uncore_consistent(const struct sim *s, int pkg);
double uncore_running_w(const struct sim *s, int pkg);
void uncore_clock_set(struct sim *s, int pkg, uint32_t khz); /* the clock and its power */
/* A core of pkg's busy_cores runs at `to` kHz instead of `from` (0: it
 * joins, or leaves, the busy cores). */
void uncore_busy_khz(struct sim *s, int pkg, uint32_t from, uint32_t to);
/* Core `ci` (`core`, s->cores[ci], of package `pkg`) joined (delta > 0)
 * or left the busy cores, `before` of them until now: the package's list
 * and its record of their fastest clock. */
void uncore_core_busy(struct sim *s, struct sim_core *core, struct sim_pkg *pkg, int ci, int delta,
		      int before);
/* The fastest clock of pkg's busy cores by a scan (0: none), how many run
 * at it in *n. */
uint32_t uncore_busy_scan(const struct sim *s, int pkg, int *n);

/* engine/memory.c: a burst's memory stall at the present clocks.
 * The stretch of a burst's stall by its package's memory bandwidth (>= 1);
 * records what the burst asks of memory in t->mem_gbps. */
double memory_bandwidth_factor(struct sim *s, const struct sim_cpu *c, struct task *t,
			       double cycles, double stall_ns);
/* A burst's stall of stall_ns at 3 GHz clocks, as it runs on c now: the
 * miss latency's scale at the present clocks and the coherence traffic,
 * then what t's group left warm in c's cache (share_stall_factor()), the
 * DRAM traffic of that (s->dram_lines), then memory_bandwidth_factor(). */
double memory_burst_stall_model(struct sim *s, const struct sim_cpu *c, struct task *t,
				double cycles, double stall_ns);
/* memory_burst_stall_model() but for a burst with no stall (a system
 * call's, the network stack's: two of an oltp statement's three bursts,
 * pingpong's every one), which ends with none whatever the factors (each
 * finite and positive) and asks for no bandwidth; only a sharing group's
 * task has more to do, its activity record (share_stall_factor()). Inline
 * in task_dispatch(): the clocks are not looked up, and no call made. So
 * for any burst on a machine known to have no memory model
 * (s->mem_model < 0, set by the model's first call: the machine is fixed
 * for the run), where every factor is 1 and the stall stays as it is
 * (tbench's copies on the i7-4790: the call's register saves were 13
 * instr/event). */
static inline double memory_burst_stall(struct sim *s, const struct sim_cpu *c, struct task *t,
					double cycles, double stall_ns)
{
	if ((!(stall_ns > 0) || s->mem_model < 0) && !t->share_group) {
		t->mem_gbps = 0;
		return stall_ns;
	}
	return memory_burst_stall_model(s, c, t, cycles, stall_ns);
}

/* engine/exit_ramp.c: the lowest P-state after a C1E wakeup, while the
 * voltage ramps back */
void exit_ramp_begin(struct sim *s, struct sim_cpu *c); /* c leaves its C-state */
void exit_ramp_end(struct sim *s, int core);

/* engine/epb.c: the energy/performance bias acting on hardware */
double epb_demotion_factor(const struct sim *s);
sim_ns epb_turbo_delay_ns(const struct sim *s);

/* engine/pmqos_dynamic.c: the load average and tuned's dynamic PM QoS */
void pmqos_dynamic_init(struct sim *s);
/* --set pm_qos_dynamic=LOW,HIGH,THRESHOLD into par; -1 with a message. */
int pmqos_dynamic_parse(struct engine_params *par, const char *val, const char *kv,
			struct pm_diag *d);
void loadavg_sample(struct sim *s);
void pmqos_dynamic_eval(struct sim *s);
/* The PM QoS limit in force (static requests and tuned's). */
void pmqos_update_limit(struct sim *s);

/* engine/writeback.c: dirty page cache and the flusher */
void writeback_init(struct sim *s);
void writeback_run(struct sim *s);

/* engine/platform_power.c: the rest of the server at the wall */
void platform_power_collect(const struct sim *s, struct run_result *r);

/* engine/power.c: energy integration and turbo */
int power_tables(struct sim *s); /* -1 on OOM */
void power_init(struct sim *s);
void core_update(struct sim *s, int core);   /* recompute power after a state change */
/* The core's P-state in C0 after its policy's P-state, its package's
 * turbo ceiling or its exit ramp changed (cpu_effective_idx()). */
void core_pstate_refresh(struct sim *s, int core);
/* The P-state it would have then but for an exit ramp. */
int core_pstate_target(const struct sim *s, int core);
void policy_pstate_changed(struct sim *s, int policy); /* its cur_idx moved */
void pkg_turbo_eval(struct sim *s, int pkg);
void pkg_idle_changed(struct sim *s, int pkg); /* an idle core changed C-state */
void pkg_uncore_clock(struct sim *s, int pkg, uint32_t khz); /* the uncore's clock moved */
/* --check: the package's uncore power is what a re-evaluation finds. */
bool pkg_power_consistent(const struct sim *s, int pkg);
/* --check: the counts that ask nothing of the power controller
 * (turbo_lo, turbo_span) are those of the ceiling in force. */
bool pkg_turbo_window_consistent(const struct sim *s, int pkg);
void power_flush(struct sim *s);

/* engine/perf_domain.c: the performance domains EAS reads */
int perf_domains_build(struct sim *s, struct pm_diag *d);
void perf_domains_free(struct sim *s);
/* engine/power_limit.c: package power limits (RAPL PL1/PL2, AMD PPT) */
void power_limit_init(struct sim *s);
void power_limit_eval(struct sim *s, int pkg);

/* engine/freq.c: the simulator's cpufreq driver */
int freq_init(struct sim *s, struct pm_diag *d);
/* sched_uclamp_used turned on: cpu_util() alone tells a run queue's clamps,
 * so the policies no longer offer their signals in place (p.util_src). */
void freq_uclamp_used(struct sim *s);
/* --check: what the CPU's policy offers in place (p.util_src) reads as
 * cpu_util_get() does. */
bool freq_util_src_agrees(struct sim *s, int cpu);
void freq_apply(struct sim *s, int policy, int idx);
/* cpufreq_update_util()'s call into the governor, and what it costs the CPU. */
void freq_update_call(struct sim *s, struct sim_cpu *c, struct cpufreq_policy *p, unsigned flags);
/* The same for a utilization hook (CPUFREQ_HOOK_UTIL), unless the call is
 * one the governor says would change nothing (cpufreq_policy's
 * util_quiet_*), which is charged and left out. */
void freq_util_call(struct sim *s, struct sim_cpu *c, struct cpufreq_policy *p, unsigned flags);

/* amd-pstate's guided mode hands a dynamic governor's request to the
 * hardware as its minimum (cpufreq/cppc_guided.h). */
static inline bool freq_guided(const struct cpufreq_policy *p)
{
	return p->amd_pstate == CPPC_GUIDED && p->gov && p->gov->dynamic_switching;
}

/* The scheduler's cpufreq hook at an enqueue, a dequeue, a tick. The tests
 * first, the calls out of line, and the whole forced inline into its
 * callers: a policy with no hook (the performance governor's) pays no
 * call at every enqueue and dequeue (callgrind: pingpong -7 instructions
 * an event against the out-of-line function LTO left once the utilization
 * path grew). */
static inline __attribute__((always_inline)) void freq_policy_hook(struct sim *s,
								   struct sim_cpu *c,
								   unsigned flags);
static inline __attribute__((always_inline)) void freq_update_hook(struct sim *s,
								   struct sim_cpu *c,
								   unsigned flags)
{
	if (!s->cf_gov->update)
		return;
	freq_policy_hook(s, c, flags);
}
/* freq_update_hook() past its governor's test: for a caller that knows
 * the governor has a hook (s->classic_hook). */
static inline __attribute__((always_inline)) void freq_policy_hook(struct sim *s,
								   struct sim_cpu *c,
								   unsigned flags)
{
	/* The policy's address only past the governor's test: a governor
	 * with no hook (performance) does not work it out at each wakeup. */
	struct cpufreq_policy *p = &s->policies[c->policy].p;
	if (p->hook == CPUFREQ_HOOK_UTIL) {
		freq_util_call(s, c, p, flags);
		return;
	}
	if (p->hook == CPUFREQ_HOOK_NONE)
		return;
	/* A timer's governor between samples (hook_quiet_until): the call
	 * would do nothing and charge nothing, unless guided mode's hardware
	 * loop runs with it. */
	if (s->now < p->hook_quiet_until && !freq_guided(p)) {
		c->util_decayed = false;
		return;
	}
	freq_update_call(s, c, p, flags);
}
/* The same out of line, for the calls of consolidated updates (at wakeup
 * preemption and context switch), where the inlined tests would make a
 * hot caller too large to be inlined in its own (callgrind: tbench +10
 * instructions an event). */
void freq_update_hook_outline(struct sim *s, struct sim_cpu *c, unsigned flags);
/* A CPU entered or left a state in which its P-state request counts
 * (C0, C1): re-resolve its clock if its CPUs request per CPU. */
void freq_votes(struct sim *s, const struct sim_cpu *c);
/* The processor's own P-state loop (HWP, CPPC autonomous selection): it
 * starts when a CPU leaves idle and evaluates every period while the CPU
 * stays in C0 (freq_hw_loop(), at each EV_HW_LOOP of its wake). */
void freq_hw_loop_start(struct sim *s, const struct sim_cpu *c);
/* Whether any policy may ever run a processor loop (HWP, amd-pstate): a
 * property of the machine and driver fixed at setup (the idle exit's
 * version, cpu_wake_setup()); and whether one has a loop period now
 * (--check: never where the first says none). */
bool freq_hw_loop_possible(const struct sim *s);
bool freq_hw_loop_running(const struct sim *s);
void freq_hw_loop(struct sim *s, struct sim_cpu *c);
/* Charges `ns` of kernel CPU time to what runs on c (its current task's
 * burst, or `t` if nothing runs yet). */
void cpu_charge(struct sim *s, struct sim_cpu *c, struct task *t, sim_ns ns);
/* The CPU's utilization for cpufreq (PELT, util_est, uclamp). */
void cpu_util_get(struct sim *s, struct sim_cpu *c, struct cpu_util *out);
void freq_fini(struct sim *s);

/* engine/sim.c: a new task (TASK_NEW, not yet placed); NULL on OOM. */
struct task *task_create(struct sim *s, const char *name, sim_ns start);
/* Tells the observer about a new task and the running task that forked
 * it (NULL: none). */
void task_observe_new(struct sim *s, const struct task *t, const struct task *parent);
/* engine/sim.c: a task finished (ACT_EXIT); it is freed after the event. */
void task_finished(struct sim *s, struct task *t);

/* engine/wake.c: task state changes */
/* Wakes (or starts, if new) `t` from `waker_cpu` (-1: no CPU, e.g. a
 * device); `sync`: the waker is about to sleep (WF_SYNC). */
void task_wake(struct sim *s, struct task *t, int waker_cpu, bool sync);
/* task_wake() of a task known to be TASK_BLOCKED. */
void task_wake_blocked(struct sim *s, struct task *t, int waker_cpu, bool sync);
void task_migrate(struct sim *s, struct task *t, struct sim_cpu *from, struct sim_cpu *to);
/* The task `t` current on `c` leaves it for a CPU placement picks (its
 * affinity no longer allows c). */
void task_requeue_elsewhere(struct sim *s, struct sim_cpu *c, struct task *t);
/* Active balancing: take the task running on `from` (mid-burst) to `to`. */
void task_move_running(struct sim *s, struct sim_cpu *from, struct sim_cpu *to);
bool task_dispatch(struct sim *s, struct sim_cpu *c);
/* Under --check, the workload's next() is called through one that checks
 * it wrote the whole action: after the workload is found. */
void task_dispatch_check_setup(struct sim *s);
void task_timer(struct sim *s, struct task *t);
/* What the wakeup and dequeue paths keep of the run's settings
 * (s->classic_hook): after freq_init(); and whether it, and the CPUs'
 * polls_flags, still agree with them (--check). */
void task_wake_setup(struct sim *s);
bool task_wake_setup_consistent(const struct sim *s);
sim_ns cpu_next_timer(struct sim *s, struct sim_cpu *c);

/* engine/share.c: multiplier (<= 1) for the stall of a burst that `t`
 * starts under `llc`; records the burst as the group's activity there. */
double share_stall_factor(struct sim *s, const struct task *t, int llc);
/* The share of the group's recent activity on packages other than pkg
 * (0 for a task of no group), for coherence traffic (engine/memory.c). */
double share_remote_share(struct sim *s, const struct task *t, int pkg);
/* A task of a sharing group that arrives under llc refetches only what
 * the group did not leave warm there: the refill's multiplier (<= 1). */
double share_refill_factor(struct sim *s, const struct task *t, int llc);

/* A balancer can take the tasks queued on a running CPU; those queued on a
 * CPU still waking sit on its wake list. Keeps the package's count of such
 * tasks, and the machine's, so balancers skip packages with none, and
 * CPUs going idle skip the balance when there are none anywhere. Call
 * after the run queue or the mode changes. */
static inline void cpu_stealable(struct sim *s, struct sim_cpu *c)
{
	int now = c->mode == CPU_RUNNING ? c->rq.len : 0;
	if (now == c->stealable)
		return;
	c->pkg_p->nr_stealable += now - c->stealable;
	s->nr_stealable += now - c->stealable;
	c->stealable = now;
}

/* What the cpufreq driver reports of the CPU's utilization (PELT,
 * util_est, the runnable tasks' uclamp) may have changed. */
static inline void cpu_util_changed(struct sim_cpu *c)
{
	*c->util_dirty |= c->util_dirty_bit;
}

static inline int cpu_is_idle(const struct sim_cpu *c)
{
	return c->mode == CPU_IDLE && c->nr_running == 0;
}

static inline void sim_post(struct sim *s, sim_ns t, uint32_t kind, uint32_t obj, uint32_t gen,
			    uint32_t arg)
{
	if (eventq_push(&s->q, t, kind, obj, gen, arg) < 0)
		s->oom = true;
}

/* A core's end of exit ramp (EV_RAMP_END) in the timer lane while it has
 * room, else the queue: the same order either way (sim.c). */
void sim_post_ramp_end(struct sim *s, sim_ns t, uint32_t core, uint32_t gen);

void sim_lane_tick(struct sim *s, sim_ns t, uint32_t cpu);

/* A CPU's next tick (EV_TICK), due up to a jiffy ahead, in the timer lane
 * while the lane holds a timer (then sim_run() compares its first at
 * every event anyway) and has room, else the queue: the same order either way
 * (sim.c). A run whose lane stays empty pays one test for it. */
static inline void sim_post_tick(struct sim *s, sim_ns t, uint32_t cpu)
{
	if (s->lane_armed && s->lane.n < s->lane.engine_max)
		sim_lane_tick(s, t, cpu);
	else
		sim_post(s, t, EV_TICK, cpu, 0, 0);
}

/* rq_clock_pelt() (kernel/sched/pelt.h; engine/load_avg.c keeps the
 * clock): the PELT clock less the idle time lost while fully busy. */
static inline uint64_t rq_clock_pelt(const struct sim_cpu *c)
{
	return c->clock_pelt - c->lost_idle_time;
}

/* _update_idle_rq_clock_pelt(): an idle run queue's PELT clock is its
 * clock; when and where it went idle, for migrate_se_pelt_lag(). */
static inline void clock_pelt_idle(struct sim *s, struct sim_cpu *c)
{
	c->clock_pelt = (uint64_t)s->now;
	c->clock_idle = s->now;
	c->clock_pelt_idle = rq_clock_pelt(c);
}

/* update_load_avg(cfs_rq, se, flags) (engine/load_avg.c says where the
 * kernel calls it): the task `t` (if any, `queued` on this run queue or
 * not, `t_running` or not), then the run queue (`running`: a task runs on
 * it). The CPU's clock is brought to now first (update_rq_clock()).
 * Inline: it runs two to four times per context switch, and each caller
 * passes constant flags, which fold away. */
static inline void load_avg_update_synced(struct sim *s, struct sim_cpu *c, struct task *t,
					  bool queued, enum load_avg_flags flags, bool running,
					  bool t_running);
static inline void load_avg_update_as(struct sim *s, struct sim_cpu *c, struct task *t, bool queued,
				      enum load_avg_flags flags, bool running, bool t_running)
{
	cpu_sync(s, c);
	load_avg_update_synced(s, c, t, queued, flags, running, t_running);
}

/* load_avg_update_as() of a CPU its caller has just synced at this
 * timestamp (cpu_sync_waking(): the end of a wakeup), without cpu_sync()'s
 * second look at its clock. */
static inline void load_avg_update_synced(struct sim *s, struct sim_cpu *c, struct task *t,
					  bool queued, enum load_avg_flags flags, bool running,
					  bool t_running)
{
	uint64_t now = rq_clock_pelt(c);
	if (t && !t->pelt_detached)
		pelt_update(&t->pelt, now, queued, t_running);
	/* The run queue is loaded while it has tasks, the running one included. */
	bool decayed = pelt_update_cfs_rq(&c->pelt, &c->removed, now, c->nr_running > 0, running);
	if (t && t->pelt_detached && (flags & LOAD_AVG_ATTACH)) {
		pelt_attach(&c->pelt, &t->pelt);
		t->pelt_detached = false;
		decayed = true;
	} else if (t && (flags & LOAD_AVG_DETACH)) {
		pelt_detach(&c->pelt, &t->pelt);
		t->pelt_detached = true;
		decayed = true;
	}
	if (decayed)
		c->util_decayed = true;
	/* The CPU's utilization moves with the average alone; the runnable
	 * set (uclamp) changes elsewhere, and only matters once a clamp is
	 * in use. */
	if (decayed || s->knobs.uclamp_used)
		cpu_util_changed(c);
}

/* load_avg_update_as() with what runs read from the CPU: a task runs
 * while its CPU does (CPU_RUNNING, curr set), and only curr. A caller
 * that knows both passes them, and their tests fold away. */
static inline void load_avg_update(struct sim *s, struct sim_cpu *c, struct task *t, bool queued,
				   enum load_avg_flags flags)
{
	bool running = c->mode == CPU_RUNNING && c->curr;
	load_avg_update_as(s, c, t, queued, flags, running, running && c->curr == t);
}

/* update_idle_rq_clock_pelt(): the run queue has nothing left to run.
 * Inline: every idle period starts here (cpu_schedule()). */
static inline void load_avg_cpu_goes_idle(struct sim *s, struct sim_cpu *c)
{
	cpu_sync(s, c);
	c->idle_stamp = s->now;
	/* nohz_newidle_balance(): a CPU that will stay idle long enough on
	 * average updates the idle CPUs' blocked load when it is due. */
	if (c->avg_idle >= s->par.sched_migration_cost_ns)
		load_avg_nohz_stats(s);
	/* Fully busy (util_sum at its ceiling for any position in the
	 * period): no idle time would have been left at full capacity, so the
	 * PELT clock's lag is lost rather than counted as idle. */
	uint32_t divider = ((LOAD_AVG_MAX - 1024) << PELT_SHIFT) - LOAD_AVG_MAX;
	if (c->pelt.util_sum >= divider)
		c->lost_idle_time += (uint64_t)s->now - c->clock_pelt;
	clock_pelt_idle(s, c);
	if (s->knobs.uclamp_used)
		cpu_util_changed(c); /* its runnable set is empty: no uclamp */
}

#endif
