// SPDX-License-Identifier: GPL-2.0-only
/* The CFS run queue (sched/rq): random enqueues, picks and removals from
 * anywhere keep it a heap ordered by (vruntime, id), each task knowing its
 * place, and its first the earliest task queued. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/rng.h"
#include "sched/rq.h"

enum { TASKS = 24 };

/* Every node after its parent, every task at the place it records, and
 * the first the earliest of the tasks queued (by a scan). */
static void assert_heap(const struct rq *rq, const struct task *tasks)
{
	for (int i = 0; i < rq->len; i++) {
		assert_int_equal(rq->heap[i]->rq_pos, i);
		if (i > 0)
			assert_false(rq_less(rq->heap[i], rq->heap[(i - 1) / 2]));
	}
	const struct task *min = NULL;
	for (int k = 0; k < TASKS; k++) {
		const struct task *t = &tasks[k];
		if (t->rq_pos >= 0 && (!min || t->vruntime < min->vruntime ||
				       (t->vruntime == min->vruntime && t->id < min->id)))
			min = t;
	}
	assert_ptr_equal(rq_first(rq), min);
}

/* Vruntimes from a small range, so that many tie and the id decides; a
 * task pushed may come before its parent or not, a pick leaves the last
 * task at the root, a removal from the middle moves it either way. */
static void test_random_ops_keep_the_order(void **state)
{
	static struct task tasks[TASKS];
	struct rq rq;
	struct rng r;
	int queued = 0;

	(void)state;
	rq_init(&rq);
	rng_init(&r, 7, 1);
	for (int k = 0; k < TASKS; k++) {
		tasks[k].id = (uint32_t)k;
		tasks[k].weight = 1024;
		tasks[k].rq_pos = -1;
	}
	for (int i = 0; i < 100000; i++) {
		struct task *t = &tasks[rng_below(&r, TASKS)];
		uint64_t op = rng_below(&r, 3);
		if (t->rq_pos < 0) {
			t->vruntime = rng_below(&r, 16);
			assert_int_equal(rq_push(&rq, t), 0);
			queued++;
		} else if (op == 0 && rq.len) {
			rq_remove(&rq, rq_first(&rq)); /* a pick */
			queued--;
		} else {
			rq_remove(&rq, t);
			queued--;
		}
		assert_int_equal(rq.len, queued);
		assert_int_equal(rq.load, (uint64_t)queued * 1024);
		assert_heap(&rq, tasks);
	}
	rq_free(&rq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops_keep_the_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
