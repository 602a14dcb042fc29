// SPDX-License-Identifier: GPL-2.0-only
/* Latency histogram with fixed memory: log-linear buckets (HDR-style).
 * Values are nanoseconds. Each power-of-two range [2^k, 2^(k+1)) is split
 * into HIST_SUB linear sub-buckets, so a reported percentile is within
 * 1/HIST_SUB (about 1.6 %) of the true value; min, max and count are
 * exact, and the sum is the one a double accumulates (exact below 2^53). */
#ifndef PMLAB_HISTOGRAM_H
#define PMLAB_HISTOGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/simtime.h"

#define HIST_SUB_BITS 6
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_RANGES 48 /* up to 2^53 ns (about 104 days); larger values land in the last bucket */
#define HIST_BUCKETS (HIST_RANGES * HIST_SUB)
#define HIST_EXACT_SUM (UINT64_C(1) << 53) /* a double holds every integer below */

/* All zeros is the empty histogram (hist_init()). */
struct histogram {
	uint64_t count;
	sim_ns min_ns, max_ns;
	/* The sum of the values, as `double sum += v` gives it (hist_sum()).
	 * While no sum before an addition reached HIST_EXACT_SUM, each
	 * addition was exact but perhaps the last, whose one rounding
	 * converting sum_exact repeats: the integer is kept. After, the
	 * double is (sum_rounded, sum_is_rounded). */
	uint64_t sum_exact;
	double sum_rounded;
	bool sum_is_rounded;
	/* hist_add()'s fast path takes a value while count is below this and
	 * the value in [0, max_ns]: the sum so far, at most count * max_ns,
	 * is then below HIST_EXACT_SUM and the value too (no rounding yet, no
	 * clamp of the bucket). Set by hist_add_slow() and hist_merge(),
	 * where max_ns, the count's bound or the sum's kind change (0:
	 * empty or rounded, every addition slow). hist_check() verifies. */
	uint64_t fast_below;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct histogram *h);
/* hist_add() for any value and state. */
void hist_add_slow(struct histogram *h, sim_ns v);
/* Merge b into a. */
void hist_merge(struct histogram *a, const struct histogram *b);
/* Value at quantile q in [0, 1] (0 when empty); interpolated inside the
 * bucket and clamped to [min, max]. */
double hist_quantile(const struct histogram *h, double q);
double hist_sum(const struct histogram *h);
double hist_mean(const struct histogram *h);
/* Whether h's kept fields agree with its values (fast_below, the sum's
 * kind). */
bool hist_check(const struct histogram *h);

/* Bucket of u < 2^63, before the clamp to the last bucket. Values below
 * 2 * HIST_SUB are their own bucket (s = 0); above, s = top bit -
 * HIST_SUB_BITS, and the top HIST_SUB_BITS + 1 bits, (u >> s) in
 * [HIST_SUB, 2 * HIST_SUB), give the place in range s + 1 (histogram.c). */
static inline unsigned hist_bucket_unclamped(uint64_t u)
{
	unsigned s = (unsigned)(63 ^ __builtin_clzll(u | HIST_SUB)) - HIST_SUB_BITS;

	return (unsigned)(u >> s) + (s << HIST_SUB_BITS);
}

/* Add one value (a negative one counts as 0). Inline: every wakeup and
 * most workloads' every round trip add one. */
static inline void hist_add(struct histogram *h, sim_ns v)
{
	uint64_t n = h->count, u = (uint64_t)v;

	/* A negative value is above max_ns here, as unsigned. */
	if (__builtin_expect(n >= h->fast_below || u > (uint64_t)h->max_ns, 0)) {
		hist_add_slow(h, v);
		return;
	}
	if (v < h->min_ns)
		h->min_ns = v;
	h->count = n + 1;
	h->sum_exact += u;
	unsigned i = hist_bucket_unclamped(u);
	/* u <= max_ns < HIST_EXACT_SUM here (fast_below), inside the last
	 * range: no clamp. Said, for the compiler's bounds warnings where u
	 * is a constant. */
	if (i >= HIST_BUCKETS)
		__builtin_unreachable();
	h->bucket[i]++;
}

#endif
