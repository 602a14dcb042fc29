// SPDX-License-Identifier: GPL-2.0-only
/* A run queue's clamps (uclamp.h). */
#include "uclamp.h"

#include "rq.h"

void uclamp_rq_of(const struct sim *s, int cpu, struct uclamp_rq *out)
{
	const struct sched_knobs *k = sv_knobs(s);
	uclamp_rq_init(out);
	const struct task *curr = sv_curr(s, cpu);
	if (sv_cpu_mode(s, cpu) == SV_RUNNING && curr && curr->state == TASK_RUNNING)
		uclamp_rq_add(out, curr, k);
	const struct rq *rq = sv_rq(s, cpu);
	for (int i = 0; i < rq->len; i++)
		uclamp_rq_add(out, rq->heap[i], k);
}
