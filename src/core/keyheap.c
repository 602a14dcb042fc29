// SPDX-License-Identifier: GPL-2.0-only
#include "keyheap.h"

#include <stdlib.h>

int keyheap_init(struct keyheap *h, uint32_t nkeys)
{
	size_t n = nkeys ? nkeys : 1;
	h->time = malloc(n * sizeof(*h->time));
	h->seq = malloc(n * sizeof(*h->seq));
	h->pos = malloc(n * sizeof(*h->pos));
	h->heap = malloc(n * sizeof(*h->heap));
	h->n = 0;
	h->nkeys = nkeys;
	if (!h->time || !h->seq || !h->pos || !h->heap)
		return -1;
	for (uint32_t k = 0; k < nkeys; k++)
		h->pos[k] = UINT32_MAX;
	return 0;
}

void keyheap_free(struct keyheap *h)
{
	free(h->time);
	free(h->seq);
	free(h->pos);
	free(h->heap);
	*h = (struct keyheap){ 0 };
}

static inline bool before(const struct keyheap *h, uint32_t a, uint32_t b)
{
	return h->time[a] < h->time[b] || (h->time[a] == h->time[b] && h->seq[a] < h->seq[b]);
}

static inline void place(struct keyheap *h, uint32_t i, uint32_t key)
{
	h->heap[i] = key;
	h->pos[key] = i;
}

/* Puts key in the hole at i: up or down from there (a binary heap). */
static void settle(struct keyheap *h, uint32_t i, uint32_t key)
{
	while (i > 0 && before(h, key, h->heap[(i - 1) / 2])) {
		place(h, i, h->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		uint32_t child = 2 * i + 1;
		if (child >= h->n)
			break;
		if (child + 1 < h->n && before(h, h->heap[child + 1], h->heap[child]))
			child++;
		if (!before(h, h->heap[child], key))
			break;
		place(h, i, h->heap[child]);
		i = child;
	}
	place(h, i, key);
}

void keyheap_set(struct keyheap *h, uint32_t key, sim_ns time, uint64_t seq)
{
	h->time[key] = time;
	h->seq[key] = seq;
	uint32_t at = h->pos[key];
	if (at == UINT32_MAX)
		at = h->n++;
	settle(h, at, key);
}

void keyheap_cancel(struct keyheap *h, uint32_t key)
{
	uint32_t at = h->pos[key];
	if (at == UINT32_MAX)
		return;
	h->pos[key] = UINT32_MAX;
	uint32_t last = h->heap[--h->n];
	if (at != h->n)
		settle(h, at, last);
}
