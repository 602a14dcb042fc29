// SPDX-License-Identifier: GPL-2.0-only
/* Latency histogram: exactness where promised, the 1/HIST_SUB error bound
 * elsewhere, and merge. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "metrics/histogram.h"

/* cmocka 1.1.5 lacks assert_double_equal. */
#define assert_near(a, b, eps)                                                        \
	do {                                                                          \
		double a_ = (a), b_ = (b);                                            \
		if (!(fabs(a_ - b_) <= (eps)))                                        \
			fail_msg("%s = %.9g, expected %.9g (+- %g)", #a, a_, b_,      \
				 (double)(eps));                                      \
	} while (0)

static struct histogram *new_hist(void)
{
	/* ~25 KiB each: keep them off the test's stack. */
	struct histogram *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

static void test_empty(void **state)
{
	struct histogram *h = new_hist();

	(void)state;
	assert_int_equal(h->count, 0);
	assert_near(hist_quantile(h, 0), 0, 0);
	assert_near(hist_quantile(h, 0.5), 0, 0);
	assert_near(hist_quantile(h, 1), 0, 0);
	assert_near(hist_mean(h), 0, 0);
	free(h);
}

static void test_exact_small_values(void **state)
{
	struct histogram *h = new_hist();
	sim_ns v;

	(void)state;
	/* 1..101: every value below 2 * HIST_SUB has its own bucket, and the
	 * median of 101 values is the 51st. */
	for (v = 1; v <= 101; v++)
		hist_add(h, v);
	assert_int_equal(h->count, 101);
	assert_int_equal(h->min_ns, 1);
	assert_int_equal(h->max_ns, 101);
	assert_near(hist_quantile(h, 0.5), 51, 1e-9);
	assert_near(hist_quantile(h, 0.25), 26, 1e-9);
	assert_near(hist_quantile(h, 0.9), 91, 1e-9);
	assert_near(hist_mean(h), 51, 1e-12);
	/* Between ranks the answer interpolates: 4 values, q = 0.5 is rank 1.5. */
	hist_init(h);
	hist_add(h, 10);
	hist_add(h, 20);
	hist_add(h, 30);
	hist_add(h, 40);
	assert_near(hist_quantile(h, 0.5), 25, 1e-9);
	free(h);
}

static void test_negative_clamps_to_zero(void **state)
{
	struct histogram *h = new_hist();

	(void)state;
	hist_add(h, -5);
	hist_add(h, 7);
	assert_int_equal(h->min_ns, 0);
	assert_near(hist_quantile(h, 0), 0, 0);
	assert_near(hist_sum(h), 7, 0);
	free(h);
}

static void test_uniform_quantiles(void **state)
{
	struct histogram *h = new_hist();
	double q;
	sim_ns v;

	(void)state;
	for (v = 1; v <= 100000; v++)
		hist_add(h, v);
	assert_int_equal(h->min_ns, 1);
	assert_int_equal(h->max_ns, 100000);
	assert_near(hist_quantile(h, 0), 1, 0);
	assert_near(hist_quantile(h, 1), 100000, 0);
	assert_near(hist_mean(h), 50000.5, 1e-6);
	for (q = 0.01; q < 1; q += 0.01) {
		double want = 1 + q * 99999;

		assert_near(hist_quantile(h, q), want, 0.02 * want);
	}
	assert_near(hist_quantile(h, 0.999), 99900.001, 0.02 * 99900);
	free(h);
}

static void test_min_max_exact_large(void **state)
{
	struct histogram *h = new_hist();

	(void)state;
	hist_add(h, 123456789);
	hist_add(h, 987654321123);
	hist_add(h, 5555555);
	assert_int_equal(h->min_ns, 5555555);
	assert_int_equal(h->max_ns, 987654321123);
	assert_near(hist_quantile(h, 0), 5555555, 0);
	assert_near(hist_quantile(h, 1), 987654321123.0, 0);
	assert_near(hist_quantile(h, 0.5), 123456789, 123456789.0 / HIST_SUB);
	/* A value far past the last range still reports exactly as the max. */
	hist_add(h, INT64_MAX);
	assert_near(hist_quantile(h, 1), (double)INT64_MAX, 0);
	free(h);
}

static void test_merge_equals_adding_all(void **state)
{
	struct histogram *a = new_hist(), *b = new_hist(), *all = new_hist();
	struct histogram *empty = new_hist();
	uint64_t x = 88172645463325252ULL;
	int i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		sim_ns v;

		/* xorshift64: a spread of magnitudes, deterministic */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (sim_ns)(x % 1000000000) >> (x % 20);
		hist_add(i % 3 ? a : b, v);
		hist_add(all, v);
	}
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min_ns, all->min_ns);
	assert_int_equal(a->max_ns, all->max_ns);
	assert_near(hist_sum(a), hist_sum(all), 0);
	assert_memory_equal(a->bucket, all->bucket, sizeof(a->bucket));
	assert_near(hist_quantile(a, 0.99), hist_quantile(all, 0.99), 0);

	/* Merging into an empty histogram copies; merging an empty one is a no-op. */
	hist_merge(empty, all);
	assert_int_equal(empty->min_ns, all->min_ns);
	assert_int_equal(empty->max_ns, all->max_ns);
	hist_init(b);
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min_ns, all->min_ns);
	free(a);
	free(b);
	free(all);
	free(empty);
}

/* Index of the single bucket a lone value lands in. */
static int bucket_index(struct histogram *h, sim_ns v)
{
	int i;

	hist_init(h);
	hist_add(h, v);
	for (i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i])
			return i;
	fail_msg("value %lld not in any bucket", (long long)v);
	return -1;
}

/* Buckets are contiguous and narrow. Exhaustively over small values: the
 * index steps by 0 or 1 as v grows (no gaps, no overlap) and each bucket
 * spans at most 1/HIST_SUB of its lowest value (or is exact). */
static void test_bucket_monotonic_and_narrow(void **state)
{
	struct histogram *h = new_hist();
	sim_ns v, low = 0;
	int prev = 0;

	(void)state;
	for (v = 0; v <= (1 << 14); v++) {
		int i = bucket_index(h, v);

		assert_true(i == prev || i == prev + 1);
		if (i != prev) {
			sim_ns width = v - low;

			assert_true(width == 1 || width <= low / HIST_SUB);
			low = v;
			prev = i;
		}
	}
	/* Below 2 * HIST_SUB each value is its own bucket. */
	for (v = 0; v < 2 * HIST_SUB; v++)
		assert_int_equal(bucket_index(h, v), (int)v);

	/* Sampled geometrically up to the last range: never decreasing, and a
	 * lone value is reported as itself. */
	prev = -1;
	for (v = 1; v < (INT64_C(1) << 53); v += v / 97 + 1) {
		int i = bucket_index(h, v);

		assert_true(i >= prev);
		prev = i;
		assert_near(hist_quantile(h, 0.5), (double)v, 0);
	}
	free(h);
}

/* Each power-of-two range [2^b, 2^(b+1)) splits into HIST_SUB equal,
 * consecutive buckets of width 2^b / HIST_SUB: check both ends of each. */
static void test_bucket_boundaries(void **state)
{
	struct histogram *h = new_hist();
	int b, j;

	(void)state;
	for (b = HIST_SUB_BITS + 1; b < HIST_RANGES + HIST_SUB_BITS - 1; b++) {
		sim_ns p = INT64_C(1) << b, w = p / HIST_SUB;
		int base = bucket_index(h, p);

		assert_int_equal(base, bucket_index(h, p - 1) + 1);
		for (j = 0; j < HIST_SUB; j++) {
			assert_int_equal(bucket_index(h, p + j * w), base + j);
			assert_int_equal(bucket_index(h, p + (j + 1) * w - 1), base + j);
		}
	}
	free(h);
}

/* hist_add() (its fast path wherever it applies) against hist_add_slow()
 * (the general case alone) and a double accumulating the values, as the
 * sum is defined: after every value, count, min, max and the sum agree
 * exactly, and the kept fields check; at the end, every bucket. */
struct twin {
	struct histogram *fast, *slow;
	double sum;
};

static void twin_init(struct twin *t)
{
	t->fast = new_hist();
	t->slow = new_hist();
	t->sum = 0;
}

static void twin_free(struct twin *t)
{
	assert_memory_equal(t->fast->bucket, t->slow->bucket, sizeof(t->fast->bucket));
	free(t->fast);
	free(t->slow);
}

static void twin_agree(const struct twin *t)
{
	assert_int_equal(t->fast->count, t->slow->count);
	assert_int_equal(t->fast->min_ns, t->slow->min_ns);
	assert_int_equal(t->fast->max_ns, t->slow->max_ns);
	if (hist_sum(t->fast) != t->sum || hist_sum(t->slow) != t->sum)
		fail_msg("sum %.17g (general %.17g), a double's %.17g", hist_sum(t->fast),
			 hist_sum(t->slow), t->sum);
	assert_true(hist_check(t->fast));
	assert_true(hist_check(t->slow));
}

static void twin_add(struct twin *t, sim_ns v)
{
	hist_add(t->fast, v);
	hist_add_slow(t->slow, v);
	t->sum += (double)(v < 0 ? 0 : v);
	twin_agree(t);
}

static void test_fast_path_matches_general(void **state)
{
	struct twin t;
	uint64_t x = 88172645463325252ULL;
	int i;

	(void)state;
	twin_init(&t);
	/* A large first value: most of the rest take the fast path. */
	twin_add(&t, INT64_C(1) << 40);
	for (i = 0; i < 50000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Every magnitude up to 2^41, a few negative. */
		twin_add(&t, (sim_ns)(x >> (x % 41 + 23)) - (i % 97 == 0 ? 1000 : 0));
	}
	twin_free(&t);
}

/* Past 2^53 a double's sum rounds at each addition: the histogram's sum
 * is that double, not the exact integer. */
static void test_sum_rounds_as_a_double(void **state)
{
	const sim_ns exact = INT64_C(1) << 53;
	struct twin t;
	int i;

	(void)state;
	/* Up to 2^53, then ones that a double drops. */
	twin_init(&t);
	twin_add(&t, exact - 1);
	for (i = 0; i < 100; i++)
		twin_add(&t, 1);
	assert_true(hist_sum(t.fast) == (double)exact);
	twin_free(&t);

	/* Odd values of one size: the fast path runs up to the last addition
	 * from below 2^53; the ones after round at each step. */
	twin_init(&t);
	for (i = 0; i < 40; i++)
		twin_add(&t, (exact >> 2) - 1);
	for (i = 0; i < 40; i++)
		twin_add(&t, 3);
	twin_free(&t);
	twin_init(&t);
	for (i = 0; i < 40; i++)
		twin_add(&t, exact / 7 + 1);
	twin_free(&t);

	/* Values that a double rounds themselves, then small ones. */
	twin_init(&t);
	twin_add(&t, 5);
	twin_add(&t, exact + 1);
	twin_add(&t, INT64_MAX);
	for (i = 0; i < 10; i++)
		twin_add(&t, 1000001);
	twin_free(&t);
}

/* A merge sums as the doubles would, and the merged histogram's fast path
 * follows its new max and count. */
static void test_merge_sum_and_fast_path(void **state)
{
	const sim_ns exact = INT64_C(1) << 53;
	struct histogram *b = new_hist();
	struct twin t;
	double b_sum = 0;
	int i;

	(void)state;
	/* Small values on one side, values near 2^51 on the other: the merge
	 * is exact, the additions after cross 2^53. */
	twin_init(&t);
	for (i = 0; i < 10; i++)
		twin_add(&t, 1001);
	for (i = 0; i < 3; i++) {
		hist_add(b, (exact >> 2) - 1);
		b_sum += (double)((exact >> 2) - 1);
	}
	hist_merge(t.fast, b);
	hist_merge(t.slow, b);
	t.sum += b_sum;
	twin_agree(&t);
	for (i = 0; i < 10; i++)
		twin_add(&t, (exact >> 2) - 1);
	for (i = 0; i < 10; i++)
		twin_add(&t, 7);

	/* A rounded side: the sum rounds once more in the merge. */
	memcpy(b, t.slow, sizeof(*b));
	hist_merge(t.fast, b);
	hist_merge(t.slow, b);
	t.sum += t.sum;
	twin_agree(&t);
	for (i = 0; i < 10; i++)
		twin_add(&t, 9);
	twin_free(&t);

	/* A side whose last addition left 2^53 behind, its sum rounded once:
	 * the merge rounds from there. */
	twin_init(&t);
	twin_add(&t, (exact >> 1) + 1);
	twin_add(&t, exact >> 1);
	hist_init(b);
	hist_add(b, 1);
	hist_merge(t.fast, b);
	hist_merge(t.slow, b);
	t.sum += 1;
	twin_agree(&t);
	twin_free(&t);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_exact_small_values),
		cmocka_unit_test(test_negative_clamps_to_zero),
		cmocka_unit_test(test_uniform_quantiles),
		cmocka_unit_test(test_min_max_exact_large),
		cmocka_unit_test(test_merge_equals_adding_all),
		cmocka_unit_test(test_bucket_monotonic_and_narrow),
		cmocka_unit_test(test_bucket_boundaries),
		cmocka_unit_test(test_fast_path_matches_general),
		cmocka_unit_test(test_sum_rounds_as_a_double),
		cmocka_unit_test(test_merge_sum_and_fast_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
