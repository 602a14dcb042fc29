// SPDX-License-Identifier: GPL-2.0-only
/* A CFS run queue: the runnable tasks of one CPU, not counting the one
 * running, ordered by (vruntime, task id) in a binary min-heap. The heap
 * keeps each task's position so that the balancer can take any task out. */
#ifndef PMLAB_RQ_H
#define PMLAB_RQ_H

#include <stdint.h>

#include "task.h"

struct rq {
	struct task **heap;
	int len, cap;
	uint64_t min_vruntime; /* monotonic, as cfs_rq->min_vruntime */
	uint64_t load;         /* sum of weights of queued tasks */
};

void rq_init(struct rq *rq);
void rq_free(struct rq *rq);
/* Out of line: a bigger heap (-1 on out of memory), and the task at i
 * moved up or down to where it belongs. */
int rq_grow(struct rq *rq);
void rq_settle(struct rq *rq, int i);

/* Inline, as they run at every enqueue and pick: the common case (a task
 * joining an empty queue, the first or last leaving) does no sift. */
static inline int rq_push(struct rq *rq, struct task *t) /* -1 on out of memory */
{
	if (rq->len == rq->cap && rq_grow(rq) < 0)
		return -1;
	int i = rq->len++;
	rq->heap[i] = t;
	t->rq_pos = i;
	rq->load += t->weight;
	if (i > 0)
		rq_settle(rq, i);
	return 0;
}

static inline void rq_remove(struct rq *rq, struct task *t)
{
	int i = t->rq_pos;
	struct task *last = rq->heap[--rq->len];
	rq->load -= t->weight;
	t->rq_pos = -1;
	if (i == rq->len)
		return;
	rq->heap[i] = last;
	last->rq_pos = i;
	rq_settle(rq, i);
}
static inline struct task *rq_first(const struct rq *rq)
{
	return rq->len ? rq->heap[0] : 0;
}

#endif
