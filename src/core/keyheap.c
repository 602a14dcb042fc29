// SPDX-License-Identifier: GPL-2.0-only
#include "keyheap.h"

#include <stdlib.h>

int keyheap_init(struct keyheap *h, uint32_t nkeys)
{
	size_t n = nkeys ? nkeys : 1;
	h->heap = malloc(n * sizeof(*h->heap));
	h->pos = malloc(n * sizeof(*h->pos));
	h->n = 0;
	h->nkeys = nkeys;
	if (!h->heap || !h->pos)
		return -1;
	for (uint32_t k = 0; k < nkeys; k++)
		h->pos[k] = UINT32_MAX;
	return 0;
}

void keyheap_free(struct keyheap *h)
{
	free(h->heap);
	free(h->pos);
	*h = (struct keyheap){ 0 };
}

static inline bool before(const struct keyheap_node *a, const struct keyheap_node *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	h->heap[i] = *x;
	h->pos[x->key] = i;
}

/* Puts x in the hole at i: up or down from there (a binary heap). */
static void settle(struct keyheap *h, uint32_t i, struct keyheap_node x)
{
	while (i > 0 && before(&x, &h->heap[(i - 1) / 2])) {
		place(h, i, &h->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		uint32_t child = 2 * i + 1;
		if (child >= h->n)
			break;
		if (child + 1 < h->n && before(&h->heap[child + 1], &h->heap[child]))
			child++;
		if (!before(&h->heap[child], &x))
			break;
		place(h, i, &h->heap[child]);
		i = child;
	}
	place(h, i, &x);
}

void keyheap_set(struct keyheap *h, uint32_t key, sim_ns time, uint64_t seq)
{
	uint32_t at = h->pos[key];
	if (at == UINT32_MAX)
		at = h->n++;
	settle(h, at, (struct keyheap_node){ time, seq, key });
}

/* Fills the hole at i with the last node. */
static void remove_at(struct keyheap *h, uint32_t i)
{
	h->pos[h->heap[i].key] = UINT32_MAX;
	if (i != --h->n)
		settle(h, i, h->heap[h->n]);
}

void keyheap_cancel(struct keyheap *h, uint32_t key)
{
	uint32_t at = h->pos[key];
	if (at != UINT32_MAX)
		remove_at(h, at);
}

struct keyheap_node keyheap_pop(struct keyheap *h)
{
	struct keyheap_node first = h->heap[0];
	remove_at(h, 0);
	return first;
}
