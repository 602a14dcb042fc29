// SPDX-License-Identifier: GPL-2.0-only
/* The simulator's event queue: a 4-ary min-heap of small value records
 * ordered by (time, sequence number). The sequence number makes the order
 * of simultaneous events the order they were posted, so runs are
 * deterministic. Events are never removed: a poster that changes its mind
 * bumps a generation counter it owns and ignores events carrying an old
 * generation ("lazy cancellation"), which keeps push/pop O(log n) with no
 * per-event allocation. */
#ifndef PMLAB_EVENTQ_H
#define PMLAB_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

struct event {
	sim_ns time;
	uint64_t seq;
	uint32_t kind; /* meaning is the engine's */
	uint32_t obj;  /* cpu, task or domain index */
	uint32_t gen;  /* generation of obj's slot when posted */
	uint32_t arg;
};

struct eventq {
	struct event *heap;
	size_t len, cap;
	uint64_t next_seq;
	uint64_t pushed; /* total events ever pushed, for statistics */
};

void eventq_init(struct eventq *q);
void eventq_free(struct eventq *q);
/* Returns -1 only if memory runs out. */
int eventq_push(struct eventq *q, sim_ns time, uint32_t kind, uint32_t obj,
		uint32_t gen, uint32_t arg);
/* Pops the earliest event into *out; returns 0 when the queue is empty. */
int eventq_pop(struct eventq *q, struct event *out);

static inline const struct event *eventq_peek(const struct eventq *q)
{
	return q->len ? &q->heap[0] : NULL;
}

/* The earliest event, of a queue that holds one: no test. */
static inline const struct event *eventq_first(const struct eventq *q)
{
	return &q->heap[0];
}

#endif
