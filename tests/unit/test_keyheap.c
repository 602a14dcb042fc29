// SPDX-License-Identifier: GPL-2.0-only
/* Keyed deadlines (core/keyheap): set, moved and cancelled in place, they
 * come out as a lazily cancelled event queue gives its live events. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/eventq.h"
#include "core/keyheap.h"
#include "core/rng.h"

enum { KEYS = 16 };

/* The next event of the lazy twin whose generation is current; 0 when
 * none is left. */
static int lazy_pop_live(struct eventq *q, const uint32_t *gen, struct event *e)
{
	while (eventq_pop(q, e))
		if (e->gen == gen[e->obj])
			return 1;
	return 0;
}

/* Pops the earliest deadline: its key, time and sequence number. */
static int keyed_pop(struct keyheap *h, uint32_t *key, sim_ns *time, uint64_t *seq)
{
	if (!h->n)
		return 0;
	struct keyheap_node first = keyheap_pop(h);
	*key = keyheap_node_key(&first);
	*time = first.time;
	*seq = keyheap_node_seq(&first);
	return 1;
}

/* Random sets, moves, cancels and pops of 16 keys, many at equal times;
 * the twin posts each set as a new event (sequence numbers from its own
 * counter, which the keyed heap borrows) and ignores old generations. */
static void test_same_as_lazy(void **state)
{
	struct keyheap h;
	struct eventq lazy;
	struct event b;
	struct rng r;
	uint32_t gen[KEYS] = { 0 };
	uint32_t key = 0;
	sim_ns now = 0;
	sim_ns time = 0;
	uint64_t seq = 0;
	int pops = 0;

	(void)state;
	assert_int_equal(keyheap_init(&h, KEYS), 0);
	eventq_init(&lazy);
	rng_init(&r, 99, 3);
	for (int i = 0; i < 200000; i++) {
		uint32_t k = (uint32_t)rng_below(&r, KEYS);
		sim_ns at = now + (sim_ns)rng_below(&r, 50);
		switch (rng_below(&r, 3)) {
		case 0: /* set or move key k (a key with none: either way) */
			gen[k]++;
			if (!keyheap_has(&h, k) && (i & 1))
				keyheap_add(&h, k, at, lazy.next_seq);
			else
				keyheap_set(&h, k, at, lazy.next_seq);
			assert_int_equal(eventq_push(&lazy, at, 0, k, gen[k], 0), 0);
			assert_true(keyheap_has(&h, k));
			break;
		case 1: /* cancel key k */
			gen[k]++;
			keyheap_cancel(&h, k);
			assert_false(keyheap_has(&h, k));
			break;
		default: /* pop the earliest from each */
			if (!lazy_pop_live(&lazy, gen, &b)) {
				assert_int_equal(h.n, 0);
				break;
			}
			assert_int_equal(keyed_pop(&h, &key, &time, &seq), 1);
			assert_int_equal(key, b.obj);
			assert_int_equal(time, b.time);
			assert_int_equal(seq, b.seq);
			gen[key]++; /* fired */
			now = time;
			pops++;
			break;
		}
	}
	assert_true(pops > 10000);
	for (;;) {
		int got = lazy_pop_live(&lazy, gen, &b);
		assert_int_equal(keyed_pop(&h, &key, &time, &seq), got);
		if (!got)
			break;
		assert_int_equal(seq, b.seq);
		gen[key]++;
	}
	keyheap_free(&h);
	eventq_free(&lazy);
}

/* The earliest deadline handled in place (keyheap_first()) while other
 * keys are set and cancelled, then re-armed, cancelled or left, and what
 * is left of it taken out (keyheap_cancel_order()): the deadlines come out
 * as the lazy twin gives its live events, as with keyheap_pop(). */
static void test_in_place_same_as_lazy(void **state)
{
	struct keyheap h;
	struct eventq lazy;
	struct event b;
	struct rng r;
	uint32_t gen[KEYS] = { 0 };
	sim_ns now = 0;
	int handled = 0, rearmed = 0, left = 0;

	(void)state;
	assert_int_equal(keyheap_init(&h, KEYS), 0);
	eventq_init(&lazy);
	rng_init(&r, 7, 1);
	for (int i = 0; i < 200000; i++) {
		uint32_t k = (uint32_t)rng_below(&r, KEYS);
		sim_ns at = now + (sim_ns)rng_below(&r, 50);
		if (rng_below(&r, 2)) { /* set or move key k */
			gen[k]++;
			keyheap_set(&h, k, at, lazy.next_seq);
			assert_int_equal(eventq_push(&lazy, at, 0, k, gen[k], 0), 0);
			continue;
		}
		if (!lazy_pop_live(&lazy, gen, &b)) {
			assert_int_equal(h.n, 0);
			continue;
		}
		const struct keyheap_node *first = keyheap_first(&h);
		const struct {
			sim_ns time;
			uint64_t seq;
			uint32_t key;
		} f = { first->time, keyheap_node_seq(first), keyheap_node_key(first) };
		assert_int_equal(f.key, b.obj);
		assert_int_equal(f.time, b.time);
		assert_int_equal(f.seq, b.seq);
		now = f.time;
		gen[f.key]++; /* fired */
		handled++;
		/* The handler moves other keys, then deals with its own. */
		for (int j = 0; j < 2; j++) {
			uint32_t o = (uint32_t)rng_below(&r, KEYS);
			if (o == f.key)
				continue;
			gen[o]++;
			if (rng_below(&r, 2)) {
				keyheap_set(&h, o, now + (sim_ns)rng_below(&r, 50), lazy.next_seq);
				assert_int_equal(eventq_push(&lazy, h.heap[h.pos[o]].time, 0, o, gen[o], 0),
						 0);
			} else {
				keyheap_cancel(&h, o);
			}
		}
		bool armed = false;
		switch (rng_below(&r, 3)) {
		case 0: /* re-armed */
			armed = true;
			gen[f.key]++;
			keyheap_set(&h, f.key, now + (sim_ns)rng_below(&r, 50), lazy.next_seq);
			assert_int_equal(
				eventq_push(&lazy, h.heap[h.pos[f.key]].time, 0, f.key, gen[f.key], 0), 0);
			rearmed++;
			break;
		case 1: /* cancelled */
			keyheap_cancel(&h, f.key);
			break;
		default: /* left as it was */
			left++;
			break;
		}
		keyheap_cancel_order(&h, keyheap_order(f.seq, f.key));
		assert_int_equal(keyheap_has(&h, f.key), armed);
	}
	assert_true(handled > 10000 && rearmed > 1000 && left > 1000);
	for (;;) {
		int got = lazy_pop_live(&lazy, gen, &b);
		assert_int_equal(h.n > 0, got);
		if (!got)
			break;
		struct keyheap_node first = keyheap_pop(&h);
		assert_int_equal(keyheap_node_seq(&first), b.seq);
		gen[keyheap_node_key(&first)]++;
	}
	keyheap_free(&h);
	eventq_free(&lazy);
}

/* keyheap_first_before() orders a deadline against an event by time,
 * then by sequence number. */
static void test_first_before(void **state)
{
	struct keyheap h;

	(void)state;
	assert_int_equal(keyheap_init(&h, 3), 0);
	keyheap_set(&h, 2, 100, 7);
	keyheap_set(&h, 1, 50, 9);
	assert_int_equal(keyheap_node_key(&h.heap[0]), 1);
	assert_true(keyheap_first_before(&h, 51, 0));
	assert_true(keyheap_first_before(&h, 50, 10));
	assert_false(keyheap_first_before(&h, 50, 8));
	assert_false(keyheap_first_before(&h, 49, 100));
	keyheap_set(&h, 1, 200, 11); /* moved later: key 2 is first */
	assert_int_equal(keyheap_node_key(&h.heap[0]), 2);
	keyheap_cancel(&h, 2);
	keyheap_cancel(&h, 2); /* not set: nothing */
	assert_int_equal(h.n, 1);
	assert_int_equal(keyheap_node_key(&h.heap[0]), 1);
	assert_false(keyheap_has(&h, 0));
	keyheap_free(&h);
}

/* The key rides below the sequence number (16-byte nodes): the largest
 * key and sequence number come back whole, and at equal times the
 * sequence number orders, not the key. More keys than fit: refused. */
static void test_packed_key_and_seq(void **state)
{
	struct keyheap h;
	const uint32_t top = KEYHEAP_MAX_KEYS - 1;
	const uint64_t big = KEYHEAP_MAX_SEQ - 1;

	(void)state;
	assert_int_equal(keyheap_init(&h, KEYHEAP_MAX_KEYS + 1), -1);
	assert_int_equal(keyheap_init(&h, KEYHEAP_MAX_KEYS), 0);
	keyheap_set(&h, 0, 7, big);
	keyheap_set(&h, top, 7, big - 1); /* same time, earlier number: first */
	keyheap_set(&h, 1, 7, big - 2); /* earlier still, via keyheap_add() below */
	keyheap_cancel(&h, 1);
	keyheap_add(&h, 1, 7, 3);
	assert_true(keyheap_first_before(&h, 7, 4));
	assert_false(keyheap_first_before(&h, 7, 2));
	struct keyheap_node first = keyheap_pop(&h);
	assert_int_equal(keyheap_node_key(&first), 1);
	assert_int_equal(keyheap_node_seq(&first), 3);
	first = keyheap_pop(&h);
	assert_int_equal(keyheap_node_key(&first), top);
	assert_int_equal(keyheap_node_seq(&first), big - 1);
	assert_true(keyheap_first_before(&h, 7, KEYHEAP_MAX_SEQ));
	assert_false(keyheap_first_before(&h, 7, big - 1));
	keyheap_cancel_order(&h, keyheap_order(big - 1, 0)); /* another number: left */
	assert_true(keyheap_has(&h, 0));
	keyheap_cancel_order(&h, keyheap_order(big, 0));
	assert_false(keyheap_has(&h, 0));
	keyheap_set(&h, top, 9, big);
	assert_int_equal(keyheap_time(&h, top), 9);
	assert_int_equal(h.pos[top], 0);
	keyheap_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_lazy),
		cmocka_unit_test(test_in_place_same_as_lazy),
		cmocka_unit_test(test_first_before),
		cmocka_unit_test(test_packed_key_and_seq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
