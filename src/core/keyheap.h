// SPDX-License-Identifier: GPL-2.0-only
/* An indexed min-heap of deadlines, one per key (0..nkeys-1), ordered by
 * (time, sequence number) as the event queue orders events. A key's
 * deadline is set, moved or cancelled in place, as the kernel re-arms or
 * cancels a queued hrtimer, so nothing cancelled is ever popped. The
 * engine keeps each CPU's end of burst here, beside the event queue
 * (engine/sim.c takes whichever is earlier); the sequence numbers come
 * from the event queue, so the order of events is what a post to it
 * would have given. */
#ifndef PMLAB_KEYHEAP_H
#define PMLAB_KEYHEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "simtime.h"

/* A deadline in the heap carries its order with it, so a sift compares
 * neighbouring nodes without looking each key's deadline up. The key
 * rides below the sequence number, in its low KEYHEAP_KEY_BITS: 16-byte
 * nodes, which a move copies as one vector and an index reaches by a
 * shift (from 24 bytes: tbench, hackbench and periodic -7 to -8
 * instr/event), ordered as (time, seq) was, the sequence numbers being
 * distinct. Hence at most KEYHEAP_MAX_KEYS keys (keyheap_init()) and
 * sequence numbers below KEYHEAP_MAX_SEQ (--check: engine/sim.c; 2^48
 * events, years of simulating). */
enum { KEYHEAP_KEY_BITS = 16 };
#define KEYHEAP_MAX_KEYS (UINT32_C(1) << KEYHEAP_KEY_BITS)
#define KEYHEAP_MAX_SEQ (UINT64_C(1) << (64 - KEYHEAP_KEY_BITS))

struct keyheap_node {
	sim_ns time;
	uint64_t order; /* seq << KEYHEAP_KEY_BITS | key */
};

static inline uint64_t keyheap_order(uint64_t seq, uint32_t key)
{
	return seq << KEYHEAP_KEY_BITS | key;
}

/* The key an order carries. */
static inline uint32_t keyheap_order_key(uint64_t order)
{
	return (uint32_t)(order & (KEYHEAP_MAX_KEYS - 1));
}

static inline uint32_t keyheap_node_key(const struct keyheap_node *x)
{
	return keyheap_order_key(x->order);
}

static inline uint64_t keyheap_node_seq(const struct keyheap_node *x)
{
	return x->order >> KEYHEAP_KEY_BITS;
}

struct keyheap {
	struct keyheap_node *heap; /* earliest first */
	uint32_t *pos;  /* by key: index in heap, or UINT32_MAX when not set */
	uint32_t n, nkeys;
};

/* -1 if memory runs out or nkeys is over KEYHEAP_MAX_KEYS. */
int keyheap_init(struct keyheap *h, uint32_t nkeys);
void keyheap_free(struct keyheap *h);
/* Takes the earliest deadline out (there must be one). */
struct keyheap_node keyheap_pop(struct keyheap *h);

/* The sifts (keyheap.c), out of line: x into the hole at i, which has
 * children; up, moving the parents x comes before down into the hole, or
 * down, moving up the children that come before x (keyheap_move(), below,
 * the same for x replacing the node at i, is inline)... */
void keyheap_settle(struct keyheap *h, uint32_t i, const struct keyheap_node *x);
/* ...and only up. */
void keyheap_sift_up(struct keyheap *h, uint32_t i, const struct keyheap_node *x);

static inline bool keyheap_node_before(const struct keyheap_node *a, const struct keyheap_node *b)
{
	return a->time < b->time || (a->time == b->time && a->order < b->order);
}

/* Whether the node at i has children. */
static inline bool keyheap_inner(const struct keyheap *h, uint32_t i)
{
	return 2 * i + 1 < h->n;
}

/* The arrays are passed, not the heap: a sift reads them once (the moves
 * cannot change them; through h the compiler reloaded them at every level). */
static inline void keyheap_place(struct keyheap_node *heap, uint32_t *pos, uint32_t i,
				 const struct keyheap_node *x)
{
	heap[i] = *x;
	pos[keyheap_node_key(x)] = i;
}

/* Moves the hole at i up while x comes before the parent; returns where
 * x belongs on that path. */
static inline uint32_t keyheap_hole_up(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	struct keyheap_node *heap = h->heap;
	uint32_t *pos = h->pos;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!keyheap_node_before(x, &heap[parent]))
			break;
		keyheap_place(heap, pos, i, &heap[parent]);
		i = parent;
	}
	return i;
}

/* Moves the hole at i down while a child comes before x. */
static inline uint32_t keyheap_hole_down(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	struct keyheap_node *heap = h->heap;
	uint32_t *pos = h->pos;
	const uint32_t n = h->n;
	for (;;) {
		uint32_t child = 2 * i + 1;
		if (child >= n)
			break;
		if (child + 1 < n && keyheap_node_before(&heap[child + 1], &heap[child]))
			child++;
		if (!keyheap_node_before(&heap[child], x))
			break;
		keyheap_place(heap, pos, i, &heap[child]);
		i = child;
	}
	return i;
}

/* x replacing the node at i, which tells the way: an earlier deadline can
 * only go up, a later one only down. Always inline, as keyheap_set() is:
 * the per-CPU deadline's re-arm (cpu_arm_done()) moves an inner node at
 * most burst ends on the many CPUs' heaps (tbench), and LTO inlined it
 * only while keyheap_set() had at most two callers (out of line: tbench
 * +13 instr/event). */
static inline __attribute__((always_inline)) void keyheap_move(struct keyheap *h, uint32_t i,
								const struct keyheap_node *x)
{
	if (keyheap_node_before(x, &h->heap[i]))
		i = keyheap_hole_up(h, i, x);
	else
		i = keyheap_hole_down(h, i, x);
	keyheap_place(h->heap, h->pos, i, x);
}

/* Puts x in the hole at i, a leaf: up if it comes before the parent. On
 * the few CPUs' heaps of the common cases most deadlines set, moved or
 * left by a cancel end in a leaf that is theirs already (a new one after
 * the others, the only one), which then takes one comparison and no
 * call. */
static inline void keyheap_fill_leaf(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	if (i > 0 && keyheap_node_before(x, &h->heap[(i - 1) / 2])) {
		keyheap_sift_up(h, i, x);
	} else {
		h->heap[i] = *x;
		h->pos[keyheap_node_key(x)] = i;
	}
}

/* keyheap_fill_leaf() of the node (time, seq, key), built in memory only
 * for the sift: the common leaf that stays put is written field by field
 * (a node built first went through the stack, its address being taken). */
static inline void keyheap_set_leaf(struct keyheap *h, uint32_t i, sim_ns time, uint64_t seq,
				    uint32_t key)
{
	struct keyheap_node *heap = h->heap;
	const uint64_t order = keyheap_order(seq, key);
	if (i > 0) {
		const struct keyheap_node *parent = &heap[(i - 1) / 2];
		if (time < parent->time || (time == parent->time && order < parent->order)) {
			const struct keyheap_node x = { time, order };
			keyheap_sift_up(h, i, &x);
			return;
		}
	}
	heap[i].time = time;
	heap[i].order = order;
	h->pos[key] = i;
}

/* Sets or moves key's deadline; seq below KEYHEAP_MAX_SEQ. The first
 * one, re-armed by its own handler (the engine's next end of burst on the
 * CPU whose burst just ended: nearly every event of tbench), is tested
 * first: with no parent it can only go down, without keyheap_move()'s
 * comparison that tells the way or keyheap_inner()'s test (a heap of one
 * has no child for the sift to find). */
static inline __attribute__((always_inline)) void keyheap_set(struct keyheap *h, uint32_t key, sim_ns time, uint64_t seq)
{
	uint32_t at = h->pos[key];
	if (at == 0) {
		const struct keyheap_node x = { time, keyheap_order(seq, key) };
		keyheap_place(h->heap, h->pos, keyheap_hole_down(h, 0, &x), &x);
	} else if (at == UINT32_MAX) {
		keyheap_set_leaf(h, h->n++, time, seq, key); /* a new deadline: after the last */
	} else if (keyheap_inner(h, at)) {
		const struct keyheap_node x = { time, keyheap_order(seq, key) };
		keyheap_move(h, at, &x);
	} else {
		keyheap_set_leaf(h, at, time, seq, key);
	}
}

/* Sets the deadline of a key that has none, which the caller knows (a
 * CPU leaving idle: engine/cpu.c), without keyheap_set()'s look at where
 * it is: a new deadline after the last. */
static inline void keyheap_add(struct keyheap *h, uint32_t key, sim_ns time, uint64_t seq)
{
	keyheap_set_leaf(h, h->n++, time, seq, key);
}

/* Takes the node at i out: the last one fills its hole. The last node is
 * read where it lies, not copied: past the heap's end once n is one less,
 * no move writes there. */
static inline void keyheap_remove_at(struct keyheap *h, uint32_t i)
{
	h->pos[keyheap_node_key(&h->heap[i])] = UINT32_MAX;
	uint32_t last = --h->n;
	if (i == last)
		return;
	const struct keyheap_node *x = &h->heap[last];
	if (keyheap_inner(h, i))
		keyheap_settle(h, i, x);
	else
		keyheap_fill_leaf(h, i, x);
}

/* Takes key's deadline out, if it has one. */
static inline void keyheap_cancel(struct keyheap *h, uint32_t key)
{
	uint32_t at = h->pos[key];
	if (at != UINT32_MAX)
		keyheap_remove_at(h, at);
}

/* Takes the earliest deadline out (there must be one), where the caller
 * knows it is the one to cancel: keyheap_cancel() without the look at
 * where the key's is, and with the fill of the hole at the top. */
static inline void keyheap_remove_first(struct keyheap *h)
{
	keyheap_remove_at(h, 0);
}

/* Takes a deadline out if it is still there, as `order` (its node's:
 * key and sequence number) says: after the earliest was handled in place
 * (keyheap_first()), unless it was moved or cancelled meanwhile. */
static inline void keyheap_cancel_order(struct keyheap *h, uint64_t order)
{
	uint32_t at = h->pos[keyheap_order_key(order)];
	if (at != UINT32_MAX && h->heap[at].order == order)
		keyheap_remove_at(h, at);
}

/* The earliest deadline (there must be one), left in place: a handler
 * that re-arms its key moves it down from the top, one sift where a pop
 * and a set take two. */
static inline const struct keyheap_node *keyheap_first(const struct keyheap *h)
{
	return &h->heap[0];
}

/* Whether key has a deadline set. */
static inline bool keyheap_has(const struct keyheap *h, uint32_t key)
{
	return h->pos[key] != UINT32_MAX;
}

/* When key's deadline is (it must have one). */
static inline sim_ns keyheap_time(const struct keyheap *h, uint32_t key)
{
	return h->heap[h->pos[key]].time;
}

/* Whether the earliest deadline (there must be one) comes before an
 * event at (time, seq). */
static inline bool keyheap_first_before(const struct keyheap *h, sim_ns time, uint64_t seq)
{
	const struct keyheap_node *f = &h->heap[0];
	return f->time < time || (f->time == time && keyheap_node_seq(f) < seq);
}

#endif
