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

/* The arrays are passed, not the heap: a sift reads them once (the moves
 * cannot change them; through h the compiler reloaded them at every level). */
static inline void place(struct keyheap_node *heap, uint32_t *pos, uint32_t i,
			 const struct keyheap_node *x)
{
	heap[i] = *x;
	pos[x->key] = i;
}

/* Moves the hole at i up while x comes before the parent; returns where
 * x belongs on that path. */
static inline uint32_t hole_up(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	struct keyheap_node *heap = h->heap;
	uint32_t *pos = h->pos;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!keyheap_node_before(x, &heap[parent]))
			break;
		place(heap, pos, i, &heap[parent]);
		i = parent;
	}
	return i;
}

/* Moves the hole at i down while a child comes before x. */
static inline uint32_t hole_down(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
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
		place(heap, pos, i, &heap[child]);
		i = child;
	}
	return i;
}

/* A node that comes before its parent cannot come after a child. */
void keyheap_settle(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	if (i > 0 && keyheap_node_before(x, &h->heap[(i - 1) / 2]))
		i = hole_up(h, i, x);
	else
		i = hole_down(h, i, x);
	place(h->heap, h->pos, i, x);
}

/* An earlier deadline can only go up, a later one only down. */
void keyheap_move(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	if (keyheap_node_before(x, &h->heap[i]))
		i = hole_up(h, i, x);
	else
		i = hole_down(h, i, x);
	place(h->heap, h->pos, i, x);
}

void keyheap_sift_up(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	place(h->heap, h->pos, hole_up(h, i, x), x);
}

struct keyheap_node keyheap_pop(struct keyheap *h)
{
	struct keyheap_node first = h->heap[0];
	keyheap_remove_at(h, 0);
	return first;
}
