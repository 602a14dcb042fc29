// SPDX-License-Identifier: GPL-2.0-only
#include "rq.h"

#include <stdlib.h>

void rq_init(struct rq *rq)
{
	rq->heap = NULL;
	rq->len = rq->cap = 0;
	rq->min_vruntime = 0;
	rq->load = 0;
}

void rq_free(struct rq *rq)
{
	free(rq->heap);
	rq->heap = NULL;
	rq->len = rq->cap = 0;
}

static inline void place(struct rq *rq, int i, struct task *t)
{
	rq->heap[i] = t;
	t->rq_pos = i;
}

void rq_sift_up(struct rq *rq, int i)
{
	struct task *t = rq->heap[i];
	while (i > 0) {
		int parent = (i - 1) / 2;
		if (!rq_less(t, rq->heap[parent]))
			break;
		place(rq, i, rq->heap[parent]);
		i = parent;
	}
	place(rq, i, t);
}

void rq_sift_down(struct rq *rq, int i)
{
	struct task *t = rq->heap[i];
	for (;;) {
		int child = 2 * i + 1;
		if (child >= rq->len)
			break;
		if (child + 1 < rq->len && rq_less(rq->heap[child + 1], rq->heap[child]))
			child++;
		if (!rq_less(rq->heap[child], t))
			break;
		place(rq, i, rq->heap[child]);
		i = child;
	}
	place(rq, i, t);
}

int rq_grow(struct rq *rq)
{
	int cap = rq->cap ? rq->cap * 2 : 8;
	struct task **h = realloc(rq->heap, (size_t)cap * sizeof(*h));
	if (!h)
		return -1;
	rq->heap = h;
	rq->cap = cap;
	return 0;
}

void rq_settle(struct rq *rq, int i)
{
	struct task *t = rq->heap[i];
	if (i > 0 && rq_less(t, rq->heap[(i - 1) / 2]))
		rq_sift_up(rq, i);
	else
		rq_sift_down(rq, i);
}
