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
int rq_push(struct rq *rq, struct task *t); /* -1 on out of memory */
void rq_remove(struct rq *rq, struct task *t);
static inline struct task *rq_first(const struct rq *rq)
{
	return rq->len ? rq->heap[0] : 0;
}

#endif
