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
/* rq_settle() where the task at i can go one way only: up (a new leaf),
 * or down (the root). */
void rq_sift_up(struct rq *rq, int i);
void rq_sift_down(struct rq *rq, int i);

static inline int rq_less(const struct task *a, const struct task *b)
{
	return a->vruntime < b->vruntime || (a->vruntime == b->vruntime && a->id < b->id);
}

/* Inline, as they run at every enqueue and pick: the common case (a task
 * joining an empty queue, the first or last leaving) does no sift. A task
 * pushed is a leaf, which only goes up, and the call is made only where
 * it comes before its parent (the queues of a busy machine, hackbench's
 * and tbench's, take most tasks after the others); the last task that
 * fills the first one's place only goes down. */
static inline int rq_push(struct rq *rq, struct task *t) /* -1 on out of memory */
{
	if (rq->len == rq->cap && rq_grow(rq) < 0)
		return -1;
	int i = rq->len++;
	rq->heap[i] = t;
	t->rq_pos = i;
	rq->load += t->weight;
	if (i > 0 && rq_less(t, rq->heap[(i - 1) / 2]))
		rq_sift_up(rq, i);
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
	if (i == 0)
		rq_sift_down(rq, 0);
	else
		rq_settle(rq, i);
}
static inline struct task *rq_first(const struct rq *rq)
{
	return rq->len ? rq->heap[0] : 0;
}

#endif
