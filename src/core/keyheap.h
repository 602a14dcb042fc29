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

struct keyheap {
	sim_ns *time;   /* by key */
	uint64_t *seq;  /* by key */
	uint32_t *pos;  /* by key: index in heap, or UINT32_MAX when not set */
	uint32_t *heap; /* keys, earliest first */
	uint32_t n, nkeys;
};

/* -1 only if memory runs out. */
int keyheap_init(struct keyheap *h, uint32_t nkeys);
void keyheap_free(struct keyheap *h);
/* Sets or moves key's deadline. */
void keyheap_set(struct keyheap *h, uint32_t key, sim_ns time, uint64_t seq);
/* Takes key's deadline out, if it has one. */
void keyheap_cancel(struct keyheap *h, uint32_t key);

/* Whether key has a deadline set. */
static inline bool keyheap_has(const struct keyheap *h, uint32_t key)
{
	return h->pos[key] != UINT32_MAX;
}

/* Whether the earliest deadline (there must be one) comes before an
 * event at (time, seq). */
static inline bool keyheap_first_before(const struct keyheap *h, sim_ns time, uint64_t seq)
{
	uint32_t k = h->heap[0];
	return h->time[k] < time || (h->time[k] == time && h->seq[k] < seq);
}

#endif
