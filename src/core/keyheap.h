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
 * neighbouring nodes without looking each key's deadline up. */
struct keyheap_node {
	sim_ns time;
	uint64_t seq;
	uint32_t key;
};

struct keyheap {
	struct keyheap_node *heap; /* earliest first */
	uint32_t *pos;  /* by key: index in heap, or UINT32_MAX when not set */
	uint32_t n, nkeys;
};

/* -1 only if memory runs out. */
int keyheap_init(struct keyheap *h, uint32_t nkeys);
void keyheap_free(struct keyheap *h);
/* Sets or moves key's deadline. */
void keyheap_set(struct keyheap *h, uint32_t key, sim_ns time, uint64_t seq);
/* Takes key's deadline out, if it has one. */
void keyheap_cancel(struct keyheap *h, uint32_t key);
/* Takes key's deadline out if it is still the one set with `seq`: after
 * the earliest was handled in place (keyheap_first()), unless it was
 * moved or cancelled meanwhile. */
void keyheap_cancel_seq(struct keyheap *h, uint32_t key, uint64_t seq);
/* Takes the earliest deadline out (there must be one). */
struct keyheap_node keyheap_pop(struct keyheap *h);

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

/* Whether the earliest deadline (there must be one) comes before an
 * event at (time, seq). */
static inline bool keyheap_first_before(const struct keyheap *h, sim_ns time, uint64_t seq)
{
	const struct keyheap_node *f = &h->heap[0];
	return f->time < time || (f->time == time && f->seq < seq);
}

#endif
