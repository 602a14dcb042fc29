// SPDX-License-Identifier: GPL-2.0-only
#include "keyheap.h"

#include <stdlib.h>

int keyheap_init(struct keyheap *h, uint32_t nkeys)
{
	if (nkeys > KEYHEAP_MAX_KEYS) {
		*h = (struct keyheap){ 0 };
		return -1;
	}
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

/* A node that comes before its parent cannot come after a child. */
void keyheap_settle(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	if (i > 0 && keyheap_node_before(x, &h->heap[(i - 1) / 2]))
		i = keyheap_hole_up(h, i, x);
	else
		i = keyheap_hole_down(h, i, x);
	keyheap_place(h->heap, h->pos, i, x);
}

void keyheap_sift_up(struct keyheap *h, uint32_t i, const struct keyheap_node *x)
{
	keyheap_place(h->heap, h->pos, keyheap_hole_up(h, i, x), x);
}

struct keyheap_node keyheap_pop(struct keyheap *h)
{
	struct keyheap_node first = h->heap[0];
	keyheap_remove_at(h, 0);
	return first;
}
