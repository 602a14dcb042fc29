// SPDX-License-Identifier: GPL-2.0-only
/* Event queue: earliest time first, posting order among equal times. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/eventq.h"
#include "core/rng.h"

static void test_empty(void **state)
{
	struct eventq q;
	struct event e;

	(void)state;
	eventq_init(&q);
	assert_null(eventq_peek(&q));
	assert_int_equal(eventq_pop(&q, &e), 0);
	eventq_free(&q);
}

static void test_time_order(void **state)
{
	struct eventq q;
	struct event e;
	const sim_ns times[] = { 50, 10, 40, 20, 30 };

	(void)state;
	eventq_init(&q);
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(eventq_push(&q, times[i], i, 0, 0, 0), 0);
	assert_int_equal(eventq_peek(&q)->time, 10);
	for (sim_ns t = 10; t <= 50; t += 10) {
		assert_int_equal(eventq_pop(&q, &e), 1);
		assert_int_equal(e.time, t);
	}
	assert_int_equal(eventq_pop(&q, &e), 0);
	eventq_free(&q);
}

/* Simultaneous events come out in the order they were posted, even when
 * interleaved with pushes at other times: this makes runs deterministic. */
static void test_equal_times_fifo(void **state)
{
	struct eventq q;
	struct event e;
	uint32_t next[3] = { 0, 1, 0 }; /* expected obj at time 3 (even i), 13 (odd i), 7 */
	sim_ns last = 0;

	(void)state;
	eventq_init(&q);
	for (uint32_t i = 0; i < 100; i++) {
		assert_int_equal(eventq_push(&q, 7, 1, i, 0, 0), 0);
		assert_int_equal(eventq_push(&q, 3 + (i % 2) * 10, 2, i, 0, 0), 0);
	}
	while (eventq_pop(&q, &e)) {
		assert_true(e.time >= last);
		last = e.time;
		if (e.time == 7) {
			assert_int_equal(e.kind, 1);
			assert_int_equal(e.obj, next[2]++);
		} else {
			int odd = e.time == 13;
			assert_int_equal(e.kind, 2);
			assert_int_equal(e.obj, next[odd]);
			next[odd] += 2;
		}
	}
	assert_int_equal(next[2], 100);
	assert_int_equal(next[0], 100);
	assert_int_equal(next[1], 101);
	eventq_free(&q);
}

static void test_random_pushes_pop_sorted(void **state)
{
	struct eventq q;
	struct event e, prev = { 0 };
	struct rng r;
	const int n = 100000;

	(void)state;
	eventq_init(&q);
	rng_init(&r, 42, 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(eventq_push(&q, (sim_ns)rng_below(&r, 1000), 0, (uint32_t)i,
					     0, 0), 0);
	assert_int_equal(q.len, n);
	assert_true(q.cap >= (size_t)n); /* grew well past the first allocation */
	assert_int_equal(q.pushed, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(eventq_pop(&q, &e), 1);
		if (i > 0) {
			assert_true(e.time >= prev.time);
			if (e.time == prev.time)
				assert_true(e.seq > prev.seq);
		}
		prev = e;
	}
	assert_int_equal(eventq_pop(&q, &e), 0);
	eventq_free(&q);
}

/* Pushing while popping, as the engine does, keeps the order. */
static void test_interleaved(void **state)
{
	struct eventq q;
	struct event e;
	struct rng r;
	sim_ns now = 0;

	(void)state;
	eventq_init(&q);
	rng_init(&r, 7, 1);
	for (int i = 0; i < 64; i++)
		assert_int_equal(eventq_push(&q, (sim_ns)rng_below(&r, 100), 0, 0, 0, 0), 0);
	for (int i = 0; i < 10000; i++) {
		assert_int_equal(eventq_pop(&q, &e), 1);
		assert_true(e.time >= now);
		now = e.time;
		assert_int_equal(eventq_push(&q, now + (sim_ns)rng_below(&r, 100), 0, 0, 0, 0), 0);
	}
	assert_int_equal(q.len, 64);
	eventq_free(&q);
}

static void test_fields_kept(void **state)
{
	struct eventq q;
	struct event e;

	(void)state;
	eventq_init(&q);
	assert_int_equal(eventq_push(&q, 5, 11, 22, 33, 44), 0);
	assert_int_equal(eventq_pop(&q, &e), 1);
	assert_int_equal(e.time, 5);
	assert_int_equal(e.kind, 11);
	assert_int_equal(e.obj, 22);
	assert_int_equal(e.gen, 33);
	assert_int_equal(e.arg, 44);
	eventq_free(&q);
	assert_null(q.heap);
	assert_int_equal(q.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_equal_times_fifo),
		cmocka_unit_test(test_random_pushes_pop_sorted),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_fields_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
