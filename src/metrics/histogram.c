// SPDX-License-Identifier: GPL-2.0-only
/* Log-linear latency histogram (see histogram.h).
 *
 * Bucket layout: values below 2 * HIST_SUB get a bucket each (exact).
 * Above, a value with its top bit at position b >= HIST_SUB_BITS + 1 lies in
 * range k = b - HIST_SUB_BITS + 1, which covers [2^b, 2^(b+1)) in HIST_SUB
 * buckets of width 2^(k-1). Range 0 is [0, HIST_SUB) and range 1 is
 * [HIST_SUB, 2 * HIST_SUB), both of width 1, so the buckets tile the
 * non-negative integers without gaps, and a bucket's width never exceeds
 * 1/HIST_SUB of its lower bound. The top range ends at 2^(HIST_RANGES +
 * HIST_SUB_BITS - 1); larger values share the last bucket, and quantiles
 * that land there are clamped to the exact maximum. */
#include "histogram.h"

#include <string.h>

static int bucket_of(sim_ns v)
{
	unsigned i = hist_bucket_unclamped((uint64_t)v);

	return i < HIST_BUCKETS ? (int)i : HIST_BUCKETS - 1;
}

static uint64_t bucket_low(int i)
{
	int k = i / HIST_SUB, sub = i % HIST_SUB;

	if (k == 0)
		return (uint64_t)sub;
	return (uint64_t)(HIST_SUB + sub) << (k - 1);
}

static uint64_t bucket_width(int i)
{
	int k = i / HIST_SUB;

	return k == 0 ? 1 : UINT64_C(1) << (k - 1);
}

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
}

/* The fast path's bound for h (see fast_below): the largest count with
 * count * max_ns below HIST_EXACT_SUM, plus one. With max_ns at
 * HIST_EXACT_SUM or more it is 1, below any count that set max_ns. */
static uint64_t fast_below(const struct histogram *h)
{
	uint64_t m = (uint64_t)h->max_ns;

	if (h->count == 0 || h->sum_is_rounded)
		return 0;
	return (HIST_EXACT_SUM - 1) / (m ? m : 1) + 1;
}

/* sum += v, as a double would do it. v < 0 was clamped. While the sum
 * before and v are below HIST_EXACT_SUM both are exact doubles and the
 * one rounding, if any, is the conversion's in hist_sum(). */
static void sum_add(struct histogram *h, uint64_t v)
{
	if (h->sum_is_rounded) {
		h->sum_rounded += (double)v;
	} else if (h->sum_exact < HIST_EXACT_SUM && v < HIST_EXACT_SUM) {
		h->sum_exact += v;
	} else {
		h->sum_rounded = (double)h->sum_exact + (double)v;
		h->sum_is_rounded = true;
	}
}

__attribute__((noinline, cold)) void hist_add_slow(struct histogram *h, sim_ns v)
{
	if (v < 0)
		v = 0;
	if (h->count == 0 || v < h->min_ns)
		h->min_ns = v;
	if (h->count == 0 || v > h->max_ns)
		h->max_ns = v;
	h->count++;
	sum_add(h, (uint64_t)v);
	h->bucket[bucket_of(v)]++;
	h->fast_below = fast_below(h);
}

double hist_sum(const struct histogram *h)
{
	return h->sum_is_rounded ? h->sum_rounded : (double)h->sum_exact;
}

bool hist_check(const struct histogram *h)
{
	if (h->fast_below != fast_below(h))
		return false;
	/* An exact sum's additions before the last were below HIST_EXACT_SUM,
	 * so it is below twice that. */
	return h->sum_is_rounded || h->sum_exact < 2 * HIST_EXACT_SUM;
}

void hist_merge(struct histogram *a, const struct histogram *b)
{
	int i;

	if (b->count == 0)
		return;
	if (a->count == 0 || b->min_ns < a->min_ns)
		a->min_ns = b->min_ns;
	if (a->count == 0 || b->max_ns > a->max_ns)
		a->max_ns = b->max_ns;
	a->count += b->count;
	/* The doubles' sum; exact, and kept as an integer, while both sides'
	 * are below HIST_EXACT_SUM (as sum_add()). */
	if (!a->sum_is_rounded && !b->sum_is_rounded && a->sum_exact < HIST_EXACT_SUM &&
	    b->sum_exact < HIST_EXACT_SUM) {
		a->sum_exact += b->sum_exact;
	} else {
		a->sum_rounded = hist_sum(a) + hist_sum(b);
		a->sum_is_rounded = true;
	}
	for (i = 0; i < HIST_BUCKETS; i++)
		a->bucket[i] += b->bucket[i];
	a->fast_below = fast_below(a);
}

/* Estimated value of the sample with 0-based rank `rank` in sorted order.
 * The n samples of a bucket are taken as spread evenly over the integers it
 * holds, each at the centre of its 1/n share; a width-1 bucket is exact. */
static double value_at_rank(const struct histogram *h, uint64_t rank)
{
	uint64_t before = 0;
	int i;

	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t n = h->bucket[i];

		if (rank < before + n) {
			double frac = ((double)(rank - before) + 0.5) / (double)n;

			return (double)bucket_low(i) + frac * (double)(bucket_width(i) - 1);
		}
		before += n;
	}
	return (double)h->max_ns;
}

double hist_quantile(const struct histogram *h, double q)
{
	double pos, lo, hi, v;
	uint64_t r;

	if (h->count == 0)
		return 0;
	if (!(q > 0))	/* also catches NaN */
		return (double)h->min_ns;
	if (q >= 1)
		return (double)h->max_ns;

	/* Linear interpolation between the two ranks around q * (count - 1),
	 * as numpy's default, so exact buckets give exact textbook answers. */
	pos = q * (double)(h->count - 1);
	r = (uint64_t)pos;
	lo = value_at_rank(h, r);
	hi = r + 1 < h->count ? value_at_rank(h, r + 1) : lo;
	v = lo + (pos - (double)r) * (hi - lo);

	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	return v;
}

double hist_mean(const struct histogram *h)
{
	return h->count ? hist_sum(h) / (double)h->count : 0;
}
