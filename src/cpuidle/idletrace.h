// SPDX-License-Identifier: GPL-2.0-only
/* Driving one idle governor with a trace of idle periods, without the
 * engine: `pmlab idletrace` and the governor unit tests use it.
 *
 * The trace is CSV (idletrace_csv.c):
 *     next_timer_us,idle_us[,latency_limit_us]
 * one row per idle period of one CPU: the time from idle entry to the next
 * timer event (the tick not counted); how long the CPU stayed idle before
 * its wakeup, as cpuidle measures it (exit latency included; at or beyond
 * next_timer_us the timer woke it); and the PM QoS limit (none if absent).
 *
 * The model of one row (idletrace_sim_step()):
 *   - The trace has no busy time: a clock advances by each row's actual
 *     idle time, and ticks fall on the multiples of 1/HZ from time 0.
 *   - legacy: the tick is stopped before select() (tick_stopped = true, the
 *     governor sees only the timer); governor: select()'s stop_tick says;
 *     periodic: the tick never stops and, as with nohz=off, the governor's
 *     sleep length is the time to the tick or the timer, whichever is first.
 *   - The CPU wakes at min(idle, next timer). A running tick that comes
 *     strictly earlier ends the period there instead (a tick wakeup); a
 *     polling state that would spin longer than cpuidle_poll_time() ends
 *     there (the poll time limit). What the kernel does next -- select again
 *     for the rest of the idle period -- is not simulated: the row ends.
 *   - That actual idle time is the measured residency given to reflect(),
 *     with tick_wakeup and poll_time_limit set as the kernel would.
 */
#ifndef PMLAB_IDLETRACE_H
#define PMLAB_IDLETRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpuidle.h"

struct gov_registry;

struct idletrace_row {
	sim_ns next_timer_ns;
	sim_ns idle_ns;
	sim_ns latency_limit_ns; /* SIM_NS_MAX: no limit */
	int line;                /* in the input, for messages */
};

struct idletrace {
	struct idletrace_row *rows;
	int nrows;
};

/* Parses the whole CSV text (not necessarily NUL-terminated). Errors read
 * "WHERE:LINE: what is wrong (expected ...)". */
int idletrace_parse(struct idletrace *t, const char *text, size_t len, const char *where,
		    struct pm_diag *d);
void idletrace_free(struct idletrace *t);

struct idletrace_config {
	const char *governor;
	enum tick_policy tick_policy;
	int hz;                  /* 100, 250, 300 or 1000 */
	const char *const *sets; /* governor tunables, "KEY=VALUE" */
	int nsets;
	const struct gov_registry *registry; /* plugins' governors; may be NULL */
};

struct idletrace_sim {
	const struct cpuidle_governor *gov;
	enum tick_policy tick_policy;
	struct cstate states[MACHINE_MAX_CSTATES];
	struct cpuidle_device dev; /* CPU 0 */
	sim_ns now;                /* the trace clock */
	sim_ns phase;              /* now modulo the tick period */
};

/* What happened in one row. */
struct idletrace_step {
	int state;
	bool tick_stopped;   /* the tick did not run during the period */
	bool tick_wakeup;    /* the tick ended it */
	bool poll_timeout;   /* the polling state's time limit ended it */
	sim_ns residency_ns; /* actual idle time, given to reflect() */
	enum cpuidle_miss miss;
};

/* Sets CPU 0 of machine m up under the governor and tunables of cfg.
 * Call idletrace_sim_destroy() afterwards, also when it fails. */
int idletrace_sim_init(struct idletrace_sim *s, const struct machine *m,
		       const struct idletrace_config *cfg, struct pm_diag *d);
void idletrace_sim_step(struct idletrace_sim *s, const struct idletrace_row *row,
			struct idletrace_step *out);
void idletrace_sim_destroy(struct idletrace_sim *s);

#endif
