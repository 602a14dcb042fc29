// SPDX-License-Identifier: GPL-2.0-only
/* menu as of Linux v3.10 (menu_variant=3.10): the rules the kernels of
 * 2013-2014 distributions (RHEL 7.0's 3.10.0-123) idled with, kept for
 * reproducing measurements taken on them.
 *
 * What differs from the current menu (menu.c):
 *   - twelve correction-factor buckets: six decades of the expected idle,
 *     doubled by "is a task waiting on I/O on this CPU";
 *   - the repeating-pattern detector replaces the prediction outright when
 *     the last 8 intervals agree (mean above 6 standard deviations with at
 *     least 6 samples, or a deviation of 20 us or less), dropping the
 *     largest sample while more than 6 remain;
 *   - a performance multiplier, 1 + 2 x get_loadavg() + 10 x tasks
 *     waiting on I/O here: a state's exit latency times it must fit the
 *     prediction. get_loadavg() reads this_cpu_load(), the run queue's
 *     cpu_load[0] (the load weight at the CPU's last tick, reset to 0 by
 *     update_cpu_load_nohz() when a stopped tick restarts a jiffy or more
 *     later), as LOAD_INT(x) * 10 + LOAD_FRAC(x) / 10: one nice-0 task
 *     (1024) gives 5, so a CPU whose last tick saw a task multiplies by 11
 *     more. The term was commented out in v3.17 ("this doesn't work as
 *     intended"); 3.10 still had it;
 *   - C1, not polling, is the default whenever the next timer is more than
 *     5 us away, whatever the PM QoS limit says: only deeper states are
 *     checked against it. (A 1 us limit, as tuned's latency-performance
 *     sets, therefore still idles in C1 on v3.10; later kernels poll.)
 *   - the measured idle is corrected by the chosen state's exit latency
 *     only, and the tick is not the governor's business (the idle loop of
 *     the time stopped it before asking).
 * The expected idle is the time to the next timer event as the kernel saw
 * it after stopping the tick. Not modelled: the prediction-failure
 * hrtimer of v3.9, reverted in the v3.10 cycle. */
#include "governors.h"

#define RESOLUTION MENU_RESOLUTION
#define DECAY MENU_DECAY
#define INTERVALS MENU_INTERVALS
#define MAX_INTERESTING_US 50000u
/* CPUIDLE_DRIVER_STATE_START: 1 where state 0 is the polling loop (x86),
 * else 0. */
static int first_real_state(const struct cpuidle_device *dev)
{
	return dev->nstates > 1 && dev->states[0].poll ? 1 : 0;
}

/* v3.10's get_loadavg(): this_cpu_load() in LOAD_INT/LOAD_FRAC form
 * (FSHIFT 11), as a tenth-of-a-task count. */
unsigned menu_v3_10_loadavg(unsigned long cpu_load)
{
	const unsigned long fixed_1 = 1UL << 11;
	unsigned long load_int = cpu_load >> 11;
	unsigned long load_frac = ((cpu_load & (fixed_1 - 1)) * 100) >> 11;
	return (unsigned)(load_int * 10 + load_frac / 10);
}

int menu_v3_10_bucket(uint32_t expected_us, int nr_iowait)
{
	int bucket = nr_iowait ? MENU_V3_10_BUCKETS / 2 : 0;
	uint32_t edge = 10;
	for (int i = 0; i < MENU_V3_10_BUCKETS / 2 - 1; i++, edge *= 10)
		if (expected_us < edge)
			return bucket + i;
	return bucket + MENU_V3_10_BUCKETS / 2 - 1;
}

/* The kernel's two passes (the mean, then the sum of squared deviations)
 * in one: sum (v - avg)^2 = sum v^2 - 2 avg sum v + n avg^2, which holds
 * modulo 2^64 as well, so the u64 sum wraps exactly where the kernel's does.
 * Its tests on stddev = int_sqrt(q) go without the root: int_sqrt(q) <= k
 * exactly when q < (k + 1)^2, so "stddev <= 20" is q < 441 and
 * "avg > 6 stddev" is stddev <= (avg - 1) / 6 (avg, a mean of u32 values,
 * keeps the square in range). */
static bool intervals_agree(uint64_t sum, uint64_t sum_sq, unsigned divisor, uint64_t *avg_out)
{
	uint64_t avg = sum / divisor;
	uint64_t var = sum_sq - 2 * avg * sum + divisor * avg * avg;
	uint64_t q = var / divisor;
	bool agree = q < 21 * 21;
	if (!agree && avg > 0 && divisor * 4 >= INTERVALS * 3) {
		uint64_t k1 = (avg - 1) / 6 + 1;
		agree = q < k1 * k1;
	}
	*avg_out = avg;
	return agree;
}

/* Whether samples from lo to hi, n of them, surely disagree, without the
 * look. Below 2^29 each squared deviation from the mean is below 2^58, so
 * the sum of them, s, is exact in the kernel's u64; it is at least
 * (hi - lo)^2 / 2 (the two ends' alone), so q = s / n is at least
 * (hi - lo)^2 / 2n, while agreement needs q below 441 or below k1^2, and
 * k1 = (avg - 1) / 6 + 1 is at most (hi + 5) / 6: 2n k1^2 is at most
 * n (hi + 5)^2 / 18. Most of the looks of a spread-out history fail here. */
static bool surely_apart(uint64_t lo, uint64_t hi, unsigned n)
{
	if (hi >= 1u << 29)
		return false;
	uint64_t sq = (hi - lo) * (hi - lo);
	return sq >= 2 * n * 21 * 21 && 18 * sq >= n * (hi + 5) * (hi + 5);
}

/* The kernel's looks, from the sums of all the samples and their largest
 * two values with the counts of each: it looks again after dropping the
 * largest value (every sample equal to it) while more than 6 remain, at
 * most twice from 8 samples, and each further look takes one of the two
 * away (exact modulo 2^64 too). Dropping needs a largest value above 0:
 * with none, every sample left is 0 and they agree. With the samples in
 * order (sorted; NULL: not known) a look whose ends are far enough apart
 * is known to fail without its divisions. */
static uint32_t typical_looks(uint64_t sum, uint64_t sum_sq, const uint64_t top[2],
			      const unsigned count[2], const uint32_t *sorted)
{
	uint64_t avg;
	if (!(sorted && surely_apart(sorted[0], top[0], INTERVALS)) &&
	    intervals_agree(sum, sum_sq, INTERVALS, &avg))
		return (uint32_t)avg;
	/* Each look's sums are taken only for the divisions: most looks
	 * of a spread-out history fail without them. */
	unsigned divisor = INTERVALS - count[0];
	uint64_t drop = count[0] * top[0], drop_sq = count[0] * top[0] * top[0];
	if (!(sorted && surely_apart(sorted[0], top[1], divisor)) &&
	    intervals_agree(sum - drop, sum_sq - drop_sq, divisor, &avg))
		return (uint32_t)avg;
	if (divisor * 4 <= INTERVALS * 3)
		return UINT32_MAX;
	divisor -= count[1];
	/* 6 or fewer left: the last look */
	if (sorted && surely_apart(sorted[0], sorted[divisor - 1], divisor))
		return UINT32_MAX;
	drop += count[1] * top[1];
	drop_sq += count[1] * top[1] * top[1];
	if (intervals_agree(sum - drop, sum_sq - drop_sq, divisor, &avg))
		return (uint32_t)avg;
	return UINT32_MAX;
}

/* One scan finds the sums and the largest two values with their counts. */
uint32_t menu_v3_10_typical_interval(const struct menu_data *d)
{
	uint64_t sum = 0, sum_sq = 0, top[2] = { 0, 0 };
	unsigned count[2] = { 0, 0 };
	for (int i = 0; i < INTERVALS; i++) {
		uint64_t v = d->intervals[i];
		sum += v;
		sum_sq += v * v;
		if (v > top[0]) {
			top[1] = top[0];
			count[1] = count[0];
			top[0] = v;
			count[0] = 1;
		} else if (v == top[0]) {
			count[0]++;
		} else if (v > top[1]) {
			top[1] = v;
			count[1] = 1;
		} else if (v == top[1]) {
			count[1]++;
		}
	}
	return typical_looks(sum, sum_sq, top, count, NULL);
}

/* The sums and the order of intervals[] found from scratch: at the start,
 * and after a write to intervals[] other than update()'s
 * (menu_intervals_written() clears v310_kept). */
static void keep_again(struct menu_data *d)
{
	d->v310_sum = 0;
	d->v310_sum_sq = 0;
	for (int i = 0; i < INTERVALS; i++) {
		uint64_t v = d->intervals[i];
		d->v310_sum += v;
		d->v310_sum_sq += v * v;
		int j = i;
		for (; j > 0 && d->v310_sorted[j - 1] > v; j--)
			d->v310_sorted[j] = d->v310_sorted[j - 1];
		d->v310_sorted[j] = (uint32_t)v;
	}
	d->v310_kept = true;
}

/* update() stores `v` in place of the sample `old`: the sums change by
 * the difference (exact modulo 2^64), and the sample's place in the order
 * goes to v, the values between moved by one. */
static void keep_replace(struct menu_data *d, uint32_t old, uint32_t v)
{
	uint32_t *a = d->v310_sorted;
	d->v310_sum += (uint64_t)v - old;
	d->v310_sum_sq += (uint64_t)v * v - (uint64_t)old * old;
	int j = 0;
	while (j < INTERVALS - 1 && a[j] != old)
		j++;
	if (v > old)
		for (; j < INTERVALS - 1 && a[j + 1] < v; j++)
			a[j] = a[j + 1];
	else
		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
	a[j] = v;
}

/* With the samples in order, the largest two and their counts are at the
 * top: no scan of the 8 (most selections see a new interval, so an answer
 * kept for the same intervals would seldom be asked again). */
uint32_t menu_v3_10_typical_kept(struct menu_data *d)
{
	if (!d->v310_kept)
		keep_again(d);
	const uint32_t *a = d->v310_sorted;
	/* Every look at once. With a[5] below a[6], the looks are over
	 * a[0..7], a[0..6] and a[0..5] (a[6] below a[7]) or a[0..7] and
	 * a[0..5] (a[6] equal to a[7]); surely_apart() stays true moving the
	 * top end up (its slope there, sqrt(18) - sqrt(n), is positive) or n
	 * down, so a[0] and a[5] apart for 8 samples fail them all, while
	 * the largest is below 2^29 (above, a look's sums may wrap into
	 * agreement). */
	if (a[INTERVALS - 1] < 1u << 29 && a[INTERVALS - 3] != a[INTERVALS - 2] &&
	    surely_apart(a[0], a[INTERVALS - 3], INTERVALS))
		return UINT32_MAX;
	uint64_t top[2] = { a[INTERVALS - 1], 0 };
	unsigned count[2] = { 1, 0 };
	int i = INTERVALS - 2;
	for (; i >= 0 && a[i] == top[0]; i--)
		count[0]++;
	if (i >= 0) {
		top[1] = a[i];
		count[1] = 1;
		while (--i >= 0 && a[i] == top[1])
			count[1]++;
	}
	return typical_looks(d->v310_sum, d->v310_sum_sq, top, count, a);
}

void menu_v3_10_init(struct menu_data *d)
{
	for (int i = 0; i < MENU_V3_10_BUCKETS; i++)
		d->v310_factor[i] = 0; /* 0: start from a unity factor when first used */
	d->v310_kept = false; /* keep_again() at the first select */
	d->v310_nwalk = -1;
}

/* The states the walk tries and the default, from the device's states
 * and disabled[] (fixed once selecting starts). */
static void walk_states(const struct cpuidle_device *dev, struct menu_data *d)
{
	int first = first_real_state(dev);
	d->v310_default = cpuidle_state_enabled(dev, first) ? first : 0;
	d->v310_nwalk = 0;
	for (int i = dev->nstates - 1; i >= first; i--)
		if (cpuidle_state_enabled(dev, i))
			d->v310_walk[d->v310_nwalk++] = (struct menu_v3_10_walk){
				.residency_ns = dev->states[i].residency_ns,
				.exit_ns = dev->states[i].exit_ns,
				.exit_us = (uint32_t)(dev->states[i].exit_ns / NS_PER_US),
				.state = i,
			};
}

static uint32_t to_us(sim_ns ns)
{
	if (ns <= 0)
		return 0;
	/* positive: the unsigned division, without the sign's correction */
	uint64_t us = (uint64_t)ns / NS_PER_US;
	return us >= UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/* menu_update(): learn from the idle period that just ended. */
static void update(const struct cpuidle_device *dev, struct menu_data *d)
{
	uint32_t last_us = to_us(dev->last_residency_ns);
	uint32_t measured = last_us;
	if (measured > d->exit_us)
		measured -= d->exit_us;
	uint64_t factor = (uint64_t)d->v310_factor[d->bucket] * (DECAY - 1) / DECAY;
	if (d->expected_us > 0 && measured < MAX_INTERESTING_US)
		factor += (uint64_t)RESOLUTION * measured / d->expected_us;
	else
		factor += RESOLUTION; /* idle that long counts as a perfect prediction */
	if (factor == 0)
		factor = 1;
	d->v310_factor[d->bucket] = factor > UINT32_MAX ? UINT32_MAX : (uint32_t)factor;
	uint32_t old = d->intervals[d->interval_ptr];
	d->intervals[d->interval_ptr] = last_us;
	if (d->v310_kept)
		keep_replace(d, old, last_us);
	d->interval_ptr = (int)((unsigned)(d->interval_ptr + 1) % INTERVALS);
}

/* Out of line: inlined into menu_select(), whose path for today's rules it
 * shares no code with, it made both spill registers (callgrind). */
__attribute__((noinline)) int menu_v3_10_select(struct cpuidle_device *dev, struct menu_data *d,
						sim_ns latency_req)
{
	if (d->needs_update) {
		update(dev, d);
		d->needs_update = false;
	}
	d->exit_us = 0;
	if (latency_req == 0)
		return 0;

	sim_ns sleep = dev->tick_stopped ? dev->next_timer_no_tick_ns : dev->next_timer_ns;
	d->expected_us = to_us(sleep);
	d->bucket = menu_v3_10_bucket(d->expected_us, dev->nr_iowait);
	uint64_t multiplier = 1 + 2 * (uint64_t)menu_v3_10_loadavg(dev->cpu_load) +
			      10 * (uint64_t)dev->nr_iowait;
	if (d->v310_factor[d->bucket] == 0)
		d->v310_factor[d->bucket] = RESOLUTION * DECAY;
	/* div_round64(): rounded to the nearest microsecond */
	const uint64_t div = (uint64_t)RESOLUTION * DECAY;
	uint64_t predicted = ((uint64_t)d->expected_us * d->v310_factor[d->bucket] + div / 2) / div;
	uint32_t typical = menu_v3_10_typical_kept(d);
	if (typical != UINT32_MAX)
		predicted = typical;

	if (d->v310_nwalk < 0)
		walk_states(dev, d);
	int idx = d->expected_us > 5 ? d->v310_default : 0;
	/* The kernel's residency test in whole microseconds, residency_us >
	 * predicted, is residency_ns >= (predicted + 1) us for the
	 * non-negative residencies a machine has: no division per state.
	 * predicted stays below 2^52 (a u32 times a u32 factor over 2^13), so
	 * the bound cannot overflow. */
	const sim_ns too_long_ns = (sim_ns)(predicted + 1) * NS_PER_US;
	/* Its two tests on the exit latency, exit_ns <= latency_req and
	 * exit_us * multiplier <= predicted, as one bound in ns: the second
	 * is exit_us <= predicted / multiplier (multiplier >= 1), that is
	 * exit_ns < (predicted / multiplier + 1) us for the non-negative
	 * latencies machine.c admits (below 2^62: no overflow either). */
	sim_ns exit_max_ns = (sim_ns)(predicted / multiplier + 1) * NS_PER_US - 1;
	if (latency_req < exit_max_ns)
		exit_max_ns = latency_req;
	/* Deeper states draw less power: the kernel walks the table from the
	 * shallowest and keeps the last state that passes, the one found
	 * first walking from the deepest (which stops there); the disabled
	 * ones are left out of the list walked (walk_states()). */
	for (int k = 0; k < d->v310_nwalk; k++) {
		const struct menu_v3_10_walk *w = &d->v310_walk[k];
		if (w->residency_ns >= too_long_ns || w->exit_ns > exit_max_ns)
			continue;
		d->exit_us = w->exit_us;
		return w->state;
	}
	return idx;
}
