// SPDX-License-Identifier: GPL-2.0-only
/* menu: the kernel's default idle governor on tickless systems
 * (drivers/cpuidle/governors/menu.c).
 *
 * Follows Linux v6.18.y (stable, as of v6.18.38), which has the same menu
 * as mainline v7.0: six correction-factor buckets, no iowait influence
 * (v6.13), the two-sided outlier filter of the typical-interval detector
 * (v6.15) without the "return max" shortcut (reverted in v6.18), polling
 * preferred over a real state whose exit latency exceeds the prediction
 * or whose target residency is 15 us or more (v6.18/v6.19), and the timer
 * always queried once the tick is stopped (v7.0, in 6.18.y).
 *
 * The prediction is the smaller of
 *   - the time to the next timer scaled by a correction factor: a decaying
 *     average of measured/expected idle per order of magnitude of the
 *     expected idle (bucket), and
 *   - the "typical interval": the mean of the last 8 idle durations once
 *     the farthest outliers are dropped, if their spread is small.
 * The deepest enabled state whose target residency fits the prediction
 * and whose exit latency fits the PM QoS limit is chosen; the tick is
 * kept when the prediction is shorter than a tick or the choice polls.
 *
 * Deliberate deviations: the time to the next timer scaled by the
 * correction factor saturates instead of wrapping in the kernel's 32-bit
 * microsecond arithmetic (the recent intervals do wrap, as the kernel's,
 * see menu_update()), and menu_iowait_mult
 * offers the historical iowait performance multiplier as an opt-in.
 * Kernel types are kept where rounding depends on them (u32 factors and
 * microsecond intervals). */
#include <stddef.h>

#include "governors.h"

#define BUCKETS MENU_BUCKETS
#define INTERVALS MENU_INTERVALS
#define INTERVAL_SHIFT 3
#define RESOLUTION MENU_RESOLUTION
#define DECAY MENU_DECAY
#define MAX_INTERESTING MENU_MAX_INTERESTING
#define KTIME_MAX INT64_MAX
_Static_assert((INTERVALS & (INTERVALS - 1)) == 0, "the interval slot wraps by a mask");

static const char *const menu_variant_words[] = { "current", "3.10", NULL };

static const struct tunable menu_tunables[] = {
	{ .name = "menu_iowait_mult",
	  .help = "v4.19..v6.12 iowait multiplier N (kernels: 10): exit latency <= "
	  "prediction / (1 + N x iowaiters); 0: off, as mainline",
	  .offset = TUNABLE_FIELD(struct menu_data, iowait_mult),
	  .def = 0, .min = 0, .max = 1000 },
	{ .name = "menu_variant",
	  .help = "decision rules: current (v6.18) or 3.10 (menu_v3_10.c: 12 buckets, iowait "
	  "multiplier, C1 default whatever the PM QoS limit)",
	  .offset = TUNABLE_FIELD(struct menu_data, variant),
	  .def = MENU_CURRENT, .min = 0, .max = 1, .words = menu_variant_words },
};

int menu_which_bucket(sim_ns duration_ns)
{
	if (duration_ns < 10 * NS_PER_US)
		return 0;
	if (duration_ns < 100 * NS_PER_US)
		return 1;
	if (duration_ns < 1000 * NS_PER_US)
		return 2;
	if (duration_ns < 10000 * NS_PER_US)
		return 3;
	if (duration_ns < 100000 * NS_PER_US)
		return 4;
	return 5;
}

/* The bucket of a sleep length of duration_ns, which the last one's
 * range (menu_data.timer_lo_ns) answers; found again out of line, with
 * the range of lengths it covers, when the length leaves it. */
__attribute__((noinline)) static void menu_find_timer_bucket(struct menu_data *d,
							    sim_ns duration_ns)
{
	static const sim_ns edge[] = { 10 * NS_PER_US, 100 * NS_PER_US, 1000 * NS_PER_US,
				       10000 * NS_PER_US, 100000 * NS_PER_US };
	int b = menu_which_bucket(duration_ns);
	d->timer_bucket = b;
	d->timer_lo_ns = b > 0 ? edge[b - 1] : INT64_MIN;
	d->timer_hi_ns = b < BUCKETS - 1 ? edge[b] - 1 : INT64_MAX;
}

static int menu_timer_bucket(struct menu_data *d, sim_ns duration_ns)
{
	if (duration_ns < d->timer_lo_ns || duration_ns > d->timer_hi_ns)
		menu_find_timer_bucket(d, duration_ns);
	return d->timer_bucket;
}

/* A value that replaces a different one voids the typical interval kept
 * for them (menu_typical_interval_cached()) and moves the sums kept of
 * them (menu_typical_kept()), modulo 2^64 as the sums themselves; sums
 * not known (sums_known) are found again before they are read, so they
 * are moved without a look at that flag. */
static void menu_update_intervals(struct menu_data *d, uint32_t interval_us)
{
	uint32_t old = d->intervals[d->interval_ptr];
	if (old != interval_us) {
		d->typical_known = false;
		d->ivl_sum += (uint64_t)interval_us - old;
		d->ivl_sum_sq += (uint64_t)interval_us * interval_us - (uint64_t)old * old;
		d->ivl_invalid += (interval_us == UINT32_MAX) - (old == UINT32_MAX);
	}
	d->intervals[d->interval_ptr] = interval_us;
	/* interval_ptr is never negative and INTERVALS a power of two: the
	 * next slot modulo INTERVALS is a mask. */
	d->interval_ptr = (d->interval_ptr + 1) & (INTERVALS - 1);
}

struct interval_sums {
	uint32_t max, min;
	uint64_t sum, sum_sq;
	unsigned n;
};

/* The first look takes every interval but the invalid ones (UINT32_MAX):
 * all eight at once, unfiltered, where none is invalid (the usual case).
 * Out of line: inlined, its eight values stayed live across menu_select()
 * and made it spill registers (callgrind: 110 instructions a call more). */
__attribute__((noinline)) static bool all_intervals(const struct menu_data *d, struct interval_sums *o)
{
	uint32_t max = 0, min = UINT32_MAX;
	uint64_t sum = 0, sum_sq = 0;
	for (int i = 0; i < INTERVALS; i++) {
		uint32_t value = d->intervals[i];
		sum += value;
		sum_sq += (uint64_t)value * value;
		max = value > max ? value : max;
		min = value < min ? value : min;
	}
	*o = (struct interval_sums){ .max = max, .min = min, .sum = sum, .sum_sq = sum_sq,
				     .n = INTERVALS };
	return max != UINT32_MAX;
}

/* The intervals strictly between the two thresholds. */
static void some_intervals(const struct menu_data *d, int64_t min_thresh, int64_t max_thresh,
			   struct interval_sums *o)
{
	*o = (struct interval_sums){ .max = 0, .min = UINT32_MAX, .n = 0 };
	for (int i = 0; i < INTERVALS; i++) {
		int64_t value = d->intervals[i];
		if (value <= min_thresh || value >= max_thresh)
			continue;
		o->n++;
		o->sum += (uint64_t)value;
		o->sum_sq += (uint64_t)value * (uint64_t)value;
		if (value > o->max)
			o->max = (uint32_t)value;
		if (value < o->min)
			o->min = (uint32_t)value;
	}
}

/* get_typical_interval(): the mean of the recent intervals if they agree
 * (stddev <= 20 us, or mean > 6 stddev with at least 6 samples left);
 * while they do not, drop the extreme value farther from the mean (the
 * largest on a tie), and give up once 6 or fewer samples remain:
 * UINT32_MAX. Sums wrap as the kernel's do, which takes intervals of
 * an hour or more, or the wrapped value a polling timeout stores. */
__attribute__((noinline)) uint32_t menu_typical_interval(const struct menu_data *d)
{
	int64_t min_thresh = -1, max_thresh = UINT32_MAX;

	for (bool first = true;; first = false) {
		struct interval_sums t;
		if (!first || !all_intervals(d, &t))
			some_intervals(d, min_thresh, max_thresh, &t);
		uint32_t max = t.max, min = t.min;
		uint64_t avg = t.sum, variance = t.sum_sq;
		unsigned divisor = t.n;
		if (!max)
			return UINT32_MAX;
		if (divisor == INTERVALS) {
			avg >>= INTERVAL_SHIFT;
			variance >>= INTERVAL_SHIFT;
		} else {
			avg /= divisor;
			variance /= divisor;
		}
		uint64_t avg_sq = avg * avg;
		variance -= avg_sq;
		if (variance <= UINT64_MAX / 36 &&
		    ((avg_sq > variance * 36 && divisor * 4 >= INTERVALS * 3) || variance <= 400))
			return (uint32_t)avg;
		if (divisor * 4 <= INTERVALS * 3)
			return UINT32_MAX;
		if (avg - min > max - avg)
			min_thresh = min;
		else
			max_thresh = max;
	}
}

/* The kept sums found from the intervals: at the first select, and after
 * a write to intervals[] other than the update (menu_intervals_written()). */
__attribute__((noinline, cold)) static void menu_find_sums(struct menu_data *d)
{
	d->ivl_sum = d->ivl_sum_sq = 0;
	d->ivl_invalid = 0;
	for (int i = 0; i < INTERVALS; i++) {
		uint64_t v = d->intervals[i];
		d->ivl_sum += v;
		d->ivl_sum_sq += v * v;
		d->ivl_invalid += v == UINT32_MAX;
	}
	d->sums_known = true;
}

/* menu_typical_interval() with its first look, over all eight intervals
 * when none is invalid (the usual case), made from the sums kept in d:
 * the same sums, so the same answer whenever that look accepts the mean;
 * otherwise the detector runs from scratch. With eight valid samples the
 * largest is 0 only if their sum is, and the six-sample bar holds. */
uint32_t menu_typical_kept(struct menu_data *d)
{
	if (!d->sums_known)
		menu_find_sums(d);
	if (d->ivl_invalid == 0) {
		if (!d->ivl_sum)
			return UINT32_MAX;
		uint64_t avg = d->ivl_sum >> INTERVAL_SHIFT;
		uint64_t variance = d->ivl_sum_sq >> INTERVAL_SHIFT;
		uint64_t avg_sq = avg * avg;
		variance -= avg_sq;
		if (variance <= UINT64_MAX / 36 && (avg_sq > variance * 36 || variance <= 400))
			return (uint32_t)avg;
	}
	return menu_typical_interval(d);
}

/* menu_typical_interval() of the intervals now, computed again only after
 * one of them changed (the function of their values alone):
 * menu_update_intervals() clears typical_known when it changes a value. */
static uint32_t menu_typical_interval_cached(struct menu_data *d)
{
	if (d->typical_known)
		return d->typical_us;
	d->typical_us = menu_typical_kept(d);
	d->typical_known = true;
	return d->typical_us;
}

/* round(next_ns * factor / (RESOLUTION * DECAY)) in us, as the kernel's
 * 64-bit expression, split where a product could overflow; saturates
 * where the kernel's u32 result would wrap. Below 2^50 ns (13 days) and
 * with a factor below 2^14 (menu_update() keeps it at most RESOLUTION *
 * DECAY = 2^13) the product and the half divisor fit in 64 bits: the
 * kernel's expression as it stands, one product and one division. */
uint32_t menu_timer_us(sim_ns next_ns, uint32_t factor)
{
	const uint64_t div = (uint64_t)RESOLUTION * DECAY * NS_PER_US;
	uint64_t us;
	if (((uint64_t)next_ns >> 50 | factor >> 14) == 0) {
		us = ((uint64_t)next_ns * factor + div / 2) / div;
	} else {
		uint64_t q = (uint64_t)next_ns / div, r = (uint64_t)next_ns % div;
		us = q * factor + (div / 2 + r * factor) / div;
	}
	return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/* menu_update(): learn from the idle period that just ended. Inline in
 * both versions of select() (menu_select_rules()). */
static inline __attribute__((always_inline)) void menu_update(struct cpuidle_device *dev,
							   struct menu_data *d)
{
	const struct cstate *target = &dev->states[dev->last_state];
	sim_ns measured;

	if (d->tick_wakeup && d->next_timer_ns > dev->tick_period_ns) {
		/* A tick we did not expect (the timer said no event within a
		 * tick): the CPU could have slept long, though not forever. */
		measured = 9 * MAX_INTERESTING / 10;
	} else if (target->poll && dev->poll_time_limit) {
		/* Polling timed out: a better prediction would have slept until
		 * the timer. */
		measured = d->next_timer_ns;
	} else {
		/* The wakeup began one exit latency before the measurement
		 * ended, unless the state was evidently never reached. */
		measured = dev->last_residency_ns;
		if (measured > 2 * target->exit_ns)
			measured -= target->exit_ns;
		else
			measured /= 2;
	}
	if (measured > d->next_timer_ns)
		measured = d->next_timer_ns;

	uint32_t factor = d->correction_factor[d->bucket];
	factor -= factor / DECAY;
	if (d->next_timer_ns > 0 && measured < MAX_INTERESTING)
		factor += (uint32_t)((uint64_t)RESOLUTION * (uint64_t)measured /
				     (uint64_t)d->next_timer_ns);
	else
		factor += RESOLUTION; /* idle that long counts as a perfect prediction */
	d->correction_factor[d->bucket] = factor;

	/* ktime_to_us() into the unsigned int of menu_update_intervals(), as
	 * in the kernel: the value wraps modulo 2^32. It matters after a
	 * polling timeout when the timer was not queried: measured is then
	 * KTIME_MAX ("assume the timer woke it"), stored as 2783138807 us,
	 * which the pattern detector keeps (only UINT_MAX is dropped).
	 * measured is never negative (idle periods are not: the engine's
	 * clock, idletrace_csv.c's parser), so the division is unsigned. */
	menu_update_intervals(d, (uint32_t)((uint64_t)measured / NS_PER_US));
}

static int menu_init(struct cpuidle_device *dev, struct pm_diag *d)
{
	struct menu_data *m = dev->gov_data;
	int64_t mult = m->iowait_mult, variant = m->variant;
	*m = (struct menu_data){ .iowait_mult = mult, .variant = variant };
	for (int i = 0; i < BUCKETS; i++)
		m->correction_factor[i] = RESOLUTION * DECAY;
	m->walk_n = -1; /* menu_keep_walk() at the first select */
	m->timer_lo_ns = 1; /* no bucket kept */
	if (variant == MENU_V3_10) {
		if (mult)
			return pm_fail(d, "menu_iowait_mult: menu_variant=3.10 has its own iowait "
				       "multiplier (10); leave menu_iowait_mult at 0");
		menu_v3_10_init(m);
	}
	return 0;
}

/* Shallower enabled states down from idx until one fits before the tick. */
static int menu_fit_before_tick(const struct cpuidle_device *dev, int idx, sim_ns delta_tick)
{
	for (int i = idx - 1; i >= 0; i--) {
		if (!cpuidle_state_enabled(dev, i))
			continue;
		idx = i;
		if (dev->states[i].residency_ns <= delta_tick)
			break;
	}
	return idx;
}

/* The states the walk of menu_select_current() tries: the enabled ones in
 * order (from the device's states and disabled[], found at the first
 * select: both are fixed from then on), and how many of them lead with an
 * exit latency within latency_req, where the kernel's walk breaks (counted
 * again whenever the limit changes). Out of line: it runs once per limit. */
__attribute__((noinline, cold)) static void menu_keep_walk(const struct cpuidle_device *dev,
							    struct menu_data *d, sim_ns latency_req)
{
	if (d->walk_n < 0) {
		d->walk_n = 0;
		for (int i = 0; i < dev->nstates; i++)
			if (cpuidle_state_enabled(dev, i))
				d->walk[d->walk_n++] = (struct menu_walk_state){
					.residency_ns = dev->states[i].residency_ns,
					.exit_ns = dev->states[i].exit_ns,
					.state = i,
				};
	}
	int k = 0;
	while (k < d->walk_n && d->walk[k].exit_ns <= latency_req)
		k++;
	d->walk_nfit = k;
	d->walk_limit_ns = latency_req;
	d->walk_lo_ns = 1; /* no stop kept */
	d->walk_hi_ns = 0;
	const struct cstate *s = dev->states;
	bool first_on = cpuidle_state_enabled(dev, 0);
	d->zero_always = dev->nstates <= 1 || latency_req == 0 ||
			 (latency_req < s[1].exit_ns && first_on);
	d->zero_res_ns = dev->nstates > 1 && first_on ? s[1].residency_ns : INT64_MIN;
}

/* Where the kernel's walk stops for predicted_ns: the first state kept
 * within the limit whose target residency exceeds it, and the range of
 * predictions that stop there too (every residency before it fits, its
 * own does not); with what select() reads there (menu_data.stop_idx). */
static inline __attribute__((always_inline)) void menu_walk_stop(const struct cpuidle_device *dev,
								struct menu_data *d,
								sim_ns predicted_ns)
{
	const struct menu_walk_state *w = d->walk;
	sim_ns lo = INT64_MIN;
	int k = 0;
	for (; k < d->walk_nfit && w[k].residency_ns <= predicted_ns; k++)
		lo = w[k].residency_ns > lo ? w[k].residency_ns : lo;
	d->walk_k = k;
	d->walk_lo_ns = lo;
	d->walk_hi_ns = k < d->walk_nfit ? w[k].residency_ns : INT64_MAX;
	/* The first enabled state, or 0 with none enabled (then nothing is
	 * kept within the limit either). */
	int idx = k > 0 ? w[k - 1].state : d->walk_n ? w[0].state : 0;
	d->stop_idx = idx;
	d->stop_poll = dev->states[idx].poll;
	d->stop_res_ns = dev->states[idx].residency_ns;
	d->stop_next = k < d->walk_nfit ? k : -1;
}

/* Today's rules, in two versions: with the historical iowait multiplier
 * (iowait: menu_iowait_mult set) and without, where its test folds away.
 * The simulator's idle loop calls the one for the device's tunables
 * directly (menu_select_for()); menu_select() tests them. */
static inline __attribute__((always_inline)) int menu_select_rules(struct cpuidle_device *dev,
								  sim_ns latency_req,
								  bool *stop_tick,
								  const bool iowait)
{
	struct menu_data *d = dev->gov_data;
	const struct cstate *s = dev->states;
	const sim_ns tick = dev->tick_period_ns;
	sim_ns delta_tick;
	int idx;

	if (d->needs_update) {
		menu_update(dev, d);
		d->needs_update = false;
	} else if (!dev->last_residency_ns) {
		/* No measurement (a rejected entry; or, as in the kernel, the
		 * first selection): keep it out of the pattern detector. */
		menu_update_intervals(d, UINT32_MAX);
	}

	sim_ns predicted_ns = (sim_ns)menu_typical_interval_cached(d) * NS_PER_US;
	if (predicted_ns > CPUIDLE_RESIDENCY_THRESHOLD_NS || dev->tick_stopped) {
		sim_ns delta = dev->next_timer_no_tick_ns;
		delta_tick = dev->next_timer_ns;
		if (delta < 0) {
			delta = 0;
			delta_tick = 0;
		}
		d->next_timer_ns = delta;
		d->bucket = menu_timer_bucket(d, delta);
		sim_ns timer_ns = (sim_ns)menu_timer_us(delta, d->correction_factor[d->bucket]) *
				  NS_PER_US;
		if (timer_ns < predicted_ns)
			predicted_ns = timer_ns;
		/* With the tick stopped a short misprediction can strand the CPU
		 * in a shallow state until the timer: trust the timer. */
		if (dev->tick_stopped && predicted_ns < tick)
			predicted_ns = d->next_timer_ns;
	} else {
		/* Short, regular idle: skip the timer query and assume the timer
		 * far away and the tick half a period away. */
		d->next_timer_ns = KTIME_MAX;
		delta_tick = tick / 2;
		d->bucket = menu_which_bucket(KTIME_MAX);
	}

	/* The kept states and the early return's figures are counted per
	 * latency limit (menu_keep_walk()), which empties the kept stop. */
	if (d->walk_n < 0 || latency_req != d->walk_limit_ns)
		menu_keep_walk(dev, d, latency_req);
	/* State 0 if it is the only one, no exit latency is allowed, or
	 * state 0 is enabled and state 1 does not fit the timer or the limit
	 * (d->zero_always, d->zero_res_ns). */
	if (d->zero_always || d->next_timer_ns < d->zero_res_ns) {
		/* State 0 it is; a polling state 0 must keep the tick. */
		*stop_tick = !s[0].poll;
		return 0;
	}

	/* Historical variant, off by default: v4.19..v6.12 lowered the latency
	 * limit for CPUs with tasks waiting on I/O. */
	if (iowait && !dev->tick_stopped && dev->nr_iowait > 0) {
		sim_ns cap = predicted_ns / (1 + d->iowait_mult * dev->nr_iowait);
		if (latency_req > cap)
			latency_req = cap;
		if (latency_req != d->walk_limit_ns)
			menu_keep_walk(dev, d, latency_req);
	}

	/* The kernel's walk over the enabled states from the shallowest, over
	 * those kept (menu_keep_walk()): the ones before the first whose exit
	 * latency exceeds the limit, where the kernel breaks. The deepest whose
	 * target residency fits the prediction (the first enabled state if
	 * none; 0 if none is enabled), and a look at the next one: where the
	 * walk stopped is kept with the range of predictions that stop there
	 * and what is read there (menu_walk_stop()), so a prediction in it
	 * walks nothing (pingpong-su: most selections). */
	if (predicted_ns < d->walk_lo_ns || predicted_ns >= d->walk_hi_ns)
		menu_walk_stop(dev, d, predicted_ns);
	idx = d->stop_idx;
	bool poll = d->stop_poll;
	sim_ns res = d->stop_res_ns;
	if (d->stop_next >= 0) {
		const struct menu_walk_state *next = &d->walk[d->stop_next];
		/* Prefer a cheap real idle state to polling if the timer lets
		 * it pay off and it wakes up in time. */
		if (poll && next->residency_ns < CPUIDLE_RESIDENCY_THRESHOLD_NS &&
		    next->residency_ns <= d->next_timer_ns && next->exit_ns <= predicted_ns) {
			predicted_ns = next->residency_ns;
			idx = next->state;
			poll = s[idx].poll;
			res = s[idx].residency_ns;
		} else if (predicted_ns < tick) {
			/* nothing deeper */
		} else if (!dev->tick_stopped) {
			/* Shallow is fine with the tick running: it will wake us
			 * and the governor runs again. */
			predicted_ns = res;
		} else {
			/* Tick stopped: don't get stuck in a shallow state if
			 * this one fits before the next timer event. */
			if (res < tick && next->residency_ns <= delta_tick)
				idx = next->state;
			return idx;
		}
	}

	if ((poll || predicted_ns < tick) && !dev->tick_stopped) {
		*stop_tick = false;
		/* The tick will come: the state must pay off before it. */
		if (idx > 0 && res > delta_tick)
			idx = menu_fit_before_tick(dev, idx, delta_tick);
	}
	return idx;
}

/* Out of line: behind the variant test in menu_select(), the v3.10 path
 * does not pay their register saves (callgrind: 25 instructions a
 * selection). */
__attribute__((noinline)) static int menu_select_current(struct cpuidle_device *dev,
							  sim_ns latency_req, bool *stop_tick)
{
	return menu_select_rules(dev, latency_req, stop_tick, false);
}

__attribute__((noinline)) static int menu_select_iowait(struct cpuidle_device *dev,
							 sim_ns latency_req, bool *stop_tick)
{
	return menu_select_rules(dev, latency_req, stop_tick, true);
}

static int menu_select(struct cpuidle_device *dev, sim_ns latency_req, bool *stop_tick)
{
	struct menu_data *d = dev->gov_data;
	if (d->variant == MENU_V3_10)
		return menu_v3_10_select(dev, d, latency_req);
	if (d->iowait_mult)
		return menu_select_iowait(dev, latency_req, stop_tick);
	return menu_select_current(dev, latency_req, stop_tick);
}

/* v3.10's rules as the idle loop calls them (menu_select_for()). */
static int menu_select_v3_10(struct cpuidle_device *dev, sim_ns latency_req, bool *stop_tick)
{
	(void)stop_tick;
	return menu_v3_10_select(dev, dev->gov_data, latency_req);
}

/* The simulator's idle loop calls the rules for the device's tunables
 * directly: they are set before init() and fixed from then on. */
static cpuidle_select_fn *menu_select_for(const struct cpuidle_device *dev)
{
	const struct menu_data *d = dev->gov_data;
	if (d->variant == MENU_V3_10)
		return menu_select_v3_10;
	return d->iowait_mult ? menu_select_iowait : menu_select_current;
}

static void menu_reflect(struct cpuidle_device *dev, int state)
{
	struct menu_data *d = dev->gov_data;
	d->needs_update = true;
	d->tick_wakeup = dev->tick_wakeup;
}

/* Kernels between v3.10 and v6.18 get today's rules: their menus are not
 * modelled one by one. */
static const char *menu_kernel_rules(int version)
{
	return version <= 3010 ? "menu_variant=3.10" : NULL;
}

const struct cpuidle_governor cpuidle_menu = {
	.name = "menu",
	.kernel_rules = menu_kernel_rules,
	.summary = "predicts idle from the next timer and recent intervals (kernel default, v6.18)",
	.tunables = menu_tunables,
	.ntunables = (int)(sizeof(menu_tunables) / sizeof(menu_tunables[0])),
	.data_size = sizeof(struct menu_data),
	.init = menu_init,
	.select = menu_select,
	.select_for = menu_select_for,
	.reflect = menu_reflect,
};
