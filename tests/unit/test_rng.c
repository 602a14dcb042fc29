// SPDX-License-Identifier: GPL-2.0-only
/* Deterministic random streams. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "core/rng.h"

static void test_same_seed_same_sequence(void **state)
{
	struct rng a, b;

	(void)state;
	rng_init(&a, 12345, 3);
	rng_init(&b, 12345, 3);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
}

static void test_streams_and_seeds_differ(void **state)
{
	struct rng a, b, c;
	int same_ab = 0, same_ac = 0;

	(void)state;
	rng_init(&a, 1, 0);
	rng_init(&b, 1, 1); /* neighbouring stream */
	rng_init(&c, 2, 0); /* neighbouring seed */
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);
		same_ab += x == rng_next(&b);
		same_ac += x == rng_next(&c);
	}
	assert_int_equal(same_ab, 0);
	assert_int_equal(same_ac, 0);
}

/* A stream never depends on draws from another one. */
static void test_streams_independent(void **state)
{
	struct rng a, b, a2;

	(void)state;
	rng_init(&a, 9, 1);
	rng_init(&b, 9, 2);
	rng_init(&a2, 9, 1);
	for (int i = 0; i < 100; i++) {
		(void)rng_next(&b);
		assert_int_equal(rng_next(&a), rng_next(&a2));
	}
}

static void test_below_bounds(void **state)
{
	struct rng r;
	int seen[7] = { 0 };

	(void)state;
	rng_init(&r, 5, 0);
	for (int i = 0; i < 70000; i++) {
		uint64_t v = rng_below(&r, 7);
		assert_true(v < 7);
		seen[v]++;
	}
	for (int i = 0; i < 7; i++) /* 10000 expected each */
		assert_in_range(seen[i], 9000, 11000);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(rng_below(&r, 1), 0);
	for (int i = 0; i < 1000; i++) /* a bound near 2^64 exercises the rejection */
		assert_true(rng_below(&r, UINT64_MAX - 1) < UINT64_MAX - 1);
}

static void test_uniform_range_and_mean(void **state)
{
	struct rng r;
	double sum = 0;
	const int n = 100000;

	(void)state;
	rng_init(&r, 77, 4);
	for (int i = 0; i < n; i++) {
		double u = rng_uniform(&r);
		assert_true(u >= 0.0 && u < 1.0);
		sum += u;
	}
	/* standard error of the mean is 0.29/sqrt(n) = 0.0009 */
	assert_true(fabs(sum / n - 0.5) < 0.01);
}

static void test_exponential_mean(void **state)
{
	struct rng r;
	double sum = 0;
	const int n = 100000;
	const double mean = 250.0;

	(void)state;
	rng_init(&r, 2024, 8);
	for (int i = 0; i < n; i++) {
		double x = rng_exponential(&r, mean);
		assert_true(x >= 0.0 && isfinite(x));
		sum += x;
	}
	/* standard error is mean/sqrt(n) = 0.3 % of the mean; allow 3 % */
	assert_true(fabs(sum / n - mean) < 0.03 * mean);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_same_sequence),
		cmocka_unit_test(test_streams_and_seeds_differ),
		cmocka_unit_test(test_streams_independent),
		cmocka_unit_test(test_below_bounds),
		cmocka_unit_test(test_uniform_range_and_mean),
		cmocka_unit_test(test_exponential_mean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
