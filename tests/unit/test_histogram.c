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
	assert_near(h->sum_ns, 7, 0);
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
	assert_near(a->sum_ns, all->sum_ns, 0);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
