// SPDX-License-Identifier: GPL-2.0-only
/* The per-CPU data of the kernel's idle governors (dev->gov_data), with
 * the kernel's constants, declared here rather than in each governor's
 * file so that the unit tests can check every rule against hand-computed
 * state. Nothing but the governor itself writes this data. */
#ifndef PMLAB_CPUIDLE_GOVERNORS_H
#define PMLAB_CPUIDLE_GOVERNORS_H

#include "cpuidle.h"

/* menu.c */
#define MENU_BUCKETS 6
#define MENU_INTERVALS 8
#define MENU_RESOLUTION 1024u
#define MENU_DECAY 8u
#define MENU_MAX_INTERESTING (50000 * NS_PER_US)

/* The v3.10 rules (menu_v3_10.c): twelve buckets, the upper six for CPUs
 * with tasks waiting on I/O. */
#define MENU_V3_10_BUCKETS 12

enum menu_variant { MENU_CURRENT, MENU_V3_10 };

/* A state today's select() walks, its figures copied from the device's
 * table. */
struct menu_walk_state {
	sim_ns residency_ns, exit_ns;
	int state;
};

/* A state the v3.10 select() may choose, its figures copied from the
 * device's table. */
struct menu_v3_10_walk {
	sim_ns residency_ns, exit_ns;
	uint32_t exit_us; /* exit_ns in whole us, as the kernel's table has it */
	int state;
};

struct menu_data {
	int64_t iowait_mult; /* tunables; must stay first */
	int64_t variant;

	bool needs_update;    /* reflect() ran; learn at the next select() */
	bool tick_wakeup;
	sim_ns next_timer_ns; /* sleep length at the last selection; INT64_MAX if not queried */
	int bucket;
	/* The bucket of the last sleep length queried and the sleep lengths
	 * that share it, [timer_lo_ns, timer_hi_ns] (empty, lo > hi, at
	 * init): menu_which_bucket() is a function of the length alone. */
	int timer_bucket;
	sim_ns timer_lo_ns, timer_hi_ns;
	uint32_t correction_factor[MENU_BUCKETS]; /* MENU_RESOLUTION * MENU_DECAY is 1.0 */
	uint32_t intervals[MENU_INTERVALS];       /* us; UINT32_MAX marks an invalid entry */
	int interval_ptr;
	/* menu_typical_interval()'s last answer, valid while typical_known
	 * (menu_select_current()): with a steady rhythm the interval stored
	 * replaces an equal one and the answer holds. menu_update_intervals()
	 * clears typical_known when it changes a value; whoever else writes
	 * intervals[] must clear it too. */
	uint32_t typical_us;
	bool typical_known;
	/* The first look of the detector from sums kept as intervals come
	 * (menu_typical_kept()): the sum and the sum of squares of the eight
	 * intervals, modulo 2^64 as the kernel's sums, and how many are
	 * invalid (UINT32_MAX). menu_update_intervals() moves them by the
	 * value it replaces; they hold while sums_known, which menu_init()
	 * clears, as does whoever else writes intervals[]
	 * (menu_intervals_written()). */
	uint64_t ivl_sum, ivl_sum_sq;
	int ivl_invalid;
	bool sums_known;
	/* The enabled states in order, with their target residency and exit
	 * latency, and how many lead with an exit latency within walk_limit_ns
	 * (walk_nfit): what menu_select_current() walks. Found at the first
	 * select (walk_n < 0 until then: disabled[] and states[] are fixed
	 * once selecting starts) and counted again under a new latency limit. */
	struct menu_walk_state walk[MACHINE_MAX_CSTATES];
	int walk_n, walk_nfit;
	sim_ns walk_limit_ns;
	/* The walk's last stop: walk_k, the first of those within the limit
	 * whose residency exceeds the prediction (walk_nfit if none), and the
	 * range of predictions [walk_lo_ns, walk_hi_ns) that stop there (the
	 * largest residency before it, its residency); empty (lo > hi) when
	 * the kept states change. */
	int walk_k;
	sim_ns walk_lo_ns, walk_hi_ns;
	/* What select() reads at that stop, kept with it: the state chosen
	 * (the last kept state that fits, else the first enabled state, else
	 * 0), its polling flag and residency, and the next kept state within
	 * the limit (stop_next < 0 if none). */
	int stop_idx, stop_next;
	bool stop_poll;
	sim_ns stop_res_ns;
	/* The early return to state 0 for walk_limit_ns: always (one state,
	 * no latency allowed, or state 1 too slow with state 0 enabled), or
	 * when the timer comes before zero_res_ns (state 1's residency with
	 * state 0 enabled, else INT64_MIN). */
	bool zero_always;
	sim_ns zero_res_ns;

	/* v3.10 only */
	uint32_t v310_factor[MENU_V3_10_BUCKETS];
	uint32_t expected_us; /* time to the next timer at the last selection */
	uint32_t exit_us;     /* exit latency of the state chosen */
	/* The pattern detector's inputs, kept as intervals come and go
	 * (menu_v3_10.c): their sum and sum of squares, modulo 2^64 as the
	 * kernel's, and the values in ascending order, for the largest two.
	 * They hold while v310_kept, which menu_v3_10_init() clears, as does
	 * whoever else writes intervals[] (menu_intervals_written()); they
	 * are then found again at the next select. */
	bool v310_kept;
	uint32_t v310_sorted[MENU_INTERVALS];
	uint64_t v310_sum, v310_sum_sq;
	/* The states select() tries, deepest first, with their target
	 * residency and exit latency: the enabled ones from
	 * CPUIDLE_DRIVER_STATE_START up, and the default when the timer is
	 * more than 5 us away (that first state if enabled, else 0). Found at
	 * the first select (v310_nwalk < 0 until then): the device's states
	 * and disabled[] are fixed from then on. */
	struct menu_v3_10_walk v310_walk[MACHINE_MAX_CSTATES];
	int v310_nwalk;
	int v310_default;
};

/* Bucket of an expected idle duration: one per decade from 10 us to 100 ms. */
int menu_which_bucket(sim_ns duration_ns);
/* The repeating-pattern detector: microseconds, or UINT32_MAX for none. */
uint32_t menu_typical_interval(const struct menu_data *d);
/* round(next_ns * factor / (MENU_RESOLUTION * MENU_DECAY)) in us, saturated
 * at UINT32_MAX: the timer's prediction. */
uint32_t menu_timer_us(sim_ns next_ns, uint32_t factor);
/* The same through the sums kept in d (found again first if they are not
 * known): what today's select() uses when the intervals changed. */
uint32_t menu_typical_kept(struct menu_data *d);
/* Whoever writes intervals[] other than the governor's update calls this:
 * what was kept from them is found again at the next select(). */
static inline void menu_intervals_written(struct menu_data *d)
{
	d->typical_known = false;
	d->sums_known = false;
	d->v310_kept = false;
}
/* The v3.10 governor (menu_v3_10.c). */
void menu_v3_10_init(struct menu_data *d);
int menu_v3_10_select(struct cpuidle_device *dev, struct menu_data *d, sim_ns latency_req);
int menu_v3_10_bucket(uint32_t expected_us, int nr_iowait);
/* v3.10 get_loadavg() of a run queue's cpu_load[0]: 5 for one nice-0 task. */
unsigned menu_v3_10_loadavg(unsigned long cpu_load);
/* v3.10 get_typical_interval(): the mean of the last 8 intervals if they
 * agree, else UINT32_MAX. */
uint32_t menu_v3_10_typical_interval(const struct menu_data *d);
/* The same from the sums and order kept in d (found again first after
 * init or menu_intervals_written()): what the governor's select() uses. */
uint32_t menu_v3_10_typical_kept(struct menu_data *d);

/* teo.c */
#define TEO_PULSE 1024u
#define TEO_DECAY_SHIFT 3

struct teo_bin {
	uint32_t intercepts;
	uint32_t hits;
};

struct teo_data {
	sim_ns sleep_length_ns; /* at the last selection; INT64_MAX if not queried */
	struct teo_bin bins[MACHINE_MAX_CSTATES];
	uint32_t total;           /* all hits and intercepts, decayed */
	uint32_t tick_intercepts; /* intercepts within one tick */
	uint32_t short_idles;     /* wakeups after less than 15 us */
	bool artificial_wakeup;   /* a safety net (poll limit, stray tick) ended it */
	bool pending;             /* a wakeup to learn from (dev->last_state_idx >= 0) */
};

/* ladder.c */
struct ladder_state {
	uint32_t promotion_count, demotion_count;   /* thresholds */
	sim_ns promotion_time_ns, demotion_time_ns; /* thresholds */
	uint32_t promotions, demotions;             /* consecutive votes so far */
};

/* ladder_variant: mainline compares the s64 residency with u64
 * thresholds (an idle shorter than the exit latency wraps: a promotion
 * vote, never a demotion); signed is the unmerged 2022 RFC's comparison. */
enum ladder_variant { LADDER_MAINLINE, LADDER_SIGNED };

struct ladder_data {
	int64_t promotion_count; /* tunables; must stay first */
	int64_t demotion_count;
	int64_t variant;         /* enum ladder_variant */

	int last;  /* the current rung (the kernel's dev->last_state_idx) */
	int first; /* 1 if state 0 polls: ladder never climbs down to it */
	struct ladder_state st[MACHINE_MAX_CSTATES];
};

/* haltpoll.c */
struct haltpoll_data {
	int64_t guest_halt_poll_ns; /* tunables; must stay first */
	int64_t guest_halt_poll_shrink;
	int64_t guest_halt_poll_grow;
	int64_t guest_halt_poll_grow_start;
	int64_t guest_halt_poll_allow_shrink;

	int last_state;
};

#endif
