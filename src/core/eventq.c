// SPDX-License-Identifier: GPL-2.0-only
#include "eventq.h"

#include <stdlib.h>

void eventq_init(struct eventq *q)
{
	q->heap = NULL;
	q->len = q->cap = 0;
	q->next_seq = 0;
	q->pushed = 0;
}

void eventq_free(struct eventq *q)
{
	free(q->heap);
	eventq_init(q);
}

/* A 4-ary heap: half the depth of a binary one, and a node's children
 * share a cache line or two, which makes pops markedly cheaper. */
#define ARITY 4

static inline int before(const struct event *a, const struct event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int eventq_push(struct eventq *q, sim_ns time, uint32_t kind, uint32_t obj,
		uint32_t gen, uint32_t arg)
{
	if (q->len == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		struct event *h = realloc(q->heap, cap * sizeof(*h));
		if (!h)
			return -1;
		q->heap = h;
		q->cap = cap;
	}
	struct event e = { time, q->next_seq++, kind, obj, gen, arg };
	size_t i = q->len++;
	while (i > 0) {
		size_t parent = (i - 1) / ARITY;
		if (!before(&e, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = e;
	q->pushed++;
	return 0;
}

/* The earliest of a node's children first..end-1. A full set of four
 * (every level but the last) is a tournament of two pairs: three
 * comparisons without a loop's bookkeeping. */
static inline size_t earliest_child(const struct event *h, size_t first, size_t end)
{
	if (end - first == ARITY) {
		size_t a = first + (size_t)before(&h[first + 1], &h[first]);
		size_t b = first + 2 + (size_t)before(&h[first + 3], &h[first + 2]);
		return before(&h[b], &h[a]) ? b : a;
	}
	size_t child = first;
	for (size_t k = first + 1; k < end; k++)
		if (before(&h[k], &h[child]))
			child = k;
	return child;
}

int eventq_pop(struct eventq *q, struct event *out)
{
	if (q->len == 0)
		return 0;
	struct event *h = q->heap;
	*out = h[0];
	size_t n = --q->len;
	if (n == 0)
		return 1;
	/* The last event fills the hole at the root, moved down past every
	 * child that comes before it. */
	const struct event last = h[n];
	size_t i = 0;
	for (;;) {
		size_t first = ARITY * i + 1;
		if (first >= n)
			break;
		size_t child = earliest_child(h, first, first + ARITY < n ? first + ARITY : n);
		if (!before(&h[child], &last))
			break;
		h[i] = h[child];
		i = child;
	}
	h[i] = last;
	return 1;
}
