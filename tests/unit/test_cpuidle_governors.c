// SPDX-License-Identifier: GPL-2.0-only
/* The idle governors (menu, teo, ladder, haltpoll), the cpuidle core
 * helpers and the idle-trace harness. Expected values are worked out by
 * hand in the comments from the kernel's rules; the governors' private
 * state is read through cpuidle/governors.h.
 *
 * Unless said otherwise the C-state table is a Haswell core behind the
 * cpuidle POLL state (exit latency / target residency):
 *     0 POLL 0/0 (polling)   1 C1 2/2 us   2 C1E 10/20 us   3 C6 133/400 us
 * and the tick runs at 250 Hz (4 ms). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cpuidle/cpuidle.h"
#include "cpuidle/governors.h"
#include "cpuidle/idletrace.h"

#define US NS_PER_US
#define MS NS_PER_MS
#define NONE SIM_NS_MAX
#define TICK_250 (4 * MS)

enum { POLL, C1, C1E, C6 };

static void add_state(struct machine *m, const char *name, sim_ns exit, sim_ns residency, int poll)
{
	struct cstate *c = &m->cstates[m->ncstates++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->exit_ns = exit;
	c->residency_ns = residency;
	c->poll = poll;
}

/* Only the C-state table of a machine matters to the harness. */
static struct machine hsw(void)
{
	struct machine m;
	memset(&m, 0, sizeof(m));
	add_state(&m, "POLL", 0, 0, 1);
	add_state(&m, "C1", 2 * US, 2 * US, 0);
	add_state(&m, "C1E", 10 * US, 20 * US, 0);
	add_state(&m, "C6", 133 * US, 400 * US, 0);
	return m;
}

static void start_with(struct idletrace_sim *s, const struct machine *m, const char *gov,
		       enum tick_policy p, int hz, const char *const *sets, int nsets)
{
	struct idletrace_config cfg = { .governor = gov, .tick_policy = p, .hz = hz,
					.sets = sets, .nsets = nsets };
	struct pm_diag d = { { 0 } };
	if (idletrace_sim_init(s, m, &cfg, &d) < 0)
		fail_msg("idletrace_sim_init(%s): %s", gov, d.msg);
}

static void start(struct idletrace_sim *s, const char *gov, enum tick_policy p)
{
	struct machine m = hsw();
	start_with(s, &m, gov, p, 250, NULL, 0);
}

static struct idletrace_step step(struct idletrace_sim *s, sim_ns timer, sim_ns idle, sim_ns lat)
{
	struct idletrace_row row = { .next_timer_ns = timer, .idle_ns = idle,
				     .latency_limit_ns = lat, .line = 0 };
	struct idletrace_step out;
	idletrace_sim_step(s, &row, &out);
	return out;
}

/* Calls select() directly with the device's timer fields set by hand. */
static int select_direct(struct idletrace_sim *s, sim_ns next_timer, sim_ns no_tick, sim_ns lat,
			 bool *stop_tick)
{
	s->dev.next_timer_ns = next_timer;
	s->dev.next_timer_no_tick_ns = no_tick;
	*stop_tick = true;
	return s->gov->select(&s->dev, lat, stop_tick);
}

/* ---- cpuidle core ---- */

static void test_poll_time(void **state)
{
	struct idletrace_sim s;
	start(&s, "deepest", TICK_GOVERNOR);
	/* The first enabled state from 1 with residency >= 10 us is C1E (C1
	 * is 2 us), capped at TICK_NSEC / 16 = 250 us. */
	assert_int_equal(cpuidle_poll_time(&s.dev), 20 * US);
	s.dev.disabled[C1E] = true; /* then C6: 400 us, capped */
	assert_int_equal(cpuidle_poll_time(&s.dev), 250 * US);
	s.dev.disabled[C6] = true; /* nothing qualifies: the cap */
	assert_int_equal(cpuidle_poll_time(&s.dev), 250 * US);
	s.dev.tick_period_ns = 1 * MS; /* HZ=1000: cap 62.5 us */
	assert_int_equal(cpuidle_poll_time(&s.dev), 62500);
	s.dev.disabled[C6] = false;
	assert_int_equal(cpuidle_poll_time(&s.dev), 62500);
	s.dev.poll_limit_ns = 70 * US; /* haltpoll's window wins */
	assert_int_equal(cpuidle_poll_time(&s.dev), 70 * US);
	idletrace_sim_destroy(&s);
}

/* deepest: the deepest enabled state within the latency limit, kept in
 * the device per limit (cpuidle_deepest_allowed()): a new limit asks
 * again. C6 exits in 133 us, C1E in 10 us, C1 in 2 us. */
static void test_deepest_per_limit(void **state)
{
	struct idletrace_sim s;
	start(&s, "deepest", TICK_GOVERNOR);
	bool stop;
	assert_int_equal(select_direct(&s, NONE, NONE, NONE, &stop), C6);
	assert_int_equal(select_direct(&s, NONE, NONE, 133 * US, &stop), C6);
	assert_int_equal(select_direct(&s, NONE, NONE, 132 * US, &stop), C1E);
	assert_int_equal(select_direct(&s, NONE, NONE, 132 * US, &stop), C1E);
	assert_int_equal(select_direct(&s, NONE, NONE, 9 * US, &stop), C1);
	assert_int_equal(select_direct(&s, NONE, NONE, 1 * US, &stop), POLL);
	assert_int_equal(select_direct(&s, NONE, NONE, NONE, &stop), C6);
	idletrace_sim_destroy(&s);
}

/* deepest is blind (cpuidle_governor.blind): cpu_enter_idle() leaves the
 * device's inputs as they were, so whatever they hold, the answer is the
 * same and the tick is left to the idle loop. */
static void test_deepest_blind(void **state)
{
	struct idletrace_sim s;
	start(&s, "deepest", TICK_GOVERNOR);
	assert_true(s.gov->blind);
	bool stop;
	for (int i = 0; i < 3; i++) {
		s.dev.now = i ? -1 : 0;
		s.dev.tick_period_ns = i * MS;
		s.dev.nr_iowait = i * 100;
		s.dev.cpu_load = i ? ~0UL : 0;
		s.dev.tick_stopped = i == 1;
		sim_ns t = i == 0 ? 0 : i == 1 ? 1 : NONE;
		assert_int_equal(select_direct(&s, t, t, NONE, &stop), C6);
		assert_true(stop);
		assert_int_equal(select_direct(&s, t, t, 132 * US, &stop), C1E);
		assert_true(stop);
	}
	idletrace_sim_destroy(&s);
}

static void test_classify(void **state)
{
	struct idletrace_sim s;
	start(&s, "deepest", TICK_GOVERNOR);
	struct cpuidle_device *dev = &s.dev;
	assert_int_equal(cpuidle_classify(dev, C6, 399 * US), CPUIDLE_ABOVE);
	assert_int_equal(cpuidle_classify(dev, C6, 400 * US), CPUIDLE_FIT);
	assert_int_equal(cpuidle_classify(dev, POLL, 0), CPUIDLE_FIT);
	/* Below: measured minus C1's exit latency (2 us) against C1E's 20 us. */
	assert_int_equal(cpuidle_classify(dev, C1, 21 * US), CPUIDLE_FIT);
	assert_int_equal(cpuidle_classify(dev, C1, 22 * US), CPUIDLE_BELOW);
	/* POLL: 20 us fits C1E's residency, but C1 is the next enabled state
	 * and decides: 20 - 0 >= 2. */
	assert_int_equal(cpuidle_classify(dev, POLL, 20 * US), CPUIDLE_BELOW);
	/* The next *enabled* deeper state decides. */
	dev->disabled[C1E] = true;
	assert_int_equal(cpuidle_classify(dev, C1, 401 * US), CPUIDLE_FIT);
	assert_int_equal(cpuidle_classify(dev, C1, 402 * US), CPUIDLE_BELOW);
	/* Above only counts when a shallower state was enabled. */
	assert_int_equal(cpuidle_classify(dev, C1, 1 * US), CPUIDLE_ABOVE);
	dev->disabled[POLL] = true;
	assert_int_equal(cpuidle_classify(dev, C1, 1 * US), CPUIDLE_FIT);

	/* Bookkeeping: time always, one of above/below, never usage. */
	assert_int_equal(cpuidle_record_exit(dev, C6, 100 * US), CPUIDLE_ABOVE);
	assert_int_equal(cpuidle_record_exit(dev, C6, 500 * US), CPUIDLE_FIT);
	assert_int_equal(dev->stats[C6].time, 600 * US);
	assert_int_equal(dev->stats[C6].above, 1);
	assert_int_equal(dev->stats[C6].below, 0);
	assert_int_equal(dev->stats[C6].usage, 0);
	assert_int_equal(dev->last_state, C6);
	assert_int_equal(dev->last_residency_ns, 500 * US);
	idletrace_sim_destroy(&s);
}

/* cpuidle_record_exit() classifies from figures kept per state at its
 * first call: the same answer as cpuidle_classify()'s walk, and the same
 * counts, for tables with states enabled and disabled at random and
 * idle periods at and beside every threshold (and the longest). */
static void test_record_exit_kept(void **state)
{
	uint64_t x = 0x5851f42d4c957f2du;
	for (int table = 0; table < 400; table++) {
		struct cstate st[6];
		struct cpuidle_device dev;
		memset(st, 0, sizeof(st));
		memset(&dev, 0, sizeof(dev));
		dev.states = st;
		dev.nstates = 1 + table % 6;
		sim_ns exit = 0, res = 0;
		for (int i = 0; i < dev.nstates; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			exit += (sim_ns)(x % 4) * 7 * US;	  /* ties too */
			res = exit + (sim_ns)((x >> 8) % 3) * 10 * US + (res > exit ? res - exit : 0);
			st[i].exit_ns = exit;
			st[i].residency_ns = res;
			st[i].poll = i == 0 && (x >> 20) % 2;
			dev.disabled[i] = (x >> 24) % 3 == 0;
		}
		struct cpuidle_state_stats want[6];
		memset(want, 0, sizeof(want));
		for (int i = 0; i < dev.nstates; i++) {
			sim_ns probe[] = { 0, 1, st[i].exit_ns, st[i].exit_ns + 1, st[i].residency_ns - 1,
					   st[i].residency_ns, st[i].residency_ns + 1, 0, 0, 0 };
			if (i + 1 < dev.nstates) { /* past the exit by the next residency, or nearly */
				probe[7] = st[i].exit_ns + st[i + 1].residency_ns - 1;
				probe[8] = st[i].exit_ns + st[i + 1].residency_ns;
			}
			if (i + 2 < dev.nstates)
				probe[9] = st[i].exit_ns + st[i + 2].residency_ns;
			for (size_t p = 0; p < sizeof(probe) / sizeof(probe[0]); p++) {
				if (probe[p] < 0)
					continue;
				enum cpuidle_miss m = cpuidle_classify(&dev, i, probe[p]);
				want[i].time += probe[p];
				want[i].above += m == CPUIDLE_ABOVE;
				want[i].below += m == CPUIDLE_BELOW;
				assert_int_equal(cpuidle_record_exit(&dev, i, probe[p]), m);
				assert_int_equal(dev.last_state, i);
				assert_int_equal(dev.last_residency_ns, probe[p]);
			}
			assert_int_equal(dev.stats[i].above, want[i].above);
			assert_int_equal(dev.stats[i].below, want[i].below);
			assert_int_equal(dev.stats[i].time, want[i].time);
			assert_int_equal(dev.stats[i].usage, 0);
		}
		/* The longest period: past every exit, no deeper state fits it
		 * when there is none (time counted from 0 here). */
		for (int i = 0; i < dev.nstates; i++) {
			dev.stats[i].time = 0;
			assert_int_equal(cpuidle_record_exit(&dev, i, INT64_MAX),
					 cpuidle_classify(&dev, i, INT64_MAX));
		}
		assert_true(cpuidle_fit_consistent(&dev));
		/* A table changed behind the kept figures is seen (--check). */
		dev.disabled[0] = !dev.disabled[0];
		if (dev.nstates > 1)
			assert_false(cpuidle_fit_consistent(&dev));
	}
}

/* ---- menu ---- */

static void test_menu_buckets(void **state)
{
	const sim_ns edge[] = { 10 * US, 100 * US, 1 * MS, 10 * MS, 100 * MS };
	assert_int_equal(menu_which_bucket(0), 0);
	for (int b = 0; b < 5; b++) {
		assert_int_equal(menu_which_bucket(edge[b] - 1), b);
		assert_int_equal(menu_which_bucket(edge[b]), b + 1);
	}
	assert_int_equal(menu_which_bucket(INT64_MAX), 5);
}

static void test_menu_correction_factor(void **state)
{
	struct idletrace_sim s;
	start(&s, "menu", TICK_LEGACY);
	struct menu_data *d = s.dev.gov_data;
	for (int b = 0; b < MENU_BUCKETS; b++)
		assert_int_equal(d->correction_factor[b], 8192); /* 1.0 */

	/* Row 0: the first select has no measurement and records an invalid
	 * interval. Timer 1 ms (bucket 3): predicted 1 ms, C6 fits. */
	struct idletrace_step st = step(&s, 1 * MS, 500 * US, NONE);
	assert_int_equal(st.state, C6);
	assert_int_equal(d->intervals[0], UINT32_MAX);
	assert_int_equal(d->interval_ptr, 1);
	/* Row 1 learns from row 0: 500 us in C6 minus its 133 us exit latency
	 * = 367 us of 1 ms expected: factor 8192 - 8192/8 + 1024*367/1000
	 * = 7168 + 375 = 7543. */
	step(&s, 1 * MS, 500 * US, NONE);
	assert_int_equal(d->correction_factor[3], 7543);
	assert_int_equal(d->intervals[1], 367);
	assert_int_equal(d->interval_ptr, 2);
	for (int b = 0; b < MENU_BUCKETS; b++)
		if (b != 3)
			assert_int_equal(d->correction_factor[b], 8192);
	idletrace_sim_destroy(&s);
}

/* One lazy update at select(): the governor's memory of the last
 * selection and the device's record of the last idle period set by hand. */
struct menu_case {
	sim_ns next_timer, residency;
	int bucket, last_state;
	bool tick_wakeup, poll_limit;
	uint32_t factor_before, factor_after, interval_us;
};

static void check_menu_update(const struct menu_case *c)
{
	struct idletrace_sim s;
	bool stop;
	start(&s, "menu", TICK_GOVERNOR);
	struct menu_data *d = s.dev.gov_data;
	d->needs_update = true;
	d->tick_wakeup = c->tick_wakeup;
	d->next_timer_ns = c->next_timer;
	d->bucket = c->bucket;
	d->correction_factor[c->bucket] = c->factor_before;
	s.dev.last_state = c->last_state;
	s.dev.last_residency_ns = c->residency;
	s.dev.poll_time_limit = c->poll_limit;
	select_direct(&s, TICK_250, 100 * MS, NONE, &stop);
	assert_int_equal(d->correction_factor[c->bucket], c->factor_after);
	assert_int_equal(d->intervals[0], c->interval_us);
	assert_int_equal(d->interval_ptr, 1);
	idletrace_sim_destroy(&s);
}

static void test_menu_update_rules(void **state)
{
	const struct menu_case cases[] = {
		/* 200 us in C6 is under twice its exit latency: assume half of
		 * it, 100 us of 10 ms: 7168 + 1024*100/10000 = 7168 + 10. */
		{ 10 * MS, 200 * US, 4, C6, false, false, 8192, 7178, 100 },
		/* 300 us is over twice C6's 133 us: the wake began one exit
		 * latency before the end, 167 us: 7168 + 1024*167/10000 = 7168 + 17. */
		{ 10 * MS, 300 * US, 4, C6, false, false, 8192, 7185, 167 },
		/* A tick although the timer was 100 ms away: pretend 45 ms:
		 * 7168 + 1024*45/100 = 7168 + 460. */
		{ 100 * MS, 1 * MS, 5, C1E, true, false, 8192, 7628, 45000 },
		/* A tick with the timer within a tick is taken as measured:
		 * 1 ms - 10 us = 990 us of 4 ms: 7168 + 253. */
		{ TICK_250, 1 * MS, 3, C1E, true, false, 8192, 7421, 990 },
		/* Polling timed out: assume the timer would have woken it:
		 * measured = next timer, ratio 1: 7168 + 1024. */
		{ 2 * MS, 20 * US, 3, POLL, false, true, 8192, 8192, 2000 },
		/* Polling timed out after a selection that did not query the
		 * timer (next_timer_ns KTIME_MAX, the last bucket): measured is
		 * KTIME_MAX, a perfect prediction, and the interval stored is
		 * the kernel's ktime_to_us(KTIME_MAX) in an unsigned int:
		 * 9223372036854775 mod 2^32 = 2783138807 us, not UINT_MAX. */
		{ INT64_MAX, 20 * US, 5, POLL, false, true, 8192, 8192, 2783138807u },
		/* Never more than the timer: 5 ms - 133 us capped at 1 ms. */
		{ 1 * MS, 5 * MS, 3, C6, false, false, 8192, 8192, 1000 },
		/* 50 ms or more counts as a perfect prediction:
		 * 4096 - 512 + 1024. */
		{ 200 * MS, 60 * MS, 5, C6, false, false, 4096, 4608, 59867 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_menu_update(&cases[i]);
}

static uint32_t typical(const uint32_t v[MENU_INTERVALS])
{
	struct menu_data d;
	memset(&d, 0, sizeof(d));
	memcpy(d.intervals, v, sizeof(d.intervals));
	return menu_typical_interval(&d);
}

static void test_menu_typical_interval(void **state)
{
	/* Identical: variance 0. */
	assert_int_equal(typical((uint32_t[]){ 100, 100, 100, 100, 100, 100, 100, 100 }), 100);
	/* The boundary: a standard deviation of exactly 20 us (variance 400)
	 * is a pattern; 21 us (79/121: variance 441) is not, and the tie drops
	 * every 121, leaving the 79s. */
	assert_int_equal(typical((uint32_t[]){ 80, 120, 80, 120, 80, 120, 80, 120 }), 100);
	assert_int_equal(typical((uint32_t[]){ 79, 121, 79, 121, 79, 121, 79, 121 }), 79);
	/* Small spread: mean 840/8 = 105, variance 88400/8 - 105^2 = 25 <= 400. */
	assert_int_equal(typical((uint32_t[]){ 100, 110, 100, 110, 100, 110, 100, 110 }), 105);
	/* Larger spread but mean > 6 stddev: 1050, variance 2500, 1050^2 >
	 * 36 * 2500. */
	assert_int_equal(typical((uint32_t[]){ 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100 }),
			 1050);
	/* A high outlier: mean 1700/8 = 212, variance 1070000/8 - 212^2 =
	 * 88806: no pattern; 1000 is farther from the mean than 100: drop it,
	 * the seven 100s remain. */
	assert_int_equal(typical((uint32_t[]){ 100, 100, 100, 100, 100, 100, 100, 1000 }), 100);
	/* A low outlier (two-sided filter, v6.15+): mean 7010/8 = 876,
	 * 876 - 10 > 1000 - 876, so 10 is dropped, not 1000. */
	assert_int_equal(typical((uint32_t[]){ 1000, 1000, 10, 1000, 1000, 1000, 1000, 1000 }),
			 1000);
	/* No pattern: 100..800 loses 800 then 700 (ties drop the top), then
	 * with 6 samples left the variance 29166 is still too large. */
	assert_int_equal(typical((uint32_t[]){ 100, 200, 300, 400, 500, 600, 700, 800 }),
			 UINT32_MAX);
	/* Invalid entries never count; nothing but zeros is no pattern. */
	assert_int_equal(typical((uint32_t[]){ UINT32_MAX, 50, 50, 50, 50, 50, 50, 50 }), 50);
	assert_int_equal(typical((uint32_t[]){ 0, 0, 0, 0, 0, 0, 0, 0 }), UINT32_MAX);
}

/* ---- menu, v3.10 rules (menu_variant=3.10) ---- */

static void start_v3_10(struct idletrace_sim *s)
{
	static const char *const sets[] = { "menu_variant=3.10" };
	struct machine m = hsw();
	start_with(s, &m, "menu", TICK_LEGACY, 250, sets, 1);
}

static void test_menu_v3_10_buckets(void **state)
{
	/* Six decades of the expected idle in us, the upper six with I/O waiters. */
	assert_int_equal(menu_v3_10_bucket(9, 0), 0);
	assert_int_equal(menu_v3_10_bucket(10, 0), 1);
	assert_int_equal(menu_v3_10_bucket(99, 0), 1);
	assert_int_equal(menu_v3_10_bucket(100, 0), 2);
	assert_int_equal(menu_v3_10_bucket(9999, 0), 3);
	assert_int_equal(menu_v3_10_bucket(10000, 0), 4);
	assert_int_equal(menu_v3_10_bucket(100000, 0), 5);
	assert_int_equal(menu_v3_10_bucket(UINT32_MAX, 0), 5);
	assert_int_equal(menu_v3_10_bucket(5, 1), 6);
	assert_int_equal(menu_v3_10_bucket(1000, 3), 9);
}

static void test_menu_v3_10_loadavg(void **state)
{
	/* LOAD_INT(x) * 10 + LOAD_FRAC(x) / 10 with FSHIFT 11 (v3.10). */
	assert_int_equal(menu_v3_10_loadavg(0), 0);
	assert_int_equal(menu_v3_10_loadavg(1024), 5);
	assert_int_equal(menu_v3_10_loadavg(2048), 10);
	assert_int_equal(menu_v3_10_loadavg(3072), 15);
	/* 335 (nice 5): LOAD_FRAC 16, a tenth of it 1. */
	assert_int_equal(menu_v3_10_loadavg(335), 1);
	assert_int_equal(menu_v3_10_loadavg(20480), 100);
}

static uint32_t typical_v3_10(const uint32_t v[MENU_INTERVALS])
{
	struct menu_data d;
	memset(&d, 0, sizeof(d));
	memcpy(d.intervals, v, sizeof(d.intervals));
	return menu_v3_10_typical_interval(&d);
}

static void test_menu_v3_10_typical_interval(void **state)
{
	assert_int_equal(typical_v3_10((uint32_t[]){ 100, 100, 100, 100, 100, 100, 100, 100 }), 100);
	/* Mean 212, stddev isqrt(88806) = 298: no pattern; 8 samples, so the
	 * largest goes and the seven 100s agree. */
	assert_int_equal(typical_v3_10((uint32_t[]){ 100, 100, 100, 100, 100, 100, 100, 1000 }), 100);
	/* Only the largest is ever dropped (v3.10 has no low-outlier filter):
	 * 1000 x 7 and 10: mean 876, stddev isqrt(107198) = 327, no pattern;
	 * dropping every 1000 at once (all equal the maximum) leaves the lone
	 * 10, whose deviation 0 <= 20 passes without a sample count: 10. */
	assert_int_equal(typical_v3_10((uint32_t[]){ 1000, 1000, 10, 1000, 1000, 1000, 1000, 1000 }),
			 10);
	/* 100..800: drop 800 (stddev 229), 700 (200); six left, stddev
	 * isqrt(29166) = 170, mean 350 < 1020 and no more dropping. */
	assert_int_equal(typical_v3_10((uint32_t[]){ 100, 200, 300, 400, 500, 600, 700, 800 }),
			 UINT32_MAX);
	/* Fresh (all zero) history is a pattern of 0 us, as in the kernel. */
	assert_int_equal(typical_v3_10((uint32_t[]){ 0, 0, 0, 0, 0, 0, 0, 0 }), 0);
	/* Hour-long intervals: the squared deviations wrap in u64 as the
	 * kernel's do (no pattern), then the four maxima go and the zeros
	 * agree. */
	assert_int_equal(typical_v3_10((uint32_t[]){ UINT32_MAX, 0, UINT32_MAX, 0, UINT32_MAX, 0,
						     UINT32_MAX, 0 }), 0);
}

/* v3.10's get_typical_interval() as the kernel loops: a pass per look,
 * each leaving out every sample above the threshold (the last maximum,
 * minus one). */
static uint32_t typical_v3_10_passes(const uint32_t v[MENU_INTERVALS])
{
	uint64_t thresh = UINT64_MAX;
	for (;;) {
		uint64_t max = 0, sum = 0, sum_sq = 0;
		unsigned divisor = 0;
		for (int i = 0; i < MENU_INTERVALS; i++) {
			if (v[i] > thresh)
				continue;
			sum += v[i];
			sum_sq += (uint64_t)v[i] * v[i];
			divisor++;
			if (v[i] > max)
				max = v[i];
		}
		if (!divisor)
			return UINT32_MAX;
		uint64_t avg = sum / divisor;
		uint64_t q = (sum_sq - 2 * avg * sum + divisor * avg * avg) / divisor;
		bool agree = q < 21 * 21;
		if (!agree && avg > 0 && divisor * 4 >= MENU_INTERVALS * 3)
			agree = q < ((avg - 1) / 6 + 1) * ((avg - 1) / 6 + 1);
		if (agree)
			return (uint32_t)avg;
		if (divisor * 4 <= MENU_INTERVALS * 3)
			return UINT32_MAX;
		thresh = max - 1;
	}
}

/* The governor finds every look's sums in one scan: the same answer as
 * the kernel's passes, over patterns with ties at the top (values from a
 * few levels), zeros, and u32 extremes that wrap the sums. */
static void test_menu_v3_10_typical_one_scan(void **state)
{
	static const uint32_t levels[] = { 0, 1, 90, 100, 110, 400, 1000, 50000, UINT32_MAX - 1,
					   UINT32_MAX };
	const int nlevels = (int)(sizeof(levels) / sizeof(levels[0]));
	uint64_t x = 0x9e3779b97f4a7c15u;
	int found = 0;
	for (int n = 0; n < 20000; n++) {
		uint32_t v[MENU_INTERVALS];
		for (int i = 0; i < MENU_INTERVALS; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* half the patterns from the first few levels: ties */
			int span = n % 2 ? nlevels : 5;
			v[i] = levels[x % (uint64_t)span];
		}
		uint32_t want = typical_v3_10_passes(v);
		assert_int_equal(typical_v3_10(v), want);
		found += want != UINT32_MAX;
	}
	assert_true(found > 1000); /* patterns were found, not only refused */
}

static void test_menu_v3_10_select(void **state)
{
	struct idletrace_sim s;
	bool stop;
	start_v3_10(&s);
	struct menu_data *d = s.dev.gov_data;
	const uint32_t spread[MENU_INTERVALS] = { 100, 200, 300, 400, 500, 600, 700, 800 };

	/* C1 is the default once the timer is over 5 us away, even under a
	 * 1 us PM QoS limit that C1's 2 us exit latency exceeds (tuned's
	 * latency-performance on RHEL 7); the current menu polls there. */
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, 1 * US, &stop), C1);
	assert_int_equal(select_direct(&s, 5 * US, 5 * US, 1 * US, &stop), POLL);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, 0, &stop), POLL);

	/* Fresh history predicts 0 us: nothing deeper than the C1 default. */
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1);

	/* No pattern: the timer (1 ms, unity factor) predicts; C6 fits. */
	memcpy(d->intervals, spread, sizeof(spread));
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C6);
	assert_int_equal(d->bucket, 3);
	/* One task waiting on I/O here: multiplier 11, C6 needs 1463 us of
	 * predicted idle, C1E 110 us; and the upper bucket set is used. */
	s.dev.nr_iowait = 1;
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1E);
	assert_int_equal(d->bucket, 9);
	s.dev.nr_iowait = 0;
	/* The run queue's cpu_load[0] from the CPU's last tick: one nice-0
	 * task (1024) is get_loadavg() 5, multiplier 11, the same bar as one
	 * I/O waiter but in the lower buckets; a load of 0 (the tick restarted
	 * after a nohz stretch) lifts it again. */
	s.dev.cpu_load = 1024;
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1E);
	assert_int_equal(d->bucket, 3);
	s.dev.cpu_load = 0;
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C6);
	/* The PM QoS limit still bounds the deeper states. */
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, 100 * US, &stop), C1E);
	/* A regular pattern replaces the prediction outright, even above
	 * the timer's. */
	for (int i = 0; i < MENU_INTERVALS; i++)
		d->intervals[i] = 300;
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1E);
	/* The exit latency times the multiplier may equal the prediction: a
	 * steady 110 us with one task's load (multiplier 11) takes C1E
	 * (10 us x 11), 109 us does not. */
	s.dev.cpu_load = 1024;
	for (int i = 0; i < MENU_INTERVALS; i++)
		d->intervals[i] = 110;
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1E);
	assert_int_equal(d->exit_us, 10);
	for (int i = 0; i < MENU_INTERVALS; i++)
		d->intervals[i] = 109;
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1);
	assert_int_equal(d->exit_us, 2);
	idletrace_sim_destroy(&s);
}

/* Disabled states (fixed before the first selection, as cstate_disable sets
 * them) are never chosen: the walk goes on to the next enabled one, and with
 * C1 disabled the default for a timer over 5 us away is state 0, the
 * kernel's last_state_idx left at 0. */
static void test_menu_v3_10_disabled_states(void **state)
{
	struct idletrace_sim s;
	bool stop;
	const uint32_t spread[MENU_INTERVALS] = { 100, 200, 300, 400, 500, 600, 700, 800 };
	start_v3_10(&s);
	struct menu_data *d = s.dev.gov_data;
	s.dev.disabled[C6] = true;
	memcpy(d->intervals, spread, sizeof(spread));
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1E);
	assert_int_equal(d->exit_us, 10);
	idletrace_sim_destroy(&s);

	start_v3_10(&s);
	d = s.dev.gov_data;
	s.dev.disabled[C1] = true;
	s.dev.disabled[C6] = true;
	/* Fresh history predicts 0 us: only the default is left. */
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), POLL);
	assert_int_equal(d->exit_us, 0);
	memcpy(d->intervals, spread, sizeof(spread));
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), C1E);
	assert_int_equal(d->exit_us, 10);
	idletrace_sim_destroy(&s);
}

/* The sums and order select() keeps as intervals come (update()) give the
 * answer of a scan of the intervals at every step, and writes to
 * intervals[] from outside (as the tests above make), told with
 * menu_intervals_written(), are seen. */
static void test_menu_v3_10_typical_kept(void **state)
{
	static const uint32_t levels[] = { 0, 1, 90, 100, 110, 400, 1000, 50000, UINT32_MAX - 1,
					   UINT32_MAX };
	struct idletrace_sim s;
	bool stop;
	start_v3_10(&s);
	struct menu_data *d = s.dev.gov_data;
	uint64_t x = 0x2545f4914f6cdd1du;
	int found = 0;
	for (int n = 0; n < 20000; n++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* stretches from the first few levels (ties), then from all */
		int span = (n / 500) % 2 ? 10 : 4;
		uint32_t us = levels[x % (uint64_t)span];
		if (n % 997 == 0) {
			d->intervals[(x >> 32) % MENU_INTERVALS] = us; /* from outside */
			menu_intervals_written(d);
		} else {
			d->needs_update = true;
			s.dev.last_residency_ns = (sim_ns)us * US;
			select_direct(&s, 1 * MS, 1 * MS, NONE, &stop);
		}
		uint32_t want = menu_v3_10_typical_interval(d);
		assert_int_equal(menu_v3_10_typical_kept(d), want);
		found += want != UINT32_MAX;
	}
	assert_true(found > 1000);
	/* Near the bound that lets a look fail without its divisions: two
	 * samples 41 us either side of a steady 100 us, or 41 us, agree
	 * (deviation 20); so do hour-long ones whose squared deviations wrap
	 * (below). */
	static const uint32_t close[MENU_INTERVALS] = { 59, 100, 100, 141, 100, 100, 100, 100 };
	memcpy(d->intervals, close, sizeof(close));
	menu_intervals_written(d);
	assert_int_equal(menu_v3_10_typical_kept(d), 100);
	static const uint32_t low[MENU_INTERVALS] = { 41, 41, 0, 41, 41, 82, 41, 41 };
	memcpy(d->intervals, low, sizeof(low));
	menu_intervals_written(d);
	assert_int_equal(menu_v3_10_typical_kept(d), 41);
	/* The same at 6 ms, where the bar is avg / 6 (1000 us): 1999 us
	 * either side still agree. */
	static const uint32_t wide[MENU_INTERVALS] = { 6000, 4001, 6000, 6000, 7999, 6000, 6000, 6000 };
	memcpy(d->intervals, wide, sizeof(wide));
	menu_intervals_written(d);
	assert_int_equal(menu_v3_10_typical_kept(d), 6000);
	/* The last look agreeing while the first two fail on their spread:
	 * the five 100s and 141 (mean 106, deviation 15) once 5000 and 1000
	 * are dropped; the three looks' shortcut must take a[5], not a[6]. */
	static const uint32_t last[MENU_INTERVALS] = { 5000, 100, 1000, 100, 141, 100, 100, 100 };
	memcpy(d->intervals, last, sizeof(last));
	menu_intervals_written(d);
	assert_int_equal(menu_v3_10_typical_interval(d), 106);
	assert_int_equal(menu_v3_10_typical_kept(d), 106);
	/* Six samples far apart below 2^29 and two above, whose sums wrap
	 * into agreement at the first look: the shortcut must not answer for
	 * them. */
	static const uint32_t wrap_top[MENU_INTERVALS] = { 3437757435u, 29867475, 139827609,
							   144900837, 3896334367u, 146680853,
							   165785418, 449162818 };
	memcpy(d->intervals, wrap_top, sizeof(wrap_top));
	menu_intervals_written(d);
	assert_int_equal(menu_v3_10_typical_interval(d), 1051289601);
	assert_int_equal(menu_v3_10_typical_kept(d), 1051289601);
	static const uint32_t wrap[MENU_INTERVALS] = { 3165942181u, 73874293, 73874293, 4219963181u,
						       73874293, 1993275628, 1451826923, 73874293 };
	memcpy(d->intervals, wrap, sizeof(wrap));
	menu_intervals_written(d);
	assert_int_equal(menu_v3_10_typical_interval(d), 1390813135);
	assert_int_equal(menu_v3_10_typical_kept(d), 1390813135);
	idletrace_sim_destroy(&s);
}

static void test_menu_v3_10_update(void **state)
{
	struct idletrace_sim s;
	start_v3_10(&s);
	struct menu_data *d = s.dev.gov_data;
	const uint32_t spread[MENU_INTERVALS] = { 100, 200, 300, 400, 500, 600, 700, 800 };
	memcpy(d->intervals, spread, sizeof(spread));
	menu_intervals_written(d);
	/* Timer 1 ms, no pattern: C6; it sleeps 500 us. */
	assert_int_equal(step(&s, 1 * MS, 500 * US, NONE).state, C6);
	/* Learned at the next select: 500 - 133 = 367 us of 1000 expected,
	 * 8192 - 1024 + 1024 * 367 / 1000 = 7543; the interval kept is the
	 * raw 500 us (v3.10 corrects only the factor). */
	step(&s, 1 * MS, 500 * US, NONE);
	assert_int_equal(d->v310_factor[3], 7543);
	assert_int_equal(d->intervals[0], 500);
	assert_int_equal(d->interval_ptr, 1);
	/* The C1 default chosen without a passing state leaves exit_us at 0:
	 * the measured time is not corrected. Timer 1 ms, latency 1 us: C1. */
	assert_int_equal(step(&s, 1 * MS, 300 * US, 1 * US).state, C1);
	step(&s, 1 * MS, 300 * US, NONE);
	assert_int_equal(d->intervals[2], 300);
	idletrace_sim_destroy(&s);
}

/* Without a polling state 0 (not x86), the first state is the default. */
static void test_menu_v3_10_no_poll_state(void **state)
{
	static const char *const sets[] = { "menu_variant=3.10" };
	struct machine m;
	memset(&m, 0, sizeof(m));
	add_state(&m, "C1", 2 * US, 2 * US, 0);
	add_state(&m, "C6", 133 * US, 400 * US, 0);
	struct idletrace_sim s;
	bool stop;
	start_with(&s, &m, "menu", TICK_LEGACY, 250, sets, 1);
	struct menu_data *d = s.dev.gov_data;
	const uint32_t spread[MENU_INTERVALS] = { 100, 200, 300, 400, 500, 600, 700, 800 };
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, 1 * US, &stop), 0);
	memcpy(d->intervals, spread, sizeof(spread));
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, 1 * MS, 1 * MS, NONE, &stop), 1);
	idletrace_sim_destroy(&s);
}

static void test_menu_v3_10_rejects_iowait_mult(void **state)
{
	static const char *const sets[] = { "menu_variant=3.10", "menu_iowait_mult=5" };
	struct machine m = hsw();
	struct idletrace_sim s;
	struct idletrace_config cfg = { .governor = "menu", .tick_policy = TICK_LEGACY, .hz = 250,
					.sets = sets, .nsets = 2 };
	struct pm_diag d = { { 0 } };
	assert_int_equal(idletrace_sim_init(&s, &m, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "menu_iowait_mult"));
	idletrace_sim_destroy(&s);
}

static void test_menu_select(void **state)
{
	struct idletrace_sim s;
	struct idletrace_step st;

	/* Timer 100 ms, PM QoS 50 us: C6 (133 us exit) is out, C1E it is; the
	 * prediction (100 ms) is long, so the tick may stop. */
	start(&s, "menu", TICK_GOVERNOR);
	st = step(&s, 100 * MS, 50 * MS, 50 * US);
	assert_int_equal(st.state, C1E);
	assert_true(st.tick_stopped);
	idletrace_sim_destroy(&s);

	/* PM QoS below C1's exit latency: POLL, and a polling state keeps
	 * the tick. */
	start(&s, "menu", TICK_GOVERNOR);
	st = step(&s, 100 * MS, 50 * MS, 1 * US);
	assert_int_equal(st.state, POLL);
	assert_false(st.tick_stopped);
	idletrace_sim_destroy(&s);

	/* Timer before C1's residency: POLL. With POLL disabled, C1 (the
	 * prediction, round(1 us * 1.0) = 1 us, is below its 2 us, but it is
	 * the only choice), tick kept since 1 us < a tick. */
	start(&s, "menu", TICK_GOVERNOR);
	st = step(&s, 1 * US, 1 * US, NONE);
	assert_int_equal(st.state, POLL);
	assert_false(st.tick_stopped);
	idletrace_sim_destroy(&s);
	start(&s, "menu", TICK_GOVERNOR);
	s.dev.disabled[POLL] = true;
	st = step(&s, 1 * US, 1 * US, NONE);
	assert_int_equal(st.state, C1);
	assert_false(st.tick_stopped);
	idletrace_sim_destroy(&s);

	/* Timer 300 us: C6's 400 us does not fit, C1E does. The tick keeps
	 * running (300 us < 4 ms) unless it was stopped already. */
	start(&s, "menu", TICK_GOVERNOR);
	st = step(&s, 300 * US, 300 * US, NONE);
	assert_int_equal(st.state, C1E);
	assert_false(st.tick_stopped);
	idletrace_sim_destroy(&s);
	start(&s, "menu", TICK_LEGACY);
	st = step(&s, 300 * US, 300 * US, NONE);
	assert_int_equal(st.state, C1E);
	assert_true(st.tick_stopped);
	idletrace_sim_destroy(&s);
}

/* select() walks the enabled states kept at its first call, and counts
 * again those within the latency limit whenever the limit changes: one
 * device, a long prediction (timer 100 ms, 50 ms idles), limits that come
 * and go, each exact exit latency still allowed (the kernel breaks only on
 * a state whose exit latency exceeds the limit). */
static void test_menu_walk_kept(void **state)
{
	struct idletrace_sim s;
	start(&s, "menu", TICK_GOVERNOR);
	const sim_ns limit[] = { NONE, 50 * US, 133 * US, 132 * US, NONE, 10 * US, 9 * US, 2 * US };
	const int want[] = { C6, C1E, C6, C1E, C6, C1E, C1, C1 };
	for (size_t i = 0; i < sizeof(limit) / sizeof(limit[0]); i++)
		assert_int_equal(step(&s, 100 * MS, 50 * MS, limit[i]).state, want[i]);
	idletrace_sim_destroy(&s);

	/* States disabled before the first select are never walked: C6 and
	 * C1 off, C1E is the deepest; with a 5 us limit only POLL is left. */
	start(&s, "menu", TICK_GOVERNOR);
	s.dev.disabled[C1] = true;
	s.dev.disabled[C6] = true;
	assert_int_equal(step(&s, 100 * MS, 50 * MS, NONE).state, C1E);
	assert_int_equal(step(&s, 100 * MS, 50 * MS, 5 * US).state, POLL);
	assert_int_equal(step(&s, 100 * MS, 50 * MS, NONE).state, C1E);
	const struct menu_data *d = s.dev.gov_data;
	assert_int_equal(d->walk_n, 2);
	assert_int_equal(d->walk[0].state, POLL);
	assert_int_equal(d->walk[1].state, C1E);
	idletrace_sim_destroy(&s);
}

/* select() keeps where its walk last stopped and the range of predictions
 * that stop there: every residency before the stop fits, the stop's does
 * not. Residencies out of order (A 50 us before B 10 us) make the range's
 * low end the largest residency passed, not the last: 60 us passes A and
 * B and stops at C (B); 20 us then lies between B's 10 and C's 400 us,
 * yet stops at A, as the kernel's walk from the shallowest does (POLL).
 * A prediction equal to the stop's residency passes it (C at 400 us). */
static void test_menu_walk_stop_kept(void **state)
{
	struct machine m;
	memset(&m, 0, sizeof(m));
	add_state(&m, "POLL", 0, 0, 1);
	add_state(&m, "A", 2 * US, 50 * US, 0);
	add_state(&m, "B", 5 * US, 10 * US, 0);
	add_state(&m, "C", 133 * US, 400 * US, 0);
	struct idletrace_sim s;
	bool stop;
	start_with(&s, &m, "menu", TICK_GOVERNOR, 250, NULL, 0);
	struct menu_data *d = s.dev.gov_data;
	s.dev.last_residency_ns = 1; /* a measurement: select() stores no invalid interval */
	const uint32_t typical[] = { 60, 20, 60, 400, 1000, 450 };
	const int want[] = { 2, 0, 2, 3, 3, 3 };
	for (size_t i = 0; i < sizeof(typical) / sizeof(typical[0]); i++) {
		for (int k = 0; k < MENU_INTERVALS; k++)
			d->intervals[k] = typical[i];
		menu_intervals_written(d);
		assert_int_equal(select_direct(&s, TICK_250, 50 * MS, NONE, &stop), want[i]);
	}
	idletrace_sim_destroy(&s);
}

/* The early return to state 0 (kept per latency limit, menu_keep_walk()):
 * it answers with the tick stopped unless state 0 polls, where the walk
 * would have kept the tick for a prediction under one; and it needs
 * state 0 enabled, else the walk picks the first enabled state. */
static void test_menu_state0_early(void **state)
{
	struct machine arm;
	memset(&arm, 0, sizeof(arm));
	add_state(&arm, "WFI", 1 * US, 1 * US, 0);
	add_state(&arm, "cpu-off", 100 * US, 500 * US, 0);
	struct idletrace_sim s;
	bool stop;
	/* Timer 200 us, before cpu-off's 500 us: WFI, tick stopped. */
	start_with(&s, &arm, "menu", TICK_GOVERNOR, 250, NULL, 0);
	assert_int_equal(select_direct(&s, 200 * US, 200 * US, NONE, &stop), 0);
	assert_true(stop);
	/* The same under a limit below cpu-off's exit latency. */
	assert_int_equal(select_direct(&s, 200 * MS, 200 * MS, 50 * US, &stop), 0);
	assert_true(stop);
	/* With a limit that admits it and the timer far: cpu-off. */
	assert_int_equal(select_direct(&s, 200 * MS, 200 * MS, NONE, &stop), 1);
	idletrace_sim_destroy(&s);
	/* State 0 disabled: neither the timer nor the limit returns it. */
	struct machine m = hsw();
	start_with(&s, &m, "menu", TICK_GOVERNOR, 250, NULL, 0);
	s.dev.disabled[POLL] = true;
	assert_int_equal(select_direct(&s, 200 * MS, 200 * MS, 1 * US, &stop), C1);
	assert_int_equal(select_direct(&s, 1 * US, 1 * US, NONE, &stop), C1);
	assert_false(stop);
	idletrace_sim_destroy(&s);
}

static void test_menu_tick_rules(void **state)
{
	struct idletrace_sim s;
	struct menu_data *d;
	bool stop;

	/* Recent idles of 100 us with the timer 50 ms away. Running tick:
	 * trust the pattern, C1E, keep the tick. Stopped tick: a short
	 * misprediction would strand the CPU, so trust the timer: C6. */
	for (int legacy = 0; legacy < 2; legacy++) {
		start(&s, "menu", legacy ? TICK_LEGACY : TICK_GOVERNOR);
		d = s.dev.gov_data;
		for (int i = 0; i < MENU_INTERVALS; i++)
			d->intervals[i] = 100;
		struct idletrace_step st = step(&s, 50 * MS, 100 * US, NONE);
		assert_int_equal(st.state, legacy ? C6 : C1E);
		assert_int_equal(st.tick_stopped, legacy);
		idletrace_sim_destroy(&s);
	}

	/* Recent idles of 5 us (<= 15 us) would skip the timer query, but not
	 * with the tick stopped (v7.0, 6.18.y): the timer 50 ms away then
	 * replaces the short prediction: C6, not C1. */
	start(&s, "menu", TICK_LEGACY);
	d = s.dev.gov_data;
	for (int i = 0; i < MENU_INTERVALS; i++)
		d->intervals[i] = 5;
	assert_int_equal(step(&s, 50 * MS, 5 * US, NONE).state, C6);
	assert_int_equal(d->next_timer_ns, 50 * MS);
	idletrace_sim_destroy(&s);

	/* Expected 3 ms (< a tick) with the tick due in 300 us: C6 fits the
	 * prediction but not the time to the tick, so step down to C1E. */
	start(&s, "menu", TICK_GOVERNOR);
	assert_int_equal(select_direct(&s, 300 * US, 3 * MS, NONE, &stop), C1E);
	assert_false(stop);
	idletrace_sim_destroy(&s);
	/* The same with the tick 4 ms away: C6, tick kept. */
	start(&s, "menu", TICK_GOVERNOR);
	assert_int_equal(select_direct(&s, TICK_250, 3 * MS, NONE, &stop), C6);
	assert_false(stop);
	idletrace_sim_destroy(&s);
}

static void test_menu_polling_rules(void **state)
{
	struct idletrace_sim s;
	bool stop;
	struct machine fast = { 0 }, slow = hsw(), wide = { 0 };
	add_state(&fast, "POLL", 0, 0, 1);
	add_state(&fast, "C1", 1 * US, 2 * US, 0);
	add_state(&fast, "C6", 133 * US, 400 * US, 0);
	add_state(&wide, "POLL", 0, 0, 1);
	add_state(&wide, "C1", 1 * US, 20 * US, 0);
	add_state(&wide, "C6", 133 * US, 400 * US, 0);
	struct {
		const struct machine *m;
		uint32_t typical_us;
		int want;
	} cases[] = {
		/* Typical 1 us (<= 15 us: the timer is not queried). C1 misses
		 * the prediction, but a real state beats polling if its exit
		 * latency (1 us) fits it. */
		{ &fast, 1, 1 },
		/* ...and not if it does not (C1's 2 us here). */
		{ &slow, 1, POLL },
		/* Nor if its residency (20 us) reaches the 15 us threshold. */
		{ &wide, 10, POLL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		start_with(&s, cases[i].m, "menu", TICK_GOVERNOR, 250, NULL, 0);
		struct menu_data *d = s.dev.gov_data;
		for (int k = 0; k < MENU_INTERVALS; k++)
			d->intervals[k] = cases[i].typical_us;
		assert_int_equal(select_direct(&s, TICK_250, 100 * MS, NONE, &stop), cases[i].want);
		assert_false(stop); /* polling, or a prediction under a tick */
		assert_int_equal(d->next_timer_ns, INT64_MAX); /* not queried */
		idletrace_sim_destroy(&s);
	}
}

/* menu_select() keeps the typical interval of the intervals it last saw
 * and reuses it until typical_known is cleared: whoever writes intervals[]
 * (here the test; menu_update() through menu_update_intervals()) clears
 * it and gets a new answer. */
static void test_menu_typical_interval_cache(void **state)
{
	struct idletrace_sim s;
	bool stop;
	start(&s, "menu", TICK_GOVERNOR);
	struct menu_data *d = s.dev.gov_data;
	s.dev.last_residency_ns = 1; /* a measurement: select() stores no invalid interval */
	/* A new device's intervals are all 0: no pattern (UINT32_MAX). */
	select_direct(&s, TICK_250, 50 * MS, NONE, &stop);
	assert_int_equal(d->typical_us, UINT32_MAX);
	const uint32_t typical[] = { 100, 100, 1000, 1000 };
	/* 100 us: C1E (C6's 400 us do not fit); 1 ms: C6. */
	const int want[] = { C1E, C1E, C6, C6 };
	for (size_t i = 0; i < sizeof(typical) / sizeof(typical[0]); i++) {
		for (int k = 0; k < MENU_INTERVALS; k++)
			d->intervals[k] = typical[i];
		menu_intervals_written(d);
		assert_int_equal(select_direct(&s, TICK_250, 50 * MS, NONE, &stop), want[i]);
		assert_int_equal(d->typical_us, menu_typical_interval(d));
	}
	/* The last four of the eight 1000 us intervals become 100: mean
	 * 550 us, spread 450 us; the tie drops the largest, the four 100 us
	 * left agree: 100 us and C1E, where the cached 1000 gave C6. */
	for (int k = MENU_INTERVALS / 2; k < MENU_INTERVALS; k++)
		d->intervals[k] = 100;
	menu_intervals_written(d);
	assert_int_equal(select_direct(&s, TICK_250, 50 * MS, NONE, &stop), C1E);
	assert_int_equal(d->typical_us, 100);
	idletrace_sim_destroy(&s);
}

/* Through the governor's own learning: each idle period that ends stores
 * its interval (menu_update()), and the typical interval select() uses is
 * always the one of the intervals it sees: a rhythm of 100 us, then of
 * 1 ms, then 100 us again, each change clearing what was kept. */
static void test_menu_typical_interval_learned(void **state)
{
	struct idletrace_sim s;
	start(&s, "menu", TICK_GOVERNOR);
	struct menu_data *d = s.dev.gov_data;
	const sim_ns rhythm[] = { 100 * US, 1 * MS, 100 * US };
	int changes = 0;
	uint32_t last = 0;
	for (size_t r = 0; r < sizeof(rhythm) / sizeof(rhythm[0]); r++)
		for (int i = 0; i < 2 * MENU_INTERVALS; i++) {
			step(&s, 50 * MS, rhythm[r], NONE);
			assert_int_equal(d->typical_us, menu_typical_interval(d));
			changes += d->typical_us != last;
			last = d->typical_us;
		}
	assert_true(changes >= 3); /* the answer did move with the rhythm */
	idletrace_sim_destroy(&s);
}

/* The sums select() keeps as intervals come (menu_update_intervals())
 * are those of a scan at every step, and the typical interval made from
 * them is the detector's: through steady stretches (the first look
 * accepts), spread ones (it does not: the detector runs from scratch),
 * invalid entries (a selection with no measurement), values whose
 * squares wrap, and writes to intervals[] behind their back
 * (menu_intervals_written()). */
static void test_menu_typical_kept(void **state)
{
	static const uint32_t levels[] = { 0, 1, 100, 101, 120, 400, 1000, 45000, 3000000000u };
	/* sleep lengths at and beside the buckets' edges */
	static const sim_ns timers[] = { 0,	     1,		 10 * US - 1, 10 * US,
					 50 * US,    100 * US - 1, 100 * US,    1 * MS,
					 10 * MS - 1, 10 * MS,	   99 * MS,	100 * MS,
					 100 * 1000 * MS, INT64_MAX };
	struct idletrace_sim s;
	bool stop;
	start(&s, "menu", TICK_GOVERNOR);
	struct menu_data *d = s.dev.gov_data;
	uint64_t x = 0x9e3779b97f4a7c15u;
	int accepted = 0, invalid = 0;
	for (int n = 0; n < 20000; n++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* stretches of one or two levels (the first look accepts), then
		 * of all of them */
		int span = (n / 300) % 3 == 2 ? 9 : (n / 300) % 3 + 1;
		uint32_t us = levels[((uint64_t)(n / 300) + x % (uint64_t)span) % 9];
		if (n % 991 == 0) {
			d->intervals[(x >> 32) % MENU_INTERVALS] = us; /* from outside */
			menu_intervals_written(d);
		} else {
			/* 1 in 50 a selection with no measurement: UINT32_MAX */
			bool none = (x >> 40) % 50 == 0;
			d->needs_update = !none;
			s.dev.last_state = 0; /* polling: no exit latency taken off */
			s.dev.poll_time_limit = false;
			s.dev.last_residency_ns = none ? 0 : (sim_ns)us * US;
			sim_ns timer = timers[(x >> 48) % (sizeof(timers) / sizeof(timers[0]))];
			select_direct(&s, TICK_250, timer, NONE, &stop);
			/* the bucket kept for the last sleep length's range */
			assert_int_equal(d->bucket, menu_which_bucket(d->next_timer_ns));
		}
		uint32_t want = menu_typical_interval(d);
		assert_int_equal(menu_typical_kept(d), want);
		if (d->typical_known)
			assert_int_equal(d->typical_us, want);
		uint64_t sum = 0, sum_sq = 0;
		int bad = 0;
		for (int i = 0; i < MENU_INTERVALS; i++) {
			sum += d->intervals[i];
			sum_sq += (uint64_t)d->intervals[i] * d->intervals[i];
			bad += d->intervals[i] == UINT32_MAX;
		}
		assert_true(d->sums_known);
		assert_true(d->ivl_sum == sum && d->ivl_sum_sq == sum_sq);
		assert_int_equal(d->ivl_invalid, bad);
		accepted += want != UINT32_MAX;
		invalid += bad > 0;
	}
	assert_true(accepted > 2000);
	assert_true(invalid > 2000);
	idletrace_sim_destroy(&s);
}

/* The timer's prediction as the kernel's expression, in 128 bits, then
 * saturated: round(next * factor / 8192 us). */
static uint32_t timer_us_wide(sim_ns next, uint32_t factor)
{
	__extension__ typedef unsigned __int128 u128;
	const u128 div = (u128)MENU_RESOLUTION * MENU_DECAY * 1000;
	u128 us = ((u128)(uint64_t)next * factor + div / 2) / div;
	return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/* menu_timer_us() in one product where it fits 64 bits (lengths under
 * 2^50 ns, factors under 2^14) and split beyond: both give the exact
 * rounded quotient, at the bounds and between. */
static void test_menu_timer_us(void **state)
{
	static const sim_ns next[] = { 0, 1, 4095999, 4096000, 8191999, 8192000, 1 * MS,
				       123456789, (1LL << 50) - 1, 1LL << 50, (1LL << 62) + 12345,
				       INT64_MAX };
	static const uint32_t factor[] = { 0, 1, 7, 1000, 7168, 8191, 8192, 16383, 16384,
					   1u << 20, UINT32_MAX };
	for (size_t i = 0; i < sizeof(next) / sizeof(next[0]); i++)
		for (size_t j = 0; j < sizeof(factor) / sizeof(factor[0]); j++)
			assert_int_equal(menu_timer_us(next[i], factor[j]),
					 timer_us_wide(next[i], factor[j]));
	uint64_t x = 0x2545f4914f6cdd1du;
	for (int n = 0; n < 100000; n++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sim_ns ns = (sim_ns)((x >> 1) >> (x % 40)); /* every magnitude */
		uint32_t f = (uint32_t)(x >> 20) % 20000;
		assert_int_equal(menu_timer_us(ns, f), timer_us_wide(ns, f));
	}
}

static void test_menu_iowait_variant(void **state)
{
	/* Timer 1 ms: predicted 1 ms, C6 fits. With one iowaiter and the
	 * historical multiplier 10, the exit latency must stay under
	 * 1 ms / 11 = 90.9 us: C1E. */
	const char *const sets[] = { "menu_iowait_mult=10" };
	struct machine m = hsw();
	for (int on = 0; on < 2; on++) {
		struct idletrace_sim s;
		start_with(&s, &m, "menu", TICK_GOVERNOR, 250, sets, on);
		s.dev.nr_iowait = 1;
		struct idletrace_step st = step(&s, 1 * MS, 1 * MS, NONE);
		assert_int_equal(st.state, on ? C1E : C6);
		idletrace_sim_destroy(&s);
		/* The version the simulator's idle loop calls for these tunables
		 * (select_for()) answers the same. */
		start_with(&s, &m, "menu", TICK_GOVERNOR, 250, sets, on);
		s.dev.nr_iowait = 1;
		s.dev.next_timer_ns = s.dev.next_timer_no_tick_ns = 1 * MS;
		bool stop = true;
		assert_int_equal(s.gov->select_for(&s.dev)(&s.dev, NONE, &stop), on ? C1E : C6);
		idletrace_sim_destroy(&s);
	}
}

/* ---- teo ---- */

/* One update at select(): the last wakeup as the device recorded it. */
static struct teo_data *teo_after(struct idletrace_sim *s, int last_state, sim_ns residency,
				  sim_ns sleep_length)
{
	bool stop;
	struct teo_data *t = s->dev.gov_data;
	t->pending = true;
	t->sleep_length_ns = sleep_length;
	s->dev.last_state = last_state;
	s->dev.last_residency_ns = residency;
	select_direct(s, TICK_250, 100 * MS, NONE, &stop);
	return t;
}

static void test_teo_hits_and_intercepts(void **state)
{
	struct idletrace_sim s;
	struct teo_data *t;

	/* 500 us in C6 minus half its exit latency = 433.5 us: C6's bin, as
	 * is the 10 ms sleep length: a hit. */
	start(&s, "teo", TICK_GOVERNOR);
	t = teo_after(&s, C6, 500 * US, 10 * MS);
	assert_int_equal(t->bins[C6].hits, 1024);
	assert_int_equal(t->bins[C1E].intercepts, 0);
	assert_int_equal(t->total, 1024);
	assert_int_equal(t->short_idles, 0);
	assert_int_equal(t->tick_intercepts, 0);
	idletrace_sim_destroy(&s);

	/* 100 us in C6 is under its exit latency: halve it, 50 us, C1E's bin,
	 * an intercept within a tick, and a short idle. */
	start(&s, "teo", TICK_GOVERNOR);
	t = teo_after(&s, C6, 100 * US, 10 * MS);
	assert_int_equal(t->bins[C1E].intercepts, 1024);
	assert_int_equal(t->bins[C6].hits, 0);
	assert_int_equal(t->tick_intercepts, 1024);
	assert_int_equal(t->short_idles, 1024);
	idletrace_sim_destroy(&s);

	/* 10 us in C1 - 1 us = 9 us: C1's bin, and under 15 us: short. */
	start(&s, "teo", TICK_GOVERNOR);
	t = teo_after(&s, C1, 10 * US, 10 * MS);
	assert_int_equal(t->bins[C1].intercepts, 1024);
	assert_int_equal(t->short_idles, 1024);
	idletrace_sim_destroy(&s);

	/* Decay by 1/8 before adding: a second hit on top of hits 2048,
	 * total 2048, short_idles and tick_intercepts 1024, intercepts 800. */
	start(&s, "teo", TICK_GOVERNOR);
	t = s.dev.gov_data;
	t->bins[C6].hits = 2048;
	t->bins[C1].intercepts = 800;
	t->total = 2048;
	t->short_idles = 1024;
	t->tick_intercepts = 1024;
	teo_after(&s, C6, 500 * US, 10 * MS);
	assert_int_equal(t->bins[C6].hits, 2048 - 256 + 1024);
	assert_int_equal(t->total, 2048 - 256 + 1024);
	assert_int_equal(t->bins[C1].intercepts, 700);
	assert_int_equal(t->short_idles, 896);
	assert_int_equal(t->tick_intercepts, 896);
	idletrace_sim_destroy(&s);
}

static void test_teo_artificial_wakeups(void **state)
{
	struct idletrace_sim s;
	struct teo_data *t;

	/* A tick 100 us in although no timer was due for 100 ms: a safety
	 * net, counted as a long sleep, a hit in the deepest bin reached by
	 * the sleep length. */
	start(&s, "teo", TICK_GOVERNOR);
	t = s.dev.gov_data;
	t->sleep_length_ns = 100 * MS;
	s.dev.tick_wakeup = true;
	s.gov->reflect(&s.dev, C6);
	assert_true(t->artificial_wakeup);
	teo_after(&s, C6, 100 * US, 100 * MS);
	assert_int_equal(t->bins[C6].hits, 1024);
	assert_int_equal(t->bins[C1E].intercepts, 0);
	assert_int_equal(t->short_idles, 0);
	idletrace_sim_destroy(&s);

	/* A tick with the timer due within a tick is genuine: intercept. */
	start(&s, "teo", TICK_GOVERNOR);
	t = s.dev.gov_data;
	t->sleep_length_ns = 3 * MS;
	s.dev.tick_wakeup = true;
	s.gov->reflect(&s.dev, C6);
	assert_false(t->artificial_wakeup);
	teo_after(&s, C6, 100 * US, 3 * MS);
	assert_int_equal(t->bins[C1E].intercepts, 1024);
	idletrace_sim_destroy(&s);

	/* The poll time limit is a safety net too; reflect consumes it. */
	start(&s, "teo", TICK_GOVERNOR);
	t = s.dev.gov_data;
	s.dev.poll_time_limit = true;
	s.gov->reflect(&s.dev, POLL);
	assert_true(t->artificial_wakeup);
	assert_false(s.dev.poll_time_limit);
	idletrace_sim_destroy(&s);
}

/* The kernel's first selection learns from the zeroed device: state 0,
 * residency 0, sleep length 0 (teo_enable_device() zeroes it all). 0 - 0
 * of POLL's exit latency is under 15 us: a short idle; both the sleep
 * length and the duration fall in bin 0: a hit. */
static void test_teo_first_selection(void **state)
{
	struct idletrace_sim s;
	bool stop;
	start(&s, "teo", TICK_GOVERNOR);
	struct teo_data *t = s.dev.gov_data;
	/* Nothing learnt before it: the deepest state. */
	assert_int_equal(select_direct(&s, TICK_250, 100 * MS, NONE, &stop), C6);
	assert_int_equal(t->bins[POLL].hits, 1024);
	assert_int_equal(t->total, 1024);
	assert_int_equal(t->short_idles, 1024);
	assert_int_equal(t->tick_intercepts, 0);
	idletrace_sim_destroy(&s);

	/* It lasts: after 60 long wakeups in C6, hits in bin 0 have decayed
	 * to their floor, 7 (1024 - 128 - 112 - ... stops where v >> 3 is 0),
	 * not to 0. */
	start(&s, "teo", TICK_GOVERNOR);
	t = s.dev.gov_data;
	for (int i = 0; i < 60; i++)
		step(&s, 100 * MS, 50 * MS, NONE);
	assert_int_equal(t->bins[POLL].hits, 7);
	idletrace_sim_destroy(&s);
}

struct teo_case {
	uint32_t intercepts[4], hits[4], total, short_idles, tick_intercepts;
	sim_ns next_timer, no_tick;
	bool stopped;
	int want;
	bool want_stop, want_queried;
};

static void check_teo_select(const struct teo_case *c)
{
	struct idletrace_sim s;
	bool stop;
	start(&s, "teo", c->stopped ? TICK_LEGACY : TICK_GOVERNOR);
	struct teo_data *t = s.dev.gov_data;
	t->pending = false; /* the selection alone, nothing to learn first */
	for (int i = 0; i < 4; i++) {
		t->bins[i].intercepts = c->intercepts[i];
		t->bins[i].hits = c->hits[i];
	}
	t->total = c->total;
	t->short_idles = c->short_idles;
	t->tick_intercepts = c->tick_intercepts;
	s.dev.tick_stopped = c->stopped;
	assert_int_equal(select_direct(&s, c->next_timer, c->no_tick, NONE, &stop), c->want);
	assert_int_equal(stop, c->want_stop);
	assert_int_equal(t->sleep_length_ns == c->no_tick, c->want_queried);
	idletrace_sim_destroy(&s);
}

static void test_teo_select(void **state)
{
	const struct teo_case cases[] = {
		/* Nothing learnt: the deepest state; timer 100 ms, stop. */
		{ { 0 }, { 0 }, 0, 0, 0, TICK_250, 100 * MS, false, C6, true, true },
		/* Intercepts in C1E's bin are all there is: 2*4096 > 4096 - 0,
		 * and C1E's bin alone holds more than half: C1E; the timer is
		 * far, so the tick may stop. */
		{ { 0, 0, 4096, 0 }, { 0 }, 4096, 0, 0, TICK_250, 100 * MS, false, C1E, true, true },
		/* The same with most intercepts within a tick: keep the tick. */
		{ { 0, 0, 4096, 0 }, { 0 }, 4096, 0, 4096, TICK_250, 100 * MS, false, C1E, false, true },
		/* Hits in C6's bin balance the intercepts: 2*2048 > 4096 fails. */
		{ { 0, 0, 2048, 0 }, { 0, 0, 0, 2048 }, 4096, 0, 0, TICK_250, 100 * MS, false, C6,
		  true, true },
		/* One more intercept tips it: 2*2049 > 4097. */
		{ { 0, 0, 2049, 0 }, { 0, 0, 0, 2048 }, 4097, 0, 0, TICK_250, 100 * MS, false, C1E,
		  true, true },
		/* Intercepts split between C1 and C1E: going down from C6, C1E's
		 * bin alone is not more than half (2*1024 > 2048 fails), C1's
		 * and C1E's together are: C1. */
		{ { 0, 1024, 1024, 0 }, { 0 }, 2048, 0, 0, TICK_250, 100 * MS, false, C1, true, true },
		/* ...and with short idles the majority, C1 (< 15 us) is taken
		 * without asking for the timer, tick kept. */
		{ { 0, 1024, 1024, 0 }, { 0 }, 2048, 1024, 0, TICK_250, 100 * MS, false, C1, false,
		  false },
		/* Timer in 300 us: C6 (400 us) would not pay off, C1E; expected
		 * idle under a tick: keep it. */
		{ { 0 }, { 0 }, 0, 0, 0, 300 * US, 300 * US, false, C1E, false, true },
		/* Tick already stopped: C1E's residency is under a tick, too
		 * shallow to risk: stay in C6. */
		{ { 0, 0, 4096, 0 }, { 0 }, 4096, 0, 0, 100 * MS, 100 * MS, true, C6, true, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_teo_select(&cases[i]);
}

/* ---- ladder ---- */

static void run_rows(struct idletrace_sim *s, int n, sim_ns idle, const int *want)
{
	for (int i = 0; i < n; i++) {
		struct idletrace_step st = step(s, 100 * MS, idle, NONE);
		if (st.state != want[i])
			fail_msg("row %d: state %d, expected %d", i, st.state, want[i]);
	}
}

static void test_ladder_promotion_demotion(void **state)
{
	struct idletrace_sim s;
	struct machine m = hsw();

	/* ladder_variant=signed (the unmerged 2022 RFC): residency and
	 * thresholds compared as signed values.
	 * 10 us idles. Start at C1 (POLL is skipped). The first select has
	 * no measurement: 0 - 2 us is no vote. In C1, 10 - 2 us exit > C1's
	 * 2 us: a promotion vote per period, the 4th moves to C1E. In C1E,
	 * 10 - 10 = 0 < 10 us: one demotion vote moves back; the count
	 * starts afresh in C1. */
	const char *const sg[] = { "ladder_variant=signed" };
	static const int def[] = { C1, C1, C1, C1, C1E, C1, C1, C1, C1, C1E };
	start_with(&s, &m, "ladder", TICK_GOVERNOR, 250, sg, 1);
	run_rows(&s, 10, 10 * US, def);
	idletrace_sim_destroy(&s);

	static const int promo2[] = { C1, C1, C1E, C1, C1, C1E, C1, C1, C1E };
	const char *const p2[] = { "ladder_variant=signed", "ladder_promotion_count=2" };
	start_with(&s, &m, "ladder", TICK_GOVERNOR, 250, p2, 2);
	run_rows(&s, 9, 10 * US, promo2);
	idletrace_sim_destroy(&s);

	static const int demo2[] = { C1, C1, C1, C1, C1E, C1E, C1 };
	const char *const d2[] = { "ladder_variant=signed", "ladder_demotion_count=2" };
	start_with(&s, &m, "ladder", TICK_GOVERNOR, 250, d2, 2);
	run_rows(&s, 7, 10 * US, demo2);
	idletrace_sim_destroy(&s);

	/* 1 ms idles climb: four votes in C1, four in C1E, then C6 for good
	 * (no promotion from the deepest, 1 ms - 133 us is no demotion). */
	static const int climb[] = { C1, C1, C1, C1, C1E, C1E, C1E, C1E, C6, C6, C6 };
	start_with(&s, &m, "ladder", TICK_GOVERNOR, 250, sg, 1);
	run_rows(&s, 11, 1 * MS, climb);
	idletrace_sim_destroy(&s);

	/* 5 us idles: in C1E, 5 - 10 us < 10 us demotes at once. */
	static const int shortidle[] = { C1, C1, C1, C1, C1E, C1, C1, C1, C1, C1E, C1 };
	start_with(&s, &m, "ladder", TICK_GOVERNOR, 250, sg, 1);
	run_rows(&s, 11, 5 * US, shortidle);
	idletrace_sim_destroy(&s);

	/* A disabled next rung blocks the climb. */
	static const int stuck[] = { C1, C1, C1, C1, C1, C1, C1, C1 };
	start(&s, "ladder", TICK_GOVERNOR);
	s.dev.disabled[C1E] = true;
	run_rows(&s, 8, 1 * MS, stuck);
	idletrace_sim_destroy(&s);
}

/* Mainline (the default): the s64 residency meets u64 thresholds, so the
 * comparisons are unsigned and a residency below zero (an idle shorter
 * than the state's exit latency, or the first select's 0 - exit latency)
 * is a huge value: a promotion vote, never a demotion. */
static void test_ladder_mainline_wrap(void **state)
{
	struct idletrace_sim s;
	struct machine m = hsw();

	/* 10 us idles: the first select's 0 - 2 us already votes, so the 4th
	 * row is C1E. In C1E, 10 - 10 = 0 is not negative: 0 < 10 demotes. */
	static const int def[] = { C1, C1, C1, C1E, C1, C1, C1, C1, C1E, C1 };
	start(&s, "ladder", TICK_GOVERNOR);
	run_rows(&s, 10, 10 * US, def);
	idletrace_sim_destroy(&s);

	/* 5 us idles: in C1E, 5 - 10 us wraps: four promotion votes take it
	 * to C6, and in C6 (5 - 133 us) it never demotes: it sinks. */
	static const int sink[] = { C1, C1, C1, C1E, C1E, C1E, C1E, C6, C6, C6, C6, C6 };
	start(&s, "ladder", TICK_GOVERNOR);
	run_rows(&s, 12, 5 * US, sink);
	idletrace_sim_destroy(&s);

	/* The same under the explicit name. */
	const char *const ml[] = { "ladder_variant=mainline" };
	start_with(&s, &m, "ladder", TICK_GOVERNOR, 250, ml, 1);
	run_rows(&s, 12, 5 * US, sink);
	idletrace_sim_destroy(&s);

	/* 1 ms idles: the same climb as signed, one row earlier. */
	static const int climb[] = { C1, C1, C1, C1E, C1E, C1E, C1E, C6, C6, C6 };
	start(&s, "ladder", TICK_GOVERNOR);
	run_rows(&s, 10, 1 * MS, climb);
	idletrace_sim_destroy(&s);
}

static void test_ladder_latency(void **state)
{
	struct idletrace_sim s;
	struct ladder_data *l;
	struct idletrace_step st;

	/* Latency 0 forces POLL; state 0 has zero thresholds, so the next
	 * period (10 us polled) promotes at once to C1. */
	start(&s, "ladder", TICK_GOVERNOR);
	assert_int_equal(step(&s, 100 * MS, 10 * US, 0).state, POLL);
	assert_int_equal(step(&s, 100 * MS, 10 * US, NONE).state, C1);
	idletrace_sim_destroy(&s);

	/* In C6, a limit of 100 us drops straight to the deepest state that
	 * meets it, C1E. */
	start(&s, "ladder", TICK_GOVERNOR);
	l = s.dev.gov_data;
	l->last = C6;
	s.dev.last_residency_ns = 1 * MS;
	st = step(&s, 100 * MS, 1 * MS, 100 * US);
	assert_int_equal(st.state, C1E);
	assert_true(st.tick_stopped); /* ladder never keeps the tick */
	idletrace_sim_destroy(&s);
}

/* ---- haltpoll ---- */

static void test_haltpoll_window(void **state)
{
	struct idletrace_sim s;
	/* Rows (idle us) -> state, poll window after the row (us), poll timed out. */
	static const struct {
		int idle_us, state, window_us, timeout;
	} rows[] = {
		{ 30, C1, 50, 0 },    /* no window: halt; 30 <= 200: grow to grow_start */
		{ 30, POLL, 50, 0 },  /* after a halt, poll; caught within 50 */
		{ 80, POLL, 50, 1 },  /* caught last time: poll again; times out at 50 */
		{ 80, C1, 100, 0 },   /* poll timed out: halt; 50 < 80 <= 200: x2 */
		{ 150, POLL, 100, 1 },
		{ 150, C1, 200, 0 },  /* 100 < 150: x2 = 200, the ceiling */
		{ 500, POLL, 200, 1 },
		{ 500, C1, 100, 0 },  /* 500 > 200: shrink /2 */
		{ 500, POLL, 100, 1 },
		{ 500, C1, 50, 0 },   /* 50, not below grow_start */
		{ 500, POLL, 50, 1 },
		{ 500, C1, 0, 0 },    /* 25 < grow_start: 0 (v6.9) */
		{ 500, C1, 0, 0 },    /* no window: halt at once */
	};
	start(&s, "haltpoll", TICK_GOVERNOR);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct idletrace_step st = step(&s, 100 * MS, rows[i].idle_us * US, NONE);
		if (st.state != rows[i].state || s.dev.poll_limit_ns != rows[i].window_us * US ||
		    st.poll_timeout != rows[i].timeout)
			fail_msg("row %zu: state %d window %lld timeout %d", i, st.state,
				 (long long)s.dev.poll_limit_ns, st.poll_timeout);
		/* Polling keeps the tick; halting lets it stop. */
		assert_int_equal(st.tick_stopped, st.state == C1);
		if (st.poll_timeout)
			assert_int_equal(st.residency_ns, rows[i].window_us * US);
	}
	idletrace_sim_destroy(&s);
}

static void test_haltpoll_tunables(void **state)
{
	struct idletrace_sim s;
	struct machine m = hsw();
	/* No shrinking: the window stays at its 200 us ceiling. */
	const char *const keep[] = { "guest_halt_poll_allow_shrink=0" };
	start_with(&s, &m, "haltpoll", TICK_GOVERNOR, 250, keep, 1);
	s.dev.poll_limit_ns = 200 * US;
	step(&s, 100 * MS, 500 * US, NONE); /* poll, times out */
	step(&s, 100 * MS, 500 * US, NONE); /* halt 500 us */
	assert_int_equal(s.dev.poll_limit_ns, 200 * US);
	idletrace_sim_destroy(&s);

	/* grow 4, grow_start 10 us, ceiling 100 us: 0 -> 10 -> 40 -> 100. */
	const char *const g[] = { "guest_halt_poll_grow=4", "guest_halt_poll_grow_start=10000",
				  "guest_halt_poll_ns=100000" };
	start_with(&s, &m, "haltpoll", TICK_GOVERNOR, 250, g, 3);
	step(&s, 100 * MS, 90 * US, NONE); /* halt */
	assert_int_equal(s.dev.poll_limit_ns, 10 * US);
	step(&s, 100 * MS, 90 * US, NONE); /* poll, times out at 10 */
	step(&s, 100 * MS, 90 * US, NONE); /* halt */
	assert_int_equal(s.dev.poll_limit_ns, 40 * US);
	step(&s, 100 * MS, 90 * US, NONE);
	step(&s, 100 * MS, 90 * US, NONE);
	assert_int_equal(s.dev.poll_limit_ns, 100 * US);
	idletrace_sim_destroy(&s);
}

/* ---- tunables ---- */

static void expect_init_error(const char *gov, const char *set, const char *needle)
{
	struct idletrace_sim s;
	struct machine m = hsw();
	struct idletrace_config cfg = { .governor = gov, .tick_policy = TICK_GOVERNOR, .hz = 250,
					.sets = &set, .nsets = set ? 1 : 0 };
	struct pm_diag d = { { 0 } };
	assert_int_equal(idletrace_sim_init(&s, &m, &cfg, &d), -1);
	if (!strstr(d.msg, needle))
		fail_msg("'%s' lacks '%s'", d.msg, needle);
	idletrace_sim_destroy(&s);
}

static void test_tunables(void **state)
{
	expect_init_error("ladder", "ladder_promotion_count=0", "out of range (expected 1..1000000)");
	expect_init_error("menu", "menu_iowait_mult=1001", "out of range (expected 0..1000)");
	expect_init_error("menu", "menu_iowait_mult=x", "not an integer");
	expect_init_error("haltpoll", "guest_halt_poll_allow_shrink=2", "expected 0..1");
	expect_init_error("haltpoll", "guest_halt_poll_ns=-1", "out of range");
	expect_init_error("menu", "bogus=1", "unknown key 'bogus' (expected a menu tunable: "
					    "menu_iowait_mult, menu_variant)");
	expect_init_error("teo", "menu_iowait_mult=1", "teo has no tunables");
	expect_init_error("menu", "novalue", "expected KEY=VALUE");
	expect_init_error("nosuch", NULL, "unknown cpuidle governor 'nosuch'");

	/* Defaults as documented, and a valid write lands. */
	struct idletrace_sim s;
	start(&s, "haltpoll", TICK_GOVERNOR);
	const struct haltpoll_data *h = s.dev.gov_data;
	assert_int_equal(h->guest_halt_poll_ns, 200000);
	assert_int_equal(h->guest_halt_poll_shrink, 2);
	assert_int_equal(h->guest_halt_poll_grow, 2);
	assert_int_equal(h->guest_halt_poll_grow_start, 50000);
	assert_int_equal(h->guest_halt_poll_allow_shrink, 1);
	idletrace_sim_destroy(&s);
	start(&s, "ladder", TICK_GOVERNOR);
	const struct ladder_data *l = s.dev.gov_data;
	assert_int_equal(l->promotion_count, 4);
	assert_int_equal(l->demotion_count, 1);
	assert_int_equal(l->st[C1].promotion_count, 4);
	assert_int_equal(l->st[C6].promotion_time_ns, 0); /* deepest: never promotes */
	assert_int_equal(l->st[C1].demotion_time_ns, 0);  /* first rung: never demotes */
	assert_int_equal(l->st[C1E].demotion_time_ns, 10 * US);
	idletrace_sim_destroy(&s);
	start(&s, "menu", TICK_GOVERNOR);
	assert_int_equal(((const struct menu_data *)s.dev.gov_data)->iowait_mult, 0);
	idletrace_sim_destroy(&s);
}

/* ---- properties ---- */

static const char *const all_governors[] = { "deepest", "menu", "teo", "ladder", "haltpoll" };
static const enum tick_policy all_policies[] = { TICK_LEGACY, TICK_GOVERNOR, TICK_PERIODIC };
static const sim_ns mixed_idle[] = { 3 * US, 50 * MS, 250 * US, 1 * MS, 17 * US, 20 * MS };

static void test_latency_zero_polls(void **state)
{
	for (size_t g = 0; g < 5; g++) {
		for (size_t p = 0; p < 3; p++) {
			struct idletrace_sim s;
			start(&s, all_governors[g], all_policies[p]);
			for (int i = 0; i < 30; i++) {
				struct idletrace_step st = step(&s, 100 * MS, mixed_idle[i % 6], 0);
				if (st.state != POLL)
					fail_msg("%s: row %d chose %d", all_governors[g], i, st.state);
			}
			idletrace_sim_destroy(&s);
		}
	}
}

static void test_long_idle_goes_deep(void **state)
{
	const char *const govs[] = { "menu", "teo" };
	for (int g = 0; g < 2; g++) {
		struct idletrace_sim s;
		start(&s, govs[g], TICK_GOVERNOR);
		for (int i = 0; i < 40; i++) {
			struct idletrace_step st = step(&s, 100 * MS, 50 * MS, NONE);
			if (i >= 2 && (st.state != C6 || !st.tick_stopped))
				fail_msg("%s: row %d: state %d tick stopped %d", govs[g], i, st.state,
					 st.tick_stopped);
		}
		idletrace_sim_destroy(&s);
	}
}

static void test_short_idle_keeps_tick(void **state)
{
	/* 250 us idles, the timer 100 ms away: once learnt, the tick stays. */
	const char *const govs[] = { "menu", "teo" };
	for (int g = 0; g < 2; g++) {
		struct idletrace_sim s;
		start(&s, govs[g], TICK_GOVERNOR);
		for (int i = 0; i < 60; i++) {
			struct idletrace_step st = step(&s, 100 * MS, 250 * US, NONE);
			if (i >= 10 && (st.tick_stopped || st.state == C6))
				fail_msg("%s: row %d: state %d tick stopped %d", govs[g], i, st.state,
					 st.tick_stopped);
		}
		idletrace_sim_destroy(&s);
	}
}

static void test_tick_policies(void **state)
{
	for (size_t g = 0; g < 5; g++) {
		struct idletrace_sim s;
		/* legacy: stopped before select, whatever the governor says. */
		start(&s, all_governors[g], TICK_LEGACY);
		for (int i = 0; i < 24; i++)
			assert_true(step(&s, 100 * MS, mixed_idle[i % 6], NONE).tick_stopped);
		idletrace_sim_destroy(&s);
		/* periodic: never stopped; each period ends at the next tick at
		 * the latest. 10 ms idles from tick boundaries: 4 ms each. */
		start(&s, all_governors[g], TICK_PERIODIC);
		for (int i = 0; i < 12; i++) {
			struct idletrace_step st = step(&s, 100 * MS, 10 * MS, NONE);
			assert_false(st.tick_stopped);
			if (st.state != POLL) {
				assert_true(st.tick_wakeup);
				assert_int_equal(st.residency_ns, TICK_250);
			}
		}
		idletrace_sim_destroy(&s);
	}
}

/* ---- the harness ---- */

static void test_harness_model(void **state)
{
	struct idletrace_sim s;
	struct idletrace_step st;

	/* The timer ends the period at the latest. */
	start(&s, "deepest", TICK_LEGACY);
	st = step(&s, 1 * MS, 5 * MS, NONE);
	assert_int_equal(st.residency_ns, 1 * MS);
	assert_false(st.tick_wakeup);
	idletrace_sim_destroy(&s);

	/* Ticks on the 4 ms grid: 3 ms from 0; then the tick at 4 ms cuts the
	 * next 3 ms to 1 ms; back on the grid, 3 ms again. A tick exactly at
	 * the wakeup is not the cause of it. */
	start(&s, "deepest", TICK_PERIODIC);
	st = step(&s, 100 * MS, 3 * MS, NONE);
	assert_int_equal(st.residency_ns, 3 * MS);
	st = step(&s, 100 * MS, 3 * MS, NONE);
	assert_int_equal(st.residency_ns, 1 * MS);
	assert_true(st.tick_wakeup);
	st = step(&s, 100 * MS, 4 * MS, NONE);
	assert_int_equal(st.residency_ns, 4 * MS);
	assert_false(st.tick_wakeup);
	assert_int_equal(s.dev.stats[C6].usage, 3);
	assert_int_equal(s.dev.stats[C6].time, 8 * MS);
	idletrace_sim_destroy(&s);

	/* A polling state spins at most cpuidle_poll_time(): 20 us here. */
	start(&s, "menu", TICK_GOVERNOR);
	st = step(&s, 100 * MS, 100 * US, 0);
	assert_int_equal(st.state, POLL);
	assert_true(st.poll_timeout);
	assert_int_equal(st.residency_ns, 20 * US);
	assert_int_equal(st.miss, CPUIDLE_BELOW); /* 20 us would have fitted C1 */
	idletrace_sim_destroy(&s);
}

/* ---- the CSV reader ---- */

static int parse(struct idletrace *t, const char *text, struct pm_diag *d)
{
	return idletrace_parse(t, text, strlen(text), "trace.csv", d);
}

static void test_csv(void **state)
{
	struct idletrace t;
	struct pm_diag d = { { 0 } };
	const char *good = "# a comment\r\n\n next_timer_us , idle_us,latency_limit_us\r\n"
			   "1.5, 2.25 ,\n# more\n3,4,0\n1000000000000,0.001,7";
	assert_int_equal(parse(&t, good, &d), 0);
	assert_int_equal(t.nrows, 3);
	assert_int_equal(t.rows[0].next_timer_ns, 1500);
	assert_int_equal(t.rows[0].idle_ns, 2250);
	assert_int_equal(t.rows[0].latency_limit_ns, SIM_NS_MAX);
	assert_int_equal(t.rows[0].line, 4);
	assert_int_equal(t.rows[1].latency_limit_ns, 0);
	assert_int_equal(t.rows[1].line, 6);
	assert_int_equal(t.rows[2].next_timer_ns, INT64_C(1000000000000000));
	assert_int_equal(t.rows[2].idle_ns, 1);
	idletrace_free(&t);

	assert_int_equal(parse(&t, "next_timer_us,idle_us\n", &d), 0);
	assert_int_equal(t.nrows, 0);
	idletrace_free(&t);

	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "trace.csv:1: no header (expected next_timer_us,idle_us[,latency_limit_us])" },
		{ "idle_us,next_timer_us\n", "trace.csv:1: header 'idle_us,next_timer_us'" },
		{ "next_timer_us,idle_us\n1,2\nabc,3\n", "trace.csv:3: next_timer_us 'abc': not a number" },
		{ "next_timer_us,idle_us\n1,-5\n", "trace.csv:2: idle_us '-5': negative" },
		{ "next_timer_us,idle_us\n1,2,3\n", "trace.csv:2: 3 fields (expected 2" },
		{ "next_timer_us,idle_us\n1\n", "trace.csv:2: 1 fields (expected 2" },
		{ "next_timer_us,idle_us\n1,2,3,4,5\n", "trace.csv:2: more than 3 fields" },
		{ "next_timer_us,idle_us\n1.2345,2\n", "at most 3 decimals" },
		{ "next_timer_us,idle_us\n1.,2\n", "not a number" },
		{ "next_timer_us,idle_us\n+1,2\n", "not a number" },
		{ "next_timer_us,idle_us\n1000000000001,2\n", "too large" },
		{ "next_timer_us,idle_us\n1000000000000.001,2\n", "too large" },
		{ "next_timer_us,idle_us,latency_limit_us\n1,2,-1\n", "latency_limit_us '-1': negative" },
		{ "next_timer_us,idle_us\n1, \n", "trace.csv:2: idle_us '': not a number" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&t, bad[i].text, &d), -1);
		if (!strstr(d.msg, bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, d.msg, bad[i].msg);
		assert_null(t.rows);
	}
	/* A NUL byte inside the text is an error, not the end of it. */
	assert_int_equal(idletrace_parse(&t, "next_timer_us,idle_us\n1,2\0\n", 26, "x", &d), -1);
	assert_non_null(strstr(d.msg, "x:2: NUL byte"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poll_time),
		cmocka_unit_test(test_deepest_per_limit),
		cmocka_unit_test(test_deepest_blind),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_record_exit_kept),
		cmocka_unit_test(test_menu_buckets),
		cmocka_unit_test(test_menu_v3_10_buckets),
		cmocka_unit_test(test_menu_v3_10_loadavg),
		cmocka_unit_test(test_menu_v3_10_typical_interval),
		cmocka_unit_test(test_menu_v3_10_typical_one_scan),
		cmocka_unit_test(test_menu_v3_10_select),
		cmocka_unit_test(test_menu_v3_10_disabled_states),
		cmocka_unit_test(test_menu_v3_10_typical_kept),
		cmocka_unit_test(test_menu_v3_10_update),
		cmocka_unit_test(test_menu_v3_10_rejects_iowait_mult),
		cmocka_unit_test(test_menu_v3_10_no_poll_state),
		cmocka_unit_test(test_menu_correction_factor),
		cmocka_unit_test(test_menu_update_rules),
		cmocka_unit_test(test_menu_typical_interval),
		cmocka_unit_test(test_menu_typical_interval_cache),
		cmocka_unit_test(test_menu_typical_interval_learned),
		cmocka_unit_test(test_menu_typical_kept),
		cmocka_unit_test(test_menu_timer_us),
		cmocka_unit_test(test_menu_select),
		cmocka_unit_test(test_menu_walk_kept),
		cmocka_unit_test(test_menu_walk_stop_kept),
		cmocka_unit_test(test_menu_state0_early),
		cmocka_unit_test(test_menu_tick_rules),
		cmocka_unit_test(test_menu_polling_rules),
		cmocka_unit_test(test_menu_iowait_variant),
		cmocka_unit_test(test_teo_hits_and_intercepts),
		cmocka_unit_test(test_teo_artificial_wakeups),
		cmocka_unit_test(test_teo_select),
		cmocka_unit_test(test_teo_first_selection),
		cmocka_unit_test(test_ladder_promotion_demotion),
		cmocka_unit_test(test_ladder_mainline_wrap),
		cmocka_unit_test(test_ladder_latency),
		cmocka_unit_test(test_haltpoll_window),
		cmocka_unit_test(test_haltpoll_tunables),
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_latency_zero_polls),
		cmocka_unit_test(test_long_idle_goes_deep),
		cmocka_unit_test(test_short_idle_keeps_tick),
		cmocka_unit_test(test_tick_policies),
		cmocka_unit_test(test_harness_model),
		cmocka_unit_test(test_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
