// SPDX-License-Identifier: GPL-2.0-only
/* The frequency governors driven through the trace harness (govtrace.c),
 * one rule per test. Every expected frequency is derived by hand in the
 * comment above it from the kernel's formulas, not taken from a run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cpufreq/govtrace.h"
#include "cpufreq/hookcost.h"

/* Five entries 0.5 GHz apart: 1.0 .. 3.0 GHz. */
static const uint32_t T5[] = { 1000000, 1500000, 2000000, 2500000, 3000000 };
/* Six entries 0.5 GHz apart from 0.5 GHz (schedutil). */
static const uint32_t S6[] = { 500000, 1000000, 1500000, 2000000, 2500000, 3000000 };
/* 100 MHz steps: 1.0 .. 3.0 GHz (conservative), 1.2 .. 3.6 GHz (intel_pstate). */
static uint32_t C21[21], P25[25];

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct tc {
	const char *gov;
	const uint32_t *freqs;
	int nfreqs;
	int hz;           /* 0: 1000 (1 ms ticks) */
	int ncpus;        /* 0: 1 */
	uint32_t base;    /* 0: the highest */
	int64_t lat_us;
	const char *sets[8];
	uint32_t scaling, lnl; /* perf_scaling_khz, lowest_nonlinear_khz */
	uint32_t epp_bp;       /* epp_balance_perf */
};

static int fill_tables(void **state)
{
	for (int i = 0; i < N(C21); i++)
		C21[i] = 1000000 + 100000 * (uint32_t)i;
	for (int i = 0; i < N(P25); i++)
		P25[i] = 1200000 + 100000 * (uint32_t)i;
	return 0;
}

static struct govtrace_config config(const struct tc *c)
{
	int nsets = 0;
	while (nsets < 8 && c->sets[nsets])
		nsets++;
	return (struct govtrace_config){
		.governor = c->gov, .sets = c->sets, .nsets = nsets, .freqs = c->freqs,
		.nfreqs = c->nfreqs, .base_khz = c->base, .hz = c->hz ? c->hz : 1000,
		.transition_latency_us = c->lat_us, .ncpus = c->ncpus ? c->ncpus : 1,
		.perf_scaling_khz = c->scaling, .lowest_nonlinear_khz = c->lnl,
		.epp_balance_perf = c->epp_bp,
	};
}

static struct govtrace *open_trace(const struct tc *c)
{
	struct govtrace_config cfg = config(c);
	struct pm_diag d = { { 0 } };
	struct govtrace *g;
	if (govtrace_create(&g, &cfg, &d) < 0)
		fail_msg("govtrace_create(%s): %s", c->gov, d.msg);
	return g;
}

/* The message govtrace_create() fails with, or fails the test if it works. */
static const char *create_fails(const struct tc *c)
{
	static struct pm_diag d;
	struct govtrace_config cfg = config(c);
	struct govtrace *g;
	d.msg[0] = '\0';
	if (govtrace_create(&g, &cfg, &d) == 0) {
		govtrace_destroy(g);
		fail_msg("govtrace_create(%s) accepted what it should reject", c->gov);
	}
	return d.msg;
}

static void row(struct govtrace *g, int cpu, const struct govtrace_row *r)
{
	struct pm_diag d = { { 0 } };
	if (govtrace_step(g, cpu, r, &d) < 0)
		fail_msg("govtrace_step: %s", d.msg);
}

/* A hook call at t after busy/iowait/idle us on `cpu`. */
static void at(struct govtrace *g, int cpu, int64_t t, int64_t busy, int64_t iowait, int64_t idle)
{
	row(g, cpu, &(struct govtrace_row){ .t_us = t, .busy_us = busy, .iowait_us = iowait,
					    .idle_us = idle, .util = -1, .uclamp_max = 1024 });
}

/* The same with a utilization, clamps and hook flags (schedutil). */
static void at_util(struct govtrace *g, int cpu, int64_t t, int64_t busy, int64_t idle, int util,
		    int umin, int umax, unsigned flags)
{
	row(g, cpu, &(struct govtrace_row){ .t_us = t, .busy_us = busy, .idle_us = idle,
					    .util = util, .uclamp_min = umin, .uclamp_max = umax,
					    .flags = flags });
}

/* Hook calls every `every` us in (from, to], each after busy, then idle. */
static void every(struct govtrace *g, int64_t from, int64_t to, int64_t every_us, int64_t busy,
		  int64_t idle)
{
	assert_int_equal(busy + idle, every_us);
	for (int64_t t = from + every_us; t <= to; t += every_us)
		at(g, 0, t, busy, 0, idle);
}

struct chg {
	int64_t t;
	uint32_t khz;
};

static void expect_changes(struct govtrace *g, const struct chg *want, size_t nwant)
{
	size_t n;
	const struct govtrace_change *got = govtrace_changes(g, &n);
	bool same = n == nwant;
	for (size_t i = 0; same && i < n; i++)
		same = got[i].t_us == want[i].t && got[i].khz == want[i].khz;
	if (same)
		return;
	for (size_t i = 0; i < n || i < nwant; i++)
		print_error("  %2zu: got %8lld %8u   want %8lld %8u\n", i,
			    i < n ? (long long)got[i].t_us : -1LL, i < n ? got[i].khz : 0,
			    i < nwant ? (long long)want[i].t : -1LL, i < nwant ? want[i].khz : 0);
	fail_msg("frequency changes differ");
}

#define EXPECT(g, ...)                                                                            \
	expect_changes(g, (const struct chg[]){ __VA_ARGS__ },                                     \
		       sizeof((const struct chg[]){ __VA_ARGS__ }) / sizeof(struct chg))

/* ---- the cpufreq core ---- */

static void test_relations(void **state)
{
	struct cpufreq_policy p = { .table = T5, .ntable = 5, .min = 1000000, .max = 3000000 };
	/* 1.6 GHz lies between 1.5 and 2.0 GHz. */
	assert_int_equal(cpufreq_resolve(&p, 1600000, RELATION_L), 2000000);
	assert_int_equal(cpufreq_resolve(&p, 1600000, RELATION_H), 1500000);
	assert_int_equal(cpufreq_resolve(&p, 1600000, RELATION_C), 1500000); /* 100 vs 400 MHz */
	assert_int_equal(cpufreq_resolve(&p, 1900000, RELATION_C), 2000000); /* 400 vs 100 MHz */
	assert_int_equal(cpufreq_resolve(&p, 1750000, RELATION_C), 1500000); /* tie: the lower */
	assert_int_equal(cpufreq_resolve(&p, 2000000, RELATION_L), 2000000);
	assert_int_equal(cpufreq_resolve(&p, 2000000, RELATION_H), 2000000);
	/* E: no inefficient entries in the model, so the same answers. */
	assert_int_equal(cpufreq_resolve(&p, 1600000, RELATION_LE), 2000000);
	assert_int_equal(cpufreq_resolve(&p, 1600000, RELATION_HE), 1500000);
	assert_int_equal(cpufreq_resolve(&p, 1750000, RELATION_CE), 1500000);
	/* Targets are clamped to [min, max] and entries outside are skipped. */
	p.min = 1500000;
	p.max = 2500000;
	assert_int_equal(cpufreq_resolve(&p, 100, RELATION_H), 1500000);
	assert_int_equal(cpufreq_resolve(&p, 9000000, RELATION_L), 2500000);
	/* Limits between entries: nothing at or below 1.2 GHz, so H takes the
	 * smallest candidate, as the kernel's "if none, the smallest". */
	p.min = 1200000;
	p.max = 2800000;
	assert_int_equal(cpufreq_resolve(&p, 1000000, RELATION_H), 1500000);
	assert_int_equal(cpufreq_resolve(&p, 3000000, RELATION_L), 2500000);
}

/* The targets that resolve (RELATION_L) to the same entry: above the next
 * in-range entry below, up to the entry; from 0 for the lowest in range,
 * any above for the highest; the target alone with no entry in range. */
static void test_resolve_low_span(void **state)
{
	struct cpufreq_policy p = { .table = T5, .ntable = 5, .min = 1000000, .max = 3000000 };
	uint32_t lo, hi;
	assert_int_equal(cpufreq_resolve_low_span(&p, 1600000, &lo, &hi), 2000000);
	assert_int_equal(lo, 1500001);
	assert_int_equal(hi, 2000000);
	assert_int_equal(cpufreq_resolve_low_span(&p, 2000000, &lo, &hi), 2000000);
	assert_int_equal(lo, 1500001);
	assert_int_equal(hi, 2000000);
	assert_int_equal(cpufreq_resolve_low_span(&p, 1000, &lo, &hi), 1000000);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 1000000);
	assert_int_equal(cpufreq_resolve_low_span(&p, 2600000, &lo, &hi), 3000000);
	assert_int_equal(lo, 2500001);
	assert_int_equal(hi, UINT32_MAX);
	/* Limits between entries: 1.5 GHz is the lowest in range, 2.5 GHz
	 * the highest (a target above 2.8 GHz is clamped to it, then has no
	 * entry at or above). */
	p.min = 1200000;
	p.max = 2800000;
	assert_int_equal(cpufreq_resolve_low_span(&p, 1100000, &lo, &hi), 1500000);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 1500000);
	assert_int_equal(cpufreq_resolve_low_span(&p, 2900000, &lo, &hi), 2500000);
	assert_int_equal(lo, 2000001);
	assert_int_equal(hi, UINT32_MAX);
	/* No entry in range: the clamped target, for the target alone. */
	p.min = 2100000;
	p.max = 2400000;
	assert_int_equal(cpufreq_resolve_low_span(&p, 2200000, &lo, &hi), 2200000);
	assert_int_equal(lo, 2200000);
	assert_int_equal(hi, 2200000);
}

static void test_transition_delay(void **state)
{
	/* v6.12+: driver delay, else latency + latency/2, else 1000 us. */
	struct cpufreq_policy p = { 0 };
	assert_int_equal(cpufreq_policy_transition_delay_us(&p), 1000);
	p.transition_latency_ns = 10 * NS_PER_US;
	assert_int_equal(cpufreq_policy_transition_delay_us(&p), 15);
	p.transition_latency_ns = 1 * NS_PER_US;
	assert_int_equal(cpufreq_policy_transition_delay_us(&p), 1);
	p.transition_delay_ns = 500 * NS_PER_US;
	assert_int_equal(cpufreq_policy_transition_delay_us(&p), 500);

	/* The history, for a 10 us latency (acpi-cpufreq's usual _PSS value)
	 * and a 3 ms one: 6.9-6.11 cap 1000 x L at 2 ms unless L is above
	 * 2 ms; 4.14-6.8 cap it at 10 ms; 4.7-4.13 (schedutil) do not cap. */
	static const struct {
		int kernel;
		uint32_t lat10, lat3000;
	} eras[] = { { 6012, 15, 4500 }, { 6011, 2000, 3000 }, { 6009, 2000, 3000 },
		     { 6008, 10000, 10000 }, { 4014, 10000, 10000 }, { 4013, 10000, 3000000 },
		     { 4007, 10000, 3000000 } };
	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++) {
		struct cpufreq_policy q = { .kernel = eras[i].kernel };
		q.transition_latency_ns = 10 * NS_PER_US;
		assert_int_equal(cpufreq_policy_transition_delay_us(&q), eras[i].lat10);
		q.transition_latency_ns = 3000 * NS_PER_US;
		assert_int_equal(cpufreq_policy_transition_delay_us(&q), eras[i].lat3000);
		q.transition_latency_ns = 0;
		assert_int_equal(cpufreq_policy_transition_delay_us(&q), 1000);
	}
}

/* ---- ondemand ---- */

static void test_ondemand_proportional_and_jump(void **state)
{
	struct govtrace *g = open_trace(&(struct tc){ "ondemand", T5, 5,
						      .sets = { "sampling_rate=10000" } });
	/* Start at 3 GHz. The first hook call samples at once (limits() after
	 * start clears the delay): load 3700/10000 = 37 % -> 1 GHz + 37 % of
	 * 2 GHz = 1.74 GHz, closest entry 1.5 GHz (240 vs 260 MHz away). */
	at(g, 0, 10000, 3700, 0, 6300);
	/* 5 ms later: not yet sampling_rate, no sample (else 100 % -> max). */
	at(g, 0, 15000, 5000, 0, 0);
	/* At 20 ms the window since 10 ms is all busy: 100 % > 95 -> 3 GHz. */
	at(g, 0, 20000, 5000, 0, 0);
	/* 96 % > 95: stays. */
	at(g, 0, 30000, 9600, 0, 400);
	/* 80 %: 1 GHz + 1.6 GHz = 2.6 GHz -> closest 2.5 GHz. */
	at(g, 0, 40000, 8000, 0, 2000);
	EXPECT(g, { 0, 3000000 }, { 10000, 1500000 }, { 20000, 3000000 }, { 40000, 2500000 });
	govtrace_destroy(g);
}

static void test_ondemand_io_is_busy_and_shared_max(void **state)
{
	/* 20 % -> 1.4 GHz -> 1.5 GHz; then a window of pure iowait: 100 % load
	 * with io_is_busy (-> 3 GHz), 0 % without (-> 1 GHz). */
	const char *io[2] = { "io_is_busy=0", "io_is_busy=1" };
	for (int busy = 0; busy < 2; busy++) {
		struct govtrace *g = open_trace(&(struct tc){
			"ondemand", T5, 5, .sets = { "sampling_rate=10000", io[busy] } });
		at(g, 0, 10000, 2000, 0, 8000);
		at(g, 0, 20000, 0, 10000, 0);
		if (busy)
			EXPECT(g, { 0, 3000000 }, { 10000, 1500000 }, { 20000, 3000000 });
		else
			EXPECT(g, { 0, 3000000 }, { 10000, 1500000 }, { 20000, 1000000 });
		govtrace_destroy(g);
	}
	/* Two CPUs on one clock: the policy load is the busier CPU's. CPU 1
	 * 60 %, CPU 0 20 % -> 60 % -> 2.2 GHz -> closest 2.0 GHz (a CPU-0-only
	 * view would give 1.5 GHz). */
	struct govtrace *g = open_trace(&(struct tc){ "ondemand", T5, 5, .ncpus = 2,
						      .sets = { "sampling_rate=10000" } });
	row(g, 1, &(struct govtrace_row){ .t_us = 10000, .busy_us = 6000, .idle_us = 4000,
					  .util = -1, .uclamp_max = 1024, .no_hook = true });
	at(g, 0, 10000, 2000, 0, 8000);
	EXPECT(g, { 0, 3000000 }, { 10000, 2000000 });
	govtrace_destroy(g);
}

static void test_ondemand_long_idle_reuses_load_once(void **state)
{
	struct govtrace *g = open_trace(&(struct tc){ "ondemand", T5, 5,
						      .sets = { "sampling_rate=2000" } });
	/* 100 % at max: nothing to do. Then 8 ms idle > 2 x 2 ms after a
	 * non-zero load: the pre-idle 100 % is reused once, so no change;
	 * the next long idle window (prev_load now 0) is measured: 0 % -> 1 GHz. */
	at(g, 0, 10000, 10000, 0, 0);
	at(g, 0, 18000, 0, 0, 8000);
	at(g, 0, 26000, 0, 0, 8000);
	EXPECT(g, { 0, 3000000 }, { 26000, 1000000 });
	govtrace_destroy(g);
}

/* The long-idle rule's boundary (dbs_update(), idle_time > 2 *
 * sampling_rate): a window of exactly twice the rate is an ordinary
 * sample, one microsecond more is a long idle. */
static void test_dbs_long_idle_boundary(void **state)
{
	/* ondemand, 2 ms: 4000 us of idle is measured (0 % -> 1 GHz); 4001 us
	 * reuse the pre-idle 100 %, so nothing changes. */
	struct govtrace *g = open_trace(&(struct tc){ "ondemand", T5, 5,
						      .sets = { "sampling_rate=2000" } });
	at(g, 0, 10000, 10000, 0, 0);
	at(g, 0, 14000, 0, 0, 4000);
	EXPECT(g, { 0, 3000000 }, { 14000, 1000000 });
	govtrace_destroy(g);
	g = open_trace(&(struct tc){ "ondemand", T5, 5, .sets = { "sampling_rate=2000" } });
	at(g, 0, 10000, 10000, 0, 0);
	at(g, 0, 14001, 0, 0, 4001);
	EXPECT(g, { 0, 3000000 });
	govtrace_destroy(g);

	/* conservative, 10 ms: exactly 2 x is measured and takes no catch-up
	 * steps: 0 % -> one step down, 3 GHz - 150 MHz -> LE -> 2.9 GHz. 3 x
	 * reuses the 100 % after three catch-up steps: 3 GHz - 450 MHz, one
	 * step up: 2.7 GHz. */
	g = open_trace(&(struct tc){ "conservative", C21, 21, .sets = { "sampling_rate=10000" } });
	at(g, 0, 10000, 10000, 0, 0);
	at(g, 0, 30000, 0, 0, 20000);
	EXPECT(g, { 0, 3000000 }, { 30000, 2900000 });
	govtrace_destroy(g);
	g = open_trace(&(struct tc){ "conservative", C21, 21, .sets = { "sampling_rate=10000" } });
	at(g, 0, 10000, 10000, 0, 0);
	at(g, 0, 40000, 0, 0, 30000);
	EXPECT(g, { 0, 3000000 }, { 40000, 2700000 });
	govtrace_destroy(g);
}

/* Thresholds are strict, as in the kernel: a load equal to ondemand's
 * up_threshold scales, equal to conservative's thresholds stays. */
static void test_dbs_threshold_boundaries(void **state)
{
	/* ondemand, up_threshold 50: 37 % -> 1.74 -> closest 1.5 GHz; exactly
	 * 50 % -> 1 GHz + 50 % of 2 GHz = 2 GHz, not the jump to max. */
	struct govtrace *g = open_trace(&(struct tc){ "ondemand", T5, 5,
						      .sets = { "sampling_rate=10000", "up_threshold=50" } });
	at(g, 0, 10000, 3700, 0, 6300);
	at(g, 0, 20000, 5000, 0, 5000);
	EXPECT(g, { 0, 3000000 }, { 10000, 1500000 }, { 20000, 2000000 });
	govtrace_destroy(g);

	/* conservative (up 80, down 20): 0 % -> 2.85 -> LE 2.9 GHz; then
	 * exactly 80 % and exactly 20 %: neither step. */
	g = open_trace(&(struct tc){ "conservative", C21, 21, .sets = { "sampling_rate=10000" } });
	at(g, 0, 10000, 0, 0, 10000);
	at(g, 0, 20000, 8000, 0, 2000);
	at(g, 0, 30000, 2000, 0, 8000);
	EXPECT(g, { 0, 3000000 }, { 10000, 2900000 });
	govtrace_destroy(g);

	/* conservative 3.10 (20-tick samples, down below 20 - 10): 0 % ->
	 * 2.85 -> H 2.8 GHz; exactly 10 % stays. */
	g = open_trace(&(struct tc){ "conservative", C21, 21, .sets = { "variant=3.10" } });
	at(g, 0, 10000, 0, 0, 10000);
	at(g, 0, 30000, 2000, 0, 18000);
	EXPECT(g, { 0, 3000000 }, { 10000, 2800000 });
	govtrace_destroy(g);
}

static void test_ondemand_sampling_down_factor(void **state)
{
	struct govtrace *g = open_trace(&(struct tc){
		"ondemand", T5, 5, .sets = { "sampling_rate=10000", "sampling_down_factor=3" } });
	/* 20 % -> 1.4 GHz -> 1.5 GHz. */
	at(g, 0, 10000, 2000, 0, 8000);
	/* 100 % from below max: rate_mult = 3, so the next sample is 30 ms on. */
	at(g, 0, 20000, 10000, 0, 0);
	/* Idle hook calls at 30 and 40 ms take no sample (with factor 1 the
	 * frequency would drop at 30 ms). */
	at(g, 0, 30000, 0, 0, 10000);
	at(g, 0, 40000, 0, 0, 10000);
	/* At 50 ms: 30 ms idle, not above 2 x 30 ms, so measured: 0 % -> 1 GHz. */
	at(g, 0, 50000, 0, 0, 10000);
	EXPECT(g, { 0, 3000000 }, { 10000, 1500000 }, { 20000, 3000000 }, { 50000, 1000000 });
	govtrace_destroy(g);
}

static void test_ondemand_powersave_bias(void **state)
{
	struct govtrace *g = open_trace(&(struct tc){
		"ondemand", T5, 5, .sets = { "sampling_rate=10000", "powersave_bias=100" } });
	/* Fully busy, hook calls every ms. Each sample asks for max, biased
	 * 10 %: 2.7 GHz, between 2.5 and 3.0 GHz. Time at 3.0 GHz per 10 ms
	 * period: (2.7-2.5)/(3.0-2.5) x 10000 = 4000 us (rounded), then 6000 us
	 * at 2.5 GHz. First sample at 1 ms (3 GHz already), sub-sample at 5 ms
	 * -> 2.5 GHz, next sample at 11 ms -> 3 GHz, and so on. */
	every(g, 0, 25000, 1000, 1000, 0);
	EXPECT(g, { 0, 3000000 }, { 5000, 2500000 }, { 11000, 3000000 }, { 15000, 2500000 },
	       { 21000, 3000000 }, { 25000, 2500000 });
	/* The average over one period is the biased target, 2.7 GHz. */
	size_t n;
	const struct govtrace_change *c = govtrace_changes(g, &n);
	uint64_t khz_us = (uint64_t)c[2].khz * (uint64_t)(c[3].t_us - c[2].t_us) +
			  (uint64_t)c[3].khz * (uint64_t)(c[4].t_us - c[3].t_us);
	assert_int_equal(khz_us / (uint64_t)(c[4].t_us - c[2].t_us), 2700000);
	govtrace_destroy(g);
}

/* The same three samples under the three decision rules (base 3 GHz). */
static void variant_run(const char *variant, const struct chg *want, size_t n)
{
	struct govtrace *g = open_trace(&(struct tc){
		"ondemand", T5, 5, .sets = { "sampling_rate=10000", variant } });
	at(g, 0, 10000, 4000, 0, 6000);
	at(g, 0, 20000, 8000, 0, 2000);
	at(g, 0, 30000, 9700, 0, 300);
	expect_changes(g, want, n);
	govtrace_destroy(g);
}

static void test_ondemand_variants(void **state)
{
	/* current: 40 % -> 1.8 GHz -> closest 2.0; 80 % -> 2.6 -> closest 2.5;
	 * 97 % -> max. */
	const struct chg current[] = { { 0, 3000000 }, { 10000, 2000000 }, { 20000, 2500000 },
				       { 30000, 3000000 } };
	variant_run("variant=current", current, 4);
	/* 3.11: f = load x 3 GHz / 100, lowest entry at or above: 40 % -> 1.2
	 * -> 1.5 GHz; 80 % -> 2.4 -> 2.5 GHz; 97 % > 95 -> max. */
	const struct chg v311[] = { { 0, 3000000 }, { 10000, 1500000 }, { 20000, 2500000 },
				    { 30000, 3000000 } };
	variant_run("variant=3.11", v311, 4);
	/* 3.10: load x average kHz (APERF/MPERF x base, 1/1024 steps) against
	 * thresholds x cur. 40 % at 3 GHz: 1.2e8 < 92 x 3e6 -> 1.2e8 / 92 =
	 * 1304347 -> 1.5 GHz. 80 % run at 1.5 GHz: 80 x 1.5e6 = 1.2e8 <
	 * 92 x 1.5e6 = 1.38e8 -> 1304347 -> 1.5 GHz, no change (the other rules
	 * see 80 % and go to 2.5 GHz). 97 % at 1.5 GHz: 1.455e8 > 95 x 1.5e6 =
	 * 1.425e8 -> max. */
	const struct chg v310[] = { { 0, 3000000 }, { 10000, 1500000 }, { 30000, 3000000 } };
	variant_run("variant=3.10", v310, 3);

	/* 3.10's hysteresis: lower only below (95 - 3) x cur. At 3 GHz, 93 %
	 * is between 92 and 95: stays (lowering by 95 would give 2.79e8 / 95 =
	 * 2936842 -> 2.95 GHz). 90 %: 2.7e8 / 92 = 2934782 -> 2.95 GHz. */
	static const uint32_t fine[] = { 1000000, 2950000, 3000000 };
	struct govtrace *g = open_trace(&(struct tc){
		"ondemand", fine, 3, .sets = { "sampling_rate=10000", "variant=3.10" } });
	at(g, 0, 10000, 9300, 0, 700);
	at(g, 0, 20000, 9000, 0, 1000);
	EXPECT(g, { 0, 3000000 }, { 20000, 2950000 });
	govtrace_destroy(g);
}

/* First sample at 1 ms (100 %, at max already), then idle hook calls every
 * ms: the drop to 1 GHz comes with the second sample, one sampling_rate on. */
static int64_t second_sample_at(const struct tc *c)
{
	struct govtrace *g = open_trace(c);
	at(g, 0, 1000, 1000, 0, 0);
	every(g, 1000, 200000, 1000, 0, 1000);
	size_t n;
	const struct govtrace_change *ch = govtrace_changes(g, &n);
	assert_int_equal(n, 2);
	assert_int_equal(ch[1].khz, 1000000);
	int64_t t = ch[1].t_us;
	govtrace_destroy(g);
	return t;
}

static void test_ondemand_sampling_rate_defaults_and_floor(void **state)
{
	/* v4.15+: max(2 ticks, transition delay). HZ=250: 8 ms; HZ=1000: 2 ms;
	 * latency 10 ms at HZ=250: delay 15 ms. */
	assert_int_equal(second_sample_at(&(struct tc){ "ondemand", T5, 5, .hz = 250 }), 9000);
	assert_int_equal(second_sample_at(&(struct tc){ "ondemand", T5, 5, .hz = 1000 }), 3000);
	assert_int_equal(second_sample_at(&(struct tc){ "ondemand", T5, 5, .hz = 250,
							 .lat_us = 10000 }), 16000);
	/* Before v4.15: max(10 ms, 20 x latency) at least, default 1000 x
	 * latency (latency 0 counts as 1 us): 10 ms; with 50 us, 50 ms. */
	assert_int_equal(second_sample_at(&(struct tc){ "ondemand", T5, 5, .hz = 250,
							 .sets = { "variant=3.10" } }), 11000);
	assert_int_equal(second_sample_at(&(struct tc){ "ondemand", T5, 5, .hz = 250, .lat_us = 50,
							 .sets = { "variant=3.10" } }), 51000);
	/* ... and a write below the floor was raised to it, not rejected. */
	assert_int_equal(second_sample_at(&(struct tc){
				 "ondemand", T5, 5, .hz = 250,
				 .sets = { "variant=3.10", "sampling_rate=5000" } }), 11000);
	/* v4.15+ rejects less than two ticks. */
	assert_non_null(strstr(create_fails(&(struct tc){ "ondemand", T5, 5, .hz = 250,
							   .sets = { "sampling_rate=7999" } }),
			       "8000"));
	assert_non_null(strstr(create_fails(&(struct tc){ "conservative", T5, 5, .hz = 1000,
							   .sets = { "sampling_rate=1999" } }),
			       "2000"));
	assert_int_equal(second_sample_at(&(struct tc){ "ondemand", T5, 5, .hz = 250,
							 .sets = { "sampling_rate=8000" } }), 9000);
}

/* The cpufreq-bench README's aliasing: 50 ms busy / 50 ms idle, sampled
 * every 50 ms mid-phase, every sample sees 50 % and the frequency never
 * reaches max. Hook calls every ms in both phases (a periodic tick). */
static void square_wave(struct govtrace *g, int64_t busy_from, int64_t end)
{
	for (int64_t t = 51000; t <= end; t += 1000) {
		int64_t phase = (t - 1000 - busy_from) % 100000;
		bool busy = phase >= 0 && phase < 50000;
		at(g, 0, t, busy ? 1000 : 0, 0, busy ? 0 : 1000);
	}
}

static void test_ondemand_cpufreq_bench_aliasing(void **state)
{
	/* Busy in [25, 75) ms of every 100 ms; the first hook call at 50 ms
	 * covers 25 ms idle and 25 ms busy. Samples at 50, 100, 150 ... ms
	 * each see 25 ms busy + 25 ms idle: 50 % -> 1 + 1 = 2 GHz, never 3. */
	struct govtrace *g = open_trace(&(struct tc){ "ondemand", T5, 5,
						      .sets = { "sampling_rate=50000" } });
	at(g, 0, 50000, 25000, 0, 25000);
	square_wave(g, 25000, 2000000);
	EXPECT(g, { 0, 3000000 }, { 50000, 2000000 });
	govtrace_destroy(g);

	/* The same wave in phase with the samples (busy in [0, 50) ms): each
	 * sample sees 100 % or 0 %, and the frequency swings to max and back. */
	g = open_trace(&(struct tc){ "ondemand", T5, 5, .sets = { "sampling_rate=50000" } });
	at(g, 0, 50000, 50000, 0, 0);
	square_wave(g, 0, 200000);
	EXPECT(g, { 0, 3000000 }, { 100000, 1000000 }, { 150000, 3000000 }, { 200000, 1000000 });
	govtrace_destroy(g);
}

/* ---- conservative ---- */

static void test_conservative_steps(void **state)
{
	/* freq_step 5 % of 3 GHz = 150 MHz on a 100 MHz table; requested_freq
	 * is kept in kHz. Down (LE, lowest entry at or above): 2.85 -> 2.9,
	 * 2.70 -> 2.7, 2.55 -> 2.6 GHz. Up (HE, highest at or below): 2.70 ->
	 * 2.7, 2.85 -> 2.8 GHz. 50 % is between the thresholds: nothing. */
	struct govtrace *g = open_trace(&(struct tc){ "conservative", C21, 21,
						      .sets = { "sampling_rate=10000" } });
	every(g, 0, 30000, 10000, 0, 10000);
	every(g, 30000, 50000, 10000, 10000, 0);
	every(g, 50000, 60000, 10000, 5000, 5000);
	EXPECT(g, { 0, 3000000 }, { 10000, 2900000 }, { 20000, 2700000 }, { 30000, 2600000 },
	       { 40000, 2700000 }, { 50000, 2800000 });
	govtrace_destroy(g);

	/* freq_step 10: 300 MHz steps: 2.7, 2.4, then up to 2.7 GHz. */
	g = open_trace(&(struct tc){ "conservative", C21, 21,
				     .sets = { "sampling_rate=10000", "freq_step=10" } });
	every(g, 0, 20000, 10000, 0, 10000);
	every(g, 20000, 30000, 10000, 10000, 0);
	EXPECT(g, { 0, 3000000 }, { 10000, 2700000 }, { 20000, 2400000 }, { 30000, 2700000 });
	govtrace_destroy(g);

	/* freq_step 0 freezes the frequency. */
	g = open_trace(&(struct tc){ "conservative", C21, 21,
				     .sets = { "sampling_rate=10000", "freq_step=0" } });
	every(g, 0, 100000, 10000, 0, 10000);
	EXPECT(g, { 0, 3000000 });
	govtrace_destroy(g);

	/* freq_step above 100 acts as 100 (the kernel clamps the write): one
	 * step covers the range, 3 GHz - 3 GHz -> min, then back to max. */
	g = open_trace(&(struct tc){ "conservative", C21, 21,
				     .sets = { "sampling_rate=10000", "freq_step=150" } });
	every(g, 0, 10000, 10000, 0, 10000);
	every(g, 10000, 20000, 10000, 10000, 0);
	EXPECT(g, { 0, 3000000 }, { 10000, 1000000 }, { 20000, 3000000 });
	govtrace_destroy(g);
}

static void test_conservative_sampling_down_factor(void **state)
{
	/* Down steps only every second sample below down_threshold. */
	struct govtrace *g = open_trace(&(struct tc){
		"conservative", C21, 21,
		.sets = { "sampling_rate=10000", "sampling_down_factor=2" } });
	every(g, 0, 40000, 10000, 0, 10000);
	EXPECT(g, { 0, 3000000 }, { 20000, 2900000 }, { 40000, 2700000 });
	govtrace_destroy(g);
}

static void test_conservative_idle_catch_up(void **state)
{
	struct govtrace *g = open_trace(&(struct tc){ "conservative", C21, 21,
						      .sets = { "sampling_rate=10000" } });
	/* 100 % at max: nothing. Then 100 ms idle: 10 sampling periods, so
	 * requested 3 GHz - 10 x 150 MHz = 1.5 GHz; the load is the reused
	 * pre-idle 100 %, so one step up: 1.65 GHz -> HE -> 1.6 GHz. Next
	 * busy sample: 1.8 GHz. */
	at(g, 0, 10000, 10000, 0, 0);
	at(g, 0, 110000, 0, 0, 100000);
	at(g, 0, 120000, 10000, 0, 0);
	EXPECT(g, { 0, 3000000 }, { 110000, 1600000 }, { 120000, 1800000 });
	govtrace_destroy(g);
}

static void test_conservative_v3_10(void **state)
{
	/* 3.10: sampling_rate default 20 ticks = 20 ms at HZ=1000; down only
	 * below 20 - 10 = 10 %, relation H both ways. Samples at 10, 30, 50,
	 * 70 ms: 0 % -> 2.85 -> 2.8 GHz; 0 % -> 2.7 GHz; 100 % -> 2.85 -> 2.8;
	 * 15 % -> nothing (current conservative would step down). */
	struct govtrace *g = open_trace(&(struct tc){ "conservative", C21, 21,
						      .sets = { "variant=3.10" } });
	every(g, 0, 30000, 10000, 0, 10000);
	every(g, 30000, 50000, 10000, 10000, 0);
	every(g, 50000, 70000, 10000, 1500, 8500);
	EXPECT(g, { 0, 3000000 }, { 10000, 2800000 }, { 30000, 2700000 }, { 50000, 2800000 });
	govtrace_destroy(g);
}

/* ---- schedutil ---- */

static struct govtrace *sugov(const char *set1, const char *set2)
{
	return open_trace(&(struct tc){ "schedutil", S6, 6, .hz = 250, .sets = { set1, set2 } });
}

static void test_schedutil_headroom(void **state)
{
	/* f = 3 GHz x (util + util/4) / 1024, lowest entry at or above:
	 * 512 -> 640 -> 1875000 -> 2.0 GHz (1.5 GHz without the headroom);
	 * 400 -> 500 -> 1464843 -> 1.5; 820 -> 1025, capped at 1024 -> 3.0;
	 * 600 -> 750 -> 2197265 -> 2.5; 260 -> 325 -> 952148 -> 1.0 GHz.
	 * Each call follows some idle, so the busy hold never applies. */
	struct govtrace *g = sugov("rate_limit_us=0", NULL);
	const int util[] = { 512, 400, 820, 600, 260 };
	for (int i = 0; i < 5; i++)
		at_util(g, 0, 1000 * (i + 1), 500, 500, util[i], 0, 1024, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 2000000 }, { 2000, 1500000 }, { 3000, 3000000 },
	       { 4000, 2500000 }, { 5000, 1000000 });
	govtrace_destroy(g);
}

static void test_schedutil_not_invariant(void **state)
{
	/* Without invariance util is relative to cur and the reference is
	 * 1.25 x cur. At 3 GHz, util 400 -> 500 -> 3.75 GHz x 500 / 1024 =
	 * 1831054 -> 2.0 GHz (invariant: 1.5 GHz). At 2 GHz the same work
	 * shows as 400 x 3/2 = 600 -> 750 -> 2.5 GHz x 750 / 1024 -> 2.0 GHz,
	 * stable. util 800 at 2 GHz: 1200, capped 1024 -> 2.5 GHz. */
	struct govtrace *g = sugov("rate_limit_us=0", "freq_invariant=0");
	at_util(g, 0, 1000, 500, 500, 400, 0, 1024, 0);
	at_util(g, 0, 2000, 500, 500, 400, 0, 1024, 0);
	at_util(g, 0, 3000, 500, 500, 800, 0, 1024, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 2000000 }, { 3000, 2500000 });
	govtrace_destroy(g);
}

/* variant=4.7 (kernels 4.7-6.7): uclamp first, then 1.25 x the reference
 * (max, or cur without invariance). Invariant, util 512 with uclamp_max
 * 300: 300 -> 3.75 GHz x 300 / 1024 = 1098632 -> 1.5 GHz, where today's
 * rule caps the headroomed 640 at 300 -> 3 GHz x 300 / 1024 -> 1.0 GHz.
 * Not invariant, at 3 GHz (raw = invariant util there), util 400 ->
 * 3.75 GHz x 400 / 1024 = 1464843 -> 1.5 GHz, where today's 1.25 x cur
 * reference on the headroomed 500 gives 2.0 GHz. */
static void test_schedutil_v4_7(void **state)
{
	struct govtrace *g = sugov("rate_limit_us=0", "variant=4.7");
	at_util(g, 0, 1000, 500, 500, 512, 0, 300, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 1500000 });
	govtrace_destroy(g);
	g = sugov("rate_limit_us=0", NULL);
	at_util(g, 0, 1000, 500, 500, 512, 0, 300, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 1000000 });
	govtrace_destroy(g);
	g = open_trace(&(struct tc){ "schedutil", S6, 6, .hz = 250,
				     .sets = { "rate_limit_us=0", "variant=4.7", "freq_invariant=0" } });
	at_util(g, 0, 1000, 500, 500, 400, 0, 1024, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 1500000 });
	govtrace_destroy(g);
	/* The kernel's rules: before v6.8 this variant. */
	const struct cpufreq_governor *su = cpufreq_governor_find("schedutil");
	assert_string_equal(su->kernel_rules(6007), "variant=4.7");
	assert_null(su->kernel_rules(6008));
}

static void test_schedutil_rate_limit(void **state)
{
	struct govtrace *g = sugov("rate_limit_us=5000", NULL);
	/* 1 ms: first evaluation (limits changed) -> 2.0 GHz. */
	at_util(g, 0, 1000, 500, 500, 512, 0, 1024, 0);
	/* 2..5 ms: want 3 GHz, but within 5 ms of the last change. 6 ms: 3 GHz. */
	for (int t = 2000; t <= 6000; t += 1000)
		at_util(g, 0, t, 500, 500, 820, 0, 1024, 0);
	/* Down to 1 GHz at 11 ms, not before. */
	for (int t = 7000; t <= 11000; t += 1000)
		at_util(g, 0, t, 500, 500, 260, 0, 1024, 0);
	/* 16 ms: evaluated, same frequency: the limit does not restart, so a
	 * new target at 17 ms passes (17 - 11 >= 5 ms). */
	at_util(g, 0, 16000, 5000, 0, 260, 0, 1024, 0);
	at_util(g, 0, 17000, 500, 500, 512, 0, 1024, 0);
	/* 18 ms, forced: ignores the limit and does not restart it, so 22 ms
	 * (5 ms after 17) may change again. */
	at_util(g, 0, 18000, 500, 500, 820, 0, 1024, CPUFREQ_UPDATE_FORCE);
	at_util(g, 0, 22000, 2000, 2000, 260, 0, 1024, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 2000000 }, { 6000, 3000000 }, { 11000, 1000000 },
	       { 17000, 2000000 }, { 18000, 3000000 }, { 22000, 1000000 });
	govtrace_destroy(g);

	/* Default: latency unknown -> 1000 us: 1.5 ms is too early, 2 ms not. */
	g = sugov(NULL, NULL);
	at_util(g, 0, 1000, 500, 500, 512, 0, 1024, 0);
	at_util(g, 0, 1500, 250, 250, 820, 0, 1024, 0);
	at_util(g, 0, 2000, 250, 250, 820, 0, 1024, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 2000000 }, { 2000, 3000000 });
	govtrace_destroy(g);
}

static void test_schedutil_busy_hold(void **state)
{
	struct govtrace *g = sugov("rate_limit_us=0", NULL);
	/* 1 ms: 3 GHz (as now). 2 ms: util 260 wants 1 GHz, but the CPU has
	 * not idled since the last evaluation: held. 3 ms: it idled: 1 GHz. */
	at_util(g, 0, 1000, 1000, 0, 820, 0, 1024, 0);
	at_util(g, 0, 2000, 1000, 0, 260, 0, 1024, 0);
	at_util(g, 0, 3000, 500, 500, 260, 0, 1024, 0);
	/* Raising is never held: 4 ms, util 900 -> 3 GHz. 5 ms, still busy,
	 * but uclamp_max 300 caps the CPU (util >= 300): no hold, 300 ->
	 * 878906 -> 1 GHz. */
	at_util(g, 0, 4000, 1000, 0, 900, 0, 1024, 0);
	at_util(g, 0, 5000, 1000, 0, 300, 0, 300, 0);
	EXPECT(g, { 0, 3000000 }, { 3000, 1000000 }, { 4000, 3000000 }, { 5000, 1000000 });
	govtrace_destroy(g);
}

static void test_schedutil_iowait_boost(void **state)
{
	/* HZ=250: a tick is 4 ms. util 0, so the boost alone sets the speed:
	 * boost b -> b + b/4 -> 3 GHz x that / 1024, lowest entry at or above.
	 * I/O wakeups each ms: 128 (0.47 GHz -> 0.5), 256 (0.94 -> 1.0), 512
	 * (1.875 -> 2.0), 1024 (-> 3.0), 1024. Then calls without: halves,
	 * 512, 256, 128 -> 2.0, 1.0, 0.5 GHz, then 64 < 128: off (0.5 GHz).
	 * Wakeups again at 10, 11, 12 ms: 128, 256, 512 -> 0.5, 1.0, 2.0 GHz.
	 * Next wakeup 5 ms later (> a tick): restart at 128 -> 0.5 GHz. */
	struct govtrace *g = sugov("rate_limit_us=0", NULL);
	for (int t = 1000; t <= 5000; t += 1000)
		at_util(g, 0, t, 500, 500, 0, 0, 1024, CPUFREQ_UPDATE_IOWAIT);
	for (int t = 6000; t <= 9000; t += 1000)
		at_util(g, 0, t, 500, 500, 0, 0, 1024, 0);
	for (int t = 10000; t <= 12000; t += 1000)
		at_util(g, 0, t, 500, 500, 0, 0, 1024, CPUFREQ_UPDATE_IOWAIT);
	at_util(g, 0, 17000, 2500, 2500, 0, 0, 1024, CPUFREQ_UPDATE_IOWAIT);
	EXPECT(g, { 0, 3000000 }, { 1000, 500000 }, { 2000, 1000000 }, { 3000, 2000000 },
	       { 4000, 3000000 }, { 6000, 2000000 }, { 7000, 1000000 }, { 8000, 500000 },
	       { 11000, 1000000 }, { 12000, 2000000 }, { 17000, 500000 });
	govtrace_destroy(g);
}

static void test_schedutil_uclamp(void **state)
{
	struct govtrace *g = sugov("rate_limit_us=0", NULL);
	/* util 100 with uclamp_min 512: max(512, 125) -> 1.5 GHz exactly (no
	 * clamp: 125 -> 366210 -> 0.5 GHz). util 1024 with uclamp_max 256:
	 * min(1280, 256) -> 750000 -> 1.0 GHz. No clamps: 3 GHz. */
	at_util(g, 0, 1000, 500, 500, 100, 512, 1024, 0);
	at_util(g, 0, 2000, 500, 500, 1024, 0, 256, 0);
	at_util(g, 0, 3000, 500, 500, 1024, 0, 1024, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 1500000 }, { 2000, 1000000 }, { 3000, 3000000 });
	govtrace_destroy(g);
}

static void test_schedutil_shared_policy(void **state)
{
	struct govtrace *g = open_trace(&(struct tc){ "schedutil", S6, 6, .hz = 250, .ncpus = 2,
						      .sets = { "rate_limit_us=0" } });
	/* CPU 0 alone (CPU 1 at 0): 200 -> 250 -> 732421 -> 1 GHz. Then CPU 1
	 * at 600: max(250, 750) -> 2197265 -> 2.5 GHz. CPU 0 drops to 100 at
	 * 2 ms, but CPU 1's 750 still rules. CPU 1 drops to 100 at 3 ms having
	 * never idled: shared policies have no busy hold: 125 -> 0.5 GHz. */
	at_util(g, 0, 1000, 500, 500, 200, 0, 1024, 0);
	at_util(g, 1, 1000, 500, 500, 600, 0, 1024, 0);
	at_util(g, 0, 2000, 1000, 0, 100, 0, 1024, 0);
	at_util(g, 1, 3000, 2000, 0, 100, 0, 1024, 0);
	EXPECT(g, { 0, 3000000 }, { 1000, 1000000 }, { 1000, 2500000 }, { 3000, 500000 });
	govtrace_destroy(g);
}

/* New limits void the span of targets kept for the last entry (schedutil
 * resolves from it while a target stays in it): util 600 -> 750 ->
 * 2197265 -> 2.5 GHz; capped at 2.0 GHz, the same target gives 2.0 GHz
 * (cur already moved there with the limits); the cap lifted, 2.5 GHz
 * again. The governor's kept state agrees with its inputs throughout. */
static void test_schedutil_limits_span(void **state)
{
	struct govtrace *g = open_trace(&(struct tc){ "schedutil", S6, 6, .hz = 250, .ncpus = 2,
						      .sets = { "rate_limit_us=0" } });
	struct cpufreq_policy *p = govtrace_policy(g);
	struct pm_diag d = { { 0 } };
	at_util(g, 0, 1000, 500, 500, 600, 0, 1024, 0);
	assert_true(p->gov->check(p));
	assert_int_equal(cpufreq_set_limits(p, 500000, 2000000, &d), 0);
	at_util(g, 0, 2000, 500, 500, 600, 0, 1024, 0);
	assert_true(p->gov->check(p));
	assert_int_equal(cpufreq_set_limits(p, 500000, 3000000, &d), 0);
	at_util(g, 0, 3000, 500, 500, 600, 0, 1024, 0);
	assert_true(p->gov->check(p));
	EXPECT(g, { 0, 3000000 }, { 1000, 2500000 }, { 1000, 2000000 }, { 3000, 2500000 });
	govtrace_destroy(g);
}

static void test_schedutil_needs_util(void **state)
{
	struct govtrace_config cfg = config(&(struct tc){ "schedutil", S6, 6, .hz = 250 });
	cfg.no_util = true;
	struct pm_diag d = { { 0 } };
	struct govtrace *g;
	assert_int_equal(govtrace_create(&g, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "util"));
}

/* ---- intel_pstate ---- */

static struct govtrace *pstate(const char *set1, const char *set2)
{
	/* Ratios 12 (1.2 GHz) .. 24 (base 2.4 GHz) .. 36 (turbo 3.6 GHz). */
	return open_trace(&(struct tc){ "intel_pstate", P25, 25, .base = 2400000,
					.sets = { set1, set2 } });
}

static void test_intel_pstate_target(void **state)
{
	struct govtrace *g = pstate(NULL, NULL);
	/* Starts at the minimum ratio 12. Samples every 10 ms; the first
	 * (10 ms) only primes the counters. 20 ms, 50 % busy at 1.2 GHz:
	 * busy_frac = MPERF/TSC = 128/256; target (36 + 9) x 128 >> 8 = 22;
	 * average ratio 24 x APERF/MPERF = 12, not above: 2.2 GHz. */
	every(g, 0, 30000, 1000, 500, 500);
	/* 30 ms: same load at 2.2 GHz: 22 again (average 21.99 -> 21). */
	/* 10 % busy: target 45 x 25 >> 8 = 4 -> min 12; the average ratio of
	 * the last period, 22 x 24/24 -> 21 (14-bit), is higher: 12 + (21-12)/2
	 * = 16 -> 1.6 GHz at 40 ms; then average 15 -> 13 at 50 ms; then 12. */
	every(g, 30000, 60000, 1000, 100, 900);
	/* Fully busy: 45 x 256 >> 8 = 45, clamped to 36 -> 3.6 GHz. */
	every(g, 60000, 70000, 1000, 1000, 0);
	EXPECT(g, { 0, 1200000 }, { 20000, 2200000 }, { 40000, 1600000 }, { 50000, 1300000 },
	       { 60000, 1200000 }, { 70000, 3600000 });
	govtrace_destroy(g);
}

static void test_intel_pstate_limits(void **state)
{
	/* Fully busy from the start; the first real sample at 20 ms wants 45. */
	struct { const char *set; uint32_t khz; } cases[] = {
		/* no_turbo: top 24 -> 30, capped at 24: 2.4 GHz. */
		{ "no_turbo=1", 2400000 },
		/* max_perf_pct 50: ceil(36 x 50 / 100) = 18: 1.8 GHz. */
		{ "max_perf_pct=50", 1800000 },
		/* above 100 acts as 100: 3.6 GHz. */
		{ "max_perf_pct=250", 3600000 },
	};
	for (int i = 0; i < 3; i++) {
		struct govtrace *g = pstate(cases[i].set, NULL);
		every(g, 0, 20000, 1000, 1000, 0);
		EXPECT(g, { 0, 1200000 }, { 20000, cases[i].khz });
		govtrace_destroy(g);
	}
	/* min_perf_pct 50: ceil(36 x 50 / 100) = 18 even when idle-ish. */
	struct govtrace *g = pstate("min_perf_pct=50", NULL);
	every(g, 0, 20000, 1000, 100, 900);
	EXPECT(g, { 0, 1200000 }, { 20000, 1800000 });
	govtrace_destroy(g);
	/* no_turbo=2 acts as 1 (the kernel clamps the write); min_perf_pct 90
	 * then is at most the non-turbo 24 x 100 / 36 = 66 %, ceil(36 x 66 /
	 * 100) = 24: even a light load runs at the base 2.4 GHz. */
	g = pstate("min_perf_pct=90", "no_turbo=2");
	every(g, 0, 20000, 1000, 100, 900);
	EXPECT(g, { 0, 1200000 }, { 20000, 2400000 });
	govtrace_destroy(g);
	/* performance: the highest allowed ratio at once, and no sampling. */
	g = pstate("scaling_governor=performance", "max_perf_pct=75");
	every(g, 0, 50000, 1000, 0, 1000);
	EXPECT(g, { 0, 2700000 });
	govtrace_destroy(g);
}

static void test_intel_pstate_iowait_boost(void **state)
{
	/* HZ=1000. I/O wakeups every ms (not more than a tick apart): the boost
	 * goes 1/8, 1/4, 1/2, 1 and stays; busy_frac = max(10 %, 1) -> 45 ->
	 * 3.6 GHz at 20 ms. Then no wakeups: it halves every call and is gone
	 * by 30 ms; 10 % busy -> 12, but last period averaged ratio 36 at
	 * 3.6 GHz: 12 + (36 - 12)/2 = 24 -> 2.4 GHz. */
	struct govtrace *g = pstate(NULL, NULL);
	for (int t = 1000; t <= 20000; t += 1000)
		row(g, 0, &(struct govtrace_row){ .t_us = t, .busy_us = 100, .idle_us = 900,
						  .util = -1, .uclamp_max = 1024,
						  .flags = CPUFREQ_UPDATE_IOWAIT });
	every(g, 20000, 30000, 1000, 100, 900);
	EXPECT(g, { 0, 1200000 }, { 20000, 3600000 }, { 30000, 2400000 });
	govtrace_destroy(g);

	/* A wakeup more than a tick after the previous call starts over at
	 * 1/8: 17 ms (2 ms gap) 1/8, then 1/4, 1/2 and 1 at the 20 ms sample
	 * -> 3.6 GHz (from 0 it would reach only 1/2: 45 x 128 >> 8 = 22). */
	g = pstate(NULL, NULL);
	every(g, 0, 15000, 1000, 100, 900);
	for (int t = 17000; t <= 20000; t += 1000)
		row(g, 0, &(struct govtrace_row){ .t_us = t, .busy_us = t == 17000 ? 200 : 100,
						  .idle_us = t == 17000 ? 1800 : 900, .util = -1,
						  .uclamp_max = 1024, .flags = CPUFREQ_UPDATE_IOWAIT });
	EXPECT(g, { 0, 1200000 }, { 20000, 3600000 });
	govtrace_destroy(g);
}

static void test_intel_pstate_hwp_epp_order(void **state)
{
	/* The model: ratio = ceil(Avg kHz x 100 / setpoint / 100 MHz) with
	 * setpoint 50 + 45 x EPP / 255 %. From 1.2 GHz fully busy the first
	 * evaluation (1 ms) gives EPP 0: 2.4 GHz, 128 (setpoint 72): 1.7 GHz,
	 * 192 (83): 1.5 GHz, 255 (95): 1.3 GHz. */
	const char *epp[] = { "energy_performance_preference=performance",
			      "energy_performance_preference=balance_performance",
			      "energy_performance_preference=balance_power",
			      "energy_performance_preference=power" };
	const uint32_t first[] = { 2400000, 1700000, 1500000, 1300000 };
	for (int e = 0; e < 4; e++) {
		struct govtrace *g = pstate("hwp=1", epp[e]);
		at(g, 0, 1000, 1000, 0, 0);
		EXPECT(g, { 0, 1200000 }, { 1000, first[e] });
		govtrace_destroy(g);
	}
	/* For any load, a more energy-oriented EPP never runs faster, at any
	 * point of the trace, and for some loads runs strictly slower. */
	int strictly = 0;
	for (int busy = 0; busy <= 1000; busy += 125) {
		uint32_t prev[60] = { 0 };
		for (int e = 0; e < 4; e++) {
			struct govtrace *g = pstate("hwp=1", epp[e]);
			for (int t = 1; t <= 60; t++) {
				at(g, 0, 1000 * t, busy, 0, 1000 - busy);
				uint32_t khz = govtrace_policy(g)->cur;
				if (e > 0) {
					assert_true(khz <= prev[t - 1]);
					strictly += khz < prev[t - 1];
				}
				prev[t - 1] = khz;
			}
			govtrace_destroy(g);
		}
	}
	assert_true(strictly > 0);
	/* performance: HWP min = max: the top at once. */
	struct govtrace *g = pstate("hwp=1", "scaling_governor=performance");
	EXPECT(g, { 0, 3600000 });
	govtrace_destroy(g);
}

/* The model's loop after a window the CPU spent idle (no C0 time): it
 * wants the lowest ratio, not what its last busy window asked for. EPP
 * performance (setpoint 50 %): 1 ms fully busy at 1.2 GHz asks 2.4 GHz,
 * the next 4.8, capped at 3.6; then 10 ms idle: 1.2 GHz. */
static void test_intel_pstate_hwp_idle_window(void **state)
{
	struct govtrace *g = pstate("hwp=1", "energy_performance_preference=performance");
	at(g, 0, 1000, 1000, 0, 0);
	at(g, 0, 2000, 1000, 0, 0);
	at(g, 0, 12000, 0, 0, 10000);
	EXPECT(g, { 0, 1200000 }, { 1000, 2400000 }, { 2000, 3600000 }, { 12000, 1200000 });
	govtrace_destroy(g);
}

static void test_intel_pstate_hwp_dynamic_boost(void **state)
{
	/* Light load, so the model alone stays at 1.2 GHz. An I/O wakeup
	 * counts only within 2 ticks of the previous one: 5 ms (first) no;
	 * 6 ms: min -> (24 + 12)/2 = 18; 7 ms: 24 (guaranteed); 8 ms: 36.
	 * 9 ms: a plain call 1 ms after, kept; 13 ms: more than 3 ms after
	 * the previous call: the boost ends. */
	struct govtrace *g = pstate("hwp=1", "hwp_dynamic_boost=1");
	every(g, 0, 4000, 1000, 100, 900);
	for (int t = 5000; t <= 8000; t += 1000)
		row(g, 0, &(struct govtrace_row){ .t_us = t, .busy_us = 100, .idle_us = 900,
						  .util = -1, .uclamp_max = 1024,
						  .flags = CPUFREQ_UPDATE_IOWAIT });
	at(g, 0, 9000, 100, 0, 900);
	at(g, 0, 13000, 400, 0, 3600);
	EXPECT(g, { 0, 1200000 }, { 6000, 1800000 }, { 7000, 2400000 }, { 8000, 3600000 },
	       { 13000, 1200000 });
	govtrace_destroy(g);
}


/* A hybrid part's P-cores count HWP performance in units of 78.741 MHz
 * (hybrid_get_cpu_scaling(), HYBRID_SCALING_FACTOR_ADL, v6.x). The lowest
 * ratio at or above 1.2 GHz is 16: 1259.9 MHz, run at the 1.3 GHz entry.
 * Fully busy there, EPP performance asks for twice the average, 2.6 GHz:
 * ratio ceil(2600000 / 78741) = 34, 2677.2 MHz, the 2.7 GHz entry; with
 * 100 MHz units the same load goes 1.2 -> 2.4 GHz. */
static void test_intel_pstate_hybrid_scaling(void **state)
{
	const char *epp = "energy_performance_preference=performance";
	struct govtrace *g = open_trace(&(struct tc){ "intel_pstate", P25, 25, .base = 2400000,
						      .sets = { "hwp=1", epp }, .scaling = 78741 });
	at(g, 0, 1000, 1000, 0, 0);
	EXPECT(g, { 0, 1300000 }, { 1000, 2700000 });
	govtrace_destroy(g);
	g = open_trace(&(struct tc){ "intel_pstate", P25, 25, .base = 2400000,
				     .sets = { "hwp=1", epp } });
	at(g, 0, 1000, 1000, 0, 0);
	EXPECT(g, { 0, 1200000 }, { 1000, 2400000 });
	govtrace_destroy(g);
	/* hwp=-1 (the default) follows the processor: this one has no HWP,
	 * so the software algorithm samples every 10 ms instead. */
	g = open_trace(&(struct tc){ "intel_pstate", P25, 25, .base = 2400000, .sets = { epp } });
	at(g, 0, 1000, 1000, 0, 0);
	EXPECT(g, { 0, 1200000 });
	govtrace_destroy(g);
}

/* intel_epp_default[] (v6.x): on Sapphire Rapids balance_performance, and
 * the boot EPP, is 32: setpoint 50 + 45 x 32 / 255 = 55 %, so fully busy
 * at 1.2 GHz the loop asks 2.19 GHz -> 2.2 GHz, where the generic 128
 * (setpoint 72) gives 1.7 GHz. A number is taken as it is. */
static void test_intel_pstate_model_epp(void **state)
{
	static const struct { const char *set; uint32_t bp, khz; } cases[] = {
		{ NULL, 32, 2200000 },
		{ "energy_performance_preference=balance_performance", 32, 2200000 },
		{ "energy_performance_preference=default", 32, 2200000 },
		{ "energy_performance_preference=128", 32, 1700000 },
		{ NULL, 0, 1700000 },
		{ "energy_performance_preference=balance_performance", 0, 1700000 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct govtrace *g = open_trace(&(struct tc){ "intel_pstate", P25, 25,
			.base = 2400000, .sets = { "hwp=1", cases[i].set }, .epp_bp = cases[i].bp });
		at(g, 0, 1000, 1000, 0, 0);
		EXPECT(g, { 0, 1200000 }, { 1000, cases[i].khz });
		govtrace_destroy(g);
	}
}

static struct govtrace *amd(const char *set1, const char *set2)
{
	/* 1.2 .. 3.6 GHz, nominal 2.4 GHz, lowest nonlinear 1.6 GHz. */
	return open_trace(&(struct tc){ "amd_pstate", P25, 25, .base = 2400000,
					.sets = { set1, set2 }, .lnl = 1600000 });
}

/* amd-pstate-epp: the policy starts at scaling_min_freq, which nobody set,
 * so lowest_nonlinear_freq (amd_pstate_verify()); fully busy for 1 ms the
 * hardware loop (hw_autonomous.h) asks 1.6 GHz x 100 / setpoint: EPP 0:
 * 3.2 GHz; balance_performance, 128 and the default (setpoint 72): 2.3
 * GHz; balance_power, AMD's 0xBF = 191 (83): 2.0 GHz; power (95): 1.7 GHz.
 * The performance policy starts at the nominal 2.4 GHz (min_limit_perf =
 * nominal_perf) and runs EPP 0: 4.8 GHz, capped at 3.6. */
static void test_amd_pstate_epp(void **state)
{
	static const struct { const char *set1, *set2; uint32_t first, busy; } cases[] = {
		{ "energy_performance_preference=performance", NULL, 1600000, 3200000 },
		{ "energy_performance_preference=balance_performance", NULL, 1600000, 2300000 },
		{ NULL, NULL, 1600000, 2300000 },
		{ "energy_performance_preference=balance_power", NULL, 1600000, 2000000 },
		{ "energy_performance_preference=power", NULL, 1600000, 1700000 },
		{ "scaling_governor=performance", NULL, 2400000, 3600000 },
		{ "scaling_governor=performance", "energy_performance_preference=performance",
		  2400000, 3600000 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct govtrace *g = amd(cases[i].set1, cases[i].set2);
		assert_int_equal(govtrace_policy(g)->hook, CPUFREQ_HOOK_EMULATED);
		at(g, 0, 1000, 1000, 0, 0);
		EXPECT(g, { 0, cases[i].first }, { 1000, cases[i].busy });
		govtrace_destroy(g);
	}
	/* The names are amd-pstate's values (AMD_CPPC_EPP_*), not intel_pstate's. */
	const struct cpufreq_governor *a = cpufreq_governor_find("amd_pstate");
	const struct cpufreq_governor *i = cpufreq_governor_find("intel_pstate");
	int64_t buf[16] = { 0 };
	struct pm_diag d = { { 0 } };
	assert_int_equal(tunables_write(a->tunables, a->ntunables, buf,
					"energy_performance_preference", "balance_power", &d), 1);
	assert_int_equal(tunable_get(&a->tunables[1], buf), 191);
	assert_int_equal(tunables_write(i->tunables, i->ntunables, buf,
					"energy_performance_preference", "balance_power", &d), 1);
	assert_int_equal(buf[2], 192);
	/* amd_pstate_set_energy_pref_index(): no EPP above 0 under performance. */
	const char *msg = create_fails(&(struct tc){ "amd_pstate", P25, 25, .base = 2400000,
		.sets = { "scaling_governor=performance", "energy_performance_preference=power" } });
	assert_non_null(strstr(msg, "EBUSY"));
	/* Without CPPC's lowest nonlinear frequency, the floor is the lowest. */
	struct govtrace *g = open_trace(&(struct tc){ "amd_pstate", P25, 25, .base = 2400000 });
	EXPECT(g, { 0, 1200000 });
	govtrace_destroy(g);
}

/* ---- the scheduler's hook: installed or not, and its cost per call ---- */

/* cpufreq_add_update_util_hook() call sites: sugov_start(),
 * gov_set_update_util() (DBS, v4.6+), intel_pstate_set_update_util_hook()
 * unless the policy is performance or HWP runs without hwp_dynamic_boost.
 * The generic static governors install none; DBS before v4.6 sampled from
 * a timer (emulated at the hook points, no hook call); HWP's own loop is
 * emulated likewise. */
static void test_hook_installation(void **state)
{
	static const struct {
		const char *gov, *set1, *set2;
		enum cpufreq_hook want;
	} cases[] = {
		{ "performance", NULL, NULL, CPUFREQ_HOOK_NONE },
		{ "powersave", NULL, NULL, CPUFREQ_HOOK_NONE },
		{ "userspace", NULL, NULL, CPUFREQ_HOOK_NONE },
		{ "schedutil", NULL, NULL, CPUFREQ_HOOK_UTIL },
		{ "ondemand", NULL, NULL, CPUFREQ_HOOK_UTIL },
		{ "ondemand", "variant=3.11", NULL, CPUFREQ_HOOK_EMULATED },
		{ "ondemand", "variant=3.10", NULL, CPUFREQ_HOOK_EMULATED },
		{ "conservative", NULL, NULL, CPUFREQ_HOOK_UTIL },
		{ "conservative", "variant=3.10", NULL, CPUFREQ_HOOK_EMULATED },
		{ "intel_pstate", NULL, NULL, CPUFREQ_HOOK_UTIL },
		{ "intel_pstate", "scaling_governor=performance", NULL, CPUFREQ_HOOK_NONE },
		{ "intel_pstate", "hwp=1", NULL, CPUFREQ_HOOK_EMULATED },
		{ "intel_pstate", "hwp=1", "hwp_dynamic_boost=1", CPUFREQ_HOOK_UTIL },
		{ "intel_pstate", "hwp=1", "scaling_governor=performance", CPUFREQ_HOOK_NONE },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct govtrace *g = open_trace(&(struct tc){ cases[i].gov, P25, 25, .base = 2400000,
							      .sets = { cases[i].set1,
									cases[i].set2 } });
		if (govtrace_policy(g)->hook != cases[i].want)
			fail_msg("%s %s %s: hook %d, expected %d", cases[i].gov,
				 cases[i].set1 ? cases[i].set1 : "", cases[i].set2 ? cases[i].set2 : "",
				 (int)govtrace_policy(g)->hook, (int)cases[i].want);
		govtrace_destroy(g);
	}
}

/* One hook call; returns the cycles its path cost and checks the
 * kernel-thread runs it queued. */
static uint32_t call_cost(struct govtrace *g, const struct govtrace_row *r, uint32_t deferred)
{
	row(g, 0, r);
	assert_int_equal(govtrace_policy(g)->hook_deferred, deferred);
	return govtrace_policy(g)->hook_cycles;
}

#define BUSY(t, b, i) (&(struct govtrace_row){ .t_us = (t), .busy_us = (b), .idle_us = (i), \
					       .util = -1, .uclamp_max = 1024 })
#define UTIL(t, u) (&(struct govtrace_row){ .t_us = (t), .busy_us = 500, .idle_us = 500, \
					    .util = (u), .uclamp_max = 1024 })

static void test_hook_path_costs(void **state)
{
	const uint32_t check = CPUFREQ_CYCLES_CHECK;
	const uint32_t eval = CPUFREQ_CYCLES_UTIL_CPU + CPUFREQ_CYCLES_SELECT;
	const uint32_t fast = CPUFREQ_CYCLES_FAST_SWITCH + CPUFREQ_CYCLES_MSR_WRITE;
	const uint32_t slow = CPUFREQ_CYCLES_SLOW_SWITCH + CPUFREQ_CYCLES_MSR_WRITE;

	/* schedutil, rate limit 5 ms: the first call evaluates (limits
	 * changed) and switches 3 -> 2 GHz (util 512); within the limit only
	 * the check; after it an evaluation that keeps 2 GHz writes nothing. */
	struct govtrace *g = sugov("rate_limit_us=5000", NULL);
	assert_int_equal(call_cost(g, UTIL(1000, 512), 0), check + eval + fast);
	for (int64_t t = 2000; t <= 5000; t += 1000)
		assert_int_equal(call_cost(g, UTIL(t, 512), 0), check);
	assert_int_equal(call_cost(g, UTIL(6000, 512), 0), check + eval);
	govtrace_destroy(g);
	/* A shared policy reads every CPU's demand: two here. */
	g = open_trace(&(struct tc){ "schedutil", S6, 6, .hz = 250, .ncpus = 2,
				     .sets = { "rate_limit_us=0" } });
	assert_int_equal(call_cost(g, UTIL(1000, 512), 0),
			 check + 2 * CPUFREQ_CYCLES_UTIL_CPU + CPUFREQ_CYCLES_SELECT + fast);
	govtrace_destroy(g);

	/* ondemand, 10 ms samples: the first call samples (limits() made it
	 * due) in a kworker; fully busy wants the maximum it already runs at.
	 * Then a check per call until the next sample, which lowers the
	 * frequency (10 % busy) through the slow path. */
	g = open_trace(&(struct tc){ "ondemand", T5, 5, .sets = { "sampling_rate=10000" } });
	assert_int_equal(call_cost(g, BUSY(1000, 1000, 0), 1), check + eval);
	assert_int_equal(call_cost(g, BUSY(2000, 1000, 0), 0), check);
	for (int64_t t = 3000; t < 11000; t += 1000)
		call_cost(g, BUSY(t, 100, 900), 0);
	assert_int_equal(call_cost(g, BUSY(11000, 100, 900), 1), check + eval + slow);
	govtrace_destroy(g);
	/* Before v4.6 a timer sampled: no call, so no check, between samples. */
	g = open_trace(&(struct tc){ "ondemand", T5, 5,
				     .sets = { "sampling_rate=10000", "variant=3.11" } });
	assert_int_equal(call_cost(g, BUSY(1000, 1000, 0), 1), eval);
	assert_int_equal(call_cost(g, BUSY(2000, 1000, 0), 0), 0);
	govtrace_destroy(g);

	/* intel_pstate without HWP: a check per call; every 10 ms RDMSR of
	 * APERF and MPERF (the first sample only primes them); the 20 ms
	 * sample computes 2.2 GHz and writes IA32_PERF_CTL; at 30 ms the same
	 * target writes nothing (test_intel_pstate_target has the figures). */
	g = pstate(NULL, NULL);
	const uint32_t rd = 2 * CPUFREQ_CYCLES_MSR_READ;
	for (int64_t t = 1000; t <= 30000; t += 1000) {
		uint32_t want = t % 10000 ? check
				: t == 10000 ? check + rd
				: t == 20000 ? check + rd + CPUFREQ_CYCLES_SELECT + CPUFREQ_CYCLES_MSR_WRITE
					     : check + rd + CPUFREQ_CYCLES_SELECT;
		if (call_cost(g, BUSY(t, 500, 500), 0) != want)
			fail_msg("intel_pstate at %lld us: expected %u cycles", (long long)t, want);
	}
	govtrace_destroy(g);
	/* HWP with dynamic boost: the hook checks; a new boost level (I/O
	 * wakeups in two consecutive ticks) writes IA32_HWP_REQUEST; the
	 * processor's own loop costs nothing. */
	g = pstate("hwp=1", "hwp_dynamic_boost=1");
	for (int64_t t = 1000; t <= 4000; t += 1000)
		assert_int_equal(call_cost(g, BUSY(t, 500, 500), 0), check);
	struct govtrace_row io = { .t_us = 5000, .busy_us = 500, .idle_us = 500, .util = -1,
				   .uclamp_max = 1024, .flags = CPUFREQ_UPDATE_IOWAIT };
	assert_int_equal(call_cost(g, &io, 0), check);
	io.t_us = 6000;
	assert_int_equal(call_cost(g, &io, 0), check + CPUFREQ_CYCLES_MSR_WRITE);
	assert_int_equal(call_cost(g, BUSY(7000, 500, 500), 0), check);
	govtrace_destroy(g);
}


/* A timer's governor says until when its calls do nothing, which the
 * engine leaves out (hook_quiet_until): the first call is due at once
 * (limits() after start), then each sample's delay on. The hook's calls
 * since v4.6 always pay their check: none left out. */
static void test_hook_quiet_until(void **state)
{
	const uint32_t eval = CPUFREQ_CYCLES_UTIL_CPU + CPUFREQ_CYCLES_SELECT;
	struct govtrace *g = open_trace(&(struct tc){ "ondemand", T5, 5,
				     .sets = { "sampling_rate=10000", "variant=3.11" } });
	const struct cpufreq_policy *p = govtrace_policy(g);
	assert_int_equal(p->hook_quiet_until, 0);
	assert_int_equal(call_cost(g, BUSY(1000, 1000, 0), 1), eval);
	assert_int_equal(p->hook_quiet_until, 11 * NS_PER_MS);
	/* Just before: nothing at all; at it, the next sample (10 % busy
	 * lowers the frequency). */
	uint32_t cur = p->cur;
	assert_int_equal(call_cost(g, BUSY(10999, 1000, 8999), 0), 0);
	assert_int_equal(p->cur, cur);
	assert_int_equal(p->hook_quiet_until, 11 * NS_PER_MS);
	assert_int_not_equal(call_cost(g, BUSY(11000, 0, 1), 1), 0);
	assert_int_not_equal(p->cur, cur);
	assert_int_equal(p->hook_quiet_until, 21 * NS_PER_MS);
	govtrace_destroy(g);
	g = open_trace(&(struct tc){ "conservative", T5, 5, .sets = { "sampling_rate=10000" } });
	call_cost(g, BUSY(1000, 1000, 0), 1);
	assert_int_equal(govtrace_policy(g)->hook_quiet_until, 0);
	govtrace_destroy(g);
}

/* ---- tunables ---- */

/* Writes name=value to a fresh copy of governor gov's tunables; returns
 * tunables_write()'s result and leaves the formatted value in out. */
static int write_tunable(const char *gov, const char *name, const char *value, char *out,
			 struct pm_diag *d)
{
	const struct cpufreq_governor *g = cpufreq_governor_find(gov);
	assert_non_null(g);
	static char data[4096];
	assert_true(g->data_size <= sizeof(data));
	memset(data, 0, sizeof(data));
	tunables_set_defaults(g->tunables, g->ntunables, data);
	int r = tunables_write(g->tunables, g->ntunables, data, name, value, d);
	for (int i = 0; out && i < g->ntunables; i++)
		if (strcmp(g->tunables[i].name, name) == 0)
			tunable_format(&g->tunables[i], data, out, 64);
	return r;
}

static void expect_rejected(const char *gov, const char *name, const char *value,
			    const char *why)
{
	struct pm_diag d = { { 0 } };
	assert_int_equal(write_tunable(gov, name, value, NULL, &d), -1);
	if (!strstr(d.msg, why))
		fail_msg("%s %s=%s: '%s' lacks '%s'", gov, name, value, d.msg, why);
}

static void expect_stored(const char *gov, const char *name, const char *value,
			  const char *shown)
{
	struct pm_diag d = { { 0 } };
	char out[64] = "";
	assert_int_equal(write_tunable(gov, name, value, out, &d), 1);
	assert_string_equal(out, shown);
}

static void test_tunable_ranges(void **state)
{
	/* Mainline's store_up_threshold(): 1..100. */
	expect_rejected("ondemand", "up_threshold", "101", "expected 1..100");
	expect_rejected("ondemand", "up_threshold", "0", "out of range");
	expect_stored("ondemand", "up_threshold", "1", "1");
	expect_stored("ondemand", "up_threshold", "10", "10");
	expect_rejected("ondemand", "sampling_down_factor", "0", "expected 1..100000");
	expect_stored("ondemand", "sampling_down_factor", "100000", "100000");
	expect_rejected("ondemand", "sampling_down_factor", "100001", "out of range");
	expect_rejected("ondemand", "variant", "2.6", "expected current|3.11|3.10");
	expect_rejected("ondemand", "sampling_rate", "-2", "out of range");
	expect_rejected("conservative", "sampling_down_factor", "11", "expected 1..10");
	expect_rejected("conservative", "down_threshold", "0", "expected 1..100");
	expect_rejected("schedutil", "rate_limit_us", "fast", "not an integer");
	expect_stored("schedutil", "rate_limit_us", "0", "0");
	/* Named values: a name or a number in range. */
	expect_stored("intel_pstate", "energy_performance_preference", "balance_power",
		      "balance_power");
	expect_stored("intel_pstate", "energy_performance_preference", "255", "power");
	expect_stored("intel_pstate", "energy_performance_preference", "42", "42");
	expect_stored("intel_pstate", "energy_performance_preference", "default",
		      "balance_performance");
	expect_rejected("intel_pstate", "energy_performance_preference", "256",
			"expected performance|balance_performance|balance_power|power|default or "
			"-1..255");
	expect_rejected("intel_pstate", "energy_performance_preference", "balance-power",
			"not a valid choice");
	expect_stored("intel_pstate", "energy_perf_bias", "normal", "normal");
	expect_stored("intel_pstate", "energy_perf_bias", "8", "balance-power");
	expect_rejected("intel_pstate", "energy_perf_bias", "16", "0..15");
	expect_rejected("intel_pstate", "scaling_governor", "ondemand",
			"expected powersave|performance");

	/* Checks that need the policy or both thresholds happen at start. */
	assert_non_null(strstr(create_fails(&(struct tc){ "conservative", C21, 21,
							   .sets = { "up_threshold=30",
								     "down_threshold=40" } }),
			       "above down_threshold"));
	assert_non_null(strstr(create_fails(&(struct tc){ "conservative", C21, 21,
							   .sets = { "variant=3.10",
								     "down_threshold=5" } }),
			       "11..100"));
	/* v3.10 rejected an up_threshold below 11. */
	assert_non_null(strstr(create_fails(&(struct tc){ "ondemand", T5, 5,
							   .sets = { "variant=3.10",
								     "up_threshold=10" } }),
			       "11..100"));
	assert_non_null(strstr(create_fails(&(struct tc){ "ondemand", T5, 5,
							   .sets = { "no_such=1" } }),
			       "not a tunable of ondemand"));
	/* Below 100 MHz there is no P-state ratio. */
	static const uint32_t tiny[] = { 50000, 90000 };
	assert_non_null(strstr(create_fails(&(struct tc){ "intel_pstate", tiny, 2, .hz = 1000 }),
			       "P-state"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_resolve_low_span),
		cmocka_unit_test(test_transition_delay),
		cmocka_unit_test(test_ondemand_proportional_and_jump),
		cmocka_unit_test(test_ondemand_io_is_busy_and_shared_max),
		cmocka_unit_test(test_ondemand_long_idle_reuses_load_once),
		cmocka_unit_test(test_dbs_long_idle_boundary),
		cmocka_unit_test(test_dbs_threshold_boundaries),
		cmocka_unit_test(test_ondemand_sampling_down_factor),
		cmocka_unit_test(test_ondemand_powersave_bias),
		cmocka_unit_test(test_ondemand_variants),
		cmocka_unit_test(test_ondemand_sampling_rate_defaults_and_floor),
		cmocka_unit_test(test_ondemand_cpufreq_bench_aliasing),
		cmocka_unit_test(test_conservative_steps),
		cmocka_unit_test(test_conservative_sampling_down_factor),
		cmocka_unit_test(test_conservative_idle_catch_up),
		cmocka_unit_test(test_conservative_v3_10),
		cmocka_unit_test(test_schedutil_headroom),
		cmocka_unit_test(test_schedutil_not_invariant),
		cmocka_unit_test(test_schedutil_v4_7),
		cmocka_unit_test(test_schedutil_rate_limit),
		cmocka_unit_test(test_schedutil_busy_hold),
		cmocka_unit_test(test_schedutil_iowait_boost),
		cmocka_unit_test(test_schedutil_uclamp),
		cmocka_unit_test(test_schedutil_shared_policy),
		cmocka_unit_test(test_schedutil_limits_span),
		cmocka_unit_test(test_schedutil_needs_util),
		cmocka_unit_test(test_intel_pstate_target),
		cmocka_unit_test(test_intel_pstate_limits),
		cmocka_unit_test(test_intel_pstate_iowait_boost),
		cmocka_unit_test(test_intel_pstate_hwp_epp_order),
		cmocka_unit_test(test_intel_pstate_hwp_idle_window),
		cmocka_unit_test(test_intel_pstate_hwp_dynamic_boost),
		cmocka_unit_test(test_intel_pstate_hybrid_scaling),
		cmocka_unit_test(test_intel_pstate_model_epp),
		cmocka_unit_test(test_amd_pstate_epp),
		cmocka_unit_test(test_hook_installation),
		cmocka_unit_test(test_hook_path_costs),
		cmocka_unit_test(test_hook_quiet_until),
		cmocka_unit_test(test_tunable_ranges),
	};
	return cmocka_run_group_tests(tests, fill_tables, NULL);
}
