// SPDX-License-Identifier: GPL-2.0-only
/* Idle-governor interface, shaped like the kernel's cpuidle core: the
 * idle loop asks the governor to select() a state for a CPU under a latency
 * limit, enters it, and after wakeup calls reflect() with what happened.
 * The idle loop -- not the governor -- owns the tick; the governor only
 * advises whether stopping it is worthwhile (stop_tick). */
#ifndef PMLAB_CPUIDLE_H
#define PMLAB_CPUIDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../core/tunable.h"
#include "../machine/machine.h"

/* Per-state statistics, as /sys/devices/system/cpu/cpuN/cpuidle/stateM has them. */
struct cpuidle_state_stats {
	uint64_t usage;    /* times entered */
	sim_ns time;       /* time spent, entry to wakeup */
	uint64_t above;    /* idle was shorter than this state's target residency */
	uint64_t below;    /* idle was long enough for a deeper enabled state */
	uint64_t rejected; /* entry refused */
};

/* How an idle period of `measured_ns` in `state` fits the table, as
 * cpuidle_enter_state() counts it in the sysfs above/below attributes. */
enum cpuidle_miss {
	CPUIDLE_FIT,
	CPUIDLE_ABOVE, /* shorter than the state's target residency (a shallower state is enabled) */
	CPUIDLE_BELOW, /* the next enabled deeper state would have fit */
};

/* What cpuidle_record_exit() compares an idle period of one state with
 * (cpuidle_classify()'s rules): shorter than residency_ns is `early`
 * (ABOVE if a shallower state is enabled, else FIT); past exit_ns by
 * next_res_ns or more is BELOW, next_res_ns being the next enabled deeper
 * state's residency (UINT64_MAX if none: never). */
struct cpuidle_fit {
	sim_ns residency_ns, exit_ns;
	uint64_t next_res_ns;
	enum cpuidle_miss early;
};

struct cpuidle_device {
	int cpu;
	const struct cstate *states;
	int nstates;
	bool disabled[MACHINE_MAX_CSTATES];
	struct cpuidle_state_stats stats[MACHINE_MAX_CSTATES];

	/* Filled by the idle loop before select(). */
	sim_ns now;
	sim_ns next_timer_ns;        /* time to the next timer event, tick included */
	sim_ns next_timer_no_tick_ns;/* ... if the tick were stopped */
	sim_ns tick_period_ns;
	bool tick_stopped;           /* the tick was already stopped (legacy idle loop) */
	int nr_iowait;               /* tasks that last ran here and wait on I/O */
	/* The run queue's cpu_load[0] as Linux 3.10 kept it (the load weight
	 * seen at the CPU's last tick, 0 after a nohz idle exit a jiffy or
	 * more later): menu 3.10's get_loadavg() reads it. */
	unsigned long cpu_load;
	sim_ns poll_limit_ns;        /* haltpoll's poll window; 0: cpuidle_poll_time() default */

	/* Filled by the idle loop before reflect(); governors may read them
	 * again at the next select(), as the kernel's lazy updates do. */
	int last_state;
	sim_ns last_residency_ns;    /* measured idle time, exit latency included */
	bool tick_wakeup;            /* the tick ended it (tick_nohz_idle_got_tick()) */
	bool poll_time_limit;        /* a polling state ran out of cpuidle_poll_time() */

	void *gov_data;
	const struct cpuidle_governor *gov; /* the governor gov_data is for */

	/* cpuidle_deepest_allowed()'s last answer and the latency limit it
	 * was for: disabled[] and states[] are set before the first select and
	 * never change, so only a new limit (PM QoS) asks again. A zeroed
	 * device has none (deepest_known false). */
	bool deepest_known;
	int deepest;
	sim_ns deepest_limit_ns;

	/* cpuidle_classify()'s figures per state, found at the first
	 * cpuidle_record_exit() (fit_known false until then; states[] and
	 * disabled[] are fixed by then, as for deepest), so that recording an
	 * exit walks no states. */
	bool fit_known;
	struct cpuidle_fit fit[MACHINE_MAX_CSTATES];
};

/* A governor's select(): a state index; may clear *stop_tick (it starts true). */
typedef int cpuidle_select_fn(struct cpuidle_device *dev, sim_ns latency_limit_ns,
			      bool *stop_tick);

struct cpuidle_governor {
	const char *name;
	const char *summary;
	const struct tunable *tunables;
	int ntunables;
	size_t data_size; /* per-CPU state; starts with its int64_t tunables */
	int (*init)(struct cpuidle_device *dev, struct pm_diag *d);
	/* Returns a state index; may clear *stop_tick (it starts true). */
	int (*select)(struct cpuidle_device *dev, sim_ns latency_limit_ns, bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int state);
	/* Optional: the select() for one device once init() has run, which
	 * the simulator's idle loop calls in its place: a version chosen once
	 * from the device's tunables (menu: today's rules or v3.10's) instead
	 * of a test at every selection. It answers as select() does. */
	cpuidle_select_fn *(*select_for)(const struct cpuidle_device *dev);
	/* As cpufreq_governor.kernel_rules and .since. */
	const char *(*kernel_rules)(int version);
	int since;
	/* select() reads only states, disabled[] and the latency limit, and
	 * leaves *stop_tick alone: the idle loop need not fill the device's
	 * inputs (now, sleep lengths, load, I/O waiters) for it, and asks it
	 * again only under a new latency limit (its answer is a function of
	 * those alone). */
	bool blind;
	/* A plugin's governor: what its adapter calls (plugin/idle_adapter.c);
	 * NULL for the built-in ones. */
	const void *plugin;
};

/* Deepest enabled state whose exit latency fits the limit (state 0 if none);
 * shared by governors as the starting bound of their search. */
int cpuidle_deepest_allowed(struct cpuidle_device *dev, sim_ns latency_limit_ns);
/* The same found again by the walk, without the kept answer (--check). */
int cpuidle_deepest_scan(const struct cpuidle_device *dev, sim_ns latency_limit_ns);

/* gov.h: below this target residency a state is "shallow"; governors skip
 * the (costly, in the kernel) query of the next timer for such states. */
#define CPUIDLE_RESIDENCY_THRESHOLD_NS (15 * NS_PER_US)

static inline bool cpuidle_state_enabled(const struct cpuidle_device *dev, int i)
{
	return !dev->disabled[i];
}

/* Whether a CPU idle in `cs` watches its thread flags, TIF_POLLING_NRFLAG
 * set, so that a remote wakeup only sets TIF_NEED_RESCHED and sends no IPI
 * (send_call_function_single_ipi() and resched_curr() -> set_nr_if_polling(),
 * kernel/sched/core.c): the polling state (poll_idle(), set polling and
 * spin on the flags) and every state entered with MWAIT, whose
 * mwait_idle_with_hints() (arch/x86/include/asm/mwait.h) sets polling and
 * MONITORs the flags' cache line, so the store wakes the core. Since
 * Linux 3.13 (commit ea8117478918, "sched, idle: Fix the idle polling state
 * logic"); before, the idle loop cleared polling before any cpuidle state.
 * HLT, I/O-port (ACPI IOPORT), WFI and POWER stop states need the IPI.
 * Which instruction a state uses is what its driver's desc says ("MWAIT
 * 0x20", "ACPI FFH MWAIT 0x0", "ACPI HLT", "ACPI IOPORT 0x414"). */
bool cpuidle_state_polls_flags(const struct cstate *cs);

/* The kernel's cpuidle_poll_time(): how long a polling state may spin
 * before the idle loop asks the governor again. */
sim_ns cpuidle_poll_time(const struct cpuidle_device *dev);

/* How an idle period of `measured_ns` in `state` fits the table. */
enum cpuidle_miss cpuidle_classify(const struct cpuidle_device *dev, int state, sim_ns measured_ns);

/* cpuidle_enter_state()'s bookkeeping after a wakeup: last_state,
 * last_residency_ns, the state's time and above/below. usage is not
 * touched: the idle loop counts it at entry. Returns the classification. */
enum cpuidle_miss cpuidle_record_exit(struct cpuidle_device *dev, int state, sim_ns measured_ns);
/* Whether the figures cpuidle_record_exit() keeps are the table's now (--check). */
bool cpuidle_fit_consistent(const struct cpuidle_device *dev);

/* How the idle loop treats the tick (--set tick_policy=...). */
enum tick_policy {
	TICK_LEGACY,   /* before 4.17: stop the tick on every idle entry, then ask the governor */
	TICK_GOVERNOR, /* 4.17+: ask the governor first; it decides whether to stop the tick */
	TICK_PERIODIC, /* nohz off: the tick never stops */
};
/* Their names, indexed by enum tick_policy, NULL-terminated (a tunable's words). */
extern const char *const tick_policy_words[];
/* The policy a name gives; -1 if none. */
int tick_policy_parse(const char *name, enum tick_policy *p);

const struct cpuidle_governor *cpuidle_governor_find(const char *name);
int cpuidle_governor_count(void);
const struct cpuidle_governor *cpuidle_governor_at(int i);

#endif
